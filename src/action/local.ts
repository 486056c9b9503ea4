/**
 * The Action's local I/O: running the patch under the observer, reading what it produced,
 * running property commands, writing the evidence bundle. Decisions stay in src/core.
 */
import { VERSION } from "../core/version.js";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, open, readFile, readdir, realpath, rm, writeFile, type FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { arch, cpus, platform, tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Refusal, errnoOf, logOpenError } from "../core/errors.js";
import {
  AUDIT_EVIDENCE_FILES,
  EVIDENCE_FILES,
  MANIFEST_DIGEST_FILE,
  MANIFEST_FILE,
  buildManifest,
  type RunnerIdentity,
} from "../core/evidence.js";
import type { CommandOutcome } from "../core/properties.js";
import { FOOTPRINT_FILE } from "../core/footprint.js";
import { SARIF_FILE } from "../core/sarif.js";
import { isInsideAnyRoot } from "../core/paths.js";
import { commitRunEnvironment, runEnvironment, type RunPullRequest, type RunRole } from "../core/env-sets.js";
import { outputUnwritable } from "../check/output.js";
import { RESULT_FILE_ENV } from "../check/result.js";
import { takeCliResult, type ObservedRun } from "./cli-result.js";
import { prerequisitesReady } from "./prerequisites.js";
import type { RecorderChoice } from "../observer/recorder.js";

const MAX_STDOUT = 16 * 1024 * 1024;

const BUNDLE_NAMES = new Set<string>([
  ...Object.values(EVIDENCE_FILES),
  ...Object.values(AUDIT_EVIDENCE_FILES),
  MANIFEST_FILE,
  MANIFEST_DIGEST_FILE,
  FOOTPRINT_FILE,
  SARIF_FILE,
]);

/** Creates the evidence directory, removing an earlier bundle; refuses a directory holding anything else. */
export async function prepareEvidenceDir(dir: string): Promise<void> {
  let entries: string[] = [];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (errnoOf(err) !== "ENOENT") {
      throw new Refusal("EVIDENCE_UNAVAILABLE", `evidence-dir ${dir} cannot be read (${errnoOf(err) ?? String(err)})`);
    }
  }
  const foreign = entries.filter((e) => !BUNDLE_NAMES.has(e));
  if (foreign.length > 0) {
    throw new Refusal(
      "CONFIG_INVALID",
      `evidence-dir ${dir} holds files that are not an evidence bundle (${foreign.slice(0, 3).join(", ")})`,
      {
        hint: "Point evidence-dir at a fresh directory (the default is under RUNNER_TEMP).",
      },
    );
  }
  for (const e of entries) await rm(join(dir, e), { force: true });
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new Refusal("EVIDENCE_UNAVAILABLE", `evidence-dir ${dir} cannot be created (${errnoOf(err) ?? String(err)})`);
  }
}

/** The bundled CLI beside this bundle (dist/index.js -> dist/cli/index.js). */
function bundledCli(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "cli", "index.js");
}

/** What of dist/ the observer CLI needs beside it: itself, the Node hooks, the egress relay, the jail's network holder, the eBPF recorder. */
const CLI_PARTS = ["cli", "preload", "relay", "netns", "recorder", "package.json"] as const;

let privateCliCopy: Promise<string> | null = null;

/**
 * The observer CLI the Action runs: a private copy of dist/cli, dist/preload and dist/relay,
 * made once, before the first jailed run, in a new 0700 directory under RUNNER_TEMP (outside
 * the workspace). A run may rewrite the Action's own files where it can write them (a workflow
 * that checks the Action out inside the workspace, `uses: ./`); what the Action starts later
 * (the property commands' wrapper) is never read from there again.
 */
async function privateCli(runnerTemp: string): Promise<string> {
  privateCliCopy ??= (async () => {
    const source = dirname(bundledCli());
    const dist = dirname(source);
    let dir: string;
    try {
      dir = await realpath(await mkdtemp(join(runnerTemp !== "" ? runnerTemp : tmpdir(), "envelope-gate-cli-")));
      await chmod(dir, 0o700);
      for (const part of CLI_PARTS) {
        if (existsSync(join(dist, part))) await cp(join(dist, part), join(dir, part), { recursive: true });
      }
    } catch (err) {
      throw new Refusal(
        "ACTION_COPY_UNAVAILABLE",
        `the observer CLI cannot be copied to a private directory under ${runnerTemp} (${(err as Error).message})`,
        { hint: "RUNNER_TEMP must be a writable directory: the Action never runs its observer from where it is installed.", cause: err },
      );
    }
    return join(dir, "cli", "index.js");
  })();
  return privateCliCopy;
}

