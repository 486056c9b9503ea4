import { afterEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { addRunA, deliver, deliverAndWait, startTestApp, startWorld, TestClock, workflowRunPayload, type World } from "./helpers.js";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text exposition format: every sample line, each belonging to a metric declared by # TYPE. */
function parseMetrics(text: string): Sample[] {
  const typed = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ")) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      typed.set(type[1] as string, type[2] as string);
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1] as string;
    const family = typed.has(name) ? name : name.replace(/_(bucket|sum|count)$/, "");
    if (!typed.has(family)) throw new Error(`${name} has no # TYPE line`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    const value = Number(m[3]);
    if (Number.isNaN(value) && m[3] !== "NaN") throw new Error(`not a number: ${line}`);
    samples.push({ name, labels, value });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

async function scrape(app: RunningApp): Promise<Sample[]> {
  const res = await fetch(`${app.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

describe("GET /metrics", () => {
  let world: World;
  const apps: RunningApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await world?.close();
  });

  it("counts real deliveries, refusals, store calls and runner B's budget, per App (two Apps in one process do not share counters)", async () => {
    world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock(Date.now()));
    apps.push(app);
    const other = await startTestApp(world.fake, new TestClock(Date.now()));
    apps.push(other);

    const runA = addRunA(world.fake, { properties: [{ name: "schema_key_order", result: "fail" }] });
    const done = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA));
    expect(done.state).toBe("done");
    expect(done.outcome).toContain("runner B dispatched");
    const forged = await deliver(app.url, "ping", { zen: "x", hook_id: 1 }, { secret: "not-the-secret-at-all" });
    expect(forged.status).toBe(401);

    const samples = await scrape(app);
    expect(value(samples, "envelope_gate_deliveries_received_total", { github_event: "workflow_run", answer: "queued" })).toBe(1);
    expect(value(samples, "envelope_gate_deliveries_processed_total", { github_event: "workflow_run", status: "done" })).toBe(1);
    expect(value(samples, "envelope_gate_webhook_refused_total", { code: "WEBHOOK_SIGNATURE_INVALID" })).toBe(1);
    expect(value(samples, "envelope_gate_runner_b_dispatches_used", { scope: "installation:77" })).toBe(1);
    expect(value(samples, "envelope_gate_runner_b_dispatches_left", { scope: "installation:77" })).toBe(99);
    expect(value(samples, "envelope_gate_budget_readable")).toBe(1);
    // Runner A's verified check: its property failed, so the gate run's verdict is a failure.
    expect(samples.filter((s) => s.name === "envelope_gate_verdicts_total").map((s) => [s.labels.conclusion, s.value])).toEqual([
      ["failure", 1],
    ]);
    expect(
      value(samples, "envelope_gate_store_operation_seconds_count", { operation: "claimDelivery", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(value(samples, "envelope_gate_process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === "envelope_gate_nodejs_heap_size_used_bytes")).toBe(true);

    const others = await scrape(other);
    expect(value(others, "envelope_gate_deliveries_received_total", { github_event: "workflow_run" })).toBeUndefined();
    expect(value(others, "envelope_gate_webhook_refused_total", { code: "WEBHOOK_SIGNATURE_INVALID" })).toBeUndefined();
  });

  it("a redelivery pass is counted", async () => {
    world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock(Date.now()));
    apps.push(app);
    await app.redeliver();
    const samples = await scrape(app);
    const passes = samples.filter((s) => s.name === "envelope_gate_redelivery_passes_total").reduce((n, s) => n + s.value, 0);
    expect(passes).toBe(1);
  });
});
