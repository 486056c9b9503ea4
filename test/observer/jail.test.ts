/**
 * The jail's evasion suite: each attack class a red team found against the unjailed observer,
 * as a real program that tries it under full observation, and a clean twin that must pass.
 * Raw system calls come from Python's ctypes (the system python3, which the jail can see).
 */
import { giveToNobody } from "../support/nobody.js";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CAN_RUN_AS_NOBODY,
  ROOT,
  check,
  ids,
  privateHost,
  program,
  run,
  sandbox,
  spawnNode,
  withoutRunLines,
  type Sandbox,
} from "./harness.js";

const PYTHON = "/usr/bin/python3";
const q = JSON.stringify;
const hasPython = existsSync(PYTHON);

/** A Python program with `libc.syscall` at hand; it prints one JSON line of what it saw. */
function python(s: Sandbox, name: string, body: string): string[] {
  const source = `import ctypes, json, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def sys_call(nr, *args):
    r = libc.syscall(nr, *args)
    return r, ctypes.get_errno()
${body}
`;
  return [PYTHON, program(s, name, source)];
}

const X86 = process.arch === "x64";
const NR = {
  io_uring_setup: 425,
  pidfd_open: 434,
  pidfd_getfd: 438,
  open_by_handle_at: X86 ? 304 : 265,
  unshare: X86 ? 272 : 97,
  ptrace: X86 ? 101 : 117,
};

type Mode = "as the test's user" | "as nobody";
const MODES: Mode[] = ["as the test's user", "as nobody"];
const skipMode = (mode: Mode): boolean => !hasPython || (mode === "as nobody" && !CAN_RUN_AS_NOBODY);