/** The Action's own directory (dist/index.js -> the directory holding dist/ and action.yml). */
function actionPath(): string {
  return dirname(dirname(fileURLToPath(import.meta.url)));
}

/** A new scratch directory for one property command's run, under RUNNER_TEMP (never the patch's). */
export async function propertyScratch(runnerTemp: string): Promise<string> {
  try {
    await mkdir(runnerTemp, { recursive: true });
    return await realpath(await mkdtemp(join(runnerTemp, "envelope-gate-property-scratch-")));
  } catch (err) {
    throw new Refusal(
      "PROPERTY_SCRATCH_UNAVAILABLE",
      `a scratch directory for a property command cannot be made in ${runnerTemp} (${(err as Error).message})`,
      {
        cause: err,
      },
    );
  }
}

interface ObserverRunOptions {
  envelopeBytes: Uint8Array;
  digestLine: string;
  logPath: string;
  workspace: string;
  scratch: string;
  command: string[];
  runnerTemp: string;
  /** The run's allowed roots, expanded: the private copy of the CLI must lie outside every one. */
  roots: string[];
  /**
   * The pull request the run checks, as the API names it, and which run this is: the run-identity
   * keys are made of them. No pull request (an audit on a branch commit): commitRunEnvironment.
   */
  identity: { role: RunRole; pull: RunPullRequest | null };
  /** `envelope-gate run --audit`: every host let out through the recording proxy (src/action/audit.ts). */
  audit?: boolean;
  /** `--recorder` (the Action's input recorder); absent: the wrapper's default (auto). */
  recorder?: RecorderChoice;
  /** The input setup-prerequisites (src/action/prerequisites.ts); absent: true. */
  setupPrerequisites?: boolean;
}

/**
 * Runs the command under `envelope-gate run`, writing the log to `logPath`. The log is judged
 * afterwards by the caller; this only reports how the wrapper ended.
 */
export async function runUnderObserver(options: ObserverRunOptions): Promise<ObservedRun> {
  const { exitCode, result } = await spawnObserved(options, { captureStdout: false, timeoutSeconds: null });
  return { exitCode, result };
}

/**
 * Runs a property command the way the patch itself ran: under `envelope-gate run`, jailed, with
 * only the envelope's keys in its environment (never the Action's token or inputs), its own log
 * at `logPath` for the caller to judge. Stdout is captured for scoring; a deadline stops it.
 */
export async function runPropertyUnderObserver(
  options: ObserverRunOptions & { timeoutSeconds: number },
): Promise<ObservedRun & { outcome: CommandOutcome }> {
  const r = await spawnObserved(options, { captureStdout: true, timeoutSeconds: options.timeoutSeconds });
  const outcome: CommandOutcome = r.timedOut
    ? { exitCode: null, stdout: r.stdout, failure: `stopped at its deadline (timeout ${options.timeoutSeconds}s)` }
    : { exitCode: r.exitCode, stdout: r.stdout };
  return { exitCode: r.exitCode, result: r.result, outcome };
}

/** How long a wrapper stopped at its deadline may keep its pipes open after it exited. */
const DRAIN_MS = 2000;

