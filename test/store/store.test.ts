import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openStore, type NewDualRun, type NewLedgerPr, type Store } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");

function dualRun(id: string, overrides: Partial<NewDualRun> = {}): NewDualRun {
  return {
    id,
    installation_id: 1,
    repository: "o/r",
    head_sha: "a".repeat(40),
    pull_number: 3,
    base_ref: "main",
    envelope_hash: `sha256:${"0".repeat(64)}`,
    properties: '["p"]',
    run_a_id: 10,
    run_a_attempt: 1,
    run_a_url: null,
    evidence_a: `sha256:${"1".repeat(64)}`,
    runner_a: "{}",
    created_at: NOW,
    deadline_at: NOW + 3_600_000,
    ...overrides,
  };
}

function ledgerPr(key: string): NewLedgerPr {
  return {
    lock_key: key,
    repository: "o/r",
    property: "p",
    envelope_hash: `sha256:${"0".repeat(64)}`,
    head_sha: "a".repeat(40),
    dual_run_id: "d1",
    installation_id: 1,
    freeze_id: `F-${key.slice(0, 12)}`,
    branch: `envelope-gate/freeze/${key}`,
    base_ref: "main",
    ledger_path: "l.tsv",
    row_text: "row",
    title: "t",
    body: "b",
    expires_on: "2026-12-07",
    mode: "active",
    created_at: NOW,
  };
}

const backends = storeBackends("eg-store-");

