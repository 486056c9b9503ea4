/**
 * The rules: for each kind of event, whether the envelope allows it, and if not, which violation
 * (CONTRACT's violation ids) it is. Each judge is pure: the context derived from the envelope and
 * the run's meta line, and one event's facts, in; a rule id or null out. `check` (./log-reader.ts)
 * records what they return; `suggest` asks them which events an entry must allow; the footprint
 * and the audit leave out what they leave out (the runtime's own reads, loopback inside the run's
 * own network).
 */
import { isContainerEngine } from "./container-engine.js";
import { PROXY_ENV_KEYS } from "./env-sets.js";
import { envMatcher, hostPatterns, type Envelope } from "./envelope.js";
import { isDeclaredService, servicesOf, type Service } from "./services.js";
import { allowedViaSet, hostAllowed, normalizeHost, type HostPattern } from "./hosts.js";
import { isInsideAnyRoot } from "./paths.js";
import { isProtectedEffect, isProtectedWrite, NO_PROTECTED, type ProtectedSet } from "./protected.js";

export type ViolationRule =
  | "write_outside_root"
  | "undeclared_tool"
  | "undeclared_env"
  | "network_denied"
  | "undeclared_host"
  | "undeclared_command"
  | "forbidden_syscall"
  | "write_protected"
  | "docker_refused";

export { PROXY_ENV_KEYS };
export { DOCKER_HINT, isContainerEngine } from "./container-engine.js";

/**
 * The keys the run wrapper sets in every run, whatever `allowed_env` says, and their values, so
 * that a read-only git writes nothing into a protected `.git` (`.git/index.lock`): a write git
 * really makes is still judged.
 * - `GIT_OPTIONAL_LOCKS=0`: `git status` takes no optional lock to refresh the index;
 * - `diff.autoRefreshIndex=false`, through git's `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
 *   `GIT_CONFIG_VALUE_<n>` (after the entries of the caller's the envelope lets in): `git diff`
 *   over tracked files whose stat changed but not their bytes (a chown, a file rewritten the same)
 *   refreshes the index under a lock that GIT_OPTIONAL_LOCKS does not cover. Its output is the same.
 * Their reads are recorded and not judged, from any source, and `suggest` never proposes them.
 */
export function runEnv(given: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const count = Number(given.GIT_CONFIG_COUNT ?? "0");
  const n = Number.isSafeInteger(count) && count >= 0 ? count : 0;
  return {
    GIT_OPTIONAL_LOCKS: "0",
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: "diff.autoRefreshIndex",
    [`GIT_CONFIG_VALUE_${n}`]: "false",
  };
}

/** The names runEnv sets (any entry number: the caller's own entries, when allowed, are allowed anyway). */
const RUN_ENV_KEY = /^(?:GIT_OPTIONAL_LOCKS|GIT_CONFIG_COUNT|GIT_CONFIG_(?:KEY|VALUE)_\d+)$/;

/** True when reading `key` is not judged because the wrapper set it (runEnv; PROXY_ENV_KEYS under allowlist). */
function wrapperEnvKey(network: "deny" | "allowlist", key: string): boolean {
  return RUN_ENV_KEY.test(key) || (network === "allowlist" && PROXY_ENV_KEYS.has(key));
}

/**
 * Keys the Node runtime reads for itself. Recorded with `source: "runtime"` and not judged;
 * any other key is judged wherever the read comes from. Keep docs/observer.md in step.
 */
export const RUNTIME_ENV_KEYS: ReadonlySet<string> = new Set([
  "FORCE_COLOR",
  "NO_COLOR",
  "NODE_DISABLE_COLORS",
  "NODE_V8_COVERAGE",
  "NODE_DEBUG",
  "NODE_DEBUG_NATIVE",
  "NODE_OPTIONS",
  "NODE_PENDING_DEPRECATION",
  "NODE_NO_WARNINGS",
  "NODE_UNIQUE_ID",
  "NODE_CHANNEL_FD",
  "NODE_CHANNEL_SERIALIZATION_MODE",
  "NODE_PRESERVE_SYMLINKS",
  "NODE_TEST_CONTEXT",
  "TERM",
  "COLORTERM",
  "CI",
  "TZ",
  "UV_THREADPOOL_SIZE",
  // Read by Node's own JS at run time (found by the observer's well-behaved runs):
  "WATCH_REPORT_DEPENDENCIES",
  "NODE_CLUSTER_SCHED_POLICY",
  "NODE_TLS_REJECT_UNAUTHORIZED",
  // Node's bundled undici (fetch) reads these for itself:
  "UNDICI_NO_FG",
  "JEST_WORKER_ID",
  // ... and Node 24's, when it loads its HTTP parser (fetch through NODE_USE_ENV_PROXY):
  "UNDICI_NO_WASM_SIMD",
  // tty.getColorDepth, when a program writes to a terminal:
  "TMUX",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TEAMCITY_VERSION",
  "CI_NAME",
  "APPVEYOR",
  "BUILDKITE",
  "CIRCLECI",
  "DRONE",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "TRAVIS",
]);

