/** src/core/base.ts (which base is judged) and src/core/outputs.ts (outputs within GitHub's limit), pure. */
import { describe, expect, it } from "vitest";
import { judgedBase } from "../../src/core/base.js";
import { Refusal } from "../../src/core/errors.js";
import { OUTPUTS_BUDGET_BYTES, fitList, fitOutputs, outputBytes } from "../../src/core/outputs.js";
import { botExcluded, isBotAccount } from "../../src/core/policy.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

describe("judgedBase", () => {
  const codeOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      return err instanceof Refusal ? err.code : String(err);
    }
    return "none";
  };
  it("judges at the branch's current commit, with a note when it is not the recorded one", () => {
    expect(judgedBase({ ref: "main", sha: A }, { ref: "main", pullSha: A, tipSha: A }, 7)).toEqual({ ref: "main", sha: A, notes: [] });
    const moved = judgedBase({ ref: "main", sha: A }, { ref: "main", pullSha: A, tipSha: B }, 7);
    expect(moved.sha).toBe(B);
    expect(moved.notes[0]).toContain("as the event recorded");
    // No event (runner B): compared with the pull request's own base.sha.
    expect(judgedBase(null, { ref: "main", pullSha: A, tipSha: B }, 7).notes[0]).toContain("as the pull request recorded");
  });
  it("refuses a retarget and a missing branch; an event without a ref is not compared", () => {
    expect(codeOf(() => judgedBase({ ref: "dev", sha: A }, { ref: "main", pullSha: B, tipSha: B }, 7))).toBe("PULL_REQUEST_BASE_CHANGED");
    expect(codeOf(() => judgedBase({ ref: "main", sha: A }, { ref: "main", pullSha: A, tipSha: null }, 7))).toBe(
      "PULL_REQUEST_BASE_MISSING",
    );
    expect(judgedBase({ ref: null, sha: A }, { ref: "main", pullSha: A, tipSha: B }, 7).sha).toBe(B);
  });
});

describe("bot accounts", () => {
  it("are type Bot or a [bot] login, and count only when named", () => {
    expect(isBotAccount("renovate[bot]", "User")).toBe(true);
    expect(isBotAccount("ci-robot", "Bot")).toBe(true);
    expect(isBotAccount("mia", "User")).toBe(false);
    expect(botExcluded("Renovate[bot]", null, ["@renovate[bot]"])).toBe(false);
    expect(botExcluded("renovate[bot]", null, ["dependabot[bot]"])).toBe(true);
    expect(botExcluded("mia", "User", [])).toBe(false);
  });
});

describe("fitting outputs", () => {
  it("keeps the longest prefix that fits, as a JSON array, and counts the rest", () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i }));
    const all = fitList(items, 10_000);
    expect(all).toMatchObject({ kept: 10, omitted: 0 });
    expect(JSON.parse(all.json)).toEqual(items);
    const some = fitList(items, outputBytes(JSON.stringify(items.slice(0, 3))));
    expect(some).toMatchObject({ kept: 3, omitted: 7 });
    expect(JSON.parse(some.json)).toEqual(items.slice(0, 3));
    expect(fitList(items, 0)).toEqual({ json: "[]", kept: 0, omitted: 10 });
  });
  it("an entry larger than the budget is left out with everything after it, never cut", () => {
    const huge = { id: "x".repeat(OUTPUTS_BUDGET_BYTES) };
    const fitted = fitOutputs({ scalars: { verdict: "envelope_fail" }, violations: [{ id: "a" }, huge, { id: "b" }], properties: [] });
    expect(JSON.parse(fitted.violations.json)).toEqual([{ id: "a" }]);
    expect(fitted.violations.omitted).toBe(2);
  });
  it("properties take at most a quarter; together everything stays within the budget", () => {
    const big = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}`, detail: "d".repeat(500) }));
    const fitted = fitOutputs({ scalars: { verdict: "pass" }, violations: big(2000), properties: big(2000) });
    expect(outputBytes(fitted.properties.json)).toBeLessThanOrEqual(OUTPUTS_BUDGET_BYTES / 4);
    expect(outputBytes(fitted.properties.json) + outputBytes(fitted.violations.json)).toBeLessThan(OUTPUTS_BUDGET_BYTES);
    expect(fitted.violations.kept).toBeGreaterThan(fitted.properties.kept);
  });
});
