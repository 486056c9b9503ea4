/**
 * The result file: how `run` and `check` tell the program that started them how they ended, as
 * typed JSON, when it asks for one through ENVELOPE_GATE_RESULT_FILE (internal: the Action asks,
 * src/action/cli-result.ts reads it; docs/action.md). Written once, at the end, whole (a temporary
 * file renamed into place). What the commands print on stdout and stderr is the same with it or without.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ErrorCode } from "../core/errors.js";
import { endLineEvents } from "../core/log-reader.js";
import type { Verdict } from "../core/verdict.js";
import { outputUnwritable } from "./output.js";

/** The variable naming the result file (read, then removed from the environment, by the CLI). */
export const RESULT_FILE_ENV = "ENVELOPE_GATE_RESULT_FILE";
export const CLI_RESULT_VERSION = 1;

export interface CliResultError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly hint?: string;
  readonly file?: string;
  readonly line?: number;
}

export interface CliResult {
  readonly version: typeof CLI_RESULT_VERSION;
  readonly command: "run" | "check";
  /**
   * completed: run ran its command and ended its log, check judged the log (pass or envelope_fail);
   * refused: a typed error (`error`, exit status 3); usage: the arguments were refused (exit status 2).
   */
  readonly outcome: "completed" | "refused" | "usage";
  /** The CLI's own exit status: for run the command's (or 3, 2), for check 0, 1, 3 (or 2). */
  readonly exit_status: number;
  readonly error: CliResultError | null;
  /** The observer log at the path given, as the command left it; null: no file there (or no path given). */
  readonly log: { readonly path: string; readonly bytes: number } | null;
  /** The events between meta and end (run: as its end line counts them; check: as judged); null when not known. */
  readonly events: number | null;
  /** check: the report's verdict; run: null (run does not judge). */
  readonly verdict: Verdict | null;
}

/** The result file asked for, taken out of the environment so nothing the command starts inherits it. */
export function takeResultFileRequest(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env[RESULT_FILE_ENV];
  delete env[RESULT_FILE_ENV];
  return file === undefined || file === "" ? null : resolve(file);
}

/** The log file at `path` as it stands: its size, or null when there is no file there. */
export function logOnDisk(path: string | undefined): CliResult["log"] {
  if (path === undefined) return null;
  const full = resolve(path);
  try {
    const st = statSync(full);
    return st.isFile() ? { path: full, bytes: st.size } : null;
  } catch {
    return null;
  }
}

/** How much of the log's end is read for its end line; an end line is far shorter. */
const END_SUFFIX_BYTES = 64 * 1024;

/** The events between meta and end, from the log's end line (its `events` counts meta too); null without one. */
export function logEndEvents(path: string): number | null {
  let text: string;
  try {
    const fd = openSync(path, "r");
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, END_SUFFIX_BYTES);
      const buffer = Buffer.alloc(length);
      const n = readSync(fd, buffer, 0, length, size - length);
      text = buffer.subarray(0, n).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const last = lines.at(-1) === "" ? lines.at(-2) : undefined;
  if (last === undefined) return null;
  return endLineEvents(last);
}

/** Writes the result whole: a temporary file beside it, renamed into place. A failure is OUTPUT_UNWRITABLE. */
export function writeCliResult(file: string, result: CliResult): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(result) + "\n", { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw outputUnwritable(file, "the result file", err);
  }
}
