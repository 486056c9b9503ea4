/**
 * One stage of a run (the canary, then the command): its FIFOs, the recorder and its parser, the
 * egress proxy, the spawn of recorder + jail + command, and the checks that every record was read.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Refusal } from "../core/errors.js";
import { proxyEnv, startEgressProxy, type EgressProxy } from "./egress.js";
import { FifoReader, makeFifo } from "./fifo.js";
import { isDirectory, type Jail } from "./jail.js";
import { ChannelMessageError, type Merger } from "./merge.js";
import type { ProcessEvent } from "./process-event.js";
import { EVENTS_FIFO_NAME, FrameDecoder, FrameError, STRACE_FIFO_NAME } from "./protocol.js";
import type { EbpfRecorder } from "./recorder.js";
import type { JailArch } from "./seccomp.js";
import type { JailNetwork } from "./jail-network.js";
import type { RunControl } from "./signals.js";
import { StraceParser, straceArgs, type RootExit } from "./strace.js";
import { channelTampering } from "./tamper-check.js";

/** The relay's copy in each stage directory: the product's own files are never run from where it is installed. */
export const STAGED_RELAY_DIR = "relay";

/** Where the relay listens inside the jail's own network namespace (the proxy variables point here). */
export const EGRESS_PORT = 3128;

export interface StageResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Stage {
  dir: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** The process recorder: strace (its binary), the run's eBPF recorder, or none (--node-only). */
  recorder: { name: "strace"; binary: string } | { name: "ebpf"; ebpf: EbpfRecorder } | null;
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
  /** The run's network namespace (jail-network.ts): its resolver's and forwards' records go to this stage's merger. */
  network: JailNetwork | null;
  /** util-linux setpriv, which starts strace with a parent-death signal. */
  setpriv: string;
  /** The jail's launcher (jail.ts). */
  launcher: string;
  /** Inside a place the command can write (a root, or a private directory). */
  writable: (path: string) => boolean;
  /** Whether a hard link's new name here can only have linked a file nothing judges (StraceParser's linkSourceFree). */
  linkSourceFree?: (path: string) => boolean;
  quiet: boolean;
  merger: Merger;
  /**
   * Told once the command is under way: when the recorder sees bubblewrap execute it, or, without a
   * process recorder (--node-only), when bubblewrap is started.
   */
  onCommandStarted?: (() => void) | undefined;
}

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

