/** core/gate-memory.ts: the ungate command, who may ungate, and which pull_request events show the agent label. */
import { describe, expect, it } from "vitest";
import {
  dependsOnGate,
  gatedRunCheck,
  hasUngateCommand,
  labelGateReason,
  noEvidenceCheck,
  ungateOf,
  type ReviewFacts,
} from "../../src/core/gate-memory.js";

const HEAD = "a".repeat(40);
const who = { reviewers: ["alice", "Bob"], author: "agent-bot[bot]", headSha: HEAD };
const review = (over: Partial<ReviewFacts> = {}): ReviewFacts => ({
  id: 1,
  login: "alice",
  state: "COMMENTED",
  commitId: HEAD,
  body: "/envelope-gate ungate",
  ...over,
});

describe("the ungate command", () => {
  it.each<[string, string | null, boolean]>([
    ["alone", "/envelope-gate ungate", true],
    [
      "on a line of its own among others, any case, blanks around",
      "Looked at it: a person wrote this.\r\n  /Envelope-Gate UNGATE  \n",
      true,
    ],
    ["inside a sentence", "please /envelope-gate ungate this", false],
    ["another command", "/envelope-gate ungate-all", false],
    ["no body", null, false],
  ])("%s", (_name, body, expected) => {
    expect(hasUngateCommand(body)).toBe(expected);
  });
});

describe("ungateOf: the latest review that ungates the head", () => {
  it.each<[string, Partial<ReviewFacts>, string | null]>([
    ["an envelope reviewer's comment review on the head", {}, null],
    ["an approval", { state: "APPROVED" }, null],
    ["a reviewer named in another case", { login: "bob" }, null],
    ["someone else", { login: "mallory" }, "not an envelope reviewer"],
    ["the pull request's author (not listed)", { login: "agent-bot[bot]" }, "not an envelope reviewer"],
    ["a review of an older commit", { commitId: "b".repeat(40) }, "the review is of bbbbbbbbbbbb"],
    ["a dismissed review", { state: "DISMISSED" }, "the review is dismissed"],
    ["changes requested", { state: "CHANGES_REQUESTED" }, "the review is changes_requested"],
  ])("%s", (_name, over, refused) => {
    const out = ungateOf([review(over)], who);
    if (refused === null) expect(out).toEqual({ review: review(over), refused: [] });
    else {
      expect(out.review).toBeNull();
      expect(out.refused[0]?.reason).toContain(refused);
    }
  });

  it("the author refused even when listed as a reviewer", () => {
    const out = ungateOf([review({ login: "alice" })], { ...who, author: "alice" });
    expect(out.review).toBeNull();
    expect(out.refused[0]?.reason).toBe("@alice wrote the pull request");
  });

  it("the newest ungate wins; reviews without the command are not looked at", () => {
    const out = ungateOf([review({ id: 3, login: "bob" }), review({ id: 2 }), review({ id: 9, body: "lgtm" })], who);
    expect(out.review?.id).toBe(3);
  });
});

describe("labelGateReason: a pull_request event that shows the agent label", () => {
  it.each<[string, Parameters<typeof labelGateReason>[0], string | null]>([
    ["the label removed", { action: "unlabeled", label: { name: "agent-authored" }, labels: [], sender: "tim" }, "removed by @tim"],
    ["the label added", { action: "labeled", label: { name: "Agent-Authored" }, labels: [] }, "was added"],
    ["opened carrying it", { action: "opened", labels: [{ name: "agent-authored" }] }, "carried the label"],
    ["another label removed", { action: "unlabeled", label: { name: "bug" }, labels: [] }, null],
    ["no label at all", { action: "synchronize", labels: [] }, null],
  ])("%s", (_name, event, reason) => {
    const out = labelGateReason(event, "agent-authored");
    if (reason === null) expect(out).toBeNull();
    else expect(out).toContain(reason);
  });

  it("no agent label configured: nothing is remembered from labels", () => {
    expect(labelGateReason({ action: "unlabeled", label: { name: "agent-authored" } }, "")).toBeNull();
  });
});

describe("gatedRunCheck", () => {
  it("still gated: failure with its code and how to ungate; ungated: neutral naming the reviewer", () => {
    const still = gatedRunCheck({ reason: "run 5 was gated", ungate: null, refused: ["review 4 by @mallory: not one"] }, "Run 6.");
    expect(still).toMatchObject({ conclusion: "failure", code: "VERIFIED_CHECK_STILL_GATED" });
    expect(still.summary).toContain("/envelope-gate ungate");
    expect(still.summary).toContain("mallory");
    const ungated = gatedRunCheck({ reason: "run 5 was gated", ungate: { by: "alice", reviewId: 8 }, refused: [] }, "Run 6.");
    expect(ungated).toMatchObject({ conclusion: "neutral", code: null, title: "Not gated: ungated by alice" });
  });
});

describe("noEvidenceCheck: a successful run without evidence", () => {
  it("never gated: neutral; held gated: as gatedRunCheck says; only these verdicts depend on the gate", () => {
    const never = noEvidenceCheck(null, "Run 6.");
    expect(never).toMatchObject({ conclusion: "neutral", code: null, title: "Not gated: the run left no evidence" });
    const still = noEvidenceCheck({ reason: "run 5 was gated", ungate: null, refused: [] }, "Run 6.");
    expect(still).toEqual(gatedRunCheck({ reason: "run 5 was gated", ungate: null, refused: [] }, "Run 6."));
    const ungated = noEvidenceCheck({ reason: "run 5 was gated", ungate: { by: "alice", reviewId: 8 }, refused: [] }, "Run 6.");
    for (const c of [never, still, ungated]) expect(dependsOnGate(c)).toBe(true);
    expect(dependsOnGate({ conclusion: "success", code: null })).toBe(false);
    expect(dependsOnGate({ conclusion: "failure", code: "EVIDENCE_UNAVAILABLE" })).toBe(false);
    expect(dependsOnGate({ conclusion: "failure", code: null })).toBe(false);
  });
});
