/**
 * The effects check's logic (src/core/effects.ts) on constructed filesystems: what it finds, and
 * that it reads only the directories whose ctime moved.
 */
import { describe, expect, it } from "vitest";
import {
  compareSnapshots,
  effectsRoots,
  isProtectedEntryPath,
  recheck,
  takeSnapshot,
  type DirEntry,
  type EffectsFs,
  type EffectsScope,
  type EntryStat,
  type EntryType,
} from "../../src/core/effects.js";

interface Node {
  type: EntryType;
  ino: number;
  ctime: number;
  mtime: number;
  size: number;
  children?: Map<string, Node>;
}

/** A tiny filesystem with a clock: every change sets ctimes the way the kernel does. */
class FakeFs implements EffectsFs {
  private clock = 1;
  private nextIno = 1;
  readonly root: Node = this.node("dir");
  readdirs: string[] = [];
  lstats = 0;
  failList = new Set<string>();
  failStat = new Set<string>();

  private node(type: EntryType): Node {
    const t = this.clock;
    return { type, ino: this.nextIno++, ctime: t, mtime: t, size: 0, ...(type === "dir" ? { children: new Map() } : {}) };
  }
  private tick(): number {
    return ++this.clock;
  }
  private find(path: string): Node | null {
    let n: Node | undefined = this.root;
    for (const part of path.split("/").filter((p) => p !== "")) {
      n = n?.children?.get(part);
      if (n === undefined) return null;
    }
    return n ?? null;
  }
  private split(path: string): { parent: Node; name: string } {
    const i = path.lastIndexOf("/");
    const parent = this.find(path.slice(0, i) || "/");
    if (parent?.children === undefined) throw new Error(`no directory above ${path}`);
    return { parent, name: path.slice(i + 1) };
  }
  private touchDir(n: Node): void {
    const t = this.tick();
    n.ctime = t;
    n.mtime = t;
  }
  mkdir(path: string): this {
    const { parent, name } = this.split(path);
    this.tick();
    parent.children?.set(name, this.node("dir"));
    this.touchDir(parent);
    return this;
  }
  file(path: string, type: EntryType = "file"): this {
    const { parent, name } = this.split(path);
    this.tick();
    parent.children?.set(name, this.node(type));
    this.touchDir(parent);
    return this;
  }
  /** Rewrites a file in place: its own times move, its directory's do not. */
  write(path: string, size = 10): this {
    const n = this.find(path) as Node;
    const t = this.tick();
    n.mtime = t;
    n.ctime = t;
    n.size = size;
    return this;
  }
  /** utimes: sets mtime back; the kernel still sets ctime to now. */
  utimes(path: string, mtime: number): this {
    const n = this.find(path) as Node;
    n.mtime = mtime;
    n.ctime = this.tick();
    return this;
  }
  rename(from: string, to: string): this {
    const a = this.split(from);
    const b = this.split(to);
    const n = a.parent.children?.get(a.name) as Node;
    a.parent.children?.delete(a.name);
    b.parent.children?.set(b.name, n);
    n.ctime = this.tick();
    this.touchDir(a.parent);
    this.touchDir(b.parent);
    return this;
  }
  remove(path: string): this {
    const { parent, name } = this.split(path);
    parent.children?.delete(name);
    this.touchDir(parent);
    return this;
  }

  lstat(path: string): EntryStat | null {
    this.lstats++;
    if (this.failStat.has(path)) throw new Error(`EACCES ${path}`);
    const n = this.find(path);
    if (n === null) return null;
    return { type: n.type, id: `1:${n.ino}`, ctime: String(n.ctime), mtime: String(n.mtime), size: String(n.size) };
  }
  readdir(path: string): DirEntry[] {
    if (this.failList.has(path)) throw new Error(`EACCES ${path}`);
    this.readdirs.push(path);
    const n = this.find(path);
    if (n?.children === undefined) throw new Error(`ENOTDIR ${path}`);
    return [...n.children].map(([name, c]) => ({ name, dir: c.type === "dir" }));
  }
}

const SCOPE: EffectsScope = { roots: ["/ws", "/scratch"], exempt: ["/scratch"], protectedPaths: ["/ws/.git", "/ws/.github"] };

