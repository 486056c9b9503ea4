/**
 * Everything the gate asks GitHub about one repository's pull requests, behind one small
 * interface: the GitHub implementation here, an in-memory one for tests
 * (test/support/memory-pull-source.ts). The gate gathers its facts through it and decides
 * without it.
 */
import type { GitHubClient } from "./client.js";
import {
  branchHeadSha,
  fileIdAt,
  getCollaboratorRole,
  getPullRequest,
  listPullFiles,
  listReviews,
  readFileAt,
  type ContentsCache,
  type FileAt,
  type PullFile,
  type PullRequestInfo,
  type RepoRef,
  type Review,
} from "./repo.js";

export interface PullSource {
  pullRequest(number: number): Promise<PullRequestInfo>;
  /** A branch's current commit, or null when the branch does not exist. */
  branchHead(branch: string): Promise<string | null>;
  /** The pull request's files as GitHub lists them (at most 3000). */
  pullFiles(number: number): Promise<PullFile[]>;
  reviews(number: number): Promise<Review[]>;
  /** The role that decides approval (docs/action.md), or null for a non-collaborator. */
  collaboratorRole(login: string): Promise<string | null>;
  /** A file's blob id at a commit, or null when absent. */
  fileId(path: string, ref: string): Promise<FileAt | null>;
  /** A file's bytes at a commit, or null when absent. */
  file(path: string, ref: string): Promise<Uint8Array | null>;
}

export function gitHubPullSource(client: GitHubClient, repo: RepoRef): PullSource {
  // The policy files' blob ids and their bytes at the policy commit come from the same answers.
  const contents: ContentsCache = new Map();
  return {
    pullRequest: (number) => getPullRequest(client, repo, number),
    branchHead: (branch) => branchHeadSha(client, repo, branch),
    pullFiles: (number) => listPullFiles(client, repo, number),
    reviews: (number) => listReviews(client, repo, number),
    collaboratorRole: (login) => getCollaboratorRole(client, repo, login),
    fileId: (path, ref) => fileIdAt(client, repo, path, ref, contents),
    file: (path, ref) => readFileAt(client, repo, path, ref, contents),
  };
}
