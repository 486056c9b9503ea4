// Suites with services: PostgreSQL and Redis reached bare, and from the jail through the declared
// forward (`run` under deny with `services`), in the same run. Wall and CPU (user + system of the
// whole process tree, GNU time) per workload; ratios against bare. Needs PostgreSQL at
// 127.0.0.1:5432 (trust, database test) and Redis at 127.0.0.1:6379, psql and redis-cli.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/index.js");
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = 100;
const STATEMENTS = 5_000;
const PINGS = 20_000;

function available() {
  const pg = spawnSync("psql", ["-X", "host=127.0.0.1 user=postgres dbname=test", "-c", "SELECT 1"], { stdio: "ignore" });
  const redis = spawnSync("redis-cli", ["-h", "127.0.0.1", "PING"], { encoding: "utf8" });
  return pg.status === 0 && redis.stdout?.trim() === "PONG" && existsSync("/usr/bin/time");
}

if (!available()) {
  process.stdout.write(
    "## Suites with services (bench/services.mjs)\n\nNot run: PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379, psql, redis-cli and GNU time are needed.\n",
  );
  process.exit(0);
}

const base = mkdtempSync(join(tmpdir(), "eg-bench-services-"));
const workspace = join(base, "workspace");
const scratch = join(base, "scratch");
mkdirSync(workspace);
mkdirSync(scratch);
const envelope = join(base, "envelope.json");
const text =
  JSON.stringify(
    {
      envelope_id: "bench-services",
      allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
      allowed_tools: [],
      allowed_env: ["PATH"],
      allowed_hosts: [],
      network: "deny",
      services: ["127.0.0.1:5432", "127.0.0.1:6379"],
    },
    null,
    2,
  ) + "\n";
writeFileSync(envelope, text);
writeFileSync(`${envelope}.sha256`, `${createHash("sha256").update(text).digest("hex")}  envelope.json\n`);
const sql = join(workspace, "statements.sql");
writeFileSync(sql, "SELECT 1;\n".repeat(STATEMENTS));

// No GSSAPI or TLS negotiation: libpq's default tries Kerberos first, which bare (with the host's
// resolver) costs a lookup per connection and in the jail fails at once; the figure would be that.
const PSQL = "/usr/bin/psql -X -q 'host=127.0.0.1 user=postgres dbname=test gssencmode=disable sslmode=disable'";
const WORKLOADS = [
  {
    name: `${CONNECTIONS} psql connections (one SELECT each)`,
    script: `i=0; while [ $i -lt ${CONNECTIONS} ]; do ${PSQL} -c 'SELECT 1' >/dev/null; i=$((i+1)); done`,
  },
  { name: `one psql session, ${STATEMENTS} statements`, script: `${PSQL} -f ${sql} >/dev/null` },
  { name: `one redis-cli connection, ${PINGS} PINGs`, script: `redis-cli -h 127.0.0.1 -r ${PINGS} PING >/dev/null` },
  { name: "nothing (`true`): the fixed cost", script: "true" },
];

/** Wall, user and system seconds of `argv` and every process it waited for. */
function timed(argv) {
  const r = spawnSync("/usr/bin/time", ["-f", "@@ %e %U %S", ...argv], { cwd: workspace, encoding: "utf8", maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const m = /@@ ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  if (!m) throw new Error(`no timing in ${r.stderr.slice(-500)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]) };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const modes = [
  { name: "bare", argv: (script) => ["/bin/sh", "-c", script] },
  {
    name: "`run`, deny, both services declared",
    argv: (script) => [
      process.execPath,
      CLI,
      "run",
      "--envelope",
      envelope,
      "--observer",
      join(base, "o.jsonl"),
      "--workspace",
      workspace,
      "--scratch",
      scratch,
      "--",
      "/bin/sh",
      "-c",
      script,
    ],
  },
];

const rows = [];
for (const w of WORKLOADS) {
  const results = modes.map(() => ({ wall: [], cpu: [] }));
  // Alternate the modes, so that a busy moment of the machine falls on both.
  for (let i = 0; i < REPS; i++) {
    modes.forEach((mode, k) => {
      const t = timed(mode.argv(w.script));
      results[k].wall.push(t.wall);
      results[k].cpu.push(t.cpu);
    });
  }
  const bare = { wall: median(results[0].wall), cpu: median(results[0].cpu) };
  modes.forEach((mode, k) => {
    const wall = median(results[k].wall);
    const cpu = median(results[k].cpu);
    const ratio = (value, of) => (of >= 0.05 ? `${(value / of).toFixed(2)}x` : "-");
    rows.push(
      `| ${w.name} | ${mode.name} | ${(wall * 1000).toFixed(0)} ms | ${ratio(wall, bare.wall)} | ${(cpu * 1000).toFixed(0)} ms | ${ratio(cpu, bare.cpu)} |`,
    );
  });
}
rmSync(base, { recursive: true, force: true });

process.stdout.write(
  [
    "## Suites with services (bench/services.mjs)",
    "",
    `PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) on this machine, reached bare and from the jail through the declared forward (\`run\` under \`network: deny\` with \`services\`, the default recorder). Median of ${REPS} runs each, the two modes alternated. CPU is user + system of the whole process tree (GNU time): the wrapper, its recorder, the holder and the command; it does not include the database servers' own work, which is the same in both modes.`,
    "",
    "| workload | mode | wall | wall ratio | CPU | CPU ratio |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "Every connection through the forward crosses two extra hops (the holder inside the jail's network namespace, a unix socket, the wrapper's forward); every byte is copied twice more. The fixed-cost row is the run's own start (the envelope, the jail probe, the network holder, the canary stage) and is paid once per run, not per connection.",
    "",
  ].join("\n"),
);
