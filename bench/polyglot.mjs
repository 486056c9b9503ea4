// What observation costs a user (issues 21 and 35): real suites of several languages, each bare,
// under `envelope-gate run` (once per recorder in BENCH_RECORDERS, default `strace,ebpf`) and under
// sandbox-runtime (`srt`), interleaved, BENCH_REPS repetitions (default 5), each arm on a fresh copy
// of the suite, idle and again with BENCH_LOAD busy loops beside it (default 1; 0 skips the loaded
// pass). Wall time and the CPU of the whole process tree (a fresh cgroup per run, as root). Ratios
// are paired: per repetition run/srt, then the median. Every run's log is judged by `check` under
// the pinned envelope; a log that does not pass is a bench failure (exit status 1, after the
// section is printed). Prints a markdown section.
//
// `node bench/polyglot.mjs --suggest` records each suite once under the narrow envelope and prints
// what `suggest` proposes: how the ENVELOPES below were derived. BENCH_ROWS=a,b picks rows.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { importSuites } from "../scripts/suites-module.mjs";
import { cgroupHierarchy, spawnMeasured, startHogs, sweepCgroups } from "./support/cgroup.mjs";
import { obtain } from "./support/sources.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/index.js");
const REPS = Number(process.env.BENCH_REPS ?? 5);
/** Busy loops beside every arm in the loaded pass (BENCH_LOAD; 0 skips it). */
const LOAD_HOGS = Number(process.env.BENCH_LOAD ?? 1);
const RECORDERS = (process.env.BENCH_RECORDERS ?? "strace,ebpf").split(",").map((s) => s.trim());
const SRT_VERSION = "0.0.83";
const WRITES = 20_000;
/** A small real package set, installed from the registry with a fresh cache each time. */
const NPM_PACKAGES = ["ms@2.1.3", "semver@7.6.3", "picocolors@1.1.1", "@fastify/error@4.3.0", "yargs-parser@21.1.1"];
const startedAll = performance.now();

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(`usage: node bench/polyglot.mjs [--suggest]

Runs real suites bare, under \`envelope-gate run\` and under sandbox-runtime, idle and loaded,
and prints a markdown section (wall and whole-tree CPU, paired ratios, check verdicts).

  --suggest          record each row once under a narrow envelope and print suggest's proposal
environment:
  BENCH_ROWS=a,b     only these rows (python go c node micro npm start numpy click zlib express commander)
  BENCH_REPS=N       repetitions per arm (default 5)
  BENCH_RECORDERS=.. recorders for the run arms (default strace,ebpf)
  BENCH_LOAD=N       busy loops beside every arm in the loaded pass (default 1; 0: idle only)
  BENCH_TMP=DIR      where workspaces go (default /var/tmp; not /tmp)
CPU is read from a fresh cgroup per run and needs root; without one, CPU columns say n/a.
`);
  process.exit(0);
}

if (!existsSync(CLI)) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });

const cache = join(ROOT, "node_modules/.cache/envelope-gate");
const { SUITES, ensure } = await importSuites(ROOT, "polyglot");

const SOURCES = join(cache, "bench-sources");
// Not /tmp: the jail gives the command a private one.
const work = mkdtempSync(join(process.env.BENCH_TMP ?? "/var/tmp", "eg-bench-polyglot-"));
const registry = new URL(execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim());
const registryHost = registry.hostname;
const registryPort = registry.port || (registry.protocol === "https:" ? "443" : "80");

