/**
 * `envelope-gate run`: runs a command with the envelope in force and writes the observer log.
 * Only this process writes the log. Order of a run:
 *
 *   truncate the log -> verify the envelope -> resolve roots, scratch, command, observers
 *   -> meta -> canary stage (self-check, marked canary) -> effects snapshot -> the command
 *   -> effects look (effects.ts: protected entries new or changed, from the filesystem) -> end
 *
 * The command runs inside the jail (jail.ts) with strace outside it. `end` is written only after
 * the jail is gone (its PID namespace dies with its first process, so no process of the tree is
 * alive), strace reported the jail's own exit, and every record was read; any failure before
 * that leaves a log without `end`, which `check` refuses.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { constants as osConstants } from "node:os";
import { errnoOf, Refusal } from "../core/errors.js";
import { expandRoots, expandWritableProtected } from "../core/envelope.js";
import type { Emitted, EndEvent, MetaLine } from "../core/log-format.js";
import { readVerifiedEnvelope } from "../check/files.js";
import { CANARY_JAIL_PATH, canaryArgv, canaryFailure, canaryMissing } from "./canary.js";
import { defaultScratch } from "./scratch.js";
import { socketPlaces, wrapperIds } from "./socket-places.js";
import { readOnlyDevices, UNPRIVILEGED_DEVICES, type Devices } from "./devices.js";
import { homes } from "./host-paths.js";
import { BWRAP_ENV, planJail, startJailProbe, type Jail, type PathView } from "./jail.js";
import { LogWriter, openLog } from "./log-writer.js";
import { VERSION } from "../core/version.js";
import { HOSTNAME_KEYS, JAIL_HOSTNAME, runnerIdentity } from "./machine-identity.js";
import { Merger } from "./merge.js";
import { PRELOAD_CONFIG_NAME, PRELOAD_FILE_NAME, mergeNodeOptions } from "./protocol.js";
import { jailArch, seccompProgram } from "./seccomp.js";
import { findGit, prepareProtected, productInstallDir } from "./protected.js";
import { effectsFound, effectsReady, watchEffects, type EffectsWatch } from "./effects.js";
import type { EffectsScope } from "../core/effects.js";
import { gitExemptFor } from "../core/protected.js";
import {
  type EbpfRecorder,
  recorderChoice,
  resolveRecorder,
  startRecorder,
  type RecorderChoice,
  type RecorderDecision,
  type RecorderMeta,
} from "./recorder.js";
import { RunControl } from "./signals.js";
import { EGRESS_PORT, JailNotStarted, STAGED_RELAY_DIR, runStage, type Stage, type StageResult } from "./stage.js";
import {
  findLauncher,
  findSetpriv,
  findUtilLinux,
  netnsBundlePath,
  preloadBundlePath,
  relayBundlePath,
  resolveExecutable,
  straceOrRefuse,
} from "./tools.js";
import { isInsideAnyRoot, isInsideRoot } from "../core/paths.js";
import { runEnv } from "../core/rules.js";
import { hostAllowed, normalizeHost } from "../core/hosts.js";
import { envMatcher, hostPatterns } from "../core/envelope.js";
import { servicesOf, type Service } from "../core/services.js";
import { startJailNetwork, type JailNetwork } from "./jail-network.js";

export { CANARY_ENV_KEY, CANARY_HOST } from "./canary.js";
export { runnerIdentity } from "./machine-identity.js";
export { resolveExecutable } from "./tools.js";

interface RunOptions {
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
  /** `--recorder`: which process recorder runs (the CLI flag; else ENVELOPE_GATE_RECORDER; else auto). */
  recorder?: string | undefined;
  /** Filled as the run goes, for the CLI's own lines (src/observer/cli.ts); never read here. */
  facts?: RunFacts | undefined;
  /** Told once, when the command itself (not the canary) is under way in the jail (Stage.onCommandStarted). */
  onCommandStarted?: (() => void) | undefined;
}

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
  /** Which process recorder runs, once chosen (and what was asked for). */
  recorder?: RecorderMeta & { asked: RecorderChoice };
}

