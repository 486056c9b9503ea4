import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Parser } from "htmlparser2";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APP_EVENTS, APP_PERMISSIONS } from "../../src/core/manifest.js";
import { closedPort, startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { startFakeGitHubWeb, type FakeGitHubWeb } from "../support/fake-github-manifest.js";
import { tempDir } from "./helpers.js";
import { CLI, startListening, type AppProcess } from "./process.js";

interface Setup {
  child: ChildProcess;
  pageUrl: string;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `envelope-gate app setup` and waits for the page URL it prints. */
function startSetup(args: string[]): Promise<Setup> {
  return new Promise((ready, refuse) => {
    const child = spawn(process.execPath, [CLI, "app", "setup", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let told = false;
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
      child.on("close", (code) => done({ code, stdout, stderr })),
    );
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /^Open (http:\/\/127\.0\.0\.1:\d+\/) /m.exec(stdout);
      if (m && !told) {
        told = true;
        ready({ child, pageUrl: m[1] as string, exited });
      }
    });
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    void exited.then((r) => {
      if (!told) refuse(Object.assign(new Error(`app setup exited ${r.code} before serving its page:\n${r.stderr}`), r));
    });
  });
}

/** The page's form: where it posts and the manifest it carries (entities decoded by the HTML parser). */
async function readForm(pageUrl: string): Promise<{ action: string; manifest: string }> {
  const html = await (await fetch(pageUrl)).text();
  let action = "";
  let manifest = "";
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name === "form") action = attribs.action ?? "";
      if (name === "input" && attribs.name === "manifest") manifest = attribs.value ?? "";
    },
  });
  parser.write(html);
  parser.end();
  return { action, manifest };
}

/** What the browser does: submit the form to GitHub, then follow GitHub's redirect back to the setup. */
async function submit(form: { action: string; manifest: string }): Promise<Response> {
  const posted = await fetch(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ manifest: form.manifest }).toString(),
    redirect: "manual",
  });
  expect(posted.status).toBe(302);
  return fetch(posted.headers.get("location") as string);
}

