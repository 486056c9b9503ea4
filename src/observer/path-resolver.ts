/**
 * A path a traced process named, made absolute and resolved as that process sees its filesystem
 * (the jail's view, the jail's /proc), through ProcessFacts.
 *
 * Resolution goes component by component as the kernel's path walk does: a symlink is followed
 * where it stands, before any `..` after it (`lnk/../x` is the parent of lnk's target, not the
 * directory holding lnk). Names /proc makes up per process are not read from the live /proc
 * after the call: a process's cwd is the one the lines reported, its root the jail's, and an fd
 * (`/proc/<pid>/fd/N`, `/dev/fd/N`) cannot be known, so a write through one says so.
 */
import { foldPath } from "../core/paths.js";
import type { PathView } from "./jail.js";
import type { ProcessFacts } from "./process-facts.js";
import type { ProcessTree } from "./process-tree.js";
import { execHandler, type ShebangLine } from "./shebang.js";

const MAX_SYMLINK_HOPS = 40;

/** A resolved path, and why the file it stands for cannot be known (null: it can). */
export interface Resolved {
  path: string;
  unknown: string | null;
}

/** `/proc/<who>` or `/proc/<who>/task/<tid>`: a process's directory in /proc. */
const PROC_DIR = /^\/proc\/(self|thread-self|\d+)(?:\/task\/\d+)?$/;
/** `/proc/<who>/fd` (or a task's). */
const PROC_FD_DIR = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/fd$/;
/** `/proc/<who>/map_files` (or a task's): links to mapped files, by address range. */
const PROC_MAP_FILES_DIR = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/map_files$/;

/** The symlinks of /dev into /proc (bubblewrap's /dev has them too; the wrapper cannot read the jail's). */
const DEV_FD_LINKS: ReadonlyMap<string, string> = new Map([
  ["/dev/fd", "/proc/self/fd"],
  ["/dev/stdin", "/proc/self/fd/0"],
  ["/dev/stdout", "/proc/self/fd/1"],
  ["/dev/stderr", "/proc/self/fd/2"],
]);

export class PathResolver {
  private readonly facts: ProcessFacts;
  private readonly view: PathView;
  private readonly tree: ProcessTree;
  private readonly jailed: boolean;
  private readonly ebpf: boolean;

  constructor(facts: ProcessFacts, view: PathView, tree: ProcessTree, options: { jailed: boolean; ebpf: boolean }) {
    this.facts = facts;
    this.view = view;
    this.tree = tree;
    this.jailed = options.jailed;
    this.ebpf = options.ebpf;
  }

  /** The name joined to its directory, as text: `..` and symlinks are left to the walk. */
  absolute(tgid: number, dirfd: string | null, p: string): string {
    if (p.startsWith("/")) return p;
    const base = dirfd ?? this.tree.cwd(tgid);
    if (p === "") return base;
    return base.endsWith("/") ? base + p : `${base}/${p}`;
  }

  /** The final component is the one acted on (not followed); every one before it is resolved. */
  noFollow(tgid: number, abs: string): string {
    return this.walk(tgid, abs, false).path;
  }

  follow(tgid: number, abs: string): string {
    return this.walk(tgid, abs, true).path;
  }

  /**
   * The file an exec ran, the name followed: a link /proc makes up for an fd or an executable is
   * read as it is now (the exec's line also gets the kernel's word on the program it runs).
   */
  program(tgid: number, abs: string): string {
    return this.walk(tgid, abs, true, true).path;
  }

  /**
   * How the kernel ran the file at a resolved jail path (shebang.ts, execHandler): its `#!` line as
   * the kernel reads it, "elf", "unknown" (not readable here, or a handler its bytes do not name),
   * or "gone". Read from the file as it is now: see docs/observer.md.
   */
  execHandler(tgid: number, resolved: string): ShebangLine | "elf" | "unknown" | "gone" {
    return execHandler(this.facts.head(this.hostPath(tgid, resolved)));
  }

  /** A mutation's path (the final component followed or not), and whether its file can be known. */
  mutation(tgid: number, abs: string, follow: boolean): Resolved {
    return this.walk(tgid, abs, follow);
  }

