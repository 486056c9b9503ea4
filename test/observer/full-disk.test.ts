/**
 * A full disk under the observer log: the wrapper ends with a typed error (exit 3, the file
 * named, a hint), stops the command, and leaves a log without `end` that check refuses.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, check, run, sandbox, type Sandbox } from "./harness.js";
import { TMPFS_UNAVAILABLE, tinyTmpfs, type Tmpfs } from "../support/tmpfs.js";

if (TMPFS_UNAVAILABLE !== null) console.warn(`full-disk.test.ts skipped: ${TMPFS_UNAVAILABLE}`);
if (!JAIL_AVAILABLE) console.warn("full-disk.test.ts skipped: no bubblewrap jail on this machine");

const LOG = "tiny/observer.jsonl";
/** A raw exception's stack frame, as an uncaught ENOSPC prints it (the report's own "  at FILE" is two spaces). */
const STACK_TRACE = /^ {4}at |Error: ENOSPC/m;

async function withTinyLogDisk<T>(s: Sandbox, body: (disk: Tmpfs) => Promise<T>): Promise<T> {
  const disk = tinyTmpfs(join(s.base, "tiny"), "64k");
  try {
    return await body(disk);
  } finally {
    disk.unmount();
  }
}

type Mode = "as the test's user" | "as nobody";
const MODES: Mode[] = ["as the test's user", "as nobody"];

for (const mode of MODES)
  describe.skipIf(TMPFS_UNAVAILABLE !== null || !JAIL_AVAILABLE || (mode === "as nobody" && !CAN_RUN_AS_NOBODY))(
    `envelope-gate run on a full disk (${mode})`,
    () => {
      const asNobody = mode === "as nobody";

      it("a command that fills the log's 64 KiB filesystem is stopped: OBSERVER_LOG_WRITE_FAILED, exit 3, and check refuses the log", async () => {
        const s = sandbox();
        await withTinyLogDisk(s, async () => {
          // Creates files without end, each one a `write` event: only the wrapper stopping it ends the run.
          const r = await run(s, ["/bin/sh", "-c", 'i=0; while :; do i=$((i+1)); : > "$0/f$i"; done', s.workspace], {
            logName: LOG,
            asNobody,
          });
          expect(r.code, r.stderr).toBe(3);
          expect(r.stderr).toContain("envelope-gate: ERROR OBSERVER_LOG_WRITE_FAILED");
          expect(r.stderr).toContain(join(s.base, LOG));
          expect(r.stderr).toContain("ENOSPC");
          expect(r.stderr).toMatch(/what to do: .*full/);
          expect(r.stderr).not.toMatch(STACK_TRACE);
          expect(r.stderr).not.toContain("INTERNAL_ERROR");
          // It ran and wrote for a while before the disk filled.
          expect(readdirSync(s.workspace).length).toBeGreaterThan(10);
          // Cut back to whole lines: every line parses, meta first, no end.
          expect(r.lines.length).toBeGreaterThan(10);
          expect(r.lines.every((l) => l.unparsable === undefined)).toBe(true);
          expect(r.lines[0]?.kind).toBe("meta");
          expect(r.lines.some((l) => l.kind === "end")).toBe(false);
          const report = await check(s, LOG);
          expect(report.exit).toBe(3);
          expect(report.verdict).toBe("error");
          expect(report.error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
        });
      });

      it("a disk already full when the run starts: the meta line cannot be written, the command never runs", async () => {
        const s = sandbox();
        await withTinyLogDisk(s, async (disk) => {
          disk.fill();
          const r = await run(s, ["/bin/sh", "-c", ': > "$0/ran"', s.workspace], { logName: LOG, asNobody });
          expect(r.code, r.stderr).toBe(3);
          expect(r.stderr).toContain("envelope-gate: ERROR OBSERVER_LOG_WRITE_FAILED");
          expect(r.stderr).toContain(join(s.base, LOG));
          expect(r.stderr).not.toMatch(STACK_TRACE);
          expect(readdirSync(s.workspace)).toEqual([]);
          expect(r.lines).toEqual([]);
          const report = await check(s, LOG);
          expect(report.exit).toBe(3);
          expect(report.error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
        });
      });

      it("the clean twin: a short run on the same 64 KiB filesystem completes and passes", async () => {
        const s = sandbox();
        await withTinyLogDisk(s, async () => {
          const r = await run(s, ["/bin/sh", "-c", 'for i in 1 2 3; do : > "$0/f$i"; done', s.workspace], { logName: LOG, asNobody });
          expect(r.code, r.stderr).toBe(0);
          expect(r.lines.at(-1)?.kind).toBe("end");
          const report = await check(s, LOG);
          expect(report.error).toBeNull();
          expect(report.verdict).toBe("pass");
          expect(report.exit).toBe(0);
        });
      });
    },
  );
