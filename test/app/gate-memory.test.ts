/**
 * Issue 30, items 6 and 7: a `pull_request_review` run gets a verified check like any other, and
 * a pull request that was gated stays gated when its label is removed, unless an envelope
 * reviewer ungates its head commit (a review with the line `/envelope-gate ungate`), recorded
 * with their name. Against the App (its HTTP server, SQLite and PostgreSQL, the fake GitHub held
 * to GitHub's description; the last one the App process), each attack beside its clean twin.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AppConfig } from "../../src/app/config.js";
import type { RunningApp } from "../../src/app/start.js";
import { bundleFiles } from "../support/fake-github-app.js";
import { FAKE_APP } from "../support/fake-shapes.js";
import type { FakePull, FakeWorkflowRun } from "../support/fake-github.js";
import { pullRequestReviewWebhook, pullRequestWebhook } from "../support/webhooks.js";
import {
  addRunA,
  APP_ID,
  deliverAndWait,
  ENVELOPE_HASH,
  HEAD_SHA,
  INSTALLATION,
  PG_URL,
  pgSchema,
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
const LABEL = "agent-authored";

let world: World;
let app: RunningApp | null = null;
let proc: AppProcess | null = null;
let dropSchema: (() => Promise<void>) | null = null;
afterEach(async () => {
  await app?.close();
  await proc?.stop();
  await dropSchema?.();
  app = proc = null;
  dropSchema = null;
  await world?.close();
});

async function start(overrides: Partial<AppConfig> = {}): Promise<string> {
  world = await startWorld();
  app = await startTestApp(world.fake, new TestClock(Date.now()), overrides);
  return app.url;
}

async function deliverOk(url: string, event: string, payload: unknown): Promise<string> {
  const res = await deliverAndWait(url, event, payload);
  expect(res.state, JSON.stringify(res)).toBe("done");
  return String(res.outcome);
}

/**
 * A completed gate run of `event` on the pull request's head; with a bundle when `gated`, judged (as
 * the Action records it) against the pull request's base at its current commit.
 */
function gateRun(pull: FakePull, event: string, gated: { properties: typeof PASSING } | null, conclusion = "success"): FakeWorkflowRun {
  const run = world.fake.addWorkflowRun(REPO, { head_sha: pull.head.sha, head_branch: pull.head.ref, event, conclusion });
  if (gated !== null) {
    world.fake.addArtifact(REPO, {
      run_id: run.id,
      name: "envelope-gate-evidence",
      files: bundleFiles({
        machineId: "machine-aaaa1111",
        headSha: pull.head.sha,
        envelopeHash: ENVELOPE_HASH,
        repository: REPO,
        workflowRunId: run.id,
        pullNumber: pull.number,
        baseRef: pull.base.ref,
        baseSha: world.fake.repo(REPO).refs.get(`heads/${pull.base.ref}`) ?? null,
        ...gated,
      }),
    });
  }
  return run;
}

/** The App's own verified checks on a commit (known by app id, as the App knows them), oldest first. */
const appChecks = (head: string) =>
  world.fake.repo(REPO).checkRuns.filter((c) => c.name === NAME && c.head_sha === head && (c.app ?? FAKE_APP).id === Number(APP_ID));
/** The check a ruleset reads on the run's commit once the App handled the run: the App's latest there (one check per commit). */
const checkOf = (run: FakeWorkflowRun) => appChecks(run.head_sha).at(-1);

const labelEvent = (pull: FakePull, action: "labeled" | "unlabeled", sender: string) =>
  pullRequestWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, action, false, { label: LABEL, sender });

/** A review the fake holds (GitHub's reviews list shows it) and its `pull_request_review` delivery. */
function review(pull: FakePull, login: string, body: string, options: { state?: "COMMENTED" | "APPROVED"; commit?: string } = {}) {
  const stored = world.fake.addReview(REPO, pull.number, {
    user: { login },
    state: options.state ?? "COMMENTED",
    commit_id: options.commit ?? pull.head.sha,
    body,
  });
  return {
    stored,
    payload: pullRequestReviewWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, login, stored.state.toLowerCase(), {
      review: stored,
    }),
  };
}

