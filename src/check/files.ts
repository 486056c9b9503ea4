/**
 * Reads the gate's inputs from the local filesystem, turning every failure into its own typed
 * code. The only place the check pipeline touches files.
 */
import { open, readFile, type FileHandle } from "node:fs/promises";
import { Refusal, errnoOf, logOpenError, type ErrorCode } from "../core/errors.js";
import { loadEnvelope, verifyDigest, type LoadedEnvelope } from "../core/envelope.js";
import { LogEvaluator, type EvaluatorOptions, type LogVerdict } from "../core/log-reader.js";

async function readBytes(path: string, missing: ErrorCode, unreadable: ErrorCode, what: string, hint: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = errnoOf(err);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Refusal(missing, `${what} ${path} does not exist`, { file: path, hint, cause: err });
    }
    throw new Refusal(unreadable, `${what} ${path} cannot be read (${code ?? String(err)})`, {
      file: path,
      hint: "Check the path and its permissions.",
      cause: err,
    });
  }
}

const ENVELOPE_HINT = "Commit an envelope.json (see examples/envelope.json) and point --envelope at it.";

export async function readEnvelopeFile(path: string): Promise<LoadedEnvelope> {
  return loadEnvelope(await readBytes(path, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT), path);
}

export function defaultDigestPath(envelopePath: string): string {
  return `${envelopePath}.sha256`;
}

/** Checks the pinned digest against the raw bytes, then loads the envelope. */
export async function readVerifiedEnvelope(envelopePath: string, digestPath = defaultDigestPath(envelopePath)): Promise<LoadedEnvelope> {
  const bytes = await readBytes(envelopePath, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT);
  const digest = await readBytes(
    digestPath,
    "ENVELOPE_DIGEST_MISSING",
    "ENVELOPE_DIGEST_UNREADABLE",
    "envelope digest",
    `Pin the envelope: envelope-gate hash ${envelopePath} > ${digestPath}, reviewed and committed with it.`,
  );
  verifyDigest(bytes, envelopePath, digest.toString("utf8"), digestPath);
  return loadEnvelope(bytes, envelopePath);
}

const CHUNK = 1 << 20;

/**
 * Streams the observer log through the evaluator in fixed-size chunks. Two buffers take turns:
 * the next chunk is read on the thread pool while this thread judges the one before it.
 */
export async function evaluateLogFile(
  envelope: LoadedEnvelope,
  logPath: string,
  options: Omit<EvaluatorOptions, "file">,
  chunkSize = CHUNK,
): Promise<LogVerdict> {
  let handle: FileHandle;
  try {
    handle = await open(logPath, "r");
  } catch (err) {
    throw logOpenError(err, logPath, "Record one with `envelope-gate run`; a missing log is never read as a clean run.");
  }
  const evaluator = new LogEvaluator(envelope, { ...options, file: logPath });
  let current = Buffer.allocUnsafe(chunkSize);
  let next = Buffer.allocUnsafe(chunkSize);
  const read = (buffer: Buffer): Promise<number> =>
    handle.read(buffer, 0, chunkSize, null).then(
      ({ bytesRead }) => bytesRead,
      (err: unknown) => {
        throw new Refusal("OBSERVER_LOG_UNREADABLE", `observer log ${logPath} cannot be read (${errnoOf(err) ?? String(err)})`, {
          file: logPath,
          cause: err,
        });
      },
    );
  let pending: Promise<number> | null = null;
  try {
    pending = read(current);
    for (;;) {
      const bytesRead = await pending;
      pending = null;
      if (bytesRead === 0) break;
      // Reads with a null position follow one another, so this one starts where the last ended.
      pending = read(next);
      evaluator.push(current.subarray(0, bytesRead));
      [current, next] = [next, current];
    }
  } finally {
    // A read still in flight when the evaluator threw: wait for it before closing the handle.
    if (pending !== null) await pending.catch(() => 0);
    await handle.close();
  }
  return evaluator.finish();
}
