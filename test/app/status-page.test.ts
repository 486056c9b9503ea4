/**
 * The status page as built from a real SQLite store and rendered at a fixed now (the App's clock
 * is injected): the summary's counts over the window, human times beside the exact UTC, plurals,
 * the release, the switch history's first entry at its true time, and no file path.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetPolicyFromEnv } from "../../src/app/config.js";
import { crashBoundFromEnv } from "../../src/app/crash-loop.js";
import { renderStatusHtml, renderStoreDownHtml, statusSnapshot, type StatusSnapshot } from "../../src/app/status.js";
import { VERSION } from "../../src/core/version.js";
import { openStore, publicStoreLabel, type Store, type StoreSettings } from "../../src/store/index.js";
import { tempDir } from "./helpers.js";

const OPENED = Date.parse("2026-12-01T09:00:00.000Z");
const NOW = Date.parse("2026-12-05T12:00:00.000Z");
const MIN = 60_000;

describe("the status page built from a real store at a fixed now", () => {
  let store: Store;
  let settings: StoreSettings;
  let snapshot: StatusSnapshot;
  let page: string;

  beforeAll(async () => {
    settings = { sqlitePath: join(tempDir("eg-status-page-"), "deep", "..", "operator-secret-dir-app.sqlite") };
    store = await openStore(settings, OPENED);
    // Deliveries within the window: 2 done, 1 failed, 1 in progress; one older than the window.
    for (const [id, at] of [
      ["old", NOW - 30 * 3_600_000],
      ["d1", NOW - 10 * MIN],
      ["d2", NOW - 3 * MIN],
    ] as const) {
      await store.claimDelivery(id, "ping", "r1", at, 60_000);
      await store.finishDelivery(id, "r1", "done", at + 1000);
    }
    await store.claimDelivery("f1", "workflow_run", "r1", NOW - 5 * MIN, 60_000);
    await store.failDelivery("f1", "r1", "EVIDENCE_UNAVAILABLE", "no bundle", NOW - 5 * MIN + 1000);
    await store.claimDelivery("p1", "workflow_run", "r1", NOW - MIN / 2, 3_600_000);
    // Verified checks: one pass, one failed gate, one the App could not verify (a code).
    let run = 100;
    for (const done of [
      { conclusion: "success", code: null },
      { conclusion: "failure", code: null },
      { conclusion: "failure", code: "EVIDENCE_UNAVAILABLE" },
    ]) {
      const key = { repository: "acme/app", run_id: run++, run_attempt: 1 };
      await store.runs.claimVerifiedCheck({ ...key, head_sha: "a".repeat(40) }, "r1", NOW - 20 * MIN, 60_000);
      await store.runs.finishVerifiedCheck(key, "r1", { state: "posted", ...done, check_run_id: run, at: NOW - 20 * MIN });
    }
    await store.rateLimits.record(
      42,
      { resource: "core", remaining: 4200, limit: 5000, resetAt: NOW + 20 * MIN, retryAfterUntil: null },
      "r1",
      NOW - 2 * MIN,
    );
    snapshot = await statusSnapshot(store, NOW, {
      storeLabel: publicStoreLabel(settings),
      reviewAlertMs: 48 * 3_600_000,
      budget: budgetPolicyFromEnv({}),
      crashBound: crashBoundFromEnv({}),
      lastSweep: null,
      githubApiUrl: "https://api.github.com",
    });
    page = renderStatusHtml(snapshot, NOW);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("counts the deliveries and verdicts of the last 24 hours, and names the release", () => {
    expect(snapshot.version).toBe(VERSION);
    expect(snapshot.window).toEqual({ hours: 24, since: new Date(NOW - 86_400_000).toISOString() });
    expect(snapshot.delivery_counts).toEqual({ received: 4, processed: 2, failed: 1, in_progress: 1 });
    expect(snapshot.verdicts).toEqual({ pass: 1, envelope_fail: 1, error: 1 });
    expect(page).toContain(`envelope-gate ${VERSION}`);
  });

  it("the summary comes first, each item links to a section that exists, and the contents list every section", () => {
    const main = page.slice(page.indexOf("<main>"));
    expect(main.indexOf('<section id="summary">')).toBe("<main>\n".length);
    const summary = main.slice(0, main.indexOf("</section>"));
    expect(summary).toContain("4 received: 2 processed, 1 failed, 1 in progress");
    expect(summary).toContain("1 pass, 1 envelope_fail, 1 error");
    expect(summary).toContain("1 failed delivery, 0 stuck");
    expect(summary).toMatch(/4,200 of 5,000 calls left \(800 spent\), resets <time[^>]*>in 20 min<\/time>/);
    expect(summary).toContain("running (kill switch off)");
    const ids = new Set([...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const targets = [...page.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(20);
    for (const target of targets) expect(ids, target).toContain(target);
    for (const section of ["attention", "kill-switch", "webhooks", "failed-deliveries", "verified-checks", "github-budget"])
      expect(summary).toContain(`href="#${section}"`);
  });

  it("times are said relative to now beside the exact UTC, in <time> elements", () => {
    expect(page).toContain(
      // The failed delivery, received 5 minutes before now.
      `<time datetime="${new Date(NOW - 5 * MIN).toISOString()}" title="${new Date(NOW - 5 * MIN).toISOString()}">5 min ago</time> <span class="utc">(2026-12-05 11:55:00 UTC)</span>`,
    );
    // The generated time in the header is now itself.
    expect(page).toMatch(/generated <time datetime="2026-12-05T12:00:00.000Z"[^>]*>just now<\/time>/);
  });

  it("the switch history's first entry (written by migration 4 with no time) shows when the history began, not 1970", () => {
    const first = snapshot.switch_history.at(-1);
    expect(first).toMatchObject({ switch: "pause", actor: "migration 4" });
    expect(first?.at).toBe(new Date(OPENED).toISOString());
    expect(page).not.toContain("1970");
    expect(page).toContain("4 days ago");
  });

  it("plurals are words, never (ies) or (s)", () => {
    expect(page).not.toMatch(/\((ies|s|es)\)/);
    expect(page).toContain("1 failed delivery");
    expect(page).toContain("5 deliveries recorded in all");
    // One delivery is "1 delivery", not "1 deliveries".
    const one = renderStatusHtml({ ...snapshot, deliveries: { ...snapshot.deliveries, total: 1 } }, NOW);
    expect(one).toContain("1 delivery recorded in all");
  });

  it("no file path on the page or in its JSON: the store is named by its backend", () => {
    expect(snapshot.store).toBe("SQLite");
    for (const body of [page, JSON.stringify(snapshot)]) {
      expect(body).not.toContain(settings.sqlitePath);
      expect(body).not.toContain("operator-secret-dir");
      expect(body).not.toContain("/tmp");
    }
    const down = renderStoreDownHtml(NOW, publicStoreLabel(settings), {
      code: "STORE_UNAVAILABLE",
      message: "the App's store could not read",
    });
    expect(down).not.toContain("operator-secret-dir");
    expect(down).toContain(`envelope-gate ${VERSION}`);
  });

  it("PostgreSQL is named by its database and schema, without host, user or password", () => {
    const label = publicStoreLabel({
      databaseUrl: "postgres://gate:hunter2@db.internal:6543/gatedb",
      pgSchema: "tenant_a",
      sqlitePath: "/x",
    });
    expect(label).toBe("PostgreSQL database gatedb schema tenant_a");
  });
});
