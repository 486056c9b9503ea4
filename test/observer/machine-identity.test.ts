/**
 * What PR code can learn about its machine does not let it pick a verdict (issue 18, item 2).
 *
 * The attack: a test reads /etc/machine-id (the hostname, the DMI ids, a MAC address) and fails
 * only on runner A's machine, so "A fails, B passes" and the App proposes a freeze. In the jail
 * every such source reads the same on every machine. A jailed program (real bwrap, as root and
 * as nobody) reads each source; the values are the fixed ones and differ from the host's; and two
 * runs on two simulated machines (as root: a private mount and UTS namespace around the wrapper,
 * with another machine-id, hostname and DMI ids bound over the host's) see identical values,
 * while meta.runner, read by the wrapper outside the jail, still tells the machines apart.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, CLI, JAIL_AVAILABLE, check, ids, program, run, sandbox, spawnNode, type Sandbox } from "./harness.js";

const FIXED = {
  machineId: "e9a7e0000000400080000000000e9a7e",
  bootId: "e9a7e000-0000-4000-8000-00000e9a7e00",
  hostname: "envelope-gate",
};

/** Reads every identity source it knows of and writes what it saw as JSON (argv[2]). */
const READER = `
const fs = require("fs"), os = require("os");
const read = (p) => { try { return fs.readFileSync(p, "utf8").trim(); } catch (e) { return "!" + e.code; } };
const list = (p) => { try { return fs.readdirSync(p).sort(); } catch (e) { return "!" + e.code; } };
const files = {};
for (const file of JSON.parse(process.argv[3])) files[file] = read(file);
const seen = {
  machineId: read("/etc/machine-id"),
  dbusMachineId: read("/var/lib/dbus/machine-id"),
  etcHostname: read("/etc/hostname"),
  hosts: read("/etc/hosts"),
  bootId: read("/proc/sys/kernel/random/boot_id"),
  procHostname: read("/proc/sys/kernel/hostname"),
  uname: os.hostname(),
  dmiUuid: read("/sys/class/dmi/id/product_uuid"),
  dmiDirect: read("/sys/devices/virtual/dmi/id/product_uuid"),
  boardSerial: read("/sys/devices/virtual/dmi/id/board_serial"),
  dmiList: list("/sys/devices/virtual/dmi"),
  firmware: list("/sys/firmware"),
  net: list("/sys/class/net"),
  files,
  envHostname: process.env.HOSTNAME ?? null,
  envRunnerName: process.env.RUNNER_NAME ?? null,
  envRunnerTracking: process.env.RUNNER_TRACKING_ID ?? null,
  envRunnerOs: process.env.RUNNER_OS ?? null,
};
fs.writeFileSync(process.argv[2], JSON.stringify(seen));
`;

type Seen = Record<string, unknown> & { files: Record<string, string> };

/** The host's per-device ids in sysfs: each interface's MAC address, each disk's serial number. */
function deviceIdFiles(): string[] {
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir).map((n) => realpathSync(join(dir, n)));
    } catch {
      return [];
    }
  };
  return [
    ...list("/sys/class/net").map((d) => join(d, "address")),
    ...list("/sys/block").flatMap((d) => [join(d, "serial"), join(d, "device", "serial"), join(d, "wwid")]),
  ].filter((f) => (hostValue(f) ?? "") !== "");
}