describe("app setup: GitHub's manifest flow end to end", () => {
  let fake: FakeGitHub;
  let web: FakeGitHubWeb;
  let app: AppProcess | null = null;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeGitHub();
    web = await startFakeGitHubWeb(fake);
  });
  afterEach(async () => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await app?.stop();
    app = null;
  });
  afterAll(async () => {
    await web.stop();
    await fake.close();
  });

  const urls = () => ["--github-url", web.url, "--api-url", fake.url];

  it("registers the App from app.yml's manifest, writes its key, secret and env file (0600), and app start comes up from them", async () => {
    const dir = join(tempDir(), "app");
    const setup = await startSetup([
      "--name",
      "envelope-gate-acme",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--org",
      "acme",
      "--dir",
      dir,
      ...urls(),
    ]);
    running.push(setup.child);
    const form = await readForm(setup.pageUrl);
    expect(form.action).toMatch(new RegExp(`^${web.url}/organizations/acme/settings/apps/new\\?state=[0-9a-f]{64}$`));
    const back = await submit(form);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("installations/new");

    const submitted = web.submissions.at(-1);
    expect(submitted?.path).toBe("/organizations/acme/settings/apps/new");
    expect(submitted?.manifest).toMatchObject({
      name: "envelope-gate-acme",
      public: false,
      hook_attributes: { url: "https://gate.example.com/webhook", active: true },
      redirect_url: `${setup.pageUrl}callback`,
      default_permissions: APP_PERMISSIONS,
      default_events: [...APP_EVENTS],
    });

    const result = await setup.exited;
    expect(result.code).toBe(0);
    const registered = web.apps.at(-1);
    if (registered === undefined) throw new Error("no App registered");
    expect(registered.converted).toBe(true);
    const key = join(dir, "private-key.pem");
    const secret = join(dir, "webhook-secret");
    const envFile = join(dir, "envelope-gate.env");
    for (const file of [key, secret, envFile]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(key, "utf8")).toBe(
      registered.keys.privateKeyPem.endsWith("\n") ? registered.keys.privateKeyPem : `${registered.keys.privateKeyPem}\n`,
    );
    expect(readFileSync(secret, "utf8")).toBe(`${registered.webhookSecret}\n`);
    const env = readFileSync(envFile, "utf8");
    expect(env).toContain(`ENVELOPE_GATE_APP_ID=${registered.id}\n`);
    expect(env).toContain(`ENVELOPE_GATE_PRIVATE_KEY_PATH=${key}\n`);
    expect(env).toContain(`ENVELOPE_GATE_WEBHOOK_SECRET_FILE=${secret}\n`);
    expect(env).toContain(`ENVELOPE_GATE_GITHUB_API_URL=${fake.url}\n`);
    // The secrets are in their files only: not on the terminal, not in the env file.
    for (const said of [result.stdout, result.stderr, env]) {
      expect(said).not.toContain(registered.webhookSecret);
      expect(said).not.toContain("PRIVATE KEY");
    }
    expect(result.stdout).toContain(`(id ${registered.id})`);

    // Node's own env-file reader takes the file as written; app start comes up from it.
    app = await startListening([process.execPath, `--env-file=${envFile}`, CLI, "app", "start"], {
      PATH: process.env.PATH,
      ENVELOPE_GATE_PORT: "0",
      ENVELOPE_GATE_DB_PATH: join(dir, "app.sqlite"),
      ENVELOPE_GATE_GITHUB_THROTTLE: "off",
    });
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("a redirect with another state is APP_SETUP_STATE_MISMATCH: nothing is converted or written, and the setup waits on for its own form", async () => {
    const dir = join(tempDir(), "app");
    const setup = await startSetup([
      "--name",
      "envelope-gate-x",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--dir",
      dir,
      ...urls(),
    ]);
    running.push(setup.child);
    const answer = await fetch(`${setup.pageUrl}callback?code=abc&state=${"0".repeat(64)}`);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("APP_SETUP_STATE_MISMATCH");
    expect(fake.requestsTo("POST", "/app-manifests/:code/conversions").filter((r) => r.path.includes("/abc/"))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    // Another page cannot end the setup: its own form still registers the App.
    const back = await submit(await readForm(setup.pageUrl));
    expect(back.status).toBe(200);
    const result = await setup.exited;
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "private-key.pem"))).toBe(true);
    expect(result.stderr).not.toContain("this is not a pass");
  });

  it("a request by another host name (a page that rebinds its name to 127.0.0.1) gets neither the form nor its state", async () => {
    const dir = join(tempDir(), "app");
    const setup = await startSetup([
      "--name",
      "envelope-gate-x",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--dir",
      dir,
      ...urls(),
    ]);
    running.push(setup.child);
    const page = new URL(setup.pageUrl);
    const asked = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request({ host: "127.0.0.1", port: page.port, path: "/", headers: { host: `rebind.example:${page.port}` } }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => done({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", fail);
      req.end();
    });
    expect(asked.status).toBe(421);
    expect(asked.body).not.toContain("state=");
    expect(asked.body).not.toContain("manifest");
    // By the address it printed, the same server serves the form.
    expect((await readForm(setup.pageUrl)).action).toContain("state=");
    setup.child.kill("SIGINT");
    await setup.exited;
    expect(existsSync(dir)).toBe(false);
  });

  it("an App owned by someone else, redirected here with this setup's state, is APP_SETUP_OWNER_MISMATCH: nothing is written", async () => {
    const dir = join(tempDir(), "app");
    const setup = await startSetup([
      "--name",
      "envelope-gate-acme",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--org",
      "acme",
      "--dir",
      dir,
      ...urls(),
    ]);
    running.push(setup.child);
    // The attacker registers an App of their own organization and keeps the code GitHub gives it.
    const theirs = await fetch(`${web.url}/organizations/evil-org/settings/apps/new`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        manifest: JSON.stringify({
          name: "evil",
          redirect_url: "https://evil.example/cb",
          hook_attributes: { url: "https://evil.example/hook" },
        }),
      }).toString(),
      redirect: "manual",
    });
    const code = new URL(theirs.headers.get("location") as string).searchParams.get("code") as string;
    // ...and reads this setup's state from its page (a local user can), then redirects it here.
    const state = new URL((await readForm(setup.pageUrl)).action).searchParams.get("state") as string;
    const answer = await fetch(`${setup.pageUrl}callback?code=${code}&state=${state}`);
    expect(answer.status).toBe(403);
    const result = await setup.exited;
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("APP_SETUP_OWNER_MISMATCH");
    expect(result.stderr).toContain("evil-org");
    expect(existsSync(join(dir, "private-key.pem"))).toBe(false);
    expect(existsSync(join(dir, "envelope-gate.env"))).toBe(false);
  });

  it("a code GitHub no longer converts (422) is APP_SETUP_CONVERSION_FAILED: nothing is written", async () => {
    const dir = join(tempDir(), "app");
    const setup = await startSetup([
      "--name",
      "envelope-gate-late",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--dir",
      dir,
      ...urls(),
    ]);
    running.push(setup.child);
    const form = await readForm(setup.pageUrl);
    const posted = await fetch(form.action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ manifest: form.manifest }).toString(),
      redirect: "manual",
    });
    const registered = web.apps.at(-1);
    if (registered === undefined) throw new Error("no App registered");
    registered.expired = true;
    const back = await fetch(posted.headers.get("location") as string);
    expect(back.status).toBe(502);
    const result = await setup.exited;
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("(APP_SETUP_CONVERSION_FAILED)");
    expect(existsSync(dir)).toBe(false);
  });

  it("GitHub's API unreachable is GITHUB_UNAVAILABLE: nothing is written", async () => {
    const dir = join(tempDir(), "app");
    const down = `http://127.0.0.1:${await closedPort()}`;
    const setup = await startSetup([
      "--name",
      "envelope-gate-down",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--dir",
      dir,
      "--github-url",
      web.url,
      "--api-url",
      down,
    ]);
    running.push(setup.child);
    const back = await submit(await readForm(setup.pageUrl));
    expect(back.status).toBe(502);
    const result = await setup.exited;
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("(GITHUB_UNAVAILABLE)");
    expect(existsSync(dir)).toBe(false);
  });

  it("an existing key file is APP_SETUP_FILES_EXIST before anything is served, and the file is left as it was", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "private-key.pem"), "kept\n");
    const refused = await startSetup([
      "--name",
      "envelope-gate-y",
      "--webhook-url",
      "https://gate.example.com/webhook",
      "--dir",
      dir,
      ...urls(),
    ]).then(
      () => null,
      (err: { code: number | null; stderr: string }) => err,
    );
    expect(refused?.code).toBe(3);
    expect(refused?.stderr).toContain("envelope-gate app setup: refused (APP_SETUP_FILES_EXIST)");
    expect(readFileSync(join(dir, "private-key.pem"), "utf8")).toBe("kept\n");
    expect(existsSync(join(dir, "envelope-gate.env"))).toBe(false);
  });

  it("without --name it is a usage error that says App names are global", async () => {
    const refused = await startSetup(["--webhook-url", "https://gate.example.com/webhook", ...urls()]).then(
      () => null,
      (err: { code: number | null; stderr: string }) => err,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain("App names are global on GitHub");
  });
});
