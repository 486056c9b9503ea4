/** The parts of GitHub's webhook payloads the App reads; every field may be missing. */

export interface InstallationRef {
  id?: number;
  /** Sent only with `installation` events; repository events send `{ id, node_id }`. */
  account?: { login?: string };
}

interface WorkflowRunEvent {
  id: number;
  run_attempt?: number;
  path?: string;
  event?: string;
  head_branch?: string;
  status?: string;
  conclusion?: string | null;
  head_sha?: string;
  html_url?: string;
  display_title?: string;
  pull_requests?: { number: number; base?: { ref?: string } }[];
}

export interface WorkflowRunPayload {
  action?: string;
  installation?: InstallationRef;
  repository?: { full_name?: string; default_branch?: string };
  workflow_run?: WorkflowRunEvent;
}

export interface PushPayload {
  ref?: string;
  after?: string;
  installation?: { id?: number };
  repository?: { full_name?: string };
  commits?: { added?: string[]; modified?: string[]; removed?: string[] }[];
}

export interface PullRequestPayload {
  action?: string;
  installation?: { id?: number };
  repository?: { full_name?: string };
  sender?: { login?: string } | null;
  pull_request?: {
    number?: number;
    merged?: boolean;
    head?: { ref?: string; sha?: string; repo?: { full_name?: string } | null };
    base?: { ref?: string };
    labels?: { name?: string }[];
  };
  /** `edited`: what changed; `base` when the PR was retargeted. */
  changes?: { base?: unknown };
  /** `synchronize`: the head commit before the push. */
  before?: string;
  /** `labeled` / `unlabeled`: the label. */
  label?: { name?: string } | null;
  /** `pull_request_review`: the review (only its id is trusted; the App reads it again). */
  review?: { id?: number; body?: string | null } | null;
}

/**
 * The repository, pull request number, head branch and head repository a `pull_request` or
 * `pull_request_review` payload names (`headRepository` null when GitHub sends no head repository,
 * as for a deleted fork).
 */
export function pullRequestHead(
  p: PullRequestPayload,
): { repository: string; number: number; branch: string; headRepository: string | null; headSha: string | null } | null {
  const repository = p.repository?.full_name;
  const number = p.pull_request?.number;
  const branch = p.pull_request?.head?.ref;
  if (!repository || typeof number !== "number" || !branch) return null;
  return {
    repository,
    number,
    branch,
    headRepository: p.pull_request?.head?.repo?.full_name ?? null,
    headSha: p.pull_request?.head?.sha ?? null,
  };
}
