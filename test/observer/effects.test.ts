/**
 * The effects check (docs/observer.md, "The effects check"), through the real bundle in the three
 * modes: programs that make a `.git` in the workspace while the recorder's line may name the
 * scratch (test/observer/effects-programs.ts) fail the gate with `write_protected` for the `.git`
 * the kernel really made; each clean twin does the same where the scratch's exemption applies and
 * passes.
 */
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EFFECTS_PROGRAMS } from "./effects-programs.js";
import {
  CAN_RUN_AS_NOBODY,
  CC,
  JAIL_AVAILABLE,
  ROOT,
  check,
  compileC,
  ids,
  run,
  sandbox,
  type RunSettings,
  type Sandbox,
} from "./harness.js";

const EBPF = process.arch === "x64" && existsSync(join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64")) && process.geteuid?.() === 0;

const MODES: { name: string; settings: RunSettings; available: boolean }[] = [
  { name: "root, eBPF recorder", settings: { recorder: "ebpf" }, available: EBPF },
  { name: "root, strace recorder", settings: { recorder: "strace" }, available: true },
  { name: "unprivileged (nobody)", settings: { asNobody: true }, available: CAN_RUN_AS_NOBODY },
];

interface Attack {
  name: string;
  program: keyof typeof EFFECTS_PROGRAMS;
  /** The program's arguments; `target` is where its git directories land (the workspace's sub, or the twin's scratch sub). */
  args: (s: Sandbox, target: string) => string[];
  /** The git directories the kernel makes under `target`. */
  made: (target: string) => string[];
  /** A race: the git directory lands in `target` only if the program says "won". */
  race?: boolean;
}

const hook = (s: Sandbox): string => join(s.outside, "pwned");
const TRIES = 3;

const ATTACKS: Attack[] = [
  {
    name: "`..` after a symlink (ln -s WS/sub/x SCRATCH/lnk; rename SCRATCH/lnk/../A SCRATCH/lnk/../.git)",
    program: "dotdot-after-symlink",
    args: (s, target) => [s.scratch, target, hook(s)],
    made: (target) => [join(target, ".git")],
  },
  {
    name: "fd 3 swapped after a rename through /proc/self/fd/3/.git",
    program: "fd-swap",
    args: (s, target) => [s.scratch, target, hook(s), String(TRIES)],
    made: (target) => Array.from({ length: TRIES }, (_, i) => join(target, `d${i}`, ".git")),
  },
  {
    name: "a symlink swapped right after a rename through it",
    program: "symlink-swap",
    args: (s, target) => [s.scratch, target, hook(s), String(TRIES)],
    made: (target) => Array.from({ length: TRIES }, (_, i) => join(target, `d${i}`, ".git")),
  },
  {
    name: "a second thread rewriting the rename's destination while the call is in the kernel (up to 200 tries)",
    program: "destination-rewrite",
    args: (s, target) => [s.scratch, target, hook(s), "200"],
    made: (target) => [join(target, ".git")],
    race: true,
  },
  {
    name: "clone(CLONE_FS): a child's chdir moves the parent's cwd before rename(A, .git)",
    program: "clone-fs-chdir",
    args: (s, target) => [s.scratch, target, hook(s)],
    made: (target) => [join(target, ".git")],
  },
];

function effectsLines(lines: Record<string, unknown>[]): string[] {
  return lines.filter((l) => l.source === "effects").map((l) => `${String(l.op)} ${String(l.path)}`);
}

/**
 * What the recorder's lines alone say (the log without the effects lines, renumbered): printed, not
 * asserted, since it differs by recorder (this is the hole the effects check closes).
 */
async function recorderAlone(s: Sandbox, r: { log: string }): Promise<string> {
  const kept = readFileSync(r.log, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.source !== "effects");
  const out = kept.map((l, i) =>
    JSON.stringify({ ...l, ...(l.seq !== undefined ? { seq: i } : {}), ...(l.kind === "end" ? { events: i } : {}) }),
  );
  writeFileSync(join(s.base, "recorder-alone.jsonl"), out.join("\n") + "\n");
  const report = await check(s, "recorder-alone.jsonl");
  return report.error !== null ? `error ${report.error.code}` : `${report.verdict} ${ids(report).join(" ")}`;
}

/** A planted git directory, as the kernel left it on the host. */
function isPlanted(dir: string, s: Sandbox): boolean {
  return (
    existsSync(dir) && lstatSync(dir).isDirectory() && readFileSync(join(dir, "config"), "utf8").includes(`fsmonitor = touch ${hook(s)}`)
  );
}

describe.skipIf(!JAIL_AVAILABLE || CC === undefined)(
  "the effects check: a .git the kernel made is judged, whatever the recorder said",
  () => {
    for (const mode of MODES) {
      describe(mode.name, () => {
        for (const attack of ATTACKS) {
          it.skipIf(!mode.available)(`${attack.name}: the .git in the workspace fails the gate`, async () => {
            const s = sandbox();
            const bin = compileC(s, attack.program, EFFECTS_PROGRAMS[attack.program]);
            const target = join(s.workspace, "sub");
            const r = await run(s, [bin, ...attack.args(s, target)], mode.settings);
            expect(r.code, r.stderr).toBe(0);
            const made = attack.made(target);
            const won = !attack.race || r.stdout.startsWith("won");
            if (attack.race) console.log(`effects.test: ${mode.name}: the destination race: ${r.stdout.trim()}`);
            const report = await check(s);
            if (!won) {
              // The race never won in 200 tries: nothing landed in the workspace, and the check saw nothing there.
              console.log(`effects.test: ${mode.name}: the destination race never won in 200 tries; only its absence is asserted`);
              expect(made.some((d) => existsSync(d))).toBe(false);
              expect(effectsLines(r.lines)).toEqual([]);
              return;
            }
            for (const dir of made) expect(isPlanted(dir, s), dir).toBe(true);
            console.log(`effects.test: ${mode.name}: ${attack.program}: the recorder's lines alone: ${await recorderAlone(s, r)}`);
            expect(effectsLines(r.lines)).toEqual(expect.arrayContaining(made.map((d) => `mkdir ${d}`)));
            // Where the recorder said it could not know the path (OBSERVER_PATH_UNKNOWN), check refuses
            // the whole log: fail closed, as a refusal rather than a list of violations.
            if (report.error !== null) {
              expect(report.error.code).toBe("OBSERVER_PATH_UNKNOWN");
            } else {
              expect(report.verdict).toBe("envelope_fail");
              expect(ids(report)).toEqual(expect.arrayContaining(made.map((d) => `write_protected:${d}`)));
            }
            // Nothing ran the planted hook: no git ran outside the jail.
            expect(existsSync(hook(s))).toBe(false);
          });

          it.skipIf(!mode.available)(`${attack.name}: its clean twin, in the scratch, passes`, async () => {
            const s = sandbox();
            const bin = compileC(s, attack.program, EFFECTS_PROGRAMS[attack.program]);
            const target = join(s.scratch, "sub");
            const r = await run(s, [bin, ...attack.args(s, target)], mode.settings);
            expect(r.code, r.stderr).toBe(0);
            const won = !attack.race || r.stdout.startsWith("won");
            if (won) for (const dir of attack.made(target)) expect(isPlanted(dir, s), dir).toBe(true);
            expect(effectsLines(r.lines)).toEqual([]);
            const report = await check(s);
            // A name through /proc/self/fd, or one rewritten while in the kernel, cannot be known
            // exactly by the recorder: check refuses it (OBSERVER_PATH_UNKNOWN), never a wrong PASS.
            if (report.error !== null) {
              expect(["fd-swap", "destination-rewrite"]).toContain(attack.program);
              expect(report.error.code).toBe("OBSERVER_PATH_UNKNOWN");
              return;
            }
            // The recorders' own false positive for a name through /proc/self/fd (issue 29, item 3, not
            // this check's): the name as given, outside every root. Everything else must be clean.
            const others = ids(report).filter(
              (id) => !(attack.program === "fd-swap" && id.startsWith("write_outside_root:/proc/self/fd/")),
            );
            expect(others.join("\n")).toBe("");
            if (others.length === ids(report).length) expect(report.verdict).toBe("pass");
          });
        }
      });
    }
  },
);

/** What the suite writes, from the workspace (its cwd). */
const GITMODULES_SUITE = [
  `printf '[submodule "x"]\\n\\tpath = x\\n\\turl = https://example.invalid/x\\n' > .gitmodules`,
  "mkdir -p sub/.github/workflows",
  "echo 'on: push' > sub/.github/workflows/x.yml",
].join(" && ");
const GITMODULES_TWIN = ["mkdir -p docs/sub", `printf '[submodule "x"]\\n' > docs/gitmodules.txt`, "echo 'on: push' > docs/sub/x.yml"].join(
  " && ",
);

describe.skipIf(!JAIL_AVAILABLE)("the effects check: .gitmodules and a nested .github the run left are judged", () => {
  for (const mode of MODES) {
    it.skipIf(!mode.available)(
      `${mode.name}: a suite that creates <workspace>/.gitmodules and <workspace>/sub/.github/workflows/x.yml fails with write_protected`,
      async () => {
        const s = sandbox();
        const r = await run(s, ["/bin/sh", "-c", GITMODULES_SUITE], mode.settings);
        expect(r.code, r.stderr).toBe(0);
        expect(readFileSync(join(s.workspace, ".gitmodules"), "utf8")).toContain("example.invalid");
        // The filesystem's own lines: the new file, and the new directory (what is inside it is its).
        expect(effectsLines(r.lines).sort()).toEqual([`create ${s.workspace}/.gitmodules`, `mkdir ${s.workspace}/sub/.github`]);
        const report = await check(s);
        expect(report.error).toBeNull();
        expect(report.verdict).toBe("envelope_fail");
        expect(ids(report)).toEqual(
          expect.arrayContaining([`write_protected:${s.workspace}/.gitmodules`, `write_protected:${s.workspace}/sub/.github`]),
        );
        // The recorder's own lines are judged by the same names (docs/observer.md, "The effects check").
        const alone = await recorderAlone(s, r);
        expect(alone).toContain(`write_protected:${s.workspace}/.gitmodules`);
        expect(alone).toContain(`write_protected:${s.workspace}/sub/.github/workflows/x.yml`);
      },
    );

    it.skipIf(!mode.available)(
      `${mode.name}: its clean twin, writing <workspace>/docs/gitmodules.txt and docs/sub/x.yml, passes`,
      async () => {
        const s = sandbox();
        const r = await run(s, ["/bin/sh", "-c", GITMODULES_TWIN], mode.settings);
        expect(r.code, r.stderr).toBe(0);
        expect(existsSync(join(s.workspace, "docs/gitmodules.txt"))).toBe(true);
        expect(effectsLines(r.lines)).toEqual([]);
        const report = await check(s);
        expect(report.error).toBeNull();
        expect(ids(report)).toEqual([]);
        expect(report.verdict).toBe("pass");
      },
    );
  }
});
