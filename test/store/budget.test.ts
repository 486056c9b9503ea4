import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BudgetPolicy } from "../../src/core/budget.js";
import { openStore, type Store } from "../../src/store/index.js";
import { PG_URL, pgProxy, pgSchema } from "../app/helpers.js";
import { storeBackends } from "./backends.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");
const HOUR = 3_600_000;

function policy(overrides: Partial<BudgetPolicy> = {}): BudgetPolicy {
  return {
    installation: { dispatchesPerDay: 1000, minutesPerDay: 1_000_000 },
    repository: { dispatchesPerDay: 1000, minutesPerDay: 1_000_000 },
    maxRunMinutes: 60,
    freshMs: 6 * HOUR,
    ...overrides,
  };
}

let serial = 0;
function request(installationId: number, repository: string, now = NOW) {
  return { dualRunId: `dr-${++serial}`, installationId, repository, owner: "test", now };
}

const backends = storeBackends("eg-budget-");

describe.each(backends)("runner B's budget on $name", (backend) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    await backend.setup?.();
    a = await openStore(backend.settings(), NOW);
    b = await openStore(backend.settings(), NOW);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await backend.teardown?.();
  });

  it("reserves until the repository's dispatch cap, then refuses with the usage it counted; a retry of the same dual run is held, not counted", async () => {
    const p = policy({ repository: { dispatchesPerDay: 3, minutesPerDay: 1_000_000 } });
    const first = request(1, "acme/one");
    expect(await a.budget.reserve(first, p)).toEqual({ status: "reserved", day: "2026-11-30" });
    expect(await b.budget.reserve(request(1, "acme/one"), p)).toMatchObject({ status: "reserved" });
    expect(await a.budget.reserve(request(1, "ACME/One"), p)).toMatchObject({ status: "reserved" });
    const refused = await b.budget.reserve(request(1, "acme/one"), p);
    expect(refused).toMatchObject({ status: "refused", usage: { repository: { dispatches: 3, minutes: 180 } } });
    expect(await a.budget.reserve(first, p)).toMatchObject({ status: "held", reservation: { dual_run_id: first.dualRunId } });
    // Another repository of the same installation has its own cap; the next day starts again.
    expect(await a.budget.reserve(request(1, "acme/two"), p)).toMatchObject({ status: "reserved" });
    expect(await a.budget.reserve(request(1, "acme/one", NOW + 24 * HOUR), p)).toMatchObject({ status: "reserved", day: "2026-12-01" });
  });

  it("the minute cap counts unmeasured dispatches at their maximum, measured ones at their real minutes while the reading is fresh", async () => {
    const p = policy({ installation: { dispatchesPerDay: 1000, minutesPerDay: 150 }, maxRunMinutes: 60 });
    const one = request(2, "acme/mins");
    const two = request(2, "acme/mins");
    expect(await a.budget.reserve(one, p)).toMatchObject({ status: "reserved" });
    expect(await a.budget.reserve(two, p)).toMatchObject({ status: "reserved" });
    // 120 charged + 60 for the next > 150.
    expect(await b.budget.reserve(request(2, "acme/mins"), p)).toMatchObject({
      status: "refused",
      usage: { installation: { dispatches: 2, minutes: 120 } },
    });
    // Runner B's run took 7 minutes: 67 charged, so one more fits.
    expect(await a.budget.settle(one.dualRunId, 99, 7, NOW)).toBe(true);
    expect(await b.budget.reserve(request(2, "acme/mins"), p)).toMatchObject({ status: "reserved" });
    // Six hours later the reading is no longer trusted: it counts at 60 again (180 + 60 > 150).
    expect(await a.budget.reserve(request(2, "acme/mins", NOW + 6 * HOUR + 1), p)).toMatchObject({
      status: "refused",
      usage: { installation: { dispatches: 3, minutes: 180 } },
    });
  });

  it("an operator's override replaces the configured cap of its scope; a cap of 0 stops runner B", async () => {
    await a.switches.setLimit("repository:acme/stopped", { dispatchesPerDay: 0, minutesPerDay: 0 }, "ops", "incident 42", NOW);
    expect(await a.budget.reserve(request(3, "acme/stopped"), policy())).toMatchObject({
      status: "refused",
      limits: { repository: { dispatchesPerDay: 0 } },
    });
    await a.switches.setLimit("repository:acme/stopped", null, "ops", "incident over", NOW);
    expect(await a.budget.reserve(request(3, "acme/stopped"), policy())).toMatchObject({ status: "reserved" });
  });

  it("many reservations racing on two connections never pass the cap, and the sequence numbers stay dense", async () => {
    const cap = 150;
    const total = 400;
    const p = policy({ installation: { dispatchesPerDay: cap, minutesPerDay: 1_000_000 } });
    // Every pooled connection open first, so the statements really overlap on the server (with
    // the unique sequences dropped, this race reserves more than the cap on PostgreSQL).
    if (backend.name === "PostgreSQL") {
      await Promise.all([a, b].flatMap((store) => Array.from({ length: 10 }, () => store.db.all("SELECT pg_sleep(0.05)"))));
    }
    // Twenty in flight per store, two per pooled connection: every statement still races another
    // store's, and none waits out the pool's 5 s connection timeout on a busy machine (400 at once did).
    const results: Awaited<ReturnType<Store["budget"]["reserve"]>>[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < total; i = next++)
        results[i] = await (i % 2 === 0 ? a : b).budget.reserve(request(4, `acme/race-${i % 5}`), p);
    };
    await Promise.all(Array.from({ length: 40 }, worker));
    expect(results.filter((r) => r.status === "reserved")).toHaveLength(cap);
    expect(results.filter((r) => r.status === "refused")).toHaveLength(total - cap);
    const rows = await a.db.all<{ s: unknown }>(
      "SELECT installation_seq AS s FROM budget_reservations WHERE installation_id = 4 ORDER BY installation_seq",
    );
    expect(rows.map((r) => Number(r.s))).toEqual(Array.from({ length: cap }, (_, i) => i + 1));
  });

  it("a cap raised or removed behind the App's back does not admit a reservation before the watchdog reverts it: the recorded cap holds", async () => {
    const p = policy({ repository: { dispatchesPerDay: 10, minutesPerDay: 1_000_000 } });
    await a.switches.setLimit("repository:acme/hand-raised", { dispatchesPerDay: 1, minutesPerDay: 1_000_000 }, "ops", "trial", NOW);
    expect(await a.budget.reserve(request(6, "acme/hand-raised"), p)).toMatchObject({ status: "reserved" });
    // Raised by hand (a bug, an UPDATE typed into the wrong console): no sweep has run yet.
    await a.db.run("UPDATE budget_limits SET dispatches_per_day = 500 WHERE scope = 'repository:acme/hand-raised'");
    expect(await b.budget.reserve(request(6, "acme/hand-raised"), p)).toMatchObject({
      status: "refused",
      limits: { repository: { dispatchesPerDay: 1 } },
    });
    // Removed by hand, where the configured cap (10) is looser than the recorded one (1).
    await a.db.run("DELETE FROM budget_limits WHERE scope = 'repository:acme/hand-raised'");
    expect(await b.budget.reserve(request(6, "acme/hand-raised"), p)).toMatchObject({ status: "refused" });
    // A recorded change is honoured at once.
    await a.switches.setLimit("repository:acme/hand-raised", { dispatchesPerDay: 2, minutesPerDay: 1_000_000 }, "ops", "more", NOW);
    expect(await b.budget.reserve(request(6, "acme/hand-raised"), p)).toMatchObject({ status: "reserved" });
    expect(await b.budget.reserve(request(6, "acme/hand-raised"), p)).toMatchObject({ status: "refused" });
  });

  it("the switch history records who and why; a pause cleared behind the App's back still reads paused and is reverted once", async () => {
    expect(await a.setKillSwitch(true, "runaway dispatches", "ops", NOW)).toBe(true);
    await a.db.run("UPDATE kill_switch SET paused = 0 WHERE id = 1");
    // Every send reads the switch with its latest recorded change: still paused.
    expect((await b.killSwitch()).paused).toBe(true);
    const drift = await b.switches.drift(() => policy().installation);
    expect(drift).toEqual([
      { switch: "pause", recorded: { paused: true }, found: { paused: false }, loosens: true, recordedSeq: expect.any(Number) as number },
    ]);
    // Two replicas' watchdogs answer the same drift: one reverts, the other finds nothing to do.
    const answers = await Promise.all([a.switches.answer(drift[0]!, NOW + 1), b.switches.answer(drift[0]!, NOW + 1)]);
    expect(answers.sort()).toEqual([null, "reverted"].sort());
    const row = await a.db.all<{ paused: unknown }>("SELECT paused FROM kill_switch WHERE id = 1");
    expect(Number(row[0]?.paused)).toBe(1);
    const history = await a.switches.history(3);
    expect(history[0]).toMatchObject({ switch: "pause", kind: "revert", actor: "watchdog", state: { paused: true } });
    expect(history[0]?.reason).toContain("SWITCH_UNRECORDED_CHANGE");
    expect(history[1]).toMatchObject({ switch: "pause", kind: "change", actor: "ops", reason: "runaway dispatches" });
    expect(await a.switches.drift(() => policy().installation)).toEqual([]);
    expect(await b.setKillSwitch(false, "fixed", "ops", NOW + 2)).toBe(true);
    expect((await a.killSwitch()).paused).toBe(false);
  });

  it("an operator's recorded resume between the watchdog's look and its answer is not undone (neither by an adoption nor by a revert)", async () => {
    // A pause set by hand: the watchdog (replica b) sees a tightening to keep...
    await a.db.run("UPDATE kill_switch SET paused = 1, reason = 'by hand' WHERE id = 1");
    const tightening = await b.switches.drift(() => policy().installation);
    expect(tightening).toMatchObject([{ switch: "pause", found: { paused: true }, loosens: false }]);
    // ...but before it answers, an operator resumes with a reason, recorded.
    expect(await a.setKillSwitch(false, "the hand pause was a mistake", "ops", NOW)).toBe(true);
    expect(await b.switches.answer(tightening[0]!, NOW + 1)).toBe(null);
    expect((await a.killSwitch()).paused).toBe(false);
    expect(await a.switches.drift(() => policy().installation)).toEqual([]);

    // A recorded pause cleared by hand: the watchdog sees a loosening to revert...
    expect(await a.setKillSwitch(true, "incident 9", "ops", NOW + 2)).toBe(true);
    await a.db.run("UPDATE kill_switch SET paused = 0, reason = NULL WHERE id = 1");
    const loosening = await b.switches.drift(() => policy().installation);
    expect(loosening).toMatchObject([{ switch: "pause", loosens: true }]);
    // ...but before it answers, the operator records the resume the hand edit stood for.
    expect(await a.setKillSwitch(false, "incident 9 over", "ops", NOW + 3)).toBe(true);
    expect(await b.switches.answer(loosening[0]!, NOW + 4)).toBe(null);
    expect((await a.killSwitch()).paused).toBe(false);
    expect(await a.switches.drift(() => policy().installation)).toEqual([]);
    expect((await a.switches.history(1))[0]).toMatchObject({ switch: "pause", actor: "ops", reason: "incident 9 over" });
  });

  it("an unrecorded change that tightens is kept and recorded; one that raises or removes a cap is reverted", async () => {
    const defaults = () => ({ dispatchesPerDay: 10, minutesPerDay: 100 });
    await a.switches.setLimit("installation:9", { dispatchesPerDay: 5, minutesPerDay: 50 }, "ops", "trial", NOW);
    // Raised by hand: reverted to 5/50.
    await a.db.run("UPDATE budget_limits SET dispatches_per_day = 500 WHERE scope = 'installation:9'");
    const raised = await a.switches.drift(defaults);
    expect(raised).toMatchObject([{ switch: "budget:installation:9", loosens: true }]);
    expect(await a.switches.answer(raised[0]!, NOW)).toBe("reverted");
    expect(await a.budget.limitFor("installation:9", defaults())).toEqual({ dispatchesPerDay: 5, minutesPerDay: 50 });
    // Removed by hand (the defaults, 10/100, are looser): restored.
    await a.db.run("DELETE FROM budget_limits WHERE scope = 'installation:9'");
    const removed = await a.switches.drift(defaults);
    expect(await a.switches.answer(removed[0]!, NOW)).toBe("reverted");
    expect(await a.budget.limitFor("installation:9", defaults())).toEqual({ dispatchesPerDay: 5, minutesPerDay: 50 });
    // Inserted by hand, tighter than the defaults: kept, and now recorded.
    await a.db.run(
      "INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at) VALUES ('repository:acme/hand', 1, 10, 'x', 'y', 0)",
    );
    const tighter = await a.switches.drift(defaults);
    expect(tighter).toMatchObject([{ switch: "budget:repository:acme/hand", loosens: false }]);
    expect(await a.switches.answer(tighter[0]!, NOW)).toBe("adopted");
    expect(await a.switches.drift(defaults)).toEqual([]);
    expect((await a.switches.history(1))[0]).toMatchObject({ switch: "budget:repository:acme/hand", actor: "unrecorded", kind: "change" });
  });
});

describe("runner B's budget when PostgreSQL is cut mid-reservation", () => {
  it("the reservation statement is lost with the connection: BUDGET_UNCONFIRMED, nothing reserved", async () => {
    const s = await pgSchema();
    const proxy = await pgProxy({ cutWhen: (sql) => sql.includes("INSERT INTO budget_reservations") });
    const store = await openStore({ sqlitePath: "unused", databaseUrl: proxy.url, pgSchema: s.schema }, NOW);
    const direct = await openStore({ sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: s.schema }, NOW);
    try {
      await expect(store.budget.reserve(request(5, "acme/cut"), policy())).rejects.toMatchObject({ code: "BUDGET_UNCONFIRMED" });
      expect(await direct.db.all("SELECT * FROM budget_reservations")).toEqual([]);
    } finally {
      await store.close().catch(() => undefined);
      await direct.close();
      await s.drop();
    }
  });
});
