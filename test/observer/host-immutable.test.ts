/**
 * The host immutable from the jail (issue 29, item 2), judged where the kernel leaves its effects:
 *
 * - the host's device nodes the jail shows keep their mode, owner and times whatever the program
 *   does to them, directly or through `<scratch>/lnk/../full` with `lnk -> /dev/pts`, while
 *   `/dev/null` still takes writes (src/observer/devices.ts);
 * - a unix socket a host process makes after the jail started, in `/var/tmp` or `/run`, receives
 *   no connection and no byte, by its own name or through `<scratch>/lnk/../host.sock`
 *   (src/observer/socket-places.ts); the suite's own sockets in the workspace and the scratch work.
 *
 * In the three modes: root with the eBPF recorder, root with strace, and nobody (strace).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NOBODY_UID } from "../support/nobody.js";
import { SCAN_DEPTH } from "../../src/observer/socket-places.js";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, ROOT, TEST_TMP, check, ids, program, run, sandbox, type RunSettings } from "./harness.js";

const RECORDER = join(ROOT, "dist/recorder/envelope-gate-recorder-x86_64");
const EBPF = process.arch === "x64" && existsSync(RECORDER) && process.geteuid?.() === 0;
const ROOT_USER = process.geteuid?.() === 0;
const PYTHON = "/usr/bin/python3";

interface Mode {
  name: string;
  settings: RunSettings;
  can: boolean;
}
const MODES: Mode[] = [
  { name: "root, eBPF recorder", settings: { recorder: "ebpf" }, can: EBPF },
  { name: "root, strace", settings: { recorder: "strace" }, can: ROOT_USER },
  { name: "nobody (strace)", settings: { asNobody: true }, can: CAN_RUN_AS_NOBODY },
];

const NODES = ["/dev/full", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/tty"];

/**
 * Unprivileged, setting a world-writable node's times to now needs only write access, as for any
 * user on the host (devices.ts): that one is not refused, and its time is not compared.
 */
function facts(st: Stats, asNobody: boolean): Record<string, number> {
  return { mode: st.mode, uid: st.uid, gid: st.gid, ...(asNobody ? {} : { mtime: st.mtimeMs }) };
}

/** Every metadata change a program can ask for, on each node by its name and through `lnk/..`. */
const DEVICE_ATTACK = `
import os, sys
scratch = os.environ["SCRATCH"]
os.symlink("/dev/pts", scratch + "/lnk")
names = ["full", "null", "zero", "random", "urandom", "tty"]
tried = []
def attempt(what, f):
    try:
        f()
        tried.append(what + ":done")
    except OSError as e:
        tried.append(what + ":" + (os.strerror(e.errno) if e.errno else str(e)))
for n in names:
    for p in ["/dev/" + n, scratch + "/lnk/../" + n]:
        attempt("chmod " + p, lambda: os.chmod(p, 0o667))
        attempt("utime-now " + p, lambda: os.utime(p, None))
        attempt("utime " + p, lambda: os.utime(p, (1, 1)))
        attempt("chown " + p, lambda: os.chown(p, 0, 0))
        attempt("setxattr " + p, lambda: os.setxattr(p, "user.eg", b"x"))
        attempt("link " + p, lambda: os.link(p, "/dev/eg-" + n))
        attempt("rename " + p, lambda: os.rename(p, "/dev/eg-" + n))
        attempt("rename over " + p, lambda: os.rename(scratch + "/lnk", p))
with open("/dev/null", "w") as f:
    f.write("still writable")
print("null-written")
print("\\n".join(tried), file=sys.stderr)
`;

describe.skipIf(!JAIL_AVAILABLE || !existsSync(PYTHON))("the host's device nodes: read-only in the jail, as root and unprivileged", () => {
  for (const mode of MODES) {
    it.skipIf(!mode.can)(
      `${mode.name}: chmod, utimes, chown, xattr, link and rename on them (and through <scratch>/lnk/..) change nothing on the host`,
      async () => {
        const before = new Map(NODES.filter(existsSync).map((n) => [n, statSync(n)]));
        const s = sandbox();
        const prog = program(s, "devices.py", DEVICE_ATTACK);
        try {
          const r = await run(s, [PYTHON, prog], mode.settings);
          expect(r.stdout).toContain("null-written");
          expect(r.code).toBe(0);
          const nobody = mode.settings.asNobody === true;
          for (const [node, st] of before) expect(facts(statSync(node), nobody), node).toEqual(facts(st, nobody));
          // Nothing was done in the jail either: every attempt failed in the kernel.
          expect(r.stderr.split("\n").filter((l) => l.endsWith(":done") && !(nobody && l.startsWith("utime-now ")))).toEqual([]);
          // The attempt by the node's own name is judged: it is outside every root.
          const report = await check(s);
          expect(ids(report)).toContain("write_outside_root:/dev/full");
        } finally {
          // Should the host's node ever change, it is put back.
          for (const [node, st] of before) if (statSync(node).mode !== st.mode) chmodSync(node, st.mode & 0o7777);
        }
      },
    );

    it.skipIf(!mode.can)(
      `${mode.name}: the clean twin writes /dev/null and /dev/zero, reads /dev/urandom and /dev/zero: PASS`,
      async () => {
        const s = sandbox();
        const r = await run(
          s,
          [
            "/bin/sh",
            "-c",
            "echo x > /dev/null && echo y >> /dev/zero && head -c 16 /dev/urandom | wc -c && head -c 8 /dev/zero | wc -c && echo ok",
          ],
          mode.settings,
        );
        expect(r.code).toBe(0);
        expect(r.stdout.split("\n")).toEqual(["16", "8", "ok", ""]);
        const report = await check(s);
        expect(ids(report)).toEqual([]);
        expect(report.verdict).toBe("pass");
      },
    );
  }
});

