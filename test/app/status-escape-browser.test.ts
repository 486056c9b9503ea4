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

  it("a hostile property name in flight and in a shadow proposal, and a clean one beside it", async () => {
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

    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, {
      properties: [
        { name: HOSTILE, result: "pass" },
        { name: "schema_key_order", result: "pass" },
      ],
    });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state).toBe("done");
    const page = await browser.render(`${app.url}/status`);
    const shadow = page.text.slice(page.text.indexOf("Shadow proposals"), page.text.indexOf("Recent decisions"));
    // Both proposals, the hostile one as its characters, with the row that carries it.
    expect(shadow).toContain(SHOWN);
    expect(shadow).toContain("schema_key_order");
    expect(page.links.filter((l) => l.href.includes("evil"))).toEqual([]);
    expect(page.text).not.toContain("\u202e");
  });
});
