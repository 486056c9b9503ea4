/** The Action's local I/O: real files, real processes. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prepareEvidenceDir, readWorkspaceFile, writeBundle } from "../../src/action/local.js";
import { Refusal } from "../../src/core/errors.js";
import { verifyBundle } from "../../src/core/evidence.js";

const temp = () => mkdtempSync(join(tmpdir(), "eg-local-"));

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof Refusal ? err.code : String(err);
  }
  return "none";
}

describe("workspace files for properties", () => {
  it("reads a file inside the workspace, null when absent, refuses a symlink out of it", async () => {
    const ws = temp();
    mkdirSync(join(ws, "out"));
    writeFileSync(join(ws, "out/result.json"), "{}");
    expect(new TextDecoder().decode((await readWorkspaceFile(ws, "out/result.json")) ?? new Uint8Array())).toBe("{}");
    expect(await readWorkspaceFile(ws, "out/missing.json")).toBeNull();
    const outside = temp();
    writeFileSync(join(outside, "secret"), "s");
    symlinkSync(join(outside, "secret"), join(ws, "out/link.json"));
    expect(await codeOf(readWorkspaceFile(ws, "out/link.json"))).toBe("PROPERTY_UNAVAILABLE");
  });
});

describe("the evidence directory", () => {
  it("clears an earlier bundle, refuses a directory holding anything else, and writes a verifiable bundle", async () => {
    const dir = join(temp(), "evidence");
    await prepareEvidenceDir(dir);
    writeFileSync(join(dir, "observer.jsonl"), "log\n");
    const digest = await writeBundle(dir, new Map([["verdict.json", new TextEncoder().encode("{}\n")]]));
    const files = new Map(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
    expect(verifyBundle(files).digest).toBe(digest);
    await prepareEvidenceDir(dir);
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(join(dir, "notes.txt"), "mine");
    expect(await codeOf(prepareEvidenceDir(dir))).toBe("CONFIG_INVALID");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
  });
});
