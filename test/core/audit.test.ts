/** src/core/audit.ts: the footprint of a log, the audit's decision, and a summary that shows what the run wrote, never renders it. */
import { describe, expect, it } from "vitest";
import {
  STARTER_ENVELOPE,
  STARTER_ENVELOPE_TEXT,
  auditDecision,
  auditFootprint,
  renderAuditSummary,
  type AuditSummaryInput,
} from "../../src/core/audit.js";
import { loadEnvelope } from "../../src/core/envelope.js";
import { reportFromError } from "../../src/core/verdict.js";
import { Refusal } from "../../src/core/errors.js";
import { suggestEnvelope } from "../../src/core/suggest.js";
import { HOSTILE, harmlessProblems, render, shownText } from "../support/gfm.js";
import { logLines, recordedLog } from "../support/logs.js";

describe("auditFootprint", () => {
  it("counts distinct writes outside the roots, env keys, hosts, commands and tools; leaves out canaries, runtime reads and own loopback", () => {
    // A whole log, read by the reader check uses (a canary comes before the run's events).
    const log = recordedLog(
      "observer.jsonl",
      logLines(
        "sha256:x",
        [
          { kind: "write", path: "/etc/x", op: "write", canary: true },
          { kind: "write", path: "/work/ws/a.txt", op: "write" },
          { kind: "write", path: "/etc/passwd", op: "write", ok: false },
          { kind: "write", path: "/etc/passwd", op: "write" },
          { kind: "env", key: "FORCE_COLOR", source: "runtime" },
          { kind: "env", key: "SECRET", source: "node" },
          { kind: "host", host: "Example.COM", port: 443, source: "proxy" },
          { kind: "host", host: "127.0.0.1", port: 53, source: "process" },
          { kind: "exec", path: "/usr/bin/curl", argv: ["curl"] },
          { kind: "tool", name: "apply_patch" },
        ],
        { meta: { network_enforced: true } },
      ),
    );
    expect(auditFootprint(log, STARTER_ENVELOPE, ["/work/ws", "/tmp/scratch"])).toEqual({
      writesOutsideRoots: ["/etc/passwd"],
      envKeys: ["SECRET"],
      hosts: ["example.com:443"],
      // Started by name: named by its allowed_commands entry, as suggest and the footprint name it.
      commands: ["curl"],
      tools: ["apply_patch"],
    });
  });
});

describe("auditDecision", () => {
  it("is neutral, verdict audit, with counts in the headline", () => {
    expect(auditDecision(2, 1)).toEqual({
      verdict: "audit",
      conclusion: "neutral",
      headline: "2 violations under the current envelope; suggested envelope adds 1 entry",
    });
  });
});

describe("the starter envelope", () => {
  it("loads, and is the documented one", () => {
    const e = loadEnvelope(new TextEncoder().encode(STARTER_ENVELOPE_TEXT), "starter").envelope;
    expect(e).toEqual({
      envelope_id: "starter-envelope",
      allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
      allowed_tools: [],
      allowed_env: ["PATH", "@ci"],
      allowed_hosts: [],
      network: "deny",
    });
  });
});

