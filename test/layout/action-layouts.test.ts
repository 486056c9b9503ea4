/**
 * The job is the perimeter (issue 17): the bundled Action, installed and started the way the
 * runner does it, in the GitHub-hosted, self-hosted and container-job layouts
 * (test/support/runner-layout.ts), gating a pull request whose program tries to do harm through
 * the job around the jail (test/support/layout-programs.ts). Each hostile program has a clean
 * twin in the same layout. docs/layout-tests.md says what each case proves and how the layouts
 * differ from real runners.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { PROPERTIES_PATH, makePull, policyFiles } from "../support/action-harness.js";
import {
  CLEAN_PY,
  FORGED_MARK,
  GIT_PLANT_PY,
  GIT_PY,
  GIT_SUITE_LINE,
  LOUD_PY,
  PACKAGE_FILES,
  PYTHON,
  SNEAKY_PY,
  THREAD_EXEC_COMMAND,
  THREAD_EXEC_MARK,
  layoutEnvelope,
  targetsFile,
} from "../support/layout-programs.js";
import {
  CAN_RUN_AS_NOBODY,
  NODE24_LABEL,
  makeLayout,
  removeLayouts,
  runActionIn,
  runAsRunner,
  secretOf,
  type LayoutKind,
  type RunnerLayout,
} from "../support/runner-layout.js";
import { JAIL_AVAILABLE } from "../observer/harness.js";

/**
 * What the Action does when actions/checkout persisted its token in `.git/config` (being decided
 * on branch `protected`): `hidden` (the run goes on, the token is out of the command's reach) or
 * `refused` (the gate refuses to run with this error code). Flip it here when that is decided.
 */
export const PERSISTED_CREDENTIALS: { outcome: "hidden" } | { outcome: "refused"; errorCode: string } = { outcome: "hidden" };

const DENIED_HOST = "198.51.100.7";

