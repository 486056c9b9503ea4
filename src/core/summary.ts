/**
 * The check run summary (and the job summary): verdict, violations, properties, freezes,
 * observer coverage, envelope hash, links, within GitHub's 65535-character limit.
 */
import { describeViolation } from "./annotations.js";
import { RULE_ENVELOPE_KEY } from "./log.js";
import type { LedgerProblem } from "./ledger.js";
import type { Decision, GatingDecision, PolicyChange, PropertyOutcome } from "./policy.js";
import type { CheckReport } from "./verdict.js";

export const MAX_SUMMARY_CHARS = 65535;
const MAX_CELL = 300;

export interface SummaryInput {
  checkName: string;
  decision: Decision;
  report: CheckReport | null;
  envelope: { id: string; hash: string; file: string; ref: string; source: string; ruleLines?: Partial<Record<string, number>> } | null;
  pull: { number: number; author: string; url: string | null; baseSha: string; headSha: string } | null;
  gating: GatingDecision | null;
  policyChange: { changes: readonly PolicyChange[]; approvedBy: readonly string[] } | null;
  /** null: not scored (the envelope was not clean, or evaluation stopped earlier). */
  properties: readonly PropertyOutcome[] | null;
  propertiesFile: { path: string; present: boolean } | null;
  ledger: { path: string; present: boolean; refused: readonly LedgerProblem[] } | null;
  evidence: { dir: string; digest: string | null; artifact: string } | null;
  links: { label: string; url: string }[];
  notes: string[];
  omittedAnnotations: number;
}

export function cell(text: string): string {
  const flat = text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
  return flat.length <= MAX_CELL ? flat : `${flat.slice(0, MAX_CELL - 3)}...`;
}

export const VERDICT_LABEL: Record<Decision["verdict"], string> = {
  pass: "PASS",
  envelope_fail: "FAIL",
  property_fail: "FAIL",
  error: "ERROR",
  action_required: "ACTION REQUIRED",
  not_gated: "NOT GATED",
};

/** Check run title: starts with the verdict. */
export function checkTitle(decision: Decision): string {
  const title = `${decision.verdict}: ${decision.headline}`;
  return title.length <= 255 ? title : `${title.slice(0, 252)}...`;
}

function table(header: string[], rows: string[][], limit: number, more: (n: number) => string): string[] {
  const out = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const row of rows.slice(0, limit)) out.push(`| ${row.map(cell).join(" | ")} |`);
  if (rows.length > limit) out.push("", more(rows.length - limit));
  return out;
}

