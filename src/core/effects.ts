/**
 * Effects, checked on the filesystem (issue 29, docs/observer.md "The effects check"). Pure: the
 * filesystem is read through `EffectsFs` (src/observer/effects.ts gives the real one).
 *
 * The recorders record what a program asked; the kernel may have done something else (a `..`
 * after a symlink, a path rewritten while the call ran, a cwd another process moved). What later
 * unjailed steps trust are the protected entries inside the roots, so those are looked at where
 * the kernel left them: before the command runs and again after its jail is gone.
 *
 *   takeSnapshot (before): walks the roots, recording every directory (identity and ctime) and
 *     every protected entry (`.git`, `.gitmodules`, `.github`, and everything inside a protected
 *     directory or a recorded protected path).
 *   recheck (after): re-stats the known directories; reads only those whose identity or ctime
 *     changed (adding, removing or renaming an entry sets the parent's ctime to now, and no call
 *     sets a ctime back), walks whole any directory that is new, and re-stats every known
 *     protected entry.
 *   compareSnapshots: what is new, gone, replaced (type or identity) or changed (ctime, mtime,
 *     size of a file or symlink); a change inside a new or gone directory is that directory's.
 */
import { isInsideAnyRoot } from "./paths.js";
import { hasProtectedSegmentBelow, PROTECTED_NAMES } from "./protected.js";

export type EntryType = "dir" | "file" | "symlink" | "other";

/** What one lstat says, as compared: `id` is device and inode; times in nanoseconds. */
export interface EntryStat {
  type: EntryType;
  id: string;
  ctime: string;
  mtime: string;
  size: string;
}

export interface DirEntry {
  name: string;
  /** A directory itself (not a symlink to one). */
  dir: boolean;
}

/**
 * The reads the check makes. `lstat` returns null when nothing is at the path (ENOENT, ENOTDIR);
 * any other failure, and any failure of `readdir`, throws (the observer's refuses the run).
 */
export interface EffectsFs {
  lstat(path: string): EntryStat | null;
  readdir(path: string): DirEntry[];
}

export interface EffectsScope {
  /** The allowed roots (folded absolute paths). */
  roots: readonly string[];
  /** Where the lexical names rule does not apply (meta.protected.gitExempt): not walked. */
  exempt: readonly string[];
  /** Paths the run recorded as protected (meta.protected.paths): everything under them is an entry. */
  protectedPaths: readonly string[];
}

interface DirRecord {
  stat: EntryStat;
  /** Inside a protected directory or path: every entry below is recorded. */
  prot: boolean;
}

export interface EffectsSnapshot {
  scope: EffectsScope;
  /** The roots walked (outermost, outside every exempt area). */
  walked: string[];
  /** Roots that were not there (walked whole if they appear). */
  missing: string[];
  dirs: Map<string, DirRecord>;
  entries: Map<string, EntryStat>;
}

export type EffectOp = "create" | "mkdir" | "write" | "delete";

export interface EffectChange {
  path: string;
  op: EffectOp;
  /** What differs, for messages and tests: new, gone, type, identity, ctime, mtime, size. */
  why: string;
}

const join = (dir: string, name: string): string => (dir === "/" ? `/${name}` : `${dir}/${name}`);
const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const parentOf = (path: string): string => {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
};

