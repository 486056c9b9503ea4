/**
 * The process-level observer: strace's output (run with -f -y -xx) turned into log events.
 * Sees every process of the tree, Node or not, at the system-call boundary, which in-process
 * code cannot unhook.
 */
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { resolve } from "node:path";
import { foldPath } from "../core/paths.js";
import { MISSING_TARGET_ERRNOS } from "../core/log.js";
import { PathView } from "./jail.js";
import { isIgnoredDevice } from "./protocol.js";
import { FORBIDDEN_SYSCALLS, forbiddenNumbers, type JailArch } from "./seccomp.js";

export const TRACED_SYSCALLS = [
  "execve",
  "execveat",
  "open",
  "openat",
  "openat2",
  "creat",
  "unlink",
  "unlinkat",
  "rmdir",
  "rename",
  "renameat",
  "renameat2",
  "mkdir",
  "mkdirat",
  "mknod",
  "mknodat",
  "link",
  "linkat",
  "symlink",
  "symlinkat",
  "chmod",
  "fchmod",
  "fchmodat",
  "truncate",
  "ftruncate",
  "connect",
  "sendto",
  "sendmsg",
  "sendmmsg",
  "clone",
  "clone3",
  "fork",
  "vfork",
  "chdir",
  "fchdir",
  "chown",
  "fchown",
  "lchown",
  "fchownat",
  "utime",
  "utimes",
  "utimensat",
  "futimesat",
  "setxattr",
  "lsetxattr",
  "fsetxattr",
  "removexattr",
  "lremovexattr",
  "fremovexattr",
  "bind",
];

/**
 * Forbidden calls bubblewrap itself makes while it builds the jail (before the command runs):
 * injecting a refusal into them would break the jail. The kernel refuses them to the command
 * instead (no capabilities, no further user namespaces), and they are recorded from the line.
 */
const JAIL_SETUP_CALLS = new Set(["mount", "umount2", "pivot_root", "unshare"]);

/** The calls strace refuses (EPERM, injected) as well as records. */
export function injectedSyscalls(arch: JailArch): string[] {
  const known = new Set(forbiddenNumbers(arch).values());
  return FORBIDDEN_SYSCALLS.filter((name) => known.has(name) && !JAIL_SETUP_CALLS.has(name));
}

const NAMESPACE_FLAGS = /CLONE_NEW(?:NS|USER|PID|NET|IPC|UTS|CGROUP|TIME)\b/;

/**
 * strace arguments: follow forks, hex strings (unambiguous to parse), fd paths, no signals, and
 * process exit lines (`-q`, not `-qq`: the wrapper needs the jail's own exit to know the tracer
 * saw the end). With `arch`, the forbidden calls are traced and refused.
 */
export function straceArgs(outputPath: string, arch: JailArch | null = null): string[] {
  const forbidden = arch === null ? [] : [...forbiddenNumbers(arch).values()];
  const inject = arch === null ? [] : injectedSyscalls(arch);
  return [
    "-f",
    "-q",
    "--seccomp-bpf",
    "-y",
    "-xx",
    "-s",
    "8192",
    "-e",
    "signal=none",
    "-e",
    // `?` ignores a name this architecture lacks (aarch64 has no open/mkdir/...).
    `trace=${[...TRACED_SYSCALLS, ...forbidden].map((s) => `?${s}`).join(",")}`,
    ...(inject.length > 0 ? ["-e", `inject=${inject.join(",")}:error=EPERM`] : []),
    "-o",
    outputPath,
  ];
}

export type ProcessEvent =
  /**
   * `refused`: the kernel answered EROFS, so the target was outside every writable root.
   * `errno`: the kernel answered ENOENT or ENOTDIR (nothing was there): the call changed nothing.
   */
  | { kind: "write"; tgid: number; path: string; op: string; refused?: true; errno?: string }
  /**
   * `jailPid`: jailed runs, the process's pid inside the jail's PID namespace (the last number
   * of its `NSpid`, the pid the Node hooks record), when the kernel still showed it.
   */
  | { kind: "exec"; tgid: number; ppid: number | null; jailPid?: number; path: string; argv: string[] }
  | { kind: "host"; tgid: number; host: string; port: number; proto: string }
  /** A unix socket named by path (absolute, resolved) or abstract (`@name`), connected to or sent to. */
  | { kind: "unix"; tgid: number; address: string; proto: string }
  /** A call the jail refuses because it would blind or escape the observer. */
  | { kind: "forbidden"; tgid: number; name: string }
  /** An open of the wrapper's own plumbing (the hooks' channel): who, and for what. */
  | { kind: "channel"; tgid: number; path: string; writeOnly: boolean };

/** How the traced tree's first process ended, from strace's own exit line. */
export interface RootExit {
  code: number | null;
  signal: string | null;
}

