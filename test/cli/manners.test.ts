/**
 * The CLI a person expects (issue 20 item 7, and item 3's withheld keys): every subcommand's
 * --help, run's own stderr lines, check reading the roots from the log's meta, the scratch run
 * chose removed afterwards, progress only on a terminal. Real bundle, real jailed runs.
 */
import { giveToNobody } from "../support/nobody.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, CLI, JAIL_AVAILABLE, ROOT, logPathOf, program, sandbox, spawnNode, type Sandbox } from "../observer/harness.js";

const ESC = String.fromCharCode(27);
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/** The few keys a run needs from its caller, plus what a test adds. */
function callerEnv(s: Sandbox, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home, ...extra };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  log: string;
  meta: { workspace: string; scratch: string };
}

/** `envelope-gate run` as a person types it: no --scratch unless `flags` give one. */
async function runCli(s: Sandbox, command: string[], flags: string[] = [], env = callerEnv(s)): Promise<Ran> {
  const log = logPathOf(s);
  const r = await spawnNode([CLI, "run", "--envelope", s.envelope, "--observer", log, ...flags, "--", ...command], {
    cwd: s.workspace,
    env,
  });
  const first = existsSync(log) ? (readFileSync(log, "utf8").split("\n")[0] ?? "") : "";
  const meta = (first === "" ? {} : JSON.parse(first)) as Ran["meta"];
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, log, meta };
}

function checkCli(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [CLI, "check", ...args, "--format", "json"], { cwd, encoding: "utf8" });
  return {
    status: r.status,
    report: JSON.parse(r.stdout) as { verdict: string; events: number; violations: { id: string }[]; error: { code: string } | null },
  };
}

const lastLine = (text: string): string => text.trimEnd().split("\n").at(-1) ?? "";

