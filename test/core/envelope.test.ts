import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { envelopeSchema, expandRoots, formatDigestLine, loadEnvelope, parseDigestFile, verifyDigest } from "../../src/core/envelope.js";
import { envelopeText } from "../support/logs.js";

const enc = (s: string) => Buffer.from(s, "utf8");

function refusal(fn: () => unknown): Refusal {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(Refusal);
    return err as Refusal;
  }
  throw new Error("expected a refusal");
}

describe("loadEnvelope", () => {
  it("ships a schema its meta-schema accepts (loadEnvelope compiles it without that check)", () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    expect(ajv.validateSchema(envelopeSchema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(envelopeSchema)).not.toThrow();
  });

  it("loads the contract's example and hashes the raw bytes", () => {
    const text = envelopeText();
    const loaded = loadEnvelope(enc(text), "envelope.json");
    expect(loaded.envelope.envelope_id).toBe("agent-patch-envelope-v3");
    expect(loaded.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(loaded.hash).not.toBe(loadEnvelope(enc(text + " "), "envelope.json").hash);
    expect(loaded.lines.get("/allowed_tools/1")).toBe(9); // "apply_patch" in the pretty-printed file
  });

  it.each([
    ["an unknown key", { allowed_tool: ["x"] }, /unknown key "allowed_tool"/],
    ["a wrong type", { allowed_tools: "read_file" }, /allowed_tools/],
    ["a duplicate item", { allowed_env: ["CI", "CI"] }, /same value twice/],
    ["a relative root", { allowed_roots: ["repo"] }, /absolute path/],
    ["a root glued to a variable", { allowed_roots: ["${WORKSPACE}evil"] }, /absolute path/],
    ["an unknown variable", { allowed_roots: ["${HOME}/x"] }, /absolute path/],
    ["a bad network value", { network: "allow" }, /must be one of "deny", "allowlist"/],
    ["an upper-case host", { allowed_hosts: ["API.example.com"] }, /DNS name/],
    ["a port out of range", { allowed_hosts: ["api.example.com:70000"] }, /port outside/],
    ["an empty tool name", { allowed_tools: [""] }, /allowed_tools/],
  ])("refuses %s as ENVELOPE_INVALID", (_name, override, message) => {
    const err = refusal(() => loadEnvelope(enc(envelopeText(override)), "envelope.json"));
    expect(err.code).toBe("ENVELOPE_INVALID");
    expect(err.message).toMatch(message);
    expect(err.file).toBe("envelope.json");
    expect(err.line).toBeGreaterThan(0);
  });

  it("refuses a missing required key", () => {
    const { network: _n, ...rest } = JSON.parse(envelopeText()) as Record<string, unknown>;
    const err = refusal(() => loadEnvelope(enc(JSON.stringify(rest)), "e.json"));
    expect(err.code).toBe("ENVELOPE_INVALID");
    expect(err.message).toMatch(/missing required key "network"/);
  });

  it("refuses duplicate JSON keys and names the line of the second", () => {
    const text =
      '{\n  "envelope_id": "a",\n  "allowed_roots": ["/w"],\n  "allowed_tools": [],\n  "allowed_tools": ["curl"],\n  "allowed_env": [],\n  "allowed_hosts": [],\n  "network": "deny"\n}\n';
    const err = refusal(() => loadEnvelope(enc(text), "e.json"));
    expect(err.code).toBe("ENVELOPE_INVALID");
    expect(err.message).toMatch(/duplicate key "allowed_tools"/);
    expect(err.line).toBe(5);
  });

  it("points an unknown key at its own line", () => {
    const text = envelopeText().replace('"network": "deny"', '"network": "deny",\n  "allowed_paths": []');
    const err = refusal(() => loadEnvelope(enc(text), "e.json"));
    expect(err.line).toBe(text.split("\n").findIndex((l) => l.includes("allowed_paths")) + 1);
  });

  it("refuses bad JSON with line and column", () => {
    const err = refusal(() => loadEnvelope(enc('{\n  "envelope_id": "a",\n  oops\n}'), "e.json"));
    expect(err.code).toBe("ENVELOPE_INVALID");
    expect(err.line).toBe(3);
    expect(err.column).toBe(3);
  });

  it("refuses invalid UTF-8 and a NUL byte", () => {
    const bad = Buffer.concat([enc('{"envelope_id": "'), Buffer.from([0xff, 0xfe]), enc('"}')]);
    expect(refusal(() => loadEnvelope(bad, "e.json")).message).toMatch(/not valid UTF-8/);
    const nul = envelopeText().replace("agent-patch", "agent\u0000patch");
    expect(refusal(() => loadEnvelope(enc(nul), "e.json")).code).toBe("ENVELOPE_INVALID");
  });

  it("accepts a byte order mark and CRLF line endings, hashing the raw bytes", () => {
    const text = "\ufeff" + envelopeText().replace(/\n/g, "\r\n");
    const loaded = loadEnvelope(enc(text), "e.json");
    expect(loaded.envelope.network).toBe("deny");
    expect(loaded.hash).not.toBe(loadEnvelope(enc(envelopeText()), "e.json").hash);
  });

  it("accepts $schema for editors and allowed_commands", () => {
    const loaded = loadEnvelope(
      enc(envelopeText({ $schema: "./schema/envelope.schema.json", allowed_commands: ["git", "/usr/bin/node"] })),
      "e.json",
    );
    expect(loaded.envelope.allowed_commands).toEqual(["git", "/usr/bin/node"]);
  });
});

describe("digest", () => {
  const bytes = enc(envelopeText());

  it("prints and reads the sha256sum format", () => {
    const line = formatDigestLine(bytes, "envelope.json");
    expect(line).toMatch(/^[0-9a-f]{64} {2}envelope\.json\n$/);
    expect(parseDigestFile(line, "d")).toBe(line.slice(0, 64));
    expect(parseDigestFile(line.toUpperCase().replace("ENVELOPE.JSON", "envelope.json"), "d")).toBe(line.slice(0, 64));
    expect(() => verifyDigest(bytes, "envelope.json", line, "d")).not.toThrow();
  });

  it("refuses a digest for other bytes as ENVELOPE_HASH_MISMATCH", () => {
    const line = formatDigestLine(enc(envelopeText({ allowed_tools: ["curl"] })), "envelope.json");
    const err = refusal(() => verifyDigest(bytes, "envelope.json", line, "envelope.json.sha256"));
    expect(err.code).toBe("ENVELOPE_HASH_MISMATCH");
    expect(err.file).toBe("envelope.json.sha256");
  });

  it.each(["", "not a digest\n", "abc  envelope.json\n", `${"a".repeat(64)}  a\n${"b".repeat(64)}  b\n`])(
    "refuses a malformed digest file %#",
    (text) => {
      expect(refusal(() => verifyDigest(bytes, "e", text, "d")).code).toBe("ENVELOPE_DIGEST_INVALID");
    },
  );
});

describe("expandRoots", () => {
  const loaded = loadEnvelope(enc(envelopeText({ allowed_roots: ["${WORKSPACE}", "${SCRATCH}/run/", "/opt//cache/./x/.."] })), "e.json");

  it("expands from explicit values and folds", () => {
    expect(expandRoots(loaded, { workspace: "/work/repo/", scratch: "/tmp/s" })).toEqual(["/work/repo", "/tmp/s/run", "/opt/cache"]);
  });

  it("refuses an unset or empty variable as ROOT_VARIABLE_UNDEFINED", () => {
    for (const values of [{ scratch: "/tmp/s" }, { workspace: "", scratch: "/tmp/s" }, { workspace: "/w" }]) {
      const err = refusal(() => expandRoots(loaded, values));
      expect(err.code).toBe("ROOT_VARIABLE_UNDEFINED");
      expect(err.line).toBeGreaterThan(0);
    }
  });

  it("refuses a relative value", () => {
    expect(refusal(() => expandRoots(loaded, { workspace: "repo", scratch: "/s" })).code).toBe("CONFIG_INVALID");
  });
});