/** A listening socket of the host's that records whatever reaches it. */
async function listener(path: string): Promise<{ server: Server; connections: () => number; bytes: () => number }> {
  let connections = 0;
  let bytes = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on("data", (d: Buffer) => (bytes += d.length));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o777);
  return { server, connections: () => connections, bytes: () => bytes };
}

/** Waits (polling the file system) until `file` exists; the test's own timeout bounds it. */
async function waitFor(file: string, running: () => boolean): Promise<void> {
  while (!existsSync(file)) {
    if (!running()) throw new Error(`the jailed program ended before it made ${file}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Says it runs, waits for the test's go, then tries every target and prints what happened. */
const SOCKET_CLIENT = `
const fs = require("node:fs");
const net = require("node:net");
const [ready, go, ...targets] = process.argv.slice(2);
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
fs.writeFileSync(ready, "x");
while (!fs.existsSync(go)) sleep(50);
const links = targets.map((t, i) => {
  if (!t.startsWith("LINK:")) return t;
  const [dir, name] = t.slice(5).split("|");
  const lnk = process.env.SCRATCH + "/lnk" + i;
  fs.symlinkSync(dir + "/sub", lnk);
  return lnk + "/../" + name;
});
(async () => {
  for (const path of links) {
    const said = await new Promise((resolve) => {
      const c = net.connect(path, () => c.write("LEAK", () => { c.end(); resolve("connected"); }));
      c.on("error", (e) => resolve(e.code));
    });
    console.log(path + " " + said);
  }
})();
`;

const hostDirs: string[] = [];
afterAll(() => {
  for (const d of hostDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!JAIL_AVAILABLE)("a host unix socket made after the jail started is out of reach", () => {
  for (const mode of MODES) {
    it.skipIf(!mode.can)(
      `${mode.name}: in /var/tmp and /run, by its name and through <scratch>/lnk/../host.sock: no byte arrives`,
      async () => {
        const s = sandbox();
        const tag = randomBytes(6).toString("hex");
        const dirs = ["/var/tmp", "/run"].filter(existsSync).map((p) => join(p, `eg-late-sock-${tag}`));
        for (const d of dirs) {
          mkdirSync(join(d, "sub"), { recursive: true });
          chmodSync(d, 0o755);
          hostDirs.push(d);
        }
        const ready = join(s.workspace, "ready");
        const go = join(s.workspace, "go");
        const targets = dirs.flatMap((d) => [join(d, "host.sock"), `LINK:${d}|host.sock`]);
        const prog = program(s, "client.js", SOCKET_CLIENT);
        let running = true;
        const pending = run(s, ["node", prog, ready, go, ...targets], mode.settings).finally(() => (running = false));
        const servers: Awaited<ReturnType<typeof listener>>[] = [];
        try {
          await waitFor(ready, () => running);
          // Made now, after the jail started: the jail's snapshot of the host's sockets cannot know them.
          for (const d of dirs) servers.push(await listener(join(d, "host.sock")));
          writeFileSync(go, "x");
          const r = await pending;
          expect(r.code).toBe(0);
          const said = r.stdout.trim().split("\n");
          expect(said).toHaveLength(targets.length);
          for (const line of said) expect(line).not.toMatch(/ connected$/);
          for (const l of servers) {
            expect(l.connections()).toBe(0);
            expect(l.bytes()).toBe(0);
          }
        } finally {
          for (const l of servers) l.server.close();
          await pending.catch(() => undefined);
        }
      },
    );

    it.skipIf(!mode.can)(`${mode.name}: the clean twin's own unix sockets in the workspace and the scratch still work: PASS`, async () => {
      const s = sandbox();
      const prog = program(
        s,
        "own.js",
        `
const net = require("node:net");
const path = require("node:path");
(async () => {
  for (const dir of [process.cwd(), process.env.SCRATCH]) {
    const sock = path.join(dir, "own.sock");
    const got = await new Promise((resolve, reject) => {
      const srv = net.createServer((c) => c.on("data", (d) => { srv.close(); c.end(); resolve(String(d)); }));
      srv.listen(sock, () => { const c = net.connect(sock, () => c.end("hello")); c.on("error", reject); });
    });
    console.log(got);
  }
})();
`,
      );
      const r = await run(s, ["node", prog], mode.settings);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("hello\nhello\n");
      const report = await check(s);
      expect(ids(report)).toEqual([]);
      expect(report.verdict).toBe("pass");
    });
  }
});

