/**
 * The process-level observer: strace's output (run with -f -y -xx) turned into log events.
 * Sees every process of the tree, Node or not, at the system-call boundary, which in-process
 * code cannot unhook.
 *
 * This module joins a call's lines (unfinished, resumed, a thread's exec) and reads each call
 * through its row of the syscall table; the tokens, the process tree, path resolution and the
 * live reads of the kernel are each in their own module.
 */
import { isContainerEngineSocket } from "../core/container-engine.js";
import { foldPath } from "../core/paths.js";
import { isMissingTargetErrno, type MissingTargetErrno, type WriteOp } from "../core/log-format.js";
import { PathView } from "./jail.js";
import { MAX_INTERPRETER_DEPTH, interpreterArgv } from "./shebang.js";
import { PathResolver } from "./path-resolver.js";
import type { ProcessEvent } from "./process-event.js";
import { liveProcessFacts, type ProcessFacts } from "./process-facts.js";
import { ProcessTree } from "./process-tree.js";
import { isIgnoredDevice } from "./protocol.js";
import { FORBIDDEN_SYSCALLS } from "./seccomp.js";
import { fdDecoration, openFlags, socketAddresses, splitArgs, stringArg, unixAddresses } from "./strace-tokens.js";
import { SYSCALL_TABLE, follows, type SyscallRow } from "./syscall-table.js";

export { TRACED_SYSCALLS, injectedSyscalls, straceArgs } from "./strace-args.js";
export type { ProcessEvent } from "./process-event.js";

type ExecEvent = Extract<ProcessEvent, { kind: "exec" }>;

/**
 * eBPF recorder: a process's `@exec INNER "exe" [interpreted]` line. `exe` is the executable the
 * kernel runs (bprm->file); `interpreted`: a binary handler (`#!`, binfmt_misc) gave the named
 * file to that interpreter, and the exec line's argv is the one the kernel built for it.
 */
interface AnnouncedExec {
  tgid: number;
  inner: number;
  exe: string;
  interpreted: boolean;
}

const NAMESPACE_FLAGS = /CLONE_NEW(?:NS|USER|PID|NET|IPC|UTS|CGROUP|TIME)\b/;

/** How the traced tree's first process ended, from strace's own exit line. */
export interface RootExit {
  code: number | null;
  signal: string | null;
}

interface StraceParserOptions {
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
    /**
     * Whether the file a successful hard link put at this (recorded) new name could only have
     * come from where nothing is judged: the kernel links only within one mount, and the mount
     * of the run's scratch and private directories holds nothing protected. Lets a link of an
     * fd (`linkat("/proc/self/fd/N", …, AT_SYMLINK_FOLLOW)`, an O_TMPFILE file given a name)
     * go without knowing the fd's file.
     */
    linkSourceFree?: (path: string) => boolean;
  };
  /** Called with strace's exit line of the first traced process (bubblewrap, or the command). */
  onRootExit?: (exit: RootExit) => void;
  /** Jailed runs: called once, when bubblewrap has executed the command (its launcher): the jail is up. */
  onCommandStarted?: () => void;
  /**
   * `ebpf`: the lines come from the eBPF recorder (docs/recorder-protocol.md): every line's pid
   * is the process's tgid, `@fork` and `@exec` lines say what /proc would otherwise be asked.
   * Without it those lines are ignored: strace's own output can never make them count.
   */
  recorder?: "strace" | "ebpf";
  /** What is asked of the kernel while the processes run (tests give a table). */
  facts?: ProcessFacts;
}

type WriteEvent = Extract<ProcessEvent, { kind: "write" }>;

