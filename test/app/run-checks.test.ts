import { describe, expect, it } from "vitest";
import type { ApiPull, ApiWorkflowRun, PathAt } from "../../src/github/app-client.js";
import { DISPATCH_SKEW_MS, runnerAPull, runnerARun, runnerAWorkflow, runnerBRun, type DispatchRecord } from "../../src/core/run-checks.js";
import type { VerifiedBundle } from "../../src/core/evidence.js";
import type { VerifiedRunA } from "../../src/app/run-verify.js";
import { verifiedRunCheck, type EvidenceFacts } from "../../src/app/verified-check.js";
import type { PropertyRecord } from "../../src/core/evidence.js";

const REPO = "acme/widgets";
const HEAD = "a".repeat(40);
const BASE = "b".repeat(40);
const BOT = "envelope-gate[bot]";

const pullMin = (number: number, repoId = 1) => ({
  number,
  head: { ref: "agent/x", sha: HEAD, repo: { id: repoId } },
  base: { ref: "main", sha: BASE, repo: { id: 1 } },
});

function run(over: Partial<ApiWorkflowRun> = {}): ApiWorkflowRun {
  return {
    id: 10,
    html_url: null,
    status: "completed",
    conclusion: "failure",
    event: "pull_request",
    head_sha: HEAD,
    head_branch: "agent/x",
    display_title: "envelope-gate",
    created_at: "2026-11-30T08:00:30Z",
    path: ".github/workflows/envelope-gate.yml",
    workflow_id: 5,
    repository: { id: 1, full_name: REPO },
    head_repository: { id: 1, full_name: REPO },
    pull_requests: [pullMin(7)],
    actor: { login: "octocat" },
    triggering_actor: { login: "octocat" },
    ...over,
  };
}

describe("runnerARun: only a pull_request run of the gate workflow in this repository, for one of its pull requests", () => {
  it.each<[string, Partial<ApiWorkflowRun>, string | null]>([
    ["a pull_request run with one pull request", {}, null],
    ["another repository's run", { repository: { id: 2, full_name: "evil/widgets" } }, "RUNNER_A_UNVERIFIED"],
    ["the same name in another case is the same repository", { repository: { id: 1, full_name: "ACME/Widgets" } }, null],
    ["another workflow file", { path: ".github/workflows/other.yml" }, "RUNNER_A_UNVERIFIED"],
    ["a workflow of the same name elsewhere", { path: "evil/.github/workflows/envelope-gate.yml" }, "RUNNER_A_UNVERIFIED"],
    ["the path with a ref suffix", { path: ".github/workflows/envelope-gate.yml@refs/pull/7/merge" }, null],
    [
      "workflow_dispatch (the issue's agent/evil run)",
      { event: "workflow_dispatch", head_branch: "agent/evil", pull_requests: [] },
      "RUNNER_A_EVENT_REFUSED",
    ],
    ["pull_request_target", { event: "pull_request_target" }, "RUNNER_A_EVENT_REFUSED"],
    ["merge_group", { event: "merge_group" }, "RUNNER_A_EVENT_REFUSED"],
    ["push", { event: "push" }, "RUNNER_A_EVENT_REFUSED"],
    ["an event nobody listed", { event: "repository_dispatch" }, "RUNNER_A_EVENT_REFUSED"],
    ["a fork's run", { head_repository: { id: 9, full_name: "mallory/widgets" }, pull_requests: [] }, "RUNNER_A_UNVERIFIED"],
    ["no pull request (a fork PR lists none)", { pull_requests: [] }, "RUNNER_A_UNVERIFIED"],
    ["pull_requests null", { pull_requests: null }, "RUNNER_A_UNVERIFIED"],
    ["a pull request whose head is another repository's", { pull_requests: [pullMin(7, 9)] }, "RUNNER_A_UNVERIFIED"],
    ["two pull requests for one branch", { pull_requests: [pullMin(7), pullMin(8)] }, "RUNNER_A_UNVERIFIED"],
  ])("%s", (_name, over, code) => {
    const out = runnerARun(run(over), REPO, "envelope-gate.yml");
    if (code === null) expect(out).toEqual({ pullNumber: 7 });
    else expect(out).toMatchObject({ code });
  });
});

