/**
 * Issue 32 item 2: conditional requests. A GET answered with an ETag is asked again with
 * If-None-Match; GitHub's 304 (free against the rate limit) gives back the kept answer, a fresh
 * copy; anything else is GitHub's answer. Against a real local HTTP server, through the App's
 * Octokit (the guard, retry and throttling plugins).
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GuardedOctokit, guardedOctokitOptions } from "../../src/github/client.js";
import { ConditionalCache, conditionalRequests } from "../../src/github/conditional.js";

interface Server {
  url: string;
  seen: IncomingHttpHeaders[];
  body: { value: number };
  close(): Promise<void>;
}

async function serve(): Promise<Server> {
  const seen: IncomingHttpHeaders[] = [];
  const body = { value: 1 };
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const etag = `W/"v${body.value}"`;
    res.setHeader("x-ratelimit-remaining", String(5000 - seen.length));
    if (req.url?.startsWith("/zip")) {
      res.setHeader("content-type", "application/zip");
      res.setHeader("etag", etag);
      res.end(Buffer.from([0x50, 0x4b]));
      return;
    }
    res.setHeader("etag", etag);
    res.setHeader("content-type", "application/json; charset=utf-8");
    if (req.headers["if-none-match"] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.end(JSON.stringify({ value: body.value, nested: { list: [1, 2] } }));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    body,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe("conditional requests (src/github/conditional.ts)", () => {
  let server: Server;
  beforeEach(async () => {
    server = await serve();
  });
  afterEach(async () => {
    await server.close();
  });

  const client = (cache: ConditionalCache, scope = "installation:1", headersSeen: Record<string, unknown>[] = []) => {
    const Configured = GuardedOctokit.defaults(
      guardedOctokitOptions({ baseUrl: server.url, retry: { retries: 0, retryBaseMs: 1, timeoutMs: 5000 }, throttle: false }) as never,
    );
    const octokit = new (Configured as unknown as new (o: object) => InstanceType<typeof GuardedOctokit>)({
      onResponseHeaders: (h: Record<string, unknown>) => headersSeen.push(h),
    });
    conditionalRequests(octokit as never, cache, scope);
    return octokit;
  };

  it("asks again with the ETag; GitHub's 304 gives back the kept answer, a fresh copy, and its rate-limit headers are read", async () => {
    const cache = new ConditionalCache();
    const told: Record<string, unknown>[] = [];
    const octokit = client(cache, "installation:1", told);
    const first = await octokit.request("GET /thing");
    expect(first.data).toEqual({ value: 1, nested: { list: [1, 2] } });
    (first.data as { nested: { list: number[] } }).nested.list.push(99);
    const second = await octokit.request("GET /thing");
    expect(server.seen[1]?.["if-none-match"]).toBe('W/"v1"');
    expect(second.status).toBe(200);
    expect(second.data).toEqual({ value: 1, nested: { list: [1, 2] } });
    expect(cache.hits).toBe(1);
    // The 304's own headers (its rate limit) reach the budget hook.
    expect(told.map((h) => h["x-ratelimit-remaining"])).toEqual(["4999", "4998"]);
  });

  it("a changed answer is GitHub's, and kept in place of the old one", async () => {
    const cache = new ConditionalCache();
    const octokit = client(cache);
    await octokit.request("GET /thing");
    server.body.value = 2;
    expect((await octokit.request("GET /thing")).data).toMatchObject({ value: 2 });
    expect((await octokit.request("GET /thing")).data).toMatchObject({ value: 2 });
    expect(server.seen.map((h) => h["if-none-match"])).toEqual([undefined, 'W/"v1"', 'W/"v2"']);
    expect(cache.hits).toBe(1);
  });

  it("kept per installation: another installation's token asks without the ETag", async () => {
    const cache = new ConditionalCache();
    await client(cache, "installation:1").request("GET /thing");
    await client(cache, "installation:2").request("GET /thing");
    expect(server.seen.map((h) => h["if-none-match"])).toEqual([undefined, undefined]);
  });

  it("writes and binary answers are never conditional nor kept", async () => {
    const cache = new ConditionalCache();
    const octokit = client(cache);
    await octokit.request("POST /thing", { a: 1 });
    await octokit.request("POST /thing", { a: 1 });
    await octokit.request("GET /zip");
    await octokit.request("GET /zip");
    expect(server.seen.map((h) => h["if-none-match"])).toEqual([undefined, undefined, undefined, undefined]);
    expect(cache.size).toBe(0);
  });

  it("holds to its byte budget, each entry's key and headers counted: the least recently used answer goes first, an answer too large is not kept", async () => {
    const probe = new ConditionalCache();
    await client(probe).request("GET /a");
    const one = probe.bytesKept;
    // Headers and key count: an entry costs far more than its JSON.
    expect(one).toBeGreaterThan(JSON.stringify({ value: 1, nested: { list: [1, 2] } }).length + 200);
    const cache = new ConditionalCache({ maxBytes: Math.floor(one * 2.5), maxEntryBytes: 60 });
    const octokit = client(cache);
    await octokit.request("GET /a");
    await octokit.request("GET /b");
    expect(cache.size).toBe(2);
    await octokit.request("GET /a");
    await octokit.request("GET /c");
    expect(cache.size).toBe(2);
    expect(cache.bytesKept).toBeLessThanOrEqual(Math.floor(one * 2.5));
    // /b was the least recently used: gone; /a and /c kept.
    const asked = server.seen.length;
    await octokit.request("GET /a");
    await octokit.request("GET /b");
    expect(server.seen.slice(asked).map((h) => h["if-none-match"])).toEqual(['W/"v1"', undefined]);
    const small = new ConditionalCache({ maxBytes: 100_000, maxEntryBytes: 10 });
    await client(small).request("GET /a");
    expect(small.size).toBe(0);
  });
});
