/**
 * One exec record for one exec (issue 35, item 4): a real suite of `#!` scripts (`#!/usr/bin/env
 * node`, `#!/bin/sh -e`, a script whose interpreter is itself a script, one run by a relative
 * path, one found on PATH) run under the eBPF recorder and under strace (as root, and strace as
 * nobody), and the exec lines must be the same, in the one canonical form (docs/formats.md,
 * "exec"): the file named, resolved; the argv the kernel started the new image with; a script's
 * interpreter as its own field. The footprints of the runs show no difference. The hostile twin:
 * a script whose interpreter is a program allowed_commands does not list is caught by `check`
 * under every recorder.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareFootprints, logFootprint, type LogFootprint } from "../../src/core/footprint.js";
import { walkLog } from "../../src/core/log-reader.js";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, ROOT, check, ids, run, sandbox, type RunSettings, type Sandbox } from "./harness.js";

const EBPF = process.arch === "x64" && existsSync(join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64")) && process.geteuid?.() === 0;
const DASH = realpathSync("/bin/sh");
const ENV = realpathSync("/usr/bin/env");
const NODE = realpathSync("/usr/bin/node");

/** Every program the honest suite runs, by the names allowed_commands allows them by. */
const ALLOWED = ["dash", "env", "node", "run.sh", "tool.js", "nested.sh", "evil.sh"];

const MODES: { name: string; settings: RunSettings; skip: boolean }[] = [
  { name: "eBPF", settings: { recorder: "ebpf" }, skip: !EBPF },
  { name: "strace", settings: { recorder: "strace" }, skip: false },
  { name: "strace as nobody", settings: { recorder: "strace", asNobody: true }, skip: !CAN_RUN_AS_NOBODY },
];

