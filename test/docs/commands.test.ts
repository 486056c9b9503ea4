/**
 * Every envelope-gate command line in README.md and docs/*.md is one the CLI accepts (checked with
 * the CLI's own parser, src/cli/main.ts parseCommandLine), and the adoption path of
 * docs/authoring.md runs, line for line as written there, in a fresh npm project.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/main.js";
import { STARTER_ENVELOPE_TEXT } from "../../src/core/audit.js";
import { CLI_BUNDLE, REPO_ROOT } from "../support/fixtures.js";
import { spawnProcess } from "../support/spawn.js";
import { TEST_TMP } from "../support/test-tmp.js";
import { cliArguments, codeBlocks, docFiles, shellCommands, shellSplit, type ShellCommand } from "./markdown-commands.js";

const npmScripts = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

interface DocCommand extends ShellCommand {
  via: string;
  args: string[];
}

const commands: DocCommand[] = docFiles().flatMap((file) =>
  shellCommands(file).flatMap((c) => {
    const cli = cliArguments(c.words, npmScripts);
    return cli === null ? [] : [{ ...c, ...cli }];
  }),
);

/**
 * The commands the docs show that this file only parses, and why. Every command it finds is either
 * a line of the adoption path (run below) or matches exactly one of these: a new command line in
 * the docs makes the author choose.
 */
const ONLY_PARSED: { what: string; match: (c: DocCommand) => boolean; why: string }[] = [
  {
    what: "envelope-gate app …",
    match: (c) => c.args[0] === "app",
    why: "needs GitHub: a registered App (its id, private key and webhook secret), its store, and GitHub's API, which this machine cannot reach; test/app runs the App against the fake GitHub",
  },
  {
    what: "the example agent's run and check (README.md's quick start, docs/observer.md)",
    match: (c) => c.args.includes("examples/envelope.json"),
    why: "`npm run example` (scripts/example.mjs) runs them, and test/cli/cli.test.ts runs that script; test/observer/run.test.ts judges examples/agent.js",
  },
  {
    what: "the example suite's run and check (README.md, from examples/suite)",
    match: (c) => c.via === "node" && c.args.includes("envelope.json") && c.args.includes("/tmp/suite.jsonl"),
    why: 'test/check/suggest.test.ts, "the example suite (examples/suite)", runs that suite under its envelope',
  },
  {
    what: "npm scripts that are not the CLI (npm run example)",
    match: (c) => c.via === "npm run (not the CLI)",
    why: "that the script exists in package.json is what is checked here",
  },
];

describe("every envelope-gate command line in README.md and docs/", () => {
  it("finds them: the quick start's, the App's and the adoption path's", () => {
    const where = new Set(commands.map((c) => c.file));
    expect(where).toContain("README.md");
    expect(where).toContain("docs/authoring.md");
    expect(where).toContain("docs/app.md");
    expect(commands.some((c) => c.args[0] === "app")).toBe(true);
    expect(commands.length).toBeGreaterThan(12);
  });

  it("each is one the CLI's own parser accepts (an unknown command or flag fails here)", async () => {
    const refused: string[] = [];
    for (const c of commands) {
      if (c.via === "npm run (not the CLI)") continue;
      try {
        await parseCommandLine(c.args);
      } catch (err) {
        refused.push(`${c.file}:${c.line}: ${c.text.trim()}\n  ${(err as Error).message}`);
      }
    }
    expect(refused.join("\n")).toBe("");
  });

  it("the parser refuses what the CLI refuses: an unknown command, flag or app action, a flag without --run", async () => {
    for (const line of [
      "envelope-gate suggset --observer L",
      "envelope-gate run --audti --envelope E --observer L -- true",
      "envelope-gate suggest --audit --observer L",
      "envelope-gate run --envelope E --observer L",
      "envelope-gate app budget raise --installation 1",
      "envelope-gate app pause --why x",
      "envelope-gate app setupp",
    ]) {
      const args = cliArguments(shellSplit(line)[0] as string[], npmScripts)?.args as string[];
      await expect(parseCommandLine(args), line).rejects.toThrow();
    }
    await expect(parseCommandLine(["suggest", "--run", "--audit", "--envelope", "E", "--observer", "L", "--", "true"])).resolves.toBe(
      "suggest",
    );
  });

  it("runs the adoption path's lines, and names why each other one is only parsed (exactly one reason each)", () => {
    const adoption = new Set(adoptionLines().map((l) => `${l.line}`));
    const unexplained: string[] = [];
    for (const c of commands) {
      if (c.file === "docs/authoring.md" && adoption.has(`${c.line}`)) continue;
      const reasons = ONLY_PARSED.filter((r) => r.match(c));
      if (reasons.length !== 1) unexplained.push(`${c.file}:${c.line}: ${c.text.trim()} (${reasons.length} reasons)`);
    }
    expect(unexplained.join("\n")).toBe("");
    for (const r of ONLY_PARSED) expect(commands.some(r.match), `${r.what}: no command of the docs is one`).toBe(true);
  });
});

