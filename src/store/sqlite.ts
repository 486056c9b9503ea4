import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import type { SqlDb, SqlTx } from "./db.js";
import { storeUnavailable } from "./db.js";

function bindable(params: readonly unknown[]): unknown[] {
  return params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p === undefined ? null : p));
}

/** The binding, through a plain require at call time: the bundler would hoist an import to the top. */
function loadBetterSqlite(): typeof Database {
  const moduleName = "better-sqlite3";
  return createRequire(import.meta.url)(moduleName) as typeof Database;
}

/**
 * SQLite in one file (WAL), for a single App process. The native binding is loaded here, when
 * the App opens its store, so the CLI's other commands (run, check) need no node_modules.
 */
export async function openSqlite(path: string): Promise<SqlDb> {
  let db: Database.Database;
  try {
    const Database = loadBetterSqlite();
    // One level only: the default `.data/` is created, a mistyped deep path is an error.
    if (path !== ":memory:" && !existsSync(dirname(path))) mkdirSync(dirname(path));
    db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
  } catch (err) {
    throw storeUnavailable(`open the SQLite file ${path}`, err);
  }
  const run = async (sql: string, params: readonly unknown[] = []): Promise<number> => {
    try {
      return db.prepare(sql).run(...bindable(params)).changes;
    } catch (err) {
      throw storeUnavailable("write", err);
    }
  };
  const all = async <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
    try {
      return db.prepare(sql).all(...bindable(params)) as T[];
    } catch (err) {
      throw storeUnavailable("read", err);
    }
  };
  return {
    dialect: "sqlite",
    run,
    all,
    async migrationTransaction(fn) {
      try {
        db.exec("BEGIN IMMEDIATE");
      } catch (err) {
        throw storeUnavailable("lock the schema for migration", err);
      }
      const tx: SqlTx = {
        run,
        all,
        async exec(sql) {
          try {
            db.exec(sql);
          } catch (err) {
            throw storeUnavailable("migrate", err);
          }
        },
      };
      try {
        await fn(tx);
        db.exec("COMMIT");
      } catch (err) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw err;
      }
    },
    async close() {
      db.close();
    },
  };
}
