// The effects check's cost (docs/observer.md, "The effects check"): on a workspace with a large
// generated node_modules, the snapshot before the command and the look after it, against a naive
// full re-walk (readdir + lstat of every entry) in the same run; and `envelope-gate run -- true` on
// that workspace against the same run on an empty one. Wall and CPU; prints a markdown section.
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/index.js");
const REPS = Number(process.env.BENCH_REPS ?? 3);
const PACKAGES = Number(process.env.BENCH_EFFECTS_PACKAGES ?? 2500);

if (!readdirSync(join(ROOT, "dist/cli")).includes("index.js")) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT });

// The module itself, compiled on its own (the bundle does not export it).
const out = mkdtempSync(join(tmpdir(), "eg-bench-effects-js-"));
execFileSync(
  process.execPath,
  [join(ROOT, "node_modules/typescript/bin/tsc"), "--strict", "--outDir", out, "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--skipLibCheck", "--rootDir", join(ROOT, "src"), join(ROOT, "src/observer/effects.ts")],
  { cwd: ROOT, stdio: "inherit" },
);
writeFileSync(join(out, "package.json"), '{"type":"module"}\n');
const { watchEffects, effectsFound } = await import(pathToFileURL(join(out, "observer/effects.js")).href);

// A workspace: a repository's .git and PACKAGES packages of 4 directories and 40 files each.
const base = mkdtempSync(join(tmpdir(), "eg-bench-effects-"));
const ws = join(base, "workspace");
const empty = join(base, "empty");
const scratch = join(base, "scratch");
for (const d of [ws, empty, scratch, join(ws, ".git", "objects"), join(ws, ".git", "refs")]) mkdirSync(d, { recursive: true });
writeFileSync(join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(ws, ".git", "config"), "[core]\n");
for (let p = 0; p < PACKAGES; p++) {
  const pkg = join(ws, "node_modules", `pkg-${p}`);
  for (const sub of ["lib", "lib/util", "dist", "types"]) mkdirSync(join(pkg, sub), { recursive: true });
  for (let f = 0; f < 40; f++) writeFileSync(join(pkg, ["lib", "lib/util", "dist", "types"][f % 4], `f${f}.js`), "x");
}

function naiveWalk(dir) {
  let n = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      lstatSync(p, { bigint: true });
      n++;
      if (e.isDirectory()) stack.push(p);
    }
  }
  return n;
}

function timed(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, value };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(fn) {
  fn();
  const runs = Array.from({ length: REPS }, () => timed(fn));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)), value: runs[0].value };
}

const scope = { roots: [ws, scratch], exempt: [scratch], protectedPaths: [join(ws, ".git")] };
const entries = naiveWalk(ws);
const baseline = measure(() => naiveWalk(ws));
const before = measure(() => watchEffects(scope));
const watch = watchEffects(scope);
const unchanged = measure(() => effectsFound(watch));
// A run that wrote a little: 20 packages gained a file (their directories' ctimes moved).
const w2 = watchEffects(scope);
for (let p = 0; p < 20; p++) writeFileSync(join(ws, "node_modules", `pkg-${p}`, "lib", "new.js"), "y");
const changed = timed(() => effectsFound(w2));

// End to end: children's CPU from /proc/self/stat (cutime + cstime, clock ticks).
const TICK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
const childCpu = () => {
  const f = readFileSync("/proc/self/stat", "utf8").slice(readFileSync("/proc/self/stat", "utf8").lastIndexOf(")") + 2).split(" ");
  return ((Number(f[13]) + Number(f[14])) * 1000) / TICK;
};
const envelope = join(base, "envelope.json");
const text = JSON.stringify({ envelope_id: "bench", allowed_roots: ["${WORKSPACE}", "${SCRATCH}"], allowed_tools: [], allowed_env: ["PATH"], allowed_hosts: [], network: "deny" }) + "\n";
writeFileSync(envelope, text);
writeFileSync(`${envelope}.sha256`, execFileSync("sha256sum", [envelope], { encoding: "utf8" }).replace(envelope, "envelope.json"));
function runOn(workspace) {
  const c = childCpu();
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, "run", "--envelope", envelope, "--observer", join(base, "o.jsonl"), "--workspace", workspace, "--scratch", scratch, "--recorder", "strace", "--", "/bin/true"], { cwd: workspace, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return { wall: performance.now() - t, cpu: childCpu() - c };
}
const e2e = (ws2) => {
  runOn(ws2);
  const runs = Array.from({ length: REPS }, () => runOn(ws2));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
};
const small = e2e(empty);
const big = e2e(ws);
rmSync(base, { recursive: true, force: true });
rmSync(out, { recursive: true, force: true });

const ms = (x) => `${x.toFixed(0)} ms`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
console.log(`## The effects check (bench/effects.mjs)

A generated workspace: a \`.git\` and ${PACKAGES} packages in \`node_modules\` (${entries} entries: ${PACKAGES * 4 + PACKAGES + 1} directories, ${PACKAGES * 40} files), on ${tmpdir()}. Baseline: a naive full walk (readdir and lstat of every entry), in the same process. Medians of ${REPS}.

| step | wall | CPU | wall vs the naive walk |
| --- | --- | --- | --- |
| naive full walk (baseline) | ${ms(baseline.wall)} | ${ms(baseline.cpu)} | 1.00× |
| snapshot before the command (every directory, lstat of directories and protected entries only) | ${ms(before.wall)} | ${ms(before.cpu)} | ${ratio(before.wall, baseline.wall)} |
| look after the command, nothing changed (re-stat of the known directories) | ${ms(unchanged.wall)} | ${ms(unchanged.cpu)} | ${ratio(unchanged.wall, baseline.wall)} |
| look after the command, 20 packages gained a file (20 directories listed again) | ${ms(changed.wall)} | ${ms(changed.cpu)} | ${ratio(changed.wall, baseline.wall)} |

End to end, \`envelope-gate run --recorder strace -- /bin/true\`: on an empty workspace ${ms(small.wall)} wall, ${ms(small.cpu)} CPU (the wrapper and its children); on the workspace above ${ms(big.wall)} wall (${ratio(big.wall, small.wall)}), ${ms(big.cpu)} CPU (${ratio(big.cpu, small.cpu)}). The difference is the two looks plus anything else that grows with the workspace.
`);
