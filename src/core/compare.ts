import type { ErrorCode } from "./errors.js";
import { FINGERPRINT, isEnvelopeRuleName, MACHINE_ID } from "./ledger.js";
import type { VerifiedBundle } from "./evidence.js";

/**
 * The dual-run decision (seed table): both fail the property: no freeze, it fails; they
 * disagree: freeze-eligible; they disagree on the envelope: the observer is broken, no freeze.
 * A runner B that is missing, late, or on A's machine: RUNNER_B_UNAVAILABLE, no freeze.
 */

type PropertyVerdict =
  | "disagree"
  | "both_fail"
  | "b_error"
  | "b_missing"
  | "envelope_rule"
  /** The properties file (as either run recorded it) does not let this property be frozen. */
  | "not_freezable"
  /** Runner A's evidence gives no fingerprint of the failure, so no row could name what it tolerates. */
  | "unscoped";

export interface PropertyComparison {
  property: string;
  a: "fail";
  b: "pass" | "fail" | "error" | "missing";
  verdict: PropertyVerdict;
  /** Runner A's failure fingerprint, which the freeze row's scope names (`<property>#<fingerprint>`). */
  fingerprint: string | null;
}

type DualRunOutcome =
  | "freeze_eligible"
  | "both_fail"
  | "no_freeze"
  | "observer_disagreement"
  | "runner_b_unavailable"
  | "mismatch"
  | "evidence_invalid"
  /** Runner B was not dispatched: over budget, or the budget could not be confirmed. */
  | "not_compared_budget";

export interface Decision {
  outcome: DualRunOutcome;
  /** Set whenever there is no freeze for a reason other than the property itself. */
  code: ErrorCode | null;
  detail: string;
  results: PropertyComparison[];
  /** Properties eligible for a freeze (A failed, B passed, not an envelope rule). */
  eligible: string[];
}

interface Expectation {
  dualRunId: string;
  envelopeHash: string;
  headSha: string;
  /** Properties that failed on A, as recorded when B was scheduled. */
  properties: string[];
}

/** Machine identity compared between A and B: machine id, else runner name. Empty means unknown. */
function machineOf(bundle: VerifiedBundle): string {
  return (bundle.runner.machine_id ?? "").trim() || "";
}

