/**
 * What one jailed run of the Action leaves behind never reaches the next: the Action runs its
 * observer from a private copy (a run that rewrites the Action's files checked out in the
 * workspace gets nothing run unjailed), and each run gets its own scratch, HOME and /tmp (a
 * ~/.npmrc naming a /tmp/sh the patch planted does not steer the property command's npm).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import {
  PROPERTIES_PATH,
  REPO,
  envelopeHash,
  envelopeText,
  makePull,
  observerLog,
  policyFiles,
  runAction,
} from "../support/action-harness.js";

let fake: FakeGitHub;
let nextPull = 500;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const q = JSON.stringify;

/** What npm 10 reads of the environment on `npm test` (docs/observer.md: an envelope lists its tools' keys). */
const NPM_ENV = [
  "@ci",
  "npm_*",
  // npm sets these for itself and reads them back; a family never covers a credential carrier (the .npmrc files) nor a program control (node-gyp's path).
  "npm_config_globalconfig",
  "npm_config_userconfig",
  "npm_config_node_gyp",
  // npm exports a CA file the machine's npmrc names (this machine's global one does; a hosted runner's not).
  "npm_config_cafile",
  "NODE*",
  "NOPT_DEBUG",
  "DEBUG_NOPT",
  "GRACEFUL_FS_PLATFORM",
  "TEST_GRACEFUL_FS_GLOBAL_PATCH",
  "_ISEXE_TEST_PLATFORM_",
  "EDITOR",
  "VISUAL",
  "SHELL",
  "LC_*",
  "LANG",
  "NO_COLOR",
  "PATHEXT",
  "PREFIX",
  "DESTDIR",
  "WATCH_REPORT_DEPENDENCIES",
  "FORCE_COLOR",
  "TERM",
  "COLORTERM",
  "TERM_PROGRAM",
  "INIT_CWD",
  "COLOR",
  "GITHUB_SERVER_URL",
  "RUNNER_ENVIRONMENT",
];
const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME", ...NPM_ENV] });

function propertiesFile(properties: Record<string, unknown>[]): string {
  return JSON.stringify({ version: 1, properties });
}

function checkRun(headSha: string) {
  const run = fake
    .repo(REPO)
    .checkRuns.filter((c) => c.head_sha === headSha)
    .at(-1);
  if (!run) throw new Error(`no check run on ${headSha}`);
  return run;
}

describe("the Action runs its observer from a private copy", () => {
  const marker = `/var/tmp/eg-planted-cli-${process.pid}`;
  const props = propertiesFile([
    { name: "unit_tests", kind: "tests_collected", command: ["node", "-e", "console.log('test 1')"], min: 1, line_regex: "^test \\d+$" },
  ]);

  const plant = `const fs = require("fs");
fs.writeFileSync("_action/dist/cli/index.js", 'import { writeFileSync } from "node:fs"; writeFileSync(${q(marker)}, "ran unjailed"); console.log("test 1"); console.log("test 2");\\n');
fs.writeFileSync("_action/dist/preload/index.js", 'require("fs").writeFileSync(${q(marker)}, "ran unjailed");\\n');
fs.writeFileSync("_action/dist/relay/index.js", 'import { writeFileSync } from "node:fs"; writeFileSync(${q(marker)}, "ran unjailed");\\n');`;

  it("a run that rewrites the Action's dist/ (checked out in the workspace) is refused by the kernel and judged write_protected", async () => {
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: props } });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      actionInWorkspace: "_action",
      inputs: { run: "node plant.js" },
      workspaceFiles: { "plant.js": plant },
    });
    expect(readFileSync(join(run.workspace, "_action/dist/cli/index.js"), "utf8")).not.toContain("ran unjailed");
    expect(existsSync(marker)).toBe(false);
    expect(run.outputs.verdict).toBe("envelope_fail");
    expect(run.outputs.violations).toContain(`write_protected:${join(run.workspace, "_action/dist/cli/index.js")}`);
  });

  it("with the Action's directory made writable (writable_protected), the rewrite lands and still nothing runs unjailed: the property command runs jailed from the private copy", async () => {
    const envelope = envelopeText({
      allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME", ...NPM_ENV],
      writable_protected: ["${WORKSPACE}/_action"],
    });
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(envelope), [PROPERTIES_PATH]: props } });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      actionInWorkspace: "_action",
      inputs: { run: "node plant.js" },
      workspaceFiles: { "plant.js": plant },
    });
    // The attack took place: the Action's files in the workspace are the patch's now.
    expect(readFileSync(join(run.workspace, "_action/dist/cli/index.js"), "utf8")).toContain("ran unjailed");
    expect(existsSync(marker)).toBe(false);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe("pass");
    const records = JSON.parse(run.outputs.properties as string) as { name: string; result: string; detail: string }[];
    expect(records).toEqual([
      expect.objectContaining({ name: "unit_tests", result: "pass", detail: expect.stringContaining("reports 1 test") }),
    ]);
    // The property's run was observed and jailed: its log is the wrapper's.
    const log = readFileSync(join(run.runnerTemp, "envelope-gate-properties", "unit_tests.observer.jsonl"), "utf8").split("\n");
    const meta = JSON.parse(log[0] as string) as { jail?: { tool: string } };
    expect(meta.jail?.tool).toContain("bubblewrap");
    // The private copy lives under RUNNER_TEMP, outside the workspace.
    expect(readdirSync(run.runnerTemp).filter((n) => n.startsWith("envelope-gate-cli-"))).toHaveLength(1);
  });

  it("clean twin: the Action checked out in the workspace gates a run that leaves it alone", async () => {
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: props } });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      actionInWorkspace: "_action",
      inputs: { run: "node work.js" },
      workspaceFiles: { "work.js": `require("fs").writeFileSync("out.txt", "ok");` },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe("pass");
    expect(readFileSync(join(run.workspace, "out.txt"), "utf8")).toBe("ok");
    expect(checkRun(p.headSha).conclusion).toBe("success");
  });

  it("a private copy that would lie inside an allowed root is refused: ACTION_COPY_WRITABLE, never a pass", async () => {
    // The harness's RUNNER_TEMP is under /tmp: an envelope that allows writing /tmp covers the copy.
    const wide = envelopeText({ allowed_roots: ["${WORKSPACE}", "${SCRATCH}", "/tmp"] });
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(wide) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { run: "node -e 0" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("ACTION_COPY_WRITABLE");
    expect(checkRun(p.headSha).conclusion).toBe("failure");
  });
});

