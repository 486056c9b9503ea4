import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { REPO_ROOT, cli } from "../support/cli.js";
import { envelopeText, logText, writeFixture } from "../support/logs.js";

const ROOTS = ["--workspace", "/work/repo", "--scratch", "/tmp/agent-scratch"];

function checkJson(args: string[]) {
  const r = cli(["check", ...args, "--format", "json"]);
  return {
    status: r.status,
    report: JSON.parse(r.stdout) as {
      error: { code: string; message?: string; file?: string; line?: number } | null;
      violations: { id: string }[];
      [key: string]: unknown;
    },
    stderr: r.stderr,
  };
}

describe("envelope-gate hash / verify", () => {
  it("prints a sha256sum line that sha256sum itself accepts, and verify agrees", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    const r = cli(["hash", "envelope.json"], { cwd: fx.dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(readFileSync(fx.digest, "utf8"));
    const v = cli(["verify", "--envelope", fx.envelope]);
    expect(v.status).toBe(0);
    expect(v.stdout).toContain(fx.hash);
  });

  it("refuses a changed envelope with exit 3 and ENVELOPE_HASH_MISMATCH", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    writeFileSync(fx.envelope, envelopeText({ allowed_tools: ["bash"] }));
    const v = cli(["verify", "--envelope", fx.envelope]);
    expect(v.status).toBe(3);
    expect(v.stderr).toContain("ENVELOPE_HASH_MISMATCH");
    expect(v.stderr).toContain("what to do:");
  });

  it("refuses a missing digest with ENVELOPE_DIGEST_MISSING; there is no flag to skip it", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    rmSync(fx.digest);
    expect(cli(["verify", "--envelope", fx.envelope]).stderr).toContain("ENVELOPE_DIGEST_MISSING");
    expect(cli(["verify", "--envelope", fx.envelope, "--no-verify"]).status).toBe(2);
    expect(cli(["verify", "--envelope", fx.envelope, "--skip-digest"]).status).toBe(2);
  });

  it("reads a digest from --sha256", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    const moved = join(fx.dir, "pinned.sha256");
    writeFileSync(moved, readFileSync(fx.digest));
    rmSync(fx.digest);
    expect(cli(["verify", "--envelope", fx.envelope, "--sha256", moved]).status).toBe(0);
  });
});

