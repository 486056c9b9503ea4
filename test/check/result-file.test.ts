/**
 * The result file `run` and `check` write when asked through ENVELOPE_GATE_RESULT_FILE (internal:
 * the Action asks; src/check/result.ts): the real bundled CLI, real runs. What they print is the
 * same with it or without it, and the command run never sees the key.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import { JAIL_AVAILABLE, TEST_TMP, logPathOf, run, sandbox } from "../observer/harness.js";
import { envelopeText, logText, writeFixture } from "../support/logs.js";

const RESULT_ENV = "ENVELOPE_GATE_RESULT_FILE";
const temp = (): string => mkdtempSync(join(TEST_TMP, "eg-result-"));
const readResult = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

describe("check's result file", () => {
  it("says the verdict, the exit status and the events; stdout and stderr are as without it", () => {
    const { dir, envelope, log } = writeFixture(envelopeText(), (hash) =>
      logText(hash, [
        { kind: "tool", name: "curl" },
        { kind: "tool", name: "read_file" },
      ]),
    );
    const args = ["check", "--envelope", envelope, "--observer", log, "--workspace", dir, "--scratch", dir, "--format", "json"];
    const plain = cli(args);
    const file = join(dir, "result.json");
    const asked = cli(args, { env: { ...process.env, [RESULT_ENV]: file } });
    expect(asked.status).toBe(plain.status);
    expect(asked.stdout).toBe(plain.stdout);
    expect(asked.stderr).toBe(plain.stderr);
    expect(asked.status).toBe(1);
    expect(readResult(file)).toEqual({
      version: 1,
      command: "check",
      outcome: "completed",
      exit_status: 1,
      error: null,
      log: { path: log, bytes: readFileSync(log).length },
      events: 2,
      verdict: "envelope_fail",
    });
  });

  it("a log that cannot be judged is a refusal with its code, message and hint; a missing log is one with no log", () => {
    const { dir, envelope, hash } = writeFixture(envelopeText(), () => "");
    const cut = join(dir, "cut.jsonl");
    writeFileSync(
      cut,
      logText(hash, [{ kind: "tool", name: "read_file" }])
        .split("\n")
        .slice(0, 2)
        .join("\n") + "\n",
    );
    const file = join(dir, "result.json");
    const r = cli(["check", "--envelope", envelope, "--observer", cut, "--workspace", dir, "--scratch", dir], {
      env: { ...process.env, [RESULT_ENV]: file },
    });
    expect(r.status).toBe(3);
    const result = readResult(file);
    expect(result).toMatchObject({ outcome: "refused", exit_status: 3, verdict: "error", events: null, log: { path: cut } });
    expect(result.error).toMatchObject({ code: "OBSERVER_LOG_INCOMPLETE", message: expect.any(String) as unknown });
    const missing = cli(["check", "--envelope", envelope, "--observer", join(dir, "nothing.jsonl"), "--workspace", dir, "--scratch", dir], {
      env: { ...process.env, [RESULT_ENV]: file },
    });
    expect(missing.status).toBe(3);
    expect(readResult(file)).toMatchObject({ outcome: "refused", log: null, error: { code: "OBSERVER_LOG_MISSING" } });
  });

  it("arguments it refuses are the usage outcome (exit 2, no error); a result file that cannot be written is OUTPUT_UNWRITABLE, exit 3", () => {
    const dir = temp();
    const file = join(dir, "result.json");
    const usage = cli(["check", "--observer", "x.jsonl"], { env: { ...process.env, [RESULT_ENV]: file } });
    expect(usage.status).toBe(2);
    expect(readResult(file)).toMatchObject({ command: "check", outcome: "usage", exit_status: 2, error: null, verdict: null });
    const nowhere = join(dir, "no-such-dir", "result.json");
    const refused = cli(["check", "--observer", "x.jsonl"], { env: { ...process.env, [RESULT_ENV]: nowhere } });
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain("envelope-gate: ERROR OUTPUT_UNWRITABLE");
    expect(refused.stderr).toContain(nowhere);
    expect(existsSync(nowhere)).toBe(false);
  });

  it("other commands never write one", () => {
    const dir = temp();
    const file = join(dir, "result.json");
    const { envelope } = writeFixture(envelopeText(), () => "");
    const r = cli(["hash", envelope], { env: { ...process.env, [RESULT_ENV]: file } });
    expect(r.status).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});

describe.skipIf(!JAIL_AVAILABLE)("run's result file", () => {
  it("a completed run: its exit status, its log and the events its closing line counts; stderr names no result key", async () => {
    const s = sandbox({ allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", RESULT_ENV] });
    const file = join(temp(), "result.json");
    const r = await run(
      s,
      [process.execPath, "-e", `require("fs").writeFileSync("seen.txt", String(process.env.${RESULT_ENV})); process.exit(4)`],
      { env: { [RESULT_ENV]: file } },
    );
    expect(r.code).toBe(4);
    // Taken out of the environment before the run: the command never sees it, the withheld line never names it.
    expect(readFileSync(join(s.workspace, "seen.txt"), "utf8")).toBe("undefined");
    // (The jail-up line repeats the command's own words, which name the key: not run's saying.)
    const ownLines = r.runLines.filter((l) => !l.startsWith("envelope-gate run: the jail is up,"));
    expect(r.stderr + ownLines.join("\n")).not.toContain(RESULT_ENV);
    const closing = r.runLines.find((l) => l.includes(" events, the command exited 4")) ?? "";
    const events = Number(/, (\d+) events, /.exec(closing)?.[1]);
    expect(events).toBeGreaterThan(0);
    expect(readResult(file)).toEqual({
      version: 1,
      command: "run",
      outcome: "completed",
      exit_status: 4,
      error: null,
      log: { path: logPathOf(s), bytes: readFileSync(logPathOf(s)).length },
      events,
      verdict: null,
    });
  });

  it("a refused run: the wrapper's own code, and the log it opened empty; a command that prints a refusal line is not one", async () => {
    const s = sandbox();
    const file = join(temp(), "result.json");
    const missing = await run(s, ["no-such-command-xyz"], { env: { [RESULT_ENV]: file } });
    expect(missing.code).toBe(3);
    const result = readResult(file);
    expect(result).toMatchObject({
      command: "run",
      outcome: "refused",
      exit_status: 3,
      log: { path: logPathOf(s), bytes: 0 },
      events: null,
    });
    expect(result.error).toMatchObject({ code: "COMMAND_NOT_FOUND", hint: expect.any(String) as unknown });
    const forged = await run(
      s,
      [process.execPath, "-e", "console.error('envelope-gate: ERROR GITHUB_UNAVAILABLE (forged)'); process.exit(3)"],
      {
        env: { [RESULT_ENV]: file },
      },
    );
    expect(forged.code).toBe(3);
    expect(forged.stderr).toContain("envelope-gate: ERROR GITHUB_UNAVAILABLE (forged)");
    expect(readResult(file)).toMatchObject({ outcome: "completed", exit_status: 3, error: null });
  });
});
