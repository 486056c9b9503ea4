/**
 * GitHub really unavailable (a closed port where the App's API URL points, a GitHub Enterprise
 * Server address): a delivery whose GitHub calls fail says so at once, while the client still
 * retries, with the error and the configured API URL; never "processing, failures 0".
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../src/app/start.js";
import type { StatusSnapshot } from "../../src/app/status.js";
import { closedPort } from "../support/fake-github.js";
import {
  addRunA,
  baseConfig,
  deliver,
  deliveryState,
  silent,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type DeliveryState,
  type World,
} from "./helpers.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];

describe("GitHub down (the App's API URL a closed port)", () => {
  let world: World;
  let app: RunningApp;
  let apiUrl: string;

  beforeEach(async () => {
    world = await startWorld();
    apiUrl = `http://127.0.0.1:${await closedPort()}/api/v3`;
    // Two retries, 0.5 s then 2 s apart per request (nested in the token request's: about 30 s in all before the work fails).
    app = await startApp(
      baseConfig(world.fake, { githubApiUrl: apiUrl, githubRetries: 2, store: { sqlitePath: join(tempDir(), "app.sqlite") } }),
      { clock: new TestClock(), log: silent, sweeper: false, retryAfterMs: 500 },
    );
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  it("a delivery whose GitHub calls fail shows waiting on GitHub with the error at once, the hint naming the configured API URL", async () => {
    const runA = addRunA(world.fake, { properties: FAILING });
    const answer = await deliver(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "down-1" });
    expect(answer.status).toBe(202);
    const started = performance.now();
    // While the client still retries (well within one sweep interval): waiting on GitHub, with the error.
    let seen: (DeliveryState & { waiting_on?: string | null; action?: string | null }) | null = null;
    for (let i = 0; i < 60 && seen?.code !== "GITHUB_UNAVAILABLE"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await deliveryState(app.url, "down-1");
    }
    const shownAfterMs = performance.now() - started;
    expect(seen).toMatchObject({ state: "processing", failures: 0, code: "GITHUB_UNAVAILABLE", waiting_on: "github" });
    expect(seen?.message).toContain(`waiting on GitHub at ${apiUrl}`);
    expect(seen?.message).toContain("ECONNREFUSED");
    expect(seen?.action).toContain(apiUrl);
    expect(seen?.action).not.toContain("githubstatus.com");
    expect(shownAfterMs).toBeLessThan(3_000);

    const status = (await (await fetch(`${app.url}/status.json`)).json()) as StatusSnapshot;
    expect(status.github_api_url).toBe(apiUrl);
    expect(status.deliveries.failed).toEqual([
      expect.objectContaining({ delivery_id: "down-1", state: "processing", waiting_on: "github", code: "GITHUB_UNAVAILABLE" }),
    ]);
    expect(status.deliveries.failed[0]!.action).toContain(apiUrl);
    const page = await (await fetch(`${app.url}/status`)).text();
    const attention = /<p class="alert" id="attention">([^<]*)<\/p>/.exec(page)?.[1] ?? "";
    expect(attention).toContain(`1 delivery waiting on GitHub at ${apiUrl} (GITHUB_UNAVAILABLE)`);
    expect(attention).not.toContain("failed delivery");
    expect(page).toContain("waiting on GitHub (processing)");
    expect(page).not.toContain("githubstatus.com");

    // Once the retries are spent (the token request's retries nested in the call's: several times 7.5 s):
    // queued for the sweeper, the failure counted, still waiting on GitHub.
    let after = seen;
    for (let i = 0; i < 900 && after?.state === "processing"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await deliveryState(app.url, "down-1");
    }
    expect(after).toMatchObject({ state: "queued", failures: 1, code: "GITHUB_UNAVAILABLE", waiting_on: "github" });
    expect(after?.action).toContain(apiUrl);
    console.log(
      `GitHub down: shown waiting on GitHub after ${Math.round(shownAfterMs)} ms; the work failed after ${Math.round(performance.now() - started)} ms`,
    );
  }, 120_000);
});
