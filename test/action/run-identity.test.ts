/**
 * A disagreement cannot be made of the run's identity (issue 18 item 2): GitHub tells runner A
 * (a pull_request run) and runner B (a workflow_dispatch run the App starts on the base) apart
 * through GITHUB_EVENT_NAME (in @ci), GITHUB_REF, GITHUB_SHA, GITHUB_RUN_ID, the actor and the
 * workflow ref. A property command that counts its tests only on workflow_dispatch would fail on
 * A and pass on B, and the App would propose a freeze. Through the bundled Action both runs see
 * the same values, so both agree; the same program unjailed disagrees.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { PROPERTIES_PATH, REPO, envelopeText, makePull, policyFiles, runAction, type PullFixture } from "../support/action-harness.js";

let fake: FakeGitHub;
let nextPull = 1800;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const KEYS = [
  "GITHUB_EVENT_NAME",
  "GITHUB_SHA",
  "GITHUB_REF",
  "GITHUB_REF_NAME",
  "GITHUB_HEAD_REF",
  "GITHUB_BASE_REF",
  "GITHUB_RUN_ID",
  "GITHUB_RUN_NUMBER",
  "GITHUB_RUN_ATTEMPT",
  "GITHUB_WORKFLOW_REF",
  "GITHUB_ACTOR",
  "GITHUB_TRIGGERING_ACTOR",
  "RUNNER_TRACKING_ID",
  "INPUT_DUAL-RUN-ID",
];

/**
 * The PR's test lister: writes what it saw to seen-<tag>.json in the workspace, and lists its
 * tests only when it believes it is runner B (`b`) or runner A (`a`).
 */
const PROBE = `const fs = require("fs");
const [tag, when] = process.argv.slice(2);
const seen = {};
for (const k of ${JSON.stringify(KEYS)}) seen[k] = process.env[k] ?? null;
fs.writeFileSync("seen-" + tag + ".json", JSON.stringify(seen));
const b = process.env.GITHUB_EVENT_NAME === "workflow_dispatch" || /^refs\\/heads\\//.test(process.env.GITHUB_REF ?? "") || Number(process.env.GITHUB_RUN_ID) > 1500 || process.env["INPUT_DUAL-RUN-ID"] !== undefined;
if ((when === "b") === b) { console.log("test 1"); console.log("test 2"); }
`;

// GITHUB_* and @ci would let every run-identity key in; the removed ones are listed exactly and still absent.
const ENVELOPE = envelopeText({
  allowed_env: [
    "CI",
    "PATH",
    "RUN_ID",
    "ENVELOPE_HASH",
    "SCRATCH",
    "HOME",
    "@ci",
    "GITHUB_*",
    "GITHUB_RUN_ID",
    "GITHUB_RUN_NUMBER",
    "GITHUB_RUN_ATTEMPT",
    "GITHUB_WORKFLOW_REF",
    "GITHUB_ACTOR",
    "GITHUB_TRIGGERING_ACTOR",
    "RUNNER_TRACKING_ID",
    "INPUT_DUAL-RUN-ID",
  ],
});

const PROPS = JSON.stringify({
  version: 1,
  properties: [
    // Counts its tests only on runner B: the attack.
    { name: "collected_on_b", kind: "tests_collected", command: ["node", "probe.js", "prop-b", "b"], min: 1, line_regex: "^test \\d+$" },
    // Counts its tests only on runner A: the clean twin (a pull_request run, as the canonical values say).
    { name: "collected_on_a", kind: "tests_collected", command: ["node", "probe.js", "prop-a", "a"], min: 1, line_regex: "^test \\d+$" },
  ],
});

const MERGE_SHA = "f".repeat(40);