/** The eBPF recorder once started (or still starting): closed when the run ends, however it ends. */
interface HeldRecorder {
  ebpf: EbpfRecorder | null;
  pending?: ReturnType<typeof startRecorder> | null;
  /** The read-only device nodes' holder (devices.ts), ended with the run. */
  devices?: Devices;
  /** The jail's network namespace, its resolver and forwards (jail-network.ts), ended with the run. */
  network?: JailNetwork;
  /** Settled once the devices' holder has started or failed to (held.devices set when it started). */
  devicesPending?: Promise<void>;
  /** Settled once the network's holder has started or failed to (held.network set when it started). */
  networkPending?: Promise<void>;
}

/** Everything the stages need, settled before the first one runs (preflight). */
interface RunPlan {
  /** The log's first line. */
  meta: Emitted<MetaLine>;
  /** What the canary stage and the command stage share. */
  stage: Omit<Stage, "dir" | "argv" | "env" | "quiet" | "merger">;
  /** The command's environment, before the stage's NODE_OPTIONS. */
  baseEnv: Record<string, string>;
  privateDir: string;
  preloadSource: string;
  /** Under allowlist (or audit): the relay bundle each stage gets a copy of. */
  relayBundle: string | null;
  /** A process recorder runs (not --node-only). */
  recording: boolean;
  /** The jail's view of paths (the previewed jail's: every stage's jail has the same). */
  view: PathView;
  commandPath: string;
  commandName: string;
  commandArgs: string[];
  /** What the effects check looks at (effects.ts): the roots, the exempt scratch, the protected paths. */
  effects: EffectsScope;
}

/** Runs the command under the observers and writes the log. Returns the command's exit code. */
export async function runObserved(options: RunOptions): Promise<number> {
  const logPath = resolve(options.logPath);
  // First, before anything can fail: a stale log from an earlier run must never survive a refusal.
  const logFd = openLog(logPath);
  const control = new RunControl();
  // A log that cannot be written stops the command, as a signal does: its acts would go unrecorded.
  const log = new LogWriter(logFd, logPath, () => control.stop());
  const privateDir = mkdtempSync(join(tmpdir(), "envelope-gate-observer-"));
  if (options.facts) options.facts.eventsSoFar = () => Math.max(0, log.lines - 1);
  control.listen();
  let outcome: { exitCode: number } | { error: unknown };
  const held: HeldRecorder = { ebpf: null };
  try {
    const plan = await preflight(options, logPath, privateDir, held);
    log.write(plan.meta);
    log.flush();
    await runCanary(plan, log, control);
    // After the self-check, before the command can run: the protected entries as they are.
    const effects = watchEffects(plan.effects);
    outcome = { exitCode: await runMain(plan, log, control, options, effects) };
  } catch (err) {
    outcome = { error: err };
  } finally {
    const started = held.ebpf ?? (held.pending ? await held.pending.then((r) => (r.ok ? r.ebpf : null)) : null);
    await started?.close();
    // A holder still starting when the run failed is waited for, then ended like the others.
    await held.devicesPending;
    held.devices?.close();
    await held.networkPending;
    await held.network?.close();
    control.unlisten();
    log.close();
    rmSync(privateDir, { recursive: true, force: true });
  }
  // Whatever else went wrong after the log failed (the command stopped, the tracer lost) follows from it.
  if (log.failure !== null) throw log.failure;
  if ("error" in outcome) throw outcome.error;
  return outcome.exitCode;
}

/**
 * Everything before the first stage: the envelope verified, the roots, scratch and command
 * resolved, the tools found, the jail probed and previewed, the recorder chosen, the meta line.
 */
