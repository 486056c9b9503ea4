#!/usr/bin/env node
// Budget race bench for the companion App: two App processes on one PostgreSQL receive a few
// hundred failing runner-A completions at once, each of which wants to dispatch runner B, under an
// installation cap of N dispatches per day. Mid-way one replica is killed with SIGKILL and
// restarted. Anything not answered 200 is delivered again, as GitHub's redelivery would.
//
// The stand-in GitHub serves what the App really calls: installation tokens, runner A's evidence
// artifact (a bundle in the pinned format with a failing property), the workflow dispatch (which
// it counts, per dual run), the dispatched-runs listing, and check runs. The invariant: GitHub
// receives at most N dispatches, never two for one dual run, and every candidate ends either
// dispatched or "not compared (budget)".
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnApp } from "./support/app-process.mjs";
import { deliverSigned } from "./support/webhook.mjs";

const require = createRequire(import.meta.url);
const { zipSync } = require("fflate");
const pg = require("pg");
const Database = require("better-sqlite3");
const CANDIDATES = Number(process.env.BENCH_BUDGET_CANDIDATES ?? 300);
const CAP = Number(process.env.BENCH_BUDGET_CAP ?? 40);
const REPOS = 6;
const CONNECTIONS = 24;
const SECRET = "bench-webhook-secret-0123456789";
const PG_URL = process.env.DATABASE_URL_TEST ?? "postgres://postgres@127.0.0.1:5432/test";
const ENVELOPE_HASH = `sha256:${"ab".repeat(32)}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString();

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const json = (v) => new TextEncoder().encode(JSON.stringify(v, null, 2) + "\n");

/** Runner A's evidence bundle, as the Action writes it (docs/formats.md), zipped. */
function evidenceZip(runId, headSha, repository) {
  const files = {
    "observer.jsonl": new TextEncoder().encode(
      `{"v":1,"kind":"meta","run_id":"${runId}","envelope_hash":"${ENVELOPE_HASH}","runner":"machine-a","started_at":"2026-01-01T00:00:00Z","observers":["node","process"]}\n{"v":1,"kind":"end","events":1,"exit_code":0}\n`,
    ),
    "envelope.json.sha256": new TextEncoder().encode(`${"ab".repeat(32)}  envelope.json\n`),
    "properties.json": json({
      version: 1,
      properties: [{ name: "schema_key_order", result: "fail", detail: "fails on A", inputs: {}, frozen_by: null }],
    }),
    "runner.json": json({
      runner_name: "runner-a",
      machine_id: "machine-aaaa1111",
      os: "linux",
      arch: "x64",
      cpus: 2,
      cpu_model: "Bench CPU",
      locale: "C.UTF-8",
      timezone: "UTC",
      run_id: String(runId),
      run_attempt: "1",
      workflow_run_id: String(runId),
      repository,
      head_sha: headSha,
      pull_number: 7,
      dual_run_id: null,
      envelope_hash: ENVELOPE_HASH,
      envelope_id: "agent-patch-envelope-v3",
    }),
    "verdict.json": json({
      verdict: "pass",
      envelope_id: "agent-patch-envelope-v3",
      envelope_hash: ENVELOPE_HASH,
      events: 2,
      violations: [],
      error: null,
      log: null,
    }),
  };
  const entries = {};
  for (const name of Object.keys(files).sort()) entries[name] = `sha256:${sha256(files[name])}`;
  const manifest = new TextEncoder().encode(JSON.stringify({ version: 1, files: entries }, null, 2) + "\n");
  files["manifest.json"] = manifest;
  files["manifest.json.sha256"] = new TextEncoder().encode(`${sha256(manifest)}  manifest.json\n`);
  return Buffer.from(zipSync(files));
}

function candidate(i) {
  const repo = `acme/repo-${i % REPOS}`;
  const runId = 500000 + i;
  const headSha = i.toString(16).padStart(40, "0");
  return {
    id: randomUUID(),
    repo,
    runId,
    headSha,
    body: JSON.stringify({
      action: "completed",
      installation: { id: 4242 },
      repository: { full_name: repo, name: repo.split("/")[1], owner: { login: "acme" }, default_branch: "main" },
      workflow_run: {
        id: runId,
        run_attempt: 1,
        path: ".github/workflows/envelope-gate.yml",
        event: "pull_request",
        status: "completed",
        conclusion: "failure",
        head_sha: headSha,
        head_branch: "agent/patch",
        html_url: `https://github.example/${repo}/actions/runs/${runId}`,
        pull_requests: [{ number: 7, base: { ref: "main" } }],
      },
    }),
  };
}