/** The adoption path's command lines: the first ```sh block under docs/authoring.md's "## The adoption path". */
function adoptionLines(): ShellCommand[] {
  const text = readFileSync(join(REPO_ROOT, "docs/authoring.md"), "utf8").split("\n");
  const heading = text.indexOf("## The adoption path") + 1;
  expect(heading, "docs/authoring.md has ## The adoption path").toBeGreaterThan(0);
  const block = codeBlocks("docs/authoring.md").find((b) => b.line > heading && b.lang === "sh");
  expect(block, "a ```sh block under ## The adoption path").toBeDefined();
  return shellCommands("docs/authoring.md").filter((c) => (block?.lines ?? []).some((l) => l.n === c.line));
}

/** The starter envelope the adoption path saves as envelope.json: its first ```json block. */
function adoptionStarter(): string {
  const text = readFileSync(join(REPO_ROOT, "docs/authoring.md"), "utf8").split("\n");
  const heading = text.indexOf("## The adoption path") + 1;
  const block = codeBlocks("docs/authoring.md").find((b) => b.line > heading && b.lang === "json");
  return (block?.lines ?? []).map((l) => l.text).join("\n") + "\n";
}

describe("docs/authoring.md's adoption path, run as written", () => {
  it("hash, verify, run --audit, check, suggest --run --audit, verify, run, check: one round in a fresh npm project", async () => {
    const lines = adoptionLines();
    expect(lines.map((l) => `${l.words[1]}${l.words.includes("--audit") ? " --audit" : ""}`)).toEqual([
      "hash",
      "verify",
      "run --audit",
      "check",
      "suggest --audit",
      "verify",
      "run",
      "check",
    ]);
    const starter = adoptionStarter();
    expect(JSON.parse(starter)).toEqual(JSON.parse(STARTER_ENVELOPE_TEXT));

    // A tiny npm project whose test reads an environment key and writes a file.
    const project = mkdtempSync(join(TEST_TMP, "eg-docs-adoption-"));
    mkdirSync(join(project, "test"));
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "tiny", version: "1.0.0", private: true, scripts: { test: "node --test" } }, null, 2) + "\n",
    );
    writeFileSync(
      join(project, "test", "greeting.test.js"),
      `const test = require("node:test");
const fs = require("node:fs");
test("greets", () => {
  fs.writeFileSync("greeting.txt", process.env.GREETING ?? "nobody");
});
`,
    );
    writeFileSync(join(project, "envelope.json"), starter);
    // `envelope-gate` on PATH is the bundled CLI, as an install puts it there.
    const bin = join(project, ".bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "envelope-gate"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BUNDLE)} "$@"\n`);
    chmodSync(join(bin, "envelope-gate"), 0o755);
    const env = {
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: project,
      CI: "true",
      GREETING: "hello",
    };

    const exits: number[] = [];
    const outputs: string[] = [];
    for (const line of lines) {
      // The line as the doc writes it, by a shell (its redirection included).
      const r = await spawnProcess(["/bin/sh", "-c", line.text], { cwd: project, env });
      exits.push(r.code ?? -1);
      outputs.push(`$ ${line.text}\n${r.stdout}${r.stderr}`);
    }
    const transcript = outputs.join("\n");
    // The audit's check fails on what the suite did (GREETING read under the starter); the
    // enforced one passes.
    expect(exits, transcript).toEqual([0, 0, 0, 1, 0, 0, 0, 0]);
    expect(outputs[3], transcript).toContain("undeclared_env:GREETING");
    expect(outputs[4], transcript).toMatch(/\+ +allowed_env +GREETING /);
    expect(outputs[7], transcript).toContain("PASS");
    const pinned = JSON.parse(readFileSync(join(project, "envelope.json"), "utf8")) as { allowed_env: string[]; network: string };
    expect(pinned.allowed_env).toContain("GREETING");
    expect(pinned.network).toBe("deny");
    expect(readFileSync(join(project, "greeting.txt"), "utf8")).toBe("hello");
  });
});