function decodeHex(text: string): string {
  if (!text.includes("\\x")) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x5c && text[i + 1] === "x") {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Splits `a, b, {c, d}, [e]` at top-level commas. Strings are hex-escaped, so quotes never nest. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== "") out.push(last);
  return out;
}

/** `"..."` -> decoded string; anything else -> null. */
function stringArg(token: string | undefined): string | null {
  if (token === undefined) return null;
  const m = /^"((?:\\x[0-9a-f]{2})*)"/.exec(token);
  return m ? decodeHex(m[1] as string) : null;
}

/** `3</path>` or `AT_FDCWD</path>` -> `/path`. */
function fdDecoration(token: string | undefined): string | null {
  if (token === undefined) return null;
  // A deleted file (a memfd among them) is printed `7</memfd:x>(deleted)`.
  const m = /^[^<]*<((?:\\x[0-9a-f]{2})*)>(?:\(deleted\))?$/.exec(token);
  return m ? decodeHex(m[1] as string).replace(/ \(deleted\)$/, "") : null;
}

function openFlags(token: string | undefined): string | null {
  if (token === undefined) return null;
  const flags = token.startsWith("{") ? (/flags=([A-Z_|0-9x]+)/.exec(token)?.[1] ?? "") : token;
  const set = new Set(flags.split("|"));
  if (set.has("O_CREAT")) return "create";
  if (set.has("O_TRUNC")) return "truncate";
  if (set.has("O_WRONLY") || set.has("O_RDWR") || set.has("O_APPEND")) return "write";
  return null;
}

function mappedV4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

/** Internet socket addresses in a syscall's arguments (connect, sendto, sendmsg). */
function socketAddresses(text: string): { host: string; port: number }[] {
  const out: { host: string; port: number }[] = [];
  const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/g;
  for (const m of text.matchAll(v4)) out.push({ host: decodeHex(m[2] as string), port: Number(m[1]) });
  const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/g;
  for (const m of text.matchAll(v6)) out.push({ host: mappedV4(decodeHex(m[2] as string)), port: Number(m[1]) });
  return out;
}

/** Unix socket addresses: `@name` for an abstract one, the path (as given) for the rest. */
function unixAddresses(text: string): { address: string; abstract: boolean }[] {
  const out: { address: string; abstract: boolean }[] = [];
  for (const m of text.matchAll(/sa_family=AF_UNIX, sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/g)) {
    const name = decodeHex(m[2] as string);
    if (m[1] === "@") out.push({ address: `@${name}`, abstract: true });
    else if (name !== "") out.push({ address: name, abstract: false });
  }
  return out;
}

export interface StraceParserOptions {
  /** Directory the traced command starts in. */
  cwd: string;
  /** Paths that are the wrapper's own plumbing (the channel FIFOs): opening them is reported as `channel`, never as a write. */
  plumbing: ReadonlySet<string>;
  /** Emits one event. */
  emit: (event: ProcessEvent) => void;
  /**
   * The tree runs in the jail: bubblewrap is the first process, and only the command's own tree
   * (the first process bubblewrap executes, and its descendants) is recorded. Paths are the
   * jail's, resolved through `view`.
   */
  jailed?: {
    view: PathView;
    masked?: ReadonlySet<string>;
    /** `env -u PWD`, the jail's first program: not recorded. */
    launcher?: string;
    /** Under allowlist, the egress relay the launcher executes next: its own calls are not recorded, its children are the command. */
    relay?: string | undefined;
    writable?: (path: string) => boolean;
  };
  /** Called with strace's exit line of the first traced process (bubblewrap, or the command). */
  onRootExit?: (exit: RootExit) => void;
}

const MAX_SYMLINK_HOPS = 40;

/** Streaming parser for `strace -f -y -xx` output. */
export class StraceParser {
  private pending = "";
  private readonly unfinished = new Map<number, string>();
  /** Leaders whose pending exec (a thread's, now under their pid) went through whatever its result line says. */
  private readonly execPassed = new Set<number>();
  private readonly tgidOf = new Map<number, number>();
  private readonly parentOf = new Map<number, number>();
  private readonly cwdOf = new Map<number, string>();
  private readonly options: StraceParserOptions;
  private readonly view: PathView;
  private rootTgid: number | null = null;
  /** Processes of the command's own tree (jailed runs only). */
  private readonly commandTree = new Set<number>();
  private readonly outerOf = new Map<number, number>();
  /** Jailed runs: the pid a process has inside the jail's PID namespace, read while it ran. */
  private readonly innerOf = new Map<number, number>();
  /** Jailed runs: forks seen (by the child's pid inside the jail), waiting for their child to show up. */
  private readonly recentForks: { parent: number; cwd: string; inner: number; used: boolean }[] = [];
  private readonly adopted = new Set<number>();
  /** Parents whose child was adopted while their fork line was still unfinished. */
  private readonly adoptedDuringFork = new Set<number>();
  /** Jailed runs: the command has started (bubblewrap executed it). */
  private armed = false;
  /** Jailed runs: bubblewrap's own processes (every one seen before the command started). */
  private readonly jailProcesses = new Set<number>();
  /** Threads in the middle of a clone/fork/vfork: a process first seen now is most likely their child. */
  private readonly forking: number[] = [];
  private relayPending: number | null = null;
  private relayTgid: number | null = null;

