import { sha256Hex } from "../core/envelope.js";
import type { RunnerIdentity } from "../core/evidence.js";
import { formatLedgerRow, utcDate, type LedgerRow } from "../core/ledger.js";
import type { PropertyComparison } from "./compare.js";

/** Identifies a ledger PR: one per (repository, property, envelope hash, head sha). */
export function ledgerLockKey(repository: string, property: string, envelopeHash: string, headSha: string): string {
  return sha256Hex(`${repository.toLowerCase()}\0${property}\0${envelopeHash}\0${headSha}`);
}

/** Unique without coordination: derived from both evidence digests and the property. */
export function freezeIdFor(evidenceA: string, evidenceB: string, property: string): string {
  return `F-${sha256Hex(`${evidenceA}\n${evidenceB}\n${property}`).slice(0, 12)}`;
}

/**
 * The ledger PR's branch, derived from (property, envelope hash, head sha). Creating it is the
 * lock on GitHub's side: a second create answers 422.
 */
export function ledgerBranch(property: string, envelopeHash: string, headSha: string): string {
  // Letters, digits, `_` and `-` only: no dots, so never `..`, `.lock` or a leading `.` in the ref.
  const slug = property.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "") || "property";
  const id = sha256Hex(`${property}\0${envelopeHash}\0${headSha}`).slice(0, 16);
  return `envelope-gate/freeze/${slug}-${id}`;
}

/** today + ttl days, the ttl capped; UTC dates. */
export function expiresOn(now: number, ttlDays: number, capDays: number): string {
  const days = Math.max(1, Math.min(ttlDays, capDays));
  return utcDate(new Date(now + days * 86_400_000));
}

/** The ledger's runner cell: the run and the machine it ran on. */
export function runnerCell(runner: RunnerIdentity, runId: number): string {
  const machine = (runner.machine_id ?? "unknown").replace(/[^A-Za-z0-9._:-]/g, "").slice(0, 40);
  return `run-${runId}@${machine}`;
}

export interface FreezeProposalInput {
  repository: string;
  property: string;
  envelopeHash: string;
  headSha: string;
  pullNumber: number | null;
  evidenceA: string;
  evidenceB: string;
  runnerA: RunnerIdentity;
  runnerB: RunnerIdentity;
  runAId: number;
  runBId: number;
  runAUrl: string | null;
  runBUrl: string | null;
  comparison: PropertyComparison;
  expiresOn: string;
  reviewers: string[];
  teamReviewers: string[];
}

export interface FreezeProposal {
  freezeId: string;
  branch: string;
  row: LedgerRow;
  rowText: string;
  title: string;
  body: string;
}

function identity(r: RunnerIdentity): string {
  return `${r.runner_name ?? "(unnamed)"} — machine \`${r.machine_id ?? "?"}\`, ${r.os}/${r.arch}, ${r.cpus} × ${r.cpu_model ?? "?"}`;
}

export function buildFreezeProposal(p: FreezeProposalInput): FreezeProposal {
  const freezeId = freezeIdFor(p.evidenceA, p.evidenceB, p.property);
  const row: LedgerRow = {
    freeze_id: freezeId,
    property: p.property,
    runner_a: runnerCell(p.runnerA, p.runAId),
    runner_b: runnerCell(p.runnerB, p.runBId),
    envelope_hash: p.envelopeHash,
    expires_on: p.expiresOn,
    status: "open",
    evidence: p.evidenceA,
  };
  const rowText = formatLedgerRow(row);
  const title = `envelope-gate: freeze ${p.property} until ${p.expiresOn} (${freezeId})`;
  const link = (url: string | null, id: number) => (url ? `[run ${id}](${url})` : `run ${id}`);
  const body = [
    `Runner A and runner B disagree on the non-envelope property **\`${p.property}\`** for ${p.pullNumber ? `#${p.pullNumber} ` : ""}head \`${p.headSha}\` under envelope \`${p.envelopeHash}\`.`,
    "",
    "This PR adds one row to the freeze ledger. Merging it tolerates this property's failure until the row expires; closing it keeps the property failing.",
    "",
    "| | runner A | runner B |",
    "| --- | --- | --- |",
    `| run | ${link(p.runAUrl, p.runAId)} | ${link(p.runBUrl, p.runBId)} |`,
    `| runner | ${identity(p.runnerA)} | ${identity(p.runnerB)} |`,
    `| \`${p.property}\` | ${p.comparison.a} | ${p.comparison.b} |`,
    `| envelope | clean | clean |`,
    `| evidence digest | \`${p.evidenceA}\` | \`${p.evidenceB}\` |`,
    "",
    `Freeze id \`${freezeId}\` (derived from both evidence digests and the property), expires on **${p.expiresOn}** (UTC).`,
    "",
    "```tsv",
    rowText,
    "```",
    "",
    p.reviewers.length + p.teamReviewers.length > 0
      ? `Review requested from ${[...p.reviewers.map((r) => `@${r}`), ...p.teamReviewers.map((t) => `team ${t}`)].join(", ")}.`
      : "No reviewers are configured (ENVELOPE_GATE_REVIEWERS); a maintainer must review this by hand.",
  ].join("\n");
  return { freezeId, branch: ledgerBranch(p.property, p.envelopeHash, p.headSha), row, rowText, title, body };
}
