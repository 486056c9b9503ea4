import type { AppContext } from "../context.js";
import { onUngateReview } from "../gate-memory.js";
import { onGateChange } from "../verified-check.js";
import { pullRequestHead, type PullRequestPayload } from "../../core/payloads.js";
import { sameHead } from "./pull-request.js";

/**
 * `pull_request_review`: an ungate command (submitted) or its withdrawal (dismissed), the verdict on
 * the head of a pull request held gated made again (verified-check.ts onGateChange), and, submitted,
 * a ledger PR's first review (it stops the overdue alert).
 * The ledger PR is found by repository and PR number, and its head repository must be the one the
 * App recorded: a review of a fork PR named like the ledger branch touches nothing.
 */
export async function onPullRequestReview(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  // A review may ungate a gated pull request (app/gate-memory.ts), whatever else it is; a verdict
  // on its head that the reviews decide is made again (an ungate, its dismissal, an edited body).
  const ungate = await onUngateReview(ctx, p);
  const regated = await onGateChange(ctx, p);
  const outcome = await onLedgerReview(ctx, p);
  return [ungate, regated, outcome].filter((x) => x !== null).join("; ");
}

async function onLedgerReview(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const head = pullRequestHead(p);
  if (!head || p.action !== "submitted") return "ignored review";
  const pr = await ctx.store.findLedgerPrByPull(head.repository, head.number);
  if (!pr) return "not a ledger PR";
  if (!sameHead(pr, head)) return `not the App's ledger PR ${pr.freeze_id}: head ${head.headRepository ?? "?"}:${head.branch}`;
  await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { first_review_at: ctx.clock.now() }, { first_review_at: null });
  return `ledger PR ${pr.freeze_id} reviewed`;
}
