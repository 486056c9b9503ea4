/**
 * A path a traced process named, made absolute and resolved as that process sees its filesystem
 * (the jail's view, the jail's /proc), through ProcessFacts.
 */
import { resolve } from "node:path";
import { foldPath } from "../core/paths.js";
import type { PathView } from "./jail.js";
import type { ProcessFacts } from "./process-facts.js";
import type { ProcessTree } from "./process-tree.js";

const MAX_SYMLINK_HOPS = 40;

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

  absolute(tgid: number, dirfd: string | null, p: string): string {
    if (p.startsWith("/")) return p;
    const base = dirfd ?? this.tree.cwd(tgid);
    return resolve(base, p);
  }

  /** Resolves symlinks in the directory part now; the final component is the one acted on. */
  noFollow(tgid: number, abs: string): string {
    const folded = foldPath(abs) ?? abs;
    const cut = folded.lastIndexOf("/");
    if (cut <= 0) return folded;
    const dir = this.realpath(tgid, folded.slice(0, cut));
    return (dir === "/" ? "" : dir) + folded.slice(cut);
  }

  follow(tgid: number, abs: string): string {
    return this.realpath(tgid, foldPath(abs) ?? abs);
  }

  /**
   * Symlink resolution as the traced process sees its filesystem: each component read through
   * the jail's view (private directories, the jail's /proc), a link's text taken as a path in the
   * jail. A missing component ends the walk: the rest is kept as named.
   */
  private realpath(tgid: number, jailPath: string): string {
    // The process's own working directory as the kernel reported it on this very call: exact,
    // and still known after the process is gone. The eBPF recorder prints no chdir: the
    // directory it inherited (or last showed on an *at call) can be stale, the kernel's is not.
    const own = /^\/proc\/(?:self|thread-self)\/cwd(\/.*)?$/.exec(jailPath);
    if (own) jailPath = ((this.ebpf ? this.facts.cwd(tgid) : null) ?? this.tree.cwd(tgid)) + (own[1] ?? "");
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
      const link = this.facts.link(this.hostPath(tgid, next));
      if (link === undefined) return [next, ...parts].join("/");
      if (link === null || hops++ > MAX_SYMLINK_HOPS) {
        resolved = next;
        continue;
      }
      const text = link.replace(/ \(deleted\)$/, "");
      if (text.startsWith("/")) resolved = "";
      parts.unshift(...text.split("/").filter((s) => s !== ""));
    }
    return resolved === "" ? "/" : resolved;
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
