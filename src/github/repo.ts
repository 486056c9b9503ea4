/**
 * Reads from a repository: files at a commit, pull requests, their files and reviews, and
 * collaborator permissions. Small functions over a GitHubClient so the Action and the App
 * share them.
 */
import { Refusal } from "../core/errors.js";
import { GitHubUnavailable, callGitHub, gitHubFailure, type GitHubClient } from "./client.js";

export interface RepoRef {
  owner: string;
  repo: string;
}

/** The one repository parser: `owner/name` as GitHub spells it, or null. */
export function parseRepository(fullName: string): RepoRef | null {
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(fullName);
  return m ? { owner: m[1] as string, repo: m[2] as string } : null;
}

/** parseRepository for a name that must be one (the App's recorded repositories): CONFIG_INVALID otherwise. */
export function repoRef(fullName: string): RepoRef {
  const ref = parseRepository(fullName);
  if (ref === null) throw new Refusal("CONFIG_INVALID", `not an owner/name repository: ${fullName}`);
  return ref;
}

/** Pages fetched at most per listing; GitHub itself lists at most 3000 files of a pull request. */
const MAX_PAGES = 30;

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

/** Policy files are read up to this size; a larger one is refused (POLICY_FILE_TOO_LARGE). */
const POLICY_FILE_MAX_BYTES = 10 * 1024 * 1024;

export interface FileAt {
  /** The git blob id: equal ids mean equal bytes. */
  sha: string;
  size: number;
}

function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { status?: unknown }).status === 404 && "response" in err;
}

function isTooLarge(err: unknown): boolean {
  if (typeof err !== "object" || err === null || (err as { status?: unknown }).status !== 403) return false;
  const data = (err as { response?: { data?: { errors?: { code?: string }[] } } }).response?.data;
  return (data?.errors ?? []).some((e) => e.code === "too_large");
}

function tooLarge(path: string, ref: string, size: number | null): Refusal {
  const how = size === null ? "over GitHub's 100 MB API limit" : `${size} bytes`;
  return new Refusal(
    "POLICY_FILE_TOO_LARGE",
    `${path} at ${ref.slice(0, 12)} is ${how}; policy files are read up to ${POLICY_FILE_MAX_BYTES} bytes`,
    {
      file: path,
      hint: "Keep the envelope, its digest, the properties and the ledger small; a policy file this large is not reviewed by anyone.",
    },
  );
}

/**
 * How one reader differs from another (the App's from the Action's): the words naming the read
 * in an outage, the advice an outage carries, and what a path that is not a file is.
 */
interface ReadOptions {
  /** What an outage says could not be done (default: `read <path> at <ref>`). */
  what?: string;
  /** Advice on GITHUB_UNAVAILABLE (default: gitHubFailure's). */
  hint?: string;
  /** The error for a path GitHub answers as something other than a file (default: GITHUB_UNAVAILABLE). */
  notAFile?: (path: string, ref: string) => Refusal;
}

/** The contents API's object for a file at a ref: null when GitHub says it does not exist there (404). */
type Contents = { sha: string; size: number; encoding?: string; content?: string } | null;

/**
 * Contents-API answers by ref and path, for one gathering: the blob id and the bytes of a file
 * come from the same answer, read once.
 */
export type ContentsCache = Map<string, Promise<Contents>>;

function contentsAt(
  client: GitHubClient,
  repo: RepoRef,
  path: string,
  ref: string,
  cache: ContentsCache | undefined,
  options: ReadOptions,
): Promise<Contents> {
  if (cache === undefined) return fetchContents(client, repo, path, ref, options);
  const key = `${ref}\0${path}`;
  let answer = cache.get(key);
  if (answer === undefined) {
    answer = fetchContents(client, repo, path, ref, options);
    cache.set(key, answer);
  }
  return answer;
}

async function fetchContents(client: GitHubClient, repo: RepoRef, path: string, ref: string, options: ReadOptions): Promise<Contents> {
  const what = options.what ?? `read ${path} at ${ref.slice(0, 12)}`;
  let data: unknown;
  try {
    ({ data } = await client.request("GET /repos/{owner}/{repo}/contents/{path}", { ...repo, path, ref }));
  } catch (err) {
    if (isNotFound(err)) return null;
    if (isTooLarge(err)) throw tooLarge(path, ref, null);
    throw gitHubFailure(what, err, options.hint);
  }
  const file = data as { type?: string; sha?: string; size?: number; encoding?: string; content?: string };
  if (Array.isArray(data) || file.type !== "file" || typeof file.sha !== "string" || typeof file.size !== "number") {
    if (options.notAFile !== undefined) throw options.notAFile(path, ref);
    throw new GitHubUnavailable(what, 200, `${path} is not a file at ${ref}`, null, options.hint);
  }
  return file as { sha: string; size: number; encoding?: string; content?: string };
}

/** A file's blob id and size at a commit, or null when it does not exist there. */
export async function fileIdAt(
  client: GitHubClient,
  repo: RepoRef,
  path: string,
  ref: string,
  cache?: ContentsCache,
): Promise<FileAt | null> {
  const file = await contentsAt(client, repo, path, ref, cache, {});
  return file === null ? null : { sha: file.sha, size: file.size };
}

