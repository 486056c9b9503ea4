/**
 * The check run summary (and the job summary): verdict, violations, properties, freezes,
 * observer coverage, envelope hash, links, within GitHub's 65535-character limit.
 *
 * Every string from the pull request or its run (paths, names, details, messages, runner and run
 * ids) goes through `mdText` or `mdCode` (./markdown.ts) where it is interpolated; the markdown
 * around them is ours. Nothing escaped is escaped again.
 */
import { PRODUCT } from "./version.js";
import { describeViolationParts, RULE_ENVELOPE_KEY } from "./annotations.js";
import type { Coverage } from "./coverage.js";
import { FOOTPRINT_CLASSES, FOOTPRINT_CLASS_LABEL, newCount, type FootprintFile } from "./footprint.js";
import { clipMarkdown, mdCode, mdLink, mdText, plainText } from "./markdown.js";
import type { LedgerProblem } from "./ledger.js";
import type { Decision, GatingDecision, PolicyChange, PropertyOutcome } from "./policy.js";
import type { CheckReport } from "./verdict.js";

export const MAX_SUMMARY_CHARS = 65535;
/** Most characters of one escaped table cell or line of text. */
const MAX_CELL = 600;

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
  /** Coverage per class of the run's log (src/core/coverage.ts); absent: the counts alone. */
  coverage?: Coverage | null;
  /** The organisation envelope's result, as the App's verified check on the head says it (orgEnvelopeSeen); absent: not posted. */
  orgEnvelope?: OrgEnvelopeSeen | null;
}

/** What the App's verified check on the head commit says of the organisation envelope. */
export interface OrgEnvelopeSeen {
  title: string;
  conclusion: string | null;
  /** The check's sentence on the organisation envelope (its markup removed). */
  line: string;
  url: string | null;
}

/**
 * The App's verified check's word on the organisation envelope, from its title and summary, or
 * null when it says nothing of it (an App without an organisation envelope, an older App).
 */
