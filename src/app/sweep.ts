import { budgetDay, parseScopeKey } from "../core/budget.js";
import { type WorkflowRunInfo } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import type { DualRun } from "../store/index.js";
import { codeOf, type AppContext } from "./context.js";
import { deadlineMissedDetail, runBAmong, runBSearchSince } from "../core/dual-run.js";
import { reviewOverdue, reviewOverdueComment } from "../core/freeze.js";
import { reportDualRun } from "./dual-run-report.js";
import { compareRunB, dispatchRunnerB, settleRunB } from "./runner-b.js";

/** What the sweeper did on one pass; errors are per item, and the item keeps its state. */
export interface SweepReport {
  expired: string[];
  dispatched: string[];
  correlated: string[];
  compared: string[];
  reported: string[];
  reviewAlerts: string[];
  /** Switches whose state differed from their recorded history: `reverted` or `adopted` (a tightening kept). */
  switches?: string[];
  /** Runner-B dispatches whose minutes were read from GitHub's timing on this pass. */
  measured?: string[];
  /** Recorded deliveries the sweeper processed (queued, or orphaned by a gone process). */
  deliveries?: string[];
  errors: { item: string; code: string; message: string }[];
}

/**
 * One pass: expire dual runs past their deadline (RUNNER_B_UNAVAILABLE, no freeze), send
 * dispatches that could not go out, find runner B's run where GitHub gave no id, pick up
 * completions whose webhook never came, finish reports, and flag PRs waiting for review.
 */
export async function sweep(ctx: AppContext): Promise<SweepReport> {
  const report: SweepReport = { expired: [], dispatched: [], correlated: [], compared: [], reported: [], reviewAlerts: [], errors: [] };
  const attempt = async (item: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      report.errors.push({ item, code: codeOf(err), message: (err as Error).message });
      ctx.log("error", "sweep.item_failed", { item, code: codeOf(err), message: (err as Error).message });
    }
  };
  const now = ctx.clock.now();
  // First, so a pause cleared behind the App's back is restored before anything below sends.
  // A watchdog that cannot run (the store, an unreadable history row) is a sweep error; what it
  // guards still holds: every send reads the recorded pause, every reservation the recorded cap.
  report.switches = [];
  await attempt("switch watchdog", async () => {
    report.switches = await watchSwitches(ctx, now);
  });
  report.expired = await expireMissedDeadlines(ctx, now);
  for (const dual of await ctx.store.listDualRuns(["pending"])) {
    await attempt(dual.id, async () => {
      const result = await dispatchRunnerB(ctx, dual.id);
      if (result.startsWith("runner B dispatched")) report.dispatched.push(dual.id);
    });
  }
  for (const dual of await ctx.store.listDualRuns(["waiting"])) {
    await attempt(dual.id, () => followRunB(ctx, dual, report));
  }
  for (const dual of await ctx.store.listDualRuns(["decided", "reporting"])) {
    await attempt(dual.id, async () => {
      const result = await reportDualRun(ctx, dual.id);
      if (result !== "reported elsewhere") report.reported.push(dual.id);
    });
  }
  for (const pr of await ctx.store.listLedgerPrs(["opened"])) {
    if (pr.review_alerted_at !== null || !reviewOverdue(pr, now, ctx.settings.reviewAlertMs)) continue;
    const openedAt = pr.opened_at as number;
    await attempt(pr.freeze_id, async () => {
      const claimed = await ctx.store.transitionLedgerPr(
        pr.lock_key,
        ["opened"],
        "opened",
        { review_alerted_at: now },
        { review_alerted_at: null },
      );
      if (!claimed) return;
      const hours = Math.floor((now - openedAt) / 3_600_000);
      ctx.log("error", "ledger_pr.review_overdue", {
        freeze_id: pr.freeze_id,
        repository: pr.repository,
        pull: pr.pr_number,
        waited_hours: hours,
      });
      report.reviewAlerts.push(pr.freeze_id);
      const gh = await ctx.installation(pr.installation_id);
      const r = repoRef(pr.repository);
      await gh.comment(r, pr.pr_number as number, reviewOverdueComment(hours, ctx.settings.reviewers, ctx.settings.teamReviewers, r.owner));
    });
  }
  report.measured = [];
  await attempt("budget usage", async () => {
    report.measured = await refreshUsage(ctx, now);
  });
  return report;
}

