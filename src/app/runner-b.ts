import { measuredMinutes, refusalDetail } from "../core/budget.js";
import { Refusal, isRefusal, nothingSent } from "../core/errors.js";
import { EVIDENCE_ARTIFACT_NAME } from "../core/evidence.js";
import { type ApiWorkflowRun, type InstallationClient } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import { GitHubUnavailable } from "../github/client.js";
import type { DualRun } from "../store/index.js";
import { codeOf, type AppContext } from "./context.js";
import { decideDualRun, runBAmong, runBSearchSince, runnerBInputs } from "../core/dual-run.js";
import { reportDualRun } from "./dual-run-report.js";
import { respectBudget } from "./rate-budget.js";
import { recordRunRefusal, verifyRunnerB } from "./run-verify.js";

/** How long after a dispatch attempt GitHub's run listing is trusted to show the run it started. */
const DISPATCH_LISTING_LAG_MS = 60_000;

/**
 * Sends runner B's dispatch for a pending dual run; the dispatch goes out at most once per
 * claim, and only after a reservation under runner B's budget is recorded. A dual run that
 * reserved before (a retry, a takeover after a crash) looks for the run its earlier dispatch
 * may have started before sending another.
 */
export async function dispatchRunnerB(ctx: AppContext, id: string): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const now = ctx.clock.now();
  const claimed = await store.claimDualRun(id, "pending", "dispatching", owner, now, settings.leaseMs, {}, { deadline_at: { above: now } });
  if (!claimed) {
    const current = await store.getDualRun(id);
    return `runner B not dispatched here (state ${current?.state ?? "missing"})`;
  }
  const dual = (await store.getDualRun(id)) as DualRun;
  // Paused: no reservation either, so a pause that outlasts the deadline spends nothing of the day's budget.
  const backToPending = (err: unknown) =>
    store.releaseDualRun(id, "dispatching", "pending", owner).then(
      () => Promise.reject(err),
      () => Promise.reject(err),
    );
  const kill = await store.killSwitch().catch(backToPending);
  if (kill.paused) {
    await backToPending(
      new Refusal("KILL_SWITCH_ENGAGED", `the App is paused (${kill.reason ?? "no reason given"}); runner B was not dispatched`),
    );
  }
  // Runner B waits for the installation's GitHub budget only when it is nearly exhausted (the last in the order).
  await respectBudget(ctx, dual.installation_id, "runner_b").catch(backToPending);
  let reserved: Awaited<ReturnType<typeof store.budget.reserve>>;
  try {
    reserved = await store.budget.reserve(
      { dualRunId: id, installationId: dual.installation_id, repository: dual.repository, owner, now: ctx.clock.now() },
      settings.budget,
    );
  } catch (err) {
    return notComparedForBudget(ctx, dual, codeOf(err) === "BUDGET_UNCONFIRMED" ? "BUDGET_UNCONFIRMED" : null, err);
  }
  if (reserved.status === "refused") {
    const detail =
      refusalDetail(
        settings.budget,
        reserved.limits,
        reserved.usage,
        { installation: dual.installation_id, repository: dual.repository },
        ctx.clock.now(),
      ) ?? "the budget refused the reservation";
    return notComparedForBudget(ctx, dual, "RUNNER_B_BUDGET_EXCEEDED", new Refusal("RUNNER_B_BUDGET_EXCEEDED", detail));
  }
  let attemptedAt: number | null = null;
  try {
    const gh = await ctx.installation(dual.installation_id);
    const r = repoRef(dual.repository);
    if (reserved.status === "held") {
      const candidates = await gh.listDispatchedRuns(r, settings.workflow, runBSearchSince(dual));
      const earlier = runBAmong(candidates, dual, settings.workflow, await gh.botLogin());
      if (earlier) {
        const moved = await store.releaseDualRun(id, "dispatching", "waiting", owner, {
          dispatch_mode: "correlation",
          run_b_id: earlier.id,
          run_b_url: earlier.html_url,
          dispatched_at: Date.parse(earlier.created_at) || ctx.clock.now(),
        });
        ctx.log("info", "runner_b.found_earlier_dispatch", { dual_run: id, run_b: earlier.id, recorded: moved });
        return `runner B already dispatched by an earlier attempt (run ${earlier.id}); not sent again`;
      }
      // GitHub lists a new run a little after it starts: an earlier attempt this recent may have
      // started one the listing does not show yet. Look again later rather than send a second.
      const attempted = reserved.reservation.attempted_at;
      const settlesAt = attempted === null ? 0 : attempted + DISPATCH_LISTING_LAG_MS;
      if (ctx.clock.now() < settlesAt) {
        throw new Refusal(
          "DISPATCH_OUTCOME_UNKNOWN",
          `an earlier dispatch attempt for dual run ${id} may have started a run GitHub does not list yet; looking again after ${new Date(settlesAt).toISOString()} before sending another`,
        );
      }
    }
    // The base commit the dispatch runs on, read just before it is sent: runner B must be a run
    // of exactly that commit (run-checks.ts runnerBRun). A base that moves in between makes B
    // unverifiable: no freeze, the property fails.
    const baseSha = await gh.branchSha(r, dual.base_ref);
    if (baseSha === null)
      throw new Refusal("RUNNER_B_UNAVAILABLE", `the base branch ${dual.base_ref} does not exist: runner B cannot be dispatched on it`);
    attemptedAt = ctx.clock.now();
    await store.budget.markAttempt(id, attemptedAt);
    await store.transitionDualRun(
      id,
      ["dispatching"],
      "dispatching",
      { base_sha: baseSha, dispatch_sent_at: attemptedAt },
      { claim_owner: owner },
    );
    const result = await gh.dispatchWorkflow(r, settings.workflow, dual.base_ref, runnerBInputs(dual, settings.runnerBLabels));
    const moved = await store.releaseDualRun(id, "dispatching", "waiting", owner, {
      dispatch_mode: result.mode,
      run_b_id: result.runId,
      run_b_url: result.runUrl,
      dispatched_at: ctx.clock.now(),
    });
    ctx.log("info", "runner_b.dispatched", { dual_run: id, mode: result.mode, run_b: result.runId, recorded: moved });
    return `runner B dispatched (${result.mode}${result.runId === null ? "" : `, run ${result.runId}`})`;
  } catch (err) {
    // A refusal GitHub answered (4xx) or one made before the request left (the kill switch, a
    // drain, a fence, the key) started no run: the next attempt need not wait for the listing.
    if (attemptedAt !== null && !mayHaveStarted(err)) await store.budget.clearAttempt(id, attemptedAt).catch(() => undefined);
    await store.releaseDualRun(id, "dispatching", "pending", owner);
    ctx.log("warn", "runner_b.dispatch_failed", { dual_run: id, code: codeOf(err), message: (err as Error).message });
    throw err;
  }
}

