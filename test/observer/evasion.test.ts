/**
 * The evasion suite: small programs that each try to slip past the observer. Every one must be
 * caught (its violation appears in `check --format json`), and the well-behaved program must
 * produce no violation at all.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, check, ids, privateHost, program, run, sandbox, type Sandbox } from "./harness.js";

let server: Server;
let port = 0;
let upstream: HttpServer;
const upstreamPort = (): number => (upstream.address() as { port: number }).port;

beforeAll(async () => {
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as { port: number }).port;
  upstream = createHttpServer((_req, res) => res.end("upstream"));
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

// The system's python (a toolchain under HOME is hidden by the jail unless it runs the command).
const PYTHON = existsSync("/usr/bin/python3")
  ? "/usr/bin/python3"
  : execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/** Each attempt on its own: under the jail an attempt outside the roots fails, and the program goes on. */
const TRY = `const t = (f) => { try { const r = f(); if (r && typeof r.catch === "function") r.catch(() => {}); } catch {} };\n`;

interface NodeCase {
  name: string;
  file?: string;
  /** Program source; OUT is the outside dir, PORT the local server's port. */
  source: (out: string, port: number) => string;
  expected: (out: string, port: number) => string[];
  /** Another acceptable result (a refused attempt whose symlink was gone before it was resolved). */
  orElse?: (out: string, ws: string) => string[];
  /**
   * Under full observation, where it differs: the process observer reads the kernel's answer, and a
   * write under a directory that is not there (ENOENT) changed nothing and is not judged.
   */
  expectedFull?: (out: string, port: number) => string[];
}

const q = JSON.stringify;
/**
 * An address off the machine (TEST-NET-1, RFC 5737). Inside the jail's network namespace there is
 * no route to it: the attempt fails at once and nothing is sent. Loopback would be the jail's own.
 */
const OFF_MACHINE = "192.0.2.1";

