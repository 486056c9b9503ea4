/**
 * The run jail: bubblewrap around the observed command, with the wrapper and strace outside it.
 *
 *   wrapper (node) -> strace -f -> bwrap [namespaces, mounts, seccomp] -> command
 *
 * Inside: its own user (with no capabilities and no further user namespaces), PID, IPC, UTS and
 * mount namespaces, and a network namespace of its own under `network: deny`. The whole
 * filesystem is bound read-only, the allowed roots read-write at their own paths; `/tmp` and
 * `HOME` are empty directories in the run's scratch unless an allowed root covers them; `/proc` shows only
 * the jail's processes; `/dev` is a minimal one. The observer's log is hidden from the command,
 * and under `deny` every listening unix socket of the host is covered (abstract ones belong to
 * the host's network namespace and are out of reach already).
 *
 * Paths the command sees are the host's own except under the private directories, so the
 * observer records what the command asked for, and PathView turns such a path into the host
 * path behind it when a symlink must be resolved.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { GateError } from "../core/errors.js";
import { isInsideAnyRoot } from "../core/paths.js";

export const BWRAP_ENV = "ENVELOPE_GATE_BWRAP";

export interface JailPlan {
  /** Roots the command may write, folded, host paths (the same inside). */
  writableRoots: string[];
  /** Directory the wrapper owns for the jail's private directories (host side). */
  privateDir: string;
  /** The wrapper's private directory: covered inside the jail. */
  wrapperDir: string;
  /** The run's scratch directory (a root): also the jail's /tmp. */
  scratch: string;
  /** Stage directory (preload, channel), inside wrapperDir: visible read-only inside. */
  stageDir: string;
  /** The observer log: hidden from the command when it would be visible. */
  logPath: string;
  /** The command's working directory. */
  cwd: string;
  /** A fresh network namespace (always under deny). */
  ownNetwork: boolean;
  /** File descriptor (in bwrap) carrying the seccomp program. */
  seccompFd: number;
  /**
   * `env`, run first inside the jail to drop PWD (bubblewrap always sets it): the command's
   * environment holds only what the wrapper gives it. The process observer does not record it.
   */
  launcher: string;
  /**
   * Programs the run starts (the command, the Node binary for the hooks): when one lives under
   * a private directory (a toolchain in HOME), its install prefix stays visible, read-only.
   */
  executables: string[];
  /** Protected paths inside the roots and hidden credentials (protected.ts): bound after the roots. */
  protectedMounts: string[];
}

export interface Jail {
  argv: string[];
  view: PathView;
  /** Unix sockets of the host covered inside the jail. */
  hiddenSockets: string[];
  /** The private directories: jail path -> host path (recordAsHost: the jail's /tmp and HOME, which live in the scratch). */
  privateMounts: { jail: string; host: string; recordAsHost?: boolean }[];
  /** Install prefixes under a private directory kept visible, read-only. */
  visiblePrefixes: string[];
  /** Paths covered with /dev/null inside the jail (the log, host sockets): an open of one is an attempt on the path. */
  masked: ReadonlySet<string>;
}

/** Jail paths <-> host paths, for resolving what the command named. */
export class PathView {
  private readonly mounts: { jail: string; host: string; recordAsHost?: boolean }[];

  constructor(mounts: { jail: string; host: string; recordAsHost?: boolean }[]) {
    // Most specific first.
    this.mounts = [...mounts].sort((a, b) => b.jail.length - a.jail.length);
  }

  /**
   * The path to record for a jail path: the jail's own, except under a directory that is the
   * host's in disguise (the jail's /tmp is the run's scratch), which is recorded as the host path.
   */
  recorded(jailPath: string): string {
    for (const m of this.mounts) {
      if (PathView.under(jailPath, m.jail)) return m.recordAsHost === true ? m.host + jailPath.slice(m.jail.length) : jailPath;
    }
    return jailPath;
  }

  private static under(path: string, prefix: string): boolean {
    return path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
  }

