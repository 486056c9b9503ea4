/**
 * The Action's decisions, pure: which pull requests are gated, whether a pull request edits
 * the policy, whose approval counts, which freezes apply, and the final conclusion.
 */
import { minimatch } from "minimatch";
import type { PropertyRecord } from "./evidence.js";
import { activeFreezes, expiredFreezes, type FreezeDecision, type LedgerProblem, type ParsedRow } from "./ledger.js";
import type { CheckReport } from "./verdict.js";

/**
 * Bot accounts of common coding agents. Globs (case-insensitive); documented in docs/action.md.
 * A repository using another agent lists it in `agent-authors` or labels its PRs.
 */
export const DEFAULT_AGENT_AUTHORS: readonly string[] = [
  "copilot-swe-agent[bot]",
  "Copilot",
  "devin-ai-integration[bot]",
  "cursor[bot]",
  "chatgpt-codex-connector[bot]",
  "openai-codex[bot]",
  "claude[bot]",
  "google-labs-jules[bot]",
  "amazon-q-developer[bot]",
  "sweep-ai[bot]",
  "codegen-sh[bot]",
  "*-agent[bot]",
];

export const DEFAULT_AGENT_LABEL = "agent-authored";

interface GatingInput {
  author: string;
  labels: readonly string[];
  agentAuthors: readonly string[];
  agentLabel: string | null;
  gateAll: boolean;
}

export interface GatingDecision {
  gated: boolean;
  reason: string;
}

function authorMatches(author: string, pattern: string): boolean {
  // "[bot]" is literal in a login, not a character class.
  const escaped = pattern.replace(/[[\]]/g, (c) => `\\${c}`);
  return minimatch(author, escaped, { nocase: true, nocomment: true, nonegate: true, noext: true });
}

export function gatingDecision(input: GatingInput): GatingDecision {
  if (input.gateAll) return { gated: true, reason: "gate-all is true: every pull request is gated" };
  const pattern = input.agentAuthors.find((p) => authorMatches(input.author, p));
  if (pattern !== undefined) return { gated: true, reason: `author ${input.author} matches agent-authors entry "${pattern}"` };
  if (input.agentLabel !== null && input.labels.some((l) => l.toLowerCase() === (input.agentLabel as string).toLowerCase())) {
    return { gated: true, reason: `the pull request carries the label "${input.agentLabel}"` };
  }
  const label = input.agentLabel === null ? "no agent-label is set" : `it does not carry the label "${input.agentLabel}"`;
  return {
    gated: false,
    reason: `author ${input.author} matches none of agent-authors (${input.agentAuthors.join(", ") || "empty"}), and ${label}`,
  };
}

export interface PolicyPaths {
  envelope: string;
  digest: string;
  properties: string;
  ledger: string;
}

interface ChangedFile {
  filename: string;
  status: string;
  previous_filename?: string;
}

export interface PolicyChange {
  path: string;
  status: string;
  role: keyof PolicyPaths;
}

/** Policy files the pull request adds, edits, renames or deletes. */
export function policyChanges(files: readonly ChangedFile[], paths: PolicyPaths): PolicyChange[] {
  const byPath = new Map<string, keyof PolicyPaths>();
  for (const role of Object.keys(paths) as (keyof PolicyPaths)[]) byPath.set(normalizeRepoPath(paths[role]), role);
  const changes: PolicyChange[] = [];
  for (const f of files) {
    for (const name of [f.filename, f.previous_filename]) {
      if (name === undefined) continue;
      const role = byPath.get(normalizeRepoPath(name));
      if (role !== undefined && !changes.some((c) => c.path === name)) changes.push({ path: name, status: f.status, role });
    }
  }
  return changes;
}

/**
 * Policy files whose blob id differs between the base and the head commit: exact, and
 * independent of the pull request's file listing (which stops at 3000 files). `null` is a file
 * absent at that commit. Merged with the listing's changes, so a policy file renamed away or
 * changed and changed back is still seen.
 */
