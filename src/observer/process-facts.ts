/**
 * What the parser asks the kernel while the traced processes run: the one port between the pure
 * parser (strace.ts, process-tree.ts, path-resolver.ts) and the live system.
 */
import { lstatSync, readFileSync, readlinkSync } from "node:fs";

export interface ProcessFacts {
  /** The text of `/proc/PID/status`; null when it cannot be read (the process is gone). */
  status(pid: number): string | null;
  /** `/proc/PID/cwd`'s target; null when it cannot be read. */
  cwd(pid: number): string | null;
  /** `/proc/PID/exe`'s target as the kernel prints it; null when it cannot be read. */
  exe(pid: number): string | null;
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
      return readlinkSync(`/proc/${pid}/exe`);
    } catch {
      return null;
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
