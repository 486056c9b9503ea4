import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FrameDecoder, FrameError, encodeFrames, mergeNodeOptions, splitNodeOptions } from "../../src/observer/protocol.js";
import { PathView } from "../../src/observer/jail.js";
import { StraceParser, straceArgs, type ProcessEvent } from "../../src/observer/strace.js";
import { liveProcessFacts, type ProcessFacts } from "../../src/observer/process-facts.js";
import { ELF_HEAD, TableFacts } from "./table-facts.js";

const hex = (s: string): string => `"${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}"`;
const deco = (s: string): string => `<${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}>`;

/**
 * The lines' pids (100, 700, ...) are made up: a live process that has one of them on a busy
 * machine must not lend the parser its /proc entries. Paths are the tests' own and stay live.
 */
// A program these tests name and this machine lacks reads as an ELF image (no #! line to follow).
const NO_PROCESSES: ProcessFacts = {
  ...liveProcessFacts,
  status: () => null,
  cwd: () => null,
  head: (path) => liveProcessFacts.head(path) ?? ELF_HEAD,
  exe: () => null,
};

function parse(lines: string[], cwd = "/work", plumbing: string[] = []): ProcessEvent[] {
  const events: ProcessEvent[] = [];
  const parser = new StraceParser({ cwd, plumbing: new Set(plumbing), emit: (e) => events.push(e), facts: NO_PROCESSES });
  // Feed in awkward pieces: the parser must not care where reads split lines.
  const text = lines.map((l) => l + "\n").join("");
  for (let i = 0; i < text.length; i += 7) parser.push(text.slice(i, i + 7));
  parser.finish();
  return events;
}

