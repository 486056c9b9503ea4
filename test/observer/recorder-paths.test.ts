/**
 * The recorders' paths are the paths the kernel used (issue 29, items 3 and 4): long and deep
 * paths inside the workspace are recorded whole (no write_outside_root from a cut path), a flood
 * of long write-opens from four threads is recorded without loss, and a name rewritten by another
 * thread while the call is in the kernel is never logged as the wrong path. Real bundle, real
 * kernel; the effects are checked on the host's filesystem.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, CC, JAIL_AVAILABLE, ROOT, check, compileC, ids, run, sandbox, type RunSettings } from "./harness.js";

const RECORDER = join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64");
const EBPF = process.arch === "x64" && existsSync(RECORDER) && process.geteuid?.() === 0;

type Mode = "ebpf" | "strace" | "nobody";
const MODES: Mode[] = ["ebpf", "strace", "nobody"];
const skipMode = (mode: Mode): boolean =>
  !JAIL_AVAILABLE ||
  (mode === "ebpf" && !EBPF) ||
  (mode === "strace" && process.geteuid?.() !== 0) ||
  (mode === "nobody" && !CAN_RUN_AS_NOBODY);
const settings = (mode: Mode): RunSettings => (mode === "nobody" ? { asNobody: true } : { recorder: mode });

/** Directories `count` deep of names `width` long under `base`, made on the host (writable by nobody too); the deepest. */
function deepDir(base: string, count: number, width: number): string {
  let dir = base;
  for (let i = 0; i < count; i++) {
    dir = join(dir, String(i % 10).repeat(width));
    mkdirSync(dir);
    chmodSync(dir, 0o777);
  }
  return dir;
}

/** Writes every file named on its command line (O_WRONLY|O_CREAT|O_TRUNC), then exits 0; 1 on the first failure. */
const WRITE_FILES = `
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    int fd = open(argv[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1) { perror(argv[i]); return 1; }
    close(fd);
  }
  return 0;
}
`;

/** THREADS threads, each opening for writing a 2 KiB path COUNT times (50 files per thread, in turn). */
const FLOOD = `
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static const char *dir;
static int count;
static void *work(void *arg) {
  long t = (long)arg;
  char path[4096];
  for (int i = 0; i < count; i++) {
    snprintf(path, sizeof(path), "%s/t%ld-%02d", dir, t, i % 50);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { perror(path); exit(1); }
    close(fd);
  }
  return 0;
}
int main(int argc, char **argv) {
  dir = argv[1];
  int threads = atoi(argv[2]);
  count = atoi(argv[3]);
  pthread_t ids[16];
  for (long t = 0; t < threads; t++) pthread_create(&ids[t], 0, work, (void *)t);
  for (long t = 0; t < threads; t++) pthread_join(ids[t], 0);
  puts("flooded");
  return 0;
}
`;

for (const mode of MODES)
  describe.skipIf(skipMode(mode) || CC === undefined)(`long and deep paths inside the workspace (${mode})`, () => {
    it("a write 70 directories deep and one through a ~4000-byte path are recorded whole: PASS; the same outside the roots is judged", async () => {
      const s = sandbox();
      const deep = join(deepDir(s.workspace, 70, 1), "deep.txt");
      const long = join(deepDir(s.workspace, 19, 200), "l".repeat(4000 - s.workspace.length - 19 * 201 - 1));
      expect(long.length).toBeGreaterThan(3900);
      expect(long.length).toBeLessThan(4096);
      const writer = compileC(s, "write-files", WRITE_FILES);
      const r = await run(s, [writer, deep, long], settings(mode));
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(statSync(deep).size).toBe(1);
      expect(statSync(long).size).toBe(1);
      const writes = r.lines.filter((l) => l.kind === "write" && l.source === "process").map((l) => l.path);
      expect(writes).toContain(deep);
      expect(writes).toContain(long);
      const report = await check(s);
      expect(report.error).toBeNull();
      expect(ids(report)).toEqual([]);
      expect(report.verdict).toBe("pass");

      // The twin: the same depth outside every root is refused by the jail and judged at its whole path.
      const outside = join(deepDir(s.outside, 70, 1), "deep.txt");
      const o = await run(s, [writer, outside], settings(mode));
      expect(o.code).not.toBe(0);
      expect(existsSync(outside)).toBe(false);
      const judged = await check(s);
      expect(ids(judged)).toContain(`write_outside_root:${outside}`);
    });
  });