function hostValue(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

const ENVELOPE = {
  // HOSTNAME listed exactly: it is let in, with the jail's hostname. RUNNER_* is a pattern: it lets
  // RUNNER_OS in, never RUNNER_NAME or RUNNER_TRACKING_ID (machine-naming keys need an exact entry).
  allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOSTNAME", "RUNNER_*"],
};
const RUNNER_ENV = { HOSTNAME: "runner-a-host", RUNNER_NAME: "GitHub Actions 7", RUNNER_TRACKING_ID: "github_0a1b2c", RUNNER_OS: "Linux" };

function expectFixed(seen: Seen): void {
  expect(seen.machineId).toBe(FIXED.machineId);
  if (existsSync("/var/lib/dbus/machine-id")) expect(seen.dbusMachineId).toBe(FIXED.machineId);
  if (existsSync("/etc/hostname")) expect(seen.etcHostname).toBe(FIXED.hostname);
  expect(seen.hosts).toContain(`127.0.1.1\t${FIXED.hostname}`);
  expect(seen.bootId).toBe(FIXED.bootId);
  expect(seen.procHostname).toBe(FIXED.hostname);
  expect(seen.uname).toBe(FIXED.hostname);
  // DMI: absent, or an empty read-only cover.
  for (const v of [seen.dmiUuid, seen.dmiDirect, seen.boardSerial]) expect(String(v)).toMatch(/^!(ENOENT|ENOTDIR)$/);
  if (Array.isArray(seen.dmiList)) expect(seen.dmiList).toEqual([]);
  if (Array.isArray(seen.firmware)) expect(seen.firmware).toEqual([]);
  if (Array.isArray(seen.net)) expect(seen.net).toEqual([]);
  // A MAC address under a covered directory is absent; a disk serial is an empty file.
  for (const [file, value] of Object.entries(seen.files)) expect(["!ENOENT", ""], file).toContain(value);
  expect(seen.envHostname).toBe(FIXED.hostname);
  expect(seen.envRunnerName).toBeNull();
  expect(seen.envRunnerTracking).toBeNull();
  expect(seen.envRunnerOs).toBe("Linux");
}

type Mode = "as the test's user" | "as nobody";

for (const mode of ["as the test's user", "as nobody"] as Mode[])
  describe.skipIf(!JAIL_AVAILABLE || (mode === "as nobody" && !CAN_RUN_AS_NOBODY))(`machine identity in the jail (${mode})`, () => {
    it("attack: a jailed program reads machine-id, hostname, boot id, DMI, MACs and the runner's env keys: every value is the fixed one, none the host's", async () => {
      const s = sandbox(ENVELOPE);
      const out = join(s.workspace, "seen.json");
      const reader = program(s, "reader.js", READER);
      const files = deviceIdFiles();
      const r = await run(s, ["node", reader, out, JSON.stringify(files)], { env: RUNNER_ENV, asNobody: mode === "as nobody" });
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.lines.at(-1)?.kind).toBe("end");
      const seen = JSON.parse(readFileSync(out, "utf8")) as Seen;
      expectFixed(seen);
      // The host's own values are there and differ: the jail hid them, they were not merely equal.
      const hostId = hostValue("/etc/machine-id");
      expect(hostId).not.toBeNull();
      expect(seen.machineId).not.toBe(hostId);
      expect(seen.uname).not.toBe(hostname());
      expect(seen.bootId).not.toBe(hostValue("/proc/sys/kernel/random/boot_id"));
      const uuid = hostValue("/sys/class/dmi/id/product_uuid");
      if (uuid !== null) expect(seen.dmiUuid).not.toBe(uuid);
      for (const file of files) expect(seen.files[file], file).not.toBe(hostValue(file));
      // meta says what was hidden and what this host does not have.
      const meta = r.lines[0] as { runner: string; jail: { machine_identity: Record<string, string[] | string> } };
      const mi = meta.jail.machine_identity;
      expect(mi.hostname).toBe(FIXED.hostname);
      expect(mi.fixed).toContain("/etc/machine-id");
      expect(mi.fixed).toContain("/proc/sys/kernel/random/boot_id");
      for (const file of files)
        expect(
          [...(mi.covered as string[]), ...(mi.emptied as string[])].some((p) => file === p || file.startsWith(`${p}/`)),
          file,
        ).toBe(true);
      for (const p of ["/sys/devices/virtual/dmi", "/sys/firmware", "/var/lib/dbus/machine-id"])
        expect([...(mi.covered as string[]), ...(mi.fixed as string[]), ...(mi.absent as string[])]).toContain(p);
      // The wrapper, outside the jail, still names the real machine (the App compares runner.json's machine_id).
      expect(meta.runner.startsWith(`${hostname()}#`)).toBe(true);
      // The reads are not judged; RUNNER_NAME is not let in by RUNNER_*, and its read is judged.
      const report = await check(s);
      expect(report.error).toBeNull();
      expect(ids(report)).toEqual(["undeclared_env:RUNNER_NAME", "undeclared_env:RUNNER_TRACKING_ID"]);
    });

    it("clean twin: a program that reads only what the envelope allows passes; its hostname is in the jail's /etc/hosts; RUNNER_NAME listed exactly comes in", async () => {
      const s = sandbox({ allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOSTNAME", "RUNNER_*", "RUNNER_NAME"] });
      const out = join(s.workspace, "twin.txt");
      const r = await run(
        s,
        [
          "node",
          "-e",
          `const os = require("os"), fs = require("fs");
const hosts = fs.readFileSync("/etc/hosts", "utf8").split("\\n").find((l) => l.endsWith("\\t" + os.hostname()));
fs.writeFileSync(${JSON.stringify(out)}, [os.hostname(), process.env.HOSTNAME, process.env.RUNNER_NAME, process.env.RUNNER_OS, hosts].join(" "));`,
        ],
        { env: RUNNER_ENV, asNobody: mode === "as nobody" },
      );
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.code).toBe(0);
      // RUNNER_NAME listed exactly: the envelope author chose to let it in, with its value.
      expect(readFileSync(out, "utf8")).toBe("envelope-gate envelope-gate GitHub Actions 7 Linux 127.0.1.1\tenvelope-gate");
      const report = await check(s);
      expect(report.error).toBeNull();
      expect(report.verdict).toBe("pass");
    });
  });

/**
 * Two machines on one host: as root, the wrapper is started in a private mount and UTS namespace
 * with another machine-id, /etc/hostname, hostname and DMI ids bound over the host's.
 */
const CAN_SIMULATE =
  JAIL_AVAILABLE &&
  process.getuid?.() === 0 &&
  spawnSync("unshare", ["-m", "-u", "--propagation", "private", "true"], { stdio: "ignore" }).status === 0;

interface Machine {
  machineId: string;
  hostname: string;
  productUuid: string;
}

function machineFiles(s: Sandbox, name: string, m: Machine): string {
  const dir = join(s.base, `machine-${name}`);
  mkdirSync(join(dir, "dmi", "id"), { recursive: true });
  writeFileSync(join(dir, "machine-id"), `${m.machineId}\n`);
  writeFileSync(join(dir, "hostname"), `${m.hostname}\n`);
  writeFileSync(join(dir, "dmi", "id", "product_uuid"), `${m.productUuid}\n`);
  writeFileSync(join(dir, "dmi", "id", "board_serial"), `serial-${name}\n`);
  writeFileSync(join(dir, "disk-serial"), `disk-serial-${name}\n`);
  return dir;
}

/** The wrapper started on a simulated machine: the script binds its files over the host's, then execs the CLI. */
async function runOn(
  s: Sandbox,
  m: Machine,
  name: string,
  command: string[],
  extraSetup = "",
): Promise<{ code: number | null; stderr: string; log: string }> {
  const dir = machineFiles(s, name, m);
  const log = join(s.base, `observer-${name}.jsonl`);
  const setup = [
    `hostname ${m.hostname}`,
    `mount --bind ${dir}/machine-id /etc/machine-id`,
    `if [ -e /var/lib/dbus/machine-id ]; then mount --bind ${dir}/machine-id "$(readlink -f /var/lib/dbus/machine-id)"; fi`,
    `if [ -e /etc/hostname ]; then mount --bind ${dir}/hostname /etc/hostname; fi`,
    // Disk serial numbers: this machine's over each disk's.
    `for f in ${DISK_SERIALS.join(" ") || "/nonexistent"}; do if [ -f "$f" ]; then mount --bind ${dir}/disk-serial "$f"; fi; done`,
    // DMI ids: a tmpfs over /sys/devices/virtual holding this machine's, as the kernel would show them.
    `mount -t tmpfs tmpfs /sys/devices/virtual && mkdir -p /sys/devices/virtual/dmi && cp -r ${dir}/dmi/id /sys/devices/virtual/dmi/id`,
    extraSetup,
    'exec "$@"',
  ]
    .filter((l) => l !== "")
    .join(" && ");
  const args = [
    CLI,
    "run",
    "--envelope",
    s.envelope,
    "--observer",
    log,
    "--workspace",
    s.workspace,
    "--scratch",
    s.scratch,
    "--",
    ...command,
  ];
  const r = await spawnNode(["-m", "-u", "--propagation", "private", "/bin/sh", "-c", setup, "sh", process.execPath, ...args], {
    exec: "unshare",
    cwd: s.workspace,
    env: { ...process.env, HOME: s.home, ...RUNNER_ENV },
  });
  return { code: r.code, stderr: r.stderr, log: existsSync(log) ? readFileSync(log, "utf8") : "" };
}

/** The disks' serial files on this host (real paths, outside /sys/devices/virtual, which the simulation replaces). */
const DISK_SERIALS = (() => {
  try {
    return readdirSync("/sys/block")
      .map((n) => join(realpathSync(join("/sys/block", n)), "serial"))
      .filter((f) => existsSync(f) && !f.startsWith("/sys/devices/virtual/"));
  } catch {
    return [];
  }
})();

const MACHINE_A: Machine = {
  machineId: "aaaaaaaaaaaa4aaa8aaaaaaaaaaaaaaa",
  hostname: "runner-a",
  productUuid: "aaaaaaaa-0000-4000-8000-00000000000a",
};
const MACHINE_B: Machine = {
  machineId: "bbbbbbbbbbbb4bbb8bbbbbbbbbbbbbbb",
  hostname: "runner-b",
  productUuid: "bbbbbbbb-0000-4000-8000-00000000000b",
};

describe.skipIf(!CAN_SIMULATE)("machine identity on two machines (as root, simulated with a private mount and UTS namespace)", () => {
  it("attack: a test that fails only on runner A's machine (by machine-id, hostname, DMI id or disk serial) passes on both, so A and B agree and nothing is freezable", async () => {
    const s = sandbox(ENVELOPE);
    // The PR's test: fail where the machine is A's, by every identity it can read.
    const test = program(
      s,
      "machine-test.js",
      `const fs = require("fs"), os = require("os");
const read = (p) => { try { return fs.readFileSync(p, "utf8").trim(); } catch { return ""; } };
const onA = read("/etc/machine-id") === ${JSON.stringify(MACHINE_A.machineId)} || os.hostname() === ${JSON.stringify(MACHINE_A.hostname)}
  || read("/sys/class/dmi/id/product_uuid") === ${JSON.stringify(MACHINE_A.productUuid)}
  || read("/sys/devices/virtual/dmi/id/product_uuid") === ${JSON.stringify(MACHINE_A.productUuid)}
  || ${JSON.stringify(DISK_SERIALS)}.some((f) => read(f) === "disk-serial-a");
process.exit(onA ? 1 : 0);`,
    );
    const reader = program(s, "reader.js", READER);
    const seen: Seen[] = [];
    const runners: string[] = [];
    for (const [name, m] of [
      ["a", MACHINE_A],
      ["b", MACHINE_B],
    ] as const) {
      // Without the jail's cover the test does tell the machines apart: on "A" it fails.
      const bare = spawnSync(
        "unshare",
        [
          "-m",
          "-u",
          "--propagation",
          "private",
          "/bin/sh",
          "-c",
          `hostname ${m.hostname} && mount --bind ${machineFiles(s, name, m)}/machine-id /etc/machine-id && exec node ${test}`,
        ],
        { stdio: "ignore" },
      );
      expect(bare.status, `unjailed on ${name}`).toBe(name === "a" ? 1 : 0);
      const r = await runOn(s, m, name, ["node", test]);
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.code, `jailed on ${name}`).toBe(0);
      const out = join(s.workspace, `seen-${name}.json`);
      const r2 = await runOn(s, m, `${name}2`, ["node", reader, out, JSON.stringify(DISK_SERIALS)]);
      expect(r2.code, r2.stderr).toBe(0);
      seen.push(JSON.parse(readFileSync(out, "utf8")) as Seen);
      runners.push((JSON.parse(r.log.split("\n")[0] as string) as { runner: string }).runner);
    }
    // Identical inside, and the fixed values.
    expect(seen[0]).toEqual(seen[1]);
    expectFixed(seen[0] as Seen);
    // The wrapper outside the jail still tells the two machines apart (A/B need two machine ids).
    expect(runners[0]?.startsWith("runner-a#")).toBe(true);
    expect(runners[1]?.startsWith("runner-b#")).toBe(true);
    expect(runners[0]?.split("#")[1]).not.toBe(runners[1]?.split("#")[1]);
  });

  it("a machine-id that is a directory cannot be covered with the fixed file: JAIL_IDENTITY_UNAVAILABLE before anything runs; the clean twin runs", async () => {
    const s = sandbox(ENVELOPE);
    const marker = join(s.workspace, "ran");
    const dbus = join(s.base, "dbus");
    mkdirSync(join(dbus, "machine-id"), { recursive: true });
    const broken = await runOn(s, MACHINE_A, "broken", ["sh", "-c", `touch ${marker}`], `mount --bind ${dbus} /var/lib/dbus`);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain("JAIL_IDENTITY_UNAVAILABLE");
    expect(broken.stderr).toContain("/var/lib/dbus/machine-id");
    expect(existsSync(marker)).toBe(false);
    expect(broken.log).toBe("");
    const twin = await runOn(s, MACHINE_A, "twin", ["sh", "-c", `touch ${marker}`]);
    expect(twin.stderr).not.toContain("envelope-gate:");
    expect(twin.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
