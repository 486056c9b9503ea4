/**
 * An organisation's envelope: the most a covered repository's envelope may allow (its ceiling),
 * what none may ever allow, and time-boxed exceptions. Pure: the App reads the file
 * (app/org-ceiling.ts); `widenings` is the one judge of "within", for the verified check and for
 * the envelope PRs alike (docs/formats.md, Organisation envelope).
 */
import { Ajv, type ErrorObject } from "ajv";
import ceilingSchema from "../../schema/org-envelope.schema.json" with { type: "json" };
import { ENV_SETS } from "./env-sets.js";
import type { Envelope, LoadedEnvelope } from "./envelope.js";
import { ROOT_VARIABLE, sha256Hex } from "./envelope.js";
import { Refusal } from "./errors.js";
import { expandHostEntry, hostAllowed, parseHostPattern, type HostPattern } from "./hosts.js";
import { JsonSyntaxError, decodeUtf8Strict, parseJsonWithLines } from "./json.js";
import { familyApart, keyApart } from "./never-proposed.js";
import { foldPath, isInsideRoot } from "./paths.js";

/** What an exception may add, in the ceiling's own keys. */
export interface CeilingAllow {
  allowed_roots?: string[];
  allowed_tools?: string[];
  allowed_env?: string[];
  allowed_hosts?: string[];
  network?: "allowlist";
  allowed_commands?: string[];
  loopback?: "local";
  observation?: "node";
  writable_protected?: string[];
  services?: string[];
}

export interface CeilingException {
  repository: string;
  allow: CeilingAllow;
  reason: string;
  approver: string;
  approved_on: string;
  expires_on: string;
}

export interface Ceiling {
  ceiling_id: string;
  repositories: string[];
  allowed_roots: string[];
  allowed_tools: string[];
  allowed_env: string[];
  allowed_hosts: string[];
  network: "deny" | "allowlist";
  allowed_commands?: string[];
  loopback?: "local" | "network";
  observation?: "full" | "node";
  writable_protected?: string[];
  services?: string[];
  never_env?: string[];
  never_hosts?: string[];
  /** Where `${WORKSPACE}` and `${SCRATCH}` may point (globs, `*` one segment); absent: the built-in rule (rootValuesRefusal). */
  root_values?: { WORKSPACE?: string[]; SCRATCH?: string[] };
  exceptions?: CeilingException[];
}

export interface LoadedCeiling {
  ceiling: Ceiling;
  hash: `sha256:${string}`;
  file: string;
  lines: Map<string, number>;
}

/** The longest an exception may run, from its approval to its last day. */
export const EXCEPTION_MAX_DAYS = 90;

let validateShape: ReturnType<Ajv["compile"]> | undefined;

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "the organisation envelope" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
  if (error.keyword === "additionalProperties") return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
  if (error.keyword === "required") return `missing required key "${String(error.params.missingProperty)}" in ${where}`;
  if (error.keyword === "enum")
    return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  return `${where} ${error.message ?? "is invalid"}`;
}