function pull(over: Partial<ApiPull> = {}): ApiPull {
  return {
    number: 7,
    state: "open",
    head: { ref: "agent/x", sha: HEAD, repo: { full_name: REPO } },
    base: { ref: "main", sha: BASE, repo: { full_name: REPO } },
    ...over,
  };
}

describe("runnerAPull: the pull request, read again, is open and its head is the run's commit", () => {
  it.each<[string, ApiPull | null, string | null]>([
    ["open, head = the run's commit", pull(), null],
    ["gone", null, "RUNNER_A_UNVERIFIED"],
    ["closed", pull({ state: "closed" }), "RUNNER_A_NOT_CURRENT_HEAD"],
    ["head moved on", pull({ head: { ref: "agent/x", sha: "c".repeat(40), repo: { full_name: REPO } } }), "RUNNER_A_NOT_CURRENT_HEAD"],
    ["head in a fork", pull({ head: { ref: "agent/x", sha: HEAD, repo: { full_name: "mallory/widgets" } } }), "RUNNER_A_UNVERIFIED"],
    ["head repository deleted", pull({ head: { ref: "agent/x", sha: HEAD, repo: null } }), "RUNNER_A_UNVERIFIED"],
  ])("%s", (_name, p, code) => {
    const out = runnerAPull(run(), p, REPO, 7);
    if (code === null) expect(out).toBeNull();
    else expect(out).toMatchObject({ code });
  });
});

const file = (sha: string): PathAt => ({ type: "file", sha, text: "" });

describe("runnerAWorkflow: the workflow blob at the head is the base's", () => {
  it.each<[string, PathAt | null, PathAt | null, string | null]>([
    ["same blob", file("1"), file("1"), null],
    ["the pull request edited it", file("2"), file("1"), "RUNNER_A_WORKFLOW_CHANGED"],
    ["the pull request deleted it (GitHub ran something else)", null, file("1"), "RUNNER_A_WORKFLOW_CHANGED"],
    ["the pull request added it (the base has none)", file("1"), null, "RUNNER_A_WORKFLOW_CHANGED"],
    ["a symlink at the head", { type: "symlink", sha: "1", text: null }, file("1"), "RUNNER_A_WORKFLOW_CHANGED"],
    ["a directory at the base", file("1"), { type: "dir", sha: "", text: null }, "RUNNER_A_WORKFLOW_CHANGED"],
  ])("%s", (_name, head, base, code) => {
    const out = runnerAWorkflow(".github/workflows/envelope-gate.yml", head, base);
    if (code === null) expect(out).toBeNull();
    else expect(out).toMatchObject({ code });
  });
});

const SENT = Date.parse("2026-11-30T08:00:00Z");
const dual: DispatchRecord = {
  id: "dr-0123456789abcdef0123",
  repository: REPO,
  base_ref: "main",
  base_sha: BASE,
  dispatch_sent_at: SENT,
  dispatched_at: SENT + 500,
  run_b_id: null,
};
const runB = (over: Partial<ApiWorkflowRun> = {}) =>
  run({
    id: 20,
    event: "workflow_dispatch",
    head_branch: "main",
    head_sha: BASE,
    pull_requests: [],
    display_title: `envelope-gate runner B ${dual.id}`,
    actor: { login: BOT },
    triggering_actor: { login: BOT },
    created_at: "2026-11-30T08:00:01Z",
    ...over,
  });

