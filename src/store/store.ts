import type { SqlDb } from "./db.js";
import { migrate } from "./migrations.js";

export type InstallationMode = "shadow" | "active";
export type DualRunState = "pending" | "dispatching" | "waiting" | "comparing" | "decided" | "reporting" | "done";
export type LedgerPrState = "claimed" | "shadowed" | "opened" | "merged" | "closed";

export interface KillSwitch {
  paused: boolean;
  reason: string | null;
  changed_by: string | null;
  changed_at: number | null;
}

export interface Installation {
  installation_id: number;
  account: string | null;
  mode: InstallationMode;
  created_at: number;
  promoted_at: number | null;
  promoted_by: string | null;
}

export interface DeliveryRow {
  delivery_id: string;
  event: string;
  state: "processing" | "done" | "failed";
  owner: string;
  lease_until: number;
  attempts: number;
  failures: number;
  received_at: number;
  finished_at: number | null;
  outcome: string | null;
  error_code: string | null;
  error_message: string | null;
}

export interface DualRun {
  id: string;
  installation_id: number;
  repository: string;
  head_sha: string;
  pull_number: number | null;
  base_ref: string;
  envelope_hash: string;
  /** JSON array of the property names that failed on runner A. */
  properties: string;
  run_a_id: number;
  run_a_attempt: number;
  run_a_url: string | null;
  evidence_a: string;
  /** JSON of runner A's runner.json. */
  runner_a: string;
  state: DualRunState;
  claim_owner: string | null;
  claim_until: number | null;
  dispatch_mode: string | null;
  run_b_id: number | null;
  run_b_url: string | null;
  evidence_b: string | null;
  runner_b: string | null;
  outcome: string | null;
  outcome_code: string | null;
  outcome_detail: string | null;
  /** JSON of the per-property comparison. */
  results: string | null;
  /** The `(dual run)` check run posted when the dual run was reported. */
  check_run_id: number | null;
  created_at: number;
  dispatched_at: number | null;
  deadline_at: number;
  decided_at: number | null;
  done_at: number | null;
}

export type NewDualRun = Pick<
  DualRun,
  | "id"
  | "installation_id"
  | "repository"
  | "head_sha"
  | "pull_number"
  | "base_ref"
  | "envelope_hash"
  | "properties"
  | "run_a_id"
  | "run_a_attempt"
  | "run_a_url"
  | "evidence_a"
  | "runner_a"
  | "created_at"
  | "deadline_at"
>;

export interface LedgerPr {
  lock_key: string;
  repository: string;
  property: string;
  envelope_hash: string;
  head_sha: string;
  dual_run_id: string;
  installation_id: number;
  freeze_id: string;
  branch: string;
  base_ref: string;
  ledger_path: string;
  row_text: string;
  title: string;
  body: string;
  expires_on: string;
  mode: InstallationMode;
  state: LedgerPrState;
  claim_owner: string | null;
  claim_until: number | null;
  pr_number: number | null;
  pr_url: string | null;
  check_run_id: number | null;
  base_sha: string | null;
  created_at: number;
  opened_at: number | null;
  first_review_at: number | null;
  review_alerted_at: number | null;
  closed_at: number | null;
}

export type NewLedgerPr = Omit<
  LedgerPr,
  | "state"
  | "claim_owner"
  | "claim_until"
  | "pr_number"
  | "pr_url"
  | "check_run_id"
  | "base_sha"
  | "opened_at"
  | "first_review_at"
  | "review_alerted_at"
  | "closed_at"
>;

/** Columns a transition may set, besides `state`. */
type DualRunFields = Partial<Omit<DualRun, "id" | "state">>;
type LedgerPrFields = Partial<Omit<LedgerPr, "lock_key" | "state">>;

const DUAL_RUN_COLUMNS = new Set<string>([
  "claim_owner",
  "claim_until",
  "dispatch_mode",
  "run_b_id",
  "run_b_url",
  "evidence_b",
  "runner_b",
  "outcome",
  "outcome_code",
  "outcome_detail",
  "results",
  "check_run_id",
  "dispatched_at",
  "deadline_at",
  "decided_at",
  "done_at",
]);
const LEDGER_PR_COLUMNS = new Set<string>([
  "claim_owner",
  "claim_until",
  "pr_number",
  "pr_url",
  "check_run_id",
  "base_sha",
  "opened_at",
  "first_review_at",
  "review_alerted_at",
  "closed_at",
  "row_text",
  "body",
  "title",
]);

