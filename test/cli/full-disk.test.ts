/**
 * Files the command line writes on a full disk: the report on standard output, suggest --write.
 * Each is OUTPUT_UNWRITABLE (exit 3, the file named, a hint), never a raw ENOSPC and never exit 0.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT } from "../support/cli.js";
import { envelopeText, logText, writeFixture, type Fixture } from "../support/logs.js";
import { TMPFS_UNAVAILABLE, tinyTmpfs, type Tmpfs } from "../support/tmpfs.js";

if (TMPFS_UNAVAILABLE !== null) console.warn(`test/cli/full-disk.test.ts skipped: ${TMPFS_UNAVAILABLE}`);

const ROOTS = ["--workspace", "/work/repo", "--scratch", "/tmp/agent-scratch"];
const STACK_TRACE = /^ {4}at |Error: ENOSPC/m;

let disk: Tmpfs | null = null;
afterEach(() => {
  disk?.unmount();
  disk = null;
});

function fixture(): Fixture {
  return writeFixture(envelopeText(), (h) => logText(h, [{ kind: "tool", name: "read_file" }], { seq: true }));
}

/** Runs the CLI with standard output redirected to `stdoutFile`, as `envelope-gate ... > FILE` does. */
function cliTo(stdoutFile: string, args: string[]): { status: number | null; stderr: string } {
  const fd = openSync(stdoutFile, "w");
  try {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
    return { status: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(TMPFS_UNAVAILABLE !== null)("the command line's own files on a full disk", () => {
  it("check --format json to a file on a full filesystem: OUTPUT_UNWRITABLE, exit 3, the file named", () => {
    const fx = fixture();
    disk = tinyTmpfs(join(fx.dir, "full"), "16k");
    disk.fill();
    const out = join(disk.dir, "report.json");
    const r = cliTo(out, ["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS, "--format", "json"]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toContain("envelope-gate: ERROR OUTPUT_UNWRITABLE");
    expect(r.stderr).toContain(`cannot write the check report to ${out} (ENOSPC)`);
    expect(r.stderr).toMatch(/what to do: .*full/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  });

  it("the clean twin: the same check with room writes its report and passes", () => {
    const fx = fixture();
    disk = tinyTmpfs(join(fx.dir, "roomy"), "16k");
    const out = join(disk.dir, "report.json");
    const r = cliTo(out, ["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS, "--format", "json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ verdict: "pass", error: null });
  });

  it("a check that finds violations still exits 3, not 1, when its report cannot be written", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, [{ kind: "tool", name: "curl" }], { seq: true }));
    disk = tinyTmpfs(join(fx.dir, "full"), "16k");
    disk.fill();
    const r = cliTo(join(disk.dir, "report.txt"), ["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toContain("OUTPUT_UNWRITABLE");
  });

  it("hash and verify to a full filesystem: OUTPUT_UNWRITABLE", () => {
    const fx = fixture();
    disk = tinyTmpfs(join(fx.dir, "full"), "16k");
    disk.fill();
    for (const args of [
      ["hash", fx.envelope],
      ["verify", "--envelope", fx.envelope],
    ]) {
      const r = cliTo(join(disk.dir, "out"), args);
      expect(r.status, r.stderr).toBe(3);
      expect(r.stderr).toContain("OUTPUT_UNWRITABLE");
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
  });

  it("suggest --write to a full filesystem: OUTPUT_UNWRITABLE naming the envelope file; with room it writes both files", () => {
    const fx = fixture();
    disk = tinyTmpfs(join(fx.dir, "full"), "16k");
    const suggested = join(disk.dir, "suggested.json");
    const roomy = cliTo(join(fx.dir, "suggest.out"), ["suggest", "--observer", fx.log, "--write", suggested]);
    expect(roomy.status, roomy.stderr).toBe(0);
    expect(existsSync(`${suggested}.sha256`)).toBe(true);
    disk.fill();
    const full = cliTo(join(fx.dir, "suggest.out"), ["suggest", "--observer", fx.log, "--write", join(disk.dir, "again.json")]);
    expect(full.status, full.stderr).toBe(3);
    expect(full.stderr).toContain("envelope-gate: ERROR OUTPUT_UNWRITABLE");
    expect(full.stderr).toContain(`cannot write the suggested envelope to ${join(disk.dir, "again.json")} (ENOSPC)`);
    expect(full.stderr).not.toMatch(STACK_TRACE);
  });
});
