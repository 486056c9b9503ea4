import { describe, expect, it } from "vitest";
import { readEvidenceZip, type VerifiedBundle } from "../../src/core/evidence.js";
import { compareRuns } from "../../src/core/compare.js";
import { Refusal } from "../../src/core/errors.js";
import { expiresOn, freezeIdFor, reviewOverdueComment, runnerCell } from "../../src/core/freeze.js";
import { ledgerBranch } from "../../src/app/freeze.js";
import type { RunnerIdentity } from "../../src/core/evidence.js";
import { bundleFiles, defaultFingerprint, zipOf, type BundleSpec } from "../support/fake-github-app.js";

const HASH = `sha256:${"ab".repeat(32)}`;
const HEAD = "f".repeat(40);

function bundle(spec: Partial<BundleSpec> & { properties: BundleSpec["properties"] }): VerifiedBundle {
  return readEvidenceZip(
    zipOf(bundleFiles({ machineId: "m-a", headSha: HEAD, envelopeHash: HASH, repository: "o/r", workflowRunId: 1, ...spec })),
  );
}

const expect_ = (properties: string[]) => ({ dualRunId: "dr-1", envelopeHash: HASH, headSha: HEAD, properties });

describe("compareRuns (the seed's decision table)", () => {
  const a = bundle({
    properties: [
      { name: "key_order", result: "fail" },
      { name: "collected", result: "fail" },
      { name: "shape", result: "fail" },
    ],
  });

  it("per property: disagree is eligible; both fail, B error and B missing are not", () => {
    const b = bundle({
      machineId: "m-b",
      dualRunId: "dr-1",
      properties: [
        { name: "key_order", result: "pass" },
        { name: "collected", result: "fail" },
        { name: "shape", result: "error" },
      ],
    });
    const d = compareRuns(a, b, expect_(["key_order", "collected", "shape"]));
    expect(d.outcome).toBe("freeze_eligible");
    expect(d.eligible).toEqual(["key_order"]);
    expect(d.results.map((r) => [r.property, r.b, r.verdict])).toEqual([
      ["key_order", "pass", "disagree"],
      ["collected", "fail", "both_fail"],
      ["shape", "error", "b_error"],
    ]);
    const missing = compareRuns(a, bundle({ machineId: "m-b", dualRunId: "dr-1", properties: [] }), expect_(["key_order"]));
    expect(missing.outcome).toBe("no_freeze");
    expect(missing.results[0]?.verdict).toBe("b_missing");
  });

  it("a property named after an envelope rule is never eligible", () => {
    const ar = bundle({ properties: [{ name: "undeclared_tool", result: "fail" }] });
    const br = bundle({ machineId: "m-b", dualRunId: "dr-1", properties: [{ name: "undeclared_tool", result: "pass" }] });
    const d = compareRuns(ar, br, expect_(["undeclared_tool"]));
    expect(d.eligible).toEqual([]);
    expect(d.results[0]?.verdict).toBe("envelope_rule");
  });

  it("a property the properties file makes non-freezable is never eligible: its own verdict and FREEZE_NOT_FREEZABLE", () => {
    const ar = bundle({ properties: [{ name: "scope", result: "fail", freezable: false }] });
    const br = bundle({ machineId: "m-b", dualRunId: "dr-1", properties: [{ name: "scope", result: "pass", freezable: false }] });
    const d = compareRuns(ar, br, expect_(["scope"]));
    expect(d.outcome).toBe("no_freeze");
    expect(d.code).toBe("FREEZE_NOT_FREEZABLE");
    expect(d.eligible).toEqual([]);
    expect(d.results[0]?.verdict).toBe("not_freezable");
    // Either run saying so is enough (B ran the base branch's properties file).
    const bSays = bundle({ machineId: "m-b", dualRunId: "dr-1", properties: [{ name: "key_order", result: "pass", freezable: false }] });
    expect(compareRuns(a, bSays, expect_(["key_order"])).results[0]?.verdict).toBe("not_freezable");
  });

  it("a failure runner A gives no fingerprint for is unscoped, never eligible; the eligible one carries A's fingerprint", () => {
    const ar = bundle({ properties: [{ name: "key_order", result: "fail", fingerprint: null }] });
    const br = bundle({ machineId: "m-b", dualRunId: "dr-1", properties: [{ name: "key_order", result: "pass" }] });
    expect(compareRuns(ar, br, expect_(["key_order"])).results[0]?.verdict).toBe("unscoped");
    const ok = compareRuns(a, br, expect_(["key_order"]));
    expect(ok.results[0]).toMatchObject({ verdict: "disagree", fingerprint: defaultFingerprint("key_order") });
  });

  it("machine ids a ledger cell cannot carry, or one machine in two spellings, prove no two machines", () => {
    const b = bundle({ machineId: "m b", dualRunId: "dr-1", properties: [{ name: "key_order", result: "pass" }] });
    expect(compareRuns(a, b, expect_(["key_order"])).code).toBe("RUNNER_B_UNAVAILABLE");
    const upper = bundle({ machineId: "M-A", dualRunId: "dr-1", properties: [{ name: "key_order", result: "pass" }] });
    expect(compareRuns(a, upper, expect_(["key_order"])).detail).toContain("runner A's machine");
  });

  it("a missing machine id cannot prove two machines", () => {
    const b = bundle({ machineId: "", dualRunId: "dr-1", properties: [{ name: "key_order", result: "pass" }] });
    expect(compareRuns(a, b, expect_(["key_order"])).code).toBe("RUNNER_B_UNAVAILABLE");
  });

  it("another head sha or dual run id is DUAL_RUN_MISMATCH; B's gate error is RUNNER_B_UNAVAILABLE", () => {
    expect(
      compareRuns(a, bundle({ machineId: "m-b", dualRunId: "dr-1", headSha: "e".repeat(40), properties: [] }), expect_(["key_order"])).code,
    ).toBe("DUAL_RUN_MISMATCH");
    expect(compareRuns(a, bundle({ machineId: "m-b", dualRunId: "dr-2", properties: [] }), expect_(["key_order"])).code).toBe(
      "DUAL_RUN_MISMATCH",
    );
    expect(
      compareRuns(a, bundle({ machineId: "m-b", dualRunId: "dr-1", verdict: "error", properties: [] }), expect_(["key_order"])).code,
    ).toBe("RUNNER_B_UNAVAILABLE");
  });
});

