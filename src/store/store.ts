import type { DualRun, DualRunState, InstallationMode, LedgerPr, LedgerPrState, NewDualRun } from "../core/app-records.js";
import { Refusal } from "../core/errors.js";
import { BudgetLedger } from "./budget.js";
import { EnvelopePrRecords } from "./envelope-prs.js";
import { RunRecords } from "./runs.js";
import { VerifiedHeads } from "./verified-heads.js";
import { GatedPullRecords } from "./gated-pulls.js";
import { OrgCeilingRecords } from "./org-ceilings.js";
import { RateLimits } from "./rate-limits.js";
import type { SqlDb } from "./db.js";
import { guardSql, type RowGuard, type SqlCondition } from "./guard.js";
import { migrate } from "./migrations.js";
import { Switches } from "./switches.js";

export type { DualRun, DualRunState, InstallationMode, LedgerPr, LedgerPrState, NewDualRun };

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
  state: "processing" | "queued" | "done" | "failed";
  owner: string;
  lease_until: number;
  attempts: number;
  failures: number;
  received_at: number;
  finished_at: number | null;
  outcome: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The delivery's body while it may still be processed by the sweeper; null once done. */
  payload: string | null;
  /** Queued and deferred (GITHUB_BUDGET_LOW): the sweeper takes it up from this time on. */
  not_before?: number | null;
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
  | "ledger_commit"
  | "head_repository"
  | "outcome_code"
  | "outcome_detail"
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
  "base_sha",
  "dispatch_sent_at",
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
  "ledger_commit",
  "head_repository",
  "outcome_code",
  "outcome_detail",
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

export const DEFAULT_HEARTBEAT_STALE_MS = 30_000;

/**
 * The App's durable state. Every state change is one conditional statement whose WHERE clause
 * names the state it leaves; a caller that changed no row lost the race and does nothing.
 */
export class Store {
  /**
   * A claim owner whose heartbeat is older than this is gone, and its claims (deliveries, dual
   * runs, ledger PRs) may be taken over. The App sets it from ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS.
   */
  heartbeatStaleMs = DEFAULT_HEARTBEAT_STALE_MS;

  /** Runner B's budget: reservations and limit overrides. */
  readonly budget: BudgetLedger;
  /** The switches (pause, budget limits) and their append-only history. */
  readonly switches: Switches;
  /** Runs refused as runner A or B, and the App's verified check per run attempt. */
  readonly runs: RunRecords;
  /** Audit runs of the default branch and the envelope PR proposed from them. */
  readonly envelopePrs: EnvelopePrRecords;
  /** The verified check per commit: each open pull request's verdict, and the commit's check. */
  readonly heads: VerifiedHeads;
  /** Pull requests the gate held once, and who ungated them. */
  readonly gated: GatedPullRecords;
  /** GitHub's rate limit per installation, as any replica last read it from an answer. */
  readonly rateLimits: RateLimits;
  /** Each owner's organisation envelope as last read, and each repository's latest result against it. */
  readonly ceilings: OrgCeilingRecords;

  constructor(readonly db: SqlDb) {
    this.budget = new BudgetLedger(db);
    this.switches = new Switches(db);
    this.runs = new RunRecords(db, (now) => this.claimLapsed("verified_checks", now));
    this.envelopePrs = new EnvelopePrRecords(db, (now) => this.claimLapsed("envelope_prs", now));
    this.heads = new VerifiedHeads(db, (now) => this.claimLapsed("verified_heads", now));
    this.gated = new GatedPullRecords(db);
    this.rateLimits = new RateLimits(db);
    this.ceilings = new OrgCeilingRecords(db);
  }

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