  toHost(jailPath: string): string {
    // The jail's /dev is its own (bubblewrap's): nothing of the host's is behind it.
    if (PathView.under(jailPath, "/dev")) return `/nonexistent/envelope-gate-jail${jailPath}`;
    for (const m of this.mounts) {
      if (PathView.under(jailPath, m.jail)) return m.host + jailPath.slice(m.jail.length);
    }
    return jailPath;
  }

  toJail(hostPath: string): string {
    for (const m of [...this.mounts].sort((a, b) => b.host.length - a.host.length)) {
      if (PathView.under(hostPath, m.host)) return m.jail + hostPath.slice(m.host.length);
    }
    return hostPath;
  }
}

/** Listening unix sockets of the host (from the wrapper's network namespace), by path. */
export function hostUnixSockets(): string[] {
  let table: string;
  try {
    table = readFileSync("/proc/net/unix", "utf8");
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of table.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 = listening.
    const path = fields[7];
    if (path === undefined || !path.startsWith("/") || fields.length !== 8) continue;
    if ((parseInt(fields[3] ?? "0", 16) & 0x10000) === 0) continue;
    try {
      // Bound over at its real path: bubblewrap does not follow a symlink such as /var/run.
      const real = realpathSync(path);
      if (lstatSync(real).isSocket()) out.add(real);
    } catch {
      continue;
    }
  }
  return [...out].sort();
}

