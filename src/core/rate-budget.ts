/**
 * An installation's GitHub API budget (its primary rate limit), as data and pure rules. Every
 * repository of an installation shares one hourly budget (5,000 requests, more for large
 * installations); the App reads GitHub's `x-ratelimit-*` headers from each answer, records the
 * latest per installation in the store, and before it starts a piece of work asks here whether
 * that kind of work waits for the reset. The order in which kinds wait is written below
 * (DEFERRAL_ORDER) and in docs/app.md ("Rate limits").
 */
import { Refusal } from "./errors.js";

/** What the App spends GitHub calls on, per delivery or sweeper item. */
export type WorkKind = "audit_run" | "envelope_pr" | "ledger_pr" | "verified_check" | "runner_b";

/** One tier of the order: its kinds wait while the remainder is below `fraction` of the limit, or below `floor` calls. */
interface DeferralTier {
  tier: "first" | "middle" | "last";
  kinds: readonly WorkKind[];
  /** Deferred while remaining < max(ceil(limit × fraction), floor). */
  fraction: number;
  floor: number;
}

/**
 * The written order. Envelope PRs and audit runs (a proposal can wait an hour) wait first, below
 * 10% of the limit (500 of 5,000); ledger PR upkeep below 5% (250); verified checks and runner B
 * (what a pull request's merge waits on) last, only when the budget is nearly exhausted, below 1%
 * (50). The floors keep a small installation limit from reaching the last calls.
 */
export const DEFERRAL_ORDER: readonly DeferralTier[] = [
  { tier: "first", kinds: ["audit_run", "envelope_pr"], fraction: 0.1, floor: 200 },
  { tier: "middle", kinds: ["ledger_pr"], fraction: 0.05, floor: 100 },
  { tier: "last", kinds: ["verified_check", "runner_b"], fraction: 0.01, floor: 20 },
];

/** The latest reading of one installation's budget, as recorded (times in epoch ms). */
export interface RateReading {
  installationId: number;
  /** GitHub's `x-ratelimit-resource` (`core` for the REST API). */
  resource: string;
  remaining: number | null;
  limit: number | null;
  /** When the window resets (`x-ratelimit-reset`). */
  resetAt: number | null;
  observedAt: number;
  /** A secondary limit's `retry-after` seen by any replica: no new work for this installation before it. */
  retryAfterUntil: number | null;
}

/** What GitHub's headers of one answer say (times in epoch ms); null when they say nothing about the budget. */
export interface RateObservation {
  resource: string;
  remaining: number | null;
  limit: number | null;
  resetAt: number | null;
  retryAfterUntil: number | null;
}

function intHeader(headers: Record<string, unknown>, name: string): number | null {
  const raw = headers[name];
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  const text = String(raw).trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Reads `x-ratelimit-remaining`, `-limit`, `-reset` (epoch seconds), `-resource` and a
 * `retry-after` (seconds) from one answer's headers. A reading is kept only when remaining,
 * limit and reset are all present and sane; a retry-after alone is kept too.
 */
export function parseRateHeaders(headers: Record<string, unknown>, now: number): RateObservation | null {
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  const limit = intHeader(headers, "x-ratelimit-limit");
  const reset = intHeader(headers, "x-ratelimit-reset");
  const retryAfter = intHeader(headers, "retry-after");
  const resourceRaw = headers["x-ratelimit-resource"];
  const resource = typeof resourceRaw === "string" && /^[a-z_]{1,40}$/.test(resourceRaw) ? resourceRaw : "core";
  const reading = remaining !== null && limit !== null && limit > 0 && reset !== null && remaining <= limit;
  const retryAfterUntil = retryAfter === null ? null : now + retryAfter * 1000;
  if (!reading && retryAfterUntil === null) return null;
  return {
    resource,
    remaining: reading ? remaining : null,
    limit: reading ? limit : null,
    resetAt: reading ? reset * 1000 : null,
    retryAfterUntil,
  };
}

/** The tier a kind belongs to. */
export function tierOf(kind: WorkKind): DeferralTier {
  const tier = DEFERRAL_ORDER.find((t) => t.kinds.includes(kind));
  if (!tier) throw new Error(`no deferral tier for ${kind}`);
  return tier;
}

/** Below this many remaining calls (of `limit`), work of `kind` waits for the reset. */
export function thresholdFor(kind: WorkKind, limit: number): number {
  const tier = tierOf(kind);
  return Math.max(Math.ceil(limit * tier.fraction), tier.floor);
}

export type BudgetDecision =
  | { defer: false }
  | {
      defer: true;
      /** When the work may run again: the reset, or the end of a secondary limit's wait. */
      until: number;
      reason: string;
    };

/**
 * Does work of `kind` for this installation wait? Not without a reading, nor once the reading's
 * window has reset (the budget is full again); while a secondary limit's retry-after (from any
 * replica) runs, every kind waits until it ends; otherwise a kind waits while the remainder is
 * under its tier's threshold, until the reset.
 */
export function budgetDecision(kind: WorkKind, reading: RateReading | null, now: number): BudgetDecision {
  if (reading === null) return { defer: false };
  if (reading.retryAfterUntil !== null && reading.retryAfterUntil > now) {
    return {
      defer: true,
      until: reading.retryAfterUntil,
      reason: `GitHub asked installation ${reading.installationId} to wait (a secondary rate limit, retry-after) until ${new Date(reading.retryAfterUntil).toISOString()}`,
    };
  }
  const { remaining, limit, resetAt } = reading;
  if (remaining === null || limit === null || resetAt === null || resetAt <= now) return { defer: false };
  const threshold = thresholdFor(kind, limit);
  if (remaining >= threshold) return { defer: false };
  const tier = tierOf(kind);
  return {
    defer: true,
    until: resetAt,
    reason: `installation ${reading.installationId} has ${remaining} of ${limit} GitHub API calls left (${reading.resource}), under the ${threshold} below which ${kind.replace("_", " ")} work waits (the ${tier.tier} to wait); it resumes after the reset at ${new Date(resetAt).toISOString()}`,
  };
}

/**
 * The kind of work a delivery is, from its event and payload, before any call: a completed
 * `workflow_run` of a push is an audit run (it proposes envelope PRs); any other `workflow_run`
 * is runner A or runner B (the verified check, the dual run); `pull_request` and
 * `pull_request_review` evaluate verified checks again (and upkeep envelope and ledger PRs);
 * `push` rebases ledger PRs. Null: work that makes no installation call worth deferring.
 */
export function workKindOf(event: string, payload: unknown): WorkKind | null {
  const p = (payload ?? {}) as { workflow_run?: { event?: unknown } };
  switch (event) {
    case "workflow_run":
      return p.workflow_run?.event === "push" ? "audit_run" : "verified_check";
    case "pull_request":
    case "pull_request_review":
      return "verified_check";
    case "push":
      return "ledger_pr";
    default:
      return null;
  }
}

/** Work set aside for the installation's budget (GITHUB_BUDGET_LOW): recorded queued, taken up again at `until`. */
export class BudgetDeferral extends Refusal {
  constructor(
    readonly kind: WorkKind,
    readonly until: number,
    reason: string,
  ) {
    super("GITHUB_BUDGET_LOW", `deferred: ${reason}`);
  }
}