export async function runStage(stage: Stage, control: RunControl): Promise<StageResult> {
  mkdirSync(stage.dir, { recursive: true, mode: 0o700 });
  const eventsFifo = join(stage.dir, EVENTS_FIFO_NAME);
  // Outside the stage directory: the jail never sees strace's output.
  const straceFifo = join(dirname(stage.dir), `${basename(stage.dir)}.${STRACE_FIFO_NAME}`);
  makeFifo(eventsFifo);
  if (stage.recorder?.name === "strace") makeFifo(straceFifo);

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
            new Refusal("OBSERVER_CHANNEL_INVALID", `the hooks' channel carried an invalid record (${err.message})`, {
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
    // The program the process runs: a script's interpreter, else the file named.
    if (e.kind === "exec") exeOf.set(e.tgid, e.interpreter ?? e.path);
    if (e.kind === "channel") {
      const tampered = channelTampering(e, exeOf.get(e.tgid) ?? "an unknown program", stage.nodeBinaries);
      if (tampered !== null) fail(tampered);
      return;
    }
    if (e.kind === "unix" && stage.unixIsLocal(e.address)) return;
    stage.merger.fromProcess(e);
  };
  const stagedRelay = stage.egress !== null ? join(stage.dir, STAGED_RELAY_DIR, "index.js") : undefined;
  let strace: FifoReader | null = null;
  let parser: StraceParser | null = null;
  let ebpf: EbpfRecorder | null = null;
  let push: ((text: string) => void) | null = null;
  if (stage.recorder !== null) {
    parser = new StraceParser({
      recorder: stage.recorder.name,
      cwd: stage.cwd,
      plumbing: new Set([eventsFifo, straceFifo]),
      emit: onProcess,
      jailed: {
        view: jail.view,
        masked: jail.masked,
        launcher: stage.launcher,
        writable: stage.writable,
        linkSourceFree: stage.linkSourceFree,
        relay: stagedRelay,
      },
      onRootExit: (exit) => {
        traced.rootExit = exit;
      },
      onCommandStarted: stage.onCommandStarted,
    });
    const p = parser;
    stage.merger.pidOfHook = (hookPid) => p.outerPid(hookPid);
    // A hook's record is written before its system call runs: read those first.
    push = (text: string): void => {
      if (failure !== null) return;
      events.drainNow();
      p.push(text);
    };
    if (stage.recorder.name === "strace") strace = new FifoReader(straceFifo, push, fail);
    else {
      ebpf = stage.recorder.ebpf;
      if (!ebpf.alive) {
        closeSync(seccompFd);
        await events.finish().catch(() => {});
        throw new Refusal("OBSERVER_TRACER_LOST", "the eBPF recorder ended before this stage of the run started", {
          hint: "Nothing would be observed, so the run is refused. Run it again.",
        });
      }
      ebpf.onLost = () =>
        fail(
          new Refusal("OBSERVER_TRACER_LOST", "the eBPF recorder ended while the jail still ran: nothing after that point was observed", {
            hint: "The run is refused. Run it again.",
          }),
        );
    }
  }

  // strace dies with the wrapper (setpriv --pdeathsig), and the jail with strace (bwrap --die-with-parent).
  // Under the eBPF recorder the gate holds the jail until the recorder follows it (docs/recorder-protocol.md);
  // the recorder ends when its input closes, as it does when the wrapper dies.
  const tracer =
    stage.recorder === null
      ? []
      : stage.recorder.name === "strace"
        ? [stage.setpriv, "--pdeathsig", "KILL", "--", stage.recorder.binary, ...straceArgs(straceFifo, stage.arch), "--"]
        : [stage.setpriv, "--pdeathsig", "KILL", "--", "/bin/sh", "-c", GATE_SCRIPT, "sh"];
  if (stage.network !== null) {
    stage.network.record = (r) => stage.merger.fromNetwork(r);
    const lostNetwork = (why: string): void =>
      fail(
        new Refusal(
          "JAIL_UNAVAILABLE",
          `${why} while the jail ran: lookups and service connections after that point were neither answered nor recorded`,
          {
            hint: "The run is refused. Run it again.",
          },
        ),
      );
    if (stage.network.lost !== null) {
      closeSync(seccompFd);
      await events.finish().catch(() => {});
      throw new Refusal("JAIL_UNAVAILABLE", `${stage.network.lost} before this stage of the run started`, {
        hint: "The run is refused. Run it again.",
      });
    }
    stage.network.onLost = lostNetwork;
  }
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
      throw new Refusal("JAIL_UNAVAILABLE", `the egress proxy for allowlist cannot start on ${socketPath} (${(err as Error).message})`, {
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
  const argv = [...jail.prefix, ...tracer, ...jail.argv, ...relay, ...stage.argv];
  const stdio: ("inherit" | "ignore" | "pipe" | number)[] = stage.quiet
    ? ["ignore", "ignore", "inherit"]
    : ["inherit", "inherit", "inherit"];
  stdio.push(seccompFd);
  // The gate's release (fd 4), closed by the gate before it executes bubblewrap.
  if (ebpf !== null) stdio.push("pipe");
  const own = stdio.length;
  // A descriptor the wrapper inherited without close-on-exec would pass through strace and bwrap
  // into the jail (an open directory outside the roots is a way around the read-only mounts):
  // each one is replaced by /dev/null in the child.
  const devNull = openSync("/dev/null", "r");
  for (const fd of inheritedDescriptors()) {
    if (fd < own) continue;
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
  control.running(started);
  if (parser === null && started.pid !== undefined) stage.onCommandStarted?.();
  const exited = new Promise<StageResult>((resolveExit, reject) => {
    started.once("error", (err) => reject(err));
    started.once("exit", (code, signal) => resolveExit({ code, signal }));
  }).catch((err: Error) => {
    fail(new Refusal("OBSERVER_UNAVAILABLE", `cannot start ${argv[0]}: ${err.message}`, { cause: err }));
    return { code: null, signal: null } as StageResult;
  });
  if (ebpf !== null && started.pid !== undefined) {
    parser?.rootIs(started.pid);
    const pushLine = push as (text: string) => void;
    const why = await ebpf.follow(started.pid, pushLine);
    if (why !== null) fail(recorderUnavailable(`it did not start on the jail: ${why}`));
    else {
      const release = started.stdio[4] as NodeJS.WritableStream | null | undefined;
      release?.on("error", () => {});
      release?.end("\n");
    }
  }
  const result = await exited;
  control.running(null);
  // The jail is gone: a forward still open is ended and recorded in this stage, before its end.
  stage.network?.settle();
  if (stage.network !== null) {
    stage.network.record = () => undefined;
    stage.network.onLost = null;
  }
  await proxy?.close();
  if (strace !== null) await strace.finish();
  if (ebpf !== null) {
    const synced = await ebpf.sync();
    ebpf.onLost = null;
    if (!synced) {
      fail(
        new Refusal("OBSERVER_TRACER_LOST", "the eBPF recorder did not answer once the jail ended: the end of the record was never seen", {
          hint: "The run is refused. Run it again.",
        }),
      );
    } else if (ebpf.lost > 0) {
      fail(
        new Refusal(
          "OBSERVER_EVENTS_LOST",
          `the eBPF recorder lost ${ebpf.lost} record${ebpf.lost === 1 ? "" : "s"} the kernel could not deliver (@lost ${ebpf.lost}): what they held was never seen`,
          { hint: "The run is refused. Run it again; on a busy machine, --recorder strace records without loss (and slower)." },
        ),
      );
    }
  }
  await events.finish();
  parser?.finish();
  control.throwIfInterrupted();
  if (!frames.idle && failure === null) {
    fail(new Refusal("OBSERVER_CHANNEL_INVALID", "the hooks' channel ended in the middle of a record"));
  }
  if (stage.recorder !== null && failure === null && traced.rootExit === null) {
    fail(
      new Refusal(
        "OBSERVER_TRACER_LOST",
        `the process observer (${stage.recorder.name}) ended (${result.signal ?? `exit ${String(result.code)}`}) without reporting the end of the jail: the tracer died or was detached`,
        {
          hint: "Nothing after that point was observed, so the run is refused. Run it again.",
        },
      ),
    );
  }
  if (parser !== null && failure === null && !parser.commandStarted) {
    const vanished = jail.socketDirsHidden.filter((dir) => !isDirectory(dir));
    fail(new JailNotStarted(traced.rootExit ?? { code: result.code, signal: result.signal }, vanished));
  }
  if (failure !== null) throw failure;
  const exit = traced.rootExit;
  return exit !== null ? { code: exit.code, signal: exit.signal as NodeJS.Signals | null } : result;
}

/**
 * Bubblewrap ended before it executed the command: the jail could not be set up (its own message
 * went to the run's stderr). Nothing of the command ran. `vanished`: hidden places (socket-places.ts)
 * removed since the jail was planned, which bubblewrap could not make again to mount over.
 */
export class JailNotStarted extends Refusal {
  readonly vanished: readonly string[];
  constructor(exit: RootExit | StageResult, vanished: readonly string[]) {
    const how = exit.signal !== null ? `killed by ${exit.signal}` : `exit ${String(exit.code)}`;
    const why = vanished.length > 0 ? `: ${vanished[0] as string} was removed while the jail was set up` : "";
    super(
      "JAIL_UNAVAILABLE",
      `bubblewrap ended (${how}) before it started the command, so nothing ran${why} (bubblewrap's message is above)`,
      {
        hint: "The run is refused: nothing was observed. Run it again; when it repeats, bubblewrap's message names the mount that failed.",
      },
    );
    this.vanished = vanished;
  }
}

/**
 * The jail's gate under the eBPF recorder: blocks until the wrapper writes a line to fd 4 (the
 * recorder follows the gate's pid by then), closes it, and becomes bubblewrap (the same pid).
 */
const GATE_SCRIPT = 'read -r _ <&4; exec 4<&-; exec "$@"';

function recorderUnavailable(why: string, cause?: unknown): Refusal {
  return new Refusal("RECORDER_UNAVAILABLE", `the eBPF recorder cannot record this run: ${why}`, {
    hint: "It needs root (or passwordless sudo) and a kernel with BTF; --recorder strace (or auto) records with strace instead.",
    ...(cause !== undefined ? { cause } : {}),
  });
}