const base = { allowed_roots: ["${WORKSPACE}", "${SCRATCH}"], allowed_tools: [], allowed_hosts: [], network: "deny" };
// Pinned from `node bench/polyglot.mjs --suggest` (suggest over one run under the narrow envelope
// of test/support/suites.ts, PATH and @ci), plus GOCACHE, which the bench sets for every arm.
const ENVELOPES = {
  python: { ...base, allowed_env: ["PATH", "@ci"] },
  go: { ...base, allowed_env: ["PATH", "@ci", "HOME", "GOCACHE"] },
  c: { ...base, allowed_env: ["PATH", "@ci"] },
  node: { ...base, allowed_env: ["PATH", "@ci", "NODE_TEST_CONTEXT", "TEMP", "TMP", "TMPDIR"] },
  micro: { ...base, allowed_env: ["PATH"] },
  npm: {
    ...base,
    allowed_env: [
      "PATH",
      "@ci",
      "@terminal",
      "NODE*",
      "npm_*",
      "ARBORIST_DEBUG",
      "DEBUG",
      "DEBUG_NOPT",
      "DESTDIR",
      "EDITOR",
      "GIT_ASKPASS",
      "GIT_SSH_COMMAND",
      "GRACEFUL_FS_PLATFORM",
      "HOME",
      "INIT_CWD",
      "NOPROXY",
      "NOPT_DEBUG",
      "PATHEXT",
      "PREFIX",
      "SHELL",
      "TESTING_TAR_FAKE_PLATFORM",
      "TEST_GRACEFUL_FS_GLOBAL_PATCH",
      "VISUAL",
      "_ISEXE_TEST_PLATFORM_",
      "__FAKE_FS_O_FILENAME__",
      "__FAKE_PLATFORM__",
      "__MINIMATCH_TESTING_PLATFORM__",
      "__TESTING_BIN_LINKS_PLATFORM__",
    ],
    allowed_hosts: [`${registryHost}:${registryPort}`],
    network: "allowlist",
  },
  start: { ...base, allowed_env: [] },
  numpy: { ...base, allowed_env: ["PATH", "@ci", "PYTHONDONTWRITEBYTECODE"] },
  click: { ...base, allowed_env: ["PATH", "@ci", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONPATH"] },
  zlib: { ...base, allowed_env: ["PATH", "@ci"] },
  express: {
    ...base,
    allowed_env: [
      "PATH",
      "@ci",
      "@terminal",
      "DEBUG*",
      "NODE*",
      "npm_*",
      "CHOKIDAR_PRINT_FSEVENTS_REQUIRE_ERROR",
      "DESTDIR",
      "EDITOR",
      "GRACEFUL_FS_PLATFORM",
      "HOME",
      "HTTP2_TEST",
      "INIT_CWD",
      "MOCHA_COLORS",
      "NO_DEPRECATION",
      "NOPT_DEBUG",
      "PATHEXT",
      "PREFIX",
      "PWD",
      "SHELL",
      "TEMP",
      "TEST_GRACEFUL_FS_GLOBAL_PATCH",
      "TMP",
      "TMPDIR",
      "TRACE_DEPRECATION",
      "VISUAL",
      "YARGS_MIN_NODE_VERSION",
      "ZSH_NAME",
      "_",
      "_ISEXE_TEST_PLATFORM_",
      // Read by npm and mocha; program control or credential carriers, so listed exactly.
      "NODE_TLS_REJECT_UNAUTHORIZED",
      "npm_config_cafile",
      "npm_config_globalconfig",
      "npm_config_node_gyp",
      "npm_config_userconfig",
    ],
  },
  commander: {
    ...base,
    allowed_env: [
      "PATH",
      "@ci",
      "@terminal",
      "BABEL_*",
      "BROWSERSLIST*",
      "TS_*",
      "NODE*",
      "npm_*",
      "DEBUG",
      "FORCE_HYPERLINK",
      "GRACEFUL_FS_PLATFORM",
      "HOME",
      "JEST_JASMINE",
      "JEST_WORKER_ID",
      "OSTYPE",
      "SHELL",
      "TEMP",
      "TEST_GRACEFUL_FS_GLOBAL_PATCH",
      "TMP",
      "TMPDIR",
      "YARGS_MIN_NODE_VERSION",
      "ZSH_NAME",
      "_",
      "NODE_PATH",
    ],
  },
};

const FS_HEAVY = `const fs = require("fs");
const path = require("path");
const dir = path.join(process.cwd(), "fs-heavy");
fs.mkdirSync(dir, { recursive: true });
for (let i = 0; i < ${WRITES}; i++) fs.writeFileSync(path.join(dir, "f" + (i % 2000) + ".txt"), "x");
process.stdout.write("fs-heavy: " + ${WRITES} + " writes\\n");
`;

/** Every row: how its workspace is filled, its command, the environment every arm gets besides the machine's. */
const ROWS = [
  { key: "python", title: SUITES.python.title, suite: SUITES.python, proof: /Tests result: SUCCESS/ },
  {
    key: "go",
    title: `${SUITES.go.title.replace(/ \(.*$/, "")} (\`go test ./...\`, a fresh GOCACHE per run in every arm)`,
    suite: SUITES.go,
    proof: /^ok\s+github\.com\/spf13\/pflag/m,
    env: (ws) => ({ GOCACHE: join(ws, ".gocache") }),
  },
  { key: "c", title: SUITES.c.title, suite: SUITES.c, proof: /sqltest: \d+ statements, all assertions held/ },
  { key: "node", title: SUITES.node.title, suite: SUITES.node, proof: /pass [1-9]/ },
  {
    key: "micro",
    proof: /fs-heavy: \d+ writes/,
    title: `microbench: ${WRITES.toLocaleString("en")} small \`writeFileSync\` calls (Node, on ${"/var/tmp"})`,
    prepare: (ws) => writeFileSync(join(ws, "fs-heavy.cjs"), FS_HEAVY),
    command: () => [process.execPath, "fs-heavy.cjs"],
  },
  {
    key: "npm",
    proof: /added \d+ packages?/,
    title: `\`npm install\` of ${NPM_PACKAGES.length} packages from the registry (fresh folder and cache each run)`,
    prepare: (ws) => writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "bench-npm", version: "1.0.0", private: true }) + "\n"),
    command: () => ["npm", "install", "--no-audit", "--no-fund", "--no-update-notifier", "--cache", ".npm-cache", ...NPM_PACKAGES],
    network: true,
  },
  { key: "start", title: "fixed start (`/bin/true`)", proof: /^/, prepare: () => undefined, command: () => ["/bin/true"] },
  {
    key: "numpy",
    title: "numpy 1.24's own tests (test_function_base, test_numeric: 2,238 tests, Debian's pytest)",
    needs: ["/usr/lib/python3/dist-packages/numpy/core/tests/test_numeric.py", "/usr/lib/python3/dist-packages/pytest/__init__.py"],
    proof: /\d+ passed/,
    prepare: () => undefined,
    command: () => [
      "/usr/bin/python3",
      "-m",
      "pytest",
      "-q",
      "-p",
      "no:cacheprovider",
      "--pyargs",
      "numpy.lib.tests.test_function_base",
      "numpy.core.tests.test_numeric",
    ],
    // The package's own tree is read-only in the jail and shared by every arm: no byte code written there.
    env: () => ({ PYTHONDONTWRITEBYTECODE: "1" }),
  },
  {
    key: "click",
    title: "click 8.1.8's own tests from its release tarball (pytest, about 650 tests)",
    needs: ["/usr/lib/python3/dist-packages/pytest/__init__.py"],
    proof: /\d+ passed/,
    prepare: (ws) => obtain("click", SOURCES, ws),
    command: () => ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
    env: (ws) => ({ PYTHONPATH: join(ws, "src"), PYTHONDONTWRITEBYTECODE: "1" }),
  },
  {
    key: "zlib",
    title: "zlib 1.2.13 from its release tarball: `./configure`, `make -j2`, `make test` (many short compiler runs)",
    needs: ["/usr/bin/cc", "/usr/bin/make"],
    proof: /zlib 64-bit test OK/,
    prepare: (ws) => obtain("zlib", SOURCES, ws),
    command: () => ["/bin/sh", "-c", "./configure && make -j2 && make test"],
  },
  {
    key: "express",
    title: "express 4.18.2's own tests from its release tarball (`npm test`: mocha, about 1,250 tests)",
    proof: /\d+ passing/,
    prepare: (ws) => obtain("express", SOURCES, ws),
    // Four assertions pin an older Node's JSON.parse message; everything else runs.
    command: () => ["npm", "test", "--", "--reporter", "dot", "--grep", "primitives|correct message in stack trace", "--invert"],
  },
  {
    key: "commander",
    title: "commander 9.4.1's executable-subcommand tests from its release tarball (jest, 2 workers, a Node process per subcommand)",
    proof: /Tests:\s+\d+ passed/,
    prepare: (ws) => obtain("commander", SOURCES, ws),
    // Its tests spawn Node and wait for output under jest's 5 s default, which a traced run can exceed.
    command: () => [
      process.execPath,
      "node_modules/jest/bin/jest.js",
      "--ci",
      "--maxWorkers=2",
      "--testTimeout=60000",
      "tests/command.executable",
    ],
  },
];