describe("renderAuditSummary", () => {
  const hostile = "<img src=x onerror=alert(1)> @octocat #12 ```";
  const input = (): AuditSummaryInput => ({
    checkName: "envelope-gate (audit)",
    decision: auditDecision(0, 1),
    report: { ...reportFromError(new Refusal("INTERNAL_ERROR", "x"), null), verdict: "pass", error: null },
    envelope: {
      id: hostile,
      hash: "sha256:" + "a".repeat(64),
      file: null,
      ref: "c".repeat(40),
      source: "pushed commit on refs/heads/main",
    },
    target: { kind: "commit", sha: "c".repeat(40), ref: "refs/heads/main" },
    footprint: { writesOutsideRoots: [hostile], envKeys: [hostile], hosts: [], commands: [], tools: [] },
    added: [{ key: "allowed_env", entry: hostile, covers: [hostile], count: 1, first: "log:2" }],
    notProposed: [],
    suggestionNotes: [hostile],
    diff: `+ "${hostile}"\n\`\`\`\n# not a heading`,
    suggestedText: `{"x": "${hostile}"}\n`,
    suggestedDigestLine: `${"b".repeat(64)}  envelope.json\n`,
    suggestedPath: "/tmp/e/suggested-envelope.json",
    evidence: { artifact: "envelope-gate-evidence", digest: null },
    envelopePath: ".github/envelope-gate/envelope.json",
    digestPath: ".github/envelope-gate/envelope.json.sha256",
    notes: [hostile],
  });

  it("escapes everything the run or the repository wrote: rendered by a real GFM renderer, nothing but our own markdown", () => {
    for (const h of [...HOSTILE, hostile]) {
      const i = input();
      const md = renderAuditSummary({
        ...i,
        envelope: { ...i.envelope, id: h },
        footprint: { writesOutsideRoots: [h], envKeys: [h], hosts: [h], commands: [h], tools: [h] },
        added: [{ key: "allowed_env", entry: h, covers: [h, "X"], count: 1, first: h }],
        notProposed: [{ key: "allowed_env", entry: h, kind: "credential", why: h, covers: [h, "X"], count: 1, first: h, program: h }],
        suggestionNotes: [h],
        diff: `+ "${h}"`,
        suggestedText: `{"x": "${h}"}\n`,
        notes: [h],
      });
      const r = render(md);
      expect(harmlessProblems(r), `${h}: ${r.html}`).toEqual([]);
    }
  });

  it("a fence in the envelope's text does not end the diff or the envelope block", () => {
    const md = renderAuditSummary(input());
    const r = render(md);
    const blocks = r.textIn("pre");
    expect(blocks.some((b) => b.includes("# not a heading") && b.includes("```"))).toBe(true);
    expect(r.elements.filter((e) => e.name === "h1")).toEqual([]);
    expect(md).toContain(`${"b".repeat(64)}  envelope.json`);
    expect(md).toContain("the starter envelope was applied");
  });

  it("lists what the suggestion never proposes apart, each with why (issue 31, item 3)", () => {
    const log = (events: Record<string, unknown>[]) =>
      recordedLog("o.jsonl", logLines("sha256:recorded", events, { meta: { network_enforced: true, workspace: "/w", scratch: "/s" } }));
    const s = suggestEnvelope(
      [
        log([
          ...["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "SONAR_LOGIN"].map((key) => ({
            kind: "env",
            key,
            source: "node",
          })),
          { kind: "write", path: "/usr/lib/x/y.pyc", op: "create", ok: false, source: "process" },
        ]),
      ],
      null,
    );
    const text = shownText(renderAuditSummary({ ...input(), added: s.added, notProposed: s.notProposed }));
    const [, apart = ""] = text.split("Not proposed");
    expect(apart).toMatch(/AWS_SECRET_ACCESS_KEY\s+credential: names a secret/);
    expect(apart).toMatch(/RUNNER_NAME\s+machine identity/);
    expect(apart).toMatch(/HOSTNAME\s+machine identity/);
    expect(apart).toMatch(/GITHUB_RUN_ID\s+run identity/);
    expect(apart).toMatch(/SONAR_LOGIN\s+credential: names a login/);
    expect(apart).toMatch(/\/usr\/lib\/x\s*covers \S+\s+the system's directories.*PYTHONDONTWRITEBYTECODE would have avoided them/);
  });

  it("stays within the size given, shortening lists first", () => {
    const big = input();
    big.footprint.envKeys = Array.from({ length: 5000 }, (_, i) => `KEY_${i}_${"x".repeat(20)}`);
    big.added = big.footprint.envKeys.map((k) => ({ key: "allowed_env" as const, entry: k, covers: [k], count: 1, first: "log:1" }));
    const md = renderAuditSummary(big, 65535);
    expect(md.length).toBeLessThanOrEqual(65535);
    expect(md).toContain("more (see the suggested envelope below)");
  });
});
