import type { DualRun, NewDualRun } from "./app-records.js";
import { compareRuns, type Decision, type PropertyComparison } from "./compare.js";
import { sha256Hex } from "./envelope.js";
import { Refusal, isRefusal, type ErrorCode } from "./errors.js";
import { readEvidenceZip, type VerifiedBundle } from "./evidence.js";
import { runnerBRun, type ApiPull, type ApiWorkflowRun, type DispatchRecord } from "./run-checks.js";

/** Pure decisions about a dual run: its id, whether runner A calls for one, B's inputs, the comparison. */

/** Runner A's run once verified against GitHub's API (src/app/run-verify.ts). */
export interface VerifiedRunA {
  run: ApiWorkflowRun;
  pull: ApiPull;
  pullNumber: number;
  headSha: string;
  baseRef: string;
  baseSha: string;
}

/** The dual run id: one per A run attempt, the same on every replica and redelivery. */
function dualRunIdFor(repository: string, runAId: number, attempt: number): string {
  return `dr-${sha256Hex(`${repository.toLowerCase()}\0${runAId}\0${attempt}`).slice(0, 20)}`;
}

/** Whether a run's workflow path (`.github/workflows/x.yml@ref`) is the gate workflow. */
export function isGateWorkflow(path: string | undefined, workflow: string): boolean {
  const file = (path ?? "").replace(/@.*$/, "");
  return file.endsWith(`/${workflow}`) || file === workflow;
}

/**
 * Runner A finished and verified against GitHub's API (run-verify.ts): the dual run to record,
 * or why there is none. The pull request, head sha and base branch come from the API; the
 * bundle gives the envelope hash and the failing properties, and must be for the run's commit.
 */
export function dualRunForRunA(
  a: VerifiedRunA,
  repository: string,
  installationId: number,
  bundle: VerifiedBundle,
  now: number,
  deadlineMs: number,
): { record: NewDualRun; failing: string[] } | { skip: string } {
  const run = a.run;
  if (bundle.verdict.verdict !== "pass") {
    return { skip: `no dual run: runner A's envelope verdict is ${bundle.verdict.verdict}; envelope failures are never frozen` };
  }
  // A property already tolerated by an active freeze does not need another one.
  const unfrozen = bundle.properties.filter((x) => x.result === "fail" && !x.frozen_by);
  if (unfrozen.length === 0) return { skip: "no dual run: no property failed" };
  // Runner B costs minutes: only a failure a freeze could tolerate (freezable, with a scope) is worth a second run.
  const failing = unfrozen.filter((x) => x.freezable === true && typeof x.failure_fingerprint === "string").map((x) => x.name);
  if (failing.length === 0) {
    const names = unfrozen.map((x) => x.name).join(", ");
    return {
      skip: `no dual run: the failing properties (${names}) are not freezable or name no failure scope; they fail, nothing is frozen`,
    };
  }
  const envelopeHash = bundle.runner.envelope_hash ?? bundle.verdict.envelope_hash;
  if (!envelopeHash) throw new Refusal("EVIDENCE_UNAVAILABLE", `run ${run.id}'s evidence names no envelope hash`);
  if (bundle.runner.head_sha !== a.headSha) {
    throw new Refusal(
      "DUAL_RUN_MISMATCH",
      `run ${run.id} is for ${a.headSha} but its evidence says ${bundle.runner.head_sha ?? "no commit"}`,
    );
  }
  const attempt = run.run_attempt ?? 1;
  return {
    failing,
    record: {
      id: dualRunIdFor(repository, run.id, attempt),
      installation_id: installationId,
      repository,
      head_sha: a.headSha,
      pull_number: a.pullNumber,
      base_ref: a.baseRef,
      envelope_hash: envelopeHash,
      properties: JSON.stringify(failing),
      run_a_id: run.id,
      run_a_attempt: attempt,
      run_a_url: run.html_url ?? null,
      evidence_a: bundle.digest,
      runner_a: JSON.stringify(bundle.runner),
      created_at: now,
      deadline_at: now + deadlineMs,
    },
  };
}

