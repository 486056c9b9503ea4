import { afterEach, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { deliver, processEnv } from "./helpers.js";
import { runCli, startAppProcess, type AppProcess } from "./process.js";

/** The App's JSON log lines (other output, such as the listening line, is left out). */
function logLines(output: string): { level: string; event: string }[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: string; event: string });
}

describe("ENVELOPE_GATE_LOG_LEVEL", () => {
  let fake: FakeGitHub;
  let app: AppProcess | null = null;
  afterEach(async () => {
    await app?.stop();
    app = null;
    await fake?.close();
  });

  /** Starts the App at a level, delivers one signed ping and one forged one, stops it, and returns its log. */
  async function logAt(level: string | null): Promise<{ level: string; event: string }[]> {
    fake = await startFakeGitHub();
    app = await startAppProcess(processEnv(fake, level === null ? {} : { ENVELOPE_GATE_LOG_LEVEL: level }));
    expect((await deliver(app.url, "ping", { zen: "Keep it logically awesome.", hook_id: 1 })).status).toBe(202);
    expect((await deliver(app.url, "ping", { zen: "x", hook_id: 1 }, { secret: "not-the-secret-at-all" })).status).toBe(401);
    const running = app;
    await running.stop();
    app = null;
    return logLines(running.output());
  }

  it("debug lines are written at debug only; info (the default) writes info and above; warn leaves info out", async () => {
    const debug = await logAt("debug");
    expect(debug.filter((l) => l.level === "debug").map((l) => l.event)).toContain("webhook.received");
    expect(debug.map((l) => l.event)).toContain("app.started");
    await fake.close();

    const info = await logAt(null);
    expect(info.filter((l) => l.level === "debug")).toEqual([]);
    expect(info.map((l) => l.event)).toContain("app.started");
    expect(info.map((l) => l.event)).toContain("webhook.refused");
    await fake.close();

    const warn = await logAt("WARN");
    expect(warn.filter((l) => l.level === "debug" || l.level === "info")).toEqual([]);
    expect(warn.map((l) => l.event)).toContain("webhook.refused");
  });

  it("an unknown level is a configuration error naming the variable, exit 3, before listening", async () => {
    fake = await startFakeGitHub();
    const res = await runCli(["app", "start"], processEnv(fake, { ENVELOPE_GATE_LOG_LEVEL: "verbose" }));
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(
      'envelope-gate app start: configuration error (CONFIG_INVALID): ENVELOPE_GATE_LOG_LEVEL must be one of error, warn, info, debug, got "verbose"',
    );
    expect(res.stdout).not.toContain("listening");
  });
});

describe("app commands' refusals read as what they are", () => {
  it("a bad setting is a configuration error, not the gate's 'could not evaluate; this is not a pass'", async () => {
    const res = await runCli(["app", "start"], {
      PATH: process.env.PATH,
      ENVELOPE_GATE_APP_ID: "not-a-number",
      ENVELOPE_GATE_WEBHOOK_SECRET: "x".repeat(20),
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^envelope-gate app start: configuration error \(CONFIG_INVALID\): /);
    expect(res.stderr).not.toContain("this is not a pass");
  });

  it("a store that cannot be opened is a refusal of the command, with its code and what to do", async () => {
    const res = await runCli(["app", "status"], { PATH: process.env.PATH, ENVELOPE_GATE_DB_PATH: "/proc/no-such/dir/app.sqlite" });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^envelope-gate app status: refused \(STORE_UNAVAILABLE\): /);
    expect(res.stderr).toContain("what to do:");
    expect(res.stderr).not.toContain("this is not a pass");
  });
});
