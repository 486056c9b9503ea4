import type { SqlDb } from "./db.js";

export interface Migration {
  version: number;
  name: string;
  /**
   * Portable SQL (SQLite and PostgreSQL), one statement per entry, run in order. A list, not a
   * text split on `;`: a literal may hold a semicolon and a line break.
   */
  statements: readonly string[];
}

/** Append-only: a shipped migration never changes; a new need is a new version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "kill switch, installations, deliveries, dual runs, ledger PRs",
    statements: [
      `
CREATE TABLE kill_switch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
  reason TEXT,
  changed_by TEXT,
  changed_at BIGINT
)
`,
      `INSERT INTO kill_switch (id, paused) VALUES (1, 0)`,
      `
CREATE TABLE installations (
  installation_id BIGINT PRIMARY KEY,
  account TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  created_at BIGINT NOT NULL,
  promoted_at BIGINT,
  promoted_by TEXT
)
`,
      `
CREATE TABLE deliveries (
  delivery_id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('processing', 'done', 'failed')),
  owner TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  received_at BIGINT NOT NULL,
  finished_at BIGINT,
  outcome TEXT,
  error_code TEXT,
  error_message TEXT
)
`,
      `
CREATE TABLE dual_runs (
  id TEXT PRIMARY KEY,
  installation_id BIGINT NOT NULL,
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  pull_number INTEGER,
  base_ref TEXT NOT NULL,
  envelope_hash TEXT NOT NULL,
  properties TEXT NOT NULL,
  run_a_id BIGINT NOT NULL,
  run_a_attempt INTEGER NOT NULL,
  run_a_url TEXT,
  evidence_a TEXT NOT NULL,
  runner_a TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'dispatching', 'waiting', 'comparing', 'decided', 'reporting', 'done')),
  claim_owner TEXT,
  claim_until BIGINT,
  dispatch_mode TEXT,
  run_b_id BIGINT,
  run_b_url TEXT,
  evidence_b TEXT,
  runner_b TEXT,
  outcome TEXT,
  outcome_code TEXT,
  outcome_detail TEXT,
  results TEXT,
  created_at BIGINT NOT NULL,
  dispatched_at BIGINT,
  deadline_at BIGINT NOT NULL,
  decided_at BIGINT,
  done_at BIGINT
)
`,
      `CREATE INDEX dual_runs_state ON dual_runs (state, deadline_at)`,
      `CREATE INDEX dual_runs_run_b ON dual_runs (repository, run_b_id)`,
      `
CREATE TABLE ledger_prs (
  lock_key TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  property TEXT NOT NULL,
  envelope_hash TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  dual_run_id TEXT NOT NULL,
  installation_id BIGINT NOT NULL,
  freeze_id TEXT NOT NULL UNIQUE,
  branch TEXT NOT NULL,
  base_ref TEXT NOT NULL,
  ledger_path TEXT NOT NULL,
  row_text TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  expires_on TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  state TEXT NOT NULL CHECK (state IN ('claimed', 'shadowed', 'opened', 'merged', 'closed')),
  claim_owner TEXT,
  claim_until BIGINT,
  pr_number INTEGER,
  pr_url TEXT,
  check_run_id BIGINT,
  base_sha TEXT,
  created_at BIGINT NOT NULL,
  opened_at BIGINT,
  first_review_at BIGINT,
  review_alerted_at BIGINT,
  closed_at BIGINT,
  UNIQUE (repository, property, envelope_hash, head_sha)
)
`,
      `CREATE INDEX ledger_prs_state ON ledger_prs (state, repository)`,
    ],
  },
  {
    version: 2,
    name: "operations: the dual run's check run id, a heartbeat row per replica for /healthz",
    statements: [
      `ALTER TABLE dual_runs ADD COLUMN check_run_id BIGINT`,
      `
CREATE TABLE heartbeats (
  replica_id TEXT PRIMARY KEY,
  beat_at BIGINT NOT NULL
)
`,
    ],
  },
  {
    version: 3,
    name: "App processes (heartbeats), deliveries queued with their payload",
    statements: [
      `
CREATE TABLE app_processes (
  owner TEXT PRIMARY KEY,
  replica TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  stopped_at BIGINT
)
`,
      `CREATE INDEX app_processes_replica ON app_processes (replica, stopped_at)`,
      `
CREATE TABLE deliveries_v2 (
  delivery_id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('processing', 'queued', 'done', 'failed')),
  owner TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  received_at BIGINT NOT NULL,
  finished_at BIGINT,
  outcome TEXT,
  error_code TEXT,
  error_message TEXT,
  payload TEXT
)
`,
      `
INSERT INTO deliveries_v2 (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, finished_at, outcome, error_code, error_message)
  SELECT delivery_id, event, state, owner, lease_until, attempts, failures, received_at, finished_at, outcome, error_code, error_message FROM deliveries
`,
      `DROP TABLE deliveries`,
      `ALTER TABLE deliveries_v2 RENAME TO deliveries`,
      `CREATE INDEX deliveries_state ON deliveries (state, owner)`,
    ],
  },
  {
    version: 4,
    name: "runner B's budget (reservations, limit overrides) and the switches' append-only history",
    statements: [
      `
CREATE TABLE budget_reservations (
  dual_run_id TEXT PRIMARY KEY,
  installation_id BIGINT NOT NULL,
  repository TEXT NOT NULL,
  day TEXT NOT NULL,
  installation_seq INTEGER NOT NULL,
  repository_seq INTEGER NOT NULL,
  max_minutes INTEGER NOT NULL,
  measured_minutes INTEGER,
  measured_at BIGINT,
  run_b_id BIGINT,
  reserved_at BIGINT NOT NULL,
  reserved_by TEXT NOT NULL,
  attempted_at BIGINT,
  UNIQUE (installation_id, day, installation_seq),
  UNIQUE (repository, day, repository_seq)
)
`,
      `CREATE INDEX budget_reservations_repository ON budget_reservations (repository, day)`,
      `
CREATE TABLE budget_limits (
  scope TEXT PRIMARY KEY,
  dispatches_per_day INTEGER NOT NULL CHECK (dispatches_per_day >= 0),
  minutes_per_day INTEGER NOT NULL CHECK (minutes_per_day >= 0),
  changed_by TEXT NOT NULL,
  reason TEXT NOT NULL,
  changed_at BIGINT NOT NULL
)
`,
      `
CREATE TABLE switch_history (
  seq INTEGER PRIMARY KEY,
  switch TEXT NOT NULL,
  state TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('change', 'revert', 'configured')),
  actor TEXT NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL
)
`,
      `CREATE INDEX switch_history_switch ON switch_history (switch, seq)`,
      `
INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at)
  SELECT 1, 'pause', CASE WHEN paused = 1 THEN '{"paused":true}' ELSE '{"paused":false}' END, 'change',
    COALESCE(changed_by, 'migration 4'), COALESCE(reason, 'the state found when the history began'), COALESCE(changed_at, 0)
  FROM kill_switch WHERE id = 1
`,
    ],
  },
  {
    version: 5,
    name: "crash-loop bound: clean stops of App processes, operators' crash resets",
    // Processes stopped before this migration are taken as stopped cleanly: their history is unknown.
    statements: [
      `ALTER TABLE app_processes ADD COLUMN clean_stop_at BIGINT`,
      `UPDATE app_processes SET clean_stop_at = stopped_at WHERE stopped_at IS NOT NULL`,
      `
CREATE TABLE app_crash_resets (
  id TEXT PRIMARY KEY,
  replica TEXT NOT NULL,
  reset_at BIGINT NOT NULL,
  reset_by TEXT NOT NULL,
  reason TEXT NOT NULL,
  crashes INTEGER NOT NULL
)
`,
      `CREATE INDEX app_crash_resets_replica ON app_crash_resets (replica, reset_at)`,
    ],
  },
  {
    version: 6,
    name: "the redelivery sweep: its pass (one replica at a time) and mark, and each delivery it asked GitHub for again",
    statements: [
      `
CREATE TABLE redelivery_sweep (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mark_at BIGINT,
  owner TEXT,
  until_at BIGINT,
  last_pass TEXT
)
`,
      `INSERT INTO redelivery_sweep (id) VALUES (1)`,
      `
CREATE TABLE redeliveries (
  guid TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  hook_delivery_id BIGINT NOT NULL,
  first_failed_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  requested_at BIGINT,
  state TEXT NOT NULL CHECK (state IN ('requested', 'refused', 'delivered', 'exhausted', 'expired')),
  code TEXT,
  message TEXT,
  updated_at BIGINT NOT NULL
)
`,
      `CREATE INDEX redeliveries_state ON redeliveries (state, updated_at)`,
    ],
  },
  {
    version: 7,
    name: "ledger PRs the App can prove its own: the commit it made, the PR's head repository, why one was refused",
    // Rows opened before this migration were opened in their own repository; the commit they carry is unknown.
    statements: [
      `ALTER TABLE ledger_prs ADD COLUMN ledger_commit TEXT`,
      `ALTER TABLE ledger_prs ADD COLUMN head_repository TEXT`,
      `ALTER TABLE ledger_prs ADD COLUMN outcome_code TEXT`,
      `ALTER TABLE ledger_prs ADD COLUMN outcome_detail TEXT`,
      `UPDATE ledger_prs SET head_repository = repository WHERE pr_number IS NOT NULL`,
      `CREATE INDEX ledger_prs_pull ON ledger_prs (repository, pr_number)`,
    ],
  },
  {
    version: 8,
    name: "runs verified against GitHub's API: runner B's dispatch base, refused runs, and the App's verified check per run attempt",
    statements: [
      `ALTER TABLE dual_runs ADD COLUMN base_sha TEXT`,
      `ALTER TABLE dual_runs ADD COLUMN dispatch_sent_at BIGINT`,
      `
CREATE TABLE run_refusals (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('runner_a', 'runner_b')),
  code TEXT NOT NULL,
  reason TEXT NOT NULL,
  event TEXT,
  head_sha TEXT,
  dual_run_id TEXT,
  refused_at BIGINT NOT NULL,
  PRIMARY KEY (repository, run_id, run_attempt, role)
)
`,
      `CREATE INDEX run_refusals_at ON run_refusals (refused_at)`,
      `
CREATE TABLE verified_checks (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  head_sha TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('claimed', 'posted', 'skipped')),
  claim_owner TEXT,
  claim_until BIGINT,
  conclusion TEXT,
  code TEXT,
  check_run_id BIGINT,
  created_at BIGINT NOT NULL,
  posted_at BIGINT,
  PRIMARY KEY (repository, run_id, run_attempt)
)
`,
    ],
  },
  {
    version: 9,
    name: "audit runs of the default branch and the envelope PR proposed from them",
    statements: [
      `
CREATE TABLE audit_runs (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  branch TEXT,
  head_sha TEXT,
  run_url TEXT,
  state TEXT NOT NULL CHECK (state IN ('verified', 'ignored', 'refused')),
  code TEXT,
  reason TEXT,
  evidence TEXT,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (repository, run_id, run_attempt)
)
`,
      `CREATE INDEX audit_runs_at ON audit_runs (recorded_at)`,
      `
CREATE TABLE envelope_prs (
  id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  installation_id BIGINT NOT NULL,
  branch TEXT NOT NULL,
  base_ref TEXT NOT NULL,
  envelope_path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('claimed', 'opened', 'shadowed', 'closed', 'merged')),
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  claim_owner TEXT,
  claim_until BIGINT,
  envelope_text TEXT NOT NULL,
  envelope_digest TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  runs TEXT NOT NULL,
  base_sha TEXT,
  commit_sha TEXT,
  pr_number INTEGER,
  pr_url TEXT,
  outcome_code TEXT,
  outcome_detail TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  closed_at BIGINT
)
`,
      `CREATE UNIQUE INDEX envelope_prs_one_per_repository ON envelope_prs (repository) WHERE state IN ('claimed', 'opened', 'shadowed')`,
      `CREATE INDEX envelope_prs_pull ON envelope_prs (repository, pr_number)`,
    ],
  },
  {
    version: 10,
    name: "one verified check per commit: each open pull request's verdict, and the commit's check",
    statements: [
      `
CREATE TABLE pull_verdicts (
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  pull_number INTEGER NOT NULL,
  base_ref TEXT NOT NULL,
  base_sha TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  conclusion TEXT NOT NULL,
  code TEXT,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (repository, head_sha, pull_number)
)
`,
      `
CREATE TABLE verified_heads (
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  generation BIGINT NOT NULL,
  posted_generation BIGINT NOT NULL,
  claim_owner TEXT,
  claim_until BIGINT,
  check_run_id BIGINT,
  conclusion TEXT,
  code TEXT,
  pulls TEXT,
  foreign_checks TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (repository, head_sha)
)
`,
      `CREATE INDEX verified_heads_at ON verified_heads (updated_at)`,
    ],
  },
  {
    version: 11,
    name: "gated pull requests: a pull request the gate once held stays gated until a reviewer ungates it",
    statements: [
      `
CREATE TABLE gated_pulls (
  repository TEXT NOT NULL,
  pull_number INTEGER NOT NULL,
  reason TEXT NOT NULL,
  gated_at BIGINT NOT NULL,
  ungated_by TEXT,
  ungated_review_id BIGINT,
  ungated_head_sha TEXT,
  ungated_at BIGINT,
  PRIMARY KEY (repository, pull_number)
)
`,
    ],
  },
  {
    version: 12,
    name: "the redelivery sweep resumes its walk: the walk in progress, what the mark waits on, a backlog GitHub no longer keeps",
    // A sweep row from before this migration has no walk in progress: its next pass starts one from the newest page.
    statements: [
      `ALTER TABLE redelivery_sweep ADD COLUMN walk TEXT`,
      `ALTER TABLE redelivery_sweep ADD COLUMN mark_waits TEXT`,
      `ALTER TABLE redelivery_sweep ADD COLUMN backlog_expired TEXT`,
    ],
  },
  {
    version: 13,
    name: "GitHub's rate limit per installation (every replica's latest reading), and deliveries deferred until a time",
    // A delivery from before this migration has no not_before: it is taken up as before.
    statements: [
      `
CREATE TABLE rate_limits (
  installation_id BIGINT NOT NULL,
  resource TEXT NOT NULL,
  remaining INTEGER,
  quota INTEGER,
  reset_at BIGINT,
  observed_at BIGINT NOT NULL,
  observed_by TEXT NOT NULL,
  retry_after_until BIGINT,
  PRIMARY KEY (installation_id, resource)
)
`,
      `ALTER TABLE deliveries ADD COLUMN not_before BIGINT`,
    ],
  },
  {
    version: 14,
    name: "the organisation envelope per owner (its digest and when it changed) and each repository's latest result against it",
    statements: [
      `
CREATE TABLE org_ceilings (
  owner TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  digest TEXT,
  ceiling_id TEXT,
  source_sha TEXT,
  detail TEXT NOT NULL,
  exceptions TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  read_at BIGINT NOT NULL
)
`,
      `
CREATE TABLE ceiling_results (
  repository TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  digest TEXT,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL,
  exceptions TEXT NOT NULL,
  footprint TEXT NOT NULL,
  checked_at BIGINT NOT NULL
)
`,
    ],
  },
];

/** Applies the pending ones of `migrations` (the App's own unless a test brings others), in one transaction. */
export async function migrate(db: SqlDb, now: number, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  await db.migrationTransaction(async (tx) => {
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    const done = new Set((await tx.all<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => Number(r.version)));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of m.statements) await tx.exec(statement);
      await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, now]);
      applied.push(m.version);
    }
  });
  return applied;
}