/** The gate workflow's `workflow_dispatch` inputs for runner B. */
export function runnerBInputs(dual: DualRun, runnerBLabels: readonly string[]): Record<string, string> {
  return {
    pull_request: dual.pull_number === null ? "" : String(dual.pull_number),
    head_sha: dual.head_sha,
    dual_run_id: dual.id,
    runner_labels: JSON.stringify(runnerBLabels),
  };
}

/** Where GitHub gave no run id for the dispatch: list dispatched runs created since a little before it. */
export function runBSearchSince(dual: DualRun): string {
  return new Date((dual.dispatched_at ?? dual.created_at) - 5 * 60_000).toISOString();
}

/**
 * Runner B's run among dispatched runs: the one that passes runner B's checks (run-checks.ts:
 * the App's own dispatch, on the recorded base commit, named after the dual run).
 */
export function runBAmong(
  runs: readonly ApiWorkflowRun[],
  dual: DispatchRecord,
  workflow: string,
  appLogin: string,
): ApiWorkflowRun | null {
  return runs.find((run) => runnerBRun(run, dual, workflow, appLogin) === null) ?? null;
}

/** The dual run id a run's name carries (the gate workflow's run-name for runner B), if any. */
export function dualRunIdInTitle(title: string | null | undefined): string | null {
  return /\bdr-[0-9a-f]{20}\b/.exec(title ?? "")?.[0] ?? null;
}

/** The eligible properties of a decided dual run, each with its comparison. */
export function eligibleComparisons(dual: DualRun): { property: string; comparison: PropertyComparison }[] {
  const { results, eligible } = JSON.parse(dual.results ?? "{}") as { results: PropertyComparison[]; eligible: string[] };
  return eligible.map((property) => ({ property, comparison: results.find((r) => r.property === property) as PropertyComparison }));
}

/** Why a dual run past its deadline has no freeze. */
export function deadlineMissedDetail(dual: DualRun): string {
  const deadline = new Date(dual.deadline_at).toISOString();
  return dual.dispatched_at === null
    ? `runner B was never dispatched before the deadline (${deadline}); the property fails, nothing is frozen`
    : `runner B did not finish by the deadline (${deadline}); the property fails, nothing is frozen`;
}

/**
 * Verifies both bundles and applies the comparison table. Evidence problems decide "no
 * freeze"; `bundleB` is B's verified bundle when both could be read.
 */
export function decideDualRun(
  dual: DualRun,
  zipA: Uint8Array | null,
  zipB: Uint8Array | null,
): { decision: Decision; bundleB: VerifiedBundle | null } {
  const none = (outcome: Decision["outcome"], code: ErrorCode, detail: string, bundleB: VerifiedBundle | null = null) => ({
    decision: { outcome, code, detail, results: [], eligible: [] },
    bundleB,
  });
  if (zipB === null) return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", "runner B's run finished without an evidence bundle");
  if (zipA === null) return none("evidence_invalid", "EVIDENCE_UNAVAILABLE", "runner A's evidence bundle is no longer available");
  let a: VerifiedBundle;
  let b: VerifiedBundle;
  try {
    a = readEvidenceZip(zipA);
    b = readEvidenceZip(zipB);
  } catch (err) {
    if (isRefusal(err) && (err.code === "EVIDENCE_DIGEST_MISMATCH" || err.code === "EVIDENCE_UNAVAILABLE")) {
      return none("evidence_invalid", err.code, err.message);
    }
    throw err;
  }
  if (a.digest !== dual.evidence_a) {
    return none(
      "evidence_invalid",
      "EVIDENCE_DIGEST_MISMATCH",
      `runner A's bundle digest is now ${a.digest}, it was ${dual.evidence_a} when runner B was scheduled`,
      b,
    );
  }
  const decision = compareRuns(a, b, {
    dualRunId: dual.id,
    envelopeHash: dual.envelope_hash,
    headSha: dual.head_sha,
    properties: JSON.parse(dual.properties) as string[],
  });
  return { decision, bundleB: b };
}
