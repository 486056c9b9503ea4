import { plainText } from "../core/markdown.js";
import { DOCKER_HINT } from "../core/rules.js";
import type { CheckReport } from "../core/verdict.js";
import { verdictLine } from "../check/check.js";

/** Text for a person: verdict first, one line per distinct violation, then the envelope. */
export function formatReportText(report: CheckReport): string {
  const out: string[] = [];
  if (report.verdict === "error" && report.error) {
    out.push(`envelope-gate: ERROR ${report.error.code} (could not evaluate; this is not a pass)`);
    const where = report.error.file ? `${report.error.file}${report.error.line ? `:${report.error.line}` : ""}` : undefined;
    out.push(`  ${report.error.message}`);
    if (where && !report.error.message.startsWith(where)) out.push(`  at ${where}`);
    if (report.error.hint) out.push(`  what to do: ${report.error.hint}`);
  } else {
    out.push(verdictLine(report));
    // An id holds what the run chose (a key, a path): escape sequences, carriage returns and bidi
    // characters are shown as \u{XXXX}, so one id cannot erase or reorder the line of another.
    const ids = report.violations.map((v) => plainText(v.id));
    const width = Math.min(80, Math.max(0, ...ids.map((id) => id.length)));
    report.violations.forEach((v, i) => {
      out.push(`  ${(ids[i] as string).padEnd(width)}  first at line ${v.first_line}, ${v.count} time${v.count === 1 ? "" : "s"}`);
    });
    // No envelope allows a container engine: what to do instead, once.
    if (report.violations.some((v) => v.rule === "docker_refused")) out.push(`  what to do (docker_refused): ${DOCKER_HINT}`);
  }
  if (report.envelope_id !== null) out.push(`envelope: ${report.envelope_id} ${report.envelope_hash ?? ""}`.trimEnd());
  if (report.log) {
    out.push(`run: ${report.log.run_id} on ${report.log.runner}, exit code ${report.log.exit_code ?? "none (signal)"}`);
    // What watched the run, always: a reviewer must see a partial observation without asking.
    const observers = Array.isArray(report.log.observers) ? report.log.observers.join(" + ") : "unknown";
    const network = report.log.network_enforced === true ? "enforced" : report.log.network_enforced === false ? "not enforced" : "unknown";
    out.push(`observed by: ${observers}; network: ${network}; jail: ${report.log.jail !== null ? "yes" : "none recorded"}`);
    const viaSets = report.log.via_sets ?? [];
    if (viaSets.length > 0) out.push(`allowed through host sets: ${viaSets.map((h) => `${h.host} (via ${h.set})`).join(", ")}`);
    if (report.log.audit) {
      out.push(
        "recorded in audit mode (run --audit): every host was let out through the recording proxy; judged against the envelope like any other log",
      );
    }
  }
  return out.join("\n") + "\n";
}