async function preflight(options: RunOptions, logPath: string, privateDir: string, held: HeldRecorder): Promise<RunPlan> {
  // The eBPF recorder loads its programs while the rest of the run is set up.
  const startArch = jailArch();
  const recorderStart =
    !options.nodeOnly && startArch !== null && recorderChoice(options.recorder) !== "strace"
      ? startRecorder(startArch, resolveExecutable("sudo", process.env.PATH))
      : null;
  // Whatever fails before the choice is made, the started recorder is closed.
  held.pending = recorderStart;
  // The jail probe's bubblewrap runs while the envelope is verified; its answer is awaited (and
  // acted on) where the run needs it, below, in the same order of refusals as before.
  const configuredBwrap = process.env[BWRAP_ENV];
  const bwrap = resolveExecutable(configuredBwrap ?? "bwrap", process.env.PATH);
  // The same probe jail asks which of the host's sockets the jail's user reaches: each stage's
  // jail covers those without a probe of its own (jail.ts, reachableInJail).
  const reachableSockets = new Set<string>();
  const jailProbe = startJailProbe(bwrap, reachableSockets);
  const envelope = await readVerifiedEnvelope(options.envelopePath, options.digestPath);
  const runId = randomUUID();
  const workspaceInput = resolve(options.workspace ?? process.cwd());
  let workspace: string;
  try {
    workspace = realpathSync(workspaceInput);
  } catch (err) {
    throw new Refusal("CONFIG_INVALID", `the workspace ${workspaceInput} does not exist`, { cause: err });
  }
  // The default one is under the user's own checked parent (scratch.ts): SCRATCH_UNSAFE otherwise.
  const scratchInput = options.scratch !== undefined ? resolve(options.scratch) : defaultScratch(runId);
  if (options.scratch !== undefined) mkdirSync(scratchInput, { recursive: true, mode: 0o700 });
  if (options.facts) Object.assign(options.facts, { scratch: scratchInput, scratchChosen: options.scratch === undefined });
  const scratch = realpathSync(scratchInput);
  const writableRoots = expandRoots(envelope, { workspace, scratch });

  const [commandName, ...commandArgs] = options.command;
  const commandPath = resolveExecutable(commandName as string, process.env.PATH);
  if (commandPath === null) {
    throw new Refusal("COMMAND_NOT_FOUND", `the command "${commandName}" was not found on PATH`, {
      hint: "Give the command by absolute path, or fix PATH for envelope-gate run.",
    });
  }

  const arch = jailArch();
  if (arch === null) {
    throw new Refusal("JAIL_UNAVAILABLE", `the run jail has no seccomp filter for this architecture (${process.arch})`, {
      hint: "envelope-gate run supports x86-64 and arm64 Linux.",
    });
  }
  // strace asked for: its absence is the first thing said, before the jail is probed.
  if (!options.nodeOnly && recorderChoice(options.recorder) === "strace") straceOrRefuse();
  const preloadSource = preloadBundlePath();
  if (!existsSync(preloadSource)) {
    throw new Refusal("OBSERVER_UNAVAILABLE", `the Node hooks bundle ${preloadSource} is missing`, {
      hint: "Build it: node scripts/build.mjs",
    });
  }
  const runner = runnerIdentity();
  const audit = options.audit === true;
  // Under audit the proxy runs whatever `network` says, and lets every host out (recorded).
  const egressEnforced = envelope.envelope.network === "allowlist" || audit;
  const relayBundle = relayBundlePath();
  if (egressEnforced && !existsSync(relayBundle)) {
    throw new Refusal("OBSERVER_UNAVAILABLE", `the egress relay bundle ${relayBundle} is missing`, {
      hint: "Build it: node scripts/build.mjs",
    });
  }
  const jailRefused = await jailProbe;
  if (jailRefused !== null) throw jailRefused;
  const bwrapBinary = bwrap as string;
  const launcher = findLauncher();
  if (launcher === null)
    throw new Refusal("JAIL_UNAVAILABLE", "env (coreutils) was not found at /usr/bin/env", { hint: "Install coreutils." });
  const setpriv = findSetpriv();
  if (setpriv === null && !options.nodeOnly) {
    throw new Refusal("JAIL_UNAVAILABLE", "setpriv (util-linux) was not found: the tracer could outlive a killed wrapper", {
      hint: "Install util-linux (setpriv ships with it on Debian and Ubuntu).",
    });
  }
  const cwd = realpathSync(process.cwd());
  const patterns = hostPatterns(envelope.envelope);
  const services = servicesOf(envelope.envelope.services);
  // The jail's network namespace, with its resolver and the declared services' forwards (jail-network.ts).
  // Its refusals before the holder starts are thrown here (synchronously), the holder's own by the promise.
  function startNetwork(): Promise<JailNetwork> {
    const nsenter = findUtilLinux("nsenter");
    if (nsenter === null) {
      throw new Refusal("JAIL_UNAVAILABLE", "nsenter (util-linux) was not found: the jail cannot join its network namespace", {
        hint: "Install util-linux (nsenter ships with it on Debian and Ubuntu).",
      });
    }
    const holderBundle = netnsBundlePath();
    if (!existsSync(holderBundle)) {
      throw new Refusal("OBSERVER_UNAVAILABLE", `the jail's network holder bundle ${holderBundle} is missing`, {
        hint: "Build it: node scripts/build.mjs",
      });
    }
    refuseWritableSockets(services, [...writableRoots, scratch], envelope.file);
    // The egress relay listens at 127.0.0.1:EGRESS_PORT inside the jail under allowlist and audit.
    const onRelay = egressEnforced
      ? services.find((s) => s.kind === "tcp" && s.port === EGRESS_PORT && (s.host === "127.0.0.1" || s.host === "localhost"))
      : undefined;
    if (onRelay !== undefined) {
      throw new Refusal(
        "SERVICE_NOT_ALLOWED",
        `${envelope.file}: the services entry "${onRelay.source}" is where the egress relay listens in the jail`,
        {
          hint: `Under allowlist (and audit) 127.0.0.1:${EGRESS_PORT} is the proxy's address in the jail: publish the service on another port.`,
        },
      );
    }
    return startJailNetwork({
      dir: join(privateDir, "net"),
      bwrap: bwrapBinary,
      nsenter,
      nodeBinary: realpathSync(process.execPath),
      holderBundle,
      services,
      nameAllowed: audit
        ? () => true
        : envelope.envelope.network === "allowlist"
          ? (name) => hostAllowed(patterns, normalizeHost(name), null)
          : () => false,
    });
  }
  // The host's device nodes in the jail, read-only (devices.ts): for root, through a holder's mount
  // namespace. Its holder and the network's (below) start at once and are awaited in this order:
  // a refusal of the devices is said first, as when they were started one after the other.
  const devicesReady: Promise<Devices> =
    process.geteuid?.() === 0
      ? readOnlyDevices(join(privateDir, "dev"), { unshare: findUtilLinux("unshare"), nsenter: findUtilLinux("nsenter") }, cwd)
      : Promise.resolve(UNPRIVILEGED_DEVICES);
  // Whatever fails from here on, a holder that started is ended with the run (runObserved).
  held.devicesPending = devicesReady.then(
    (d) => void (held.devices = d),
    () => undefined,
  );
  let networkReady: Promise<JailNetwork>;
  try {
    networkReady = startNetwork();
  } catch (err) {
    await devicesReady;
    throw err;
  }
  held.networkPending = networkReady.then(
    (n) => void (held.network = n),
    () => undefined,
  );
  const devices = await devicesReady;
  const network = await networkReady;
  held.devices = devices;
  held.network = network;
  const logReal = join(realpathSync(dirname(logPath)), basename(logPath));
  const observers: MetaLine["observers"] = options.nodeOnly ? ["node"] : ["node", "process"];
  const seccompFile = join(privateDir, "seccomp.bpf");
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
  // Read once: every stage's jail hides the same places.
  const places = socketPlaces(wrapperIds(), writableRoots, ["/tmp", ...homes()]);
  const jailFor = (stageDir: string, seccompFd: number): Jail =>
    planJail(bwrapBinary, {
      writableRoots,
      wrapperDir: privateDir,
      runDir,
      scratch,
      runnerEnv: process.env,
      execPath: process.execPath,
      stageDir,
      logPath: logReal,
      cwd,
      seccompFd,
      launcher,
      executables,
      protectedMounts: guard.mountArgs,
      commandHome: envMatcher(envelope.envelope)("HOME") ? process.env.HOME : undefined,
      socketPlaces: places,
      reachableSockets,
      devices: devices.args,
      prefix: joinedPrefix(devices.prefix, network.prefix),
      network,
    });
  // Planned while the eBPF recorder still loads; a refusal of the plan (JAIL_CWD_HIDDEN) is
  // thrown after the recorder's, in the order the run has always said them.
  let preview: Jail | undefined;
  let previewRefused: unknown;
  try {
    preview = jailFor(join(privateDir, "preview"), 3);
  } catch (err) {
    previewRefused = err;
  }
  // Decided late: the eBPF recorder has loaded its programs while the run was set up.
  // Once per run: the canary stage and the command stage run under the same recorder.
  const asked = recorderChoice(options.recorder);
  let recorder: RecorderDecision | null = null;
  if (!options.nodeOnly) {
    recorder = await resolveRecorder(asked, recorderStart);
    held.ebpf = recorder.ebpf;
    if (options.facts) options.facts.recorder = { ...recorder.meta, asked };
  }
  const straceBinary = recorder !== null && recorder.meta.name === "strace" ? straceOrRefuse() : null;
  if (preview === undefined) throw previewRefused;
  // Under the eBPF recorder no tracer injects the refusal of a forbidden call: the filter refuses it.
  writeFileSync(seccompFile, seccompProgram(arch, recorder?.meta.name === "ebpf" ? "eperm" : "trace"), { mode: 0o600 });
  const stageRecorder: Stage["recorder"] =
    recorder === null
      ? null
      : recorder.ebpf !== null
        ? { name: "ebpf", ebpf: recorder.ebpf }
        : { name: "strace", binary: straceBinary as string };
  const recording = stageRecorder !== null;
  const jailMeta = {
    tool: `bubblewrap (${bwrapBinary})`,
    namespaces: ["user", "pid", "mount", "ipc", "uts", "net"],
    resolver: network.meta.resolver,
    services: network.meta.services,
    read_only: "everything outside the allowed roots",
    private: preview.privateMounts.map((m) => ({ path: m.jail, host: m.host })),
    hidden: preview.hidden,
    masked_files: preview.maskedFiles,
    visible_read_only: preview.visiblePrefixes,
    hidden_unix_sockets: preview.hiddenSockets.length,
    socket_dirs_hidden: preview.socketDirsHidden,
    protected: guard.jailMeta,
    machine_identity: preview.machineIdentity,
    seccomp: recording ? "forbidden calls refused and recorded" : "forbidden calls refused (not recorded: no process observer)",
  };

  // The caller's keys the command does not get (names, never values): the log keeps them for
  // `suggest`, which proposes the ones a failed non-Node program may have needed.
  const envAllowed = envMatcher(envelope.envelope);
  const withheld = Object.keys(process.env)
    .filter((key) => !envAllowed(key))
    .sort();
  if (options.facts) options.facts.withheld = withheld;
  const meta: Emitted<MetaLine> = {
    kind: "meta",
    run_id: runId,
    envelope_hash: envelope.hash,
    runner,
    started_at: new Date().toISOString(),
    envelope_gate: VERSION,
    observers,
    ...(recorder !== null ? { recorder: recorder.meta } : {}),
    network_enforced: true,
    ...(audit ? { audit: true } : {}),
    network: `${
      audit
        ? `audit: the jail's own network namespace; egress only through envelope-gate's recording proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}), every host let out and recorded`
        : egressEnforced
          ? `enforced: the jail's own network namespace; egress only through envelope-gate's proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}) to allowed_hosts`
          : "enforced: the jail's own network namespace (loopback only"
    }; every name looked up through envelope-gate's resolver (${network.meta.resolver}), recorded${
      network.meta.services.length > 0 ? `; services forwarded: ${network.meta.services.map((s) => s.service).join(", ")}` : ""
    }; host unix sockets covered${audit || egressEnforced ? "" : ")"}`,
    jail: jailMeta,
    protected: guard.plan.meta,
    log_path: logReal,
    workspace,
    scratch,
    command: options.command,
    withheld,
  };

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
  // Set in every run (their reads are not judged: runEnv).
  Object.assign(baseEnv, runEnv(baseEnv));
  // The caller's HOME is missing: the command's is the run's own (planJail, homeReplacement).
  if (preview.homeReplacement !== null && baseEnv.HOME !== undefined) baseEnv.HOME = preview.homeReplacement;
  const writablePlaces = [...writableRoots, ...preview.privateMounts.map((m) => m.jail)];
  const gitExempt = gitExemptFor(workspace, scratch);
  const scratchUnjudged =
    gitExempt.length > 0 &&
    !guard.plan.meta.paths.some((p) => isInsideRoot(p, scratch)) &&
    !isInsideRoot(resolve(options.logPath), scratch);
  const stageCommon = {
    cwd,
    recorder: stageRecorder,
    arch,
    jail: jailFor,
    seccompFile,
    nodeBinaries: new Set([nodeBinary]),
    // The jail's own: an abstract name in its own network namespace, a socket file in a root or
    // in a private directory (made by the run itself).
    unixIsLocal: (address: string): boolean => address.startsWith("@") || isInsideAnyRoot(address, writablePlaces),
    // What the jail shows read-only inside a private directory (an install directory, the scratch) is not writable.
    writable: (path: string): boolean =>
      (isInsideAnyRoot(path, writableRoots) ||
        (isInsideAnyRoot(path, writablePlaces) && !isInsideAnyRoot(path, preview.visiblePrefixes))) &&
      !guard.readOnly(path),
    // The scratch apart from the workspace, with nothing protected in it: no file there is judged.
    linkSourceFree: (path: string): boolean => scratchUnjudged && isInsideRoot(path, scratch),
    egress: egressEnforced
      ? {
          allowed: audit ? (): boolean => true : (host: string, port: number): boolean => hostAllowed(patterns, normalizeHost(host), port),
          audit,
        }
      : null,
    nodeBinary,
    network,
    setpriv: setpriv ?? "",
    launcher,
  };
  return {
    meta,
    stage: stageCommon,
    baseEnv,
    privateDir,
    preloadSource,
    relayBundle: egressEnforced ? relayBundle : null,
    recording,
    view: preview.view,
    commandPath,
    commandName: commandName as string,
    commandArgs,
    effects: { roots: writableRoots, exempt: gitExempt, protectedPaths: guard.plan.meta.paths },
  };
}

