/**
 * `envelope-gate run`: runs a command with the envelope in force and writes the observer log.
 * Only this process writes the log. Order of a run:
 *
 *   truncate the log -> verify the envelope -> resolve roots, scratch, command, observers
 *   -> meta -> canary stage (self-check, marked canary) -> the command -> end
 *
 * The command runs inside the jail (jail.ts) with strace outside it. `end` is written only after
 * the jail is gone (its PID namespace dies with its first process, so no process of the tree is
 * alive), strace reported the jail's own exit, and every record was read; any failure before
 * that leaves a log without `end`, which `check` refuses.
 */
import { spawn } from "node:child_process";
import { randomUUID, createHash } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  cpSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { constants as osConstants } from "node:os";
import { GateError } from "../core/errors.js";
import { expandRoots, expandWritableProtected } from "../core/envelope.js";
import { LOG_VERSION } from "../core/log.js";
import { readVerifiedEnvelope } from "../gate/files.js";
import { proxyEnv, startEgressProxy, type EgressProxy } from "./egress.js";
import { FifoReader, makeFifo } from "./fifo.js";
import { BWRAP_ENV, planJail, probeJail, type Jail } from "./jail.js";
import { HOSTNAME_KEYS, JAIL_HOSTNAME } from "./machine-identity.js";
import { ChannelMessageError, Merger, type LogEvent } from "./merge.js";
import {
  EVENTS_FIFO_NAME,
  FrameDecoder,
  FrameError,
  PRELOAD_CONFIG_NAME,
  PRELOAD_FILE_NAME,
  STRACE_FIFO_NAME,
  mergeNodeOptions,
} from "./protocol.js";
import { jailArch, seccompProgram, type JailArch } from "./seccomp.js";
import { findGit, prepareProtected, productInstallDir } from "./protected.js";
import { StraceParser, straceArgs, type ProcessEvent, type RootExit } from "./strace.js";
import { isInsideAnyRoot } from "../core/paths.js";
import { hostAllowed, normalizeHost } from "../core/hosts.js";
import { envMatcher, hostPatterns } from "../core/envelope.js";

export interface RunOptions {
  envelopePath: string;
  digestPath?: string | undefined;
  logPath: string;
  workspace?: string | undefined;
  scratch?: string | undefined;
  nodeOnly: boolean;
  /**
   * Audit mode: jailed and recorded as usual, but the egress proxy runs whatever the envelope's
   * `network` says and lets every host out (by name, recorded); the proxy keys are in the run's
   * environment and meta says `"audit": true`. The log is judged like any other.
   */
  audit?: boolean | undefined;
  command: string[];
  /** Filled as the run goes, for the CLI's own lines (src/observer/cli.ts); never read here. */
  facts?: RunFacts | undefined;
}

/** Test and packaging seams: which binaries to use. Pointing one at nothing makes the run refuse. */
const STRACE_ENV = "ENVELOPE_GATE_STRACE";
const MACHINE_ID_ENV = "ENVELOPE_GATE_MACHINE_ID_FILE";

/** What the CLI says about a run: filled by runObserved as each fact becomes known. */
export interface RunFacts {
  /** The scratch directory, once made; `scratchChosen` when the run chose it (no --scratch). */
  scratch?: string;
  scratchChosen?: boolean;
  /** The caller's environment keys the run did not pass to the command (names only, sorted). */
  withheld?: string[];
  /** Events recorded so far, meta excluded (what check counts once the end line is written). */
  eventsSoFar?: () => number;
  /** Once the end line is written: the events between meta and end, and the command's exit code. */
  events?: number;
  exitCode?: number | null;
}

export const CANARY_ENV_KEY = "ENVELOPE_GATE_CANARY";
export const CANARY_HOST = "canary.envelope-gate.invalid";
const CANARY_FILE = ".envelope-gate-canary";

// The canary program: a write, an env read and a DNS lookup through the hooks, and a write, an
// exec and a connect to a resolver address through the process observer.
const CANARY_PROGRAM = `
const fs = require("node:fs");
const dns = require("node:dns");
const dgram = require("node:dgram");
fs.writeFileSync(process.argv[1], "envelope-gate canary\\n");
void process.env.${CANARY_ENV_KEY};
dns.lookup(${JSON.stringify(CANARY_HOST)}, () => {});
const socket = dgram.createSocket("udp4");
const done = () => process.exit(0);
socket.on("error", done);
socket.connect(53, "127.0.0.1", done);
`;

