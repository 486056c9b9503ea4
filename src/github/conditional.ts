/**
 * Conditional requests (GitHub's REST guidance): a GET answered with an ETag is kept, and asked
 * again with `If-None-Match`; GitHub answers 304 when nothing changed, and a 304 does not count
 * against the installation's rate limit. The answer given back is the one kept, a fresh copy each
 * time (callers may change what they get). Kept per installation (GitHub's ETags vary with the
 * token), least recently used first out, within a byte budget that counts each entry's key,
 * headers and data. Anything else than a 304 to a kept
 * entry is the answer as GitHub gave it: the cache never answers without GitHub's word.
 */
import type { Octokit } from "@octokit/core";

interface Kept {
  etag: string;
  status: number;
  url: string;
  headers: Record<string, unknown>;
  /** The answer's data as JSON: parsed again for every hit. */
  json: string;
  /** What it holds, counted against the budget: its key, headers and data (and a fixed overhead). */
  cost?: number;
}

/** What an entry costs beyond its strings (the map's slot, the object). */
const ENTRY_OVERHEAD = 128;

export interface ConditionalCacheLimits {
  /** The most bytes kept (each answer's key, headers and JSON), all installations together. */
  maxBytes: number;
  /** The largest answer kept (its JSON). */
  maxEntryBytes: number;
}

const DEFAULT_LIMITS: ConditionalCacheLimits = { maxBytes: 32 * 1024 * 1024, maxEntryBytes: 512 * 1024 };

export class ConditionalCache {
  private readonly entries = new Map<string, Kept>();
  private bytes = 0;
  /** Answers given from the cache on GitHub's 304 (for the status page and the benchmark). */
  hits = 0;

  constructor(private readonly limits: ConditionalCacheLimits = DEFAULT_LIMITS) {}

  get size(): number {
    return this.entries.size;
  }

  get bytesKept(): number {
    return this.bytes;
  }

  get(key: string): Kept | undefined {
    const kept = this.entries.get(key);
    if (kept === undefined) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, kept);
    return kept;
  }

  set(key: string, kept: Kept): void {
    this.delete(key);
    if (kept.json.length > this.limits.maxEntryBytes) return;
    const cost = key.length + kept.json.length + JSON.stringify(kept.headers).length + ENTRY_OVERHEAD;
    this.entries.set(key, { ...kept, cost });
    this.bytes += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.cost ?? 0;
    }
  }

  delete(key: string): void {
    const kept = this.entries.get(key);
    if (kept === undefined) return;
    this.entries.delete(key);
    this.bytes -= kept.cost ?? 0;
  }
}

interface RequestOptions {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  [key: string]: unknown;
}

interface OctokitResponseLike {
  status: number;
  url: string;
  headers: Record<string, unknown>;
  data: unknown;
}

/**
 * Makes `octokit`'s GETs conditional on `cache`, under `scope` (the installation). Registered on
 * a built client, so it sits outermost: the retry and throttling plugins pass a 304 through (it is
 * no failure to retry), the budget hook reads its rate-limit headers, and it becomes the kept
 * answer here.
 */
export function conditionalRequests(octokit: Octokit, cache: ConditionalCache, scope: string): void {
  octokit.hook.wrap("request", async (request, options: RequestOptions) => {
    if (String(options.method ?? "GET").toUpperCase() !== "GET") return request(options as never);
    const endpoint = octokit.request.endpoint(options as never) as { url: string; headers: Record<string, unknown> };
    const key = `${scope} ${String(endpoint.headers.accept ?? "")} ${endpoint.url}`;
    const kept = cache.get(key);
    // In place: the hooks inside this one were bound to this options object, not to a copy.
    if (kept !== undefined) options.headers = { ...options.headers, "if-none-match": kept.etag };
    let response: OctokitResponseLike;
    try {
      response = (await request(options as never)) as unknown as OctokitResponseLike;
    } catch (err) {
      const e = err as { status?: unknown; response?: { headers?: Record<string, unknown> } };
      if (kept === undefined || e.status !== 304) throw err;
      cache.hits++;
      return {
        status: kept.status,
        url: kept.url,
        headers: { ...kept.headers, ...(e.response?.headers ?? {}) },
        data: JSON.parse(kept.json) as unknown,
      } as never;
    }
    const etag = response.headers.etag;
    const data = response.data;
    const json = String(response.headers["content-type"] ?? "").includes("json");
    if (response.status === 200 && json && typeof etag === "string" && etag !== "" && data !== null && typeof data === "object") {
      cache.set(key, { etag, status: response.status, url: response.url, headers: { ...response.headers }, json: JSON.stringify(data) });
    } else cache.delete(key);
    return response as never;
  });
}