describe("freeze naming", () => {
  it("a runner cell is run-<run id>@<machine id> exactly; a machine id it cannot carry is refused, never rewritten", () => {
    const runner = (machine_id: string | null) => ({ machine_id }) as RunnerIdentity;
    expect(runnerCell(runner("a1b2c3d4e5f6"), 42)).toBe("run-42@a1b2c3d4e5f6");
    for (const bad of [null, "", "machine aaaa", "machine/aaaa", "machine-aaaa\u00a0", "m".repeat(65)]) {
      expect(() => runnerCell(runner(bad), 42)).toThrow(/cannot be written in a ledger row/);
    }
    expect(() => runnerCell(runner("m-a"), 0)).toThrow(Refusal);
  });

  it("freeze ids are deterministic and distinct per input", () => {
    expect(freezeIdFor("sha256:a", "sha256:b", "p")).toMatch(/^F-[0-9a-f]{12}$/);
    expect(freezeIdFor("sha256:a", "sha256:b", "p")).toBe(freezeIdFor("sha256:a", "sha256:b", "p"));
    expect(freezeIdFor("sha256:a", "sha256:b", "p")).not.toBe(freezeIdFor("sha256:a", "sha256:c", "p"));
  });

  it("ledger branches carry a random part: the same inputs never name the same branch twice (nobody can create it first)", () => {
    expect(ledgerBranch("weird name/../x", HASH, HEAD)).toMatch(/^envelope-gate\/freeze\/weird-name-x-[0-9a-f]{20}$/);
    const names = new Set(Array.from({ length: 50 }, () => ledgerBranch("p", HASH, HEAD)));
    expect(names.size).toBe(50);
  });

  it("expiry is today plus the TTL, capped, in UTC", () => {
    const now = Date.parse("2026-11-30T23:30:00Z");
    expect(expiresOn(now, 7, 14)).toBe("2026-12-07");
    expect(expiresOn(now, 30, 14)).toBe("2026-12-14");
  });
});

describe("the overdue-review comment", () => {
  it("mentions users as @login and teams as @org/slug", () => {
    expect(reviewOverdueComment(49, ["alice"], ["gate-reviewers"], "acme")).toBe(
      "⚠️ This freeze has waited 49 hours for review. @alice @acme/gate-reviewers",
    );
    expect(reviewOverdueComment(49, [], [], "acme")).toBe("⚠️ This freeze has waited 49 hours for review.");
  });
});
