// Fails when the committed dist/ differs from a fresh bundle of src/.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

const scratch = mkdtempSync(join(tmpdir(), "envelope-gate-dist-"));
const fresh = join(scratch, "dist");
try {
  execFileSync(process.execPath, ["scripts/build.mjs", fresh], {
    stdio: "inherit",
    env: { ...process.env, ENVELOPE_GATE_BUILD_RECORDER: "require" },
  });
  const a = new Map(files("dist").map((f) => [relative("dist", f), f]));
  const b = new Map(files(fresh).map((f) => [relative(fresh, f), f]));
  const problems = [];
  for (const [rel, f] of b) {
    if (!a.has(rel)) problems.push(`missing from dist/: ${rel}`);
    else if (!readFileSync(f).equals(readFileSync(a.get(rel)))) problems.push(`differs: dist/${rel}`);
  }
  for (const rel of a.keys()) if (!b.has(rel)) problems.push(`stale file in dist/: ${rel}`);
  if (problems.length > 0) {
    console.error("dist/ is not a fresh bundle of src/. Run `npm run build` and commit dist/.");
    for (const p of problems) console.error(`  ${p}`);
    const toolchain = "recorder/TOOLCHAIN";
    if (a.has(toolchain) && b.has(toolchain) && problems.some((p) => p.includes("recorder/"))) {
      const committed = readFileSync(a.get(toolchain), "utf8");
      const here = readFileSync(b.get(toolchain), "utf8");
      if (committed !== here) {
        console.error("  the recorder was built here with another toolchain than the committed one:");
        console.error(`  committed:\n${committed.replace(/^/gm, "    ")}  here:\n${here.replace(/^/gm, "    ")}`);
      }
    }
    process.exit(1);
  }
  console.log(`dist/ is fresh (${b.size} files).`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
