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
