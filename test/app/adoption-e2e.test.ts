/**
 * Issue 20's "Done when", end to end through the real parts: a real suite is recorded by the
 * bundled Action (dist/index.js, a process) in `mode: audit` on two pushes to the default branch
 * that has no envelope; each run's evidence directory becomes its `envelope-gate-evidence`
 * artifact in the GitHub fake; the App (its HTTP server and real store) receives each run's
 * `workflow_run` completed delivery and opens one envelope PR; the PR is merged unchanged (a merge
 * commit whose tree is the PR's head, bytes untouched); and the next pull request, gated by the
 * bundled Action in enforce mode running the same suite, passes under the merged envelope, while
 * a hostile twin (the same suite plus one line) fails it. No envelope entry is told by hand.
 *
 * The suites are test/support/suites.ts's (Node and Go here, the two cheapest; `node
 * scripts/adoption.mjs --action` runs Node, Python, Go and C the same way through this file and
 * prints what it measured). The allowlist case installs a package with npm from a local registry
 * reached by name through the egress proxy.
 *
 * In CI (CI=true) a missing package is installed (apt-get) and a suite that cannot be had fails.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { STARTER_ENVELOPE_TEXT } from "../../src/core/audit.js";
import { JAIL_AVAILABLE, TEST_TMP } from "../observer/harness.js";
import { DIGEST_PATH, ENVELOPE_PATH, REPO, runAction, type ActionRun, type PullFixture } from "../support/action-harness.js";
import { APP_BOT_LOGIN, installAppRoutes } from "../support/fake-github-app.js";
import { startFakeGitHub, type FakeGitHub, type FakePull } from "../support/fake-github.js";
import { shownText } from "../support/gfm.js";
import { mergePull } from "../support/merge.js";
import { MAX_ROUNDS, SUITES, ensure, type Suite, type SuiteName } from "../support/suites.js";
import {
  APP_ID,
  appKeys,
  deliverAndWait,
  GATE_WORKFLOW,
  GATE_WORKFLOW_PATH,
  INSTALLATION,
  startTestApp,
  TestClock,
  workflowRunPayload,
} from "./helpers.js";
import { outerAddress } from "../support/network.js";

const IN_CI = process.env.CI === "true";
/** The suites this file adopts: Node and Go; `scripts/adoption.mjs --action` names others. */
const CHOSEN = (process.env.EG_ADOPTION_SUITES ?? "node,go").split(",").filter((n) => n !== "") as SuiteName[];
for (const name of CHOSEN)
  if (!(name in SUITES)) throw new Error(`EG_ADOPTION_SUITES: no suite ${name} (${Object.keys(SUITES).join(", ")})`);
/** Where `scripts/adoption.mjs --action` wants each suite's measurements (one JSON line each). */
const OUT = process.env.EG_ADOPTION_OUT;
/** The rounds each suite takes through the Action and the App, as docs/authoring.md says. */
const DOCUMENTED_ROUNDS: Partial<Record<SuiteName, number>> = { node: 1, go: 1, python: 1, c: 1 };
const AUDIT_RUNS = 2;

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha256 = (b: Uint8Array | string): string => createHash("sha256").update(b).digest("hex");
const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? new Uint8Array()).toString("utf8");

/** The Action's `run` input for a command: words, each double-quoted where it needs it. */
function runInput(command: string[]): string {
  return command.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w))).join(" ");
}

/** A GitHub-shaped world: the fake, the App's routes, a repository whose main has no envelope, the App (active). */
async function startAdoptionWorld(): Promise<{ fake: FakeGitHub; app: RunningApp; close: () => Promise<void> }> {
  const fake = await startFakeGitHub();
  installAppRoutes(fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, dispatchMode: "run_details" });
  fake.addRepo(REPO);
  fake.repo(REPO).collaborators.set("alice", "write");
  fake.commit(REPO, { "README.md": "# widgets\n", [GATE_WORKFLOW_PATH]: GATE_WORKFLOW }, { parent: null, branch: "main", message: "init" });
  const clock = new TestClock(Date.now());
  const app = await startTestApp(fake, clock);
  await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
  await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
  return {
    fake,
    app,
    close: async () => {
      await app.close();
      await fake.close();
    },
  };
}

