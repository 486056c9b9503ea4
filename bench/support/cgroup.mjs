// CPU of a whole process tree: the command is started inside a fresh cgroup, and every process
// it starts (bubblewrap's jailed children, the recorder, strace, sandbox-runtime's proxies) is
// counted there, however it detaches. cgroup v2 (`cpu.stat` usage_usec) where it is mounted and
// writable, else v1's cpuacct (`cpuacct.usage`, ns). `/usr/bin/time` counts only waited-for children
// and misses whatever bubblewrap's init reaps; a cgroup does not.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const CANDIDATES = [
  { root: "/sys/fs/cgroup", probe: "cgroup.controllers", kind: "v2" },
  { root: "/sys/fs/cgroup/unified", probe: "cgroup.controllers", kind: "v2" },
  { root: "/sys/fs/cgroup/cpuacct", probe: "cpuacct.usage", kind: "v1" },
  { root: "/sys/fs/cgroup/cpu,cpuacct", probe: "cpuacct.usage", kind: "v1" },
];

let chosen;
/** The hierarchy used, or null with the reason (not root, no writable cgroup). */
export function cgroupHierarchy() {
  if (chosen !== undefined) return chosen;
  chosen = null;
  for (const c of CANDIDATES) {
    if (!existsSync(join(c.root, c.probe))) continue;
    const dir = join(c.root, `eg-bench-probe-${process.pid}`);
    try {
      mkdirSync(dir);
      rmdirSync(dir);
      chosen = c;
      break;
    } catch {
      // not writable here: try the next one
    }
  }
  return chosen;
}

function usageMicros(h, dir) {
  if (h.kind === "v2") {
    const m = /^usage_usec (\d+)$/m.exec(readFileSync(join(dir, "cpu.stat"), "utf8"));
    if (!m) throw new Error(`${dir}/cpu.stat has no usage_usec`);
    return Number(m[1]);
  }
  return Number(readFileSync(join(dir, "cpuacct.usage"), "utf8").trim()) / 1000;
}

function members(dir) {
  return readFileSync(join(dir, "cgroup.procs"), "utf8").trim();
}

let seq = 0;
/**
 * Runs argv to completion inside a fresh cgroup. Returns wall ms, CPU ms of everything that ran in
 * the cgroup (null without a usable hierarchy), exit code and output. Processes left behind after
 * the command exits are waited for (up to 10 s) and then killed, so their CPU is counted too.
 */
export function spawnMeasured(argv, options) {
  const h = cgroupHierarchy();
  if (h === null) {
    const t0 = performance.now();
    const r = spawnSync(argv[0], argv.slice(1), { ...options, encoding: "utf8", maxBuffer: 1 << 28 });
    return { ms: performance.now() - t0, cpuMs: null, code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
  }
  const dir = join(h.root, `eg-bench-${process.pid}-${++seq}`);
  mkdirSync(dir);
  try {
    // sh joins the cgroup, then becomes the command: nothing of the command runs outside it.
    const joined = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', join(dir, "cgroup.procs"), ...argv];
    const t0 = performance.now();
    const r = spawnSync(joined[0], joined.slice(1), { ...options, encoding: "utf8", maxBuffer: 1 << 28 });
    const ms = performance.now() - t0;
    const deadline = Date.now() + 10_000;
    while (members(dir) !== "" && Date.now() < deadline) spawnSync("sleep", ["0.05"]);
    if (members(dir) !== "") {
      for (const pid of members(dir).split("\n")) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // already gone
        }
      }
      while (members(dir) !== "") spawnSync("sleep", ["0.05"]);
    }
    return { ms, cpuMs: usageMicros(h, dir) / 1000, code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
  } finally {
    rmdirSync(dir);
  }
}

/** Leftover cgroups of killed bench runs (empty ones only). */
export function sweepCgroups() {
  const h = cgroupHierarchy();
  if (h === null) return;
  for (const name of readdirSync(h.root)) {
    if (!name.startsWith("eg-bench-")) continue;
    try {
      rmdirSync(join(h.root, name));
    } catch {
      // still has members
    }
  }
}

/** `n` busy loops (one core each) outside any measured cgroup, for the loaded arms; returns a function that stops them. */
export function startHogs(n) {
  const children = [];
  for (let i = 0; i < n; i++) children.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return () => {
    for (const c of children) c.kill("SIGKILL");
  };
}
