/**
 * The npm package the release publishes (`npx envelope-gate@1 …`): what `npm pack` puts in it,
 * as npm itself computes it from package.json's `files` and its own rules.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/fixtures.js";

interface PackageJson {
  name: string;
  private?: boolean;
  bin: Record<string, string>;
  repository: { url: string };
  publishConfig: { access: string; provenance: boolean };
}
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;

function packedFiles(): string[] {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  const [packed] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
  return (packed?.files ?? []).map((f) => f.path).sort();
}

describe("the npm package", () => {
  it("is publishable, publicly and with provenance, under the name the docs use", () => {
    expect(pkg.name).toBe("envelope-gate");
    expect(pkg.private).toBeUndefined();
    expect(pkg.publishConfig).toEqual({ access: "public", provenance: true });
    // npm provenance is refused unless the package names the repository the workflow runs in.
    expect(pkg.repository.url).toBe("git+https://github.com/envelope-gate/envelope-gate.git");
  });

  it("holds the CLI's entry, the bundles' licences, the schemas, the Action and LICENSE, and no sources or tests", () => {
    const files = packedFiles();
    const bin = pkg.bin["envelope-gate"] as string;
    expect(files).toContain(bin);
    expect(readFileSync(join(REPO_ROOT, bin), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    for (const schema of readdirSync(join(REPO_ROOT, "schema"))) expect(files).toContain(`schema/${schema}`);
    for (const file of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "action.yml",
      "package.json",
      "dist/index.js",
      "dist/licenses.txt",
      "dist/cli/licenses.txt",
    ])
      expect(files).toContain(file);
    const outside = files.filter((f) => /^(test|src|native|scripts|examples|bench|deploy|docs|\.github|\.ci)\//.test(f));
    expect(outside).toEqual([]);
    expect(files.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
  });
});
