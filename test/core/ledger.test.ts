import { describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { readEvidenceZip } from "../../src/core/evidence.js";
import { freezeEvidenceMismatch, freezeRunsMismatch } from "../../src/core/freeze-evidence.js";
import {
  ENVELOPE_RULE_NAMES,
  LEDGER_HEADER,
  activeFreezes,
  appendLedgerRow,
  applyFreezeCaps,
  expiredFreezes,
  formatLedgerRow,
  isEnvelopeRuleName,
  otherScopeFreezes,
  parseLedger,
  type LedgerRow,
} from "../../src/core/ledger.js";
import { refuseNotFreezable } from "../../src/core/policy-files.js";
import { SARIF_RULES } from "../../src/core/sarif.js";
import { failureFingerprint, loadProperties, scoreOutputSchema, scoreTestsCollected } from "../../src/core/properties.js";
import { bundleFiles, zipOf, type BundleSpec } from "../support/fake-github-app.js";

const HASH = `sha256:${"a".repeat(64)}`;
const EVIDENCE = `sha256:${"b".repeat(64)}`;
const FP = "0123456789abcdef";
const row = (over: Partial<LedgerRow> = {}): LedgerRow => ({
  freeze_id: "F-1",
  property: `schema_order#${FP}`,
  runner_a: "run-101@machine-aaaa",
  runner_b: "run-202@machine-bbbb",
  envelope_hash: HASH,
  expires_on: "2026-12-05",
  status: "open",
  evidence: EVIDENCE,
  ...over,
});
const ledger = (...rows: LedgerRow[]) => [LEDGER_HEADER, ...rows.map(formatLedgerRowUnchecked)].join("\n") + "\n";
function formatLedgerRowUnchecked(r: LedgerRow): string {
  return [r.freeze_id, r.property, r.runner_a, r.runner_b, r.envelope_hash, r.expires_on, r.status, r.evidence].join("\t");
}

describe("parseLedger", () => {
  it("refuses a broken or missing header as LEDGER_INVALID at line 1", () => {
    for (const text of ["", "freeze_id,property\n", LEDGER_HEADER.replace("evidence", "proof") + "\n"]) {
      let caught: unknown;
      try {
        parseLedger(text, "ledger.tsv");
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(Refusal);
      expect((caught as Refusal).code).toBe("LEDGER_INVALID");
      expect((caught as Refusal).line).toBe(1);
    }
  });

  it("reports every malformed row with its line and reason, and never returns it as a row", () => {
    const text =
      ledger(
        row(),
        row({ freeze_id: "F-2", property: `undeclared_env#${FP}` }),
        row({ freeze_id: "F-3", runner_b: "" }),
        row({ freeze_id: "F-4", runner_b: "run-303@machine-aaaa" }),
        row({ freeze_id: "F-5", expires_on: "2026-13-01" }),
        row({ freeze_id: "F-6", evidence: "" }),
        row({ freeze_id: "F-7", evidence: "sha1:abc" }),
        row({ freeze_id: "F-1", property: `other#${FP}` }),
        row({ freeze_id: "F-8", status: "maybe" }),
        row({ freeze_id: "F-9", property: "write_outside_root:/etc" }),
      ) + "F-10\tonly\ttwo\n";
    const parsed = parseLedger(text, "ledger.tsv");
    expect(parsed.rows.map((r) => r.freeze_id)).toEqual(["F-1"]);
    const reasons = new Map(parsed.problems.map((p) => [p.line, p.reason]));
    expect(reasons.get(3)).toContain("envelope rule");
    expect(reasons.get(4)).toContain("one runner");
    expect(reasons.get(5)).toContain("same machine");
    expect(reasons.get(6)).toContain("not a YYYY-MM-DD date");
    expect(reasons.get(7)).toContain("no evidence");
    expect(reasons.get(8)).toContain("not sha256");
    expect(reasons.get(9)).toContain("already appears on line 2");
    expect(reasons.get(10)).toContain("neither open nor closed");
    expect(reasons.get(11)).toContain("envelope rule");
    expect(reasons.get(12)).toContain("columns");
  });

  // Attack 7 of issue 18 and the freeze scope: each form a row only the App writes never has.
  const refused: [string, Partial<LedgerRow>, RegExp][] = [
    ["one machine, two runs", { runner_a: "run-1@machine-aaaa", runner_b: "run-2@machine-aaaa" }, /same machine \("machine-aaaa"\)/],
    ["one machine, two spellings", { runner_a: "run-1@Machine-AAAA", runner_b: "run-2@machine-aaaa" }, /same machine/],
    ["one run on two machines", { runner_a: "run-7@machine-aaaa", runner_b: "run-7@machine-bbbb" }, /same run \(7\)/],
    ["a runner cell without a run", { runner_a: "machine-aaaa" }, /runner_a "machine-aaaa" is not run-<run id>@<machine id>/],
    ["a runner cell with a bad run id", { runner_a: "run-0x1@machine-aaaa" }, /runner_a .* is not run-<run id>@<machine id>/],
    ["a machine id with a slash", { runner_b: "run-9@machine/bbbb" }, /runner_b .* is not run-<run id>@<machine id>/],
    ["a property padded with NBSP", { property: `schema_order\u00a0#${FP}` }, /property cell carries inner whitespace .*U\+00A0/],
    ["a property ending in NBSP", { property: `schema_order#${FP}\u00a0` }, /property cell carries leading or trailing .*U\+00A0/],
    ["a leading ASCII space", { property: ` schema_order#${FP}` }, /property cell carries leading or trailing .*U\+0020/],
    ["a zero-width space", { property: `schema\u200border#${FP}` }, /property cell carries inner .*U\+200B/],
    ["a zero-width joiner in a runner cell", { runner_a: "run-1@machine-aaaa\u200d" }, /runner_a cell carries .*U\+200D/],
    ["a bidi override", { property: `schema_order#${FP}\u202e` }, /property cell carries .*U\+202E/],
    ["an ideographic space in the status", { status: "open\u3000" }, /status cell carries .*U\+3000/],
    ["a byte order mark in the evidence", { evidence: `\ufeff${EVIDENCE}` }, /evidence cell carries .*U\+FEFF/],
    ["trailing space in the freeze id", { freeze_id: "F-1 " }, /freeze_id cell carries leading or trailing/],
    ["no scope", { property: "schema_order" }, /names no failure scope .*never honored/],
    ["a short fingerprint", { property: "schema_order#0123" }, /is not <property>#<16 hex fingerprint>/],
    ["an upper-case fingerprint", { property: `schema_order#${FP.toUpperCase()}` }, /is not <property>#<16 hex fingerprint>/],
    ["a homoglyph in the name", { property: `schema_\u043erder#${FP}` }, /is not <property>#<16 hex fingerprint>/],
  ];
  it.each(refused)("refuses %s, naming the cell", (_, over, reason) => {
    const parsed = parseLedger(ledger(row(over)), "l");
    expect(parsed.rows).toEqual([]);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.line).toBe(2);
    expect(parsed.problems[0]?.reason).toMatch(reason);
  });

  it("clean twin: the App's exact form is a row, its cells split", () => {
    const parsed = parseLedger(ledger(row()), "l");
    expect(parsed.problems).toEqual([]);
    expect(parsed.rows[0]).toMatchObject({
      scope: { name: "schema_order", fingerprint: FP },
      runA: { runId: "101", machineId: "machine-aaaa" },
      runB: { runId: "202", machineId: "machine-bbbb" },
    });
  });

  it("refuses a duplicate of an earlier row's scope and envelope hash, naming the first line", () => {
    const parsed = parseLedger(
      ledger(row(), row({ freeze_id: "F-2" }), row({ freeze_id: "F-3", property: `schema_order#${"f".repeat(16)}` })),
      "l",
    );
    expect(parsed.rows.map((r) => r.freeze_id)).toEqual(["F-1", "F-3"]);
    expect(parsed.problems).toEqual([
      expect.objectContaining({ line: 3, freeze_id: "F-2", reason: expect.stringContaining("duplicates the row on line 2") }),
    ]);
  });

  it("a line of only invisible characters is a problem, not a blank line", () => {
    const parsed = parseLedger(`${LEDGER_HEADER}\n\u00a0\u200b\n`, "l");
    expect(parsed.problems).toHaveLength(1);
  });

  it("keeps the envelope rule names a freeze may never carry: every violation rule", () => {
    // SARIF_RULES is keyed by every ViolationRule (a Record): a new rule cannot be left out here.
    for (const name of SARIF_RULES) expect(ENVELOPE_RULE_NAMES).toContain(name);
    expect(isEnvelopeRuleName("docker_refused:unix:/var/run/docker.sock")).toBe(true);
  });
});

describe("active and expired freezes", () => {
  const rows = parseLedger(
    ledger(
      row(),
      row({ freeze_id: "F-2", expires_on: "2026-11-30", property: `schema_order#${"1".repeat(16)}` }),
      row({ freeze_id: "F-3", status: "closed", property: `schema_order#${"2".repeat(16)}` }),
      row({ freeze_id: "F-4", envelope_hash: `sha256:${"c".repeat(64)}` }),
      row({ freeze_id: "F-5", property: `schema_order#${"3".repeat(16)}` }),
    ),
    "l",
  ).rows;
  const q = { property: "schema_order", fingerprint: FP, envelopeHash: HASH, today: "2026-11-30" };

  it("is active while open and today is before expires_on, for this failure and envelope hash only", () => {
    expect(activeFreezes(rows, q).map((r) => r.freeze_id)).toEqual(["F-1"]);
    expect(activeFreezes(rows, { ...q, property: "other" })).toEqual([]);
    expect(activeFreezes(rows, { ...q, today: "2026-12-05" })).toEqual([]);
  });

  it("a row names the failure it tolerates: another fingerprint of the same property is not covered", () => {
    expect(activeFreezes(rows, { ...q, fingerprint: "9".repeat(16) })).toEqual([]);
    expect(activeFreezes(rows, { ...q, fingerprint: null })).toEqual([]);
    expect(otherScopeFreezes(rows, { ...q, fingerprint: "9".repeat(16) }).map((r) => r.freeze_id)).toEqual(["F-1", "F-5"]);
  });

  it("is expired on its expiry date", () => {
    expect(expiredFreezes(rows, { ...q, fingerprint: "1".repeat(16) }).map((r) => r.freeze_id)).toEqual(["F-2"]);
    expect(expiredFreezes(rows, q)).toEqual([]);
  });

  it("caps freeze length and the number of active freezes", () => {
    const parsed = parseLedger(
      ledger(row(), row({ freeze_id: "F-2", expires_on: "2027-01-30", property: `schema_order#${"1".repeat(16)}` })),
      "l",
    );
    const decision = applyFreezeCaps(parsed, "2026-11-30", { maxActive: 10, maxDays: 14 });
    expect(decision.honored.map((r) => r.freeze_id)).toEqual(["F-1"]);
    expect(decision.refused[0]?.reason).toContain("more than the 14-day cap");
    const crowded = applyFreezeCaps(parsed, "2026-11-30", { maxActive: 1, maxDays: 400 });
    expect(crowded.honored).toEqual([]);
    expect(crowded.refused.every((p) => p.reason.includes("cap of 1"))).toBe(true);
  });
});

describe("non-freezable properties", () => {
  const declare = (properties: unknown[]) => loadProperties(new TextEncoder().encode(JSON.stringify({ version: 1, properties })), "p.json");

  it("a row naming a patch_paths property, or one declared freezable: false, is FREEZE_NOT_FREEZABLE", () => {
    const props = declare([
      { name: "scope", kind: "patch_paths", globs: ["src/**"] },
      { name: "shape", kind: "output_schema", output: "o.json", schema: {}, freezable: false },
      { name: "tests", kind: "tests_collected", command: ["t"], min: 1 },
    ]);
    const parsed = parseLedger(
      ledger(
        row({ property: `scope#${FP}` }),
        row({ freeze_id: "F-2", property: `shape#${FP}` }),
        row({ freeze_id: "F-3", property: `tests#${FP}` }),
      ),
      "l",
    );
    const decision = refuseNotFreezable(applyFreezeCaps(parsed, "2026-11-30", { maxActive: 10, maxDays: 14 }), props);
    expect(decision.honored.map((r) => r.freeze_id)).toEqual(["F-3"]);
    expect(decision.refused.map((p) => [p.freeze_id, p.code])).toEqual([
      ["F-1", "FREEZE_NOT_FREEZABLE"],
      ["F-2", "FREEZE_NOT_FREEZABLE"],
    ]);
    expect(decision.refused[0]?.reason).toContain("patch_paths");
    expect(decision.refused[1]?.reason).toContain('"freezable": false');
  });

  it("patch_paths cannot be declared freezable", () => {
    expect(() => declare([{ name: "scope", kind: "patch_paths", globs: ["src/**"], freezable: true }])).toThrow(
      /freezable" must be false: patch_paths/,
    );
  });
});

describe("formatLedgerRow / appendLedgerRow", () => {
  it("round-trips a row and keeps the header", () => {
    const text = appendLedgerRow("", row());
    expect(text.split("\n")[0]).toBe(LEDGER_HEADER);
    const again = appendLedgerRow(text, row({ freeze_id: "F-2", property: `schema_order#${"1".repeat(16)}` }));
    expect(parseLedger(again, "l").rows.map((r) => r.freeze_id)).toEqual(["F-1", "F-2"]);
    expect(() => appendLedgerRow(again, row())).toThrow(/already in the ledger/);
    expect(() => appendLedgerRow(again, row({ freeze_id: "F-3" }))).toThrow(/duplicates the row on line 2/);
  });

  it("refuses to write a row that would never be honored or that carries a tab", () => {
    expect(() => formatLedgerRow(row({ property: `undeclared_tool#${FP}` }))).toThrow(Refusal);
    expect(() => formatLedgerRow(row({ runner_b: "run-9@machine-aaaa" }))).toThrow(/same machine/);
    expect(() => formatLedgerRow(row({ property: "schema_order" }))).toThrow(/no failure scope/);
    expect(() => formatLedgerRow(row({ property: "a\tb" }))).toThrow(/tab or newline/);
  });
});

describe("failure fingerprints", () => {
  const enc = (text: string) => new TextEncoder().encode(text);
  const props = loadProperties(
    enc(
      JSON.stringify({
        version: 1,
        properties: [
          { name: "shape", kind: "output_schema", output: "o.json", schema: { type: "object", required: ["ok"] } },
          { name: "tests", kind: "tests_collected", command: ["t"], min: 5 },
        ],
      }),
    ),
    "p.json",
  ).properties;
  const shape = props[0]!;
  const tests = props[1]!;
  const fp = (score: { signature?: Record<string, unknown> }, d = shape) =>
    failureFingerprint(d.declaration.name, d.declaration.kind, score.signature!);

  it("is the same failure wherever it happens: values found, output bytes and timing are not part of it", () => {
    expect(fp(scoreOutputSchema(shape, enc('{"nope":true}')))).toBe(fp(scoreOutputSchema(shape, enc('{ "other": [1, 2, 3] }'))));
    const few = (stdout: string) => scoreTestsCollected(tests, { exitCode: 0, stdout });
    expect(fp(few("a\nb\n"), tests)).toBe(fp(few("x 0.2s\ny 1.5s\n"), tests));
    expect(fp(few("a\nb\n"), tests)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("differs between failures: another schema rule, a missing file, another count or exit code", () => {
    const all = [
      fp(scoreOutputSchema(shape, enc('{"nope":true}'))),
      fp(scoreOutputSchema(shape, enc("[]"))),
      fp(scoreOutputSchema(shape, null)),
      fp(scoreOutputSchema(shape, enc("not json"))),
      fp(scoreTestsCollected(tests, { exitCode: 0, stdout: "a\n" }), tests),
      fp(scoreTestsCollected(tests, { exitCode: 0, stdout: "a\nb\n" }), tests),
      fp(scoreTestsCollected(tests, { exitCode: 1, stdout: "" }), tests),
      fp(scoreTestsCollected(tests, { exitCode: 2, stdout: "" }), tests),
    ];
    expect(new Set(all).size).toBe(all.length);
  });

  it("a pass has no signature; a command that did not finish is an error, never a fingerprinted fail", () => {
    expect(scoreOutputSchema(shape, enc('{"ok":1}')).signature).toBeUndefined();
    const stopped = scoreTestsCollected(tests, { exitCode: null, stdout: "", failure: "timed out" });
    expect(stopped.result).toBe("error");
    expect(stopped.signature).toBeUndefined();
  });
});

describe("a row against its runs' evidence and GitHub's account of the runs", () => {
  const head = "e".repeat(40);
  const files = (machineId: string, runId: number, result: "pass" | "fail", over: Partial<BundleSpec> = {}) =>
    readEvidenceZip(
      zipOf(
        bundleFiles({
          machineId,
          headSha: head,
          envelopeHash: HASH,
          repository: "acme/widgets",
          workflowRunId: runId,
          properties: [{ name: "schema_order", result, fingerprint: FP }],
          ...over,
        }),
      ),
    );
  const a = files("machine-aaaa", 101, "fail");
  const b = files("machine-bbbb", 202, "pass");
  const rowFor = (over: Partial<LedgerRow> = {}) => parseLedger(ledger(row({ evidence: a.digest, ...over })), "l").rows[0]!;
  const runs = {
    a: { id: 101, event: "pull_request", head_sha: head, repository: "acme/widgets" },
    b: { id: 202, event: "workflow_dispatch", head_sha: "f".repeat(40), repository: "acme/widgets" },
  };

  it("clean twin: the App's row matches both bundles and both runs", () => {
    expect(freezeEvidenceMismatch(rowFor(), a, b, "acme/widgets")).toBeNull();
    expect(freezeRunsMismatch(rowFor(), runs, { a, b }, "acme/widgets")).toBeNull();
  });

  const mismatches: [string, () => string | null, RegExp][] = [
    [
      "an evidence digest of no bundle",
      () => freezeEvidenceMismatch(rowFor({ evidence: `sha256:${"0".repeat(64)}` }), a, b, "acme/widgets"),
      /runner A's evidence digest is/,
    ],
    [
      "a machine the bundle does not name",
      () => freezeEvidenceMismatch(rowFor({ runner_b: "run-202@machine-cccc" }), a, b, "acme/widgets"),
      /runner B's runner.json names machine "machine-bbbb"/,
    ],
    [
      "a run the bundle is not of",
      () => freezeEvidenceMismatch(rowFor({ runner_a: "run-103@machine-aaaa" }), a, b, "acme/widgets"),
      /runner A's runner.json is of run "101"/,
    ],
    ["another repository", () => freezeEvidenceMismatch(rowFor(), a, b, "acme/other"), /is of "acme\/widgets", not acme\/other/],
    [
      "another envelope",
      () => freezeEvidenceMismatch(rowFor({ envelope_hash: `sha256:${"c".repeat(64)}` }), a, b, "acme/widgets"),
      /was under envelope/,
    ],
    [
      "another failure on A",
      () => freezeEvidenceMismatch(rowFor({ property: `schema_order#${"9".repeat(16)}` }), a, b, "acme/widgets"),
      /does not record schema_order failing with fingerprint 9{16}/,
    ],
    [
      "B not passing",
      () => freezeEvidenceMismatch(rowFor(), a, files("machine-bbbb", 202, "fail"), "acme/widgets"),
      /runner B's evidence does not record schema_order passing/,
    ],
    [
      "B not dispatched",
      () => freezeRunsMismatch(rowFor(), { ...runs, b: { ...runs.b, event: "pull_request" } }, { a, b }, "acme/widgets"),
      /not one the App dispatched/,
    ],
    [
      "A of another commit",
      () => freezeRunsMismatch(rowFor(), { ...runs, a: { ...runs.a, head_sha: "d".repeat(40) } }, { a, b }, "acme/widgets"),
      /runner A's run 101 ran d{40}/,
    ],
  ];
  it.each(mismatches)("refuses %s", (_, check, reason) => {
    expect(check()).toMatch(reason);
  });
});
