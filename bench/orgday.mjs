#!/usr/bin/env node
// An organisation's day (issue 32 item 4): one installation of the App on an organisation of 500
// repositories, 2,000 pull requests and 20,000 webhook deliveries in a day, bursty (a release
// morning), sent to two App processes sharing one PostgreSQL. The stand-in GitHub answers every
// call after a realistic latency (reads 30-80 ms, writes 80-200 ms) with GitHub's rate-limit headers
// per installation (x-ratelimit-limit/-remaining/-used/-reset/-resource, an hour's window from its
// first call), and keeps the state the App reads: repositories, branches, pull requests, gate runs
// and their evidence artifacts, runner B's dispatched runs, check runs, the default branch's history.
//
// The App process cannot be given a clock (src/app/context.ts's Clock is only injectable
// in-process), so the day is compressed: each delivery is sent at its time of day divided by the
// compression factor, every GitHub call is stamped with its wall time multiplied back, and hourly
// figures are computed on those scaled stamps. What the compression distorts (the App's lag behind a
// rate it would see 1/factor as often in a real day) is measured and printed beside the figures.
//
//   calls per delivery: every call that spends the installation's budget (the App's JWT calls under
//     /app apart), attributed to the delivery the App was working on in that repository at the time
//     (the store's received_at..finished_at); a call two deliveries could have made is "shared";
//   lost: a sent delivery id not recorded `done`; duplicated: a done delivery's work run again
//     (attempts beyond the first that did not fail), and a dual run dispatched twice.
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { spawnApp } from "./support/app-process.mjs";
import { deliverSigned } from "./support/webhook.mjs";

const require = createRequire(import.meta.url);
const { zipSync } = require("fflate");
const pg = require("pg");

const ROOT = resolve(import.meta.dirname, "..");
const DELIVERIES = Number(process.env.BENCH_ORGDAY_DELIVERIES ?? 20000);
// 86,400 s of the organisation's day in this many seconds of wall time.
const DAY_SECONDS = Number(process.env.BENCH_ORGDAY_SECONDS ?? Math.max(60, Math.round((DELIVERIES / 20000) * 480)));
const SCALE = 86400 / DAY_SECONDS;
const REPOS = 500;
const PULLS = Math.max(10, Math.round((2000 * DELIVERIES) / 20000));
const INSTALLATION = 4242;
const OWNER = "acme";
const LIMIT = 5000;
// Off: the stand-in reports the budget in its headers but answers every call (the figure is the
// demand); on: a call over the limit is answered 403 as GitHub does.
const ENFORCE = process.env.BENCH_ORGDAY_ENFORCE === "1";
const CONNECTIONS = 64;
const GITHUB_WAIT_MS = 10_000;
const DRAIN_S = 180;
const SECRET = "bench-webhook-secret-0123456789";
const PG_URL = process.env.DATABASE_URL_TEST ?? "postgres://postgres@127.0.0.1:5432/test";
const WORKFLOW_PATH = ".github/workflows/envelope-gate.yml";
const DIGEST_PATH = ".github/envelope-gate/envelope.json.sha256";
const ENVELOPE_PATH = ".github/envelope-gate/envelope.json";
const ENVELOPE_TEXT = readFileSync(join(ROOT, "examples/envelope.json"), "utf8");
const DIGEST_TEXT = readFileSync(join(ROOT, "examples/envelope.json.sha256"), "utf8");
const ENVELOPE_HASH = `sha256:${DIGEST_TEXT.slice(0, 64)}`;
const GATE_WORKFLOW = `name: envelope-gate
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
const BOT = "envelope-gate[bot]";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const sha1 = (s) => createHash("sha1").update(s).digest("hex");
const json = (v) => new TextEncoder().encode(JSON.stringify(v, null, 2) + "\n");
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString();

// Deterministic choices, so runs are comparable.
let seed = 20261201;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const between = (a, b) => a + random() * (b - a);

// ---------------------------------------------------------------------------------------------
// The organisation as GitHub has it.

const blob = (text) => ({ text, sha: sha1(`blob ${text}`), size: Buffer.byteLength(text) });
const FILES = new Map([
  [WORKFLOW_PATH, blob(GATE_WORKFLOW)],
  [DIGEST_PATH, blob(DIGEST_TEXT)],
  [ENVELOPE_PATH, blob(ENVELOPE_TEXT)],
]);

let shaCounter = 0;
const newSha = () => sha1(`commit ${++shaCounter}`);
const repos = Array.from({ length: REPOS }, (_, i) => {
  const root = newSha();
  return {
    id: 100000 + i,
    name: `repo-${String(i).padStart(3, "0")}`,
    full_name: `${OWNER}/repo-${String(i).padStart(3, "0")}`,
    audit: i % 25 === 0, // 20 repositories run the gate in audit mode on pushes to main
    refs: new Map([["heads/main", root]]),
    // main's first-parent history, newest first, with each commit's parents
    history: [{ sha: root, parents: [] }],
    pulls: new Map(),
    nextPull: 1,
  };
});
const repoByName = new Map(repos.map((r) => [r.full_name, r]));
const runs = new Map(); // id -> run
const artifacts = new Map(); // run id -> { id, zip, created_at }
const checkRuns = new Map(); // `${repo}@${sha}` -> [check run]
let nextId = 10_000_000;

function repoJson(repo) {
  return { id: repo.id, name: repo.name, full_name: repo.full_name, owner: { login: OWNER, type: "Organization" }, default_branch: "main" };
}

function pullJson(repo, p) {
  return {
    number: p.number,
    html_url: `https://github.example/${repo.full_name}/pull/${p.number}`,
    state: p.state,
    user: { login: "agent-bot[bot]", type: "Bot" },
    head: { ref: p.branch, sha: p.head, repo: repoJson(repo) },
    base: { ref: "main", sha: p.baseSha, repo: repoJson(repo) },
    merged_at: p.mergedAt,
    merged: p.mergedAt !== null,
    labels: p.labels.map((name) => ({ name })),
  };
}

