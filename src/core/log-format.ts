/**
 * The observer log's format (docs/formats.md, "Observer log"): its kinds, their fields, the values
 * a field may take, and the limits a reader holds a log to. What the observer writes and what the
 * reader (./log-reader.ts) accepts are both this.
 */

export const LOG_VERSION = 1;

/** Longest line accepted, in bytes; a longer one is malformed, never buffered whole. */
export const MAX_LINE_LENGTH = 4 * 1024 * 1024;

export const WRITE_OPS = new Set([
  "write",
  "create",
  "delete",
  "rename",
  "mkdir",
  "chmod",
  "truncate",
  "link",
  "symlink",
  "chown",
  "utimes",
  "xattr",
  "bind",
]);

export type WriteOp =
  "write" | "create" | "delete" | "rename" | "mkdir" | "chmod" | "truncate" | "link" | "symlink" | "chown" | "utimes" | "xattr" | "bind";

export function isWriteOp(op: string): op is WriteOp {
  return WRITE_OPS.has(op);
}

/**
 * Who recorded an event. `effects` is the wrapper's own look at the filesystem after the jail is
 * gone (a protected entry new or changed, src/core/effects.ts): only on `write` lines.
 */
export const EVENT_SOURCES = new Set(["node", "process", "sdk", "runtime", "proxy", "effects", "resolver", "service"]);

/**
 * `resolver`: the jail's resolver answered (or refused) a name lookup; `service`: the forward to a
 * declared service carried a connection (docs/egress.md).
 */
export type EventSource = "node" | "process" | "sdk" | "runtime" | "proxy" | "effects" | "resolver" | "service";

/**
 * The errors, as the kernel gave them to the process observer, of a write call that changed
 * nothing because what it named was not there (a missing file or directory on the way). Such a
 * write outside the roots is recorded (with `errno`) and not judged; every other failure (EROFS:
 * the jail refused it, EACCES, EPERM) is judged as an attempt.
 */
export const MISSING_TARGET_ERRNOS: ReadonlySet<string> = new Set(["ENOENT", "ENOTDIR"]);

export type MissingTargetErrno = "ENOENT" | "ENOTDIR";

export function isMissingTargetErrno(errno: string): errno is MissingTargetErrno {
  return MISSING_TARGET_ERRNOS.has(errno);
}

/**
 * Why a recorder could not know the file a write call acted on (`write.path_unknown`):
 * - `fd-path`: the name goes through `/proc/<pid>/fd/N` or `/dev/fd/N`, and which file fd N was at
 *   the call is not in the line (strace); read from /proc afterwards it may be another file.
 * - anything else the eBPF recorder says in its `@path-unknown` line (a lower-case word).
 */
export const PATH_UNKNOWN_REASON = /^[a-z][a-z0-9-]{0,63}$/;

/** Every kind, in the order the reader matches them. */
export const LOG_KINDS = ["write", "env", "tool", "host", "exec", "syscall", "end", "meta"] as const;

export type LogKind = (typeof LOG_KINDS)[number];

/** Fields every event may carry besides its kind's own. */
export const COMMON_FIELDS = ["v", "kind", "ts", "pid", "ppid", "source", "seq", "canary", "ok", "via"] as const;

/**
 * Every field an event line may carry. Which fields each kind may use is in KIND_FIELDS; anything
 * else on an event is malformed. (Meta may carry extra fields.)
 */
export const FIELD_NAMES = [
  ...COMMON_FIELDS,
  "path",
  "op",
  "name",
  "key",
  "host",
  "port",
  "proto",
  "argv",
  "cwd",
  "events",
  "exit_code",
  "signal",
  "errno",
  "jail_pid",
  "path_unknown",
  "bytes_in",
  "bytes_out",
  "interpreter",
] as const;

export type FieldName = (typeof FIELD_NAMES)[number];

/** Fields every event may carry besides its kind's own, with the values they take. */
export interface EventCommon {
  v: typeof LOG_VERSION;
  ts?: unknown;
  pid?: number;
  ppid?: unknown;
  source?: EventSource;
  /** The line's place in the log (the meta line is 0), where the meta line has `seq`. */
  seq?: number;
  /** The observer's self-check, before any of the run's events: recorded, never judged. */
  canary?: true;
  ok?: unknown;
  via?: unknown;
}

