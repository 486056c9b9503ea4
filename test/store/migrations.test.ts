import { createRequire } from "node:module";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDb } from "../../src/store/db.js";
import { migrate, MIGRATIONS, type Migration } from "../../src/store/migrations.js";
import { openPostgres } from "../../src/store/postgres.js";
import { openSqlite } from "../../src/store/sqlite.js";
import { PG_URL, pgSchema, tempDir } from "../app/helpers.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;

/** Every way a text split on `;` and a line break cut a statement in two: a literal, a quoted name, a comment. */
const TRICKY = "a;\nb; -- not a comment\n/* nor this; */\n$$;\n$x$ 'quoted' \"too\";\n";

/** The App's migrations and one more, whose statements carry `TRICKY` in a literal, a quoted column name and comments. */
const WITH_TRICKY: readonly Migration[] = [
  ...MIGRATIONS,
  {
    version: 1000,
    name: "a test migration whose statements hold `;` and line breaks",
    statements: [
      `CREATE TABLE tricky (
  "semi;
colon" TEXT NOT NULL -- a comment; with a semicolon
)`,
      `/* a leading comment;
*/ INSERT INTO tricky ("semi;
colon") VALUES ('${TRICKY.replace(/'/g, "''")}')`,
    ],
  },
];

/** Each backend opened fresh (a new SQLite file, a new PostgreSQL schema), with what removes it. */
const backends: { name: string; open: () => Promise<{ db: SqlDb; drop: () => Promise<void> }> }[] = [
  {
    name: "SQLite",
    open: async () => ({ db: await openSqlite(join(tempDir("eg-migrations-"), "store.sqlite")), drop: async () => {} }),
  },
  {
    name: "PostgreSQL",
    open: async () => {
      const schema = await pgSchema();
      return { db: openPostgres(PG_URL, schema.schema), drop: schema.drop };
    },
  },
];

describe("the App's migrations", () => {
  it("are one statement per entry: SQLite prepares each on its own (prepare refuses two statements in one text)", () => {
    const db = new Sqlite(":memory:");
    try {
      for (const m of MIGRATIONS) {
        for (const statement of m.statements) expect(() => db.prepare(statement).run(), `migration ${m.version}`).not.toThrow();
      }
      expect(() => db.prepare("SELECT 1; SELECT 2")).toThrow(/more than one statement/);
    } finally {
      db.close();
    }
  });

  it("a statement is never cut at a `;` and a line break inside a literal or a comment (the old split on /;\\s*\\n/ ran half a statement)", () => {
    const text = (WITH_TRICKY.at(-1) as Migration).statements.join(";\n");
    // What the old splitter made of this migration: more pieces than statements.
    expect(text.split(/;\s*\n/).filter((s) => s.trim()).length).toBeGreaterThan(2);
  });
});

describe.each(backends)("migrations on $name", (backend) => {
  let db: SqlDb;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await backend.open());
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("a migration with a literal holding `;` and a line break stores the literal whole, and migrating again applies nothing", async () => {
    const applied = await migrate(db, 1, WITH_TRICKY);
    expect(applied).toEqual([...MIGRATIONS.map((m) => m.version), 1000]);
    expect(await db.all(`SELECT "semi;\ncolon" AS v FROM tricky`)).toEqual([{ v: TRICKY }]);
    expect(await migrate(db, 2, WITH_TRICKY)).toEqual([]);
    const versions = await db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(versions.map((r) => Number(r.version))).toEqual([...MIGRATIONS.map((m) => m.version), 1000]);
  });
});
