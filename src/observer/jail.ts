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
 * the host's network namespace and are out of reach already). What names the machine (its id,
 * hostname, boot id, DMI ids, MAC addresses) reads the same on every machine (machine-identity.ts).
 *
 * Paths the command sees are the host's own except under the private directories, so the
 * observer records what the command asked for, and PathView turns such a path into the host
 * path behind it when a symlink must be resolved.
 */
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { exists, homes } from "./host-paths.js";
import { join } from "node:path";
import { errnoOf, Refusal } from "../core/errors.js";
import { isInsideAnyRoot } from "../core/paths.js";
import { runnerLayout } from "./runner-layout.js";
import type { SocketPlaces } from "./socket-places.js";
import { JAIL_HOSTNAME, planMachineIdentity, type MachineIdentityMeta } from "./machine-identity.js";

export const BWRAP_ENV = "ENVELOPE_GATE_BWRAP";

/** Directories of the jail's own /dev given to the run as private space, like its /tmp. */
export const JAIL_DEV_PRIVATE = ["/dev/shm", "/dev/mqueue"] as const;

interface JailPlan {
  /** Roots the command may write, folded, host paths (the same inside). */
  writableRoots: string[];
  /**
   * The run's own directory in the scratch (`<scratch>/.envelope-gate-<run id>`, made fresh by
   * the wrapper): the host side of the jail's HOME and /tmp.
   */
  runDir: string;
  /**
   * The run's scratch (host path): shown at its own path even under a private /tmp or HOME,
   * read-only unless an allowed root covers it, as it is anywhere else.
   */
  scratch?: string | undefined;
  /** The wrapper's environment: the runner's layout is read from it (runner-layout.ts). */
  runnerEnv: Readonly<Record<string, string | undefined>>;
  /** The wrapper's Node binary as started (process.execPath). */
  execPath: string;
  /** The wrapper's private directory: covered inside the jail. */
  wrapperDir: string;
  /** Stage directory (preload, channel), inside wrapperDir: visible read-only inside. */
  stageDir: string;
  /** The observer log: hidden from the command when it would be visible. */
  logPath: string;
  /** The command's working directory. */
  cwd: string;
  /** File descriptor (in bwrap) carrying the seccomp program. */
  seccompFd: number;
  /**
   * `env`, run first inside the jail to drop PWD (bubblewrap always sets it): the command's
   * environment holds only what the wrapper gives it. The process observer does not record it.
   */
  launcher: string;
  /**
   * Programs the run starts (the command, the Node binary for the hooks): when one lives under
   * a private or hidden directory (a toolchain in HOME, the runner's own Node), its install
   * directory stays visible, read-only.
   */
  executables: string[];
  /** Protected paths inside the roots and hidden credentials (protected.ts): bound after the roots. */
  protectedMounts: string[];
  /** The HOME the command is given (the caller's, when the envelope allows the key). */
  commandHome?: string | undefined;
  /** Where another process could make a unix socket after the start (socket-places.ts): hidden. */
  socketPlaces: SocketPlaces;
  /**
   * The host's sockets a probe jail of this run has reached (startJailProbe, and each plan's own
   * probe, add to it): covered without a probe of their own. Any other socket is probed.
   */
  reachableSockets?: Set<string> | undefined;
  /** Bubblewrap's arguments that make the host's device nodes read-only (devices.ts). */
  devices: string[];
  /** What the stage runs before the tracer (devices.ts: the holder's mount namespace, for root; jail-network.ts: its network namespace). */
  prefix: string[];
  /**
   * The run's network namespace (jail-network.ts), joined instead of a new one: the files shown at
   * /etc/resolv.conf and /etc/hosts, and the unix socket services bound at their paths.
   */
  network?: { resolvConf: string; hostsLines: string[]; unixServices: { jail: string; host: string }[] } | undefined;
}