function assignments(fields: Record<string, unknown>, allowed: Set<string>): { sql: string; params: unknown[] } {
  const keys = Object.keys(fields).filter((k) => fields[k] !== undefined);
  for (const k of keys) if (!allowed.has(k)) throw new Error(`column ${k} cannot be set by a transition`);
  return { sql: keys.map((k) => `, ${k} = ?`).join(""), params: keys.map((k) => fields[k]) };
}

function inList(values: readonly string[]): string {
  return values.map(() => "?").join(", ");
}

function boolOf(v: unknown): boolean {
  return v === true || v === 1 || v === "1";
}

/**
 * The App's durable state. Every state change is one conditional statement whose WHERE clause
 * names the state it leaves; a caller that changed no row lost the race and does nothing.
 */
export class Store {
  constructor(readonly db: SqlDb) {}

  get backend(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  migrate(now: number): Promise<number[]> {
    return migrate(this.db, now);
  }

  async ping(): Promise<void> {
    await this.db.all("SELECT 1 AS ok");
  }

  close(): Promise<void> {
    return this.db.close();
  }

  // ---- kill switch -------------------------------------------------------------------------

  async killSwitch(): Promise<KillSwitch> {
    const rows = await this.db.all<Record<string, unknown>>("SELECT paused, reason, changed_by, changed_at FROM kill_switch WHERE id = 1");
    const row = rows[0];
    // The row is written by migration 1; its absence means the store is not what we migrated.
    if (!row) throw new Error("kill_switch row missing");
    return {
      paused: boolOf(row.paused),
      reason: (row.reason as string | null) ?? null,
      changed_by: (row.changed_by as string | null) ?? null,
      changed_at: row.changed_at === null ? null : Number(row.changed_at),
    };
  }

  /** Pauses (true) or resumes (false). Resolves false when it was already in that state. */
  async setKillSwitch(paused: boolean, reason: string | null, by: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE kill_switch SET paused = ?, reason = ?, changed_by = ?, changed_at = ? WHERE id = 1 AND paused = ?",
      [paused ? 1 : 0, reason, by, now, paused ? 0 : 1],
    );
    return changed === 1;
  }

  // ---- installations -----------------------------------------------------------------------

  /** A new installation starts in shadow mode. Returns the installation's current mode. */
  async ensureInstallation(id: number, account: string | null, now: number): Promise<InstallationMode> {
    await this.db.run(
      "INSERT INTO installations (installation_id, account, mode, created_at) VALUES (?, ?, 'shadow', ?) ON CONFLICT (installation_id) DO NOTHING",
      [id, account, now],
    );
    const mode = await this.installationMode(id);
    return mode ?? "shadow";
  }

  async installationMode(id: number): Promise<InstallationMode | null> {
    const rows = await this.db.all<{ mode: InstallationMode }>("SELECT mode FROM installations WHERE installation_id = ?", [id]);
    return rows[0]?.mode ?? null;
  }