describe("a pull_request_review run gets a verified check (issue 30, item 6)", () => {
  it("attack as filed: an approved policy change kept its failing check; now the review's re-run is verified and green", async () => {
    const url = await start();
    const failing = addRunA(world.fake, { properties: FAILING });
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, failing))).toContain("verified check failure");
    const pull = pullAt(world.fake, HEAD_SHA);
    const approved = gateRun(pull, "pull_request_review", { properties: PASSING });
    const outcome = await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, approved));
    expect(outcome).not.toContain("RUNNER_A_EVENT_REFUSED");
    expect(outcome).toContain("verified check success");
    expect(checkOf(approved)).toMatchObject({ head_sha: HEAD_SHA, conclusion: "success" });
  });

  it("a review run is held to the same checks: its own workflow copy is refused", async () => {
    const url = await start();
    const pull = pullAt(world.fake, "9".repeat(40), { ".github/workflows/envelope-gate.yml": "on: pull_request_review\njobs: {}\n" });
    const run = gateRun(pull, "pull_request_review", { properties: PASSING });
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, run, pull.number))).toContain(
      "verified check failure (RUNNER_A_WORKFLOW_CHANGED)",
    );
  });
});

describe("a gated pull request stays gated (issue 30, item 7)", () => {
  it("attack: the agent label removed by someone with triage access; the re-run gates nothing and stays failing", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    pull.labels = [LABEL];
    expect(await deliverOk(url, "pull_request", labelEvent(pull, "labeled", "agent-bot"))).toContain("gated");
    const first = gateRun(pull, "pull_request", { properties: PASSING });
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, first))).toContain("verified check success");
    pull.labels = [];
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    const after = gateRun(pull, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, after))).toContain(
      "verified check failure (VERIFIED_CHECK_STILL_GATED)",
    );
    expect(checkOf(after)).toMatchObject({ conclusion: "failure" });
    expect(checkOf(after)?.output.summary).toContain("/envelope-gate ungate");
    expect(await app!.store.gated.get(REPO, pull.number)).toMatchObject({ reason: expect.stringContaining(`"${LABEL}" was added`) });
  });

  it("gated without the labeled event: by a gated run's evidence, or by the unlabeled event alone", async () => {
    const url = await start();
    const a = pullAt(world.fake, "1".repeat(40));
    await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, gateRun(a, "pull_request", { properties: PASSING }), a.number));
    const aAfter = gateRun(a, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, aAfter, a.number))).toContain("VERIFIED_CHECK_STILL_GATED");
    const b = pullAt(world.fake, "2".repeat(40));
    await deliverOk(url, "pull_request", labelEvent(b, "unlabeled", "tim-triage"));
    const bAfter = gateRun(b, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, bAfter, b.number))).toContain("VERIFIED_CHECK_STILL_GATED");
    expect((await app!.store.gated.get(REPO, b.number))?.reason).toBe(`the label "${LABEL}" was removed by @tim-triage`);
  });

  it("clean twin: a pull request never gated, whose run left no evidence, is neutral (not gated) as before", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", pullRequestWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, "opened"));
    const run = gateRun(pull, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, run))).toContain("verified check neutral");
    expect(checkOf(run)?.output.title).toContain("Not gated");
    // Another label changes nothing: still neutral, no other check posted.
    pull.labels = ["docs"];
    const docs = pullRequestWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, "labeled", false, {
      label: "docs",
      sender: "tim-triage",
    });
    expect(await deliverOk(url, "pull_request", docs)).not.toContain("gated");
    expect(appChecks(HEAD_SHA).map((c) => c.conclusion)).toEqual(["neutral"]);
  });

  it("attack: the label added after a run that was not gated; the commit's neutral check turns failing at once, before the re-run", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    const run = gateRun(pull, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, run))).toContain("verified check neutral");
    pull.labels = [LABEL];
    expect(await deliverOk(url, "pull_request", labelEvent(pull, "labeled", "tim-triage"))).toContain(
      "verified check failure (VERIFIED_CHECK_STILL_GATED)",
    );
    expect(checkOf(run)).toMatchObject({ conclusion: "failure", output: { title: "Not verified: the pull request is still gated" } });
    // The re-run on `labeled` is gated by the Action and decides.
    const rerun = gateRun(pull, "pull_request", { properties: PASSING });
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, rerun))).toContain("verified check success");
    expect(appChecks(HEAD_SHA).map((c) => c.conclusion)).toEqual(["neutral", "failure", "success"]);
  });

  it("the order does not matter: an ungate review after the run turns the commit's check neutral without another run", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    const run = gateRun(pull, "pull_request", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, run))).toContain("VERIFIED_CHECK_STILL_GATED");
    const refused = review(pull, "mallory", "/envelope-gate ungate");
    expect(await deliverOk(url, "pull_request_review", refused.payload)).toContain("UNGATE_REFUSED");
    expect(checkOf(run)).toMatchObject({ conclusion: "failure" });
    expect(checkOf(run)?.output.summary).toContain("mallory");
    const ungate = review(pull, "alice", "/envelope-gate ungate");
    expect(await deliverOk(url, "pull_request_review", ungate.payload)).toContain("verified check neutral");
    expect(checkOf(run)).toMatchObject({ conclusion: "neutral", output: { title: "Not gated: ungated by alice" } });
    // The reviewer edits the command out of the review: the check is failing again at once.
    ungate.stored.body = "A person wrote this one.";
    const edited = pullRequestReviewWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, "alice", "commented", {
      review: ungate.stored,
      action: "edited",
      bodyBefore: "/envelope-gate ungate",
    });
    expect(await deliverOk(url, "pull_request_review", edited)).toContain("verified check failure (VERIFIED_CHECK_STILL_GATED)");
    expect(checkOf(run)).toMatchObject({ conclusion: "failure" });
  });

  it("reviewer-ungated twin: an envelope reviewer's ungate review on the head; its re-run is neutral, naming the reviewer", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    const ungate = review(pull, "alice", "A person wrote this one.\n/envelope-gate ungate");
    expect(await deliverOk(url, "pull_request_review", ungate.payload)).toContain(`ungated by @alice at ${HEAD_SHA.slice(0, 12)}`);
    expect(await app!.store.gated.get(REPO, pull.number)).toMatchObject({
      ungated_by: "alice",
      ungated_review_id: ungate.stored.id,
      ungated_head_sha: HEAD_SHA,
    });
    const rerun = gateRun(pull, "pull_request_review", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, rerun))).toContain("verified check neutral");
    expect(checkOf(rerun)?.output.title).toBe("Not gated: ungated by alice");
  });

  it("attack: an ungate by someone not an envelope reviewer, by the author, or of an older head does not ungate", async () => {
    const url = await start({ reviewers: ["alice", "agent-bot[bot]"] });
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    for (const [login, commit, why] of [
      ["mallory", HEAD_SHA, "not an envelope reviewer"],
      ["agent-bot[bot]", HEAD_SHA, "wrote the pull request"],
      ["alice", "f".repeat(40), "the review is of ffffffffffff"],
    ] as const) {
      const r = review(pull, login, "/envelope-gate ungate", { commit });
      const outcome = await deliverOk(url, "pull_request_review", r.payload);
      expect(outcome).toContain("UNGATE_REFUSED");
      expect(outcome).toContain(why);
    }
    expect((await app!.store.gated.get(REPO, pull.number))?.ungated_by).toBeNull();
    const rerun = gateRun(pull, "pull_request_review", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, rerun))).toContain("VERIFIED_CHECK_STILL_GATED");
    expect(checkOf(rerun)?.output.summary).toContain("mallory");
  });

  it("the verified check reads the reviews itself: an ungate whose review event came after the run still counts; a dismissed one does not", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    const ungate = review(pull, "alice", "/envelope-gate ungate", { state: "APPROVED" });
    const run = gateRun(pull, "pull_request_review", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, run))).toContain("verified check neutral");
    expect((await app!.store.gated.get(REPO, pull.number))?.ungated_by).toBe("alice");
    ungate.stored.state = "DISMISSED";
    const dismissed = pullRequestReviewWebhook(world.fake, world.fake.repo(REPO), pull, INSTALLATION, "alice", "dismissed", {
      review: ungate.stored,
      action: "dismissed",
    });
    expect(await deliverOk(url, "pull_request_review", dismissed)).toContain("gated again");
    // The dismissal alone turns the commit's check failing: no neutral check waits for the next run.
    expect(checkOf(run)).toMatchObject({ conclusion: "failure", output: { title: "Not verified: the pull request is still gated" } });
    const again = gateRun(pull, "pull_request_review", null);
    expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, again))).toContain("VERIFIED_CHECK_STILL_GATED");
  });

  it("GitHub failing to list the reviews: nothing decided, the delivery retried", async () => {
    const url = await start();
    const pull = pullAt(world.fake, HEAD_SHA);
    await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    world.fake.fail("GET", "/repos/:owner/:repo/pulls/:pull_number/reviews", 503);
    const res = await deliverAndWait(url, "workflow_run", workflowRunPayload(world.fake, gateRun(pull, "pull_request", null)));
    expect(res.code).toBe("GITHUB_UNAVAILABLE");
    expect(world.fake.repo(REPO).checkRuns.filter((c) => c.name === NAME)).toEqual([]);
  });
});

