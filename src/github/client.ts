/**
 * The one place that talks to GitHub. An Octokit with retry and throttling, bounded in
 * attempts and in time per request; every failure that reaches a caller is a
 * GitHubUnavailable (code GITHUB_UNAVAILABLE) carrying the HTTP status when there was one.
 * "GitHub could not answer" never reads as an answer.
 */
import { Octokit } from "@octokit/core";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Refusal } from "../core/errors.js";

/** Runs before every request attempt (retries too); throws to stop it. The App's kill switch. */
type RequestGuard = (route: string) => Promise<void>;

/** Told of each request attempt GitHub did not answer (no response, a timeout, a 5xx), before any retry of it. */
type AttemptFailed = (route: string, err: unknown) => void;

/**
 * Told of the headers of each answer GitHub gave (a success or an error status, retries
 * included): the App reads its `x-ratelimit-*` and `retry-after` there. Must not throw.
 */
type ResponseHeaders = (headers: Record<string, unknown>) => void;

function guardPlugin(
  octokit: Octokit,
  options: { beforeEachRequest?: RequestGuard; onAttemptFailed?: AttemptFailed; onResponseHeaders?: ResponseHeaders },
): void {
  const guard = options.beforeEachRequest;
  if (guard) {
    octokit.hook.before("request", async (opts) => {
      await guard(`${String(opts.method)} ${String(opts.url)}`);
    });
  }
  const seen = options.onResponseHeaders;
  if (seen) {
    // Innermost, so every attempt's answer is read, a rate-limited one the throttling plugin retries included.
    const tell = (headers: unknown) => {
      if (typeof headers !== "object" || headers === null) return;
      try {
        seen(headers as Record<string, unknown>);
      } catch {
        // Reading the budget never fails a request.
      }
    };
    octokit.hook.after("request", (response) => tell((response as { headers?: unknown }).headers));
    octokit.hook.error("request", (err) => {
      tell((err as { response?: { headers?: unknown } }).response?.headers);
      throw err;
    });
  }
  const failed = options.onAttemptFailed;
  if (failed) {
    // Innermost as well: each attempt's failure, not only the last one after the retries.
    octokit.hook.error("request", (err, opts) => {
      const status = (err as { status?: unknown }).status;
      if (!(err instanceof Refusal) && (typeof status !== "number" || status === 0 || status >= 500)) {
        failed(`${String(opts.method)} ${String(opts.url)}`, err);
      }
      throw err;
    });
  }
}

/**
 * The one Octokit of envelope-gate, for the Action's token client and the App's installation
 * clients alike. The guard is registered first, so it sits innermost: it runs before each retry
 * attempt as well.
 */
export const GuardedOctokit = Octokit.plugin(guardPlugin as never, retry, throttling);
export type GitHubClient = InstanceType<typeof GuardedOctokit>;

export interface RetrySettings {
  /** Retries after the first attempt, for 5xx, network errors and rate limits. */
  retries: number;
  /** Backoff unit: the n-th retry waits n² times this. */
  retryBaseMs: number;
  /** Per-request deadline. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { retries: 3, retryBaseMs: 1000, timeoutMs: 30_000 };

/** Hard ceilings, so no setting can make a GitHub outage hang a run. */
export const MAX_RETRIES = 10;
export const MAX_RETRY_BASE_MS = 10_000;
/** Longest rate-limit wait honoured; beyond it the call gives up as unavailable. */
export const MAX_RATE_LIMIT_WAIT_S = 120;

interface ClientOptions {
  token: string;
  baseUrl: string;
  retry?: Partial<RetrySettings>;
  userAgent?: string;
}

interface OctokitSettings {
  baseUrl?: string;
  userAgent?: string;
  retry?: Partial<RetrySettings>;
  /** Rate-limit waits honoured per request (default: as many as `retry.retries`). */
  rateLimitRetries?: number;
  /** Longest single rate-limit wait honoured, seconds (at most MAX_RATE_LIMIT_WAIT_S). */
  maxRateLimitWaitS?: number;
  /** Space writes as GitHub asks integrations to (the throttling plugin's queue); default on. */
  throttle?: boolean;
  beforeEachRequest?: RequestGuard;
  /** The fetch each request goes through, under the per-request deadline (default: Node's). */
  fetch?: typeof fetch;
  onAttemptFailed?: AttemptFailed;
  onResponseHeaders?: ResponseHeaders;
}

/** A typed GitHub failure: the request failed after the bounded retries. */
export class GitHubUnavailable extends Refusal {
  /** HTTP status, or null when no response arrived (refused, reset, timed out). */
  readonly status: number | null;
  constructor(what: string, status: number | null, detail: string, cause: unknown, hint?: string) {
    super("GITHUB_UNAVAILABLE", `GitHub could not ${what}: ${status === null ? "" : `HTTP ${status} `}${detail}`, {
      cause,
      hint:
        hint ??
        (status === 403 || status === 401
          ? "The token lacks a permission this step needs (see the permissions block in docs/action.md)."
          : "GitHub did not answer after bounded retries; re-run the job. The gate does not pass without GitHub."),
    });
    this.status = status;
  }
}

function fetchWithDeadline(timeoutMs: number, base: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return base(input, { ...init, signal });
  };
}

