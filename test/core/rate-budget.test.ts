import { describe, expect, it } from "vitest";
import {
  budgetDecision,
  BudgetDeferral,
  DEFERRAL_ORDER,
  parseRateHeaders,
  thresholdFor,
  workKindOf,
  type RateReading,
  type WorkKind,
} from "../../src/core/rate-budget.js";
import { isSetAside, isTransient, nothingSent } from "../../src/core/errors.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");
const RESET = NOW + 30 * 60_000;

function reading(remaining: number, limit = 5000, over: Partial<RateReading> = {}): RateReading {
  return { installationId: 77, resource: "core", remaining, limit, resetAt: RESET, observedAt: NOW - 1000, retryAfterUntil: null, ...over };
}

const ALL: WorkKind[] = ["audit_run", "envelope_pr", "ledger_pr", "verified_check", "runner_b"];
const deferred = (remaining: number, limit = 5000) => ALL.filter((k) => budgetDecision(k, reading(remaining, limit), NOW).defer);

describe("the written order in which work waits for an installation's GitHub budget", () => {
  it("is three tiers: envelope PRs and audit runs first, ledger PRs, then verified checks and runner B", () => {
    expect(DEFERRAL_ORDER.map((t) => [t.tier, [...t.kinds]])).toEqual([
      ["first", ["audit_run", "envelope_pr"]],
      ["middle", ["ledger_pr"]],
      ["last", ["verified_check", "runner_b"]],
    ]);
    expect(ALL.map((k) => thresholdFor(k, 5000))).toEqual([500, 500, 250, 50, 50]);
    // A small limit keeps the floors: 200, 100, 20.
    expect(ALL.map((k) => thresholdFor(k, 1000))).toEqual([200, 200, 100, 20, 20]);
    expect(ALL.map((k) => thresholdFor(k, 15000))).toEqual([1500, 1500, 750, 150, 150]);
  });

  // Every row of the order, at its edge: at the threshold nothing of the tier waits, one below it does.
  const rows: [number, WorkKind[]][] = [
    [5000, []],
    [500, []],
    [499, ["audit_run", "envelope_pr"]],
    [250, ["audit_run", "envelope_pr"]],
    [249, ["audit_run", "envelope_pr", "ledger_pr"]],
    [50, ["audit_run", "envelope_pr", "ledger_pr"]],
    [49, ALL],
    [0, ALL],
  ];
  for (const [remaining, kinds] of rows) {
    it(`with ${remaining} of 5000 left: ${kinds.length === 0 ? "nothing waits" : kinds.join(", ") + " wait"}`, () => {
      expect(deferred(remaining)).toEqual(kinds);
    });
  }

  it("a deferral names the remainder, the threshold and the reset, and lasts until the reset", () => {
    const d = budgetDecision("audit_run", reading(120), NOW);
    expect(d).toEqual({ defer: true, until: RESET, reason: expect.stringContaining("120 of 5000") });
    if (d.defer) {
      expect(d.reason).toContain("under the 500");
      expect(d.reason).toContain(new Date(RESET).toISOString());
    }
  });

  it("nothing waits without a reading, nor once the reading's window has reset", () => {
    expect(budgetDecision("audit_run", null, NOW)).toEqual({ defer: false });
    expect(budgetDecision("audit_run", reading(0, 5000, { resetAt: NOW }), NOW)).toEqual({ defer: false });
    expect(budgetDecision("runner_b", reading(0, 5000, { resetAt: NOW - 1 }), NOW)).toEqual({ defer: false });
    expect(budgetDecision("audit_run", reading(0, 5000, { remaining: null, limit: null, resetAt: null }), NOW)).toEqual({ defer: false });
  });

  it("a secondary limit's retry-after recorded by any replica holds every kind until it ends, however much is left", () => {
    const until = NOW + 60_000;
    for (const kind of ALL) {
      expect(budgetDecision(kind, reading(4900, 5000, { retryAfterUntil: until }), NOW)).toMatchObject({ defer: true, until });
    }
    expect(budgetDecision("verified_check", reading(4900, 5000, { retryAfterUntil: NOW }), NOW)).toEqual({ defer: false });
  });
});

describe("the kind of work a delivery is", () => {
  it("from its event and payload, before any call", () => {
    expect(workKindOf("workflow_run", { workflow_run: { event: "push" } })).toBe("audit_run");
    expect(workKindOf("workflow_run", { workflow_run: { event: "pull_request" } })).toBe("verified_check");
    expect(workKindOf("workflow_run", { workflow_run: { event: "workflow_dispatch" } })).toBe("verified_check");
    expect(workKindOf("pull_request", {})).toBe("verified_check");
    expect(workKindOf("pull_request_review", {})).toBe("verified_check");
    expect(workKindOf("push", {})).toBe("ledger_pr");
    expect(workKindOf("installation", {})).toBeNull();
    expect(workKindOf("ping", null)).toBeNull();
  });
});

describe("GitHub's rate-limit headers", () => {
  it("reads remaining, limit, reset (seconds) and resource", () => {
    const reset = Math.floor(RESET / 1000);
    expect(
      parseRateHeaders(
        {
          "x-ratelimit-remaining": "4321",
          "x-ratelimit-limit": "5000",
          "x-ratelimit-reset": String(reset),
          "x-ratelimit-resource": "core",
        },
        NOW,
      ),
    ).toEqual({ resource: "core", remaining: 4321, limit: 5000, resetAt: reset * 1000, retryAfterUntil: null });
  });

  it("reads a secondary limit's retry-after alone, and ignores answers that say nothing or nonsense", () => {
    expect(parseRateHeaders({ "retry-after": "60" }, NOW)).toEqual({
      resource: "core",
      remaining: null,
      limit: null,
      resetAt: null,
      retryAfterUntil: NOW + 60_000,
    });
    expect(parseRateHeaders({}, NOW)).toBeNull();
    expect(parseRateHeaders({ "x-ratelimit-remaining": "-1", "x-ratelimit-limit": "5000", "x-ratelimit-reset": "1" }, NOW)).toBeNull();
    expect(parseRateHeaders({ "x-ratelimit-remaining": "6000", "x-ratelimit-limit": "5000", "x-ratelimit-reset": "1" }, NOW)).toBeNull();
    expect(parseRateHeaders({ "x-ratelimit-remaining": "10", "x-ratelimit-limit": "0", "x-ratelimit-reset": "1" }, NOW)).toBeNull();
  });
});

describe("GITHUB_BUDGET_LOW", () => {
  it("is queued, set aside (not a failure) and nothing was sent", () => {
    const d = new BudgetDeferral("audit_run", RESET, "why");
    expect(d.code).toBe("GITHUB_BUDGET_LOW");
    expect(d.until).toBe(RESET);
    expect([isTransient(d.code), isSetAside(d.code), nothingSent(d.code)]).toEqual([true, true, true]);
  });
});