  /**
   * Symlink resolution as the traced process sees its filesystem: each component read through
   * the jail's view (private directories, the jail's /proc), a link's text taken as a path in the
   * jail, followed before what comes after it. A missing component ends the walk: the rest is
   * kept as named (folded: the kernel fails the call there).
   */
  private walk(tgid: number, jailPath: string, followLast: boolean, live = false): Resolved {
    const parts = jailPath.split("/").filter((s) => s !== "");
    let resolved = "";
    let hops = 0;
    while (parts.length > 0) {
      const part = parts.shift() as string;
      if (part === ".") continue;
      if (part === "..") {
        resolved = resolved.slice(0, resolved.lastIndexOf("/"));
        continue;
      }
      const next = `${resolved}/${part}`;
      const last = parts.length === 0;
      if (last && !followLast) {
        resolved = next;
        break;
      }
      const magic = this.magicLink(tgid, resolved, part);
      if (magic !== undefined && !(live && "unknown" in magic)) {
        if ("unknown" in magic) {
          // Which file it is was fixed at the call; read now it may be another: nothing after it is looked up.
          const rest = [next, ...parts].join("/");
          return { path: foldPath(rest) ?? rest, unknown: magic.unknown };
        }
        if (hops++ > MAX_SYMLINK_HOPS) {
          resolved = next;
          continue;
        }
        resolved = "";
        parts.unshift(...magic.path.split("/").filter((s) => s !== ""));
        continue;
      }
      // The links every /dev has (bubblewrap's too): into the process's own fds.
      const devLink = DEV_FD_LINKS.get(next);
      if (devLink !== undefined && hops++ <= MAX_SYMLINK_HOPS) {
        resolved = "";
        parts.unshift(...devLink.split("/").filter((s) => s !== ""));
        continue;
      }
      // /proc and a process's directories in it are directories of the jail's /proc, whatever
      // the process they name (gone or not), and /dev is the jail's own: what matters is the name after them.
      if (next === "/proc" || next === "/dev" || PROC_DIR.test(next) || PROC_FD_DIR.test(next) || PROC_MAP_FILES_DIR.test(next)) {
        resolved = next;
        continue;
      }
      const link = this.facts.link(this.hostPath(tgid, next));
      if (link === undefined) {
        const rest = [next, ...parts].join("/");
        return { path: foldPath(rest) ?? rest, unknown: null };
      }
      if (link === null || hops++ > MAX_SYMLINK_HOPS) {
        resolved = next;
        continue;
      }
      const text = link.replace(/ \(deleted\)$/, "");
      if (text.startsWith("/")) resolved = "";
      parts.unshift(...text.split("/").filter((s) => s !== ""));
    }
    return { path: resolved === "" ? "/" : resolved, unknown: null };
  }

  /**
   * The /proc links that are no symlinks on disk but a process's state: `cwd` (the directory the
   * lines last reported for it), `root` (the jail's root), `fd/N`, `exe`, `map_files/…` (which
   * file they were at the call is not in the line: unknown). Undefined for any other name.
   */
  private magicLink(tgid: number, dir: string, part: string): { path: string } | { unknown: string } | undefined {
    if (PROC_FD_DIR.test(dir)) return /^\d+$/.test(part) ? { unknown: "fd-path" } : undefined;
    if (PROC_MAP_FILES_DIR.test(dir)) return { unknown: "proc-link" };
    const proc = PROC_DIR.exec(dir);
    if (proc === null) return undefined;
    if (part === "root") return { path: "/" };
    if (part === "exe") return { unknown: "proc-link" };
    if (part !== "cwd") return undefined;
    // The eBPF recorder walks the caller's own cwd in the kernel at the call (`/proc/self/cwd/…`
    // arrives as a path); one that reaches the reader is another process's, whose cwd the
    // recorder's lines do not follow exactly (its @fork lines say nothing of CLONE_FS).
    if (this.ebpf) return { unknown: "proc-link" };
    const who = proc[1] as string;
    // The caller's own pid is known without reading /proc again: the process may be gone by the
    // time a busy reader gets to the line.
    const ownName = this.jailed && this.tree.jailPid(tgid) === Number(who);
    const owner = who === "self" || who === "thread-self" || ownName ? tgid : this.jailed ? this.tree.outerPid(Number(who)) : Number(who);
    if (owner === null) return { unknown: "proc-link" };
    // The process's working directory as the kernel reported it on its calls: exact, and still
    // known after the process is gone (CLONE_FS modelled by the tree).
    return { path: this.tree.cwd(owner) };
  }

  /** Where a jail path lives for the wrapper: private directories, and /proc names of the jail's processes. */
  private hostPath(tgid: number, jailPath: string): string {
    const proc = /^\/proc\/(self|thread-self|\d+)(\/.*)?$/.exec(jailPath);
    if (proc && this.jailed) {
      const who = proc[1] as string;
      const rest = proc[2] ?? "";
      if (who === "self" || who === "thread-self") return `/proc/${tgid}${rest}`;
      const outer = this.tree.outerPid(Number(who));
      return outer === null ? `/proc/envelope-gate-unknown-${who}${rest}` : `/proc/${outer}${rest}`;
    }
    if (proc && (proc[1] === "self" || proc[1] === "thread-self")) return `/proc/${tgid}${proc[2] ?? ""}`;
    return this.view.toHost(jailPath);
  }

  /** Whether a socket of the host's is at this jail path. */
  isHostSocket(tgid: number, jailPath: string): boolean {
    return this.facts.isSocket(this.hostPath(tgid, jailPath));
  }
}
