import type { DualRun, LedgerPr } from "./app-records.js";
import type { PropertyComparison } from "./compare.js";
import { sha256Hex } from "./envelope.js";
import { Refusal } from "./errors.js";
import type { RunnerIdentity } from "./evidence.js";
import { mdCode, mdFence, mdLink, mdText, plainTitle } from "./markdown.js";
import {
  appendLedgerRow,
  formatLedgerRow,
  freezeScopeCell,
  LEDGER_COLUMNS,
  MACHINE_ID,
  parseLedger,
  utcDate,
  type LedgerRow,
} from "./ledger.js";

/**
 * Pure: the App's freeze decisions: a ledger PR's key, freeze id, branch, expiry, row, title and
 * body, and what a ledger or a push says. The branch's random part comes from the caller
 * (src/app/freeze.ts draws it from the system's CSPRNG).
 */

/** Identifies a ledger PR: one per (repository, property, envelope hash, head sha). */
export function ledgerLockKey(repository: string, property: string, envelopeHash: string, headSha: string): string {
  return sha256Hex(`${repository.toLowerCase()}\0${property}\0${envelopeHash}\0${headSha}`);
}

/** Unique without coordination: derived from both evidence digests and the property. */
export function freezeIdFor(evidenceA: string, evidenceB: string, property: string): string {
  return `F-${sha256Hex(`${evidenceA}\n${evidenceB}\n${property}`).slice(0, 12)}`;
}

/**
 * The ledger PR's branch: the property's slug and a random part (`random`: 80 bits from the
 * system's CSPRNG, src/app/freeze.ts), so nobody can create it before the App does. The name is
 * recorded with the claim; a retry after a crash reads it from the store and uses the same name.
 * The derived inputs are kept for the signature's sake only: nothing in the name can be computed
 * from them.
 */
export function ledgerBranch(property: string, _envelopeHash: string, _headSha: string, random: string): string {
  // Letters, digits, `_` and `-` only: no dots, so never `..`, `.lock` or a leading `.` in the ref.
  const slug =
    property
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "property";
  return `envelope-gate/freeze/${slug}-${random}`;
}

/** today + ttl days, the ttl capped; UTC dates. */
export function expiresOn(now: number, ttlDays: number, capDays: number): string {
  const days = Math.max(1, Math.min(ttlDays, capDays));
  return utcDate(new Date(now + days * 86_400_000));
}

/**
 * The ledger's runner cell, `run-<run id>@<machine id>`: the run and the machine it ran on,
 * exactly as runner.json names it. A machine id the cell cannot carry as is (outside
 * MACHINE_ID's letters, digits and `. _ : -`) is refused, never rewritten: a rewritten id would
 * not match the bundle the Action checks the row against.
 */
