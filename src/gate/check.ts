import { expandRoots, type LoadedEnvelope } from "../core/envelope.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";

const VERDICT_WORD = { pass: "PASS", envelope_fail: "FAIL", error: "ERROR" } as const;

/**
 * The verdict line of a judged log (`envelope-gate: PASS (pass): no violations in 23 events`).
 * A command that exited non-zero, or was killed, says so on the same line: a PASS judges what the
 * run touched, never whether its command worked. The exit code of `check` does not change with it.
 */
export function verdictLine(report: CheckReport): string {
  const n = report.violations.length;
  const summary =
    report.verdict === "pass"
      ? `no violations in ${report.events} events`
      : `${n} distinct violation${n === 1 ? "" : "s"} in ${report.events} events`;
  const exit = report.log?.exit_code;
  const command =
    report.log === null
      ? ""
      : exit === null
        ? "; the command did not exit (killed by a signal)"
        : exit !== 0
          ? `; the command exited ${String(exit)}`
          : "";
  return `envelope-gate: ${VERDICT_WORD[report.verdict]} (${report.verdict}): ${summary}${command}`;
}
import { evaluateLogFile, readVerifiedEnvelope } from "./files.js";

export interface CheckSettings {
  envelopePath: string;
  digestPath?: string | undefined;
  logPath: string;
  workspace?: string | undefined;
  scratch?: string | undefined;
}

export interface CheckOutcome {
  report: CheckReport;
  /** The verified envelope, when it got that far (for annotations on its lines). */
  envelope: LoadedEnvelope | null;
}

/** Verify the pinned envelope, then judge the log against it. Never throws; errors become the `error` verdict. */
export async function runCheck(settings: CheckSettings): Promise<CheckOutcome> {
  let envelope: LoadedEnvelope | null = null;
  try {
    envelope = await readVerifiedEnvelope(settings.envelopePath, settings.digestPath);
    const roots = expandRoots(envelope, { workspace: settings.workspace, scratch: settings.scratch });
    const verdict = await evaluateLogFile(envelope, settings.logPath, { roots });
    return { report: reportFromVerdict(verdict), envelope };
  } catch (err) {
    return { report: reportFromError(err, envelope), envelope };
  }
}
