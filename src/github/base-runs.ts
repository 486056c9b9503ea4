/**
 * The base branch's last run, as the footprint compares with it, and the SARIF upload to code
 * scanning. Read and sent with the Action's token (`actions: read`; `security-events: write` for
 * the upload). A GitHub failure throws GITHUB_UNAVAILABLE (src/github/client.ts): "could not
 * read the base's runs" is never "the base has no runs".
 */
import { gzipSync } from "node:zlib";
import { callGitHub, hasStatus, type GitHubClient } from "./client.js";
import type { RepoRef } from "./repo.js";
import { ARTIFACT_MAX_BYTES } from "./artifacts.js";

/** Push runs of the base branch looked at, newest first, for one that left its evidence. */
const BASE_RUNS_LOOKED_AT = 20;

/**
 * How many commits of the base's first-parent history, from the judged base commit back, a base
 * run's commit is looked for in. GitHub names a tag push by the tag's name (`head_branch` is `main` for a tag
 * called `main`), and that run runs the workflow file at the tag's commit, which anyone who can
 * push a tag chooses: a run whose commit is not in the base's history is not the base's.
 */
const BASE_ANCESTRY_LIMIT = 100;

interface BaseRun {
  id: number;
  run_number: number | null;
  head_sha: string;
  head_branch: string;
  html_url: string | null;
}

export type BaseEvidence = { found: true; run: BaseRun; zip: Uint8Array } | { found: false; reason: string };

interface ApiRun {
  id?: number;
  run_number?: number;
  event?: string;
  status?: string | null;
  head_branch?: string | null;
  head_sha?: string;
  html_url?: string;
  path?: string;
}

/**
 * The workflow file this run comes from, from `GITHUB_WORKFLOW_REF`
 * (`owner/repo/.github/workflows/gate.yml@refs/...`): its path in the repository, or null.
 */
export function workflowPathOf(workflowRef: string | undefined, repo: RepoRef): string | null {
  if (workflowRef === undefined || workflowRef === "") return null;
  const at = workflowRef.lastIndexOf("@");
  const full = at === -1 ? workflowRef : workflowRef.slice(0, at);
  const prefix = `${repo.owner}/${repo.repo}/`;
  if (full.toLowerCase().startsWith(prefix.toLowerCase())) {
    const path = full.slice(prefix.length);
    return /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) ? path : null;
  }
  return null;
}

/**
 * The evidence of the most recent completed `push` run of `workflowPath` on `branch` that has an
 * `artifact` (the newest first, at most BASE_RUNS_LOOKED_AT runs): its zip, or why there is none
 * (no such run, no run left its evidence, the evidence expired or is too large). Only push runs of
 * that branch count (a pull request's run is not the base), each checked on GitHub's answer, not
 * only through the query's filters.
 */
export async function baseRunEvidence(
  client: GitHubClient,
  repo: RepoRef,
  options: { workflowPath: string; branch: string; baseSha: string; artifact: string; excludeRunId: string | null },
): Promise<BaseEvidence> {
  const workflowFile = options.workflowPath.slice(options.workflowPath.lastIndexOf("/") + 1);
  let data: unknown;
  try {
    ({ data } = await callGitHub(`list the push runs of ${options.workflowPath} on ${options.branch}`, () =>
      client.request("GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", {
        ...repo,
        workflow_id: workflowFile,
        branch: options.branch,
        event: "push",
        status: "completed",
        per_page: BASE_RUNS_LOOKED_AT,
      }),
    ));
  } catch (err) {
    // GitHub knows no such workflow in this repository (one the pull request adds): no base, said so.
    if (hasStatus(err, 404)) return { found: false, reason: `GitHub knows no workflow ${options.workflowPath} in this repository (404)` };
    throw err;
  }
  const runs = ((data as { workflow_runs?: ApiRun[] }).workflow_runs ?? []).filter(
    (r) =>
      r.event === "push" &&
      r.status === "completed" &&
      r.head_branch === options.branch &&
      (r.path === undefined || r.path === options.workflowPath) &&
      typeof r.id === "number" &&
      String(r.id) !== options.excludeRunId,
  );
  if (runs.length === 0) return { found: false, reason: `no completed push run of ${options.workflowPath} on ${options.branch}` };
  const inHistory = baseHistory(client, repo, options.baseSha);
  let offHistory = 0;
  for (const r of runs) {
    const id = r.id as number;
    // A push run named like the base (a tag `main`) at a commit the base never had is not the base.
    if (!(await inHistory(String(r.head_sha ?? "")))) {
      offHistory++;
      continue;
    }
    const { data: list } = await callGitHub(`list the artifacts of run ${id}`, () =>
      client.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", {
        ...repo,
        run_id: id,
        name: options.artifact,
        per_page: 100,
      }),
    );
    const named = (list.artifacts ?? []).filter((a) => a.name === options.artifact);
    if (named.length === 0) continue;
    const run: BaseRun = {
      id,
      run_number: typeof r.run_number === "number" ? r.run_number : null,
      head_sha: String(r.head_sha ?? ""),
      head_branch: options.branch,
      html_url: typeof r.html_url === "string" ? r.html_url : null,
    };
    const artifact = named.find((a) => !a.expired);
    if (artifact === undefined)
      return { found: false, reason: `the ${options.artifact} artifact of run #${id} (the base's last) has expired` };
    if (artifact.size_in_bytes > ARTIFACT_MAX_BYTES)
      return {
        found: false,
        reason: `the ${options.artifact} artifact of run #${id} is ${artifact.size_in_bytes} bytes, over ${ARTIFACT_MAX_BYTES}`,
      };
    const { data: zip } = await callGitHub(`download run ${id}'s ${options.artifact} artifact`, () =>
      client.request("GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", {
        ...repo,
        artifact_id: artifact.id,
        archive_format: "zip",
      }),
    );
    return { found: true, run, zip: new Uint8Array(zip as ArrayBuffer) };
  }
  const off =
    offHistory === 0
      ? ""
      : `; ${offHistory} of them ran on a commit that is not among the last ${BASE_ANCESTRY_LIMIT} commits of ${options.branch}'s first-parent history from ${options.baseSha.slice(0, 12)} (a tag named like the branch, say) and ${offHistory === 1 ? "was" : "were"} not compared with`;
  return {
    found: false,
    reason: `none of the last ${runs.length} completed push run${runs.length === 1 ? "" : "s"} of ${options.workflowPath} on ${options.branch} left an ${options.artifact} artifact${off}`,
  };
}

