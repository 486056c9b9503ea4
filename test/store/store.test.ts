import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openStore, type NewDualRun, type NewLedgerPr, type Store, type StoreSettings } from "../../src/store/index.js";
import { PG_URL, pgSchema, tempDir } from "../app/helpers.js";

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

interface Backend {
  name: string;
  settings: () => StoreSettings;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
}

let schema: { schema: string; drop: () => Promise<void> } | null = null;
const sqliteDir = tempDir("eg-store-");

const backends: Backend[] = [
  { name: "SQLite", settings: () => ({ sqlitePath: join(sqliteDir, "store.sqlite") }) },
  {
    name: "PostgreSQL",
    settings: () => ({ sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema?.schema }),
    setup: async () => {
      schema = await pgSchema();
    },
    teardown: async () => {
      await schema?.drop();
    },
  },
];

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
    expect(await b.setKillSwitch(false, null, "ops", NOW)).toBe(true);
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
