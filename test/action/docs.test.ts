/** action.yml, the settings reader and docs/action.md agree; the dogfood policy loads. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadEnvelope, verifyDigest } from "../../src/core/envelope.js";
import { parseLedger } from "../../src/core/ledger.js";
import { loadProperties } from "../../src/core/properties.js";

function section(yaml: string, name: string): string[] {
  const start = yaml.indexOf(`\n${name}:\n`);
  const rest = yaml.slice(start + name.length + 3);
  const end = rest.search(/\n[a-z]/);
  return [...(end === -1 ? rest : rest.slice(0, end)).matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((m) => m[1] as string);
}

const actionYml = readFileSync("action.yml", "utf8");
const docs = readFileSync("docs/action.md", "utf8");
const readme = readFileSync("README.md", "utf8");
const settings = readFileSync("src/action/settings.ts", "utf8");
const report = readFileSync("src/action/report.ts", "utf8");

describe("action.yml and docs/action.md", () => {
  const inputs = section(actionYml, "inputs");
  const outputs = section(actionYml, "outputs");

  it("documents every input in the inputs table, and the Action reads each one", () => {
    expect(inputs.length).toBeGreaterThan(20);
    for (const name of inputs) {
      expect(docs, name).toContain(`| \`${name}\` |`);
      expect(readme, name).toContain(`| \`${name}\` |`);
      expect(settings, name).toContain(`"${name}"`);
    }
  });

  it("documents every output, and the Action sets each one", () => {
    for (const name of outputs) {
      expect(docs, name).toContain(`| \`${name}\` |`);
      expect(readme, name).toContain(`| \`${name}\` |`);
      expect(report, name).toContain(`"${name}"`);
    }
  });

  it("shows the permissions, the evidence upload and the runner-B dispatch inputs", () => {
    for (const text of [
      "checks: write",
      "contents: read",
      "pull-requests: read",
      "actions: read",
      "actions/upload-artifact",
      "name: envelope-gate-evidence",
      "pull_request:",
      "head_sha:",
      "dual_run_id:",
      "runner_labels:",
      "fromJSON(inputs.runner_labels",
    ]) {
      expect(docs).toContain(text);
      expect(readme).toContain(text);
    }
  });
});

describe("this repository's own policy (dogfooding)", () => {
  it("is pinned, valid, and loads", () => {
    const dir = ".github/envelope-gate";
    const bytes = readFileSync(`${dir}/envelope.json`);
    verifyDigest(bytes, "envelope.json", readFileSync(`${dir}/envelope.json.sha256`, "utf8"), "envelope.json.sha256");
    expect(loadEnvelope(bytes, "envelope.json").envelope.envelope_id).toBe("envelope-gate-dogfood-v1");
    expect(loadProperties(readFileSync(`${dir}/properties.json`), "properties.json").properties.length).toBeGreaterThan(0);
    expect(parseLedger(readFileSync(`${dir}/freeze_ledger.tsv`, "utf8"), "freeze_ledger.tsv").problems).toEqual([]);
    const workflow = readFileSync(".github/workflows/envelope-gate.yml", "utf8");
    expect(workflow).toContain("uses: ./.envelope-gate-action");
    expect(workflow).toContain("name: envelope-gate-evidence");
  });
});
