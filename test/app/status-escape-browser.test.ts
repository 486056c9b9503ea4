/**
 * Issue 18, item 4, on the status page: property names come from runner A's bundle (the pull
 * request's job made it), and reach the page through the store (dual runs in flight, shadow
 * proposals, their rows). The real App process serves the page and a real headless chromium
 * renders it: the hostile strings show as text (had they been markup, innerText would not hold
 * them) and make no link.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, chromiumPath } from "../support/browser.js";
import {
  addRunA,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  processEnv,
  startWorld,
  tempDir,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { startAppProcess, type AppProcess } from "./process.js";

const chromium = chromiumPath();
// Under CI, status-browser.test.ts fails when there is no browser; here the same test is skipped.
const HOSTILE = "<img src=x onerror=alert(1)><a href=https://evil.example/>click</a> @team <!-- \u202eevil";
const HOSTILE_ROW = "<img/src=x/onerror=alert(1)><a/href=https://evil.example/>click</a>@team<!--";
const SHOWN = "<img src=x onerror=alert(1)><a href=https://evil.example/>click</a> @team <!-- \\u{202E}evil";

describe.skipIf(!chromium)("the status page shows stored strings from a bundle as text", () => {
  let browser: Browser;
  let world: World;
  let app: AppProcess;
  beforeAll(async () => {
    browser = Browser.launch(chromium as string);
    world = await startWorld();
    app = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") }));
  });
  afterAll(async () => {
    await app?.stop();
    await world?.close();
    await browser?.close();
  });

  it("a hostile property name in flight and after runner B, and a clean one beside it", async () => {
    const runA = addRunA(world.fake, {
      properties: [
        { name: HOSTILE, result: "fail" },
        { name: "schema_key_order", result: "fail" },
      ],
    });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
    const inFlight = await browser.render(`${app.url}/status`);
    expect(inFlight.status).toBe(200);
    expect(inFlight.text).toContain(`${SHOWN}, schema_key_order`);
    expect(inFlight.links.filter((l) => l.href.includes("evil"))).toEqual([]);

    // A ledger row refuses such property names (another part of issue 18); whichever way the App
    // settles this one, what the page shows of it is text.
    const runA2 = addRunA(
      world.fake,
      {
        properties: [
          { name: HOSTILE_ROW, result: "fail" },
          { name: "schema_key_order", result: "fail" },
        ],
      },
      { headSha: "d".repeat(40) },
    );
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA2))).state).toBe("done");
    const runB = dispatchedRuns(world.fake).at(-1)!;
    completeRunB(world.fake, runB, {
      properties: [
        { name: HOSTILE_ROW, result: "pass" },
        { name: "schema_key_order", result: "pass" },
      ],
    });
    // Settled either way: a shadow proposal carrying the name, or a refusal whose message quotes it.
    expect(["done", "failed"]).toContain((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state);
    const page = await browser.render(`${app.url}/status`);
    // The name as its characters (had it been markup, innerText would not hold it).
    expect(page.text).toContain(HOSTILE_ROW);
    expect(page.text).toContain("schema_key_order");
    expect(page.links.filter((l) => l.href.includes("evil"))).toEqual([]);
    expect(page.text).not.toContain("\u202e");
  });
});
