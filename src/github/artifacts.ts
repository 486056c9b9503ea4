/**
 * Workflow-run artifacts read with the Action's token (`actions: read`): the evidence bundles a
 * freeze row names, so the Action can check the row against them before honoring it.
 */
import { callGitHub, type GitHubClient } from "./client.js";
import type { RepoRef } from "./repo.js";

/** Largest evidence artifact downloaded (a bundle is a few files of JSON and the observer log). */
export const ARTIFACT_MAX_BYTES = 50 * 1024 * 1024;

export type ArtifactDownload = { zip: Uint8Array } | { missing: string };

/**
 * The zip of the run's artifact named `name` in this repository, or why there is none (no such
 * run or artifact, expired, too large). A GitHub failure (403, 5xx, no answer) throws
 * GITHUB_UNAVAILABLE: "could not read" is never "read".
 */
export async function downloadRunArtifact(client: GitHubClient, repo: RepoRef, runId: string, name: string): Promise<ArtifactDownload> {
  let list: { artifacts?: { id: number; name: string; expired: boolean; size_in_bytes: number }[] };
  try {
    ({ data: list } = await client.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", {
      ...repo,
      run_id: Number(runId),
      name,
      per_page: 100,
    }));
  } catch (err) {
    if (typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404 && "response" in err)
      return { missing: `run ${runId} is not a workflow run of ${repo.owner}/${repo.repo}` };
    return callGitHub(`list the artifacts of run ${runId}`, () => Promise.reject(err));
  }
  const named = (list.artifacts ?? []).filter((a) => a.name === name);
  if (named.length === 0) return { missing: `run ${runId} has no ${name} artifact` };
  const artifact = named.find((a) => !a.expired);
  if (artifact === undefined) return { missing: `run ${runId}'s ${name} artifact has expired` };
  if (artifact.size_in_bytes > ARTIFACT_MAX_BYTES)
    return { missing: `run ${runId}'s ${name} artifact is ${artifact.size_in_bytes} bytes, over ${ARTIFACT_MAX_BYTES}` };
  const { data } = await callGitHub(`download run ${runId}'s ${name} artifact`, () =>
    client.request("GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", {
      ...repo,
      artifact_id: artifact.id,
      archive_format: "zip",
    }),
  );
  return { zip: new Uint8Array(data as ArrayBuffer) };
}

/** What GitHub says of a workflow run, as a freeze row's check needs it. */
interface RunFacts {
  id: number;
  event: string;
  head_sha: string;
  repository: string;
}

/** The run as GitHub's API describes it, or null when this repository has no such run (404). */
export async function workflowRunFacts(client: GitHubClient, repo: RepoRef, runId: string): Promise<RunFacts | null> {
  let data: { id?: number | bigint; event?: string; head_sha?: string; repository?: { full_name?: string } };
  try {
    ({ data } = await client.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}", { ...repo, run_id: Number(runId) }));
  } catch (err) {
    if (typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404 && "response" in err) return null;
    return callGitHub(`read workflow run ${runId}`, () => Promise.reject(err));
  }
  return {
    id: Number(data.id),
    event: String(data.event ?? ""),
    head_sha: String(data.head_sha ?? ""),
    repository: String(data.repository?.full_name ?? ""),
  };
}
