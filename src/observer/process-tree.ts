/**
 * The traced tree as the recorder's lines reveal it: which process each thread belongs to, who
 * forked whom, each process's working directory, and its pid inside the jail's PID namespace.
 * What the lines leave open is asked of the kernel through ProcessFacts, while the process runs.
 */
import type { ProcessFacts } from "./process-facts.js";

/**
 * A process's filesystem context as the kernel keeps it (its `fs_struct`): the working directory.
 * Processes made by `clone(CLONE_FS)` share one: a `chdir` in either moves both.
 */
interface FsContext {
  cwd: string;
}

/** A fork seen in a jailed run, by the child's pid inside the jail, waiting for its child to show up. */
interface ForkRecord {
  parent: number;
  cwd: string;
  /** The parent's context, when the child shares it (CLONE_FS). */
  shared: FsContext | null;
  inner: number;
  used: boolean;
}

interface ProcessTreeOptions {
  /** Directory the traced command starts in. */
  cwd: string;
  /** The tree runs in the jail (bubblewrap first): pids in clone results are the jail's. */
  jailed: boolean;
  /** The eBPF recorder: every line's pid is the process's tgid, and `@fork` lines name the parent. */
  ebpf: boolean;
}

export class ProcessTree {
  private readonly facts: ProcessFacts;
  private readonly startCwd: string;
  private readonly jailed: boolean;
  private readonly ebpf: boolean;
  private readonly tgidOf = new Map<number, number>();
  private readonly parentOf = new Map<number, number>();
  /** Each process's filesystem context; processes made with CLONE_FS hold the same object. */
  private readonly fsOf = new Map<number, FsContext>();
  private rootTgid: number | null = null;
  /** Processes of the command's own tree (jailed runs only). */
  private readonly commandTree = new Set<number>();
  private readonly outerOf = new Map<number, number>();
  /** Jailed runs: the pid a process has inside the jail's PID namespace, read while it ran. */
  private readonly innerOf = new Map<number, number>();
  private readonly recentForks: ForkRecord[] = [];
  private readonly adopted = new Set<number>();
  /** Parents whose child was adopted while their fork line was still unfinished. */
  private readonly adoptedDuringFork = new Set<number>();
  /** That child, by its parent's tgid. */
  private readonly adoptedDuringForkChild = new Map<number, number>();
  /** Jailed runs: the command has started (bubblewrap executed it). */
  private started = false;
  /** Jailed runs: bubblewrap's own processes (every one seen before the command started). */
  private readonly jailProcesses = new Set<number>();
  /** Threads in the middle of a clone/fork/vfork: a process first seen now is most likely their child. */
  private readonly forking: number[] = [];

  constructor(facts: ProcessFacts, options: ProcessTreeOptions) {
    this.facts = facts;
    this.startCwd = options.cwd;
    this.jailed = options.jailed;
    this.ebpf = options.ebpf;
  }

  /** The traced tree's first process, once known. */
  get root(): number | null {
    return this.rootTgid;
  }

  /** The first process (the jail's gate), known before any line of it. */
  rootIs(pid: number): void {
    this.rootTgid ??= pid;
  }

  /** Jailed runs: bubblewrap has executed the command. */
  get armed(): boolean {
    return this.started;
  }

  /** Bubblewrap executed the command in `tgid`: it leaves bubblewrap's processes for the command's tree. */
  arm(tgid: number): void {
    this.started = true;
    this.jailProcesses.delete(tgid);
    this.commandTree.add(tgid);
  }

  isJailProcess(tgid: number): boolean {
    return this.jailProcesses.has(tgid);
  }

  addJailProcess(tgid: number): void {
    this.jailProcesses.add(tgid);
  }

  /** A process of the command's tree (jailed runs) makes a call: known from now on, and matched to its fork. */
  joinCommand(tgid: number): void {
    this.commandTree.add(tgid);
    this.adopt(tgid);
  }

