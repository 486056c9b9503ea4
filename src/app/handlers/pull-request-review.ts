import type { AppContext } from "../context.js";
import { pullRequestHead, type PullRequestPayload } from "../payloads.js";

/** `pull_request_review` submitted: records a ledger PR's first review (it stops the overdue alert). */
export async function onPullRequestReview(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const head = pullRequestHead(p);
  if (!head || p.action !== "submitted") return "ignored review";
  const pr = await ctx.store.findLedgerPrByBranch(head.repository, head.branch);
  if (!pr) return "not a ledger PR";
  await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["opened"],
    "opened",
    { first_review_at: ctx.clock.now() },
    { sql: "first_review_at IS NULL", params: [] },
  );
  return `ledger PR ${pr.freeze_id} reviewed`;
}