export interface AdoptionRound {
  /** Violations each audit run's check reported (what enforce would have said). */
  auditViolations: string[][];
  /** What the App said of each delivery. */
  outcomes: string[];
  pr: number;
  /** Entries the envelope PR adds to the envelope it was opened against, per key. */
  added: Record<string, string[]>;
  network: string;
  merged: string;
  enforced: ActionRun;
}

export interface ActionAdoption {
  suite: string;
  rounds: AdoptionRound[];
  envelopeText: string;
  hostile: ActionRun & { expected: string; what: string };
}

export interface AdoptionSpec {
  name: string;
  /** Fills a fresh workspace (a checkout of the repository's code). */
  prepare(workspace: string): void;
  command: string[];
  env: Record<string, string>;
  /** Makes the workspace hostile; returns the violation the check must report. */
  hostile(workspace: string): { what: string; violation: string };
  /** Another bundle to run (a wrapper of dist/index.js). */
  bundle?: string;
  /**
   * Keys the suite needs that a proposal never allows (docs/authoring.md, *Never proposed*): each
   * must be listed under the PR's "Not proposed"; after the merge the reviewer adds them by hand,
   * listed exactly, in a commit of their own on main (the App's PR is never edited).
   */
  addByHand?: readonly string[];
}

const envelopePulls = (fake: FakeGitHub): FakePull[] =>
  [...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/envelope/"));

function addedEntries(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of ["allowed_roots", "allowed_tools", "allowed_env", "allowed_hosts", "allowed_commands"]) {
    const was = new Set((before[key] as string[] | undefined) ?? []);
    const now = (after[key] as string[] | undefined) ?? [];
    const add = now.filter((e) => !was.has(e));
    if (add.length > 0 || key !== "allowed_commands") out[key] = add;
  }
  return out;
}

/** A pull request by an agent on main's tip (one commit changing src/widget.ts). */
function agentPull(fake: FakeGitHub, number: number): PullFixture {
  const baseSha = fake.repo(REPO).refs.get("heads/main") as string;
  const headSha = fake.commit(REPO, { "src/widget.ts": `export const widget = ${number};\n` }, { parent: baseSha, message: `#${number}` });
  fake.addPull(REPO, {
    number,
    user: { login: "copilot-swe-agent[bot]" },
    base: { ref: "main", sha: baseSha },
    head: { sha: headSha },
    files: [{ filename: "src/widget.ts", status: "added", patch: `@@ -0,0 +1 @@\n+export const widget = ${number};` }],
  });
  return { number, baseSha, headSha, baseRef: "main" };
}

/**
 * The adoption path through the Action and the App: rounds (at most MAX_ROUNDS) of AUDIT_RUNS
 * audit push runs on main, each delivered to the App, the one envelope PR merged unchanged, and
 * an agent's pull request judged in enforce mode; until that passes. Then the hostile twin.
 */