function homes(): string[] {
  const out = new Set<string>();
  const fromEnv = homedir();
  if (fromEnv.startsWith("/") && fromEnv !== "/") out.add(fromEnv);
  try {
    const fromPasswd = userInfo().homedir;
    if (fromPasswd.startsWith("/") && fromPasswd !== "/") out.add(fromPasswd);
  } catch {
    // no passwd entry: only HOME
  }
  return [...out];
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Namespaces, no capabilities, no further user namespaces, the filesystem read-only, its own /dev and /proc. */
function isolation(ownNetwork: boolean): string[] {
  return [
    "--unshare-user",
    "--disable-userns",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    ...(ownNetwork ? ["--unshare-net"] : []),
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    // /proc/sys is host-wide (core_pattern runs a program as host root), and the kernel checks
    // only the uid there, not capabilities: the jail's /proc is read-only.
    "--remount-ro",
    "/proc",
  ];
}

/**
 * The host directory behind the jail's HOME, a real directory. An earlier run with the same
 * scratch (the patch before a property command) could leave a symlink there: bubblewrap would
 * bind whatever it points at (`/`, the runner's real home) read-write as HOME, and every write
 * through it would be recorded under the scratch. Anything but a directory is removed (a symlink
 * itself, never its target) and a fresh directory made.
 */
function privateHomeDir(host: string): void {
  let isDirectory = false;
  try {
    const st = lstatSync(host);
    isDirectory = st.isDirectory();
    if (!isDirectory) rmSync(host, { force: true });
  } catch (err) {
    if ((err as { code?: string }).code !== "ENOENT") throw err;
  }
  if (!isDirectory) mkdirSync(host, { mode: 0o700 });
  if (!lstatSync(host).isDirectory() || realpathSync(host) !== host) {
    throw new GateError("JAIL_UNAVAILABLE", `the jail's private HOME ${host} is not a plain directory of the scratch`, {
      hint: "Remove it, or give the run a fresh scratch directory.",
    });
  }
}

export function planJail(bwrap: string, plan: JailPlan): Jail {
  const args: string[] = [bwrap, ...isolation(plan.ownNetwork), "--die-with-parent", "--new-session"];
  const privateMounts: { jail: string; host: string; recordAsHost?: boolean }[] = [];
  const privateTargets = ["/tmp", ...homes()];
  for (const [i, target] of privateTargets.entries()) {
    if (isInsideAnyRoot(target, plan.writableRoots) || !exists(target)) continue;
    // The jail's /tmp is the run's scratch directory: temporary files land inside ${SCRATCH}.
    if (i === 0) {
      args.push("--bind", plan.scratch, target);
      privateMounts.push({ jail: target, host: plan.scratch, recordAsHost: true });
      continue;
    }
    // HOME is the run's too, inside the scratch: caches and logs a tool keeps there are the run's own.
    const host = join(plan.scratch, i === 1 ? ".home" : `.home${i}`);
    privateHomeDir(host);
    args.push("--bind", host, target);
    privateMounts.push({ jail: target, host, recordAsHost: true });
  }
  const prefixes = new Set<string>();
  for (const exe of plan.executables) {
    const mount = privateMounts.find((m) => isInsideAnyRoot(exe, [m.jail]));
    if (mount === undefined || isInsideAnyRoot(exe, plan.writableRoots)) continue;
    // The toolchain's own top directory (~/.nvm, ~/.pyenv): shims and libraries live beside the binary.
    const top = exe.slice(mount.jail.length + 1).split("/")[0] as string;
    prefixes.add(join(mount.jail, top));
  }
  for (const prefix of [...prefixes].sort((a, b) => a.length - b.length)) args.push("--ro-bind", prefix, prefix);
  // Parents before children, so a root inside another (or inside a private dir) stays visible.
  const roots = [...plan.writableRoots].filter(exists).sort((a, b) => a.length - b.length);
  for (const root of roots) args.push("--bind", root, root);
  // Protected paths (protected.ts): .git, .github, the Action's files read-only inside the roots; credentials hidden.
  args.push(...plan.protectedMounts);
  // The wrapper's own directory (strace's output, the seccomp program, the private dirs' hosts)
  // is covered even where a root includes it; only the stage directory shows, read-only.
  args.push("--tmpfs", plan.wrapperDir, "--ro-bind", plan.stageDir, plan.stageDir);
  const masked = new Set<string>();
  if (isInsideAnyRoot(plan.logPath, plan.writableRoots) && exists(plan.logPath)) masked.add(plan.logPath);
  // Sockets in a root are the command's business; under a private directory they are out of sight already.
  const hiddenSockets = plan.ownNetwork
    ? hostUnixSockets().filter((s) => !isInsideAnyRoot(s, [...plan.writableRoots, ...privateMounts.map((m) => m.jail)]))
    : [];
  for (const socket of hiddenSockets) masked.add(socket);
  for (const path of masked) args.push("--ro-bind", "/dev/null", path);
  args.push("--seccomp", String(plan.seccompFd), "--chdir", plan.cwd, "--", plan.launcher, "-u", "PWD", "--");
  // Bound at their own paths: a path under one of them is the host's, even inside a private dir.
  const identity = [...roots, ...prefixes, plan.stageDir].map((p) => ({ jail: p, host: p }));
  return {
    argv: args,
    view: new PathView([...privateMounts, ...identity]),
    hiddenSockets,
    privateMounts,
    visiblePrefixes: [...prefixes],
    masked,
  };
}

/**
 * Starts bwrap once with the same isolation flags on `true`: a machine that cannot build the
 * jail (no bubblewrap, user namespaces restricted) is refused here with the reason, before any
 * observer runs.
 */
export function probeJail(bwrap: string | null, ownNetwork: boolean): void {
  if (bwrap === null) {
    throw new GateError("JAIL_UNAVAILABLE", "the run jail cannot be built: bubblewrap (bwrap) was not found", {
      hint: "Install it (apt-get install -y bubblewrap). The command never runs outside the jail.",
    });
  }
  const probe = spawnSync(bwrap, [...isolation(ownNetwork), "--", "/bin/sh", "-c", ":"], {
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 30_000,
  });
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.error?.message || `exit ${String(probe.status ?? probe.signal)}`).trim().split("\n")[0];
    throw new GateError("JAIL_UNAVAILABLE", `the run jail cannot be built: ${bwrap} failed (${why})`, {
      hint:
        "bubblewrap needs user namespaces. On Ubuntu 24.04 (GitHub-hosted runners) allow them for the job: " +
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (docs/observer.md, The jail).",
    });
  }
}