function script(s: Sandbox, name: string, text: string): string {
  const path = join(s.workspace, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** The suite: run.sh runs a node tool by a relative path and by PATH, and a script whose interpreter is a script. */
function suite(s: Sandbox, hostile: boolean): string[] {
  script(s, "bin/tool.js", "#!/usr/bin/env node\nprocess.exitCode = process.argv.length > 2 ? 0 : 1;\n");
  script(s, "inner.sh", '#!/bin/sh\ntest "$1" = -x\n');
  script(s, "nested.sh", `#!${join(s.workspace, "inner.sh")} -x\nnot read by the kernel\n`);
  const lines = ["#!/bin/sh -e", "./bin/tool.js rel", 'PATH="$PWD/bin:$PATH" tool.js path', "./nested.sh n"];
  if (hostile) {
    // The twin: a script whose interpreter is an undeclared program the run brought along.
    mkdirSync(join(s.workspace, "tools"), { recursive: true });
    copyFileSync("/usr/bin/true", join(s.workspace, "tools/evil"));
    chmodSync(join(s.workspace, "tools/evil"), 0o755);
    script(s, "evil.sh", `#!${join(s.workspace, "tools/evil")}\n`);
    lines.push("./evil.sh e");
  }
  script(s, "run.sh", lines.join("\n") + "\n");
  return ["./run.sh", "top"];
}

/** The log's exec lines as the canonical form (pids and times aside), the workspace written W. */
function execs(lines: Record<string, unknown>[], s: Sandbox): string[] {
  return lines
    .filter((l) => l.kind === "exec" && l.canary !== true && l.source === "process")
    .map((l) =>
      JSON.stringify({ path: l.path, argv: l.argv, ...(l.interpreter === undefined ? {} : { interpreter: l.interpreter }) }).replaceAll(
        s.workspace,
        "W",
      ),
    )
    .sort();
}

function footprint(log: string): LogFootprint {
  return logFootprint(walkLog({ file: "observer.jsonl", bytes: readFileSync(log) }, null));
}

const expected = (hostile: boolean): string[] =>
  [
    { path: "W/run.sh", argv: ["/bin/sh", "-e", "W/run.sh", "top"], interpreter: DASH },
    { path: "W/bin/tool.js", argv: ["/usr/bin/env", "node", "./bin/tool.js", "rel"], interpreter: ENV },
    { path: NODE, argv: ["node", "./bin/tool.js", "rel"] },
    { path: "W/bin/tool.js", argv: ["/usr/bin/env", "node", "W/bin/tool.js", "path"], interpreter: ENV },
    { path: NODE, argv: ["node", "W/bin/tool.js", "path"] },
    { path: "W/nested.sh", argv: ["/bin/sh", "W/inner.sh", "-x", "./nested.sh", "n"], interpreter: DASH },
    ...(hostile ? [{ path: "W/evil.sh", argv: ["W/tools/evil", "./evil.sh", "e"], interpreter: "W/tools/evil" }] : []),
  ]
    .map((e) => JSON.stringify(e))
    .sort();

describe.skipIf(!JAIL_AVAILABLE)("one exec record for one exec, whichever recorder", () => {
  it("a suite of #! scripts: the same canonical exec lines and no footprint difference under eBPF, strace, strace as nobody", async () => {
    const runs: { mode: string; execs: string[]; footprint: LogFootprint }[] = [];
    for (const mode of MODES.filter((m) => !m.skip)) {
      const s = sandbox({ allowed_env: ["PATH"], allowed_commands: ALLOWED });
      const r = await run(s, suite(s, false), mode.settings);
      expect(r.code, `${mode.name}: ${r.stderr}`).toBe(0);
      expect(r.lines[0]?.recorder).toEqual({ name: mode.settings.recorder });
      const found = execs(r.lines, s);
      // The command's own exec line is the launcher's: the path it was given, resolved by the wrapper.
      expect(found, mode.name).toEqual(expected(false));
      const report = await check(s);
      expect({ mode: mode.name, verdict: report.verdict, ids: ids(report) }).toEqual({ mode: mode.name, verdict: "pass", ids: [] });
      runs.push({ mode: mode.name, execs: found, footprint: footprint(r.log) });
    }
    expect(runs.length).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = runs as [(typeof runs)[number], ...typeof runs];
    expect([...first.footprint.classes.commands.keys()].sort()).toEqual(
      ["${WORKSPACE}/bin/tool.js", "${WORKSPACE}/nested.sh", "${WORKSPACE}/run.sh", DASH, ENV, "node"].sort(),
    );
    for (const other of rest) {
      expect(other.execs, `${other.mode} against ${first.mode}`).toEqual(first.execs);
      for (const [a, b] of [
        [first, other],
        [other, first],
      ] as const) {
        const diff = compareFootprints(a.footprint, b.footprint);
        expect({ against: b.mode, new: diff.new, no_longer: diff.no_longer }).toEqual({
          against: b.mode,
          new: { env: [], hosts: [], commands: [], write_dirs: [], tools: [] },
          no_longer: { env: 0, hosts: 0, commands: 0, write_dirs: 0, tools: 0 },
        });
      }
    }
  });

  for (const mode of MODES) {
    it.skipIf(mode.skip)(
      `a script the wrapper may not read (mode 0111; the kernel runs it anyway): its undeclared interpreter still fails check (${mode.name})`,
      async () => {
        const s = sandbox({ allowed_env: ["PATH"], allowed_commands: [...ALLOWED, "locked.sh"] });
        mkdirSync(join(s.workspace, "tools"), { recursive: true });
        copyFileSync("/usr/bin/true", join(s.workspace, "tools/evil"));
        chmodSync(join(s.workspace, "tools/evil"), 0o755);
        script(s, "locked.sh", `#!${join(s.workspace, "tools/evil")}\n`);
        chmodSync(join(s.workspace, "locked.sh"), 0o111);
        script(s, "run.sh", "#!/bin/sh -e\n./locked.sh\n");
        const r = await run(s, ["./run.sh"], mode.settings);
        expect(r.code, r.stderr).toBe(0);
        const report = await check(s);
        expect(report.verdict).toBe("envelope_fail");
        const evil = `undeclared_command:${join(s.workspace, "tools/evil")}`;
        if (mode.settings.recorder === "ebpf") expect(ids(report)).toEqual([evil]);
        // strace asks /proc/<pid>/exe; on a busy machine the interpreter may have exited by then, and
        // the exec is judged by its /proc path instead: failed either way, never a pass.
        else
          expect(ids(report)).toEqual([
            expect.stringMatching(new RegExp(`^(${evil.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|undeclared_command:/proc/\\d+/exe)$`)),
          ]);
      },
    );

    it.skipIf(mode.skip)(`the hostile twin: a script whose interpreter is an undeclared program fails check (${mode.name})`, async () => {
      const s = sandbox({ allowed_env: ["PATH"], allowed_commands: ALLOWED });
      const r = await run(s, suite(s, true), mode.settings);
      expect(r.code, r.stderr).toBe(0);
      expect(execs(r.lines, s)).toEqual(expected(true));
      const report = await check(s);
      expect(report.verdict).toBe("envelope_fail");
      expect(ids(report)).toEqual([`undeclared_command:${join(s.workspace, "tools/evil")}`]);
      // The interpreter is a command of the run's footprint, by its path.
      expect([...footprint(r.log).classes.commands.keys()]).toContain("${WORKSPACE}/tools/evil");
    });
  }
});
