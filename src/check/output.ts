import { readlinkSync } from "node:fs";
import { Refusal, errnoOf } from "../core/errors.js";

/** Where standard output goes, for a message: the file it is redirected to where Linux says. */
function stdoutTarget(): string {
  try {
    return readlinkSync("/proc/self/fd/1");
  } catch {
    return "standard output";
  }
}

/** The typed error for a file envelope-gate writes (not the observer log, not the evidence bundle). */
export function outputUnwritable(file: string, what: string, err: unknown): Refusal {
  const reason = errnoOf(err) ?? String(err);
  const full = reason === "ENOSPC" || reason === "EDQUOT";
  return new Refusal("OUTPUT_UNWRITABLE", `cannot write ${what} to ${file} (${reason})`, {
    file,
    hint: full
      ? "The filesystem it goes to is full (or its quota is): free space there, or write it elsewhere, and run again."
      : "Check that the destination can be written, and run again.",
    cause: err,
  });
}

/**
 * Writes to standard output and waits until it is written. A refused write (a full disk, a
 * closed pipe) is OUTPUT_UNWRITABLE: the verdict did not reach its reader, so the command exits 3.
 */
export function writeStdout(text: string, what: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    // The stream reports a failed write twice, to the callback and as an "error" event: both reject.
    const refuse = (err: Error): void => reject(outputUnwritable(stdoutTarget(), what, err));
    process.stdout.on("error", refuse);
    process.stdout.write(text, (err) => {
      if (err) refuse(err);
      else resolvePromise();
    });
  });
}