/** A stage's own directory: the hooks' bundle and config, and under allowlist the relay. */
function prepareStage(plan: RunPlan, name: string): string {
  const dir = join(plan.privateDir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  copyFileSync(plan.preloadSource, join(dir, PRELOAD_FILE_NAME));
  // The relay runs inside the jail: from the stage, which the jail shows wherever the product
  // is installed (under HOME or /tmp it would be hidden) and which the command cannot write.
  if (plan.relayBundle !== null) cpSync(dirname(plan.relayBundle), join(dir, STAGED_RELAY_DIR), { recursive: true });
  // With strace live it records every write with the kernel's own path; the hooks need not.
  writeFileSync(join(dir, PRELOAD_CONFIG_NAME), JSON.stringify({ recordWrites: !plan.recording }) + "\n");
  return dir;
}

function stageEnv(plan: RunPlan, dir: string): Record<string, string> {
  return { ...plan.baseEnv, NODE_OPTIONS: mergeNodeOptions(dir, plan.baseEnv.NODE_OPTIONS) };
}

function stageMerger(plan: RunPlan, canary: boolean, emit: (e: Emitted) => void): Merger {
  return new Merger({
    processObserverLive: plan.recording,
    egressEndpoint: plan.stage.egress !== null ? { host: "127.0.0.1", port: EGRESS_PORT } : null,
    plumbing: plan.stage.network?.plumbing ?? [],
    recordPath: (p: string) => plan.view.recorded(p),
    canary,
    emit,
  });
}

/** How many times a stage's jail is built when a hidden place vanished while bubblewrap set it up. */
const JAIL_ATTEMPTS = 3;

/**
 * A stage in a fresh directory of its own. When bubblewrap could not start the command because a
 * hidden place (another user's world-writable directory) was removed while it mounted over it,
 * nothing ran and nothing was recorded: the jail is planned again from what is there now. Any
 * other failure to start, or a third, is the run's refusal.
 */
async function runJailedStage(plan: RunPlan, name: string, control: RunControl, stage: (dir: string) => Stage): Promise<StageResult> {
  for (let attempt = 1; ; attempt++) {
    const dir = prepareStage(plan, attempt === 1 ? name : `${name}-${attempt}`);
    try {
      return await runStage(stage(dir), control);
    } catch (err) {
      if (!(err instanceof JailNotStarted) || err.vanished.length === 0 || attempt >= JAIL_ATTEMPTS) throw err;
      process.stderr.write(
        `envelope-gate run: ${err.vanished.join(", ")} vanished while the jail was set up; nothing ran; setting it up again\n`,
      );
    }
  }
}

/** Self-check: every live observer must report the canary before the command runs. */
async function runCanary(plan: RunPlan, log: LogWriter, control: RunControl): Promise<void> {
  const canaryPath = plan.view.recorded(CANARY_JAIL_PATH);
  const seen: Emitted[] = [];
  const result = await runJailedStage(plan, "canary", control, (dir) => ({
    dir,
    argv: canaryArgv(process.execPath),
    env: stageEnv(plan, dir),
    ...plan.stage,
    quiet: true,
    merger: stageMerger(plan, true, (e) => {
      seen.push(e);
      log.write(e);
    }),
  }));
  rmSync(canaryPath, { force: true });
  control.throwIfInterrupted();
  const missing = canaryMissing(seen, plan.recording, canaryPath);
  if (missing.length > 0 || result.code !== 0) throw canaryFailure(result, missing, plan.stage.recorder?.name ?? null);
}

/** The command's own stage, then the end line. Returns the command's exit code. */
async function runMain(
  plan: RunPlan,
  log: LogWriter,
  control: RunControl,
  { facts, onCommandStarted }: Pick<RunOptions, "facts" | "onCommandStarted">,
  effects: EffectsWatch,
): Promise<number> {
  await effectsReady(effects);
  if (!plan.recording) {
    // Without a process recorder nothing sees the command's own exec: the wrapper records what it starts
    // (no source: it is the wrapper's own statement, not an observer's).
    log.write({ kind: "exec", ts: Date.now(), path: plan.commandPath, argv: [plan.commandName, ...plan.commandArgs] });
  }
  const result = await runJailedStage(plan, "main", control, (dir) => ({
    dir,
    argv: [plan.commandPath, ...plan.commandArgs],
    env: stageEnv(plan, dir),
    ...plan.stage,
    quiet: false,
    merger: stageMerger(plan, false, (e) => log.write(e)),
    onCommandStarted,
  }));
  control.throwIfInterrupted();
  // The jail is gone (its PID namespace with it): what it left in the protected entries, whatever the recorder said.
  for (const e of effectsFound(effects)) log.write(e);
  log.flush();
  const end: Emitted<EndEvent> = { kind: "end", events: log.lines, exit_code: result.code };
  if (result.signal !== null) end.signal = result.signal;
  log.write(end);
  log.flush();
  if (facts) Object.assign(facts, { events: log.lines - 2, exitCode: result.code });
  return exitCodeOf(result);
}

/**
 * The devices' and the network's prefixes (each `nsenter <namespaces and options> --`) as one
 * nsenter when both are one of the same binary: it opens every namespace file first, then enters
 * them (the network one before the mount one, whatever the order given) and goes to --wd last, as
 * the two in a row did; one exec fewer in every stage.
 */
function joinedPrefix(first: readonly string[], second: readonly string[]): string[] {
  const single = (p: readonly string[]): boolean => p.length >= 2 && p[p.length - 1] === "--" && p.indexOf("--") === p.length - 1;
  if (!single(first) || !single(second) || first[0] !== second[0]) return [...first, ...second];
  return [...first.slice(0, -1), ...second.slice(1)];
}

/** Where `path` leads, its links followed as far as they go (a dangling link's target, where something could be made). */
function whereLinksLead(path: string): string {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(at);
    } catch {
      let target: string;
      try {
        target = readlinkSync(at);
      } catch {
        // Not a link, and not there: where it would be, below the directory that is.
        const dir = dirname(at);
        return dir === at ? at : join(whereLinksLead(dir), basename(at));
      }
      at = resolve(dirname(at), target);
    }
  }
  return at;
}