export function runnerCell(runner: RunnerIdentity, runId: number): string {
  const machine = runner.machine_id ?? "";
  if (!MACHINE_ID.test(machine) || !Number.isSafeInteger(runId) || runId < 1) {
    throw new Refusal("LEDGER_INVALID", `run ${runId}'s machine id ${JSON.stringify(runner.machine_id)} cannot be written in a ledger row`);
  }
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

/**
 * A runner as the ledger PR's table shows it. Every field is from runner.json in a bundle, and
 * runner A's bundle is made by the pull request's own job: each is escaped (../core/markdown.ts).
 */
function identity(r: RunnerIdentity): string {
  const cellText = (v: unknown) => mdText(String(v ?? "?"), 200);
  return `${r.runner_name == null ? "(unnamed)" : cellText(r.runner_name)} — machine ${mdCode(String(r.machine_id ?? "?"), { inTable: true, max: 80 })}, ${cellText(r.os)}/${cellText(r.arch)}, ${cellText(r.cpus)} × ${cellText(r.cpu_model)}`;
}

/** The proposal for one property; `random` is the branch's random part (ledgerBranch). */
export function buildFreezeProposal(p: FreezeProposalInput, random: string): FreezeProposal {
  const freezeId = freezeIdFor(p.evidenceA, p.evidenceB, p.property);
  if (p.comparison.fingerprint === null) {
    throw new Refusal(
      "LEDGER_INVALID",
      `runner A's evidence gives no failure fingerprint for ${p.property}; no row could name what it tolerates`,
    );
  }
  const row: LedgerRow = {
    freeze_id: freezeId,
    // The scope: this property's failure as runner A recorded it, and no other.
    property: freezeScopeCell(p.property, p.comparison.fingerprint),
    runner_a: runnerCell(p.runnerA, p.runAId),
    runner_b: runnerCell(p.runnerB, p.runBId),
    envelope_hash: p.envelopeHash,
    expires_on: p.expiresOn,
    status: "open",
    evidence: p.evidenceA,
  };
  const rowText = formatLedgerRow(row);
  const title = freezeTitle(p.property, p.expiresOn, freezeId);
  const link = (url: string | null, id: number) => (url ? mdLink(`run ${id}`, url) : mdText(`run ${id}`));
  const code = (v: unknown) => mdCode(String(v), { inTable: true });
  // Only the PR number (an integer) makes a reference here, on purpose: the PR the freeze is for.
  const pull = typeof p.pullNumber === "number" && Number.isSafeInteger(p.pullNumber) ? `#${p.pullNumber} ` : "";
  const body = [
    `Runner A and runner B disagree on the non-envelope property **${mdCode(p.property)}** for ${pull}head ${mdCode(p.headSha)} under envelope ${mdCode(p.envelopeHash)}.`,
    "",
    "This PR adds one row to the freeze ledger. Merging it tolerates this property's failure until the row expires; closing it keeps the property failing.",
    "",
    "| | runner A | runner B |",
    "| --- | --- | --- |",
    `| run | ${link(p.runAUrl, p.runAId)} | ${link(p.runBUrl, p.runBId)} |`,
    `| runner | ${identity(p.runnerA)} | ${identity(p.runnerB)} |`,
    `| ${code(p.property)} | ${mdText(String(p.comparison.a))} | ${mdText(String(p.comparison.b))} |`,
    `| envelope | clean | clean |`,
    `| evidence digest | ${code(p.evidenceA)} | ${code(p.evidenceB)} |`,
    "",
    `Freeze id ${mdCode(freezeId)} (derived from both evidence digests and the property), expires on **${mdText(p.expiresOn)}** (UTC).`,
    "",
    mdFence(rowText, "tsv"),
    "",
    // The configured reviewers are mentioned on purpose (ENVELOPE_GATE_REVIEWERS, not the PR's text).
    p.reviewers.length + p.teamReviewers.length > 0
      ? `Review requested from ${[...p.reviewers.map((r) => `@${r}`), ...p.teamReviewers.map((t) => `team ${mdText(t)}`)].join(", ")}.`
      : "No reviewers are configured (ENVELOPE_GATE_REVIEWERS); a maintainer must review this by hand.",
  ].join("\n");
  return { freezeId, branch: ledgerBranch(p.property, p.envelopeHash, p.headSha, random), row, rowText, title, body };
}

/** The proposal's input for one eligible property of a decided dual run. */
export function freezeProposalInput(
  dual: DualRun,
  property: string,
  comparison: PropertyComparison,
  terms: { expiresOn: string; reviewers: string[]; teamReviewers: string[] },
): FreezeProposalInput {
  return {
    repository: dual.repository,
    property,
    envelopeHash: dual.envelope_hash,
    headSha: dual.head_sha,
    pullNumber: dual.pull_number,
    evidenceA: dual.evidence_a,
    evidenceB: dual.evidence_b ?? "",
    runnerA: JSON.parse(dual.runner_a) as RunnerIdentity,
    runnerB: JSON.parse(dual.runner_b ?? "{}") as RunnerIdentity,
    runAId: dual.run_a_id,
    runBId: dual.run_b_id ?? 0,
    runAUrl: dual.run_a_url,
    runBUrl: dual.run_b_url,
    comparison,
    ...terms,
  };
}

/** Whether a ledger's text already carries `freezeId` (an empty or missing ledger carries nothing). */
export function ledgerHasFreeze(text: string, path: string, freezeId: string): boolean {
  return text.trim() !== "" && parseLedger(text, path).rows.some((row) => row.freeze_id === freezeId);
}

/** The base ledger plus this PR's one row; a base that already has the freeze is LEDGER_INVALID. */
export function ledgerWithRow(base: string, pr: Pick<LedgerPr, "ledger_path" | "base_ref" | "freeze_id" | "row_text">): string {
  if (ledgerHasFreeze(base, pr.ledger_path, pr.freeze_id)) {
    throw new Refusal("LEDGER_INVALID", `${pr.ledger_path} on ${pr.base_ref} already has ${pr.freeze_id}`);
  }
  const cells = pr.row_text.split("\t");
  const row = Object.fromEntries(LEDGER_COLUMNS.map((c, i) => [c, cells[i] ?? ""])) as unknown as LedgerRow;
  return appendLedgerRow(base, row);
}

/**
 * The ledger PR's title, and its commit's message: plain text on GitHub, but scanned for mentions
 * and issue references (a "fixes #1" in a merged commit closes issue 1), so `plainTitle`.
 */
export function freezeTitle(property: string, expiresOn: string, freezeId: string): string {
  return `envelope-gate: freeze ${plainTitle(property, 120)} until ${plainTitle(expiresOn)} (${plainTitle(freezeId)})`;
}

/**
 * The comment on a ledger PR that waited too long for review, mentioning who was asked. A team
 * is mentioned as `@org/slug` (the repository's owner is the organization the team belongs to).
 */
export function reviewOverdueComment(hours: number, reviewers: readonly string[], teamReviewers: readonly string[], org: string): string {
  const who = [...reviewers.map((x) => `@${x}`), ...teamReviewers.map((t) => `@${org}/${t}`)].join(" ");
  return `⚠️ This freeze has waited ${hours} hours for review. ${who}`.trim();
}

/** Whether a push's commits touched `path`; a push listing 20 or more commits is taken to have. */
export function pushTouched(commits: readonly { added?: string[]; modified?: string[]; removed?: string[] }[], path: string): boolean {
  return commits.length >= 20 || commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(path));
}

/** A ledger PR unreviewed `alertMs` after it was opened is overdue (the sweeper alerts, the status page says so). */
export function reviewOverdue(pr: Pick<LedgerPr, "first_review_at" | "opened_at">, now: number, alertMs: number): boolean {
  return pr.first_review_at === null && pr.opened_at !== null && now - pr.opened_at >= alertMs;
}