/** The Node runtime reading one of its own keys (RUNTIME_ENV_KEYS): the runtime's read, not the program's. */
export function isRuntimeOwnRead(key: string, source: unknown): boolean {
  return source === "runtime" && RUNTIME_ENV_KEYS.has(key);
}

/** 127.0.0.0/8, ::1 (also as a mapped address), `localhost` and names under it (RFC 6761). */
export function isLoopback(host: string): boolean {
  return (
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "::1" ||
    /^::ffff:127\./.test(host) ||
    host === "localhost" ||
    host.endsWith(".localhost")
  );
}

/** A recorded host as the rules compare it: a unix socket (`unix:/path`, `unix:@name`) is named by a case-sensitive path. */
export function hostName(raw: string): string {
  return raw.startsWith("unix:") ? raw : normalizeHost(raw);
}

/** What the rules know of the envelope and of the run (its meta line). */
export interface RuleContext {
  /** Folded allowed roots. */
  roots: readonly string[];
  /** The log's own path, folded (meta.log_path): never writable. */
  logPath: string | null;
  /** What the run bound read-only inside the roots (meta.protected), and the lexical names rule's exemptions. */
  protectedSet: ProtectedSet;
  tools: ReadonlySet<string>;
  envAllowed: (key: string) => boolean;
  network: "deny" | "allowlist";
  hosts: readonly HostPattern[];
  /** The envelope's `services` (services.ts): reached through the forward under deny and allowlist alike. */
  services: readonly Service[];
  /** `loopback` is not `"network"`: loopback inside the run's own network namespace is the run's own. */
  loopbackLocal: boolean;
  /** The command had a network namespace of its own (meta.network_enforced). */
  ownNetwork: boolean;
  /** allowed_commands, split into exact paths and bare names; null when the envelope does not judge commands. */
  commands: { paths: ReadonlySet<string>; names: ReadonlySet<string> } | null;
}

/** What the log's meta line says that the rules use. */
interface RunFacts {
  logPath: string | null;
  protectedSet: ProtectedSet;
  ownNetwork: boolean;
}

const NO_RUN_FACTS: RunFacts = { logPath: null, protectedSet: NO_PROTECTED, ownNetwork: false };

export function commandRules(allowed: readonly string[] | undefined): RuleContext["commands"] {
  if (allowed === undefined) return null;
  return { paths: new Set(allowed.filter((c) => c.includes("/"))), names: new Set(allowed.filter((c) => !c.includes("/"))) };
}

export function ruleContext(envelope: Envelope, roots: readonly string[], run: RunFacts = NO_RUN_FACTS): RuleContext {
  return {
    roots,
    logPath: run.logPath,
    protectedSet: run.protectedSet,
    tools: new Set(envelope.allowed_tools),
    envAllowed: envMatcher(envelope),
    network: envelope.network,
    hosts: hostPatterns(envelope),
    services: servicesOf(envelope.services),
    loopbackLocal: envelope.loopback !== "network",
    ownNetwork: run.ownNetwork,
    commands: commandRules(envelope.allowed_commands),
  };
}

/**
 * How a write call ended: it wrote (`done`), the jail refused it as a write to a read-only place
 * (`ok: false`), or the kernel failed it because what it named was not there (`errno`).
 */
export type WriteOutcome = "done" | "refused" | "missing_target";

/** A folded path a write may change: inside an allowed root, and not the log itself. */
export function writeInsideRoots(ctx: Pick<RuleContext, "roots" | "logPath">, path: string): boolean {
  return path !== ctx.logPath && isInsideAnyRoot(path, ctx.roots);
}

/**
 * A write to the folded `path`. A refused write is outside every root, whatever the name resolved
 * to afterwards (a symlink can be gone by the time it is read); one that found nothing changed
 * nothing, so outside the roots it is not judged (the log's own path always is); inside them, a
 * protected path (docs/formats.md, Protected paths) is `write_protected`. `inside` is
 * writeInsideRoots, for a caller that has worked it out already.
 */
