/**
 * Non-envelope properties: the declaration file (schema/properties.schema.json) and the pure
 * scorers for the built-in kinds. The caller gathers the inputs (files, the patch, command
 * output); this decides pass or fail and hashes what the decision depended on.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { minimatch } from "minimatch";
import propertiesSchema from "../../schema/properties.schema.json" with { type: "json" };
import { sha256Hex } from "./envelope.js";
import { Refusal } from "./errors.js";
import type { PropertyResult } from "./evidence.js";
import { JsonSyntaxError, decodeUtf8Strict, parseJsonWithLines } from "./json.js";
import { isEnvelopeRuleName } from "./ledger.js";

export { propertiesSchema };

export const DEFAULT_PROPERTIES_PATH = ".github/envelope-gate/properties.json";

interface OutputSchemaProperty {
  name: string;
  /** Whether a ledger row may tolerate this property's failure (defaults: see isFreezable). */
  freezable?: boolean;
  kind: "output_schema";
  description?: string;
  output: string;
  schema: Record<string, unknown>;
}

interface PatchPathsProperty {
  name: string;
  /** Whether a ledger row may tolerate this property's failure (defaults: see isFreezable). */
  freezable?: boolean;
  kind: "patch_paths";
  description?: string;
  globs: string[];
}

interface TestsCollectedProperty {
  name: string;
  /** Whether a ledger row may tolerate this property's failure (defaults: see isFreezable). */
  freezable?: boolean;
  kind: "tests_collected";
  description?: string;
  command: string[];
  min: number;
  line_regex?: string;
  count_regex?: string;
  timeout_seconds?: number;
}

type PropertyDeclaration = OutputSchemaProperty | PatchPathsProperty | TestsCollectedProperty;

/**
 * Whether a property may be frozen. `patch_paths` never: it is scored from the pull request's
 * file list, which is the same on every machine, so two runners can only "disagree" on it by a
 * forged bundle, and a frozen patch_paths would let later pull requests touch any path. The
 * others are freezable unless declared `"freezable": false`: their results come from the run
 * (an output file, a test collector), which can really differ between machines.
 */
export function isFreezable(declaration: PropertyDeclaration): boolean {
  if (declaration.kind === "patch_paths") return false;
  return declaration.freezable ?? true;
}

interface DeclaredProperty {
  declaration: PropertyDeclaration;
  /** Line of the declaration in the properties file, for annotations. */
  line: number;
  /** For output_schema: the compiled schema. */
  validate?: ValidateFunction;
}

export interface PropertiesDeclaration {
  file: string;
  hash: string;
  properties: DeclaredProperty[];
}

let validateShape: ValidateFunction | undefined;

function invalid(file: string, line: number, message: string): never {
  throw new Refusal("PROPERTIES_INVALID", `${file}:${line}: ${message}`, {
    file,
    line,
    hint: "The properties file must match schema/properties.schema.json; fix it in a reviewed change to the base branch.",
  });
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "the file" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
  if (error.keyword === "additionalProperties") return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
  if (error.keyword === "required") return `${where} is missing "${String(error.params.missingProperty)}"`;
  if (error.keyword === "const" && error.instancePath.endsWith("/freezable"))
    return `${where} must be false: patch_paths is scored from the pull request's file list, the same on every machine, and is never frozen`;
  return `${where} ${error.message ?? "is invalid"}`;
}