function retrySettings(partial: Partial<RetrySettings> = {}): RetrySettings {
  const merged = { ...DEFAULT_RETRY, ...partial };
  return {
    retries: Math.min(MAX_RETRIES, Math.max(0, Math.floor(merged.retries))),
    retryBaseMs: Math.min(MAX_RETRY_BASE_MS, Math.max(0, merged.retryBaseMs)),
    timeoutMs: Math.max(1, merged.timeoutMs),
  };
}

/**
 * Octokit options carrying the bounded retry, throttling and per-request deadline: 5xx and
 * network errors are retried by plugin-retry; rate limits (403 with no quota left, 429, and the
 * secondary limit) only by the throttling plugin, which waits out at most `maxRateLimitWaitS`
 * per wait and `rateLimitRetries` waits, then the call fails. A 429 is kept from plugin-retry,
 * which would otherwise retry it before its reset.
 */
export function guardedOctokitOptions(options: OctokitSettings = {}) {
  const settings = retrySettings(options.retry);
  const maxWait = Math.min(MAX_RATE_LIMIT_WAIT_S, options.maxRateLimitWaitS ?? MAX_RATE_LIMIT_WAIT_S);
  const waits = options.rateLimitRetries ?? settings.retries;
  const rateLimited = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean =>
    retryCount < waits && retryAfter <= maxWait;
  return {
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
    userAgent: options.userAgent ?? "envelope-gate",
    request: { fetch: fetchWithDeadline(settings.timeoutMs, options.fetch) },
    retry: { retries: settings.retries, retryAfterBaseValue: settings.retryBaseMs, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    throttle: {
      enabled: options.throttle ?? true,
      onRateLimit: rateLimited,
      onSecondaryRateLimit: rateLimited,
      retryAfterBaseValue: Math.max(1, settings.retryBaseMs),
    },
    ...(options.beforeEachRequest !== undefined ? { beforeEachRequest: options.beforeEachRequest } : {}),
    ...(options.onAttemptFailed !== undefined ? { onAttemptFailed: options.onAttemptFailed } : {}),
    ...(options.onResponseHeaders !== undefined ? { onResponseHeaders: options.onResponseHeaders } : {}),
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  };
}

/**
 * The Action's client: @actions/github's getOctokit with our plugins, so a job's token client is
 * the toolkit's (REST methods, pagination, the runner's proxy settings through its fetch, the
 * orchestration id in the user agent) held to the same bounds as the App's. The toolkit reads the
 * run's event file as it loads; it is loaded here, after the settings read that file with a typed
 * error, never at the Action's start.
 */
export async function createGitHubClient(options: ClientOptions): Promise<GitHubClient> {
  const { getOctokit } = await import(/* webpackMode: "eager" */ "@actions/github");
  const { defaults } = await import(/* webpackMode: "eager" */ "@actions/github/lib/utils");
  const proxied = defaults.request?.fetch as typeof fetch | undefined;
  const octokitOptions = guardedOctokitOptions({
    baseUrl: options.baseUrl,
    ...(options.retry !== undefined ? { retry: options.retry } : {}),
    ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
    ...(proxied !== undefined ? { fetch: proxied } : {}),
  });
  return getOctokit(
    options.token,
    octokitOptions as never,
    guardPlugin as never,
    retry as never,
    throttling as never,
  ) as unknown as GitHubClient;
}

function statusOf(err: unknown): number | null {
  if (typeof err !== "object" || err === null || !("status" in err)) return null;
  const status = Number((err as { status: unknown }).status);
  // @octokit/request reports a request that got no response (refused, reset, aborted) as 500
  // with no response object; say so instead of inventing a status.
  if (!("response" in err) || (err as { response: unknown }).response === undefined) return null;
  return Number.isInteger(status) ? status : null;
}

function detailOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
  return `${message}${cause}`.slice(0, 500);
}

/**
 * The one error wrapper of envelope-gate's GitHub calls: a failed request becomes
 * GitHubUnavailable (GITHUB_UNAVAILABLE) naming what was attempted, with the HTTP status when
 * GitHub answered; a Refusal (already typed: the App's kill switch, a drain, a secret that
 * could not be read) passes through unchanged. `hint` replaces the default advice (the App's
 * says nothing was decided).
 */
export function gitHubFailure(what: string, err: unknown, hint?: string): Refusal {
  if (err instanceof Refusal) return err;
  return new GitHubUnavailable(what, statusOf(err), detailOf(err), err, hint);
}

/** Runs one GitHub call; any failure becomes GitHubUnavailable naming what was attempted (gitHubFailure). */
export async function callGitHub<T>(what: string, call: () => Promise<T>, hint?: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw gitHubFailure(what, err, hint);
  }
}

/** Is this a GitHub answer with the given status (as opposed to an outage)? */
export function hasStatus(err: unknown, status: number): boolean {
  return err instanceof GitHubUnavailable && err.status === status;
}
