import type { AppContext } from "../context.js";
import { pullRequestHead, type PullRequestPayload } from "../../core/payloads.js";
import { sameHead } from "./pull-request.js";

/**
 * `pull_request_review` submitted: records a ledger PR's first review (it stops the overdue alert).
 * The ledger PR is found by repository and PR number, and its head repository must be the one the
 * App recorded: a review of a fork PR named like the ledger branch touches nothing.
 */
export async function onPullRequestReview(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const head = pullRequestHead(p);
  if (!head || p.action !== "submitted") return "ignored review";
  const pr = await ctx.store.findLedgerPrByPull(head.repository, head.number);
  if (!pr) return "not a ledger PR";
  if (!sameHead(pr, head)) return `not the App's ledger PR ${pr.freeze_id}: head ${head.headRepository ?? "?"}:${head.branch}`;
  await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { first_review_at: ctx.clock.now() }, { first_review_at: null });
  return `ledger PR ${pr.freeze_id} reviewed`;
}
