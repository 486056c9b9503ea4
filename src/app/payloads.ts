/** The parts of GitHub's webhook payloads the App reads; every field may be missing. */

export interface InstallationRef {
  id?: number;
  /** Sent only with `installation` events; repository events send `{ id, node_id }`. */
  account?: { login?: string };
}

export interface WorkflowRunEvent {
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
  pull_request?: { number?: number; merged?: boolean; head?: { ref?: string } };
}

/** The repository and head branch a `pull_request` or `pull_request_review` payload names. */
export function pullRequestHead(p: PullRequestPayload): { repository: string; branch: string } | null {
  const repository = p.repository?.full_name;
  const branch = p.pull_request?.head?.ref;
  return repository && branch ? { repository, branch } : null;
}
