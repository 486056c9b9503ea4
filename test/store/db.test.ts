import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDriverError, shellRefusal } from "../../src/store/db.js";
import { PG_URL, tempDir } from "../app/helpers.js";
import { closedPort } from "../support/fake-github.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;

async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (err) {
    return err;
  }
  return expect.unreachable("expected a throw");
}

describe("what the App's shell answers for an error around store work", () => {
  it("a bug (a TypeError, a RangeError, a SyntaxError) is INTERNAL_ERROR, never STORE_UNAVAILABLE", async () => {
    const bugs = [
      await thrown(() => (JSON.parse("null") as { a: { b: number } }).a.b),
      await thrown(() => new Date(Number("not-a-time")).toISOString()),
      await thrown(() => JSON.parse("{not json")),
      "a thrown string",
    ];
    for (const bug of bugs) {
      expect(isDriverError(bug)).toBe(false);
      expect(shellRefusal(bug, "build the status page")).toMatchObject({ code: "INTERNAL_ERROR" });
    }
    expect(shellRefusal(bugs[0], "read the delivery").message).toMatch(/^envelope-gate failed to read the delivery \(TypeError: /);
  });

  it("PostgreSQL at a port nothing listens on is STORE_UNAVAILABLE", async () => {
    const port = await closedPort();
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, connectionTimeoutMillis: 5000 });
    const err = await thrown(() => client.connect());
    expect(isDriverError(err)).toBe(true);
    expect(shellRefusal(err, "read the kill switch")).toMatchObject({ code: "STORE_UNAVAILABLE" });
  });

  it("a PostgreSQL server error (an SQLSTATE with its severity) is STORE_UNAVAILABLE", async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const err = await thrown(() => client.query("SELECT * FROM no_such_table_here"));
      expect((err as { code: string }).code).toBe("42P01");
      expect(shellRefusal(err, "read")).toMatchObject({ code: "STORE_UNAVAILABLE" });
    } finally {
      await client.end();
    }
  });

  it("SQLite busy (another writer holds the lock) and an SQLite file that cannot be opened are STORE_UNAVAILABLE", async () => {
    const path = join(tempDir(), "busy.sqlite");
    const holder = new Sqlite(path);
    const other = new Sqlite(path, { timeout: 0 });
    try {
      holder.exec("CREATE TABLE t (x INTEGER)");
      holder.exec("BEGIN IMMEDIATE");
      const busy = await thrown(() => other.exec("BEGIN IMMEDIATE"));
      expect((busy as { code: string }).code).toBe("SQLITE_BUSY");
      expect(shellRefusal(busy, "write")).toMatchObject({ code: "STORE_UNAVAILABLE" });
    } finally {
      holder.close();
      other.close();
    }
    // A file that is not a database, and a directory where the file should be: the driver's own codes.
    const notDb = join(tempDir(), "not-a-db.sqlite");
    writeFileSync(notDb, "x".repeat(4096));
    const unreadable = [
      await thrown(() => new Sqlite(notDb).pragma("journal_mode = WAL")),
      await thrown(() => new Sqlite(tempDir()).exec("CREATE TABLE t (x INTEGER)")),
    ];
    expect(unreadable.map((e) => (e as { code: string }).code)).toEqual(["SQLITE_NOTADB", "SQLITE_CANTOPEN"]);
    for (const err of unreadable) expect(shellRefusal(err, "open")).toMatchObject({ code: "STORE_UNAVAILABLE" });
  });
});
