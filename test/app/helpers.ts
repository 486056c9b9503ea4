import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, Socket, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import pg from "pg";
import { budgetPolicyFromEnv, redeliveryPolicyFromEnv, type AppConfig } from "../../src/app/config.js";
import { startApp, type RunningApp } from "../../src/app/start.js";
import { inlineSecret } from "../../src/app/secrets.js";
import { signPayload } from "../../src/app/server.js";
import type { Clock } from "../../src/app/context.js";
import { buildManifest, encodeJson } from "../../src/core/evidence.js";
import { startFakeGitHub, type FakeGitHub, type FakePull, type FakeWorkflowRun } from "../support/fake-github.js";
import { checkWebhook, webhookName } from "../support/openapi.js";
import { workflowRunWebhook } from "../support/webhooks.js";
import {
  bundleFiles,
  generateAppKeys,
  installAppRoutes,
  type AppKeys,
  type BundleSpec,
  type DispatchMode,
} from "../support/fake-github-app.js";
import { DIGEST_PATH, EMPTY_LEDGER, LEDGER_PATH, REPO } from "../support/fixtures.js";

export const SECRET = "test-webhook-secret-0123456789";
export const APP_ID = "4242";
export const INSTALLATION = 77;
export { EMPTY_LEDGER, LEDGER_PATH, REPO };
export const ENVELOPE_HASH = `sha256:${"ab".repeat(32)}`;
export const HEAD_SHA = "c0ffee".padEnd(40, "0");
export const ENVELOPE_DIGEST_PATH = DIGEST_PATH;
export const PG_URL = process.env.DATABASE_URL_TEST ?? "postgres://postgres@127.0.0.1:5432/test";

export const silent = () => {};

export class TestClock implements Clock {
  constructor(public t = Date.parse("2026-11-30T08:00:00Z")) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

let keys: AppKeys | null = null;
export function appKeys(): AppKeys {
  keys ??= generateAppKeys();
  return keys;
}

export function tempDir(prefix = "eg-app-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function baseConfig(fake: FakeGitHub, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    production: false,
    host: "127.0.0.1",
    port: 0,
    appId: APP_ID,
    privateKey: inlineSecret("private-key", "ENVELOPE_GATE_PRIVATE_KEY", appKeys().privateKeyPem),
    webhookSecrets: inlineSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET", SECRET),
    githubApiUrl: fake.url,
    store: { sqlitePath: join(tempDir(), "app.sqlite") },
    workflow: "envelope-gate.yml",
    checkName: "envelope-gate",
    verifiedCheckName: "envelope-gate / verified",
    envelopeDigestPath: ENVELOPE_DIGEST_PATH,
    envelopePath: ".github/envelope-gate/envelope.json",
    orgEnvelopePath: "envelope-gate/org-envelope.json",
    orgEnvelopeRequired: false,
    auditRuns: 3,
    runnerBLabels: ["self-hosted", "runner-b"],
    deadlineMs: 60 * 60_000,
    freezeTtlDays: 7,
    freezeTtlCapDays: 14,
    ledgerPath: LEDGER_PATH,
    reviewers: ["alice"],
    teamReviewers: [],
    agentLabel: "agent-authored",
    reviewAlertMs: 48 * 3_600_000,
    sweepIntervalMs: 3_600_000,
    leaseMs: 300_000,
    heartbeatMs: 5_000,
    heartbeatStaleMs: 30_000,
    drainMs: 8_000,
    replicaId: `test-${randomUUID().slice(0, 8)}`,
    githubRetries: 0,
    githubThrottle: false,
    // The App's default: on a busy machine the fake's first answers (each checked against GitHub's
    // API description) can take seconds; tests of a slow GitHub set their own.
    githubTimeoutMs: 30_000,
    maxConnections: 256,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    budget: budgetPolicyFromEnv({}),
    workers: 16,
    redelivery: redeliveryPolicyFromEnv({}),
    logLevel: "info",
    ...overrides,
  };
}

/** The environment for an App process equivalent to `baseConfig`. */
export function processEnv(fake: FakeGitHub | { url: string }, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
  Object.assign(env, {
    ENVELOPE_GATE_APP_ID: APP_ID,
    ENVELOPE_GATE_PRIVATE_KEY: appKeys().privateKeyPem,
    ENVELOPE_GATE_WEBHOOK_SECRET: SECRET,
    ENVELOPE_GATE_GITHUB_API_URL: fake.url,
    ENVELOPE_GATE_PORT: "0",
    ENVELOPE_GATE_REVIEWERS: "alice",
    ENVELOPE_GATE_GITHUB_RETRIES: "0",
    ENVELOPE_GATE_GITHUB_THROTTLE: "off",
    ENVELOPE_GATE_SWEEP_SECONDS: "3600",
    ...extra,
  });
  return env;
}