export function judgeWrite(
  ctx: Pick<RuleContext, "roots" | "logPath" | "protectedSet">,
  path: string,
  outcome: WriteOutcome,
  inside = writeInsideRoots(ctx, path),
): "write_outside_root" | "write_protected" | null {
  if (outcome === "refused") return "write_outside_root";
  if (!inside) return outcome === "missing_target" && path !== ctx.logPath ? null : "write_outside_root";
  return isProtectedWrite(path, ctx.roots, ctx.protectedSet) ? "write_protected" : null;
}

/**
 * A write line of the effects check (`"source": "effects"`) at the folded `path`: a protected
 * entry the filesystem shows new, gone or changed, `write_protected` unless `writable_protected`
 * made it writable, whatever the recorder's own lines said of it.
 */
export function judgeEffect(ctx: Pick<RuleContext, "protectedSet">, path: string): "write_protected" | null {
  return isProtectedEffect(path, ctx.protectedSet) ? "write_protected" : null;
}

/** A read of the environment key `key`, by `source`. */
export function judgeEnv(ctx: Pick<RuleContext, "envAllowed" | "network">, key: string, source: unknown): "undeclared_env" | null {
  if (ctx.envAllowed(key) || wrapperEnvKey(ctx.network, key) || isRuntimeOwnRead(key, source)) return null;
  return "undeclared_env";
}

export function judgeTool(ctx: Pick<RuleContext, "tools">, name: string): "undeclared_tool" | null {
  return ctx.tools.has(name) ? null : "undeclared_tool";
}

type HostContext = Pick<RuleContext, "network" | "hosts" | "services" | "loopbackLocal" | "ownNetwork">;

/** Loopback inside the jail's own network namespace: the run's own, not egress. */
export function isRunOwnLoopback(ctx: Pick<RuleContext, "loopbackLocal" | "ownNetwork">, host: string): boolean {
  return ctx.loopbackLocal && ctx.ownNetwork && isLoopback(host);
}

/**
 * A connection to (with a port) or a lookup of (`port` null) `host` (as hostName gives it). `via`
 * is the name the same process's hooks connected by, on a process-level connect to an address.
 * A container engine (isContainerEngine) is `docker_refused` under any network setting, instead
 * of `network_denied` or `undeclared_host`.
 */
export function judgeHost(
  ctx: HostContext,
  host: string,
  port: number | null,
  via: unknown,
): "docker_refused" | "network_denied" | "undeclared_host" | null {
  // Before everything else: no envelope allows a container engine, and its ports are judged on loopback too.
  if (isContainerEngine(host, port)) return "docker_refused";
  if (isRunOwnLoopback(ctx, host)) return null;
  // A declared service is the job's own, under deny as under allowlist.
  if (isDeclaredService(ctx.services, host, port)) return null;
  if (ctx.network === "deny") return "network_denied";
  if (hostAllowed(ctx.hosts, host, port)) return null;
  if (typeof via === "string" && via !== "" && hostAllowed(ctx.hosts, normalizeHost(via), port)) return null;
  return "undeclared_host";
}

/**
 * The host set (`@npm`) that alone allows a connection judgeHost allowed, or null. Connections
 * only: a lookup (no port) of a member is part of the connection that follows.
 */
export function hostViaSet(ctx: HostContext, host: string, port: number | null): string | null {
  if (port === null || isRunOwnLoopback(ctx, host) || ctx.network === "deny" || !hostAllowed(ctx.hosts, host, port)) return null;
  return allowedViaSet(ctx.hosts, host, port);
}

/** The start of the program at the folded `path`: allowed by its exact path or by its file's name. */
export function judgeExec(ctx: Pick<RuleContext, "commands">, path: string): "undeclared_command" | null {
  const commands = ctx.commands;
  if (commands === null || commands.paths.has(path)) return null;
  return commands.names.has(path.slice(path.lastIndexOf("/") + 1)) ? null : "undeclared_command";
}

/**
 * The allowed_commands entry for a program started as `argv` from the folded `path`, portable as
 * judgeExec matches it: started by a bare name (argv[0] has no "/"), PATH found it and its file's
 * name allows it at any path (`sh` found as /usr/bin/sh -> dash is recorded, and allowed, as
 * `dash`); started by a path (a compiler's /usr/lib/gcc/.../cc1, ./configure), the path.
 */
export function commandEntry(path: string, argv: readonly string[]): string {
  const argv0 = argv[0];
  const byName = typeof argv0 === "string" && argv0 !== "" && !argv0.includes("/");
  return byName ? path.slice(path.lastIndexOf("/") + 1) : path;
}

/** A system call the jail's seccomp filter traps: no envelope allows one. */
export function judgeSyscall(): "forbidden_syscall" {
  return "forbidden_syscall";
}
