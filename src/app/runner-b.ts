import { EVIDENCE_ARTIFACT_NAME } from "../core/evidence.js";
import { repoRef } from "../github/app-client.js";
import type { DualRun } from "../store/index.js";
import { codeOf, type AppContext } from "./context.js";
import { decideDualRun, runnerBInputs } from "./dual-run.js";
import { reportDualRun } from "./report.js";

/** Sends runner B's dispatch for a pending dual run; the dispatch goes out at most once per claim. */
export async function dispatchRunnerB(ctx: AppContext, id: string): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const now = ctx.clock.now();
  const claimed = await store.claimDualRun(
    id,
    "pending",
    "dispatching",
    owner,
    now,
    settings.leaseMs,
    {},
    { sql: "deadline_at > ?", params: [now] },
  );
  if (!claimed) {
    const current = await store.getDualRun(id);
    return `runner B not dispatched here (state ${current?.state ?? "missing"})`;
  }
  const dual = (await store.getDualRun(id)) as DualRun;
  try {
    const gh = await ctx.installation(dual.installation_id);
    const result = await gh.dispatchWorkflow(
      repoRef(dual.repository),
      settings.workflow,
      dual.base_ref,
      runnerBInputs(dual, settings.runnerBLabels),
    );
    const moved = await store.releaseDualRun(id, "dispatching", "waiting", owner, {
      dispatch_mode: result.mode,
      run_b_id: result.runId,
      run_b_url: result.runUrl,
      dispatched_at: ctx.clock.now(),
    });
    ctx.log("info", "runner_b.dispatched", { dual_run: id, mode: result.mode, run_b: result.runId, recorded: moved });
    return `runner B dispatched (${result.mode}${result.runId === null ? "" : `, run ${result.runId}`})`;
  } catch (err) {
    await store.releaseDualRun(id, "dispatching", "pending", owner);
    ctx.log("warn", "runner_b.dispatch_failed", { dual_run: id, code: codeOf(err), message: (err as Error).message });
    throw err;
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
  const now = ctx.clock.now();
  const claimed = await store.claimDualRun(
    dual.id,
    "waiting",
    "comparing",
    owner,
    now,
    settings.leaseMs,
    { run_b_id: runBId, run_b_url: runBUrl ?? dual.run_b_url },
    { sql: "deadline_at > ? AND (run_b_id IS NULL OR run_b_id = ?)", params: [now, runBId] },
  );
  if (!claimed) {
    const current = await store.getDualRun(dual.id);
    return `dual run ${dual.id}: runner B's completion not compared here (state ${current?.state ?? "missing"}${current && current.deadline_at <= now ? ", deadline passed" : ""})`;
  }
  let decided: ReturnType<typeof decideDualRun>;
  try {
    const gh = await ctx.installation(dual.installation_id);
    const r = repoRef(dual.repository);
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
