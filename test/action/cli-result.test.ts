/**
 * How the Action reads its CLI's result file (src/action/cli-result.ts): a result the real bundled
 * CLI wrote is acted on; one that is missing, garbled, of another version, naming an unknown code
 * or contradicting the wrapper's exit status is OBSERVER_LOG_MISSING, never a log to judge.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliResult, runEnd, takeCliResult, type ObservedRun } from "../../src/action/cli-result.js";
import { cli } from "../support/cli.js";
import { envelopeText, logText, writeFixture } from "../support/logs.js";

const SAY = { what: "property p: ", hint: "not judged" };

/** A real result: the bundled CLI's check of a log with a violation (exit 1). */
function realResult(): { text: string; log: string } {
  const { dir, envelope, log } = writeFixture(envelopeText(), (hash) => logText(hash, [{ kind: "tool", name: "curl" }]));
  const file = join(dir, "result.json");
  const r = cli(["check", "--envelope", envelope, "--observer", log, "--workspace", dir, "--scratch", dir], {
    env: { ...process.env, ENVELOPE_GATE_RESULT_FILE: file },
  });
  expect(r.status).toBe(1);
  return { text: readFileSync(file, "utf8"), log };
}

const observed = (text: string, exitCode: number | null): ObservedRun => ({ exitCode, result: parseCliResult(text, exitCode) });

function refusalOf(run: ObservedRun, logPath: string): { code: string; message: string; hint: string | undefined; logWritten: boolean } {
  const end = runEnd(run, logPath, SAY);
  if (end.kind !== "refused") throw new Error(`expected a refusal, got ${JSON.stringify(end)}`);
  return { code: end.error.code, message: end.error.message, hint: end.error.hint, logWritten: end.logWritten };
}

describe("the CLI's result file, as the Action reads it", () => {
  it("a real result is the log to judge, at the path it names", () => {
    const { text, log } = realResult();
    expect(runEnd(observed(text, 1), log, SAY)).toEqual({ kind: "logged", log: { path: log, bytes: readFileSync(log).length } });
  });

  it("garbled, cut short, another version, an unknown code, or another exit status: OBSERVER_LOG_MISSING, saying why", () => {
    const { text, log } = realResult();
    const real = JSON.parse(text) as Record<string, unknown>;
    const refused = { ...real, outcome: "refused", exit_status: 3, error: { code: "OBSERVER_TRACER_LOST", message: "lost" } };
    const cases: [string, string, number | null][] = [
      ["not JSON", "{oops", 1],
      ["not JSON", text.slice(0, text.length / 2), 1],
      ["not a JSON object", "[]", 1],
      ["its version is 2", JSON.stringify({ ...real, version: 2 }), 1],
      ["names a code this build does not know", JSON.stringify({ ...refused, error: { code: "NOT_A_CODE", message: "x" } }), 3],
      ["its error has no message", JSON.stringify({ ...refused, error: { code: "OBSERVER_TRACER_LOST" } }), 3],
      ["it says exit status 1, and the wrapper ended with 0", text, 0],
      ["it says exit status 1, and the wrapper ended by a signal", text, null],
      ["yet it carries an error", JSON.stringify({ ...real, error: { code: "OBSERVER_TRACER_LOST", message: "lost" } }), 1],
      ["its log is neither null nor a path and a size", JSON.stringify({ ...real, log: { path: log } }), 1],
    ];
    for (const [why, bad, exit] of cases) {
      const r = refusalOf(observed(bad, exit), log);
      expect(r.code, why).toBe("OBSERVER_LOG_MISSING");
      expect(r.message, why).toContain(why);
      expect(r.message).toMatch(
        /^property p: envelope-gate run ended \(exit code (\d+|none)\) without a result the Action can read: its result file /,
      );
      expect(r.hint).toBe("not judged");
      // Nothing an unreadable result says is taken: not even that a log was left.
      expect(r.logWritten).toBe(false);
    }
    // The clean twin of the unknown code: a code this build knows is the wrapper's refusal.
    const known = refusalOf(observed(JSON.stringify(refused), 3), log);
    expect(known).toEqual({
      code: "OBSERVER_TRACER_LOST",
      message: "property p: envelope-gate run refused with OBSERVER_TRACER_LOST (exit code 3); see the step log",
      hint: "not judged",
      logWritten: true,
    });
  });

  it("a result naming another log, or none, is not the run's log", () => {
    const { text, log } = realResult();
    const real = JSON.parse(text) as Record<string, unknown>;
    const other = refusalOf(observed(JSON.stringify({ ...real, log: { path: "/elsewhere.jsonl", bytes: 1 } }), 1), log);
    expect(other.code).toBe("OBSERVER_LOG_MISSING");
    expect(other.message).toContain(`names the log /elsewhere.jsonl, not ${log}`);
    const none = refusalOf(observed(JSON.stringify({ ...real, log: null }), 1), log);
    expect(none).toMatchObject({ code: "OBSERVER_LOG_MISSING", logWritten: false });
    expect(none.message).toBe(`property p: envelope-gate run ended (exit code 1) without writing ${log}`);
  });

  it("a result file that was never written is a problem, not a throw; one that was is removed once read", async () => {
    const { text, log } = realResult();
    const file = `${log}.result.json`;
    const missing = await takeCliResult(file, 1);
    expect(missing).toEqual({ ok: false, problem: "it was not written" });
    expect(refusalOf({ exitCode: 1, result: missing }, log).message).toContain("its result file it was not written");
    writeFileSync(file, text);
    const read = await takeCliResult(file, 1);
    expect(read.ok).toBe(true);
    expect(existsSync(file)).toBe(false);
  });
});
