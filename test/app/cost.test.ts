/**
 * Issue 32 item 2: what one webhook event costs in GitHub calls. docs/app.md's "Cost per event"
 * table is the bound; each scenario here drives its event through the App (in-process, SQLite)
 * against the fake GitHub, counts the calls that spend the installation's budget (every request
 * but the App's own JWT ones under /app/), and fails when an event makes more than its row says.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import type { LoggedRequest } from "../support/fake-github.js";
import { pullRequestReviewWebhook, pullRequestWebhook, pushWebhook } from "../support/webhooks.js";
import { createHash } from "node:crypto";
import { logText } from "../support/logs.js";
import {
  addRunA,
  auditBundleFiles,
  completeRunB,
  deliverAndWait,
  dispatchedRuns,
  INSTALLATION,
  pullAt,
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

/** docs/app.md's cost table: row name -> the most installation calls that event and outcome may make. */
function costTable(): Map<string, number> {
  const doc = readFileSync(new URL("../../docs/app.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("### Cost per event"));
  const rows = new Map<string, number>();
  for (const line of section.split("\n").slice(1)) {
    if (line.startsWith("#")) break;
    const m = /^\| `([a-z_]+)` \| ([^|]+?) \| (\d+) \|/.exec(line);
    if (m) rows.set(`${m[1]}: ${(m[2] as string).trim()}`, Number(m[3]));
  }
  return rows;
}

describe("cost per event (docs/app.md, Cost per event)", () => {
  let world: World;
  let app: RunningApp;
  let clock: TestClock;
  const table = costTable();
  const measured = new Map<string, number>();

  beforeEach(async () => {
    world = await startWorld();
    clock = new TestClock();
    app = await startTestApp(world.fake, clock);
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  /** Delivers one event and returns the installation calls it made (the App's JWT calls apart). */
  async function cost(row: string, event: string, payload: Record<string, unknown>): Promise<{ calls: LoggedRequest[]; outcome: string }> {
    const bound = table.get(row);
    expect(bound, `docs/app.md has no cost row "${row}" (rows: ${[...table.keys()].join("; ")})`).toBeDefined();
    const before = world.fake.requests.length;
    const res = await deliverAndWait(app.url, event, payload);
    expect(res.state, JSON.stringify(res)).toBe("done");
    // The App's own JWT calls (/app/...) spend no installation's budget, nor does the artifact's
    // download from storage GitHub redirects to (the fake's /_fake_blob/), nor a 304 to a
    // conditional request (src/github/conditional.ts).
    const calls = world.fake.requests
      .slice(before)
      .filter((r) => r.path !== "/app" && !r.path.startsWith("/app/") && !r.path.startsWith("/_fake_blob/") && r.status !== 304);
    measured.set(row, calls.length);
    if (process.env.EG_COST_DUMP)
      console.log(
        `calls: ${row}: ${calls.map((c) => `${c.method} ${c.path.replace(/\/repos\/[^/]+\/[^/]+/, "")}${c.query ? "?" + c.query : ""}`).join(" | ")}`,
      );
    expect(calls.length, `${row}: ${calls.map((c) => `${c.method} ${c.path}`).join(", ")}`).toBeLessThanOrEqual(bound as number);
    return { calls, outcome: String(res.outcome) };
  }

  it("every row of the table is driven by a scenario below, and the table names no event twice", () => {
    expect([...table.keys()].sort()).toEqual(
      [
        "workflow_run: runner A, a property failed (runner B dispatched)",
        "workflow_run: runner B, the runners disagree (shadow installation)",
        "workflow_run: runner B, the runners disagree (ledger PR opened)",
        "workflow_run: runner B, both fail",
        "workflow_run: the same delivery again",
        "pull_request: opened, not the App's",
        "pull_request_review: submitted, not on a ledger PR",
        "push: no open ledger PR on the branch",
        "workflow_run: audit run, verified (envelope PR opened)",
        "workflow_run: audit run, a re-run on the same commit",
        "workflow_run: audit run, a commit off the default branch (refused)",
        "workflow_run: audit run, the refused run re-run",
      ].sort(),
    );
  });

  it("runner A fails a property, runner B disagrees (shadow), the same delivery again", async () => {
    const runA = addRunA(world.fake, { properties: FAILING });
    await cost("workflow_run: runner A, a property failed (runner B dispatched)", "workflow_run", workflowRunPayload(world.fake, runA));
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    const payload = workflowRunPayload(world.fake, runB);
    const { outcome } = await cost("workflow_run: runner B, the runners disagree (shadow installation)", "workflow_run", payload);
    expect(outcome).toContain("freeze_eligible");
    await cost("workflow_run: the same delivery again", "workflow_run", payload);
  });

  it("runner B disagrees on a promoted installation: the ledger PR", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "pass" }] });
    await cost("workflow_run: runner B, the runners disagree (ledger PR opened)", "workflow_run", workflowRunPayload(world.fake, runB));
  });

  it("both runners fail the property", async () => {
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })));
    const runB = dispatchedRuns(world.fake)[0]!;
    completeRunB(world.fake, runB, { properties: [{ name: "schema_key_order", result: "fail" }] });
    await cost("workflow_run: runner B, both fail", "workflow_run", workflowRunPayload(world.fake, runB));
  });

  it("a pull request opened, a review, a push: nothing of the App's to do", async () => {
    const repo = world.fake.repo(REPO);
    const pull = pullAt(world.fake, "d".repeat(40));
    await cost("pull_request: opened, not the App's", "pull_request", pullRequestWebhook(world.fake, repo, pull, INSTALLATION, "opened"));
    await cost(
      "pull_request_review: submitted, not on a ledger PR",
      "pull_request_review",
      pullRequestReviewWebhook(world.fake, repo, pull, INSTALLATION, "alice"),
    );
    const main = repo.refs.get("heads/main")!;
    await cost(
      "push: no open ledger PR on the branch",
      "push",
      pushWebhook(world.fake, repo, INSTALLATION, {
        ref: "refs/heads/main",
        after: main,
        commits: [{ added: [], modified: ["x"], removed: [] }],
      }),
    );
  });

  it("audit runs of main: verified and an envelope PR opened, a re-run, a tag off main refused", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    const envelope = {
      envelope_id: "widgets-envelope",
      allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
      allowed_tools: [],
      allowed_env: ["PATH"],
      allowed_hosts: [],
      network: "deny",
    };
    const text = JSON.stringify(envelope, null, 2) + "\n";
    const hex = createHash("sha256").update(text).digest("hex");
    const path = ".github/envelope-gate/envelope.json";
    world.fake.commit(REPO, { [path]: text, [`${path}.sha256`]: `${hex}  envelope.json\n` }, { branch: "main", message: "the envelope" });
    // 150 commits on main after the envelope: the audited commit is 120 back from the tip.
    const history: string[] = [];
    for (let i = 0; i < 150; i++) history.push(world.fake.commit(REPO, { "n.txt": String(i) }, { branch: "main", message: `c${i}` }));
    const audit = (headSha: string, attempt = 1) => {
      const run = world.fake.addWorkflowRun(REPO, {
        head_sha: headSha,
        head_branch: "main",
        event: "push",
        status: "completed",
        conclusion: "success",
      });
      run.run_attempt = attempt;
      const log = logText(`sha256:${hex}`, [{ kind: "env", key: "SUITE_TIMEOUT" }], {
        meta: { run_id: String(run.id), workspace: "/home/runner/work/widgets/widgets", scratch: "/tmp/eg-scratch-1" },
      });
      world.fake.addArtifact(REPO, {
        run_id: run.id,
        name: "envelope-gate-evidence",
        files: auditBundleFiles({ runId: run.id, headSha, log, envelope, envelopeHash: `sha256:${hex}` }),
      });
      return run;
    };
    const verified = audit(history[29] as string);
    const opened = await cost(
      "workflow_run: audit run, verified (envelope PR opened)",
      "workflow_run",
      workflowRunPayload(world.fake, verified, null),
    );
    expect(opened.outcome).toContain("envelope PR #");
    // GitHub's re-run: the same run id, its next attempt, on the same commit.
    verified.run_attempt = 2;
    await cost("workflow_run: audit run, a re-run on the same commit", "workflow_run", workflowRunPayload(world.fake, verified, null));
    const off = world.fake.commit(REPO, { "evil.txt": "x" }, { parent: history[10] as string, message: "evil" });
    const offRun = audit(off);
    const refused = await cost(
      "workflow_run: audit run, a commit off the default branch (refused)",
      "workflow_run",
      workflowRunPayload(world.fake, offRun, null),
    );
    expect(refused.outcome).toContain("AUDIT_RUN_UNVERIFIED");
    // Re-run, main where it was: the walk's reads are GitHub's 304s, the run's read is new.
    offRun.run_attempt = 2;
    const again = await cost(
      "workflow_run: audit run, the refused run re-run",
      "workflow_run",
      workflowRunPayload(world.fake, offRun, null),
    );
    expect(again.outcome).toContain("AUDIT_RUN_UNVERIFIED");
    expect(again.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /repos/${REPO}/actions/runs/${offRun.id}`]);
  });

  it("prints what each event cost (docs/app.md's figures)", () => {
    for (const [row, n] of measured) console.log(`cost: ${row}: ${n} (bound ${table.get(row) ?? "?"})`);
  });
});
