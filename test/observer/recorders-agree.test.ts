/**
 * The two process recorders against each other: the same hostile and ordinary programs run once
 * under strace (the reference) and once under the eBPF recorder, and the logs must hold the same
 * events (pids, times and sequence numbers aside; the order across processes may differ, so the
 * events are compared as multisets). Then both logs get the same verdict from `check`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CC, JAIL_AVAILABLE, ROOT, check, compileC, program, run, sandbox, type Sandbox } from "./harness.js";

const EBPF = process.arch === "x64" && existsSync(join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64")) && process.geteuid?.() === 0;
const PYTHON = "/usr/bin/python3";

/** Fields that differ from run to run whatever the recorder. */
const VARYING = new Set(["ts", "seq", "pid", "ppid", "jail_pid"]);

/** A log's events as comparable text: what was done, not by which pid or when. */
function events(lines: Record<string, unknown>[], s: Sandbox): string[] {
  return lines
    .filter((l) => l.kind !== "meta" && l.kind !== "end" && l.canary !== true)
    .map((l) => {
      const rest = Object.fromEntries(Object.entries(l).filter(([k]) => !VARYING.has(k)));
      return JSON.stringify(rest).replaceAll(s.base, "<base>");
    })
    .sort();
}

interface Scenario {
  name: string;
  skip?: boolean;
  command: (s: Sandbox) => string[];
  /** Texts some event of the reference log must hold: the scenario did what it says. */
  seen: string[];
}

const SCENARIOS: Scenario[] = [
  {
    name: "file changes in and out of the roots, relative names after cd, /proc/self/cwd, links, renames, modes",
    command: (s) => [
      "sh",
      "-c",
      [
        "echo a > a.txt",
        "mkdir -p d/e",
        "mv a.txt d/b.txt",
        "ln -s b.txt d/l",
        "ln d/b.txt d/hard",
        "chmod 600 d/b.txt",
        "touch d/b.txt",
        `echo x > ${s.outside}/no 2>/dev/null`,
        `mkdir ${s.outside}/dir 2>/dev/null`,
        `cd ${s.outside} && rm -f ./x 2>/dev/null`,
        `cd ${s.workspace}/d && echo y > /proc/self/cwd/rel`,
        `truncate -s 0 ${s.workspace}/d/rel`,
        "rm -rf d/e",
        "cat /etc/hostname > /dev/null",
      ].join("; "),
    ],
    seen: ['"path":"<base>/outside/no","op":"create"', '"path":"<base>/workspace/d/rel","op":"create"', '"op":"link"', '"op":"truncate"'],
  },
  {
    name: "connections and sends: IPv4, IPv6, UDP, unix paths, abstract names (the jail's own: not recorded by either)",
    command: () => [
      PYTHON,
      "-c",
      [
        "import socket",
        "def t(f):",
        "    try: f()",
        "    except OSError: pass",
        "s = socket.socket(); s.settimeout(0.2); t(lambda: s.connect(('10.1.2.3', 443)))",
        "u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); t(lambda: u.sendto(b'x', ('10.9.9.9', 53)))",
        "v = socket.socket(socket.AF_INET6); v.settimeout(0.2); t(lambda: v.connect(('2001:db8::1', 80)))",
        "x = socket.socket(socket.AF_UNIX); t(lambda: x.connect('/run/nothing-here.sock'))",
        "y = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); t(lambda: y.sendto(b'x', '\\0abstract-name'))",
        "z = socket.socket(socket.AF_UNIX); t(lambda: z.bind('bound.sock'))",
      ].join("\n"),
    ],
    seen: ['"host":"10.1.2.3","port":443', '"host":"10.9.9.9","port":53', '"host":"2001:db8::1"', '"op":"bind"'],
  },
  {
    name: "calls the jail forbids: a user namespace, mount, ptrace, bpf, perf_event_open",
    command: () => [
      PYTHON,
      "-c",
      [
        "import ctypes",
        "libc = ctypes.CDLL(None, use_errno=True)",
        "libc.unshare(0x10000000)",
        "libc.mount(b'none', b'/mnt', b'tmpfs', 0, None)",
        "libc.ptrace(0, 0, 0, 0)",
        "libc.syscall(321, 0, 0, 0)",
        "libc.syscall(298, 0, 0, -1, -1, 0)",
      ].join("\n"),
    ],
    seen: ['"name":"unshare"', '"name":"mount"', '"name":"ptrace"', '"name":"bpf"', '"name":"perf_event_open"'],
  },
  {
    name: "execs: a thread's, vfork's child's, a memfd's (fexecve), a script's, a symlink named like another tool",
    skip: CC === undefined,
    command: (s) => {
      const threadExec = compileC(
        s,
        "thread-exec",
        `#include <pthread.h>
#include <unistd.h>
static void *go(void *a) { (void)a; char *argv[] = {"true", "from-thread", 0}; execv("/bin/true", argv); return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, go, 0); pthread_join(t, 0); return 5; }
`,
      );
      const vforkExec = compileC(
        s,
        "vfork-exec",
        `#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) { pid_t p = vfork(); if (p == 0) { char *argv[] = {"true", "from-vfork", 0}; execv("/bin/true", argv); _exit(1); }
  waitpid(p, 0, 0); return 0; }
`,
      );
      const script = program(s, "script.sh", "#!/bin/sh\necho from-script > /dev/null\n");
      const memfd = program(
        s,
        "memfd.py",
        'import os\nfd = os.memfd_create("payload", 0)\nos.write(fd, open("/bin/true", "rb").read())\npid = os.fork()\nif pid == 0:\n    os.execve(fd, ["payload"], {})\nos.waitpid(pid, 0)\n',
      );
      return [
        "sh",
        "-c",
        `chmod +x ${script}; ${threadExec}; ${vforkExec}; ${script}; ${PYTHON} ${memfd}; ln -sf /bin/true ./git && ./git status`,
      ];
    },
    seen: [
      '"argv":["true","from-thread"]',
      '"argv":["true","from-vfork"]',
      '"path":"/memfd:payload"',
      "script.sh",
      '"path":"<base>/workspace/git"',
    ],
  },
];

describe.skipIf(!JAIL_AVAILABLE || !EBPF)("the eBPF recorder records what strace records", () => {
  for (const scenario of SCENARIOS) {
    it.skipIf(scenario.skip === true)(scenario.name, async () => {
      const logs: Record<string, string[]> = {};
      const verdicts: Record<string, unknown> = {};
      for (const recorder of ["strace", "ebpf"]) {
        const s = sandbox();
        const r = await run(s, scenario.command(s), { recorder });
        expect(r.stderr).not.toContain("ERROR");
        expect(r.lines[0]?.recorder).toEqual({ name: recorder });
        expect(r.lines.some((l) => l.kind === "end")).toBe(true);
        logs[recorder] = events(r.lines, s);
        const report = await check(s);
        verdicts[recorder] = {
          verdict: report.verdict,
          violations: report.violations.map((v) => v.id.replaceAll(s.base, "<base>")).sort(),
        };
      }
      const reference = (logs.strace ?? []).join("\n");
      for (const text of scenario.seen) expect(reference).toContain(text);
      expect(logs.ebpf).toEqual(logs.strace);
      expect(verdicts.ebpf).toEqual(verdicts.strace);
    });
  }
});
