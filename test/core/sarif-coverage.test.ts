/** SARIF of violations (src/core/sarif.ts) and coverage per class (src/core/coverage.ts). */
import { describe, expect, it } from "vitest";
import { logCoverage } from "../../src/core/coverage.js";
import { walkLog } from "../../src/core/log-reader.js";

const walked = (text: string) => walkLog({ file: "observer.jsonl", bytes: new TextEncoder().encode(text) }, null);
import { SARIF_RULES, buildSarif } from "../../src/core/sarif.js";
import type { Violation } from "../../src/core/log-reader.js";
import { renderSummary } from "../../src/core/summary.js";
import { VERSION } from "../../src/core/version.js";
import { logText } from "../support/logs.js";

const HASH = "sha256:" + "c".repeat(64);

function v(rule: Violation["rule"], subject: string, first = 3, count = 1): Violation {
  return { id: `${rule}:${subject}`, rule, subject, first_line: first, count };
}

describe("buildSarif", () => {
  const envelope = {
    file: ".github/envelope-gate/envelope.json",
    lines: new Map([
      ["/allowed_env", 5],
      ["/allowed_roots", 3],
    ]),
    id: "e1",
    hash: HASH,
  };

  it("one result per violation; a protected path in the workspace is located there, the rest at the envelope's rule line", () => {
    const sarif = buildSarif({
      violations: [
        v("undeclared_env", "AWS_KEY", 4, 2),
        v("write_protected", "/w/repo/.github/workflows/x yml"),
        v("write_outside_root", "/etc/passwd"),
      ],
      checkName: "envelope-gate",
      envelope,
      workspace: "/w/repo",
      logName: "observer.jsonl",
      toolVersion: VERSION,
    }) as {
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        automationDetails: { id: string };
        results: {
          ruleId: string;
          ruleIndex: number;
          message: { text: string };
          locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
          partialFingerprints: Record<string, string>;
        }[];
      }[];
    };
    const run = sarif.runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(SARIF_RULES);
    expect(run.automationDetails.id).toBe("envelope-gate");
    expect(run.results.map((r) => r.ruleId)).toEqual(["undeclared_env", "write_protected", "write_outside_root"]);
    const [env, prot, outside] = run.results;
    expect(env?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: ".github/envelope-gate/envelope.json", uriBaseId: "%SRCROOT%" },
      region: { startLine: 5 },
    });
    expect(env?.message.text).toContain("first at observer.jsonl line 4, 2 times");
    expect(prot?.locations[0]?.physicalLocation.artifactLocation.uri).toBe(".github/workflows/x%20yml");
    expect(outside?.locations[0]?.physicalLocation.region?.startLine).toBe(3);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex]?.id).toBe(r.ruleId);
    // Distinct violations, distinct and stable fingerprints.
    const fps = run.results.map((r) => Object.values(r.partialFingerprints)[0]);
    expect(new Set(fps).size).toBe(3);
    expect(fps[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a subject the run chose cannot put an embedded link, a bidi control or a line break into a result's message", () => {
    // SARIF 2.1.0 §3.11.6: in a plain-text message `[text](target)` is a link (code scanning
    // renders it); a backslash escapes the next character. What a consumer reads from the message:
    function read(text: string): { shown: string; links: string[] } {
      let shown = "";
      const links: string[] = [];
      for (let i = 0; i < text.length; i++) {
        const c = text[i] as string;
        if (c === "\\") {
          shown += text[++i] ?? "";
          continue;
        }
        if (c === "[") {
          const m = /^\[((?:\\.|[^\\\]])*)\]\(([^)]*)\)/.exec(text.slice(i));
          if (m) {
            links.push(m[2] as string);
            shown += m[1] as string;
            i += m[0].length - 1;
            continue;
          }
        }
        shown += c;
      }
      return { shown, links };
    }
    const hostile = [
      v("write_outside_root", "/w/x/[click here](https://evil.example/login)"),
      v("undeclared_env", "K[a](0)\\[b](https://evil.example)"),
      v("undeclared_host", "evil.example\u202e:443\nfixed: nothing to do"),
    ];
    const sarif = buildSarif({
      violations: hostile,
      checkName: "c",
      envelope,
      workspace: "/w/repo",
      logName: "observer.jsonl",
      toolVersion: VERSION,
    }) as {
      runs: { results: { message: { text: string } }[] }[];
    };
    const messages = sarif.runs[0]!.results.map((r) => r.message.text);
    for (const m of messages) {
      expect(read(m).links, m).toEqual([]);
      expect(m).not.toMatch(/[\n\r\u202e]/);
    }
    expect(read(messages[0]!).shown).toContain("/w/x/[click here](https://evil.example/login)");
    expect(read(messages[1]!).shown).toContain("K[a](0)\\[b](https://evil.example)");
    expect(read(messages[2]!).shown).toContain("evil.example\\u{202E}:443 fixed: nothing to do");
  });

  it("a repository-like directory beside the workspace is not inside it", () => {
    const sarif = buildSarif({
      violations: [v("write_outside_root", "/w/repo-evil/x")],
      checkName: "c",
      envelope,
      workspace: "/w/repo",
      logName: "l",
      toolVersion: VERSION,
    }) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    expect(sarif.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe(".github/envelope-gate/envelope.json");
  });
});