/**
 * Whether a failed dispatch request may still have started a run: anything but an answer
 * GitHub gave with a 4xx status, or a refusal before the request was sent.
 */
function mayHaveStarted(err: unknown): boolean {
  if (err instanceof GitHubUnavailable) return err.status === null || err.status >= 500;
  return !(isRefusal(err) && nothingSent(err.code));
}

/**
 * No dispatch: the budget refused it, or could not be confirmed. The dual run ends "not
 * compared (budget)" (the property fails, nothing is frozen) and its check run says why. When
 * even that cannot be recorded (the store is gone), the error is thrown with its code: the
 * claim lapses and a later attempt reserves again; nothing was sent either way.
 */
async function notComparedForBudget(
  ctx: AppContext,
  dual: DualRun,
  code: "RUNNER_B_BUDGET_EXCEEDED" | "BUDGET_UNCONFIRMED" | null,
  err: unknown,
): Promise<string> {
  const owner = ctx.settings.replicaId;
  if (code === null) {
    await ctx.store.releaseDualRun(dual.id, "dispatching", "pending", owner).catch(() => false);
    throw err;
  }
  const detail = (err as Error).message;
  ctx.log("warn", "runner_b.not_dispatched", { dual_run: dual.id, repository: dual.repository, code, detail });
  let moved: boolean;
  try {
    moved = await ctx.store.releaseDualRun(dual.id, "dispatching", "decided", owner, {
      outcome: "not_compared_budget",
      outcome_code: code,
      outcome_detail: `runner B was not dispatched: ${detail}; the property fails, nothing is frozen`,
      decided_at: ctx.clock.now(),
    });
  } catch {
    throw err;
  }
  if (!moved) return `dual run ${dual.id}: not compared (${code}), decided elsewhere`;
  const reported = await reportDualRun(ctx, dual.id);
  return `dual run ${dual.id}: not compared (${code}); ${reported}`;
}

