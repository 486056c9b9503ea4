import type { Store } from "./store.js";

/**
 * The redelivery sweep's state (migration 6): one pass at a time across replicas (a lease on
 * the one `redelivery_sweep` row), the mark the next pass lists back to, the last pass's
 * figures, and one `redeliveries` row per delivery the App asked GitHub for again.
 */

/** The switch's name in the switch history; its state is `{ enabled }`. With no entry the sweep is on. */
const REDELIVERY_SWITCH = "redelivery";

export type RedeliveryState = "requested" | "refused" | "delivered" | "exhausted" | "expired";

export interface RedeliveryRow {
  guid: string;
  event: string;
  /** The GitHub delivery (attempt) id last asked to be redelivered. */
  hook_delivery_id: number;
  /** When GitHub first tried to deliver it (its first attempt's delivered_at). */
  first_failed_at: number;
  attempts: number;
  requested_at: number | null;
  state: RedeliveryState;
  code: string | null;
  message: string | null;
  updated_at: number;
}

interface RedeliverySwitch {
  enabled: boolean;
  by: string | null;
  reason: string | null;
  at: number | null;
}

/**
 * The switch as the sweep reads it: its latest history entry. A latest entry that cannot be read
 * is off, with a reason saying so: "could not check" never asks GitHub for anything.
 */
export async function redeliverySwitch(store: Store): Promise<RedeliverySwitch> {
  const rows = await store.db.all<Record<string, unknown>>(
    "SELECT state, actor, reason, at FROM switch_history WHERE switch = ? ORDER BY seq DESC LIMIT 1",
    [REDELIVERY_SWITCH],
  );
  const row = rows[0];
  if (!row) return { enabled: true, by: null, reason: null, at: null };
  let enabled: boolean;
  let reason = String(row.reason);
  try {
    const state = JSON.parse(String(row.state)) as { enabled?: unknown } | null;
    if (typeof state?.enabled !== "boolean") throw new Error(`no enabled flag in ${String(row.state).slice(0, 80)}`);
    enabled = state.enabled;
  } catch (err) {
    enabled = false;
    reason = `the latest recorded redelivery switch cannot be read (${(err as Error).message}); treated as off`;
  }
  return { enabled, by: String(row.actor), reason, at: Number(row.at) };
}

/** Turns the sweep on or off, recorded in the switch history. False (nothing recorded) when it already was. */
export async function setRedelivery(store: Store, enabled: boolean, actor: string, reason: string, now: number): Promise<boolean> {
  const current = await redeliverySwitch(store);
  const readable = current.at === null || !current.reason?.startsWith("the latest recorded redelivery switch cannot be read");
  if (current.enabled === enabled && readable) return false;
  await store.switches.append({ switch: REDELIVERY_SWITCH, state: { enabled }, kind: "change", actor, reason, at: now });
  return true;
}

/**
 * Takes the pass for `owner` in one conditional statement: free, its holder's lease ran out, or
 * its holder is gone. Resolves the mark to list back to (null: never set), or null when another
 * replica's pass is running.
 */
export async function takeRedeliveryPass(
  store: Store,
  owner: string,
  now: number,
  holdMs: number,
): Promise<{ mark: number | null } | null> {
  const changed = await store.db.run(
    `UPDATE redelivery_sweep SET owner = ?, until_at = ?
     WHERE id = 1 AND (owner IS NULL OR owner = ? OR until_at < ?
       OR NOT EXISTS (SELECT 1 FROM app_processes p WHERE p.owner = redelivery_sweep.owner AND p.stopped_at IS NULL AND p.heartbeat_at >= ?))`,
    [owner, now + holdMs, owner, now, now - store.heartbeatStaleMs],
  );
  if (changed !== 1) return null;
  const rows = await store.db.all<{ mark_at: unknown }>("SELECT mark_at FROM redelivery_sweep WHERE id = 1");
  const mark = rows[0]?.mark_at;
  return { mark: mark === null || mark === undefined ? null : Number(mark) };
}

/** Ends `owner`'s pass: the new mark (null keeps the old one) and the pass's figures. */
export async function finishRedeliveryPass(store: Store, owner: string, mark: number | null, lastPass: unknown): Promise<void> {
  await store.db.run(
    "UPDATE redelivery_sweep SET owner = NULL, until_at = NULL, mark_at = COALESCE(?, mark_at), last_pass = ? WHERE id = 1 AND owner = ?",
    [mark, JSON.stringify(lastPass), owner],
  );
}

export async function lastRedeliveryPass(store: Store): Promise<{ mark: number | null; running: string | null; last: unknown }> {
  const rows = await store.db.all<Record<string, unknown>>("SELECT mark_at, owner, last_pass FROM redelivery_sweep WHERE id = 1");
  const row = rows[0];
  if (!row) return { mark: null, running: null, last: null };
  let last: unknown;
  try {
    last = row.last_pass === null || row.last_pass === undefined ? null : (JSON.parse(String(row.last_pass)) as unknown);
  } catch {
    // A last pass that cannot be read is shown as none: it is figures, not a decision.
    last = null;
  }
  return { mark: row.mark_at === null ? null : Number(row.mark_at), running: (row.owner as string | null) ?? null, last };
}

