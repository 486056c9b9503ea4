import { describe, expect, it } from "vitest";
import { StraceParser, TRACED_SYSCALLS, type ProcessEvent } from "../../src/observer/strace.js";
import { fdDecoration, splitArgs, stringArg } from "../../src/observer/strace-tokens.js";
import { SYSCALL_TABLE, follows, type PathArg } from "../../src/observer/syscall-table.js";
import { TableFacts } from "./table-facts.js";

const hex = (s: string): string => `"${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}"`;
const deco = (s: string): string => `<${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}>`;
const CWD = `AT_FDCWD${deco("/work")}`;
const DIR = `3${deco("/work/d")}`;

/**
 * One line per row as strace 6 prints the call (-y -xx): the arguments of the file-naming calls,
 * in their order. `a`, `b` and `t` are the paths the call names.
 */
const SAMPLES: Record<string, string> = {
  unlink: `unlink(${hex("a")})`,
  rmdir: `rmdir(${hex("a")})`,
  unlinkat: `unlinkat(${DIR}, ${hex("a")}, AT_REMOVEDIR)`,
  mkdir: `mkdir(${hex("a")}, 0755)`,
  mkdirat: `mkdirat(${DIR}, ${hex("a")}, 0755)`,
  mknod: `mknod(${hex("a")}, S_IFIFO|0644)`,
  mknodat: `mknodat(${DIR}, ${hex("a")}, S_IFIFO|0644)`,
  rename: `rename(${hex("a")}, ${hex("b")})`,
  renameat: `renameat(${DIR}, ${hex("a")}, ${CWD}, ${hex("b")})`,
  renameat2: `renameat2(${DIR}, ${hex("a")}, ${CWD}, ${hex("b")}, RENAME_NOREPLACE)`,
  link: `link(${hex("a")}, ${hex("b")})`,
  linkat: `linkat(${DIR}, ${hex("a")}, ${CWD}, ${hex("b")}, AT_SYMLINK_FOLLOW)`,
  symlink: `symlink(${hex("t")}, ${hex("a")})`,
  symlinkat: `symlinkat(${hex("t")}, ${DIR}, ${hex("a")})`,
  chmod: `chmod(${hex("a")}, 0644)`,
  fchmodat: `fchmodat(${DIR}, ${hex("a")}, 0644)`,
  truncate: `truncate(${hex("a")}, 0)`,
  chown: `chown(${hex("a")}, 1000, 1000)`,
  lchown: `lchown(${hex("a")}, 1000, 1000)`,
  utime: `utime(${hex("a")}, NULL)`,
  utimes: `utimes(${hex("a")}, NULL)`,
  futimesat: `futimesat(${DIR}, ${hex("a")}, NULL)`,
  setxattr: `setxattr(${hex("a")}, ${hex("user.x")}, ${hex("v")}, 1, 0)`,
  removexattr: `removexattr(${hex("a")}, ${hex("user.x")})`,
  lsetxattr: `lsetxattr(${hex("a")}, ${hex("user.x")}, ${hex("v")}, 1, 0)`,
  lremovexattr: `lremovexattr(${hex("a")}, ${hex("user.x")})`,
  fchownat: `fchownat(${DIR}, ${hex("a")}, 1000, 1000, AT_SYMLINK_NOFOLLOW)`,
  utimensat: `utimensat(${DIR}, ${hex("a")}, NULL, AT_SYMLINK_NOFOLLOW)`,
  fchmod: `fchmod(4${deco("/work/f")}, 0644)`,
  ftruncate: `ftruncate(4${deco("/work/f")}, 0)`,
  fchown: `fchown(4${deco("/work/f")}, 1000, 1000)`,
  fsetxattr: `fsetxattr(4${deco("/work/f")}, ${hex("user.x")}, ${hex("v")}, 1, 0)`,
  fremovexattr: `fremovexattr(4${deco("/work/f")}, ${hex("user.x")})`,
  open: `open(${hex("a")}, O_WRONLY|O_CREAT|O_TRUNC, 0666)`,
  creat: `creat(${hex("a")}, 0644)`,
  openat: `openat(${DIR}, ${hex("a")}, O_WRONLY|O_APPEND)`,
  openat2: `openat2(${DIR}, ${hex("a")}, {flags=O_WRONLY|O_TRUNC, mode=0, resolve=0}, 24)`,
  execve: `execve(${hex("a")}, [${hex("a")}, ${hex("x")}], 0x7ffc /* 3 vars */)`,
  execveat: `execveat(${DIR}, ${hex("a")}, [${hex("a")}, ${hex("x")}], 0x7ffc /* 3 vars */, 0)`,
  chdir: `chdir(${hex("a")})`,
  fchdir: `fchdir(${DIR})`,
};

function parse(lines: string[], facts = new TableFacts()): ProcessEvent[] {
  const events: ProcessEvent[] = [];
  const parser = new StraceParser({ cwd: "/work", plumbing: new Set(), emit: (e) => events.push(e), facts });
  parser.push(lines.map((l) => `100 ${l}\n`).join(""));
  parser.finish();
  return events;
}

const argsOf = (sample: string): string[] => splitArgs(sample.slice(sample.indexOf("(") + 1, sample.lastIndexOf(")")));