describe("runnerBRun: only the run the App's own dispatch started", () => {
  it.each<[string, Partial<ApiWorkflowRun>, Partial<DispatchRecord>, boolean]>([
    ["the App's dispatch (correlation mode)", {}, {}, true],
    ["the App's dispatch (direct mode, the id GitHub returned)", {}, { run_b_id: 20 }, true],
    ["direct mode, another run id", {}, { run_b_id: 21 }, false],
    ["started by another user (attack 6)", { actor: { login: "mallory" }, triggering_actor: { login: "mallory" } }, {}, false],
    ["re-run by another user", { triggering_actor: { login: "mallory" } }, {}, false],
    [
      "a user whose login mimics the bot's",
      { actor: { login: "envelope-gate-bot" }, triggering_actor: { login: "envelope-gate-bot" } },
      {},
      false,
    ],
    ["a pull_request run", { event: "pull_request" }, {}, false],
    ["another branch", { head_branch: "agent/evil" }, {}, false],
    ["another commit of the base branch", { head_sha: "d".repeat(40) }, {}, false],
    ["no base commit recorded", {}, { base_sha: null }, false],
    ["created before the dispatch, beyond the skew", { created_at: new Date(SENT - DISPATCH_SKEW_MS - 1000).toISOString() }, {}, false],
    ["created a little before the dispatch, within the skew", { created_at: new Date(SENT - 30_000).toISOString() }, {}, true],
    ["no creation time", { created_at: "" }, {}, false],
    ["a name without the dual run id", { display_title: "envelope-gate" }, {}, false],
    ["another workflow file", { path: ".github/workflows/other.yml" }, {}, false],
    ["another repository", { repository: { id: 2, full_name: "evil/widgets" } }, {}, false],
    ["a head in a fork", { head_repository: { id: 9, full_name: "mallory/widgets" } }, {}, false],
  ])("%s", (_name, over, dualOver, ok) => {
    const out = runnerBRun(runB(over), { ...dual, ...dualOver }, "envelope-gate.yml", BOT);
    if (ok) expect(out).toBeNull();
    else expect(out).toMatchObject({ code: "RUNNER_B_UNVERIFIED" });
  });
});

