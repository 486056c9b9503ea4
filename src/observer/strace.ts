/**
 * The process-level observer: strace's output (run with -f -y -xx) turned into log events.
 * Sees every process of the tree, Node or not, at the system-call boundary, which in-process
 * code cannot unhook.
 */
import { realpathSync } from "node:fs";
import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { foldPath } from "../core/paths.js";
import { isIgnoredDevice } from "./protocol.js";

export const TRACED_SYSCALLS = [
  "execve",
  "execveat",
  "open",
  "openat",
  "openat2",
  "creat",
  "unlink",
  "unlinkat",
  "rmdir",
  "rename",
  "renameat",
  "renameat2",
  "mkdir",
  "mkdirat",
  "mknod",
  "mknodat",
  "link",
  "linkat",
  "symlink",
  "symlinkat",
  "chmod",
  "fchmod",
  "fchmodat",
  "truncate",
  "ftruncate",
  "connect",
  "sendto",
  "sendmsg",
  "sendmmsg",
  "clone",
  "clone3",
  "fork",
  "vfork",
  "chdir",
  "fchdir",
];

/** strace arguments: follow forks, hex strings (unambiguous to parse), fd paths, no signals. */
export function straceArgs(outputPath: string): string[] {
  return [
    "-f",
    "-qq",
    "--seccomp-bpf",
    "-y",
    "-xx",
    "-s",
    "8192",
    "-e",
    "signal=none",
    "-e",
    // `?` ignores a name this architecture lacks (aarch64 has no open/mkdir/...).
    `trace=${TRACED_SYSCALLS.map((s) => `?${s}`).join(",")}`,
    "-o",
    outputPath,
  ];
}

export type ProcessEvent =
  | { kind: "write"; tgid: number; path: string; op: string }
  | { kind: "exec"; tgid: number; ppid: number | null; path: string; argv: string[] }
  | { kind: "host"; tgid: number; host: string; port: number; proto: string };

function decodeHex(text: string): string {
  if (!text.includes("\\x")) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x5c && text[i + 1] === "x") {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Splits `a, b, {c, d}, [e]` at top-level commas. Strings are hex-escaped, so quotes never nest. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== "") out.push(last);
  return out;
}

/** `"..."` -> decoded string; anything else -> null. */
function stringArg(token: string | undefined): string | null {
  if (token === undefined) return null;
  const m = /^"((?:\\x[0-9a-f]{2})*)"/.exec(token);
  return m ? decodeHex(m[1] as string) : null;
}

/** `3</path>` or `AT_FDCWD</path>` -> `/path`. */
function fdDecoration(token: string | undefined): string | null {
  if (token === undefined) return null;
  const m = /^[^<]*<((?:\\x[0-9a-f]{2})*)>$/.exec(token);
  return m ? decodeHex(m[1] as string) : null;
}

function openFlags(token: string | undefined): string | null {
  if (token === undefined) return null;
  const flags = token.startsWith("{") ? (/flags=([A-Z_|0-9x]+)/.exec(token)?.[1] ?? "") : token;
  const set = new Set(flags.split("|"));
  if (set.has("O_CREAT")) return "create";
  if (set.has("O_TRUNC")) return "truncate";
  if (set.has("O_WRONLY") || set.has("O_RDWR") || set.has("O_APPEND")) return "write";
  return null;
}

function mappedV4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

/** Internet socket addresses in a syscall's arguments (connect, sendto, sendmsg). */
function socketAddresses(text: string): { host: string; port: number }[] {
  const out: { host: string; port: number }[] = [];
  const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/g;
  for (const m of text.matchAll(v4)) out.push({ host: decodeHex(m[2] as string), port: Number(m[1]) });
  const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/g;
  for (const m of text.matchAll(v6)) out.push({ host: mappedV4(decodeHex(m[2] as string)), port: Number(m[1]) });
  return out;
}

export interface StraceParserOptions {
  /** Directory the traced command starts in. */
  cwd: string;
  /** Paths that are the wrapper's own plumbing (the channel FIFOs): opening them is not a write. */
  plumbing: ReadonlySet<string>;
  /** Emits one event. */
  emit: (event: ProcessEvent) => void;
}

/** Streaming parser for `strace -f -y -xx` output. */
export class StraceParser {
  private pending = "";
  private readonly unfinished = new Map<number, string>();
  private readonly tgidOf = new Map<number, number>();
  private readonly parentOf = new Map<number, number>();
  private readonly cwdOf = new Map<number, string>();
  private readonly options: StraceParserOptions;
  private rootTgid: number | null = null;

