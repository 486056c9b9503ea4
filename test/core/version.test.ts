import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRODUCT, VERSION } from "../../src/core/version.js";

describe("version", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

  it("is package.json's version", () => {
    expect(VERSION).toBe(pkg.version);
  });

  it("is a semantic version without a leading v", () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(PRODUCT).toBe(`envelope-gate ${VERSION}`);
  });
});