export interface World {
  fake: FakeGitHub;
  dispatchMode: DispatchMode;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const GATE_WORKFLOW_PATH = ".github/workflows/envelope-gate.yml";
/** The base's gate workflow: the Action pinned from its own repository (no local `uses:`). */
export const GATE_WORKFLOW = `name: envelope-gate
run-name: \${{ inputs.dual_run_id && format('envelope-gate runner B {0}', inputs.dual_run_id) || 'envelope-gate' }}
on:
  pull_request:
  workflow_dispatch:
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: gate
        uses: envelope-gate/envelope-gate@v1
`;

export async function startWorld(dispatchMode: DispatchMode = "run_details"): Promise<World> {
  const fake = await startFakeGitHub();
  const install = () => installAppRoutes(fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, dispatchMode });
  install();
  fake.addRepo(REPO);
  fake.commit(
    REPO,
    {
      "README.md": "widgets\n",
      [LEDGER_PATH]: EMPTY_LEDGER,
      [GATE_WORKFLOW_PATH]: GATE_WORKFLOW,
      [ENVELOPE_DIGEST_PATH]: `${ENVELOPE_HASH.slice("sha256:".length)}  envelope.json\n`,
    },
    { branch: "main", message: "init" },
  );
  fake.repo(REPO).collaborators.set("alice", "write");
  return {
    fake,
    dispatchMode,
    async restart() {
      const port = Number(new URL(fake.url).port);
      await fake.start(port);
      install();
    },
    close: () => fake.close(),
  };
}

/**
 * A commit whose sha is `sha` (tests name head commits by fixed shas): the parent's files with
 * `files` applied, on `branch`.
 */
export function commitAs(fake: FakeGitHub, sha: string, files: Record<string, string | null>, parent: string, branch?: string): string {
  const repo = fake.repo(REPO);
  const made = fake.commit(REPO, files, { parent, message: `commit ${sha.slice(0, 8)}` });
  const commit = repo.commits.get(made)!;
  repo.commits.delete(made);
  repo.commits.set(sha, { ...commit, sha });
  if (branch) repo.refs.set(`heads/${branch}`, sha);
  return sha;
}

/**
 * The open pull request whose head is `headSha` (into main), made on first use: HEAD_SHA is
 * pull request #7 on `agent/patch-1`; another sha gets its own branch and number. Its head
 * commit is main's files plus a patch, with `files` applied (a test that edits the workflow).
 */
export function pullAt(fake: FakeGitHub, headSha: string, files: Record<string, string | null> = {}): FakePull {
  const repo = fake.repo(REPO);
  const existing = [...repo.pulls.values()].find((p) => p.head.sha === headSha);
  if (existing) return existing;
  const base = repo.refs.get("heads/main")!;
  const branch = headSha === HEAD_SHA ? "agent/patch-1" : `agent/patch-${headSha.slice(0, 8)}`;
  commitAs(fake, headSha, { "src/patch.ts": `export const patch = "${headSha.slice(0, 8)}";\n`, ...files }, base, branch);
  const number = headSha === HEAD_SHA ? 7 : Math.max(100, ...repo.pulls.keys()) + 1;
  return fake.addPull(REPO, {
    number,
    base: { ref: "main", sha: base },
    head: { ref: branch, sha: headSha },
    user: { login: "agent-bot[bot]", type: "Bot" },
  });
}

