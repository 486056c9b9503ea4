/**
 * The freeze ledger (CONTRACT.md section 7): a TSV read from the pull request's base commit.
 * A broken header makes the whole file LEDGER_INVALID; a broken row is reported with its line
 * and reason and never honored. Pure: the caller fetches the text.
 */
import { GateError } from "./errors.js";

export const LEDGER_COLUMNS = [
  "freeze_id",
  "property",
  "runner_a",
  "runner_b",
  "envelope_hash",
  "expires_on",
  "status",
  "evidence",
] as const;
export type LedgerColumn = (typeof LEDGER_COLUMNS)[number];

export const LEDGER_HEADER = LEDGER_COLUMNS.join("\t");

export const DEFAULT_LEDGER_PATH = ".github/envelope-gate/freeze_ledger.tsv";

/**
 * Names a freeze (and a property) may never carry: every envelope violation rule, every
 * envelope key, and the envelope itself. Envelope violations are never frozen.
 */
export const ENVELOPE_RULE_NAMES: readonly string[] = [
  "write_outside_root",
  "undeclared_tool",
  "undeclared_env",
  "network_denied",
  "undeclared_host",
  "undeclared_command",
  "forbidden_syscall",
  "write_protected",
  "allowed_roots",
  "allowed_tools",
  "allowed_env",
  "allowed_hosts",
  "allowed_commands",
  "observation",
  "loopback",
  "writable_protected",
  "network",
  "envelope",
  "envelope_id",
];

export function isEnvelopeRuleName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return ENVELOPE_RULE_NAMES.includes(lower) || ENVELOPE_RULE_NAMES.some((rule) => lower.startsWith(`${rule}:`));
}

export type FreezeStatus = "open" | "closed";

export interface LedgerRow {
  freeze_id: string;
  property: string;
  runner_a: string;
  runner_b: string;
  envelope_hash: string;
  expires_on: string;
  status: string;
  evidence: string;
}

export interface ParsedRow extends LedgerRow {
  /** 1-based line in the ledger file. */
  line: number;
}

export interface LedgerProblem {
  line: number;
  freeze_id: string | null;
  reason: string;
}

export interface Ledger {
  file: string;
  rows: ParsedRow[];
  /** Rows that are never honored, with why. */
  problems: LedgerProblem[];
}

