import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_NODES, notReadOnly, readOnlyDevices } from "../../src/observer/devices.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), "eg-devices-"));
  dirs.push(d);
  return d;
}

describe("the devices holder's read-only nodes (devices.ts)", () => {
  it("a node that is not a mount at all counts as not read-only: the holder would be refused", () => {
    expect(notReadOnly(process.pid, scratch())).toEqual([...DEV_NODES]);
  });

  it("mounts that cannot be read count as not read-only", () => {
    expect(notReadOnly(2 ** 22 + 12345, scratch())).toEqual([...DEV_NODES]);
  });

  it.skipIf(process.geteuid?.() !== 0)(
    "a bind left read-write is found (what an old mount(8) ignoring `--bind -o ro` leaves)",
    async () => {
      const dir = scratch();
      const child = spawn(
        "unshare",
        [
          "--mount",
          "--propagation",
          "private",
          "--",
          "/bin/sh",
          "-c",
          'for n in null zero full random urandom tty; do : > "$1/$n"; mount --bind -o ro "/dev/$n" "$1/$n"; done; mount -o remount,bind,rw "$1/full"; echo ready; read -r _ || :',
          "sh",
          dir,
        ],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      try {
        await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
        expect(notReadOnly(child.pid as number, dir)).toEqual(["full"]);
      } finally {
        child.kill("SIGKILL");
      }
    },
  );

  it.skipIf(process.geteuid?.() !== 0)("as root, the holder's six nodes are read-only mounts", async () => {
    const devices = await readOnlyDevices(join(scratch(), "dev"), { unshare: "/usr/bin/unshare", nsenter: "/usr/bin/nsenter" }, "/");
    try {
      const pid = Number(/--mount=\/proc\/(\d+)\/ns\/mnt/.exec(devices.prefix.join(" "))?.[1]);
      expect(notReadOnly(pid, join(dirs[0] as string, "dev"))).toEqual([]);
    } finally {
      devices.close();
    }
  });
});
