/**
 * Issue 30, items 1, 2, 5 and 6: one verified verdict per commit. A check run belongs to a commit,
 * so the App's `envelope-gate / verified` on a commit is the conjunction of every open pull request
 * on it, each judged against its own current base; the evidence names its base and attempt and the
 * App holds both to GitHub's API; the App knows its own checks by app id. Each attack runs against
 * the App (real HTTP, SQLite, the fake GitHub held to GitHub's description) beside a clean twin
 * that still gets its green check.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { envelopeHash, envelopeText, observerLog, policyFiles, PROPERTIES_PATH, runAction, sha256 } from "../support/action-harness.js";
import { bundleFiles, type BundleSpec } from "../support/fake-github-app.js";
import { GITHUB_ACTIONS_APP, type FakeCheckRun, type FakePull, type FakeWorkflowRun } from "../support/fake-github.js";
import { FAKE_APP } from "../support/fake-shapes.js";
import { shownText } from "../support/gfm.js";
import { pullRequestSynchronizeWebhook, pullRequestWebhook } from "../support/webhooks.js";
import {
  addRunA,
  APP_ID,
  commitAs,
  deliverAndWait,
  EMPTY_LEDGER,
  ENVELOPE_DIGEST_PATH,
  ENVELOPE_HASH,
  HEAD_SHA,
  INSTALLATION,
  processEnv,
  pullAt,
  REPO,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { startAppProcess, type AppProcess } from "./process.js";

const NAME = "envelope-gate / verified";
const PASSING = [{ name: "schema_key_order", result: "pass" as const }];
const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const ENVELOPE_FAIL: Partial<BundleSpec> & { properties: BundleSpec["properties"] } = {
  properties: PASSING,
  verdict: "envelope_fail",
  violations: [
    { id: "undeclared_env:AWS_SECRET_ACCESS_KEY", rule: "undeclared_env", subject: "AWS_SECRET_ACCESS_KEY", first_line: 3, count: 1 },
  ],
};
/** What `lax`'s digest file pins: a wide envelope of its own. */
const LAX_HASH = `sha256:${"ee".repeat(32)}`;

let world: World;
let clock: TestClock;
let app: RunningApp;
beforeEach(async () => {
  world = await startWorld();
  clock = new TestClock(Date.now());
  app = await startTestApp(world.fake, clock);
});
afterEach(async () => {
  await app.close();
  await world.close();
});

const repo = () => world.fake.repo(REPO);
const tip = (branch: string) => repo().refs.get(`heads/${branch}`)!;
/** The App's own verified checks (GitHub names the App as their app), oldest first. */
const ownChecks = (head = HEAD_SHA) =>
  repo().checkRuns.filter((c) => c.name === NAME && c.head_sha === head && (c.app ?? FAKE_APP).id === Number(APP_ID));
const latest = (head = HEAD_SHA) => ownChecks(head).at(-1);

/** A branch off main's tip; with `digest`, its digest file pins that envelope hash instead of main's. */
function branchOffMain(name: string, digest?: string): string {
  const files = digest === undefined ? { [`${name}.txt`]: `${name}\n` } : { [ENVELOPE_DIGEST_PATH]: `${digest.slice(7)}  envelope.json\n` };
  return world.fake.commit(REPO, files, { parent: tip("main"), branch: name, message: `the ${name} branch` });
}

/** A second pull request at an existing head commit: its own branch at that commit, into `base`. */
function pullOn(number: number, headSha: string, base: string, headRef: string): FakePull {
  repo().refs.set(`heads/${headRef}`, headSha);
  return world.fake.addPull(REPO, {
    number,
    base: { ref: base, sha: tip(base) },
    head: { ref: headRef, sha: headSha },
    user: { login: "agent-bot[bot]", type: "Bot" },
  });
}

/** A completed pull_request run for `pull` with its evidence, judged (by default) against the pull request's base at its tip. */
function runFor(
  pull: FakePull,
  spec: Partial<BundleSpec> & { properties: BundleSpec["properties"] },
  conclusion: string,
  artifact: { created_at?: string } = {},
): FakeWorkflowRun {
  const run = world.fake.addWorkflowRun(REPO, {
    head_sha: pull.head.sha,
    head_branch: pull.head.ref,
    event: "pull_request",
    status: "completed",
    conclusion,
  });
  addEvidence(run, pull, spec, artifact);
  return run;
}

