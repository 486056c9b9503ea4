// `npm run adoption [-- [--no-build] node|python|go|c|rust ...]`: walks the adoption path of docs/authoring.md on
// real test suites (test/support/suites.ts): obtains each (npm registry or Debian packages),
// records it twice under a narrow envelope (nothing told by hand; a recording may fail), suggests,
// enforces the suggestion under `deny`, in rounds (at most 3) until the enforced run passes, runs a
// hostile twin, and prints what it measured (JSON on stdout, progress on stderr). Builds first.
// Exit status 1 when a suite does not end as the adoption path says (the bare and last enforced
// runs exit 0, the enforced check passes, the hostile twin fails with its violation).
//
// `--action [node|python|go|c ...]` (default all four): the same suites through the bundled Action
// and the App instead of the CLI (test/app/adoption-e2e.test.ts, run by vitest with
// EG_ADOPTION_SUITES naming them and CI=true, so a suite that cannot be had fails): two audit push
// runs on a default branch with no envelope, the App's one envelope PR merged unchanged, an agent's
// pull request enforced under it, a hostile twin; and the allowlist case (npm install from a local
// registry reached by name). Prints each adoption's measurements as JSON; exit status is vitest's.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importSuites } from "./suites-module.mjs";

const root = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
// --no-build: measure the dist/ already built.
if (!args.includes("--no-build"))
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });

if (args.includes("--action")) {
  const names = args.filter((a) => a !== "--no-build" && a !== "--action");
  const out = join(mkdtempSync(join(tmpdir(), "eg-adoption-")), "measured.jsonl");
  writeFileSync(out, "");
  const vitest = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "test/app/adoption-e2e.test.ts"], {
    cwd: root,
    stdio: ["ignore", 2, "inherit"],
    env: {
      ...process.env,
      CI: "true",
      EG_ADOPTION_SUITES: (names.length > 0 ? names : ["node", "python", "go", "c"]).join(","),
      EG_ADOPTION_OUT: out,
    },
  });
  const measured = readFileSync(out, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
  process.stdout.write(JSON.stringify(measured, null, 2) + "\n");
  process.exit(vitest.status ?? 1);
}

const { SUITES, adopt, ensure, summarize } = await importSuites(root, "adoption");

const names = args.filter((a) => a !== "--no-build");
const chosen = names.length > 0 ? names : ["node", "python", "go", "c", "rust"];
let failed = false;
const results = [];
for (const name of chosen) {
  const suite = SUITES[name];
  if (suite === undefined) {
    process.stderr.write(`adoption: no suite ${name} (${Object.keys(SUITES).join(", ")})\n`);
    process.exit(2);
  }
  const missing = ensure(suite);
  if (missing !== null) {
    process.stderr.write(`adoption: ${name}: ${missing}\n`);
    results.push({ suite: name, error: missing });
    failed = true;
    continue;
  }
  try {
    const a = await adopt(suite, { cli: join(root, "dist/cli/index.js"), say: (l) => process.stderr.write(`adoption: ${l}\n`) });
    const s = summarize(a);
    const ok =
      s.bare_exit === 0 &&
      s.enforced_exit === 0 &&
      s.enforced_verdict === "pass" &&
      s.hostile?.verdict === "envelope_fail" &&
      s.hostile.violations.includes(s.hostile.expected);
    if (!ok) failed = true;
    results.push({ ...s, ok, folder: a.base });
    const rounds = `${s.rounds} round${s.rounds === 1 ? "" : "s"}`;
    process.stderr.write(`adoption: ${name}: ${ok ? "ok" : "NOT as the adoption path says"}, ${rounds} (folder ${a.base})\n`);
  } catch (e) {
    failed = true;
    results.push({ suite: name, error: String(e) });
    process.stderr.write(`adoption: ${name}: ${e}\n`);
  }
}
process.stdout.write(JSON.stringify(results, null, 2) + "\n");
process.exit(failed ? 1 : 0);
