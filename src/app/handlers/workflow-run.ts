import { EVIDENCE_ARTIFACT_NAME } from "../../core/evidence.js";
import { repoRef } from "../../github/app-client.js";
import { readEvidenceZip, type VerifiedBundle } from "../bundle.js";
import type { AppContext } from "../context.js";
import { dualRunForRunA, isGateWorkflow } from "../dual-run.js";
import type { WorkflowRunEvent, WorkflowRunPayload } from "../payloads.js";
import { compareRunB, dispatchRunnerB } from "../runner-b.js";

/**
 * `workflow_run` completed: runner A (a failing gate run) starts a dual run and dispatches
 * runner B; runner B (a run the App dispatched) is compared with A.
 */
export async function onWorkflowRun(ctx: AppContext, p: WorkflowRunPayload): Promise<string> {
  const run = p.workflow_run;
  const repository = p.repository?.full_name;
  const installationId = p.installation?.id;
  if (p.action !== "completed" || !run || !repository || installationId === undefined) return "ignored: not a completed run";
  if (!isGateWorkflow(run.path, ctx.settings.workflow)) return `ignored: workflow ${run.path ?? "?"} is not ${ctx.settings.workflow}`;
  const known = await ctx.store.findDualRunByRunB(repository, run.id);
  if (known) return compareRunB(ctx, known, run.id, run.html_url ?? null);
  if (run.event !== "workflow_dispatch" && run.conclusion !== "failure") return `ignored: run ${run.id} concluded ${run.conclusion}`;
  const gh = await ctx.installation(installationId);
  const zip = await gh.downloadArtifact(repoRef(repository), run.id, EVIDENCE_ARTIFACT_NAME);
  if (zip === null) {
    if (run.event === "workflow_dispatch") return `ignored: dispatched run ${run.id} has no evidence artifact`;
    return `ignored: run ${run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (no freeze without evidence)`;
  }
  const bundle = readEvidenceZip(zip);
  const dualRunId = (bundle.runner.dual_run_id ?? "").trim();
  if (dualRunId !== "") return onRunNamingDualRun(ctx, run, repository, dualRunId);
  return onRunA(ctx, p, run, repository, installationId, bundle);
}

/**
 * Only a run the App dispatched counts as runner B: a workflow_dispatch run on the base
 * branch, whose workflow file a pull request cannot change. A pull_request run claiming a
 * dual run id is the PR's own workflow speaking, and is ignored.
 */
async function onRunNamingDualRun(ctx: AppContext, run: WorkflowRunEvent, repository: string, dualRunId: string): Promise<string> {
  if (run.event !== "workflow_dispatch") {
    ctx.log("warn", "runner_b.refused", { run: run.id, run_event: run.event, dual_run: dualRunId, reason: "not a workflow_dispatch run" });
    return `ignored: run ${run.id} (${run.event ?? "?"}) names dual run ${dualRunId} but was not dispatched`;
  }
  const dual = await ctx.store.getDualRun(dualRunId);
  if (!dual) return `ignored: run ${run.id} names unknown dual run ${dualRunId}`;
  if (dual.repository.toLowerCase() !== repository.toLowerCase()) return `ignored: dual run ${dualRunId} belongs to ${dual.repository}`;
  if (run.head_branch !== undefined && run.head_branch !== dual.base_ref) {
    ctx.log("warn", "runner_b.refused", {
      run: run.id,
      dual_run: dualRunId,
      reason: `ran on ${run.head_branch}, dispatched on ${dual.base_ref}`,
    });
    return `ignored: run ${run.id} ran the workflow from ${run.head_branch}, runner B is dispatched on ${dual.base_ref}`;
  }
  return compareRunB(ctx, dual, run.id, run.html_url ?? null);
}

/** Runner A: a clean envelope with a failing property records a dual run and dispatches runner B. */
async function onRunA(
  ctx: AppContext,
  p: WorkflowRunPayload,
  run: WorkflowRunEvent,
  repository: string,
  installationId: number,
  bundle: VerifiedBundle,
): Promise<string> {
  const next = dualRunForRunA(p, run, repository, installationId, bundle, ctx.clock.now(), ctx.settings.deadlineMs);
  if ("skip" in next) return next.skip;
  const inserted = await ctx.store.insertDualRun(next.record);
  ctx.log("info", inserted ? "dual_run.recorded" : "dual_run.redelivered", {
    dual_run: next.record.id,
    repository,
    properties: next.failing,
  });
  const dispatched = await dispatchRunnerB(ctx, next.record.id);
  return `dual run ${next.record.id}: ${dispatched}`;
}