function addEvidence(
  run: FakeWorkflowRun,
  pull: FakePull,
  spec: Partial<BundleSpec> & { properties: BundleSpec["properties"] },
  artifact: { created_at?: string } = {},
): void {
  world.fake.addArtifact(REPO, {
    run_id: run.id,
    name: "envelope-gate-evidence",
    ...artifact,
    files: bundleFiles({
      machineId: "machine-aaaa1111",
      headSha: pull.head.sha,
      envelopeHash: ENVELOPE_HASH,
      repository: REPO,
      workflowRunId: run.id,
      pullNumber: pull.number,
      baseRef: pull.base.ref,
      baseSha: tip(pull.base.ref),
      ...spec,
    }),
  });
}

async function deliverRun(run: FakeWorkflowRun, pullNumber: number): Promise<string> {
  const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run, pullNumber));
  expect(res.state, JSON.stringify(res)).toBe("done");
  return String(res.outcome);
}

async function pullEvent(pull: FakePull, action: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await deliverAndWait(
    app.url,
    "pull_request",
    pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, action, false, { extra }),
  );
  expect(res.state, JSON.stringify(res)).toBe("done");
  return String(res.outcome);
}

const summaryOf = (c: FakeCheckRun | undefined) => shownText(c?.output.summary ?? "");