/** Parses and validates an organisation envelope's bytes (schema/org-envelope.schema.json). */
export function loadCeiling(bytes: Uint8Array, file: string): LoadedCeiling {
  const decoded = decodeUtf8Strict(bytes);
  if (typeof decoded !== "string") {
    throw new Refusal("ORG_ENVELOPE_INVALID", `${file} is not valid UTF-8 (byte ${decoded.invalidAt})`, { file, line: decoded.line });
  }
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  let parsed;
  try {
    parsed = parseJsonWithLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      throw new Refusal("ORG_ENVELOPE_INVALID", `${file}:${err.line}:${err.column}: ${err.message}`, { file, line: err.line });
    }
    throw err;
  }
  validateShape ??= new Ajv({ allErrors: true, strict: true }).compile(ceilingSchema);
  if (!validateShape(parsed.value)) {
    const errors = validateShape.errors ?? [];
    const first = errors[0];
    const pointer =
      first?.keyword === "additionalProperties"
        ? `${first.instancePath}/${String(first.params.additionalProperty)}`
        : (first?.instancePath ?? "");
    const line = parsed.lines.get(pointer) ?? parsed.lines.get(first?.instancePath ?? "") ?? 1;
    throw new Refusal("ORG_ENVELOPE_INVALID", `${file}:${line}: ${errors.map(describe).join("; ")}`, {
      file,
      line,
      hint: "The organisation envelope must match schema/org-envelope.schema.json exactly (docs/formats.md, Organisation envelope).",
    });
  }
  const ceiling = parsed.value as Ceiling;
  const hostLists: [string, string[] | undefined][] = [
    ["allowed_hosts", ceiling.allowed_hosts],
    ["never_hosts", ceiling.never_hosts],
  ];
  for (const [key, list] of hostLists) {
    list?.forEach((entry, i) => {
      if (expandHostEntry(entry) !== null) return;
      const line = parsed.lines.get(`/${key}/${i}`) ?? 1;
      throw new Refusal(
        "ORG_ENVELOPE_INVALID",
        `${file}:${line}: ${key} entry "${entry}" is not a host, a known host set, or has a port outside 1-65535`,
        {
          file,
          line,
        },
      );
    });
  }
  return { ceiling, hash: `sha256:${sha256Hex(bytes)}`, file, lines: parsed.lines };
}

/** A repository's name without its owner (`acme/widgets` -> `widgets`). */
function repositoryName(repository: string): string {
  return repository.slice(repository.indexOf("/") + 1);
}

/** Whether `repository` (a name without the owner) is one the ceiling covers. */
export function coversRepository(ceiling: Pick<Ceiling, "repositories">, repository: string): boolean {
  const name = repositoryName(repository);
  const matches = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i").test(name);
  const include = ceiling.repositories.filter((e) => !e.startsWith("!"));
  const exclude = ceiling.repositories.filter((e) => e.startsWith("!")).map((e) => e.slice(1));
  return include.some(matches) && !exclude.some(matches);
}

/** One exception row, judged for a day: honoured, or why not. */
export type ExceptionStanding =
  { row: CeilingException; index: number; honoured: true } | { row: CeilingException; index: number; honoured: false; why: string };

const DAY_MS = 86_400_000;
/** The day's start in ms, NaN for a day no calendar has (2026-02-31 would otherwise roll over to 2026-03-03). */
const dayOf = (date: string) => {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date ? Number.NaN : ms;
};

/** Why an exception row can never be honoured, whatever the day (null: it can). */
function exceptionRefusal(row: CeilingException, ceiling: Ceiling): string | null {
  const approved = dayOf(row.approved_on);
  const expires = dayOf(row.expires_on);
  if (Number.isNaN(approved) || Number.isNaN(expires)) return "its dates are not calendar days";
  if (expires < approved) return `it expires (${row.expires_on}) before it was approved (${row.approved_on})`;
  if ((expires - approved) / DAY_MS > EXCEPTION_MAX_DAYS)
    return `it runs ${(expires - approved) / DAY_MS} days, longer than ${EXCEPTION_MAX_DAYS} (approved ${row.approved_on}, expires ${row.expires_on})`;
  for (const entry of row.allow.allowed_env ?? []) {
    if (entry.startsWith("@")) {
      if (neverEnvHit(entry, ceiling) !== null) return `allowed_env "${entry}" is in never_env`;
      continue;
    }
    if (entry.endsWith("*")) {
      const apart = familyApart(entry.slice(0, -1));
      if (apart !== null) return `allowed_env "${entry}" ${apart.why}: an exception never covers program control or credentials`;
    } else {
      const apart = keyApart(entry);
      if (apart !== null) return `allowed_env "${entry}" is apart (${apart.why}): an exception never allows a credential`;
    }
    if (neverEnvHit(entry, ceiling) !== null) return `allowed_env "${entry}" is in never_env`;
  }
  for (const entry of row.allow.allowed_hosts ?? [])
    if (neverHostHit(entry, ceiling) !== null) return `allowed_hosts "${entry}" reaches never_hosts`;
  for (const entry of row.allow.services ?? [])
    if (serviceNeverHit(entry, ceiling) !== null) return `services "${entry}" reaches never_hosts`;
  return null;
}

