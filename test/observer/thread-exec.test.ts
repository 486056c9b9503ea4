/**
 * A program executed by a thread other than the main one, through the real wrapper (`run`, then
 * `check`): the kernel gives the executing thread the process's pid, and strace tells it in lines
 * of their own (pid changed, superseded, resumed under the leader's pid). The exec must be judged
 * against allowed_commands like any other, as root and as an unprivileged user.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BASE_ENVELOPE,
  CAN_RUN_AS_NOBODY,
  JAIL_AVAILABLE,
  check,
  ids,
  program,
  run,
  sandbox,
  type RunResult,
  type Sandbox,
  CC,
  compileC,
} from "./harness.js";

const PYTHON = "/usr/bin/python3";
const TRUE = realpathSync("/bin/true");

const c = compileC;

const C_THREAD_EXEC = `#include <pthread.h>
#include <unistd.h>
static void *run(void *arg) {
  char *argv[] = {"true", "from-thread", 0};
  execv("/bin/true", argv);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  return 5;
}
`;

const PYTHON_THREAD_EXEC = `import os, sys, threading
t = threading.Thread(target=lambda: os.execv("/bin/true", ["true", "from-python-thread"]))
t.start()
t.join()
sys.exit(5)
`;

const MODES = [
  { who: "root", asNobody: false },
  { who: "nobody", asNobody: true },
];

interface Case {
  name: string;
  skip: boolean;
  /** The program and what it was started as (allowed_commands names the first). */
  command: (s: Sandbox) => { command: string[]; allowed: string[] };
  argv: string[];
}

const CASES: Case[] = [
  {
    name: "a C program's pthread executes /bin/true",
    skip: CC === undefined,
    command: (s) => {
      const bin = c(s, "thread-exec", C_THREAD_EXEC);
      return { command: [bin], allowed: [bin] };
    },
    argv: ["true", "from-thread"],
  },
  {
    name: "Python's os.execv from a threading.Thread executes /bin/true",
    skip: !existsSync(PYTHON),
    command: (s) => ({
      command: [PYTHON, program(s, "thread-exec.py", PYTHON_THREAD_EXEC)],
      allowed: [PYTHON, realpathSync(PYTHON)],
    }),
    argv: ["true", "from-python-thread"],
  },
];

/**
 * A shared object whose constructor starts a thread that executes PROGRAM (argv given): loaded
 * into Node with process.dlopen, it turns a Node process into another program from a thread.
 */
function threadExecLibrary(s: Sandbox, name: string, argv: string[]): string {
  const src = program(
    s,
    `${name}.c`,
    `#include <pthread.h>
#include <unistd.h>
static void *run(void *arg) {
  char *argv[] = {${argv.map((a) => JSON.stringify(a)).join(", ")}, 0};
  execv(argv[0], argv);
  return 0;
}
__attribute__((constructor)) static void start(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
}
`,
  );
  const lib = join(s.base, "programs", `${name}.so`);
  const r = spawnSync(CC as string, ["-O1", "-shared", "-fPIC", "-pthread", "-Wl,-z,nodelete", "-o", lib, src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return lib;
}

/** Pins allowed_commands once the program's path is known (the sandbox wrote its envelope first). */
function allowCommands(s: Sandbox, commands: string[]): void {
  const text = JSON.stringify({ ...BASE_ENVELOPE, allowed_commands: commands }, null, 2) + "\n";
  writeFileSync(s.envelope, text);
  writeFileSync(`${s.envelope}.sha256`, `${createHash("sha256").update(text).digest("hex")}  envelope.json\n`);
}

/** The observer's exec records, real ones only. */
function execRecords(r: RunResult): { pid: unknown; path: unknown; argv: unknown }[] {
  return r.lines.filter((l) => l.kind === "exec" && l.canary !== true).map((l) => ({ pid: l.pid, path: l.path, argv: l.argv }));
}

describe.skipIf(!JAIL_AVAILABLE)("exec from a thread other than the main one", () => {
  for (const { who, asNobody } of MODES) {
    for (const k of CASES) {
      it.skipIf(k.skip || (asNobody && !CAN_RUN_AS_NOBODY))(`${k.name}, as ${who}: judged undeclared_command`, async () => {
        const s = sandbox();
        const { command, allowed } = k.command(s);
        allowCommands(s, allowed);
        const r = await run(s, command, { asNobody });
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.code).toBe(0);
        const records = execRecords(r);
        const started = records[0];
        // Recorded under the pid the process has after the exec: the one it started with.
        expect(records.find((e) => e.path === TRUE)).toEqual({ pid: started?.pid, path: TRUE, argv: k.argv });
        const report = await check(s);
        expect(report.verdict).toBe("envelope_fail");
        expect(ids(report)).toEqual([`undeclared_command:${TRUE}`]);
      });

      it.skipIf(k.skip || (asNobody && !CAN_RUN_AS_NOBODY))(`${k.name}, as ${who}, with true allowed: passes`, async () => {
        const s = sandbox();
        const { command, allowed } = k.command(s);
        allowCommands(s, [...allowed, basename(TRUE)]);
        const r = await run(s, command, { asNobody });
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.code).toBe(0);
        expect(execRecords(r).map((e) => e.path)).toContain(TRUE);
        const report = await check(s);
        expect(report.violations).toEqual([]);
        expect(report.verdict).toBe("pass");
      });
    }
  }
});

describe.skipIf(!JAIL_AVAILABLE || CC === undefined)("the hooks' channel after a thread's exec", () => {
  // Loads the library, then waits: the thread's exec ends the Node process, or the wait times out.
  const loader = (lib: string): string =>
    `try { process.dlopen({ exports: {} }, ${JSON.stringify(lib)}); } catch {}\nsetTimeout(() => process.exit(9), 20000);`;

  for (const { who, asNobody } of MODES) {
    it.skipIf(asNobody && !CAN_RUN_AS_NOBODY)(
      `a Node process whose thread executes a shell that opens the channel, as ${who}: OBSERVER_CHANNEL_TAMPERED (it is no longer Node)`,
      async () => {
        const s = sandbox();
        const lib = threadExecLibrary(s, "to-shell", ["/bin/sh", "-c", 'eval "set -- $NODE_OPTIONS"; : > "$(dirname "$2")/events.fifo"']);
        const r = await run(s, ["node", program(s, "load.js", loader(lib))], { asNobody });
        expect(r.stderr).toContain("OBSERVER_CHANNEL_TAMPERED");
        expect(r.stderr).toContain("which is not Node");
        expect(r.code).toBe(3);
      },
    );

    it.skipIf(asNobody && !CAN_RUN_AS_NOBODY)(
      `a Node process whose thread executes Node again, whose hooks write to the channel, as ${who}: passes`,
      async () => {
        const s = sandbox();
        const lib = threadExecLibrary(s, "to-node", [
          process.execPath,
          "-e",
          'require("fs").writeFileSync(process.env.SCRATCH + "/n.txt", "n")',
        ]);
        const r = await run(s, ["node", program(s, "load.js", loader(lib))], { asNobody });
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.code).toBe(0);
        const execs = r.lines.filter((l) => l.kind === "exec" && l.canary !== true);
        expect(new Set(execs.map((e) => e.pid)).size).toBe(1);
        expect(execs).toHaveLength(2);
        expect(r.lines.some((l) => l.kind === "write" && l.path === join(s.scratch, "n.txt"))).toBe(true);
        const report = await check(s);
        expect(report.violations).toEqual([]);
        expect(report.verdict).toBe("pass");
      },
    );
  }
});