/**
 * The watchdog on the switches: each switch is compared with its latest recorded change. A
 * change nobody recorded that loosens (a pause cleared, a cap raised or removed) is reverted;
 * one that tightens is kept and recorded. Both are logged as errors with their code.
 */
async function watchSwitches(ctx: AppContext, now: number): Promise<string[]> {
  const { budget } = ctx.settings;
  const defaults = (scope: string) => (parseScopeKey(scope)?.kind === "repository" ? budget.repository : budget.installation);
  const done: string[] = [];
  for (const drift of await ctx.store.switches.drift(defaults)) {
    const answer = await ctx.store.switches.answer(drift, now);
    if (answer === null) continue;
    done.push(`${drift.switch}: ${answer}`);
    ctx.log("error", "switch.unrecorded_change", {
      code: "SWITCH_UNRECORDED_CHANGE",
      switch: drift.switch,
      found: drift.found,
      recorded: drift.recorded,
      action: answer,
    });
  }
  return done;
}

/**
 * Reads GitHub's timing of today's finished runner-B runs whose reading is missing or past
 * half its trust window, so the budget charges real minutes. A run that cannot be read keeps
 * its old charge until its reading goes stale; then it counts at the maximum.
 */
async function refreshUsage(ctx: AppContext, now: number): Promise<string[]> {
  const measured: string[] = [];
  const stale = now - ctx.settings.budget.freshMs / 2;
  for (const reservation of await ctx.store.budget.unsettled(budgetDay(now), stale, 20)) {
    const dual = await ctx.store.getDualRun(reservation.dual_run_id);
    const runB = reservation.run_b_id;
    if (!dual || runB === null) continue;
    const gh = await ctx.installation(dual.installation_id);
    if ((await settleRunB(ctx, gh, dual, runB)) !== null) measured.push(dual.id);
  }
  return measured;
}

/** Dual runs past their deadline are decided RUNNER_B_UNAVAILABLE (a held one once its claim lapsed). */
async function expireMissedDeadlines(ctx: AppContext, now: number): Promise<string[]> {
  const expired: string[] = [];
  for (const dual of await ctx.store.listDualRuns(["pending", "dispatching", "waiting", "comparing"])) {
    if (dual.deadline_at > now) continue;
    const held = dual.state === "dispatching" || dual.state === "comparing";
    const moved = await ctx.store.transitionDualRun(
      dual.id,
      held ? [dual.state] : ["pending", "waiting"],
      "decided",
      {
        claim_owner: null,
        claim_until: null,
        outcome: "runner_b_unavailable",
        outcome_code: "RUNNER_B_UNAVAILABLE",
        outcome_detail: deadlineMissedDetail(dual),
        decided_at: now,
      },
      held ? { deadline_at: { atMost: now }, claimLapsedAt: now } : { deadline_at: { atMost: now } },
    );
    if (moved) {
      expired.push(dual.id);
      ctx.log("warn", "dual_run.expired", { dual_run: dual.id, code: "RUNNER_B_UNAVAILABLE" });
    }
  }
  return expired;
}

/** A waiting dual run: find runner B's run if GitHub gave no id, and compare it once it completed. */
async function followRunB(ctx: AppContext, dual: DualRun, report: SweepReport): Promise<void> {
  const gh = await ctx.installation(dual.installation_id);
  const r = repoRef(dual.repository);
  let run: WorkflowRunInfo | null;
  if (dual.run_b_id === null) {
    const candidates = await gh.listDispatchedRuns(r, ctx.settings.workflow, runBSearchSince(dual));
    run = runBAmong(candidates, dual, ctx.settings.workflow, await gh.botLogin());
    if (run === null) return;
    const set = await ctx.store.transitionDualRun(
      dual.id,
      ["waiting"],
      "waiting",
      { run_b_id: run.id, run_b_url: run.html_url },
      { run_b_id: null },
    );
    if (set) report.correlated.push(dual.id);
  } else {
    run = await gh.getRun(r, dual.run_b_id);
  }
  if (run.status === "completed") {
    const fresh = (await ctx.store.getDualRun(dual.id)) as DualRun;
    await compareRunB(ctx, fresh, run.id, run.html_url);
    report.compared.push(dual.id);
  }
}
