import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openStore } from "../../src/store/index.js";
import { PG_URL } from "../app/helpers.js";
import { REPO_ROOT } from "../support/fixtures.js";

/**
 * deploy/postgres-setup.sql, run with psql as an operator would, against the real PostgreSQL
 * (trust authentication here: the password is set, not checked). Then the App migrates as the
 * role it made, and the role is shown unable to do what it must not.
 */
const SCRIPT = join(REPO_ROOT, "deploy", "postgres-setup.sql");
const ADMIN = new URL(PG_URL);
const suffix = randomUUID().replace(/-/g, "").slice(0, 12);
const ROLE = `eg_setup_role_${suffix}`;
const DATABASE = `eg_setup_db_${suffix}`;
const OTHER = `eg_setup_other_${suffix}`;

function urlFor(user: string, database: string, password?: string): string {
  const u = new URL(PG_URL);
  u.username = user;
  u.password = password ?? "";
  u.pathname = `/${database}`;
  return u.toString();
}

async function asRole<T>(user: string, database: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor(user, database, "a-password"), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function sqlState(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
  return "succeeded";
}

describe("deploy/postgres-setup.sql", () => {
  let psql: ReturnType<typeof spawnSync> | null = null;
  beforeAll(() => {
    const admin = `host=${ADMIN.hostname} port=${ADMIN.port || "5432"} user=${decodeURIComponent(ADMIN.username)} dbname=postgres`;
    psql = spawnSync(
      "psql",
      [admin, "-X", "-q", "-v", `role=${ROLE}`, "-v", `database=${DATABASE}`, "-v", "password=a-password", "-f", SCRIPT],
      {
        encoding: "utf8",
      },
    );
  });
  afterAll(async () => {
    await asRole(decodeURIComponent(ADMIN.username) || "postgres", "postgres", async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${ROLE}`);
      await c.query(`DROP ROLE IF EXISTS ${OTHER}`);
    });
  });

  it("runs with psql, as the documented command line does", () => {
    if (psql?.error) throw psql.error;
    expect(psql?.stderr).toBe("");
    expect(psql?.status).toBe(0);
  });

  it("the App migrates as the role it made, in public and in a schema of its own; starting again applies nothing", async () => {
    const url = urlFor(ROLE, DATABASE, "a-password");
    for (const schema of ["public", "envelope_gate"]) {
      const store = await openStore({ databaseUrl: url, pgSchema: schema, sqlitePath: "unused" }, Date.now());
      await store.close();
      const again = await openStore({ databaseUrl: url, pgSchema: schema, sqlitePath: "unused" }, Date.now());
      expect(await again.migrate(Date.now())).toEqual([]);
      await again.close();
    }
    const tables = await asRole(
      ROLE,
      DATABASE,
      async (c) =>
        (
          await c.query<{ schemaname: string; owner: string; n: string }>(
            "SELECT schemaname, tableowner AS owner, count(*) AS n FROM pg_tables WHERE schemaname IN ('public', 'envelope_gate') GROUP BY 1, 2 ORDER BY 1",
          )
        ).rows,
    );
    expect(tables.map((t) => [t.schemaname, t.owner])).toEqual([
      ["envelope_gate", ROLE],
      ["public", ROLE],
    ]);
    const versions = await asRole(
      ROLE,
      DATABASE,
      async (c) => (await c.query("SELECT max(version) AS v FROM public.schema_migrations")).rows,
    );
    expect(Number(versions[0]?.v)).toBe(MIGRATIONS.at(-1)?.version);
  });

  it("the role is no superuser and cannot create a database or a role; another role cannot even connect to its database", async () => {
    const attrs = await asRole(ROLE, DATABASE, async (c) => {
      const row = (
        await c.query(
          "SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = current_user",
        )
      ).rows[0] as Record<string, boolean>;
      return {
        row,
        createDatabase: await sqlState(c.query(`CREATE DATABASE ${DATABASE}_more`)),
        createRole: await sqlState(c.query(`CREATE ROLE ${ROLE}_more`)),
      };
    });
    expect(attrs.row).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false, rolbypassrls: false });
    // 42501: insufficient_privilege.
    expect(attrs.createDatabase).toBe("42501");
    expect(attrs.createRole).toBe("42501");

    await asRole(decodeURIComponent(ADMIN.username) || "postgres", "postgres", (c) => c.query(`CREATE ROLE ${OTHER} LOGIN`));
    expect(await sqlState(asRole(OTHER, DATABASE, (c) => c.query("SELECT 1")))).toBe("42501");
  });
});
