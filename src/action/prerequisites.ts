/**
 * The Action's setup of what `envelope-gate run` needs (strace, bubblewrap, setpriv, user
 * namespaces for bwrap): reads the facts off the runner, plans with src/core/prerequisites.ts,
 * says each step in the log before it runs, and reads the facts again after. Once per process,
 * before the first jailed run.
 */
import * as core from "@actions/core";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute } from "node:path";
import { Refusal } from "../core/errors.js";
import {
  describeStep,
  planPrerequisites,
  stepCommands,
  usernsProbeArgv,
  type PrerequisiteFacts,
  type PrerequisitePlan,
  type PrerequisiteStep,
  type Privilege,
  type RecorderInput,
  type ToolFact,
  type UsernsProbe,
} from "../core/prerequisites.js";
import { BWRAP_ENV } from "../observer/jail.js";
import { findSetpriv, resolveExecutable } from "../observer/tools.js";

const STRACE_ENV = "ENVELOPE_GATE_STRACE";
const PROBE_TIMEOUT_MS = 30_000;

export interface PrerequisiteOptions {
  recorder: RecorderInput;
  /** The input setup-prerequisites. */
  setupAllowed: boolean;
}

function firstLine(text: string): string | null {
  const line = text.split("\n").find((l) => l.trim() !== "");
  return line === undefined ? null : line.trim();
}

function toolFact(path: string | null, versionArgs: string[]): ToolFact | null {
  if (path === null) return null;
  const r = spawnSync(path, versionArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: PROBE_TIMEOUT_MS });
  return { path, version: r.status === 0 ? firstLine(`${r.stdout}\n${r.stderr}`) : null };
}

