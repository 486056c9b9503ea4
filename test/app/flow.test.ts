import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { buildManifest } from "../../src/core/evidence.js";
import { gitSha } from "../support/fake-github.js";
import { defaultFingerprint } from "../support/fake-github-app.js";
import { contentJson } from "../support/fake-shapes.js";
import { shownText } from "../support/gfm.js";
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
  pullAt,
  EMPTY_LEDGER,
  LEDGER_PATH,
  REPO,
  startTestApp,
  startWorld,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";

const FAILING = [
  { name: "schema_key_order", result: "fail" as const },
  { name: "tests_collected", result: "pass" as const },
];

function ledgerAt(world: World, ref: string): string {
  return Buffer.from(world.fake.filesAt(world.fake.repo(REPO), ref).get(LEDGER_PATH) as Uint8Array).toString("utf8");
}

describe("App flow: runner A fails a property, runner B decides (SQLite, in-process)", () => {
  let world: World;
  let app: RunningApp;
  let clock: TestClock;

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock();
    app = await startTestApp(world.fake, clock);
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  async function runAFails(): Promise<{ dualRunId: string }> {
    const runA = addRunA(world.fake, { properties: FAILING });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).toBe("done");
    const runs = dispatchedRuns(world.fake);
    expect(runs).toHaveLength(1);
    return { dualRunId: (runs[0]?.inputs?.dual_run_id as string) ?? "" };
  }

  async function runBCompletes(properties: { name: string; result: "pass" | "fail" | "error" }[], extra: Record<string, unknown> = {}) {
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties, ...extra });
    return deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
  }

  it("a repository event names the installation's account by the repository's owner (GitHub sends installation as {id, node_id})", async () => {
    const payload = workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING }));
    expect(payload.installation).toEqual({ id: INSTALLATION, node_id: expect.any(String) });
    const settled = await deliverAndWait(app.url, "workflow_run", payload);
    expect(settled, JSON.stringify(settled)).toMatchObject({ state: "done" });
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as {
      installations: { installation_id: number; account: string | null }[];
    };
    expect(status.installations).toEqual([expect.objectContaining({ installation_id: INSTALLATION, account: "acme" })]);
  });

  it("dispatches runner B with the pinned inputs and records the run id GitHub returned", async () => {
    const { dualRunId } = await runAFails();
    const dispatch = world.fake.repo(REPO).dispatches[0]!;
    expect(dispatch.workflow_id).toBe("envelope-gate.yml");
    expect(dispatch.ref).toBe("main");
    expect(dispatch.inputs).toEqual({
      pull_request: "7",
      head_sha: HEAD_SHA,
      dual_run_id: dualRunId,
      runner_labels: JSON.stringify(["self-hosted", "runner-b"]),
    });
    const dual = await app.store.getDualRun(dualRunId);
    expect(dual?.state).toBe("waiting");
    expect(dual?.dispatch_mode).toBe("run_details");
    expect(dual?.run_b_id).toBe(dispatchedRuns(world.fake)[0]!.id);
    expect(dual?.deadline_at).toBe(clock.now() + 60 * 60_000);
    expect(JSON.parse(dual?.properties ?? "[]")).toEqual(["schema_key_order"]);
  });

  it("shadow mode (new installation): a disagreement yields a neutral check with the would-be PR, and no PR", async () => {
    const { dualRunId } = await runAFails();
    const res = await runBCompletes([
      { name: "schema_key_order", result: "pass" },
      { name: "tests_collected", result: "pass" },
    ]);
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("freeze_eligible");
    const repo = world.fake.repo(REPO);
    expect(ledgerPulls(world.fake).length).toBe(0);
    expect([...repo.refs.keys()].filter((r) => r.startsWith("heads/envelope-gate/"))).toEqual([]);
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.title).toContain("Shadow mode");
    expect(shownText(check?.output.summary)).toContain("would open a ledger PR for schema_key_order");
    expect(check?.head_sha).toBe(HEAD_SHA);
    expect(shownText(check?.output.text)).toContain("Would open: envelope-gate: freeze schema_key_order until 2026-12-07");
    expect(check?.output.text).toContain("| `schema_key_order` | fail | pass |");
    const shadowed = await app.store.listLedgerPrs(["shadowed"]);
    expect(shadowed).toHaveLength(1);
    expect(shadowed[0]?.dual_run_id).toBe(dualRunId);
    expect(shadowed[0]?.row_text.split("\t")).toHaveLength(8);
    expect((await app.store.getDualRun(dualRunId))?.state).toBe("done");
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as Record<string, unknown[]>;
    expect(status.shadow_proposals).toHaveLength(1);
    expect(status.installations).toEqual([expect.objectContaining({ installation_id: INSTALLATION, mode: "shadow" })]);
  });

  it("promoted installation: one ledger PR with the row, expiry, both runs and review requested", async () => {
    expect(await app.store.promoteInstallation(INSTALLATION, "ops", clock.now())).toBe(false); // unknown yet
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    expect(await app.store.promoteInstallation(INSTALLATION, "ops", clock.now())).toBe(true);
    await runAFails();
    const res = await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    expect(res.state).toBe("done");
    expect(ledgerPulls(world.fake).length).toBe(1);
    const pull = ledgerPulls(world.fake)[0]!;
    expect(pull.base.ref).toBe("main");
    expect(pull.head.ref).toMatch(/^envelope-gate\/freeze\/schema_key_order-[0-9a-f]{20}$/);
    expect(pull.requested_reviewers).toEqual(["alice"]);
    expect(pull.files).toEqual([{ filename: LEDGER_PATH, status: "modified" }]);
    const ledger = ledgerAt(world, pull.head.sha);
    const lines = ledger.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const cells = lines[1]!.split("\t");
    expect(cells[0]).toMatch(/^F-[0-9a-f]{12}$/);
    // The scope: runner A's failure of the property, by the fingerprint its evidence recorded.
    expect(cells[1]).toBe(`schema_key_order#${defaultFingerprint("schema_key_order")}`);
    expect(cells[2]).toMatch(/^run-\d+@machine-aaaa1111$/);
    expect(cells[3]).toMatch(/^run-\d+@machine-bbbb2222$/);
    expect(cells[4]).toBe(ENVELOPE_HASH);
    expect(cells[5]).toBe("2026-12-07"); // 2026-11-30 + 7 days
    expect(cells[6]).toBe("open");
    expect(cells[7]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(pull.body).toContain("machine-aaaa1111");
    expect(pull.body).toContain("machine-bbbb2222");
    expect(pull.body).toContain("| `schema_key_order` | fail | pass |");
    expect(pull.body).toContain(cells[0]!);
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.summary).toContain(`/pull/${pull.number}`);
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as Record<string, unknown[]>;
    expect(status.open_ledger_prs).toEqual([expect.objectContaining({ freeze_id: cells[0], waiting_hours: 0, overdue: false })]);
  });

  it("the TTL is capped", async () => {
    await app.close();
    app = await startTestApp(world.fake, clock, { freezeTtlDays: 30, freezeTtlCapDays: 14 });
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    const pull = ledgerPulls(world.fake)[0]!;
    expect(ledgerAt(world, pull.head.sha)).toContain("\t2026-12-14\topen\t");
  });

  it("both runners fail the property: no freeze, a failing check", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    const res = await runBCompletes([{ name: "schema_key_order", result: "fail" }]);
    expect(String(res.outcome)).toContain("both_fail");
    expect(ledgerPulls(world.fake).length).toBe(0);
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("failure");
    expect(check?.output.title).toBe("Both runners fail: no freeze");
  });

  it("runner B's envelope has violations while A's is clean: observer broken, no freeze", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    const res = await runBCompletes([{ name: "schema_key_order", result: "pass" }], {
      verdict: "envelope_fail",
      violations: [{ id: "undeclared_env:HOME", rule: "undeclared_env", subject: "HOME", first_line: 3, count: 1 }],
    });
    expect(String(res.outcome)).toContain("observer_disagreement");
    expect(ledgerPulls(world.fake).length).toBe(0);
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("failure");
    expect(check?.output.summary).toContain("OBSERVER_DISAGREEMENT");
    expect(check?.output.summary).toContain("observer is broken");
  });

  it("runner B on runner A's machine: RUNNER_B_UNAVAILABLE, no freeze", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const { dualRunId } = await runAFails();
    await runBCompletes([{ name: "schema_key_order", result: "pass" }], { machineId: "machine-aaaa1111" });
    expect(ledgerPulls(world.fake).length).toBe(0);
    const dual = await app.store.getDualRun(dualRunId);
    expect(dual?.outcome_code).toBe("RUNNER_B_UNAVAILABLE");
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")?.conclusion).toBe("failure");
  });

  it("runner B under another envelope hash: DUAL_RUN_MISMATCH, no freeze", async () => {
    const { dualRunId } = await runAFails();
    await runBCompletes([{ name: "schema_key_order", result: "pass" }], { envelopeHash: `sha256:${"cd".repeat(32)}` });
    expect((await app.store.getDualRun(dualRunId))?.outcome_code).toBe("DUAL_RUN_MISMATCH");
    expect(await app.store.listLedgerPrs(["claimed", "shadowed", "opened"])).toEqual([]);
  });

  it("a tampered evidence bundle: EVIDENCE_DIGEST_MISMATCH, no freeze", async () => {
    const { dualRunId } = await runAFails();
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === runB.id)!;
    artifact.files["properties.json"] = new TextEncoder().encode('{"version":1,"properties":[]}\n');
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
    const dual = await app.store.getDualRun(dualRunId);
    expect(dual?.outcome_code).toBe("EVIDENCE_DIGEST_MISMATCH");
    expect(await app.store.listLedgerPrs(["claimed", "shadowed", "opened"])).toEqual([]);
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")?.output.title).toBe("Evidence could not be verified: no freeze");
  });

  it("an envelope failure on runner A never schedules runner B", async () => {
    const runA = addRunA(world.fake, {
      properties: FAILING,
      verdict: "envelope_fail",
      violations: [{ id: "write_outside_root:/etc/passwd", rule: "write_outside_root", subject: "/etc/passwd", first_line: 2, count: 1 }],
    });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("envelope failures are never frozen");
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
  });

  it("a missed deadline: RUNNER_B_UNAVAILABLE, no freeze, and B's late completion is not compared", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const { dualRunId } = await runAFails();
    clock.advance(59 * 60_000);
    expect((await app.sweep()).expired).toEqual([]);
    clock.advance(2 * 60_000);
    const report = await app.sweep();
    expect(report.expired).toEqual([dualRunId]);
    expect(report.reported).toEqual([dualRunId]);
    const dual = await app.store.getDualRun(dualRunId);
    expect(dual?.state).toBe("done");
    expect(dual?.outcome_code).toBe("RUNNER_B_UNAVAILABLE");
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("failure");
    expect(check?.output.summary).toContain("did not finish by the deadline");
    const late = await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    expect(late.state).toBe("done");
    expect(String(late.outcome)).toContain("not compared here");
    expect(ledgerPulls(world.fake).length).toBe(0);
    expect(await app.store.listLedgerPrs(["claimed", "shadowed", "opened"])).toEqual([]);
  });

  it("a pull_request run claiming a dual run id is not taken as runner B", async () => {
    const { dualRunId } = await runAFails();
    const forged = addRunA(world.fake, {
      properties: [{ name: "schema_key_order", result: "pass" }],
      dualRunId,
      machineId: "machine-ffff",
    });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, forged));
    expect(res.state).toBe("done");
    // Judged only as what GitHub says it is: a pull_request run (another runner A), never B.
    expect(String(res.outcome)).toContain("no dual run: no property failed");
    const dual = await app.store.getDualRun(dualRunId);
    expect(dual?.state).toBe("waiting");
    expect(dual?.run_b_id).toBe(dispatchedRuns(world.fake)[0]!.id);
  });

  it("a failing property already frozen on runner A does not schedule runner B", async () => {
    const runA = fakeRunWithFrozen();
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(String(res.outcome)).toContain("no dual run: no property failed");
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
  });

  it("a failing property that is not freezable (or names no failure scope) does not schedule runner B", async () => {
    for (const change of [{ freezable: false }, { failure_fingerprint: null }]) {
      const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
      const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === runA.id)!;
      const files = { ...artifact.files };
      const props = JSON.parse(Buffer.from(files["properties.json"]!).toString("utf8"));
      Object.assign(props.properties[0], change);
      files["properties.json"] = new TextEncoder().encode(JSON.stringify(props));
      artifact.files = rebuildManifest(files);
      const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
      expect(String(res.outcome)).toContain("no dual run: the failing properties (schema_key_order) are not freezable");
    }
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
  });

  function fakeRunWithFrozen() {
    const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === runA.id)!;
    const files = { ...artifact.files };
    const props = JSON.parse(Buffer.from(files["properties.json"]!).toString("utf8"));
    props.properties[0].frozen_by = "F-000000000001";
    files["properties.json"] = new TextEncoder().encode(JSON.stringify(props));
    artifact.files = rebuildManifest(files);
    return runA;
  }

  it("runner A's evidence missing or unreadable: no dual run (EVIDENCE_UNAVAILABLE for an unreadable bundle)", async () => {
    const noArtifact = world.fake.addWorkflowRun(REPO, {
      head_sha: HEAD_SHA,
      head_branch: pullAt(world.fake, HEAD_SHA).head.ref,
      event: "pull_request",
      status: "completed",
      conclusion: "failure",
    });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, noArtifact));
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("no freeze without evidence");
    const broken = addRunA(world.fake, { properties: FAILING });
    const artifact = world.fake.repo(REPO).artifacts.find((a) => a.run_id === broken.id)!;
    artifact.files = { "runner.json": new TextEncoder().encode("{}") };
    const res2 = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, broken), { delivery: "broken-a" });
    expect(res2.state).not.toBe("done");
    expect(res2.code).toBe("EVIDENCE_DIGEST_MISMATCH");
    world.fake.route("GET", "/_fake_blob/:owner/:repo/:file", () => ({
      status: 200,
      body: new TextEncoder().encode("not a zip"),
      headers: { "content-type": "application/zip" },
    }));
    const res3 = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, broken), { delivery: "broken-b" });
    expect(res3.state).not.toBe("done");
    expect(res3.code).toBe("EVIDENCE_UNAVAILABLE");
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    expect(await app.store.listDualRuns(["pending", "waiting"])).toEqual([]);
  });

  it("GitHub failing mid-report: the PR is opened once, the check is retried by the sweeper", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const { dualRunId } = await runAFails();
    world.fake.fail("POST", "/repos/:owner/:repo/check-runs", 502, { times: 1 });
    const res = await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    expect(res.state).not.toBe("done");
    expect(res.code).toBe("GITHUB_UNAVAILABLE");
    expect((await app.store.getDualRun(dualRunId))?.state).toBe("decided");
    expect(ledgerPulls(world.fake).length).toBe(1);
    const report = await app.sweep();
    expect(report.reported).toEqual([dualRunId]);
    expect((await app.store.getDualRun(dualRunId))?.state).toBe("done");
    expect(ledgerPulls(world.fake).length).toBe(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls")).toHaveLength(1);
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")?.conclusion).toBe("neutral");
  });

  it("GitHub failing while the ledger PR is opened: the claim is released and the next attempt finishes it", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const { dualRunId } = await runAFails();
    world.fake.fail("POST", "/repos/:owner/:repo/pulls", 500, { times: 1 });
    const res = await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    expect(res.state).not.toBe("done");
    const claimed = await app.store.listLedgerPrs(["claimed"]);
    expect(claimed).toHaveLength(1);
    expect(ledgerPulls(world.fake).length).toBe(0);
    const report = await app.sweep();
    expect(report.reported).toEqual([dualRunId]);
    expect(ledgerPulls(world.fake).length).toBe(1);
    expect(await app.store.listLedgerPrs(["opened"])).toHaveLength(1);
    // The branch created by the first attempt was reused, not duplicated.
    expect([...world.fake.repo(REPO).refs.keys()].filter((r) => r.startsWith("heads/envelope-gate/freeze/"))).toHaveLength(1);
  });

  it("a ledger path that is not a file at the base commit: LEDGER_UNREADABLE, no PR", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    // The only contents read from here on is the ledger's: answer it with a directory listing.
    world.fake.route("GET", "/repos/:owner/:repo/contents/*path", (req) => ({
      status: 200,
      body: [
        contentJson(
          req.repo(),
          {
            type: "file",
            path: `${LEDGER_PATH}/freeze_ledger.tsv`,
            sha: gitSha("blob", EMPTY_LEDGER),
            size: EMPTY_LEDGER.length,
            ref: "main",
          },
          req.baseUrl,
        ),
      ],
    }));
    const res = await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    expect(res.state).not.toBe("done");
    expect(JSON.stringify(res)).toContain("LEDGER_UNREADABLE");
    expect(ledgerPulls(world.fake).length).toBe(0);
  });

  it("a dispatch GitHub refuses for another reason is GITHUB_UNAVAILABLE, and the dual run waits for a retry", async () => {
    world.fake.fail("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", 422, {
      times: 1,
      body: { message: "Workflow does not have 'workflow_dispatch' trigger" },
    });
    const runA = addRunA(world.fake, { properties: FAILING });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).not.toBe("done");
    expect(res.code).toBe("GITHUB_UNAVAILABLE");
    expect(await app.store.listDualRuns(["pending"])).toHaveLength(1);
    expect((await app.sweep()).dispatched).toHaveLength(1);
  });

  it("a redelivered webhook is a duplicate and sends nothing twice", async () => {
    const runA = addRunA(world.fake, { properties: FAILING });
    const payload = workflowRunPayload(world.fake, runA);
    const first = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-1" });
    const again = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-1" });
    expect(first.state).toBe("done");
    expect(again.answer.body.status).toBe("duplicate");
    // A different delivery of the same event (GitHub re-sent it) finds the dual run and does not dispatch again.
    const other = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-2" });
    expect(other.state).toBe("done");
    expect(world.fake.repo(REPO).dispatches).toHaveLength(1);
  });

  it("the ledger PR stays mergeable: a push changing the base ledger rebuilds its commit on the new base", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    const repo = world.fake.repo(REPO);
    const pull = ledgerPulls(world.fake)[0]!;
    const ourRow = ledgerAt(world, pull.head.ref).trimEnd().split("\n")[1]!;
    // Another freeze lands on main.
    const other = `F-0123456789ab\toutput_shape\trun-1@m1\trun-2@m2\t${ENVELOPE_HASH}\t2026-12-05\topen\tsha256:${"ef".repeat(32)}`;
    const newMain = world.fake.commit(
      REPO,
      { [LEDGER_PATH]: ledgerAt(world, "main") + other + "\n" },
      { branch: "main", message: "merge other freeze" },
    );
    const res = await deliverAndWait(
      app.url,
      "push",
      pushWebhook(world.fake, repo, INSTALLATION, {
        ref: "refs/heads/main",
        after: newMain,
        commits: [{ added: [], modified: [LEDGER_PATH], removed: [] }],
      }),
    );
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("rebased");
    const branchSha = repo.refs.get(`heads/${pull.head.ref}`)!;
    expect(repo.commits.get(branchSha)?.parents).toEqual([newMain]);
    expect(ledgerAt(world, branchSha).trimEnd().split("\n")).toEqual([
      "freeze_id\tproperty\trunner_a\trunner_b\tenvelope_hash\texpires_on\tstatus\tevidence",
      other,
      ourRow,
    ]);
    // A push that does not touch the ledger leaves the branch alone.
    const unrelated = world.fake.commit(REPO, { "README.md": "changed\n" }, { branch: "main" });
    const res2 = await deliverAndWait(
      app.url,
      "push",
      pushWebhook(world.fake, repo, INSTALLATION, {
        ref: "refs/heads/main",
        after: unrelated,
        commits: [{ added: [], modified: ["README.md"], removed: [] }],
      }),
    );
    expect(String(res2.outcome)).toBe("ledger unchanged on base");
    expect(repo.refs.get(`heads/${pull.head.ref}`)).toBe(branchSha);
  });

  it("merge and review events update the status page; an overdue review is reported loudly", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await runAFails();
    await runBCompletes([{ name: "schema_key_order", result: "pass" }]);
    const pull = ledgerPulls(world.fake)[0]!;
    clock.advance(49 * 3_600_000);
    const report = await app.sweep();
    expect(report.reviewAlerts).toHaveLength(1);
    expect(world.fake.repo(REPO).issueComments).toEqual([
      expect.objectContaining({ issue_number: pull.number, body: expect.stringContaining("waited 49 hours for review. @alice") }),
    ]);
    const html = await (await fetch(`${app.url}/status`)).text();
    expect(html).toContain("OVERDUE");
    expect((await app.sweep()).reviewAlerts).toHaveLength(0); // reported once
    const repo = world.fake.repo(REPO);
    expect(
      (await deliverAndWait(app.url, "pull_request_review", pullRequestReviewWebhook(world.fake, repo, pull, INSTALLATION, "alice"))).state,
    ).toBe("done");
    expect(
      (await deliverAndWait(app.url, "pull_request", pullRequestWebhook(world.fake, repo, pull, INSTALLATION, "closed", true))).state,
    ).toBe("done");
    const merged = await app.store.listLedgerPrs(["merged"]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.first_review_at).not.toBeNull();
    // 2026-11-30 + 49h = 2026-12-02; the freeze expires 2026-12-07: more than 3 days away.
    let status = (await (await fetch(`${app.url}/status.json`)).json()) as Record<string, unknown[]>;
    expect(status.freezes_expiring_soon).toEqual([]);
    clock.advance(3 * 86_400_000);
    status = (await (await fetch(`${app.url}/status.json`)).json()) as Record<string, unknown[]>;
    expect(status.freezes_expiring_soon).toEqual([
      expect.objectContaining({ property: "schema_key_order", expires_on: "2026-12-07", days_left: 2 }),
    ]);
  });
});

function rebuildManifest(files: Record<string, Uint8Array>): Record<string, Uint8Array> {
  const rest = new Map(Object.entries(files).filter(([n]) => n !== "manifest.json" && n !== "manifest.json.sha256"));
  const built = buildManifest(rest);
  return { ...Object.fromEntries(rest), "manifest.json": built.bytes, "manifest.json.sha256": new TextEncoder().encode(built.digestLine) };
}
