import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import type { StatusSnapshot } from "../../src/app/status.js";
import { openStore } from "../../src/store/index.js";
import {
  addRunA,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  HEAD_SHA,
  INSTALLATION,
  ledgerPulls,
  pgProxy,
  pgSchema,
  processEnv,
  REPO,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";
import { budgetPolicyFromEnv } from "../../src/app/config.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const sha = (n: number) => `${n}`.padStart(4, "0").padEnd(40, "a");

async function status(app: { url: string }): Promise<StatusSnapshot> {
  return (await (await fetch(`${app.url}/status.json`)).json()) as StatusSnapshot;
}

describe("runner B's budget in the App (SQLite, in-process)", () => {
  let world: World;
  let app: RunningApp;
  let clock: TestClock;

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock();
    app = await startTestApp(world.fake, clock, {
      budget: budgetPolicyFromEnv({ ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES: "2", ENVELOPE_GATE_RUNNER_B_MAX_MINUTES: "30" }),
    });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  it("dispatches up to the repository's cap; the next failing run is not compared (budget): its check run says so, nothing is dispatched or frozen", async () => {
    for (const n of [1, 2]) {
      const res = await deliverAndWait(
        app.url,
        "workflow_run",
        workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING, headSha: sha(n) }, { headSha: sha(n) })),
      );
      expect(res.state).toBe("done");
    }
    expect(dispatchedRuns(world.fake)).toHaveLength(2);
    const third = addRunA(world.fake, { properties: FAILING, headSha: sha(3) }, { headSha: sha(3) });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, third));
    expect(res.state).toBe("done");
    expect(JSON.stringify(res)).toContain("RUNNER_B_BUDGET_EXCEEDED");
    expect(dispatchedRuns(world.fake)).toHaveLength(2);
    const check = world.fake.repo(REPO).checkRuns.find((c) => c.head_sha === sha(3) && c.name === "envelope-gate (dual run)");
    expect(check).toMatchObject({ conclusion: "failure" });
    expect(check?.output?.title).toContain("Not compared (budget)");
    expect(check?.output?.summary).toContain("RUNNER_B_BUDGET_EXCEEDED");
    expect(check?.output?.summary).toContain(`repository ${REPO} has used 2 of its 2 runner-B dispatches today`);
    expect(ledgerPulls(world.fake)).toHaveLength(0);

    const s = await status(app);
    expect(s.budget.scopes.find((b) => b.scope === `repository:${REPO}`)).toMatchObject({
      dispatches_used: 2,
      dispatches_left: 0,
      minutes_charged: 60,
    });
    expect(s.budget.refusals).toEqual([expect.objectContaining({ repository: REPO, code: "RUNNER_B_BUDGET_EXCEEDED" })]);
    const html = await (await fetch(`${app.url}/status`)).text();
    expect(html).toMatch(/(\b1 budget|\b\d+ budgets) exhausted for today/);
    expect(html).toContain("Last budget refusals");
    // A cap raised by hand (no recorded change) shows no room: reservations are held to the recorded cap.
    await app.store.db.run(
      "INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at) VALUES (?, 100, 100000, 'x', 'y', 0)",
      [`repository:${REPO}`],
    );
    expect((await status(app)).budget.scopes.find((b) => b.scope === `repository:${REPO}`)).toMatchObject({
      dispatches_cap: 2,
      dispatches_left: 0,
    });
  });

  it("a finished runner B is charged its real minutes from GitHub's timing of the run", async () => {
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "fail" }] });
    runB.run_started_at = "2026-11-30T08:01:00Z";
    runB.updated_at = "2026-11-30T08:07:30Z";
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state).toBe("done");
    const line = (await status(app)).budget.scopes.find((b) => b.scope === `repository:${REPO}`);
    expect(line).toMatchObject({ dispatches_used: 1, minutes_charged: 7, measured: 1 });
  });

  it("a re-run of runner B is not charged only its latest attempt: each earlier attempt counts at the maximum", async () => {
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "fail" }] });
    runB.run_started_at = "2026-11-30T08:01:00Z";
    runB.updated_at = "2026-11-30T08:29:00Z";
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state).toBe("done");
    const line = async () => (await status(app)).budget.scopes.find((b) => b.scope === `repository:${REPO}`);
    expect(await line()).toMatchObject({ minutes_charged: 28, measured: 1 });
    // Someone re-runs runner B: GitHub's run now shows the second attempt's timing only.
    runB.run_attempt = 2;
    runB.run_started_at = "2026-11-30T10:00:00Z";
    runB.updated_at = "2026-11-30T10:02:00Z";
    clock.advance(3 * 3_600_000 + 60_000);
    const report = await app.sweep();
    expect(report.measured).toHaveLength(1);
    // The first attempt is not in this reading: it counts at the maximum (30), plus the 2 read.
    expect(await line()).toMatchObject({ minutes_charged: 32, measured: 1 });
  });

  it("a pending dual run is not reserved while the App is paused: a pause spends nothing of the day's budget", async () => {
    await app.store.insertDualRun({
      id: "dr-paused",
      installation_id: INSTALLATION,
      repository: REPO,
      head_sha: HEAD_SHA,
      pull_number: 7,
      base_ref: "main",
      envelope_hash: `sha256:${"ab".repeat(32)}`,
      properties: '["schema_key_order"]',
      run_a_id: 1,
      run_a_attempt: 1,
      run_a_url: null,
      evidence_a: `sha256:${"1".repeat(64)}`,
      runner_a: "{}",
      created_at: clock.now(),
      deadline_at: clock.now() + 3_600_000,
    });
    await app.store.setKillSwitch(true, "incident 9", "ops", clock.now());
    const report = await app.sweep();
    expect(report.errors).toContainEqual(expect.objectContaining({ item: "dr-paused", code: "KILL_SWITCH_ENGAGED" }));
    expect(await app.store.budget.reservation("dr-paused")).toBeNull();
    expect(await app.store.getDualRun("dr-paused")).toMatchObject({ state: "pending" });
    await app.store.setKillSwitch(false, "incident 9 over", "ops", clock.now());
    expect((await app.sweep()).dispatched).toEqual(["dr-paused"]);
    expect(await app.store.budget.reservation("dr-paused")).not.toBeNull();
  });

  it("an unreadable switch history row: the sweep reports the watchdog's error and goes on, and nothing is sent on a pause it cannot read", async () => {
    await app.store.db.run(
      "INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at) VALUES (1000, 'pause', 'null', 'change', 'x', 'hand-made', 0)",
    );
    // The pause cannot be read, so the App is paused: the delivery is held, nothing is sent.
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    expect(res.answer.status).toBe(202);
    expect(res).toMatchObject({ state: "queued", code: "KILL_SWITCH_ENGAGED" });
    const report = await app.sweep();
    expect(report.errors).toContainEqual(expect.objectContaining({ item: "switch watchdog" }));
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    expect((await status(app)).kill_switch).toMatchObject({ paused: true, reason: expect.stringContaining("cannot be read") });
  });

  it("after a crash between GitHub accepting the dispatch and the store recording it, the retry finds runner B's run instead of dispatching again", async () => {
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    const first = dispatchedRuns(world.fake);
    expect(first).toHaveLength(1);
    const id = first[0]!.inputs?.dual_run_id as string;
    // What a process that died right after the dispatch request leaves behind.
    await app.store.db.run("UPDATE dual_runs SET state = 'pending', run_b_id = NULL, run_b_url = NULL, dispatched_at = NULL WHERE id = ?", [
      id,
    ]);
    const report = await app.sweep();
    expect(report.errors).toEqual([]);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    expect(await app.store.getDualRun(id)).toMatchObject({ state: "waiting", run_b_id: first[0]!.id });
    expect((await status(app)).budget.scopes.find((b) => b.scope === `repository:${REPO}`)).toMatchObject({ dispatches_used: 1 });
  });
});

