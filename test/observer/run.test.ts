import { giveToNobody } from "../support/nobody.js";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, check, ids, program, run, sandbox, spawnNode, type Report, type Sandbox } from "./harness.js";

/**
 * The example agents and the SDK they import, copied beside the sandbox: the checkout may lie
 * where the jail hides it (a clone in `mktemp -d` is under the jail's private /tmp).
 */
function exampleSandbox(): Sandbox & { agents: string } {
  const s = sandbox();
  copyFileSync(join(ROOT, "examples/envelope.json"), s.envelope);
  copyFileSync(join(ROOT, "examples/envelope.json.sha256"), `${s.envelope}.sha256`);
  const product = join(s.base, "product");
  for (const part of ["examples/agent.js", "examples/agent-good.js", "dist/sdk", "dist/package.json"])
    cpSync(join(ROOT, part), join(product, part), { recursive: true });
  writeFileSync(join(product, "examples", "package.json"), JSON.stringify({ type: "module" }));
  return { ...s, agents: join(product, "examples") };
}

describe("envelope-gate run: the bundled example agents", () => {
  it("reports every violation examples/agent.js commits, and nothing else", async () => {
    const s = exampleSandbox();
    const r = await run(s, ["node", join(s.agents, "agent.js")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = await check(s);
    expect(report.verdict).toBe("envelope_fail");
    expect(report.exit).toBe(1);
    expect(ids(report).sort()).toEqual(
      [
        "network_denied:exfil.example.net:443",
        // Its lookup of the name, which the jail's resolver refused and recorded by name.
        "network_denied:exfil.example.net",
        "undeclared_env:AWS_SECRET_ACCESS_KEY",
        "undeclared_tool:bash",
        "write_outside_root:/var/tmp/envelope-gate-example-outside.txt",
      ].sort(),
    );
  });

  it("reports nothing for its well-behaved twin, examples/agent-good.js", async () => {
    const s = exampleSandbox();
    const r = await run(s, ["node", join(s.agents, "agent-good.js")]);
    expect(r.code).toBe(0);
    const report = await check(s);
    expect(report.violations).toEqual([]);
    expect(report.verdict).toBe("pass");
    // It did real work under both observers: tools, writes, a Node child and a shell child.
    expect(r.lines.filter((l) => l.kind === "tool").map((l) => l.name)).toEqual(["read_file", "apply_patch", "run_tests"]);
    expect(r.lines.some((l) => l.kind === "write" && l.path === join(s.scratch, "tests.txt") && !l.canary)).toBe(true);
    expect(r.lines.some((l) => l.kind === "write" && l.path === join(s.scratch, "shell.txt") && l.source === "process")).toBe(true);
  });
});

describe("envelope-gate run: the log", () => {
  it("writes meta first with seq 0, canaries next, end last with the line count and the exit code", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "process.exit(7)"]);
    expect(r.code).toBe(7);
    const [meta, ...rest] = r.lines;
    expect(meta).toMatchObject({
      v: 1,
      kind: "meta",
      seq: 0,
      observers: ["node", "process"],
      network_enforced: true,
      workspace: s.workspace,
      scratch: s.scratch,
      log_path: r.log,
    });
    expect(meta?.jail).toMatchObject({
      namespaces: ["user", "pid", "mount", "ipc", "uts", "net"],
      seccomp: "forbidden calls refused and recorded",
    });
    expect(String(meta?.runner)).toMatch(/#[0-9a-f]{16}$/);
    expect(String(meta?.envelope_hash)).toMatch(/^sha256:[0-9a-f]{64}$/);
    r.lines.forEach((line, i) => expect(line.seq).toBe(i));
    const end = rest[rest.length - 1];
    expect(end).toMatchObject({ kind: "end", events: r.lines.length - 1, exit_code: 7 });
    // The self-check block directly follows meta and covers both observers.
    const firstNonCanary = rest.findIndex((l) => l.canary !== true);
    const canaries = rest.slice(0, firstNonCanary);
    expect(canaries.length).toBeGreaterThan(0);
    expect(rest.slice(firstNonCanary).some((l) => l.canary === true)).toBe(false);
    const covered = new Set(canaries.map((l) => `${l.source}:${l.kind}`));
    // Under full observation the hooks leave writes to the process observer.
    for (const needed of ["node:env", "node:host", "process:write", "process:exec", "process:host"]) {
      expect(covered).toContain(needed);
    }
    const report = await check(s);
    expect(report.verdict).toBe("pass");
    expect(report.log?.exit_code).toBe(7);
  });

  it("gives the child only the allowed keys plus RUN_ID, ENVELOPE_HASH, SCRATCH and the git keys of every run (and no plumbing)", async () => {
    const s = sandbox({ allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "EG_TEST_ALLOWED"] });
    const out = join(s.scratch, "env.json");
    const r = await run(s, ["node", "-e", `require("fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`], {
      env: { EG_TEST_ALLOWED: "yes", EG_TEST_SECRET: "no", AWS_SECRET_ACCESS_KEY: "hunter2" },
    });
    expect(r.code).toBe(0);
    const env = JSON.parse(readFileSync(out, "utf8")) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual([
      "EG_TEST_ALLOWED",
      "ENVELOPE_HASH",
      "GIT_CONFIG_COUNT",
      "GIT_CONFIG_KEY_0",
      "GIT_CONFIG_VALUE_0",
      "GIT_OPTIONAL_LOCKS",
      "PATH",
      "RUN_ID",
      "SCRATCH",
    ]);
    expect(env).toMatchObject({
      GIT_OPTIONAL_LOCKS: "0",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "diff.autoRefreshIndex",
      GIT_CONFIG_VALUE_0: "false",
    });
    expect(env.SCRATCH).toBe(s.scratch);
    expect(env.RUN_ID).toBe(r.lines[0]?.run_id);
    expect(env.ENVELOPE_HASH).toBe(r.lines[0]?.envelope_hash);
    const report = await check(s);
    expect(report.violations).toEqual([]);
  });

  it("ends the jail with the command: a descendant that outlives it is killed before end is written", async () => {
    const s = sandbox();
    const late = join(s.workspace, "late.txt");
    const r = await run(s, ["sh", "-c", `(sleep 1; echo late > ${late}) & exit 0`]);
    expect(r.code).toBe(0);
    expect(r.lines[r.lines.length - 1]?.kind).toBe("end");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(late)).toBe(false);
    expect((await check(s)).verdict).toBe("pass");
  });

  it("children started any way inherit the hooks, and never see the plumbing (promisified exec, --node-only)", async () => {
    const s = sandbox();
    const out = join(s.scratch, "promisified.txt");
    const grandchild = `require("fs").writeFileSync(${JSON.stringify(out)}, String(process.env.NODE_OPTIONS))`;
    const prog = program(
      s,
      "promisified.mjs",
      `import { exec } from "node:child_process";
import { promisify } from "node:util";
const { stdout, stderr } = await promisify(exec)(${JSON.stringify(`node -e '${grandchild}' && echo ok`)});
console.log(JSON.stringify({ stdout, stderr, mine: process.env.NODE_OPTIONS ?? null, has: "NODE_OPTIONS" in process.env }));`,
    );
    const r = await run(s, ["node", prog], { nodeOnly: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ stdout: "ok\n", stderr: "", mine: null, has: false });
    expect(readFileSync(out, "utf8")).toBe("undefined");
    // The grandchild was hooked: its write is on record.
    expect(r.lines.some((l) => l.kind === "write" && l.path === out && l.source === "node")).toBe(true);
  });

  it("under --node-only too, a descendant that outlives the command is killed with the jail", async () => {
    const s = sandbox();
    const late = join(s.workspace, "late-node.txt");
    const script = `(sleep 1; node -e 'require("fs").writeFileSync(${JSON.stringify(late)}, "x")') & exit 0`;
    const r = await run(s, ["sh", "-c", script], { nodeOnly: true });
    expect(r.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(late)).toBe(false);
  });

  it("reports a write seen by both observers once", async () => {
    const s = sandbox();
    const target = join(s.workspace, "once.txt");
    const r = await run(s, ["node", "-e", `require("fs").writeFileSync(${JSON.stringify(target)}, "x")`]);
    expect(r.code).toBe(0);
    const writes = r.lines.filter((l) => l.kind === "write" && l.path === target);
    // Under full observation only the process observer records writes (the hooks are told not to).
    expect(writes).toHaveLength(1);
    expect(writes[0]?.source).toBe("process");
  });

  it("keeps a connect as both observers saw it: the hooks by name, the process observer by address", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", `const s = require("net").connect(9, "127.0.0.1"); s.on("error", () => {});`]);
    expect(r.code).toBe(0);
    const hosts = r.lines.filter((l) => l.kind === "host" && !l.canary);
    // A hook record never takes a process-level one away.
    expect(hosts.map((h) => [h.source, h.host, h.port])).toEqual([
      ["node", "127.0.0.1", 9],
      ["process", "127.0.0.1", 9],
    ]);
  });

  it("resolves symlinks: a write through a link in the workspace lands on its target", async () => {
    const s = sandbox();
    const link = join(s.workspace, "innocent.txt");
    symlinkSync(join(s.outside, "target.txt"), link);
    const r = await run(s, ["node", "-e", `try { require("fs").writeFileSync(${JSON.stringify(link)}, "x") } catch {}`]);
    expect(r.code).toBe(0);
    expect(ids(await check(s))).toEqual([`write_outside_root:${join(s.outside, "target.txt")}`]);
    expect(existsSync(join(s.outside, "target.txt"))).toBe(false);
  });

  it("records the program's own write to the log path, and check judges it", async () => {
    const s = sandbox();
    const logPath = join(s.workspace, "observer.jsonl");
    const r = await run(s, ["node", "-e", `try { require("fs").writeFileSync(${JSON.stringify(logPath)}, "forged") } catch {}`], {
      logName: "workspace/observer.jsonl",
    });
    expect(r.code).toBe(0);
    // The jail covers the log: the write is recorded and judged, and the log is intact.
    expect(ids(await check(s, "workspace/observer.jsonl"))).toEqual([`write_outside_root:${logPath}`]);
    expect(readFileSync(logPath, "utf8").startsWith('{"v":1,"kind":"meta"')).toBe(true);
  });
});