  /**
   * The kill switch as every send reads it, in one query: paused when its row says so OR its
   * latest recorded change says so. A pause cleared behind the App's back (a hand-edited row,
   * a bug) therefore stops nothing from staying stopped, even before the watchdog restores it.
   */
  async killSwitch(): Promise<KillSwitch> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT paused, reason, changed_by, changed_at,
         (SELECT state FROM switch_history WHERE switch = 'pause' ORDER BY seq DESC LIMIT 1) AS recorded
       FROM kill_switch WHERE id = 1`,
    );
    const row = rows[0];
    // The row is written by migration 1; its absence means the store is not what we migrated.
    if (!row) throw new Refusal("STORE_UNAVAILABLE", "the kill switch row is missing from the store: it is not the one the App migrated");
    // A recorded state that cannot be read is a pause: "could not check" never reads as "running".
    let recorded: { paused: boolean; unreadable?: string } = { paused: false };
    if (row.recorded !== null && row.recorded !== undefined) {
      try {
        const state = JSON.parse(String(row.recorded)) as { paused?: unknown } | null;
        if (typeof state?.paused !== "boolean") throw new Error(`no paused flag in ${String(row.recorded).slice(0, 80)}`);
        recorded = { paused: state.paused };
      } catch (err) {
        recorded = { paused: true, unreadable: (err as Error).message };
      }
    }
    return {
      paused: boolOf(row.paused) || recorded.paused,
      reason:
        recorded.unreadable !== undefined
          ? `the latest recorded pause state cannot be read (${recorded.unreadable}); treated as paused`
          : ((row.reason as string | null) ?? (recorded.paused ? "recorded paused; the row was cleared without a recorded resume" : null)),
      changed_by: (row.changed_by as string | null) ?? null,
      changed_at: row.changed_at === null ? null : Number(row.changed_at),
    };
  }

  /**
   * Pauses (true) or resumes (false), recorded with who and why in the switch history first.
   * Resolves false when it was already in that state.
   */
  setKillSwitch(paused: boolean, reason: string, by: string, now: number): Promise<boolean> {
    return this.switches.setPause(paused, by, reason, now);
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

  // ---- App processes (claim owners) --------------------------------------------------------

  /**
   * Records a starting App process. `owner` is unique to this start (the replica id plus a
   * random incarnation); earlier incarnations of the same replica id are marked stopped, so
   * their claims can be taken over at once (a restarted replica's predecessor is known dead).
   */
  async registerProcess(owner: string, replica: string, now: number): Promise<void> {
    await this.db.run("UPDATE app_processes SET stopped_at = ? WHERE replica = ? AND owner <> ? AND stopped_at IS NULL", [
      now,
      replica,
      owner,
    ]);
    await this.db.run(
      "INSERT INTO app_processes (owner, replica, started_at, heartbeat_at) VALUES (?, ?, ?, ?) ON CONFLICT (owner) DO NOTHING",
      [owner, replica, now, now],
    );
  }

  /** Refreshes a process's heartbeat; false when it is recorded stopped. */
  async heartbeat(owner: string, now: number): Promise<boolean> {
    return (await this.db.run("UPDATE app_processes SET heartbeat_at = ? WHERE owner = ? AND stopped_at IS NULL", [now, owner])) === 1;
  }

  /**
   * Marks a process stopped: its claims can be taken over at once. It is also its clean stop
   * (`clean_stop_at`), so it never counts as a crash (src/store/crashes.ts).
   */
  async stopProcess(owner: string, now: number): Promise<void> {
    await this.db.run(
      "UPDATE app_processes SET stopped_at = COALESCE(stopped_at, ?), clean_stop_at = ? WHERE owner = ? AND clean_stop_at IS NULL",
      [now, now, owner],
    );
  }

  async listProcesses(): Promise<
    { owner: string; replica: string; started_at: number; heartbeat_at: number; stopped_at: number | null }[]
  > {
    const rows = await this.db.all<Record<string, unknown>>("SELECT * FROM app_processes ORDER BY started_at, owner");
    return rows.map((r) => ({
      owner: String(r.owner),
      replica: String(r.replica),
      started_at: Number(r.started_at),
      heartbeat_at: Number(r.heartbeat_at),
      stopped_at: r.stopped_at === null ? null : Number(r.stopped_at),
    }));
  }

  /**
   * SQL true when a dual run's or ledger PR's claim may be taken over: its lease ran out, or
   * its owner is gone. Parameters: now, the oldest live heartbeat.
   */
  claimLapsed(
    table: "dual_runs" | "ledger_prs" | "verified_checks" | "envelope_prs" | "verified_heads",
    now: number,
  ): { sql: string; params: unknown[] } {
    const gone = this.ownerGone(`${table}.claim_owner`, now);
    return { sql: `(${table}.claim_until < ? OR ${gone.sql})`, params: [now, ...gone.params] };
  }

  /**
   * SQL true when the claim owner in `column` is gone: no process row, recorded stopped, or a
   * heartbeat older than `heartbeatStaleMs`. One parameter: the oldest live heartbeat.
   */
  private ownerGone(column: string, now: number): { sql: string; params: unknown[] } {
    return {
      sql: `NOT EXISTS (SELECT 1 FROM app_processes p WHERE p.owner = ${column} AND p.stopped_at IS NULL AND p.heartbeat_at >= ?)`,
      params: [now - this.heartbeatStaleMs],
    };
  }

  // ---- deliveries --------------------------------------------------------------------------

  /**
   * When a `processing` delivery may be taken over: its owner is gone (crashed, stopped, lost
   * its store), its lease ran out, or the caller is its owner (the caller checked the delivery
   * is not in flight in its own process).
   */
  private deliveryTakeover(now: number, owner: string): { sql: string; params: unknown[] } {
    const gone = this.ownerGone("deliveries.owner", now);
    return {
      sql: `deliveries.state = 'queued' OR (deliveries.state = 'processing' AND (deliveries.lease_until < ? OR deliveries.owner = ? OR ${gone.sql}))`,
      params: [now, owner, ...gone.params],
    };
  }

  /**
   * Claims a webhook delivery for processing, in one statement: a new id is inserted with its
   * payload; a failed or queued one, or one whose owner is gone (or whose lease ran out), is
   * taken over. Anything else (done, or being processed by a live process) is not claimed.
   */
  async claimDelivery(
    id: string,
    event: string,
    owner: string,
    now: number,
    leaseMs: number,
    payload: string | null = null,
  ): Promise<boolean> {
    const takeover = this.deliveryTakeover(now, owner);
    const changed = await this.db.run(
      `INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, payload)
       VALUES (?, ?, 'processing', ?, ?, 1, 0, ?, ?)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'processing', owner = excluded.owner,
         lease_until = excluded.lease_until, attempts = deliveries.attempts + 1, error_code = NULL, error_message = NULL,
         payload = COALESCE(excluded.payload, deliveries.payload)
       WHERE deliveries.state = 'failed' OR ${takeover.sql}`,
      [id, event, owner, now + leaseMs, now, payload, ...takeover.params],
    );
    return changed === 1;
  }

  /**
   * Records a delivery `queued` with its payload, for a worker or the sweeper of any replica,
   * in one statement: a new id, or one recorded `failed` or `queued`. `reason` is why it was
   * set aside (a drain); null means no attempt has failed yet, so a free worker takes it up.
   * Resolves false when the delivery is done or being processed.
   */
  async queueDelivery(
    id: string,
    event: string,
    owner: string,
    now: number,
    payload: string,
    reason: { code: string; message: string } | null,
  ): Promise<boolean> {
    const changed = await this.db.run(
      `INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, payload, error_code, error_message)
       VALUES (?, ?, 'queued', ?, ?, 0, 0, ?, ?, ?, ?)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'queued', payload = COALESCE(deliveries.payload, excluded.payload),
         error_code = excluded.error_code, error_message = excluded.error_message
       WHERE deliveries.state IN ('failed', 'queued')`,
      [id, event, owner, now, now, payload, reason?.code ?? null, reason?.message ?? null],
    );
    return changed === 1;
  }

  /** Queued deliveries no attempt has failed yet (or set aside by a drain), oldest first: what a free worker takes up. */
  async waitingDeliveries(limit: number): Promise<{ delivery_id: string; event: string; payload: string }[]> {
    return this.db.all(
      `SELECT delivery_id, event, payload FROM deliveries
       WHERE state = 'queued' AND payload IS NOT NULL AND (error_code IS NULL OR error_code = 'APP_DRAINING')
       ORDER BY received_at, delivery_id LIMIT ?`,
      [limit],
    );
  }

  /**
   * Takes over a recorded delivery (queued, or orphaned by a gone owner) for the sweeper. Its
   * last error stays until the attempt settles, so the status page still shows why it is retried.
   */
  async reclaimDelivery(id: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const takeover = this.deliveryTakeover(now, owner);
    const changed = await this.db.run(
      `UPDATE deliveries SET state = 'processing', owner = ?, lease_until = ?, attempts = attempts + 1
       WHERE delivery_id = ? AND payload IS NOT NULL AND (${takeover.sql})`,
      [owner, now + leaseMs, id, ...takeover.params],
    );
    return changed === 1;
  }

  /**
   * Deliveries the sweeper may take: queued ones (a deferred one from its `not_before` on, so
   * deliveries waiting for a budget reset never fill a pass), and processing ones whose owner is
   * gone or is `owner`.
   */
  async sweepableDeliveries(owner: string, now: number, limit: number): Promise<{ delivery_id: string; event: string; payload: string }[]> {
    const takeover = this.deliveryTakeover(now, owner);
    return this.db.all(
      `SELECT delivery_id, event, payload FROM deliveries WHERE payload IS NOT NULL AND (${takeover.sql})
       AND (state <> 'queued' OR not_before IS NULL OR not_before <= ?) ORDER BY received_at, delivery_id LIMIT ?`,
      [...takeover.params, now, limit],
    );
  }

  async finishDelivery(id: string, owner: string, outcome: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE deliveries SET state = 'done', outcome = ?, finished_at = ?, payload = NULL, error_code = NULL, error_message = NULL
       WHERE delivery_id = ? AND state = 'processing' AND owner = ?`,
      [outcome, now, id, owner],
    );
    return changed === 1;
  }

  /**
   * Notes on a delivery still being processed by `owner` what it is waiting on (GitHub not
   * answering, with the error) while its work retries; its outcome replaces the note.
   */
  async noteDeliveryWaiting(id: string, owner: string, code: string, message: string): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE deliveries SET error_code = ?, error_message = ? WHERE delivery_id = ? AND state = 'processing' AND owner = ?",
      [code, message.slice(0, 2000), id, owner],
    );
    return changed === 1;
  }

  /**
   * Records a failed attempt: `failed` (a redelivery processes it again), or, with `queue`,
   * `queued` for the sweeper (the payload stays) until `maxFailures` failures. `countsAsFailure`
   * is false for work set aside on purpose (a pause, a drain, a budget deferral); `notBefore`
   * keeps a queued one from the sweeper until then (a deferral until GitHub's reset).
   */
  async failDelivery(
    id: string,
    owner: string,
    code: string,
    message: string,
    now: number,
    options: { queue?: boolean; countsAsFailure?: boolean; maxFailures?: number; notBefore?: number } = {},
  ): Promise<boolean> {
    const counted = options.countsAsFailure === false ? 0 : 1;
    const changed = await this.db.run(
      `UPDATE deliveries SET state = CASE WHEN ? = 1 AND failures + ? < ? THEN 'queued' ELSE 'failed' END,
         failures = failures + ?, error_code = ?, error_message = ?, finished_at = ?, not_before = ?
       WHERE delivery_id = ? AND state = 'processing' AND owner = ?`,
      [
        options.queue ? 1 : 0,
        counted,
        options.maxFailures ?? 2_147_483_647,
        counted,
        code,
        message.slice(0, 2000),
        now,
        options.notBefore ?? null,
        id,
        owner,
      ],
    );
    return changed === 1;
  }

  /**
   * An operator's retry of a delivery recorded `failed` (its cause fixed): queued again with its
   * payload and no error, so the next free worker of any replica takes it up. False when it is
   * not failed, or its payload is gone.
   */
  async retryDelivery(id: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE deliveries SET state = 'queued', error_code = NULL, error_message = NULL, finished_at = ?
       WHERE delivery_id = ? AND state = 'failed' AND payload IS NOT NULL`,
      [now, id],
    );
    return changed === 1;
  }

  /** Releases every delivery `owner` still holds to the sweeper (a drain that ran out of time). */
  async releaseDeliveries(owner: string, code: string, message: string, now: number): Promise<number> {
    return this.db.run(
      `UPDATE deliveries SET state = 'queued', error_code = ?, error_message = ?, finished_at = ?
       WHERE state = 'processing' AND owner = ? AND payload IS NOT NULL`,
      [code, message, now, owner],
    );
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

  /** The 20 latest dual runs not compared for the budget (the status page's refusals), as the database returns them. */
  budgetRefusals(): Promise<Record<string, unknown>[]> {
    return this.db.all<Record<string, unknown>>(
      "SELECT id, repository, outcome_code, outcome_detail, decided_at FROM dual_runs WHERE outcome = 'not_compared_budget' ORDER BY decided_at DESC LIMIT 20",
    );
  }

  recentDualRuns(limit: number): Promise<DualRun[]> {
    return this.selectDualRuns("ORDER BY created_at DESC, id LIMIT ?", [limit]);
  }

  /**
   * Moves a dual run from one of `from` to `to`, setting `fields`, in one conditional UPDATE.
   * `extra` adds a condition (e.g. the deadline): a RowGuard, or SQL with its parameters.
   */
  transitionDualRun(
    id: string,
    from: readonly DualRunState[],
    to: DualRunState,
    fields: DualRunFields = {},
    extra?: RowGuard<DualRun> | SqlCondition,
  ): Promise<boolean> {
    return this.transition("dual_runs", "id", DUAL_RUN_COLUMNS, id, from, to, fields, extra);
  }

  /**
   * Takes a dual run for work: from `from`, or from `to` when its previous owner's lease ran out.
   * `also` adds a condition (e.g. the deadline): a RowGuard, or SQL with its parameters.
   */
  claimDualRun(
    id: string,
    from: DualRunState,
    to: DualRunState,
    owner: string,
    now: number,
    leaseMs: number,
    fields: DualRunFields = {},
    guard?: RowGuard<DualRun> | SqlCondition,
  ): Promise<boolean> {
    const also = guardSql(guard, (at) => this.claimLapsed("dual_runs", at));
    const lapsed = this.claimLapsed("dual_runs", now);
    return this.transitionDualRun(
      id,
      [from, to],
      to,
      { ...fields, claim_owner: owner, claim_until: now + leaseMs },
      {
        sql: `(state = ? OR ${lapsed.sql})${also ? ` AND (${also.sql})` : ""}`,
        params: [from, ...lapsed.params, ...(also?.params ?? [])],
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
    const lapsed = this.claimLapsed("ledger_prs", now);
    const taken = await this.db.run(
      `UPDATE ledger_prs SET claim_owner = ?, claim_until = ?
       WHERE lock_key = ? AND state = 'claimed' AND (${lapsed.sql} OR claim_owner = ?)`,
      [owner, now + leaseMs, pr.lock_key, ...lapsed.params, owner],
    );
    return taken === 1;
  }

  /**
   * Moves a ledger PR from one of `from` to `to`, setting `fields`, in one conditional UPDATE.
   * `extra` adds a condition (e.g. who holds its claim): a RowGuard, or SQL with its parameters.
   */
  transitionLedgerPr(
    key: string,
    from: readonly LedgerPrState[],
    to: LedgerPrState,
    fields: LedgerPrFields = {},
    extra?: RowGuard<LedgerPr> | SqlCondition,
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
    guard?: RowGuard<DualRun> | RowGuard<LedgerPr> | SqlCondition,
  ): Promise<boolean> {
    const extra = guardSql<DualRun | LedgerPr>(guard as RowGuard<DualRun | LedgerPr> | SqlCondition | undefined, (at) =>
      this.claimLapsed(table, at),
    );
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

  /**
   * The ledger PR the App opened as pull request `number` of `repository`, or null. Tracking is by
   * repository and number (unique on GitHub), never by branch name: a fork PR whose head ref is
   * the ledger branch's name is another number. The caller still compares the head repository.
   */
  async findLedgerPrByPull(repository: string, number: number): Promise<LedgerPr | null> {
    return (await this.selectLedgerPrs("WHERE repository = ? AND pr_number = ?", [repository, number]))[0] ?? null;
  }

  listLedgerPrs(states: readonly LedgerPrState[], repository?: string): Promise<LedgerPr[]> {
    return this.selectLedgerPrs(
      `WHERE state IN (${inList(states)})${repository === undefined ? "" : " AND repository = ?"} ORDER BY created_at, lock_key`,
      repository === undefined ? states : [...states, repository],
    );
  }

  /** The latest ledger PRs the App refused or closed itself (an outcome code recorded), newest first. */
  listRefusedLedgerPrs(limit = 20): Promise<LedgerPr[]> {
    return this.selectLedgerPrs("WHERE outcome_code IS NOT NULL ORDER BY closed_at DESC, lock_key LIMIT ?", [limit]);
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
  "dispatch_sent_at",
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
