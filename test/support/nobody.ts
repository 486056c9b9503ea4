/** Running a process as the unprivileged user nobody (the tests run as root; setpriv drops to nobody). */
import { spawnSync } from "node:child_process";

export const NOBODY_UID = 65534;
/** setpriv's arguments that drop to nobody: `setpriv ...NOBODY command...`. */
export const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/** Whether the tests can also run as nobody: root, and the jail (bubblewrap's namespaces) builds for nobody. */
export const CAN_RUN_AS_NOBODY =
  process.getuid?.() === 0 &&
  spawnSync(
    "setpriv",
    [...NOBODY, "bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", ":"],
    { stdio: "ignore" },
  ).status === 0;
