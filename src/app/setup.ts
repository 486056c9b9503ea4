/**
 * `envelope-gate app setup`: GitHub's App manifest flow, end to end
 * (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest).
 * A local page posts the App's manifest (src/core/manifest.ts, the one app.yml mirrors) to
 * GitHub with a random single-use state; GitHub creates the App and redirects the browser back
 * to this server with a code and that state; the code is converted into the App's id, private
 * key and webhook secret, which are written as 0600 files beside an env file naming them. The
 * secrets are never printed, and no existing file is overwritten.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { lstat, mkdir, open } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { errnoOf, Refusal } from "../core/errors.js";
import { appManifest } from "../core/manifest.js";
import { convertManifestCode, type ConvertedApp } from "../github/app-manifest.js";

export const SETUP_FILES = { privateKey: "private-key.pem", webhookSecret: "webhook-secret", env: "envelope-gate.env" } as const;

export interface SetupOptions {
  /** The App's name: global on GitHub, so no other App may have it. */
  name: string;
  /** Where GitHub sends the App's webhooks (the App's public /webhook). */
  webhookUrl: string;
  /** Register under this organization; null: the signed-in user's account. */
  org: string | null;
  /** GitHub's web host (https://github.com, or a GitHub Enterprise Server's). */
  githubUrl: string;
  /** GitHub's REST API (https://api.github.com, or https://HOST/api/v3). */
  apiUrl: string;
  /** Where the key, the secret and the env file are written. */
  dir: string;
  /** The local port the page and the redirect are served on (0: any free port). */
  port: number;
}

export interface SetupResult {
  app: Omit<ConvertedApp, "pem" | "webhookSecret">;
  files: { privateKey: string; webhookSecret: string; env: string };
}

/** GitHub's web host's default API: api.github.com for github.com, /api/v3 on an Enterprise Server. */
export function defaultApiUrl(githubUrl: string): string {
  const web = new URL(githubUrl);
  return web.hostname === "github.com" ? "https://api.github.com" : `${web.origin}/api/v3`;
}

/** Characters an env file line cannot carry as-is for systemd, Compose and node --env-file alike. */
const UNSAFE_IN_ENV_FILE = /[\n\r"'`$\\#]/;

function filesIn(dir: string): SetupResult["files"] {
  const root = resolve(dir);
  if (UNSAFE_IN_ENV_FILE.test(root)) {
    throw new Refusal("CONFIG_INVALID", `--dir ${JSON.stringify(root)} has a character an env file cannot carry unquoted`);
  }
  return {
    privateKey: join(root, SETUP_FILES.privateKey),
    webhookSecret: join(root, SETUP_FILES.webhookSecret),
    env: join(root, SETUP_FILES.env),
  };
}

const FILES_HINT =
  "Choose another --dir, or move the files away if they belong to no App you keep: an App's key and secret are never overwritten.";

async function refuseExisting(files: SetupResult["files"]): Promise<void> {
  const present: string[] = [];
  for (const file of Object.values(files)) {
    try {
      await lstat(file);
      present.push(file);
    } catch (err) {
      if (errnoOf(err) !== "ENOENT") throw new Refusal("CONFIG_INVALID", `cannot look at ${file} (${errnoOf(err) ?? String(err)})`);
    }
  }
  if (present.length > 0)
    throw new Refusal("APP_SETUP_FILES_EXIST", `app setup does not overwrite ${present.join(", ")}`, { hint: FILES_HINT });
}

async function writeNew(file: string, text: string): Promise<void> {
  try {
    // O_EXCL never follows a link; the mode is set on the open file, not on a path that could be swapped.
    const handle = await open(file, "wx", 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (errnoOf(err) === "EEXIST") throw new Refusal("APP_SETUP_FILES_EXIST", `app setup does not overwrite ${file}`, { hint: FILES_HINT });
    throw new Refusal("CONFIG_INVALID", `cannot write ${file} (${errnoOf(err) ?? String(err)})`, { cause: err });
  }
}

function envFileText(app: ConvertedApp, files: SetupResult["files"], apiUrl: string): string {
  return [
    `# The GitHub App "${app.name.replace(/[\r\n]/g, " ")}" (${app.htmlUrl}), registered by envelope-gate app setup.`,
    "# For node --env-file, systemd's EnvironmentFile= and Compose's env_file. No secrets here: the two files hold them.",
    `ENVELOPE_GATE_APP_ID=${app.id}`,
    `ENVELOPE_GATE_PRIVATE_KEY_PATH=${files.privateKey}`,
    `ENVELOPE_GATE_WEBHOOK_SECRET_FILE=${files.webhookSecret}`,
    ...(apiUrl === "https://api.github.com" ? [] : [`ENVELOPE_GATE_GITHUB_API_URL=${apiUrl}`]),
    "",
  ].join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *",
    "referrer-policy": "no-referrer",
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}</style></head>` +
      `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  );
}