describe("verifiedRunCheck: the verified check's conclusion from a verified run's evidence", () => {
  const a: VerifiedRunA = {
    run: run({ conclusion: "success" }),
    pull: pull(),
    pullNumber: 7,
    headSha: HEAD,
    baseRef: "main",
    baseSha: BASE,
  };
  const HASH = `sha256:${"ab".repeat(32)}`;
  type RunnerOver = Partial<Pick<VerifiedBundle["runner"], "base_ref" | "base_sha" | "run_attempt" | "workflow_run_id">>;
  const bundle = (
    over: { verdict?: string; hash?: string; head?: string; props?: PropertyRecord[]; runner?: RunnerOver } = {},
  ): EvidenceFacts => ({
    kind: "bundle",
    bundle: {
      digest: "sha256:" + "0".repeat(64),
      runner: {
        head_sha: over.head ?? HEAD,
        repository: REPO,
        envelope_hash: over.hash ?? HASH,
        workflow_run_id: "10",
        run_attempt: "1",
        base_ref: "main",
        base_sha: BASE,
        ...over.runner,
      } as VerifiedBundle["runner"],
      properties: over.props ?? [{ name: "p", result: "pass", detail: "", inputs: {}, frozen_by: null }],
      verdict: { verdict: over.verdict ?? "pass", envelope_hash: over.hash ?? HASH } as VerifiedBundle["verdict"],
    },
  });
  const pinned = { kind: "hash" as const, hash: HASH };
  it.each<[string, VerifiedRunA, EvidenceFacts, string, string | null]>([
    ["pass", a, bundle(), "success", null],
    [
      "a failing property a freeze tolerates",
      a,
      bundle({ props: [{ name: "p", result: "fail", detail: "", inputs: {}, frozen_by: "F-1" }] }),
      "success",
      null,
    ],
    ["a failing property", a, bundle({ props: [{ name: "p", result: "fail", detail: "", inputs: {}, frozen_by: null }] }), "failure", null],
    [
      "an erroring property, even with a freeze",
      a,
      bundle({ props: [{ name: "p", result: "error", detail: "", inputs: {}, frozen_by: "F-1" }] }),
      "failure",
      null,
    ],
    ["an envelope failure", a, bundle({ verdict: "envelope_fail" }), "failure", null],
    ["another envelope", a, bundle({ hash: `sha256:${"cd".repeat(32)}` }), "failure", "VERIFIED_CHECK_EVIDENCE_REFUSED"],
    ["another commit", a, bundle({ head: "c".repeat(40) }), "failure", "VERIFIED_CHECK_EVIDENCE_REFUSED"],
    ["another run's evidence", a, bundle({ runner: { workflow_run_id: "11" } }), "failure", "VERIFIED_CHECK_EVIDENCE_REFUSED"],
    [
      "another attempt's evidence",
      { ...a, run: run({ conclusion: "success", run_attempt: 2 }) },
      bundle(),
      "failure",
      "VERIFIED_CHECK_EARLIER_ATTEMPT",
    ],
    ["an earlier attempt's artifact", a, { kind: "earlier", reason: "older" }, "failure", "VERIFIED_CHECK_EARLIER_ATTEMPT"],
    ["no base recorded", a, bundle({ runner: { base_ref: undefined, base_sha: undefined } }), "failure", "VERIFIED_CHECK_BASE_UNNAMED"],
    ["judged against another base branch", a, bundle({ runner: { base_ref: "lax" } }), "failure", "VERIFIED_CHECK_BASE_CHANGED"],
    ["judged against an older base commit", a, bundle({ runner: { base_sha: "d".repeat(40) } }), "failure", "VERIFIED_CHECK_BASE_MOVED"],
    ["the run failed though the evidence passes", { ...a, run: run({ conclusion: "failure" }) }, bundle(), "failure", null],
    ["no evidence, the run succeeded (not gated)", a, { kind: "missing" }, "neutral", null],
    ["no evidence, the run failed", { ...a, run: run({ conclusion: "failure" }) }, { kind: "missing" }, "failure", "EVIDENCE_UNAVAILABLE"],
    [
      "unreadable evidence",
      a,
      { kind: "unreadable", code: "EVIDENCE_DIGEST_MISMATCH", message: "x" },
      "failure",
      "EVIDENCE_DIGEST_MISMATCH",
    ],
  ])("%s", (_name, verified, evidence, conclusion, code) => {
    expect(verifiedRunCheck(verified, ".github/workflows/envelope-gate.yml", evidence, pinned)).toMatchObject({ conclusion, code });
  });
  it("an audit run's bundle (runner.json mode audit) never verifies, clean or not: VERIFIED_CHECK_AUDIT_EVIDENCE", () => {
    const clean = bundle() as Extract<EvidenceFacts, { kind: "bundle" }>;
    const audit: EvidenceFacts = { kind: "bundle", bundle: { ...clean.bundle, runner: { ...clean.bundle.runner, mode: "audit" } } };
    expect(verifiedRunCheck(a, "w", audit, pinned)).toMatchObject({ conclusion: "failure", code: "VERIFIED_CHECK_AUDIT_EVIDENCE" });
    // The same bundle marked enforce verifies: the mode alone decides.
    const enforce: EvidenceFacts = { kind: "bundle", bundle: { ...clean.bundle, runner: { ...clean.bundle.runner, mode: "enforce" } } };
    expect(verifiedRunCheck(a, "w", enforce, pinned)).toMatchObject({ conclusion: "success" });
  });
  it("the base pins no envelope: failing with the digest file's code", () => {
    expect(verifiedRunCheck(a, "w", bundle(), { kind: "none", code: "ENVELOPE_MISSING", message: "none" })).toMatchObject({
      conclusion: "failure",
      code: "ENVELOPE_MISSING",
    });
  });
});
