/**
 * End to end with the bundled Action (dist/index.js) as runner B: runner A's run fails a
 * property on one machine (its bundle made here in the pinned format, machine "machine-aaaa1111"),
 * the App dispatches runner B, the Action runs as a process on this machine (its real
 * /etc/machine-id), its evidence directory becomes the run's artifact, and the App compares.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/run.js";
import {
  envelopeHash, envelopeText, LEDGER_HEADER, LEDGER_PATH, makePull, observerLog, policyFiles, PROPERTIES_PATH, REPO, runAction,
  type PullFixture,
} from "../support/action-harness.js";
import { startFakeGitHub, type FakeGitHub, type FakeWorkflowRun } from "../support/fake-github.js";
import { bundleFiles, installAppRoutes } from "../support/fake-github-app.js";
import { APP_ID, appKeys, deliver, INSTALLATION, startTestApp, TestClock, workflowRunPayload } from "./helpers.js";

const ENVELOPE = envelopeText();
const HASH = envelopeHash(ENVELOPE);
const PROPERTIES = JSON.stringify({
  version: 1,
  properties: [{ name: "result_shape", kind: "output_schema", output: "out/result.json", schema: { type: "object", required: ["ok"] } }],
});

describe("end to end: runner B is the bundled Action", () => {
  let fake: FakeGitHub;
  let app: RunningApp;
  let pull: PullFixture;

  beforeEach(async () => {
    fake = await startFakeGitHub();
    installAppRoutes(fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, dispatchMode: "run_details" });
    fake.addRepo(REPO);
    fake.repo(REPO).collaborators.set("alice", "write");
    pull = makePull(fake, { number: 7, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: PROPERTIES, [LEDGER_PATH]: `${LEDGER_HEADER}\n` } });
    fake.repo(REPO).refs.set("heads/main", pull.baseSha);
    app = await startTestApp(fake, new TestClock(Date.now()));
  });
  afterEach(async () => {
    await app.close();
    await fake.close();
  });

  async function runnerAFails(): Promise<FakeWorkflowRun> {
    const runA = fake.addWorkflowRun(REPO, { head_sha: pull.headSha, event: "pull_request", status: "completed", conclusion: "failure" });
    fake.addArtifact(REPO, {
      run_id: runA.id,
      name: "envelope-gate-evidence",
      files: bundleFiles({
        machineId: "machine-aaaa1111",
        headSha: pull.headSha,
        envelopeHash: HASH,
        repository: REPO,
        workflowRunId: runA.id,
        pullNumber: pull.number,
        properties: [{ name: "result_shape", result: "fail" }],
      }),
    });
    const res = await deliver(app.url, "workflow_run", workflowRunPayload(fake, runA, pull.number));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return runA;
  }

  /** Runs dist/index.js for the dispatched run, uploads its evidence directory, completes the run. */
  async function runnerBRuns(): Promise<{ run: FakeWorkflowRun; machineId: string }> {
    const run = fake.repo(REPO).workflowRuns.find((r) => r.event === "workflow_dispatch")!;
    const inputs = run.inputs as Record<string, string>;
    expect(JSON.parse(inputs.runner_labels as string)).toEqual(["self-hosted", "runner-b"]);
    const action = await runAction({
      apiUrl: fake.url,
      eventName: "workflow_dispatch",
      event: { inputs },
      inputs: { "observer-log": "observer.jsonl", workspace: "", "pull-request": inputs.pull_request as string, "head-sha": inputs.head_sha as string, "dual-run-id": inputs.dual_run_id as string },
      workspaceFiles: { "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }], { runner: "runner-b" }), "out/result.json": '{"ok":true}' },
      env: { GITHUB_RUN_ID: String(run.id), RUNNER_NAME: "runner-b-host" },
    });
    expect(action.exitCode, action.stdout + action.stderr + action.summary).toBe(0);
    const files = Object.fromEntries(readdirSync(action.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(action.evidenceDir, n)))]));
    fake.addArtifact(REPO, { run_id: run.id, name: "envelope-gate-evidence", files });
    run.status = "completed";
    run.conclusion = "success";
    const runner = JSON.parse(Buffer.from(files["runner.json"] as Uint8Array).toString("utf8")) as { machine_id: string; dual_run_id: string };
    expect(runner.dual_run_id).toBe(inputs.dual_run_id);
    return { run, machineId: runner.machine_id };
  }

  it("active installation: A fails, B (the Action) passes, one ledger PR with an expiry", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", Date.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", Date.now());
    await runnerAFails();
    const { run, machineId } = await runnerBRuns();
    expect(fake.checkRun(REPO, "envelope-gate (runner B)")?.conclusion).toBe("success");
    const res = await deliver(app.url, "workflow_run", workflowRunPayload(fake, run));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(String(res.body.outcome)).toContain("freeze_eligible");
    const pulls = [...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"));
    expect(pulls).toHaveLength(1);
    const ledger = Buffer.from(fake.filesAt(fake.repo(REPO), pulls[0]!.head.sha).get(LEDGER_PATH) as Uint8Array).toString("utf8");
    const row = ledger.trimEnd().split("\n")[1]!.split("\t");
    expect(row[1]).toBe("result_shape");
    expect(row[2]).toMatch(/@machine-aaaa1111$/);
    expect(row[3]).toBe(`run-${run.id}@${machineId}`);
    expect(row[4]).toBe(HASH);
    expect(pulls[0]!.requested_reviewers).toEqual(["alice"]);
    expect(fake.checkRun(REPO, "envelope-gate (dual run)")?.conclusion).toBe("neutral");
  });

  it("shadow installation: the same disagreement yields only the neutral check", async () => {
    await runnerAFails();
    const { run } = await runnerBRuns();
    const res = await deliver(app.url, "workflow_run", workflowRunPayload(fake, run));
    expect(res.status).toBe(200);
    expect([...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"))).toHaveLength(0);
    const check = fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.title).toContain("Shadow mode");
  });
});
