/**
 * The App's installation client (src/github/app-client.ts) against GitHub's rate limits,
 * served by the fake: one short wait is honoured and the call succeeds; a wait past the
 * client's ceiling fails closed as GITHUB_UNAVAILABLE without a second request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppClient, type InstallationClient } from "../../src/github/app-client.js";
import { Refusal } from "../../src/core/errors.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { installAppRoutes } from "../support/fake-github-app.js";
import {
  addRunA,
  APP_ID,
  appKeys,
  deliverAndWait,
  dispatchedRuns,
  HEAD_SHA,
  INSTALLATION,
  REPO,
  startTestApp,
  startWorld,
  TestClock,
  workflowRunPayload,
} from "./helpers.js";

const DISPATCH = "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches";

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
      expect(err).toBeInstanceOf(Refusal);
      expect((err as Refusal).code).toBe("GITHUB_UNAVAILABLE");
      expect(statuses()).toEqual([403]);
      expect(fake.repo(REPO).checkRuns).toHaveLength(before);
    });
  }

  it("fails closed when the limit outlasts its one wait", async () => {
    fake.rateLimit({ kind: "secondary", method: "POST", pattern: PATTERN, times: 5, retryAfterS: 1 });
    const err = await gh.createCheckRun(r, check).catch((e: unknown) => e);
    expect((err as Refusal).code).toBe("GITHUB_UNAVAILABLE");
    expect(statuses()).toEqual([403, 403]);
  });
});

describe("the App under a rate limit longer than its ceiling", () => {
  it("leaves the delivery to the sweeper (queued, code recorded, claims released) and the sweeper does the work once the limit passed", async () => {
    const world = await startWorld();
    // Throttling on, as in production: the plugin sees the limit and refuses the hour-long wait.
    // The App's clock is the fake's (its reset is read from the answer); the dual run's deadline outlasts the reset.
    const clock = new TestClock(Date.now());
    const app = await startTestApp(world.fake, clock, { githubThrottle: true, deadlineMs: 3 * 3_600_000 });
    try {
      const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
      world.fake.rateLimit({ kind: "primary", method: "POST", pattern: DISPATCH, times: 100, resetInS: 3600 });
      const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "limited-1" });
      expect(res.state).not.toBe("done");
      expect(res.code).toBe("GITHUB_UNAVAILABLE");
      expect(world.fake.requestsTo("POST", DISPATCH).map((q) => q.status)).toEqual([403]);
      // Not lost: recorded with its code and payload, for the sweeper; the dual run's claim released.
      const recorded = await app.store.getDelivery("limited-1");
      expect(recorded).toMatchObject({ state: "queued", error_code: "GITHUB_UNAVAILABLE", failures: 1 });
      expect(recorded?.payload).not.toBeNull();
      const [dual] = await app.store.listDualRuns(["pending"]);
      expect(dual).toMatchObject({ claim_owner: null });
      // Still limited: the App read "0 left until the reset" from the 403, so the sweeper sends
      // nothing (issue 32 item 3: GITHUB_BUDGET_LOW, the delivery deferred until the reset) instead of
      // meeting the limit again.
      const during = await app.sweep();
      expect(during.errors.map((e) => e.code)).toContain("GITHUB_BUDGET_LOW");
      expect(await app.store.getDelivery("limited-1")).toMatchObject({ state: "queued", error_code: "GITHUB_BUDGET_LOW" });
      expect(world.fake.requestsTo("POST", DISPATCH)).toHaveLength(1);
      expect(dispatchedRuns(world.fake)).toHaveLength(0);
      world.fake.clearFailures();
      clock.advance(3_700_000);
      const after = await app.sweep();
      expect(after.dispatched).toHaveLength(1);
      expect(after.deliveries).toEqual(["limited-1"]);
      expect(await app.store.getDelivery("limited-1")).toMatchObject({ state: "done", payload: null });
      expect(dispatchedRuns(world.fake)).toHaveLength(1);
    } finally {
      await app.close();
      await world.close();
    }
  });
});
