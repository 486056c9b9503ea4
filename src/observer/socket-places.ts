/**
 * The host directories where another process can make a unix socket after the jail starts:
 * hidden in the jail (an empty read-only tmpfs each, the roots and what the run needs bound back
 * at their own paths), so a socket made there later is out of reach, not only judged.
 *
 * The jail's snapshot of the host's listening sockets (jail.ts, hostUnixSockets) covers the ones
 * that exist at the start; these are the places a later one would appear:
 *
 * - `/run` (and `/var/run`, `/var/lock` through it), `/var/tmp`: the system's and every user's
 *   runtime and temporary files (Docker's socket, systemd's, a user's `XDG_RUNTIME_DIR`);
 * - every world-writable or sticky directory down to SCAN_DEPTH levels below `/` (`/var/tmp`,
 *   `/run/lock`, `/var/lib/php/sessions`, a `chmod 777` directory anywhere in that depth);
 * - other users' homes: a passwd entry's home, or a directory in `/home`, owned by a user who is
 *   neither root nor the wrapper's user.
 *
 * `/tmp`, `HOME` and `/dev/shm` are the run's own already (private directories of the jail), and
 * `/dev` is bubblewrap's. A place inside an allowed root is the command's own business. What a
 * place holds that the run needs is shown again by the jail: the roots, the scratch, the install
 * directories of the programs it starts, the stage directory, and the targets of `/etc`'s links
 * into a hidden place (`/etc/resolv.conf` is `/run/systemd/resolve/stub-resolv.conf` on Ubuntu).
 *
 * A place below a directory the jail's user cannot search (another user's 0700 directory, seen by a
 * root wrapper's scan) is hidden by that directory instead: bubblewrap sets the jail up as that
 * user in a user namespace where no other user is mapped, so it could not reach the place to
 * cover it, and the command could reach it only if the owner opened the directory later.
 *
 * Not covered (docs/observer.md): a directory writable only by root or the wrapper's own user
 * (root can make a socket anywhere), a world-writable directory deeper than SCAN_DEPTH, a
 * directory writable through its group.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { isInsideAnyRoot } from "../core/paths.js";

/** How deep below `/` the world-writable and sticky directories are looked for (`/a/b/c/d`). */
export const SCAN_DEPTH = 4;

/** Named whatever their mode: where the system and its users keep runtime and temporary files. */
const FIXED = ["/run", "/var/run", "/var/lock", "/var/tmp"];

/** Never scanned or hidden: the jail's own (`/dev`, `/proc`), the kernel's (`/sys`), the run's private `/tmp`. */
const SKIP = ["/proc", "/sys", "/dev", "/tmp"];

function realDirectory(path: string): string | null {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function worldWritableOrSticky(mode: number): boolean {
  return (mode & 0o002) !== 0 || (mode & 0o1000) !== 0;
}

/** World-writable or sticky directories down to SCAN_DEPTH (the first one on each path; no symlink followed). */
function scan(out: Set<string>): void {
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const path = join(dir, e.name);
      if (SKIP.includes(path)) continue;
      let mode: number;
      try {
        mode = lstatSync(path).mode;
      } catch {
        continue;
      }
      if (worldWritableOrSticky(mode)) out.add(path);
      else if (depth < SCAN_DEPTH) walk(path, depth + 1);
    }
  };
  walk("/", 1);
}

/** Homes of users other than root and `uid`: passwd homes and `/home/*` directories they own. */
function otherHomes(uid: number, out: Set<string>): void {
  const candidates = new Set<string>();
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const home = line.split(":")[5];
      if (home !== undefined && home.startsWith("/") && home !== "/") candidates.add(home);
    }
  } catch {
    // no passwd file: only /home
  }
  try {
    for (const e of readdirSync("/home", { withFileTypes: true })) if (e.isDirectory()) candidates.add(join("/home", e.name));
  } catch {
    // no /home
  }
  for (const home of candidates) {
    try {
      const st = lstatSync(home);
      if (st.isDirectory() && st.uid !== 0 && st.uid !== uid) out.add(home);
    } catch {
      continue;
    }
  }
}

/** Who the jail's command is: the wrapper's uid (bubblewrap maps it to itself, and only it). */
export interface JailIds {
  uid: number;
}

/** The wrapper's own ids. */
export function wrapperIds(): JailIds {
  return { uid: process.geteuid?.() ?? 0 };
}

/**
 * Whether the jail's user can pass through a directory. For a wrapper running as root the jail
 * maps only root, so its capabilities reach a file only when both its owner and its group are
 * root; any other directory it passes by its mode bits alone. An unprivileged wrapper scans with
 * the jail's own rights: what it cannot pass it never found anything in.
 */
function searchable(path: string, ids: JailIds): boolean {
  if (ids.uid !== 0) return true;
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return true;
  }
  if (st.uid === 0 && st.gid === 0) return true;
  if (st.uid === 0) return (st.mode & 0o100) !== 0;
  if (st.gid === 0) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/** The outermost directory above `path` the jail's user cannot search, or `path` when there is none. */
function coverFor(path: string, ids: JailIds): string {
  const parts = path.split("/").filter((p) => p !== "");
  let at = "";
  for (const part of parts.slice(0, -1)) {
    at += `/${part}`;
    if (!searchable(at, ids)) return at;
  }
  return path;
}

export interface SocketPlaces {
  /** Directories to hide (real paths, outermost only, none inside a root or a private directory). */
  hidden: string[];
  /** Files and directories inside them that `/etc` links to: shown again, read-only. */
  linkTargets: string[];
}

/**
 * The places to hide for a run whose wrapper runs as `uid`, with these roots and private
 * directories (already the run's own). Read once per run: every stage's jail hides the same.
 */
export function socketPlaces(ids: JailIds, roots: readonly string[], privateTargets: readonly string[]): SocketPlaces {
  const seen = new Set<string>();
  for (const p of FIXED) {
    const real = realDirectory(p);
    if (real !== null) seen.add(real);
  }
  scan(seen);
  otherHomes(ids.uid, seen);
  const found = new Set([...seen].map((p) => coverFor(p, ids)));
  const kept = [...found].filter(
    (p) => p !== "/" && !SKIP.some((s) => isInsideAnyRoot(p, [s])) && !isInsideAnyRoot(p, [...roots, ...privateTargets]),
  );
  const hidden = kept.filter((p) => !kept.some((o) => o !== p && isInsideAnyRoot(p, [o]))).sort();
  const linkTargets: string[] = [];
  let etc: Dirent[] = [];
  try {
    etc = readdirSync("/etc", { withFileTypes: true });
  } catch {
    // no /etc
  }
  for (const e of etc) {
    if (!e.isSymbolicLink()) continue;
    const link = join("/etc", e.name);
    let target: string;
    try {
      readlinkSync(link);
      target = realpathSync(link);
    } catch {
      continue;
    }
    if (isInsideAnyRoot(target, hidden) && !isInsideAnyRoot(target, roots)) linkTargets.push(target);
  }
  return { hidden, linkTargets: [...new Set(linkTargets)].sort() };
}
