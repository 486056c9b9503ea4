/**
 * The effects check refuses what it cannot examine (OBSERVER_EFFECTS_UNCHECKED): a directory of the
 * workspace the wrapper's user cannot read, there before the run or made by the command (which
 * could hide a new `.git` in it). Only an unprivileged wrapper can be refused a read: as nobody.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, check, run, sandbox } from "./harness.js";

describe.skipIf(!JAIL_AVAILABLE || !CAN_RUN_AS_NOBODY)("the effects check refuses what it cannot examine (as nobody)", () => {
  it("a directory of the workspace nobody cannot list: refused before the command runs", async () => {
    const s = sandbox();
    const closed = join(s.workspace, "closed");
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    const marker = join(s.scratch, "ran");
    const r = await run(s, ["/bin/sh", "-c", `touch ${marker}`], { asNobody: true });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_EFFECTS_UNCHECKED");
    expect(r.stderr).toContain(closed);
    expect(existsSync(marker)).toBe(false);
    expect(r.lines.at(-1)?.kind).not.toBe("end");
  });

  it("a directory the command made unreadable, with a .git inside: refused after the run, no end line", async () => {
    const s = sandbox();
    const hidden = join(s.workspace, "hidden");
    const r = await run(s, ["/bin/sh", "-c", `mkdir -p ${hidden}/.git && chmod 0 ${hidden}`], { asNobody: true });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_EFFECTS_UNCHECKED");
    expect(r.stderr).toContain(hidden);
    expect(r.lines.some((l) => l.kind === "end")).toBe(false);
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
    chmodSync(hidden, 0o755);
  });

  it("its clean twin: the same directories left readable pass", async () => {
    const s = sandbox();
    const open = join(s.workspace, "open");
    const r = await run(s, ["/bin/sh", "-c", `mkdir -p ${open}/inner && chmod 0755 ${open}`], { asNobody: true });
    expect(r.code, r.stderr).toBe(0);
    const report = await check(s);
    expect(report.verdict).toBe("pass");
  });
});