/** Parses and validates the properties file. Throws PROPERTIES_INVALID with a line. */
export function loadProperties(bytes: Uint8Array, file: string): PropertiesDeclaration {
  const decoded = decodeUtf8Strict(bytes);
  if (typeof decoded !== "string") invalid(file, decoded.line, "not valid UTF-8");
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  let parsed;
  try {
    parsed = parseJsonWithLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) invalid(file, err.line, err.message);
    throw err;
  }
  validateShape ??= new Ajv({ allErrors: true, strict: true }).compile(propertiesSchema);
  if (!validateShape(parsed.value)) {
    const errors = validateShape.errors ?? [];
    // oneOf reports every branch; the most specific message is the deepest one.
    const deepest = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
    const line = parsed.lines.get(deepest?.instancePath ?? "") ?? 1;
    invalid(file, line, deepest ? describe(deepest) : "does not match the schema");
  }
  const value = parsed.value as { properties: PropertyDeclaration[] };
  const seen = new Map<string, number>();
  const properties = value.properties.map((declaration, i): DeclaredProperty => {
    const line = parsed.lines.get(`/properties/${i}`) ?? 1;
    if (isEnvelopeRuleName(declaration.name)) {
      invalid(
        file,
        line,
        `property "${declaration.name}" carries an envelope rule's name; envelope rules are judged by the envelope and never frozen`,
      );
    }
    const earlier = seen.get(declaration.name);
    if (earlier !== undefined) invalid(file, line, `property "${declaration.name}" is declared twice (first on line ${earlier})`);
    seen.set(declaration.name, line);
    const declared: DeclaredProperty = { declaration, line };
    if (declaration.kind === "output_schema") {
      try {
        declared.validate = new Ajv({ allErrors: true, strict: false }).compile(declaration.schema);
      } catch (err) {
        invalid(
          file,
          parsed.lines.get(`/properties/${i}/schema`) ?? line,
          `the schema of "${declaration.name}" does not compile: ${(err as Error).message}`,
        );
      }
    }
    if (declaration.kind === "tests_collected") {
      for (const key of ["line_regex", "count_regex"] as const) {
        const source = declaration[key];
        if (source === undefined) continue;
        try {
          const re = new RegExp(source);
          if (key === "count_regex" && !/\((?!\?)/.test(re.source)) throw new Error("needs a capture group for the count");
        } catch (err) {
          invalid(file, parsed.lines.get(`/properties/${i}/${key}`) ?? line, `${key} of "${declaration.name}": ${(err as Error).message}`);
        }
      }
    }
    return declared;
  });
  return { file, hash: `sha256:${sha256Hex(bytes)}`, properties };
}

export interface Score {
  result: PropertyResult;
  detail: string;
  inputs: Record<string, string>;
  /** Where a failure is, for annotations (repository-relative paths). */
  locations: { path: string; line: number; message: string }[];
  /**
   * On a fail: what failed, canonical and machine-independent (no timestamps, no scratch
   * paths), so a freeze row can name this failure and no other (failureFingerprint).
   */
  signature?: Record<string, unknown>;
}

/** Canonical JSON: object keys sorted at every level. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The fingerprint a freeze row's scope carries (`<property>#<fingerprint>`): the first 16 hex of
 * sha256 over the canonical JSON of the property's name and kind and its failure signature.
 */
export function failureFingerprint(name: string, kind: PropertyDeclaration["kind"], signature: Record<string, unknown>): string {
  return sha256Hex(canonical({ property: name, kind, failure: signature })).slice(0, 16);
}

const hashOf = (bytes: Uint8Array | string): string => `sha256:${sha256Hex(bytes)}`;

export function scoreOutputSchema(declared: DeclaredProperty, output: Uint8Array | null): Score {
  const d = declared.declaration as OutputSchemaProperty;
  const inputs: Record<string, string> = { schema: hashOf(JSON.stringify(d.schema)) };
  if (output === null)
    return { result: "fail", detail: `${d.output} was not produced`, inputs, locations: [], signature: { reason: "missing" } };
  inputs.output = hashOf(output);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(output));
  } catch (err) {
    return {
      result: "fail",
      detail: `${d.output} is not JSON (${(err as Error).message})`,
      inputs,
      locations: [],
      signature: { reason: "not_json" },
    };
  }
  const validate = declared.validate as ValidateFunction;
  if (validate(value)) return { result: "pass", detail: `${d.output} matches the declared schema`, inputs, locations: [] };
  const all = validate.errors ?? [];
  const errors = all.slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
  // Where and which rule failed: the schema's paths and keywords, never the values found.
  const failed = [...new Set(all.map((e) => `${e.instancePath || "/"} ${e.schemaPath} ${e.keyword}`))].sort();
  return {
    result: "fail",
    detail: `${d.output} does not match the declared schema: ${errors.join("; ")}`,
    inputs,
    locations: [],
    signature: { reason: "schema", errors: failed },
  };
}

