import { createHash } from "node:crypto";
import type { ErrorObject } from "ajv";
import envelopeSchema from "../../schema/envelope.schema.json" with { type: "json" };
import { validate as validateEnvelopeShape } from "./envelope-validator-generated.js";
import { ENV_SETS } from "./env-sets.js";
import { keyApart } from "./never-proposed.js";
import { Refusal } from "./errors.js";
import { JsonSyntaxError, decodeUtf8Strict, parseJsonWithLines } from "./json.js";
import { foldPath } from "./paths.js";
import { neverWritableReason } from "./protected.js";
import { parseService } from "./services.js";
import { HOST_SETS, expandHostEntry, isHostSetEntry, parseHostPattern, type HostPattern } from "./hosts.js";

export interface Envelope {
  envelope_id: string;
  allowed_roots: string[];
  allowed_tools: string[];
  allowed_env: string[];
  allowed_hosts: string[];
  network: "deny" | "allowlist";
  allowed_commands?: string[];
  /** What must have observed the run: "full" (default: the process-level observer too) or "node" (Node hooks only). */
  observation?: "full" | "node";
  /** Loopback inside the jail's own network namespace: "local" (default: recorded, not judged) or "network" (judged like any host). */
  loopback?: "local" | "network";
  /** Protected paths inside the roots made writable again (docs/formats.md, Protected paths); never .git's hooks or config. */
  writable_protected?: string[];
  /** The job's services the run may reach through the forward (services.ts, docs/egress.md#services). */
  services?: string[];
}

type EnvelopeHash = `sha256:${string}`;

export interface LoadedEnvelope {
  envelope: Envelope;
  /** `sha256:<hex>` over the file's raw bytes. */
  hash: EnvelopeHash;
  /** The file name as given, used in messages and annotations. */
  file: string;
  /** JSON pointer to 1-based line, for annotations on the rule that was broken. */
  lines: Map<string, number>;
}

export { envelopeSchema };