/** GitHub's stand-in: what runner A's completion and runner B's dispatch need. */
function gitHub(candidates) {
  const byRun = new Map(candidates.map((c) => [c.runId, c]));
  const dispatches = []; // { dual_run_id, at }
  const dispatchedRuns = []; // { id, repo, display_title, created_at }
  const checkRuns = [];
  let nextId = 900000;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const path = url.pathname;
      const answer = (status, data, type = "application/json") => {
        res.writeHead(status, { "content-type": type, "x-ratelimit-remaining": "4999", "x-ratelimit-limit": "5000" });
        res.end(type === "application/json" ? JSON.stringify(data) : data);
      };
      let m;
      if (req.method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
        return answer(201, { token: `ghs_${randomUUID()}`, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      }
      if (req.method === "GET" && (m = /^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts$/.exec(path))) {
        const known = byRun.has(Number(m[1]));
        return answer(200, {
          total_count: known ? 1 : 0,
          artifacts: known ? [{ id: Number(m[1]), name: "envelope-gate-evidence", expired: false }] : [],
        });
      }
      if (req.method === "GET" && (m = /^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/zip$/.exec(path))) {
        const c = byRun.get(Number(m[1]));
        if (!c) return answer(404, { message: "Not Found" });
        return answer(200, evidenceZip(c.runId, c.headSha, c.repo), "application/zip");
      }
      if (req.method === "POST" && (m = /^\/repos\/([^/]+\/[^/]+)\/actions\/workflows\/[^/]+\/dispatches$/.exec(path))) {
        const inputs = JSON.parse(body || "{}").inputs ?? {};
        const id = nextId++;
        dispatches.push({ dual_run_id: inputs.dual_run_id, at: Date.now() });
        dispatchedRuns.push({
          id,
          repo: m[1],
          display_title: `envelope-gate runner B ${inputs.dual_run_id}`,
          created_at: new Date().toISOString(),
        });
        return answer(200, { workflow_run_id: id, run_url: `http://x/runs/${id}`, html_url: `http://x/runs/${id}` });
      }
      if (req.method === "GET" && (m = /^\/repos\/([^/]+\/[^/]+)\/actions\/workflows\/[^/]+\/runs$/.exec(path))) {
        const runs = dispatchedRuns
          .filter((r) => r.repo === m[1])
          .map((r) => ({
            id: r.id,
            html_url: `http://x/runs/${r.id}`,
            status: "queued",
            conclusion: null,
            event: "workflow_dispatch",
            head_sha: "",
            display_title: r.display_title,
            created_at: r.created_at,
          }));
        return answer(200, { total_count: runs.length, workflow_runs: runs });
      }
      if (req.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path)) {
        const id = nextId++;
        checkRuns.push({ id, ...JSON.parse(body || "{}") });
        return answer(201, { id, html_url: `http://x/check/${id}` });
      }
      return answer(404, { message: "Not Found" });
    });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({ url: `http://127.0.0.1:${server.address().port}`, dispatches, checkRuns, close: () => server.close() }),
    ),
  );
}

