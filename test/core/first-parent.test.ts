import { describe, expect, it } from "vitest";
import { onFirstParentHistory } from "../../src/core/first-parent.js";

// main: m0 <- m1 <- m2 (a merge of p2, whose parent is p1, made on m1) <- m3
const PARENTS = new Map<string, string[]>([
  ["m3", ["m2"]],
  ["m2", ["m1", "p2"]],
  ["p2", ["p1"]],
  ["p1", ["m0"]],
  ["m1", ["m0"]],
  ["m0", []],
]);

describe("onFirstParentHistory", () => {
  it("finds the tip and each commit that was the branch's tip", () => {
    for (const sha of ["m3", "m2", "m1", "m0"]) expect(onFirstParentHistory(PARENTS, "m3", sha, 10)).toEqual({ on: true });
  });

  it("a commit a merge brought in through its second parent is an ancestor, not on the first-parent history", () => {
    expect(onFirstParentHistory(PARENTS, "m3", "p2", 10)).toEqual({ on: false });
    expect(onFirstParentHistory(PARENTS, "m3", "p1", 10)).toEqual({ on: false });
  });

  it("looks no further than `limit` commits, the tip counted", () => {
    expect(onFirstParentHistory(PARENTS, "m3", "m1", 2)).toEqual({ on: false });
    expect(onFirstParentHistory(PARENTS, "m3", "m1", 3)).toEqual({ on: true });
  });

  it("names the commit whose parents it needs when the listing does not hold it", () => {
    const partial = new Map([...PARENTS].filter(([sha]) => sha !== "m1"));
    expect(onFirstParentHistory(partial, "m3", "m0", 10)).toEqual({ missing: "m1" });
    expect(onFirstParentHistory(new Map(), "m3", "m0", 10)).toEqual({ missing: "m3" });
    // Found before the gap: no more is needed.
    expect(onFirstParentHistory(partial, "m3", "m2", 10)).toEqual({ on: true });
  });
});
