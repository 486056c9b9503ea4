/**
 * The evidence bundle: a directory of files plus manifest.json (the sha256 of every other file,
 * keys sorted) and manifest.json.sha256. The bundle's digest is sha256 of the manifest bytes.
 * Pure: the caller reads and writes the files.
 */
import { unzipSync } from "fflate";
import { Refusal } from "./errors.js";
import { readDigestLine, sha256Hex } from "./envelope.js";
import type { CheckReport } from "./verdict.js";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_DIGEST_FILE = "manifest.json.sha256";
export const EVIDENCE_ARTIFACT_NAME = "envelope-gate-evidence";

export const EVIDENCE_FILES = {
  observerLog: "observer.jsonl",
  envelopeDigest: "envelope.json.sha256",
  properties: "properties.json",
  runner: "runner.json",
  verdict: "verdict.json",
} as const;

/**
 * Files only an audit run's bundle has (besides every one of EVIDENCE_FILES): the suggested
 * envelope and its `sha256sum` line (naming `envelope.json`, the file it is meant to become).
 */
export const AUDIT_EVIDENCE_FILES = {
  suggestedEnvelope: "suggested-envelope.json",
  suggestedEnvelopeDigest: "suggested-envelope.json.sha256",
} as const;

interface Manifest {
  version: 1;
  files: Record<string, string>;
}

interface BuiltManifest {
  manifest: Manifest;
  /** manifest.json bytes. */
  bytes: Uint8Array;
  /** manifest.json.sha256 text. */
  digestLine: string;
  /** sha256:<hex of manifest.json bytes>. */
  digest: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkName(name: string): void {
  if (!NAME.test(name) || name === MANIFEST_FILE || name === MANIFEST_DIGEST_FILE) {
    throw new Refusal("EVIDENCE_DIGEST_MISMATCH", `"${name}" cannot be an evidence file name (flat names only, not the manifest's own)`);
  }
}

/** Builds manifest.json for these files (everything except the manifest itself). */
export function buildManifest(files: ReadonlyMap<string, Uint8Array>): BuiltManifest {
  const names = [...files.keys()].sort();
  const entries: Record<string, string> = {};
  for (const name of names) {
    checkName(name);
    entries[name] = `sha256:${sha256Hex(files.get(name) as Uint8Array)}`;
  }
  const manifest: Manifest = { version: 1, files: entries };
  const bytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
  const hex = sha256Hex(bytes);
  return { manifest, bytes, digestLine: `${hex}  ${MANIFEST_FILE}\n`, digest: `sha256:${hex}` };
}

function mismatch(message: string): never {
  throw new Refusal("EVIDENCE_DIGEST_MISMATCH", message, {
    hint: "The evidence bundle was altered or is incomplete; it is not used.",
  });
}

/**
 * Verifies a whole bundle: the manifest digest line, then every listed file's hash, and that
 * no file is missing or unlisted. Returns the bundle digest, or throws EVIDENCE_DIGEST_MISMATCH.
 */
export function verifyBundle(files: ReadonlyMap<string, Uint8Array>): { digest: string; manifest: Manifest } {
  const manifestBytes = files.get(MANIFEST_FILE);
  if (manifestBytes === undefined) mismatch(`the bundle has no ${MANIFEST_FILE}`);
  const digestBytes = files.get(MANIFEST_DIGEST_FILE);
  if (digestBytes === undefined) mismatch(`the bundle has no ${MANIFEST_DIGEST_FILE}`);
  const hex = sha256Hex(manifestBytes);
  const line = readDigestLine(new TextDecoder().decode(digestBytes));
  if (!("hex" in line)) mismatch(`${MANIFEST_DIGEST_FILE} is not one sha256sum line`);
  if (line.hex !== hex) mismatch(`${MANIFEST_FILE} has sha256 ${hex}, but ${MANIFEST_DIGEST_FILE} says ${line.hex}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(manifestBytes));
  } catch {
    mismatch(`${MANIFEST_FILE} is not JSON`);
  }
  const m = manifest as Partial<Manifest>;
  if (typeof m !== "object" || m === null || m.version !== 1 || typeof m.files !== "object" || m.files === null || Array.isArray(m.files)) {
    mismatch(`${MANIFEST_FILE} is not {"version":1,"files":{...}}`);
  }
  const listed = m.files as Record<string, unknown>;
  for (const [name, expected] of Object.entries(listed)) {
    const bytes = files.get(name);
    if (bytes === undefined) mismatch(`${name} is listed in the manifest but missing from the bundle`);
    if (typeof expected !== "string" || expected !== `sha256:${sha256Hex(bytes)}`) {
      mismatch(`${name} does not match its manifest hash`);
    }
  }
  for (const name of files.keys()) {
    if (name !== MANIFEST_FILE && name !== MANIFEST_DIGEST_FILE && !Object.hasOwn(listed, name)) {
      mismatch(`${name} is in the bundle but not in the manifest`);
    }
  }
  return { digest: `sha256:${hex}`, manifest: m as Manifest };
}

/** The identity of the machine a run happened on, as runner.json records it. */
export interface RunnerIdentity {
  runner_name: string | null;
  machine_id: string | null;
  os: string;
  arch: string;
  cpus: number;
  cpu_model: string | null;
  locale: string | null;
  timezone: string | null;
  run_id: string | null;
  run_attempt: string | null;
  workflow_run_id: string | null;
  repository: string | null;
  head_sha: string | null;
  pull_number: number | null;
  dual_run_id: string | null;
  envelope_hash: string | null;
  envelope_id: string | null;
  /** The release that wrote the bundle (src/core/version.ts); absent in bundles from before 1.0.0. */
  envelope_gate_version?: string;
  /** The Action's input mode; absent in bundles written before audit mode (they are enforce runs). */
  mode?: "enforce" | "audit";
  /**
   * What an enforce run judged against (absent in bundles written before they were recorded, and
   * in audit runs): the base branch and its commit as the API named them, the commit the policy
   * files were read at (the base, or the head once a policy change was approved), and
   * `sha256:<hex>` of the properties file and the ledger it used (null: absent there).
   */
  base_ref?: string | null;
  base_sha?: string | null;
  policy_sha?: string | null;
  properties_digest?: string | null;
  ledger_digest?: string | null;
}

export type PropertyResult = "pass" | "fail" | "error";

export interface PropertyRecord {
  name: string;
  result: PropertyResult;
  detail: string;
  /** label -> sha256:<hex> of each input the result depended on. */
  inputs: Record<string, string>;
  frozen_by: string | null;
  /** Whether the properties file lets a freeze tolerate this property (absent in older bundles: not freezable). */
  freezable?: boolean;
  /** On a fail: the fingerprint of what failed, which a freeze row's scope must name (`<name>#<fingerprint>`). */
  failure_fingerprint?: string | null;
}

export interface PropertiesFile {
  version: 1;
  properties: PropertyRecord[];
}

export function encodeJson(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
}

/** One run's evidence, every digest checked. */
export interface VerifiedBundle {
  /** sha256:<hex of manifest.json bytes>. */
  digest: string;
  runner: RunnerIdentity;
  properties: PropertyRecord[];
  verdict: CheckReport;
}

function unusable(message: string): never {
  throw new Refusal("EVIDENCE_UNAVAILABLE", message, { hint: "A run whose evidence cannot be read never counts toward a freeze." });
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
 * Pure (the zip's bytes in, the bundle out): the App and the Action both read bundles with it.
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
      throw new Refusal("EVIDENCE_DIGEST_MISMATCH", `the evidence manifest does not cover ${required}`);
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
