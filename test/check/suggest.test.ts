/**
 * The adoption path end to end: record under a narrow envelope, suggest, pin, enforce; the
 * suggested envelope passes the clean run again under `deny`, and a hostile read still fails it.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, TEST_TMP, check, ids, privateHost, program, run, sandbox, spawnNode } from "../observer/harness.js";
import { mkdtempSync } from "node:fs";
import { suggestCommand } from "../../src/check/suggest.js";

describe("envelope-gate suggest", () => {
  it("records, suggests, pins and enforces: the clean run passes under deny, a hostile read does not", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const clean = program(
      s,
      "suite.js",
      `const http = require("http"); const fs = require("fs");
for (const k of ["SUITE_TIMEOUT", "SUITE_REPORTER", "SUITE_COLOR", "CI"]) void process.env[k];
fs.mkdirSync("/tmp/suite-cache", { recursive: true });
fs.writeFileSync(process.cwd() + "/out.txt", "ok");
const srv = http.createServer((q, r) => r.end("ok")).listen(0, "127.0.0.1", () => http.get("http://localhost:" + srv.address().port, () => srv.close()));`,
    );
    const first = await run(s, ["node", clean]);
    expect(first.code).toBe(0);
    expect((await check(s)).violations.map((v) => v.id).sort()).toEqual([
      "undeclared_env:CI",
      "undeclared_env:SUITE_COLOR",
      "undeclared_env:SUITE_REPORTER",
      "undeclared_env:SUITE_TIMEOUT",
    ]);

    const suggested = join(s.base, "suggested.json");
    const r = await spawnNode([CLI, "suggest", "--observer", first.log, "--from", s.envelope, "--write", suggested]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("SUITE_*");
    expect(r.stdout).toMatch(/\+ +"SUITE_\*"/);
    const envelope = JSON.parse(readFileSync(suggested, "utf8")) as { allowed_env: string[]; network: string };
    expect(envelope.allowed_env).toEqual(["PATH", "SUITE_*", "CI"]);
    expect(envelope.network).toBe("deny");

    // Pin it and enforce it.
    const pinned = { ...s, envelope: suggested };
    const again = await run(pinned, ["node", clean]);
    expect(again.code).toBe(0);
    const report = await check(pinned);
    expect(report.verdict).toBe("pass");

    const hostile = program(
      s,
      "hostile.js",
      `void process.env.AWS_SECRET_ACCESS_KEY; require("net").connect(80, "192.0.2.1").on("error", () => {});`,
    );
    await run(pinned, ["node", hostile]);
    expect(ids(await check(pinned)).sort()).toEqual(["network_denied:192.0.2.1:80", "undeclared_env:AWS_SECRET_ACCESS_KEY"]);
  });
});

describe("the run's environment and HOME under sets and patterns", () => {
  it("passes a set's and a pattern's keys into the run but never a credential-named key; HOME writes land in the scratch", async () => {
    const s = sandbox({ allowed_env: ["PATH", "HOME", "@ci", "GITHUB_*"] });
    const probe = program(
      s,
      "probe.js",
      `const seen = Object.fromEntries(["CI", "CIRCLECI", "GITHUB_SHA", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"].map((k) => [k, process.env[k] ?? null]));
require("fs").mkdirSync(require("os").homedir() + "/.cache/tool", { recursive: true });
require("fs").writeFileSync(require("os").homedir() + "/.cache/tool/log", "x");
console.log(JSON.stringify(seen));`,
    );
    const r = await run(s, ["node", probe], {
      env: { CI: "true", CIRCLECI: "1", GITHUB_SHA: "abc", GITHUB_TOKEN: "ghs_secret", AWS_SECRET_ACCESS_KEY: "k" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").pop() as string)).toEqual({
      CI: "true",
      CIRCLECI: "1",
      GITHUB_SHA: "abc",
      GITHUB_TOKEN: null,
      AWS_SECRET_ACCESS_KEY: null,
    });
    const report = await check(s);
    expect(ids(report).sort()).toEqual(["undeclared_env:AWS_SECRET_ACCESS_KEY", "undeclared_env:GITHUB_TOKEN"]);
    // The home the command wrote to is the scratch's, recorded under that path; the real one is untouched.
    const writes = r.lines.filter((l) => l.kind === "write" && String(l.path).endsWith("/.cache/tool/log"));
    expect(writes.map((w) => w.path)).toContain(join(privateHost(r, s.home), ".cache/tool/log"));
    expect(existsSync(join(s.home, ".cache"))).toBe(false);
  });
});

describe("the example suite (examples/suite)", () => {
  it("passes under its suggested envelope with network deny: a local server and temporary files are the run's own", async () => {
    const suite = join(ROOT, "examples/suite");
    const work = mkdtempSync(join(TEST_TMP, "eg-suite-"));
    const log = join(work, "observer.jsonl");
    const common = [
      "--envelope",
      join(suite, "envelope.json"),
      "--observer",
      log,
      "--workspace",
      suite,
      "--scratch",
      join(work, "scratch"),
    ];
    const r = await spawnNode([CLI, "run", ...common, "--", process.execPath, "--test"], { cwd: suite });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse((await spawnNode([CLI, "check", ...common, "--format", "json"])).stdout) as {
      verdict: string;
      violations: unknown[];
    };
    expect(report.violations).toEqual([]);
    expect(report.verdict).toBe("pass");
    const envelope = JSON.parse(readFileSync(join(suite, "envelope.json"), "utf8")) as { network: string; allowed_env: string[] };
    expect(envelope.network).toBe("deny");
    expect(envelope.allowed_env.length).toBeLessThan(6);
  });
});

describe("envelope-gate suggest --run", () => {
  it("records one run under the envelope, then suggests from it", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const prog = program(s, "reads.js", `for (const k of ["EG_ONE", "EG_TWO"]) void process.env[k];`);
    const log = join(s.base, "recorded.jsonl");
    const r = await spawnNode(
      [
        CLI,
        "suggest",
        "--run",
        "--envelope",
        s.envelope,
        "--observer",
        log,
        "--workspace",
        s.workspace,
        "--scratch",
        s.scratch,
        "--",
        "node",
        prog,
      ],
      { cwd: s.workspace },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\+ +"EG_ONE"/);
    expect(r.stdout).toMatch(/\+ +"EG_TWO"/);
    expect(readFileSync(log, "utf8").split("\n")[0]).toContain('"kind":"meta"');
  });

  it("a key the run chose cannot rewrite the terminal: escape sequences, carriage returns and bidi controls in its listing are shown, not sent", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    // Read a credential, then a key that (printed raw) moves the cursor up and erases that line.
    const hide = "Z\x1b[1A\x1b[2K\r";
    const prog = program(
      s,
      "hide.js",
      `void process.env.AWS_SECRET_ACCESS_KEY; void process.env[${JSON.stringify(hide)}]; void process.env["EG_\u202eYEK"];`,
    );
    const log = join(s.base, "hide.jsonl");
    const r = await spawnNode(
      [
        CLI,
        "suggest",
        "--run",
        "--envelope",
        s.envelope,
        "--observer",
        log,
        "--workspace",
        s.workspace,
        "--scratch",
        s.scratch,
        "--",
        "node",
        prog,
      ],
      { cwd: s.workspace },
    );
    expect(r.code, r.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- what must not reach a terminal
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]/);
    // A credential, and keys outside printable ASCII, are never proposed: listed apart, escaped.
    expect(r.stdout).toMatch(/^ {2}- allowed_env +AWS_SECRET_ACCESS_KEY +\(credential: /m);
    expect(r.stdout).toContain("Z\\u{001B}[1A\\u{001B}[2K\\u{000D}  (a character outside printable ASCII");
    expect(r.stdout).toContain("EG_\\u{202E}YEK");
  });
});

describe("suggest --run proposes nothing a reviewer cannot trust (issue 31, item 3)", () => {
  it("a Node one-liner reads five such keys and is refused in /usr, then exits 0: none of them allowed, each listed apart with why", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const keys = ["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "SONAR_LOGIN"];
    const prog = program(
      s,
      "one-liner.js",
      `const fs = require("fs");
for (const k of ${JSON.stringify([...keys, "EG_MODE"])}) void process.env[k];
for (const f of [() => fs.mkdirSync("/usr/share/x"), () => fs.writeFileSync("/usr/lib/y.pyc", ""), () => fs.writeFileSync("/usr/lib/x/y.pyc", "")]) { try { f(); } catch {} }`,
    );
    const log = join(s.base, "one-liner.jsonl");
    const written = join(s.base, "one-liner-suggested.json");
    const args = ["--observer", log, "--workspace", s.workspace, "--scratch", s.scratch, "--write", written];
    const r = await spawnNode([CLI, "suggest", "--run", "--envelope", s.envelope, ...args, "--", "node", prog], { cwd: s.workspace });
    expect(r.code, r.stderr).toBe(0);
    const envelope = JSON.parse(readFileSync(written, "utf8")) as { allowed_env: string[]; allowed_roots: string[] };
    expect(envelope.allowed_env).toEqual(["PATH", "EG_MODE"]);
    expect(envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
    expect(r.stdout).toMatch(/^ {2}- allowed_env +AWS_SECRET_ACCESS_KEY +\(credential: names a secret/m);
    expect(r.stdout).toMatch(/^ {2}- allowed_env +RUNNER_NAME +\(machine identity: /m);
    expect(r.stdout).toMatch(/^ {2}- allowed_env +HOSTNAME +\(machine identity: /m);
    expect(r.stdout).toMatch(/^ {2}- allowed_env +GITHUB_RUN_ID +\(run identity: /m);
    expect(r.stdout).toMatch(/^ {2}- allowed_env +SONAR_LOGIN +\(credential: names a login/m);
    // The refused writes (the process recorder sees them): their directories listed apart, never roots.
    expect(readFileSync(log, "utf8")).toContain('"path":"/usr/share/x"');
    expect(r.stdout).toMatch(/^ {2}- allowed_roots +\/usr\/share +\(the system's directories/m);
    expect(r.stdout).toMatch(
      /^ {2}- allowed_roots +\/usr\/lib +\(the system's directories.*; PYTHONDONTWRITEBYTECODE would have avoided them/m,
    );
    // A write into a directory that is not there changed nothing (ENOENT): check does not judge it, nor does suggest list it.
    expect(readFileSync(log, "utf8")).toContain('"path":"/usr/lib/x/y.pyc"');
    expect(r.stdout).not.toContain("/usr/lib/x");
  });
});

describe("envelope-gate suggest over several logs (issue 20, item 6)", () => {
  it("expands every log's own workspace and scratch: two real runs from two scratches give no absolute path of either", async () => {
    // Roots without ${WORKSPACE}: the workspace writes of both runs must come back as one `${WORKSPACE}` entry.
    const narrow = { allowed_roots: ["${SCRATCH}"], allowed_env: ["PATH"] };
    const a = sandbox(narrow);
    const b = sandbox(narrow);
    const source = `const fs = require("fs"); const os = require("os");
fs.mkdirSync(os.homedir() + "/.cache/tool", { recursive: true });
fs.writeFileSync(os.homedir() + "/.cache/tool/log", "x");
fs.writeFileSync(os.tmpdir() + "/t", "x");
// Outside the roots the jail refuses it; the attempt is what suggest learns from.
try { fs.mkdirSync(process.cwd() + "/out", { recursive: true }); fs.writeFileSync(process.cwd() + "/out/result.txt", "ok"); } catch {}`;
    const ra = await run(a, ["node", program(a, "suite.js", source)]);
    const rb = await run(b, ["node", program(b, "suite.js", source)]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(ra.lines[0]?.scratch).toBe(a.scratch);
    expect(rb.lines[0]?.scratch).toBe(b.scratch);

    const suggested = join(a.base, "suggested.json");
    const r = await spawnNode([CLI, "suggest", "--observer", ra.log, "--observer", rb.log, "--from", a.envelope, "--write", suggested]);
    expect(r.code, r.stderr).toBe(0);
    const envelope = JSON.parse(readFileSync(suggested, "utf8")) as { allowed_roots: string[] };
    // The refused mkdir of `out` is judged by its directory: the workspace, as a variable.
    expect(envelope.allowed_roots).toEqual(["${SCRATCH}", "${WORKSPACE}"]);
    for (const s of [a, b]) {
      expect(readFileSync(suggested, "utf8")).not.toContain(s.base);
      expect(r.stdout).not.toContain(s.scratch);
    }
    expect(r.stdout).toMatch(/\+ +allowed_roots +\$\{WORKSPACE\} +\(covers \$\{WORKSPACE\}\/out; 2 times/);

    // Pinned, it passes a new run in either sandbox.
    for (const s of [a, b]) {
      const pinned = { ...s, envelope: suggested };
      const again = await run(pinned, ["node", program(s, "suite.js", source)]);
      expect(again.code, again.stderr).toBe(0);
      expect((await check(pinned)).verdict).toBe("pass");
    }
  });

  it("honours --scratch only where it is the log's own: another run's scratch is refused (SUGGEST_ROOT_MISMATCH)", async () => {
    const a = sandbox({ allowed_env: ["PATH"] });
    const b = sandbox({ allowed_env: ["PATH"] });
    const source = `require("fs").writeFileSync(require("os").tmpdir() + "/t", "x"); void process.env.EG_KEY;`;
    const ra = await run(a, ["node", program(a, "p.js", source)]);
    const rb = await run(b, ["node", program(b, "p.js", source)]);
    // Its own scratch: honoured, the same suggestion as without it.
    const own = await suggestCommand({ logs: [ra.log], scratch: a.scratch, workspace: a.workspace });
    expect(own).toContain("EG_KEY");
    expect(own).toBe(await suggestCommand({ logs: [ra.log] }));
    // One scratch for two runs that had two: refused, never silently ignored.
    await expect(suggestCommand({ logs: [ra.log, rb.log], scratch: a.scratch })).rejects.toMatchObject({
      code: "SUGGEST_ROOT_MISMATCH",
      file: rb.log,
    });
    await expect(suggestCommand({ logs: [ra.log], workspace: b.workspace })).rejects.toMatchObject({ code: "SUGGEST_ROOT_MISMATCH" });
    // The command line passes --scratch on (it was parsed and dropped before).
    const cli = await spawnNode([CLI, "suggest", "--observer", ra.log, "--observer", rb.log, "--scratch", a.scratch]);
    expect(cli.code, cli.stderr).toBe(3);
    expect(cli.stderr).toContain("SUGGEST_ROOT_MISMATCH");
    const cliOwn = await spawnNode([CLI, "suggest", "--observer", ra.log, "--scratch", a.scratch]);
    expect(cliOwn.code, cliOwn.stderr).toBe(0);
  });
  it("suggests allowed_commands by the names PATH found, and the pinned envelope passes the next run's check", async () => {
    const s = sandbox({ allowed_env: ["PATH"], allowed_commands: [] });
    const prog = program(s, "spawns.js", `require("child_process").execFileSync("sh", ["-c", "exit 0"]);`);
    const first = await run(s, ["node", prog]);
    expect(first.code, first.stderr).toBe(0);
    expect(ids(await check(s))).toContain(
      `undeclared_command:${first.lines.find((l) => l.kind === "exec" && (l.argv as string[])[0] === "sh")?.path as string}`,
    );
    const suggested = join(s.base, "suggested.json");
    const r = await spawnNode([CLI, "suggest", "--observer", first.log, "--from", s.envelope, "--write", suggested]);
    expect(r.code, r.stderr).toBe(0);
    const envelope = JSON.parse(readFileSync(suggested, "utf8")) as { allowed_commands: string[] };
    // The command the wrapper started is recorded by the path it resolved (argv[0] is that
    // path): kept. The shell node started by name is its resolved file's name (sh -> dash here).
    const execs = first.lines.filter((l) => l.kind === "exec" && l.canary !== true);
    const shell = execs.find((l) => (l.argv as string[])[0] === "sh")?.path as string;
    expect(envelope.allowed_commands).toEqual([execs[0]?.path, shell.slice(shell.lastIndexOf("/") + 1)]);
    const pinned = { ...s, envelope: suggested };
    const again = await run(pinned, ["node", prog]);
    expect(again.code, again.stderr).toBe(0);
    expect(ids(await check(pinned))).toEqual([]);
  });
});

describe("who read it: each entry names its program; withheld keys of a failed non-Node program (issue 20 items 3 and 6)", () => {
  const suggestJson = async (log: string, from: string) => {
    const { readVerifiedEnvelope } = await import("../../src/check/files.js");
    const { suggestEnvelope } = await import("../../src/core/suggest.js");
    return suggestEnvelope([{ file: log, bytes: readFileSync(log) }], (await readVerifiedEnvelope(from)).envelope);
  };
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : null;

  it("names the Node child that read a key by the exec line carrying its jail pid; check accepts jail_pid", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const child = program(s, "child.js", `void process.env.EG_CHILD_MODE;`);
    const parent = program(
      s,
      "parent.js",
      `require("child_process").execFileSync(process.execPath, [${JSON.stringify(child)}, "--mode", "ci"]);`,
    );
    const r = await run(s, ["node", parent]);
    expect(r.code, r.stderr).toBe(0);
    const read = r.lines.find((l) => l.kind === "env" && l.key === "EG_CHILD_MODE");
    const exec = r.lines.find((l) => l.kind === "exec" && (l.argv as string[])[1] === child);
    expect(exec?.jail_pid, JSON.stringify(exec)).toBe(read?.pid);
    // The host pid stays the exec line's own pid, a different namespace's number.
    expect(exec?.pid).not.toBe(exec?.jail_pid);
    expect(ids(await check(s))).toEqual(["undeclared_env:EG_CHILD_MODE"]);

    const cli = await spawnNode([CLI, "suggest", "--observer", r.log, "--from", s.envelope]);
    expect(cli.code, cli.stderr).toBe(0);
    const line = cli.stdout.split("\n").find((l) => l.includes("EG_CHILD_MODE"));
    // The script's name survives the abbreviation of its path.
    expect(line).toMatch(new RegExp(`1 time, first at .*; read by node \\S*child\\.js --mode … \\(pid ${String(read?.pid)}\\)\\)$`));
    const entry = (await suggestJson(r.log, s.envelope)).added.find((a) => a.entry === "EG_CHILD_MODE");
    expect(entry?.program).toMatch(/^node …\S*\/programs\/child\.js --mode … \(pid \d+\)$/);
  });

  it.skipIf(python === null)(
    "proposes VIRTUAL_ENV unobserved, named with python3, when python3 ran and the command failed; not when it passed",
    async () => {
      const s = sandbox({ allowed_env: ["PATH"] });
      const script = (exit: string) =>
        program(s, `suite-${exit}.sh`, `#!/bin/sh\n${python as string} -c 'import os,sys; sys.exit(${exit})'\n`);
      const failing = script(`0 if "VIRTUAL_ENV" in os.environ else 3`);
      const passing = script("0");
      chmodSync(failing, 0o755);
      chmodSync(passing, 0o755);
      const env = {
        VIRTUAL_ENV: "/opt/eg-venv",
        PYTHONPATH: "/opt/eg-site",
        CARGO_REGISTRY_TOKEN: "secret-never-proposed",
        EG_API_TOKEN: "x",
      };

      const failed = await run(s, [failing], { env });
      expect(failed.code, failed.stderr).toBe(3);
      const withheld = failed.lines[0]?.withheld as string[];
      expect(withheld).toEqual(expect.arrayContaining(["VIRTUAL_ENV", "CARGO_REGISTRY_TOKEN", "EG_API_TOKEN"]));
      // Names only: no value of the caller's environment is in the log.
      expect(readFileSync(failed.log, "utf8")).not.toContain("secret-never-proposed");
      expect((await check(s)).verdict).toBe("pass");

      const cli = await spawnNode([CLI, "suggest", "--observer", failed.log, "--from", s.envelope]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(/unobserved: withheld keys/);
      const line = cli.stdout.split("\n").find((l) => l.includes(" VIRTUAL_ENV "));
      expect(line).toMatch(
        /^ {2}\? allowed_env +VIRTUAL_ENV +\(withheld; python3[0-9.]* ran and the command exited 3; not observed: non-Node programs' reads cannot be seen; ran first at \S+ as python3[0-9.]* -c /,
      );
      const suggestion = await suggestJson(failed.log, s.envelope);
      const entry = suggestion.added.find((a) => a.entry === "VIRTUAL_ENV");
      expect(entry).toMatchObject({ key: "allowed_env", unobserved: true });
      expect(entry?.program).toMatch(/^python3[0-9.]* -c 'import os,sys; sys\.exit\(0 i…' \(pid \d+\)$/);
      // PYTHONPATH, withheld too, is program control: listed apart, never proposed.
      expect(suggestion.notProposed).toEqual(
        expect.arrayContaining([expect.objectContaining({ entry: "PYTHONPATH", kind: "program_control" })]),
      );
      expect(suggestion.envelope.allowed_env).not.toContain("PYTHONPATH");
      for (const key of ["CARGO_REGISTRY_TOKEN", "EG_API_TOKEN"]) {
        expect(suggestion.envelope.allowed_env).not.toContain(key);
        expect(cli.stdout).not.toContain(key);
      }

      // Pinned with it, the suite passes: VIRTUAL_ENV was what it needed.
      const pinned = join(s.base, "pinned.json");
      expect((await spawnNode([CLI, "suggest", "--observer", failed.log, "--from", s.envelope, "--write", pinned])).code).toBe(0);
      const again = await run({ ...s, envelope: pinned }, [failing], { env });
      expect(again.code, again.stderr).toBe(0);

      const passed = await run(s, [passing], { env, logName: "passed.jsonl" });
      expect(passed.code, passed.stderr).toBe(0);
      const quiet = await spawnNode([CLI, "suggest", "--observer", passed.log, "--from", s.envelope]);
      expect(quiet.stdout).not.toContain("VIRTUAL_ENV");
      expect(quiet.stdout).not.toContain("unobserved");
    },
  );

  it("refuses a log whose exec line has a jail_pid that is not a positive integer (OBSERVER_LOG_MALFORMED)", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const r = await run(s, ["node", "-e", "0"]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(r.log, "utf8");
    expect(text).toMatch(/"jail_pid":\d+/);
    writeFileSync(r.log, text.replace(/"jail_pid":\d+/, '"jail_pid":"1"'));
    const report = await check(s);
    expect(report.exit).toBe(3);
    expect(report.error?.code).toBe("OBSERVER_LOG_MALFORMED");
    expect(report.error?.message).toContain("jail_pid");
  });
});

describe("suggest --run: run's closing lines first, the scratch it chose removed unless --keep-scratch", () => {
  it("prints the withheld keys and the log/events/exit line, removes the chosen scratch, keeps it with --keep-scratch", async () => {
    const s = sandbox({ allowed_env: ["PATH"] });
    const prog = program(s, "reads.js", `void process.env.EG_SUGGEST_RUN;`);
    const tmp = mkdtempSync(join(TEST_TMP, "eg-suggest-run-"));
    const parent = join(tmp, `envelope-gate-${process.geteuid?.() ?? 0}`);
    const scratches = () => (existsSync(parent) ? readdirSync(parent) : []);
    const once = async (extra: string[]) =>
      spawnNode(
        [
          CLI,
          "suggest",
          "--run",
          "--envelope",
          s.envelope,
          "--observer",
          join(s.base, "r.jsonl"),
          "--workspace",
          s.workspace,
          ...extra,
          "--",
          "node",
          prog,
        ],
        {
          cwd: s.workspace,
          env: { ...process.env, TMPDIR: tmp, EG_WITHHELD_PROBE: "1" },
        },
      );
    const r = await once([]);
    expect(r.code, r.stderr).toBe(0);
    const all = r.stderr.split("\n").filter((l) => l.startsWith("envelope-gate run: "));
    // Which recorder ran is said once (docs/observer.md); the lines suggest --run reads are the others.
    expect(all.filter((l) => l.startsWith("envelope-gate run: recorder "))).toHaveLength(1);
    // The jail-up line comes first, before the command's own output (test/cli/version.test.ts holds its order).
    expect(all[0]).toMatch(/^envelope-gate run: the jail is up, running /);
    const lines = all.filter((l) => !l.startsWith("envelope-gate run: recorder ") && !l.startsWith("envelope-gate run: the jail is up"));
    expect(lines[0]).toMatch(/^envelope-gate run: withheld \d+ of the caller's environment keys/);
    expect(lines[0]).toContain("EG_WITHHELD_PROBE");
    expect(lines[1]).toMatch(/^envelope-gate run: log .*r\.jsonl, \d+ events, the command exited 0$/);
    expect(r.stdout).toMatch(/\+ +allowed_env +EG_SUGGEST_RUN +\(1 time, first at .*; read by node \S*reads\.js \(pid \d+\)\)/);
    expect(scratches()).toEqual([]);

    const kept = await once(["--keep-scratch"]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(/; scratch kept at /);
    expect(scratches()).toHaveLength(1);
    rmSync(tmp, { recursive: true, force: true });

    const help = await spawnNode([CLI, "suggest", "--help"]);
    expect(help.stdout).toContain("--keep-scratch");
    expect(help.stdout).toMatch(/Never proposed, listed apart with\s+why/);
    const misuse = await spawnNode([CLI, "suggest", "--observer", join(s.base, "r.jsonl"), "--keep-scratch"]);
    expect(misuse.code).toBe(2);
  });
});