/** Every exception row naming `repository`, judged on `today` (YYYY-MM-DD, UTC). */
export function exceptionsFor(ceiling: Ceiling, repository: string, today: string): ExceptionStanding[] {
  const name = repositoryName(repository);
  return exceptionStandings(ceiling, today).filter((s) => s.row.repository.toLowerCase() === name.toLowerCase());
}

/** Every exception row of the ceiling, judged on `today`: the status page lists them all. */
export function exceptionStandings(ceiling: Ceiling, today: string): ExceptionStanding[] {
  const out: ExceptionStanding[] = [];
  (ceiling.exceptions ?? []).forEach((row, index) => {
    const refused = exceptionRefusal(row, ceiling);
    if (refused !== null) out.push({ row, index, honoured: false, why: refused });
    else if (dayOf(today) < dayOf(row.approved_on)) out.push({ row, index, honoured: false, why: `not open before ${row.approved_on}` });
    else if (dayOf(today) > dayOf(row.expires_on)) out.push({ row, index, honoured: false, why: `expired after ${row.expires_on}` });
    else out.push({ row, index, honoured: true });
  });
  return out;
}

/** The ceiling with the honoured exceptions' allowances added: what `widenings` judges against. */
export function withExceptions(ceiling: Ceiling, standings: readonly ExceptionStanding[]): Ceiling {
  const out: Ceiling = { ...ceiling };
  const union = (a: string[] | undefined, b: string[] | undefined) => (b === undefined ? a : [...(a ?? []), ...b]);
  for (const s of standings) {
    if (!s.honoured) continue;
    const allow = s.row.allow;
    out.allowed_roots = union(out.allowed_roots, allow.allowed_roots) ?? [];
    out.allowed_tools = union(out.allowed_tools, allow.allowed_tools) ?? [];
    out.allowed_env = union(out.allowed_env, allow.allowed_env) ?? [];
    out.allowed_hosts = union(out.allowed_hosts, allow.allowed_hosts) ?? [];
    if (out.allowed_commands !== undefined && allow.allowed_commands !== undefined)
      out.allowed_commands = [...out.allowed_commands, ...allow.allowed_commands];
    const wp = union(out.writable_protected, allow.writable_protected);
    if (wp !== undefined) out.writable_protected = wp;
    const services = union(out.services, allow.services);
    if (services !== undefined) out.services = services;
    if (allow.network) out.network = "allowlist";
    if (allow.loopback) out.loopback = "local";
    if (allow.observation) out.observation = "node";
  }
  return out;
}

/** One thing a repository's envelope allows beyond the ceiling. */
export interface Widening {
  /** JSON pointer into the repository's envelope (`/allowed_hosts/2`, `/network`). */
  pointer: string;
  /** The envelope key. */
  key: string;
  /** The entry or value as written. */
  entry: string;
  why: string;
}

// ---- roots -----------------------------------------------------------------------------------

/** A root as a variable and a folded path under it (`/` for an absolute root), or null when it leaves its variable. */
function rootParts(root: string): { base: string; path: string } | null {
  const m = ROOT_VARIABLE.exec(root);
  if (m === null) {
    const folded = foldPath(root);
    return folded === null ? null : { base: "/", path: folded };
  }
  const folded = foldPath(`/${root.slice(m[0].length)}`);
  // "${WORKSPACE}/.." leaves the variable: only "/" holds it, and `..` folded away above / says nothing.
  const raw = root
    .slice(m[0].length)
    .split("/")
    .filter((s) => s !== "" && s !== ".");
  let depth = 0;
  for (const s of raw) {
    depth += s === ".." ? -1 : 1;
    if (depth < 0) return null;
  }
  return folded === null ? null : { base: m[1] as string, path: folded };
}

