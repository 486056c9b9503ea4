import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { expandRoots, type LoadedEnvelope } from "../core/envelope.js";
import { Refusal } from "../core/errors.js";
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

interface CheckSettings {
  envelopePath: string;
  digestPath?: string | undefined;
  logPath: string;
  workspace?: string | undefined;
  scratch?: string | undefined;
}

interface CheckOutcome {
  report: CheckReport;
  /** The verified envelope, when it got that far (for annotations on its lines). */
  envelope: LoadedEnvelope | null;
}

/** Verify the pinned envelope, then judge the log against it. Never throws; errors become the `error` verdict. */
export async function runCheck(settings: CheckSettings): Promise<CheckOutcome> {
  let envelope: LoadedEnvelope | null = null;
  try {
    envelope = await readVerifiedEnvelope(settings.envelopePath, settings.digestPath);
    const loaded = envelope;
    // The roots come from the meta line as the one reader reads it: a log without one is refused
    // by the reader, for its own reason, before any root is named.
    const roots = (meta: Readonly<Record<string, unknown>>): string[] =>
      expandRoots(loaded, {
        workspace: settled("workspace", settings.workspace, recordedRoot(meta, "workspace"), settings.logPath),
        scratch: settled("scratch", settings.scratch, recordedRoot(meta, "scratch"), settings.logPath),
      });
    const verdict = await evaluateLogFile(envelope, settings.logPath, { roots });
    return { report: reportFromVerdict(verdict), envelope };
  } catch (err) {
    return { report: reportFromError(err, envelope), envelope };
  }
}

/** The workspace or scratch the log's run recorded in its meta line, where it has one. */
function recordedRoot(meta: Readonly<Record<string, unknown>>, name: "workspace" | "scratch"): string | undefined {
  const value = meta[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The same directory, by its real path where it still exists (a run records real paths). */
function sameDirectory(given: string, recorded: string): boolean {
  if (resolve(given) === recorded) return true;
  try {
    return realpathSync(given) === recorded;
  } catch {
    return false;
  }
}

/** A root as given, or as the log recorded it; given and recorded differently is a refusal. */
function settled(
  name: "workspace" | "scratch",
  given: string | undefined,
  recorded: string | undefined,
  logPath: string,
): string | undefined {
  if (given === undefined) return recorded;
  if (recorded === undefined) return given;
  if (sameDirectory(given, recorded)) return recorded;
  throw new Refusal("CHECK_OPTIONS_CONFLICT", `--${name} ${given} differs from the ${name} the log's run recorded (${recorded})`, {
    file: logPath,
    line: 1,
    hint: `Leave out --${name}: check reads it from the log's meta line. A log is judged against the roots its run had.`,
  });
}
