/**
 * What a runner needs before `envelope-gate run` can jail and record a command, as data: from
 * facts read off the machine (src/action/prerequisites.ts reads them), the steps that set it up,
 * or the typed refusal naming what is missing and the commands that would set it up. Pure.
 *
 * User namespaces are granted to the jail's bubblewrap alone, with an AppArmor profile (Ubuntu's
 * own way); the global switch kernel.apparmor_restrict_unprivileged_userns is never touched.
 */
import type { ErrorCode } from "./errors.js";

export type RecorderInput = "auto" | "ebpf" | "strace";

export interface ToolFact {
  path: string;
  /** The first line the program prints for its version, when it printed one. */
  version: string | null;
}

export type Privilege = "root" | "sudo" | "sudo-needs-password" | "no-sudo";

export type UsernsProbe = { ok: true } | { ok: false; why: string };

export interface PrerequisiteFacts {
  /** process.platform */
  platform: string;
  /** /etc/os-release (ID, ID_LIKE split on spaces, VERSION_ID); null when it cannot be read. */
  os: { id: string; idLike: readonly string[]; versionId: string } | null;
  /** RUNNER_ENVIRONMENT: github-hosted, self-hosted, or null outside Actions. */
  runnerEnvironment: string | null;
  /** root, passwordless sudo (`sudo -n true` succeeds), sudo asking a password, or no sudo. */
  privilege: Privilege;
  tools: {
    strace: ToolFact | null;
    bwrap: ToolFact | null;
    setpriv: ToolFact | null;
    apparmorParser: string | null;
  };
  /** ENVELOPE_GATE_STRACE / ENVELOPE_GATE_BWRAP when set: a program the run was pointed at, which no package provides. */
  configured: { strace: string | null; bwrap: string | null };
  userns: {
    /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns; null when the file does not exist. */
    restrictSysctl: number | null;
    /** /sys/module/apparmor/parameters/enabled is Y, or /sys/kernel/security/apparmor exists. */
    apparmorEnabled: boolean;
    /** /etc/apparmor.d/abi/4.0 exists: the AppArmor userspace knows the `userns` rule. */
    apparmorAbi4: boolean;
    /**
     * The jail's bwrap (links resolved) and every directory above it are owned by root and writable
     * by no one else; null when bwrap is missing (the package installs it so). A profile for a file
     * a user could replace would grant user namespaces to whatever they put there.
     */
    bwrapRootOwned: boolean | null;
    /** `bwrap --unshare-user --ro-bind / / true` as the user the jail runs as; null when bwrap is missing. */
    probe: UsernsProbe | null;
  };
  recorder: RecorderInput;
  /** The Action's input setup-prerequisites: false never installs or grants, it only refuses. */
  setupAllowed: boolean;
}

export type PrerequisiteStep =
  | { kind: "install-packages"; packages: readonly string[] }
  | { kind: "write-apparmor-profile"; path: string; body: string }
  | { kind: "load-apparmor-profile"; path: string }
  | { kind: "probe-userns"; bwrap: string };

export type PrerequisiteRefusalCode = Extract<
  ErrorCode,
  "PREREQUISITE_MISSING" | "PREREQUISITE_USERNS_BLOCKED" | "PREREQUISITE_PLATFORM_UNSUPPORTED"
>;

export type PrerequisitePlan =
  | {
      ok: true;
      /** Prefix that runs a step's commands as root: [] as root, ["sudo", "-n"] with passwordless sudo. */
      elevate: readonly string[];
      /** Empty: everything is there, nothing runs. */
      steps: readonly PrerequisiteStep[];
      /** What was found, for the log. */
      notes: readonly string[];
    }
  | {
      ok: false;
      code: PrerequisiteRefusalCode;
      message: string;
      /** Shell lines that would set the runner up, for a person with root to run; empty when none would. */
      commands: readonly string[];
      notes: readonly string[];
    };

