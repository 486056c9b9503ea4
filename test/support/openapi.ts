/**
 * Holds the fake GitHub (fake-github.ts) and the webhook payloads tests deliver to the App to
 * GitHub's own API description: @octokit/openapi's `api.github.com.deref.json` (OpenAPI 3.0.3,
 * every $ref inlined) for REST, and @octokit/openapi-webhooks' `api.github.com.json`
 * (OpenAPI 3.1, $refs into its components) for webhook payloads. Versions are pinned in
 * package.json; docs/action.md ("The fake is held to GitHub's description") names them.
 *
 * For each request the fake sees, `checkExchange` checks that GitHub has the path (templated
 * paths matched segment by segment) and method, that the path parameters, the query (names
 * and values) and the JSON request body are valid, and that the response's JSON body is valid
 * for its status. `checkWebhook` checks a payload against the webhook named by its event and
 * action (`workflow_run` + `completed` -> `workflow-run-completed`; `push` -> `push`).
 *
 * The description is read on first use and each schema is compiled on first use and cached
 * (per operation and status), so a test file pays only for what it touches.
 *
 * Rules relaxed or tightened, and why:
 *  - Tightened: an object schema that lists `properties` and says nothing about extra ones
 *    rejects properties it does not describe (`unevaluatedProperties: false`, so it composes
 *    with allOf/anyOf/oneOf). GitHub's schemas leave objects open, which would let the fake
 *    (or a test's webhook payload) carry a field GitHub never sends, and the product read it,
 *    unnoticed. Where GitHub writes `additionalProperties` itself, its word stands. The members
 *    of an allOf are left open and the object owning the allOf is closed instead (a closed
 *    member would refuse the other members' properties).
 *  - OpenAPI 3.0 `nullable: true` becomes JSON Schema's `type: [T, "null"]` (and `null` joins
 *    an `enum`); without a `type` it becomes `anyOf: [schema, {type: "null"}]`. The 3.1
 *    webhooks description writes `type: [..., "null"]` already and is taken as it is.
 *  - `oneOf` is checked as `anyOf`: GitHub's alternatives overlap (a `simple-user` and an
 *    `enterprise` both match a bare account; the contents file and symlink forms share their
 *    required fields), so a valid body often matches more than one and `oneOf` would reject it.
 *  - Formats: ajv-formats checks date-time, date, uri, uri-template, email, int32, int64,
 *    double. GitHub's own `repo.nwo` and `timestamp` and `binary` are not JSON formats ajv
 *    knows; they are accepted unchecked (the `type` still is).
 *  - Statuses: a 2xx or 3xx the description does not list for the operation is a mismatch.
 *    An error status (4xx, 5xx) it does not list is accepted unchecked: GitHub answers any
 *    operation with 401, 403, 404, rate limits and 5xx without listing them everywhere, and
 *    tests inject such failures on purpose. Listed error statuses are checked.
 *  - A query parameter of format date-time (the workflow runs lists' `created`) takes GitHub's
 *    search range syntax, as its description says in prose: `>=`, `<=`, `>`, `<` and `a..b`
 *    are taken apart and each bound is checked as a date-time.
 *  - Bodies that are not JSON (zips, `application/vnd.github.raw`, empty 204/302 answers) are
 *    not checked; their path, method and query are. `discriminator`, `readOnly`, `example` and
 *    the `x-*` extensions carry no validation and are ignored.
 *  - Path parameters marked `x-multi-segment` (`{path}`, `{ref}`, `{branch}`) match one or more
 *    segments; every other parameter matches exactly one. When several templates match, the
 *    one with the most literal segments wins (`/pulls/{n}/files` over a multi-segment param).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv2019, type ValidateFunction, type ErrorObject } from "ajv/dist/2019.js";
import addFormatsModule from "ajv-formats";

const require = createRequire(import.meta.url);
// ajv-formats is CommonJS with `exports.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2019,
  formats?: string[],
) => void;

type Json = Record<string, unknown>;
type Schema = Json;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
  "x-multi-segment"?: boolean;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

interface Template {
  path: string;
  segments: { literal?: string; param?: string; multi: boolean }[];
  literals: number;
  operations: Record<string, Operation>;
}

// ---- schema normalisation --------------------------------------------------------------------

const OBJECT_KEYWORDS_THAT_CLOSE = ["additionalProperties", "unevaluatedProperties", "patternProperties"];

/**
 * OpenAPI 3.0/3.1 schema -> JSON Schema 2019-09 under the rules in the header. `open`: the
 * schema is a member of an allOf, so the allOf's owner (not the member) closes the object;
 * `components` resolves an allOf member's $ref so it can be taken open.
 */
