/**
 * Which process recorder runs: the eBPF recorder (docs/recorder-protocol.md) or strace. The
 * choice is made once per `run`, before meta, so the canary stage and the command stage use the
 * same recorder and meta.recorder says which one that was.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Refusal } from "../core/errors.js";
import type { JailArch } from "./seccomp.js";

export const RECORDERS = ["auto", "ebpf", "strace"] as const;
export type RecorderChoice = (typeof RECORDERS)[number];
type RecorderName = "ebpf" | "strace";

/** meta.recorder: which recorder ran and, when auto fell back to strace, why the eBPF one did not. */
export interface RecorderMeta {
  name: RecorderName;
  fallback?: string;
}

const RECORDER_ENV = "ENVELOPE_GATE_RECORDER";
const RECORDER_BINARY_ENV = "ENVELOPE_GATE_RECORDER_BINARY";

/** How long the recorder may take to load and attach its programs before it counts as unable to start. */
const RECORDER_START_MS = 30_000;

function parseRecorderChoice(value: string, source: string): RecorderChoice {
  if ((RECORDERS as readonly string[]).includes(value)) return value as RecorderChoice;
  throw new Refusal("CONFIG_INVALID", `${source} must be auto, ebpf or strace, got "${value}"`, {
    hint: "auto runs the eBPF recorder when it can start and strace otherwise; ebpf refuses when it cannot start.",
  });
}