export function orgEnvelopeSeen(check: {
  title: string | null;
  summary: string | null;
  conclusion: string | null;
  html_url: string | null;
}): OrgEnvelopeSeen | null {
  const plain = (check.summary ?? "").replace(/\\(.)/g, "$1").replace(/`/g, "");
  const line =
    plain.split(/\n\n/).find((p) => /ORG_ENVELOPE_[A-Z_]+|organisation envelope/.test(p) && !p.startsWith("Checked through")) ?? null;
  if (line === null) return null;
  return { title: check.title ?? "", conclusion: check.conclusion, line: line.replace(/\s+/g, " ").trim(), url: check.html_url };
}

/** Text from anywhere, as one escaped table cell or inline text (see ./markdown.ts). */
function cell(text: string): string {
  return mdText(text, MAX_CELL);
}

/** The same, as a code span that is safe in a table cell. */
function code(text: string): string {
  return mdCode(text, { inTable: true, max: MAX_CELL });
}

const VERDICT_LABEL: Record<Decision["verdict"], string> = {
  pass: "PASS",
  envelope_fail: "FAIL",
  property_fail: "FAIL",
  error: "ERROR",
  action_required: "ACTION REQUIRED",
  not_gated: "NOT GATED",
  audit: "AUDIT",
};

/** Check run title (plain text on GitHub): starts with the verdict. */
export function checkTitle(decision: Decision): string {
  return plainText(`${decision.verdict}: ${decision.headline}`, 255);
}

function table(header: string[], rows: string[][], limit: number, more: (n: number) => string): string[] {
  const out = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  // Cells are markdown already (escaped where they quote anything).
  for (const row of rows.slice(0, limit)) out.push(`| ${row.join(" | ")} |`);
  if (rows.length > limit) out.push("", more(rows.length - limit));
  return out;
}

function render(input: SummaryInput, limit: number): string {
  const { decision, report } = input;
  const out: string[] = [];
  out.push(`## ${cell(input.checkName)}: ${VERDICT_LABEL[decision.verdict]}`, "", `**${cell(decision.headline)}**`, "");
  const facts: [string, string][] = [["verdict", `${code(decision.verdict)} (conclusion ${code(decision.conclusion)})`]];
  if (input.envelope) {
    facts.push(["envelope", code(input.envelope.id)]);
    facts.push(["envelope hash", code(input.envelope.hash)]);
    facts.push([
      "envelope read from",
      `${code(input.envelope.file)} at ${code(input.envelope.ref.slice(0, 12))} (${cell(input.envelope.source)})`,
    ]);
  }
  if (input.pull) {
    facts.push([
      "pull request",
      `#${input.pull.number} by @${cell(input.pull.author)}, head ${code(input.pull.headSha.slice(0, 12))}, base ${code(input.pull.baseSha.slice(0, 12))}`,
    ]);
  }
  if (input.gating) facts.push([input.gating.gated ? "gated because" : "not gated because", cell(input.gating.reason)]);
  if (report?.log) {
    facts.push([
      "observer run",
      `${code(String(report.log.run_id))} on ${code(String(report.log.runner))}, ${report.events} events, exit code ${cell(String(report.log.exit_code ?? "none (signal)"))}`,
    ]);
  }
  const viaSets = report?.log?.via_sets ?? [];
  if (viaSets.length > 0) {
    facts.push(["allowed through host sets", viaSets.map((h) => `${code(h.host)} (via ${code(h.set)})`).join(", ")]);
  }
  if (input.evidence) {
    facts.push(["evidence", `artifact ${code(input.evidence.artifact)}, digest ${code(input.evidence.digest ?? "not written")}`]);
  }
  out.push("| | |", "| --- | --- |", ...facts.map(([k, v]) => `| ${k} | ${v} |`), "");

  if (report?.verdict === "error" && report.error) {
    out.push("### Could not evaluate", "", `${mdCode(report.error.code)}: ${cell(report.error.message)}`);
    if (report.error.file) out.push("", `at ${mdCode(`${report.error.file}${report.error.line ? `:${report.error.line}` : ""}`)}`);
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
          const where = input.envelope ? `${cell(input.envelope.file)}${line !== undefined ? `:${line}` : ""} (${code(key)})` : code(key);
          const [before, subject, after] = describeViolationParts(v);
          return [code(v.id), `${cell(before)}${code(subject)}${cell(after)}`, cell(String(v.first_line)), cell(String(v.count)), where];
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
          return [cell(p.record.name), cell(result), cell(p.record.detail), cell(freeze)];
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
        : `No properties file at ${mdCode(input.propertiesFile.path)}: no properties are scored.`,
      "",
    );
  }

  if (input.ledger) {
    const applied = (input.properties ?? []).filter((p) => p.frozenBy !== null);
    const expired = (input.properties ?? []).flatMap((p) => p.expired);
    out.push("### Freezes", "");
    if (!input.ledger.present) out.push(`No ledger at ${mdCode(input.ledger.path)} on the base commit: no freezes.`);
    else
      out.push(
        `${applied.length} applied, ${expired.length} expired, ${input.ledger.refused.length} never honored (ledger ${mdCode(input.ledger.path)}).`,
      );
    for (const p of applied) out.push(`- ${cell(`${p.record.name}: frozen by ${p.frozenBy?.freeze_id} until ${p.frozenBy?.expires_on}`)}`);
    for (const r of expired) out.push(`- ${cell(`${r.freeze_id} (line ${r.line}) for ${r.property} expired on ${r.expires_on}`)}`);
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
    for (const c of input.policyChange.changes) out.push(`- ${mdCode(c.path)} ${cell(`(${c.role}) ${c.status}`)}`);
    out.push(
      "",
      input.policyChange.approvedBy.length > 0
        ? `Approved on the head commit by ${input.policyChange.approvedBy.map((l) => `@${cell(l)}`).join(", ")}: the head's policy applies.`
        : "Until an allowed reviewer approves the head commit, the base commit's policy applies and the check cannot succeed.",
      "",
    );
  }

  if (input.coverage) {
    out.push("### Observer coverage", "");
    out.push(
      ...table(
        ["class", "recorded by", "events", "limit"],
        input.coverage.rows.map((r) => [cell(r.class), cell(r.recorded_by), cell(String(r.events)), cell(r.limit)]),
        Number.POSITIVE_INFINITY,
        () => "",
      ),
      "",
      `Observers: ${input.coverage.observers.map((o) => mdCode(o)).join(", ") || "none named"}; network enforced: ${cell(String(input.coverage.network_enforced ?? "not said"))}.`,
      "",
    );
  } else if (report?.log) {
    const c = report.log.counts;
    out.push("### Observer coverage", "", "| class | events |", "| --- | --- |");
    for (const [k, v] of Object.entries(c)) out.push(`| ${cell(k)} | ${cell(String(v))} |`);
    out.push("");
    if (report.log.observers !== null) out.push(`Observers: ${mdCode(JSON.stringify(report.log.observers), { max: MAX_CELL })}`, "");
    if (report.log.network_enforced !== null)
      out.push(`Network enforced: ${mdCode(JSON.stringify(report.log.network_enforced), { max: MAX_CELL })}`, "");
  }

  if (input.omittedAnnotations > 0)
    out.push(
      `${input.omittedAnnotations} annotations were not sent (cap reached); the tables above and the evidence hold all findings.`,
      "",
    );
  const org = input.orgEnvelope ?? null;
  if (org !== null) {
    out.push(
      "### Organisation envelope",
      "",
      `The App's verified check on this commit (${org.url === null ? cell(org.conclusion ?? "pending") : mdLink(org.conclusion ?? "pending", org.url)}): ${cell(org.title)}.`,
      "",
      `> ${cell(org.line)}`,
      "",
      "Posted by the App, which alone can read the organisation's .github repository; this run's verdict is its own.",
      "",
    );
  }
  for (const note of input.notes) out.push(`> ${cell(note)}`, "");
  if (input.links.length > 0) out.push("### Links", "", ...input.links.map((l) => `- ${mdLink(l.label, l.url)}`), "");
  out.push(JUDGED_BY, "");
  return out.join("\n");
}

