/**
 * The parser against a corpus of strace's real output: each `strace-corpus/NAME.trace` is what
 * the installed strace printed, with the wrapper's own arguments, for the program of the same
 * name beside it (regenerate with `strace-corpus/capture.sh`). Pids are renumbered on load into a
 * range no process of the test machine has, since the parser asks /proc about the pids it reads.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { WriteOp } from "../../src/core/log-format.js";
import { PathView } from "../../src/observer/jail.js";
import { StraceParser, straceArgs, type ProcessEvent, type RootExit } from "../../src/observer/strace.js";
import { jailArch } from "../../src/observer/seccomp.js";

const CORPUS = join(import.meta.dirname, "strace-corpus");
/** The directory the programs ran in while they were traced (capture.sh). */
const DIR = "/tmp/eg-strace-corpus";
const FIRST_PID = 4_194_000;
const TRUE = realpathSync("/bin/true");

interface Trace {
  lines: string[];
  /** The renumbered pid of the trace's Nth distinct process or thread, in order of first line. */
  pid: (n: number) => number;
}

function load(name: string): Trace {
  const raw = readFileSync(join(CORPUS, `${name}.trace`), "utf8")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"));
  const order: number[] = [];
  for (const l of raw) {
    const pid = Number(/^(\d+) /.exec(l)?.[1]);
    if (!order.includes(pid)) order.push(pid);
  }
  const renumber = new Map(order.map((p, i) => [String(p), String(FIRST_PID + i)]));
  const lines = raw.map((l) => l.replace(/\b\d{2,7}\b/g, (n) => renumber.get(n) ?? n));
  return { lines, pid: (n) => FIRST_PID + n };
}

interface Parsed {
  events: ProcessEvent[];
  rootExit: RootExit | null;
}

function parse(lines: string[], jailed = false): Parsed {
  const events: ProcessEvent[] = [];
  let rootExit: RootExit | null = null;
  const parser = new StraceParser({
    cwd: DIR,
    plumbing: new Set(),
    emit: (e) => events.push(e),
    onRootExit: (e) => (rootExit = e),
    ...(jailed ? { jailed: { view: new PathView([]) } } : {}),
  });
  // Fed in awkward pieces: the parser must not care where reads split lines.
  const text = lines.map((l) => l + "\n").join("");
  for (let i = 0; i < text.length; i += 61) parser.push(text.slice(i, i + 61));
  parser.finish();
  return { events, rootExit };
}

/** The same lines as they come out of the jail: bubblewrap first, the command from its first exec on. */
function parseJailed(lines: string[]): Parsed {
  return parse([`${FIRST_PID - 1} execve("${hex("/usr/bin/bwrap")}", ["${hex("bwrap")}"], 0x1 /* 3 vars */) = 0`, ...lines], true);
}

