/**
 * Typed conditions for the store's conditional updates: app code says what a transition also
 * requires of its row, column by column, and the store writes the SQL. App code writes no SQL;
 * the store's own compound conditions (a claim's lapse) pass as a SqlCondition.
 */

/** A bound on a numeric column (`atMost` is `<=`, `above` is `>`), or a column that is NULL or equal to the value (`nullOr`). */
type Bound = { atMost: number } | { above: number } | { nullOr: string | number };

/**
 * What a transition also requires of its row: each named column equal to the value (IS NULL for
 * null), or within a Bound; `claimLapsedAt` requires the row's claim to have lapsed at that time
 * (its lease ran out, or its owner is gone).
 */
export type RowGuard<Row> = { [K in keyof Row]?: Row[K] | null | Bound } & { claimLapsedAt?: number };

/** A SQL condition with its parameters (what a guard is written as). */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

function isBound(v: unknown): v is Bound {
  return typeof v === "object" && v !== null && ("atMost" in v || "above" in v || "nullOr" in v);
}

/** The SQL of a guard (or a store's own condition, passed as is), ANDed in column order; undefined for an empty guard. */
export function guardSql<Row>(
  guard: RowGuard<Row> | SqlCondition | undefined,
  lapsed: (now: number) => SqlCondition,
): SqlCondition | undefined {
  if (guard === undefined) return undefined;
  if (typeof (guard as SqlCondition).sql === "string" && Array.isArray((guard as SqlCondition).params)) return guard as SqlCondition;
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(guard as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (column === "claimLapsedAt") {
      const claim = lapsed(value as number);
      parts.push(claim.sql);
      params.push(...claim.params);
      continue;
    }
    if (!/^[a-z_]+$/.test(column)) throw new Error(`not a column: ${column}`);
    if (value === null) parts.push(`${column} IS NULL`);
    else if (isBound(value)) {
      if ("nullOr" in value) {
        parts.push(`(${column} IS NULL OR ${column} = ?)`);
        params.push(value.nullOr);
      } else {
        parts.push("atMost" in value ? `${column} <= ?` : `${column} > ?`);
        params.push("atMost" in value ? value.atMost : value.above);
      }
    } else {
      parts.push(`${column} = ?`);
      params.push(value);
    }
  }
  return parts.length === 0 ? undefined : { sql: parts.join(" AND "), params };
}