function render(input: SummaryInput, limit: number): string {
  const { decision, report } = input;
  const out: string[] = [];
  out.push(`## ${input.checkName}: ${VERDICT_LABEL[decision.verdict]}`, "", `**${cell(decision.headline)}**`, "");
  const facts: [string, string][] = [["verdict", `\`${decision.verdict}\` (conclusion \`${decision.conclusion}\`)`]];
  if (input.envelope) {
    facts.push(["envelope", `\`${input.envelope.id}\``]);
    facts.push(["envelope hash", `\`${input.envelope.hash}\``]);
    facts.push(["envelope read from", `\`${input.envelope.file}\` at \`${input.envelope.ref.slice(0, 12)}\` (${input.envelope.source})`]);
  }
  if (input.pull) {
    facts.push([
      "pull request",
      `#${input.pull.number} by @${input.pull.author}, head \`${input.pull.headSha.slice(0, 12)}\`, base \`${input.pull.baseSha.slice(0, 12)}\``,
    ]);
  }
  if (input.gating) facts.push([input.gating.gated ? "gated because" : "not gated because", input.gating.reason]);
  if (report?.log) {
    facts.push([
      "observer run",
      `\`${report.log.run_id}\` on \`${report.log.runner}\`, ${report.events} events, exit code ${report.log.exit_code ?? "none (signal)"}`,
    ]);
  }
  if (input.evidence) {
    facts.push(["evidence", `artifact \`${input.evidence.artifact}\`, digest \`${input.evidence.digest ?? "not written"}\``]);
  }
  out.push("| | |", "| --- | --- |", ...facts.map(([k, v]) => `| ${k} | ${cell(v).replace(/\\\|/g, "|")} |`), "");

  if (report?.verdict === "error" && report.error) {
    out.push("### Could not evaluate", "", `\`${report.error.code}\`: ${cell(report.error.message)}`);
    if (report.error.file) out.push("", `at \`${report.error.file}${report.error.line ? `:${report.error.line}` : ""}\``);
    if (report.error.hint) out.push("", `What to do: ${cell(report.error.hint)}`);
    out.push("", "This is not a pass: the gate refuses what it could not check.", "");
  }

  if (report && report.violations.length > 0) {
    out.push(`### Violations (${report.violations.length} distinct)`, "");
    out.push(
      ...table(
        ["id", "what happened", "first at log line", "count", "envelope says so at"],
        report.violations.map((v) => {
          const key = RULE_ENVELOPE_KEY[v.rule];
          const line = input.envelope?.ruleLines?.[key];
          const where = input.envelope ? `${input.envelope.file}${line !== undefined ? `:${line}` : ""} (\`${key}\`)` : `\`${key}\``;
          return [`\`${v.id}\``, describeViolation(v), String(v.first_line), String(v.count), where];
        }),
        limit,
        (n) => `...and ${n} more distinct violations (all of them are in the evidence bundle's verdict.json).`,
      ),
      "",
      "Envelope violations are never frozen.",
      "",
    );
  }

  if (input.properties === null) {
    if (input.propertiesFile?.present)
      out.push("### Properties", "", "Not scored: properties are scored only when the envelope is clean.", "");
  } else if (input.properties.length > 0) {
    out.push("### Properties", "");
    out.push(
      ...table(
        ["property", "result", "detail", "freeze"],
        input.properties.map((p) => {
          const freeze = p.frozenBy
            ? `frozen by ${p.frozenBy.freeze_id} until ${p.frozenBy.expires_on}`
            : p.expired.length > 0
              ? `${p.expired.map((r) => `${r.freeze_id} expired ${r.expires_on} (ledger line ${r.line})`).join("; ")}`
              : "";
          const result = p.frozenBy ? "fail (tolerated)" : p.record.result;
          return [p.record.name, result, p.record.detail, freeze];
        }),
        limit,
        (n) => `...and ${n} more properties (see properties.json in the evidence bundle).`,
      ),
      "",
    );
  } else if (input.propertiesFile) {
    out.push(
      "### Properties",
      "",
      input.propertiesFile.present
        ? "The properties file declares none."
        : `No properties file at \`${input.propertiesFile.path}\`: no properties are scored.`,
      "",
    );
  }

  if (input.ledger) {
    const applied = (input.properties ?? []).filter((p) => p.frozenBy !== null);
    const expired = (input.properties ?? []).flatMap((p) => p.expired);
    out.push("### Freezes", "");
    if (!input.ledger.present) out.push(`No ledger at \`${input.ledger.path}\` on the base commit: no freezes.`);
    else
      out.push(
        `${applied.length} applied, ${expired.length} expired, ${input.ledger.refused.length} never honored (ledger \`${input.ledger.path}\`).`,
      );
    for (const p of applied) out.push(`- ${p.record.name}: frozen by ${p.frozenBy?.freeze_id} until ${p.frozenBy?.expires_on}`);
    for (const r of expired) out.push(`- ${r.freeze_id} (line ${r.line}) for ${r.property} expired on ${r.expires_on}`);
    for (const problem of input.ledger.refused.slice(0, limit)) {
      out.push(
        `- line ${problem.line}${problem.freeze_id ? ` (${cell(problem.freeze_id)})` : ""} is never honored: ${cell(problem.reason)}`,
      );
    }
    if (input.ledger.refused.length > limit) out.push(`- ...and ${input.ledger.refused.length - limit} more refused rows`);
    out.push("");
  }

  if (input.policyChange && input.policyChange.changes.length > 0) {
    out.push("### Policy change", "");
    for (const c of input.policyChange.changes) out.push(`- \`${c.path}\` (${c.role}) ${c.status}`);
    out.push(
      "",
      input.policyChange.approvedBy.length > 0
        ? `Approved on the head commit by ${input.policyChange.approvedBy.map((l) => `@${l}`).join(", ")}: the head's policy applies.`
        : "Until an allowed reviewer approves the head commit, the base commit's policy applies and the check cannot succeed.",
      "",
    );
  }

  if (report?.log) {
    const c = report.log.counts;
    out.push("### Observer coverage", "", "| class | events |", "| --- | --- |");
    for (const [k, v] of Object.entries(c)) out.push(`| ${k} | ${v} |`);
    out.push("");
    if (report.log.observers !== null) out.push(`Observers: \`${cell(JSON.stringify(report.log.observers))}\``, "");
    if (report.log.network_enforced !== null) out.push(`Network enforced: \`${cell(JSON.stringify(report.log.network_enforced))}\``, "");
  }

  if (input.omittedAnnotations > 0)
    out.push(
      `${input.omittedAnnotations} annotations were not sent (cap reached); the tables above and the evidence hold all findings.`,
      "",
    );
  for (const note of input.notes) out.push(`> ${cell(note)}`, "");
  if (input.links.length > 0) out.push("### Links", "", ...input.links.map((l) => `- [${cell(l.label)}](${l.url})`), "");
  return out.join("\n");
}

/** Renders the summary, shortening tables until it fits GitHub's limit. */
export function renderSummary(input: SummaryInput, maxChars = MAX_SUMMARY_CHARS): string {
  for (const limit of [Number.POSITIVE_INFINITY, 200, 100, 50, 20, 5, 0]) {
    const text = render(input, limit);
    if (text.length <= maxChars) return text;
  }
  const text = render(input, 0);
  const tail = "\n\n(summary cut to GitHub's size limit; the evidence bundle holds everything)\n";
  return text.slice(0, maxChars - tail.length) + tail;
}
