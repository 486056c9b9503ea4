import pg from "pg";
import type { SqlDb, SqlTx } from "./db.js";
import { storeUnavailable } from "./db.js";

const INT8_OID = 20;

/** `?` placeholders to `$1..$n` (our SQL never has a literal `?`). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** PostgreSQL, for several App replicas sharing one state. `schema` selects the search_path. */
export function openPostgres(connectionString: string, schema: string): SqlDb {
  if (!SCHEMA_NAME.test(schema)) throw storeUnavailable(`use schema "${schema}"`, new Error("schema names are lower-case identifiers"));
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 5_000,
    query_timeout: 15_000,
    options: `-c search_path=${schema}`,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", () => {});
  return {
    dialect: "postgres",
    async run(sql, params = []) {
      try {
        const res = await pool.query(numbered(sql), params as unknown[]);
        return res.rowCount ?? 0;
      } catch (err) {
        throw storeUnavailable("write", err);
      }
    },
    async all<T>(sql: string, params: readonly unknown[] = []) {
      try {
        const res = await pool.query(numbered(sql), params as unknown[]);
        return res.rows as T[];
      } catch (err) {
        throw storeUnavailable("read", err);
      }
    },
    async migrationTransaction(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw storeUnavailable("connect to PostgreSQL", err);
      }
      const q = async (sql: string, params: readonly unknown[] = []) => {
        try {
          return await client.query(numbered(sql), params as unknown[]);
        } catch (err) {
          throw storeUnavailable("migrate", err);
        }
      };
      try {
        await q("BEGIN");
        // One replica migrates; the others wait here, then find nothing left to do.
        await q("SELECT pg_advisory_xact_lock(727274)");
        await q(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        const tx: SqlTx = {
          run: async (sql, params) => (await q(sql, params)).rowCount ?? 0,
          all: async <T>(sql: string, params?: readonly unknown[]) => (await q(sql, params)).rows as T[],
          exec: async (sql) => {
            await q(sql);
          },
        };
        await fn(tx);
        await q("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
