/**
 * Issue 18, items 1 and 6: runner A and runner B are what GitHub's API says they are, never
 * what the webhook payload or the evidence bundle claims. Each attack is performed against the
 * App (its real HTTP server, SQLite, the fake GitHub held to GitHub's description), beside a
 * clean twin that still leads to a dual run and a freeze proposal.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { bundleFiles, type DispatchMode } from "../support/fake-github-app.js";
import type { FakeWorkflowRun } from "../support/fake-github.js";
import {
  addRunA,
  commitAs,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  ENVELOPE_HASH,
  GATE_WORKFLOW,
  GATE_WORKFLOW_PATH,
  HEAD_SHA,
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

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const PASSING = [{ name: "schema_key_order", result: "pass" as const }];

let world: World;
let app: RunningApp;
afterEach(async () => {
  await app?.close();
  await world?.close();
});

async function start(mode: DispatchMode = "run_details") {
  world = await startWorld(mode);
  app = await startTestApp(world.fake, new TestClock(Date.now()));
}

/** A run with a bundle in the pinned format, whatever the run is. */
function withEvidence(
  run: FakeWorkflowRun,
  spec: { properties: { name: string; result: "pass" | "fail" }[]; dualRunId?: string; pullNumber?: number; machineId?: string },
) {
  world.fake.addArtifact(REPO, {
    run_id: run.id,
    name: "envelope-gate-evidence",
    files: bundleFiles({
      machineId: spec.machineId ?? "machine-ffff0000",
      headSha: run.head_sha,
      envelopeHash: ENVELOPE_HASH,
      repository: REPO,
      workflowRunId: run.id,
      ...spec,
    }),
  });
  return run;
}

async function status(): Promise<{ refused_runs: { run_id: number; role: string; code: string; reason: string }[] }> {
  return (await (await fetch(`${app.url}/status.json`)).json()) as never;
}

