/**
 * What the Action's own `envelope-gate run` said of a run: its result file (src/check/result.ts),
 * parsed and checked here, then turned into the log to judge or the typed refusal. The wrapper's
 * stderr (which carries the command's too) and the file system are never read to tell the cases
 * apart. A result that is missing, unparsable, of another version, naming a code this build does
 * not know, or contradicting the wrapper's exit status is OBSERVER_LOG_MISSING: "could not tell
 * how the run ended" is never a run to judge.
 */
import { readFile, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { ERROR_CODES, Refusal, errnoOf, type ErrorCode } from "../core/errors.js";
import { CLI_RESULT_VERSION, type CliResult, type CliResultError } from "../check/result.js";

/** The result file as read: the wrapper's account, or why there is none to act on. */
type CliResultRead = { readonly ok: true; readonly result: CliResult } | { readonly ok: false; readonly problem: string };

/** How a wrapper process ended: its exit code (null: a signal) and what its result file said. */
export interface ObservedRun {
  readonly exitCode: number | null;
  readonly result: CliResultRead;
}

/** The log a run left to judge. */
interface ObservedLog {
  readonly path: string;
  readonly bytes: number;
}

/** What a run's end means to the Action: a log to judge, or the refusal (with whether a log was left beside it). */
type RunEnd =
  | { readonly kind: "logged"; readonly log: ObservedLog }
  | { readonly kind: "refused"; readonly error: Refusal; readonly logWritten: boolean };

const OUTCOMES: readonly string[] = ["completed", "refused", "usage"];
const VERDICTS: readonly string[] = ["pass", "envelope_fail", "error"];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

function parseError(v: unknown): CliResultError | string {
  if (!isRecord(v)) return "its error is not an object";
  if (typeof v.code !== "string" || !(ERROR_CODES as readonly string[]).includes(v.code)) {
    return `its error names a code this build does not know (${JSON.stringify(v.code)})`;
  }
  if (typeof v.message !== "string") return "its error has no message";
  for (const key of ["hint", "file"] as const) {
    if (v[key] !== undefined && typeof v[key] !== "string") return `its error's ${key} is not a string`;
  }
  if (v.line !== undefined && !isCount(v.line)) return "its error's line is not a line number";
  return {
    code: v.code as ErrorCode,
    message: v.message,
    ...(typeof v.hint === "string" ? { hint: v.hint } : {}),
    ...(typeof v.file === "string" ? { file: v.file } : {}),
    ...(typeof v.line === "number" ? { line: v.line } : {}),
  };
}

/** Parses a result file's text against the exit code the wrapper ended with (null: a signal). */
export function parseCliResult(text: string, exitCode: number | null): CliResultRead {
  const problem = (why: string): CliResultRead => ({ ok: false, problem: why });
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return problem("it is not JSON");
  }
  if (!isRecord(v)) return problem("it is not a JSON object");
  if (v.version !== CLI_RESULT_VERSION) return problem(`its version is ${JSON.stringify(v.version)}, not ${CLI_RESULT_VERSION}`);
  if (v.command !== "run" && v.command !== "check") return problem(`it names no command envelope-gate has (${JSON.stringify(v.command)})`);
  if (typeof v.outcome !== "string" || !OUTCOMES.includes(v.outcome)) return problem(`its outcome ${JSON.stringify(v.outcome)} is not one`);
  if (!isCount(v.exit_status)) return problem("its exit status is not one");
  if (v.exit_status !== exitCode) {
    return problem(`it says exit status ${v.exit_status}, and the wrapper ended ${exitCode === null ? "by a signal" : `with ${exitCode}`}`);
  }
  let error: CliResultError | null = null;
  if (v.outcome === "refused") {
    const parsed = parseError(v.error);
    if (typeof parsed === "string") return problem(parsed);
    error = parsed;
  } else if (v.error !== null) {
    return problem(`its outcome is ${v.outcome}, yet it carries an error`);
  }
  let log: CliResult["log"] = null;
  if (v.log !== null) {
    if (!isRecord(v.log) || typeof v.log.path !== "string" || !isCount(v.log.bytes))
      return problem("its log is neither null nor a path and a size");
    log = { path: v.log.path, bytes: v.log.bytes };
  }
  if (v.events !== null && !isCount(v.events)) return problem("its event count is not one");
  if (v.verdict !== null && (typeof v.verdict !== "string" || !VERDICTS.includes(v.verdict))) return problem("its verdict is not one");
  return {
    ok: true,
    result: {
      version: CLI_RESULT_VERSION,
      command: v.command,
      outcome: v.outcome as CliResult["outcome"],
      exit_status: v.exit_status,
      error,
      log,
      events: v.events,
      verdict: v.verdict as CliResult["verdict"],
    },
  };
}

/** Reads (and removes) the result file a wrapper was asked to write; a missing or unreadable one is a problem, not a throw. */
export async function takeCliResult(file: string, exitCode: number | null): Promise<CliResultRead> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = errnoOf(err);
    return { ok: false, problem: code === "ENOENT" ? "it was not written" : `it cannot be read (${code ?? String(err)})` };
  }
  await rm(file, { force: true });
  return parseCliResult(text, exitCode);
}

/** Whether a run left a log beside its end (false when its result cannot be read: nothing it says is taken). */
function logWritten(observed: ObservedRun): boolean {
  return observed.result.ok && observed.result.result.log !== null;
}

/**
 * What the run's end means: its log to judge, or the typed refusal. The wrapper's own refusal is
 * its code; a run that wrote no log is OBSERVER_LOG_MISSING, and so is one whose result cannot be
 * read. `what` prefixes the messages (a property's name), `hint` is said with each refusal.
 */
export function runEnd(observed: ObservedRun, logPath: string, say: { readonly what: string; readonly hint: string }): RunEnd {
  const exit = observed.exitCode ?? "none";
  const refused = (error: Refusal): RunEnd => ({ kind: "refused", error, logWritten: logWritten(observed) });
  if (!observed.result.ok) {
    return refused(
      new Refusal(
        "OBSERVER_LOG_MISSING",
        `${say.what}envelope-gate run ended (exit code ${exit}) without a result the Action can read: its result file ${observed.result.problem}`,
        { hint: say.hint },
      ),
    );
  }
  const { result } = observed.result;
  if (result.error !== null) {
    return refused(
      new Refusal(
        result.error.code,
        `${say.what}envelope-gate run refused with ${result.error.code} (exit code ${exit}); see the step log`,
        {
          hint: say.hint,
        },
      ),
    );
  }
  if (result.outcome !== "completed" || result.log === null) {
    return refused(
      new Refusal("OBSERVER_LOG_MISSING", `${say.what}envelope-gate run ended (exit code ${exit}) without writing ${logPath}`, {
        hint: say.hint,
      }),
    );
  }
  if (result.log.path !== resolve(logPath)) {
    return refused(
      new Refusal(
        "OBSERVER_LOG_MISSING",
        `${say.what}envelope-gate run ended (exit code ${exit}) without a result the Action can read: its result file names the log ${result.log.path}, not ${logPath}`,
        { hint: say.hint },
      ),
    );
  }
  return { kind: "logged", log: result.log };
}