/** Finds an executable the way execvp would, with the wrapper's own PATH. */
export function resolveExecutable(name: string, pathValue: string | undefined): string | null {
  const candidates = name.includes("/")
    ? [resolve(name)]
    : (pathValue ?? "")
        .split(delimiter)
        .filter((d) => d !== "")
        .map((d) => join(resolve(d), name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      continue;
    }
  }
  return null;
}

export function runnerIdentity(): string {
  const files =
    process.env[MACHINE_ID_ENV] !== undefined ? [process.env[MACHINE_ID_ENV] as string] : ["/etc/machine-id", "/var/lib/dbus/machine-id"];
  for (const file of files) {
    try {
      const id = readFileSync(file, "utf8").trim();
      if (id !== "") return `${hostname()}#${createHash("sha256").update(id).digest("hex").slice(0, 16)}`;
    } catch {
      continue;
    }
  }
  throw new GateError("RUNNER_IDENTITY_UNAVAILABLE", `no machine id in ${files.join(" or ")}: the runner cannot be identified`, {
    hint: "The log names the machine it was recorded on (A/B runs must differ). Provide /etc/machine-id (systemd-machine-id-setup).",
  });
}

function preloadBundlePath(): string {
  // Beside the CLI bundle: dist/cli/index.js -> dist/preload/index.js (kept out of the bundler's asset analysis).
  const parts = [dirname(fileURLToPath(import.meta.url)), "..", "preload", "index.js"];
  return parts.join(sep);
}

function relayBundlePath(): string {
  return [dirname(fileURLToPath(import.meta.url)), "..", "relay", "index.js"].join(sep);
}

/** The relay's copy in each stage directory: the product's own files are never run from where it is installed. */
const STAGED_RELAY_DIR = "relay";

/** Where the relay listens inside the jail's own network namespace (the proxy variables point here). */
const EGRESS_PORT = 3128;

/**
 * The log's only writer. A write that fails (a full disk, a quota, an I/O error) is the end of
 * the log: nothing is written after it, the file is cut back to its last whole line (so it has no
 * `end`, and check refuses it), and `onFailure` stops the command, whose actions would otherwise
 * go unrecorded. `failure` holds the typed error; `flush` throws it.
 */
class LogWriter {
  private readonly fd: number;
  private readonly path: string;
  private readonly onFailure: () => void;
  private seq = 0;
  private buffer: string[] = [];
  private scheduled = false;
  private bytesWritten = 0;
  private linesWritten = 0;
  private failed: GateError | null = null;

  constructor(fd: number, path: string, onFailure: () => void) {
    this.fd = fd;
    this.path = path;
    this.onFailure = onFailure;
  }

  get lines(): number {
    return this.seq;
  }

  get failure(): GateError | null {
    return this.failed;
  }

  write(event: LogEvent): void {
    if (this.failed !== null) return;
    const { kind, ...rest } = event;
    this.buffer.push(JSON.stringify({ v: LOG_VERSION, kind, ...rest, seq: this.seq }) + "\n");
    this.seq++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.writeBuffered());
    }
  }

  /** Writes what is buffered; throws if the log can no longer be written. */
  flush(): void {
    this.writeBuffered();
    if (this.failed !== null) throw this.failed;
  }

  /** Flushes and closes without throwing: a failure is left in `failure` for the caller. */
  close(): void {
    this.writeBuffered();
    try {
      closeSync(this.fd);
    } catch (err) {
      if (this.failed === null) this.fail(err);
    }
  }

  private writeBuffered(): void {
    this.scheduled = false;
    const lines = this.buffer.length;
    const bytes = Buffer.from(this.buffer.join(""), "utf8");
    this.buffer = [];
    if (this.failed !== null || lines === 0) return;
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      this.fail(err);
      return;
    }
    this.bytesWritten += bytes.length;
    this.linesWritten += lines;
  }

  private fail(err: unknown): void {
    const reason = (err as { code?: string }).code ?? String(err);
    let state = `the log ends after ${this.linesWritten} whole lines, with no end line`;
    try {
      ftruncateSync(this.fd, this.bytesWritten);
    } catch (truncateError) {
      // The partial last line stays; check refuses a truncated last line as it refuses a missing end.
      state = `the log ends in a partial line (it could not be cut back: ${(truncateError as { code?: string }).code ?? String(truncateError)})`;
    }
    const full = reason === "ENOSPC" || reason === "EDQUOT";
    this.failed = new GateError(
      "OBSERVER_LOG_WRITE_FAILED",
      `cannot write the observer log ${this.path} (${reason}): the run is stopped and ${state}, so check refuses it`,
      {
        file: this.path,
        hint: full
          ? "The filesystem holding the log is full (or its quota is): free space there, or point --observer at a filesystem with room, and run again."
          : "The filesystem holding the log refused a write: check the device, or point --observer elsewhere, and run again.",
        cause: err,
      },
    );
    this.onFailure();
  }
}