function startApp(github, replica, storeEnv) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? "/tmp",
    ENVELOPE_GATE_APP_ID: "1",
    ENVELOPE_GATE_PRIVATE_KEY: PEM,
    ENVELOPE_GATE_WEBHOOK_SECRET: SECRET,
    ENVELOPE_GATE_GITHUB_API_URL: github.url,
    ENVELOPE_GATE_GITHUB_RETRIES: "0",
    ENVELOPE_GATE_GITHUB_THROTTLE: "off",
    ENVELOPE_GATE_PORT: "0",
    ENVELOPE_GATE_SWEEP_SECONDS: "1",
    ENVELOPE_GATE_HEARTBEAT_SECONDS: "1",
    ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "3",
    ENVELOPE_GATE_LEASE_SECONDS: "5",
    ENVELOPE_GATE_REPLICA_ID: replica,
    ENVELOPE_GATE_BUDGET_INSTALLATION_DISPATCHES: String(CAP),
    ENVELOPE_GATE_BUDGET_INSTALLATION_MINUTES: "1000000",
    ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES: "1000",
    ENVELOPE_GATE_BUDGET_REPOSITORY_MINUTES: "1000000",
    ...storeEnv,
  };
  return spawnApp(env).then(({ url, child }) => ({ replica, url, child, alive: true }));
}

/**
 * One backend's store for the bench: the App processes' settings, and a query function for the
 * checks at the end. SQLite: both processes on one file (WAL), which is not how the App is
 * deployed (one process per SQLite file) but races the reservation statement across processes.
 */