const NODE_CASES: NodeCase[] = [
  {
    name: "fs.promises",
    source: (out) => `require("fs").promises.writeFile(${q(out + "/promises.txt")}, "x").catch(() => {});`,
    expected: (out) => [`write_outside_root:${out}/promises.txt`],
  },
  {
    name: "fs/promises through an ESM named import",
    file: "esm.mjs",
    source: (out) =>
      `import { appendFile, mkdir } from "node:fs/promises";\nawait mkdir(${q(out + "/esm-dir")}).catch(() => {});\nawait appendFile(${q(out + "/esm-dir/a.txt")}, "x").catch(() => {});`,
    expected: (out) => [`write_outside_root:${out}/esm-dir`, `write_outside_root:${out}/esm-dir/a.txt`],
    // The refused mkdir is judged; the append under the directory it did not make fails with ENOENT.
    expectedFull: (out) => [`write_outside_root:${out}/esm-dir`],
  },
  {
    name: "a write stream",
    source: (out) => `require("fs").createWriteStream(${q(out + "/stream.txt")}).on("error", () => {}).end("x");`,
    expected: (out) => [`write_outside_root:${out}/stream.txt`],
  },
  {
    name: "a worker thread writing",
    source: (out) =>
      `const { Worker } = require("worker_threads");\nnew Worker(${q(`try { require("fs").writeFileSync(${q(out + "/worker.txt")}, "x") } catch {}`)}, { eval: true });`,
    expected: (out) => [`write_outside_root:${out}/worker.txt`],
  },
  {
    name: "rename, copyFile, cp, symlink, link, chmod, truncate, rm out of bounds",
    source: (out) => `${TRY}const fs = require("fs");
fs.writeFileSync("a.txt", "a");
t(() => fs.copyFileSync("a.txt", ${q(out + "/copy.txt")}));
t(() => fs.cpSync("a.txt", ${q(out + "/cp.txt")}));
t(() => fs.symlinkSync("/etc/hostname", ${q(out + "/sym")}));
t(() => fs.linkSync("a.txt", ${q(out + "/hard")}));
t(() => fs.chmodSync(${q(out + "/copy.txt")}, 0o600));
t(() => fs.truncateSync(${q(out + "/cp.txt")}, 0));
t(() => fs.renameSync("a.txt", ${q(out + "/moved.txt")}));
t(() => fs.rmSync(${q(out + "/hard")}));`,
    expected: (out) => ["copy.txt", "cp.txt", "sym", "hard", "moved.txt"].map((f) => `write_outside_root:${out}/${f}`),
  },
  {
    name: "writing through a fresh symlink and removing the link at once",
    source: (out) =>
      `${TRY}const fs = require("fs");\nfs.symlinkSync(${q(out + "/through.txt")}, "link.txt");\nt(() => fs.writeFileSync("link.txt", "x"));\nfs.unlinkSync("link.txt");`,
    expected: (out) => [`write_outside_root:${out}/through.txt`],
    // The process observer resolves a refused open after the fact; if the link is already gone,
    // the kernel's EROFS still makes the attempt a violation, under the link's own name.
    orElse: (_out, ws) => [`write_outside_root:${ws}/link.txt`],
  },
  {
    name: "a directory swapped for a symlink to outside between two writes into it",
    source: (out) =>
      `${TRY}const fs = require("fs");\nfs.mkdirSync("swap");\nfs.writeFileSync("swap/a.txt", "x");\nfs.renameSync("swap", "swap-old");\nfs.symlinkSync(${q(out)}, "swap");\nt(() => fs.writeFileSync("swap/b.txt", "x"));\nt(() => fs.mkdirSync("swap/sub"));`,
    expected: (out) => [`write_outside_root:${out}/b.txt`, `write_outside_root:${out}/sub`],
  },
  {
    name: "a file written twice, then replaced by a symlink to outside and written again",
    source: (out) =>
      [
        `${TRY}const fs = require("fs");`,
        `for (const [name, target] of [["rewritten.txt", "/etc/hostname"], ["again.txt", ${q(out + "/dangling.txt")}]]) {`,
        `  fs.writeFileSync(name, "x");`,
        `  fs.appendFileSync(name, "y");`,
        `  fs.unlinkSync(name);`,
        `  fs.symlinkSync(target, name);`,
        `  t(() => fs.appendFileSync(name, "z"));`,
        `}`,
      ].join("\n"),
    expected: (out) => [`write_outside_root:/etc/hostname`, `write_outside_root:${out}/dangling.txt`],
  },
  {
    name: "reading an environment key that is absent (get, has, delete)",
    source: () => `void process.env.EG_ABSENT_KEY;\nvoid ("EG_PROBED_KEY" in process.env);\ndelete process.env.EG_DELETED_KEY;`,
    expected: () => ["undeclared_env:EG_ABSENT_KEY", "undeclared_env:EG_PROBED_KEY", "undeclared_env:EG_DELETED_KEY"],
  },
  {
    name: "reading the environment through util.inspect (console.log formats a Proxy's target)",
    source: () => `process.env.EG_INSPECTED_KEY = "x";\nrequire("util").inspect(process.env);`,
    expected: () => ["undeclared_env:EG_INSPECTED_KEY"],
  },
  {
    name: "reading through a process.env the program replaced",
    source: () => `process.env = { ...process.env };\nvoid process.env.EG_AFTER_REASSIGN;`,
    expected: () => ["undeclared_env:EG_AFTER_REASSIGN"],
  },
  {
    name: "net.Socket straight to an IP",
    source: (_out, p) => `const s = new (require("net").Socket)();\ns.on("error", () => {});\ns.connect(${p}, ${q(OFF_MACHINE)});`,
    expected: (_out, p) => [`network_denied:${OFF_MACHINE}:${p}`],
  },
  {
    name: "dgram",
    source: (_out, p) =>
      `const s = require("dgram").createSocket("udp4");\ns.on("error", () => {});\ns.send("x", ${p}, ${q(OFF_MACHINE)}, () => s.close());`,
    expected: (_out, p) => [`network_denied:${OFF_MACHINE}:${p}`],
  },
  {
    name: "dns.resolve",
    source: () => `require("dns").resolve("evasion.example", () => {});\nsetTimeout(() => process.exit(0), 300);`,
    expected: () => ["network_denied:evasion.example"],
  },
  {
    name: "fetch",
    source: (_out, p) => `fetch("http://${OFF_MACHINE}:${p}/").catch(() => {});`,
    expected: (_out, p) => [`network_denied:${OFF_MACHINE}:${p}`],
  },
  {
    name: "http2",
    source: (_out, p) => `const c = require("http2").connect("http://${OFF_MACHINE}:${p}");\nc.on("error", () => {});`,
    expected: (_out, p) => [`network_denied:${OFF_MACHINE}:${p}`],
  },
  {
    name: "https by name",
    source: () => `require("https").get("https://exfil.example.net/x").on("error", () => {});`,
    // The connection by name, and the lookup before it (the jail's resolver refused it and recorded it by name).
    expected: () => ["network_denied:exfil.example.net:443", "network_denied:exfil.example.net"],
  },
  {
    name: "a python child writing outside",
    source: (out) =>
      `require("child_process").spawnSync(${q(PYTHON)}, ["-c", ${q(`try:\n  open(${q(out + "/py.txt")}, "w").write("x")\nexcept OSError:\n  pass`)}], { stdio: "inherit" });`,
    expected: (out) => [`write_outside_root:${out}/py.txt`],
  },
];

