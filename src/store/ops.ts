import type { DeliveryRow, Store } from "./store.js";

/**
 * What operators need from the store beyond the App's own work: a heartbeat write that proves
 * the store accepts writes (/healthz), and the deliveries that need a human (the status page).
 */

/**
 * Upserts this replica's heartbeat row: one statement, so one transaction, that needs the
 * store's write lock (SQLite) or a row lock and a WAL write (PostgreSQL). A store that can
 * be read but not written fails here with STORE_UNAVAILABLE.
 */
export async function writeHeartbeat(store: Store, replicaId: string, now: number): Promise<void> {
  await store.db.run(
    "INSERT INTO heartbeats (replica_id, beat_at) VALUES (?, ?) ON CONFLICT (replica_id) DO UPDATE SET beat_at = excluded.beat_at",
    [replicaId, now],
  );
}

export async function heartbeats(store: Store): Promise<{ replica_id: string; beat_at: number }[]> {
  const rows = await store.db.all<{ replica_id: string; beat_at: number }>(
    "SELECT replica_id, beat_at FROM heartbeats ORDER BY beat_at DESC LIMIT 20",
  );
  return rows.map((r) => ({ replica_id: r.replica_id, beat_at: Number(r.beat_at) }));
}

interface DeliveryOverview {
  total: number;
  last_received_at: number | null;
  /** Failed, or queued for (or being retried by) the sweeper after a failure, for a reason other than the kill switch or a drain. */
  failed: DeliveryRow[];
  /** Claimed by a replica whose lease ran out while processing: it stopped mid-work. */
  stuck: DeliveryRow[];
  /** Held while the App was paused (KILL_SWITCH_ENGAGED): queued, sent by the sweeper after resume. */
  refused_paused: DeliveryRow[];
  /** Set aside for an installation's GitHub budget (GITHUB_BUDGET_LOW): queued until its `not_before` (the reset). */
  deferred: DeliveryRow[];
}

const NUMERIC = ["lease_until", "attempts", "failures", "received_at", "finished_at", "not_before"] as const;

function numeric(row: DeliveryRow): DeliveryRow {
  const out = { ...row } as Record<string, unknown>;
  for (const k of NUMERIC) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
  return out as unknown as DeliveryRow;
}

export async function deliveryOverview(store: Store, now: number, limit = 25): Promise<DeliveryOverview> {
  const totals = await store.db.all<{ n: number; last: number | null }>("SELECT COUNT(*) AS n, MAX(received_at) AS last FROM deliveries");
  const select = async (where: string, params: unknown[]) =>
    (await store.db.all<DeliveryRow>(`SELECT * FROM deliveries WHERE ${where} ORDER BY received_at DESC LIMIT ?`, [...params, limit])).map(
      numeric,
    );
  return {
    total: Number(totals[0]?.n ?? 0),
    last_received_at: totals[0]?.last === null || totals[0]?.last === undefined ? null : Number(totals[0].last),
    // A processing one with an error is being retried after that failure (the sweeper keeps its last error meanwhile).
    failed: await select("state IN ('failed', 'queued', 'processing') AND error_code IS NOT NULL AND error_code NOT IN (?, ?, ?)", [
      "KILL_SWITCH_ENGAGED",
      "APP_DRAINING",
      "GITHUB_BUDGET_LOW",
    ]),
    stuck: await select("state = 'processing' AND lease_until < ?", [now]),
    refused_paused: await select("state IN ('failed', 'queued') AND error_code = ?", ["KILL_SWITCH_ENGAGED"]),
    deferred: await select("state IN ('queued', 'processing') AND error_code = ?", ["GITHUB_BUDGET_LOW"]),
  };
}
