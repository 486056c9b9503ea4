#!/usr/bin/env node
// Fault bench for the companion App: two App processes on one PostgreSQL, signed deliveries,
// replicas killed with SIGKILL and restarted at random during the load, and one replica's store
// connection cut once (a TCP proxy that resets its connections and closes its port for a while).
// The sender is GitHub: it delivers each webhook once and never again on its own, records an
// attempt as failed when the answer is not a 2xx or takes over 10 s, and serves the App's
// deliveries API (GET /app/hook/deliveries, POST …/attempts); only the App's own redelivery sweep
// can cause a second delivery of an id. GitHub's answers are slowed (BENCH_FAULT_GITHUB_MS per call).
//
// The work of each delivery is real: a failing gate run's `workflow_run` makes the App fetch an
// installation token and list the run's artifacts from the GitHub stand-in (which has none, so the
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
const GITHUB_MS = Number(process.env.BENCH_FAULT_GITHUB_MS ?? 200);
const GITHUB_WAIT_MS = 10_000;
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
  const items = [];
  for (let i = 0; i < TOTAL; i++) items.push({ id: randomUUID(), run: 700000 + i, body: payload(i) });
  return items;
}

/**
 * GitHub's stand-in: tokens, an empty artifact list per run (logged with the process that asked),
 * every webhook attempt (GitHub's delivery log), and the App's deliveries API. `target()` is the
 * load balancer: a live replica's URL.
 */
