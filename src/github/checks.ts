/** Check runs: create one, then complete it with its output and annotations, 50 per request. */
import { ANNOTATIONS_PER_REQUEST, batchAnnotations, type CheckAnnotation } from "../core/annotations.js";
import { callGitHub, type GitHubClient } from "./client.js";
import type { RepoRef } from "./repo.js";

export type CheckConclusion = "success" | "failure" | "neutral" | "action_required";

export interface CheckRunHandle {
  id: number;
  htmlUrl: string | null;
}

export interface NewCheckRun {
  name: string;
  headSha: string;
  externalId?: string;
  detailsUrl?: string;
}

export async function createCheckRun(client: GitHubClient, repo: RepoRef, run: NewCheckRun): Promise<CheckRunHandle> {
  const { data } = await callGitHub(`create check run "${run.name}"`, () =>
    client.request("POST /repos/{owner}/{repo}/check-runs", {
      ...repo,
      name: run.name,
      head_sha: run.headSha,
      status: "in_progress",
      started_at: new Date().toISOString(),
      ...(run.externalId !== undefined ? { external_id: run.externalId } : {}),
      ...(run.detailsUrl !== undefined ? { details_url: run.detailsUrl } : {}),
    }),
  );
  return { id: Number(data.id), htmlUrl: data.html_url ?? null };
}

export interface CheckRunResult {
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
