import type { SqlDb } from "./db.js";
import { withNumbers } from "./runs.js";

/**
 * A pull request the gate held once (docs/app.md, "Gated pull requests"): it carried the agent
 * label, or a verified run of it was gated. It stays gated when the label goes; the latest
 * ungate by an envelope reviewer is recorded with their name and the commit they reviewed.
 */
export interface GatedPull {
  repository: string;
  pull_number: number;
  reason: string;
  gated_at: number;
  ungated_by: string | null;
  ungated_review_id: number | null;
  ungated_head_sha: string | null;
  ungated_at: number | null;
}

const NUMERIC = ["pull_number", "gated_at", "ungated_review_id", "ungated_at"] as const;

/** Gated pull requests (migration 10). Repositories are matched as GitHub names them, in any case. */
export class GatedPullRecords {
  constructor(private readonly db: SqlDb) {}

  /** Records the pull request as gated, once: the first reason stays. True when this call recorded it. */
  async markGated(repository: string, pullNumber: number, reason: string, at: number): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO gated_pulls (repository, pull_number, reason, gated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (repository, pull_number) DO NOTHING`,
      [repository.toLowerCase(), pullNumber, reason, at],
    );
    return changed === 1;
  }

  async get(repository: string, pullNumber: number): Promise<GatedPull | null> {
    const rows = await this.db.all<GatedPull>("SELECT * FROM gated_pulls WHERE repository = ? AND pull_number = ?", [
      repository.toLowerCase(),
      pullNumber,
    ]);
    return rows[0] ? withNumbers(rows[0], NUMERIC) : null;
  }

  /** Records a reviewer's ungate of one head commit (the latest one wins); false when the pull request is not gated. */
  async recordUngate(
    repository: string,
    pullNumber: number,
    ungate: { by: string; review_id: number; head_sha: string; at: number },
  ): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE gated_pulls SET ungated_by = ?, ungated_review_id = ?, ungated_head_sha = ?, ungated_at = ?
       WHERE repository = ? AND pull_number = ? AND (ungated_review_id IS NULL OR ungated_review_id <> ?)`,
      [ungate.by, ungate.review_id, ungate.head_sha, ungate.at, repository.toLowerCase(), pullNumber, ungate.review_id],
    );
    return changed === 1;
  }

  /** Withdraws the recorded ungate when its review was dismissed. */
  async clearUngate(repository: string, pullNumber: number, reviewId: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE gated_pulls SET ungated_by = NULL, ungated_review_id = NULL, ungated_head_sha = NULL, ungated_at = NULL
       WHERE repository = ? AND pull_number = ? AND ungated_review_id = ?`,
      [repository.toLowerCase(), pullNumber, reviewId],
    );
    return changed === 1;
  }

  async recent(limit: number): Promise<GatedPull[]> {
    const rows = await this.db.all<GatedPull>("SELECT * FROM gated_pulls ORDER BY gated_at DESC, pull_number DESC LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC));
  }
}
