/**
 * The two process recorders against each other: the same hostile and ordinary programs run once
 * under strace (the reference) and once under the eBPF recorder, and the logs must hold the same
 * events (pids, times and sequence numbers aside; the order across processes may differ, so the
 * events are compared as multisets). Then both logs get the same verdict from `check`. Four broad
 * scenarios, then the battery (issue 29, item 5): one case per kind of mutation, so a failure
 * names the kind. The one place they legitimately differ (names through an fd) is `fdNames`.
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
      // An O_TMPFILE file's name is its inode number, which differs from run to run.
      return JSON.stringify(rest)
        .replaceAll(s.base, "<base>")
        .replace(/\/#\d+"/g, '/#<ino>"');
    })
    .sort();
}

/** What `check` said of a log: the verdict, a refusal's code, and the violations. */
interface Verdict {
  verdict: string;
  error: string | null;
  violations: string[];
}

interface Scenario {
  name: string;
  skip?: boolean;
  command: (s: Sandbox) => string[];
  /** Texts some event of the reference log must hold: the scenario did what it says. */
  seen: string[];
  /**
   * Where the recorders legitimately differ: names through `/proc/<pid>/fd/N` or `/dev/fd/N`.
   * Which file fd N was at the call is not in strace's line, and the strace recorder never asks
   * /proc after the call, so it writes such a name with `path_unknown` and `check` refuses its
   * log (OBSERVER_PATH_UNKNOWN); the eBPF recorder walks fd N's file in the kernel at the call's
   * entry. `names` maps each name strace wrote to the path the eBPF log must hold in its place;
   * `ebpfOnly` are lines strace leaves out (a hard link's source named through an fd, linked into
   * a mount where nothing is judged, so it cannot be a judged file); `verdict` is the eBPF log's.
   * Every other line is still held equal.
   */
  fdNames?: { names: Record<string, string>; ebpfOnly: string[]; verdict: Omit<Verdict, "error"> };
  /** The verdict both logs must get, where the scenario is a clean one. */
  verdict?: "pass";
}

/** The strace log with its unknown fd names put as the eBPF recorder knew them, and the eBPF log without the lines strace leaves out. */
function reconciled(strace: string[], ebpf: string[], fdNames: NonNullable<Scenario["fdNames"]>): { strace: string[]; ebpf: string[] } {
  const known = strace.map((line) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    if (event.path_unknown !== "fd-path") return line;
    const path = fdNames.names[event.path as string];
    expect(path, `strace's unknown ${String(event.path)} has no eBPF counterpart in the scenario`).toBeDefined();
    const known: Record<string, unknown> = { ...event, path };
    delete known.path_unknown;
    return JSON.stringify(known);
  });
  const left = [...ebpf];
  for (const line of fdNames.ebpfOnly) {
    const at = left.indexOf(line);
    expect(at, `the eBPF log holds ${line}`).toBeGreaterThanOrEqual(0);
    left.splice(at, 1);
  }
  return { strace: known.sort(), ebpf: left };
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

/**
 * Every program of the battery starts with this: the roots and the outside directory from argv,
 * libc for the calls Python has no wrapper for, and `t` for an attempt whose failure is the point
 * (a refused write outside the roots is still an attempt, judged).
 */
const PY_PRELUDE = [
  "import ctypes, os, socket, stat, sys, threading",
  "W, S, O = sys.argv[1:4]",
  "libc = ctypes.CDLL(None, use_errno=True)",
  "AT_FDCWD = -100",
  "def t(f, *a, **k):",
  "    try: return f(*a, **k)",
  "    except OSError: return None",
  "def touch(p, **k): os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644, **k))",
  "def b(p): return p.encode() if isinstance(p, str) else p",
  "os.chdir(W)",
].join("\n");

/** A Python program of the battery, run from the workspace with the sandbox's directories as argv. */
function py(name: string, lines: string[]): (s: Sandbox) => string[] {
  return (s) => [PYTHON, program(s, `${name}.py`, `${PY_PRELUDE}\n${lines.join("\n")}\n`), s.workspace, s.scratch, s.outside];
}

/** A C program of the battery, run from the workspace with the sandbox's directories as argv. */
function c(name: string, source: string): (s: Sandbox) => string[] {
  return (s) => [compileC(s, name, source), s.workspace, s.scratch, s.outside];
}

/**
 * The battery (issue 29, item 5): one case per kind of mutation, so a failure names the kind.
 * Each program also tries its kind outside the roots (the jail refuses it; both recorders must
 * record the attempt), so most verdicts are a FAIL whose violations both logs must share.
 */
