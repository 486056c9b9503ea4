/**
 * The adoption path end to end: record under a narrow envelope, suggest, pin, enforce; the
 * suggested envelope passes the clean run again under `deny`, and a hostile read still fails it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, TEST_TMP, check, ids, privateHost, program, run, sandbox, spawnNode } from "./harness.js";
import { mkdtempSync } from "node:fs";

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
