import { budgetDay, tighter, type BudgetLimit, type BudgetPolicy, type BudgetUsage } from "../core/budget.js";
import { errnoOf, Refusal, isRefusal } from "../core/errors.js";
import type { SqlDb } from "./db.js";

interface Reservation {
  dual_run_id: string;
  installation_id: number;
  repository: string;
  day: string;
  max_minutes: number;
  measured_minutes: number | null;
  measured_at: number | null;
  run_b_id: number | null;
  reserved_at: number;
  reserved_by: string;
  /** When a dispatch request was last about to be sent for it (null: never). */
  attempted_at: number | null;
}

interface LimitOverride extends BudgetLimit {
  scope: string;
  changedBy: string;
  reason: string;
  changedAt: number;
}

type ReserveResult =
  | { status: "reserved"; day: string }
  /** This dual run reserved before (a retry or a takeover): its dispatch may already have been sent. */
  | { status: "held"; reservation: Reservation }
  | {
      status: "refused";
      limits: { installation: BudgetLimit; repository: BudgetLimit };
      usage: { installation: BudgetUsage; repository: BudgetUsage };
    };

/** How often a reservation that lost a race on a sequence number is tried again. */
const RACE_RETRIES = 50;

/** True when the store refused a write because another writer got there first. */
function lostRace(err: unknown): boolean {
  const code = errnoOf(isRefusal(err) ? err.cause : err) ?? "";
  // PostgreSQL: unique violation, serialization failure, deadlock; SQLite: a unique index, a stale WAL snapshot.
  return ["23505", "40001", "40P01", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_BUSY_SNAPSHOT"].includes(code);
}

function unconfirmed(detail: string, cause?: unknown): Refusal {
  return new Refusal("BUDGET_UNCONFIRMED", `runner B's budget could not be confirmed, so nothing was dispatched (${detail})`, {
    cause,
    hint: "Bring the store back; a dispatch is only sent once a reservation under the cap is recorded.",
  });
}

/** SQL for one scope's day: `n` reservations and `m` minutes charged. Parameters: the oldest trusted reading, the scope's value, the day. */
function scopeUsageSql(column: "installation_id" | "repository"): string {
  return `SELECT COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m FROM budget_reservations WHERE ${column} = ? AND day = ?`;
}

/** SQL for one scope's charged minutes: a measured duration while it is fresh, the maximum otherwise. One parameter: the oldest trusted reading. */
const CHARGE = "CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN measured_minutes ELSE max_minutes END";

/**
 * Runner B's budget in the store. A reservation is one row per dual run; the cap comparison
 * and the reservation are one INSERT ... SELECT, so a crash mid-decision leaves the previous
 * rows and a refused or failed statement reserves nothing.
 *
 * Why two replicas cannot both pass a cap: each reservation takes the next sequence number in
 * its installation's day and in its repository's day, and both sequences are unique. Two
 * statements that counted the same rows take the same numbers, so the store lets one commit
 * and refuses the other (unique violation), which counts again. A statement that commits has
 * therefore counted every reservation committed before it, on SQLite and on PostgreSQL at
 * READ COMMITTED alike. Rows are never deleted within a day, so the sequences stay dense.
 */
export class BudgetLedger {
  constructor(private readonly db: SqlDb) {}

  async reservation(dualRunId: string): Promise<Reservation | null> {
    const rows = await this.db.all<Reservation>("SELECT * FROM budget_reservations WHERE dual_run_id = ?", [dualRunId]);
    return rows[0] ? reservationOf(rows[0]) : null;
  }

  /**
   * Reserves one dispatch for `dualRunId` at `policy.maxRunMinutes`, if the installation and
   * the repository both stay within their caps today. Throws BUDGET_UNCONFIRMED when the
   * store cannot answer or the race is lost too often: nothing is reserved, nothing may be sent.
   */
  async reserve(
    request: { dualRunId: string; installationId: number; repository: string; owner: string; now: number },
    policy: BudgetPolicy,
  ): Promise<ReserveResult> {
    const { dualRunId, installationId, owner, now } = request;
    const repository = request.repository.toLowerCase();
    const day = budgetDay(now);
    const trusted = now - policy.freshMs;
    const instScope = `installation:${installationId}`;
    const repoScope = `repository:${repository}`;
    // Each scope is held to the tighter of its override row and its latest recorded change: a
    // limit raised or removed behind the App's back (a hand-edited row, a bug) admits nothing
    // before the watchdog reverts it, as a cleared pause sends nothing.
    let limits: { installation: BudgetLimit; repository: BudgetLimit };
    try {
      limits = {
        installation: await this.effectiveLimit(instScope, policy.installation),
        repository: await this.effectiveLimit(repoScope, policy.repository),
      };
    } catch (err) {
      throw unconfirmed(`the caps could not be read: ${(err as Error).message}`, err);
    }
    const sql = `INSERT INTO budget_reservations
        (dual_run_id, installation_id, repository, day, installation_seq, repository_seq, max_minutes, reserved_at, reserved_by)
      SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), i.n + 1, r.n + 1, CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS TEXT)
      FROM (${scopeUsageSql("installation_id")}) i, (${scopeUsageSql("repository")}) r
      WHERE i.n + 1 <= ? AND i.m + ? <= ? AND r.n + 1 <= ? AND r.m + ? <= ?
      ON CONFLICT (dual_run_id) DO NOTHING`;
    const params = [
      dualRunId,
      installationId,
      repository,
      day,
      policy.maxRunMinutes,
      now,
      owner,
      trusted,
      installationId,
      day,
      trusted,
      repository,
      day,
      limits.installation.dispatchesPerDay,
      policy.maxRunMinutes,
      limits.installation.minutesPerDay,
      limits.repository.dispatchesPerDay,
      policy.maxRunMinutes,
      limits.repository.minutesPerDay,
    ];
    let lastRace: unknown = null;
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      let inserted: number;
      try {
        inserted = await this.db.run(sql, params);
      } catch (err) {
        if (lostRace(err)) {
          lastRace = err;
          continue;
        }
        throw unconfirmed((err as Error).message, err);
      }
      if (inserted === 1) return { status: "reserved", day };
      try {
        const held = await this.reservation(dualRunId);
        if (held) return { status: "held", reservation: held };
        return {
          status: "refused",
          limits,
          usage: {
            installation: await this.usage("installation_id", installationId, day, trusted),
            repository: await this.usage("repository", repository, day, trusted),
          },
        };
      } catch (err) {
        throw unconfirmed(`the refusal could not be explained: ${(err as Error).message}`, err);
      }
    }
    throw unconfirmed(`${RACE_RETRIES} attempts lost a race with other reservations`, lastRace);
  }

  /** Records that a dispatch request is about to be sent under this reservation. */
  async markAttempt(dualRunId: string, now: number): Promise<void> {
    await this.db.run("UPDATE budget_reservations SET attempted_at = ? WHERE dual_run_id = ?", [now, dualRunId]);
  }

  /** Forgets an attempt known to have started nothing (GitHub refused it, or it was never sent). */
  async clearAttempt(dualRunId: string, attemptedAt: number): Promise<void> {
    await this.db.run("UPDATE budget_reservations SET attempted_at = NULL WHERE dual_run_id = ? AND attempted_at = ?", [
      dualRunId,
      attemptedAt,
    ]);
  }

  /** Records the measured minutes of runner B's finished run (GitHub's timing), read at `now`. */
  async settle(dualRunId: string, runBId: number, minutes: number, now: number): Promise<boolean> {
    return (
      (await this.db.run("UPDATE budget_reservations SET measured_minutes = ?, measured_at = ?, run_b_id = ? WHERE dual_run_id = ?", [
        minutes,
        now,
        runBId,
        dualRunId,
      ])) === 1
    );
  }

  /**
   * Reservations of `day` whose reading is missing or older than `olderThan`, whose runner B
   * has a known run and is past waiting (compared, decided or expired).
   */
  async unsettled(day: string, olderThan: number, limit: number): Promise<Reservation[]> {
    const rows = await this.db.all<Reservation>(
      `SELECT b.dual_run_id, b.installation_id, b.repository, b.day, b.max_minutes, b.measured_minutes, b.measured_at,
         COALESCE(b.run_b_id, d.run_b_id) AS run_b_id, b.reserved_at, b.reserved_by, b.attempted_at
       FROM budget_reservations b JOIN dual_runs d ON d.id = b.dual_run_id
       WHERE b.day = ? AND (b.measured_at IS NULL OR b.measured_at < ?) AND COALESCE(b.run_b_id, d.run_b_id) IS NOT NULL
         AND d.state NOT IN ('pending', 'dispatching', 'waiting')
       ORDER BY COALESCE(b.measured_at, 0), b.reserved_at LIMIT ?`,
      [day, olderThan, limit],
    );
    return rows.map(reservationOf);
  }

  private async usage(column: "installation_id" | "repository", value: unknown, day: string, trusted: number): Promise<BudgetUsage> {
    const rows = await this.db.all<{ n: unknown; m: unknown }>(scopeUsageSql(column), [trusted, value, day]);
    return { dispatches: Number(rows[0]?.n ?? 0), minutes: Number(rows[0]?.m ?? 0) };
  }

  /** Today's usage per installation and per repository, for the status page. */
  async usageByScope(day: string, trusted: number): Promise<{ scope: string; dispatches: number; minutes: number; measured: number }[]> {
    const rows = await this.db.all<{ scope: string; n: unknown; m: unknown; measured: unknown }>(
      `SELECT 'installation:' || CAST(installation_id AS TEXT) AS scope, COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m,
         SUM(CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN 1 ELSE 0 END) AS measured
       FROM budget_reservations WHERE day = ? GROUP BY installation_id
       UNION ALL
       SELECT 'repository:' || repository AS scope, COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m,
         SUM(CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN 1 ELSE 0 END) AS measured
       FROM budget_reservations WHERE day = ? GROUP BY repository
       ORDER BY scope`,
      [trusted, trusted, day, trusted, trusted, day],
    );
    return rows.map((r) => ({ scope: r.scope, dispatches: Number(r.n), minutes: Number(r.m), measured: Number(r.measured ?? 0) }));
  }

  /**
   * A scope's cap as its latest recorded change sets it (null: no recorded override, the
   * configured caps apply). A history entry that does not parse throws: nothing is reserved.
   */
  /** The cap a reservation in `scope` is held to: the tighter of its override row and its latest recorded change. */
  async effectiveLimit(scope: string, fallback: BudgetLimit): Promise<BudgetLimit> {
    return tighter(await this.limitFor(scope, fallback), (await this.recordedLimit(scope)) ?? fallback);
  }

  async recordedLimit(scope: string): Promise<BudgetLimit | null> {
    const rows = await this.db.all<{ state: unknown }>("SELECT state FROM switch_history WHERE switch = ? ORDER BY seq DESC LIMIT 1", [
      `budget:${scope}`,
    ]);
    if (!rows[0]) return null;
    const state = JSON.parse(String(rows[0].state)) as { limit?: BudgetLimit | null } | null;
    const limit = state?.limit;
    if (limit === null) return null;
    if (!limit || !Number.isInteger(limit.dispatchesPerDay) || !Number.isInteger(limit.minutesPerDay)) {
      throw new Error(`the latest recorded change of budget:${scope} is not a limit`);
    }
    return { dispatchesPerDay: limit.dispatchesPerDay, minutesPerDay: limit.minutesPerDay };
  }

  async limitFor(scope: string, fallback: BudgetLimit): Promise<BudgetLimit> {
    const rows = await this.db.all<{ d: unknown; m: unknown }>(
      "SELECT dispatches_per_day AS d, minutes_per_day AS m FROM budget_limits WHERE scope = ?",
      [scope],
    );
    return rows[0] ? { dispatchesPerDay: Number(rows[0].d), minutesPerDay: Number(rows[0].m) } : fallback;
  }

  async overrides(): Promise<LimitOverride[]> {
    const rows = await this.db.all<Record<string, unknown>>("SELECT * FROM budget_limits ORDER BY scope");
    return rows.map((r) => ({
      scope: String(r.scope),
      dispatchesPerDay: Number(r.dispatches_per_day),
      minutesPerDay: Number(r.minutes_per_day),
      changedBy: String(r.changed_by),
      reason: String(r.reason),
      changedAt: Number(r.changed_at),
    }));
  }
}

function reservationOf(row: Reservation): Reservation {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...row,
    installation_id: Number(row.installation_id),
    max_minutes: Number(row.max_minutes),
    measured_minutes: num(row.measured_minutes),
    measured_at: num(row.measured_at),
    run_b_id: num(row.run_b_id),
    reserved_at: Number(row.reserved_at),
    attempted_at: num(row.attempted_at),
  };
}