  tgid(tid: number): number {
    if (this.ebpf) {
      this.rootTgid ??= tid;
      return tid;
    }
    const known = this.tgidOf.get(tid);
    if (known !== undefined) return known;
    // A thread whose clone line is still unfinished: ask the kernel while it runs.
    let tgid = tid;
    const status = this.facts.status(tid);
    if (status !== null) {
      const m = /^Tgid:\s+(\d+)$/m.exec(status);
      if (m) tgid = Number(m[1]);
      // A thread's own status names the thread (its NSpid is the thread's id): only a leader's counts.
      const inner = tgid === tid ? lastNsPid(status) : null;
      if (inner !== null) this.innerOf.set(tgid, inner);
    }
    this.tgidOf.set(tid, tgid);
    if (this.rootTgid === null) this.rootTgid = tgid;
    return tgid;
  }

  parent(tgid: number): number | null {
    return this.parentOf.get(tgid) ?? null;
  }

  /** The pid inside the jail as last read or announced, without asking the kernel. */
  knownInner(tgid: number): number | null {
    return this.innerOf.get(tgid) ?? null;
  }

  /** A thread entered clone/fork/vfork (its line unfinished). */
  forkStarted(tid: number): void {
    this.forking.push(tid);
  }

  /** The thread's call ended (resumed, or the thread is gone). */
  forkEnded(tid: number): void {
    const at = this.forking.lastIndexOf(tid);
    if (at !== -1) this.forking.splice(at, 1);
  }

  /**
   * A successful clone/fork/vfork by `tid` of process `tgid`, whose result (the child's pid) was
   * `child`; `sharesFs`: CLONE_FS, the child shares the parent's working directory (and root, umask).
   */
  cloned(tgid: number, tid: number, child: number, thread: boolean, sharesFs = false): void {
    if (this.jailed && this.started) {
      // Inside the jail's PID namespace `child` is the pid there: remembered, matched when the
      // child shows up under the tracer's pid (adopt).
      if (thread) return;
      const matched = this.adoptedDuringFork.delete(tid);
      const cwd = this.cwd(tgid);
      const shared = sharesFs ? this.context(tgid) : null;
      // A child already adopted while the fork line was open: it shares from now on.
      if (matched && shared !== null) this.shareWithLatestAdopted(tgid, shared);
      this.recentForks.push({ parent: tgid, cwd, shared, inner: child, used: matched });
      if (this.recentForks.length > 256) this.recentForks.shift();
      return;
    }
    if (thread) {
      this.tgidOf.set(child, tgid);
    } else {
      this.tgidOf.set(child, child);
      this.parentOf.set(child, tgid);
      if (sharesFs) this.fsOf.set(child, this.context(tgid));
      else this.fsOf.set(child, { cwd: this.cwd(tgid) });
      if (!this.started && this.jailed) this.jailProcesses.add(child);
    }
  }

  /** The child adopted while its parent's CLONE_FS fork line was open: it holds the parent's context. */
  private shareWithLatestAdopted(parent: number, shared: FsContext): void {
    const child = this.adoptedDuringForkChild.get(parent);
    if (child === undefined) return;
    this.adoptedDuringForkChild.delete(parent);
    this.fsOf.set(child, shared);
  }

  /** The process left the context it shared (`unshare(CLONE_FS)`): a copy of its own from now on. */
  unshareFs(tgid: number): void {
    this.fsOf.set(tgid, { cwd: this.cwd(tgid) });
  }

  /** The process's filesystem context, made from its directory as known now when it has none yet. */
  private context(tgid: number): FsContext {
    const known = this.fsOf.get(tgid);
    if (known !== undefined) return known;
    const made = { cwd: this.cwd(tgid) };
    const now = this.fsOf.get(tgid);
    if (now !== undefined) return now;
    this.fsOf.set(tgid, made);
    return made;
  }

  /** The eBPF recorder's `@fork PARENT INNER`: `tgid` was forked by `parent`, and is `inner` in the jail. */
  forkAnnounced(tgid: number, parent: number, inner: number): void {
    this.rootTgid ??= parent;
    this.parentOf.set(tgid, parent);
    this.fsOf.set(tgid, { cwd: this.fsOf.get(parent)?.cwd ?? this.startCwd });
    this.innerIs(tgid, inner);
    if (this.jailed && !this.started) this.jailProcesses.add(tgid);
    // Known from its own fork line: adopt() has nothing to guess.
    this.adopted.add(tgid);
  }

  /** The recorder said which pid the process has inside the jail. */
  innerIs(tgid: number, inner: number): void {
    if (inner > 0) {
      this.innerOf.set(tgid, inner);
      this.outerOf.set(inner, tgid);
    }
  }

