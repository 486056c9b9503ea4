/**
 * Every envelope the docs show (a ```json block with `envelope_id` and an `allowed_*` key; a check
 * report names an envelope_id too, and is no envelope) is one the envelope validator
 * accepts, and the starter envelope shown is the one the code applies (STARTER_ENVELOPE).
 */
import { describe, expect, it } from "vitest";
import { loadEnvelope } from "../../src/core/envelope.js";
import { STARTER_ENVELOPE, STARTER_ENVELOPE_TEXT } from "../../src/core/audit.js";
import { codeBlocks, docFiles } from "./markdown-commands.js";

function looksLikeAnEnvelope(text: string): boolean {
  return text.includes('"envelope_id"') && /"allowed_(roots|tools|env|hosts|commands)"/.test(text);
}

const envelopes = docFiles().flatMap((file) =>
  codeBlocks(file)
    .filter((b) => b.lang === "json" && looksLikeAnEnvelope(b.lines.map((l) => l.text).join("\n")))
    .map((b) => ({ where: `${b.file}:${b.line}`, text: b.lines.map((l) => l.text).join("\n") + "\n" })),
);

describe("the envelopes shown in README.md and docs/", () => {
  it("are found (the starter in docs/authoring.md and docs/action.md among them)", () => {
    expect(envelopes.some((e) => e.where.startsWith("docs/authoring.md:"))).toBe(true);
    expect(envelopes.some((e) => e.where.startsWith("docs/action.md:"))).toBe(true);
  });

  it("each validates with the project's own envelope validator", () => {
    const refused: string[] = [];
    for (const e of envelopes) {
      try {
        loadEnvelope(Buffer.from(e.text), e.where);
      } catch (err) {
        refused.push(`${e.where}: ${(err as Error).message}`);
      }
    }
    expect(refused.join("\n")).toBe("");
  });

  it("the validator refuses the starter the issue found (no allowed_tools), so the check above can fail", () => {
    const { allowed_tools: _dropped, ...withoutTools } = STARTER_ENVELOPE;
    expect(() => loadEnvelope(Buffer.from(JSON.stringify(withoutTools)), "old-starter.json")).toThrow(/allowed_tools/);
  });

  it("every starter shown is the code's, key for key and in its order", () => {
    const starters = envelopes.filter((e) => e.text.includes(`"envelope_id": "${STARTER_ENVELOPE.envelope_id}"`));
    expect(starters.length).toBeGreaterThanOrEqual(2);
    for (const s of starters) {
      expect(JSON.parse(s.text), s.where).toEqual(STARTER_ENVELOPE);
      expect(Object.keys(JSON.parse(s.text) as object), s.where).toEqual(Object.keys(JSON.parse(STARTER_ENVELOPE_TEXT) as object));
    }
  });
});