interface CommandCase {
  name: string;
  command: (s: Sandbox) => string[];
  setup?: (s: Sandbox) => void;
  expected: (s: Sandbox) => string[];
  envelope?: Record<string, unknown>;
}

const COMMAND_CASES: CommandCase[] = [
  {
    name: "sh -c 'echo x > /outside/f'",
    command: (s) => ["sh", "-c", `echo x > ${s.outside}/f; true`],
    expected: (s) => [`write_outside_root:${s.outside}/f`],
  },
  {
    name: "cp and mv into an outside dir",
    command: (s) => ["sh", "-c", `echo a > a.txt; echo b > b.txt; cp a.txt ${s.outside}/cp.txt; mv b.txt ${s.outside}/mv.txt; true`],
    expected: (s) => [`write_outside_root:${s.outside}/cp.txt`, `write_outside_root:${s.outside}/mv.txt`],
  },
  {
    name: "short relative names after cd (mkdir, chmod, unlink)",
    command: (s) => ["sh", "-c", `cd ${s.outside} && { mkdir x; echo > y; chmod 600 y; ln -s y z; rm z; true; }`],
    expected: (s) => ["x", "y", "z"].map((f) => `write_outside_root:${s.outside}/${f}`),
  },
  {
    name: "a command the envelope does not list (allowed_commands), started by a shell",
    // Judged on the real executable: /bin/sh is often a symlink (to dash), and that is what ran.
    envelope: {
      allowed_commands: [basename(realpathSync(execFileSync("sh", ["-c", "command -v sh"], { encoding: "utf8" }).trim())), "node"],
    },
    command: () => ["sh", "-c", "cat /dev/null"],
    expected: () => [`undeclared_command:${realpathSync(execFileSync("sh", ["-c", "command -v cat"], { encoding: "utf8" }).trim())}`],
  },
  {
    name: "a program started under a name the envelope allows (a symlink called git to another binary)",
    envelope: {
      allowed_commands: [
        "git",
        ...["sh", "ln"].map((c) => basename(realpathSync(execFileSync("sh", ["-c", `command -v ${c}`], { encoding: "utf8" }).trim()))),
      ],
    },
    command: () => ["sh", "-c", "ln -s /usr/bin/id git && ./git > /dev/null"],
    expected: () => ["undeclared_command:/usr/bin/id"],
  },
  {
    name: "git config --file outside the roots",
    envelope: { allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] },
    command: (s) => ["sh", "-c", `git config --file ${s.outside}/gitconfig user.name evasion; true`],
    expected: (s) => [`write_outside_root:${s.outside}/gitconfig.lock`],
  },
  {
    name: "a symlink inside the workspace that points outside, written through by a shell",
    setup: (s) => symlinkSync(join(s.outside, "target.txt"), join(s.workspace, "notes.txt")),
    command: () => ["sh", "-c", "echo x > notes.txt; true"],
    expected: (s) => [`write_outside_root:${s.outside}/target.txt`],
  },
  {
    name: "a Node program that goes around its own hooks (process.binding)",
    command: (s) => [
      "node",
      "--no-deprecation",
      "-e",
      `try { process.binding("fs").writeFileUtf8(${q(s.outside + "/binding.txt")}, "x", 577, 0o644) } catch {}`,
    ],
    expected: (s) => [`write_outside_root:${s.outside}/binding.txt`],
  },
];

