/**
 * GitHub's real delivery contract: it delivers each event once, records an attempt as failed
 * when the answer is not a 2xx or takes longer than 10 s, and never redelivers by itself. The
 * App answers within that wait and asks GitHub again, through its deliveries API, for what it
 * failed to take. The sender here (test/support/fake-github-hooks.ts) never retries.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import type { RedeliveryReport } from "../../src/app/redelivery.js";
import { openStore, type Store } from "../../src/store/index.js";
import { installHookRoutes, type FakeHooks } from "../support/fake-github-hooks.js";
import { closedPort } from "../support/fake-github.js";
import {
  addRunA,
  APP_ID,
  appKeys,
  completeRunB,
  dispatchedRuns,
  INSTALLATION,
  ledgerPulls,
  PG_URL,
  pgProxy,
  pgSchema,
  processEnv,
  REPO,
  SECRET,
  settledState,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const DISPATCHES = "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches";
const ATTEMPTS = "/app/hook/deliveries/:delivery_id/attempts";
const pingPayload = (n: number) => ({ zen: `ping ${n}`, hook_id: n });

async function nowhere(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/webhook`;
}

describe("the redelivery pass (in-process App on SQLite, GitHub's deliveries API on the fake)", () => {
  let world: World;
  let app: RunningApp;
  let hooks: FakeHooks;
  let clock: TestClock;
  let dbPath: string;

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock();
    dbPath = join(tempDir(), "app.sqlite");
    app = await startTestApp(world.fake, clock, {
      store: { sqlitePath: dbPath },
      redelivery: { intervalMs: 60_000, perPass: 20, attemptsPerDelivery: 3 },
    });
    hooks = installHookRoutes(world.fake, {
      appId: APP_ID,
      publicKeyPem: appKeys().publicKeyPem,
      secret: SECRET,
      target: `${app.url}/webhook`,
    });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  const pass = async (): Promise<RedeliveryReport> => {
    const report = (await app.redeliver()) as RedeliveryReport;
    await hooks.settled();
    return report;
  };

  it("asks once for each delivery GitHub failed and the store never recorded; never for one delivered, nor one recorded; done once", async () => {
    const ok = await hooks.deliver("ping", pingPayload(1));
    expect(ok.status).toBe("OK");
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(2));
    expect(lost).toMatchObject({ status: "failed to connect to host", status_code: 0 });
    hooks.target = `${app.url}/webhook`;
    // Failed on GitHub's side, yet recorded by the App (a crash after its claim, before its answer): the sweeper's.
    const recorded = await hooks.deliver("ping", pingPayload(3));
    hooks.attempts[hooks.attempts.length - 1]!.status = "timed out";

    const first = await pass();
    expect(first).toMatchObject({ skipped: null, deliveries: 3, failed: 2, recorded: 1, requested: [lost.guid], errors: [] });
    expect(hooks.redeliveryRequests).toEqual([lost.id]);
    // Redelivered with the same guid, as a redelivery, and taken this time.
    expect(hooks.of(lost.guid).map((a) => [a.redelivery, a.status])).toEqual([
      [false, "failed to connect to host"],
      [true, "OK"],
    ]);
    expect(await settledState(app.url, lost.guid)).toMatchObject({ state: "done", attempts: 1 });
    expect(await settledState(app.url, recorded.guid)).toMatchObject({ state: "done" });

    // The next pass finds nothing to ask for, and nothing is asked twice.
    const second = await pass();
    expect(second.requested).toEqual([]);
    expect(hooks.redeliveryRequests).toEqual([lost.id]);
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as { redelivery: { counts: Record<string, number> } };
    expect(status.redelivery.counts).toMatchObject({ delivered: 1, requested: 0 });
  });

  it("a request GitHub has not acted on yet is pending: not asked again until its attempt is listed or PENDING_MS passed", async () => {
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(1));
    // GitHub accepts the request but its attempt is slow to come: the POST answers, nothing is redelivered yet.
    world.fake.route("POST", ATTEMPTS, () => ({ status: 202, body: {} }));
    expect((await pass()).requested).toEqual([lost.guid]);
    const again = await pass();
    expect(again).toMatchObject({ requested: [], pending: 1 });
    expect(world.fake.requestsTo("POST", ATTEMPTS)).toHaveLength(1);
    clock.advance(11 * 60_000);
    expect((await pass()).requested).toEqual([lost.guid]);
    expect(world.fake.requestsTo("POST", ATTEMPTS)).toHaveLength(2);
  });

  it("bounded per pass (the rest is left for the next) and per delivery (REDELIVERY_EXHAUSTED, on the status page)", async () => {
    await app.close();
    app = await startTestApp(world.fake, clock, {
      store: { sqlitePath: dbPath },
      redelivery: { intervalMs: 60_000, perPass: 2, attemptsPerDelivery: 2 },
    });
    hooks.target = await nowhere();
    const lost = [];
    for (let i = 0; i < 3; i++) lost.push(await hooks.deliver("ping", pingPayload(i)));
    // Every redelivery fails too (the App is still unreachable).
    const one = await pass();
    expect(one).toMatchObject({ failed: 3, deferred: 1 });
    expect(one.requested).toEqual([lost[0]!.guid, lost[1]!.guid]);
    const two = await pass();
    expect(two.requested).toEqual([lost[2]!.guid, lost[0]!.guid]);
    const three = await pass();
    expect(three.requested).toEqual([lost[1]!.guid, lost[2]!.guid]);
    // lost[0] was asked twice already: given up on this pass; the other two on the next.
    expect(three.errors.map((e) => [e.item, e.code])).toEqual([[lost[0]!.guid, "REDELIVERY_EXHAUSTED"]]);
    const four = await pass();
    expect(four.requested).toEqual([]);
    expect(four.errors.map((e) => [e.item, e.code])).toEqual(lost.slice(1).map((l) => [l.guid, "REDELIVERY_EXHAUSTED"]));
    expect(hooks.redeliveryRequests).toHaveLength(6); // 3 deliveries × 2, never more
    expect((await pass()).errors).toEqual([]); // given up once, not reported again
    const page = await (await fetch(`${app.url}/status`)).text();
    expect(page).toContain("3 deliveries the redelivery sweep gave up on");
    expect(page).toContain("REDELIVERY_EXHAUSTED");
  });

  it("a failed delivery older than GitHub keeps is REDELIVERY_EXPIRED, not asked for", async () => {
    hooks.target = await nowhere();
    const old = await hooks.deliver("ping", pingPayload(1), { deliveredAt: new Date(clock.now() - 4 * 86_400_000) });
    // A mark from before it, so the pass reaches it (the first pass looks back an hour).
    await app.store.db.run("UPDATE redelivery_sweep SET mark_at = ? WHERE id = 1", [clock.now() - 5 * 86_400_000]);
    const report = await pass();
    expect(report.requested).toEqual([]);
    // GitHub lists nothing older than it, and the mark is older than GitHub keeps: that window is reported lost too.
    expect(report.errors.map((e) => [e.item, e.code])).toEqual([
      [old.guid, "REDELIVERY_EXPIRED"],
      ["redelivery backlog", "REDELIVERY_BACKLOG_EXPIRED"],
    ]);
    expect(hooks.redeliveryRequests).toEqual([]);
  });

  it("one failed delivery followed by 5,000 delivered ones: the walk resumes from GitHub's cursor, reaches its mark, and the failed one is asked for once", async () => {
    clock.t = Date.now();
    const t0 = clock.now();
    // The mark of an earlier pass, three hours back; the failure half an hour after it, then 5,000 deliveries over 2.5 hours.
    await app.store.db.run("UPDATE redelivery_sweep SET mark_at = ? WHERE id = 1", [t0 - 3 * 3_600_000]);
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(0), { deliveredAt: new Date(t0 - 150 * 60_000) });
    expect(lost.status).toBe("failed to connect to host");
    hooks.target = `${app.url}/webhook`;
    for (let batch = 0; batch < 50; batch++) hooks.logDelivered("ping", 100, { deliveredAt: new Date(t0 - (149 - 3 * batch) * 60_000) });
    const lists = () => world.fake.requestsTo("GET", "/app/hook/deliveries").length;

    // 5,001 attempts are 51 pages of 100: the first walk takes three passes of at most MAX_PAGES (20) pages.
    const walk: RedeliveryReport[] = [];
    walk.push(await pass());
    // A failure while the walk is under way: newer than the walk's first page, it is the next walk's.
    hooks.target = await nowhere();
    const later = await hooks.deliver("ping", pingPayload(1));
    hooks.target = `${app.url}/webhook`;
    walk.push(await pass());
    walk.push(await pass());
    expect(walk.map((r) => r.requested)).toEqual([[], [], [lost.guid]]);
    expect(walk.map((r) => [r.pages, r.truncated, r.resumed])).toEqual([
      [20, true, false],
      [20, true, true],
      [11, false, true],
    ]);
    expect(walk[2]!.walk).toMatchObject({ passes: 3, pages: 51 });
    // Every page listed once: the walk resumed from GitHub's cursor, never from the newest page again.
    expect(lists()).toBe(51);
    expect(walk.slice(0, 2).map((r) => r.mark_after)).toEqual([walk[0]!.mark_before, walk[0]!.mark_before]);
    expect(Date.parse(walk[2]!.mark_after!)).toBeGreaterThan(Date.parse(walk[0]!.mark_before!));

    // The next walk starts from the newest page: it finds the failure made during the first walk, and stops at the mark.
    const next = await pass();
    expect(next).toMatchObject({ resumed: false, truncated: false, requested: [later.guid] });
    expect(next.pages).toBeLessThanOrEqual(2);
    const after = await pass();
    expect(after.requested).toEqual([]);
    expect(after.pages).toBeLessThanOrEqual(2);

    // Each failed delivery asked for exactly once, redelivered and done; 5 passes and 51 + at most 4 list requests in all.
    expect(hooks.redeliveryRequests).toEqual([lost.id, later.id]);
    expect(await settledState(app.url, lost.guid)).toMatchObject({ state: "done", attempts: 1 });
    expect(await settledState(app.url, later.guid)).toMatchObject({ state: "done", attempts: 1 });
    expect(lists()).toBeLessThanOrEqual(55);
    console.log(
      `redelivery: 1 failure + 5,000 delivered: ${lists()} list requests over ${walk.length + 2} passes (the first walk: 51 in 3)`,
    );
  });

  it("a mark older than GitHub keeps, the listing ending short of it: REDELIVERY_BACKLOG_EXPIRED names the window, under Needs attention", async () => {
    clock.t = Date.now();
    const t0 = clock.now();
    const mark = t0 - 5 * 86_400_000;
    // The sweep was off for five days: GitHub now lists only what it keeps.
    await app.store.db.run("UPDATE redelivery_sweep SET mark_at = ? WHERE id = 1", [mark]);
    hooks.logDelivered("ping", 3, { deliveredAt: new Date(t0 - 3_600_000) });
    const report = await pass();
    expect(report.errors.map((e) => e.code)).toEqual(["REDELIVERY_BACKLOG_EXPIRED"]);
    const from = new Date(mark).toISOString();
    const to = new Date(t0 - 3 * 86_400_000).toISOString();
    expect(report.errors[0]!.message).toContain(`deliveries from ${from} to ${to} can no longer be redelivered`);
    // The mark moves on: the window is reported, not walked again.
    expect(Date.parse(report.mark_after!)).toBeGreaterThan(t0 - 2 * 3_600_000);
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as {
      redelivery: { backlog_expired: { from: string; to: string; code: string } | null };
    };
    expect(status.redelivery.backlog_expired).toMatchObject({ from, to, code: "REDELIVERY_BACKLOG_EXPIRED" });
    // A later pass without errors does not hide it.
    expect((await pass()).errors).toEqual([]);
    const page = await (await fetch(`${app.url}/status`)).text();
    const attention = /<p class="alert" id="attention">([^<]*)<\/p>/.exec(page)?.[1] ?? "";
    expect(attention).toContain(`deliveries from ${from} to ${to} can no longer be redelivered`);
    expect(attention).toContain("REDELIVERY_BACKLOG_EXPIRED");
  });

  it("a walk's cursor GitHub no longer takes: the next pass walks again from the newest page, the mark unmoved", async () => {
    clock.t = Date.now();
    const t0 = clock.now();
    await app.store.db.run("UPDATE redelivery_sweep SET mark_at = ? WHERE id = 1", [t0 - 3 * 3_600_000]);
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(0), { deliveredAt: new Date(t0 - 150 * 60_000) });
    hooks.target = `${app.url}/webhook`;
    hooks.logDelivered("ping", 2_100, { deliveredAt: new Date(t0 - 60 * 60_000) });
    expect(await pass()).toMatchObject({ pages: 20, truncated: true });
    world.fake.fail("GET", "/app/hook/deliveries", 422, { times: 1, body: { message: "cursor expired" } });
    const refused = await pass();
    expect(refused.errors.map((e) => e.code)).toEqual(["REDELIVERY_LIST_REFUSED"]);
    expect(refused.mark_after).toBe(refused.mark_before);
    const again = await pass();
    expect(again).toMatchObject({ resumed: false, pages: 20, truncated: true });
    expect((await pass()).requested).toEqual([lost.guid]);
    expect(hooks.redeliveryRequests).toEqual([lost.id]);
  });

  it("the listing refused (REDELIVERY_LIST_REFUSED) or rate-limited (REDELIVERY_RATE_LIMITED): nothing asked, the mark stays", async () => {
    hooks.target = await nowhere();
    await hooks.deliver("ping", pingPayload(1));
    world.fake.fail("GET", "/app/hook/deliveries", 403, { times: 1, body: { message: "Resource not accessible by integration" } });
    const refused = await pass();
    expect(refused.errors).toEqual([expect.objectContaining({ code: "REDELIVERY_LIST_REFUSED" })]);
    expect(refused.mark_after).toBe(refused.mark_before);
    world.fake.rateLimit({ kind: "primary", pattern: "/app/hook/deliveries", resetInS: 3600 });
    const limited = await pass();
    expect(limited.errors).toEqual([expect.objectContaining({ code: "REDELIVERY_RATE_LIMITED" })]);
    expect(hooks.redeliveryRequests).toEqual([]);
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as { redelivery: { last_pass: RedeliveryReport } };
    expect(status.redelivery.last_pass.errors[0]?.code).toBe("REDELIVERY_RATE_LIMITED");
    // Once GitHub lists again, the delivery is asked for.
    expect((await pass()).requested).toHaveLength(1);
  });

  it("a rate-limited redelivery request is REDELIVERY_RATE_LIMITED and asks nothing more on that pass", async () => {
    hooks.target = await nowhere();
    await hooks.deliver("ping", pingPayload(1));
    await hooks.deliver("ping", pingPayload(2));
    world.fake.rateLimit({ kind: "secondary", method: "POST", pattern: ATTEMPTS, retryAfterS: 3600 });
    const report = await pass();
    expect(report.requested).toEqual([]);
    expect(report.errors.map((e) => e.code)).toEqual(["REDELIVERY_RATE_LIMITED"]);
    expect(report.deferred).toBe(1);
    expect(world.fake.requestsTo("POST", ATTEMPTS)).toHaveLength(1);
    expect((await pass()).requested).toHaveLength(2);
  });

  it("pages through the listing by cursor, back to the mark", async () => {
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(0));
    hooks.target = `${app.url}/webhook`;
    for (let i = 1; i <= 120; i++) await hooks.deliver("ping", pingPayload(i));
    const report = await pass();
    expect(report).toMatchObject({ pages: 2, listed: 121, deliveries: 121, failed: 1, requested: [lost.guid] });
    expect(world.fake.requestsTo("GET", "/app/hook/deliveries").map((r) => new URLSearchParams(r.query).has("cursor"))).toEqual([
      false,
      true,
    ]);
  });

  it("the switch: app redelivery off (recorded, on the status page) stops the sweep; on starts it again; a pause skips it", async () => {
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(1));
    const cli = { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath, ENVELOPE_GATE_OPERATOR: "oncall" };
    expect((await runCli(["app", "redelivery", "off"], cli)).code).toBe(2); // a reason is required
    expect((await runCli(["app", "redelivery", "off", "--reason", "GitHub incident"], cli)).stdout).toContain("turned off");
    expect(await pass()).toMatchObject({ skipped: "off", requested: [] });
    const shown = JSON.parse((await runCli(["app", "redelivery"], cli)).stdout) as { switch: { enabled: boolean; by: string } };
    expect(shown.switch).toMatchObject({ enabled: false, by: "oncall" });
    const page = await (await fetch(`${app.url}/status`)).text();
    expect(page).toContain("the redelivery sweep is OFF");
    const status = JSON.parse((await runCli(["app", "status"], cli)).stdout) as {
      switch_history: { switch: string; actor: string; reason: string }[];
      redelivery: { switch: { enabled: boolean } };
    };
    expect(status.redelivery.switch.enabled).toBe(false);
    expect(status.switch_history[0]).toMatchObject({ switch: "redelivery", actor: "oncall", reason: "GitHub incident" });

    expect((await runCli(["app", "pause", "--reason", "drill"], cli)).code).toBe(0);
    expect((await runCli(["app", "redelivery", "on", "--reason", "incident over"], cli)).code).toBe(0);
    expect(await pass()).toMatchObject({ skipped: "paused" });
    expect((await runCli(["app", "resume", "--reason", "drill over"], cli)).code).toBe(0);
    expect((await pass()).requested).toEqual([lost.guid]);
  });

  it("an unreadable redelivery switch reads as off: nothing is asked", async () => {
    hooks.target = await nowhere();
    await hooks.deliver("ping", pingPayload(1));
    await app.store.db.run(
      "INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at) VALUES (1000, 'redelivery', 'null', 'change', 'x', 'hand-made', 0)",
    );
    expect(await pass()).toMatchObject({ skipped: "off" });
    expect(hooks.redeliveryRequests).toEqual([]);
  });

  it("app retry --delivery queues a failed delivery again, from its payload; a delivery that is not failed is refused", async () => {
    const cli = { ...process.env, ENVELOPE_GATE_DB_PATH: dbPath };
    const runA = addRunA(world.fake, { properties: FAILING });
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === runA.id)!;
    const files = artifact.files;
    artifact.files = { "runner.json": new TextEncoder().encode("{}") };
    const guid = randomUUID();
    await hooks.deliver("workflow_run", workflowRunPayload(world.fake, runA), { guid });
    expect(await settledState(app.url, guid)).toMatchObject({ state: "failed", code: "EVIDENCE_DIGEST_MISMATCH" });
    artifact.files = files;
    expect((await runCli(["app", "retry", "--delivery", guid], cli)).stdout).toContain("queued again");
    expect((await runCli(["app", "retry", "--delivery", "never-seen"], cli)).code).toBe(1);
    // The free worker takes it up: after its next settle, or the sweeper.
    await app.sweep();
    expect(await settledState(app.url, guid)).toMatchObject({ state: "done" });
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    expect((await runCli(["app", "retry", "--delivery", guid], cli)).code).toBe(1);
  });
});

describe("the walk kept in PostgreSQL (in-process App, GitHub's deliveries API on the fake)", () => {
  let world: World;
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let app: RunningApp;
  let hooks: FakeHooks;

  beforeEach(async () => {
    world = await startWorld();
    schema = await pgSchema();
    app = await startTestApp(world.fake, new TestClock(Date.now()), {
      store: { sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema.schema },
      redelivery: { intervalMs: 60_000, perPass: 20, attemptsPerDelivery: 3 },
    });
    hooks = installHookRoutes(world.fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, secret: SECRET, target: "" });
  });
  afterEach(async () => {
    await app.close();
    await schema.drop();
    await world.close();
  });

  it("one failure followed by 2,100 deliveries (the issue's case): resumed on the next pass, asked for once, the mark moved past it", async () => {
    const t0 = Date.now();
    await app.store.db.run("UPDATE redelivery_sweep SET mark_at = ? WHERE id = 1", [t0 - 3 * 3_600_000]);
    hooks.target = await nowhere();
    const lost = await hooks.deliver("ping", pingPayload(0), { deliveredAt: new Date(t0 - 150 * 60_000) });
    hooks.target = `${app.url}/webhook`;
    for (let batch = 0; batch < 21; batch++) hooks.logDelivered("ping", 100, { deliveredAt: new Date(t0 - (140 - 5 * batch) * 60_000) });
    const pass = async () => {
      const r = (await app.redeliver()) as RedeliveryReport;
      await hooks.settled();
      return r;
    };
    const one = await pass();
    expect(one).toMatchObject({ pages: 20, truncated: true, requested: [] });
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as { redelivery: { walk: { pages: number } | null } };
    expect(status.redelivery.walk).toMatchObject({ pages: 20, passes: 1 });
    const two = await pass();
    expect(two).toMatchObject({ pages: 2, truncated: false, resumed: true, requested: [lost.guid] });
    const three = await pass();
    expect(three.requested).toEqual([]);
    expect(three.pages).toBeLessThanOrEqual(2);
    // The first walk's mark waits at the failure it asked for; once it is done, the next walk's mark passes it.
    expect(Date.parse(two.mark_after!)).toBe(Date.parse(lost.delivered_at));
    expect(Date.parse(three.mark_after!)).toBeGreaterThan(Date.parse(lost.delivered_at));
    expect(hooks.redeliveryRequests).toEqual([lost.id]);
    expect(world.fake.requestsTo("GET", "/app/hook/deliveries").length).toBe(22 + three.pages);
  });
});

/** Heartbeats every second, gone after three; sweeps every second, redelivery passes every five. */
const FAST = {
  ENVELOPE_GATE_HEARTBEAT_SECONDS: "1",
  ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS: "3",
  ENVELOPE_GATE_SWEEP_SECONDS: "1",
  ENVELOPE_GATE_REDELIVERY_SECONDS: "5",
};