function readOsRelease(): PrerequisiteFacts["os"] {
  let text: string;
  try {
    text = readFileSync("/etc/os-release", "utf8");
  } catch {
    return null;
  }
  const values = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) values.set(m[1] as string, (m[2] as string).replace(/^(["'])(.*)\1$/, "$2"));
  }
  return {
    id: values.get("ID") ?? "",
    idLike: (values.get("ID_LIKE") ?? "").split(/\s+/).filter((w) => w !== ""),
    versionId: values.get("VERSION_ID") ?? "",
  };
}

function readPrivilege(): Privilege {
  if (process.geteuid?.() === 0) return "root";
  const sudo = resolveExecutable("sudo", absolutePath());
  if (sudo === null) return "no-sudo";
  const r = spawnSync(sudo, ["-n", "true"], { stdio: "ignore", timeout: PROBE_TIMEOUT_MS });
  return r.status === 0 ? "sudo" : "sudo-needs-password";
}

function readNumber(path: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isNaN(n) ? null : n;
  } catch {
    return null;
  }
}

function apparmorEnabled(): boolean {
  try {
    return readFileSync("/sys/module/apparmor/parameters/enabled", "utf8").trim() === "Y";
  } catch {
    return existsSync("/sys/kernel/security/apparmor");
  }
}

function probeUserns(bwrap: string): UsernsProbe {
  const [program, ...args] = usernsProbeArgv(bwrap);
  const r = spawnSync(program as string, args, { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"], timeout: PROBE_TIMEOUT_MS });
  if (r.status === 0) return { ok: true };
  return { ok: false, why: firstLine(r.stderr ?? "") ?? r.error?.message ?? `exit ${String(r.status ?? r.signal)}` };
}

/** The file and each directory above it: owned by root, not writable by group or others. */
function rootOwnedAllTheWay(file: string): boolean {
  for (let at = file; ; at = dirname(at)) {
    try {
      const st = statSync(at);
      if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    } catch {
      return false;
    }
    if (at === dirname(at)) return true;
  }
}

/** The facts the plan is made of, read off this runner now. */
export function readPrerequisiteFacts(options: PrerequisiteOptions): PrerequisiteFacts {
  const configuredStrace = process.env[STRACE_ENV] ?? null;
  const configuredBwrap = process.env[BWRAP_ENV] ?? null;
  const strace = resolveExecutable(configuredStrace ?? "strace", absolutePath());
  const bwrapFound = resolveExecutable(configuredBwrap ?? "bwrap", absolutePath());
  // The profile attaches to the file the kernel executes, so the jail's bwrap with links resolved.
  const bwrap = bwrapFound === null ? null : realpathSync(bwrapFound);
  const apparmorParser =
    resolveExecutable("apparmor_parser", absolutePath()) ??
    ["/usr/sbin/apparmor_parser", "/sbin/apparmor_parser"].find((p) => existsSync(p)) ??
    null;
  return {
    platform: process.platform,
    os: readOsRelease(),
    runnerEnvironment: process.env.RUNNER_ENVIRONMENT ?? null,
    privilege: readPrivilege(),
    tools: {
      strace: toolFact(strace, ["-V"]),
      bwrap: toolFact(bwrap, ["--version"]),
      setpriv: toolFact(findSetpriv(), ["--version"]),
      apparmorParser,
    },
    configured: { strace: configuredStrace, bwrap: configuredBwrap },
    userns: {
      restrictSysctl: readNumber("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
      apparmorEnabled: apparmorEnabled(),
      apparmorAbi4: existsSync("/etc/apparmor.d/abi/4.0"),
      bwrapRootOwned: bwrap === null ? null : rootOwnedAllTheWay(bwrap),
      probe: bwrap === null ? null : probeUserns(bwrap),
    },
    recorder: options.recorder,
    setupAllowed: options.setupAllowed,
  };
}

function refusalOf(plan: Extract<PrerequisitePlan, { ok: false }>): Refusal {
  const hint =
    plan.commands.length > 0
      ? `Run these as root on the runner (or in a step before this one), then run the job again:\n${plan.commands.join("\n")}`
      : "See docs/action.md, Prerequisites.";
  return new Refusal(plan.code, plan.message, { hint });
}

/** Runs one command; its output goes to the log. Exit status, or why it did not start. */
/**
 * PATH without its empty and relative entries: what runs as root here (sudo, apt-get, tee,
 * apparmor_parser) and the tools probed are never found in the working directory, which is the
 * pull request's checkout.
 */
function absolutePath(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => isAbsolute(entry))
    .join(delimiter);
}

function runCommand(argv: readonly string[], stdin: string | undefined): Promise<{ ok: true } | { ok: false; why: string }> {
  const [name, ...args] = argv;
  const program = resolveExecutable(name as string, absolutePath());
  if (program === null) return Promise.resolve({ ok: false, why: `${name as string} is not on PATH (its absolute entries)` });
  return new Promise((resolvePromise) => {
    const child = spawn(program, args, {
      stdio: [stdin === undefined ? "ignore" : "pipe", stdin === undefined ? "inherit" : "ignore", "inherit"],
    });
    child.on("error", (err) => resolvePromise({ ok: false, why: err.message }));
    child.on("close", (code, signal) => {
      resolvePromise(
        code === 0 ? { ok: true } : { ok: false, why: signal !== null ? `killed by ${signal}` : `exit status ${String(code)}` },
      );
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

function logNotes(plan: PrerequisitePlan): void {
  for (const note of plan.notes) core.info(note);
}

/**
 * Makes this runner ready for a jailed run, or refuses with a typed error: installs what is
 * missing and grants bwrap user namespaces where it may (root or passwordless sudo, Debian or
 * Ubuntu, setup-prerequisites true), never when everything is there.
 */
export async function setUpPrerequisites(options: PrerequisiteOptions): Promise<void> {
  core.startGroup("envelope-gate: prerequisites");
  try {
    const plan = planPrerequisites(readPrerequisiteFacts(options));
    logNotes(plan);
    if (!plan.ok) throw refusalOf(plan);
    if (plan.steps.length === 0) {
      core.info("prerequisites: all present, nothing to set up");
      return;
    }
    core.info(`prerequisites: plan: ${plan.steps.map(describeStep).join("; ")}`);
    let steps = [...plan.steps];
    let done = 0;
    for (let step = steps.shift(); step !== undefined; step = steps.shift()) {
      done += 1;
      core.info(`prerequisites: step ${String(done)}: ${describeStep(step)}`);
      for (const command of stepCommands(step, plan.elevate)) {
        core.info(`$ ${command.argv.join(" ")}`);
        const result = await runCommand(command.argv, command.stdin);
        if (result.ok) continue;
        if (step.kind === "probe-userns") {
          throw new Refusal(
            "PREREQUISITE_SETUP_INEFFECTIVE",
            `after the setup, ${step.bwrap} still cannot create a user namespace (${result.why})`,
            {
              hint: "See docs/action.md, Prerequisites: the profile is loaded but the kernel still refuses; a self-hosted runner's administrator must allow user namespaces for bwrap.",
            },
          );
        }
        throw new Refusal(
          "PREREQUISITE_SETUP_FAILED",
          `the setup step "${describeStep(step)}" failed: ${command.argv.join(" ")} (${result.why})`,
          {
            hint: "Its output is in the log above. Install what is missing in a step before this one, or fix the runner's package sources.",
          },
        );
      }
      // What the packages brought is read, not predicted: a bwrap that came with a profile of its
      // own (one that already grants user namespaces) gets no second profile for the same path.
      if (step.kind === "install-packages" && steps.length > 0) {
        steps = replanAfterInstall(options);
      }
    }
    const after = planPrerequisites(readPrerequisiteFacts(options));
    core.info("prerequisites: checked again after the setup");
    logNotes(after);
    if (!after.ok || after.steps.length > 0) {
      const left = after.ok ? after.steps.map(describeStep).join("; ") : `${after.code}: ${after.message}`;
      throw new Refusal("PREREQUISITE_SETUP_INEFFECTIVE", `the setup ran but the runner is still not ready: ${left}`, {
        hint: "See docs/action.md, Prerequisites.",
      });
    }
    core.info("prerequisites: ready");
  } finally {
    core.endGroup();
  }
}

/** The steps left after an install, from the runner read again; a package still missing is INEFFECTIVE. */
function replanAfterInstall(options: PrerequisiteOptions): PrerequisiteStep[] {
  const again = planPrerequisites(readPrerequisiteFacts(options));
  core.info("prerequisites: read again after the install");
  logNotes(again);
  if (!again.ok) throw refusalOf(again);
  const install = again.steps.find((s) => s.kind === "install-packages");
  if (install !== undefined) {
    throw new Refusal("PREREQUISITE_SETUP_INEFFECTIVE", `apt-get ran but the runner is still not ready: ${describeStep(install)}`, {
      hint: "See docs/action.md, Prerequisites.",
    });
  }
  if (again.steps.length > 0) core.info(`prerequisites: plan: ${again.steps.map(describeStep).join("; ")}`);
  return [...again.steps];
}

let once: Promise<void> | null = null;

/** setUpPrerequisites, once per process: later runs wait for the first one's result. */
export function prerequisitesReady(options: PrerequisiteOptions): Promise<void> {
  once ??= setUpPrerequisites(options);
  return once;
}
