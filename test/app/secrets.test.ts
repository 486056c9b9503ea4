/**
 * Per-use secrets (docs/app.md, *Secrets*): the private key and the webhook secrets are read
 * from their files, or printed by the secret command, when they are used; nothing the App
 * spawns sees them; production refuses them in the environment. Real App processes (the built
 * dist/cli) against the GitHub-shaped fake, whose JWT check is the real one.
 */
import type Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { commandSecret } from "../../src/app/secrets.js";
import { generateAppKeys, installAppRoutes } from "../support/fake-github-app.js";
import { installationRef } from "../support/webhooks.js";
import {
  addRunA,
  APP_ID,
  appKeys,
  deliver,
  deliverAndWait,
  dispatchedRuns,
  processEnv,
  SECRET,
  startWorld,
  settledState,
  tempDir,
  workflowRunPayload,
  type World,
} from "./helpers.js";
import { startAppProcess, type AppProcess } from "./process.js";

const FAILING = [{ name: "schema_key_order", result: "fail" as const }];
const NEW_SECRET = "the-rotated-webhook-secret-0042";
const INLINE_NAMES = ["ENVELOPE_GATE_PRIVATE_KEY", "ENVELOPE_GATE_WEBHOOK_SECRET", "ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS"];

/** The App's environment with no secret in it: the given file and command settings instead. */
function envWithout(world: World, dir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = processEnv(world.fake, { ENVELOPE_GATE_DB_PATH: join(dir, "app.sqlite"), ...extra });
  delete env.ENVELOPE_GATE_PRIVATE_KEY;
  delete env.ENVELOPE_GATE_WEBHOOK_SECRET;
  return env;
}

/** A run that needs nothing from GitHub (a passing run is ignored): only the signature matters. */
function cheapPayload(world: World): Record<string, unknown> {
  return workflowRunPayload(world.fake, addRunA(world.fake, { properties: [] }, { conclusion: "success" }));
}

/** Runner A failing: the App downloads its evidence and dispatches B, with an installation token minted by a JWT. */
function githubPayload(world: World, installation: number): Record<string, unknown> {
  return { ...workflowRunPayload(world.fake, addRunA(world.fake, { properties: FAILING })), installation: installationRef(installation) };
}

const codeOf = (body: Record<string, unknown>) => (body.error as { code?: string } | undefined)?.code;

/**
 * The secret command the tests use: prints the file named after the secret, and records each
 * call, its own environment, and the environment and command line of its parent (the App
 * process: /proc/$PPID/environ is the App's environment as it was started).
 */
function secretCommandScript(dir: string): string {
  const script = join(dir, "secret-command.sh");
  writeFileSync(
    script,
    `#!/bin/sh
set -eu
name="$1"
dir="$2"
echo "$name" >> "$dir/calls"
env > "$dir/env-$name"
tr '\\0' '\\n' < /proc/$PPID/environ > "$dir/parent-environ-$name"
tr '\\0' ' ' < /proc/$PPID/cmdline > "$dir/parent-cmdline-$name"
if [ -f "$dir/fail-$name" ]; then echo "vault: permission denied" >&2; exit 2; fi
cat "$dir/$name"
`,
  );
  chmodSync(script, 0o755);
  return script;
}

function calls(dir: string, name: string): number {
  return existsSync(join(dir, "calls"))
    ? readFileSync(join(dir, "calls"), "utf8")
        .split("\n")
        .filter((l) => l === name).length
    : 0;
}

/** Asserts that `text` (an environment) carries no secret value and no inline secret variable. */
function expectNoSecrets(text: string, what: string, values: string[]): void {
  for (const value of values) expect(text.includes(value), `${what} holds a secret value`).toBe(false);
  const names = text.split("\n").map((l) => l.split("=")[0]);
  for (const name of INLINE_NAMES) expect(names, what).not.toContain(name);
}

/** `work`, or a rejection naming what hung once `ms` have passed. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Lets a reader blocked opening the FIFO at `path` go (if one is), so nothing is left hanging. */
function releaseFifo(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader waiting, or no FIFO there any more.
  }
}