describe.each(backends)("store on $name", (backend) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    await backend.setup?.();
    // Two stores on one database: two replicas migrating at once (PostgreSQL, advisory lock), or two
    // connections of one process (SQLite, opened one after the other: SQLite serves one process).
    if (backend.name === "PostgreSQL") {
      [a, b] = await Promise.all([openStore(backend.settings(), NOW), openStore(backend.settings(), NOW)]);
    } else {
      a = await openStore(backend.settings(), NOW);
      b = await openStore(backend.settings(), NOW);
    }
    // The claim owners below are live processes, heartbeating at NOW, live for ten minutes: the
    // lease tests test leases. Gone owners have their own test.
    for (const store of [a, b]) store.heartbeatStaleMs = 10 * 60_000;
    for (const owner of [...Array.from({ length: 12 }, (_, i) => `r${i}`), "late", "later", "someone-else"])
      await a.registerProcess(owner, owner, NOW);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await backend.teardown?.();
  });

  it("applies every migration once, recorded with its version", async () => {
    const rows = await a.db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await a.migrate(NOW)).toEqual([]);
  });

  it("kill switch: pause and resume are conditional and visible to the other connection", async () => {
    expect((await b.killSwitch()).paused).toBe(false);
    expect(await a.setKillSwitch(true, "incident", "ops", NOW)).toBe(true);
    expect(await a.setKillSwitch(true, "again", "ops", NOW)).toBe(false);
    expect(await b.killSwitch()).toMatchObject({ paused: true, reason: "incident", changed_by: "ops" });
    expect(await b.setKillSwitch(false, "incident over", "ops", NOW)).toBe(true);
    expect((await a.killSwitch()).paused).toBe(false);
  });

  it("installations start in shadow; promotion is one conditional update", async () => {
    expect(await a.ensureInstallation(5, "acme", NOW)).toBe("shadow");
    expect(await b.ensureInstallation(5, "acme", NOW)).toBe("shadow");
    const results = await Promise.all([a.promoteInstallation(5, "x", NOW), b.promoteInstallation(5, "y", NOW)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await a.installationMode(5)).toBe("active");
  });

  it("deliveries: claimed once; a failed one is claimed again; a done one never; a lapsed lease is taken over", async () => {
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claimDelivery("d-1", "push", `r${i}`, NOW, 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const owner = `r${claims.indexOf(true)}`;
    expect(await a.finishDelivery("d-1", "someone-else", "x", NOW)).toBe(false);
    expect(await a.failDelivery("d-1", owner, "GITHUB_UNAVAILABLE", "down", NOW)).toBe(true);
    expect(await b.claimDelivery("d-1", "push", "r9", NOW, 60_000)).toBe(true);
    expect(await b.finishDelivery("d-1", "r9", "ok", NOW)).toBe(true);
    expect(await a.claimDelivery("d-1", "push", "r1", NOW + 10 * 60_000, 60_000)).toBe(false);
    expect(await a.getDelivery("d-1")).toMatchObject({ state: "done", attempts: 2, failures: 1, outcome: "ok" });
    expect(await a.claimDelivery("d-2", "push", "r1", NOW, 60_000)).toBe(true);
    expect(await b.claimDelivery("d-2", "push", "r2", NOW + 30_000, 60_000)).toBe(false);
    expect(await b.claimDelivery("d-2", "push", "r2", NOW + 61_000, 60_000)).toBe(true);
    expect(await a.finishDelivery("d-2", "r1", "late", NOW)).toBe(false);
  });

  it("claims of a gone owner (stopped, stale heartbeat, restarted replica, unknown) are taken over in one statement; a live owner's are not", async () => {
    const T = NOW + 20 * 60_000;
    await a.registerProcess("alive/1", "alive", T);
    await a.registerProcess("crashed/1", "crashed", T - 60_000);
    await a.registerProcess("stopped/1", "stopped", T);
    await a.stopProcess("stopped/1", T);
    await a.registerProcess("restarted/1", "restarted", T);
    await a.registerProcess("restarted/2", "restarted", T);
    for (const taker of ["taker", "sweeper", "sweeper-2", ...Array.from({ length: 6 }, (_, i) => `taker-${i}`)])
      await a.registerProcess(taker, taker, T);
    a.heartbeatStaleMs = b.heartbeatStaleMs = 30_000;
    try {
      expect(await a.heartbeat("alive/1", T + 1000)).toBe(true);
      expect(await a.heartbeat("stopped/1", T + 1000)).toBe(false);
      for (const owner of ["alive/1", "crashed/1", "stopped/1", "restarted/1", "never-registered"]) {
        expect(await a.claimDelivery(`gone-${owner}`, "push", owner, T, 300_000, "{}")).toBe(true);
      }
      const takers = (id: string) =>
        Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claimDelivery(id, "push", `taker-${i}`, T + 2000, 300_000)));
      expect((await takers("gone-alive/1")).filter(Boolean)).toHaveLength(0);
      for (const owner of ["crashed/1", "stopped/1", "restarted/1", "never-registered"]) {
        const won = await takers(`gone-${owner}`);
        expect(won.filter(Boolean), owner).toHaveLength(1);
        expect((await a.getDelivery(`gone-${owner}`))?.payload).toBe("{}");
      }
      // The sweeper sees the queued and the orphaned, never a live owner's.
      await a.claimDelivery("sw-1", "push", "alive/1", T, 300_000, '{"n":1}');
      await a.failDelivery("sw-1", "alive/1", "KILL_SWITCH_ENGAGED", "paused", T, { queue: true, countsAsFailure: false });
      const sweepable = (await b.sweepableDeliveries("sweeper", T + 2000, 100)).map((d) => d.delivery_id);
      expect(sweepable).toContain("sw-1");
      expect(sweepable).not.toContain("gone-alive/1");
      expect(await b.reclaimDelivery("sw-1", "sweeper", T + 2000, 300_000)).toBe(true);
      expect(await a.reclaimDelivery("sw-1", "sweeper-2", T + 2000, 300_000)).toBe(false);
      expect(await a.getDelivery("sw-1")).toMatchObject({ state: "processing", owner: "sweeper", attempts: 2, failures: 0 });
      // Dual runs and ledger PRs held by a gone owner are taken over before their lease ends.
      await a.insertDualRun(dualRun("dr-gone"));
      expect(await a.claimDualRun("dr-gone", "pending", "dispatching", "crashed/1", T, 300_000)).toBe(true);
      expect(await b.claimDualRun("dr-gone", "pending", "dispatching", "alive/1", T + 2000, 300_000)).toBe(true);
      expect(await a.claimDualRun("dr-gone", "pending", "dispatching", "taker", T + 2000, 300_000)).toBe(false);
      const key = "gone".padEnd(16, "g");
      const row = { ...ledgerPr(key), head_sha: key.padEnd(40, "0") };
      expect(await a.claimLedgerPr(row, "stopped/1", T, 300_000)).toBe(true);
      expect(await b.claimLedgerPr(row, "alive/1", T + 2000, 300_000)).toBe(true);
      expect(await a.claimLedgerPr(row, "taker", T + 2000, 300_000)).toBe(false);
      // Queued for the sweeper until the failure cap, then failed (redelivery only).
      await a.claimDelivery("cap-1", "push", "alive/1", T, 300_000, "{}");
      expect(await a.failDelivery("cap-1", "alive/1", "GITHUB_UNAVAILABLE", "down", T, { queue: true, maxFailures: 2 })).toBe(true);
      expect((await a.getDelivery("cap-1"))?.state).toBe("queued");
      await a.reclaimDelivery("cap-1", "alive/1", T, 300_000);
      await a.failDelivery("cap-1", "alive/1", "GITHUB_UNAVAILABLE", "down", T, { queue: true, maxFailures: 2 });
      expect(await a.getDelivery("cap-1")).toMatchObject({ state: "failed", failures: 2 });
      // A drain releases what its process still holds, to the sweeper.
      expect(await a.releaseDeliveries("alive/1", "APP_DRAINING", "released", T + 3000)).toBe(1);
      expect(await a.getDelivery("gone-alive/1")).toMatchObject({ state: "queued", error_code: "APP_DRAINING" });
    } finally {
      a.heartbeatStaleMs = b.heartbeatStaleMs = 10 * 60_000;
    }
  });

  it("dual runs: insert is idempotent and each transition has exactly one winner", async () => {
    expect(await a.insertDualRun(dualRun("dr-1"))).toBe(true);
    expect(await b.insertDualRun(dualRun("dr-1"))).toBe(false);
    const racers = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? a : b).transitionDualRun("dr-1", ["pending"], "dispatching", { claim_owner: `r${i}`, claim_until: NOW + 1000 }),
    );
    expect((await Promise.all(racers)).filter(Boolean)).toHaveLength(1);
    expect(await a.transitionDualRun("dr-1", ["pending"], "waiting")).toBe(false);
    expect(
      await a.transitionDualRun(
        "dr-1",
        ["dispatching"],
        "waiting",
        { run_b_id: 99 },
        { sql: "deadline_at > ?", params: [NOW + 7_200_000] },
      ),
    ).toBe(false);
    expect(await a.transitionDualRun("dr-1", ["dispatching"], "waiting", { run_b_id: 99 }, { sql: "deadline_at > ?", params: [NOW] })).toBe(
      true,
    );
    expect((await b.findDualRunByRunB("o/r", 99))?.id).toBe("dr-1");
    await expect(a.transitionDualRun("dr-1", ["waiting"], "done", { id: "x" } as never)).rejects.toThrow(/cannot be set/);
  });

  it("ledger PRs: the unique key admits one sender among concurrent claims", async () => {
    const key = "k".repeat(16);
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).claimLedgerPr(ledgerPr(key), `r${i}`, NOW, 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const row = await a.getLedgerPr(key);
    expect(row?.state).toBe("claimed");
    // Another replica takes over only once the claim lapsed, and never after the PR was opened.
    expect(await b.claimLedgerPr(ledgerPr(key), "late", NOW + 30_000, 60_000)).toBe(false);
    expect(await b.claimLedgerPr(ledgerPr(key), "late", NOW + 61_000, 60_000)).toBe(true);
    expect(await b.transitionLedgerPr(key, ["claimed"], "opened", { pr_number: 4 }, { sql: "claim_owner = ?", params: ["late"] })).toBe(
      true,
    );
    expect(await a.claimLedgerPr(ledgerPr(key), "later", NOW + 999_999, 60_000)).toBe(false);
    expect((await a.listLedgerPrs(["opened"], "o/r")).map((r) => r.pr_number)).toEqual([4]);
  });

  it("ledger PRs are found by repository and pull number (never by branch), with the commit and head repository the App recorded", async () => {
    const key = "pull-lookup".padEnd(16, "p");
    const row = { ...ledgerPr(key), head_sha: key.padEnd(40, "0") };
    expect(await a.claimLedgerPr(row, "r1", NOW, 60_000)).toBe(true);
    expect(
      await a.transitionLedgerPr(
        key,
        ["claimed"],
        "claimed",
        { ledger_commit: "c".repeat(40) },
        { sql: "claim_owner = ?", params: ["r1"] },
      ),
    ).toBe(true);
    expect(
      await a.transitionLedgerPr(
        key,
        ["claimed"],
        "opened",
        { pr_number: 41, head_repository: "o/r" },
        { sql: "claim_owner = ?", params: ["r1"] },
      ),
    ).toBe(true);
    expect(await b.findLedgerPrByPull("o/r", 41)).toMatchObject({
      lock_key: key,
      ledger_commit: "c".repeat(40),
      head_repository: "o/r",
      pr_number: 41,
    });
    expect(await b.findLedgerPrByPull("o/r", 42)).toBeNull();
    expect(await b.findLedgerPrByPull("fork/r", 41)).toBeNull();
    expect(await b.listRefusedLedgerPrs()).toEqual([]);
    expect(
      await b.transitionLedgerPr(key, ["opened"], "closed", {
        outcome_code: "LEDGER_PR_TAMPERED",
        outcome_detail: "pushed",
        closed_at: NOW,
      }),
    ).toBe(true);
    expect((await a.listRefusedLedgerPrs()).map((r) => [r.lock_key, r.outcome_code, r.outcome_detail])).toEqual([
      [key, "LEDGER_PR_TAMPERED", "pushed"],
    ]);
  });

  it("migration 7: a ledger PR opened before it keeps its repository as its head repository; its commit is unknown", async () => {
    const key = "pre-migration-7".padEnd(16, "m");
    const row = { ...ledgerPr(key), head_sha: key.padEnd(40, "0") };
    await a.db.run("DROP INDEX ledger_prs_pull");
    for (const column of ["ledger_commit", "head_repository", "outcome_code", "outcome_detail"])
      await a.db.run(`ALTER TABLE ledger_prs DROP COLUMN ${column}`);
    await a.db.run("DELETE FROM schema_migrations WHERE version = 7");
    const cols = Object.keys(row) as (keyof typeof row)[];
    await a.db.run(
      `INSERT INTO ledger_prs (${cols.join(", ")}, state, pr_number) VALUES (${cols.map(() => "?").join(", ")}, 'opened', 77)`,
      [...cols.map((c) => row[c])],
    );
    expect(await a.migrate(NOW)).toEqual([7]);
    expect(await b.findLedgerPrByPull("o/r", 77)).toMatchObject({ head_repository: "o/r", ledger_commit: null, outcome_code: null });
    expect((await a.listLedgerPrs(["claimed"])).every((r) => r.head_repository === null)).toBe(true);
  });

  it("ledger PRs: a claim racing an uncommitted claim of the same row loses quietly, round after round", async () => {
    // Each round, twelve claimers on two connections race for a fresh row. A loser must see
    // false, never a unique-key error from the row's other keys (freeze_id, the property key).
    for (let round = 0; round < 200; round++) {
      const key = `race-${round}`.padEnd(16, "r");
      const row = { ...ledgerPr(key), head_sha: key.padEnd(40, "0") };
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).claimLedgerPr(row, `r${i}`, NOW, 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await a.getLedgerPr(key))?.claim_owner).toBe(`r${claims.indexOf(true)}`);
    }
  });
});