/** One command a step runs: its argv, and what it reads on stdin. */
export interface StepCommand {
  argv: readonly string[];
  stdin?: string;
}

export const PROFILE_NAME = "envelope-gate-bwrap";
export const PROFILE_PATH = `/etc/apparmor.d/${PROFILE_NAME}`;
/** Where Debian's and Ubuntu's bubblewrap package puts bwrap. */
const PACKAGED_BWRAP = "/usr/bin/bwrap";

/** An attachment path AppArmor reads literally: no globs, quotes, spaces or rule syntax. */
const PLAIN_PATH = /^\/[A-Za-z0-9._+/-]+$/;

/**
 * The AppArmor profile that lets one bwrap binary create user namespaces under Ubuntu's
 * restriction. Unconfined otherwise: it grants userns and takes nothing away; the jail's own
 * limits (seccomp, mounts, no capabilities for the command) are bubblewrap's.
 */
export function bwrapProfile(bwrap: string): string {
  return [
    `# Written by the envelope-gate Action: lets ${bwrap}, and no other program, create user`,
    "# namespaces under kernel.apparmor_restrict_unprivileged_userns=1 (docs/action.md, Prerequisites).",
    "abi <abi/4.0>,",
    "include <tunables/global>",
    "",
    `profile ${PROFILE_NAME} ${bwrap} flags=(unconfined) {`,
    "  userns,",
    "",
    `  include if exists <local/${PROFILE_NAME}>`,
    "}",
    "",
  ].join("\n");
}

/** The commands one step runs, with `elevate` before those that need root. */
export function stepCommands(step: PrerequisiteStep, elevate: readonly string[]): StepCommand[] {
  switch (step.kind) {
    case "install-packages":
      return [
        { argv: [...elevate, "apt-get", "update", "-q"] },
        {
          argv: [
            ...elevate,
            "env",
            "DEBIAN_FRONTEND=noninteractive",
            "apt-get",
            "install",
            "-y",
            "-q",
            "--no-install-recommends",
            ...step.packages,
          ],
        },
      ];
    case "write-apparmor-profile":
      return [{ argv: [...elevate, "tee", step.path], stdin: step.body }];
    case "load-apparmor-profile":
      return [{ argv: [...elevate, "apparmor_parser", "-r", step.path] }];
    case "probe-userns":
      return [{ argv: usernsProbeArgv(step.bwrap) }];
  }
}

export function usernsProbeArgv(bwrap: string): string[] {
  return [bwrap, "--unshare-user", "--ro-bind", "/", "/", "true"];
}

/** What a step does, in one line for the log. */
export function describeStep(step: PrerequisiteStep): string {
  switch (step.kind) {
    case "install-packages":
      return `install ${step.packages.join(", ")} with apt-get`;
    case "write-apparmor-profile":
      return `write the AppArmor profile ${step.path} (user namespaces for bwrap alone)`;
    case "load-apparmor-profile":
      return `load ${step.path} with apparmor_parser -r`;
    case "probe-userns":
      return `check that ${step.bwrap} can create a user namespace`;
  }
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./=:+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The steps as lines a person runs in a root-capable shell (sudo in front). */
export function shellLines(steps: readonly PrerequisiteStep[]): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    if (step.kind === "probe-userns") continue;
    for (const command of stepCommands(step, ["sudo"])) {
      const line = command.argv.map(shellWord).join(" ");
      lines.push(command.stdin === undefined ? line : `${line} >/dev/null <<'EOF'\n${command.stdin}EOF`);
    }
  }
  return lines;
}

function debianLike(os: PrerequisiteFacts["os"]): boolean {
  return os !== null && [os.id, ...os.idLike].some((id) => id === "debian" || id === "ubuntu");
}

function describeTool(name: string, tool: ToolFact | null): string {
  return tool === null ? `${name}: not found` : `${name}: ${tool.path}${tool.version !== null ? ` (${tool.version})` : ""}`;
}

