/**
 * Exactly-once delivery work across crashes, restarts and a lost store, with real App
 * processes (dist/cli) on real PostgreSQL and SQLite, a real HTTP fake GitHub, real signals.
 * A delivery is held mid-work by holding runner A's evidence download in the fake; its work
 * (dispatching runner B) must happen exactly once whatever happens to the process holding it.
 * The sender never delivers again on its own, as GitHub: the App answered 202 before the work,
 * so what a crash orphans is finished by a sweeper or a worker, not by a redelivery.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crashesSince } from "../../src/store/crashes.js";
import { startApp } from "../../src/app/start.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { FakeGitHub } from "../support/fake-github.js";
import {
  addRunA,
  baseConfig,
  deliver,
  deliverAndWait,
  dispatchedRuns,
  PG_URL,
  pgProxy,
  pgSchema,
  processEnv,
  REPO,
  silent,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type WebhookResponse,
  type World,
} from "./helpers.js";
import { CLI, startAppProcess, type AppProcess } from "./process.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const DISPATCHES = "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches";
/** Heartbeats every second, gone after three: the processes under test notice a crash quickly. */
const FAST = { ENVELOPE_GATE_HEARTBEAT_SECONDS: "1", ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "3" };

/** Holds every evidence download until released; `arrived` resolves when the first one is held. */
function holdEvidence(fake: FakeGitHub): { arrived: Promise<void>; release: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  let held = true;
  fake.route("GET", "/_fake_blob/:owner/:repo/:file", async (req) => {
    if (held) {
      arrive();
      await gate;
    }
    const id = Number(String(req.params.file).replace(/\.zip$/, ""));
    const artifact = fake.repo(REPO).artifacts.find((a) => a.id === id)!;
    const { zipSync } = await import("fflate");
    return { status: 200, body: zipSync(artifact.files), headers: { "content-type": "application/zip" } };
  });
  return {
    arrived,
    release: () => {
      held = false;
      open();
    },
  };
}

/** Runner A's completion delivered to `app` and held mid-work (its evidence download held); answered before the work. */
async function heldDelivery(
  fake: FakeGitHub,
  app: AppProcess,
  delivery: string,
): Promise<{ payload: Record<string, unknown>; original: WebhookResponse; release: () => void }> {
  const runA = addRunA(fake, { properties: FAILING });
  const payload = workflowRunPayload(fake, runA);
  const hold = holdEvidence(fake);
  const original = await deliver(app.url, "workflow_run", payload, { delivery });
  await hold.arrived;
  return { payload, original, release: hold.release };
}

/** kill -9 in the middle of a delivery's work (answered 202 before); resolves once the process is gone and the hold released. */
async function killedMidDelivery(fake: FakeGitHub, app: AppProcess, delivery: string): Promise<Record<string, unknown>> {
  const held = await heldDelivery(fake, app, delivery);
  expect(held.original).toMatchObject({ status: 202, body: { status: "queued" } });
  await killed(app, "SIGKILL");
  held.release();
  return held.payload;
}

/** Polls the store until the delivery is in `state` (bounded by attempts, not asserted on time). */
async function recordedAs(store: Store, delivery: string, state: string, attempts = 300): Promise<Record<string, unknown> | null> {
  let row = await store.getDelivery(delivery);
  for (let i = 0; i < attempts && row?.state !== state; i++) {
    await new Promise((r) => setTimeout(r, 100));
    row = await store.getDelivery(delivery);
  }
  return row as Record<string, unknown> | null;
}

function killed(app: AppProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    if (app.child.exitCode !== null || app.child.signalCode !== null) return resolve(app.child.exitCode);
    app.child.once("close", (code) => resolve(code));
    app.child.kill(signal);
  });
}

