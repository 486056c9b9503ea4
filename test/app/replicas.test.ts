import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addRunA,
  completeRunB,
  deliver,
  dispatchedRuns,
  INSTALLATION,
  PG_URL,
  pgSchema,
  processEnv,
  REPO,
  startWorld,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";

describe("two App processes sharing PostgreSQL", () => {
  let world: World;
  let schema: Awaited<ReturnType<typeof pgSchema>>;
  let replicas: AppProcess[] = [];
  let env: (id: string) => NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld();
    schema = await pgSchema();
    env = (id) => processEnv(world.fake, { DATABASE_URL: PG_URL, ENVELOPE_GATE_PG_SCHEMA: schema.schema, ENVELOPE_GATE_REPLICA_ID: id });
    const promoted = await runCli(["app", "promote", "--installation", String(INSTALLATION)], env("cli"));
    expect(promoted.code).toBe(0);
    replicas = await Promise.all([startAppProcess(env("replica-1")), startAppProcess(env("replica-2"))]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await schema?.drop();
    await world?.close();
  });

  it("concurrent duplicate and redelivered webhooks dispatch runner B once and open exactly one ledger PR", async () => {
    const [one, two] = replicas as [AppProcess, AppProcess];
    const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    const payloadA = workflowRunPayload(world.fake, runA);
    // The same delivery to both replicas at once, plus a redelivery under a new id, also to both.
    const first = await Promise.all([
      deliver(one.url, "workflow_run", payloadA, { delivery: "a-1" }),
      deliver(two.url, "workflow_run", payloadA, { delivery: "a-1" }),
      deliver(one.url, "workflow_run", payloadA, { delivery: "a-2" }),
      deliver(two.url, "workflow_run", payloadA, { delivery: "a-2" }),
    ]);
    // Each id is done once; its twin is answered 409 DELIVERY_IN_PROGRESS while the work runs (so
    // GitHub keeps it undelivered), or 200 duplicate once it is done. Never a second 200 done.
    expect(first.filter((r) => r.status === 200 && r.body.status === "done")).toHaveLength(2);
    for (const twin of first.filter((r) => r.body.status !== "done")) {
      if (twin.status === 409) expect((twin.body.error as { code: string }).code).toBe("DELIVERY_IN_PROGRESS");
      else expect(twin).toMatchObject({ status: 200, body: { status: "duplicate" } });
    }
    expect(dispatchedRuns(world.fake)).toHaveLength(1);

    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    const payloadB = workflowRunPayload(world.fake, runB);
    const second = await Promise.all(
      ["b-1", "b-1", "b-2", "b-2", "b-3", "b-3"].map((id, i) =>
        deliver((i % 2 ? two : one).url, "workflow_run", payloadB, { delivery: id }),
      ),
    );
    expect(second.filter((r) => r.status === 200 && r.body.status === "done")).toHaveLength(3);
    expect(second.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const repo = world.fake.repo(REPO);
    expect(repo.pulls.size).toBe(1);
    expect([...repo.refs.keys()].filter((r) => r.startsWith("heads/envelope-gate/freeze/"))).toHaveLength(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls")).toHaveLength(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/git/refs")).toHaveLength(1);

    // A re-run of A for the same head fails again: a second dual run, but the same
    // (property, envelope hash, head sha) never gets a second PR.
    const rerun = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    await Promise.all([
      deliver(one.url, "workflow_run", workflowRunPayload(world.fake, rerun)),
      deliver(two.url, "workflow_run", workflowRunPayload(world.fake, rerun)),
    ]);
    const runB2 = dispatchedRuns(world.fake)[1]!;
    completeRunB(world.fake, runB2, { properties: [{ name: "schema_key_order", result: "pass" }], machineId: "machine-cccc3333" });
    const third = await Promise.all([
      deliver(one.url, "workflow_run", workflowRunPayload(world.fake, runB2)),
      deliver(two.url, "workflow_run", workflowRunPayload(world.fake, runB2)),
    ]);
    expect(third.map((r) => r.status)).toEqual([200, 200]); // two ids, each done once
    expect(repo.pulls.size).toBe(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls")).toHaveLength(1);
  });

  it("a pause from the CLI reaches every replica at once; each refuses to send", async () => {
    const paused = await runCli(["app", "pause", "--reason", "replica drill"], env("cli"));
    expect(paused.code).toBe(0);
    for (const r of replicas) {
      const health = (await (await fetch(`${r.url}/healthz`)).json()) as { paused: boolean };
      expect(health.paused).toBe(true);
    }
    const before = world.fake.requests.length;
    const runA = addRunA(world.fake, { properties: [{ name: "output_shape", result: "fail" }] }, { headSha: "d".repeat(40) });
    const res = await deliver(replicas[1]!.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("queued");
    expect(world.fake.requests.length).toBe(before);
    const status = JSON.parse((await runCli(["app", "status"], env("cli"))).stdout) as { kill_switch: { paused: boolean; reason: string } };
    expect(status.kill_switch).toMatchObject({ paused: true, reason: "replica drill" });
    expect((await runCli(["app", "resume", "--reason", "drill over"], env("cli"))).code).toBe(0);
  });
});
