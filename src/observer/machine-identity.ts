/**
 * Machine identity hidden inside the jail: what PR code could read to tell runner A's machine
 * from runner B's, and so pick which one fails, is the same on every machine.
 *
 * - Fixed files bound read-only over the host's: `/etc/machine-id`, `/var/lib/dbus/machine-id`,
 *   `/etc/hostname`, `/etc/hosts` and `/proc/sys/kernel/random/boot_id`.
 * - The UTS hostname is `envelope-gate` (bwrap `--hostname`, in isolation()), so `hostname`,
 *   `uname -n` and `/proc/sys/kernel/hostname` say the same on every machine.
 * - Directories covered with an empty read-only tmpfs: the DMI ids (`/sys/devices/virtual/dmi`,
 *   behind `/sys/class/dmi/id`), `/sys/firmware` (the raw SMBIOS and ACPI tables, the device
 *   tree), the network interfaces' sysfs directories (MAC addresses; the jail's own network
 *   namespace has only loopback) and the cloud agents' instance data (cloud-init, Azure's waagent).
 * - SSH host keys (`/etc/ssh/ssh_host_*`) and the disks' serial numbers and world-wide ids in
 *   sysfs covered with an empty file.
 *
 * A path the host lacks stays absent (bubblewrap cannot create a mount point on the read-only
 * root) and meta says so; a path that is there but of another kind than the cover needs (a
 * directory at `/etc/machine-id`) is refused with JAIL_IDENTITY_UNAVAILABLE: the jail never
 * claims to hide what it did not.
 *
 * The wrapper itself still reads the real machine id and hostname outside the jail (meta.runner,
 * runner.json): the App compares those.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { errnoOf, Refusal } from "../core/errors.js";
import { isInsideAnyRoot } from "../core/paths.js";

export const JAIL_HOSTNAME = "envelope-gate";
/** A valid machine id (32 lower-case hex, version 4 bits set), the same on every machine. */
const JAIL_MACHINE_ID = "e9a7e0000000400080000000000e9a7e";
const JAIL_BOOT_ID = "e9a7e000-0000-4000-8000-00000e9a7e00";
const JAIL_HOSTS = `127.0.0.1\tlocalhost\n127.0.1.1\t${JAIL_HOSTNAME}\n::1\tlocalhost ip6-localhost ip6-loopback\n`;

/** Files whose content is fixed in the jail: path -> content. */
const FIXED_FILES: readonly (readonly [string, string])[] = [
  ["/etc/machine-id", `${JAIL_MACHINE_ID}\n`],
  ["/var/lib/dbus/machine-id", `${JAIL_MACHINE_ID}\n`],
  ["/etc/hostname", `${JAIL_HOSTNAME}\n`],
  ["/etc/hosts", JAIL_HOSTS],
  // The jail's /proc is its own (--proc), but a file of it can be bound over like any other.
  ["/proc/sys/kernel/random/boot_id", `${JAIL_BOOT_ID}\n`],
];

/** Directories covered with an empty read-only directory when the host has them. */
const COVERED_DIRECTORIES: readonly string[] = [
  "/sys/devices/virtual/dmi",
  "/sys/firmware",
  "/sys/class/net",
  "/var/lib/cloud",
  "/run/cloud-init",
  "/var/lib/waagent",
];

/** Environment keys given the jail's hostname when an envelope lets them in (core/never-proposed.ts MACHINE_KEY for the rest). */
export const HOSTNAME_KEYS: readonly string[] = ["HOSTNAME", "HOST"];

export interface MachineIdentityMeta {
  /** The hostname every jail has (UTS namespace). */
  hostname: string;
  /** Files bound over with fixed content, at the host path that was covered. */
  fixed: string[];
  /** Directories covered with an empty read-only directory. */
  covered: string[];
  /** Files covered with an empty file (SSH host keys, disk serials and world-wide ids), at their real paths. */
  emptied: string[];
  /** Identity paths this host does not have: absent in the jail as well. */
  absent: string[];
}

interface MachineIdentityPlan {
  /** bubblewrap arguments, to be placed after every other mount. */
  args: string[];
  meta: MachineIdentityMeta;
}

type Kind = "file" | "directory" | "other" | "absent";

function kindOf(path: string): { kind: Kind; real: string } {
  let real: string;
  try {
    // bubblewrap does not follow a symlink at a destination (Debian's dbus machine id links to /etc's): bind at the target.
    real = realpathSync(path);
  } catch (err) {
    const code = errnoOf(err);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent", real: path };
    throw identityError(path, `it cannot be resolved (${code ?? String(err)})`);
  }
  const st = lstatSync(real);
  return { kind: st.isFile() ? "file" : st.isDirectory() ? "directory" : "other", real };
}

function identityError(path: string, why: string): Refusal {
  return new Refusal("JAIL_IDENTITY_UNAVAILABLE", `the jail cannot hide the machine's identity at ${path}: ${why}`, {
    hint: "The run never starts with the machine's identity in view (docs/observer.md, What a run can still tell about its machine). Make it a regular file (or remove it).",
  });
}