export async function adoptThroughAction(spec: AdoptionSpec): Promise<ActionAdoption> {
  const world = await startAdoptionWorld();
  const { fake, app } = world;
  const repo = () => fake.repo(REPO);
  const mainSha = () => repo().refs.get("heads/main") as string;
  const common = { bundle: spec.bundle, inputs: {}, timeoutMs: 600_000 };
  const rounds: AdoptionRound[] = [];
  let pullNumber = 100;
  try {
    for (let n = 1; n <= MAX_ROUNDS; n++) {
      const before = repo().refs.get("heads/main") as string;
      const current = fake.filesAt(repo(), before).get(ENVELOPE_PATH);
      const auditViolations: string[][] = [];
      const outcomes: string[] = [];
      for (let i = 1; i <= AUDIT_RUNS; i++) {
        const sha = mainSha();
        const run = fake.addWorkflowRun(REPO, {
          head_sha: sha,
          head_branch: "main",
          event: "push",
          status: "in_progress",
          conclusion: null,
        });
        const action = await runAction({
          ...common,
          apiUrl: fake.url,
          eventName: "push",
          event: { ref: "refs/heads/main", after: sha, before: "0".repeat(40) },
          env: { ...spec.env, GITHUB_SHA: sha, GITHUB_REF: "refs/heads/main", GITHUB_RUN_ID: String(run.id), RUNNER_NAME: `audit-${i}` },
          inputs: { mode: "audit", run: runInput(spec.command) },
          prepareWorkspace: spec.prepare,
        });
        expect(action.exitCode, `audit run ${i}: ${action.stdout}${action.stderr}`).toBe(0);
        expect(action.outputs.verdict).toBe("audit");
        expect(action.outputs.conclusion).toBe("neutral");
        auditViolations.push((JSON.parse(action.outputs.violations ?? "[]") as { id: string }[]).map((v) => v.id));
        const files = Object.fromEntries(
          readdirSync(action.evidenceDir).map((f) => [f, new Uint8Array(readFileSync(join(action.evidenceDir, f)))]),
        );
        expect(JSON.parse(text(files["runner.json"])).mode).toBe("audit");
        fake.addArtifact(REPO, { run_id: run.id, name: "envelope-gate-evidence", files });
        run.status = "completed";
        run.conclusion = "success";
        const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, run, null));
        expect(res.state, JSON.stringify(res)).toBe("done");
        outcomes.push(String(res.outcome));
      }
      // One envelope PR, by the App, against main, changing exactly the envelope and its digest.
      const open = envelopePulls(fake).filter((p) => p.state === "open");
      expect(open, outcomes.join("\n")).toHaveLength(1);
      const pr = open[0] as FakePull;
      expect(pr.user.login).toBe(APP_BOT_LOGIN);
      expect(pr.base.ref).toBe("main");
      const head = repo().refs.get(`heads/${pr.head.ref}`) as string;
      const proposed = fake.filesAt(repo(), head);
      const envelopeBytes = proposed.get(ENVELOPE_PATH) as Uint8Array;
      const digestBytes = proposed.get(DIGEST_PATH) as Uint8Array;
      expect(text(digestBytes)).toBe(`${sha256(envelopeBytes)}  envelope.json\n`);
      const atBase = fake.filesAt(repo(), before);
      const changed = [...proposed.keys(), ...atBase.keys()].filter(
        (p, i, all) => all.indexOf(p) === i && text(proposed.get(p)) !== text(atBase.get(p)),
      );
      expect(changed.sort()).toEqual([ENVELOPE_PATH, DIGEST_PATH].sort());

      // Merged unchanged: main's files are the PR's, byte for byte.
      const merged = mergePull(fake, REPO, pr.number);
      const onMain = fake.filesAt(repo(), merged.sha);
      expect(Buffer.from(onMain.get(ENVELOPE_PATH) as Uint8Array).equals(Buffer.from(envelopeBytes))).toBe(true);
      expect(Buffer.from(onMain.get(DIGEST_PATH) as Uint8Array).equals(Buffer.from(digestBytes))).toBe(true);
      let envelope = JSON.parse(text(envelopeBytes)) as Record<string, unknown>;
      let pinned = envelopeBytes;
      if (spec.addByHand !== undefined && spec.addByHand.length > 0) {
        const [, notProposed = ""] = shownText(pr.body).split("Not proposed.");
        for (const key of spec.addByHand) {
          expect((envelope.allowed_env as string[]).includes(key), `${key} proposed`).toBe(false);
          expect(notProposed, `${key} under "Not proposed"`).toMatch(new RegExp(`(?:^|\\s)${key}\\s+[a-z ]+: `));
        }
        const own = (envelope.allowed_env as string[]).filter((k) => !spec.addByHand?.includes(k));
        envelope = { ...envelope, allowed_env: [...own, ...spec.addByHand] };
        pinned = new TextEncoder().encode(JSON.stringify(envelope, null, 2) + "\n");
        fake.commit(
          REPO,
          { [ENVELOPE_PATH]: text(pinned), [DIGEST_PATH]: `${sha256(pinned)}  envelope.json\n` },
          { branch: "main", message: `allow ${spec.addByHand.join(", ")} by hand (listed under the envelope PR's "Not proposed")` },
        );
      }

      // The next enforced run: an agent's pull request on the merged main, the same suite.
      const pull = agentPull(fake, pullNumber++);
      const enforced = await runAction({
        ...common,
        apiUrl: fake.url,
        pull,
        env: spec.env,
        inputs: { run: runInput(spec.command) },
        prepareWorkspace: spec.prepare,
      });
      expect(enforced.outputs["envelope-hash"]).toBe(`sha256:${sha256(pinned)}`);
      rounds.push({
        auditViolations,
        outcomes,
        pr: pr.number,
        // Against the envelope the PR was opened over: main's, or the starter where main had none.
        added: addedEntries(JSON.parse(current === undefined ? STARTER_ENVELOPE_TEXT : text(current)) as Record<string, unknown>, envelope),
        network: String(envelope.network),
        merged: merged.sha,
        enforced,
      });
      if (enforced.outputs.verdict === "pass") break;
    }
    // The hostile twin: the same suite plus one line, on the same base.
    const pull = agentPull(fake, pullNumber++);
    let twin = { what: "", violation: "" };
    const hostile = await runAction({
      ...common,
      apiUrl: fake.url,
      pull,
      env: spec.env,
      inputs: { run: runInput(spec.command) },
      prepareWorkspace: (w) => {
        spec.prepare(w);
        twin = spec.hostile(w);
      },
    });
    return {
      suite: spec.name,
      rounds,
      envelopeText: text(fake.filesAt(repo(), mainSha()).get(ENVELOPE_PATH)),
      hostile: { ...hostile, expected: twin.violation, what: twin.what },
    };
  } finally {
    await world.close();
  }
}