describe("runner A is a pull_request run of the base's workflow file on the pull request's current head (item 1)", () => {
  it("clean twin: a real runner A records the pull request GitHub names (not the bundle's) and dispatches runner B", async () => {
    await start();
    const runA = addRunA(world.fake, { properties: FAILING, pullNumber: 1234 });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA, 1234));
    expect(res.state, JSON.stringify(res)).toBe("done");
    expect(String(res.outcome)).toContain("runner B dispatched");
    const [dual] = await app.store.listDualRuns(["waiting"]);
    expect(dual).toMatchObject({ pull_number: 7, head_sha: HEAD_SHA, base_ref: "main" });
    expect(world.fake.repo(REPO).dispatches[0]?.inputs.pull_request).toBe("7");
    expect((await status()).refused_runs).toEqual([]);
  });

  it("attack: a workflow_dispatch run from agent/evil that concluded success, its bundle naming pull request 1234, is not runner A", async () => {
    await start();
    const base = world.fake.repo(REPO).refs.get("heads/main")!;
    commitAs(world.fake, "e".repeat(40), { "evil.txt": "x" }, base, "agent/evil");
    for (const conclusion of ["success", "failure"]) {
      const evil = withEvidence(
        world.fake.addWorkflowRun(REPO, { head_sha: "e".repeat(40), head_branch: "agent/evil", event: "workflow_dispatch", conclusion }),
        { properties: FAILING, pullNumber: 1234 },
      );
      const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, evil, null));
      expect(res.state).toBe("done");
      expect(String(res.outcome)).toContain("RUNNER_A_EVENT_REFUSED");
    }
    expect(world.fake.repo(REPO).dispatches).toEqual([]);
    expect(await app.store.listDualRuns(["pending", "dispatching", "waiting", "decided", "done"])).toEqual([]);
    const refused = (await status()).refused_runs;
    expect(refused).toHaveLength(2);
    expect(refused.every((r) => r.role === "runner_a" && r.code === "RUNNER_A_EVENT_REFUSED")).toBe(true);
    const html = await (await fetch(`${app.url}/status`)).text();
    expect(html).toContain("Runs refused as runner A or B");
    expect(html).toContain("RUNNER_A_EVENT_REFUSED");
  });

  it("attack: a pull request that edits the gate workflow (its own copy ran) is not runner A", async () => {
    await start();
    const edited = GATE_WORKFLOW.replace("uses: envelope-gate/envelope-gate@v1", "run: echo skip the gate");
    pullAt(world.fake, "9".repeat(40), { [GATE_WORKFLOW_PATH]: edited });
    const runA = addRunA(world.fake, { properties: FAILING }, { headSha: "9".repeat(40) });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("RUNNER_A_WORKFLOW_CHANGED");
    expect(world.fake.repo(REPO).dispatches).toEqual([]);
    expect((await status()).refused_runs).toEqual([expect.objectContaining({ run_id: runA.id, code: "RUNNER_A_WORKFLOW_CHANGED" })]);
  });

  it("attack: with `uses: ./`, a pull request that changes the Action's dist/ is not runner A; one that changes only its code is", async () => {
    await start();
    const local = GATE_WORKFLOW.replace("uses: envelope-gate/envelope-gate@v1", "uses: ./");
    const main = world.fake.commit(
      REPO,
      { [GATE_WORKFLOW_PATH]: local, "action.yml": "runs: { using: node24, main: dist/index.js }\n", "dist/index.js": "gate();\n" },
      { branch: "main", message: "the Action in the repository" },
    );
    expect(world.fake.repo(REPO).refs.get("heads/main")).toBe(main);
    pullAt(world.fake, "8".repeat(40), { "dist/index.js": "process.exit(0);\n" });
    const forged = addRunA(world.fake, { properties: FAILING }, { headSha: "8".repeat(40) });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, forged));
    expect(String(res.outcome)).toContain("RUNNER_A_WORKFLOW_CHANGED");
    expect(String(res.outcome)).toContain("dist/index.js");
    const clean = addRunA(world.fake, { properties: FAILING }, { headSha: "7".repeat(40) });
    const ok = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, clean));
    expect(String(ok.outcome)).toContain("runner B dispatched");
    expect(world.fake.repo(REPO).dispatches).toHaveLength(1);
  });

  it("a run for a head the pull request has left, or of a closed pull request, is not runner A", async () => {
    await start();
    const runA = addRunA(world.fake, { properties: FAILING });
    const pull = pullAt(world.fake, HEAD_SHA);
    pull.head.sha = commitAs(world.fake, "6".repeat(40), { "later.txt": "y" }, HEAD_SHA, pull.head.ref);
    const moved = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(String(moved.outcome)).toContain("RUNNER_A_NOT_CURRENT_HEAD");
    pull.head.sha = HEAD_SHA;
    pull.state = "closed";
    const closed = await deliverAndWait(
      app.url,
      "workflow_run",
      workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })),
    );
    expect(String(closed.outcome)).toContain("RUNNER_A_NOT_CURRENT_HEAD");
    expect(world.fake.repo(REPO).dispatches).toEqual([]);
  });

  it("a fork pull request's run and a pull_request_target run are not runner A", async () => {
    await start();
    pullAt(world.fake, HEAD_SHA);
    const fork = withEvidence(
      world.fake.addWorkflowRun(REPO, {
        head_sha: HEAD_SHA,
        head_branch: "agent/patch-1",
        event: "pull_request",
        conclusion: "failure",
        head_repository: "mallory/widgets",
      }),
      { properties: FAILING },
    );
    const a = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, fork));
    expect(String(a.outcome)).toContain("RUNNER_A_UNVERIFIED");
    expect(String(a.outcome)).toContain("fork");
    const target = withEvidence(
      world.fake.addWorkflowRun(REPO, {
        head_sha: HEAD_SHA,
        head_branch: "agent/patch-1",
        event: "pull_request_target",
        conclusion: "failure",
      }),
      { properties: FAILING },
    );
    const b = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, target));
    expect(String(b.outcome)).toContain("RUNNER_A_EVENT_REFUSED");
    expect(world.fake.repo(REPO).dispatches).toEqual([]);
  });

  it("GitHub unreachable while verifying: nothing is decided, the delivery fails and is retried", async () => {
    await start();
    const runA = addRunA(world.fake, { properties: FAILING });
    world.fake.fail("GET", "/repos/:owner/:repo/pulls/:pull_number", 503, { times: 1 });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).not.toBe("done");
    expect(res.code).toBe("GITHUB_UNAVAILABLE");
    expect(world.fake.repo(REPO).dispatches).toEqual([]);
    expect((await status()).refused_runs).toEqual([]);
  });
});

