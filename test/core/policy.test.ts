import { describe, expect, it } from "vitest";
import { batchAnnotations, capAnnotations, type CheckAnnotation } from "../../src/core/annotations.js";
import {
  DEFAULT_AGENT_AUTHORS,
  decide,
  gatingDecision,
  headApprovers,
  policyBlobChanges,
  policyChanges,
  type PropertyOutcome,
} from "../../src/core/policy.js";
import { loadProperties, scorePatchPaths, scoreTestsCollected, scoreOutputSchema, hunkStarts } from "../../src/core/properties.js";
import { MAX_SUMMARY_CHARS, renderSummary, type SummaryInput } from "../../src/core/summary.js";
import type { CheckReport } from "../../src/core/verdict.js";
import { Refusal } from "../../src/core/errors.js";

const gating = (author: string, labels: string[] = [], over: Partial<Parameters<typeof gatingDecision>[0]> = {}) =>
  gatingDecision({ author, labels, agentAuthors: [...DEFAULT_AGENT_AUTHORS], agentLabel: "agent-authored", gateAll: false, ...over });

describe("which pull requests are gated", () => {
  it("gates the default agent bots by login, case-insensitively, and literal [bot]", () => {
    expect(gating("copilot-swe-agent[bot]").gated).toBe(true);
    expect(gating("Devin-AI-Integration[bot]").gated).toBe(true);
    expect(gating("my-agent[bot]").gated).toBe(true);
    expect(gating("copilot-swe-agentb").gated).toBe(false);
    expect(gating("dependabot[bot]").gated).toBe(false);
  });
  it("gates by label and with gate-all, and says why not otherwise", () => {
    expect(gating("alice", ["Agent-Authored"]).gated).toBe(true);
    expect(gating("alice", [], { gateAll: true }).gated).toBe(true);
    const no = gating("alice", ["bug"]);
    expect(no.gated).toBe(false);
    expect(no.reason).toContain('does not carry the label "agent-authored"');
  });
});

describe("policy change and approval", () => {
  const paths = { envelope: "e/envelope.json", digest: "e/envelope.json.sha256", properties: "e/p.json", ledger: "e/l.tsv" };
  it("finds added, edited, deleted and renamed-away policy files", () => {
    const changes = policyChanges(
      [
        { filename: "src/a.ts", status: "modified" },
        { filename: "e/l.tsv", status: "modified" },
        { filename: "moved.json", status: "renamed", previous_filename: "e/envelope.json" },
        { filename: "e/p.json", status: "removed" },
      ],
      paths,
    );
    expect(changes.map((c) => [c.path, c.role])).toEqual([
      ["e/l.tsv", "ledger"],
      ["e/envelope.json", "envelope"],
      ["e/p.json", "properties"],
    ]);
  });
  it("finds policy changes by blob id at base and head, whatever the files listing shows", () => {
    const base = new Map([
      ["e/envelope.json", "aaa"],
      ["e/envelope.json.sha256", "bbb"],
      ["e/p.json", "ccc"],
      ["e/l.tsv", null],
    ]);
    const head = new Map([
      ["e/envelope.json", "aaa"],
      ["e/envelope.json.sha256", "bbx"],
      ["e/p.json", null],
      ["e/l.tsv", "ddd"],
    ]);
    const byBlob = policyBlobChanges(
      { envelope: "e/envelope.json", digest: "e/envelope.json.sha256", properties: "e/p.json", ledger: "e/l.tsv" },
      base,
      head,
    );
    expect(byBlob.map((c) => [c.path, c.status, c.role])).toEqual([
      ["e/envelope.json.sha256", "modified", "digest"],
      ["e/p.json", "removed", "properties"],
      ["e/l.tsv", "added", "ledger"],
    ]);
    // Unchanged blobs add nothing; what the listing found stays, once.
    const listed = [{ path: "e/envelope.json", status: "modified", role: "envelope" as const }];
    const same = new Map([["e/envelope.json", "aaa"]]);
    expect(policyBlobChanges({ envelope: "e/envelope.json", digest: "d", properties: "p", ledger: "l" }, same, same, listed)).toEqual(
      listed,
    );
    expect(policyBlobChanges({ envelope: "e/envelope.json", digest: "d", properties: "p", ledger: "l" }, same, same)).toEqual([]);
  });

  it("counts only the latest decisive review, on the head commit, not by the author", () => {
    const reviews = [
      { login: "mia", state: "APPROVED", commitId: "head" },
      { login: "ned", state: "APPROVED", commitId: "head" },
      { login: "ned", state: "CHANGES_REQUESTED", commitId: "head" },
      { login: "ola", state: "APPROVED", commitId: "old" },
      { login: "bot", state: "APPROVED", commitId: "head" },
      { login: "mia", state: "COMMENTED", commitId: "head" },
    ];
    expect(headApprovers(reviews, "head", "bot")).toEqual(["mia"]);
  });
});

