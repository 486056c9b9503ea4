/**
 * End to end with the bundled Action (dist/index.js) as runner B: runner A's run fails a
 * property on one machine, the App dispatches runner B, the Action runs as a process on this
 * machine (its real /etc/machine-id), its evidence directory becomes the run's artifact, and the
 * App compares. Runner A is either a bundle made here in the pinned format (machine
 * "machine-aaaa1111"), or, where mount namespaces are available, the bundled Action too, run
 * under `unshare` with another /etc/machine-id bind-mounted: two machine identities, one host.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { failureFingerprint, loadProperties, scoreOutputSchema } from "../../src/core/properties.js";
import {
  envelopeHash,
  envelopeText,
  LEDGER_HEADER,
  LEDGER_PATH,
  makePull,
  observerLog,
  policyFiles,
  PROPERTIES_PATH,
  REPO,
  runAction,
  type PullFixture,
} from "../support/action-harness.js";
import { startFakeGitHub, type FakeGitHub, type FakeWorkflowRun } from "../support/fake-github.js";
import { bundleFiles, installAppRoutes } from "../support/fake-github-app.js";
import {
  APP_ID,
  appKeys,
  deliverAndWait,
  GATE_WORKFLOW,
  GATE_WORKFLOW_PATH,
  INSTALLATION,
  startTestApp,
  tempDir,
  TestClock,
  workflowRunPayload,
} from "./helpers.js";

const OTHER_MACHINE_ID = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";

/** Whether this host lets us give a process another /etc/machine-id (user + mount namespace). */
function otherMachineWrapper(): string | null {
  const dir = tempDir("eg-machine-");
  const idFile = join(dir, "machine-id");
  writeFileSync(idFile, `${OTHER_MACHINE_ID}\n`);
  const probe = spawnSync("unshare", ["-rm", "sh", "-c", `mount --bind ${idFile} /etc/machine-id && cat /etc/machine-id`], {
    encoding: "utf8",
  });
  if (probe.status !== 0 || probe.stdout.trim() !== OTHER_MACHINE_ID) return null;
  // The harness runs `node <bundle>`; this bundle re-runs itself inside a user + mount namespace,
  // bind-mounts the other machine id there, then runs the real bundle (no shell: the Action's
  // INPUT_* names contain hyphens, which a shell would drop from the environment).
  const wrapper = join(dir, "as-other-machine.mjs");
  writeFileSync(
    wrapper,
    `import { spawnSync } from "node:child_process";
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env: process.env }).status ?? 1;
if (process.argv[2] !== "--inner") process.exit(run("unshare", ["-rm", process.execPath, import.meta.filename, "--inner"]));
if (run("mount", ["--bind", ${JSON.stringify(idFile)}, "/etc/machine-id"]) !== 0) process.exit(3);
process.exit(run(process.execPath, [${JSON.stringify(resolve("dist/index.js"))}]));
`,
  );
  return wrapper;
}
const wrapper = otherMachineWrapper();

const ENVELOPE = envelopeText();
const HASH = envelopeHash(ENVELOPE);
const PROPERTIES = JSON.stringify({
  version: 1,
  properties: [{ name: "result_shape", kind: "output_schema", output: "out/result.json", schema: { type: "object", required: ["ok"] } }],
});

const BAD_SHAPE = '{"nope":true}';
/** The fingerprint the Action gives result_shape failing on this output (core's scorer, as the Action runs it). */
function shapeFingerprint(output: string): string {
  const declared = loadProperties(new TextEncoder().encode(PROPERTIES), PROPERTIES_PATH).properties[0]!;
  return failureFingerprint("result_shape", "output_schema", scoreOutputSchema(declared, new TextEncoder().encode(output)).signature!);
}