function writeEnvelope(file, envelope) {
  const text = JSON.stringify(envelope, null, 2) + "\n";
  writeFileSync(file, text);
  writeFileSync(`${file}.sha256`, `${createHash("sha256").update(text).digest("hex")}  ${file.split("/").pop()}\n`);
}

/** sandbox-runtime from the npm registry into the bench's own folder (as bench/workload.mjs does); null with the reason when it cannot run here. */
function sandboxRuntime() {
  const prefix = join(work, "srt");
  const install = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, `@anthropic-ai/sandbox-runtime@${SRT_VERSION}`],
    {
      encoding: "utf8",
    },
  );
  const cli = join(prefix, "node_modules/@anthropic-ai/sandbox-runtime/dist/cli.js");
  if (install.status !== 0 || !existsSync(cli))
    return { cli: null, why: `npm install failed (${(install.stderr || "").trim().split("\n")[0]})` };
  const settings = srtSettings(work, false);
  const probe = spawnSync(process.execPath, [cli, "--settings", settings, "true"], { encoding: "utf8", cwd: work });
  if (probe.status !== 0) return { cli: null, why: (probe.stderr || probe.stdout || `exit ${probe.status}`).trim().split("\n")[0] };
  return { cli, why: null };
}

let settingsNo = 0;
/** srt's config comparable to the jail's: the workspace and /tmp writable, no domains but the registry for the npm row. */
function srtSettings(workspace, network) {
  const file = join(work, `srt-settings-${++settingsNo}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      network: { allowedDomains: network ? [registryHost] : [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [workspace, "/tmp"], denyWrite: [] },
    }),
  );
  return file;
}

/** Wall and CPU of the whole process tree (a fresh cgroup per run, bench/support/cgroup.mjs). */
function spawnTimed(argv, cwd, env) {
  return spawnMeasured(argv, { cwd, env });
}

const runHelp = spawnSync(process.execPath, [CLI, "run", "--help"], { encoding: "utf8" });
const hasRecorderFlag = `${runHelp.stdout}${runHelp.stderr}`.includes("--recorder");
/** The flags that select a recorder, or null when this `run` has no such recorder. */
function recorderFlags(name) {
  if (name === "") return [];
  if (hasRecorderFlag) return ["--recorder", name];
  // A `run` without the flag records with strace only.
  return name === "strace" ? [] : null;
}

function readLog(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

let runNo = 0;
/** One arm on a fresh copy of the row's workspace. */
function arm(row, pristine, mode, recorder) {
  const n = ++runNo;
  const ws = join(work, `ws-${n}`);
  cpSync(pristine, ws, { recursive: true });
  const home = join(work, `home-${n}`);
  mkdirSync(home);
  const env = { ...process.env, CI: "true", HOME: home, ...(row.suite?.env() ?? {}), ...(row.env?.(ws) ?? {}) };
  const command = row.suite ? row.suite.command() : row.command();
  let r;
  let check = null;
  let lines = [];
  if (mode === "bare") r = spawnTimed(command, ws, env);
  else if (mode === "srt")
    r = spawnTimed([process.execPath, srt.cli, "--settings", srtSettings(ws, row.network === true), "--", ...command], ws, env);
  else {
    const scratch = join(work, `scratch-${n}`);
    mkdirSync(scratch);
    const log = join(work, `log-${n}.jsonl`);
    const envelope = join(work, `envelope-${row.key}.json`);
    const argv = [
      process.execPath,
      CLI,
      "run",
      ...recorderFlags(recorder),
      "--envelope",
      envelope,
      "--observer",
      log,
      "--workspace",
      ws,
      "--scratch",
      scratch,
    ];
    r = spawnTimed([...argv, "--", ...command], ws, env);
    if (r.code === 2 && /recorder/i.test(r.out)) return { unavailable: r.out.trim().split("\n")[0] };
    const c = spawnSync(
      process.execPath,
      [CLI, "check", "--envelope", envelope, "--observer", log, "--workspace", ws, "--scratch", scratch, "--format", "json"],
      {
        encoding: "utf8",
      },
    );
    try {
      check = JSON.parse(c.stdout);
    } catch {
      check = { verdict: `check exit ${c.status}`, violations: [], error: { code: "?", message: c.stderr.trim() } };
    }
    lines = readLog(log);
    rmSync(scratch, { recursive: true, force: true });
    rmSync(log, { force: true });
  }
  rmSync(ws, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  // sandbox-runtime exits 0 without running a command it could not parse (options without `--`): every arm must show the suite ran.
  if (r.code === 0 && !row.proof.test(r.out))
    throw new Error(`${row.key} ${mode} exited 0 but its output lacks ${row.proof}: ${r.out.slice(-800)}`);
  if (r.code !== 0) throw new Error(`${row.key} ${mode}${recorder ? ` (${recorder})` : ""} exited ${r.code}: ${r.out.slice(-1500)}`);
  return { ms: r.ms, cpuMs: r.cpuMs, check, lines };
}

/** `node bench/polyglot.mjs --suggest`: one recording per row under the narrow envelope, and suggest's proposal. */
function suggestMode() {
  for (const row of ROWS.filter((r) => chosen === null || chosen.includes(r.key))) {
    const pristine = join(work, `pristine-${row.key}`);
    mkdirSync(pristine);
    if (row.suite) row.suite.prepare(pristine, work);
    else row.prepare(pristine);
    const ws = join(work, `suggest-ws-${row.key}`);
    cpSync(pristine, ws, { recursive: true });
    const narrow = join(work, `narrow-${row.key}.json`);
    writeEnvelope(narrow, { envelope_id: `bench-polyglot-${row.key}-narrow`, ...base, allowed_env: ["PATH", "@ci"] });
    const home = join(work, `suggest-home-${row.key}`);
    mkdirSync(home);
    const env = { ...process.env, CI: "true", HOME: home, ...(row.suite?.env() ?? {}), ...(row.env?.(ws) ?? {}) };
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        "suggest",
        "--run",
        "--envelope",
        narrow,
        "--observer",
        join(work, `suggest-${row.key}.jsonl`),
        "--workspace",
        ws,
        "--",
        ...(row.suite ? row.suite.command() : row.command()),
      ],
      { cwd: ws, env, encoding: "utf8", maxBuffer: 1 << 28 },
    );
    process.stdout.write(`== ${row.key} (exit ${r.status})\n${r.stdout}\n${r.stderr.split("\n").slice(-6).join("\n")}\n`);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// BENCH_ROWS=python,start runs only those rows.
const chosen = process.env.BENCH_ROWS ? process.env.BENCH_ROWS.split(",") : null;
if (process.argv.includes("--suggest")) {
  suggestMode();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

const srt = sandboxRuntime();
sweepCgroups();
const results = [];
let failed = false;
const LOADS = LOAD_HOGS > 0 ? ["idle", "loaded"] : ["idle"];
for (const row of ROWS.filter((r) => chosen === null || chosen.includes(r.key))) {
  const t0 = performance.now();
  const missing = row.suite ? ensure(row.suite) : ((row.needs ?? []).filter((f) => !existsSync(f)).map((f) => `needs ${f}`)[0] ?? null);
  if (missing !== null) {
    results.push({ row, skipped: missing });
    continue;
  }
  const pristine = join(work, `pristine-${row.key}`);
  mkdirSync(pristine);
  try {
    if (row.suite) row.suite.prepare(pristine, work);
    else row.prepare(pristine);
  } catch (e) {
    results.push({ row, skipped: `could not be obtained: ${String(e).split("\n")[0]}` });
    continue;
  }
  writeEnvelope(join(work, `envelope-${row.key}.json`), { envelope_id: `bench-polyglot-${row.key}`, ...ENVELOPES[row.key] });
  const arms = ["bare", ...RECORDERS.map((r) => `run:${r}`), ...(srt.cli !== null ? ["srt"] : [])];
  // samples[load][arm]: one { ms, cpuMs } per repetition.
  const samples = Object.fromEntries(LOADS.map((l) => [l, Object.fromEntries(arms.map((a) => [a, []]))]));
  const runs = Object.fromEntries(RECORDERS.map((r) => [r, { verdicts: [], unavailable: null, recorder: new Set(), lines: [] }]));
  try {
    for (let i = 0; i < REPS; i++) {
      for (const load of LOADS) {
        const stopHogs = load === "loaded" ? startHogs(LOAD_HOGS) : () => undefined;
        try {
          // The arms' order turns with each repetition, so no arm always runs first (warm caches) or last.
          const order = arms.map((_, j) => arms[(i + j) % arms.length]);
          for (const a of order) {
            if (!a.startsWith("run:")) {
              const r = arm(row, pristine, a);
              samples[load][a].push({ ms: r.ms, cpuMs: r.cpuMs });
              continue;
            }
            const name = a.slice(4);
            const info = runs[name];
            if (info.unavailable !== null) continue;
            if (recorderFlags(name) === null) {
              info.unavailable = "this `run` has no --recorder flag";
              continue;
            }
            const r = arm(row, pristine, "run", name);
            if (r.unavailable) {
              info.unavailable = r.unavailable;
              continue;
            }
            samples[load][a].push({ ms: r.ms, cpuMs: r.cpuMs });
            info.verdicts.push(r.check);
            const meta = r.lines.find((l) => l.kind === "meta");
            info.recorder.add(
              meta?.recorder
                ? meta.recorder.name + (meta.recorder.fallback ? ` (fallback: ${meta.recorder.fallback})` : "")
                : "(no meta.recorder: strace)",
            );
            if (info.lines.length === 0) info.lines.push(r.lines);
            if (r.check.verdict !== "pass") failed = true;
          }
        } finally {
          stopHogs();
        }
      }
    }
  } catch (e) {
    results.push({ row, failedWith: String(e).split("\n").slice(0, 3).join(" ") });
    failed = true;
    continue;
  }
  results.push({ row, samples, runs, seconds: (performance.now() - t0) / 1000 });
  rmSync(pristine, { recursive: true, force: true });
}
rmSync(work, { recursive: true, force: true });
const totalSeconds = (performance.now() - startedAll) / 1000;

// ---------------------------------------------------------------------------------------------
// The section.

const s = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const x = (r) => (r === null ? "n/a" : `${r.toFixed(2)}×`);
const field = (xs, f) => xs.map((v) => v[f]);
/** Median of the per-repetition ratios a/b of one field (wall `ms` or `cpuMs`). */
const paired = (a, b, f) => (a?.length && b?.length && a[0][f] !== null ? median(a.map((v, i) => v[f] / b[i][f])) : null);
function verdictText(info) {
  const counts = {};
  for (const c of info.verdicts) {
    const v =
      c.verdict +
      (c.violations?.length
        ? ` (${c.violations
            .map((v) => v.id)
            .slice(0, 3)
            .join(", ")})`
        : "") +
      (c.error ? ` (${c.error.code})` : "");
    counts[v] = (counts[v] ?? 0) + 1;
  }
  return Object.entries(counts)
    .map(([v, n]) => `${v} ${n}/${info.verdicts.length}`)
    .join("; ");
}
const events = (lines) => lines.filter((l) => l.kind !== "meta" && l.kind !== "end" && l.canary !== true).length;
const h = cgroupHierarchy();
const cpuNote =
  h === null
    ? "CPU not measured (no writable cgroup: run the bench as root)"
    : `CPU from a fresh cgroup per run (${h.kind === "v2" ? "cgroup v2 cpu.stat" : "cgroup v1 cpuacct"} under ${h.root})`;

const out = [];
out.push("## Polyglot suites: bare vs run vs sandbox-runtime, wall and CPU (bench/polyglot.mjs)");
out.push("");
out.push(
  `${REPS} repetitions; in each, every arm runs once idle${LOADS.length > 1 ? ` and once more with ${LOAD_HOGS} busy loop${LOAD_HOGS > 1 ? "s" : ""} beside it (\`loaded\`: a fixed CPU hog outside the measured cgroup, what a busy runner sees)` : ""}, on a fresh copy of the suite (and a fresh HOME), in an order that turns with each repetition. **CPU** is the whole process tree's: ${cpuNote}, so bubblewrap's jailed processes, the recorder, strace, the wrapper and sandbox-runtime's proxies are all counted (\`/usr/bin/time\` counts only waited-for children). Ratios are paired: per repetition run/srt, then the median (not the ratio of the medians). \`run\` is the full wrapper from \`dist/cli/index.js\` (bubblewrap jail, the recorder outside it, the Node hooks, with its fixed start: envelope verification, jail probe, canary stage), under a pinned envelope per suite (derived with \`node bench/polyglot.mjs --suggest\`); every log is judged by \`check\` and its verdict is in the last column. sandbox-runtime is \`@anthropic-ai/sandbox-runtime@${SRT_VERSION}\` (\`srt\`: bubblewrap and its proxies, no recorder) with the run's workspace and /tmp writable and no domains, but the registry for the npm row. Recorders measured: ${RECORDERS.map((r) => `\`${r}\``).join(", ")} (BENCH_RECORDERS).`,
);
out.push("");
for (const load of LOADS) {
  out.push(
    `**${load === "idle" ? "Idle" : `Loaded (${LOAD_HOGS} busy loop${LOAD_HOGS > 1 ? "s" : ""} beside every arm)`}.** Medians, wall / CPU:`,
  );
  out.push("");
  out.push(
    `| suite | bare | ${RECORDERS.map((r) => `run (${r})`).join(" | ")} | srt | ${RECORDERS.map((r) => `${r}/srt wall | ${r}/srt CPU`).join(" | ")} |`,
  );
  out.push(`| --- | --- | ${RECORDERS.map(() => "---").join(" | ")} | --- | ${RECORDERS.map(() => "--- | ---").join(" | ")} |`);
  for (const r of results) {
    if (r.skipped || r.failedWith) {
      if (load === "idle")
        out.push(`| ${r.row.title} | ${r.skipped ? `skipped: ${r.skipped}` : `FAILED: ${r.failedWith.replace(/\|/g, "\\|")}`} | |`);
      continue;
    }
    const m = r.samples[load];
    const cell = (xs) =>
      xs.length ? `${s(median(field(xs, "ms")))} / ${xs[0].cpuMs === null ? "n/a" : s(median(field(xs, "cpuMs")))}` : "n/a";
    const runCells = RECORDERS.map((n) =>
      r.runs[n].unavailable !== null ? `not available (${r.runs[n].unavailable.replace(/\|/g, "\\|")})` : cell(m[`run:${n}`]),
    );
    const ratios = RECORDERS.map((n) => `${x(paired(m[`run:${n}`], m.srt, "ms"))} | ${x(paired(m[`run:${n}`], m.srt, "cpuMs"))}`);
    out.push(`| ${r.row.title} | ${cell(m.bare)} | ${runCells.join(" | ")} | ${cell(m.srt ?? [])} | ${ratios.join(" | ")} |`);
  }
  out.push("");
}
if (srt.cli === null) out.push(`sandbox-runtime did not run here: ${srt.why} (it needs bubblewrap, socat and ripgrep).`, "");

out.push("`check` on every log, and what each recorder wrote (idle and loaded runs together):");
out.push("");
out.push(`| suite | ${RECORDERS.map((n) => `run (${n}): verdicts, events in the first log`).join(" | ")} |`);
out.push(`| --- | ${RECORDERS.map(() => "---").join(" | ")} |`);
for (const r of results) {
  if (r.skipped || r.failedWith) continue;
  out.push(
    `| ${r.row.title} | ${RECORDERS.map((n) => (r.runs[n].unavailable !== null ? "n/a" : `${verdictText(r.runs[n])} (log's recorder: ${[...r.runs[n].recorder].join(", ")}); ${events(r.runs[n].lines[0] ?? []).toLocaleString("en")} events`)).join(" | ")} |`,
  );
}
out.push("");

// CPU per recorded event: the run's CPU above bare, less the fixed start's (the `start` row), over
// the events its log holds. It is everything observation costs per event: the eBPF programs or
// strace's stops, the recorder, the Node hooks in the suite's processes and the wrapper's merge.
const startRow = results.find((r) => r.row.key === "start" && r.samples);
const extraCpu = (r, n) => {
  const run = r?.samples?.idle?.[`run:${n}`] ?? [];
  const bare = r?.samples?.idle?.bare ?? [];
  return run.length && bare.length && run[0].cpuMs !== null ? median(run.map((v, i) => v.cpuMs - bare[i].cpuMs)) : null;
};
out.push(
  "CPU per recorded event (idle; the run's CPU above bare, less the fixed start's, over the events in its log: the recorder, the Node hooks and the wrapper together):",
);
out.push("");
out.push(`| suite | ${RECORDERS.map((n) => `run (${n}): CPU above bare | per event`).join(" | ")} |`);
out.push(`| --- | ${RECORDERS.map(() => "--- | ---").join(" | ")} |`);
for (const r of results) {
  if (r.skipped || r.failedWith || r.row.key === "start") continue;
  const cells = RECORDERS.map((n) => {
    const extra = extraCpu(r, n);
    const fixed = extraCpu(startRow, n);
    const ev = events(r.runs[n].lines[0] ?? []);
    if (extra === null) return "n/a | n/a";
    const per = fixed === null || ev === 0 ? null : ((extra - fixed) * 1000) / ev;
    return `${s(extra)} | ${per === null ? "n/a" : per <= 0 ? "within the fixed start" : `${per.toFixed(1)} µs`}`;
  });
  out.push(`| ${r.row.title} | ${cells.join(" | ")} |`);
}
out.push("");

const suiteRows = results.filter((r) => r.samples && !["start", "micro"].includes(r.row.key));
for (const n of RECORDERS) {
  const runKey = `run:${n}`;
  const misses = [];
  let measuredPairs = 0;
  for (const load of LOADS)
    for (const r of suiteRows) {
      const w = paired(r.samples[load][runKey], r.samples[load].srt, "ms");
      const c = paired(r.samples[load][runKey], r.samples[load].srt, "cpuMs");
      if (w !== null || c !== null) measuredPairs++;
      if (w !== null && w > 1.05) misses.push(`${r.row.key} ${load} wall ${x(w)}`);
      if (c !== null && c > 1.0) misses.push(`${r.row.key} ${load} CPU ${x(c)}`);
    }
  const st = LOADS.map(
    (l) =>
      `${l} wall ${x(paired(startRow?.samples?.[l]?.[runKey], startRow?.samples?.[l]?.srt, "ms"))}, CPU ${x(paired(startRow?.samples?.[l]?.[runKey], startRow?.samples?.[l]?.srt, "cpuMs"))}`,
  );
  out.push(
    `Against issue 35's targets (\`run (${n})\`; reported, not asserted): every suite run/srt <= 1.0× CPU and <= 1.05× wall, idle and loaded: ${measuredPairs === 0 ? "not measured (no srt arm)" : misses.length === 0 ? "met" : `not met for ${misses.join("; ")}`}; fixed start <= srt's: ${st.join("; ")}.`,
  );
  out.push("");
}
out.push(
  `Total bench time: ${(totalSeconds / 60).toFixed(1)} min (${results.map((r) => (r.seconds ? `${r.row.key} ${r.seconds.toFixed(0)} s` : `${r.row.key} -`)).join(", ")}).`,
);
process.stdout.write(out.join("\n") + "\n");
process.exitCode = failed ? 1 : 0;
