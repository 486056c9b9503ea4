/** The one sha256 of the test suites: envelope hashes, digest files, manifest checks. */
import { createHash } from "node:crypto";

/** sha256 of the bytes (a string as UTF-8), lowercase hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The hash as envelopes, logs and verdicts name it: `sha256:<hex>`. */
export function hashOf(data: string | Uint8Array): string {
  return `sha256:${sha256(data)}`;
}

/** The line of a `.sha256` digest file for `data` stored as `name` (sha256sum's format). */
export function digestLine(data: string | Uint8Array, name: string): string {
  return `${sha256(data)}  ${name}\n`;
}