export function compareRuns(a: VerifiedBundle, b: VerifiedBundle, expect: Expectation): Decision {
  const none = (outcome: DualRunOutcome, code: ErrorCode | null, detail: string, results: PropertyComparison[] = []): Decision => ({
    outcome,
    code,
    detail,
    results,
    eligible: [],
  });
  const machineA = machineOf(a);
  const machineB = machineOf(b);
  if (machineA === "" || machineB === "") {
    return none(
      "runner_b_unavailable",
      "RUNNER_B_UNAVAILABLE",
      "a runner.json does not name its machine (machine_id); two machines cannot be proven",
    );
  }
  if (!MACHINE_ID.test(machineA) || !MACHINE_ID.test(machineB)) {
    return none(
      "runner_b_unavailable",
      "RUNNER_B_UNAVAILABLE",
      "a runner.json's machine_id is not letters, digits and . _ : - (at most 64); a ledger row could not name the machine",
    );
  }
  if (machineA.toLowerCase() === machineB.toLowerCase()) {
    return none(
      "runner_b_unavailable",
      "RUNNER_B_UNAVAILABLE",
      `runner B ran on runner A's machine (${machineA}); one machine cannot tell a flake from a regression`,
    );
  }
  const hashes = [a.runner.envelope_hash, a.verdict.envelope_hash, b.runner.envelope_hash, b.verdict.envelope_hash];
  if (hashes.some((h) => h !== expect.envelopeHash)) {
    return none(
      "mismatch",
      "DUAL_RUN_MISMATCH",
      `the runs were not under one envelope: expected ${expect.envelopeHash}, runner A ${a.runner.envelope_hash}, runner B ${b.runner.envelope_hash}`,
    );
  }
  if (b.runner.head_sha !== expect.headSha || a.runner.head_sha !== expect.headSha) {
    return none(
      "mismatch",
      "DUAL_RUN_MISMATCH",
      `the runs were not of one commit: expected ${expect.headSha}, runner A ${a.runner.head_sha}, runner B ${b.runner.head_sha}`,
    );
  }
  if ((b.runner.dual_run_id ?? "") !== expect.dualRunId) {
    return none(
      "mismatch",
      "DUAL_RUN_MISMATCH",
      `runner B's run belongs to dual run ${b.runner.dual_run_id ?? "(none)"}, not ${expect.dualRunId}`,
    );
  }
  if (a.verdict.verdict !== "pass") {
    return none("no_freeze", null, `runner A's envelope verdict is ${a.verdict.verdict}; envelope failures are never frozen`);
  }
  if (b.verdict.verdict === "envelope_fail") {
    const ids = (b.verdict.violations ?? []).map((v) => v.id).join(", ");
    return none(
      "observer_disagreement",
      "OBSERVER_DISAGREEMENT",
      `runner A's envelope is clean but runner B's has violations (${ids}) under the same envelope and commit: the observer is broken; nothing is frozen`,
    );
  }
  if (b.verdict.verdict !== "pass") {
    return none(
      "runner_b_unavailable",
      "RUNNER_B_UNAVAILABLE",
      `runner B could not evaluate the envelope (${b.verdict.error?.code ?? "error"}); no valid second run`,
    );
  }
  const results: PropertyComparison[] = [];
  for (const property of expect.properties) {
    const onA = a.properties.find((p) => p.name === property);
    if (!onA || onA.result !== "fail") {
      return none("mismatch", "DUAL_RUN_MISMATCH", `runner A's evidence does not record ${property} as failed`);
    }
    const onB = b.properties.find((p) => p.name === property);
    const bResult = onB ? onB.result : "missing";
    const fingerprint =
      typeof onA.failure_fingerprint === "string" && FINGERPRINT.test(onA.failure_fingerprint) ? onA.failure_fingerprint : null;
    let verdict: PropertyVerdict;
    if (isEnvelopeRuleName(property)) verdict = "envelope_rule";
    // Both runs read the properties file of the base commit; either saying "not freezable" (or
    // an older bundle that does not say) keeps the property out of the ledger.
    else if (onA.freezable !== true || (onB !== undefined && onB.freezable !== true)) verdict = "not_freezable";
    else if (bResult === "pass" && fingerprint === null) verdict = "unscoped";
    else if (bResult === "pass") verdict = "disagree";
    else if (bResult === "fail") verdict = "both_fail";
    else if (bResult === "error") verdict = "b_error";
    else verdict = "b_missing";
    results.push({ property, a: "fail", b: bResult, verdict, fingerprint });
  }
  const eligible = results.filter((r) => r.verdict === "disagree").map((r) => r.property);
  if (eligible.length > 0) {
    return { outcome: "freeze_eligible", code: null, detail: `runners disagree on ${eligible.join(", ")}`, results, eligible };
  }
  if (results.length > 0 && results.every((r) => r.verdict === "both_fail")) {
    return none("both_fail", null, "both runners fail the same properties: a regression, not a flake; nothing is frozen", results);
  }
  const fixed = results.filter((r) => r.verdict === "not_freezable").map((r) => r.property);
  if (fixed.length > 0) {
    return none(
      "no_freeze",
      "FREEZE_NOT_FREEZABLE",
      `${fixed.join(", ")} ${fixed.length === 1 ? "is" : "are"} not freezable (patch_paths, or "freezable": false, in the properties file); nothing is frozen`,
      results,
    );
  }
  return none("no_freeze", null, "no property failed on A and passed on B; nothing is frozen", results);
}