describe("nothing lost with a sender that never retries (two App processes on PostgreSQL)", () => {
  let world: World;
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let apps: AppProcess[];
  let store: Store;
  let hooks: FakeHooks;

  beforeEach(async () => {
    world = await startWorld();
    schema = await pgSchema();
    apps = [];
    store = await openStore({ sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema.schema }, Date.now());
    hooks = installHookRoutes(world.fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, secret: SECRET, target: "" });
  });
  afterEach(async () => {
    for (const a of apps) if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill("SIGKILL");
    await store.close();
    await schema.drop();
    await world.close();
  });

  const start = async (id: string, extra: Record<string, string> = {}, url = PG_URL) => {
    const app = await startAppProcess(
      processEnv(world.fake, {
        DATABASE_URL: url,
        ENVELOPE_GATE_PG_SCHEMA: schema.schema,
        ENVELOPE_GATE_REPLICA_ID: id,
        ...FAST,
        ...extra,
      }),
    );
    apps.push(app);
    return app;
  };

  /** Polls the store until the delivery is done (bounded by attempts, not asserted on time). */
  const doneInStore = async (guid: string) => {
    let row = await store.getDelivery(guid);
    for (let i = 0; i < 600 && row?.state !== "done"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await store.getDelivery(guid);
    }
    return row;
  };

  it("refused while the store was down (503, nothing recorded): the redelivery sweep has it done once the store is back", async () => {
    const proxy = await pgProxy();
    const one = await start("replica-1", {}, proxy.url);
    hooks.target = `${one.url}/webhook`;
    const runA = addRunA(world.fake, { properties: FAILING });
    await proxy.cut();
    const refused = await hooks.deliver("workflow_run", workflowRunPayload(world.fake, runA));
    expect(refused).toMatchObject({ status: "Invalid HTTP Response: 503", status_code: 503 });
    expect(await store.getDelivery(refused.guid)).toBeNull();
    await proxy.restore();
    expect(await doneInStore(refused.guid)).toMatchObject({ state: "done", attempts: 1 });
    await hooks.settled();
    expect(hooks.redeliveryRequests).toEqual([refused.id]);
    expect(hooks.of(refused.guid).map((a) => a.status)).toEqual(["Invalid HTTP Response: 503", "OK"]);
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
  });

  it("lost to a crash before its claim was written (SIGKILL mid-body): the other replica's redelivery sweep has it done once", async () => {
    const one = await start("replica-1");
    const two = await start("replica-2");
    hooks.target = `${one.url}/webhook`;
    const runA = addRunA(world.fake, { properties: FAILING });
    const lost = await hooks.deliver("workflow_run", workflowRunPayload(world.fake, runA), {
      midBody: async () => {
        // The load balancer sends the next attempts to the replica that is left.
        hooks.target = `${two.url}/webhook`;
        await new Promise<void>((resolve) => {
          one.child.once("close", () => resolve());
          one.child.kill("SIGKILL");
        });
      },
    });
    expect(lost.status_code).toBe(0);
    expect(await store.getDelivery(lost.guid)).toBeNull();
    expect(await doneInStore(lost.guid)).toMatchObject({ state: "done", attempts: 1 });
    await hooks.settled();
    expect(hooks.redeliveryRequests).toEqual([lost.id]);
    expect(world.fake.requestsTo("POST", DISPATCHES)).toHaveLength(1);
    const status = JSON.parse(
      (await runCli(["app", "status"], processEnv(world.fake, { DATABASE_URL: PG_URL, ENVELOPE_GATE_PG_SCHEMA: schema.schema }))).stdout,
    ) as { redelivery: { counts: { delivered: number; requested: number } } };
    // Asked once: settled as delivered by the pass that lists GitHub's new attempt, pending until then.
    expect(status.redelivery.counts.delivered + status.redelivery.counts.requested).toBe(1);
  });

  it("GitHub slow (hundreds of ms per call, writes spaced by the throttle): every answer comes within GitHub's 10 s, the work, longer than that, is done once", async () => {
    const one = await start("replica-1", { ENVELOPE_GATE_GITHUB_THROTTLE: "on" });
    await start("replica-2", { ENVELOPE_GATE_GITHUB_THROTTLE: "on" });
    hooks.target = `${one.url}/webhook`;
    const cli = processEnv(world.fake, { DATABASE_URL: PG_URL, ENVELOPE_GATE_PG_SCHEMA: schema.schema });
    expect((await runCli(["app", "promote", "--installation", String(INSTALLATION)], cli)).code).toBe(0);
    world.fake.setLatency({ perCallMs: 300, perWriteMs: 300 });
    const runA = addRunA(world.fake, { properties: FAILING });
    const a = await hooks.deliver("workflow_run", workflowRunPayload(world.fake, runA));
    expect(a.status).toBe("OK");
    expect(await doneInStore(a.guid)).toMatchObject({ state: "done" });
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    // The ledger PR (tree, commit, branch, PR, review request) and the check run, each a slow write spaced by the throttle.
    const before = world.fake.requests.length;
    const b = await hooks.deliver("workflow_run", workflowRunPayload(world.fake, runB));
    expect(b.status).toBe("OK");
    const done = await doneInStore(b.guid);
    expect(done).toMatchObject({ state: "done" });
    // The delivery compares runner B's bundle, unless a replica's sweep, which polls runner B's run,
    // claimed the comparison first (slow GitHub widens that window): either way it is compared once.
    if (!String(done?.outcome).includes("freeze_eligible")) {
      expect(String(done?.outcome)).toContain("not compared here (state comparing)");
    }
    const comparedOnce = async () => (await store.listDualRuns(["done"])).find((d) => d.run_b_id === runB.id);
    let dual = await comparedOnce();
    for (let i = 0; i < 600 && dual === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      dual = await comparedOnce();
    }
    expect(dual?.outcome).toBe("freeze_eligible");
    // Its writes, each 600 ms slow and spaced 1 s apart by the throttle, with the reads between: longer than GitHub waits,
    // and the answer did not wait for them.
    const work = world.fake.requests.slice(before);
    expect(work.filter((r) => r.method !== "GET" && !r.path.startsWith("/app/")).length).toBeGreaterThanOrEqual(6);
    expect(work.length).toBeGreaterThanOrEqual(14);
    expect(ledgerPulls(world.fake).length).toBe(1);
    expect(hooks.attempts.every((x) => x.status === "OK")).toBe(true);
    expect(hooks.redeliveryRequests).toEqual([]);
  });
});