describe("logCoverage", () => {
  it("counts per class and source, names how many programs were Node, and says what a Node-only log cannot see", () => {
    const text = logText(
      HASH,
      [
        // The self-check block comes first (check refuses a canary after the run's events).
        { kind: "env", key: "CANARY", source: "node", canary: true },
        { kind: "exec", path: "/usr/bin/node", argv: ["node"], source: "process" },
        { kind: "exec", path: "/usr/bin/git", argv: ["git"], source: "process" },
        { kind: "exec", path: "/usr/bin/git", argv: ["git"], source: "process" },
        { kind: "env", key: "X", source: "node" },
        { kind: "write", path: "/w/a", op: "create", source: "node" },
        { kind: "write", path: "/w/a", op: "create", source: "process" },
        { kind: "host", host: "example.com", port: 443, source: "proxy" },
        { kind: "tool", name: "apply_patch", source: "sdk" },
      ],
      { meta: { network_enforced: true } },
    );
    const c = logCoverage(walked(text));
    expect(c.programs).toEqual({ total: 2, node: 1 });
    const row = (name: string) => c.rows.find((r) => r.class === name);
    expect(row("execs")?.events).toBe(3);
    expect(row("env reads")).toMatchObject({ events: 1, recorded_by: "Node hooks 1" });
    expect(row("env reads")?.limit).toContain("1 of 2 executed programs were Node");
    expect(row("writes")?.recorded_by).toBe("Node hooks 1, process observer (strace) 1");
    expect(row("network")?.recorded_by).toBe("egress proxy 1");
    expect(row("network")?.limit).toMatch(/^enforced by the jail/);
    expect(row("tools")?.recorded_by).toBe("SDK (recordTool) 1");

    const nodeOnly = logCoverage(walked(logText(HASH, [], { meta: { observers: ["node"], network_enforced: false } })));
    expect(nodeOnly.rows.find((r) => r.class === "writes")?.limit).toMatch(/^only Node processes/);
    expect(nodeOnly.rows.find((r) => r.class === "network")?.limit).toMatch(/^not enforced/);
    expect(nodeOnly.rows.find((r) => r.class === "writes")?.recorded_by).toBe("nothing recorded");
  });

  it("renders one escaped row per class in the summary", () => {
    const coverage = logCoverage(walked(logText(HASH, [{ kind: "exec", path: "/usr/bin/node", argv: ["node"], source: "process" }])));
    const md = renderSummary({
      checkName: "envelope-gate",
      decision: { verdict: "pass", conclusion: "success", headline: "clean" },
      report: null,
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
      omittedAnnotations: 0,
      coverage,
    });
    expect(md).toContain("| class | recorded by | events | limit |");
    for (const cls of ["writes", "execs", "env reads", "network", "tools"]) expect(md).toMatch(new RegExp(`\\n\\| ${cls} \\|`));
    expect(md).toContain("| execs | process observer \\(strace\\) 1 | 1 |");
  });
});
