import { type ApiPull, type ApiWorkflowRun, type InstallationClient, type TreeAt } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import type { DualRun } from "../store/index.js";
import type { VerifiedRunA } from "../core/dual-run.js";
import type { AppContext } from "./context.js";
import { compareScopes, walkLocalUses } from "../core/local-uses.js";
import { gateWorkflowPath, runnerAPull, runnerARun, runnerAWorkflow, runnerBRun, type RunRefusal } from "../core/run-checks.js";

/**
 * Gathers from GitHub's API what run-checks.ts decides on. Only GitHub's answers count: the
 * webhook payload names the run, the evidence bundle is read only after the run verified.
 * A read that fails throws (GITHUB_UNAVAILABLE): the delivery is retried, nothing is decided.
 */

/** Runner A as GitHub has it: the run, its pull request (open, head = the run's commit) and the base commit. */
export type { VerifiedRunA };

export type RunAVerdict =
  { verified: true; a: VerifiedRunA } | { verified: false; refusal: RunRefusal; run: ApiWorkflowRun; pull: ApiPull | null };

/** `run` is GitHub's answer to GET /actions/runs/{id} (never the webhook's copy). */
export async function verifyRunnerA(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  run: ApiWorkflowRun,
): Promise<RunAVerdict> {
  const r = repoRef(repository);
  const first = runnerARun(run, repository, ctx.settings.workflow);
  if ("code" in first) return { verified: false, refusal: first, run, pull: null };
  const pull = await gh.readPull(r, first.pullNumber);
  const second = runnerAPull(run, pull, repository, first.pullNumber);
  if (second !== null || pull === null) return { verified: false, refusal: second as RunRefusal, run, pull };
  // The base as the Action judges it: the base branch GitHub names now, at its current commit.
  const baseSha = await gh.branchSha(r, pull.base.ref);
  if (baseSha === null) {
    return {
      verified: false,
      refusal: { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pull.number}'s base branch ${pull.base.ref} does not exist` },
      run,
      pull,
    };
  }
  const path = gateWorkflowPath(ctx.settings.workflow);
  const [atHead, atBase] = await Promise.all([gh.pathAt(r, path, run.head_sha), gh.pathAt(r, path, baseSha)]);
  const third = runnerAWorkflow(path, atHead, atBase);
  if (third !== null) return { verified: false, refusal: third, run, pull };
  if (atBase?.text === null || atBase?.text === undefined) {
    return {
      verified: false,
      refusal: {
        code: "RUNNER_A_UNVERIFIED",
        reason: `GitHub did not return ${path}'s text at the base: which actions it uses cannot be read`,
      },
      run,
      pull,
    };
  }
  const fourth = await localActions(gh, r, path, atBase.text, run.head_sha, baseSha);
  if (fourth !== null) return { verified: false, refusal: fourth, run, pull };
  return {
    verified: true,
    a: { run, pull, pullNumber: pull.number, headSha: run.head_sha, baseRef: pull.base.ref, baseSha },
  };
}

/**
 * Stage 4: every local workflow and action the base's workflow reaches (core/local-uses.ts walks
 * them at the base) is the same at head and base. Texts are read at the base commit; the trees
 * of both commits once, only when there is a local reference.
 */
async function localActions(
  gh: InstallationClient,
  r: ReturnType<typeof repoRef>,
  path: string,
  text: string,
  headSha: string,
  baseSha: string,
): Promise<RunRefusal | null> {
  const walk = walkLocalUses(path, text);
  let trees: [TreeAt, TreeAt] | null = null;
  let step = walk.next();
  while (!step.done) {
    const need = step.value;
    if (need.kind === "tree") {
      trees = await Promise.all([gh.treeAt(r, headSha), gh.treeAt(r, baseSha)]);
      step = walk.next(trees[1]);
    } else step = walk.next((await gh.pathAt(r, need.path, baseSha))?.text ?? null);
  }
  if ("code" in step.value) return step.value;
  return trees === null ? null : compareScopes(step.value, trees[0], trees[1]);
}

/** Runner B: the run re-read through the API, held to what the App recorded at its dispatch. */
export async function verifyRunnerB(
  ctx: AppContext,
  gh: InstallationClient,
  dual: DualRun,
  runId: number,
): Promise<{ run: ApiWorkflowRun; refusal: RunRefusal | null }> {
  const run = await gh.getRun(repoRef(dual.repository), runId);
  return { run, refusal: runnerBRun(run, dual, ctx.settings.workflow, await gh.botLogin()) };
}

/** Logs a refused run and records it once for the status page. */
export async function recordRunRefusal(
  ctx: AppContext,
  role: "runner_a" | "runner_b",
  repository: string,
  run: Pick<ApiWorkflowRun, "id" | "run_attempt" | "event" | "head_sha">,
  refusal: RunRefusal,
  dualRunId: string | null = null,
): Promise<void> {
  ctx.log("warn", `${role}.refused`, { run: run.id, repository, code: refusal.code, reason: refusal.reason, dual_run: dualRunId });
  await ctx.store.runs.recordRefusal({
    repository,
    run_id: run.id,
    run_attempt: run.run_attempt ?? 1,
    role,
    code: refusal.code,
    reason: refusal.reason,
    event: run.event ?? null,
    head_sha: run.head_sha ?? null,
    dual_run_id: dualRunId,
    refused_at: ctx.clock.now(),
  });
}