function gitHub(target) {
  const executions = []; // { proc, run, at }
  const attempts = []; // { id, guid, item, delivered_at, redelivery, status, status_code, ms }
  const redeliveryRequests = []; // attempt ids asked for
  let nextAttempt = 1;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  /** One attempt, as GitHub makes it: at most 10 s, recorded OK for a 2xx only. */
  const attempt = async (item, redelivery) => {
    const at = new Date();
    const t0 = performance.now();
    const kind = await Promise.race([deliverSigned(target(), item, SECRET, agent), sleep(GITHUB_WAIT_MS).then(() => "timed out")]);
    const ms = performance.now() - t0;
    const ok = kind === "queued" || kind === "in_progress" || kind === "duplicate";
    const record = {
      id: nextAttempt++,
      guid: item.id,
      item,
      delivered_at: at.toISOString(),
      redelivery,
      status: ok ? "OK" : `failed: ${kind}`,
      status_code: ok ? (kind === "duplicate" ? 200 : 202) : Number(/^\d+/.exec(kind)?.[0] ?? 0),
      kind,
      ms,
    };
    attempts.push(record);
    return record;
  };
  const server = http.createServer(async (req, res) => {
    const m = /^\/p\/(\d+)(\/[^?]*)(\?.*)?$/.exec(req.url ?? "");
    req.resume();
    await sleep(GITHUB_MS);
    const answer = (status, body, headers = {}) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "x-ratelimit-remaining": "4999",
        "x-ratelimit-limit": "5000",
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    if (!m) return answer(404, { message: "Not Found" });
    const [, proc, path, query] = m;
    if (req.method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
      return answer(201, { token: `ghs_${proc}_${randomUUID()}`, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    }
    const run = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts/.exec(path);
    if (req.method === "GET" && run) {
      executions.push({ proc: Number(proc), run: Number(run[1]), at: Date.now() });
      return answer(200, { total_count: 0, artifacts: [] });
    }
    if (req.method === "GET" && path === "/app/hook/deliveries") {
      const params = new URL(`http://stand-in${query ?? ""}`).searchParams;
      const perPage = Math.min(100, Number(params.get("per_page") ?? 30));
      const cursor = params.get("cursor");
      const newestFirst = [...attempts].reverse();
      const start =
        cursor === null
          ? 0
          : Math.max(
              0,
              newestFirst.findIndex((a) => a.id <= Number(cursor)),
            );
      const page = newestFirst.slice(start, start + perPage).map((a) => ({
        id: a.id,
        guid: a.guid,
        delivered_at: a.delivered_at,
        redelivery: a.redelivery,
        duration: a.ms / 1000,
        status: a.status,
        status_code: a.status_code,
        event: "workflow_run",
        action: "completed",
        installation_id: null,
        repository_id: null,
      }));
      const following = newestFirst[start + perPage];
      const link = following
        ? { link: `<http://127.0.0.1/p/${proc}/app/hook/deliveries?per_page=${perPage}&cursor=${following.id}>; rel="next"` }
        : {};
      return answer(200, page, link);
    }
    const again = /^\/app\/hook\/deliveries\/(\d+)\/attempts$/.exec(path);
    if (req.method === "POST" && again) {
      const asked = attempts.find((a) => a.id === Number(again[1]));
      if (!asked) return answer(404, { message: "Not Found" });
      redeliveryRequests.push(asked.id);
      setImmediate(() => void attempt(asked.item, true));
      return answer(202, {});
    }
    return answer(404, { message: "Not Found" });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        url: `http://127.0.0.1:${server.address().port}`,
        executions,
        attempts,
        redeliveryRequests,
        deliver: (item) => attempt(item, false),
        close: () => {
          agent.destroy();
          server.close();
        },
      }),
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
    ENVELOPE_GATE_REDELIVERY_SECONDS: "5",
    ENVELOPE_GATE_REDELIVERY_PER_PASS: "200",
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

let replicas = [];
const liveTarget = () => {
  const alive = replicas.filter((r) => r.alive);
  return (alive.length > 0 ? alive[Math.floor(random() * alive.length)] : replicas[0]).url;
};
const github = await gitHub(liveTarget);
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
let exitCode = 0;
try {
  replicas = await Promise.all(Object.entries(urls).map(([id, url]) => startApp(github, id, url, schema)));
  const items = plan();
  const queue = [...items];
  let sent = 0;
  let sending = true;
  const started = Date.now();

  // Each delivery once, as GitHub does: whatever the answer, the sender never sends it again.
  const sender = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      sent++;
      count((await github.deliver(item)).kind);
    }
  };

  const notDone = async () =>
    Number(
      (await admin.query(`SELECT COUNT(*) AS n FROM ${schema}.deliveries WHERE state = 'done'`).catch(() => ({ rows: [{ n: 0 }] }))).rows[0]
        .n,
    ) < items.length;

  let kills = 0;
  const chaos = async () => {
    await sleep(400);
    while (kills < KILLS && (sending || (await notDone()))) {
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

  await Promise.all([Promise.all(Array.from({ length: CONNECTIONS }, sender)).then(() => (sending = false)), chaos()]);
  const sentSeconds = (Date.now() - started) / 1000;
  // What a crash or the cut left is the sweepers' (every second); what the App never recorded is its
  // redelivery sweep's (every 5 s), followed by GitHub's redelivery: wait for all of it.
  for (let i = 0; i < 240 && (await notDone()); i++) await sleep(500);
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
  // Second deliveries: only the App's redelivery sweep may cause one.
  const perGuid = new Map();
  for (const a of github.attempts) perGuid.set(a.guid, [...(perGuid.get(a.guid) ?? []), a]);
  const unaskedSecond = [...perGuid.values()].filter((list) => list.filter((a) => !a.redelivery).length > 1).length;
  const failedFirst = [...perGuid.values()].filter((list) => list[0].status !== "OK").length;
  const redelivered = [...perGuid.values()].filter((list) => list.some((a) => a.redelivery)).length;
  const askedTwice = [...new Set(github.redeliveryRequests)].length !== github.redeliveryRequests.length;
  const slowAnswers = github.attempts.filter((a) => a.kind === "timed out").length;
  const ms = github.attempts.map((a) => a.ms).sort((a, b) => a - b);
  const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0;
  const fmt = (m) => [...m].map(([k, v]) => `${k} ${v}`).join(", ");
  const lines = [
    "## App: faults under load (exactly-once delivery work, GitHub's delivery contract)",
    "",
    `${TOTAL} signed \`workflow_run\` deliveries over ${CONNECTIONS} connections to two App processes sharing one PostgreSQL, each delivery's work being real GitHub calls (an installation token, the run's artifact list) to a stand-in that answers every call after ${GITHUB_MS} ms and logs which process made it. The sender is GitHub: it delivers each id **once**, whatever the answer, records an attempt as failed when the answer is not a 2xx or takes over 10 s, and serves the App's deliveries API; only the App's redelivery sweep (every 5 s) can cause a second delivery. During the load replicas were killed with SIGKILL ${kills} times at random and restarted, and replica-2's store connection was cut once (TCP reset, port closed for a second). Heartbeat 1 s, gone after 3 s; sweeper every second; 16 workers per process.`,
    "",
    "| measure | count |",
    "| --- | ---: |",
    `| deliveries sent by the sender (each id once) | ${sent} |`,
    `| attempts GitHub recorded as failed (connection died with its process, 503 while the store was cut) | ${failedFirst} |`,
    `| of those, recorded by the App before its answer was lost (finished by a sweeper, not asked for) | ${failedFirst - redelivered} |`,
    `| redeliveries the App asked for / ids redelivered | ${github.redeliveryRequests.length} / ${redelivered} |`,
    `| **second deliveries not caused by the App's redelivery sweep** | **${unaskedSecond}** |`,
    `| recorded \`done\` at the end | ${ids.size - lost} |`,
    `| **lost** (sent, never done) | **${lost}** |`,
    `| **duplicated** (work executed again while its earlier executor was alive and connected) | **${duplicated}** |`,
    `| re-executed after its executor was killed or lost its store before recording (takeovers) | ${reExecuted} |`,
    `| never executed (done without reaching GitHub) | ${neverExecuted} |`,
    `| **answers over GitHub's 10 s** | **${slowAnswers}** |`,
    `| answer time p50 / p99 / max, ms (every attempt, redeliveries included) | ${pct(50).toFixed(1)} / ${pct(99).toFixed(1)} / ${(ms.at(-1) ?? 0).toFixed(1)} |`,
    `| SIGKILLs / store cuts | ${kills} / ${cut.from === 0 ? 0 : 1} |`,
    `| wall time, s: all sent / all done | ${sentSeconds.toFixed(1)} / ${seconds.toFixed(1)} |`,
    "",
    `Answers seen by GitHub: ${fmt(answers)}. \`queued\` is a delivery recorded and answered before its work (202); \`in_progress\` one a live process holds (202); a connection error is a request to a process that died under it (or was dead): GitHub records it failed and the App asks for it again; 503 \`STORE_UNAVAILABLE\` is the cut replica, nothing recorded, asked for again the same way.`,
    "",
  ];
  process.stdout.write(lines.join("\n"));
  if (lost > 0 || duplicated > 0 || neverExecuted > 0 || unaskedSecond > 0 || slowAnswers > 0 || askedTwice) {
    process.stderr.write(
      `app-faults bench: lost ${lost}, duplicated ${duplicated}, never executed ${neverExecuted}, unasked second deliveries ${unaskedSecond}, answers over 10 s ${slowAnswers}, a redelivery asked twice ${askedTwice}\n`,
    );
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
