import { Refusal, isRefusal, type ErrorCode } from "../core/errors.js";
import type { InstallationClient } from "../github/app-client.js";
import type { Store } from "../store/index.js";
import type { AppConfig } from "./config.js";

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The part of the App's configuration its handlers read. */
export type AppSettings = Pick<
  AppConfig,
  | "appId"
  | "workflow"
  | "checkName"
  | "verifiedCheckName"
  | "envelopeDigestPath"
  | "envelopePath"
  | "orgEnvelopePath"
  | "orgEnvelopeRequired"
  | "auditRuns"
  | "runnerBLabels"
  | "deadlineMs"
  | "freezeTtlDays"
  | "freezeTtlCapDays"
  | "ledgerPath"
  | "reviewers"
  | "teamReviewers"
  | "agentLabel"
  | "reviewAlertMs"
  | "leaseMs"
  | "replicaId"
  | "budget"
  | "workers"
  | "redelivery"
  | "githubApiUrl"
>;

/** The App's log levels, least to most verbose (ENVELOPE_GATE_LOG_LEVEL). */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type Logger = (level: LogLevel, event: string, fields?: Record<string, unknown>) => void;

/**
 * One JSON line per call at `least` or more severe; more verbose lines are dropped. `level`,
 * `event` and `at` are ours and always win: a field named like them (GitHub's event name, say)
 * never overwrites them; GitHub's event is logged as `github_event`. info and debug go to
 * stdout, warn and error to stderr.
 */
export function jsonLoggerAt(least: LogLevel): Logger {
  const shown = LOG_LEVELS.indexOf(least);
  return (level, event, fields = {}) => {
    if (LOG_LEVELS.indexOf(level) > shown) return;
    const line = JSON.stringify({ ...fields, level, event, at: new Date().toISOString() });
    if (level === "info" || level === "debug") process.stdout.write(line + "\n");
    else process.stderr.write(line + "\n");
  };
}

/** The default: info and more severe. */
export const jsonLogger: Logger = jsonLoggerAt("info");

/**
 * What every handler works over: state (store), effects (an installation's GitHub client, whose
 * guard reads the kill switch before each request), time, settings and the log.
 */
export interface AppContext {
  store: Store;
  installation(installationId: number): Promise<InstallationClient>;
  clock: Clock;
  settings: AppSettings;
  log: Logger;
}

export function fail(code: ErrorCode, message: string): never {
  throw new Refusal(code, message);
}

export function codeOf(err: unknown): string {
  return isRefusal(err) ? err.code : "INTERNAL_ERROR";
}