interface PatchFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/** New-side start line of every hunk in a unified diff. */
export function hunkStarts(patch: string | undefined): number[] {
  if (patch === undefined) return [];
  const starts: number[] = [];
  for (const m of patch.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/gm)) starts.push(Math.max(1, Number(m[1])));
  return starts;
}

export function scorePatchPaths(declared: DeclaredProperty, files: readonly PatchFile[]): Score {
  const d = declared.declaration as PatchPathsProperty;
  const allowed = (path: string): boolean => d.globs.some((g) => minimatch(path, g, { dot: true, nocomment: true, nonegate: true }));
  const canonical = files.map((f) => ({
    filename: f.filename,
    status: f.status,
    previous_filename: f.previous_filename ?? null,
    patch: f.patch ?? null,
  }));
  const inputs = { patch: hashOf(JSON.stringify(canonical)), globs: hashOf(JSON.stringify(d.globs)) };
  const offending: string[] = [];
  const locations: Score["locations"] = [];
  for (const f of files) {
    const paths = [f.filename, ...(f.previous_filename !== undefined ? [f.previous_filename] : [])];
    const outside = paths.filter((p) => !allowed(p));
    if (outside.length === 0) continue;
    offending.push(...outside);
    const starts = f.status === "removed" ? [] : hunkStarts(f.patch);
    const message = `${outside.join(" and ")} is outside the globs of property "${d.name}" (${d.globs.join(", ")})`;
    if (starts.length === 0) locations.push({ path: f.filename, line: 1, message });
    for (const line of starts) locations.push({ path: f.filename, line, message: `this hunk: ${message}` });
  }
  if (offending.length === 0)
    return { result: "pass", detail: `all ${files.length} changed files are under ${d.globs.join(", ")}`, inputs, locations };
  const shown = offending.slice(0, 10).join(", ");
  return {
    signature: { reason: "outside", paths: [...new Set(offending)].sort() },
    result: "fail",
    detail: `${offending.length} changed path${offending.length === 1 ? "" : "s"} outside ${d.globs.join(", ")}: ${shown}${offending.length > 10 ? ", ..." : ""}`,
    inputs,
    locations,
  };
}

export interface CommandOutcome {
  /** null when the command could not start or was stopped (see failure). */
  exitCode: number | null;
  stdout: string;
  /** Why there is no exit code: not found, timed out, killed. */
  failure?: string;
}

export function scoreTestsCollected(declared: DeclaredProperty, outcome: CommandOutcome): Score {
  const d = declared.declaration as TestsCollectedProperty;
  const inputs: Record<string, string> = { command: hashOf(JSON.stringify(d.command)), stdout: hashOf(outcome.stdout) };
  const cmd = d.command.join(" ");
  if (outcome.exitCode === null) {
    return { result: "error", detail: `\`${cmd}\` did not run to completion: ${outcome.failure ?? "no exit code"}`, inputs, locations: [] };
  }
  if (outcome.exitCode !== 0) {
    return {
      result: "fail",
      detail: `\`${cmd}\` exited with ${outcome.exitCode}`,
      inputs,
      locations: [],
      signature: { reason: "exit", exit_code: outcome.exitCode },
    };
  }
  let count: number;
  if (d.count_regex !== undefined) {
    const m = new RegExp(d.count_regex, "m").exec(outcome.stdout);
    if (!m || m[1] === undefined || !/^\d+$/.test(m[1])) {
      return {
        result: "fail",
        detail: `\`${cmd}\` printed no count matching /${d.count_regex}/`,
        inputs,
        locations: [],
        signature: { reason: "no_count" },
      };
    }
    count = Number(m[1]);
  } else {
    const re = new RegExp(d.line_regex ?? "\\S");
    count = outcome.stdout.split(/\r?\n/).filter((l) => l.trim() !== "" && re.test(l)).length;
  }
  const detail = `\`${cmd}\` reports ${count} test${count === 1 ? "" : "s"}; at least ${d.min} required`;
  if (count >= d.min) return { result: "pass", detail, inputs, locations: [] };
  return { result: "fail", detail, inputs, locations: [], signature: { reason: "count", count, min: d.min } };
}
