#!/usr/bin/env node
// Load bench for the companion App: a burst of signed webhook deliveries over 50 keep-alive
// connections to one App process on SQLite, and to two App processes sharing PostgreSQL.
// 10% of the deliveries are redeliveries of an earlier id (sent to the other replica on
// PostgreSQL). Prints a markdown section; figures are ratios against a baseline HTTP server
// (same machine, same run) that only checks the HMAC signature and answers 200.
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnApp } from "./support/app-process.mjs";
import { deliverSigned } from "./support/webhook.mjs";

const require = createRequire(import.meta.url);
const TOTAL = Number(process.env.BENCH_APP_DELIVERIES ?? 2000);
const CONNECTIONS = 50;
const REDELIVERY_SHARE = 0.1;
const SECRET = "bench-webhook-secret-0123456789";
const PG_URL = process.env.DATABASE_URL_TEST ?? "postgres://postgres@127.0.0.1:5432/test";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString();

function payload(i) {
  return JSON.stringify({
    action: "completed",
    installation: { id: 1000 + (i % 20), account: { login: `org-${i % 20}` } },
    repository: {
      full_name: `org-${i % 20}/repo-${i % 7}`,
      name: `repo-${i % 7}`,
      owner: { login: `org-${i % 20}` },
      default_branch: "main",
    },
    workflow_run: {
      id: 500000 + i,
      run_attempt: 1,
      path: ".github/workflows/envelope-gate.yml",
      event: "pull_request",
      status: "completed",
      conclusion: "success",
      head_sha: i.toString(16).padStart(40, "0"),
      // Pull request numbers start at 1 (a 0 is a payload GitHub could not send: 400 WEBHOOK_PAYLOAD_INVALID).
      pull_requests: [{ number: i + 1, base: { ref: "main" } }],
    },
  });
}

/** The deliveries: TOTAL requests, of which a share re-send an earlier id. */
function plan() {
  const unique = Math.round(TOTAL * (1 - REDELIVERY_SHARE));
  const items = [];
  for (let i = 0; i < unique; i++) items.push({ id: randomUUID(), body: payload(i), redelivery: false });
  for (let k = 0; items.length < TOTAL; k++) {
    const original = items[(k * 7) % unique];
    items.push({ id: original.id, body: original.body, redelivery: true });
  }
  // Interleave so redeliveries race their originals.
  for (let i = items.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function startApp(env) {
  return spawnApp(env).then(({ url, child }) => ({
    url,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("close", r), child.kill("SIGTERM")))),
  }));
}

function baselineServer() {
  const code = `
    const http = require("node:http"); const { createHmac, timingSafeEqual } = require("node:crypto");
    const s = http.createServer((req, res) => { const chunks = []; req.on("data", (c) => chunks.push(c)); req.on("end", () => {
      const body = Buffer.concat(chunks); const want = createHmac("sha256", ${JSON.stringify(SECRET)}).update(body).digest();
      const got = Buffer.from(String(req.headers["x-hub-signature-256"] || "").slice(7), "hex");
      const ok = got.length === 32 && timingSafeEqual(want, got); JSON.parse(body.toString());
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" }); res.end('{"status":"done"}'); }); });
    s.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + s.address().port + " "));
    process.on("SIGTERM", () => s.close(() => process.exit(0)));`;
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (d) => {
      const m = /listening on (http:\/\/\S+) /.exec(String(d));
      if (m) done({ url: m[1], stop: () => new Promise((r) => (child.once("close", r), child.kill("SIGTERM"))) });
    });
    child.on("error", reject);
  });
}

/** Sends every item over CONNECTIONS keep-alive connections; item k goes to urls[k % urls.length] (redeliveries to the next one). */
async function burst(urls, items) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const send = async (url, item) => {
    const started = process.hrtime.bigint();
    const kind = await deliverSigned(url, item, SECRET, agent);
    if (kind !== "connection error") latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < items.length) {
        const k = next++;
        const item = items[k];
        await send(urls[(k + (item.redelivery ? 1 : 0)) % urls.length], item);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { throughput: items.length / seconds, p50: pct(50), p99: pct(99), statuses };
}

/** The answer comes before the work: waits (bounded) until the store has no delivery left to do. */
async function workDone(notDone) {
  for (let i = 0; i < 600 && (await notDone()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
}

/** Exactly-once accounting from the store: lost = sent ids not done; duplicates = extra executions. */
async function account(rowsPromise, items) {
  const rows = await rowsPromise;
  const byId = new Map(rows.map((r) => [r.delivery_id, r]));
  const ids = new Set(items.map((i) => i.id));
  let lost = 0;
  let duplicates = 0;
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.state !== "done") lost++;
    else duplicates += Math.max(0, Number(row.attempts) - Number(row.failures) - 1);
  }
  return { lost, duplicates, unique: ids.size };
}