interface StageResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Stage {
  dir: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  strace: string | null;
  arch: JailArch;
  /** Builds the jail for this stage (its argv, ending in `--`, and its view of paths). */
  jail: (stageDir: string, seccompFd: number) => Jail;
  seccompFile: string;
  /** Real paths of the programs that may write to the hooks' channel (Node binaries). */
  nodeBinaries: ReadonlySet<string>;
  /** The wrapper's own Node binary (it runs the relay). */
  nodeBinary: string;
  /** Unix socket addresses (resolved, or `@abstract`) that are the command's own business, not the network's. */
  unixIsLocal: (address: string) => boolean;
  /** Under allowlist (or audit): the decision for the proxy outside (the relay inside is the stage's copy). */
  egress: { allowed: (host: string, port: number) => boolean; audit: boolean } | null;
  /** util-linux setpriv, which starts strace with a parent-death signal. */
  setpriv: string;
  /** The jail's launcher (jail.ts). */
  launcher: string;
  /** Inside a place the command can write (a root, or a private directory). */
  writable: (path: string) => boolean;
  quiet: boolean;
  merger: Merger;
}

let interrupted: NodeJS.Signals | null = null;
let activeChild: ReturnType<typeof spawn> | null = null;

/** Descriptors above 3 this process holds without close-on-exec (inherited from its caller). */
function inheritedDescriptors(): number[] {
  const out: number[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return out;
  }
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 3) continue;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & 0o2000000) === 0) out.push(fd);
    } catch {
      continue;
    }
  }
  return out.sort((a, b) => a - b);
}

/** Node binaries may write to the hooks' channel: the wrapper's own, or one named like Node. */
function isNodeBinary(path: string, known: ReadonlySet<string>): boolean {
  return known.has(path) || /^node(?:js)?[0-9.]*$/.test(basename(path));
}