/** Runner A: GitHub's pull_request run of the merge commit. */
function envA(p: PullFixture): Record<string, string> {
  return {
    GITHUB_SHA: MERGE_SHA,
    GITHUB_REF: `refs/pull/${p.number}/merge`,
    GITHUB_REF_NAME: `${p.number}/merge`,
    GITHUB_HEAD_REF: `branch-${p.number}`,
    GITHUB_BASE_REF: "main",
    GITHUB_RUN_ID: "1001",
    GITHUB_RUN_NUMBER: "17",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/envelope-gate.yml@refs/pull/${p.number}/merge`,
    GITHUB_ACTOR: "copilot-swe-agent[bot]",
    GITHUB_TRIGGERING_ACTOR: "copilot-swe-agent[bot]",
    RUNNER_TRACKING_ID: "github_aaaa",
  };
}

/** Runner B: the App's workflow_dispatch on the base branch, for this pull request and head. */
function envB(p: PullFixture): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: "workflow_dispatch",
    GITHUB_SHA: p.baseSha,
    GITHUB_REF: "refs/heads/main",
    GITHUB_REF_NAME: "main",
    GITHUB_HEAD_REF: "",
    GITHUB_BASE_REF: "",
    GITHUB_RUN_ID: "2002",
    GITHUB_RUN_NUMBER: "3",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/envelope-gate.yml@refs/heads/main`,
    GITHUB_ACTOR: "envelope-gate[bot]",
    GITHUB_TRIGGERING_ACTOR: "envelope-gate[bot]",
    RUNNER_TRACKING_ID: "github_bbbb",
  };
}

interface Result {
  verdict: string | undefined;
  results: Record<string, string>;
  seen: Record<string, Record<string, string | null>>;
}

async function gate(p: PullFixture, runner: "a" | "b"): Promise<Result> {
  const common = { apiUrl: fake.url, workspaceFiles: { "probe.js": PROBE } };
  const run =
    runner === "a"
      ? await runAction({ ...common, pull: p, env: envA(p), inputs: { run: "node probe.js main b" } })
      : await runAction({
          ...common,
          eventName: "workflow_dispatch",
          event: { inputs: { pull_request: String(p.number), head_sha: p.headSha, dual_run_id: "dual-1" } },
          env: envB(p),
          inputs: { run: "node probe.js main b", "pull-request": String(p.number), "head-sha": p.headSha, "dual-run-id": "dual-1" },
        });
  // The envelope held on every run (no undeclared_env): only the attacking property fails.
  expect(run.outputs.verdict, run.stdout + run.stderr).toBe("property_fail");
  const records = JSON.parse(run.outputs.properties ?? "[]") as { name: string; result: string }[];
  const seen = Object.fromEntries(
    ["main", "prop-a", "prop-b"].map((tag) => [tag, JSON.parse(readFileSync(join(run.workspace, `seen-${tag}.json`), "utf8"))]),
  );
  return { verdict: run.outputs.verdict, results: Object.fromEntries(records.map((r) => [r.name, r.result])), seen };
}

describe("runner A and runner B see one run identity", () => {
  it("a property that counts its tests only on workflow_dispatch agrees on A and B (fails on both); its twin passes on both", async () => {
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: PROPS } });
    const a = await gate(p, "a");
    const b = await gate(p, "b");
    const canonical = {
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_SHA: p.headSha,
      GITHUB_REF: `refs/pull/${p.number}/merge`,
      GITHUB_REF_NAME: `${p.number}/merge`,
      GITHUB_HEAD_REF: `branch-${p.number}`,
      GITHUB_BASE_REF: "main",
      GITHUB_RUN_ID: null,
      GITHUB_RUN_NUMBER: null,
      GITHUB_RUN_ATTEMPT: null,
      GITHUB_WORKFLOW_REF: null,
      GITHUB_ACTOR: null,
      GITHUB_TRIGGERING_ACTOR: null,
      RUNNER_TRACKING_ID: null,
      "INPUT_DUAL-RUN-ID": null,
    };
    expect(a.results).toEqual({ collected_on_b: "fail", collected_on_a: "pass" });
    expect(b.results).toEqual(a.results);
    // The patch's run and each property command's, on both runners.
    for (const tag of ["main", "prop-a", "prop-b"]) {
      expect(a.seen[tag], `A ${tag}`).toEqual(canonical);
      expect(b.seen[tag], `B ${tag}`).toEqual(canonical);
    }
  });

  it("the same program unjailed, with what GitHub sets on each runner, disagrees: A fails, B passes", () => {
    const p = { number: 1, headSha: "a".repeat(40), baseSha: "b".repeat(40), baseRef: "main" };
    const dir = mkdtempSync(join(tmpdir(), "eg-probe-"));
    writeFileSync(join(dir, "probe.js"), PROBE);
    const count = (env: Record<string, string>): number => {
      const r = spawnSync(process.execPath, ["probe.js", "x", "b"], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "", GITHUB_EVENT_NAME: "pull_request", ...env },
        encoding: "utf8",
      });
      return r.stdout.split("\n").filter((l) => /^test \d+$/.test(l)).length;
    };
    expect(count(envA(p))).toBe(0);
    expect(count(envB(p))).toBe(2);
  });
});
