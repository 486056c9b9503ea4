/**
 * Issue 30, items 3 and 4: every local workflow and action the base's gate workflow reaches is
 * followed all the way down, read as YAML, and must be the base's at the head; and this
 * repository's own workflow is one the App verifies. Attacks against the App (its HTTP server,
 * SQLite, the fake GitHub held to GitHub's description; the last one the App process), each
 * with a clean twin that still gets its green verified check.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { REPO_ROOT } from "../support/fixtures.js";
import {
  addRunA,
  deliverAndWait,
  GATE_WORKFLOW_PATH,
  processEnv,
  pullAt,
  REPO,
  startTestApp,
  startWorld,
  tempDir,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { startAppProcess, type AppProcess } from "./process.js";

const NAME = "envelope-gate / verified";
const PASSING = [{ name: "schema_key_order", result: "pass" as const }];

let world: World;
let app: RunningApp | null = null;
let proc: AppProcess | null = null;
afterEach(async () => {
  await app?.close();
  await proc?.stop();
  app = null;
  proc = null;
  await world?.close();
});

/** main with these files (the gate workflow among them). */
async function startOn(files: Record<string, string>, useProcess = false): Promise<string> {
  world = await startWorld();
  world.fake.commit(REPO, files, { branch: "main", message: "the gate workflow and its actions" });
  if (useProcess) {
    proc = await startAppProcess(processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(tempDir(), "app.sqlite") }));
    return proc.url;
  }
  app = await startTestApp(world.fake, new TestClock(Date.now()));
  return app.url;
}

/** A passing, successful runner A on a pull request whose head is main plus `files`; the verified check posted for it. */
async function verifiedFor(url: string, headSha: string, files: Record<string, string>) {
  const pull = pullAt(world.fake, headSha, files);
  const run = addRunA(world.fake, { properties: PASSING, headSha }, { conclusion: "success", headSha });
  const res = await deliverAndWait(url, "workflow_run", workflowRunPayload(world.fake, run, pull.number));
  expect(res.state, JSON.stringify(res)).toBe("done");
  const check = world.fake
    .repo(REPO)
    .checkRuns.filter((c) => c.name === NAME && c.head_sha === headSha)
    .at(-1);
  return { outcome: String(res.outcome), check };
}

const VENDORED = {
  ".github/actions/envelope-gate/action.yml": "name: envelope-gate (vendored)\nruns:\n  using: node24\n  main: dist/index.js\n",
  ".github/actions/envelope-gate/dist/index.js": "gate();\n",
};
const GATE_HEAD = `name: envelope-gate
on:
  pull_request:
  workflow_dispatch:
jobs:
`;
const NESTED = {
  [GATE_WORKFLOW_PATH]: `${GATE_HEAD}  gate:\n    uses: ./.github/workflows/gate-reusable.yml\n`,
  ".github/workflows/gate-reusable.yml": `on: workflow_call
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: gate
        uses: ./.github/actions/envelope-gate
`,
  ...VENDORED,
};

