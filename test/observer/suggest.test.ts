/**
 * The adoption path end to end: record under a narrow envelope, suggest, pin, enforce; the
 * suggested envelope passes the clean run again under `deny`, and a hostile read still fails it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, TEST_TMP, check, ids, privateHost, program, run, sandbox, spawnNode } from "./harness.js";
import { mkdtempSync } from "node:fs";
import { suggestCommand } from "../../src/gate/suggest.js";

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
