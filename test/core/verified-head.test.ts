import { describe, expect, it } from "vitest";
import { headCheck, type OpenPull, type PullVerdict } from "../../src/core/verified-head.js";

const NAME = "envelope-gate / verified";
const pull = (number: number, baseRef: string): OpenPull => ({ number, baseRef, headRepository: "o/r" });
const verdict = (pull_number: number, base_ref: string, conclusion: string, code: string | null = null): PullVerdict => ({
  pull_number,
  base_ref,
  base_sha: "b".repeat(40),
  run_id: 100 + pull_number,
  run_attempt: 1,
  conclusion,
  code,
  title: `title of #${pull_number}`,
  summary: `summary of #${pull_number}`,
});

describe("headCheck: a commit's verified check from its open pull requests", () => {
  it("one pull request: its own verdict, title and summary", () => {
    const c = headCheck([pull(7, "main")], [verdict(7, "main", "success")], [], NAME);
    expect(c).toMatchObject({ conclusion: "success", code: null, title: "title of #7" });
    expect(c.summary).toContain("summary of #7");
  });

  it.each<[string, OpenPull[], PullVerdict[], string, string | null]>([
    ["both pass", [pull(7, "main"), pull(8, "lax")], [verdict(7, "main", "success"), verdict(8, "lax", "success")], "success", null],
    [
      "a sibling passes, main's fails",
      [pull(7, "main"), pull(8, "lax")],
      [verdict(7, "main", "failure"), verdict(8, "lax", "success")],
      "failure",
      null,
    ],
    [
      "the first failing pull request's code",
      [pull(8, "lax"), pull(7, "main")],
      [verdict(8, "lax", "failure", "VERIFIED_CHECK_BASE_MOVED"), verdict(7, "main", "failure", "RUNNER_A_WORKFLOW_CHANGED")],
      "failure",
      "RUNNER_A_WORKFLOW_CHANGED",
    ],
    [
      "one has no verdict yet",
      [pull(7, "main"), pull(8, "lax")],
      [verdict(7, "main", "success")],
      "failure",
      "VERIFIED_CHECK_PULL_UNVERIFIED",
    ],
    ["a verdict against the base it left", [pull(8, "main")], [verdict(8, "lax", "success")], "failure", "VERIFIED_CHECK_PULL_UNVERIFIED"],
    ["none gated", [pull(7, "main"), pull(8, "lax")], [verdict(7, "main", "neutral"), verdict(8, "lax", "neutral")], "neutral", null],
    [
      "gated and not gated",
      [pull(7, "main"), pull(8, "lax")],
      [verdict(7, "main", "success"), verdict(8, "lax", "neutral")],
      "success",
      null,
    ],
    ["a code the table does not know", [pull(7, "main")], [verdict(7, "main", "failure", "NOT_A_CODE")], "failure", null],
  ])("%s", (_name, pulls, verdicts, conclusion, code) => {
    expect(headCheck(pulls, verdicts, [], NAME)).toMatchObject({ conclusion, code });
  });

  it("names each pull request and its base; a verdict for another pull request counts for nothing", () => {
    const c = headCheck([pull(7, "main"), pull(8, "lax")], [verdict(7, "main", "failure"), verdict(9, "main", "success")], [], NAME);
    expect(c.title).toBe("Not verified: pull request #7 into main fails (1 of 2 open pull requests on this commit)");
    expect(c.summary).toContain("into `main`: **failure**");
    expect(c.summary).toContain("into `lax`: **not verified**");
    expect(c.summary).not.toContain("summary of #9");
  });

  it("lists a check of the same name another app posted, never counting it", () => {
    const c = headCheck(
      [pull(7, "main")],
      [verdict(7, "main", "failure")],
      [{ id: 5, app_id: 15368, app_slug: "github-actions", conclusion: "success", external_id: "101:1" }],
      NAME,
    );
    expect(c.conclusion).toBe("failure");
    expect(c.summary).toContain("check run 5 by `github-actions` (app id 15368), success, external id `101:1`");
  });
});
