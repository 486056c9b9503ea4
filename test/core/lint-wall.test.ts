import { resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The rules that refuse `code` were it the module src/core/x.ts (empty: it passes the wall). */
async function refusedBy(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, "src/core/x.ts") });
  if (result === undefined) throw new Error("ESLint returned no result");
  return result.messages.map((m) => `${m.ruleId ?? "fatal"}: ${m.message}`);
}

describe("the lint wall around src/core is an allow list", () => {
  it("passes a pure module that imports only what core may import", async () => {
    const clean = [
      'import { createHash } from "node:crypto";',
      'import { isUtf8 } from "node:buffer";',
      'import { Ajv } from "ajv";',
      'import { minimatch } from "minimatch";',
      'import { ERROR_CODES } from "./errors.js";',
      'import schema from "../../schema/envelope.schema.json" with { type: "json" };',
      'export const digest = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");',
      'export const same = (a: string): boolean => isUtf8(Buffer.from(a)) && minimatch(a, "*") && ERROR_CODES.size > 0;',
      "export const at = (ms: number): string => new Date(ms).toISOString();",
      "export const v = new Ajv();",
      "export { schema };",
      "",
    ].join("\n");
    expect(await refusedBy(clean)).toEqual([]);
  });

  const refused: [string, string, string][] = [
    ["node:process", 'import { env } from "node:process";\nexport const a = env;\n', "no-restricted-imports"],
    ["a bare Node module", 'import { platform } from "os";\nexport const a = platform;\n', "no-restricted-imports"],
    ["node:zlib", 'import { gunzipSync } from "node:zlib";\nexport const a = gunzipSync;\n', "no-restricted-imports"],
    ["createRequire", 'import { createRequire } from "node:module";\nexport const req = createRequire("/");\n', "no-restricted-imports"],
    ["another room", 'import { openStore } from "../store/index.js";\nexport const a = openStore;\n', "no-restricted-imports"],
    ["an unlisted package", 'import { Octokit } from "@octokit/core";\nexport const a = Octokit;\n', "no-restricted-imports"],
    ["node:crypto's entropy", 'import { randomBytes } from "node:crypto";\nexport const a = randomBytes;\n', "no-restricted-imports"],
    ["a re-export of a Node module", 'export { readFileSync } from "node:fs";\n', "no-restricted-imports"],
    ["fetch", 'export const a = (): Promise<unknown> => fetch("https://example.com");\n', "no-restricted-globals"],
    ["process.env", "export const a = (): string | undefined => process.env.HOME;\n", "no-restricted-globals"],
    ["require", 'export const a = (): unknown => require("node:fs");\n', "no-restricted-globals"],
    ["globalThis", 'export const a = (): unknown => (globalThis as Record<string, unknown>)["process"];\n', "no-restricted-globals"],
    ["a timer", "export const a = (f: () => void): unknown => setTimeout(f, 1);\n", "no-restricted-globals"],
    ["the clock", "export const a = (): number => Date.now();\n", "no-restricted-properties"],
    ["the clock by new Date()", "export const a = (): string => new Date().toISOString();\n", "no-restricted-syntax"],
    ["a dynamic import", 'export const a = (): Promise<unknown> => import("node:fs");\n', "no-restricted-syntax"],
    ["import.meta", "export const a = (): string => import.meta.url;\n", "no-restricted-syntax"],
  ];
  it.each(refused)("refuses %s", async (_what, code, rule) => {
    const messages = await refusedBy(code);
    expect(
      messages.some((m) => m.startsWith(`${rule}: `)),
      messages.join("\n"),
    ).toBe(true);
  });

  it("applies the same wall to every file under src/core, not only its top level", async () => {
    const [result] = await eslint.lintText('import "node:process";\n', { filePath: resolve(root, "src/core/deep/y.ts") });
    expect(result?.messages.map((m) => m.ruleId)).toContain("no-restricted-imports");
  });
});