describe("local actions followed all the way down (issue 30, item 3)", () => {
  it("attack: the gate workflow uses a reusable workflow that uses a vendored Action; the pull request edits the vendored dist/index.js", async () => {
    const url = await startOn(NESTED);
    const forged = await verifiedFor(url, "8".repeat(40), { ".github/actions/envelope-gate/dist/index.js": "process.exit(0);\n" });
    expect(forged.outcome).toContain("RUNNER_A_WORKFLOW_CHANGED");
    expect(forged.outcome).toContain("./.github/actions/envelope-gate (used by .github/workflows/gate-reusable.yml");
    expect(forged.check).toMatchObject({ conclusion: "failure" });
    expect(forged.check?.output.summary).toContain("RUNNER_A_WORKFLOW_CHANGED");
  });

  it("clean twin: the same nesting, a patch elsewhere: verified, green", async () => {
    const url = await startOn(NESTED);
    const clean = await verifiedFor(url, "7".repeat(40), { "src/feature.ts": "export const x = 1;\n" });
    expect(clean.outcome).toContain("verified check success");
    expect(clean.check).toMatchObject({ conclusion: "success" });
  });

  it('attack: an escaped key `"u\\x73es"` (uses to YAML, nothing to a regex) names the vendored Action; its edit is refused, a clean head passes', async () => {
    const escaped = {
      [GATE_WORKFLOW_PATH]: `${GATE_HEAD}  gate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - "u\\x73es": ./.github/actions/envelope-gate\n`,
      ...VENDORED,
    };
    const url = await startOn(escaped);
    const forged = await verifiedFor(url, "8".repeat(40), { ".github/actions/envelope-gate/dist/index.js": "process.exit(0);\n" });
    expect(forged.outcome).toContain("RUNNER_A_WORKFLOW_CHANGED");
    expect(forged.check).toMatchObject({ conclusion: "failure" });
    const clean = await verifiedFor(url, "7".repeat(40), { "src/feature.ts": "export const x = 1;\n" });
    expect(clean.check).toMatchObject({ conclusion: "success" });
  });

  it("a cycle between reusable workflows is refused with its code (RUNNER_A_USES_CYCLE), GitHub's reads and all", async () => {
    const url = await startOn({
      [GATE_WORKFLOW_PATH]: `${GATE_HEAD}  gate:\n    uses: ./.github/workflows/a.yml\n`,
      ".github/workflows/a.yml": "on: workflow_call\njobs:\n  a:\n    uses: ./.github/workflows/b.yml\n",
      ".github/workflows/b.yml": "on: workflow_call\njobs:\n  b:\n    uses: ./.github/workflows/a.yml\n",
    });
    const res = await verifiedFor(url, "7".repeat(40), { "src/feature.ts": "x\n" });
    expect(res.outcome).toContain("RUNNER_A_USES_CYCLE");
    expect(res.check).toMatchObject({ conclusion: "failure" });
  });

  it("GitHub failing to return a nested action.yml is GITHUB_UNAVAILABLE: nothing decided, the delivery retried", async () => {
    const url = await startOn(NESTED);
    const pull = pullAt(world.fake, "7".repeat(40), { "src/feature.ts": "x\n" });
    const run = addRunA(world.fake, { properties: PASSING, headSha: "7".repeat(40) }, { conclusion: "success", headSha: "7".repeat(40) });
    // Octokit sends a contents path with its slashes encoded.
    world.fake.fail("GET", "/repos/:owner/:repo/contents/.github%2Factions%2Fenvelope-gate%2Faction.yml", 503);
    const res = await deliverAndWait(url, "workflow_run", workflowRunPayload(world.fake, run, pull.number));
    expect(res.code, JSON.stringify(res)).toBe("GITHUB_UNAVAILABLE");
    expect(world.fake.repo(REPO).checkRuns.filter((c) => c.name === NAME)).toEqual([]);
  });
});

/** This repository's own gate workflow, as committed. */
const OWN_WORKFLOW = readFileSync(join(REPO_ROOT, GATE_WORKFLOW_PATH), "utf8");
/** The same workflow as it was before issue 30: the Action from a second checkout of the base, a directory in no git tree. */
const FORMER_WORKFLOW = OWN_WORKFLOW.replace(/uses: envelope-gate\/envelope-gate@[0-9a-f]{40}/, "uses: ./.envelope-gate-action");

describe("this repository's own workflow is one the App verifies (issue 30, item 4)", () => {
  it("clean: the project's gate workflow at base and head, a patch elsewhere: verified, green", async () => {
    expect(OWN_WORKFLOW).toMatch(/uses: envelope-gate\/envelope-gate@[0-9a-f]{40}/);
    const url = await startOn({ [GATE_WORKFLOW_PATH]: OWN_WORKFLOW });
    const clean = await verifiedFor(url, "7".repeat(40), { "src/feature.ts": "export const x = 1;\n" });
    expect(clean.outcome).toContain("verified check success");
    expect(clean.check).toMatchObject({ conclusion: "success" });
  });

  it("the former workflow (uses: ./.envelope-gate-action) could never be verified: the directory is in no git tree", async () => {
    expect(FORMER_WORKFLOW).not.toBe(OWN_WORKFLOW);
    const url = await startOn({ [GATE_WORKFLOW_PATH]: FORMER_WORKFLOW });
    const res = await verifiedFor(url, "7".repeat(40), { "src/feature.ts": "export const x = 1;\n" });
    expect(res.outcome).toContain("RUNNER_A_WORKFLOW_CHANGED");
    expect(res.outcome).toContain("./.envelope-gate-action (used by .github/workflows/envelope-gate.yml) is not in the base");
    expect(res.check).toMatchObject({ conclusion: "failure" });
  });
});

describe("against the App process (envelope-gate app start, SQLite)", () => {
  it("the nested vendored Action edited at the head is refused; the project's own workflow is verified green", async () => {
    const nested = await startOn(NESTED, true);
    const forged = await verifiedFor(nested, "8".repeat(40), { ".github/actions/envelope-gate/dist/index.js": "process.exit(0);\n" });
    expect(forged.outcome).toContain("RUNNER_A_WORKFLOW_CHANGED");
    const clean = await verifiedFor(nested, "7".repeat(40), { "src/feature.ts": "x\n" });
    expect(clean.check).toMatchObject({ conclusion: "success" });
    await proc?.stop();
    proc = null;
    await world.close();
    const own = await startOn({ [GATE_WORKFLOW_PATH]: OWN_WORKFLOW }, true);
    expect((await verifiedFor(own, "7".repeat(40), { "src/feature.ts": "x\n" })).check).toMatchObject({ conclusion: "success" });
  });
});