const FREEZE_ID = /^F-[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SHA256 = /^sha256:[0-9a-f]{64}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form, or false. */
export function isValidDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Today's date in UTC as YYYY-MM-DD. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Reasons a row is never honored, whatever the property or date; empty when it is well-formed. */
export function rowProblems(row: LedgerRow): string[] {
  const reasons: string[] = [];
  if (!FREEZE_ID.test(row.freeze_id)) reasons.push(`freeze_id "${row.freeze_id}" is not of the form F-<id>`);
  if (row.property === "") reasons.push("no property");
  else if (isEnvelopeRuleName(row.property))
    reasons.push(`it names the envelope rule "${row.property}"; envelope violations are never frozen`);
  if (row.runner_a === "" || row.runner_b === "") reasons.push("it names one runner; a freeze needs two runs on two machines");
  else if (row.runner_a === row.runner_b)
    reasons.push(`runner_a and runner_b are the same machine ("${row.runner_a}"); a freeze needs two machines`);
  if (!SHA256.test(row.envelope_hash)) reasons.push(`envelope_hash "${row.envelope_hash}" is not sha256:<64 hex>`);
  if (!isValidDate(row.expires_on)) reasons.push(`expires_on "${row.expires_on}" is not a YYYY-MM-DD date`);
  if (row.status !== "open" && row.status !== "closed") reasons.push(`status "${row.status}" is neither open nor closed`);
  if (row.evidence === "") reasons.push("no evidence");
  else if (!SHA256.test(row.evidence)) reasons.push(`evidence "${row.evidence}" is not sha256:<64 hex> of an evidence manifest`);
  return reasons;
}

/** Parses the ledger. Throws LEDGER_INVALID (with line 1) when the header is not the contract's. */
export function parseLedger(text: string, file: string): Ledger {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header = (lines[0] ?? "").replace(/\r$/, "");
  if (header !== LEDGER_HEADER) {
    throw new GateError(
      "LEDGER_INVALID",
      `${file}:1: the header must be the tab-separated columns ${LEDGER_COLUMNS.join(", ")}${header === "" ? " (the file is empty)" : ""}`,
      { file, line: 1, hint: `Restore the header line:\n${LEDGER_HEADER}` },
    );
  }
  const rows: ParsedRow[] = [];
  const problems: LedgerProblem[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = (lines[i] as string).replace(/\r$/, "");
    if (line.trim() === "" || line.startsWith("#")) continue;
    const cells = line.split("\t");
    if (cells.length !== LEDGER_COLUMNS.length) {
      problems.push({
        line: lineNo,
        freeze_id: cells[0]?.trim() || null,
        reason: `has ${cells.length} columns, the header has ${LEDGER_COLUMNS.length}`,
      });
      continue;
    }
    const row = Object.fromEntries(LEDGER_COLUMNS.map((c, k) => [c, (cells[k] as string).trim()])) as unknown as LedgerRow;
    const reasons = rowProblems(row);
    const earlier = seen.get(row.freeze_id);
    if (earlier !== undefined) reasons.push(`freeze_id ${row.freeze_id} already appears on line ${earlier}`);
    else seen.set(row.freeze_id, lineNo);
    if (reasons.length > 0) {
      problems.push({ line: lineNo, freeze_id: row.freeze_id || null, reason: reasons.join("; ") });
      continue;
    }
    rows.push({ ...row, line: lineNo });
  }
  return { file, rows, problems };
}

export interface FreezeQuery {
  property: string;
  envelopeHash: string;
  /** YYYY-MM-DD, UTC. */
  today: string;
}

/** Well-formed open rows for this property and envelope hash that have not expired. */
export function activeFreezes(rows: readonly ParsedRow[], query: FreezeQuery): ParsedRow[] {
  return rows.filter(
    (r) => r.status === "open" && r.property === query.property && r.envelope_hash === query.envelopeHash && query.today < r.expires_on,
  );
}

/** Well-formed open rows for this property and envelope hash whose date has passed. */
export function expiredFreezes(rows: readonly ParsedRow[], query: FreezeQuery): ParsedRow[] {
  return rows.filter(
    (r) => r.status === "open" && r.property === query.property && r.envelope_hash === query.envelopeHash && query.today >= r.expires_on,
  );
}

export interface FreezeCaps {
  /** Most rows that may be active at once across the ledger. */
  maxActive: number;
  /** Longest a freeze may still run, in days from today. */
  maxDays: number;
}

export const DEFAULT_FREEZE_CAPS: FreezeCaps = { maxActive: 10, maxDays: 14 };

export interface FreezeDecision {
  /** Rows that may tolerate a failure (active, within caps). */
  honored: ParsedRow[];
  /** Every row never honored, with why (malformed rows, caps). */
  refused: LedgerProblem[];
}

/**
 * Applies the caps to the ledger's well-formed rows. A row running longer than maxDays from
 * today is refused. When more than maxActive rows are active, none is honored: picking some
 * would be arbitrary, and the cap exists to force the ledger to be cleaned up.
 */
export function applyFreezeCaps(ledger: Ledger, today: string, caps: FreezeCaps): FreezeDecision {
  const refused: LedgerProblem[] = [...ledger.problems];
  const active = ledger.rows.filter((r) => r.status === "open" && today < r.expires_on);
  const withinLength: ParsedRow[] = [];
  for (const row of active) {
    const days = daysBetween(today, row.expires_on);
    if (days > caps.maxDays) {
      refused.push({
        line: row.line,
        freeze_id: row.freeze_id,
        reason: `it runs ${days} days from today, more than the ${caps.maxDays}-day cap`,
      });
    } else {
      withinLength.push(row);
    }
  }
  if (active.length > caps.maxActive) {
    for (const row of withinLength) {
      refused.push({
        line: row.line,
        freeze_id: row.freeze_id,
        reason: `the ledger has ${active.length} active freezes, more than the cap of ${caps.maxActive}; none is honored`,
      });
    }
    return { honored: [], refused: refused.sort((a, b) => a.line - b.line) };
  }
  return { honored: withinLength, refused: refused.sort((a, b) => a.line - b.line) };
}

/** One ledger line (no newline). Refuses a row that would never be honored. */
export function formatLedgerRow(row: LedgerRow): string {
  const cells = LEDGER_COLUMNS.map((c) => row[c]);
  for (const cell of cells) {
    if (/[\t\r\n]/.test(cell))
      throw new GateError("LEDGER_INVALID", `a ledger cell may not contain a tab or newline: ${JSON.stringify(cell)}`);
  }
  const reasons = rowProblems(row);
  if (reasons.length > 0) throw new GateError("LEDGER_INVALID", `refusing to write freeze ${row.freeze_id}: ${reasons.join("; ")}`);
  return cells.join("\t");
}

/** Appends a row, keeping the header (and creating it for an empty ledger). */
export function appendLedgerRow(text: string, row: LedgerRow): string {
  const line = formatLedgerRow(row);
  if (text.trim() === "") return `${LEDGER_HEADER}\n${line}\n`;
  const ledger = parseLedger(text, "freeze_ledger.tsv");
  if (ledger.rows.some((r) => r.freeze_id === row.freeze_id) || ledger.problems.some((p) => p.freeze_id === row.freeze_id)) {
    throw new GateError("LEDGER_INVALID", `freeze_id ${row.freeze_id} is already in the ledger`);
  }
  return `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`;
}