async function outcome(s: Sandbox, command: string[], settings: { env?: NodeJS.ProcessEnv; mode?: Mode } = {}) {
  const r = await run(s, command, { env: settings.env, asNobody: settings.mode === "as nobody" });
  expect(r.stderr).not.toContain("envelope-gate:");
  expect(r.lines[r.lines.length - 1]?.kind).toBe("end");
  return { r, report: await check(s) };
}

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`the jail (${mode}): attacks are refused or recorded and judged`, () => {
    it("the runner's secrets: no ancestor's environment is reachable through /proc", async () => {
      const s = sandbox();
      const found = join(s.workspace, "found.json");
      const cmd = python(
        s,
        "environ.py",
        `hits = []
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        data = open(f"/proc/{pid}/environ", "rb").read()
    except OSError:
        continue
    if b"EG_RUNNER_SECRET" in data:
        hits.append(pid)
cmdlines = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            cmdlines.append(open(f"/proc/{pid}/cmdline", "rb").read().split(b"\\0")[0].decode())
        except OSError:
            pass
open(${q(found)}, "w").write(json.dumps({"hits": hits, "ppid": os.getppid(), "cmdlines": cmdlines}))`,
      );
      const { report } = await outcome(s, cmd, { env: { EG_RUNNER_SECRET: "s3cret" }, mode });
      const seen = JSON.parse(readFileSync(found, "utf8")) as { hits: string[]; ppid: number; cmdlines: string[] };
      expect(seen.hits).toEqual([]);
      // Only the jail's own tree: no wrapper, no strace, no test runner.
      expect(seen.cmdlines.some((c) => c.includes("strace") || c.includes("vitest") || c.endsWith("/node"))).toBe(false);
      expect(report.violations).toEqual([]);
    });

    it("the log: the wrapper's descriptors cannot be taken (pidfd_getfd is refused and judged)", async () => {
      const s = sandbox();
      const cmd = python(
        s,
        "getfd.py",
        `pidfd, _ = sys_call(${NR.pidfd_open}, 1, 0)
r, err = sys_call(${NR.pidfd_getfd}, pidfd if pidfd >= 0 else 0, 3, 0)
print(json.dumps({"pidfd": pidfd, "getfd": r, "errno": err}))`,
      );
      const { r, report } = await outcome(s, cmd, { mode });
      expect(JSON.parse(r.stdout)).toMatchObject({ getfd: -1, errno: 1 });
      expect(ids(report)).toEqual(["forbidden_syscall:pidfd_getfd"]);
    });

    it("the tracer: nothing the command can signal is the tracer, and no survivor outlives end", async () => {
      const s = sandbox();
      const late = join(s.workspace, "late.txt");
      const r = await run(s, ["sh", "-c", `(sleep 0.5; echo late > ${late}) & pkill -9 strace; kill -9 -1; sleep 2`], {
        asNobody: mode === "as nobody",
      });
      // kill -9 -1 inside the jail reaches only the jail: its init dies, and with it the command.
      expect(r.stderr).not.toContain("envelope-gate:");
      const end = r.lines[r.lines.length - 1];
      expect(end?.kind).toBe("end");
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(existsSync(late)).toBe(false);
      expect((await check(s)).error).toBeNull();
    });

    it("io_uring does not exist in the jail (ENOSYS, as on a kernel without it): nothing runs past the tracer, and a runtime's probe is not judged", async () => {
      const s = sandbox();
      const cmd = python(
        s,
        "uring.py",
        `params = ctypes.create_string_buffer(120)\nr, err = sys_call(${NR.io_uring_setup}, 8, params)\nprint(json.dumps({"r": r, "errno": err}))`,
      );
      const { r, report } = await outcome(s, cmd, { mode });
      expect(JSON.parse(r.stdout)).toEqual({ r: -1, errno: 38 });
      expect(report.violations).toEqual([]);

      // libuv asked for io_uring falls back to ordinary calls, which are observed as ever.
      const twin = sandbox();
      const target = join(twin.workspace, "uv.txt");
      const outside = join(twin.outside, "uv.txt");
      const clean = await outcome(
        twin,
        [
          "node",
          "-e",
          `require("fs").writeFile(${q(target)}, "x", (e) => { if (e) throw e; require("fs").writeFile(${q(outside)}, "y", () => {}); })`,
        ],
        { env: { UV_USE_IO_URING: "1" }, mode },
      );
      expect(readFileSync(target, "utf8")).toBe("x");
      expect(clean.r.lines.some((l) => l.kind === "write" && l.path === target)).toBe(true);
      expect(ids(clean.report)).toEqual([`write_outside_root:${outside}`]);
    });

    it("/proc/self is the process's own: a delete through /proc/self/cwd after cd outside is judged outside", async () => {
      const s = sandbox();
      writeFileSync(join(s.outside, "x"), "keep");
      const { report } = await outcome(s, ["sh", "-c", `cd ${s.outside} && rm -f /proc/self/cwd/x; true`], { mode });
      expect(ids(report)).toEqual([`write_outside_root:${s.outside}/x`]);
      expect(readFileSync(join(s.outside, "x"), "utf8")).toBe("keep");
    });

    it("hard links: a link to an outside file is refused, and judged on its source", async () => {
      const s = sandbox();
      writeFileSync(join(s.outside, "file"), "keep");
      const { report } = await outcome(s, ["sh", "-c", `ln ${s.outside}/file hl; echo x >> hl; true`], { mode });
      expect(ids(report)).toEqual([`write_outside_root:${s.outside}/file`]);
      expect(readFileSync(join(s.outside, "file"), "utf8")).toBe("keep");
      expect(existsSync(join(s.workspace, "hl")) && readFileSync(join(s.workspace, "hl"), "utf8") === "keep").toBe(false);
    });

    it("mount tricks: a user and mount namespace for a bind mount is refused and judged", async () => {
      const s = sandbox();
      const cmd = python(
        s,
        "unshare.py",
        `r, err = sys_call(${NR.unshare}, 0x10000000 | 0x00020000)\nprint(json.dumps({"r": r, "errno": err}))`,
      );
      const { r, report } = await outcome(s, cmd, { mode });
      expect(JSON.parse(r.stdout).r).toBe(-1);
      expect(ids(report)).toEqual(["forbidden_syscall:unshare"]);
      // The util-linux tool takes the same road.
      const t = sandbox();
      const tool = await outcome(t, ["sh", "-c", `unshare -Urm sh -c 'mount --bind ${t.outside} ${t.workspace}'; true`], { mode });
      expect(ids(tool.report)).toContain("forbidden_syscall:unshare");
    });

    it("untraced mutations: open_by_handle_at is refused; chown, utimes, xattrs and socket files outside are judged as writes", async () => {
      const s = sandbox();
      writeFileSync(join(s.outside, "f"), "keep");
      const out = s.outside;
      const cmd = python(
        s,
        "mutate.py",
        `r, err = sys_call(${NR.open_by_handle_at}, -100, None, 1)
for f in (lambda: os.chown(${q(out + "/f")}, 0, 0), lambda: os.utime(${q(out + "/f")}, (0, 0)), lambda: os.setxattr(${q(out + "/f")}, "user.eg", b"1")):
    try:
        f()
    except OSError:
        pass
u = socket.socket(socket.AF_UNIX)
try:
    u.bind(${q(out + "/s.sock")})
except OSError:
    pass
print(json.dumps({"handle": r}))`,
      );
      const { r, report } = await outcome(s, cmd, { mode });
      expect(JSON.parse(r.stdout)).toEqual({ handle: -1 });
      expect(ids(report).sort()).toEqual(
        ["forbidden_syscall:open_by_handle_at", `write_outside_root:${out}/f`, `write_outside_root:${out}/s.sock`].sort(),
      );
      expect(report.violations.find((v) => v.id === `write_outside_root:${out}/f`)?.count).toBe(3);
      expect(existsSync(join(out, "s.sock"))).toBe(false);
    });

    it("forged hook records: a program that is not Node writing to the hooks' channel ends the run (OBSERVER_CHANNEL_TAMPERED)", async () => {
      const s = sandbox();
      const script = `eval "set -- $NODE_OPTIONS"; d=$(dirname "$2"); echo '{"kind":"note","pid":1,"address":"1.2.3.4","port":443}' > "$d/events.fifo"; sleep 1`;
      const r = await run(s, ["sh", "-c", script], { asNobody: mode === "as nobody" });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("OBSERVER_CHANNEL_TAMPERED");
      expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
    });

    it("name spoofing: a symlink called git to another program is judged as that program", async () => {
      const real = (c: string): string => realpathSync(spawnSync("sh", ["-c", `command -v ${c}`], { encoding: "utf8" }).stdout.trim());
      const s = sandbox({ allowed_commands: ["git", real("sh"), real("ln")] });
      const { report } = await outcome(s, ["sh", "-c", "ln -s /usr/bin/id git && ./git > /dev/null"], { mode });
      expect(ids(report)).toEqual(["undeclared_command:/usr/bin/id"]);
    });

    it("a custom lookup under allowlist: the address it returns is judged as that address, not as the allowed name", async () => {
      const s = sandbox({ network: "allowlist", allowed_hosts: ["allowed.example"] });
      const { report } = await outcome(
        s,
        [
          "node",
          "-e",
          `const c = require("net").connect({ host: "allowed.example", port: 9, lookup: (h, o, cb) => (o && o.all ? cb(null, [{ address: "192.0.2.1", family: 4 }]) : cb(null, "192.0.2.1", 4)) }); c.on("error", () => {});`,
        ],
        { mode },
      );
      expect(ids(report)).toEqual(["undeclared_host:192.0.2.1:9"]);
    });

    it("ptrace: refused and judged (strace is the only tracer)", async () => {
      const s = sandbox();
      const cmd = python(s, "ptrace.py", `r, err = sys_call(${NR.ptrace}, 0, 0, 0, 0)\nprint(json.dumps({"r": r, "errno": err}))`);
      const { r, report } = await outcome(s, cmd, { mode });
      expect(JSON.parse(r.stdout)).toEqual({ r: -1, errno: 1 });
      expect(ids(report)).toEqual(["forbidden_syscall:ptrace"]);
    });
  });