describe("delivery work across crashes (App processes on PostgreSQL)", () => {
  let world: World;
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let apps: AppProcess[];
  let store: Store;
  const env = (id: string, extra: Record<string, string> = {}, url = PG_URL) =>
    processEnv(world.fake, { DATABASE_URL: url, ENVELOPE_GATE_PG_SCHEMA: schema.schema, ENVELOPE_GATE_REPLICA_ID: id, ...FAST, ...extra });

  beforeEach(async () => {
    world = await startWorld();
    schema = await pgSchema();
    apps = [];
    store = await openStore({ sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema.schema }, Date.now());
  });
  afterEach(async () => {
    await Promise.all(apps.map((a) => killed(a, "SIGKILL")));
    await store.close();
    await schema.drop();
    await world.close();
  });

  const start = async (id: string, extra: Record<string, string> = {}, url = PG_URL) => {
    const app = await startAppProcess(env(id, extra, url));
    apps.push(app);
    return app;
  };

  it("kill -9 mid-delivery: the other replica holds off while the owner looks alive (a copy is 202 in_progress), then its sweeper takes the work over once the heartbeat is stale; done once, with no redelivery", async () => {
    const [one, two] = await Promise.all([start("replica-1"), start("replica-2", { ENVELOPE_GATE_SWEEP_SECONDS: "1" })]);
    const held = await heldDelivery(world.fake, one, "crash-1");
    const payload = held.payload;
    // Answered before the work: GitHub's log shows it delivered.
    expect(held.original).toMatchObject({ status: 202, body: { status: "queued" } });
    expect(await store.getDelivery("crash-1")).toMatchObject({ state: "processing" });
    await killed(one, "SIGKILL");
    held.release();
    // Right after the crash the owner's heartbeat is fresh: a copy is held, not worked on twice.
    const copy = await deliver(two.url, "workflow_run", payload, { delivery: "crash-1" });
    expect(copy).toMatchObject({ status: 202, body: { status: "in_progress" } });
    expect(await recordedAs(store, "crash-1", "done")).toMatchObject({ state: "done", attempts: 2, payload: null });
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    // Completed work stays 200 duplicate.
    expect(await deliver(two.url, "workflow_run", payload, { delivery: "crash-1" })).toMatchObject({
      status: 200,
      body: { status: "duplicate" },
    });
  });

  it("kill -9 mid-delivery, same replica restarted: its predecessor is known dead, its sweeper takes the work over at once", async () => {
    const one = await start("replica-1");
    await killedMidDelivery(world.fake, one, "crash-2");
    // A heartbeat bound far longer than this test: only "known dead" can explain the takeover.
    await start("replica-1", { ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "600", ENVELOPE_GATE_SWEEP_SECONDS: "1" });
    expect(await recordedAs(store, "crash-2", "done")).toMatchObject({ state: "done" });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    const processes = await store.listProcesses();
    expect(processes.filter((p) => p.replica === "replica-1" && p.stopped_at === null)).toHaveLength(1);
  });

  it("a redelivery while the original runs is 202 in_progress (GitHub's log stays green, nothing runs twice); the original finishes, then it is duplicate", async () => {
    const [one, two] = await Promise.all([start("replica-1"), start("replica-2")]);
    const runA = addRunA(world.fake, { properties: FAILING });
    const payload = workflowRunPayload(world.fake, runA);
    const hold = holdEvidence(world.fake);
    const original = await deliver(one.url, "workflow_run", payload, { delivery: "busy-1" });
    expect(original).toMatchObject({ status: 202, body: { status: "queued" } });
    await hold.arrived;
    for (const app of [two, one]) {
      const res = await fetch(`${app.url}/webhook`, {
        method: "POST",
        headers: await signedHeaders(payload, "busy-1"),
        body: JSON.stringify(payload),
      });
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ status: "in_progress" });
    }
    hold.release();
    expect(await recordedAs(store, "busy-1", "done")).toMatchObject({ state: "done" });
    expect(await deliver(two.url, "workflow_run", payload, { delivery: "busy-1" })).toMatchObject({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
  });

  it("SIGTERM mid-delivery: new deliveries are recorded queued (202, APP_DRAINING) for another replica, the work in flight finishes within the drain bound", async () => {
    const one = await start("replica-1", { ENVELOPE_GATE_DRAIN_SECONDS: "60" });
    const runA = addRunA(world.fake, { properties: FAILING });
    const payload = workflowRunPayload(world.fake, runA);
    const hold = holdEvidence(world.fake);
    expect(await deliver(one.url, "workflow_run", payload, { delivery: "term-1" })).toMatchObject({ status: 202 });
    await hold.arrived;
    const exited = killed(one, "SIGTERM");
    let drained: WebhookResponse;
    let id: string;
    do {
      id = `ping-${Math.random()}`;
      drained = await deliver(one.url, "ping", { zen: "drain", hook_id: 1 }, { delivery: id });
    } while (!String(drained.body.outcome).includes("shuts down"));
    expect(drained).toMatchObject({ status: 202, body: { status: "queued" } });
    expect(await store.getDelivery(id)).toMatchObject({ state: "queued", error_code: "APP_DRAINING" });
    hold.release();
    expect(await exited).toBe(0);
    expect(await store.getDelivery("term-1")).toMatchObject({ state: "done" });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    expect((await store.listProcesses()).find((p) => p.replica === "replica-1")?.stopped_at).not.toBeNull();
  });

  it("SIGTERM mid-delivery past the drain bound: the work is released (queued), never done; another replica's worker takes it without a redelivery", async () => {
    const one = await start("replica-1", { ENVELOPE_GATE_DRAIN_SECONDS: "1", ENVELOPE_GATE_GITHUB_TIMEOUT_SECONDS: "2" });
    const runA = addRunA(world.fake, { properties: FAILING });
    const payload = workflowRunPayload(world.fake, runA);
    const hold = holdEvidence(world.fake);
    expect(await deliver(one.url, "workflow_run", payload, { delivery: "term-2" })).toMatchObject({ status: 202 });
    await hold.arrived;
    expect(await killed(one, "SIGTERM")).toBe(0);
    expect(await store.getDelivery("term-2")).toMatchObject({ state: "queued", error_code: "APP_DRAINING" });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(0);
    hold.release();
    // replica-1 is recorded stopped and released its claim: replica-2's idle worker takes it up
    // (no heartbeat wait, no sweep: both are ten minutes and an hour here).
    await start("replica-2", { ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "600" });
    expect(await recordedAs(store, "term-2", "done")).toMatchObject({ state: "done" });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
  });

  it("the store cut mid-delivery (its TCP connections reset, the port closed): the delivery is not lost and is done once after the store is back", async () => {
    const proxy = await pgProxy();
    const one = await start("replica-1", { ENVELOPE_GATE_SWEEP_SECONDS: "1" }, proxy.url);
    const two = await start("replica-2");
    const runA = addRunA(world.fake, { properties: FAILING });
    const payload = workflowRunPayload(world.fake, runA);
    const hold = holdEvidence(world.fake);
    expect(await deliver(one.url, "workflow_run", payload, { delivery: "cut-1" })).toMatchObject({ status: 202 });
    await hold.arrived;
    await proxy.cut();
    hold.release();
    // replica-1 could not record anything: the claim is still its own.
    expect(await store.getDelivery("cut-1")).toMatchObject({ state: "processing" });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(0);
    await proxy.restore();
    // Whoever gets there first (replica-1's sweeper, its own claim not in flight; or replica-2
    // once replica-1's heartbeat is stale) does the work; a later delivery of it is a duplicate.
    expect(await recordedAs(store, "cut-1", "done")).toMatchObject({ state: "done" });
    expect(await deliver(two.url, "workflow_run", payload, { delivery: "cut-1" })).toMatchObject({
      status: 200,
      body: { status: "duplicate" },
    });
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  // KNOWN, NOT FIXED (red team 2): the clean stop cannot be recorded while the store is down
  // (stopProcess's failure is swallowed in run.ts close()), so the next start counts the stop as
  // a crash: an operator restarting replicas during a store outage trips APP_CRASH_LOOP.
  // `it.fails` until the bound can tell such a stop from a crash; make it `it` then.
  it.fails(
    "SIGTERM while the store is unreachable is a clean stop (exit 0): the next start, the store back, does not count it as a crash",
    async () => {
      const proxy = await pgProxy();
      const bound = { ENVELOPE_GATE_CRASH_LIMIT: "1" };
      const one = await start("replica-stop", bound, proxy.url);
      await proxy.cut();
      expect(await killed(one, "SIGTERM")).toBe(0);
      await proxy.restore();
      // Started again by hand once the store is back: a stop on purpose is never a crash.
      const again = await start("replica-stop", bound, proxy.url).catch((err: { code?: number; output?: string }) => err);
      expect(again, (again as { output?: string }).output).toHaveProperty("url");
    },
  );
});

describe("delivery work across crashes (one App process on SQLite)", () => {
  it("kill -9 mid-delivery, restarted on the same file: its sweeper does the work once, without a redelivery", async () => {
    const world = await startWorld();
    const dbPath = join(tempDir(), "app.sqlite");
    const env = processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: dbPath, ENVELOPE_GATE_REPLICA_ID: "solo", ...FAST });
    let app = await startAppProcess(env);
    try {
      const payload = await killedMidDelivery(world.fake, app, "sq-1");
      app = await startAppProcess({ ...env, ENVELOPE_GATE_SWEEP_SECONDS: "1" });
      const store = await openStore({ sqlitePath: dbPath }, Date.now());
      try {
        expect(await recordedAs(store, "sq-1", "done")).toMatchObject({ state: "done" });
      } finally {
        await store.close();
      }
      expect(await deliver(app.url, "workflow_run", payload, { delivery: "sq-1" })).toMatchObject({
        status: 200,
        body: { status: "duplicate" },
      });
      expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    } finally {
      await killed(app, "SIGKILL");
      await world.close();
    }
  });
});

