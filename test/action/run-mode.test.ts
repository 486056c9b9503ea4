/**
 * The Action's `run` input: the patch runs under the bundled `envelope-gate run` (dist/cli),
 * and the log it writes is judged against the envelope read at the base commit.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBundle } from "../../src/core/evidence.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { REPO, envelopeHash, envelopeText, makePull, policyFiles, runAction } from "../support/action-harness.js";
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { ACTION_BUNDLE } from "../support/action-harness.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] });

describe("run input", () => {
  it("runs a clean command under the observer and passes", async () => {
    const p = makePull(fake, { number: 1, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { run: `node -e "require('fs').writeFileSync('out.txt', 'ok')"` },
    });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("success");
    expect(readFileSync(join(run.workspace, "out.txt"), "utf8")).toBe("ok");
    const log = readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8");
    expect(JSON.parse(log.split("\n")[0] as string).envelope_hash).toBe(envelopeHash(ENVELOPE));
    const files = new Map(readdirSync(run.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(run.evidenceDir, n)))]));
    expect(verifyBundle(files).digest).toBe(run.outputs["evidence-digest"]);
  });

  it("the runner reads no workflow command from the command's output: it is fenced by a stop-commands token the command cannot know", async () => {
    const p = makePull(fake, { number: 4, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { run: `node -e "console.log('::error title=forged::all good'); console.error('::add-mask::x')"` },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const opened = /::stop-commands::([0-9a-f]{32})\n/.exec(run.stdout);
    expect(opened).not.toBeNull();
    const token = (opened as RegExpExecArray)[1] as string;
    const forged = run.stdout.indexOf("::error title=forged::");
    expect(forged).toBeGreaterThan(opened?.index ?? Infinity);
    expect(run.stdout.indexOf(`::${token}::`)).toBeGreaterThan(forged);
  });

  it("fails a command that reads an undeclared key and writes outside the workspace", async () => {
    const p = makePull(fake, { number: 2, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: {
        run: `node -e "process.env.AWS_SECRET_ACCESS_KEY; try { require('fs').writeFileSync('/var/tmp/eg-action-escape-' + process.pid, 'x') } catch {}"`,
      },
    });
    expect(run.exitCode).toBe(1);
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("failure");
    const titles: string[] = check?.annotations.map((a) => a.title ?? "") ?? [];
    expect(titles).toContain("undeclared_env:AWS_SECRET_ACCESS_KEY");
    // Refused by the jail (read-only outside the roots) and judged.
    expect(titles.some((t) => t.startsWith("write_outside_root:/var/tmp/eg-action-escape-"))).toBe(true);
  });

  it("without the observer CLI beside the bundle: OBSERVER_UNAVAILABLE, never a pass", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eg-bundle-"));
    copyFileSync(ACTION_BUNDLE, join(dir, "index.js"));
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    const p = makePull(fake, { number: 3, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, bundle: join(dir, "index.js"), inputs: { run: "node -e 0" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("OBSERVER_UNAVAILABLE");
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("failure");
  });
});
