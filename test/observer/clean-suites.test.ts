/**
 * No false positive on clean suites (issue 20, item 3): what real test suites do that changed
 * nothing, or changed only the run's own space, passes; its hostile twin still fails. Real jailed
 * runs through the bundled CLI, as the test's user and as nobody.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, check, checkText, ids, privateHost, program, run, sandbox, type Sandbox } from "./harness.js";

const PYTHON = "/usr/bin/python3";
const hasPython = existsSync(PYTHON);
const q = JSON.stringify;

type Mode = "as the test's user" | "as nobody";
const MODES: Mode[] = ["as the test's user", "as nobody"];
const skipMode = (mode: Mode): boolean => !hasPython || (mode === "as nobody" && !CAN_RUN_AS_NOBODY);

async function outcome(s: Sandbox, command: string[], mode: Mode, env?: NodeJS.ProcessEnv) {
  const r = await run(s, command, { asNobody: mode === "as nobody", env });
  expect(r.lines[r.lines.length - 1]?.kind).toBe("end");
  return { r, report: await check(s) };
}

/** Writes recorded by the process observer with the kernel's ENOENT/ENOTDIR. */
function missingWrites(r: { lines: Record<string, unknown>[] }): { path: unknown; op: unknown; errno: unknown }[] {
  return r.lines.filter((l) => l.kind === "write" && l.errno !== undefined).map((l) => ({ path: l.path, op: l.op, errno: l.errno }));
}

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`clean suites (${mode})`, () => {
    it("a cleanup of temp files that are not there (unlink, rmdir, rename failing with ENOENT/ENOTDIR) is recorded, not judged", async () => {
      const s = sandbox();
      writeFileSync(join(s.outside, "a-file"), "keep");
      const gone = `/var/tmp/eg-gone-${process.pid}-${Date.now()}`;
      // What CPython's test.support.os_helper does: remove what may not exist, ignore FileNotFoundError.
      const source = `import os
for call in (lambda: os.unlink(${q(gone + "/f")}),
             lambda: os.rmdir(${q(gone + "/d")}),
             lambda: os.rename(${q(gone + "/a")}, ${q(gone + "/b")}),
             lambda: os.unlink(${q(s.outside + "/missing-dir/f")}),
             lambda: os.unlink(${q(s.outside + "/a-file/x")})):
    try:
        call()
    except (FileNotFoundError, NotADirectoryError):
        pass
`;
      const { r, report } = await outcome(s, [PYTHON, program(s, "cleanup.py", source)], mode);
      expect(r.code).toBe(0);
      expect(report.verdict).toBe("pass");
      expect(ids(report)).toEqual([]);
      expect(missingWrites(r)).toEqual([
        { path: `${gone}/f`, op: "delete", errno: "ENOENT" },
        { path: `${gone}/d`, op: "delete", errno: "ENOENT" },
        { path: `${gone}/a`, op: "rename", errno: "ENOENT" },
        { path: `${gone}/b`, op: "rename", errno: "ENOENT" },
        { path: `${s.outside}/missing-dir/f`, op: "delete", errno: "ENOENT" },
        { path: `${s.outside}/a-file/x`, op: "delete", errno: "ENOTDIR" },
      ]);
    });

    it("hostile twin: unlinking a file that is there outside the roots (EROFS from the jail) is still judged", async () => {
      const s = sandbox();
      writeFileSync(join(s.outside, "a-file"), "keep");
      const source = `import os
try:
    os.unlink(${q(s.outside + "/a-file")})
except OSError:
    pass
`;
      const { r, report } = await outcome(s, [PYTHON, program(s, "unlink.py", source)], mode);
      expect(ids(report)).toEqual([`write_outside_root:${s.outside}/a-file`]);
      expect(missingWrites(r)).toEqual([]);
      expect(readFileSync(join(s.outside, "a-file"), "utf8")).toBe("keep");
    });

    it("a name missing in a read-only directory is EROFS, not ENOENT (the kernel checks the mount first): still judged", async () => {
      const s = sandbox();
      const { report } = await outcome(s, ["sh", "-c", `rm -f ${s.outside}/not-there; true`], mode);
      expect(ids(report)).toEqual([`write_outside_root:${s.outside}/not-there`]);
    });

    it("hostile twin: a refused write outside the roots (the jail's /dev is read-only too) is judged beside a missing-target one", async () => {
      const s = sandbox();
      const { r, report } = await outcome(s, ["sh", "-c", "mkdir /dev/eg-made; rm -f /dev/eg-missing/x; true"], mode);
      expect(ids(report)).toEqual(["write_outside_root:/dev/eg-made"]);
      expect(missingWrites(r)).toEqual([{ path: "/dev/eg-missing/x", op: "delete", errno: "ENOENT" }]);
    });

    it("/dev/shm and /dev/mqueue are the run's own: shared memory, semaphores and files there pass and stay off the host", async () => {
      const s = sandbox();
      const name = `eg-shm-${process.pid}-${Date.now()}`;
      const source = `import multiprocessing, os
from multiprocessing import shared_memory
shm = shared_memory.SharedMemory(create=True, size=4096)
shm.buf[:5] = b"hello"
shm.close()
shm.unlink()
lock = multiprocessing.Lock()
with lock:
    pass
with open(${q("/dev/shm/" + name)}, "w") as f:
    f.write("left behind")
with open(${q("/dev/mqueue/" + name)}, "w") as f:
    f.write("q")
print(sorted(os.listdir("/dev/shm")))
`;
      const { r, report } = await outcome(s, [PYTHON, program(s, "shm.py", source)], mode);
      expect(r.code).toBe(0);
      expect(ids(report)).toEqual([]);
      expect(report.verdict).toBe("pass");
      const shmHost = privateHost(r, "/dev/shm");
      expect(shmHost.startsWith(`${s.scratch}/.envelope-gate-`)).toBe(true);
      expect(readFileSync(join(shmHost, name), "utf8")).toBe("left behind");
      expect(readFileSync(join(privateHost(r, "/dev/mqueue"), name), "utf8")).toBe("q");
      // Nothing of it on the host's own /dev/shm.
      expect(existsSync(`/dev/shm/${name}`)).toBe(false);
      expect(readdirSync("/dev/shm").filter((f) => f.startsWith("psm_") || f.startsWith("sem.mp-"))).toEqual([]);
      const writes = r.lines.filter((l) => l.kind === "write" && typeof l.path === "string" && l.path.startsWith(shmHost));
      expect(writes.length).toBeGreaterThan(0);
    });
  });

