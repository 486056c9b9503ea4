/** The observer log's file: opened first, written only by LogWriter. */
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { Refusal, errnoOf } from "../core/errors.js";
import { LOG_VERSION, type Emitted } from "../core/log-format.js";

/** Opens (and truncates) the log: a stale log from an earlier run must never survive a refusal. */
export function openLog(logPath: string): number {
  try {
    return openSync(logPath, "w", 0o644);
  } catch (err) {
    throw new Refusal("OBSERVER_LOG_UNWRITABLE", `cannot write the observer log ${logPath} (${errnoOf(err) ?? String(err)})`, {
      file: logPath,
      cause: err,
    });
  }
}

/**
 * The log's only writer. A write that fails (a full disk, a quota, an I/O error) is the end of
 * the log: nothing is written after it, the file is cut back to its last whole line (so it has no
 * `end`, and check refuses it), and `onFailure` stops the command, whose actions would otherwise
 * go unrecorded. `failure` holds the typed error; `flush` throws it.
 */
export class LogWriter {
  private readonly fd: number;
  private readonly path: string;
  private readonly onFailure: () => void;
  private seq = 0;
  private buffer: string[] = [];
  private scheduled = false;
  private bytesWritten = 0;
  private linesWritten = 0;
  private failed: Refusal | null = null;

  constructor(fd: number, path: string, onFailure: () => void) {
    this.fd = fd;
    this.path = path;
    this.onFailure = onFailure;
  }

  get lines(): number {
    return this.seq;
  }

  get failure(): Refusal | null {
    return this.failed;
  }

  write(event: Emitted): void {
    if (this.failed !== null) return;
    const { kind, ...rest } = event;
    this.buffer.push(JSON.stringify({ v: LOG_VERSION, kind, ...rest, seq: this.seq }) + "\n");
    this.seq++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.writeBuffered());
    }
  }

  /** Writes what is buffered; throws if the log can no longer be written. */
  flush(): void {
    this.writeBuffered();
    if (this.failed !== null) throw this.failed;
  }

  /** Flushes and closes without throwing: a failure is left in `failure` for the caller. */
  close(): void {
    this.writeBuffered();
    try {
      closeSync(this.fd);
    } catch (err) {
      if (this.failed === null) this.fail(err);
    }
  }

  private writeBuffered(): void {
    this.scheduled = false;
    const lines = this.buffer.length;
    const bytes = Buffer.from(this.buffer.join(""), "utf8");
    this.buffer = [];
    if (this.failed !== null || lines === 0) return;
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      this.fail(err);
      return;
    }
    this.bytesWritten += bytes.length;
    this.linesWritten += lines;
  }

  private fail(err: unknown): void {
    const reason = errnoOf(err) ?? String(err);
    let state = `the log ends after ${this.linesWritten} whole lines, with no end line`;
    try {
      ftruncateSync(this.fd, this.bytesWritten);
    } catch (truncateError) {
      // The partial last line stays; check refuses a truncated last line as it refuses a missing end.
      state = `the log ends in a partial line (it could not be cut back: ${errnoOf(truncateError) ?? String(truncateError)})`;
    }
    const full = reason === "ENOSPC" || reason === "EDQUOT";
    this.failed = new Refusal(
      "OBSERVER_LOG_WRITE_FAILED",
      `cannot write the observer log ${this.path} (${reason}): the run is stopped and ${state}, so check refuses it`,
      {
        file: this.path,
        hint: full
          ? "The filesystem holding the log is full (or its quota is): free space there, or point --observer at a filesystem with room, and run again."
          : "The filesystem holding the log refused a write: check the device, or point --observer elsewhere, and run again.",
        cause: err,
      },
    );
    this.onFailure();
  }
}
