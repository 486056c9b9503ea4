import { spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CRASH_LOOP_EXIT } from "../../src/app/crash-loop.js";
import { APP_SETTINGS } from "../../src/app/settings.js";
import { crashResets } from "../../src/store/crashes.js";
import { openStore } from "../../src/store/index.js";
import { APP_ID, appKeys, SECRET, tempDir } from "../app/helpers.js";
import { startListening, type AppProcess } from "../app/process.js";
import { REPO_ROOT } from "../support/fixtures.js";
import { spawnProcess } from "../support/spawn.js";
import {
  dockerEnv,
  environmentFile,
  execForm,
  healthcheck,
  parseDockerfile,
  parseUnit,
  specifiers,
  stageValues,
  unitEnvironment,
  unitValues,
  words,
} from "./parse.js";
import { chownR, sandboxAvailable, sandboxed, sandboxedPid, uidOf, type SandboxSpec } from "./sandbox.js";

const ROOT = REPO_ROOT;
const DEPLOY = join(ROOT, "deploy");
const UNIT_TEXT = readFileSync(join(DEPLOY, "envelope-gate.service"), "utf8");
const UNIT = parseUnit(UNIT_TEXT);
const STAGES = parseDockerfile(readFileSync(join(DEPLOY, "Dockerfile"), "utf8"));
const COMPOSE = readFileSync(join(DEPLOY, "compose.yaml"), "utf8");
const NO_SANDBOX = sandboxAvailable();
/** A uid in systemd's DynamicUser= range (61184–65519). */
const DYNAMIC_UID = 61234;

const one = (values: string[], what: string): string => {
  expect(values, what).toHaveLength(1);
  return values[0] as string;
};

/**
 * The installed App, as the image's runtime stage and the unit's install step lay it out:
 * dist/, package.json and the production node_modules (what `npm prune --omit=dev` leaves, from
 * the lockfile), bound read-only under `dir` instead of copied.
 */
function installedApp(dir: string): SandboxSpec["mounts"] {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const mounts = [
    { src: join(ROOT, "dist"), dest: `${dir}/dist`, writable: false },
    { src: join(ROOT, "package.json"), dest: `${dir}/package.json`, writable: false },
  ];
  for (const [path, meta] of Object.entries(lock.packages)) {
    // Top-level packages only: a package's own node_modules comes with it.
    if (path === "" || meta.dev || meta.link || path.split("node_modules/").length !== 2) continue;
    if (existsSync(join(ROOT, path))) mounts.push({ src: join(ROOT, path), dest: `${dir}/${path}`, writable: false });
  }
  return mounts;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once("close", (code) => done(code)));
}

/** Signals the App itself (bubblewrap does not forward signals), as systemd and Docker signal the main process. */
async function signalApp(app: AppProcess, signal: NodeJS.Signals): Promise<number | null> {
  process.kill(sandboxedPid(app.child.pid as number), signal);
  return exited(app.child);
}

async function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // SIGTERM at the deadline, as execFile's timeout sent it.
  const { code, stdout, stderr } = await spawnProcess(argv, { env, timeoutMs, killSignal: "SIGTERM" });
  return { code, stdout, stderr };
}

async function healthz(url: string): Promise<number> {
  return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) })).status;
}

// ---- the systemd unit --------------------------------------------------------------------

