/**
 * Runs the real bundle: `node dist/cli/index.js run ...` then `check ... --format json`.
 * Build first (`node scripts/build.mjs`; `npm test` does it in pretest).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";
import { CLI_BUNDLE, REPO_ROOT } from "../support/fixtures.js";
import { digestLine } from "../support/hash.js";
import { withHostsFile } from "../support/hosts-file.js";
import { CAN_RUN_AS_NOBODY, NOBODY, giveToNobody } from "../support/nobody.js";
import { TEST_TMP } from "../support/test-tmp.js";
import { spawnProcess, type Spawned } from "../support/spawn.js";

export const ROOT = REPO_ROOT;
export const CLI = CLI_BUNDLE;

if (!existsSync(join(ROOT, "dist/preload/index.js")) || !existsSync(join(ROOT, "dist/sdk/index.js"))) {
  throw new Error("dist/ is not built with the observer: run `node scripts/build.mjs` first");
}

/**
 * Whether this machine can build the run jail (bubblewrap with user, PID and network
 * namespaces), the same probe the wrapper makes. Without it every run is refused
 * (JAIL_UNAVAILABLE); .ci/run installs bubblewrap, and docs/observer.md gives the route for
 * GitHub-hosted runners.
 */
export const JAIL_AVAILABLE =
  spawnSync("bwrap", ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", ":"], {
    stdio: "ignore",
  }).status === 0;

export interface Sandbox {
  /** Holds everything; not itself an allowed root. */
  base: string;
  workspace: string;
  scratch: string;
  /** Outside every allowed root. */
  outside: string;
  /** A HOME for programs that insist on one (git), outside every root. */
  home: string;
  envelope: string;
}

export const BASE_ENVELOPE = {
  envelope_id: "observer-test-envelope",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: ["read_file", "apply_patch", "run_tests"],
  allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH"],
  allowed_hosts: [] as string[],
  network: "deny",
};

/**
 * Sandboxes live outside /tmp: the jail gives the command a private /tmp, so programs and
 * "outside" directories there would be invisible to it rather than read-only.
 */
export { TEST_TMP };

/** Every directory a test file made, removed after its last test (the harness is loaded once per file). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function sandbox(envelope: Record<string, unknown> = {}): Sandbox {
  const base = realpathSync(mkdtempSync(join(TEST_TMP, "eg-observer-test-")));
  made.push(base);
  const s: Sandbox = {
    base,
    workspace: join(base, "workspace"),
    scratch: join(base, "scratch"),
    outside: join(base, "outside"),
    home: join(base, "home"),
    envelope: join(base, "envelope.json"),
  };
  for (const dir of [s.workspace, s.scratch, s.outside, s.home]) mkdirSync(dir, { recursive: true });
  const text = JSON.stringify({ ...BASE_ENVELOPE, ...envelope }, null, 2) + "\n";
  writeFileSync(s.envelope, text);
  writeFileSync(`${s.envelope}.sha256`, digestLine(text, "envelope.json"));
  return s;
}

export type { Spawned };

/** `node ARGS` (or `exec ARGS`) to its end, from the checkout unless `cwd` says otherwise. */
export async function spawnNode(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; onStart?: (pid: number) => void; exec?: string; stdio?: (string | number)[] } = {},
): Promise<Spawned> {
  const { exec = process.execPath, stdio, ...rest } = options;
  const { code, signal, stdout, stderr } = await spawnProcess([exec, ...args], {
    ...rest,
    ...(stdio === undefined ? {} : { stdio: stdio as ("ignore" | "pipe" | number)[] }),
  });
  return { code, signal, stdout, stderr };
}

export interface RunResult extends Spawned {
  /** run's own closing lines, taken out of `stderr`. */
  runLines: string[];
  log: string;
  lines: Record<string, unknown>[];
}

export { CAN_RUN_AS_NOBODY };

let nobodyCli: string | null = null;
/** A copy of the bundle every user can read: the checkout itself may sit where nobody cannot. */
export function cliForNobody(): string {
  if (nobodyCli === null) {
    const dir = mkdtempSync(join(TEST_TMP, "eg-dist-"));
    made.push(dir);
    chmodSync(dir, 0o755);
    cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true });
    nobodyCli = join(dir, "dist/cli/index.js");
  }
  return nobodyCli;
}

export interface RunSettings {
  nodeOnly?: boolean;
  /** Run the wrapper as nobody (uid 65534) instead of the test's own user. */
  asNobody?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logName?: string;
  onStart?: (pid: number) => void;
  /** Another copy of the bundle to run (readable by nobody too). */
  cli?: string;
  /** `--recorder auto|ebpf|strace`. */
  recorder?: string;
}

export function logPathOf(s: Sandbox, name = "observer.jsonl"): string {
  return join(s.base, name);
}