const report = (over: Partial<CheckReport> = {}): CheckReport => ({
  verdict: "pass",
  envelope_id: "e",
  envelope_hash: `sha256:${"a".repeat(64)}`,
  events: 3,
  violations: [],
  error: null,
  log: null,
  ...over,
});
const outcome = (result: "pass" | "fail" | "error", frozen = false): PropertyOutcome => ({
  record: { name: "p", result, detail: "", inputs: {}, frozen_by: frozen ? "F-1" : null },
  line: 1,
  frozenBy: frozen
    ? {
        freeze_id: "F-1",
        property: `p#${"0".repeat(16)}`,
        runner_a: "run-1@a",
        runner_b: "run-2@b",
        envelope_hash: "",
        expires_on: "2099-01-01",
        status: "open",
        evidence: "",
        line: 2,
        scope: { name: "p", fingerprint: "0".repeat(16) },
        runA: { runId: "1", machineId: "a" },
        runB: { runId: "2", machineId: "b" },
      }
    : null,
  expired: [],
  refused: [],
  locations: [],
});

describe("the decision table", () => {
  it("maps every case to its conclusion", () => {
    expect(decide({ report: report(), properties: [], policyChange: null })).toMatchObject({ verdict: "pass", conclusion: "success" });
    expect(
      decide({
        report: report({
          verdict: "envelope_fail",
          violations: [{ id: "undeclared_tool:x", rule: "undeclared_tool", subject: "x", first_line: 2, count: 1 }],
        }),
        properties: [],
        policyChange: null,
      }),
    ).toMatchObject({ conclusion: "failure" });
    expect(
      decide({
        report: report({ verdict: "error", error: { code: "GITHUB_UNAVAILABLE", message: "" } }),
        properties: [],
        policyChange: null,
      }),
    ).toMatchObject({ verdict: "error", conclusion: "failure" });
    expect(decide({ report: report(), properties: [outcome("fail")], policyChange: null })).toMatchObject({
      verdict: "property_fail",
      conclusion: "failure",
    });
    expect(decide({ report: report(), properties: [outcome("error", false)], policyChange: null })).toMatchObject({
      conclusion: "failure",
    });
    expect(decide({ report: report(), properties: [outcome("fail", true)], policyChange: null })).toMatchObject({
      verdict: "pass",
      conclusion: "success",
    });
    const change = { changes: [{ path: "e", status: "modified", role: "envelope" as const }], approvedBy: [] };
    expect(decide({ report: report(), properties: [], policyChange: change })).toMatchObject({ conclusion: "action_required" });
    expect(decide({ report: report(), properties: [], policyChange: { ...change, approvedBy: ["mia"] } })).toMatchObject({
      conclusion: "success",
    });
    // A violation beats a pending policy change: the PR cannot widen its way out.
    expect(decide({ report: report({ verdict: "envelope_fail" }), properties: [], policyChange: change })).toMatchObject({
      conclusion: "failure",
    });
  });
});

