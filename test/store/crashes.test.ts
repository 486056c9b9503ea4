import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crashBoundFromEnv, refuseCrashLoop } from "../../src/app/crash-loop.js";
import { budgetPolicyFromEnv } from "../../src/app/config.js";
import { statusSnapshot } from "../../src/app/status.js";
import { crashesSince, crashResets, resetCrashes } from "../../src/store/crashes.js";
import { openStore, type Store, type StoreSettings } from "../../src/store/index.js";
import { PG_URL, pgSchema, tempDir } from "../app/helpers.js";

const T = Date.parse("2026-11-30T08:00:00Z");
const MIN = 60_000;
const BOUND = { limit: 3, windowMs: 60 * MIN };

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

const backends: { name: string; settings: () => Promise<StoreSettings> }[] = [
  { name: "SQLite", settings: async () => ({ sqlitePath: join(tempDir("eg-crashes-"), "store.sqlite") }) },
  {
    name: "PostgreSQL",
    settings: async () => {
      const schema = await pgSchema();
      drops.push(schema.drop);
      return { sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema.schema };
    },
  },
];

/** One incarnation of `replica` that started at `at` and was last seen `ranMs` later; cleanly stopped or not. */
async function incarnation(store: Store, replica: string, n: number, at: number, clean: boolean, ranMs = 1000): Promise<void> {
  await store.registerProcess(`${replica}/${n}`, replica, at);
  await store.heartbeat(`${replica}/${n}`, at + ranMs);
  if (clean) await store.stopProcess(`${replica}/${n}`, at + ranMs);
}

const refusal = (store: Store, replica: string, now: number) => refuseCrashLoop(store, replica, BOUND, now);

