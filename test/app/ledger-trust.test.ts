/**
 * Issue 18, item 3 and attack 5: the App only trusts its own ledger PRs. Each attack runs against
 * the App (its HTTP server and store, in this process) and the fake GitHub, and is shown refused
 * or harmless, beside a clean twin that still works.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { sha256Hex } from "../../src/core/envelope.js";
import type { LedgerPr } from "../../src/store/index.js";
import { pullJson, type FakePull } from "../support/fake-github.js";
import { pullRequestReviewWebhook, pullRequestWebhook, pushWebhook } from "../support/webhooks.js";
import {
  addRunA,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  ENVELOPE_HASH,
  HEAD_SHA,
  INSTALLATION,
  ledgerPulls,
  LEDGER_PATH,
  REPO,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const EVIL_ROW = `F-eeeeeeeeeeee\tpatch_paths\trun-1@m1\trun-2@m2\t${ENVELOPE_HASH}\t2026-12-13\topen\tsha256:${"00".repeat(32)}`;

interface Status {
  refused_ledger_prs: { freeze_id: string; code: string; detail: string | null; branch: string; state: string }[];
  open_ledger_prs: { freeze_id: string }[];
}

describe("the App trusts only the ledger PRs it made", () => {
  let world: World;
  let app: RunningApp;
  let clock: TestClock;

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock();
    app = await startTestApp(world.fake, clock);
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  const repo = () => world.fake.repo(REPO);
  const ledgerAt = (ref: string) => Buffer.from(world.fake.filesAt(repo(), ref).get(LEDGER_PATH) as Uint8Array).toString("utf8");
  const status = async () => (await (await fetch(`${app.url}/status.json`)).json()) as Status;
  const html = async () => (await fetch(`${app.url}/status`)).text();
  const ledgerPrs = async (): Promise<LedgerPr[]> => app.store.listLedgerPrs(["claimed", "opened", "closed", "merged"]);

  /** Runner A fails the property, runner B passes it: a freeze is eligible and the App opens (or tries to open) its ledger PR. */
  async function disagreement() {
    const runA = addRunA(world.fake, { properties: FAILING });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    return deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
  }

  /** A commit on main's head whose ledger has the attacker's extra row (and the App's row, to look right). */
  function attackerCommit(branch: string): string {
    return world.fake.commit(
      REPO,
      { [LEDGER_PATH]: ledgerAt("main") + EVIL_ROW + "\n" },
      { parent: repo().refs.get("heads/main")!, branch, message: "freeze" },
    );
  }

  function attackerPull(branch: string, sha: string, number: number, headRepo = REPO): FakePull {
    return world.fake.addPull(REPO, {
      number,
      title: "envelope-gate: freeze schema_key_order until 2026-12-07",
      body: "Runner A and runner B disagree…",
      user: { login: "mallory" },
      base: { ref: "main", sha: repo().refs.get("heads/main")! },
      head: { ref: branch, sha, repo_full_name: headRepo },
    });
  }

  /** The App's ledger PR, opened cleanly. */
  async function openedLedgerPr(): Promise<{ row: LedgerPr; pull: FakePull }> {
    expect((await disagreement()).state).toBe("done");
    const [row] = await app.store.listLedgerPrs(["opened"]);
    expect(row).toBeDefined();
    const pull = repo().pulls.get(row!.pr_number!)!;
    expect(pull.user.login).toBe("envelope-gate[bot]");
    return { row: row!, pull };
  }

  it("the attack as filed: a branch pre-created at the old predictable name with a PR on it is never touched; the App opens its own PR on a random branch", async () => {
    // The name the App used to derive: sha256(property, envelope hash, head sha).
    const predicted = `envelope-gate/freeze/schema_key_order-${sha256Hex(`schema_key_order\0${ENVELOPE_HASH}\0${HEAD_SHA}`).slice(0, 16)}`;
    const evil = attackerCommit(predicted);
    const theirs = attackerPull(predicted, evil, 40);
    const res = await disagreement();
    expect(res.state).toBe("done");
    expect(repo().refs.get(`heads/${predicted}`)).toBe(evil); // never moved
    expect(theirs.requested_reviewers).toEqual([]); // no review requested on the attacker's PR
    const [row] = await app.store.listLedgerPrs(["opened"]);
    expect(row?.branch).not.toBe(predicted);
    expect(row?.pr_number).not.toBe(40);
    const ours = repo().pulls.get(row!.pr_number!)!;
    expect(ours.user.login).toBe("envelope-gate[bot]");
    expect(ours.requested_reviewers).toEqual(["alice"]);
    expect(ours.head.sha).toBe(row?.ledger_commit);
    expect(ledgerAt(ours.head.sha)).not.toContain("patch_paths");
    expect(world.fake.requestsTo("PATCH", "/repos/:owner/:repo/git/refs/*ref")).toEqual([]);
  });

  it("a foreign branch at the App's own (leaked) name: LEDGER_BRANCH_FOREIGN, nothing force-moved, no review requested, the status page says so", async () => {
    // The first attempt fails before the App made its commit; the branch name is recorded with the claim.
    world.fake.fail("POST", "/repos/:owner/:repo/git/trees", 500, { times: 1 });
    expect((await disagreement()).code).toBe("GITHUB_UNAVAILABLE");
    const [claimed] = await app.store.listLedgerPrs(["claimed"]);
    expect(claimed?.ledger_commit).toBeNull();
    // The attacker, knowing the name, creates it first with an extra row and opens a PR on it.
    const evil = attackerCommit(claimed!.branch);
    const theirs = attackerPull(claimed!.branch, evil, 40);
    const report = await app.sweep();
    expect(report.errors).toEqual([]);
    expect(repo().refs.get(`heads/${claimed!.branch}`)).toBe(evil);
    expect(world.fake.requestsTo("PATCH", "/repos/:owner/:repo/git/refs/*ref")).toEqual([]);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls")).toEqual([]);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers")).toEqual([]);
    expect(theirs.requested_reviewers).toEqual([]);
    expect(theirs.state).toBe("open"); // not the App's to close
    const [row] = await ledgerPrs();
    expect(row).toMatchObject({ state: "closed", outcome_code: "LEDGER_BRANCH_FOREIGN", pr_number: null });
    expect(row?.outcome_detail).toContain(evil);
    const s = await status();
    expect(s.refused_ledger_prs).toEqual([
      expect.objectContaining({ freeze_id: row!.freeze_id, code: "LEDGER_BRANCH_FOREIGN", state: "closed" }),
    ]);
    expect(s.open_ledger_prs).toEqual([]);
    const page = await html();
    expect(page).toContain("LEDGER_BRANCH_FOREIGN");
    expect(page).toContain("refused or closed by the App in the last 24 h");
    // The dual run's check says the ledger PR is closed, never opened.
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")?.output.summary).toContain("(closed)");
  });

  it("a foreign PR on the App's own branch: LEDGER_PR_FOREIGN, not adopted, no review requested, and the App's branch deleted so it closes", async () => {
    // The App made its commit and branch; its PR creation failed.
    world.fake.fail("POST", "/repos/:owner/:repo/pulls", 500, { times: 1 });
    expect((await disagreement()).code).toBe("GITHUB_UNAVAILABLE");
    const [claimed] = await app.store.listLedgerPrs(["claimed"]);
    const tip = repo().refs.get(`heads/${claimed!.branch}`)!;
    expect(tip).toBe(claimed?.ledger_commit);
    // Another user opens a PR on it first (with the App's title), so the App's own creation answers 422.
    const theirs = attackerPull(claimed!.branch, tip, 40);
    expect((await app.sweep()).errors).toEqual([]);
    expect(theirs.requested_reviewers).toEqual([]);
    expect(repo().refs.has(`heads/${claimed!.branch}`)).toBe(false);
    expect(theirs.state).toBe("closed");
    const [row] = await ledgerPrs();
    expect(row).toMatchObject({ state: "closed", outcome_code: "LEDGER_PR_FOREIGN", pr_number: null });
    expect(row?.outcome_detail).toContain("#40 by mallory");
    expect((await status()).refused_ledger_prs.map((p) => p.code)).toEqual(["LEDGER_PR_FOREIGN"]);
  });

  it("clean twin: the App's own retry after its PR was created but the answer lost adopts its own PR (its bot, its commit, its base) and requests review", async () => {
    world.fake.fail("POST", "/repos/:owner/:repo/pulls", 502, { times: 1, afterHandling: true });
    expect((await disagreement()).code).toBe("GITHUB_UNAVAILABLE");
    expect(ledgerPulls(world.fake)).toHaveLength(1);
    expect((await app.sweep()).errors).toEqual([]);
    const [row] = await app.store.listLedgerPrs(["opened"]);
    const pull = repo().pulls.get(row!.pr_number!)!;
    expect(pull.user.login).toBe("envelope-gate[bot]");
    expect(pull.requested_reviewers).toEqual(["alice"]);
    expect(row).toMatchObject({ head_repository: REPO, ledger_commit: pull.head.sha, outcome_code: null });
    expect(world.fake.requestsTo("PATCH", "/repos/:owner/:repo/git/refs/*ref")).toEqual([]);
  });

  it("clean twin: a crash between branch creation and PR creation; another replica's retry adopts the App's own branch", async () => {
    const path = join(tempDir(), "app.sqlite");
    await app.close();
    app = await startTestApp(world.fake, clock, { store: { sqlitePath: path } });
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    world.fake.fail("POST", "/repos/:owner/:repo/pulls", 500, { times: 1 });
    expect((await disagreement()).code).toBe("GITHUB_UNAVAILABLE");
    const [claimed] = await app.store.listLedgerPrs(["claimed"]);
    const tip = repo().refs.get(`heads/${claimed!.branch}`)!;
    // Another replica on the same store takes it up (this one is gone).
    await app.close();
    app = await startTestApp(world.fake, clock, { store: { sqlitePath: path } });
    expect((await app.sweep()).errors).toEqual([]);
    const [row] = await app.store.listLedgerPrs(["opened"]);
    expect(row?.branch).toBe(claimed?.branch);
    expect(repo().refs.get(`heads/${row!.branch}`)).toBe(tip);
    expect(repo().pulls.get(row!.pr_number!)?.head.sha).toBe(tip);
    expect(world.fake.requestsTo("PATCH", "/repos/:owner/:repo/git/refs/*ref")).toEqual([]);
    expect([...repo().refs.keys()].filter((r) => r.startsWith("heads/envelope-gate/freeze/"))).toHaveLength(1);
  });

  it("a fork PR whose head ref is the ledger branch's name: its review and its close touch nothing; the real PR's review still counts", async () => {
    const { row, pull } = await openedLedgerPr();
    const fork = attackerPull(row.branch, "f".repeat(40), 50, "mallory/widgets");
    const review = await deliverAndWait(
      app.url,
      "pull_request_review",
      pullRequestReviewWebhook(world.fake, repo(), fork, INSTALLATION, "mallory"),
    );
    expect(review.state).toBe("done");
    const closed = await deliverAndWait(
      app.url,
      "pull_request",
      pullRequestWebhook(world.fake, repo(), fork, INSTALLATION, "closed", true),
    );
    expect(closed.outcome).toBe("not a ledger PR");
    let now = (await app.store.getLedgerPr(row.lock_key))!;
    expect(now).toMatchObject({ state: "opened", first_review_at: null, closed_at: null });
    // A payload naming the ledger PR's number with a fork head (GitHub never sends one): still not it.
    const forged = { ...pull, head: { ...pull.head, repo_full_name: "mallory/widgets" } };
    const forgedClose = await deliverAndWait(
      app.url,
      "pull_request",
      pullRequestWebhook(world.fake, repo(), forged, INSTALLATION, "closed"),
    );
    expect(String(forgedClose.outcome)).toContain("not the App's ledger PR");
    expect((await app.store.getLedgerPr(row.lock_key))?.state).toBe("opened");
    // Clean twin: the ledger PR's own review.
    await deliverAndWait(app.url, "pull_request_review", pullRequestReviewWebhook(world.fake, repo(), pull, INSTALLATION, "alice"));
    now = (await app.store.getLedgerPr(row.lock_key))!;
    expect(now.first_review_at).toBe(clock.now());
  });

  /** `pull_request` `synchronize`: GitHub sends the simple pull request form here, its repositories with discussions and topics. */
  function synchronize(pull: FakePull, before: string) {
    const json = pullJson(repo(), pull, world.fake.url, true);
    for (const side of ["base", "head"] as const) {
      const end = json[side] as { repo: Record<string, unknown> };
      end.repo = { ...end.repo, has_discussions: false, topics: [] };
    }
    const { pull_request: _full, ...rest } = pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "synchronize");
    return { ...rest, pull_request: json, before, after: pull.head.sha };
  }

  it("a foreign push to the App's ledger branch: the PR is closed as LEDGER_PR_TAMPERED with a comment, the status page shows it; reopening it closes it again", async () => {
    const { row, pull } = await openedLedgerPr();
    const before = pull.head.sha;
    pull.head.sha = world.fake.commit(
      REPO,
      { [LEDGER_PATH]: ledgerAt(before) + EVIL_ROW + "\n" },
      { branch: row.branch, message: "one more row" },
    );
    const res = await deliverAndWait(app.url, "pull_request", synchronize(pull, before));
    expect(res.state).toBe("done");
    expect(res.outcome).toContain("LEDGER_PR_TAMPERED");
    expect(pull.state).toBe("closed");
    expect(repo().issueComments).toEqual([
      expect.objectContaining({ issue_number: pull.number, body: expect.stringContaining("LEDGER_PR_TAMPERED") }),
    ]);
    expect(await app.store.getLedgerPr(row.lock_key)).toMatchObject({ state: "closed", outcome_code: "LEDGER_PR_TAMPERED" });
    const s = await status();
    expect(s.open_ledger_prs).toEqual([]);
    expect(s.refused_ledger_prs).toEqual([
      expect.objectContaining({ code: "LEDGER_PR_TAMPERED", detail: expect.stringContaining(pull.head.sha) }),
    ]);
    expect(await html()).toContain("LEDGER_PR_TAMPERED");
    // Someone reopens it: closed again, and it stays out of the open ledger PRs.
    pull.state = "open";
    const reopened = await deliverAndWait(app.url, "pull_request", pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "reopened"));
    expect(reopened.outcome).toContain("closed again");
    expect(pull.state).toBe("closed");
    // A merge that slipped through anyway is recorded with the code, not as a clean merge.
    const merged = await deliverAndWait(
      app.url,
      "pull_request",
      pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "closed", true),
    );
    expect(merged.outcome).toContain("LEDGER_PR_TAMPERED");
    expect(await app.store.getLedgerPr(row.lock_key)).toMatchObject({ state: "merged", outcome_code: "LEDGER_PR_TAMPERED" });
    expect((await status()).refused_ledger_prs).toEqual([expect.objectContaining({ code: "LEDGER_PR_TAMPERED", state: "merged" })]);
  });

  it("clean twin: the App's own rebase on a new base ledger moves its branch, and its own synchronize is recognized", async () => {
    const { row, pull } = await openedLedgerPr();
    const other = `F-0123456789ab\toutput_shape\trun-1@m1\trun-2@m2\t${ENVELOPE_HASH}\t2026-12-05\topen\tsha256:${"ef".repeat(32)}`;
    const newMain = world.fake.commit(
      REPO,
      { [LEDGER_PATH]: ledgerAt("main") + other + "\n" },
      { branch: "main", message: "other freeze" },
    );
    const push = await deliverAndWait(
      app.url,
      "push",
      pushWebhook(world.fake, repo(), INSTALLATION, {
        ref: "refs/heads/main",
        after: newMain,
        commits: [{ added: [], modified: [LEDGER_PATH], removed: [] }],
      }),
    );
    expect(push.outcome).toContain("rebased");
    const rebuilt = (await app.store.getLedgerPr(row.lock_key))!;
    const before = pull.head.sha;
    pull.head.sha = repo().refs.get(`heads/${row.branch}`)!;
    expect(rebuilt.ledger_commit).toBe(pull.head.sha);
    expect(rebuilt.ledger_commit).not.toBe(before);
    const res = await deliverAndWait(app.url, "pull_request", synchronize(pull, before));
    expect(res.outcome).toContain("the App's own commit");
    expect(pull.state).toBe("open");
    expect((await app.store.getLedgerPr(row.lock_key))?.state).toBe("opened");
    expect(repo().issueComments).toEqual([]);
    // A clean merge of the App's own head is a clean merge.
    const merged = await deliverAndWait(
      app.url,
      "pull_request",
      pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "closed", true),
    );
    expect(merged.outcome).toBe(`ledger PR ${row.freeze_id} merged`);
    expect(await app.store.getLedgerPr(row.lock_key)).toMatchObject({ state: "merged", outcome_code: null });
  });

  it("a base ledger change while a foreign push sits on the branch: the App does not move the branch over it; it closes the PR as tampered", async () => {
    const { row, pull } = await openedLedgerPr();
    const evil = world.fake.commit(REPO, { [LEDGER_PATH]: ledgerAt(pull.head.sha) + EVIL_ROW + "\n" }, { branch: row.branch });
    const newMain = world.fake.commit(REPO, { "x.txt": "x\n", [LEDGER_PATH]: ledgerAt("main") + "" }, { branch: "main" });
    const push = await deliverAndWait(
      app.url,
      "push",
      pushWebhook(world.fake, repo(), INSTALLATION, {
        ref: "refs/heads/main",
        after: newMain,
        commits: [{ added: [], modified: [LEDGER_PATH], removed: [] }],
      }),
    );
    expect(push.outcome).toContain("LEDGER_PR_TAMPERED");
    expect(repo().refs.get(`heads/${row.branch}`)).toBe(evil);
    expect(pull.state).toBe("closed");
    expect((await app.store.getLedgerPr(row.lock_key))?.outcome_code).toBe("LEDGER_PR_TAMPERED");
  });

  it("a retargeted ledger PR (edited, changes.base) is closed as LEDGER_PR_RETARGETED; an edit of its title is not a retarget", async () => {
    const { row, pull } = await openedLedgerPr();
    const title = await deliverAndWait(app.url, "pull_request", {
      ...pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "edited"),
      changes: { title: { from: "old" } },
    });
    expect(title.outcome).toBe("ledger PR edited (not retargeted)");
    expect((await app.store.getLedgerPr(row.lock_key))?.state).toBe("opened");
    world.fake.commit(REPO, { "dev.txt": "dev\n" }, { parent: repo().refs.get("heads/main")!, branch: "dev" });
    pull.base = { ref: "dev", sha: repo().refs.get("heads/dev")! };
    const res = await deliverAndWait(app.url, "pull_request", {
      ...pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "edited"),
      changes: { base: { ref: { from: "main" }, sha: { from: row.base_sha } } },
    });
    expect(res.outcome).toContain("LEDGER_PR_RETARGETED");
    expect(pull.state).toBe("closed");
    expect(repo().issueComments.at(-1)?.body).toContain("LEDGER_PR_RETARGETED");
    expect(await app.store.getLedgerPr(row.lock_key)).toMatchObject({ state: "closed", outcome_code: "LEDGER_PR_RETARGETED" });
    expect((await status()).refused_ledger_prs.map((p) => p.code)).toEqual(["LEDGER_PR_RETARGETED"]);
  });
});
