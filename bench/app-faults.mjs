#!/usr/bin/env node
// Fault bench for the companion App: two App processes on one PostgreSQL, signed deliveries
// (10% redeliveries of an earlier id), replicas killed with SIGKILL and restarted at random during
// the load, and one replica's store connection cut once (a TCP proxy that resets its connections
// and closes its port for a while). Anything not answered 200 (a connection that died with its
// process, 409 DELIVERY_IN_PROGRESS, 503) is delivered again, as GitHub's redelivery would.
//
// The work of each delivery is real: a failing gate run's `workflow_run` makes the App fetch an
// installation token and list the run's artifacts from a GitHub stand-in (which has none, so the
// App records "no freeze without evidence"). Each App process talks to GitHub under its own URL
// prefix, so every execution of a delivery's work is seen with the process that ran it.
//   lost:       a sent delivery id not recorded `done` in the store at the end;
//   duplicated: a delivery's work executed again while the process that executed it before was
//               alive and connected to the store (two live executors: what the claims prevent);
//   re-executed after a crash or the cut: executed again after its earlier executor was killed
//               or lost its store before recording the outcome (the takeover doing its job).
import { generateKeyPairSync, randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { createRequire } from "node:module";
import { spawnApp } from "./support/app-process.mjs";
import { deliverSigned } from "./support/webhook.mjs";

const require = createRequire(import.meta.url);
const TOTAL = Number(process.env.BENCH_FAULT_DELIVERIES ?? 2000);
const KILLS = Number(process.env.BENCH_FAULT_KILLS ?? 8);
const CONNECTIONS = 20;
const REDELIVERY_SHARE = 0.1;
const SECRET = "bench-webhook-secret-0123456789";
const PG_URL = process.env.DATABASE_URL_TEST ?? "postgres://postgres@127.0.0.1:5432/test";
const PG_PORT = Number(new URL(PG_URL).port || 5432);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString();

// Deterministic choices (kills, targets), so runs are comparable.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function payload(i) {
  const n = i % 20;
  return JSON.stringify({
    action: "completed",
    installation: { id: 1000 + n },
    repository: { full_name: `org-${n}/repo`, name: "repo", owner: { login: `org-${n}` }, default_branch: "main" },
    workflow_run: {
      id: 700000 + i,
      run_attempt: 1,
      path: ".github/workflows/envelope-gate.yml",
      event: "pull_request",
      status: "completed",
      conclusion: "failure",
      head_sha: i.toString(16).padStart(40, "0"),
      head_branch: "agent/patch",
      pull_requests: [],
    },
  });
}

