import { describe, expect, it } from "vitest";
import { GateError } from "../../src/core/errors.js";
import {
  ENVELOPE_RULE_NAMES,
  LEDGER_HEADER,
  activeFreezes,
  appendLedgerRow,
  applyFreezeCaps,
  expiredFreezes,
  formatLedgerRow,
  parseLedger,
  type LedgerRow,
} from "../../src/core/ledger.js";

const HASH = `sha256:${"a".repeat(64)}`;
const EVIDENCE = `sha256:${"b".repeat(64)}`;
const row = (over: Partial<LedgerRow> = {}): LedgerRow => ({
  freeze_id: "F-1",
  property: "schema_order",
  runner_a: "runner-a",
  runner_b: "runner-b",
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
      expect(caught).toBeInstanceOf(GateError);
      expect((caught as GateError).code).toBe("LEDGER_INVALID");
      expect((caught as GateError).line).toBe(1);
    }
  });

  it("reports every malformed row with its line and reason, and never returns it as a row", () => {
    const text =
      ledger(
        row(),
        row({ freeze_id: "F-2", property: "undeclared_env" }),
        row({ freeze_id: "F-3", runner_b: "" }),
        row({ freeze_id: "F-4", runner_b: "runner-a" }),
        row({ freeze_id: "F-5", expires_on: "2026-13-01" }),
        row({ freeze_id: "F-6", evidence: "" }),
        row({ freeze_id: "F-7", evidence: "sha1:abc" }),
        row({ freeze_id: "F-1" }),
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

  it("keeps the envelope rule names a freeze may never carry", () => {
    for (const name of [
      "write_outside_root",
      "undeclared_tool",
      "undeclared_env",
      "network_denied",
      "undeclared_host",
      "undeclared_command",
    ]) {
      expect(ENVELOPE_RULE_NAMES).toContain(name);
    }
  });
});

describe("active and expired freezes", () => {
  const rows = parseLedger(
    ledger(
      row(),
      row({ freeze_id: "F-2", expires_on: "2026-11-30" }),
      row({ freeze_id: "F-3", status: "closed" }),
      row({ freeze_id: "F-4", envelope_hash: `sha256:${"c".repeat(64)}` }),
    ),
    "l",
  ).rows;
  const q = { property: "schema_order", envelopeHash: HASH, today: "2026-11-30" };

  it("is active while open and today is before expires_on, for this property and envelope hash only", () => {
    expect(activeFreezes(rows, q).map((r) => r.freeze_id)).toEqual(["F-1"]);
    expect(activeFreezes(rows, { ...q, property: "other" })).toEqual([]);
    expect(activeFreezes(rows, { ...q, today: "2026-12-05" })).toEqual([]);
  });

  it("is expired on its expiry date", () => {
    expect(expiredFreezes(rows, q).map((r) => r.freeze_id)).toEqual(["F-2"]);
  });

  it("caps freeze length and the number of active freezes", () => {
    const parsed = parseLedger(ledger(row(), row({ freeze_id: "F-2", expires_on: "2027-01-30" })), "l");
    const decision = applyFreezeCaps(parsed, "2026-11-30", { maxActive: 10, maxDays: 14 });
    expect(decision.honored.map((r) => r.freeze_id)).toEqual(["F-1"]);
    expect(decision.refused[0]?.reason).toContain("more than the 14-day cap");
    const crowded = applyFreezeCaps(parsed, "2026-11-30", { maxActive: 1, maxDays: 400 });
    expect(crowded.honored).toEqual([]);
    expect(crowded.refused.every((p) => p.reason.includes("cap of 1"))).toBe(true);
  });
});

describe("formatLedgerRow / appendLedgerRow", () => {
  it("round-trips a row and keeps the header", () => {
    const text = appendLedgerRow("", row());
    expect(text.split("\n")[0]).toBe(LEDGER_HEADER);
    const again = appendLedgerRow(text, row({ freeze_id: "F-2" }));
    expect(parseLedger(again, "l").rows.map((r) => r.freeze_id)).toEqual(["F-1", "F-2"]);
    expect(() => appendLedgerRow(again, row())).toThrow(/already in the ledger/);
  });

  it("refuses to write a row that would never be honored or that carries a tab", () => {
    expect(() => formatLedgerRow(row({ property: "undeclared_tool" }))).toThrow(GateError);
    expect(() => formatLedgerRow(row({ runner_b: "runner-a" }))).toThrow(/same machine/);
    expect(() => formatLedgerRow(row({ property: "a\tb" }))).toThrow(/tab or newline/);
  });
});