describe("strace output parser", () => {
  it("reads writes from open flags, with the kernel's resolved path for a successful open", () => {
    const events = parse([
      `100 openat(AT_FDCWD${deco("/work")}, ${hex("lib.so")}, O_RDONLY|O_CLOEXEC) = 3${deco("/usr/lib/lib.so")}`,
      `100 openat(AT_FDCWD${deco("/work")}, ${hex("link.txt")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3${deco("/elsewhere/target.txt")}`,
      `100 openat(AT_FDCWD${deco("/work")}, ${hex("a.log")}, O_WRONLY|O_APPEND) = 4${deco("/work/a.log")}`,
      `100 openat(AT_FDCWD${deco("/work")}, ${hex("/dev/null")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 5${deco("/dev/null")}`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: 100, path: "/elsewhere/target.txt", op: "create" },
      { kind: "write", tgid: 100, path: "/work/a.log", op: "write" },
    ]);
  });

  it("joins unfinished and resumed calls, and maps threads to their process", () => {
    const events = parse([
      `100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0} => {parent_tid=[101]}, 88) = 101`,
      `101 openat(AT_FDCWD${deco("/work")}, ${hex("x.txt")}, O_WRONLY|O_CREAT|O_TRUNC, 0666 <unfinished ...>`,
      `100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD) = 102`,
      `101 <... openat resumed>) = 7${deco("/work/x.txt")}`,
      `102 execve(${hex("/bin/sh")}, [${hex("sh")}, ${hex("-c")}, ${hex("echo hi")}], 0x7ffc /* 3 vars */) = 0`,
      `102 +++ exited with 0 +++`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: 100, path: "/work/x.txt", op: "create" },
      { kind: "exec", tgid: 102, ppid: 100, path: realpathSync("/bin/sh"), argv: ["sh", "-c", "echo hi"] },
    ]);
  });

  it("marks a write the kernel failed with ENOENT or ENOTDIR with its errno, and no other result", () => {
    // A path is printed in hex (-xx): text in it that looks like a result is never read as one.
    const fake = "/outside/x) = -1 ENOENT (No such file or directory";
    const events = parse(
      [
        `200 unlink(${hex("/outside/gone/f")}) = -1 ENOENT (No such file or directory)`,
        `200 rmdir(${hex("/outside/file/d")}) = -1 ENOTDIR (Not a directory)`,
        `200 rename(${hex("/outside/gone/a")}, ${hex("/outside/gone/b")}) = -1 ENOENT (No such file or directory)`,
        `200 unlink(${hex("/outside/there")}) = -1 EROFS (Read-only file system)`,
        `200 unlink(${hex("/outside/locked")}) = -1 EACCES (Permission denied)`,
        `200 unlink(${hex(fake)}) = 0`,
      ],
      "/somewhere",
    );
    expect(events).toEqual([
      { kind: "write", tgid: 200, path: "/outside/gone/f", op: "delete", errno: "ENOENT" },
      { kind: "write", tgid: 200, path: "/outside/file/d", op: "delete", errno: "ENOTDIR" },
      { kind: "write", tgid: 200, path: "/outside/gone/a", op: "rename", errno: "ENOENT" },
      { kind: "write", tgid: 200, path: "/outside/gone/b", op: "rename", errno: "ENOENT" },
      { kind: "write", tgid: 200, path: "/outside/there", op: "delete" },
      { kind: "write", tgid: 200, path: "/outside/locked", op: "delete" },
      { kind: "write", tgid: 200, path: fake, op: "delete" },
    ]);
  });

  it("resolves relative paths against the directory fd or the tracked working directory", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-")));
    try {
      mkdirSync(join(dir, "real"));
      symlinkSync(join(dir, "real"), join(dir, "via-link"));
      const events = parse(
        [
          `200 chdir(${hex(join(dir, "via-link"))}) = 0`,
          `200 mkdir(${hex("new-dir")}, 0777) = 0`,
          `200 unlinkat(3${deco(dir)}, ${hex("gone.txt")}, 0) = -1 ENOENT (No such file or directory)`,
          `200 renameat2(AT_FDCWD${deco(join(dir, "real"))}, ${hex("a")}, AT_FDCWD${deco(join(dir, "real"))}, ${hex("/outside/b")}, RENAME_NOREPLACE) = 0`,
          `200 symlinkat(${hex("/etc/passwd")}, AT_FDCWD${deco(dir)}, ${hex("ln")}) = 0`,
          `200 fchmodat(AT_FDCWD${deco(dir)}, ${hex("/outside/c")}, 0600) = 0`,
        ],
        "/somewhere",
      );
      expect(events).toEqual([
        { kind: "write", tgid: 200, path: join(dir, "real", "new-dir"), op: "mkdir" },
        { kind: "write", tgid: 200, path: join(dir, "gone.txt"), op: "delete", errno: "ENOENT" },
        { kind: "write", tgid: 200, path: join(dir, "real", "a"), op: "rename" },
        { kind: "write", tgid: 200, path: "/outside/b", op: "rename" },
        { kind: "write", tgid: 200, path: join(dir, "ln"), op: "symlink" },
        { kind: "write", tgid: 200, path: "/outside/c", op: "chmod" },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads internet destinations of connect and sendto, unix sockets that exist or connected, and the plumbing as a channel open", () => {
    const events = parse(
      [
        `300 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/run/x.sock")}}, 110) = 0`,
        `300 connect(4, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(${hex("93.184.216.34")})}, 16) = -1 EINPROGRESS (Operation now in progress)`,
        `300 connect(5, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, ${hex("::ffff:10.0.0.1")}, &sin6_addr), sin6_scope_id=0}, 28) = 0`,
        `300 sendto(6, ${hex("q")}, 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(${hex("8.8.8.8")})}, 16) = 1`,
        `300 openat(AT_FDCWD${deco("/work")}, ${hex("/run/eg/events.fifo")}, O_WRONLY|O_CLOEXEC) = 3${deco("/run/eg/events.fifo")}`,
      ],
      "/work",
      ["/run/eg/events.fifo"],
    );
    expect(events).toEqual([
      { kind: "unix", tgid: 300, address: "/run/x.sock", proto: "connect" },
      { kind: "host", tgid: 300, host: "93.184.216.34", port: 443, proto: "connect" },
      { kind: "host", tgid: 300, host: "10.0.0.1", port: 80, proto: "connect" },
      { kind: "host", tgid: 300, host: "8.8.8.8", port: 53, proto: "send" },
      { kind: "channel", tgid: 300, path: "/run/eg/events.fifo", writeOnly: true },
    ]);
  });

  it("records a connect to a container engine's socket name whether or not it is there or connected; another name nothing listens on is not", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-docker-")));
    try {
      mkdirSync(join(dir, "run"));
      symlinkSync(join(dir, "run"), join(dir, "var-run"));
      symlinkSync(join(dir, "run", "elsewhere.sock"), join(dir, "docker.sock"));
      const refused = "-1 ECONNREFUSED (Connection refused)";
      const missing = "-1 ENOENT (No such file or directory)";
      const events = parse([
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/var/run/nscd/socket")}}, 110) = ${missing}`,
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex(join(dir, "var-run", "docker.sock"))}}, 110) = ${missing}`,
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/run/user/1000/podman/podman.sock")}}, 110) = ${missing}`,
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/run/containerd/containerd.sock")}}, 110) = ${refused}`,
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/run/buildkit/buildkitd.sock")}}, 110) = -1 EACCES (Permission denied)`,
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex("/run/my-docker.sock.bak")}}, 110) = ${missing}`,
        // A link named docker.sock: recorded, by what it resolves to.
        `400 connect(3, {sa_family=AF_UNIX, sun_path=${hex(join(dir, "docker.sock"))}}, 110) = ${missing}`,
        `400 connect(4, {sa_family=AF_INET, sin_port=htons(2375), sin_addr=inet_addr(${hex("127.0.0.2")})}, 16) = ${refused}`,
      ]);
      expect(events).toEqual([
        { kind: "unix", tgid: 400, address: join(dir, "run", "docker.sock"), proto: "connect" },
        { kind: "unix", tgid: 400, address: "/run/user/1000/podman/podman.sock", proto: "connect" },
        { kind: "unix", tgid: 400, address: "/run/containerd/containerd.sock", proto: "connect" },
        { kind: "unix", tgid: 400, address: "/run/buildkit/buildkitd.sock", proto: "connect" },
        { kind: "unix", tgid: 400, address: join(dir, "run", "elsewhere.sock"), proto: "connect" },
        { kind: "host", tgid: 400, host: "127.0.0.2", port: 2375, proto: "connect" },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("parses what the installed strace really prints", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-real-")));
    try {
      const out = join(dir, "trace.txt");
      const r = spawnSync("strace", [...straceArgs(out), "--", "sh", "-c", `cd ${dir} && mkdir d && echo x > d/f && mv d/f g && rm g`]);
      expect(r.status).toBe(0);
      const text = readFileSync(out, "utf8");
      const events = parse(text.trimEnd().split("\n"), dir);
      const writes = events
        .filter((e) => e.kind === "write")
        .map((e) => `${e.kind === "write" ? e.op : ""} ${e.kind === "write" ? e.path : ""}`);
      expect(writes).toEqual([`mkdir ${dir}/d`, `create ${dir}/d/f`, `rename ${dir}/d/f`, `rename ${dir}/g`, `delete ${dir}/g`]);
      // The real executables: symlinks (sh -> dash on Debian) resolved.
      const execs = events.flatMap((e) => (e.kind === "exec" ? [e.path] : []));
      const real = (c: string): string => realpathSync(spawnSync("sh", ["-c", `command -v ${c}`], { encoding: "utf8" }).stdout.trim());
      expect(execs).toEqual(["sh", "mkdir", "mv", "rm"].map(real));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("strace output parser: the jail", () => {
  const jailed = (lines: string[], writable: (p: string) => boolean = () => false): ProcessEvent[] => {
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({
      cwd: "/work",
      plumbing: new Set(),
      // These lines' pids are made up: whatever /proc says of a real process by that number is not theirs.
      emit: (e) => {
        if (e.kind === "exec") delete e.jailPid;
        events.push(e);
      },
      jailed: { view: new PathView([]), launcher: "/usr/bin/env", writable },
    });
    parser.push(lines.map((l) => l + "\n").join(""));
    parser.finish();
    return events;
  };

  it("writes on each exec the process's pid in the innermost PID namespace (NSpid), read while it runs; none once it is gone", () => {
    const live = spawnSync("sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" });
    const pid = Number(live.stdout.trim());
    try {
      const nsPids = (/^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "").trim().split(/\s+/);
      const events: ProcessEvent[] = [];
      const parser = new StraceParser({
        cwd: "/work",
        plumbing: new Set(),
        emit: (e) => events.push(e),
        jailed: { view: new PathView([]), launcher: "/usr/bin/env" },
      });
      // A pid above pid_max is no process: nothing is guessed for it.
      const gone = 4194305;
      parser.push(
        [
          `10 execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
          `10 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWUSER|SIGCHLD) = 11`,
          `11 clone(child_stack=NULL, flags=SIGCHLD) = ${pid}`,
          `${pid} execve(${hex("/usr/bin/true")}, [${hex("true")}], 0x1 /* 3 vars */) = 0`,
          `${gone} execve(${hex("/usr/bin/true")}, [${hex("true")}], 0x1 /* 3 vars */) = 0`,
          "",
        ].join("\n"),
      );
      parser.finish();
      const execs = events.filter((e) => e.kind === "exec");
      expect(execs.find((e) => e.tgid === pid)).toMatchObject({ jailPid: Number(nsPids[nsPids.length - 1]) });
      const goneExec = execs.find((e) => e.tgid === gone);
      expect(goneExec).toMatchObject({ kind: "exec", path: realpathSync("/usr/bin/true") });
      expect(goneExec).not.toHaveProperty("jailPid");
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("records nothing of bubblewrap building the jail, nor its launcher; the command's tree from its exec on", () => {
    const events = jailed([
      `10 execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
      `10 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWUSER|SIGCHLD) = 11`,
      `11 mount(${hex("tmpfs")}, ${hex("/tmp")}, ${hex("tmpfs")}, MS_NODEV, NULL) = 0`,
      `11 mkdir(${hex("/newroot")}, 0755) = 0`,
      `11 clone(child_stack=NULL, flags=SIGCHLD) = 12`,
      `12 execve(${hex("/usr/bin/env")}, [${hex("env")}, ${hex("-u")}, ${hex("PWD")}], 0x1 /* 3 vars */) = 0`,
      `12 execve(${hex("/usr/bin/true")}, [${hex("true")}], 0x1 /* 3 vars */) = 0`,
      `12 mkdir(${hex("/work/d")}, 0755) = 0`,
      `11 mkdir(${hex("/bwrap-own")}, 0755) = 0`,
    ]);
    expect(events).toEqual([
      { kind: "exec", tgid: 12, ppid: 11, path: realpathSync("/usr/bin/true"), argv: ["true"] },
      { kind: "write", tgid: 12, path: "/work/d", op: "mkdir" },
    ]);
  });

  it("says whether bubblewrap started the command: not when its setup failed (a mount point it could not make), and nothing is recorded", () => {
    const started = (lines: string[]): { started: boolean; events: ProcessEvent[] } => {
      const events: ProcessEvent[] = [];
      const parser = new StraceParser({
        cwd: "/work",
        plumbing: new Set(),
        emit: (e) => events.push(e),
        facts: NO_PROCESSES,
        jailed: { view: new PathView([]), launcher: "/usr/bin/env" },
      });
      parser.push(lines.map((l) => l + "\n").join(""));
      parser.finish();
      return { started: parser.commandStarted, events };
    };
    const setup = [
      `10 execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
      `10 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWUSER|SIGCHLD) = 11`,
      `11 mkdir(${hex("/newroot/var/eg0/gone")}, 0755) = -1 EACCES (Permission denied)`,
    ];
    expect(started([...setup, "11 +++ exited with 1 +++", "10 +++ exited with 1 +++"])).toEqual({ started: false, events: [] });
    const ran = started([
      ...setup.slice(0, 2),
      `11 execve(${hex("/usr/bin/env")}, [${hex("env")}, ${hex("-u")}, ${hex("PWD")}], 0x1 /* 3 vars */) = 0`,
    ]);
    expect(ran.started).toBe(true);
    // Unjailed, the traced process is the command.
    const bare = new StraceParser({ cwd: "/work", plumbing: new Set(), emit: () => {}, facts: NO_PROCESSES });
    expect(bare.commandStarted).toBe(true);
  });

  it("a fork's return value is the child's pid inside the jail: the child still starts in its parent's directory", () => {
    const events = jailed([
      `3999960 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `3999961 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `3999961 chdir(${hex("/work/sub")}) = 0`,
      `3999961 vfork( <unfinished ...>`,
      `3999962 execve(${hex("/nonexistent/prog")}, [${hex("prog")}], NULL <unfinished ...>`,
      `3999961 <... vfork resumed>) = 4`,
      `3999962 <... execve resumed>) = 0`,
      `3999962 mkdir(${hex("made")}, 0777) = 0`,
    ]);
    expect(events.filter((e) => e.kind === "write")).toEqual([{ kind: "write", tgid: 3999962, path: "/work/sub/made", op: "mkdir" }]);
    expect(events.find((e) => e.kind === "exec" && e.tgid === 3999962)).toMatchObject({ ppid: 3999961 });
  });

  it("records refused calls: injected refusals, namespace flags on clone and unshare, mounts", () => {
    const events = jailed([
      `20 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `21 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `21 open_by_handle_at(3, 0x7ffd0000, O_RDONLY) = -1 EPERM (Operation not permitted) (INJECTED)`,
      `21 pidfd_getfd(3, 4, 0) = -1 EPERM (Operation not permitted) (INJECTED)`,
      `21 unshare(CLONE_FILES) = 0`,
      `21 unshare(CLONE_NEWNS|CLONE_NEWUSER) = -1 ENOSPC (No space left on device)`,
      `21 clone(child_stack=NULL, flags=CLONE_NEWUSER|SIGCHLD) = -1 ENOSPC (No space left on device)`,
      `21 mount(${hex("/outside")}, ${hex("/work/x")}, NULL, MS_BIND, NULL) = -1 EPERM (Operation not permitted)`,
    ]);
    expect(events.filter((e) => e.kind === "forbidden")).toEqual(
      ["open_by_handle_at", "pidfd_getfd", "unshare", "clone", "mount"].map((name) => ({ kind: "forbidden", tgid: 21, name })),
    );
  });

  it("judges a hard link's source as well as its target, and ownership, times, attributes and socket files as writes", () => {
    const events = jailed([
      `30 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `31 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `31 linkat(AT_FDCWD${deco("/work")}, ${hex("/outside/file")}, AT_FDCWD${deco("/work")}, ${hex("hl")}, 0) = -1 EXDEV (Invalid cross-device link)`,
      `31 fchownat(AT_FDCWD${deco("/work")}, ${hex("/outside/o")}, 0, 0, 0) = -1 EROFS (Read-only file system)`,
      `31 utimensat(AT_FDCWD${deco("/work")}, ${hex("/outside/t")}, NULL, 0) = -1 EROFS (Read-only file system)`,
      `31 utimensat(5${deco("/outside/fd")}, NULL, NULL, 0) = -1 EROFS (Read-only file system)`,
      `31 setxattr(${hex("/outside/x")}, ${hex("user.a")}, ${hex("1")}, 1, 0) = -1 EROFS (Read-only file system)`,
      `31 bind(3, {sa_family=AF_UNIX, sun_path=${hex("/outside/s.sock")}}, 110) = -1 EROFS (Read-only file system)`,
    ]);
    expect(events.filter((e) => e.kind === "write").map((e) => (e.kind === "write" ? `${e.op} ${e.path}` : ""))).toEqual([
      "link /outside/file",
      "link /work/hl",
      "chown /outside/o",
      "utimes /outside/t",
      "utimes /outside/fd",
      "xattr /outside/x",
      "bind /outside/s.sock",
    ]);
  });

  it("marks a write refused as read-only whose name now resolves inside: the symlink was swapped too late to see", () => {
    const inside = (p: string): boolean => p.startsWith("/work/");
    const events = jailed(
      [
        `40 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
        `41 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
        `41 openat(AT_FDCWD${deco("/work")}, ${hex("gone-link")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)`,
        `41 openat(AT_FDCWD${deco("/work")}, ${hex("ok.txt")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 ENOSPC (No space left on device)`,
        `41 renameat2(AT_FDCWD${deco("/work")}, ${hex("a")}, AT_FDCWD${deco("/work")}, ${hex("/outside/b")}, 0) = -1 EROFS (Read-only file system)`,
      ],
      inside,
    );
    expect(events.filter((e) => e.kind === "write")).toEqual([
      { kind: "write", tgid: 41, path: "/work/gone-link", op: "create", refused: true },
      { kind: "write", tgid: 41, path: "/work/ok.txt", op: "create" },
      { kind: "write", tgid: 41, path: "/work/a", op: "rename" },
      { kind: "write", tgid: 41, path: "/outside/b", op: "rename" },
    ]);
  });

  it("resolves /proc/self/cwd to the traced process's directory as the kernel reported it, not the wrapper's", () => {
    const events = jailed([
      `50 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `51 execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `51 unlinkat(AT_FDCWD${deco("/outside")}, ${hex("/proc/self/cwd/x")}, 0) = -1 EROFS (Read-only file system)`,
    ]);
    expect(events.filter((e) => e.kind === "write")).toEqual([{ kind: "write", tgid: 51, path: "/outside/x", op: "delete" }]);
  });
});