describe("runner B's dispatch when GitHub accepts it but its answer is lost (SQLite, in-process)", () => {
  it("a 502 after GitHub accepted the dispatch is not retried blindly: the retry finds the run, one reservation, one runner B", async () => {
    const world = await startWorld();
    const clock = new TestClock();
    // The App's GitHub client retries 5xx (the default is 3): the dispatch must not be among them.
    const app = await startTestApp(world.fake, clock, { githubRetries: 2 });
    // GitHub starts the run, then its answer is lost behind a 502 (a proxy, a timeout).
    world.fake.fail("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", 502, { times: 1, afterHandling: true });
    try {
      await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
      await app.sweep();
      const runs = dispatchedRuns(world.fake);
      expect(runs).toHaveLength(1);
      const id = runs[0]!.inputs?.dual_run_id as string;
      expect(await app.store.getDualRun(id)).toMatchObject({ state: "waiting", run_b_id: runs[0]!.id });
      expect(await app.store.db.all("SELECT dual_run_id FROM budget_reservations")).toEqual([{ dual_run_id: id }]);
    } finally {
      await app.close();
      await world.close();
    }
  });
});

describe("runner B's dispatch when GitHub's run listing lags", () => {
  it("a lost answer whose run GitHub does not list yet: no second dispatch within the listing lag, and the run is found once GitHub lists it", async () => {
    const world = await startWorld();
    const clock = new TestClock();
    const app = await startTestApp(world.fake, clock);
    world.fake.fail("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", 502, { times: 1, afterHandling: true });
    try {
      await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
      expect(world.fake.repo(REPO).dispatches).toHaveLength(1);
      // GitHub started the run but does not list it yet.
      const runs = world.fake.repo(REPO).workflowRuns;
      const started = runs.splice(
        runs.findIndex((r) => r.event === "workflow_dispatch"),
        1,
      )[0]!;
      clock.advance(30_000);
      const early = await app.sweep();
      expect(early.errors).toContainEqual(expect.objectContaining({ code: "DISPATCH_OUTCOME_UNKNOWN" }));
      expect(world.fake.repo(REPO).dispatches).toHaveLength(1);
      // Listed now: found, recorded, not sent again.
      runs.push(started);
      clock.advance(31_000);
      expect((await app.sweep()).errors).toEqual([]);
      expect(world.fake.repo(REPO).dispatches).toHaveLength(1);
      const id = started.inputs?.dual_run_id as string;
      expect(await app.store.getDualRun(id)).toMatchObject({ state: "waiting", run_b_id: started.id });
    } finally {
      await app.close();
      await world.close();
    }
  });
});