/** The unit as systemd would run it on this host, in temp dirs: its command line, environment and sandbox. */
function unitService() {
  const service = (key: string) => unitValues(UNIT, "Service", key);
  const credentials = "/run/credentials/envelope-gate.service";
  const spec = { H: hostname(), S: "/var/lib", d: credentials, t: "/run" };
  const exec = words(specifiers(one(service("ExecStart"), "ExecStart"), spec));
  // The unit names Debian's node; elsewhere the test's own node stands in for it.
  if (exec[0] === "/usr/bin/node" && !existsSync("/usr/bin/node")) exec[0] = process.execPath;
  const stateDir = join(tempDir("eg-unit-state-"), "envelope-gate");
  mkdirSync(stateDir, { mode: 0o700 });
  chownR(stateDir, DYNAMIC_UID, DYNAMIC_UID);
  // LoadCredential=NAME:/etc/…: systemd copies each file into the credentials dir, owned by the service.
  const creds = tempDir("eg-unit-creds-");
  const credentialContent: Record<string, string> = { "private-key.pem": appKeys().privateKeyPem, "webhook-secret": `${SECRET}\n` };
  for (const line of service("LoadCredential")) {
    const [name] = line.split(":") as [string];
    const content = credentialContent[name];
    if (content === undefined) throw new Error(`the unit loads a credential this test does not know: ${name}`);
    writeFileSync(join(creds, name), content, { mode: 0o400 });
  }
  chmodSync(creds, 0o500);
  chownR(creds, DYNAMIC_UID, DYNAMIC_UID);
  // The operator's EnvironmentFile= (written from the shipped example, with this test's values).
  const envFile = readFileSync(join(DEPLOY, "envelope-gate.env.example"), "utf8")
    .replace(/^ENVELOPE_GATE_APP_ID=.*$/m, `ENVELOPE_GATE_APP_ID=${APP_ID}`)
    .concat("ENVELOPE_GATE_PORT=0\n");
  const env: NodeJS.ProcessEnv = {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
    ...unitEnvironment(service("Environment").map((l) => specifiers(l, spec))),
    // EnvironmentFile= is read after Environment= and overrides it.
    ...environmentFile(envFile),
    STATE_DIRECTORY: "/var/lib/envelope-gate",
    CREDENTIALS_DIRECTORY: credentials,
  };
  const cwd = one(service("WorkingDirectory"), "WorkingDirectory");
  const sandbox: SandboxSpec = {
    uid: DYNAMIC_UID,
    gid: DYNAMIC_UID,
    cwd,
    // ProtectSystem=strict: everything read-only; ProtectHome=yes; the install, state and credentials dirs.
    hide: ["/opt", "/var/lib", "/run", "/home", "/root"],
    // PrivateTmp=yes
    tmpfs: ["/tmp", "/var/tmp"],
    mounts: [
      ...installedApp(cwd),
      { src: stateDir, dest: "/var/lib/envelope-gate", writable: true },
      { src: creds, dest: credentials, writable: false },
    ],
  };
  return { exec, env, sandbox, stateDir, replica: spec.H };
}

/**
 * systemd's restart logic for this unit, from its own settings: Restart=on-failure restarts a
 * main process that exited non-zero or was killed (bubblewrap reports a signal as 128+n), unless
 * its status is in RestartPreventExitStatus=; every start counts toward StartLimitBurst= within
 * StartLimitIntervalSec= (manual ones too), until `systemctl reset-failed`. RestartSec= is not
 * waited (the delay changes nothing here).
 */
class Supervisor {
  private starts: number[] = [];
  readonly journal: string[] = [];
  private readonly prevent = new Set(
    words(one(unitValues(UNIT, "Service", "RestartPreventExitStatus"), "RestartPreventExitStatus")).map(Number),
  );
  private readonly burst = Number(one(unitValues(UNIT, "Unit", "StartLimitBurst"), "StartLimitBurst"));
  constructor(private readonly launch: () => Promise<AppProcess>) {
    expect(one(unitValues(UNIT, "Service", "Restart"), "Restart")).toBe("on-failure");
  }

  /** `systemctl start` (or a restart): the App serving, or how it ended before it listened. */
  async start(): Promise<{ app: AppProcess } | { exit: number | null; output: string } | "start-limit-hit"> {
    if (this.starts.length >= this.burst) {
      this.journal.push("start-limit-hit");
      return "start-limit-hit";
    }
    this.starts.push(Date.now());
    try {
      return { app: await this.launch() };
    } catch (err) {
      const { code, output } = err as { code: number | null; output: string };
      this.journal.push(`exited ${code} before listening`);
      return { exit: code, output };
    }
  }

  /** After the main process ended with `status`: does systemd start it again? */
  restarts(status: number | null): boolean {
    const restart = status !== 0 && !this.prevent.has(status as number);
    this.journal.push(`exit ${status}: ${restart ? "restarted" : "stays stopped"}`);
    return restart;
  }

  resetFailed(): void {
    this.starts = [];
  }
}