describe("strace output parser: orders the corpus (strace-corpus.test.ts) did not capture", () => {
  // Built from the corpus's real lines, in orders strace can print but this kernel and strace did not.
  it("pid changed while the leader is in a call whose result never comes: that call is an attempt, the exec the process's", () => {
    const events = parse([
      `500 execve(${hex("/usr/bin/true")}, [${hex("prog")}], 0x1 /* 3 vars */) = 0`,
      `500 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 501`,
      `500 openat(AT_FDCWD${deco("/work")}, ${hex("/outside/fifo")}, O_WRONLY <unfinished ...>`,
      `501 execve(${hex("/bin/sh")}, [${hex("sh")}, ${hex("-c")}, ${hex(":")}], 0x2 /* 3 vars */ <pid changed to 500 ...>`,
      `500 +++ superseded by execve in pid 501 +++`,
      `500 <... execve resumed>)             = ?`,
      `500 mkdir(${hex("after")}, 0777) = 0`,
    ]);
    expect(events).toEqual([
      { kind: "exec", tgid: 500, ppid: null, path: realpathSync("/usr/bin/true"), argv: ["prog"] },
      { kind: "write", tgid: 500, path: "/outside/fifo", op: "write" },
      { kind: "exec", tgid: 500, ppid: null, path: realpathSync("/bin/sh"), argv: ["sh", "-c", ":"] },
      { kind: "write", tgid: 500, path: "/work/after", op: "mkdir" },
    ]);
  });

  it("a thread's exec whose result line never comes before the process ends: it ran all the same", () => {
    const events = parse([
      `520 execve(${hex("/usr/bin/true")}, [${hex("prog")}], 0x1 /* 3 vars */) = 0`,
      `520 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 521`,
      `521 execve(${hex("/bin/sh")}, [${hex("sh")}], 0x2 /* 3 vars */ <pid changed to 520 ...>`,
      `520 +++ superseded by execve in pid 521 +++`,
      `520 +++ killed by SIGKILL +++`,
    ]);
    expect(events.filter((e) => e.kind === "exec").map((e) => (e.kind === "exec" ? [e.tgid, e.path] : []))).toEqual([
      [520, realpathSync("/usr/bin/true")],
      [520, realpathSync("/bin/sh")],
    ]);
  });

  it("a resumed line whose call is not the one left unfinished: the stale call is an attempt, the other call's result not taken for it", () => {
    const events = parse([
      `510 mkdir(${hex("/outside/d")}, 0777 <unfinished ...>`,
      // Joined, the EEXIST would make the mkdir a no-op; it is another call's result.
      `510 <... openat resumed>)             = -1 EEXIST (File exists)`,
      `510 <... mkdir resumed>)             = 0`,
    ]);
    expect(events).toEqual([{ kind: "write", tgid: 510, path: "/outside/d", op: "mkdir" }]);
  });

  it("a thread's exec in the jail, the thread never seen before its exec: the leader's pid, and no fork record taken", () => {
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({
      cwd: "/work",
      plumbing: new Set(["/run/eg/events.fifo"]),
      emit: (e) => events.push(e),
      jailed: { view: new PathView([]) },
    });
    parser.push(
      [
        `4193990 execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
        `4193991 execve(${hex("/usr/bin/true")}, [${hex("node")}], 0x1 /* 3 vars */) = 0`,
        `4193991 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD) = 7`,
        `4193991 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 8`,
        `4193993 execve(${hex("/bin/sh")}, [${hex("sh")}], 0x2 /* 3 vars */ <unfinished ...>`,
        `4193991 +++ superseded by execve in pid 4193993 +++`,
        `4193991 <... execve resumed>)             = -1 (errno 18446744073709551359)`,
        `4193991 openat(AT_FDCWD${deco("/work")}, ${hex("/run/eg/events.fifo")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3${deco("/run/eg/events.fifo")}`,
        `4193992 execve(${hex("/usr/bin/true")}, [${hex("child")}], 0x1 /* 3 vars */) = 0`,
      ]
        .map((l) => l + "\n")
        .join(""),
    );
    parser.finish();
    expect(events).toEqual([
      { kind: "exec", tgid: 4193991, ppid: null, path: realpathSync("/usr/bin/true"), argv: ["node"] },
      { kind: "exec", tgid: 4193991, ppid: null, path: realpathSync("/bin/sh"), argv: ["sh"] },
      // What run.ts judges the channel's opener by: the last exec of this pid, the shell.
      { kind: "channel", tgid: 4193991, path: "/run/eg/events.fifo", writeOnly: true },
      // The fork's child still finds its parent.
      { kind: "exec", tgid: 4193992, ppid: 4193991, path: realpathSync("/usr/bin/true"), argv: ["child"] },
    ]);
  });
});

describe("strace output parser: no-op attempts", () => {
  it("a mkdir of a directory that exists changes nothing and is not a write; other failed attempts are", () => {
    const events = parse([
      `700 mkdir(${hex("/etc")}, 0777) = -1 EEXIST (File exists)`,
      `700 mkdirat(AT_FDCWD${deco("/work")}, ${hex("/usr")}, 0777) = -1 EEXIST (File exists)`,
      `700 mkdir(${hex("/etc/new")}, 0777) = -1 EROFS (Read-only file system)`,
    ]);
    expect(events).toEqual([{ kind: "write", tgid: 700, path: "/etc/new", op: "mkdir" }]);
  });
});

describe("channel frames", () => {
  it("reassembles fragments from interleaved writers and keeps short records whole", () => {
    const long = { kind: "exec", path: "/bin/x", argv: ["a".repeat(9000)], note: "é" };
    const a = encodeFrames(long, "1.0", 1);
    const b = encodeFrames({ kind: "tool", name: "t" }, "2.0", 1);
    const c = encodeFrames({ kind: "exec", path: "/bin/y", argv: ["b".repeat(5000)] }, "3.0", 1);
    expect(a.length).toBeGreaterThan(2);
    for (const f of [...a, ...b, ...c]) expect(Buffer.byteLength(f)).toBeLessThan(4096);
    const decoder = new FrameDecoder();
    const interleaved = [a[0], c[0], b[0], a[1], c[1], ...a.slice(2), ...c.slice(2)].join("");
    const messages = decoder.push(interleaved).map((m) => JSON.parse(m) as Record<string, unknown>);
    expect(messages).toEqual([{ kind: "tool", name: "t" }, { kind: "exec", path: "/bin/y", argv: ["b".repeat(5000)] }, long]);
    expect(decoder.idle).toBe(true);
  });

  it("refuses a malformed fragment header", () => {
    expect(() => new FrameDecoder().push("~garbage\n")).toThrow(FrameError);
  });

  it("finds and strips its own preload in NODE_OPTIONS, keeping the program's options", () => {
    const merged = mergeNodeOptions('/tmp/a "b"', "--max-old-space-size=64");
    const split = splitNodeOptions(merged);
    expect(split).toEqual({ stageDir: '/tmp/a "b"', rest: "--max-old-space-size=64" });
    expect(splitNodeOptions("--inspect")).toEqual({ stageDir: null, rest: "--inspect" });
  });
});

describe("strace output parser: the eBPF recorder's lines (docs/recorder-protocol.md)", () => {
  // Pids above pid_max are no process: nothing can come from /proc for them.
  const G = 4194400;
  const feed = (parser: StraceParser, lines: string[]): void => {
    const text = lines.map((l) => l + "\n").join("");
    for (let i = 0; i < text.length; i += 11) parser.push(text.slice(i, i + 11));
    parser.finish();
  };

  it("takes tgid, parent, jail pid and the real executable from @fork and @exec, never from /proc", () => {
    const events: ProcessEvent[] = [];
    const exits: unknown[] = [];
    const parser = new StraceParser({
      recorder: "ebpf",
      cwd: "/work",
      plumbing: new Set(),
      emit: (e) => events.push(e),
      jailed: { view: new PathView([]), launcher: "/usr/bin/env" },
      onRootExit: (e) => exits.push(e),
    });
    parser.rootIs(G);
    feed(parser, [
      `${G} @exec ${G} ${hex("/usr/bin/bwrap")}`,
      `${G} execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
      `${G + 1} @fork ${G} 1`,
      `${G} clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWUSER|SIGCHLD) = ${G + 1}`,
      // bubblewrap building the jail: not the command's.
      `${G + 1} openat(AT_FDCWD${deco("/")}, ${hex("/proc/self/uid_map")}, O_WRONLY) = 3${deco("/proc/1/uid_map")}`,
      `${G + 2} @fork ${G + 1} 2`,
      `${G + 2} @exec 2 ${hex("/usr/bin/env")}`,
      `${G + 2} execve(${hex("/usr/bin/env")}, [${hex("env")}, ${hex("-u")}, ${hex("PWD")}, ${hex("/bin/sh")}], 0x1 /* 3 vars */) = 0`,
      `${G + 2} @exec 2 ${hex("/opt/real/sh")}`,
      `${G + 2} execve(${hex("/bin/sh")}, [${hex("sh")}, ${hex("-c")}, ${hex("x")}], 0x1 /* 3 vars */) = 0`,
      `${G + 3} @fork ${G + 2} 3`,
      `${G + 3} openat(AT_FDCWD${deco("/work/sub")}, ${hex("out.txt")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3${deco("/work/sub/out.txt")}`,
      `${G + 3} ptrace(PTRACE_ATTACH, 1) = -1 EPERM (Operation not permitted)`,
      `${G + 3} unlink(${hex("/work/gone")}) = -1 ENOENT (No such file or directory)`,
      `${G + 2} +++ exited with 1 +++`,
      `${G} +++ exited with 0 +++`,
      "@lost 0",
      "@end",
    ]);
    const sh = realpathSync("/bin/sh");
    expect(events).toEqual([
      { kind: "exec", tgid: G + 2, ppid: G + 1, jailPid: 2, path: sh, argv: ["sh", "-c", "x"] },
      ...(sh !== "/opt/real/sh"
        ? [{ kind: "exec", tgid: G + 2, ppid: G + 1, jailPid: 2, path: "/opt/real/sh", argv: ["sh", "-c", "x"] }]
        : []),
      { kind: "write", tgid: G + 3, path: "/work/sub/out.txt", op: "create" },
      { kind: "forbidden", tgid: G + 3, name: "ptrace" },
      { kind: "write", tgid: G + 3, path: "/work/gone", op: "delete", errno: "ENOENT" },
    ]);
    expect(exits).toEqual([{ code: 0, signal: null }]);
    // The hooks record jail pids: the recorder's @fork lines map them back.
    expect(parser.outerPid(3)).toBe(G + 3);
    expect(parser.outerPid(2)).toBe(G + 2);
    expect(parser.outerPid(77)).toBeNull();
  });

  it("inherits the working directory across @fork, for a relative name the recorder did not join", () => {
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({ recorder: "ebpf", cwd: "/work", plumbing: new Set(), emit: (e) => events.push(e) });
    feed(parser, [
      `${G} openat(AT_FDCWD${deco("/work/a")}, ${hex("x")}, O_RDONLY) = 3${deco("/work/a/x")}`,
      `${G + 5} @fork ${G} 5`,
      `${G + 5} mkdir(${hex("d")}, 0777) = 0`,
      `${G + 5} mkdirat(AT_FDCWD${deco("/work/b")}, ${hex("e")}, 0777) = 0`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: G + 5, path: "/work/a/d", op: "mkdir" },
      { kind: "write", tgid: G + 5, path: "/work/b/e", op: "mkdir" },
    ]);
  });

  it("ignores @fork and @exec lines without the option: strace's own output can never make them count", () => {
    const lines = [
      `${G + 9} @fork 4242 3`,
      `${G + 9} @exec 3 ${hex("/fake/exe")}`,
      `${G + 9} execve(${hex("/bin/sh")}, [${hex("sh")}], 0x1 /* 3 vars */) = 0`,
    ];
    expect(parse(lines)).toEqual([{ kind: "exec", tgid: G + 9, ppid: null, path: realpathSync("/bin/sh"), argv: ["sh"] }]);
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({ recorder: "ebpf", cwd: "/work", plumbing: new Set(), emit: (e) => events.push(e) });
    feed(parser, lines);
    expect(events).toEqual([
      { kind: "exec", tgid: G + 9, ppid: 4242, path: realpathSync("/bin/sh"), argv: ["sh"] },
      { kind: "exec", tgid: G + 9, ppid: 4242, path: "/fake/exe", argv: ["sh"] },
    ]);
  });
});

