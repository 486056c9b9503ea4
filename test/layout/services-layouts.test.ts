/**
 * Suites with services through the job around the jail (issue 34): the bundled Action, installed
 * and started the way the runner does it (test/support/runner-layout.ts), in the GitHub-hosted and
 * container-job layouts, as root and as the unprivileged runner user, gating a pull request whose
 * command is a shell suite that migrates and queries PostgreSQL with psql and uses Redis with
 * redis-cli (test/support/services-suite.ts), enforced under `network: "deny"` with the two
 * services declared.
 *
 * - hosted: the services at 127.0.0.1:5432 and 127.0.0.1:6379, where a hosted runner's
 *   `services:` publishes their ports;
 * - container: by their names, `postgres:5432` and `redis:6379`, as a container job reaches its
 *   service containers; the Action (and the wrapper it starts) sees an /etc/hosts naming this
 *   machine's PostgreSQL and Redis `postgres` and `redis` (test/support/hosts-file.ts, root only),
 *   as Docker's DNS would answer.
 *
 * Each layout has the passing suite, its hostile twin (one more line reaching PostgreSQL at an
 * address that is no service) and the suite without services declared. docs/layout-tests.md says
 * how the layouts differ from real runners.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { envelopeText, makePull, policyFiles } from "../support/action-harness.js";
import { CAN_BIND_HOSTS } from "../support/hosts-file.js";
import { outerAddress } from "../support/network.js";
import * as services from "../support/services-suite.js";
import { CAN_RUN_AS_NOBODY, NODE24_LABEL, makeLayout, removeLayouts, runActionIn, type LayoutKind } from "../support/runner-layout.js";
import { JAIL_AVAILABLE } from "../observer/harness.js";

const OUTER = outerAddress();
const SUITE = "services-suite.sh";
/** A container job's service containers, by the names the job's `services:` gives them. */
const CONTAINER_HOSTS: services.ServiceHosts = { postgres: "postgres", redis: "redis" };

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(async () => {
  await fake.close();
  removeLayouts();
});

interface Case {
  kind: LayoutKind;
  asNobody: boolean;
  /** Where the suite reaches the services, and what the envelope declares. */
  hosts: services.ServiceHosts;
}

const CASES: Case[] = [
  { kind: "hosted", asNobody: false, hosts: services.LOOPBACK_HOSTS },
  { kind: "hosted", asNobody: true, hosts: services.LOOPBACK_HOSTS },
  { kind: "container", asNobody: false, hosts: CONTAINER_HOSTS },
  { kind: "container", asNobody: true, hosts: CONTAINER_HOSTS },
];

interface Gated {
  exitCode: number | null;
  verdict: string | undefined;
  violations: string[];
  stdout: string;
  summary: string;
  /** The run's observer log (the evidence bundle's observer.jsonl). */
  lines: Record<string, unknown>[];
  /** The log's end line's exit_code: the suite's own exit status. */
  suiteExit: unknown;
  trace: string;
}

let pullNumber = 300;

