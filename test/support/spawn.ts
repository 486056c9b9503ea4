/**
 * The one way the suites run a bundle (or any command) as a real process to its end: stdout and
 * stderr collected as text, the exit code and signal, a deadline that kills it. The Action's,
 * the command line's, the observer's and the deployment's harnesses all go through here.
 * (`startListening` in ../app/process.ts waits for a long-lived server instead.)
 */
import { spawn, spawnSync, type StdioOptions } from "node:child_process";
import { REPO_ROOT } from "./fixtures.js";

export interface SpawnOptions {
  /** Default: the checkout (REPO_ROOT). */
  cwd?: string;
  /** Default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Default: stdin ignored, stdout and stderr piped. */
  stdio?: StdioOptions;
  /** Kill the process after this many ms (the result says timedOut); default: no deadline. */
  timeoutMs?: number;
  /** Default SIGKILL. */
  killSignal?: NodeJS.Signals;
  /** Called with the pid once the process is started. */
  onStart?: (pid: number) => void;
}

export interface Spawned {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Finished extends Spawned {
  /** Whether the deadline killed it. */
  timedOut: boolean;
}

/** Runs `argv` to its end. Rejects only when it cannot be started (spawn's "error"). */
export function spawnProcess(argv: readonly string[], options: SpawnOptions = {}): Promise<Finished> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? process.env,
      stdio: options.stdio ?? ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const killer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill(options.killSignal ?? "SIGKILL");
          }, options.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(killer);
      reject(err);
    });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolvePromise({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** `node <bundle> ...args` to its end, under this process's node. */
export function spawnBundle(bundle: string, args: readonly string[] = [], options: SpawnOptions = {}): Promise<Finished> {
  return spawnProcess([process.execPath, bundle, ...args], options);
}

/** The same, synchronously (spawnSync), for suites whose helpers return without awaiting. */
export function spawnBundleSync(
  bundle: string,
  args: readonly string[] = [],
  options: Omit<SpawnOptions, "onStart" | "stdio"> = {},
): Finished {
  const r = spawnSync(process.execPath, [bundle, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: options.killSignal ?? "SIGKILL" }),
  });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut };
}