describe("strace output parser: paths the kernel used (issue 29)", () => {
  const G = 4194500;
  /** A jailed parser over a table of what the kernel would say. */
  const tableParse = (
    facts: TableFacts,
    lines: string[],
    options: { ebpf?: boolean; linkSourceFree?: (p: string) => boolean } = {},
  ): ProcessEvent[] => {
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({
      cwd: "/work",
      plumbing: new Set(),
      emit: (e) => {
        if (e.kind === "exec") delete e.jailPid;
        events.push(e);
      },
      facts,
      ...(options.ebpf === true ? { recorder: "ebpf" as const } : {}),
      jailed: {
        view: new PathView([]),
        launcher: "/usr/bin/env",
        ...(options.linkSourceFree === undefined ? {} : { linkSourceFree: options.linkSourceFree }),
      },
    });
    parser.rootIs(G);
    parser.push(lines.map((l) => l + "\n").join(""));
    parser.finish();
    return events.filter((e) => e.kind === "write");
  };
  const start = [
    `${G} execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
    `${G + 1} execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
  ];
  const P = G + 1;

  it("follows a symlink before the `..` after it, in the directory part and (followed) in the last component", () => {
    const facts = new TableFacts().there("/work/sub/x", "/scratch/d").symlink("/scratch/lnk", "/work/sub/x");
    const events = tableParse(facts, [
      ...start,
      `${P} renameat2(AT_FDCWD${deco("/scratch")}, ${hex("/scratch/lnk/../A")}, AT_FDCWD${deco("/scratch")}, ${hex("lnk/../.git")}, 0) = 0`,
      `${P} chmod(${hex("/scratch/lnk/../full")}, 0667) = 0`,
      `${P} unlink(${hex("/scratch/d/../lnk")}) = 0`,
      `${P} mkdir(${hex("/scratch/lnk/./../lnk/../new")}, 0777) = 0`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: P, path: "/work/sub/A", op: "rename" },
      { kind: "write", tgid: P, path: "/work/sub/.git", op: "rename" },
      { kind: "write", tgid: P, path: "/work/sub/full", op: "chmod" },
      // Not followed: the link itself goes.
      { kind: "write", tgid: P, path: "/scratch/lnk", op: "delete" },
      { kind: "write", tgid: P, path: "/work/sub/new", op: "mkdir" },
    ]);
  });

  it("a child made with CLONE_FS shares its parent's working directory: its chdir moves the parent's", () => {
    const facts = new TableFacts().there("/work/sub", "/scratch");
    const events = tableParse(facts, [
      ...start,
      `${P} chdir(${hex("/scratch")}) = 0`,
      `${P} clone(child_stack=0x7f00, flags=CLONE_VM|CLONE_FS|SIGCHLD) = 7`,
      `${G + 2} chdir(${hex("/work/sub")}) = 0`,
      `${P} rename(${hex("A")}, ${hex(".git")}) = 0`,
      // Without CLONE_FS the child's directory is its own.
      `${P} clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD) = 8`,
      `${G + 3} chdir(${hex("/scratch")}) = 0`,
      `${P} mkdir(${hex("d")}, 0777) = 0`,
      // unshare(CLONE_FS): the first child leaves the shared directory.
      `${G + 2} unshare(CLONE_FS) = 0`,
      `${G + 2} chdir(${hex("/scratch")}) = 0`,
      `${P} mkdir(${hex("e")}, 0777) = 0`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: P, path: "/work/sub/A", op: "rename" },
      { kind: "write", tgid: P, path: "/work/sub/.git", op: "rename" },
      { kind: "write", tgid: P, path: "/work/sub/d", op: "mkdir" },
      { kind: "write", tgid: P, path: "/work/sub/e", op: "mkdir" },
    ]);
  });

  it("a mutation through /proc/<pid>/fd/N or /dev/fd/N: the file fd N was at the call is not in the line, never read from /proc afterwards", () => {
    // What /proc says now (fd 3 reused for the scratch) is not what it was at the call.
    const facts = new TableFacts()
      .there("/work", "/scratch")
      .symlink("/dev/fd", "/proc/self/fd")
      .symlink(`/proc/${P}/fd/3`, "/scratch")
      .symlink(`/proc/${P}/fd/4`, "socket:[1234]");
    const events = tableParse(facts, [
      ...start,
      `${P} renameat2(AT_FDCWD${deco("/work")}, ${hex("A")}, AT_FDCWD${deco("/work")}, ${hex("/proc/self/fd/3/.git")}, 0) = 0`,
      `${P} chmod(${hex("/dev/fd/3")}, 0600) = 0`,
      `${P} unlink(${hex("/proc/1/fd/3/x")}) = 0`,
      `${P} openat(AT_FDCWD${deco("/work")}, ${hex("/proc/self/fd/4/y")}, O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)`,
      // Its cwd and root are the lines' own: known.
      `${P} unlinkat(AT_FDCWD${deco("/work")}, ${hex("/proc/self/root/work/z")}, 0) = 0`,
      `${P} unlinkat(AT_FDCWD${deco("/work")}, ${hex("/proc/thread-self/cwd/w")}, 0) = 0`,
      // A successful open's name is the kernel's, from the call: known.
      `${P} openat(AT_FDCWD${deco("/work")}, ${hex("/proc/self/fd/3/ok")}, O_WRONLY|O_CREAT, 0666) = 5${deco("/work/ok")}`,
    ]);
    expect(events).toEqual([
      { kind: "write", tgid: P, path: "/work/A", op: "rename" },
      { kind: "write", tgid: P, path: "/proc/self/fd/3/.git", op: "rename", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/proc/self/fd/3", op: "chmod", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/proc/1/fd/3/x", op: "delete", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/proc/self/fd/4/y", op: "create", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/work/z", op: "delete" },
      { kind: "write", tgid: P, path: "/work/w", op: "delete" },
      { kind: "write", tgid: P, path: "/work/ok", op: "create" },
    ]);
    expect(facts.asked.filter((a) => a.startsWith(`link /proc/${P}/fd/`))).toEqual([]);
  });

  it("a hard link of an fd (an O_TMPFILE file given a name): its file goes unnamed only where the new name's mount holds nothing judged", () => {
    const facts = new TableFacts().there("/work", "/scratch").symlink(`/proc/${P}/fd/3`, "socket:[99]");
    const lines = [
      ...start,
      `${P} openat(AT_FDCWD${deco("/scratch")}, ${hex(".")}, O_RDWR|O_EXCL|O_TMPFILE, 0600) = 3${deco("/scratch/#1234 (deleted)")}`,
      `${P} linkat(AT_FDCWD${deco("/scratch")}, ${hex("/proc/self/fd/3")}, AT_FDCWD${deco("/scratch")}, ${hex("named")}, AT_SYMLINK_FOLLOW) = 0`,
      `${P} linkat(AT_FDCWD${deco("/work")}, ${hex("/proc/self/fd/3")}, AT_FDCWD${deco("/work")}, ${hex("named")}, AT_SYMLINK_FOLLOW) = 0`,
      `${P} linkat(AT_FDCWD${deco("/scratch")}, ${hex("/proc/self/fd/3")}, AT_FDCWD${deco("/scratch")}, ${hex("failed")}, AT_SYMLINK_FOLLOW) = -1 EXDEV (Invalid cross-device link)`,
    ];
    const free = (p: string): boolean => p === "/scratch" || p.startsWith("/scratch/");
    expect(tableParse(facts, lines, { linkSourceFree: free })).toEqual([
      { kind: "write", tgid: P, path: "/scratch/#1234", op: "write" },
      { kind: "write", tgid: P, path: "/scratch/named", op: "link" },
      { kind: "write", tgid: P, path: "/proc/self/fd/3", op: "link", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/work/named", op: "link" },
      { kind: "write", tgid: P, path: "/proc/self/fd/3", op: "link", pathUnknown: "fd-path" },
      { kind: "write", tgid: P, path: "/scratch/failed", op: "link" },
    ]);
    // Without the predicate, nothing is free.
    expect(tableParse(facts, lines).filter((e) => e.kind === "write" && e.pathUnknown !== undefined)).toHaveLength(3);
  });

  it("a memfd, a pipe or a socket written through its fd is no path", () => {
    const facts = new TableFacts().there("/work");
    const events = tableParse(facts, [
      ...start,
      `${P} openat(AT_FDCWD${deco("/work")}, ${hex("/proc/self/fd/3")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4${deco("/memfd:buf (deleted)")}`,
      `${P} ftruncate(3${deco("/memfd:buf (deleted)")}, 4096) = 0`,
      `${P} fchmod(5${deco("socket:[77]")}, 0600) = 0`,
      `${P} openat(AT_FDCWD${deco("/work")}, ${hex("/dev/stdout")}, O_WRONLY|O_CREAT|O_TRUNC, 0666) = 1${deco("pipe:[88]")}`,
      `${P} ftruncate(6${deco("/work/memfd:not-one")}, 0) = 0`,
    ]);
    expect(events).toEqual([{ kind: "write", tgid: P, path: "/work/memfd:not-one", op: "truncate" }]);
  });

  it("eBPF: `@path-unknown REASON` marks the process's next call's writes, and only those", () => {
    const facts = new TableFacts().there("/work");
    const events = tableParse(
      facts,
      [
        `${G} @exec ${G} ${hex("/usr/bin/bwrap")}`,
        `${G} execve(${hex("/usr/bin/bwrap")}, [${hex("bwrap")}], 0x1 /* 3 vars */) = 0`,
        `${G + 1} @fork ${G} 1`,
        `${G + 1} @exec 1 ${hex("/usr/bin/true")}`,
        `${G + 1} execve(${hex("/usr/bin/true")}, [${hex("x")}], 0x1 /* 3 vars */) = 0`,
        `${G + 2} @fork ${G + 1} 2`,
        `${G + 1} @path-unknown walk-truncated`,
        `${G + 2} mkdirat(AT_FDCWD${deco("/work")}, ${hex("other")}, 0777) = 0`,
        `${G + 1} renameat2(AT_FDCWD${deco("/work")}, ${hex("a")}, AT_FDCWD${deco("/work")}, ${hex("b")}, 0) = -1 ENOENT (No such file or directory)`,
        `${G + 1} mkdirat(AT_FDCWD${deco("/work")}, ${hex("after")}, 0777) = 0`,
        // A malformed reason is no mark.
        `${G + 1} @path-unknown Bad Reason`,
        `${G + 1} mkdirat(AT_FDCWD${deco("/work")}, ${hex("last")}, 0777) = 0`,
      ],
      { ebpf: true },
    );
    expect(events).toEqual([
      { kind: "write", tgid: G + 2, path: "/work/other", op: "mkdir" },
      { kind: "write", tgid: G + 1, path: "/work/a", op: "rename", pathUnknown: "walk-truncated" },
      { kind: "write", tgid: G + 1, path: "/work/b", op: "rename", pathUnknown: "walk-truncated" },
      { kind: "write", tgid: G + 1, path: "/work/after", op: "mkdir" },
      { kind: "write", tgid: G + 1, path: "/work/last", op: "mkdir" },
    ]);
  });

  it("strace's output can never carry `@path-unknown`: ignored without the eBPF option", () => {
    const facts = new TableFacts().there("/work");
    const events = tableParse(facts, [...start, `${P} @path-unknown fd-path`, `${P} mkdir(${hex("/work/x")}, 0777) = 0`]);
    expect(events).toEqual([{ kind: "write", tgid: P, path: "/work/x", op: "mkdir" }]);
  });
});

