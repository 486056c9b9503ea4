/** action.yml, the settings reader and docs/action.md agree; the dogfood policy loads. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { loadEnvelope, verifyDigest } from "../../src/core/envelope.js";
import { parseLedger } from "../../src/core/ledger.js";
import { loadProperties } from "../../src/core/properties.js";

/** A YAML file as GitHub's runner reads it: a parse error or a duplicate key fails, naming the line. */
function parseYaml(text: string, file: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join("\n")}`);
  return doc.toJS() as unknown;
}

interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, { description: unknown; required?: unknown; default?: unknown }>;
  outputs: Record<string, { description: unknown }>;
  runs: { using: string; main: string };
}

const actionYml = readFileSync("action.yml", "utf8");
const metadata = parseYaml(actionYml, "action.yml") as ActionMetadata;
const docs = readFileSync("docs/action.md", "utf8");
const readme = readFileSync("README.md", "utf8");
const settings = readFileSync("src/action/settings.ts", "utf8");
const report = readFileSync("src/action/report.ts", "utf8");

describe("action.yml and docs/action.md", () => {
  const inputs = Object.keys(metadata.inputs);
  const outputs = Object.keys(metadata.outputs);

  it("is YAML GitHub's runner can load: every input and output a described mapping, node24 running dist/index.js", () => {
    expect(typeof metadata.name).toBe("string");
    expect(typeof metadata.description).toBe("string");
    expect(metadata.runs).toEqual({ using: "node24", main: "dist/index.js" });
    expect(existsSync(metadata.runs.main)).toBe(true);
    for (const [name, spec] of Object.entries(metadata.inputs)) {
      expect(name, name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(typeof spec.description, name).toBe("string");
      if (spec.default !== undefined) expect(typeof spec.default, `${name} default`).toBe("string");
      if (spec.required !== undefined) expect(typeof spec.required, `${name} required`).toBe("boolean");
    }
    for (const [name, spec] of Object.entries(metadata.outputs)) expect(typeof spec.description, name).toBe("string");
  });

  it("a YAML text that is not a mapping where one is expected fails the parse (the check above can fail)", () => {
    expect(() => parseYaml("inputs:\n  x:\n    description: Default is none: an account\n", "bad.yml")).toThrow(/bad\.yml/);
  });

  it("every workflow in .github/workflows and every yaml block in the docs parses", () => {
    const texts: [string, string][] = readdirSync(".github/workflows").map((f) => [
      `.github/workflows/${f}`,
      readFileSync(`.github/workflows/${f}`, "utf8"),
    ]);
    for (const file of ["README.md", ...readdirSync("docs").map((f) => `docs/${f}`)]) {
      const md = readFileSync(file, "utf8");
      let n = 0;
      for (const m of md.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) texts.push([`${file} yaml block ${++n}`, m[1] as string]);
    }
    expect(texts.length).toBeGreaterThan(3);
    for (const [file, text] of texts) expect(() => parseYaml(text, file), file).not.toThrow();
  });

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
    expect(workflow).toMatch(/uses: envelope-gate\/envelope-gate@[0-9a-f]{40}\n/);
    expect(workflow).toContain("name: envelope-gate-evidence");
  });
});

describe('docs/observer.md, "What is still not seen, and what bounds it"', () => {
  const text = readFileSync("docs/observer.md", "utf8");
  const start = text.indexOf("## What is still not seen, and what bounds it");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  const oneLine = (s: string): string => s.replace(/\s+/g, " ");

  it("names only test files that exist, and every test title it quotes is in one of them", () => {
    expect(start).toBeGreaterThan(-1);
    const files = [...new Set([...section.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1] as string))];
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect(existsSync(f), f).toBe(true);
    const sources = files.map((f) => oneLine(readFileSync(f, "utf8")));
    // Quoted titles outside code spans (a code span inside a title is left out of the comparison).
    const titles = [...oneLine(section.replace(/`[^`]*`/g, "\u0000")).matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
    expect(titles.length).toBeGreaterThan(20);
    for (const title of titles) {
      const parts = title
        .split("\u0000")
        .map((p) => p.trim())
        .filter((p) => p.length > 0);
      expect(
        sources.some((src) => parts.every((p) => src.includes(p))),
        title,
      ).toBe(true);
    }
  });
});
