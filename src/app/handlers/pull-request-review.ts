import type { AppContext } from "../context.js";
import type { PullRequestPayload } from "../payloads.js";

/** `pull_request_review` submitted: records a ledger PR's first review (it stops the overdue alert). */
export async function onPullRequestReview(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const repository = p.repository?.full_name;
  const branch = p.pull_request?.head?.ref;
  if (!repository || !branch || p.action !== "submitted") return "ignored review";
  const pr = await ctx.store.findLedgerPrByBranch(repository, branch);
  if (!pr) return "not a ledger PR";
  await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { first_review_at: ctx.clock.now() }, { sql: "first_review_at IS NULL", params: [] });
  return `ledger PR ${pr.freeze_id} reviewed`;
}