/**
 * Whether a commit is the base commit or on its first-parent history within BASE_ANCESTRY_LIMIT
 * commits (`GET /git/commits/{sha}`, each commit read once however many runs are asked about): the
 * commits that were the branch's tip. A commit a merge brought in through another parent (a pull
 * request's intermediate commit) is an ancestor but was never the base. A commit GitHub does not
 * know has no parents; a GitHub failure throws.
 */
function baseHistory(client: GitHubClient, repo: RepoRef, baseSha: string): (sha: string) => Promise<boolean> {
  const seen = new Set<string>();
  let next: string | null = baseSha;
  return async (sha) => {
    if (!/^[0-9a-f]{40}$/.test(sha)) return false;
    if (seen.has(sha)) return true;
    while (next !== null && seen.size < BASE_ANCESTRY_LIMIT) {
      const at: string = next;
      seen.add(at);
      next = (await parentsOf(client, repo, at))[0] ?? null;
      if (at === sha) return true;
    }
    return false;
  };
}

async function parentsOf(client: GitHubClient, repo: RepoRef, sha: string): Promise<string[]> {
  try {
    const { data } = await callGitHub(`read commit ${sha.slice(0, 12)} of the base's history`, () =>
      client.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { ...repo, commit_sha: sha }),
    );
    return (data.parents ?? []).map((p) => p.sha);
  } catch (err) {
    if (hasStatus(err, 404)) return [];
    throw err;
  }
}

/** GitHub's limit on one upload: the gzip-compressed SARIF file. */
const SARIF_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** SARIF as code scanning's upload takes it: gzip, then base64. */
function encodeSarifForUpload(text: string): string {
  return gzipSync(Buffer.from(text, "utf8")).toString("base64");
}

/**
 * Uploads a SARIF file to code scanning (`POST /repos/{owner}/{repo}/code-scanning/sarifs`) for
 * the commit and ref. Returns GitHub's receipt id. Throws GITHUB_UNAVAILABLE when GitHub refuses
 * or does not answer, and a plain Error for a file over GitHub's size limit; the caller decides
 * what an upload failure means (never the verdict).
 */
export async function uploadSarif(
  client: GitHubClient,
  repo: RepoRef,
  upload: { commitSha: string; ref: string; sarif: string; toolName: string },
): Promise<{ id: string | null }> {
  const encoded = encodeSarifForUpload(upload.sarif);
  const gzipped = Math.floor((encoded.length * 3) / 4);
  if (gzipped > SARIF_UPLOAD_MAX_BYTES)
    throw new Error(`the SARIF file is ${gzipped} bytes gzip-compressed, over code scanning's ${SARIF_UPLOAD_MAX_BYTES}`);
  const { data } = await callGitHub(`upload the SARIF file for ${upload.ref}`, () =>
    client.request("POST /repos/{owner}/{repo}/code-scanning/sarifs", {
      ...repo,
      commit_sha: upload.commitSha,
      ref: upload.ref,
      sarif: encoded,
      tool_name: upload.toolName,
    }),
  );
  return { id: typeof data.id === "string" ? data.id : null };
}
