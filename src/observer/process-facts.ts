/**
 * What the parser asks the kernel while the traced processes run: the one port between the pure
 * parser (strace.ts, process-tree.ts, path-resolver.ts) and the live system.
 */
import { closeSync, lstatSync, openSync, readFileSync, readSync, readlinkSync } from "node:fs";
import { BINPRM_BUF_SIZE } from "./shebang.js";

export interface ProcessFacts {
  /** The text of `/proc/PID/status`; null when it cannot be read (the process is gone). */
  status(pid: number): string | null;
  /** `/proc/PID/cwd`'s target; null when it cannot be read. */
  cwd(pid: number): string | null;
  /**
   * `/proc/PID/exe`'s target (without ` (deleted)`); null when it cannot be read. Asked only for an
   * exec whose file does not say what the kernel ran (strace.ts).
   */
  exe(pid: number): string | null;
  /**
   * The first bytes of the file at a path (the kernel's BINPRM_BUF_SIZE, or fewer where it is
   * shorter), followed: where an exec's `#!` line is read. Null when it is there and cannot be
   * read, undefined when it is not there (gone; a memfd's name).
   */
  head(path: string): Uint8Array | null | undefined;
  /** A path's symlink text: null when it is there and no symlink, undefined when it is not there or cannot be read. */
  link(path: string): string | null | undefined;
  /** Whether the path is there and is a socket (not followed). */
  isSocket(path: string): boolean;
}

export const liveProcessFacts: ProcessFacts = {
  status(pid) {
    try {
      return readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      return null;
    }
  },
  cwd(pid) {
    try {
      return readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      return null;
    }
  },
  exe(pid) {
    try {
      return readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
    } catch {
      return null;
    }
  },
  head(path) {
    let fd: number | null = null;
    try {
      fd = openSync(path, "r");
      const buf = Buffer.alloc(BINPRM_BUF_SIZE);
      const n = readSync(fd, buf, 0, BINPRM_BUF_SIZE, 0);
      return buf.subarray(0, n);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === "ENOENT" || code === "ENOTDIR" ? undefined : null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  },
  link(path) {
    try {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat === undefined) return undefined;
      return stat.isSymbolicLink() ? readlinkSync(path) : null;
    } catch {
      return undefined;
    }
  },
  isSocket(path) {
    try {
      return lstatSync(path, { throwIfNoEntry: false })?.isSocket() ?? false;
    } catch {
      return false;
    }
  },
};
