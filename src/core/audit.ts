/**
 * Audit mode (docs/action.md, "Audit mode"): what one recorded run touched, what enforce would
 * have said of it, and the envelope that would let it pass, as a neutral check. Pure: the
 * Action (src/action/audit.ts) reads the log and writes the files.
 *
 * Every string from the run or the repository (paths, keys, hosts, commands, ids, the envelope's
 * text) is escaped where it is interpolated (./markdown.ts): mdCode/mdText inline, mdFence for
 * the code blocks.
 */
import { describeViolationParts } from "./annotations.js";
import type { Envelope } from "./envelope.js";
import { walkLog, type RecordedLog, type Violation, type WalkedEvent } from "./log-reader.js";
import { clipMarkdown, mdCode, mdFence, mdText } from "./markdown.js";
import type { Decision } from "./policy.js";
import type { NotProposed } from "./never-proposed.js";
import type { Evidence } from "./suggest.js";
import type { CheckReport } from "./verdict.js";

/** Suffix of the audit check's name: never `<check-name>` itself (docs/action.md explains why). */
export const AUDIT_CHECK_SUFFIX = " (audit)";

/**
 * The envelope an audit applies where the repository has none yet (neither the envelope nor its
 * digest at the commit): the workspace and scratch, `PATH` and the CI set, nothing else. The
 * first audit's suggestion widens it to what the run needed.
 */
export const STARTER_ENVELOPE: Envelope = {
  envelope_id: "starter-envelope",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: [],
  allowed_env: ["PATH", "@ci"],
  allowed_hosts: [],
  network: "deny",
};

/** STARTER_ENVELOPE as the Action applies it (its bytes are what its hash is of). */
export const STARTER_ENVELOPE_TEXT = JSON.stringify(STARTER_ENVELOPE, null, 2) + "\n";

/** Distinct things one run touched, per class, in first-seen order. */
interface Footprint {
  writesOutsideRoots: string[];
  envKeys: string[];
  hosts: string[];
  commands: string[];
  tools: string[];
}

/** Which of the audit's classes an event of each kind is listed in. */
const AUDIT_CLASS: Record<WalkedEvent["kind"], keyof Footprint | null> = {
  write: "writesOutsideRoots",
  env: "envKeys",
  host: "hosts",
  exec: "commands",
  tool: "tools",
  syscall: null,
};

/**
 * What the run touched, as the one walk (./log-reader.ts walkLog) names it under the envelope
 * applied and its expanded `roots`: writes the write judge puts outside the roots, env keys read
 * (the runtime's own documented reads left out), endpoints by the name an entry allows them by
 * (loopback inside the run's own network namespace left out, as check does), commands by their
 * allowed_commands entry, tools dispatched: the names its own suggestion and the footprint use.
 */