function pathWithin(root: string, ceilingRoots: readonly string[]): boolean {
  const r = rootParts(root);
  for (const c of ceilingRoots) {
    const p = rootParts(c);
    if (p === null) continue;
    // An absolute "/" holds everything, a variable's escape too.
    if (p.base === "/" && p.path === "/") return true;
    if (r !== null && r.base === p.base && isInsideRoot(r.path, p.path)) return true;
  }
  return false;
}

// ---- env -------------------------------------------------------------------------------------

interface EnvCeiling {
  exact: ReadonlySet<string>;
  prefixes: readonly string[];
  sets: ReadonlySet<string>;
}

function envCeiling(entries: readonly string[]): EnvCeiling {
  return {
    exact: new Set(entries.filter((e) => !e.endsWith("*") && !e.startsWith("@"))),
    prefixes: entries.filter((e) => e.endsWith("*")).map((e) => e.slice(0, -1)),
    sets: new Set(entries.filter((e) => e.startsWith("@"))),
  };
}

/** Whether the ceiling allows the exact key, as allowed_env's matcher would. */
function keyWithin(key: string, c: EnvCeiling): boolean {
  if (c.exact.has(key)) return true;
  if (keyApart(key) !== null) return false;
  if (c.prefixes.some((p) => key.startsWith(p))) return true;
  return [...c.sets].some((s) => ENV_SETS.get(s)?.has(key) ?? false);
}

/** The never_env entry `entry` (an allowed_env entry) could match, or null. */
function neverEnvHit(entry: string, ceiling: Pick<Ceiling, "never_env">): string | null {
  // A never_env entry naming a set (the schema admits "@agents") stands for each of its keys.
  const never = (ceiling.never_env ?? []).flatMap((n) => {
    const set = n.startsWith("@") ? ENV_SETS.get(n) : undefined;
    return set === undefined ? [[n, n] as const] : [...set].map((k) => [k, n] as const);
  });
  const keys = entry.startsWith("@") ? [...(ENV_SETS.get(entry) ?? [])] : null;
  for (const [n, written] of never) if (neverEnvMatch(n, entry, keys)) return written;
  return null;
}

/** Whether the never_env entry `n` (a key or PREFIX*) could match the allowed_env entry `entry` (`keys`: a set's keys). */
function neverEnvMatch(n: string, entry: string, keys: readonly string[] | null): boolean {
  const nPrefix = n.endsWith("*") ? n.slice(0, -1) : null;
  const hitsKey = (k: string) => (nPrefix === null ? k === n : k.startsWith(nPrefix));
  if (keys !== null) return keys.some(hitsKey);
  if (entry.endsWith("*")) {
    const prefix = entry.slice(0, -1);
    // A family matches no apart key: a never key it could not match is no hit.
    return nPrefix === null ? n.startsWith(prefix) && keyApart(n) === null : nPrefix.startsWith(prefix) || prefix.startsWith(nPrefix);
  }
  return hitsKey(entry);
}

function envWidening(entry: string, c: EnvCeiling, ceiling: Ceiling): string | null {
  const never = neverEnvHit(entry, ceiling);
  if (never !== null) return `the organisation never allows it (never_env "${never}")`;
  if (entry.startsWith("@")) {
    if (c.sets.has(entry)) return null;
    const outside = [...(ENV_SETS.get(entry) ?? [])].filter((k) => !keyWithin(k, c));
    return outside.length === 0
      ? null
      : `the set holds keys the ceiling does not allow (${outside.slice(0, 3).join(", ")}${outside.length > 3 ? ", …" : ""})`;
  }
  if (entry.endsWith("*")) {
    const prefix = entry.slice(0, -1);
    return c.prefixes.some((p) => prefix.startsWith(p)) ? null : `no family of the ceiling holds every key starting with ${prefix}`;
  }
  return keyWithin(entry, c)
    ? null
    : keyApart(entry) !== null
      ? "a credential key is within only when the ceiling lists it exactly"
      : "the ceiling does not allow it";
}