export function policyBlobChanges(
  paths: PolicyPaths,
  base: ReadonlyMap<string, string | null>,
  head: ReadonlyMap<string, string | null>,
  listed: readonly PolicyChange[] = [],
): PolicyChange[] {
  const changes = [...listed];
  for (const role of Object.keys(paths) as (keyof PolicyPaths)[]) {
    const path = paths[role];
    const before = base.get(path) ?? null;
    const after = head.get(path) ?? null;
    if (before === after || changes.some((c) => normalizeRepoPath(c.path) === normalizeRepoPath(path))) continue;
    changes.push({ path, status: before === null ? "added" : after === null ? "removed" : "modified", role });
  }
  return changes;
}

export function normalizeRepoPath(path: string): string {
  return path.replace(/^\.\//, "").replace(/\/+/g, "/");
}

interface ReviewInput {
  login: string;
  state: string;
  commitId: string | null;
  /** GitHub's user type (`User`, `Bot`, ...), when the answer gave one. */
  type?: string | null;
}

/**
 * Logins whose latest decisive review (approve, request changes, dismissed) is an approval of
 * exactly the head commit, excluding the author. An approval of an older commit does not count.
 */
export function headApprovers(reviews: readonly ReviewInput[], headSha: string, author: string): string[] {
  return headApprovals(reviews, headSha, author).map((r) => r.login);
}

/** The reviews behind headApprovers, with the reviewer's user type. */
export function headApprovals(reviews: readonly ReviewInput[], headSha: string, author: string): ReviewInput[] {
  const latest = new Map<string, ReviewInput>();
  for (const r of reviews) {
    if (r.state === "APPROVED" || r.state === "CHANGES_REQUESTED" || r.state === "DISMISSED") latest.set(r.login.toLowerCase(), r);
  }
  const out: ReviewInput[] = [];
  for (const r of latest.values()) {
    if (r.state === "APPROVED" && r.commitId === headSha && r.login.toLowerCase() !== author.toLowerCase()) out.push(r);
  }
  return out;
}

/** Roles that count as write access for the default reviewer rule. */
export const WRITE_ROLES: ReadonlySet<string> = new Set(["admin", "maintain", "write"]);

export function listedReviewer(login: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => a.replace(/^@/, "").toLowerCase() === login.toLowerCase());
}

/**
 * A bot account: GitHub's user type `Bot`, or a login ending in `[bot]` (an App's account, whatever
 * type an answer gives it). Bots never approve a policy change unless `bot-approvers` names them.
 */
export function isBotAccount(login: string, type: string | null): boolean {
  return type === "Bot" || login.toLowerCase().endsWith("[bot]");
}

/** Why an approver does not count before any role is read: a bot not named in bot-approvers. */
export function botExcluded(login: string, type: string | null, botApprovers: readonly string[]): boolean {
  return isBotAccount(login, type) && !listedReviewer(login, botApprovers);
}

export interface PropertyOutcome {
  record: PropertyRecord;
  /** Line of the declaration, for annotations. */
  line: number;
  /** An honored freeze tolerated this failure. */
  frozenBy: ParsedRow | null;
  /** Open rows for this property and envelope whose date has passed. */
  expired: ParsedRow[];
  /** Rows naming this property that are never honored. */
  refused: LedgerProblem[];
  locations: { path: string; line: number; message: string }[];
}

function queryOf(record: PropertyRecord, envelopeHash: string, today: string) {
  return { property: record.name, fingerprint: record.failure_fingerprint ?? null, envelopeHash, today };
}

/**
 * The honored rows that would tolerate one of these failures: the only rows whose evidence the
 * Action downloads and checks (verifiedFreezes). A property that is not freezable, or a failure
 * without a fingerprint, has none.
 */
export function freezeCandidates(
  records: readonly PropertyRecord[],
  freezes: FreezeDecision,
  envelopeHash: string,
  today: string,
): ParsedRow[] {
  const out: ParsedRow[] = [];
  for (const record of records) {
    if (record.result !== "fail" || record.freezable !== true || !record.failure_fingerprint) continue;
    for (const row of activeFreezes(freezes.honored, queryOf(record, envelopeHash, today))) if (!out.includes(row)) out.push(row);
  }
  return out;
}

/**
 * Rows whose evidence check failed (or could not be made) leave `honored` for `refused`, with
 * their code and reason; the result is what the check reports.
 */