export interface WriteEvent extends EventCommon {
  kind: "write";
  path: string;
  op: WriteOp;
  errno?: MissingTargetErrno;
  /**
   * The recorder could not know which file the call acted on (PATH_UNKNOWN_REASONS): `path` is
   * only what the program named. `check` refuses such a log (OBSERVER_PATH_UNKNOWN), never judges it.
   */
  path_unknown?: string;
}

export interface EnvEvent extends EventCommon {
  kind: "env";
  key: string;
  op?: unknown;
}

export interface ToolEvent extends EventCommon {
  kind: "tool";
  name: string;
}

export interface HostEvent extends EventCommon {
  kind: "host";
  host: string;
  port?: number | null;
  proto?: unknown;
  /** A service connection's bytes: from the service to the run, and from the run to the service. */
  bytes_in?: number;
  bytes_out?: number;
}

/**
 * A process started (docs/formats.md, "exec"): `path` the file the exec named, every symlink
 * resolved; `argv` the argv the kernel started the new image with (for a `#!` script, the one the
 * kernel built: the interpreter's name and argument, the script as named, the caller's argv after
 * its first); `interpreter` a script's interpreter, the executable the kernel ran in the end,
 * absolute and resolved. Both recorders write one line per exec in this form.
 */
export interface ExecEvent extends EventCommon {
  kind: "exec";
  path: string;
  argv: string[];
  interpreter?: string;
  cwd?: unknown;
  jail_pid?: number;
}

export interface SyscallEvent extends EventCommon {
  kind: "syscall";
  name: string;
}

export interface EndEvent extends EventCommon {
  kind: "end";
  events: number;
  exit_code: number | null;
  signal?: unknown;
}

/** The first line: who recorded the run, under which envelope. Anything else it says is the observer's own. */
export interface MetaLine {
  v: typeof LOG_VERSION;
  kind: "meta";
  run_id: string;
  envelope_hash: string;
  runner: string;
  started_at: string;
  observers: ("node" | "process")[];
  seq?: 0;
  /** The release that recorded the log (src/core/version.ts); absent in logs from before 1.0.0. */
  envelope_gate?: string;
  [field: string]: unknown;
}

/** One line of an observer log, by kind. */
export type LogEvent = WriteEvent | EnvEvent | ToolEvent | HostEvent | ExecEvent | SyscallEvent | EndEvent | MetaLine;

/** `Omit` over each member of a union (and keeping the named fields of a member with an index signature, as MetaLine). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? { [F in keyof T as F extends K ? never : F]: T[F] } : never;

/**
 * A line as the observer hands it to its writer (src/observer/log-writer.ts): without `v` and
 * `seq`, which the writer adds (`v` first, `seq` last). `Emitted<ExecEvent>` is one kind's.
 */
export type Emitted<T extends LogEvent = LogEvent> = DistributiveOmit<T, "v" | "seq">;

type OwnFields<K extends LogEvent["kind"]> = Exclude<keyof Extract<LogEvent, { kind: K }>, keyof EventCommon | "kind">;
type RequiredKeys<T> = { [F in keyof T]-?: undefined extends T[F] ? never : F }[keyof T];
type OwnRequired<K extends LogEvent["kind"]> = Extract<OwnFields<K>, RequiredKeys<Extract<LogEvent, { kind: K }>>>;

/** Each event kind's own fields: required, then optional (the same as its LogEvent member's). */
export const KIND_FIELDS: {
  [K in Exclude<LogKind, "meta">]: { required: readonly OwnRequired<K>[]; optional: readonly Exclude<OwnFields<K>, OwnRequired<K>>[] };
} = {
  write: { required: ["path", "op"], optional: ["errno", "path_unknown"] },
  tool: { required: ["name"], optional: [] },
  env: { required: ["key"], optional: ["op"] },
  host: { required: ["host"], optional: ["port", "proto", "bytes_in", "bytes_out"] },
  exec: { required: ["path", "argv"], optional: ["cwd", "jail_pid", "interpreter"] },
  syscall: { required: ["name"], optional: [] },
  end: { required: ["events", "exit_code"], optional: ["signal"] },
};
