import { unzipSync } from "fflate";
import { GateError } from "../core/errors.js";
import { EVIDENCE_FILES, verifyBundle, type PropertiesFile, type PropertyRecord, type RunnerIdentity } from "../core/evidence.js";
import type { CheckReport } from "../core/verdict.js";

/** One run's evidence, every digest checked. */
export interface VerifiedBundle {
  /** sha256:<hex of manifest.json bytes>. */
  digest: string;
  runner: RunnerIdentity;
  properties: PropertyRecord[];
  verdict: CheckReport;
}

function unusable(message: string): never {
  throw new GateError("EVIDENCE_UNAVAILABLE", message, { hint: "A run whose evidence cannot be read never counts toward a freeze." });
}

function parseJsonFile(files: ReadonlyMap<string, Uint8Array>, name: string): unknown {
  const bytes = files.get(name);
  if (bytes === undefined) unusable(`the evidence bundle has no ${name}`);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return unusable(`${name} in the evidence bundle is not JSON`);
  }
}

/**
 * Unzips an evidence artifact, verifies the manifest digest and every file's digest
 * (EVIDENCE_DIGEST_MISMATCH otherwise), and reads runner.json, properties.json, verdict.json.
 */
export function readEvidenceZip(zip: Uint8Array): VerifiedBundle {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (err) {
    return unusable(`the evidence artifact is not a readable zip (${(err as Error).message})`);
  }
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith("/")) continue;
    files.set(name, bytes);
  }
  const { digest, manifest } = verifyBundle(files);
  for (const required of Object.values(EVIDENCE_FILES)) {
    if (!(required in manifest.files)) {
      throw new GateError("EVIDENCE_DIGEST_MISMATCH", `the evidence manifest does not cover ${required}`);
    }
  }
  const runner = parseJsonFile(files, EVIDENCE_FILES.runner) as RunnerIdentity;
  const props = parseJsonFile(files, EVIDENCE_FILES.properties) as Partial<PropertiesFile>;
  const verdict = parseJsonFile(files, EVIDENCE_FILES.verdict) as CheckReport;
  if (typeof runner !== "object" || runner === null) unusable("runner.json is not an object");
  if (props.version !== 1 || !Array.isArray(props.properties)) unusable('properties.json is not {"version":1,"properties":[...]}');
  for (const p of props.properties) {
    if (typeof p?.name !== "string" || !["pass", "fail", "error"].includes(String(p.result))) {
      unusable("properties.json has an entry without a name or with a result other than pass, fail, error");
    }
  }
  if (typeof verdict !== "object" || verdict === null || !["pass", "envelope_fail", "error"].includes(String(verdict.verdict))) {
    unusable("verdict.json has no verdict of pass, envelope_fail or error");
  }
  return { digest, runner, properties: props.properties, verdict };
}
