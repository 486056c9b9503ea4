import { spawn, spawnSync } from "node:child_process";
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { errnoOf, Refusal } from "../core/errors.js";
import { parsePrivateKey } from "../github/app-jwt.js";
import { settingValue } from "./settings.js";

/**
 * The App's two secrets, read when they are used rather than kept in the environment
 * (docs/app.md, *Secrets*): the private key each time a JWT is signed, the webhook secrets at
 * each verification. Each comes from a file, from the secret-manager command, or (outside
 * production only) from the environment; at start every secret-bearing variable is removed
 * from `process.env`, so nothing the App spawns inherits it.
 */

/** The name substituted for `%s` in ENVELOPE_GATE_SECRET_COMMAND. */
type SecretName = "private-key" | "webhook-secret";

export interface SecretSource {
  readonly secret: SecretName;
  readonly kind: "file" | "command" | "inline";
  /** The variable (and file) it comes from, for messages; never the value. */
  readonly origin: string;
  /** The secret now, as a fresh buffer the caller zeroes after use; SECRET_UNAVAILABLE when it cannot be had. */
  read(): Promise<Buffer>;
  /** The same, synchronously: the check at start. */
  readSync(): Buffer;
}

/** A secret is a line or a PEM: anything larger is not one (a wrong path, a device). */
const MAX_SECRET_BYTES = 64 * 1024;

/** The variables that carry a secret's value; refused in production, removed from the environment at start. */
const INLINE_SECRET_VARIABLES = [
  "ENVELOPE_GATE_PRIVATE_KEY",
  "ENVELOPE_GATE_WEBHOOK_SECRET",
  "ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS",
] as const;

function unavailable(origin: string, why: string, hint: string, cause?: unknown): Refusal {
  return new Refusal("SECRET_UNAVAILABLE", `${origin} ${why}`, cause === undefined ? { hint } : { hint, cause });
}

function checked(bytes: Buffer, origin: string, hint: string): Buffer {
  if (bytes.length > MAX_SECRET_BYTES) {
    bytes.fill(0);
    throw unavailable(origin, `is over ${MAX_SECRET_BYTES} bytes: not a secret`, hint);
  }
  if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) throw unavailable(origin, "is empty", hint);
  return bytes;
}

/**
 * Opened without blocking (a FIFO with no writer would otherwise hold the open, and a libuv
 * thread, forever) and read only if it is a regular file, at most one byte past the limit (a
 * device such as /dev/zero never ends; a huge file is not read whole).
 */
const SECRET_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Why an opened secret file is not one, or null for a regular file. */
function notAFile(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return "cannot be read (EISDIR)";
  const kind = st.isFIFO()
    ? "a FIFO"
    : st.isCharacterDevice()
      ? "a character device"
      : st.isBlockDevice()
        ? "a block device"
        : st.isSocket()
          ? "a socket"
          : "not a file";
  return `is ${kind}, not a regular file`;
}

/** A secret read from its file at every use: editing the file rotates it, no restart. */
function fileSecret(secret: SecretName, variable: string, path: string): SecretSource {
  const origin = `${variable} (${path})`;
  const hint = `Make ${path} a regular file that holds the secret and is readable by the App's user; it is read at each use, no restart needed.`;
  const cannot = (err: unknown) => unavailable(origin, `cannot be read (${errnoOf(err) ?? String(err)})`, hint, err);
  return {
    secret,
    kind: "file",
    origin,
    async read() {
      let handle;
      try {
        handle = await open(path, SECRET_OPEN_FLAGS);
      } catch (err) {
        throw cannot(err);
      }
      const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
      let n = 0;
      try {
        const why = notAFile(await handle.stat());
        if (why !== null) throw unavailable(origin, why, hint);
        for (let got = -1; got !== 0 && n < buf.length; n += got) got = (await handle.read(buf, n, buf.length - n, null)).bytesRead;
      } catch (err) {
        buf.fill(0);
        throw err instanceof Refusal ? err : cannot(err);
      } finally {
        await handle.close().catch(() => undefined);
      }
      return checked(buf.subarray(0, n), origin, hint);
    },
    readSync() {
      let fd: number;
      try {
        fd = openSync(path, SECRET_OPEN_FLAGS);
      } catch (err) {
        throw cannot(err);
      }
      const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
      let n = 0;
      try {
        const why = notAFile(fstatSync(fd));
        if (why !== null) throw unavailable(origin, why, hint);
        for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
      } catch (err) {
        buf.fill(0);
        throw err instanceof Refusal ? err : cannot(err);
      } finally {
        closeSync(fd);
      }
      return checked(buf.subarray(0, n), origin, hint);
    },
  };
}

