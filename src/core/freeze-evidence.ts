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
