import type { AppContext } from "../context.js";
import { pullRequestHead, type PullRequestPayload } from "../payloads.js";

/** `pull_request` closed: a ledger PR was merged or closed. */
export async function onPullRequest(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const head = pullRequestHead(p);
  if (!head || p.action !== "closed") return "ignored pull_request";
  const pr = await ctx.store.findLedgerPrByBranch(head.repository, head.branch);
  if (!pr) return "not a ledger PR";
  const merged = p.pull_request?.merged === true;
  await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], merged ? "merged" : "closed", { closed_at: ctx.clock.now() });
  return `ledger PR ${pr.freeze_id} ${merged ? "merged" : "closed"}`;
}
