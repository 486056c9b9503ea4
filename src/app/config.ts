import { hostname } from "node:os";
import type { BudgetPolicy } from "../core/budget.js";
import { Refusal } from "../core/errors.js";
import { storeSettingsFromEnv, type StoreSettings } from "../store/index.js";
import { LOG_LEVELS, type LogLevel } from "./context.js";
import { loadSecrets, scrubSecretEnvironment, type SecretSource } from "./secrets.js";
import { settingValue, type SettingName } from "./settings.js";

/** Everything the App reads from its environment (docs/app.md lists each variable). */
export interface AppConfig {
  production: boolean;
  host: string;
  port: number;
  appId: string;
  /** Read each time a JWT is signed (secrets.ts). */
  privateKey: SecretSource;
  /** Read at each verification: one secret per line, the current first, then previous ones still accepted during a rotation. */
  webhookSecrets: SecretSource;
  githubApiUrl: string;
  store: StoreSettings;
  workflow: string;
  checkName: string;
  /** The App's verified check's name (`<checkName> / verified` by default). */
  verifiedCheckName: string;
  /** The envelope's digest file at the base commit, for the verified check. */
  envelopeDigestPath: string;
  /** The envelope file an envelope PR writes (its digest beside it, `<path>.sha256`). */
  envelopePath: string;
  /** The organisation envelope's path in the owner's `.github` repository (its digest beside it). */
  orgEnvelopePath: string;
  /** A verified check fails when no organisation envelope can be read. */
  orgEnvelopeRequired: boolean;
  /** How many of the default branch's latest verified audit runs an envelope PR is made from. */
  auditRuns: number;
  runnerBLabels: string[];
  deadlineMs: number;
  freezeTtlDays: number;
  freezeTtlCapDays: number;
  ledgerPath: string;
  reviewers: string[];
  teamReviewers: string[];
  /** The Action's agent-label: a pull request that carried it stays gated ("" when not remembered from labels). */
  agentLabel: string;
  reviewAlertMs: number;
  sweepIntervalMs: number;
  leaseMs: number;
  /** How often this process refreshes its heartbeat row; past heartbeatStaleMs its claims may be taken over. */
  heartbeatMs: number;
  heartbeatStaleMs: number;
  /** On SIGTERM, how long work in flight may run before it is released to the sweeper. */
  drainMs: number;
  replicaId: string;
  githubRetries: number;
  githubThrottle: boolean;
  githubTimeoutMs: number;
  /** Open connections the server accepts at once. */
  maxConnections: number;
  /** Time a client has to send its headers, and its whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Runner B's daily caps and how dispatches are charged. */
  budget: BudgetPolicy;
  /** Deliveries worked on at once in this process, outside the request. */
  workers: number;
  /** The redelivery sweep: how often it runs, and its bounds per pass and per delivery. */
  redelivery: RedeliveryPolicy;
  /** The least severe log line written. */
  logLevel: LogLevel;
}

export interface RedeliveryPolicy {
  intervalMs: number;
  perPass: number;
  attemptsPerDelivery: number;
}

export function redeliveryPolicyFromEnv(env: NodeJS.ProcessEnv): RedeliveryPolicy {
  return {
    intervalMs: int(env, "ENVELOPE_GATE_REDELIVERY_SECONDS", 5, 3600) * 1000,
    perPass: int(env, "ENVELOPE_GATE_REDELIVERY_PER_PASS", 1, 1000),
    attemptsPerDelivery: int(env, "ENVELOPE_GATE_REDELIVERY_ATTEMPTS", 1, 20),
  };
}

const MIN_SECRET_LENGTH = 16;

/**
 * Settings that would weaken verification of what the App receives or sends. In production
 * the App refuses to start while any is set; there is no flag that skips verification at all.
 */
const WEAKENING_SETTINGS: { name: string; weakens: (value: string) => boolean; why: string }[] = [
  {
    name: "NODE_TLS_REJECT_UNAUTHORIZED",
    weakens: (v) => v === "0",
    why: "turns off TLS certificate checks on every call to GitHub and the database",
  },
  { name: "ENVELOPE_GATE_SKIP_SIGNATURE", weakens: (v) => v !== "", why: "is not supported: webhook signatures are always verified" },
  { name: "ENVELOPE_GATE_INSECURE", weakens: (v) => v !== "", why: "is not supported: there is no insecure mode" },
  {
    name: "NODE_OPTIONS",
    weakens: (v) => /--insecure-http-parser|--tls-min-v1\.[01]/.test(v),
    why: "loosens HTTP parsing or TLS versions",
  },
];

