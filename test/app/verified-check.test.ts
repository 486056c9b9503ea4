/**
 * Issue 18, item 9: the App's own `envelope-gate / verified` check on every gate run of a pull
 * request, `success` only after GitHub's API showed the run to be the base's gate on the
 * current head and its evidence verified under the base's pinned envelope. Attacks against the
 * App (real HTTP, SQLite, the fake GitHub held to GitHub's description), each with its twin.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shownText } from "../support/gfm.js";
import type { RunningApp } from "../../src/app/start.js";
import { bundleFiles } from "../support/fake-github-app.js";
import type { FakeWorkflowRun } from "../support/fake-github.js";
import {
  addRunA,
  commitAs,
  deliverAndWait,
  dispatchedRuns,
  ENVELOPE_HASH,
  GATE_WORKFLOW,
  GATE_WORKFLOW_PATH,
  HEAD_SHA,
  pullAt,
  REPO,
  startTestApp,
  startWorld,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";

const NAME = "envelope-gate / verified";
const PASSING = [{ name: "schema_key_order", result: "pass" as const }];
const FAILING = [{ name: "schema_key_order", result: "fail" as const }];

let world: World;
let app: RunningApp;
beforeEach(async () => {
  world = await startWorld();
  app = await startTestApp(world.fake, new TestClock(Date.now()));
});
afterEach(async () => {
  await app.close();
  await world.close();
});

const verifiedChecks = () => world.fake.repo(REPO).checkRuns.filter((c) => c.name === NAME);

async function deliver(run: FakeWorkflowRun, delivery?: string) {
  const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run), delivery ? { delivery } : {});
  expect(res.state, JSON.stringify(res)).toBe("done");
  return res;
}

describe("the verified check (item 9)", () => {
  it("clean: a verified run whose evidence passes under the base's envelope is green, once across redeliveries", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    const res = await deliver(run);
    expect(String(res.outcome)).toContain("verified check success");
    await deliver(run); // a redelivery (another delivery id, the same run)
    expect(verifiedChecks()).toHaveLength(1);
    const check = verifiedChecks()[0]!;
    expect(check).toMatchObject({ head_sha: HEAD_SHA, conclusion: "success", external_id: `${HEAD_SHA.slice(0, 12)}:1` });
    expect(check.output.title).toContain("Verified");
    expect(shownText(check.output.summary)).toContain(`Run ${run.id} (attempt 1) of ${GATE_WORKFLOW_PATH}`);
    expect(await app.store.runs.getVerifiedCheck(REPO, run.id, 1)).toMatchObject({ state: "posted", conclusion: "success" });
    // A re-run is another attempt, with its own evidence: the commit's check is made again of it.
    run.run_attempt = 2;
    run.run_started_at = "2099-01-01T00:00:00Z";
    world.fake.addArtifact(REPO, {
      run_id: run.id,
      name: "envelope-gate-evidence",
      created_at: "2099-01-01T00:05:00Z",
      files: bundleFiles({
        machineId: "machine-aaaa1111",
        headSha: HEAD_SHA,
        envelopeHash: ENVELOPE_HASH,
        repository: REPO,
        workflowRunId: run.id,
        runAttempt: 2,
        baseRef: "main",
        baseSha: world.fake.repo(REPO).refs.get("heads/main")!,
        properties: PASSING,
      }),
    });
    await deliver(run);
    expect(verifiedChecks().map((c) => [c.conclusion, c.external_id])).toEqual([
      ["success", `${HEAD_SHA.slice(0, 12)}:1`],
      ["success", `${HEAD_SHA.slice(0, 12)}:2`],
    ]);
    expect(shownText(verifiedChecks()[1]!.output.summary)).toContain(`Run ${run.id} (attempt 2)`);
  });

  it("a check posted whose record was lost (a crash between the two) is found again by its content (the App's latest check on the commit), not posted again", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    world.fake.fail("POST", "/repos/:owner/:repo/check-runs", 502, { times: 1, afterHandling: true });
    const first = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(first.code).toBe("GITHUB_UNAVAILABLE");
    expect(verifiedChecks()).toHaveLength(1);
    await deliver(run);
    expect(verifiedChecks()).toHaveLength(1);
    expect(await app.store.runs.getVerifiedCheck(REPO, run.id, 1)).toMatchObject({
      state: "posted",
      check_run_id: verifiedChecks()[0]!.id,
    });
  });

  it("attack: a pull request that edits the workflow to skip the gate and posts a green envelope-gate check with its job token gets a failing verified check", async () => {
    const skip = GATE_WORKFLOW.replace(
      "uses: envelope-gate/envelope-gate@v1",
      "run: gh api repos/$GITHUB_REPOSITORY/check-runs -f name=envelope-gate -f conclusion=success",
    );
    pullAt(world.fake, "9".repeat(40), { [GATE_WORKFLOW_PATH]: skip });
    // Its job token's check, as GitHub would show it (made by GitHub Actions, not the App).
    world.fake.repo(REPO).checkRuns.push({
      id: world.fake.nextId(),
      name: "envelope-gate",
      head_sha: "9".repeat(40),
      status: "completed",
      conclusion: "success",
      external_id: null,
      details_url: null,
      started_at: null,
      completed_at: null,
      output: { title: "pass", summary: "all good", text: null, annotations_count: 0 },
      annotations: [],
      updates: [],
    });
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success", headSha: "9".repeat(40) });
    const res = await deliver(run);
    expect(String(res.outcome)).toContain("verified check failure (RUNNER_A_WORKFLOW_CHANGED)");
    const check = verifiedChecks()[0]!;
    expect(check).toMatchObject({ head_sha: "9".repeat(40), conclusion: "failure" });
    expect(check.output.summary).toContain("RUNNER_A_WORKFLOW_CHANGED");
  });

  it("attack: evidence judged under another envelope than the base pins, or for another commit, is not verified", async () => {
    const other = addRunA(world.fake, { properties: PASSING, envelopeHash: `sha256:${"cd".repeat(32)}` }, { conclusion: "success" });
    expect(String((await deliver(other)).outcome)).toContain("VERIFIED_CHECK_EVIDENCE_REFUSED");
    expect(verifiedChecks().at(-1)?.output.summary).toContain("the base's digest file pins");
    const elsewhere = addRunA(world.fake, { properties: PASSING, headSha: "5".repeat(40) }, { conclusion: "success" });
    expect(String((await deliver(elsewhere)).outcome)).toContain("VERIFIED_CHECK_EVIDENCE_REFUSED");
    expect(verifiedChecks().map((c) => c.conclusion)).toEqual(["failure", "failure"]);
  });

  it("attack: a tampered bundle on a verified run is EVIDENCE_DIGEST_MISMATCH, failing", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === run.id)!;
    artifact.files = { ...artifact.files, "verdict.json": new TextEncoder().encode('{"verdict":"pass"}') };
    expect(String((await deliver(run)).outcome)).toContain("verified check failure (EVIDENCE_DIGEST_MISMATCH)");
  });

  it("a verified run that fails a property: a failing verified check, and the dual run still starts", async () => {
    const run = addRunA(world.fake, { properties: FAILING });
    const res = await deliver(run);
    expect(String(res.outcome)).toContain("runner B dispatched");
    expect(String(res.outcome)).toContain("verified check failure");
    expect(shownText(verifiedChecks()[0]?.output.summary)).toContain("schema_key_order (fail)");
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  it("a verified run whose envelope failed gets a failing verified check", async () => {
    const envelopeFail = addRunA(
      world.fake,
      {
        properties: PASSING,
        verdict: "envelope_fail",
        violations: [{ id: "undeclared_env:HOME", rule: "undeclared_env", subject: "HOME", first_line: 3, count: 1 }],
        headSha: "4".repeat(40),
      },
      { conclusion: "failure", headSha: "4".repeat(40) },
    );
    expect(String((await deliver(envelopeFail)).outcome)).toContain("verified check failure");
    expect(verifiedChecks().at(-1)?.output.title).toContain("envelope envelope_fail");
  });

  it("a run for a head the pull request has left gets no verified check; a run that left no evidence and succeeded is neutral (not gated)", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    const pull = pullAt(world.fake, HEAD_SHA);
    pull.head.sha = commitAs(world.fake, "6".repeat(40), { "later.txt": "y" }, HEAD_SHA, pull.head.ref);
    expect(String((await deliver(run)).outcome)).toContain("no verified check");
    expect(verifiedChecks()).toEqual([]);
    const notGated = world.fake.addWorkflowRun(REPO, {
      head_sha: "6".repeat(40),
      head_branch: pull.head.ref,
      event: "pull_request",
      conclusion: "success",
    });
    expect(String((await deliver(notGated)).outcome)).toContain("verified check neutral");
    expect(verifiedChecks()[0]).toMatchObject({ head_sha: "6".repeat(40), conclusion: "neutral" });
  });

  it("a run that is not a pull_request run gets no verified check", async () => {
    const push = world.fake.addWorkflowRun(REPO, { head_sha: world.fake.repo(REPO).refs.get("heads/main")!, event: "push" });
    world.fake.addArtifact(REPO, {
      run_id: push.id,
      name: "envelope-gate-evidence",
      files: bundleFiles({
        machineId: "m",
        headSha: push.head_sha,
        envelopeHash: "sha256:" + "ab".repeat(32),
        repository: REPO,
        workflowRunId: push.id,
        properties: PASSING,
      }),
    });
    // A push run is never runner A: it is judged as an audit run (docs/app.md, *Envelope PRs from audit runs*).
    expect(String((await deliver(push)).outcome)).toContain("AUDIT_BUNDLE_NOT_AUDIT");
    expect(verifiedChecks()).toEqual([]);
  });
});