function hex(s: string): string {
  return [...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
}

const exec = (tgid: number, path: string, argv: string[], ppid: number | null = null): ProcessEvent => ({
  kind: "exec",
  tgid,
  ppid,
  path,
  argv,
});
const write = (tgid: number, name: string, op: WriteOp): ProcessEvent => ({ kind: "write", tgid, path: `${DIR}/${name}`, op });
const execs = (events: ProcessEvent[]): ProcessEvent[] => events.filter((e) => e.kind === "exec");

describe("strace corpus: the captures are of the wrapper's strace arguments", () => {
  it("each trace names strace's output options the parser relies on, and the wrapper still passes them", () => {
    const current = straceArgs("TRACE", jailArch());
    for (const option of ["-f", "-q", "--seccomp-bpf", "-y", "-xx"]) expect(current).toContain(option);
    for (const name of ["thread-exec", "vfork-exec", "threads-interleaved", "thread-execv-python"]) {
      const header = readFileSync(join(CORPUS, `${name}.trace`), "utf8").split("\n")[1] as string;
      expect(header.startsWith("# strace -f -q --seccomp-bpf -y -xx -s 8192 -e signal=none -e trace=")).toBe(true);
    }
  });
});

describe("strace corpus: exec from a thread other than the main one", () => {
  it("the exec line still open when the pid changed: recorded under the leader's pid, and so is everything after it", () => {
    const t = load("thread-exec");
    expect(t.lines.some((l) => l.startsWith(`${t.pid(1)} execve(`) && l.endsWith(`<pid changed to ${t.pid(0)} ...>`))).toBe(true);
    expect(t.lines).toContain(`${t.pid(0)} +++ superseded by execve in pid ${t.pid(1)} +++`);
    // strace prints this exec's result as a garbage errno under --seccomp-bpf: the exec went through.
    expect(t.lines.some((l) => l.startsWith(`${t.pid(0)} <... execve resumed>`) && l.includes("= -1"))).toBe(true);
    const { events, rootExit } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/thread-exec`, ["./thread-exec"]),
      exec(t.pid(0), `${DIR}/thread-exec`, ["thread-exec", "stage2"]),
      write(t.pid(0), "sub", "mkdir"),
      // The working directory the program changed to after the exec.
      write(t.pid(0), "sub/made", "create"),
      exec(t.pid(0), TRUE, ["true", "after-stage2"]),
    ]);
    expect(rootExit).toEqual({ code: 0, signal: null });
  });

  it("the exec line cut short by the leader's own call ending (a write in progress): superseded, then resumed", () => {
    const t = load("thread-exec-leader-writing");
    expect(t.lines).toContain(`${t.pid(0)} +++ superseded by execve in pid ${t.pid(1)} +++`);
    expect(t.lines.some((l) => l.startsWith(`${t.pid(1)} execve(`) && l.endsWith("<unfinished ...>"))).toBe(true);
    expect(t.lines.some((l) => l.includes("pid changed"))).toBe(false);
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/thread-exec-leader-writing`, ["./thread-exec-leader-writing"]),
      write(t.pid(0), "fifo", "create"),
      // The main thread's open for writing, ended by the kernel (`= ?`): an attempt all the same.
      write(t.pid(0), "fifo", "write"),
      exec(t.pid(0), TRUE, ["true", "from-thread"]),
    ]);
  });

  it("the main thread already gone (pthread_exit): the thread takes its pid", () => {
    const t = load("leader-exited");
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/leader-exited`, ["./leader-exited"]),
      exec(t.pid(0), TRUE, ["true", "after-leader-exit"]),
    ]);
  });

  it("execveat from a thread, relative to a directory descriptor", () => {
    const t = load("thread-execveat");
    expect(t.lines.some((l) => l.startsWith(`${t.pid(1)} execveat(`) && l.includes("pid changed"))).toBe(true);
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/thread-execveat`, ["./thread-execveat"]),
      exec(t.pid(0), TRUE, ["true", "via-execveat"]),
    ]);
  });

  it("Python's os.execv from a threading.Thread", () => {
    const t = load("thread-execv-python");
    const { events } = parse(t.lines);
    expect(execs(events)).toEqual([
      exec(t.pid(0), realpathSync("/usr/bin/python3"), ["/usr/bin/python3", "-B", "thread-execv.py"]),
      exec(t.pid(0), TRUE, ["true", "from-python-thread"]),
    ]);
  });

  it("a failed exec (ENOENT) from a thread records nothing; the process goes on under its own pid and exits with 3", () => {
    const t = load("thread-exec-enoent");
    expect(t.lines.some((l) => l.startsWith(`${t.pid(1)} execve(`) && l.includes("ENOENT"))).toBe(true);
    const { events, rootExit } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/thread-exec-enoent`, ["./thread-exec-enoent"]),
      write(t.pid(0), "after-enoent", "create"),
      write(t.pid(0), "main-after", "create"),
    ]);
    expect(rootExit).toEqual({ code: 3, signal: null });
  });

  it("a signal interrupts a thread's call (ERESTARTSYS), the thread calls again, then executes: with and without signal lines", () => {
    for (const name of ["signal-in-call", "signal-in-call.signals-shown"]) {
      const t = load(name);
      expect(t.lines.some((l) => l.includes("ERESTARTSYS"))).toBe(true);
      expect(t.lines.some((l) => l.includes("--- SIGUSR1"))).toBe(name.endsWith("signals-shown"));
      const { events } = parse(t.lines);
      expect(events, name).toEqual([
        exec(t.pid(0), `${DIR}/signal-in-call`, ["./signal-in-call"]),
        write(t.pid(0), "fifo", "create"),
        write(t.pid(0), "fifo", "write"),
        write(t.pid(0), "fifo", "write"),
        exec(t.pid(0), TRUE, ["true", "after-signal"]),
      ]);
    }
  });

  it("in the jail (no thread-to-process map from clone lines, the thread gone from /proc): the same execs, under the leader's pid", () => {
    for (const name of [
      "thread-exec",
      "thread-exec-leader-writing",
      "leader-exited",
      "thread-execveat",
      "thread-execv-python",
      "signal-in-call",
    ]) {
      const t = load(name);
      const outside = execs(parse(t.lines).events);
      const inside = execs(parseJailed(t.lines).events);
      expect(inside, name).toEqual(outside);
      expect(inside.length, name).toBeGreaterThanOrEqual(2);
    }
    const t = load("thread-exec");
    expect(parseJailed(t.lines).events.filter((e) => e.kind === "write")).toEqual([
      write(t.pid(0), "sub", "mkdir"),
      write(t.pid(0), "sub/made", "create"),
    ]);
  });
});

describe("strace corpus: threads and processes", () => {
  it("the main thread executes while another thread is in an unfinished write: that call ends (`= ?`), the pid stays", () => {
    const t = load("main-exec-thread-writing");
    expect(t.lines).toContain(`${t.pid(1)} <... openat resumed>)             = ?`);
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/main-exec-thread-writing`, ["./main-exec-thread-writing"]),
      write(t.pid(0), "fifo", "create"),
      write(t.pid(0), "fifo", "write"),
      exec(t.pid(0), TRUE, ["true", "from-main"]),
    ]);
  });

  it("unfinished calls of several threads interleave with a clone3 resumed: each joins its own", () => {
    const t = load("threads-interleaved");
    expect(t.lines.some((l) => l.includes("<... clone3 resumed>"))).toBe(true);
    expect(t.lines.filter((l) => l.endsWith("<unfinished ...>")).length).toBeGreaterThanOrEqual(3);
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/threads-interleaved`, ["./threads-interleaved"]),
      ...[0, 1, 2].map((n) => write(t.pid(0), `fifo-${n}`, "create")),
      ...[0, 1, 2].flatMap((n) => [write(t.pid(0), `fifo-${n}`, "write"), write(t.pid(0), `thread-${n}`, "create")]),
    ]);
  });

  it("a vfork child's exec comes before its parent's vfork result: a process of its own, child of the parent", () => {
    const t = load("vfork-exec");
    expect(t.lines).toContain(`${t.pid(0)} vfork( <unfinished ...>`);
    const { events } = parse(t.lines);
    expect(events).toEqual([
      exec(t.pid(0), `${DIR}/vfork-exec`, ["./vfork-exec"]),
      exec(t.pid(1), TRUE, ["true", "vfork-child"], t.pid(0)),
      write(t.pid(0), "parent-after", "create"),
    ]);
  });

  it("children killed in a call and by a signal: `+++ killed by` lines only when signals are printed; the root's exit is its own", () => {
    for (const name of ["killed-in-call", "killed-in-call.signals-shown"]) {
      const t = load(name);
      const shown = name.endsWith("signals-shown");
      expect(t.lines.includes(`${t.pid(1)} +++ killed by SIGKILL +++`), name).toBe(shown);
      expect(t.lines.includes(`${t.pid(2)} +++ killed by SIGTERM +++`), name).toBe(shown);
      const { events, rootExit } = parse(t.lines);
      expect(events, name).toEqual([
        exec(t.pid(0), `${DIR}/killed-in-call`, ["./killed-in-call"]),
        write(t.pid(0), "fifo", "create"),
        write(t.pid(1), "fifo", "write"),
        write(t.pid(2), "before-term", "create"),
      ]);
      expect(rootExit, name).toEqual({ code: 0, signal: null });
    }
  });
});

const CC = ["/usr/bin/cc", "/usr/bin/gcc"].find((c) => existsSync(c));
const PYTHON = existsSync("/usr/bin/python3")
  ? "/usr/bin/python3"
  : execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

describe("the installed strace, live: a thread's exec", () => {
  const traced = (command: string[]): ProcessEvent[] => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-live-")));
    try {
      const out = join(dir, "trace.txt");
      const r = spawnSync("strace", [...straceArgs(out, jailArch()), "--", ...command], { cwd: dir, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const events: ProcessEvent[] = [];
      const parser = new StraceParser({ cwd: dir, plumbing: new Set(), emit: (e) => events.push(e) });
      parser.push(readFileSync(out, "utf8"));
      parser.finish();
      return events;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it.skipIf(CC === undefined)("a C program's pthread executes /bin/true after the main thread ended", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-strace-live-cc-")));
    try {
      const bin = join(dir, "leader-exited");
      const cc = spawnSync(CC as string, ["-O1", "-pthread", "-o", bin, join(CORPUS, "leader-exited.c")], { encoding: "utf8" });
      expect(cc.status, cc.stderr).toBe(0);
      const events = traced([bin]);
      const [first, second] = execs(events);
      expect(execs(events)).toHaveLength(2);
      expect(second).toEqual(exec(first?.tgid ?? -1, TRUE, ["true", "after-leader-exit"]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Python's os.execv from a threading.Thread", () => {
    const events = traced([PYTHON, "-B", join(CORPUS, "thread-execv.py")]);
    const [first, second] = execs(events);
    expect(execs(events)).toHaveLength(2);
    expect(first?.kind === "exec" && first.path).toBe(realpathSync(PYTHON));
    expect(second).toEqual(exec(first?.tgid ?? -1, TRUE, ["true", "from-python-thread"]));
  });
});