/** What scripts/adoption.mjs --action prints of an adoption. */
export function measure(a: ActionAdoption): Record<string, unknown> {
  const last = a.rounds.at(-1);
  return {
    suite: a.suite,
    rounds: a.rounds.length,
    per_round: a.rounds.map((r) => ({
      audit_violations: r.auditViolations.map((v) => v.length),
      audit_violation_ids: r.auditViolations,
      envelope_pr: r.pr,
      app_outcomes: r.outcomes,
      entries_added: Object.values(r.added).reduce((n, l) => n + l.length, 0),
      added: r.added,
      network: r.network,
      enforced_verdict: r.enforced.outputs.verdict,
      enforced_conclusion: r.enforced.outputs.conclusion,
      enforced_violations: (JSON.parse(r.enforced.outputs.violations ?? "[]") as { id: string }[]).map((v) => v.id),
    })),
    envelope: JSON.parse(a.envelopeText),
    enforced_verdict: last?.enforced.outputs.verdict,
    enforced_conclusion: last?.enforced.outputs.conclusion,
    hostile: {
      what: a.hostile.what,
      verdict: a.hostile.outputs.verdict,
      conclusion: a.hostile.outputs.conclusion,
      violations: (JSON.parse(a.hostile.outputs.violations ?? "[]") as { id: string }[]).map((v) => v.id),
      expected: a.hostile.expected,
    },
  };
}

function assertAdopted(a: ActionAdoption, rounds: number): void {
  expect(a.rounds.length).toBeLessThanOrEqual(rounds);
  const last = a.rounds.at(-1) as AdoptionRound;
  const e = last.enforced;
  expect(e.exitCode, `enforced run: ${e.stdout}${e.stderr}${e.summary}`).toBe(0);
  expect(e.outputs.verdict).toBe("pass");
  expect(e.outputs.conclusion).toBe("success");
  expect(JSON.parse(e.outputs.violations ?? "[]")).toEqual([]);
  // The hostile twin fails the merged envelope with exactly the one thing it added.
  const h = a.hostile;
  expect(h.exitCode, h.stdout + h.stderr).toBe(1);
  expect(h.outputs.verdict).toBe("envelope_fail");
  expect(h.outputs.conclusion).toBe("failure");
  expect((JSON.parse(h.outputs.violations ?? "[]") as { id: string }[]).map((v) => v.id)).toEqual([h.expected]);
}