describe("runner B's budget when the store is cut mid-reservation (PostgreSQL)", () => {
  it("the reservation statement dies with its connection: nothing is dispatched and the dual run ends not compared (BUDGET_UNCONFIRMED)", async () => {
    const world = await startWorld();
    const schema = await pgSchema();
    const proxy = await pgProxy({ cutWhen: (bytes) => bytes.includes("INSERT INTO budget_reservations") });
    const clock = new TestClock();
    const app = await startTestApp(world.fake, clock, {
      store: { sqlitePath: "unused", databaseUrl: proxy.url, pgSchema: schema.schema },
    });
    try {
      const res = await deliverAndWait(
        app.url,
        "workflow_run",
        workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })),
      );
      expect(proxy.cutCount()).toBeGreaterThan(0);
      expect(JSON.stringify(res)).toContain("BUDGET_UNCONFIRMED");
      expect(dispatchedRuns(world.fake)).toHaveLength(0);
      expect(world.fake.repo(REPO).dispatches).toHaveLength(0);
      const [dual] = await app.store.recentDualRuns(1);
      expect(dual).toMatchObject({ state: "done", outcome: "not_compared_budget", outcome_code: "BUDGET_UNCONFIRMED" });
      expect(await app.store.db.all("SELECT * FROM budget_reservations")).toEqual([]);
      const check = world.fake.repo(REPO).checkRuns.find((c) => c.head_sha === HEAD_SHA && c.name === "envelope-gate (dual run)");
      expect(check?.output?.summary).toContain("BUDGET_UNCONFIRMED");
    } finally {
      await app.close();
      await schema.drop();
      await world.close();
    }
  });
});

