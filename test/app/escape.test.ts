/**
 * Issue 18, item 4, on the App: runner.json fields come from runner A's bundle, which the pull
 * request's own job produced. A hostile runner name and CPU model must not put a heading, a
 * mention or an HTML comment (that hid the TSV row) into the ledger PR a reviewer merges.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { harmlessProblems, render, shownText } from "../support/gfm.js";
import {
  addRunA,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  INSTALLATION,
  LEDGER_PATH,
  ledgerPulls,
  processEnv,
  REPO,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";

const FAILING = [
  { name: "schema_key_order", result: "fail" as const },
  { name: "tests_collected", result: "pass" as const },
];
const HOSTILE_NAME = "# Heading @team <!--";
const HOSTILE_CPU = "<img src=x onerror=alert(1)> @org/team [x](https://evil.example/) fixes #1 \u202eevil";

describe("the App's ledger PR and dual-run check escape runner.json", () => {
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

  async function freezeWith(runnerA: { runnerName?: string; cpuModel?: string }) {
    const runA = addRunA(world.fake, { properties: FAILING, ...runnerA });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state).toBe("done");
  }

  function theLedgerPr() {
    const repo = world.fake.repo(REPO);
    expect(ledgerPulls(world.fake)).toHaveLength(1);
    const pull = ledgerPulls(world.fake)[0]!;
    const ledger = Buffer.from(world.fake.filesAt(repo, pull.head.sha).get(LEDGER_PATH) as Uint8Array).toString("utf8");
    return { pull, row: ledger.trimEnd().split("\n").at(-1) ?? "" };
  }

  it("a hostile runner name and CPU model render as text, and the TSV row stays visible", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await freezeWith({ runnerName: HOSTILE_NAME, cpuModel: HOSTILE_CPU });
    const { pull, row } = theLedgerPr();
    // What the fake received as the PR's body, rendered as GitHub would.
    const opened = world.fake.requests.find((r) => r.method === "POST" && r.path === `/repos/${REPO}/pulls`);
    const body = (opened?.body as { body: string; title: string }).body;
    expect(body).toBe(pull.body);
    const r = render(body);
    expect(harmlessProblems(r, { mentions: ["@alice"], refs: ["#7"] }), r.html).toEqual([]);
    expect(r.elements.filter((e) => /^h[1-6]$/.test(e.name))).toEqual([]);
    // The row the merge adds, in full, in a code block a reviewer sees.
    expect(r.textIn("code")).toContain(`${row}\n`);
    const text = shownText(body);
    expect(text).toContain(HOSTILE_NAME);
    expect(text).toContain(HOSTILE_CPU.replace("\u202e", "\\u{202E}"));
    // The title (and the commit message) name no one either.
    expect((opened?.body as { title: string }).title).not.toMatch(/@[a-z]/i);
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    const summary = render(check?.output.summary ?? "");
    expect(harmlessProblems(summary, {}), summary.html).toEqual([]);
  });

  it("shadow mode: the would-be PR in the check run's text is as harmless", async () => {
    await freezeWith({ runnerName: HOSTILE_NAME, cpuModel: HOSTILE_CPU });
    const check = world.fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("neutral");
    const r = render(check?.output.text ?? "");
    expect(harmlessProblems(r, { mentions: ["@alice"], refs: ["#7"] }), r.html).toEqual([]);
    const shadowed = await app.store.listLedgerPrs(["shadowed"]);
    expect(r.textIn("code")).toContain(`${shadowed[0]?.row_text}\n`);
    expect(shownText(check?.output.text)).toContain(HOSTILE_NAME);
  });

  it("clean twin: an ordinary runner reads as before", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await freezeWith({});
    const { pull, row } = theLedgerPr();
    const r = render(pull.body ?? "");
    expect(harmlessProblems(r, { mentions: ["@alice"], refs: ["#7"] })).toEqual([]);
    expect(r.textIn("code")).toContain(`${row}\n`);
    expect(pull.body).toContain("| `schema_key_order` | fail | pass |");
    expect(shownText(pull.body)).toContain("runner-machin — machine machine-aaaa1111, linux/x64, 2 × Test CPU");
  });
});

describe("the App process (dist/cli, SQLite) opens a ledger PR from a hostile runner.json that renders harmless", () => {
  let world: World;
  let app: AppProcess;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    world = await startWorld();
    env = processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") });
    app = await startAppProcess(env);
  });
  afterAll(async () => {
    await app?.stop();
    await world?.close();
  });

  it("heading, mentions, image and the comment that hid the row are text; the row is in its block", async () => {
    const runA = addRunA(world.fake, { properties: FAILING, runnerName: HOSTILE_NAME, cpuModel: HOSTILE_CPU });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
    expect((await runCli(["app", "promote", "--installation", String(INSTALLATION)], env)).code).toBe(0);
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB))).state).toBe("done");
    const repo = world.fake.repo(REPO);
    const pull = ledgerPulls(world.fake)[0]!;
    const row = Buffer.from(world.fake.filesAt(repo, pull.head.sha).get(LEDGER_PATH) as Uint8Array)
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .at(-1);
    const r = render(pull.body ?? "");
    expect(harmlessProblems(r, { mentions: ["@alice"], refs: ["#7"] }), r.html).toEqual([]);
    expect(r.textIn("code")).toContain(`${row}\n`);
    expect(shownText(pull.body)).toContain(HOSTILE_NAME);
  });
});