function factNotes(facts: PrerequisiteFacts): string[] {
  const os = facts.os === null ? "unknown (no /etc/os-release)" : `${facts.os.id} ${facts.os.versionId}`;
  const userns = facts.userns;
  return [
    `system: ${os}, runner ${facts.runnerEnvironment ?? "unknown"}, ${facts.privilege === "root" ? "root" : facts.privilege === "sudo" ? "passwordless sudo" : facts.privilege === "sudo-needs-password" ? "sudo asks a password" : "no sudo"}`,
    describeTool("strace", facts.tools.strace),
    describeTool("bwrap", facts.tools.bwrap),
    describeTool("setpriv", facts.tools.setpriv),
    `AppArmor: ${userns.apparmorEnabled ? "enabled" : "not enabled"}, kernel.apparmor_restrict_unprivileged_userns ${userns.restrictSysctl === null ? "absent" : `= ${String(userns.restrictSysctl)}`}`,
    `user namespaces: ${userns.probe === null ? "not probed (no bwrap yet)" : userns.probe.ok ? "bwrap created one" : `bwrap could not create one (${userns.probe.why})`}`,
  ];
}

/** Why nothing may be installed or granted here, or null when it may. */
function cannotAct(facts: PrerequisiteFacts): string | null {
  if (!facts.setupAllowed) return "the input setup-prerequisites is false";
  if (!debianLike(facts.os)) {
    return `the Action installs with apt-get on Debian and Ubuntu only, and this is ${facts.os === null ? "an unknown system (no /etc/os-release)" : `${facts.os.id} ${facts.os.versionId}`}`;
  }
  if (facts.privilege === "sudo-needs-password") return "the job is not root and sudo asks a password (`sudo -n true` failed)";
  if (facts.privilege === "no-sudo") return "the job is not root and sudo was not found";
  return null;
}

function refuse(code: PrerequisiteRefusalCode, message: string, commands: readonly string[], notes: readonly string[]): PrerequisitePlan {
  return { ok: false, code, message, commands, notes };
}