describe.each(backends)("crash-loop bound on $name", ({ settings }) => {
  it("the status page lists the replicas that crashed within the window (not the live process), and the one whose next start is refused", async () => {
    const store = await openStore(await settings(), T);
    try {
      await incarnation(store, "r1", 1, T, false);
      await incarnation(store, "r1", 2, T + MIN, false);
      await incarnation(store, "r1", 3, T + 2 * MIN, false);
      await incarnation(store, "other", 1, T + 2 * MIN, false);
      await incarnation(store, "other", 2, T + 3 * MIN, false, 0); // alive now: not a crash
      const now = T + 3 * MIN + 1000;
      const snapshot = await statusSnapshot(store, now, {
        storeLabel: "test",
        reviewAlertMs: 3_600_000,
        budget: budgetPolicyFromEnv({}),
        crashBound: BOUND,
        lastSweep: null,
        githubApiUrl: "https://api.github.com",
      });
      expect(snapshot.crash_loop).toEqual({
        limit: 3,
        window_minutes: 60,
        replicas: [
          { replica: "other", crashes: 1, last_crash_at: new Date(T + 2 * MIN + 1000).toISOString(), start_refused: false },
          { replica: "r1", crashes: 3, last_crash_at: new Date(T + 2 * MIN + 1000).toISOString(), start_refused: true },
        ],
      });
      await resetCrashes(store, "r1", "ops", "fixed the key", now);
      const after = await statusSnapshot(store, now + 1, {
        storeLabel: "test",
        reviewAlertMs: 3_600_000,
        budget: budgetPolicyFromEnv({}),
        crashBound: BOUND,
        lastSweep: null,
        githubApiUrl: "https://api.github.com",
      });
      expect(after.crash_loop.replicas.map((r) => r.replica)).toEqual(["other"]);
    } finally {
      await store.close();
    }
  });

  it("counts incarnations that never stopped cleanly (a successor marking them stopped does not make them clean), per replica, within the window", async () => {
    const store = await openStore(await settings(), T);
    try {
      await incarnation(store, "r1", 1, T, false);
      await incarnation(store, "r1", 2, T + MIN, true); // a clean stop: not a crash
      await incarnation(store, "r1", 3, T + 2 * MIN, false);
      await incarnation(store, "other", 1, T + 2 * MIN, false);
      await incarnation(store, "r1", 4, T + 3 * MIN, false);
      await incarnation(store, "r1", 5, T + 4 * MIN, false); // the one running now (not yet crashed)
      const crashes = await crashesSince(store, "r1", T + 4 * MIN - BOUND.windowMs);
      expect(crashes.map((c) => c.owner)).toEqual(["r1/1", "r1/3", "r1/4", "r1/5"]);
      expect(crashes[0]).toMatchObject({ started_at: T, last_seen_at: T + 1000 });
      // Two crashes: it may start. Three: refused, naming them and how to clear it.
      await store.stopProcess("r1/5", T + 5 * MIN);
      await expect(refusal(store, "other", T + 5 * MIN)).resolves.toBeUndefined();
      await expect(refusal(store, "r1", T + 5 * MIN)).rejects.toMatchObject({
        code: "APP_CRASH_LOOP",
        message: expect.stringContaining("replica r1 crashed 3 times within 60 minutes (last seen alive at 2026-11-30T08:00:01.000Z, "),
        hint: expect.stringContaining(
          'envelope-gate app reset-crashes --replica r1 --reason "..." (otherwise it clears itself at 2026-11-30T09:00:01.000Z)',
        ),
      });
      // The oldest crash leaves the window: it clears itself.
      await expect(refusal(store, "r1", T + 1000 + BOUND.windowMs + 1)).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("an operator's reset clears the crashes so far, recorded with who and why; later crashes count again", async () => {
    const store = await openStore(await settings(), T);
    try {
      for (const n of [1, 2, 3]) await incarnation(store, "r2", n, T + n * MIN, false);
      await expect(refusal(store, "r2", T + 4 * MIN)).rejects.toMatchObject({ code: "APP_CRASH_LOOP" });
      expect(await resetCrashes(store, "r2", "oncall", "bad config rolled back", T + 5 * MIN)).toBe(3);
      await expect(refusal(store, "r2", T + 5 * MIN)).resolves.toBeUndefined();
      expect(await crashResets(store, "r2")).toEqual([
        { replica: "r2", reset_at: T + 5 * MIN, reset_by: "oncall", reason: "bad config rolled back", crashes: 3 },
      ]);
      for (const n of [4, 5, 6]) await incarnation(store, "r2", n, T + (n + 2) * MIN, false);
      await expect(refusal(store, "r2", T + 9 * MIN)).rejects.toMatchObject({ code: "APP_CRASH_LOOP" });
    } finally {
      await store.close();
    }
  });
});

describe("crash-loop settings and migration", () => {
  it("ENVELOPE_GATE_CRASH_LIMIT and _WINDOW_MINUTES default to 3 and 60; a malformed value is CONFIG_INVALID", () => {
    expect(crashBoundFromEnv({})).toEqual({ limit: 3, windowMs: 60 * MIN });
    expect(crashBoundFromEnv({ ENVELOPE_GATE_CRASH_LIMIT: "5", ENVELOPE_GATE_CRASH_WINDOW_MINUTES: "10" })).toEqual({
      limit: 5,
      windowMs: 10 * MIN,
    });
    for (const env of [
      { ENVELOPE_GATE_CRASH_LIMIT: "0" },
      { ENVELOPE_GATE_CRASH_LIMIT: "x" },
      { ENVELOPE_GATE_CRASH_WINDOW_MINUTES: "0" },
    ]) {
      expect(() => crashBoundFromEnv(env), JSON.stringify(env)).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    }
  });

  it("migration 5 takes processes stopped before it as stopped cleanly (their history is unknown), and the one still recorded running as a crash", async () => {
    const store = await openStore({ sqlitePath: join(tempDir("eg-crashes-"), "store.sqlite") }, T);
    try {
      // Back to the schema before migration 5, with history written by the previous version.
      await store.db.run("DROP TABLE app_crash_resets");
      await store.db.run("ALTER TABLE app_processes DROP COLUMN clean_stop_at");
      await store.db.run("DELETE FROM schema_migrations WHERE version = 5");
      await store.registerProcess("old/1", "old", T);
      await store.registerProcess("old/2", "old", T + MIN); // marks old/1 stopped (it may have crashed: unknown)
      await store.db.run("UPDATE app_processes SET stopped_at = ? WHERE owner = 'old/2'", [T + 2 * MIN]);
      await store.registerProcess("old/3", "old", T + 3 * MIN); // still recorded running: it never stopped cleanly
      expect(await store.migrate(T + 4 * MIN)).toEqual([5]);
      expect((await crashesSince(store, "old", 0)).map((c) => c.owner)).toEqual(["old/3"]);
    } finally {
      await store.close();
    }
  });
});