function rowOf(r: Record<string, unknown>): RedeliveryRow {
  return {
    guid: String(r.guid),
    event: String(r.event),
    hook_delivery_id: Number(r.hook_delivery_id),
    first_failed_at: Number(r.first_failed_at),
    attempts: Number(r.attempts),
    requested_at: r.requested_at === null ? null : Number(r.requested_at),
    state: String(r.state) as RedeliveryState,
    code: (r.code as string | null) ?? null,
    message: (r.message as string | null) ?? null,
    updated_at: Number(r.updated_at),
  };
}

/** The recorded redeliveries of these guids. */
export async function redeliveriesOf(store: Store, guids: readonly string[]): Promise<Map<string, RedeliveryRow>> {
  const out = new Map<string, RedeliveryRow>();
  for (let i = 0; i < guids.length; i += 500) {
    const chunk = guids.slice(i, i + 500);
    if (chunk.length === 0) continue;
    const rows = await store.db.all<Record<string, unknown>>(
      `SELECT * FROM redeliveries WHERE guid IN (${chunk.map(() => "?").join(", ")})`,
      chunk,
    );
    for (const r of rows) out.set(String(r.guid), rowOf(r));
  }
  return out;
}

/** Which of these delivery ids the store has recorded (in any state). */
export async function recordedDeliveries(store: Store, ids: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (chunk.length === 0) continue;
    const rows = await store.db.all<{ delivery_id: string }>(
      `SELECT delivery_id FROM deliveries WHERE delivery_id IN (${chunk.map(() => "?").join(", ")})`,
      chunk,
    );
    for (const r of rows) out.add(String(r.delivery_id));
  }
  return out;
}

/**
 * Records one more request to redeliver `guid`, before it is sent, conditionally on the number
 * of requests recorded so far (`attemptsBefore`): two passes that read the same row cannot both
 * record, so a delivery is never asked for twice at once. False when the row moved meanwhile.
 */
export async function recordRedeliveryRequest(
  store: Store,
  r: { guid: string; event: string; hookDeliveryId: number; firstFailedAt: number },
  attemptsBefore: number,
  now: number,
): Promise<boolean> {
  const changed = await store.db.run(
    `INSERT INTO redeliveries (guid, event, hook_delivery_id, first_failed_at, attempts, requested_at, state, updated_at)
     SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), 1, CAST(? AS BIGINT), 'requested', CAST(? AS BIGINT)
     WHERE CAST(? AS INTEGER) = 0
     ON CONFLICT (guid) DO UPDATE SET attempts = redeliveries.attempts + 1, hook_delivery_id = excluded.hook_delivery_id,
       requested_at = excluded.requested_at, state = 'requested', code = NULL, message = NULL, updated_at = excluded.updated_at
     WHERE redeliveries.attempts = ? AND redeliveries.state IN ('requested', 'refused')`,
    [r.guid, r.event, r.hookDeliveryId, r.firstFailedAt, now, now, attemptsBefore, attemptsBefore],
  );
  if (changed === 1 || attemptsBefore === 0) return changed === 1;
  // The INSERT … SELECT inserts nothing for a known guid; update it on its own.
  const updated = await store.db.run(
    `UPDATE redeliveries SET attempts = attempts + 1, hook_delivery_id = ?, requested_at = ?, state = 'requested', code = NULL,
       message = NULL, updated_at = ?
     WHERE guid = ? AND attempts = ? AND state IN ('requested', 'refused')`,
    [r.hookDeliveryId, now, now, r.guid, attemptsBefore],
  );
  return updated === 1;
}

/**
 * Settles a delivery: `delivered` (GitHub's log shows it delivered, or the store recorded it),
 * `refused` (GitHub refused the last request), or given up (`exhausted`, `expired`). A given-up
 * row that is not known yet is inserted.
 */
export async function settleRedelivery(
  store: Store,
  r: { guid: string; event: string; hookDeliveryId: number; firstFailedAt: number },
  state: Exclude<RedeliveryState, "requested">,
  code: string | null,
  message: string | null,
  now: number,
): Promise<boolean> {
  const changed = await store.db.run(
    `INSERT INTO redeliveries (guid, event, hook_delivery_id, first_failed_at, attempts, state, code, message, updated_at)
     VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)
     ON CONFLICT (guid) DO UPDATE SET state = excluded.state, code = excluded.code, message = excluded.message,
       updated_at = excluded.updated_at
     WHERE redeliveries.state NOT IN ('delivered', 'exhausted', 'expired')`,
    [r.guid, r.event, r.hookDeliveryId, r.firstFailedAt, state, code, message === null ? null : message.slice(0, 2000), now],
  );
  return changed === 1;
}

/** Counts by state, and the latest rows that need a human (given up) or were refused. */
export async function redeliveryOverview(
  store: Store,
  limit = 25,
): Promise<{ counts: Record<RedeliveryState, number>; problems: RedeliveryRow[] }> {
  const counts: Record<RedeliveryState, number> = { requested: 0, refused: 0, delivered: 0, exhausted: 0, expired: 0 };
  for (const r of await store.db.all<{ state: string; n: unknown }>("SELECT state, COUNT(*) AS n FROM redeliveries GROUP BY state")) {
    counts[r.state as RedeliveryState] = Number(r.n);
  }
  const problems = await store.db.all<Record<string, unknown>>(
    "SELECT * FROM redeliveries WHERE state IN ('refused', 'exhausted', 'expired') ORDER BY updated_at DESC LIMIT ?",
    [limit],
  );
  return { counts, problems: problems.map(rowOf) };
}