  async promoteInstallation(id: number, by: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE installations SET mode = 'active', promoted_at = ?, promoted_by = ? WHERE installation_id = ? AND mode = 'shadow'",
      [now, by, id],
    );
    return changed === 1;
  }

  async demoteInstallation(id: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE installations SET mode = 'shadow', promoted_at = NULL, promoted_by = NULL WHERE installation_id = ? AND mode = 'active'",
      [id],
    );
    return changed === 1;
  }

  async listInstallations(): Promise<Installation[]> {
    const rows = await this.db.all<Installation>("SELECT * FROM installations ORDER BY installation_id");
    return rows.map((r) => ({ ...r, installation_id: Number(r.installation_id) }));
  }

  // ---- deliveries --------------------------------------------------------------------------

  /**
   * Claims a webhook delivery for processing, in one statement: a new id is inserted; a failed
   * one, or one whose previous processor's lease ran out, is taken over. Anything else (done,
   * or being processed right now) is a duplicate.
   */
  async claimDelivery(id: string, event: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at)
       VALUES (?, ?, 'processing', ?, ?, 1, 0, ?)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'processing', owner = excluded.owner,
         lease_until = excluded.lease_until, attempts = deliveries.attempts + 1, error_code = NULL, error_message = NULL
       WHERE deliveries.state = 'failed' OR (deliveries.state = 'processing' AND deliveries.lease_until < ?)`,
      [id, event, owner, now + leaseMs, now, now],
    );
    return changed === 1;
  }

  async finishDelivery(id: string, owner: string, outcome: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE deliveries SET state = 'done', outcome = ?, finished_at = ? WHERE delivery_id = ? AND state = 'processing' AND owner = ?",
      [outcome, now, id, owner],
    );
    return changed === 1;
  }

  async failDelivery(id: string, owner: string, code: string, message: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE deliveries SET state = 'failed', failures = failures + 1, error_code = ?, error_message = ?, finished_at = ?
       WHERE delivery_id = ? AND state = 'processing' AND owner = ?`,
      [code, message.slice(0, 2000), now, id, owner],
    );
    return changed === 1;
  }

  async getDelivery(id: string): Promise<DeliveryRow | null> {
    const rows = await this.db.all<DeliveryRow>("SELECT * FROM deliveries WHERE delivery_id = ?", [id]);
    return rows[0] ?? null;
  }

  async deliveryCounts(): Promise<{ state: string; n: number; executions: number }[]> {
    const rows = await this.db.all<{ state: string; n: number; executions: number }>(
      "SELECT state, COUNT(*) AS n, SUM(attempts - failures) AS executions FROM deliveries GROUP BY state",
    );
    return rows.map((r) => ({ state: r.state, n: Number(r.n), executions: Number(r.executions) }));
  }

  // ---- dual runs ---------------------------------------------------------------------------

  /** Records a dual run in `pending`. Resolves false when it already exists (a redelivery). */
  async insertDualRun(run: NewDualRun): Promise<boolean> {
    const cols = Object.keys(run) as (keyof NewDualRun)[];
    const changed = await this.db.run(
      `INSERT INTO dual_runs (${cols.join(", ")}, state) VALUES (${inList(cols)}, 'pending') ON CONFLICT (id) DO NOTHING`,
      cols.map((c) => run[c]),
    );
    return changed === 1;
  }

  /** Dual runs matching `where` (SQL after `FROM dual_runs`), numeric columns as numbers. */
  private async selectDualRuns(where: string, params: readonly unknown[]): Promise<DualRun[]> {
    const rows = await this.db.all<DualRun>(`SELECT * FROM dual_runs ${where}`, params);
    return rows.map((row) => withNumbers(row, NUMERIC_DUAL));
  }

  async getDualRun(id: string): Promise<DualRun | null> {
    return (await this.selectDualRuns("WHERE id = ?", [id]))[0] ?? null;
  }

  async findDualRunByRunB(repository: string, runBId: number): Promise<DualRun | null> {
    return (await this.selectDualRuns("WHERE repository = ? AND run_b_id = ?", [repository, runBId]))[0] ?? null;
  }

  listDualRuns(states: readonly DualRunState[]): Promise<DualRun[]> {
    return this.selectDualRuns(`WHERE state IN (${inList(states)}) ORDER BY deadline_at, id`, states);
  }

  recentDualRuns(limit: number): Promise<DualRun[]> {
    return this.selectDualRuns("ORDER BY created_at DESC, id LIMIT ?", [limit]);
  }

  /**
   * Moves a dual run from one of `from` to `to`, setting `fields`, in one conditional UPDATE.
   * `extra` adds a condition (e.g. the deadline) with its parameters.
   */
  transitionDualRun(
    id: string,
    from: readonly DualRunState[],
    to: DualRunState,
    fields: DualRunFields = {},
    extra?: { sql: string; params: unknown[] },
  ): Promise<boolean> {
    return this.transition("dual_runs", "id", DUAL_RUN_COLUMNS, id, from, to, fields, extra);
  }

  /**
   * Takes a dual run for work: from `from`, or from `to` when its previous owner's lease ran out.
   * `also` adds a condition (e.g. the deadline) with its parameters.
   */
  claimDualRun(
    id: string,
    from: DualRunState,
    to: DualRunState,
    owner: string,
    now: number,
    leaseMs: number,
    fields: DualRunFields = {},
    also?: { sql: string; params: unknown[] },
  ): Promise<boolean> {
    return this.transitionDualRun(
      id,
      [from, to],
      to,
      { ...fields, claim_owner: owner, claim_until: now + leaseMs },
      {
        sql: also ? `(state = ? OR claim_until < ?) AND (${also.sql})` : "state = ? OR claim_until < ?",
        params: [from, now, ...(also?.params ?? [])],
      },
    );
  }

  /** Releases a claim back to `back`, only if `owner` still holds it. */
  releaseDualRun(id: string, held: DualRunState, back: DualRunState, owner: string, fields: DualRunFields = {}): Promise<boolean> {
    return this.transitionDualRun(
      id,
      [held],
      back,
      { ...fields, claim_owner: null, claim_until: null },
      {
        sql: "claim_owner = ?",
        params: [owner],
      },
    );
  }

  // ---- ledger PRs --------------------------------------------------------------------------

  /**
   * The one-sender lock: the first caller for (repository, property, envelope hash, head sha)
   * inserts the row and owns it; a later caller takes it over only if the owner's claim lapsed
   * before anything was sent (state still `claimed`), or renews it if it is the owner.
   *
   * Two statements, each atomic. The insert names no conflict target, so a conflict on any of
   * the table's unique keys (lock_key, freeze_id, the (repository, property, envelope hash,
   * head sha) key) makes it do nothing. With `ON CONFLICT (lock_key) DO UPDATE`, PostgreSQL
   * arbitrates on lock_key alone: a claim racing an uncommitted insert of the same row then
   * fails on the freeze_id key with a unique violation instead of losing the race.
   */
  async claimLedgerPr(pr: NewLedgerPr, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const cols = Object.keys(pr) as (keyof NewLedgerPr)[];
    const inserted = await this.db.run(
      `INSERT INTO ledger_prs (${cols.join(", ")}, state, claim_owner, claim_until) VALUES (${inList(cols)}, 'claimed', ?, ?)
       ON CONFLICT DO NOTHING`,
      [...cols.map((c) => pr[c]), owner, now + leaseMs],
    );
    if (inserted === 1) return true;
    const taken = await this.db.run(
      `UPDATE ledger_prs SET claim_owner = ?, claim_until = ?
       WHERE lock_key = ? AND state = 'claimed' AND (claim_until < ? OR claim_owner = ?)`,
      [owner, now + leaseMs, pr.lock_key, now, owner],
    );
    return taken === 1;
  }

  /** Moves a ledger PR from one of `from` to `to`, setting `fields`, in one conditional UPDATE. */
  transitionLedgerPr(
    key: string,
    from: readonly LedgerPrState[],
    to: LedgerPrState,
    fields: LedgerPrFields = {},
    extra?: { sql: string; params: unknown[] },
  ): Promise<boolean> {
    return this.transition("ledger_prs", "lock_key", LEDGER_PR_COLUMNS, key, from, to, fields, extra);
  }

  private async transition(
    table: "dual_runs" | "ledger_prs",
    keyColumn: "id" | "lock_key",
    settable: Set<string>,
    key: string,
    from: readonly string[],
    to: string,
    fields: object,
    extra?: { sql: string; params: unknown[] },
  ): Promise<boolean> {
    const set = assignments(fields as Record<string, unknown>, settable);
    const changed = await this.db.run(
      `UPDATE ${table} SET state = ?${set.sql} WHERE ${keyColumn} = ? AND state IN (${inList(from)})${extra ? ` AND (${extra.sql})` : ""}`,
      [to, ...set.params, key, ...from, ...(extra?.params ?? [])],
    );
    return changed === 1;
  }

  /** Ledger PRs matching `where` (SQL after `FROM ledger_prs`), numeric columns as numbers. */
  private async selectLedgerPrs(where: string, params: readonly unknown[]): Promise<LedgerPr[]> {
    const rows = await this.db.all<LedgerPr>(`SELECT * FROM ledger_prs ${where}`, params);
    return rows.map((row) => withNumbers(row, NUMERIC_LEDGER));
  }

  async getLedgerPr(key: string): Promise<LedgerPr | null> {
    return (await this.selectLedgerPrs("WHERE lock_key = ?", [key]))[0] ?? null;
  }

  async findLedgerPrByBranch(repository: string, branch: string): Promise<LedgerPr | null> {
    return (await this.selectLedgerPrs("WHERE repository = ? AND branch = ?", [repository, branch]))[0] ?? null;
  }

  listLedgerPrs(states: readonly LedgerPrState[], repository?: string): Promise<LedgerPr[]> {
    return this.selectLedgerPrs(
      `WHERE state IN (${inList(states)})${repository === undefined ? "" : " AND repository = ?"} ORDER BY created_at, lock_key`,
      repository === undefined ? states : [...states, repository],
    );
  }

  listLedgerPrsForDualRun(dualRunId: string): Promise<LedgerPr[]> {
    return this.selectLedgerPrs("WHERE dual_run_id = ? ORDER BY property", [dualRunId]);
  }
}

const NUMERIC_DUAL = [
  "installation_id",
  "run_a_id",
  "run_b_id",
  "created_at",
  "dispatched_at",
  "deadline_at",
  "decided_at",
  "done_at",
  "claim_until",
  "pull_number",
  "run_a_attempt",
  "check_run_id",
] as const;
const NUMERIC_LEDGER = [
  "installation_id",
  "claim_until",
  "pr_number",
  "check_run_id",
  "created_at",
  "opened_at",
  "first_review_at",
  "review_alerted_at",
  "closed_at",
] as const;

/** Numeric columns as numbers, whichever backend returned them. */
function withNumbers<T>(row: T, columns: readonly string[]): T {
  const out = { ...row } as Record<string, unknown>;
  for (const k of columns) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
  return out as T;
}
