import { generateKeyPairSync } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { APP_SETTINGS } from "../../src/app/settings.js";
import {
  addRunA,
  appKeys,
  deliver,
  deliverAndWait,
  processEnv,
  SECRET,
  startWorld,
  tempDir,
  withSqliteApp,
  workflowRunPayload,
} from "./helpers.js";
import { runCli, startAppProcess } from "./process.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];

describe("health that means it", () => {
  it("/healthz is 503 store_write while the store can be read but not written (SQLite write lock held elsewhere), 200 again after", async () => {
    await withSqliteApp(async (app, other) => {
      expect(await (await fetch(`${app.url}/healthz`)).json()).toMatchObject({ ok: true, checks: { store_read: "ok", store_write: "ok" } });
      // Another writer holds SQLite's write lock: reads go on (WAL), every write times out.
      other.exec("BEGIN IMMEDIATE");
      other.prepare("UPDATE heartbeats SET beat_at = beat_at").run();
      const down = await fetch(`${app.url}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ ok: false, failing: "store_write", paused: false, error: { code: "STORE_UNAVAILABLE" } });
      expect((await fetch(`${app.url}/status`)).status).toBe(200);
      other.exec("ROLLBACK");
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      const beats = other.prepare("SELECT replica_id FROM heartbeats").all() as { replica_id: string }[];
      expect(beats.map((b) => b.replica_id)).toEqual([app.service.settings.replicaId]);
    });
  });
});

describe("the private key is checked at boot", () => {
  const env = { ENVELOPE_GATE_APP_ID: "1", ENVELOPE_GATE_WEBHOOK_SECRET: "a-long-enough-secret-123" };

  it("a key that is not a PEM RSA private key is PRIVATE_KEY_INVALID, naming the variable", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const cases: [Record<string, string>, RegExp][] = [
      [{ ENVELOPE_GATE_PRIVATE_KEY: "not a key" }, /ENVELOPE_GATE_PRIVATE_KEY is not a PEM private key/],
      [{ ENVELOPE_GATE_PRIVATE_KEY: appKeys().publicKeyPem }, /ENVELOPE_GATE_PRIVATE_KEY is not a PEM private key/],
      [{ ENVELOPE_GATE_PRIVATE_KEY: ec }, /ENVELOPE_GATE_PRIVATE_KEY is a ec key; GitHub Apps sign with RSA keys/],
    ];
    const file = join(tempDir(), "key.pem");
    writeFileSync(file, "-----BEGIN RSA PRIVATE KEY-----\ngarbage\n-----END RSA PRIVATE KEY-----\n");
    cases.push([{ ENVELOPE_GATE_PRIVATE_KEY_PATH: file }, /ENVELOPE_GATE_PRIVATE_KEY_PATH \(.*key\.pem\) is not a PEM private key/]);
    for (const [extra, message] of cases) {
      expect(() => loadConfig({ ...env, ...extra }), JSON.stringify(extra).slice(0, 80)).toThrow(
        expect.objectContaining({ code: "PRIVATE_KEY_INVALID", message: expect.stringMatching(message) }),
      );
    }
    // The key GitHub issues (PKCS#1 RSA), inline with \n escapes, is accepted.
    expect(loadConfig({ ...env, ENVELOPE_GATE_PRIVATE_KEY: appKeys().privateKeyPem.replace(/\n/g, "\\n") }).appId).toBe("1");
  });

  it("the App process exits 3 with PRIVATE_KEY_INVALID before listening", async () => {
    const world = await startWorld();
    try {
      const bad = processEnv(world.fake, { ENVELOPE_GATE_PRIVATE_KEY: "k", ENVELOPE_GATE_DB_PATH: join(tempDir(), "a.sqlite") });
      await expect(startAppProcess(bad)).rejects.toMatchObject({
        code: 3,
        output: expect.stringMatching(/PRIVATE_KEY_INVALID[\s\S]*ENVELOPE_GATE_PRIVATE_KEY/),
      });
    } finally {
      await world.close();
    }
  });
});

describe("help", () => {
  it("app --help prints every setting with its default; each subcommand's --help prints what it reads", async () => {
    const all = await runCli(["app", "--help"], process.env);
    expect(all.code).toBe(0);
    for (const s of APP_SETTINGS) {
      const line = all.stdout.split("\n").find((l) => l.trimStart().startsWith(`${s.name} `));
      expect(line, s.name).toBeDefined();
      expect(line).toContain("shown" in s ? s.shown : s.default);
    }
    for (const sub of ["start", "pause", "resume", "status", "budget", "promote", "demote", "manifest"]) {
      const res = await runCli(["app", sub, "--help"], process.env);
      expect(res.code, sub).toBe(0);
      expect(res.stdout).toContain(`envelope-gate app ${sub}`);
    }
    const pause = await runCli(["app", "pause", "--help"], process.env);
    expect(pause.stdout).toContain("DATABASE_URL");
    expect(pause.stdout).not.toContain("ENVELOPE_GATE_APP_ID");
    expect((await runCli(["app", "start", "--help"], process.env)).stdout).toContain("ENVELOPE_GATE_MAX_CONNECTIONS");
  });

  it("docs/app.md lists every setting with the default the code uses", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/app.md"), "utf8");
    for (const s of APP_SETTINGS) {
      const row = doc.split("\n").find((l) => l.startsWith(`| \`${s.name}\``));
      expect(row, s.name).toBeDefined();
      const shown = "shown" in s ? s.shown : s.default;
      if (shown !== "") expect(row, s.name).toContain(shown);
    }
  });
});

describe("logs", () => {
  it("one JSON line per answer (refused, queued) and one per work outcome (done, failed) with the delivery id; our event field is never GitHub's; no secret", async () => {
    const world = await startWorld();
    const app = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "a.sqlite") }));
    try {
      expect((await deliverAndWait(app.url, "ping", { zen: "hi", hook_id: 1 }, { delivery: "log-done" })).state).toBe("done");
      expect((await deliver(app.url, "ping", { zen: "hi" }, { delivery: "log-refused", secret: "another-secret-entirely" })).status).toBe(
        401,
      );
      const runA = addRunA(world.fake, { properties: FAILING });
      const payload = workflowRunPayload(world.fake, runA);
      await world.fake.close();
      expect((await deliverAndWait(app.url, "workflow_run", payload, { delivery: "log-failed" })).code).toBe("GITHUB_UNAVAILABLE");
    } finally {
      await app.stop();
      await world.close();
    }
    const lines = app
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const byDelivery = (id: string) => lines.filter((l) => l.delivery === id);
    expect(byDelivery("log-done")).toEqual([
      expect.objectContaining({ level: "info", event: "delivery.queued", github_event: "ping" }),
      expect.objectContaining({ level: "info", event: "delivery.done", github_event: "ping", outcome: "pong" }),
    ]);
    expect(byDelivery("log-refused")).toEqual([
      expect.objectContaining({ level: "warn", event: "webhook.refused", github_event: "ping", code: "WEBHOOK_SIGNATURE_INVALID" }),
    ]);
    expect(byDelivery("log-failed")).toEqual([
      expect.objectContaining({ level: "info", event: "delivery.queued", github_event: "workflow_run" }),
      expect.objectContaining({ level: "error", event: "delivery.failed", github_event: "workflow_run", code: "GITHUB_UNAVAILABLE" }),
    ]);
    expect(app.output()).not.toContain(SECRET);
    expect(app.output()).not.toContain("PRIVATE KEY");
  });
});
