import type { SqlDb } from "./db.js";
import { guardSql, type RowGuard, type SqlCondition } from "./guard.js";
import { withNumbers } from "./runs.js";

/** One completed push run of the gate workflow, as the App judged it for envelope proposals (migration 9). */
export interface AuditRun {
  repository: string;
  run_id: number;
  run_attempt: number;
  branch: string | null;
  head_sha: string | null;
  run_url: string | null;
  /** `verified`: an audit run of the default branch whose evidence verified; `ignored`: not an audit bundle; `refused`: with its code. */
  state: "verified" | "ignored" | "refused";
  code: string | null;
  reason: string | null;
  /** The evidence bundle's digest (`sha256:<hex>` of its manifest), for a verified run. */
  evidence: string | null;
  recorded_at: number;
}

export type EnvelopePrState = "claimed" | "opened" | "shadowed" | "closed" | "merged";

/**
 * The App's envelope PR for a repository: at most one in `claimed`, `opened` or `shadowed` per
 * repository (a partial unique index). `commit_sha` is recorded before any branch points at it.
 */
export interface EnvelopePr {
  id: string;
  repository: string;
  installation_id: number;
  branch: string;
  base_ref: string;
  envelope_path: string;
  state: EnvelopePrState;
  mode: "shadow" | "active";
  claim_owner: string | null;
  claim_until: number | null;
  envelope_text: string;
  envelope_digest: string;
  title: string;
  body: string;
  /** JSON array of the run ids the proposal came from. */
  runs: string;
  base_sha: string | null;
  commit_sha: string | null;
  pr_number: number | null;
  pr_url: string | null;
  outcome_code: string | null;
  outcome_detail: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export type NewEnvelopePr = Pick<
  EnvelopePr,
  | "id"
  | "repository"
  | "installation_id"
  | "branch"
  | "base_ref"
  | "envelope_path"
  | "mode"
  | "envelope_text"
  | "envelope_digest"
  | "title"
  | "body"
  | "runs"
  | "created_at"
>;

const NUMERIC_RUN = ["run_id", "run_attempt", "recorded_at"] as const;
const NUMERIC_PR = ["installation_id", "claim_until", "pr_number", "created_at", "updated_at", "closed_at"] as const;
const ACTIVE = "state IN ('claimed', 'opened', 'shadowed')";

/** Audit runs and envelope PRs: single-statement inserts and conditional updates, as everywhere in the store. */
export class EnvelopePrRecords {
  /** `lapsed(now)`: SQL true when an envelope_prs claim may be taken over (lease over, or owner gone). */
  constructor(
    private readonly db: SqlDb,
    private readonly lapsed: (now: number) => { sql: string; params: unknown[] },
  ) {}

