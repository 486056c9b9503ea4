import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { envelopeSchema } from "../../src/core/envelope.js";
import { validate } from "../../src/core/envelope-validator-generated.js";
// @ts-expect-error: a build script, plain JavaScript without types
import { GENERATED, envelopeValidatorSource } from "../../scripts/gen-validators.mjs";

describe("the envelope's precompiled validator (scripts/gen-validators.mjs)", () => {
  it("is what the script writes from today's schema and ajv (run it again when this fails)", async () => {
    expect(readFileSync(GENERATED as string, "utf8")).toBe(await (envelopeValidatorSource as () => Promise<string>)());
  });

  it("says what ajv's own compile of the schema says, errors included", () => {
    const compiled = new Ajv({ allErrors: true, strict: true, validateSchema: false }).compile(envelopeSchema);
    const base = {
      envelope_id: "e",
      allowed_roots: ["${WORKSPACE}"],
      allowed_tools: [],
      allowed_env: [],
      allowed_hosts: [],
      network: "deny",
    };
    const documents: unknown[] = [
      base,
      { ...base, network: "open" },
      { ...base, extra: 1 },
      { ...base, envelope_id: "" },
      { ...base, envelope_id: "x".repeat(201) },
      { ...base, envelope_id: "\u{1F600}".repeat(200) },
      { ...base, allowed_roots: ["relative", "relative"] },
      { ...base, allowed_env: ["A", "A", 3] },
      { ...base, writable_protected: [".git/hooks"] },
      { ...base, services: ["tcp:localhost:5432", 7] },
      { ...base, observation: "node", loopback: "network" },
      { network: "deny" },
      [],
      null,
      "envelope",
    ];
    for (const doc of documents) {
      const ok = compiled(doc);
      expect(validate(doc), JSON.stringify(doc)).toBe(ok);
      expect(validate.errors ?? null, JSON.stringify(doc)).toEqual(compiled.errors ?? null);
    }
  });
});
