import type { PullVerdict } from "../core/verified-head.js";
import type { SqlDb } from "./db.js";
import { withNumbers } from "./runs.js";

/**
 * The App's verified check per commit (migration 10): each open pull request's verdict from its
 * latest verified run on the commit (`pull_verdicts`), and the commit's check (`verified_heads`).
 * `generation` counts the changes to what the check is made of (a verdict recorded, a pull request
 * opened, retargeted, synchronized or closed); `posted_generation` is the one the last posted check
 * was made at. One poster at a time per commit (a claim like the other tables'), so the check posted
 * last is made of the latest state.
 */
export interface VerifiedHead {
  repository: string;
  head_sha: string;
  generation: number;
  posted_generation: number;
  claim_owner: string | null;
  claim_until: number | null;
  check_run_id: number | null;
  conclusion: string | null;
  code: string | null;
  /** JSON: the open pull requests the last check was made of, `[{number, base_ref, conclusion}]`. */
  pulls: string | null;
  /** JSON: check runs of the same name another app posted on the commit, as the last evaluation found them. */
  foreign_checks: string | null;
  updated_at: number;
}

export interface StoredPullVerdict extends PullVerdict {
  repository: string;
  head_sha: string;
  recorded_at: number;
}

const NUMERIC_HEAD = ["generation", "posted_generation", "claim_until", "check_run_id", "updated_at"] as const;
const NUMERIC_VERDICT = ["pull_number", "run_id", "run_attempt", "recorded_at"] as const;

export class VerifiedHeads {
  /** `lapsed(now)`: SQL true when a verified_heads claim may be taken over (lease over, or owner gone). */
  constructor(
    private readonly db: SqlDb,
    private readonly lapsed: (now: number) => { sql: string; params: unknown[] },
  ) {}

  /**
   * Records a pull request's verdict from a run on the commit. A run older than the one recorded
   * (a lower run id, or the same run's earlier attempt) changes nothing: the pull request's latest
   * run speaks for it. True when the row changed.
   */
  async recordVerdict(v: StoredPullVerdict): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO pull_verdicts (repository, head_sha, pull_number, base_ref, base_sha, run_id, run_attempt, conclusion, code, title, summary, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (repository, head_sha, pull_number) DO UPDATE SET
         base_ref = excluded.base_ref, base_sha = excluded.base_sha, run_id = excluded.run_id, run_attempt = excluded.run_attempt,
         conclusion = excluded.conclusion, code = excluded.code, title = excluded.title, summary = excluded.summary, recorded_at = excluded.recorded_at
       WHERE excluded.run_id > pull_verdicts.run_id
          OR (excluded.run_id = pull_verdicts.run_id AND excluded.run_attempt >= pull_verdicts.run_attempt)`,
      [
        v.repository,
        v.head_sha,
        v.pull_number,
        v.base_ref,
        v.base_sha,
        v.run_id,
        v.run_attempt,
        v.conclusion,
        v.code,
        v.title,
        v.summary,
        v.recorded_at,
      ],
    );
    return changed === 1;
  }

  async verdicts(repository: string, headSha: string): Promise<StoredPullVerdict[]> {
    const rows = await this.db.all<StoredPullVerdict>(
      "SELECT * FROM pull_verdicts WHERE repository = ? AND head_sha = ? ORDER BY pull_number",
      [repository, headSha],
    );
    return rows.map((r) => withNumbers(r, NUMERIC_VERDICT));
  }

  async get(repository: string, headSha: string): Promise<VerifiedHead | null> {
    const rows = await this.db.all<VerifiedHead>("SELECT * FROM verified_heads WHERE repository = ? AND head_sha = ?", [
      repository,
      headSha,
    ]);
    return rows[0] ? withNumbers(rows[0], NUMERIC_HEAD) : null;
  }

  /** What the commit's check is made of changed: one more generation (the row made on first use). */
  async bump(repository: string, headSha: string, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO verified_heads (repository, head_sha, generation, posted_generation, updated_at) VALUES (?, ?, 1, 0, ?)
       ON CONFLICT (repository, head_sha) DO UPDATE SET generation = verified_heads.generation + 1, updated_at = excluded.updated_at`,
      [repository, headSha, now],
    );
  }

  /** As bump, only for a commit the App has a check for already; false (nothing changed) otherwise. */
  async bumpKnown(repository: string, headSha: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE verified_heads SET generation = generation + 1, updated_at = ? WHERE repository = ? AND head_sha = ?",
      [now, repository, headSha],
    );
    return changed === 1;
  }

  /** The one-poster claim for the commit's check: free, or its lease over, or its owner gone. */
  async claim(repository: string, headSha: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const lapsed = this.lapsed(now);
    const taken = await this.db.run(
      `UPDATE verified_heads SET claim_owner = ?, claim_until = ?
       WHERE repository = ? AND head_sha = ? AND (claim_owner IS NULL OR ${lapsed.sql})`,
      [owner, now + leaseMs, repository, headSha, ...lapsed.params],
    );
    return taken === 1;
  }

  /**
   * Records what was posted (or that nothing was: no open pull request) at `generation`, and gives
   * the claim back, only if `owner` still holds it. False: the claim was taken over meanwhile.
   */
  async finish(
    repository: string,
    headSha: string,
    owner: string,
    generation: number,
    done: {
      check_run_id: number | null;
      conclusion: string | null;
      code: string | null;
      pulls: string;
      foreign_checks: string;
      at: number;
    },
  ): Promise<boolean> {
    const posted = done.check_run_id === null ? "" : "check_run_id = ?, conclusion = ?, code = ?, ";
    const postedParams = done.check_run_id === null ? [] : [done.check_run_id, done.conclusion, done.code];
    const changed = await this.db.run(
      `UPDATE verified_heads SET posted_generation = CASE WHEN posted_generation < ? THEN ? ELSE posted_generation END,
         ${posted}pulls = ?, foreign_checks = ?, updated_at = ?, claim_owner = NULL, claim_until = NULL
       WHERE repository = ? AND head_sha = ? AND claim_owner = ?`,
      [generation, generation, ...postedParams, done.pulls, done.foreign_checks, done.at, repository, headSha, owner],
    );
    return changed === 1;
  }

  /** Gives the claim back (the work failed and will be retried). */
  async release(repository: string, headSha: string, owner: string): Promise<void> {
    await this.db.run(
      "UPDATE verified_heads SET claim_owner = NULL, claim_until = 0 WHERE repository = ? AND head_sha = ? AND claim_owner = ?",
      [repository, headSha, owner],
    );
  }

  async recent(limit: number): Promise<VerifiedHead[]> {
    const rows = await this.db.all<VerifiedHead>("SELECT * FROM verified_heads ORDER BY updated_at DESC, head_sha LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC_HEAD));
  }
}
