// Real workloads under the jail: this repository's own `tsc --noEmit` and a vitest subset
// (test/core and test/action), each bare, under `envelope-gate run` (full wrapper: jail + strace + hooks), and
// under Anthropic's sandbox-runtime (`srt`, bubblewrap + proxies) where it can run here, in the
// same run and interleaved. Prints a markdown section; ratios are against bare.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";

import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/index.js");
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SRT_VERSION = "0.0.83";

const work = mkdtempSync(join(process.env.BENCH_TMP ?? "/var/tmp", "eg-bench-workload-"));
const envelopeText =
  JSON.stringify({
    envelope_id: "bench-workload",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}", "/tmp"],
    allowed_tools: [],
    allowed_env: ["PATH", "HOME"],
    allowed_hosts: [],
    network: "deny",
  }) + "\n";
const envelope = join(work, "envelope.json");
writeFileSync(envelope, envelopeText);
writeFileSync(`${envelope}.sha256`, `${createHash("sha256").update(envelopeText).digest("hex")}  envelope.json\n`);

/** sandbox-runtime from the npm registry into the bench's own folder; null with the reason when it cannot run here. */
function sandboxRuntime() {
  const prefix = join(work, "srt");
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, `@anthropic-ai/sandbox-runtime@${SRT_VERSION}`], {
    encoding: "utf8",
  });
  const cli = join(prefix, "node_modules/@anthropic-ai/sandbox-runtime/dist/cli.js");
  if (install.status !== 0 || !existsSync(cli)) return { cli: null, why: `npm install failed (${(install.stderr || "").trim().split("\n")[0]})` };
  const settings = join(work, "srt-settings.json");
  writeFileSync(settings, JSON.stringify({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [ROOT, "/tmp"], denyWrite: [] } }));
  const probe = spawnSync(process.execPath, [cli, "--settings", settings, "true"], { encoding: "utf8", cwd: ROOT });
  if (probe.status !== 0) return { cli: null, why: (probe.stderr || probe.stdout || `exit ${probe.status}`).trim().split("\n")[0] };
  return { cli, settings, why: null };
}

const WORKLOADS = [
  { name: "tsc --noEmit (this repository)", argv: [process.execPath, join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "tsconfig.json"] },
  // The pure and the Action suites (local HTTP servers on the jail's own loopback); the observer's
  // and the App's need a jail of their own or the host's PostgreSQL, which a jail does not give.
  {
    // Without the test files that start jails of their own (run mode, jailed property commands):
    // inside the jail, further user namespaces are disabled.
    name: "vitest run test/core test/action (without the nested-jail files)",
    argv: [
      process.execPath,
      join(ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "test/core",
      "test/action",
      "--exclude",
      "**/run-mode.test.ts",
      "--exclude",
      "**/action.test.ts",
      "--reporter=dot",
    ],
  },
];

function time(argv, label) {
  const started = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: "utf8", env: process.env, maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status}): ${(r.stderr || r.stdout).slice(-600)}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(join(ROOT, "dist/cli/index.js"))) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
const srt = sandboxRuntime();
const rows = [];
for (const w of WORKLOADS) {
  const times = { bare: [], run: [], srt: [] };
  const log = join(work, "observer.jsonl");
  const scratch = join(work, "scratch");
  let verdict = "";
  for (let i = 0; i < REPS; i++) {
    times.bare.push(time(w.argv, `${w.name} bare`));
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch);
    times.run.push(time([process.execPath, CLI, "run", "--envelope", envelope, "--observer", log, "--workspace", ROOT, "--scratch", scratch, "--", ...w.argv], `${w.name} under run`));
    const check = spawnSync(process.execPath, [CLI, "check", "--envelope", envelope, "--observer", log, "--workspace", ROOT, "--scratch", scratch, "--format", "json"], { encoding: "utf8" });
    const report = JSON.parse(check.stdout);
    const lines = readFileSync(log, "utf8").split("\n").length - 1;
    verdict = `${report.verdict}${report.violations.length > 0 ? ` (${report.violations.map((v) => v.id).slice(0, 3).join(", ")}${report.violations.length > 3 ? ", …" : ""})` : ""}, ${lines} log lines`;
    if (srt.cli !== null) times.srt.push(time([process.execPath, srt.cli, "--settings", srt.settings, ...w.argv], `${w.name} under srt`));
  }
  const bare = median(times.bare);
  rows.push({
    name: w.name,
    bare,
    run: median(times.run),
    srt: srt.cli !== null ? median(times.srt) : null,
    verdict,
  });
}
rmSync(work, { recursive: true, force: true });

const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
const out = [
  "## Real workloads under the jail (bench/workload.mjs)",
  "",
  `Median of ${REPS} interleaved runs each. \`run\` is the full wrapper: the bubblewrap jail (user, PID, mount, IPC, UTS, network namespaces; seccomp filter), strace outside it and the Node hooks, with its fixed start-up (jail probe, canary stage) included. sandbox-runtime is \`@anthropic-ai/sandbox-runtime@${SRT_VERSION}\` (\`srt\`: bubblewrap and its network proxies, no recorder) with the repository writable.`,
  "",
  "| workload | bare | `envelope-gate run` | ratio | sandbox-runtime | ratio | check on the run's log (envelope: the roots plus /tmp, PATH and HOME) |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${f(r.bare)} | ${f(r.run)} | ${(r.run / r.bare).toFixed(2)}× | ${r.srt === null ? "n/a" : f(r.srt)} | ${r.srt === null ? "n/a" : `${(r.srt / r.bare).toFixed(2)}×`} | ${r.verdict} |`,
  ),
  "",
  srt.cli === null ? `sandbox-runtime did not run here: ${srt.why} (it needs bubblewrap, socat and ripgrep).` : "",
].filter((l, i, a) => !(l === "" && a[i - 1] === ""));
process.stdout.write(out.join("\n") + "\n");
