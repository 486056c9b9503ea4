import type { ErrorCode } from "./errors.js";

/** GitHub's answers as the run checks read them (the App's installation client returns these). */

export interface WorkflowRunInfo {
  id: number;
  html_url: string | null;
  status: string;
  conclusion: string | null;
  event: string;
  head_sha: string;
  display_title: string;
  created_at: string;
  /** The latest attempt's start, and the run's last update (its end, once completed). */
  run_started_at?: string | null;
  updated_at?: string | null;
  /** 1 for the first attempt; a re-run counts up. */
  run_attempt?: number | null;
}

/** A workflow run as GET /repos/{o}/{r}/actions/runs/{id} (and the runs lists) return it: what verification reads. */
export interface ApiWorkflowRun extends WorkflowRunInfo {
  name?: string | null;
  path: string;
  workflow_id: number;
  head_branch: string | null;
  repository: { id: number; full_name: string };
  head_repository?: { id: number; full_name: string } | null;
  pull_requests: ApiRunPull[] | null;
  actor?: { login: string; type?: string } | null;
  triggering_actor?: { login: string; type?: string } | null;
}

/** `pull-request-minimal`, as a run lists the pull requests it ran for. */
export interface ApiRunPull {
  number: number;
  head: { ref: string; sha: string; repo: { id: number } };
  base: { ref: string; sha: string; repo: { id: number } };
}

/** The parts of GET /repos/{o}/{r}/pulls/{n} verification reads. */
export interface ApiPull {
  number: number;
  state: string;
  user?: { login: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string; sha: string; repo: { full_name: string } };
}

/** A path at a commit, as the contents API answers: its git object id, and the text when it is a file GitHub inlined. */
export interface PathAt {
  type: string;
  sha: string;
  text: string | null;
}

/** A commit's whole tree (GET /git/trees/{sha}?recursive=1): blob ids by path, and whether GitHub cut the listing short. */
export interface TreeAt {
  truncated: boolean;
  blobs: Map<string, string>;
}

/**
 * Pure decisions about a gate workflow run, from what GitHub's API said (never from the
 * webhook payload or the evidence bundle): is it runner A (the base's workflow file, on the
 * pull request's current head, in the installation's repository), is it the runner B the
 * App's dispatch started. The handlers only gather the facts (run-verify.ts).
 */

export interface RunRefusal {
  code: ErrorCode;
  reason: string;
}

/**
 * The events whose runs are runner A: GitHub runs both from the pull request's merge commit, with
 * the pull request as the run's only one (a review re-runs the gate: an approved policy change).
 */
const RUNNER_A_EVENTS: ReadonlySet<string> = new Set(["pull_request", "pull_request_review"]);

/** Whether a run of this event is a runner A candidate (and gets the verified check). */
export const isRunnerAEvent = (event: string | null | undefined): boolean => RUNNER_A_EVENTS.has(event ?? "");

/** Events the App never takes as runner A, with why (docs/app.md, "Which runs count"). */
const EVENT_REASONS: Record<string, string> = {
  workflow_dispatch:
    "a workflow_dispatch run is started by whoever may dispatch, on any branch; only a pull_request or pull_request_review run is runner A",
  pull_request_target:
    "a pull_request_target run's workflow is the base's, but what it checks out and runs is up to that workflow; the App takes only pull_request and pull_request_review runs as runner A",
  merge_group: "a merge_group run checks a merge queue's commit, not a pull request's head",
  push: "a push run belongs to no pull request",
  schedule: "a scheduled run belongs to no pull request",
};

/** The gate workflow's path in the repository: `.github/workflows/<file>`. */
export function gateWorkflowPath(workflow: string): string {
  return `.github/workflows/${workflow}`;
}

