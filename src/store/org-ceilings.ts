import type { SqlDb } from "./db.js";
import { withNumbers } from "./runs.js";

/**
 * An owner's organisation envelope as the App last read it (migration 14): its state, digest and
 * the `.github` commit it came from, and when its digest (or state) last changed.
 */
export interface OrgCeilingRow {
  owner: string;
  /** `ceiling`: read and valid; `none`: nothing to read; `invalid`: unreadable or not valid (detail says why). */
  state: "ceiling" | "none" | "invalid";
  digest: string | null;
  ceiling_id: string | null;
  source_sha: string | null;
  detail: string;
  /** JSON: every exception row, as a line saying whether it is honoured on the day read, and why not. */
  exceptions: string;
  changed_at: number;
  read_at: number;
}

/** A repository's latest result against its owner's organisation envelope. */
export interface CeilingResultRow {
  repository: string;
  owner: string;
  digest: string | null;
  /** within, widened, unchecked, uncovered, invalid, none */
  outcome: string;
  /** JSON: the widenings as lines, or the reason. */
  detail: string;
  /** JSON: the exception rows naming the repository, honoured or not, and why. */
  exceptions: string;
  /** JSON: what the run's log touched beyond the organisation envelope (hosts, keys, commands). */
  footprint: string;
  checked_at: number;
}

export class OrgCeilingRecords {
  constructor(private readonly db: SqlDb) {}

  /** Records a reading; `changed_at` moves only when the state or the digest differs from the last reading. */
  async recordReading(row: Omit<OrgCeilingRow, "changed_at" | "read_at">, at: number): Promise<OrgCeilingRow> {
    const owner = row.owner.toLowerCase();
    await this.db.run(
      `INSERT INTO org_ceilings (owner, state, digest, ceiling_id, source_sha, detail, exceptions, changed_at, read_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner) DO UPDATE SET
         changed_at = CASE WHEN org_ceilings.state = excluded.state AND COALESCE(org_ceilings.digest, '') = COALESCE(excluded.digest, '')
                           THEN org_ceilings.changed_at ELSE excluded.changed_at END,
         state = excluded.state, digest = excluded.digest, ceiling_id = excluded.ceiling_id,
         source_sha = excluded.source_sha, detail = excluded.detail, exceptions = excluded.exceptions, read_at = excluded.read_at`,
      [owner, row.state, row.digest, row.ceiling_id, row.source_sha, row.detail, row.exceptions, at, at],
    );
    return (await this.get(owner)) as OrgCeilingRow;
  }

  async get(owner: string): Promise<OrgCeilingRow | null> {
    const rows = await this.db.all<OrgCeilingRow>("SELECT * FROM org_ceilings WHERE owner = ?", [owner.toLowerCase()]);
    return rows[0] ? withNumbers(rows[0], ["changed_at", "read_at"]) : null;
  }

  async all(): Promise<OrgCeilingRow[]> {
    const rows = await this.db.all<OrgCeilingRow>("SELECT * FROM org_ceilings ORDER BY owner");
    return rows.map((r) => withNumbers(r, ["changed_at", "read_at"]));
  }

  async recordResult(row: CeilingResultRow): Promise<void> {
    await this.db.run(
      `INSERT INTO ceiling_results (repository, owner, digest, outcome, detail, exceptions, footprint, checked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (repository) DO UPDATE SET owner = excluded.owner, digest = excluded.digest, outcome = excluded.outcome,
         detail = excluded.detail, exceptions = excluded.exceptions, footprint = excluded.footprint, checked_at = excluded.checked_at
       WHERE ceiling_results.checked_at <= excluded.checked_at`,
      [
        row.repository.toLowerCase(),
        row.owner.toLowerCase(),
        row.digest,
        row.outcome,
        row.detail,
        row.exceptions,
        row.footprint,
        row.checked_at,
      ],
    );
  }

  /** The organisation-wide footprint of a repository's latest audit run: only the footprint, a result row made if none. */
  async recordFootprint(repository: string, owner: string, footprint: string, at: number): Promise<void> {
    await this.db.run(
      `INSERT INTO ceiling_results (repository, owner, digest, outcome, detail, exceptions, footprint, checked_at)
       VALUES (?, ?, NULL, 'not checked', '[]', '[]', ?, ?)
       ON CONFLICT (repository) DO UPDATE SET footprint = excluded.footprint`,
      [repository.toLowerCase(), owner.toLowerCase(), footprint, at],
    );
  }

  async results(limit = 500): Promise<CeilingResultRow[]> {
    const rows = await this.db.all<CeilingResultRow>("SELECT * FROM ceiling_results ORDER BY owner, repository LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, ["checked_at"]));
  }
}