describe("end to end: runner B is the bundled Action", () => {
  let fake: FakeGitHub;
  let app: RunningApp;
  let pull: PullFixture;

  beforeEach(async () => {
    fake = await startFakeGitHub();
    installAppRoutes(fake, { appId: APP_ID, publicKeyPem: appKeys().publicKeyPem, dispatchMode: "run_details" });
    fake.addRepo(REPO);
    fake.repo(REPO).collaborators.set("alice", "write");
    pull = makePull(fake, {
      number: 7,
      base: {
        ...policyFiles(ENVELOPE),
        [PROPERTIES_PATH]: PROPERTIES,
        [LEDGER_PATH]: `${LEDGER_HEADER}\n`,
        [GATE_WORKFLOW_PATH]: GATE_WORKFLOW,
      },
    });
    fake.repo(REPO).refs.set("heads/main", pull.baseSha);
    app = await startTestApp(fake, new TestClock(Date.now()));
  });
  afterEach(async () => {
    await app.close();
    await fake.close();
  });

  /** The pull request's head branch: runner A's run is on it. */
  const headRef = () => fake.repo(REPO).pulls.get(pull.number)!.head.ref;

  async function runnerAFails(): Promise<FakeWorkflowRun> {
    const runA = fake.addWorkflowRun(REPO, {
      head_sha: pull.headSha,
      head_branch: headRef(),
      event: "pull_request",
      status: "completed",
      conclusion: "failure",
    });
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
        // The fingerprint the Action records for this failure (out/result.json without "ok").
        properties: [{ name: "result_shape", result: "fail", fingerprint: shapeFingerprint(BAD_SHAPE) }],
      }),
    });
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, runA, pull.number));
    expect(res.state, JSON.stringify(res)).toBe("done");
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
      inputs: {
        "observer-log": "observer.jsonl",
        workspace: "",
        "pull-request": inputs.pull_request as string,
        "head-sha": inputs.head_sha as string,
        "dual-run-id": inputs.dual_run_id as string,
      },
      workspaceFiles: {
        "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }], { runner: "runner-b" }),
        "out/result.json": '{"ok":true}',
      },
      env: { GITHUB_RUN_ID: String(run.id), RUNNER_NAME: "runner-b-host" },
    });
    expect(action.exitCode, action.stdout + action.stderr + action.summary).toBe(0);
    const files = Object.fromEntries(
      readdirSync(action.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(action.evidenceDir, n)))]),
    );
    fake.addArtifact(REPO, { run_id: run.id, name: "envelope-gate-evidence", files });
    run.status = "completed";
    run.conclusion = "success";
    const runner = JSON.parse(Buffer.from(files["runner.json"] as Uint8Array).toString("utf8")) as {
      machine_id: string;
      dual_run_id: string;
    };
    expect(runner.dual_run_id).toBe(inputs.dual_run_id);
    return { run, machineId: runner.machine_id };
  }

  it("active installation: A fails, B (the Action) passes, one ledger PR with an expiry", async () => {
    await app.store.ensureInstallation(INSTALLATION, "acme", Date.now());
    await app.store.promoteInstallation(INSTALLATION, "ops", Date.now());
    await runnerAFails();
    const { run, machineId } = await runnerBRuns();
    expect(fake.checkRun(REPO, "envelope-gate (runner B)")?.conclusion).toBe("success");
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, run));
    expect(res.state, JSON.stringify(res)).toBe("done");
    expect(String(res.outcome)).toContain("freeze_eligible");
    const pulls = [...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"));
    expect(pulls).toHaveLength(1);
    const ledger = Buffer.from(fake.filesAt(fake.repo(REPO), pulls[0]!.head.sha).get(LEDGER_PATH) as Uint8Array).toString("utf8");
    const row = ledger.trimEnd().split("\n")[1]!.split("\t");
    expect(row[1]).toBe(`result_shape#${shapeFingerprint(BAD_SHAPE)}`);
    expect(row[2]).toMatch(/@machine-aaaa1111$/);
    expect(row[3]).toBe(`run-${run.id}@${machineId}`);
    expect(row[4]).toBe(HASH);
    expect(pulls[0]!.requested_reviewers).toEqual(["alice"]);
    expect(fake.checkRun(REPO, "envelope-gate (dual run)")?.conclusion).toBe("neutral");

    // The reviewers merge it. A later pull request failing result_shape the same way is judged by
    // the bundled Action against the merged ledger: it downloads both runs' evidence and honors the row.
    const later = makePull(fake, {
      number: 8,
      base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: PROPERTIES, [LEDGER_PATH]: ledger },
    });
    const judged = async (result: string | null) =>
      runAction({
        apiUrl: fake.url,
        pull: later,
        inputs: { "observer-log": "observer.jsonl", workspace: "" },
        workspaceFiles: {
          "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }]),
          ...(result === null ? {} : { "out/result.json": result }),
        },
      });
    const tolerated = await judged(BAD_SHAPE);
    expect(tolerated.exitCode, tolerated.summary).toBe(0);
    expect(JSON.parse(tolerated.outputs.properties as string)[0]).toMatchObject({ name: "result_shape", frozen_by: row[0] });
    expect(
      fake
        .repo(REPO)
        .checkRuns.filter((c) => c.head_sha === later.headSha && c.name === "envelope-gate")
        .at(-1)?.conclusion,
    ).toBe("success");
    // Another failure of the same property (the file is not produced at all) is not what the row names.
    const other = await judged(null);
    expect(other.exitCode).toBe(1);
    expect(JSON.parse(other.outputs.properties as string)[0]).toMatchObject({ name: "result_shape", result: "fail", frozen_by: null });
  });

  it.skipIf(wrapper === null)(
    "both runners are the bundled Action on two machine identities: A fails, B passes, one ledger PR",
    async () => {
      await app.store.ensureInstallation(INSTALLATION, "acme", Date.now());
      await app.store.promoteInstallation(INSTALLATION, "ops", Date.now());
      const runA = fake.addWorkflowRun(REPO, {
        head_sha: pull.headSha,
        head_branch: headRef(),
        event: "pull_request",
        status: "in_progress",
        conclusion: null,
      });
      const actionA = await runAction({
        apiUrl: fake.url,
        pull,
        bundle: wrapper as string,
        inputs: { "observer-log": "observer.jsonl", workspace: "" },
        workspaceFiles: { "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }]), "out/result.json": BAD_SHAPE },
        env: { GITHUB_RUN_ID: String(runA.id), RUNNER_NAME: "runner-a-host" },
      });
      expect(actionA.exitCode, actionA.stdout + actionA.stderr + actionA.summary).toBe(1);
      const filesA = Object.fromEntries(
        readdirSync(actionA.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(actionA.evidenceDir, n)))]),
      );
      expect(JSON.parse(Buffer.from(filesA["runner.json"] as Uint8Array).toString("utf8")).machine_id).toBe(OTHER_MACHINE_ID);
      fake.addArtifact(REPO, { run_id: runA.id, name: "envelope-gate-evidence", files: filesA });
      runA.status = "completed";
      runA.conclusion = "failure";
      const resA = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, runA, pull.number));
      expect(resA.state, JSON.stringify(resA)).toBe("done");
      const { run, machineId } = await runnerBRuns();
      expect(machineId).not.toBe(OTHER_MACHINE_ID);
      const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, run));
      expect(res.state, JSON.stringify(res)).toBe("done");
      const pulls = [...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"));
      expect(pulls).toHaveLength(1);
      const ledger = Buffer.from(fake.filesAt(fake.repo(REPO), pulls[0]!.head.sha).get(LEDGER_PATH) as Uint8Array).toString("utf8");
      const row = ledger.trimEnd().split("\n")[1]!.split("\t");
      expect(row.slice(1, 5)).toEqual([
        `result_shape#${shapeFingerprint(BAD_SHAPE)}`,
        `run-${runA.id}@${OTHER_MACHINE_ID}`,
        `run-${run.id}@${machineId}`,
        HASH,
      ]);
      expect(fake.checkRun(REPO, "envelope-gate")?.conclusion).toBe("failure");
    },
  );

  it("shadow installation: the same disagreement yields only the neutral check", async () => {
    await runnerAFails();
    const { run } = await runnerBRuns();
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(fake, run));
    expect(res.state).toBe("done");
    expect([...fake.repo(REPO).pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/freeze/"))).toHaveLength(0);
    const check = fake.checkRun(REPO, "envelope-gate (dual run)");
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.title).toContain("Shadow mode");
  });
});
