// Fails when the committed dist/ differs from a fresh bundle of src/: every file, the bundles'
// third-party licenses.txt too, so a stale notice fails like a stale bundle.
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
  const same = (rel) => readFileSync(a.get(rel)).equals(readFileSync(b.get(rel)));
  // The recorder's bytes can be reproduced only with the toolchain it was built with (.ci/run
  // installs the versions in TOOLCHAIN). Where that toolchain cannot be had, the binary is
  // judged by what it was built from: SOURCES must match the current sources, and the line
  // below says its bytes were not compared.
  const toolchain = "recorder/TOOLCHAIN";
  const recorderByBytes = !a.has(toolchain) || !b.has(toolchain) || same(toolchain);
  const problems = [];
  for (const [rel, f] of b) {
    if (!a.has(rel)) problems.push(`missing from dist/: ${rel}`);
    else if (!recorderByBytes && rel.startsWith("recorder/") && rel !== "recorder/SOURCES") continue;
    else if (!readFileSync(f).equals(readFileSync(a.get(rel)))) problems.push(`differs: dist/${rel}`);
  }
  for (const rel of a.keys()) if (!b.has(rel)) problems.push(`stale file in dist/: ${rel}`);
  if (!recorderByBytes) {
    const committed = readFileSync(a.get(toolchain), "utf8").split("\n");
    const here = readFileSync(b.get(toolchain), "utf8").split("\n");
    const differing = here.filter((line) => line && !committed.includes(line));
    console.error(
      `dist/recorder: this machine's toolchain differs from the one it was built with (here: ${differing.join("; ")}), ` +
        "so its bytes were not compared; its SOURCES were.",
    );
  }
  if (problems.length > 0) {
    console.error("dist/ is not a fresh bundle of src/. Run `npm run build` and commit dist/.");
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(`dist/ is fresh (${b.size} files).`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