async function checkFirstLine(s: Sandbox): Promise<{ code: number | null; first: string }> {
  const res = await checkText(s);
  return { code: res.code, first: res.stdout.split("\n")[0] ?? "" };
}

describe("check's verdict line says how the command ended", () => {
  it("a PASS whose command exited 4 says so; check still exits 0", async () => {
    const s = sandbox();
    const r = await run(s, ["sh", "-c", "exit 4"]);
    expect(r.code).toBe(4);
    const { code, first } = await checkFirstLine(s);
    expect(first).toMatch(/^envelope-gate: PASS \(pass\): no violations in \d+ events; the command exited 4$/);
    expect(code).toBe(0);
  });

  it("a FAIL whose command exited 1 says so; check still exits 1", async () => {
    const s = sandbox();
    await run(s, ["sh", "-c", `echo x > ${s.outside}/x; exit 1`]);
    const { code, first } = await checkFirstLine(s);
    expect(first).toMatch(/^envelope-gate: FAIL \(envelope_fail\): 1 distinct violation in \d+ events; the command exited 1$/);
    expect(code).toBe(1);
  });

  it("a command killed by a signal says how it ended (137: 128 + SIGKILL, as the jail reports it)", async () => {
    const s = sandbox();
    await run(s, ["sh", "-c", "kill -9 $$"]);
    const { code, first } = await checkFirstLine(s);
    expect(first).toMatch(/^envelope-gate: PASS \(pass\): no violations in \d+ events; the command exited 137$/);
    expect(code).toBe(0);
  });

  it("clean twin: a command that exited 0 adds nothing to the line", async () => {
    const s = sandbox();
    await run(s, ["sh", "-c", "exit 0"]);
    const { code, first } = await checkFirstLine(s);
    expect(first).toMatch(/^envelope-gate: PASS \(pass\): no violations in \d+ events$/);
    expect(code).toBe(0);
  });
});

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`a missing HOME (${mode})`, () => {
    it("HOME=/nonexistent: the command gets a private HOME, and writing ~/.cache/x passes", async () => {
      const s = sandbox({ allowed_env: ["PATH", "HOME"] });
      const { r, report } = await outcome(
        s,
        ["sh", "-c", 'echo "$HOME" > home.txt; mkdir -p "$HOME/.cache" && echo x > "$HOME/.cache/x"'],
        mode,
        { HOME: "/nonexistent" },
      );
      expect(ids(report)).toEqual([]);
      expect(r.code).toBe(0);
      const home = readFileSync(join(s.workspace, "home.txt"), "utf8").trim();
      expect(home).not.toBe("/nonexistent");
      expect(readFileSync(join(privateHost(r, home), ".cache/x"), "utf8")).toBe("x\n");
    });
  });