/** The workflow path GitHub reports for a run, without a `@ref` suffix. */
function runPath(run: Pick<ApiWorkflowRun, "path">): string {
  return String(run.path ?? "").replace(/@.*$/, "");
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * Stage 1, from the run alone: the installation's repository, the gate workflow's path, a
 * `pull_request` (or `pull_request_review`) event from a branch of this repository, and exactly one pull request of this
 * repository. Returns that pull request's number (to be read again) or a refusal.
 */
export function runnerARun(run: ApiWorkflowRun, repository: string, workflow: string): RunRefusal | { pullNumber: number } {
  if (!same(run.repository?.full_name, repository)) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: `run ${run.id} belongs to ${run.repository?.full_name ?? "no repository"}, not ${repository}`,
    };
  }
  if (runPath(run) !== gateWorkflowPath(workflow)) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: `run ${run.id} ran ${runPath(run) || "no workflow file"}, not ${gateWorkflowPath(workflow)}`,
    };
  }
  if (!isRunnerAEvent(run.event)) {
    const why = EVENT_REASONS[run.event] ?? "only a pull_request or pull_request_review run is runner A";
    return { code: "RUNNER_A_EVENT_REFUSED", reason: `run ${run.id} is a ${run.event || "?"} run: ${why}` };
  }
  if (run.head_repository && run.head_repository.id !== run.repository.id) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: `run ${run.id} is for a branch of ${run.head_repository.full_name} (a fork): the App does not take fork pull requests as runner A`,
    };
  }
  const pulls = (run.pull_requests ?? []).filter((p) => p.base?.repo?.id === run.repository.id && p.head?.repo?.id === run.repository.id);
  if (pulls.length === 0) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: `GitHub names no pull request of ${repository} for run ${run.id} (a fork pull request, or the branch is in none)`,
    };
  }
  if (pulls.length > 1) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: `GitHub names ${pulls.length} pull requests for run ${run.id} (#${pulls.map((p) => p.number).join(", #")}): which one it judged is ambiguous`,
    };
  }
  return { pullNumber: (pulls[0] as { number: number }).number };
}

/** Stage 2: the pull request, read again, is open, of this repository, and its head is the run's commit. */
export function runnerAPull(run: ApiWorkflowRun, pull: ApiPull | null, repository: string, pullNumber: number): RunRefusal | null {
  if (pull === null) return { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pullNumber} does not exist` };
  if (!same(pull.base?.repo?.full_name, repository) || !same(pull.head?.repo?.full_name, repository)) {
    return { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pullNumber} is not from a branch of ${repository} into it` };
  }
  if (pull.state !== "open") return { code: "RUNNER_A_NOT_CURRENT_HEAD", reason: `pull request #${pullNumber} is ${pull.state}` };
  if (pull.head.sha !== run.head_sha) {
    return {
      code: "RUNNER_A_NOT_CURRENT_HEAD",
      reason: `run ${run.id} checked ${run.head_sha.slice(0, 12)}, pull request #${pullNumber}'s head is now ${pull.head.sha.slice(0, 12)}`,
    };
  }
  return null;
}

/**
 * Stage 3: the workflow file the run used is the base's. GitHub runs a pull_request workflow
 * from the merge of head into base, so a head whose workflow blob equals the base's ran the
 * base's file. A head that does not (it changed the file, or the base changed it since the
 * head branched) is refused: rebase the pull request.
 */
export function runnerAWorkflow(path: string, atHead: PathAt | null, atBase: PathAt | null): RunRefusal | null {
  if (atBase === null || atBase.type !== "file") {
    return { code: "RUNNER_A_WORKFLOW_CHANGED", reason: `the base has no ${path}: the run's workflow file is not the base's` };
  }
  if (atHead === null || atHead.type !== "file" || atHead.sha !== atBase.sha) {
    return {
      code: "RUNNER_A_WORKFLOW_CHANGED",
      reason: `${path} at the head (${atHead === null ? "absent" : atHead.sha.slice(0, 12)}) is not the base's (${atBase.sha.slice(0, 12)}): the pull request's own workflow file ran`,
    };
  }
  return null;
}

/** What the App recorded when it dispatched runner B, as verification needs it. */
export interface DispatchRecord {
  id: string;
  repository: string;
  base_ref: string;
  base_sha: string | null;
  dispatch_sent_at: number | null;
  dispatched_at: number | null;
  run_b_id: number | null;
}

/** Clock skew allowed between the App's clock (dispatch sent) and GitHub's (run created). */
export const DISPATCH_SKEW_MS = 2 * 60_000;

