/**
 * The freeze ledger (CONTRACT.md section 7): a TSV read from the pull request's base commit.
 * A broken header makes the whole file LEDGER_INVALID; a broken row is reported with its line
 * and reason and never honored. Pure: the caller fetches the text.
 */
import { Refusal, type ErrorCode } from "./errors.js";

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
type LedgerColumn = (typeof LEDGER_COLUMNS)[number];

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
  "docker_refused",
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

/** A row's property cell, split: `<name>#<fingerprint>` (see docs/formats.md, the freeze ledger). */
interface FreezeScope {
  name: string;
  /** First 16 hex of sha256 over the failure signature runner A recorded. */
  fingerprint: string;
}

export interface ParsedRow extends LedgerRow {
  /** 1-based line in the ledger file. */
  line: number;
  scope: FreezeScope;
  /** The run ids and machine ids of the runner cells. */
  runA: RunnerCell;
  runB: RunnerCell;
}

export interface LedgerProblem {
  line: number;
  freeze_id: string | null;
  reason: string;
  /** Set when the row was refused for a reason with a code of its own (evidence checks, non-freezable). */
  code?: ErrorCode;
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
/** A property name, as schema/properties.schema.json declares it. */
const PROPERTY_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
/** The failure fingerprint of a freeze scope. */
export const FINGERPRINT = /^[0-9a-f]{16}$/;
/** A machine id as a runner cell carries it (and runner.json's `machine_id` must be, to be frozen on). */
export const MACHINE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
/** A GitHub Actions run id. */
const RUN_ID = /^[1-9][0-9]{0,19}$/;

interface RunnerCell {
  runId: string;
  machineId: string;
}

/** `run-<run id>@<machine id>`, exactly, or null. */
function parseRunnerCell(cell: string): RunnerCell | null {
  const at = cell.indexOf("@");
  if (!cell.startsWith("run-") || at < 0) return null;
  const runId = cell.slice(4, at);
  const machineId = cell.slice(at + 1);
  return RUN_ID.test(runId) && MACHINE_ID.test(machineId) ? { runId, machineId } : null;
}

/** `<name>#<fingerprint>`, exactly, or null. */
function parseFreezeScope(cell: string): FreezeScope | null {
  const hash = cell.indexOf("#");
  if (hash < 0) return null;
  const name = cell.slice(0, hash);
  const fingerprint = cell.slice(hash + 1);
  return PROPERTY_NAME.test(name) && FINGERPRINT.test(fingerprint) ? { name, fingerprint } : null;
}

/** The property cell the App writes for a failure of `name` with this fingerprint. */
export function freezeScopeCell(name: string, fingerprint: string): string {
  return `${name}#${fingerprint}`;
}

/**
 * Whitespace and invisible characters a cell must never carry: every Unicode space (NBSP,
 * U+2000..U+200A, U+3000, ...), zero-width characters, bidi controls, the byte order mark and
 * any other control or format character. Cells are compared exactly; nothing is trimmed.
 */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why a cell's characters make a row unreadable, naming the column; null when it has none of them. */
function invisibleIn(column: LedgerColumn, cell: string): string | null {
  const found = [...cell].filter((ch) => INVISIBLE.test(ch));
  if (found.length === 0) return null;
  const where = INVISIBLE.test(cell[0] ?? "") || INVISIBLE.test(cell.at(-1) ?? "") ? "leading or trailing" : "inner";
  const names = [...new Set(found.map(codePoint))].join(", ");
  return `the ${column} cell carries ${where} whitespace or invisible characters (${names}); cells are compared exactly and never trimmed`;
}

/** A real calendar date in YYYY-MM-DD form, or false. */
function isValidDate(text: string): boolean {
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
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Reasons a row is never honored, whatever the property or date; empty when it is well-formed. */
function rowProblems(row: LedgerRow): string[] {
  const reasons: string[] = [];
  const unreadable = new Set<LedgerColumn>();
  for (const column of LEDGER_COLUMNS) {
    const reason = invisibleIn(column, row[column]);
    if (reason !== null) {
      reasons.push(reason);
      unreadable.add(column);
    }
  }
  if (!unreadable.has("freeze_id") && !FREEZE_ID.test(row.freeze_id))
    reasons.push(`freeze_id "${row.freeze_id}" is not of the form F-<id>`);
  if (!unreadable.has("property")) {
    const name = row.property.split("#")[0] as string;
    if (row.property === "") reasons.push("no property");
    else if (isEnvelopeRuleName(name)) reasons.push(`it names the envelope rule "${name}"; envelope violations are never frozen`);
    else if (!row.property.includes("#"))
      reasons.push(
        `the property cell "${row.property}" names no failure scope (<property>#<fingerprint>); a row without a scope is never honored`,
      );
    else if (parseFreezeScope(row.property) === null)
      reasons.push(`the property cell "${row.property}" is not <property>#<16 hex fingerprint>`);
  }
  const cellA = unreadable.has("runner_a") ? null : parseRunnerCell(row.runner_a);
  const cellB = unreadable.has("runner_b") ? null : parseRunnerCell(row.runner_b);
  if (row.runner_a === "" || row.runner_b === "") reasons.push("it names one runner; a freeze needs two runs on two machines");
  else {
    for (const [column, cell] of [
      ["runner_a", cellA],
      ["runner_b", cellB],
    ] as const) {
      if (cell === null && !unreadable.has(column))
        reasons.push(`${column} "${row[column]}" is not run-<run id>@<machine id> (machine id: letters, digits, . _ : -)`);
    }
    if (cellA !== null && cellB !== null) {
      if (cellA.machineId.toLowerCase() === cellB.machineId.toLowerCase())
        reasons.push(`runner_a and runner_b are the same machine ("${cellA.machineId}"); a freeze needs two machines`);
      if (cellA.runId === cellB.runId) reasons.push(`runner_a and runner_b are the same run (${cellA.runId}); a freeze needs two runs`);
    }
  }
  if (!unreadable.has("envelope_hash") && !SHA256.test(row.envelope_hash))
    reasons.push(`envelope_hash "${row.envelope_hash}" is not sha256:<64 hex>`);
  if (!unreadable.has("expires_on") && !isValidDate(row.expires_on))
    reasons.push(`expires_on "${row.expires_on}" is not a YYYY-MM-DD date`);
  if (!unreadable.has("status") && row.status !== "open" && row.status !== "closed")
    reasons.push(`status "${row.status}" is neither open nor closed`);
  if (row.evidence === "") reasons.push("no evidence");
  else if (!unreadable.has("evidence") && !SHA256.test(row.evidence))
    reasons.push(`evidence "${row.evidence}" is not sha256:<64 hex> of an evidence manifest`);
  return reasons;
}

/** Parses the ledger. Throws LEDGER_INVALID (with line 1) when the header is not the contract's. */
export function parseLedger(text: string, file: string): Ledger {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header = (lines[0] ?? "").replace(/\r$/, "");
  if (header !== LEDGER_HEADER) {
    throw new Refusal(
      "LEDGER_INVALID",
      `${file}:1: the header must be the tab-separated columns ${LEDGER_COLUMNS.join(", ")}${header === "" ? " (the file is empty)" : ""}`,
      { file, line: 1, hint: `Restore the header line:\n${LEDGER_HEADER}` },
    );
  }
  const rows: ParsedRow[] = [];
  const problems: LedgerProblem[] = [];
  const seenIds = new Map<string, number>();
  const seenScopes = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = (lines[i] as string).replace(/\r$/, "");
    // An empty line or a comment is no row; a line of only invisible characters is a problem.
    if (line === "" || line.startsWith("#")) continue;
    const cells = line.split("\t");
    if (cells.length !== LEDGER_COLUMNS.length) {
      problems.push({
        line: lineNo,
        freeze_id: cells[0] || null,
        reason: `has ${cells.length} columns, the header has ${LEDGER_COLUMNS.length}`,
      });
      continue;
    }
    const row = Object.fromEntries(LEDGER_COLUMNS.map((c, k) => [c, cells[k] as string])) as unknown as LedgerRow;
    const reasons = rowProblems(row);
    const earlier = seenIds.get(row.freeze_id);
    if (earlier !== undefined) reasons.push(`freeze_id ${row.freeze_id} already appears on line ${earlier}`);
    else seenIds.set(row.freeze_id, lineNo);
    const scopeKey = `${row.property}\0${row.envelope_hash}`;
    const sameScope = seenScopes.get(scopeKey);
    if (sameScope !== undefined && earlier === undefined)
      reasons.push(`it duplicates the row on line ${sameScope} (same property scope and envelope hash)`);
    else if (sameScope === undefined) seenScopes.set(scopeKey, lineNo);
    if (reasons.length > 0) {
      problems.push({ line: lineNo, freeze_id: row.freeze_id || null, reason: reasons.join("; ") });
      continue;
    }
    rows.push({
      ...row,
      line: lineNo,
      scope: parseFreezeScope(row.property) as FreezeScope,
      runA: parseRunnerCell(row.runner_a) as RunnerCell,
      runB: parseRunnerCell(row.runner_b) as RunnerCell,
    });
  }
  return { file, rows, problems };
}

interface FreezeQuery {
  /** The property's name (the scope's name part). */
  property: string;
  /** The current failure's fingerprint; null when the property did not fail. */
  fingerprint: string | null;
  envelopeHash: string;
  /** YYYY-MM-DD, UTC. */
  today: string;
}

function inScope(r: ParsedRow, query: FreezeQuery): boolean {
  return r.scope.name === query.property && r.scope.fingerprint === query.fingerprint && r.envelope_hash === query.envelopeHash;
}

/** Well-formed open rows for this failure (property and fingerprint) and envelope hash that have not expired. */
export function activeFreezes(rows: readonly ParsedRow[], query: FreezeQuery): ParsedRow[] {
  return rows.filter((r) => r.status === "open" && inScope(r, query) && query.today < r.expires_on);
}

/** Well-formed open rows for this failure and envelope hash whose date has passed. */
export function expiredFreezes(rows: readonly ParsedRow[], query: FreezeQuery): ParsedRow[] {
  return rows.filter((r) => r.status === "open" && inScope(r, query) && query.today >= r.expires_on);
}

/** Open, unexpired rows naming this property and envelope hash but another failure's fingerprint. */
export function otherScopeFreezes(rows: readonly ParsedRow[], query: FreezeQuery): ParsedRow[] {
  return rows.filter(
    (r) =>
      r.status === "open" &&
      r.scope.name === query.property &&
      r.envelope_hash === query.envelopeHash &&
      r.scope.fingerprint !== query.fingerprint &&
      query.today < r.expires_on,
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
      throw new Refusal("LEDGER_INVALID", `a ledger cell may not contain a tab or newline: ${JSON.stringify(cell)}`);
  }
  const reasons = rowProblems(row);
  if (reasons.length > 0) throw new Refusal("LEDGER_INVALID", `refusing to write freeze ${row.freeze_id}: ${reasons.join("; ")}`);
  return cells.join("\t");
}

/** Appends a row, keeping the header (and creating it for an empty ledger). */
export function appendLedgerRow(text: string, row: LedgerRow): string {
  const line = formatLedgerRow(row);
  if (text.trim() === "") return `${LEDGER_HEADER}\n${line}\n`;
  const ledger = parseLedger(text, "freeze_ledger.tsv");
  if (ledger.rows.some((r) => r.freeze_id === row.freeze_id) || ledger.problems.some((p) => p.freeze_id === row.freeze_id)) {
    throw new Refusal("LEDGER_INVALID", `freeze_id ${row.freeze_id} is already in the ledger`);
  }
  const next = `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`;
  const added = parseLedger(next, "freeze_ledger.tsv").problems.find((p) => p.freeze_id === row.freeze_id);
  if (added !== undefined) throw new Refusal("LEDGER_INVALID", `refusing to write freeze ${row.freeze_id}: ${added.reason}`);
  return next;
}