function suiteSpec(suite: Suite, base: string, outside: string): AdoptionSpec {
  return {
    name: suite.name,
    prepare: (w) => suite.prepare(w, base),
    command: suite.command(),
    // A hosted runner's caller environment: CI=true (HOME is the harness's own real directory).
    env: { CI: "true", ...suite.env() },
    hostile: (w) => suite.hostile(w, outside),
  };
}

function adoptionBase(name: string): { base: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(TEST_TMP, `eg-action-adopt-${name}-`)));
  made.push(base);
  const outside = join(base, "outside");
  mkdirSync(outside);
  return { base, outside };
}

function unavailable(suite: Suite): string | null {
  if (!JAIL_AVAILABLE) return "no run jail (bubblewrap with user, PID and network namespaces)";
  return ensure(suite);
}
const skip = (suite: Suite): boolean => !IN_CI && unavailable(suite) !== null;
const titled = (suite: Suite, title: string): string => (skip(suite) ? `${title} (skipped: ${unavailable(suite)})` : title);

describe.skipIf(CHOSEN.length === 0)("adoption through the Action's audit mode and the App's envelope PR", () => {
  for (const name of CHOSEN) {
    const suite = SUITES[name];
    it.skipIf(skip(suite))(
      titled(
        suite,
        `${name}: two audit pushes, one envelope PR merged unchanged, the next enforced run passes under deny; the hostile twin fails`,
      ),
      { timeout: 1_800_000 },
      async () => {
        expect(unavailable(suite), `${name} suite unavailable`).toBeNull();
        const { base, outside } = adoptionBase(name);
        const a = await adoptThroughAction(suiteSpec(suite, base, outside));
        if (OUT !== undefined) appendFileSync(OUT, JSON.stringify(measure(a)) + "\n");
        assertAdopted(a, DOCUMENTED_ROUNDS[name] ?? MAX_ROUNDS);
        const envelope = JSON.parse(a.envelopeText) as Record<string, unknown>;
        expect(envelope.network).toBe("deny");
        expect(envelope.allowed_hosts).toEqual([]);
        expect(envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
        // The first round's audit runs reported what enforce would have (the starter lacks what the suite needs).
        const first = a.rounds[0] as AdoptionRound;
        expect(first.outcomes[0]).toMatch(/^audit run \d+ verified; envelope PR #\d+ opened/);
        // The second run did what the first did: the same PR, the same envelope.
        expect(first.outcomes[1]).toMatch(/envelope PR #\d+ (?:already proposes this envelope|updated)/);
        if (name === "node") {
          for (const v of first.auditViolations) expect(v.length).toBeGreaterThan(0);
          // What the CLI's adoption learns (test/observer/real-suites.test.ts): nothing of the audit's
          // own proxy keys, which node --test sees only by enumerating the audit run's environment.
          expect([...(envelope.allowed_env as string[])].sort()).toEqual(["@ci", "NODE_TEST_CONTEXT", "PATH", "TEMP", "TMP", "TMPDIR"]);
        }
        if (name === "go") {
          // go cannot build without HOME, which the starter withholds: proposed unobserved from the failed audit runs.
          expect(envelope.allowed_env).toContain("HOME");
          for (const v of first.auditViolations) expect(v).toEqual([]);
        }
      },
    );
  }
});

// ---------------------------------------------------------------------------------------------
// The allowlist case: `npm install` from a registry reached by name.

const REGISTRY_NAME = "registry.widgets.example";
const OTHER_NAME = "elsewhere.widgets.example";
const PACKAGE = "eg-tiny-pkg";

/**
 * A bundle that runs dist/index.js in a private mount namespace whose /etc/hosts names
 * REGISTRY_NAME and OTHER_NAME at `address`: the names resolve for the Action and the egress
 * proxy in its wrapper, as a runner's DNS would; the jailed command resolves nothing itself. No
 * shell between (the Action's INPUT_* names contain hyphens, which a shell would drop). Null
 * where `unshare -m` and a bind mount are not allowed here.
 */
function hostsWrapper(dir: string, address: string): string | null {
  const hosts = join(dir, "hosts");
  writeFileSync(hosts, `127.0.0.1 localhost\n${address} ${REGISTRY_NAME} ${OTHER_NAME}\n`);
  const probe = spawnSync("unshare", ["-m", "--propagation", "private", "sh", "-c", `mount --bind ${hosts} /etc/hosts && cat /etc/hosts`], {
    encoding: "utf8",
  });
  if (probe.status !== 0 || !probe.stdout.includes(REGISTRY_NAME)) return null;
  const wrapper = join(dir, "with-hosts.mjs");
  writeFileSync(
    wrapper,
    `import { spawnSync } from "node:child_process";
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env: process.env }).status ?? 1;
if (process.argv[2] !== "--inner") process.exit(run("unshare", ["-m", "--propagation", "private", process.execPath, import.meta.filename, "--inner"]));
if (run("mount", ["--bind", ${JSON.stringify(hosts)}, "/etc/hosts"]) !== 0) process.exit(3);
process.exit(run(process.execPath, [${JSON.stringify(resolve("dist/index.js"))}]));
`,
  );
  return wrapper;
}

interface Registry {
  port: number;
  seen: string[];
  close(): Promise<void>;
}

/** A tiny npm registry: PACKAGE's packument and its tarball (made with `npm pack`), nothing else. */
async function startRegistry(dir: string, address: string): Promise<Registry> {
  const src = join(dir, "pkg");
  mkdirSync(src);
  writeFileSync(join(src, "package.json"), JSON.stringify({ name: PACKAGE, version: "1.0.0", main: "index.js", license: "MIT" }));
  writeFileSync(join(src, "index.js"), "module.exports = 42;\n");
  const packed = spawnSync("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: src, encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tgz = readFileSync(join(dir, `${PACKAGE}-1.0.0.tgz`));
  const seen: string[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.headers.host} ${req.url}`);
    const base = `http://${REGISTRY_NAME}:${port}`;
    if (req.url === `/${PACKAGE}`) {
      const version = {
        name: PACKAGE,
        version: "1.0.0",
        main: "index.js",
        dist: {
          tarball: `${base}/${PACKAGE}/-/${PACKAGE}-1.0.0.tgz`,
          shasum: createHash("sha1").update(tgz).digest("hex"),
          integrity: `sha512-${createHash("sha512").update(tgz).digest("base64")}`,
        },
      };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ name: PACKAGE, "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": version } }));
      return;
    }
    if (req.url === `/${PACKAGE}/-/${PACKAGE}-1.0.0.tgz`) {
      res.setHeader("content-type", "application/octet-stream");
      res.end(tgz);
      return;
    }
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((done) => server.listen(0, address, done));
  port = (server.address() as AddressInfo).port;
  return { port, seen, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** Whether the machine's npm configuration sets `key` (npm then exports npm_config_<key> to what it runs). */
function npmConfigSet(key: string): boolean {
  const r = spawnSync("npm", ["config", "get", key], { encoding: "utf8" });
  const value = r.stdout.trim();
  return r.status === 0 && value !== "" && value !== "null" && value !== "undefined";
}

const ADDRESS = outerAddress();
const allowlistUnavailable = (): string | null => {
  if (!JAIL_AVAILABLE) return "no run jail (bubblewrap with user, PID and network namespaces)";
  if (ADDRESS === null) return "no non-loopback IPv4 address on this machine";
  return null;
};

describe.skipIf(!IN_CI && allowlistUnavailable() !== null)(
  "adoption through the Action and the App: a package install under allowlist",
  () => {
    it(
      "npm install from a registry reached by name: the audit records NAME:PORT, the envelope PR allows it, the enforced run passes under allowlist; a twin reaching another name fails",
      { timeout: 600_000 },
      async () => {
        expect(allowlistUnavailable()).toBeNull();
        const { base } = adoptionBase("npm");
        const address = ADDRESS as string;
        const bundle = hostsWrapper(base, address);
        expect(bundle, "unshare -m with a bind-mounted /etc/hosts").not.toBeNull();
        const registry = await startRegistry(base, address);
        try {
          const endpoint = `${REGISTRY_NAME}:${registry.port}`;
          const script = [
            "set -e",
            `npm install --no-audit --no-fund --no-update-notifier --registry http://${endpoint}/ ${PACKAGE}`,
            `node -e "if (require('${PACKAGE}') !== 42) process.exit(9)"`,
            "",
          ].join("\n");
          const a = await adoptThroughAction({
            name: "npm-install",
            bundle: bundle as string,
            env: { CI: "true" },
            command: ["bash", "suite.sh"],
            // npm reads these; none is proposed (credential carriers, program control, machine
            // identity): the reviewer adds them from the PR's "Not proposed" table.
            addByHand: [
              "GIT_ASKPASS",
              "GIT_SSH_COMMAND",
              "RUNNER_ENVIRONMENT",
              "npm_config_globalconfig",
              "npm_config_userconfig",
              // npm exports these for its children and reads them back: the registry asked for, its node-gyp.
              "npm_config_registry",
              "npm_config_node_gyp",
              // Where the machine's npmrc names a CA file (this machine's global one does; a hosted runner's not).
              ...(npmConfigSet("cafile") ? ["npm_config_cafile"] : []),
            ],
            prepare: (w) => {
              writeFileSync(join(w, "package.json"), JSON.stringify({ name: "widgets", version: "1.0.0", private: true }, null, 2) + "\n");
              writeFileSync(join(w, "suite.sh"), script);
            },
            hostile: (w) => {
              appendFileSync(
                join(w, "suite.sh"),
                `node -e "fetch('http://${OTHER_NAME}:${registry.port}/').then((r) => console.log(r.status), (e) => console.log(String(e)))"\n`,
              );
              return {
                what: `suite.sh also fetches http://${OTHER_NAME}:${registry.port}/`,
                violation: `undeclared_host:${OTHER_NAME}:${registry.port}`,
              };
            },
          });
          if (OUT !== undefined) appendFileSync(OUT, JSON.stringify(measure(a)) + "\n");
          const first = a.rounds[0] as AdoptionRound;
          // The audit runs reached the registry (let out, recorded): under the starter's deny, a violation.
          for (const v of first.auditViolations) expect(v).toContain(`network_denied:${endpoint}`);
          expect(registry.seen.some((s) => s.startsWith(`GET ${endpoint} /${PACKAGE}-`) || s === `GET ${endpoint} /${PACKAGE}`)).toBe(true);
          expect(first.added.allowed_hosts).toEqual([endpoint]);
          expect(first.network).toBe("allowlist");
          assertAdopted(a, 1);
          const envelope = JSON.parse(a.envelopeText) as Record<string, unknown>;
          expect(envelope.allowed_hosts).toEqual([endpoint]);
          expect(envelope.network).toBe("allowlist");
          // The enforced run installed the package through the proxy: its workspace has it.
          const enforced = first.enforced;
          expect(readFileSync(join(enforced.workspace, "node_modules", PACKAGE, "index.js"), "utf8")).toBe("module.exports = 42;\n");
          // The twin's request to the other name was refused by the proxy: the registry never saw it.
          expect(registry.seen.some((s) => s.includes(OTHER_NAME))).toBe(false);
        } finally {
          await registry.close();
        }
      },
    );
  },
);