/**
 * Runner B is a run the App's own dispatch started: this repository, the gate workflow, a
 * workflow_dispatch on the base branch at the commit recorded when the dispatch was sent,
 * created after it was sent (less the skew), started and triggered by the App's bot, and named
 * after the dual run. In direct mode its id is also the one GitHub returned.
 */
export function runnerBRun(run: ApiWorkflowRun, dual: DispatchRecord, workflow: string, appLogin: string): RunRefusal | null {
  const refuse = (reason: string): RunRefusal => ({
    code: "RUNNER_B_UNVERIFIED",
    reason: `run ${run.id} is not dual run ${dual.id}'s runner B: ${reason}`,
  });
  if (dual.run_b_id !== null && dual.run_b_id !== run.id) return refuse(`GitHub returned run ${dual.run_b_id} for the dispatch`);
  if (!same(run.repository?.full_name, dual.repository)) return refuse(`it belongs to ${run.repository?.full_name ?? "no repository"}`);
  if (run.head_repository && run.head_repository.id !== run.repository.id) return refuse(`its head is in ${run.head_repository.full_name}`);
  if (runPath(run) !== gateWorkflowPath(workflow)) return refuse(`it ran ${runPath(run) || "no workflow file"}`);
  if (run.event !== "workflow_dispatch") return refuse(`it is a ${run.event || "?"} run`);
  if (run.head_branch !== dual.base_ref) return refuse(`it ran on ${run.head_branch ?? "no branch"}, the dispatch was on ${dual.base_ref}`);
  if (dual.base_sha === null) return refuse("the App recorded no base commit for its dispatch");
  if (run.head_sha !== dual.base_sha) {
    return refuse(`it ran ${run.head_sha.slice(0, 12)}, the dispatch was sent on ${dual.base_sha.slice(0, 12)}`);
  }
  const sent = dual.dispatch_sent_at ?? dual.dispatched_at;
  const created = Date.parse(run.created_at);
  if (sent === null || !Number.isFinite(created)) return refuse("when it was created, or when the dispatch was sent, is unknown");
  if (created < sent - DISPATCH_SKEW_MS) {
    return refuse(`it was created at ${run.created_at}, before the dispatch was sent (${new Date(sent).toISOString()})`);
  }
  const actor = run.actor?.login ?? null;
  const trigger = run.triggering_actor?.login ?? actor;
  if (actor !== appLogin || trigger !== appLogin) {
    return refuse(
      `it was started by ${actor ?? "nobody known"}${trigger !== actor ? ` (triggered by ${trigger ?? "?"})` : ""}, not the App (${appLogin})`,
    );
  }
  if (!(run.display_title ?? "").includes(dual.id)) return refuse(`its name "${run.display_title ?? ""}" does not carry the dual run id`);
  return null;
}

/**
 * An audit run (docs/app.md, *Envelope PRs from audit runs*), from the run alone: the gate workflow
 * of this repository, run on a `push` to the default branch from a branch of this repository. The
 * caller checks next that its commit is on the default branch (a tag named like the branch has
 * the same `head_branch`).
 */
export function auditRunRefusal(run: ApiWorkflowRun, repository: string, workflow: string, defaultBranch: string): RunRefusal | null {
  const refuse = (reason: string): RunRefusal => ({
    code: "AUDIT_RUN_UNVERIFIED",
    reason: `run ${run.id} is not an audit run of ${defaultBranch}: ${reason}`,
  });
  if (!same(run.repository?.full_name, repository)) return refuse(`it belongs to ${run.repository?.full_name ?? "no repository"}`);
  if (run.head_repository && run.head_repository.id !== run.repository.id) return refuse(`its head is in ${run.head_repository.full_name}`);
  if (runPath(run) !== gateWorkflowPath(workflow))
    return refuse(`it ran ${runPath(run) || "no workflow file"}, not ${gateWorkflowPath(workflow)}`);
  if (run.event !== "push") return refuse(`it is a ${run.event || "?"} run; only a push to the default branch is audited`);
  if (run.head_branch !== defaultBranch) return refuse(`it ran on ${run.head_branch ?? "no branch"}, not the default branch`);
  if (!/^[0-9a-f]{40}$/.test(run.head_sha ?? "")) return refuse("GitHub names no commit for it");
  return null;
}