/** A workspace with a repository, a node_modules-like tree, a sub directory, and an exempt scratch. */
function workspace(): FakeFs {
  const fs = new FakeFs();
  fs.mkdir("/ws").mkdir("/ws/.git").file("/ws/.git/config").file("/ws/.git/HEAD").mkdir("/ws/.git/hooks");
  fs.mkdir("/ws/sub").mkdir("/ws/sub/x").file("/ws/sub/file.js").file("/ws/.gitmodules");
  fs.mkdir("/ws/node_modules");
  for (let i = 0; i < 20; i++) fs.mkdir(`/ws/node_modules/p${i}`).file(`/ws/node_modules/p${i}/index.js`);
  fs.mkdir("/scratch").mkdir("/scratch/A").file("/scratch/A/config");
  return fs;
}

function changes(fs: FakeFs, scope: EffectsScope, act: (fs: FakeFs) => void): { op: string; path: string; why: string }[] {
  const before = takeSnapshot(fs, scope);
  act(fs);
  fs.readdirs = [];
  return compareSnapshots(before, recheck(fs, before)).map((c) => ({ op: c.op, path: c.path, why: c.why }));
}

describe("the effects check (pure)", () => {
  it("finds nothing when nothing protected changed, and lists no directory whose ctime stayed", () => {
    const fs = workspace();
    expect(changes(fs, SCOPE, (f) => f.file("/ws/node_modules/p3/new.js").write("/ws/sub/file.js"))).toEqual([]);
    // Only the one directory that gained an entry was listed again.
    expect(fs.readdirs).toEqual(["/ws/node_modules/p3"]);
  });

  it("a .git made in a directory the recorder never named (the `..`-after-a-symlink rename)", () => {
    const fs = workspace();
    expect(changes(fs, SCOPE, (f) => f.rename("/scratch/A", "/ws/sub/.git"))).toEqual([{ op: "mkdir", path: "/ws/sub/.git", why: "new" }]);
  });

  it("a new directory holding a .git is walked whole; its contents are the one change", () => {
    const fs = workspace();
    const found = changes(fs, SCOPE, (f) => {
      f.mkdir("/scratch/B").mkdir("/scratch/B/deep").rename("/scratch/A", "/scratch/B/deep/.git");
      f.rename("/scratch/B", "/ws/node_modules/p7/B");
    });
    expect(found).toEqual([{ op: "mkdir", path: "/ws/node_modules/p7/B/deep/.git", why: "new" }]);
  });

  it("a .git file, .gitmodules or .github made anywhere in a root", () => {
    const fs = workspace();
    const found = changes(fs, SCOPE, (f) => f.file("/ws/sub/x/.git").file("/ws/sub/.gitmodules").mkdir("/ws/.github"));
    expect(found).toEqual([
      { op: "mkdir", path: "/ws/.github", why: "new" },
      { op: "create", path: "/ws/sub/.gitmodules", why: "new" },
      { op: "create", path: "/ws/sub/x/.git", why: "new" },
    ]);
  });

  it("a file inside a .git rewritten in place (its directory's ctime stays), even with its mtime set back", () => {
    const fs = workspace();
    expect(changes(fs, SCOPE, (f) => f.write("/ws/.git/config", 99))).toEqual([
      { op: "write", path: "/ws/.git/config", why: "ctime,mtime,size" },
    ]);
    const fs2 = workspace();
    const mtime = Number(fs2.lstat("/ws/.gitmodules")?.mtime);
    expect(changes(fs2, SCOPE, (f) => f.write("/ws/.gitmodules", 0).utimes("/ws/.gitmodules", mtime))).toEqual([
      { op: "write", path: "/ws/.gitmodules", why: "ctime" },
    ]);
  });

  it("a protected entry replaced (by another inode, another type) or removed", () => {
    const fs = workspace();
    const found = changes(fs, SCOPE, (f) => {
      f.remove("/ws/.git/HEAD").file("/ws/.git/HEAD");
      f.remove("/ws/.gitmodules").file("/ws/.gitmodules", "symlink");
      f.remove("/ws/.git/hooks");
    });
    expect(found).toEqual([
      { op: "create", path: "/ws/.git/HEAD", why: "identity" },
      { op: "delete", path: "/ws/.git/hooks", why: "gone" },
      { op: "create", path: "/ws/.gitmodules", why: "type file -> symlink" },
    ]);
  });

  it("a directory replaced by another at the same path is walked whole", () => {
    const fs = workspace();
    const found = changes(fs, SCOPE, (f) => {
      f.rename("/ws/sub", "/ws/old-sub");
      f.mkdir("/ws/sub").mkdir("/ws/sub/x").mkdir("/ws/sub/x/.git");
    });
    expect(found).toEqual([{ op: "mkdir", path: "/ws/sub/x/.git", why: "new" }]);
  });

  it("a .git moved out of the way and back changes nothing; moved elsewhere in the root is new there", () => {
    const fs = workspace();
    expect(changes(fs, SCOPE, (f) => f.rename("/ws/.git/hooks", "/ws/hooks-away").rename("/ws/hooks-away", "/ws/.git/hooks"))).toEqual([]);
    const fs2 = workspace();
    expect(changes(fs2, SCOPE, (f) => f.rename("/ws/sub/x", "/ws/sub/.git"))).toEqual([{ op: "mkdir", path: "/ws/sub/.git", why: "new" }]);
  });

  it("the exempt scratch is never walked; a scratch inside the workspace is (no exemption)", () => {
    const fs = workspace();
    expect(changes(fs, SCOPE, (f) => f.rename("/scratch/A", "/scratch/.git"))).toEqual([]);
    expect(fs.readdirs).not.toContain("/scratch");
    const inside = new FakeFs();
    inside.mkdir("/ws").mkdir("/ws/tmp").mkdir("/ws/tmp/A");
    expect(
      changes(inside, { roots: ["/ws", "/ws/tmp"], exempt: [], protectedPaths: [] }, (f) => f.rename("/ws/tmp/A", "/ws/tmp/.git")),
    ).toEqual([{ op: "mkdir", path: "/ws/tmp/.git", why: "new" }]);
  });

  it("a recorded protected path that is not named .git (a gitdir a .git file points at) is watched inside", () => {
    const fs = new FakeFs();
    fs.mkdir("/ws").mkdir("/ws/gitdirs").mkdir("/ws/gitdirs/m").file("/ws/gitdirs/m/config").file("/ws/.git");
    const scope = { roots: ["/ws"], exempt: [], protectedPaths: ["/ws/gitdirs/m"] };
    expect(changes(fs, scope, (f) => f.write("/ws/gitdirs/m/config").file("/ws/gitdirs/m/hooks"))).toEqual([
      { op: "write", path: "/ws/gitdirs/m/config", why: "ctime,mtime,size" },
      { op: "create", path: "/ws/gitdirs/m/hooks", why: "new" },
    ]);
  });

  it("a root missing before the run and there after is walked", () => {
    const fs = new FakeFs();
    fs.mkdir("/ws");
    expect(changes(fs, { roots: ["/out"], exempt: [], protectedPaths: [] }, (f) => f.mkdir("/out").mkdir("/out/.git"))).toEqual([
      { op: "mkdir", path: "/out/.git", why: "new" },
    ]);
  });

  it("a directory that cannot be listed or examined throws (before and after), never skipped", () => {
    const fs = workspace();
    fs.failList.add("/ws/sub");
    expect(() => takeSnapshot(fs, SCOPE)).toThrow(/EACCES \/ws\/sub/);
    const fs2 = workspace();
    const before = takeSnapshot(fs2, SCOPE);
    fs2.mkdir("/ws/sub/y");
    fs2.failList.add("/ws/sub");
    expect(() => recheck(fs2, before)).toThrow(/EACCES \/ws\/sub/);
    const fs3 = workspace();
    const before3 = takeSnapshot(fs3, SCOPE);
    fs3.failStat.add("/ws/.git/config");
    expect(() => recheck(fs3, before3)).toThrow(/EACCES/);
  });

  it("roots: outermost, outside the exempt areas; protected entry paths by name below the root", () => {
    expect(effectsRoots({ roots: ["/ws/a", "/ws", "/scratch", "/scratch/x", "/other"], exempt: ["/scratch"], protectedPaths: [] })).toEqual(
      ["/ws", "/other"],
    );
    expect(isProtectedEntryPath("/ws/a/.git/x", "/ws", [])).toBe(true);
    expect(isProtectedEntryPath("/ws/a/.github", "/ws", [])).toBe(true);
    expect(isProtectedEntryPath("/ws/a/.gitignore", "/ws", [])).toBe(false);
    expect(isProtectedEntryPath("/.git/ws", "/.git/ws", [])).toBe(false);
    expect(isProtectedEntryPath("/ws/m/config", "/ws", ["/ws/m"])).toBe(true);
  });

  it("the after look stats the known directories and protected entries, and lists only what changed", () => {
    const fs = workspace();
    const before = takeSnapshot(fs, SCOPE);
    fs.readdirs = [];
    fs.lstats = 0;
    recheck(fs, before);
    expect(fs.readdirs).toEqual([]);
    expect(fs.lstats).toBe(before.dirs.size + [...before.entries.keys()].filter((p) => !before.dirs.has(p)).length);
  });
});