async function signedHeaders(payload: unknown, delivery: string): Promise<Record<string, string>> {
  const { signPayload } = await import("../../src/app/server.js");
  const { SECRET } = await import("./helpers.js");
  return {
    "content-type": "application/json",
    "x-github-event": "workflow_run",
    "x-github-delivery": delivery,
    "x-hub-signature-256": signPayload(SECRET, JSON.stringify(payload)),
  };
}

describe("fencing (in-process Apps on one SQLite file)", () => {
  it("a process recorded stopped by a newer process of its replica id sends nothing more (PROCESS_FENCED); its delivery is left to the sweeper", async () => {
    const world = await startWorld();
    const dbPath = join(tempDir(), "app.sqlite");
    const settings = { replicaId: "twin", store: { sqlitePath: dbPath }, heartbeatMs: 200, heartbeatStaleMs: 60_000 };
    let fenced!: () => void;
    const noticed = new Promise<void>((r) => (fenced = r));
    const clock = new TestClock();
    const older = await startApp(baseConfig(world.fake, settings), {
      clock,
      sweeper: false,
      retryAfterMs: 1,
      log: (_level, event) => event === "heartbeat.fenced" && fenced(),
    });
    // A second process under the same replica id (a misconfiguration, or a restart the old one
    // did not notice): the older one is recorded stopped and fences itself at its next heartbeat.
    const newer = await startApp(baseConfig(world.fake, settings), { clock, log: silent, sweeper: false, retryAfterMs: 1 });
    try {
      await noticed;
      const runA = addRunA(world.fake, { properties: FAILING });
      const before = world.fake.requests.length;
      const res = await deliverAndWait(older.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "fenced-1" });
      expect(res.answer.status).toBe(202);
      expect(res).toMatchObject({ state: "queued", code: "PROCESS_FENCED" });
      expect(world.fake.requests.length).toBe(before);
      expect(await newer.store.getDelivery("fenced-1")).toMatchObject({ state: "queued", error_code: "PROCESS_FENCED" });
      expect((await newer.sweep()).deliveries).toEqual(["fenced-1"]);
      expect(dispatchedRuns(world.fake)).toHaveLength(1);
    } finally {
      await older.close();
      await newer.close();
      await world.close();
    }
  });
});