function bypass(message: string): Refusal {
  return new Refusal("BYPASS_REFUSED", message, { hint: "Fix the environment; the App does not start in a weakened configuration." });
}

export function int(env: NodeJS.ProcessEnv, name: SettingName, min: number, max: number): number {
  const raw = settingValue(env, name);
  if (!/^\d+$/.test(raw)) throw new Refusal("CONFIG_INVALID", `${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new Refusal("CONFIG_INVALID", `${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function onOff(env: NodeJS.ProcessEnv, name: SettingName): boolean {
  const raw = settingValue(env, name).toLowerCase();
  if (raw === "on") return true;
  if (raw === "off") return false;
  throw new Refusal("CONFIG_INVALID", `${name} must be on or off, got "${raw}"`);
}

export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const raw = settingValue(env, "ENVELOPE_GATE_LOG_LEVEL").toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
  }
  return raw as LogLevel;
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function jsonLabels(env: NodeJS.ProcessEnv): string[] {
  const value = settingValue(env, "ENVELOPE_GATE_RUNNER_B_LABELS");
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_RUNNER_B_LABELS must be a JSON array of strings, got ${value}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((l) => typeof l === "string" && l.trim() !== "")) {
    throw new Refusal("CONFIG_INVALID", "ENVELOPE_GATE_RUNNER_B_LABELS must be a non-empty JSON array of label strings");
  }
  return parsed as string[];
}

/** Settings the store-only commands need (pause, resume, status, promote). */
export function storeConfigFromEnv(env: NodeJS.ProcessEnv): StoreSettings {
  return storeSettingsFromEnv(env);
}

/** Runner B's budget settings (read by the server and by the store commands that show or change budgets). */
export function budgetPolicyFromEnv(env: NodeJS.ProcessEnv): BudgetPolicy {
  return {
    installation: {
      dispatchesPerDay: int(env, "ENVELOPE_GATE_BUDGET_INSTALLATION_DISPATCHES", 0, 1_000_000),
      minutesPerDay: int(env, "ENVELOPE_GATE_BUDGET_INSTALLATION_MINUTES", 0, 100_000_000),
    },
    repository: {
      dispatchesPerDay: int(env, "ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES", 0, 1_000_000),
      minutesPerDay: int(env, "ENVELOPE_GATE_BUDGET_REPOSITORY_MINUTES", 0, 100_000_000),
    },
    maxRunMinutes: int(env, "ENVELOPE_GATE_RUNNER_B_MAX_MINUTES", 1, 72 * 60),
    freshMs: int(env, "ENVELOPE_GATE_USAGE_FRESH_MINUTES", 1, 24 * 60) * 60_000,
  };
}

export function reviewAlertMsFromEnv(env: NodeJS.ProcessEnv): number {
  return int(env, "ENVELOPE_GATE_REVIEW_ALERT_HOURS", 1, 24 * 90) * 3_600_000;
}

function heartbeatFromEnv(env: NodeJS.ProcessEnv): { heartbeatMs: number; heartbeatStaleMs: number } {
  const heartbeatMs = int(env, "ENVELOPE_GATE_HEARTBEAT_SECONDS", 1, 300) * 1000;
  const heartbeatStaleMs = int(env, "ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS", 2, 3600) * 1000;
  if (heartbeatStaleMs < 2 * heartbeatMs) {
    throw new Refusal("CONFIG_INVALID", "ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS must be at least twice ENVELOPE_GATE_HEARTBEAT_SECONDS");
  }
  return { heartbeatMs, heartbeatStaleMs };
}

/**
 * Reads the full server configuration and applies the boot guard: no webhook secret, a weak
 * one, or any weakening setting in production is BYPASS_REFUSED; a secret in the environment
 * in production is SECRET_IN_ENVIRONMENT. The secrets are checked (secrets.ts), and the
 * variables carrying them are removed from `env` once everything is read.
 */
export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  // "Production" or " production " is meant as production: a spelling must not switch the boot guard off.
  const production = env.NODE_ENV?.trim().toLowerCase() === "production";
  const secrets = loadSecrets(env, production, MIN_SECRET_LENGTH);
  if (production) {
    for (const setting of WEAKENING_SETTINGS) {
      const value = env[setting.name];
      if (value !== undefined && setting.weakens(value)) throw bypass(`${setting.name}=${value} ${setting.why}`);
    }
  }
  const githubApiUrl = settingValue(env, "ENVELOPE_GATE_GITHUB_API_URL").replace(/\/+$/, "");
  let api: URL;
  try {
    api = new URL(githubApiUrl);
  } catch {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_GITHUB_API_URL is not a URL: ${githubApiUrl}`);
  }
  if (production && api.protocol !== "https:") throw bypass(`ENVELOPE_GATE_GITHUB_API_URL ${githubApiUrl} is not https`);
  const appId = env.ENVELOPE_GATE_APP_ID?.trim() ?? "";
  if (!/^\d+$/.test(appId)) throw new Refusal("CONFIG_INVALID", "ENVELOPE_GATE_APP_ID must be the App's numeric id");
  const ttl = int(env, "ENVELOPE_GATE_FREEZE_TTL_DAYS", 1, 365);
  const cap = int(env, "ENVELOPE_GATE_FREEZE_TTL_CAP_DAYS", 1, 365);
  const config: AppConfig = {
    production,
    host: settingValue(env, "ENVELOPE_GATE_HOST"),
    port: int(env, "ENVELOPE_GATE_PORT", 0, 65535),
    appId,
    ...secrets,
    githubApiUrl,
    store: storeSettingsFromEnv(env),
    workflow: settingValue(env, "ENVELOPE_GATE_WORKFLOW"),
    checkName: settingValue(env, "ENVELOPE_GATE_CHECK_NAME"),
    verifiedCheckName:
      settingValue(env, "ENVELOPE_GATE_VERIFIED_CHECK_NAME") || `${settingValue(env, "ENVELOPE_GATE_CHECK_NAME")} / verified`,
    envelopeDigestPath: settingValue(env, "ENVELOPE_GATE_ENVELOPE_SHA256"),
    envelopePath: settingValue(env, "ENVELOPE_GATE_ENVELOPE_PATH"),
    orgEnvelopePath: settingValue(env, "ENVELOPE_GATE_ORG_ENVELOPE_PATH"),
    orgEnvelopeRequired: onOff(env, "ENVELOPE_GATE_ORG_ENVELOPE_REQUIRED"),
    auditRuns: int(env, "ENVELOPE_GATE_AUDIT_RUNS", 1, 20),
    runnerBLabels: jsonLabels(env),
    deadlineMs: int(env, "ENVELOPE_GATE_DEADLINE_MINUTES", 1, 24 * 60) * 60_000,
    freezeTtlDays: ttl,
    freezeTtlCapDays: cap,
    ledgerPath: settingValue(env, "ENVELOPE_GATE_LEDGER_PATH"),
    reviewers: list(env.ENVELOPE_GATE_REVIEWERS),
    teamReviewers: list(env.ENVELOPE_GATE_TEAM_REVIEWERS),
    agentLabel:
      settingValue(env, "ENVELOPE_GATE_AGENT_LABEL").toLowerCase() === "none" ? "" : settingValue(env, "ENVELOPE_GATE_AGENT_LABEL"),
    reviewAlertMs: reviewAlertMsFromEnv(env),
    sweepIntervalMs: int(env, "ENVELOPE_GATE_SWEEP_SECONDS", 1, 3600) * 1000,
    leaseMs: int(env, "ENVELOPE_GATE_LEASE_SECONDS", 5, 3600) * 1000,
    ...heartbeatFromEnv(env),
    drainMs: int(env, "ENVELOPE_GATE_DRAIN_SECONDS", 0, 600) * 1000,
    replicaId: settingValue(env, "ENVELOPE_GATE_REPLICA_ID") || `${hostname()}:${process.pid}`,
    githubRetries: int(env, "ENVELOPE_GATE_GITHUB_RETRIES", 0, 10),
    githubThrottle: onOff(env, "ENVELOPE_GATE_GITHUB_THROTTLE"),
    githubTimeoutMs: int(env, "ENVELOPE_GATE_GITHUB_TIMEOUT_SECONDS", 1, 600) * 1000,
    maxConnections: int(env, "ENVELOPE_GATE_MAX_CONNECTIONS", 1, 100_000),
    headersTimeoutMs: int(env, "ENVELOPE_GATE_HEADERS_TIMEOUT_SECONDS", 1, 600) * 1000,
    requestTimeoutMs: int(env, "ENVELOPE_GATE_REQUEST_TIMEOUT_SECONDS", 1, 3600) * 1000,
    budget: budgetPolicyFromEnv(env),
    workers: int(env, "ENVELOPE_GATE_WORKERS", 1, 1000),
    redelivery: redeliveryPolicyFromEnv(env),
    logLevel: logLevelFromEnv(env),
  };
  scrubSecretEnvironment(env);
  return config;
}
