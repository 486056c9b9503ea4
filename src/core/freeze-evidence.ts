/**
 * Whether a freeze row could only have come from the App: the two runs it names, as their
 * evidence bundles say, are the runs of this repository on the two machines the row names,
 * under the row's envelope, and runner A's bundle is the one whose digest the row carries.
 * Pure: the caller downloads the bundles (src/github/artifacts.ts) and reads them with
 * readEvidenceZip.
 */
import type { VerifiedBundle } from "./evidence.js";
import type { ParsedRow } from "./ledger.js";

/** Why the row's evidence does not match the two bundles; null when it does. */
export function freezeEvidenceMismatch(row: ParsedRow, a: VerifiedBundle, b: VerifiedBundle, repository: string): string | null {
  const problems: string[] = [];
  if (a.digest !== row.evidence) problems.push(`runner A's evidence digest is ${a.digest}, the row says ${row.evidence}`);
  for (const [side, bundle, cell] of [
    ["A", a, row.runA],
    ["B", b, row.runB],
  ] as const) {
    const r = bundle.runner;
    if ((r.machine_id ?? "") !== cell.machineId)
      problems.push(`runner ${side}'s runner.json names machine ${JSON.stringify(r.machine_id)}, the row says ${cell.machineId}`);
    if ((r.workflow_run_id ?? "") !== cell.runId)
      problems.push(`runner ${side}'s runner.json is of run ${JSON.stringify(r.workflow_run_id)}, the row says ${cell.runId}`);
    if ((r.repository ?? "").toLowerCase() !== repository.toLowerCase())
      problems.push(`runner ${side}'s run is of ${JSON.stringify(r.repository)}, not ${repository}`);
    if (r.envelope_hash !== row.envelope_hash || bundle.verdict.envelope_hash !== row.envelope_hash)
      problems.push(`runner ${side}'s run was under envelope ${String(r.envelope_hash)}, the row says ${row.envelope_hash}`);
    if (bundle.verdict.verdict !== "pass") problems.push(`runner ${side}'s envelope verdict is ${bundle.verdict.verdict}, not pass`);
  }
  const onA = a.properties.find((p) => p.name === row.scope.name);
  if (onA?.result !== "fail" || onA.failure_fingerprint !== row.scope.fingerprint)
    problems.push(
      `runner A's evidence does not record ${row.scope.name} failing with fingerprint ${row.scope.fingerprint} (it records ${onA ? `${onA.result}, fingerprint ${String(onA.failure_fingerprint ?? "none")}` : "no such property"})`,
    );
  const onB = b.properties.find((p) => p.name === row.scope.name);
  if (onB?.result !== "pass") problems.push(`runner B's evidence does not record ${row.scope.name} passing`);
  return problems.length === 0 ? null : problems.join("; ");
}

/** A workflow run as GitHub's API (not the bundle) describes it. */
export interface RunFromApi {
  id: number;
  event: string;
  head_sha: string;
  repository: string;
}

/**
 * Why GitHub's own account of the two runs contradicts the row or its bundles; null when it
 * does not. Runner B must be a run the App dispatched (`workflow_dispatch`: a pull request's own
 * workflow cannot produce one), both runs are of this repository, and runner A's is of the
 * commit its bundle names.
 */
export function freezeRunsMismatch(
  row: ParsedRow,
  runs: { a: RunFromApi; b: RunFromApi },
  bundles: { a: VerifiedBundle; b: VerifiedBundle },
  repository: string,
): string | null {
  const problems: string[] = [];
  for (const [side, run, cell] of [
    ["A", runs.a, row.runA],
    ["B", runs.b, row.runB],
  ] as const) {
    if (String(run.id) !== cell.runId) problems.push(`GitHub answered run ${run.id} for runner ${side}'s run ${cell.runId}`);
    if (run.repository.toLowerCase() !== repository.toLowerCase())
      problems.push(`runner ${side}'s run ${cell.runId} is of ${run.repository || "(unknown)"}, not ${repository}`);
  }
  // Runner A ran on the pull request's head; runner B, dispatched on the base branch, checks the
  // head its inputs name (GitHub records the dispatched ref's commit as its head_sha), so only
  // A's commit is compared here.
  if (runs.a.head_sha !== (bundles.a.runner.head_sha ?? ""))
    problems.push(`runner A's run ${row.runA.runId} ran ${runs.a.head_sha}, its bundle says ${String(bundles.a.runner.head_sha)}`);
  if (runs.b.event !== "workflow_dispatch")
    problems.push(
      `runner B's run ${row.runB.runId} is a ${runs.b.event || "(unknown)"} run, not one the App dispatched (workflow_dispatch)`,
    );
  return problems.length === 0 ? null : problems.join("; ");
}
