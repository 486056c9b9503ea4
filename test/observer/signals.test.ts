import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { RunControl } from "../../src/observer/signals.js";

const controls: RunControl[] = [];
afterEach(() => {
  for (const c of controls.splice(0)) c.unlisten();
});

function sleeper() {
  const child = spawn("sleep", ["120"], { stdio: "ignore" });
  return { child, ended: once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]> };
}

describe("RunControl", () => {
  it("a SIGTERM that came while no stage ran stops the stage's child as soon as it is given", async () => {
    const control = new RunControl();
    controls.push(control);
    control.listen();
    process.emit("SIGTERM", "SIGTERM");
    const { child, ended } = sleeper();
    control.running(child);
    const [, signal] = await ended;
    expect(signal).toBe("SIGKILL");
    expect(control.interrupted).toBe("SIGTERM");
    expect(() => control.throwIfInterrupted()).toThrow(/interrupted by SIGTERM/);
  });

  it("clean twin: with no signal the child given runs on until the stage stops it", async () => {
    const control = new RunControl();
    controls.push(control);
    control.listen();
    const { child, ended } = sleeper();
    control.running(child);
    const late = await Promise.race([ended.then(() => "exited"), new Promise((r) => setTimeout(() => r("running"), 300))]);
    expect(late).toBe("running");
    expect(control.interrupted).toBeNull();
    control.stop();
    const [, signal] = await ended;
    expect(signal).toBe("SIGKILL");
  });
});