export function normalizeSchema(schema: unknown, open = false, components?: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => normalizeSchema(s, false, components));
  if (schema === null || typeof schema !== "object") return schema;
  const input = schema as Json;
  const out: Json = {};
  const sub = (v: unknown) => normalizeSchema(v, false, components);
  for (const [key, value] of Object.entries(input)) {
    if (key === "nullable" || key === "discriminator" || key === "example" || key === "examples" || key.startsWith("x-")) continue;
    if (
      key === "properties" ||
      key === "patternProperties" ||
      key === "$defs" ||
      key === "definitions" ||
      key === "components" ||
      key === "schemas"
    ) {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, sub(v)]));
    } else if (key === "oneOf") {
      out.anyOf = sub(value);
    } else if (key === "allOf") {
      out.allOf = (value as unknown[]).map((member) => normalizeSchema(resolveRef(member, components), true, components));
    } else {
      out[key] = typeof value === "object" ? sub(value) : value;
    }
  }
  const declares = (s: Json): boolean => s.properties !== undefined || (Array.isArray(s.allOf) && (s.allOf as Json[]).some(declares));
  const leavesOpen = (s: Json): boolean =>
    OBJECT_KEYWORDS_THAT_CLOSE.some((k) => k in s) || (Array.isArray(s.allOf) && (s.allOf as Json[]).some(leavesOpen));
  if (!open && declares(out) && !leavesOpen(out)) out.unevaluatedProperties = false;
  if (input.nullable === true) {
    if (typeof out.type === "string") {
      out.type = [out.type, "null"];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else if (out.type === undefined) {
      return { anyOf: [out, { type: "null" }] };
    }
  }
  return out;
}

/** An allOf member `{$ref: "#/components/schemas/x"}` as the schema it names (webhooks only; REST is dereferenced). */
function resolveRef(member: unknown, components?: Json): unknown {
  const ref = (member as Json | null)?.$ref;
  if (typeof ref !== "string" || components === undefined || !ref.startsWith("#/components/schemas/")) return member;
  return (components.schemas as Json)[ref.slice("#/components/schemas/".length)] ?? member;
}

// ---- the descriptions, read once -------------------------------------------------------------

let restTemplates: Template[] | null = null;
let webhooks: { names: Set<string>; ajv: Ajv2019 } | null = null;
const restAjv = makeAjv(false);
const paramAjv = makeAjv(true);
const compiled = new Map<string, ValidateFunction | null>();

function makeAjv(coerce: boolean): Ajv2019 {
  const ajv = new Ajv2019({ strict: false, allErrors: true, coerceTypes: coerce ? "array" : false, allowUnionTypes: true });
  addFormats(ajv, ["date-time", "date", "uri", "uri-template", "email", "int32", "int64", "double", "float"]);
  for (const name of ["repo.nwo", "timestamp", "binary"]) ajv.addFormat(name, true);
  return ajv;
}

export const OPENAPI_FILE = "@octokit/openapi/generated/api.github.com.deref.json";
export const WEBHOOKS_FILE = "@octokit/openapi-webhooks/generated/api.github.com.json";

function templates(): Template[] {
  if (restTemplates !== null) return restTemplates;
  const doc = JSON.parse(readFileSync(require.resolve(OPENAPI_FILE), "utf8")) as {
    paths: Record<string, Record<string, Operation & { parameters?: Parameter[] }>>;
  };
  restTemplates = Object.entries(doc.paths).map(([path, item]) => {
    const operations: Record<string, Operation> = {};
    const shared = (item.parameters ?? []) as Parameter[];
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || typeof op !== "object") continue;
      operations[method.toUpperCase()] = { ...op, parameters: [...shared, ...(op.parameters ?? [])] };
    }
    const multi = new Set<string>();
    for (const op of Object.values(operations))
      for (const p of op.parameters ?? []) if (p.in === "path" && p["x-multi-segment"]) multi.add(p.name);
    const segments = path
      .split("/")
      .filter((s) => s !== "")
      .map((s) => {
        const m = /^\{(.+)\}$/.exec(s);
        return m ? { param: m[1] as string, multi: multi.has(m[1] as string) } : { literal: s, multi: false };
      });
    return { path, segments, literals: segments.filter((s) => s.literal !== undefined).length, operations };
  });
  return restTemplates;
}