  constructor(options: StraceParserOptions) {
    this.options = options;
  }

  push(text: string): void {
    const data = this.pending === "" ? text : this.pending + text;
    this.pending = "";
    let start = 0;
    for (;;) {
      const nl = data.indexOf("\n", start);
      if (nl === -1) break;
      this.line(data.slice(start, nl));
      start = nl + 1;
    }
    if (start < data.length) this.pending = data.slice(start);
  }

  finish(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
  }

  private tgid(tid: number): number {
    const known = this.tgidOf.get(tid);
    if (known !== undefined) return known;
    // A thread whose clone line is still unfinished: ask the kernel while it runs.
    let tgid = tid;
    try {
      const m = /^Tgid:\s+(\d+)$/m.exec(readFileSync(`/proc/${tid}/status`, "utf8"));
      if (m) tgid = Number(m[1]);
    } catch {
      tgid = tid;
    }
    this.tgidOf.set(tid, tgid);
    if (this.rootTgid === null) this.rootTgid = tgid;
    return tgid;
  }

  private cwd(tgid: number): string {
    return this.cwdOf.get(tgid) ?? this.options.cwd;
  }

  private line(raw: string): void {
    const m = /^(\d+) +(.*)$/.exec(raw);
    if (!m) return;
    const tid = Number(m[1]);
    let rest = m[2] as string;
    if (rest.endsWith("<unfinished ...>")) {
      this.unfinished.set(tid, rest.slice(0, -"<unfinished ...>".length).trimEnd());
      return;
    }
    const resumed = /^<\.\.\. [a-z0-9_]+ resumed>(.*)$/.exec(rest);
    if (resumed) {
      const head = this.unfinished.get(tid);
      this.unfinished.delete(tid);
      if (head === undefined) return;
      rest = head + (resumed[1] as string);
    }
    if (rest.startsWith("+++") || rest.startsWith("---")) return;
    const call = /^([a-z0-9_]+)\((.*)$/.exec(rest);
    if (!call) return;
    const name = call[1] as string;
    const body = call[2] as string;
    // strace pads short calls with spaces before `=` to align the results.
    const split = /^(.*)\) +=\s+(.*)$/s.exec(body);
    if (!split) return;
    this.syscall(tid, name, split[1] as string, split[2] as string);
  }

