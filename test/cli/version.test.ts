/**
 * Issue 33: the release names itself (`--version`, check's JSON, the log's meta), `hash` warns on a
 * file that is not a valid envelope, and `run` says the jail is up while the command still runs.
 * The real bundle as a process; real jailed runs.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRODUCT, VERSION } from "../../src/core/version.js";
import { cli } from "../support/cli.js";
import { BASE_ENVELOPE, envelopeText, logText, tempDir, writeFixture } from "../support/logs.js";
import { CLI, JAIL_AVAILABLE, logPathOf, sandbox, type Sandbox } from "../observer/harness.js";

describe("the version", () => {
  it.each([["--version"], ["-V"], ["version"]])("%s prints the product and its version on stdout, exit 0", (flag) => {
    const r = cli([flag]);
    expect(r).toEqual({ status: 0, stdout: `envelope-gate ${VERSION}\n`, stderr: "" });
    expect(r.stdout).toBe(`${PRODUCT}\n`);
  });

  it("--help names the version on its first line and says how to ask for it", () => {
    const r = cli(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(PRODUCT);
    expect(r.stdout).toContain("envelope-gate --version");
  });

  it("check --format json says which release judged the log", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, [{ kind: "tool", name: "bash" }]));
    const r = cli(["check", "--envelope", fx.envelope, "--observer", fx.log, "--workspace", "/w", "--scratch", "/s", "--format", "json"]);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(report.verdict).toBe("envelope_fail");
    expect(report.envelope_gate_version).toBe(VERSION);
  });

  it("a log's meta.envelope_gate is read when it is a version and refused when it is not", () => {
    const judged = (release: unknown) => {
      const fx = writeFixture(envelopeText(), (h) => logText(h, [], { meta: { envelope_gate: release } }));
      const r = cli(["check", "--envelope", fx.envelope, "--observer", fx.log, "--workspace", "/w", "--scratch", "/s", "--format", "json"]);
      return JSON.parse(r.stdout) as { verdict: string; error: { code: string; message: string } | null };
    };
    expect(judged(VERSION).verdict).toBe("pass");
    expect(judged("1.1.0-rc.1").verdict).toBe("pass");
    for (const bad of ["v1.0.0", "", 1, "1.0"]) {
      const report = judged(bad);
      expect(report.error?.code, JSON.stringify(bad)).toBe("OBSERVER_LOG_MALFORMED");
      expect(report.error?.message).toContain('meta "envelope_gate"');
    }
  });
});

describe("hash on a file that is not a valid envelope", () => {
  it("prints the digest (exit 0) and warns on stderr with ENVELOPE_INVALID, the file and its line", () => {
    const dir = tempDir();
    const { allowed_tools: _dropped, ...withoutTools } = BASE_ENVELOPE;
    const text = JSON.stringify(withoutTools, null, 2) + "\n";
    writeFileSync(join(dir, "envelope.json"), text);
    const r = cli(["hash", "envelope.json"], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{64} {2}envelope\.json\n$/);
    const [warning, hint] = r.stderr.trimEnd().split("\n");
    expect(warning).toMatch(/^envelope-gate: warning: envelope\.json is not a valid envelope \(ENVELOPE_INVALID\): envelope\.json:1: /);
    expect(warning).toContain("allowed_tools");
    expect(hint).toMatch(/^ {2}what to do: /);
  });

  it("names the line of a JSON error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "draft.json"), '{\n  "envelope_id": "x",\n  oops\n}\n');
    const r = cli(["hash", "draft.json"], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("  draft.json\n");
    expect(r.stderr).toMatch(/^envelope-gate: warning: draft\.json is not a valid envelope \(ENVELOPE_INVALID\): draft\.json:3:\d+: /);
  });

  it("says nothing on stderr for a valid envelope", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    const r = cli(["hash", "envelope.json"], { cwd: fx.dir });
    expect(r).toEqual({ status: 0, stdout: readFileSync(fx.digest, "utf8"), stderr: "" });
  });
});

interface Watched {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stderr as it was when the command was let go: it had been waiting for this. */
  stderrWhenReleased: string | null;
}

/**
 * `run` of a command that waits, polling, until a file appears in the workspace; the file is made
 * only once `run`'s stderr says the jail is up. The command cannot end before that line.
 */
function runUntilJailUp(s: Sandbox, flags: string[]): Promise<Watched> {
  const go = join(s.workspace, "go");
  const waiter = `const fs = require("node:fs"); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); process.stdout.write("released\\n"); } }, 20);`;
  const child = spawn(
    process.execPath,
    [
      CLI,
      "run",
      "--envelope",
      s.envelope,
      "--observer",
      logPathOf(s),
      "--workspace",
      s.workspace,
      ...flags,
      "--",
      process.execPath,
      "-e",
      waiter,
    ],
    { cwd: s.workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  let stderrWhenReleased: string | null = null;
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (stderrWhenReleased === null && /^envelope-gate run: the jail is up, .*\n/m.test(stderr)) {
      stderrWhenReleased = stderr;
      writeFileSync(go, "");
    }
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr, stderrWhenReleased })));
}

describe.skipIf(!JAIL_AVAILABLE)("run says the jail is up while the command runs", () => {
  it("one stderr line, before the command ends, naming the command and the recorder; never on the command's stdout", async () => {
    const s = sandbox();
    const r = await runUntilJailUp(s, []);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("released\n");
    expect(r.stderrWhenReleased).not.toBeNull();
    const said = (r.stderrWhenReleased ?? "").split("\n").filter((l) => l.startsWith("envelope-gate run: the jail is up"));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      new RegExp(
        `^envelope-gate run: the jail is up, running ${process.execPath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} -e '.*… \\(recorder: (ebpf|strace)\\)$`,
      ),
    );
    // A long command is cut (the waiter's script is): the line stays one line of reasonable length.
    expect((said[0] ?? "").length).toBeLessThan(300);
    // The closing line came after it, once the command had ended.
    expect(r.stderrWhenReleased).not.toMatch(/envelope-gate run: log /);
    expect(r.stderr).toMatch(/envelope-gate run: log .*, the command exited 0/);
    expect(r.stderr.match(/the jail is up/g)).toHaveLength(1);
    // The log names the release that recorded it.
    const meta = JSON.parse(readFileSync(logPathOf(s), "utf8").split("\n")[0] as string) as { envelope_gate: string };
    expect(meta.envelope_gate).toBe(VERSION);
  });

  it("with --node-only too, where no recorder sees the start: said once bubblewrap is started", async () => {
    const s = sandbox({ observation: "node" });
    const r = await runUntilJailUp(s, ["--node-only"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("released\n");
    expect(r.stderrWhenReleased).toMatch(/^envelope-gate run: the jail is up, running .* \(recorder: none, Node hooks only\)$/m);
    expect(existsSync(logPathOf(s))).toBe(true);
  });
});