describe("evasion suite: every attempt is caught", () => {
  for (const mode of ["full", "node-only"] as const) {
    for (const c of NODE_CASES) {
      if (mode === "node-only" && c.name.includes("python")) continue;
      it(`${c.name} (${mode})`, async () => {
        // A Node-only log passes check only under an envelope that accepts Node-only observation.
        const s = sandbox(mode === "node-only" ? { observation: "node" } : {});
        const file = program(s, c.file ?? "evasion.js", c.source(s.outside, port));
        const r = await run(s, ["node", file], { nodeOnly: mode === "node-only" });
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.code).toBe(0);
        const report = await check(s);
        expect(report.verdict).toBe("envelope_fail");
        // Exactly these: nothing missed (a lookup is the jail's resolver's record, by name; the machine's resolver is never reached).
        const found = ids(report).sort();
        const alternative = c.orElse?.(s.outside, s.workspace).sort();
        const matchesAlternative = alternative !== undefined && JSON.stringify(found) === JSON.stringify(alternative);
        const expected = (mode === "full" ? (c.expectedFull ?? c.expected) : c.expected)(s.outside, port).sort();
        expect(found).toEqual(matchesAlternative ? alternative : expected);
        // And none of it happened: outside the roots the jail is read-only.
        expect(readdirSync(s.outside)).toEqual([]);
      });
    }
  }
  for (const c of COMMAND_CASES) {
    it(c.name, async () => {
      const s = sandbox(c.envelope);
      c.setup?.(s);
      const r = await run(s, c.command(s));
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.code).toBe(0);
      const report = await check(s);
      expect(report.verdict).toBe("envelope_fail");
      expect(ids(report).sort()).toEqual(c.expected(s).sort());
      expect(readdirSync(s.outside)).toEqual([]);
    });
  }

  it("git config --global writes the run's own HOME (in the scratch), never the real one", async () => {
    const s = sandbox({ allowed_env: ["PATH", "HOME"] });
    const r = await run(s, ["git", "config", "--global", "user.name", "evasion"]);
    expect(r.code, r.stderr).toBe(0);
    expect((await check(s)).verdict).toBe("pass");
    expect(r.lines.some((l) => l.kind === "write" && l.path === join(privateHost(r, s.home), ".gitconfig"))).toBe(true);
    expect(existsSync(join(s.home, ".gitconfig"))).toBe(false);
  });

  it("allowlist is enforced: only the proxy leads out, allowed hosts pass by name, others are refused and judged", async () => {
    const s = sandbox({
      network: "allowlist",
      allowed_hosts: ["127.0.0.1"],
      allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HTTP_PROXY"],
    });
    const out = join(s.workspace, "outcome.json");
    // Through the proxy (as proxy-aware clients do) to the allowed host and to another; and straight out.
    const file = program(
      s,
      "egress.js",
      `const http = require("http"); const net = require("net"); const fs = require("fs");
const proxy = new URL(process.env.HTTP_PROXY);
const via = (target) => new Promise((resolve) => {
  http.get({ host: proxy.hostname, port: proxy.port, path: target }, (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => resolve(res.statusCode + ":" + b)); }).on("error", (e) => resolve(e.code));
});
const direct = () => new Promise((resolve) => { const c = net.connect(${port}, "127.0.0.1"); c.on("connect", () => { c.destroy(); resolve("connected"); }); c.on("error", (e) => resolve(e.code)); });
(async () => fs.writeFileSync(${q(out)}, JSON.stringify({ allowed: await via("http://127.0.0.1:${upstreamPort()}/x"), other: await via("http://198.51.100.7/x"), direct: await direct() })))();`,
    );
    const r = await run(s, ["node", file]);
    expect(r.code).toBe(0);
    expect(r.lines[0]?.network_enforced).toBe(true);
    const outcome = JSON.parse(readFileSync(out, "utf8")) as Record<string, string>;
    expect(outcome.allowed).toBe("200:upstream");
    expect(outcome.other).toMatch(/^403:/);
    expect(outcome.direct).not.toBe("connected");
    const report = await check(s);
    expect(ids(report)).toEqual(["undeclared_host:198.51.100.7:80"]);
  });

  it.skipIf(!JAIL_AVAILABLE)("the jail really blocks: a connect to a listening local server fails under network: deny", async () => {
    const s = sandbox();
    const out = join(s.scratch, "outcome.txt");
    const file = program(
      s,
      "net.js",
      `const fs = require("fs"); const s = require("net").connect(${port}, "127.0.0.1");
s.on("connect", () => { fs.writeFileSync(${q(out)}, "connected"); s.end(); });
s.on("error", (e) => fs.writeFileSync(${q(out)}, e.code));`,
    );
    const r = await run(s, ["node", file]);
    expect(r.code).toBe(0);
    expect(r.lines[0]?.network_enforced).toBe(true);
    expect(await import("node:fs").then((fs) => fs.readFileSync(out, "utf8"))).not.toBe("connected");
  });
});