async function runStage(stage: Stage): Promise<StageResult> {
  mkdirSync(stage.dir, { recursive: true, mode: 0o700 });
  const eventsFifo = join(stage.dir, EVENTS_FIFO_NAME);
  // Outside the stage directory: the jail never sees strace's output.
  const straceFifo = join(dirname(stage.dir), `${basename(stage.dir)}.${STRACE_FIFO_NAME}`);
  makeFifo(eventsFifo);
  if (stage.strace !== null) makeFifo(straceFifo);

  let failure: Error | null = null;
  let child: ReturnType<typeof spawn> | null = null;
  const fail = (err: Error): void => {
    if (failure === null) failure = err;
    if (child !== null && child.exitCode === null) child.kill("SIGKILL");
  };

  const frames = new FrameDecoder();
  const events = new FifoReader(
    eventsFifo,
    (text) => {
      if (failure !== null) return;
      try {
        for (const json of frames.push(text)) stage.merger.fromHook(JSON.parse(json));
      } catch (err) {
        if (err instanceof ChannelMessageError || err instanceof FrameError || err instanceof SyntaxError) {
          fail(
            new GateError("OBSERVER_CHANNEL_INVALID", `the hooks' channel carried an invalid record (${err.message})`, {
              hint: "Something other than the envelope-gate preload wrote to the observer channel. The run is refused.",
              cause: err,
            }),
          );
          return;
        }
        throw err;
      }
    },
    fail,
  );

  // bwrap reads the seccomp program from this descriptor (index 3 of the spawned process).
  const seccompFd = openSync(stage.seccompFile, "r");
  const jail = stage.jail(stage.dir, 3);
  const traced: { rootExit: RootExit | null } = { rootExit: null };
  const exeOf = new Map<number, string>();
  const onProcess = (e: ProcessEvent): void => {
    if (e.kind === "exec") exeOf.set(e.tgid, e.path);
    if (e.kind === "channel") {
      const exe = exeOf.get(e.tgid) ?? "an unknown program";
      if (!e.writeOnly) {
        fail(
          new GateError(
            "OBSERVER_CHANNEL_TAMPERED",
            `process ${e.tgid} (${exe}) opened the hooks' channel for reading: it could take other processes' records`,
          ),
        );
      } else if (!isNodeBinary(exe, stage.nodeBinaries)) {
        fail(
          new GateError(
            "OBSERVER_CHANNEL_TAMPERED",
            `process ${e.tgid} (${exe}), which is not Node, opened the hooks' channel: records from it would be forged`,
          ),
        );
      }
      return;
    }
    if (e.kind === "unix" && stage.unixIsLocal(e.address)) return;
    stage.merger.fromProcess(e);
  };
  const stagedRelay = stage.egress !== null ? join(stage.dir, STAGED_RELAY_DIR, "index.js") : undefined;
  let strace: FifoReader | null = null;
  let parser: StraceParser | null = null;
  if (stage.strace !== null) {
    parser = new StraceParser({
      cwd: stage.cwd,
      plumbing: new Set([eventsFifo, straceFifo]),
      emit: onProcess,
      jailed: { view: jail.view, masked: jail.masked, launcher: stage.launcher, writable: stage.writable, relay: stagedRelay },
      onRootExit: (exit) => {
        traced.rootExit = exit;
      },
    });
    const p = parser;
    stage.merger.pidOfHook = (hookPid) => p.outerPid(hookPid);
    strace = new FifoReader(
      straceFifo,
      (text) => {
        if (failure !== null) return;
        // A hook's record is written before its system call runs: read those first.
        events.drainNow();
        p.push(text);
      },
      fail,
    );
  }

  // strace dies with the wrapper (setpriv --pdeathsig), and the jail with strace (bwrap --die-with-parent).
  const tracer =
    stage.strace !== null ? [stage.setpriv, "--pdeathsig", "KILL", "--", stage.strace, ...straceArgs(straceFifo, stage.arch), "--"] : [];
  let env = stage.env;
  let relay: string[] = [];
  let proxy: EgressProxy | null = null;
  if (stage.egress !== null) {
    // The only way out of the jail's network namespace: the relay inside, the proxy here.
    const socketPath = join(stage.dir, "egress.sock");
    try {
      proxy = await startEgressProxy({ socketPath, allowed: stage.egress.allowed, record: (e) => stage.merger.fromEgress(e) });
    } catch (err) {
      closeSync(seccompFd);
      throw new GateError("JAIL_UNAVAILABLE", `the egress proxy for allowlist cannot start on ${socketPath} (${(err as Error).message})`, {
        cause: err,
      });
    }
    const { NODE_OPTIONS: childNodeOptions, ...rest } = stage.env;
    // Under allowlist the proxy keys are always the run's (their reads are not judged: PROXY_ENV_KEYS).
    env = { ...rest, ...proxyEnv(EGRESS_PORT) };
    relay = [
      stage.nodeBinary,
      stagedRelay as string,
      "--listen",
      `127.0.0.1:${EGRESS_PORT}`,
      "--unix",
      socketPath,
      "--child-node-options",
      childNodeOptions ?? "",
      "--",
    ];
  }
  const argv = [...tracer, ...jail.argv, ...relay, ...stage.argv];
  const stdio: ("inherit" | "ignore" | number)[] = stage.quiet ? ["ignore", "ignore", "inherit"] : ["inherit", "inherit", "inherit"];
  stdio.push(seccompFd);
  // A descriptor the wrapper inherited without close-on-exec would pass through strace and bwrap
  // into the jail (an open directory outside the roots is a way around the read-only mounts):
  // each one is replaced by /dev/null in the child.
  const devNull = openSync("/dev/null", "r");
  for (const fd of inheritedDescriptors()) {
    while (stdio.length < fd) stdio.push("ignore");
    stdio[fd] = devNull;
  }
  let started: ReturnType<typeof spawn>;
  try {
    started = spawn(argv[0] as string, argv.slice(1), { cwd: stage.cwd, env, stdio });
  } finally {
    closeSync(seccompFd);
    closeSync(devNull);
  }
  child = started;
  activeChild = started;
  const result = await new Promise<StageResult>((resolveExit, reject) => {
    started.once("error", (err) => reject(err));
    started.once("exit", (code, signal) => resolveExit({ code, signal }));
  }).catch((err: Error) => {
    fail(new GateError("OBSERVER_UNAVAILABLE", `cannot start ${argv[0]}: ${err.message}`, { cause: err }));
    return { code: null, signal: null } as StageResult;
  });
  activeChild = null;
  await proxy?.close();
  if (strace !== null) await strace.finish();
  await events.finish();
  parser?.finish();
  if (interrupted !== null) throw interruptedError();
  if (!frames.idle && failure === null) {
    fail(new GateError("OBSERVER_CHANNEL_INVALID", "the hooks' channel ended in the middle of a record"));
  }
  if (stage.strace !== null && failure === null && traced.rootExit === null) {
    fail(
      new GateError(
        "OBSERVER_TRACER_LOST",
        `the process observer ended (${result.signal ?? `exit ${String(result.code)}`}) without reporting the end of the jail: the tracer died or was detached`,
        {
          hint: "Nothing after that point was observed, so the run is refused. Run it again.",
        },
      ),
    );
  }
  if (failure !== null) throw failure;
  const exit = traced.rootExit;
  return exit !== null ? { code: exit.code, signal: exit.signal as NodeJS.Signals | null } : result;
}