  constructor(options: StraceParserOptions) {
    this.options = options;
    this.view = options.jailed?.view ?? new PathView([]);
  }

  push(text: string): void {
    const data = this.pending === "" ? text : this.pending + text;
    this.pending = "";
    let start = 0;
    for (;;) {
      const nl = data.indexOf("\n", start);
      if (nl === -1) break;
      this.line(data.slice(start, nl));
      start = nl + 1;
    }
    if (start < data.length) this.pending = data.slice(start);
  }

  finish(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
  }

  private tgid(tid: number): number {
    const known = this.tgidOf.get(tid);
    if (known !== undefined) return known;
    // A thread whose clone line is still unfinished: ask the kernel while it runs.
    let tgid = tid;
    try {
      const status = readFileSync(`/proc/${tid}/status`, "utf8");
      const m = /^Tgid:\s+(\d+)$/m.exec(status);
      if (m) tgid = Number(m[1]);
      // A thread's own status names the thread (its NSpid is the thread's id): only a leader's counts.
      const inner = tgid === tid ? lastNsPid(status) : null;
      if (inner !== null) this.innerOf.set(tgid, inner);
    } catch {
      tgid = tid;
    }
    this.tgidOf.set(tid, tgid);
    if (this.rootTgid === null) this.rootTgid = tgid;
    return tgid;
  }

  /**
   * A process first seen without a clone line of its own (in a PID namespace the clone's return
   * value is the child's pid inside it, not the tracer's): match it to a fork by that inner pid,
   * or to its parent still in the middle of forking, or to the latest fork not yet matched.
   */
  private adopt(tgid: number): void {
    if (this.adopted.has(tgid)) return;
    this.adopted.add(tgid);
    // Known from before the command started (bubblewrap's clone of it), or from its own clone line.
    if (this.cwdOf.has(tgid) || this.parentOf.has(tgid)) return;
    const inner = this.innerOf.get(tgid);
    let record = inner !== undefined ? this.recentForks.find((r) => !r.used && r.inner === inner) : undefined;
    if (record === undefined && this.forking.length > 0) {
      const forker = this.forking[this.forking.length - 1] as number;
      const parent = this.tgidOf.get(forker);
      if (parent !== undefined && parent !== tgid) {
        this.adoptedDuringFork.add(forker);
        record = { parent, cwd: this.cwd(parent), inner: -1, used: false };
      }
    }
    record ??= [...this.recentForks].reverse().find((r) => !r.used);
    if (record === undefined) return;
    record.used = true;
    this.cwdOf.set(tgid, record.cwd);
    this.parentOf.set(tgid, record.parent);
  }

  private cwd(tgid: number): string {
    const known = this.cwdOf.get(tgid);
    if (known !== undefined) return known;
    if (this.options.jailed !== undefined) this.adopt(tgid);
    const adopted = this.cwdOf.get(tgid);
    if (adopted !== undefined) return adopted;
    // First seen before its parent's clone line: it started in the forking parent's directory;
    // failing that, ask the kernel while it runs.
    const parent = this.forking.length > 0 ? this.tgidOf.get(this.forking[this.forking.length - 1] as number) : undefined;
    let cwd = parent !== undefined && parent !== tgid ? this.cwdOf.get(parent) : undefined;
    if (cwd === undefined) {
      try {
        cwd = readlinkSync(`/proc/${tgid}/cwd`);
      } catch {
        cwd = this.options.cwd;
      }
    }
    this.cwdOf.set(tgid, cwd);
    return cwd;
  }

  /** Whether this process's calls are recorded: in the jail, every process but bubblewrap's and the relay. */
  private recorded(tgid: number): boolean {
    if (this.options.jailed === undefined) return true;
    return this.armed && !this.jailProcesses.has(tgid) && tgid !== this.relayTgid;
  }

