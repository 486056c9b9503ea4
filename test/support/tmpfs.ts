/**
 * A really small filesystem for full-disk tests: a tmpfs of a few kilobytes mounted on a fresh
 * directory (the tests run as root; where mount is refused, `TMPFS_UNAVAILABLE` says why and the
 * tests that need one are skipped with that reason).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function mount(dir: string, size: string): string | null {
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=1777`, "tmpfs", dir], { encoding: "utf8" });
  if (r.error !== undefined) return `mount cannot run (${r.error.message})`;
  return r.status === 0 ? null : `mount -t tmpfs is not permitted here (${(r.stderr || `exit ${r.status}`).trim()})`;
}

/** Null where a tmpfs can be mounted; otherwise the reason it cannot. */
export const TMPFS_UNAVAILABLE: string | null = (() => {
  const probe = mkdtempSync(join(tmpdir(), "eg-tmpfs-probe-"));
  try {
    const refused = mount(probe, "16k");
    if (refused === null) spawnSync("umount", [probe]);
    return refused;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

export interface Tmpfs {
  dir: string;
  /** Writes zeros until the filesystem says ENOSPC: from then on every write there fails. */
  fill(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `size` (e.g. "64k") on `dir` (made if missing). */
export function tinyTmpfs(dir: string, size: string): Tmpfs {
  mkdirSync(dir, { recursive: true });
  const refused = mount(dir, size);
  if (refused !== null) throw new Error(refused);
  return {
    dir,
    fill(): void {
      const fd = openSync(join(dir, ".filler"), "w");
      const chunk = Buffer.alloc(4096, 0);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as { code?: string }).code !== "ENOSPC") throw err;
      } finally {
        closeSync(fd);
      }
    },
    unmount(): void {
      const r = spawnSync("umount", [dir], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`umount ${dir} failed: ${r.stderr}`);
    },
  };
}
