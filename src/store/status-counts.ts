import type { Store } from "./store.js";

/**
 * The counts at the top of the status page, over a window ending now: what the deliveries became
 * and what the App's verified checks said.
 */

export interface DeliveryCounts {
  received: number;
  /** Done: processed to the end (whatever the outcome). */
  processed: number;
  /** Failed for good (the App's last word on it; GitHub's redelivery or an operator may send it again). */
  failed: number;
  /** Being processed, or queued for the sweeper (retried, paused, deferred). */
  in_progress: number;
}

export async function deliveryCounts(store: Store, since: number): Promise<DeliveryCounts> {
  const rows = await store.db.all<{ state: string; n: unknown }>(
    "SELECT state, COUNT(*) AS n FROM deliveries WHERE received_at >= ? GROUP BY state",
    [since],
  );
  const of = (...states: string[]) => rows.filter((r) => states.includes(r.state)).reduce((sum, r) => sum + Number(r.n), 0);
  return {
    received: of("processing", "queued", "done", "failed"),
    processed: of("done"),
    failed: of("failed"),
    in_progress: of("processing", "queued"),
  };
}

/**
 * The verified checks the App posted: `pass` (the base's gate passed on the commit), `envelope_fail`
 * (the gate judged the run's evidence and failed it: envelope or properties), `error` (the App could
 * not verify the run: a typed code, such as no evidence or evidence refused).
 */
export interface VerdictCounts {
  pass: number;
  envelope_fail: number;
  error: number;
}

export async function verdictCounts(store: Store, since: number): Promise<VerdictCounts> {
  const rows = await store.db.all<{ conclusion: string | null; coded: unknown; n: unknown }>(
    `SELECT conclusion, CASE WHEN code IS NULL THEN 0 ELSE 1 END AS coded, COUNT(*) AS n FROM verified_checks
     WHERE state = 'posted' AND COALESCE(posted_at, created_at) >= ? GROUP BY conclusion, CASE WHEN code IS NULL THEN 0 ELSE 1 END`,
    [since],
  );
  const counts: VerdictCounts = { pass: 0, envelope_fail: 0, error: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    if (Number(r.coded) === 1) counts.error += n;
    else if (r.conclusion === "success") counts.pass += n;
    else counts.envelope_fail += n;
  }
  return counts;
}

/**
 * When the switch history began: the time migration 4 was applied. The entry it wrote for the
 * state it found carries at 0 (no time was known then); this is that entry's true time.
 */
export async function historyBeganAt(store: Store): Promise<number | null> {
  const rows = await store.db.all<{ applied_at: unknown }>("SELECT applied_at FROM schema_migrations WHERE version = 4");
  return rows[0] ? Number(rows[0].applied_at) : null;
}