/** A value given in the environment (outside production only); held in memory for the process's life. */
export function inlineSecret(secret: SecretName, variable: string, value: string): SecretSource {
  const bytes = Buffer.from(value, "utf8");
  return { secret, kind: "inline", origin: variable, read: async () => Buffer.from(bytes), readSync: () => Buffer.from(bytes) };
}

interface SecretCommand {
  /** argv, `%s` in any element replaced by the secret's name. */
  argv: string[];
  /** The whole environment the command gets: PATH, HOME and the variables listed in ENVELOPE_GATE_SECRET_COMMAND_ENV. */
  env: Record<string, string>;
  timeoutMs: number;
}

function lastLine(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * A secret printed on stdout by the secret-manager command, run with only `command.env`. With
 * `cacheMs` > 0 (the webhook secret) its answer is kept that long, so a delivery does not spawn
 * a process; concurrent reads share one run. A command that cannot start, exits non-zero, is
 * killed, prints nothing or runs past its timeout is SECRET_UNAVAILABLE (a cached answer is not
 * served past its time: the App fails closed).
 */
export function commandSecret(secret: SecretName, command: SecretCommand, cacheMs = 0): SecretSource {
  const argv = command.argv.map((a) => a.replaceAll("%s", secret));
  const [file, ...args] = argv as [string, ...string[]];
  const origin = `ENVELOPE_GATE_SECRET_COMMAND (${secret}: ${file})`;
  const hint = `Run the command as the App's user with only PATH, HOME and ENVELOPE_GATE_SECRET_COMMAND_ENV's variables, and fix it; it is run again at the next use, no restart needed.`;
  const failed = (why: string, cause?: unknown) => unavailable(origin, why, hint, cause);
  let cached: { bytes: Buffer; at: number } | null = null;
  let pending: Promise<Buffer> | null = null;

  const run = () =>
    new Promise<Buffer>((resolve, reject) => {
      // Its own process group, so a timeout kills what it started too.
      const child = spawn(file, args, { env: command.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      const out: Buffer[] = [];
      let size = 0;
      let stderr = "";
      let killed: string | null = null;
      const kill = (why: string) => {
        killed ??= why;
        try {
          process.kill(-(child.pid as number), "SIGKILL");
        } catch {
          // Already gone: its exit is reported by "close".
        }
        // A descendant that left the group (setsid, a daemonised agent) may still hold the pipes;
        // "close" waits for them, so they are closed here: the timeout bounds the read whatever runs on.
        child.stdout.destroy();
        child.stderr.destroy();
      };
      const timer = setTimeout(() => kill(`did not finish within ${command.timeoutMs} ms`), command.timeoutMs);
      child.stdout.on("data", (d: Buffer) => {
        size += d.length;
        if (size > MAX_SECRET_BYTES) kill(`printed over ${MAX_SECRET_BYTES} bytes`);
        else out.push(d);
      });
      child.stderr.on("data", (d: Buffer) => {
        if (stderr.length < 4096) stderr += d.toString("utf8");
      });
      child.on("error", (err) => {
        clearTimeout(timer);
        reject(failed(`could not start (${errnoOf(err) ?? String(err)})`, err));
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const bytes = Buffer.concat(out);
        for (const d of out) d.fill(0);
        if (killed !== null || code !== 0) {
          bytes.fill(0);
          const why = killed ?? (code === null ? `was killed (${signal})` : `exited ${code}`);
          const said = lastLine(stderr);
          return reject(failed(`${why}${said ? `: ${said}` : ""}`));
        }
        try {
          resolve(checked(bytes, origin, hint));
        } catch (err) {
          reject(err);
        }
      });
    });

  return {
    secret,
    kind: "command",
    origin,
    async read() {
      // Uncached (the private key): the caller gets the command's output itself, and zeroes it.
      if (cacheMs === 0) return run();
      if (cached !== null && performance.now() - cached.at < cacheMs) return Buffer.from(cached.bytes);
      pending ??= run()
        .then(
          (bytes) => {
            cached?.bytes.fill(0);
            cached = { bytes, at: performance.now() };
            return bytes;
          },
          (err: unknown) => {
            cached?.bytes.fill(0);
            cached = null;
            throw err;
          },
        )
        .finally(() => {
          pending = null;
        });
      return Buffer.from(await pending);
    },
    readSync() {
      const res = spawnSync(file, args, {
        env: command.env,
        stdio: ["ignore", "pipe", "pipe"],
        timeout: command.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: MAX_SECRET_BYTES,
      });
      if (res.error) {
        const code = errnoOf(res.error) ?? String(res.error);
        if (code === "ETIMEDOUT") throw failed(`did not finish within ${command.timeoutMs} ms`, res.error);
        if (code === "ENOBUFS") throw failed(`printed over ${MAX_SECRET_BYTES} bytes`, res.error);
        throw failed(`could not start (${code})`, res.error);
      }
      if (res.status !== 0) {
        const said = lastLine(res.stderr.toString("utf8"));
        throw failed(`${res.status === null ? `was killed (${res.signal})` : `exited ${res.status}`}${said ? `: ${said}` : ""}`);
      }
      return checked(res.stdout, origin, hint);
    },
  };
}

/**
 * The webhook secrets in a secret's bytes: one per line, the current first, then the previous
 * ones still accepted during a rotation; surrounding blanks and empty lines ignored. The
 * buffers are views of `bytes`: zeroing it zeroes them.
 */
export function secretLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  const blank = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0d;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    let a = start;
    let z = i;
    while (a < z && blank(bytes[a])) a++;
    while (z > a && blank(bytes[z - 1])) z--;
    if (z > a) lines.push(bytes.subarray(a, z));
    start = i + 1;
  }
  return lines;
}

/** What is wrong with a webhook secret's value for the App, or null. */
function webhookSecretProblem(bytes: Buffer, minLength: number): string | null {
  const lines = secretLines(bytes);
  if (lines.length === 0) return "holds no webhook secret";
  // A file of NUL bytes (left by a crash mid-write, a preallocated or zeroed file) is not a
  // secret, whatever its length: its HMAC key would be known to anyone. No secret typed into
  // GitHub's settings holds a control character.
  if (lines.some((l) => l.some((b) => (b < 0x20 && b !== 0x09) || b === 0x7f)))
    return "holds a NUL or other control character, which no webhook secret has";
  if (lines.some((l) => l.length < minLength)) return `holds a webhook secret shorter than ${minLength} characters`;
  return null;
}

/** A webhook secret source whose every read is checked as at start (a file edited to hold nothing is SECRET_UNAVAILABLE). */
function checkedWebhookSource(source: SecretSource, minLength: number): SecretSource {
  const check = (bytes: Buffer) => {
    const problem = webhookSecretProblem(bytes, minLength);
    if (problem === null) return bytes;
    bytes.fill(0);
    throw unavailable(source.origin, problem, "Put the webhook secret from the App's settings on its first line.");
  };
  return { ...source, read: async () => check(await source.read()), readSync: () => check(source.readSync()) };
}

function secretCommandFrom(env: NodeJS.ProcessEnv): SecretCommand | null {
  const raw = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND");
  if (raw === "") return null;
  let argv: unknown;
  try {
    argv = JSON.parse(raw);
  } catch {
    argv = null;
  }
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string") || argv[0] === "") {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND must be a JSON array of strings (the command's argv), got ${raw}`);
  }
  if (!argv.some((a: string) => a.includes("%s"))) {
    throw new Refusal(
      "CONFIG_INVALID",
      "ENVELOPE_GATE_SECRET_COMMAND must contain %s, where the secret's name goes (private-key, webhook-secret)",
    );
  }
  const timeout = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS");
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 300) {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS must be between 1 and 300, got "${timeout}"`);
  }
  const passed: Record<string, string> = {};
  for (const name of ["PATH", "HOME", ...commandEnvNames(env)]) {
    const value = env[name];
    if (value !== undefined) passed[name] = value;
  }
  passed.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return { argv: argv as string[], env: passed, timeoutMs: Number(timeout) * 1000 };
}

function commandEnvNames(env: NodeJS.ProcessEnv): string[] {
  const names = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND_ENV")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || (INLINE_SECRET_VARIABLES as readonly string[]).includes(name)) {
      throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND_ENV: ${name} cannot be passed to the secret command`);
    }
  }
  return names;
}

