/**
 * Merging a pull request in the GitHub fake, as the merge button does ("Create a merge commit"):
 * a new commit on the base branch whose parents are the base's tip and the pull request's head,
 * whose tree is the head's (the pull request was branched from the base's tip, or from one of
 * its ancestors with nothing on the base since: the only merge modelled), and the pull request
 * closed. Bytes are copied, never re-encoded: what the pull request proposed is what the base
 * then holds.
 */
import type { FakeGitHub } from "./fake-github.js";

export interface Merged {
  /** The merge commit, now the base branch's tip. */
  sha: string;
  /** The base branch's tip before the merge. */
  before: string;
}

/** Whether `ancestor` is `sha` or reachable from it through parents. */
function reaches(fake: FakeGitHub, fullName: string, sha: string, ancestor: string): boolean {
  const repo = fake.repo(fullName);
  const queue = [sha];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const next = queue.shift() as string;
    if (next === ancestor) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(repo.commits.get(next)?.parents ?? []));
  }
  return false;
}

export function mergePull(fake: FakeGitHub, fullName: string, number: number, message = `Merge pull request #${number}`): Merged {
  const repo = fake.repo(fullName);
  const pull = repo.pulls.get(number);
  if (pull === undefined) throw new Error(`fake merge: no pull request #${number}`);
  if (pull.state !== "open") throw new Error(`fake merge: #${number} is ${pull.state}`);
  const before = repo.refs.get(`heads/${pull.base.ref}`);
  if (before === undefined) throw new Error(`fake merge: no branch ${pull.base.ref}`);
  // The pull request's head is what its branch points at now (the App may have moved it).
  const head = repo.refs.get(`heads/${pull.head.ref}`) ?? pull.head.sha;
  if (!reaches(fake, fullName, head, before)) {
    throw new Error(`fake merge: ${pull.base.ref} moved past #${number}'s branch point; a three-way merge is not modelled`);
  }
  const commit = repo.commits.get(head);
  if (commit === undefined) throw new Error(`fake merge: no commit ${head}`);
  // A commit with the head's tree and two parents; its sha is made from them, as git's is.
  const sha = fake.commit(fullName, {}, { parent: head, message });
  const made = repo.commits.get(sha);
  if (made === undefined || made.tree !== commit.tree) throw new Error("fake merge: the merge commit's tree is not the head's");
  made.parents = [before, head];
  repo.refs.set(`heads/${pull.base.ref}`, sha);
  pull.state = "closed";
  return { sha, before };
}