describe("on PostgreSQL", () => {
  it("the unlabeled pull request stays gated and the reviewer's ungate is recorded, across two replicas", async () => {
    const pgs = await pgSchema();
    dropSchema = pgs.drop;
    const store = { sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: pgs.schema };
    const url = await start({ store });
    const other = await startTestApp(world.fake, new TestClock(Date.now()), { store });
    try {
      const pull = pullAt(world.fake, HEAD_SHA);
      await deliverOk(url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
      expect(await deliverOk(other.url, "workflow_run", workflowRunPayload(world.fake, gateRun(pull, "pull_request", null)))).toContain(
        "VERIFIED_CHECK_STILL_GATED",
      );
      expect(await deliverOk(other.url, "pull_request_review", review(pull, "alice", "/envelope-gate ungate").payload)).toContain(
        "verified check neutral",
      );
      const rerun = gateRun(pull, "pull_request_review", null);
      expect(await deliverOk(url, "workflow_run", workflowRunPayload(world.fake, rerun))).toContain("verified check neutral");
      expect((await app!.store.gated.get(REPO, pull.number))?.ungated_by).toBe("alice");
    } finally {
      await other.close();
    }
  });
});

describe("against the App process (envelope-gate app start, SQLite)", () => {
  it("review run verified; unlabeled stays gated; reviewer-ungated twin neutral", async () => {
    world = await startWorld();
    proc = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") }));
    const pull = pullAt(world.fake, HEAD_SHA);
    pull.labels = [LABEL];
    await deliverOk(proc.url, "pull_request", labelEvent(pull, "labeled", "agent-bot"));
    const approved = gateRun(pull, "pull_request_review", { properties: PASSING });
    expect(await deliverOk(proc.url, "workflow_run", workflowRunPayload(world.fake, approved))).toContain("verified check success");
    pull.labels = [];
    await deliverOk(proc.url, "pull_request", labelEvent(pull, "unlabeled", "tim-triage"));
    expect(await deliverOk(proc.url, "workflow_run", workflowRunPayload(world.fake, gateRun(pull, "pull_request", null)))).toContain(
      "VERIFIED_CHECK_STILL_GATED",
    );
    await deliverOk(proc.url, "pull_request_review", review(pull, "alice", "/envelope-gate ungate").payload);
    const rerun = gateRun(pull, "pull_request_review", null);
    expect(await deliverOk(proc.url, "workflow_run", workflowRunPayload(world.fake, rerun))).toContain("verified check neutral");
    expect(checkOf(rerun)?.output.title).toBe("Not gated: ungated by alice");
  });
});