/**
 * A unix socket service the run could replace: at (or, through a link, behind) a path inside a
 * root or the scratch, the command can move the forward's socket aside and put a link to any
 * socket of the host where the forward connects. Refused before anything runs.
 */
function refuseWritableSockets(services: readonly Service[], writable: readonly string[], file: string): void {
  for (const s of services) {
    if (s.kind !== "unix") continue;
    const real = whereLinksLead(s.path);
    const inside = [s.path, real].find((p) => isInsideAnyRoot(p, writable));
    if (inside !== undefined) {
      throw new Refusal(
        "SERVICE_NOT_ALLOWED",
        `${file}: the services entry "${s.source}" is inside a place the run can write (${inside})`,
        {
          hint: "The run could replace the socket there with a link to any socket of the host. Put the service's socket outside every allowed root and the scratch.",
        },
      );
    }
  }
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
    throw new Refusal("JAIL_UNAVAILABLE", `the run's private directory ${dir} cannot be made (${errnoOf(err) ?? String(err)})`, {
      hint: "Give the run a scratch directory it can write.",
      cause: err,
    });
  }
  if (realpathSync(dir) !== dir) {
    throw new Refusal("JAIL_UNAVAILABLE", `the run's private directory ${dir} is not a plain directory of the scratch`);
  }
  return dir;
}

function exitCodeOf(result: StageResult): number {
  if (result.code !== null) return result.code;
  const signo = result.signal !== null ? (osConstants.signals[result.signal] ?? 0) : 0;
  return 128 + signo;
}
