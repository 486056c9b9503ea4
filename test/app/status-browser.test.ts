import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.js";
import { openStore } from "../../src/store/index.js";
import { Browser, chromiumPath } from "../support/browser.js";
import {
  addRunA,
  completeRunB,
  deliver,
  deliverAndWait,
  settledState,
  dispatchedRuns,
  HEAD_SHA,
  pgProxy,
  pgSchema,
  processEnv,
  REPO,
  startWorld,
  tempDir,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";

/**
 * The status page as an operator sees it: the real App process serves /status, a real headless
 * chromium (Debian's) renders it, and the assertions read the rendered text and links
 * (document.body.innerText), in each state: healthy, failures, paused, store down.
 */
const chromium = chromiumPath();
// Under CI a missing browser is a failure, not a skip: CI must not stay green without this test.
const browserRequired = process.env.CI === "true";
if (!chromium && !browserRequired)
  console.warn("status-browser.test.ts skipped: no chromium at /usr/bin/chromium (set ENVELOPE_GATE_TEST_CHROMIUM)");

// Registered only then, so a machine with a browser counts no skipped test here.
if (!chromium && browserRequired)
  describe("the status page in a real browser, under CI", () => {
    it("has a browser to run in (CI=true: .ci/run installs Debian's chromium)", () => {
      expect.fail(
        "no chromium at /usr/bin/chromium or /usr/bin/chromium-browser (or ENVELOPE_GATE_TEST_CHROMIUM): install it (apt-get install -y chromium)",
      );
    });
  });

const FAILING = [
  { name: "schema_key_order", result: "fail" as const },
  { name: "tests_collected", result: "pass" as const },
];

describe.skipIf(!chromium)("the status page in a real browser", () => {
  let browser: Browser;
  beforeAll(() => {
    browser = Browser.launch(chromium as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe("one App process on SQLite: healthy, then failures, then paused", () => {
    let world: World;
    let app: AppProcess;
    let dbPath: string;
    beforeAll(async () => {
      world = await startWorld();
      dbPath = join(tempDir(), "app.sqlite");
      app = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: dbPath, ENVELOPE_GATE_SWEEP_SECONDS: "1" }));
    });
    afterAll(async () => {
      await app?.stop();
      await world?.close();
    });

    it("healthy, with deliveries and a decision: nothing needs attention, the decision links to commit, PR and check run", async () => {
      expect((await deliverAndWait(app.url, "ping", { zen: "hi", hook_id: 1 })).state).toBe("done");
      const runA = addRunA(world.fake, { properties: FAILING });
      expect((await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA))).state).toBe("done");
      const runB = dispatchedRuns(world.fake)[0]!;
      completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }, FAILING[1]!] });
      const decided = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runB));
      expect(decided.state).toBe("done");

      const page = await browser.render(`${app.url}/status`);
      expect(page.status).toBe(200);
      expect(page.title).toBe("envelope-gate App status");
      expect(page.text).toContain("Nothing needs attention.");
      expect(page.text).toMatch(/Running \(kill switch off/);
      expect(page.text).toMatch(
        /Last delivery recorded \(any replica\): (just now|\d+ min ago) \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\) · 3 deliveries recorded in all\./,
      );
      expect(page.text).toMatch(/Deliveries in the last 24 hours: 3 received: 3 processed, 0 failed, 0 in progress/);
      expect(page.text).toMatch(/Failed deliveries\s+None\./);
      expect(page.text).toMatch(/Stuck deliveries\s+None\./);
      expect(page.text).toMatch(/Deliveries held during a pause\s+None\./);
      expect(page.text).toContain("freeze_eligible");
      const web = `${world.fake.url}/${REPO}`;
      expect(page.links).toContainEqual({ text: HEAD_SHA.slice(0, 12), href: `${web}/commit/${HEAD_SHA}` });
      expect(page.links).toContainEqual({ text: "#7", href: `${web}/pull/7` });
      const check = world.fake.checkRun(REPO, "envelope-gate (dual run)")!;
      expect(page.links).toContainEqual({ text: "check run", href: `${web}/runs/${check.id}` });
    });

    it("failures: a failed delivery with its code and what to do, a stuck one, a refused request, all counted at the top", async () => {
      // A stuck delivery: claimed by a replica whose lease ran out before it finished.
      const store = await openStore({ sqlitePath: dbPath }, Date.now());
      await store.claimDelivery("stuck-1", "workflow_run", "replica-that-died", Date.now() - 3_600_000, 60_000);
      await store.close();
      expect((await deliver(app.url, "ping", { zen: "x" }, { delivery: "forged-1", secret: "not-the-secret-at-all" })).status).toBe(401);
      const runA = addRunA(world.fake, { properties: FAILING }, { headSha: "d".repeat(40) });
      // Failing until the page is read: the queued delivery is the sweeper's to retry, and a
      // sweep that found GitHub back would finish it before the page shows it.
      world.fake.fail("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts", 502);
      const failed = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "failed-1" });
      expect(failed).toMatchObject({ answer: { status: 202 }, state: "queued", code: "GITHUB_UNAVAILABLE" });

      const page = await browser.render(`${app.url}/status`);
      world.fake.clearFailures();
      expect(page.status).toBe(200);
      // GitHub failing is counted apart from a failed delivery: the delivery waits on GitHub (issue 32 item 5), at the
      // configured API URL. A sweep (every second) retrying the queued delivery may add its own error to the count.
      expect(page.text).toMatch(
        /Needs attention: 1 delivery waiting on GitHub at http:\/\/127\.0\.0\.1:\d+ \(GITHUB_UNAVAILABLE\); 1 stuck delivery(\.|; 1 sweep error\.)/,
      );
      const failedSection = between(page.text, "Failed deliveries", "Stuck deliveries");
      expect(failedSection).toContain("failed-1");
      expect(failedSection).toContain("GITHUB_UNAVAILABLE");
      expect(failedSection).toContain("waiting on GitHub (queued)");
      expect(failedSection).toContain("its sweeper retries it; nothing to redeliver");
      expect(failedSection).not.toContain("redeliver it from the App's settings");
      const stuckSection = between(page.text, "Stuck deliveries", "Deliveries held during a pause");
      expect(stuckSection).toContain("stuck-1");
      expect(stuckSection).toContain("stopped (crash or restart) before finishing");
      expect(stuckSection).toContain("nothing to redeliver");
      expect(page.text).toContain("Refused before anything was recorded: WEBHOOK_SIGNATURE_INVALID × 1.");
      expect(page.text).toContain("the webhook secret differs from the App's settings on GitHub");
    });

    it("no file path on /status, /status.json or /healthz; the release on the page and in /healthz; a CSP that loads nothing", async () => {
      const bodies: string[] = [];
      for (const path of ["/status", "/status.json", "/healthz"]) {
        const res = await fetch(`${app.url}${path}`);
        expect(res.status, path).toBe(200);
        bodies.push(await res.text());
        if (path === "/status") {
          expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
        }
      }
      for (const body of bodies) {
        expect(body).not.toContain(dbPath);
        expect(body).not.toContain(dirname(dbPath));
      }
      expect(JSON.parse(bodies[2]!)).toMatchObject({ ok: true, version: VERSION, store: "SQLite" });
      expect(JSON.parse(bodies[1]!)).toMatchObject({ version: VERSION, store: "SQLite" });
      const page = await browser.render(`${app.url}/status`);
      expect(page.text).toContain(`envelope-gate ${VERSION} · generated just now`);
    });

    it("on a phone (390 px wide): nothing overflows the page, wide tables scroll in their box, the summary comes first, every anchor has its section", async () => {
      const page = await browser.render(`${app.url}/status`, {
        phone: { width: 390, height: 844 },
        probe: `(() => {
          const boxes = [...document.querySelectorAll(".scroll")];
          const outside = [...document.querySelectorAll("body *")]
            .filter((e) => !e.closest(".scroll") && e.getBoundingClientRect().right > innerWidth + 0.5)
            .map((e) => e.tagName + (e.id ? "#" + e.id : "") + ": " + (e.textContent || "").slice(0, 60));
          const targets = [...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute("href").slice(1));
          const beforeJump = scrollY;
          location.hash = "#github-budget";
          const budgetTop = document.getElementById("github-budget").getBoundingClientRect().top;
          return {
            innerWidth,
            scrollWidth: document.scrollingElement.scrollWidth,
            outside,
            scrolling: boxes.filter((b) => b.scrollWidth > b.clientWidth).length,
            firstSection: document.querySelector("main > section").id,
            firstHeading: document.querySelector("main h2").textContent,
            summaryLinks: [...document.querySelectorAll("#summary a")].map((a) => a.getAttribute("href")),
            targets,
            missing: targets.filter((id) => !document.getElementById(id)),
            beforeJump,
            afterJump: scrollY,
            budgetTop,
          };
        })()`,
      });
      const p = page.probe as {
        innerWidth: number;
        scrollWidth: number;
        outside: string[];
        scrolling: number;
        firstSection: string;
        firstHeading: string;
        summaryLinks: string[];
        targets: string[];
        missing: string[];
        beforeJump: number;
        afterJump: number;
        budgetTop: number;
      };
      // The viewport meta tag makes the layout the phone's width (without it, 980 px).
      expect(p.innerWidth).toBe(390);
      expect(p.outside).toEqual([]);
      expect(p.scrollWidth).toBeLessThanOrEqual(p.innerWidth);
      // Wide tables exist here (recent decisions, failed deliveries): they scroll inside their own box.
      expect(p.scrolling).toBeGreaterThan(0);
      expect(p.firstSection).toBe("summary");
      expect(p.firstHeading).toBe("Summary");
      expect(p.summaryLinks).toEqual(
        expect.arrayContaining(["#attention", "#kill-switch", "#webhooks", "#failed-deliveries", "#verified-checks", "#github-budget"]),
      );
      expect(p.targets.length).toBeGreaterThan(25);
      expect(p.missing).toEqual([]);
      // Following an anchor brings its section to the top of the screen.
      expect(p.beforeJump).toBe(0);
      expect(p.afterJump).toBeGreaterThan(0);
      expect(Math.abs(p.budgetTop)).toBeLessThan(20);
    });

    it("paused: PAUSED with the reason, deliveries refused during the pause, and the sweep's errors in detail", async () => {
      // A dual run waiting to dispatch runner B (GitHub refused the dispatch), for the sweeper to retry.
      world.fake.fail("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", 502);
      const waiting = addRunA(world.fake, { properties: FAILING }, { headSha: "e".repeat(40) });
      // The first attempt meets the 502 (GITHUB_UNAVAILABLE); a sweep (every second) that retries it before this
      // reads its state finds the dispatch already tried and says so (DISPATCH_OUTCOME_UNKNOWN): either way, not sent.
      expect(["GITHUB_UNAVAILABLE", "DISPATCH_OUTCOME_UNKNOWN"]).toContain(
        (await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, waiting))).code,
      );
      const paused = await runCli(["app", "pause", "--reason", "incident 42"], {
        ...process.env,
        ENVELOPE_GATE_DB_PATH: dbPath,
        ENVELOPE_GATE_OPERATOR: "oncall",
      });
      expect(paused.code).toBe(0);
      const runA = addRunA(world.fake, { properties: FAILING }, { headSha: "f".repeat(40) });
      const refused = await deliver(app.url, "workflow_run", workflowRunPayload(world.fake, runA), { delivery: "paused-1" });
      // Recorded, not refused: the sweeper sends it after resume.
      expect(refused.status).toBe(202);
      expect(await settledState(app.url, "paused-1")).toMatchObject({ state: "queued", code: "KILL_SWITCH_ENGAGED" });
      // The sweeper (every second here) meets the pause too; wait for a pass that reports it.
      for (;;) {
        const s = (await (await fetch(`${app.url}/status.json`)).json()) as { last_sweep: { errors: { code: string }[] } | null };
        if (s.last_sweep?.errors.some((e) => e.code === "KILL_SWITCH_ENGAGED")) break;
        await new Promise((r) => setTimeout(r, 200));
      }

      const page = await browser.render(`${app.url}/status`);
      expect(page.status).toBe(200);
      // paused-1, and any earlier queued delivery the sweeper (every second) retried after the
      // pause began: it meets the pause too. Which ones depends on timing; paused-1 is checked below.
      expect(page.text).toMatch(/Needs attention: the App is PAUSED; .*\d+ deliver(y|ies) held during a pause; \d+ sweep errors?/);
      expect(page.text).not.toMatch(/\((ies|s|es)\)/);
      expect(page.text).toMatch(/PAUSED since .* by oncall: incident 42\./);
      const refusedSection = between(page.text, "Deliveries held during a pause", "Installations");
      expect(refusedSection).toContain("paused-1");
      expect(refusedSection).toContain("KILL_SWITCH_ENGAGED");
      expect(refusedSection).toContain("envelope-gate app resume");
      const sweep = between(page.text, "Last sweep", "Replicas");
      expect(sweep).toMatch(/\d+ errors?\./);
      expect(sweep).toContain("KILL_SWITCH_ENGAGED");
      expect(sweep).toMatch(/the App is paused \(incident 42\)/);
    });
  });

  it("store down: a 503 HTML page that says so and what to do", async () => {
    const world = await startWorld();
    const { schema, drop } = await pgSchema();
    const proxy = await pgProxy();
    const app = await startAppProcess(processEnv(world.fake, { DATABASE_URL: proxy.url, ENVELOPE_GATE_PG_SCHEMA: schema }));
    try {
      expect((await browser.render(`${app.url}/status`)).text).toContain("Nothing needs attention.");
      await proxy.cut();
      const page = await browser.render(`${app.url}/status`);
      expect(page.status).toBe(503);
      expect(page.title).toBe("envelope-gate App status: store unavailable");
      expect(page.text).toMatch(/The store is unavailable \(STORE_UNAVAILABLE\): the App's store could not read/);
      expect(page.text).toContain(`store: PostgreSQL database test schema ${schema}`);
      expect(page.text).toContain("What to do: check the database named above is running");
      expect(page.links.map((l) => l.text)).toContain("/healthz");
    } finally {
      await app.stop();
      await drop();
      await world.close();
    }
  });
});

/** The rendered text from one heading to the next. */
function between(text: string, from: string, to: string): string {
  const start = text.indexOf(`\n${from}\n`);
  const end = text.indexOf(`\n${to}\n`, start + 1);
  expect(start, from).toBeGreaterThanOrEqual(0);
  expect(end, to).toBeGreaterThan(start);
  return text.slice(start, end);
}
