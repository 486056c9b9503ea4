/**
 * Issue 32 item 3, the budget seen and respected: the App reads GitHub's x-ratelimit-* headers
 * from every answer to an installation's requests (real HTTP against the fake GitHub), records
 * the latest in the store, shows it on the status page, and when the installation runs low defers
 * work in the written order (docs/app.md, Rate limits): an audit run waits (GITHUB_BUDGET_LOW,
 * queued until the reset, nothing sent) while a verified check still goes through; after the
 * reset the sweeper takes the audit run up by itself.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../src/app/start.js";
import type { StatusSnapshot } from "../../src/app/status.js";
import type { FakeWorkflowRun } from "../support/fake-github.js";
import {
  addRunA,
  baseConfig,
  deliverAndWait,
  deliveryState,
  HEAD_SHA,
  INSTALLATION,
  REPO,
  silent,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";

const PASSING = [{ name: "schema_key_order", result: "pass" as const }];

describe("an installation's GitHub budget, seen and respected", () => {
  let world: World;
  let app: RunningApp;
  let clock: TestClock;
  let sqlitePath: string;

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock(Date.now());
    sqlitePath = join(tempDir(), "app.sqlite");
    app = await startApp(baseConfig(world.fake, { store: { sqlitePath } }), {
      clock,
      log: silent,
      sweeper: false,
    });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  /** A completed push run of the gate workflow on main's tip (an audit run), with no evidence artifact. */
  function auditRun(): FakeWorkflowRun {
    const main = world.fake.repo(REPO).refs.get("heads/main")!;
    return world.fake.addWorkflowRun(REPO, {
      head_sha: main,
      head_branch: "main",
      event: "push",
      status: "completed",
      conclusion: "success",
    });
  }
  const verifiedChecks = () => world.fake.repo(REPO).checkRuns.filter((c) => c.name === "envelope-gate / verified");
  const status = async () => (await (await fetch(`${app.url}/status.json`)).json()) as StatusSnapshot;

  it("driven low, an audit run is deferred with GITHUB_BUDGET_LOW while a verified check goes through; after the reset the audit run runs", async () => {
    const resetAt = Math.floor(clock.now() / 1000) + 600;
    // 300 of 5,000 left: under the audit runs' 500, over the verified checks' 50.
    world.fake.budget = { remaining: 300, limit: 5000, resetAt };

    const first = await deliverAndWait(
      app.url,
      "workflow_run",
      workflowRunPayload(world.fake, addRunA(world.fake, { properties: PASSING }, { conclusion: "success" })),
    );
    expect(first.state).toBe("done");
    expect(verifiedChecks()).toHaveLength(1);
    // Recorded from the answers' headers, in the store every replica reads.
    const seen = await app.store.rateLimits.get(INSTALLATION);
    expect(seen).toMatchObject({ installationId: INSTALLATION, resource: "core", limit: 5000, resetAt: resetAt * 1000 });
    expect(seen!.remaining).toBeLessThan(300);
    expect(seen!.remaining).toBe(world.fake.budget.remaining);

    // The audit run waits: nothing sent for it, queued with the typed code until the reset.
    const before = world.fake.requests.length;
    const audit = auditRun();
    const deferred = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, audit, null), { delivery: "audit-1" });
    expect(deferred).toMatchObject({ state: "queued", code: "GITHUB_BUDGET_LOW", failures: 0 });
    expect(deferred.message).toContain(`of 5000 GitHub API calls left`);
    expect(deferred.message).toContain(new Date(resetAt * 1000).toISOString());
    expect(world.fake.requests.length).toBe(before);
    expect(await app.store.envelopePrs.getAuditRun(REPO, audit.id, 1)).toBeNull();

    // A verified check still goes through at the same remainder.
    const other = "d00d".padEnd(40, "1");
    const second = await deliverAndWait(
      app.url,
      "workflow_run",
      workflowRunPayload(world.fake, addRunA(world.fake, { properties: PASSING }, { conclusion: "success", headSha: other }), 101),
    );
    expect(second.state).toBe("done");
    expect(verifiedChecks().map((c) => c.head_sha)).toEqual([HEAD_SHA, other]);

    // Shown on the status page and in /status.json (what `app status` prints).
    const s = await status();
    expect(s.github_budget.installations).toEqual([
      expect.objectContaining({
        installation_id: INSTALLATION,
        resource: "core",
        limit: 5000,
        remaining: world.fake.budget.remaining,
        resets_at: new Date(resetAt * 1000).toISOString(),
        deferring: ["audit_run", "envelope_pr"],
      }),
    ]);
    expect(s.deliveries.deferred).toEqual([
      expect.objectContaining({
        delivery_id: "audit-1",
        state: "queued",
        code: "GITHUB_BUDGET_LOW",
        resumes_at: new Date(resetAt * 1000).toISOString(),
      }),
    ]);
    expect(s.deliveries.failed).toEqual([]);
    const page = await (await fetch(`${app.url}/status`)).text();
    expect(page).toContain("<h2>GitHub API budget</h2>");
    expect(page).toContain(`${world.fake.budget.remaining} / 5000`);
    expect(page).toContain("audit-1");

    // A sweep before the reset leaves it: nothing sent, still deferred.
    await app.sweep();
    expect(await deliveryState(app.url, "audit-1")).toMatchObject({ state: "queued", code: "GITHUB_BUDGET_LOW" });
    expect(world.fake.requests.slice(before).some((r) => r.path.includes(`/runs/${audit.id}`))).toBe(false);

    // The reset: GitHub's budget is full again, and the first sweep after it runs the audit run.
    world.fake.budget = null;
    clock.advance(601_000);
    const swept = await app.sweep();
    expect(swept.deliveries).toContain("audit-1");
    expect(await deliveryState(app.url, "audit-1")).toMatchObject({ state: "done", code: null });
    expect(await app.store.envelopePrs.getAuditRun(REPO, audit.id, 1)).toMatchObject({
      state: "refused",
      code: "AUDIT_EVIDENCE_UNAVAILABLE",
    });
    expect((await status()).deliveries.deferred).toEqual([]);
  });

  it("nearly exhausted, the verified check waits too, and resumes after the reset", async () => {
    const resetAt = Math.floor(clock.now() / 1000) + 120;
    world.fake.budget = { remaining: 60, limit: 5000, resetAt };
    // The first delivery's answers bring the remainder under 50.
    await deliverAndWait(
      app.url,
      "workflow_run",
      workflowRunPayload(world.fake, addRunA(world.fake, { properties: PASSING }, { conclusion: "success" })),
    );
    expect((await app.store.rateLimits.get(INSTALLATION))!.remaining).toBeLessThan(50);
    const other = "beef".padEnd(40, "2");
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success", headSha: other });
    const held = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run, 101), { delivery: "check-1" });
    expect(held).toMatchObject({ state: "queued", code: "GITHUB_BUDGET_LOW" });
    expect(verifiedChecks().map((c) => c.head_sha)).toEqual([HEAD_SHA]);
    world.fake.budget = null;
    clock.advance(121_000);
    await app.sweep();
    expect(await deliveryState(app.url, "check-1")).toMatchObject({ state: "done" });
    expect(verifiedChecks().map((c) => c.head_sha)).toEqual([HEAD_SHA, other]);
  });

  it("a secondary limit's retry-after seen by one replica holds new work of every kind on another replica, until it ends", async () => {
    // A second replica on the same store.
    const other = await startApp(baseConfig(world.fake, { store: { sqlitePath } }), { clock, log: silent, sweeper: false });
    try {
      // This replica's request meets a secondary limit (403 with retry-after: 90).
      world.fake.rateLimit({
        kind: "secondary",
        retryAfterS: 90,
        times: 1,
        method: "GET",
        pattern: "/repos/:owner/:repo/actions/runs/:run_id",
      });
      const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
      await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
      expect((await other.store.rateLimits.get(INSTALLATION))!.retryAfterUntil).toBe(clock.now() + 90_000);
      // The other replica sends nothing for new work of the installation, even a verified check, until it ends.
      const before = world.fake.requests.length;
      const next = addRunA(world.fake, { properties: PASSING }, { conclusion: "success", headSha: "cafe".padEnd(40, "3") });
      const held = await deliverAndWait(other.url, "workflow_run", workflowRunPayload(world.fake, next, 101), {
        delivery: "after-secondary",
      });
      expect(held).toMatchObject({ state: "queued", code: "GITHUB_BUDGET_LOW" });
      expect(held.message).toContain("secondary rate limit");
      expect(world.fake.requests.length).toBe(before);
      clock.advance(91_000);
      await other.sweep();
      expect(await deliveryState(other.url, "after-secondary")).toMatchObject({ state: "done" });
    } finally {
      await other.close();
    }
  });
});