function schemaValidator(): typeof validateEnvelopeShape {
  // The shipped schema is checked against its meta-schema by the tests (test/core/envelope.test.ts),
  // not on every run: compiling the meta-schema was half of check's start-up. The schema itself is
  // compiled once, at build time (scripts/gen-validators.mjs): compiling it was most of the rest;
  // test/core/envelope-validator.test.ts holds the generated validator to the schema.
  return validateEnvelopeShape;
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The value a JSON pointer names in `root` (undefined where there is none). */
function valueAt(root: unknown, pointer: string): unknown {
  let at: unknown = root;
  for (const part of pointer.split("/").slice(1)) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return at;
}

function describeSchemaError(error: ErrorObject, root: unknown): string {
  const where = error.instancePath === "" ? "the envelope" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
    case "required":
      return `missing required key "${String(error.params.missingProperty)}"`;
    case "uniqueItems":
      return `${where} lists the same value twice (items ${String(error.params.j)} and ${String(error.params.i)})`;
    case "not":
      if (error.instancePath.startsWith("/writable_protected/")) {
        return `${where} names .git or its hooks, config, info, modules, worktrees or commondir, which can never be writable`;
      }
      return `${where} has a value of the wrong form`;
    case "enum":
      return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      if (error.instancePath.startsWith("/allowed_roots/") || error.instancePath.startsWith("/writable_protected/")) {
        return `${where} must be an absolute path or start with \${WORKSPACE} or \${SCRATCH}`;
      }
      if (error.instancePath.startsWith("/allowed_env/")) {
        return `${where} must be an environment key, PREFIX* for every key starting with a non-empty PREFIX, or a named set (@ci, @agents, @terminal)`;
      }
      if (error.instancePath.startsWith("/allowed_hosts/")) {
        const value = valueAt(root, error.instancePath);
        if (typeof value === "string" && isHostSetEntry(value)) return `${where}: ${unknownHostSet(value)}`;
        return `${where} must be a lower-case DNS name or IP literal with an optional :port (*.example.com for subdomains), or a host set (${[...HOST_SETS.keys()].join(", ")})`;
      }
      return `${where} has a value of the wrong form`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

function schemaErrorPointer(error: ErrorObject): string {
  if (error.keyword === "additionalProperties") {
    return `${error.instancePath}/${String(error.params.additionalProperty)}`;
  }
  if (error.keyword === "uniqueItems") return `${error.instancePath}/${String(error.params.i)}`;
  return error.instancePath;
}

/** Parses and validates envelope bytes. Pure: the caller reads the file. */
export function loadEnvelope(bytes: Uint8Array, file: string): LoadedEnvelope {
  const hash: EnvelopeHash = `sha256:${sha256Hex(bytes)}`;
  const decoded = decodeUtf8Strict(bytes);
  if (typeof decoded !== "string") {
    throw new Refusal("ENVELOPE_INVALID", `${file} is not valid UTF-8 (byte ${decoded.invalidAt})`, {
      file,
      line: decoded.line,
      hint: "Save the envelope as UTF-8.",
    });
  }
  // A byte order mark is tolerated: editors add it, and the digest still covers the raw bytes.
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  let parsed;
  try {
    parsed = parseJsonWithLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      throw new Refusal("ENVELOPE_INVALID", `${file}:${err.line}:${err.column}: ${err.message}`, {
        file,
        line: err.line,
        column: err.column,
        hint: "Fix the JSON; the envelope is validated against schema/envelope.schema.json.",
      });
    }
    throw err;
  }
  const validate = schemaValidator();
  if (!validate(parsed.value)) {
    const errors = validate.errors ?? [];
    const first = errors[0];
    const pointer = first ? schemaErrorPointer(first) : "";
    const line = parsed.lines.get(pointer) ?? parsed.lines.get(first?.instancePath ?? "") ?? 1;
    const all = errors.map((e) => describeSchemaError(e, parsed.value));
    throw new Refusal("ENVELOPE_INVALID", `${file}:${line}: ${all.join("; ")}`, {
      file,
      line,
      hint: "The envelope must match schema/envelope.schema.json exactly: no unknown keys, no duplicates.",
    });
  }
  const envelope = parsed.value as Envelope;
  envelope.allowed_hosts.forEach((entry, i) => {
    if (isHostSetEntry(entry)) {
      // The schema admits only the known names; this holds the code's list to it.
      if (HOST_SETS.has(entry)) return;
      const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
      throw new Refusal("ENVELOPE_INVALID", `${file}:${line}: ${unknownHostSet(entry)}`, { file, line });
    }
    if (parseHostPattern(entry) === null) {
      const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
      throw new Refusal("ENVELOPE_INVALID", `${file}:${line}: "${entry}" has a port outside 1-65535`, { file, line });
    }
  });
  envelope.services?.forEach((entry, i) => {
    const service = parseService(entry);
    if ("refused" in service) {
      const line = parsed.lines.get(`/services/${i}`) ?? 1;
      throw new Refusal("SERVICE_NOT_ALLOWED", `${file}:${line}: services entry "${entry}" can never be a service: ${service.refused}`, {
        file,
        line,
        hint: "A service is the job's own database or cache: 127.0.0.1:PORT or [::1]:PORT on the runner, its name in a container job (postgres:5432), or a unix socket path (docs/authoring.md#suites-with-services).",
      });
    }
  });
  envelope.writable_protected?.forEach((entry, i) => {
    const reason = writableProtectedReason(entry);
    if (reason !== null) {
      const line = parsed.lines.get(`/writable_protected/${i}`) ?? 1;
      throw new Refusal("ENVELOPE_INVALID", `${file}:${line}: writable_protected "${entry}" can never be writable: ${reason}`, {
        file,
        line,
        hint: "writable_protected names one protected directory or file a suite must write (e.g. ${WORKSPACE}/.github/generated); .git's hooks and config, and anything containing them, stay read-only.",
      });
    }
  });
  return { envelope, hash, file, lines: parsed.lines };
}

/** Lexical refusal of a writable_protected entry: a whole root variable (it contains .git), `/`, or .git's hooks and config. */
function writableProtectedReason(entry: string): string | null {
  const m = ROOT_VARIABLE.exec(entry);
  // The variable stands for a directory that holds the repository's .git: fold what follows it under a placeholder.
  const folded = foldPath(m ? `/${m[1] as string}${entry.slice(m[0].length)}` : entry);
  if (folded === null) return "it is not absolute";
  if (folded === "/") return "it contains everything, .git's hooks and config too";
  if (m !== null && m[1] === "WORKSPACE" && folded === "/WORKSPACE") return "the workspace contains .git/hooks and .git/config";
  if (m !== null && folded !== `/${m[1] as string}` && !folded.startsWith(`/${m[1] as string}/`))
    return `it leaves \${${m[1] as string}} with ".."`;
  return neverWritableReason(folded);
}

/** The sha256sum line for an envelope: `<hex>  <name>`. */
export function formatDigestLine(bytes: Uint8Array, name: string): string {
  return `${sha256Hex(bytes)}  ${name}\n`;
}

/**
 * The one reader of a sha256sum digest file, for the envelope's and an evidence bundle's alike:
 * exactly one non-empty line, `<64 hex>  <name>` (or ` *<name>`, or `\`-escaped as sha256sum
 * writes a name with a backslash), LF or CRLF. The lower-case hex, or why it is not one.
 */
export function readDigestLine(text: string): { hex: string } | { lines: number } | { notALine: true } {
  const entries = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (entries.length !== 1) return { lines: entries.length };
  const m = /^\\?([0-9a-fA-F]{64})(?: [ *](.+))?\s*$/.exec(entries[0] as string);
  return m ? { hex: (m[1] as string).toLowerCase() } : { notALine: true };
}

/** Reads an envelope's digest file (one entry). Returns the lower-case hex. */
export function parseDigestFile(text: string, file: string): string {
  const read = readDigestLine(text);
  if ("lines" in read) {
    throw new Refusal("ENVELOPE_DIGEST_INVALID", `${file} must hold exactly one sha256sum line, found ${read.lines}`, {
      file,
      hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
    });
  }
  if ("notALine" in read) {
    throw new Refusal("ENVELOPE_DIGEST_INVALID", `${file}:1: not a sha256sum line ("<64 hex>  envelope.json")`, {
      file,
      line: 1,
      hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
    });
  }
  return read.hex;
}

/**
 * Refuses unless the digest file pins exactly these bytes. Checked before the envelope is
 * parsed, so a tampered file is reported as tampered. There is no way to skip this.
 */
export function verifyDigest(envelopeBytes: Uint8Array, envelopeFile: string, digestText: string, digestFile: string): void {
  const expected = parseDigestFile(digestText, digestFile);
  const actual = sha256Hex(envelopeBytes);
  if (expected !== actual) {
    throw new Refusal("ENVELOPE_HASH_MISMATCH", `${envelopeFile} has sha256 ${actual}, but ${digestFile} pins ${expected}`, {
      file: digestFile,
      line: 1,
      hint: "The envelope changed without its digest. Review the change, then regenerate the digest in the same commit.",
    });
  }
}

interface RootValues {
  workspace?: string | undefined;
  scratch?: string | undefined;
}

/** `${WORKSPACE}` or `${SCRATCH}` at the start of a root, the variable's name captured. */
export const ROOT_VARIABLE = /^\$\{(WORKSPACE|SCRATCH)\}/;

/** Expands `${WORKSPACE}` and `${SCRATCH}` from explicit values and folds every root. */
export function expandRoots(loaded: LoadedEnvelope, values: RootValues): string[] {
  return expandPaths(loaded, values, "allowed_roots");
}

/** `writable_protected`, expanded and folded like the roots (empty when the key is absent). */
export function expandWritableProtected(loaded: LoadedEnvelope, values: RootValues): string[] {
  return expandPaths(loaded, values, "writable_protected");
}

function expandPaths(loaded: LoadedEnvelope, values: RootValues, key: "allowed_roots" | "writable_protected"): string[] {
  return (loaded.envelope[key] ?? []).map((root, i) => {
    const line = loaded.lines.get(`/${key}/${i}`);
    let expanded = root;
    const m = ROOT_VARIABLE.exec(root);
    if (m) {
      const name = m[1] as "WORKSPACE" | "SCRATCH";
      const value = name === "WORKSPACE" ? values.workspace : values.scratch;
      if (value === undefined || value === "") {
        throw new Refusal(
          "ROOT_VARIABLE_UNDEFINED",
          `${loaded.file}:${line ?? 1}: root "${root}" uses \${${name}}, but no ${name.toLowerCase()} was given`,
          {
            file: loaded.file,
            line,
            hint: `Pass --${name.toLowerCase()} DIR (action input '${name.toLowerCase()}'); an unset variable never expands to an empty string.`,
          },
        );
      }
      if (!value.startsWith("/")) {
        throw new Refusal("CONFIG_INVALID", `the ${name.toLowerCase()} value "${value}" is not an absolute path`, {
          hint: `Pass an absolute path for --${name.toLowerCase()}.`,
        });
      }
      expanded = value + root.slice(m[0].length);
    }
    const folded = foldPath(expanded);
    if (folded === null) {
      throw new Refusal("ENVELOPE_INVALID", `${loaded.file}:${line ?? 1}: root "${root}" is not absolute`, {
        file: loaded.file,
        line,
      });
    }
    return folded;
  });
}

/**
 * `allowed_env` as a matcher: exact keys, `PREFIX*` entries (a non-empty prefix, the only
 * pattern form; the schema refuses a bare `*`) and named sets (`@ci`, `@agents`, `@terminal`).
 * A pattern or a set never matches a key of never-proposed.ts's table (a credential or a credential
 * carrier, the machine, a run-identity key whose value differs between runner A and runner B, a
 * program-control key, a key outside printable ASCII): that key is allowed only when listed exactly. The gate judges reads with it, and the run wrapper passes exactly the keys it
 * accepts into the run.
 */
export function envMatcher(envelope: Envelope): (key: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const sets: ReadonlySet<string>[] = [];
  for (const entry of envelope.allowed_env) {
    if (entry.endsWith("*")) prefixes.push(entry.slice(0, -1));
    else if (entry.startsWith("@")) {
      const set = ENV_SETS.get(entry);
      // The schema admits only the known names; an unknown one matches nothing.
      if (set !== undefined) sets.push(set);
    } else exact.add(entry);
  }
  if (prefixes.length === 0 && sets.length === 0) return (key) => exact.has(key);
  return (key) => {
    if (exact.has(key)) return true;
    if (keyApart(key) !== null) return false;
    return prefixes.some((p) => key.startsWith(p)) || sets.some((s) => s.has(key));
  };
}

/** `allowed_hosts` as patterns, every host set expanded to its members (tagged with the set's name). */
export function hostPatterns(envelope: Envelope): HostPattern[] {
  return envelope.allowed_hosts.flatMap((h) => expandHostEntry(h) ?? []);
}

function unknownHostSet(entry: string): string {
  return `allowed_hosts entry "${entry}" is not a host set (the sets are ${[...HOST_SETS.keys()].join(", ")}; docs/egress.md lists them)`;
}
