import { execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { APP_ID, appKeys, SECRET, tempDir } from "../app/helpers.js";
import { startListening } from "../app/process.js";
import { REPO_ROOT } from "../support/fixtures.js";
import { spawnProcess } from "../support/spawn.js";
import { excluded, parseDockerignore } from "./dockerignore.js";
import { BASE_PATH, bwrap, cloneContext, missingFromContext, parseStages, replay, type Mount } from "./replay.js";
import { sandboxAvailable, sandboxedPid, uidOf } from "./sandbox.js";

/**
 * `docker build -f deploy/Dockerfile .` from a clean clone, replayed (replay.ts): Docker Hub is
 * out of reach here, so this host (Debian 12 bookworm, Node 20: the base image's distro and Node
 * major, checked against the FROM tag) stands in for node:20-bookworm-slim, read-only.
 */
const NO_SANDBOX = sandboxAvailable();

/** The .dockerignore that shipped before issue 33: it admitted src/ but neither dist/ nor native/. */
const OLD_DOCKERIGNORE = `# Build context for deploy/Dockerfile: the image builds dist/ from src/ itself.
**
!package.json
!package-lock.json
!tsconfig.json
!scripts/
!src/
!schema/
`;

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

describe(".dockerignore as Docker applies it", () => {
  const admits = (rules: string, path: string) => !excluded(parseDockerignore(rules), path);

  it("the last matching line wins, `!` re-admits below an excluded folder, a pattern excludes what is under a match, `**` spans folders", () => {
    expect(admits("**\n!dist/", "dist/cli/index.js")).toBe(true);
    expect(admits("**\n!dist/", "src/index.ts")).toBe(false);
    expect(admits("**\n!dist/\ndist/recorder", "dist/recorder/x")).toBe(false);
    expect(admits("*.md\n!README*.md\nREADME-secret.md", "README-secret.md")).toBe(false);
    expect(admits("*.md\nREADME-secret.md\n!README*.md", "README-secret.md")).toBe(true);
    expect(admits("*/temp*", "somedir/temporary.txt")).toBe(false);
    expect(admits("*/temp*", "temp.txt")).toBe(true);
    expect(admits("**/*.go", "a/b/c.go")).toBe(false);
    expect(admits("**/*.go", "c.go")).toBe(false);
    expect(admits("/node_modules", "node_modules/x/y.js")).toBe(false);
    expect(admits("temp?", "tempa")).toBe(false);
    expect(admits("temp?", "tempab")).toBe(true);
    expect(admits("# comment\n", "anything")).toBe(true);
    expect(() => parseDockerignore("!\n")).toThrow(/line 1/);
  });
});

/** npm's cache and Docker's layer cache, shared by the replays (npm ci compiles better-sqlite3 for minutes). */
const NPM_CACHE = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
mkdirSync(NPM_CACHE, { recursive: true });
const REPLAY = {
  caches: [{ src: NPM_CACHE, dest: "/root/.npm", writable: true }],
  cache: join(tmpdir(), "envelope-gate-image-layers"),
};

/** Each replay's clone, context and stages (a few hundred MB), removed after its test. */
const works: string[] = [];
function workDir(prefix: string): string {
  const dir = tempDir(prefix);
  works.push(dir);
  return dir;
}

describe("deploy/Dockerfile, built from a clean clone (the build replayed)", () => {
  afterEach(() => {
    for (const dir of works.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an instruction the replay does not know, naming its line", () => {
    expect(() => parseStages("FROM node:20-bookworm-slim\nARG X=1\n")).toThrow(/line 2: ARG is not replayed/);
    expect(() => parseStages("FROM node:20-bookworm-slim\nADD https://example.invalid/x /x\n")).toThrow(/line 2: ADD/);
  });

  it("with the .dockerignore that shipped before, the build fails: COPY dist is not in the build context", (ctx) => {
    if (NO_SANDBOX) ctx.skip(NO_SANDBOX);
    const work = workDir("eg-image-old-");
    const { clone, context, files } = cloneContext(REPO_ROOT, work, OLD_DOCKERIGNORE);
    expect(files).toContain("src/cli/index.ts");
    expect(files.some((f) => f.startsWith("dist/") || f.startsWith("native/"))).toBe(false);
    const stages = parseStages(readFileSync(join(clone, "deploy", "Dockerfile"), "utf8"));
    expect(missingFromContext(stages, context)).toEqual([
      expect.stringMatching(/^Dockerfile line \d+: COPY dist: not in the build context$/),
    ]);
    // The build itself stops there, as docker build does.
    expect(() => replay(stages, context, { ...REPLAY, work: join(work, "stages"), log: () => {} })).toThrow(
      /^Dockerfile line \d+: COPY dist: not found in the build context \(\.dockerignore does not admit it\)$/,
    );
  }, 1_800_000);

  it("builds with the committed .dockerignore; the image's ENTRYPOINT and CMD, as its USER with its ENV and volume, serve /healthz; its HEALTHCHECK exits 0; SIGTERM stops it cleanly", async (ctx) => {
    if (NO_SANDBOX) ctx.skip(NO_SANDBOX);
    const work = workDir("eg-image-");
    const { clone, context, files } = cloneContext(REPO_ROOT, work);
    // The context: the manifest, the lockfile and the committed bundle; no source, no secrets.
    expect(files.filter((f) => !f.startsWith("dist/"))).toEqual(["package-lock.json", "package.json"]);
    expect(files).toContain("dist/cli/index.js");
    const stages = parseStages(readFileSync(join(clone, "deploy", "Dockerfile"), "utf8"));
    expect(missingFromContext(stages, context)).toEqual([]);

    const log: string[] = [];
    const built = replay(stages, context, { ...REPLAY, work: join(work, "stages"), log: (l) => log.push(l) });
    const image = built.at(-1) as (typeof built)[number];
    expect(log.join("\n")).toMatch(/RUN npm ci --omit=dev/);
    expect(log.join("\n")).toMatch(/COPY dist \.\/dist/);

    // The image: production node_modules with the native binding, no dev dependency, no compiler output left to run.
    const appDir = image.places.get(image.workdir) as string;
    expect(statSync(join(appDir, "node_modules", "better-sqlite3", "package.json")).isFile()).toBe(true);
    expect(() => statSync(join(appDir, "node_modules", "vitest"))).toThrow();
    expect(() => statSync(join(appDir, "src"))).toThrow();
    expect(image.user).toEqual({ uid: 10001, gid: 10001 });
    expect(image.exposed).toEqual(["3000"]);
    const [volume] = image.volumes as [string];
    expect(image.env.ENVELOPE_GATE_DB_PATH?.startsWith(`${volume}/`)).toBe(true);

    // docker run: a fresh named volume starts as a copy of the image's folder (owner and mode kept).
    const volumeDir = join(work, "volume");
    execFileSync("cp", ["-a", image.places.get(volume) as string, volumeDir]);
    expect(statSync(volumeDir).uid).toBe(10001);
    expect(statSync(volumeDir).mode & 0o777).toBe(0o700);
    const secrets = join(work, "secrets");
    mkdirSync(secrets);
    writeFileSync(join(secrets, "private-key.pem"), appKeys().privateKeyPem, { mode: 0o444 });
    writeFileSync(join(secrets, "webhook-secret"), `${SECRET}\n`, { mode: 0o444 });
    chmodSync(secrets, 0o755);
    const mounts: Mount[] = [
      ...[...image.places].filter(([dest]) => dest !== volume).map(([dest, src]) => ({ src, dest, writable: false })),
      { src: volumeDir, dest: volume, writable: true },
      { src: secrets, dest: "/run/secrets", writable: false },
    ];
    const port = await freePort();
    const containerHostname = "5eedc0ffee01";
    const env: NodeJS.ProcessEnv = {
      PATH: BASE_PATH,
      HOSTNAME: containerHostname,
      HOME: "/",
      ...image.env,
      // docker run -e: the App, where its secrets are mounted, a port free on this host.
      ENVELOPE_GATE_APP_ID: APP_ID,
      ENVELOPE_GATE_PRIVATE_KEY_PATH: "/run/secrets/private-key.pem",
      ENVELOPE_GATE_WEBHOOK_SECRET_FILE: "/run/secrets/webhook-secret",
      ENVELOPE_GATE_PORT: String(port),
    };
    const user = image.user as { uid: number; gid: number };
    const check = image.healthcheck as { command: string[] };
    const app = await startListening(bwrap(mounts, image.workdir, [...image.entrypoint, ...image.cmd], user), env, 120_000);
    // Signalled itself: bubblewrap forwards no signal, and setpriv's uid change cleared --die-with-parent's.
    const pid = sandboxedPid(app.child.pid as number);
    let stopped = false;
    try {
      expect(uidOf(pid)).toBe(10001);
      let res = await fetch(`http://127.0.0.1:${port}/healthz`);
      for (let i = 0; i < 60 && res.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        res = await fetch(`http://127.0.0.1:${port}/healthz`);
      }
      expect(res.status).toBe(200);
      const body = (await res.json()) as { replica: string };
      expect(body).toMatchObject({ ok: true, checks: { store_read: "ok", store_write: "ok" } });
      // The entrypoint names the replica after the container's hostname (the process adds its own id after a slash).
      expect(body.replica.split("/")[0]).toBe(containerHostname);
      expect(app.output()).toContain(`"replica":"${containerHostname}"`);
      expect(statSync(join(volumeDir, "app.sqlite")).uid).toBe(10001);
      // docker exec of the HEALTHCHECK command, in the container's filesystem and environment.
      const healthy = await spawnProcess(bwrap(mounts, image.workdir, check.command, user), {
        env,
        timeoutMs: 60_000,
        killSignal: "SIGTERM",
      });
      expect(healthy.code, healthy.stderr).toBe(0);
      // docker stop: SIGTERM to PID 1 (node: the entrypoint's shell execs it).
      process.kill(pid, "SIGTERM");
      expect(await exited(app.child)).toBe(0);
      stopped = true;
    } finally {
      if (!stopped) {
        process.kill(pid, "SIGKILL");
        await exited(app.child);
      }
    }
    // Once the App is gone the HEALTHCHECK fails.
    const unhealthy = await spawnProcess(bwrap(mounts, image.workdir, check.command, user), {
      env,
      timeoutMs: 60_000,
      killSignal: "SIGTERM",
    });
    expect(unhealthy.code).toBe(1);
  }, 1_800_000);
});