describe("syscall table", () => {
  it("has a row for every traced call, and every row is traced", () => {
    for (const name of SYSCALL_TABLE.keys()) expect(TRACED_SYSCALLS).toContain(name);
    for (const name of TRACED_SYSCALLS) expect(SYSCALL_TABLE.has(name), name).toBe(true);
  });

  it("names, for each file-naming call, the arguments strace prints as its paths and its directory fds", () => {
    for (const [name, row] of SYSCALL_TABLE) {
      if (row.kind === "fork" || row.kind === "bind" || row.kind === "send") continue;
      const sample = SAMPLES[name];
      expect(sample, name).toBeDefined();
      const args = argsOf(sample as string);
      const pathArgs: PathArg[] =
        row.kind === "paths"
          ? [...row.paths]
          : row.kind === "fd" || (row.kind === "chdir" && row.byFd)
            ? []
            : row.kind === "chdir"
              ? [{ dirfd: null, path: row.arg, follow: true }]
              : [{ dirfd: row.dirfd, path: row.path, follow: true }];
      for (const p of pathArgs) {
        expect(stringArg(args[p.path]), `${name}: path at ${p.path}`).toMatch(/^[ab]$/);
        if (p.dirfd !== null) expect(fdDecoration(args[p.dirfd]), `${name}: dirfd at ${p.dirfd}`).toMatch(/^\/work/);
      }
      if (row.kind === "fd") expect(fdDecoration(args[row.fd]), name).toBe("/work/f");
      if (row.kind === "chdir" && row.byFd) expect(fdDecoration(args[row.arg]), name).toBe("/work/d");
      if (row.kind === "open" && row.flags !== null) expect(args[row.flags], name).toMatch(/O_[A-Z]+/);
      if (row.kind === "atOrFd") {
        expect(stringArg(args[row.path]), name).toBe("a");
        expect(fdDecoration(args[row.dirfd]), name).toBe("/work/d");
        expect(args[row.flags], name).toBe("AT_SYMLINK_NOFOLLOW");
      }
    }
  });

  it("reads the follow flag from the argument strace prints it in", () => {
    const linkat = SYSCALL_TABLE.get("linkat");
    const fchmodat = SYSCALL_TABLE.get("fchmodat");
    if (linkat?.kind !== "paths" || fchmodat?.kind !== "paths") throw new Error("rows changed kind");
    const source = linkat.paths[0] as PathArg;
    expect(follows(source.follow, argsOf(SAMPLES.linkat as string))).toBe(true);
    expect(follows(source.follow, argsOf((SAMPLES.linkat as string).replace("AT_SYMLINK_FOLLOW", "0")))).toBe(false);
    const target = fchmodat.paths[0] as PathArg;
    expect(follows(target.follow, argsOf(SAMPLES.fchmodat as string))).toBe(true);
    expect(follows(target.follow, [...argsOf(SAMPLES.fchmodat as string), "AT_SYMLINK_NOFOLLOW"])).toBe(false);
  });

  it("turns each write row's sample line into its writes, on the paths it names, in order", () => {
    for (const [name, row] of SYSCALL_TABLE) {
      if (row.kind !== "paths" && row.kind !== "fd" && row.kind !== "atOrFd") continue;
      const events = parse([`${SAMPLES[name] as string} = 0`]);
      const base = (i: number, dirfd: number | null): string => (dirfd === null ? "/work" : i === 0 ? "/work/d" : "/work");
      const expected =
        row.kind === "fd"
          ? ["/work/f"]
          : row.kind === "atOrFd"
            ? ["/work/d/a"]
            : row.paths.map((p, i) => `${base(i, p.dirfd)}/${stringArg(argsOf(SAMPLES[name] as string)[p.path]) as string}`);
      expect(events, name).toEqual(expected.map((path) => ({ kind: "write", tgid: 100, path, op: row.op })));
    }
  });

  it("turns the open, exec and chdir rows' sample lines into what they do", () => {
    const writes = parse(["open", "creat", "openat", "openat2"].map((n) => `${SAMPLES[n] as string} = -1 EACCES (Permission denied)`));
    expect(writes).toEqual([
      { kind: "write", tgid: 100, path: "/work/a", op: "create" },
      { kind: "write", tgid: 100, path: "/work/a", op: "create" },
      { kind: "write", tgid: 100, path: "/work/d/a", op: "write" },
      { kind: "write", tgid: 100, path: "/work/d/a", op: "truncate" },
    ]);
    const moved = parse([
      `${SAMPLES.chdir as string} = 0`,
      `${SAMPLES.unlink as string} = 0`,
      `${SAMPLES.fchdir as string} = 0`,
      `${SAMPLES.unlink as string} = 0`,
    ]);
    expect(moved.map((e) => e.kind === "write" && e.path)).toEqual(["/work/a/a", "/work/d/a"]);
    const execs = parse([`${SAMPLES.execve as string} = 0`, `${SAMPLES.execveat as string} = 0`]);
    expect(execs).toEqual([
      { kind: "exec", tgid: 100, ppid: null, path: "/work/a", argv: ["a", "x"] },
      { kind: "exec", tgid: 100, ppid: null, path: "/work/d/a", argv: ["a", "x"] },
    ]);
  });
});