describe("a commit's verified check is the conjunction of its open pull requests (item 1)", () => {
  it("attack: a sibling pull request at the same head into a lax base does not turn main's check green; closing it leaves main's failure", async () => {
    const run7 = addRunA(world.fake, ENVELOPE_FAIL, { conclusion: "failure" });
    expect(await deliverRun(run7, 7)).toContain("verified check failure");
    branchOffMain("lax", LAX_HASH);
    const sibling = pullOn(8, HEAD_SHA, "lax", "agent/sibling");
    // Opened on a commit the App has a check for: made again at once, #8 not verified yet.
    expect(await pullEvent(sibling, "opened")).toContain("verified check failure");
    expect(summaryOf(latest())).toContain("VERIFIED_CHECK_PULL_UNVERIFIED");
    const run8 = runFor(sibling, { properties: PASSING, envelopeHash: LAX_HASH }, "success");
    const outcome = await deliverRun(run8, 8);
    // #8 passes against lax on its own; the commit's check still fails: #7 fails main.
    expect(outcome).toContain("verified check failure");
    expect(outcome).toContain("this run: success");
    expect(await app.store.runs.getVerifiedCheck(REPO, run8.id, 1)).toMatchObject({ conclusion: "success" });
    const check = latest()!;
    expect(check.conclusion).toBe("failure");
    expect(check.output.title).toBe("Not verified: pull request #7 into main fails (1 of 2 open pull requests on this commit)");
    expect(summaryOf(check)).toMatch(/#.?7 into main: failure/);
    expect(summaryOf(check)).toMatch(/#.?8 into lax: success/);
    sibling.state = "closed";
    expect(await pullEvent(sibling, "closed")).toContain("verified check failure");
    expect(latest()?.output.title).toContain("envelope envelope_fail");
    expect(ownChecks().map((c) => c.conclusion)).not.toContain("success");
  });

  it("clean twin: each pull request on the head passes against its own base: green; one opened later is failing (not verified) until its run passes; one that moves away no longer counts", async () => {
    expect(await deliverRun(addRunA(world.fake, { properties: PASSING }, { conclusion: "success" }), 7)).toContain(
      "verified check success",
    );
    branchOffMain("lax", LAX_HASH);
    const sibling = pullOn(8, HEAD_SHA, "lax", "agent/sibling");
    expect(await pullEvent(sibling, "opened")).toContain("verified check failure (VERIFIED_CHECK_PULL_UNVERIFIED)");
    expect(latest()?.output.title).toBe("Not verified: pull request #8 into lax has no verified run against its base on this commit");
    expect(await deliverRun(runFor(sibling, { properties: PASSING, envelopeHash: LAX_HASH }, "success"), 8)).toContain(
      "verified check success",
    );
    expect(latest()?.output.title).toBe("Verified: the base's gate passed for each of the 2 open pull requests on this commit");
    // #8 is pushed to another commit: on HEAD_SHA only #7 is left, and #7 passes.
    const moved = commitAs(world.fake, "8".repeat(40), { "more.txt": "x" }, HEAD_SHA, "agent/sibling");
    sibling.head.sha = moved;
    const sync = await deliverAndWait(
      app.url,
      "pull_request",
      pullRequestSynchronizeWebhook(world.fake, repo(), sibling, INSTALLATION, HEAD_SHA),
    );
    expect(String(sync.outcome)).toContain(`${HEAD_SHA.slice(0, 12)}: verified check success`);
    expect(latest()?.output.title).toBe("Verified: the base's gate passed on this commit");
    expect(ownChecks(moved)).toEqual([]);
  });

  it("another delivery holds the commit's claim: VERIFIED_CHECK_BUSY, queued, nothing posted; once it is given back the check is posted", async () => {
    await app.store.registerProcess("other-replica-process", "other", clock.now());
    await app.store.heads.bump(REPO, HEAD_SHA, clock.now());
    expect(await app.store.heads.claim(REPO, HEAD_SHA, "other-replica-process", clock.now(), 300_000)).toBe(true);
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    const held = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(held).toMatchObject({ state: "queued", code: "VERIFIED_CHECK_BUSY" });
    expect(ownChecks()).toEqual([]);
    await app.store.heads.release(REPO, HEAD_SHA, "other-replica-process");
    expect(await deliverRun(run, 7)).toContain("verified check success");
    expect(ownChecks()).toHaveLength(1);
  });

  it("GitHub unreachable while listing the commit's pull requests: nothing is posted, the delivery is retried", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    world.fake.fail("GET", "/repos/:owner/:repo/commits/:commit_sha/pulls", 503, { times: 1 });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(res).toMatchObject({ state: "queued", code: "GITHUB_UNAVAILABLE" });
    expect(ownChecks()).toEqual([]);
    expect(await deliverRun(run, 7)).toContain("verified check success");
  });
});

describe("the evidence names its base, and the App holds it to the API (item 2)", () => {
  it("attack: a run from before a retarget that finishes after the retarget's own run is refused (VERIFIED_CHECK_BASE_CHANGED); the retarget's run decides", async () => {
    // lax pins main's exact envelope; main has a property the head fails, lax has none.
    branchOffMain("lax");
    const pull = pullAt(world.fake, "9".repeat(40));
    pull.base = { ref: "lax", sha: tip("lax") };
    const before = runFor(pull, { properties: [] }, "success");
    // Retargeted to main while that run runs; GitHub starts the retarget's run, which fails main.
    pull.base = { ref: "main", sha: tip("main") };
    expect(await pullEvent(pull, "edited", { changes: { base: { ref: { from: "lax" }, sha: { from: tip("lax") } } } })).toBe(
      "not a ledger PR",
    );
    const after = runFor(pull, { properties: FAILING }, "failure");
    expect(await deliverRun(after, pull.number)).toContain("verified check failure");
    // The stalled run finishes last: judged against lax, it does not speak for the pull request into main.
    expect(await deliverRun(before, pull.number)).toContain("this run: failure VERIFIED_CHECK_BASE_CHANGED");
    expect(await app.store.runs.getVerifiedCheck(REPO, before.id, 1)).toMatchObject({ code: "VERIFIED_CHECK_BASE_CHANGED" });
    expect(latest(pull.head.sha)?.conclusion).toBe("failure");
    expect(ownChecks(pull.head.sha).map((c) => c.conclusion)).not.toContain("success");
  });

  it("clean twin: the retarget's run, judged against main, gets its green check; the retarget itself makes an earlier check failing until then", async () => {
    branchOffMain("lax");
    const pull = pullAt(world.fake, "9".repeat(40));
    pull.base = { ref: "lax", sha: tip("lax") };
    expect(await deliverRun(runFor(pull, { properties: PASSING }, "success"), pull.number)).toContain("verified check success");
    pull.base = { ref: "main", sha: tip("main") };
    const retargeted = await pullEvent(pull, "edited", { changes: { base: { ref: { from: "lax" }, sha: { from: tip("lax") } } } });
    expect(retargeted).toContain("verified check failure (VERIFIED_CHECK_PULL_UNVERIFIED)");
    expect(summaryOf(latest(pull.head.sha))).toContain("judged it against lax; it targets main now");
    expect(await deliverRun(runFor(pull, { properties: PASSING }, "success"), pull.number)).toContain("verified check success");
  });

  it("attack: a run judged against an older commit of the base is refused (VERIFIED_CHECK_BASE_MOVED); its re-run against the current commit is green", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    // main moves (a stricter properties file lands) while the run runs.
    const moved = world.fake.commit(
      REPO,
      { ".github/envelope-gate/properties.json": '{"version":1,"properties":[]}\n' },
      { branch: "main" },
    );
    expect(await deliverRun(run, 7)).toContain("verified check failure (VERIFIED_CHECK_BASE_MOVED)");
    expect(summaryOf(latest())).toContain(`main is at ${moved} now`);
    run.run_attempt = 2;
    run.run_started_at = "2099-01-01T00:00:00Z";
    addEvidence(run, pullAt(world.fake, HEAD_SHA), { properties: PASSING, runAttempt: 2 }, { created_at: "2099-01-01T00:05:00Z" });
    expect(await deliverRun(run, 7)).toContain("verified check success");
  });

  it("a run cancelled by a newer event of its pull request (the concurrency group) counts for nothing; the newer run decides", async () => {
    const cancelled = addRunA(world.fake, { properties: PASSING }, { conclusion: "cancelled" });
    expect(await deliverRun(cancelled, 7)).toContain("no verified check (the run was cancelled)");
    expect(ownChecks()).toEqual([]);
    expect(await deliverRun(addRunA(world.fake, { properties: PASSING }, { conclusion: "success" }), 7)).toContain(
      "verified check success",
    );
  });

  it("a bundle that names no base (an Action from before it was recorded) is refused: VERIFIED_CHECK_BASE_UNNAMED", async () => {
    const run = addRunA(world.fake, { properties: PASSING, baseRef: undefined, baseSha: undefined }, { conclusion: "success" });
    expect(await deliverRun(run, 7)).toContain("verified check failure (VERIFIED_CHECK_BASE_UNNAMED)");
  });
});

