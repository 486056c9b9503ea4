import { repoRef } from "../github/repo.js";
import type { DualRun, LedgerPr } from "../store/index.js";
import { describeProposal, dualRunCheck } from "../core/check-run.js";
import type { AppContext } from "./context.js";
import { eligibleComparisons } from "../core/dual-run.js";
import { proposeFreeze } from "./ledger-pr.js";

/** Finishes a decided dual run: ledger PRs (or shadow proposals) and the dual-run check run. */
export async function reportDualRun(ctx: AppContext, id: string): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const claimed = await store.claimDualRun(id, "decided", "reporting", owner, ctx.clock.now(), settings.leaseMs);
  if (!claimed) return "reported elsewhere";
  const dual = (await store.getDualRun(id)) as DualRun;
  try {
    const gh = await ctx.installation(dual.installation_id);
    const lines: string[] = [];
    const proposals: LedgerPr[] = [];
    let allSettled = true;
    if (dual.outcome === "freeze_eligible") {
      for (const { property, comparison } of eligibleComparisons(dual)) {
        const pr = await proposeFreeze(ctx, gh, dual, property, comparison);
        if (pr.state === "claimed") allSettled = false;
        lines.push(describeProposal(pr));
        proposals.push(pr);
      }
    }
    if (!allSettled) {
      await store.releaseDualRun(id, "reporting", "decided", owner);
      return "a ledger PR is being opened by another replica; the sweeper finishes the report";
    }
    const mode = await store.installationMode(dual.installation_id);
    const checkRunId = await gh.createCheckRun(
      repoRef(dual.repository),
      dualRunCheck(settings.checkName, dual, lines, mode ?? "shadow", proposals),
    );
    await store.releaseDualRun(id, "reporting", "done", owner, { done_at: ctx.clock.now(), check_run_id: checkRunId });
    return lines.length > 0 ? lines.join("; ") : "check run posted";
  } catch (err) {
    await store.releaseDualRun(id, "reporting", "decided", owner);
    throw err;
  }
}