/** SIGKILLs a process and every descendant still attached to it (found through /proc). */
function killTree(root: number): void {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    entries = []; // no /proc: only the direct child is reachable
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      continue;
    }
  }
  const order: number[] = [];
  const queue = [root];
  while (queue.length > 0 && order.length < 100_000) {
    const pid = queue.shift() as number;
    order.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  for (const pid of order) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      continue;
    }
  }
}

function exitCodeOf(result: StageResult): number {
  if (result.code !== null) return result.code;
  const signo = result.signal !== null ? (osConstants.signals[result.signal] ?? 0) : 0;
  return 128 + signo;
}

/** Runs the command under the observers and writes the log. Returns the command's exit code. */
export async function runObserved(options: RunOptions): Promise<number> {
  const logPath = resolve(options.logPath);
  // First, before anything can fail: a stale log from an earlier run must never survive a refusal.
  let logFd: number;
  try {
    logFd = openSync(logPath, "w", 0o644);
  } catch (err) {
    throw new GateError(
      "OBSERVER_LOG_UNWRITABLE",
      `cannot write the observer log ${logPath} (${(err as { code?: string }).code ?? String(err)})`,
      {
        file: logPath,
        cause: err,
      },
    );
  }
  // A log that cannot be written stops the command, as a signal does: its acts would go unrecorded.
  const log = new LogWriter(logFd, logPath, () => {
    if (activeChild?.pid !== undefined) killTree(activeChild.pid);
  });
  const privateDir = mkdtempSync(join(tmpdir(), "envelope-gate-observer-"));
  if (options.facts) options.facts.eventsSoFar = () => Math.max(0, log.lines - 1);
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted = signal;
    if (activeChild?.pid !== undefined) killTree(activeChild.pid);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  let outcome: { exitCode: number } | { error: unknown };
  try {
    outcome = { exitCode: await observe(options, log, logPath, privateDir) };
  } catch (err) {
    outcome = { error: err };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    log.close();
    rmSync(privateDir, { recursive: true, force: true });
  }
  // Whatever else went wrong after the log failed (the command stopped, the tracer lost) follows from it.
  if (log.failure !== null) throw log.failure;
  if ("error" in outcome) throw outcome.error;
  return outcome.exitCode;
}