// ---- hosts -----------------------------------------------------------------------------------

/** Every host `inner` allows, `outer` allows too. */
function hostPatternWithin(inner: HostPattern, outer: HostPattern): boolean {
  if (outer.port !== null && inner.port !== outer.port) return false;
  if (!outer.wildcard) return !inner.wildcard && inner.host === outer.host;
  return inner.host.endsWith(`.${outer.host}`) || (inner.wildcard && inner.host === outer.host);
}

/** Some host both allow. */
function hostPatternsOverlap(a: HostPattern, b: HostPattern): boolean {
  if (a.port !== null && b.port !== null && a.port !== b.port) return false;
  if (!a.wildcard && !b.wildcard) return a.host === b.host;
  if (a.wildcard && b.wildcard) return a.host === b.host || a.host.endsWith(`.${b.host}`) || b.host.endsWith(`.${a.host}`);
  const [w, h] = a.wildcard ? [a, b] : [b, a];
  return h.host.endsWith(`.${w.host}`);
}

function neverHostHit(entry: string, ceiling: Pick<Ceiling, "never_hosts">): string | null {
  const patterns = expandHostEntry(entry) ?? [];
  for (const n of ceiling.never_hosts ?? []) {
    const never = expandHostEntry(n) ?? [];
    if (patterns.some((p) => never.some((q) => hostPatternsOverlap(p, q)))) return n;
  }
  return null;
}

/** The never_hosts entry a services entry reaches (a TCP service is reached, and its name looked up, under any network mode), or null. */
function serviceNeverHit(entry: string, ceiling: Pick<Ceiling, "never_hosts">): string | null {
  if (entry.startsWith("/")) return null;
  return neverHostHit(entry, ceiling);
}

function hostWidening(entry: string, ceilingHosts: readonly HostPattern[], ceiling: Ceiling): string | null {
  const never = neverHostHit(entry, ceiling);
  if (never !== null) return `the organisation never allows it (never_hosts "${never}")`;
  const patterns = expandHostEntry(entry);
  if (patterns === null) return "not a host the ceiling can judge";
  const outside = patterns.filter((p) => !ceilingHosts.some((c) => hostPatternWithin(p, c)));
  if (outside.length === 0) return null;
  return patterns.length > 1 || patterns[0]?.source !== entry
    ? `members beyond the ceiling: ${outside.map((p) => p.source).join(", ")}`
    : "the ceiling does not allow it";
}

// ---- tools and commands ----------------------------------------------------------------------

function toolWithin(tool: string, ceilingTools: readonly string[]): boolean {
  return ceilingTools.some((c) => (c.endsWith("*") ? tool.startsWith(c.slice(0, -1)) : c === tool));
}

function commandWithin(command: string, ceilingCommands: readonly string[]): boolean {
  if (ceilingCommands.includes(command)) return true;
  // A path is within its file's name listed bare; a bare name is within only the same bare name.
  return command.includes("/") && ceilingCommands.includes(command.slice(command.lastIndexOf("/") + 1));
}

/**
 * Everything `envelope` allows beyond `ceiling` (with its honoured exceptions already added by
 * withExceptions), in the envelope's order. Empty: the envelope is within. Hosts are judged only
 * under `network: "allowlist"`, the one mode in which the envelope's hosts are allowed at all.
 */