async function openBackend(kind) {
  if (kind === "postgres") {
    const schema = `eg_budget_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path = ${schema}`);
    return {
      label: "PostgreSQL",
      env: { DATABASE_URL: PG_URL, ENVELOPE_GATE_PG_SCHEMA: schema },
      all: async (sql) => (await admin.query(sql)).rows,
      close: async () => {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
        await admin.end().catch(() => {});
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "eg-budget-"));
  const path = join(dir, "app.sqlite");
  let db = null;
  return {
    label: "SQLite (one file, two processes)",
    env: { ENVELOPE_GATE_DB_PATH: path },
    all: async (sql) => {
      db ??= new Database(path);
      return db.prepare(sql).all();
    },
    close: async () => {
      db?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the race on one backend; resolves to its table's rows and whether the invariant held. */
async function race(kind) {
  const candidates = Array.from({ length: CANDIDATES }, (_, i) => candidate(i));
  const github = await gitHub(candidates);
  const store = await openBackend(kind);
  let replicas = [];
  try {
    replicas = await Promise.all(["replica-1", "replica-2"].map((id) => startApp(github, id, store.env)));
    const queue = candidates.map((item, n) => ({ item, n, tries: 0 }));
    let pending = queue.length;
    let sent = 0;
    let killed = false;
    const answers = new Map();
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
        const target = alive[(job.n + job.tries) % alive.length];
        sent++;
        const kind = await deliverSigned(target.url, job.item, SECRET, agent);
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
        if (kind === "done" || kind === "duplicate") pending--;
        else if (++job.tries > 300) {
          pending--;
          job.item.gaveUp = true;
        } else setTimeout(() => queue.push(job), 100);
      }
    };
    const chaos = async () => {
      while (pending > CANDIDATES - CAP / 2) await sleep(5);
      const victim = replicas[0];
      victim.alive = false;
      victim.child.kill("SIGKILL");
      killed = true;
      await sleep(200);
      const fresh = await startApp(github, victim.replica, store.env);
      replicas = replicas.map((r) => (r === victim ? fresh : r));
    };
    await Promise.all([...Array.from({ length: CONNECTIONS }, sender), chaos()]);
    agent.destroy();
    // Work left queued or claimed by the killed process is the sweepers'; wait until every dual run settled.
    let unsettled = 0;
    for (let i = 0; i < 120; i++) {
      const [r] = await store.all("SELECT COUNT(*) AS n FROM dual_runs WHERE state IN ('pending', 'dispatching', 'decided', 'reporting')");
      const [d] = await store.all("SELECT COUNT(*) AS n FROM deliveries WHERE state <> 'done'");
      unsettled = Number(r.n) + Number(d.n);
      if (unsettled === 0) break;
      await sleep(500);
    }
    const seconds = (Date.now() - started) / 1000;
    const reserved = Number((await store.all("SELECT COUNT(*) AS n FROM budget_reservations"))[0].n);
    const states = await store.all("SELECT state, outcome_code, COUNT(*) AS n FROM dual_runs GROUP BY state, outcome_code");
    const sum = (pred) => states.filter(pred).reduce((s, r) => s + Number(r.n), 0);
    const dualRuns = sum(() => true);
    const refused = sum((r) => r.outcome_code === "RUNNER_B_BUDGET_EXCEEDED");
    const unconfirmed = sum((r) => r.outcome_code === "BUDGET_UNCONFIRMED");
    const waiting = sum((r) => r.state === "waiting");
    const perDual = new Map();
    for (const d of github.dispatches) perDual.set(d.dual_run_id, (perDual.get(d.dual_run_id) ?? 0) + 1);
    const doubled = [...perDual.values()].filter((n) => n > 1).length;
    const budgetChecks = github.checkRuns.filter((c) => /Not compared \(budget\)/.test(c.output?.title ?? "")).length;
    const ok =
      github.dispatches.length <= CAP &&
      reserved <= CAP &&
      doubled === 0 &&
      unsettled === 0 &&
      waiting + refused + unconfirmed === dualRuns &&
      dualRuns === CANDIDATES &&
      !candidates.some((c) => c.gaveUp);
    return {
      label: store.label,
      ok,
      rows: {
        dualRuns,
        sent,
        reserved,
        dispatches: github.dispatches.length,
        doubled,
        waiting,
        refused: `${refused} / ${unconfirmed}`,
        budgetChecks,
        unsettled,
        kills: killed ? 1 : 0,
        seconds: seconds.toFixed(1),
      },
      answers: [...answers].map(([k, v]) => `${k} ${v}`).join(", "),
    };
  } finally {
    for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
    await sleep(100);
    await store.close();
    github.close();
  }
}

const results = [await race("postgres"), await race("sqlite")];
const row = (label, key, bold = false) =>
  `| ${bold ? `**${label}**` : label} | ${results.map((r) => (bold ? `**${r.rows[key]}**` : r.rows[key])).join(" | ")} |`;
const lines = [
  "## App: runner B's budget under racing dispatches",
  "",
  `${CANDIDATES} failing runner-A completions (one installation, ${REPOS} repositories), each wanting a runner-B dispatch, sent at once over ${CONNECTIONS} connections to two App processes sharing one store, under an installation cap of **${CAP}** dispatches per day. While the first reservations were being made (after about ${CAP / 2} deliveries were done), replica-1 was killed with SIGKILL and restarted. Every answer other than 200 was delivered again. The stand-in GitHub counts every dispatch request it receives. Run once on PostgreSQL, once on SQLite (both processes on one file).`,
  "",
  `| measure | ${results.map((r) => r.label).join(" | ")} |`,
  `| --- | ${results.map(() => "---:").join(" | ")} |`,
  row("candidates (distinct dual runs recorded)", "dualRuns"),
  row("deliveries sent (first sends and redeliveries)", "sent"),
  row("reservations in the store", "reserved"),
  row(`dispatch requests GitHub received (cap ${CAP})`, "dispatches", true),
  row("dual runs dispatched twice", "doubled", true),
  row("dual runs waiting for runner B (dispatched)", "waiting"),
  row('ended "not compared (budget)": RUNNER_B_BUDGET_EXCEEDED / BUDGET_UNCONFIRMED', "refused"),
  row('"Not compared (budget)" check runs posted', "budgetChecks"),
  row("unsettled at the end", "unsettled"),
  row("SIGKILLs", "kills"),
  row("wall time, s", "seconds"),
  "",
  ...results.map((r) => `Answers seen by the sender (${r.label}): ${r.answers}.`),
  "",
  "The wall time is mostly one wait: a dual run whose process was killed after it marked its dispatch attempt, and whose run GitHub's listing does not show, waits 60 s (`DISPATCH_OUTCOME_UNKNOWN`, answered 503 to the redeliveries meanwhile) before it dispatches, since the killed request may have started a run GitHub lists only later.",
  "",
];
process.stdout.write(lines.join("\n"));
if (results.some((r) => !r.ok)) {
  process.stderr.write("budget-race bench: invariant broken (see the table)\n");
  process.exit(1);
}
process.exit(0);