describe("runner B is the App's own dispatch, also in correlation mode (attack 6)", () => {
  /** Runner A fails; B is dispatched (GitHub returns no run id). */
  async function dualRunWaiting() {
    await start("no_content");
    const runA = addRunA(world.fake, { properties: FAILING });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).toBe("done");
    const [dual] = await app.store.listDualRuns(["waiting"]);
    expect(dual).toMatchObject({ dispatch_mode: "correlation", run_b_id: null, base_sha: world.fake.repo(REPO).refs.get("heads/main") });
    return dual!;
  }

  /** Mallory dispatches the gate workflow on main herself, naming the dual run id, with a bundle that passes. */
  function impostor(dualRunId: string): FakeWorkflowRun {
    const run = world.fake.addWorkflowRun(REPO, {
      head_sha: world.fake.repo(REPO).refs.get("heads/main")!,
      head_branch: "main",
      event: "workflow_dispatch",
      status: "completed",
      conclusion: "success",
      inputs: { pull_request: "7", head_sha: HEAD_SHA, dual_run_id: dualRunId, runner_labels: "[]" },
      actor: "mallory",
    });
    return withEvidence(run, { properties: PASSING, dualRunId, machineId: "machine-cccc3333" });
  }

  it("attack: a workflow_dispatch run by another user on the base branch naming the dual run id is not compared (webhook and sweeper)", async () => {
    const dual = await dualRunWaiting();
    const forged = impostor(dual.id);
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, forged, null));
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("RUNNER_B_UNVERIFIED");
    expect(String(res.outcome)).toContain("mallory");
    expect(await app.store.getDualRun(dual.id)).toMatchObject({ state: "waiting", run_b_id: null, outcome: null });
    // The sweeper's correlation passes over it too; the real runner B (still queued) is the one it records.
    const sweep = await app.sweep();
    expect(sweep.compared).toEqual([]);
    const real = dispatchedRuns(world.fake).find((r) => r.actor !== "mallory")!;
    expect((await app.store.getDualRun(dual.id))?.run_b_id).toBe(real.id);
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")).toBeUndefined();
    const s = await status();
    expect(s.refused_runs).toEqual([expect.objectContaining({ run_id: forged.id, role: "runner_b", code: "RUNNER_B_UNVERIFIED" })]);
    // Clean twin: the App's own dispatch completes and is compared.
    completeRunB(world.fake, real, { properties: PASSING });
    const ok = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, real, null));
    expect(String(ok.outcome)).toContain("freeze_eligible");
  });

  it("attack: an impostor that is the only candidate is never recorded as runner B by the sweeper", async () => {
    const dual = await dualRunWaiting();
    // The real dispatch never shows up (its run is gone); only the impostor lists.
    const repo = world.fake.repo(REPO);
    repo.workflowRuns = repo.workflowRuns.filter(
      (r) => !(r.event === "workflow_dispatch" && r.actor !== undefined && r.actor !== "mallory"),
    );
    impostor(dual.id);
    const sweep = await app.sweep();
    expect(sweep.correlated).toEqual([]);
    expect((await app.store.getDualRun(dual.id))?.run_b_id).toBeNull();
  });

  it("a dispatch on a base commit other than the one recorded is not runner B (the base moved after the dispatch)", async () => {
    const dual = await dualRunWaiting();
    const real = dispatchedRuns(world.fake)[0]!;
    real.head_sha = world.fake.commit(REPO, { "moved.txt": "z" }, { branch: "main" });
    completeRunB(world.fake, real, { properties: PASSING });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, real, null));
    expect(String(res.outcome)).toContain("RUNNER_B_UNVERIFIED");
    expect((await app.store.getDualRun(dual.id))?.state).toBe("waiting");
  });
});

describe("against the App process (envelope-gate app start, SQLite), correlation mode", () => {
  let proc: AppProcess | null = null;
  afterEach(async () => {
    await proc?.stop();
    proc = null;
  });

  it("attack 1 and attack 6 are refused by the running App; the real runner A and B still lead to a freeze proposal", async () => {
    world = await startWorld("no_content");
    app = { close: async () => undefined } as unknown as RunningApp;
    proc = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") }));
    const base = world.fake.repo(REPO).refs.get("heads/main")!;
    commitAs(world.fake, "e".repeat(40), { "evil.txt": "x" }, base, "agent/evil");
    const evil = withEvidence(
      world.fake.addWorkflowRun(REPO, {
        head_sha: "e".repeat(40),
        head_branch: "agent/evil",
        event: "workflow_dispatch",
        conclusion: "success",
      }),
      { properties: FAILING, pullNumber: 1234 },
    );
    const refusedA = await deliverAndWait(proc.url, "workflow_run", workflowRunPayload(world.fake, evil, null));
    expect(String(refusedA.outcome)).toContain("RUNNER_A_EVENT_REFUSED");
    expect(world.fake.repo(REPO).dispatches).toEqual([]);

    const runA = addRunA(world.fake, { properties: FAILING });
    const started = await deliverAndWait(proc.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(String(started.outcome)).toContain("runner B dispatched (correlation)");
    const real = dispatchedRuns(world.fake).find((r) => r.inputs?.dual_run_id)!;
    const dualRunId = real.inputs!.dual_run_id!;
    const forged = world.fake.addWorkflowRun(REPO, {
      head_sha: base,
      head_branch: "main",
      event: "workflow_dispatch",
      conclusion: "success",
      inputs: { ...real.inputs! },
      actor: "mallory",
    });
    withEvidence(forged, { properties: PASSING, dualRunId, machineId: "machine-cccc3333" });
    const refusedB = await deliverAndWait(proc.url, "workflow_run", workflowRunPayload(world.fake, forged, null));
    expect(String(refusedB.outcome)).toContain("RUNNER_B_UNVERIFIED");
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")).toBeUndefined();

    completeRunB(world.fake, real, { properties: PASSING });
    const compared = await deliverAndWait(proc.url, "workflow_run", workflowRunPayload(world.fake, real, null));
    expect(String(compared.outcome)).toContain("freeze_eligible");
    expect(world.fake.checkRun(REPO, "envelope-gate (dual run)")?.output.title).toContain("Shadow mode");
    const s = (await (await fetch(`${proc.url}/status.json`)).json()) as { refused_runs: { run_id: number; code: string }[] };
    expect(s.refused_runs.map((r) => [r.run_id, r.code]).sort()).toEqual(
      [
        [evil.id, "RUNNER_A_EVENT_REFUSED"],
        [forged.id, "RUNNER_B_UNVERIFIED"],
      ].sort(),
    );
  });
});
