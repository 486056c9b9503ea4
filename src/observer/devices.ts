/**
 * The host's device nodes the jail shows, read-only: no chmod, chown, utimes, xattr, rename or
 * link on them, while reading and writing them still works.
 *
 * Bubblewrap's `--dev` binds the host's `/dev/null`, `zero`, `full`, `random`, `urandom` and
 * `tty` into the jail's `/dev` (and the caller's terminal as `/dev/console` when its stdout is
 * one). Those binds are writable mounts of the host's inodes: the jail's root is the host's uid 0
 * (bubblewrap maps root to itself), owns them, and could `chmod 0667 /dev/full` on the host. A
 * read-only mount refuses every metadata change (EROFS) but, for a device node, not an open for
 * writing (the kernel checks a mount's write access only for regular files, directories and
 * links), so `/dev/null` keeps taking writes. Bubblewrap cannot make such a mount itself (its
 * `--remount-ro` adds `nodev`, and a device on a `nodev` mount cannot be opened), so for root the
 * wrapper starts a *holder*: a process in a mount namespace of its own (`unshare --mount`) where
 * each node is bound read-only over a file in the wrapper's private directory; every stage enters
 * that namespace first (`nsenter --mount`, one exec, no child process: the recorder's tree is
 * unchanged) and bubblewrap binds those read-only nodes over its own (`--dev-bind`).
 *
 * Unprivileged, the nodes are root's: chmod and chown fail (EPERM) without a holder, and the jail
 * is not their owner. Setting their times to now (`touch /dev/null`) needs only write access to the
 * node, as for any user on the host; that is not refused. In both cases `/dev/console` is always
 * the null device (never the caller's terminal, whose owner may be the jail's user), and the jail's
 * `/dev` itself is read-only (jail.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { Refusal } from "../core/errors.js";

/** The nodes bubblewrap's `--dev` binds from the host. */
export const DEV_NODES = ["null", "zero", "full", "random", "urandom", "tty"] as const;

const HOLDER_SCRIPT = [
  "set -e",
  // One mount(8) per node: since util-linux 2.27 `--bind -o ro` binds and makes the bind read-only
  // (an older one binds read-write and ignores `ro`: readOnlyDevices reads the holder's mounts
  // back and refuses unless every node is read-only).
  'for n in null zero full random urandom tty; do : > "$1/$n"; mount --bind -o ro "/dev/$n" "$1/$n"; done',
  "echo ready",
  // Held until the wrapper closes its input (or dies).
  "read -r _ || :",
].join("; ");

export interface Devices {
  /** Before the tracer: enter the holder's mount namespace (root), else nothing. */
  prefix: string[];
  /** Bubblewrap's arguments after `--dev /dev`. */
  args: string[];
  close(): void;
}

/** Unprivileged: no holder; `/dev/console` is the host's null device. */
export const UNPRIVILEGED_DEVICES: Devices = {
  prefix: [],
  args: ["--dev-bind", "/dev/null", "/dev/console"],
  close: () => undefined,
};

/**
 * For a wrapper running as root: the holder with the read-only nodes in `dir` (made here), or
 * JAIL_UNAVAILABLE naming why it could not be had.
 */
export async function readOnlyDevices(
  dir: string,
  tools: { unshare: string | null; nsenter: string | null },
  cwd: string,
): Promise<Devices> {
  if (tools.unshare === null || tools.nsenter === null) {
    throw new Refusal(
      "JAIL_UNAVAILABLE",
      "unshare and nsenter (util-linux) are needed to show the host's device nodes read-only to a root run",
      {
        hint: "Install util-linux (unshare and nsenter ship with it on Debian and Ubuntu).",
      },
    );
  }
  mkdirSync(dir, { mode: 0o700 });
  const child: ChildProcess = spawn(
    tools.unshare,
    ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", HOLDER_SCRIPT, "sh", dir],
    {
      stdio: ["pipe", "pipe", "pipe"],
      // util-linux's mount, wherever the caller's PATH points.
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const ready = await new Promise<boolean>((settle) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.includes("ready\n")) settle(true);
    });
    child.once("error", () => settle(false));
    child.once("exit", () => settle(false));
  });
  if (!ready || child.pid === undefined) {
    child.kill("SIGKILL");
    throw new Refusal(
      "JAIL_UNAVAILABLE",
      `the host's device nodes cannot be shown read-only to the jail (${tools.unshare} --mount: ${stderr.trim().split("\n")[0] || "it ended"})`,
      { hint: "A root run needs to make mounts in a mount namespace of its own (CAP_SYS_ADMIN); run unprivileged otherwise." },
    );
  }
  const pid = child.pid;
  const writable = notReadOnly(pid, dir);
  if (writable.length > 0) {
    child.stdin?.end();
    child.kill("SIGKILL");
    throw new Refusal(
      "JAIL_UNAVAILABLE",
      `the host's device nodes cannot be shown read-only to the jail (not read-only in the holder: ${writable.join(", ")})`,
      { hint: "mount(8) from util-linux 2.27 or later makes a bind read-only with --bind -o ro; install it." },
    );
  }
  return {
    prefix: [tools.nsenter, `--mount=/proc/${pid}/ns/mnt`, `--wd=${cwd}`, "--"],
    args: [...DEV_NODES.flatMap((n) => ["--dev-bind", join(dir, n), `/dev/${n}`]), "--dev-bind", join(dir, "null"), "/dev/console"],
    close: () => {
      child.stdin?.end();
      child.kill("SIGKILL");
    },
  };
}

/** An octal escape of /proc/<pid>/mountinfo (space, tab, newline, backslash) read back. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * The nodes in `dir` that are not a read-only mount in the holder's mount namespace (the last
 * mount at a path is the one seen there): all of them when its mounts cannot be read.
 */
export function notReadOnly(pid: number, dir: string): string[] {
  let table: string;
  try {
    table = readFileSync(`/proc/${pid}/mountinfo`, "utf8");
  } catch {
    return [...DEV_NODES];
  }
  const readOnly = new Map<string, boolean>();
  for (const line of table.split("\n")) {
    // id parent major:minor root mount-point mount-options ...
    const fields = line.split(" ");
    const point = fields[4];
    const options = fields[5];
    if (point === undefined || options === undefined) continue;
    readOnly.set(unescapeMountPath(point), options.split(",").includes("ro"));
  }
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return [...DEV_NODES];
  }
  return DEV_NODES.filter((n) => readOnly.get(join(real, n)) !== true);
}
