/**
 * A ledger over 1 MB, read by the App as the Action reads it: GitHub's contents API answers a
 * file between 1 and 100 MB without its content (encoding "none"), and the bytes come from the
 * git blobs API by the blob id. The App writes its freeze row onto the whole base ledger.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { CONTENTS_INLINE_BYTES } from "../support/fake-github.js";
import {
  addRunA,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  INSTALLATION,
  EMPTY_LEDGER,
  LEDGER_PATH,
  ledgerPulls,
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

/** A valid ledger a little over GitHub's 1 MB inline limit: the header, then comment lines. */
const LARGE_LEDGER = EMPTY_LEDGER + "# an earlier freeze, kept for the record\n".repeat(Math.ceil((CONTENTS_INLINE_BYTES * 1.2) / 41));

describe("App: a base ledger between 1 and 10 MB", () => {
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

  it("is read through the git blobs API, and the ledger PR is the whole base ledger plus the one row", async () => {
    expect(LARGE_LEDGER.length).toBeGreaterThan(CONTENTS_INLINE_BYTES);
    world.fake.commit(REPO, { [LEDGER_PATH]: LARGE_LEDGER }, { branch: "main", message: "a long ledger" });
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const runA = addRunA(world.fake, { properties: FAILING });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    world.fake.requests.length = 0;
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
    expect(res, JSON.stringify(res)).toMatchObject({ state: "done" });
    expect(ledgerPulls(world.fake)).toHaveLength(1);
    const pull = ledgerPulls(world.fake)[0]!;
    const ledger = Buffer.from(world.fake.filesAt(world.fake.repo(REPO), pull.head.sha).get(LEDGER_PATH) as Uint8Array).toString("utf8");
    expect(ledger.startsWith(LARGE_LEDGER)).toBe(true);
    const added = ledger.slice(LARGE_LEDGER.length).trimEnd().split("\n");
    expect(added).toHaveLength(1);
    expect(added[0]!.split("\t")[1]).toMatch(/^schema_key_order#/);
    expect(world.fake.requestsTo("GET", "/repos/:owner/:repo/git/blobs/:sha").length).toBeGreaterThan(0);
  });
});