function matchSegments(
  segments: Template["segments"],
  parts: string[],
  i = 0,
  j = 0,
  params: Record<string, string> = {},
): Record<string, string> | null {
  if (i === segments.length) return j === parts.length ? params : null;
  const seg = segments[i] as Template["segments"][number];
  if (j >= parts.length) return null;
  if (seg.literal !== undefined) return seg.literal === parts[j] ? matchSegments(segments, parts, i + 1, j + 1, params) : null;
  const most = seg.multi ? parts.length - (segments.length - i - 1) : j + 1;
  for (let end = most; end > j; end--) {
    const found = matchSegments(segments, parts, i + 1, end, {
      ...params,
      [seg.param as string]: parts.slice(j, end).map(safeDecode).join("/"),
    });
    if (found) return found;
  }
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** GitHub's template for a concrete path and method, or why there is none. */
export function findOperation(
  method: string,
  path: string,
): { template: string; operation: Operation; params: Record<string, string> } | { error: string } {
  const parts = path.split("/").filter((s) => s !== "");
  let best: { t: Template; params: Record<string, string> } | null = null;
  let pathKnown = false;
  for (const t of templates()) {
    if (best !== null && t.literals < best.t.literals) continue;
    const params = matchSegments(t.segments, parts);
    if (params === null) continue;
    pathKnown = true;
    if (!(method.toUpperCase() in t.operations)) continue;
    if (best === null || t.literals > best.t.literals) best = { t, params };
  }
  if (best === null) return { error: pathKnown ? `GitHub has no ${method.toUpperCase()} for ${path}` : `GitHub has no path like ${path}` };
  return { template: best.t.path, operation: best.t.operations[method.toUpperCase()] as Operation, params: best.params };
}

function validator(key: string, ajv: Ajv2019, schema: () => unknown): ValidateFunction | null {
  if (compiled.has(key)) return compiled.get(key) ?? null;
  const s = schema();
  const fn = s === undefined ? null : ajv.compile(normalizeSchema(s) as Schema);
  compiled.set(key, fn);
  return fn;
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // anyOf failures repeat each branch's errors; the branch errors say more than "must match a schema in anyOf".
    if (e.keyword === "anyOf" && (errors?.length ?? 0) > 1) continue;
    const extra =
      e.keyword === "unevaluatedProperties" ? ` (${String((e.params as { unevaluatedProperty?: string }).unevaluatedProperty)})` : "";
    seen.add(`${where}${e.instancePath || ""} ${e.message ?? e.keyword}${extra}`);
  }
  return [...seen];
}

export interface Exchange {
  method: string;
  /** The raw pathname as sent (still percent-encoded). */
  path: string;
  query: URLSearchParams;
  requestBody: unknown;
  /** Whether the request carried a body at all. */
  hasRequestBody: boolean;
  status: number;
  responseBody: unknown;
  /** Whether the response body is JSON (and so checked). */
  responseIsJson: boolean;
}