export interface Jail {
  /** Run before the tracer and bubblewrap (one exec each, no child process). */
  prefix: string[];
  argv: string[];
  view: PathView;
  /** Unix sockets of the host covered inside the jail. */
  hiddenSockets: string[];
  /** The private directories: jail path -> host path (recordAsHost: the jail's /tmp and HOME, which live in the scratch). */
  privateMounts: { jail: string; host: string; recordAsHost?: boolean }[];
  /** Install directories under a private or hidden directory kept visible, read-only. */
  visiblePrefixes: string[];
  /** The runner's directories covered with an empty read-only directory (runner-layout.ts). */
  hidden: string[];
  /** The host directories where a later unix socket could appear, covered the same way (socket-places.ts). */
  socketDirsHidden: string[];
  /** The runner's files covered with /dev/null (file-command files outside a directory that could be hidden). */
  maskedFiles: string[];
  /** Paths covered with /dev/null inside the jail (the log, host sockets, file-command files): an open of one is an attempt on the path. */
  masked: ReadonlySet<string>;
  /** What of the machine's identity the jail hides, and what this host does not have (machine-identity.ts). */
  machineIdentity: MachineIdentityMeta;
  /**
   * The command's HOME when the caller's is missing (`HOME=/nonexistent`, nobody's passwd entry):
   * a fresh directory of the run, `<run dir>/home`, bound read-write at its own path.
   */
  homeReplacement: string | null;
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
    const inDev = PathView.under(jailPath, "/dev");
    for (const m of this.mounts) {
      // The jail's /dev is its own (bubblewrap's): only its private directories (/dev/shm) have a host side.
      if (PathView.under(jailPath, m.jail) && (!inDev || PathView.under(m.jail, "/dev"))) return m.host + jailPath.slice(m.jail.length);
    }
    if (inDev) return `/nonexistent/envelope-gate-jail${jailPath}`;
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
function hostUnixSockets(): string[] {
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

/**
 * The sockets the jail could reach: those the jail's own user (the wrapper's, in a user namespace
 * of its own, with no capabilities) finds when it looks, in a probe jail with the same isolation.
 * The wrapper lists the host's sockets with its own rights (as root: every path), but a socket in
 * a directory the jail's user cannot search (a 0700 directory of another user: a concurrent run's
 * `egress.sock` under its private directory) is out of the jail's reach, and bubblewrap cannot
 * cover it either: it makes the mount point with the same user, and stops with "Permission
 * denied" before the command starts. Bubblewrap can search wherever the command can (same user,
 * more rights while it builds the jail), so every socket the command could reach is still covered.
 * A probe that does not answer keeps every socket: bubblewrap then tries to cover them all.
 */
function reachableInJail(bwrap: string, sockets: string[], known: Set<string> | undefined): string[] {
  // A socket a probe jail of this run reached already is covered without asking again (covering
  // more is never less safe; one that went out of reach since stops bubblewrap, as it would have
  // between a probe and the jail before); every other one is asked about now.
  const ask = known === undefined ? sockets : sockets.filter((s) => !known.has(s));
  if (ask.length === 0) return sockets;
  const probe = spawnSync(bwrap, [...isolation(), "--", "/bin/sh", "-c", SOCKET_PROBE, "sh", ...ask], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (probe.status !== 0 || typeof probe.stdout !== "string") return sockets;
  const seen = probeAnswer(probe.stdout);
  for (const s of seen) known?.add(s);
  return sockets.filter((s) => seen.has(s) || known?.has(s) === true);
}

/** The probe jail's script: prints each argument that is a socket it can reach, NUL-terminated. */
const SOCKET_PROBE = 'for p; do if [ -S "$p" ]; then printf "%s\\0" "$p"; fi; done; exit 0';

function probeAnswer(stdout: string): Set<string> {
  return new Set(stdout.split("\0").filter((p) => p !== ""));
}

/** Namespaces (the network one too: under allowlist the egress proxy is the only way out), no capabilities, no further user namespaces, the filesystem read-only, its own /dev and /proc. */
function isolation(): string[] {
  return [
    "--unshare-user",
    "--disable-userns",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    // The same hostname on every machine (machine-identity.ts): uname -n, hostname, /proc/sys/kernel/hostname.
    "--hostname",
    JAIL_HOSTNAME,
    "--unshare-cgroup-try",
    "--unshare-net",
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
 * The host directory behind one of the jail's private directories (its HOME, its /tmp), a real
 * directory inside the run's own directory in the scratch. Anything but a directory is removed
 * (a symlink itself, never its target) and a fresh directory made: bubblewrap would bind whatever
 * a link points at read-write, and every write through it would be recorded under the scratch.
 */
function privateRunDir(host: string): void {
  let isDirectory = false;
  try {
    const st = lstatSync(host);
    isDirectory = st.isDirectory();
    if (!isDirectory) rmSync(host, { force: true });
  } catch (err) {
    if (errnoOf(err) !== "ENOENT") throw err;
  }
  if (!isDirectory) mkdirSync(host, { mode: 0o700 });
  if (!lstatSync(host).isDirectory() || realpathSync(host) !== host) {
    throw new Refusal("JAIL_UNAVAILABLE", `the jail's private directory ${host} is not a plain directory of the scratch`, {
      hint: "Remove it, or give the run a fresh scratch directory.",
    });
  }
}

/** A directory at `path` itself (a link to one is not). */
export function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

type MountKind = "hide" | "private" | "visible" | "root";
interface MountOp {
  kind: MountKind;
  target: string;
  /** Host directory bound there (private directories). */
  host?: string;
}

const KIND_ORDER: Record<MountKind, number> = { hide: 0, private: 1, visible: 2, root: 3 };

function depthOf(path: string): number {
  return path.split("/").filter((s) => s !== "").length;
}

/** The mount that decides what the jail shows at a path: the deepest one containing it. */
function coverOf(path: string, ops: readonly MountOp[]): MountOp | null {
  let best: MountOp | null = null;
  for (const op of ops) {
    if (!isInsideAnyRoot(path, [op.target])) continue;
    if (best === null || depthOf(op.target) > depthOf(best.target)) best = op;
  }
  return best;
}

export function planJail(bwrap: string, plan: JailPlan): Jail {
  // A run's network namespace is the holder's (jail-network.ts), already the jail's own: joined, not made.
  const namespaces = plan.network !== undefined ? isolation().filter((a) => a !== "--unshare-net") : isolation();
  const args: string[] = [bwrap, ...namespaces, "--die-with-parent", "--new-session"];
  const privateMounts: { jail: string; host: string; recordAsHost?: boolean }[] = [];
  const ops: MountOp[] = [];
  // The run's own /tmp and HOME, fresh for each run, in its directory in the scratch: files a run
  // leaves there (a ~/.npmrc, a /tmp/sh it names) never reach the next run with the same scratch.
  const privateTargets: string[] = [];
  let homeIndex = 0;
  for (const target of ["/tmp", ...homes()]) {
    if (isInsideAnyRoot(target, plan.writableRoots) || !exists(target) || privateTargets.includes(target)) continue;
    const name = target === "/tmp" ? "tmp" : ++homeIndex === 1 ? "home" : `home${homeIndex}`;
    const host = join(plan.runDir, name);
    privateRunDir(host);
    privateTargets.push(target);
    ops.push({ kind: "private", target, host });
    privateMounts.push({ jail: target, host, recordAsHost: true });
  }
  // A HOME that is not there (nor in a root) would make every cache write an attempt on the
  // read-only host: the command gets a private one instead, at its host path in the run's directory.
  let homeReplacement: string | null = null;
  const home = plan.commandHome;
  if (
    home !== undefined &&
    home.startsWith("/") &&
    !privateTargets.includes(home) &&
    !isInsideAnyRoot(home, plan.writableRoots) &&
    !isDirectory(home)
  ) {
    homeReplacement = join(plan.runDir, homeIndex === 0 ? "home" : `home${homeIndex + 1}`);
    privateRunDir(homeReplacement);
    ops.push({ kind: "private", target: homeReplacement, host: homeReplacement });
    privateMounts.push({ jail: homeReplacement, host: homeReplacement });
  }
  const layout = runnerLayout({
    env: plan.runnerEnv,
    execPath: plan.execPath,
    privateTargets,
    executables: plan.executables,
    roots: plan.writableRoots,
    covered: plan.socketPlaces.hidden,
  });
  const hiddenPresent = layout.hidden.filter(isDirectory);
  for (const dir of hiddenPresent) ops.push({ kind: "hide", target: dir });
  // Where a host socket could appear later (/run, /var/tmp, world-writable directories, other
  // users' homes): empty and read-only, with what the run needs bound again at its own path.
  const socketDirs = plan.socketPlaces.hidden.filter((d) => isDirectory(d) && !hiddenPresent.includes(d));
  for (const dir of socketDirs) ops.push({ kind: "hide", target: dir });
  const visible = [...layout.visible, ...plan.socketPlaces.linkTargets].filter(exists);
  const scratch = plan.scratch;
  if (
    scratch !== undefined &&
    isInsideAnyRoot(scratch, [...privateTargets, ...socketDirs]) &&
    !isInsideAnyRoot(scratch, plan.writableRoots) &&
    !visible.includes(scratch) &&
    isDirectory(scratch)
  )
    visible.push(scratch);
  for (const dir of visible) ops.push({ kind: "visible", target: dir });
  const roots = [...plan.writableRoots].filter(exists);
  for (const root of roots) ops.push({ kind: "root", target: root });
  // A directory covered already (inside another hidden one, or in a private HOME or /tmp, with
  // no root between) needs no mount of its own.
  const effective = ops.filter((op) => {
    if (op.kind !== "hide") return true;
    const parent = coverOf(
      op.target,
      ops.filter((o) => o !== op && o.target !== op.target),
    );
    return parent === null || (parent.kind !== "hide" && parent.kind !== "private");
  });
  // Parents before children: bubblewrap applies mounts in order.
  effective.sort(
    (a, b) => depthOf(a.target) - depthOf(b.target) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.target.localeCompare(b.target),
  );
  for (const op of effective) {
    if (op.kind === "hide") args.push("--tmpfs", op.target);
    else if (op.kind === "private") args.push("--bind", op.host as string, op.target);
    else if (op.kind === "visible") args.push("--ro-bind", op.target, op.target);
    else args.push("--bind", op.target, op.target);
  }
  const shown = (path: string): boolean => {
    const cover = coverOf(path, effective);
    return cover === null || cover.kind === "root" || cover.kind === "visible";
  };
  // The jail's /dev/shm and /dev/mqueue (POSIX shared memory and semaphores, message queues) are
  // the run's own too, like /tmp: bubblewrap's /dev is the jail's, so these are always made, in the
  // run's directory, bound after /dev and recorded there (inside ${SCRATCH}).
  for (const target of JAIL_DEV_PRIVATE) {
    const host = join(plan.runDir, target.slice("/dev/".length));
    privateRunDir(host);
    args.push("--bind", host, target);
    privateMounts.push({ jail: target, host, recordAsHost: true });
  }
  // A root (or a directory shown read-only) under /dev/shm or /dev/mqueue, a workspace on that
  // tmpfs, is bound again over the run's own directory, at its own path.
  for (const op of effective) {
    if ((op.kind === "root" || op.kind === "visible") && isInsideAnyRoot(op.target, [...JAIL_DEV_PRIVATE]))
      args.push(op.kind === "root" ? "--bind" : "--ro-bind", op.target, op.target);
  }
  if (!shown(plan.cwd)) {
    throw new Refusal(
      "JAIL_CWD_HIDDEN",
      `the working directory ${plan.cwd} is hidden in the jail (under ${coverOf(plan.cwd, effective)?.target ?? "?"})`,
      {
        hint: "Run envelope-gate from the workspace or another allowed root (cd there, or pass --workspace for the directory you are in).",
      },
    );
  }
  // Protected paths (protected.ts): .git, .github, the Action's files read-only inside the roots; credentials hidden.
  args.push(...plan.protectedMounts);
  // The machine's identity (machine-id, boot id, DMI, interfaces, host keys): fixed or covered, after every other mount.
  const identity = planMachineIdentity(join(plan.wrapperDir, "identity"), plan.network?.hostsLines);
  args.push(...identity.args);
  // Before the hidden places are made read-only: a file they hide (systemd-resolved's stub) needs its mount point made.
  if (plan.network !== undefined) args.push(...networkMounts(plan.network));
  // The wrapper's own directory (strace's output, the seccomp program, the private dirs' hosts)
  // is covered even where a root includes it; only the stage directory shows, read-only.
  args.push("--tmpfs", plan.wrapperDir, "--ro-bind", plan.stageDir, plan.stageDir);
  // Read-only once every mount inside them has its mount point (roots, install directories, the
  // stage directory when the wrapper's temporary directory is in RUNNER_TEMP).
  for (const op of effective) if (op.kind === "hide") args.push("--remount-ro", op.target);
  const masked = new Set<string>();
  // Covered wherever the jail would show it, in a root or not: its meta names the machine (runner, paths).
  if (shown(plan.logPath) && exists(plan.logPath)) masked.add(plan.logPath);
  for (const file of layout.masked) if (shown(file) && isFile(file)) masked.add(file);
  // Sockets in a root are the command's business; under a private or hidden directory they are out of sight already.
  const hiddenSockets = reachableInJail(
    bwrap,
    hostUnixSockets().filter((s) => !isInsideAnyRoot(s, [...plan.writableRoots, ...privateTargets]) && shown(s)),
    plan.reachableSockets,
  );
  for (const socket of hiddenSockets) masked.add(socket);
  const serviceSockets = new Set(plan.network?.unixServices.map((u) => u.jail) ?? []);
  for (const path of masked) if (!serviceSockets.has(path)) args.push("--ro-bind", "/dev/null", path);
  // The jail's /dev, last, once every mount point in it is made: nothing new can be made or
  // linked there, and the host's device nodes bubblewrap binds are read-only (devices, below).
  args.push(...plan.devices, "--remount-ro", "/dev");
  args.push("--seccomp", String(plan.seccompFd), "--chdir", plan.cwd, "--", plan.launcher, "-u", "PWD", "--");
  // Bound at their own paths: a path under one of them is the host's, even inside a private dir.
  const own = [...roots, ...visible, plan.stageDir].map((p) => ({ jail: p, host: p }));
  // Nothing of the host's is behind a hidden directory: its symlinks are not the jail's.
  const covers = [...hiddenPresent, ...socketDirs].map((d) => ({ jail: d, host: `/nonexistent/envelope-gate-hidden${d}` }));
  return {
    prefix: plan.prefix,
    argv: args,
    view: new PathView([...privateMounts, ...covers, ...own]),
    hiddenSockets,
    privateMounts,
    visiblePrefixes: visible,
    hidden: hiddenPresent,
    socketDirsHidden: effective.filter((op) => op.kind === "hide" && socketDirs.includes(op.target)).map((op) => op.target),
    maskedFiles: [...masked].filter((m) => layout.masked.includes(m)),
    masked,
    machineIdentity: identity.meta,
    homeReplacement,
  };
}

/**
 * The jail's resolv.conf (jail-network.ts) over the host's, at the file it resolves to (bubblewrap
 * does not follow a symlink at a destination: systemd-resolved's stub file), and each unix socket
 * service's forward at the service's path. (The services' names are in the jail's /etc/hosts,
 * machine-identity.ts.)
 */
function networkMounts(network: NonNullable<JailPlan["network"]>): string[] {
  const args: string[] = [];
  try {
    args.push("--ro-bind", network.resolvConf, realpathSync("/etc/resolv.conf"));
  } catch (err) {
    // A dangling link or no file: the resolver is where resolvers look by default (127.0.0.1:53).
    if (errnoOf(err) !== "ENOENT") throw err;
  }
  for (const socket of network.unixServices) args.push("--ro-bind", socket.host, socket.jail);
  return args;
}

/**
 * Starts bwrap once with the same isolation flags on `/bin/sh`: a machine that cannot build the
 * jail (no bubblewrap, user namespaces restricted) is refused with the reason, before any
 * observer runs. Started early and awaited where the run needs the answer (run.ts, preflight),
 * so the probe's bubblewrap runs while the envelope is verified; its answer is never assumed:
 * the refusal (or null) it resolves to is what the caller acts on.
 */
export function startJailProbe(bwrap: string | null, reachableSockets?: Set<string>): Promise<Refusal | null> {
  if (bwrap === null) {
    return Promise.resolve(
      new Refusal("JAIL_UNAVAILABLE", "the run jail cannot be built: bubblewrap (bwrap) was not found", {
        hint: "Install it (apt-get install -y bubblewrap). The command never runs outside the jail.",
      }),
    );
  }
  return new Promise((resolve) => {
    let stderr = "";
    let stdout = "";
    let spawnError: Error | undefined;
    // The same jail asks about the host's listening sockets (reachableInJail): what it reaches is
    // covered in every stage's jail without another bubblewrap.
    const sockets = reachableSockets !== undefined ? hostUnixSockets() : [];
    const child = spawn(bwrap, [...isolation(), "--", "/bin/sh", "-c", sockets.length > 0 ? SOCKET_PROBE : ":", "sh", ...sockets], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      if (stdout.length < 16 * 1024 * 1024) stdout += chunk;
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      if (code === 0 && spawnError === undefined) {
        const asked = new Set(sockets);
        for (const p of probeAnswer(stdout)) if (asked.has(p)) reachableSockets?.add(p);
        return resolve(null);
      }
      const why = (stderr || spawnError?.message || `exit ${String(code ?? signal)}`).trim().split("\n")[0];
      resolve(
        new Refusal("JAIL_UNAVAILABLE", `the run jail cannot be built: ${bwrap} failed (${why})`, {
          hint:
            "bubblewrap needs user namespaces. On Ubuntu 24.04 grant them to bwrap alone with an AppArmor profile " +
            "(the Action writes one itself; by hand: docs/action.md, Prerequisites), never by turning the restriction off for every program.",
        }),
      );
    };
    child.on("error", (err) => {
      spawnError = err;
      // Not started at all (no 'close' follows then): the answer is now.
      if (child.pid === undefined) settle(null, null);
    });
    child.on("close", settle);
  });
}
