/** A table-backed ProcessFacts: what the kernel would say, given by the test, and what was asked. */
import type { ProcessFacts } from "../../src/observer/process-facts.js";

/** An ELF image's first bytes: what a program reads as unless a test gives its head. */
export const ELF_HEAD = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);

export class TableFacts implements ProcessFacts {
  readonly statuses = new Map<number, string>();
  readonly cwds = new Map<number, string>();
  /** `/proc/PID/exe` by pid (asked only where a file does not say what the kernel ran). */
  readonly exes = new Map<number, string>();
  /** Files' first bytes (a `#!` line), by host path; any other file reads as an ELF image. */
  readonly heads = new Map<string, Uint8Array | null | undefined>();
  /** Symlinks by host path, and their text. */
  readonly links = new Map<string, string>();
  /** Paths that are there (not links): each one given, and every directory above it. */
  private readonly present = new Set<string>(["/"]);
  private readonly sockets = new Set<string>();
  readonly asked: string[] = [];

  /** A process as /proc/PID/status shows it (`nspid`: its pids from the outermost namespace in). */
  process(pid: number, options: { tgid?: number; nspid?: number[]; cwd?: string } = {}): this {
    const nspid = options.nspid ?? [pid];
    this.statuses.set(pid, `Name:\tx\nTgid:\t${options.tgid ?? pid}\nPid:\t${pid}\nNSpid:\t${nspid.join("\t")}\n`);
    if (options.cwd !== undefined) this.cwds.set(pid, options.cwd);
    return this;
  }

  there(...paths: string[]): this {
    for (const path of paths) {
      for (let p = path; p !== "" && p !== "/"; p = p.slice(0, p.lastIndexOf("/"))) this.present.add(p);
    }
    return this;
  }

  /** A file that is there, with its first bytes (a script's `#!` line). */
  file(path: string, head: string): this {
    this.there(path);
    this.heads.set(path, Buffer.from(head));
    return this;
  }

  symlink(path: string, text: string): this {
    this.there(path.slice(0, path.lastIndexOf("/")) || "/");
    this.links.set(path, text);
    return this;
  }

  link(path: string): string | null | undefined {
    this.asked.push(`link ${path}`);
    const known = this.links.get(path);
    if (known !== undefined) return known;
    return this.present.has(path) ? null : undefined;
  }

  socket(path: string): this {
    this.sockets.add(path);
    return this.there(path);
  }

  status(pid: number): string | null {
    this.asked.push(`status ${pid}`);
    return this.statuses.get(pid) ?? null;
  }

  cwd(pid: number): string | null {
    this.asked.push(`cwd ${pid}`);
    return this.cwds.get(pid) ?? null;
  }

  exe(pid: number): string | null {
    this.asked.push(`exe ${pid}`);
    return this.exes.get(pid) ?? null;
  }

  head(path: string): Uint8Array | null | undefined {
    this.asked.push(`head ${path}`);
    return this.heads.has(path) ? this.heads.get(path) : ELF_HEAD;
  }

  /** A program whose file is no longer there (removed after its exec; a memfd's name). */
  gone(path: string): this {
    this.heads.set(path, undefined);
    return this;
  }

  /** A file that is there and that the wrapper cannot read (mode 0111: the kernel still runs it). */
  unreadable(path: string): this {
    this.there(path);
    this.heads.set(path, null);
    return this;
  }

  isSocket(path: string): boolean {
    this.asked.push(`socket ${path}`);
    return this.sockets.has(path);
  }
}