describe("an exec's one record: a `#!` script's interpreter and argv, as the kernel started them", () => {
  const envBin = realpathSync("/usr/bin/env");
  const dash = realpathSync("/bin/sh");
  /** Exec events from the lines, jail pids aside; `facts` holds the scripts' first bytes. */
  const execs = (facts: TableFacts, lines: string[], ebpf = false): ProcessEvent[] => {
    const events: ProcessEvent[] = [];
    const parser = new StraceParser({
      cwd: "/work",
      plumbing: new Set(),
      emit: (e) => events.push(e),
      facts,
      ...(ebpf ? { recorder: "ebpf" as const } : {}),
    });
    parser.push(lines.map((l) => l + "\n").join(""));
    parser.finish();
    return events.filter((e) => e.kind === "exec");
  };
  const execLine = (path: string, argv: string[]): string =>
    `300 execve(${hex(path)}, [${argv.map(hex).join(", ")}], 0x1 /* 3 vars */) = 0`;
  const scripts = (): TableFacts =>
    new TableFacts()
      .there("/work", "/usr/bin/env", "/usr/bin/sh", "/usr/bin/dash")
      .symlink("/bin", "usr/bin")
      .symlink("/usr/bin/sh", "dash")
      .file("/work/bin/mocha", "#!/usr/bin/env node\nrequire('x')\n")
      .file("/work/run.sh", "#! /bin/sh  -e \t\necho\n")
      .file("/work/inner", "#!/bin/sh\n")
      .file("/work/outer", "#!/work/inner -x\n");

  it("strace: the interpreter from the script's `#!` line, the argv the kernel built (the caller's argv[0] gone)", () => {
    const facts = scripts();
    expect(execs(facts, [execLine("/work/bin/mocha", ["mocha", "--reporter", "dot"]), execLine("run.sh", ["./run.sh", "a"])])).toEqual([
      {
        kind: "exec",
        tgid: 300,
        ppid: null,
        path: "/work/bin/mocha",
        argv: ["/usr/bin/env", "node", "/work/bin/mocha", "--reporter", "dot"],
        interpreter: "/usr/bin/env",
      },
      { kind: "exec", tgid: 300, ppid: null, path: "/work/run.sh", argv: ["/bin/sh", "-e", "run.sh", "a"], interpreter: "/usr/bin/dash" },
    ]);
    expect(facts.asked.filter((a) => a.startsWith("exe") || a.includes("/proc/"))).toEqual([]);
  });

  it("strace: nested interpreters, each level's line read, as the kernel does", () => {
    expect(execs(scripts(), [execLine("/work/outer", ["outer", "1"])])).toEqual([
      {
        kind: "exec",
        tgid: 300,
        ppid: null,
        path: "/work/outer",
        argv: ["/bin/sh", "/work/inner", "-x", "/work/outer", "1"],
        interpreter: "/usr/bin/dash",
      },
    ]);
  });

  it("the eBPF recorder's `@exec ... interpreted`: one record, the interpreter bprm->file, the argv the new image has", () => {
    const lines = [
      `300 @exec 3 ${hex(envBin)} interpreted`,
      execLine("/work/bin/mocha", ["/usr/bin/env", "node", "/work/bin/mocha", "--reporter", "dot"]),
      `300 @exec 3 ${hex(dash)}`,
      execLine("/bin/sh", ["sh", "-c", "x"]),
    ];
    expect(execs(scripts(), lines, true)).toEqual([
      {
        kind: "exec",
        tgid: 300,
        ppid: null,
        path: "/work/bin/mocha",
        argv: ["/usr/bin/env", "node", "/work/bin/mocha", "--reporter", "dot"],
        interpreter: envBin,
      },
      { kind: "exec", tgid: 300, ppid: null, path: "/usr/bin/dash", argv: ["sh", "-c", "x"] },
    ]);
  });

  it("an ELF image has no interpreter, and /proc is not asked", () => {
    const facts = scripts().file("/work/elf", "\x7fELF\x02\x01");
    expect(execs(facts, [execLine("/work/elf", ["elf"])])).toEqual([
      { kind: "exec", tgid: 300, ppid: null, path: "/work/elf", argv: ["elf"] },
    ]);
    expect(facts.asked.filter((a) => a.startsWith("exe "))).toEqual([]);
  });

  it("a file whose bytes do not say what ran (unreadable here, a binfmt_misc format, a `#!` line the kernel refuses): the kernel's account from /proc", () => {
    const facts = scripts().unreadable("/work/locked").file("/work/magic", "#EGRV\nprint(1)\n").file("/work/blank", "#!   \n");
    facts.exes.set(300, "/usr/bin/python3.11");
    expect(
      execs(facts, [execLine("/work/locked", ["locked"]), execLine("/work/magic", ["magic"]), execLine("/work/blank", ["blank"])]),
    ).toEqual([
      { kind: "exec", tgid: 300, ppid: null, path: "/work/locked", argv: ["locked"], interpreter: "/usr/bin/python3.11" },
      { kind: "exec", tgid: 300, ppid: null, path: "/work/magic", argv: ["magic"], interpreter: "/usr/bin/python3.11" },
      { kind: "exec", tgid: 300, ppid: null, path: "/work/blank", argv: ["blank"], interpreter: "/usr/bin/python3.11" },
    ]);
  });

  it("an unreadable ELF image: /proc names the file itself, so no interpreter; a process already gone: its /proc path, which no envelope allows", () => {
    const facts = scripts().unreadable("/work/locked");
    facts.exes.set(300, "/work/locked");
    expect(execs(facts, [execLine("/work/locked", ["locked"])])).toEqual([
      { kind: "exec", tgid: 300, ppid: null, path: "/work/locked", argv: ["locked"] },
    ]);
    const gone = scripts().unreadable("/work/locked");
    expect(execs(gone, [execLine("/work/locked", ["locked"])])).toEqual([
      { kind: "exec", tgid: 300, ppid: null, path: "/work/locked", argv: ["locked"], interpreter: "/proc/300/exe" },
    ]);
  });

  it("a file no longer there (removed since; a memfd): recorded as named, /proc not asked", () => {
    const facts = scripts().gone("/memfd:payload");
    facts.exes.set(300, "/usr/bin/python3.11");
    expect(execs(facts, [execLine("/memfd:payload", ["payload"])])).toEqual([
      { kind: "exec", tgid: 300, ppid: null, path: "/memfd:payload", argv: ["payload"] },
    ]);
    expect(facts.asked.filter((a) => a.startsWith("exe "))).toEqual([]);
  });
});
