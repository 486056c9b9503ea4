/**
 * The command line's `main`, called in this process (src/cli/index.ts is the program that calls
 * it once): nothing one invocation judged is carried into the next, and the result file names the
 * log the command itself took from its arguments.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { envelopeText, logText, writeFixture } from "../support/logs.js";

const RESULT_ENV = "ENVELOPE_GATE_RESULT_FILE";
const readResult = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

async function mainWithResult(argv: string[], file: string): Promise<number> {
  process.env[RESULT_ENV] = file;
  try {
    return await main(argv);
  } finally {
    delete process.env[RESULT_ENV];
  }
}

describe("main, twice in one process", () => {
  it("a check refused by its arguments after a check that refused its log says usage, not the earlier refusal", async () => {
    // An empty log: check refuses it (OBSERVER_LOG_INCOMPLETE).
    const { dir, envelope, log: cut } = writeFixture(envelopeText(), () => "");
    const first = join(dir, "first.json");
    expect(await mainWithResult(["check", "--envelope", envelope, "--observer", cut, "--workspace", dir, "--scratch", dir], first)).toBe(3);
    expect(readResult(first)).toMatchObject({ outcome: "refused", error: { code: "OBSERVER_LOG_INCOMPLETE" }, log: { path: cut } });

    const second = join(dir, "second.json");
    expect(await mainWithResult(["check", "--observer", cut], second)).toBe(2);
    expect(readResult(second)).toEqual({
      version: 1,
      command: "check",
      outcome: "usage",
      exit_status: 2,
      error: null,
      log: { path: cut, bytes: readFileSync(cut).length },
      events: null,
      verdict: null,
    });
  });

  it("a check passed after a refused one reports its own verdict and events, and the log it was given", async () => {
    const { dir, envelope, log } = writeFixture(envelopeText(), (hash) => logText(hash, [{ kind: "tool", name: "read_file" }]));
    const refused = join(dir, "refused.json");
    expect(await mainWithResult(["check", "--envelope", join(dir, "absent.json"), "--observer", log], refused)).toBe(3);
    expect(readResult(refused)).toMatchObject({
      outcome: "refused",
      error: { code: "ENVELOPE_MISSING" },
      log: { path: log },
      events: null,
    });
    const passed = join(dir, "passed.json");
    const args = ["check", "--envelope", envelope, "--observer", log, "--workspace", dir, "--scratch", dir, "--format", "json"];
    expect(await mainWithResult(args, passed)).toBe(0);
    expect(readResult(passed)).toMatchObject({ outcome: "completed", error: null, verdict: "pass", events: 1, log: { path: log } });
  });
});
