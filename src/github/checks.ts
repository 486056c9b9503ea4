/** Check runs: create one, then complete it with its output and annotations, 50 per request. */
import { ANNOTATIONS_PER_REQUEST, batchAnnotations, type CheckAnnotation } from "../core/annotations.js";
import { callGitHub, type GitHubClient } from "./client.js";
import type { RepoRef } from "./repo.js";

type CheckConclusion = "success" | "failure" | "neutral" | "action_required";

export interface CheckRunHandle {
  id: number;
  htmlUrl: string | null;
}

interface NewCheckRun {
  name: string;
  headSha: string;
  externalId?: string;
  detailsUrl?: string;
}

/** A check run created already completed, its output in the one request (the App's checks). */
interface CompletedCheckRun extends NewCheckRun {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  text?: string;
}

/** GitHub's limit on a check run's output summary and text, in characters. */
export const CHECK_OUTPUT_MAX_CHARS = 65000;

interface CreateCheckRunOptions {
  /** What an outage says could not be done (default: `create check run "<name>"`). */
  what?: string;
  /** Advice on GITHUB_UNAVAILABLE (default: gitHubFailure's). */
  hint?: string;
}

/**
 * The one check-run creation: in progress (started now) for a run completed later by
 * completeCheckRun, or, given a conclusion, completed with its output (summary and text cut to
 * GitHub's limit) in one request.
 */
export async function createCheckRun(
  client: GitHubClient,
  repo: RepoRef,
  run: NewCheckRun | CompletedCheckRun,
  options: CreateCheckRunOptions = {},
): Promise<CheckRunHandle> {
  const state =
    "conclusion" in run
      ? { status: "completed" as const, conclusion: run.conclusion }
      : { status: "in_progress" as const, started_at: new Date().toISOString() };
  const output =
    "conclusion" in run
      ? {
          output: {
            title: run.title,
            summary: run.summary.slice(0, CHECK_OUTPUT_MAX_CHARS),
            ...(run.text !== undefined ? { text: run.text.slice(0, CHECK_OUTPUT_MAX_CHARS) } : {}),
          },
        }
      : {};
  const { data } = await callGitHub(
    options.what ?? `create check run "${run.name}"`,
    () =>
      client.request("POST /repos/{owner}/{repo}/check-runs", {
        ...repo,
        name: run.name,
        head_sha: run.headSha,
        ...state,
        ...(run.externalId !== undefined ? { external_id: run.externalId } : {}),
        ...(run.detailsUrl !== undefined ? { details_url: run.detailsUrl } : {}),
        ...output,
      }),
    options.hint,
  );
  return { id: Number(data.id), htmlUrl: data.html_url ?? null };
}

interface CheckRunResult {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  text?: string;
  annotations: CheckAnnotation[];
}

/**
 * Sends every annotation batch but the last while the run is still in progress, then the last
 * batch with the conclusion, so a run is never shown complete with annotations missing.
 * Returns the number of update requests made.
 */
export async function completeCheckRun(client: GitHubClient, repo: RepoRef, id: number, result: CheckRunResult): Promise<number> {
  const batches = batchAnnotations(result.annotations, ANNOTATIONS_PER_REQUEST);
  const output = (annotations: CheckAnnotation[]) => ({
    title: result.title,
    summary: result.summary,
    ...(result.text !== undefined ? { text: result.text } : {}),
    annotations,
  });
  const last = batches.length - 1;
  for (let i = 0; i < last; i++) {
    const batch = batches[i] as CheckAnnotation[];
    await callGitHub(
      `add annotations ${i * ANNOTATIONS_PER_REQUEST + 1}-${i * ANNOTATIONS_PER_REQUEST + batch.length} to check run ${id}`,
      () => client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { ...repo, check_run_id: id, output: output(batch) }),
    );
  }
  await callGitHub(`complete check run ${id}`, () =>
    client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
      ...repo,
      check_run_id: id,
      status: "completed",
      conclusion: result.conclusion,
      completed_at: new Date().toISOString(),
      output: output(batches[last] ?? []),
    }),
  );
  return batches.length;
}

/** A check run on a commit, as the commit's check-runs listing shows it. */
export interface SeenCheckRun {
  id: number;
  /** The app that made it (`github-actions` for a job token's). */
  app_slug: string | null;
  conclusion: string | null;
  title: string | null;
  summary: string | null;
  html_url: string | null;
}

/** The check runs named `name` on `sha` (the latest of each app, as GitHub filters by default), newest first. */
export async function checkRunsOnCommit(client: GitHubClient, repo: RepoRef, sha: string, name: string): Promise<SeenCheckRun[]> {
  const { data } = await callGitHub(`read the "${name}" check runs`, () =>
    client.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...repo, ref: sha, check_name: name, per_page: 100 }),
  );
  return data.check_runs
    .map((c) => ({
      id: Number(c.id),
      app_slug: c.app?.slug ?? null,
      conclusion: c.conclusion,
      title: c.output.title,
      summary: c.output.summary,
      html_url: c.html_url,
    }))
    .sort((a, b) => b.id - a.id);
}
