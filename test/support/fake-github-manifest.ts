/**
 * GitHub's App manifest flow for the fake: a tiny "github.com" web server that takes the form
 * POST (`/settings/apps/new` or `/organizations/ORG/settings/apps/new`, `manifest` as JSON,
 * `state` in the query), checks the manifest, creates the App and redirects the browser to the
 * manifest's `redirect_url` with `code` and `state`, as GitHub does; and the API's
 * `POST /app-manifests/{code}/conversions` on the fake GitHub (fake-github.ts), which answers
 * the App's id, key and webhook secret once per code (404 for an unknown or used code, 422 for
 * one marked expired, as GitHub answers).
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { appJson, userJson } from "./fake-shapes.js";
import { generateAppKeys, type AppKeys } from "./fake-github-app.js";
import type { FakeGitHub } from "./fake-github.js";

export interface ManifestSubmission {
  /** The form's path: whose settings the App was created under. */
  path: string;
  state: string | null;
  manifest: Record<string, unknown>;
}

export interface RegisteredApp {
  id: number;
  slug: string;
  code: string;
  keys: AppKeys;
  webhookSecret: string;
  manifest: Record<string, unknown>;
  /** Whose settings page created it: the organization in the form's path, else the signed-in user. */
  owner: { login: string; type: "Organization" | "User" };
  converted: boolean;
  expired: boolean;
}

export class FakeGitHubWeb {
  readonly submissions: ManifestSubmission[] = [];
  readonly apps: RegisteredApp[] = [];
  private server: Server | null = null;
  private port = 0;

  constructor(private readonly api: FakeGitHub) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    installManifestRoutes(this.api, this.apps);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", this.url);
        const form = /^\/(?:organizations\/[A-Za-z0-9-]+\/)?settings\/apps\/new$/.test(url.pathname);
        if (req.method !== "POST" || !form) {
          res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
          return;
        }
        const fields = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        let manifest: Record<string, unknown>;
        try {
          manifest = JSON.parse(fields.get("manifest") ?? "") as Record<string, unknown>;
        } catch {
          res.writeHead(422, { "content-type": "text/plain" }).end("Invalid GitHub App configuration: the manifest is not JSON");
          return;
        }
        const state = url.searchParams.get("state");
        this.submissions.push({ path: url.pathname, state, manifest });
        const redirect = manifest.redirect_url;
        const hook = (manifest.hook_attributes as { url?: unknown } | undefined)?.url;
        if (typeof manifest.name !== "string" || typeof redirect !== "string" || typeof hook !== "string") {
          res
            .writeHead(422, { "content-type": "text/plain" })
            .end("Invalid GitHub App configuration: name, hook_attributes.url and redirect_url");
          return;
        }
        const slug = manifest.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
        const org = /^\/organizations\/([^/]+)\//.exec(url.pathname)?.[1];
        const app: RegisteredApp = {
          id: this.api.nextId(),
          slug,
          code: randomBytes(10).toString("hex"),
          keys: generateAppKeys(),
          webhookSecret: randomBytes(20).toString("hex"),
          manifest,
          owner: org === undefined ? { login: "octocat", type: "User" } : { login: org, type: "Organization" },
          converted: false,
          expired: false,
        };
        this.apps.push(app);
        const to = new URL(redirect);
        to.searchParams.set("code", app.code);
        if (state !== null) to.searchParams.set("state", state);
        res.writeHead(302, { location: to.toString() }).end();
      });
    });
    await new Promise<void>((ready) => this.server?.listen(0, "127.0.0.1", () => ready()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
}

/** POST /app-manifests/{code}/conversions on the fake API, for the apps the web side created. */
export function installManifestRoutes(fake: FakeGitHub, apps: RegisteredApp[]): void {
  fake.route("POST", "/app-manifests/:code/conversions", (req) => {
    const app = apps.find((a) => a.code === req.params.code);
    if (app === undefined || app.converted) return { status: 404, body: { message: "Not Found" } };
    if (app.expired) return { status: 422, body: { message: "The code has expired" } };
    app.converted = true;
    return {
      status: 201,
      body: {
        ...appJson({ id: app.id, slug: app.slug, name: String(app.manifest.name), owner: app.owner.login }, req.baseUrl),
        owner: userJson(app.owner, req.baseUrl),
        client_id: `Iv1.${app.code.slice(0, 16)}`,
        client_secret: randomBytes(20).toString("hex"),
        webhook_secret: app.webhookSecret,
        pem: app.keys.privateKeyPem,
      },
    };
  });
}

export async function startFakeGitHubWeb(api: FakeGitHub): Promise<FakeGitHubWeb> {
  return new FakeGitHubWeb(api).start();
}
