import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { APP_SETTINGS } from "../../src/app/settings.js";
import { REPO_ROOT } from "../support/fixtures.js";

/** deploy/compose.yaml as Compose reads it: the App, PostgreSQL, their volumes and secrets. */
interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string> | string[];
  env_file?: string | string[];
  secrets?: (string | { source: string })[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  secrets?: Record<string, { file?: string; environment?: string }>;
}

const DEPLOY = join(REPO_ROOT, "deploy");
const COMPOSE = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8")) as Compose;
const INIT = readFileSync(join(DEPLOY, "postgres-init.sh"), "utf8");

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

const secretNames = (service: Service) => (service.secrets ?? []).map((s) => (typeof s === "string" ? s : s.source));

/** Every variable naming a file under /run/secrets names one of the service's own Compose secrets, each a file. */
function expectSecretsAreFiles(service: Service): void {
  for (const [name, value] of Object.entries(environment(service))) {
    const m = /^\/run\/secrets\/(.+)$/.exec(value);
    if (!m) continue;
    expect(secretNames(service), name).toContain(m[1]);
    expect(COMPOSE.secrets?.[m[1] as string], `secret ${m[1]}`).toEqual({ file: `secrets/${m[1]}` });
  }
}

describe("deploy/compose.yaml", () => {
  const app = COMPOSE.services["envelope-gate"] as Service;
  const db = COMPOSE.services.postgres as Service;

  it("the App's environment names only variables `app start` reads; its secrets are Compose secret files, never values", () => {
    const known = new Set<string>(APP_SETTINGS.map((s) => s.name));
    const env = environment(app);
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
    for (const name of [
      "ENVELOPE_GATE_PRIVATE_KEY",
      "ENVELOPE_GATE_WEBHOOK_SECRET",
      "ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS",
      "DATABASE_URL",
    ]) {
      expect(env, name).not.toHaveProperty(name);
    }
    expect(env).toMatchObject({
      ENVELOPE_GATE_PRIVATE_KEY_PATH: "/run/secrets/private-key.pem",
      ENVELOPE_GATE_WEBHOOK_SECRET_FILE: "/run/secrets/webhook-secret",
    });
    expectSecretsAreFiles(app);
    // No secret is taken from the environment of whoever runs compose.
    for (const secret of Object.values(COMPOSE.secrets ?? {})) expect(secret.environment).toBeUndefined();
  });

  it("PostgreSQL 16 with a named volume and a health check; the App starts once it is healthy; its password is a secret file", () => {
    expect(db.image).toMatch(/^postgres:16(\.\d+)?(-[a-z]+)?(@sha256:[0-9a-f]{64})?$/);
    const data = (db.volumes ?? []).find((v) => v.endsWith(":/var/lib/postgresql/data"));
    expect(data).toBeDefined();
    expect(COMPOSE.volumes).toHaveProperty((data as string).split(":")[0] as string);
    expect(db.healthcheck?.test[0]).toBe("CMD");
    expect(db.healthcheck?.test).toContain("pg_isready");
    expect(app.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    const env = environment(db);
    expect(env).not.toHaveProperty("POSTGRES_PASSWORD");
    expect(env.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres-password");
    expectSecretsAreFiles(db);
  });

  it("the setup runs deploy/postgres-setup.sql for the role and database the App's DATABASE_URL names, with the role's password from a secret file", () => {
    const mounts = db.volumes ?? [];
    expect(mounts).toContain("./postgres-setup.sql:/opt/envelope-gate/postgres-setup.sql:ro");
    expect(mounts).toContain("./postgres-init.sh:/docker-entrypoint-initdb.d/envelope-gate.sh:ro");
    expect(INIT).toContain("-f /opt/envelope-gate/postgres-setup.sql");
    expect(INIT).toContain('password="$(cat /run/secrets/postgres-app-password)"');
    expect(secretNames(db)).toContain("postgres-app-password");
    const role = /-v role=(\w+)/.exec(INIT)?.[1];
    const database = /-v database=(\w+)/.exec(INIT)?.[1];
    // The DATABASE_URL the compose file's header and the shipped settings example tell the operator to write.
    const compose = readFileSync(join(DEPLOY, "compose.yaml"), "utf8");
    const example = readFileSync(join(DEPLOY, "envelope-gate.env.example"), "utf8");
    for (const text of [compose, example]) {
      const url = /DATABASE_URL=(postgres:\/\/\S+)/.exec(text)?.[1] as string;
      const u = new URL(url.replace("<password>", "x"));
      expect(u.username).toBe(role);
      expect(u.pathname).toBe(`/${database}`);
    }
    expect(db.healthcheck?.test).toEqual(expect.arrayContaining([role, database]));
  });
});
