/**
 * Whether a commit is on a branch's first-parent history: the commits that were the branch's tip
 * (a merge's first parent is the branch it was made on). Pure: the caller lists the commits.
 */

/** The answer, or the commit whose parents the walk needs next. */
export type FirstParentAnswer = { on: boolean } | { missing: string };

/**
 * Walks from `tip` through first parents, looking for `sha` among the first `limit` commits
 * (`tip` is the first). `parents`: each listed commit's parents, first parent first.
 */
export function onFirstParentHistory(
  parents: ReadonlyMap<string, readonly string[]>,
  tip: string,
  sha: string,
  limit: number,
): FirstParentAnswer {
  let at: string | null = tip;
  for (let walked = 0; at !== null && walked < limit; walked++) {
    if (at === sha) return { on: true };
    const own = parents.get(at);
    if (own === undefined) return { missing: at };
    at = own[0] ?? null;
  }
  return { on: false };
}
