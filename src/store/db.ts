import { errnoOf, Refusal } from "../core/errors.js";

/** The two SQL backends behind one small surface. SQL is written once with `?` placeholders. */
export interface SqlDb {
  readonly dialect: "sqlite" | "postgres";
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs `fn` inside one transaction holding the migration lock. */
  migrationTransaction(fn: (tx: SqlTx) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export interface SqlTx {
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

export function storeUnavailable(what: string, err: unknown): Refusal {
  if (err instanceof Refusal) return err;
  const detail = err instanceof Error ? `${errnoOf(err) ?? err.name}: ${err.message}` : String(err);
  return new Refusal("STORE_UNAVAILABLE", `the App's store could not ${what} (${detail})`, {
    cause: err,
    hint: "Nothing was decided or sent. Bring the database back; GitHub's redelivery or the sweeper picks the work up again.",
  });
}

/** Node's errnos for a database server that cannot be reached or went away mid-conversation. */
const CONNECTION_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/**
 * An error a database driver threw: better-sqlite3's `SQLITE_*` codes, a PostgreSQL server error
 * (a five-character SQLSTATE with its severity), or the connection to the server failing.
 */
export function isDriverError(err: unknown): boolean {
  const code = errnoOf(err);
  if (code === undefined || !(err instanceof Error)) return false;
  if (code.startsWith("SQLITE_") || CONNECTION_ERRNOS.has(code)) return true;
  return /^[0-9A-Z]{5}$/.test(code) && typeof (err as { severity?: unknown }).severity === "string";
}

/**
 * What the App's shell answers for an error it caught around store work (health, the status page,
 * a delivery's status, recording a webhook): a refusal as it is; a driver's error (which the store
 * wraps in STORE_UNAVAILABLE itself, so this is a second net) STORE_UNAVAILABLE; anything else is
 * a bug in envelope-gate, INTERNAL_ERROR, never read as a store outage.
 */
export function shellRefusal(err: unknown, what: string): Refusal {
  if (err instanceof Refusal) return err;
  if (isDriverError(err)) return storeUnavailable(what, err);
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new Refusal("INTERNAL_ERROR", `envelope-gate failed to ${what} (${detail})`, { cause: err });
}
