import { resolve } from "node:path";
import { Refusal } from "../core/errors.js";
import { openPostgres } from "./postgres.js";
import { openSqlite } from "./sqlite.js";
import { Store } from "./store.js";

export { Store } from "./store.js";
export type * from "./store.js";
export type * from "./runs.js";
export type * from "./envelope-prs.js";
export type * from "./verified-heads.js";
export type * from "./gated-pulls.js";
export type * from "./org-ceilings.js";

export interface StoreSettings {
  /** PostgreSQL connection string; when set, PostgreSQL is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema (search_path); default `public`. */
  pgSchema?: string | undefined;
  /** SQLite file, used when no databaseUrl is set. */
  sqlitePath: string;
}

export const DEFAULT_SQLITE_PATH = ".data/envelope-gate-app.sqlite";

export function storeSettingsFromEnv(env: NodeJS.ProcessEnv): StoreSettings {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  return {
    databaseUrl,
    pgSchema: env.ENVELOPE_GATE_PG_SCHEMA?.trim() || "public",
    sqlitePath: resolve(env.ENVELOPE_GATE_DB_PATH?.trim() || DEFAULT_SQLITE_PATH),
  };
}

export function describeStore(settings: StoreSettings): string {
  if (settings.databaseUrl) {
    let where: string;
    try {
      const u = new URL(settings.databaseUrl);
      where = `PostgreSQL ${u.hostname}:${u.port || "5432"}${u.pathname}`;
    } catch {
      where = "PostgreSQL (unparsable DATABASE_URL)";
    }
    return `${where} schema ${settings.pgSchema ?? "public"}`;
  }
  return `SQLite ${settings.sqlitePath}`;
}

/**
 * The store as the App's web pages (/status, /healthz) name it: the backend and, for PostgreSQL,
 * the database and schema. Never a file path, host or credential: those are for the operator's
 * own CLI (describeStore).
 */
export function publicStoreLabel(settings: StoreSettings): string {
  if (!settings.databaseUrl) return "SQLite";
  let database = "";
  try {
    database = decodeURIComponent(new URL(settings.databaseUrl).pathname.replace(/^\//, ""));
  } catch {
    // An unparsable DATABASE_URL is refused when the store opens; the label names no database.
  }
  return `PostgreSQL${database ? ` database ${database}` : ""} schema ${settings.pgSchema ?? "public"}`;
}

/** Opens the configured backend and applies pending migrations. */
export async function openStore(settings: StoreSettings, now: number): Promise<Store> {
  if (settings.databaseUrl) {
    try {
      new URL(settings.databaseUrl);
    } catch {
      throw new Refusal("CONFIG_INVALID", "DATABASE_URL is not a URL (postgres://user@host:port/database)");
    }
  }
  const db = settings.databaseUrl
    ? openPostgres(settings.databaseUrl, settings.pgSchema ?? "public")
    : await openSqlite(settings.sqlitePath);
  const store = new Store(db);
  try {
    await store.migrate(now);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return store;
}