/** Every way this request or its response departs from GitHub's description (empty when none). */
export function checkExchange(ex: Exchange): string[] {
  const found = findOperation(ex.method, ex.path);
  if ("error" in found) return [found.error];
  const { template, operation, params } = found;
  const key = `${ex.method.toUpperCase()} ${template}`;
  const problems: string[] = [];
  const parameters = operation.parameters ?? [];
  for (const p of parameters.filter((p) => p.in === "path")) {
    const value = params[p.name];
    if (value === undefined || p.schema === undefined) continue;
    const fn = validator(`${key} path ${p.name}`, paramAjv, () => ({ type: "object", properties: { v: p.schema } }));
    if (fn && !fn({ v: value })) problems.push(...describe(fn.errors, `path parameter ${p.name}=${value}`));
  }
  const queryParams = new Map(parameters.filter((p) => p.in === "query").map((p) => [p.name, p]));
  for (const name of new Set(ex.query.keys())) {
    const p = queryParams.get(name);
    if (p === undefined) {
      problems.push(`query parameter ${name} is not one GitHub describes for ${key}`);
      continue;
    }
    const values = ex.query.getAll(name);
    const isArray = (p.schema as Json | undefined)?.type === "array";
    const fn = validator(`${key} query ${name}`, paramAjv, () => ({ type: "object", properties: { v: p.schema ?? {} } }));
    for (const v of isArray ? [values.flatMap((v) => v.split(","))] : searchRange(p, values.at(-1) as string)) {
      if (fn && !fn({ v })) problems.push(...describe(fn.errors, `query ${name}`));
    }
  }
  for (const p of queryParams.values()) if (p.required && !ex.query.has(p.name)) problems.push(`query parameter ${p.name} is required`);

  const requestSchema = jsonContent(operation.requestBody?.content);
  if (ex.hasRequestBody) {
    if (operation.requestBody === undefined) problems.push(`${key} takes no request body`);
    else if (requestSchema !== undefined) {
      const fn = validator(`${key} request`, restAjv, () => requestSchema);
      if (fn && !fn(ex.requestBody)) problems.push(...describe(fn.errors, "request body"));
    }
  } else if (operation.requestBody?.required && requestSchema !== undefined) {
    problems.push(`${key} requires a request body`);
  }

  const responses = operation.responses ?? {};
  const response = responses[String(ex.status)];
  if (response === undefined) {
    if (ex.status < 400) problems.push(`GitHub does not answer ${key} with ${ex.status} (it answers ${Object.keys(responses).join(", ")})`);
    return problems;
  }
  if (!ex.responseIsJson) return problems;
  const responseSchema = jsonContent(response.content);
  if (responseSchema === undefined) {
    if (ex.responseBody !== undefined && ex.responseBody !== null) problems.push(`GitHub answers ${key} ${ex.status} without a body`);
    return problems;
  }
  const fn = validator(`${key} ${ex.status}`, restAjv, () => responseSchema);
  if (fn && !fn(ex.responseBody)) problems.push(...describe(fn.errors, `response ${ex.status} body`));
  return problems;
}

/**
 * A date-time query parameter that GitHub documents as taking its search syntax (`created` on
 * the workflow runs lists: `>=2026-01-01T00:00:00Z`, `a..b`): each bound is checked as a date-time.
 */
function searchRange(p: Parameter, value: string): string[] {
  if ((p.schema as Json | undefined)?.format !== "date-time") return [value];
  const bare = value.replace(/^(>=|<=|>|<)/, "");
  return bare.includes("..") ? bare.split("..").filter((b) => b !== "*") : [bare];
}

function jsonContent(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  if (content === undefined) return undefined;
  const type = Object.keys(content).find((t) => t === "application/json") ?? Object.keys(content).find((t) => /json/.test(t));
  return type === undefined ? undefined : content[type]?.schema;
}

// ---- webhooks --------------------------------------------------------------------------------

function webhookDoc(): { names: Set<string>; ajv: Ajv2019 } {
  if (webhooks !== null) return webhooks;
  const doc = JSON.parse(readFileSync(require.resolve(WEBHOOKS_FILE), "utf8")) as { webhooks: Record<string, unknown>; components: Json };
  const ajv = makeAjv(false);
  ajv.addSchema({ $id: "webhooks", components: normalizeSchema(doc.components, false, doc.components) } as Schema);
  webhooks = { names: new Set(Object.keys(doc.webhooks)), ajv };
  const schemas = new Map<string, string>();
  for (const [name, item] of Object.entries(doc.webhooks)) {
    const ref = ((item as { post?: Operation }).post?.requestBody?.content?.["application/json"]?.schema as Json | undefined)?.$ref;
    if (typeof ref === "string") schemas.set(name, ref.replace(/^#/, "webhooks#"));
  }
  webhookRefs = schemas;
  return webhooks;
}
let webhookRefs = new Map<string, string>();

/** The webhook description's name for an event and its payload's action. */
export function webhookName(event: string, payload: unknown): string {
  const action = (payload as { action?: unknown } | null)?.action;
  const base = event.replace(/_/g, "-");
  return typeof action === "string" ? `${base}-${action.replace(/_/g, "-")}` : base;
}

/** Every way a webhook payload departs from GitHub's description of its event and action. */
export function checkWebhook(event: string, payload: unknown): string[] {
  const { ajv } = webhookDoc();
  const name = webhookName(event, payload);
  const ref = webhookRefs.get(name) ?? webhookRefs.get(event.replace(/_/g, "-"));
  if (ref === undefined) return [`GitHub describes no webhook ${name}`];
  const key = `webhook ${ref}`;
  const fn = compiled.get(key) ?? ajv.compile({ $ref: ref });
  compiled.set(key, fn);
  return fn(payload) ? [] : describe(fn.errors, `${event} payload`);
}