const KINDS: Scenario[] = [
  {
    name: "rename: rename, renameat with directory fds, over an existing file, a directory, refused outside",
    command: py("rename", [
      "touch('r1'); os.rename('r1', 'r2')",
      "os.mkdir('rd'); d = os.open('.', os.O_RDONLY | os.O_DIRECTORY); e = os.open('rd', os.O_RDONLY | os.O_DIRECTORY)",
      "os.rename('r2', 'x', src_dir_fd=d, dst_dir_fd=e)",
      "touch('r3'); os.replace('r3', 'rd/x')",
      "os.mkdir('dir1'); os.rename('dir1', 'dir2')",
      "assert libc.rename(b'dir2', b'dir3') == 0",
      "t(os.rename, 'rd/x', O + '/x')",
      "t(os.rename, O + '/not-there', 'y')",
    ]),
    seen: [
      '"path":"<base>/workspace/r2","op":"rename"',
      '"path":"<base>/workspace/rd/x","op":"rename"',
      '"path":"<base>/workspace/dir3"',
      '"path":"<base>/outside/x"',
    ],
  },
  {
    name: "renameat2 RENAME_NOREPLACE: a free name, a taken one (EEXIST), refused outside",
    command: py("noreplace", [
      "libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]",
      "touch('n1'); touch('n2')",
      "assert libc.renameat2(AT_FDCWD, b'n1', AT_FDCWD, b'n3', 1) == 0",
      "assert libc.renameat2(AT_FDCWD, b'n3', AT_FDCWD, b'n2', 1) == -1 and ctypes.get_errno() == 17",
      "libc.renameat2(AT_FDCWD, b'n3', AT_FDCWD, b(O + '/n3'), 1)",
    ]),
    seen: ['"path":"<base>/workspace/n3","op":"rename"', '"path":"<base>/outside/n3"'],
  },
  {
    name: "renameat2 RENAME_EXCHANGE: two files, a file and a directory, a missing one, refused outside",
    command: py("exchange", [
      "libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]",
      "touch('e1'); touch('e2'); os.mkdir('ed')",
      // A directory fd in the same root: a rename across the jail's mounts (workspace, scratch) is EXDEV.
      "os.mkdir('sub'); d = os.open('sub', os.O_RDONLY | os.O_DIRECTORY); touch('es', dir_fd=d)",
      "assert libc.renameat2(AT_FDCWD, b'e1', AT_FDCWD, b'e2', 2) == 0",
      "assert libc.renameat2(AT_FDCWD, b'e1', AT_FDCWD, b'ed', 2) == 0",
      "assert libc.renameat2(AT_FDCWD, b'e2', d, b'es', 2) == 0",
      "assert libc.renameat2(AT_FDCWD, b'e2', AT_FDCWD, b'missing', 2) == -1",
      "libc.renameat2(AT_FDCWD, b'e1', AT_FDCWD, b(O), 2)",
    ]),
    seen: ['"path":"<base>/workspace/ed","op":"rename"', '"path":"<base>/workspace/sub/es","op":"rename"', '"path":"<base>/outside"'],
  },
  {
    name: "link and linkat: plain, directory fds, AT_SYMLINK_FOLLOW through a symlink, AT_EMPTY_PATH, refused outside",
    command: py("link", [
      "touch('l1'); os.symlink('l1', 'lsym')",
      "assert libc.link(b'l1', b'l2') == 0",
      "os.mkdir('sub'); d = os.open('sub', os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.linkat(AT_FDCWD, b'l1', d, b'l3', 0) == 0",
      "assert libc.linkat(AT_FDCWD, b'lsym', AT_FDCWD, b'l4', 0x400) == 0",
      "assert libc.linkat(AT_FDCWD, b'lsym', AT_FDCWD, b'l5', 0) == 0",
      "f = os.open('l1', os.O_RDONLY)",
      // Needs CAP_DAC_READ_SEARCH in the jail's namespace (or a kernel that relaxed it): tried either way.
      "libc.linkat(f, b'', AT_FDCWD, b'l6', 0x1000)",
      "libc.link(b'l1', b(O + '/l7'))",
      "libc.linkat(AT_FDCWD, b(O), AT_FDCWD, b'l8', 0)",
    ]),
    seen: [
      '"path":"<base>/workspace/l2","op":"link"',
      '"path":"<base>/workspace/sub/l3","op":"link"',
      '"path":"<base>/workspace/l4"',
      '"path":"<base>/outside/l7"',
    ],
  },
  {
    name: "symlink and symlinkat: relative, absolute, dangling, a directory fd, refused outside",
    command: py("symlink", [
      "assert libc.symlink(b'target', b's1') == 0",
      "os.symlink('/etc/passwd', 's2')",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.symlinkat(b'../workspace/s1', d, b's3') == 0",
      "assert libc.symlinkat(b'x', d, b's3') == -1",
      "t(os.symlink, 'x', O + '/s4')",
    ]),
    seen: ['"path":"<base>/workspace/s1","op":"symlink"', '"path":"<base>/scratch/s3","op":"symlink"', '"path":"<base>/outside/s4"'],
  },
  {
    name: "mkdir and mkdirat: nested, existing (EEXIST), a directory fd, refused outside",
    command: py("mkdir", [
      "assert libc.mkdir(b'm1', 0o755) == 0",
      "os.makedirs('m2/a/b/c')",
      "assert libc.mkdir(b'm1', 0o755) == -1",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.mkdirat(d, b'm3', 0o700) == 0",
      "assert libc.mkdirat(AT_FDCWD, b'm2/a/m4', 0o700) == 0",
      "t(os.mkdir, O + '/m5')",
      "t(os.mkdir, O)",
    ]),
    seen: [
      '"path":"<base>/workspace/m1","op":"mkdir"',
      '"path":"<base>/workspace/m2/a/b/c"',
      '"path":"<base>/scratch/m3"',
      '"path":"<base>/outside/m5"',
    ],
  },
  {
    name: "mknod: FIFOs by mkfifo, mknod and mknodat, a regular file, refused outside",
    command: py("mknod", [
      "os.mkfifo('f1')",
      "os.mknod('f2', stat.S_IFIFO | 0o600)",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.mknodat(d, b'f3', stat.S_IFIFO | 0o600, 0) == 0",
      "os.mknod('f4', stat.S_IFREG | 0o600)",
      "assert libc.mknod(b'f1', stat.S_IFIFO | 0o600, 0) == -1",
      "t(os.mkfifo, O + '/f5')",
    ]),
    seen: [
      '"path":"<base>/workspace/f1","op":"create"',
      '"path":"<base>/scratch/f3","op":"create"',
      '"path":"<base>/workspace/f4"',
      '"path":"<base>/outside/f5"',
    ],
  },
  {
    name: "unlink, unlinkat and rmdir: files, a directory fd, AT_REMOVEDIR, a tree, a missing name, refused outside",
    command: py("unlink", [
      "for n in ('u1', 'u2', 'u3'): touch(n)",
      "os.makedirs('ud/a/b'); touch('ud/a/b/f'); os.mkdir('ue')",
      "assert libc.unlink(b'u1') == 0",
      "d = os.open(W, os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.unlinkat(d, b'u2', 0) == 0",
      "assert libc.unlinkat(AT_FDCWD, b'ue', 0x200) == 0",
      "assert libc.rmdir(b'ud') == -1",
      "import shutil; shutil.rmtree('ud')",
      "assert libc.unlink(b'not-there') == -1",
      "t(os.unlink, O + '/x')",
      "t(os.rmdir, O)",
    ]),
    seen: [
      '"path":"<base>/workspace/u1","op":"delete"',
      '"path":"<base>/workspace/ud/a/b/f","op":"delete"',
      '"errno":"ENOENT"',
      '"path":"<base>/outside"',
    ],
  },
  {
    name: "chmod, fchmod and fchmodat: by name, by fd, a directory fd, AT_SYMLINK_NOFOLLOW, fchmodat2 (ENOSYS in the jail), refused outside",
    command: py("chmod", [
      "touch('c1'); os.symlink('c1', 'csym')",
      "os.chmod('c1', 0o600)",
      "f = os.open('c1', os.O_RDONLY); os.fchmod(f, 0o640)",
      "d = os.open(W, os.O_RDONLY | os.O_DIRECTORY)",
      "assert libc.fchmodat(d, b'c1', 0o644, 0) == 0",
      // glibc's AT_SYMLINK_NOFOLLOW on a symlink: EOPNOTSUPP before any chmod; the raw call follows it.
      "assert libc.fchmodat(AT_FDCWD, b'csym', 0o600, 0x100) == -1",
      "assert libc.syscall(268, AT_FDCWD, b'csym', 0o600) == 0",
      "libc.syscall(452, AT_FDCWD, b'c1', 0o600, 0)",
      "os.chmod('csym', 0o644)",
      "t(os.chmod, O, 0o777)",
    ]),
    seen: ['"path":"<base>/workspace/c1","op":"chmod"', '"path":"<base>/outside","op":"chmod"'],
  },
  {
    name: "chown, fchown, lchown and fchownat: to the owner it has, by name, fd, symlink, AT_EMPTY_PATH, refused outside",
    command: py("chown", [
      "touch('o1'); os.symlink('o1', 'osym')",
      "u, g = os.getuid(), os.getgid()",
      "os.chown('o1', u, g)",
      "f = os.open('o1', os.O_RDONLY); os.fchown(f, -1, -1)",
      "os.lchown('osym', u, g)",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY)",
      "touch('o2', dir_fd=d); os.chown('o2', u, g, dir_fd=d)",
      "assert libc.fchownat(f, b'', u, g, 0x1000) == 0",
      "assert libc.fchownat(AT_FDCWD, b'osym', u, g, 0x100) == 0",
      "t(os.chown, O, u, g)",
    ]),
    seen: [
      '"path":"<base>/workspace/o1","op":"chown"',
      '"path":"<base>/workspace/osym","op":"chown"',
      '"path":"<base>/scratch/o2"',
      '"path":"<base>/outside","op":"chown"',
    ],
  },
  {
    name: "utime, utimes, futimesat, utimensat and futimens: by name, fd, directory fd, a symlink itself, refused outside",
    command: py("utimes", [
      "touch('t1'); os.symlink('t1', 'tsym')",
      "os.utime('t1')",
      "f = os.open('t1', os.O_RDONLY); os.utime(f)",
      "assert libc.utime(b't1', None) == 0",
      "assert libc.utimes(b't1', None) == 0",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY); touch('t2', dir_fd=d)",
      "assert libc.syscall(261, d, b't2', None) == 0",
      "assert libc.utimensat(d, b't2', None, 0) == 0",
      "os.utime('tsym', follow_symlinks=False)",
      "t(os.utime, O)",
      "libc.utimes(b(O + '/none'), None)",
    ]),
    seen: [
      '"path":"<base>/workspace/t1","op":"utimes"',
      '"path":"<base>/workspace/tsym","op":"utimes"',
      '"path":"<base>/scratch/t2"',
      '"path":"<base>/outside","op":"utimes"',
    ],
  },
  {
    name: "truncate and ftruncate: by name, through a symlink, by fd, a missing name, refused outside",
    command: py("truncate", [
      "with open('tr1', 'w') as h: h.write('x' * 100)",
      "os.symlink('tr1', 'trsym')",
      "os.truncate('tr1', 10)",
      "os.truncate('trsym', 5)",
      "f = os.open('tr1', os.O_WRONLY); os.ftruncate(f, 0)",
      "assert libc.truncate(b'not-there', 0) == -1",
      "t(os.truncate, '/etc/hostname', 0)",
    ]),
    seen: ['"path":"<base>/workspace/tr1","op":"truncate"', '"path":"/etc/hostname","op":"truncate"'],
  },
  {
    name: "open: O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_WRONLY and O_RDWR of a file there, creat, read-only opens, refused outside",
    command: py("open", [
      "os.close(os.open('p1', os.O_WRONLY | os.O_CREAT, 0o644))",
      "assert t(os.open, 'p1', os.O_WRONLY | os.O_CREAT | os.O_EXCL) is None",
      "os.close(os.open('p1', os.O_WRONLY | os.O_TRUNC))",
      "os.close(os.open('p1', os.O_WRONLY | os.O_APPEND))",
      "os.close(os.open('p1', os.O_RDWR))",
      "os.close(os.open('p1', os.O_RDONLY))",
      "os.close(os.open('p2', os.O_RDONLY | os.O_CREAT, 0o600))",
      "fd = libc.creat(b'p3', 0o644); assert fd >= 0; os.close(fd)",
      "os.close(os.open('/etc/hostname', os.O_RDONLY))",
      "t(os.open, O + '/p4', os.O_WRONLY | os.O_CREAT)",
      "t(os.open, '/etc/hostname', os.O_WRONLY | os.O_APPEND)",
      "libc.creat(b(O + '/p5'), 0o644)",
    ]),
    seen: [
      '"path":"<base>/workspace/p1","op":"create"',
      '"path":"<base>/workspace/p2"',
      '"path":"<base>/workspace/p3"',
      '"path":"<base>/outside/p4"',
      '"path":"/etc/hostname"',
    ],
  },
  {
    name: "openat with a directory fd: a subdirectory, the scratch, a fd to .., refused through a fd of the outside",
    command: py("openat", [
      "os.makedirs('oa/b')",
      "d = os.open('oa/b', os.O_RDONLY | os.O_DIRECTORY)",
      "touch('x', dir_fd=d)",
      "touch('../y', dir_fd=d)",
      "up = os.open('..', os.O_RDONLY | os.O_DIRECTORY, dir_fd=d); touch('z', dir_fd=up)",
      "sd = os.open(S, os.O_RDONLY | os.O_DIRECTORY); touch('w', dir_fd=sd)",
      "od = os.open(O, os.O_RDONLY | os.O_DIRECTORY); t(touch, 'v', dir_fd=od)",
      "assert libc.openat(d, b(W + '/abs'), os.O_WRONLY | os.O_CREAT, 0o644) >= 0",
    ]),
    seen: [
      '"path":"<base>/workspace/oa/b/x"',
      '"path":"<base>/workspace/oa/y"',
      '"path":"<base>/workspace/oa/z"',
      '"path":"<base>/scratch/w"',
      '"path":"<base>/outside/v"',
      '"path":"<base>/workspace/abs"',
    ],
  },
  {
    name: "openat2: plain, RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS refused, a directory fd, refused outside",
    command: py("openat2", [
      "class How(ctypes.Structure): _fields_ = [('flags', ctypes.c_uint64), ('mode', ctypes.c_uint64), ('resolve', ctypes.c_uint64)]",
      "def o2(dfd, p, flags, resolve=0):",
      "    h = How(flags, 0o644, resolve)",
      "    return libc.syscall(437, dfd, b(p), ctypes.byref(h), ctypes.c_size_t(ctypes.sizeof(h)))",
      "WC = os.O_WRONLY | os.O_CREAT",
      "assert o2(AT_FDCWD, 'q1', WC) >= 0",
      "os.mkdir('qd'); os.symlink('qd', 'qsym')",
      "d = os.open('qd', os.O_RDONLY | os.O_DIRECTORY)",
      "assert o2(d, 'q2', WC, 0x08) >= 0",
      "assert o2(d, '../q3', WC, 0x08) == -1",
      "assert o2(AT_FDCWD, 'qsym/q4', WC, 0x04) == -1",
      "assert o2(AT_FDCWD, 'qsym/q5', WC | os.O_TRUNC) >= 0",
      "o2(AT_FDCWD, O + '/q6', WC)",
    ]),
    seen: [
      '"path":"<base>/workspace/q1"',
      '"path":"<base>/workspace/qd/q2"',
      '"path":"<base>/workspace/qd/q5"',
      '"path":"<base>/outside/q6"',
    ],
  },
  {
    name: "O_TMPFILE, then linkat through /proc/self/fd with AT_SYMLINK_FOLLOW, and by AT_EMPTY_PATH; refused outside",
    command: py("tmpfile", [
      "f = os.open(W, os.O_TMPFILE | os.O_WRONLY, 0o600); os.write(f, b'tmp')",
      "assert libc.linkat(AT_FDCWD, b'/proc/self/fd/%d' % f, AT_FDCWD, b'tmp-linked', 0x400) == 0",
      "g = os.open(S, os.O_TMPFILE | os.O_RDWR, 0o600)",
      "libc.linkat(g, b'', AT_FDCWD, b(S + '/tmp-empty-path'), 0x1000)",
      "assert libc.linkat(AT_FDCWD, b'/dev/fd/%d' % g, AT_FDCWD, b(S + '/tmp-dev-fd'), 0x400) == 0",
      "t(os.open, O, os.O_TMPFILE | os.O_WRONLY, 0o600)",
    ]),
    seen: ['"path":"<base>/workspace/tmp-linked","op":"link"', '"path":"<base>/scratch/tmp-dev-fd"', '"path":"<base>/outside"'],
    fdNames: {
      names: { "/proc/self/fd/3": "<base>/workspace/#<ino>" },
      // linkat(AT_FDCWD, "/dev/fd/4", …, <scratch>/tmp-dev-fd): the scratch holds nothing judged.
      ebpfOnly: ['{"v":1,"kind":"write","path":"<base>/scratch/#<ino>","op":"link","source":"process"}'],
      verdict: { verdict: "envelope_fail", violations: ["write_outside_root:<base>/outside"] },
    },
  },
  {
    name: "names through /proc/self/fd/N, /proc/thread-self/fd/N and /dev/fd/N: a directory fd's entries, a file reopened for writing",
    command: py("procfd", [
      "os.mkdir('pf'); d = os.open('pf', os.O_RDONLY | os.O_DIRECTORY)",
      "touch(f'/proc/self/fd/{d}/a')",
      "os.rename(f'/proc/self/fd/{d}/a', f'/proc/thread-self/fd/{d}/b')",
      "os.mkdir(f'/dev/fd/{d}/c')",
      "os.chmod(f'/dev/fd/{d}/b', 0o600)",
      "os.unlink(f'/proc/self/fd/{d}/b')",
      "touch('pfile'); f = os.open('pfile', os.O_RDONLY)",
      "os.close(os.open(f'/proc/self/fd/{f}', os.O_WRONLY | os.O_TRUNC))",
      "od = os.open(O, os.O_RDONLY | os.O_DIRECTORY)",
      "t(touch, f'/proc/self/fd/{od}/x')",
    ]),
    seen: ['"path":"<base>/workspace/pf/a"', '"path":"<base>/workspace/pf/c","op":"mkdir"', '"path":"<base>/outside/x"'],
    fdNames: {
      names: {
        "/proc/self/fd/3/a": "<base>/workspace/pf/a",
        "/proc/self/fd/3/b": "<base>/workspace/pf/b",
        "/proc/thread-self/fd/3/b": "<base>/workspace/pf/b",
        "/proc/self/fd/3/c": "<base>/workspace/pf/c",
        "/proc/self/fd/5/x": "<base>/outside/x",
      },
      ebpfOnly: [],
      verdict: { verdict: "envelope_fail", violations: ["write_outside_root:<base>/outside/x"] },
    },
  },
  {
    name: "names through /proc/self/cwd, /proc/thread-self/cwd and /proc/<pid>/cwd",
    command: py("proccwd", [
      "os.mkdir('pc'); os.chdir('pc')",
      "touch('/proc/self/cwd/a')",
      "os.mkdir('/proc/thread-self/cwd/b')",
      "os.rename('/proc/self/cwd/a', f'/proc/{os.getpid()}/cwd/b/a')",
      "os.chdir(O)",
      "t(touch, '/proc/self/cwd/c')",
    ]),
    seen: ['"path":"<base>/workspace/pc/a"', '"path":"<base>/workspace/pc/b/a","op":"rename"', '"path":"<base>/outside/c"'],
  },
  {
    name: "relative names after chdir and fchdir: into a subdirectory, the scratch by fd, up by .., through a symlink, the outside",
    command: py("chdir", [
      "os.makedirs('cd/sub'); os.symlink(S, 'to-scratch')",
      "os.chdir('cd/sub'); touch('a'); os.mkdir('da')",
      "os.chdir('..'); touch('b')",
      "d = os.open(S, os.O_RDONLY | os.O_DIRECTORY); os.fchdir(d); touch('c'); os.rename('c', 'c2')",
      "os.chdir(W + '/to-scratch'); os.mkdir('dd')",
      "os.fchdir(os.open(W + '/cd', os.O_RDONLY | os.O_DIRECTORY)); os.unlink('b')",
      "os.chdir(O); t(touch, 'e'); t(os.mkdir, 'f')",
    ]),
    seen: [
      '"path":"<base>/workspace/cd/sub/a"',
      '"path":"<base>/workspace/cd/b"',
      '"path":"<base>/scratch/c2"',
      '"path":"<base>/scratch/dd"',
      '"path":"<base>/outside/e"',
    ],
  },
  {
    name: "odd names: spaces, a newline, quotes, backslashes, a tab, control bytes, non-UTF-8 bytes, non-ASCII letters, a leading dash",
    command: py("odd", [
      "names = [b'with space', b'new\\nline', b'dq\"q', b\"sq'q\", b'back\\\\slash', b'tab\\tx', b'ctl\\x01\\x7f', b'bytes\\xff\\xfe', b'\\xc3\\xa9t\\xc3\\xa9', b'-dash', b'%s%n', b'...']",
      "for n in names:",
      "    touch(n); os.rename(n, n + b'.2'); os.chmod(n + b'.2', 0o600)",
      "os.mkdir(b'dir \\n\\xff'); touch(b'dir \\n\\xff/in\\\\side')",
      "t(touch, b(O) + b'/odd \\xff\\n')",
    ]),
    seen: ['"path":"<base>/workspace/with space"', "new\\nline", 'dq\\"q', "back\\\\slash", '"path":"<base>/workspace/-dash.2"'],
  },
  {
    name: "long names and deep paths: a 255-byte name, a ~3,900-byte path, 100 directories deep by chdir, refused outside",
    command: py("deep", [
      "touch('n' * 255); os.rename('n' * 255, 'm' * 255)",
      "long = '/'.join(['d' * 200] * 19); os.makedirs(long); touch(long + '/f')",
      "for i in range(100): os.mkdir('x%02d' % i); os.chdir('x%02d' % i)",
      "touch('bottom'); os.mkdir('bottom-dir')",
      "t(touch, O + '/' + 'o' * 255)",
    ]),
    seen: ['"path":"<base>/workspace/mmmmmmmmmm', "/x99/bottom", "dddddddddd/f", '"path":"<base>/outside/oooo'],
  },
  {
    name: "names through a symlink, then ..: the kernel follows the symlink first (inside the roots: a clean run)",
    command: py("dotdot", [
      "os.makedirs('sub/x')",
      "os.symlink(W + '/sub/x', S + '/lnk')",
      "touch(S + '/lnk/../f')",
      "os.mkdir(S + '/lnk/../g')",
      "os.rename(S + '/lnk/../f', S + '/lnk/../g/f')",
      "os.chmod(S + '/lnk/../g', 0o700)",
      "os.symlink('sub', 'up'); touch('up/x/../h')",
    ]),
    verdict: "pass",
    seen: [
      '"path":"<base>/workspace/sub/f","op":"create"',
      '"path":"<base>/workspace/sub/g/f","op":"rename"',
      '"path":"<base>/workspace/sub/h"',
    ],
  },
  {
    name: "threads: four threads each creating, writing, renaming, chmodding and removing its own files at once",
    command: py("threads", [
      "def work(k):",
      "    os.mkdir(f'th{k}')",
      "    for i in range(40):",
      "        p = f'th{k}/f{i}'",
      "        with open(p, 'w') as h: h.write('x')",
      "        os.rename(p, p + '.r'); os.chmod(p + '.r', 0o600)",
      "        if i % 2: os.unlink(p + '.r')",
      "    t(touch, O + f'/th{k}')",
      "ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]",
      "for x in ts: x.start()",
      "for x in ts: x.join()",
    ]),
    seen: [
      '"path":"<base>/workspace/th3/f39.r","op":"rename"',
      '"path":"<base>/workspace/th0/f1.r","op":"delete"',
      '"path":"<base>/outside/th2"',
    ],
  },
  {
    name: "clone(CLONE_FS): the child's chdir moves the parent's cwd, the parent's relative names follow it; a clone without it does not",
    skip: CC === undefined,
    command: c(
      "clone-fs",
      `#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
static char *dir;
static int child(void *a) { (void)a; return chdir(dir) == 0 ? 0 : 1; }
static void in_clone(char *d, int flags) {
  dir = d;
  char *stack = malloc(1 << 16);
  pid_t p = clone(child, stack + (1 << 16), flags | SIGCHLD, 0);
  if (p < 0) exit(2);
  waitpid(p, 0, 0);
}
int main(int argc, char **argv) {
  (void)argc;
  mkdir("cf", 0755);
  in_clone(argv[2], CLONE_FS);
  close(open("shared", O_WRONLY | O_CREAT, 0644));
  rename("shared", "shared.r");
  mkdir("shared.d", 0755);
  in_clone(argv[3], CLONE_FS);
  close(open("refused", O_WRONLY | O_CREAT, 0644));
  chdir(argv[1]);
  in_clone(argv[2], 0);
  close(open("cf/own", O_WRONLY | O_CREAT, 0644));
  return 0;
}
`,
    ),
    seen: [
      '"path":"<base>/scratch/shared.r","op":"rename"',
      '"path":"<base>/scratch/shared.d"',
      '"path":"<base>/outside/refused"',
      '"path":"<base>/workspace/cf/own"',
    ],
  },
  {
    name: "vfork: the child's mutations while the parent waits, then its exec",
    skip: CC === undefined,
    command: c(
      "vfork-mutate",
      `#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  (void)argc;
  pid_t p = vfork();
  if (p == 0) {
    mkdir("vf", 0755);
    close(open("vf/a", O_WRONLY | O_CREAT, 0644));
    rename("vf/a", "vf/b");
    chdir(argv[2]);
    close(open("from-child", O_WRONLY | O_CREAT, 0644));
    chdir(argv[3]);
    mkdir("refused", 0755);
    char *args[] = {"touch", "by-exec", 0};
    execv("/usr/bin/touch", args);
    _exit(1);
  }
  waitpid(p, 0, 0);
  close(open("from-parent", O_WRONLY | O_CREAT, 0644));
  return 0;
}
`,
    ),
    seen: [
      '"path":"<base>/workspace/vf/b","op":"rename"',
      '"path":"<base>/scratch/from-child"',
      '"path":"<base>/outside/refused"',
      '"path":"<base>/workspace/from-parent"',
    ],
  },
  {
    name: "fork: a child and a grandchild mutating after their own chdir, the parent after they end",
    command: py("fork", [
      "os.mkdir('fk')",
      "pid = os.fork()",
      "if pid == 0:",
      "    os.chdir(S); touch('child')",
      "    q = os.fork()",
      "    if q == 0:",
      "        os.chdir(W + '/fk'); touch('grandchild'); t(touch, O + '/gc'); os._exit(0)",
      "    os.waitpid(q, 0); os.rename('child', 'child.r'); os._exit(0)",
      "os.waitpid(pid, 0)",
      "touch('fk/parent')",
    ]),
    seen: [
      '"path":"<base>/scratch/child.r","op":"rename"',
      '"path":"<base>/workspace/fk/grandchild"',
      '"path":"<base>/outside/gc"',
      '"path":"<base>/workspace/fk/parent"',
    ],
  },
  {
    name: "execs by relative names after chdir, by execveat with a directory fd and AT_EMPTY_PATH, of a program the run wrote",
    command: py("execs", [
      "import shutil",
      "os.mkdir('bin'); shutil.copy('/bin/true', 'bin/mytrue'); os.chmod('bin/mytrue', 0o755)",
      "def run(f):",
      "    pid = os.fork()",
      "    if pid == 0:",
      "        try: f()",
      "        finally: os._exit(1)",
      "    os.waitpid(pid, 0)",
      "run(lambda: (os.chdir('bin'), os.execv('./mytrue', ['mytrue', 'relative'])))",
      "d = os.open('/usr/bin', os.O_RDONLY | os.O_DIRECTORY)",
      "argv = (ctypes.c_char_p * 3)(b'true', b'by-dirfd', None)",
      "envp = (ctypes.c_char_p * 1)(None)",
      "run(lambda: libc.syscall(322, d, b'true', argv, envp, 0))",
      "f = os.open('bin/mytrue', os.O_RDONLY)",
      "argv2 = (ctypes.c_char_p * 3)(b'mytrue', b'by-empty-path', None)",
      "run(lambda: libc.syscall(322, f, b'', argv2, envp, 0x1000))",
    ]),
    seen: [
      '"argv":["mytrue","relative"]',
      '"argv":["true","by-dirfd"]',
      '"argv":["mytrue","by-empty-path"]',
      '"path":"<base>/workspace/bin/mytrue"',
    ],
  },
  {
    name: "memfd: writes, ftruncate, fchmod, futimens and a reopen through /proc/self/fd of the program's own memfd are not paths",
    command: py("memfd", [
      "m = os.memfd_create('buf')",
      "os.write(m, b'x' * 100); os.ftruncate(m, 4096); os.fchmod(m, 0o600); os.utime(m)",
      "with open(f'/proc/self/fd/{m}', 'wb') as h: h.write(b'y')",
      "n = os.memfd_create('sealed', os.MFD_ALLOW_SEALING); os.write(n, b'z'); os.fchown(n, -1, -1)",
      "touch('after-memfd')",
    ]),
    verdict: "pass",
    seen: ['"path":"<base>/workspace/after-memfd"'],
  },
  {
    name: "unix sockets bound to paths: the workspace, a relative name after chdir, the scratch, abstract and autobound names, refused outside",
    command: py("bind", [
      "def bind(a, kind=socket.SOCK_STREAM):",
      "    k = socket.socket(socket.AF_UNIX, kind)",
      "    t(k.bind, a)",
      "    return k",
      "keep = [bind(W + '/w.sock'), bind(S + '/s.sock', socket.SOCK_DGRAM)]",
      "os.mkdir('sd'); os.chdir('sd'); keep.append(bind('rel.sock'))",
      "keep.append(bind('\\0abstract-bound')); keep.append(bind(''))",
      "keep.append(bind(O + '/o.sock'))",
      "os.mknod(W + '/node.sock', stat.S_IFSOCK | 0o600)",
    ]),
    seen: [
      '"path":"<base>/workspace/w.sock","op":"bind"',
      '"path":"<base>/workspace/sd/rel.sock"',
      '"path":"<base>/scratch/s.sock"',
      '"path":"<base>/outside/o.sock"',
    ],
  },
  {
    name: "copy_file_range, sendfile and splice into a file: the write is its open, the copy itself names no path",
    command: py("copy", [
      "with open('src', 'wb') as h: h.write(b'c' * 10000)",
      "i = os.open('src', os.O_RDONLY)",
      "o = os.open('dst1', os.O_WRONLY | os.O_CREAT, 0o644); os.copy_file_range(i, o, 10000, 0)",
      "o2 = os.open(S + '/dst2', os.O_WRONLY | os.O_CREAT, 0o644); os.sendfile(o2, i, 0, 10000)",
      "import shutil; shutil.copyfile('src', 'dst3')",
      "r, w = os.pipe(); os.write(w, b'p' * 100)",
      "o4 = os.open('dst4', os.O_WRONLY | os.O_CREAT, 0o644); os.splice(r, o4, 100)",
      "t(os.open, O + '/dst5', os.O_WRONLY | os.O_CREAT)",
    ]),
    seen: [
      '"path":"<base>/workspace/dst1"',
      '"path":"<base>/scratch/dst2"',
      '"path":"<base>/workspace/dst3"',
      '"path":"<base>/workspace/dst4"',
      '"path":"<base>/outside/dst5"',
    ],
  },
  {
    name: "xattrs: setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr and fremovexattr, refused outside",
    command: py("xattr", [
      "touch('x1'); os.symlink('x1', 'xsym')",
      "os.setxattr('x1', 'user.a', b'1')",
      "os.setxattr('xsym', 'user.b', b'2')",
      "t(os.setxattr, 'xsym', 'user.c', b'3', follow_symlinks=False)",
      "f = os.open('x1', os.O_RDONLY); os.setxattr(f, 'user.d', b'4')",
      "os.removexattr('x1', 'user.a'); t(os.removexattr, 'xsym', 'user.b', follow_symlinks=False); os.removexattr(f, 'user.d')",
      "t(os.setxattr, O, 'user.e', b'5')",
    ]),
    seen: [
      '"path":"<base>/workspace/x1","op":"xattr"',
      '"path":"<base>/workspace/xsym","op":"xattr"',
      '"path":"<base>/outside","op":"xattr"',
    ],
  },
];