function runJson(run) {
  const repo = repoByName.get(run.repo);
  const pulls =
    run.pull === null
      ? []
      : [
          {
            number: run.pull.number,
            head: { ref: run.pull.branch, sha: run.head_sha, repo: { id: repo.id } },
            base: { ref: "main", sha: run.baseSha, repo: { id: repo.id } },
          },
        ];
  return {
    id: run.id,
    name: "envelope-gate",
    html_url: `https://github.example/${run.repo}/actions/runs/${run.id}`,
    path: WORKFLOW_PATH,
    workflow_id: 77,
    status: run.status,
    conclusion: run.conclusion,
    event: run.event,
    head_sha: run.head_sha,
    head_branch: run.head_branch,
    display_title: run.display_title,
    created_at: run.created_at,
    run_started_at: run.run_started_at,
    updated_at: run.updated_at,
    run_attempt: 1,
    repository: { id: repo.id, full_name: repo.full_name },
    head_repository: { id: repo.id, full_name: repo.full_name },
    pull_requests: pulls,
    actor: { login: run.actor, type: run.actor === BOT ? "Bot" : "User" },
    triggering_actor: { login: run.actor, type: run.actor === BOT ? "Bot" : "User" },
  };
}

/** An evidence bundle in the pinned format (docs/formats.md), zipped. */
function bundleZip({ machine, runId, headSha, repository, pullNumber, properties, base, dualRunId, mode }) {
  const files = {
    "observer.jsonl": new TextEncoder().encode(
      `{"v":1,"kind":"meta","run_id":"${runId}","envelope_hash":"${ENVELOPE_HASH}","runner":"${machine}","started_at":"2026-01-01T00:00:00Z","observers":["node","process"]}\n{"v":1,"kind":"end","events":1,"exit_code":0}\n`,
    ),
    "envelope.json.sha256": new TextEncoder().encode(DIGEST_TEXT),
    "properties.json": json({
      version: 1,
      properties: properties.map((p) => ({
        name: p.name,
        result: p.result,
        detail: `${p.name} ${p.result} on ${machine}`,
        inputs: {},
        frozen_by: null,
        freezable: true,
        failure_fingerprint: p.result === "fail" ? sha256(`fingerprint of ${p.name}`).slice(0, 16) : null,
      })),
    }),
    "runner.json": json({
      runner_name: `runner-${machine.slice(0, 6)}`,
      machine_id: machine,
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
      pull_number: pullNumber,
      dual_run_id: dualRunId ?? null,
      envelope_hash: ENVELOPE_HASH,
      envelope_id: "agent-patch-envelope-v3",
      ...(mode ? { mode } : {}),
      ...(base ? { base_ref: "main", base_sha: base, policy_sha: base, properties_digest: null, ledger_digest: null } : {}),
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

// ---------------------------------------------------------------------------------------------
// The stand-in GitHub.

const wallStart = { t: 0 };
const dayOf = (wallMs) => ((wallMs - wallStart.t) / 1000) * SCALE; // seconds into the day
const wallOf = (daySeconds) => wallStart.t + (daySeconds / SCALE) * 1000;

function gitHub(onDispatch) {
  const calls = []; // { wall, day, inst, method, route, repo, limited }
  const unexpected = new Map();
  const windows = new Map(); // installation -> { start (day s), used }
  const tokens = new Map(); // token -> installation
  const dispatches = []; // { dualRunId, runId, repo }
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const path = decodeURIComponent(url.pathname);
      const method = req.method ?? "GET";
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString() || "{}") : {};
      const write = method !== "GET";
      await sleep(write ? between(80, 200) : between(30, 80));
      const auth = String(req.headers.authorization ?? "");
      const token = /^token (\S+)$/i.exec(auth)?.[1];
      const inst = token === undefined ? null : (tokens.get(token) ?? null);
      const wall = Date.now();
      const headers = {};
      let limited = false;
      let w = null;
      if (inst !== null) {
        const day = dayOf(wall);
        w = windows.get(inst);
        if (!w || day >= w.start + 3600) windows.set(inst, (w = { start: day, used: 0 }));
        limited = ENFORCE && w.used >= LIMIT;
      }
      const m = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(path);
      const repo = m ? repoByName.get(m[1]) : undefined;
      const rest = m?.[2] ?? "";
      const route = (repo ? rest.replace(/\/[0-9a-f]{40}/g, "/{sha}").replace(/\/\d+/g, "/{n}") : path.replace(/\/\d+/g, "/{n}")).replace(
        /\/contents\/.*/,
        "/contents/{path}",
      );
      const call =
        inst === null
          ? null
          : {
          wall,
          day: dayOf(wall),
          inst,
          method,
          route: `${method} ${route}`,
          repo: repo?.full_name ?? null,
          limited,
          // what names the call's subject: its path, query and the shas a write names
          text: `${url.pathname}${url.search} ${body.head_sha ?? ""} ${body.inputs?.head_sha ?? ""}`,
            notModified: false,
          };
      if (call !== null) calls.push(call);
      // GitHub's conditional requests: a JSON answer to a GET carries its ETag; asked again with
      // it and unchanged, the answer is 304 with no body, and spends none of the rate limit.
      const answer = (status, data, type = "application/json") => {
        const json = type === "application/json" ? JSON.stringify(data) : null;
        let notModified = false;
        if (method === "GET" && status === 200 && json !== null) {
          headers.etag = `W/"${createHash("sha1").update(json).digest("hex")}"`;
          notModified = req.headers["if-none-match"] === headers.etag;
        }
        if (call !== null) call.notModified = notModified;
        if (w !== null) {
          if (!limited && !notModified) w.used++;
          Object.assign(headers, {
            "x-ratelimit-limit": String(LIMIT),
            "x-ratelimit-remaining": String(Math.max(0, LIMIT - w.used)),
            "x-ratelimit-used": String(w.used),
            "x-ratelimit-reset": String(Math.ceil(wallOf(w.start + 3600) / 1000)),
            "x-ratelimit-resource": "core",
          });
        }
        if (notModified) {
          res.writeHead(304, headers);
          res.end();
          return;
        }
        res.writeHead(status, { "content-type": type, ...headers });
        res.end(json ?? data);
      };
      if (limited) return answer(403, { message: `API rate limit exceeded for installation ID ${inst}.` });
      let k;
      if (method === "POST" && (k = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
        const t = `ghs_${k[1]}_${randomUUID().replace(/-/g, "")}`;
        tokens.set(t, Number(k[1]));
        return answer(201, { token: t, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      }
      if (method === "GET" && path === "/app")
        return answer(200, { id: 1, slug: "envelope-gate", name: "envelope-gate", owner: { login: OWNER } });
      if (method === "GET" && path === "/app/hook/deliveries") return answer(200, []);
      if (!repo) return miss();
      if (method === "GET" && rest === "") return answer(200, repoJson(repo));
      if (method === "GET" && (k = /^\/actions\/runs\/(\d+)$/.exec(rest))) {
        const run = runs.get(Number(k[1]));
        return run && run.repo === repo.full_name ? answer(200, runJson(run)) : answer(404, { message: "Not Found" });
      }
      if (method === "GET" && (k = /^\/pulls\/(\d+)$/.exec(rest))) {
        const p = repo.pulls.get(Number(k[1]));
        return p ? answer(200, pullJson(repo, p)) : answer(404, { message: "Not Found" });
      }
      if (method === "GET" && (k = /^\/pulls\/(\d+)\/reviews$/.exec(rest))) return answer(200, []);
      if (method === "GET" && (k = /^\/git\/ref\/(.+)$/.exec(rest))) {
        const sha = repo.refs.get(k[1]);
        return sha ? answer(200, { ref: `refs/${k[1]}`, object: { sha, type: "commit" } }) : answer(404, { message: "Not Found" });
      }
      if (method === "GET" && (k = /^\/contents\/(.+)$/.exec(rest))) {
        const f = FILES.get(k[1]);
        if (!f) return answer(404, { message: "Not Found" });
        return answer(200, {
          type: "file",
          name: k[1].split("/").pop(),
          path: k[1],
          sha: f.sha,
          size: f.size,
          encoding: "base64",
          content: Buffer.from(f.text).toString("base64"),
        });
      }
      if (method === "GET" && (k = /^\/actions\/runs\/(\d+)\/artifacts$/.exec(rest))) {
        const a = artifacts.get(Number(k[1]));
        const list = a ? [{ id: a.id, name: "envelope-gate-evidence", expired: false, created_at: a.created_at }] : [];
        return answer(200, { total_count: list.length, artifacts: list });
      }
      if (method === "GET" && (k = /^\/actions\/artifacts\/(\d+)\/zip$/.exec(rest))) {
        const a = artifacts.get(Number(k[1]));
        return a ? answer(200, a.zip, "application/zip") : answer(404, { message: "Not Found" });
      }
      if (method === "POST" && /^\/actions\/workflows\/[^/]+\/dispatches$/.test(rest)) {
        const inputs = body.inputs ?? {};
        const id = nextId++;
        const now = new Date().toISOString();
        const run = {
          id,
          repo: repo.full_name,
          event: "workflow_dispatch",
          status: "queued",
          conclusion: null,
          head_sha: repo.refs.get(`heads/${body.ref ?? "main"}`),
          head_branch: body.ref ?? "main",
          display_title: `envelope-gate runner B ${inputs.dual_run_id}`,
          created_at: now,
          run_started_at: now,
          updated_at: now,
          actor: BOT,
          pull: null,
          inputs,
        };
        runs.set(id, run);
        dispatches.push({ dualRunId: inputs.dual_run_id, runId: id, repo: repo.full_name });
        onDispatch(run);
        return answer(200, {
          workflow_run_id: id,
          run_url: `http://x/runs/${id}`,
          html_url: `https://github.example/${repo.full_name}/actions/runs/${id}`,
        });
      }
      if (method === "GET" && (k = /^\/commits\/([0-9a-f]{40})\/pulls$/.exec(rest))) {
        const list = [...repo.pulls.values()].filter((p) => p.commits.includes(k[1]) || p.mergeSha === k[1]);
        return answer(
          200,
          list.map((p) => pullJson(repo, p)),
        );
      }
      if (method === "GET" && (k = /^\/commits\/([0-9a-f]{40})\/check-runs$/.exec(rest))) {
        const name = url.searchParams.get("check_name");
        const list = (checkRuns.get(`${repo.full_name}@${k[1]}`) ?? []).filter((c) => name === null || c.name === name);
        return answer(200, { total_count: list.length, check_runs: list });
      }
      if (method === "POST" && rest === "/check-runs") {
        const id = nextId++;
        const c = {
          id,
          name: body.name,
          status: "completed",
          conclusion: body.conclusion ?? null,
          external_id: body.external_id ?? null,
          app: { id: 1, slug: "envelope-gate" },
          output: { title: body.output?.title ?? null, summary: body.output?.summary ?? null },
          html_url: `https://github.example/${repo.full_name}/runs/${id}`,
        };
        const key = `${repo.full_name}@${body.head_sha}`;
        checkRuns.set(key, [...(checkRuns.get(key) ?? []), c]);
        return answer(201, c);
      }
      if (method === "GET" && rest === "/commits") {
        const from = url.searchParams.get("sha");
        const page = Number(url.searchParams.get("page") ?? 1);
        const per = Number(url.searchParams.get("per_page") ?? 30);
        const start = Math.max(
          0,
          repo.history.findIndex((c) => c.sha === from),
        );
        const list = repo.history.slice(start + (page - 1) * per, start + page * per);
        return answer(
          200,
          list.map((c) => ({ sha: c.sha, parents: c.parents.map((sha) => ({ sha })) })),
        );
      }
      if (method === "GET" && (k = /^\/git\/commits\/([0-9a-f]{40})$/.exec(rest))) {
        const c = repo.history.find((x) => x.sha === k[1]);
        return c
          ? answer(200, { sha: c.sha, tree: { sha: sha1(`tree ${c.sha}`) }, parents: c.parents.map((sha) => ({ sha })) })
          : answer(404, {});
      }
      return miss();
      function miss() {
        const key = `${method} ${route}`;
        unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
        return answer(404, { message: "Not Found" });
      }
    });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        url: `http://127.0.0.1:${server.address().port}`,
        calls,
        unexpected,
        dispatches,
        close: () => server.close(),
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The day's plan: each pull request's life as the deliveries GitHub sends, at times of day.

const HOUR = 3600;
const plan = []; // { day, event, kind, repo, body | make(), apply?() }
const add = (day, event, kind, repo, make, apply) => plan.push({ day, event, kind, repo: repo.full_name, make, apply });
const ZERO = "0".repeat(40);

const base = (repo) => ({ installation: { id: INSTALLATION }, repository: repoJson(repo), sender: { login: "dev", type: "User" } });
const prPayload = (repo, p, action, extra = {}) => ({ action, number: p.number, pull_request: pullJson(repo, p), ...base(repo), ...extra });
const wrPayload = (repo, run, action) => ({
  action,
  ...base(repo),
  workflow_run: {
    id: run.id,
    run_attempt: 1,
    path: WORKFLOW_PATH,
    event: run.event,
    status: action === "completed" ? "completed" : action === "requested" ? "queued" : "in_progress",
    conclusion: action === "completed" ? run.conclusion : null,
    head_sha: run.head_sha,
    head_branch: run.head_branch,
    html_url: `https://github.example/${repo.full_name}/actions/runs/${run.id}`,
    pull_requests: run.pull === null ? [] : [{ number: run.pull.number, base: { ref: "main" } }],
  },
});

/** A gate run of the pull request's head: requested, in progress (the base is read), completed with its evidence. */
function gateRun(repo, p, day, duration) {
  const fail = random() < 0.08;
  const run = {
    id: nextId++,
    repo: repo.full_name,
    event: "pull_request",
    status: "queued",
    conclusion: null,
    head_sha: null,
    head_branch: p.branch,
    display_title: "envelope-gate",
    created_at: null,
    run_started_at: null,
    updated_at: null,
    actor: "dev",
    pull: p,
    baseSha: null,
  };
  add(
    day,
    "workflow_run",
    "workflow_run requested / in_progress",
    repo,
    () => wrPayload(repo, run, "requested"),
    () => {
      run.head_sha = p.head;
      run.created_at = new Date().toISOString();
      run.run_started_at = run.created_at;
      run.updated_at = run.created_at;
      runs.set(run.id, run);
    },
  );
  add(
    day + 15,
    "workflow_run",
    "workflow_run requested / in_progress",
    repo,
    () => wrPayload(repo, run, "in_progress"),
    () => {
      run.status = "in_progress";
      run.baseSha = repo.refs.get("heads/main");
    },
  );
  add(
    day + duration,
    "workflow_run",
    fail ? "workflow_run completed: runner A, a property failed" : "workflow_run completed: runner A, passed",
    repo,
    () => wrPayload(repo, run, "completed"),
    () => {
      run.status = "completed";
      run.conclusion = fail ? "failure" : "success";
      run.updated_at = new Date().toISOString();
      artifacts.set(run.id, {
        id: run.id,
        created_at: run.updated_at,
        zip: bundleZip({
          machine: "machine-aaaa1111",
          runId: run.id,
          headSha: run.head_sha,
          repository: repo.full_name,
          pullNumber: p.number,
          base: run.baseSha,
          properties: [
            { name: "schema_key_order", result: fail ? "fail" : "pass" },
            { name: "tests_collected", result: "pass" },
          ],
        }),
      });
    },
  );
}

const push = (repo, ref, before, after) => ({
  ref,
  before,
  after,
  commits: [{ id: after, added: [], modified: ["src/patch.ts"], removed: [] }],
  head_commit: { id: after },
  ...base(repo),
});

for (let i = 0; i < PULLS; i++) {
  const repo = repos[Math.floor(random() * REPOS)];
  const roll = random();
  // 40% open in the release morning (09:00-10:20) and live fast; 50% over the working day; 10% at any hour.
  const burst = roll < 0.4;
  const t0 = burst ? between(9 * HOUR, 10.33 * HOUR) : roll < 0.9 ? between(7 * HOUR, 18 * HOUR) : between(0, 22 * HOUR);
  const f = burst ? 0.35 : 1; // the release morning's pace
  const p = {
    number: repo.nextPull++,
    branch: `agent/change-${i}`,
    head: null,
    baseSha: null,
    state: "open",
    mergedAt: null,
    mergeSha: null,
    commits: [],
    labels: [],
  };
  const first = newSha();
  add(
    t0 - 30,
    "push",
    "push",
    repo,
    () => push(repo, `refs/heads/${p.branch}`, ZERO, first),
    () => repo.refs.set(`heads/${p.branch}`, first),
  );
  add(
    t0,
    "pull_request",
    "pull_request opened / synchronize / labeled",
    repo,
    () => prPayload(repo, p, "opened"),
    () => {
      p.head = first;
      p.commits.push(first);
      p.baseSha = repo.refs.get("heads/main");
      repo.pulls.set(p.number, p);
    },
  );
  if (random() < 0.3) {
    add(
      t0 + 3,
      "pull_request",
      "pull_request opened / synchronize / labeled",
      repo,
      () => prPayload(repo, p, "labeled", { label: { name: "agent-authored" } }),
      () => p.labels.push("agent-authored"),
    );
  }
  let t = t0 + 10;
  gateRun(repo, p, t, between(4, 10) * 60 * f);
  t += between(4, 10) * 60 * f + 60;
  if (random() < 0.3) {
    t += between(20, 120) * 60 * f;
    const second = newSha();
    add(
      t - 20,
      "push",
      "push",
      repo,
      () => push(repo, `refs/heads/${p.branch}`, first, second),
      () => repo.refs.set(`heads/${p.branch}`, second),
    );
    add(
      t,
      "pull_request",
      "pull_request opened / synchronize / labeled",
      repo,
      () => prPayload(repo, p, "synchronize", { before: first, after: second }),
      () => {
        p.head = second;
        p.commits.push(second);
      },
    );
    gateRun(repo, p, t + 10, between(4, 10) * 60 * f);
    t += between(4, 10) * 60 * f + 60;
  }
  t += between(15, 120) * 60 * f;
  add(t, "pull_request_review", "pull_request_review submitted", repo, () => ({
    action: "submitted",
    review: { id: nextId++, body: "Looks good.", state: "approved", user: { login: "reviewer" }, commit_id: p.head },
    pull_request: pullJson(repo, p),
    ...base(repo),
  }));
  t += between(5, 60) * 60 * f;
  const merged = random() < 0.85;
  const mergeSha = newSha();
  add(
    t,
    "pull_request",
    "pull_request closed",
    repo,
    () => prPayload(repo, p, "closed"),
    () => {
      p.state = "closed";
      if (!merged) return;
      const before = repo.refs.get("heads/main");
      p.mergedAt = new Date().toISOString();
      p.mergeSha = mergeSha;
      repo.history.unshift({ sha: mergeSha, parents: [before, p.head] });
      if (repo.history.length > 400) repo.history.length = 400;
      repo.refs.set("heads/main", mergeSha);
    },
  );
  if (!merged) continue;
  add(t + 1, "push", "push", repo, () => push(repo, "refs/heads/main", repo.history[1]?.sha ?? ZERO, mergeSha));
  if (repo.audit) {
    const run = {
      id: nextId++,
      repo: repo.full_name,
      event: "push",
      status: "queued",
      conclusion: null,
      head_sha: mergeSha,
      head_branch: "main",
      display_title: "envelope-gate",
      created_at: null,
      run_started_at: null,
      updated_at: null,
      actor: "dev",
      pull: null,
    };
    add(
      t + 10,
      "workflow_run",
      "workflow_run requested / in_progress",
      repo,
      () => wrPayload(repo, run, "requested"),
      () => {
        run.created_at = run.run_started_at = run.updated_at = new Date().toISOString();
        runs.set(run.id, run);
      },
    );
    add(
      t + 10 + between(3, 6) * 60 * f,
      "workflow_run",
      "workflow_run completed: audit run (push to main)",
      repo,
      () => wrPayload(repo, run, "completed"),
      () => {
        run.status = "completed";
        run.conclusion = "success";
        run.updated_at = new Date().toISOString();
        const zip = bundleZip({
          machine: "machine-aaaa1111",
          runId: run.id,
          headSha: mergeSha,
          repository: repo.full_name,
          pullNumber: null,
          properties: [],
          mode: "audit",
        });
        artifacts.set(run.id, { id: run.id, created_at: run.updated_at, zip });
      },
    );
  }
}
// Runner B's completions come from the App's dispatches (two deliveries each), about 8% of the
// gate runs; the rest of the day's deliveries are the org's other workflows' runs (ci.yml), which
// the App ignores from the payload (0 calls), spread like the day's pull requests.
const gateRuns = plan.filter((x) => x.kind.startsWith("workflow_run completed: runner A")).length;
const expectedB = Math.round(gateRuns * 0.08 * 2);
const anchors = plan.map((x) => x.day);
while (plan.length + expectedB < DELIVERIES) {
  const near = anchors[Math.floor(random() * anchors.length)] + between(-600, 600);
  const repo = repos[Math.floor(random() * REPOS)];
  const id = nextId++;
  const action = random() < 0.5 ? "requested" : "completed";
  const sha = newSha();
  add(near, "workflow_run", "workflow_run of another workflow (ci.yml)", repo, () => ({
    action,
    ...base(repo),
    workflow_run: {
      id,
      run_attempt: 1,
      path: ".github/workflows/ci.yml",
      event: "push",
      status: action === "completed" ? "completed" : "queued",
      conclusion: action === "completed" ? "success" : null,
      head_sha: sha,
      head_branch: "main",
      pull_requests: [],
    },
  }));
}
for (const x of plan) x.day = Math.min(86399, Math.max(0, x.day));
plan.sort((a, b) => a.day - b.day);

// ---------------------------------------------------------------------------------------------
// The App: two replicas on one PostgreSQL schema.

/** What a delivery's calls would name: its run (and artifact, whose id is the run's), pull request and commits. */
function keysOf(event, body) {
  const p = JSON.parse(body);
  const keys = [];
  if (p.workflow_run) keys.push(`/runs/${p.workflow_run.id}`, `/artifacts/${p.workflow_run.id}/`, p.workflow_run.head_sha);
  for (const pr of p.workflow_run?.pull_requests ?? []) keys.push(`/pulls/${pr.number}`);
  if (p.pull_request) keys.push(`/pulls/${p.pull_request.number}`, p.pull_request.head.sha);
  if (p.before && p.before !== ZERO) keys.push(p.before);
  if (event === "push" && p.after) keys.push(p.after);
  return keys.filter(Boolean);
}

const deferrals = []; // { delivery, wall }
function startApp(github, replica, schema) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? "/tmp",
    ENVELOPE_GATE_APP_ID: "1",
    ENVELOPE_GATE_PRIVATE_KEY: PEM,
    ENVELOPE_GATE_WEBHOOK_SECRET: SECRET,
    ENVELOPE_GATE_GITHUB_API_URL: github.url,
    // Octokit's write spacing (a second between writes, per process) is a wall-clock rule: under a
    // day compressed 180 times it would hold writes 180 times longer than in the real day.
    ENVELOPE_GATE_GITHUB_THROTTLE: "off",
    ENVELOPE_GATE_PORT: "0",
    ENVELOPE_GATE_SWEEP_SECONDS: "5",
    ENVELOPE_GATE_REDELIVERY_SECONDS: "3600",
    ENVELOPE_GATE_REPLICA_ID: replica,
    ENVELOPE_GATE_REVIEWERS: "reviewer",
    // An organisation this size raises the defaults (100 dispatches a day per installation, 30 per repository).
    ENVELOPE_GATE_BUDGET_INSTALLATION_DISPATCHES: "1000",
    ENVELOPE_GATE_BUDGET_INSTALLATION_MINUTES: "100000",
    ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES: "100",
    ENVELOPE_GATE_BUDGET_REPOSITORY_MINUTES: "10000",
    DATABASE_URL: PG_URL,
    ENVELOPE_GATE_PG_SCHEMA: schema,
  };
  return spawnApp(env).then(({ url, child }) => {
    let rest = "";
    child.stdout.on("data", (d) => {
      rest += d;
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.includes('"delivery.deferred"')) continue;
        try {
          deferrals.push({ delivery: JSON.parse(line).delivery, wall: Date.now() });
        } catch {
          // not a log line
        }
      }
    });
    return { replica, url, child };
  });
}

/** user+system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
function postgresCpu() {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") total += cpuSeconds(pid);
    } catch {
      // gone
    }
  }
  return total;
}

const deferralBuilt = readFileSync(join(ROOT, "dist/cli/index.js"), "utf8").includes("GITHUB_BUDGET_LOW");
const schema = `eg_orgday_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
const sent = []; // { id, kind, repo, day, wall, answer, ms }
const answers = new Map();
let replicas = [];
let github = null;
let exitCode = 0;
try {
  let rr = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let inFlight = 0;
  const waiters = [];
  /** One delivery, as GitHub makes it: to the next replica, at most 10 s, whatever the answer, once. */
  const send = async (item) => {
    while (inFlight >= CONNECTIONS) await new Promise((r) => waiters.push(r));
    inFlight++;
    item.apply?.();
    const body = JSON.stringify(item.make());
    const record = {
      id: randomUUID(),
      kind: item.kind,
      repo: item.repo,
      day: item.day,
      wall: Date.now(),
      answer: "",
      ms: 0,
      keys: keysOf(item.event, body),
    };
    sent.push(record);
    const target = replicas[rr++ % replicas.length];
    const t0 = performance.now();
    const kind = await Promise.race([
      deliverSigned(target.url, { id: record.id, body, event: item.event }, SECRET, agent),
      sleep(GITHUB_WAIT_MS).then(() => "timed out"),
    ]);
    record.ms = performance.now() - t0;
    record.answer = kind;
    answers.set(kind, (answers.get(kind) ?? 0) + 1);
    inFlight--;
    waiters.shift()?.();
  };
  // Runner B: its run starts when the App dispatches it, and completes 6 minutes of the day later.
  const runnerB = [];
  let runnerBDone = 0;
  const onDispatch = (run) => {
    const dueDay = dayOf(Date.now());
    const repo = repoByName.get(run.repo);
    const agree = random() < 0.7; // both fail
    runnerB.push(
      (async () => {
        await sleep(wallOf(dueDay + 20) - Date.now());
        await send({
          day: dueDay + 20,
          event: "workflow_run",
          kind: "workflow_run requested / in_progress",
          repo: run.repo,
          make: () => wrPayload(repo, run, "requested"),
        });
        await sleep(wallOf(dueDay + 360) - Date.now());
        await send({
          day: dueDay + 360,
          event: "workflow_run",
          kind: "workflow_run completed: runner B",
          repo: run.repo,
          make: () => wrPayload(repo, run, "completed"),
          apply: () => {
            run.status = "completed";
            run.conclusion = agree ? "failure" : "success";
            run.updated_at = new Date(Date.parse(run.run_started_at) + 6 * 60_000).toISOString();
            artifacts.set(run.id, {
              id: run.id,
              created_at: new Date().toISOString(),
              zip: bundleZip({
                machine: "machine-bbbb2222",
                runId: run.id,
                headSha: run.inputs.head_sha,
                repository: run.repo,
                pullNumber: Number(run.inputs.pull_request) || null,
                dualRunId: run.inputs.dual_run_id,
                properties: [
                  { name: "schema_key_order", result: agree ? "fail" : "pass" },
                  { name: "tests_collected", result: "pass" },
                ],
              }),
            });
          },
        });
        runnerBDone++;
      })(),
    );
  };
  github = await gitHub(onDispatch);
  await admin.query(`CREATE SCHEMA ${schema}`);
  replicas = await Promise.all(["replica-1", "replica-2"].map((id) => startApp(github, id, schema)));
  const cpu0 = { apps: replicas.map((r) => cpuSeconds(r.child.pid)), pg: postgresCpu(), bench: process.cpuUsage() };

  wallStart.t = Date.now() + 500;
  let late = 0;
  const pending = [];
  for (const item of plan) {
    const due = wallOf(item.day);
    if (due > Date.now()) await sleep(due - Date.now());
    late = Math.max(late, Date.now() - due);
    pending.push(send(item));
  }
  await Promise.all(pending);
  const sentSeconds = (Date.now() - wallStart.t) / 1000;
  // The day's last runner B completions, then the work left queued: bounded waits.
  let drained = "";
  for (let i = 0; i < DRAIN_S * 2; i++) {
    const left = Number((await admin.query(`SELECT COUNT(*) AS n FROM ${schema}.deliveries WHERE state <> 'done'`)).rows[0].n);
    const waitingB = Number(
      (
        await admin.query(
          `SELECT COUNT(*) AS n FROM ${schema}.dual_runs WHERE state IN ('pending', 'dispatching', 'waiting', 'comparing', 'decided', 'reporting')`,
        )
      ).rows[0].n,
    );
    drained = `deliveries not done ${left}, runner B completions unsent ${runnerB.length - runnerBDone}, dual runs unsettled ${waitingB}`;
    if (left === 0 && runnerBDone === runnerB.length && waitingB === 0) {
      drained = "";
      break;
    }
    await sleep(500);
  }
  await Promise.race([Promise.all(runnerB), sleep(30_000)]);
  for (let i = 0; i < 40; i++) {
    const left = Number((await admin.query(`SELECT COUNT(*) AS n FROM ${schema}.deliveries WHERE state <> 'done'`)).rows[0].n);
    if (left === 0) break;
    await sleep(500);
  }
  const wallSeconds = (Date.now() - wallStart.t) / 1000;
  const cpu = {
    apps: replicas.map((r, i) => cpuSeconds(r.child.pid) - cpu0.apps[i]),
    pg: postgresCpu() - cpu0.pg,
    bench: (() => {
      const u = process.cpuUsage(cpu0.bench);
      return (u.user + u.system) / 1e6;
    })(),
  };
  agent.destroy();

  // ------------------------------------------------------------------------------------------
  // Accounting.
  const rows = (
    await admin.query(`SELECT delivery_id, state, attempts, failures, received_at, finished_at, error_code FROM ${schema}.deliveries`)
  ).rows;
  const byId = new Map(rows.map((r) => [r.delivery_id, r]));
  let lost = 0;
  let duplicated = 0;
  const notDone = new Map();
  for (const s of sent) {
    const row = byId.get(s.id);
    if (!row || row.state !== "done") {
      lost++;
      const k = row ? `${row.state} ${row.error_code ?? ""}`.trim() : "not recorded";
      notDone.set(k, (notDone.get(k) ?? 0) + 1);
    } else duplicated += Math.max(0, Number(row.attempts) - Number(row.failures) - 1);
  }
  const perDual = new Map();
  for (const d of github.dispatches) perDual.set(d.dualRunId, (perDual.get(d.dualRunId) ?? 0) + 1);
  const doubleDispatch = [...perDual.values()].filter((n) => n > 1).length;

  // Calls attributed to the delivery worked on in their repository at the time.
  const windowsByRepo = new Map();
  for (const s of sent) {
    const row = byId.get(s.id);
    if (!row) continue;
    const w = {
      kind: s.kind,
      keys: s.keys,
      day: s.day,
      from: Number(row.received_at),
      to: Number(row.finished_at ?? Date.now()),
      calls: 0,
    };
    s.window = w;
    windowsByRepo.set(s.repo, [...(windowsByRepo.get(s.repo) ?? []), w]);
  }
  let shared = 0;
  let unattributed = 0;
  const causedAt = []; // [time of day of the delivery that made the call, share]
  // A 304 to a conditional request spends none of the budget: the figures count the rest.
  const spent = github.calls.filter((c) => !c.notModified);
  const notModified = github.calls.length - spent.length;
  for (const c of spent) {
    const open = (windowsByRepo.get(c.repo) ?? []).filter((w) => w.from - 50 <= c.wall && c.wall <= w.to + 50);
    // Of several deliveries at work in the repository, those whose run, pull request or commit the call names.
    const named = open.filter((w) => w.keys.some((k) => c.text.includes(k)));
    const ws = named.length > 0 ? named : open;
    if (ws.length > 1) shared++;
    if (ws.length === 0) unattributed++;
    if (c.inst === INSTALLATION) {
      if (ws.length === 0) causedAt.push([c.day, 1]);
      for (const w of ws) causedAt.push([w.day, 1 / ws.length]);
    }
    for (const w of ws) w.calls += 1 / ws.length;
  }
  // The same calls at the time of day of the delivery that made them: the day as the App would
  // spend it at a real day's pace, where its work takes seconds of the day, not minutes.
  causedAt.sort((a, b) => a[0] - b[0]);
  let peakCaused = 0;
  for (let i = 0, j = 0, sum = 0; i < causedAt.length; i++) {
    sum += causedAt[i][1];
    while (causedAt[i][0] - causedAt[j][0] >= 3600) sum -= causedAt[j++][1];
    peakCaused = Math.max(peakCaused, sum);
  }
  const byKind = new Map();
  for (const s of sent) {
    const e = byKind.get(s.kind) ?? { n: 0, calls: 0, max: 0 };
    e.n++;
    e.calls += s.window?.calls ?? 0;
    e.max = Math.max(e.max, Math.round(s.window?.calls ?? 0));
    byKind.set(s.kind, e);
  }
  const totalCalls = spent.length;

  // Hourly figures on the scaled stamps.
  const days = spent
    .filter((c) => c.inst === INSTALLATION)
    .map((c) => c.day)
    .sort((a, b) => a - b);
  let peak = 0;
  let peakAt = 0;
  for (let i = 0, j = 0; i < days.length; i++) {
    while (days[i] - days[j] >= 3600) j++;
    if (i - j + 1 > peak) {
      peak = i - j + 1;
      peakAt = days[j];
    }
  }
  const clockHours = new Array(25).fill(0);
  for (const d of days) clockHours[Math.min(24, Math.floor(d / 3600))]++;
  const peakClock = Math.max(...clockHours);
  const peakClockHour = clockHours.indexOf(peakClock);
  const overLimit = (() => {
    // Calls GitHub would have refused: past 5,000 in their window (an hour from its first call).
    let over = 0;
    let start = -Infinity;
    let used = 0;
    for (const d of days) {
      if (d >= start + 3600) {
        start = d;
        used = 0;
      }
      if (++used > LIMIT) over++;
    }
    return over;
  })();
  const deliveryDays = sent.map((s) => s.day).sort((a, b) => a - b);
  let burst2h = 0;
  for (let i = 0, j = 0; i < deliveryDays.length; i++) {
    while (deliveryDays[i] - deliveryDays[j] >= 7200) j++;
    burst2h = Math.max(burst2h, i - j + 1);
  }
  const lags = sent
    .map((s) => byId.get(s.id))
    .filter((r) => r && r.finished_at !== null)
    .map((r) => Number(r.finished_at) - Number(r.received_at))
    .sort((a, b) => a - b);
  const lagPct = (p) => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))] ?? 0;
  const ms = sent.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0;
  const under10 = sent.filter((s) => s.answer !== "timed out" && s.ms < 10_000).length;
  const accepted = sent.filter((s) => ["queued", "in_progress", "duplicate", "done"].includes(s.answer)).length;

  let deferralLine;
  if (!deferralBuilt)
    deferralLine = "deferral: not in this build (the App does not defer work for its rate-limit budget; branch `budget` adds it)";
  else {
    const waits = deferrals
      .map((d) => {
        const row = byId.get(d.delivery);
        return row?.finished_at ? (Number(row.finished_at) - d.wall) * SCALE : null;
      })
      .filter((x) => x !== null)
      .sort((a, b) => a - b);
    const q = (p) => (waits.length === 0 ? 0 : waits[Math.min(waits.length - 1, Math.floor((p / 100) * waits.length))] / 60_000);
    deferralLine = `deferral: ${deferrals.length} deferrals of ${new Set(deferrals.map((d) => d.delivery)).size} deliveries (GITHUB_BUDGET_LOW); waited p50 ${q(50).toFixed(1)} / max ${q(100).toFixed(1)} minutes of the day until done`;
  }
  const f0 = (n) => Math.round(n).toLocaleString("en-US");
  const kinds = [...byKind].sort((a, b) => b[1].calls - a[1].calls || b[1].n - a[1].n);
  const scaledNote =
    DELIVERIES === 20000
      ? ""
      : ` This run used ${f0(DELIVERIES)} deliveries (BENCH_ORGDAY_DELIVERIES) and ${f0(PULLS)} pull requests, the same mix scaled: its hourly figures are for an organisation ${(DELIVERIES / 20000).toFixed(2)}× the size.`;
  const lines = [
    "## App: an organisation's day (500 repositories, one installation's rate-limit budget)",
    "",
    `${f0(sent.length)} signed deliveries from ${f0(PULLS)} pull requests in ${REPOS} repositories of one installation, sent to two App processes sharing one PostgreSQL, over one day compressed ${SCALE.toFixed(0)} times (86,400 s of the day in ${DAY_SECONDS} s: each delivery sent at its time of day / ${SCALE.toFixed(0)}, each GitHub call's time multiplied back; the App process takes no injected clock). The day is bursty: a release morning, the busiest 2 hours holding ${((100 * burst2h) / sent.length).toFixed(0)}% of the deliveries. Each pull request: a branch push, opened (30% labelled \`agent-authored\`), a gate run (requested, in progress, completed; 30% pushed again: synchronize and a second run), a review, closed (85% merged: a push to main; in the 20 repositories running the gate in audit mode on main, an audit run). 8% of gate runs fail a property and the App dispatches runner B (its completion 6 minutes of the day later; 30% disagree). The rest of the deliveries are other workflows' runs, which the App ignores from the payload. The stand-in GitHub answers reads after 30-80 ms and writes after 80-200 ms, with \`x-ratelimit-*\` headers per installation (limit ${f0(LIMIT)}, an hour's window from its first call), ${ENFORCE ? "refusing calls past the limit with 403 as GitHub does" : "answering every call: the figures are the App's demand"}. Octokit's write spacing is off (a wall-clock rule the compression would stretch ${SCALE.toFixed(0)} times); runner B's caps raised to 1,000 dispatches a day per installation.${scaledNote}`,
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| deliveries sent / pull requests / repositories | ${f0(sent.length)} / ${f0(PULLS)} / ${REPOS} |`,
    `| GitHub calls spending the installation's budget (the day) | ${f0(totalCalls)} |`,
    `| conditional requests GitHub answered 304 (free: not counted above) | ${f0(notModified)} |`,
    `| calls per delivery, mean (all deliveries) | ${(totalCalls / sent.length).toFixed(2)} |`,
    `| **peak calls in any 60 minutes of the day, the org's one installation** (budget ${f0(LIMIT)}) | **${f0(peak)}** (from ${String(Math.floor(peakAt / 3600)).padStart(2, "0")}:${String(Math.floor((peakAt % 3600) / 60)).padStart(2, "0")}) |`,
    `| **the same, each call at the time of day of the delivery that made it** (the App keeping pace) | **${f0(peakCaused)}** |`,
    `| peak calls in a clock hour (${String(peakClockHour).padStart(2, "0")}:00) | ${f0(peakClock)} |`,
    `| calls GitHub would refuse (past ${f0(LIMIT)} in their hour's window) | ${f0(overLimit)} |`,
    `| answers under 10 s (GitHub's timeout) | ${((100 * under10) / sent.length).toFixed(2)}% (${f0(under10)} of ${f0(sent.length)}) |`,
    `| answer time p50 / p99 / max, ms (wall) | ${pct(50).toFixed(1)} / ${pct(99).toFixed(1)} / ${(ms.at(-1) ?? 0).toFixed(1)} |`,
    `| **lost** (sent, not recorded \`done\`) | **${lost}** |`,
    `| **duplicated** (work run again after it was done / a dual run dispatched twice) | **${duplicated} / ${doubleDispatch}** |`,
    `| runner B dispatched / completions delivered | ${github.dispatches.length} / ${sent.filter((s) => s.kind === "workflow_run completed: runner B").length} |`,
    `| work finished after receipt p50 / p99, ms of wall (× ${SCALE.toFixed(0)} in the day) | ${lagPct(50)} / ${lagPct(99)} |`,
    `| ${deferralLine.split(":")[0]} | ${deferralLine.slice(deferralLine.indexOf(":") + 2)} |`,
    `| CPU s, App replica-1 / replica-2 / PostgreSQL / stand-in + sender, beside ${wallSeconds.toFixed(0)} s wall | ${cpu.apps.map((x) => x.toFixed(1)).join(" / ")} / ${cpu.pg.toFixed(1)} / ${cpu.bench.toFixed(1)} |`,
    `| wall time, s: day sent / all done | ${sentSeconds.toFixed(0)} / ${wallSeconds.toFixed(0)} |`,
    "",
    "Calls per delivery, by event, approximate: each call is attributed to the delivery the App was working on in that repository at the time (the store's receipt and finish), preferring the one whose run, pull request or commit the call names, and split when several could have made it. Under the compression deliveries of one pull request overlap in the App's queue, so calls leak from workflow_run completions to the zero-call events beside them (a runner A completion makes 11 to 13 calls alone: docs/app.md, Cost per event, checked by test/app/cost.test.ts); the totals are exact.",
    "",
    "| event | deliveries | calls | mean | most |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...kinds.map(([k, e]) => `| ${k} | ${f0(e.n)} | ${f0(e.calls)} | ${(e.calls / e.n).toFixed(2)} | ${e.max} |`),
    "",
    `Calls shared between two deliveries' windows: ${f0(shared)}; made outside any delivery's (the sweeper's deadlines and retries): ${f0(unattributed)}. Answers: ${[...answers].map(([k, v]) => `${k} ${v}`).join(", ")} (accepted ${f0(accepted)}). ${drained === "" ? "" : `Not settled after ${DRAIN_S} s: ${drained}. `}The sender fell behind its schedule by at most ${(late / 1000).toFixed(1)} s of wall.${notDone.size > 0 ? ` Not done: ${[...notDone].map(([k, v]) => `${k} ${v}`).join(", ")}.` : ""}${github.unexpected.size > 0 ? ` Calls the stand-in does not serve (404): ${[...github.unexpected].map(([k, v]) => `${k} ${v}`).join(", ")}.` : ""} Hours are the day's (scaled wall time); the App's work lags receipt by the wall times above, which the compression multiplies by ${SCALE.toFixed(0)} in the day: a call made late lands in a later minute of the day than in a real day, where the App would keep up with about ${(burst2h / 7200).toFixed(1)} deliveries a second at the peak.`,
    "",
  ];
  process.stdout.write(lines.join("\n"));
  if (lost > 0 || duplicated > 0 || doubleDispatch > 0) {
    process.stderr.write(`orgday bench: lost ${lost}, duplicated ${duplicated}, dispatched twice ${doubleDispatch}\n`);
    exitCode = 1;
  }
  if (peak > LIMIT) process.stderr.write(`orgday bench: peak calls in 60 minutes ${peak} exceed the installation's ${LIMIT}\n`);
} finally {
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGTERM");
  await sleep(500);
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill("SIGKILL");
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
  await admin.end().catch(() => {});
  github?.close();
}
process.exit(exitCode);
