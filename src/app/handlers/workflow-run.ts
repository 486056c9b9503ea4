import { EVIDENCE_ARTIFACT_NAME } from "../../core/evidence.js";
import { type ApiWorkflowRun, type InstallationClient, type RunEvidence } from "../../github/app-client.js";
import { repoRef } from "../../github/repo.js";
import { readEvidenceZip } from "../../core/evidence.js";
import { onAuditRun } from "../envelope-pr.js";
import type { AppContext } from "../context.js";
import { dualRunForRunA, dualRunIdInTitle, isGateWorkflow } from "../../core/dual-run.js";
import type { WorkflowRunPayload } from "../../core/payloads.js";
import { compareRunB, dispatchRunnerB } from "../runner-b.js";
import { gateWorkflowPath } from "../../core/run-checks.js";
import { recordRunRefusal, verifyRunnerA, type VerifiedRunA } from "../run-verify.js";
import { postVerifiedCheck } from "../verified-check.js";

/**
 * `workflow_run` completed. The payload only names the run: the App reads it again through
 * GitHub's API and decides from that. A `workflow_dispatch` run can only be runner B (a run
 * the App's own dispatch started, run-checks.ts `runnerBRun`); a `pull_request` or `pull_request_review` run of the base's
 * workflow file on the pull request's current head is runner A (`verifyRunnerA`); a `push` run
 * is judged as an audit run for the envelope PR (envelope-pr.ts); anything else is refused,
 * recorded, and never starts a dual run.
 */
export async function onWorkflowRun(ctx: AppContext, p: WorkflowRunPayload): Promise<string> {
  const hint = p.workflow_run;
  const repository = p.repository?.full_name;
  const installationId = p.installation?.id;
  if (p.action !== "completed" || !hint || !repository || installationId === undefined) return "ignored: not a completed run";
  // A cheap filter on the payload; what counts is the path the API reports (verified below).
  if (!isGateWorkflow(hint.path, ctx.settings.workflow)) return `ignored: workflow ${hint.path ?? "?"} is not ${ctx.settings.workflow}`;
  const known = await ctx.store.findDualRunByRunB(repository, hint.id);
  if (known) return compareRunB(ctx, known, hint.id, hint.html_url ?? null);
  const gh = await ctx.installation(installationId);
  const run = await gh.getRun(repoRef(repository), hint.id);
  if (run.status !== "completed") return `ignored: run ${run.id} is ${run.status} on GitHub`;
  // A push run is never runner A; on the default branch with an audit bundle it feeds the envelope PR.
  if (run.event === "push") return onAuditRun(ctx, gh, run, repository, installationId);
  if (run.event === "workflow_dispatch") {
    const dualRunId = dualRunIdInTitle(run.display_title);
    if (dualRunId !== null) return onRunNamingDualRun(ctx, run, repository, dualRunId);
  }
  return onRunA(ctx, gh, run, repository, installationId);
}

/** A dispatched run named after a dual run: compared only if it is that dual run's runner B (compareRunB verifies it). */
async function onRunNamingDualRun(ctx: AppContext, run: ApiWorkflowRun, repository: string, dualRunId: string): Promise<string> {
  const dual = await ctx.store.getDualRun(dualRunId);
  if (!dual || dual.repository.toLowerCase() !== repository.toLowerCase()) {
    const refusal = {
      code: "RUNNER_B_UNVERIFIED" as const,
      reason: `run ${run.id} names dual run ${dualRunId}, which ${repository} does not have`,
    };
    await recordRunRefusal(ctx, "runner_b", repository, run, refusal, dualRunId);
    return `refused: ${refusal.code}: ${refusal.reason}`;
  }
  return compareRunB(ctx, dual, run.id, run.html_url ?? null);
}

/**
 * Runner A: verified against the API. Every pull_request or pull_request_review run gets the App's verified check;
 * a verified run that failed a property with a clean envelope records a dual run and
 * dispatches runner B.
 */
async function onRunA(
  ctx: AppContext,
  gh: InstallationClient,
  run: ApiWorkflowRun,
  repository: string,
  installationId: number,
): Promise<string> {
  const verdict = await verifyRunnerA(ctx, gh, repository, run);
  if (!verdict.verified) await recordRunRefusal(ctx, "runner_a", repository, run, verdict.refusal);
  // The evidence, downloaded at most once for the dual run and the verified check.
  let read: Promise<RunEvidence> | null = null;
  const evidence = () => (read ??= gh.runEvidence(repoRef(repository), run, EVIDENCE_ARTIFACT_NAME));
  let outcome: string;
  let failed: { err: unknown } | null = null;
  if (!verdict.verified) outcome = `refused: ${verdict.refusal.code}: ${verdict.refusal.reason}`;
  else if (run.conclusion !== "failure") outcome = `runner A ${run.id} verified; it concluded ${run.conclusion ?? "nothing"}: no dual run`;
  else {
    // The dual run first: a pause or a drain stops it where it stops today (recorded, not sent).
    try {
      const got = await evidence();
      outcome = await startDualRun(ctx, verdict.a, repository, installationId, got.kind === "zip" ? got.zip : null);
    } catch (err) {
      failed = { err };
      outcome = "";
    }
  }
  // The verified check even when the dual run failed (a tampered bundle is a failing check);
  // when both fail, the dual run's error is the delivery's.
  let checked = "";
  try {
    checked = await postVerifiedCheck(ctx, gh, repository, run, verdict, evidence, gateWorkflowPath(ctx.settings.workflow));
  } catch (err) {
    if (failed === null) throw err;
  }
  if (failed !== null) throw failed.err;
  return checked === "" ? outcome : `${outcome}; ${checked}`;
}

async function startDualRun(
  ctx: AppContext,
  a: VerifiedRunA,
  repository: string,
  installationId: number,
  zip: Uint8Array | null,
): Promise<string> {
  if (zip === null) return `ignored: run ${a.run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (no freeze without evidence)`;
  const bundle = readEvidenceZip(zip);
  const next = dualRunForRunA(a, repository, installationId, bundle, ctx.clock.now(), ctx.settings.deadlineMs);
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
