/**
 * Webhook payloads as GitHub sends them, for tests that deliver events to the App: each builder
 * fills every field @octokit/openapi-webhooks requires for its event and action, and
 * test/app/helpers.ts `deliver` checks each payload against that description before sending.
 * Real deliveries carry `installation` as `{ id, node_id }` only (no account).
 */
import type { FakeGitHub, FakePull, FakeRepo, FakeReview, FakeWorkflowRun } from "./fake-github.js";
import { pullJson, workflowRunJson } from "./fake-github.js";
import { FAKE_CREATED_AT, labelJson, repoJson, repoLiteJson, userJson } from "./fake-shapes.js";

export function installationRef(id: number): Record<string, unknown> {
  return { id, node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${id}` };
}

function common(fake: FakeGitHub, repo: FakeRepo, installation: number): Record<string, unknown> {
  return {
    installation: installationRef(installation),
    repository: repoJson(repo, fake.url),
    sender: userJson({ login: "octocat" }, fake.url),
  };
}

/** `workflow_run` `completed` for a run the fake holds. */
export function workflowRunWebhook(
  fake: FakeGitHub,
  repo: FakeRepo,
  run: FakeWorkflowRun,
  installation: number,
  pulls: { number: number; base: string }[],
): Record<string, unknown> {
  const rest = workflowRunJson(repo, run, fake.url);
  const api = `${fake.url}/repos/${repo.owner}/${repo.name}`;
  const { display_title: _title, ...restRun } = rest;
  return {
    action: "completed",
    ...common(fake, repo, installation),
    workflow: {
      badge_url: `${fake.url}/${repo.owner}/${repo.name}/workflows/${run.name}/badge.svg`,
      created_at: FAKE_CREATED_AT,
      html_url: `${fake.url}/${repo.owner}/${repo.name}/blob/main/.github/workflows/${run.workflow_id}`,
      id: rest.workflow_id,
      name: run.name,
      node_id: `W_${String(rest.workflow_id)}`,
      path: `.github/workflows/${run.workflow_id}`,
      state: "active",
      updated_at: FAKE_CREATED_AT,
      url: rest.workflow_url,
    },
    workflow_run: {
      ...restRun,
      display_title: _title,
      actor: userJson({ login: "octocat" }, fake.url),
      triggering_actor: userJson({ login: "octocat" }, fake.url),
      head_commit: {
        author: { name: "octocat", email: "octocat@example.invalid" },
        committer: { name: "octocat", email: "octocat@example.invalid" },
        id: run.head_sha,
        message: "commit",
        timestamp: FAKE_CREATED_AT,
        tree_id: run.head_sha,
      },
      pull_requests: pulls.map((p) => ({
        id: 900000 + p.number,
        number: p.number,
        url: `${api}/pulls/${p.number}`,
        base: { ref: p.base, sha: run.head_sha, repo: { id: repo.id, name: repo.name, url: api } },
        head: { ref: run.head_branch, sha: run.head_sha, repo: { id: repo.id, name: repo.name, url: api } },
      })),
      referenced_workflows: [],
      repository: repoLiteJson(repo, fake.url),
      head_repository: repoLiteJson(repo, fake.url),
    },
  };
}

/** `push` of `after` onto `ref`. */
export function pushWebhook(
  fake: FakeGitHub,
  repo: FakeRepo,
  installation: number,
  push: { ref: string; before?: string; after: string; commits: { added: string[]; modified: string[]; removed: string[] }[] },
): Record<string, unknown> {
  const before = push.before ?? "0".repeat(40);
  const commits = push.commits.map((c, i) => ({
    id: i === push.commits.length - 1 ? push.after : `${i}`.padStart(40, "0"),
    tree_id: push.after,
    distinct: true,
    message: "commit",
    timestamp: FAKE_CREATED_AT,
    url: `${fake.url}/${repo.owner}/${repo.name}/commit/${push.after}`,
    author: { name: "octocat", email: "octocat@example.invalid" },
    committer: { name: "octocat", email: "octocat@example.invalid" },
    ...c,
  }));
  return {
    ref: push.ref,
    before,
    after: push.after,
    base_ref: null,
    created: false,
    deleted: false,
    forced: false,
    compare: `${fake.url}/${repo.owner}/${repo.name}/compare/${before.slice(0, 12)}...${push.after.slice(0, 12)}`,
    commits,
    head_commit: commits.at(-1) ?? null,
    pusher: { name: "octocat", email: "octocat@example.invalid" },
    ...common(fake, repo, installation),
    // The push event's repository also says whether discussions are on and lists topics.
    repository: { ...repoJson(repo, fake.url), has_discussions: false, topics: [] },
  };
}

/** `pull_request` with `action` for a pull the fake holds; `labeled`/`unlabeled` name their label, `sender` who acted. */
export function pullRequestWebhook(
  fake: FakeGitHub,
  repo: FakeRepo,
  pull: FakePull,
  installation: number,
  action: string,
  merged = false,
  /** `extra`: fields of the action's own (`before`/`after` of a synchronize, `changes` of an edit). */
  options: { label?: string; sender?: string; extra?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const json = pullJson(repo, pull, fake.url);
  if (action === "labeled" || action === "unlabeled") {
    // GitHub's labeled and unlabeled events carry the pull request without the merge settings, and
    // its repositories with has_discussions and topics.
    for (const side of ["base", "head"] as const) {
      const end = json[side] as { repo: Record<string, unknown> };
      end.repo = { ...end.repo, has_discussions: false, topics: [] };
    }
    return {
      action,
      number: pull.number,
      pull_request: json,
      ...common(fake, repo, installation),
      ...(options.label !== undefined ? { label: labelJson(repo, options.label, 0, fake.url) } : {}),
      ...(options.sender !== undefined ? { sender: userJson({ login: options.sender }, fake.url) } : {}),
    };
  }
  const done =
    action === "closed"
      ? {
          state: "closed",
          closed_at: FAKE_CREATED_AT,
          merged,
          merged_at: merged ? FAKE_CREATED_AT : null,
          merged_by: merged ? userJson({ login: "alice" }, fake.url) : null,
        }
      : {};
  return {
    action,
    number: pull.number,
    pull_request: {
      ...json,
      ...done,
      allow_auto_merge: false,
      allow_update_branch: false,
      delete_branch_on_merge: false,
      use_squash_pr_title_as_default: false,
      squash_merge_commit_title: "PR_TITLE",
      squash_merge_commit_message: "PR_BODY",
      merge_commit_title: "PR_TITLE",
      merge_commit_message: "PR_BODY",
    },
    ...options.extra,
    ...common(fake, repo, installation),
    ...(options.label !== undefined ? { label: labelJson(repo, options.label, 0, fake.url) } : {}),
    ...(options.sender !== undefined ? { sender: userJson({ login: options.sender }, fake.url) } : {}),
  };
}

/**
 * `pull_request` `synchronize` as GitHub sends it: the simple pull request form, its repositories
 * with discussions and topics, the head before and after the push.
 */
export function pullRequestSynchronizeWebhook(
  fake: FakeGitHub,
  repo: FakeRepo,
  pull: FakePull,
  installation: number,
  before: string,
): Record<string, unknown> {
  const json = pullJson(repo, pull, fake.url, true);
  for (const side of ["base", "head"] as const) {
    const end = json[side] as { repo: Record<string, unknown> };
    end.repo = { ...end.repo, has_discussions: false, topics: [] };
  }
  const { pull_request: _full, ...rest } = pullRequestWebhook(fake, repo, pull, installation, "synchronize");
  return { ...rest, pull_request: json, before, after: pull.head.sha };
}

/**
 * `pull_request_review` `submitted` by `reviewer`; with `review` (one the fake holds, fake.addReview)
 * that review, its id and body, and `action` (`dismissed` for a dismissed one, `edited` with the
 * body it had before as `bodyBefore`).
 */
export function pullRequestReviewWebhook(
  fake: FakeGitHub,
  repo: FakeRepo,
  pull: FakePull,
  installation: number,
  reviewer: string,
  state = "approved",
  options: { review?: FakeReview; action?: "submitted" | "dismissed" | "edited"; bodyBefore?: string } = {},
): Record<string, unknown> {
  const json = pullJson(repo, pull, fake.url, true);
  // Here the pull's repositories also list topics, and (but in `edited`) say whether discussions are on.
  for (const side of ["base", "head"] as const) {
    const end = json[side] as { repo: Record<string, unknown> };
    end.repo = { ...end.repo, ...(options.action === "edited" ? {} : { has_discussions: false }), topics: [] };
  }
  const html = `${fake.url}/${repo.owner}/${repo.name}/pull/${pull.number}`;
  const id = options.review?.id ?? fake.nextId();
  return {
    action: options.action ?? "submitted",
    ...(options.action === "edited" ? { changes: { body: { from: options.bodyBefore ?? "" } } } : {}),
    pull_request: json,
    review: {
      id,
      node_id: `PRR_${id}`,
      user: userJson({ login: options.review?.user.login ?? reviewer }, fake.url),
      body: options.review?.body ?? null,
      commit_id: options.review?.commit_id ?? pull.head.sha,
      submitted_at: FAKE_CREATED_AT,
      state,
      html_url: `${html}#pullrequestreview-${id}`,
      pull_request_url: `${fake.url}/repos/${repo.owner}/${repo.name}/pulls/${pull.number}`,
      author_association: "COLLABORATOR",
      _links: {
        html: { href: `${html}#pullrequestreview-${id}` },
        pull_request: { href: `${fake.url}/repos/${repo.owner}/${repo.name}/pulls/${pull.number}` },
      },
    },
    ...common(fake, repo, installation),
  };
}
