import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { Refusal } from "../../src/core/errors.js";
import { parseDigestFile } from "../../src/core/envelope.js";
import { buildManifest, verifyBundle } from "../../src/core/evidence.js";

const enc = (s: string) => new TextEncoder().encode(s);

function bundleOf(files: Record<string, string>): Map<string, Uint8Array> {
  const map = new Map<string, Uint8Array>(Object.entries(files).map(([k, v]) => [k, enc(v)] as [string, Uint8Array]));
  const built = buildManifest(map);
  map.set("manifest.json", built.bytes);
  map.set("manifest.json.sha256", enc(built.digestLine));
  return map;
}

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof Refusal ? err.code : "not a Refusal";
  }
  return undefined;
}

describe("evidence manifest", () => {
  it("lists every file's sha256 with sorted keys; the digest is sha256 of the manifest bytes", () => {
    const built = buildManifest(
      new Map([
        ["verdict.json", enc("{}")],
        ["observer.jsonl", enc("x\n")],
      ]),
    );
    const text = new TextDecoder().decode(built.bytes);
    expect(Object.keys(JSON.parse(text).files)).toEqual(["observer.jsonl", "verdict.json"]);
    expect(JSON.parse(text).version).toBe(1);
    expect(built.digest).toBe(`sha256:${createHash("sha256").update(built.bytes).digest("hex")}`);
    expect(built.digestLine).toBe(`${built.digest.slice(7)}  manifest.json\n`);
  });

  it("verifies an intact bundle and refuses any change, missing or extra file", () => {
    const good = bundleOf({ "observer.jsonl": "a\n", "runner.json": "{}" });
    expect(verifyBundle(good).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const tampered = new Map(good).set("observer.jsonl", enc("b\n"));
    expect(code(() => verifyBundle(tampered))).toBe("EVIDENCE_DIGEST_MISMATCH");
    const missing = new Map(good);
    missing.delete("runner.json");
    expect(code(() => verifyBundle(missing))).toBe("EVIDENCE_DIGEST_MISMATCH");
    const extra = new Map(good).set("extra.txt", enc("x"));
    expect(code(() => verifyBundle(extra))).toBe("EVIDENCE_DIGEST_MISMATCH");
    // A name only Object's prototype has is not listed either.
    for (const inherited of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(
        code(() => verifyBundle(new Map(good).set(inherited, enc("x")))),
        inherited,
      ).toBe("EVIDENCE_DIGEST_MISMATCH");
    }
    const manifestEdited = new Map(good).set("manifest.json", enc(new TextDecoder().decode(good.get("manifest.json")) + " "));
    expect(code(() => verifyBundle(manifestEdited))).toBe("EVIDENCE_DIGEST_MISMATCH");
    const noDigest = new Map(good);
    noDigest.delete("manifest.json.sha256");
    expect(code(() => verifyBundle(noDigest))).toBe("EVIDENCE_DIGEST_MISMATCH");
  });
});

describe("one reader of sha256sum lines (issue 31 item 4)", () => {
  it("an evidence bundle's digest file and an envelope's accept and refuse the same lines", () => {
    const bundle = bundleOf({ "verdict.json": "{}" });
    const hex = new TextDecoder().decode(bundle.get("manifest.json.sha256")).slice(0, 64);
    const variants: [string, boolean][] = [
      [`${hex}  manifest.json\n`, true],
      [`${hex} *manifest.json\n`, true],
      [`${hex}  manifest.json\r\n`, true],
      [`\\${hex}  manifest.json\n`, true],
      [`${hex.toUpperCase()}  manifest.json\n`, true],
      [`${hex}\n`, true],
      [`\n${hex}  manifest.json\n\n`, true],
      [`${hex} manifest.json\n`, false],
      [`${hex}  manifest.json\n${hex}  other\n`, false],
      [`${hex.slice(1)}  manifest.json\n`, false],
      [`sha256:${hex}\n`, false],
      ["", false],
    ];
    for (const [text, accepted] of variants) {
      const files = new Map(bundle);
      files.set("manifest.json.sha256", enc(text));
      const envelope = code(() => parseDigestFile(text, "envelope.json.sha256"));
      const evidence = code(() => verifyBundle(files));
      expect([JSON.stringify(text), envelope === undefined, evidence === undefined]).toEqual([JSON.stringify(text), accepted, accepted]);
      if (!accepted) expect([envelope, evidence]).toEqual(["ENVELOPE_DIGEST_INVALID", "EVIDENCE_DIGEST_MISMATCH"]);
    }
  });
});
