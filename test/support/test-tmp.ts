/**
 * Where the tests put what the jail must show at its own path, outside every root (a sandbox's
 * `outside` and `home`, the programs, a runner layout): not `/tmp` (the jail's is private), not
 * `/var/tmp` nor any world-writable or sticky directory (the jail hides those: another user could
 * make a unix socket there after the start, src/observer/socket-places.ts).
 *
 * `/var/eg<uid>`, the tests' user's own, 0755 (short: a runner layout's unix sockets, such as
 * `<t>/home/runner/work/_temp/envelope-gate-observer-XXXXXX/canary/egress.sock`, must fit in 107 bytes) (nobody, for the unprivileged
 * runs, can search it), made here: directly as root, else with `sudo -n` (GitHub's hosted runners),
 * or `ENVELOPE_GATE_TEST_TMP` names one.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, realpathSync } from "node:fs";

function make(): string {
  const given = process.env.ENVELOPE_GATE_TEST_TMP;
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const dir = given !== undefined && given !== "" ? given : `/var/eg${uid}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  } catch {
    spawnSync("sudo", ["-n", "install", "-d", "-m", "0755", "-o", String(uid), "-g", String(gid), dir], { stdio: "ignore" });
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid) throw new Error(`TEST_TMP ${dir} is not a directory of uid ${uid}: set ENVELOPE_GATE_TEST_TMP`);
  chmodSync(dir, 0o755);
  return realpathSync(dir);
}

export const TEST_TMP = make();
