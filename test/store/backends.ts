import { join } from "node:path";
import type { StoreSettings } from "../../src/store/index.js";
import { PG_URL, pgSchema, tempDir } from "../app/helpers.js";

export interface Backend {
  name: "SQLite" | "PostgreSQL";
  settings: () => StoreSettings;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
}

/** The two store backends for `describe.each`: an SQLite file in a temporary folder, and a fresh PostgreSQL schema. */
export function storeBackends(prefix: string): Backend[] {
  let schema: { schema: string; drop: () => Promise<void> } | null = null;
  const sqliteDir = tempDir(prefix);
  return [
    { name: "SQLite", settings: () => ({ sqlitePath: join(sqliteDir, "store.sqlite") }) },
    {
      name: "PostgreSQL",
      settings: () => ({ sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema?.schema }),
      setup: async () => {
        schema = await pgSchema();
      },
      teardown: async () => {
        await schema?.drop();
      },
    },
  ];
}
