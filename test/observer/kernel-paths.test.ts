/**
 * Paths the kernel used (issue 29, items 3 and 4), through the real bundle in the three modes:
 * root with the eBPF recorder, root with strace, and nobody (strace). Each attack is judged where
 * the kernel left its effect (the host file is stat'ed after the run), and has a clean twin; each
 * false positive of the recorders passes.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, CC, JAIL_AVAILABLE, ROOT, check, compileC, ids, program, run, sandbox, type Sandbox } from "./harness.js";

const EBPF = process.arch === "x64" && existsSync(join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64")) && process.geteuid?.() === 0;
const PYTHON = "/usr/bin/python3";

interface Mode {
  name: string;
  recorder: "ebpf" | "strace";
  asNobody: boolean;
  skip: boolean;
}

const MODES: Mode[] = [
  { name: "root, eBPF", recorder: "ebpf", asNobody: false, skip: !EBPF },
  { name: "root, strace", recorder: "strace", asNobody: false, skip: false },
  { name: "nobody, strace", recorder: "strace", asNobody: true, skip: !CAN_RUN_AS_NOBODY },
];

async function runIn(mode: Mode, s: Sandbox, command: string[]): Promise<Awaited<ReturnType<typeof check>>> {
  if (mode.asNobody) {
    // Everything the program touches is nobody's, as a checkout of nobody's would be.
    for (const dir of [s.workspace, s.scratch]) execFileSync("chown", ["-R", "65534:65534", dir]);
  }
  const r = await run(s, command, { recorder: mode.recorder, asNobody: mode.asNobody });
  expect(r.lines[0]?.recorder, r.stderr).toMatchObject({ name: mode.recorder });
  return check(s);
}

/** `ln -s <workspace>/sub/x <scratch>/lnk`, then mv through `lnk/..`: the kernel follows lnk first. */
function dotDotScript(s: Sandbox, target: string): string {
  return [`ln -s ${s.workspace}/sub/x ${s.scratch}/lnk`, `mv ${s.scratch}/lnk/../A ${s.scratch}/lnk/../${target}`].join(" && ");
}

const CLONE_FS = `#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
static char *dir;
static int child(void *a) { (void)a; return chdir(dir) == 0 ? 0 : 1; }
int main(int argc, char **argv) {
  dir = argv[1];
  int flags = strcmp(argv[2], "share") == 0 ? CLONE_FS : 0;
  char *stack = malloc(1 << 16);
  pid_t p = clone(child, stack + (1 << 16), flags | SIGCHLD, 0);
  if (p < 0) return 2;
  waitpid(p, 0, 0);
  /* The rename system call itself: relative names, no directory fd on the line. */
  return syscall(SYS_rename, "A", ".git") == 0 ? 0 : 3;
}
`;

/** Opens the directory as fd 3, renames through /proc/self/fd/3, then fd 3 is the scratch. */
const FD_REUSE = (s: Sandbox, dir: string): string =>
  [
    "import os",
    `fd = os.open(${JSON.stringify(dir)}, os.O_RDONLY | os.O_DIRECTORY)`,
    "assert fd == 3, fd",
    "os.rename(f'/proc/self/fd/{fd}/A', f'/proc/self/fd/{fd}/.git')",
    "os.close(fd)",
    `assert os.open(${JSON.stringify(s.scratch)}, os.O_RDONLY | os.O_DIRECTORY) == 3`,
  ].join("\n");

