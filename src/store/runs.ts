import type { SqlDb } from "./db.js";

/** A gate workflow run the App refused to take as runner A or runner B, with its typed reason. */
export interface RunRefusal {
  repository: string;
  run_id: number;
  run_attempt: number;
  role: "runner_a" | "runner_b";
  code: string;
  reason: string;
  event: string | null;
  head_sha: string | null;
  dual_run_id: string | null;
  refused_at: number;
}

/** The App's `<check name> / verified` check for one run attempt. */
export interface VerifiedCheck {
  repository: string;
  run_id: number;
  run_attempt: number;
  head_sha: string;
  state: "claimed" | "posted" | "skipped";
  claim_owner: string | null;
  claim_until: number | null;
  conclusion: string | null;
  code: string | null;
  check_run_id: number | null;
  created_at: number;
  posted_at: number | null;
}

const NUMERIC_REFUSAL = ["run_id", "run_attempt", "refused_at"] as const;
const NUMERIC_CHECK = ["run_id", "run_attempt", "claim_until", "check_run_id", "created_at", "posted_at"] as const;

/** The row with `columns` as numbers (PostgreSQL returns BIGINT as text). */
export function withNumbers<T>(row: T, columns: readonly string[]): T {
  const out = { ...row } as Record<string, unknown>;
  for (const k of columns) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
  return out as T;
}

/** Refused runs and the verified check's one-sender claim (migration 8). */
export class RunRecords {
  /** `lapsed(now)`: SQL true when a verified_checks claim may be taken over (lease over, or owner gone). */
  constructor(
    private readonly db: SqlDb,
    private readonly lapsed: (now: number) => { sql: string; params: unknown[] },
  ) {}

  /** Records a refusal once per (repository, run, attempt, role); a redelivery changes nothing. */
  async recordRefusal(r: RunRefusal): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO run_refusals (repository, run_id, run_attempt, role, code, reason, event, head_sha, dual_run_id, refused_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt, role) DO NOTHING`,
      [r.repository, r.run_id, r.run_attempt, r.role, r.code, r.reason, r.event, r.head_sha, r.dual_run_id, r.refused_at],
    );
    return changed === 1;
  }

  async recentRefusals(limit: number): Promise<RunRefusal[]> {
    const rows = await this.db.all<RunRefusal>("SELECT * FROM run_refusals ORDER BY refused_at DESC, run_id DESC LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC_REFUSAL));
  }

  async refusalsFor(repository: string, runId: number): Promise<RunRefusal[]> {
    const rows = await this.db.all<RunRefusal>("SELECT * FROM run_refusals WHERE repository = ? AND run_id = ? ORDER BY role", [
      repository,
      runId,
    ]);
    return rows.map((r) => withNumbers(r, NUMERIC_REFUSAL));
  }

  async getVerifiedCheck(repository: string, runId: number, attempt: number): Promise<VerifiedCheck | null> {
    const rows = await this.db.all<VerifiedCheck>("SELECT * FROM verified_checks WHERE repository = ? AND run_id = ? AND run_attempt = ?", [
      repository,
      runId,
      attempt,
    ]);
    return rows[0] ? withNumbers(rows[0], NUMERIC_CHECK) : null;
  }

  /**
   * The one-sender claim for a run attempt's verified check: the first caller inserts it; a
   * later one takes it over only while it is still `claimed` and released, or its lease ran out
   * or its owner is gone (a replica that died before posting). Not by owner alone: one process
   * works on several deliveries of the same run at once. False: done already, or held by a live
   * claim.
   */
  async claimVerifiedCheck(
    c: { repository: string; run_id: number; run_attempt: number; head_sha: string },
    owner: string,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    const inserted = await this.db.run(
      `INSERT INTO verified_checks (repository, run_id, run_attempt, head_sha, state, claim_owner, claim_until, created_at)
       VALUES (?, ?, ?, ?, 'claimed', ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt) DO NOTHING`,
      [c.repository, c.run_id, c.run_attempt, c.head_sha, owner, now + leaseMs, now],
    );
    if (inserted === 1) return true;
    const lapsed = this.lapsed(now);
    const taken = await this.db.run(
      `UPDATE verified_checks SET claim_owner = ?, claim_until = ?
       WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND (claim_owner IS NULL OR ${lapsed.sql})`,
      [owner, now + leaseMs, c.repository, c.run_id, c.run_attempt, ...lapsed.params],
    );
    return taken === 1;
  }

  /** Marks the claim done (`posted` with the check run, or `skipped`), only if `owner` holds it. */
  async finishVerifiedCheck(
    key: { repository: string; run_id: number; run_attempt: number },
    owner: string,
    done: { state: "posted" | "skipped"; conclusion: string | null; code: string | null; check_run_id: number | null; at: number },
  ): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE verified_checks SET state = ?, conclusion = ?, code = ?, check_run_id = ?, posted_at = ?, claim_owner = NULL, claim_until = NULL
       WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND claim_owner = ?`,
      [done.state, done.conclusion, done.code, done.check_run_id, done.at, key.repository, key.run_id, key.run_attempt, owner],
    );
    return changed === 1;
  }

  /** Gives a claim back (the work failed and will be retried). */
  async releaseVerifiedCheck(key: { repository: string; run_id: number; run_attempt: number }, owner: string): Promise<void> {
    await this.db.run(
      "UPDATE verified_checks SET claim_owner = NULL, claim_until = 0 WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND claim_owner = ?",
      [key.repository, key.run_id, key.run_attempt, owner],
    );
  }

  async recentVerifiedChecks(limit: number): Promise<VerifiedCheck[]> {
    const rows = await this.db.all<VerifiedCheck>("SELECT * FROM verified_checks ORDER BY created_at DESC, run_id DESC LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC_CHECK));
  }
}