  /** A thread other than the leader executed a program: from now on it is the leader. */
  threadExecuted(thread: number, leader: number): void {
    this.forkEnded(thread);
    this.tgidOf.set(thread, leader);
    this.tgidOf.set(leader, leader);
  }

  /**
   * A process first seen without a clone line of its own (in a PID namespace the clone's return
   * value is the child's pid inside it, not the tracer's): match it to a fork by that inner pid,
   * or to its parent still in the middle of forking, or to the latest fork not yet matched.
   */
  adopt(tgid: number): void {
    if (this.adopted.has(tgid)) return;
    this.adopted.add(tgid);
    // Known from before the command started (bubblewrap's clone of it), or from its own clone line.
    if (this.fsOf.has(tgid) || this.parentOf.has(tgid)) return;
    const inner = this.innerOf.get(tgid);
    let record = inner !== undefined ? this.recentForks.find((r) => !r.used && r.inner === inner) : undefined;
    if (record === undefined && this.forking.length > 0) {
      const forker = this.forking[this.forking.length - 1] as number;
      const parent = this.tgidOf.get(forker);
      if (parent !== undefined && parent !== tgid) {
        this.adoptedDuringFork.add(forker);
        this.adoptedDuringForkChild.set(parent, tgid);
        record = { parent, cwd: this.cwd(parent), shared: null, inner: -1, used: false };
      }
    }
    record ??= [...this.recentForks].reverse().find((r) => !r.used);
    if (record === undefined) return;
    record.used = true;
    this.fsOf.set(tgid, record.shared ?? { cwd: record.cwd });
    this.parentOf.set(tgid, record.parent);
  }

  /** The process's working directory moved (a chdir, or the kernel's word on a call): every process sharing it moves. */
  setCwd(tgid: number, cwd: string): void {
    const known = this.fsOf.get(tgid);
    if (known !== undefined) known.cwd = cwd;
    else this.fsOf.set(tgid, { cwd });
  }

  cwd(tgid: number): string {
    const known = this.fsOf.get(tgid)?.cwd;
    if (known !== undefined) return known;
    if (this.jailed) this.adopt(tgid);
    const adopted = this.fsOf.get(tgid)?.cwd;
    if (adopted !== undefined) return adopted;
    // First seen before its parent's clone line: it started in the forking parent's directory;
    // failing that, ask the kernel while it runs.
    const parent = this.forking.length > 0 ? this.tgidOf.get(this.forking[this.forking.length - 1] as number) : undefined;
    const cwd = (parent !== undefined && parent !== tgid ? this.fsOf.get(parent)?.cwd : undefined) ?? this.facts.cwd(tgid) ?? this.startCwd;
    this.fsOf.set(tgid, { cwd });
    return cwd;
  }

  /**
   * A process's pid inside the jail's PID namespace: read from the kernel (`NSpid`) now, at its
   * exec, or, when it is gone already, as read when it was first seen; null otherwise (never guessed).
   */
  jailPid(tgid: number): number | null {
    const status = this.facts.status(tgid);
    const inner = status === null ? null : lastNsPid(status);
    if (inner !== null) {
      this.innerOf.set(tgid, inner);
      return inner;
    }
    return this.innerOf.get(tgid) ?? null;
  }

  /** The wrapper's pid for a pid the jail's /proc names (the last NSpid of a process of the tree). */
  outerPid(inner: number): number | null {
    const cached = this.outerOf.get(inner);
    if (cached !== undefined) return cached;
    if (this.ebpf) return null;
    for (const tgid of this.commandTree) {
      const status = this.facts.status(tgid);
      if (status === null) continue;
      const m = /^NSpid:\s+(.*)$/m.exec(status);
      const ids = (m?.[1] ?? "").trim().split(/\s+/).map(Number);
      if (ids[ids.length - 1] === inner) {
        this.outerOf.set(inner, tgid);
        return tgid;
      }
    }
    return null;
  }
}

/** The pid in the innermost PID namespace, from a /proc status text (`NSpid:\t1234\t7`). */
export function lastNsPid(status: string): number | null {
  const ids = /^NSpid:\s+(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/);
  const last = ids === undefined ? NaN : Number(ids[ids.length - 1]);
  return Number.isInteger(last) && last > 0 ? last : null;
}
