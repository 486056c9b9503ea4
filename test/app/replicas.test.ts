import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addRunA,
  completeRunB,
  deliver,
  deliverAndWait,
  settledState,
  type WebhookResponse,
  dispatchedRuns,
  INSTALLATION,
  ledgerPulls,
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
    // Each id is claimed once (202 queued, worked on by that replica); its twin is 202 in_progress
    // while the work runs, or 200 duplicate once it is done. Every answer is a 2xx (GitHub's log
    // stays green) and none is a second claim.
    expect(claims(first)).toEqual({ "a-1": 1, "a-2": 1 });
    for (const twin of first.filter((r) => r.body.status !== "queued")) {
      if (twin.status === 202) expect(twin.body.status).toBe("in_progress");
      else expect(twin).toMatchObject({ status: 200, body: { status: "duplicate" } });
    }
    for (const id of ["a-1", "a-2"]) expect(await settledState(one.url, id)).toMatchObject({ state: "done", attempts: 1 });
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    // The App's verified check: one per run attempt, whichever replica or delivery got there.
    const verified = () => world.fake.repo(REPO).checkRuns.filter((c) => c.name === "envelope-gate / verified");
    const ofRun = (c: { output: { summary: string | null } }) => /\(run (\d+), attempt 1,/.exec(c.output.summary ?? "")?.[1];
    expect(
      verified().map((c) => [ofRun(c), c.conclusion]),
      JSON.stringify(verified().map((c) => [c.id, c.head_sha, c.output.summary])),
    ).toEqual([[String(runA.id), "failure"]]);

    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    const payloadB = workflowRunPayload(world.fake, runB);
    const second = await Promise.all(
      ["b-1", "b-1", "b-2", "b-2", "b-3", "b-3"].map((id, i) =>
        deliver((i % 2 ? two : one).url, "workflow_run", payloadB, { delivery: id }),
      ),
    );
    expect(claims(second)).toEqual({ "b-1": 1, "b-2": 1, "b-3": 1 });
    expect(second.every((r) => r.status === 200 || r.status === 202)).toBe(true);
    for (const id of ["b-1", "b-2", "b-3"]) expect(await settledState(two.url, id)).toMatchObject({ state: "done", attempts: 1 });
    const repo = world.fake.repo(REPO);
    expect(ledgerPulls(world.fake).length).toBe(1);
    expect([...repo.refs.keys()].filter((r) => r.startsWith("heads/envelope-gate/freeze/"))).toHaveLength(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/pulls")).toHaveLength(1);
    expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/git/refs")).toHaveLength(1);

    // A re-run of A for the same head fails again: a second dual run, but the same
    // (property, envelope hash, head sha) never gets a second PR.
    const rerun = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    await Promise.all([
      deliverAndWait(one.url, "workflow_run", workflowRunPayload(world.fake, rerun)),
      deliverAndWait(two.url, "workflow_run", workflowRunPayload(world.fake, rerun)),
    ]);
    const runB2 = dispatchedRuns(world.fake)[1]!;
    completeRunB(world.fake, runB2, { properties: [{ name: "schema_key_order", result: "pass" }], machineId: "machine-cccc3333" });
    const third = await Promise.all([
      deliverAndWait(one.url, "workflow_run", workflowRunPayload(world.fake, runB2)),
      deliverAndWait(two.url, "workflow_run", workflowRunPayload(world.fake, runB2)),
    ]);
    expect(third.map((r) => r.state)).toEqual(["done", "done"]); // two ids, each done once
    expect(verified().map(ofRun)).toEqual([String(runA.id), String(rerun.id)]);
    expect(ledgerPulls(world.fake).length).toBe(1);
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
    expect(res).toMatchObject({ status: 202, body: { status: "queued" } });
    expect(await settledState(replicas[1]!.url, String(res.body.delivery))).toMatchObject({ state: "queued", code: "KILL_SWITCH_ENGAGED" });
    expect(world.fake.requests.length).toBe(before);
    const status = JSON.parse((await runCli(["app", "status"], env("cli"))).stdout) as { kill_switch: { paused: boolean; reason: string } };
    expect(status.kill_switch).toMatchObject({ paused: true, reason: "replica drill" });
    expect((await runCli(["app", "resume", "--reason", "drill over"], env("cli"))).code).toBe(0);
  });
});

/** How many answers claimed each delivery id (202 queued: recorded and worked on by the replica that answered). */
function claims(answers: WebhookResponse[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers)
    if (a.status === 202 && a.body.status === "queued") out[String(a.body.delivery)] = (out[String(a.body.delivery)] ?? 0) + 1;
  return out;
}