function appEnv(extra) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? "/tmp",
    ENVELOPE_GATE_APP_ID: "1",
    ENVELOPE_GATE_PRIVATE_KEY: PEM,
    ENVELOPE_GATE_WEBHOOK_SECRET: SECRET,
    ENVELOPE_GATE_GITHUB_API_URL: "http://127.0.0.1:9",
    ENVELOPE_GATE_PORT: "0",
    ENVELOPE_GATE_SWEEP_SECONDS: "3600",
    ...extra,
  };
}

const rows = [];
const notes = [];

const baseline = await baselineServer();
const baseItems = plan();
const base = await burst([baseline.url], baseItems);
await baseline.stop();
rows.push({ setup: "baseline: HMAC check + 200, no store (1 process)", ...base, duplicates: "n/a", lost: "n/a" });

// One App on SQLite.
const dir = mkdtempSync(join(tmpdir(), "eg-bench-app-"));
const dbPath = join(dir, "app.sqlite");
{
  const app = await startApp(appEnv({ ENVELOPE_GATE_DB_PATH: dbPath, ENVELOPE_GATE_REPLICA_ID: "sqlite-1" }));
  const items = plan();
  const r = await burst([app.url], items);
  const Database = require("better-sqlite3");
  const watch = new Database(dbPath, { readonly: true });
  await workDone(() => Number(watch.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE state <> 'done'").get().n));
  watch.close();
  await app.stop();
  const db = new Database(dbPath, { readonly: true });
  const acc = await account(Promise.resolve(db.prepare("SELECT delivery_id, state, attempts, failures FROM deliveries").all()), items);
  db.close();
  rows.push({ setup: "1 App process, SQLite (WAL)", ...r, ...acc });
}
rmSync(dir, { recursive: true, force: true });

// Two Apps sharing PostgreSQL.
const pg = require("pg");
const schema = `eg_bench_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: PG_URL });
try {
  await admin.connect();
  const env = (id) => appEnv({ DATABASE_URL: PG_URL, ENVELOPE_GATE_PG_SCHEMA: schema, ENVELOPE_GATE_REPLICA_ID: id });
  const apps = await Promise.all([startApp(env("pg-1")), startApp(env("pg-2"))]);
  const items = plan();
  const r = await burst(
    apps.map((a) => a.url),
    items,
  );
  await workDone(async () => Number((await admin.query(`SELECT COUNT(*) AS n FROM ${schema}.deliveries WHERE state <> 'done'`)).rows[0].n));
  await Promise.all(apps.map((a) => a.stop()));
  const acc = await account(
    admin.query(`SELECT delivery_id, state, attempts, failures FROM ${schema}.deliveries`).then((x) => x.rows),
    items,
  );
  rows.push({ setup: "2 App processes, one PostgreSQL", ...r, ...acc });
} catch (err) {
  notes.push(`PostgreSQL run skipped: ${err.message}`);
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  await admin.end().catch(() => {});
}

const fmt = (n, d = 0) => (typeof n === "number" ? n.toFixed(d) : n);
const lines = [
  "## App: webhook delivery burst",
  "",
  `${TOTAL} signed \`workflow_run\` deliveries (${Math.round(REDELIVERY_SHARE * 100)}% of them redeliveries of an earlier delivery id, racing the original) over ${CONNECTIONS} keep-alive connections, on this machine (${require("node:os").cpus().length} cores). Duplicates and lost deliveries are counted from the store afterwards: *lost* is a sent id not recorded \`done\`; *duplicates* is work executed more than once for one id.`,
  "",
  "| setup | throughput (deliveries/s) | vs baseline | p50 ms | p99 ms | answered | duplicates | lost |",
  "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.setup} | ${fmt(r.throughput)} | ${fmt(r.throughput / base.throughput, 2)}× | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${[...r.statuses].map(([k, v]) => `${k} ${v}`).join(", ")} | ${r.duplicates} | ${r.lost} |`,
  ),
  "",
  "The request path holds one store statement: the one-statement claim (insert with the payload, or take over a failed, queued or orphaned delivery), or, with every worker busy, the insert as `queued`; then the answer, 202 `queued`. The work runs after it, in the process's workers (the kill switch read, the installation insert-if-absent and its mode read, the conditional update to `done`); the burst's figures are the answers, and *lost* is counted once the store has no delivery left to do. A redelivery racing its original while it runs is answered 202 `in_progress`, and one after it is done 200 `duplicate` (counted under *answered*); the event itself is ignored here (a successful run: no GitHub call), so the figures are the webhook path's floor. SQLite serialises the writes of one process (WAL, synchronous driver on the event loop); PostgreSQL adds a network round trip per statement but lets two replicas share the work. Signature checking is the baseline's whole cost and a small part of the App's. The load generator runs on the same two cores as the servers, so absolute figures understate a dedicated host; the ratios are what to compare.",
  ...notes.map((n) => `\n${n}`),
  "",
];
process.stdout.write(lines.join("\n"));
const bad = rows.filter((r) => typeof r.duplicates === "number" && (r.duplicates > 0 || r.lost > 0));
if (bad.length > 0) {
  process.stderr.write(`app bench: duplicates or lost deliveries in ${bad.map((r) => r.setup).join(", ")}\n`);
  process.exitCode = 1;
}