function plan() {
  const unique = Math.round(TOTAL * (1 - REDELIVERY_SHARE));
  const items = [];
  for (let i = 0; i < unique; i++) items.push({ id: randomUUID(), run: 700000 + i, body: payload(i) });
  for (let k = 0; items.length < TOTAL; k++) items.push({ ...items[(k * 7) % unique] });
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** GitHub's stand-in: tokens, and an empty artifact list per run, logged with the process that asked. */
function gitHub() {
  const executions = []; // { proc, run, at }
  const server = http.createServer((req, res) => {
    const m = /^\/p\/(\d+)(\/.*)$/.exec(req.url ?? "");
    req.resume();
    const answer = (status, body) => {
      res.writeHead(status, { "content-type": "application/json", "x-ratelimit-remaining": "4999", "x-ratelimit-limit": "5000" });
      res.end(JSON.stringify(body));
    };
    if (!m) return answer(404, { message: "Not Found" });
    const [, proc, path] = m;
    if (req.method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
      return answer(201, { token: `ghs_${proc}_${randomUUID()}`, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    }
    const run = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts/.exec(path);
    if (req.method === "GET" && run) {
      executions.push({ proc: Number(proc), run: Number(run[1]), at: Date.now() });
      return answer(200, { total_count: 0, artifacts: [] });
    }
    return answer(404, { message: "Not Found" });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({ url: `http://127.0.0.1:${server.address().port}`, executions, close: () => server.close() }),
    ),
  );
}

/** A TCP proxy to PostgreSQL that can be cut (connections reset, port closed) and restored. */
async function pgProxy() {
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(PG_PORT, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port) => new Promise((r) => server.listen(port, "127.0.0.1", r));
  await listen(0);
  const port = server.address().port;
  return {
    url: PG_URL.replace(/@[^/]+\//, `@127.0.0.1:${port}/`),
    cut: () => {
      const closed = new Promise((r) => server.close(r));
      for (const s of sockets) s.destroy();
      return closed;
    },
    restore: () => listen(port),
  };
}

let procCounter = 0;
function startApp(github, replica, databaseUrl, schema) {
  const proc = ++procCounter;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? "/tmp",
    ENVELOPE_GATE_APP_ID: "1",
    ENVELOPE_GATE_PRIVATE_KEY: PEM,
    ENVELOPE_GATE_WEBHOOK_SECRET: SECRET,
    ENVELOPE_GATE_GITHUB_API_URL: `${github.url}/p/${proc}`,
    ENVELOPE_GATE_GITHUB_RETRIES: "0",
    ENVELOPE_GATE_GITHUB_THROTTLE: "off",
    ENVELOPE_GATE_PORT: "0",
    ENVELOPE_GATE_SWEEP_SECONDS: "1",
    ENVELOPE_GATE_HEARTBEAT_SECONDS: "1",
    ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "3",
    ENVELOPE_GATE_REPLICA_ID: replica,
    // This bench kills replicas on purpose, more often than the App's crash-loop bound allows.
    ENVELOPE_GATE_CRASH_LIMIT: "1000",
    DATABASE_URL: databaseUrl,
    ENVELOPE_GATE_PG_SCHEMA: schema,
  };
  return spawnApp(env).then(({ url, child }) => ({ proc, replica, url, child, alive: true }));
}

const github = await gitHub();
const pg = require("pg");
const schema = `eg_faults_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
const proxy = await pgProxy();
const urls = { "replica-1": PG_URL, "replica-2": proxy.url };
const killedAt = new Map(); // proc -> time of SIGKILL
const cut = { proc: 0, from: 0, to: 0 };
const answers = new Map();
const count = (k) => answers.set(k, (answers.get(k) ?? 0) + 1);
let replicas = [];
let exitCode = 0;
try {
  replicas = await Promise.all(Object.entries(urls).map(([id, url]) => startApp(github, id, url, schema)));
  const items = plan();
  const queue = items.map((item) => ({ item, tries: 0 }));
  let pending = queue.length;
  let sent = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const started = Date.now();

  const sender = async () => {
    while (pending > 0) {
      const job = queue.shift();
      if (!job) {
        await sleep(20);
        continue;
      }
      const alive = replicas.filter((r) => r.alive);
      if (alive.length === 0) {
        queue.push(job);
        await sleep(50);
        continue;
      }
      const target = alive[Math.floor(random() * alive.length)];
      sent++;
      const kind = await deliverSigned(target.url, job.item, SECRET, agent);
      count(kind);
      if (kind === "done" || kind === "duplicate") pending--;
      else if (++job.tries > 500) {
        pending--;
        job.item.gaveUp = true;
      } else setTimeout(() => queue.push(job), 100); // GitHub's redelivery, a moment later
    }
  };

  let kills = 0;
  const chaos = async () => {
    await sleep(400);
    while (pending > 0 && kills < KILLS) {
      const victim = replicas[Math.floor(random() * replicas.length)];
      if (victim.alive) {
        victim.alive = false;
        killedAt.set(victim.proc, Date.now());
        victim.child.kill("SIGKILL");
        kills++;
        await sleep(100 + random() * 300);
        const fresh = await startApp(github, victim.replica, urls[victim.replica], schema);
        replicas = replicas.map((r) => (r === victim ? fresh : r));
      }
      await sleep(300 + random() * 600);
      if (kills === Math.floor(KILLS / 2) && cut.from === 0) {
        const holder = replicas.find((r) => r.replica === "replica-2");
        cut.proc = holder.proc;
        cut.from = Date.now();
        await proxy.cut();
        await sleep(1000);
        await proxy.restore();
        cut.to = Date.now();
      }
    }
  };

  await Promise.all([...Array.from({ length: CONNECTIONS }, sender), chaos()]);
  agent.destroy();
  // Whatever is still queued or orphaned is the sweepers' (every second); wait for them.
  let notDone = 0;
  for (let i = 0; i < 60; i++) {
    const r = await admin.query(`SELECT COUNT(*) AS n FROM ${schema}.deliveries WHERE state <> 'done'`);
    notDone = Number(r.rows[0].n);
    if (notDone === 0) break;
    await sleep(500);
  }
  const seconds = (Date.now() - started) / 1000;

  const rows = (await admin.query(`SELECT delivery_id, state, attempts FROM ${schema}.deliveries`)).rows;
  const byId = new Map(rows.map((r) => [r.delivery_id, r]));
  const ids = new Map(items.map((i) => [i.id, i.run]));
  let lost = 0;
  for (const id of ids.keys()) if (byId.get(id)?.state !== "done") lost++;

  // Executions per run, in order; classify every repeat.
  const perRun = new Map();
  for (const e of github.executions) perRun.set(e.run, [...(perRun.get(e.run) ?? []), e]);
  let duplicated = 0;
  let reExecuted = 0;
  let neverExecuted = 0;
  for (const run of new Set(ids.values())) {
    const runs = perRun.get(run) ?? [];
    if (runs.length === 0) neverExecuted++;
    for (let k = 1; k < runs.length; k++) {
      const before = runs[k - 1];
      const died = killedAt.has(before.proc) && killedAt.get(before.proc) <= runs[k].at;
      const lostStore = before.proc === cut.proc && cut.from - 2000 <= before.at && before.at <= cut.to;
      if (died || lostStore) reExecuted++;
      else duplicated++;
    }
  }
  const fmt = (m) => [...m].map(([k, v]) => `${k} ${v}`).join(", ");
  const lines = [
    "## App: faults under load (exactly-once delivery work)",
    "",
    `${TOTAL} signed \`workflow_run\` deliveries (${ids.size} distinct ids; ${Math.round(REDELIVERY_SHARE * 100)}% redeliveries of an earlier id) over ${CONNECTIONS} connections to two App processes sharing one PostgreSQL, each delivery's work being real GitHub calls (an installation token, the run's artifact list) to a stand-in that logs which process made them. During the load replicas were killed with SIGKILL ${kills} times at random and restarted, and replica-2's store connection was cut once (TCP reset, port closed for a second). Every answer other than 200 was delivered again, as GitHub's redelivery would. Heartbeat 1 s, gone after 3 s; sweeper every second.`,
    "",
    "| measure | count |",
    "| --- | ---: |",
    `| deliveries sent (first sends and redeliveries) | ${sent} |`,
    `| distinct delivery ids | ${ids.size} |`,
    `| recorded \`done\` at the end | ${ids.size - lost} |`,
    `| **lost** (sent, never done) | **${lost}** |`,
    `| **duplicated** (work executed again while its earlier executor was alive and connected) | **${duplicated}** |`,
    `| re-executed after its executor was killed or lost its store before recording (takeovers) | ${reExecuted} |`,
    `| never executed (done without reaching GitHub) | ${neverExecuted} |`,
    `| SIGKILLs / store cuts | ${kills} / ${cut.from === 0 ? 0 : 1} |`,
    `| wall time, s | ${seconds.toFixed(1)} |`,
    "",
    `Answers seen by the sender: ${fmt(answers)}. A connection error is a request to a process that died under it (or was dead); 409 \`DELIVERY_IN_PROGRESS\` is a redelivery of work a live process holds, which is never answered 200; 503 \`STORE_UNAVAILABLE\` is the cut replica; 503 \`PROCESS_FENCED\` a process refusing to send while its heartbeat lapsed (the cut replica).`,
    "",
  ];
  process.stdout.write(lines.join("\n"));
  if (lost > 0 || duplicated > 0 || neverExecuted > 0 || items.some((i) => i.gaveUp)) {
    process.stderr.write(`app-faults bench: lost ${lost}, duplicated ${duplicated}, never executed ${neverExecuted}\n`);
    exitCode = 1;
  }
} finally {
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  await admin.end().catch(() => {});
  github.close();
  await proxy.cut().catch(() => {});
}
process.exit(exitCode);