describe.skipIf(!JAIL_AVAILABLE || !ROOT_USER)(
  "another user's closed directory holding a world-writable one (a root wrapper's scan sees into it)",
  () => {
    for (const mode of MODES.filter((m) => m.settings.asNobody !== true)) {
      it.skipIf(!mode.can)(
        `${mode.name}: the run starts; opened and given a socket after the start, the directory is still out of reach: no byte arrives`,
        async () => {
          const s = sandbox();
          // nobody's 0700 directory: bubblewrap, as root in a user namespace where nobody is not
          // mapped, cannot search it; the world-writable directory inside is covered by it instead.
          const closed = mkdtempSync(join(TEST_TMP, "eg-closed-"));
          hostDirs.push(closed);
          const open = join(closed, "open");
          mkdirSync(join(open, "sub"), { recursive: true });
          chmodSync(open, 0o777);
          chownSync(closed, NOBODY_UID, NOBODY_UID);
          chmodSync(closed, 0o700);
          const ready = join(s.workspace, "ready");
          const go = join(s.workspace, "go");
          const targets = [join(open, "host.sock"), `LINK:${open}|host.sock`];
          const prog = program(s, "client.js", SOCKET_CLIENT);
          let running = true;
          const pending = run(s, ["node", prog, ready, go, ...targets], mode.settings).finally(() => (running = false));
          let server: Awaited<ReturnType<typeof listener>> | undefined;
          try {
            await waitFor(ready, () => running);
            chmodSync(closed, 0o755);
            server = await listener(join(open, "host.sock"));
            writeFileSync(go, "x");
            const r = await pending;
            expect(r.stderr).not.toContain("bwrap:");
            expect(r.code).toBe(0);
            const said = r.stdout.trim().split("\n");
            expect(said).toHaveLength(targets.length);
            for (const line of said) expect(line).not.toMatch(/ connected$/);
            expect(server.connections()).toBe(0);
            expect(server.bytes()).toBe(0);
          } finally {
            server?.server.close();
            await pending.catch(() => undefined);
          }
        },
      );
    }
  },
);

/** Whether a directory two levels below TEST_TMP is within the depth the jail scans for world-writable directories. */
const WITHIN_SCAN = TEST_TMP.split("/").filter((p) => p !== "").length + 2 <= SCAN_DEPTH;

describe.skipIf(!JAIL_AVAILABLE || !ROOT_USER || !WITHIN_SCAN)("a world-writable directory inside another user's private directory", () => {
  for (const mode of MODES) {
    it.skipIf(!mode.can)(
      `${mode.name}: does not stop the jail (bubblewrap cannot reach it to hide it, and neither can the command): PASS`,
      async () => {
        // Another user's: nobody's for a root wrapper (whose jail has no capability over nobody's files), root's for nobody's.
        const owner = mode.settings.asNobody === true ? 0 : 65534;
        const blocker = mkdtempSync(join(TEST_TMP, "eg-other-user-"));
        hostDirs.push(blocker);
        const open = join(blocker, "open");
        mkdirSync(open);
        chmodSync(open, 0o777);
        chownSync(open, owner, owner);
        chmodSync(blocker, 0o700);
        chownSync(blocker, owner, owner);
        const s = sandbox();
        const r = await run(s, ["sh", "-c", `cd ${open} 2>/dev/null && echo reached || echo refused`], mode.settings);
        expect(r.stderr).not.toContain("ERROR");
        expect(r.stdout).toBe("refused\n");
        const jail = r.lines[0]?.jail as { socket_dirs_hidden?: string[] } | undefined;
        expect(jail?.socket_dirs_hidden).toBeDefined();
        expect(jail?.socket_dirs_hidden).not.toContain(open);
        const report = await check(s);
        expect(report.error).toBeNull();
        expect(report.verdict).toBe("pass");
      },
    );
  }
});
