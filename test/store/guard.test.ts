/** The store's typed guards write the SQL conditions app code used to pass as text. */
import { describe, expect, it } from "vitest";
import type { DualRun, LedgerPr } from "../../src/core/app-records.js";
import { guardSql, type RowGuard } from "../../src/store/guard.js";

const lapsed = (now: number) => ({ sql: "(t.claim_until < ? OR gone)", params: [now, now - 1] });

describe("guardSql", () => {
  it("writes equality, IS NULL, bounds and a lapsed claim, in the order named", () => {
    expect(guardSql<LedgerPr>({ claim_owner: "r1" }, lapsed)).toEqual({ sql: "claim_owner = ?", params: ["r1"] });
    expect(guardSql<LedgerPr>({ first_review_at: null }, lapsed)).toEqual({ sql: "first_review_at IS NULL", params: [] });
    const held: RowGuard<DualRun> = { deadline_at: { atMost: 5 }, claimLapsedAt: 5 };
    expect(guardSql(held, lapsed)).toEqual({ sql: "deadline_at <= ? AND (t.claim_until < ? OR gone)", params: [5, 5, 4] });
    expect(guardSql<DualRun>({ deadline_at: { above: 7 }, run_b_id: null }, lapsed)).toEqual({
      sql: "deadline_at > ? AND run_b_id IS NULL",
      params: [7],
    });
  });

  it("writes a column that is NULL or equal as one condition, as runner B's completion needs it", () => {
    expect(guardSql<DualRun>({ deadline_at: { above: 7 }, run_b_id: { nullOr: 42 } }, lapsed)).toEqual({
      sql: "deadline_at > ? AND (run_b_id IS NULL OR run_b_id = ?)",
      params: [7, 42],
    });
  });

  it("passes a SQL fragment as it is, and an empty guard as none", () => {
    const raw = { sql: "deadline_at > ?", params: [1] };
    expect(guardSql(raw, lapsed)).toBe(raw);
    expect(guardSql<DualRun>({}, lapsed)).toBeUndefined();
    expect(guardSql(undefined, lapsed)).toBeUndefined();
  });
});