export function widenings(envelope: Envelope, ceiling: Ceiling): Widening[] {
  const out: Widening[] = [];
  const add = (pointer: string, key: string, entry: string, why: string) => out.push({ pointer, key, entry, why });
  envelope.allowed_roots.forEach((root, i) => {
    if (!pathWithin(root, ceiling.allowed_roots)) add(`/allowed_roots/${i}`, "allowed_roots", root, "it lies under no root of the ceiling");
  });
  envelope.allowed_tools.forEach((tool, i) => {
    if (!toolWithin(tool, ceiling.allowed_tools)) add(`/allowed_tools/${i}`, "allowed_tools", tool, "the ceiling does not allow this tool");
  });
  const env = envCeiling(ceiling.allowed_env);
  envelope.allowed_env.forEach((entry, i) => {
    const why = envWidening(entry, env, ceiling);
    if (why !== null) add(`/allowed_env/${i}`, "allowed_env", entry, why);
  });
  if (envelope.network === "allowlist") {
    if (ceiling.network === "deny") add("/network", "network", "allowlist", "the ceiling's network is deny");
    const hosts = ceiling.allowed_hosts.flatMap((h) => expandHostEntry(h) ?? []);
    envelope.allowed_hosts.forEach((entry, i) => {
      const why = hostWidening(entry, hosts, ceiling);
      if (why !== null) add(`/allowed_hosts/${i}`, "allowed_hosts", entry, why);
    });
  }
  if (ceiling.allowed_commands !== undefined) {
    const commands = ceiling.allowed_commands;
    if (envelope.allowed_commands === undefined)
      add("", "allowed_commands", "(absent)", "the ceiling judges commands: without allowed_commands every command is allowed");
    else
      envelope.allowed_commands.forEach((c, i) => {
        if (!commandWithin(c, commands)) add(`/allowed_commands/${i}`, "allowed_commands", c, "the ceiling does not allow this command");
      });
  }
  if ((envelope.loopback ?? "local") === "local" && ceiling.loopback === "network")
    add(
      envelope.loopback === undefined ? "" : "/loopback",
      "loopback",
      "local",
      "the ceiling's loopback is network: loopback is judged like any host",
    );
  if (envelope.observation === "node" && (ceiling.observation ?? "full") === "full")
    add("/observation", "observation", "node", "the ceiling requires the process-level observer (observation full)");
  (envelope.writable_protected ?? []).forEach((entry, i) => {
    if (!pathWithin(entry, ceiling.writable_protected ?? []))
      add(`/writable_protected/${i}`, "writable_protected", entry, "the ceiling lets no repository make this protected path writable");
  });
  (envelope.services ?? []).forEach((entry, i) => {
    const never = serviceNeverHit(entry, ceiling);
    if (never !== null) add(`/services/${i}`, "services", entry, `the organisation never allows it (never_hosts "${never}")`);
    else if (!(ceiling.services ?? []).includes(entry)) add(`/services/${i}`, "services", entry, "the ceiling does not list this service");
  });
  return out;
}

/** A widening as a line: `envelope.json:12: allowed_hosts "evil.example:443": the ceiling does not allow it`. */
export function describeWidening(w: Widening, loaded: Pick<LoadedEnvelope, "file" | "lines">): string {
  const line = loaded.lines.get(w.pointer) ?? 1;
  return `${loaded.file}:${line}: ${w.key} ${JSON.stringify(w.entry)}: ${w.why}`;
}

/** The UTC day of `ms`, as exception rows name days. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What a run touched beyond the organisation's ceiling (its baseline): hosts, environment keys, commands. */
export interface BeyondCeiling {
  hosts: string[];
  env: string[];
  commands: string[];
}

/**
 * The items of a run's footprint (footprint.ts logFootprint: hosts as `name:port`, keys, commands
 * by their allowed_commands entry) the ceiling would not allow: the organisation-wide footprint
 * the status page lists per repository. Commands count only when the ceiling judges commands.
 */