describe("the App knows its own checks by app id (item 5)", () => {
  /** A job token's check named like the App's, with the run's external_id, posted before the App handles the run. */
  function forge(run: FakeWorkflowRun): FakeCheckRun {
    const forged: FakeCheckRun = {
      id: world.fake.nextId(),
      name: NAME,
      head_sha: HEAD_SHA,
      status: "completed",
      conclusion: "success",
      external_id: `${run.id}:1`,
      details_url: null,
      started_at: null,
      completed_at: null,
      output: { title: "Verified: the base's gate passed on this commit", summary: "pass", text: null, annotations_count: 0 },
      annotations: [],
      updates: [],
      app: GITHUB_ACTIONS_APP,
    };
    repo().checkRuns.push(forged);
    return forged;
  }

  it("attack: a job-token check with the App's name and the run's external_id is not the App's: the App posts its own failure and names it, on the status page too", async () => {
    const run = addRunA(world.fake, ENVELOPE_FAIL, { conclusion: "failure" });
    const forged = forge(run);
    expect(await deliverRun(run, 7)).toContain("verified check failure");
    const own = ownChecks();
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ conclusion: "failure" });
    expect(own[0]!.id).not.toBe(forged.id);
    expect(summaryOf(own[0])).toContain(`check run ${forged.id} by github-actions (app id ${GITHUB_ACTIONS_APP.id}), success`);
    expect(await app.store.runs.getVerifiedCheck(REPO, run.id, 1)).toMatchObject({ check_run_id: own[0]!.id });
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as {
      verified_heads: { head_sha: string; conclusion: string; foreign_checks: { id: number; app_slug: string }[] }[];
    };
    expect(status.verified_heads[0]).toMatchObject({ head_sha: HEAD_SHA, conclusion: "failure" });
    expect(status.verified_heads[0]!.foreign_checks).toEqual([expect.objectContaining({ id: forged.id, app_slug: "github-actions" })]);
    const html = await (await fetch(`${app.url}/status`)).text();
    expect(html).toContain(`check run ${forged.id} by github-actions (app ${GITHUB_ACTIONS_APP.id}): success`);
  });

  it("clean twin: with the same forged check on the commit, a passing run still gets the App's own green check", async () => {
    const run = addRunA(world.fake, { properties: PASSING }, { conclusion: "success" });
    const forged = forge(run);
    expect(await deliverRun(run, 7)).toContain("verified check success");
    expect(ownChecks().map((c) => c.conclusion)).toEqual(["success"]);
    expect(summaryOf(latest())).toContain(`check run ${forged.id} by github-actions`);
  });
});