/** The roots to walk: each outermost root not inside an exempt area. */
export function effectsRoots(scope: EffectsScope): string[] {
  const sorted = [...new Set(scope.roots)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const out: string[] = [];
  for (const r of sorted) if (!isInsideAnyRoot(r, scope.exempt) && !isInsideAnyRoot(r, out)) out.push(r);
  return out;
}

/** Whether `path` (below `root`) is protected by its name or lies inside a protected name or recorded path. */
export function isProtectedEntryPath(path: string, root: string, protectedPaths: readonly string[]): boolean {
  return isInsideAnyRoot(path, protectedPaths) || hasProtectedSegmentBelow(path, root);
}

class Walker {
  constructor(
    private readonly fs: EffectsFs,
    private readonly scope: EffectsScope,
    readonly dirs: Map<string, DirRecord>,
    readonly entries: Map<string, EntryStat>,
  ) {}

  /** Records `path` (already lstat'ed as `stat`) and, for a directory, everything below it. */
  walk(path: string, stat: EntryStat, prot: boolean): void {
    if (prot) this.entries.set(path, stat);
    if (stat.type !== "dir") return;
    const stack: { path: string; stat: EntryStat; prot: boolean }[] = [{ path, stat, prot }];
    while (stack.length > 0) {
      const d = stack.pop() as { path: string; stat: EntryStat; prot: boolean };
      this.dirs.set(d.path, { stat: d.stat, prot: d.prot });
      for (const e of this.fs.readdir(d.path)) {
        const child = join(d.path, e.name);
        const childProt = d.prot || PROTECTED_NAMES.has(e.name) || isInsideAnyRoot(child, this.scope.protectedPaths);
        if (e.dir && isInsideAnyRoot(child, this.scope.exempt)) continue;
        if (!e.dir && !childProt) continue;
        const st = this.fs.lstat(child);
        // Gone between the listing and the look: nothing is there.
        if (st === null) continue;
        if (childProt) this.entries.set(child, st);
        if (st.type === "dir") stack.push({ path: child, stat: st, prot: childProt });
      }
    }
  }

  /** A root: walked whole when it is there. Returns false when it is not. */
  root(root: string): boolean {
    const st = this.fs.lstat(root);
    if (st === null) return false;
    this.walk(root, st, isInsideAnyRoot(root, this.scope.protectedPaths) || PROTECTED_NAMES.has(baseName(root)));
    return true;
  }
}

/** Before the command: every directory of the roots and every protected entry in them. */
export function takeSnapshot(fs: EffectsFs, scope: EffectsScope): EffectsSnapshot {
  const walker = new Walker(fs, scope, new Map(), new Map());
  const walked = effectsRoots(scope);
  const missing = walked.filter((r) => !walker.root(r));
  return { scope, walked, missing, dirs: walker.dirs, entries: walker.entries };
}

/**
 * After the command: the protected entries as they are now, reading only what can have changed.
 * A known directory with the same identity and ctime has the same names in it (its protected
 * entries are re-stat'ed, for changes in place); one whose ctime moved is listed again; a directory
 * not known before (or known under another identity) is walked whole.
 */
export function recheck(fs: EffectsFs, before: EffectsSnapshot): EffectsSnapshot {
  const scope = before.scope;
  const walker = new Walker(fs, scope, new Map(), new Map());
  const unchanged = new Set<string>();
  const changed: string[] = [];
  for (const [path, rec] of before.dirs) {
    const now = fs.lstat(path);
    if (now === null || now.type !== "dir") continue;
    if (now.id === rec.stat.id && now.ctime === rec.stat.ctime) {
      unchanged.add(path);
      walker.dirs.set(path, { stat: now, prot: rec.prot });
      if (rec.prot) walker.entries.set(path, now);
    } else changed.push(path);
  }
  // Parents first: a directory walked whole is not listed again.
  changed.sort();
  for (const path of changed) {
    if (walker.dirs.has(path)) continue;
    const rec = before.dirs.get(path) as DirRecord;
    const now = fs.lstat(path);
    if (now === null || now.type !== "dir") continue;
    if (now.id !== rec.stat.id) {
      walker.walk(path, now, rec.prot);
      continue;
    }
    walker.dirs.set(path, { stat: now, prot: rec.prot });
    if (rec.prot) walker.entries.set(path, now);
    for (const e of fs.readdir(path)) {
      const child = join(path, e.name);
      const childProt = rec.prot || PROTECTED_NAMES.has(e.name) || isInsideAnyRoot(child, scope.protectedPaths);
      if (e.dir && isInsideAnyRoot(child, scope.exempt)) continue;
      if (!e.dir && !childProt) continue;
      const known = before.dirs.get(child);
      const st = fs.lstat(child);
      if (st === null) continue;
      if (st.type === "dir") {
        // Known under the same identity: its own ctime says whether it changed (the loops above).
        if (known !== undefined && known.stat.id === st.id) {
          if (childProt) walker.entries.set(child, st);
          continue;
        }
        walker.walk(child, st, childProt);
      } else if (childProt) walker.entries.set(child, st);
    }
  }
  // Protected entries in directories that did not change: the same names, perhaps changed in place.
  for (const path of before.entries.keys()) {
    if (walker.entries.has(path) || !unchanged.has(parentOf(path))) continue;
    const st = fs.lstat(path);
    if (st === null) continue;
    // A directory that is not one of the known ones (the loops above saw those): walked whole.
    if (st.type === "dir" && !walker.dirs.has(path)) walker.walk(path, st, true);
    else walker.entries.set(path, st);
  }
  // A root that was missing and is there now.
  for (const r of before.missing) if (!walker.dirs.has(r)) walker.root(r);
  return {
    scope,
    walked: before.walked,
    missing: before.missing.filter((r) => !walker.dirs.has(r)),
    dirs: walker.dirs,
    entries: walker.entries,
  };
}

/** What differs between two snapshots' protected entries, in path order, each under the outermost new or gone directory. */
export function compareSnapshots(before: EffectsSnapshot, after: EffectsSnapshot): EffectChange[] {
  const out: EffectChange[] = [];
  const paths = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort();
  const covering: string[] = [];
  for (const path of paths) {
    if (isInsideAnyRoot(path, covering)) continue;
    const b = before.entries.get(path);
    const a = after.entries.get(path);
    const change = compareEntry(path, b, a);
    if (change === null) continue;
    out.push(change);
    // Everything inside a directory that is new, gone or another one is that directory's change.
    if (change.op !== "write" && (a?.type === "dir" || b?.type === "dir")) covering.push(path);
  }
  return out;
}

function compareEntry(path: string, b: EntryStat | undefined, a: EntryStat | undefined): EffectChange | null {
  if (b === undefined && a === undefined) return null;
  if (b === undefined) return { path, op: a?.type === "dir" ? "mkdir" : "create", why: "new" };
  if (a === undefined) return { path, op: "delete", why: "gone" };
  if (a.type !== b.type) return { path, op: a.type === "dir" ? "mkdir" : "create", why: `type ${b.type} -> ${a.type}` };
  if (a.id !== b.id) return { path, op: a.type === "dir" ? "mkdir" : "create", why: "identity" };
  // A directory's own times move with its entries, which are compared one by one.
  if (a.type === "dir") return null;
  const why = (["ctime", "mtime", "size"] as const).filter((k) => a[k] !== b[k]);
  return why.length === 0 ? null : { path, op: "write", why: why.join(",") };
}