  private syscall(tid: number, name: string, argText: string, ret: string): void {
    const tgid = this.tgid(tid);
    const retValue = /^(-?\d+)/.exec(ret);
    const ok = retValue !== null && Number(retValue[1]) >= 0;
    if (name === "clone" || name === "clone3" || name === "fork" || name === "vfork") {
      if (!ok) return;
      const child = Number((retValue as RegExpExecArray)[1]);
      if (child <= 0) return;
      if (argText.includes("CLONE_THREAD")) {
        this.tgidOf.set(child, tgid);
      } else {
        this.tgidOf.set(child, child);
        this.parentOf.set(child, tgid);
        this.cwdOf.set(child, this.cwd(tgid));
      }
      return;
    }
    const args = splitArgs(argText);
    // Every *at call shows the caller's current directory: the freshest cwd there is.
    for (const a of args) {
      if (a.startsWith("AT_FDCWD<")) {
        const cwd = fdDecoration(a);
        if (cwd !== null) this.cwdOf.set(tgid, cwd);
        break;
      }
    }
    const retPath = fdDecoration(ret.split(" ")[0]);
    switch (name) {
      case "chdir": {
        const p = stringArg(args[0]);
        if (ok && p !== null) this.cwdOf.set(tgid, this.absolute(tgid, null, p));
        return;
      }
      case "fchdir": {
        const p = fdDecoration(args[0]);
        if (ok && p !== null) this.cwdOf.set(tgid, p);
        return;
      }
      case "execve":
      case "execveat": {
        if (!ok) return;
        const pathIndex = name === "execve" ? 0 : 1;
        const p = stringArg(args[pathIndex]);
        if (p === null) return;
        const dirfd = name === "execveat" ? fdDecoration(args[0]) : null;
        const argvToken = args[pathIndex + 1] ?? "[]";
        const argv = argvToken.startsWith("[") ? splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]"))).map((t) => stringArg(t) ?? t) : [];
        this.options.emit({
          kind: "exec",
          tgid,
          ppid: this.parentOf.get(tgid) ?? null,
          path: foldPath(this.absolute(tgid, dirfd, p)) ?? p,
          argv,
        });
        return;
      }
      case "open":
      case "creat":
      case "openat":
      case "openat2": {
        const at = name === "openat" || name === "openat2";
        const op = name === "creat" ? "create" : openFlags(args[at ? 2 : 1]);
        if (op === null) return;
        const p = stringArg(args[at ? 1 : 0]);
        if (p === null) return;
        let target: string;
        if (ok && retPath !== null) {
          if (!retPath.startsWith("/")) return;
          target = retPath.replace(/ \(deleted\)$/, "");
        } else {
          target = this.resolveFollow(this.absolute(tgid, at ? fdDecoration(args[0]) : null, p));
        }
        this.write(tgid, target, op);
        return;
      }
      case "unlink":
      case "rmdir":
        return this.writeArg(tgid, null, args[0], "delete", false);
      case "unlinkat":
        return this.writeArg(tgid, args[0], args[1], "delete", false);
      case "mkdir":
        return this.writeArg(tgid, null, args[0], "mkdir", false);
      case "mkdirat":
        return this.writeArg(tgid, args[0], args[1], "mkdir", false);
      case "mknod":
        return this.writeArg(tgid, null, args[0], "create", false);
      case "mknodat":
        return this.writeArg(tgid, args[0], args[1], "create", false);
      case "rename":
        this.writeArg(tgid, null, args[0], "rename", false);
        return this.writeArg(tgid, null, args[1], "rename", false);
      case "renameat":
      case "renameat2":
        this.writeArg(tgid, args[0], args[1], "rename", false);
        return this.writeArg(tgid, args[2], args[3], "rename", false);
      case "link":
        return this.writeArg(tgid, null, args[1], "link", false);
      case "linkat":
        return this.writeArg(tgid, args[2], args[3], "link", false);
      case "symlink":
        return this.writeArg(tgid, null, args[1], "symlink", false);
      case "symlinkat":
        return this.writeArg(tgid, args[1], args[2], "symlink", false);
      case "chmod":
        return this.writeArg(tgid, null, args[0], "chmod", true);
      case "fchmodat":
        return this.writeArg(tgid, args[0], args[1], "chmod", !(args[3] ?? "").includes("AT_SYMLINK_NOFOLLOW"));
      case "truncate":
        return this.writeArg(tgid, null, args[0], "truncate", true);
      case "fchmod":
      case "ftruncate": {
        const p = fdDecoration(args[0]);
        if (p !== null && p.startsWith("/")) this.write(tgid, p, name === "fchmod" ? "chmod" : "truncate");
        return;
      }
      case "connect":
      case "sendto":
      case "sendmsg":
      case "sendmmsg":
        for (const { host, port } of socketAddresses(argText)) {
          this.options.emit({ kind: "host", tgid, host, port, proto: name === "connect" ? "connect" : "send" });
        }
        return;
      default:
        return;
    }
  }

  private absolute(tgid: number, dirfd: string | null, p: string): string {
    if (p.startsWith("/")) return p;
    const base = dirfd ?? this.cwd(tgid);
    return resolve(base, p);
  }

  private writeArg(tgid: number, dirfdToken: string | null | undefined, pathToken: string | undefined, op: string, follow: boolean): void {
    const p = stringArg(pathToken);
    if (p === null) return;
    const dirfd = dirfdToken === null || dirfdToken === undefined ? null : fdDecoration(dirfdToken);
    const abs = this.absolute(tgid, dirfd, p);
    this.write(tgid, follow ? this.resolveFollow(abs) : this.resolveNoFollow(abs), op);
  }

  private write(tgid: number, path: string, op: string): void {
    const folded = foldPath(path);
    if (folded === null || isIgnoredDevice(folded) || this.options.plumbing.has(folded)) return;
    this.options.emit({ kind: "write", tgid, path: folded, op });
  }

  /** Resolves symlinks in the directory part now; the final component is the one acted on. */
  private resolveNoFollow(abs: string): string {
    const folded = foldPath(abs) ?? abs;
    const parent = dirname(folded);
    if (parent === folded) return folded;
    return join(realOrAncestor(parent, 0), basename(folded));
  }

  private resolveFollow(abs: string): string {
    try {
      return realpathSync.native(abs);
    } catch {
      return this.resolveNoFollow(abs);
    }
  }
}

function realOrAncestor(dir: string, hops: number): string {
  try {
    return realpathSync.native(dir);
  } catch {
    const parent = dirname(dir);
    if (parent === dir || hops > 256) return dir;
    return join(realOrAncestor(parent, hops + 1), basename(dir));
  }
}