/** The plan for these facts: the steps that set the runner up, none when it is ready, or the refusal. */
export function planPrerequisites(facts: PrerequisiteFacts): PrerequisitePlan {
  const notes = factNotes(facts);
  if (facts.platform !== "linux") {
    return refuse(
      "PREREQUISITE_PLATFORM_UNSUPPORTED",
      `envelope-gate runs commands in a bubblewrap jail on Linux only; this runner is ${facts.platform}`,
      [],
      notes,
    );
  }
  const { tools, configured, userns } = facts;
  const privileged = facts.privilege === "root" || facts.privilege === "sudo";

  for (const [name, value, tool] of [
    ["ENVELOPE_GATE_STRACE", configured.strace, tools.strace],
    ["ENVELOPE_GATE_BWRAP", configured.bwrap, tools.bwrap],
  ] as const) {
    if (value !== null && tool === null) {
      return refuse(
        "PREREQUISITE_MISSING",
        `${name} names ${value}, which is not an executable file; no package installs a program there`,
        [],
        notes,
      );
    }
  }

  const packages: string[] = [];
  const missing: string[] = [];
  // strace records unless the eBPF recorder was demanded; under auto it is the fallback when the
  // eBPF recorder cannot start, and without root or sudo that recorder never starts.
  const straceRequired = facts.recorder === "strace" || (facts.recorder === "auto" && !privileged);
  const straceWanted = facts.recorder === "auto" && privileged;
  if (tools.strace === null && (straceRequired || straceWanted)) packages.push("strace");
  if (tools.strace === null && straceRequired) missing.push("strace");
  if (tools.bwrap === null) {
    packages.push("bubblewrap");
    missing.push("bwrap (bubblewrap)");
  }
  if (tools.setpriv === null) {
    packages.push("util-linux");
    missing.push("setpriv (util-linux)");
  }

  // Ubuntu's restriction applies to unprivileged users only: root keeps user namespaces.
  const restricted = userns.restrictSysctl !== null && userns.restrictSysctl !== 0 && userns.apparmorEnabled;
  const blocked = userns.probe !== null ? !userns.probe.ok : restricted && facts.privilege !== "root";
  const bwrapPath = tools.bwrap?.path ?? PACKAGED_BWRAP;
  const grant: PrerequisiteStep[] = [];
  if (blocked) {
    const why = userns.probe !== null && !userns.probe.ok ? userns.probe.why : "predicted from the restriction";
    if (!restricted) {
      return refuse(
        "PREREQUISITE_USERNS_BLOCKED",
        `${bwrapPath} cannot create a user namespace (${why}), and not because of Ubuntu's AppArmor restriction: the kernel or the container refuses them`,
        ["sysctl user.max_user_namespaces kernel.unprivileged_userns_clone"],
        notes,
      );
    }
    if (tools.bwrap !== null && userns.bwrapRootOwned !== true) {
      return refuse(
        "PREREQUISITE_USERNS_BLOCKED",
        `${bwrapPath} cannot create a user namespace (${why}), and it is not a root-owned file in root-owned directories: the Action grants user namespaces only to a bwrap no user can replace`,
        [],
        notes,
      );
    }
    if (!PLAIN_PATH.test(bwrapPath)) {
      return refuse(
        "PREREQUISITE_USERNS_BLOCKED",
        `bwrap is at ${bwrapPath}, a path an AppArmor profile would read as a pattern; the Action grants user namespaces to one plain path only`,
        [],
        notes,
      );
    }
    if (!userns.apparmorAbi4) {
      return refuse(
        "PREREQUISITE_USERNS_BLOCKED",
        `${bwrapPath} cannot create a user namespace (${why}) under kernel.apparmor_restrict_unprivileged_userns=${String(userns.restrictSysctl)}, and this AppArmor (no /etc/apparmor.d/abi/4.0) has no userns rule to grant it`,
        [],
        notes,
      );
    }
    if (tools.apparmorParser === null) packages.push("apparmor");
    const profile: PrerequisiteStep = { kind: "write-apparmor-profile", path: PROFILE_PATH, body: bwrapProfile(bwrapPath) };
    grant.push(profile, { kind: "load-apparmor-profile", path: PROFILE_PATH }, { kind: "probe-userns", bwrap: bwrapPath });
  }

  const steps: PrerequisiteStep[] = [...(packages.length > 0 ? [{ kind: "install-packages" as const, packages }] : []), ...grant];
  if (steps.length > 0 && tools.bwrap === null && grant.length === 0) steps.push({ kind: "probe-userns", bwrap: bwrapPath });
  if (steps.length === 0) return { ok: true, elevate: [], steps, notes };

  const reason = cannotAct(facts);
  if (reason !== null) {
    const needed = steps.filter((s) => s.kind !== "install-packages" || missing.length > 0);
    const commands = debianLike(facts.os) ? shellLines(needed) : [];
    if (missing.length > 0) {
      return refuse(
        "PREREQUISITE_MISSING",
        `missing: ${missing.join(", ")}; nothing was installed because ${reason}`,
        commands.length > 0 ? commands : [`install ${packages.join(", ")} with the system's package manager`],
        notes,
      );
    }
    if (grant.length > 0) {
      return refuse(
        "PREREQUISITE_USERNS_BLOCKED",
        `${bwrapPath} cannot create a user namespace under kernel.apparmor_restrict_unprivileged_userns=${String(userns.restrictSysctl)}; no AppArmor profile was written because ${reason}`,
        commands,
        notes,
      );
    }
    // Only strace as the eBPF recorder's fallback was wanted: the run can still record with eBPF.
    return { ok: true, elevate: [], steps: [], notes: [...notes, `strace not installed (${reason}): the eBPF recorder must start`] };
  }
  return { ok: true, elevate: facts.privilege === "root" ? [] : ["sudo", "-n"], steps, notes };
}
