import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { startApp, type RunningApp } from "../../src/app/start.js";
import { inlineSecret } from "../../src/app/secrets.js";
import { signPayload } from "../../src/app/server.js";
import { openStore } from "../../src/store/index.js";
import { closedPort } from "../support/fake-github.js";
import {
  addRunA,
  appKeys,
  baseConfig,
  deliver,
  deliverAndWait,
  dispatchedRuns,
  pgProxy,
  pgSchema,
  processEnv,
  REPO,
  SECRET,
  silent,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
  withSqliteApp,
} from "./helpers.js";
import { runCli, startAppProcess } from "./process.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];

describe("webhook signatures", () => {
  let world: World;
  let app: RunningApp;
  beforeEach(async () => {
    world = await startWorld();
    app = await startTestApp(world.fake, new TestClock(), {
      webhookSecrets: inlineSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET", `${SECRET}\nthe-previous-secret-abcdef`),
    });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  it("refuses a bad, missing, sha1-only or stale signature with WEBHOOK_SIGNATURE_INVALID and records nothing", async () => {
    const payload = { zen: "hi", hook_id: 1 };
    const body = JSON.stringify(payload);
    const attempts = [
      { signature: signPayload("not-the-secret-at-all", body) },
      { signature: "" },
      { signature: `sha1=${"0".repeat(40)}` },
      { signature: signPayload(SECRET, body + " ") }, // signed a different body
    ];
    for (const [i, a] of attempts.entries()) {
      const res = await deliver(app.url, "ping", payload, { delivery: `bad-${i}`, signature: a.signature });
      expect(res.status).toBe(401);
      expect((res.body.error as { code: string }).code).toBe("WEBHOOK_SIGNATURE_INVALID");
      expect(await app.store.getDelivery(`bad-${i}`)).toBeNull();
    }
  });

  it("accepts the current and the previous secret during a rotation", async () => {
    expect((await deliverAndWait(app.url, "ping", { zen: "a" }, { secret: SECRET })).state).toBe("done");
    expect((await deliverAndWait(app.url, "ping", { zen: "b" }, { secret: "the-previous-secret-abcdef" })).state).toBe("done");
  });

  it("serves health and a read-only status page", async () => {
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, paused: false });
    const html = await (await fetch(`${app.url}/status`)).text();
    for (const heading of [
      "Kill switch",
      "Installations",
      "Dual runs in flight",
      "Open ledger PRs",
      "Freezes expiring within 3 days",
      "Shadow proposals",
    ]) {
      expect(html).toContain(heading);
    }
    expect(html).not.toMatch(/<form|method="post"/i);
    expect((await fetch(`${app.url}/status`, { method: "POST" })).status).toBe(404);
  });
});