describe("deploy/envelope-gate.service", () => {
  it("passes systemd-analyze verify, and its offline security review rates it OK", (ctx) => {
    if (spawnSync("sh", ["-c", "command -v systemd-analyze"]).status !== 0) ctx.skip("systemd-analyze is not installed");
    const dir = tempDir("eg-unit-verify-");
    const unit = join(dir, "envelope-gate.service");
    // verify checks that ExecStart's binary exists; elsewhere the test's own node stands in.
    writeFileSync(unit, existsSync("/usr/bin/node") ? UNIT_TEXT : UNIT_TEXT.replace("/usr/bin/node ", `${process.execPath} `));
    const verify = spawnSync("systemd-analyze", ["verify", "--man=no", unit], { encoding: "utf8" });
    expect(verify.stderr + verify.stdout).toBe("");
    expect(verify.status).toBe(0);
    const security = spawnSync("systemd-analyze", ["security", "--offline=true", unit], { encoding: "utf8" });
    const level = /Overall exposure level for envelope-gate\.service: ([\d.]+)/.exec(security.stdout + security.stderr);
    expect(level, security.stdout + security.stderr).not.toBeNull();
    expect(Number(level?.[1])).toBeLessThanOrEqual(2);
  });

  it("bounds restarts: on-failure, a start limit, the crash-loop status never restarted, a stop longer than the drain", () => {
    expect(unitValues(UNIT, "Service", "Restart")).toEqual(["on-failure"]);
    expect(Number(one(unitValues(UNIT, "Unit", "StartLimitBurst"), "StartLimitBurst"))).toBeGreaterThan(3);
    expect(unitValues(UNIT, "Unit", "StartLimitIntervalSec")).toHaveLength(1);
    const prevent = words(one(unitValues(UNIT, "Service", "RestartPreventExitStatus"), "RestartPreventExitStatus"));
    expect(prevent).toContain(String(CRASH_LOOP_EXIT));
    // 3 is also a store that is down at start: restarting helps there, so it is not listed.
    expect(prevent).not.toContain("3");
    expect(parseInt(one(unitValues(UNIT, "Service", "TimeoutStopSec"), "TimeoutStopSec"), 10)).toBeGreaterThan(8 + 30 + 1);
    expect(unitEnvironment(unitValues(UNIT, "Service", "Environment"))).toMatchObject({
      NODE_ENV: "production",
      ENVELOPE_GATE_REPLICA_ID: "%H",
      ENVELOPE_GATE_DB_PATH: "%S/envelope-gate/app.sqlite",
    });
    expect(unitValues(UNIT, "Service", "StateDirectory")).toEqual(["envelope-gate"]);
    expect(unitValues(UNIT, "Service", "DynamicUser")).toEqual(["yes"]);
    // Every variable the shipped example sets or shows is one the App reads.
    const known = new Set<string>(APP_SETTINGS.map((s) => s.name));
    const example = readFileSync(join(DEPLOY, "envelope-gate.env.example"), "utf8");
    for (const m of example.matchAll(/^#?([A-Z_]+)=/gm)) expect(known, m[1]).toContain(m[1]);
  });

  it("its ExecStart, with its environment, as a non-root uid on a read-only root, serves /healthz", async (ctx) => {
    if (NO_SANDBOX) ctx.skip(NO_SANDBOX);
    const unit = unitService();
    const app = await startListening(sandboxed(unit.sandbox, unit.exec), unit.env);
    try {
      expect(await healthz(app.url)).toBe(200);
      expect(uidOf(sandboxedPid(app.child.pid as number))).toBe(DYNAMIC_UID);
      expect(app.output()).toContain(`"replica":"${unit.replica}"`);
      expect(statSync(join(unit.stateDir, "app.sqlite")).uid).toBe(DYNAMIC_UID);
    } finally {
      // systemctl stop: SIGTERM, a clean exit.
      expect(await signalApp(app, "SIGTERM")).toBe(0);
    }
  });

  it("a crash loop stops: restarted after each SIGKILL until the App refuses (exit 4, APP_CRASH_LOOP) and systemd leaves it down; a clean stop does not count; reset-crashes lets it start again", async (ctx) => {
    if (NO_SANDBOX) ctx.skip(NO_SANDBOX);
    const unit = unitService();
    const supervisor = new Supervisor(() => startListening(sandboxed(unit.sandbox, unit.exec), unit.env));
    const serving = async (): Promise<AppProcess> => {
      const started = await supervisor.start();
      if (typeof started === "string" || !("app" in started)) throw new Error(`did not serve: ${JSON.stringify(started)}`);
      expect(await healthz(started.app.url)).toBe(200);
      return started.app;
    };
    const crash = async (app: AppProcess) => expect(supervisor.restarts(await signalApp(app, "SIGKILL"))).toBe(true);

    await crash(await serving()); // crash 1, restarted
    await crash(await serving()); // crash 2, restarted
    const third = await serving();
    // The operator stops it on purpose: exit 0, not restarted, and not a crash.
    expect(supervisor.restarts(await signalApp(third, "SIGTERM"))).toBe(false);
    await crash(await serving()); // started by hand (2 crashes < 3: it serves); crash 3, restarted
    const refused = await supervisor.start();
    expect(refused).toMatchObject({ exit: CRASH_LOOP_EXIT });
    const output = (refused as { output: string }).output;
    expect(output).not.toContain("listening");
    const lines = output.trim().split("\n");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string) as Record<string, string>;
    expect(line).toMatchObject({ level: "error", event: "app.crash_loop", code: "APP_CRASH_LOOP", replica: unit.replica });
    expect(line.message).toMatch(new RegExp(`crashed 3 times within 60 minutes \\(last seen alive at (\\d{4}-\\S+Z(, )?){3}\\)`));
    expect(line.hint).toContain(`envelope-gate app reset-crashes --replica ${unit.replica} --reason`);
    // RestartPreventExitStatus: systemd does not start it again; the start limit backs that up.
    expect(supervisor.restarts(CRASH_LOOP_EXIT)).toBe(false);
    expect(await supervisor.start()).toBe("start-limit-hit");

    // The operator clears it deliberately, with the unit's environment, as the service user.
    const cli = [...unit.exec.slice(0, -2), "app", "reset-crashes", "--replica", unit.replica, "--reason", "fixed the bad deploy"];
    const reset = await run(sandboxed(unit.sandbox, cli), { ...unit.env, ENVELOPE_GATE_OPERATOR: "oncall-alice" }, 30_000);
    expect(reset.stderr).toBe("");
    expect(reset.stdout).toContain(`crashes reset for replica ${unit.replica}: 3 cleared, recorded as oncall-alice`);
    expect(reset.code).toBe(0);
    supervisor.resetFailed(); // systemctl reset-failed envelope-gate
    const again = await serving();
    expect(await signalApp(again, "SIGTERM")).toBe(0);
    expect(supervisor.journal).toEqual([
      "exit 137: restarted",
      "exit 137: restarted",
      "exit 0: stays stopped",
      "exit 137: restarted",
      `exited ${CRASH_LOOP_EXIT} before listening`,
      `exit ${CRASH_LOOP_EXIT}: stays stopped`,
      "start-limit-hit",
    ]);

    const store = await openStore({ sqlitePath: join(unit.stateDir, "app.sqlite") }, Date.now());
    try {
      expect(await crashResets(store, unit.replica)).toEqual([
        expect.objectContaining({ reset_by: "oncall-alice", reason: "fixed the bad deploy", crashes: 3 }),
      ]);
      // Five processes served; the refused start never registered.
      const processes = (await store.listProcesses()).filter((p) => p.replica === unit.replica);
      expect(processes).toHaveLength(5);
    } finally {
      await store.close();
    }
  }, 180_000);
});

// ---- the container image -----------------------------------------------------------------

describe("deploy/Dockerfile", () => {
  const runtime = STAGES.at(-1) as (typeof STAGES)[number];
  const build = STAGES[0] as (typeof STAGES)[number];

  it("is multi-stage: production dependencies (npm ci --omit=dev) in one stage; the runtime stage has the committed dist/ and production node_modules only, a numeric non-root USER and a VOLUME for the store", () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(2);
    const buildRuns = stageValues(build, "RUN").join("\n");
    expect(buildRuns).toContain("npm ci --omit=dev");
    // The image runs the committed bundle (check-dist proves it fresh): no build, no dev dependencies.
    expect(buildRuns).not.toContain("scripts/build.mjs");
    expect(stageValues(runtime, "RUN").join("\n")).not.toMatch(/npm (ci|install)/);
    const copies = stageValues(runtime, "COPY").map((c) => words(c));
    expect(copies.map((c) => c.at(-1)).sort()).toEqual(["./dist", "./node_modules", "./package.json"]);
    for (const c of copies) expect(c[0] === `--from=${build.name}` || c[0] === "dist").toBe(true);
    const user = one(stageValues(runtime, "USER"), "USER");
    expect(user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    const volumes = execForm(one(stageValues(runtime, "VOLUME"), "VOLUME"));
    const env = dockerEnv(runtime);
    expect(env).toMatchObject({ NODE_ENV: "production", ENVELOPE_GATE_HOST: "0.0.0.0" });
    expect(volumes.some((v) => (env.ENVELOPE_GATE_DB_PATH as string).startsWith(`${v}/`))).toBe(true);
    expect(healthcheck(runtime).command[0]).toBe("node");
  });

  it("compose.yaml runs it read-only with a tmpfs /tmp, bounded restarts (on-failure:N), a grace period past the drain, and the image's health check", () => {
    expect(COMPOSE).toMatch(/^\s+read_only: true$/m);
    expect(COMPOSE).toMatch(/^\s+tmpfs:\n\s+- \/tmp$/m);
    expect(COMPOSE).toMatch(/^\s+restart: on-failure:[1-9]\d*$/m);
    expect(Number(/stop_grace_period: (\d+)s/.exec(COMPOSE)?.[1])).toBeGreaterThan(8 + 30 + 1);
    expect(COMPOSE).toMatch(/ENVELOPE_GATE_REPLICA_ID: \S+/);
    const expression = healthcheck(runtime).command.at(-1) as string;
    expect(COMPOSE).toContain(`- "${expression}"`);
  });

  it("its entry command, with the image's environment, under a read-only root as its USER, serves; its HEALTHCHECK passes, and fails once the App is stopped", async (ctx) => {
    if (NO_SANDBOX) ctx.skip(NO_SANDBOX);
    const [uid, gid] = one(stageValues(runtime, "USER"), "USER").split(":").map(Number) as [number, number];
    const workdir = one(stageValues(runtime, "WORKDIR"), "WORKDIR");
    const [volume] = execForm(one(stageValues(runtime, "VOLUME"), "VOLUME")) as [string];
    const command = [
      ...execForm(one(stageValues(runtime, "ENTRYPOINT"), "ENTRYPOINT")),
      ...execForm(one(stageValues(runtime, "CMD"), "CMD")),
    ];
    const data = tempDir("eg-image-volume-");
    chownR(data, uid, gid);
    const secrets = tempDir("eg-image-secrets-");
    writeFileSync(join(secrets, "private-key.pem"), appKeys().privateKeyPem, { mode: 0o444 });
    writeFileSync(join(secrets, "webhook-secret"), `${SECRET}\n`, { mode: 0o444 });
    chmodSync(secrets, 0o755);
    const port = await freePort();
    const containerHostname = "c0ffee15c0de";
    const env: NodeJS.ProcessEnv = {
      // The base image's PATH (node is /usr/local/bin/node there), with this test's node first.
      PATH: `${dirname(process.execPath)}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
      HOSTNAME: containerHostname,
      HOME: "/",
      ...dockerEnv(runtime),
      // docker run -e / compose: where the secrets are mounted, and the port this test could get.
      ENVELOPE_GATE_APP_ID: APP_ID,
      ENVELOPE_GATE_PRIVATE_KEY_PATH: "/run/secrets/private-key.pem",
      ENVELOPE_GATE_WEBHOOK_SECRET_FILE: "/run/secrets/webhook-secret",
      ENVELOPE_GATE_PORT: String(port),
    };
    const sandbox: SandboxSpec = {
      uid,
      gid,
      cwd: workdir,
      hide: [dirname(workdir), dirname(volume), "/run"],
      tmpfs: ["/tmp"],
      mounts: [
        ...installedApp(workdir),
        { src: data, dest: volume, writable: true },
        { src: secrets, dest: "/run/secrets", writable: false },
      ],
    };
    const check = healthcheck(runtime);
    const timeoutMs = parseInt(check.options.timeout ?? "30", 10) * 1000;
    const app = await startListening(sandboxed(sandbox, command), env);
    try {
      expect(await healthz(`http://127.0.0.1:${port}`)).toBe(200);
      expect(uidOf(sandboxedPid(app.child.pid as number))).toBe(uid);
      // The entrypoint names the replica after the container's hostname.
      expect(app.output()).toContain(`"replica":"${containerHostname}"`);
      expect(statSync(join(data, "app.sqlite")).uid).toBe(uid);
      const healthy = await run(sandboxed(sandbox, check.command), env, timeoutMs);
      expect(healthy, healthy.stderr).toMatchObject({ code: 0 });
    } finally {
      expect(await signalApp(app, "SIGTERM")).toBe(0);
    }
    expect((await run(sandboxed(sandbox, check.command), env, timeoutMs)).code).toBe(1);
  });
});
