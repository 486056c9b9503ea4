// `npm run bench`: builds, runs every bench/*.mjs in turn, prints their sections and writes
// them to docs/benchmarks.md with the machine they ran on. Figures are ratios within one run.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";

const only = process.argv.slice(2);
execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });

const sections = [];
let failed = false;
for (const name of readdirSync("bench")
  .filter((f) => f.endsWith(".mjs"))
  .sort()) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  process.stderr.write(`bench: ${name}\n`);
  const r = spawnSync(process.execPath, [join("bench", name)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) {
    failed = true;
    sections.push(`## ${name}\n\nFailed with exit status ${r.status}.\n`);
    continue;
  }
  process.stdout.write(r.stdout + "\n");
  sections.push(r.stdout.trim() + "\n");
}

const cpu = cpus();
const header = [
  "# Benchmarks",
  "",
  "Written by `npm run bench` (`node scripts/bench.mjs [name-prefix...]`). Every figure is measured against a baseline in the same run on the same machine, so ratios carry over between machines better than absolute numbers. Tests never assert on time; these figures are the only place speed is claimed.",
  "",
  `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB.`,
  "",
].join("\n");
if (only.length === 0) writeFileSync("docs/benchmarks.md", header + "\n" + sections.join("\n"));
process.exitCode = failed ? 1 : 0;
