/**
 * The App's records as its decisions read them: a dual run and a ledger PR, one row each in the
 * store (src/store keeps them; these types are theirs). Plain data, no I/O.
 */

export type InstallationMode = "shadow" | "active";
export type DualRunState = "pending" | "dispatching" | "waiting" | "comparing" | "decided" | "reporting" | "done";
export type LedgerPrState = "claimed" | "shadowed" | "opened" | "merged" | "closed";

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
  /** The base branch's commit runner B's dispatch was sent on (read just before it), and when it was sent. */
  base_sha: string | null;
  dispatch_sent_at: number | null;
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
  /** The commit the App made for this PR (recorded before the branch is created or moved): the only head it trusts. */
  ledger_commit: string | null;
  /** The repository the PR's head is in, as GitHub answered when the App opened it (always `repository`). */
  head_repository: string | null;
  /** Why the App refused or closed it (LEDGER_BRANCH_FOREIGN, LEDGER_PR_FOREIGN, LEDGER_PR_TAMPERED, LEDGER_PR_RETARGETED); null for a reviewer's close or merge. */
  outcome_code: string | null;
  outcome_detail: string | null;
}