/**
 * Charges runner B's dispatch its real minutes, read from GitHub's timing of the finished run.
 * A run whose timing cannot be read stays charged at the maximum (the budget's safe side).
 */
export async function settleRunB(
  ctx: AppContext,
  gh: InstallationClient,
  dual: DualRun,
  runBId: number,
  read: ApiWorkflowRun | null = null,
): Promise<number | null> {
  try {
    // The completed run as compareRunB already read and verified it, else read now (the sweeper).
    const run =
      read !== null && read.id === runBId && read.status === "completed" ? read : await gh.getRun(repoRef(dual.repository), runBId);
    const minutes = measuredMinutes(run, ctx.settings.budget.maxRunMinutes);
    if (minutes === null) return null;
    await ctx.store.budget.settle(dual.id, runBId, minutes, ctx.clock.now());
    return minutes;
  } catch (err) {
    ctx.log("warn", "budget.settle_failed", { dual_run: dual.id, run_b: runBId, code: codeOf(err), message: (err as Error).message });
    return null;
  }
}

/**
 * Runner B finished: downloads both bundles, verifies and compares them, records the decision
 * and reports it. Only runner B's recorded run (or the first one named) is compared, before
 * the deadline.
 */
export async function compareRunB(ctx: AppContext, dual: DualRun, runBId: number, runBUrl: string | null): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  // Only a run the App's dispatch started is runner B: re-read through the API and held to
  // what was recorded at the dispatch. Anything else is refused and never compared; the dual
  // run keeps waiting for its real runner B (or its deadline).
  const verified = await verifyRunnerB(ctx, await ctx.installation(dual.installation_id), dual, runBId);
  if (verified.refusal !== null) {
    await recordRunRefusal(ctx, "runner_b", dual.repository, verified.run, verified.refusal, dual.id);
    return `refused: ${verified.refusal.code}: ${verified.refusal.reason}`;
  }
  if (verified.run.status !== "completed") return `dual run ${dual.id}: runner B's run ${runBId} is ${verified.run.status} on GitHub`;
  const now = ctx.clock.now();
  const claimed = await store.claimDualRun(
    dual.id,
    "waiting",
    "comparing",
    owner,
    now,
    settings.leaseMs,
    { run_b_id: runBId, run_b_url: runBUrl ?? dual.run_b_url },
    { deadline_at: { above: now }, run_b_id: { nullOr: runBId } },
  );
  if (!claimed) {
    const current = await store.getDualRun(dual.id);
    return `dual run ${dual.id}: runner B's completion not compared here (state ${current?.state ?? "missing"}${current && current.deadline_at <= now ? ", deadline passed" : ""})`;
  }
  let decided: ReturnType<typeof decideDualRun>;
  try {
    const gh = await ctx.installation(dual.installation_id);
    const r = repoRef(dual.repository);
    await settleRunB(ctx, gh, dual, runBId, verified.run);
    const zipA = await gh.downloadArtifact(r, dual.run_a_id, EVIDENCE_ARTIFACT_NAME);
    const zipB = await gh.downloadArtifact(r, runBId, EVIDENCE_ARTIFACT_NAME);
    decided = decideDualRun(dual, zipA, zipB);
  } catch (err) {
    await store.releaseDualRun(dual.id, "comparing", "waiting", owner);
    throw err;
  }
  const { decision, bundleB } = decided;
  const moved = await store.releaseDualRun(dual.id, "comparing", "decided", owner, {
    outcome: decision.outcome,
    outcome_code: decision.code,
    outcome_detail: decision.detail,
    results: JSON.stringify({ results: decision.results, eligible: decision.eligible }),
    evidence_b: bundleB?.digest ?? null,
    runner_b: bundleB ? JSON.stringify(bundleB.runner) : null,
    decided_at: ctx.clock.now(),
  });
  ctx.log(decision.code ? "warn" : "info", "dual_run.decided", {
    dual_run: dual.id,
    outcome: decision.outcome,
    code: decision.code,
    detail: decision.detail,
  });
  if (!moved) return `dual run ${dual.id}: decided elsewhere`;
  const reported = await reportDualRun(ctx, dual.id);
  return `dual run ${dual.id}: ${decision.outcome}; ${reported}`;
}