describe("envelope-gate check", () => {
  it("exits 0 with verdict pass on a clean log", () => {
    const fx = writeFixture(envelopeText(), (h) =>
      logText(h, [
        { kind: "write", path: "/work/repo/a", op: "write" },
        { kind: "tool", name: "run_tests" },
      ]),
    );
    const { status, report } = checkJson(["--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(status).toBe(0);
    expect(report).toMatchObject({
      verdict: "pass",
      envelope_id: "agent-patch-envelope-v3",
      envelope_hash: fx.hash,
      events: 2,
      violations: [],
      error: null,
    });
  });

  it("exits 1 with the contract's json on violations", () => {
    const fx = writeFixture(envelopeText(), (h) =>
      logText(h, [
        { kind: "tool", name: "curl" },
        { kind: "tool", name: "curl" },
        { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
      ]),
    );
    const { status, report } = checkJson(["--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(status).toBe(1);
    expect(report.verdict).toBe("envelope_fail");
    expect(report.violations).toEqual([
      { id: "undeclared_tool:curl", rule: "undeclared_tool", subject: "curl", first_line: 2, count: 2 },
      { id: "undeclared_env:AWS_SECRET_ACCESS_KEY", rule: "undeclared_env", subject: "AWS_SECRET_ACCESS_KEY", first_line: 4, count: 1 },
    ]);
  });

  it("prints the verdict first, one line per violation, then the envelope, as text", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, [{ kind: "write", path: "/etc/passwd", op: "write" }]));
    const r = cli(["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^envelope-gate: FAIL/);
    expect(lines[1]).toMatch(/write_outside_root:\/etc\/passwd\s+first at line 2, 1 time/);
    expect(lines[2]).toContain(fx.hash);
  });

  it("a violation id the run chose cannot rewrite the terminal: escape sequences, carriage returns and bidi controls are shown, not sent", () => {
    // Printed raw, the second key moves the cursor up and erases the line that names the first.
    const fx = writeFixture(envelopeText(), (h) =>
      logText(h, [
        { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
        { kind: "env", key: "Z\x1b[1A\x1b[2K\r" },
        { kind: "write", path: "/etc/\u202epasswd", op: "write" },
      ]),
    );
    const r = cli(["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(r.status).toBe(1);
    // eslint-disable-next-line no-control-regex -- what must not reach a terminal
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]/);
    const lines = r.stdout.trim().split("\n");
    expect(lines[1]).toMatch(/^ {2}undeclared_env:AWS_SECRET_ACCESS_KEY +first at line 2/);
    expect(r.stdout).toContain("undeclared_env:Z\\u{001B}[1A\\u{001B}[2K ");
    expect(r.stdout).toContain("write_outside_root:/etc/\\u{202E}passwd");
    // The JSON report keeps the ids exactly as recorded (JSON escapes what it must).
    expect(checkJson(["--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]).report.violations.map((v) => v.id)).toContain(
      "undeclared_env:Z\x1b[1A\x1b[2K\r",
    );
  });

  it.each([
    ["a missing envelope", (fx: ReturnType<typeof writeFixture>) => rmSync(fx.envelope), "ENVELOPE_MISSING"],
    [
      "an unreadable envelope",
      (fx: ReturnType<typeof writeFixture>) => (rmSync(fx.envelope), mkdirSync(fx.envelope)),
      "ENVELOPE_UNREADABLE",
    ],
    ["a missing digest", (fx: ReturnType<typeof writeFixture>) => rmSync(fx.digest), "ENVELOPE_DIGEST_MISSING"],
    [
      "an unreadable digest",
      (fx: ReturnType<typeof writeFixture>) => (rmSync(fx.digest), mkdirSync(fx.digest)),
      "ENVELOPE_DIGEST_UNREADABLE",
    ],
    [
      "a wrong digest",
      (fx: ReturnType<typeof writeFixture>) => writeFileSync(fx.digest, `${"0".repeat(64)}  envelope.json\n`),
      "ENVELOPE_HASH_MISMATCH",
    ],
    ["a garbled digest", (fx: ReturnType<typeof writeFixture>) => writeFileSync(fx.digest, "hello\n"), "ENVELOPE_DIGEST_INVALID"],
    ["a missing log", (fx: ReturnType<typeof writeFixture>) => rmSync(fx.log), "OBSERVER_LOG_MISSING"],
    ["an unreadable log", (fx: ReturnType<typeof writeFixture>) => (rmSync(fx.log), mkdirSync(fx.log)), "OBSERVER_LOG_UNREADABLE"],
    [
      "a truncated log",
      (fx: ReturnType<typeof writeFixture>) => writeFileSync(fx.log, readFileSync(fx.log, "utf8").slice(0, -15)),
      "OBSERVER_LOG_INCOMPLETE",
    ],
    [
      "a log with bad JSON",
      (fx: ReturnType<typeof writeFixture>) =>
        writeFileSync(fx.log, readFileSync(fx.log, "utf8").replace('"kind":"tool"', '"kind":"tool"}}')),
      "OBSERVER_LOG_MALFORMED",
    ],
  ])("exits 3 on %s", (_name, breakIt, code) => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, [{ kind: "tool", name: "curl" }]));
    breakIt(fx);
    const { status, report } = checkJson(["--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(status).toBe(3);
    expect(report.verdict).toBe("error");
    expect(report.error?.code).toBe(code);
    expect(report.violations).toEqual([]);
  });

  it.each([
    ["an empty log", "", "OBSERVER_LOG_INCOMPLETE"],
    ["a log whose first line is not meta", '{"kind":"tool","name":"curl"}\n', "OBSERVER_LOG_MALFORMED"],
  ])("says what is wrong with %s, not that a root variable has no value (no --workspace: the log names none)", (_name, text, code) => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    writeFileSync(fx.log, text);
    const { status, report } = checkJson(["--envelope", fx.envelope, "--observer", fx.log]);
    expect(status).toBe(3);
    expect(report.error?.code).toBe(code);
    if (text === "") expect(report.error?.message).toContain("empty");
  });

  it("exits 3 with ROOT_VARIABLE_UNDEFINED when a root variable has no value", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    const { status, report } = checkJson(["--envelope", fx.envelope, "--observer", fx.log, "--workspace", "/work/repo"]);
    expect(status).toBe(3);
    expect(report.error).toMatchObject({ code: "ROOT_VARIABLE_UNDEFINED", file: fx.envelope, line: 5 });
  });

  it("exits 3 when the log was recorded under another envelope", () => {
    const fx = writeFixture(envelopeText(), () => logText("sha256:" + "1".repeat(64), []));
    expect(checkJson(["--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]).report.error?.code).toBe(
      "OBSERVER_LOG_ENVELOPE_MISMATCH",
    );
  });

  it("shows the error's file, line and what to do as text", () => {
    const fx = writeFixture(envelopeText(), (h) => logText(h, []));
    writeFileSync(fx.log, readFileSync(fx.log, "utf8").replace("\n", "\nnot json\n"));
    const r = cli(["check", "--envelope", fx.envelope, "--observer", fx.log, ...ROOTS]);
    expect(r.status).toBe(3);
    expect(r.stdout).toContain("ERROR OBSERVER_LOG_MALFORMED");
    expect(r.stdout).toContain(`${fx.log}:2`);
    expect(r.stdout).toContain("what to do:");
  });

  it.each([
    [["check"]],
    [["check", "--envelope", "e"]],
    [["check", "--envelope", "e", "--observer", "o", "--format", "xml"]],
    [["frobnicate"]],
    [["check", "--bogus"]],
    [[]],
  ])("exits 2 on bad usage %#", (args) => {
    expect(cli(args).status).toBe(2);
  });

  it("runs the bundled example from the README quick start", () => {
    const r = cli(["check", "--envelope", "examples/envelope.json", "--observer", "examples/observer.jsonl", ...ROOTS, "--format", "json"]);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.violations.map((v: { rule: string }) => v.rule).sort()).toEqual([
      "network_denied",
      "undeclared_env",
      "undeclared_tool",
      "write_outside_root",
    ]);
  });
});

describe("npm run example (the README quick start)", () => {
  it("records both example agents under the observer: the overstepping one fails, its twin passes", () => {
    const r = spawnSync(process.execPath, ["scripts/example.mjs"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    for (const id of [
      "undeclared_env:AWS_SECRET_ACCESS_KEY",
      "undeclared_tool:bash",
      "write_outside_root:/var/tmp/envelope-gate-example-outside.txt",
      "network_denied:exfil.example.net:443",
    ]) {
      expect(r.stdout).toContain(id);
    }
    // Four acts, plus the machine's resolver that its DNS lookup reached for (machine-specific).
    expect(r.stdout).toMatch(/FAIL \(envelope_fail\): [45] distinct violations/);
    expect(r.stdout).toMatch(/PASS \(pass\): no violations/);
  });
});