function sameState(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The App GitHub converted must be the one this setup's form asked for: owned by `--org`, or by a
 * user without it. A code from an App someone else registered (and redirected here with a stolen
 * state) is refused, never written as ours. Null when it matches; else why not.
 */
export function ownerMismatch(app: Pick<ConvertedApp, "htmlUrl" | "owner">, org: string | null): string | null {
  if (org !== null) {
    return app.owner.login.toLowerCase() === org.toLowerCase()
      ? null
      : `GitHub converted the App ${app.htmlUrl}, owned by ${app.owner.login}, not by the organization ${org} this setup registers for`;
  }
  return app.owner.type === "User"
    ? null
    : `GitHub converted the App ${app.htmlUrl}, owned by the ${app.owner.type.toLowerCase()} ${app.owner.login}, not by a personal account (this setup ran without --org)`;
}

/** Where the form posts: the user's settings, or the organization's. */
function newAppUrl(options: SetupOptions, state: string): string {
  const web = options.githubUrl.replace(/\/+$/, "");
  const path = options.org === null ? "/settings/apps/new" : `/organizations/${encodeURIComponent(options.org)}/settings/apps/new`;
  return `${web}${path}?state=${encodeURIComponent(state)}`;
}

/**
 * Runs the manifest flow. `listening` is told the page's URL once the server listens; the
 * promise settles when GitHub's redirect has been handled (the files written), or with the
 * refusal that ended it. `signal` stops the wait (nothing is written).
 */
export async function appSetup(options: SetupOptions, listening: (url: string) => void, signal?: AbortSignal): Promise<SetupResult | null> {
  const files = filesIn(options.dir);
  await refuseExisting(files);
  const state = randomBytes(32).toString("hex");
  let stateUsed = false;
  let settle!: { done: (r: SetupResult | null) => void; fail: (err: unknown) => void };
  const finished = new Promise<SetupResult | null>((done, fail) => (settle = { done, fail }));
  let base = "";
  let ownHosts = (): string[] => [];

  const callback = async (url: URL, res: ServerResponse): Promise<void> => {
    // Another page (or a stale tab) cannot end the setup: its redirect is answered and the setup
    // goes on waiting for the one that carries this form's state.
    if (stateUsed || !sameState(url.searchParams.get("state"), state)) {
      return page(
        res,
        400,
        "Not this setup's redirect",
        "<p>APP_SETUP_STATE_MISMATCH: the state does not match the form this setup served (it is good once). Nothing was converted or written; the setup is still waiting for its own form.</p>",
      );
    }
    stateUsed = true;
    const code = url.searchParams.get("code");
    if (code === null || !/^[A-Za-z0-9_-]{1,200}$/.test(code)) {
      page(res, 400, "No code from GitHub", "<p>GitHub's redirect carried no code. Nothing was written.</p>");
      throw new Refusal("APP_SETUP_CONVERSION_FAILED", "GitHub's redirect carried no code (or a malformed one) to convert");
    }
    let app: ConvertedApp;
    try {
      app = await convertManifestCode(options.apiUrl, code);
    } catch (err) {
      page(res, 502, "GitHub did not convert the code", `<p>${escapeHtml((err as Error).message)}</p><p>Nothing was written.</p>`);
      throw err;
    }
    const owner = ownerMismatch(app, options.org);
    if (owner !== null) {
      page(res, 403, "Not the App this setup asked for", `<p>${escapeHtml(owner)}</p><p>Nothing was written.</p>`);
      throw new Refusal("APP_SETUP_OWNER_MISMATCH", owner, {
        hint: "Delete that App on its settings page if it is yours, then run `envelope-gate app setup` again and submit its form yourself.",
      });
    }
    if (app.webhookSecret === null) {
      page(res, 502, "No webhook secret", "<p>GitHub's answer has no webhook secret. Nothing was written.</p>");
      throw new Refusal("APP_SETUP_CONVERSION_FAILED", `GitHub created the App ${app.htmlUrl} but answered no webhook secret`);
    }
    await mkdir(resolve(options.dir), { recursive: true, mode: 0o700 });
    await writeNew(files.privateKey, app.pem.endsWith("\n") ? app.pem : `${app.pem}\n`);
    await writeNew(files.webhookSecret, `${app.webhookSecret}\n`);
    await writeNew(files.env, envFileText(app, files, options.apiUrl));
    const install = `${app.htmlUrl.replace(/\/+$/, "")}/installations/new`;
    page(
      res,
      200,
      `The App ${app.name} is registered`,
      `<p>Its id is ${app.id}. Its private key, webhook secret and env file are in ${escapeHtml(resolve(options.dir))}.</p>` +
        `<p>Next: <a href="${escapeHtml(install)}">install it</a> on the repositories that run the gate. You can close this tab.</p>`,
    );
    const { pem: _pem, webhookSecret: _secret, ...shown } = app;
    settle.done({ app: shown, files });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only this machine's browser, by this address: a page elsewhere that rebinds its own name to
    // 127.0.0.1 sends its own Host and gets nothing (not the form, not its state).
    if (!ownHosts().includes(req.headers.host ?? "")) {
      return page(res, 421, "Wrong address", "<p>Open this setup at the address it printed.</p>");
    }
    const url = new URL(req.url ?? "/", base);
    if (req.method === "GET" && url.pathname === "/") {
      const manifest = JSON.stringify({
        ...appManifest(new URL(options.webhookUrl).origin, options.name),
        hook_attributes: { url: options.webhookUrl, active: true },
        redirect_url: `${base}/callback`,
      });
      const where = options.org === null ? "your personal account" : `the organization ${escapeHtml(options.org)}`;
      return page(
        res,
        200,
        "Register the envelope-gate App",
        `<p>This registers the GitHub App <b>${escapeHtml(options.name)}</b> on ${where}, with exactly the permissions and events app.yml lists. ` +
          `App names are global on GitHub: if another App has this name, GitHub says so and you can change it on its page.</p>` +
          `<p>Webhooks go to <code>${escapeHtml(options.webhookUrl)}</code>.</p>` +
          `<form method="post" action="${escapeHtml(newAppUrl(options, state))}">` +
          `<input type="hidden" name="manifest" value="${escapeHtml(manifest)}">` +
          `<button type="submit">Create the App on GitHub</button></form>`,
      );
    }
    if (req.method === "GET" && url.pathname === "/callback") return callback(url, res);
    page(res, 404, "Not found", "<p>This setup serves / and GitHub's redirect only.</p>");
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) page(res, 500, "Setup failed", `<p>${escapeHtml(String((err as Error)?.message ?? err))}</p>`);
      settle.fail(err);
    });
  });
  await new Promise<void>((ready, refuse) => {
    server.once("error", (err) =>
      refuse(
        new Refusal(
          "CONFIG_INVALID",
          `app setup cannot listen on 127.0.0.1:${options.port} (${errnoOf(err) ?? String(err)}): choose another --port`,
        ),
      ),
    );
    server.listen(options.port, "127.0.0.1", () => ready());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  ownHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const stop = () => settle.done(null);
  signal?.addEventListener("abort", stop, { once: true });
  listening(`${base}/`);
  try {
    return await finished;
  } finally {
    signal?.removeEventListener("abort", stop);
    // The last page is answered already; a connection still active finishes its request first.
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    await closed;
  }
}