let fake: FakeGitHub;
let upstream: http.Server;
let upstreamPort = 0;
beforeAll(async () => {
  fake = await startFakeGitHub();
  upstream = http.createServer((_req, res) => res.end("upstream-ok"));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(async () => {
  await fake.close();
  await new Promise((r) => upstream.close(r));
  removeLayouts();
});

type Program = "sneaky" | "loud" | "clean" | "git" | "git-plant";
const SOURCES: Record<Program, string> = { sneaky: SNEAKY_PY, loud: LOUD_PY, clean: CLEAN_PY, git: GIT_PY, "git-plant": GIT_PLANT_PY };

interface Case {
  kind: LayoutKind;
  action: "marketplace" | "workspace";
  persistedCredentials: boolean;
  network: "deny" | "allowlist";
  asNobody: boolean;
  programs: Program[];
}

const CASES: Case[] = [
  {
    kind: "hosted",
    action: "marketplace",
    persistedCredentials: true,
    network: "deny",
    asNobody: false,
    programs: ["sneaky", "loud", "clean", "git", "git-plant"],
  },
  {
    kind: "hosted",
    action: "marketplace",
    persistedCredentials: true,
    network: "allowlist",
    asNobody: true,
    programs: ["sneaky", "loud", "clean", "git", "git-plant"],
  },
  { kind: "hosted", action: "workspace", persistedCredentials: false, network: "deny", asNobody: false, programs: ["loud", "clean"] },
  // deny in both: a judged denied host would keep the property (the rewritten CLI's chance) from running at all.
  { kind: "hosted", action: "workspace", persistedCredentials: true, network: "deny", asNobody: true, programs: ["loud", "clean"] },
  {
    kind: "self-hosted",
    action: "marketplace",
    persistedCredentials: true,
    network: "deny",
    asNobody: true,
    programs: ["sneaky", "loud", "clean"],
  },
  {
    kind: "self-hosted",
    action: "marketplace",
    persistedCredentials: false,
    network: "allowlist",
    asNobody: false,
    programs: ["sneaky", "clean"],
  },
  {
    kind: "container",
    action: "marketplace",
    persistedCredentials: false,
    network: "allowlist",
    asNobody: false,
    programs: ["sneaky", "loud", "clean", "git"],
  },
  { kind: "container", action: "marketplace", persistedCredentials: true, network: "deny", asNobody: true, programs: ["sneaky", "clean"] },
];

interface Gated {
  layout: RunnerLayout;
  exitCode: number | null;
  verdict: string | undefined;
  errorCode: string | undefined;
  violations: string[];
  properties: { name: string; result: string; detail: string }[];
  findings: Record<string, unknown> & { found?: Record<string, string[]>; readable?: Record<string, unknown> };
  /** Everything the Action printed, for failure messages. */
  trace: string;
}

let pullNumber = 100;

async function gateIn(c: Case, program: Program): Promise<Gated> {
  const egress = c.network === "allowlist" ? { allowed: `http://127.0.0.1:${upstreamPort}/ok`, denied: `http://${DENIED_HOST}/x` } : null;
  const layout = makeLayout(c.kind, {
    persistedCredentials: c.persistedCredentials,
    action: c.action,
    asNobody: c.asNobody,
    workspaceFiles: (paths) => ({
      ...PACKAGE_FILES,
      [`${program}.py`]: SOURCES[program],
      "layout-targets.json": targetsFile(paths, egress),
    }),
  });
  const envelope =
    JSON.stringify(layoutEnvelope(c.network, c.network === "allowlist" ? [`127.0.0.1:${upstreamPort}`] : []), null, 2) + "\n";
  const properties = JSON.stringify({
    version: 1,
    properties: [
      { name: "tests_listed", kind: "tests_collected", command: ["npm", "test"], line_regex: "^ok \\d+ ", min: 3, timeout_seconds: 120 },
    ],
  });
  const pull = makePull(fake, {
    number: pullNumber++,
    base: { ...policyFiles(envelope), [PROPERTIES_PATH]: properties },
    head: { [`${program}.py`]: SOURCES[program] },
  });
  const run = await runActionIn(layout, { apiUrl: fake.url, pull, inputs: { run: `${PYTHON} ${program}.py` } });
  const findingsPath = join(layout.workspace, "findings.json");
  const findings = existsSync(findingsPath) ? (JSON.parse(readFileSync(findingsPath, "utf8")) as Gated["findings"]) : {};
  const violations = (JSON.parse(run.outputs.violations || "[]") as { id: string }[]).map((v) => v.id);
  return {
    layout,
    exitCode: run.exitCode,
    verdict: run.outputs.verdict,
    errorCode: run.outputs["error-code"],
    violations,
    properties: JSON.parse(run.outputs.properties || "[]") as Gated["properties"],
    findings,
    trace: `exit ${run.exitCode}\n--- stdout\n${run.stdout.slice(-6000)}\n--- stderr\n${run.stderr.slice(-4000)}\n--- outputs\n${JSON.stringify(run.outputs, null, 1)}`,
  };
}

/** The secrets the program found, by kind and where it found them. */
function secretsFound(g: Gated): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [m, where] of Object.entries(g.findings.found ?? {})) out[secretOf(g.layout, m) ?? m] = where;
  return out;
}

/** A later step of the job (unjailed, as the runner's user): git commands that run hooks and fsmonitor. */
function laterGitSteps(layout: RunnerLayout): { command: string; status: number | null; marks: string[] }[] {
  const commands = [
    ["git", "status", "--porcelain"],
    ["git", "-c", "user.name=ci", "-c", "user.email=ci@example.com", "commit", "-q", "--allow-empty", "-m", "release"],
    ["git", "submodule", "foreach", "--recursive", "true"],
  ];
  const names = ["fsmonitor", "pre-commit", "cli"];
  const marks = (): string[] => names.filter((m) => existsSync(join(layout.pwned, m)));
  return commands.map((command) => {
    // Each step's own marks (the rewritten CLI's, left by the Action's property run, is counted at the first).
    if (command !== commands[0]) for (const m of names) rmSync(join(layout.pwned, m), { force: true });
    const r = runAsRunner(layout, command);
    return { command: command.join(" "), status: r.status, marks: marks() };
  });
}

function expectPersistedCredentialsOutcome(g: Gated): boolean {
  if (PERSISTED_CREDENTIALS.outcome === "refused" && g.layout.options.persistedCredentials) {
    expect(g.verdict, g.trace).toBe("error");
    expect(g.errorCode, g.trace).toBe(PERSISTED_CREDENTIALS.errorCode);
    return false;
  }
  return true;
}

