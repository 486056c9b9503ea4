/**
 * The Action's own files on a full disk (a real tmpfs of a few KiB): the observer log it has the
 * wrapper write into evidence-dir, its working copy of the envelope in RUNNER_TEMP, the copy of a
 * given log, the evidence bundle. Each is a typed error that fails the check, never a raw ENOSPC.
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { copyLog, writeBundle } from "../../src/action/local.js";
import { Refusal } from "../../src/core/errors.js";
import { REPO, envelopeText, makePull, policyFiles, runAction } from "../support/action-harness.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { TMPFS_UNAVAILABLE, tinyTmpfs, type Tmpfs } from "../support/tmpfs.js";
import { JAIL_AVAILABLE } from "../observer/harness.js";

if (TMPFS_UNAVAILABLE !== null) console.warn(`test/action/full-disk.test.ts skipped: ${TMPFS_UNAVAILABLE}`);

const STACK_TRACE = /^ {4}at |Error: ENOSPC/m;
const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] });

let disk: Tmpfs | null = null;
afterEach(() => {
  disk?.unmount();
  disk = null;
});
const temp = (): string => mkdtempSync(join(tmpdir(), "eg-full-disk-"));

async function thrown(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe.skipIf(TMPFS_UNAVAILABLE !== null)("the evidence files on a full disk (src/action/local.ts)", () => {
  it("copying a given log into a full evidence-dir is EVIDENCE_UNAVAILABLE (the copy), not OBSERVER_LOG_UNREADABLE (the source)", async () => {
    const source = join(temp(), "observer.jsonl");
    writeFileSync(source, "x".repeat(64 * 1024));
    disk = tinyTmpfs(join(temp(), "evidence"), "16k");
    disk.fill();
    const e = await thrown(copyLog(source, join(disk.dir, "observer.jsonl")));
    expect(e.code).toBe("EVIDENCE_UNAVAILABLE");
    expect(e.file).toBe(join(disk.dir, "observer.jsonl"));
    expect(e.message).toContain("ENOSPC");
    expect(e.hint).toContain("full");
  });

  it("the clean twins: with room the log is copied whole; a missing or unreadable source keeps its own code", async () => {
    const dir = temp();
    const source = join(dir, "observer.jsonl");
    writeFileSync(source, "line\n".repeat(1000));
    disk = tinyTmpfs(join(dir, "evidence"), "16k");
    await copyLog(source, join(disk.dir, "observer.jsonl"));
    expect(readFileSync(join(disk.dir, "observer.jsonl"), "utf8")).toBe("line\n".repeat(1000));
    expect((await thrown(copyLog(join(dir, "missing.jsonl"), join(disk.dir, "a.jsonl")))).code).toBe("OBSERVER_LOG_MISSING");
    mkdirSync(join(dir, "a-directory"));
    expect((await thrown(copyLog(join(dir, "a-directory"), join(disk.dir, "b.jsonl")))).code).toBe("OBSERVER_LOG_UNREADABLE");
  });

  it("writing the bundle into a full evidence-dir is EVIDENCE_UNAVAILABLE naming the file", async () => {
    disk = tinyTmpfs(join(temp(), "evidence"), "16k");
    disk.fill();
    const e = await thrown(writeBundle(disk.dir, new Map([["verdict.json", new TextEncoder().encode("{}\n")]])));
    expect(e.code).toBe("EVIDENCE_UNAVAILABLE");
    expect(e.file).toBe(join(disk.dir, "verdict.json"));
    expect(e.hint).toContain("full");
  });
});

describe.skipIf(TMPFS_UNAVAILABLE !== null || !JAIL_AVAILABLE)("the Action's run on a full disk", () => {
  let fake: FakeGitHub;
  beforeAll(async () => {
    fake = await startFakeGitHub();
  });
  afterAll(() => fake.close());

  const checkRunOf = (headSha: string) => fake.repo(REPO).checkRuns.find((c) => c.head_sha === headSha);

  it("an evidence-dir that fills while the patch runs: OBSERVER_LOG_WRITE_FAILED, the check fails", async () => {
    disk = tinyTmpfs(join(temp(), "evidence"), "64k");
    const p = makePull(fake, { number: 31, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { run: `sh -c 'i=0; while :; do i=$((i+1)); : > "f$i"; done'`, "evidence-dir": disk.dir },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_WRITE_FAILED");
    expect(run.outputs.verdict).toBe("error");
    expect(checkRunOf(p.headSha)?.conclusion).toBe("failure");
    expect(run.stderr).not.toMatch(STACK_TRACE);
  });

  it("a full RUNNER_TEMP (the first file written there is the observer's private copy): ACTION_COPY_UNAVAILABLE, the check fails", async () => {
    disk = tinyTmpfs(join(temp(), "runner-temp"), "16k");
    disk.fill();
    const p = makePull(fake, { number: 32, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      env: { RUNNER_TEMP: disk.dir },
      inputs: { run: "node -e 0", "evidence-dir": join(temp(), "evidence") },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.outputs["error-code"]).toBe("ACTION_COPY_UNAVAILABLE");
    expect(checkRunOf(p.headSha)?.conclusion).toBe("failure");
    expect(run.stderr + run.stdout).not.toMatch(STACK_TRACE);
  });

  it("a full filesystem under the run's copy of the envelope (RUNNER_TEMP/envelope-gate-policy): OUTPUT_UNWRITABLE, the check fails", async () => {
    const runnerTemp = join(temp(), "runner-temp-policy");
    disk = tinyTmpfs(join(runnerTemp, "envelope-gate-policy"), "16k");
    disk.fill();
    const p = makePull(fake, { number: 35, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      env: { RUNNER_TEMP: runnerTemp },
      inputs: { run: "node -e 0", "evidence-dir": join(temp(), "evidence") },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.outputs["error-code"]).toBe("OUTPUT_UNWRITABLE");
    expect(checkRunOf(p.headSha)?.conclusion).toBe("failure");
    expect(run.stderr + run.stdout).not.toMatch(STACK_TRACE);
  });

  it("the clean twin: the same run with room passes", async () => {
    disk = tinyTmpfs(join(temp(), "evidence"), "256k");
    const p = makePull(fake, { number: 33, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { run: `sh -c ': > f1'`, "evidence-dir": disk.dir } });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    expect(checkRunOf(p.headSha)?.conclusion).toBe("success");
  });
});