describe("the verified attempt's evidence only (item 6)", () => {
  it("attack: a re-run whose only artifact is an earlier attempt's is refused (VERIFIED_CHECK_EARLIER_ATTEMPT), even when that bundle names the re-run's attempt; the attempt's own artifact is read (clean twin)", async () => {
    const pull = pullAt(world.fake, HEAD_SHA);
    const run = world.fake.addWorkflowRun(REPO, {
      head_sha: HEAD_SHA,
      head_branch: pull.head.ref,
      event: "pull_request",
      status: "completed",
      conclusion: "success",
      run_attempt: 2,
      run_started_at: "2099-01-01T00:00:00Z",
    });
    // Attempt 1 uploaded a passing bundle; attempt 2 uploaded none.
    addEvidence(run, pull, { properties: PASSING, runAttempt: 2 }, { created_at: "2098-12-31T23:00:00Z" });
    expect(await deliverRun(run, 7)).toContain("verified check failure (VERIFIED_CHECK_EARLIER_ATTEMPT)");
    expect(summaryOf(latest())).toContain("it is an earlier attempt's");
    // Attempt 3 uploads its own: it is the one read, beside attempt 1's.
    run.run_attempt = 3;
    run.run_started_at = "2099-01-02T00:00:00Z";
    addEvidence(run, pull, { properties: PASSING, runAttempt: 3 }, { created_at: "2099-01-02T00:05:00Z" });
    expect(await deliverRun(run, 7)).toContain("verified check success");
    expect(summaryOf(latest())).toContain(`Run ${run.id} (attempt 3)`);
  });
});

