import { afterEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import {
  completeRunB,
  addRunA,
  deliverAndWait,
  dispatchedRuns,
  startTestApp,
  startWorld,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import type { DispatchMode } from "../support/fake-github-app.js";

/** GitHub versions without return_run_details: the App correlates runner B's run by its dual run id. */
describe.each<DispatchMode>(["no_content", "reject_key"])("dispatch without run details (%s)", (mode) => {
  let world: World;
  let app: RunningApp;
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  async function setup() {
    world = await startWorld(mode);
    app = await startTestApp(world.fake, new TestClock());
    const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.state).toBe("done");
    const dual = (await app.store.listDualRuns(["waiting"]))[0]!;
    expect(dual.dispatch_mode).toBe("correlation");
    expect(dual.run_b_id).toBeNull();
    return dual;
  }

  it("the sweeper finds runner B's run in the workflow's runs list, and picks up its completion without a webhook", async () => {
    const dual = await setup();
    const runB = dispatchedRuns(world.fake)[0]!;
    const first = await app.sweep();
    expect(first.correlated).toEqual([dual.id]);
    expect((await app.store.getDualRun(dual.id))?.run_b_id).toBe(runB.id);
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    const second = await app.sweep();
    expect(second.compared).toEqual([dual.id]);
    const done = await app.store.getDualRun(dual.id);
    expect(done).toMatchObject({ state: "done", outcome: "freeze_eligible" });
    expect(world.fake.checkRun("acme/widgets", "envelope-gate (dual run)")?.conclusion).toBe("neutral");
  });

  it("runner B's completion webhook is matched by the dual run id in its evidence", async () => {
    const dual = await setup();
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "fail" }] });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
    expect(res.state).toBe("done");
    expect(String(res.outcome)).toContain("both_fail");
    expect((await app.store.getDualRun(dual.id))?.run_b_id).toBe(runB.id);
  });
});
