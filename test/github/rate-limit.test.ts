/**
 * The Action's GitHub client (createGitHubClient + callGitHub) against GitHub's rate limits,
 * served by the fake: a short limit is waited out and the call succeeds; a limit whose wait
 * passes the client's ceiling (MAX_RATE_LIMIT_WAIT_S) fails closed as GITHUB_UNAVAILABLE.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callGitHub, createGitHubClient, GitHubUnavailable, MAX_RATE_LIMIT_WAIT_S, type GitHubClient } from "../../src/github/client.js";
import { RATE_LIMIT_PER_HOUR, startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo("o/r");
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.clearFailures();
  fake.requests.length = 0;
});

// retryBaseMs 1: the throttling plugin waits retry-after × 1 ms, so the tests do not sleep.
let shared: GitHubClient;
beforeAll(async () => {
  shared = await createGitHubClient({ token: "t", baseUrl: fake.url, retry: { retries: 2, retryBaseMs: 1, timeoutMs: 5000 } });
});
const client = (): GitHubClient => shared;
const readRepo = () => callGitHub("read the repository", () => client().request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" }));
const statuses = () => fake.requestsTo("GET", "/repos/:owner/:repo").map((r) => r.status);

describe("the Action's client under GitHub's rate limits", () => {
  it("every answer carries GitHub's rate limit headers", async () => {
    const res = await readRepo();
    expect(res.headers["x-ratelimit-limit"]).toBe(String(RATE_LIMIT_PER_HOUR));
    expect(Number(res.headers["x-ratelimit-remaining"])).toBe(RATE_LIMIT_PER_HOUR - Number(res.headers["x-ratelimit-used"]));
    expect(Number(res.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    expect(res.headers["x-ratelimit-resource"]).toBe("core");
  });

  for (const status of [403, 429] as const) {
    it(`waits out a short primary limit (${status}) and succeeds`, async () => {
      fake.rateLimit({ kind: "primary", status, times: 1, resetInS: 1 });
      const res = await readRepo();
      expect(res.data.full_name).toBe("o/r");
      expect(statuses()).toEqual([status, 200]);
    });
  }

  it("waits out a short secondary limit and succeeds", async () => {
    fake.rateLimit({ kind: "secondary", times: 1, retryAfterS: 1 });
    expect((await readRepo()).status).toBe(200);
    expect(statuses()).toEqual([403, 200]);
  });

  for (const status of [403, 429] as const) {
    it(`fails closed, without retrying, when the primary reset (${status}) is past its ceiling`, async () => {
      fake.rateLimit({ kind: "primary", status, times: 10, resetInS: MAX_RATE_LIMIT_WAIT_S + 3600 });
      const err = await readRepo().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GitHubUnavailable);
      expect((err as GitHubUnavailable).status).toBe(status);
      expect((err as Error).message).toContain("API rate limit exceeded");
      // A 429 is the throttling plugin's alone: the retry plugin does not hammer it before its reset.
      expect(statuses()).toEqual([status]);
    });
  }

  it("fails closed, without retrying, when a secondary limit asks for a wait past its ceiling", async () => {
    fake.rateLimit({ kind: "secondary", times: 10, retryAfterS: MAX_RATE_LIMIT_WAIT_S + 1 });
    const err = await readRepo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubUnavailable);
    expect((err as Error).message).toContain("secondary rate limit");
    expect(statuses()).toEqual([403]);
  });

  it("fails closed when a limit outlasts its retries", async () => {
    fake.rateLimit({ kind: "secondary", times: 10, retryAfterS: 1 });
    const err = await readRepo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubUnavailable);
    // retries: 2 -> the first answer and two waits, then it gives up.
    expect(statuses()).toEqual([403, 403, 403]);
  });
});
