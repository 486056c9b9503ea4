/** The check runs name the release that judged (or compared) the run on their summary's last line. */
import { describe, expect, it } from "vitest";
import type { DualRun } from "../../src/core/app-records.js";
import { dualRunCheck } from "../../src/core/check-run.js";
import { renderSummary, type SummaryInput } from "../../src/core/summary.js";
import { VERSION } from "../../src/core/version.js";

const lastLine = (md: string): string => md.trimEnd().split("\n").at(-1) ?? "";

const SUMMARY: SummaryInput = {
  checkName: "envelope-gate",
  decision: { verdict: "pass", conclusion: "success", headline: "clean" },
  report: null,
  envelope: null,
  pull: null,
  gating: null,
  policyChange: null,
  properties: null,
  propertiesFile: null,
  ledger: null,
  evidence: null,
  links: [{ label: "evidence", url: "https://example.invalid/run/1" }],
  notes: [],
  omittedAnnotations: 0,
};

describe("the check run's summary", () => {
  it("ends with the release that judged the run", () => {
    expect(lastLine(renderSummary(SUMMARY))).toBe(`Judged by envelope-gate ${VERSION}.`);
  });

  it("still ends with it when the summary is cut to GitHub's limit", () => {
    const long = renderSummary({ ...SUMMARY, notes: Array.from({ length: 400 }, (_, i) => `note ${i} ${"x".repeat(100)}`) }, 5_000);
    expect(long.length).toBeLessThanOrEqual(5_000);
    expect(long).toContain("summary cut to GitHub's size limit");
    expect(lastLine(long)).toBe(`Judged by envelope-gate ${VERSION}.`);
  });
});

describe("the App's dual-run check", () => {
  const dual = {
    id: "d1",
    head_sha: "a".repeat(40),
    run_a_id: 1,
    run_a_url: null,
    run_b_id: 2,
    run_b_url: null,
    outcome: "no_freeze",
    outcome_code: "DUAL_RUN_NO_FREEZE",
    outcome_detail: "both runners agree",
    results: null,
  } as unknown as DualRun;

  it.each(["no_freeze", "freeze_eligible"])("ends its summary with the release that compared the runs (%s)", (outcome) => {
    const check = dualRunCheck("envelope-gate", { ...dual, outcome }, [], "shadow");
    expect(lastLine(check.summary)).toBe(`Compared by envelope-gate ${VERSION}.`);
  });
});