describe("kill switch", () => {
  let world: World;
  let app: RunningApp;
  let dbPath: string;
  beforeEach(async () => {
    world = await startWorld();
    dbPath = join(tempDir(), "app.sqlite");
    app = await startTestApp(world.fake, new TestClock(), { store: { sqlitePath: dbPath } });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  it("pause (from the CLI, another process) stops a dispatch that was about to go out; resume lets the sweeper send it", async () => {
    const runA = addRunA(world.fake, { properties: FAILING });
    // The operator pauses while the App is downloading A's evidence: the very next call is the dispatch.
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === runA.id)!;
    let paused: Promise<unknown> | null = null;
    world.fake.route("GET", "/_fake_blob/:owner/:repo/:file", async (_req) => {
      paused ??= runCli(["app", "pause", "--reason", "incident 42"], { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath });
      const result = (await paused) as { code: number; stdout: string };
      expect(result.code).toBe(0);
      const { zipSync } = await import("fflate");
      return { status: 200, body: zipSync(artifact.files), headers: { "content-type": "application/zip" } };
    });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "pause-1" });
    // Accepted and recorded, not done: queued for the sweeper, nothing sent.
    expect(res.answer.status).toBe(202);
    expect(res.answer.body.status).toBe("queued");
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches")).toHaveLength(0);
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    expect(await app.store.getDelivery("pause-1")).toMatchObject({ state: "queued", error_code: "KILL_SWITCH_ENGAGED", failures: 0 });
    expect((await app.store.listDualRuns(["pending"])).length).toBe(1);
    const health = (await (await fetch(`${app.url}/healthz`)).json()) as { paused: boolean };
    expect(health.paused).toBe(true);
    expect(await (await fetch(`${app.url}/status`)).text()).toContain("PAUSED");
    // While paused the sweeper sends nothing either.
    const sweep = await app.sweep();
    expect(sweep.errors.map((e) => e.code)).toEqual(["KILL_SWITCH_ENGAGED"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    const resumed = await runCli(["app", "resume", "--reason", "drill over"], { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath });
    expect(resumed.stdout).toContain("resumed");
    const after = await app.sweep();
    expect(after.dispatched).toHaveLength(1);
    expect(after.deliveries).toEqual(["pause-1"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    expect((await app.store.getDelivery("pause-1"))?.state).toBe("done");
  });

  it("a run-A completion arriving during a pause is recorded, nothing is sent, and the sweeper does its work after resume", async () => {
    const cli = { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath };
    expect((await runCli(["app", "pause", "--reason", "incident 43"], cli)).code).toBe(0);
    const runA = addRunA(world.fake, { properties: FAILING });
    const before = world.fake.requests.length;
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "paused-a" });
    expect(res.answer.status).toBe(202);
    expect(res.answer.body.status).toBe("queued");
    expect(world.fake.requests.length).toBe(before);
    expect(await app.store.getDelivery("paused-a")).toMatchObject({ state: "queued", error_code: "KILL_SWITCH_ENGAGED" });
    // A redelivery while paused is queued again, still nothing sent.
    expect(
      (await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "paused-a" })).answer.status,
    ).toBe(202);
    expect((await app.sweep()).deliveries).toEqual([]);
    expect(world.fake.requests.length).toBe(before);
    expect((await runCli(["app", "resume", "--reason", "drill over"], cli)).code).toBe(0);
    const swept = await app.sweep();
    expect(swept.deliveries).toEqual(["paused-a"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    expect(await app.store.getDelivery("paused-a")).toMatchObject({ state: "done", payload: null });
    // Done once: the next pass and a redelivery do nothing more.
    expect((await app.sweep()).deliveries).toEqual([]);
    const again = await deliver(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "paused-a" });
    expect(again).toMatchObject({ status: 200, body: { status: "duplicate" } });
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  it("pause needs a reason", async () => {
    const res = await runCli(["app", "pause"], { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--reason");
  });
});

describe("GITHUB_UNAVAILABLE", () => {
  it("with the fake GitHub stopped the delivery fails with GITHUB_UNAVAILABLE; redelivered after it is back, it is processed", async () => {
    const world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock());
    try {
      const runA = addRunA(world.fake, { properties: FAILING });
      const payload = workflowRunPayload(world.fake, runA);
      await world.fake.close();
      const res = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "gh-down-1" });
      expect(res.answer.status).toBe(202);
      expect(res).toMatchObject({ state: "queued", code: "GITHUB_UNAVAILABLE" });
      const recorded = await app.store.getDelivery("gh-down-1");
      // Queued for the sweeper (GitHub's log shows the delivery as delivered: the App holds it).
      expect(recorded?.state).toBe("queued");
      expect(recorded?.error_code).toBe("GITHUB_UNAVAILABLE");
      await world.restart();
      const again = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "gh-down-1" });
      expect(again.state).toBe("done");
      expect(dispatchedRuns(world.fake)).toHaveLength(1);
      const done = await app.store.getDelivery("gh-down-1");
      expect(done).toMatchObject({ state: "done", attempts: 2, failures: 1 });
    } finally {
      await app.close();
      await world.close();
    }
  });
});

describe("GITHUB_UNAVAILABLE from a GitHub that never answers", () => {
  it("each request attempt is abandoned at its deadline", async () => {
    const world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock(), { githubTimeoutMs: 500 });
    try {
      const runA = addRunA(world.fake, { properties: FAILING });
      world.fake.route("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts", () => new Promise(() => {}));
      const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "hang-1" });
      expect(res.answer.status).toBe(202);
      expect(res.code).toBe("GITHUB_UNAVAILABLE");
      expect(await app.store.getDelivery("hang-1")).toMatchObject({ state: "queued", error_code: "GITHUB_UNAVAILABLE" });
    } finally {
      await app.close();
      await world.close();
    }
  });
});

