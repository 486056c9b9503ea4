import { randomUUID } from "node:crypto";
import type { Store } from "./store.js";

/**
 * Crashes of App processes, for the crash-loop bound (src/app/crash-loop.ts). Every start
 * records a row in `app_processes`; a clean stop (SIGTERM drain, or a refusal after
 * registration) sets its `clean_stop_at`. A crash is an incarnation that never did: killed,
 * out of memory, an uncaught exception. Its time is its last heartbeat (its last sign of life).
 */
interface Crash {
  owner: string;
  started_at: number;
  /** The last heartbeat: when it was last seen alive. */
  last_seen_at: number;
}

interface CrashReset {
  replica: string;
  reset_at: number;
  reset_by: string;
  reason: string;
  crashes: number;
}

/** Crashes of `replica` last seen at or after `since` and after the replica's latest reset, oldest first. */
export async function crashesSince(store: Store, replica: string, since: number): Promise<Crash[]> {
  const rows = await store.db.all<Record<string, unknown>>(
    `SELECT owner, started_at, heartbeat_at FROM app_processes
     WHERE replica = ? AND clean_stop_at IS NULL AND heartbeat_at >= ?
       AND heartbeat_at > COALESCE((SELECT MAX(reset_at) FROM app_crash_resets WHERE replica = ?), -1)
     ORDER BY heartbeat_at, owner`,
    [replica, since, replica],
  );
  return rows.map((r) => ({ owner: String(r.owner), started_at: Number(r.started_at), last_seen_at: Number(r.heartbeat_at) }));
}

/**
 * An operator's deliberate reset: crashes of `replica` up to now no longer count. Recorded with
 * who and why. Resolves the number of crashes it cleared (those since the previous reset).
 */
export async function resetCrashes(store: Store, replica: string, by: string, reason: string, now: number): Promise<number> {
  const cleared = (await crashesSince(store, replica, 0)).filter((c) => c.last_seen_at <= now).length;
  await store.db.run("INSERT INTO app_crash_resets (id, replica, reset_at, reset_by, reason, crashes) VALUES (?, ?, ?, ?, ?, ?)", [
    randomUUID(),
    replica,
    now,
    by,
    reason,
    cleared,
  ]);
  return cleared;
}

export async function crashResets(store: Store, replica: string): Promise<CrashReset[]> {
  const rows = await store.db.all<Record<string, unknown>>(
    "SELECT replica, reset_at, reset_by, reason, crashes FROM app_crash_resets WHERE replica = ? ORDER BY reset_at",
    [replica],
  );
  return rows.map((r) => ({
    replica: String(r.replica),
    reset_at: Number(r.reset_at),
    reset_by: String(r.reset_by),
    reason: String(r.reason),
    crashes: Number(r.crashes),
  }));
}

/** A replica's crashes within a window, for the status page. */
interface ReplicaCrashes {
  replica: string;
  crashes: number;
  last_crash_at: number;
}

/**
 * Per replica id, the crashes last seen at or after `since` and after its latest reset, as the
 * start check counts them, leaving out processes alive now (not recorded stopped, a heartbeat at
 * or after `aliveSince`).
 */
export async function recentCrashes(store: Store, since: number, aliveSince: number): Promise<ReplicaCrashes[]> {
  const rows = await store.db.all<Record<string, unknown>>(
    `SELECT p.replica AS replica, COUNT(*) AS n, MAX(p.heartbeat_at) AS last_seen
     FROM app_processes p
     WHERE p.clean_stop_at IS NULL AND p.heartbeat_at >= ?
       AND NOT (p.stopped_at IS NULL AND p.heartbeat_at >= ?)
       AND p.heartbeat_at > COALESCE((SELECT MAX(r.reset_at) FROM app_crash_resets r WHERE r.replica = p.replica), -1)
     GROUP BY p.replica ORDER BY p.replica`,
    [since, aliveSince],
  );
  return rows.map((r) => ({ replica: String(r.replica), crashes: Number(r.n), last_crash_at: Number(r.last_seen) }));
}