export function auditFootprint(log: RecordedLog, envelope: Envelope, roots: readonly string[]): Footprint {
  const sets: Record<keyof Footprint, Set<string>> = {
    writesOutsideRoots: new Set(),
    envKeys: new Set(),
    hosts: new Set(),
    commands: new Set(),
    tools: new Set(),
  };
  for (const e of walkLog(log, envelope, roots).events) {
    const cls = AUDIT_CLASS[e.kind];
    if (cls === null || (e.kind === "env" && e.runtime) || (e.kind === "host" && e.ownLoopback)) continue;
    if (e.kind === "write" && e.verdict !== "write_outside_root") continue;
    sets[cls].add(e.subject);
  }
  return {
    writesOutsideRoots: [...sets.writesOutsideRoots],
    envKeys: [...sets.envKeys],
    hosts: [...sets.hosts],
    commands: [...sets.commands],
    tools: [...sets.tools],
  };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The audit's decision: always neutral; the headline is the check title after `audit: `. */
export function auditDecision(violations: number, added: number): Decision {
  return {
    verdict: "audit",
    conclusion: "neutral",
    headline: `${plural(violations, "violation", "violations")} under the current envelope; suggested envelope adds ${plural(added, "entry", "entries")}`,
  };
}

export interface AuditSummaryInput {
  checkName: string;
  decision: Decision;
  report: CheckReport;
  /** The envelope judged against: from the repository, or the starter (file null). */
  envelope: { id: string; hash: string; file: string | null; ref: string; source: string };
  target: { kind: "pull"; number: number; headSha: string; baseSha: string } | { kind: "commit"; sha: string; ref: string };
  footprint: Footprint;
  added: readonly Evidence[];
  /** What the suggestion never proposes (never-proposed.ts), each with why. */
  notProposed: readonly NotProposed[];
  suggestionNotes: readonly string[];
  /** envelope.json current -> suggested, as lineDiff writes it. */
  diff: string;
  suggestedText: string;
  suggestedDigestLine: string;
  /** Where the suggested envelope was written (the evidence directory), and the bundle's digest. */
  suggestedPath: string;
  evidence: { artifact: string; digest: string | null };
  envelopePath: string;
  digestPath: string;
  notes: readonly string[];
}

const MAX_CELL = 600;
const cell = (s: string): string => mdText(s, MAX_CELL);
const code = (s: string): string => mdCode(s, { inTable: true, max: MAX_CELL });

function render(input: AuditSummaryInput, limit: number): string {
  const { report, envelope, footprint: f } = input;
  const out: string[] = [];
  out.push(`## ${cell(input.checkName)}: AUDIT`, "", `**${cell(input.decision.headline)}**`, "");
  out.push(
    "Audit mode: the run was jailed and recorded as usual, with every host let out through the recording proxy. This check is `neutral` and never stands in for the gate's own check.",
    "",
  );
  const facts: [string, string][] = [
    ["verdict", `${code("audit")} (conclusion ${code("neutral")})`],
    ["envelope", `${code(envelope.id)}, ${code(envelope.hash)}`],
    [
      "envelope read from",
      envelope.file === null
        ? `none at ${code(input.envelopePath)} (${cell(envelope.source)} ${code(envelope.ref.slice(0, 12))}): the starter envelope was applied`
        : `${code(envelope.file)} at ${code(envelope.ref.slice(0, 12))} (${cell(envelope.source)})`,
    ],
  ];
  const t = input.target;
  facts.push(
    t.kind === "pull"
      ? ["pull request", `#${t.number}, head ${code(t.headSha.slice(0, 12))}, base ${code(t.baseSha.slice(0, 12))}`]
      : ["commit", `${code(t.sha.slice(0, 12))} on ${code(t.ref)}`],
  );
  if (report.log) {
    facts.push([
      "observer run",
      `${code(String(report.log.run_id))} on ${code(String(report.log.runner))}, ${report.events} events, exit code ${cell(String(report.log.exit_code ?? "none (signal)"))}`,
    ]);
  }
  facts.push(["evidence", `artifact ${code(input.evidence.artifact)}, digest ${code(input.evidence.digest ?? "not written")}`]);
  out.push("| | |", "| --- | --- |", ...facts.map(([k, v]) => `| ${k} | ${v} |`), "");

  out.push("### What the run touched", "", "| class | distinct | first of them |", "| --- | --- | --- |");
  const classes: [string, string[]][] = [
    ["writes outside the roots", f.writesOutsideRoots],
    ["env keys read", f.envKeys],
    ["hosts", f.hosts],
    ["commands", f.commands],
    ["tools", f.tools],
  ];
  const shown = Math.min(limit, 10);
  for (const [label, items] of classes) {
    const first = items.slice(0, shown).map(code).join(", ");
    out.push(`| ${label} | ${items.length} | ${first}${items.length > shown ? `, … (${items.length - shown} more)` : ""} |`);
  }
  out.push("");

  out.push(`### What enforce would report (${plural(report.violations.length, "violation", "violations")})`, "");
  if (report.violations.length === 0) out.push("None: under the current envelope this run would pass the envelope check.", "");
  else {
    out.push("| id | what happened | first at log line | count |", "| --- | --- | --- | --- |");
    for (const v of report.violations.slice(0, limit)) out.push(violationRow(v));
    if (report.violations.length > limit)
      out.push("", `...and ${report.violations.length - limit} more (all of them are in the evidence bundle's verdict.json).`);
    out.push("");
  }

  out.push(`### Suggested envelope (${plural(input.added.length, "entry", "entries")} added)`, "");
  if (input.added.length > 0) {
    out.push("| key | entry | covers | seen | first at |", "| --- | --- | --- | --- | --- |");
    for (const a of input.added.slice(0, limit)) {
      const covers = a.covers.length > 1 || a.covers[0] !== a.entry ? a.covers.slice(0, 4).map(code).join(", ") : "";
      out.push(`| ${code(a.key)} | ${code(a.entry)} | ${covers} | ${a.count} | ${code(a.first)} |`);
    }
    if (input.added.length > limit) out.push("", `...and ${input.added.length - limit} more (see the suggested envelope below).`);
    out.push("");
  }
  if (input.notProposed.length > 0) {
    out.push(
      `### Not proposed (${input.notProposed.length}): never allowed by a suggestion; add one by hand, listed exactly, only if the run must have it`,
      "",
      "| key | entry | why | seen | first at |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const n of input.notProposed.slice(0, limit)) {
      const avoid = n.avoidWith === undefined ? "" : `; ${code(n.avoidWith)} would have avoided them`;
      const covers = n.covers.length > 1 || n.covers[0] !== n.entry ? `<br>covers ${n.covers.slice(0, 4).map(code).join(", ")}` : "";
      out.push(`| ${code(n.key)} | ${code(n.entry)}${covers} | ${cell(n.why)}${avoid} | ${n.count} | ${code(n.first)} |`);
    }
    if (input.notProposed.length > limit) out.push("", `...and ${input.notProposed.length - limit} more.`);
    out.push("");
  }
  for (const n of input.suggestionNotes.slice(0, limit)) out.push(`> ${cell(n)}`, "");
  out.push(`Changes to ${mdCode(input.envelopePath)}:`, "", mdFence(input.diff, "diff"), "");
  out.push(`The suggested ${mdCode(input.envelopePath)} (also ${mdCode(input.suggestedPath)} in the evidence bundle):`, "");
  out.push(mdFence(input.suggestedText.replace(/\n$/, ""), "json"), "");
  out.push(`Its ${mdCode(input.digestPath)}:`, "", mdFence(input.suggestedDigestLine.replace(/\n$/, "")), "");
  out.push(
    "Review it, commit both files to the base branch in one pull request, then switch the workflow to `mode: enforce` (docs/action.md, Audit mode).",
    "",
  );
  for (const note of input.notes) out.push(`> ${cell(note)}`, "");
  return out.join("\n");
}

function violationRow(v: Violation): string {
  const [before, subject, after] = describeViolationParts(v);
  return `| ${code(v.id)} | ${cell(before)}${code(subject)}${cell(after)} | ${v.first_line} | ${v.count} |`;
}

/** The audit check's summary (and the job summary), within GitHub's 65535 characters. */
export function renderAuditSummary(input: AuditSummaryInput, maxChars = 65535): string {
  for (const limit of [Number.POSITIVE_INFINITY, 200, 50, 10, 0]) {
    const text = render(input, limit);
    if (text.length <= maxChars) return text;
  }
  return clipMarkdown(
    render(input, 0),
    maxChars,
    "\n\n(summary cut to GitHub's size limit; the evidence bundle's suggested-envelope.json holds the whole suggestion)\n",
  );
}
