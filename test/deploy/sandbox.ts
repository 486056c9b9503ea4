import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * What a container runtime or systemd's sandboxing gives the App, built with bubblewrap and
 * setpriv on a machine without either: a read-only root, a fresh /tmp, writable only where
 * bound writable, and a non-root uid with no capabilities (setpriv drops root in the host's own
 * user namespace, so files the App writes are really owned by that uid).
 */
export interface SandboxSpec {
  uid: number;
  gid: number;
  cwd: string;
  /** Existing directories replaced by an empty read-only tmpfs, to hold the mounts below. */
  hide: string[];
  /** Fresh writable tmpfs directories (mode 1777): /tmp, /var/tmp. */
  tmpfs: string[];
  mounts: { src: string; dest: string; writable: boolean }[];
}

export function sandboxAvailable(): string | null {
  for (const tool of ["bwrap", "setpriv"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  if (typeof process.getuid === "function" && process.getuid() !== 0) return "setpriv needs root to switch to the service's uid";
  const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"]);
  return probe.status === 0 ? null : `bubblewrap cannot build a sandbox here: ${probe.stderr.toString().trim()}`;
}

export function sandboxed(spec: SandboxSpec, command: string[]): string[] {
  const args = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const dir of spec.hide) args.push("--tmpfs", dir);
  for (const dir of spec.tmpfs) args.push("--perms", "1777", "--tmpfs", dir);
  // The directories leading to each mount point, readable by the service (bubblewrap would make them 0700 under umask 077).
  const made = new Set(spec.hide);
  for (const m of spec.mounts) {
    const parts = m.dest.split("/").slice(1, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = `/${parts.slice(0, i).join("/")}`;
      if (made.has(dir) || !spec.hide.some((h) => dir.startsWith(`${h}/`))) continue;
      made.add(dir);
      args.push("--perms", "0755", "--dir", dir);
    }
    args.push(m.writable ? "--bind" : "--ro-bind", m.src, m.dest);
  }
  for (const dir of spec.hide) args.push("--remount-ro", dir);
  args.push("--chdir", spec.cwd, "--die-with-parent", "--");
  args.push("setpriv", `--reuid=${spec.uid}`, `--regid=${spec.gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--");
  return [...args, ...command];
}

/** The sandboxed command's own pid (bubblewrap's child: setpriv and sh exec into it). */
export function sandboxedPid(bwrapPid: number): number {
  const children = readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, "utf8").trim().split(/\s+/);
  if (children.length !== 1 || children[0] === "") throw new Error(`bubblewrap ${bwrapPid} has children "${children.join(" ")}"`);
  return Number(children[0]);
}

/** The real uid a process runs as (from /proc). */
export function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Uid:"));
  return Number(line?.split(/\s+/)[1]);
}

export function chownR(path: string, uid: number, gid: number): void {
  execFileSync("chown", ["-R", `${uid}:${gid}`, path]);
}