describe("annotations and summary limits", () => {
  const a = (i: number, level: CheckAnnotation["annotation_level"] = "failure"): CheckAnnotation => ({
    path: "x",
    start_line: i,
    end_line: i,
    annotation_level: level,
    title: `t${i}`,
    message: "m",
  });
  it("batches 50 per request and always sends at least one batch", () => {
    expect(batchAnnotations(Array.from({ length: 101 }, (_, i) => a(i))).map((b) => b.length)).toEqual([50, 50, 1]);
    expect(batchAnnotations([])).toEqual([[]]);
  });
  it("caps the total, keeping failures first", () => {
    const { kept, omitted } = capAnnotations([a(1, "notice"), a(2), a(3, "warning")], 2);
    expect(kept.map((k) => k.annotation_level)).toEqual(["failure", "warning"]);
    expect(omitted).toBe(1);
  });
  it("keeps the summary within GitHub's 65535 characters with thousands of long violations", () => {
    const violations = Array.from({ length: 5000 }, (_, i) => ({
      id: `write_outside_root:/x/${"y".repeat(200)}${i}`,
      rule: "write_outside_root" as const,
      subject: `/x/${i}`,
      first_line: i + 2,
      count: 1,
    }));
    const input: SummaryInput = {
      checkName: "envelope-gate",
      decision: { verdict: "envelope_fail", conclusion: "failure", headline: "5000 envelope violations" },
      report: report({ verdict: "envelope_fail", violations }),
      envelope: null,
      pull: null,
      gating: null,
      policyChange: null,
      properties: null,
      propertiesFile: null,
      ledger: null,
      evidence: null,
      links: [],
      notes: [],
      omittedAnnotations: 4500,
    };
    const text = renderSummary(input);
    expect(text.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(text).toContain("more distinct violations");
    expect(text).toContain("## envelope-gate: FAIL");
  });
});

describe("properties", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const load = (properties: unknown[]) => loadProperties(enc(JSON.stringify({ version: 1, properties }, null, 2)), "props.json");
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof Refusal ? `${err.code}@${err.line}` : String(err);
    }
    return "none";
  };

  it("refuses a property carrying an envelope rule's name, duplicates, unknown keys and bad regexes", () => {
    expect(codeOf(() => load([{ name: "undeclared_env", kind: "patch_paths", globs: ["**"] }]))).toMatch(/^PROPERTIES_INVALID@\d+/);
    expect(
      codeOf(() =>
        load([
          { name: "a", kind: "patch_paths", globs: ["**"] },
          { name: "a", kind: "patch_paths", globs: ["**"] },
        ]),
      ),
    ).toMatch(/^PROPERTIES_INVALID/);
    expect(codeOf(() => load([{ name: "a", kind: "patch_paths", globs: ["**"], extra: 1 }]))).toMatch(/^PROPERTIES_INVALID/);
    expect(codeOf(() => load([{ name: "a", kind: "tests_collected", command: ["x"], min: 1, count_regex: "no group" }]))).toMatch(
      /^PROPERTIES_INVALID/,
    );
    expect(codeOf(() => loadProperties(enc('{"version":1,"version":1,"properties":[]}'), "p"))).toMatch(/^PROPERTIES_INVALID@1/);
  });

  it("scores patch_paths per hunk, output_schema with ajv, tests_collected by lines or a count", () => {
    const decl = load([
      { name: "scope", kind: "patch_paths", globs: ["src/**"] },
      { name: "shape", kind: "output_schema", output: "o.json", schema: { type: "object", required: ["ok"] } },
      { name: "tests", kind: "tests_collected", command: ["t"], min: 2 },
      { name: "count", kind: "tests_collected", command: ["t"], min: 5, count_regex: "(\\d+) tests collected" },
    ]).properties;
    const [scope, shape, tests, count] = decl as [(typeof decl)[0], (typeof decl)[0], (typeof decl)[0], (typeof decl)[0]];
    const patch = "@@ -1,2 +1,3 @@\n a\n+b\n@@ -10,1 +11,2 @@\n+c";
    expect(hunkStarts(patch)).toEqual([1, 11]);
    const s = scorePatchPaths(scope, [
      { filename: "src/a.ts", status: "modified" },
      { filename: "ops/x.sh", status: "modified", patch },
    ]);
    expect(s.result).toBe("fail");
    expect(s.locations.map((l) => [l.path, l.line])).toEqual([
      ["ops/x.sh", 1],
      ["ops/x.sh", 11],
    ]);
    expect(scorePatchPaths(scope, [{ filename: "src/b", status: "renamed", previous_filename: "etc/b" }]).result).toBe("fail");
    expect(scoreOutputSchema(shape, enc('{"ok":1}')).result).toBe("pass");
    expect(scoreOutputSchema(shape, enc("[]")).result).toBe("fail");
    expect(scoreOutputSchema(shape, null).detail).toContain("was not produced");
    expect(scoreTestsCollected(tests, { exitCode: 0, stdout: "a\n\nb\n" }).result).toBe("pass");
    expect(scoreTestsCollected(tests, { exitCode: 0, stdout: "a\n" }).result).toBe("fail");
    expect(scoreTestsCollected(tests, { exitCode: 1, stdout: "a\nb\n" }).result).toBe("fail");
    expect(scoreTestsCollected(tests, { exitCode: null, stdout: "", failure: "t was not found" }).result).toBe("error");
    expect(scoreTestsCollected(count, { exitCode: 0, stdout: "== 7 tests collected ==" }).result).toBe("pass");
    expect(scoreTestsCollected(count, { exitCode: 0, stdout: "nothing" }).result).toBe("fail");
  });
});