const CC = ["/usr/bin/cc", "/usr/bin/gcc"].find((c) => existsSync(c));

/** A C program compiled for the test (outside every root), or null without a compiler. */
function c(s: Sandbox, name: string, source: string): string {
  const src = program(s, `${name}.c`, source);
  const bin = join(s.base, "programs", name);
  const r = spawnSync(CC as string, ["-O1", "-o", bin, src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return bin;
}

describe.skipIf(!hasPython)("the jail: what a red team found (regressions)", () => {
  it("host-wide kernel settings: /proc/sys is read-only in the jail, and the attempt is judged", async () => {
    const s = sandbox();
    const before = readFileSync("/proc/sys/fs/lease-break-time", "utf8");
    const { report } = await outcome(s, ["sh", "-c", "echo 46 > /proc/sys/fs/lease-break-time; true"]);
    expect(readFileSync("/proc/sys/fs/lease-break-time", "utf8")).toBe(before);
    expect(ids(report)).toEqual(["write_outside_root:/proc/sys/fs/lease-break-time"]);
  });

  it("strace's output is not in the jail: the stage directory shows only the preload, its config and the hooks' channel", async () => {
    const s = sandbox();
    const out = join(s.workspace, "stage.json");
    const { report } = await outcome(s, [
      "node",
      "-e",
      `const fs = require("fs"); const path = require("path");
const dirs = fs.readdirSync("/tmp").filter((d) => d.startsWith("envelope-gate-observer-")).map((d) => path.join("/tmp", d));
fs.writeFileSync(${q(out)}, JSON.stringify(dirs.map((d) => fs.readdirSync(d).map((e) => [e, fs.readdirSync(path.join(d, e)).sort()]))));`,
    ]);
    const seen = JSON.parse(readFileSync(out, "utf8")) as unknown;
    // main-2 or main-3 when another user's world-writable directory vanished while bubblewrap set
    // the jail up and the stage was set up again (run.ts, runJailedStage): a busy machine does that.
    expect(seen).toEqual([
      [[expect.stringMatching(/^main(-[23])?$/), ["envelope-gate-preload.cjs", "events.fifo", "preload-config.json"]]],
    ]);
    expect(report.violations).toEqual([]);
  });

  it("a seccomp filter of the command's own with a notification listener is refused (it would outrank the tracer)", async () => {
    const s = sandbox();
    const nr = X86 ? 317 : 277;
    // seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, <allow-all program>)
    const cmd = python(
      s,
      "listener.py",
      `libc.prctl(38, 1, 0, 0, 0)
insn = (ctypes.c_ushort * 4)(0x06, 0, 0, 0)
class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
code = (ctypes.c_uint64 * 1)(0x7fff000000000006)
prog = Prog(1, ctypes.cast(code, ctypes.c_void_p))
r, err = sys_call(${nr}, 1, 8, ctypes.byref(prog))
plain, _ = sys_call(${nr}, 1, 0, ctypes.byref(prog))
print(json.dumps({"listener": r, "errno": err, "plain": plain}))`,
    );
    const { r } = await outcome(s, cmd);
    expect(JSON.parse(r.stdout)).toEqual({ listener: -1, errno: 1, plain: 0 });
  });

  it("a program run from memory (memfd) is judged as what it is", async () => {
    const s = sandbox({ allowed_commands: ["/usr/bin/python3.11", "/usr/bin/python3", "python3"] });
    const cmd = python(
      s,
      "memfd.py",
      `fd = os.memfd_create("x")
os.write(fd, open("/usr/bin/true", "rb").read())
os.execve(fd, ["true"], {})`,
    );
    const { report } = await outcome(s, cmd);
    expect(ids(report)).toEqual(["undeclared_command:/memfd:x"]);
  });

  it("an earlier run with the same scratch leaves nothing in the next run's HOME and /tmp (a ~/.npmrc, a /tmp/sh)", async () => {
    const s = sandbox();
    // The first run (the patch) plants configuration for whatever runs next with this scratch.
    const first = await outcome(s, [
      "sh",
      "-c",
      `printf 'script-shell=/tmp/sh\\n' > ${s.home}/.npmrc && printf '#!/bin/sh\\necho forged\\n' > /tmp/sh`,
    ]);
    expect(first.report.violations).toEqual([]);
    expect(readFileSync(join(privateHost(first.r, s.home), ".npmrc"), "utf8")).toBe("script-shell=/tmp/sh\n");
    expect(readFileSync(join(privateHost(first.r, "/tmp"), "sh"), "utf8")).toContain("forged");
    // The second run (a property command) finds its HOME and /tmp empty, and new directories behind them.
    const out = join(s.workspace, "seen.txt");
    const { r, report } = await outcome(s, ["sh", "-c", `ls -A ${s.home} /tmp > ${out}`]);
    // (The wrapper's stage directory is mounted in /tmp when the wrapper's own temporary directory is there.)
    const entries = readFileSync(out, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.endsWith(":") && !l.startsWith("envelope-gate-observer-"));
    expect(entries).toEqual([]);
    expect(privateHost(r, s.home)).not.toBe(privateHost(first.r, s.home));
    expect(privateHost(r, "/tmp").startsWith(`${s.scratch}/.envelope-gate-`)).toBe(true);
    expect(report.violations).toEqual([]);
  });

  it("a descriptor the wrapper inherited does not reach the command", async () => {
    const s = sandbox();
    const { openSync, closeSync } = await import("node:fs");
    const dirFd = openSync(s.outside, "r");
    const cmd = python(
      s,
      "viafd.py",
      `import os
try:
  os.open("via-fd", os.O_WRONLY | os.O_CREAT, dir_fd=9)
except OSError as e:
  print(e.errno)`,
    );
    // The wrapper gets the open directory as its fd 9, as a caller's shell could hand it down.
    const r = await spawnNode(
      [
        join(ROOT, "dist/cli/index.js"),
        "run",
        "--envelope",
        s.envelope,
        "--observer",
        join(s.base, "observer.jsonl"),
        "--workspace",
        s.workspace,
        "--scratch",
        s.scratch,
        "--",
        ...cmd,
      ],
      {
        cwd: s.workspace,
        stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", dirFd],
      },
    );
    closeSync(dirFd);
    expect(r.stderr).not.toContain("envelope-gate:");
    // fd 9 in the jail is /dev/null (ENOTDIR) or closed (EBADF), never the directory.
    expect(["9", "20"]).toContain(r.stdout.trim());
    expect(existsSync(join(s.outside, "via-fd"))).toBe(false);
  });

  it.skipIf(CC === undefined)("a vfork child's calls are recorded, and its exec resolved in its own directory", async () => {
    const s = sandbox({ allowed_commands: ["/usr/bin/true"] });
    mkdirSync(join(s.workspace, "sub"));
    const { symlinkSync } = await import("node:fs");
    symlinkSync("/usr/bin/id", join(s.workspace, "sub", "prog"));
    symlinkSync("/usr/bin/true", join(s.workspace, "prog"));
    const bin = c(
      s,
      "vfork",
      `#include <fcntl.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
  if (vfork() == 0) { int fd = open(${q(join(s.outside, "from-vfork"))}, O_WRONLY | O_CREAT, 0644); _exit(fd < 0 ? 1 : 0); }
  wait(0);
  if (chdir("sub") != 0) return 1;
  if (vfork() == 0) { char *argv[] = {"prog", 0}; execve("prog", argv, 0); _exit(127); }
  wait(0);
  return 0;
}`,
    );
    const { report } = await outcome(s, [bin]);
    expect(ids(report).sort()).toEqual(
      [`undeclared_command:${bin}`, "undeclared_command:/usr/bin/id", `write_outside_root:${s.outside}/from-vfork`].sort(),
    );
  });
});

describe.skipIf(!hasPython)("the jail: host services under network deny", () => {
  let server: Server;
  const abstractName = `eg-test-abstract-${process.pid}`;
  let socketDir = "";
  let pathServer: Server;

  beforeAll(async () => {
    server = createServer((c) => c.end("reached"));
    await new Promise<void>((resolve) => server.listen(`\0${abstractName}`, resolve));
    socketDir = join(sandbox().base, "service");
    mkdirSync(socketDir, { recursive: true });
    pathServer = createServer((c) => c.end("reached"));
    await new Promise<void>((resolve) => pathServer.listen(join(socketDir, "service.sock"), resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => pathServer.close(() => resolve()));
  });

  it("a host unix socket (a service's) and an abstract one are out of reach; the path attempt is judged", async () => {
    const s = sandbox();
    const hostSocket = join(socketDir, "service.sock");
    expect(lstatSync(hostSocket).isSocket()).toBe(true);
    const cmd = python(
      s,
      "unix.py",
      `res = {}
for name, addr in (("path", ${q(hostSocket)}), ("abstract", "\\0" + ${q(abstractName)})):
    c = socket.socket(socket.AF_UNIX)
    try:
        c.connect(addr)
        res[name] = c.recv(16).decode()
    except OSError as e:
        res[name] = e.errno
print(json.dumps(res))`,
    );
    const { r, report } = await outcome(s, cmd);
    const res = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(res.path).not.toBe("reached");
    expect(res.abstract).not.toBe("reached");
    expect(ids(report)).toEqual([`network_denied:unix:${hostSocket}`]);
  });

  // A concurrent run as another user (its egress.sock under its 0700 private directory) is listed
  // in /proc/net/unix, but neither the jail nor bubblewrap can reach it: covering it made bubblewrap
  // stop ("Can't mkdir parents ... Permission denied") before the command ran, a flaky canary.
  it.skipIf(process.getuid?.() !== 0 || !hasPython)(
    "another user's socket in its 0700 directory is out of the jail's reach and does not stop the jail",
    async () => {
      const s = sandbox();
      const otherDir = join(sandbox().base, "other-user-run");
      mkdirSync(join(otherDir, "canary"), { recursive: true });
      const otherSocket = join(otherDir, "canary", "egress.sock");
      const other = createServer((c) => c.end("reached"));
      await new Promise<void>((resolve) => other.listen(otherSocket, resolve));
      try {
        chownSync(otherDir, 65534, 65534);
        chmodSync(otherDir, 0o700);
        const cmd = python(
          s,
          "other.py",
          `c = socket.socket(socket.AF_UNIX)
try:
    c.connect(${q(otherSocket)})
    print(json.dumps({"got": c.recv(16).decode()}))
except OSError as e:
    print(json.dumps({"errno": e.errno}))`,
        );
        const { r, report } = await outcome(s, cmd);
        expect(r.stderr).not.toContain("Can't");
        expect(r.code).toBe(0);
        // EACCES: the directory is not searchable by the jail's user; the attempt is still judged.
        expect(JSON.parse(r.stdout)).toEqual({ errno: 13 });
        expect(ids(report)).toEqual([`network_denied:unix:${otherSocket}`]);
      } finally {
        await new Promise<void>((resolve) => other.close(() => resolve()));
      }
    },
  );

  it("clean twin: the command's own unix socket in its workspace is local, not network", async () => {
    const s = sandbox();
    const sock = join(s.workspace, "own.sock");
    const cmd = python(
      s,
      "own.py",
      `srv = socket.socket(socket.AF_UNIX)
srv.bind(${q(sock)})
srv.listen(1)
c = socket.socket(socket.AF_UNIX)
c.connect(${q(sock)})
a, _ = srv.accept()
a.send(b"ok")
print(json.dumps({"got": c.recv(2).decode()}))`,
    );
    const { r, report } = await outcome(s, cmd);
    expect(JSON.parse(r.stdout)).toEqual({ got: "ok" });
    expect(report.violations).toEqual([]);
  });
});

describe("the jail as an unprivileged user", () => {
  const asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
  const canDropPrivileges =
    process.getuid?.() === 0 &&
    hasPython &&
    spawnSync(
      "setpriv",
      [...asNobody, "bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", ":"],
      { stdio: "ignore" },
    ).status === 0;
  it.skipIf(!canDropPrivileges)("io_uring is absent and namespace creation is refused and judged without root too", async () => {
    const s = sandbox();
    giveToNobody(s.base, s.workspace, s.scratch, s.outside, s.home);
    // A copy of the bundle, readable wherever the checkout lives.
    const dist = join(s.base, "dist");
    cpSync(join(ROOT, "dist"), dist, { recursive: true });
    const cmd = python(
      s,
      "unpriv.py",
      `params = ctypes.create_string_buffer(120)
a, _ = sys_call(${NR.io_uring_setup}, 8, params)
b, _ = sys_call(${NR.unshare}, 0x10000000 | 0x00020000)
print(json.dumps({"uring": a, "unshare": b, "uid": os.getuid()}))`,
    );
    chmodSync(join(s.base, "programs"), 0o755);
    const r = await spawnNode(
      [
        ...asNobody,
        process.execPath,
        join(dist, "cli/index.js"),
        "run",
        "--envelope",
        s.envelope,
        "--observer",
        join(s.base, "observer.jsonl"),
        "--workspace",
        s.workspace,
        "--scratch",
        s.scratch,
        "--",
        ...cmd,
      ],
      { cwd: s.workspace, env: { PATH: process.env.PATH }, exec: "setpriv" },
    );
    expect(withoutRunLines(r.stderr).stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ uring: -1, unshare: -1, uid: 65534 });
    expect(ids(await check(s)).sort()).toEqual(["forbidden_syscall:unshare"]);
  });
});

describe("the jail: loopback is the run's own", () => {
  it("a local server and lookups of localhost work under deny and are not egress; loopback: network judges them", async () => {
    const prog = (out: string): string =>
      `const http = require("http"); const fs = require("fs");
const srv = http.createServer((q, r) => r.end("local")).listen(0, "127.0.0.1", () => {
  http.get({ host: "localhost", port: srv.address().port, family: 4 }, (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => { fs.writeFileSync(${q(out)}, b); srv.close(); }); });
});`;
    const s = sandbox();
    const out = join(s.workspace, "got.txt");
    const { r, report } = await outcome(s, ["node", "-e", prog(out)]);
    expect(readFileSync(out, "utf8")).toBe("local");
    expect(r.lines.some((l) => l.kind === "host" && l.host === "localhost" && !l.canary)).toBe(true);
    expect(report.violations).toEqual([]);
    const strict = sandbox({ loopback: "network" });
    const judged = await outcome(strict, ["node", "-e", prog(join(strict.workspace, "got.txt"))]);
    expect(ids(judged.report).some((id) => id.startsWith("network_denied:localhost:") || id.startsWith("network_denied:127.0.0.1:"))).toBe(
      true,
    );
  });

  it("temporary files land in the scratch directory: /tmp in the jail is the run's own directory in ${SCRATCH}", async () => {
    const s = sandbox();
    const { r, report } = await outcome(s, [
      "node",
      "-e",
      `const fs = require("fs"); const d = fs.mkdtempSync("/tmp/vitest-"); fs.writeFileSync(d + "/t.txt", "t"); fs.mkdirSync("/tmp/v8-compile-cache-0", { recursive: true }); console.log(d.slice(5));`,
    ]);
    // On the host the files are in the scratch directory, recorded there, and inside the roots.
    const tmp = privateHost(r, "/tmp");
    expect(tmp.startsWith(`${s.scratch}/.envelope-gate-`)).toBe(true);
    expect(readFileSync(join(tmp, r.stdout.trim(), "t.txt"), "utf8")).toBe("t");
    expect(r.lines.some((l) => l.kind === "write" && l.path === join(tmp, r.stdout.trim(), "t.txt"))).toBe(true);
    expect(report.violations).toEqual([]);
  });

  it("mkdir -p over existing directories outside the roots is not a write", async () => {
    const s = sandbox();
    const { report } = await outcome(s, ["sh", "-c", "mkdir -p /usr/share /etc && mkdir -p sub/dir"]);
    expect(report.violations).toEqual([]);
  });
});

describe("the jail: the host's device nodes", () => {
  it("changing a device's mode or owner is judged (writing to /dev/null is not)", async () => {
    const s = sandbox();
    // Same mode as it has: the attempt is what is judged; the host keeps its /dev/null.
    const { report } = await outcome(s, ["sh", "-c", "echo x > /dev/null; chmod 666 /dev/null 2>/dev/null; true"]);
    expect(ids(report)).toEqual(["write_outside_root:/dev/null"]);
  });
});

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`the jail (${mode}): clean twins of every class pass`, () => {
    it("own environment, links, ownership, times, attributes, socket files, /proc/self and a vfork child, all inside the roots", async () => {
      const s = sandbox({ allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH"] });
      const ws = s.workspace;
      const cmd = python(
        s,
        "twins.py",
        `env = open("/proc/self/environ", "rb").read()
open(${q(ws + "/a")}, "w").write("a")
os.link(${q(ws + "/a")}, ${q(ws + "/hl")})
os.chown(${q(ws + "/a")}, os.getuid(), os.getgid())
os.utime(${q(ws + "/a")}, (0, 0))
try:
    os.setxattr(${q(ws + "/a")}, "user.eg", b"1")
except OSError:
    pass
u = socket.socket(socket.AF_UNIX)
u.bind(${q(ws + "/s.sock")})
os.chdir(${q(ws)})
os.unlink("/proc/self/cwd/hl")
pid = os.fork()
if pid == 0:
    open(${q(ws + "/child")}, "w").write("c")
    os._exit(0)
os.waitpid(pid, 0)
print(json.dumps({"env": sorted(k.split(b"=")[0].decode() for k in env.split(b"\\0") if k)}))`,
      );
      const { r, report } = await outcome(s, cmd, { mode });
      // The envelope's keys and the run's (git's too), plus the hooks' NODE_OPTIONS entry (plumbing, docs/observer.md).
      expect(JSON.parse(r.stdout).env).toEqual([
        "ENVELOPE_HASH",
        "GIT_CONFIG_COUNT",
        "GIT_CONFIG_KEY_0",
        "GIT_CONFIG_VALUE_0",
        "GIT_OPTIONAL_LOCKS",
        "NODE_OPTIONS",
        "PATH",
        "RUN_ID",
        "SCRATCH",
      ]);
      expect(report.violations).toEqual([]);
      expect(report.verdict).toBe("pass");
      expect(readFileSync(join(ws, "child"), "utf8")).toBe("c");
    });
  });