export function afterEvidenceChecks(freezes: FreezeDecision, checks: ReadonlyMap<number, LedgerProblem | null>): FreezeDecision {
  const failed = [...checks.values()].filter((p): p is LedgerProblem => p !== null);
  const lines = new Set(failed.map((p) => p.line));
  return {
    honored: freezes.honored.filter((r) => !lines.has(r.line)),
    refused: [...freezes.refused, ...failed].sort((a, b) => a.line - b.line),
  };
}

/**
 * Turns failures into tolerated results where an honored freeze covers them: a row of this
 * property's failure (name and fingerprint) and envelope hash, whose evidence was checked
 * (`verified`, ledger lines). Errors never freeze; a non-freezable property never freezes.
 */
export function applyFreezes(
  records: readonly { record: PropertyRecord; line: number; locations: PropertyOutcome["locations"] }[],
  freezes: FreezeDecision,
  allRows: readonly ParsedRow[],
  envelopeHash: string,
  today: string,
  verified: ReadonlySet<number>,
): PropertyOutcome[] {
  return records.map(({ record, line, locations }) => {
    const query = queryOf(record, envelopeHash, today);
    const freezable = record.result === "fail" && record.freezable === true && !!record.failure_fingerprint;
    const honored = freezable ? activeFreezes(freezes.honored, query).filter((r) => verified.has(r.line)) : [];
    const expired = freezable ? expiredFreezes(allRows, query) : [];
    const refused = freezes.refused.filter((p) => allRows.some((r) => r.line === p.line && r.scope.name === record.name));
    const frozenBy = honored[0] ?? null;
    return { record: { ...record, frozen_by: frozenBy?.freeze_id ?? null }, line, frozenBy, expired, refused, locations };
  });
}

/** `audit`: mode audit's neutral record of a run (src/core/audit.ts); never produced by decide(). */
type DecisionVerdict = "pass" | "envelope_fail" | "property_fail" | "error" | "action_required" | "not_gated" | "audit";
type Conclusion = "success" | "failure" | "neutral" | "action_required";

export interface Decision {
  verdict: DecisionVerdict;
  conclusion: Conclusion;
  /** One line, for the check run title (after the verdict). */
  headline: string;
}

interface DecisionInput {
  report: CheckReport;
  properties: readonly PropertyOutcome[];
  policyChange: { changes: readonly PolicyChange[]; approvedBy: readonly string[] } | null;
}

/** A property outcome that turns the check red. */
function propertyBlocks(p: PropertyOutcome): boolean {
  if (p.record.result === "error") return true;
  if (p.record.result === "fail") return p.frozenBy === null;
  return false;
}

export function decide(input: DecisionInput): Decision {
  const { report } = input;
  if (report.verdict === "error") {
    return {
      verdict: "error",
      conclusion: "failure",
      headline: `could not evaluate (${report.error?.code ?? "INTERNAL_ERROR"}); this is not a pass`,
    };
  }
  if (report.verdict === "envelope_fail") {
    const n = report.violations.length;
    return {
      verdict: "envelope_fail",
      conclusion: "failure",
      headline: `${n} envelope violation${n === 1 ? "" : "s"} of ${report.envelope_id ?? "the envelope"}`,
    };
  }
  const blocking = input.properties.filter(propertyBlocks);
  if (blocking.length > 0) {
    const names = blocking.map((p) =>
      p.record.result === "error"
        ? `${p.record.name} (error)`
        : p.expired.length > 0
          ? `${p.record.name} (freeze ${p.expired[0]?.freeze_id} expired)`
          : p.record.name,
    );
    return { verdict: "property_fail", conclusion: "failure", headline: `property failed: ${names.join(", ")}` };
  }
  const pending = input.policyChange;
  if (pending !== null && pending.changes.length > 0 && pending.approvedBy.length === 0) {
    return {
      verdict: "action_required",
      conclusion: "action_required",
      headline: `this pull request changes the gate's policy (${pending.changes.map((c) => c.path).join(", ")}); an allowed reviewer must approve the head commit`,
    };
  }
  const frozen = input.properties.filter((p) => p.frozenBy !== null).length;
  const events = report.events;
  return {
    verdict: "pass",
    conclusion: "success",
    headline: `no envelope violations in ${events} event${events === 1 ? "" : "s"}${frozen > 0 ? `; ${frozen} frozen propert${frozen === 1 ? "y" : "ies"} tolerated` : ""}`,
  };
}