/** Node as PID 1, as in the container image (its ENTRYPOINT execs node): null when bubblewrap cannot give it a PID namespace here. */
const PID1_UNAVAILABLE = (() => {
  const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--as-pid-1", "true"]);
  return probe.status === 0 ? null : `bubblewrap cannot run a command as PID 1 here: ${String(probe.stderr ?? probe.error)}`;
})();

describe("a stop during the start (the App as PID 1, as in the container image)", () => {
  it("SIGTERM while the App is still starting (a slow secret manager) stops it cleanly: it is not left serving until SIGKILL, and it is no crash", async (ctx) => {
    if (PID1_UNAVAILABLE) ctx.skip(PID1_UNAVAILABLE);
    const world = await startWorld();
    const dir = tempDir("eg-pid1-");
    try {
      // The webhook secret comes from a secret manager that takes 2 s to answer the check at start.
      writeFileSync(join(dir, "webhook-secret"), "a-webhook-secret-from-the-manager\n");
      const script = join(dir, "slow-secret.sh");
      writeFileSync(script, `#!/bin/sh\nsleep 2\ncat "$2/$1"\n`);
      chmodSync(script, 0o755);
      const env = processEnv(world.fake, {
        ENVELOPE_GATE_DB_PATH: join(dir, "app.sqlite"),
        ENVELOPE_GATE_REPLICA_ID: "pid1",
        ENVELOPE_GATE_SECRET_COMMAND: JSON.stringify([script, "%s", dir]),
      });
      delete env.ENVELOPE_GATE_WEBHOOK_SECRET;
      const bwrap = spawn(
        "bwrap",
        [
          "--ro-bind",
          "/",
          "/",
          "--dev",
          "/dev",
          "--proc",
          "/proc",
          "--bind",
          dir,
          dir,
          "--unshare-pid",
          "--as-pid-1",
          "--die-with-parent",
          "--",
          process.execPath,
          CLI,
          "app",
          "start",
        ],
        { env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      bwrap.stdout.on("data", (d: Buffer) => (output += d.toString()));
      bwrap.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => bwrap.on("close", (code) => resolve(code)));
      // The App is in its start (the secret manager's 2 s): `docker stop` sends SIGTERM to node, PID 1.
      await new Promise((r) => setTimeout(r, 800));
      const node = Number(readFileSync(`/proc/${bwrap.pid}/task/${bwrap.pid}/children`, "utf8").trim().split(/\s+/)[0]);
      process.kill(node, "SIGTERM");
      const timer = setTimeout(() => bwrap.kill("SIGKILL"), 10_000); // Docker's SIGKILL past the grace period
      const code = await exited;
      clearTimeout(timer);
      expect(code, output).toBe(0);
      // Whatever it recorded, it recorded as a clean stop: no crash of replica pid1.
      const store = await openStore({ sqlitePath: join(dir, "app.sqlite") }, Date.now());
      try {
        expect(await crashesSince(store, "pid1", 0)).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      await world.close();
    }
  });
});
