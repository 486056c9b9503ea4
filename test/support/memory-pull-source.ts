/**
 * The in-memory PullSource: commits as path -> text maps, one pull request's files, reviews and
 * collaborator roles. For testing what the gate makes of the facts without any HTTP.
 */
import { createHash } from "node:crypto";
import type { PullSource } from "../../src/github/pull-source.js";
import type { PullFile, PullRequestInfo, Review } from "../../src/github/repo.js";

export interface MemoryRepo {
  commits: Map<string, Record<string, string>>;
  pull: PullRequestInfo;
  files: PullFile[];
  reviews: Review[];
  roles: Map<string, string>;
  /** Branch heads (default: the pull request's base branch at its baseSha). */
  branches?: Map<string, string>;
  /** Every call, in order: what a test can count. */
  calls: string[];
}

const blobId = (text: string): string =>
  createHash("sha1")
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest("hex");

export function memoryPullSource(repo: MemoryRepo): PullSource {
  const at = (ref: string): Record<string, string> => {
    const files = repo.commits.get(ref);
    if (files === undefined) throw new Error(`memory source: no commit ${ref}`);
    return files;
  };
  return {
    pullRequest: async (number) => {
      repo.calls.push(`pull ${number}`);
      return repo.pull;
    },
    branchHead: async (branch) => {
      repo.calls.push(`branch ${branch}`);
      const branches = repo.branches ?? new Map([[repo.pull.baseRef, repo.pull.baseSha]]);
      return branches.get(branch) ?? null;
    },
    pullFiles: async (number) => {
      repo.calls.push(`files ${number}`);
      return repo.files.slice(0, 3000);
    },
    reviews: async (number) => {
      repo.calls.push(`reviews ${number}`);
      return repo.reviews;
    },
    collaboratorRole: async (login) => {
      repo.calls.push(`role ${login}`);
      return repo.roles.get(login) ?? null;
    },
    fileId: async (path, ref) => {
      repo.calls.push(`id ${path}@${ref}`);
      const text = at(ref)[path];
      return text === undefined ? null : { sha: blobId(text), size: Buffer.byteLength(text) };
    },
    file: async (path, ref) => {
      repo.calls.push(`file ${path}@${ref}`);
      const text = at(ref)[path];
      return text === undefined ? null : new TextEncoder().encode(text);
    },
  };
}
