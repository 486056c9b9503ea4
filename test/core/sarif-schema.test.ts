/**
 * The SARIF file against the SARIF 2.1.0 schema, and what GitHub code scanning reads from it beyond
 * the schema: each rule's documentation link (to a heading that exists in the repository's docs),
 * its security-severity (the table docs/formats.md shows) and the release in tool.driver.version.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Violation } from "../../src/core/log-reader.js";
import { SARIF_RULES, SECURITY_SEVERITY, buildSarif, ruleHelpUri } from "../../src/core/sarif.js";
import { VERSION } from "../../src/core/version.js";
import { sarifSchemaProblems } from "../support/sarif-schema.js";

const REPO = new URL("../../", import.meta.url);
const DOCS_BLOB = "https://github.com/envelope-gate/envelope-gate/blob/v1/";

interface Rule {
  id: string;
  helpUri: string;
  properties: { tags: string[]; "security-severity": string };
}
interface Sarif {
  runs: { tool: { driver: { name: string; version: string; rules: Rule[] } }; results: unknown[] }[];
}

function v(rule: Violation["rule"], subject: string, first = 3, count = 1): Violation {
  return { id: `${rule}:${subject}`, rule, subject, first_line: first, count };
}

const ENVELOPE = {
  file: ".github/envelope-gate/envelope.json",
  lines: new Map([
    ["/allowed_roots", 3],
    ["/allowed_env", 5],
  ]),
  id: "e1",
  hash: "sha256:" + "c".repeat(64),
};

/** One violation of every rule, some with subjects a hostile run would choose. */
const EVERY_RULE: Violation[] = [
  v("write_outside_root", "/etc/passwd"),
  v("write_protected", "/w/repo/.github/workflows/ci yml", 4, 2),
  v("undeclared_tool", "bash"),
  v("undeclared_env", "AWS_SECRET_ACCESS_KEY"),
  v("network_denied", "evil.example:443"),
  v("undeclared_host", "[::1]:8080"),
  v("undeclared_command", "/usr/bin/curl [x](https://evil.example)"),
  v("forbidden_syscall", "ptrace"),
  v("docker_refused", "unix:/var/run/docker.sock"),
];

function sarifOf(violations: Violation[], envelope: typeof ENVELOPE | null = ENVELOPE): Sarif {
  const doc = buildSarif({
    violations,
    checkName: "envelope-gate",
    envelope,
    workspace: "/w/repo",
    logName: "observer.jsonl",
    toolVersion: VERSION,
  });
  // Through JSON, as the file is written and read.
  return JSON.parse(JSON.stringify(doc)) as Sarif;
}

/**
 * The anchors GitHub gives a markdown file's headings: the heading's text without its markup,
 * lower-cased, punctuation other than `-` and `_` dropped, spaces as `-`; a repeated anchor gets
 * `-1`, `-2`, ... Headings inside fenced code are none.
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!.slice(0, 3);
      else if (f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const text = h[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe("the SARIF file is SARIF 2.1.0 (the OASIS schema, with Ajv)", () => {
  it("with a result of every rule, an envelope and hostile subjects", () => {
    const sarif = sarifOf(EVERY_RULE);
    expect(sarif.runs[0]!.results).toHaveLength(EVERY_RULE.length);
    expect(sarifSchemaProblems(sarif)).toEqual([]);
  });

  it("with no results, and without an envelope", () => {
    expect(sarifSchemaProblems(sarifOf([]))).toEqual([]);
    expect(sarifSchemaProblems(sarifOf(EVERY_RULE, null))).toEqual([]);
  });

  it("the schema is in force: a file that breaks it is refused", () => {
    const broken = sarifOf(EVERY_RULE) as unknown as { runs: { tool: { driver: Record<string, unknown> } }[] };
    delete broken.runs[0]!.tool.driver.name;
    expect(sarifSchemaProblems(broken).join("\n")).toContain("name");
    const badLevel = sarifOf(EVERY_RULE) as unknown as { runs: { results: { level: string }[] }[] };
    badLevel.runs[0]!.results[0]!.level = "fatal";
    expect(sarifSchemaProblems(badLevel)).not.toEqual([]);
  });
});

describe("what code scanning reads from the SARIF file", () => {
  const driver = sarifOf(EVERY_RULE).runs[0]!.tool.driver;

  it("tool.driver names the release that judged the run", () => {
    expect(driver.name).toBe("envelope-gate");
    expect(driver.version).toBe(VERSION);
  });

  it("every rule is tagged security and has a security-severity GitHub accepts (0.0 to 10.0, as a string)", () => {
    expect(driver.rules.map((r) => r.id)).toEqual(SARIF_RULES);
    for (const rule of driver.rules) {
      expect(rule.properties.tags, rule.id).toContain("security");
      const severity = rule.properties["security-severity"];
      expect(severity, rule.id).toMatch(/^\d{1,2}\.\d$/);
      expect(Number(severity), rule.id).toBeGreaterThanOrEqual(0);
      expect(Number(severity), rule.id).toBeLessThanOrEqual(10);
    }
    // The envelope's own violations are high or worse: a write outside the roots, a denied connection.
    expect(Number(SECURITY_SEVERITY.write_outside_root)).toBeGreaterThanOrEqual(7);
    expect(Number(SECURITY_SEVERITY.network_denied)).toBeGreaterThanOrEqual(7);
  });

  it("docs/formats.md's severity table says what the rules carry", () => {
    const doc = readFileSync(new URL("docs/formats.md", REPO), "utf8");
    const rows = new Map([...doc.matchAll(/^\| `(\w+)` \| (\d+\.\d) \| (critical|high|medium|low) \|/gm)].map((m) => [m[1], [m[2], m[3]]]));
    for (const rule of SARIF_RULES) {
      const severity = SECURITY_SEVERITY[rule];
      const n = Number(severity);
      const level = n > 9 ? "critical" : n >= 7 ? "high" : n >= 4 ? "medium" : "low";
      expect(rows.get(rule), rule).toEqual([severity, level]);
    }
  });

  it("every rule's helpUri is a heading of a file in this repository's docs", () => {
    for (const rule of driver.rules) {
      expect(rule.helpUri).toBe(ruleHelpUri(rule.id as Violation["rule"]));
      expect(rule.helpUri.startsWith(DOCS_BLOB), rule.helpUri).toBe(true);
      const [path, anchor] = rule.helpUri.slice(DOCS_BLOB.length).split("#") as [string, string | undefined];
      expect(anchor, rule.helpUri).toBeTruthy();
      const markdown = readFileSync(new URL(path, REPO), "utf8");
      expect([...headingAnchors(markdown)], rule.helpUri).toContain(anchor);
    }
  });

  it("the anchors are GitHub's: markup dropped, punctuation dropped, repeats numbered", () => {
    const anchors = headingAnchors(
      "# Title\n## Rule `write_outside_root`\n```md\n## not a heading\n```\n## SARIF (`envelope-gate.sarif`)\n## Title\n",
    );
    expect([...anchors]).toEqual(["title", "rule-write_outside_root", "sarif-envelope-gatesarif", "title-1"]);
  });
});