describe("each jailed run gets its own scratch, HOME and /tmp", () => {
  const forged = "forged.txt";
  // The patch plants npm configuration for whatever runs next: a script shell it wrote itself.
  const plant = `const fs = require("fs"), os = require("os");
fs.writeFileSync(os.homedir() + "/.npmrc", "script-shell=/tmp/sh\\n");
fs.writeFileSync("/tmp/sh", "#!/bin/sh\\necho test 1; echo test 2; echo test 3; echo forged > ${forged}\\n", { mode: 0o755 });`;
  const packageJson = JSON.stringify({ name: "widgets", version: "1.0.0", private: true, scripts: { test: "echo test 1" } });

  async function gateNpm(min: number, planted: boolean) {
    const props = propertiesFile([
      { name: "npm_tests", kind: "tests_collected", command: ["npm", "test"], min, line_regex: "^test \\d+$" },
    ]);
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: props } });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { run: planted ? "node plant.js" : "node -e 0" },
      workspaceFiles: { "plant.js": plant, "package.json": packageJson },
      timeoutMs: 90_000,
    });
    const records = JSON.parse(run.outputs.properties ?? "[]") as { name: string; result: string; detail: string }[];
    return { run, p, records };
  }

  it("a ~/.npmrc naming a /tmp/sh the patch planted does not steer the property command's npm test", async () => {
    const { run, records } = await gateNpm(3, true);
    // The patch's run really planted them, in its own HOME and /tmp (recorded inside its scratch).
    const log = readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8");
    expect(log, `${run.stdout}\n${run.stderr}`).toMatch(/"path":"[^"]*\/home\/\.npmrc"/);
    expect(log).toMatch(/"path":"[^"]*\/tmp\/sh"/);
    // The property's npm ran the project's own script in the shell, not the planted one.
    expect(existsSync(join(run.workspace, forged))).toBe(false);
    expect(records).toEqual([
      expect.objectContaining({ name: "npm_tests", result: "fail", detail: expect.stringContaining("reports 1 test") }),
    ]);
    expect(run.outputs.verdict, run.stdout + run.stderr).toBe("property_fail");
  });

  it("clean twin: npm test as a property command passes when nothing was planted", async () => {
    const { run, p, records } = await gateNpm(1, false);
    expect(records).toEqual([
      expect.objectContaining({ name: "npm_tests", result: "pass", detail: expect.stringContaining("reports 1 test") }),
    ]);
    expect(run.outputs.verdict, run.stdout + run.stderr).toBe("pass");
    expect(checkRun(p.headSha).conclusion).toBe("success");
  });
});

describe("when RUNNER_TEMP cannot hold the Action's private directories", () => {
  /** RUNNER_TEMP is a file: nothing can be made under it. The evidence goes elsewhere. */
  function brokenTemp(): { env: Record<string, string>; inputs: Record<string, string> } {
    const dir = mkdtempSync(join(tmpdir(), "eg-broken-temp-"));
    writeFileSync(join(dir, "runner-temp"), "not a directory");
    return { env: { RUNNER_TEMP: join(dir, "runner-temp") }, inputs: { "evidence-dir": join(dir, "evidence") } };
  }

  it("the observer cannot be copied out of the Action's install: ACTION_COPY_UNAVAILABLE, never run from where it lies", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(ENVELOPE) });
    const broken = brokenTemp();
    const run = await runAction({ apiUrl: fake.url, pull: p, env: broken.env, inputs: { run: "node -e 0", ...broken.inputs } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("ACTION_COPY_UNAVAILABLE");
    expect(checkRun(p.headSha).conclusion).toBe("failure");
  });

  it("a property command's own scratch cannot be made: PROPERTY_SCRATCH_UNAVAILABLE, never scored on a shared one", async () => {
    const props = propertiesFile([
      { name: "unit_tests", kind: "tests_collected", command: ["node", "-e", "console.log('test 1')"], min: 1 },
    ]);
    const p = makePull(fake, { number: ++nextPull, base: { ...policyFiles(ENVELOPE), [PROPERTIES_PATH]: props } });
    const broken = brokenTemp();
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      env: broken.env,
      inputs: { "observer-log": "observer.jsonl", ...broken.inputs },
      workspaceFiles: { "observer.jsonl": observerLog(envelopeHash(ENVELOPE), [{ kind: "tool", name: "read_file" }]) },
    });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("PROPERTY_SCRATCH_UNAVAILABLE");
    expect(checkRun(p.headSha).conclusion).toBe("failure");
  });
});