async function observe(options: RunOptions, log: LogWriter, logPath: string, privateDir: string): Promise<number> {
  const envelope = await readVerifiedEnvelope(options.envelopePath, options.digestPath);
  const runId = randomUUID();
  const workspaceInput = resolve(options.workspace ?? process.cwd());
  let workspace: string;
  try {
    workspace = realpathSync(workspaceInput);
  } catch (err) {
    throw new GateError("CONFIG_INVALID", `the workspace ${workspaceInput} does not exist`, { cause: err });
  }
  const scratchInput = options.scratch !== undefined ? resolve(options.scratch) : join(realpathSync(tmpdir()), "envelope-gate", runId);
  mkdirSync(scratchInput, { recursive: true, mode: 0o700 });
  if (options.facts) Object.assign(options.facts, { scratch: scratchInput, scratchChosen: options.scratch === undefined });
  const scratch = realpathSync(scratchInput);
  const writableRoots = expandRoots(envelope, { workspace, scratch });

  const [commandName, ...commandArgs] = options.command;
  const commandPath = resolveExecutable(commandName as string, process.env.PATH);
  if (commandPath === null) {
    throw new GateError("COMMAND_NOT_FOUND", `the command "${commandName}" was not found on PATH`, {
      hint: "Give the command by absolute path, or fix PATH for envelope-gate run.",
    });
  }

  let straceBinary: string | null = null;
  if (!options.nodeOnly) {
    const configured = process.env[STRACE_ENV];
    straceBinary =
      configured !== undefined ? (resolveExecutable(configured, process.env.PATH) ?? null) : resolveExecutable("strace", process.env.PATH);
    if (straceBinary === null) {
      throw new GateError(
        "OBSERVER_UNAVAILABLE",
        `the process-level observer cannot start: strace not found${configured !== undefined ? ` at ${configured}` : " on PATH"}`,
        {
          hint: "Install strace (apt-get install -y strace). Node-only observation runs only when asked for with --node-only, and the log then says so.",
        },
      );
    }
  }
  const preloadSource = preloadBundlePath();
  if (!existsSync(preloadSource)) {
    throw new GateError("OBSERVER_UNAVAILABLE", `the Node hooks bundle ${preloadSource} is missing`, {
      hint: "Build it: node scripts/build.mjs",
    });
  }
  const runner = runnerIdentity();
  const arch = jailArch();
  if (arch === null) {
    throw new GateError("JAIL_UNAVAILABLE", `the run jail has no seccomp filter for this architecture (${process.arch})`, {
      hint: "envelope-gate run supports x86-64 and arm64 Linux.",
    });
  }
  const configuredBwrap = process.env[BWRAP_ENV];
  const bwrap = resolveExecutable(configuredBwrap ?? "bwrap", process.env.PATH);
  // The jail always has a network namespace of its own; under allowlist the egress proxy is its only way out.
  const ownNetwork = true;
  const audit = options.audit === true;
  // Under audit the proxy runs whatever `network` says, and lets every host out (recorded).
  const egressEnforced = envelope.envelope.network === "allowlist" || audit;
  const relayBundle = relayBundlePath();
  if (egressEnforced && !existsSync(relayBundle)) {
    throw new GateError("OBSERVER_UNAVAILABLE", `the egress relay bundle ${relayBundle} is missing`, {
      hint: "Build it: node scripts/build.mjs",
    });
  }
  probeJail(bwrap, ownNetwork);
  const bwrapBinary = bwrap as string;
  const launcher = ["/usr/bin/env", "/bin/env"].find((p) => existsSync(p)) ?? null;
  if (launcher === null)
    throw new GateError("JAIL_UNAVAILABLE", "env (coreutils) was not found at /usr/bin/env", { hint: "Install coreutils." });
  const setpriv = resolveExecutable("setpriv", process.env.PATH) ?? ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p)) ?? null;
  if (setpriv === null && straceBinary !== null) {
    throw new GateError("JAIL_UNAVAILABLE", "setpriv (util-linux) was not found: the tracer could outlive a killed wrapper", {
      hint: "Install util-linux (setpriv ships with it on Debian and Ubuntu).",
    });
  }
  const cwd = realpathSync(process.cwd());
  const logReal = join(realpathSync(dirname(logPath)), basename(logPath));
  const observers = options.nodeOnly ? ["node"] : ["node", "process"];
  const seccompFile = join(privateDir, "seccomp.bpf");
  writeFileSync(seccompFile, seccompProgram(arch), { mode: 0o600 });
  const nodeBinary = realpathSync(process.execPath);
  const runDir = freshRunDir(scratch, runId);
  const executables = [...new Set([process.execPath, nodeBinary, commandPath, realpathSync(commandPath)])];
  // Protected paths and persisted credentials (protected.ts), found before the jail is planned.
  const actionPath = process.env.GITHUB_ACTION_PATH;
  const guard = prepareProtected({
    envelope,
    roots: writableRoots,
    workspace,
    scratch,
    writableProtected: expandWritableProtected(envelope, { workspace, scratch }),
    git: findGit(process.env.PATH, resolveExecutable),
    actionDirs: [
      ...(actionPath !== undefined && actionPath.startsWith("/") ? [actionPath] : []),
      ...[productInstallDir(dirname(fileURLToPath(import.meta.url)))].filter((d): d is string => d !== null),
    ],
    privateDir,
  });
  const jailFor = (stageDir: string, seccompFd: number): Jail =>
    planJail(bwrapBinary, {
      writableRoots,
      wrapperDir: privateDir,
      runDir,
      runnerEnv: process.env,
      execPath: process.execPath,
      stageDir,
      logPath: logReal,
      cwd,
      ownNetwork,
      seccompFd,
      launcher,
      executables,
      protectedMounts: guard.mountArgs,
      commandHome: envMatcher(envelope.envelope)("HOME") ? process.env.HOME : undefined,
    });
  const preview = jailFor(join(privateDir, "preview"), 3);
  const jailMeta = {
    tool: `bubblewrap (${bwrapBinary})`,
    namespaces: ["user", "pid", "mount", "ipc", "uts", "net"],
    read_only: "everything outside the allowed roots",
    private: preview.privateMounts.map((m) => ({ path: m.jail, host: m.host })),
    hidden: preview.hidden,
    masked_files: preview.maskedFiles,
    visible_read_only: preview.visiblePrefixes,
    hidden_unix_sockets: preview.hiddenSockets.length,
    protected: guard.jailMeta,
    machine_identity: preview.machineIdentity,
    seccomp: straceBinary !== null ? "forbidden calls refused and recorded" : "forbidden calls refused (not recorded: no process observer)",
  };

  // The caller's keys the command does not get (names, never values): the log keeps them for
  // `suggest`, which proposes the ones a failed non-Node program may have needed.
  const envAllowed = envMatcher(envelope.envelope);
  const withheld = Object.keys(process.env)
    .filter((key) => !envAllowed(key))
    .sort();
  if (options.facts) options.facts.withheld = withheld;
  log.write({
    kind: "meta",
    run_id: runId,
    envelope_hash: envelope.hash,
    runner,
    started_at: new Date().toISOString(),
    observers,
    network_enforced: true,
    ...(audit ? { audit: true } : {}),
    network: audit
      ? `audit: the jail's own network namespace; egress only through envelope-gate's recording proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}), every host let out and recorded; host unix sockets covered`
      : egressEnforced
        ? `enforced: the jail's own network namespace; egress only through envelope-gate's proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}) to allowed_hosts; host unix sockets covered`
        : "enforced: the jail's own network namespace (loopback only; host unix sockets covered)",
    jail: jailMeta,
    protected: guard.plan.meta,
    log_path: logReal,
    workspace,
    scratch,
    command: options.command,
    withheld,
  });
  log.flush();

  // The run's environment is exactly what the envelope allows: the wrapper's keys it accepts, and
  // the run's own keys only when it accepts them too. NODE_OPTIONS is the hooks' plumbing.
  const baseEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The host's name never enters: an allowed HOSTNAME or HOST says what `hostname` says inside (machine-identity.ts).
    if (value !== undefined && envAllowed(key)) baseEnv[key] = HOSTNAME_KEYS.includes(key) ? JAIL_HOSTNAME : value;
  }
  for (const [key, value] of Object.entries({ RUN_ID: runId, ENVELOPE_HASH: envelope.hash, SCRATCH: scratch })) {
    if (envAllowed(key)) baseEnv[key] = value;
  }
  // The caller's HOME is missing: the command's is the run's own (planJail, homeReplacement).
  if (preview.homeReplacement !== null && baseEnv.HOME !== undefined) baseEnv.HOME = preview.homeReplacement;

  const stageEnv = (dir: string): Record<string, string> => ({ ...baseEnv, NODE_OPTIONS: mergeNodeOptions(dir, baseEnv.NODE_OPTIONS) });
  const prepareStage = (name: string): string => {
    const dir = join(privateDir, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    copyFileSync(preloadSource, join(dir, PRELOAD_FILE_NAME));
    // The relay runs inside the jail: from the stage, which the jail shows wherever the product
    // is installed (under HOME or /tmp it would be hidden) and which the command cannot write.
    if (egressEnforced) cpSync(dirname(relayBundle), join(dir, STAGED_RELAY_DIR), { recursive: true });
    // With strace live it records every write with the kernel's own path; the hooks need not.
    writeFileSync(join(dir, PRELOAD_CONFIG_NAME), JSON.stringify({ recordWrites: straceBinary === null }) + "\n");
    return dir;
  };
  const writablePlaces = [...writableRoots, ...preview.privateMounts.map((m) => m.jail)];
  const patterns = hostPatterns(envelope.envelope);
  const stageCommon = {
    cwd,
    strace: straceBinary,
    arch,
    jail: jailFor,
    seccompFile,
    nodeBinaries: new Set([nodeBinary]),
    // The jail's own: an abstract name in its own network namespace, a socket file in a root or
    // in a private directory (made by the run itself).
    unixIsLocal: (address: string): boolean => (address.startsWith("@") ? ownNetwork : isInsideAnyRoot(address, writablePlaces)),
    writable: (path: string): boolean => isInsideAnyRoot(path, writablePlaces) && !guard.readOnly(path),
    egress: egressEnforced
      ? {
          allowed: audit ? (): boolean => true : (host: string, port: number): boolean => hostAllowed(patterns, normalizeHost(host), port),
          audit,
        }
      : null,
    nodeBinary,
    setpriv: setpriv ?? "",
    launcher,
  };

  // Self-check: every live observer must report the canary before the command runs.
  const canaryDir = prepareStage("canary");
  const canaryPath = join(scratch, CANARY_FILE);
  const seen: LogEvent[] = [];
  const canaryMerger = new Merger({
    processObserverLive: straceBinary !== null,
    egressEndpoint: egressEnforced ? { host: "127.0.0.1", port: EGRESS_PORT } : null,
    recordPath: (p: string) => preview.view.recorded(p),
    canary: true,
    emit: (e) => {
      seen.push(e);
      log.write(e);
    },
  });
  const canaryResult = await runStage({
    dir: canaryDir,
    argv: [process.execPath, "-e", CANARY_PROGRAM, canaryPath],
    env: stageEnv(canaryDir),
    ...stageCommon,
    quiet: true,
    merger: canaryMerger,
  });
  rmSync(canaryPath, { force: true });
  if (interrupted !== null) throw interruptedError();
  const missing: string[] = [];
  const has = (pred: (e: LogEvent) => boolean): boolean => seen.some(pred);
  if (straceBinary === null && !has((e) => e.kind === "write" && e.source === "node" && e.path === canaryPath)) missing.push("node: write");
  if (!has((e) => e.kind === "env" && e.source === "node" && e.key === CANARY_ENV_KEY)) missing.push("node: env read");
  if (!has((e) => e.kind === "host" && e.source === "node" && e.host === CANARY_HOST)) missing.push("node: DNS lookup");
  if (straceBinary !== null) {
    if (!has((e) => e.kind === "write" && e.source === "process" && e.path === canaryPath)) missing.push("process: write");
    if (!has((e) => e.kind === "exec" && e.source === "process")) missing.push("process: exec");
    if (!has((e) => e.kind === "host" && e.source === "process" && e.port === 53)) missing.push("process: resolver connect");
  }
  if (missing.length > 0 || canaryResult.code !== 0) {
    throw new GateError(
      "OBSERVER_UNAVAILABLE",
      `the observer self-check failed (canary exit ${canaryResult.code ?? canaryResult.signal}; not seen: ${missing.join(", ") || "none"})`,
      {
        hint:
          straceBinary !== null
            ? "An observer is not reporting. strace may be unable to attach (ptrace restricted: kernel.yama.ptrace_scope, seccomp, container policy), or the Node hooks did not load."
            : "The Node hooks did not load or did not report.",
      },
    );
  }

  const mainDir = prepareStage("main");
  const merger = new Merger({
    processObserverLive: straceBinary !== null,
    egressEndpoint: egressEnforced ? { host: "127.0.0.1", port: EGRESS_PORT } : null,
    recordPath: (p: string) => preview.view.recorded(p),
    canary: false,
    emit: (e) => log.write(e),
  });
  if (straceBinary === null) {
    // Without strace nothing sees the command's own exec: the wrapper records what it starts
    // (no source: it is the wrapper's own statement, not an observer's).
    log.write({ kind: "exec", ts: Date.now(), path: commandPath, argv: [commandName as string, ...commandArgs] });
  }
  const result = await runStage({
    dir: mainDir,
    argv: [commandPath, ...commandArgs],
    env: stageEnv(mainDir),
    ...stageCommon,
    quiet: false,
    merger,
  });
  if (interrupted !== null) throw interruptedError();
  log.flush();
  const end: LogEvent = { kind: "end", events: log.lines, exit_code: result.code };
  if (result.signal !== null) end.signal = result.signal;
  log.write(end);
  log.flush();
  if (options.facts) Object.assign(options.facts, { events: log.lines - 2, exitCode: result.code });
  return exitCodeOf(result);
}

/**
 * The run's own directory in the scratch, the host side of its private HOME and /tmp: made here,
 * never reused (an earlier run with the same scratch cannot have prepared it, nor a link in its place).
 */
function freshRunDir(scratch: string, runId: string): string {
  const dir = join(scratch, `.envelope-gate-${runId}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    throw new GateError(
      "JAIL_UNAVAILABLE",
      `the run's private directory ${dir} cannot be made (${(err as { code?: string }).code ?? String(err)})`,
      {
        hint: "Give the run a scratch directory it can write.",
        cause: err,
      },
    );
  }
  if (realpathSync(dir) !== dir) {
    throw new GateError("JAIL_UNAVAILABLE", `the run's private directory ${dir} is not a plain directory of the scratch`);
  }
  return dir;
}

function interruptedError(): GateError {
  return new GateError(
    "OBSERVER_INTERRUPTED",
    `envelope-gate run was interrupted by ${interrupted}; the log has no end line and will be refused`,
    {
      hint: "Run it again to completion.",
    },
  );
}