describe("STORE_UNAVAILABLE", () => {
  it("PostgreSQL on a closed port: the App does not start", async () => {
    const world = await startWorld();
    try {
      const port = await closedPort();
      await expect(
        startApp(
          baseConfig(world.fake, {
            store: { sqlitePath: "unused", databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`, pgSchema: "public" },
          }),
          { log: silent, sweeper: false },
        ),
      ).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    } finally {
      await world.close();
    }
  });

  it("an SQLite path that cannot be opened: the App does not start", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a-file"), "not a directory");
    await expect(openStore({ sqlitePath: join(dir, "a-file", "app.sqlite") }, Date.now())).rejects.toMatchObject({
      code: "STORE_UNAVAILABLE",
    });
    await expect(openStore({ sqlitePath: join(dir, "no", "such", "dir", "app.sqlite") }, Date.now())).rejects.toMatchObject({
      code: "STORE_UNAVAILABLE",
    });
    await expect(openStore({ sqlitePath: dir }, Date.now())).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
  });

  it("PostgreSQL lost while running: health, webhooks and the outbound guard all answer STORE_UNAVAILABLE", async () => {
    const world = await startWorld();
    const { schema, drop } = await pgSchema();
    const proxy = await pgProxy();
    const app = await startTestApp(world.fake, new TestClock(), {
      store: { sqlitePath: "unused", databaseUrl: proxy.url, pgSchema: schema },
    });
    try {
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      await proxy.cut();
      const health = await fetch(`${app.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ ok: false, failing: "store_read", error: { code: "STORE_UNAVAILABLE" } });
      const runA = addRunA(world.fake, { properties: FAILING });
      const res = await deliver(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
      expect(res.status).toBe(503);
      expect((res.body.error as { code: string }).code).toBe("STORE_UNAVAILABLE");
      expect(world.fake.requests).toHaveLength(0);
    } finally {
      await app.close();
      await drop();
      await world.close();
    }
  });

  it("the CLI reports STORE_UNAVAILABLE (exit 3) for a closed PostgreSQL port", async () => {
    const port = await closedPort();
    const res = await runCli(["app", "pause", "--reason", "x"], {
      ...process.env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`,
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("STORE_UNAVAILABLE");
  });
});

describe("INTERNAL_ERROR: a bug in the App is not a store outage", () => {
  it("a row the App cannot read (a time that is not a number) answers INTERNAL_ERROR on the status pages while the store answers", async () => {
    await withSqliteApp(async (app, other) => {
      // SQLite keeps a text in a BIGINT column: the App's code then meets an Invalid Date.
      other
        .prepare(
          "INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at) VALUES ('odd', 'ping', 'done', 'x', 0, 1, 0, 'not-a-time')",
        )
        .run();
      const one = await fetch(`${app.url}/status/deliveries/odd.json`);
      expect(one.status).toBe(503);
      expect(await one.json()).toMatchObject({ error: { code: "INTERNAL_ERROR", message: expect.stringContaining("RangeError") } });
      const json = await fetch(`${app.url}/status.json`);
      expect(json.status).toBe(503);
      expect(await json.json()).toMatchObject({ error: { code: "INTERNAL_ERROR" } });
      const page = await (await fetch(`${app.url}/status`)).text();
      expect(page).toContain("The status page could not be built (INTERNAL_ERROR)");
      expect(page).not.toContain("store is unavailable");
      expect(await (await fetch(`${app.url}/healthz`)).json()).toMatchObject({ ok: true });
    });
  });
});

describe("boot guard", () => {
  const good = {
    ENVELOPE_GATE_APP_ID: "1",
    ENVELOPE_GATE_PRIVATE_KEY: appKeys().privateKeyPem,
    ENVELOPE_GATE_WEBHOOK_SECRET: "a-long-enough-secret-123",
  };

  it("refuses to start without a webhook secret, in production or not", () => {
    expect(() => loadConfig({ ...good, ENVELOPE_GATE_WEBHOOK_SECRET: "" })).toThrow(expect.objectContaining({ code: "BYPASS_REFUSED" }));
    const key = join(tempDir(), "key.pem");
    writeFileSync(key, appKeys().privateKeyPem);
    const production = { ENVELOPE_GATE_APP_ID: "1", ENVELOPE_GATE_PRIVATE_KEY_PATH: key, NODE_ENV: "production" };
    expect(() => loadConfig({ ...production, ENVELOPE_GATE_WEBHOOK_SECRET: "  " })).toThrow(
      expect.objectContaining({ code: "BYPASS_REFUSED" }),
    );
  });

  it("in production refuses weakening settings, short secrets and a non-https GitHub API", () => {
    // Production takes its secrets from files (secrets in the environment are SECRET_IN_ENVIRONMENT: secrets.test.ts).
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const prod = {
      ENVELOPE_GATE_APP_ID: "1",
      ENVELOPE_GATE_PRIVATE_KEY_PATH: file("key.pem", appKeys().privateKeyPem),
      ENVELOPE_GATE_WEBHOOK_SECRET_FILE: file("secret", "a-long-enough-secret-123\n"),
      NODE_ENV: "production",
    };
    expect(loadConfig({ ...prod }).production).toBe(true);
    // Spelt another way, production is still production: the guard is not switched off by a capital.
    expect(loadConfig({ ...prod, NODE_ENV: " Production " }).production).toBe(true);
    expect(() => loadConfig({ ...prod, NODE_ENV: "PRODUCTION", NODE_TLS_REJECT_UNAUTHORIZED: "0" })).toThrow(
      expect.objectContaining({ code: "BYPASS_REFUSED" }),
    );
    for (const extra of [
      { NODE_TLS_REJECT_UNAUTHORIZED: "0" },
      { ENVELOPE_GATE_SKIP_SIGNATURE: "1" },
      { ENVELOPE_GATE_INSECURE: "true" },
      { NODE_OPTIONS: "--insecure-http-parser" },
      { ENVELOPE_GATE_WEBHOOK_SECRET_FILE: file("short", "short\n") },
      { ENVELOPE_GATE_WEBHOOK_SECRET_FILE: file("short-previous", "a-long-enough-secret-123\nshort\n") },
      { ENVELOPE_GATE_GITHUB_API_URL: "http://github.internal/api/v3" },
    ]) {
      expect(() => loadConfig({ ...prod, ...extra }), JSON.stringify(extra)).toThrow(expect.objectContaining({ code: "BYPASS_REFUSED" }));
    }
  });

  it("malformed settings are CONFIG_INVALID", () => {
    for (const extra of [
      { ENVELOPE_GATE_APP_ID: "abc" },
      { ENVELOPE_GATE_RUNNER_B_LABELS: "self-hosted" },
      { ENVELOPE_GATE_RUNNER_B_LABELS: "[]" },
      { ENVELOPE_GATE_DEADLINE_MINUTES: "0" },
      { ENVELOPE_GATE_GITHUB_THROTTLE: "maybe" },
      { ENVELOPE_GATE_PRIVATE_KEY: "" },
      { ENVELOPE_GATE_PRIVATE_KEY_PATH: "/nonexistent/key.pem" },
      { ENVELOPE_GATE_SECRET_COMMAND: "vault kv get" },
      { ENVELOPE_GATE_SECRET_COMMAND: '["vault","kv","get","secret/envelope-gate"]' },
      { ENVELOPE_GATE_SECRET_CACHE_SECONDS: "-1" },
    ]) {
      expect(() => loadConfig({ ...good, ...extra }), JSON.stringify(extra)).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    }
  });

  it("the App process exits 3 with BYPASS_REFUSED before listening", async () => {
    const world = await startWorld();
    try {
      const dir = tempDir();
      writeFileSync(join(dir, "key.pem"), appKeys().privateKeyPem);
      writeFileSync(join(dir, "secret"), `${SECRET}\n`);
      const env = processEnv(world.fake, {
        NODE_ENV: "production",
        NODE_TLS_REJECT_UNAUTHORIZED: "0",
        ENVELOPE_GATE_PRIVATE_KEY: "",
        ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "key.pem"),
        ENVELOPE_GATE_WEBHOOK_SECRET: "",
        ENVELOPE_GATE_WEBHOOK_SECRET_FILE: join(dir, "secret"),
        ENVELOPE_GATE_DB_PATH: join(dir, "a.sqlite"),
      });
      await expect(startAppProcess(env)).rejects.toMatchObject({ code: 3, output: expect.stringContaining("BYPASS_REFUSED") });
      const noSecret = processEnv(world.fake, { ENVELOPE_GATE_WEBHOOK_SECRET: "", ENVELOPE_GATE_DB_PATH: join(tempDir(), "a.sqlite") });
      await expect(startAppProcess(noSecret)).rejects.toMatchObject({ code: 3, output: expect.stringContaining("BYPASS_REFUSED") });
    } finally {
      await world.close();
    }
  });

  it("the App process exits 3 with STORE_UNAVAILABLE when PostgreSQL is unreachable", async () => {
    const world = await startWorld();
    try {
      const port = await closedPort();
      const env = processEnv(world.fake, { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test` });
      await expect(startAppProcess(env)).rejects.toMatchObject({ code: 3, output: expect.stringContaining("STORE_UNAVAILABLE") });
    } finally {
      await world.close();
    }
  });
});