export function beyondCeiling(
  touched: { hosts: Iterable<string>; env: Iterable<string>; commands: Iterable<string> },
  ceiling: Ceiling,
): BeyondCeiling {
  const env = envCeiling(ceiling.allowed_env);
  const never = (ceiling.never_hosts ?? []).flatMap((h) => expandHostEntry(h) ?? []);
  const allowed = ceiling.allowed_hosts.flatMap((h) => expandHostEntry(h) ?? []);
  const hostWithin = (item: string) => {
    const p = parseHostPattern(item);
    if (p === null || ceiling.network === "deny") return false;
    return hostAllowed(allowed, p.host, p.port) && !hostAllowed(never, p.host, p.port);
  };
  return {
    hosts: [...touched.hosts].filter((h) => !hostWithin(h)).sort(),
    env: [...touched.env].filter((k) => !keyWithin(k, env) || neverEnvHit(k, ceiling) !== null).sort(),
    commands:
      ceiling.allowed_commands === undefined
        ? []
        : [...touched.commands].filter((c) => !commandWithin(c, ceiling.allowed_commands ?? [])).sort(),
  };
}

/** Directories a root variable may never point into: the system's own (a self-hosted runner's /opt is allowed). */
const SYSTEM_ROOT = /^\/(?:etc|usr|bin|sbin|boot|proc|sys|dev|root|snap|lib(?:32|64|x32)?|var\/lib)(?:\/|$)/;

function globMatches(glob: string, path: string): boolean {
  const g = glob.split("/");
  const p = path.split("/");
  return g.length === p.length && g.every((s, i) => (s === "*" ? p[i] !== "" : s === p[i]));
}

/**
 * Why the values a run gave `${WORKSPACE}` and `${SCRATCH}` (its log's meta.workspace and
 * meta.scratch) cannot be held to the ceiling, or null. A root within the ceiling by its variable
 * is only as narrow as the variable's value, and the repository's own workflow chooses it (the
 * Action's `workspace` and `scratch` inputs): a `scratch: /` would make `${SCRATCH}` every path.
 * Only the variables the envelope uses are judged: each must be an absolute, folded path at least
 * two segments deep, not a home directory, outside the system's directories, and not inside the other; with
 * `root_values`, it must match one of its globs.
 */
export function rootValuesRefusal(values: { workspace: unknown; scratch: unknown }, envelope: Envelope, ceiling: Ceiling): string | null {
  const used = new Set(
    [...envelope.allowed_roots, ...(envelope.writable_protected ?? [])]
      .map((r) => ROOT_VARIABLE.exec(r)?.[1])
      .filter((v) => v !== undefined),
  );
  const given: Record<string, unknown> = { WORKSPACE: values.workspace, SCRATCH: values.scratch };
  for (const name of ["WORKSPACE", "SCRATCH"] as const) {
    if (!used.has(name)) continue;
    const value = given[name];
    if (typeof value !== "string" || foldPath(value) !== value)
      return `the run's log records no absolute, folded \${${name}} (${JSON.stringify(value ?? null)})`;
    if (value.split("/").length - 1 < 2 || SYSTEM_ROOT.test(value) || /^\/home\/[^/]+$/.test(value))
      return `the run gave \${${name}} the value ${value}: a root variable may not be /, a home directory, a system directory, or one segment deep`;
    const globs = ceiling.root_values?.[name];
    if (globs !== undefined && !globs.some((g) => globMatches(g, value)))
      return `the run gave \${${name}} the value ${value}, which matches none of the organisation's root_values.${name} (${globs.join(", ")})`;
  }
  if (used.size === 2 && typeof values.workspace === "string" && typeof values.scratch === "string") {
    if (isInsideRoot(values.workspace, values.scratch) || isInsideRoot(values.scratch, values.workspace))
      return `the run's \${WORKSPACE} (${values.workspace}) and \${SCRATCH} (${values.scratch}) lie one inside the other`;
  }
  return null;
}