/** Streaming parser for `strace -f -y -xx` output. */
export class StraceParser {
  private pending = "";
  private readonly unfinished = new Map<number, string>();
  /** Leaders whose pending exec (a thread's, now under their pid) went through whatever its result line says. */
  private readonly execPassed = new Set<number>();
  private readonly options: StraceParserOptions;
  private readonly view: PathView;
  private readonly facts: ProcessFacts;
  private readonly tree: ProcessTree;
  private readonly paths: PathResolver;
  private readonly jailed: boolean;
  private relayPending: number | null = null;
  private relayTgid: number | null = null;
  private readonly ebpf: boolean;
  /** eBPF recorder: each process's `@exec` line just read, for the exec line that follows it. */
  private readonly pendingExec = new Map<number, AnnouncedExec>();
  /** The call being read was refused as a write to a read-only file system. */
  private refused = false;
  /** The call being read failed because what it named was not there (ENOENT, ENOTDIR): it changed nothing. */
  private missingErrno: MissingTargetErrno | null = null;
  /** The call being read succeeded. */
  private callOk = false;
  /** eBPF recorder: `@path-unknown <reason>` just read, by process, for its next call. */
  private readonly announcedUnknown = new Map<number, string>();
  /** Why the file of the call being read cannot be known (every write it makes), or null. */
  private callUnknown: string | null = null;
  private pendingWrites: WriteEvent[] = [];
  /** eBPF recorder: the `@exec` announcing the exec line being read. */
  private announcedExec: AnnouncedExec | null = null;

  constructor(options: StraceParserOptions) {
    this.options = options;
    this.view = options.jailed?.view ?? new PathView([]);
    this.ebpf = options.recorder === "ebpf";
    this.jailed = options.jailed !== undefined;
    this.facts = options.facts ?? liveProcessFacts;
    const shape = { cwd: options.cwd, jailed: this.jailed, ebpf: this.ebpf };
    this.tree = new ProcessTree(this.facts, shape);
    this.paths = new PathResolver(this.facts, this.view, this.tree, shape);
  }

  /** The first process (the jail's gate), known before any line of it: its exit line is the root exit. */
  rootIs(pid: number): void {
    this.tree.rootIs(pid);
  }