interface AppSecrets {
  privateKey: SecretSource;
  /** One webhook secret per line, the current first. */
  webhookSecrets: SecretSource;
}

const IN_ENVIRONMENT_HINT =
  "Put the secrets in files (ENVELOPE_GATE_PRIVATE_KEY_PATH, ENVELOPE_GATE_WEBHOOK_SECRET_FILE; e.g. systemd LoadCredential=, a container secret mount) or fetch them with ENVELOPE_GATE_SECRET_COMMAND; see docs/app.md, Secrets.";

/**
 * Where each secret comes from, checked now: readable, a PEM RSA key, a webhook secret (long
 * enough in production). In production a secret in the environment is refused outright
 * (SECRET_IN_ENVIRONMENT): /proc/<pid>/environ keeps the start environment readable by the
 * same user whatever process.env says afterwards. `scrubSecretEnvironment` then removes them.
 */
export function loadSecrets(env: NodeJS.ProcessEnv, production: boolean, minWebhookSecretLength: number): AppSecrets {
  const inline = INLINE_SECRET_VARIABLES.filter((name) => (env[name] ?? "").trim() !== "");
  if (production && inline.length > 0) {
    const them = inline.length > 1 ? "hold secrets" : "holds a secret";
    throw new Refusal(
      "SECRET_IN_ENVIRONMENT",
      `${inline.join(", ")} ${them} in the environment, which production refuses: /proc/<pid>/environ keeps the environment the App started with readable`,
      { hint: IN_ENVIRONMENT_HINT },
    );
  }
  const command = secretCommandFrom(env);
  const cacheS = settingValue(env, "ENVELOPE_GATE_SECRET_CACHE_SECONDS");
  if (!/^\d+$/.test(cacheS) || Number(cacheS) > 3600) {
    throw new Refusal("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_CACHE_SECONDS must be between 0 and 3600, got "${cacheS}"`);
  }

  const keyPath = settingValue(env, "ENVELOPE_GATE_PRIVATE_KEY_PATH");
  const keyInline = env.ENVELOPE_GATE_PRIVATE_KEY?.trim() ?? "";
  if (keyPath !== "" && keyInline !== "") {
    throw new Refusal("CONFIG_INVALID", "set ENVELOPE_GATE_PRIVATE_KEY_PATH or ENVELOPE_GATE_PRIVATE_KEY, not both");
  }
  let privateKey: SecretSource;
  if (keyPath !== "") privateKey = fileSecret("private-key", "ENVELOPE_GATE_PRIVATE_KEY_PATH", keyPath);
  else if (keyInline !== "") privateKey = inlineSecret("private-key", "ENVELOPE_GATE_PRIVATE_KEY", keyInline.replace(/\\n/g, "\n"));
  else if (command !== null) privateKey = commandSecret("private-key", command);
  else
    throw new Refusal(
      "CONFIG_INVALID",
      "set ENVELOPE_GATE_PRIVATE_KEY_PATH (or ENVELOPE_GATE_SECRET_COMMAND) to where the App's private key is read",
    );

  const secretFile = settingValue(env, "ENVELOPE_GATE_WEBHOOK_SECRET_FILE");
  const secretInline = inline.filter((n) => n !== "ENVELOPE_GATE_PRIVATE_KEY");
  if (secretFile !== "" && secretInline.length > 0) {
    throw new Refusal(
      "CONFIG_INVALID",
      `set ENVELOPE_GATE_WEBHOOK_SECRET_FILE or ${secretInline.join(", ")}, not both (previous secrets go on the file's later lines)`,
    );
  }
  let webhook: SecretSource;
  if (secretFile !== "") webhook = fileSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET_FILE", secretFile);
  else if (secretInline.length > 0) {
    if ((env.ENVELOPE_GATE_WEBHOOK_SECRET ?? "").trim() === "") {
      throw new Refusal("BYPASS_REFUSED", "ENVELOPE_GATE_WEBHOOK_SECRET is not set: the App never accepts unsigned webhooks", {
        hint: "Fix the environment; the App does not start in a weakened configuration.",
      });
    }
    const previous = (env.ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS ?? "").split(",");
    webhook = inlineSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET", [env.ENVELOPE_GATE_WEBHOOK_SECRET, ...previous].join("\n"));
  } else if (command !== null) webhook = commandSecret("webhook-secret", command, Number(cacheS) * 1000);
  else {
    throw new Refusal(
      "BYPASS_REFUSED",
      "no webhook secret: set ENVELOPE_GATE_WEBHOOK_SECRET_FILE (or ENVELOPE_GATE_SECRET_COMMAND); the App never accepts unsigned webhooks",
      { hint: "Fix the environment; the App does not start in a weakened configuration." },
    );
  }

  // The check at start: the App does not start with a secret it cannot use.
  const key = privateKey.readSync();
  try {
    parsePrivateKey(key, privateKey.origin);
  } finally {
    key.fill(0);
  }
  const minLength = production ? minWebhookSecretLength : 1;
  const secretBytes = webhook.readSync();
  const problem = webhookSecretProblem(secretBytes, minLength);
  secretBytes.fill(0);
  if (problem !== null) {
    throw new Refusal("BYPASS_REFUSED", `${webhook.origin} ${problem}: the App never accepts weakly signed webhooks`, {
      hint: "Fix the environment; the App does not start in a weakened configuration.",
    });
  }

  return { privateKey, webhookSecrets: checkedWebhookSource(webhook, minLength) };
}

/**
 * Removes the secret-bearing variables from `env` (process.env once the configuration is read):
 * the inline secrets and the variables passed to the secret command, which keeps its own copy.
 * Node unsets them in the process's environment too, so a child spawned later (with the
 * default, inherited environment) does not get them.
 */
export function scrubSecretEnvironment(env: NodeJS.ProcessEnv): void {
  for (const name of [...INLINE_SECRET_VARIABLES, ...commandEnvNames(env)]) {
    if (name !== "PATH" && name !== "HOME") delete env[name];
  }
}
