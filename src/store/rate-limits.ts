import type { RateObservation, RateReading } from "../core/rate-budget.js";
import type { SqlDb } from "./db.js";

interface Row {
  installation_id: number | string;
  resource: string;
  remaining: number | string | null;
  quota: number | string | null;
  reset_at: number | string | null;
  observed_at: number | string;
  observed_by: string;
  retry_after_until: number | string | null;
}

const num = (v: number | string | null): number | null => (v === null || v === undefined ? null : Number(v));

function reading(r: Row): RateReading & { observedBy: string } {
  return {
    installationId: Number(r.installation_id),
    resource: r.resource,
    remaining: num(r.remaining),
    limit: num(r.quota),
    resetAt: num(r.reset_at),
    observedAt: Number(r.observed_at),
    observedBy: r.observed_by,
    retryAfterUntil: num(r.retry_after_until),
  };
}

/**
 * GitHub's rate limit per installation and resource, as every replica last saw it: one row,
 * written from each answer's headers, so each replica decides from what any replica saw.
 * Within one window (one reset time) the remainder only goes down, so a reading is kept when it
 * is of a later window or no higher than the recorded one: two replicas writing out of order
 * never raise the remainder back. A secondary limit's retry-after only ever moves later.
 */
export class RateLimits {
  constructor(private readonly db: SqlDb) {}

  async record(installationId: number, seen: RateObservation, by: string, now: number): Promise<void> {
    if (seen.remaining !== null && seen.limit !== null && seen.resetAt !== null) {
      await this.db.run(
        `INSERT INTO rate_limits (installation_id, resource, remaining, quota, reset_at, observed_at, observed_by, retry_after_until)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (installation_id, resource) DO UPDATE SET remaining = excluded.remaining, quota = excluded.quota,
           reset_at = excluded.reset_at, observed_at = excluded.observed_at, observed_by = excluded.observed_by
         WHERE rate_limits.reset_at IS NULL OR excluded.reset_at > rate_limits.reset_at
           OR (excluded.reset_at = rate_limits.reset_at AND excluded.remaining <= rate_limits.remaining)`,
        [installationId, seen.resource, seen.remaining, seen.limit, seen.resetAt, now, by],
      );
    }
    if (seen.retryAfterUntil !== null) {
      await this.db.run(
        `INSERT INTO rate_limits (installation_id, resource, observed_at, observed_by, retry_after_until) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (installation_id, resource) DO UPDATE SET retry_after_until = excluded.retry_after_until
         WHERE rate_limits.retry_after_until IS NULL OR rate_limits.retry_after_until < excluded.retry_after_until`,
        [installationId, seen.resource, now, by, seen.retryAfterUntil],
      );
    }
  }

  /** The installation's REST budget (`core`), as last recorded; null when no answer was read yet. */
  async get(installationId: number, resource = "core"): Promise<(RateReading & { observedBy: string }) | null> {
    const rows = await this.db.all<Row>("SELECT * FROM rate_limits WHERE installation_id = ? AND resource = ?", [installationId, resource]);
    return rows[0] ? reading(rows[0]) : null;
  }

  /** Every recorded reading, by installation and resource. */
  async list(): Promise<(RateReading & { observedBy: string })[]> {
    const rows = await this.db.all<Row>("SELECT * FROM rate_limits ORDER BY installation_id, resource");
    return rows.map(reading);
  }
}
