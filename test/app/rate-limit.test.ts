/**
 * The App's installation client (src/github/app-client.ts) against GitHub's rate limits,
 * served by the fake: one short wait is honoured and the call succeeds; a wait past the
 * client's ceiling fails closed as GITHUB_UNAVAILABLE without a second request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppClient, type InstallationClient } from "../../src/github/app-client.js";
import { GateError } from "../../src/core/errors.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { installAppRoutes } from "../support/fake-github-app.js";
import { APP_ID, appKeys, HEAD_SHA, INSTALLATION, REPO } from "./helpers.js";

let fake: FakeGitHub;
let gh: InstallationClient;
const r = { owner: "acme", repo: "widgets" };

beforeAll(async () => {
  fake = await startFakeGitHub();
  installAppRoutes(fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, dispatchMode: "run_details" });
  fake.addRepo(REPO);
  fake.commit(REPO, { "README.md": "widgets\n" }, { branch: "main" });
  const client = new AppClient({
    appId: APP_ID,
    privateKey: appKeys().privateKeyPem,
    baseUrl: fake.url,
    beforeEachRequest: async () => {},
    retries: 1,
    retryAfterMs: 1,
    throttle: true,
    timeoutMs: 5000,
    maxRateLimitWaitS: 30,
  });
  gh = await client.installation(INSTALLATION);
  // The installation token is fetched with the first call; get it before limits are set.
  await gh.branchSha(r, "main");
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.clearFailures();
  fake.requests.length = 0;
});

const PATTERN = "/repos/:owner/:repo/check-runs";
const check = { name: "envelope-gate", head_sha: HEAD_SHA, conclusion: "success" as const, title: "t", summary: "s" };
const statuses = () => fake.requestsTo("POST", PATTERN).map((q) => q.status);

describe("the App's installation client under GitHub's rate limits", () => {
  it("waits out a short primary limit and succeeds", async () => {
    fake.rateLimit({ kind: "primary", method: "POST", pattern: PATTERN, times: 1, resetInS: 1 });
    const id = await gh.createCheckRun(r, check);
    expect(fake.repo(REPO).checkRuns.map((c) => c.id)).toContain(id);
    expect(statuses()).toEqual([403, 201]);
  });

  it("waits out a short secondary limit and succeeds", async () => {
    fake.rateLimit({ kind: "secondary", method: "POST", pattern: PATTERN, times: 1, retryAfterS: 1 });
    await gh.createCheckRun(r, check);
    expect(statuses()).toEqual([403, 201]);
  });

  for (const [kind, options] of [
    ["primary", { resetInS: 3600 }],
    ["secondary", { retryAfterS: 3600 }],
  ] as const) {
    it(`fails closed as GITHUB_UNAVAILABLE when a ${kind} limit asks for a wait past its ceiling`, async () => {
      const before = fake.repo(REPO).checkRuns.length;
      fake.rateLimit({ kind, method: "POST", pattern: PATTERN, times: 5, ...options });
      const err = await gh.createCheckRun(r, check).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GateError);
      expect((err as GateError).code).toBe("GITHUB_UNAVAILABLE");
      expect(statuses()).toEqual([403]);
      expect(fake.repo(REPO).checkRuns).toHaveLength(before);
    });
  }

  it("fails closed when the limit outlasts its one wait", async () => {
    fake.rateLimit({ kind: "secondary", method: "POST", pattern: PATTERN, times: 5, retryAfterS: 1 });
    const err = await gh.createCheckRun(r, check).catch((e: unknown) => e);
    expect((err as GateError).code).toBe("GITHUB_UNAVAILABLE");
    expect(statuses()).toEqual([403, 403]);
  });
});
