/**
 * The default scratch (issue 29, item 6): `$TMPDIR/envelope-gate-<uid>/<run id>`, under a parent
 * that is the user's own; another user's parent, or a link planted in its place, is SCRATCH_UNSAFE.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOBODY, NOBODY_UID, giveToNobody } from "../support/nobody.js";
import { CAN_RUN_AS_NOBODY, CLI, JAIL_AVAILABLE, TEST_TMP, cliForNobody, sandbox, spawnNode, type Sandbox } from "./harness.js";

/** A sticky, world-writable TMPDIR like /tmp, of the test's own. */
function sharedTmp(): string {
  const dir = mkdtempSync(join(TEST_TMP, "eg-shared-tmp-"));
  chmodSync(dir, 0o1777);
  return dir;
}

async function runDefault(s: Sandbox, tmp: string, asNobody: boolean): Promise<{ code: number | null; stderr: string }> {
  const args = ["run", "--envelope", s.envelope, "--observer", join(s.base, "o.jsonl"), "--workspace", s.workspace, "--", "/bin/true"];
  const env = { ...process.env, HOME: s.home, TMPDIR: tmp };
  if (!asNobody) return spawnNode([CLI, ...args], { cwd: s.workspace, env });
  giveToNobody(s.base, s.workspace, s.home);
  return spawnNode([...NOBODY, process.execPath, cliForNobody(), ...args], { cwd: s.workspace, env, exec: "setpriv" });
}

const uid = process.geteuid?.() ?? 0;

describe.skipIf(!JAIL_AVAILABLE || !CAN_RUN_AS_NOBODY)("the default scratch's parent is the user's own", () => {
  it("another user (nobody) made the parent first: SCRATCH_UNSAFE naming it and its owner; nothing is made in it", async () => {
    const tmp = sharedTmp();
    const parent = join(tmp, `envelope-gate-${uid}`);
    expect(spawnSync("setpriv", [...NOBODY, "mkdir", "-m", "0700", parent]).status).toBe(0);
    const r = await runDefault(sandbox(), tmp, false);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("SCRATCH_UNSAFE");
    expect(r.stderr).toContain(`${parent} (owner uid ${NOBODY_UID}`);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("a link planted as the parent (to a directory nobody owns): SCRATCH_UNSAFE, the link's target stays empty", async () => {
    const tmp = sharedTmp();
    const target = join(tmp, "nobodys");
    expect(spawnSync("setpriv", [...NOBODY, "mkdir", "-m", "0777", target]).status).toBe(0);
    const parent = join(tmp, `envelope-gate-${uid}`);
    expect(spawnSync("setpriv", [...NOBODY, "ln", "-s", target, parent]).status).toBe(0);
    const r = await runDefault(sandbox(), tmp, false);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("SCRATCH_UNSAFE");
    expect(r.stderr).toContain("symbolic link");
    expect(readdirSync(target)).toEqual([]);
  });

  it("a TMPDIR others may write that is not sticky: SCRATCH_UNSAFE", async () => {
    const tmp = mkdtempSync(join(TEST_TMP, "eg-open-tmp-"));
    chmodSync(tmp, 0o777);
    const r = await runDefault(sandbox(), tmp, false);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("SCRATCH_UNSAFE");
    expect(r.stderr).toContain("not sticky");
  });

  it("two users in turn, both with the default: each runs under a parent of its own, 0700", async () => {
    const tmp = sharedTmp();
    const first = await runDefault(sandbox(), tmp, false);
    expect(first.stderr).not.toContain("SCRATCH_UNSAFE");
    expect(first.code).toBe(0);
    const second = await runDefault(sandbox(), tmp, true);
    expect(second.stderr).not.toContain("EACCES");
    expect(second.code).toBe(0);
    for (const [who, id] of [
      ["root", uid],
      ["nobody", NOBODY_UID],
    ] as const) {
      const parent = join(tmp, `envelope-gate-${id}`);
      expect(existsSync(parent), who).toBe(true);
      const st = lstatSync(parent);
      expect({ dir: st.isDirectory(), uid: st.uid, mode: st.mode & 0o777 }, who).toEqual({ dir: true, uid: id, mode: 0o700 });
    }
  });
});
