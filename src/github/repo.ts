/**
 * Reads from a repository: files at a commit, pull requests, their files and reviews, and
 * collaborator permissions. Small functions over a GitHubClient so the Action and the App
 * share them.
 */
import { GitHubUnavailable, callGitHub, type GitHubClient } from "./client.js";

export interface RepoRef {
  owner: string;
  repo: string;
}

export function parseRepository(fullName: string): RepoRef | null {
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(fullName);
  return m ? { owner: m[1] as string, repo: m[2] as string } : null;
}

/** Pages fetched at most per listing; GitHub itself lists at most 3000 files of a pull request. */
export const MAX_PAGES = 30;

async function listAll<T>(client: GitHubClient, what: string, route: string, params: Record<string, unknown>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const response = await callGitHub(what, () => client.request(route, { ...params, per_page: 100, page }));
    const data = response.data as T[];
    if (!Array.isArray(data)) throw new GitHubUnavailable(what, response.status, "the answer was not a list", null);
    items.push(...data);
    const link = String((response.headers as Record<string, unknown>).link ?? "");
    if (!/rel="next"/.test(link) || data.length === 0) return items;
  }
  throw new GitHubUnavailable(what, null, `more than ${MAX_PAGES} pages; refusing to judge a partial list`, null);
}

/**
 * A file's bytes at a commit, or null when GitHub says it does not exist there (404).
 * Any other failure is GITHUB_UNAVAILABLE: an unreadable policy file is not an absent one.
 */
export async function readFileAt(client: GitHubClient, repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null> {
  const what = `read ${path} at ${ref.slice(0, 12)}`;
  let data: unknown;
  try {
    ({ data } = await client.request("GET /repos/{owner}/{repo}/contents/{path}", { ...repo, path, ref }));
  } catch (err) {
    if (typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404 && "response" in err) return null;
    return callGitHub(what, () => Promise.reject(err));
  }
  const file = data as { type?: string; encoding?: string; content?: string };
  if (Array.isArray(data) || file.type !== "file") {
    throw new GitHubUnavailable(what, 200, `${path} is not a file at ${ref}`, null);
  }
  if (file.encoding !== "base64" || typeof file.content !== "string") {
    throw new GitHubUnavailable(what, 200, `${path} is too large for the contents API (policy files must be under 1 MB)`, null);
  }
  return new Uint8Array(Buffer.from(file.content, "base64"));
}

export interface PullRequestInfo {
  number: number;
  state: string;
  author: string;
  labels: string[];
  baseSha: string;
  baseRef: string;
  headSha: string;
  headRef: string;
  headRepo: string | null;
  htmlUrl: string;
}

export async function getPullRequest(client: GitHubClient, repo: RepoRef, number: number): Promise<PullRequestInfo> {
  const { data } = await callGitHub(`read pull request #${number}`, () =>
    client.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...repo, pull_number: number }),
  );
  return {
    number: data.number,
    state: data.state,
    author: data.user?.login ?? "",
    labels: data.labels.map((l: { name?: string }) => l.name ?? "").filter((n: string) => n !== ""),
    baseSha: data.base.sha,
    baseRef: data.base.ref,
    headSha: data.head.sha,
    headRef: data.head.ref,
    headRepo: data.head.repo?.full_name ?? null,
    htmlUrl: data.html_url,
  };
}

export interface PullFile {
  filename: string;
  status: string;
  previous_filename?: string;
  /** Unified diff of the file; absent for binary or very large files. */
  patch?: string;
}

export async function listPullFiles(client: GitHubClient, repo: RepoRef, number: number): Promise<PullFile[]> {
  const raw = await listAll<PullFile>(client, `list the files of pull request #${number}`, "GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
    ...repo,
    pull_number: number,
  });
  return raw.map((f) => {
    const file: PullFile = { filename: f.filename, status: f.status };
    if (f.previous_filename !== undefined) file.previous_filename = f.previous_filename;
    if (f.patch !== undefined) file.patch = f.patch;
    return file;
  });
}

export interface Review {
  id: number;
  login: string;
  state: string;
  commitId: string | null;
}

export async function listReviews(client: GitHubClient, repo: RepoRef, number: number): Promise<Review[]> {
  const raw = await listAll<{ id: number; user: { login: string } | null; state: string; commit_id: string | null }>(
    client,
    `list the reviews of pull request #${number}`,
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    { ...repo, pull_number: number },
  );
  return raw.map((r) => ({ id: r.id, login: r.user?.login ?? "", state: r.state, commitId: r.commit_id ?? null }));
}

/**
 * The collaborator's role name ("admin", "maintain", "write", "triage", "read"), or null when
 * GitHub says the user is not a collaborator (404).
 */
export async function getCollaboratorRole(client: GitHubClient, repo: RepoRef, login: string): Promise<string | null> {
  try {
    const { data } = await client.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...repo, username: login });
    return (data as { role_name?: string }).role_name ?? data.permission;
  } catch (err) {
    if (typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404 && "response" in err) return null;
    return callGitHub(`read ${login}'s permission`, () => Promise.reject(err));
  }
}