async function spawnObserved(
  options: ObserverRunOptions,
  how: { captureStdout: boolean; timeoutSeconds: number | null },
): Promise<ObservedRun & { stdout: string; timedOut: boolean }> {
  const cli = bundledCli();
  if (!existsSync(cli)) {
    throw new Refusal("OBSERVER_UNAVAILABLE", `the observer CLI ${cli} is missing from this build of the Action`, {
      hint: "Use a released tag of the Action; its dist/ carries the observer.",
    });
  }
  await prerequisitesReady({ recorder: options.recorder ?? "auto", setupAllowed: options.setupPrerequisites ?? true });
  const cliCopy = await privateCli(options.runnerTemp);
  const realRoots = await Promise.all(options.roots.map((r) => realpath(r).catch(() => r)));
  if (
    isInsideAnyRoot(dirname(dirname(cliCopy)), [
      ...options.roots,
      ...realRoots,
      options.workspace,
      await realpath(options.workspace).catch(() => options.workspace),
    ])
  ) {
    throw new Refusal(
      "ACTION_COPY_WRITABLE",
      `the Action's private copy of its observer (${dirname(dirname(cliCopy))}) lies inside the workspace or an allowed root: the run could rewrite what runs after it`,
      {
        hint: "Keep RUNNER_TEMP out of the envelope's allowed_roots (the copy is made under RUNNER_TEMP).",
      },
    );
  }
  // The wrapper's result file: in the private copy's own directory (outside every root, checked
  // above), under a name no earlier run used.
  const resultsDir = join(dirname(dirname(cliCopy)), "results");
  const resultFile = join(resultsDir, `run-${randomBytes(8).toString("hex")}.json`);
  const policyDir = join(options.runnerTemp, "envelope-gate-policy");
  const envelopePath = join(policyDir, "envelope.json");
  // The run's own files: the envelope and its digest for the wrapper, the scratch and log directories.
  try {
    await mkdir(resultsDir, { recursive: true, mode: 0o700 });
    await mkdir(policyDir, { recursive: true });
    await writeFile(envelopePath, options.envelopeBytes);
    await writeFile(`${envelopePath}.sha256`, options.digestLine);
    await mkdir(options.scratch, { recursive: true });
    await mkdir(dirname(options.logPath), { recursive: true });
  } catch (err) {
    throw outputUnwritable((err as { path?: string }).path ?? policyDir, "the run's envelope and directories", err);
  }
  const args = [
    cliCopy,
    "run",
    "--envelope",
    envelopePath,
    "--sha256",
    `${envelopePath}.sha256`,
    "--observer",
    options.logPath,
    "--workspace",
    options.workspace,
    "--scratch",
    options.scratch,
    ...(options.audit === true ? ["--audit"] : []),
    ...(options.recorder !== undefined ? ["--recorder", options.recorder] : []),
    "--",
    ...options.command,
  ];
  // The command's output reaches the runner's log: GitHub must not read workflow commands in it
  // (a forged annotation, ::add-mask::, ::stop-commands:: of its own). Stopped with a token the
  // command cannot know, resumed when it is done.
  const resume = randomBytes(16).toString("hex");
  process.stdout.write(`::stop-commands::${resume}\n`);
  const resumeCommands = (): void => {
    process.stdout.write(`\n::${resume}::\n`);
  };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.workspace,
      // The wrapper reads the runner's layout from these to hide it (src/observer/runner-layout.ts);
      // JavaScript actions get no GITHUB_ACTION_PATH from the runner.
      // The run-identity keys take one value on runner A and runner B (core/env-sets.ts runEnvironment).
      env: {
        ...(options.identity.pull === null
          ? commitRunEnvironment(process.env)
          : runEnvironment(process.env, options.identity.role, options.identity.pull)),
        RUNNER_TEMP: options.runnerTemp,
        GITHUB_ACTION_PATH: actionPath(),
        // How the wrapper says how the run ended (src/check/result.ts); it takes the key out of its environment.
        [RESULT_FILE_ENV]: resultFile,
      },
      stdio: ["ignore", how.captureStdout ? "pipe" : "inherit", "pipe"],
    });
    let stdout = "";
    let timedOut = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      if (stdout.length < MAX_STDOUT) stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
    });
    // The wrapper ends the jail when it is stopped; SIGKILL follows if it does not.
    let killer: NodeJS.Timeout | undefined;
    const deadline =
      how.timeoutSeconds === null
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGTERM");
            killer = setTimeout(() => child.kill("SIGKILL"), 5000);
          }, how.timeoutSeconds * 1000);
    let ended = false;
    child.on("error", (err) => {
      if (ended) return;
      ended = true;
      clearTimeout(deadline);
      clearTimeout(killer);
      resumeCommands();
      reject(new Refusal("OBSERVER_UNAVAILABLE", `cannot start the observer: ${err.message}`, { cause: err }));
    });
    let drain: NodeJS.Timeout | undefined;
    const end = (code: number | null): void => {
      if (ended) return;
      ended = true;
      clearTimeout(deadline);
      clearTimeout(killer);
      clearTimeout(drain);
      resumeCommands();
      takeCliResult(resultFile, code).then((result) => resolvePromise({ exitCode: code, result, stdout, timedOut }), reject);
    };
    // Stopped at its deadline, the wrapper's exit is the end: a process it left behind holding its
    // pipes gets DRAIN_MS, never the job's whole timeout (the run is refused either way).
    child.on("exit", (code) => {
      if (!timedOut) return;
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        end(code);
      }, DRAIN_MS);
    });
    child.on("close", (code) => end(code));
  });
}