/** The CLI flag wins over the environment; neither means auto. */
export function recorderChoice(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): RecorderChoice {
  if (flag !== undefined) return parseRecorderChoice(flag, "--recorder");
  const fromEnv = env[RECORDER_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return parseRecorderChoice(fromEnv, RECORDER_ENV);
  return "auto";
}

function recorderFileName(arch: JailArch): string {
  return `envelope-gate-recorder-${arch}`;
}

/**
 * The recorder binary: ENVELOPE_GATE_RECORDER_BINARY, else beside the running bundle
 * (dist/cli/index.js -> dist/recorder/), else, running from src (tests), the repository's dist/.
 */
export function recorderBinaryPath(arch: JailArch, env: NodeJS.ProcessEnv = process.env, here: string = moduleDir()): string {
  const configured = env[RECORDER_BINARY_ENV];
  if (configured !== undefined && configured !== "") return configured;
  const name = recorderFileName(arch);
  const candidates = [join(here, "..", "recorder", name), join(here, "..", "..", "dist", "recorder", name)];
  return candidates.find((c) => existsSync(c)) ?? (candidates[0] as string);
}

function moduleDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** How to start the eBPF recorder (its command line), or why it cannot be. */
type EbpfLaunch = { ok: true; launch: string[] } | { ok: false; why: string };

export interface RecorderDecision {
  meta: RecorderMeta;
  /** The run's eBPF recorder, started and attached; null for strace. */
  ebpf: EbpfRecorder | null;
}

/** The decision, pure: which recorder runs, or the typed refusal when ebpf was demanded and cannot start. */
export function decideRecorder(choice: RecorderChoice, started: { ok: true } | { ok: false; why: string } | null): RecorderMeta {
  if (choice === "strace") return { name: "strace" };
  if (started === null) throw new Error("decideRecorder: a start is needed unless strace is chosen");
  if (started.ok) return { name: "ebpf" };
  if (choice === "ebpf") {
    throw new Refusal("RECORDER_UNAVAILABLE", `the eBPF recorder was asked for (--recorder ebpf) and cannot start: ${started.why}`, {
      hint: "It needs root (or passwordless sudo), a kernel with BTF, and dist/recorder/ for this architecture. --recorder auto falls back to strace, and says so.",
    });
  }
  return { name: "strace", fallback: started.why };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** How to start the recorder with the privileges it needs, or why it cannot be. */
export function recorderLaunch(binary: string, sudo: string | null): EbpfLaunch {
  if (!executable(binary)) return { ok: false, why: `no recorder binary at ${binary}` };
  if (process.geteuid?.() === 0) return { ok: true, launch: [binary] };
  if (sudo === null) return { ok: false, why: "not root, and sudo was not found" };
  const r = spawnSync(sudo, ["-n", "true"], { stdio: "ignore", timeout: 10_000 });
  if (r.status !== 0) return { ok: false, why: "not root, and `sudo -n true` fails (no passwordless sudo)" };
  return { ok: true, launch: [sudo, "-n", binary] };
}

/** How long the recorder may take to drain once asked (`sync`, or its input closed). */
const RECORDER_DRAIN_MS = 30_000;

function within<T>(ms: number, work: Promise<T>, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<T>((r) => (timer = setTimeout(() => r(late), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * The run's eBPF recorder (docs/recorder-protocol.md): one process for the whole run, loaded
 * once, following each stage's gate in turn. Control lines start with `@`; every other line is
 * an event of the stage being followed.
 */
export class EbpfRecorder {
  readonly child: ChildProcess;
  private pending = "";
  private ended = false;
  private readonly control: string[] = [];
  private controlWaiter: (() => void) | null = null;
  private onEvent: ((line: string) => void) | null = null;
  /** Losses the recorder reported (cumulative over the run). */
  lost = 0;
  private endSeen = false;
  private closing = false;
  /** Called once when the recorder's output ends while the run still needs it. */
  onLost: (() => void) | null = null;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(launch: string[]) {
    this.child = spawn(launch[0] as string, launch.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.exited = new Promise((resolveExit) => {
      this.child.on("error", () => resolveExit({ code: null, signal: null }));
      this.child.once("exit", (code, signal) => resolveExit({ code, signal }));
    });
    this.child.stdin?.on("error", () => {});
    const stdout = this.child.stdout;
    if (stdout === null) throw new Error("recorder spawned without stdout");
    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => this.data(chunk));
    stdout.on("end", () => this.end());
    stdout.on("error", () => this.end());
    this.child.on("error", () => this.end());
  }

  /** Event lines go out in runs (one call per run of them, newlines kept), control lines one by one, in order. */
  private data(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    let run = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl === -1) break;
      if (text.charCodeAt(start) === 0x40) {
        if (run < start) this.onEvent?.(text.slice(run, start));
        this.line(text.slice(start, nl));
        run = nl + 1;
      }
      start = nl + 1;
    }
    if (run < start) this.onEvent?.(text.slice(run, start));
    this.pending = text.slice(start);
  }

  private line(line: string): void {
    if (!line.startsWith("@")) {
      this.onEvent?.(line + "\n");
      return;
    }
    const lost = /^@lost (\d+)$/.exec(line);
    if (lost) this.lost = Math.max(this.lost, Number(lost[1]));
    if (line === "@end") this.endSeen = true;
    this.control.push(line);
    const w = this.controlWaiter;
    this.controlWaiter = null;
    w?.();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.pending !== "") {
      const last = this.pending;
      this.pending = "";
      this.line(last);
    }
    const w = this.controlWaiter;
    this.controlWaiter = null;
    w?.();
    if (!this.closing) this.onLost?.();
  }

  /** The next control line matching `want` (others before it are skipped); null when the output ended first. */
  private async awaitControl(want: (line: string) => boolean): Promise<string | null> {
    for (;;) {
      while (this.control.length > 0) {
        const line = this.control.shift() as string;
        if (want(line)) return line;
      }
      if (this.ended) return null;
      await new Promise<void>((r) => (this.controlWaiter = r));
    }
  }

  /** `@ready` (true), or why the recorder cannot record: `@error …`, an early exit, or no answer in time. */
  async ready(timeoutMs: number = RECORDER_START_MS): Promise<true | string> {
    const answer = this.awaitControl((l) => l === "@ready" || l.startsWith("@error "));
    const line = await within(timeoutMs, answer, undefined);
    if (line === undefined) return `the recorder did not answer within ${timeoutMs / 1000} s`;
    if (line === null) {
      const { code, signal } = await this.exited;
      return `the recorder exited (${signal ?? `status ${String(code)}`}) before @ready`;
    }
    if (line === "@ready") return true;
    const error = /^@error (privilege|kernel|other)(?: (.*))?$/.exec(line);
    return error ? `the recorder printed @error ${error[1] as string}${error[2] !== undefined ? ` ${error[2]}` : ""}` : line;
  }

  /** Follows one stage's gate: its events go to `onEvent` (whole lines, newlines kept) from now on. The reason when it did not. */
  async follow(pid: number, onEvent: (line: string) => void): Promise<string | null> {
    this.onEvent = onEvent;
    this.child.stdin?.write(`follow ${String(pid)}\n`);
    const line = await within(
      RECORDER_START_MS,
      this.awaitControl((l) => l === `@following ${String(pid)}`),
      undefined,
    );
    if (line === undefined) return `the recorder did not follow process ${String(pid)} within ${RECORDER_START_MS / 1000} s`;
    if (line === null) return "the recorder ended before it followed the jail";
    return null;
  }

  /** After a stage's jail exited: everything the kernel holds is read; false when the recorder did not answer. */
  async sync(): Promise<boolean> {
    this.child.stdin?.write("sync\n");
    const line = await within(
      RECORDER_DRAIN_MS,
      this.awaitControl((l) => l === "@synced"),
      undefined,
    );
    this.onEvent = null;
    return line === "@synced";
  }

  get alive(): boolean {
    return !this.ended;
  }

  /** Ends the recorder: its input closed, it prints `@lost`, `@end` and exits; killed if it does not. */
  async close(): Promise<boolean> {
    this.closing = true;
    this.onEvent = null;
    this.child.stdin?.end();
    const stopped = await within(
      RECORDER_DRAIN_MS,
      this.exited.then(() => true),
      false,
    );
    if (!stopped) this.child.kill("SIGKILL");
    await within(
      5_000,
      this.awaitControl((l) => l === "@end"),
      null,
    );
    return this.endSeen;
  }
}

/**
 * Starts the run's eBPF recorder (or finds why it cannot start). Call early: loading its
 * programs takes the kernel a while, and the rest of the run's setup can go on meanwhile.
 */
export function startRecorder(
  arch: JailArch,
  sudo: string | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ok: true; ebpf: EbpfRecorder } | { ok: false; why: string }> {
  const launch = recorderLaunch(recorderBinaryPath(arch, env), sudo);
  if (!launch.ok) return Promise.resolve(launch);
  let ebpf: EbpfRecorder;
  try {
    ebpf = new EbpfRecorder(launch.launch);
  } catch (err) {
    return Promise.resolve({ ok: false, why: `the recorder cannot be started (${(err as Error).message})` });
  }
  return ebpf.ready().then(async (ready) => {
    if (ready === true) return { ok: true as const, ebpf };
    await ebpf.close();
    return { ok: false as const, why: ready };
  });
}

/** The decision for one run, from a start begun earlier (null when strace was asked for). */
export async function resolveRecorder(
  choice: RecorderChoice,
  started: Promise<{ ok: true; ebpf: EbpfRecorder } | { ok: false; why: string }> | null,
): Promise<RecorderDecision> {
  if (choice === "strace" || started === null) return { meta: decideRecorder("strace", null), ebpf: null };
  const result = await started;
  try {
    const meta = decideRecorder(choice, result.ok ? { ok: true } : result);
    return { meta, ebpf: result.ok ? result.ebpf : null };
  } catch (err) {
    if (result.ok) await result.ebpf.close();
    throw err;
  }
}