  /** Records a run's judgement once per (repository, run, attempt); a redelivery changes nothing. True when this call recorded it. */
  async recordAuditRun(r: AuditRun): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO audit_runs (repository, run_id, run_attempt, branch, head_sha, run_url, state, code, reason, evidence, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt) DO NOTHING`,
      [r.repository, r.run_id, r.run_attempt, r.branch, r.head_sha, r.run_url, r.state, r.code, r.reason, r.evidence, r.recorded_at],
    );
    return changed === 1;
  }

  async getAuditRun(repository: string, runId: number, attempt: number): Promise<AuditRun | null> {
    const rows = await this.db.all<AuditRun>("SELECT * FROM audit_runs WHERE repository = ? AND run_id = ? AND run_attempt = ?", [
      repository,
      runId,
      attempt,
    ]);
    return rows[0] ? withNumbers(rows[0], NUMERIC_RUN) : null;
  }

  /** The newest `limit` verified audit runs of `branch` (one row per run: its latest verified attempt), newest first. */
  async lastVerifiedAuditRuns(repository: string, branch: string, limit: number): Promise<AuditRun[]> {
    const rows = await this.db.all<AuditRun>(
      "SELECT * FROM audit_runs WHERE repository = ? AND branch = ? AND state = 'verified' ORDER BY run_id DESC, run_attempt DESC",
      [repository, branch],
    );
    const seen = new Set<number>();
    const out: AuditRun[] = [];
    for (const raw of rows) {
      const r = withNumbers(raw, NUMERIC_RUN);
      if (seen.has(r.run_id)) continue;
      seen.add(r.run_id);
      out.push(r);
      if (out.length === limit) break;
    }
    return out;
  }

  async recentAuditRuns(limit: number): Promise<AuditRun[]> {
    const rows = await this.db.all<AuditRun>("SELECT * FROM audit_runs ORDER BY recorded_at DESC, run_id DESC LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC_RUN));
  }

  /** The repository's envelope PR in flight (claimed, opened or shadowed), if any. */
  async activeEnvelopePr(repository: string): Promise<EnvelopePr | null> {
    const rows = await this.db.all<EnvelopePr>(`SELECT * FROM envelope_prs WHERE repository = ? AND ${ACTIVE}`, [repository]);
    return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
  }

  async getEnvelopePr(id: string): Promise<EnvelopePr | null> {
    const rows = await this.db.all<EnvelopePr>("SELECT * FROM envelope_prs WHERE id = ?", [id]);
    return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
  }

  async findEnvelopePrByPull(repository: string, pullNumber: number): Promise<EnvelopePr | null> {
    const rows = await this.db.all<EnvelopePr>(
      "SELECT * FROM envelope_prs WHERE repository = ? AND pr_number = ? ORDER BY created_at DESC LIMIT 1",
      [repository, pullNumber],
    );
    return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
  }

  async listEnvelopePrs(limit: number): Promise<EnvelopePr[]> {
    const rows = await this.db.all<EnvelopePr>("SELECT * FROM envelope_prs ORDER BY updated_at DESC, created_at DESC LIMIT ?", [limit]);
    return rows.map((r) => withNumbers(r, NUMERIC_PR));
  }

  /**
   * A new envelope PR, claimed by `owner`. False when the repository already has one in flight
   * (the partial unique index: whichever replica or delivery inserts first is the one sender).
   */
  async insertEnvelopePr(pr: NewEnvelopePr, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO envelope_prs (id, repository, installation_id, branch, base_ref, envelope_path, state, mode, claim_owner, claim_until,
         envelope_text, envelope_digest, title, body, runs, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'claimed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        pr.id,
        pr.repository,
        pr.installation_id,
        pr.branch,
        pr.base_ref,
        pr.envelope_path,
        pr.mode,
        owner,
        now + leaseMs,
        pr.envelope_text,
        pr.envelope_digest,
        pr.title,
        pr.body,
        pr.runs,
        pr.created_at,
        pr.created_at,
      ],
    );
    return changed === 1;
  }

  /**
   * Takes the claim on an envelope PR in flight: free (released) or lapsed (lease over, owner
   * gone). Not by owner alone: one process works on several deliveries of a repository at once.
   * One conditional UPDATE, so two callers never both hold it.
   */
  async claimEnvelopePr(id: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const lapsed = this.lapsed(now);
    const changed = await this.db.run(
      `UPDATE envelope_prs SET claim_owner = ?, claim_until = ?
       WHERE id = ? AND ${ACTIVE} AND (claim_owner IS NULL OR ${lapsed.sql})`,
      [owner, now + leaseMs, id, ...lapsed.params],
    );
    return changed === 1;
  }

  /**
   * Moves an envelope PR from one of `from` to `to` with `fields`, only while `owner` holds its
   * claim (and `also` holds, e.g. the commit it was read at). True when this call changed it.
   */
  async updateEnvelopePr(
    id: string,
    owner: string,
    from: readonly EnvelopePrState[],
    to: EnvelopePrState,
    fields: Partial<Omit<EnvelopePr, "id" | "repository" | "state">>,
    now: number,
    guard?: RowGuard<EnvelopePr> | SqlCondition,
  ): Promise<boolean> {
    const also = guardSql(guard, this.lapsed);
    const cols = Object.keys(fields);
    const sets = ["state = ?", "updated_at = ?", ...cols.map((c) => `${c} = ?`)];
    const changed = await this.db.run(
      `UPDATE envelope_prs SET ${sets.join(", ")}
       WHERE id = ? AND state IN (${from.map(() => "?").join(", ")}) AND claim_owner = ?${also ? ` AND (${also.sql})` : ""}`,
      [to, now, ...cols.map((c) => (fields as Record<string, unknown>)[c]), id, ...from, owner, ...(also?.params ?? [])],
    );
    return changed === 1;
  }
}