describe("evasion suite: the well-behaved program", () => {
  it("touches fs, env, children, workers and streams inside its envelope and produces no violation", async () => {
    const s = sandbox({ allowed_tools: ["read_file", "apply_patch", "run_tests"] });
    mkdirSync(join(s.workspace, "src"), { recursive: true });
    writeFileSync(join(s.workspace, "src", "mod.js"), "module.exports = 1;\n");
    const child = program(s, "child.js", `require("fs").appendFileSync(require("path").join(process.env.SCRATCH, "child.txt"), "c");`);
    const file = program(
      s,
      "good.mjs",
      `import fs from "node:fs";
import fsp from "node:fs/promises";
import { execFileSync, spawnSync, fork } from "node:child_process";
import { Worker } from "node:worker_threads";
import { basename, join } from "node:path";
const scratch = process.env.SCRATCH;
const ws = process.cwd();
const tool = globalThis[Symbol.for("envelope-gate.recordTool")];
tool("read_file");
fs.readFileSync(join(ws, "src/mod.js"), "utf8");
tool("apply_patch");
fs.writeFileSync(join(ws, "src/mod.js"), "module.exports = 2;\\n");
fs.mkdirSync(join(ws, "build/deep"), { recursive: true });
fs.copyFileSync(join(ws, "src/mod.js"), join(ws, "build/mod.js"));
fs.cpSync(join(ws, "src"), join(ws, "build/src-copy"), { recursive: true });
fs.renameSync(join(ws, "build/mod.js"), join(ws, "build/deep/mod.js"));
fs.symlinkSync(join(ws, "src/mod.js"), join(ws, "build/link.js"));
fs.chmodSync(join(ws, "build/deep/mod.js"), 0o644);
await fsp.writeFile(join(scratch, "notes.txt"), "n");
await fsp.appendFile(join(scratch, "notes.txt"), "m");
const tmp = fs.mkdtempSync(join(scratch, "tmp-"));
await new Promise((r) => fs.createWriteStream(join(tmp, "stream.txt")).end("s", r));
fs.rmSync(tmp, { recursive: true });
const keys = { ...process.env };
JSON.stringify(process.env);
void Object.keys(process.env);
void process.env.PATH;
void ("RUN_ID" in process.env);
tool("run_tests");
execFileSync(process.execPath, [${q(child)}]);
spawnSync("sh", ["-c", "echo ok > \\"$SCRATCH/sh.txt\\" && ls > /dev/null"]);
await new Promise((r) => fork(${q(child)}).on("exit", r));
await new Promise((r) => new Worker("require('fs').writeFileSync(require('path').join(process.env.SCRATCH, 'w.txt'), 'w')", { eval: true }).on("exit", r));
console.log("done", Object.keys(keys).length > 0);
console.error("stderr is fine too");
`,
    );
    const r = await run(s, ["node", file]);
    expect(r.stderr).toBe("stderr is fine too\n");
    expect(r.code).toBe(0);
    const report = await check(s);
    expect(report.violations).toEqual([]);
    expect(report.verdict).toBe("pass");
    const real = r.lines.filter((l) => !l.canary);
    expect(real.filter((l) => l.kind === "write").length).toBeGreaterThan(10);
    expect(real.filter((l) => l.kind === "exec").length).toBeGreaterThanOrEqual(4);
  });

  it.each([
    { who: "root", asNobody: false },
    { who: "an unprivileged user", asNobody: true },
  ])(
    "many short-lived worker threads write through their process's channel descriptor, as $who: every write recorded, nothing refused",
    async ({ asNobody }) => {
      if (asNobody && !CAN_RUN_AS_NOBODY) return;
      const s = sandbox();
      const file = program(
        s,
        "workers.mjs",
        `import { Worker } from "node:worker_threads";
// Each worker writes how many of its process's descriptors lead to the channel: one, the process's own.
const body = "const fs = require('fs'); const { workerData } = require('worker_threads'); const n = fs.readdirSync('/proc/self/fd').filter((d) => { try { return fs.readlinkSync('/proc/self/fd/' + d).endsWith('events.fifo'); } catch { return false; } }).length; fs.writeFileSync(require('path').join(process.env.SCRATCH, 'w-' + workerData + '.txt'), String(n))";
await Promise.all(Array.from({ length: 24 }, (_, i) => new Promise((r, j) => new Worker(body, { eval: true, workerData: i }).on("exit", r).on("error", j))));
`,
      );
      const r = await run(s, ["node", file], { asNobody });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const written = new Set(
        r.lines
          .filter((l) => !l.canary && l.kind === "write" && typeof l.path === "string" && /\/w-\d+\.txt$/.test(l.path as string))
          .map((l) => basename(l.path as string)),
      );
      expect(written.size).toBe(24);
      for (const name of written) expect(readFileSync(join(s.scratch, name), "utf8"), name).toBe("1");
      expect((await check(s)).verdict).toBe("pass");
    },
  );

  it("a plain shell pipeline inside the workspace produces no violation", async () => {
    const s = sandbox();
    chmodSync(s.workspace, 0o755);
    const r = await run(s, [
      "sh",
      "-c",
      'mkdir -p out && echo hi | tr a-z A-Z > out/x.txt && cat out/x.txt > /dev/null && rm -r out && echo "$SCRATCH" > /dev/null',
    ]);
    expect(r.code).toBe(0);
    const report = await check(s);
    expect(report.violations).toEqual([]);
  });
});