describe("envelope-gate run: the scratch it chooses (no --scratch)", () => {
  /** `run` without --scratch under TMPDIR, then `check` with the roots its meta recorded. */
  async function runDefault(
    s: Sandbox,
    tmpdir: string,
    script: string,
    workspace = s.workspace,
  ): Promise<{ code: number | null; stderr: string; lines: Record<string, unknown>[]; scratch: string; runDir: string; report: Report }> {
    const log = join(s.base, "observer.jsonl");
    const env = { ...process.env, HOME: s.home, TMPDIR: tmpdir };
    const r = await spawnNode(
      [CLI, "run", "--envelope", s.envelope, "--observer", log, "--workspace", workspace, "--", "sh", "-c", script],
      {
        cwd: workspace,
        env,
      },
    );
    const lines = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const meta = lines[0] as { scratch: string; run_id: string };
    const checked = await spawnNode([CLI, "check", "--envelope", s.envelope, "--observer", log, "--format", "json"]);
    return {
      code: r.code,
      stderr: r.stderr,
      lines,
      scratch: meta.scratch,
      runDir: join(meta.scratch, `.envelope-gate-${meta.run_id}`),
      report: JSON.parse(checked.stdout) as Report,
    };
  }
  const writeAt = (lines: Record<string, unknown>[], path: string): Record<string, unknown> | undefined =>
    lines.find((l) => l.kind === "write" && l.path === path && l.canary !== true);
  const WRITES = 'echo a > "$SCRATCH/in-scratch.txt"; echo b > /tmp/in-tmp.txt; true';

  it("under the jail's private /tmp: the self-check passes, the scratch is at its own path, /tmp is the run's own", async () => {
    const s = sandbox();
    const r = await runDefault(s, "/tmp", WRITES);
    expect(r.stderr).not.toContain("OBSERVER_UNAVAILABLE");
    expect(r.code).toBe(0);
    expect(r.scratch.startsWith(`/tmp/envelope-gate-${process.geteuid?.() ?? 0}/`)).toBe(true);
    expect(r.lines.some((l) => l.canary === true && l.kind === "write" && l.errno === undefined)).toBe(true);
    expect(writeAt(r.lines, join(r.scratch, "in-scratch.txt"))?.errno).toBeUndefined();
    expect(writeAt(r.lines, join(r.runDir, "tmp/in-tmp.txt"))?.errno).toBeUndefined();
    expect(r.report.verdict).toBe("pass");
  });

  it("with an envelope that does not list ${SCRATCH}: the self-check passes, a write into the scratch is refused at its own path", async () => {
    const s = sandbox({ allowed_roots: ["${WORKSPACE}"] });
    for (const tmp of ["/tmp", join(s.base, "tmp")]) {
      mkdirSync(tmp, { recursive: true });
      const r = await runDefault(s, tmp, WRITES);
      expect(r.stderr).not.toContain("OBSERVER_UNAVAILABLE");
      expect(r.stderr).toContain("Read-only file system");
      expect(r.code).toBe(0);
      const refused = writeAt(r.lines, join(r.scratch, "in-scratch.txt"));
      expect(refused).toBeDefined();
      expect(writeAt(r.lines, join(r.runDir, "tmp/in-tmp.txt"))?.errno).toBeUndefined();
      expect(r.report.violations.map((v) => v.id)).toContain(`write_outside_root:${join(r.scratch, "in-scratch.txt")}`);
    }
  });

  it("with TMPDIR in the jail's private HOME, and elsewhere", async () => {
    const s = sandbox();
    for (const tmp of [join(s.home, "tmp"), join(s.base, "tmp")]) {
      mkdirSync(tmp, { recursive: true });
      const r = await runDefault(s, tmp, WRITES);
      expect(r.code).toBe(0);
      expect(r.scratch.startsWith(`${tmp}/envelope-gate-${process.geteuid?.() ?? 0}/`)).toBe(true);
      expect(writeAt(r.lines, join(r.scratch, "in-scratch.txt"))?.errno).toBeUndefined();
      expect(writeAt(r.lines, join(r.runDir, "tmp/in-tmp.txt"))?.errno).toBeUndefined();
      expect(r.report.verdict).toBe("pass");
    }
  });

  it("with the workspace itself under /tmp (mktemp -d)", async () => {
    const s = sandbox();
    const workspace = realpathSync(mkdtempSync("/tmp/eg-observer-ws-"));
    try {
      const r = await runDefault(s, "/tmp", `${WRITES}; echo c > ./in-workspace.txt`, workspace);
      expect(r.code).toBe(0);
      expect(writeAt(r.lines, join(workspace, "in-workspace.txt"))?.errno).toBeUndefined();
      expect(writeAt(r.lines, join(r.scratch, "in-scratch.txt"))?.errno).toBeUndefined();
      expect(writeAt(r.lines, join(r.runDir, "tmp/in-tmp.txt"))?.errno).toBeUndefined();
      expect(r.report.verdict).toBe("pass");
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!existsSync("/dev/shm"))("envelope-gate run: a workspace on /dev/shm (the jail's /dev/shm is the run's own)", () => {
  it("runs in it, records writes at their own paths, and a write to /dev/shm itself lands in the run's directory", async () => {
    const s = sandbox();
    const workspace = realpathSync(mkdtempSync("/dev/shm/eg-shm-workspace-"));
    try {
      const r = await run({ ...s, workspace }, ["sh", "-c", "echo x > in-workspace.txt; echo y > /dev/shm/outside-workspace.txt"], {
        cwd: workspace,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(workspace, "in-workspace.txt"), "utf8")).toBe("x\n");
      expect(existsSync("/dev/shm/outside-workspace.txt")).toBe(false);
      const writes = r.lines.filter((l) => l.kind === "write" && l.canary !== true).map((l) => l.path);
      expect(writes).toContain(join(workspace, "in-workspace.txt"));
      expect(writes.some((p) => typeof p === "string" && p.startsWith(s.scratch) && p.endsWith("/shm/outside-workspace.txt"))).toBe(true);
      expect((await check({ ...s, workspace })).verdict).toBe("pass");
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe("envelope-gate run: as an unprivileged user", () => {
  const asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
  const canDropPrivileges =
    process.getuid?.() === 0 &&
    spawnSync(
      "setpriv",
      [...asNobody, "bwrap", "--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", ":"],
      { stdio: "ignore" },
    ).status === 0;
  it.skipIf(!canDropPrivileges)(
    "traces and jails without root, wherever the checkout lives (a user namespace mapping the caller to itself)",
    async () => {
      const s = sandbox();
      // nobody's own TMPDIR (the wrapper's private directory is made there).
      const nobodyTmp = join(s.base, "tmp");
      mkdirSync(nobodyTmp);
      giveToNobody(s.base, s.workspace, s.scratch, s.outside, s.home, nobodyTmp);
      // A copy of the bundle nobody can read: the checkout itself may sit where other users cannot.
      const dist = join(s.base, "dist");
      cpSync(join(ROOT, "dist"), dist, { recursive: true });
      const out = join(s.workspace, "uid.txt");
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
          "sh",
          "-c",
          `id -u > ${out}; echo x > ${s.outside}/escape.txt; true`,
        ],
        { cwd: s.workspace, env: { PATH: process.env.PATH, TMPDIR: nobodyTmp }, exec: "setpriv" },
      );
      expect(r.stderr).toContain("Read-only file system");
      expect(r.code).toBe(0);
      expect(readFileSync(out, "utf8").trim()).toBe("65534");
      expect(existsSync(join(s.outside, "escape.txt"))).toBe(false);
      const report = await check(s);
      expect(report.log?.network_enforced).toBe(true);
      expect(ids(report)).toEqual([`write_outside_root:${s.outside}/escape.txt`]);
    },
  );
});

describe("envelope-gate run: refusals", () => {
  it("a run killed midway leaves a log check refuses as OBSERVER_LOG_INCOMPLETE", async () => {
    const s = sandbox();
    const marker = join(s.scratch, "started");
    let wrapperPid = 0;
    const prog = program(
      s,
      "slow.js",
      `let n = 0; setInterval(() => require("fs").writeFileSync(${JSON.stringify(marker)}, String(++n)), 50); setTimeout(() => {}, 60000);`,
    );
    const running = run(s, ["node", prog], { onStart: (pid) => (wrapperPid = pid) });
    for (let i = 0; i < 300 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(marker)).toBe(true);
    process.kill(wrapperPid, "SIGKILL");
    // The tracer dies with the wrapper and the jail with the tracer: nothing keeps running.
    const r = await running;
    expect(r.signal).toBe("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ticks = readFileSync(marker, "utf8");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readFileSync(marker, "utf8")).toBe(ticks);
    const report = await check(s);
    expect(report.verdict).toBe("error");
    expect(report.error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
    expect(report.exit).toBe(3);
  });

  it("SIGTERM to the wrapper stops the run with OBSERVER_INTERRUPTED and no end line", async () => {
    const s = sandbox();
    const marker = join(s.scratch, "started");
    let wrapperPid = 0;
    const prog = program(s, "slow.js", `require("fs").writeFileSync(${JSON.stringify(marker)}, "1"); setTimeout(() => {}, 60000);`);
    const running = run(s, ["node", prog], { onStart: (pid) => (wrapperPid = pid) });
    for (let i = 0; i < 300 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    process.kill(wrapperPid, "SIGTERM");
    const r = await running;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_INTERRUPTED");
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("under strace, a script whose shebang names Node by its absolute path opens the hooks' channel as Node: no OBSERVER_CHANNEL_TAMPERED", async () => {
    const s = sandbox();
    const script = program(
      s,
      "shebang.js",
      `#!${realpathSync(process.execPath)}\nconsole.log("ran as " + require("path").basename(process.execPath));\n`,
    );
    chmodSync(script, 0o755);
    const r = await run(s, [script], { recorder: "strace" });
    expect(r.stderr).not.toContain("OBSERVER_CHANNEL_TAMPERED");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("ran as node");
    // The exec line names the script; the program the kernel ran (node) is in the log too.
    const execs = r.lines.filter((l) => l.kind === "exec").map((l) => l.path);
    expect(execs).toEqual(expect.arrayContaining([script, realpathSync(process.execPath)]));
  });

  it("strace missing from PATH: OBSERVER_UNAVAILABLE, and the log cannot pass", async () => {
    const s = sandbox();
    writeFileSync(join(s.base, "observer.jsonl"), "stale log from an earlier run\n");
    const r = await run(s, [process.execPath, "-e", "0"], { recorder: "strace", env: { PATH: "/nonexistent-bin" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_UNAVAILABLE");
    expect(r.stderr).toContain("strace not found");
    const report = await check(s);
    expect(report.error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("the strace binary configured to a file that does not exist: OBSERVER_UNAVAILABLE", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { recorder: "strace", env: { ENVELOPE_GATE_STRACE: "/nonexistent/strace" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_UNAVAILABLE");
  });

  it("an observer that starts but reports nothing (not even the jail's end): OBSERVER_TRACER_LOST", async () => {
    const s = sandbox();
    // A "strace" that runs the command untraced: alive, silent.
    const fake = program(s, "fake-strace", `#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`);
    await import("node:fs").then((fs) => fs.chmodSync(fake, 0o755));
    const r = await run(s, ["node", "-e", "0"], { recorder: "strace", env: { ENVELOPE_GATE_STRACE: fake } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_TRACER_LOST");
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("--node-only runs without strace only when asked, and meta says so", async () => {
    const s = sandbox();
    const target = join(s.outside, "node-only.txt");
    const r = await run(s, ["node", "-e", `try { require("fs").writeFileSync(${JSON.stringify(target)}, "x") } catch {}`], {
      nodeOnly: true,
      env: { ENVELOPE_GATE_STRACE: "/nonexistent/strace" },
    });
    expect(r.code).toBe(0);
    expect(r.lines[0]?.observers).toEqual(["node"]);
    expect(r.lines.find((l) => l.kind === "exec" && !l.canary)).toMatchObject({
      path: process.execPath.startsWith("/") ? expect.stringMatching(/\/node$/) : "",
      argv: ["node", "-e", expect.any(String)],
    });
    const report = await check(s);
    // Observation is policy: without the process observer the log does not pass...
    expect(report.error?.code).toBe("OBSERVATION_PARTIAL");
    // ...unless the hash-pinned envelope itself accepts it.
    const accepting = sandbox({ observation: "node" });
    const r2 = await run(
      accepting,
      ["node", "-e", `try { require("fs").writeFileSync(${JSON.stringify(join(accepting.outside, "n.txt"))}, "x") } catch {}`],
      { nodeOnly: true },
    );
    expect(r2.code).toBe(0);
    const accepted = await check(accepting);
    expect(accepted.log?.observers).toEqual(["node"]);
    expect(ids(accepted)).toEqual([`write_outside_root:${join(accepting.outside, "n.txt")}`]);
  });

  it("a record from a program that is not Node on the hooks' channel: OBSERVER_CHANNEL_TAMPERED, no end line", async () => {
    const s = sandbox();
    const script = `eval "set -- $NODE_OPTIONS"; d=$(dirname "$2"); echo '{"kind":"note","pid":1,"address":"1.2.3.4","port":443}' > "$d/events.fifo"; sleep 1`;
    const r = await run(s, ["sh", "-c", script]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_CHANNEL_TAMPERED");
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("a process reading the hooks' channel (stealing other processes' records): OBSERVER_CHANNEL_TAMPERED", async () => {
    const s = sandbox();
    const probe = program(
      s,
      "steal.js",
      `const fs = require("fs"); const path = require("path");
fs.openSync(path.join(path.dirname(process.argv[2]), "events.fifo"), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);`,
    );
    const r2 = await run(s, ["sh", "-c", `eval "set -- $NODE_OPTIONS"; exec node ${probe} "$2"`]);
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain("OBSERVER_CHANNEL_TAMPERED");
  });

  it("garbage from a Node process on the hooks' channel: OBSERVER_CHANNEL_INVALID", async () => {
    const s = sandbox();
    const probe = program(
      s,
      "garbage.js",
      `require("fs").writeFileSync(require("path").join(require("path").dirname(process.argv[2]), "events.fifo"), "not json" + String.fromCharCode(10));`,
    );
    const r = await run(s, ["sh", "-c", `eval "set -- $NODE_OPTIONS"; exec node ${probe} "$2"`]);
    expect(r.stderr).toContain("OBSERVER_CHANNEL_INVALID");
    expect(r.code).toBe(3);
  });

  it("no bubblewrap (or no user namespaces): JAIL_UNAVAILABLE, the command never runs", async () => {
    const s = sandbox();
    const marker = join(s.scratch, "ran");
    const r = await run(s, ["node", "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`], {
      env: { ENVELOPE_GATE_BWRAP: "/nonexistent/bwrap" },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("JAIL_UNAVAILABLE");
    expect(existsSync(marker)).toBe(false);
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("mkfifo missing (the hooks' channel cannot be made): OBSERVER_UNAVAILABLE", async () => {
    const s = sandbox();
    const r = await run(s, [process.execPath, "-e", "0"], {
      env: { PATH: "/nonexistent-bin", ENVELOPE_GATE_STRACE: "/usr/bin/strace", ENVELOPE_GATE_BWRAP: "/usr/bin/bwrap" },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_UNAVAILABLE");
    expect(r.stderr).toContain("mkfifo");
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("the hooks bundle missing beside the CLI: OBSERVER_UNAVAILABLE", async () => {
    const s = sandbox();
    const dist = join(s.base, "dist");
    cpSync(join(ROOT, "dist/cli"), join(dist, "cli"), { recursive: true });
    copyFileSync(join(ROOT, "dist/package.json"), join(dist, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(s.base, "node_modules")); // the CLI's externals
    const r = await spawnNode(
      [
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
        "node",
        "-e",
        "0",
      ],
      { cwd: s.workspace },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_UNAVAILABLE");
    expect(r.stderr).toContain("hooks bundle");
  });

  it("the egress relay missing beside the CLI under allowlist: OBSERVER_UNAVAILABLE", async () => {
    const s = sandbox({ network: "allowlist", allowed_hosts: ["example.com"] });
    const dist = join(s.base, "dist");
    for (const part of ["cli", "preload"]) cpSync(join(ROOT, "dist", part), join(dist, part), { recursive: true });
    copyFileSync(join(ROOT, "dist/package.json"), join(dist, "package.json"));
    const r = await spawnNode(
      [
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
        "node",
        "-e",
        "0",
      ],
      { cwd: s.workspace },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_UNAVAILABLE");
    expect(r.stderr).toContain("egress relay");
  });

  it("a log path that cannot be written: OBSERVER_LOG_UNWRITABLE", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { logName: "no-such-dir/observer.jsonl" });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("OBSERVER_LOG_UNWRITABLE");
  });

  it("a command that does not exist: COMMAND_NOT_FOUND", async () => {
    const s = sandbox();
    const r = await run(s, ["envelope-gate-no-such-command"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("COMMAND_NOT_FOUND");
  });

  it("no machine id: RUNNER_IDENTITY_UNAVAILABLE", async () => {
    const s = sandbox();
    const r = await run(s, ["node", "-e", "0"], { env: { ENVELOPE_GATE_MACHINE_ID_FILE: "/nonexistent/machine-id" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("RUNNER_IDENTITY_UNAVAILABLE");
  });

  it("a tampered envelope is refused before anything runs", async () => {
    const s = sandbox();
    writeFileSync(s.envelope, readFileSync(s.envelope, "utf8").replace('"deny"', '"allowlist"'));
    const marker = join(s.scratch, "ran");
    const r = await run(s, ["node", "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("ENVELOPE_HASH_MISMATCH");
    expect(existsSync(marker)).toBe(false);
  });
});