/**
 * The one file reader of envelope-gate (the Action's policy files, the App's ledger): a file's
 * bytes at a commit, or null when GitHub says it does not exist there (404). Any other failure
 * is GITHUB_UNAVAILABLE: an unreadable policy file is not an absent one. Files over 1 MB come
 * from the contents API without content (encoding "none"); their bytes are read through the git
 * blobs API by the blob id, up to POLICY_FILE_MAX_BYTES (POLICY_FILE_TOO_LARGE beyond).
 */
export async function readFileAt(
  client: GitHubClient,
  repo: RepoRef,
  path: string,
  ref: string,
  cache?: ContentsCache,
  options: ReadOptions = {},
): Promise<Uint8Array | null> {
  const file = await contentsAt(client, repo, path, ref, cache, options);
  if (file === null) return null;
  if (file.size > POLICY_FILE_MAX_BYTES) throw tooLarge(path, ref, file.size);
  const what = options.what ?? `read ${path} at ${ref.slice(0, 12)}`;
  let base64: string;
  if (file.encoding === "base64" && typeof file.content === "string") {
    base64 = file.content;
  } else {
    const blobWhat = `${what} (blob ${file.sha.slice(0, 12)})`;
    const { data } = await callGitHub(
      blobWhat,
      () => client.request("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", { ...repo, file_sha: file.sha }),
      options.hint,
    );
    const blob = data as { encoding?: string; content?: string };
    if (blob.encoding !== "base64" || typeof blob.content !== "string")
      throw new GitHubUnavailable(blobWhat, 200, `the blob of ${path} came without base64 content`, null, options.hint);
    base64 = blob.content;
  }
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  if (bytes.length !== file.size) {
    throw new GitHubUnavailable(
      what,
      200,
      `${path} came back as ${bytes.length} bytes, not the ${file.size} GitHub listed`,
      null,
      options.hint,
    );
  }
  return bytes;
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
  /** How many files the pull request changes (the files listing stops at 3000). */
  changedFiles: number;
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
    changedFiles: data.changed_files,
  };
}

/**
 * A branch's current commit, or null when GitHub says there is no such branch (404). Any other
 * failure is GITHUB_UNAVAILABLE: a branch that could not be read is not a missing one.
 */
export async function branchHeadSha(client: GitHubClient, repo: RepoRef, branch: string, hint?: string): Promise<string | null> {
  let data: unknown;
  try {
    ({ data } = await client.request("GET /repos/{owner}/{repo}/git/ref/{ref}", { ...repo, ref: `heads/${branch}` }));
  } catch (err) {
    if (isNotFound(err)) return null;
    return callGitHub(`read the branch ${branch}`, () => Promise.reject(err), hint);
  }
  const sha = (data as { object?: { sha?: unknown; type?: unknown } }).object?.sha;
  if (typeof sha !== "string" || !/^[0-9a-f]{40}$/.test(sha)) {
    throw new GitHubUnavailable(`read the branch ${branch}`, 200, "the answer names no commit", null, hint);
  }
  return sha;
}

export interface PullFile {
  filename: string;
  status: string;
  previous_filename?: string;
  /** Unified diff of the file; absent for binary or very large files. */
  patch?: string;
}

export async function listPullFiles(client: GitHubClient, repo: RepoRef, number: number): Promise<PullFile[]> {
  const raw = await listAll<PullFile>(
    client,
    `list the files of pull request #${number}`,
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/files",
    {
      ...repo,
      pull_number: number,
    },
  );
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
  /** The reviewer's user type as GitHub answers it (`User`, `Bot`, ...); null when the answer has none. */
  type: string | null;
  state: string;
  commitId: string | null;
}

export async function listReviews(client: GitHubClient, repo: RepoRef, number: number): Promise<Review[]> {
  const raw = await listAll<{ id: number; user: { login: string; type?: string } | null; state: string; commit_id: string | null }>(
    client,
    `list the reviews of pull request #${number}`,
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    { ...repo, pull_number: number },
  );
  return raw.map((r) => ({
    id: r.id,
    login: r.user?.login ?? "",
    type: typeof r.user?.type === "string" ? r.user.type : null,
    state: r.state,
    commitId: r.commit_id ?? null,
  }));
}

/** Built-in repository roles; any other role_name is a custom role, judged by what it grants. */
const BUILT_IN_ROLES = new Set(["admin", "maintain", "write", "triage", "read"]);

/**
 * The collaborator's role as far as approving goes: a built-in role by its name ("admin",
 * "maintain", "write", "triage", "read"); a custom role (its role_name is the custom name) by the
 * base permission it grants (`permission`: "admin", "write", "read", "none"). Null when GitHub
 * says the user is not a collaborator (404).
 */
export async function getCollaboratorRole(client: GitHubClient, repo: RepoRef, login: string): Promise<string | null> {
  try {
    const { data } = await client.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...repo, username: login });
    const roleName = (data as { role_name?: string }).role_name;
    return roleName !== undefined && BUILT_IN_ROLES.has(roleName) ? roleName : data.permission;
  } catch (err) {
    if (isNotFound(err)) return null;
    return callGitHub(`read ${login}'s permission`, () => Promise.reject(err));
  }
}
