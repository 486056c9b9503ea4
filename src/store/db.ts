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
