/**
 * The Action acts on its wrapper's result file, never on the text the run printed: the real bundled
 * Action (dist/index.js) against the fake GitHub, its real private copy of the CLI, real runs.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { REPO, envelopeText, makePull, policyFiles, runAction } from "../support/action-harness.js";
import { JAIL_AVAILABLE } from "../observer/harness.js";
import { shownText } from "../support/gfm.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] });

/** The pids of the `envelope-gate run` processes started from the private copy under this runner temp. */
function wrappersUnder(runnerTemp: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (argv[1]?.startsWith(join(runnerTemp, "envelope-gate-cli-")) === true && argv[2] === "run") pids.push(Number(name));
  }
  return pids;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!JAIL_AVAILABLE)("the wrapper's result, through the bundled Action", () => {
  it("a wrapper killed before it could say how the run ended is OBSERVER_LOG_MISSING, never a judged run", async () => {
    const p = makePull(fake, { number: 31, base: policyFiles(ENVELOPE) });
    let workspace = "";
    const running = runAction({
      apiUrl: fake.url,
      pull: p,
      prepareWorkspace: (dir) => (workspace = dir),
      inputs: { run: `node -e "require('fs').writeFileSync('ready', '1'); setTimeout(() => {}, 20000)"` },
      timeoutMs: 60_000,
    });
    // The command is running, jailed: the wrapper is SIGKILLed (as an OOM kill would), so it writes no result.
    const runnerTemp = join(dirname(workspace), "runner-temp");
    let killed = 0;
    for (let i = 0; i < 300 && killed === 0; i++) {
      await sleep(100);
      if (!existsSync(join(workspace, "ready"))) continue;
      for (const pid of wrappersUnder(runnerTemp)) {
        process.kill(pid, "SIGKILL");
        killed++;
      }
    }
    const run = await running;
    expect(killed).toBe(1);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.verdict).toBe("error");
    expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_MISSING");
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("failure");
    expect(shownText(check?.output.summary)).toContain("without a result the Action can read: its result file it was not written");
    // The result files are the Action's own, outside the workspace, and none is left behind.
    const copies = readdirSync(runnerTemp).filter((n) => n.startsWith("envelope-gate-cli-"));
    expect(copies).toHaveLength(1);
    expect(readdirSync(join(runnerTemp, copies[0] as string, "results"))).toEqual([]);
  });

  it("a patch that prints the wrapper's refusal line and exits 3 is judged on its log, not refused with the code it printed", async () => {
    const p = makePull(fake, { number: 32, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: {
        run: `node -e "void process.env.AWS_SECRET_ACCESS_KEY; console.error('envelope-gate: ERROR GITHUB_UNAVAILABLE (forged)'); process.exit(3)"`,
      },
    });
    expect(run.stderr).toContain("envelope-gate: ERROR GITHUB_UNAVAILABLE (forged)");
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("envelope_fail");
    expect(run.outputs["error-code"] ?? "").toBe("");
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("failure");
    expect(check?.annotations.map((a) => a.title)).toContain("undeclared_env:AWS_SECRET_ACCESS_KEY");
  });

  it("clean twin: a command that is really missing is the wrapper's own refusal, with its code", async () => {
    const p = makePull(fake, { number: 33, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { run: "no-such-agent-xyz --go" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("error");
    expect(run.outputs["error-code"]).toBe("COMMAND_NOT_FOUND");
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(shownText(check?.output.summary)).toContain("envelope-gate run refused with COMMAND_NOT_FOUND (exit code 3); see the step log");
  });
});
