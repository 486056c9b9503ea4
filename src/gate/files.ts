/**
 * Reads the gate's inputs from the local filesystem, turning every failure into its own typed
 * code. The only place the check pipeline touches files.
 */
import { open, readFile } from "node:fs/promises";
import { GateError, type ErrorCode } from "../core/errors.js";
import { loadEnvelope, verifyDigest, type LoadedEnvelope } from "../core/envelope.js";
import { LogEvaluator, type EvaluatorOptions, type LogVerdict } from "../core/log.js";

function errno(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

async function readBytes(path: string, missing: ErrorCode, unreadable: ErrorCode, what: string, hint: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = errno(err);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new GateError(missing, `${what} ${path} does not exist`, { file: path, hint, cause: err });
    }
    throw new GateError(unreadable, `${what} ${path} cannot be read (${code ?? String(err)})`, {
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

/** Streams the observer log through the evaluator in fixed-size chunks. */
export async function evaluateLogFile(
  envelope: LoadedEnvelope,
  logPath: string,
  options: Omit<EvaluatorOptions, "file">,
): Promise<LogVerdict> {
  let handle;
  try {
    handle = await open(logPath, "r");
  } catch (err) {
    const code = errno(err);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new GateError("OBSERVER_LOG_MISSING", `observer log ${logPath} does not exist`, {
        file: logPath,
        hint: "Record one with `envelope-gate run`; a missing log is never read as a clean run.",
        cause: err,
      });
    }
    throw new GateError("OBSERVER_LOG_UNREADABLE", `observer log ${logPath} cannot be read (${code ?? String(err)})`, {
      file: logPath,
      cause: err,
    });
  }
  const evaluator = new LogEvaluator(envelope, { ...options, file: logPath });
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, CHUNK, null));
      } catch (err) {
        throw new GateError("OBSERVER_LOG_UNREADABLE", `observer log ${logPath} cannot be read (${errno(err) ?? String(err)})`, {
          file: logPath,
          cause: err,
        });
      }
      if (bytesRead === 0) break;
      evaluator.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return evaluator.finish();
}