describe("against the App process (envelope-gate app start, SQLite), the bundled Action as runner A", () => {
  let proc: AppProcess | null = null;
  afterEach(async () => {
    await proc?.stop();
    proc = null;
  });

  const ENVELOPE = envelopeText();
  const HASH = envelopeHash(ENVELOPE);
  /**
   * main gates a property lax does not have (lax is main's envelope, byte for byte, without the
   * properties file); release is main's policy exactly.
   */
  const PROPERTIES = JSON.stringify({
    version: 1,
    properties: [{ name: "result_shape", kind: "output_schema", output: "out/result.json", schema: { type: "object", required: ["ok"] } }],
  });

  function policyBranches(): void {
    world.fake.commit(REPO, { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: PROPERTIES }, { branch: "main", message: "the policy" });
    world.fake.commit(REPO, { [PROPERTIES_PATH]: null }, { parent: tip("main"), branch: "lax", message: "lax: no properties" });
    world.fake.commit(REPO, { "RELEASE.md": "release\n" }, { parent: tip("main"), branch: "release", message: "release" });
  }

  /**
   * A head commit off `from` on its own branch, and pull request `number` on it into `base`. A head
   * off lax carries lax's policy: into lax nothing changes; into main it is a policy change nobody
   * approved, so main's policy applies.
   */
  function pullAtNewHead(number: number, base: string, from = base): FakePull {
    const head = world.fake.commit(
      REPO,
      { "src/patch.ts": `export const n = ${number};\n` },
      { parent: tip(from), branch: `agent/p${number}` },
    );
    return world.fake.addPull(REPO, {
      number,
      base: { ref: base, sha: tip(base) },
      head: { ref: `agent/p${number}`, sha: head },
      user: { login: "copilot-swe-agent[bot]", type: "Bot" },
    });
  }

  /** The bundled Action as runner A of `pull` (its base as the API names it now), its evidence uploaded as the run's artifact. */
  async function actionRun(pull: FakePull, output: string): Promise<FakeWorkflowRun> {
    const run = world.fake.addWorkflowRun(REPO, {
      head_sha: pull.head.sha,
      head_branch: pull.head.ref,
      event: "pull_request",
      status: "in_progress",
      conclusion: null,
    });
    const action = await runAction({
      apiUrl: world.fake.url,
      pull: { number: pull.number, baseSha: tip(pull.base.ref), headSha: pull.head.sha, baseRef: pull.base.ref },
      inputs: { "observer-log": "observer.jsonl", workspace: "" },
      workspaceFiles: { "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }]), "out/result.json": output },
      env: { GITHUB_RUN_ID: String(run.id), GITHUB_RUN_ATTEMPT: "1" },
    });
    expect([0, 1], action.stdout + action.stderr + action.summary).toContain(action.exitCode);
    const files = Object.fromEntries(
      readdirSync(action.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(action.evidenceDir, n)))]),
    );
    world.fake.addArtifact(REPO, { run_id: run.id, name: "envelope-gate-evidence", files });
    run.status = "completed";
    run.conclusion = action.exitCode === 0 ? "success" : "failure";
    return run;
  }

  async function deliverTo(p: AppProcess, event: string, payload: Record<string, unknown>): Promise<string> {
    const res = await deliverAndWait(p.url, event, payload);
    expect(res.state, JSON.stringify(res)).toBe("done");
    return String(res.outcome);
  }

  it("a sibling pull request into lax and a run from before a retarget are refused by the running App; pull requests passing their own bases get the green check", async () => {
    await app.close();
    app = { close: async () => undefined } as unknown as RunningApp;
    proc = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") }));
    policyBranches();
    const BAD = '{"nope":true}';
    const GOOD = '{"ok":true}';

    // Attack 1: #21 into main fails result_shape; #22 at the same head into lax passes (lax has no properties).
    const main21 = pullAtNewHead(21, "main", "lax");
    const run21 = await actionRun(main21, BAD);
    expect(run21.conclusion).toBe("failure");
    const runner = JSON.parse(
      Buffer.from((repo().artifacts.find((a) => a.run_id === run21.id)!.files["runner.json"] as Uint8Array).buffer).toString("utf8"),
    ) as Record<string, unknown>;
    expect(runner).toMatchObject({ base_ref: "main", base_sha: tip("main"), policy_sha: tip("main"), run_attempt: "1" });
    expect(runner.properties_digest).toBe(`sha256:${sha256(PROPERTIES)}`);
    expect(runner.ledger_digest).toBe(`sha256:${sha256(EMPTY_LEDGER)}`);
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, run21, 21))).toContain("verified check failure");
    const lax22 = pullOn(22, main21.head.sha, "lax", "agent/sibling-22");
    lax22.user = { login: "copilot-swe-agent[bot]", type: "Bot" };
    expect(await deliverTo(proc, "pull_request", pullRequestWebhook(world.fake, repo(), lax22, INSTALLATION, "opened"))).toContain(
      "verified check failure",
    );
    const run22 = await actionRun(lax22, BAD);
    expect(run22.conclusion).toBe("success");
    const sibling = await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, run22, 22));
    expect(sibling).toContain("verified check failure");
    expect(sibling).toContain("this run: success");
    expect(ownChecks(main21.head.sha).map((c) => c.conclusion)).not.toContain("success");

    // Attack 2: #23 into lax passes there, is retargeted to main, whose own run fails; the lax run is delivered last.
    const retarget = pullAtNewHead(23, "lax", "lax");
    const stale = await actionRun(retarget, BAD);
    expect(stale.conclusion).toBe("success");
    retarget.base = { ref: "main", sha: tip("main") };
    const fresh = await actionRun(retarget, BAD);
    expect(fresh.conclusion).toBe("failure");
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, fresh, 23))).toContain("verified check failure");
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, stale, 23))).toContain(
      "this run: failure VERIFIED_CHECK_BASE_CHANGED",
    );
    expect(ownChecks(retarget.head.sha).map((c) => c.conclusion)).not.toContain("success");

    // Clean twins: #24 into main and #25 at its head into release both pass: green, naming both; #26's run after its retarget too.
    const main24 = pullAtNewHead(24, "main");
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, await actionRun(main24, GOOD), 24))).toContain(
      "verified check success",
    );
    const release25 = pullOn(25, main24.head.sha, "release", "agent/sibling-25");
    release25.user = { login: "copilot-swe-agent[bot]", type: "Bot" };
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, await actionRun(release25, GOOD), 25))).toContain(
      "verified check success",
    );
    expect(latest(main24.head.sha)?.output.title).toBe(
      "Verified: the base's gate passed for each of the 2 open pull requests on this commit",
    );
    const moved = pullAtNewHead(26, "lax", "main");
    moved.base = { ref: "main", sha: tip("main") };
    expect(await deliverTo(proc, "workflow_run", workflowRunPayload(world.fake, await actionRun(moved, GOOD), 26))).toContain(
      "verified check success",
    );
  });
});
