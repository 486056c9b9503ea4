/**
 * The process recorder's choice and the eBPF recorder's handshake (docs/recorder-protocol.md),
 * through the real bundle. Each failure here is produced for real: a missing binary, a program
 * that is not a recorder, a wrapper without root, the real recorder refusing a setting, losing
 * records from a ring too small for the burst, and killed while the jail runs.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, ROOT, check, run, sandbox } from "./harness.js";

const RECORDER = join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64");
/** The real recorder can run here: its binary for this machine, and root. */
const EBPF = process.arch === "x64" && existsSync(RECORDER) && process.geteuid?.() === 0;

/** The pid of the recorder the wrapper `parent` started, once it runs. */
async function recorderOf(parent: number): Promise<number> {
  for (let i = 0; i < 600; i++) {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid === parent && readFileSync(`/proc/${name}/cmdline`, "utf8").includes("envelope-gate-recorder")) return Number(name);
      } catch {
        continue;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no recorder under ${parent}`);
}

async function until(path: string): Promise<void> {
  for (let i = 0; i < 1200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(!JAIL_AVAILABLE)("envelope-gate run: the process recorder", () => {
  it("--recorder ebpf with no recorder binary: RECORDER_UNAVAILABLE naming it, before meta", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { recorder: "ebpf", env: { ENVELOPE_GATE_RECORDER_BINARY: "/nonexistent/recorder" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("RECORDER_UNAVAILABLE");
    expect(r.stderr).toContain("no recorder binary at /nonexistent/recorder");
    expect(r.lines).toEqual([]);
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("--recorder ebpf with a program that is not a recorder (it exits before @ready): RECORDER_UNAVAILABLE", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { recorder: "ebpf", env: { ENVELOPE_GATE_RECORDER_BINARY: "/bin/false" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("RECORDER_UNAVAILABLE");
    expect(r.stderr).toContain("exited (status 1) before @ready");
    expect(r.lines).toEqual([]);
  });

  it.skipIf(!EBPF)("the recorder refusing to start (@error): RECORDER_UNAVAILABLE with its code and text", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { env: { ENVELOPE_GATE_RECORDER: "ebpf", ENVELOPE_GATE_RECORDER_RING_KIB: "3" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("RECORDER_UNAVAILABLE");
    expect(r.stderr).toContain("@error other ENVELOPE_GATE_RECORDER_RING_KIB must be a power of two from 4 to 1048576");
    expect(r.lines).toEqual([]);
  });

  it("auto with no recorder binary: strace records, said on stderr and in meta.recorder.fallback, and check accepts the log", async () => {
    const s = sandbox();
    const r = await run(s, ["sh", "-c", `echo x > ${s.workspace}/a.txt`], {
      env: { ENVELOPE_GATE_RECORDER_BINARY: "/nonexistent/recorder" },
    });
    expect(r.code).toBe(0);
    expect(r.lines[0]?.recorder).toEqual({ name: "strace", fallback: "no recorder binary at /nonexistent/recorder" });
    expect(r.runLines).toContain(
      "envelope-gate run: recorder strace (auto: the eBPF recorder cannot start: no recorder binary at /nonexistent/recorder)",
    );
    expect(r.lines.some((l) => l.kind === "write" && l.source === "process" && l.path === `${s.workspace}/a.txt`)).toBe(true);
    const report = await check(s);
    expect(report.error).toBeNull();
    expect(report.verdict).toBe("pass");
  });

  it("the flag wins over ENVELOPE_GATE_RECORDER; strace asked for says no fallback; a value that is none is CONFIG_INVALID", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], {
      recorder: "strace",
      env: { ENVELOPE_GATE_RECORDER: "ebpf", ENVELOPE_GATE_RECORDER_BINARY: "/nonexistent/recorder" },
    });
    expect(r.code).toBe(0);
    expect(r.lines[0]?.recorder).toEqual({ name: "strace" });
    expect(r.runLines).toContain("envelope-gate run: recorder strace");
    const bad = await run(sandbox(), ["node", "-e", "0"], { env: { ENVELOPE_GATE_RECORDER: "bpftrace" } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("CONFIG_INVALID");
    expect(bad.stderr).toContain('ENVELOPE_GATE_RECORDER must be auto, ebpf or strace, got "bpftrace"');
  });

  it.skipIf(!CAN_RUN_AS_NOBODY)(
    "as nobody, --recorder ebpf is refused (not root, no passwordless sudo); auto falls back to strace",
    async () => {
      const s = sandbox();
      const r = await run(s, ["node", "-e", "0"], { asNobody: true, recorder: "ebpf" });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("RECORDER_UNAVAILABLE");
      expect(r.stderr).toMatch(/not root, and (`sudo -n true` fails|sudo was not found)/);
      const auto = await run(s, ["node", "-e", "0"], { asNobody: true });
      expect(auto.code).toBe(0);
      expect(auto.lines[0]?.recorder).toMatchObject({ name: "strace", fallback: expect.stringMatching(/^not root/) });
    },
  );

  it.skipIf(!EBPF)(
    "records the kernel could not deliver (a 64 KiB ring, a burst of writes, the reader stopped): OBSERVER_EVENTS_LOST",
    async () => {
      const s = sandbox();
      let wrapper = 0;
      const started = join(s.workspace, "started");
      // The ring is small enough for the burst to overflow it while the reader is stopped, and
      // large enough for the canary stage, which runs first, on a loaded machine too.
      const burst = `: > ${started}; sleep 1; i=0; while [ $i -lt 20000 ]; do : > ${s.workspace}/f$((i % 50)); i=$((i + 1)); done`;
      const running = run(s, ["sh", "-c", burst], {
        recorder: "ebpf",
        env: { ENVELOPE_GATE_RECORDER_RING_KIB: "64" },
        onStart: (pid) => (wrapper = pid),
      });
      await until(started);
      const recorder = await recorderOf(wrapper);
      process.kill(recorder, "SIGSTOP");
      await new Promise((r) => setTimeout(r, 3000));
      process.kill(recorder, "SIGCONT");
      const r = await running;
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("OBSERVER_EVENTS_LOST");
      expect(r.stderr).toMatch(/lost \d+ records? the kernel could not deliver/);
      expect(r.lines[0]?.recorder).toEqual({ name: "ebpf" });
      expect(r.lines.some((l) => l.kind === "end")).toBe(false);
      expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
    },
  );

  it.skipIf(!EBPF)("the recorder killed while the jail runs: OBSERVER_TRACER_LOST, and the jail is stopped", async () => {
    const s = sandbox();
    let wrapper = 0;
    const started = join(s.workspace, "started");
    const running = run(s, ["sh", "-c", `: > ${started}; sleep 600`], { recorder: "ebpf", onStart: (pid) => (wrapper = pid) });
    await until(started);
    process.kill(await recorderOf(wrapper), "SIGKILL");
    const r = await running;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_TRACER_LOST");
    expect(r.lines.some((l) => l.kind === "end")).toBe(false);
  });
});
