import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forbiddenNumbers, jailArch, seccompProgram } from "../../src/observer/seccomp.js";
import { JAIL_AVAILABLE, TEST_TMP } from "./harness.js";

const arch = jailArch();
const python = spawnSync("python3", ["-c", "import ctypes"], { stdio: "ignore" }).status === 0;

/** errno of unshare(CLONE_NEWUSER) made under bubblewrap with the given filter installed, untraced. */
function unshareErrno(program: Buffer): number {
  const dir = mkdtempSync(join(TEST_TMP, "eg-seccomp-"));
  try {
    const file = join(dir, "filter.bpf");
    writeFileSync(file, program);
    const fd = openSync(file, "r");
    const nr = [...forbiddenNumbers(arch as NonNullable<typeof arch>)].find(([, name]) => name === "unshare")?.[0];
    const script = `import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(${String(nr)}, 0x10000000); print(ctypes.get_errno() if r != 0 else 0)`;
    try {
      const r = spawnSync(
        "bwrap",
        ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--seccomp", "3", "--", "python3", "-c", script],
        { stdio: ["ignore", "pipe", "pipe", fd], encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      return Number(r.stdout.trim());
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!JAIL_AVAILABLE || arch === null || !python)("the jail's seccomp filter", () => {
  it("refuses a forbidden call with EPERM itself in the eBPF recorder's variant; the strace variant leaves it to the tracer (ENOSYS untraced)", () => {
    const a = arch as NonNullable<typeof arch>;
    expect(unshareErrno(seccompProgram(a, "eperm"))).toBe(1);
    expect(unshareErrno(seccompProgram(a, "trace"))).toBe(38);
    expect(seccompProgram(a, "eperm").length).toBe(seccompProgram(a).length);
  });
});