/** The ledger PRs the App opened (the gated pull requests are in the fake too). */
export function ledgerPulls(fake: FakeGitHub): FakePull[] {
  return [...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"));
}

/** Runner A's completed run with its evidence artifact, on its pull request's head (made if missing); returns the run. */
export function addRunA(
  fake: FakeGitHub,
  spec: Partial<BundleSpec> & { properties: BundleSpec["properties"] },
  options: { conclusion?: string; headSha?: string } = {},
): FakeWorkflowRun {
  const pull = pullAt(fake, options.headSha ?? HEAD_SHA);
  // What the Action records: the pull request's base branch at its current commit.
  const base = { baseRef: pull.base.ref, baseSha: fake.repo(REPO).refs.get(`heads/${pull.base.ref}`) ?? null };
  const run = fake.addWorkflowRun(REPO, {
    head_sha: options.headSha ?? HEAD_SHA,
    head_branch: pull.head.ref,
    event: "pull_request",
    status: "completed",
    conclusion: options.conclusion ?? "failure",
  });
  fake.addArtifact(REPO, {
    run_id: run.id,
    name: "envelope-gate-evidence",
    files: bundleFiles({
      machineId: "machine-aaaa1111",
      headSha: options.headSha ?? HEAD_SHA,
      envelopeHash: ENVELOPE_HASH,
      repository: REPO,
      workflowRunId: run.id,
      ...base,
      ...spec,
    }),
  });
  return run;
}

/** Completes runner B's dispatched run with a bundle made in the pinned format. */
export function completeRunB(
  fake: FakeGitHub,
  run: FakeWorkflowRun,
  spec: Partial<BundleSpec> & { properties: BundleSpec["properties"] },
  conclusion = "success",
): void {
  fake.addArtifact(REPO, {
    run_id: run.id,
    name: "envelope-gate-evidence",
    files: bundleFiles({
      machineId: "machine-bbbb2222",
      headSha: run.inputs?.head_sha ?? HEAD_SHA,
      envelopeHash: ENVELOPE_HASH,
      repository: REPO,
      workflowRunId: run.id,
      dualRunId: run.inputs?.dual_run_id ?? "",
      ...spec,
    }),
  });
  run.status = "completed";
  run.conclusion = conclusion;
}

/** A `workflow_run` `completed` delivery as GitHub sends it (installation is `{id, node_id}` only). */
export function workflowRunPayload(fake: FakeGitHub, run: FakeWorkflowRun, pullNumber: number | null = 7): Record<string, unknown> {
  const pulls = run.event === "workflow_dispatch" || pullNumber === null ? [] : [{ number: pullNumber, base: "main" }];
  return workflowRunWebhook(fake, fake.repo(REPO), run, INSTALLATION, pulls);
}

export interface WebhookResponse {
  status: number;
  body: Record<string, unknown>;
}

export async function deliver(
  appUrl: string,
  event: string,
  payload: unknown,
  options: { delivery?: string; secret?: string; signature?: string } = {},
): Promise<WebhookResponse> {
  // Every payload a test sends is one GitHub could send: held to @octokit/openapi-webhooks.
  const problems = checkWebhook(event, payload);
  if (problems.length > 0)
    throw new Error(
      `webhook ${webhookName(event, payload)} departs from GitHub's description:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
  const body = JSON.stringify(payload);
  const res = await fetch(`${appUrl}/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": options.delivery ?? randomUUID(),
      "x-hub-signature-256": options.signature ?? signPayload(options.secret ?? SECRET, body),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What became of a delivery, as GET /status/deliveries/<id>.json reports it. */
export interface DeliveryState {
  state: "processing" | "queued" | "done" | "failed";
  outcome: string | null;
  code: string | null;
  message: string | null;
  attempts: number;
  failures: number;
}

/** The answer GitHub got, and what became of the work afterwards. */
export interface Settled extends DeliveryState {
  answer: WebhookResponse;
  delivery: string;
}

/**
 * A GET of the App's read-only status. A keep-alive connection the server closed as the request
 * went out ("other side closed", a reset) is the client's to retry, as any HTTP client retries an
 * idempotent request; an answer, whatever its status, is never retried.
 */
async function readStatus(url: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      if (attempt >= 3 || (cause !== "UND_ERR_SOCKET" && cause !== "ECONNRESET")) throw err;
    }
  }
}

/** Reads one delivery's recorded state from the App; null when nothing is recorded. */
export async function deliveryState(appUrl: string, delivery: string): Promise<DeliveryState | null> {
  const res = await readStatus(`${appUrl}/status/deliveries/${encodeURIComponent(delivery)}.json`);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Error(`delivery ${delivery}: status answered ${res.status} ${await res.text()}`);
  return (await res.json()) as DeliveryState;
}

/**
 * Waits until a delivery's work settled: done, failed, or queued after an attempt (a pause, a
 * transient failure, a drain). Polls the App's read-only delivery status; no wall-time assertion.
 */
export async function settledState(appUrl: string, delivery: string, timeoutMs = 60_000): Promise<DeliveryState | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await deliveryState(appUrl, delivery);
    const settled = state !== null && state.state !== "processing" && !(state.state === "queued" && state.code === null);
    if (settled || Date.now() > until) return state;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Delivers a webhook and waits for its work: the answer must be a 2xx (the App answers before it
 * works); the settled state is returned beside it.
 */
export async function deliverAndWait(
  appUrl: string,
  event: string,
  payload: unknown,
  options: { delivery?: string; secret?: string; signature?: string } = {},
): Promise<Settled> {
  const delivery = options.delivery ?? randomUUID();
  const answer = await deliver(appUrl, event, payload, { ...options, delivery });
  if (answer.status !== 200 && answer.status !== 202) {
    throw new Error(`delivery ${delivery} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  const state = await settledState(appUrl, delivery);
  if (state === null) throw new Error(`delivery ${delivery} answered ${answer.status} but nothing is recorded`);
  return { ...state, answer, delivery };
}

export async function startTestApp(fake: FakeGitHub, clock: Clock, overrides: Partial<AppConfig> = {}): Promise<RunningApp> {
  return startApp(baseConfig(fake, overrides), { clock, log: silent, sweeper: false, retryAfterMs: 1 });
}

/** An App on an SQLite file, with a second connection to the same file (another writer, or a hand on its rows). */
export async function withSqliteApp(fn: (app: RunningApp, other: Database.Database) => Promise<void>): Promise<void> {
  const world = await startWorld();
  const dbPath = join(tempDir(), "app.sqlite");
  const app = await startTestApp(world.fake, new TestClock(), { store: { sqlitePath: dbPath } });
  const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
  const other = new Sqlite(dbPath);
  try {
    await fn(app, other);
  } finally {
    other.close();
    await app.close();
    await world.close();
  }
}

/** A fresh PostgreSQL schema for one test file; drop it with the returned function. */
export async function pgSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `eg_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export function dispatchedRuns(fake: FakeGitHub): FakeWorkflowRun[] {
  return fake.repo(REPO).workflowRuns.filter((r) => r.event === "workflow_dispatch");
}

/**
 * A TCP proxy to PostgreSQL that the test can cut, making the database really unreachable
 * (connections reset, the port closed), and restore on the same port.
 */
export async function pgProxy(
  options: { cutWhen?: (clientBytes: string) => boolean } = {},
): Promise<{ url: string; cut: () => Promise<void>; restore: () => Promise<void>; cutCount: () => number }> {
  const sockets = new Set<Socket>();
  let cuts = 0;
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    upstream.connect(5432, "127.0.0.1");
    if (options.cutWhen) {
      // Mid-statement: the client's bytes that match never reach the server, and the connection dies.
      const cutWhen = options.cutWhen;
      client.on("data", (chunk: Buffer) => {
        if (cutWhen(chunk.toString("latin1"))) {
          cuts++;
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
    } else {
      client.pipe(upstream).pipe(client);
    }
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => sockets.delete(client));
    upstream.on("close", () => sockets.delete(upstream));
  });
  const listen = (port: number) => new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    cutCount: () => cuts,
    cut: async () => {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: () => listen(port),
  };
}

/** An audit run's evidence bundle as the Action's `mode: audit` uploads it (`mode` null: none in runner.json). */
export function auditBundleFiles(spec: {
  runId: number;
  headSha: string;
  log: string;
  envelope: { envelope_id: string };
  envelopeHash: string;
  mode?: string | null;
}): Record<string, Uint8Array> {
  const mode = spec.mode === undefined ? "audit" : spec.mode;
  const runner = {
    runner_name: "GitHub Actions 2",
    machine_id: "machine-aaaa1111",
    os: "linux",
    arch: "x64",
    cpus: 2,
    cpu_model: "Test CPU",
    locale: "C.UTF-8",
    timezone: "UTC",
    run_id: String(spec.runId),
    run_attempt: "1",
    workflow_run_id: String(spec.runId),
    repository: REPO,
    head_sha: spec.headSha,
    pull_number: null,
    dual_run_id: null,
    envelope_hash: spec.envelopeHash,
    envelope_id: spec.envelope.envelope_id,
    ...(mode === null ? {} : { mode }),
  };
  const files = new Map<string, Uint8Array>([
    ["observer.jsonl", new TextEncoder().encode(spec.log)],
    ["runner.json", encodeJson(runner)],
    [
      "verdict.json",
      encodeJson({
        verdict: "envelope_fail",
        envelope_id: spec.envelope.envelope_id,
        envelope_hash: spec.envelopeHash,
        events: 3,
        violations: [],
        error: null,
        log: null,
      }),
    ],
    ["suggested-envelope.json", encodeJson(spec.envelope)],
  ]);
  const built = buildManifest(files);
  return { ...Object.fromEntries(files), "manifest.json": built.bytes, "manifest.json.sha256": new TextEncoder().encode(built.digestLine) };
}