  /** The wrapper's pid for a pid the jail's /proc names (the last NSpid of a process of the tree). */
  outerPid(inner: number): number | null {
    return this.tree.outerPid(inner);
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

  /** Jailed runs: bubblewrap executed the command (or its launcher). An unjailed run's command is the traced process itself. */
  get commandStarted(): boolean {
    return !this.jailed || this.tree.armed;
  }

  finish(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
  }

  /** Whether this process's calls are recorded: in the jail, every process but bubblewrap's and the relay. */
  private recorded(tgid: number): boolean {
    if (!this.jailed) return true;
    return this.tree.armed && !this.tree.isJailProcess(tgid) && tgid !== this.relayTgid;
  }

  private line(raw: string): void {
    const m = /^(\d+) +(.*)$/.exec(raw);
    if (!m) return;
    const tid = Number(m[1]);
    let rest = m[2] as string;
    if (rest.startsWith("@")) {
      if (this.ebpf) this.extension(tid, rest);
      return;
    }
    if (this.ebpf) {
      if (rest.startsWith("+++")) this.exitLine(tid, rest);
      else this.call(tid, rest);
      return;
    }
    // A thread's exec, still open on its line when the kernel gave it the leader's pid.
    const changed = / <pid changed to (\d+) \.\.\.>$/.exec(rest);
    if (changed) {
      this.unfinished.set(tid, rest.slice(0, changed.index));
      this.execInThread(tid, Number(changed[1]));
      return;
    }
    if (rest.endsWith("<unfinished ...>")) {
      this.unfinished.set(tid, rest.slice(0, -"<unfinished ...>".length).trimEnd());
      if (/^(?:clone3?|v?fork)\(/.test(rest)) this.tree.forkStarted(tid);
      return;
    }
    const resumed = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/.exec(rest);
    if (resumed) {
      this.tree.forkEnded(tid);
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

  /**
   * The eBPF recorder's `@fork PARENT INNER` and `@exec INNER "exe"` lines, and `@path-unknown
   * REASON`: the process's next call acted on a file the recorder could not name exactly.
   */
  private extension(tgid: number, rest: string): void {
    const fork = /^@fork (\d+) (\d+)$/.exec(rest);
    if (fork) {
      this.tree.forkAnnounced(tgid, Number(fork[1]), Number(fork[2]));
      return;
    }
    const unknown = /^@path-unknown ([a-z][a-z0-9-]{0,63})$/.exec(rest);
    if (unknown) {
      this.announcedUnknown.set(tgid, unknown[1] as string);
      return;
    }
    const exec = /^@exec (\d+) ("(?:\\x[0-9a-f]{2})*")( interpreted)?$/.exec(rest);
    if (exec) {
      const exe = stringArg(exec[2]);
      const inner = Number(exec[1]);
      if (exe !== null) this.pendingExec.set(tgid, { tgid, inner, exe, interpreted: exec[3] !== undefined });
      this.tree.innerIs(tgid, inner);
    }
  }

  /**
   * A call left unfinished by a thread that is gone, judged as strace prints a call cut short
   * (`= ?`); a thread's exec that passed the point of no return (the pid changed) ran all the same.
   */
  private abandon(tid: number): void {
    this.tree.forkEnded(tid);
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
    this.tree.threadExecuted(thread, leader);
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
    const root = this.tree.root;
    if (root === null || tid !== root || this.options.onRootExit === undefined) return;
    const exited = /^\+\+\+ exited with (\d+) \+\+\+$/.exec(rest);
    if (exited) return this.options.onRootExit({ code: Number(exited[1]), signal: null });
    const killed = /^\+\+\+ killed by (SIG[A-Z0-9]+)/.exec(rest);
    if (killed) this.options.onRootExit({ code: null, signal: killed[1] as string });
  }

  private syscall(tid: number, name: string, argText: string, ret: string): void {
    const tgid = this.tree.tgid(tid);
    const retValue = /^(-?\d+)/.exec(ret);
    const ok = retValue !== null && Number(retValue[1]) >= 0;
    this.refused = !ok && ret.includes(" EROFS ");
    const errno = ok ? null : (/^-1 (E[A-Z0-9]+) \(/.exec(ret)?.[1] ?? null);
    this.missingErrno = errno !== null && isMissingTargetErrno(errno) ? errno : null;
    this.pendingWrites = [];
    this.callOk = ok;
    this.callUnknown = this.ebpf ? (this.announcedUnknown.get(tgid) ?? null) : null;
    if (this.callUnknown !== null) this.announcedUnknown.delete(tgid);
    const announced = this.ebpf ? this.pendingExec.get(tgid) : undefined;
    if (announced !== undefined) this.pendingExec.delete(tgid);
    this.announcedExec = announced !== undefined && (name === "execve" || name === "execveat") ? announced : null;
    try {
      this.dispatch(tgid, tid, name, argText, ret, ok, retValue);
    } finally {
      this.announcedExec = null;
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
    const unknown = this.callUnknown;
    this.callUnknown = null;
    for (const w of writes) {
      if (unknown !== null || w.pathUnknown !== undefined) this.options.emit({ ...w, pathUnknown: w.pathUnknown ?? (unknown as string) });
      else this.options.emit(stale ? { ...w, refused: true } : errno !== null ? { ...w, errno } : w);
    }
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
    const row = SYSCALL_TABLE.get(name);
    if (row?.kind === "fork") {
      if (this.recorded(tgid) && NAMESPACE_FLAGS.test(argText)) this.options.emit({ kind: "forbidden", tgid, name });
      // The recorder says who forked whom in its `@fork` lines.
      if (!ok || this.ebpf) return;
      const child = Number((retValue as RegExpExecArray)[1]);
      if (child <= 0) return;
      this.tree.cloned(tgid, tid, child, argText.includes("CLONE_THREAD"), /\bCLONE_FS\b/.test(argText));
      return;
    }
    if (tgid === this.relayTgid) return;
    const jailed = this.options.jailed;
    if (jailed !== undefined && (!this.tree.armed || this.tree.isJailProcess(tgid))) {
      // Bubblewrap building the jail: nothing is recorded until it executes the command. Every
      // process seen before then is bubblewrap's; every other one is the command's, recorded
      // from its first line on (a vfork child's calls come before its parent's clone line).
      if (!this.tree.armed && row?.kind === "exec" && ok && tgid !== this.tree.root) {
        this.tree.arm(tgid);
        this.options.onCommandStarted?.();
        // The jail's launcher (env -u PWD) is plumbing: the command is what it executes next.
        const launcher = jailed.launcher;
        if (launcher !== undefined && stringArg(splitArgs(argText)[0]) === launcher) {
          if (jailed.relay !== undefined) this.relayPending = tgid;
          return;
        }
      } else {
        if (!this.tree.armed) this.tree.addJailProcess(tgid);
        return;
      }
    }
    if (jailed !== undefined) this.tree.joinCommand(tgid);
    const args = splitArgs(argText);
    // Every *at call shows the caller's current directory: the freshest cwd there is.
    for (const a of args) {
      if (a.startsWith("AT_FDCWD<")) {
        const cwd = fdDecoration(a);
        if (cwd !== null) this.tree.setCwd(tgid, cwd);
        break;
      }
    }
    if (FORBIDDEN_NAMES.has(name)) {
      // The process stops sharing its working directory with the processes it was cloned with.
      if (name === "unshare" && ok && /\bCLONE_FS\b/.test(argText)) this.tree.unshareFs(tgid);
      // Refused by strace (injected EPERM) or by the kernel; `unshare` without a namespace flag is ordinary.
      if (name !== "unshare" || NAMESPACE_FLAGS.test(argText)) this.options.emit({ kind: "forbidden", tgid, name });
      return;
    }
    if (row === undefined) return;
    const retPath = fdDecoration(ret.split(" ")[0]);
    switch (row.kind) {
      case "chdir": {
        const p = row.byFd ? fdDecoration(args[row.arg]) : stringArg(args[row.arg]);
        if (ok && p !== null) this.tree.setCwd(tgid, row.byFd ? p : this.paths.follow(tgid, this.paths.absolute(tgid, null, p)));
        return;
      }
      case "exec":
        if (ok) this.exec(tgid, row, argText, args);
        return;
      case "open":
        return this.open(tgid, row, args, ok, retPath);
      case "paths":
        if (row.unlessExists === true && ret.includes(" EEXIST ")) return;
        for (const [i, p] of row.paths.entries()) {
          const dirfd = p.dirfd === null ? null : args[p.dirfd];
          // A hard link's source, named through an fd and followed: see linkSourceFree.
          const linkSource = row.op === "link" && i === 0 && row.paths.length === 2;
          this.writeArg(tgid, dirfd, args[p.path], row.op, follows(p.follow, args), linkSource);
        }
        this.freeLinkSource();
        return;
      case "atOrFd": {
        const p = stringArg(args[row.path]);
        if (p === null || p === "") {
          const fdPath = fdDecoration(args[row.dirfd]);
          if (fdPath !== null && isFilePath(fdPath)) this.write(tgid, fdPath, row.op);
          return;
        }
        return this.writeArg(tgid, args[row.dirfd], args[row.path], row.op, !(args[row.flags] ?? "").includes("AT_SYMLINK_NOFOLLOW"));
      }
      case "fd": {
        const p = fdDecoration(args[row.fd]);
        if (p !== null && isFilePath(p)) this.write(tgid, p, row.op);
        return;
      }
      case "bind":
        for (const { address, abstract } of unixAddresses(argText)) {
          if (!abstract) this.write(tgid, this.paths.noFollow(tgid, this.paths.absolute(tgid, null, address)), "bind");
        }
        return;
      case "send": {
        const proto = row.proto;
        for (const { host, port } of socketAddresses(argText)) this.options.emit({ kind: "host", tgid, host, port, proto });
        for (const { address, abstract } of unixAddresses(argText)) {
          if (abstract) {
            this.options.emit({ kind: "unix", tgid, address, proto });
            continue;
          }
          const given = this.paths.absolute(tgid, null, address);
          const named = this.view.recorded(this.paths.follow(tgid, given));
          // A name nothing listens on reaches nothing (glibc asks for nscd's socket on every
          // lookup): recorded when it connected, or when a socket of the host's is there. A
          // container engine's name (docker.sock, ...) always is: a probe for Docker (Testcontainers'
          // on a machine with none) is judged whether or not a daemon is there (docker_refused).
          const engine = isContainerEngineSocket(given) || isContainerEngineSocket(named);
          if (ok || engine || this.paths.isHostSocket(tgid, named)) this.options.emit({ kind: "unix", tgid, address: named, proto });
        }
        return;
      }
    }
  }

  private exec(tgid: number, row: Extract<SyscallRow, { kind: "exec" }>, argText: string, args: string[]): void {
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
    const p = stringArg(args[row.path]);
    if (p === null) return;
    const dirfdToken = row.dirfd === null ? null : (args[row.dirfd] ?? null);
    const dirfd = dirfdToken === null ? null : fdDecoration(dirfdToken);
    const argvToken = args[row.path + 1] ?? "[]";
    const given = argvToken.startsWith("[") ? splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]"))).map((t) => stringArg(t) ?? t) : [];
    // The file the exec named: the name given, every symlink resolved in the process's view.
    const named = p === "" && dirfd !== null ? dirfd : this.paths.absolute(tgid, dirfd, p);
    if (this.jailed) this.tree.adopt(tgid);
    const ppid = this.tree.parent(tgid);
    const program = this.paths.program(tgid, named);
    const resolved = this.view.recorded(program);
    const announced = this.announcedExec;
    const jailPid = !this.jailed ? null : this.ebpf ? (announced?.inner ?? this.tree.knownInner(tgid)) : this.tree.jailPid(tgid);
    const at = jailPid !== null && jailPid > 0 ? { jailPid } : {};
    if (this.ebpf) {
      // The kernel's account: the argv is the new image's, the interpreter bprm->file.
      const exe = announced?.exe ?? null;
      const known = exe !== null && exe.startsWith("/");
      if (announced?.interpreted === true && known) {
        this.options.emit({ kind: "exec", tgid, ppid, ...at, path: resolved, argv: given, interpreter: this.view.recorded(exe) });
        return;
      }
      this.options.emit({ kind: "exec", tgid, ppid, ...at, path: resolved, argv: given });
      // What the kernel ran is not the file the name resolves to now (a symlink swapped since, a
      // name resolved in the wrong directory): both are judged.
      if (known && this.view.recorded(exe) !== resolved)
        this.options.emit({ kind: "exec", tgid, ppid, ...at, path: this.view.recorded(exe), argv: given });
      return;
    }
    // strace: the same record derived from the line. A `#!` script's interpreter line is read
    // from the file as binfmt_script reads it, level by level, and the argv built as the kernel
    // builds it; /proc is not asked what an ELF image or a readable script runs (by then the
    // process may run its next program).
    const event: ExecEvent = { kind: "exec", tgid, ppid, ...at, path: resolved, argv: given };
    let file = program;
    let filename = this.execFilename(p, dirfdToken);
    let rest = given.slice(1);
    let interpreted = false;
    let handler: "elf" | "unknown" | "gone" = "elf";
    for (let depth = 0; depth < MAX_INTERPRETER_DEPTH; depth++) {
      const line = this.paths.execHandler(tgid, file);
      if (typeof line === "string") {
        handler = line;
        break;
      }
      rest = interpreterArgv(line, filename, rest);
      filename = rest.shift() as string;
      file = this.paths.program(tgid, this.paths.absolute(tgid, null, line.name));
      interpreted = true;
    }
    if (interpreted) event.argv = [filename, ...rest];
    let ran = interpreted ? this.view.recorded(file) : null;
    if (handler === "unknown") {
      // The file is there and does not say what the kernel ran: one the wrapper may not read
      // (mode 0111, the kernel reads it anyway), a binfmt_misc handler's format. /proc says, late
      // at worst (then it names the process's next program, judged as well); a process already
      // gone leaves its /proc path, which no envelope allows: never "nothing else ran". A file no
      // longer there (removed; a memfd, whose name no envelope allows) is the documented race.
      const exe = this.facts.exe(tgid);
      const kernels = exe !== null && exe.startsWith("/") ? this.view.recorded(exe) : `/proc/${tgid}/exe`;
      if (kernels !== this.view.recorded(file)) ran = kernels;
    }
    if (ran !== null) event.interpreter = ran;
    this.options.emit(event);
  }

  /**
   * The name the kernel gives an exec (bprm->filename), which a script's interpreter gets as its
   * argument: execve's name as given; execveat's, relative to a directory fd, `/dev/fd/N[/name]`.
   */
  private execFilename(p: string, dirfdToken: string | null): string {
    if (p.startsWith("/") || dirfdToken === null) return p;
    const fd = /^(\d+)/.exec(dirfdToken);
    if (fd === null) return p;
    return p === "" ? `/dev/fd/${fd[1]}` : `/dev/fd/${fd[1]}/${p}`;
  }

  private open(tgid: number, row: Extract<SyscallRow, { kind: "open" }>, args: string[], ok: boolean, retPath: string | null): void {
    const flags = row.flags === null ? undefined : args[row.flags];
    const op = row.flags === null ? "create" : openFlags(flags);
    const p = stringArg(args[row.path]);
    if (p === null) return;
    const dirfd = row.dirfd === null ? null : args[row.dirfd];
    if (this.options.plumbing.size > 0) {
      const target = ok && retPath !== null ? retPath : this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p);
      if (this.options.plumbing.has(foldPath(target) ?? target)) {
        this.options.emit({
          kind: "channel",
          tgid,
          path: target,
          writeOnly: row.flags === null || (flags ?? "").split("|").includes("O_WRONLY"),
        });
        return;
      }
    }
    if (op === null) return;
    let target: string;
    const masked = this.options.jailed?.masked;
    const named = masked?.size ? foldPath(this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p)) : null;
    if (named !== null && masked?.has(named) === true) {
      // The jail covers it with /dev/null: the attempt is on the path the program named.
      target = named;
    } else if (ok && retPath !== null) {
      // The kernel's name for the file opened, at the call; a memfd, pipe or socket is no path.
      if (!isFilePath(retPath)) return;
      target = retPath.replace(/ \(deleted\)$/, "");
    } else {
      const resolved = this.paths.mutation(tgid, this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p), true);
      return this.write(tgid, resolved.path, op, resolved.unknown);
    }
    this.write(tgid, target, op);
  }

  private writeArg(
    tgid: number,
    dirfdToken: string | null | undefined,
    pathToken: string | undefined,
    op: WriteOp,
    follow: boolean,
    linkSource = false,
  ): void {
    const p = stringArg(pathToken);
    if (p === null) return;
    const dirfd = dirfdToken === null || dirfdToken === undefined ? null : fdDecoration(dirfdToken);
    const resolved = this.paths.mutation(tgid, this.paths.absolute(tgid, dirfd, p), follow);
    this.write(tgid, resolved.path, op, resolved.unknown);
    if (linkSource && resolved.unknown !== null) this.unknownLinkSource = this.pendingWrites.length - 1;
  }

  /** The pending write that is a hard link's source named through an fd (freeLinkSource), or -1. */
  private unknownLinkSource = -1;

  /**
   * A successful hard link of a file named through an fd: the kernel made it within the new
   * name's mount, so where that mount holds nothing judged (linkSourceFree) the file cannot be a
   * judged one, and its unknown name is not written. Anywhere else it stays unknown.
   */
  private freeLinkSource(): void {
    const at = this.unknownLinkSource;
    this.unknownLinkSource = -1;
    if (at < 0 || !this.callOk || this.callUnknown !== null) return;
    const target = this.pendingWrites[at + 1];
    const free = this.options.jailed?.linkSourceFree;
    if (target === undefined || target.pathUnknown !== undefined || free === undefined || !free(target.path)) return;
    this.pendingWrites.splice(at, 1);
  }

  private write(tgid: number, path: string, op: WriteOp, unknown: string | null = null): void {
    const folded = foldPath(path);
    if (folded === null || this.options.plumbing.has(folded)) return;
    // Writing to /dev/null mutates nothing; changing its mode or owner changes the host's node.
    if (unknown === null && isIgnoredDevice(folded) && DATA_OPS.has(op)) return;
    const write: WriteEvent = { kind: "write", tgid, path: this.view.recorded(folded), op };
    if (unknown !== null) write.pathUnknown = unknown;
    this.pendingWrites.push(write);
  }
}

const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(FORBIDDEN_SYSCALLS);

/**
 * Whether a name the kernel gave for an fd is a file's path: a memfd (`/memfd:name`, its
 * `(deleted)` aside), a pipe, a socket or an anonymous inode (`pipe:[…]`, `socket:[…]`,
 * `anon_inode:…`) is not, and a write to it changes no file.
 */
function isFilePath(name: string): boolean {
  return name.startsWith("/") && !/^\/memfd:[^/]*$/.test(name.replace(/ \(deleted\)$/, ""));
}
/** Ops that only move data: a device such as /dev/null is exempt from these, and only these. */
const DATA_OPS: ReadonlySet<string> = new Set(["write", "create", "truncate"]);