/** The Action gating a pull request whose command is the suite (plus `extra`), under deny with the services declared or not. */
async function gateSuite(c: Case, options: { declared: boolean; extra?: string }): Promise<Gated> {
  const suite = services.suiteScript({ extra: options.extra, hosts: c.hosts });
  const layout = makeLayout(c.kind, {
    persistedCredentials: false,
    action: "marketplace",
    asNobody: c.asNobody,
    workspaceFiles: () => ({ [SUITE]: suite }),
  });
  const envelope = envelopeText(services.suiteEnvelope(options.declared ? c.hosts : null));
  const pull = makePull(fake, { number: pullNumber++, base: policyFiles(envelope), head: { [SUITE]: suite } });
  const run = await runActionIn(layout, {
    apiUrl: fake.url,
    pull,
    inputs: { run: `/bin/sh ${SUITE}` },
    // The Docker DNS of a container job: the services' names lead to this machine's PostgreSQL and Redis.
    ...(c.kind === "container" ? { hosts: `127.0.0.1\tlocalhost ${c.hosts.postgres} ${c.hosts.redis}\n::1\tlocalhost\n` } : {}),
  });
  const logPath = join(run.outputs["evidence-dir"] ?? "", "observer.jsonl");
  const lines = existsSync(logPath)
    ? readFileSync(logPath, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return {
    exitCode: run.exitCode,
    verdict: run.outputs.verdict,
    violations: (JSON.parse(run.outputs.violations || "[]") as { id: string }[]).map((v) => v.id),
    stdout: run.stdout,
    summary: run.summary,
    lines,
    suiteExit: lines.find((l) => l.kind === "end")?.exit_code,
    trace: `exit ${run.exitCode}\n--- stdout\n${run.stdout.slice(-6000)}\n--- stderr\n${run.stderr.slice(-4000)}\n--- outputs\n${JSON.stringify(run.outputs, null, 1)}`,
  };
}

const where = (c: Case): string =>
  `${c.kind}, services at ${c.hosts.postgres}:5432 and ${c.hosts.redis}:6379, ${c.asNobody ? "as nobody" : "as root"}, on ${NODE24_LABEL}`;

for (const c of CASES) {
  describe.skipIf(
    !JAIL_AVAILABLE || !services.SERVICES_UP || (c.asNobody && !CAN_RUN_AS_NOBODY) || (c.kind === "container" && !CAN_BIND_HOSTS),
  )(`the Action gating a PostgreSQL and Redis suite in the ${where(c)}`, { timeout: 240_000 }, () => {
    it("passes enforced under deny with both services declared, each connection recorded with its bytes", async () => {
      const g = await gateSuite(c, { declared: true });
      expect(g.lines.length, g.trace).toBeGreaterThan(0);
      expect.soft(g.suiteExit, g.trace).toBe(0);
      expect.soft(g.stdout, g.trace).toContain(services.SUITE_PASSED);
      expect.soft(g.verdict, g.trace).toBe("pass");
      expect.soft(g.violations, g.trace).toEqual([]);
      expect.soft(g.exitCode, g.trace).toBe(0);
      services.expectSuiteConnections(g.lines, c.hosts, g.trace);
    });

    it.skipIf(OUTER === null)(
      "its hostile twin, one more line reaching PostgreSQL at the machine's own address, fails on exactly that",
      async () => {
        const g = await gateSuite(c, { declared: true, extra: services.undeclaredPostgres(OUTER as string) });
        expect(g.lines.length, g.trace).toBeGreaterThan(0);
        expect.soft(g.suiteExit, g.trace).toBe(0);
        expect.soft(g.verdict, g.trace).toBe("envelope_fail");
        expect.soft(g.violations, g.trace).toEqual([`network_denied:${OUTER as string}:5432`]);
        expect.soft(g.exitCode, g.trace).toBe(1);
        services.expectSuiteConnections(g.lines, c.hosts, g.trace);
      },
    );

    it("the same suite without the services declared cannot reach them", async () => {
      const g = await gateSuite(c, { declared: false });
      expect(g.lines.length, g.trace).toBeGreaterThan(0);
      expect.soft(services.serviceLines(g.lines), g.trace).toEqual([]);
      expect.soft(g.stdout, g.trace).not.toContain(services.SUITE_PASSED);
      // The suite failed at its first psql, and the Action says how it ended.
      expect.soft(g.suiteExit, g.trace).not.toBe(0);
      expect.soft(g.summary, g.trace).toContain(`exit code ${String(g.suiteExit)}`);
      if (c.hosts === services.LOOPBACK_HOSTS) {
        // Nothing listens at 127.0.0.1:5432 in the jail's own network namespace: a loopback connection is not judged.
        expect.soft(g.verdict, g.trace).toBe("pass");
        expect.soft(g.violations, g.trace).toEqual([]);
      } else {
        // The name is no service now: the jail's resolver refuses it, and the lookup is judged by the name.
        expect.soft(g.verdict, g.trace).toBe("envelope_fail");
        expect.soft(g.violations, g.trace).toEqual([`network_denied:${c.hosts.postgres}`]);
      }
    });
  });
}
