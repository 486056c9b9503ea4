/**
 * What each traced system call means for the log, by the position of its arguments as strace
 * prints them: which are paths, which is the directory they are relative to, the write they make,
 * and whether the final symlink is followed. The parser (strace.ts) reads a call through its row.
 */
import type { WriteOp } from "../core/log-format.js";

/** Whether a path's last component is followed: always, never, or by a flag in an argument. */
type Follow = boolean | { arg: number; flag: "AT_SYMLINK_FOLLOW" | "AT_SYMLINK_NOFOLLOW" };

/** A path argument: its index, and the index of the directory fd it is relative to (null: the cwd). */
export interface PathArg {
  dirfd: number | null;
  path: number;
  follow: Follow;
}

export type SyscallRow =
  /** Makes a process or a thread; namespace flags are forbidden. */
  | { kind: "fork" }
  /** Changes the working directory to the path (`chdir`) or to the fd's (`fchdir`) at `arg`. */
  | { kind: "chdir"; arg: number; byFd: boolean }
  /** Runs the program named at `path` (relative to `dirfd`), with the argv after it. */
  | { kind: "exec"; dirfd: number | null; path: number }
  /** Opens the path; the flags at `flags` say whether it writes (`creat`: no flags, always a create). */
  | { kind: "open"; dirfd: number | null; path: number; flags: number | null }
  /** Writes `op` to each path, in order; `unlessExists`: EEXIST means it changed nothing. */
  | { kind: "paths"; op: WriteOp; paths: readonly PathArg[]; unlessExists?: true }
  /** `*at(dirfd, path, …, flags)`: an empty (or NULL) path means the fd itself. */
  | { kind: "atOrFd"; op: WriteOp; dirfd: number; path: number; flags: number }
  /** Writes `op` to the file of the fd at `fd`. */
  | { kind: "fd"; op: WriteOp; fd: number }
  /** Makes a unix socket file at the address it names. */
  | { kind: "bind" }
  /** Reaches the internet or unix socket addresses it names. */
  | { kind: "send"; proto: "connect" | "send" };

const cwdPath = (path: number, follow: Follow): PathArg => ({ dirfd: null, path, follow });
const atPath = (dirfd: number, path: number, follow: Follow): PathArg => ({ dirfd, path, follow });
const paths = (op: WriteOp, ...list: PathArg[]): SyscallRow => ({ kind: "paths", op, paths: list });

export const SYSCALL_TABLE: ReadonlyMap<string, SyscallRow> = new Map<string, SyscallRow>([
  ["clone", { kind: "fork" }],
  ["clone3", { kind: "fork" }],
  ["fork", { kind: "fork" }],
  ["vfork", { kind: "fork" }],
  ["chdir", { kind: "chdir", arg: 0, byFd: false }],
  ["fchdir", { kind: "chdir", arg: 0, byFd: true }],
  ["execve", { kind: "exec", dirfd: null, path: 0 }],
  ["execveat", { kind: "exec", dirfd: 0, path: 1 }],
  ["open", { kind: "open", dirfd: null, path: 0, flags: 1 }],
  ["creat", { kind: "open", dirfd: null, path: 0, flags: null }],
  ["openat", { kind: "open", dirfd: 0, path: 1, flags: 2 }],
  ["openat2", { kind: "open", dirfd: 0, path: 1, flags: 2 }],
  ["unlink", paths("delete", cwdPath(0, false))],
  ["rmdir", paths("delete", cwdPath(0, false))],
  ["unlinkat", paths("delete", atPath(0, 1, false))],
  // A directory that is already there changes nothing (`mkdir -p` over existing parents).
  ["mkdir", { kind: "paths", op: "mkdir", paths: [cwdPath(0, false)], unlessExists: true }],
  ["mkdirat", { kind: "paths", op: "mkdir", paths: [atPath(0, 1, false)], unlessExists: true }],
  ["mknod", paths("create", cwdPath(0, false))],
  ["mknodat", paths("create", atPath(0, 1, false))],
  ["rename", paths("rename", cwdPath(0, false), cwdPath(1, false))],
  ["renameat", paths("rename", atPath(0, 1, false), atPath(2, 3, false))],
  ["renameat2", paths("rename", atPath(0, 1, false), atPath(2, 3, false))],
  // The source too: a hard link makes the file it names writable under a new name.
  ["link", paths("link", cwdPath(0, false), cwdPath(1, false))],
  ["linkat", paths("link", atPath(0, 1, { arg: 4, flag: "AT_SYMLINK_FOLLOW" }), atPath(2, 3, false))],
  ["symlink", paths("symlink", cwdPath(1, false))],
  ["symlinkat", paths("symlink", atPath(1, 2, false))],
  ["chmod", paths("chmod", cwdPath(0, true))],
  ["fchmod", { kind: "fd", op: "chmod", fd: 0 }],
  ["fchmodat", paths("chmod", atPath(0, 1, { arg: 3, flag: "AT_SYMLINK_NOFOLLOW" }))],
  ["truncate", paths("truncate", cwdPath(0, true))],
  ["ftruncate", { kind: "fd", op: "truncate", fd: 0 }],
  ["chown", paths("chown", cwdPath(0, true))],
  ["fchown", { kind: "fd", op: "chown", fd: 0 }],
  ["lchown", paths("chown", cwdPath(0, false))],
  ["fchownat", { kind: "atOrFd", op: "chown", dirfd: 0, path: 1, flags: 4 }],
  ["utime", paths("utimes", cwdPath(0, true))],
  ["utimes", paths("utimes", cwdPath(0, true))],
  ["futimesat", paths("utimes", atPath(0, 1, true))],
  ["utimensat", { kind: "atOrFd", op: "utimes", dirfd: 0, path: 1, flags: 3 }],
  ["setxattr", paths("xattr", cwdPath(0, true))],
  ["removexattr", paths("xattr", cwdPath(0, true))],
  ["lsetxattr", paths("xattr", cwdPath(0, false))],
  ["lremovexattr", paths("xattr", cwdPath(0, false))],
  ["fsetxattr", { kind: "fd", op: "xattr", fd: 0 }],
  ["fremovexattr", { kind: "fd", op: "xattr", fd: 0 }],
  ["bind", { kind: "bind" }],
  ["connect", { kind: "send", proto: "connect" }],
  ["sendto", { kind: "send", proto: "send" }],
  ["sendmsg", { kind: "send", proto: "send" }],
  ["sendmmsg", { kind: "send", proto: "send" }],
]);

/** Whether the call follows the path's final symlink, given its arguments. */
export function follows(follow: Follow, args: readonly string[]): boolean {
  if (typeof follow === "boolean") return follow;
  const present = (args[follow.arg] ?? "").includes(follow.flag);
  return follow.flag === "AT_SYMLINK_FOLLOW" ? present : !present;
}