describe("the watchdog on the kill switch (a real App process, SQLite)", () => {
  let world: World;
  let proc: AppProcess | null = null;
  afterEach(async () => {
    await proc?.stop();
    await world.close();
  });

  it("a pause cleared behind the App's back is reverted within a sweep, logged, and shown in the switch history", async () => {
    world = await startWorld();
    const dbPath = join(tempDir(), "app.sqlite");
    const env = processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: dbPath, ENVELOPE_GATE_SWEEP_SECONDS: "1" });
    proc = await startAppProcess(env);
    expect((await runCli(["app", "pause", "--reason", "incident 7"], env)).code).toBe(0);
    const resumeWithout = await runCli(["app", "resume"], env);
    expect(resumeWithout.code).toBe(2);
    expect(resumeWithout.stderr).toContain("--reason");

    const db = new Database(dbPath);
    try {
      db.prepare("UPDATE kill_switch SET paused = 0, reason = NULL WHERE id = 1").run();
      // While cleared, a send is still refused: every send reads the recorded state too.
      const res = await deliverAndWait(
        proc.url,
        "workflow_run",
        workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })),
      );
      expect(res.answer.status).toBe(202);
      expect(res).toMatchObject({ state: "queued", code: "KILL_SWITCH_ENGAGED" });
      let paused = 0;
      for (let i = 0; i < 100 && paused !== 1; i++) {
        await new Promise((r) => setTimeout(r, 100));
        paused = (db.prepare("SELECT paused FROM kill_switch WHERE id = 1").get() as { paused: number }).paused;
      }
      expect(paused).toBe(1);
    } finally {
      db.close();
    }
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    expect(proc.output()).toContain('"event":"switch.unrecorded_change"');
    expect(proc.output()).toContain("SWITCH_UNRECORDED_CHANGE");
    const s = await status(proc);
    expect(s.kill_switch.paused).toBe(true);
    expect(s.switch_history[0]).toMatchObject({ switch: "pause", kind: "revert", actor: "watchdog" });
    expect(s.switch_history[1]).toMatchObject({ switch: "pause", kind: "change", reason: "incident 7" });
    const html = await (await fetch(`${proc.url}/status`)).text();
    expect(html).toContain("reverted by the watchdog");

    // A recorded resume is honoured, and the held delivery goes out.
    expect((await runCli(["app", "resume", "--reason", "incident 7 resolved"], env)).code).toBe(0);
    for (let i = 0; i < 100 && dispatchedRuns(world.fake).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  it("app budget set/clear are recorded with who and why, and app budget show reports today's usage", async () => {
    world = await startWorld();
    const dbPath = join(tempDir(), "app.sqlite");
    const env = { ...processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: dbPath }), ENVELOPE_GATE_OPERATOR: "carol" };
    const set = await runCli(
      ["app", "budget", "set", "--repository", "Acme/Widgets", "--dispatches-per-day", "3", "--minutes-per-day", "90", "--reason", "trial"],
      env,
    );
    expect(set.code).toBe(0);
    expect((await runCli(["app", "budget", "set", "--repository", "acme/widgets", "--dispatches-per-day", "3"], env)).code).toBe(2);
    const shown = JSON.parse((await runCli(["app", "budget"], env)).stdout) as StatusSnapshot["budget"];
    expect(shown.scopes).toEqual([
      expect.objectContaining({
        scope: "repository:acme/widgets",
        dispatches_cap: 3,
        minutes_cap: 90,
        override: expect.objectContaining({ by: "carol", reason: "trial" }),
      }),
    ]);
    expect((await runCli(["app", "budget", "clear", "--repository", "acme/widgets", "--reason", "trial over"], env)).code).toBe(0);
    const store = await openStore({ sqlitePath: dbPath }, Date.now());
    try {
      const history = await store.switches.history(5);
      expect(history.slice(0, 2).map((h) => [h.switch, h.actor, h.reason])).toEqual([
        ["budget:repository:acme/widgets", "carol", "trial over"],
        ["budget:repository:acme/widgets", "carol", "trial"],
      ]);
    } finally {
      await store.close();
    }
  });
});