  private line(raw: string): void {
    const m = /^(\d+) +(.*)$/.exec(raw);
    if (!m) return;
    const tid = Number(m[1]);
    let rest = m[2] as string;
    // A thread's exec, still open on its line when the kernel gave it the leader's pid.
    const changed = / <pid changed to (\d+) \.\.\.>$/.exec(rest);
    if (changed) {
      this.unfinished.set(tid, rest.slice(0, changed.index));
      this.execInThread(tid, Number(changed[1]));
      return;
    }
    if (rest.endsWith("<unfinished ...>")) {
      this.unfinished.set(tid, rest.slice(0, -"<unfinished ...>".length).trimEnd());
      if (/^(?:clone3?|v?fork)\(/.test(rest)) this.forking.push(tid);
      return;
    }
    const resumed = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/.exec(rest);
    if (resumed) {
      this.stopForking(tid);
      const head = this.unfinished.get(tid);
      this.unfinished.delete(tid);
      const execPassed = this.execPassed.delete(tid);
      if (head === undefined) return;
      if (!head.startsWith(`${resumed[1] as string}(`)) {
        // Not this call's beginning: a call of a thread that vanished. Judged as a call cut short.
        this.call(tid, `${head}) = ?`);
        return;
      }
      // Past the kernel's point of no return: under --seccomp-bpf strace can print the result
      // of a thread's exec as `?` or a garbage errno, but the exec went through.
      rest = execPassed ? `${head}) = 0` : head + (resumed[2] as string);
    }
    if (rest.startsWith("+++")) {
      const superseded = /^\+\+\+ superseded by execve in pid (\d+) \+\+\+$/.exec(rest);
      if (superseded) {
        this.execInThread(Number(superseded[1]), tid);
        return;
      }
      // The thread is gone: a call it left unfinished never returns.
      this.abandon(tid);
      this.exitLine(tid, rest);
      return;
    }
    if (rest.startsWith("---")) return;
    this.call(tid, rest);
  }

  private stopForking(tid: number): void {
    const at = this.forking.lastIndexOf(tid);
    if (at !== -1) this.forking.splice(at, 1);
  }

  /**
   * A call left unfinished by a thread that is gone, judged as strace prints a call cut short
   * (`= ?`); a thread's exec that passed the point of no return (the pid changed) ran all the same.
   */
  private abandon(tid: number): void {
    this.stopForking(tid);
    const execPassed = this.execPassed.delete(tid);
    const head = this.unfinished.get(tid);
    if (head === undefined) return;
    this.unfinished.delete(tid);
    this.call(tid, `${head}) = ${execPassed ? "0" : "?"}`);
  }

  /**
   * A thread other than the leader executed a program: the kernel ended every other thread of the
   * process and gave this one the leader's pid. strace tells it by ` <pid changed to LEADER ...>`
   * on the thread's exec line, or by the leader's `+++ superseded by execve in pid THREAD +++`
   * (both when the exec line was still open, the second alone when another line cut it short);
   * the exec's result comes as the leader's `<... execve resumed>`. The exec is the process's
   * under the leader's pid, and so is everything after it.
   */
  private execInThread(thread: number, leader: number): void {
    this.stopForking(thread);
    this.tgidOf.set(thread, leader);
    this.tgidOf.set(leader, leader);
    if (thread === leader) return;
    const exec = this.unfinished.get(thread);
    // Already moved to the leader (the pid-changed line came first), or the exec was never seen.
    if (exec === undefined) return;
    this.unfinished.delete(thread);
    // The leader's own call in progress never returns: strace drops the leader without its result.
    this.abandon(leader);
    this.unfinished.set(leader, exec);
    this.execPassed.add(leader);
  }

  /** One call line, whole: `name(args) = result`. */
  private call(tid: number, rest: string): void {
    const call = /^([a-z0-9_]+)\((.*)$/.exec(rest);
    if (!call) return;
    const name = call[1] as string;
    const body = call[2] as string;
    // strace pads short calls with spaces before `=` to align the results.
    const split = /^(.*)\) +=\s+(.*)$/s.exec(body);
    if (!split) return;
    this.syscall(tid, name, split[1] as string, split[2] as string);
  }

  private exitLine(tid: number, rest: string): void {
    if (this.rootTgid === null || tid !== this.rootTgid || this.options.onRootExit === undefined) return;
    const exited = /^\+\+\+ exited with (\d+) \+\+\+$/.exec(rest);
    if (exited) return this.options.onRootExit({ code: Number(exited[1]), signal: null });
    const killed = /^\+\+\+ killed by (SIG[A-Z0-9]+)/.exec(rest);
    if (killed) this.options.onRootExit({ code: null, signal: killed[1] as string });
  }

  /** The call being read was refused as a write to a read-only file system. */
  private refused = false;
  /** The call being read failed because what it named was not there (ENOENT, ENOTDIR): it changed nothing. */
  private missingErrno: string | null = null;
  private pendingWrites: { kind: "write"; tgid: number; path: string; op: string }[] = [];

  private syscall(tid: number, name: string, argText: string, ret: string): void {
    const tgid = this.tgid(tid);
    const retValue = /^(-?\d+)/.exec(ret);
    const ok = retValue !== null && Number(retValue[1]) >= 0;
    this.refused = !ok && ret.includes(" EROFS ");
    const errno = ok ? null : (/^-1 (E[A-Z0-9]+) \(/.exec(ret)?.[1] ?? null);
    this.missingErrno = errno !== null && MISSING_TARGET_ERRNOS.has(errno) ? errno : null;
    this.pendingWrites = [];
    try {
      this.dispatch(tgid, tid, name, argText, ret, ok, retValue);
    } finally {
      this.flushWrites();
    }
  }

  /**
   * A call's writes go out together. When the kernel refused the call as read-only (EROFS) but
   * every path it named resolves inside the jail's writable places, the resolution came too late
   * (a symlink swapped or removed since): the writes are marked refused, and judged as outside.
   */
  private flushWrites(): void {
    const writes = this.pendingWrites;
    this.pendingWrites = [];
    const writable = this.options.jailed?.writable;
    const stale = this.refused && writable !== undefined && writes.every((w) => writable(w.path));
    const errno = this.missingErrno;
    for (const w of writes) this.options.emit(stale ? { ...w, refused: true } : errno !== null ? { ...w, errno } : w);
  }

  private dispatch(
    tgid: number,
    tid: number,
    name: string,
    argText: string,
    ret: string,
    ok: boolean,
    retValue: RegExpExecArray | null,
  ): void {
    if (name === "clone" || name === "clone3" || name === "fork" || name === "vfork") {
      if (this.recorded(tgid) && NAMESPACE_FLAGS.test(argText)) this.options.emit({ kind: "forbidden", tgid, name });
      if (!ok) return;
      const child = Number((retValue as RegExpExecArray)[1]);
      if (child <= 0) return;
      if (this.options.jailed !== undefined && this.armed) {
        // Inside the jail's PID namespace `child` is the pid there: remembered, matched when the
        // child shows up under the tracer's pid (adopt).
        if (argText.includes("CLONE_THREAD")) return;
        const matched = this.adoptedDuringFork.delete(tid);
        this.recentForks.push({ parent: tgid, cwd: this.cwd(tgid), inner: child, used: matched });
        if (this.recentForks.length > 256) this.recentForks.shift();
        return;
      }
      if (argText.includes("CLONE_THREAD")) {
        this.tgidOf.set(child, tgid);
      } else {
        this.tgidOf.set(child, child);
        this.parentOf.set(child, tgid);
        this.cwdOf.set(child, this.cwd(tgid));
        if (!this.armed && this.options.jailed !== undefined) this.jailProcesses.add(child);
      }
      return;
    }
    if (tgid === this.relayTgid) return;
    if (this.options.jailed !== undefined && (!this.armed || this.jailProcesses.has(tgid))) {
      // Bubblewrap building the jail: nothing is recorded until it executes the command. Every
      // process seen before then is bubblewrap's; every other one is the command's, recorded
      // from its first line on (a vfork child's calls come before its parent's clone line).
      if (!this.armed && (name === "execve" || name === "execveat") && ok && tgid !== this.rootTgid) {
        this.armed = true;
        this.jailProcesses.delete(tgid);
        this.commandTree.add(tgid);
        // The jail's launcher (env -u PWD) is plumbing: the command is what it executes next.
        const launcher = this.options.jailed.launcher;
        if (launcher !== undefined && stringArg(splitArgs(argText)[0]) === launcher) {
          if (this.options.jailed.relay !== undefined) this.relayPending = tgid;
          return;
        }
      } else {
        if (!this.armed) this.jailProcesses.add(tgid);
        return;
      }
    }
    if (this.options.jailed !== undefined) {
      this.commandTree.add(tgid);
      this.adopt(tgid);
    }
    const args = splitArgs(argText);
    // Every *at call shows the caller's current directory: the freshest cwd there is.
    for (const a of args) {
      if (a.startsWith("AT_FDCWD<")) {
        const cwd = fdDecoration(a);
        if (cwd !== null) this.cwdOf.set(tgid, cwd);
        break;
      }
    }
    if (FORBIDDEN_NAMES.has(name)) {
      // Refused by strace (injected EPERM) or by the kernel; `unshare` without a namespace flag is ordinary.
      if (name !== "unshare" || NAMESPACE_FLAGS.test(argText)) this.options.emit({ kind: "forbidden", tgid, name });
      return;
    }
    const retPath = fdDecoration(ret.split(" ")[0]);
    switch (name) {
      case "chdir": {
        const p = stringArg(args[0]);
        if (ok && p !== null) this.cwdOf.set(tgid, this.absolute(tgid, null, p));
        return;
      }
      case "fchdir": {
        const p = fdDecoration(args[0]);
        if (ok && p !== null) this.cwdOf.set(tgid, p);
        return;
      }
      case "execve":
      case "execveat": {
        if (!ok) return;
        if (this.relayPending === tgid) {
          // Only the launcher's own next program can be the relay: a later exec of the same file is the command's.
          this.relayPending = null;
          const argv = splitArgs(argText);
          const argvToken = argv[1] ?? "[]";
          const second = argvToken.startsWith("[") ? stringArg(splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]")))[1]) : null;
          if (second === this.options.jailed?.relay) {
            this.relayTgid = tgid;
            return;
          }
        }
        const pathIndex = name === "execve" ? 0 : 1;
        const p = stringArg(args[pathIndex]);
        if (p === null) return;
        const dirfd = name === "execveat" ? fdDecoration(args[0]) : null;
        const argvToken = args[pathIndex + 1] ?? "[]";
        const argv = argvToken.startsWith("[")
          ? splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]"))).map((t) => stringArg(t) ?? t)
          : [];
        // The file the kernel ran: the name given, every symlink resolved in the process's view;
        // and what the kernel says the process runs now, when that differs (a name resolved in
        // the wrong directory, a symlink swapped since, an interpreter): both are judged.
        const named = p === "" && dirfd !== null ? dirfd : this.absolute(tgid, dirfd, p);
        if (this.options.jailed !== undefined) this.adopt(tgid);
        const ppid = this.parentOf.get(tgid) ?? null;
        const resolved = this.view.recorded(this.resolveFollow(tgid, named));
        const jailPid = this.options.jailed !== undefined ? this.jailPid(tgid) : null;
        const at = jailPid !== null ? { jailPid } : {};
        this.options.emit({ kind: "exec", tgid, ppid, ...at, path: resolved, argv });
        let exe: string | null;
        try {
          exe = readlinkSync(`/proc/${tgid}/exe`).replace(/ \(deleted\)$/, "");
        } catch {
          exe = null;
        }
        if (exe !== null && exe.startsWith("/") && this.view.recorded(exe) !== resolved)
          this.options.emit({ kind: "exec", tgid, ppid, ...at, path: this.view.recorded(exe), argv });
        return;
      }
      case "open":
      case "creat":
      case "openat":
      case "openat2": {
        const at = name === "openat" || name === "openat2";
        const flags = args[at ? 2 : 1];
        const op = name === "creat" ? "create" : openFlags(flags);
        const p = stringArg(args[at ? 1 : 0]);
        if (p === null) return;
        if (this.options.plumbing.size > 0) {
          const target = ok && retPath !== null ? retPath : this.absolute(tgid, at ? fdDecoration(args[0]) : null, p);
          if (this.options.plumbing.has(foldPath(target) ?? target)) {
            this.options.emit({
              kind: "channel",
              tgid,
              path: target,
              writeOnly: name === "creat" || (flags ?? "").split("|").includes("O_WRONLY"),
            });
            return;
          }
        }
        if (op === null) return;
        let target: string;
        const named = this.options.jailed?.masked?.size ? foldPath(this.absolute(tgid, at ? fdDecoration(args[0]) : null, p)) : null;
        if (named !== null && this.options.jailed?.masked?.has(named) === true) {
          // The jail covers it with /dev/null: the attempt is on the path the program named.
          target = named;
        } else if (ok && retPath !== null) {
          if (!retPath.startsWith("/")) return;
          target = retPath.replace(/ \(deleted\)$/, "");
        } else {
          target = this.resolveFollow(tgid, this.absolute(tgid, at ? fdDecoration(args[0]) : null, p));
        }
        this.write(tgid, target, op);
        return;
      }
      case "unlink":
      case "rmdir":
        return this.writeArg(tgid, null, args[0], "delete", false);
      case "unlinkat":
        return this.writeArg(tgid, args[0], args[1], "delete", false);
      // A directory that is already there changes nothing (`mkdir -p` over existing parents).
      case "mkdir":
        if (ret.includes(" EEXIST ")) return;
        return this.writeArg(tgid, null, args[0], "mkdir", false);
      case "mkdirat":
        if (ret.includes(" EEXIST ")) return;
        return this.writeArg(tgid, args[0], args[1], "mkdir", false);
      case "mknod":
        return this.writeArg(tgid, null, args[0], "create", false);
      case "mknodat":
        return this.writeArg(tgid, args[0], args[1], "create", false);
      case "rename":
        this.writeArg(tgid, null, args[0], "rename", false);
        return this.writeArg(tgid, null, args[1], "rename", false);
      case "renameat":
      case "renameat2":
        this.writeArg(tgid, args[0], args[1], "rename", false);
        return this.writeArg(tgid, args[2], args[3], "rename", false);
      case "link":
        // The source too: a hard link makes the file it names writable under a new name.
        this.writeArg(tgid, null, args[0], "link", false);
        return this.writeArg(tgid, null, args[1], "link", false);
      case "linkat":
        this.writeArg(tgid, args[0], args[1], "link", (args[4] ?? "").includes("AT_SYMLINK_FOLLOW"));
        return this.writeArg(tgid, args[2], args[3], "link", false);
      case "symlink":
        return this.writeArg(tgid, null, args[1], "symlink", false);
      case "symlinkat":
        return this.writeArg(tgid, args[1], args[2], "symlink", false);
      case "chmod":
        return this.writeArg(tgid, null, args[0], "chmod", true);
      case "fchmodat":
        return this.writeArg(tgid, args[0], args[1], "chmod", !(args[3] ?? "").includes("AT_SYMLINK_NOFOLLOW"));
      case "truncate":
        return this.writeArg(tgid, null, args[0], "truncate", true);
      case "chown":
        return this.writeArg(tgid, null, args[0], "chown", true);
      case "lchown":
        return this.writeArg(tgid, null, args[0], "chown", false);
      case "fchownat":
        return this.writeAtOrFd(tgid, args[0], args[1], args[4], "chown");
      case "utime":
      case "utimes":
        return this.writeArg(tgid, null, args[0], "utimes", true);
      case "futimesat":
        return this.writeArg(tgid, args[0], args[1], "utimes", true);
      case "utimensat":
        return this.writeAtOrFd(tgid, args[0], args[1], args[3], "utimes");
      case "setxattr":
      case "removexattr":
        return this.writeArg(tgid, null, args[0], "xattr", true);
      case "lsetxattr":
      case "lremovexattr":
        return this.writeArg(tgid, null, args[0], "xattr", false);
      case "fchmod":
      case "ftruncate":
      case "fchown":
      case "fsetxattr":
      case "fremovexattr": {
        const p = fdDecoration(args[0]);
        const op = name === "fchmod" ? "chmod" : name === "ftruncate" ? "truncate" : name === "fchown" ? "chown" : "xattr";
        if (p !== null && p.startsWith("/")) this.write(tgid, p, op);
        return;
      }
      case "bind":
        for (const { address, abstract } of unixAddresses(argText)) {
          if (!abstract) this.write(tgid, this.resolveNoFollow(tgid, this.absolute(tgid, null, address)), "bind");
        }
        return;
      case "connect":
      case "sendto":
      case "sendmsg":
      case "sendmmsg": {
        const proto = name === "connect" ? "connect" : "send";
        for (const { host, port } of socketAddresses(argText)) this.options.emit({ kind: "host", tgid, host, port, proto });
        for (const { address, abstract } of unixAddresses(argText)) {
          if (abstract) {
            this.options.emit({ kind: "unix", tgid, address, proto });
            continue;
          }
          const named = this.view.recorded(this.resolveFollow(tgid, this.absolute(tgid, null, address)));
          // A name nothing listens on reaches nothing (glibc asks for nscd's socket on every
          // lookup): recorded when it connected, or when a socket of the host's is there.
          if (ok || this.isHostSocket(tgid, named)) this.options.emit({ kind: "unix", tgid, address: named, proto });
        }
        return;
      }
      default:
        return;
    }
  }

  private absolute(tgid: number, dirfd: string | null, p: string): string {
    if (p.startsWith("/")) return p;
    const base = dirfd ?? this.cwd(tgid);
    return resolve(base, p);
  }

  private writeArg(tgid: number, dirfdToken: string | null | undefined, pathToken: string | undefined, op: string, follow: boolean): void {
    const p = stringArg(pathToken);
    if (p === null) return;
    const dirfd = dirfdToken === null || dirfdToken === undefined ? null : fdDecoration(dirfdToken);
    const abs = this.absolute(tgid, dirfd, p);
    this.write(tgid, follow ? this.resolveFollow(tgid, abs) : this.resolveNoFollow(tgid, abs), op);
  }

  /** `*at(dirfd, path, …, flags)` where an empty path with AT_EMPTY_PATH (or NULL) means the fd itself. */
  private writeAtOrFd(
    tgid: number,
    dirfdToken: string | undefined,
    pathToken: string | undefined,
    flags: string | undefined,
    op: string,
  ): void {
    const p = stringArg(pathToken);
    if (p === null || p === "") {
      const fdPath = fdDecoration(dirfdToken);
      if (fdPath !== null && fdPath.startsWith("/")) this.write(tgid, fdPath, op);
      return;
    }
    this.writeArg(tgid, dirfdToken, pathToken, op, !(flags ?? "").includes("AT_SYMLINK_NOFOLLOW"));
  }

  private write(tgid: number, path: string, op: string): void {
    const folded = foldPath(path);
    if (folded === null || this.options.plumbing.has(folded)) return;
    // Writing to /dev/null mutates nothing; changing its mode or owner changes the host's node.
    if (isIgnoredDevice(folded) && DATA_OPS.has(op)) return;
    this.pendingWrites.push({ kind: "write", tgid, path: this.view.recorded(folded), op });
  }

  /** Resolves symlinks in the directory part now; the final component is the one acted on. */
  private resolveNoFollow(tgid: number, abs: string): string {
    const folded = foldPath(abs) ?? abs;
    const cut = folded.lastIndexOf("/");
    if (cut <= 0) return folded;
    const dir = this.realpath(tgid, folded.slice(0, cut));
    return (dir === "/" ? "" : dir) + folded.slice(cut);
  }

  private resolveFollow(tgid: number, abs: string): string {
    return this.realpath(tgid, foldPath(abs) ?? abs);
  }

  /**
   * Symlink resolution as the traced process sees its filesystem: each component read through
   * the jail's view (private directories, the jail's /proc), a link's text taken as a path in the
   * jail. A missing component ends the walk: the rest is kept as named.
   */
  private realpath(tgid: number, jailPath: string): string {
    // The process's own working directory as the kernel reported it on this very call: exact,
    // and still known after the process is gone.
    const own = /^\/proc\/(?:self|thread-self)\/cwd(\/.*)?$/.exec(jailPath);
    if (own) jailPath = this.cwd(tgid) + (own[1] ?? "");
    const parts = jailPath.split("/").filter((s) => s !== "");
    let resolved = "";
    let hops = 0;
    while (parts.length > 0) {
      const part = parts.shift() as string;
      if (part === ".") continue;
      if (part === "..") {
        resolved = resolved.slice(0, resolved.lastIndexOf("/"));
        continue;
      }
      const next = `${resolved}/${part}`;
      const host = this.hostPath(tgid, next);
      let link: string | null = null;
      try {
        if (lstatSync(host).isSymbolicLink()) link = readlinkSync(host);
      } catch {
        return [next, ...parts].join("/");
      }
      if (link === null || hops++ > MAX_SYMLINK_HOPS) {
        resolved = next;
        continue;
      }
      const text = link.replace(/ \(deleted\)$/, "");
      if (text.startsWith("/")) resolved = "";
      parts.unshift(...text.split("/").filter((s) => s !== ""));
    }
    return resolved === "" ? "/" : resolved;
  }

  /** Where a jail path lives for the wrapper: private directories, and /proc names of the jail's processes. */
  private hostPath(tgid: number, jailPath: string): string {
    const proc = /^\/proc\/(self|thread-self|\d+)(\/.*)?$/.exec(jailPath);
    if (proc && this.options.jailed !== undefined) {
      const who = proc[1] as string;
      const rest = proc[2] ?? "";
      if (who === "self" || who === "thread-self") return `/proc/${tgid}${rest}`;
      const outer = this.outerPid(Number(who));
      return outer === null ? `/proc/envelope-gate-unknown-${who}${rest}` : `/proc/${outer}${rest}`;
    }
    if (proc && (proc[1] === "self" || proc[1] === "thread-self")) return `/proc/${tgid}${proc[2] ?? ""}`;
    return this.view.toHost(jailPath);
  }

  private isHostSocket(tgid: number, jailPath: string): boolean {
    try {
      return lstatSync(this.hostPath(tgid, jailPath)).isSocket();
    } catch {
      return false;
    }
  }

  /**
   * A process's pid inside the jail's PID namespace: read from the kernel (`NSpid`) now, at its
   * exec, or, when it is gone already, as read when it was first seen; null otherwise (never guessed).
   */
  private jailPid(tgid: number): number | null {
    try {
      const inner = lastNsPid(readFileSync(`/proc/${tgid}/status`, "utf8"));
      if (inner !== null) {
        this.innerOf.set(tgid, inner);
        return inner;
      }
    } catch {
      // Gone already: what was read when it was first seen, if anything.
    }
    return this.innerOf.get(tgid) ?? null;
  }

  /** The wrapper's pid for a pid the jail's /proc names (the last NSpid of a process of the tree). */
  outerPid(inner: number): number | null {
    const cached = this.outerOf.get(inner);
    if (cached !== undefined) return cached;
    for (const tgid of this.commandTree) {
      try {
        const m = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${tgid}/status`, "utf8"));
        const ids = (m?.[1] ?? "").trim().split(/\s+/).map(Number);
        if (ids[ids.length - 1] === inner) {
          this.outerOf.set(inner, tgid);
          return tgid;
        }
      } catch {
        continue;
      }
    }
    return null;
  }
}

/** The pid in the innermost PID namespace, from a /proc status text (`NSpid:\t1234\t7`). */
function lastNsPid(status: string): number | null {
  const ids = /^NSpid:\s+(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/);
  const last = ids === undefined ? NaN : Number(ids[ids.length - 1]);
  return Number.isInteger(last) && last > 0 ? last : null;
}

const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(FORBIDDEN_SYSCALLS);
/** Ops that only move data: a device such as /dev/null is exempt from these, and only these. */
const DATA_OPS: ReadonlySet<string> = new Set(["write", "create", "truncate"]);
