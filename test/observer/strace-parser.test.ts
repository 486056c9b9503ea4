import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FrameDecoder, FrameError, encodeFrames, mergeNodeOptions, splitNodeOptions } from "../../src/observer/protocol.js";
import { StraceParser, straceArgs, type ProcessEvent } from "../../src/observer/strace.js";

const hex = (s: string): string => `"${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}"`;
const deco = (s: string): string => `<${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}>`;

function parse(lines: string[], cwd = "/work", plumbing: string[] = []): ProcessEvent[] {
  const events: ProcessEvent[] = [];
  const parser = new StraceParser({ cwd, plumbing: new Set(plumbing), emit: (e) => events.push(e) });
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
      { kind: "exec", tgid: 102, ppid: 100, path: "/bin/sh", argv: ["sh", "-c", "echo hi"] },
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
        { kind: "write", tgid: 200, path: join(dir, "gone.txt"), op: "delete" },
        { kind: "write", tgid: 200, path: join(dir, "real", "a"), op: "rename" },
        { kind: "write", tgid: 200, path: "/outside/b", op: "rename" },
        { kind: "write", tgid: 200, path: join(dir, "ln"), op: "symlink" },
        { kind: "write", tgid: 200, path: "/outside/c", op: "chmod" },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads internet destinations of connect and sendto, and skips unix sockets and the plumbing", () => {
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
      { kind: "host", tgid: 300, host: "93.184.216.34", port: 443, proto: "connect" },
      { kind: "host", tgid: 300, host: "10.0.0.1", port: 80, proto: "connect" },
      { kind: "host", tgid: 300, host: "8.8.8.8", port: 53, proto: "send" },
    ]);
  });

  it("parses what the installed strace really prints", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-real-")));
    try {
      const out = join(dir, "trace.txt");
      const r = spawnSync("strace", [...straceArgs(out), "--", "sh", "-c", `cd ${dir} && mkdir d && echo x > d/f && mv d/f g && rm g`]);
      expect(r.status).toBe(0);
      const text = readFileSync(out, "utf8");
      const events = parse(text.trimEnd().split("\n"), dir);
      const writes = events.filter((e) => e.kind === "write").map((e) => `${e.kind === "write" ? e.op : ""} ${e.kind === "write" ? e.path : ""}`);
      expect(writes).toEqual([`mkdir ${dir}/d`, `create ${dir}/d/f`, `rename ${dir}/d/f`, `rename ${dir}/g`, `delete ${dir}/g`]);
      const execs = events.flatMap((e) => (e.kind === "exec" ? [e.path.slice(e.path.lastIndexOf("/") + 1)] : []));
      expect(execs).toEqual(["sh", "mkdir", "mv", "rm"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