/** The interfaces' own sysfs directories (their MAC addresses), behind /sys/class/net's links. */
function interfaceDirectories(): string[] {
  let names: string[];
  try {
    names = readdirSync("/sys/class/net");
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const name of names) {
    try {
      const real = realpathSync(join("/sys/class/net", name));
      if (real !== join("/sys/class/net", name) && lstatSync(real).isDirectory()) out.add(real);
    } catch {
      continue;
    }
  }
  return [...out].sort();
}

function sshHostKeys(): string[] {
  try {
    return readdirSync("/etc/ssh")
      .filter((n) => n.startsWith("ssh_host_"))
      .map((n) => join("/etc/ssh", n))
      .sort();
  } catch {
    return [];
  }
}

/** Disk serial numbers and world-wide ids in sysfs (`/sys/block/<disk>/serial`, `…/device/wwid`, NVMe's `serial`). */
const DISK_ID_FILES = ["serial", "wwid", "device/serial", "device/wwid", "device/vpd_pg80", "device/vpd_pg83", "device/unit_serial_number"];

function diskIdFiles(): string[] {
  const out: string[] = [];
  const under = (dir: string, names: readonly string[]): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) for (const name of names) out.push(join(dir, entry, name));
  };
  under("/sys/block", DISK_ID_FILES);
  under("/sys/class/nvme", ["serial"]);
  return out;
}

/**
 * The mounts that hide the machine's identity. `dir` is a directory of the wrapper's own (covered
 * inside the jail): the fixed files are written there and bound read-only from it. `extraHosts`:
 * lines the jail's /etc/hosts has after its fixed ones.
 */
export function planMachineIdentity(dir: string, extraHosts: readonly string[] = []): MachineIdentityPlan {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const args: string[] = [];
  const meta: MachineIdentityMeta = { hostname: JAIL_HOSTNAME, fixed: [], covered: [], emptied: [], absent: [] };
  const bound = new Set<string>();
  FIXED_FILES.forEach(([path, content], i) => {
    const { kind, real } = kindOf(path);
    if (kind === "absent") {
      meta.absent.push(path);
      return;
    }
    if (kind !== "file") throw identityError(path, `it is a ${kind === "directory" ? "directory" : "special file"}, not a file`);
    if (bound.has(real)) {
      meta.fixed.push(path);
      return;
    }
    const source = join(dir, `fixed-${i}`);
    // The declared services' names (jail-network.ts) resolve from the jail's hosts file as well.
    writeFileSync(source, path === "/etc/hosts" ? content + extraHosts.map((l) => `${l}\n`).join("") : content, { mode: 0o644 });
    args.push("--ro-bind", source, real);
    bound.add(real);
    meta.fixed.push(path);
  });
  const directories = [...COVERED_DIRECTORIES, ...interfaceDirectories()];
  for (const path of directories) {
    const { kind, real } = kindOf(path);
    if (kind === "absent") {
      if (COVERED_DIRECTORIES.includes(path)) meta.absent.push(path);
      continue;
    }
    if (kind !== "directory") throw identityError(path, "it is not a directory");
    if (bound.has(real)) continue;
    args.push("--tmpfs", real, "--remount-ro", real);
    bound.add(real);
    meta.covered.push(real);
  }
  const files = [...sshHostKeys(), ...diskIdFiles()];
  const empty = join(dir, "empty");
  writeFileSync(empty, "", { mode: 0o644 });
  for (const file of files) {
    const { kind, real } = kindOf(file);
    if (kind === "absent" || bound.has(real) || isInsideAnyRoot(real, [...bound])) continue;
    if (kind !== "file") throw identityError(file, "it is not a file");
    args.push("--ro-bind", empty, real);
    bound.add(real);
    meta.emptied.push(real);
  }
  return { args, meta };
}

/** Test seam: the file holding the machine id the runner is named by. */
const MACHINE_ID_ENV = "ENVELOPE_GATE_MACHINE_ID_FILE";

/** The runner as meta names it: the host name and a digest of the real machine id (never the jail's). */
export function runnerIdentity(): string {
  const files =
    process.env[MACHINE_ID_ENV] !== undefined ? [process.env[MACHINE_ID_ENV] as string] : ["/etc/machine-id", "/var/lib/dbus/machine-id"];
  for (const file of files) {
    try {
      const id = readFileSync(file, "utf8").trim();
      if (id !== "") return `${hostname()}#${createHash("sha256").update(id).digest("hex").slice(0, 16)}`;
    } catch {
      continue;
    }
  }
  throw new Refusal("RUNNER_IDENTITY_UNAVAILABLE", `no machine id in ${files.join(" or ")}: the runner cannot be identified`, {
    hint: "The log names the machine it was recorded on (A/B runs must differ). Provide /etc/machine-id (systemd-machine-id-setup).",
  });
}