/** The summary's last line: which release judged the run, so a reader can say what judged them. */
export const JUDGED_BY = `Judged by ${PRODUCT}.`;

/** Renders with tables shortened until the text fits `maxChars`; past that, cut at a line boundary. */
function fitted(renderAt: (limit: number) => string, maxChars: number, tail: string): string {
  for (const limit of [Number.POSITIVE_INFINITY, 200, 100, 50, 20, 5, 0]) {
    const text = renderAt(limit);
    if (text.length <= maxChars) return text;
  }
  // Cut at a line boundary: never inside an escape, an entity or a code span.
  return clipMarkdown(renderAt(0), maxChars, tail);
}

/** Renders the summary, shortening tables until it fits GitHub's limit. */
export function renderSummary(input: SummaryInput, maxChars = MAX_SUMMARY_CHARS): string {
  return fitted(
    (limit) => render(input, limit),
    maxChars,
    `\n\n(summary cut to GitHub's size limit; the evidence bundle holds everything)\n\n${JUDGED_BY}\n`,
  );
}

/** The footprint section's heading; `(run #id)` once a base run was found. */
const FOOTPRINT_HEADING = "New compared with the base's last run";

function renderFootprintAt(file: FootprintFile, limit: number): string {
  const out: string[] = [];
  if (file.status !== "compared") {
    out.push(`### ${FOOTPRINT_HEADING}`, "");
    out.push(
      file.status === "no_base"
        ? `No base run to compare (${cell(file.reason)}).`
        : `Could not compare (${cell(file.reason)}): this says nothing about what is new in this run.`,
    );
    out.push("", "The footprint is advisory: it never changes the verdict, which the envelope alone decides.", "");
    return out.join("\n");
  }
  const base = file.base;
  // `#<id>` is a workflow run, not an issue: broken as mdText breaks references, so GitHub links none.
  out.push(`### ${FOOTPRINT_HEADING} (${cell(`run #${base.workflow_run_id}`)})`, "");
  out.push(
    `Compared with ${mdLink(`push run #${base.workflow_run_id}`, base.html_url)} of ${code(base.branch)} at ${code(base.head_sha.slice(0, 12))}: what this run touched that that run did not, allowed by the envelope or not. Advisory: it never changes the verdict.`,
    "",
  );
  const rows = FOOTPRINT_CLASSES.flatMap((c) =>
    file.new[c].map((i) => [cell(FOOTPRINT_CLASS_LABEL[c]), code(i.item), cell(String(i.first_line)), cell(String(i.count))]),
  );
  if (rows.length === 0)
    out.push(
      "Nothing new: every environment key, host, command, write directory and tool this run touched, the base's run touched too.",
      "",
    );
  else
    out.push(
      ...table(
        ["new", "what", "first at log line", "count"],
        rows,
        limit,
        (n) => `...and ${n} more (all of them are in the evidence bundle's footprint.json).`,
      ),
      "",
    );
  const gone = FOOTPRINT_CLASSES.filter((c) => file.no_longer[c] > 0).map((c) => `${FOOTPRINT_CLASS_LABEL[c]}: ${file.no_longer[c]}`);
  out.push(`No longer touched (in the base's run, not in this one): ${gone.length === 0 ? "nothing" : cell(gone.join(", "))}.`, "");
  return out.join("\n");
}

/** The footprint as the check run's text (markdown, escaped), within GitHub's size limit. */
export function renderFootprint(file: FootprintFile, maxChars = MAX_SUMMARY_CHARS): string {
  return fitted((limit) => renderFootprintAt(file, limit), maxChars, "\n\n(cut to GitHub's size limit; footprint.json holds everything)\n");
}

/** How many new things, for a title or a log line. */
export function footprintHeadline(file: FootprintFile): string {
  if (file.status === "no_base") return `footprint: no base run to compare (${file.reason})`;
  if (file.status !== "compared") return `footprint: could not compare (${file.reason})`;
  const n = newCount(file);
  return `footprint: ${n === 0 ? "nothing new" : `${n} new`} compared with the base's last run (run #${file.base.workflow_run_id})`;
}