const pemBody = (pem: string) => pem.split("\n").filter((l) => l !== "" && !l.startsWith("-----"));

let world: World;
let dir: string;
let app: AppProcess | null = null;

beforeEach(async () => {
  world = await startWorld();
  dir = tempDir("eg-secrets-");
});

afterEach(async () => {
  await app?.stop();
  app = null;
  await world.close();
});

/** An App process with the key in key.pem and the webhook secret in webhook-secret, both in `dir`. */
async function startWithFiles(): Promise<AppProcess> {
  writeFileSync(join(dir, "key.pem"), appKeys().privateKeyPem);
  writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
  return startAppProcess(
    envWithout(world, dir, {
      ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "key.pem"),
      ENVELOPE_GATE_WEBHOOK_SECRET_FILE: join(dir, "webhook-secret"),
    }),
  );
}

describe("secrets from files, read at each use", () => {
  it("a delivery signed with the file's secret is accepted; after the file is rewritten the new secret is, the old is not, without a restart", async () => {
    app = await startWithFiles();
    // The key from its file signs the JWT that mints the installation token the dispatch uses.
    const first = await deliverAndWait(app.url, "workflow_run", githubPayload(world, 77));
    expect(first.state, JSON.stringify(first)).toBe("done");
    expect(dispatchedRuns(world.fake)).toHaveLength(1);

    writeFileSync(join(dir, "webhook-secret.new"), `${NEW_SECRET}\n`);
    renameSync(join(dir, "webhook-secret.new"), join(dir, "webhook-secret"));
    const rotatedSecret = await deliver(app.url, "workflow_run", cheapPayload(world), { secret: NEW_SECRET });
    expect(rotatedSecret.status).toBe(202);
    const old = await deliver(app.url, "workflow_run", cheapPayload(world), { secret: SECRET });
    expect([old.status, codeOf(old.body)]).toEqual([401, "WEBHOOK_SIGNATURE_INVALID"]);

    // During a rotation the file's later lines are previous secrets, still accepted.
    writeFileSync(join(dir, "webhook-secret"), `${NEW_SECRET}\n${SECRET}\n`);
    const accepted = [
      await deliver(app.url, "workflow_run", cheapPayload(world), { secret: SECRET }),
      await deliver(app.url, "workflow_run", cheapPayload(world), { secret: NEW_SECRET }),
    ];
    expect(accepted.map((r) => r.status)).toEqual([202, 202]);
    // Their work is on the commit the next delivery posts a check on: let it end first (a
    // delivery meanwhile is VERIFIED_CHECK_BUSY, queued for the sweeper, not what this test asks).
    for (const r of [rotatedSecret, ...accepted]) await settledState(app.url, String(r.body.delivery));

    // The private key rotates the same way: GitHub holds the new public key, the file the new key.
    const next = generateAppKeys();
    installAppRoutes(world.fake, { appId: APP_ID, publicKeyPem: next.publicKeyPem, dispatchMode: "run_details" });
    writeFileSync(join(dir, "key.pem"), next.privateKeyPem);
    const rotated = await deliverAndWait(app.url, "workflow_run", githubPayload(world, 78), { secret: NEW_SECRET });
    expect(rotated.state, JSON.stringify(rotated)).toBe("done");
    expect(dispatchedRuns(world.fake)).toHaveLength(2);
  });

  it("a webhook secret file removed or emptied at use is 503 SECRET_UNAVAILABLE, nothing accepted; once restored the same delivery is processed", async () => {
    app = await startWithFiles();
    const payload = githubPayload(world, 77);
    rmSync(join(dir, "webhook-secret"));
    const gone = await deliver(app.url, "workflow_run", payload, { delivery: "d-secret-gone" });
    expect([gone.status, codeOf(gone.body)]).toEqual([503, "SECRET_UNAVAILABLE"]);
    // The answer (to anyone who can reach /webhook) names no path; the status page and the log do.
    expect(JSON.stringify(gone.body)).not.toContain(dir);
    const lastRefused = ((await (await fetch(`${app.url}/status.json`)).json()) as { intake: { last_refused: { message: string } } }).intake
      .last_refused;
    expect(lastRefused.message).toContain(`ENVELOPE_GATE_WEBHOOK_SECRET_FILE (${join(dir, "webhook-secret")}) cannot be read (ENOENT)`);
    writeFileSync(join(dir, "webhook-secret"), "\n");
    const empty = await deliver(app.url, "workflow_run", payload, { delivery: "d-secret-gone" });
    expect([empty.status, codeOf(empty.body)]).toEqual([503, "SECRET_UNAVAILABLE"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    const intake = ((await (await fetch(`${app.url}/status.json`)).json()) as { intake: { refused: Record<string, number> } }).intake;
    expect(intake.refused).toMatchObject({ SECRET_UNAVAILABLE: 2 });

    writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
    const again = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-secret-gone" });
    // Processed now, not "duplicate": nothing was recorded while the secret could not be read.
    expect([again.answer.status, again.state]).toEqual([202, "done"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  it("a private key file removed at use fails the GitHub request with SECRET_UNAVAILABLE: the delivery is queued (answered 202 before the work), and done once the key is back", async () => {
    app = await startWithFiles();
    renameSync(join(dir, "key.pem"), join(dir, "key.pem.away"));
    const payload = githubPayload(world, 77);
    const failed = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-key-gone" });
    expect([failed.answer.status, failed.state, failed.code]).toEqual([202, "queued", "SECRET_UNAVAILABLE"]);
    expect(failed.message).toContain("ENVELOPE_GATE_PRIVATE_KEY_PATH");
    expect(world.fake.requests.filter((r) => r.path.includes("access_tokens"))).toHaveLength(0);
    expect(dispatchedRuns(world.fake)).toHaveLength(0);
    // Recorded queued with the code, for the sweeper (as GITHUB_UNAVAILABLE is).
    const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
    const db = new Sqlite(join(dir, "app.sqlite"), { readonly: true });
    try {
      expect(db.prepare("SELECT state, error_code FROM deliveries WHERE delivery_id = ?").get("d-key-gone")).toEqual({
        state: "queued",
        error_code: "SECRET_UNAVAILABLE",
      });
    } finally {
      db.close();
    }

    renameSync(join(dir, "key.pem.away"), join(dir, "key.pem"));
    const again = await deliverAndWait(app.url, "workflow_run", payload, { delivery: "d-key-gone" });
    expect([again.answer.status, again.state]).toEqual([202, "done"]);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);

    // A file replaced by something that is not a PEM RSA key: PRIVATE_KEY_INVALID, nothing sent (a new installation needs a JWT).
    writeFileSync(join(dir, "key.pem"), appKeys().publicKeyPem);
    const bad = await deliverAndWait(app.url, "workflow_run", githubPayload(world, 79));
    expect([bad.answer.status, bad.state, bad.code]).toEqual([202, "failed", "PRIVATE_KEY_INVALID"]);
    expect(bad.message).toContain(`ENVELOPE_GATE_PRIVATE_KEY_PATH (${join(dir, "key.pem")}) is not a PEM private key`);
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
  });

  it("a webhook secret file replaced by a FIFO, a device or a huge file is 503 SECRET_UNAVAILABLE at once, never a delivery left hanging; NUL bytes are no secret", async () => {
    app = await startWithFiles();
    const url = app.url;
    const path = join(dir, "webhook-secret");
    const refused = async (what: string, message: RegExp, secret = SECRET) => {
      const res = await within(10_000, what, deliver(url, "workflow_run", cheapPayload(world), { secret }));
      expect([res.status, codeOf(res.body)], what).toEqual([503, "SECRET_UNAVAILABLE"]);
      // The cause is for operators (status page, log), not in the answer to whoever called /webhook.
      const status = (await (await fetch(`${url}/status.json`)).json()) as { intake: { last_refused: { message: string } } };
      expect(status.intake.last_refused.message, what).toMatch(message);
    };
    // A FIFO nobody writes, renamed over the file: opening it for reading would wait for a writer forever.
    execFileSync("mkfifo", [join(dir, "fifo")]);
    renameSync(join(dir, "fifo"), path);
    try {
      await refused("a FIFO", /is a FIFO, not a regular file/);
    } finally {
      releaseFifo(path);
    }
    // A device that never ends (read whole, it would take the App's memory).
    rmSync(path);
    symlinkSync("/dev/zero", path);
    await refused("/dev/zero", /is a character device, not a regular file/);
    // A huge file is not read whole, and is not a secret.
    rmSync(path);
    writeFileSync(path, `${SECRET}\n${"x".repeat(4 * 1024 * 1024)}\n`);
    await refused("a 4 MiB file", /is over 65536 bytes/);
    // A file of NUL bytes (what a crash mid-write or a preallocated file leaves): its HMAC key would be known to anyone.
    writeFileSync(path, Buffer.alloc(32));
    await refused("NUL bytes", /holds a NUL or other control character/, "\0".repeat(32));
    writeFileSync(path, `${SECRET}\n`);
    expect((await deliver(url, "workflow_run", cheapPayload(world))).status).toBe(202);
  });
});

describe("secrets from the secret command", () => {
  it("the key and the webhook secret come from the command, whose environment and whose parent's start environment hold no secret", async () => {
    const script = secretCommandScript(dir);
    writeFileSync(join(dir, "private-key"), appKeys().privateKeyPem);
    writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
    const env = envWithout(world, dir, {
      ENVELOPE_GATE_SECRET_COMMAND: JSON.stringify([script, "%s", dir]),
      ENVELOPE_GATE_SECRET_COMMAND_ENV: "SECRET_TEST_MARKER",
      ENVELOPE_GATE_SECRET_CACHE_SECONDS: "4",
      SECRET_TEST_MARKER: "passed-to-the-command",
    });
    app = await startAppProcess(env);
    // Checked once at start.
    expect([calls(dir, "private-key"), calls(dir, "webhook-secret")]).toEqual([1, 1]);

    const first = await deliverAndWait(app.url, "workflow_run", githubPayload(world, 77));
    expect(first.state, JSON.stringify(first)).toBe("done");
    expect(dispatchedRuns(world.fake)).toHaveLength(1);
    // Read when a JWT is signed (auth-app signs one for the token request and its hook another), not in between.
    const signed = calls(dir, "private-key");
    expect(signed).toBeGreaterThan(1);
    expect((await deliverAndWait(app.url, "workflow_run", githubPayload(world, 77))).state).toBe("done");
    expect(calls(dir, "private-key")).toBe(signed); // installation 77's token is still valid: no signing
    expect((await deliverAndWait(app.url, "workflow_run", githubPayload(world, 78))).state).toBe("done");
    expect(calls(dir, "private-key")).toBeGreaterThan(signed); // a new installation: a new token, new JWTs
    const before = calls(dir, "webhook-secret");
    for (let i = 0; i < 5; i++) expect((await deliver(app.url, "workflow_run", cheapPayload(world))).status).toBe(202);
    // Within ENVELOPE_GATE_SECRET_CACHE_SECONDS the command's answer is reused: not one run per delivery.
    expect(calls(dir, "webhook-secret") - before).toBeLessThanOrEqual(1);

    // What the App spawns: the command's own environment is PATH, HOME and what was listed.
    const values = [SECRET, ...pemBody(appKeys().privateKeyPem)];
    for (const name of ["private-key", "webhook-secret"]) {
      const own = readFileSync(join(dir, `env-${name}`), "utf8");
      expectNoSecrets(own, `the command's environment (${name})`, values);
      const names = own
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("=")[0] as string)
        .filter((n) => !["PWD", "OLDPWD", "SHLVL", "_"].includes(n));
      expect(names.sort()).toEqual(["HOME", "PATH", "SECRET_TEST_MARKER"]);
      // The App process's start environment, as any process of its user can read it.
      expect(readFileSync(join(dir, `parent-cmdline-${name}`), "utf8")).toContain("cli/index.js app start");
      const parent = readFileSync(join(dir, `parent-environ-${name}`), "utf8");
      expect(parent).toContain("ENVELOPE_GATE_SECRET_COMMAND=");
      expectNoSecrets(parent, `the App's start environment (${name})`, values);
    }

    // Rotation at the secret manager: after the cache time the new secret is accepted, the old is not.
    writeFileSync(join(dir, "webhook-secret"), `${NEW_SECRET}\n`);
    await new Promise((r) => setTimeout(r, 4200));
    expect((await deliver(app.url, "workflow_run", cheapPayload(world), { secret: NEW_SECRET })).status).toBe(202);
    expect((await deliver(app.url, "workflow_run", cheapPayload(world), { secret: SECRET })).status).toBe(401);

    // A failing command at use: 503 SECRET_UNAVAILABLE naming the command and what it said, never accepted.
    writeFileSync(join(dir, "fail-webhook-secret"), "");
    await new Promise((r) => setTimeout(r, 4200));
    const refused = await deliver(app.url, "workflow_run", cheapPayload(world), { secret: NEW_SECRET });
    expect([refused.status, codeOf(refused.body)]).toEqual([503, "SECRET_UNAVAILABLE"]);
    expect(JSON.stringify(refused.body)).not.toContain("permission denied");
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as { intake: { last_refused: { message: string } } };
    expect(status.intake.last_refused.message).toMatch(
      /ENVELOPE_GATE_SECRET_COMMAND \(webhook-secret: .*\) exited 2: vault: permission denied/,
    );
  });

  it("a command that fails, prints nothing or hangs at start is SECRET_UNAVAILABLE naming it; the App process exits 3", async () => {
    const script = secretCommandScript(dir);
    writeFileSync(join(dir, "private-key"), appKeys().privateKeyPem);
    writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
    writeFileSync(join(dir, "fail-private-key"), "");
    const base = { ENVELOPE_GATE_APP_ID: "1" };
    const command = (argv: string[]) => ({ ...base, ENVELOPE_GATE_SECRET_COMMAND: JSON.stringify(argv) });
    for (const [env, message] of [
      [
        command([script, "%s", dir]),
        /ENVELOPE_GATE_SECRET_COMMAND \(private-key: .*secret-command\.sh\) exited 2: vault: permission denied/,
      ],
      [
        command(["/nonexistent/vault", "%s"]),
        /ENVELOPE_GATE_SECRET_COMMAND \(private-key: \/nonexistent\/vault\) could not start \(ENOENT\)/,
      ],
      [command(["/bin/true", "%s"]), /\(private-key: \/bin\/true\) is empty/],
      [
        { ...command(["/bin/sh", "-c", "sleep 5", "%s"]), ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS: "1" },
        /did not finish within 1000 ms/,
      ],
      [
        { ...base, ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "missing.pem"), ENVELOPE_GATE_WEBHOOK_SECRET: SECRET },
        /ENVELOPE_GATE_PRIVATE_KEY_PATH \(.*missing\.pem\) cannot be read \(ENOENT\)/,
      ],
      [{ ...base, ENVELOPE_GATE_PRIVATE_KEY_PATH: dir, ENVELOPE_GATE_WEBHOOK_SECRET: SECRET }, /cannot be read \(EISDIR\)/],
      [
        { ...base, ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "private-key"), ENVELOPE_GATE_WEBHOOK_SECRET_FILE: join(dir, "none") },
        /ENVELOPE_GATE_WEBHOOK_SECRET_FILE \(.*none\) cannot be read \(ENOENT\)/,
      ],
    ] as [Record<string, string>, RegExp][]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(
        expect.objectContaining({ code: "SECRET_UNAVAILABLE", message: expect.stringMatching(message) }),
      );
    }
    const res = await startAppProcess(envWithout(world, dir, { ENVELOPE_GATE_SECRET_COMMAND: JSON.stringify([script, "%s", dir]) })).catch(
      (err: { code: number; output: string }) => err,
    );
    expect(res).toMatchObject({
      code: 3,
      output: expect.stringMatching(/SECRET_UNAVAILABLE[\s\S]*ENVELOPE_GATE_SECRET_COMMAND \(private-key/),
    });
  });

  it("the command's answer for the webhook secret is cached for the TTL, concurrent reads share one run, and a failure is not served from the cache", async () => {
    const script = secretCommandScript(dir);
    writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
    const source = commandSecret("webhook-secret", { argv: [script, "%s", dir], env: { PATH: "/usr/bin:/bin" }, timeoutMs: 5000 }, 300);
    const got = await Promise.all([source.read(), source.read(), source.read()]);
    expect(got.map((b) => b.toString().trim())).toEqual([SECRET, SECRET, SECRET]);
    expect(calls(dir, "webhook-secret")).toBe(1);
    await source.read();
    expect(calls(dir, "webhook-secret")).toBe(1);
    await new Promise((r) => setTimeout(r, 350));
    writeFileSync(join(dir, "fail-webhook-secret"), "");
    await expect(source.read()).rejects.toMatchObject({ code: "SECRET_UNAVAILABLE" });
    expect(calls(dir, "webhook-secret")).toBe(2);
  });

  it("a command whose descendant leaves its process group holding stdout is SECRET_UNAVAILABLE at the timeout, not a read that never ends", async () => {
    // Prints the secret, exits 0, and leaves behind a process in a session of its own (what a
    // CLI that starts an agent does) with the command's stdout still open.
    const script = join(dir, "daemonising.sh");
    writeFileSync(script, `#!/bin/sh\nsetsid sleep 30 &\necho $! >> "$2/daemons"\ncat "$2/$1"\n`);
    chmodSync(script, 0o755);
    writeFileSync(join(dir, "webhook-secret"), `${SECRET}\n`);
    writeFileSync(join(dir, "private-key"), appKeys().privateKeyPem);
    const command = { argv: [script, "%s", dir], env: { PATH: "/usr/bin:/bin" }, timeoutMs: 1000 };
    try {
      for (const source of [commandSecret("webhook-secret", command, 300), commandSecret("private-key", command)]) {
        // The cached webhook secret is shared by every delivery: a read that never ends would hang them all.
        await expect(within(5000, source.origin, source.read())).rejects.toMatchObject({
          code: "SECRET_UNAVAILABLE",
          message: expect.stringContaining("did not finish within 1000 ms"),
        });
      }
    } finally {
      for (const pid of readFileSync(join(dir, "daemons"), "utf8").split("\n").filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  });
});

describe("nothing the App spawns sees a secret", () => {
  it("outside production, secrets given in the environment are removed from it at start: a child inheriting the App's environment gets none", async () => {
    const script = secretCommandScript(dir);
    writeFileSync(join(dir, "private-key"), appKeys().privateKeyPem);
    // A hook in the App process (loaded with --import, as any module the App loads could be)
    // that spawns a child with Node's default, inherited environment on SIGUSR2.
    const hook = join(dir, "spawn-hook.mjs");
    writeFileSync(
      hook,
      `import { spawnSync } from "node:child_process";
process.on("SIGUSR2", () => {
  spawnSync("/bin/sh", ["-c", "env > ${join(dir, "inherited-env")}"], { stdio: "ignore" });
});
`,
    );
    const previous = "a-previous-webhook-secret-0099";
    const env = processEnv(world.fake, {
      ENVELOPE_GATE_DB_PATH: join(dir, "app.sqlite"),
      ENVELOPE_GATE_PRIVATE_KEY: "",
      ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS: previous,
      ENVELOPE_GATE_SECRET_COMMAND: JSON.stringify([script, "%s", dir]),
      ENVELOPE_GATE_SECRET_COMMAND_ENV: "SECRET_TEST_MARKER",
      SECRET_TEST_MARKER: "a-token-for-the-secret-manager",
      NODE_OPTIONS: `--import=${hook}`,
    });
    delete env.ENVELOPE_GATE_PRIVATE_KEY; // from the command; the webhook secrets inline
    app = await startAppProcess(env);
    expect((await deliverAndWait(app.url, "workflow_run", githubPayload(world, 77))).state).toBe("done");
    expect((await deliver(app.url, "workflow_run", cheapPayload(world), { secret: previous })).status).toBe(202);

    app.child.kill("SIGUSR2");
    const inheritedPath = join(dir, "inherited-env");
    for (let i = 0; i < 100 && !existsSync(inheritedPath); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    const inherited = readFileSync(inheritedPath, "utf8");
    expect(inherited).toContain("ENVELOPE_GATE_APP_ID="); // it did inherit the App's environment
    expectNoSecrets(inherited, "a child inheriting the App's environment", [SECRET, previous, "a-token-for-the-secret-manager"]);
    expect(inherited).not.toContain("SECRET_TEST_MARKER=");
    // The secret command (spawned with its own minimal environment) got the listed variable and no secret.
    const own = readFileSync(join(dir, "env-private-key"), "utf8");
    expect(own).toContain("SECRET_TEST_MARKER=a-token-for-the-secret-manager");
    expectNoSecrets(own, "the secret command's environment", [SECRET, previous]);
    // Why production refuses them: the start environment stays readable in /proc whatever process.env says.
    const start = readFileSync(`/proc/${app.child.pid}/environ`, "utf8");
    expect(start).toContain(`ENVELOPE_GATE_WEBHOOK_SECRET=${SECRET}`);
  });

  it("production refuses secrets in the environment at start: the App process exits 3 with SECRET_IN_ENVIRONMENT naming the file and command alternatives", async () => {
    writeFileSync(join(dir, "key.pem"), appKeys().privateKeyPem);
    const cases: Record<string, string>[] = [
      { ENVELOPE_GATE_PRIVATE_KEY: "" },
      { ENVELOPE_GATE_PRIVATE_KEY: "", ENVELOPE_GATE_WEBHOOK_SECRET: "", ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS: SECRET },
    ];
    for (const extra of cases) {
      const env = processEnv(world.fake, {
        NODE_ENV: "production",
        ENVELOPE_GATE_GITHUB_API_URL: "https://api.github.invalid",
        ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "key.pem"),
        ENVELOPE_GATE_DB_PATH: join(dir, "app.sqlite"),
        ...extra,
      });
      const res = await startAppProcess(env).catch((err: { code: number; output: string }) => err);
      expect(res, JSON.stringify(extra)).toMatchObject({ code: 3 });
      expect((res as { output: string }).output).toMatch(
        /envelope-gate app start: configuration error \(SECRET_IN_ENVIRONMENT\): .*ENVELOPE_GATE_WEBHOOK_SECRET/,
      );
      expect((res as { output: string }).output).toContain("ENVELOPE_GATE_WEBHOOK_SECRET_FILE");
      expect((res as { output: string }).output).toContain("ENVELOPE_GATE_SECRET_COMMAND");
    }
    // And as the unit: each inline variable is refused in production, accepted outside it.
    const files = { ENVELOPE_GATE_APP_ID: "1", ENVELOPE_GATE_PRIVATE_KEY_PATH: join(dir, "key.pem") };
    for (const name of INLINE_NAMES) {
      const inline = name === "ENVELOPE_GATE_PRIVATE_KEY" ? { ENVELOPE_GATE_PRIVATE_KEY_PATH: "" } : {};
      const value = name === "ENVELOPE_GATE_PRIVATE_KEY" ? appKeys().privateKeyPem : SECRET;
      const env = { ...files, ENVELOPE_GATE_WEBHOOK_SECRET: SECRET, ...inline, [name]: value };
      expect(() => loadConfig({ ...env, NODE_ENV: "production" }), name).toThrow(
        expect.objectContaining({ code: "SECRET_IN_ENVIRONMENT", message: expect.stringContaining(name) }),
      );
      const scrubbed: NodeJS.ProcessEnv = { ...env };
      expect(loadConfig(scrubbed).appId).toBe("1");
      for (const gone of INLINE_NAMES) expect(scrubbed[gone], gone).toBeUndefined();
    }
  });
});