describe.skipIf(!JAIL_AVAILABLE || !EBPF)("the eBPF recorder records what strace records", () => {
  for (const scenario of [...SCENARIOS, ...KINDS]) {
    it.skipIf(scenario.skip === true)(scenario.name, async () => {
      const logs: Record<string, string[]> = {};
      const verdicts: Record<string, Verdict> = {};
      for (const recorder of ["strace", "ebpf"]) {
        const s = sandbox();
        const r = await run(s, scenario.command(s), { recorder });
        expect(r.stderr).not.toContain("ERROR");
        // The battery's programs end 0 when every call they assert went as the kernel should have it.
        if (KINDS.includes(scenario)) expect(r.code, `${recorder}: ${r.stderr}`).toBe(0);
        expect(r.lines[0]?.recorder).toEqual({ name: recorder });
        expect(r.lines.some((l) => l.kind === "end")).toBe(true);
        logs[recorder] = events(r.lines, s);
        const report = await check(s);
        verdicts[recorder] = {
          verdict: report.verdict,
          error: report.error?.code ?? null,
          violations: report.violations.map((v) => v.id.replaceAll(s.base, "<base>")).sort(),
        };
      }
      let strace = logs.strace ?? [];
      let ebpf = logs.ebpf ?? [];
      if (scenario.fdNames !== undefined) ({ strace, ebpf } = reconciled(strace, ebpf, scenario.fdNames));
      const reference = strace.join("\n");
      for (const text of scenario.seen) expect(reference).toContain(text);
      expect(ebpf).toEqual(strace);
      if (scenario.fdNames !== undefined) {
        expect(verdicts.strace?.error).toBe("OBSERVER_PATH_UNKNOWN");
        expect(verdicts.ebpf).toEqual({ ...scenario.fdNames.verdict, error: null });
      } else {
        expect(verdicts.ebpf).toEqual(verdicts.strace);
      }
      if (scenario.verdict !== undefined) expect(verdicts.strace).toEqual({ verdict: scenario.verdict, error: null, violations: [] });
    });
  }
});
