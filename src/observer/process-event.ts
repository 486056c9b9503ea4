/**
 * What the process recorder's parser (strace.ts) emits: the one definition of its output type,
 * which every consumer (merge.ts, run.ts) names.
 */
import type { MissingTargetErrno, WriteOp } from "../core/log-format.js";

export type ProcessEvent =
  /**
   * `refused`: the kernel answered EROFS, so the target was outside every writable root.
   * `errno`: the kernel answered ENOENT or ENOTDIR (nothing was there): the call changed nothing.
   * `pathUnknown`: which file the call acted on cannot be known (a reason, PATH_UNKNOWN_REASON);
   * `path` is only what the program named.
   */
  | { kind: "write"; tgid: number; path: string; op: WriteOp; refused?: true; errno?: MissingTargetErrno; pathUnknown?: string }
  /**
   * `jailPid`: jailed runs, the process's pid inside the jail's PID namespace (the last number
   * of its `NSpid`, the pid the Node hooks record), when the kernel still showed it.
   */
  /**
   * `path`: the file the exec named, resolved; `argv`: the argv the kernel started the new image
   * with; `interpreter`: for a `#!` script (or a binfmt_misc file), the executable the kernel ran
   * it with in the end (docs/formats.md, "exec").
   */
  | { kind: "exec"; tgid: number; ppid: number | null; jailPid?: number; path: string; argv: string[]; interpreter?: string }
  | { kind: "host"; tgid: number; host: string; port: number; proto: string }
  /** A unix socket named by path (absolute, resolved) or abstract (`@name`), connected to or sent to. */
  | { kind: "unix"; tgid: number; address: string; proto: string }
  /** A call the jail refuses because it would blind or escape the observer. */
  | { kind: "forbidden"; tgid: number; name: string }
  /** An open of the wrapper's own plumbing (the hooks' channel): who, and for what. */
  | { kind: "channel"; tgid: number; path: string; writeOnly: boolean };
