import type { Store } from "./store.js";

/**
 * The redelivery sweep's state (migration 6): one pass at a time across replicas (a lease on
 * the one `redelivery_sweep` row), the mark the next pass lists back to, the last pass's
 * figures, and one `redeliveries` row per delivery the App asked GitHub for again; since
 * migration 12 also the walk a pass could not finish (resumed by the next pass from GitHub's
 * cursor), what the mark waits on, and the last backlog found older than GitHub keeps.
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
 * The walk a pass leaves for the next when it could not list back to the mark (migration 12):
 * the cursor GitHub gave for the next page, the newest attempt the walk listed first (the mark
 * once the walk reaches the old one), the oldest listed so far, and the deliveries it left open.
 */
export interface RedeliveryWalk {
  cursor: string;
  newest: number;
  oldest: number;
  pages: number;
  passes: number;
  started_at: number;
  open: OpenDelivery[];
}

/** A delivery a walk left open (asked and pending, refused, or left for the next pass): the mark stays behind its first attempt. */
export interface OpenDelivery {
  guid: string;
  first: number;
}

/** What the mark of the last finished walk waits on: its open deliveries; once they are settled it moves to `caught_up`. */
export interface MarkWaits {
  open: OpenDelivery[];
  caught_up: number;
}

/** A window of deliveries older than GitHub keeps that the sweep never listed: a failed delivery in it is lost. */
export interface BacklogExpired {
  from: number;
  to: number;
  found_at: number;
  message: string;
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function openList(v: unknown): OpenDelivery[] | null {
  if (!Array.isArray(v)) return null;
  const out: OpenDelivery[] = [];
  for (const o of v as unknown[]) {
    const r = o as { guid?: unknown; first?: unknown } | null;
    if (typeof r?.guid !== "string" || !isNum(r.first)) return null;
    out.push({ guid: r.guid, first: r.first });
  }
  return out;
}

/** Parses a stored JSON column; anything malformed is null (a walk starts again from the newest page, the mark stays). */
function parsed<T>(raw: unknown, check: (v: Record<string, unknown>) => T | null): T | null {
  if (raw === null || raw === undefined) return null;
  try {
    const v = JSON.parse(String(raw)) as unknown;
    return typeof v === "object" && v !== null ? check(v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const walkOf = (raw: unknown): RedeliveryWalk | null =>
  parsed(raw, (v) => {
    const open = openList(v.open);
    if (typeof v.cursor !== "string" || v.cursor === "" || open === null) return null;
    if (![v.newest, v.oldest, v.pages, v.passes, v.started_at].every(isNum)) return null;
    return {
      cursor: v.cursor,
      newest: v.newest as number,
      oldest: v.oldest as number,
      pages: v.pages as number,
      passes: v.passes as number,
      started_at: v.started_at as number,
      open,
    };
  });

const waitsOf = (raw: unknown): MarkWaits | null =>
  parsed(raw, (v) => {
    const open = openList(v.open);
    return open === null || !isNum(v.caught_up) ? null : { open, caught_up: v.caught_up };
  });

const backlogOf = (raw: unknown): BacklogExpired | null =>
  parsed(raw, (v) =>
    isNum(v.from) && isNum(v.to) && isNum(v.found_at) && typeof v.message === "string"
      ? { from: v.from, to: v.to, found_at: v.found_at, message: v.message }
      : null,
  );

/**
 * Takes the pass for `owner` in one conditional statement: free, its holder's lease ran out, or
 * its holder is gone. Resolves the mark to list back to (null: never set), the walk to resume and
 * what the mark waits on, or null when another replica's pass is running.
 */
export async function takeRedeliveryPass(
  store: Store,
  owner: string,
  now: number,
  holdMs: number,
): Promise<{ mark: number | null; walk: RedeliveryWalk | null; waits: MarkWaits | null } | null> {
  const changed = await store.db.run(
    `UPDATE redelivery_sweep SET owner = ?, until_at = ?
     WHERE id = 1 AND (owner IS NULL OR owner = ? OR until_at < ?
       OR NOT EXISTS (SELECT 1 FROM app_processes p WHERE p.owner = redelivery_sweep.owner AND p.stopped_at IS NULL AND p.heartbeat_at >= ?))`,
    [owner, now + holdMs, owner, now, now - store.heartbeatStaleMs],
  );
  if (changed !== 1) return null;
  const rows = await store.db.all<Record<string, unknown>>("SELECT mark_at, walk, mark_waits FROM redelivery_sweep WHERE id = 1");
  const row = rows[0];
  const mark = row?.mark_at;
  return {
    mark: mark === null || mark === undefined ? null : Number(mark),
    walk: walkOf(row?.walk),
    waits: waitsOf(row?.mark_waits),
  };
}

/** What a pass leaves: the mark (null keeps it), the walk to resume and what the mark waits on (null: none), a backlog found lost. */
export interface PassOutcome {
  mark: number | null;
  walk: RedeliveryWalk | null;
  waits: MarkWaits | null;
  /** Undefined keeps the one recorded. */
  backlogExpired?: BacklogExpired;
}

/** Ends `owner`'s pass: its outcome and figures, in one statement conditional on still holding the pass. */
export async function finishRedeliveryPass(store: Store, owner: string, outcome: PassOutcome, lastPass: unknown): Promise<void> {
  await store.db.run(
    `UPDATE redelivery_sweep SET owner = NULL, until_at = NULL, mark_at = COALESCE(?, mark_at), walk = ?, mark_waits = ?,
       backlog_expired = COALESCE(?, backlog_expired), last_pass = ?
     WHERE id = 1 AND owner = ?`,
    [
      outcome.mark,
      outcome.walk === null ? null : JSON.stringify(outcome.walk),
      outcome.waits === null ? null : JSON.stringify(outcome.waits),
      outcome.backlogExpired === undefined ? null : JSON.stringify(outcome.backlogExpired),
      JSON.stringify(lastPass),
      owner,
    ],
  );
}

export async function lastRedeliveryPass(store: Store): Promise<{
  mark: number | null;
  running: string | null;
  last: unknown;
  walk: RedeliveryWalk | null;
  backlogExpired: BacklogExpired | null;
}> {
  const rows = await store.db.all<Record<string, unknown>>(
    "SELECT mark_at, owner, last_pass, walk, backlog_expired FROM redelivery_sweep WHERE id = 1",
  );
  const row = rows[0];
  if (!row) return { mark: null, running: null, last: null, walk: null, backlogExpired: null };
  let last: unknown;
  try {
    last = row.last_pass === null || row.last_pass === undefined ? null : (JSON.parse(String(row.last_pass)) as unknown);
  } catch {
    // A last pass that cannot be read is shown as none: it is figures, not a decision.
    last = null;
  }
  return {
    mark: row.mark_at === null ? null : Number(row.mark_at),
    running: (row.owner as string | null) ?? null,
    last,
    walk: walkOf(row.walk),
    backlogExpired: backlogOf(row.backlog_expired),
  };
}

/**
 * Of these open deliveries, those still open: neither recorded by the App nor settled (delivered,
 * given up). A store error propagates: "could not check" never moves the mark.
 */
export async function stillOpen(store: Store, open: readonly OpenDelivery[]): Promise<OpenDelivery[]> {
  const guids = open.map((o) => o.guid);
  const recorded = await recordedDeliveries(store, guids);
  const rows = await redeliveriesOf(store, guids);
  return open.filter((o) => {
    if (recorded.has(o.guid)) return false;
    const state = rows.get(o.guid)?.state;
    return state !== "delivered" && state !== "exhausted" && state !== "expired";
  });
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
