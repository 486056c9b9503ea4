/**
 * A suite with services (issue 34): it migrates and queries PostgreSQL with psql and uses Redis
 * with redis-cli, both speaking their own protocol (not HTTP). The job's services are this
 * machine's PostgreSQL (trust auth, user postgres, database `test`) at 127.0.0.1:5432 and Redis at
 * 127.0.0.1:6379, as CI has them and as a hosted runner's `services:` publishes them; in a
 * container job the suite reaches them by their names (`postgres`, `redis`).
 *
 * Used by test/observer/services.test.ts (the CLI) and test/layout/services-layouts.test.ts (the
 * bundled Action in the runner layouts).
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { expect } from "vitest";

/** Whether something accepts a TCP connection at `host:port`. */
export function listening(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** Whether this machine's PostgreSQL and Redis answer at 127.0.0.1 (without them, the suites skip). */
export const SERVICES_UP = (await listening(5432)) && (await listening(6379));

/** Where the suite reaches each service: an address, or a container job's service name. */
export interface ServiceHosts {
  postgres: string;
  redis: string;
}

/** The runner's loopback, where a hosted runner's `services:` publishes the ports. */
export const LOOPBACK_HOSTS: ServiceHosts = { postgres: "127.0.0.1", redis: "127.0.0.1" };

/** What the suite prints last, when every step passed. */
export const SUITE_PASSED = "suite-passed";

/**
 * The suite: CREATE TABLE, INSERT, SELECT count, DROP in PostgreSQL; SET, GET, DEL in Redis (a
 * table and key no other run uses); then `extra` (a hostile twin's line), then SUITE_PASSED. It
 * stops at its first failing step.
 */
export function suiteScript(options: { extra?: string; hosts?: ServiceHosts } = {}): string {
  const { extra = "", hosts = LOOPBACK_HOSTS } = options;
  const table = `eg_suite_${randomBytes(6).toString("hex")}`;
  return `#!/bin/sh
set -eu
export PGCONNECT_TIMEOUT=10
psql() { /usr/bin/psql -X -q -v ON_ERROR_STOP=1 -h ${hosts.postgres} -p 5432 -U postgres -d test "$@"; }
psql -c "CREATE TABLE ${table} (id serial PRIMARY KEY, name text NOT NULL)"
psql -c "INSERT INTO ${table} (name) VALUES ('alpha'), ('beta')"
count=$(psql -At -c "SELECT count(*) FROM ${table}")
psql -c "DROP TABLE ${table}"
[ "$count" = 2 ] || { echo "postgres count $count" >&2; exit 1; }
redis-cli -h ${hosts.redis} -p 6379 SET ${table} suite-value >/dev/null
got=$(redis-cli -h ${hosts.redis} -p 6379 GET ${table})
redis-cli -h ${hosts.redis} -p 6379 DEL ${table} >/dev/null
[ "$got" = suite-value ] || { echo "redis got $got" >&2; exit 1; }
${extra}
echo ${SUITE_PASSED}
`;
}

/** The hostile twin's extra line: PostgreSQL by an address that is not a declared service (the machine's own). */
export function undeclaredPostgres(address: string): string {
  return `/usr/bin/psql -X -h ${address} -p 5432 -U postgres -d test -c "SELECT 1" || true`;
}

/** The environment keys the suite's envelope lets in (psql's connect timeout among them). */
const SUITE_ENV = ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "PGCONNECT_TIMEOUT"];

/**
 * The suite's envelope keys: its environment, and `services` for the suite's hosts (`127.0.0.1:5432`,
 * or `postgres:5432` in a container job); `null`: no services declared.
 */
export function suiteEnvelope(hosts: ServiceHosts | null = LOOPBACK_HOSTS): { allowed_env: string[]; services?: string[] } {
  return hosts === null
    ? { allowed_env: SUITE_ENV }
    : { allowed_env: SUITE_ENV, services: [`${hosts.postgres}:5432`, `${hosts.redis}:6379`] };
}

/** The `host` lines the services' forward recorded (`source: "service"`). */
export function serviceLines(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((l) => l.kind === "host" && l.source === "service");
}

/**
 * The forward carried the suite's connections to both services: psql connects once per command (4),
 * redis-cli once per command (3); each ended well, with bytes both ways.
 */
export function expectSuiteConnections(
  lines: readonly Record<string, unknown>[],
  hosts: ServiceHosts = LOOPBACK_HOSTS,
  message = "",
): void {
  const service = serviceLines(lines);
  const postgres = service.filter((l) => l.host === hosts.postgres && l.port === 5432);
  const redis = service.filter((l) => l.host === hosts.redis && l.port === 6379);
  expect(postgres.length, message).toBeGreaterThanOrEqual(4);
  expect(redis.length, message).toBeGreaterThanOrEqual(3);
  for (const l of [...postgres, ...redis]) {
    expect(l.ok, JSON.stringify(l)).toBeUndefined();
    expect(l.bytes_in as number, JSON.stringify(l)).toBeGreaterThan(0);
    expect(l.bytes_out as number, JSON.stringify(l)).toBeGreaterThan(0);
  }
}