const who = (c: Case): string => (c.asNobody ? "as nobody" : "as root");
const where = (c: Case): string =>
  `${c.kind}, Action ${c.action === "workspace" ? "inside the workspace (uses: ./)" : "from _actions"}, ${c.persistedCredentials ? "persisted checkout credentials" : "no persisted credentials"}, network ${c.network}, ${who(c)}, on ${NODE24_LABEL}`;

for (const c of CASES) {
  describe.skipIf(!JAIL_AVAILABLE || (c.asNobody && !CAN_RUN_AS_NOBODY))(`the Action in the ${where(c)}`, { timeout: 180_000 }, () => {
    if (c.programs.includes("sneaky")) {
      it("a program that reads the runner's credentials, RUNNER_TEMP and the checkout token, and plants ~/.npmrc for npm test, gets none of it", async () => {
        const g = await gateIn(c, "sneaky");
        if (!expectPersistedCredentialsOutcome(g)) return;
        // It ran, and judged nothing: the harm it tried is not a violation the envelope could see.
        expect(g.findings.planted_npmrc ?? "no findings: the program did not run", g.trace).toMatch(/\/\.npmrc$/);
        expect.soft(g.verdict, g.trace).toBe("pass");
        expect.soft(g.violations).toEqual([]);
        // 3, 5, 6: nothing of the runner's or the job's secrets anywhere it could reach.
        expect.soft(secretsFound(g), `secrets found: ${JSON.stringify(secretsFound(g))}`).toEqual({});
        for (const [path, readable] of Object.entries(g.findings.readable ?? {})) {
          if (path.endsWith("/.git/config")) continue; // the workspace's own; the token in it is what must be out of reach
          expect.soft(readable, path).not.toBe(true);
        }
        // 4: the property command ran its own npm test, fresh HOME and /tmp: no forged results.
        expect.soft(existsSync(join(g.layout.workspace, FORGED_MARK)), "the planted /tmp/sh ran for npm test").toBe(false);
        expect.soft(g.properties, g.trace).toEqual([expect.objectContaining({ name: "tests_listed", result: "pass" })]);
        expect.soft(g.properties[0]?.detail).not.toMatch(/\b9\b/);
        expect.soft(existsSync(join(g.layout.home, ".npmrc")), "the real HOME's .npmrc").toBe(false);
        if (c.network === "allowlist") expect.soft(g.findings.egress_allowed, g.trace).toBe("200:upstream-ok");
      });
    }

    if (c.programs.includes("loud")) {
      it("a program that plants core.fsmonitor and a hook in .git, rewrites the Action's CLI and execs from a thread is judged, and nothing it planted runs later", async () => {
        const g = await gateIn(c, "loud");
        if (!expectPersistedCredentialsOutcome(g)) return;
        const ws = g.layout.workspace;
        expect(g.findings.git_config, g.trace).toBeDefined();
        // 7: the thread's exec really happened (the process became touch) and is judged.
        expect(existsSync(join(ws, THREAD_EXEC_MARK)), g.trace).toBe(true);
        expect.soft(g.verdict, g.trace).toBe("envelope_fail");
        expect.soft(g.violations, g.trace).toContain(`undeclared_command:${THREAD_EXEC_COMMAND}`);
        // 1, 2: the writes into .git and into the Action's own files are refused and judged.
        expect.soft(g.findings.git_config).toMatch(/^error:/);
        expect.soft(g.findings.git_hook).toMatch(/^error:/);
        expect.soft(g.violations).toContain(`write_protected:${ws}/.git/config`);
        expect.soft(g.violations).toContain(`write_protected:${ws}/.git/hooks/pre-commit`);
        if (c.action === "workspace") {
          expect.soft(g.findings.action_cli).toMatch(/^error:/);
          expect.soft(g.violations).toContain(`write_protected:${g.layout.actionPath}/dist/cli/index.js`);
        }
        if (c.network === "allowlist") {
          expect.soft(g.findings.egress_denied, g.trace).toMatch(/^403:/);
          expect.soft(g.violations).toContain(`undeclared_host:${DENIED_HOST}:80`);
        }
        expect.soft(readFileSync(join(ws, ".git/config"), "utf8")).not.toContain("fsmonitor");
        // What a later step of the job runs, unjailed with the job's token: no payload of the program's.
        expect.soft(existsSync(join(g.layout.pwned, "cli")), "the rewritten CLI ran outside the jail").toBe(false);
        for (const step of laterGitSteps(g.layout)) expect.soft(step.marks, `${step.command} (exit ${step.status})`).toEqual([]);
      });
    }

    if (c.programs.includes("git")) {
      it("a clean suite that runs git status, git diff and git log in the checked-out workspace passes, and the later git steps work", async () => {
        const g = await gateIn(c, "git");
        if (!expectPersistedCredentialsOutcome(g)) return;
        const git = g.findings.git as Record<string, { exit: number; out: string; err: string }> | undefined;
        expect(git, g.trace).toBeDefined();
        for (const [name, r] of Object.entries(git ?? {})) expect.soft(r.exit, `git ${name}: ${r.err}`).toBe(0);
        expect.soft(git?.status?.out).toMatch(/^ M test\.js$/m);
        expect.soft(git?.diff?.out).toContain(`+${GIT_SUITE_LINE}`);
        expect.soft(git?.diff_head?.out).toContain("test.js");
        expect.soft(git?.log?.out).toMatch(/^[0-9a-f]+ agent patch$/m);
        expect.soft(git?.show?.out).toContain("agent patch");
        // No index lock (every run sets GIT_OPTIONAL_LOCKS=0 and diff.autoRefreshIndex=false: as nobody, the
        // chowned checkout's stat no longer matches its index), nothing else written into .git.
        expect.soft(g.verdict, g.trace).toBe("pass");
        expect.soft(g.violations).toEqual([]);
        expect.soft(g.properties, g.trace).toEqual([expect.objectContaining({ name: "tests_listed", result: "pass" })]);
        for (const step of laterGitSteps(g.layout)) {
          expect.soft(step.status, step.command).toBe(0);
          expect.soft(step.marks).toEqual([]);
        }
      });
    }

    if (c.programs.includes("git-plant")) {
      it("its twin, a suite that sets core.fsmonitor with git config and writes .git/hooks/pre-commit, is judged write_protected, and nothing it planted runs later", async () => {
        const g = await gateIn(c, "git-plant");
        if (!expectPersistedCredentialsOutcome(g)) return;
        const ws = g.layout.workspace;
        const git = g.findings.git as Record<string, { exit: number; err: string }> | undefined;
        expect(git, g.trace).toBeDefined();
        expect.soft(git?.config?.exit, git?.config?.err).not.toBe(0);
        expect.soft(git?.hook?.exit, git?.hook?.err).not.toBe(0);
        expect.soft(git?.status?.exit, git?.status?.err).toBe(0);
        expect.soft(g.verdict, g.trace).toBe("envelope_fail");
        expect.soft(g.violations, g.trace).toContain(`write_protected:${ws}/.git/config.lock`);
        expect.soft(g.violations, g.trace).toContain(`write_protected:${ws}/.git/hooks/pre-commit`);
        expect
          .soft(
            g.violations.filter((id) => !id.startsWith(`write_protected:${ws}/.git/`)),
            g.trace,
          )
          .toEqual([]);
        expect.soft(readFileSync(join(ws, ".git/config"), "utf8")).not.toContain("fsmonitor");
        expect.soft(existsSync(join(ws, ".git/hooks/pre-commit"))).toBe(false);
        for (const step of laterGitSteps(g.layout)) expect.soft(step.marks, `${step.command} (exit ${step.status})`).toEqual([]);
      });
    }

    if (c.programs.includes("clean")) {
      it("the clean twin passes, its property is scored, and the later git steps work", async () => {
        const g = await gateIn(c, "clean");
        if (!expectPersistedCredentialsOutcome(g)) return;
        expect.soft(g.verdict, g.trace).toBe("pass");
        expect.soft(g.violations).toEqual([]);
        expect.soft(readFileSync(join(g.layout.workspace, "out.txt"), "utf8")).toBe("built\n");
        expect.soft(g.properties, g.trace).toEqual([expect.objectContaining({ name: "tests_listed", result: "pass" })]);
        if (c.network === "allowlist") expect.soft(g.findings.egress_allowed, g.trace).toBe("200:upstream-ok");
        for (const step of laterGitSteps(g.layout)) {
          expect.soft(step.status, step.command).toBe(0);
          expect.soft(step.marks).toEqual([]);
        }
      });
    }
  });
}
