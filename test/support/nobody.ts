/** Running a process as the unprivileged user nobody (the tests run as root; setpriv drops to nobody). */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync } from "node:fs";

export const NOBODY_UID = 65534;
/** setpriv's arguments that drop to nobody: `setpriv ...NOBODY command...`. */
export const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/**
 * Directories nobody's runs write: given to nobody (owner), never opened to everyone. A
 * world-writable directory is hidden in the jail (another user could make a socket there:
 * src/observer/socket-places.ts), and is no parent of a default scratch (SCRATCH_UNSAFE).
 */
export function giveToNobody(...dirs: string[]): void {
  for (const dir of dirs) if (existsSync(dir)) chownSync(dir, NOBODY_UID, NOBODY_UID);
}

/** Whether the tests can also run as nobody: root, and the jail (bubblewrap's namespaces) builds for nobody. */
export const CAN_RUN_AS_NOBODY =
  process.getuid?.() === 0 &&
  spawnSync(
    "setpriv",
    [...NOBODY, "bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", ":"],
    { stdio: "ignore" },
  ).status === 0;
