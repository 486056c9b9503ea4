import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { decideRecorder, recorderBinaryPath, recorderChoice, recorderLaunch } from "../../src/observer/recorder.js";

describe("the recorder's choice (pure)", () => {
  it("strace runs strace; ebpf runs the recorder or refuses naming why; auto falls back to strace and keeps the reason", () => {
    expect(decideRecorder("strace", null)).toEqual({ name: "strace" });
    const ok = { ok: true as const };
    const no = { ok: false as const, why: "no recorder binary at /r" };
    expect(decideRecorder("ebpf", ok)).toEqual({ name: "ebpf" });
    expect(decideRecorder("auto", ok)).toEqual({ name: "ebpf" });
    expect(decideRecorder("auto", no)).toEqual({ name: "strace", fallback: "no recorder binary at /r" });
    let thrown: unknown;
    try {
      decideRecorder("ebpf", no);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Refusal);
    expect((thrown as Refusal).code).toBe("RECORDER_UNAVAILABLE");
    expect((thrown as Refusal).message).toContain("no recorder binary at /r");
  });

  it("the flag wins over ENVELOPE_GATE_RECORDER, which wins over auto; other values are CONFIG_INVALID", () => {
    expect(recorderChoice(undefined, {})).toBe("auto");
    expect(recorderChoice(undefined, { ENVELOPE_GATE_RECORDER: "strace" })).toBe("strace");
    expect(recorderChoice("ebpf", { ENVELOPE_GATE_RECORDER: "strace" })).toBe("ebpf");
    expect(() => recorderChoice("bpf", {})).toThrow(/--recorder must be auto, ebpf or strace, got "bpf"/);
    expect(() => recorderChoice(undefined, { ENVELOPE_GATE_RECORDER: "EBPF" })).toThrow(/ENVELOPE_GATE_RECORDER must be/);
  });

  it("finds the binary beside the bundle, else in the repository's dist/ (running from src); the variable overrides both", () => {
    expect(recorderBinaryPath("x86_64", { ENVELOPE_GATE_RECORDER_BINARY: "/opt/r" })).toBe("/opt/r");
    expect(recorderBinaryPath("aarch64", {}, "/nowhere/dist/cli")).toBe("/nowhere/dist/recorder/envelope-gate-recorder-aarch64");
  });

  it("a binary that is not there, or not executable, cannot start", () => {
    expect(recorderLaunch("/nonexistent/recorder", null)).toEqual({ ok: false, why: "no recorder binary at /nonexistent/recorder" });
    const dir = mkdtempSync(join(tmpdir(), "eg-recorder-"));
    try {
      const plain = join(dir, "recorder");
      writeFileSync(plain, "not a program\n", { mode: 0o644 });
      expect(recorderLaunch(plain, null)).toEqual({ ok: false, why: `no recorder binary at ${plain}` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