describe("--help on every subcommand", () => {
  const top = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
  const commands = [...new Set([...top.stdout.matchAll(/^ {2}envelope-gate (\w+)/gm)].map((m) => m[1] as string))];

  it("the top-level usage lists the subcommands the CLI dispatches", () => {
    expect(top.status).toBe(0);
    expect(commands.sort()).toEqual(["app", "check", "hash", "run", "suggest", "verify"]);
  });

  it.each(["--help", "-h"])("each subcommand answers %s with its usage on stdout and exit 0", (flag) => {
    for (const name of commands) {
      const r = spawnSync(process.execPath, [CLI, name, flag], { encoding: "utf8" });
      expect({ name, status: r.status, stderr: r.stderr }).toEqual({ name, status: 0, stderr: "" });
      expect(r.stdout).toMatch(/^usage:/);
      expect(r.stdout).toContain(name);
    }
  });

  it("help among other flags still answers help; a --help after `--` is the command's, not run's", () => {
    const r = spawnSync(process.execPath, [CLI, "check", "--envelope", "x.json", "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("CHECK_OPTIONS_CONFLICT");
    const s = sandbox();
    const notHelp = spawnSync(
      process.execPath,
      [CLI, "run", "--envelope", join(s.base, "missing.json"), "--observer", logPathOf(s), "--", "node", "--help"],
      {
        encoding: "utf8",
      },
    );
    expect(notHelp.status).toBe(3);
    expect(notHelp.stderr).toContain("ENVELOPE_MISSING");
  });

  it("an unknown flag is still a usage error (exit 2)", () => {
    const r = spawnSync(process.execPath, [CLI, "check", "--helpme"], { encoding: "utf8" });
    expect(r.status).toBe(2);
  });
});

describe.skipIf(!JAIL_AVAILABLE)("run's own lines on stderr", () => {
  it("names the withheld keys (sorted, names only), ends with log, events and the check to run; that check passes", async () => {
    const s = sandbox();
    const r = await runCli(
      s,
      [process.execPath, "-e", "process.stdout.write('ran\\n')"],
      ["--workspace", s.workspace],
      callerEnv(s, {
        PYTHONPATH: "/opt/py-secret-path",
        AWS_SECRET_ACCESS_KEY: "AKIA-value-never-printed",
        GOCACHE: "/cache",
      }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ran\n");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    // Said while the command ran: the jail is up (test/cli/version.test.ts holds that it comes first).
    expect(lines[0]).toMatch(/^envelope-gate run: the jail is up, running \S+ -e '.*' \(recorder: (ebpf|strace)\)$/);
    lines.splice(0, 1);
    // Which process recorder ran, and why auto fell back to strace when it did.
    expect(lines[1]).toMatch(/^envelope-gate run: recorder (ebpf \(auto\)|strace \(auto: the eBPF recorder cannot start: .+\))$/);
    lines.splice(1, 1);
    expect(lines[0]).toBe(
      "envelope-gate run: withheld 4 of the caller's environment keys (not in allowed_env): AWS_SECRET_ACCESS_KEY, GOCACHE, HOME, PYTHONPATH",
    );
    expect(r.stderr).not.toContain("AKIA-value-never-printed");
    expect(r.stderr).not.toContain("/opt/py-secret-path");
    const end = /^envelope-gate run: log (\S+), (\d+) events, the command exited 0; next: (envelope-gate check .*)$/.exec(lines[1] ?? "");
    expect(end, lines[1]).not.toBeNull();
    const [, logShown, events, next] = end as unknown as [string, string, string, string];
    expect(logShown).toBe(r.log);
    // The hint is the whole command: run as it is printed (from the directory run ran in), it judges the log.
    const words = next.split(" ").slice(2);
    const checked = checkCli(words, s.workspace);
    expect(checked.status).toBe(0);
    expect(checked.report.verdict).toBe("pass");
    expect(checked.report.events).toBe(Number(events));
  });

  it("caps a long list with a count, and says so when nothing was withheld", async () => {
    const s = sandbox({ allowed_env: ["PATH", "HOME", "RUN_ID", "ENVELOPE_HASH", "SCRATCH"] });
    const many: Record<string, string> = {};
    for (let i = 0; i < 25; i++) many[`KEY_${String(i).padStart(2, "0")}`] = "v";
    const capped = await runCli(s, [process.execPath, "-e", ""], [], callerEnv(s, many));
    expect(capped.code).toBe(0);
    const first = capped.stderr.split("\n")[1] ?? "";
    expect(first).toContain("withheld 25 of the caller's environment keys");
    expect(first).toContain("KEY_00, KEY_01");
    expect(first).toMatch(/KEY_19 and 5 more$/);
    expect(first).not.toContain("KEY_20");
    const none = await runCli(s, [process.execPath, "-e", ""], [], callerEnv(s));
    expect(none.stderr.split("\n")[1]).toBe("envelope-gate run: withheld none of the caller's environment keys");
  });

  it("prints no progress when stderr is not a terminal, even on a run of several seconds", async () => {
    const s = sandbox();
    const r = await runCli(s, [process.execPath, "-e", "setTimeout(() => {}, 2500)"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("events so far");
    expect(r.stderr).not.toContain("\r");
    // The jail is up, then the withheld keys, the recorder, the closing line.
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(4);
  });

  it.skipIf(spawnSync("script", ["--version"]).status !== 0)(
    "on a terminal, one updating line of events so far, cleared before the closing line",
    async () => {
      const s = sandbox();
      const log = logPathOf(s);
      const line = [
        process.execPath,
        CLI,
        "run",
        "--envelope",
        s.envelope,
        "--observer",
        log,
        "--",
        process.execPath,
        "-e",
        "'setTimeout(() => {}, 3500)'",
      ].join(" ");
      const started = Date.now();
      const r = spawnSync("script", ["-qec", line, "/dev/null"], { cwd: s.workspace, env: callerEnv(s), encoding: "utf8" });
      const seconds = (Date.now() - started) / 1000;
      expect(r.status).toBe(0);
      const drawn = r.stdout.match(new RegExp(`\r${ESC}\\[Kenvelope-gate run: \\d+ events so far`, "g")) ?? [];
      expect(drawn.length).toBeGreaterThanOrEqual(2);
      expect(drawn.length).toBeLessThanOrEqual(Math.ceil(seconds)); // at most one redraw a second
      expect(r.stdout).toContain(`\r${ESC}[Kenvelope-gate run: withheld`);
      expect(lastLine(r.stdout)).toMatch(/^envelope-gate run: log .*, \d+ events, the command exited 0; next: envelope-gate check /);
    },
  );
});

describe.skipIf(!JAIL_AVAILABLE)("check reads workspace and scratch from the log's meta", () => {
  const writeOutside = (s: Sandbox): string =>
    program(s, "outside.js", `try { require("node:fs").writeFileSync(${JSON.stringify(join(s.outside, "planted"))}, "x"); } catch {}\n`);

  it("without --workspace/--scratch it judges with the run's own roots", async () => {
    const s = sandbox();
    const r = await runCli(
      s,
      [process.execPath, "-e", "require('node:fs').writeFileSync(process.env.SCRATCH + '/f', 'x')"],
      ["--workspace", s.workspace, "--scratch", s.scratch],
    );
    expect(r.code).toBe(0);
    const checked = checkCli(["--envelope", s.envelope, "--observer", r.log]);
    expect(checked.report.error).toBeNull();
    expect(checked.report.verdict).toBe("pass");
    expect(checked.status).toBe(0);
  });

  it("refuses --workspace widened to launder a write outside the run's roots (CHECK_OPTIONS_CONFLICT); the recorded roots find it", async () => {
    const s = sandbox();
    const r = await runCli(s, [process.execPath, writeOutside(s)], ["--workspace", s.workspace, "--scratch", s.scratch]);
    expect(r.code).toBe(0);
    expect(r.meta.workspace).toBe(s.workspace);
    const widened = checkCli(["--envelope", s.envelope, "--observer", r.log, "--workspace", s.base, "--scratch", s.scratch]);
    expect(widened.status).toBe(3);
    expect(widened.report.verdict).toBe("error");
    expect(widened.report.error?.code).toBe("CHECK_OPTIONS_CONFLICT");
    const otherScratch = checkCli(["--envelope", s.envelope, "--observer", r.log, "--scratch", s.outside]);
    expect(otherScratch.report.error?.code).toBe("CHECK_OPTIONS_CONFLICT");
    // Twins: the same values given (by another spelling), or none, judge the write.
    for (const args of [["--workspace", join(s.workspace, "..", "workspace"), "--scratch", s.scratch], []]) {
      const judged = checkCli(["--envelope", s.envelope, "--observer", r.log, ...args]);
      expect(judged.status).toBe(1);
      expect(judged.report.violations.map((v) => v.id)).toContain(`write_outside_root:${join(s.outside, "planted")}`);
    }
  });
});

/**
 * Whether this test's own node can be the jailed command as nobody: under .ci/node24 it sits
 * inside the clone, which may be a `mktemp -d` folder under /tmp, and the jail's /tmp is the
 * run's own (COMMAND_NOT_FOUND). The suite under the system node runs the test.
 */
const NOBODY_CAN_RUN_THIS_NODE =
  CAN_RUN_AS_NOBODY &&
  !process.execPath.startsWith(`${realpathSync(tmpdir())}/`) &&
  spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", ""], { stdio: "ignore" }).status === 0;

describe.skipIf(!JAIL_AVAILABLE)("the scratch run chose", () => {
  it("is removed after the run; a symlink the command planted in it is removed, not followed", async () => {
    const s = sandbox();
    mkdirSync(join(s.outside, "keep"), { recursive: true });
    const precious = join(s.outside, "keep", "precious");
    spawnSync("sh", ["-c", `echo data > ${precious}`]);
    const plant = `const fs = require("node:fs"); fs.symlinkSync(${JSON.stringify(join(s.outside, "keep"))}, process.env.SCRATCH + "/link"); fs.mkdirSync(process.env.SCRATCH + "/d/e", { recursive: true }); fs.writeFileSync(process.env.SCRATCH + "/d/e/f", "x");`;
    const r = await runCli(s, [process.execPath, "-e", plant]);
    expect(r.code).toBe(0);
    expect(r.meta.scratch).toMatch(/envelope-gate/);
    expect(existsSync(r.meta.scratch)).toBe(false);
    expect(readFileSync(precious, "utf8")).toBe("data\n");
    expect(r.stderr).not.toContain("SCRATCH_REMOVE_FAILED");
    // The log still judges after its scratch is gone: the roots are paths in meta.
    expect(checkCli(["--envelope", s.envelope, "--observer", r.log]).report.verdict).toBe("pass");
  });

  it("is kept with --keep-scratch (the closing line says where); a scratch the user gave is never removed", async () => {
    const s = sandbox();
    const kept = await runCli(
      s,
      [process.execPath, "-e", "require('node:fs').writeFileSync(process.env.SCRATCH + '/out', 'x')"],
      ["--keep-scratch"],
    );
    expect(kept.code).toBe(0);
    expect(readFileSync(join(kept.meta.scratch, "out"), "utf8")).toBe("x");
    expect(lastLine(kept.stderr)).toContain(`; scratch kept at ${kept.meta.scratch}; next:`);
    rmSync(kept.meta.scratch, { recursive: true, force: true });
    const given = await runCli(
      s,
      [process.execPath, "-e", "require('node:fs').writeFileSync(process.env.SCRATCH + '/out', 'x')"],
      ["--scratch", s.scratch],
    );
    expect(given.code).toBe(0);
    expect(readFileSync(join(s.scratch, "out"), "utf8")).toBe("x");
    expect(lastLine(given.stderr)).not.toContain("scratch kept");
  });

  it.skipIf(!NOBODY_CAN_RUN_THIS_NODE)(
    "a removal that fails is said (SCRATCH_REMOVE_FAILED) and leaves the command's exit code",
    async () => {
      const s = sandbox();
      const tmp = join(s.base, "tmp");
      mkdirSync(tmp);
      giveToNobody(s.base, s.workspace, s.home, tmp, join(s.base, "programs"));
      // The command leaves a directory it cannot be emptied of, as nobody: the wrapper (nobody too) cannot remove it.
      const stuck = `const fs = require("node:fs"); fs.mkdirSync(process.env.SCRATCH + "/ro"); fs.writeFileSync(process.env.SCRATCH + "/ro/f", "x"); fs.chmodSync(process.env.SCRATCH + "/ro", 0o555); process.exitCode = 7;`;
      const copy = join(s.base, "dist");
      spawnSync("cp", ["-r", join(ROOT, "dist"), copy]);
      spawnSync("chmod", ["-R", "a+rX", copy]);
      const log = join(tmp, "observer.jsonl");
      const r = await spawnNode(
        [
          ...NOBODY,
          process.execPath,
          join(copy, "cli/index.js"),
          "run",
          "--envelope",
          s.envelope,
          "--observer",
          log,
          "--",
          process.execPath,
          "-e",
          stuck,
        ],
        {
          exec: "setpriv",
          cwd: s.workspace,
          env: { ...callerEnv(s), TMPDIR: tmp },
        },
      );
      const meta = JSON.parse(readFileSync(log, "utf8").split("\n")[0] as string) as { scratch: string };
      try {
        expect(r.code).toBe(7);
        expect(r.stderr).toMatch(
          new RegExp(`envelope-gate run: SCRATCH_REMOVE_FAILED: the scratch ${meta.scratch} could not be removed \\(EACCES\\)`),
        );
        expect(lastLine(r.stderr)).toMatch(/^envelope-gate run: log .*, \d+ events, the command exited 7; next: /);
      } finally {
        rmSync(meta.scratch, { recursive: true, force: true });
      }
    },
  );
});