/** Copies the given log into the evidence directory: a source that cannot be read and a copy that cannot be written are different failures. */
export async function copyLog(from: string, to: string): Promise<void> {
  const unreadable = (err: unknown): Refusal =>
    new Refusal("OBSERVER_LOG_UNREADABLE", `observer log ${from} cannot be read (${errnoOf(err) ?? String(err)})`, {
      file: from,
      cause: err,
    });
  let source: FileHandle;
  try {
    source = await open(from, "r");
  } catch (err) {
    throw logOpenError(err, from, "Record it with `envelope-gate run` in an earlier step, or use the run input.");
  }
  let failedSide: "read" | "write" | null = null;
  const reader = source.createReadStream();
  const writer = createWriteStream(to);
  reader.once("error", () => (failedSide ??= "read"));
  writer.once("error", () => (failedSide ??= "write"));
  try {
    await pipeline(reader, writer);
  } catch (err) {
    throw failedSide === "write" ? evidenceUnwritable(to, err) : unreadable(err);
  }
}

/** A file of the evidence bundle that cannot be written (a full disk, a quota, permissions). */
function evidenceUnwritable(file: string, err: unknown): Refusal {
  const reason = errnoOf(err) ?? String(err);
  return new Refusal("EVIDENCE_UNAVAILABLE", `the evidence file ${file} cannot be written (${reason})`, {
    file,
    hint:
      reason === "ENOSPC" || reason === "EDQUOT"
        ? "The filesystem holding evidence-dir is full: free space on the runner, or point evidence-dir elsewhere."
        : "Check that evidence-dir can be written, or point it elsewhere.",
    cause: err,
  });
}

/** A file the run produced, inside the workspace; null when absent. Refuses paths escaping the workspace. */
export async function readWorkspaceFile(workspace: string, path: string): Promise<Uint8Array | null> {
  const full = resolve(workspace, path);
  let real: string;
  try {
    real = await realpath(full);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return null;
    throw new Refusal("PROPERTY_UNAVAILABLE", `${path} cannot be read (${errnoOf(err) ?? String(err)})`);
  }
  const root = await realpath(workspace);
  const rel = relative(root, real);
  if (rel.startsWith(`..${sep}`) || rel === ".." || resolve(root, rel) !== real) {
    throw new Refusal("PROPERTY_UNAVAILABLE", `${path} resolves outside the workspace (${real})`);
  }
  try {
    return new Uint8Array(await readFile(real));
  } catch (err) {
    throw new Refusal("PROPERTY_UNAVAILABLE", `${path} cannot be read (${errnoOf(err) ?? String(err)})`);
  }
}

async function machineId(): Promise<string | null> {
  for (const path of ["/etc/machine-id", "/var/lib/dbus/machine-id"]) {
    try {
      const id = (await readFile(path, "utf8")).trim();
      if (id !== "") return id;
    } catch {
      // Not every OS has one; runner_name and the run ids still identify the machine.
    }
  }
  return null;
}

export async function runnerIdentity(
  fields: Omit<
    RunnerIdentity,
    "runner_name" | "machine_id" | "os" | "arch" | "cpus" | "cpu_model" | "locale" | "timezone" | "envelope_gate_version"
  >,
): Promise<RunnerIdentity> {
  const options = Intl.DateTimeFormat().resolvedOptions();
  return {
    runner_name: process.env.RUNNER_NAME ?? null,
    machine_id: await machineId(),
    os: process.env.RUNNER_OS ?? platform(),
    arch: arch(),
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    locale: process.env.LC_ALL || process.env.LANG || options.locale || null,
    timezone: process.env.TZ || options.timeZone || null,
    envelope_gate_version: VERSION,
    ...fields,
  };
}

/**
 * Writes the bundle files (observer.jsonl is already in place when present), then the manifest
 * over every file in the directory. Returns the bundle digest.
 */
export async function writeBundle(dir: string, files: Map<string, Uint8Array>): Promise<string> {
  const put = async (name: string, bytes: Uint8Array | string): Promise<void> => {
    await writeFile(join(dir, name), bytes).catch((err: unknown) => {
      throw evidenceUnwritable(join(dir, name), err);
    });
  };
  try {
    for (const [name, bytes] of files) await put(name, bytes);
    const all = new Map<string, Uint8Array>();
    for (const name of await readdir(dir)) {
      if (name === MANIFEST_FILE || name === MANIFEST_DIGEST_FILE) continue;
      all.set(name, new Uint8Array(await readFile(join(dir, name))));
    }
    const built = buildManifest(all);
    await put(MANIFEST_FILE, built.bytes);
    await put(MANIFEST_DIGEST_FILE, built.digestLine);
    return built.digest;
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw new Refusal("EVIDENCE_UNAVAILABLE", `the evidence bundle in ${dir} cannot be written (${errnoOf(err) ?? String(err)})`, {
      cause: err,
    });
  }
}
