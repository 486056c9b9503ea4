/**
 * Step outputs stay under GitHub's limit (issue 18, item 8): 1 MB of outputs per job, the size
 * approximated as UTF-16. Through the bundled Action, 10,000 violations leave a GITHUB_OUTPUT
 * under 1 MB whose violations output is valid JSON holding the first entries, with
 * violations-omitted counting the rest; the evidence bundle's verdict.json holds them all.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOB_OUTPUTS_LIMIT_BYTES, outputBytes } from "../../src/core/outputs.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import {
  REPO,
  envelopeHash,
  envelopeText,
  makePull,
  observerLog,
  policyFiles,
  runAction,
  type ActionRun,
} from "../support/action-harness.js";

let fake: FakeGitHub;
let nextPull = 500;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
});
afterAll(() => fake.close());

const ENVELOPE = envelopeText();
const HASH = envelopeHash(ENVELOPE);

async function gateLog(events: Record<string, unknown>[]): Promise<ActionRun> {
  const p = makePull(fake, { number: ++nextPull, base: policyFiles(ENVELOPE) });
  return runAction({
    apiUrl: fake.url,
    pull: p,
    inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
    workspaceFiles: { "observer.jsonl": observerLog(HASH, events) },
    timeoutMs: 120_000,
  });
}

function outputFileBytes(run: ActionRun): number {
  return statSync(join(dirname(run.runnerTemp), "github_output")).size;
}

describe("step outputs within GitHub's limit", () => {
  it("10,000 violations (2.1 MB of JSON): the outputs stay under 1 MB, valid JSON, the omitted count is exact", async () => {
    // Half the paths carry multi-byte characters: UTF-8 counts them three bytes, GitHub's estimate two.
    const events = Array.from({ length: 10_000 }, (_, i) => ({
      kind: "write",
      path: `/elsewhere/${i % 2 === 0 ? "données-日本語" : "plain-ascii-dir"}/nested/segment/file-${String(i).padStart(5, "0")}.txt`,
      op: "write",
    }));
    const run = await gateLog(events);
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("envelope_fail");
    const all = JSON.parse(readFileSync(join(run.evidenceDir, "verdict.json"), "utf8")).violations as unknown[];
    expect(all).toHaveLength(10_000);
    expect(outputBytes(JSON.stringify(all))).toBeGreaterThan(JOB_OUTPUTS_LIMIT_BYTES);

    expect(outputFileBytes(run)).toBeLessThan(JOB_OUTPUTS_LIMIT_BYTES);
    const total = Object.values(run.outputs).reduce((n, v) => n + outputBytes(v), 0);
    expect(total).toBeLessThan(JOB_OUTPUTS_LIMIT_BYTES);
    const kept = JSON.parse(run.outputs.violations ?? "") as unknown[];
    const omitted = Number(run.outputs["violations-omitted"]);
    expect(kept.length).toBeGreaterThan(1000);
    expect(omitted).toBeGreaterThan(0);
    expect(kept.length + omitted).toBe(10_000);
    // The first entries, as the evidence has them.
    expect(kept).toEqual(all.slice(0, kept.length));
    expect(run.outputs["properties-omitted"]).toBe("0");
    expect(run.stdout).toContain(`${omitted} more are left out (violations-omitted)`);
  });

  it("clean twin: a few violations are all in the output, and violations-omitted is 0", async () => {
    const run = await gateLog([
      { kind: "write", path: "/elsewhere/a.txt", op: "write" },
      { kind: "tool", name: "curl" },
    ]);
    expect(run.exitCode).toBe(1);
    const kept = JSON.parse(run.outputs.violations ?? "") as { id: string }[];
    expect(kept.map((v) => v.id).sort()).toEqual(["undeclared_tool:curl", "write_outside_root:/elsewhere/a.txt"]);
    expect(run.outputs["violations-omitted"]).toBe("0");
    expect(run.stdout).not.toContain("left out (violations-omitted)");
  });
});