describe.skipIf(!JAIL_AVAILABLE)("paths the kernel used", () => {
  for (const mode of MODES) {
    describe.skipIf(mode.skip)(mode.name, () => {
      it("`..` after a symlink: the kernel follows lnk before `..`; the rename into <workspace>/sub/.git is judged, the clean twin passes", async () => {
        const s = sandbox();
        mkdirSync(join(s.workspace, "sub/x"), { recursive: true });
        mkdirSync(join(s.workspace, "sub/A"));
        const report = await runIn(mode, s, ["sh", "-c", dotDotScript(s, ".git")]);
        expect(existsSync(join(s.workspace, "sub/.git")), "the kernel made it").toBe(true);
        expect(ids(report)).toContain(`write_protected:${s.workspace}/sub/.git`);

        const clean = sandbox();
        mkdirSync(join(clean.workspace, "sub/x"), { recursive: true });
        mkdirSync(join(clean.workspace, "sub/A"));
        const cleanReport = await runIn(mode, clean, ["sh", "-c", dotDotScript(clean, "B")]);
        expect(existsSync(join(clean.workspace, "sub/B"))).toBe(true);
        expect(cleanReport.error).toBeNull();
        expect(cleanReport.verdict, JSON.stringify(cleanReport.violations)).toBe("pass");
      });

      it.skipIf(CC === undefined)(
        "clone(CLONE_FS): the child's chdir moves the parent's cwd, and the parent's rename is at the workspace path; without CLONE_FS it is the scratch's",
        async () => {
          const s = sandbox();
          mkdirSync(join(s.workspace, "sub/A"), { recursive: true });
          mkdirSync(join(s.scratch, "A"));
          const prog = compileC(s, "clone-fs", CLONE_FS);
          chmodSync(join(s.base, "programs"), 0o755);
          const report = await runIn(mode, s, ["sh", "-c", `cd ${s.scratch} && ${prog} ${s.workspace}/sub share`]);
          expect(existsSync(join(s.workspace, "sub/.git")), "the kernel renamed in the workspace").toBe(true);
          expect(ids(report)).toContain(`write_protected:${s.workspace}/sub/.git`);

          const clean = sandbox();
          mkdirSync(join(clean.workspace, "sub/A"), { recursive: true });
          mkdirSync(join(clean.scratch, "A"));
          const cleanProg = compileC(clean, "clone-fs", CLONE_FS);
          chmodSync(join(clean.base, "programs"), 0o755);
          const cleanReport = await runIn(mode, clean, ["sh", "-c", `cd ${clean.scratch} && ${cleanProg} ${clean.workspace}/sub own`]);
          expect(existsSync(join(clean.scratch, ".git"))).toBe(true);
          expect(existsSync(join(clean.workspace, "sub/.git"))).toBe(false);
          expect(cleanReport.error).toBeNull();
          expect(cleanReport.verdict, JSON.stringify(cleanReport.violations)).toBe("pass");
        },
      );

      it("a rename through /proc/self/fd/3 whose fd 3 is the scratch afterwards: never a PASS, never the scratch's path", async () => {
        const s = sandbox();
        mkdirSync(join(s.workspace, "sub/A"), { recursive: true });
        const script = program(s, "fd-reuse.py", FD_REUSE(s, join(s.workspace, "sub")));
        chmodSync(join(s.base, "programs"), 0o755);
        const report = await runIn(mode, s, [PYTHON, script]);
        expect(existsSync(join(s.workspace, "sub/.git")), "the kernel renamed in the workspace").toBe(true);
        expect(report.verdict).not.toBe("pass");
        // Either the path is the kernel's (the workspace's .git), or the run says it cannot be known.
        if (report.error !== null) {
          expect(report.error.code).toBe("OBSERVER_PATH_UNKNOWN");
          expect(report.error.message).toMatch(/fd-path|unknown|path/);
        } else {
          expect(ids(report)).toContain(`write_protected:${s.workspace}/sub/.git`);
        }
        expect(JSON.stringify(report)).not.toContain(`${s.scratch}/.git`);

        // The clean twin: the same renames by their names.
        const clean = sandbox();
        mkdirSync(join(clean.workspace, "sub/A"), { recursive: true });
        const cleanScript = program(
          clean,
          "plain.py",
          `import os\nos.rename(${JSON.stringify(join(clean.workspace, "sub/A"))}, ${JSON.stringify(join(clean.workspace, "sub/B"))})\n`,
        );
        chmodSync(join(clean.base, "programs"), 0o755);
        const cleanReport = await runIn(mode, clean, [PYTHON, cleanScript]);
        expect(existsSync(join(clean.workspace, "sub/B"))).toBe(true);
        expect(cleanReport.error).toBeNull();
        expect(cleanReport.verdict, JSON.stringify(cleanReport.violations)).toBe("pass");
      });

      it("a known limit: renaming the process's own cwd from inside it is refused as changed-during-call under eBPF (never a wrong path); strace passes", async () => {
        const s = sandbox();
        mkdirSync(join(s.workspace, "a"));
        const report = await runIn(mode, s, ["sh", "-c", "cd a && mv ../a ../b"]);
        expect(existsSync(join(s.workspace, "b")), "the kernel renamed it").toBe(true);
        if (mode.recorder === "ebpf") {
          // The cwd the name is relative to is walked at entry and again at exit, and they differ.
          expect(report.error?.code).toBe("OBSERVER_PATH_UNKNOWN");
          expect(report.error?.message).toContain("changed-during-call");
        } else {
          expect(report.error).toBeNull();
          expect(report.verdict, JSON.stringify(report.violations)).toBe("pass");
        }
      });

      it("false positives: the program's own memfd, and an O_TMPFILE file linked by its fd whose number a socket takes next, pass", async () => {
        const s = sandbox();
        const script = program(
          s,
          "fds.py",
          [
            "import os, socket",
            "m = os.memfd_create('buf')",
            "with open(f'/proc/self/fd/{m}', 'wb') as f: f.write(b'x' * 100)",
            "os.ftruncate(m, 4096)",
            "os.fchmod(m, 0o600)",
            "os.close(m)",
            `t = os.open(${JSON.stringify(s.scratch)}, os.O_TMPFILE | os.O_WRONLY, 0o600)`,
            "os.write(t, b'tmp')",
            // linkat(AT_FDCWD, "/proc/self/fd/N", AT_FDCWD, name, AT_SYMLINK_FOLLOW): os.link would call link(2).
            "import ctypes",
            "libc = ctypes.CDLL(None, use_errno=True)",
            `assert libc.linkat(-100, f'/proc/self/fd/{t}'.encode(), -100, ${JSON.stringify(join(s.scratch, "named"))}.encode(), 0x400) == 0, ctypes.get_errno()`,
            "os.close(t)",
            "sk = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
            "assert sk.fileno() == t, (sk.fileno(), t)",
          ].join("\n"),
        );
        chmodSync(join(s.base, "programs"), 0o755);
        const report = await runIn(mode, s, [PYTHON, script]);
        expect(existsSync(join(s.scratch, "named")), "the program ran to the link").toBe(true);
        expect(report.error).toBeNull();
        expect(report.verdict, JSON.stringify(report.violations)).toBe("pass");
      });

      it("git status and git diff in a clean run pass (GIT_OPTIONAL_LOCKS=0, diff.autoRefreshIndex=false: no index.lock); a write into .git is still judged", async () => {
        const s = sandbox();
        const git = (...args: string[]): void => {
          execFileSync("git", ["-C", s.workspace, ...args], { stdio: "ignore", env: { ...process.env, HOME: s.home } });
        };
        git("init", "-q");
        writeFileSync(join(s.workspace, "f.txt"), "one\n");
        writeFileSync(join(s.workspace, "g.txt"), "same\n");
        writeFileSync(join(s.workspace, "h.txt"), "same\n");
        git("add", "f.txt", "g.txt", "h.txt");
        git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "one");
        // A stale index: a plain `git status` would refresh it under .git/index.lock.
        writeFileSync(join(s.workspace, "f.txt"), "two\n");
        // g.txt and h.txt with another mtime and the same bytes: git diff would refresh the index under index.lock.
        for (const name of ["g.txt", "h.txt"]) utimesSync(join(s.workspace, name), 1_000_000_000, 1_000_000_000);
        const report = await runIn(mode, s, [
          "sh",
          "-c",
          "touch f.txt && git status --porcelain > /dev/null && git diff > /dev/null && git diff --stat HEAD > /dev/null; true",
        ]);
        expect(report.error).toBeNull();
        expect(report.verdict, JSON.stringify(report.violations)).toBe("pass");

        const dirty = await runIn(mode, s, ["sh", "-c", "git add f.txt 2>/dev/null; true"]);
        expect(
          ids(dirty).some((id) => id.startsWith(`write_protected:${s.workspace}/.git/`)),
          JSON.stringify(dirty),
        ).toBe(true);
      });
    });
  }
});