for (const mode of ["ebpf", "strace"] as Mode[])
  describe.skipIf(skipMode(mode) || CC === undefined)(`a flood of long write-opens (${mode})`, () => {
    it("4 threads x 10,000 write-opens of 2 KiB paths: every one recorded, no loss, PASS", async () => {
      const s = sandbox();
      const dir = deepDir(s.workspace, 10, 200);
      const flood = compileC(s, "flood", FLOOD);
      const r = await run(s, [flood, dir, "4", "10000"], settings(mode));
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("flooded");
      expect(r.code).toBe(0);
      expect(readdirSync(dir)).toHaveLength(200);
      const writes = r.lines.filter((l) => l.kind === "write" && l.source === "process" && String(l.path).startsWith(dir));
      // Every distinct file the threads made is recorded at its whole path (the log may fold repeats).
      expect(new Set(writes.map((l) => l.path)).size).toBe(200);
      const report = await check(s);
      expect(report.error).toBeNull();
      expect(report.verdict).toBe("pass");
    }, 600_000);
  });

/**
 * The recorder run by itself (docs/recorder-protocol.md), following `argv`: its lines, hex strings
 * decoded. The program starts blocked behind a gate, as under `run`, so its first call is seen.
 */
async function recordDirectly(argv: string[]): Promise<string[]> {
  const recorder = spawn(RECORDER, [], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  let pending = "";
  const waiters: (() => void)[] = [];
  recorder.stdout.setEncoding("utf8");
  recorder.stdout.on("data", (chunk: string) => {
    const parts = (pending + chunk).split("\n");
    pending = parts.pop() as string;
    for (const l of parts) lines.push(l.replace(/(?:\\x[0-9a-f]{2})+/g, (m) => Buffer.from(m.replace(/\\x/g, ""), "hex").toString()));
    for (const w of waiters.splice(0)) w();
  });
  const until = async (want: string): Promise<void> => {
    while (!lines.includes(want)) await new Promise<void>((r) => waiters.push(r));
  };
  await until("@ready");
  const gate = spawn("/bin/sh", ["-c", 'read -r _ <&3; exec 3<&-; exec "$@"', "sh", ...argv], {
    stdio: ["ignore", "ignore", "inherit", "pipe"],
  });
  recorder.stdin.write(`follow ${String(gate.pid)}\n`);
  await until(`@following ${String(gate.pid)}`);
  (gate.stdio[3] as NodeJS.WritableStream).write("\n");
  await new Promise((r) => gate.on("exit", r));
  recorder.stdin.end();
  await until("@end");
  return lines;
}

/**
 * A write-open of a FIFO blocks in the kernel; meanwhile the main thread rewrites the name's
 * buffer (when argv[2] is "rewrite"), then interrupts the open (EINTR). The open's line is the
 * name the kernel had.
 */
const REWRITE_WHILE_BLOCKED = `
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static char name[4096];
static volatile pid_t tid;
static void on_signal(int sig) { (void)sig; }
static void *opener(void *arg) {
  (void)arg;
  tid = syscall(SYS_gettid);
  int fd = open(name, O_WRONLY);
  printf("open: %d\\n", fd);
  return 0;
}
int main(int argc, char **argv) {
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, 0);
  snprintf(name, sizeof(name), "%s/fifo", argv[1]);
  pthread_t t;
  pthread_create(&t, 0, opener, 0);
  char path[64], text[64];
  for (;;) {
    if (tid == 0) continue;
    snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    int got = fgets(text, sizeof(text), f) != 0;
    fclose(f);
    if (got && strncmp(text, "257 ", 4) == 0) break;
    usleep(1000);
  }
  if (strcmp(argv[2], "rewrite") == 0) snprintf(name, sizeof(name), "%s/other", argv[1]);
  pthread_kill(t, SIGUSR1);
  pthread_join(t, 0);
  return 0;
}
`;

describe.skipIf(!EBPF || CC === undefined)("names the kernel used (the eBPF recorder by itself)", () => {
  it("a name rewritten by another thread while the call is in the kernel: @path-unknown changed-during-call, then the name as the kernel had it", async () => {
    const s = sandbox();
    spawnSync("mkfifo", [join(s.workspace, "fifo")]);
    const bin = compileC(s, "rewrite", REWRITE_WHILE_BLOCKED);
    const lines = await recordDirectly([bin, s.workspace, "rewrite"]);
    const at = lines.findIndex((l) => / openat\(/.test(l) && l.includes(`${s.workspace}/`));
    expect(lines[at]).toContain(`"${s.workspace}/fifo"`);
    // Interrupted: the kernel's exit says ERESTARTSYS (512), the program sees EINTR.
    expect(lines[at]).toMatch(/= -1 (EINTR|E512|ERESTARTSYS)/);
    expect(lines[at - 1]).toMatch(/^\d+ @path-unknown changed-during-call$/);
    expect(lines.some((l) => l.includes(`${s.workspace}/other`))).toBe(false);

    // The twin: nothing rewritten, the same interrupted open, and no @path-unknown.
    const clean = await recordDirectly([bin, s.workspace, "keep"]);
    const line = clean.find((l) => / openat\(/.test(l) && l.includes(`${s.workspace}/`));
    expect(line).toContain(`"${s.workspace}/fifo"`);
    expect(clean.some((l) => l.includes("@path-unknown"))).toBe(false);
  });

  it("/proc/self/fd/N/, /proc/thread-self/fd/N/, /dev/fd/N/ names are fd N's directory walked in the kernel, then the rest", async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, "sub"));
    const script = `cd "$2"; exec 3<"$1/sub"; : > /proc/self/fd/3/A; mv /proc/self/fd/3/A /proc/thread-self/fd/3/B; mkdir /dev/fd/3/C; exec 3<"$2"`;
    const lines = await recordDirectly(["/bin/sh", "-c", script, "sh", s.workspace, s.scratch]);
    const sub = join(s.workspace, "sub");
    expect(lines.some((l) => / openat\(AT_FDCWD, /.test(l) && l.includes(`"${sub}/A"`))).toBe(true);
    expect(lines.some((l) => / rename(at2?)?\(/.test(l) && l.includes(`"${sub}/A"`) && l.includes(`"${sub}/B"`))).toBe(true);
    expect(lines.some((l) => / mkdir(at)?\(/.test(l) && l.includes(`"${sub}/C"`))).toBe(true);
    expect(lines.some((l) => !/ (execve\(|@exec )/.test(l) && (l.includes("/proc/") || l.includes("/dev/fd/")))).toBe(false);
    expect(lines.some((l) => l.includes("@path-unknown"))).toBe(false);
    expect(existsSync(join(sub, "B")) && existsSync(join(sub, "C"))).toBe(true);
  });
  it("/proc/self/cwd/, /proc/thread-self/cwd/ and /proc/<own pid>/cwd/ names are the cwd walked in the kernel at entry; another process's is left as named", async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, "sub"));
    const script = [
      "import os, sys",
      "os.chdir(sys.argv[1] + '/sub')",
      "os.close(os.open('/proc/self/cwd/A', os.O_WRONLY | os.O_CREAT))",
      "os.rename('/proc/self/cwd/A', '/proc/thread-self/cwd/B')",
      "os.mkdir(f'/proc/{os.getpid()}/cwd/C')",
      "os.chmod('/proc/self/cwd', 0o755)",
      "r, w = os.pipe()",
      "child = os.fork()",
      "if child == 0:",
      "    os.chdir(sys.argv[2]); os.close(w); os.read(r, 1); os._exit(0)",
      "os.close(r)",
      "while os.readlink(f'/proc/{child}/cwd') != sys.argv[2]: pass",
      "os.mkdir(f'/proc/{child}/cwd/D')",
      "os.close(w); os.waitpid(child, 0)",
      "os.chdir(sys.argv[2])",
    ].join("\n");
    const lines = await recordDirectly(["/usr/bin/python3", "-c", script, s.workspace, s.scratch]);
    const sub = join(s.workspace, "sub");
    expect(lines.some((l) => / rename(at2?)?\(/.test(l) && l.includes(`"${sub}/A"`) && l.includes(`"${sub}/B"`))).toBe(true);
    expect(lines.some((l) => / mkdir(at)?\(/.test(l) && l.includes(`"${sub}/C"`))).toBe(true);
    expect(lines.some((l) => / chmod\(/.test(l) && l.includes(`"${sub}"`))).toBe(true);
    // Another process's cwd is not the caller's to know in the kernel: the reader refuses it (proc-link).
    expect(lines.some((l) => / mkdir(at)?\(/.test(l) && /"\/proc\/\d+\/cwd\/D"/.test(l))).toBe(true);
    expect(lines.some((l) => !/ (execve\(|@exec )/.test(l) && /\/proc\/(self|thread-self)\/cwd/.test(l))).toBe(false);
    expect(lines.some((l) => l.includes("@path-unknown"))).toBe(false);
    expect(existsSync(join(sub, "B")) && existsSync(join(sub, "C")) && existsSync(join(s.scratch, "D"))).toBe(true);
  });
});

/** Renames sub/A onto dst while a second thread flips dst between "sub/A" and "sub/.git", until sub/.git exists. */
const FLIP_RENAME = `
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static char dst[64] = "sub/A";
static volatile int done;
static void *flip(void *arg) {
  (void)arg;
  while (!done) {
    memcpy(dst, "sub/.git", 9);
    __asm__ volatile("" ::: "memory");
    for (volatile int i = 0; i < 2000; i++) {}
    memcpy(dst, "sub/A\\0\\0\\0", 9);
    __asm__ volatile("" ::: "memory");
    for (volatile int i = 0; i < 2000; i++) {}
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, flip, 0);
  struct stat st;
  for (int i = 0; i < 200000 && stat("sub/.git", &st) != 0; i++) rename("sub/A", dst);
  done = 1;
  pthread_join(t, 0);
  puts(stat("sub/.git", &st) == 0 ? "made sub/.git" : "no sub/.git");
  return 0;
}
`;

describe.skipIf(skipMode("ebpf") || CC === undefined)("a rename's name flipped by another thread (ebpf)", () => {
  it("the kernel made sub/.git: judged write_protected, or the run refused as OBSERVER_PATH_UNKNOWN; never a PASS", async () => {
    const s = sandbox();
    mkdirSync(join(s.workspace, "sub"));
    mkdirSync(join(s.workspace, "sub", "A"));
    const bin = compileC(s, "flip", FLIP_RENAME);
    const r = await run(s, [bin], { recorder: "ebpf" });
    expect(r.stdout).toContain("made sub/.git");
    expect(existsSync(join(s.workspace, "sub", ".git"))).toBe(true);
    if (r.stderr.includes("OBSERVER_PATH_UNKNOWN")) return;
    const report = await check(s);
    expect(report.verdict).not.toBe("pass");
    // A call whose name changed while it ran is @path-unknown in the log: check refuses the log.
    if (report.error?.code === "OBSERVER_PATH_UNKNOWN") return;
    expect(report.error).toBeNull();
    expect(ids(report)).toContain(`write_protected:${join(s.workspace, "sub", ".git")}`);
  });
});