export async function run(s: Sandbox, command: string[], settings: RunSettings = {}): Promise<RunResult> {
  const log = logPathOf(s, settings.logName);
  const args = [CLI, "run", "--envelope", s.envelope, "--observer", log, "--workspace", s.workspace, "--scratch", s.scratch];
  if (settings.nodeOnly) args.push("--node-only");
  if (settings.recorder !== undefined) args.push("--recorder", settings.recorder);
  const env = { ...process.env, HOME: s.home, ...settings.env };
  let result: Spawned;
  if (settings.asNobody === true) {
    giveToNobody(s.base, s.workspace, s.scratch, s.outside, s.home, join(s.base, "programs"));
    args[0] = settings.cli ?? cliForNobody();
    result = await spawnNode([...NOBODY, process.execPath, ...args, "--", ...command], {
      cwd: settings.cwd ?? s.workspace,
      env,
      onStart: settings.onStart,
      exec: "setpriv",
    });
  } else {
    if (settings.cli !== undefined) args[0] = settings.cli;
    result = await spawnNode([...args, "--", ...command], { cwd: settings.cwd ?? s.workspace, env, onStart: settings.onStart });
  }
  const text = existsSync(log) ? readFileSync(log, "utf8") : "";
  const lines = text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { unparsable: l };
      }
    });
  return { ...result, ...withoutRunLines(result.stderr), log, lines };
}

/** `run`'s own lines (the jail is up; the withheld keys, the recorder, log and events), apart from what the command printed. */
export function withoutRunLines(stderr: string): { stderr: string; runLines: string[] } {
  const runLines: string[] = [];
  const rest = stderr
    .split(/(?<=\n)/)
    .filter((l) => (/^envelope-gate run: (withheld|recorder|log|the jail is up,) /.test(l) ? (runLines.push(l.trimEnd()), false) : true));
  return { stderr: rest.join(""), runLines };
}

/** The host directory behind one of the run's private directories (`/tmp`, a HOME), from `meta.jail.private`. */
export function privateHost(r: RunResult, jailPath: string): string {
  const jail = r.lines[0]?.jail as { private?: { path: string; host: string }[] } | undefined;
  const host = jail?.private?.find((m) => m.path === jailPath)?.host;
  if (host === undefined) throw new Error(`no private ${jailPath} in meta.jail: ${JSON.stringify(jail)}`);
  return host;
}

export interface Violation {
  id: string;
  rule: string;
  subject: string;
  first_line: number;
  count: number;
}

export interface Report {
  verdict: string;
  events: number;
  violations: Violation[];
  error: { code: string; message: string } | null;
  log: { observers: unknown; network_enforced: unknown; exit_code: number | null } | null;
}

/** `check` of the sandbox's log, `--format json`, read. */
export async function check(s: Sandbox, logName?: string): Promise<Report & { exit: number | null }> {
  const result = await checkText(s, logName, ["--format", "json"]);
  return { ...(JSON.parse(result.stdout) as Report), exit: result.code };
}

/** `check` of the sandbox's log as a person reads it (text), or with `extra` arguments. */
export function checkText(s: Sandbox, logName?: string, extra: string[] = []): Promise<Spawned> {
  const args = ["--envelope", s.envelope, "--observer", logPathOf(s, logName), "--workspace", s.workspace, "--scratch", s.scratch];
  return spawnNode([CLI, "check", ...args, ...extra]);
}

export function ids(report: Report): string[] {
  return report.violations.map((v) => v.id);
}

/** A C compiler, when the machine has one (the tests' small programs: threads that execute, vfork). */
export const CC = ["/usr/bin/cc", "/usr/bin/gcc"].find((c) => existsSync(c));

/** A C program compiled for the test, beside the sandbox's other programs (outside every root). */
export function compileC(s: Sandbox, name: string, source: string): string {
  const src = program(s, `${name}.c`, source);
  const bin = join(s.base, "programs", name);
  const r = spawnSync(CC as string, ["-O1", "-pthread", "-o", bin, src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return bin;
}

/** Writes a program into the sandbox (outside every root, so writing it is not the program's doing). */
export function program(s: Sandbox, name: string, source: string): string {
  const dir = join(s.base, "programs");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

/**
 * `envelope-gate run -- COMMAND` with the wrapper (not the jail) seeing `hostsText` as /etc/hosts
 * (test/support/hosts-file.ts), so a test's names resolve, for the egress proxy, to a server of
 * this machine. Needs `unshare -m` (root).
 */
export function runWithHostsFile(s: Sandbox, hostsText: string, command: string[]): Promise<Spawned> {
  const hosts = join(s.base, "hosts");
  writeFileSync(hosts, hostsText);
  const args = [
    CLI,
    "run",
    "--envelope",
    s.envelope,
    "--observer",
    join(s.base, "observer.jsonl"),
    "--workspace",
    s.workspace,
    "--scratch",
    s.scratch,
  ];
  const [exec, ...rest] = withHostsFile(hosts, [process.execPath, ...args, "--", ...command]);
  return spawnNode(rest, { exec, cwd: s.workspace, env: { ...process.env, HOME: s.home } });
}
