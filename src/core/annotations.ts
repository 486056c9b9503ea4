/**
 * Check-run annotations: one per distinct violation, on the envelope file at the line of the
 * rule that was broken; property failures where they are; ledger rows that were refused or
 * expired. GitHub takes at most 50 per request. Titles and messages quote the pull request's
 * paths and names; GitHub shows them as plain text, so they go through `plainText` (invisible and
 * bidi characters shown, lines flattened), cut after that.
 */
import type { LoadedEnvelope } from "./envelope.js";
import type { Violation } from "./log-reader.js";
import { DOCKER_HINT, type ViolationRule } from "./rules.js";
import type { PropertyOutcome } from "./policy.js";
import type { LedgerProblem } from "./ledger.js";
import { plainText } from "./markdown.js";

/** Envelope key whose line an annotation for this rule points at. */
export const RULE_ENVELOPE_KEY: Record<ViolationRule, string> = {
  write_outside_root: "allowed_roots",
  undeclared_tool: "allowed_tools",
  undeclared_env: "allowed_env",
  network_denied: "network",
  undeclared_host: "allowed_hosts",
  undeclared_command: "allowed_commands",
  // No envelope key allows these (NO_ENVELOPE_ALLOWS): the annotation points at the envelope's name.
  forbidden_syscall: "envelope_id",
  write_protected: "writable_protected",
  docker_refused: "envelope_id",
};

/** The rules no envelope allows, whatever it says. */
export const NO_ENVELOPE_ALLOWS: ReadonlySet<ViolationRule> = new Set(["forbidden_syscall", "docker_refused"]);

/** The sentence after what the run did: which envelope does not allow it, and where (or that none does). */
export function envelopeSays(rule: ViolationRule, envelope: { id: string; hash: string }): string {
  return NO_ENVELOPE_ALLOWS.has(rule)
    ? `No envelope allows it (${envelope.id}, ${envelope.hash}).`
    : `The envelope ${envelope.id} (${envelope.hash}) does not allow it in "${RULE_ENVELOPE_KEY[rule]}".`;
}

export const ANNOTATIONS_PER_REQUEST = 50;
/** Most annotations sent for one run; the summary and the evidence hold the rest. */
const MAX_ANNOTATIONS = 500;
const MAX_TITLE = 255;
const MAX_MESSAGE = 4000;

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  title: string;
  message: string;
}

function annotation(
  path: string,
  line: number,
  level: CheckAnnotation["annotation_level"],
  title: string,
  message: string,
): CheckAnnotation {
  const at = Math.max(1, Math.floor(line));
  return {
    path,
    start_line: at,
    end_line: at,
    annotation_level: level,
    // GitHub shows annotations as plain text: what can mislead there is what does not show itself.
    title: plainText(title, MAX_TITLE),
    message: plainText(message, MAX_MESSAGE),
  };
}

/** Splits into request-sized batches; always at least one (possibly empty) batch. */
export function batchAnnotations<T>(items: readonly T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches.length === 0 ? [[]] : batches;
}

/** What the run did, in words, for one violation: the words before its subject, the subject, the words after. */
export function describeViolationParts(v: Violation): [string, string, string] {
  switch (v.rule) {
    case "write_outside_root":
      return ["the run wrote ", v.subject, ", outside every allowed root"];
    case "undeclared_tool":
      return ["the agent dispatched the tool ", v.subject, ", which allowed_tools does not list"];
    case "undeclared_env":
      return ["the run read the environment key ", v.subject, ", which allowed_env does not list"];
    case "network_denied":
      return ["the run reached for ", v.subject, ' while network is "deny"'];
    case "undeclared_host":
      return ["the run connected to ", v.subject, ", which allowed_hosts does not list"];
    case "undeclared_command":
      return ["the run executed ", v.subject, ", which allowed_commands does not list"];
    case "forbidden_syscall":
      return ["the run called ", v.subject, ", which the jail refuses because it would blind or escape the observer"];
    case "write_protected":
      return [
        "the run wrote ",
        v.subject,
        ", a protected path inside an allowed root (.git, .github, the Action's own files), which later steps of the job act on unjailed",
      ];
    case "docker_refused":
      return ["the run reached for ", v.subject, `, a container engine (Docker's socket or port). ${DOCKER_HINT}`];
  }
}

/** What the run did, in words, for one violation (plain text; quote the subject where it is shown). */
export function describeViolation(v: Violation): string {
  const [before, subject, after] = describeViolationParts(v);
  return `${before}${v.rule === "undeclared_tool" ? `"${subject}"` : subject}${after}`;
}

export function violationAnnotations(violations: readonly Violation[], envelope: LoadedEnvelope, logName: string): CheckAnnotation[] {
  return violations.map((v) => {
    const key = RULE_ENVELOPE_KEY[v.rule];
    const line = envelope.lines.get(`/${key}`) ?? 1;
    const times = `${v.count} time${v.count === 1 ? "" : "s"}`;
    return annotation(
      envelope.file,
      line,
      "failure",
      v.id,
      `${describeViolation(v)} (first at ${logName} line ${v.first_line}, ${times}). ${envelopeSays(v.rule, { id: envelope.envelope.envelope_id, hash: envelope.hash })}`,
    );
  });
}

export function propertyAnnotations(outcomes: readonly PropertyOutcome[], propertiesFile: string): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  for (const p of outcomes) {
    const r = p.record;
    if (r.result === "pass") continue;
    const level = p.frozenBy !== null ? "warning" : "failure";
    const suffix = p.frozenBy !== null ? ` Tolerated: frozen by ${p.frozenBy.freeze_id} until ${p.frozenBy.expires_on}.` : "";
    if (p.locations.length > 0) {
      for (const loc of p.locations)
        out.push(annotation(loc.path, loc.line, level, `property ${r.name}: ${r.result}`, `${loc.message}.${suffix}`));
    } else {
      out.push(annotation(propertiesFile, p.line, level, `property ${r.name}: ${r.result}`, `${r.detail}.${suffix}`));
    }
  }
  return out;
}

export function ledgerAnnotations(
  outcomes: readonly PropertyOutcome[],
  refused: readonly LedgerProblem[],
  ledgerFile: string,
): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  for (const p of outcomes) {
    for (const row of p.expired) {
      out.push(
        annotation(
          ledgerFile,
          row.line,
          p.record.result === "pass" ? "notice" : "failure",
          `freeze ${row.freeze_id} expired`,
          `${row.freeze_id} froze "${row.property}" until ${row.expires_on}; it has expired and tolerates nothing. Close the row or renew it through a reviewed ledger PR.`,
        ),
      );
    }
  }
  for (const problem of refused) {
    out.push(
      annotation(
        ledgerFile,
        problem.line,
        "warning",
        `ledger row ${problem.freeze_id ?? `line ${problem.line}`} is never honored`,
        problem.reason,
      ),
    );
  }
  return out;
}

/** Keeps at most MAX_ANNOTATIONS, failures first. Returns the kept list and how many were left out. */
export function capAnnotations(all: readonly CheckAnnotation[], max = MAX_ANNOTATIONS): { kept: CheckAnnotation[]; omitted: number } {
  if (all.length <= max) return { kept: [...all], omitted: 0 };
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  const sorted = [...all].sort((a, b) => rank[a.annotation_level] - rank[b.annotation_level]);
  return { kept: sorted.slice(0, max), omitted: all.length - max };
}
