/**
 * Gathering the facts about a pull request that the gate decides on: which policy files it
 * changes, who approved that, and the policy files of the commit that applies. All GitHub reads
 * go through a PullSource; what to make of the facts is decided in src/core.
 */
import { judgedBase, type EventBase, type JudgedBase } from "../core/base.js";
import type { PolicyFiles } from "../core/policy-files.js";
import {
  WRITE_ROLES,
  botExcluded,
  headApprovals,
  listedReviewer,
  policyBlobChanges,
  policyChanges,
  type PolicyChange,
  type PolicyPaths,
} from "../core/policy.js";
import type { PullSource } from "../github/pull-source.js";
import type { PullFile, PullRequestInfo } from "../github/repo.js";

export interface PolicyFacts {
  files: PullFile[];
  /** The listing holds every file the pull request changes (GitHub stops at 3000). */
  filesComplete: boolean;
  changes: PolicyChange[];
  /** Allowed reviewers who approved the head commit; only asked when the policy changes. */
  approvedBy: string[];
  /** Bot accounts that approved the head commit and were not counted (not named in bot-approvers). */
  ignoredBots: string[];
  /** The policy files of the commit that applies: the base, or the head once a change is approved. */
  policy: PolicyFiles;
}

interface FactsInput {
  pull: PullRequestInfo;
  baseSha: string;
  headSha: string;
  paths: PolicyPaths;
  /** Logins allowed to approve a policy change; empty: anyone with write access. */
  envelopeReviewers: readonly string[];
  /** Bot accounts whose approval may count like a person's; any other bot's never does. */
  botApprovers: readonly string[];
}

/**
 * The base to judge against: the pull request's base branch as the API names it now, at the
 * branch's current commit (src/core/base.ts decides; the event is only compared with it).
 */
export async function currentBase(source: PullSource, pull: PullRequestInfo, event: EventBase | null): Promise<JudgedBase> {
  const tipSha = await source.branchHead(pull.baseRef);
  return judgedBase(event, { ref: pull.baseRef, pullSha: pull.baseSha, tipSha }, pull.number);
}

export async function policyFilesAt(source: PullSource, paths: PolicyPaths, ref: string, label: string): Promise<PolicyFiles> {
  const [envelope, digest, properties, ledger] = await Promise.all(
    [paths.envelope, paths.digest, paths.properties, paths.ledger].map((p) => source.file(p, ref)),
  );
  return { ref, source: label, envelope: envelope ?? null, digest: digest ?? null, properties: properties ?? null, ledger: ledger ?? null };
}

async function blobIds(source: PullSource, paths: PolicyPaths, ref: string): Promise<Map<string, string | null>> {
  const list = Object.values(paths);
  const ids = await Promise.all(list.map((path) => source.fileId(path, ref)));
  return new Map(list.map((path, i) => [path, ids[i]?.sha ?? null]));
}

export async function gatherPolicyFacts(source: PullSource, input: FactsInput): Promise<PolicyFacts> {
  const { pull, paths } = input;
  const files = await source.pullFiles(pull.number);
  // The listing stops at 3000 files, so policy changes are decided by the policy files' blob ids
  // at base and head; the listing only adds what it shows (renames, a change changed back).
  const [atBase, atHead] = await Promise.all([blobIds(source, paths, input.baseSha), blobIds(source, paths, input.headSha)]);
  const changes = policyBlobChanges(paths, atBase, atHead, policyChanges(files, paths));
  const approvedBy: string[] = [];
  const ignoredBots: string[] = [];
  if (changes.length > 0) {
    for (const { login, type } of headApprovals(await source.reviews(pull.number), input.headSha, pull.author)) {
      if (botExcluded(login, type ?? null, input.botApprovers)) {
        ignoredBots.push(login);
        continue;
      }
      const allowed =
        input.envelopeReviewers.length > 0
          ? listedReviewer(login, input.envelopeReviewers)
          : WRITE_ROLES.has((await source.collaboratorRole(login)) ?? "none");
      if (allowed) approvedBy.push(login);
    }
  }
  const approved = approvedBy.length > 0;
  const policy = await policyFilesAt(
    source,
    paths,
    approved ? input.headSha : input.baseSha,
    approved ? "head commit, policy change approved" : "base commit",
  );
  return { files, filesComplete: files.length >= pull.changedFiles, changes, approvedBy, ignoredBots, policy };
}
