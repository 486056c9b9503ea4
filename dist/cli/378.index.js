export const id = 378;
export const ids = [378];
export const modules = {

/***/ 6378:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  appCommand: () => (/* binding */ appCommand),
  appRefusalText: () => (/* binding */ appRefusalText),
  parseAppArgs: () => (/* binding */ parseAppArgs)
});

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/core/errors.ts
var core_errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/core/verdict.ts
var verdict = __webpack_require__(9478);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./node_modules/pg/esm/index.mjs
var esm = __webpack_require__(3849);
;// CONCATENATED MODULE: ./src/store/db.ts

function storeUnavailable(what, err) {
    if (err instanceof core_errors/* Refusal */.P_)
        return err;
    const detail = err instanceof Error ? `${(0,core_errors/* errnoOf */.UQ)(err) ?? err.name}: ${err.message}` : String(err);
    return new core_errors/* Refusal */.P_("STORE_UNAVAILABLE", `the App's store could not ${what} (${detail})`, {
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
function isDriverError(err) {
    const code = (0,core_errors/* errnoOf */.UQ)(err);
    if (code === undefined || !(err instanceof Error))
        return false;
    if (code.startsWith("SQLITE_") || CONNECTION_ERRNOS.has(code))
        return true;
    return /^[0-9A-Z]{5}$/.test(code) && typeof err.severity === "string";
}
/**
 * What the App's shell answers for an error it caught around store work (health, the status page,
 * a delivery's status, recording a webhook): a refusal as it is; a driver's error (which the store
 * wraps in STORE_UNAVAILABLE itself, so this is a second net) STORE_UNAVAILABLE; anything else is
 * a bug in envelope-gate, INTERNAL_ERROR, never read as a store outage.
 */
function shellRefusal(err, what) {
    if (err instanceof core_errors/* Refusal */.P_)
        return err;
    if (isDriverError(err))
        return storeUnavailable(what, err);
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return new core_errors/* Refusal */.P_("INTERNAL_ERROR", `envelope-gate failed to ${what} (${detail})`, { cause: err });
}

;// CONCATENATED MODULE: ./src/store/postgres.ts


const INT8_OID = 20;
/** `?` placeholders to `$1..$n` (our SQL never has a literal `?`). */
function numbered(sql) {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
}
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** PostgreSQL, for several App replicas sharing one state. `schema` selects the search_path. */
function openPostgres(connectionString, schema) {
    if (!SCHEMA_NAME.test(schema))
        throw storeUnavailable(`use schema "${schema}"`, new Error("schema names are lower-case identifiers"));
    const pool = new esm/* default.Pool */.Ay.Pool({
        connectionString,
        max: 10,
        connectionTimeoutMillis: 5_000,
        query_timeout: 15_000,
        options: `-c search_path=${schema}`,
        types: {
            getTypeParser: ((oid, format) => oid === INT8_OID ? (v) => Number(v) : esm/* default.types */.Ay.types.getTypeParser(oid, format)),
        },
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on("error", () => { });
    return {
        dialect: "postgres",
        async run(sql, params = []) {
            try {
                const res = await pool.query(numbered(sql), params);
                return res.rowCount ?? 0;
            }
            catch (err) {
                throw storeUnavailable("write", err);
            }
        },
        async all(sql, params = []) {
            try {
                const res = await pool.query(numbered(sql), params);
                return res.rows;
            }
            catch (err) {
                throw storeUnavailable("read", err);
            }
        },
        async migrationTransaction(fn) {
            let client;
            try {
                client = await pool.connect();
            }
            catch (err) {
                throw storeUnavailable("connect to PostgreSQL", err);
            }
            const q = async (sql, params = []) => {
                try {
                    return await client.query(numbered(sql), params);
                }
                catch (err) {
                    throw storeUnavailable("migrate", err);
                }
            };
            try {
                await q("BEGIN");
                // One replica migrates; the others wait here, then find nothing left to do.
                await q("SELECT pg_advisory_xact_lock(727274)");
                await q(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
                const tx = {
                    run: async (sql, params) => (await q(sql, params)).rowCount ?? 0,
                    all: async (sql, params) => (await q(sql, params)).rows,
                    exec: async (sql) => {
                        await q(sql);
                    },
                };
                await fn(tx);
                await q("COMMIT");
            }
            catch (err) {
                await client.query("ROLLBACK").catch(() => undefined);
                throw err;
            }
            finally {
                client.release();
            }
        },
        async close() {
            await pool.end();
        },
    };
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:module"
var external_node_module_ = __webpack_require__(6614);
;// CONCATENATED MODULE: ./src/store/sqlite.ts




function bindable(params) {
    return params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p === undefined ? null : p));
}
/** The binding, through a plain require at call time: the bundler would hoist an import to the top. */
function loadBetterSqlite() {
    const moduleName = "better-sqlite3";
    return (0,external_node_module_.createRequire)(import.meta.url)(moduleName);
}
/**
 * SQLite in one file (WAL), for a single App process. The native binding is loaded here, when
 * the App opens its store, so the CLI's other commands (run, check) need no node_modules.
 */
async function openSqlite(path) {
    let db;
    try {
        const Database = loadBetterSqlite();
        // One level only: the default `.data/` is created, a mistyped deep path is an error.
        if (path !== ":memory:" && !(0,external_node_fs_.existsSync)((0,external_node_path_.dirname)(path)))
            (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path));
        db = new Database(path);
        db.pragma("journal_mode = WAL");
        db.pragma("busy_timeout = 5000");
        db.pragma("foreign_keys = ON");
    }
    catch (err) {
        throw storeUnavailable(`open the SQLite file ${path}`, err);
    }
    const run = async (sql, params = []) => {
        try {
            return db.prepare(sql).run(...bindable(params)).changes;
        }
        catch (err) {
            throw storeUnavailable("write", err);
        }
    };
    const all = async (sql, params = []) => {
        try {
            return db.prepare(sql).all(...bindable(params));
        }
        catch (err) {
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
            }
            catch (err) {
                throw storeUnavailable("lock the schema for migration", err);
            }
            const tx = {
                run,
                all,
                async exec(sql) {
                    try {
                        db.exec(sql);
                    }
                    catch (err) {
                        throw storeUnavailable("migrate", err);
                    }
                },
            };
            try {
                await fn(tx);
                db.exec("COMMIT");
            }
            catch (err) {
                if (db.inTransaction)
                    db.exec("ROLLBACK");
                throw err;
            }
        },
        async close() {
            db.close();
        },
    };
}

;// CONCATENATED MODULE: ./src/core/budget.ts
/**
 * Runner B's budget, as data and pure rules. Every runner-B dispatch spends CI minutes on a
 * second machine; before one is sent, it reserves against a daily cap per installation and
 * per repository (src/store reserves in one statement). Here: the day a reservation counts
 * in, what a finished run is charged, which cap a refusal names, and how limits are written.
 */
/** Of two caps, the lower of each figure. */
function tighter(a, b) {
    return { dispatchesPerDay: Math.min(a.dispatchesPerDay, b.dispatchesPerDay), minutesPerDay: Math.min(a.minutesPerDay, b.minutesPerDay) };
}
/** The store key of a scope's limit override. */
function scopeKey(scope) {
    return scope.kind === "installation" ? `installation:${scope.id}` : `repository:${scope.name.toLowerCase()}`;
}
function parseScopeKey(key) {
    const inst = /^installation:(\d+)$/.exec(key);
    if (inst)
        return { kind: "installation", id: Number(inst[1]) };
    const repo = /^repository:([^/\s]+\/[^/\s]+)$/.exec(key);
    if (repo)
        return { kind: "repository", name: repo[1].toLowerCase() };
    return null;
}
/** The budget day a moment falls in: its UTC date, `YYYY-MM-DD`. Caps reset at 00:00 UTC. */
function budgetDay(ms) {
    return new Date(ms).toISOString().slice(0, 10);
}
/** The start of the next budget day, for "resets at" in messages and the status page. */
function nextBudgetDay(ms) {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
/**
 * The minutes a finished run is charged, from GitHub's timing of the run: the time from its
 * start (`run_started_at`, the latest attempt's) to its last update, rounded up to a whole
 * minute as GitHub bills. A re-run's earlier attempts are not in that timing, so each counts
 * at `maxRunMinutes` (what runner B's job timeout bounds it to). Null when the run has not
 * completed or its timing is missing or inconsistent: then the dispatch stays charged at its
 * maximum.
 */
function measuredMinutes(run, maxRunMinutes) {
    if (run.status !== "completed" || !run.run_started_at || !run.updated_at)
        return null;
    const started = Date.parse(run.run_started_at);
    const ended = Date.parse(run.updated_at);
    if (!Number.isFinite(started) || !Number.isFinite(ended) || ended < started)
        return null;
    const attempt = run.run_attempt ?? 1;
    if (!Number.isInteger(attempt) || attempt < 1)
        return null;
    return (attempt - 1) * maxRunMinutes + Math.max(1, Math.ceil((ended - started) / 60_000));
}
/** Why a reservation was refused: the first cap that the dispatch would pass, named. */
function refusalDetail(policy, limits, usage, names, now) {
    const resets = new Date(nextBudgetDay(now)).toISOString();
    const checks = [
        [`installation ${names.installation}`, limits.installation, usage.installation],
        [`repository ${names.repository}`, limits.repository, usage.repository],
    ];
    for (const [who, limit, used] of checks) {
        if (used.dispatches + 1 > limit.dispatchesPerDay) {
            return `${who} has used ${used.dispatches} of its ${limit.dispatchesPerDay} runner-B dispatches today (UTC); the cap resets at ${resets}`;
        }
        if (used.minutes + policy.maxRunMinutes > limit.minutesPerDay) {
            return `${who} has ${used.minutes} of its ${limit.minutesPerDay} runner-B minutes charged today (UTC); one more dispatch is charged ${policy.maxRunMinutes} minutes until it is measured; the cap resets at ${resets}`;
        }
    }
    return null;
}

;// CONCATENATED MODULE: ./src/store/budget.ts


/** How often a reservation that lost a race on a sequence number is tried again. */
const RACE_RETRIES = 50;
/** True when the store refused a write because another writer got there first. */
function lostRace(err) {
    const code = (0,core_errors/* errnoOf */.UQ)((0,core_errors/* isRefusal */.vu)(err) ? err.cause : err) ?? "";
    // PostgreSQL: unique violation, serialization failure, deadlock; SQLite: a unique index, a stale WAL snapshot.
    return ["23505", "40001", "40P01", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_BUSY_SNAPSHOT"].includes(code);
}
function unconfirmed(detail, cause) {
    return new core_errors/* Refusal */.P_("BUDGET_UNCONFIRMED", `runner B's budget could not be confirmed, so nothing was dispatched (${detail})`, {
        cause,
        hint: "Bring the store back; a dispatch is only sent once a reservation under the cap is recorded.",
    });
}
/** SQL for one scope's day: `n` reservations and `m` minutes charged. Parameters: the oldest trusted reading, the scope's value, the day. */
function scopeUsageSql(column) {
    return `SELECT COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m FROM budget_reservations WHERE ${column} = ? AND day = ?`;
}
/** SQL for one scope's charged minutes: a measured duration while it is fresh, the maximum otherwise. One parameter: the oldest trusted reading. */
const CHARGE = "CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN measured_minutes ELSE max_minutes END";
/**
 * Runner B's budget in the store. A reservation is one row per dual run; the cap comparison
 * and the reservation are one INSERT ... SELECT, so a crash mid-decision leaves the previous
 * rows and a refused or failed statement reserves nothing.
 *
 * Why two replicas cannot both pass a cap: each reservation takes the next sequence number in
 * its installation's day and in its repository's day, and both sequences are unique. Two
 * statements that counted the same rows take the same numbers, so the store lets one commit
 * and refuses the other (unique violation), which counts again. A statement that commits has
 * therefore counted every reservation committed before it, on SQLite and on PostgreSQL at
 * READ COMMITTED alike. Rows are never deleted within a day, so the sequences stay dense.
 */
class BudgetLedger {
    db;
    constructor(db) {
        this.db = db;
    }
    async reservation(dualRunId) {
        const rows = await this.db.all("SELECT * FROM budget_reservations WHERE dual_run_id = ?", [dualRunId]);
        return rows[0] ? reservationOf(rows[0]) : null;
    }
    /**
     * Reserves one dispatch for `dualRunId` at `policy.maxRunMinutes`, if the installation and
     * the repository both stay within their caps today. Throws BUDGET_UNCONFIRMED when the
     * store cannot answer or the race is lost too often: nothing is reserved, nothing may be sent.
     */
    async reserve(request, policy) {
        const { dualRunId, installationId, owner, now } = request;
        const repository = request.repository.toLowerCase();
        const day = budgetDay(now);
        const trusted = now - policy.freshMs;
        const instScope = `installation:${installationId}`;
        const repoScope = `repository:${repository}`;
        // Each scope is held to the tighter of its override row and its latest recorded change: a
        // limit raised or removed behind the App's back (a hand-edited row, a bug) admits nothing
        // before the watchdog reverts it, as a cleared pause sends nothing.
        let limits;
        try {
            limits = {
                installation: await this.effectiveLimit(instScope, policy.installation),
                repository: await this.effectiveLimit(repoScope, policy.repository),
            };
        }
        catch (err) {
            throw unconfirmed(`the caps could not be read: ${err.message}`, err);
        }
        const sql = `INSERT INTO budget_reservations
        (dual_run_id, installation_id, repository, day, installation_seq, repository_seq, max_minutes, reserved_at, reserved_by)
      SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), i.n + 1, r.n + 1, CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS TEXT)
      FROM (${scopeUsageSql("installation_id")}) i, (${scopeUsageSql("repository")}) r
      WHERE i.n + 1 <= ? AND i.m + ? <= ? AND r.n + 1 <= ? AND r.m + ? <= ?
      ON CONFLICT (dual_run_id) DO NOTHING`;
        const params = [
            dualRunId,
            installationId,
            repository,
            day,
            policy.maxRunMinutes,
            now,
            owner,
            trusted,
            installationId,
            day,
            trusted,
            repository,
            day,
            limits.installation.dispatchesPerDay,
            policy.maxRunMinutes,
            limits.installation.minutesPerDay,
            limits.repository.dispatchesPerDay,
            policy.maxRunMinutes,
            limits.repository.minutesPerDay,
        ];
        let lastRace = null;
        for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
            let inserted;
            try {
                inserted = await this.db.run(sql, params);
            }
            catch (err) {
                if (lostRace(err)) {
                    lastRace = err;
                    continue;
                }
                throw unconfirmed(err.message, err);
            }
            if (inserted === 1)
                return { status: "reserved", day };
            try {
                const held = await this.reservation(dualRunId);
                if (held)
                    return { status: "held", reservation: held };
                return {
                    status: "refused",
                    limits,
                    usage: {
                        installation: await this.usage("installation_id", installationId, day, trusted),
                        repository: await this.usage("repository", repository, day, trusted),
                    },
                };
            }
            catch (err) {
                throw unconfirmed(`the refusal could not be explained: ${err.message}`, err);
            }
        }
        throw unconfirmed(`${RACE_RETRIES} attempts lost a race with other reservations`, lastRace);
    }
    /** Records that a dispatch request is about to be sent under this reservation. */
    async markAttempt(dualRunId, now) {
        await this.db.run("UPDATE budget_reservations SET attempted_at = ? WHERE dual_run_id = ?", [now, dualRunId]);
    }
    /** Forgets an attempt known to have started nothing (GitHub refused it, or it was never sent). */
    async clearAttempt(dualRunId, attemptedAt) {
        await this.db.run("UPDATE budget_reservations SET attempted_at = NULL WHERE dual_run_id = ? AND attempted_at = ?", [
            dualRunId,
            attemptedAt,
        ]);
    }
    /** Records the measured minutes of runner B's finished run (GitHub's timing), read at `now`. */
    async settle(dualRunId, runBId, minutes, now) {
        return ((await this.db.run("UPDATE budget_reservations SET measured_minutes = ?, measured_at = ?, run_b_id = ? WHERE dual_run_id = ?", [
            minutes,
            now,
            runBId,
            dualRunId,
        ])) === 1);
    }
    /**
     * Reservations of `day` whose reading is missing or older than `olderThan`, whose runner B
     * has a known run and is past waiting (compared, decided or expired).
     */
    async unsettled(day, olderThan, limit) {
        const rows = await this.db.all(`SELECT b.dual_run_id, b.installation_id, b.repository, b.day, b.max_minutes, b.measured_minutes, b.measured_at,
         COALESCE(b.run_b_id, d.run_b_id) AS run_b_id, b.reserved_at, b.reserved_by, b.attempted_at
       FROM budget_reservations b JOIN dual_runs d ON d.id = b.dual_run_id
       WHERE b.day = ? AND (b.measured_at IS NULL OR b.measured_at < ?) AND COALESCE(b.run_b_id, d.run_b_id) IS NOT NULL
         AND d.state NOT IN ('pending', 'dispatching', 'waiting')
       ORDER BY COALESCE(b.measured_at, 0), b.reserved_at LIMIT ?`, [day, olderThan, limit]);
        return rows.map(reservationOf);
    }
    async usage(column, value, day, trusted) {
        const rows = await this.db.all(scopeUsageSql(column), [trusted, value, day]);
        return { dispatches: Number(rows[0]?.n ?? 0), minutes: Number(rows[0]?.m ?? 0) };
    }
    /** Today's usage per installation and per repository, for the status page. */
    async usageByScope(day, trusted) {
        const rows = await this.db.all(`SELECT 'installation:' || CAST(installation_id AS TEXT) AS scope, COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m,
         SUM(CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN 1 ELSE 0 END) AS measured
       FROM budget_reservations WHERE day = ? GROUP BY installation_id
       UNION ALL
       SELECT 'repository:' || repository AS scope, COUNT(*) AS n, COALESCE(SUM(${CHARGE}), 0) AS m,
         SUM(CASE WHEN measured_minutes IS NOT NULL AND measured_at >= ? THEN 1 ELSE 0 END) AS measured
       FROM budget_reservations WHERE day = ? GROUP BY repository
       ORDER BY scope`, [trusted, trusted, day, trusted, trusted, day]);
        return rows.map((r) => ({ scope: r.scope, dispatches: Number(r.n), minutes: Number(r.m), measured: Number(r.measured ?? 0) }));
    }
    /**
     * A scope's cap as its latest recorded change sets it (null: no recorded override, the
     * configured caps apply). A history entry that does not parse throws: nothing is reserved.
     */
    /** The cap a reservation in `scope` is held to: the tighter of its override row and its latest recorded change. */
    async effectiveLimit(scope, fallback) {
        return tighter(await this.limitFor(scope, fallback), (await this.recordedLimit(scope)) ?? fallback);
    }
    async recordedLimit(scope) {
        const rows = await this.db.all("SELECT state FROM switch_history WHERE switch = ? ORDER BY seq DESC LIMIT 1", [
            `budget:${scope}`,
        ]);
        if (!rows[0])
            return null;
        const state = JSON.parse(String(rows[0].state));
        const limit = state?.limit;
        if (limit === null)
            return null;
        if (!limit || !Number.isInteger(limit.dispatchesPerDay) || !Number.isInteger(limit.minutesPerDay)) {
            throw new Error(`the latest recorded change of budget:${scope} is not a limit`);
        }
        return { dispatchesPerDay: limit.dispatchesPerDay, minutesPerDay: limit.minutesPerDay };
    }
    async limitFor(scope, fallback) {
        const rows = await this.db.all("SELECT dispatches_per_day AS d, minutes_per_day AS m FROM budget_limits WHERE scope = ?", [scope]);
        return rows[0] ? { dispatchesPerDay: Number(rows[0].d), minutesPerDay: Number(rows[0].m) } : fallback;
    }
    async overrides() {
        const rows = await this.db.all("SELECT * FROM budget_limits ORDER BY scope");
        return rows.map((r) => ({
            scope: String(r.scope),
            dispatchesPerDay: Number(r.dispatches_per_day),
            minutesPerDay: Number(r.minutes_per_day),
            changedBy: String(r.changed_by),
            reason: String(r.reason),
            changedAt: Number(r.changed_at),
        }));
    }
}
function reservationOf(row) {
    const num = (v) => (v === null || v === undefined ? null : Number(v));
    return {
        ...row,
        installation_id: Number(row.installation_id),
        max_minutes: Number(row.max_minutes),
        measured_minutes: num(row.measured_minutes),
        measured_at: num(row.measured_at),
        run_b_id: num(row.run_b_id),
        reserved_at: Number(row.reserved_at),
        attempted_at: num(row.attempted_at),
    };
}

;// CONCATENATED MODULE: ./src/store/guard.ts
/**
 * Typed conditions for the store's conditional updates: app code says what a transition also
 * requires of its row, column by column, and the store writes the SQL. App code writes no SQL;
 * the store's own compound conditions (a claim's lapse) pass as a SqlCondition.
 */
function isBound(v) {
    return typeof v === "object" && v !== null && ("atMost" in v || "above" in v || "nullOr" in v);
}
/** The SQL of a guard (or a store's own condition, passed as is), ANDed in column order; undefined for an empty guard. */
function guardSql(guard, lapsed) {
    if (guard === undefined)
        return undefined;
    if (typeof guard.sql === "string" && Array.isArray(guard.params))
        return guard;
    const parts = [];
    const params = [];
    for (const [column, value] of Object.entries(guard)) {
        if (value === undefined)
            continue;
        if (column === "claimLapsedAt") {
            const claim = lapsed(value);
            parts.push(claim.sql);
            params.push(...claim.params);
            continue;
        }
        if (!/^[a-z_]+$/.test(column))
            throw new Error(`not a column: ${column}`);
        if (value === null)
            parts.push(`${column} IS NULL`);
        else if (isBound(value)) {
            if ("nullOr" in value) {
                parts.push(`(${column} IS NULL OR ${column} = ?)`);
                params.push(value.nullOr);
            }
            else {
                parts.push("atMost" in value ? `${column} <= ?` : `${column} > ?`);
                params.push("atMost" in value ? value.atMost : value.above);
            }
        }
        else {
            parts.push(`${column} = ?`);
            params.push(value);
        }
    }
    return parts.length === 0 ? undefined : { sql: parts.join(" AND "), params };
}

;// CONCATENATED MODULE: ./src/store/runs.ts
const NUMERIC_REFUSAL = ["run_id", "run_attempt", "refused_at"];
const NUMERIC_CHECK = ["run_id", "run_attempt", "claim_until", "check_run_id", "created_at", "posted_at"];
/** The row with `columns` as numbers (PostgreSQL returns BIGINT as text). */
function withNumbers(row, columns) {
    const out = { ...row };
    for (const k of columns)
        if (out[k] !== null && out[k] !== undefined)
            out[k] = Number(out[k]);
    return out;
}
/** Refused runs and the verified check's one-sender claim (migration 8). */
class RunRecords {
    db;
    lapsed;
    /** `lapsed(now)`: SQL true when a verified_checks claim may be taken over (lease over, or owner gone). */
    constructor(db, lapsed) {
        this.db = db;
        this.lapsed = lapsed;
    }
    /** Records a refusal once per (repository, run, attempt, role); a redelivery changes nothing. */
    async recordRefusal(r) {
        const changed = await this.db.run(`INSERT INTO run_refusals (repository, run_id, run_attempt, role, code, reason, event, head_sha, dual_run_id, refused_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt, role) DO NOTHING`, [r.repository, r.run_id, r.run_attempt, r.role, r.code, r.reason, r.event, r.head_sha, r.dual_run_id, r.refused_at]);
        return changed === 1;
    }
    async recentRefusals(limit) {
        const rows = await this.db.all("SELECT * FROM run_refusals ORDER BY refused_at DESC, run_id DESC LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC_REFUSAL));
    }
    async refusalsFor(repository, runId) {
        const rows = await this.db.all("SELECT * FROM run_refusals WHERE repository = ? AND run_id = ? ORDER BY role", [
            repository,
            runId,
        ]);
        return rows.map((r) => withNumbers(r, NUMERIC_REFUSAL));
    }
    async getVerifiedCheck(repository, runId, attempt) {
        const rows = await this.db.all("SELECT * FROM verified_checks WHERE repository = ? AND run_id = ? AND run_attempt = ?", [
            repository,
            runId,
            attempt,
        ]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_CHECK) : null;
    }
    /**
     * The one-sender claim for a run attempt's verified check: the first caller inserts it; a
     * later one takes it over only while it is still `claimed` and released, or its lease ran out
     * or its owner is gone (a replica that died before posting). Not by owner alone: one process
     * works on several deliveries of the same run at once. False: done already, or held by a live
     * claim.
     */
    async claimVerifiedCheck(c, owner, now, leaseMs) {
        const inserted = await this.db.run(`INSERT INTO verified_checks (repository, run_id, run_attempt, head_sha, state, claim_owner, claim_until, created_at)
       VALUES (?, ?, ?, ?, 'claimed', ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt) DO NOTHING`, [c.repository, c.run_id, c.run_attempt, c.head_sha, owner, now + leaseMs, now]);
        if (inserted === 1)
            return true;
        const lapsed = this.lapsed(now);
        const taken = await this.db.run(`UPDATE verified_checks SET claim_owner = ?, claim_until = ?
       WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND (claim_owner IS NULL OR ${lapsed.sql})`, [owner, now + leaseMs, c.repository, c.run_id, c.run_attempt, ...lapsed.params]);
        return taken === 1;
    }
    /** Marks the claim done (`posted` with the check run, or `skipped`), only if `owner` holds it. */
    async finishVerifiedCheck(key, owner, done) {
        const changed = await this.db.run(`UPDATE verified_checks SET state = ?, conclusion = ?, code = ?, check_run_id = ?, posted_at = ?, claim_owner = NULL, claim_until = NULL
       WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND claim_owner = ?`, [done.state, done.conclusion, done.code, done.check_run_id, done.at, key.repository, key.run_id, key.run_attempt, owner]);
        return changed === 1;
    }
    /** Gives a claim back (the work failed and will be retried). */
    async releaseVerifiedCheck(key, owner) {
        await this.db.run("UPDATE verified_checks SET claim_owner = NULL, claim_until = 0 WHERE repository = ? AND run_id = ? AND run_attempt = ? AND state = 'claimed' AND claim_owner = ?", [key.repository, key.run_id, key.run_attempt, owner]);
    }
    async recentVerifiedChecks(limit) {
        const rows = await this.db.all("SELECT * FROM verified_checks ORDER BY created_at DESC, run_id DESC LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC_CHECK));
    }
}

;// CONCATENATED MODULE: ./src/store/envelope-prs.ts


const NUMERIC_RUN = ["run_id", "run_attempt", "recorded_at"];
const NUMERIC_PR = ["installation_id", "claim_until", "pr_number", "created_at", "updated_at", "closed_at"];
const ACTIVE = "state IN ('claimed', 'opened', 'shadowed')";
/** Audit runs and envelope PRs: single-statement inserts and conditional updates, as everywhere in the store. */
class EnvelopePrRecords {
    db;
    lapsed;
    /** `lapsed(now)`: SQL true when an envelope_prs claim may be taken over (lease over, or owner gone). */
    constructor(db, lapsed) {
        this.db = db;
        this.lapsed = lapsed;
    }
    /** Records a run's judgement once per (repository, run, attempt); a redelivery changes nothing. True when this call recorded it. */
    async recordAuditRun(r) {
        const changed = await this.db.run(`INSERT INTO audit_runs (repository, run_id, run_attempt, branch, head_sha, run_url, state, code, reason, evidence, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repository, run_id, run_attempt) DO NOTHING`, [r.repository, r.run_id, r.run_attempt, r.branch, r.head_sha, r.run_url, r.state, r.code, r.reason, r.evidence, r.recorded_at]);
        return changed === 1;
    }
    async getAuditRun(repository, runId, attempt) {
        const rows = await this.db.all("SELECT * FROM audit_runs WHERE repository = ? AND run_id = ? AND run_attempt = ?", [
            repository,
            runId,
            attempt,
        ]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_RUN) : null;
    }
    /** The newest `limit` verified audit runs of `branch` (one row per run: its latest verified attempt), newest first. */
    async lastVerifiedAuditRuns(repository, branch, limit) {
        const rows = await this.db.all("SELECT * FROM audit_runs WHERE repository = ? AND branch = ? AND state = 'verified' ORDER BY run_id DESC, run_attempt DESC", [repository, branch]);
        const seen = new Set();
        const out = [];
        for (const raw of rows) {
            const r = withNumbers(raw, NUMERIC_RUN);
            if (seen.has(r.run_id))
                continue;
            seen.add(r.run_id);
            out.push(r);
            if (out.length === limit)
                break;
        }
        return out;
    }
    async recentAuditRuns(limit) {
        const rows = await this.db.all("SELECT * FROM audit_runs ORDER BY recorded_at DESC, run_id DESC LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC_RUN));
    }
    /** The repository's envelope PR in flight (claimed, opened or shadowed), if any. */
    async activeEnvelopePr(repository) {
        const rows = await this.db.all(`SELECT * FROM envelope_prs WHERE repository = ? AND ${ACTIVE}`, [repository]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
    }
    async getEnvelopePr(id) {
        const rows = await this.db.all("SELECT * FROM envelope_prs WHERE id = ?", [id]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
    }
    async findEnvelopePrByPull(repository, pullNumber) {
        const rows = await this.db.all("SELECT * FROM envelope_prs WHERE repository = ? AND pr_number = ? ORDER BY created_at DESC LIMIT 1", [repository, pullNumber]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_PR) : null;
    }
    async listEnvelopePrs(limit) {
        const rows = await this.db.all("SELECT * FROM envelope_prs ORDER BY updated_at DESC, created_at DESC LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC_PR));
    }
    /**
     * A new envelope PR, claimed by `owner`. False when the repository already has one in flight
     * (the partial unique index: whichever replica or delivery inserts first is the one sender).
     */
    async insertEnvelopePr(pr, owner, now, leaseMs) {
        const changed = await this.db.run(`INSERT INTO envelope_prs (id, repository, installation_id, branch, base_ref, envelope_path, state, mode, claim_owner, claim_until,
         envelope_text, envelope_digest, title, body, runs, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'claimed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, [
            pr.id,
            pr.repository,
            pr.installation_id,
            pr.branch,
            pr.base_ref,
            pr.envelope_path,
            pr.mode,
            owner,
            now + leaseMs,
            pr.envelope_text,
            pr.envelope_digest,
            pr.title,
            pr.body,
            pr.runs,
            pr.created_at,
            pr.created_at,
        ]);
        return changed === 1;
    }
    /**
     * Takes the claim on an envelope PR in flight: free (released) or lapsed (lease over, owner
     * gone). Not by owner alone: one process works on several deliveries of a repository at once.
     * One conditional UPDATE, so two callers never both hold it.
     */
    async claimEnvelopePr(id, owner, now, leaseMs) {
        const lapsed = this.lapsed(now);
        const changed = await this.db.run(`UPDATE envelope_prs SET claim_owner = ?, claim_until = ?
       WHERE id = ? AND ${ACTIVE} AND (claim_owner IS NULL OR ${lapsed.sql})`, [owner, now + leaseMs, id, ...lapsed.params]);
        return changed === 1;
    }
    /**
     * Moves an envelope PR from one of `from` to `to` with `fields`, only while `owner` holds its
     * claim (and `also` holds, e.g. the commit it was read at). True when this call changed it.
     */
    async updateEnvelopePr(id, owner, from, to, fields, now, guard) {
        const also = guardSql(guard, this.lapsed);
        const cols = Object.keys(fields);
        const sets = ["state = ?", "updated_at = ?", ...cols.map((c) => `${c} = ?`)];
        const changed = await this.db.run(`UPDATE envelope_prs SET ${sets.join(", ")}
       WHERE id = ? AND state IN (${from.map(() => "?").join(", ")}) AND claim_owner = ?${also ? ` AND (${also.sql})` : ""}`, [to, now, ...cols.map((c) => fields[c]), id, ...from, owner, ...(also?.params ?? [])]);
        return changed === 1;
    }
}

;// CONCATENATED MODULE: ./src/store/verified-heads.ts

const NUMERIC_HEAD = ["generation", "posted_generation", "claim_until", "check_run_id", "updated_at"];
const NUMERIC_VERDICT = ["pull_number", "run_id", "run_attempt", "recorded_at"];
class VerifiedHeads {
    db;
    lapsed;
    /** `lapsed(now)`: SQL true when a verified_heads claim may be taken over (lease over, or owner gone). */
    constructor(db, lapsed) {
        this.db = db;
        this.lapsed = lapsed;
    }
    /**
     * Records a pull request's verdict from a run on the commit. A run older than the one recorded
     * (a lower run id, or the same run's earlier attempt) changes nothing: the pull request's latest
     * run speaks for it. True when the row changed.
     */
    async recordVerdict(v) {
        const changed = await this.db.run(`INSERT INTO pull_verdicts (repository, head_sha, pull_number, base_ref, base_sha, run_id, run_attempt, conclusion, code, title, summary, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (repository, head_sha, pull_number) DO UPDATE SET
         base_ref = excluded.base_ref, base_sha = excluded.base_sha, run_id = excluded.run_id, run_attempt = excluded.run_attempt,
         conclusion = excluded.conclusion, code = excluded.code, title = excluded.title, summary = excluded.summary, recorded_at = excluded.recorded_at
       WHERE excluded.run_id > pull_verdicts.run_id
          OR (excluded.run_id = pull_verdicts.run_id AND excluded.run_attempt >= pull_verdicts.run_attempt)`, [
            v.repository,
            v.head_sha,
            v.pull_number,
            v.base_ref,
            v.base_sha,
            v.run_id,
            v.run_attempt,
            v.conclusion,
            v.code,
            v.title,
            v.summary,
            v.recorded_at,
        ]);
        return changed === 1;
    }
    async verdicts(repository, headSha) {
        const rows = await this.db.all("SELECT * FROM pull_verdicts WHERE repository = ? AND head_sha = ? ORDER BY pull_number", [repository, headSha]);
        return rows.map((r) => withNumbers(r, NUMERIC_VERDICT));
    }
    async get(repository, headSha) {
        const rows = await this.db.all("SELECT * FROM verified_heads WHERE repository = ? AND head_sha = ?", [
            repository,
            headSha,
        ]);
        return rows[0] ? withNumbers(rows[0], NUMERIC_HEAD) : null;
    }
    /** What the commit's check is made of changed: one more generation (the row made on first use). */
    async bump(repository, headSha, now) {
        await this.db.run(`INSERT INTO verified_heads (repository, head_sha, generation, posted_generation, updated_at) VALUES (?, ?, 1, 0, ?)
       ON CONFLICT (repository, head_sha) DO UPDATE SET generation = verified_heads.generation + 1, updated_at = excluded.updated_at`, [repository, headSha, now]);
    }
    /** As bump, only for a commit the App has a check for already; false (nothing changed) otherwise. */
    async bumpKnown(repository, headSha, now) {
        const changed = await this.db.run("UPDATE verified_heads SET generation = generation + 1, updated_at = ? WHERE repository = ? AND head_sha = ?", [now, repository, headSha]);
        return changed === 1;
    }
    /** The one-poster claim for the commit's check: free, or its lease over, or its owner gone. */
    async claim(repository, headSha, owner, now, leaseMs) {
        const lapsed = this.lapsed(now);
        const taken = await this.db.run(`UPDATE verified_heads SET claim_owner = ?, claim_until = ?
       WHERE repository = ? AND head_sha = ? AND (claim_owner IS NULL OR ${lapsed.sql})`, [owner, now + leaseMs, repository, headSha, ...lapsed.params]);
        return taken === 1;
    }
    /**
     * Records what was posted (or that nothing was: no open pull request) at `generation`, and gives
     * the claim back, only if `owner` still holds it. False: the claim was taken over meanwhile.
     */
    async finish(repository, headSha, owner, generation, done) {
        const posted = done.check_run_id === null ? "" : "check_run_id = ?, conclusion = ?, code = ?, ";
        const postedParams = done.check_run_id === null ? [] : [done.check_run_id, done.conclusion, done.code];
        const changed = await this.db.run(`UPDATE verified_heads SET posted_generation = CASE WHEN posted_generation < ? THEN ? ELSE posted_generation END,
         ${posted}pulls = ?, foreign_checks = ?, updated_at = ?, claim_owner = NULL, claim_until = NULL
       WHERE repository = ? AND head_sha = ? AND claim_owner = ?`, [generation, generation, ...postedParams, done.pulls, done.foreign_checks, done.at, repository, headSha, owner]);
        return changed === 1;
    }
    /** Gives the claim back (the work failed and will be retried). */
    async release(repository, headSha, owner) {
        await this.db.run("UPDATE verified_heads SET claim_owner = NULL, claim_until = 0 WHERE repository = ? AND head_sha = ? AND claim_owner = ?", [repository, headSha, owner]);
    }
    async recent(limit) {
        const rows = await this.db.all("SELECT * FROM verified_heads ORDER BY updated_at DESC, head_sha LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC_HEAD));
    }
}

;// CONCATENATED MODULE: ./src/store/gated-pulls.ts

const NUMERIC = ["pull_number", "gated_at", "ungated_review_id", "ungated_at"];
/** Gated pull requests (migration 10). Repositories are matched as GitHub names them, in any case. */
class GatedPullRecords {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Records the pull request as gated, once: the first reason stays. True when this call recorded it. */
    async markGated(repository, pullNumber, reason, at) {
        const changed = await this.db.run(`INSERT INTO gated_pulls (repository, pull_number, reason, gated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (repository, pull_number) DO NOTHING`, [repository.toLowerCase(), pullNumber, reason, at]);
        return changed === 1;
    }
    async get(repository, pullNumber) {
        const rows = await this.db.all("SELECT * FROM gated_pulls WHERE repository = ? AND pull_number = ?", [
            repository.toLowerCase(),
            pullNumber,
        ]);
        return rows[0] ? withNumbers(rows[0], NUMERIC) : null;
    }
    /** Records a reviewer's ungate of one head commit (the latest one wins); false when the pull request is not gated. */
    async recordUngate(repository, pullNumber, ungate) {
        const changed = await this.db.run(`UPDATE gated_pulls SET ungated_by = ?, ungated_review_id = ?, ungated_head_sha = ?, ungated_at = ?
       WHERE repository = ? AND pull_number = ? AND (ungated_review_id IS NULL OR ungated_review_id <> ?)`, [ungate.by, ungate.review_id, ungate.head_sha, ungate.at, repository.toLowerCase(), pullNumber, ungate.review_id]);
        return changed === 1;
    }
    /** Withdraws the recorded ungate when its review was dismissed. */
    async clearUngate(repository, pullNumber, reviewId) {
        const changed = await this.db.run(`UPDATE gated_pulls SET ungated_by = NULL, ungated_review_id = NULL, ungated_head_sha = NULL, ungated_at = NULL
       WHERE repository = ? AND pull_number = ? AND ungated_review_id = ?`, [repository.toLowerCase(), pullNumber, reviewId]);
        return changed === 1;
    }
    async recent(limit) {
        const rows = await this.db.all("SELECT * FROM gated_pulls ORDER BY gated_at DESC, pull_number DESC LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, NUMERIC));
    }
}

;// CONCATENATED MODULE: ./src/store/org-ceilings.ts

class OrgCeilingRecords {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Records a reading; `changed_at` moves only when the state or the digest differs from the last reading. */
    async recordReading(row, at) {
        const owner = row.owner.toLowerCase();
        await this.db.run(`INSERT INTO org_ceilings (owner, state, digest, ceiling_id, source_sha, detail, exceptions, changed_at, read_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner) DO UPDATE SET
         changed_at = CASE WHEN org_ceilings.state = excluded.state AND COALESCE(org_ceilings.digest, '') = COALESCE(excluded.digest, '')
                           THEN org_ceilings.changed_at ELSE excluded.changed_at END,
         state = excluded.state, digest = excluded.digest, ceiling_id = excluded.ceiling_id,
         source_sha = excluded.source_sha, detail = excluded.detail, exceptions = excluded.exceptions, read_at = excluded.read_at`, [owner, row.state, row.digest, row.ceiling_id, row.source_sha, row.detail, row.exceptions, at, at]);
        return (await this.get(owner));
    }
    async get(owner) {
        const rows = await this.db.all("SELECT * FROM org_ceilings WHERE owner = ?", [owner.toLowerCase()]);
        return rows[0] ? withNumbers(rows[0], ["changed_at", "read_at"]) : null;
    }
    async all() {
        const rows = await this.db.all("SELECT * FROM org_ceilings ORDER BY owner");
        return rows.map((r) => withNumbers(r, ["changed_at", "read_at"]));
    }
    async recordResult(row) {
        await this.db.run(`INSERT INTO ceiling_results (repository, owner, digest, outcome, detail, exceptions, footprint, checked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (repository) DO UPDATE SET owner = excluded.owner, digest = excluded.digest, outcome = excluded.outcome,
         detail = excluded.detail, exceptions = excluded.exceptions, footprint = excluded.footprint, checked_at = excluded.checked_at
       WHERE ceiling_results.checked_at <= excluded.checked_at`, [
            row.repository.toLowerCase(),
            row.owner.toLowerCase(),
            row.digest,
            row.outcome,
            row.detail,
            row.exceptions,
            row.footprint,
            row.checked_at,
        ]);
    }
    /** The organisation-wide footprint of a repository's latest audit run: only the footprint, a result row made if none. */
    async recordFootprint(repository, owner, footprint, at) {
        await this.db.run(`INSERT INTO ceiling_results (repository, owner, digest, outcome, detail, exceptions, footprint, checked_at)
       VALUES (?, ?, NULL, 'not checked', '[]', '[]', ?, ?)
       ON CONFLICT (repository) DO UPDATE SET footprint = excluded.footprint`, [repository.toLowerCase(), owner.toLowerCase(), footprint, at]);
    }
    async results(limit = 500) {
        const rows = await this.db.all("SELECT * FROM ceiling_results ORDER BY owner, repository LIMIT ?", [limit]);
        return rows.map((r) => withNumbers(r, ["checked_at"]));
    }
}

;// CONCATENATED MODULE: ./src/store/rate-limits.ts
const num = (v) => (v === null || v === undefined ? null : Number(v));
function reading(r) {
    return {
        installationId: Number(r.installation_id),
        resource: r.resource,
        remaining: num(r.remaining),
        limit: num(r.quota),
        resetAt: num(r.reset_at),
        observedAt: Number(r.observed_at),
        observedBy: r.observed_by,
        retryAfterUntil: num(r.retry_after_until),
    };
}
/**
 * GitHub's rate limit per installation and resource, as every replica last saw it: one row,
 * written from each answer's headers, so each replica decides from what any replica saw.
 * Within one window (one reset time) the remainder only goes down, so a reading is kept when it
 * is of a later window or no higher than the recorded one: two replicas writing out of order
 * never raise the remainder back. A secondary limit's retry-after only ever moves later.
 */
class RateLimits {
    db;
    constructor(db) {
        this.db = db;
    }
    async record(installationId, seen, by, now) {
        if (seen.remaining !== null && seen.limit !== null && seen.resetAt !== null) {
            await this.db.run(`INSERT INTO rate_limits (installation_id, resource, remaining, quota, reset_at, observed_at, observed_by, retry_after_until)
         VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (installation_id, resource) DO UPDATE SET remaining = excluded.remaining, quota = excluded.quota,
           reset_at = excluded.reset_at, observed_at = excluded.observed_at, observed_by = excluded.observed_by
         WHERE rate_limits.reset_at IS NULL OR excluded.reset_at > rate_limits.reset_at
           OR (excluded.reset_at = rate_limits.reset_at AND excluded.remaining <= rate_limits.remaining)`, [installationId, seen.resource, seen.remaining, seen.limit, seen.resetAt, now, by]);
        }
        if (seen.retryAfterUntil !== null) {
            await this.db.run(`INSERT INTO rate_limits (installation_id, resource, observed_at, observed_by, retry_after_until) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (installation_id, resource) DO UPDATE SET retry_after_until = excluded.retry_after_until
         WHERE rate_limits.retry_after_until IS NULL OR rate_limits.retry_after_until < excluded.retry_after_until`, [installationId, seen.resource, now, by, seen.retryAfterUntil]);
        }
    }
    /** The installation's REST budget (`core`), as last recorded; null when no answer was read yet. */
    async get(installationId, resource = "core") {
        const rows = await this.db.all("SELECT * FROM rate_limits WHERE installation_id = ? AND resource = ?", [installationId, resource]);
        return rows[0] ? reading(rows[0]) : null;
    }
    /** Every recorded reading, by installation and resource. */
    async list() {
        const rows = await this.db.all("SELECT * FROM rate_limits ORDER BY installation_id, resource");
        return rows.map(reading);
    }
}

;// CONCATENATED MODULE: ./src/store/migrations.ts
/** Append-only: a shipped migration never changes; a new need is a new version. */
const MIGRATIONS = [
    {
        version: 1,
        name: "kill switch, installations, deliveries, dual runs, ledger PRs",
        statements: [
            `
CREATE TABLE kill_switch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
  reason TEXT,
  changed_by TEXT,
  changed_at BIGINT
)
`,
            `INSERT INTO kill_switch (id, paused) VALUES (1, 0)`,
            `
CREATE TABLE installations (
  installation_id BIGINT PRIMARY KEY,
  account TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  created_at BIGINT NOT NULL,
  promoted_at BIGINT,
  promoted_by TEXT
)
`,
            `
CREATE TABLE deliveries (
  delivery_id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('processing', 'done', 'failed')),
  owner TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  received_at BIGINT NOT NULL,
  finished_at BIGINT,
  outcome TEXT,
  error_code TEXT,
  error_message TEXT
)
`,
            `
CREATE TABLE dual_runs (
  id TEXT PRIMARY KEY,
  installation_id BIGINT NOT NULL,
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  pull_number INTEGER,
  base_ref TEXT NOT NULL,
  envelope_hash TEXT NOT NULL,
  properties TEXT NOT NULL,
  run_a_id BIGINT NOT NULL,
  run_a_attempt INTEGER NOT NULL,
  run_a_url TEXT,
  evidence_a TEXT NOT NULL,
  runner_a TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'dispatching', 'waiting', 'comparing', 'decided', 'reporting', 'done')),
  claim_owner TEXT,
  claim_until BIGINT,
  dispatch_mode TEXT,
  run_b_id BIGINT,
  run_b_url TEXT,
  evidence_b TEXT,
  runner_b TEXT,
  outcome TEXT,
  outcome_code TEXT,
  outcome_detail TEXT,
  results TEXT,
  created_at BIGINT NOT NULL,
  dispatched_at BIGINT,
  deadline_at BIGINT NOT NULL,
  decided_at BIGINT,
  done_at BIGINT
)
`,
            `CREATE INDEX dual_runs_state ON dual_runs (state, deadline_at)`,
            `CREATE INDEX dual_runs_run_b ON dual_runs (repository, run_b_id)`,
            `
CREATE TABLE ledger_prs (
  lock_key TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  property TEXT NOT NULL,
  envelope_hash TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  dual_run_id TEXT NOT NULL,
  installation_id BIGINT NOT NULL,
  freeze_id TEXT NOT NULL UNIQUE,
  branch TEXT NOT NULL,
  base_ref TEXT NOT NULL,
  ledger_path TEXT NOT NULL,
  row_text TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  expires_on TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  state TEXT NOT NULL CHECK (state IN ('claimed', 'shadowed', 'opened', 'merged', 'closed')),
  claim_owner TEXT,
  claim_until BIGINT,
  pr_number INTEGER,
  pr_url TEXT,
  check_run_id BIGINT,
  base_sha TEXT,
  created_at BIGINT NOT NULL,
  opened_at BIGINT,
  first_review_at BIGINT,
  review_alerted_at BIGINT,
  closed_at BIGINT,
  UNIQUE (repository, property, envelope_hash, head_sha)
)
`,
            `CREATE INDEX ledger_prs_state ON ledger_prs (state, repository)`,
        ],
    },
    {
        version: 2,
        name: "operations: the dual run's check run id, a heartbeat row per replica for /healthz",
        statements: [
            `ALTER TABLE dual_runs ADD COLUMN check_run_id BIGINT`,
            `
CREATE TABLE heartbeats (
  replica_id TEXT PRIMARY KEY,
  beat_at BIGINT NOT NULL
)
`,
        ],
    },
    {
        version: 3,
        name: "App processes (heartbeats), deliveries queued with their payload",
        statements: [
            `
CREATE TABLE app_processes (
  owner TEXT PRIMARY KEY,
  replica TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  stopped_at BIGINT
)
`,
            `CREATE INDEX app_processes_replica ON app_processes (replica, stopped_at)`,
            `
CREATE TABLE deliveries_v2 (
  delivery_id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('processing', 'queued', 'done', 'failed')),
  owner TEXT NOT NULL,
  lease_until BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  received_at BIGINT NOT NULL,
  finished_at BIGINT,
  outcome TEXT,
  error_code TEXT,
  error_message TEXT,
  payload TEXT
)
`,
            `
INSERT INTO deliveries_v2 (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, finished_at, outcome, error_code, error_message)
  SELECT delivery_id, event, state, owner, lease_until, attempts, failures, received_at, finished_at, outcome, error_code, error_message FROM deliveries
`,
            `DROP TABLE deliveries`,
            `ALTER TABLE deliveries_v2 RENAME TO deliveries`,
            `CREATE INDEX deliveries_state ON deliveries (state, owner)`,
        ],
    },
    {
        version: 4,
        name: "runner B's budget (reservations, limit overrides) and the switches' append-only history",
        statements: [
            `
CREATE TABLE budget_reservations (
  dual_run_id TEXT PRIMARY KEY,
  installation_id BIGINT NOT NULL,
  repository TEXT NOT NULL,
  day TEXT NOT NULL,
  installation_seq INTEGER NOT NULL,
  repository_seq INTEGER NOT NULL,
  max_minutes INTEGER NOT NULL,
  measured_minutes INTEGER,
  measured_at BIGINT,
  run_b_id BIGINT,
  reserved_at BIGINT NOT NULL,
  reserved_by TEXT NOT NULL,
  attempted_at BIGINT,
  UNIQUE (installation_id, day, installation_seq),
  UNIQUE (repository, day, repository_seq)
)
`,
            `CREATE INDEX budget_reservations_repository ON budget_reservations (repository, day)`,
            `
CREATE TABLE budget_limits (
  scope TEXT PRIMARY KEY,
  dispatches_per_day INTEGER NOT NULL CHECK (dispatches_per_day >= 0),
  minutes_per_day INTEGER NOT NULL CHECK (minutes_per_day >= 0),
  changed_by TEXT NOT NULL,
  reason TEXT NOT NULL,
  changed_at BIGINT NOT NULL
)
`,
            `
CREATE TABLE switch_history (
  seq INTEGER PRIMARY KEY,
  switch TEXT NOT NULL,
  state TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('change', 'revert', 'configured')),
  actor TEXT NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL
)
`,
            `CREATE INDEX switch_history_switch ON switch_history (switch, seq)`,
            `
INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at)
  SELECT 1, 'pause', CASE WHEN paused = 1 THEN '{"paused":true}' ELSE '{"paused":false}' END, 'change',
    COALESCE(changed_by, 'migration 4'), COALESCE(reason, 'the state found when the history began'), COALESCE(changed_at, 0)
  FROM kill_switch WHERE id = 1
`,
        ],
    },
    {
        version: 5,
        name: "crash-loop bound: clean stops of App processes, operators' crash resets",
        // Processes stopped before this migration are taken as stopped cleanly: their history is unknown.
        statements: [
            `ALTER TABLE app_processes ADD COLUMN clean_stop_at BIGINT`,
            `UPDATE app_processes SET clean_stop_at = stopped_at WHERE stopped_at IS NOT NULL`,
            `
CREATE TABLE app_crash_resets (
  id TEXT PRIMARY KEY,
  replica TEXT NOT NULL,
  reset_at BIGINT NOT NULL,
  reset_by TEXT NOT NULL,
  reason TEXT NOT NULL,
  crashes INTEGER NOT NULL
)
`,
            `CREATE INDEX app_crash_resets_replica ON app_crash_resets (replica, reset_at)`,
        ],
    },
    {
        version: 6,
        name: "the redelivery sweep: its pass (one replica at a time) and mark, and each delivery it asked GitHub for again",
        statements: [
            `
CREATE TABLE redelivery_sweep (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  mark_at BIGINT,
  owner TEXT,
  until_at BIGINT,
  last_pass TEXT
)
`,
            `INSERT INTO redelivery_sweep (id) VALUES (1)`,
            `
CREATE TABLE redeliveries (
  guid TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  hook_delivery_id BIGINT NOT NULL,
  first_failed_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  requested_at BIGINT,
  state TEXT NOT NULL CHECK (state IN ('requested', 'refused', 'delivered', 'exhausted', 'expired')),
  code TEXT,
  message TEXT,
  updated_at BIGINT NOT NULL
)
`,
            `CREATE INDEX redeliveries_state ON redeliveries (state, updated_at)`,
        ],
    },
    {
        version: 7,
        name: "ledger PRs the App can prove its own: the commit it made, the PR's head repository, why one was refused",
        // Rows opened before this migration were opened in their own repository; the commit they carry is unknown.
        statements: [
            `ALTER TABLE ledger_prs ADD COLUMN ledger_commit TEXT`,
            `ALTER TABLE ledger_prs ADD COLUMN head_repository TEXT`,
            `ALTER TABLE ledger_prs ADD COLUMN outcome_code TEXT`,
            `ALTER TABLE ledger_prs ADD COLUMN outcome_detail TEXT`,
            `UPDATE ledger_prs SET head_repository = repository WHERE pr_number IS NOT NULL`,
            `CREATE INDEX ledger_prs_pull ON ledger_prs (repository, pr_number)`,
        ],
    },
    {
        version: 8,
        name: "runs verified against GitHub's API: runner B's dispatch base, refused runs, and the App's verified check per run attempt",
        statements: [
            `ALTER TABLE dual_runs ADD COLUMN base_sha TEXT`,
            `ALTER TABLE dual_runs ADD COLUMN dispatch_sent_at BIGINT`,
            `
CREATE TABLE run_refusals (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('runner_a', 'runner_b')),
  code TEXT NOT NULL,
  reason TEXT NOT NULL,
  event TEXT,
  head_sha TEXT,
  dual_run_id TEXT,
  refused_at BIGINT NOT NULL,
  PRIMARY KEY (repository, run_id, run_attempt, role)
)
`,
            `CREATE INDEX run_refusals_at ON run_refusals (refused_at)`,
            `
CREATE TABLE verified_checks (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  head_sha TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('claimed', 'posted', 'skipped')),
  claim_owner TEXT,
  claim_until BIGINT,
  conclusion TEXT,
  code TEXT,
  check_run_id BIGINT,
  created_at BIGINT NOT NULL,
  posted_at BIGINT,
  PRIMARY KEY (repository, run_id, run_attempt)
)
`,
        ],
    },
    {
        version: 9,
        name: "audit runs of the default branch and the envelope PR proposed from them",
        statements: [
            `
CREATE TABLE audit_runs (
  repository TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  branch TEXT,
  head_sha TEXT,
  run_url TEXT,
  state TEXT NOT NULL CHECK (state IN ('verified', 'ignored', 'refused')),
  code TEXT,
  reason TEXT,
  evidence TEXT,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (repository, run_id, run_attempt)
)
`,
            `CREATE INDEX audit_runs_at ON audit_runs (recorded_at)`,
            `
CREATE TABLE envelope_prs (
  id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  installation_id BIGINT NOT NULL,
  branch TEXT NOT NULL,
  base_ref TEXT NOT NULL,
  envelope_path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('claimed', 'opened', 'shadowed', 'closed', 'merged')),
  mode TEXT NOT NULL CHECK (mode IN ('shadow', 'active')),
  claim_owner TEXT,
  claim_until BIGINT,
  envelope_text TEXT NOT NULL,
  envelope_digest TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  runs TEXT NOT NULL,
  base_sha TEXT,
  commit_sha TEXT,
  pr_number INTEGER,
  pr_url TEXT,
  outcome_code TEXT,
  outcome_detail TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  closed_at BIGINT
)
`,
            `CREATE UNIQUE INDEX envelope_prs_one_per_repository ON envelope_prs (repository) WHERE state IN ('claimed', 'opened', 'shadowed')`,
            `CREATE INDEX envelope_prs_pull ON envelope_prs (repository, pr_number)`,
        ],
    },
    {
        version: 10,
        name: "one verified check per commit: each open pull request's verdict, and the commit's check",
        statements: [
            `
CREATE TABLE pull_verdicts (
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  pull_number INTEGER NOT NULL,
  base_ref TEXT NOT NULL,
  base_sha TEXT NOT NULL,
  run_id BIGINT NOT NULL,
  run_attempt INTEGER NOT NULL,
  conclusion TEXT NOT NULL,
  code TEXT,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  recorded_at BIGINT NOT NULL,
  PRIMARY KEY (repository, head_sha, pull_number)
)
`,
            `
CREATE TABLE verified_heads (
  repository TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  generation BIGINT NOT NULL,
  posted_generation BIGINT NOT NULL,
  claim_owner TEXT,
  claim_until BIGINT,
  check_run_id BIGINT,
  conclusion TEXT,
  code TEXT,
  pulls TEXT,
  foreign_checks TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (repository, head_sha)
)
`,
            `CREATE INDEX verified_heads_at ON verified_heads (updated_at)`,
        ],
    },
    {
        version: 11,
        name: "gated pull requests: a pull request the gate once held stays gated until a reviewer ungates it",
        statements: [
            `
CREATE TABLE gated_pulls (
  repository TEXT NOT NULL,
  pull_number INTEGER NOT NULL,
  reason TEXT NOT NULL,
  gated_at BIGINT NOT NULL,
  ungated_by TEXT,
  ungated_review_id BIGINT,
  ungated_head_sha TEXT,
  ungated_at BIGINT,
  PRIMARY KEY (repository, pull_number)
)
`,
        ],
    },
    {
        version: 12,
        name: "the redelivery sweep resumes its walk: the walk in progress, what the mark waits on, a backlog GitHub no longer keeps",
        // A sweep row from before this migration has no walk in progress: its next pass starts one from the newest page.
        statements: [
            `ALTER TABLE redelivery_sweep ADD COLUMN walk TEXT`,
            `ALTER TABLE redelivery_sweep ADD COLUMN mark_waits TEXT`,
            `ALTER TABLE redelivery_sweep ADD COLUMN backlog_expired TEXT`,
        ],
    },
    {
        version: 13,
        name: "GitHub's rate limit per installation (every replica's latest reading), and deliveries deferred until a time",
        // A delivery from before this migration has no not_before: it is taken up as before.
        statements: [
            `
CREATE TABLE rate_limits (
  installation_id BIGINT NOT NULL,
  resource TEXT NOT NULL,
  remaining INTEGER,
  quota INTEGER,
  reset_at BIGINT,
  observed_at BIGINT NOT NULL,
  observed_by TEXT NOT NULL,
  retry_after_until BIGINT,
  PRIMARY KEY (installation_id, resource)
)
`,
            `ALTER TABLE deliveries ADD COLUMN not_before BIGINT`,
        ],
    },
    {
        version: 14,
        name: "the organisation envelope per owner (its digest and when it changed) and each repository's latest result against it",
        statements: [
            `
CREATE TABLE org_ceilings (
  owner TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  digest TEXT,
  ceiling_id TEXT,
  source_sha TEXT,
  detail TEXT NOT NULL,
  exceptions TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  read_at BIGINT NOT NULL
)
`,
            `
CREATE TABLE ceiling_results (
  repository TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  digest TEXT,
  outcome TEXT NOT NULL,
  detail TEXT NOT NULL,
  exceptions TEXT NOT NULL,
  footprint TEXT NOT NULL,
  checked_at BIGINT NOT NULL
)
`,
        ],
    },
];
/** Applies the pending ones of `migrations` (the App's own unless a test brings others), in one transaction. */
async function migrate(db, now, migrations = MIGRATIONS) {
    const applied = [];
    await db.migrationTransaction(async (tx) => {
        await tx.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
        const done = new Set((await tx.all("SELECT version FROM schema_migrations")).map((r) => Number(r.version)));
        for (const m of migrations) {
            if (done.has(m.version))
                continue;
            for (const statement of m.statements)
                await tx.exec(statement);
            await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [m.version, m.name, now]);
            applied.push(m.version);
        }
    });
    return applied;
}

;// CONCATENATED MODULE: ./src/store/switches.ts

const PAUSE_SWITCH = "pause";
const WATCHDOG_ACTOR = "watchdog";
function budgetSwitch(scope) {
    return `budget:${scope}`;
}
function limitLooser(found, recorded, defaults) {
    const f = found ?? defaults;
    const r = recorded ?? defaults;
    return f.dispatchesPerDay > r.dispatchesPerDay || f.minutesPerDay > r.minutesPerDay;
}
function sameLimit(a, b) {
    return a === null || b === null ? a === b : a.dispatchesPerDay === b.dispatchesPerDay && a.minutesPerDay === b.minutesPerDay;
}
function raceLost(err) {
    const code = (0,core_errors/* errnoOf */.UQ)((0,core_errors/* isRefusal */.vu)(err) ? err.cause : err) ?? "";
    return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
class Switches {
    db;
    constructor(db) {
        this.db = db;
    }
    async append(entry, ifLatest) {
        const condition = ifLatest === undefined ? "" : "WHERE COALESCE((SELECT MAX(seq) FROM switch_history x WHERE x.switch = ?), 0) = ?";
        const params = [entry.switch, JSON.stringify(entry.state), entry.kind, entry.actor, entry.reason, entry.at];
        if (ifLatest !== undefined)
            params.push(entry.switch, ifLatest);
        for (let attempt = 0; attempt < 50; attempt++) {
            try {
                const rows = await this.db.all(`INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at)
           SELECT n.next, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
           FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM switch_history) n ${condition} RETURNING seq`, params);
                if (!rows[0])
                    return null;
                return Number(rows[0].seq);
            }
            catch (err) {
                if (!raceLost(err))
                    throw err;
            }
        }
        throw new core_errors/* Refusal */.P_("STORE_UNAVAILABLE", "the switch history could not be appended to: 50 attempts lost a race");
    }
    async history(limit) {
        const rows = await this.db.all("SELECT * FROM switch_history ORDER BY seq DESC LIMIT ?", [limit]);
        return rows.map(entryOf);
    }
    /** The latest entry of every switch. */
    async latest() {
        const rows = await this.db.all(`SELECT h.* FROM switch_history h
       WHERE h.seq = (SELECT MAX(seq) FROM switch_history x WHERE x.switch = h.switch)`);
        return new Map(rows.map(entryOf).map((e) => [e.switch, e]));
    }
    /**
     * Pauses or resumes, recorded first. Resolves false (and records nothing) when the switch is
     * already in that state.
     */
    async setPause(paused, actor, reason, now) {
        const row = await this.db.all("SELECT paused FROM kill_switch WHERE id = 1");
        const recorded = (await this.latest()).get(PAUSE_SWITCH);
        const recordedPaused = recorded && "paused" in recorded.state ? recorded.state.paused : false;
        if (row[0] && Number(row[0].paused) === (paused ? 1 : 0) && recordedPaused === paused)
            return false;
        await this.append({ switch: PAUSE_SWITCH, state: { paused }, kind: "change", actor, reason, at: now });
        await this.db.run("UPDATE kill_switch SET paused = ?, reason = ?, changed_by = ?, changed_at = ? WHERE id = 1", [
            paused ? 1 : 0,
            paused ? reason : null,
            actor,
            now,
        ]);
        return true;
    }
    /** Sets (or, with null, removes) a scope's limit override, recorded first. */
    async setLimit(scope, limit, actor, reason, now) {
        await this.append({ switch: budgetSwitch(scope), state: { limit }, kind: "change", actor, reason, at: now });
        if (limit === null) {
            await this.db.run("DELETE FROM budget_limits WHERE scope = ?", [scope]);
            return;
        }
        await this.db.run(`INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET dispatches_per_day = excluded.dispatches_per_day, minutes_per_day = excluded.minutes_per_day,
         changed_by = excluded.changed_by, reason = excluded.reason, changed_at = excluded.changed_at`, [scope, limit.dispatchesPerDay, limit.minutesPerDay, actor, reason, now]);
    }
    /** Every switch whose state differs from its latest history entry. `defaults` are the configured caps per scope kind. */
    async drift(defaults) {
        const latest = await this.latest();
        const out = [];
        const kill = await this.db.all("SELECT paused FROM kill_switch WHERE id = 1");
        if (!kill[0])
            throw new core_errors/* Refusal */.P_("STORE_UNAVAILABLE", "the kill switch row is missing from the store");
        const paused = Number(kill[0].paused) === 1;
        const pause = latest.get(PAUSE_SWITCH);
        const recordedPaused = pause && "paused" in pause.state ? pause.state.paused : false;
        if (recordedPaused !== paused) {
            out.push({
                switch: PAUSE_SWITCH,
                recorded: { paused: recordedPaused },
                found: { paused },
                loosens: recordedPaused && !paused,
                recordedSeq: pause?.seq ?? 0,
            });
        }
        const rows = await this.db.all("SELECT scope, dispatches_per_day, minutes_per_day FROM budget_limits");
        const found = new Map(rows.map((r) => [String(r.scope), { dispatchesPerDay: Number(r.dispatches_per_day), minutesPerDay: Number(r.minutes_per_day) }]));
        const scopes = new Set([...found.keys(), ...[...latest.keys()].filter((k) => k.startsWith("budget:")).map((k) => k.slice(7))]);
        for (const scope of [...scopes].sort()) {
            const entry = latest.get(budgetSwitch(scope));
            const recorded = entry && "limit" in entry.state ? entry.state.limit : null;
            const now = found.get(scope) ?? null;
            if (sameLimit(recorded, now))
                continue;
            out.push({
                switch: budgetSwitch(scope),
                recorded: { limit: recorded },
                found: { limit: now },
                loosens: limitLooser(now, recorded, defaults(scope)),
                recordedSeq: entry?.seq ?? 0,
            });
        }
        return out;
    }
    /**
     * The watchdog's answer to one drift. A loosening change is reverted to the recorded state
     * (conditionally on the state it found, so two replicas revert once); a tightening one is
     * kept and recorded, since a stop is never undone by automation. Both are conditional on
     * the latest recorded change being still the one compared with: a change recorded meanwhile
     * (an operator's command) is never adopted over or reverted. Resolves to what it did, or
     * null when the state moved again meanwhile.
     */
    async answer(drift, now) {
        const describe = `found ${JSON.stringify(drift.found)}, recorded ${JSON.stringify(drift.recorded)}`;
        const unchanged = "COALESCE((SELECT MAX(seq) FROM switch_history x WHERE x.switch = ?), 0) = ?";
        if (!drift.loosens) {
            const seq = await this.append({
                switch: drift.switch,
                state: drift.found,
                kind: "change",
                actor: "unrecorded",
                reason: `a change made outside the App's commands, kept because it only tightens (${describe})`,
                at: now,
            }, drift.recordedSeq);
            return seq === null ? null : "adopted";
        }
        let changed;
        if (drift.switch === PAUSE_SWITCH) {
            const pause = (await this.latest()).get(PAUSE_SWITCH);
            changed = await this.db.run(`UPDATE kill_switch SET paused = 1, reason = ?, changed_by = ?, changed_at = ? WHERE id = 1 AND paused = 0 AND ${unchanged}`, [pause?.reason ?? "restored by the watchdog", WATCHDOG_ACTOR, now, drift.switch, drift.recordedSeq]);
        }
        else {
            const scope = drift.switch.slice("budget:".length);
            const recorded = "limit" in drift.recorded ? drift.recorded.limit : null;
            const found = "limit" in drift.found ? drift.found.limit : null;
            if (recorded === null) {
                changed = await this.db.run(`DELETE FROM budget_limits WHERE scope = ? AND dispatches_per_day = ? AND minutes_per_day = ? AND ${unchanged}`, [scope, found?.dispatchesPerDay, found?.minutesPerDay, drift.switch, drift.recordedSeq]);
            }
            else if (found === null) {
                changed = await this.db.run(`INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at)
           SELECT CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
           WHERE ${unchanged}
           ON CONFLICT (scope) DO NOTHING`, [
                    scope,
                    recorded.dispatchesPerDay,
                    recorded.minutesPerDay,
                    WATCHDOG_ACTOR,
                    "restored by the watchdog",
                    now,
                    drift.switch,
                    drift.recordedSeq,
                ]);
            }
            else {
                changed = await this.db.run(`UPDATE budget_limits SET dispatches_per_day = ?, minutes_per_day = ?, changed_by = ?, reason = ?, changed_at = ?
           WHERE scope = ? AND dispatches_per_day = ? AND minutes_per_day = ? AND ${unchanged}`, [
                    recorded.dispatchesPerDay,
                    recorded.minutesPerDay,
                    WATCHDOG_ACTOR,
                    "restored by the watchdog",
                    now,
                    scope,
                    found.dispatchesPerDay,
                    found.minutesPerDay,
                    drift.switch,
                    drift.recordedSeq,
                ]);
            }
        }
        if (changed !== 1)
            return null;
        // Recorded only if no command was recorded since: a command's own apply follows its entry.
        await this.append({
            switch: drift.switch,
            state: drift.recorded,
            kind: "revert",
            actor: WATCHDOG_ACTOR,
            reason: `SWITCH_UNRECORDED_CHANGE: reverted a change no command recorded (${describe})`,
            at: now,
        }, drift.recordedSeq);
        return "reverted";
    }
}
function entryOf(r) {
    return {
        seq: Number(r.seq),
        switch: String(r.switch),
        state: JSON.parse(String(r.state)),
        kind: String(r.kind),
        actor: String(r.actor),
        reason: String(r.reason),
        at: Number(r.at),
    };
}

;// CONCATENATED MODULE: ./src/store/store.ts











const DUAL_RUN_COLUMNS = new Set([
    "claim_owner",
    "claim_until",
    "dispatch_mode",
    "run_b_id",
    "run_b_url",
    "evidence_b",
    "runner_b",
    "outcome",
    "outcome_code",
    "outcome_detail",
    "results",
    "check_run_id",
    "dispatched_at",
    "deadline_at",
    "decided_at",
    "done_at",
    "base_sha",
    "dispatch_sent_at",
]);
const LEDGER_PR_COLUMNS = new Set([
    "claim_owner",
    "claim_until",
    "pr_number",
    "pr_url",
    "check_run_id",
    "base_sha",
    "opened_at",
    "first_review_at",
    "review_alerted_at",
    "closed_at",
    "row_text",
    "body",
    "title",
    "ledger_commit",
    "head_repository",
    "outcome_code",
    "outcome_detail",
]);
function assignments(fields, allowed) {
    const keys = Object.keys(fields).filter((k) => fields[k] !== undefined);
    for (const k of keys)
        if (!allowed.has(k))
            throw new Error(`column ${k} cannot be set by a transition`);
    return { sql: keys.map((k) => `, ${k} = ?`).join(""), params: keys.map((k) => fields[k]) };
}
function inList(values) {
    return values.map(() => "?").join(", ");
}
function boolOf(v) {
    return v === true || v === 1 || v === "1";
}
const DEFAULT_HEARTBEAT_STALE_MS = 30_000;
/**
 * The App's durable state. Every state change is one conditional statement whose WHERE clause
 * names the state it leaves; a caller that changed no row lost the race and does nothing.
 */
class Store {
    db;
    /**
     * A claim owner whose heartbeat is older than this is gone, and its claims (deliveries, dual
     * runs, ledger PRs) may be taken over. The App sets it from ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS.
     */
    heartbeatStaleMs = DEFAULT_HEARTBEAT_STALE_MS;
    /** Runner B's budget: reservations and limit overrides. */
    budget;
    /** The switches (pause, budget limits) and their append-only history. */
    switches;
    /** Runs refused as runner A or B, and the App's verified check per run attempt. */
    runs;
    /** Audit runs of the default branch and the envelope PR proposed from them. */
    envelopePrs;
    /** The verified check per commit: each open pull request's verdict, and the commit's check. */
    heads;
    /** Pull requests the gate held once, and who ungated them. */
    gated;
    /** GitHub's rate limit per installation, as any replica last read it from an answer. */
    rateLimits;
    /** Each owner's organisation envelope as last read, and each repository's latest result against it. */
    ceilings;
    constructor(db) {
        this.db = db;
        this.budget = new BudgetLedger(db);
        this.switches = new Switches(db);
        this.runs = new RunRecords(db, (now) => this.claimLapsed("verified_checks", now));
        this.envelopePrs = new EnvelopePrRecords(db, (now) => this.claimLapsed("envelope_prs", now));
        this.heads = new VerifiedHeads(db, (now) => this.claimLapsed("verified_heads", now));
        this.gated = new GatedPullRecords(db);
        this.rateLimits = new RateLimits(db);
        this.ceilings = new OrgCeilingRecords(db);
    }
    get backend() {
        return this.db.dialect;
    }
    migrate(now) {
        return migrate(this.db, now);
    }
    async ping() {
        await this.db.all("SELECT 1 AS ok");
    }
    close() {
        return this.db.close();
    }
    // ---- kill switch -------------------------------------------------------------------------
    /**
     * The kill switch as every send reads it, in one query: paused when its row says so OR its
     * latest recorded change says so. A pause cleared behind the App's back (a hand-edited row,
     * a bug) therefore stops nothing from staying stopped, even before the watchdog restores it.
     */
    async killSwitch() {
        const rows = await this.db.all(`SELECT paused, reason, changed_by, changed_at,
         (SELECT state FROM switch_history WHERE switch = 'pause' ORDER BY seq DESC LIMIT 1) AS recorded
       FROM kill_switch WHERE id = 1`);
        const row = rows[0];
        // The row is written by migration 1; its absence means the store is not what we migrated.
        if (!row)
            throw new core_errors/* Refusal */.P_("STORE_UNAVAILABLE", "the kill switch row is missing from the store: it is not the one the App migrated");
        // A recorded state that cannot be read is a pause: "could not check" never reads as "running".
        let recorded = { paused: false };
        if (row.recorded !== null && row.recorded !== undefined) {
            try {
                const state = JSON.parse(String(row.recorded));
                if (typeof state?.paused !== "boolean")
                    throw new Error(`no paused flag in ${String(row.recorded).slice(0, 80)}`);
                recorded = { paused: state.paused };
            }
            catch (err) {
                recorded = { paused: true, unreadable: err.message };
            }
        }
        return {
            paused: boolOf(row.paused) || recorded.paused,
            reason: recorded.unreadable !== undefined
                ? `the latest recorded pause state cannot be read (${recorded.unreadable}); treated as paused`
                : (row.reason ?? (recorded.paused ? "recorded paused; the row was cleared without a recorded resume" : null)),
            changed_by: row.changed_by ?? null,
            changed_at: row.changed_at === null ? null : Number(row.changed_at),
        };
    }
    /**
     * Pauses (true) or resumes (false), recorded with who and why in the switch history first.
     * Resolves false when it was already in that state.
     */
    setKillSwitch(paused, reason, by, now) {
        return this.switches.setPause(paused, by, reason, now);
    }
    // ---- installations -----------------------------------------------------------------------
    /** A new installation starts in shadow mode. Returns the installation's current mode. */
    async ensureInstallation(id, account, now) {
        await this.db.run("INSERT INTO installations (installation_id, account, mode, created_at) VALUES (?, ?, 'shadow', ?) ON CONFLICT (installation_id) DO NOTHING", [id, account, now]);
        const mode = await this.installationMode(id);
        return mode ?? "shadow";
    }
    async installationMode(id) {
        const rows = await this.db.all("SELECT mode FROM installations WHERE installation_id = ?", [id]);
        return rows[0]?.mode ?? null;
    }
    async promoteInstallation(id, by, now) {
        const changed = await this.db.run("UPDATE installations SET mode = 'active', promoted_at = ?, promoted_by = ? WHERE installation_id = ? AND mode = 'shadow'", [now, by, id]);
        return changed === 1;
    }
    async demoteInstallation(id) {
        const changed = await this.db.run("UPDATE installations SET mode = 'shadow', promoted_at = NULL, promoted_by = NULL WHERE installation_id = ? AND mode = 'active'", [id]);
        return changed === 1;
    }
    async listInstallations() {
        const rows = await this.db.all("SELECT * FROM installations ORDER BY installation_id");
        return rows.map((r) => ({ ...r, installation_id: Number(r.installation_id) }));
    }
    // ---- App processes (claim owners) --------------------------------------------------------
    /**
     * Records a starting App process. `owner` is unique to this start (the replica id plus a
     * random incarnation); earlier incarnations of the same replica id are marked stopped, so
     * their claims can be taken over at once (a restarted replica's predecessor is known dead).
     */
    async registerProcess(owner, replica, now) {
        await this.db.run("UPDATE app_processes SET stopped_at = ? WHERE replica = ? AND owner <> ? AND stopped_at IS NULL", [
            now,
            replica,
            owner,
        ]);
        await this.db.run("INSERT INTO app_processes (owner, replica, started_at, heartbeat_at) VALUES (?, ?, ?, ?) ON CONFLICT (owner) DO NOTHING", [owner, replica, now, now]);
    }
    /** Refreshes a process's heartbeat; false when it is recorded stopped. */
    async heartbeat(owner, now) {
        return (await this.db.run("UPDATE app_processes SET heartbeat_at = ? WHERE owner = ? AND stopped_at IS NULL", [now, owner])) === 1;
    }
    /**
     * Marks a process stopped: its claims can be taken over at once. It is also its clean stop
     * (`clean_stop_at`), so it never counts as a crash (src/store/crashes.ts).
     */
    async stopProcess(owner, now) {
        await this.db.run("UPDATE app_processes SET stopped_at = COALESCE(stopped_at, ?), clean_stop_at = ? WHERE owner = ? AND clean_stop_at IS NULL", [now, now, owner]);
    }
    async listProcesses() {
        const rows = await this.db.all("SELECT * FROM app_processes ORDER BY started_at, owner");
        return rows.map((r) => ({
            owner: String(r.owner),
            replica: String(r.replica),
            started_at: Number(r.started_at),
            heartbeat_at: Number(r.heartbeat_at),
            stopped_at: r.stopped_at === null ? null : Number(r.stopped_at),
        }));
    }
    /**
     * SQL true when a dual run's or ledger PR's claim may be taken over: its lease ran out, or
     * its owner is gone. Parameters: now, the oldest live heartbeat.
     */
    claimLapsed(table, now) {
        const gone = this.ownerGone(`${table}.claim_owner`, now);
        return { sql: `(${table}.claim_until < ? OR ${gone.sql})`, params: [now, ...gone.params] };
    }
    /**
     * SQL true when the claim owner in `column` is gone: no process row, recorded stopped, or a
     * heartbeat older than `heartbeatStaleMs`. One parameter: the oldest live heartbeat.
     */
    ownerGone(column, now) {
        return {
            sql: `NOT EXISTS (SELECT 1 FROM app_processes p WHERE p.owner = ${column} AND p.stopped_at IS NULL AND p.heartbeat_at >= ?)`,
            params: [now - this.heartbeatStaleMs],
        };
    }
    // ---- deliveries --------------------------------------------------------------------------
    /**
     * When a `processing` delivery may be taken over: its owner is gone (crashed, stopped, lost
     * its store), its lease ran out, or the caller is its owner (the caller checked the delivery
     * is not in flight in its own process).
     */
    deliveryTakeover(now, owner) {
        const gone = this.ownerGone("deliveries.owner", now);
        return {
            sql: `deliveries.state = 'queued' OR (deliveries.state = 'processing' AND (deliveries.lease_until < ? OR deliveries.owner = ? OR ${gone.sql}))`,
            params: [now, owner, ...gone.params],
        };
    }
    /**
     * Claims a webhook delivery for processing, in one statement: a new id is inserted with its
     * payload; a failed or queued one, or one whose owner is gone (or whose lease ran out), is
     * taken over. Anything else (done, or being processed by a live process) is not claimed.
     */
    async claimDelivery(id, event, owner, now, leaseMs, payload = null) {
        const takeover = this.deliveryTakeover(now, owner);
        const changed = await this.db.run(`INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, payload)
       VALUES (?, ?, 'processing', ?, ?, 1, 0, ?, ?)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'processing', owner = excluded.owner,
         lease_until = excluded.lease_until, attempts = deliveries.attempts + 1, error_code = NULL, error_message = NULL,
         payload = COALESCE(excluded.payload, deliveries.payload)
       WHERE deliveries.state = 'failed' OR ${takeover.sql}`, [id, event, owner, now + leaseMs, now, payload, ...takeover.params]);
        return changed === 1;
    }
    /**
     * Records a delivery `queued` with its payload, for a worker or the sweeper of any replica,
     * in one statement: a new id, or one recorded `failed` or `queued`. `reason` is why it was
     * set aside (a drain); null means no attempt has failed yet, so a free worker takes it up.
     * Resolves false when the delivery is done or being processed.
     */
    async queueDelivery(id, event, owner, now, payload, reason) {
        const changed = await this.db.run(`INSERT INTO deliveries (delivery_id, event, state, owner, lease_until, attempts, failures, received_at, payload, error_code, error_message)
       VALUES (?, ?, 'queued', ?, ?, 0, 0, ?, ?, ?, ?)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'queued', payload = COALESCE(deliveries.payload, excluded.payload),
         error_code = excluded.error_code, error_message = excluded.error_message
       WHERE deliveries.state IN ('failed', 'queued')`, [id, event, owner, now, now, payload, reason?.code ?? null, reason?.message ?? null]);
        return changed === 1;
    }
    /** Queued deliveries no attempt has failed yet (or set aside by a drain), oldest first: what a free worker takes up. */
    async waitingDeliveries(limit) {
        return this.db.all(`SELECT delivery_id, event, payload FROM deliveries
       WHERE state = 'queued' AND payload IS NOT NULL AND (error_code IS NULL OR error_code = 'APP_DRAINING')
       ORDER BY received_at, delivery_id LIMIT ?`, [limit]);
    }
    /**
     * Takes over a recorded delivery (queued, or orphaned by a gone owner) for the sweeper. Its
     * last error stays until the attempt settles, so the status page still shows why it is retried.
     */
    async reclaimDelivery(id, owner, now, leaseMs) {
        const takeover = this.deliveryTakeover(now, owner);
        const changed = await this.db.run(`UPDATE deliveries SET state = 'processing', owner = ?, lease_until = ?, attempts = attempts + 1
       WHERE delivery_id = ? AND payload IS NOT NULL AND (${takeover.sql})`, [owner, now + leaseMs, id, ...takeover.params]);
        return changed === 1;
    }
    /**
     * Deliveries the sweeper may take: queued ones (a deferred one from its `not_before` on, so
     * deliveries waiting for a budget reset never fill a pass), and processing ones whose owner is
     * gone or is `owner`.
     */
    async sweepableDeliveries(owner, now, limit) {
        const takeover = this.deliveryTakeover(now, owner);
        return this.db.all(`SELECT delivery_id, event, payload FROM deliveries WHERE payload IS NOT NULL AND (${takeover.sql})
       AND (state <> 'queued' OR not_before IS NULL OR not_before <= ?) ORDER BY received_at, delivery_id LIMIT ?`, [...takeover.params, now, limit]);
    }
    async finishDelivery(id, owner, outcome, now) {
        const changed = await this.db.run(`UPDATE deliveries SET state = 'done', outcome = ?, finished_at = ?, payload = NULL, error_code = NULL, error_message = NULL
       WHERE delivery_id = ? AND state = 'processing' AND owner = ?`, [outcome, now, id, owner]);
        return changed === 1;
    }
    /**
     * Notes on a delivery still being processed by `owner` what it is waiting on (GitHub not
     * answering, with the error) while its work retries; its outcome replaces the note.
     */
    async noteDeliveryWaiting(id, owner, code, message) {
        const changed = await this.db.run("UPDATE deliveries SET error_code = ?, error_message = ? WHERE delivery_id = ? AND state = 'processing' AND owner = ?", [code, message.slice(0, 2000), id, owner]);
        return changed === 1;
    }
    /**
     * Records a failed attempt: `failed` (a redelivery processes it again), or, with `queue`,
     * `queued` for the sweeper (the payload stays) until `maxFailures` failures. `countsAsFailure`
     * is false for work set aside on purpose (a pause, a drain, a budget deferral); `notBefore`
     * keeps a queued one from the sweeper until then (a deferral until GitHub's reset).
     */
    async failDelivery(id, owner, code, message, now, options = {}) {
        const counted = options.countsAsFailure === false ? 0 : 1;
        const changed = await this.db.run(`UPDATE deliveries SET state = CASE WHEN ? = 1 AND failures + ? < ? THEN 'queued' ELSE 'failed' END,
         failures = failures + ?, error_code = ?, error_message = ?, finished_at = ?, not_before = ?
       WHERE delivery_id = ? AND state = 'processing' AND owner = ?`, [
            options.queue ? 1 : 0,
            counted,
            options.maxFailures ?? 2_147_483_647,
            counted,
            code,
            message.slice(0, 2000),
            now,
            options.notBefore ?? null,
            id,
            owner,
        ]);
        return changed === 1;
    }
    /**
     * An operator's retry of a delivery recorded `failed` (its cause fixed): queued again with its
     * payload and no error, so the next free worker of any replica takes it up. False when it is
     * not failed, or its payload is gone.
     */
    async retryDelivery(id, now) {
        const changed = await this.db.run(`UPDATE deliveries SET state = 'queued', error_code = NULL, error_message = NULL, finished_at = ?
       WHERE delivery_id = ? AND state = 'failed' AND payload IS NOT NULL`, [now, id]);
        return changed === 1;
    }
    /** Releases every delivery `owner` still holds to the sweeper (a drain that ran out of time). */
    async releaseDeliveries(owner, code, message, now) {
        return this.db.run(`UPDATE deliveries SET state = 'queued', error_code = ?, error_message = ?, finished_at = ?
       WHERE state = 'processing' AND owner = ? AND payload IS NOT NULL`, [code, message, now, owner]);
    }
    async getDelivery(id) {
        const rows = await this.db.all("SELECT * FROM deliveries WHERE delivery_id = ?", [id]);
        return rows[0] ?? null;
    }
    async deliveryCounts() {
        const rows = await this.db.all("SELECT state, COUNT(*) AS n, SUM(attempts - failures) AS executions FROM deliveries GROUP BY state");
        return rows.map((r) => ({ state: r.state, n: Number(r.n), executions: Number(r.executions) }));
    }
    // ---- dual runs ---------------------------------------------------------------------------
    /** Records a dual run in `pending`. Resolves false when it already exists (a redelivery). */
    async insertDualRun(run) {
        const cols = Object.keys(run);
        const changed = await this.db.run(`INSERT INTO dual_runs (${cols.join(", ")}, state) VALUES (${inList(cols)}, 'pending') ON CONFLICT (id) DO NOTHING`, cols.map((c) => run[c]));
        return changed === 1;
    }
    /** Dual runs matching `where` (SQL after `FROM dual_runs`), numeric columns as numbers. */
    async selectDualRuns(where, params) {
        const rows = await this.db.all(`SELECT * FROM dual_runs ${where}`, params);
        return rows.map((row) => store_withNumbers(row, NUMERIC_DUAL));
    }
    async getDualRun(id) {
        return (await this.selectDualRuns("WHERE id = ?", [id]))[0] ?? null;
    }
    async findDualRunByRunB(repository, runBId) {
        return (await this.selectDualRuns("WHERE repository = ? AND run_b_id = ?", [repository, runBId]))[0] ?? null;
    }
    listDualRuns(states) {
        return this.selectDualRuns(`WHERE state IN (${inList(states)}) ORDER BY deadline_at, id`, states);
    }
    /** The 20 latest dual runs not compared for the budget (the status page's refusals), as the database returns them. */
    budgetRefusals() {
        return this.db.all("SELECT id, repository, outcome_code, outcome_detail, decided_at FROM dual_runs WHERE outcome = 'not_compared_budget' ORDER BY decided_at DESC LIMIT 20");
    }
    recentDualRuns(limit) {
        return this.selectDualRuns("ORDER BY created_at DESC, id LIMIT ?", [limit]);
    }
    /**
     * Moves a dual run from one of `from` to `to`, setting `fields`, in one conditional UPDATE.
     * `extra` adds a condition (e.g. the deadline): a RowGuard, or SQL with its parameters.
     */
    transitionDualRun(id, from, to, fields = {}, extra) {
        return this.transition("dual_runs", "id", DUAL_RUN_COLUMNS, id, from, to, fields, extra);
    }
    /**
     * Takes a dual run for work: from `from`, or from `to` when its previous owner's lease ran out.
     * `also` adds a condition (e.g. the deadline): a RowGuard, or SQL with its parameters.
     */
    claimDualRun(id, from, to, owner, now, leaseMs, fields = {}, guard) {
        const also = guardSql(guard, (at) => this.claimLapsed("dual_runs", at));
        const lapsed = this.claimLapsed("dual_runs", now);
        return this.transitionDualRun(id, [from, to], to, { ...fields, claim_owner: owner, claim_until: now + leaseMs }, {
            sql: `(state = ? OR ${lapsed.sql})${also ? ` AND (${also.sql})` : ""}`,
            params: [from, ...lapsed.params, ...(also?.params ?? [])],
        });
    }
    /** Releases a claim back to `back`, only if `owner` still holds it. */
    releaseDualRun(id, held, back, owner, fields = {}) {
        return this.transitionDualRun(id, [held], back, { ...fields, claim_owner: null, claim_until: null }, {
            sql: "claim_owner = ?",
            params: [owner],
        });
    }
    // ---- ledger PRs --------------------------------------------------------------------------
    /**
     * The one-sender lock: the first caller for (repository, property, envelope hash, head sha)
     * inserts the row and owns it; a later caller takes it over only if the owner's claim lapsed
     * before anything was sent (state still `claimed`), or renews it if it is the owner.
     *
     * Two statements, each atomic. The insert names no conflict target, so a conflict on any of
     * the table's unique keys (lock_key, freeze_id, the (repository, property, envelope hash,
     * head sha) key) makes it do nothing. With `ON CONFLICT (lock_key) DO UPDATE`, PostgreSQL
     * arbitrates on lock_key alone: a claim racing an uncommitted insert of the same row then
     * fails on the freeze_id key with a unique violation instead of losing the race.
     */
    async claimLedgerPr(pr, owner, now, leaseMs) {
        const cols = Object.keys(pr);
        const inserted = await this.db.run(`INSERT INTO ledger_prs (${cols.join(", ")}, state, claim_owner, claim_until) VALUES (${inList(cols)}, 'claimed', ?, ?)
       ON CONFLICT DO NOTHING`, [...cols.map((c) => pr[c]), owner, now + leaseMs]);
        if (inserted === 1)
            return true;
        const lapsed = this.claimLapsed("ledger_prs", now);
        const taken = await this.db.run(`UPDATE ledger_prs SET claim_owner = ?, claim_until = ?
       WHERE lock_key = ? AND state = 'claimed' AND (${lapsed.sql} OR claim_owner = ?)`, [owner, now + leaseMs, pr.lock_key, ...lapsed.params, owner]);
        return taken === 1;
    }
    /**
     * Moves a ledger PR from one of `from` to `to`, setting `fields`, in one conditional UPDATE.
     * `extra` adds a condition (e.g. who holds its claim): a RowGuard, or SQL with its parameters.
     */
    transitionLedgerPr(key, from, to, fields = {}, extra) {
        return this.transition("ledger_prs", "lock_key", LEDGER_PR_COLUMNS, key, from, to, fields, extra);
    }
    async transition(table, keyColumn, settable, key, from, to, fields, guard) {
        const extra = guardSql(guard, (at) => this.claimLapsed(table, at));
        const set = assignments(fields, settable);
        const changed = await this.db.run(`UPDATE ${table} SET state = ?${set.sql} WHERE ${keyColumn} = ? AND state IN (${inList(from)})${extra ? ` AND (${extra.sql})` : ""}`, [to, ...set.params, key, ...from, ...(extra?.params ?? [])]);
        return changed === 1;
    }
    /** Ledger PRs matching `where` (SQL after `FROM ledger_prs`), numeric columns as numbers. */
    async selectLedgerPrs(where, params) {
        const rows = await this.db.all(`SELECT * FROM ledger_prs ${where}`, params);
        return rows.map((row) => store_withNumbers(row, NUMERIC_LEDGER));
    }
    async getLedgerPr(key) {
        return (await this.selectLedgerPrs("WHERE lock_key = ?", [key]))[0] ?? null;
    }
    /**
     * The ledger PR the App opened as pull request `number` of `repository`, or null. Tracking is by
     * repository and number (unique on GitHub), never by branch name: a fork PR whose head ref is
     * the ledger branch's name is another number. The caller still compares the head repository.
     */
    async findLedgerPrByPull(repository, number) {
        return (await this.selectLedgerPrs("WHERE repository = ? AND pr_number = ?", [repository, number]))[0] ?? null;
    }
    listLedgerPrs(states, repository) {
        return this.selectLedgerPrs(`WHERE state IN (${inList(states)})${repository === undefined ? "" : " AND repository = ?"} ORDER BY created_at, lock_key`, repository === undefined ? states : [...states, repository]);
    }
    /** The latest ledger PRs the App refused or closed itself (an outcome code recorded), newest first. */
    listRefusedLedgerPrs(limit = 20) {
        return this.selectLedgerPrs("WHERE outcome_code IS NOT NULL ORDER BY closed_at DESC, lock_key LIMIT ?", [limit]);
    }
    listLedgerPrsForDualRun(dualRunId) {
        return this.selectLedgerPrs("WHERE dual_run_id = ? ORDER BY property", [dualRunId]);
    }
}
const NUMERIC_DUAL = [
    "installation_id",
    "run_a_id",
    "run_b_id",
    "created_at",
    "dispatched_at",
    "deadline_at",
    "decided_at",
    "done_at",
    "claim_until",
    "pull_number",
    "run_a_attempt",
    "check_run_id",
    "dispatch_sent_at",
];
const NUMERIC_LEDGER = [
    "installation_id",
    "claim_until",
    "pr_number",
    "check_run_id",
    "created_at",
    "opened_at",
    "first_review_at",
    "review_alerted_at",
    "closed_at",
];
/** Numeric columns as numbers, whichever backend returned them. */
function store_withNumbers(row, columns) {
    const out = { ...row };
    for (const k of columns)
        if (out[k] !== null && out[k] !== undefined)
            out[k] = Number(out[k]);
    return out;
}

;// CONCATENATED MODULE: ./src/store/index.ts






const DEFAULT_SQLITE_PATH = ".data/envelope-gate-app.sqlite";
function storeSettingsFromEnv(env) {
    const databaseUrl = env.DATABASE_URL?.trim() || undefined;
    return {
        databaseUrl,
        pgSchema: env.ENVELOPE_GATE_PG_SCHEMA?.trim() || "public",
        sqlitePath: (0,external_node_path_.resolve)(env.ENVELOPE_GATE_DB_PATH?.trim() || DEFAULT_SQLITE_PATH),
    };
}
function describeStore(settings) {
    if (settings.databaseUrl) {
        let where;
        try {
            const u = new URL(settings.databaseUrl);
            where = `PostgreSQL ${u.hostname}:${u.port || "5432"}${u.pathname}`;
        }
        catch {
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
function publicStoreLabel(settings) {
    if (!settings.databaseUrl)
        return "SQLite";
    let database = "";
    try {
        database = decodeURIComponent(new URL(settings.databaseUrl).pathname.replace(/^\//, ""));
    }
    catch {
        // An unparsable DATABASE_URL is refused when the store opens; the label names no database.
    }
    return `PostgreSQL${database ? ` database ${database}` : ""} schema ${settings.pgSchema ?? "public"}`;
}
/** Opens the configured backend and applies pending migrations. */
async function openStore(settings, now) {
    if (settings.databaseUrl) {
        try {
            new URL(settings.databaseUrl);
        }
        catch {
            throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "DATABASE_URL is not a URL (postgres://user@host:port/database)");
        }
    }
    const db = settings.databaseUrl
        ? openPostgres(settings.databaseUrl, settings.pgSchema ?? "public")
        : await openSqlite(settings.sqlitePath);
    const store = new Store(db);
    try {
        await store.migrate(now);
    }
    catch (err) {
        await db.close().catch(() => undefined);
        throw err;
    }
    return store;
}

;// CONCATENATED MODULE: ./src/app/context.ts

const systemClock = { now: () => Date.now() };
/** The App's log levels, least to most verbose (ENVELOPE_GATE_LOG_LEVEL). */
const LOG_LEVELS = ["error", "warn", "info", "debug"];
/**
 * One JSON line per call at `least` or more severe; more verbose lines are dropped. `level`,
 * `event` and `at` are ours and always win: a field named like them (GitHub's event name, say)
 * never overwrites them; GitHub's event is logged as `github_event`. info and debug go to
 * stdout, warn and error to stderr.
 */
function jsonLoggerAt(least) {
    const shown = LOG_LEVELS.indexOf(least);
    return (level, event, fields = {}) => {
        if (LOG_LEVELS.indexOf(level) > shown)
            return;
        const line = JSON.stringify({ ...fields, level, event, at: new Date().toISOString() });
        if (level === "info" || level === "debug")
            process.stdout.write(line + "\n");
        else
            process.stderr.write(line + "\n");
    };
}
/** The default: info and more severe. */
const jsonLogger = jsonLoggerAt("info");
function fail(code, message) {
    throw new core_errors/* Refusal */.P_(code, message);
}
function codeOf(err) {
    return (0,core_errors/* isRefusal */.vu)(err) ? err.code : "INTERNAL_ERROR";
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/github/app-jwt.ts


const KEY_HINT = "Use the .pem file GitHub generated for the App (App settings > Private keys), unchanged.";
/**
 * Parses a PEM RSA private key (GitHub issues RSA keys); anything else is PRIVATE_KEY_INVALID
 * naming where it came from. The caller zeroes `pem` afterwards.
 */
function parsePrivateKey(pem, origin) {
    let key;
    try {
        key = (0,external_node_crypto_.createPrivateKey)({ key: pem, format: "pem" });
    }
    catch (err) {
        throw new core_errors/* Refusal */.P_("PRIVATE_KEY_INVALID", `${origin} is not a PEM private key (${err.message})`, {
            hint: KEY_HINT,
            cause: err,
        });
    }
    if (key.asymmetricKeyType !== "rsa") {
        throw new core_errors/* Refusal */.P_("PRIVATE_KEY_INVALID", `${origin} is a ${key.asymmetricKeyType ?? "?"} key; GitHub Apps sign with RSA keys`, {
            hint: KEY_HINT,
        });
    }
    return key;
}
const b64url = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
/**
 * The App's JWT (RS256, valid 10 minutes, issued 30 s in the past against clock drift: what
 * `universal-github-app-jwt` makes for @octokit/auth-app), signed with the key read now. The
 * key's bytes are zeroed as soon as they are parsed; the parsed key is dropped when this returns.
 * `timeDifference` is the correction @octokit/auth-app passes after GitHub said our clock is off.
 */
async function createAppJwt(source, appId, timeDifference = 0) {
    const pem = await source.read();
    let key;
    try {
        key = parsePrivateKey(pem, source.origin);
    }
    finally {
        pem.fill(0);
    }
    const iat = Math.floor(Date.now() / 1000) + timeDifference - 30;
    const exp = iat + 600;
    const unsigned = `${b64url({ alg: "RS256", typ: "JWT" })}.${b64url({ iat, exp, iss: appId })}`;
    const signature = (0,external_node_crypto_.sign)("sha256", Buffer.from(unsigned), key).toString("base64url");
    return { jwt: `${unsigned}.${signature}`, expiresAt: new Date(exp * 1000).toISOString() };
}

;// CONCATENATED MODULE: ./src/core/ledger.ts
/**
 * The freeze ledger (CONTRACT.md section 7): a TSV read from the pull request's base commit.
 * A broken header makes the whole file LEDGER_INVALID; a broken row is reported with its line
 * and reason and never honored. Pure: the caller fetches the text.
 */

const LEDGER_COLUMNS = [
    "freeze_id",
    "property",
    "runner_a",
    "runner_b",
    "envelope_hash",
    "expires_on",
    "status",
    "evidence",
];
const LEDGER_HEADER = LEDGER_COLUMNS.join("\t");
const DEFAULT_LEDGER_PATH = ".github/envelope-gate/freeze_ledger.tsv";
/**
 * Names a freeze (and a property) may never carry: every envelope violation rule, every
 * envelope key, and the envelope itself. Envelope violations are never frozen.
 */
const ENVELOPE_RULE_NAMES = [
    "write_outside_root",
    "undeclared_tool",
    "undeclared_env",
    "network_denied",
    "undeclared_host",
    "undeclared_command",
    "forbidden_syscall",
    "write_protected",
    "docker_refused",
    "allowed_roots",
    "allowed_tools",
    "allowed_env",
    "allowed_hosts",
    "allowed_commands",
    "observation",
    "loopback",
    "writable_protected",
    "network",
    "envelope",
    "envelope_id",
];
function isEnvelopeRuleName(name) {
    const lower = name.trim().toLowerCase();
    return ENVELOPE_RULE_NAMES.includes(lower) || ENVELOPE_RULE_NAMES.some((rule) => lower.startsWith(`${rule}:`));
}
const FREEZE_ID = /^F-[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SHA256 = /^sha256:[0-9a-f]{64}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A property name, as schema/properties.schema.json declares it. */
const PROPERTY_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
/** The failure fingerprint of a freeze scope. */
const FINGERPRINT = /^[0-9a-f]{16}$/;
/** A machine id as a runner cell carries it (and runner.json's `machine_id` must be, to be frozen on). */
const MACHINE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
/** A GitHub Actions run id. */
const RUN_ID = /^[1-9][0-9]{0,19}$/;
/** `run-<run id>@<machine id>`, exactly, or null. */
function parseRunnerCell(cell) {
    const at = cell.indexOf("@");
    if (!cell.startsWith("run-") || at < 0)
        return null;
    const runId = cell.slice(4, at);
    const machineId = cell.slice(at + 1);
    return RUN_ID.test(runId) && MACHINE_ID.test(machineId) ? { runId, machineId } : null;
}
/** `<name>#<fingerprint>`, exactly, or null. */
function parseFreezeScope(cell) {
    const hash = cell.indexOf("#");
    if (hash < 0)
        return null;
    const name = cell.slice(0, hash);
    const fingerprint = cell.slice(hash + 1);
    return PROPERTY_NAME.test(name) && FINGERPRINT.test(fingerprint) ? { name, fingerprint } : null;
}
/** The property cell the App writes for a failure of `name` with this fingerprint. */
function freezeScopeCell(name, fingerprint) {
    return `${name}#${fingerprint}`;
}
/**
 * Whitespace and invisible characters a cell must never carry: every Unicode space (NBSP,
 * U+2000..U+200A, U+3000, ...), zero-width characters, bidi controls, the byte order mark and
 * any other control or format character. Cells are compared exactly; nothing is trimmed.
 */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;
function codePoint(ch) {
    return `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}
/** Why a cell's characters make a row unreadable, naming the column; null when it has none of them. */
function invisibleIn(column, cell) {
    const found = [...cell].filter((ch) => INVISIBLE.test(ch));
    if (found.length === 0)
        return null;
    const where = INVISIBLE.test(cell[0] ?? "") || INVISIBLE.test(cell.at(-1) ?? "") ? "leading or trailing" : "inner";
    const names = [...new Set(found.map(codePoint))].join(", ");
    return `the ${column} cell carries ${where} whitespace or invisible characters (${names}); cells are compared exactly and never trimmed`;
}
/** A real calendar date in YYYY-MM-DD form, or false. */
function isValidDate(text) {
    const m = DATE.exec(text);
    if (!m)
        return false;
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
/** Today's date in UTC as YYYY-MM-DD. */
function utcDate(at) {
    return at.toISOString().slice(0, 10);
}
/** Whole days from `from` to `to` (both YYYY-MM-DD). */
function daysBetween(from, to) {
    return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
/** Reasons a row is never honored, whatever the property or date; empty when it is well-formed. */
function rowProblems(row) {
    const reasons = [];
    const unreadable = new Set();
    for (const column of LEDGER_COLUMNS) {
        const reason = invisibleIn(column, row[column]);
        if (reason !== null) {
            reasons.push(reason);
            unreadable.add(column);
        }
    }
    if (!unreadable.has("freeze_id") && !FREEZE_ID.test(row.freeze_id))
        reasons.push(`freeze_id "${row.freeze_id}" is not of the form F-<id>`);
    if (!unreadable.has("property")) {
        const name = row.property.split("#")[0];
        if (row.property === "")
            reasons.push("no property");
        else if (isEnvelopeRuleName(name))
            reasons.push(`it names the envelope rule "${name}"; envelope violations are never frozen`);
        else if (!row.property.includes("#"))
            reasons.push(`the property cell "${row.property}" names no failure scope (<property>#<fingerprint>); a row without a scope is never honored`);
        else if (parseFreezeScope(row.property) === null)
            reasons.push(`the property cell "${row.property}" is not <property>#<16 hex fingerprint>`);
    }
    const cellA = unreadable.has("runner_a") ? null : parseRunnerCell(row.runner_a);
    const cellB = unreadable.has("runner_b") ? null : parseRunnerCell(row.runner_b);
    if (row.runner_a === "" || row.runner_b === "")
        reasons.push("it names one runner; a freeze needs two runs on two machines");
    else {
        for (const [column, cell] of [
            ["runner_a", cellA],
            ["runner_b", cellB],
        ]) {
            if (cell === null && !unreadable.has(column))
                reasons.push(`${column} "${row[column]}" is not run-<run id>@<machine id> (machine id: letters, digits, . _ : -)`);
        }
        if (cellA !== null && cellB !== null) {
            if (cellA.machineId.toLowerCase() === cellB.machineId.toLowerCase())
                reasons.push(`runner_a and runner_b are the same machine ("${cellA.machineId}"); a freeze needs two machines`);
            if (cellA.runId === cellB.runId)
                reasons.push(`runner_a and runner_b are the same run (${cellA.runId}); a freeze needs two runs`);
        }
    }
    if (!unreadable.has("envelope_hash") && !SHA256.test(row.envelope_hash))
        reasons.push(`envelope_hash "${row.envelope_hash}" is not sha256:<64 hex>`);
    if (!unreadable.has("expires_on") && !isValidDate(row.expires_on))
        reasons.push(`expires_on "${row.expires_on}" is not a YYYY-MM-DD date`);
    if (!unreadable.has("status") && row.status !== "open" && row.status !== "closed")
        reasons.push(`status "${row.status}" is neither open nor closed`);
    if (row.evidence === "")
        reasons.push("no evidence");
    else if (!unreadable.has("evidence") && !SHA256.test(row.evidence))
        reasons.push(`evidence "${row.evidence}" is not sha256:<64 hex> of an evidence manifest`);
    return reasons;
}
/** Parses the ledger. Throws LEDGER_INVALID (with line 1) when the header is not the contract's. */
function parseLedger(text, file) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const lines = body.split("\n");
    if (lines.at(-1) === "")
        lines.pop();
    const header = (lines[0] ?? "").replace(/\r$/, "");
    if (header !== LEDGER_HEADER) {
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `${file}:1: the header must be the tab-separated columns ${LEDGER_COLUMNS.join(", ")}${header === "" ? " (the file is empty)" : ""}`, { file, line: 1, hint: `Restore the header line:\n${LEDGER_HEADER}` });
    }
    const rows = [];
    const problems = [];
    const seenIds = new Map();
    const seenScopes = new Map();
    for (let i = 1; i < lines.length; i++) {
        const lineNo = i + 1;
        const line = lines[i].replace(/\r$/, "");
        // An empty line or a comment is no row; a line of only invisible characters is a problem.
        if (line === "" || line.startsWith("#"))
            continue;
        const cells = line.split("\t");
        if (cells.length !== LEDGER_COLUMNS.length) {
            problems.push({
                line: lineNo,
                freeze_id: cells[0] || null,
                reason: `has ${cells.length} columns, the header has ${LEDGER_COLUMNS.length}`,
            });
            continue;
        }
        const row = Object.fromEntries(LEDGER_COLUMNS.map((c, k) => [c, cells[k]]));
        const reasons = rowProblems(row);
        const earlier = seenIds.get(row.freeze_id);
        if (earlier !== undefined)
            reasons.push(`freeze_id ${row.freeze_id} already appears on line ${earlier}`);
        else
            seenIds.set(row.freeze_id, lineNo);
        const scopeKey = `${row.property}\0${row.envelope_hash}`;
        const sameScope = seenScopes.get(scopeKey);
        if (sameScope !== undefined && earlier === undefined)
            reasons.push(`it duplicates the row on line ${sameScope} (same property scope and envelope hash)`);
        else if (sameScope === undefined)
            seenScopes.set(scopeKey, lineNo);
        if (reasons.length > 0) {
            problems.push({ line: lineNo, freeze_id: row.freeze_id || null, reason: reasons.join("; ") });
            continue;
        }
        rows.push({
            ...row,
            line: lineNo,
            scope: parseFreezeScope(row.property),
            runA: parseRunnerCell(row.runner_a),
            runB: parseRunnerCell(row.runner_b),
        });
    }
    return { file, rows, problems };
}
function inScope(r, query) {
    return r.scope.name === query.property && r.scope.fingerprint === query.fingerprint && r.envelope_hash === query.envelopeHash;
}
/** Well-formed open rows for this failure (property and fingerprint) and envelope hash that have not expired. */
function activeFreezes(rows, query) {
    return rows.filter((r) => r.status === "open" && inScope(r, query) && query.today < r.expires_on);
}
/** Well-formed open rows for this failure and envelope hash whose date has passed. */
function expiredFreezes(rows, query) {
    return rows.filter((r) => r.status === "open" && inScope(r, query) && query.today >= r.expires_on);
}
/** Open, unexpired rows naming this property and envelope hash but another failure's fingerprint. */
function otherScopeFreezes(rows, query) {
    return rows.filter((r) => r.status === "open" &&
        r.scope.name === query.property &&
        r.envelope_hash === query.envelopeHash &&
        r.scope.fingerprint !== query.fingerprint &&
        query.today < r.expires_on);
}
const DEFAULT_FREEZE_CAPS = { maxActive: 10, maxDays: 14 };
/**
 * Applies the caps to the ledger's well-formed rows. A row running longer than maxDays from
 * today is refused. When more than maxActive rows are active, none is honored: picking some
 * would be arbitrary, and the cap exists to force the ledger to be cleaned up.
 */
function applyFreezeCaps(ledger, today, caps) {
    const refused = [...ledger.problems];
    const active = ledger.rows.filter((r) => r.status === "open" && today < r.expires_on);
    const withinLength = [];
    for (const row of active) {
        const days = daysBetween(today, row.expires_on);
        if (days > caps.maxDays) {
            refused.push({
                line: row.line,
                freeze_id: row.freeze_id,
                reason: `it runs ${days} days from today, more than the ${caps.maxDays}-day cap`,
            });
        }
        else {
            withinLength.push(row);
        }
    }
    if (active.length > caps.maxActive) {
        for (const row of withinLength) {
            refused.push({
                line: row.line,
                freeze_id: row.freeze_id,
                reason: `the ledger has ${active.length} active freezes, more than the cap of ${caps.maxActive}; none is honored`,
            });
        }
        return { honored: [], refused: refused.sort((a, b) => a.line - b.line) };
    }
    return { honored: withinLength, refused: refused.sort((a, b) => a.line - b.line) };
}
/** One ledger line (no newline). Refuses a row that would never be honored. */
function formatLedgerRow(row) {
    const cells = LEDGER_COLUMNS.map((c) => row[c]);
    for (const cell of cells) {
        if (/[\t\r\n]/.test(cell))
            throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `a ledger cell may not contain a tab or newline: ${JSON.stringify(cell)}`);
    }
    const reasons = rowProblems(row);
    if (reasons.length > 0)
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `refusing to write freeze ${row.freeze_id}: ${reasons.join("; ")}`);
    return cells.join("\t");
}
/** Appends a row, keeping the header (and creating it for an empty ledger). */
function appendLedgerRow(text, row) {
    const line = formatLedgerRow(row);
    if (text.trim() === "")
        return `${LEDGER_HEADER}\n${line}\n`;
    const ledger = parseLedger(text, "freeze_ledger.tsv");
    if (ledger.rows.some((r) => r.freeze_id === row.freeze_id) || ledger.problems.some((p) => p.freeze_id === row.freeze_id)) {
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `freeze_id ${row.freeze_id} is already in the ledger`);
    }
    const next = `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`;
    const added = parseLedger(next, "freeze_ledger.tsv").problems.find((p) => p.freeze_id === row.freeze_id);
    if (added !== undefined)
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `refusing to write freeze ${row.freeze_id}: ${added.reason}`);
    return next;
}

;// CONCATENATED MODULE: ./src/app/settings.ts


const APP_SETTINGS = [
    { name: "ENVELOPE_GATE_APP_ID", default: "", shown: "(required)", scope: "server", help: "the App's numeric id" },
    {
        name: "ENVELOPE_GATE_PRIVATE_KEY_PATH",
        default: "",
        shown: "(a key source is required)",
        scope: "server",
        help: "a PEM file holding the App's RSA private key, read each time a JWT is signed (replace the file to rotate; no restart)",
    },
    {
        name: "ENVELOPE_GATE_PRIVATE_KEY",
        default: "",
        shown: "",
        scope: "server",
        help: "the PEM itself (\\n escapes allowed); outside production only (SECRET_IN_ENVIRONMENT), removed from the environment at start",
    },
    {
        name: "ENVELOPE_GATE_WEBHOOK_SECRET_FILE",
        default: "",
        shown: "(a secret source is required)",
        scope: "server",
        help: "a file holding the webhook secret, read at each delivery; further lines: previous secrets still accepted during a rotation",
    },
    {
        name: "ENVELOPE_GATE_WEBHOOK_SECRET",
        default: "",
        shown: "",
        scope: "server",
        help: "the webhook secret itself; outside production only (SECRET_IN_ENVIRONMENT), removed from the environment at start",
    },
    {
        name: "ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS",
        default: "",
        scope: "server",
        help: "with ENVELOPE_GATE_WEBHOOK_SECRET: comma-separated secrets still accepted during a rotation",
    },
    {
        name: "ENVELOPE_GATE_SECRET_COMMAND",
        default: "",
        scope: "server",
        help: 'a secret manager command as a JSON argv, %s replaced by private-key or webhook-secret, printing the secret (e.g. ["vault","kv","get","-field=%s","secret/envelope-gate"]); for each secret without a file',
    },
    {
        name: "ENVELOPE_GATE_SECRET_COMMAND_ENV",
        default: "",
        scope: "server",
        help: "comma-separated variables passed to the secret command besides PATH and HOME (its only environment); removed from the App's environment at start",
    },
    {
        name: "ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS",
        default: "10",
        scope: "server",
        help: "the secret command is killed past this long (SECRET_UNAVAILABLE)",
    },
    {
        name: "ENVELOPE_GATE_SECRET_CACHE_SECONDS",
        default: "60",
        scope: "server",
        help: "how long the webhook secret printed by the secret command is reused before the command runs again (0: every delivery); files are read at every use",
    },
    { name: "DATABASE_URL", default: "", scope: "store", help: "PostgreSQL connection string; when set, PostgreSQL is the store" },
    { name: "ENVELOPE_GATE_PG_SCHEMA", default: "public", scope: "store", help: "PostgreSQL schema (created if missing)" },
    {
        name: "ENVELOPE_GATE_DB_PATH",
        default: DEFAULT_SQLITE_PATH,
        scope: "store",
        help: "SQLite file when DATABASE_URL is not set (its directory is created, one level)",
    },
    { name: "ENVELOPE_GATE_HOST", default: "127.0.0.1", scope: "server", help: "the interface the server listens on" },
    { name: "ENVELOPE_GATE_PORT", default: "3000", scope: "server", help: "the port the server listens on (0: any free port)" },
    {
        name: "ENVELOPE_GATE_MAX_CONNECTIONS",
        default: "256",
        scope: "server",
        help: "open connections the server accepts at once; more are dropped on arrival",
    },
    {
        name: "ENVELOPE_GATE_HEADERS_TIMEOUT_SECONDS",
        default: "10",
        scope: "server",
        help: "a client must send its request headers within this long (else 408 and the connection is closed)",
    },
    {
        name: "ENVELOPE_GATE_REQUEST_TIMEOUT_SECONDS",
        default: "30",
        scope: "server",
        help: "a client must send its whole request, body included, within this long (else 408)",
    },
    {
        name: "ENVELOPE_GATE_GITHUB_API_URL",
        default: "https://api.github.com",
        scope: "server",
        help: "GitHub's REST API (GitHub Enterprise Server: https://HOST/api/v3)",
    },
    {
        name: "ENVELOPE_GATE_WORKFLOW",
        default: "envelope-gate.yml",
        scope: "server",
        help: "the gate workflow's file name: runs of other workflows are ignored, B is dispatched on it",
    },
    {
        name: "ENVELOPE_GATE_CHECK_NAME",
        default: "envelope-gate",
        scope: "server",
        help: "the gate's check name; the App's own checks are '<name> (dual run)' and the verified check",
    },
    {
        name: "ENVELOPE_GATE_VERIFIED_CHECK_NAME",
        default: "",
        scope: "server",
        help: "the App's verified check on each gate run of a pull request; empty: '<ENVELOPE_GATE_CHECK_NAME> / verified'",
    },
    {
        name: "ENVELOPE_GATE_ENVELOPE_SHA256",
        default: ".github/envelope-gate/envelope.json.sha256",
        scope: "server",
        help: "the envelope's digest file, read at the base commit: a verified check needs the evidence's envelope hash to be the one it pins",
    },
    {
        name: "ENVELOPE_GATE_ENVELOPE_PATH",
        default: ".github/envelope-gate/envelope.json",
        scope: "server",
        help: "the envelope file an envelope PR from audit runs writes on the default branch, with its digest beside it as <path>.sha256; the verified check holds it (at the base) to the organisation envelope",
    },
    {
        name: "ENVELOPE_GATE_ORG_ENVELOPE_PATH",
        default: "envelope-gate/org-envelope.json",
        scope: "server",
        help: "the organisation envelope in the owner's .github repository, read at its default branch with its digest beside it as <path>.sha256 (docs/app.md, An organisation's envelope)",
    },
    {
        name: "ENVELOPE_GATE_ORG_ENVELOPE_REQUIRED",
        default: "off",
        scope: "server",
        help: "on: a covered verified check fails ORG_ENVELOPE_UNCHECKED when no organisation envelope can be read (no .github repository, the App not installed on it, no file); off: none read is no ceiling",
    },
    {
        name: "ENVELOPE_GATE_AUDIT_RUNS",
        default: "3",
        scope: "server",
        help: "how many of the default branch's latest verified audit runs an envelope PR is made from (1-20)",
    },
    {
        name: "ENVELOPE_GATE_RUNNER_B_LABELS",
        default: '["self-hosted","envelope-gate-runner-b"]',
        scope: "server",
        help: "JSON array passed as runner_labels: labels that select a machine other than runner A's",
    },
    {
        name: "ENVELOPE_GATE_DEADLINE_MINUTES",
        default: "60",
        scope: "server",
        help: "runner B must be dispatched and finished within this many minutes of A's completion",
    },
    {
        name: "ENVELOPE_GATE_BUDGET_INSTALLATION_DISPATCHES",
        default: "100",
        scope: "store",
        help: "runner-B dispatches each installation may reserve per UTC day; over it, B is not dispatched (RUNNER_B_BUDGET_EXCEEDED)",
    },
    {
        name: "ENVELOPE_GATE_BUDGET_INSTALLATION_MINUTES",
        default: "3000",
        scope: "store",
        help: "runner-B minutes each installation may be charged per UTC day",
    },
    {
        name: "ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES",
        default: "30",
        scope: "store",
        help: "runner-B dispatches each repository may reserve per UTC day",
    },
    {
        name: "ENVELOPE_GATE_BUDGET_REPOSITORY_MINUTES",
        default: "900",
        scope: "store",
        help: "runner-B minutes each repository may be charged per UTC day",
    },
    {
        name: "ENVELOPE_GATE_RUNNER_B_MAX_MINUTES",
        default: "60",
        scope: "store",
        help: "what a dispatch is charged until its run's real duration is read (set runner B's job timeout-minutes to at most this)",
    },
    {
        name: "ENVELOPE_GATE_USAGE_FRESH_MINUTES",
        default: "360",
        scope: "store",
        help: "a runner-B duration read from GitHub is trusted this long; older, it counts at the maximum again until read anew",
    },
    { name: "ENVELOPE_GATE_FREEZE_TTL_DAYS", default: "7", scope: "server", help: "expires_on = today (UTC) + this" },
    { name: "ENVELOPE_GATE_FREEZE_TTL_CAP_DAYS", default: "14", scope: "server", help: "cap on the freeze TTL" },
    { name: "ENVELOPE_GATE_LEDGER_PATH", default: DEFAULT_LEDGER_PATH, scope: "server", help: "the ledger on the base branch" },
    {
        name: "ENVELOPE_GATE_REVIEWERS",
        default: "",
        scope: "server",
        help: "comma-separated users asked to review each ledger PR; the envelope reviewers, who may also ungate a gated pull request",
    },
    {
        name: "ENVELOPE_GATE_AGENT_LABEL",
        default: "agent-authored",
        scope: "server",
        help: "the Action's agent-label: a pull request that carried it stays gated when it is removed (none: labels are not remembered)",
    },
    { name: "ENVELOPE_GATE_TEAM_REVIEWERS", default: "", scope: "server", help: "comma-separated team slugs asked to review each ledger PR" },
    {
        name: "ENVELOPE_GATE_REVIEW_ALERT_HOURS",
        default: "48",
        scope: "store",
        help: "a ledger PR unreviewed this long is reported loudly (error log, comment, OVERDUE on the status page)",
    },
    { name: "ENVELOPE_GATE_SWEEP_SECONDS", default: "30", scope: "server", help: "how often the sweeper runs" },
    {
        name: "ENVELOPE_GATE_WORKERS",
        default: "16",
        scope: "server",
        help: "deliveries this process works on at once, outside the request; more are recorded queued and taken up as workers free (by any replica)",
    },
    {
        name: "ENVELOPE_GATE_REDELIVERY_SECONDS",
        default: "60",
        scope: "server",
        help: "how often the redelivery sweep lists the App's deliveries on GitHub and asks again for the failed ones the store never recorded (one replica at a time; turned off with envelope-gate app redelivery off)",
    },
    {
        name: "ENVELOPE_GATE_REDELIVERY_PER_PASS",
        default: "20",
        scope: "server",
        help: "redeliveries one redelivery pass asks GitHub for, at most",
    },
    {
        name: "ENVELOPE_GATE_REDELIVERY_ATTEMPTS",
        default: "3",
        scope: "server",
        help: "redeliveries asked for one delivery before it is given up (REDELIVERY_EXHAUSTED, on the status page)",
    },
    {
        name: "ENVELOPE_GATE_LEASE_SECONDS",
        default: "300",
        scope: "server",
        help: "how long a replica holds a claim before another may take it over",
    },
    {
        name: "ENVELOPE_GATE_HEARTBEAT_SECONDS",
        default: "5",
        scope: "server",
        help: "how often a process refreshes its heartbeat row (its claims stay its own while it does)",
    },
    {
        name: "ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS",
        default: "30",
        scope: "server",
        help: "a process whose heartbeat is older than this is gone: its claims are taken over (at least twice the heartbeat)",
    },
    {
        name: "ENVELOPE_GATE_DRAIN_SECONDS",
        default: "8",
        scope: "server",
        help: "on SIGTERM, how long in-flight work may finish before what is left is released to the sweeper",
    },
    {
        name: "ENVELOPE_GATE_REPLICA_ID",
        default: "",
        shown: "hostname:pid",
        scope: "server",
        help: "this replica's name in claims, logs and health",
    },
    {
        name: "ENVELOPE_GATE_CRASH_LIMIT",
        default: "3",
        scope: "server",
        help: "app start refuses (APP_CRASH_LOOP, exit 4) once this replica id crashed this often within the window (needs a stable ENVELOPE_GATE_REPLICA_ID)",
    },
    {
        name: "ENVELOPE_GATE_CRASH_WINDOW_MINUTES",
        default: "60",
        scope: "server",
        help: "the crash-loop window: a crash (a process that never recorded a clean stop) counts this long after it was last seen",
    },
    {
        name: "ENVELOPE_GATE_GITHUB_RETRIES",
        default: "3",
        scope: "server",
        help: "retries of a failed GitHub request (5xx, network) before GITHUB_UNAVAILABLE",
    },
    {
        name: "ENVELOPE_GATE_GITHUB_TIMEOUT_SECONDS",
        default: "30",
        scope: "server",
        help: "each request attempt to GitHub is abandoned after this long",
    },
    {
        name: "ENVELOPE_GATE_GITHUB_THROTTLE",
        default: "on",
        scope: "server",
        help: "space writes as GitHub asks; off only against a local test server",
    },
    {
        name: "ENVELOPE_GATE_LOG_LEVEL",
        default: "info",
        scope: "server",
        help: "error, warn, info or debug: the least severe log line written (debug adds each delivery's arrival, each sweep pass and each scrape of /metrics)",
    },
    {
        name: "ENVELOPE_GATE_OPERATOR",
        default: "",
        shown: "login name",
        scope: "store",
        help: "who pause, resume, promote and reset-crashes record as the operator",
    },
    {
        name: "NODE_ENV",
        default: "",
        scope: "server",
        help: "production (any case) turns on the strict boot guard (and refuses secrets in the environment)",
    },
];
const BY_NAME = new Map(APP_SETTINGS.map((s) => [s.name, s]));
/** The variable's trimmed value, or its default from the table when unset or empty. */
function settingValue(env, name) {
    const raw = env[name]?.trim();
    return raw === undefined || raw === "" ? BY_NAME.get(name).default : raw;
}
/** The settings as a text table for `--help`; `store` commands list only what they read. */
function settingsHelp(scope) {
    const rows = APP_SETTINGS.filter((s) => scope === "server" || s.scope === "store").map((s) => [
        s.name,
        "shown" in s ? s.shown : s.default,
        s.help,
    ]);
    const width = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length), i === 0 ? 8 : 7));
    const line = (r) => `  ${r[0].padEnd(width[0])}  ${r[1].padEnd(width[1])}  ${r[2]}`;
    return ["settings (environment variables):", line(["variable", "default", "meaning"]), ...rows.map(line)].join("\n");
}

;// CONCATENATED MODULE: ./src/app/secrets.ts






/** A secret is a line or a PEM: anything larger is not one (a wrong path, a device). */
const MAX_SECRET_BYTES = 64 * 1024;
/** The variables that carry a secret's value; refused in production, removed from the environment at start. */
const INLINE_SECRET_VARIABLES = [
    "ENVELOPE_GATE_PRIVATE_KEY",
    "ENVELOPE_GATE_WEBHOOK_SECRET",
    "ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS",
];
function unavailable(origin, why, hint, cause) {
    return new core_errors/* Refusal */.P_("SECRET_UNAVAILABLE", `${origin} ${why}`, cause === undefined ? { hint } : { hint, cause });
}
function checked(bytes, origin, hint) {
    if (bytes.length > MAX_SECRET_BYTES) {
        bytes.fill(0);
        throw unavailable(origin, `is over ${MAX_SECRET_BYTES} bytes: not a secret`, hint);
    }
    if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d))
        throw unavailable(origin, "is empty", hint);
    return bytes;
}
/**
 * Opened without blocking (a FIFO with no writer would otherwise hold the open, and a libuv
 * thread, forever) and read only if it is a regular file, at most one byte past the limit (a
 * device such as /dev/zero never ends; a huge file is not read whole).
 */
const SECRET_OPEN_FLAGS = external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NONBLOCK;
/** Why an opened secret file is not one, or null for a regular file. */
function notAFile(st) {
    if (st.isFile())
        return null;
    if (st.isDirectory())
        return "cannot be read (EISDIR)";
    const kind = st.isFIFO()
        ? "a FIFO"
        : st.isCharacterDevice()
            ? "a character device"
            : st.isBlockDevice()
                ? "a block device"
                : st.isSocket()
                    ? "a socket"
                    : "not a file";
    return `is ${kind}, not a regular file`;
}
/** A secret read from its file at every use: editing the file rotates it, no restart. */
function fileSecret(secret, variable, path) {
    const origin = `${variable} (${path})`;
    const hint = `Make ${path} a regular file that holds the secret and is readable by the App's user; it is read at each use, no restart needed.`;
    const cannot = (err) => unavailable(origin, `cannot be read (${(0,core_errors/* errnoOf */.UQ)(err) ?? String(err)})`, hint, err);
    return {
        secret,
        kind: "file",
        origin,
        async read() {
            let handle;
            try {
                handle = await (0,promises_.open)(path, SECRET_OPEN_FLAGS);
            }
            catch (err) {
                throw cannot(err);
            }
            const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
            let n = 0;
            try {
                const why = notAFile(await handle.stat());
                if (why !== null)
                    throw unavailable(origin, why, hint);
                for (let got = -1; got !== 0 && n < buf.length; n += got)
                    got = (await handle.read(buf, n, buf.length - n, null)).bytesRead;
            }
            catch (err) {
                buf.fill(0);
                throw err instanceof core_errors/* Refusal */.P_ ? err : cannot(err);
            }
            finally {
                await handle.close().catch(() => undefined);
            }
            return checked(buf.subarray(0, n), origin, hint);
        },
        readSync() {
            let fd;
            try {
                fd = (0,external_node_fs_.openSync)(path, SECRET_OPEN_FLAGS);
            }
            catch (err) {
                throw cannot(err);
            }
            const buf = Buffer.alloc(MAX_SECRET_BYTES + 1);
            let n = 0;
            try {
                const why = notAFile((0,external_node_fs_.fstatSync)(fd));
                if (why !== null)
                    throw unavailable(origin, why, hint);
                for (let got = -1; got !== 0 && n < buf.length; n += got)
                    got = (0,external_node_fs_.readSync)(fd, buf, n, buf.length - n, null);
            }
            catch (err) {
                buf.fill(0);
                throw err instanceof core_errors/* Refusal */.P_ ? err : cannot(err);
            }
            finally {
                (0,external_node_fs_.closeSync)(fd);
            }
            return checked(buf.subarray(0, n), origin, hint);
        },
    };
}
/** A value given in the environment (outside production only); held in memory for the process's life. */
function inlineSecret(secret, variable, value) {
    const bytes = Buffer.from(value, "utf8");
    return { secret, kind: "inline", origin: variable, read: async () => Buffer.from(bytes), readSync: () => Buffer.from(bytes) };
}
function lastLine(text) {
    const line = text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .pop() ?? "";
    return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
/**
 * A secret printed on stdout by the secret-manager command, run with only `command.env`. With
 * `cacheMs` > 0 (the webhook secret) its answer is kept that long, so a delivery does not spawn
 * a process; concurrent reads share one run. A command that cannot start, exits non-zero, is
 * killed, prints nothing or runs past its timeout is SECRET_UNAVAILABLE (a cached answer is not
 * served past its time: the App fails closed).
 */
function commandSecret(secret, command, cacheMs = 0) {
    const argv = command.argv.map((a) => a.replaceAll("%s", secret));
    const [file, ...args] = argv;
    const origin = `ENVELOPE_GATE_SECRET_COMMAND (${secret}: ${file})`;
    const hint = `Run the command as the App's user with only PATH, HOME and ENVELOPE_GATE_SECRET_COMMAND_ENV's variables, and fix it; it is run again at the next use, no restart needed.`;
    const failed = (why, cause) => unavailable(origin, why, hint, cause);
    let cached = null;
    let pending = null;
    const run = () => new Promise((resolve, reject) => {
        // Its own process group, so a timeout kills what it started too.
        const child = (0,external_node_child_process_.spawn)(file, args, { env: command.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
        const out = [];
        let size = 0;
        let stderr = "";
        let killed = null;
        const kill = (why) => {
            killed ??= why;
            try {
                process.kill(-child.pid, "SIGKILL");
            }
            catch {
                // Already gone: its exit is reported by "close".
            }
            // A descendant that left the group (setsid, a daemonised agent) may still hold the pipes;
            // "close" waits for them, so they are closed here: the timeout bounds the read whatever runs on.
            child.stdout.destroy();
            child.stderr.destroy();
        };
        const timer = setTimeout(() => kill(`did not finish within ${command.timeoutMs} ms`), command.timeoutMs);
        child.stdout.on("data", (d) => {
            size += d.length;
            if (size > MAX_SECRET_BYTES)
                kill(`printed over ${MAX_SECRET_BYTES} bytes`);
            else
                out.push(d);
        });
        child.stderr.on("data", (d) => {
            if (stderr.length < 4096)
                stderr += d.toString("utf8");
        });
        child.on("error", (err) => {
            clearTimeout(timer);
            reject(failed(`could not start (${(0,core_errors/* errnoOf */.UQ)(err) ?? String(err)})`, err));
        });
        child.on("close", (code, signal) => {
            clearTimeout(timer);
            const bytes = Buffer.concat(out);
            for (const d of out)
                d.fill(0);
            if (killed !== null || code !== 0) {
                bytes.fill(0);
                const why = killed ?? (code === null ? `was killed (${signal})` : `exited ${code}`);
                const said = lastLine(stderr);
                return reject(failed(`${why}${said ? `: ${said}` : ""}`));
            }
            try {
                resolve(checked(bytes, origin, hint));
            }
            catch (err) {
                reject(err);
            }
        });
    });
    return {
        secret,
        kind: "command",
        origin,
        async read() {
            // Uncached (the private key): the caller gets the command's output itself, and zeroes it.
            if (cacheMs === 0)
                return run();
            if (cached !== null && performance.now() - cached.at < cacheMs)
                return Buffer.from(cached.bytes);
            pending ??= run()
                .then((bytes) => {
                cached?.bytes.fill(0);
                cached = { bytes, at: performance.now() };
                return bytes;
            }, (err) => {
                cached?.bytes.fill(0);
                cached = null;
                throw err;
            })
                .finally(() => {
                pending = null;
            });
            return Buffer.from(await pending);
        },
        readSync() {
            const res = (0,external_node_child_process_.spawnSync)(file, args, {
                env: command.env,
                stdio: ["ignore", "pipe", "pipe"],
                timeout: command.timeoutMs,
                killSignal: "SIGKILL",
                maxBuffer: MAX_SECRET_BYTES,
            });
            if (res.error) {
                const code = (0,core_errors/* errnoOf */.UQ)(res.error) ?? String(res.error);
                if (code === "ETIMEDOUT")
                    throw failed(`did not finish within ${command.timeoutMs} ms`, res.error);
                if (code === "ENOBUFS")
                    throw failed(`printed over ${MAX_SECRET_BYTES} bytes`, res.error);
                throw failed(`could not start (${code})`, res.error);
            }
            if (res.status !== 0) {
                const said = lastLine(res.stderr.toString("utf8"));
                throw failed(`${res.status === null ? `was killed (${res.signal})` : `exited ${res.status}`}${said ? `: ${said}` : ""}`);
            }
            return checked(res.stdout, origin, hint);
        },
    };
}
/**
 * The webhook secrets in a secret's bytes: one per line, the current first, then the previous
 * ones still accepted during a rotation; surrounding blanks and empty lines ignored. The
 * buffers are views of `bytes`: zeroing it zeroes them.
 */
function secretLines(bytes) {
    const lines = [];
    const blank = (b) => b === 0x20 || b === 0x09 || b === 0x0d;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
        if (i < bytes.length && bytes[i] !== 0x0a)
            continue;
        let a = start;
        let z = i;
        while (a < z && blank(bytes[a]))
            a++;
        while (z > a && blank(bytes[z - 1]))
            z--;
        if (z > a)
            lines.push(bytes.subarray(a, z));
        start = i + 1;
    }
    return lines;
}
/** What is wrong with a webhook secret's value for the App, or null. */
function webhookSecretProblem(bytes, minLength) {
    const lines = secretLines(bytes);
    if (lines.length === 0)
        return "holds no webhook secret";
    // A file of NUL bytes (left by a crash mid-write, a preallocated or zeroed file) is not a
    // secret, whatever its length: its HMAC key would be known to anyone. No secret typed into
    // GitHub's settings holds a control character.
    if (lines.some((l) => l.some((b) => (b < 0x20 && b !== 0x09) || b === 0x7f)))
        return "holds a NUL or other control character, which no webhook secret has";
    if (lines.some((l) => l.length < minLength))
        return `holds a webhook secret shorter than ${minLength} characters`;
    return null;
}
/** A webhook secret source whose every read is checked as at start (a file edited to hold nothing is SECRET_UNAVAILABLE). */
function checkedWebhookSource(source, minLength) {
    const check = (bytes) => {
        const problem = webhookSecretProblem(bytes, minLength);
        if (problem === null)
            return bytes;
        bytes.fill(0);
        throw unavailable(source.origin, problem, "Put the webhook secret from the App's settings on its first line.");
    };
    return { ...source, read: async () => check(await source.read()), readSync: () => check(source.readSync()) };
}
function secretCommandFrom(env) {
    const raw = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND");
    if (raw === "")
        return null;
    let argv;
    try {
        argv = JSON.parse(raw);
    }
    catch {
        argv = null;
    }
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string") || argv[0] === "") {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND must be a JSON array of strings (the command's argv), got ${raw}`);
    }
    if (!argv.some((a) => a.includes("%s"))) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "ENVELOPE_GATE_SECRET_COMMAND must contain %s, where the secret's name goes (private-key, webhook-secret)");
    }
    const timeout = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS");
    if (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > 300) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND_TIMEOUT_SECONDS must be between 1 and 300, got "${timeout}"`);
    }
    const passed = {};
    for (const name of ["PATH", "HOME", ...commandEnvNames(env)]) {
        const value = env[name];
        if (value !== undefined)
            passed[name] = value;
    }
    passed.PATH ??= "/usr/local/bin:/usr/bin:/bin";
    return { argv: argv, env: passed, timeoutMs: Number(timeout) * 1000 };
}
function commandEnvNames(env) {
    const names = settingValue(env, "ENVELOPE_GATE_SECRET_COMMAND_ENV")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    for (const name of names) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || INLINE_SECRET_VARIABLES.includes(name)) {
            throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_COMMAND_ENV: ${name} cannot be passed to the secret command`);
        }
    }
    return names;
}
const IN_ENVIRONMENT_HINT = "Put the secrets in files (ENVELOPE_GATE_PRIVATE_KEY_PATH, ENVELOPE_GATE_WEBHOOK_SECRET_FILE; e.g. systemd LoadCredential=, a container secret mount) or fetch them with ENVELOPE_GATE_SECRET_COMMAND; see docs/app.md, Secrets.";
/**
 * Where each secret comes from, checked now: readable, a PEM RSA key, a webhook secret (long
 * enough in production). In production a secret in the environment is refused outright
 * (SECRET_IN_ENVIRONMENT): /proc/<pid>/environ keeps the start environment readable by the
 * same user whatever process.env says afterwards. `scrubSecretEnvironment` then removes them.
 */
function loadSecrets(env, production, minWebhookSecretLength) {
    const inline = INLINE_SECRET_VARIABLES.filter((name) => (env[name] ?? "").trim() !== "");
    if (production && inline.length > 0) {
        const them = inline.length > 1 ? "hold secrets" : "holds a secret";
        throw new core_errors/* Refusal */.P_("SECRET_IN_ENVIRONMENT", `${inline.join(", ")} ${them} in the environment, which production refuses: /proc/<pid>/environ keeps the environment the App started with readable`, { hint: IN_ENVIRONMENT_HINT });
    }
    const command = secretCommandFrom(env);
    const cacheS = settingValue(env, "ENVELOPE_GATE_SECRET_CACHE_SECONDS");
    if (!/^\d+$/.test(cacheS) || Number(cacheS) > 3600) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_SECRET_CACHE_SECONDS must be between 0 and 3600, got "${cacheS}"`);
    }
    const keyPath = settingValue(env, "ENVELOPE_GATE_PRIVATE_KEY_PATH");
    const keyInline = env.ENVELOPE_GATE_PRIVATE_KEY?.trim() ?? "";
    if (keyPath !== "" && keyInline !== "") {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "set ENVELOPE_GATE_PRIVATE_KEY_PATH or ENVELOPE_GATE_PRIVATE_KEY, not both");
    }
    let privateKey;
    if (keyPath !== "")
        privateKey = fileSecret("private-key", "ENVELOPE_GATE_PRIVATE_KEY_PATH", keyPath);
    else if (keyInline !== "")
        privateKey = inlineSecret("private-key", "ENVELOPE_GATE_PRIVATE_KEY", keyInline.replace(/\\n/g, "\n"));
    else if (command !== null)
        privateKey = commandSecret("private-key", command);
    else
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "set ENVELOPE_GATE_PRIVATE_KEY_PATH (or ENVELOPE_GATE_SECRET_COMMAND) to where the App's private key is read");
    const secretFile = settingValue(env, "ENVELOPE_GATE_WEBHOOK_SECRET_FILE");
    const secretInline = inline.filter((n) => n !== "ENVELOPE_GATE_PRIVATE_KEY");
    if (secretFile !== "" && secretInline.length > 0) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `set ENVELOPE_GATE_WEBHOOK_SECRET_FILE or ${secretInline.join(", ")}, not both (previous secrets go on the file's later lines)`);
    }
    let webhook;
    if (secretFile !== "")
        webhook = fileSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET_FILE", secretFile);
    else if (secretInline.length > 0) {
        if ((env.ENVELOPE_GATE_WEBHOOK_SECRET ?? "").trim() === "") {
            throw new core_errors/* Refusal */.P_("BYPASS_REFUSED", "ENVELOPE_GATE_WEBHOOK_SECRET is not set: the App never accepts unsigned webhooks", {
                hint: "Fix the environment; the App does not start in a weakened configuration.",
            });
        }
        const previous = (env.ENVELOPE_GATE_WEBHOOK_SECRET_PREVIOUS ?? "").split(",");
        webhook = inlineSecret("webhook-secret", "ENVELOPE_GATE_WEBHOOK_SECRET", [env.ENVELOPE_GATE_WEBHOOK_SECRET, ...previous].join("\n"));
    }
    else if (command !== null)
        webhook = commandSecret("webhook-secret", command, Number(cacheS) * 1000);
    else {
        throw new core_errors/* Refusal */.P_("BYPASS_REFUSED", "no webhook secret: set ENVELOPE_GATE_WEBHOOK_SECRET_FILE (or ENVELOPE_GATE_SECRET_COMMAND); the App never accepts unsigned webhooks", { hint: "Fix the environment; the App does not start in a weakened configuration." });
    }
    // The check at start: the App does not start with a secret it cannot use.
    const key = privateKey.readSync();
    try {
        parsePrivateKey(key, privateKey.origin);
    }
    finally {
        key.fill(0);
    }
    const minLength = production ? minWebhookSecretLength : 1;
    const secretBytes = webhook.readSync();
    const problem = webhookSecretProblem(secretBytes, minLength);
    secretBytes.fill(0);
    if (problem !== null) {
        throw new core_errors/* Refusal */.P_("BYPASS_REFUSED", `${webhook.origin} ${problem}: the App never accepts weakly signed webhooks`, {
            hint: "Fix the environment; the App does not start in a weakened configuration.",
        });
    }
    return { privateKey, webhookSecrets: checkedWebhookSource(webhook, minLength) };
}
/**
 * Removes the secret-bearing variables from `env` (process.env once the configuration is read):
 * the inline secrets and the variables passed to the secret command, which keeps its own copy.
 * Node unsets them in the process's environment too, so a child spawned later (with the
 * default, inherited environment) does not get them.
 */
function scrubSecretEnvironment(env) {
    for (const name of [...INLINE_SECRET_VARIABLES, ...commandEnvNames(env)]) {
        if (name !== "PATH" && name !== "HOME")
            delete env[name];
    }
}

;// CONCATENATED MODULE: ./src/app/config.ts






function redeliveryPolicyFromEnv(env) {
    return {
        intervalMs: config_int(env, "ENVELOPE_GATE_REDELIVERY_SECONDS", 5, 3600) * 1000,
        perPass: config_int(env, "ENVELOPE_GATE_REDELIVERY_PER_PASS", 1, 1000),
        attemptsPerDelivery: config_int(env, "ENVELOPE_GATE_REDELIVERY_ATTEMPTS", 1, 20),
    };
}
const MIN_SECRET_LENGTH = 16;
/**
 * Settings that would weaken verification of what the App receives or sends. In production
 * the App refuses to start while any is set; there is no flag that skips verification at all.
 */
const WEAKENING_SETTINGS = [
    {
        name: "NODE_TLS_REJECT_UNAUTHORIZED",
        weakens: (v) => v === "0",
        why: "turns off TLS certificate checks on every call to GitHub and the database",
    },
    { name: "ENVELOPE_GATE_SKIP_SIGNATURE", weakens: (v) => v !== "", why: "is not supported: webhook signatures are always verified" },
    { name: "ENVELOPE_GATE_INSECURE", weakens: (v) => v !== "", why: "is not supported: there is no insecure mode" },
    {
        name: "NODE_OPTIONS",
        weakens: (v) => /--insecure-http-parser|--tls-min-v1\.[01]/.test(v),
        why: "loosens HTTP parsing or TLS versions",
    },
];
function bypass(message) {
    return new core_errors/* Refusal */.P_("BYPASS_REFUSED", message, { hint: "Fix the environment; the App does not start in a weakened configuration." });
}
function config_int(env, name, min, max) {
    const raw = settingValue(env, name);
    if (!/^\d+$/.test(raw))
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `${name} must be a whole number, got "${raw}"`);
    const n = Number(raw);
    if (n < min || n > max)
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `${name} must be between ${min} and ${max}, got ${n}`);
    return n;
}
function onOff(env, name) {
    const raw = settingValue(env, name).toLowerCase();
    if (raw === "on")
        return true;
    if (raw === "off")
        return false;
    throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `${name} must be on or off, got "${raw}"`);
}
function logLevelFromEnv(env) {
    const raw = settingValue(env, "ENVELOPE_GATE_LOG_LEVEL").toLowerCase();
    if (!LOG_LEVELS.includes(raw)) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
    }
    return raw;
}
function list(value) {
    return (value ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}
function jsonLabels(env) {
    const value = settingValue(env, "ENVELOPE_GATE_RUNNER_B_LABELS");
    let parsed;
    try {
        parsed = JSON.parse(value);
    }
    catch {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_RUNNER_B_LABELS must be a JSON array of strings, got ${value}`);
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((l) => typeof l === "string" && l.trim() !== "")) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "ENVELOPE_GATE_RUNNER_B_LABELS must be a non-empty JSON array of label strings");
    }
    return parsed;
}
/** Settings the store-only commands need (pause, resume, status, promote). */
function storeConfigFromEnv(env) {
    return storeSettingsFromEnv(env);
}
/** Runner B's budget settings (read by the server and by the store commands that show or change budgets). */
function budgetPolicyFromEnv(env) {
    return {
        installation: {
            dispatchesPerDay: config_int(env, "ENVELOPE_GATE_BUDGET_INSTALLATION_DISPATCHES", 0, 1_000_000),
            minutesPerDay: config_int(env, "ENVELOPE_GATE_BUDGET_INSTALLATION_MINUTES", 0, 100_000_000),
        },
        repository: {
            dispatchesPerDay: config_int(env, "ENVELOPE_GATE_BUDGET_REPOSITORY_DISPATCHES", 0, 1_000_000),
            minutesPerDay: config_int(env, "ENVELOPE_GATE_BUDGET_REPOSITORY_MINUTES", 0, 100_000_000),
        },
        maxRunMinutes: config_int(env, "ENVELOPE_GATE_RUNNER_B_MAX_MINUTES", 1, 72 * 60),
        freshMs: config_int(env, "ENVELOPE_GATE_USAGE_FRESH_MINUTES", 1, 24 * 60) * 60_000,
    };
}
function reviewAlertMsFromEnv(env) {
    return config_int(env, "ENVELOPE_GATE_REVIEW_ALERT_HOURS", 1, 24 * 90) * 3_600_000;
}
function heartbeatFromEnv(env) {
    const heartbeatMs = config_int(env, "ENVELOPE_GATE_HEARTBEAT_SECONDS", 1, 300) * 1000;
    const heartbeatStaleMs = config_int(env, "ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS", 2, 3600) * 1000;
    if (heartbeatStaleMs < 2 * heartbeatMs) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "ENVELOPE_GATE_HEARTBEAT_STALE_SECONDS must be at least twice ENVELOPE_GATE_HEARTBEAT_SECONDS");
    }
    return { heartbeatMs, heartbeatStaleMs };
}
/**
 * Reads the full server configuration and applies the boot guard: no webhook secret, a weak
 * one, or any weakening setting in production is BYPASS_REFUSED; a secret in the environment
 * in production is SECRET_IN_ENVIRONMENT. The secrets are checked (secrets.ts), and the
 * variables carrying them are removed from `env` once everything is read.
 */
function loadConfig(env) {
    // "Production" or " production " is meant as production: a spelling must not switch the boot guard off.
    const production = env.NODE_ENV?.trim().toLowerCase() === "production";
    const secrets = loadSecrets(env, production, MIN_SECRET_LENGTH);
    if (production) {
        for (const setting of WEAKENING_SETTINGS) {
            const value = env[setting.name];
            if (value !== undefined && setting.weakens(value))
                throw bypass(`${setting.name}=${value} ${setting.why}`);
        }
    }
    const githubApiUrl = settingValue(env, "ENVELOPE_GATE_GITHUB_API_URL").replace(/\/+$/, "");
    let api;
    try {
        api = new URL(githubApiUrl);
    }
    catch {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `ENVELOPE_GATE_GITHUB_API_URL is not a URL: ${githubApiUrl}`);
    }
    if (production && api.protocol !== "https:")
        throw bypass(`ENVELOPE_GATE_GITHUB_API_URL ${githubApiUrl} is not https`);
    const appId = env.ENVELOPE_GATE_APP_ID?.trim() ?? "";
    if (!/^\d+$/.test(appId))
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "ENVELOPE_GATE_APP_ID must be the App's numeric id");
    const ttl = config_int(env, "ENVELOPE_GATE_FREEZE_TTL_DAYS", 1, 365);
    const cap = config_int(env, "ENVELOPE_GATE_FREEZE_TTL_CAP_DAYS", 1, 365);
    const config = {
        production,
        host: settingValue(env, "ENVELOPE_GATE_HOST"),
        port: config_int(env, "ENVELOPE_GATE_PORT", 0, 65535),
        appId,
        ...secrets,
        githubApiUrl,
        store: storeSettingsFromEnv(env),
        workflow: settingValue(env, "ENVELOPE_GATE_WORKFLOW"),
        checkName: settingValue(env, "ENVELOPE_GATE_CHECK_NAME"),
        verifiedCheckName: settingValue(env, "ENVELOPE_GATE_VERIFIED_CHECK_NAME") || `${settingValue(env, "ENVELOPE_GATE_CHECK_NAME")} / verified`,
        envelopeDigestPath: settingValue(env, "ENVELOPE_GATE_ENVELOPE_SHA256"),
        envelopePath: settingValue(env, "ENVELOPE_GATE_ENVELOPE_PATH"),
        orgEnvelopePath: settingValue(env, "ENVELOPE_GATE_ORG_ENVELOPE_PATH"),
        orgEnvelopeRequired: onOff(env, "ENVELOPE_GATE_ORG_ENVELOPE_REQUIRED"),
        auditRuns: config_int(env, "ENVELOPE_GATE_AUDIT_RUNS", 1, 20),
        runnerBLabels: jsonLabels(env),
        deadlineMs: config_int(env, "ENVELOPE_GATE_DEADLINE_MINUTES", 1, 24 * 60) * 60_000,
        freezeTtlDays: ttl,
        freezeTtlCapDays: cap,
        ledgerPath: settingValue(env, "ENVELOPE_GATE_LEDGER_PATH"),
        reviewers: list(env.ENVELOPE_GATE_REVIEWERS),
        teamReviewers: list(env.ENVELOPE_GATE_TEAM_REVIEWERS),
        agentLabel: settingValue(env, "ENVELOPE_GATE_AGENT_LABEL").toLowerCase() === "none" ? "" : settingValue(env, "ENVELOPE_GATE_AGENT_LABEL"),
        reviewAlertMs: reviewAlertMsFromEnv(env),
        sweepIntervalMs: config_int(env, "ENVELOPE_GATE_SWEEP_SECONDS", 1, 3600) * 1000,
        leaseMs: config_int(env, "ENVELOPE_GATE_LEASE_SECONDS", 5, 3600) * 1000,
        ...heartbeatFromEnv(env),
        drainMs: config_int(env, "ENVELOPE_GATE_DRAIN_SECONDS", 0, 600) * 1000,
        replicaId: settingValue(env, "ENVELOPE_GATE_REPLICA_ID") || `${(0,external_node_os_.hostname)()}:${process.pid}`,
        githubRetries: config_int(env, "ENVELOPE_GATE_GITHUB_RETRIES", 0, 10),
        githubThrottle: onOff(env, "ENVELOPE_GATE_GITHUB_THROTTLE"),
        githubTimeoutMs: config_int(env, "ENVELOPE_GATE_GITHUB_TIMEOUT_SECONDS", 1, 600) * 1000,
        maxConnections: config_int(env, "ENVELOPE_GATE_MAX_CONNECTIONS", 1, 100_000),
        headersTimeoutMs: config_int(env, "ENVELOPE_GATE_HEADERS_TIMEOUT_SECONDS", 1, 600) * 1000,
        requestTimeoutMs: config_int(env, "ENVELOPE_GATE_REQUEST_TIMEOUT_SECONDS", 1, 3600) * 1000,
        budget: budgetPolicyFromEnv(env),
        workers: config_int(env, "ENVELOPE_GATE_WORKERS", 1, 1000),
        redelivery: redeliveryPolicyFromEnv(env),
        logLevel: logLevelFromEnv(env),
    };
    scrubSecretEnvironment(env);
    return config;
}

;// CONCATENATED MODULE: ./src/store/crashes.ts

/** Crashes of `replica` last seen at or after `since` and after the replica's latest reset, oldest first. */
async function crashesSince(store, replica, since) {
    const rows = await store.db.all(`SELECT owner, started_at, heartbeat_at FROM app_processes
     WHERE replica = ? AND clean_stop_at IS NULL AND heartbeat_at >= ?
       AND heartbeat_at > COALESCE((SELECT MAX(reset_at) FROM app_crash_resets WHERE replica = ?), -1)
     ORDER BY heartbeat_at, owner`, [replica, since, replica]);
    return rows.map((r) => ({ owner: String(r.owner), started_at: Number(r.started_at), last_seen_at: Number(r.heartbeat_at) }));
}
/**
 * An operator's deliberate reset: crashes of `replica` up to now no longer count. Recorded with
 * who and why. Resolves the number of crashes it cleared (those since the previous reset).
 */
async function resetCrashes(store, replica, by, reason, now) {
    const cleared = (await crashesSince(store, replica, 0)).filter((c) => c.last_seen_at <= now).length;
    await store.db.run("INSERT INTO app_crash_resets (id, replica, reset_at, reset_by, reason, crashes) VALUES (?, ?, ?, ?, ?, ?)", [
        (0,external_node_crypto_.randomUUID)(),
        replica,
        now,
        by,
        reason,
        cleared,
    ]);
    return cleared;
}
async function crashResets(store, replica) {
    const rows = await store.db.all("SELECT replica, reset_at, reset_by, reason, crashes FROM app_crash_resets WHERE replica = ? ORDER BY reset_at", [replica]);
    return rows.map((r) => ({
        replica: String(r.replica),
        reset_at: Number(r.reset_at),
        reset_by: String(r.reset_by),
        reason: String(r.reason),
        crashes: Number(r.crashes),
    }));
}
/**
 * Per replica id, the crashes last seen at or after `since` and after its latest reset, as the
 * start check counts them, leaving out processes alive now (not recorded stopped, a heartbeat at
 * or after `aliveSince`).
 */
async function recentCrashes(store, since, aliveSince) {
    const rows = await store.db.all(`SELECT p.replica AS replica, COUNT(*) AS n, MAX(p.heartbeat_at) AS last_seen
     FROM app_processes p
     WHERE p.clean_stop_at IS NULL AND p.heartbeat_at >= ?
       AND NOT (p.stopped_at IS NULL AND p.heartbeat_at >= ?)
       AND p.heartbeat_at > COALESCE((SELECT MAX(r.reset_at) FROM app_crash_resets r WHERE r.replica = p.replica), -1)
     GROUP BY p.replica ORDER BY p.replica`, [since, aliveSince]);
    return rows.map((r) => ({ replica: String(r.replica), crashes: Number(r.n), last_crash_at: Number(r.last_seen) }));
}

;// CONCATENATED MODULE: ./src/app/crash-loop.ts







/** `app start`'s exit status when it refuses for a crash loop (systemd: RestartPreventExitStatus). */
const CRASH_LOOP_EXIT = 4;
function crashBoundFromEnv(env) {
    return {
        limit: config_int(env, "ENVELOPE_GATE_CRASH_LIMIT", 1, 1000),
        windowMs: config_int(env, "ENVELOPE_GATE_CRASH_WINDOW_MINUTES", 1, 7 * 24 * 60) * 60_000,
    };
}
const iso = (ms) => new Date(ms).toISOString();
/** Throws APP_CRASH_LOOP when `replica` crashed `limit` times within the window before `now`. */
async function refuseCrashLoop(store, replica, bound, now) {
    const crashes = await crashesSince(store, replica, now - bound.windowMs);
    if (crashes.length < bound.limit)
        return;
    const minutes = Math.round(bound.windowMs / 60_000);
    const clears = crashes[crashes.length - bound.limit].last_seen_at + bound.windowMs;
    throw new core_errors/* Refusal */.P_("APP_CRASH_LOOP", `replica ${replica} crashed ${crashes.length} times within ${minutes} minutes (last seen alive at ${crashes
        .map((c) => iso(c.last_seen_at))
        .join(", ")}) without a clean stop; this process does not serve`, {
        hint: `Find the cause in those processes' logs, then clear it: envelope-gate app reset-crashes --replica ${replica} --reason "..." (otherwise it clears itself at ${iso(clears)}).`,
    });
}
/** `app start`'s answer to a refused start: one error line, and the crash-loop exit status. Anything else is rethrown. */
function crashLoopExit(err, replica) {
    if (!(err instanceof core_errors/* Refusal */.P_) || err.code !== "APP_CRASH_LOOP")
        throw err;
    jsonLogger("error", "app.crash_loop", { code: err.code, replica, message: err.message, hint: err.hint, exit: CRASH_LOOP_EXIT });
    return CRASH_LOOP_EXIT;
}
/** `envelope-gate app reset-crashes --replica ID --reason TEXT` */
/** `app reset-crashes`'s flags. */
const RESET_CRASHES_OPTIONS = { replica: { type: "string" }, reason: { type: "string" } };
async function resetCrashesCommand(args, usage, operator) {
    const { values } = (0,external_node_util_.parseArgs)({ args, options: RESET_CRASHES_OPTIONS, strict: true, allowPositionals: false });
    const replica = values.replica?.trim() || settingValue(process.env, "ENVELOPE_GATE_REPLICA_ID");
    if (!replica)
        usage("reset-crashes needs --replica ID (or ENVELOPE_GATE_REPLICA_ID)");
    if (!values.reason?.trim())
        usage('reset-crashes needs --reason "why it is safe to start again"');
    const settings = storeConfigFromEnv(process.env);
    const store = await openStore(settings, Date.now());
    try {
        const cleared = await resetCrashes(store, replica, operator, values.reason.trim(), Date.now());
        process.stdout.write(`crashes reset for replica ${replica}: ${cleared} cleared, recorded as ${operator} (${describeStore(settings)})\n`);
        return 0;
    }
    finally {
        await store.close();
    }
}

;// CONCATENATED MODULE: ./src/core/manifest.ts
/** The App manifest (app.yml), as GitHub's manifest flow takes it. A test keeps the two equal. */
const APP_PERMISSIONS = {
    actions: "write",
    checks: "write",
    contents: "write",
    pull_requests: "write",
    metadata: "read",
};
const APP_EVENTS = ["workflow_run", "push", "pull_request", "pull_request_review"];
function appManifest(baseUrl, name = "envelope-gate") {
    const root = baseUrl.replace(/\/+$/, "");
    return {
        name,
        url: "https://github.com/envelope-gate/envelope-gate",
        description: "Runs a failing non-envelope property again on a second machine and proposes a reviewed, expiring freeze when the runs disagree.",
        public: false,
        hook_attributes: { url: `${root}/webhook`, active: true },
        redirect_url: `${root}/status`,
        default_permissions: { ...APP_PERMISSIONS },
        default_events: [...APP_EVENTS],
    };
}

// EXTERNAL MODULE: ./node_modules/@octokit/auth-app/dist-node/index.js + 9 modules
var dist_node = __webpack_require__(6479);
// EXTERNAL MODULE: ./src/core/rules.ts
var rules = __webpack_require__(1688);
// EXTERNAL MODULE: ./src/core/markdown.ts
var markdown = __webpack_require__(6706);
;// CONCATENATED MODULE: ./src/core/annotations.ts


/** Envelope key whose line an annotation for this rule points at. */
const RULE_ENVELOPE_KEY = {
    write_outside_root: "allowed_roots",
    undeclared_tool: "allowed_tools",
    undeclared_env: "allowed_env",
    network_denied: "network",
    undeclared_host: "allowed_hosts",
    undeclared_command: "allowed_commands",
    // No envelope key allows these (NO_ENVELOPE_ALLOWS): the annotation points at the envelope's name.
    forbidden_syscall: "envelope_id",
    write_protected: "writable_protected",
    docker_refused: "envelope_id",
};
/** The rules no envelope allows, whatever it says. */
const NO_ENVELOPE_ALLOWS = new Set(["forbidden_syscall", "docker_refused"]);
/** The sentence after what the run did: which envelope does not allow it, and where (or that none does). */
function envelopeSays(rule, envelope) {
    return NO_ENVELOPE_ALLOWS.has(rule)
        ? `No envelope allows it (${envelope.id}, ${envelope.hash}).`
        : `The envelope ${envelope.id} (${envelope.hash}) does not allow it in "${RULE_ENVELOPE_KEY[rule]}".`;
}
const annotations_ANNOTATIONS_PER_REQUEST = 50;
/** Most annotations sent for one run; the summary and the evidence hold the rest. */
const MAX_ANNOTATIONS = 500;
const MAX_TITLE = 255;
const MAX_MESSAGE = 4000;
function annotation(path, line, level, title, message) {
    const at = Math.max(1, Math.floor(line));
    return {
        path,
        start_line: at,
        end_line: at,
        annotation_level: level,
        // GitHub shows annotations as plain text: what can mislead there is what does not show itself.
        title: plainText(title, MAX_TITLE),
        message: plainText(message, MAX_MESSAGE),
    };
}
/** Splits into request-sized batches; always at least one (possibly empty) batch. */
function annotations_batchAnnotations(items, size = annotations_ANNOTATIONS_PER_REQUEST) {
    const batches = [];
    for (let i = 0; i < items.length; i += size)
        batches.push(items.slice(i, i + size));
    return batches.length === 0 ? [[]] : batches;
}
/** What the run did, in words, for one violation: the words before its subject, the subject, the words after. */
function annotations_describeViolationParts(v) {
    switch (v.rule) {
        case "write_outside_root":
            return ["the run wrote ", v.subject, ", outside every allowed root"];
        case "undeclared_tool":
            return ["the agent dispatched the tool ", v.subject, ", which allowed_tools does not list"];
        case "undeclared_env":
            return ["the run read the environment key ", v.subject, ", which allowed_env does not list"];
        case "network_denied":
            return ["the run reached for ", v.subject, ' while network is "deny"'];
        case "undeclared_host":
            return ["the run connected to ", v.subject, ", which allowed_hosts does not list"];
        case "undeclared_command":
            return ["the run executed ", v.subject, ", which allowed_commands does not list"];
        case "forbidden_syscall":
            return ["the run called ", v.subject, ", which the jail refuses because it would blind or escape the observer"];
        case "write_protected":
            return [
                "the run wrote ",
                v.subject,
                ", a protected path inside an allowed root (.git, .github, the Action's own files), which later steps of the job act on unjailed",
            ];
        case "docker_refused":
            return ["the run reached for ", v.subject, `, a container engine (Docker's socket or port). ${DOCKER_HINT}`];
    }
}
/** What the run did, in words, for one violation (plain text; quote the subject where it is shown). */
function describeViolation(v) {
    const [before, subject, after] = annotations_describeViolationParts(v);
    return `${before}${v.rule === "undeclared_tool" ? `"${subject}"` : subject}${after}`;
}
function violationAnnotations(violations, envelope, logName) {
    return violations.map((v) => {
        const key = RULE_ENVELOPE_KEY[v.rule];
        const line = envelope.lines.get(`/${key}`) ?? 1;
        const times = `${v.count} time${v.count === 1 ? "" : "s"}`;
        return annotation(envelope.file, line, "failure", v.id, `${describeViolation(v)} (first at ${logName} line ${v.first_line}, ${times}). ${envelopeSays(v.rule, { id: envelope.envelope.envelope_id, hash: envelope.hash })}`);
    });
}
function propertyAnnotations(outcomes, propertiesFile) {
    const out = [];
    for (const p of outcomes) {
        const r = p.record;
        if (r.result === "pass")
            continue;
        const level = p.frozenBy !== null ? "warning" : "failure";
        const suffix = p.frozenBy !== null ? ` Tolerated: frozen by ${p.frozenBy.freeze_id} until ${p.frozenBy.expires_on}.` : "";
        if (p.locations.length > 0) {
            for (const loc of p.locations)
                out.push(annotation(loc.path, loc.line, level, `property ${r.name}: ${r.result}`, `${loc.message}.${suffix}`));
        }
        else {
            out.push(annotation(propertiesFile, p.line, level, `property ${r.name}: ${r.result}`, `${r.detail}.${suffix}`));
        }
    }
    return out;
}
function ledgerAnnotations(outcomes, refused, ledgerFile) {
    const out = [];
    for (const p of outcomes) {
        for (const row of p.expired) {
            out.push(annotation(ledgerFile, row.line, p.record.result === "pass" ? "notice" : "failure", `freeze ${row.freeze_id} expired`, `${row.freeze_id} froze "${row.property}" until ${row.expires_on}; it has expired and tolerates nothing. Close the row or renew it through a reviewed ledger PR.`));
        }
    }
    for (const problem of refused) {
        out.push(annotation(ledgerFile, problem.line, "warning", `ledger row ${problem.freeze_id ?? `line ${problem.line}`} is never honored`, problem.reason));
    }
    return out;
}
/** Keeps at most MAX_ANNOTATIONS, failures first. Returns the kept list and how many were left out. */
function capAnnotations(all, max = MAX_ANNOTATIONS) {
    if (all.length <= max)
        return { kept: [...all], omitted: 0 };
    const rank = { failure: 0, warning: 1, notice: 2 };
    const sorted = [...all].sort((a, b) => rank[a.annotation_level] - rank[b.annotation_level]);
    return { kept: sorted.slice(0, max), omitted: all.length - max };
}

// EXTERNAL MODULE: ./node_modules/@octokit/core/dist-src/index.js + 7 modules
var dist_src = __webpack_require__(3070);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
;// CONCATENATED MODULE: ./src/github/client.ts
/**
 * The one place that talks to GitHub. An Octokit with retry and throttling, bounded in
 * attempts and in time per request; every failure that reaches a caller is a
 * GitHubUnavailable (code GITHUB_UNAVAILABLE) carrying the HTTP status when there was one.
 * "GitHub could not answer" never reads as an answer.
 */




function guardPlugin(octokit, options) {
    const guard = options.beforeEachRequest;
    if (guard) {
        octokit.hook.before("request", async (opts) => {
            await guard(`${String(opts.method)} ${String(opts.url)}`);
        });
    }
    const seen = options.onResponseHeaders;
    if (seen) {
        // Innermost, so every attempt's answer is read, a rate-limited one the throttling plugin retries included.
        const tell = (headers) => {
            if (typeof headers !== "object" || headers === null)
                return;
            try {
                seen(headers);
            }
            catch {
                // Reading the budget never fails a request.
            }
        };
        octokit.hook.after("request", (response) => tell(response.headers));
        octokit.hook.error("request", (err) => {
            tell(err.response?.headers);
            throw err;
        });
    }
    const failed = options.onAttemptFailed;
    if (failed) {
        // Innermost as well: each attempt's failure, not only the last one after the retries.
        octokit.hook.error("request", (err, opts) => {
            const status = err.status;
            if (!(err instanceof core_errors/* Refusal */.P_) && (typeof status !== "number" || status === 0 || status >= 500)) {
                failed(`${String(opts.method)} ${String(opts.url)}`, err);
            }
            throw err;
        });
    }
}
/**
 * The one Octokit of envelope-gate, for the Action's token client and the App's installation
 * clients alike. The guard is registered first, so it sits innermost: it runs before each retry
 * attempt as well.
 */
const GuardedOctokit = dist_src/* Octokit */.E.plugin(guardPlugin, dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
const DEFAULT_RETRY = { retries: 3, retryBaseMs: 1000, timeoutMs: 30_000 };
/** Hard ceilings, so no setting can make a GitHub outage hang a run. */
const MAX_RETRIES = 10;
const MAX_RETRY_BASE_MS = 10_000;
/** Longest rate-limit wait honoured; beyond it the call gives up as unavailable. */
const MAX_RATE_LIMIT_WAIT_S = 120;
/** A typed GitHub failure: the request failed after the bounded retries. */
class client_GitHubUnavailable extends core_errors/* Refusal */.P_ {
    /** HTTP status, or null when no response arrived (refused, reset, timed out). */
    status;
    constructor(what, status, detail, cause, hint) {
        super("GITHUB_UNAVAILABLE", `GitHub could not ${what}: ${status === null ? "" : `HTTP ${status} `}${detail}`, {
            cause,
            hint: hint ??
                (status === 403 || status === 401
                    ? "The token lacks a permission this step needs (see the permissions block in docs/action.md)."
                    : "GitHub did not answer after bounded retries; re-run the job. The gate does not pass without GitHub."),
        });
        this.status = status;
    }
}
function fetchWithDeadline(timeoutMs, base = fetch) {
    return (input, init) => {
        const deadline = AbortSignal.timeout(timeoutMs);
        const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
        return base(input, { ...init, signal });
    };
}
function retrySettings(partial = {}) {
    const merged = { ...DEFAULT_RETRY, ...partial };
    return {
        retries: Math.min(MAX_RETRIES, Math.max(0, Math.floor(merged.retries))),
        retryBaseMs: Math.min(MAX_RETRY_BASE_MS, Math.max(0, merged.retryBaseMs)),
        timeoutMs: Math.max(1, merged.timeoutMs),
    };
}
/**
 * Octokit options carrying the bounded retry, throttling and per-request deadline: 5xx and
 * network errors are retried by plugin-retry; rate limits (403 with no quota left, 429, and the
 * secondary limit) only by the throttling plugin, which waits out at most `maxRateLimitWaitS`
 * per wait and `rateLimitRetries` waits, then the call fails. A 429 is kept from plugin-retry,
 * which would otherwise retry it before its reset.
 */
function guardedOctokitOptions(options = {}) {
    const settings = retrySettings(options.retry);
    const maxWait = Math.min(MAX_RATE_LIMIT_WAIT_S, options.maxRateLimitWaitS ?? MAX_RATE_LIMIT_WAIT_S);
    const waits = options.rateLimitRetries ?? settings.retries;
    const rateLimited = (retryAfter, _options, _octokit, retryCount) => retryCount < waits && retryAfter <= maxWait;
    return {
        ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
        userAgent: options.userAgent ?? "envelope-gate",
        request: { fetch: fetchWithDeadline(settings.timeoutMs, options.fetch) },
        retry: { retries: settings.retries, retryAfterBaseValue: settings.retryBaseMs, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
        throttle: {
            enabled: options.throttle ?? true,
            onRateLimit: rateLimited,
            onSecondaryRateLimit: rateLimited,
            retryAfterBaseValue: Math.max(1, settings.retryBaseMs),
        },
        ...(options.beforeEachRequest !== undefined ? { beforeEachRequest: options.beforeEachRequest } : {}),
        ...(options.onAttemptFailed !== undefined ? { onAttemptFailed: options.onAttemptFailed } : {}),
        ...(options.onResponseHeaders !== undefined ? { onResponseHeaders: options.onResponseHeaders } : {}),
        log: { debug: () => { }, info: () => { }, warn: () => { }, error: () => { } },
    };
}
/**
 * The Action's client: @actions/github's getOctokit with our plugins, so a job's token client is
 * the toolkit's (REST methods, pagination, the runner's proxy settings through its fetch, the
 * orchestration id in the user agent) held to the same bounds as the App's. The toolkit reads the
 * run's event file as it loads; it is loaded here, after the settings read that file with a typed
 * error, never at the Action's start.
 */
async function createGitHubClient(options) {
    const { getOctokit } = await Promise.resolve(/* import() eager */).then(__webpack_require__.bind(__webpack_require__, 1351));
    const { defaults } = await Promise.resolve(/* import() eager */).then(__webpack_require__.bind(__webpack_require__, 6536));
    const proxied = defaults.request?.fetch;
    const octokitOptions = guardedOctokitOptions({
        baseUrl: options.baseUrl,
        ...(options.retry !== undefined ? { retry: options.retry } : {}),
        ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
        ...(proxied !== undefined ? { fetch: proxied } : {}),
    });
    return getOctokit(options.token, octokitOptions, guardPlugin, retry, throttling);
}
function statusOf(err) {
    if (typeof err !== "object" || err === null || !("status" in err))
        return null;
    const status = Number(err.status);
    // @octokit/request reports a request that got no response (refused, reset, aborted) as 500
    // with no response object; say so instead of inventing a status.
    if (!("response" in err) || err.response === undefined)
        return null;
    return Number.isInteger(status) ? status : null;
}
function detailOf(err) {
    const message = err instanceof Error ? err.message : String(err);
    const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : "";
    return `${message}${cause}`.slice(0, 500);
}
/**
 * The one error wrapper of envelope-gate's GitHub calls: a failed request becomes
 * GitHubUnavailable (GITHUB_UNAVAILABLE) naming what was attempted, with the HTTP status when
 * GitHub answered; a Refusal (already typed: the App's kill switch, a drain, a secret that
 * could not be read) passes through unchanged. `hint` replaces the default advice (the App's
 * says nothing was decided).
 */
function gitHubFailure(what, err, hint) {
    if (err instanceof core_errors/* Refusal */.P_)
        return err;
    return new client_GitHubUnavailable(what, statusOf(err), detailOf(err), err, hint);
}
/** Runs one GitHub call; any failure becomes GitHubUnavailable naming what was attempted (gitHubFailure). */
async function client_callGitHub(what, call, hint) {
    try {
        return await call();
    }
    catch (err) {
        throw gitHubFailure(what, err, hint);
    }
}
/** Is this a GitHub answer with the given status (as opposed to an outage)? */
function hasStatus(err, status) {
    return err instanceof client_GitHubUnavailable && err.status === status;
}

;// CONCATENATED MODULE: ./src/github/checks.ts
/** Check runs: create one, then complete it with its output and annotations, 50 per request. */


/** GitHub's limit on a check run's output summary and text, in characters. */
const CHECK_OUTPUT_MAX_CHARS = 65000;
/**
 * The one check-run creation: in progress (started now) for a run completed later by
 * completeCheckRun, or, given a conclusion, completed with its output (summary and text cut to
 * GitHub's limit) in one request.
 */
async function createCheckRun(client, repo, run, options = {}) {
    const state = "conclusion" in run
        ? { status: "completed", conclusion: run.conclusion }
        : { status: "in_progress", started_at: new Date().toISOString() };
    const output = "conclusion" in run
        ? {
            output: {
                title: run.title,
                summary: run.summary.slice(0, CHECK_OUTPUT_MAX_CHARS),
                ...(run.text !== undefined ? { text: run.text.slice(0, CHECK_OUTPUT_MAX_CHARS) } : {}),
            },
        }
        : {};
    const { data } = await client_callGitHub(options.what ?? `create check run "${run.name}"`, () => client.request("POST /repos/{owner}/{repo}/check-runs", {
        ...repo,
        name: run.name,
        head_sha: run.headSha,
        ...state,
        ...(run.externalId !== undefined ? { external_id: run.externalId } : {}),
        ...(run.detailsUrl !== undefined ? { details_url: run.detailsUrl } : {}),
        ...output,
    }), options.hint);
    return { id: Number(data.id), htmlUrl: data.html_url ?? null };
}
/**
 * Sends every annotation batch but the last while the run is still in progress, then the last
 * batch with the conclusion, so a run is never shown complete with annotations missing.
 * Returns the number of update requests made.
 */
async function completeCheckRun(client, repo, id, result) {
    const batches = batchAnnotations(result.annotations, ANNOTATIONS_PER_REQUEST);
    const output = (annotations) => ({
        title: result.title,
        summary: result.summary,
        ...(result.text !== undefined ? { text: result.text } : {}),
        annotations,
    });
    const last = batches.length - 1;
    for (let i = 0; i < last; i++) {
        const batch = batches[i];
        await callGitHub(`add annotations ${i * ANNOTATIONS_PER_REQUEST + 1}-${i * ANNOTATIONS_PER_REQUEST + batch.length} to check run ${id}`, () => client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { ...repo, check_run_id: id, output: output(batch) }));
    }
    await callGitHub(`complete check run ${id}`, () => client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
        ...repo,
        check_run_id: id,
        status: "completed",
        conclusion: result.conclusion,
        completed_at: new Date().toISOString(),
        output: output(batches[last] ?? []),
    }));
    return batches.length;
}
/** The check runs named `name` on `sha` (the latest of each app, as GitHub filters by default), newest first. */
async function checkRunsOnCommit(client, repo, sha, name) {
    const { data } = await callGitHub(`read the "${name}" check runs`, () => client.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...repo, ref: sha, check_name: name, per_page: 100 }));
    return data.check_runs
        .map((c) => ({
        id: Number(c.id),
        app_slug: c.app?.slug ?? null,
        conclusion: c.conclusion,
        title: c.output.title,
        summary: c.output.summary,
        html_url: c.html_url,
    }))
        .sort((a, b) => b.id - a.id);
}

;// CONCATENATED MODULE: ./src/github/conditional.ts
/** What an entry costs beyond its strings (the map's slot, the object). */
const ENTRY_OVERHEAD = 128;
const DEFAULT_LIMITS = { maxBytes: 32 * 1024 * 1024, maxEntryBytes: 512 * 1024 };
class ConditionalCache {
    limits;
    entries = new Map();
    bytes = 0;
    /** Answers given from the cache on GitHub's 304 (for the status page and the benchmark). */
    hits = 0;
    constructor(limits = DEFAULT_LIMITS) {
        this.limits = limits;
    }
    get size() {
        return this.entries.size;
    }
    get bytesKept() {
        return this.bytes;
    }
    get(key) {
        const kept = this.entries.get(key);
        if (kept === undefined)
            return undefined;
        // Most recently used last.
        this.entries.delete(key);
        this.entries.set(key, kept);
        return kept;
    }
    set(key, kept) {
        this.delete(key);
        if (kept.json.length > this.limits.maxEntryBytes)
            return;
        const cost = key.length + kept.json.length + JSON.stringify(kept.headers).length + ENTRY_OVERHEAD;
        this.entries.set(key, { ...kept, cost });
        this.bytes += cost;
        for (const [oldest, entry] of this.entries) {
            if (this.bytes <= this.limits.maxBytes)
                break;
            this.entries.delete(oldest);
            this.bytes -= entry.cost ?? 0;
        }
    }
    delete(key) {
        const kept = this.entries.get(key);
        if (kept === undefined)
            return;
        this.entries.delete(key);
        this.bytes -= kept.cost ?? 0;
    }
}
/**
 * Makes `octokit`'s GETs conditional on `cache`, under `scope` (the installation). Registered on
 * a built client, so it sits outermost: the retry and throttling plugins pass a 304 through (it is
 * no failure to retry), the budget hook reads its rate-limit headers, and it becomes the kept
 * answer here.
 */
function conditionalRequests(octokit, cache, scope) {
    octokit.hook.wrap("request", async (request, options) => {
        if (String(options.method ?? "GET").toUpperCase() !== "GET")
            return request(options);
        const endpoint = octokit.request.endpoint(options);
        const key = `${scope} ${String(endpoint.headers.accept ?? "")} ${endpoint.url}`;
        const kept = cache.get(key);
        // In place: the hooks inside this one were bound to this options object, not to a copy.
        if (kept !== undefined)
            options.headers = { ...options.headers, "if-none-match": kept.etag };
        let response;
        try {
            response = (await request(options));
        }
        catch (err) {
            const e = err;
            if (kept === undefined || e.status !== 304)
                throw err;
            cache.hits++;
            return {
                status: kept.status,
                url: kept.url,
                headers: { ...kept.headers, ...(e.response?.headers ?? {}) },
                data: JSON.parse(kept.json),
            };
        }
        const etag = response.headers.etag;
        const data = response.data;
        const json = String(response.headers["content-type"] ?? "").includes("json");
        if (response.status === 200 && json && typeof etag === "string" && etag !== "" && data !== null && typeof data === "object") {
            cache.set(key, { etag, status: response.status, url: response.url, headers: { ...response.headers }, json: JSON.stringify(data) });
        }
        else
            cache.delete(key);
        return response;
    });
}

;// CONCATENATED MODULE: ./src/github/repo.ts
/**
 * Reads from a repository: files at a commit, pull requests, their files and reviews, and
 * collaborator permissions. Small functions over a GitHubClient so the Action and the App
 * share them.
 */


/** The one repository parser: `owner/name` as GitHub spells it, or null. */
function parseRepository(fullName) {
    const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(fullName);
    return m ? { owner: m[1], repo: m[2] } : null;
}
/** parseRepository for a name that must be one (the App's recorded repositories): CONFIG_INVALID otherwise. */
function repoRef(fullName) {
    const ref = parseRepository(fullName);
    if (ref === null)
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `not an owner/name repository: ${fullName}`);
    return ref;
}
/** Pages fetched at most per listing; GitHub itself lists at most 3000 files of a pull request. */
const MAX_PAGES = 30;
async function listAll(client, what, route, params) {
    const items = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
        const response = await callGitHub(what, () => client.request(route, { ...params, per_page: 100, page }));
        const data = response.data;
        if (!Array.isArray(data))
            throw new GitHubUnavailable(what, response.status, "the answer was not a list", null);
        items.push(...data);
        const link = String(response.headers.link ?? "");
        if (!/rel="next"/.test(link) || data.length === 0)
            return items;
    }
    throw new GitHubUnavailable(what, null, `more than ${MAX_PAGES} pages; refusing to judge a partial list`, null);
}
/** Policy files are read up to this size; a larger one is refused (POLICY_FILE_TOO_LARGE). */
const POLICY_FILE_MAX_BYTES = 10 * 1024 * 1024;
function isNotFound(err) {
    return typeof err === "object" && err !== null && err.status === 404 && "response" in err;
}
function isTooLarge(err) {
    if (typeof err !== "object" || err === null || err.status !== 403)
        return false;
    const data = err.response?.data;
    return (data?.errors ?? []).some((e) => e.code === "too_large");
}
function tooLarge(path, ref, size) {
    const how = size === null ? "over GitHub's 100 MB API limit" : `${size} bytes`;
    return new core_errors/* Refusal */.P_("POLICY_FILE_TOO_LARGE", `${path} at ${ref.slice(0, 12)} is ${how}; policy files are read up to ${POLICY_FILE_MAX_BYTES} bytes`, {
        file: path,
        hint: "Keep the envelope, its digest, the properties and the ledger small; a policy file this large is not reviewed by anyone.",
    });
}
function contentsAt(client, repo, path, ref, cache, options) {
    if (cache === undefined)
        return fetchContents(client, repo, path, ref, options);
    const key = `${ref}\0${path}`;
    let answer = cache.get(key);
    if (answer === undefined) {
        answer = fetchContents(client, repo, path, ref, options);
        cache.set(key, answer);
    }
    return answer;
}
async function fetchContents(client, repo, path, ref, options) {
    const what = options.what ?? `read ${path} at ${ref.slice(0, 12)}`;
    let data;
    try {
        ({ data } = await client.request("GET /repos/{owner}/{repo}/contents/{path}", { ...repo, path, ref }));
    }
    catch (err) {
        if (isNotFound(err))
            return null;
        if (isTooLarge(err))
            throw tooLarge(path, ref, null);
        throw gitHubFailure(what, err, options.hint);
    }
    const file = data;
    if (Array.isArray(data) || file.type !== "file" || typeof file.sha !== "string" || typeof file.size !== "number") {
        if (options.notAFile !== undefined)
            throw options.notAFile(path, ref);
        throw new client_GitHubUnavailable(what, 200, `${path} is not a file at ${ref}`, null, options.hint);
    }
    return file;
}
/** A file's blob id and size at a commit, or null when it does not exist there. */
async function fileIdAt(client, repo, path, ref, cache) {
    const file = await contentsAt(client, repo, path, ref, cache, {});
    return file === null ? null : { sha: file.sha, size: file.size };
}
/**
 * The one file reader of envelope-gate (the Action's policy files, the App's ledger): a file's
 * bytes at a commit, or null when GitHub says it does not exist there (404). Any other failure
 * is GITHUB_UNAVAILABLE: an unreadable policy file is not an absent one. Files over 1 MB come
 * from the contents API without content (encoding "none"); their bytes are read through the git
 * blobs API by the blob id, up to POLICY_FILE_MAX_BYTES (POLICY_FILE_TOO_LARGE beyond).
 */
async function readFileAt(client, repo, path, ref, cache, options = {}) {
    const file = await contentsAt(client, repo, path, ref, cache, options);
    if (file === null)
        return null;
    if (file.size > POLICY_FILE_MAX_BYTES)
        throw tooLarge(path, ref, file.size);
    const what = options.what ?? `read ${path} at ${ref.slice(0, 12)}`;
    let base64;
    if (file.encoding === "base64" && typeof file.content === "string") {
        base64 = file.content;
    }
    else {
        const blobWhat = `${what} (blob ${file.sha.slice(0, 12)})`;
        const { data } = await client_callGitHub(blobWhat, () => client.request("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", { ...repo, file_sha: file.sha }), options.hint);
        const blob = data;
        if (blob.encoding !== "base64" || typeof blob.content !== "string")
            throw new client_GitHubUnavailable(blobWhat, 200, `the blob of ${path} came without base64 content`, null, options.hint);
        base64 = blob.content;
    }
    const bytes = new Uint8Array(Buffer.from(base64, "base64"));
    if (bytes.length !== file.size) {
        throw new client_GitHubUnavailable(what, 200, `${path} came back as ${bytes.length} bytes, not the ${file.size} GitHub listed`, null, options.hint);
    }
    return bytes;
}
async function getPullRequest(client, repo, number) {
    const { data } = await callGitHub(`read pull request #${number}`, () => client.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...repo, pull_number: number }));
    return {
        number: data.number,
        state: data.state,
        author: data.user?.login ?? "",
        labels: data.labels.map((l) => l.name ?? "").filter((n) => n !== ""),
        baseSha: data.base.sha,
        baseRef: data.base.ref,
        headSha: data.head.sha,
        headRef: data.head.ref,
        headRepo: data.head.repo?.full_name ?? null,
        htmlUrl: data.html_url,
        changedFiles: data.changed_files,
    };
}
/**
 * A branch's current commit, or null when GitHub says there is no such branch (404). Any other
 * failure is GITHUB_UNAVAILABLE: a branch that could not be read is not a missing one.
 */
async function branchHeadSha(client, repo, branch, hint) {
    let data;
    try {
        ({ data } = await client.request("GET /repos/{owner}/{repo}/git/ref/{ref}", { ...repo, ref: `heads/${branch}` }));
    }
    catch (err) {
        if (isNotFound(err))
            return null;
        return client_callGitHub(`read the branch ${branch}`, () => Promise.reject(err), hint);
    }
    const sha = data.object?.sha;
    if (typeof sha !== "string" || !/^[0-9a-f]{40}$/.test(sha)) {
        throw new client_GitHubUnavailable(`read the branch ${branch}`, 200, "the answer names no commit", null, hint);
    }
    return sha;
}
async function listPullFiles(client, repo, number) {
    const raw = await listAll(client, `list the files of pull request #${number}`, "GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
        ...repo,
        pull_number: number,
    });
    return raw.map((f) => {
        const file = { filename: f.filename, status: f.status };
        if (f.previous_filename !== undefined)
            file.previous_filename = f.previous_filename;
        if (f.patch !== undefined)
            file.patch = f.patch;
        return file;
    });
}
async function listReviews(client, repo, number) {
    const raw = await listAll(client, `list the reviews of pull request #${number}`, "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", { ...repo, pull_number: number });
    return raw.map((r) => ({
        id: r.id,
        login: r.user?.login ?? "",
        type: typeof r.user?.type === "string" ? r.user.type : null,
        state: r.state,
        commitId: r.commit_id ?? null,
    }));
}
/** Built-in repository roles; any other role_name is a custom role, judged by what it grants. */
const BUILT_IN_ROLES = new Set(["admin", "maintain", "write", "triage", "read"]);
/**
 * The collaborator's role as far as approving goes: a built-in role by its name ("admin",
 * "maintain", "write", "triage", "read"); a custom role (its role_name is the custom name) by the
 * base permission it grants (`permission`: "admin", "write", "read", "none"). Null when GitHub
 * says the user is not a collaborator (404).
 */
async function getCollaboratorRole(client, repo, login) {
    try {
        const { data } = await client.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...repo, username: login });
        const roleName = data.role_name;
        return roleName !== undefined && BUILT_IN_ROLES.has(roleName) ? roleName : data.permission;
    }
    catch (err) {
        if (isNotFound(err))
            return null;
        return callGitHub(`read ${login}'s permission`, () => Promise.reject(err));
    }
}

;// CONCATENATED MODULE: ./src/github/app-client.ts







/**
 * Outages and refusals to serve us are GITHUB_UNAVAILABLE (the one wrapper, gitHubFailure, with
 * the App's hint); a Refusal (the kill switch) passes through.
 */
function githubUnavailable(what, err) {
    return gitHubFailure(what, err, APP_HINT);
}
/** GitHub answered `status` with `message`, and the App cannot go on from that answer. */
function refusedAnswer(what, status, message) {
    return new client_GitHubUnavailable(what, status, message, null, APP_HINT);
}
const APP_HINT = "Nothing was decided from this. The work stays recorded and is retried by redelivery or the sweeper.";
/** The commits list's largest page. */
const COMMITS_PER_PAGE = 100;
/** Default longest rate-limit wait: a webhook handler must not sleep until an hourly reset. */
const APP_MAX_RATE_LIMIT_WAIT_S = 120;
class AppClient {
    settings;
    /** Authenticated as the App (JWT); installation clients come from it. */
    octokit;
    /** The installations' kept answers, asked again with If-None-Match (a 304 spends no budget). */
    conditional = new ConditionalCache();
    constructor(settings) {
        this.settings = settings;
        // One rate-limit wait per request, and only a short one; beyond it the call fails closed.
        const Configured = GuardedOctokit.defaults(guardedOctokitOptions({
            baseUrl: settings.baseUrl,
            userAgent: settings.userAgent ?? "envelope-gate-app",
            retry: { retries: settings.retries ?? 3, retryBaseMs: settings.retryAfterMs ?? 1000, timeoutMs: settings.timeoutMs ?? 30_000 },
            rateLimitRetries: 1,
            maxRateLimitWaitS: settings.maxRateLimitWaitS ?? APP_MAX_RATE_LIMIT_WAIT_S,
            throttle: settings.throttle ?? true,
            beforeEachRequest: settings.beforeEachRequest,
            ...(settings.onAttemptFailed !== undefined ? { onAttemptFailed: settings.onAttemptFailed } : {}),
        }));
        const key = settings.privateKey;
        const source = typeof key === "string" ? { origin: "privateKey", read: async () => Buffer.from(key.replace(/\\n/g, "\n")) } : key;
        this.octokit = new Configured({
            authStrategy: dist_node/* createAppAuth */.K,
            auth: {
                appId: settings.appId,
                createJwt: (appId, timeDifference) => createAppJwt(source, appId, timeDifference),
            },
        });
    }
    async installation(installationId) {
        try {
            // As @octokit/app's getInstallationOctokit: an Octokit of the same class whose auth is the
            // installation's token, minted (and cached by auth-app) with a JWT from createJwt. Its
            // answers' headers are told to the App with the installation's id (its rate limit).
            const told = this.settings.onInstallationHeaders;
            const octokit = (await this.octokit.auth({
                type: "installation",
                installationId,
                factory: (auth) => new auth.octokit.constructor({
                    ...auth.octokitOptions,
                    ...(told === undefined ? {} : { onResponseHeaders: (headers) => told(installationId, headers) }),
                    authStrategy: dist_node/* createAppAuth */.K,
                    auth: { ...auth, installationId },
                }),
            }));
            conditionalRequests(octokit, this.conditional, `installation:${installationId}`);
            return new InstallationClient(octokit, () => this.botLogin());
        }
        catch (err) {
            throw githubUnavailable(`authenticate installation ${installationId}`, err);
        }
    }
    /**
     * One page of the App's webhook deliveries, newest first (GET /app/hook/deliveries, with the
     * App's JWT), and the cursor of the next page from the Link header (null: the last page).
     */
    async listHookDeliveries(cursor, perPage = 100) {
        try {
            const res = await this.octokit.request("GET /app/hook/deliveries", { per_page: perPage, ...(cursor === null ? {} : { cursor }) });
            return { deliveries: res.data, next: nextCursor(res.headers.link) };
        }
        catch (err) {
            throw hookError("list the App's webhook deliveries", err, "REDELIVERY_LIST_REFUSED");
        }
    }
    /** Asks GitHub to deliver one delivery again (POST /app/hook/deliveries/{delivery_id}/attempts, 202). */
    async redeliverHook(deliveryId) {
        try {
            // Not retried by the client: a 5xx may come after GitHub queued the attempt; the pass records it pending instead.
            await this.octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: deliveryId, request: { retries: 0 } });
        }
        catch (err) {
            throw hookError(`redeliver webhook delivery ${deliveryId}`, err, "REDELIVERY_REFUSED");
        }
    }
    bot = null;
    /**
     * The login GitHub gives what the App writes with an installation token: `<slug>[bot]`, the slug
     * from GET /app (with the App's JWT; an installation token cannot read it). Read once, then
     * cached; a failed read is not cached.
     */
    botLogin() {
        this.bot ??= this.whoAmI().then((app) => `${app.slug}[bot]`, (err) => {
            this.bot = null;
            throw err;
        });
        return this.bot;
    }
    /** GET /app: proves the App's credentials work (used by `app status --check-github`). */
    async whoAmI() {
        try {
            const res = await this.octokit.request("GET /app");
            const data = res.data;
            return { slug: data.slug, id: data.id };
        }
        catch (err) {
            throw githubUnavailable("identify the App", err);
        }
    }
}
function nextCursor(link) {
    for (const part of (link ?? "").split(",")) {
        const m = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
        if (!m)
            continue;
        try {
            return new URL(m[1]).searchParams.get("cursor");
        }
        catch {
            return null;
        }
    }
    return null;
}
/**
 * What a deliveries call could not do, with its own code: a rate limit (403 with no quota left
 * or a retry-after, 429) is REDELIVERY_RATE_LIMITED; a refusal (4xx) is `refused`; no answer or
 * a 5xx is GITHUB_UNAVAILABLE. A Refusal (the kill switch, a drain) passes through.
 */
function hookError(what, err, refused) {
    if (err instanceof core_errors/* Refusal */.P_)
        return err;
    const e = err;
    const status = typeof e?.status === "number" && e.response !== undefined ? e.status : null;
    const headers = e?.response?.headers ?? {};
    const message = String(e?.message ?? err).slice(0, 500);
    const limited = status === 429 ||
        (status === 403 && (headers["x-ratelimit-remaining"] === "0" || headers["retry-after"] !== undefined || /rate limit/i.test(message)));
    if (limited)
        return new core_errors/* Refusal */.P_("REDELIVERY_RATE_LIMITED", `GitHub rate-limited the request to ${what} (HTTP ${status}): ${message}`);
    if (status !== null && status >= 400 && status < 500)
        return new core_errors/* Refusal */.P_(refused, `GitHub refused to ${what} (HTTP ${status}): ${message}`);
    return githubUnavailable(what, err);
}
function pullInfo(p) {
    return {
        number: p.number,
        html_url: p.html_url,
        state: p.state,
        author: p.user?.login ?? "",
        author_type: p.user?.type ?? "",
        head_ref: p.head.ref,
        head_sha: p.head.sha,
        head_repository: p.head.repo?.full_name ?? null,
        base_ref: p.base.ref,
        merged: typeof p.merged_at === "string" && p.merged_at !== "",
    };
}
/** One installation's calls. Methods name the GitHub operation; failures are typed. */
class InstallationClient {
    octokit;
    bot;
    constructor(octokit, bot = () => Promise.reject(new core_errors/* Refusal */.P_("GITHUB_UNAVAILABLE", "the App's bot login is unknown"))) {
        this.octokit = octokit;
        this.bot = bot;
    }
    /** The installation's Octokit as the shared readers and writers take it (a GuardedOctokit: the App's class derives from it). */
    get client() {
        return this.octokit;
    }
    /** The App's own login on GitHub (`<slug>[bot]`), the author of every PR it opens. */
    botLogin() {
        return this.bot();
    }
    async call(what, route, params, expected = []) {
        try {
            const res = await this.octokit.request(route, params);
            return { status: res.status, data: res.data };
        }
        catch (err) {
            const status = err?.status;
            if (typeof status === "number" && expected.includes(status)) {
                return { status, data: (err.response?.data ?? null) };
            }
            throw githubUnavailable(what, err);
        }
    }
    /**
     * Dispatches a workflow asking for the run's details. GitHub versions that do not know
     * `return_run_details` answer 204 (or 422 naming the key); then the caller correlates by
     * the dual run id it put in the inputs.
     */
    async dispatchWorkflow(r, workflow, ref, inputs) {
        const route = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";
        // Never retried here: a 5xx or a timeout may come after GitHub started the run, and a blind
        // resend would start a second runner B under one budget reservation. The failure goes back
        // to the caller, whose next attempt looks for the run before dispatching again.
        const once = { request: { retries: 0 } };
        const first = await this.call("dispatch runner B", route, { ...r, workflow_id: workflow, ref, inputs, return_run_details: true, ...once }, [422]);
        if (first.status === 422) {
            const message = String(first.data?.message ?? "");
            if (!/return_run_details/.test(message)) {
                throw refusedAnswer("dispatch runner B", 422, message || "Validation Failed");
            }
            await this.call("dispatch runner B", route, { ...r, workflow_id: workflow, ref, inputs, ...once });
            return { runId: null, runUrl: null, mode: "correlation" };
        }
        const id = first.data?.workflow_run_id;
        if (first.status === 200 && typeof id === "number") {
            return { runId: id, runUrl: first.data?.html_url ?? null, mode: "run_details" };
        }
        return { runId: null, runUrl: null, mode: "correlation" };
    }
    /** Lists recent workflow_dispatch runs of `workflow` created since `since` (ISO). */
    async listDispatchedRuns(r, workflow, since) {
        const res = await this.call("list runner B candidates", "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", { ...r, workflow_id: workflow, event: "workflow_dispatch", created: `>=${since}`, per_page: 100 });
        return res.data.workflow_runs ?? [];
    }
    async getRun(r, runId) {
        const res = await this.call("read a workflow run", "GET /repos/{owner}/{repo}/actions/runs/{run_id}", {
            ...r,
            run_id: runId,
        });
        return res.data;
    }
    /** The pull request as GitHub has it now (with its repositories and base sha), or null when it does not exist (404). */
    async readPull(r, pullNumber) {
        const res = await this.call("read the pull request", "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...r, pull_number: pullNumber }, [404]);
        return res.status === 404 ? null : res.data;
    }
    /**
     * What is at `path` in commit `ref` (its object id; the text of a file GitHub inlines, up to
     * 1 MB), or null when nothing is. For a file's text whatever its size, textAt.
     */
    async pathAt(r, path, ref) {
        const res = await this.call(`read ${path} at ${ref.slice(0, 12)}`, "GET /repos/{owner}/{repo}/contents/{path}", { ...r, path, ref }, [404]);
        if (res.status === 404)
            return null;
        if (Array.isArray(res.data))
            return { type: "dir", sha: "", text: null };
        const d = res.data;
        if (typeof d.sha !== "string")
            throw new core_errors/* Refusal */.P_("GITHUB_UNAVAILABLE", `GitHub named no object id for ${path} at ${ref}`);
        const text = d.type === "file" && d.encoding === "base64" && typeof d.content === "string"
            ? Buffer.from(d.content, "base64").toString("utf8")
            : null;
        return { type: String(d.type ?? "unknown"), sha: d.sha, text };
    }
    /** Every blob of commit `sha`'s tree, by path. */
    async treeAt(r, sha) {
        const res = await this.call(`read the tree of ${sha.slice(0, 12)}`, "GET /repos/{owner}/{repo}/git/trees/{tree_sha}", { ...r, tree_sha: sha, recursive: "1" });
        const blobs = new Map();
        for (const e of res.data.tree ?? [])
            if (e.type !== "tree")
                blobs.set(e.path, `${e.mode ?? ""}:${e.sha}`);
        return { truncated: res.data.truncated === true, blobs };
    }
    /** The zip of the run's artifact named `name`, or null when the run has no such artifact. */
    async downloadArtifact(r, runId, name) {
        const list = await this.call("list the run's artifacts", "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", { ...r, run_id: runId, name, per_page: 100 });
        const artifact = list.data.artifacts.find((a) => a.name === name && !a.expired);
        if (!artifact)
            return null;
        const zip = await this.call("download the evidence artifact", "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", { ...r, artifact_id: artifact.id, archive_format: "zip" });
        return new Uint8Array(zip.data);
    }
    /**
     * The evidence artifact of the run attempt GitHub reports (`run.run_attempt`): for a re-run,
     * only an artifact created at or after that attempt started (`run_started_at`) is its own; one of
     * an earlier attempt of the same run is `earlier`, never read as this attempt's. Of several, the
     * newest. None named so: `missing`.
     */
    async runEvidence(r, run, name) {
        const list = await this.call("list the run's artifacts", "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts", { ...r, run_id: run.id, name, per_page: 100 });
        const named = list.data.artifacts.filter((a) => a.name === name && !a.expired);
        if (named.length === 0)
            return { kind: "missing" };
        const created = (a) => Date.parse(a.created_at ?? "");
        const attempt = run.run_attempt ?? 1;
        let own = named;
        if (attempt > 1) {
            const started = Date.parse(run.run_started_at ?? "");
            if (Number.isNaN(started))
                return {
                    kind: "earlier",
                    reason: `GitHub gives no start time for attempt ${attempt} of run ${run.id}: whose ${name} artifact is which cannot be told`,
                };
            own = named.filter((a) => created(a) >= started);
            if (own.length === 0) {
                const a = named[0];
                return {
                    kind: "earlier",
                    reason: `run ${run.id}'s ${name} artifact (${a.id}, created ${a.created_at ?? "at no time GitHub gives"}) is older than attempt ${attempt}, which started ${run.run_started_at}: it is an earlier attempt's`,
                };
            }
        }
        const artifact = own.reduce((a, b) => (created(b) > created(a) ? b : a));
        const zip = await this.call("download the evidence artifact", "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", { ...r, artifact_id: artifact.id, archive_format: "zip" });
        return { kind: "zip", zip: new Uint8Array(zip.data) };
    }
    /** A completed check run with its output, in one request (createCheckRun). */
    async createCheckRun(r, check) {
        const run = await createCheckRun(this.client, r, {
            name: check.name,
            headSha: check.head_sha,
            conclusion: check.conclusion,
            title: check.title,
            summary: check.summary,
            ...(check.text ? { text: check.text } : {}),
            ...(check.external_id ? { externalId: check.external_id } : {}),
            ...(check.details_url ? { detailsUrl: check.details_url } : {}),
        }, { what: "create a check run", hint: APP_HINT });
        return run.id;
    }
    /**
     * Every check run named `name` on `sha`, whoever posted it (`app_id`: the app GitHub says
     * created it; a job token's is GitHub Actions'), up to 1,000.
     */
    async checkRunsNamed(r, sha, name) {
        const out = [];
        for (let page = 1; page <= 10; page++) {
            const res = await this.call("list the commit's check runs", "GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...r, ref: sha, check_name: name, filter: "all", per_page: 100, page });
            for (const c of res.data.check_runs) {
                out.push({
                    id: c.id,
                    name: c.name,
                    app_id: typeof c.app?.id === "number" ? c.app.id : null,
                    app_slug: c.app?.slug ?? null,
                    status: c.status,
                    conclusion: c.conclusion ?? null,
                    external_id: c.external_id ?? null,
                    title: c.output?.title ?? null,
                    summary: c.output?.summary ?? null,
                });
            }
            if (res.data.check_runs.length < 100 || out.length >= res.data.total_count)
                break;
        }
        return out;
    }
    /**
     * The pull requests GitHub associates with commit `sha` (GET /commits/{sha}/pulls), up to 1,000:
     * open ones and merged ones; a caller keeps those whose head is `sha`. GitHub lists only the
     * merged one for a commit already on the default branch.
     */
    async pullsOfCommit(r, sha) {
        const out = [];
        for (let page = 1; page <= 10; page++) {
            const res = await this.call("list the commit's pull requests", "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", {
                ...r,
                commit_sha: sha,
                per_page: 100,
                page,
            });
            out.push(...res.data.map(pullInfo));
            if (res.data.length < 100)
                break;
        }
        return out;
    }
    /** A branch's current commit, or null when there is no such branch (branchHeadSha, the Action's reader too). */
    branchSha(r, branch) {
        return branchHeadSha(this.client, r, branch, APP_HINT);
    }
    /**
     * A policy file's text at a commit, or null when nothing is at the path there: readFileAt, the
     * Action's reader (a file over 1 MB through the blobs API, up to POLICY_FILE_MAX_BYTES, then
     * POLICY_FILE_TOO_LARGE). A path that is not a file is `notAFile`'s refusal.
     */
    async textAt(r, path, ref, what, notAFile) {
        const bytes = await readFileAt(this.client, r, path, ref, undefined, { what, hint: APP_HINT, notAFile });
        return bytes === null ? null : Buffer.from(bytes).toString("utf8");
    }
    /** The ledger's text at a commit (textAt); a path that is not a file is LEDGER_UNREADABLE. */
    fileAt(r, path, ref) {
        return this.textAt(r, path, ref, "read the ledger", (p, at) => new core_errors/* Refusal */.P_("LEDGER_UNREADABLE", `${p} at ${at} is not a file GitHub returned as base64`));
    }
    /** A commit whose tree is `parent`'s with `path` set to `content`. */
    commitFile(r, parent, path, content, message) {
        return this.commitFiles(r, parent, { [path]: content }, message);
    }
    /** A commit whose tree is `parent`'s with each of `files` (path -> text) set: one commit for several files. */
    async commitFiles(r, parent, files, message) {
        const parentCommit = await this.call("read the base commit", "GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { ...r, commit_sha: parent });
        const tree = await this.call("write the tree", "POST /repos/{owner}/{repo}/git/trees", {
            ...r,
            base_tree: parentCommit.data.tree.sha,
            tree: Object.entries(files).map(([path, content]) => ({ path, mode: "100644", type: "blob", content })),
        });
        const commit = await this.call("write the commit", "POST /repos/{owner}/{repo}/git/commits", {
            ...r,
            message,
            tree: tree.data.sha,
            parents: [parent],
        });
        return commit.data.sha;
    }
    /**
     * One page (100) of the commits reachable from `from`, newest first, each with its parents
     * (GET /repos/{owner}/{repo}/commits?sha=): a walk of a branch's history costs a call per 100
     * commits, not one per commit. `more`: GitHub has another page.
     */
    async commitsPage(r, from, page) {
        const res = await this.call(`list the commits of ${from.slice(0, 40)}`, "GET /repos/{owner}/{repo}/commits", { ...r, sha: from, per_page: COMMITS_PER_PAGE, page });
        const commits = res.data.map((c) => ({ sha: c.sha, parents: (c.parents ?? []).map((p) => p.sha) }));
        return { commits, more: commits.length === COMMITS_PER_PAGE };
    }
    /** A commit's parents (GET /git/commits/{sha}), or null when the repository has no such commit. */
    async commitParents(r, sha) {
        const res = await this.call(`read commit ${sha.slice(0, 12)}`, "GET /repos/{owner}/{repo}/git/commits/{commit_sha}", { ...r, commit_sha: sha }, [404, 422]);
        if (res.status !== 200)
            return null;
        return (res.data.parents ?? []).map((p) => p.sha);
    }
    /** The repository's default branch, as GET /repos/{owner}/{repo} names it now. */
    async defaultBranch(r) {
        const res = await this.call("read the repository", "GET /repos/{owner}/{repo}", { ...r });
        const branch = res.data.default_branch;
        if (typeof branch !== "string" || branch === "")
            throw new core_errors/* Refusal */.P_("GITHUB_UNAVAILABLE", `GitHub named no default branch for ${r.owner}/${r.repo}`);
        return branch;
    }
    /**
     * The repository's default branch, or null when GitHub answers 404 (no such repository, or the
     * installation cannot see it): the organisation's `.github` repository, which may not exist.
     */
    async defaultBranchIfAny(r) {
        const res = await this.call("read the repository", "GET /repos/{owner}/{repo}", { ...r }, [404]);
        if (res.status === 404)
            return null;
        const branch = res.data.default_branch;
        if (typeof branch !== "string" || branch === "")
            throw new core_errors/* Refusal */.P_("GITHUB_UNAVAILABLE", `GitHub named no default branch for ${r.owner}/${r.repo}`);
        return branch;
    }
    /** Sets a pull request's title and body (PATCH). */
    async updatePull(r, pullNumber, fields) {
        await this.call("update the pull request", "PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
            ...r,
            pull_number: pullNumber,
            ...fields,
        });
    }
    /** Creates `refs/heads/<branch>`. "exists" when it is already there (GitHub's 422): the lock is taken. */
    async createBranch(r, branch, sha) {
        const res = await this.call("create the ledger branch", "POST /repos/{owner}/{repo}/git/refs", { ...r, ref: `refs/heads/${branch}`, sha }, [422]);
        if (res.status === 422) {
            if (/already exists/i.test(String(res.data?.message ?? "")))
                return "exists";
            throw refusedAnswer("create the ledger branch", 422, String(res.data?.message ?? "Validation Failed"));
        }
        return "created";
    }
    async moveBranch(r, branch, sha) {
        await this.call("move the ledger branch", "PATCH /repos/{owner}/{repo}/git/refs/{ref}", {
            ...r,
            ref: `heads/${branch}`,
            sha,
            force: true,
        });
    }
    /** Deletes `refs/heads/<branch>` (GitHub closes the open pull requests whose head it was). */
    async deleteBranch(r, branch) {
        await this.call("delete the ledger branch", "DELETE /repos/{owner}/{repo}/git/refs/{ref}", { ...r, ref: `heads/${branch}` });
    }
    /** Open pull requests whose head is `<owner>:<branch>` (this repository's branch), as GitHub lists them. */
    async listOpenPulls(r, branch) {
        const res = await this.call("find the ledger PR", "GET /repos/{owner}/{repo}/pulls", {
            ...r,
            head: `${r.owner}:${branch}`,
            state: "open",
            per_page: 10,
        });
        return res.data.map(pullInfo);
    }
    async getPull(r, pullNumber) {
        const res = await this.call("read the ledger PR", "GET /repos/{owner}/{repo}/pulls/{pull_number}", {
            ...r,
            pull_number: pullNumber,
        });
        return pullInfo(res.data);
    }
    /**
     * Opens a pull request. "exists" when GitHub answers that one is open for this head already
     * (422): the caller decides whether that one is its own; nothing is adopted here.
     */
    async openPull(r, pull) {
        const res = await this.call("open the ledger PR", "POST /repos/{owner}/{repo}/pulls", { ...r, ...pull }, [422]);
        if (res.status === 422) {
            const messages = [res.data?.message, ...(res.data?.errors ?? []).map((e) => e.message)].map((m) => String(m ?? ""));
            if (messages.some((m) => /already exists/i.test(m)))
                return "exists";
            throw refusedAnswer("open the ledger PR", 422, String(res.data?.message ?? "Validation Failed"));
        }
        return pullInfo(res.data);
    }
    /** Closes a pull request (PATCH state=closed; closing a closed one changes nothing). */
    async closePull(r, pullNumber) {
        await this.call("close the ledger PR", "PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
            ...r,
            pull_number: pullNumber,
            state: "closed",
        });
    }
    async requestReviewers(r, pullNumber, reviewers, teams) {
        if (reviewers.length === 0 && teams.length === 0)
            return;
        await this.call("request review", "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", {
            ...r,
            pull_number: pullNumber,
            reviewers,
            team_reviewers: teams,
        });
    }
    async comment(r, issueNumber, body) {
        await this.call("comment", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...r, issue_number: issueNumber, body });
    }
    /** A pull request's reviews, oldest first, with their bodies (at most 1000: the rest, the newest, unread). */
    async listReviews(r, pullNumber) {
        const out = [];
        for (let page = 1; page <= 10; page++) {
            const res = await this.call("list the pull request's reviews", "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
                ...r,
                pull_number: pullNumber,
                per_page: 100,
                page,
            });
            for (const x of res.data) {
                out.push({ id: x.id, login: x.user?.login ?? "", state: x.state, commitId: x.commit_id ?? null, body: x.body ?? null });
            }
            if (res.data.length < 100)
                break;
        }
        return out;
    }
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: ./src/core/version.ts
var version = __webpack_require__(3323);
;// CONCATENATED MODULE: ./src/store/ops.ts
/**
 * What operators need from the store beyond the App's own work: a heartbeat write that proves
 * the store accepts writes (/healthz), and the deliveries that need a human (the status page).
 */
/**
 * Upserts this replica's heartbeat row: one statement, so one transaction, that needs the
 * store's write lock (SQLite) or a row lock and a WAL write (PostgreSQL). A store that can
 * be read but not written fails here with STORE_UNAVAILABLE.
 */
async function writeHeartbeat(store, replicaId, now) {
    await store.db.run("INSERT INTO heartbeats (replica_id, beat_at) VALUES (?, ?) ON CONFLICT (replica_id) DO UPDATE SET beat_at = excluded.beat_at", [replicaId, now]);
}
async function heartbeats(store) {
    const rows = await store.db.all("SELECT replica_id, beat_at FROM heartbeats ORDER BY beat_at DESC LIMIT 20");
    return rows.map((r) => ({ replica_id: r.replica_id, beat_at: Number(r.beat_at) }));
}
const ops_NUMERIC = ["lease_until", "attempts", "failures", "received_at", "finished_at", "not_before"];
function numeric(row) {
    const out = { ...row };
    for (const k of ops_NUMERIC)
        if (out[k] !== null && out[k] !== undefined)
            out[k] = Number(out[k]);
    return out;
}
async function deliveryOverview(store, now, limit = 25) {
    const totals = await store.db.all("SELECT COUNT(*) AS n, MAX(received_at) AS last FROM deliveries");
    const select = async (where, params) => (await store.db.all(`SELECT * FROM deliveries WHERE ${where} ORDER BY received_at DESC LIMIT ?`, [...params, limit])).map(numeric);
    return {
        total: Number(totals[0]?.n ?? 0),
        last_received_at: totals[0]?.last === null || totals[0]?.last === undefined ? null : Number(totals[0].last),
        // A processing one with an error is being retried after that failure (the sweeper keeps its last error meanwhile).
        failed: await select("state IN ('failed', 'queued', 'processing') AND error_code IS NOT NULL AND error_code NOT IN (?, ?, ?)", [
            "KILL_SWITCH_ENGAGED",
            "APP_DRAINING",
            "GITHUB_BUDGET_LOW",
        ]),
        stuck: await select("state = 'processing' AND lease_until < ?", [now]),
        refused_paused: await select("state IN ('failed', 'queued') AND error_code = ?", ["KILL_SWITCH_ENGAGED"]),
        deferred: await select("state IN ('queued', 'processing') AND error_code = ?", ["GITHUB_BUDGET_LOW"]),
    };
}

;// CONCATENATED MODULE: ./src/app/health.ts



/**
 * /healthz: the store must answer a read (the kill switch, as every outbound request needs) and
 * accept a write (this replica's heartbeat row). 200 only when both do; otherwise 503 naming the
 * check that failed, so "reads work, writes fail" is not reported healthy. Every answer names the
 * release (`version`) and the store by its backend only (`storeLabel`: no file path, host or credential).
 */
async function checkHealth(store, replicaId, storeLabel, now) {
    let paused;
    try {
        paused = (await store.killSwitch()).paused;
    }
    catch (err) {
        return {
            status: 503,
            body: {
                ok: false,
                version: version/* VERSION */.x,
                store: storeLabel,
                failing: "store_read",
                error: shellRefusal(err, "read the kill switch").toJSON(),
            },
        };
    }
    try {
        await writeHeartbeat(store, replicaId, now);
    }
    catch (err) {
        return {
            status: 503,
            body: {
                ok: false,
                version: version/* VERSION */.x,
                store: storeLabel,
                failing: "store_write",
                paused,
                error: shellRefusal(err, "write the heartbeat").toJSON(),
            },
        };
    }
    return {
        status: 200,
        body: { ok: true, version: version/* VERSION */.x, store: storeLabel, checks: { store_read: "ok", store_write: "ok" }, paused, replica: replicaId },
    };
}

// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __webpack_require__(1652);
;// CONCATENATED MODULE: ./src/core/freeze.ts




/**
 * Pure: the App's freeze decisions: a ledger PR's key, freeze id, branch, expiry, row, title and
 * body, and what a ledger or a push says. The branch's random part comes from the caller
 * (src/app/freeze.ts draws it from the system's CSPRNG).
 */
/** Identifies a ledger PR: one per (repository, property, envelope hash, head sha). */
function ledgerLockKey(repository, property, envelopeHash, headSha) {
    return (0,core_envelope/* sha256Hex */.fg)(`${repository.toLowerCase()}\0${property}\0${envelopeHash}\0${headSha}`);
}
/** Unique without coordination: derived from both evidence digests and the property. */
function freezeIdFor(evidenceA, evidenceB, property) {
    return `F-${(0,core_envelope/* sha256Hex */.fg)(`${evidenceA}\n${evidenceB}\n${property}`).slice(0, 12)}`;
}
/**
 * The ledger PR's branch: the property's slug and a random part (`random`: 80 bits from the
 * system's CSPRNG, src/app/freeze.ts), so nobody can create it before the App does. The name is
 * recorded with the claim; a retry after a crash reads it from the store and uses the same name.
 * The derived inputs are kept for the signature's sake only: nothing in the name can be computed
 * from them.
 */
function ledgerBranch(property, _envelopeHash, _headSha, random) {
    // Letters, digits, `_` and `-` only: no dots, so never `..`, `.lock` or a leading `.` in the ref.
    const slug = property
        .replace(/[^A-Za-z0-9_-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40)
        .replace(/-+$/, "") || "property";
    return `envelope-gate/freeze/${slug}-${random}`;
}
/** today + ttl days, the ttl capped; UTC dates. */
function expiresOn(now, ttlDays, capDays) {
    const days = Math.max(1, Math.min(ttlDays, capDays));
    return utcDate(new Date(now + days * 86_400_000));
}
/**
 * The ledger's runner cell, `run-<run id>@<machine id>`: the run and the machine it ran on,
 * exactly as runner.json names it. A machine id the cell cannot carry as is (outside
 * MACHINE_ID's letters, digits and `. _ : -`) is refused, never rewritten: a rewritten id would
 * not match the bundle the Action checks the row against.
 */
function runnerCell(runner, runId) {
    const machine = runner.machine_id ?? "";
    if (!MACHINE_ID.test(machine) || !Number.isSafeInteger(runId) || runId < 1) {
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `run ${runId}'s machine id ${JSON.stringify(runner.machine_id)} cannot be written in a ledger row`);
    }
    return `run-${runId}@${machine}`;
}
/**
 * A runner as the ledger PR's table shows it. Every field is from runner.json in a bundle, and
 * runner A's bundle is made by the pull request's own job: each is escaped (../core/markdown.ts).
 */
function identity(r) {
    const cellText = (v) => (0,markdown/* mdText */.bC)(String(v ?? "?"), 200);
    return `${r.runner_name == null ? "(unnamed)" : cellText(r.runner_name)} — machine ${(0,markdown/* mdCode */.xs)(String(r.machine_id ?? "?"), { inTable: true, max: 80 })}, ${cellText(r.os)}/${cellText(r.arch)}, ${cellText(r.cpus)} × ${cellText(r.cpu_model)}`;
}
/** The proposal for one property; `random` is the branch's random part (ledgerBranch). */
function buildFreezeProposal(p, random) {
    const freezeId = freezeIdFor(p.evidenceA, p.evidenceB, p.property);
    if (p.comparison.fingerprint === null) {
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `runner A's evidence gives no failure fingerprint for ${p.property}; no row could name what it tolerates`);
    }
    const row = {
        freeze_id: freezeId,
        // The scope: this property's failure as runner A recorded it, and no other.
        property: freezeScopeCell(p.property, p.comparison.fingerprint),
        runner_a: runnerCell(p.runnerA, p.runAId),
        runner_b: runnerCell(p.runnerB, p.runBId),
        envelope_hash: p.envelopeHash,
        expires_on: p.expiresOn,
        status: "open",
        evidence: p.evidenceA,
    };
    const rowText = formatLedgerRow(row);
    const title = freezeTitle(p.property, p.expiresOn, freezeId);
    const link = (url, id) => (url ? (0,markdown/* mdLink */.YF)(`run ${id}`, url) : (0,markdown/* mdText */.bC)(`run ${id}`));
    const code = (v) => (0,markdown/* mdCode */.xs)(String(v), { inTable: true });
    // Only the PR number (an integer) makes a reference here, on purpose: the PR the freeze is for.
    const pull = typeof p.pullNumber === "number" && Number.isSafeInteger(p.pullNumber) ? `#${p.pullNumber} ` : "";
    const body = [
        `Runner A and runner B disagree on the non-envelope property **${(0,markdown/* mdCode */.xs)(p.property)}** for ${pull}head ${(0,markdown/* mdCode */.xs)(p.headSha)} under envelope ${(0,markdown/* mdCode */.xs)(p.envelopeHash)}.`,
        "",
        "This PR adds one row to the freeze ledger. Merging it tolerates this property's failure until the row expires; closing it keeps the property failing.",
        "",
        "| | runner A | runner B |",
        "| --- | --- | --- |",
        `| run | ${link(p.runAUrl, p.runAId)} | ${link(p.runBUrl, p.runBId)} |`,
        `| runner | ${identity(p.runnerA)} | ${identity(p.runnerB)} |`,
        `| ${code(p.property)} | ${(0,markdown/* mdText */.bC)(String(p.comparison.a))} | ${(0,markdown/* mdText */.bC)(String(p.comparison.b))} |`,
        `| envelope | clean | clean |`,
        `| evidence digest | ${code(p.evidenceA)} | ${code(p.evidenceB)} |`,
        "",
        `Freeze id ${(0,markdown/* mdCode */.xs)(freezeId)} (derived from both evidence digests and the property), expires on **${(0,markdown/* mdText */.bC)(p.expiresOn)}** (UTC).`,
        "",
        (0,markdown/* mdFence */.F)(rowText, "tsv"),
        "",
        // The configured reviewers are mentioned on purpose (ENVELOPE_GATE_REVIEWERS, not the PR's text).
        p.reviewers.length + p.teamReviewers.length > 0
            ? `Review requested from ${[...p.reviewers.map((r) => `@${r}`), ...p.teamReviewers.map((t) => `team ${(0,markdown/* mdText */.bC)(t)}`)].join(", ")}.`
            : "No reviewers are configured (ENVELOPE_GATE_REVIEWERS); a maintainer must review this by hand.",
    ].join("\n");
    return { freezeId, branch: ledgerBranch(p.property, p.envelopeHash, p.headSha, random), row, rowText, title, body };
}
/** The proposal's input for one eligible property of a decided dual run. */
function freezeProposalInput(dual, property, comparison, terms) {
    return {
        repository: dual.repository,
        property,
        envelopeHash: dual.envelope_hash,
        headSha: dual.head_sha,
        pullNumber: dual.pull_number,
        evidenceA: dual.evidence_a,
        evidenceB: dual.evidence_b ?? "",
        runnerA: JSON.parse(dual.runner_a),
        runnerB: JSON.parse(dual.runner_b ?? "{}"),
        runAId: dual.run_a_id,
        runBId: dual.run_b_id ?? 0,
        runAUrl: dual.run_a_url,
        runBUrl: dual.run_b_url,
        comparison,
        ...terms,
    };
}
/** Whether a ledger's text already carries `freezeId` (an empty or missing ledger carries nothing). */
function ledgerHasFreeze(text, path, freezeId) {
    return text.trim() !== "" && parseLedger(text, path).rows.some((row) => row.freeze_id === freezeId);
}
/** The base ledger plus this PR's one row; a base that already has the freeze is LEDGER_INVALID. */
function ledgerWithRow(base, pr) {
    if (ledgerHasFreeze(base, pr.ledger_path, pr.freeze_id)) {
        throw new core_errors/* Refusal */.P_("LEDGER_INVALID", `${pr.ledger_path} on ${pr.base_ref} already has ${pr.freeze_id}`);
    }
    const cells = pr.row_text.split("\t");
    const row = Object.fromEntries(LEDGER_COLUMNS.map((c, i) => [c, cells[i] ?? ""]));
    return appendLedgerRow(base, row);
}
/**
 * The ledger PR's title, and its commit's message: plain text on GitHub, but scanned for mentions
 * and issue references (a "fixes #1" in a merged commit closes issue 1), so `plainTitle`.
 */
function freezeTitle(property, expiresOn, freezeId) {
    return `envelope-gate: freeze ${(0,markdown/* plainTitle */.D4)(property, 120)} until ${(0,markdown/* plainTitle */.D4)(expiresOn)} (${(0,markdown/* plainTitle */.D4)(freezeId)})`;
}
/**
 * The comment on a ledger PR that waited too long for review, mentioning who was asked. A team
 * is mentioned as `@org/slug` (the repository's owner is the organization the team belongs to).
 */
function reviewOverdueComment(hours, reviewers, teamReviewers, org) {
    const who = [...reviewers.map((x) => `@${x}`), ...teamReviewers.map((t) => `@${org}/${t}`)].join(" ");
    return `⚠️ This freeze has waited ${hours} hours for review. ${who}`.trim();
}
/** Whether a push's commits touched `path`; a push listing 20 or more commits is taken to have. */
function pushTouched(commits, path) {
    return commits.length >= 20 || commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(path));
}
/** A ledger PR unreviewed `alertMs` after it was opened is overdue (the sweeper alerts, the status page says so). */
function reviewOverdue(pr, now, alertMs) {
    return pr.first_review_at === null && pr.opened_at !== null && now - pr.opened_at >= alertMs;
}

;// CONCATENATED MODULE: ./src/store/redelivery.ts
/**
 * The redelivery sweep's state (migration 6): one pass at a time across replicas (a lease on
 * the one `redelivery_sweep` row), the mark the next pass lists back to, the last pass's
 * figures, and one `redeliveries` row per delivery the App asked GitHub for again; since
 * migration 12 also the walk a pass could not finish (resumed by the next pass from GitHub's
 * cursor), what the mark waits on, and the last backlog found older than GitHub keeps.
 */
/** The switch's name in the switch history; its state is `{ enabled }`. With no entry the sweep is on. */
const REDELIVERY_SWITCH = "redelivery";
/**
 * The switch as the sweep reads it: its latest history entry. A latest entry that cannot be read
 * is off, with a reason saying so: "could not check" never asks GitHub for anything.
 */
async function redeliverySwitch(store) {
    const rows = await store.db.all("SELECT state, actor, reason, at FROM switch_history WHERE switch = ? ORDER BY seq DESC LIMIT 1", [REDELIVERY_SWITCH]);
    const row = rows[0];
    if (!row)
        return { enabled: true, by: null, reason: null, at: null };
    let enabled;
    let reason = String(row.reason);
    try {
        const state = JSON.parse(String(row.state));
        if (typeof state?.enabled !== "boolean")
            throw new Error(`no enabled flag in ${String(row.state).slice(0, 80)}`);
        enabled = state.enabled;
    }
    catch (err) {
        enabled = false;
        reason = `the latest recorded redelivery switch cannot be read (${err.message}); treated as off`;
    }
    return { enabled, by: String(row.actor), reason, at: Number(row.at) };
}
/** Turns the sweep on or off, recorded in the switch history. False (nothing recorded) when it already was. */
async function setRedelivery(store, enabled, actor, reason, now) {
    const current = await redeliverySwitch(store);
    const readable = current.at === null || !current.reason?.startsWith("the latest recorded redelivery switch cannot be read");
    if (current.enabled === enabled && readable)
        return false;
    await store.switches.append({ switch: REDELIVERY_SWITCH, state: { enabled }, kind: "change", actor, reason, at: now });
    return true;
}
const isNum = (v) => typeof v === "number" && Number.isFinite(v);
function openList(v) {
    if (!Array.isArray(v))
        return null;
    const out = [];
    for (const o of v) {
        const r = o;
        if (typeof r?.guid !== "string" || !isNum(r.first))
            return null;
        out.push({ guid: r.guid, first: r.first });
    }
    return out;
}
/** Parses a stored JSON column; anything malformed is null (a walk starts again from the newest page, the mark stays). */
function parsed(raw, check) {
    if (raw === null || raw === undefined)
        return null;
    try {
        const v = JSON.parse(String(raw));
        return typeof v === "object" && v !== null ? check(v) : null;
    }
    catch {
        return null;
    }
}
const walkOf = (raw) => parsed(raw, (v) => {
    const open = openList(v.open);
    if (typeof v.cursor !== "string" || v.cursor === "" || open === null)
        return null;
    if (![v.newest, v.oldest, v.pages, v.passes, v.started_at].every(isNum))
        return null;
    return {
        cursor: v.cursor,
        newest: v.newest,
        oldest: v.oldest,
        pages: v.pages,
        passes: v.passes,
        started_at: v.started_at,
        open,
    };
});
const waitsOf = (raw) => parsed(raw, (v) => {
    const open = openList(v.open);
    return open === null || !isNum(v.caught_up) ? null : { open, caught_up: v.caught_up };
});
const backlogOf = (raw) => parsed(raw, (v) => isNum(v.from) && isNum(v.to) && isNum(v.found_at) && typeof v.message === "string"
    ? { from: v.from, to: v.to, found_at: v.found_at, message: v.message }
    : null);
/**
 * Takes the pass for `owner` in one conditional statement: free, its holder's lease ran out, or
 * its holder is gone. Resolves the mark to list back to (null: never set), the walk to resume and
 * what the mark waits on, or null when another replica's pass is running.
 */
async function takeRedeliveryPass(store, owner, now, holdMs) {
    const changed = await store.db.run(`UPDATE redelivery_sweep SET owner = ?, until_at = ?
     WHERE id = 1 AND (owner IS NULL OR owner = ? OR until_at < ?
       OR NOT EXISTS (SELECT 1 FROM app_processes p WHERE p.owner = redelivery_sweep.owner AND p.stopped_at IS NULL AND p.heartbeat_at >= ?))`, [owner, now + holdMs, owner, now, now - store.heartbeatStaleMs]);
    if (changed !== 1)
        return null;
    const rows = await store.db.all("SELECT mark_at, walk, mark_waits FROM redelivery_sweep WHERE id = 1");
    const row = rows[0];
    const mark = row?.mark_at;
    return {
        mark: mark === null || mark === undefined ? null : Number(mark),
        walk: walkOf(row?.walk),
        waits: waitsOf(row?.mark_waits),
    };
}
/** Ends `owner`'s pass: its outcome and figures, in one statement conditional on still holding the pass. */
async function finishRedeliveryPass(store, owner, outcome, lastPass) {
    await store.db.run(`UPDATE redelivery_sweep SET owner = NULL, until_at = NULL, mark_at = COALESCE(?, mark_at), walk = ?, mark_waits = ?,
       backlog_expired = COALESCE(?, backlog_expired), last_pass = ?
     WHERE id = 1 AND owner = ?`, [
        outcome.mark,
        outcome.walk === null ? null : JSON.stringify(outcome.walk),
        outcome.waits === null ? null : JSON.stringify(outcome.waits),
        outcome.backlogExpired === undefined ? null : JSON.stringify(outcome.backlogExpired),
        JSON.stringify(lastPass),
        owner,
    ]);
}
async function lastRedeliveryPass(store) {
    const rows = await store.db.all("SELECT mark_at, owner, last_pass, walk, backlog_expired FROM redelivery_sweep WHERE id = 1");
    const row = rows[0];
    if (!row)
        return { mark: null, running: null, last: null, walk: null, backlogExpired: null };
    let last;
    try {
        last = row.last_pass === null || row.last_pass === undefined ? null : JSON.parse(String(row.last_pass));
    }
    catch {
        // A last pass that cannot be read is shown as none: it is figures, not a decision.
        last = null;
    }
    return {
        mark: row.mark_at === null ? null : Number(row.mark_at),
        running: row.owner ?? null,
        last,
        walk: walkOf(row.walk),
        backlogExpired: backlogOf(row.backlog_expired),
    };
}
/**
 * Of these open deliveries, those still open: neither recorded by the App nor settled (delivered,
 * given up). A store error propagates: "could not check" never moves the mark.
 */
async function stillOpen(store, open) {
    const guids = open.map((o) => o.guid);
    const recorded = await recordedDeliveries(store, guids);
    const rows = await redeliveriesOf(store, guids);
    return open.filter((o) => {
        if (recorded.has(o.guid))
            return false;
        const state = rows.get(o.guid)?.state;
        return state !== "delivered" && state !== "exhausted" && state !== "expired";
    });
}
function rowOf(r) {
    return {
        guid: String(r.guid),
        event: String(r.event),
        hook_delivery_id: Number(r.hook_delivery_id),
        first_failed_at: Number(r.first_failed_at),
        attempts: Number(r.attempts),
        requested_at: r.requested_at === null ? null : Number(r.requested_at),
        state: String(r.state),
        code: r.code ?? null,
        message: r.message ?? null,
        updated_at: Number(r.updated_at),
    };
}
/** The recorded redeliveries of these guids. */
async function redeliveriesOf(store, guids) {
    const out = new Map();
    for (let i = 0; i < guids.length; i += 500) {
        const chunk = guids.slice(i, i + 500);
        if (chunk.length === 0)
            continue;
        const rows = await store.db.all(`SELECT * FROM redeliveries WHERE guid IN (${chunk.map(() => "?").join(", ")})`, chunk);
        for (const r of rows)
            out.set(String(r.guid), rowOf(r));
    }
    return out;
}
/** Which of these delivery ids the store has recorded (in any state). */
async function recordedDeliveries(store, ids) {
    const out = new Set();
    for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        if (chunk.length === 0)
            continue;
        const rows = await store.db.all(`SELECT delivery_id FROM deliveries WHERE delivery_id IN (${chunk.map(() => "?").join(", ")})`, chunk);
        for (const r of rows)
            out.add(String(r.delivery_id));
    }
    return out;
}
/**
 * Records one more request to redeliver `guid`, before it is sent, conditionally on the number
 * of requests recorded so far (`attemptsBefore`): two passes that read the same row cannot both
 * record, so a delivery is never asked for twice at once. False when the row moved meanwhile.
 */
async function recordRedeliveryRequest(store, r, attemptsBefore, now) {
    const changed = await store.db.run(`INSERT INTO redeliveries (guid, event, hook_delivery_id, first_failed_at, attempts, requested_at, state, updated_at)
     SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), 1, CAST(? AS BIGINT), 'requested', CAST(? AS BIGINT)
     WHERE CAST(? AS INTEGER) = 0
     ON CONFLICT (guid) DO UPDATE SET attempts = redeliveries.attempts + 1, hook_delivery_id = excluded.hook_delivery_id,
       requested_at = excluded.requested_at, state = 'requested', code = NULL, message = NULL, updated_at = excluded.updated_at
     WHERE redeliveries.attempts = ? AND redeliveries.state IN ('requested', 'refused')`, [r.guid, r.event, r.hookDeliveryId, r.firstFailedAt, now, now, attemptsBefore, attemptsBefore]);
    if (changed === 1 || attemptsBefore === 0)
        return changed === 1;
    // The INSERT … SELECT inserts nothing for a known guid; update it on its own.
    const updated = await store.db.run(`UPDATE redeliveries SET attempts = attempts + 1, hook_delivery_id = ?, requested_at = ?, state = 'requested', code = NULL,
       message = NULL, updated_at = ?
     WHERE guid = ? AND attempts = ? AND state IN ('requested', 'refused')`, [r.hookDeliveryId, now, now, r.guid, attemptsBefore]);
    return updated === 1;
}
/**
 * Settles a delivery: `delivered` (GitHub's log shows it delivered, or the store recorded it),
 * `refused` (GitHub refused the last request), or given up (`exhausted`, `expired`). A given-up
 * row that is not known yet is inserted.
 */
async function settleRedelivery(store, r, state, code, message, now) {
    const changed = await store.db.run(`INSERT INTO redeliveries (guid, event, hook_delivery_id, first_failed_at, attempts, state, code, message, updated_at)
     VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)
     ON CONFLICT (guid) DO UPDATE SET state = excluded.state, code = excluded.code, message = excluded.message,
       updated_at = excluded.updated_at
     WHERE redeliveries.state NOT IN ('delivered', 'exhausted', 'expired')`, [r.guid, r.event, r.hookDeliveryId, r.firstFailedAt, state, code, message === null ? null : message.slice(0, 2000), now]);
    return changed === 1;
}
/** Counts by state, and the latest rows that need a human (given up) or were refused. */
async function redeliveryOverview(store, limit = 25) {
    const counts = { requested: 0, refused: 0, delivered: 0, exhausted: 0, expired: 0 };
    for (const r of await store.db.all("SELECT state, COUNT(*) AS n FROM redeliveries GROUP BY state")) {
        counts[r.state] = Number(r.n);
    }
    const problems = await store.db.all("SELECT * FROM redeliveries WHERE state IN ('refused', 'exhausted', 'expired') ORDER BY updated_at DESC LIMIT ?", [limit]);
    return { counts, problems: problems.map(rowOf) };
}

;// CONCATENATED MODULE: ./src/app/redelivery.ts



/**
 * The redelivery sweep. GitHub never redelivers a failed delivery by itself ("Handling failed
 * webhook deliveries"): a delivery the App could not record (the store down, a crash before
 * the claim, a drain before this version) would be lost. So, on a schedule, one replica at a
 * time lists the App's deliveries back to its mark with the App's JWT, finds those GitHub
 * recorded as failed (no attempt with status "OK") whose guid the store never recorded, and
 * asks GitHub for one redelivery each, bounded per pass and per delivery.
 *
 * A walk back to the mark may take several passes: a pass lists at most MAX_PAGES pages and,
 * when it stops short of the mark, keeps its place (GitHub's cursor for the next page, the
 * newest attempt the walk listed first, the deliveries it left open) for the next pass, which
 * resumes there. Deliveries newer than the walk's first page are the next walk's. So any number
 * of deliveries after a failure is walked in ceil(pages / MAX_PAGES) passes, each page listed once.
 */
/** GitHub keeps deliveries, and redelivers them, for 3 days. */
const GITHUB_KEEPS_MS = 3 * 86_400_000;
/** A request whose new attempt GitHub has not listed after this long is taken as lost and may be asked again. */
const PENDING_MS = 10 * 60_000;
/** The first pass (no mark yet) looks back this far. */
const FIRST_LOOKBACK_MS = 3_600_000;
/** Listed again on every pass: an attempt that started before the newest listed one may be listed after it (GitHub waits 10 s). */
const MARK_OVERLAP_MS = 60_000;
/** Pages of 100 one pass lists at most; past that the walk is kept and the next pass resumes it. */
const redelivery_MAX_PAGES = 20;
/** How long a pass holds the lease before another replica may take it. */
const PASS_HOLD_MS = 5 * 60_000;
const isoOrNull = (ms) => (ms === null ? null : new Date(ms).toISOString());
/** One redelivery pass; errors are per item (the pass goes on) or of the listing (the mark stays). */
async function redeliveryPass(ctx) {
    const now = ctx.clock.now();
    const report = {
        at: new Date(now).toISOString(),
        by: ctx.owner,
        skipped: null,
        pages: 0,
        listed: 0,
        deliveries: 0,
        failed: 0,
        recorded: 0,
        requested: [],
        pending: 0,
        deferred: 0,
        truncated: false,
        resumed: false,
        walk: null,
        mark_before: null,
        mark_after: null,
        errors: [],
    };
    if (!(await redeliverySwitch(ctx.store)).enabled)
        return { ...report, skipped: "off" };
    if ((await ctx.store.killSwitch()).paused)
        return { ...report, skipped: "paused" };
    const lease = await takeRedeliveryPass(ctx.store, ctx.owner, now, PASS_HOLD_MS);
    if (lease === null)
        return { ...report, skipped: "busy" };
    let mark = lease.mark ?? now - FIRST_LOOKBACK_MS;
    report.mark_before = new Date(mark).toISOString();
    // Kept as it was unless the pass decides otherwise: an error keeps the walk and the mark.
    const outcome = { mark: null, walk: lease.walk, waits: lease.waits };
    try {
        if (lease.walk === null && lease.waits !== null) {
            // A new walk: first let the mark pass what the last walk left open and is settled now.
            const open = await stillOpen(ctx.store, lease.waits.open);
            const moved = Math.max(mark, Math.min(lease.waits.caught_up, ...open.map((o) => o.first)));
            outcome.mark = moved;
            outcome.waits = open.length > 0 ? { open, caught_up: lease.waits.caught_up } : null;
            mark = moved;
        }
        await pass(ctx, report, outcome, mark, now);
    }
    catch (err) {
        report.errors.push({ item: "redelivery pass", code: codeOf(err), message: err.message });
    }
    finally {
        report.mark_after = new Date(outcome.mark ?? mark).toISOString();
        for (const e of report.errors)
            ctx.log("error", "redelivery.item_failed", { ...e, hint: (0,core_errors/* hintOf */.$z)(e.code) });
        if (report.requested.length > 0)
            ctx.log("info", "redelivery.requested", { deliveries: report.requested });
        await finishRedeliveryPass(ctx.store, ctx.owner, outcome, report);
    }
    return report;
}
/**
 * Lists this pass's pages of the walk (resumed from `outcome.walk`, else from the newest page),
 * decides and asks; sets in `outcome` the walk to resume, or, once the walk reached the mark,
 * the new mark and what it waits on. A listing error leaves the walk as it was.
 */
async function pass(ctx, report, outcome, mark, now) {
    const resumed = outcome.walk;
    report.resumed = resumed !== null;
    const attempts = new Map();
    let cursor = resumed?.cursor ?? null;
    let reachedMark = false;
    let listingEnded = false;
    let newest = null;
    let oldest = null;
    while (report.pages < redelivery_MAX_PAGES) {
        let page;
        try {
            page = await ctx.hooks.listHookDeliveries(cursor);
        }
        catch (err) {
            const code = codeOf(err);
            report.errors.push({ item: "GET /app/hook/deliveries", code, message: err.message });
            // A cursor GitHub no longer takes: the next pass walks again from the newest page (the mark has not moved: nothing is skipped).
            if (code === "REDELIVERY_LIST_REFUSED" && cursor !== null)
                outcome.walk = null;
            return;
        }
        report.pages++;
        for (const d of page.deliveries) {
            report.listed++;
            const at = Date.parse(d.delivered_at);
            newest = newest === null ? at : Math.max(newest, at);
            oldest = oldest === null ? at : Math.min(oldest, at);
            const list = attempts.get(d.guid) ?? [];
            list.push(d);
            attempts.set(d.guid, list);
        }
        if (page.deliveries.some((d) => Date.parse(d.delivered_at) < mark)) {
            reachedMark = true;
            break;
        }
        if (page.next === null) {
            listingEnded = true;
            break;
        }
        cursor = page.next;
    }
    report.truncated = !reachedMark && !listingEnded;
    report.deliveries = attempts.size;
    const unresolved = await decide(ctx, report, attempts, mark, now);
    const walkNewest = resumed?.newest ?? newest;
    const walkOldest = resumed === null ? oldest : oldest === null ? resumed.oldest : Math.min(resumed.oldest, oldest);
    const open = mergeOpen(resumed?.open ?? [], unresolved);
    const passes = (resumed?.passes ?? 0) + 1;
    const pages = (resumed?.pages ?? 0) + report.pages;
    const startedAt = resumed?.started_at ?? now;
    report.walk = { started_at: new Date(startedAt).toISOString(), passes, pages, oldest_listed: isoOrNull(walkOldest) };
    if (report.truncated) {
        // Not back to the mark yet: keep the place; the next pass resumes from GitHub's cursor.
        outcome.walk = {
            cursor: cursor,
            newest: walkNewest ?? mark,
            oldest: walkOldest ?? mark,
            pages,
            passes,
            started_at: startedAt,
            open,
        };
        return;
    }
    outcome.walk = null;
    if (listingEnded && mark < now - GITHUB_KEEPS_MS) {
        // GitHub listed nothing older than the walk's oldest attempt, and the mark is older than GitHub keeps:
        // what failed between the mark and there was dropped before the sweep listed it.
        const to = Math.min(walkOldest ?? now - GITHUB_KEEPS_MS, now - GITHUB_KEEPS_MS);
        const expired = {
            from: mark,
            to,
            found_at: now,
            message: `deliveries from ${new Date(mark).toISOString()} to ${new Date(to).toISOString()} can no longer be redelivered: the sweep's mark is older than GitHub keeps deliveries (3 days) and GitHub lists nothing older than ${isoOrNull(walkOldest) ?? "now"}; a delivery that failed in that window is lost`,
        };
        outcome.backlogExpired = expired;
        report.errors.push({ item: "redelivery backlog", code: "REDELIVERY_BACKLOG_EXPIRED", message: expired.message });
    }
    const caughtUp = walkNewest === null ? null : walkNewest - MARK_OVERLAP_MS;
    const oldestOpen = open.length > 0 ? Math.min(...open.map((o) => o.first)) : null;
    const candidate = oldestOpen === null ? caughtUp : caughtUp === null ? oldestOpen : Math.min(oldestOpen, caughtUp);
    // The mark never moves back past where it was, nor forward past what was listed.
    outcome.mark = candidate === null ? null : Math.max(mark, candidate);
    outcome.waits = open.length > 0 && caughtUp !== null ? { open, caught_up: caughtUp } : null;
}
/** The open deliveries of a walk so far, one per guid, its earliest first attempt. */
function mergeOpen(before, found) {
    const out = new Map();
    for (const o of [...before, ...found])
        out.set(o.guid, Math.min(out.get(o.guid) ?? o.first, o.first));
    return [...out.entries()].map(([guid, first]) => ({ guid, first }));
}
/** Decides on each delivery this pass listed and asks for the failed ones; resolves those left open. */
async function decide(ctx, report, attempts, mark, now) {
    const guids = [...attempts.keys()];
    const recorded = await recordedDeliveries(ctx.store, guids);
    const rows = await redeliveriesOf(ctx.store, guids);
    const unresolved = [];
    let limited = false;
    // Never asked first, then the oldest: a delivery that keeps failing does not starve the others.
    const ordered = [...attempts.entries()]
        .map(([guid, list]) => ({
        guid,
        list,
        first: Math.min(...list.map((d) => Date.parse(d.delivered_at))),
        firstId: Math.min(...list.map((d) => d.id)),
        asked: rows.get(guid)?.attempts ?? 0,
    }))
        .sort((a, b) => a.asked - b.asked || a.first - b.first || a.firstId - b.firstId);
    for (const { guid, list, first } of ordered) {
        // Listed only because its page crossed the mark: an earlier walk saw it.
        if (Math.max(...list.map((d) => Date.parse(d.delivered_at))) < mark)
            continue;
        const latest = list.reduce((a, b) => (b.id > a.id ? b : a));
        const ref = { guid, event: latest.event, hookDeliveryId: latest.id, firstFailedAt: first };
        const row = rows.get(guid);
        const settle = (state, code, message) => settleRedelivery(ctx.store, ref, state, code, message, now);
        if (list.some((d) => d.status === "OK")) {
            if (row && (row.state === "requested" || row.state === "refused"))
                await settle("delivered", null, null);
            continue;
        }
        report.failed++;
        if (recorded.has(guid)) {
            // The App recorded it (a crash after the claim, before the answer; or a redelivery listed on an earlier page of the walk).
            report.recorded++;
            if (row && (row.state === "requested" || row.state === "refused"))
                await settle("delivered", null, null);
            continue;
        }
        if (row && (row.state === "exhausted" || row.state === "expired" || row.state === "delivered"))
            continue;
        if (first < now - GITHUB_KEEPS_MS) {
            const message = `delivery ${guid} (${latest.event}) failed at ${new Date(first).toISOString()}, more than 3 days ago: GitHub no longer redelivers it`;
            await settle("expired", "REDELIVERY_EXPIRED", message);
            report.errors.push({ item: guid, code: "REDELIVERY_EXPIRED", message });
            continue;
        }
        if (pendingRequest(row, latest, now)) {
            report.pending++;
            unresolved.push({ guid, first });
            continue;
        }
        const asked = row?.attempts ?? 0;
        if (asked >= ctx.policy.attemptsPerDelivery) {
            const message = `delivery ${guid} (${latest.event}) was redelivered ${asked} times and every attempt failed (last: ${latest.status}, HTTP ${latest.status_code})`;
            await settle("exhausted", "REDELIVERY_EXHAUSTED", message);
            report.errors.push({ item: guid, code: "REDELIVERY_EXHAUSTED", message });
            continue;
        }
        unresolved.push({ guid, first });
        if (limited || report.requested.length >= ctx.policy.perPass) {
            report.deferred++;
            continue;
        }
        if (!(await recordRedeliveryRequest(ctx.store, ref, asked, now)))
            continue;
        try {
            await ctx.hooks.redeliverHook(latest.id);
            report.requested.push(guid);
        }
        catch (err) {
            const code = codeOf(err);
            report.errors.push({ item: guid, code, message: err.message });
            if (code === "REDELIVERY_RATE_LIMITED")
                limited = true;
            // A refusal started nothing: recorded, asked again next pass. Any other failure may have
            // reached GitHub: the request stays pending, so it is not asked for twice at once.
            if (code === "REDELIVERY_REFUSED" || code === "REDELIVERY_RATE_LIMITED")
                await settle("refused", code, err.message);
        }
    }
    return unresolved;
}
/** Asked before, and GitHub has listed no newer attempt since, within PENDING_MS: still pending. */
function pendingRequest(row, latest, now) {
    if (!row || row.state !== "requested" || row.requested_at === null)
        return false;
    return latest.id <= row.hook_delivery_id && now - row.requested_at < PENDING_MS;
}
/** The sweep's switch, mark, last pass and figures, from the store (status page, `app status`, `app redelivery`). */
async function redeliverySnapshot(store, _now) {
    const sw = await redeliverySwitch(store);
    const { mark, running, last, walk, backlogExpired } = await lastRedeliveryPass(store);
    const { counts, problems } = await redeliveryOverview(store);
    return {
        switch: { enabled: sw.enabled, by: sw.by, reason: sw.reason, at: isoOrNull(sw.at) },
        mark: isoOrNull(mark),
        running,
        walk: walk && {
            started_at: new Date(walk.started_at).toISOString(),
            passes: walk.passes,
            pages: walk.pages,
            newest: new Date(walk.newest).toISOString(),
            oldest_listed: new Date(walk.oldest).toISOString(),
            open: walk.open.length,
        },
        backlog_expired: backlogExpired && {
            from: new Date(backlogExpired.from).toISOString(),
            to: new Date(backlogExpired.to).toISOString(),
            found_at: new Date(backlogExpired.found_at).toISOString(),
            code: "REDELIVERY_BACKLOG_EXPIRED",
            message: backlogExpired.message,
            action: (0,core_errors/* hintOf */.$z)("REDELIVERY_BACKLOG_EXPIRED"),
        },
        last_pass: last ?? null,
        counts,
        problems: problems.map((p) => ({
            guid: p.guid,
            event: p.event,
            state: p.state,
            attempts: p.attempts,
            first_failed_at: new Date(p.first_failed_at).toISOString(),
            code: p.code,
            message: p.message,
            action: (0,core_errors/* hintOf */.$z)(p.code),
        })),
    };
}

;// CONCATENATED MODULE: ./src/core/rate-budget.ts
/**
 * An installation's GitHub API budget (its primary rate limit), as data and pure rules. Every
 * repository of an installation shares one hourly budget (5,000 requests, more for large
 * installations); the App reads GitHub's `x-ratelimit-*` headers from each answer, records the
 * latest per installation in the store, and before it starts a piece of work asks here whether
 * that kind of work waits for the reset. The order in which kinds wait is written below
 * (DEFERRAL_ORDER) and in docs/app.md ("Rate limits").
 */

/**
 * The written order. Envelope PRs and audit runs (a proposal can wait an hour) wait first, below
 * 10% of the limit (500 of 5,000); ledger PR upkeep below 5% (250); verified checks and runner B
 * (what a pull request's merge waits on) last, only when the budget is nearly exhausted, below 1%
 * (50). The floors keep a small installation limit from reaching the last calls.
 */
const DEFERRAL_ORDER = [
    { tier: "first", kinds: ["audit_run", "envelope_pr"], fraction: 0.1, floor: 200 },
    { tier: "middle", kinds: ["ledger_pr"], fraction: 0.05, floor: 100 },
    { tier: "last", kinds: ["verified_check", "runner_b"], fraction: 0.01, floor: 20 },
];
function intHeader(headers, name) {
    const raw = headers[name];
    if (typeof raw !== "string" && typeof raw !== "number")
        return null;
    const text = String(raw).trim();
    if (!/^\d+$/.test(text))
        return null;
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : null;
}
/**
 * Reads `x-ratelimit-remaining`, `-limit`, `-reset` (epoch seconds), `-resource` and a
 * `retry-after` (seconds) from one answer's headers. A reading is kept only when remaining,
 * limit and reset are all present and sane; a retry-after alone is kept too.
 */
function parseRateHeaders(headers, now) {
    const remaining = intHeader(headers, "x-ratelimit-remaining");
    const limit = intHeader(headers, "x-ratelimit-limit");
    const reset = intHeader(headers, "x-ratelimit-reset");
    const retryAfter = intHeader(headers, "retry-after");
    const resourceRaw = headers["x-ratelimit-resource"];
    const resource = typeof resourceRaw === "string" && /^[a-z_]{1,40}$/.test(resourceRaw) ? resourceRaw : "core";
    const reading = remaining !== null && limit !== null && limit > 0 && reset !== null && remaining <= limit;
    const retryAfterUntil = retryAfter === null ? null : now + retryAfter * 1000;
    if (!reading && retryAfterUntil === null)
        return null;
    return {
        resource,
        remaining: reading ? remaining : null,
        limit: reading ? limit : null,
        resetAt: reading ? reset * 1000 : null,
        retryAfterUntil,
    };
}
/** The tier a kind belongs to. */
function tierOf(kind) {
    const tier = DEFERRAL_ORDER.find((t) => t.kinds.includes(kind));
    if (!tier)
        throw new Error(`no deferral tier for ${kind}`);
    return tier;
}
/** Below this many remaining calls (of `limit`), work of `kind` waits for the reset. */
function thresholdFor(kind, limit) {
    const tier = tierOf(kind);
    return Math.max(Math.ceil(limit * tier.fraction), tier.floor);
}
/**
 * Does work of `kind` for this installation wait? Not without a reading, nor once the reading's
 * window has reset (the budget is full again); while a secondary limit's retry-after (from any
 * replica) runs, every kind waits until it ends; otherwise a kind waits while the remainder is
 * under its tier's threshold, until the reset.
 */
function budgetDecision(kind, reading, now) {
    if (reading === null)
        return { defer: false };
    if (reading.retryAfterUntil !== null && reading.retryAfterUntil > now) {
        return {
            defer: true,
            until: reading.retryAfterUntil,
            reason: `GitHub asked installation ${reading.installationId} to wait (a secondary rate limit, retry-after) until ${new Date(reading.retryAfterUntil).toISOString()}`,
        };
    }
    const { remaining, limit, resetAt } = reading;
    if (remaining === null || limit === null || resetAt === null || resetAt <= now)
        return { defer: false };
    const threshold = thresholdFor(kind, limit);
    if (remaining >= threshold)
        return { defer: false };
    const tier = tierOf(kind);
    return {
        defer: true,
        until: resetAt,
        reason: `installation ${reading.installationId} has ${remaining} of ${limit} GitHub API calls left (${reading.resource}), under the ${threshold} below which ${kind.replace("_", " ")} work waits (the ${tier.tier} to wait); it resumes after the reset at ${new Date(resetAt).toISOString()}`,
    };
}
/**
 * The kind of work a delivery is, from its event and payload, before any call: a completed
 * `workflow_run` of a push is an audit run (it proposes envelope PRs); any other `workflow_run`
 * is runner A or runner B (the verified check, the dual run); `pull_request` and
 * `pull_request_review` evaluate verified checks again (and upkeep envelope and ledger PRs);
 * `push` rebases ledger PRs. Null: work that makes no installation call worth deferring.
 */
function workKindOf(event, payload) {
    const p = (payload ?? {});
    switch (event) {
        case "workflow_run":
            return p.workflow_run?.event === "push" ? "audit_run" : "verified_check";
        case "pull_request":
        case "pull_request_review":
            return "verified_check";
        case "push":
            return "ledger_pr";
        default:
            return null;
    }
}
/** Work set aside for the installation's budget (GITHUB_BUDGET_LOW): recorded queued, taken up again at `until`. */
class BudgetDeferral extends core_errors/* Refusal */.P_ {
    kind;
    until;
    constructor(kind, until, reason) {
        super("GITHUB_BUDGET_LOW", `deferred: ${reason}`);
        this.kind = kind;
        this.until = until;
    }
}

;// CONCATENATED MODULE: ./src/store/status-counts.ts
async function deliveryCounts(store, since) {
    const rows = await store.db.all("SELECT state, COUNT(*) AS n FROM deliveries WHERE received_at >= ? GROUP BY state", [since]);
    const of = (...states) => rows.filter((r) => states.includes(r.state)).reduce((sum, r) => sum + Number(r.n), 0);
    return {
        received: of("processing", "queued", "done", "failed"),
        processed: of("done"),
        failed: of("failed"),
        in_progress: of("processing", "queued"),
    };
}
async function verdictCounts(store, since) {
    const rows = await store.db.all(`SELECT conclusion, CASE WHEN code IS NULL THEN 0 ELSE 1 END AS coded, COUNT(*) AS n FROM verified_checks
     WHERE state = 'posted' AND COALESCE(posted_at, created_at) >= ? GROUP BY conclusion, CASE WHEN code IS NULL THEN 0 ELSE 1 END`, [since]);
    const counts = { pass: 0, envelope_fail: 0, error: 0 };
    for (const r of rows) {
        const n = Number(r.n);
        if (Number(r.coded) === 1)
            counts.error += n;
        else if (r.conclusion === "success")
            counts.pass += n;
        else
            counts.envelope_fail += n;
    }
    return counts;
}
/**
 * When the switch history began: the time migration 4 was applied. The entry it wrote for the
 * state it found carries at 0 (no time was known then); this is that entry's true time.
 */
async function historyBeganAt(store) {
    const rows = await store.db.all("SELECT applied_at FROM schema_migrations WHERE version = 4");
    return rows[0] ? Number(rows[0].applied_at) : null;
}

;// CONCATENATED MODULE: ./src/core/human.ts
/**
 * Words for people reading the App's pages: counts with their noun in the right number, and
 * times as "3 min ago" beside the exact UTC time. Pure: the caller passes the clock's now.
 */
/** "1 delivery", "2 deliveries", "0 deliveries": `many` when the plural is not the noun plus "s". */
function count(n, one, many = `${one}s`) {
    return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/**
 * How long ago (or how far ahead) `at` is from `now`, in the largest unit that fits: "just now"
 * under a minute, then minutes, hours, days. Truncated, never rounded up: 59 s is "just now".
 */
function relativeTime(at, now) {
    const delta = now - at;
    const span = Math.abs(delta);
    if (span < MINUTE)
        return "just now";
    const words = span < HOUR ? `${Math.floor(span / MINUTE)} min` : span < DAY ? `${Math.floor(span / HOUR)} h` : count(Math.floor(span / DAY), "day");
    return delta > 0 ? `${words} ago` : `in ${words}`;
}
/** The exact time in UTC as people write it: "2026-12-05 06:02:38 UTC" (no milliseconds). */
function utcText(at) {
    return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

;// CONCATENATED MODULE: ./src/app/status-html.ts





/**
 * The status page's HTML: server-rendered, no script, no external resource (the App may run with
 * no egress), its one inline style allowed by hash in its Content-Security-Policy.
 */
/**
 * The one HTML escape of the page: every string from the store (repository names, properties,
 * branches, rows, details, messages, reasons) goes through it; what is not escaped is markup of
 * ours (`Raw`) or a number we computed.
 */
const esc = markdown/* escapeHtml */.ZD;
class Raw {
    html;
    constructor(html) {
        this.html = html;
    }
}
function whenAt(now) {
    return (isoTime, none = "—") => {
        const at = isoTime === null ? NaN : Date.parse(isoTime);
        if (Number.isNaN(at))
            return new Raw(esc(none));
        return new Raw(`<time datetime="${esc(isoTime)}" title="${esc(isoTime)}">${esc(relativeTime(at, now))}</time> <span class="utc">(${esc(utcText(at))})</span>`);
    };
}
const html = (c) => (c instanceof Raw ? c.html : esc(c));
/** A table in its own horizontal scroller: a wide table scrolls, the page does not. */
function table(headers, rows, empty) {
    if (rows.length === 0)
        return `<p class="empty">${esc(empty)}</p>`;
    return `<div class="scroll"><table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows
        .map((r) => `<tr>${r.map((c) => `<td>${html(c)}</td>`).join("")}</tr>`)
        .join("")}</table></div>`;
}
/** A link to an http(s) address only; anything else is its text. */
const status_html_link = (href, text) => {
    const safe = (0,markdown/* safeHref */.v7)(href);
    return safe ? new Raw(`<a href="${esc(safe)}">${esc(text)}</a>`) : text;
};
const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:8px 16px;max-width:1200px}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.25em;margin:1.2em 0 .4em}p,li,dd{overflow-wrap:anywhere}
.scroll{overflow-x:auto;margin:.5em 0 1.5em;max-width:100%}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}td{overflow-wrap:break-word;min-width:8em;max-width:32em}
.alert{background:#fdd;border:2px solid #c00;padding:8px;font-weight:bold}.ok{background:#dfd;padding:8px}.overdue{color:#c00;font-weight:bold}
.empty{color:#777}code{font-size:12px;overflow-wrap:anywhere}.utc{color:#555;white-space:nowrap}
.summary{list-style:none;padding:0;margin:.5em 0}.summary li{padding:4px 0;border-bottom:1px solid #eee}nav{margin:1em 0}
section{scroll-margin-top:8px}`;
/**
 * The page's Content-Security-Policy: nothing loads (no script, image, font or frame) and the one
 * inline style is allowed by its hash, so an escape bug could not run or fetch anything either.
 */
const STATUS_PAGE_CSP = `default-src 'none'; style-src 'sha256-${(0,external_node_crypto_.createHash)("sha256").update(STYLE).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
const PAGE_HEAD = (title) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>`;
/** The page header: what serves it, when, from which store. */
const header = (when, generatedAt, store, json) => `<header><h1>envelope-gate App status</h1><p>${esc(version/* PRODUCT */.A)} · generated ${when(generatedAt).html} · store: ${esc(store)}${json ? ` · <a href="/status.json">JSON</a>` : ""}</p></header>`;
function deliveriesTable(lines, empty, when) {
    return table(["delivery", "event", "state", "received", "attempts", "code", "message", "what to do"], lines.map((d) => [
        new Raw(`<code>${esc(d.delivery_id)}</code>`),
        d.event,
        d.waiting_on === "github" ? `waiting on GitHub (${d.state})` : d.state,
        when(d.received_at),
        d.attempts,
        d.code ?? "",
        d.message ?? "",
        d.action,
    ]), empty);
}
/** Everything on the page that needs a human, counted for the summary at the top. */
function attention(s) {
    const items = [];
    const n = (number, one, many, tail = "") => number > 0 && items.push(`${count(number, one, many)}${tail}`);
    if (s.kill_switch.paused)
        items.push("the App is PAUSED");
    const waiting = s.deliveries.failed.filter((d) => d.waiting_on === "github").length;
    n(s.deliveries.failed.length - waiting, "failed delivery", "failed deliveries");
    n(waiting, "delivery", "deliveries", ` waiting on GitHub at ${s.github_api_url} (GITHUB_UNAVAILABLE)`);
    n(s.deliveries.stuck.length, "stuck delivery", "stuck deliveries");
    n(s.deliveries.refused_paused.length, "delivery", "deliveries", " held during a pause");
    n(s.last_sweep?.errors.length ?? 0, "sweep error", "sweep errors");
    n(s.open_ledger_prs.filter((p) => p.overdue).length, "overdue ledger PR review", "overdue ledger PR reviews");
    n(s.budget.scopes.filter((b) => b.dispatches_left === 0 || b.minutes_left < s.budget.charged_until_measured_minutes).length, "budget", "budgets", " exhausted for today");
    n(s.crash_loop.replicas.filter((r) => r.start_refused).length, "replica", "replicas", " whose next start is refused (APP_CRASH_LOOP)");
    n(s.refused_runs.filter((r) => r.role === "runner_b").length, "run", "runs", " that named a dual run but were not the App's dispatch (RUNNER_B_UNVERIFIED)");
    if (!s.redelivery.switch.enabled)
        items.push("the redelivery sweep is OFF (deliveries GitHub failed to deliver are not asked for again)");
    n(s.redelivery.problems.filter((p) => p.state === "exhausted" || p.state === "expired").length, "delivery", "deliveries", " the redelivery sweep gave up on");
    n(s.redelivery.last_pass?.errors.filter((e) => e.code === "REDELIVERY_LIST_REFUSED").length ?? 0, "redelivery listing", "redelivery listings", " refused by GitHub");
    const dayAgo = Date.parse(s.generated_at) - 86_400_000;
    const lost = s.redelivery.backlog_expired;
    if (lost && Date.parse(lost.found_at) >= dayAgo) {
        items.push(`deliveries from ${lost.from} to ${lost.to} can no longer be redelivered: GitHub dropped them before the redelivery sweep listed them (REDELIVERY_BACKLOG_EXPIRED)`);
    }
    n(s.refused_ledger_prs.filter((p) => p.at !== null && Date.parse(p.at) >= dayAgo).length, "ledger PR", "ledger PRs", " refused or closed by the App in the last 24 h (a branch, PR or push it did not make)");
    n(s.switch_history.filter((h) => h.kind === "revert" && h.at !== null && Date.parse(h.at) >= dayAgo).length, "unrecorded switch change", "unrecorded switch changes", " reverted by the watchdog in the last 24 h (see the switch history)");
    return items;
}
/** The installation with the least of its GitHub API budget left: the one that waits first. */
function lowestRateLimit(s) {
    const read = s.github_budget.installations.filter((r) => r.resource === "core" && r.remaining !== null && r.limit !== null);
    return read.sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0] ?? null;
}
/** The first thing on the page: one line per question an operator comes with, each linking to its section. */
function summary(s, when, todo) {
    const item = (href, label, body) => `<li><a href="#${href}">${esc(label)}</a>: ${body}</li>`;
    const k = s.kill_switch;
    const kill = k.paused
        ? `<span class="overdue">PAUSED</span> since ${when(k.changed_at, "an unrecorded time").html}`
        : "running (kill switch off)";
    const d = s.delivery_counts;
    const failing = s.deliveries.failed.length + s.deliveries.stuck.length;
    const deliveries = `${esc(`${d.received} received: ${d.processed} processed, ${d.failed} failed, ${d.in_progress} in progress`)}`;
    const v = s.verdicts;
    const rate = lowestRateLimit(s);
    const rateText = rate
        ? `${esc(`${rate.remaining.toLocaleString("en-US")} of ${rate.limit.toLocaleString("en-US")} calls left (${(rate.limit - rate.remaining).toLocaleString("en-US")} spent)`)}${s.github_budget.installations.length > 1 ? ` on installation ${esc(rate.installation_id)}, the lowest` : ""}, resets ${when(rate.resets_at, "at an unknown time").html}${rate.reset_passed ? " (reset since)" : ""}`
        : "no answer from GitHub read yet";
    const attentionText = todo.length === 0 ? "nothing" : `<span class="overdue">${esc(count(todo.length, "item", "items"))}</span>`;
    return `<ul class="summary">
${item("attention", "Needs attention", attentionText)}
${item("kill-switch", "Kill switch", kill)}
${item("webhooks", `Deliveries in the last ${s.window.hours} hours`, deliveries)}
${item("failed-deliveries", "Failures needing attention", esc(failing === 0 ? "none" : `${count(s.deliveries.failed.length, "failed delivery", "failed deliveries")}, ${s.deliveries.stuck.length} stuck`))}
${item("verified-checks", `Verdicts in the last ${s.window.hours} hours`, esc(`${v.pass} pass, ${v.envelope_fail} envelope_fail, ${v.error} error`))}
${item("github-budget", "GitHub API budget", rateText)}
</ul>${todo.length > 0
        ? `<p class="alert" id="attention">Needs attention: ${todo.map(esc).join("; ")}.</p>`
        : `<p class="ok" id="attention">Nothing needs attention.</p>`}`;
}
function intakeSection(s, when) {
    const d = s.deliveries;
    const lines = [
        `Last delivery recorded (any replica): ${when(d.last_received_at, "never").html} · ${esc(count(d.total, "delivery", "deliveries"))} recorded in all.`,
    ];
    if (s.intake) {
        const refused = Object.entries(s.intake.refused).map(([code, n]) => `${esc(code)} × ${n}`);
        lines.push(`This replica: last request to /webhook ${when(s.intake.last_request_at, "never").html}, last accepted ${when(s.intake.last_accepted_at, "never").html}.`);
        lines.push(`Refused before anything was recorded: ${refused.length > 0 ? refused.join(", ") : "none"}.`);
        if (s.intake.last_refused) {
            const r = s.intake.last_refused;
            lines.push(`Last refusal ${when(r.at).html}: ${esc(r.code)} (${esc(r.message)})${r.code === "WEBHOOK_SIGNATURE_INVALID" ? ". If every delivery is refused so, the webhook secret differs from the App's settings on GitHub." : ""}`);
        }
    }
    return lines.map((l) => `<p>${l}</p>`).join("");
}
function redeliverySection(s, when) {
    const r = s.redelivery;
    const sw = r.switch.enabled
        ? `<p class="ok">On${r.switch.at ? ` (turned on ${when(r.switch.at).html} by ${esc(r.switch.by)}: ${esc(r.switch.reason)})` : ""}: deliveries GitHub recorded as failed and the App never recorded are asked for again.</p>`
        : `<p class="alert">OFF since ${when(r.switch.at, "an unrecorded time").html} by ${esc(r.switch.by)}: ${esc(r.switch.reason)}. GitHub does not redeliver by itself: turn it on with <code>envelope-gate app redelivery on --reason "…"</code>.</p>`;
    const mark = r.mark === null ? "none yet" : when(r.mark).html;
    const p = r.last_pass;
    const w = r.walk;
    const walk = w
        ? `<p>Walk in progress since ${when(w.started_at).html}: ${esc(count(w.pages, "page"))} in ${esc(count(w.passes, "pass", "passes"))}, back to ${when(w.oldest_listed).html} of the mark ${mark}; deliveries newer than ${when(w.newest).html} are the next walk's; ${esc(count(w.open, "delivery", "deliveries"))} left open so far.</p>`
        : "";
    const b = r.backlog_expired;
    const lost = b
        ? `<p class="alert">${esc(b.code)} (found ${when(b.found_at).html}): ${esc(b.message)}. What to do: ${esc(b.action)}</p>`
        : "";
    const last = p
        ? `<p>Last pass ${when(p.at).html} by ${esc(p.by)}${p.skipped ? ` (skipped: ${esc(p.skipped)})` : ""}: ${esc(count(p.listed, "attempt"))} listed in ${esc(count(p.pages, "page"))}, ${esc(count(p.deliveries, "delivery", "deliveries"))}, ${esc(p.failed)} failed on GitHub, ${esc(p.recorded)} of them recorded by the App anyway, ${esc(p.requested.length)} asked again, ${esc(p.pending)} pending, ${esc(p.deferred)} left for the next pass${p.truncated ? ", not back to the mark yet: the next pass resumes the walk where this one stopped" : ""}. Mark: ${mark}.</p>${walk}${lost}${table(["item", "code", "message", "what to do"], p.errors.map((e) => [e.item, e.code, e.message, (0,core_errors/* hintOf */.$z)(e.code, { githubApiUrl: s.github_api_url })]), "No errors.")}`
        : "<p>No pass yet.</p>";
    const c = r.counts;
    return `${sw}${last}<p>Asked again in all: ${esc(c.delivered)} delivered, ${esc(c.requested)} pending, ${esc(c.refused)} refused, ${esc(c.exhausted)} given up, ${esc(c.expired)} older than GitHub keeps.</p>${table(["delivery", "event", "state", "asked", "first failed", "code", "message", "what to do"], r.problems.map((x) => [
        new Raw(`<code>${esc(x.guid)}</code>`),
        x.event,
        x.state,
        x.attempts,
        when(x.first_failed_at),
        x.code ?? "",
        x.message ?? "",
        x.action,
    ]), "None given up or refused.")}`;
}
function gitHubBudgetSection(s, when) {
    const b = s.github_budget;
    const order = `<p>When an installation's remainder runs low, work waits until the reset, in this order: ${b.order
        .map((t) => `${esc(t.kinds.join(" and ").replaceAll("_", " "))} below ${esc(t.waits_below)}`)
        .join("; then ")}. Deferred work is GITHUB_BUDGET_LOW and resumes by itself after the reset.</p>`;
    const readings = table(["installation", "resource", "remaining / limit", "resets", "read", "secondary limit until", "waiting now"], b.installations.map((r) => [
        r.installation_id,
        r.resource,
        new Raw(r.remaining === null
            ? "—"
            : `<span class="${r.deferring.length > 0 ? "overdue" : ""}">${esc(r.remaining)} / ${esc(r.limit)}</span>${r.reset_passed ? " (reset since)" : ""}`),
        when(r.resets_at),
        new Raw(`${when(r.observed_at).html} by ${esc(r.observed_by)}`),
        when(r.retry_after_until),
        r.deferring.length > 0 ? r.deferring.join(", ") : "nothing",
    ]), "No answer from GitHub read yet.");
    const deferred = table(["delivery", "event", "received", "resumes", "message"], s.deliveries.deferred.map((d) => [
        new Raw(`<code>${esc(d.delivery_id)}</code>`),
        d.event,
        when(d.received_at),
        when(d.resumes_at ?? null),
        d.message ?? "",
    ]), "No work deferred.");
    return `${order}${readings}<h3>Deferred deliveries (GITHUB_BUDGET_LOW)</h3>${deferred}`;
}
/** Every section below the summary, in page order; each has an anchor and a line in the contents. */
function sections(s, when) {
    const k = s.kill_switch;
    const kill = k.paused
        ? `<p class="alert">PAUSED since ${when(k.changed_at, "an unrecorded time").html} by ${esc(k.changed_by)}: ${esc(k.reason)}. No dispatch, PR, comment or check is sent. Resume with <code>envelope-gate app resume</code>.</p>`
        : `<p class="ok">Running (kill switch off${k.changed_at ? `, last changed ${when(k.changed_at).html} by ${esc(k.changed_by)}` : ""}).</p>`;
    const sweep = s.last_sweep
        ? `<p>${when(s.last_sweep.at).html}: ${esc(count(s.last_sweep.errors.length, "error"))}.</p>${table(["item", "code", "message", "what to do"], s.last_sweep.errors.map((e) => [e.item, e.code, e.message, e.action]), "No errors.")}`
        : "<p>Not yet run on this replica.</p>";
    const budget = s.budget;
    return [
        { id: "kill-switch", title: "Kill switch", body: kill },
        {
            id: "runner-b-budget",
            title: "Runner B's budget today",
            body: `<p>Day ${esc(budget.day)} (UTC), resets ${when(budget.resets_at).html}. Each dispatch is charged ${esc(count(budget.charged_until_measured_minutes, "minute"))} until GitHub's timing of its run is read; a reading is trusted ${esc(count(budget.measurement_trusted_minutes, "minute"))}. Configured caps: installation ${esc(count(budget.defaults.installation.dispatchesPerDay, "dispatch", "dispatches"))} / ${esc(count(budget.defaults.installation.minutesPerDay, "minute"))}, repository ${esc(budget.defaults.repository.dispatchesPerDay)} / ${esc(budget.defaults.repository.minutesPerDay)}.</p>
${table(["scope", "dispatches used", "dispatches left", "minutes charged", "minutes left", "measured", "override"], budget.scopes.map((b) => [
                b.scope,
                `${b.dispatches_used} of ${b.dispatches_cap}`,
                new Raw(b.dispatches_left === 0 ? `<span class="overdue">0</span>` : String(b.dispatches_left)),
                `${b.minutes_charged} of ${b.minutes_cap}`,
                b.minutes_left,
                `${b.measured} of ${b.dispatches_used}`,
                b.override ? new Raw(`by ${esc(b.override.by)} ${when(b.override.at).html}: ${esc(b.override.reason)}`) : "—",
            ]), "No runner-B dispatch reserved today.")}
<h3>Last budget refusals</h3>${table(["decided", "dual run", "repository", "code", "detail"], budget.refusals.map((r) => [when(r.at), r.dual_run, r.repository, r.code ?? "", r.detail ?? ""]), "None.")}`,
        },
        {
            id: "switch-history",
            title: "Switch history",
            body: table(["#", "at", "switch", "state", "kind", "by", "reason"], s.switch_history.map((h) => [
                h.seq,
                when(h.at, "not recorded"),
                h.switch,
                new Raw(`<code>${esc(h.state)}</code>`),
                new Raw(h.kind === "revert" ? `<span class="overdue">revert</span>` : esc(h.kind)),
                h.actor,
                h.reason,
            ]), "No change recorded."),
        },
        { id: "webhooks", title: "Webhooks arriving", body: intakeSection(s, when) },
        { id: "failed-deliveries", title: "Failed deliveries", body: deliveriesTable(s.deliveries.failed, "None.", when) },
        { id: "stuck-deliveries", title: "Stuck deliveries", body: deliveriesTable(s.deliveries.stuck, "None.", when) },
        { id: "held-deliveries", title: "Deliveries held during a pause", body: deliveriesTable(s.deliveries.refused_paused, "None.", when) },
        { id: "github-budget", title: "GitHub API budget", body: gitHubBudgetSection(s, when) },
        { id: "redelivery", title: "Redelivery sweep", body: redeliverySection(s, when) },
        {
            id: "installations",
            title: "Installations",
            body: table(["installation", "account", "mode", "promoted"], s.installations.map((i) => [i.installation_id, i.account, i.mode, when(i.promoted_at)]), "No installation has sent a webhook yet."),
        },
        {
            id: "dual-runs",
            title: "Dual runs in flight",
            body: table(["dual run", "repository", "head", "state", "failing properties", "deadline", "minutes left"], s.dual_runs_in_flight.map((d) => [
                d.id,
                d.repository,
                d.head_sha.slice(0, 12),
                d.state,
                d.properties.join(", "),
                when(d.deadline_at),
                d.minutes_left,
            ]), "None."),
        },
        {
            id: "open-ledger-prs",
            title: "Open ledger PRs",
            body: table(["freeze", "repository", "property", "PR", "waiting for review", "expires"], s.open_ledger_prs.map((p) => [
                p.freeze_id,
                p.repository,
                p.property,
                status_html_link(p.pr_url, p.pr_url ?? "—"),
                new Raw(p.reviewed
                    ? "reviewed"
                    : `<span class="${p.overdue ? "overdue" : ""}">${p.waiting_hours} h${p.overdue ? " — OVERDUE" : ""}</span>`),
                p.expires_on,
            ]), "None."),
        },
        {
            id: "refused-ledger-prs",
            title: "Ledger PRs refused or closed by the App",
            body: table(["freeze", "repository", "property", "branch", "PR", "state", "code", "detail", "at"], s.refused_ledger_prs.map((p) => [
                p.freeze_id,
                p.repository,
                p.property,
                p.branch,
                status_html_link(p.pr_url, p.pr_url ?? "—"),
                p.state,
                p.code,
                p.detail ?? "",
                when(p.at, ""),
            ]), "None."),
        },
        {
            id: "expiring-freezes",
            title: "Freezes expiring within 3 days",
            body: table(["freeze", "repository", "property", "expires", "state", "days left"], s.freezes_expiring_soon.map((f) => [f.freeze_id, f.repository, f.property, f.expires_on, f.state, f.days_left]), "None."),
        },
        {
            id: "shadow-proposals",
            title: "Shadow proposals (would have opened)",
            body: table(["freeze", "repository", "property", "branch", "expires", "row"], s.shadow_proposals.map((p) => [
                p.freeze_id,
                p.repository,
                p.property,
                p.branch,
                p.expires_on,
                new Raw(`<code>${esc(p.row)}</code>`),
            ]), "None."),
        },
        {
            id: "refused-runs",
            title: "Runs refused as runner A or B",
            body: `<p>Gate workflow runs GitHub's API did not show to be runner A (a pull_request or pull_request_review run of the base's workflow file on the pull request's current head) or runner B (the App's own dispatch). None of them starts or decides a dual run.</p>${table(["refused", "repository", "run", "as", "event", "commit", "dual run", "code", "reason"], s.refused_runs.map((r) => [
                when(r.at),
                r.repository,
                `${r.run_id} (attempt ${r.run_attempt})`,
                r.role === "runner_a" ? "runner A" : "runner B",
                r.event ?? "—",
                (r.head_sha ?? "").slice(0, 12) || "—",
                r.dual_run ?? "—",
                r.code,
                r.reason,
            ]), "None.")}`,
        },
        {
            id: "envelope-prs",
            title: "Envelope PRs from audit runs",
            body: `<p>One per repository, proposed from the default branch's latest verified audit runs; it only ever adds entries. Closed with a code: the App refused or closed it (a foreign branch or PR, a push to its branch, a retarget).</p>${table(["updated", "repository", "branch", "onto", "state", "mode", "pull request", "commit", "runs", "code", "detail"], s.envelope_prs.map((e) => [
                when(e.updated_at),
                e.repository,
                e.branch,
                e.base,
                e.state,
                e.mode,
                status_html_link(e.url, e.pull === null ? "—" : `#${e.pull}`),
                (e.commit ?? "").slice(0, 12) || "—",
                e.runs,
                e.code ?? "—",
                e.detail ?? "",
            ]), "None.")}`,
        },
        {
            id: "org-envelopes",
            title: "Organisation envelopes",
            body: `<p>Each owner's organisation envelope, read from its <code>.github</code> repository's default branch at every verified check: its digest, the commit it came from, and when it last changed. A change applies only once merged there.</p>${table(["owner", "state", "envelope", "digest", ".github commit", "changed", "read", "exceptions", "detail"], s.org_envelopes.map((o) => [
                o.owner,
                o.state,
                o.ceiling_id ?? "—",
                o.digest ?? "—",
                (o.source_sha ?? "").slice(0, 12) || "—",
                when(o.changed_at),
                when(o.read_at),
                o.exceptions.join("; ") || "—",
                o.detail,
            ]), "None read yet.")}${table(["repository", "result", "outside", "judged under", "widenings or reason", "exceptions", "touched beyond the baseline", "checked"], s.ceiling_results.map((c) => [
                c.repository,
                c.outcome,
                c.outside ? "OUTSIDE" : "—",
                `${c.digest ?? "—"}${c.current ? "" : " (an earlier organisation envelope)"}`,
                c.detail.join("; ") || "—",
                c.exceptions.join("; ") || "—",
                c.footprint === null
                    ? "—"
                    : [
                        ...c.footprint.hosts.map((h) => `host ${h}`),
                        ...c.footprint.env.map((k) => `key ${k}`),
                        ...c.footprint.commands.map((x) => `command ${x}`),
                    ].join(", ") || "nothing",
                when(c.checked_at),
            ]), "No repository judged yet.")}`,
        },
        {
            id: "audit-runs",
            title: "Audit runs",
            body: `<p>Push runs of the gate workflow, judged for envelope PRs: verified (an audit bundle of a run on the default branch), ignored (not an audit bundle) or refused, with the code.</p>${table(["recorded", "repository", "run", "branch", "commit", "state", "code", "reason"], s.audit_runs.map((a) => [
                when(a.at),
                a.repository,
                `${a.run_id} (attempt ${a.run_attempt})`,
                a.branch ?? "—",
                (a.head_sha ?? "").slice(0, 12) || "—",
                a.state,
                a.code ?? "—",
                a.reason ?? "",
            ]), "None.")}`,
        },
        {
            id: "verified-checks",
            title: "Verified checks",
            body: table(["repository", "run", "commit", "state", "conclusion", "code"], s.verified_checks.map((c) => [
                c.repository,
                `${c.run_id} (attempt ${c.run_attempt})`,
                c.head_sha.slice(0, 12),
                c.state,
                c.conclusion ?? "—",
                c.code ?? "",
            ]), "None yet."),
        },
        {
            id: "verified-commits",
            title: "Verified commits",
            body: `<p>The verified check per commit: the conjunction of its open pull requests, each against its current base. A check of the same name another source posted (a job token's) is listed here and never counted.</p>${table(["repository", "commit", "conclusion", "code", "pull requests", "checks of the same name from another source"], s.verified_heads.map((h) => [
                h.repository,
                h.head_sha.slice(0, 12),
                h.conclusion ?? "—",
                h.code ?? "",
                h.pulls.map((p) => `#${p.number} into ${p.base_ref}: ${p.conclusion}`).join("; ") || "none open",
                h.foreign_checks
                    .map((f) => `check run ${f.id} by ${f.app_slug ?? "?"} (app ${f.app_id ?? "?"}): ${f.conclusion ?? "pending"}`)
                    .join("; "),
            ]), "None yet.")}`,
        },
        {
            id: "decisions",
            title: "Recent decisions",
            body: table(["decided", "dual run", "repository", "commit", "pull request", "check run", "outcome", "code", "detail"], s.recent_decisions.map((d) => [
                when(d.decided_at),
                d.id,
                d.repository,
                status_html_link(d.commit_url, d.head_sha.slice(0, 12)),
                d.pull_url ? status_html_link(d.pull_url, `#${d.pull_url.split("/").pop()}`) : "—",
                status_html_link(d.check_run_url, d.check_run_url ? "check run" : "—"),
                d.outcome,
                d.code ?? "",
                d.detail,
            ]), "None yet."),
        },
        { id: "last-sweep", title: "Last sweep", body: sweep },
        {
            id: "crash-loop",
            title: "Crash-loop bound",
            body: `<p>A replica id whose processes crashed ${esc(count(s.crash_loop.limit, "time"))} within ${esc(count(s.crash_loop.window_minutes, "minute"))} does not serve until <code>envelope-gate app reset-crashes --replica ID --reason "…"</code> (or the crashes leave the window).</p>${table(["replica", "crashes in the window", "last seen alive", "next start"], s.crash_loop.replicas.map((r) => [
                r.replica,
                r.crashes,
                when(r.last_crash_at),
                new Raw(r.start_refused ? `<span class="overdue">refused (APP_CRASH_LOOP)</span>` : "allowed"),
            ]), "No crash within the window.")}`,
        },
        {
            id: "replicas",
            title: "Replicas",
            body: table(["replica", "last health check"], s.replicas.map((r) => [r.replica_id, when(r.last_health_check)]), "No replica has answered /healthz yet."),
        },
    ];
}
/**
 * The read-only status page. No forms, no actions: operators change state with the CLI. Times
 * are said relative to `now` (the App's clock when the page is rendered) beside their exact UTC.
 */
function renderStatusHtml(s, now) {
    const when = whenAt(now);
    const parts = sections(s, when);
    const contents = parts.map((p) => `<a href="#${p.id}">${esc(p.title)}</a>`).join(" · ");
    return `${PAGE_HEAD("envelope-gate App status")}
${header(when, s.generated_at, s.store, true)}
<main>
<section id="summary"><h2>Summary</h2>${summary(s, when, attention(s))}</section>
<nav aria-label="Sections">Sections: ${contents}</nav>
${parts.map((p) => `<section id="${p.id}"><h2>${esc(p.title)}</h2>${p.body}</section>`).join("\n")}
</main>
</body></html>`;
}
/** The page served when the status could not be built: a store outage, or (any other code) a bug, said as such. */
function renderStoreDownHtml(now, storeLabel, error) {
    const top = header(whenAt(now), new Date(now).toISOString(), storeLabel, false);
    if (error.code !== "STORE_UNAVAILABLE") {
        return `${PAGE_HEAD("envelope-gate App status: not built")}
${top}
<p class="alert" id="attention">The status page could not be built (${esc(error.code)}): ${esc(error.message)}</p>
<p>What to do: ${esc((0,core_errors/* hintOf */.$z)(error.code))}</p>
</body></html>`;
    }
    return `${PAGE_HEAD("envelope-gate App status: store unavailable")}
${top}
<p class="alert" id="attention">The store is unavailable (${esc(error.code)}): ${esc(error.message)}</p>
<p>While the store is down nothing is decided or sent: webhooks are answered 503 (GitHub shows them as failed; once the store is back,
the App's redelivery sweep asks GitHub to deliver them again), and every request to GitHub is refused because the kill switch cannot be read.</p>
<p>What to do: check the database named above is running and reachable from this host, and <a href="/healthz">/healthz</a>, which says
which check fails. This page shows the App's state again as soon as the store answers.</p>
</body></html>`;
}

;// CONCATENATED MODULE: ./src/app/status.ts











/** The summary's window: the last day. */
const SUMMARY_WINDOW_MS = 24 * 3_600_000;
/** The repository's web address: from runner A's run URL, else from the API URL (github.com or GHES). */
function repositoryWebUrl(dual, githubApiUrl) {
    const fromRun = dual.run_a_url === null ? null : /^(https?:\/\/.+?)\/actions\/runs\//.exec(dual.run_a_url)?.[1];
    if (fromRun)
        return fromRun;
    try {
        const api = new URL(githubApiUrl);
        const web = api.hostname === "api.github.com" ? "https://github.com" : `${api.protocol}//${api.host}`;
        return `${web}/${dual.repository}`;
    }
    catch {
        return null;
    }
}
/** A delivery still to be worked on (being processed, or queued for the sweeper) whose GitHub calls failed. */
function waitingOn(d) {
    return (d.state === "processing" || d.state === "queued") && d.error_code === "GITHUB_UNAVAILABLE" ? "github" : null;
}
function deliveryLine(d, action) {
    return {
        delivery_id: d.delivery_id,
        event: d.event,
        state: d.state,
        waiting_on: waitingOn(d),
        received_at: new Date(d.received_at).toISOString(),
        attempts: d.attempts,
        code: d.error_code,
        message: d.error_message,
        action,
    };
}
async function deliveryStatus(store, id, githubApiUrl) {
    const d = await store.getDelivery(id);
    if (d === null)
        return null;
    return {
        delivery_id: d.delivery_id,
        event: d.event,
        state: d.state,
        waiting_on: waitingOn(d),
        attempts: Number(d.attempts),
        failures: Number(d.failures),
        received_at: new Date(Number(d.received_at)).toISOString(),
        finished_at: d.finished_at === null ? null : new Date(Number(d.finished_at)).toISOString(),
        outcome: d.outcome,
        code: d.error_code,
        message: d.error_message,
        action: d.error_code === null ? null : (0,core_errors/* hintOf */.$z)(d.error_code, githubApiUrl === undefined ? {} : { githubApiUrl }),
    };
}
const STUCK_ACTION = "The replica processing it stopped (crash or restart) before finishing: the sweeper of any replica takes it over (once that replica's heartbeat is stale, or at once when it restarts); nothing to redeliver.";
const status_iso = (ms) => (ms === null ? null : new Date(ms).toISOString());
/** Today's runner-B budget: per installation and repository that reserved today (and every override), used and left. */
async function budgetSnapshot(store, policy, now) {
    const day = budgetDay(now);
    const usage = await store.budget.usageByScope(day, now - policy.freshMs);
    const overrides = new Map((await store.budget.overrides()).map((o) => [o.scope, o]));
    const scopes = [...new Set([...usage.map((u) => u.scope), ...overrides.keys()])].sort();
    const refusals = await store.budgetRefusals();
    return {
        day,
        resets_at: new Date(nextBudgetDay(now)).toISOString(),
        charged_until_measured_minutes: policy.maxRunMinutes,
        measurement_trusted_minutes: Math.round(policy.freshMs / 60_000),
        defaults: { installation: policy.installation, repository: policy.repository },
        scopes: await Promise.all(scopes.map(async (scope) => {
            const used = usage.find((u) => u.scope === scope) ?? { dispatches: 0, minutes: 0, measured: 0 };
            const o = overrides.get(scope);
            // What reservations are held to: a row raised behind the App's back does not show as room,
            // and an unreadable recorded cap refuses every reservation (BUDGET_UNCONFIRMED): none left.
            const cap = await store.budget
                .effectiveLimit(scope, parseScopeKey(scope)?.kind === "repository" ? policy.repository : policy.installation)
                .catch(() => ({ dispatchesPerDay: 0, minutesPerDay: 0 }));
            return {
                scope,
                dispatches_used: used.dispatches,
                dispatches_cap: cap.dispatchesPerDay,
                dispatches_left: Math.max(0, cap.dispatchesPerDay - used.dispatches),
                minutes_charged: used.minutes,
                minutes_cap: cap.minutesPerDay,
                minutes_left: Math.max(0, cap.minutesPerDay - used.minutes),
                measured: used.measured,
                override: o ? { by: o.changedBy, reason: o.reason, at: new Date(o.changedAt).toISOString() } : null,
            };
        })),
        refusals: refusals.map((r) => ({
            dual_run: String(r.id),
            repository: String(r.repository),
            code: r.outcome_code ?? null,
            detail: r.outcome_detail ?? null,
            at: status_iso(r.decided_at === null ? null : Number(r.decided_at)),
        })),
    };
}
const WORK_KINDS = DEFERRAL_ORDER.flatMap((t) => [...t.kinds]);
/** Each installation's recorded rate limit, what waits now, and the order (thresholds for a 5,000-call limit as an example). */
async function gitHubBudget(store, now) {
    const readings = await store.rateLimits.list();
    return {
        order: DEFERRAL_ORDER.map((t) => ({
            tier: t.tier,
            kinds: [...t.kinds],
            waits_below: `max(${Math.round(t.fraction * 100)}% of the limit, ${t.floor}) calls left (${thresholdFor(t.kinds[0], 5000)} of 5,000)`,
        })),
        installations: readings.map((r) => ({
            installation_id: r.installationId,
            resource: r.resource,
            remaining: r.remaining,
            limit: r.limit,
            resets_at: status_iso(r.resetAt),
            reset_passed: r.resetAt !== null && r.resetAt <= now,
            observed_at: new Date(r.observedAt).toISOString(),
            observed_by: r.observedBy,
            retry_after_until: r.retryAfterUntil !== null && r.retryAfterUntil > now ? new Date(r.retryAfterUntil).toISOString() : null,
            deferring: r.resource === "core" ? WORK_KINDS.filter((k) => budgetDecision(k, r, now).defer) : [],
        })),
    };
}
/** A stored JSON list of strings (anything else: empty). */
function jsonList(text) {
    try {
        const v = JSON.parse(text);
        return Array.isArray(v) ? v.filter((x) => typeof x === "string") : [];
    }
    catch {
        return [];
    }
}
function footprintOf(text) {
    try {
        const v = JSON.parse(text);
        if (v === null || typeof v !== "object")
            return null;
        const list = (k) => (Array.isArray(v[k]) ? v[k].filter((x) => typeof x === "string") : []);
        return { hosts: list("hosts"), env: list("env"), commands: list("commands") };
    }
    catch {
        return null;
    }
}
async function statusSnapshot(store, now, options) {
    const kill = await store.killSwitch();
    const installations = await store.listInstallations();
    const inFlight = await store.listDualRuns(["pending", "dispatching", "waiting", "comparing", "decided", "reporting"]);
    const opened = await store.listLedgerPrs(["opened"]);
    const shadowed = await store.listLedgerPrs(["shadowed"]);
    const refused = await store.listRefusedLedgerPrs(20);
    const standing = await store.listLedgerPrs(["opened", "merged"]);
    const today = utcDate(new Date(now));
    const soon = utcDate(new Date(now + 3 * 86_400_000));
    const recent = (await store.recentDualRuns(20)).filter((d) => d.state === "done");
    const deliveries = await deliveryOverview(store, now);
    const beats = await heartbeats(store);
    const intake = options.intake ?? null;
    const history = await store.switches.history(30);
    // Migration 4 recorded the state it found as at 0 (no time known then): its truth is when the history began.
    const began = history.some((h) => h.at === 0) ? await historyBeganAt(store) : null;
    const since = now - SUMMARY_WINDOW_MS;
    const crashes = await recentCrashes(store, now - options.crashBound.windowMs, now - store.heartbeatStaleMs);
    const refusedRuns = await store.runs.recentRefusals(20);
    const verified = await store.runs.recentVerifiedChecks(20);
    const heads = await store.heads.recent(20);
    const auditRuns = await store.envelopePrs.recentAuditRuns(20);
    const envelopePrs = await store.envelopePrs.listEnvelopePrs(20);
    const orgEnvelopes = await store.ceilings.all();
    const ceilingResults = await store.ceilings.results();
    const where = { githubApiUrl: options.githubApiUrl };
    return {
        version: version/* VERSION */.x,
        generated_at: new Date(now).toISOString(),
        store: options.storeLabel,
        window: { hours: SUMMARY_WINDOW_MS / 3_600_000, since: new Date(since).toISOString() },
        delivery_counts: await deliveryCounts(store, since),
        verdicts: await verdictCounts(store, since),
        github_api_url: options.githubApiUrl,
        kill_switch: { paused: kill.paused, reason: kill.reason, changed_by: kill.changed_by, changed_at: status_iso(kill.changed_at) },
        budget: await budgetSnapshot(store, options.budget, now),
        crash_loop: {
            limit: options.crashBound.limit,
            window_minutes: Math.round(options.crashBound.windowMs / 60_000),
            replicas: crashes.map((c) => ({
                replica: c.replica,
                crashes: c.crashes,
                last_crash_at: new Date(c.last_crash_at).toISOString(),
                start_refused: c.crashes >= options.crashBound.limit,
            })),
        },
        switch_history: history.map((h) => ({
            seq: h.seq,
            switch: h.switch,
            state: JSON.stringify(h.state),
            kind: h.kind,
            actor: h.actor,
            reason: h.reason,
            at: status_iso(h.at === 0 ? began : h.at),
        })),
        installations: installations.map((i) => ({
            installation_id: i.installation_id,
            account: i.account,
            mode: i.mode,
            promoted_at: status_iso(i.promoted_at === null ? null : Number(i.promoted_at)),
        })),
        github_budget: await gitHubBudget(store, now),
        refused_runs: refusedRuns.map((r) => ({
            repository: r.repository,
            run_id: r.run_id,
            run_attempt: r.run_attempt,
            role: r.role,
            event: r.event,
            head_sha: r.head_sha,
            dual_run: r.dual_run_id,
            code: r.code,
            reason: r.reason,
            at: new Date(r.refused_at).toISOString(),
        })),
        audit_runs: auditRuns.map((a) => ({
            repository: a.repository,
            run_id: a.run_id,
            run_attempt: a.run_attempt,
            branch: a.branch,
            head_sha: a.head_sha,
            state: a.state,
            code: a.code,
            reason: a.reason,
            at: new Date(a.recorded_at).toISOString(),
        })),
        envelope_prs: envelopePrs.map((e) => ({
            repository: e.repository,
            branch: e.branch,
            base: e.base_ref,
            state: e.state,
            mode: e.mode,
            pull: e.pr_number,
            url: e.pr_url,
            commit: e.commit_sha,
            runs: e.runs,
            code: e.outcome_code,
            detail: e.outcome_detail,
            updated_at: new Date(e.updated_at).toISOString(),
        })),
        org_envelopes: orgEnvelopes.map((o) => ({
            owner: o.owner,
            state: o.state,
            ceiling_id: o.ceiling_id,
            digest: o.digest,
            source_sha: o.source_sha,
            detail: o.detail,
            exceptions: jsonList(o.exceptions),
            changed_at: new Date(o.changed_at).toISOString(),
            read_at: new Date(o.read_at).toISOString(),
        })),
        ceiling_results: ceilingResults.map((c) => ({
            repository: c.repository,
            outcome: c.outcome,
            outside: ["widened", "unchecked", "invalid"].includes(c.outcome),
            current: c.digest === null || orgEnvelopes.find((o) => o.owner === c.owner)?.digest === c.digest,
            digest: c.digest,
            detail: jsonList(c.detail),
            exceptions: jsonList(c.exceptions),
            footprint: footprintOf(c.footprint),
            checked_at: new Date(c.checked_at).toISOString(),
        })),
        verified_checks: verified.map((c) => ({
            repository: c.repository,
            run_id: c.run_id,
            run_attempt: c.run_attempt,
            head_sha: c.head_sha,
            state: c.state,
            conclusion: c.conclusion,
            code: c.code,
            check_run_id: c.check_run_id,
        })),
        verified_heads: heads.map((h) => ({
            repository: h.repository,
            head_sha: h.head_sha,
            conclusion: h.conclusion,
            code: h.code,
            check_run_id: h.check_run_id,
            pulls: JSON.parse(h.pulls ?? "[]"),
            foreign_checks: JSON.parse(h.foreign_checks ?? "[]"),
            updated_at: new Date(h.updated_at).toISOString(),
        })),
        dual_runs_in_flight: inFlight.map((d) => ({
            id: d.id,
            repository: d.repository,
            head_sha: d.head_sha,
            state: d.state,
            properties: JSON.parse(d.properties),
            deadline_at: new Date(d.deadline_at).toISOString(),
            minutes_left: Math.floor((d.deadline_at - now) / 60_000),
            run_b_id: d.run_b_id,
        })),
        open_ledger_prs: opened.map((p) => {
            const waited = p.opened_at === null ? 0 : now - p.opened_at;
            return {
                freeze_id: p.freeze_id,
                repository: p.repository,
                property: p.property,
                pr_url: p.pr_url,
                opened_at: status_iso(p.opened_at),
                waiting_hours: Math.floor(waited / 3_600_000),
                reviewed: p.first_review_at !== null,
                overdue: reviewOverdue(p, now, options.reviewAlertMs),
                expires_on: p.expires_on,
            };
        }),
        refused_ledger_prs: refused.map((p) => ({
            freeze_id: p.freeze_id,
            repository: p.repository,
            property: p.property,
            branch: p.branch,
            pr_url: p.pr_url,
            state: p.state,
            code: p.outcome_code,
            detail: p.outcome_detail,
            at: status_iso(p.closed_at),
        })),
        shadow_proposals: shadowed.map((p) => ({
            freeze_id: p.freeze_id,
            repository: p.repository,
            property: p.property,
            branch: p.branch,
            expires_on: p.expires_on,
            row: p.row_text,
            proposed_at: new Date(p.created_at).toISOString(),
        })),
        freezes_expiring_soon: standing
            .filter((p) => p.expires_on > today && p.expires_on <= soon)
            .map((p) => ({
            freeze_id: p.freeze_id,
            repository: p.repository,
            property: p.property,
            expires_on: p.expires_on,
            state: p.state,
            days_left: Math.round((Date.parse(`${p.expires_on}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000),
        })),
        recent_decisions: recent.map((d) => {
            const web = repositoryWebUrl(d, options.githubApiUrl);
            return {
                id: d.id,
                repository: d.repository,
                outcome: d.outcome,
                code: d.outcome_code,
                detail: d.outcome_detail,
                decided_at: status_iso(d.decided_at),
                head_sha: d.head_sha,
                commit_url: web && `${web}/commit/${d.head_sha}`,
                pull_url: web && d.pull_number !== null ? `${web}/pull/${d.pull_number}` : null,
                check_run_url: web && d.check_run_id !== null ? `${web}/runs/${d.check_run_id}` : null,
            };
        }),
        deliveries: {
            total: deliveries.total,
            last_received_at: status_iso(deliveries.last_received_at),
            failed: deliveries.failed.map((d) => deliveryLine(d, (0,core_errors/* hintOf */.$z)(d.error_code, where))),
            stuck: deliveries.stuck.map((d) => deliveryLine(d, STUCK_ACTION)),
            refused_paused: deliveries.refused_paused.map((d) => deliveryLine(d, (0,core_errors/* hintOf */.$z)("KILL_SWITCH_ENGAGED"))),
            deferred: deliveries.deferred.map((d) => ({
                ...deliveryLine(d, (0,core_errors/* hintOf */.$z)("GITHUB_BUDGET_LOW")),
                resumes_at: status_iso(d.not_before ?? null),
            })),
        },
        intake: intake && {
            last_request_at: status_iso(intake.last_request_at),
            last_accepted_at: status_iso(intake.last_accepted_at),
            refused: { ...intake.refused },
            last_refused: intake.last_refused && { ...intake.last_refused, at: new Date(intake.last_refused.at).toISOString() },
        },
        replicas: beats.map((b) => ({ replica_id: b.replica_id, last_health_check: new Date(b.beat_at).toISOString() })),
        redelivery: await redeliverySnapshot(store, now),
        last_sweep: options.lastSweep
            ? {
                at: new Date(options.lastSweep.at).toISOString(),
                report: options.lastSweep.report,
                errors: options.lastSweep.report.errors.map((e) => ({ ...e, action: (0,core_errors/* hintOf */.$z)(e.code, where) })),
            }
            : null,
    };
}

;// CONCATENATED MODULE: ./src/core/payload-shape.ts
/**
 * The shape of each webhook payload, checked on arrival for the fields the App reads
 * (payloads.ts): a signed delivery whose payload GitHub could not have sent (`null`, a string
 * installation id, a workflow run without an id) is refused with WEBHOOK_PAYLOAD_INVALID and
 * nothing is stored, instead of failing later as INTERNAL_ERROR or recording a `NaN`.
 * Fields the App does not read are not checked; extra fields are always allowed.
 */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function kind(v) {
    if (v === null)
        return "null";
    if (Array.isArray(v))
        return "an array";
    return `a ${typeof v}`;
}
const str = (v, path, problems) => {
    if (typeof v !== "string")
        problems.push(`${path} must be a string, got ${kind(v)}`);
};
const id = (v, path, problems) => {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0)
        problems.push(`${path} must be a positive integer, got ${kind(v)}`);
};
const bool = (v, path, problems) => {
    if (typeof v !== "boolean")
        problems.push(`${path} must be a boolean, got ${kind(v)}`);
};
const nullable = (check) => (v, path, problems) => {
    if (v !== null)
        check(v, path, problems);
};
const fullName = (v, path, problems) => {
    if (typeof v !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(v))
        problems.push(`${path} must be "owner/name", got ${JSON.stringify(v)}`);
};
/** An object whose listed fields are checked; `?` after a name marks it optional. */
function obj(fields) {
    return (v, path, problems) => {
        if (!isObject(v)) {
            problems.push(`${path} must be an object, got ${kind(v)}`);
            return;
        }
        for (const [key, check] of Object.entries(fields)) {
            const optional = key.endsWith("?");
            const name = optional ? key.slice(0, -1) : key;
            if (v[name] === undefined) {
                if (!optional)
                    problems.push(`${path}.${name} is missing`);
                continue;
            }
            check(v[name], `${path}.${name}`, problems);
        }
    };
}
function arr(item) {
    return (v, path, problems) => {
        if (!Array.isArray(v)) {
            problems.push(`${path} must be an array, got ${kind(v)}`);
            return;
        }
        v.forEach((x, i) => item(x, `${path}[${i}]`, problems));
    };
}
const installation = obj({ id, "account?": nullable(obj({ "login?": str })) });
const repository = obj({ full_name: fullName, "owner?": obj({ "login?": str }) });
const repoEvent = { "installation?": installation, repository };
const workflowRun = obj({
    id,
    "run_attempt?": id,
    "path?": str,
    "event?": str,
    "head_branch?": nullable(str),
    "status?": nullable(str),
    "conclusion?": nullable(str),
    "head_sha?": str,
    "html_url?": str,
    "pull_requests?": arr(obj({ number: id, "base?": obj({ "ref?": str }) })),
});
const pullRequestEvent = obj({
    action: str,
    "before?": str,
    ...repoEvent,
    "sender?": nullable(obj({ "login?": str })),
    "label?": nullable(obj({ "name?": str })),
    "review?": nullable(obj({ id, "body?": nullable(str) })),
    pull_request: obj({
        number: id,
        "merged?": nullable(bool),
        head: obj({ ref: str, "sha?": str, "repo?": nullable(obj({ full_name: fullName })) }),
        "base?": obj({ "ref?": str }),
        "labels?": arr(obj({ "name?": str })),
    }),
});
const paths = arr(str);
/** Per event the App routes (service.ts), the fields it reads. Any other event: an object. */
const SHAPES = {
    workflow_run: obj({ action: str, ...repoEvent, workflow_run: workflowRun }),
    push: obj({
        ref: str,
        after: str,
        ...repoEvent,
        "commits?": arr(obj({ "added?": paths, "modified?": paths, "removed?": paths })),
    }),
    pull_request: pullRequestEvent,
    pull_request_review: pullRequestEvent,
    installation: obj({ action: str, installation }),
    ping: obj({}),
};
/** What is wrong with a payload for `event` (at most 10 problems); empty when the App can read it. */
function payloadProblems(event, payload) {
    const problems = [];
    const check = SHAPES[event] ?? obj({ "installation?": installation });
    check(payload, "payload", problems);
    return problems.slice(0, 10);
}

;// CONCATENATED MODULE: ./src/app/spool.ts





/** A body up to this size stays in memory; a larger one goes to a file until its signature is checked. */
const SPOOL_MEMORY_BYTES = 1024 * 1024;
let directory = null;
/** How many bodies this process has spooled to disk (for tests and diagnostics). */
const spoolStats = { files: 0 };
/** This process's spool directory (created on first use, files 0600, each removed once read or refused). */
function spoolDirectory() {
    directory ??= (0,external_node_fs_.mkdtempSync)((0,external_node_path_.join)((0,external_node_os_.tmpdir)(), "envelope-gate-spool-"));
    return directory;
}
/**
 * Reads a request body, handing each chunk to `onChunk` (the HMACs) as it arrives. Memory holds
 * at most SPOOL_MEMORY_BYTES of it: past that the body goes to a file in the spool directory,
 * the request paused while each chunk is written. Resolves null, leaving the rest unread, once
 * the body passes `maxBytes`.
 */
function spoolBody(req, maxBytes, onChunk) {
    return new Promise((resolve, reject) => {
        const memory = [];
        let size = 0;
        let file = null;
        let path = null;
        let writing = Promise.resolve();
        const remove = async () => {
            await file?.close().catch(() => undefined);
            file = null;
            if (path !== null)
                await (0,promises_.unlink)(path).catch(() => undefined);
        };
        const onData = (chunk) => {
            size += chunk.length;
            if (size > maxBytes) {
                req.off("data", onData);
                req.pause();
                void writing.then(remove, remove).then(() => resolve(null));
                return;
            }
            onChunk(chunk);
            if (file === null && path === null && size <= SPOOL_MEMORY_BYTES) {
                memory.push(chunk);
                return;
            }
            req.pause();
            writing = writing
                .then(async () => {
                if (file === null) {
                    path = (0,external_node_path_.join)(spoolDirectory(), (0,external_node_crypto_.randomUUID)());
                    file = await (0,promises_.open)(path, "wx", 0o600);
                    spoolStats.files++;
                    for (const m of memory.splice(0))
                        await file.write(m);
                }
                await file.write(chunk);
            })
                .then(() => void req.resume(), async (err) => {
                req.off("data", onData);
                await remove();
                reject(err);
            });
        };
        req.on("data", onData);
        req.once("error", (err) => void remove().then(() => reject(err)));
        req.once("end", () => {
            void writing.then(() => resolve({
                async read() {
                    if (path === null)
                        return Buffer.concat(memory);
                    await file?.close();
                    file = null;
                    try {
                        return await (0,promises_.readFile)(path);
                    }
                    finally {
                        await remove();
                    }
                },
                discard: remove,
            }));
        });
    });
}

;// CONCATENATED MODULE: ./src/app/webhook.ts






/** GitHub caps webhook payloads at 25 MB. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;
function sendJson(res, status, body, headers = {}) {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
    res.end(JSON.stringify(body));
}
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;
/**
 * X-Hub-Signature-256 check against every accepted secret (current first, then the previous
 * ones during a rotation), in constant time. Only sha256 is accepted.
 */
function verifySignature(secrets, body, header) {
    const macs = secrets.map((s) => createHmac("sha256", s).update(body));
    return signatureMatches(macs, header);
}
function signatureMatches(macs, header) {
    const m = SIGNATURE.exec(header ?? "");
    if (!m)
        return false;
    const given = Buffer.from(m[1], "hex");
    let ok = false;
    for (const mac of macs)
        if ((0,external_node_crypto_.timingSafeEqual)(mac.digest(), given))
            ok = true;
    return ok;
}
function signPayload(secret, body) {
    return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
function webhook_header(req, name) {
    const v = req.headers[name];
    return typeof v === "string" && v.trim() !== "" ? v : null;
}
/**
 * POST /webhook, refusing bad traffic as cheaply as possible: a declared length over 25 MB
 * before reading anything; a missing or malformed signature header, or missing delivery and
 * event headers, before reading the body; the body is streamed into the HMACs, held in memory
 * only up to 1 MiB and on disk past that (spool.ts) until the signature is verified, and only a
 * verified body is parsed, shape-checked and recorded (one store write) before the answer; the
 * work runs outside the request. The secrets are read from their source
 * for each delivery (a file edited to rotate them is used at once); one that cannot be read is
 * 503 SECRET_UNAVAILABLE before the body is read, never an accepted delivery nor a 401.
 * One JSON log line per answer (refused, queued, in_progress, duplicate, unrecorded); the work
 * logs its own outcome (done, failed).
 */
const SECRET_UNAVAILABLE_ANSWER = "the App cannot read its webhook secret right now; nothing was recorded. The cause is in the App's log (webhook.refused) and on its status page.";
class WebhookIntake {
    service;
    secrets;
    stats = { last_request_at: null, last_accepted_at: null, refused: {}, last_refused: null };
    constructor(service, secrets) {
        this.service = service;
        this.secrets = secrets;
    }
    async handle(req, res) {
        const now = this.service.clock.now();
        this.stats.last_request_at = now;
        const delivery = webhook_header(req, "x-github-delivery");
        const event = webhook_header(req, "x-github-event");
        this.service.log("debug", "webhook.received", { delivery, github_event: event, content_length: req.headers["content-length"] ?? null });
        const refuse = (code, message, extra = {}, close = false) => {
            this.stats.refused[code] = (this.stats.refused[code] ?? 0) + 1;
            this.service.metrics.webhookRefused(code);
            this.stats.last_refused = { at: now, code, message, delivery };
            this.service.log("warn", "webhook.refused", { code, message, delivery, github_event: event });
            // Anyone can reach /webhook unsigned: a secret's file path or its command's error stays in the log.
            const answer = code === "SECRET_UNAVAILABLE" ? { code, message: SECRET_UNAVAILABLE_ANSWER } : { code, message, ...extra };
            sendJson(res, (0,core_errors/* httpStatusOf */.s_)(code), { error: answer }, close ? { connection: "close" } : {});
            if (close)
                res.once("finish", () => req.destroy());
        };
        const declared = Number(req.headers["content-length"] ?? NaN);
        if (declared > MAX_BODY_BYTES) {
            return refuse("WEBHOOK_BODY_TOO_LARGE", `Content-Length ${declared} is over GitHub's 25 MB cap; the body was not read`, {}, true);
        }
        const signature = webhook_header(req, "x-hub-signature-256");
        if (signature === null || !SIGNATURE.test(signature)) {
            return refuse("WEBHOOK_SIGNATURE_INVALID", "X-Hub-Signature-256 is missing or not sha256=<64 hex>; the body was not read", {}, true);
        }
        if (delivery === null || event === null) {
            return refuse("WEBHOOK_HEADERS_MISSING", "X-GitHub-Delivery and X-GitHub-Event are required; the body was not read", {}, true);
        }
        let secrets;
        try {
            secrets = await this.secrets.read();
        }
        catch (err) {
            const gate = (0,core_errors/* isRefusal */.vu)(err) ? err : new core_errors/* Refusal */.P_("SECRET_UNAVAILABLE", String(err?.message ?? err));
            return refuse(gate.code, gate.message, gate.hint ? { hint: gate.hint } : {}, true);
        }
        const macs = secretLines(secrets).map((s) => (0,external_node_crypto_.createHmac)("sha256", s));
        secrets.fill(0);
        if (macs.length === 0)
            return refuse("SECRET_UNAVAILABLE", `${this.secrets.origin} holds no webhook secret`, {}, true);
        const spooled = await spoolBody(req, MAX_BODY_BYTES, (chunk) => {
            for (const mac of macs)
                mac.update(chunk);
        });
        if (spooled === null) {
            return refuse("WEBHOOK_BODY_TOO_LARGE", "the webhook body is over GitHub's 25 MB cap; the rest was not read", {}, true);
        }
        if (!signatureMatches(macs, signature)) {
            await spooled.discard();
            return refuse("WEBHOOK_SIGNATURE_INVALID", "X-Hub-Signature-256 does not match any configured webhook secret");
        }
        const body = await spooled.read();
        let payload;
        try {
            payload = JSON.parse(body.toString("utf8"));
        }
        catch {
            return refuse("WEBHOOK_BODY_NOT_JSON", "the webhook body is not JSON");
        }
        const problems = payloadProblems(event, payload);
        if (problems.length > 0) {
            return refuse("WEBHOOK_PAYLOAD_INVALID", `the ${event} payload is not one GitHub sends: ${problems[0]}`, { problems });
        }
        this.stats.last_accepted_at = now;
        try {
            // One store write, then the answer: the work runs outside the request (service.accept).
            const answer = await this.service.accept(delivery, event, payload, body.toString("utf8"));
            this.service.log("info", `delivery.${answer.status}`, { delivery, github_event: event, outcome: answer.outcome });
            this.service.metrics.deliveryReceived(event, answer.status);
            return sendJson(res, answer.status === "duplicate" ? 200 : 202, { delivery, ...answer });
        }
        catch (err) {
            // Nothing was recorded (the store did not take the write): an honest 503, and the
            // redelivery sweep asks GitHub for this delivery again once the store is back.
            const gate = shellRefusal(err, "record the delivery");
            this.service.log("error", "delivery.unrecorded", {
                delivery,
                github_event: event,
                code: gate.code,
                message: gate.message,
                ...(gate.hint ? { hint: gate.hint } : {}),
            });
            return sendJson(res, (0,core_errors/* httpStatusOf */.s_)(gate.code), { delivery, error: gate.toJSON() });
        }
    }
}

;// CONCATENATED MODULE: ./src/app/server.ts







function sendHtml(res, status, html) {
    res.writeHead(status, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": STATUS_PAGE_CSP,
        "x-content-type-options": "nosniff",
    });
    res.end(html);
}
/**
 * The App's HTTP surface: POST /webhook, GET /healthz, GET /metrics (Prometheus), GET /status
 * (HTML) and /status.json, and GET /status/deliveries/<id>.json (what became of one delivery).
 */
/** A refusal answered with its code's status from the error table (a code outside it does not compile). */
function answerRefusal(res, refusal) {
    sendJson(res, (0,core_errors/* httpStatusOf */.s_)(refusal.code), { error: refusal.toJSON() });
}
function createAppServer(options) {
    const { service } = options;
    const intake = new WebhookIntake(service, options.secrets);
    const handle = async (req, res) => {
        const url = new URL(req.url ?? "/", "http://app.invalid");
        const method = req.method ?? "GET";
        if (method === "POST" && (url.pathname === "/webhook" || url.pathname === "/api/github/webhooks")) {
            return intake.handle(req, res);
        }
        if (method === "GET" && url.pathname === "/metrics") {
            const scraped = await service.metrics.scrape();
            service.log("debug", "metrics.scraped", { bytes: scraped.text.length });
            res.writeHead(200, { "content-type": scraped.contentType, "cache-control": "no-store" });
            res.end(scraped.text);
            return;
        }
        if (method === "GET" && url.pathname === "/healthz") {
            const health = await checkHealth(service.store, service.settings.replicaId, options.storeLabel, service.clock.now());
            return sendJson(res, health.status, health.body);
        }
        if (method === "GET" && (url.pathname === "/status" || url.pathname === "/status.json" || url.pathname === "/")) {
            const now = service.clock.now();
            try {
                const snapshot = await statusSnapshot(service.store, now, {
                    storeLabel: options.storeLabel,
                    reviewAlertMs: options.reviewAlertMs,
                    budget: service.settings.budget,
                    crashBound: options.crashBound,
                    lastSweep: service.lastSweep,
                    githubApiUrl: options.githubApiUrl,
                    intake: intake.stats,
                });
                if (url.pathname === "/status.json")
                    return sendJson(res, 200, snapshot);
                return sendHtml(res, 200, renderStatusHtml(snapshot, now));
            }
            catch (err) {
                const gate = shellRefusal(err, "build the status page");
                if (url.pathname === "/status.json")
                    return sendJson(res, 503, { error: gate.toJSON() });
                return sendHtml(res, 503, renderStoreDownHtml(now, options.storeLabel, gate));
            }
        }
        const one = /^\/status\/deliveries\/([^/]+)\.json$/.exec(url.pathname);
        if (method === "GET" && one) {
            try {
                const line = await deliveryStatus(service.store, decodeURIComponent(one[1]), options.githubApiUrl);
                if (line === null)
                    return answerRefusal(res, new core_errors/* Refusal */.P_("NOT_FOUND", "no delivery with this id is recorded"));
                return sendJson(res, 200, line);
            }
            catch (err) {
                const gate = shellRefusal(err, "read the delivery");
                return sendJson(res, 503, { error: gate.toJSON() });
            }
        }
        return answerRefusal(res, new core_errors/* Refusal */.P_("NOT_FOUND", `${method} ${url.pathname}`));
    };
    const server = (0,external_node_http_.createServer)({
        headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
        requestTimeout: options.requestTimeoutMs,
        // How often Node checks those two timeouts (its default, 30 s, would let them overrun).
        connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 4))),
    }, (req, res) => {
        handle(req, res).catch((err) => {
            if (!res.headersSent)
                sendJson(res, 500, { error: new core_errors/* Refusal */.P_("INTERNAL_ERROR", String(err?.message ?? err)).toJSON() });
            else
                res.destroy();
        });
    });
    server.maxConnections = options.maxConnections;
    return server;
}
async function listen(server, port, host) {
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
            server.off("error", reject);
            resolve();
        });
    });
    return server.address();
}

// EXTERNAL MODULE: ./node_modules/prom-client/index.js
var prom_client = __webpack_require__(5222);
;// CONCATENATED MODULE: ./src/app/metrics.ts
/**
 * GET /metrics: the App's counters in Prometheus' text format (prom-client). Each App instance
 * has its own registry, never prom-client's global one, so several Apps in one process (the
 * tests) do not share counters. Budgets are read from the store at each scrape.
 */


const PREFIX = "envelope_gate_";
class AppMetrics {
    registry = new prom_client.Registry();
    received;
    refused;
    processed;
    failed;
    verdicts;
    redeliveryPasses;
    redeliveriesRequested;
    storeSeconds;
    constructor(budget = null) {
        const registers = [this.registry];
        (0,prom_client.collectDefaultMetrics)({ register: this.registry, prefix: PREFIX });
        this.received = new prom_client.Counter({
            name: `${PREFIX}deliveries_received_total`,
            help: "Signed deliveries taken at /webhook, by GitHub event and the answer given (queued, in_progress, duplicate).",
            labelNames: ["github_event", "answer"],
            registers,
        });
        this.refused = new prom_client.Counter({
            name: `${PREFIX}webhook_refused_total`,
            help: "Requests to /webhook refused before anything was recorded, by error code.",
            labelNames: ["code"],
            registers,
        });
        this.processed = new prom_client.Counter({
            name: `${PREFIX}deliveries_processed_total`,
            help: "Deliveries whose work ran in this process, by GitHub event and status (done, duplicate, queued: set aside by a pause).",
            labelNames: ["github_event", "status"],
            registers,
        });
        this.failed = new prom_client.Counter({
            name: `${PREFIX}deliveries_failed_total`,
            help: "Deliveries whose work failed in this process, by GitHub event and error code.",
            labelNames: ["github_event", "code"],
            registers,
        });
        this.verdicts = new prom_client.Counter({
            name: `${PREFIX}verdicts_total`,
            help: "Verified checks made for gate runs, by conclusion and error code (empty for none).",
            labelNames: ["conclusion", "code"],
            registers,
        });
        this.redeliveryPasses = new prom_client.Counter({
            name: `${PREFIX}redelivery_passes_total`,
            help: "Redelivery sweep passes this process ran, by why one did nothing (off, paused, busy; empty: it ran).",
            labelNames: ["skipped"],
            registers,
        });
        this.redeliveriesRequested = new prom_client.Counter({
            name: `${PREFIX}redeliveries_requested_total`,
            help: "Failed deliveries the redelivery sweep asked GitHub to deliver again.",
            registers,
        });
        this.storeSeconds = new prom_client.Histogram({
            name: `${PREFIX}store_operation_seconds`,
            help: "Time each store call took, by store method and outcome (ok, error).",
            labelNames: ["operation", "outcome"],
            buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
            registers,
        });
        if (budget !== null) {
            let reading = null;
            // One store read per scrape, shared by the gauges below (a scrape collects them at once).
            const rows = () => {
                reading ??= (async () => {
                    const store = budget.store();
                    if (store === null)
                        return [];
                    try {
                        return (await budgetSnapshot(store, budget.policy, budget.now())).scopes;
                    }
                    catch {
                        return null;
                    }
                })().finally(() => (reading = null));
                return reading;
            };
            new prom_client.Gauge({
                name: `${PREFIX}budget_readable`,
                help: "1 when this scrape read runner B's budgets from the store, 0 when it could not (the budget gauges are then empty).",
                registers,
                async collect() {
                    this.set((await rows()) === null ? 0 : 1);
                },
            });
            const gauge = (name, help, pick) => new prom_client.Gauge({
                name: `${PREFIX}${name}`,
                help,
                labelNames: ["scope"],
                registers,
                async collect() {
                    const scopes = (await rows()) ?? [];
                    this.reset();
                    for (const row of scopes)
                        this.set({ scope: row.scope }, pick(row));
                },
            });
            gauge("runner_b_dispatches_used", "Runner-B dispatches reserved today (UTC), per installation and repository scope.", (r) => r.dispatches_used);
            gauge("runner_b_dispatches_left", "Runner-B dispatches left today under the scope's cap.", (r) => r.dispatches_left);
            gauge("runner_b_minutes_charged", "Runner-B minutes charged today (UTC), per scope.", (r) => r.minutes_charged);
            gauge("runner_b_minutes_left", "Runner-B minutes left today under the scope's cap.", (r) => r.minutes_left);
        }
    }
    deliveryReceived(githubEvent, answer) {
        this.received.inc({ github_event: githubEvent, answer });
    }
    webhookRefused(code) {
        this.refused.inc({ code });
    }
    deliveryProcessed(githubEvent, status) {
        this.processed.inc({ github_event: githubEvent, status });
    }
    deliveryFailed(githubEvent, code) {
        this.failed.inc({ github_event: githubEvent, code });
    }
    redeliveryPass(report) {
        if (report === null)
            return;
        this.redeliveryPasses.inc({ skipped: report.skipped ?? "" });
        this.redeliveriesRequested.inc(report.requested.length);
    }
    /** The App's log, with the lines that are metrics counted: a gate run's verified check is a verdict. */
    counting(log) {
        return (level, event, fields = {}) => {
            if (event === "verified_check.run") {
                this.verdicts.inc({ conclusion: String(fields.conclusion ?? ""), code: String(fields.code ?? "") });
            }
            log(level, event, fields);
        };
    }
    /** The store, each of its calls timed (its nested parts, such as `store.budget`, are left as they are). */
    timing(store) {
        const seconds = this.storeSeconds;
        return new Proxy(store, {
            get(target, prop) {
                const value = Reflect.get(target, prop);
                if (typeof value !== "function" || typeof prop !== "string")
                    return value;
                return (...args) => {
                    const end = seconds.startTimer({ operation: prop });
                    let result;
                    try {
                        result = value.apply(target, args);
                    }
                    catch (err) {
                        end({ outcome: "error" });
                        throw err;
                    }
                    if (!(result instanceof Promise))
                        return result;
                    return result.then((v) => {
                        end({ outcome: "ok" });
                        return v;
                    }, (err) => {
                        end({ outcome: "error" });
                        throw err;
                    });
                };
            },
        });
    }
    /** The text a scrape gets, and its content type. */
    async scrape() {
        return { contentType: this.registry.contentType, text: await this.registry.metrics() };
    }
}

// EXTERNAL MODULE: external "node:async_hooks"
var external_node_async_hooks_ = __webpack_require__(6698);
;// CONCATENATED MODULE: ./src/core/gate-memory.ts

/**
 * A pull request stays gated (docs/app.md, "Gated pull requests"). The Action decides whether
 * it gates a pull request from its author and labels at each run, and a run it does not gate
 * leaves no evidence: removing the agent label would turn a failing verified check into a
 * passing neutral one. The App remembers every pull request that carried the label or whose
 * verified run was gated, and a run of it without evidence fails until an envelope reviewer
 * ungates its head commit with a review whose body has the line `/envelope-gate ungate`.
 */
const UNGATE_COMMAND = "/envelope-gate ungate";
/** Whether a review body carries the command on a line of its own (case and surrounding blanks aside). */
function hasUngateCommand(body) {
    return (body ?? "").split(/\r?\n/).some((line) => line.trim().toLowerCase() === UNGATE_COMMAND);
}
/** Why a review with the command does not ungate, or null when it does. */
function ungateRefusal(review, who) {
    const login = review.login.toLowerCase();
    if (!who.reviewers.some((r) => r.toLowerCase() === login)) {
        return `@${review.login} is not an envelope reviewer (ENVELOPE_GATE_REVIEWERS: ${who.reviewers.join(", ") || "none"})`;
    }
    if (who.author !== null && who.author.toLowerCase() === login)
        return `@${review.login} wrote the pull request`;
    if (review.state !== "APPROVED" && review.state !== "COMMENTED")
        return `the review is ${review.state.toLowerCase()}`;
    if (review.commitId !== who.headSha) {
        return `the review is of ${String(review.commitId ?? "no commit").slice(0, 12)}, the head is ${who.headSha.slice(0, 12)}`;
    }
    return null;
}
/** The latest review that ungates the head, or null; each refused command with why. */
function ungateOf(reviews, who) {
    const refused = [];
    let found = null;
    for (const review of reviews) {
        if (!hasUngateCommand(review.body))
            continue;
        const reason = ungateRefusal(review, who);
        if (reason !== null)
            refused.push({ review, reason });
        else if (found === null || review.id > found.id)
            found = review;
    }
    return { review: found, refused };
}
/** Why a `pull_request` event shows the pull request gated by the label, or null. */
function labelGateReason(event, agentLabel) {
    if (agentLabel === "")
        return null;
    const is = (name) => typeof name === "string" && name.toLowerCase() === agentLabel.toLowerCase();
    const by = event.sender ? ` by @${event.sender}` : "";
    if (event.action === "unlabeled" && is(event.label?.name))
        return `the label "${agentLabel}" was removed${by}`;
    if (event.action === "labeled" && is(event.label?.name))
        return `the label "${agentLabel}" was added${by}`;
    if ((event.labels ?? []).some((l) => is(l.name)))
        return `the pull request carried the label "${agentLabel}"`;
    return null;
}
/**
 * The verdict of a successful verified run that left no evidence: `neutral` (not gated) for a pull
 * request the App never held gated, else as gatedRunCheck says. The one verdict the gate memory and
 * the reviews decide, so it is made again when either changes (dependsOnGate).
 */
function noEvidenceCheck(gate, runLine) {
    if (gate !== null)
        return gatedRunCheck(gate, runLine);
    return {
        conclusion: "neutral",
        code: null,
        title: "Not gated: the run left no evidence",
        summary: `The base's gate workflow ran and concluded success without an evidence bundle: the pinned Action judged nothing (a pull request it does not gate).\n\n${(0,markdown/* mdText */.bC)(runLine)}`,
    };
}
/**
 * Whether a recorded verdict is noEvidenceCheck's: nothing else makes a `neutral` verdict or
 * VERIFIED_CHECK_STILL_GATED (a run with evidence, or refused, is judged on that alone).
 */
function dependsOnGate(v) {
    return v.conclusion === "neutral" || v.code === "VERIFIED_CHECK_STILL_GATED";
}
/** The verified check of a successful run without evidence on a pull request the App holds gated. */
function gatedRunCheck(gate, runLine) {
    const refused = gate.refused.length > 0 ? `\n\nNot an ungate: ${gate.refused.map((r) => (0,markdown/* mdText */.bC)(r)).join("; ")}.` : "";
    if (gate.ungate !== null) {
        return {
            conclusion: "neutral",
            code: null,
            title: `Not gated: ungated by ${gate.ungate.by}`,
            summary: `${(0,markdown/* mdText */.bC)(`This pull request was gated (${gate.reason}). The envelope reviewer @${gate.ungate.by} ungated this commit (review ${gate.ungate.reviewId}); the run left no evidence.`)}\n\n${(0,markdown/* mdText */.bC)(runLine)}`,
        };
    }
    return {
        conclusion: "failure",
        code: "VERIFIED_CHECK_STILL_GATED",
        title: "Not verified: the pull request is still gated",
        summary: `${(0,markdown/* mdCode */.xs)("VERIFIED_CHECK_STILL_GATED")}: ${(0,markdown/* mdText */.bC)(`this pull request was gated (${gate.reason}), and this run left no evidence. A pull request stays gated when its label is removed: an envelope reviewer ungates its head commit with a review whose body has the line ${UNGATE_COMMAND}.`)}${refused}\n\n${(0,markdown/* mdText */.bC)(runLine)}`,
    };
}

;// CONCATENATED MODULE: ./src/core/payloads.ts
/** The parts of GitHub's webhook payloads the App reads; every field may be missing. */
/**
 * The repository, pull request number, head branch and head repository a `pull_request` or
 * `pull_request_review` payload names (`headRepository` null when GitHub sends no head repository,
 * as for a deleted fork).
 */
function pullRequestHead(p) {
    const repository = p.repository?.full_name;
    const number = p.pull_request?.number;
    const branch = p.pull_request?.head?.ref;
    if (!repository || typeof number !== "number" || !branch)
        return null;
    return {
        repository,
        number,
        branch,
        headRepository: p.pull_request?.head?.repo?.full_name ?? null,
        headSha: p.pull_request?.head?.sha ?? null,
    };
}

;// CONCATENATED MODULE: ./src/app/gate-memory.ts



/**
 * The App's memory of gated pull requests (core/gate-memory.ts decides; docs/app.md, "Gated pull
 * requests"). A pull request is recorded gated when a `pull_request` event shows the agent label
 * on it (added, removed, or carried), and when a verified run of it left evidence (the Action
 * gated it). Ungating is read from GitHub's reviews list when a run's verdict is decided, and again
 * when an event of the pull request may change a verdict the memory decides (verified-check.ts
 * onGateChange); the review event records it early with the reviewer's name.
 */
/** `pull_request` (any action): records the pull request gated when the event shows the agent label. */
async function rememberLabel(ctx, p) {
    const head = pullRequestHead(p);
    if (head === null)
        return null;
    const reason = labelGateReason({ action: p.action, label: p.label ?? null, labels: p.pull_request?.labels ?? [], sender: p.sender?.login ?? null }, ctx.settings.agentLabel);
    if (reason === null)
        return null;
    if (!(await ctx.store.gated.markGated(head.repository, head.number, reason, ctx.clock.now())))
        return null;
    ctx.log("info", "pull.gated", { repository: head.repository, pull: head.number, reason });
    return `pull request #${head.number} gated: ${reason}`;
}
/**
 * `pull_request_review`: a review whose body has the ungate command, read again from GitHub, by
 * an envelope reviewer on the pull request's current head, records the ungate; a dismissed one
 * withdraws it. Null when the review is no ungate command.
 */
async function onUngateReview(ctx, p) {
    const head = pullRequestHead(p);
    const reviewId = p.review?.id;
    if (head === null || typeof reviewId !== "number")
        return null;
    if (p.action === "dismissed") {
        const cleared = await ctx.store.gated.clearUngate(head.repository, head.number, reviewId);
        if (cleared)
            ctx.log("warn", "pull.ungate_withdrawn", { repository: head.repository, pull: head.number, review: reviewId });
        return cleared ? `review ${reviewId} dismissed: pull request #${head.number} is gated again` : null;
    }
    if (p.action !== "submitted" || !hasUngateCommand(p.review?.body))
        return null;
    if ((await ctx.store.gated.get(head.repository, head.number)) === null)
        return `ungate: pull request #${head.number} is not gated`;
    const installationId = p.installation?.id;
    if (installationId === undefined)
        return null;
    const gh = await ctx.installation(installationId);
    const r = repoRef(head.repository);
    const [pull, reviews] = await Promise.all([gh.readPull(r, head.number), gh.listReviews(r, head.number)]);
    const review = reviews.find((x) => x.id === reviewId);
    const reason = pull === null || review === undefined
        ? `GitHub does not list review ${reviewId} of pull request #${head.number}`
        : ungateRefusal(review, { reviewers: ctx.settings.reviewers, author: pull.user?.login ?? null, headSha: pull.head.sha });
    if (reason !== null || review === undefined || pull === null) {
        ctx.log("warn", "pull.ungate_refused", {
            repository: head.repository,
            pull: head.number,
            review: reviewId,
            code: "UNGATE_REFUSED",
            reason,
        });
        return `refused: UNGATE_REFUSED: ${reason}`;
    }
    await ctx.store.gated.recordUngate(head.repository, head.number, {
        by: review.login,
        review_id: review.id,
        head_sha: pull.head.sha,
        at: ctx.clock.now(),
    });
    ctx.log("info", "pull.ungated", {
        repository: head.repository,
        pull: head.number,
        by: review.login,
        review: review.id,
        head: pull.head.sha,
    });
    return `pull request #${head.number} ungated by @${review.login} at ${pull.head.sha.slice(0, 12)}`;
}
/**
 * For a verified run's check: a run that left evidence records its pull request gated (null);
 * a successful run without evidence gets gateOf its pull request and head.
 */
async function gateFacts(ctx, gh, repository, a, evidence) {
    if (evidence.kind !== "missing") {
        if (evidence.kind === "bundle" && evidence.bundle.runner.mode === "audit")
            return null;
        if (await ctx.store.gated.markGated(repository, a.pullNumber, `run ${a.run.id} was gated`, ctx.clock.now())) {
            ctx.log("info", "pull.gated", { repository, pull: a.pullNumber, run: a.run.id });
        }
        return null;
    }
    if (a.run.conclusion !== "success")
        return null;
    return gateOf(ctx, gh, repository, { number: a.pullNumber, author: a.pull.user?.login ?? null, headSha: a.headSha });
}
/**
 * A pull request the App holds gated, with the ungate GitHub's reviews show for `headSha` now
 * (recorded when found) and the refused commands; null when it was never gated.
 */
async function gateOf(ctx, gh, repository, pull) {
    const memory = await ctx.store.gated.get(repository, pull.number);
    if (memory === null)
        return null;
    const reviews = await gh.listReviews(repoRef(repository), pull.number);
    const { review, refused } = ungateOf(reviews, { reviewers: ctx.settings.reviewers, author: pull.author, headSha: pull.headSha });
    if (review !== null) {
        await ctx.store.gated.recordUngate(repository, pull.number, {
            by: review.login,
            review_id: review.id,
            head_sha: pull.headSha,
            at: ctx.clock.now(),
        });
    }
    return {
        reason: memory.reason,
        ungate: review === null ? null : { by: review.login, reviewId: review.id },
        refused: refused.map((x) => `review ${x.review.id} by @${x.review.login}: ${x.reason}`),
    };
}

;// CONCATENATED MODULE: ./src/core/verified-head.ts


/** The line naming the run a pull request's verdict is from (the same from the run as from its recorded verdict). */
function runLine(r) {
    return `Run ${r.runId} (attempt ${r.attempt}) of ${r.workflowPath}, on ${r.headSha} for pull request #${r.pullNumber} into ${r.baseRef} (${r.baseSha}).`;
}
/** Each pull request's own part of a summary is cut here, so many of them still fit GitHub's 65,535 characters. */
const PER_PULL_SUMMARY_MAX = 6000;
/** Which verdict speaks for each open pull request: the one recorded against the base it targets now. */
function judge(pulls, verdicts) {
    const byPull = new Map(verdicts.map((v) => [v.pull_number, v]));
    return [...pulls]
        .sort((a, b) => a.number - b.number)
        .map((pull) => {
        const v = byPull.get(pull.number) ?? null;
        return v !== null && v.base_ref === pull.baseRef ? { pull, verdict: v, stale: null } : { pull, verdict: null, stale: v };
    });
}
const into = (p) => `pull request #${p.number} into ${p.baseRef}${p.headRepository === null ? " (its head repository is gone)" : ""}`;
function line(j) {
    const name = `${(0,markdown/* mdText */.bC)(`#${j.pull.number}`)} into ${(0,markdown/* mdCode */.xs)(j.pull.baseRef)}`;
    if (j.verdict !== null) {
        const v = j.verdict;
        const code = v.code === null ? "" : ` (${(0,markdown/* mdCode */.xs)(v.code)})`;
        return `- ${name}: **${v.conclusion}**${code}: ${(0,markdown/* mdText */.bC)(v.title)} (run ${v.run_id}, attempt ${v.run_attempt}, base ${(0,markdown/* mdCode */.xs)(v.base_sha.slice(0, 12))})`;
    }
    const why = j.stale !== null
        ? `its latest verified run (${j.stale.run_id}) judged it against ${(0,markdown/* mdCode */.xs)(j.stale.base_ref)}; it targets ${(0,markdown/* mdCode */.xs)(j.pull.baseRef)} now`
        : "no verified run of the base's gate on this commit yet";
    return `- ${name}: **not verified** (${(0,markdown/* mdCode */.xs)("VERIFIED_CHECK_PULL_UNVERIFIED")}): ${why}`;
}
function foreignLines(foreign, checkName) {
    if (foreign.length === 0)
        return [];
    const items = foreign.map((f) => `- check run ${f.id} by ${(0,markdown/* mdCode */.xs)(f.app_slug ?? "an unknown app")} (app id ${f.app_id ?? "none"}), ${(0,markdown/* mdText */.bC)(f.conclusion ?? "not completed")}${f.external_id ? `, external id ${(0,markdown/* mdCode */.xs)(f.external_id)}` : ""}`);
    return [
        `**Not this App's, never counted:** ${foreign.length === 1 ? "a check run" : `${foreign.length} check runs`} on this commit named ${(0,markdown/* mdCode */.xs)(checkName)} that another source posted (a job token can post any name). Require ${(0,markdown/* mdCode */.xs)(checkName)} with this App as its source (the ruleset's \`integration_id\`).\n\n${items.join("\n")}`,
    ];
}
/** The check for `head`: the open pull requests GitHub lists on it, their verdicts, the foreign checks of the same name. */
function headCheck(pulls, verdicts, foreign, checkName) {
    const judged = judge(pulls, verdicts);
    const failing = judged.filter((j) => j.verdict?.conclusion === "failure");
    const missing = judged.filter((j) => j.verdict === null);
    const passing = judged.filter((j) => j.verdict?.conclusion === "success");
    const conclusion = failing.length > 0 || missing.length > 0 ? "failure" : passing.length > 0 ? "success" : "neutral";
    const first = failing[0]?.verdict?.code ?? null;
    const code = failing.length > 0
        ? first !== null && (0,core_errors/* isErrorCode */.We)(first)
            ? first
            : null
        : missing.length > 0
            ? "VERIFIED_CHECK_PULL_UNVERIFIED"
            : null;
    const only = judged.length === 1 ? judged[0] : null;
    let title;
    if (only?.verdict)
        title = only.verdict.title;
    else if (failing.length > 0)
        title = `Not verified: ${into(failing[0].pull)} fails${judged.length > 1 ? ` (${failing.length} of ${judged.length} open pull requests on this commit)` : ""}`;
    else if (missing.length > 0)
        title = `Not verified: ${into(missing[0].pull)} has no verified run against its base on this commit`;
    else if (conclusion === "success")
        title = `Verified: the base's gate passed for each of the ${judged.length} open pull requests on this commit`;
    else
        title = `Not gated: none of the ${judged.length} open pull requests on this commit is gated`;
    const header = judged.length === 1
        ? `The one open pull request on this commit, against its current base:`
        : `This check belongs to the commit, so it is the conjunction of the ${judged.length} open pull requests on it, each against its own current base:`;
    const details = judged
        .filter((j) => j.verdict !== null)
        .map((j) => `### ${(0,markdown/* mdText */.bC)(`#${j.pull.number}`)} into ${(0,markdown/* mdCode */.xs)(j.pull.baseRef)}\n\n${(0,markdown/* clipMarkdown */._n)(j.verdict.summary, PER_PULL_SUMMARY_MAX, "…")}`);
    return {
        conclusion,
        code,
        title: (0,markdown/* plainText */.wh)(title, 255),
        summary: [...foreignLines(foreign, checkName), `${header}\n\n${judged.map(line).join("\n")}`, ...details].join("\n\n"),
    };
}

// EXTERNAL MODULE: ./node_modules/fflate/esm/index.mjs
var fflate_esm = __webpack_require__(1306);
;// CONCATENATED MODULE: ./src/core/evidence.ts
/**
 * The evidence bundle: a directory of files plus manifest.json (the sha256 of every other file,
 * keys sorted) and manifest.json.sha256. The bundle's digest is sha256 of the manifest bytes.
 * Pure: the caller reads and writes the files.
 */



const MANIFEST_FILE = "manifest.json";
const MANIFEST_DIGEST_FILE = "manifest.json.sha256";
const EVIDENCE_ARTIFACT_NAME = "envelope-gate-evidence";
const EVIDENCE_FILES = {
    observerLog: "observer.jsonl",
    envelopeDigest: "envelope.json.sha256",
    properties: "properties.json",
    runner: "runner.json",
    verdict: "verdict.json",
};
/**
 * Files only an audit run's bundle has (besides every one of EVIDENCE_FILES): the suggested
 * envelope and its `sha256sum` line (naming `envelope.json`, the file it is meant to become).
 */
const AUDIT_EVIDENCE_FILES = {
    suggestedEnvelope: "suggested-envelope.json",
    suggestedEnvelopeDigest: "suggested-envelope.json.sha256",
};
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
function checkName(name) {
    if (!NAME.test(name) || name === MANIFEST_FILE || name === MANIFEST_DIGEST_FILE) {
        throw new Refusal("EVIDENCE_DIGEST_MISMATCH", `"${name}" cannot be an evidence file name (flat names only, not the manifest's own)`);
    }
}
/** Builds manifest.json for these files (everything except the manifest itself). */
function buildManifest(files) {
    const names = [...files.keys()].sort();
    const entries = {};
    for (const name of names) {
        checkName(name);
        entries[name] = `sha256:${sha256Hex(files.get(name))}`;
    }
    const manifest = { version: 1, files: entries };
    const bytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
    const hex = sha256Hex(bytes);
    return { manifest, bytes, digestLine: `${hex}  ${MANIFEST_FILE}\n`, digest: `sha256:${hex}` };
}
function mismatch(message) {
    throw new core_errors/* Refusal */.P_("EVIDENCE_DIGEST_MISMATCH", message, {
        hint: "The evidence bundle was altered or is incomplete; it is not used.",
    });
}
/**
 * Verifies a whole bundle: the manifest digest line, then every listed file's hash, and that
 * no file is missing or unlisted. Returns the bundle digest, or throws EVIDENCE_DIGEST_MISMATCH.
 */
function verifyBundle(files) {
    const manifestBytes = files.get(MANIFEST_FILE);
    if (manifestBytes === undefined)
        mismatch(`the bundle has no ${MANIFEST_FILE}`);
    const digestBytes = files.get(MANIFEST_DIGEST_FILE);
    if (digestBytes === undefined)
        mismatch(`the bundle has no ${MANIFEST_DIGEST_FILE}`);
    const hex = (0,core_envelope/* sha256Hex */.fg)(manifestBytes);
    const line = (0,core_envelope/* readDigestLine */.J$)(new TextDecoder().decode(digestBytes));
    if (!("hex" in line))
        mismatch(`${MANIFEST_DIGEST_FILE} is not one sha256sum line`);
    if (line.hex !== hex)
        mismatch(`${MANIFEST_FILE} has sha256 ${hex}, but ${MANIFEST_DIGEST_FILE} says ${line.hex}`);
    let manifest;
    try {
        manifest = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(manifestBytes));
    }
    catch {
        mismatch(`${MANIFEST_FILE} is not JSON`);
    }
    const m = manifest;
    if (typeof m !== "object" || m === null || m.version !== 1 || typeof m.files !== "object" || m.files === null || Array.isArray(m.files)) {
        mismatch(`${MANIFEST_FILE} is not {"version":1,"files":{...}}`);
    }
    const listed = m.files;
    for (const [name, expected] of Object.entries(listed)) {
        const bytes = files.get(name);
        if (bytes === undefined)
            mismatch(`${name} is listed in the manifest but missing from the bundle`);
        if (typeof expected !== "string" || expected !== `sha256:${(0,core_envelope/* sha256Hex */.fg)(bytes)}`) {
            mismatch(`${name} does not match its manifest hash`);
        }
    }
    for (const name of files.keys()) {
        if (name !== MANIFEST_FILE && name !== MANIFEST_DIGEST_FILE && !Object.hasOwn(listed, name)) {
            mismatch(`${name} is in the bundle but not in the manifest`);
        }
    }
    return { digest: `sha256:${hex}`, manifest: m };
}
function encodeJson(value) {
    return new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
}
function unusable(message) {
    throw new core_errors/* Refusal */.P_("EVIDENCE_UNAVAILABLE", message, { hint: "A run whose evidence cannot be read never counts toward a freeze." });
}
function parseJsonFile(files, name) {
    const bytes = files.get(name);
    if (bytes === undefined)
        unusable(`the evidence bundle has no ${name}`);
    try {
        return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    }
    catch {
        return unusable(`${name} in the evidence bundle is not JSON`);
    }
}
/**
 * Unzips an evidence artifact, verifies the manifest digest and every file's digest
 * (EVIDENCE_DIGEST_MISMATCH otherwise), and reads runner.json, properties.json, verdict.json.
 * Pure (the zip's bytes in, the bundle out): the App and the Action both read bundles with it.
 */
function readEvidenceZip(zip) {
    let entries;
    try {
        entries = (0,fflate_esm/* unzipSync */.AO)(zip);
    }
    catch (err) {
        return unusable(`the evidence artifact is not a readable zip (${err.message})`);
    }
    const files = new Map();
    for (const [name, bytes] of Object.entries(entries)) {
        if (name.endsWith("/"))
            continue;
        files.set(name, bytes);
    }
    const { digest, manifest } = verifyBundle(files);
    for (const required of Object.values(EVIDENCE_FILES)) {
        if (!(required in manifest.files)) {
            throw new core_errors/* Refusal */.P_("EVIDENCE_DIGEST_MISMATCH", `the evidence manifest does not cover ${required}`);
        }
    }
    const runner = parseJsonFile(files, EVIDENCE_FILES.runner);
    const props = parseJsonFile(files, EVIDENCE_FILES.properties);
    const verdict = parseJsonFile(files, EVIDENCE_FILES.verdict);
    if (typeof runner !== "object" || runner === null)
        unusable("runner.json is not an object");
    if (props.version !== 1 || !Array.isArray(props.properties))
        unusable('properties.json is not {"version":1,"properties":[...]}');
    for (const p of props.properties) {
        if (typeof p?.name !== "string" || !["pass", "fail", "error"].includes(String(p.result))) {
            unusable("properties.json has an entry without a name or with a result other than pass, fail, error");
        }
    }
    if (typeof verdict !== "object" || verdict === null || !["pass", "envelope_fail", "error"].includes(String(verdict.verdict))) {
        unusable("verdict.json has no verdict of pass, envelope_fail or error");
    }
    return { digest, runner, properties: props.properties, verdict };
}

;// CONCATENATED MODULE: ./src/core/run-checks.ts
/**
 * The events whose runs are runner A: GitHub runs both from the pull request's merge commit, with
 * the pull request as the run's only one (a review re-runs the gate: an approved policy change).
 */
const RUNNER_A_EVENTS = new Set(["pull_request", "pull_request_review"]);
/** Whether a run of this event is a runner A candidate (and gets the verified check). */
const isRunnerAEvent = (event) => RUNNER_A_EVENTS.has(event ?? "");
/** Events the App never takes as runner A, with why (docs/app.md, "Which runs count"). */
const EVENT_REASONS = {
    workflow_dispatch: "a workflow_dispatch run is started by whoever may dispatch, on any branch; only a pull_request or pull_request_review run is runner A",
    pull_request_target: "a pull_request_target run's workflow is the base's, but what it checks out and runs is up to that workflow; the App takes only pull_request and pull_request_review runs as runner A",
    merge_group: "a merge_group run checks a merge queue's commit, not a pull request's head",
    push: "a push run belongs to no pull request",
    schedule: "a scheduled run belongs to no pull request",
};
/** The gate workflow's path in the repository: `.github/workflows/<file>`. */
function gateWorkflowPath(workflow) {
    return `.github/workflows/${workflow}`;
}
/** The workflow path GitHub reports for a run, without a `@ref` suffix. */
function runPath(run) {
    return String(run.path ?? "").replace(/@.*$/, "");
}
const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
/**
 * Stage 1, from the run alone: the installation's repository, the gate workflow's path, a
 * `pull_request` (or `pull_request_review`) event from a branch of this repository, and exactly one pull request of this
 * repository. Returns that pull request's number (to be read again) or a refusal.
 */
function runnerARun(run, repository, workflow) {
    if (!same(run.repository?.full_name, repository)) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: `run ${run.id} belongs to ${run.repository?.full_name ?? "no repository"}, not ${repository}`,
        };
    }
    if (runPath(run) !== gateWorkflowPath(workflow)) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: `run ${run.id} ran ${runPath(run) || "no workflow file"}, not ${gateWorkflowPath(workflow)}`,
        };
    }
    if (!isRunnerAEvent(run.event)) {
        const why = EVENT_REASONS[run.event] ?? "only a pull_request or pull_request_review run is runner A";
        return { code: "RUNNER_A_EVENT_REFUSED", reason: `run ${run.id} is a ${run.event || "?"} run: ${why}` };
    }
    if (run.head_repository && run.head_repository.id !== run.repository.id) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: `run ${run.id} is for a branch of ${run.head_repository.full_name} (a fork): the App does not take fork pull requests as runner A`,
        };
    }
    const pulls = (run.pull_requests ?? []).filter((p) => p.base?.repo?.id === run.repository.id && p.head?.repo?.id === run.repository.id);
    if (pulls.length === 0) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: `GitHub names no pull request of ${repository} for run ${run.id} (a fork pull request, or the branch is in none)`,
        };
    }
    if (pulls.length > 1) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: `GitHub names ${pulls.length} pull requests for run ${run.id} (#${pulls.map((p) => p.number).join(", #")}): which one it judged is ambiguous`,
        };
    }
    return { pullNumber: pulls[0].number };
}
/** Stage 2: the pull request, read again, is open, of this repository, and its head is the run's commit. */
function runnerAPull(run, pull, repository, pullNumber) {
    if (pull === null)
        return { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pullNumber} does not exist` };
    if (!same(pull.base?.repo?.full_name, repository) || !same(pull.head?.repo?.full_name, repository)) {
        return { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pullNumber} is not from a branch of ${repository} into it` };
    }
    if (pull.state !== "open")
        return { code: "RUNNER_A_NOT_CURRENT_HEAD", reason: `pull request #${pullNumber} is ${pull.state}` };
    if (pull.head.sha !== run.head_sha) {
        return {
            code: "RUNNER_A_NOT_CURRENT_HEAD",
            reason: `run ${run.id} checked ${run.head_sha.slice(0, 12)}, pull request #${pullNumber}'s head is now ${pull.head.sha.slice(0, 12)}`,
        };
    }
    return null;
}
/**
 * Stage 3: the workflow file the run used is the base's. GitHub runs a pull_request workflow
 * from the merge of head into base, so a head whose workflow blob equals the base's ran the
 * base's file. A head that does not (it changed the file, or the base changed it since the
 * head branched) is refused: rebase the pull request.
 */
function runnerAWorkflow(path, atHead, atBase) {
    if (atBase === null || atBase.type !== "file") {
        return { code: "RUNNER_A_WORKFLOW_CHANGED", reason: `the base has no ${path}: the run's workflow file is not the base's` };
    }
    if (atHead === null || atHead.type !== "file" || atHead.sha !== atBase.sha) {
        return {
            code: "RUNNER_A_WORKFLOW_CHANGED",
            reason: `${path} at the head (${atHead === null ? "absent" : atHead.sha.slice(0, 12)}) is not the base's (${atBase.sha.slice(0, 12)}): the pull request's own workflow file ran`,
        };
    }
    return null;
}
/** Clock skew allowed between the App's clock (dispatch sent) and GitHub's (run created). */
const DISPATCH_SKEW_MS = 2 * 60_000;
/**
 * Runner B is a run the App's own dispatch started: this repository, the gate workflow, a
 * workflow_dispatch on the base branch at the commit recorded when the dispatch was sent,
 * created after it was sent (less the skew), started and triggered by the App's bot, and named
 * after the dual run. In direct mode its id is also the one GitHub returned.
 */
function runnerBRun(run, dual, workflow, appLogin) {
    const refuse = (reason) => ({
        code: "RUNNER_B_UNVERIFIED",
        reason: `run ${run.id} is not dual run ${dual.id}'s runner B: ${reason}`,
    });
    if (dual.run_b_id !== null && dual.run_b_id !== run.id)
        return refuse(`GitHub returned run ${dual.run_b_id} for the dispatch`);
    if (!same(run.repository?.full_name, dual.repository))
        return refuse(`it belongs to ${run.repository?.full_name ?? "no repository"}`);
    if (run.head_repository && run.head_repository.id !== run.repository.id)
        return refuse(`its head is in ${run.head_repository.full_name}`);
    if (runPath(run) !== gateWorkflowPath(workflow))
        return refuse(`it ran ${runPath(run) || "no workflow file"}`);
    if (run.event !== "workflow_dispatch")
        return refuse(`it is a ${run.event || "?"} run`);
    if (run.head_branch !== dual.base_ref)
        return refuse(`it ran on ${run.head_branch ?? "no branch"}, the dispatch was on ${dual.base_ref}`);
    if (dual.base_sha === null)
        return refuse("the App recorded no base commit for its dispatch");
    if (run.head_sha !== dual.base_sha) {
        return refuse(`it ran ${run.head_sha.slice(0, 12)}, the dispatch was sent on ${dual.base_sha.slice(0, 12)}`);
    }
    const sent = dual.dispatch_sent_at ?? dual.dispatched_at;
    const created = Date.parse(run.created_at);
    if (sent === null || !Number.isFinite(created))
        return refuse("when it was created, or when the dispatch was sent, is unknown");
    if (created < sent - DISPATCH_SKEW_MS) {
        return refuse(`it was created at ${run.created_at}, before the dispatch was sent (${new Date(sent).toISOString()})`);
    }
    const actor = run.actor?.login ?? null;
    const trigger = run.triggering_actor?.login ?? actor;
    if (actor !== appLogin || trigger !== appLogin) {
        return refuse(`it was started by ${actor ?? "nobody known"}${trigger !== actor ? ` (triggered by ${trigger ?? "?"})` : ""}, not the App (${appLogin})`);
    }
    if (!(run.display_title ?? "").includes(dual.id))
        return refuse(`its name "${run.display_title ?? ""}" does not carry the dual run id`);
    return null;
}
/**
 * An audit run (docs/app.md, *Envelope PRs from audit runs*), from the run alone: the gate workflow
 * of this repository, run on a `push` to the default branch from a branch of this repository. The
 * caller checks next that its commit is on the default branch (a tag named like the branch has
 * the same `head_branch`).
 */
function auditRunRefusal(run, repository, workflow, defaultBranch) {
    const refuse = (reason) => ({
        code: "AUDIT_RUN_UNVERIFIED",
        reason: `run ${run.id} is not an audit run of ${defaultBranch}: ${reason}`,
    });
    if (!same(run.repository?.full_name, repository))
        return refuse(`it belongs to ${run.repository?.full_name ?? "no repository"}`);
    if (run.head_repository && run.head_repository.id !== run.repository.id)
        return refuse(`its head is in ${run.head_repository.full_name}`);
    if (runPath(run) !== gateWorkflowPath(workflow))
        return refuse(`it ran ${runPath(run) || "no workflow file"}, not ${gateWorkflowPath(workflow)}`);
    if (run.event !== "push")
        return refuse(`it is a ${run.event || "?"} run; only a push to the default branch is audited`);
    if (run.head_branch !== defaultBranch)
        return refuse(`it ran on ${run.head_branch ?? "no branch"}, not the default branch`);
    if (!/^[0-9a-f]{40}$/.test(run.head_sha ?? ""))
        return refuse("GitHub names no commit for it");
    return null;
}

// EXTERNAL MODULE: ./node_modules/ajv/dist/ajv.js
var ajv = __webpack_require__(2463);
;// CONCATENATED MODULE: ./schema/org-envelope.schema.json
const org_envelope_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://github.com/envelope-gate/envelope-gate/schema/org-envelope.schema.json","title":"envelope-gate organisation envelope","description":"The most any covered repository\'s envelope may allow, what none may ever allow, and time-boxed exceptions. Read by the App from the organisation\'s .github repository at its default branch. See docs/formats.md, Organisation envelope.","type":"object","additionalProperties":false,"required":["ceiling_id","repositories","allowed_roots","allowed_tools","allowed_env","allowed_hosts","network"],"properties":{"$schema":{"description":"Optional pointer to this schema, for editors. Not part of the policy.","type":"string"},"ceiling_id":{"description":"A name for this organisation envelope, shown in every verified check it decides.","type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\\\u0000-\\\\u001f]+$"},"repositories":{"description":"The organisation\'s repositories it covers, by name without the owner: * matches any characters; an entry starting with ! excludes. A repository is covered when an entry matches it and no ! entry does. Case-insensitive.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^!?[A-Za-z0-9_.*-]+$"}},"allowed_roots":{"description":"The roots a repository may allow: a repository\'s root is within when it lies under one of these, ${WORKSPACE}/${SCRATCH} roots only under the same variable.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$"}},"allowed_tools":{"description":"The agent tools a repository may allow: exact names, or PREFIX* for every name starting with PREFIX (* alone: any tool).","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000-\\\\u001f]+$"}},"allowed_env":{"description":"The environment keys a repository may allow, in allowed_env\'s own forms. A family or a set here never covers a credential key (never-proposed table): such a key is within only when listed exactly.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^(?:@(?:ci|agents|terminal)|[^=\\\\u0000*@][^=\\\\u0000*]*\\\\*?)$"}},"allowed_hosts":{"description":"The hosts a repository may allow, in allowed_hosts\' own forms. A host set or wildcard in a repository\'s envelope is within only if every member is.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\\\*\\\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\\\[[0-9a-f:.]+\\\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$"}},"network":{"description":"The widest network mode a repository may use: deny (repositories must deny) or allowlist.","enum":["deny","allowlist"]},"allowed_commands":{"description":"Optional. When present, every covered repository must judge commands (allowed_commands present) and each entry must be listed here (a path is within its own path or its file name listed bare). Absent: commands are not limited by the organisation.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000]+$"}},"loopback":{"description":"Optional. network: repositories must judge loopback like any host. local (default): they may leave it unjudged.","enum":["local","network"]},"observation":{"description":"Optional. full (default): repositories must require the process-level observer. node: they may accept Node hooks alone.","enum":["full","node"]},"writable_protected":{"description":"Optional. Protected paths a repository may make writable (under one of these, same variable). Absent: none.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$","not":{"pattern":"(?:^|/)\\\\.git(?:/(?:hooks|config|config\\\\.worktree|info|modules|worktrees|commondir)(?:/|$)|/?$)"}}},"services":{"description":"Optional. The services a repository may declare, exactly. Absent: none.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]+|\\\\[[0-9a-f:.]+\\\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$"}},"never_env":{"description":"Optional. Keys (or PREFIX* families) no repository may ever allow, not even through an exception: a repository\'s exact key, family or set that could match one is a widening.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^=\\\\u0000*]+\\\\*?$"}},"never_hosts":{"description":"Optional. Hosts no repository may ever allow, not even through an exception: a repository\'s host, wildcard or set that could reach one is a widening.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\\\*\\\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\\\[[0-9a-f:.]+\\\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$"}},"exceptions":{"description":"Optional. Time-boxed widenings for one repository each, honoured only from approved_on to expires_on (inclusive, UTC) and at most 90 days long; never for a credential key or a family covering program control or credentials; never above never_env or never_hosts.","type":"array","items":{"type":"object","additionalProperties":false,"required":["repository","allow","reason","approver","approved_on","expires_on"],"properties":{"repository":{"description":"The repository\'s name (without the owner), exactly.","type":"string","pattern":"^[A-Za-z0-9_.-]+$"},"allow":{"description":"What the repository may allow beyond the ceiling, in the ceiling\'s own keys.","type":"object","additionalProperties":false,"minProperties":1,"properties":{"allowed_roots":{"description":"Roots the repository may allow beyond the ceiling.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$"}},"allowed_tools":{"description":"Tools the repository may allow beyond the ceiling (exact names, or PREFIX*).","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000-\\\\u001f]+$"}},"allowed_env":{"description":"Environment keys, PREFIX* families or sets beyond the ceiling. Never a credential key or a family that covers one.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^(?:@(?:ci|agents|terminal)|[^=\\\\u0000*@][^=\\\\u0000*]*\\\\*?)$"}},"allowed_hosts":{"description":"Hosts or host sets beyond the ceiling.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\\\*\\\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\\\[[0-9a-f:.]+\\\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$"}},"network":{"description":"allowlist: the repository may use network allowlist though the ceiling says deny. Nothing is beyond allowlist.","enum":["allowlist"]},"allowed_commands":{"description":"Commands beyond the ceiling\'s allowed_commands.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000]+$"}},"loopback":{"description":"local: the repository may leave loopback unjudged though the ceiling says network.","enum":["local"]},"observation":{"description":"node: the repository may accept a Node-only observation though the ceiling says full.","enum":["node"]},"writable_protected":{"description":"Protected paths beyond the ceiling\'s writable_protected.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$","not":{"pattern":"(?:^|/)\\\\.git(?:/(?:hooks|config|config\\\\.worktree|info|modules|worktrees|commondir)(?:/|$)|/?$)"}}},"services":{"description":"Services beyond the ceiling\'s services.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]+|\\\\[[0-9a-f:.]+\\\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$"}}}},"reason":{"type":"string","minLength":1,"maxLength":500},"approver":{"description":"The login who approved the exception.","type":"string","minLength":1,"maxLength":100},"approved_on":{"type":"string","pattern":"^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$","description":"The day the exception was approved (YYYY-MM-DD, UTC)."},"expires_on":{"type":"string","pattern":"^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$","description":"The last day the exception is honoured (YYYY-MM-DD, UTC), at most 90 days after approved_on."}}}},"root_values":{"description":"Optional. Where ${WORKSPACE} and ${SCRATCH} may point, as the run\'s log records them (meta.workspace, meta.scratch): absolute paths in which * stands for one path segment. A run whose value matches none fails the verified check (ORG_ENVELOPE_UNCHECKED). Absent: any value but /, a home directory (/home/NAME), a system directory, one a single segment deep, or one inside the other.","type":"object","additionalProperties":false,"properties":{"WORKSPACE":{"type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^/[^\\\\u0000]*$"}},"SCRATCH":{"type":"array","minItems":1,"uniqueItems":true,"items":{"type":"string","pattern":"^/[^\\\\u0000]*$"}}}}}}');
// EXTERNAL MODULE: ./src/core/env-sets.ts
var env_sets = __webpack_require__(20);
// EXTERNAL MODULE: ./src/core/hosts.ts
var core_hosts = __webpack_require__(3848);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __webpack_require__(6153);
// EXTERNAL MODULE: ./src/core/never-proposed.ts
var never_proposed = __webpack_require__(996);
// EXTERNAL MODULE: ./src/core/paths.ts
var core_paths = __webpack_require__(6107);
;// CONCATENATED MODULE: ./src/core/ceiling.ts
/**
 * An organisation's envelope: the most a covered repository's envelope may allow (its ceiling),
 * what none may ever allow, and time-boxed exceptions. Pure: the App reads the file
 * (app/org-ceiling.ts); `widenings` is the one judge of "within", for the verified check and for
 * the envelope PRs alike (docs/formats.md, Organisation envelope).
 */









/** The longest an exception may run, from its approval to its last day. */
const EXCEPTION_MAX_DAYS = 90;
let validateShape;
function describe(error) {
    const where = error.instancePath === "" ? "the organisation envelope" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
    if (error.keyword === "additionalProperties")
        return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
    if (error.keyword === "required")
        return `missing required key "${String(error.params.missingProperty)}" in ${where}`;
    if (error.keyword === "enum")
        return `${where} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    return `${where} ${error.message ?? "is invalid"}`;
}
/** Parses and validates an organisation envelope's bytes (schema/org-envelope.schema.json). */
function loadCeiling(bytes, file) {
    const decoded = (0,json/* decodeUtf8Strict */.h0)(bytes);
    if (typeof decoded !== "string") {
        throw new core_errors/* Refusal */.P_("ORG_ENVELOPE_INVALID", `${file} is not valid UTF-8 (byte ${decoded.invalidAt})`, { file, line: decoded.line });
    }
    const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    let parsed;
    try {
        parsed = (0,json/* parseJsonWithLines */.$f)(text);
    }
    catch (err) {
        if (err instanceof json/* JsonSyntaxError */.q3) {
            throw new core_errors/* Refusal */.P_("ORG_ENVELOPE_INVALID", `${file}:${err.line}:${err.column}: ${err.message}`, { file, line: err.line });
        }
        throw err;
    }
    validateShape ??= new ajv.Ajv({ allErrors: true, strict: true }).compile(org_envelope_schema_namespaceObject);
    if (!validateShape(parsed.value)) {
        const errors = validateShape.errors ?? [];
        const first = errors[0];
        const pointer = first?.keyword === "additionalProperties"
            ? `${first.instancePath}/${String(first.params.additionalProperty)}`
            : (first?.instancePath ?? "");
        const line = parsed.lines.get(pointer) ?? parsed.lines.get(first?.instancePath ?? "") ?? 1;
        throw new core_errors/* Refusal */.P_("ORG_ENVELOPE_INVALID", `${file}:${line}: ${errors.map(describe).join("; ")}`, {
            file,
            line,
            hint: "The organisation envelope must match schema/org-envelope.schema.json exactly (docs/formats.md, Organisation envelope).",
        });
    }
    const ceiling = parsed.value;
    const hostLists = [
        ["allowed_hosts", ceiling.allowed_hosts],
        ["never_hosts", ceiling.never_hosts],
    ];
    for (const [key, list] of hostLists) {
        list?.forEach((entry, i) => {
            if ((0,core_hosts/* expandHostEntry */.nd)(entry) !== null)
                return;
            const line = parsed.lines.get(`/${key}/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ORG_ENVELOPE_INVALID", `${file}:${line}: ${key} entry "${entry}" is not a host, a known host set, or has a port outside 1-65535`, {
                file,
                line,
            });
        });
    }
    return { ceiling, hash: `sha256:${(0,core_envelope/* sha256Hex */.fg)(bytes)}`, file, lines: parsed.lines };
}
/** A repository's name without its owner (`acme/widgets` -> `widgets`). */
function repositoryName(repository) {
    return repository.slice(repository.indexOf("/") + 1);
}
/** Whether `repository` (a name without the owner) is one the ceiling covers. */
function coversRepository(ceiling, repository) {
    const name = repositoryName(repository);
    const matches = (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i").test(name);
    const include = ceiling.repositories.filter((e) => !e.startsWith("!"));
    const exclude = ceiling.repositories.filter((e) => e.startsWith("!")).map((e) => e.slice(1));
    return include.some(matches) && !exclude.some(matches);
}
const DAY_MS = 86_400_000;
/** The day's start in ms, NaN for a day no calendar has (2026-02-31 would otherwise roll over to 2026-03-03). */
const dayOf = (date) => {
    const ms = Date.parse(`${date}T00:00:00Z`);
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date ? Number.NaN : ms;
};
/** Why an exception row can never be honoured, whatever the day (null: it can). */
function exceptionRefusal(row, ceiling) {
    const approved = dayOf(row.approved_on);
    const expires = dayOf(row.expires_on);
    if (Number.isNaN(approved) || Number.isNaN(expires))
        return "its dates are not calendar days";
    if (expires < approved)
        return `it expires (${row.expires_on}) before it was approved (${row.approved_on})`;
    if ((expires - approved) / DAY_MS > EXCEPTION_MAX_DAYS)
        return `it runs ${(expires - approved) / DAY_MS} days, longer than ${EXCEPTION_MAX_DAYS} (approved ${row.approved_on}, expires ${row.expires_on})`;
    for (const entry of row.allow.allowed_env ?? []) {
        if (entry.startsWith("@")) {
            if (neverEnvHit(entry, ceiling) !== null)
                return `allowed_env "${entry}" is in never_env`;
            continue;
        }
        if (entry.endsWith("*")) {
            const apart = (0,never_proposed/* familyApart */.Jw)(entry.slice(0, -1));
            if (apart !== null)
                return `allowed_env "${entry}" ${apart.why}: an exception never covers program control or credentials`;
        }
        else {
            const apart = (0,never_proposed/* keyApart */.ij)(entry);
            if (apart !== null)
                return `allowed_env "${entry}" is apart (${apart.why}): an exception never allows a credential`;
        }
        if (neverEnvHit(entry, ceiling) !== null)
            return `allowed_env "${entry}" is in never_env`;
    }
    for (const entry of row.allow.allowed_hosts ?? [])
        if (neverHostHit(entry, ceiling) !== null)
            return `allowed_hosts "${entry}" reaches never_hosts`;
    for (const entry of row.allow.services ?? [])
        if (serviceNeverHit(entry, ceiling) !== null)
            return `services "${entry}" reaches never_hosts`;
    return null;
}
/** Every exception row naming `repository`, judged on `today` (YYYY-MM-DD, UTC). */
function exceptionsFor(ceiling, repository, today) {
    const name = repositoryName(repository);
    return exceptionStandings(ceiling, today).filter((s) => s.row.repository.toLowerCase() === name.toLowerCase());
}
/** Every exception row of the ceiling, judged on `today`: the status page lists them all. */
function exceptionStandings(ceiling, today) {
    const out = [];
    (ceiling.exceptions ?? []).forEach((row, index) => {
        const refused = exceptionRefusal(row, ceiling);
        if (refused !== null)
            out.push({ row, index, honoured: false, why: refused });
        else if (dayOf(today) < dayOf(row.approved_on))
            out.push({ row, index, honoured: false, why: `not open before ${row.approved_on}` });
        else if (dayOf(today) > dayOf(row.expires_on))
            out.push({ row, index, honoured: false, why: `expired after ${row.expires_on}` });
        else
            out.push({ row, index, honoured: true });
    });
    return out;
}
/** The ceiling with the honoured exceptions' allowances added: what `widenings` judges against. */
function withExceptions(ceiling, standings) {
    const out = { ...ceiling };
    const union = (a, b) => (b === undefined ? a : [...(a ?? []), ...b]);
    for (const s of standings) {
        if (!s.honoured)
            continue;
        const allow = s.row.allow;
        out.allowed_roots = union(out.allowed_roots, allow.allowed_roots) ?? [];
        out.allowed_tools = union(out.allowed_tools, allow.allowed_tools) ?? [];
        out.allowed_env = union(out.allowed_env, allow.allowed_env) ?? [];
        out.allowed_hosts = union(out.allowed_hosts, allow.allowed_hosts) ?? [];
        if (out.allowed_commands !== undefined && allow.allowed_commands !== undefined)
            out.allowed_commands = [...out.allowed_commands, ...allow.allowed_commands];
        const wp = union(out.writable_protected, allow.writable_protected);
        if (wp !== undefined)
            out.writable_protected = wp;
        const services = union(out.services, allow.services);
        if (services !== undefined)
            out.services = services;
        if (allow.network)
            out.network = "allowlist";
        if (allow.loopback)
            out.loopback = "local";
        if (allow.observation)
            out.observation = "node";
    }
    return out;
}
// ---- roots -----------------------------------------------------------------------------------
/** A root as a variable and a folded path under it (`/` for an absolute root), or null when it leaves its variable. */
function rootParts(root) {
    const m = core_envelope/* ROOT_VARIABLE */.U4.exec(root);
    if (m === null) {
        const folded = (0,core_paths/* foldPath */.tu)(root);
        return folded === null ? null : { base: "/", path: folded };
    }
    const folded = (0,core_paths/* foldPath */.tu)(`/${root.slice(m[0].length)}`);
    // "${WORKSPACE}/.." leaves the variable: only "/" holds it, and `..` folded away above / says nothing.
    const raw = root
        .slice(m[0].length)
        .split("/")
        .filter((s) => s !== "" && s !== ".");
    let depth = 0;
    for (const s of raw) {
        depth += s === ".." ? -1 : 1;
        if (depth < 0)
            return null;
    }
    return folded === null ? null : { base: m[1], path: folded };
}
function pathWithin(root, ceilingRoots) {
    const r = rootParts(root);
    for (const c of ceilingRoots) {
        const p = rootParts(c);
        if (p === null)
            continue;
        // An absolute "/" holds everything, a variable's escape too.
        if (p.base === "/" && p.path === "/")
            return true;
        if (r !== null && r.base === p.base && (0,core_paths/* isInsideRoot */.Xj)(r.path, p.path))
            return true;
    }
    return false;
}
function envCeiling(entries) {
    return {
        exact: new Set(entries.filter((e) => !e.endsWith("*") && !e.startsWith("@"))),
        prefixes: entries.filter((e) => e.endsWith("*")).map((e) => e.slice(0, -1)),
        sets: new Set(entries.filter((e) => e.startsWith("@"))),
    };
}
/** Whether the ceiling allows the exact key, as allowed_env's matcher would. */
function keyWithin(key, c) {
    if (c.exact.has(key))
        return true;
    if ((0,never_proposed/* keyApart */.ij)(key) !== null)
        return false;
    if (c.prefixes.some((p) => key.startsWith(p)))
        return true;
    return [...c.sets].some((s) => env_sets/* ENV_SETS */.gL.get(s)?.has(key) ?? false);
}
/** The never_env entry `entry` (an allowed_env entry) could match, or null. */
function neverEnvHit(entry, ceiling) {
    // A never_env entry naming a set (the schema admits "@agents") stands for each of its keys.
    const never = (ceiling.never_env ?? []).flatMap((n) => {
        const set = n.startsWith("@") ? env_sets/* ENV_SETS */.gL.get(n) : undefined;
        return set === undefined ? [[n, n]] : [...set].map((k) => [k, n]);
    });
    const keys = entry.startsWith("@") ? [...(env_sets/* ENV_SETS */.gL.get(entry) ?? [])] : null;
    for (const [n, written] of never)
        if (neverEnvMatch(n, entry, keys))
            return written;
    return null;
}
/** Whether the never_env entry `n` (a key or PREFIX*) could match the allowed_env entry `entry` (`keys`: a set's keys). */
function neverEnvMatch(n, entry, keys) {
    const nPrefix = n.endsWith("*") ? n.slice(0, -1) : null;
    const hitsKey = (k) => (nPrefix === null ? k === n : k.startsWith(nPrefix));
    if (keys !== null)
        return keys.some(hitsKey);
    if (entry.endsWith("*")) {
        const prefix = entry.slice(0, -1);
        // A family matches no apart key: a never key it could not match is no hit.
        return nPrefix === null ? n.startsWith(prefix) && (0,never_proposed/* keyApart */.ij)(n) === null : nPrefix.startsWith(prefix) || prefix.startsWith(nPrefix);
    }
    return hitsKey(entry);
}
function envWidening(entry, c, ceiling) {
    const never = neverEnvHit(entry, ceiling);
    if (never !== null)
        return `the organisation never allows it (never_env "${never}")`;
    if (entry.startsWith("@")) {
        if (c.sets.has(entry))
            return null;
        const outside = [...(env_sets/* ENV_SETS */.gL.get(entry) ?? [])].filter((k) => !keyWithin(k, c));
        return outside.length === 0
            ? null
            : `the set holds keys the ceiling does not allow (${outside.slice(0, 3).join(", ")}${outside.length > 3 ? ", …" : ""})`;
    }
    if (entry.endsWith("*")) {
        const prefix = entry.slice(0, -1);
        return c.prefixes.some((p) => prefix.startsWith(p)) ? null : `no family of the ceiling holds every key starting with ${prefix}`;
    }
    return keyWithin(entry, c)
        ? null
        : (0,never_proposed/* keyApart */.ij)(entry) !== null
            ? "a credential key is within only when the ceiling lists it exactly"
            : "the ceiling does not allow it";
}
// ---- hosts -----------------------------------------------------------------------------------
/** Every host `inner` allows, `outer` allows too. */
function hostPatternWithin(inner, outer) {
    if (outer.port !== null && inner.port !== outer.port)
        return false;
    if (!outer.wildcard)
        return !inner.wildcard && inner.host === outer.host;
    return inner.host.endsWith(`.${outer.host}`) || (inner.wildcard && inner.host === outer.host);
}
/** Some host both allow. */
function hostPatternsOverlap(a, b) {
    if (a.port !== null && b.port !== null && a.port !== b.port)
        return false;
    if (!a.wildcard && !b.wildcard)
        return a.host === b.host;
    if (a.wildcard && b.wildcard)
        return a.host === b.host || a.host.endsWith(`.${b.host}`) || b.host.endsWith(`.${a.host}`);
    const [w, h] = a.wildcard ? [a, b] : [b, a];
    return h.host.endsWith(`.${w.host}`);
}
function neverHostHit(entry, ceiling) {
    const patterns = (0,core_hosts/* expandHostEntry */.nd)(entry) ?? [];
    for (const n of ceiling.never_hosts ?? []) {
        const never = (0,core_hosts/* expandHostEntry */.nd)(n) ?? [];
        if (patterns.some((p) => never.some((q) => hostPatternsOverlap(p, q))))
            return n;
    }
    return null;
}
/** The never_hosts entry a services entry reaches (a TCP service is reached, and its name looked up, under any network mode), or null. */
function serviceNeverHit(entry, ceiling) {
    if (entry.startsWith("/"))
        return null;
    return neverHostHit(entry, ceiling);
}
function hostWidening(entry, ceilingHosts, ceiling) {
    const never = neverHostHit(entry, ceiling);
    if (never !== null)
        return `the organisation never allows it (never_hosts "${never}")`;
    const patterns = (0,core_hosts/* expandHostEntry */.nd)(entry);
    if (patterns === null)
        return "not a host the ceiling can judge";
    const outside = patterns.filter((p) => !ceilingHosts.some((c) => hostPatternWithin(p, c)));
    if (outside.length === 0)
        return null;
    return patterns.length > 1 || patterns[0]?.source !== entry
        ? `members beyond the ceiling: ${outside.map((p) => p.source).join(", ")}`
        : "the ceiling does not allow it";
}
// ---- tools and commands ----------------------------------------------------------------------
function toolWithin(tool, ceilingTools) {
    return ceilingTools.some((c) => (c.endsWith("*") ? tool.startsWith(c.slice(0, -1)) : c === tool));
}
function commandWithin(command, ceilingCommands) {
    if (ceilingCommands.includes(command))
        return true;
    // A path is within its file's name listed bare; a bare name is within only the same bare name.
    return command.includes("/") && ceilingCommands.includes(command.slice(command.lastIndexOf("/") + 1));
}
/**
 * Everything `envelope` allows beyond `ceiling` (with its honoured exceptions already added by
 * withExceptions), in the envelope's order. Empty: the envelope is within. Hosts are judged only
 * under `network: "allowlist"`, the one mode in which the envelope's hosts are allowed at all.
 */
function widenings(envelope, ceiling) {
    const out = [];
    const add = (pointer, key, entry, why) => out.push({ pointer, key, entry, why });
    envelope.allowed_roots.forEach((root, i) => {
        if (!pathWithin(root, ceiling.allowed_roots))
            add(`/allowed_roots/${i}`, "allowed_roots", root, "it lies under no root of the ceiling");
    });
    envelope.allowed_tools.forEach((tool, i) => {
        if (!toolWithin(tool, ceiling.allowed_tools))
            add(`/allowed_tools/${i}`, "allowed_tools", tool, "the ceiling does not allow this tool");
    });
    const env = envCeiling(ceiling.allowed_env);
    envelope.allowed_env.forEach((entry, i) => {
        const why = envWidening(entry, env, ceiling);
        if (why !== null)
            add(`/allowed_env/${i}`, "allowed_env", entry, why);
    });
    if (envelope.network === "allowlist") {
        if (ceiling.network === "deny")
            add("/network", "network", "allowlist", "the ceiling's network is deny");
        const hosts = ceiling.allowed_hosts.flatMap((h) => (0,core_hosts/* expandHostEntry */.nd)(h) ?? []);
        envelope.allowed_hosts.forEach((entry, i) => {
            const why = hostWidening(entry, hosts, ceiling);
            if (why !== null)
                add(`/allowed_hosts/${i}`, "allowed_hosts", entry, why);
        });
    }
    if (ceiling.allowed_commands !== undefined) {
        const commands = ceiling.allowed_commands;
        if (envelope.allowed_commands === undefined)
            add("", "allowed_commands", "(absent)", "the ceiling judges commands: without allowed_commands every command is allowed");
        else
            envelope.allowed_commands.forEach((c, i) => {
                if (!commandWithin(c, commands))
                    add(`/allowed_commands/${i}`, "allowed_commands", c, "the ceiling does not allow this command");
            });
    }
    if ((envelope.loopback ?? "local") === "local" && ceiling.loopback === "network")
        add(envelope.loopback === undefined ? "" : "/loopback", "loopback", "local", "the ceiling's loopback is network: loopback is judged like any host");
    if (envelope.observation === "node" && (ceiling.observation ?? "full") === "full")
        add("/observation", "observation", "node", "the ceiling requires the process-level observer (observation full)");
    (envelope.writable_protected ?? []).forEach((entry, i) => {
        if (!pathWithin(entry, ceiling.writable_protected ?? []))
            add(`/writable_protected/${i}`, "writable_protected", entry, "the ceiling lets no repository make this protected path writable");
    });
    (envelope.services ?? []).forEach((entry, i) => {
        const never = serviceNeverHit(entry, ceiling);
        if (never !== null)
            add(`/services/${i}`, "services", entry, `the organisation never allows it (never_hosts "${never}")`);
        else if (!(ceiling.services ?? []).includes(entry))
            add(`/services/${i}`, "services", entry, "the ceiling does not list this service");
    });
    return out;
}
/** A widening as a line: `envelope.json:12: allowed_hosts "evil.example:443": the ceiling does not allow it`. */
function describeWidening(w, loaded) {
    const line = loaded.lines.get(w.pointer) ?? 1;
    return `${loaded.file}:${line}: ${w.key} ${JSON.stringify(w.entry)}: ${w.why}`;
}
/** The UTC day of `ms`, as exception rows name days. */
function utcDay(ms) {
    return new Date(ms).toISOString().slice(0, 10);
}
/**
 * The items of a run's footprint (footprint.ts logFootprint: hosts as `name:port`, keys, commands
 * by their allowed_commands entry) the ceiling would not allow: the organisation-wide footprint
 * the status page lists per repository. Commands count only when the ceiling judges commands.
 */
function beyondCeiling(touched, ceiling) {
    const env = envCeiling(ceiling.allowed_env);
    const never = (ceiling.never_hosts ?? []).flatMap((h) => (0,core_hosts/* expandHostEntry */.nd)(h) ?? []);
    const allowed = ceiling.allowed_hosts.flatMap((h) => (0,core_hosts/* expandHostEntry */.nd)(h) ?? []);
    const hostWithin = (item) => {
        const p = (0,core_hosts/* parseHostPattern */.ic)(item);
        if (p === null || ceiling.network === "deny")
            return false;
        return (0,core_hosts/* hostAllowed */.VI)(allowed, p.host, p.port) && !(0,core_hosts/* hostAllowed */.VI)(never, p.host, p.port);
    };
    return {
        hosts: [...touched.hosts].filter((h) => !hostWithin(h)).sort(),
        env: [...touched.env].filter((k) => !keyWithin(k, env) || neverEnvHit(k, ceiling) !== null).sort(),
        commands: ceiling.allowed_commands === undefined
            ? []
            : [...touched.commands].filter((c) => !commandWithin(c, ceiling.allowed_commands ?? [])).sort(),
    };
}
/** Directories a root variable may never point into: the system's own (a self-hosted runner's /opt is allowed). */
const SYSTEM_ROOT = /^\/(?:etc|usr|bin|sbin|boot|proc|sys|dev|root|snap|lib(?:32|64|x32)?|var\/lib)(?:\/|$)/;
function globMatches(glob, path) {
    const g = glob.split("/");
    const p = path.split("/");
    return g.length === p.length && g.every((s, i) => (s === "*" ? p[i] !== "" : s === p[i]));
}
/**
 * Why the values a run gave `${WORKSPACE}` and `${SCRATCH}` (its log's meta.workspace and
 * meta.scratch) cannot be held to the ceiling, or null. A root within the ceiling by its variable
 * is only as narrow as the variable's value, and the repository's own workflow chooses it (the
 * Action's `workspace` and `scratch` inputs): a `scratch: /` would make `${SCRATCH}` every path.
 * Only the variables the envelope uses are judged: each must be an absolute, folded path at least
 * two segments deep, not a home directory, outside the system's directories, and not inside the other; with
 * `root_values`, it must match one of its globs.
 */
function rootValuesRefusal(values, envelope, ceiling) {
    const used = new Set([...envelope.allowed_roots, ...(envelope.writable_protected ?? [])]
        .map((r) => core_envelope/* ROOT_VARIABLE */.U4.exec(r)?.[1])
        .filter((v) => v !== undefined));
    const given = { WORKSPACE: values.workspace, SCRATCH: values.scratch };
    for (const name of ["WORKSPACE", "SCRATCH"]) {
        if (!used.has(name))
            continue;
        const value = given[name];
        if (typeof value !== "string" || (0,core_paths/* foldPath */.tu)(value) !== value)
            return `the run's log records no absolute, folded \${${name}} (${JSON.stringify(value ?? null)})`;
        if (value.split("/").length - 1 < 2 || SYSTEM_ROOT.test(value) || /^\/home\/[^/]+$/.test(value))
            return `the run gave \${${name}} the value ${value}: a root variable may not be /, a home directory, a system directory, or one segment deep`;
        const globs = ceiling.root_values?.[name];
        if (globs !== undefined && !globs.some((g) => globMatches(g, value)))
            return `the run gave \${${name}} the value ${value}, which matches none of the organisation's root_values.${name} (${globs.join(", ")})`;
    }
    if (used.size === 2 && typeof values.workspace === "string" && typeof values.scratch === "string") {
        if ((0,core_paths/* isInsideRoot */.Xj)(values.workspace, values.scratch) || (0,core_paths/* isInsideRoot */.Xj)(values.scratch, values.workspace))
            return `the run's \${WORKSPACE} (${values.workspace}) and \${SCRATCH} (${values.scratch}) lie one inside the other`;
    }
    return null;
}

// EXTERNAL MODULE: ./src/core/log-reader.ts
var log_reader = __webpack_require__(3477);
;// CONCATENATED MODULE: ./src/core/footprint.ts
/**
 * The footprint a reviewer reads: what the pull request's run touched that the base branch's last
 * run did not (new environment keys, hosts, commands, write directories, tools), even where the
 * envelope allows it, and how many things the base touched that this run no longer does. Pure:
 * the caller reads both logs; this never judges, and nothing here changes a verdict.
 *
 * Each log is read against its own `meta.workspace` and `meta.scratch`: a write under them is
 * written `${WORKSPACE}/…` or `${SCRATCH}/…`, and the run's private directories under the scratch
 * (`.envelope-gate-<run id>`) as `.envelope-gate-${RUN_ID}`, so two runs in different scratches
 * compare equal. Every name is the one walk's (./log-reader.ts walkLog), as `check`, `suggest` and
 * the audit name it: commands by their allowed_commands entry, hosts by the name an entry allows.
 */





const FOOTPRINT_FILE = "footprint.json";
const FOOTPRINT_CLASSES = (/* unused pure expression or super */ null && (["env", "hosts", "commands", "write_dirs", "tools"]));
/** What one class is called where a reviewer reads it. */
const FOOTPRINT_CLASS_LABEL = {
    env: "environment key read",
    hosts: "host",
    commands: "command",
    write_dirs: "write directory",
    tools: "tool",
};
function footprint_str(v) {
    return typeof v === "string" && v !== "" ? v : null;
}
function emptyClasses() {
    return { env: new Map(), hosts: new Map(), commands: new Map(), write_dirs: new Map(), tools: new Map() };
}
/** A log's path with its run's roots written as variables (the deeper root first when nested). */
function portablePath(path, roots) {
    const candidates = [];
    if (roots.workspace !== null && (0,core_paths/* isInsideRoot */.Xj)(path, roots.workspace))
        candidates.push(["${WORKSPACE}", roots.workspace]);
    if (roots.scratch !== null && (0,core_paths/* isInsideRoot */.Xj)(path, roots.scratch))
        candidates.push(["${SCRATCH}", roots.scratch]);
    candidates.sort((a, b) => b[1].length - a[1].length);
    const under = candidates[0];
    let out = path;
    if (under !== undefined)
        out = under[1] === "/" ? under[0] + path : under[0] + path.slice(under[1].length);
    if (roots.runId !== null)
        out = out.split(`/.envelope-gate-${roots.runId}`).join("/.envelope-gate-${RUN_ID}");
    return out;
}
/** Which class an event of each kind is counted in. */
const FOOTPRINT_CLASS_OF = {
    write: "write_dirs",
    env: "env",
    tool: "tools",
    host: "hosts",
    exec: "commands",
    syscall: null,
};
/**
 * Reduces one walked log (./log-reader.ts walkLog) to what it touched, by the names the walk
 * gives: an endpoint by the name an entry allows it by, a command by its allowed_commands entry.
 * The Node runtime's own reads of its documented keys are not the program's and are left out;
 * loopback in the run's own network namespace is the run's own, not a host.
 */
function logFootprint(log) {
    const classes = emptyClasses();
    const meta = log.meta;
    const roots = { workspace: (0,core_paths/* foldPath */.tu)(footprint_str(meta.workspace) ?? ""), scratch: (0,core_paths/* foldPath */.tu)(footprint_str(meta.scratch) ?? ""), runId: footprint_str(meta.run_id) };
    for (const e of log.events) {
        const cls = FOOTPRINT_CLASS_OF[e.kind];
        if (cls === null || (e.kind === "env" && e.runtime) || (e.kind === "host" && e.ownLoopback))
            continue;
        const item = e.kind === "write"
            ? portablePath(e.subject.slice(0, e.subject.lastIndexOf("/")) || "/", roots)
            : e.kind === "exec" && e.subject.includes("/")
                ? portablePath(e.subject, roots)
                : e.subject;
        const seen = classes[cls].get(item);
        if (seen)
            seen.count++;
        else
            classes[cls].set(item, { first_line: e.line, count: 1 });
    }
    // A lookup of a name (no port) that the run also reached with a port is that endpoint's own
    // lookup, as `suggest` reads it: the `name:port` item stands for both.
    const hosts = classes.hosts;
    const named = new Set([...hosts.keys()].filter((k) => /:\d+$/.test(k)).map((k) => k.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1")));
    for (const key of [...hosts.keys()])
        if (!/:\d+$/.test(key) && named.has(key))
            hosts.delete(key);
    return { run_id: roots.runId, classes };
}
/** What the pull request's run touched that the base's did not, and the reverse as counts. */
function compareFootprints(pr, base) {
    const fresh = {};
    const gone = {};
    for (const cls of FOOTPRINT_CLASSES) {
        const mine = pr.classes[cls];
        const theirs = base.classes[cls];
        fresh[cls] = [...mine.entries()]
            .filter(([item]) => !theirs.has(item))
            .map(([item, seen]) => ({ item, first_line: seen.first_line, count: seen.count }))
            .sort((a, b) => a.first_line - b.first_line || (a.item < b.item ? -1 : 1));
        gone[cls] = [...theirs.keys()].filter((item) => !mine.has(item)).length;
    }
    return { new: fresh, no_longer: gone };
}
/** footprint.json for a comparison made. */
function comparedFootprint(pr, base, run) {
    return { version: 1, status: "compared", base: run, ...compareFootprints(pr, base) };
}
/** How many new things, over every class. */
function newCount(file) {
    return file.status === "compared" ? FOOTPRINT_CLASSES.reduce((n, c) => n + file.new[c].length, 0) : 0;
}
/**
 * The observer log of a base run's evidence artifact: the zip is unpacked, its manifest and every
 * file's digest verified (EVIDENCE_DIGEST_MISMATCH otherwise), and the log must be covered by the
 * manifest and be a whole log. Throws a Refusal saying why it cannot be compared with.
 */
function baseLogFromZip(zip) {
    let entries;
    try {
        entries = (0,fflate_esm/* unzipSync */.AO)(zip);
    }
    catch (err) {
        throw new core_errors/* Refusal */.P_("EVIDENCE_UNAVAILABLE", `the artifact is not a readable zip (${err.message})`, { cause: err });
    }
    const files = new Map(Object.entries(entries).filter(([name]) => !name.endsWith("/")));
    const { manifest } = verifyBundle(files);
    const log = files.get(EVIDENCE_FILES.observerLog);
    if (log === undefined || !Object.hasOwn(manifest.files, EVIDENCE_FILES.observerLog))
        throw new core_errors/* Refusal */.P_("EVIDENCE_UNAVAILABLE", `the bundle holds no ${EVIDENCE_FILES.observerLog}`);
    // Read by the reader check uses: a cut or malformed log is refused with check's code.
    (0,log_reader/* walkLog */.w4)({ file: EVIDENCE_FILES.observerLog, bytes: log }, null);
    return log;
}

;// CONCATENATED MODULE: ./src/app/org-ceiling.ts






const ORG_REPO = ".github";
function orgRepo(owner) {
    return { owner, repo: ORG_REPO };
}
async function readingOf(ctx, gh, owner) {
    const r = orgRepo(owner);
    const path = ctx.settings.orgEnvelopePath;
    const branch = await gh.defaultBranchIfAny(r);
    if (branch === null)
        return { kind: "none", why: `no ${owner}/${ORG_REPO} repository the App's installation can read` };
    const sha = await gh.branchSha(r, branch);
    if (sha === null)
        return { kind: "none", why: `${owner}/${ORG_REPO} has no commit on ${branch}` };
    // A commit's files never change: the reading of one `.github` commit is kept, so a busy
    // organisation costs two calls per verified check (the repository and its branch), not four.
    const key = `${owner.toLowerCase()}@${sha}:${path}`;
    const cached = readings.get(key);
    if (cached !== undefined)
        return cached;
    const read = await readFilesAt(r, gh, owner, path, sha, branch);
    readings.set(key, read);
    if (readings.size > READINGS_KEPT)
        readings.delete(readings.keys().next().value);
    return read;
}
const READINGS_KEPT = 256;
const readings = new Map();
async function readFilesAt(r, gh, owner, path, sha, branch) {
    const notAFile = (p) => new core_errors/* Refusal */.P_("ORG_ENVELOPE_INVALID", `${owner}/${ORG_REPO}:${p} at ${sha.slice(0, 12)} is not a file`);
    let text;
    let digestText;
    try {
        text = await gh.textAt(r, path, sha, `read ${owner}/${ORG_REPO}:${path}`, notAFile);
        if (text === null)
            return { kind: "none", why: `${owner}/${ORG_REPO} has no ${path} on ${branch}` };
        digestText = await gh.textAt(r, `${path}.sha256`, sha, `read ${owner}/${ORG_REPO}:${path}.sha256`, notAFile);
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err) && (err.code === "ORG_ENVELOPE_INVALID" || err.code === "POLICY_FILE_TOO_LARGE"))
            return { kind: "invalid", code: "ORG_ENVELOPE_INVALID", message: err.message, sha };
        throw err;
    }
    const file = `${owner}/${ORG_REPO}:${path}`;
    if (digestText === null)
        return { kind: "invalid", code: "ORG_ENVELOPE_DIGEST_MISMATCH", message: `${file} has no digest file beside it (${path}.sha256)`, sha };
    const bytes = new TextEncoder().encode(text);
    try {
        const pinned = (0,core_envelope/* parseDigestFile */.UC)(digestText, `${file}.sha256`);
        if (pinned !== (0,core_envelope/* sha256Hex */.fg)(bytes))
            return {
                kind: "invalid",
                code: "ORG_ENVELOPE_DIGEST_MISMATCH",
                message: `${file} has sha256 ${(0,core_envelope/* sha256Hex */.fg)(bytes)}, but ${path}.sha256 pins ${pinned}`,
                sha,
            };
        return { kind: "ceiling", loaded: loadCeiling(bytes, file), sha, branch };
    }
    catch (err) {
        if (!(0,core_errors/* isRefusal */.vu)(err))
            throw err;
        const code = err.code === "ORG_ENVELOPE_INVALID" ? err.code : "ORG_ENVELOPE_DIGEST_MISMATCH";
        return { kind: "invalid", code, message: err.message, sha };
    }
}
/** Reads the owner's organisation envelope and records the reading (its digest, and when it changed). */
async function readOrgCeiling(ctx, gh, owner) {
    const reading = await readingOf(ctx, gh, owner);
    await ctx.store.ceilings.recordReading({
        owner,
        state: reading.kind,
        digest: reading.kind === "ceiling" ? reading.loaded.hash : null,
        ceiling_id: reading.kind === "ceiling" ? reading.loaded.ceiling.ceiling_id : null,
        source_sha: reading.kind === "none" ? null : reading.sha,
        exceptions: JSON.stringify(reading.kind === "ceiling"
            ? exceptionStandings(reading.loaded.ceiling, utcDay(ctx.clock.now())).map((s) => `${s.row.repository}: ${exceptionLine(s)}`)
            : []),
        detail: reading.kind === "ceiling"
            ? `${reading.loaded.file} at ${reading.branch}`
            : reading.kind === "none"
                ? reading.why
                : `${reading.code}: ${reading.message}`,
    }, ctx.clock.now());
    return reading;
}
async function ceilingForRepository(ctx, gh, repository) {
    const owner = repoRef(repository).owner;
    const reading = await readOrgCeiling(ctx, gh, owner);
    if (reading.kind !== "ceiling")
        return reading;
    const { ceiling, hash } = reading.loaded;
    if (!coversRepository(ceiling, repository))
        return { kind: "uncovered", id: ceiling.ceiling_id, digest: hash };
    const exceptions = exceptionsFor(ceiling, repository, utcDay(ctx.clock.now()));
    return {
        kind: "ceiling",
        id: ceiling.ceiling_id,
        digest: hash,
        sha: reading.sha,
        ceiling: withExceptions(ceiling, exceptions),
        baseline: ceiling,
        exceptions,
    };
}
const exceptionLine = (s) => `exceptions[${s.index}] (${s.row.approver}, until ${s.row.expires_on}: ${s.row.reason})${s.honoured ? "" : ` not honoured: ${s.why}`}`;
/**
 * What a run's evidence shows: what it touched (hosts, keys, commands), for the organisation-wide
 * footprint, and the values its log records for the root variables; null when its log cannot be read.
 */
function runFactsOf(zip) {
    try {
        const walked = (0,log_reader/* walkLog */.w4)({ file: "observer.jsonl", bytes: baseLogFromZip(zip) }, null);
        return {
            touched: touchedInWalk(walked),
            workspace: walked.meta.workspace,
            scratch: walked.meta.scratch,
        };
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err))
            return null;
        throw err;
    }
}
/** What one recorded log touched: hosts (`name:port`), environment keys, commands (footprint.ts's names). */
function touchedInLog(log) {
    return touchedInWalk((0,log_reader/* walkLog */.w4)(log, null));
}
function touchedInWalk(walked) {
    const fp = logFootprint(walked);
    return { hosts: [...fp.classes.hosts.keys()], env: [...fp.classes.env.keys()], commands: [...fp.classes.commands.keys()] };
}
/**
 * Judges the base's envelope (the file at the base commit whose bytes the base's digest pins, the
 * one the run was judged under) against the organisation envelope, and records the result.
 */
async function ceilingFacts(ctx, gh, repository, baseSha, pinnedHash, run) {
    const found = await ceilingForRepository(ctx, gh, repository);
    const footprint = run !== null && found.kind === "ceiling" ? beyondCeiling(run.touched, found.baseline) : null;
    const record = (outcome, detail, digest, exceptions = []) => ctx.store.ceilings.recordResult({
        repository,
        owner: repoRef(repository).owner,
        digest,
        outcome,
        detail: JSON.stringify(detail),
        exceptions: JSON.stringify(exceptions.map(exceptionLine)),
        footprint: JSON.stringify(footprint),
        checked_at: ctx.clock.now(),
    });
    if (found.kind === "none") {
        if (!ctx.settings.orgEnvelopeRequired)
            return found;
        await record("unchecked", [found.why], null);
        return {
            kind: "fail",
            code: "ORG_ENVELOPE_UNCHECKED",
            title: "Not verified: no organisation envelope could be read",
            lines: [`${found.why}; ENVELOPE_GATE_ORG_ENVELOPE_REQUIRED is on`],
        };
    }
    if (found.kind === "invalid") {
        await record("invalid", [found.message], null);
        return { kind: "fail", code: found.code, title: "Not verified: the organisation envelope does not verify", lines: [found.message] };
    }
    if (found.kind === "uncovered") {
        await record("uncovered", [], found.digest);
        return found;
    }
    const path = ctx.settings.envelopePath;
    const r = repoRef(repository);
    const unchecked = async (why) => {
        await record("unchecked", [why], found.digest, found.exceptions);
        return {
            kind: "fail",
            code: "ORG_ENVELOPE_UNCHECKED",
            title: "Not verified: the envelope could not be held to the organisation's",
            lines: [why],
        };
    };
    let text;
    try {
        text = await gh.textAt(r, path, baseSha, `read ${path} at the base`, (p) => new core_errors/* Refusal */.P_("ENVELOPE_UNREADABLE", `${p} at the base is not a file`));
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err) && (err.code === "ENVELOPE_UNREADABLE" || err.code === "POLICY_FILE_TOO_LARGE"))
            return unchecked(err.message);
        throw err;
    }
    if (text === null)
        return unchecked(`the base (${baseSha.slice(0, 12)}) has no ${path} (ENVELOPE_GATE_ENVELOPE_PATH) to hold to the organisation envelope`);
    const bytes = new TextEncoder().encode(text);
    if (`sha256:${(0,core_envelope/* sha256Hex */.fg)(bytes)}` !== pinnedHash)
        return unchecked(`${path} at the base has sha256:${(0,core_envelope/* sha256Hex */.fg)(bytes)}, not the ${pinnedHash} the run was judged under`);
    let loaded;
    try {
        loaded = (0,core_envelope/* loadEnvelope */.BC)(bytes, path);
    }
    catch (err) {
        if (!(0,core_errors/* isRefusal */.vu)(err))
            throw err;
        await record("invalid", [err.message], found.digest, found.exceptions);
        return { kind: "fail", code: err.code, title: "Not verified: the envelope does not validate", lines: [err.message] };
    }
    const rootValues = run === null
        ? "the run's log cannot be read from its evidence: the values its root variables had cannot be held to the organisation envelope"
        : rootValuesRefusal(run, loaded.envelope, found.ceiling);
    if (rootValues !== null)
        return unchecked(rootValues);
    const wide = widenings(loaded.envelope, found.ceiling);
    const notHonoured = found.exceptions.filter((s) => !s.honoured).map(exceptionLine);
    if (wide.length > 0) {
        const lines = wide.map((w) => describeWidening(w, loaded));
        await record("widened", lines, found.digest, found.exceptions);
        return {
            kind: "fail",
            code: "ORG_ENVELOPE_WIDENED",
            title: `Not verified: the envelope allows more than the organisation's (${wide.length} widening${wide.length === 1 ? "" : "s"})`,
            lines: [...lines, ...notHonoured.map((l) => `${found.id}: ${l}`)],
        };
    }
    await record("within", [], found.digest, found.exceptions);
    return { kind: "within", id: found.id, digest: found.digest, exceptions: found.exceptions.filter((s) => s.honoured).map(exceptionLine) };
}

;// CONCATENATED MODULE: ./src/app/verified-check.ts












const runLineOf = (a, workflowPath) => runLine({
    runId: a.run.id,
    attempt: a.run.run_attempt ?? 1,
    workflowPath,
    headSha: a.headSha,
    pullNumber: a.pullNumber,
    baseRef: a.baseRef,
    baseSha: a.baseSha,
});
/** A refused run: a failing check naming the refusal. */
function refusedCheck(refusal) {
    return {
        conclusion: "failure",
        code: refusal.code,
        title: "Not verified: this run is not the base's gate",
        summary: `${(0,markdown/* mdCode */.xs)(refusal.code)}: ${(0,markdown/* mdText */.bC)(refusal.reason)}\n\nThe App verifies only a pull_request or pull_request_review run of the base branch's gate workflow file (and its local Action) on the pull request's current head. Nothing this run reported counts.`,
    };
}
/** Pure: a verified run's check from its evidence and the base's pinned envelope hash. */
function verifiedRunCheck(a, workflowPath, evidence, pinned, gate = null) {
    const fail = (code, title, detail) => ({
        conclusion: "failure",
        code,
        // The detail and the run line quote the bundle and the run (runner A's job made the bundle).
        title: (0,markdown/* plainText */.wh)(title, 255),
        summary: `${code === null ? "" : `${(0,markdown/* mdCode */.xs)(code)}: `}${(0,markdown/* mdText */.bC)(detail)}\n\n${(0,markdown/* mdText */.bC)(runLineOf(a, workflowPath))}`,
    });
    if (evidence.kind === "missing") {
        // A pull request the App holds gated (app/gate-memory.ts) is not "not gated" because this run was not.
        if (a.run.conclusion === "success")
            return noEvidenceCheck(gate, runLineOf(a, workflowPath));
        return fail("EVIDENCE_UNAVAILABLE", "Not verified: no evidence", `the run concluded ${a.run.conclusion ?? "nothing"} and has no evidence bundle`);
    }
    if (evidence.kind === "unreadable")
        return fail(evidence.code, "Not verified: the evidence does not verify", evidence.message);
    if (evidence.kind === "earlier")
        return fail("VERIFIED_CHECK_EARLIER_ATTEMPT", "Not verified: an earlier attempt's evidence", evidence.reason);
    const b = evidence.bundle;
    // An audit run (mode: audit) records and suggests; it never scored properties and its verdict
    // is "what enforce would say", so it never verifies a pull request.
    if (b.runner.mode === "audit") {
        return fail("VERIFIED_CHECK_AUDIT_EVIDENCE", "Not verified: an audit run", "the evidence is an audit run's (runner.json mode audit): audit mode gates nothing; the base's workflow must run mode enforce");
    }
    if (b.runner.head_sha !== a.headSha) {
        return fail("VERIFIED_CHECK_EVIDENCE_REFUSED", "Not verified: evidence for another commit", `the evidence is for ${b.runner.head_sha ?? "no commit"}, the run checked ${a.headSha}`);
    }
    if (String(b.runner.repository ?? "").toLowerCase() !== String(a.run.repository.full_name).toLowerCase()) {
        return fail("VERIFIED_CHECK_EVIDENCE_REFUSED", "Not verified: evidence from another repository", `the evidence names ${b.runner.repository ?? "no repository"}`);
    }
    const attempt = String(a.run.run_attempt ?? 1);
    if (b.runner.workflow_run_id !== String(a.run.id)) {
        return fail("VERIFIED_CHECK_EVIDENCE_REFUSED", "Not verified: evidence of another run", `the evidence names run ${b.runner.workflow_run_id ?? "none"}, the App verified run ${a.run.id}`);
    }
    if (b.runner.run_attempt !== attempt) {
        return fail("VERIFIED_CHECK_EARLIER_ATTEMPT", "Not verified: another attempt's evidence", `the evidence names attempt ${b.runner.run_attempt ?? "none"} of run ${a.run.id}, the App verified attempt ${attempt}`);
    }
    const baseRef = b.runner.base_ref;
    const baseSha = b.runner.base_sha;
    if (typeof baseRef !== "string" || typeof baseSha !== "string") {
        return fail("VERIFIED_CHECK_BASE_UNNAMED", "Not verified: the evidence names no base", "runner.json records no base branch and commit (an Action from before they were recorded): what the run judged against cannot be held to the pull request's base");
    }
    if (baseRef !== a.baseRef) {
        return fail("VERIFIED_CHECK_BASE_CHANGED", "Not verified: judged against another base branch", `the run judged the pull request against ${baseRef}; it targets ${a.baseRef} now (retargeted after the run started): the run for the retarget decides`);
    }
    if (baseSha !== a.baseSha) {
        return fail("VERIFIED_CHECK_BASE_MOVED", "Not verified: judged against an older base commit", `the run judged against ${baseRef} at ${baseSha}; ${a.baseRef} is at ${a.baseSha} now (it moved while the run ran): re-run the gate`);
    }
    if (pinned.kind === "none")
        return fail(pinned.code, "Not verified: the base pins no envelope", pinned.message);
    const hash = b.runner.envelope_hash ?? b.verdict.envelope_hash;
    if (hash !== pinned.hash || b.verdict.envelope_hash !== pinned.hash) {
        return fail("VERIFIED_CHECK_EVIDENCE_REFUSED", "Not verified: another envelope", `the evidence was judged under ${hash ?? "no envelope"}, the base's digest file pins ${pinned.hash}`);
    }
    if (b.verdict.verdict !== "pass")
        return fail(null, `The gate failed: envelope ${b.verdict.verdict}`, `the envelope verdict is ${b.verdict.verdict}`);
    const failing = b.properties.filter((p) => p.result !== "pass" && !(p.result === "fail" && p.frozen_by));
    if (failing.length > 0) {
        return fail(null, "The gate failed: properties", `failing properties: ${failing.map((p) => `${p.name} (${p.result})`).join(", ")}`);
    }
    if (a.run.conclusion !== "success")
        return fail(null, "The gate failed", `the run concluded ${a.run.conclusion ?? "nothing"}`);
    const frozen = b.properties.filter((p) => p.frozen_by);
    return {
        conclusion: "success",
        code: null,
        title: "Verified: the base's gate passed on this commit",
        summary: [
            `Envelope ${pinned.hash}: pass.${frozen.length > 0 ? ` Tolerated by freezes: ${frozen.map((p) => `${p.name} (${p.frozen_by})`).join(", ")}.` : ""}`,
            `Evidence ${b.digest}, judged against ${baseRef} at ${baseSha} (properties ${b.runner.properties_digest ?? "none"}, ledger ${b.runner.ledger_digest ?? "none"}).`,
            runLineOf(a, workflowPath),
            "Checked through GitHub's API: the workflow file (and any local Action) is the base's, the head is the pull request's current head, the run is this repository's.",
        ]
            .map((paragraph) => (0,markdown/* mdText */.bC)(paragraph))
            .join("\n\n"),
    };
}
/**
 * Pure: a passing run's check held to the organisation envelope (org-ceiling.ts ceilingFacts).
 * A widening, an envelope that cannot be held to it, or an organisation envelope that does not
 * verify fails the check; within (or none, or not covered) it passes and says which.
 */
function withCeiling(content, facts) {
    if (content.conclusion !== "success")
        return content;
    if (facts.kind === "fail") {
        return {
            conclusion: "failure",
            code: facts.code,
            title: (0,markdown/* plainText */.wh)(facts.title, 255),
            summary: [
                `${(0,markdown/* mdCode */.xs)(facts.code)}: the run passed, but the base's envelope is not within the organisation envelope (docs/app.md, An organisation's envelope):`,
                facts.lines.map((l) => `- ${(0,markdown/* mdText */.bC)(l, 600)}`).join("\n"),
                content.summary,
            ].join("\n\n"),
        };
    }
    const said = facts.kind === "within"
        ? `Within the organisation envelope ${(0,markdown/* mdCode */.xs)(facts.id)} (${(0,markdown/* mdCode */.xs)(facts.digest)})${facts.exceptions.length > 0 ? `, with ${facts.exceptions.map((e) => (0,markdown/* mdText */.bC)(e, 300)).join("; ")}` : ""}.`
        : facts.kind === "uncovered"
            ? `The organisation envelope ${(0,markdown/* mdCode */.xs)(facts.id)} (${(0,markdown/* mdCode */.xs)(facts.digest)}) does not cover this repository.`
            : `No organisation envelope: ${(0,markdown/* mdText */.bC)(facts.why, 300)}.`;
    return { ...content, summary: `${content.summary}\n\n${said}` };
}
/** Reads the run's evidence for the check: a verified bundle, none, or why it does not verify. */
function evidenceFacts(evidence) {
    if (evidence.kind !== "zip")
        return evidence;
    try {
        return { kind: "bundle", bundle: readEvidenceZip(evidence.zip) };
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err))
            return { kind: "unreadable", code: err.code, message: err.message };
        throw err;
    }
}
async function pinnedFacts(ctx, gh, repository, baseSha) {
    const path = ctx.settings.envelopeDigestPath;
    const missing = `the base (${baseSha.slice(0, 12)}) has no readable ${path}`;
    let text;
    try {
        text = await gh.textAt(repoRef(repository), path, baseSha, `read ${path} at the base`, () => new core_errors/* Refusal */.P_("ENVELOPE_MISSING", missing));
    }
    catch (err) {
        // What the base holds is an answer; GitHub not answering is not, and is thrown on.
        if ((0,core_errors/* isRefusal */.vu)(err) && (err.code === "ENVELOPE_MISSING" || err.code === "POLICY_FILE_TOO_LARGE")) {
            return { kind: "none", code: err.code, message: err.message };
        }
        throw err;
    }
    if (text === null)
        return { kind: "none", code: "ENVELOPE_MISSING", message: missing };
    try {
        return { kind: "hash", hash: `sha256:${(0,core_envelope/* parseDigestFile */.UC)(text, path)}` };
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err))
            return { kind: "none", code: err.code, message: err.message };
        throw err;
    }
}
/** The open pull request a refused run speaks for: the one it ran for, read open with the run's commit as its head. */
function refusedRunPull(verdict) {
    const p = verdict.pull;
    return p !== null && p.state === "open" && p.head.sha === verdict.run.head_sha ? p : null;
}
/**
 * The verified check for a completed pull_request or pull_request_review run, once per run attempt (the store's claim;
 * a post whose record was lost is found again by its content). The run's verdict is recorded for
 * the pull request it ran for, against that pull request's current base; then the commit's check
 * is evaluated again (evaluateHead). A run whose head is no longer the pull request's (or of a
 * closed pull request) records and posts nothing: the current head's own run decides.
 */
async function postVerifiedCheck(ctx, gh, repository, run, verdict, evidence, workflowPath) {
    if (!isRunnerAEvent(run.event))
        return "";
    if (!verdict.verified && verdict.refusal.code === "RUNNER_A_NOT_CURRENT_HEAD")
        return "no verified check (not the pull request's current head)";
    // A newer event of the same pull request cancelled it (the documented concurrency group): the newer run decides.
    if (run.conclusion === "cancelled")
        return "no verified check (the run was cancelled)";
    const owner = ctx.settings.replicaId;
    const key = { repository, run_id: run.id, run_attempt: run.run_attempt ?? 1 };
    const claimed = await ctx.store.runs.claimVerifiedCheck({ ...key, head_sha: run.head_sha }, owner, ctx.clock.now(), ctx.settings.leaseMs);
    if (!claimed) {
        const row = await ctx.store.runs.getVerifiedCheck(repository, key.run_id, key.run_attempt);
        if (row?.state === "posted")
            return `verified check already posted (${row.conclusion ?? "?"})`;
        return row?.state === "skipped"
            ? "verified check already handled (no open pull request on this commit)"
            : "verified check being posted elsewhere";
    }
    try {
        let content;
        if (verdict.verified) {
            const raw = await evidence();
            const facts = evidenceFacts(raw);
            const gate = await gateFacts(ctx, gh, repository, verdict.a, facts);
            const pinned = await pinnedFacts(ctx, gh, repository, verdict.a.baseSha);
            content = verifiedRunCheck(verdict.a, workflowPath, facts, pinned, gate);
            if (content.conclusion === "success" && pinned.kind === "hash")
                content = withCeiling(content, await ceilingFacts(ctx, gh, repository, verdict.a.baseSha, pinned.hash, raw.kind === "zip" ? runFactsOf(raw.zip) : null));
        }
        else
            content = refusedCheck(verdict.refusal);
        const pull = verdict.verified
            ? { number: verdict.a.pullNumber, baseRef: verdict.a.baseRef, baseSha: verdict.a.baseSha }
            : (() => {
                const p = refusedRunPull(verdict);
                return p === null ? null : { number: p.number, baseRef: p.base.ref, baseSha: p.base.sha };
            })();
        if (pull !== null) {
            await ctx.store.heads.recordVerdict({
                repository,
                head_sha: run.head_sha,
                pull_number: pull.number,
                base_ref: pull.baseRef,
                base_sha: pull.baseSha,
                run_id: key.run_id,
                run_attempt: key.run_attempt,
                conclusion: content.conclusion,
                code: content.code,
                title: content.title,
                summary: content.summary,
                recorded_at: ctx.clock.now(),
            });
        }
        await ctx.store.heads.bump(repository, run.head_sha, ctx.clock.now());
        const head = await evaluateHead(ctx, gh, repository, run.head_sha, run.html_url ?? null);
        await ctx.store.runs.finishVerifiedCheck(key, owner, {
            state: head.checkRunId === null ? "skipped" : "posted",
            conclusion: content.conclusion,
            code: content.code,
            check_run_id: head.checkRunId,
            at: ctx.clock.now(),
        });
        ctx.log(content.conclusion === "success" ? "info" : "warn", "verified_check.run", {
            repository,
            run: run.id,
            pull: pull?.number ?? null,
            conclusion: content.conclusion,
            code: content.code,
        });
        return `${head.outcome}; this run: ${content.conclusion}${content.code ? ` ${content.code}` : ""}${pull === null ? ", for no open pull request" : ""}`;
    }
    catch (err) {
        await ctx.store.runs.releaseVerifiedCheck(key, owner).catch(() => undefined);
        throw err;
    }
}
function busy(repository, head) {
    throw new core_errors/* Refusal */.P_("VERIFIED_CHECK_BUSY", `another delivery is posting ${repository}'s verified check on ${head.slice(0, 12)}`, {
        hint: "Nothing to do: the delivery is queued and retried once the other one is done, so its change is included.",
    });
}
const outcomeOf = (conclusion, code) => conclusion === null
    ? "no verified check (no open pull request on this commit)"
    : `verified check ${conclusion}${code ? ` (${code})` : ""}`;
/**
 * Posts the commit's verified check made of the latest state, one poster at a time (the head's
 * claim). Called after a change was recorded (`bump`); loops while changes arrive during a post,
 * so the check posted last is made of the latest generation. Another poster holding the claim is
 * VERIFIED_CHECK_BUSY (transient: the delivery is retried).
 */
async function evaluateHead(ctx, gh, repository, head, detailsUrl) {
    const owner = ctx.settings.replicaId;
    for (let round = 0; round < 5; round++) {
        const row = await ctx.store.heads.get(repository, head);
        if (row === null)
            return { checkRunId: null, outcome: outcomeOf(null, null) };
        if (row.posted_generation >= row.generation)
            return { checkRunId: row.check_run_id, outcome: outcomeOf(row.conclusion, row.code) };
        if (!(await ctx.store.heads.claim(repository, head, owner, ctx.clock.now(), ctx.settings.leaseMs)))
            busy(repository, head);
        let generation = row.generation;
        let done;
        try {
            generation = (await ctx.store.heads.get(repository, head))?.generation ?? generation;
            done = await postHeadCheck(ctx, gh, repository, head, generation, detailsUrl);
        }
        catch (err) {
            await ctx.store.heads.release(repository, head, owner).catch(() => undefined);
            throw err;
        }
        if (!(await ctx.store.heads.finish(repository, head, owner, generation, { ...done, at: ctx.clock.now() })))
            busy(repository, head);
    }
    busy(repository, head);
}
/**
 * One evaluation: the open pull requests GitHub associates with the commit (and any whose verdict
 * is recorded, read again), their verdicts, the check runs of the verified check's name by anyone;
 * posts the check unless the App's latest one on the commit already says exactly that.
 */
async function postHeadCheck(ctx, gh, repository, head, generation, detailsUrl) {
    const r = repoRef(repository);
    const name = ctx.settings.verifiedCheckName;
    const appId = Number(ctx.settings.appId);
    const [listed, verdicts, checks] = await Promise.all([
        gh.pullsOfCommit(r, head),
        ctx.store.heads.verdicts(repository, head),
        gh.checkRunsNamed(r, head, name),
    ]);
    const open = new Map();
    for (const p of listed)
        if (p.state === "open" && p.head_sha === head)
            open.set(p.number, { number: p.number, baseRef: p.base_ref, headRepository: p.head_repository });
    for (const v of verdicts) {
        if (open.has(v.pull_number))
            continue;
        // GitHub lists only the merged pull request for a commit already on the default branch.
        const p = await gh.readPull(r, v.pull_number);
        if (p !== null && p.state === "open" && p.head.sha === head)
            open.set(p.number, { number: p.number, baseRef: p.base.ref, headRepository: p.head.repo?.full_name ?? null });
    }
    const foreign = checks
        .filter((c) => c.app_id !== appId)
        .map((c) => ({ id: c.id, app_id: c.app_id, app_slug: c.app_slug, conclusion: c.conclusion, external_id: c.external_id }));
    if (foreign.length > 0)
        ctx.log("warn", "verified_check.foreign", { repository, head, checks: foreign });
    const pulls = () => JSON.stringify([...open.values()].map((p) => ({
        number: p.number,
        base_ref: p.baseRef,
        conclusion: verdicts.find((v) => v.pull_number === p.number && v.base_ref === p.baseRef)?.conclusion ?? "not verified",
    })));
    if (open.size === 0)
        return { check_run_id: null, conclusion: null, code: null, pulls: pulls(), foreign_checks: JSON.stringify(foreign) };
    const content = headCheck([...open.values()], verdicts, foreign, name);
    const summary = content.summary.slice(0, CHECK_OUTPUT_MAX_CHARS);
    const latest = checks
        .filter((c) => c.app_id === appId)
        .reduce((a, c) => (a === null || c.id > a.id ? c : a), null);
    const same = latest !== null &&
        latest.status === "completed" &&
        latest.conclusion === content.conclusion &&
        latest.title === content.title &&
        latest.summary === summary;
    const id = same
        ? latest.id
        : await gh.createCheckRun(r, {
            name,
            head_sha: head,
            conclusion: content.conclusion,
            title: content.title,
            summary,
            external_id: `${head.slice(0, 12)}:${generation}`,
            ...(detailsUrl ? { details_url: detailsUrl } : {}),
        });
    ctx.log(content.conclusion === "success" ? "info" : "warn", "verified_check.posted", {
        repository,
        head,
        conclusion: content.conclusion,
        code: content.code,
        pulls: [...open.keys()],
        reused: same,
    });
    return { check_run_id: id, conclusion: content.conclusion, code: content.code, pulls: pulls(), foreign_checks: JSON.stringify(foreign) };
}
/**
 * `pull_request` opened, reopened, synchronize, closed, or edited with a base change, on a commit
 * the App has a verified check for: that check is evaluated again (for synchronize, the commit the
 * pull request left too). Null when the event changes no check.
 */
async function onPullRequestForHeads(ctx, p) {
    const action = p.action ?? "";
    const repository = p.repository?.full_name;
    const installationId = p.installation?.id;
    const sha = p.pull_request?.head?.sha;
    if (!repository || installationId === undefined || !sha)
        return null;
    if (!["opened", "reopened", "synchronize", "closed", "edited"].includes(action))
        return null;
    if (action === "edited" && p.changes?.base === undefined)
        return null;
    const heads = [...new Set([sha, ...(action === "synchronize" && p.before ? [p.before] : [])])];
    const known = [];
    for (const head of heads)
        if (await ctx.store.heads.bumpKnown(repository, head, ctx.clock.now()))
            known.push(head);
    if (known.length === 0)
        return null;
    const gh = await ctx.installation(installationId);
    const done = [];
    for (const head of known)
        done.push(`${head.slice(0, 12)}: ${(await evaluateHead(ctx, gh, repository, head, null)).outcome}`);
    return `pull request #${p.pull_request?.number ?? "?"} ${action}: ${done.join("; ")}`;
}
/**
 * Any `pull_request` or `pull_request_review` event of a pull request the App holds gated: the
 * pull request's verdict on the head the event names, when a successful run without evidence made
 * it (it depends on the gate memory and the reviews: core/gate-memory.ts `dependsOnGate`), is made
 * again from the memory and GitHub's reviews now, and the commit's check evaluated again. So an
 * ungate review turns a `VERIFIED_CHECK_STILL_GATED` verdict neutral without another run, and its
 * dismissal (or an edit that drops the command), or the label added to a pull request whose run
 * was not gated, turns a neutral one failing at once. Null when no such verdict is recorded.
 */
async function onGateChange(ctx, p) {
    const head = pullRequestHead(p);
    const installationId = p.installation?.id;
    if (head === null || head.headSha === null || installationId === undefined)
        return null;
    const { repository, number, headSha } = head;
    if ((await ctx.store.gated.get(repository, number)) === null)
        return null;
    const v = (await ctx.store.heads.verdicts(repository, headSha)).find((x) => x.pull_number === number);
    if (v === undefined || !dependsOnGate(v))
        return null;
    const gh = await ctx.installation(installationId);
    const pull = await gh.readPull(repoRef(repository), number);
    // Another head now: that head's run decides (and is decided with the memory as it is).
    if (pull === null || pull.state !== "open" || pull.head.sha !== headSha)
        return null;
    const gate = await gateOf(ctx, gh, repository, { number, author: pull.user?.login ?? null, headSha });
    const content = noEvidenceCheck(gate, runLine({
        runId: v.run_id,
        attempt: v.run_attempt,
        workflowPath: gateWorkflowPath(ctx.settings.workflow),
        headSha,
        pullNumber: number,
        baseRef: v.base_ref,
        baseSha: v.base_sha,
    }));
    const same = content.conclusion === v.conclusion && content.code === v.code && content.title === v.title && content.summary === v.summary;
    // Recorded for the same run and attempt: a newer run's verdict, recorded meanwhile, stays.
    if (!same && (await ctx.store.heads.recordVerdict({ ...v, ...content, recorded_at: ctx.clock.now() }))) {
        await ctx.store.heads.bump(repository, headSha, ctx.clock.now());
        ctx.log(content.conclusion === "failure" ? "warn" : "info", "verified_check.regated", {
            repository,
            pull: number,
            head: headSha,
            run: v.run_id,
            conclusion: content.conclusion,
            code: content.code,
        });
    }
    const done = await evaluateHead(ctx, gh, repository, headSha, null);
    return `pull request #${number}'s verdict on ${headSha.slice(0, 12)} ${same ? "unchanged" : `made again: ${content.conclusion}${content.code ? ` ${content.code}` : ""}`}; ${done.outcome}`;
}

;// CONCATENATED MODULE: ./src/core/audit.ts
/**
 * Audit mode (docs/action.md, "Audit mode"): what one recorded run touched, what enforce would
 * have said of it, and the envelope that would let it pass, as a neutral check. Pure: the
 * Action (src/action/audit.ts) reads the log and writes the files.
 *
 * Every string from the run or the repository (paths, keys, hosts, commands, ids, the envelope's
 * text) is escaped where it is interpolated (./markdown.ts): mdCode/mdText inline, mdFence for
 * the code blocks.
 */



/** Suffix of the audit check's name: never `<check-name>` itself (docs/action.md explains why). */
const AUDIT_CHECK_SUFFIX = " (audit)";
/**
 * The envelope an audit applies where the repository has none yet (neither the envelope nor its
 * digest at the commit): the workspace and scratch, `PATH` and the CI set, nothing else. The
 * first audit's suggestion widens it to what the run needed.
 */
const STARTER_ENVELOPE = {
    envelope_id: "starter-envelope",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: ["PATH", "@ci"],
    allowed_hosts: [],
    network: "deny",
};
/** STARTER_ENVELOPE as the Action applies it (its bytes are what its hash is of). */
const STARTER_ENVELOPE_TEXT = JSON.stringify(STARTER_ENVELOPE, null, 2) + "\n";
/** Which of the audit's classes an event of each kind is listed in. */
const AUDIT_CLASS = {
    write: "writesOutsideRoots",
    env: "envKeys",
    host: "hosts",
    exec: "commands",
    tool: "tools",
    syscall: null,
};
/**
 * What the run touched, as the one walk (./log-reader.ts walkLog) names it under the envelope
 * applied and its expanded `roots`: writes the write judge puts outside the roots, env keys read
 * (the runtime's own documented reads left out), endpoints by the name an entry allows them by
 * (loopback inside the run's own network namespace left out, as check does), commands by their
 * allowed_commands entry, tools dispatched: the names its own suggestion and the footprint use.
 */
function auditFootprint(log, envelope, roots) {
    const sets = {
        writesOutsideRoots: new Set(),
        envKeys: new Set(),
        hosts: new Set(),
        commands: new Set(),
        tools: new Set(),
    };
    for (const e of walkLog(log, envelope, roots).events) {
        const cls = AUDIT_CLASS[e.kind];
        if (cls === null || (e.kind === "env" && e.runtime) || (e.kind === "host" && e.ownLoopback))
            continue;
        if (e.kind === "write" && e.verdict !== "write_outside_root")
            continue;
        sets[cls].add(e.subject);
    }
    return {
        writesOutsideRoots: [...sets.writesOutsideRoots],
        envKeys: [...sets.envKeys],
        hosts: [...sets.hosts],
        commands: [...sets.commands],
        tools: [...sets.tools],
    };
}
function plural(n, one, many) {
    return `${n} ${n === 1 ? one : many}`;
}
/** The audit's decision: always neutral; the headline is the check title after `audit: `. */
function auditDecision(violations, added) {
    return {
        verdict: "audit",
        conclusion: "neutral",
        headline: `${plural(violations, "violation", "violations")} under the current envelope; suggested envelope adds ${plural(added, "entry", "entries")}`,
    };
}
const MAX_CELL = 600;
const cell = (s) => mdText(s, MAX_CELL);
const code = (s) => mdCode(s, { inTable: true, max: MAX_CELL });
function render(input, limit) {
    const { report, envelope, footprint: f } = input;
    const out = [];
    out.push(`## ${cell(input.checkName)}: AUDIT`, "", `**${cell(input.decision.headline)}**`, "");
    out.push("Audit mode: the run was jailed and recorded as usual, with every host let out through the recording proxy. This check is `neutral` and never stands in for the gate's own check.", "");
    const facts = [
        ["verdict", `${code("audit")} (conclusion ${code("neutral")})`],
        ["envelope", `${code(envelope.id)}, ${code(envelope.hash)}`],
        [
            "envelope read from",
            envelope.file === null
                ? `none at ${code(input.envelopePath)} (${cell(envelope.source)} ${code(envelope.ref.slice(0, 12))}): the starter envelope was applied`
                : `${code(envelope.file)} at ${code(envelope.ref.slice(0, 12))} (${cell(envelope.source)})`,
        ],
    ];
    const t = input.target;
    facts.push(t.kind === "pull"
        ? ["pull request", `#${t.number}, head ${code(t.headSha.slice(0, 12))}, base ${code(t.baseSha.slice(0, 12))}`]
        : ["commit", `${code(t.sha.slice(0, 12))} on ${code(t.ref)}`]);
    if (report.log) {
        facts.push([
            "observer run",
            `${code(String(report.log.run_id))} on ${code(String(report.log.runner))}, ${report.events} events, exit code ${cell(String(report.log.exit_code ?? "none (signal)"))}`,
        ]);
    }
    facts.push(["evidence", `artifact ${code(input.evidence.artifact)}, digest ${code(input.evidence.digest ?? "not written")}`]);
    out.push("| | |", "| --- | --- |", ...facts.map(([k, v]) => `| ${k} | ${v} |`), "");
    out.push("### What the run touched", "", "| class | distinct | first of them |", "| --- | --- | --- |");
    const classes = [
        ["writes outside the roots", f.writesOutsideRoots],
        ["env keys read", f.envKeys],
        ["hosts", f.hosts],
        ["commands", f.commands],
        ["tools", f.tools],
    ];
    const shown = Math.min(limit, 10);
    for (const [label, items] of classes) {
        const first = items.slice(0, shown).map(code).join(", ");
        out.push(`| ${label} | ${items.length} | ${first}${items.length > shown ? `, … (${items.length - shown} more)` : ""} |`);
    }
    out.push("");
    out.push(`### What enforce would report (${plural(report.violations.length, "violation", "violations")})`, "");
    if (report.violations.length === 0)
        out.push("None: under the current envelope this run would pass the envelope check.", "");
    else {
        out.push("| id | what happened | first at log line | count |", "| --- | --- | --- | --- |");
        for (const v of report.violations.slice(0, limit))
            out.push(violationRow(v));
        if (report.violations.length > limit)
            out.push("", `...and ${report.violations.length - limit} more (all of them are in the evidence bundle's verdict.json).`);
        out.push("");
    }
    out.push(`### Suggested envelope (${plural(input.added.length, "entry", "entries")} added)`, "");
    if (input.added.length > 0) {
        out.push("| key | entry | covers | seen | first at |", "| --- | --- | --- | --- | --- |");
        for (const a of input.added.slice(0, limit)) {
            const covers = a.covers.length > 1 || a.covers[0] !== a.entry ? a.covers.slice(0, 4).map(code).join(", ") : "";
            out.push(`| ${code(a.key)} | ${code(a.entry)} | ${covers} | ${a.count} | ${code(a.first)} |`);
        }
        if (input.added.length > limit)
            out.push("", `...and ${input.added.length - limit} more (see the suggested envelope below).`);
        out.push("");
    }
    if (input.notProposed.length > 0) {
        out.push(`### Not proposed (${input.notProposed.length}): never allowed by a suggestion; add one by hand, listed exactly, only if the run must have it`, "", "| key | entry | why | seen | first at |", "| --- | --- | --- | --- | --- |");
        for (const n of input.notProposed.slice(0, limit)) {
            const avoid = n.avoidWith === undefined ? "" : `; ${code(n.avoidWith)} would have avoided them`;
            const covers = n.covers.length > 1 || n.covers[0] !== n.entry ? `<br>covers ${n.covers.slice(0, 4).map(code).join(", ")}` : "";
            out.push(`| ${code(n.key)} | ${code(n.entry)}${covers} | ${cell(n.why)}${avoid} | ${n.count} | ${code(n.first)} |`);
        }
        if (input.notProposed.length > limit)
            out.push("", `...and ${input.notProposed.length - limit} more.`);
        out.push("");
    }
    for (const n of input.suggestionNotes.slice(0, limit))
        out.push(`> ${cell(n)}`, "");
    out.push(`Changes to ${mdCode(input.envelopePath)}:`, "", mdFence(input.diff, "diff"), "");
    out.push(`The suggested ${mdCode(input.envelopePath)} (also ${mdCode(input.suggestedPath)} in the evidence bundle):`, "");
    out.push(mdFence(input.suggestedText.replace(/\n$/, ""), "json"), "");
    out.push(`Its ${mdCode(input.digestPath)}:`, "", mdFence(input.suggestedDigestLine.replace(/\n$/, "")), "");
    out.push("Review it, commit both files to the base branch in one pull request, then switch the workflow to `mode: enforce` (docs/action.md, Audit mode).", "");
    for (const note of input.notes)
        out.push(`> ${cell(note)}`, "");
    return out.join("\n");
}
function violationRow(v) {
    const [before, subject, after] = describeViolationParts(v);
    return `| ${code(v.id)} | ${cell(before)}${code(subject)}${cell(after)} | ${v.first_line} | ${v.count} |`;
}
/** The audit check's summary (and the job summary), within GitHub's 65535 characters. */
function renderAuditSummary(input, maxChars = 65535) {
    for (const limit of [Number.POSITIVE_INFINITY, 200, 50, 10, 0]) {
        const text = render(input, limit);
        if (text.length <= maxChars)
            return text;
    }
    return clipMarkdown(render(input, 0), maxChars, "\n\n(summary cut to GitHub's size limit; the evidence bundle's suggested-envelope.json holds the whole suggestion)\n");
}

// EXTERNAL MODULE: ./src/core/suggest.ts
var suggest = __webpack_require__(2085);
;// CONCATENATED MODULE: ./src/core/envelope-proposal.ts
/**
 * The envelope the App proposes from the audit runs of a repository's default branch: the audit
 * bundles read and verified, their observer logs merged through `suggestEnvelope` from the
 * envelope at the branch's tip, and the envelope PR's files, title and body. Pure: the App
 * downloads the bundles and reads the envelope; nothing here does I/O.
 */









/** `runner.json`'s `mode` in an audit bundle (the Action's `mode: audit`). */
const AUDIT_MODE = "audit";
/** A repository without an envelope starts from the Action's starter (docs/authoring.md, "The adoption path"). */

function envelope_proposal_unavailable(message) {
    throw new core_errors/* Refusal */.P_("AUDIT_EVIDENCE_UNAVAILABLE", message, {
        hint: "An audit run whose evidence cannot be read proposes nothing; the next audit run of the default branch is read instead.",
    });
}
/**
 * Unzips an audit run's evidence artifact, verifies the manifest and every file's digest
 * (EVIDENCE_DIGEST_MISMATCH), and reads runner.json and observer.jsonl, which the manifest must
 * cover (AUDIT_EVIDENCE_UNAVAILABLE otherwise).
 */
function readAuditBundle(zip) {
    let entries;
    try {
        entries = (0,fflate_esm/* unzipSync */.AO)(zip);
    }
    catch (err) {
        return envelope_proposal_unavailable(`the evidence artifact is not a readable zip (${err.message})`);
    }
    const files = new Map(Object.entries(entries).filter(([name]) => !name.endsWith("/")));
    const { digest, manifest } = verifyBundle(files);
    for (const required of [EVIDENCE_FILES.runner, EVIDENCE_FILES.observerLog]) {
        if (!(required in manifest.files))
            envelope_proposal_unavailable(`the evidence manifest does not cover ${required}`);
    }
    const decode = (name) => {
        try {
            return new TextDecoder("utf-8", { fatal: true }).decode(files.get(name));
        }
        catch {
            return envelope_proposal_unavailable(`${name} in the evidence bundle is not UTF-8`);
        }
    };
    let runner;
    try {
        runner = JSON.parse(decode(EVIDENCE_FILES.runner));
    }
    catch {
        envelope_proposal_unavailable(`${EVIDENCE_FILES.runner} in the evidence bundle is not JSON`);
    }
    if (typeof runner !== "object" || runner === null || Array.isArray(runner))
        envelope_proposal_unavailable(`${EVIDENCE_FILES.runner} is not an object`);
    const mode = runner.mode;
    return {
        digest,
        mode: typeof mode === "string" ? mode : null,
        runner: runner,
        log: decode(EVIDENCE_FILES.observerLog),
    };
}
/**
 * An audit run's observer log, named `file`, read by the reader `check` uses: a log it refuses
 * is refused here with the same code (OBSERVER_LOG_MALFORMED, OBSERVER_LOG_INCOMPLETE, ...).
 */
function parseAuditLog(text, file) {
    const log = { file, bytes: new TextEncoder().encode(text) };
    (0,log_reader/* walkLog */.w4)(log, null);
    return log;
}
/** The digest file's path beside the envelope: `<envelope path>.sha256`. */
function digestPathFor(envelopePath) {
    return `${envelopePath}.sha256`;
}
function baseName(path) {
    return path.slice(path.lastIndexOf("/") + 1);
}
const sameEntry = (a, b) => a.key === b.key && (a.entry === b.entry || a.covers.some((c) => b.covers.includes(c)));
function programsOf(e) {
    const extra = e;
    const list = Array.isArray(extra.programs) ? extra.programs : typeof extra.program === "string" ? [extra.program] : [];
    return list.filter((p) => typeof p === "string" && p !== "");
}
/**
 * Merges the runs' logs through `suggestEnvelope` from the current envelope (or the starter one):
 * the proposal only ever adds. A current envelope that does not parse is ENVELOPE_INVALID (no
 * proposal is made over an envelope the App cannot read).
 */
function buildEnvelopeProposal(input) {
    const current = input.current === null ? null : (0,core_envelope/* loadEnvelope */.BC)(new TextEncoder().encode(input.current), `${input.envelopePath} on ${input.branch}`);
    const from = current?.envelope ?? STARTER_ENVELOPE;
    // Oldest first, so an entry's first line is where the earliest of the runs showed it.
    const logs = [...input.runs].reverse().map((r) => r.log);
    const suggestion = (0,suggest/* suggestEnvelope */.bD)(logs, from);
    const perRun = input.runs.map((r) => ({ runId: r.runId, ...(0,suggest/* suggestEnvelope */.bD)([r.log], from) }));
    const suggested = suggestion.added.map((a) => ({
        ...a,
        runs: perRun.filter((p) => p.added.some((b) => sameEntry(a, b))).map((p) => p.runId),
        programs: programsOf(a),
    }));
    const { envelope, added, aboveCeiling } = capToCeiling(from, suggestion.envelope, suggested, input.ceiling?.ceiling ?? null);
    const notProposed = suggestion.notProposed.map((n) => ({
        ...n,
        runs: perRun
            .filter((p) => p.notProposed.some((m) => m.key === n.key && (m.entry === n.entry || m.covers.some((c) => n.covers.includes(c)))))
            .map((p) => p.runId),
    }));
    const text = (0,suggest/* envelopeJson */.X8)(envelope);
    const bytes = new TextEncoder().encode(text);
    const digestLine = (0,core_envelope/* formatDigestLine */.sv)(bytes, baseName(input.envelopePath));
    const digest = `sha256:${(0,core_envelope/* sha256Hex */.fg)(bytes)}`;
    const changed = current === null || added.length > 0 || envelope.network !== from.network;
    const title = `envelope-gate: ${current === null ? "add the envelope" : `widen the envelope by ${added.length} entr${added.length === 1 ? "y" : "ies"}`} from audit runs of ${(0,markdown/* plainTitle */.D4)(input.branch, 100)}`;
    const body = proposalBody(input, {
        from,
        fromText: input.current,
        text,
        digestLine,
        digest,
        added,
        notProposed,
        notes: suggestion.notes,
        network: envelope.network,
        aboveCeiling,
    });
    return { changed, envelope, text, digestLine, digest, added, notProposed, aboveCeiling, notes: suggestion.notes, title, body };
}
/**
 * The proposal held under the organisation's ceiling: each added entry that would widen past it
 * (core/ceiling.ts widenings, the verified check's own judge) is taken out and listed apart, and
 * so is a change of network to allowlist the ceiling denies, with the hosts it would have opened.
 * Entries of the current envelope are left as they are: a proposal only adds.
 */
function capToCeiling(from, proposed, added, ceiling) {
    if (ceiling === null)
        return { envelope: proposed, added, aboveCeiling: [] };
    const above = [];
    const envelope = { ...proposed };
    let kept = added;
    if (proposed.network === "allowlist" && from.network === "deny" && ceiling.network === "deny") {
        envelope.network = "deny";
        above.push({ key: "network", entry: "allowlist", why: "the organisation's ceiling says network deny", covers: [], runs: [] });
        envelope.allowed_hosts = from.allowed_hosts;
        for (const a of kept.filter((x) => x.key === "allowed_hosts"))
            above.push({ key: a.key, entry: a.entry, why: "the ceiling denies the network", covers: a.covers, runs: a.runs });
        kept = kept.filter((x) => x.key !== "allowed_hosts");
    }
    const wide = widenings(envelope, ceiling);
    const isAbove = (a) => wide.find((w) => w.key === a.key && w.entry === a.entry);
    for (const a of kept) {
        const w = isAbove(a);
        if (w === undefined)
            continue;
        above.push({ key: a.key, entry: a.entry, why: w.why, covers: a.covers, runs: a.runs });
        const list = envelope[a.key];
        if (list !== undefined)
            envelope[a.key] = list.filter((e) => e !== a.entry);
    }
    return { envelope, added: kept.filter((a) => isAbove(a) === undefined), aboveCeiling: above };
}
function proposalBody(input, p) {
    const code = (v, max = 200) => (0,markdown/* mdCode */.xs)(v, { inTable: true, max });
    // What an entry covers, where it is more than the entry itself (the first four).
    const coversCell = (e) => e.covers.length > 1 || e.covers[0] !== e.entry
        ? `<br>covers ${e.covers
            .slice(0, 4)
            .map((c) => code(c, 120))
            .join(", ")}${e.covers.length > 4 ? `, … (${e.covers.length})` : ""}`
        : "";
    const runLink = (id) => {
        const run = input.runs.find((r) => r.runId === id);
        return run?.url ? (0,markdown/* mdLink */.YF)(`run ${id}`, run.url) : (0,markdown/* mdText */.bC)(`run ${id}`);
    };
    const runsCell = (runs) => (runs.length > 0 ? runs.map(runLink).join(", ") : "(the runs together)");
    const path = (0,markdown/* mdCode */.xs)(input.envelopePath);
    const out = [
        input.current === null
            ? `The default branch ${(0,markdown/* mdCode */.xs)(input.branch)} has no envelope at ${path}. This PR adds one: the starter envelope (the two roots, ${(0,markdown/* mdCode */.xs)("PATH")} and ${(0,markdown/* mdCode */.xs)("@ci")}, no network) plus what the audit runs below did.`
            : `The audit runs of ${(0,markdown/* mdCode */.xs)(input.branch)} below did things the envelope at ${path} does not allow. This PR widens it by exactly the entries listed.`,
        "",
        "**This proposal only adds.** Every entry it adds is listed here; it never removes or narrows one (remove an entry by hand, in a PR of your own). Merging it widens what an agent's pull request may do under the gate; closing it keeps the envelope as it is.",
        "",
    ];
    if (p.added.length > 0) {
        out.push("| key | entry | program | seen | first at | runs |", "| --- | --- | --- | --- | --- | --- |", ...p.added.map((a) => {
            const covers = coversCell(a);
            const programs = a.programs.length > 0
                ? a.programs
                    .slice(0, 3)
                    .map((x) => code(x, 120))
                    .join(", ")
                : "(not named)";
            const runs = runsCell(a.runs);
            return `| ${code(a.key)} | ${code(a.entry)}${covers} | ${programs} | ${a.count} time${a.count === 1 ? "" : "s"} | ${code(a.first)} | ${runs} |`;
        }), "");
    }
    if (p.notProposed.length > 0) {
        out.push("**Not proposed.** The runs needed these too, but a proposal never allows them (a credential, a credential carrier, the machine's or the run's identity, a key that controls a program or is not printable ASCII; a system directory, a tool cache, another program's install directory, or writes the jail refused that the command did not need). Add one by hand, listed exactly, only if the run must have it:", "", "| key | entry | why | program | seen | first at | runs |", "| --- | --- | --- | --- | --- | --- | --- |", ...p.notProposed.map((n) => {
            const covers = coversCell(n);
            const avoid = n.avoidWith === undefined ? "" : `; ${code(n.avoidWith)} would have avoided them`;
            const runs = runsCell(n.runs);
            return `| ${code(n.key)} | ${code(n.entry)}${covers} | ${(0,markdown/* mdText */.bC)(n.why, 300)}${avoid} | ${n.program === undefined ? "(not named)" : code(n.program, 120)} | ${n.count} time${n.count === 1 ? "" : "s"} | ${code(n.first)} | ${runs} |`;
        }), "");
    }
    if (p.aboveCeiling.length > 0) {
        const c = input.ceiling;
        out.push(`**Above the organisation's ceiling (not proposed).** The runs needed these too, but the organisation envelope ${c ? `${(0,markdown/* mdCode */.xs)(c.id)} (${(0,markdown/* mdCode */.xs)(c.digest)})` : ""} does not let this repository allow them, so no proposal ever will: the verified check would fail the envelope. For the platform team: widen the organisation envelope, or add an exception row with an end date, in the organisation's ${(0,markdown/* mdCode */.xs)(".github")} repository.`, "", "| key | entry | why | runs |", "| --- | --- | --- | --- |", ...p.aboveCeiling.map((a) => `| ${code(a.key)} | ${code(a.entry)}${coversCell(a)} | ${(0,markdown/* mdText */.bC)(a.why, 300)} | ${runsCell(a.runs)} |`), "");
    }
    if (p.network !== p.from.network) {
        out.push(`${(0,markdown/* mdCode */.xs)("network")} changes from ${(0,markdown/* mdCode */.xs)(p.from.network)} to ${(0,markdown/* mdCode */.xs)(p.network)}: the hosts above are the only ones allowed.`, "");
    }
    if (p.notes.length > 0)
        out.push("Notes:", "", ...p.notes.map((n) => `- ${(0,markdown/* mdText */.bC)(n, 600)}`), "");
    out.push(`The change to ${path}:`, "", (0,markdown/* mdFence */.F)((0,suggest/* lineDiff */.gf)(p.fromText ?? "", p.text), "diff"), "", `The digest, committed as ${(0,markdown/* mdCode */.xs)(digestPathFor(input.envelopePath))}: ${(0,markdown/* mdCode */.xs)(p.digestLine.trimEnd())} (${(0,markdown/* mdCode */.xs)(p.digest)}).`, "", `From the last ${input.runs.length} verified audit run${input.runs.length === 1 ? "" : "s"} of ${(0,markdown/* mdCode */.xs)(input.branch)}, newest first:`, "", ...input.runs.map((r) => `- ${runLink(r.runId)} at ${(0,markdown/* mdCode */.xs)(r.headSha)}, evidence ${(0,markdown/* mdCode */.xs)(r.evidence)}`));
    if (input.leftOut.length > 0) {
        out.push("", "Left out (their evidence could not be read again):", "", ...input.leftOut.map((l) => `- ${(0,markdown/* mdText */.bC)(`run ${l.runId}`)}: ${(0,markdown/* mdText */.bC)(l.why, 300)}`));
    }
    out.push("", "This branch is the App's: it is updated when a later audit run needs more, and a commit anyone else pushes to it closes this PR unmerged.");
    // GitHub takes a body of at most 65,536 characters; the files on the branch are the whole proposal.
    return (0,markdown/* clipMarkdown */._n)(out.join("\n"), BODY_MAX, "\n\n(The rest is cut: GitHub takes no longer a body. The branch's envelope.json is the whole proposal.)");
}
/** Longest envelope PR body written (GitHub's limit is 65,536 characters). */
const BODY_MAX = 60_000;

;// CONCATENATED MODULE: ./src/core/first-parent.ts
/**
 * Whether a commit is on a branch's first-parent history: the commits that were the branch's tip
 * (a merge's first parent is the branch it was made on). Pure: the caller lists the commits.
 */
/**
 * Walks from `tip` through first parents, looking for `sha` among the first `limit` commits
 * (`tip` is the first). `parents`: each listed commit's parents, first parent first.
 */
function onFirstParentHistory(parents, tip, sha, limit) {
    let at = tip;
    for (let walked = 0; at !== null && walked < limit; walked++) {
        if (at === sha)
            return { on: true };
        const own = parents.get(at);
        if (own === undefined)
            return { missing: at };
        at = own[0] ?? null;
    }
    return { on: false };
}

;// CONCATENATED MODULE: ./src/app/envelope-pr.ts











/**
 * Envelope PRs from audit runs (docs/app.md, *Envelope PRs from audit runs*): a completed push run
 * of the gate workflow on the default branch whose bundle says `mode: audit` is verified against
 * GitHub's API and recorded; the last ENVELOPE_GATE_AUDIT_RUNS verified runs are merged through
 * suggest from the envelope at the branch's tip; a proposal that adds anything is one PR per
 * repository, opened, updated or (in shadow mode) recorded, on the ledger PRs' trust rules: a
 * random branch, the commit recorded before any ref moves, nothing adopted the App did not make.
 */
/** How far back from the default branch's tip an audit run's commit is looked for. */
const AUDIT_ANCESTRY_LIMIT = 200;
/** Pages of the commits list (100 each) that walk reads at most; past them a commit is read alone. */
const AUDIT_HISTORY_PAGES = 10;
/** The envelope PR's branch: under the App's prefix, 80 random bits from the CSPRNG, recorded with the claim. */
function envelopeBranch(random = (0,external_node_crypto_.randomBytes)(10).toString("hex")) {
    return `envelope-gate/envelope/${random}`;
}
/** `workflow_run` completed for a push run of the gate workflow: judge it as an audit run, then propose. */
async function onAuditRun(ctx, gh, run, repository, installationId) {
    if (run.conclusion === "cancelled")
        return `ignored: push run ${run.id} was cancelled`;
    const attempt = run.run_attempt ?? 1;
    const known = await ctx.store.envelopePrs.getAuditRun(repository, run.id, attempt);
    if (known !== null && known.state !== "verified")
        return envelope_pr_describe(known);
    const r = repoRef(repository);
    const branch = await gh.defaultBranch(r);
    let fresh = null;
    if (known === null) {
        const judged = await judgeAuditRun(ctx, gh, r, run, repository, branch);
        const row = {
            repository,
            run_id: run.id,
            run_attempt: attempt,
            branch: run.head_branch ?? null,
            head_sha: run.head_sha ?? null,
            run_url: run.html_url ?? null,
            state: "refusal" in judged ? judged.state : "verified",
            code: "refusal" in judged ? judged.refusal.code : null,
            reason: "refusal" in judged ? judged.refusal.reason : null,
            evidence: "refusal" in judged ? null : judged.run.evidence,
            recorded_at: ctx.clock.now(),
        };
        await ctx.store.envelopePrs.recordAuditRun(row);
        if ("refusal" in judged) {
            ctx.log(judged.state === "refused" ? "warn" : "info", `audit_run.${judged.state}`, {
                run: run.id,
                repository,
                code: judged.refusal.code,
                reason: judged.refusal.reason,
            });
            return envelope_pr_describe(row);
        }
        fresh = judged.run;
        ctx.log("info", "audit_run.verified", { run: run.id, repository, evidence: fresh.evidence });
    }
    return `audit run ${run.id} verified; ${await proposeEnvelope(ctx, gh, repository, installationId, branch, fresh)}`;
}
function envelope_pr_describe(row) {
    return `${row.state === "ignored" ? "ignored" : "refused"} as an audit run: ${row.code ?? "?"}: ${row.reason ?? ""}`;
}
/** Verifies the run from GitHub's answers, then its evidence. A GitHub failure throws (the delivery is retried). */
async function judgeAuditRun(ctx, gh, r, run, repository, branch) {
    const refused = (code, reason) => ({ state: "refused", refusal: { code, reason } });
    const first = auditRunRefusal(run, repository, ctx.settings.workflow, branch);
    if (first !== null)
        return { state: "refused", refusal: first };
    if (!(await onBranch(gh, r, branch, run.head_sha))) {
        return refused("AUDIT_RUN_UNVERIFIED", `run ${run.id}'s commit ${run.head_sha.slice(0, 12)} is not among the last ${AUDIT_ANCESTRY_LIMIT} commits of ${branch}'s first-parent history (the commits that were its tip; one a merge brought in is not)`);
    }
    const zip = await gh.downloadArtifact(r, run.id, EVIDENCE_ARTIFACT_NAME);
    if (zip === null)
        return refused("AUDIT_EVIDENCE_UNAVAILABLE", `run ${run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (missing or expired)`);
    try {
        const bundle = readAuditBundle(zip);
        if (bundle.mode !== AUDIT_MODE) {
            return {
                state: "ignored",
                refusal: {
                    code: "AUDIT_BUNDLE_NOT_AUDIT",
                    reason: `run ${run.id}'s runner.json says mode ${bundle.mode === null ? "(none)" : JSON.stringify(bundle.mode)}, not "audit": a gated run is not learned from`,
                },
            };
        }
        if (typeof bundle.runner.head_sha === "string" && bundle.runner.head_sha !== run.head_sha) {
            return refused("AUDIT_RUN_UNVERIFIED", `run ${run.id}'s bundle names commit ${bundle.runner.head_sha.slice(0, 40)}, the run is ${run.head_sha}`);
        }
        const log = parseAuditLog(bundle.log, `run-${run.id}/observer.jsonl`);
        return { run: { runId: run.id, url: run.html_url ?? null, headSha: run.head_sha, evidence: bundle.digest, log } };
    }
    catch (err) {
        if (!(0,core_errors/* isRefusal */.vu)(err))
            throw err;
        return refused(err.code, `run ${run.id}: ${err.message}`);
    }
}
/**
 * Whether `sha` is the branch's tip or on its first-parent history within AUDIT_ANCESTRY_LIMIT
 * commits: the commits that were the branch's tip (a merge's first parent is the branch it was
 * made on). A commit a merge brought in through another parent (a pull request's intermediate
 * commit, reviewed only as part of the merged result) is not the branch's, though it is an
 * ancestor: a tag named like the branch on it runs that commit's own workflow file.
 */
async function onBranch(gh, r, branch, sha) {
    const tip = await gh.branchSha(r, branch);
    if (tip === null)
        return false;
    // The branch's history a page of 100 at a time (not a call per commit), then any commit the
    // listing did not hold read alone.
    const parents = new Map();
    let page = 0;
    let more = true;
    for (;;) {
        const answer = onFirstParentHistory(parents, tip, sha, AUDIT_ANCESTRY_LIMIT);
        if ("on" in answer)
            return answer.on;
        if (more && page < AUDIT_HISTORY_PAGES) {
            const listed = await gh.commitsPage(r, tip, ++page);
            for (const c of listed.commits)
                parents.set(c.sha, c.parents);
            more = listed.more;
            continue;
        }
        const own = await gh.commitParents(r, answer.missing);
        if (own === null)
            return false;
        parents.set(answer.missing, own);
    }
}
/** Reads the last K verified audit runs again (the fresh one as just read), newest first, and those that could not be. */
async function auditEvidence(ctx, gh, repository, branch, fresh) {
    const r = repoRef(repository);
    const rows = await ctx.store.envelopePrs.lastVerifiedAuditRuns(repository, branch, ctx.settings.auditRuns);
    const runs = [];
    const leftOut = [];
    for (const row of rows) {
        if (fresh !== null && row.run_id === fresh.runId) {
            runs.push(fresh);
            continue;
        }
        const zip = await gh.downloadArtifact(r, row.run_id, EVIDENCE_ARTIFACT_NAME);
        if (zip === null) {
            leftOut.push({ runId: row.run_id, why: `its ${EVIDENCE_ARTIFACT_NAME} artifact is gone (expired or deleted)` });
            continue;
        }
        try {
            const bundle = readAuditBundle(zip);
            if (bundle.digest !== row.evidence) {
                leftOut.push({ runId: row.run_id, why: `its evidence is now ${bundle.digest}, not the ${row.evidence ?? "?"} verified` });
                continue;
            }
            const log = parseAuditLog(bundle.log, `run-${row.run_id}/observer.jsonl`);
            runs.push({ runId: row.run_id, url: row.run_url, headSha: row.head_sha ?? "", evidence: bundle.digest, log });
        }
        catch (err) {
            if (!(0,core_errors/* isRefusal */.vu)(err))
                throw err;
            leftOut.push({ runId: row.run_id, why: `${err.code}: ${err.message}` });
        }
    }
    return { runs, leftOut };
}
/**
 * Builds the proposal and brings the repository's one envelope PR in line with it: opened,
 * updated, recorded (shadow), closed as no longer needed, or nothing.
 */
async function proposeEnvelope(ctx, gh, repository, installationId, branch, fresh) {
    const { store, settings } = ctx;
    const r = repoRef(repository);
    const evidence = await auditEvidence(ctx, gh, repository, branch, fresh);
    if (evidence.runs.length === 0)
        return "no audit evidence can be read: no proposal";
    const tip = await gh.branchSha(r, branch);
    if (tip === null)
        fail("GITHUB_UNAVAILABLE", `the default branch ${branch} of ${repository} does not exist`);
    const current = await gh.textAt(r, settings.envelopePath, tip, `read ${settings.envelopePath} on ${branch}`, (path) => new core_errors/* Refusal */.P_("ENVELOPE_UNREADABLE", `${path} on ${branch} is not a file`));
    // Nothing above the organisation's ceiling is proposed; a ceiling that cannot be read proposes nothing.
    const ceiling = await ceilingForRepository(ctx, gh, repository);
    if (ceiling.kind === "invalid") {
        ctx.log("warn", "envelope_pr.ceiling_invalid", { repository, code: ceiling.code, message: ceiling.message });
        return `no proposal: the organisation envelope does not verify (${ceiling.code}: ${ceiling.message})`;
    }
    const latest = evidence.runs[0];
    if (ceiling.kind === "ceiling" && latest !== undefined) {
        const touched = beyondCeiling(touchedInLog(latest.log), ceiling.baseline);
        await store.ceilings.recordFootprint(repository, r.owner, JSON.stringify({ ...touched, run: latest.runId, audit: true }), ctx.clock.now());
    }
    const proposal = buildEnvelopeProposal({
        repository,
        branch,
        envelopePath: settings.envelopePath,
        current,
        runs: evidence.runs,
        leftOut: evidence.leftOut,
        ceiling: ceiling.kind === "ceiling" ? { ceiling: ceiling.ceiling, id: ceiling.id, digest: ceiling.digest } : null,
    });
    const mode = (await store.installationMode(installationId)) ?? "shadow";
    const owner = settings.replicaId;
    let active = await store.envelopePrs.activeEnvelopePr(repository);
    if (active !== null && !(await store.envelopePrs.claimEnvelopePr(active.id, owner, ctx.clock.now(), settings.leaseMs)))
        envelope_pr_busy(repository);
    try {
        if (active !== null)
            active = await reconcile(ctx, gh, active, mode, branch);
        if (!proposal.changed) {
            if (active === null)
                return `the envelope on ${branch} already allows what the audit runs did: no envelope PR`;
            await retireUnneeded(ctx, gh, active);
            return `the envelope on ${branch} already allows what the audit runs did: envelope PR ${active.pr_number === null ? active.id : `#${active.pr_number}`} closed as no longer needed`;
        }
        if (active === null) {
            const id = `EP-${(0,external_node_crypto_.randomBytes)(8).toString("hex")}`;
            const inserted = await store.envelopePrs.insertEnvelopePr({
                id,
                repository,
                installation_id: installationId,
                branch: envelopeBranch(),
                base_ref: branch,
                envelope_path: settings.envelopePath,
                mode,
                ...content(proposal, evidence.runs),
                created_at: ctx.clock.now(),
            }, owner, ctx.clock.now(), settings.leaseMs);
            if (!inserted)
                envelope_pr_busy(repository);
            active = (await store.envelopePrs.getEnvelopePr(id));
        }
        return await bringInLine(ctx, gh, active, proposal, evidence.runs);
    }
    catch (err) {
        // Let the next attempt (any replica) take the claim at once rather than after the lease.
        if (active !== null)
            await release(ctx, active).catch(() => undefined);
        throw err;
    }
}
/** Gives the claim back, whatever state the envelope PR is in now (only while this process holds it). */
async function release(ctx, pr) {
    const now = (await ctx.store.envelopePrs.getEnvelopePr(pr.id)) ?? pr;
    await ctx.store.envelopePrs.updateEnvelopePr(pr.id, ctx.settings.replicaId, ["claimed", "opened", "shadowed"], now.state, { claim_owner: null, claim_until: null }, ctx.clock.now());
}
function envelope_pr_busy(repository) {
    throw new core_errors/* Refusal */.P_("ENVELOPE_PR_BUSY", `another delivery is writing ${repository}'s envelope PR`, {
        hint: "Nothing to do: the delivery is queued and retried once the other one is done, so its run is included.",
    });
}
function content(proposal, runs) {
    return {
        envelope_text: proposal.text,
        envelope_digest: proposal.digest,
        title: proposal.title,
        body: proposal.body,
        runs: JSON.stringify(runs.map((x) => x.runId)),
    };
}
/**
 * The envelope PR in flight, held to what GitHub says now: an opened one that was merged or closed
 * there, retargeted, or whose branch is no longer at the App's commit is recorded closed (and
 * closed on GitHub when the App closes it); a shadowed one of an installation promoted since is
 * superseded. Returns the one still in flight (claimed by this caller), or null.
 */
async function reconcile(ctx, gh, pr, mode, branch) {
    const r = repoRef(pr.repository);
    const end = async (state, code, detail) => {
        await ctx.store.envelopePrs.updateEnvelopePr(pr.id, ctx.settings.replicaId, [pr.state], state, { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: ctx.clock.now() }, ctx.clock.now());
        ctx.log(code === null ? "info" : "error", `envelope_pr.${code === null ? state : "refused"}`, {
            repository: pr.repository,
            pull: pr.pr_number,
            branch: pr.branch,
            code,
            detail,
        });
    };
    if (pr.state === "shadowed") {
        if (mode === "shadow" && pr.base_ref === branch)
            return pr;
        await end("closed", null, mode === "active" ? "superseded: the installation was promoted" : `superseded: the default branch is now ${branch}`);
        return null;
    }
    if (pr.state === "claimed") {
        if (pr.base_ref === branch)
            return pr;
        await end("closed", null, `superseded: the default branch is now ${branch}`);
        return null;
    }
    // opened
    const pull = await gh.getPull(r, pr.pr_number);
    if (pull.state !== "open") {
        await end(pull.merged ? "merged" : "closed", null, pull.merged ? "merged on GitHub" : "closed on GitHub");
        return null;
    }
    if (pull.base_ref !== pr.base_ref || pr.base_ref !== branch) {
        const detail = `retargeted onto ${pull.base_ref} (the App opened it onto ${pr.base_ref}; the default branch is ${branch})`;
        await end("closed", "ENVELOPE_PR_RETARGETED", detail);
        await closeWithComment(gh, r, pr, `Closed by envelope-gate (\`ENVELOPE_PR_RETARGETED\`): this envelope PR was made for \`${pr.base_ref}\`; it is not proposed onto another branch. The next audit run proposes a new one.`);
        return null;
    }
    const tip = await gh.branchSha(r, pr.branch);
    // The branch as GitHub has it now (a pull request's head is its branch's tip).
    if (tip === null || tip !== pr.commit_sha) {
        const detail = `the head of ${pr.branch} is ${tip ?? "gone"}, not the commit the App made (${pr.commit_sha ?? "none recorded"})`;
        await end("closed", "ENVELOPE_PR_TAMPERED", detail);
        await closeWithComment(gh, r, pr, `Closed by envelope-gate (\`ENVELOPE_PR_TAMPERED\`): this branch no longer holds the commit the App made (\`${pr.commit_sha ?? "?"}\`); its head is \`${tip ?? "gone"}\`. An envelope the App did not write is never proposed for review. A new envelope PR is proposed from the audit runs.`);
        return null;
    }
    return pr;
}
async function closeWithComment(gh, r, pr, comment) {
    if (pr.pr_number === null)
        return;
    await gh.closePull(r, pr.pr_number);
    await gh.comment(r, pr.pr_number, comment);
}
/** The current envelope allows everything now (merged by hand, say): the PR in flight is closed with a note. */
async function retireUnneeded(ctx, gh, pr) {
    const detail = "no longer needed: the envelope on the default branch allows everything the audit runs did";
    await ctx.store.envelopePrs.updateEnvelopePr(pr.id, ctx.settings.replicaId, [pr.state], "closed", { claim_owner: null, claim_until: null, outcome_detail: detail, closed_at: ctx.clock.now() }, ctx.clock.now());
    ctx.log("info", "envelope_pr.unneeded", { repository: pr.repository, pull: pr.pr_number });
    if (pr.state === "opened") {
        await closeWithComment(gh, repoRef(pr.repository), pr, "Closed by envelope-gate: the envelope on the default branch now allows everything the last audit runs did, so this proposal is no longer needed. A later audit run that needs more proposes a new one.");
    }
}
/** Makes the claimed (or opened, or shadowed) envelope PR say `proposal`, trusting nothing on GitHub it did not make. */
async function bringInLine(ctx, gh, pr, proposal, runs) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    const now = () => ctx.clock.now();
    const r = repoRef(pr.repository);
    const fields = content(proposal, runs);
    const entries = `${proposal.added.length} entr${proposal.added.length === 1 ? "y" : "ies"}`;
    if (pr.state === "shadowed" || (pr.state === "claimed" && pr.mode === "shadow" && pr.commit_sha === null)) {
        await store.envelopePrs.updateEnvelopePr(pr.id, owner, [pr.state], "shadowed", { ...fields, claim_owner: null, claim_until: null }, now());
        ctx.log("info", "envelope_pr.shadowed", { repository: pr.repository, branch: pr.branch, entries: proposal.added.length });
        return `envelope PR recorded (shadow mode): ${entries}`;
    }
    if (pr.state === "opened") {
        const pull = pr.pr_number;
        if (pr.envelope_text === proposal.text) {
            if (pr.body !== proposal.body || pr.title !== proposal.title)
                await gh.updatePull(r, pull, { title: proposal.title, body: proposal.body });
            await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["opened"], "opened", { ...fields, claim_owner: null, claim_until: null }, now());
            return `envelope PR #${pull} already proposes this envelope`;
        }
        const base = await gh.branchSha(r, pr.base_ref);
        if (base === null)
            fail("GITHUB_UNAVAILABLE", `the default branch ${pr.base_ref} of ${pr.repository} does not exist`);
        const commit = await gh.commitFiles(r, base, files(pr, proposal), proposal.title);
        // Recorded before the branch moves, and only over the commit the App read the branch at.
        const kept = await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["opened"], "opened", { ...fields, commit_sha: commit, base_sha: base }, now(), { commit_sha: pr.commit_sha });
        if (!kept)
            envelope_pr_busy(pr.repository);
        await gh.moveBranch(r, pr.branch, commit);
        await gh.updatePull(r, pull, { title: proposal.title, body: proposal.body });
        await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["opened"], "opened", { claim_owner: null, claim_until: null }, now());
        ctx.log("info", "envelope_pr.updated", { repository: pr.repository, pull, commit, entries: proposal.added.length });
        return `envelope PR #${pull} updated: ${entries}`;
    }
    return openEnvelopePr(ctx, gh, pr, proposal, fields);
}
function files(pr, proposal) {
    return { [pr.envelope_path]: proposal.text, [digestPathFor(pr.envelope_path)]: proposal.digestLine };
}
/**
 * Opens the claimed envelope PR as ledger PRs are opened (ledger-pr.ts): the commit recorded
 * before the branch is created; a branch at another commit is ENVELOPE_BRANCH_FOREIGN and never
 * moved; an open PR on the branch is adopted only when it is the App's bot's, from this
 * repository, at the App's commit, onto the default branch (else ENVELOPE_PR_FOREIGN, and the
 * App's own branch is deleted, which closes it).
 */
async function openEnvelopePr(ctx, gh, pr, proposal, fields) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    const now = () => ctx.clock.now();
    const r = repoRef(pr.repository);
    const refuse = async (code, detail) => {
        await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["claimed"], "closed", { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: now() }, now());
        ctx.log("error", "envelope_pr.refused", { code, repository: pr.repository, branch: pr.branch, detail });
        return `envelope PR refused: ${code}: ${detail}`;
    };
    const base = await gh.branchSha(r, pr.base_ref);
    if (base === null)
        fail("GITHUB_UNAVAILABLE", `the default branch ${pr.base_ref} of ${pr.repository} does not exist`);
    const tip = await gh.branchSha(r, pr.branch);
    let commit;
    const record = async () => {
        const made = await gh.commitFiles(r, base, files(pr, proposal), proposal.title);
        const kept = await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["claimed"], "claimed", { ...fields, commit_sha: made, base_sha: base }, now(), { commit_sha: pr.commit_sha });
        if (!kept)
            envelope_pr_busy(pr.repository);
        return made;
    };
    if (tip === null) {
        commit = await record();
        if ((await gh.createBranch(r, pr.branch, commit)) === "exists") {
            const seen = await gh.branchSha(r, pr.branch);
            if (seen !== commit) {
                return refuse("ENVELOPE_BRANCH_FOREIGN", `branch ${pr.branch} appeared at ${seen ?? "?"} before the App could create it; it was not moved`);
            }
        }
    }
    else if (pr.commit_sha !== null && tip === pr.commit_sha) {
        // The App's own earlier attempt (a crash, a lost answer): its commit, rebuilt if the proposal changed.
        commit = tip;
        if (pr.envelope_text !== proposal.text || pr.base_sha !== base) {
            commit = await record();
            await gh.moveBranch(r, pr.branch, commit);
        }
    }
    else {
        return refuse("ENVELOPE_BRANCH_FOREIGN", `branch ${pr.branch} exists at ${tip}, not at a commit the App made${pr.commit_sha ? ` (${pr.commit_sha})` : ""}; it was not moved`);
    }
    let pull = await gh.openPull(r, { title: proposal.title, head: pr.branch, base: pr.base_ref, body: proposal.body });
    if (pull === "exists") {
        const bot = await gh.botLogin();
        const open = await gh.listOpenPulls(r, pr.branch);
        const own = open.find((p) => p.author === bot &&
            p.head_repository !== null &&
            p.head_repository.toLowerCase() === pr.repository.toLowerCase() &&
            p.head_ref === pr.branch &&
            p.head_sha === commit &&
            p.base_ref === pr.base_ref);
        if (!own) {
            if ((await gh.branchSha(r, pr.branch)) === commit)
                await gh.deleteBranch(r, pr.branch);
            const seen = open.map((p) => `#${p.number} by ${p.author} from ${p.head_repository ?? "?"} at ${p.head_sha.slice(0, 12)} onto ${p.base_ref}`);
            return refuse("ENVELOPE_PR_FOREIGN", `a pull request the App did not open is open on ${pr.branch} (${seen.join("; ") || "none listed"}); not adopted, the App's branch deleted`);
        }
        await gh.updatePull(r, own.number, { title: proposal.title, body: proposal.body });
        pull = own;
    }
    await gh.requestReviewers(r, pull.number, settings.reviewers, settings.teamReviewers);
    await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["claimed"], "opened", { claim_owner: null, claim_until: null, pr_number: pull.number, pr_url: pull.html_url, commit_sha: commit }, now());
    ctx.log("info", "envelope_pr.opened", {
        repository: pr.repository,
        pull: pull.number,
        branch: pr.branch,
        entries: proposal.added.length,
    });
    return `envelope PR #${pull.number} opened: ${proposal.added.length} entr${proposal.added.length === 1 ? "y" : "ies"}`;
}
/**
 * `pull_request` on an envelope PR the App opened (matched by repository, PR number, and the
 * branch and head repository it recorded): a push to its branch, a retarget, a merge or a close is
 * held to GitHub's answers at once (`reconcile`), not only at the next audit run, so a commit
 * someone else pushed closes the PR (ENVELOPE_PR_TAMPERED) before a reviewer merges it.
 */
async function onEnvelopePullRequest(ctx, action, head, installationId) {
    const pr = await ctx.store.envelopePrs.findEnvelopePrByPull(head.repository, head.number);
    if (pr === null)
        return null;
    if (head.branch !== pr.branch || head.headRepository === null || head.headRepository.toLowerCase() !== pr.repository.toLowerCase()) {
        return `not the App's envelope PR on ${pr.branch}: head ${head.headRepository ?? "?"}:${head.branch}`;
    }
    if (pr.state === "closed" && pr.outcome_code !== null && action === "reopened") {
        // A PR the App closed (tampered, retargeted) stays closed.
        const gh = await ctx.installation(installationId ?? pr.installation_id);
        await closeWithComment(gh, repoRef(pr.repository), pr, `Closed again by envelope-gate (\`${pr.outcome_code}\`): ${(0,markdown/* mdText */.bC)(pr.outcome_detail ?? "the App closed this envelope PR")}.`);
        return `envelope PR #${head.number} closed again: ${pr.outcome_code}`;
    }
    if (pr.state !== "opened")
        return `envelope PR #${head.number} is ${pr.state}`;
    if (!["synchronize", "edited", "closed", "reopened"].includes(action))
        return `envelope PR #${head.number}: ${action}`;
    if (!(await ctx.store.envelopePrs.claimEnvelopePr(pr.id, ctx.settings.replicaId, ctx.clock.now(), ctx.settings.leaseMs)))
        envelope_pr_busy(pr.repository);
    const gh = await ctx.installation(installationId ?? pr.installation_id);
    const claimed = (await ctx.store.envelopePrs.getEnvelopePr(pr.id));
    let still;
    try {
        still = await reconcile(ctx, gh, claimed, claimed.mode, claimed.base_ref);
    }
    catch (err) {
        await release(ctx, claimed).catch(() => undefined);
        throw err;
    }
    if (still === null) {
        const after = (await ctx.store.envelopePrs.getEnvelopePr(pr.id));
        return `envelope PR #${head.number} ${after.state}${after.outcome_code ? `: ${after.outcome_code}` : ""}`;
    }
    await ctx.store.envelopePrs.updateEnvelopePr(pr.id, ctx.settings.replicaId, ["opened"], "opened", { claim_owner: null, claim_until: null }, ctx.clock.now());
    return `envelope PR #${head.number}: the App's own commit`;
}

;// CONCATENATED MODULE: ./src/app/freeze.ts


/**
 * The impure part of the freeze decisions (src/core/freeze.ts): the ledger branch's random part,
 * 80 bits from the system's CSPRNG.
 */
function branchRandom() {
    return (0,external_node_crypto_.randomBytes)(10).toString("hex");
}
/** The ledger PR's branch (core's ledgerBranch), its random part drawn here unless given. */
function freeze_ledgerBranch(property, envelopeHash, headSha, random = branchRandom()) {
    return pure.ledgerBranch(property, envelopeHash, headSha, random);
}
/** The proposal for one property (core's buildFreezeProposal), on a branch with a fresh random part. */
function freeze_buildFreezeProposal(p) {
    return buildFreezeProposal(p, branchRandom());
}

;// CONCATENATED MODULE: ./src/app/ledger-pr.ts




/** Writing ledger PRs on GitHub: claim, open (or record in shadow mode), and rebuild on a new base. */
/**
 * One ledger PR per (property, envelope hash, head sha): the store's unique key decides
 * which caller sends; the branch ref is the lock on GitHub's side. In shadow mode the
 * proposal is recorded (and shown in the dual-run check) instead of opened.
 */
async function proposeFreeze(ctx, gh, dual, property, comparison) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    const now = ctx.clock.now();
    const proposal = freeze_buildFreezeProposal(freezeProposalInput(dual, property, comparison, {
        expiresOn: expiresOn(now, settings.freezeTtlDays, settings.freezeTtlCapDays),
        reviewers: settings.reviewers,
        teamReviewers: settings.teamReviewers,
    }));
    const mode = (await store.installationMode(dual.installation_id)) ?? "shadow";
    const key = ledgerLockKey(dual.repository, property, dual.envelope_hash, dual.head_sha);
    const mine = await store.claimLedgerPr({
        lock_key: key,
        repository: dual.repository,
        property,
        envelope_hash: dual.envelope_hash,
        head_sha: dual.head_sha,
        dual_run_id: dual.id,
        installation_id: dual.installation_id,
        freeze_id: proposal.freezeId,
        branch: proposal.branch,
        base_ref: dual.base_ref,
        ledger_path: settings.ledgerPath,
        row_text: proposal.rowText,
        title: proposal.title,
        body: proposal.body,
        expires_on: proposal.row.expires_on,
        mode,
        created_at: now,
    }, owner, now, settings.leaseMs);
    const current = (await store.getLedgerPr(key));
    if (!mine)
        return current;
    if (current.mode === "shadow") {
        await store.transitionLedgerPr(key, ["claimed"], "shadowed", { claim_owner: null, claim_until: null }, { claim_owner: owner });
        ctx.log("info", "ledger_pr.shadowed", {
            freeze_id: current.freeze_id,
            repository: current.repository,
            property,
            branch: current.branch,
        });
        return (await store.getLedgerPr(key));
    }
    try {
        await openLedgerPr(ctx, gh, current);
    }
    catch (err) {
        // Let the next attempt (any replica) take the claim at once rather than after the lease.
        await store.transitionLedgerPr(key, ["claimed"], "claimed", { claim_until: 0 }, { claim_owner: owner });
        throw err;
    }
    return (await store.getLedgerPr(key));
}
/**
 * Opens the claimed ledger PR, trusting nothing on GitHub it cannot prove it made. The commit is
 * recorded in the store before the branch is created or moved, so a branch at the recorded commit
 * is the App's own earlier attempt (a crash, a lost answer) and is adopted; a branch at any other
 * commit is LEDGER_BRANCH_FOREIGN and is never moved. An open PR on the branch is adopted only when
 * the App's bot opened it, from this repository, at the App's commit, onto the expected base;
 * otherwise LEDGER_PR_FOREIGN. A refusal closes the claim for good (the property keeps failing).
 */
async function openLedgerPr(ctx, gh, pr) {
    const { settings } = ctx;
    const r = repoRef(pr.repository);
    const baseSha = await gh.branchSha(r, pr.base_ref);
    if (!baseSha)
        fail("GITHUB_UNAVAILABLE", `the base branch ${pr.base_ref} of ${pr.repository} does not exist`);
    const tip = await gh.branchSha(r, pr.branch);
    let commit;
    if (tip === null) {
        const made = await recordCommit(ctx, gh, pr, baseSha);
        if (made === null)
            return;
        commit = made;
        if ((await gh.createBranch(r, pr.branch, commit)) === "exists") {
            const now = await gh.branchSha(r, pr.branch);
            if (now !== commit) {
                return refuse(ctx, pr, "LEDGER_BRANCH_FOREIGN", `branch ${pr.branch} appeared at ${now ?? "?"} before the App could create it; it was not moved`);
            }
        }
    }
    else if (pr.ledger_commit !== null && tip === pr.ledger_commit) {
        // The App's own earlier attempt. On a base that moved since, its own branch is rebuilt.
        commit = tip;
        if (pr.base_sha !== baseSha) {
            const made = await recordCommit(ctx, gh, pr, baseSha);
            if (made === null)
                return;
            commit = made;
            await gh.moveBranch(r, pr.branch, commit);
        }
    }
    else {
        return refuse(ctx, pr, "LEDGER_BRANCH_FOREIGN", `branch ${pr.branch} exists at ${tip}, not at a commit the App made${pr.ledger_commit ? ` (${pr.ledger_commit})` : ""}; it was not moved`);
    }
    let pull = await gh.openPull(r, { title: pr.title, head: pr.branch, base: pr.base_ref, body: pr.body });
    if (pull === "exists") {
        const bot = await gh.botLogin();
        const open = await gh.listOpenPulls(r, pr.branch);
        const own = open.find((p) => ownPull(p, pr, bot, commit));
        if (!own) {
            // The branch is provably the App's: deleting it closes the foreign PR, so no reviewer merges through it.
            if ((await gh.branchSha(r, pr.branch)) === commit)
                await gh.deleteBranch(r, pr.branch);
            const seen = open.map((p) => `#${p.number} by ${p.author} from ${p.head_repository ?? "?"} at ${p.head_sha.slice(0, 12)} onto ${p.base_ref}`);
            return refuse(ctx, pr, "LEDGER_PR_FOREIGN", `a pull request the App did not open is open on ${pr.branch} (${seen.join("; ") || "none listed"}); not adopted, no review requested, the App's branch deleted`);
        }
        pull = own;
    }
    await gh.requestReviewers(r, pull.number, settings.reviewers, settings.teamReviewers);
    await ctx.store.transitionLedgerPr(pr.lock_key, ["claimed"], "opened", {
        claim_owner: null,
        claim_until: null,
        pr_number: pull.number,
        pr_url: pull.html_url,
        base_sha: baseSha,
        opened_at: ctx.clock.now(),
        ledger_commit: commit,
        head_repository: pull.head_repository ?? pr.repository,
    }, { claim_owner: settings.replicaId });
    ctx.log("info", "ledger_pr.opened", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pull.number, branch: pr.branch });
}
/** Whether an open PR is the one the App opened for `pr`: its bot's, from this repository, at its commit, onto its base. */
function ownPull(p, pr, bot, commit) {
    return (p.author === bot &&
        p.head_repository !== null &&
        p.head_repository.toLowerCase() === pr.repository.toLowerCase() &&
        p.head_ref === pr.branch &&
        p.head_sha === commit &&
        p.base_ref === pr.base_ref);
}
/** Makes the ledger commit on `baseSha` and records it (with the base) before any ref points at it; null when the claim was lost. */
async function recordCommit(ctx, gh, pr, baseSha) {
    const commit = await ledgerCommit(gh, pr, baseSha);
    const kept = await ctx.store.transitionLedgerPr(pr.lock_key, ["claimed"], "claimed", { ledger_commit: commit, base_sha: baseSha }, { claim_owner: ctx.settings.replicaId });
    if (!kept) {
        ctx.log("warn", "ledger_pr.claim_lost", { freeze_id: pr.freeze_id, repository: pr.repository });
        return null;
    }
    return commit;
}
/** Closes the claim with a refusal: nothing moved, nothing adopted, the status page and the log say why. */
async function refuse(ctx, pr, code, detail) {
    await ctx.store.transitionLedgerPr(pr.lock_key, ["claimed"], "closed", { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: ctx.clock.now() }, { claim_owner: ctx.settings.replicaId });
    ctx.log("error", "ledger_pr.refused", { code, freeze_id: pr.freeze_id, repository: pr.repository, branch: pr.branch, detail });
}
/** A commit on `baseSha` whose ledger is the base ledger plus this PR's one row. */
async function ledgerCommit(gh, pr, baseSha) {
    const r = repoRef(pr.repository);
    const base = (await gh.fileAt(r, pr.ledger_path, baseSha)) ?? "";
    return gh.commitFile(r, baseSha, pr.ledger_path, ledgerWithRow(base, pr), freezeTitle(pr.property, pr.expires_on, pr.freeze_id));
}
/**
 * Rebuilds an open ledger PR on a new base head: a new commit of the base ledger plus its one
 * row, recorded before the PR's branch is force-moved to it (so its own `synchronize` is
 * recognized). A branch that is no longer at the App's commit is not moved: the PR is closed as
 * tampered instead.
 */
async function rebaseLedgerPr(ctx, gh, pr, baseSha) {
    const r = repoRef(pr.repository);
    const tip = await gh.branchSha(r, pr.branch);
    if (pr.ledger_commit === null || tip !== pr.ledger_commit) {
        await closeTampered(ctx, gh, pr, tip);
        return "tampered";
    }
    const commit = await ledgerCommit(gh, pr, baseSha);
    const kept = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { base_sha: baseSha, ledger_commit: commit }, { ledger_commit: pr.ledger_commit });
    if (!kept)
        return "rebased"; // another delivery rebuilt it first
    await gh.moveBranch(r, pr.branch, commit);
    ctx.log("info", "ledger_pr.rebased", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: baseSha });
    return "rebased";
}
/**
 * A ledger PR whose head is not the commit the App made (someone pushed to its branch, or the
 * branch is gone): recorded closed with LEDGER_PR_TAMPERED first, then closed on GitHub with a
 * comment, so no reviewer merges a row the App did not write. Closing again is harmless.
 */
async function closeTampered(ctx, gh, pr, head) {
    const detail = `the head of ${pr.branch} is ${head ?? "gone"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`;
    const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "closed", {
        outcome_code: "LEDGER_PR_TAMPERED",
        outcome_detail: detail,
        closed_at: ctx.clock.now(),
    });
    ctx.log("error", "ledger_pr.tampered", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pr.pr_number, detail });
    await ledger_pr_closeWithComment(gh, pr, marked || pr.outcome_code === "LEDGER_PR_TAMPERED", `Closed by envelope-gate (\`LEDGER_PR_TAMPERED\`): this branch no longer holds the one-row commit the App made (\`${pr.ledger_commit ?? "?"}\`); its head is \`${head ?? "gone"}\`. A row the App did not write is never proposed for review. The property keeps failing; a new dual run proposes a new ledger PR.`);
}
/** Closes the PR on GitHub, commenting why, when this ledger PR is recorded as closed by the App. */
async function ledger_pr_closeWithComment(gh, pr, closedByApp, comment) {
    if (!closedByApp || pr.pr_number === null)
        return;
    const r = repoRef(pr.repository);
    await gh.closePull(r, pr.pr_number);
    await gh.comment(r, pr.pr_number, comment);
}

;// CONCATENATED MODULE: ./src/app/handlers/pull-request.ts







/**
 * `pull_request` on any other pull request: opened, reopened, synchronize, closed or retargeted on
 * a commit the App has a verified check for, that check is evaluated again (verified-check.ts).
 *
 * `pull_request` on a ledger PR the App opened, found by repository and PR number and held to the
 * head repository it recorded (a fork PR whose head ref is the ledger branch's name is not it):
 * - `closed`: merged or closed; a merge whose head is not the App's commit is recorded merged with
 *   LEDGER_PR_TAMPERED (the status page shows it).
 * - `synchronize`: a head other than the App's recorded commit closes it as LEDGER_PR_TAMPERED.
 * - `edited` with `changes.base`: retargeted away from its base, it is closed (LEDGER_PR_RETARGETED).
 * - `reopened`: a PR the App closed is closed again; one a reviewer closed is tracked again while
 *   its head is the App's commit.
 */
async function onPullRequest(ctx, p) {
    // Any pull request showing the agent label is remembered as gated (app/gate-memory.ts), and a
    // verdict on its head that the memory decides is made again.
    const gated = await rememberLabel(ctx, p);
    const regated = await onGateChange(ctx, p);
    const outcome = await onLedgerOrEnvelopePull(ctx, p);
    return [gated, regated, outcome].filter((x) => x !== null).join("; ");
}
async function onLedgerOrEnvelopePull(ctx, p) {
    const head = pullRequestHead(p);
    if (head && p.action === "opened")
        return (await onPullRequestForHeads(ctx, p)) ?? "ignored pull_request";
    if (!head || !["closed", "synchronize", "edited", "reopened"].includes(p.action ?? ""))
        return "ignored pull_request";
    const pr = await ctx.store.findLedgerPrByPull(head.repository, head.number);
    if (!pr) {
        const envelope = await onEnvelopePullRequest(ctx, p.action ?? "", head, p.installation?.id);
        return envelope ?? (await onPullRequestForHeads(ctx, p)) ?? "not a ledger PR";
    }
    if (!sameHead(pr, head)) {
        ctx.log("warn", "ledger_pr.other_head", {
            freeze_id: pr.freeze_id,
            pull: head.number,
            head_repository: head.headRepository,
            head_ref: head.branch,
        });
        return `not the App's ledger PR ${pr.freeze_id}: head ${head.headRepository ?? "?"}:${head.branch}`;
    }
    const installationId = p.installation?.id ?? pr.installation_id;
    const r = repoRef(pr.repository);
    switch (p.action) {
        case "closed": {
            const merged = p.pull_request?.merged === true;
            const foreign = merged && head.headSha !== pr.ledger_commit;
            const fields = foreign
                ? {
                    closed_at: ctx.clock.now(),
                    outcome_code: "LEDGER_PR_TAMPERED",
                    outcome_detail: `merged at ${head.headSha ?? "?"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`,
                }
                : { closed_at: ctx.clock.now() };
            if (foreign)
                ctx.log("error", "ledger_pr.tampered_merge", { freeze_id: pr.freeze_id, pull: pr.pr_number, head: head.headSha });
            // A merge is recorded even of a PR the App had closed (reopened and merged in between): the row is on the base now.
            await ctx.store.transitionLedgerPr(pr.lock_key, merged ? ["opened", "closed"] : ["opened"], merged ? "merged" : "closed", fields);
            return `ledger PR ${pr.freeze_id} ${merged ? "merged" : "closed"}${foreign ? " (LEDGER_PR_TAMPERED)" : ""}`;
        }
        case "synchronize": {
            if (pr.state !== "opened" && pr.outcome_code !== "LEDGER_PR_TAMPERED")
                return `ledger PR ${pr.freeze_id} is ${pr.state}`;
            const gh = await ctx.installation(installationId);
            // The branch as GitHub has it now, not the payload's head: a later push of the App's own wins.
            const tip = await gh.branchSha(r, pr.branch);
            if (pr.ledger_commit !== null && tip === pr.ledger_commit)
                return `ledger PR ${pr.freeze_id}: the App's own commit`;
            await closeTampered(ctx, gh, pr, tip);
            return `ledger PR ${pr.freeze_id} closed: LEDGER_PR_TAMPERED`;
        }
        case "edited": {
            if (p.changes?.base === undefined)
                return "ledger PR edited (not retargeted)";
            if (pr.state !== "opened" && pr.outcome_code !== "LEDGER_PR_RETARGETED")
                return `ledger PR ${pr.freeze_id} is ${pr.state}`;
            const gh = await ctx.installation(installationId);
            const now = await gh.getPull(r, head.number);
            if (now.base_ref === pr.base_ref && pr.state === "opened")
                return `ledger PR ${pr.freeze_id} still targets ${pr.base_ref}`;
            const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "closed", {
                closed_at: ctx.clock.now(),
                outcome_code: "LEDGER_PR_RETARGETED",
                outcome_detail: `retargeted from ${pr.base_ref} to ${now.base_ref}`,
            });
            ctx.log("error", "ledger_pr.retargeted", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: now.base_ref });
            await ledger_pr_closeWithComment(gh, pr, marked || pr.outcome_code === "LEDGER_PR_RETARGETED", `Closed by envelope-gate (\`LEDGER_PR_RETARGETED\`): this freeze was proposed for ${(0,markdown/* mdCode */.xs)(pr.base_ref)}, whose ledger the row was built on and whose runs were compared; a ledger PR is never merged into another branch. The property keeps failing; a dual run on the other branch proposes its own.`);
            return `ledger PR ${pr.freeze_id} closed: LEDGER_PR_RETARGETED`;
        }
        default: {
            // reopened
            const gh = await ctx.installation(installationId);
            if (pr.state === "closed" && pr.outcome_code === null) {
                const tip = await gh.branchSha(r, pr.branch);
                if (pr.ledger_commit !== null && tip === pr.ledger_commit) {
                    await ctx.store.transitionLedgerPr(pr.lock_key, ["closed"], "opened", { closed_at: null }, { outcome_code: null });
                    return `ledger PR ${pr.freeze_id} reopened`;
                }
                const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["closed"], "closed", {
                    outcome_code: "LEDGER_PR_TAMPERED",
                    outcome_detail: `reopened with head ${tip ?? "gone"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`,
                });
                await ledger_pr_closeWithComment(gh, pr, marked, `Closed again by envelope-gate (\`LEDGER_PR_TAMPERED\`): this branch no longer holds the one-row commit the App made.`);
                return `ledger PR ${pr.freeze_id} closed again: LEDGER_PR_TAMPERED`;
            }
            if (pr.state === "closed") {
                await ledger_pr_closeWithComment(gh, pr, true, `Closed again by envelope-gate (${(0,markdown/* mdCode */.xs)(String(pr.outcome_code))}): ${(0,markdown/* mdText */.bC)(pr.outcome_detail ?? "the App closed this ledger PR")}.`);
                return `ledger PR ${pr.freeze_id} closed again: ${pr.outcome_code}`;
            }
            return `ledger PR ${pr.freeze_id} is ${pr.state}`;
        }
    }
}
/** Whether the event's head is the ledger PR's: the head repository and branch the App recorded. */
function sameHead(pr, head) {
    return (pr.head_repository !== null &&
        head.headRepository !== null &&
        head.headRepository.toLowerCase() === pr.head_repository.toLowerCase() &&
        head.branch === pr.branch);
}

;// CONCATENATED MODULE: ./src/app/handlers/pull-request-review.ts




/**
 * `pull_request_review`: an ungate command (submitted) or its withdrawal (dismissed), the verdict on
 * the head of a pull request held gated made again (verified-check.ts onGateChange), and, submitted,
 * a ledger PR's first review (it stops the overdue alert).
 * The ledger PR is found by repository and PR number, and its head repository must be the one the
 * App recorded: a review of a fork PR named like the ledger branch touches nothing.
 */
async function onPullRequestReview(ctx, p) {
    // A review may ungate a gated pull request (app/gate-memory.ts), whatever else it is; a verdict
    // on its head that the reviews decide is made again (an ungate, its dismissal, an edited body).
    const ungate = await onUngateReview(ctx, p);
    const regated = await onGateChange(ctx, p);
    const outcome = await onLedgerReview(ctx, p);
    return [ungate, regated, outcome].filter((x) => x !== null).join("; ");
}
async function onLedgerReview(ctx, p) {
    const head = pullRequestHead(p);
    if (!head || p.action !== "submitted")
        return "ignored review";
    const pr = await ctx.store.findLedgerPrByPull(head.repository, head.number);
    if (!pr)
        return "not a ledger PR";
    if (!sameHead(pr, head))
        return `not the App's ledger PR ${pr.freeze_id}: head ${head.headRepository ?? "?"}:${head.branch}`;
    await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { first_review_at: ctx.clock.now() }, { first_review_at: null });
    return `ledger PR ${pr.freeze_id} reviewed`;
}

;// CONCATENATED MODULE: ./src/app/handlers/push.ts



/**
 * `push` to a base branch that changed the ledger: rebuild every open ledger PR on it on the new
 * base (its commit recorded before its branch moves); one whose branch is no longer at the App's
 * commit is closed as LEDGER_PR_TAMPERED instead of moved.
 */
async function onPush(ctx, p) {
    const repository = p.repository?.full_name;
    const installationId = p.installation?.id;
    if (!repository || installationId === undefined || !p.ref?.startsWith("refs/heads/") || !p.after || /^0+$/.test(p.after))
        return "ignored push";
    const after = p.after;
    const branch = p.ref.slice("refs/heads/".length);
    const open = (await ctx.store.listLedgerPrs(["opened"], repository)).filter((pr) => pr.base_ref === branch && pr.base_sha !== after);
    if (open.length === 0)
        return "no open ledger PR on this branch";
    const commits = p.commits ?? [];
    const gh = await ctx.installation(installationId);
    const rebased = [];
    const tampered = [];
    for (const pr of open) {
        if (!pushTouched(commits, pr.ledger_path))
            continue;
        const ledger = (await gh.fileAt(repoRef(repository), pr.ledger_path, after)) ?? "";
        if (ledgerHasFreeze(ledger, pr.ledger_path, pr.freeze_id))
            continue;
        if ((await rebaseLedgerPr(ctx, gh, pr, after)) === "rebased")
            rebased.push(pr.freeze_id);
        else
            tampered.push(pr.freeze_id);
    }
    const done = [
        ...(rebased.length > 0 ? [`rebased ${rebased.join(", ")}`] : []),
        ...(tampered.length > 0 ? [`closed ${tampered.join(", ")}: LEDGER_PR_TAMPERED`] : []),
    ];
    return done.length > 0 ? done.join("; ") : "ledger unchanged on base";
}

;// CONCATENATED MODULE: ./src/core/compare.ts

/** Machine identity compared between A and B: machine id, else runner name. Empty means unknown. */
function machineOf(bundle) {
    return (bundle.runner.machine_id ?? "").trim() || "";
}
function compareRuns(a, b, expect) {
    const none = (outcome, code, detail, results = []) => ({
        outcome,
        code,
        detail,
        results,
        eligible: [],
    });
    const machineA = machineOf(a);
    const machineB = machineOf(b);
    if (machineA === "" || machineB === "") {
        return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", "a runner.json does not name its machine (machine_id); two machines cannot be proven");
    }
    if (!MACHINE_ID.test(machineA) || !MACHINE_ID.test(machineB)) {
        return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", "a runner.json's machine_id is not letters, digits and . _ : - (at most 64); a ledger row could not name the machine");
    }
    if (machineA.toLowerCase() === machineB.toLowerCase()) {
        return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", `runner B ran on runner A's machine (${machineA}); one machine cannot tell a flake from a regression`);
    }
    const hashes = [a.runner.envelope_hash, a.verdict.envelope_hash, b.runner.envelope_hash, b.verdict.envelope_hash];
    if (hashes.some((h) => h !== expect.envelopeHash)) {
        return none("mismatch", "DUAL_RUN_MISMATCH", `the runs were not under one envelope: expected ${expect.envelopeHash}, runner A ${a.runner.envelope_hash}, runner B ${b.runner.envelope_hash}`);
    }
    if (b.runner.head_sha !== expect.headSha || a.runner.head_sha !== expect.headSha) {
        return none("mismatch", "DUAL_RUN_MISMATCH", `the runs were not of one commit: expected ${expect.headSha}, runner A ${a.runner.head_sha}, runner B ${b.runner.head_sha}`);
    }
    if ((b.runner.dual_run_id ?? "") !== expect.dualRunId) {
        return none("mismatch", "DUAL_RUN_MISMATCH", `runner B's run belongs to dual run ${b.runner.dual_run_id ?? "(none)"}, not ${expect.dualRunId}`);
    }
    if (a.verdict.verdict !== "pass") {
        return none("no_freeze", null, `runner A's envelope verdict is ${a.verdict.verdict}; envelope failures are never frozen`);
    }
    if (b.verdict.verdict === "envelope_fail") {
        const ids = (b.verdict.violations ?? []).map((v) => v.id).join(", ");
        return none("observer_disagreement", "OBSERVER_DISAGREEMENT", `runner A's envelope is clean but runner B's has violations (${ids}) under the same envelope and commit: the observer is broken; nothing is frozen`);
    }
    if (b.verdict.verdict !== "pass") {
        return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", `runner B could not evaluate the envelope (${b.verdict.error?.code ?? "error"}); no valid second run`);
    }
    const results = [];
    for (const property of expect.properties) {
        const onA = a.properties.find((p) => p.name === property);
        if (!onA || onA.result !== "fail") {
            return none("mismatch", "DUAL_RUN_MISMATCH", `runner A's evidence does not record ${property} as failed`);
        }
        const onB = b.properties.find((p) => p.name === property);
        const bResult = onB ? onB.result : "missing";
        const fingerprint = typeof onA.failure_fingerprint === "string" && FINGERPRINT.test(onA.failure_fingerprint) ? onA.failure_fingerprint : null;
        let verdict;
        if (isEnvelopeRuleName(property))
            verdict = "envelope_rule";
        // Both runs read the properties file of the base commit; either saying "not freezable" (or
        // an older bundle that does not say) keeps the property out of the ledger.
        else if (onA.freezable !== true || (onB !== undefined && onB.freezable !== true))
            verdict = "not_freezable";
        else if (bResult === "pass" && fingerprint === null)
            verdict = "unscoped";
        else if (bResult === "pass")
            verdict = "disagree";
        else if (bResult === "fail")
            verdict = "both_fail";
        else if (bResult === "error")
            verdict = "b_error";
        else
            verdict = "b_missing";
        results.push({ property, a: "fail", b: bResult, verdict, fingerprint });
    }
    const eligible = results.filter((r) => r.verdict === "disagree").map((r) => r.property);
    if (eligible.length > 0) {
        return { outcome: "freeze_eligible", code: null, detail: `runners disagree on ${eligible.join(", ")}`, results, eligible };
    }
    if (results.length > 0 && results.every((r) => r.verdict === "both_fail")) {
        return none("both_fail", null, "both runners fail the same properties: a regression, not a flake; nothing is frozen", results);
    }
    const fixed = results.filter((r) => r.verdict === "not_freezable").map((r) => r.property);
    if (fixed.length > 0) {
        return none("no_freeze", "FREEZE_NOT_FREEZABLE", `${fixed.join(", ")} ${fixed.length === 1 ? "is" : "are"} not freezable (patch_paths, or "freezable": false, in the properties file); nothing is frozen`, results);
    }
    return none("no_freeze", null, "no property failed on A and passed on B; nothing is frozen", results);
}

;// CONCATENATED MODULE: ./src/core/dual-run.ts





/** The dual run id: one per A run attempt, the same on every replica and redelivery. */
function dualRunIdFor(repository, runAId, attempt) {
    return `dr-${(0,core_envelope/* sha256Hex */.fg)(`${repository.toLowerCase()}\0${runAId}\0${attempt}`).slice(0, 20)}`;
}
/** Whether a run's workflow path (`.github/workflows/x.yml@ref`) is the gate workflow. */
function isGateWorkflow(path, workflow) {
    const file = (path ?? "").replace(/@.*$/, "");
    return file.endsWith(`/${workflow}`) || file === workflow;
}
/**
 * Runner A finished and verified against GitHub's API (run-verify.ts): the dual run to record,
 * or why there is none. The pull request, head sha and base branch come from the API; the
 * bundle gives the envelope hash and the failing properties, and must be for the run's commit.
 */
function dualRunForRunA(a, repository, installationId, bundle, now, deadlineMs) {
    const run = a.run;
    if (bundle.verdict.verdict !== "pass") {
        return { skip: `no dual run: runner A's envelope verdict is ${bundle.verdict.verdict}; envelope failures are never frozen` };
    }
    // A property already tolerated by an active freeze does not need another one.
    const unfrozen = bundle.properties.filter((x) => x.result === "fail" && !x.frozen_by);
    if (unfrozen.length === 0)
        return { skip: "no dual run: no property failed" };
    // Runner B costs minutes: only a failure a freeze could tolerate (freezable, with a scope) is worth a second run.
    const failing = unfrozen.filter((x) => x.freezable === true && typeof x.failure_fingerprint === "string").map((x) => x.name);
    if (failing.length === 0) {
        const names = unfrozen.map((x) => x.name).join(", ");
        return {
            skip: `no dual run: the failing properties (${names}) are not freezable or name no failure scope; they fail, nothing is frozen`,
        };
    }
    const envelopeHash = bundle.runner.envelope_hash ?? bundle.verdict.envelope_hash;
    if (!envelopeHash)
        throw new core_errors/* Refusal */.P_("EVIDENCE_UNAVAILABLE", `run ${run.id}'s evidence names no envelope hash`);
    if (bundle.runner.head_sha !== a.headSha) {
        throw new core_errors/* Refusal */.P_("DUAL_RUN_MISMATCH", `run ${run.id} is for ${a.headSha} but its evidence says ${bundle.runner.head_sha ?? "no commit"}`);
    }
    const attempt = run.run_attempt ?? 1;
    return {
        failing,
        record: {
            id: dualRunIdFor(repository, run.id, attempt),
            installation_id: installationId,
            repository,
            head_sha: a.headSha,
            pull_number: a.pullNumber,
            base_ref: a.baseRef,
            envelope_hash: envelopeHash,
            properties: JSON.stringify(failing),
            run_a_id: run.id,
            run_a_attempt: attempt,
            run_a_url: run.html_url ?? null,
            evidence_a: bundle.digest,
            runner_a: JSON.stringify(bundle.runner),
            created_at: now,
            deadline_at: now + deadlineMs,
        },
    };
}
/** The gate workflow's `workflow_dispatch` inputs for runner B. */
function runnerBInputs(dual, runnerBLabels) {
    return {
        pull_request: dual.pull_number === null ? "" : String(dual.pull_number),
        head_sha: dual.head_sha,
        dual_run_id: dual.id,
        runner_labels: JSON.stringify(runnerBLabels),
    };
}
/** Where GitHub gave no run id for the dispatch: list dispatched runs created since a little before it. */
function runBSearchSince(dual) {
    return new Date((dual.dispatched_at ?? dual.created_at) - 5 * 60_000).toISOString();
}
/**
 * Runner B's run among dispatched runs: the one that passes runner B's checks (run-checks.ts:
 * the App's own dispatch, on the recorded base commit, named after the dual run).
 */
function runBAmong(runs, dual, workflow, appLogin) {
    return runs.find((run) => runnerBRun(run, dual, workflow, appLogin) === null) ?? null;
}
/** The dual run id a run's name carries (the gate workflow's run-name for runner B), if any. */
function dualRunIdInTitle(title) {
    return /\bdr-[0-9a-f]{20}\b/.exec(title ?? "")?.[0] ?? null;
}
/** The eligible properties of a decided dual run, each with its comparison. */
function eligibleComparisons(dual) {
    const { results, eligible } = JSON.parse(dual.results ?? "{}");
    return eligible.map((property) => ({ property, comparison: results.find((r) => r.property === property) }));
}
/** Why a dual run past its deadline has no freeze. */
function deadlineMissedDetail(dual) {
    const deadline = new Date(dual.deadline_at).toISOString();
    return dual.dispatched_at === null
        ? `runner B was never dispatched before the deadline (${deadline}); the property fails, nothing is frozen`
        : `runner B did not finish by the deadline (${deadline}); the property fails, nothing is frozen`;
}
/**
 * Verifies both bundles and applies the comparison table. Evidence problems decide "no
 * freeze"; `bundleB` is B's verified bundle when both could be read.
 */
function decideDualRun(dual, zipA, zipB) {
    const none = (outcome, code, detail, bundleB = null) => ({
        decision: { outcome, code, detail, results: [], eligible: [] },
        bundleB,
    });
    if (zipB === null)
        return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", "runner B's run finished without an evidence bundle");
    if (zipA === null)
        return none("evidence_invalid", "EVIDENCE_UNAVAILABLE", "runner A's evidence bundle is no longer available");
    let a;
    let b;
    try {
        a = readEvidenceZip(zipA);
        b = readEvidenceZip(zipB);
    }
    catch (err) {
        if ((0,core_errors/* isRefusal */.vu)(err) && (err.code === "EVIDENCE_DIGEST_MISMATCH" || err.code === "EVIDENCE_UNAVAILABLE")) {
            return none("evidence_invalid", err.code, err.message);
        }
        throw err;
    }
    if (a.digest !== dual.evidence_a) {
        return none("evidence_invalid", "EVIDENCE_DIGEST_MISMATCH", `runner A's bundle digest is now ${a.digest}, it was ${dual.evidence_a} when runner B was scheduled`, b);
    }
    const decision = compareRuns(a, b, {
        dualRunId: dual.id,
        envelopeHash: dual.envelope_hash,
        headSha: dual.head_sha,
        properties: JSON.parse(dual.properties),
    });
    return { decision, bundleB: b };
}

;// CONCATENATED MODULE: ./src/core/check-run.ts


/**
 * Pure: the dual-run check run's content, from the recorded dual run and its ledger PRs. Property
 * names, results, runner cells and details come from runner A's bundle, which the pull request's
 * job produced: each goes through ../core/markdown.ts where it is interpolated.
 */
/** The summary's last line: which release compared the runs. */
const COMPARED_BY = `Compared by ${version/* PRODUCT */.A}.`;
/** GitHub's limit on a check run's summary and text. */
const MAX_OUTPUT = 65_000;
/** One line per ledger PR, in plain words (the delivery's outcome, the App's log). */
function describeProposal(pr) {
    if (pr.state === "shadowed")
        return `shadow: would open a ledger PR for ${pr.property} (${pr.freeze_id}, expires ${pr.expires_on}) on branch ${pr.branch}`;
    if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed")
        return `ledger PR for ${pr.property}: ${pr.pr_url ?? pr.branch} (${pr.state})`;
    return `ledger PR for ${pr.property} is being opened`;
}
/** One markdown line per ledger PR for the check's summary, its strings escaped. */
function describeProposalMarkdown(pr) {
    const property = (0,markdown/* mdCode */.xs)(pr.property);
    if (pr.state === "shadowed")
        return `shadow: would open a ledger PR for ${property} (${(0,markdown/* mdText */.bC)(pr.freeze_id)}, expires ${(0,markdown/* mdText */.bC)(pr.expires_on)}) on branch ${(0,markdown/* mdCode */.xs)(pr.branch)}`;
    if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed")
        return `ledger PR for ${property}: ${pr.pr_url ? (0,markdown/* mdLink */.YF)(pr.pr_url, pr.pr_url) : (0,markdown/* mdCode */.xs)(pr.branch)} (${(0,markdown/* mdText */.bC)(pr.state)})`;
    return `ledger PR for ${property} is being opened`;
}
/** The dual-run check run on the head commit: what was compared and what follows. */
function dualRunCheck(checkName, dual, proposals, mode, prs = []) {
    const name = `${checkName} (dual run)`;
    const results = dual.results ? JSON.parse(dual.results).results : [];
    const table = results.length
        ? [
            "| property | runner A | runner B | verdict |",
            "| --- | --- | --- | --- |",
            ...results.map((r) => `| ${(0,markdown/* mdCode */.xs)(String(r.property), { inTable: true })} | ${(0,markdown/* mdText */.bC)(String(r.a))} | ${(0,markdown/* mdText */.bC)(String(r.b))} | ${(0,markdown/* mdText */.bC)(String(r.verdict))} |`),
        ].join("\n")
        : "";
    const run = (id, url) => (url ? (0,markdown/* mdLink */.YF)(`run ${id}`, url) : (0,markdown/* mdText */.bC)(`run ${id}`));
    const runs = `Runner A: ${run(dual.run_a_id, dual.run_a_url)}. Runner B: ${dual.run_b_id === null ? "none" : run(dual.run_b_id, dual.run_b_url)}.`;
    const lines = prs.length === proposals.length && prs.length > 0 ? prs.map(describeProposalMarkdown) : proposals.map((x) => (0,markdown/* mdText */.bC)(x));
    const common = { name, head_sha: dual.head_sha, external_id: dual.id };
    if (dual.outcome === "freeze_eligible") {
        const title = mode === "shadow" ? "Shadow mode: a freeze would be proposed" : "Freeze proposed: waiting for review";
        const summary = [
            `Runner A and runner B disagree on a non-envelope property. ${mode === "shadow" ? "This installation is in shadow mode: nothing was opened." : "A ledger PR with an expiry was opened for review; the property keeps failing until it is merged."}`,
            "",
            ...lines.map((x) => `- ${x}`),
            "",
            runs,
            "",
            COMPARED_BY,
        ].join("\n");
        const shadowText = mode === "shadow"
            ? prs
                .filter((p) => p.state === "shadowed")
                .map((p) => [
                `### Would open: ${(0,markdown/* mdText */.bC)(p.title)}`,
                "",
                `Branch ${(0,markdown/* mdCode */.xs)(p.branch)}, adding to ${(0,markdown/* mdCode */.xs)(p.ledger_path)}:`,
                "",
                (0,markdown/* mdFence */.F)(p.row_text, "tsv"),
                "",
                // Built by buildFreezeProposal, every string in it escaped there.
                p.body,
            ].join("\n"))
                .join("\n\n---\n\n")
            : undefined;
        return {
            ...common,
            conclusion: "neutral",
            title,
            summary: (0,markdown/* clipMarkdown */._n)(summary, MAX_OUTPUT),
            ...(table || shadowText
                ? { text: (0,markdown/* clipMarkdown */._n)([table, shadowText].filter(Boolean).join("\n\n"), MAX_OUTPUT, "\n\n(cut to GitHub's size limit)") }
                : {}),
        };
    }
    const titles = {
        both_fail: "Both runners fail: no freeze",
        no_freeze: "No freeze",
        observer_disagreement: "Observer disagreement: the envelope verdict differs between runners",
        runner_b_unavailable: "Runner B unavailable: no freeze",
        mismatch: "Runs do not match: no freeze",
        evidence_invalid: "Evidence could not be verified: no freeze",
        not_compared_budget: "Not compared (budget): runner B was not dispatched, no freeze",
    };
    const summary = [
        `${dual.outcome_code ? `${(0,markdown/* mdCode */.xs)(dual.outcome_code)}: ` : ""}${(0,markdown/* mdText */.bC)(dual.outcome_detail ?? "")}`,
        "",
        "The failing property keeps failing.",
        "",
        runs,
        "",
        COMPARED_BY,
    ].join("\n");
    return {
        ...common,
        conclusion: "failure",
        title: titles[dual.outcome ?? ""] ?? "No freeze",
        summary: (0,markdown/* clipMarkdown */._n)(summary, MAX_OUTPUT),
        ...(table ? { text: (0,markdown/* clipMarkdown */._n)(table, MAX_OUTPUT, "\n\n(cut to GitHub's size limit)") } : {}),
    };
}

;// CONCATENATED MODULE: ./src/app/dual-run-report.ts




/** Finishes a decided dual run: ledger PRs (or shadow proposals) and the dual-run check run. */
async function reportDualRun(ctx, id) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    const claimed = await store.claimDualRun(id, "decided", "reporting", owner, ctx.clock.now(), settings.leaseMs);
    if (!claimed)
        return "reported elsewhere";
    const dual = (await store.getDualRun(id));
    try {
        const gh = await ctx.installation(dual.installation_id);
        const lines = [];
        const proposals = [];
        let allSettled = true;
        if (dual.outcome === "freeze_eligible") {
            for (const { property, comparison } of eligibleComparisons(dual)) {
                const pr = await proposeFreeze(ctx, gh, dual, property, comparison);
                if (pr.state === "claimed")
                    allSettled = false;
                lines.push(describeProposal(pr));
                proposals.push(pr);
            }
        }
        if (!allSettled) {
            await store.releaseDualRun(id, "reporting", "decided", owner);
            return "a ledger PR is being opened by another replica; the sweeper finishes the report";
        }
        const mode = await store.installationMode(dual.installation_id);
        const checkRunId = await gh.createCheckRun(repoRef(dual.repository), dualRunCheck(settings.checkName, dual, lines, mode ?? "shadow", proposals));
        await store.releaseDualRun(id, "reporting", "done", owner, { done_at: ctx.clock.now(), check_run_id: checkRunId });
        return lines.length > 0 ? lines.join("; ") : "check run posted";
    }
    catch (err) {
        await store.releaseDualRun(id, "reporting", "decided", owner);
        throw err;
    }
}

;// CONCATENATED MODULE: ./src/app/rate-budget.ts


/**
 * Work of `kind` for an installation, given its budget as any replica last recorded it
 * (core/rate-budget.ts budgetDecision): throws BudgetDeferral (GITHUB_BUDGET_LOW, naming the
 * reset) when it waits. Nothing is sent to GitHub before this. A store that cannot be read
 * throws STORE_UNAVAILABLE: the work is queued for the sweeper, never run unchecked.
 */
async function respectBudget(ctx, installationId, kind) {
    const now = ctx.clock.now();
    const decision = budgetDecision(kind, await ctx.store.rateLimits.get(installationId), now);
    if (decision.defer)
        throw new BudgetDeferral(kind, decision.until, decision.reason);
}
function merge(a, b) {
    if (a === undefined || a.resource !== b.resource)
        return b;
    const reading = b.remaining !== null ? b : a;
    const after = [a.retryAfterUntil, b.retryAfterUntil].filter((t) => t !== null);
    return {
        resource: b.resource,
        remaining: reading.remaining,
        limit: reading.limit,
        resetAt: reading.resetAt,
        retryAfterUntil: after.length > 0 ? Math.max(...after) : null,
    };
}
/**
 * Records what GitHub's answers to each installation's requests say of its budget, in the
 * store (rate_limits), so every replica decides from it. Written as answers arrive, one write
 * per installation at a time: answers that come while one is being written are folded into the
 * next write (the latest reading, the latest retry-after). A write that fails is logged and
 * dropped: the next answer writes again; reading the budget never fails a request.
 */
class RateRecorder {
    store;
    owner;
    clock;
    log;
    pending = new Map();
    writing = new Map();
    constructor(store, owner, clock, log) {
        this.store = store;
        this.owner = owner;
        this.clock = clock;
        this.log = log;
    }
    /** One answer's headers, for installation `installationId`. */
    seen(installationId, headers) {
        const observed = parseRateHeaders(headers, this.clock.now());
        if (observed === null)
            return;
        if (observed.retryAfterUntil !== null) {
            this.log("warn", "github.secondary_limit", {
                installation: installationId,
                retry_after_until: new Date(observed.retryAfterUntil).toISOString(),
            });
        }
        this.pending.set(installationId, merge(this.pending.get(installationId), observed));
        if (!this.writing.has(installationId))
            this.writing.set(installationId, this.drain(installationId));
    }
    async drain(installationId) {
        try {
            for (let next = this.pending.get(installationId); next !== undefined; next = this.pending.get(installationId)) {
                this.pending.delete(installationId);
                try {
                    await this.store.rateLimits.record(installationId, next, this.owner, this.clock.now());
                }
                catch (err) {
                    this.log("warn", "github.rate_limit_unrecorded", {
                        installation: installationId,
                        code: codeOf(err),
                        message: err.message,
                    });
                }
            }
        }
        finally {
            this.writing.delete(installationId);
        }
    }
    /** Resolves once every reading seen so far is written (or its write failed). */
    async flushed() {
        while (this.writing.size > 0)
            await Promise.allSettled([...this.writing.values()]);
    }
}

// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
;// CONCATENATED MODULE: ./src/core/local-uses.ts

/** GitHub's own limits: reusable workflows nest up to 10 levels, composite actions up to 10. */
const USES_MAX_DEPTH = 10;
/** Local workflows and actions followed for one run, at most. */
const USES_MAX_NODES = 50;
const unreadable = (reason) => ({ code: "RUNNER_A_USES_UNREADABLE", reason });
/** Parses a workflow or action file as the runner would: a syntax error or a duplicate key is a refusal. */
function parseYaml(text, file) {
    const doc = (0,dist/* parseDocument */.Tp)(text, { uniqueKeys: true, prettyErrors: false, strict: true });
    if (doc.errors.length > 0) {
        return unreadable(`${file} at the base is not YAML the App can read (${doc.errors[0]?.message.split("\n")[0] ?? "?"})`);
    }
    try {
        return doc.toJS({ maxAliasCount: 100 });
    }
    catch (err) {
        return unreadable(`${file} at the base is not YAML the App can read (${err.message.split("\n")[0]})`);
    }
}
const isRefusal = (v) => typeof v === "object" && v !== null && typeof v.code === "string" && typeof v.reason === "string";
/** A repository path from `base` and a relative one, `.` and `..` folded; null when it leaves the repository. */
function repoPath(base, rel) {
    const out = base === "" ? [] : base.split("/");
    for (const part of rel.split("/")) {
        if (part === "" || part === ".")
            continue;
        if (part === "..") {
            if (out.length === 0)
                return null;
            out.pop();
        }
        else
            out.push(part);
    }
    return out.join("/");
}
/** A `uses:` value: a local reference, null for a remote action or `docker://`, or a refusal. */
function localRef(value, file) {
    if (typeof value !== "string")
        return unreadable(`${file} has a \`uses:\` that is not a string: which action runs cannot be read`);
    const v = value.trim();
    if (v.includes("${{"))
        return unreadable(`${file} has a \`uses:\` written as an expression (${v}): which action runs cannot be checked`);
    if (v !== "." && !v.startsWith("./"))
        return null;
    const path = repoPath("", v);
    if (path === null)
        return unreadable(`${file} has \`uses: ${v}\`, which leaves the repository`);
    return { kind: /\.ya?ml$/i.test(path) ? "workflow" : "action", path };
}
/**
 * Every `uses:` in a parsed file, wherever it stands (`jobs.<id>.uses`, `jobs.<id>.steps[].uses`,
 * `runs.steps[].uses`, and any other key named so, in any case): more than GitHub runs, never less.
 */
function usesOf(doc, file) {
    const out = [];
    const queue = [doc];
    for (let i = 0; i < queue.length; i++) {
        const node = queue[i];
        if (Array.isArray(node))
            queue.push(...node);
        else if (typeof node === "object" && node !== null) {
            for (const [key, value] of Object.entries(node)) {
                if (key.trim().toLowerCase() === "uses") {
                    const ref = localRef(value, file);
                    if (isRefusal(ref))
                        return ref;
                    if (ref !== null && !out.some((r) => r.kind === ref.kind && r.path === ref.path))
                        out.push(ref);
                }
                else
                    queue.push(value);
            }
        }
    }
    return out;
}
/** The local references of a workflow file's text. */
function usesIn(text, file) {
    const doc = parseYaml(text, file);
    return isRefusal(doc) ? doc : usesOf(doc, file);
}
const field = (o, name) => typeof o === "object" && o !== null && !Array.isArray(o)
    ? Object.entries(o).find(([k]) => k.trim().toLowerCase() === name)?.[1]
    : undefined;
/** An action manifest's local references and the files it runs (relative to its directory). */
function actionIn(text, file) {
    const doc = parseYaml(text, file);
    if (isRefusal(doc))
        return doc;
    const uses = usesOf(doc, file);
    if (isRefusal(uses))
        return uses;
    const runs = field(doc, "runs");
    const using = String(field(runs, "using") ?? "").toLowerCase();
    const files = [];
    const keys = using === "docker" ? ["image"] : using === "composite" ? [] : ["main", "pre", "post"];
    for (const key of keys) {
        const v = field(runs, key);
        if (v === undefined || v === null)
            continue;
        if (typeof v !== "string" || v.includes("${{"))
            return unreadable(`${file}'s runs.${key} cannot be read`);
        if (key === "image" && v.startsWith("docker://"))
            continue;
        files.push(v);
    }
    return { uses, files };
}
const label = (ref) => ref.kind === "workflow" ? ref.path : ref.path === "" ? "the Action at the repository's root" : `./${ref.path}`;
/**
 * Walks the base's gate workflow (`root`, its text `rootText`) down through every local
 * reference. Yields what it needs (the trees, once; a file's text at the base), returns the
 * scopes to compare or a refusal: a reference the base lacks (RUNNER_A_WORKFLOW_CHANGED), a file
 * that does not parse or a `uses:` that cannot be read (RUNNER_A_USES_UNREADABLE), a cycle
 * (RUNNER_A_USES_CYCLE), deeper or wider than the bounds (RUNNER_A_USES_UNBOUNDED).
 */
function* walkLocalUses(root, rootText) {
    const first = usesIn(rootText, root);
    if (isRefusal(first))
        return first;
    if (first.length === 0)
        return [];
    const base = (yield { kind: "tree" });
    if (base.truncated) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: "GitHub cut the repository's tree listing short: the local actions' files cannot be compared",
        };
    }
    const scopes = [];
    const seen = new Set();
    const keyOf = (ref) => `${ref.kind}:${ref.path}`;
    const hasUnder = (dir) => [...base.blobs.keys()].some((p) => p.startsWith(`${dir}/`));
    function* visit(ref, chain) {
        const via = [root, ...chain.map(label)].reverse().join(", used by ");
        if ((ref.kind === "workflow" && ref.path === root) || chain.some((c) => keyOf(c) === keyOf(ref))) {
            return { code: "RUNNER_A_USES_CYCLE", reason: `${label(ref)} uses itself (${label(ref)}, used by ${via})` };
        }
        if (chain.length >= USES_MAX_DEPTH) {
            return { code: "RUNNER_A_USES_UNBOUNDED", reason: `${label(ref)} is nested deeper than ${USES_MAX_DEPTH} levels (used by ${via})` };
        }
        if (seen.has(keyOf(ref)))
            return null;
        seen.add(keyOf(ref));
        if (seen.size > USES_MAX_NODES) {
            return { code: "RUNNER_A_USES_UNBOUNDED", reason: `the gate workflow uses more than ${USES_MAX_NODES} local workflows and actions` };
        }
        const missing = { code: "RUNNER_A_WORKFLOW_CHANGED", reason: `${label(ref)} (used by ${via}) is not in the base` };
        let uses;
        if (ref.kind === "workflow") {
            if (!base.blobs.has(ref.path))
                return missing;
            scopes.push({ kind: "file", path: ref.path, via });
            const text = yield { kind: "text", path: ref.path };
            if (typeof text !== "string")
                return unreadable(`GitHub did not return ${ref.path}'s text at the base`);
            const found = usesIn(text, ref.path);
            if (isRefusal(found))
                return found;
            uses = found;
        }
        else {
            const dir = ref.path;
            const at = (name) => (dir === "" ? name : `${dir}/${name}`);
            if (dir === "")
                for (const name of ["action.yml", "action.yaml"])
                    scopes.push({ kind: "file", path: name, via });
            else if (hasUnder(dir))
                scopes.push({ kind: "dir", path: dir, via });
            else
                return missing;
            const manifest = ["action.yml", "action.yaml"].map(at).find((p) => base.blobs.has(p));
            if (manifest === undefined) {
                // A directory with only a Dockerfile is an action too; its whole directory is compared.
                if (dir === "")
                    return missing;
                return null;
            }
            const text = yield { kind: "text", path: manifest };
            if (typeof text !== "string")
                return unreadable(`GitHub did not return ${manifest}'s text at the base`);
            const found = actionIn(text, manifest);
            if (isRefusal(found))
                return found;
            for (const f of found.files) {
                const p = repoPath(dir, f);
                if (p === null || p === "")
                    return unreadable(`${manifest} runs ${f}, which leaves the repository`);
                if (dir !== "" && p.startsWith(`${dir}/`))
                    continue;
                // A file outside the action's directory: the directory it is in (a bundle's chunks sit beside it), or the file itself at the root.
                const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
                scopes.push(parent === ""
                    ? { kind: "file", path: p, via: `${label(ref)}, used by ${via}` }
                    : { kind: "dir", path: parent, via: `${label(ref)}, used by ${via}` });
            }
            uses = found.uses;
        }
        for (const next of uses) {
            const out = yield* visit(next, [...chain, ref]);
            if (out !== null)
                return out;
        }
        return null;
    }
    for (const ref of first) {
        const out = yield* visit(ref, []);
        if (out !== null)
            return out;
    }
    return scopes;
}
/** Every scope the walk found is the same blobs (mode and object id) at head and base. */
function compareScopes(scopes, head, base) {
    if (scopes.length === 0)
        return null;
    if (head.truncated || base.truncated) {
        return {
            code: "RUNNER_A_UNVERIFIED",
            reason: "GitHub cut the repository's tree listing short: the local actions' files cannot be compared",
        };
    }
    const inScope = (s, p) => (s.kind === "file" ? p === s.path : p.startsWith(`${s.path}/`));
    for (const s of scopes) {
        const paths = new Set([...head.blobs.keys(), ...base.blobs.keys()].filter((p) => inScope(s, p)));
        const changed = [...paths].filter((p) => head.blobs.get(p) !== base.blobs.get(p)).sort();
        if (changed.length > 0) {
            const what = s.kind === "file" ? s.path : `./${s.path}`;
            return {
                code: "RUNNER_A_WORKFLOW_CHANGED",
                reason: `${what} (used by ${s.via}) differs between head and base (${changed.slice(0, 5).join(", ")}${changed.length > 5 ? `, … ${changed.length} files` : ""}): the pull request's own workflow or action ran`,
            };
        }
    }
    return null;
}

;// CONCATENATED MODULE: ./src/app/run-verify.ts



/** `run` is GitHub's answer to GET /actions/runs/{id} (never the webhook's copy). */
async function verifyRunnerA(ctx, gh, repository, run) {
    const r = repoRef(repository);
    const first = runnerARun(run, repository, ctx.settings.workflow);
    if ("code" in first)
        return { verified: false, refusal: first, run, pull: null };
    const pull = await gh.readPull(r, first.pullNumber);
    const second = runnerAPull(run, pull, repository, first.pullNumber);
    if (second !== null || pull === null)
        return { verified: false, refusal: second, run, pull };
    // The base as the Action judges it: the base branch GitHub names now, at its current commit.
    const baseSha = await gh.branchSha(r, pull.base.ref);
    if (baseSha === null) {
        return {
            verified: false,
            refusal: { code: "RUNNER_A_UNVERIFIED", reason: `pull request #${pull.number}'s base branch ${pull.base.ref} does not exist` },
            run,
            pull,
        };
    }
    const path = gateWorkflowPath(ctx.settings.workflow);
    const [atHead, atBase] = await Promise.all([gh.pathAt(r, path, run.head_sha), gh.pathAt(r, path, baseSha)]);
    const third = runnerAWorkflow(path, atHead, atBase);
    if (third !== null)
        return { verified: false, refusal: third, run, pull };
    if (atBase?.text === null || atBase?.text === undefined) {
        return {
            verified: false,
            refusal: {
                code: "RUNNER_A_UNVERIFIED",
                reason: `GitHub did not return ${path}'s text at the base: which actions it uses cannot be read`,
            },
            run,
            pull,
        };
    }
    const fourth = await localActions(gh, r, path, atBase.text, run.head_sha, baseSha);
    if (fourth !== null)
        return { verified: false, refusal: fourth, run, pull };
    return {
        verified: true,
        a: { run, pull, pullNumber: pull.number, headSha: run.head_sha, baseRef: pull.base.ref, baseSha },
    };
}
/**
 * Stage 4: every local workflow and action the base's workflow reaches (core/local-uses.ts walks
 * them at the base) is the same at head and base. Texts are read at the base commit; the trees
 * of both commits once, only when there is a local reference.
 */
async function localActions(gh, r, path, text, headSha, baseSha) {
    const walk = walkLocalUses(path, text);
    let trees = null;
    let step = walk.next();
    while (!step.done) {
        const need = step.value;
        if (need.kind === "tree") {
            trees = await Promise.all([gh.treeAt(r, headSha), gh.treeAt(r, baseSha)]);
            step = walk.next(trees[1]);
        }
        else
            step = walk.next((await gh.pathAt(r, need.path, baseSha))?.text ?? null);
    }
    if ("code" in step.value)
        return step.value;
    return trees === null ? null : compareScopes(step.value, trees[0], trees[1]);
}
/** Runner B: the run re-read through the API, held to what the App recorded at its dispatch. */
async function verifyRunnerB(ctx, gh, dual, runId) {
    const run = await gh.getRun(repoRef(dual.repository), runId);
    return { run, refusal: runnerBRun(run, dual, ctx.settings.workflow, await gh.botLogin()) };
}
/** Logs a refused run and records it once for the status page. */
async function recordRunRefusal(ctx, role, repository, run, refusal, dualRunId = null) {
    ctx.log("warn", `${role}.refused`, { run: run.id, repository, code: refusal.code, reason: refusal.reason, dual_run: dualRunId });
    await ctx.store.runs.recordRefusal({
        repository,
        run_id: run.id,
        run_attempt: run.run_attempt ?? 1,
        role,
        code: refusal.code,
        reason: refusal.reason,
        event: run.event ?? null,
        head_sha: run.head_sha ?? null,
        dual_run_id: dualRunId,
        refused_at: ctx.clock.now(),
    });
}

;// CONCATENATED MODULE: ./src/app/runner-b.ts










/** How long after a dispatch attempt GitHub's run listing is trusted to show the run it started. */
const DISPATCH_LISTING_LAG_MS = 60_000;
/**
 * Sends runner B's dispatch for a pending dual run; the dispatch goes out at most once per
 * claim, and only after a reservation under runner B's budget is recorded. A dual run that
 * reserved before (a retry, a takeover after a crash) looks for the run its earlier dispatch
 * may have started before sending another.
 */
async function dispatchRunnerB(ctx, id) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    const now = ctx.clock.now();
    const claimed = await store.claimDualRun(id, "pending", "dispatching", owner, now, settings.leaseMs, {}, { deadline_at: { above: now } });
    if (!claimed) {
        const current = await store.getDualRun(id);
        return `runner B not dispatched here (state ${current?.state ?? "missing"})`;
    }
    const dual = (await store.getDualRun(id));
    // Paused: no reservation either, so a pause that outlasts the deadline spends nothing of the day's budget.
    const backToPending = (err) => store.releaseDualRun(id, "dispatching", "pending", owner).then(() => Promise.reject(err), () => Promise.reject(err));
    const kill = await store.killSwitch().catch(backToPending);
    if (kill.paused) {
        await backToPending(new core_errors/* Refusal */.P_("KILL_SWITCH_ENGAGED", `the App is paused (${kill.reason ?? "no reason given"}); runner B was not dispatched`));
    }
    // Runner B waits for the installation's GitHub budget only when it is nearly exhausted (the last in the order).
    await respectBudget(ctx, dual.installation_id, "runner_b").catch(backToPending);
    let reserved;
    try {
        reserved = await store.budget.reserve({ dualRunId: id, installationId: dual.installation_id, repository: dual.repository, owner, now: ctx.clock.now() }, settings.budget);
    }
    catch (err) {
        return notComparedForBudget(ctx, dual, codeOf(err) === "BUDGET_UNCONFIRMED" ? "BUDGET_UNCONFIRMED" : null, err);
    }
    if (reserved.status === "refused") {
        const detail = refusalDetail(settings.budget, reserved.limits, reserved.usage, { installation: dual.installation_id, repository: dual.repository }, ctx.clock.now()) ?? "the budget refused the reservation";
        return notComparedForBudget(ctx, dual, "RUNNER_B_BUDGET_EXCEEDED", new core_errors/* Refusal */.P_("RUNNER_B_BUDGET_EXCEEDED", detail));
    }
    let attemptedAt = null;
    try {
        const gh = await ctx.installation(dual.installation_id);
        const r = repoRef(dual.repository);
        if (reserved.status === "held") {
            const candidates = await gh.listDispatchedRuns(r, settings.workflow, runBSearchSince(dual));
            const earlier = runBAmong(candidates, dual, settings.workflow, await gh.botLogin());
            if (earlier) {
                const moved = await store.releaseDualRun(id, "dispatching", "waiting", owner, {
                    dispatch_mode: "correlation",
                    run_b_id: earlier.id,
                    run_b_url: earlier.html_url,
                    dispatched_at: Date.parse(earlier.created_at) || ctx.clock.now(),
                });
                ctx.log("info", "runner_b.found_earlier_dispatch", { dual_run: id, run_b: earlier.id, recorded: moved });
                return `runner B already dispatched by an earlier attempt (run ${earlier.id}); not sent again`;
            }
            // GitHub lists a new run a little after it starts: an earlier attempt this recent may have
            // started one the listing does not show yet. Look again later rather than send a second.
            const attempted = reserved.reservation.attempted_at;
            const settlesAt = attempted === null ? 0 : attempted + DISPATCH_LISTING_LAG_MS;
            if (ctx.clock.now() < settlesAt) {
                throw new core_errors/* Refusal */.P_("DISPATCH_OUTCOME_UNKNOWN", `an earlier dispatch attempt for dual run ${id} may have started a run GitHub does not list yet; looking again after ${new Date(settlesAt).toISOString()} before sending another`);
            }
        }
        // The base commit the dispatch runs on, read just before it is sent: runner B must be a run
        // of exactly that commit (run-checks.ts runnerBRun). A base that moves in between makes B
        // unverifiable: no freeze, the property fails.
        const baseSha = await gh.branchSha(r, dual.base_ref);
        if (baseSha === null)
            throw new core_errors/* Refusal */.P_("RUNNER_B_UNAVAILABLE", `the base branch ${dual.base_ref} does not exist: runner B cannot be dispatched on it`);
        attemptedAt = ctx.clock.now();
        await store.budget.markAttempt(id, attemptedAt);
        await store.transitionDualRun(id, ["dispatching"], "dispatching", { base_sha: baseSha, dispatch_sent_at: attemptedAt }, { claim_owner: owner });
        const result = await gh.dispatchWorkflow(r, settings.workflow, dual.base_ref, runnerBInputs(dual, settings.runnerBLabels));
        const moved = await store.releaseDualRun(id, "dispatching", "waiting", owner, {
            dispatch_mode: result.mode,
            run_b_id: result.runId,
            run_b_url: result.runUrl,
            dispatched_at: ctx.clock.now(),
        });
        ctx.log("info", "runner_b.dispatched", { dual_run: id, mode: result.mode, run_b: result.runId, recorded: moved });
        return `runner B dispatched (${result.mode}${result.runId === null ? "" : `, run ${result.runId}`})`;
    }
    catch (err) {
        // A refusal GitHub answered (4xx) or one made before the request left (the kill switch, a
        // drain, a fence, the key) started no run: the next attempt need not wait for the listing.
        if (attemptedAt !== null && !mayHaveStarted(err))
            await store.budget.clearAttempt(id, attemptedAt).catch(() => undefined);
        await store.releaseDualRun(id, "dispatching", "pending", owner);
        ctx.log("warn", "runner_b.dispatch_failed", { dual_run: id, code: codeOf(err), message: err.message });
        throw err;
    }
}
/**
 * Whether a failed dispatch request may still have started a run: anything but an answer
 * GitHub gave with a 4xx status, or a refusal before the request was sent.
 */
function mayHaveStarted(err) {
    if (err instanceof client_GitHubUnavailable)
        return err.status === null || err.status >= 500;
    return !((0,core_errors/* isRefusal */.vu)(err) && (0,core_errors/* nothingSent */.MB)(err.code));
}
/**
 * No dispatch: the budget refused it, or could not be confirmed. The dual run ends "not
 * compared (budget)" (the property fails, nothing is frozen) and its check run says why. When
 * even that cannot be recorded (the store is gone), the error is thrown with its code: the
 * claim lapses and a later attempt reserves again; nothing was sent either way.
 */
async function notComparedForBudget(ctx, dual, code, err) {
    const owner = ctx.settings.replicaId;
    if (code === null) {
        await ctx.store.releaseDualRun(dual.id, "dispatching", "pending", owner).catch(() => false);
        throw err;
    }
    const detail = err.message;
    ctx.log("warn", "runner_b.not_dispatched", { dual_run: dual.id, repository: dual.repository, code, detail });
    let moved;
    try {
        moved = await ctx.store.releaseDualRun(dual.id, "dispatching", "decided", owner, {
            outcome: "not_compared_budget",
            outcome_code: code,
            outcome_detail: `runner B was not dispatched: ${detail}; the property fails, nothing is frozen`,
            decided_at: ctx.clock.now(),
        });
    }
    catch {
        throw err;
    }
    if (!moved)
        return `dual run ${dual.id}: not compared (${code}), decided elsewhere`;
    const reported = await reportDualRun(ctx, dual.id);
    return `dual run ${dual.id}: not compared (${code}); ${reported}`;
}
/**
 * Charges runner B's dispatch its real minutes, read from GitHub's timing of the finished run.
 * A run whose timing cannot be read stays charged at the maximum (the budget's safe side).
 */
async function settleRunB(ctx, gh, dual, runBId, read = null) {
    try {
        // The completed run as compareRunB already read and verified it, else read now (the sweeper).
        const run = read !== null && read.id === runBId && read.status === "completed" ? read : await gh.getRun(repoRef(dual.repository), runBId);
        const minutes = measuredMinutes(run, ctx.settings.budget.maxRunMinutes);
        if (minutes === null)
            return null;
        await ctx.store.budget.settle(dual.id, runBId, minutes, ctx.clock.now());
        return minutes;
    }
    catch (err) {
        ctx.log("warn", "budget.settle_failed", { dual_run: dual.id, run_b: runBId, code: codeOf(err), message: err.message });
        return null;
    }
}
/**
 * Runner B finished: downloads both bundles, verifies and compares them, records the decision
 * and reports it. Only runner B's recorded run (or the first one named) is compared, before
 * the deadline.
 */
async function compareRunB(ctx, dual, runBId, runBUrl) {
    const { store, settings } = ctx;
    const owner = settings.replicaId;
    // Only a run the App's dispatch started is runner B: re-read through the API and held to
    // what was recorded at the dispatch. Anything else is refused and never compared; the dual
    // run keeps waiting for its real runner B (or its deadline).
    const verified = await verifyRunnerB(ctx, await ctx.installation(dual.installation_id), dual, runBId);
    if (verified.refusal !== null) {
        await recordRunRefusal(ctx, "runner_b", dual.repository, verified.run, verified.refusal, dual.id);
        return `refused: ${verified.refusal.code}: ${verified.refusal.reason}`;
    }
    if (verified.run.status !== "completed")
        return `dual run ${dual.id}: runner B's run ${runBId} is ${verified.run.status} on GitHub`;
    const now = ctx.clock.now();
    const claimed = await store.claimDualRun(dual.id, "waiting", "comparing", owner, now, settings.leaseMs, { run_b_id: runBId, run_b_url: runBUrl ?? dual.run_b_url }, { deadline_at: { above: now }, run_b_id: { nullOr: runBId } });
    if (!claimed) {
        const current = await store.getDualRun(dual.id);
        return `dual run ${dual.id}: runner B's completion not compared here (state ${current?.state ?? "missing"}${current && current.deadline_at <= now ? ", deadline passed" : ""})`;
    }
    let decided;
    try {
        const gh = await ctx.installation(dual.installation_id);
        const r = repoRef(dual.repository);
        await settleRunB(ctx, gh, dual, runBId, verified.run);
        const zipA = await gh.downloadArtifact(r, dual.run_a_id, EVIDENCE_ARTIFACT_NAME);
        const zipB = await gh.downloadArtifact(r, runBId, EVIDENCE_ARTIFACT_NAME);
        decided = decideDualRun(dual, zipA, zipB);
    }
    catch (err) {
        await store.releaseDualRun(dual.id, "comparing", "waiting", owner);
        throw err;
    }
    const { decision, bundleB } = decided;
    const moved = await store.releaseDualRun(dual.id, "comparing", "decided", owner, {
        outcome: decision.outcome,
        outcome_code: decision.code,
        outcome_detail: decision.detail,
        results: JSON.stringify({ results: decision.results, eligible: decision.eligible }),
        evidence_b: bundleB?.digest ?? null,
        runner_b: bundleB ? JSON.stringify(bundleB.runner) : null,
        decided_at: ctx.clock.now(),
    });
    ctx.log(decision.code ? "warn" : "info", "dual_run.decided", {
        dual_run: dual.id,
        outcome: decision.outcome,
        code: decision.code,
        detail: decision.detail,
    });
    if (!moved)
        return `dual run ${dual.id}: decided elsewhere`;
    const reported = await reportDualRun(ctx, dual.id);
    return `dual run ${dual.id}: ${decision.outcome}; ${reported}`;
}

;// CONCATENATED MODULE: ./src/app/handlers/workflow-run.ts









/**
 * `workflow_run` completed. The payload only names the run: the App reads it again through
 * GitHub's API and decides from that. A `workflow_dispatch` run can only be runner B (a run
 * the App's own dispatch started, run-checks.ts `runnerBRun`); a `pull_request` or `pull_request_review` run of the base's
 * workflow file on the pull request's current head is runner A (`verifyRunnerA`); a `push` run
 * is judged as an audit run for the envelope PR (envelope-pr.ts); anything else is refused,
 * recorded, and never starts a dual run.
 */
async function onWorkflowRun(ctx, p) {
    const hint = p.workflow_run;
    const repository = p.repository?.full_name;
    const installationId = p.installation?.id;
    if (p.action !== "completed" || !hint || !repository || installationId === undefined)
        return "ignored: not a completed run";
    // A cheap filter on the payload; what counts is the path the API reports (verified below).
    if (!isGateWorkflow(hint.path, ctx.settings.workflow))
        return `ignored: workflow ${hint.path ?? "?"} is not ${ctx.settings.workflow}`;
    const known = await ctx.store.findDualRunByRunB(repository, hint.id);
    if (known)
        return compareRunB(ctx, known, hint.id, hint.html_url ?? null);
    const gh = await ctx.installation(installationId);
    const run = await gh.getRun(repoRef(repository), hint.id);
    if (run.status !== "completed")
        return `ignored: run ${run.id} is ${run.status} on GitHub`;
    // A push run is never runner A; on the default branch with an audit bundle it feeds the envelope PR.
    if (run.event === "push")
        return onAuditRun(ctx, gh, run, repository, installationId);
    if (run.event === "workflow_dispatch") {
        const dualRunId = dualRunIdInTitle(run.display_title);
        if (dualRunId !== null)
            return onRunNamingDualRun(ctx, run, repository, dualRunId);
    }
    return onRunA(ctx, gh, run, repository, installationId);
}
/** A dispatched run named after a dual run: compared only if it is that dual run's runner B (compareRunB verifies it). */
async function onRunNamingDualRun(ctx, run, repository, dualRunId) {
    const dual = await ctx.store.getDualRun(dualRunId);
    if (!dual || dual.repository.toLowerCase() !== repository.toLowerCase()) {
        const refusal = {
            code: "RUNNER_B_UNVERIFIED",
            reason: `run ${run.id} names dual run ${dualRunId}, which ${repository} does not have`,
        };
        await recordRunRefusal(ctx, "runner_b", repository, run, refusal, dualRunId);
        return `refused: ${refusal.code}: ${refusal.reason}`;
    }
    return compareRunB(ctx, dual, run.id, run.html_url ?? null);
}
/**
 * Runner A: verified against the API. Every pull_request or pull_request_review run gets the App's verified check;
 * a verified run that failed a property with a clean envelope records a dual run and
 * dispatches runner B.
 */
async function onRunA(ctx, gh, run, repository, installationId) {
    const verdict = await verifyRunnerA(ctx, gh, repository, run);
    if (!verdict.verified)
        await recordRunRefusal(ctx, "runner_a", repository, run, verdict.refusal);
    // The evidence, downloaded at most once for the dual run and the verified check.
    let read = null;
    const evidence = () => (read ??= gh.runEvidence(repoRef(repository), run, EVIDENCE_ARTIFACT_NAME));
    let outcome;
    let failed = null;
    if (!verdict.verified)
        outcome = `refused: ${verdict.refusal.code}: ${verdict.refusal.reason}`;
    else if (run.conclusion !== "failure")
        outcome = `runner A ${run.id} verified; it concluded ${run.conclusion ?? "nothing"}: no dual run`;
    else {
        // The dual run first: a pause or a drain stops it where it stops today (recorded, not sent).
        try {
            const got = await evidence();
            outcome = await startDualRun(ctx, verdict.a, repository, installationId, got.kind === "zip" ? got.zip : null);
        }
        catch (err) {
            failed = { err };
            outcome = "";
        }
    }
    // The verified check even when the dual run failed (a tampered bundle is a failing check);
    // when both fail, the dual run's error is the delivery's.
    let checked = "";
    try {
        checked = await postVerifiedCheck(ctx, gh, repository, run, verdict, evidence, gateWorkflowPath(ctx.settings.workflow));
    }
    catch (err) {
        if (failed === null)
            throw err;
    }
    if (failed !== null)
        throw failed.err;
    return checked === "" ? outcome : `${outcome}; ${checked}`;
}
async function startDualRun(ctx, a, repository, installationId, zip) {
    if (zip === null)
        return `ignored: run ${a.run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (no freeze without evidence)`;
    const bundle = readEvidenceZip(zip);
    const next = dualRunForRunA(a, repository, installationId, bundle, ctx.clock.now(), ctx.settings.deadlineMs);
    if ("skip" in next)
        return next.skip;
    const inserted = await ctx.store.insertDualRun(next.record);
    ctx.log("info", inserted ? "dual_run.recorded" : "dual_run.redelivered", {
        dual_run: next.record.id,
        repository,
        properties: next.failing,
    });
    const dispatched = await dispatchRunnerB(ctx, next.record.id);
    return `dual run ${next.record.id}: ${dispatched}`;
}

;// CONCATENATED MODULE: ./src/app/sweep.ts







/**
 * One pass: expire dual runs past their deadline (RUNNER_B_UNAVAILABLE, no freeze), send
 * dispatches that could not go out, find runner B's run where GitHub gave no id, pick up
 * completions whose webhook never came, finish reports, and flag PRs waiting for review.
 */
async function sweep(ctx) {
    const report = { expired: [], dispatched: [], correlated: [], compared: [], reported: [], reviewAlerts: [], errors: [] };
    const attempt = async (item, fn) => {
        try {
            await fn();
        }
        catch (err) {
            report.errors.push({ item, code: codeOf(err), message: err.message });
            ctx.log("error", "sweep.item_failed", { item, code: codeOf(err), message: err.message });
        }
    };
    const now = ctx.clock.now();
    // First, so a pause cleared behind the App's back is restored before anything below sends.
    // A watchdog that cannot run (the store, an unreadable history row) is a sweep error; what it
    // guards still holds: every send reads the recorded pause, every reservation the recorded cap.
    report.switches = [];
    await attempt("switch watchdog", async () => {
        report.switches = await watchSwitches(ctx, now);
    });
    report.expired = await expireMissedDeadlines(ctx, now);
    for (const dual of await ctx.store.listDualRuns(["pending"])) {
        await attempt(dual.id, async () => {
            const result = await dispatchRunnerB(ctx, dual.id);
            if (result.startsWith("runner B dispatched"))
                report.dispatched.push(dual.id);
        });
    }
    for (const dual of await ctx.store.listDualRuns(["waiting"])) {
        await attempt(dual.id, () => followRunB(ctx, dual, report));
    }
    for (const dual of await ctx.store.listDualRuns(["decided", "reporting"])) {
        await attempt(dual.id, async () => {
            const result = await reportDualRun(ctx, dual.id);
            if (result !== "reported elsewhere")
                report.reported.push(dual.id);
        });
    }
    for (const pr of await ctx.store.listLedgerPrs(["opened"])) {
        if (pr.review_alerted_at !== null || !reviewOverdue(pr, now, ctx.settings.reviewAlertMs))
            continue;
        const openedAt = pr.opened_at;
        await attempt(pr.freeze_id, async () => {
            const claimed = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { review_alerted_at: now }, { review_alerted_at: null });
            if (!claimed)
                return;
            const hours = Math.floor((now - openedAt) / 3_600_000);
            ctx.log("error", "ledger_pr.review_overdue", {
                freeze_id: pr.freeze_id,
                repository: pr.repository,
                pull: pr.pr_number,
                waited_hours: hours,
            });
            report.reviewAlerts.push(pr.freeze_id);
            const gh = await ctx.installation(pr.installation_id);
            const r = repoRef(pr.repository);
            await gh.comment(r, pr.pr_number, reviewOverdueComment(hours, ctx.settings.reviewers, ctx.settings.teamReviewers, r.owner));
        });
    }
    report.measured = [];
    await attempt("budget usage", async () => {
        report.measured = await refreshUsage(ctx, now);
    });
    return report;
}
/**
 * The watchdog on the switches: each switch is compared with its latest recorded change. A
 * change nobody recorded that loosens (a pause cleared, a cap raised or removed) is reverted;
 * one that tightens is kept and recorded. Both are logged as errors with their code.
 */
async function watchSwitches(ctx, now) {
    const { budget } = ctx.settings;
    const defaults = (scope) => (parseScopeKey(scope)?.kind === "repository" ? budget.repository : budget.installation);
    const done = [];
    for (const drift of await ctx.store.switches.drift(defaults)) {
        const answer = await ctx.store.switches.answer(drift, now);
        if (answer === null)
            continue;
        done.push(`${drift.switch}: ${answer}`);
        ctx.log("error", "switch.unrecorded_change", {
            code: "SWITCH_UNRECORDED_CHANGE",
            switch: drift.switch,
            found: drift.found,
            recorded: drift.recorded,
            action: answer,
        });
    }
    return done;
}
/**
 * Reads GitHub's timing of today's finished runner-B runs whose reading is missing or past
 * half its trust window, so the budget charges real minutes. A run that cannot be read keeps
 * its old charge until its reading goes stale; then it counts at the maximum.
 */
async function refreshUsage(ctx, now) {
    const measured = [];
    const stale = now - ctx.settings.budget.freshMs / 2;
    for (const reservation of await ctx.store.budget.unsettled(budgetDay(now), stale, 20)) {
        const dual = await ctx.store.getDualRun(reservation.dual_run_id);
        const runB = reservation.run_b_id;
        if (!dual || runB === null)
            continue;
        const gh = await ctx.installation(dual.installation_id);
        if ((await settleRunB(ctx, gh, dual, runB)) !== null)
            measured.push(dual.id);
    }
    return measured;
}
/** Dual runs past their deadline are decided RUNNER_B_UNAVAILABLE (a held one once its claim lapsed). */
async function expireMissedDeadlines(ctx, now) {
    const expired = [];
    for (const dual of await ctx.store.listDualRuns(["pending", "dispatching", "waiting", "comparing"])) {
        if (dual.deadline_at > now)
            continue;
        const held = dual.state === "dispatching" || dual.state === "comparing";
        const moved = await ctx.store.transitionDualRun(dual.id, held ? [dual.state] : ["pending", "waiting"], "decided", {
            claim_owner: null,
            claim_until: null,
            outcome: "runner_b_unavailable",
            outcome_code: "RUNNER_B_UNAVAILABLE",
            outcome_detail: deadlineMissedDetail(dual),
            decided_at: now,
        }, held ? { deadline_at: { atMost: now }, claimLapsedAt: now } : { deadline_at: { atMost: now } });
        if (moved) {
            expired.push(dual.id);
            ctx.log("warn", "dual_run.expired", { dual_run: dual.id, code: "RUNNER_B_UNAVAILABLE" });
        }
    }
    return expired;
}
/** A waiting dual run: find runner B's run if GitHub gave no id, and compare it once it completed. */
async function followRunB(ctx, dual, report) {
    const gh = await ctx.installation(dual.installation_id);
    const r = repoRef(dual.repository);
    let run;
    if (dual.run_b_id === null) {
        const candidates = await gh.listDispatchedRuns(r, ctx.settings.workflow, runBSearchSince(dual));
        run = runBAmong(candidates, dual, ctx.settings.workflow, await gh.botLogin());
        if (run === null)
            return;
        const set = await ctx.store.transitionDualRun(dual.id, ["waiting"], "waiting", { run_b_id: run.id, run_b_url: run.html_url }, { run_b_id: null });
        if (set)
            report.correlated.push(dual.id);
    }
    else {
        run = await gh.getRun(r, dual.run_b_id);
    }
    if (run.status === "completed") {
        const fresh = (await ctx.store.getDualRun(dual.id));
        await compareRunB(ctx, fresh, run.id, run.html_url);
        report.compared.push(dual.id);
    }
}

;// CONCATENATED MODULE: ./src/app/service.ts












/** The events the App subscribes to (app.yml), each with its handler. */
const HANDLERS = new Map([
    ["workflow_run", onWorkflowRun],
    ["push", onPush],
    ["pull_request", onPullRequest],
    ["pull_request_review", onPullRequestReview],
]);
/**
 * A queued delivery that failed this many times is `failed` (a redelivery only): with the
 * default 30 s sweep, about an hour, the longest rate-limit reset GitHub announces.
 */
const MAX_QUEUED_FAILURES = 120;
/** How many recorded deliveries one sweeper pass takes up. */
const SWEEP_DELIVERY_BATCH = 100;
/**
 * Delivery bookkeeping and routing. Each event's work is a handler over the App context
 * (src/app/handlers/); every effect goes through the installation client, whose guard reads
 * the kill switch.
 */
class AppService {
    store;
    github;
    settings;
    clock;
    metrics;
    lastSweep = null;
    /** Set when the process starts draining: new deliveries are refused with APP_DRAINING. */
    draining = false;
    /** Set when the drain ran out of time: requests to GitHub are refused with APP_DRAINING. */
    stopping = false;
    /** Deliveries being processed in this process, by id. */
    inFlight = new Map();
    takingUp = false;
    ctx;
    /** The delivery whose work is running, for a GitHub request attempt that fails on its behalf. */
    working = new external_node_async_hooks_.AsyncLocalStorage();
    log;
    /** The last redelivery pass this process ran (the store keeps the last of any replica). */
    lastRedelivery = null;
    /** Each installation's GitHub budget as its answers say, recorded for every replica. */
    rates;
    constructor(store, github, settings, clock = systemClock, log = jsonLogger, 
    /** GET /metrics' counters (metrics.ts); its own registry per App. */
    metrics = new AppMetrics()) {
        this.store = store;
        this.github = github;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.log = metrics.counting(log);
        log = this.log;
        this.ctx = { store, installation: (id) => github.installation(id), clock, settings, log };
        this.rates = new RateRecorder(store, settings.replicaId, clock, log);
    }
    /** The headers of an answer to an installation's request (its rate limit, a secondary limit's retry-after). */
    gitHubAnswered(installationId, headers) {
        this.rates.seen(installationId, headers);
    }
    /** The claim owner: this process (replica id and incarnation). */
    get owner() {
        return this.settings.replicaId;
    }
    /** Deliveries still being processed here. */
    inFlightCount() {
        return this.inFlight.size;
    }
    /** Resolves when every delivery in flight here has settled. */
    async settled() {
        while (this.inFlight.size > 0)
            await Promise.allSettled([...this.inFlight.values()]);
    }
    /**
     * Takes one verified delivery, within GitHub's 10 s: one store write, then the answer; the
     * work runs outside the request. A new delivery (or one recorded `failed` or `queued`) is
     * claimed with its payload and worked on here at once when a worker is free; otherwise (every
     * worker busy, or this process draining) it is recorded `queued`, for the next free worker of
     * any replica (or the sweeper). Both are `queued` answers (202). One held by a live process is
     * `in_progress` (202: GitHub's log shows no failure, and nothing runs twice); one done before
     * is `duplicate` (200). A store that cannot record it throws (503, nothing recorded: the
     * redelivery sweep asks GitHub for it again).
     */
    accept(deliveryId, event, payload, body) {
        if (this.inFlight.has(deliveryId))
            return Promise.resolve(inProgress("this process"));
        const raw = body ?? JSON.stringify(payload);
        if (this.draining || this.inFlight.size >= this.settings.workers)
            return this.queue(deliveryId, event, raw);
        let answer;
        let refuse;
        const answered = new Promise((resolve, reject) => {
            answer = resolve;
            refuse = reject;
        });
        // Tracked before the claim, so a concurrent copy of this delivery to this process is in progress, not claimed twice.
        void this.track(deliveryId, async () => {
            let claimed;
            try {
                claimed = await this.store.claimDelivery(deliveryId, event, this.owner, this.clock.now(), this.settings.leaseMs, raw);
            }
            catch (err) {
                refuse(err);
                return;
            }
            if (!claimed) {
                await this.heldElsewhere(deliveryId).then(answer, refuse);
                return;
            }
            answer({ status: "queued", outcome: "recorded; this process is working on it now" });
            await this.process(deliveryId, event, payload).catch(() => undefined);
        });
        return answered;
    }
    /** Records a delivery `queued` without working on it here (every worker busy, or draining). */
    async queue(deliveryId, event, raw) {
        const reason = this.draining
            ? { code: "APP_DRAINING", message: "recorded while this process shuts down; another replica or the restarted one works on it" }
            : null;
        if (await this.store.queueDelivery(deliveryId, event, this.owner, this.clock.now(), raw, reason)) {
            return {
                status: "queued",
                outcome: reason ? reason.message : "recorded; every worker of this process is busy, the next free one of any replica takes it",
            };
        }
        return this.heldElsewhere(deliveryId);
    }
    async heldElsewhere(deliveryId) {
        const row = await this.store.getDelivery(deliveryId);
        if (row?.state === "done")
            return { status: "duplicate", outcome: row.outcome ?? "already processed" };
        return inProgress(row ? `process ${row.owner}` : "another process");
    }
    /**
     * Runs a claimed delivery's work, with its one log line for the outcome: `delivery.done`,
     * `delivery.queued` (set aside by a pause) or `delivery.failed` (with code and hint).
     */
    async process(deliveryId, event, payload) {
        try {
            const result = await this.working.run(deliveryId, () => this.work(deliveryId, event, payload)).finally(() => this.rates.flushed());
            this.log("info", `delivery.${result.status}`, { delivery: deliveryId, github_event: event, outcome: result.outcome });
            this.metrics.deliveryProcessed(event, result.status);
            return result;
        }
        catch (err) {
            const gate = (0,core_errors/* isRefusal */.vu)(err) ? err : new core_errors/* Refusal */.P_("INTERNAL_ERROR", err?.message ?? String(err), { cause: err });
            this.metrics.deliveryFailed(event, gate.code);
            this.log("error", "delivery.failed", {
                delivery: deliveryId,
                github_event: event,
                code: gate.code,
                message: gate.message,
                ...(gate.hint ? { hint: gate.hint } : {}),
            });
            throw gate;
        }
    }
    /**
     * A request attempt GitHub did not answer (refused, reset, timed out, a 5xx), made for the
     * delivery whose work is running: its row says at once that it waits on GitHub, with the error
     * and the configured API URL, while the client retries (state `processing`, code
     * GITHUB_UNAVAILABLE). Its outcome (done, or queued with the failure counted) replaces the note.
     */
    gitHubAttemptFailed(route, err) {
        const id = this.working.getStore();
        if (id === undefined)
            return;
        const message = `waiting on GitHub at ${this.settings.githubApiUrl}: ${route} failed (${attemptDetail(err)}); retrying`;
        void this.store.noteDeliveryWaiting(id, this.owner, "GITHUB_UNAVAILABLE", message).catch(() => undefined);
    }
    /**
     * Free workers take up deliveries recorded `queued` that no attempt has failed yet (queued
     * while every worker was busy, or by a draining process), oldest first, from any replica.
     * Those that failed wait for the sweeper, so a transient failure is not retried in a loop.
     */
    async takeUpWaiting() {
        if (this.takingUp || this.draining)
            return 0;
        this.takingUp = true;
        try {
            const free = this.settings.workers - this.inFlight.size;
            if (free <= 0 || (await this.store.killSwitch()).paused)
                return 0;
            let started = 0;
            for (const { delivery_id: id, event, payload } of await this.store.waitingDeliveries(free)) {
                if (this.draining || this.inFlight.has(id) || this.inFlight.size >= this.settings.workers)
                    continue;
                started++;
                void this.track(id, async () => {
                    if (!(await this.store.reclaimDelivery(id, this.owner, this.clock.now(), this.settings.leaseMs)))
                        return;
                    await this.process(id, event, JSON.parse(payload));
                }).catch(() => undefined);
            }
            return started;
        }
        catch (err) {
            this.log("warn", "delivery.take_up_failed", { code: codeOf(err), message: err.message });
            return 0;
        }
        finally {
            this.takingUp = false;
        }
    }
    /** Runs a claimed delivery's work and records its outcome. */
    async work(deliveryId, event, payload) {
        const owner = this.owner;
        let outcome;
        try {
            const kill = await this.store.killSwitch();
            if (kill.paused) {
                throw new core_errors/* Refusal */.P_("KILL_SWITCH_ENGAGED", `the App is paused (${kill.reason ?? "no reason given"}); the delivery is queued`);
            }
            outcome = await this.route(event, payload);
        }
        catch (err) {
            // Past the drain bound, whatever failed was cut short by the shutdown: released, not failed.
            const code = this.stopping ? "APP_DRAINING" : codeOf(err);
            const message = err instanceof Error ? err.message : String(err);
            // Deferred for the installation's budget: queued, and the sweeper leaves it until the reset.
            const deferredUntil = !this.stopping && err instanceof BudgetDeferral ? err.until : undefined;
            const recorded = await this.store
                .failDelivery(deliveryId, owner, code, message, this.clock.now(), {
                queue: (0,core_errors/* isTransient */.dg)(code),
                countsAsFailure: !(0,core_errors/* isSetAside */.JA)(code),
                maxFailures: MAX_QUEUED_FAILURES,
                ...(deferredUntil === undefined ? {} : { notBefore: deferredUntil }),
            })
                .catch(() => false);
            // Not logged here: the webhook intake logs one line per delivery outcome, the sweeper its own report.
            if (code === "KILL_SWITCH_ENGAGED" && recorded)
                return { status: "queued", outcome: "recorded while paused; the sweeper processes it after resume" };
            if (deferredUntil !== undefined && recorded) {
                this.log("warn", "delivery.deferred", { delivery: deliveryId, github_event: event, code, message });
                return { status: "queued", outcome: `${message}; the sweeper takes it up then` };
            }
            if (code !== codeOf(err))
                throw new core_errors/* Refusal */.P_("APP_DRAINING", `released at shutdown (${message})`, { cause: err });
            throw err;
        }
        await this.store.finishDelivery(deliveryId, owner, outcome, this.clock.now());
        return { status: "done", outcome };
    }
    async track(deliveryId, fn) {
        const running = fn();
        this.inFlight.set(deliveryId, running);
        try {
            return await running;
        }
        finally {
            this.inFlight.delete(deliveryId);
            if (!this.draining)
                void this.takeUpWaiting();
        }
    }
    /**
     * The sweeper's part of delivery work: queued deliveries (a pause, GitHub or the store out,
     * a drain) and ones whose owner is gone, processed from their recorded payload. Nothing is
     * taken while paused.
     */
    async sweepDeliveries() {
        const processed = [];
        const errors = [];
        if ((await this.store.killSwitch()).paused || this.draining)
            return { processed, errors };
        const candidates = await this.store.sweepableDeliveries(this.owner, this.clock.now(), SWEEP_DELIVERY_BATCH);
        for (const { delivery_id: id, event, payload } of candidates) {
            if (this.draining)
                break;
            if (this.inFlight.has(id))
                continue;
            try {
                const result = await this.track(id, async () => {
                    if (!(await this.store.reclaimDelivery(id, this.owner, this.clock.now(), this.settings.leaseMs)))
                        return null;
                    this.log("info", "delivery.taken_up", { delivery: id, event });
                    return this.process(id, event, JSON.parse(payload));
                });
                if (result !== null && result.status === "done")
                    processed.push(id);
            }
            catch (err) {
                errors.push({ item: id, code: codeOf(err), message: err.message });
            }
        }
        return { processed, errors };
    }
    async route(event, payload) {
        const p = payload;
        if (p.installation?.id !== undefined) {
            // Only `installation` events carry installation.account; repository events (workflow_run,
            // push, pull_request) carry `installation` as { id, node_id }, and the repository's owner
            // is the account the App is installed on.
            const account = p.installation.account?.login ?? p.repository?.owner?.login ?? null;
            await this.store.ensureInstallation(p.installation.id, account, this.clock.now());
        }
        if (event === "ping")
            return "pong";
        if (event === "installation")
            return `installation ${String(p.action)}`;
        // The installation's budget first: work that waits in the written order sends nothing (GITHUB_BUDGET_LOW).
        const kind = workKindOf(event, payload);
        if (kind !== null && p.installation?.id !== undefined)
            await respectBudget(this.ctx, p.installation.id, kind);
        const handler = HANDLERS.get(event);
        return handler ? handler(this.ctx, payload) : `ignored event ${event}`;
    }
    /** One redelivery pass (src/app/redelivery.ts): ask GitHub again for the failed deliveries the store never recorded. */
    async redeliverySweep() {
        if (this.draining)
            return null;
        this.lastRedelivery = await redeliveryPass({
            store: this.store,
            hooks: this.github,
            clock: this.clock,
            log: this.log,
            owner: this.owner,
            policy: this.settings.redelivery,
        });
        this.metrics.redeliveryPass(this.lastRedelivery);
        return this.lastRedelivery;
    }
    /** One sweeper pass (src/app/sweep.ts), remembered for the status page. */
    async sweep() {
        const at = this.clock.now();
        const swept = await sweep(this.ctx);
        const deliveries = await this.sweepDeliveries();
        const report = { ...swept, deliveries: deliveries.processed };
        report.errors.push(...deliveries.errors);
        this.lastSweep = { at, report };
        return report;
    }
}
/** What a failed request attempt says: its HTTP status, its message and the errno under it (ECONNREFUSED, a timeout). */
function attemptDetail(err) {
    const status = err?.status;
    let cause = err;
    let errno;
    for (let i = 0; i < 4 && cause !== undefined && cause !== null && errno === undefined; i++) {
        errno = (0,core_errors/* errnoOf */.UQ)(cause);
        cause = cause.cause;
    }
    const parts = [typeof status === "number" && status > 0 ? `HTTP ${status}` : null, err?.message ?? String(err), errno ?? null];
    return parts.filter((p) => p !== null && p !== "").join(", ");
}
function inProgress(where) {
    return {
        status: "in_progress",
        outcome: `being processed by ${where}; nothing is done twice: a later delivery of it is answered duplicate once done, or taken over if that process died`,
    };
}

;// CONCATENATED MODULE: ./src/app/start.ts










/**
 * The kill switch, read from the store before every request to GitHub. A store that cannot
 * be read stops the request too: "could not check" is not "not paused".
 */
function killSwitchGuard(store, stopping = () => false, fenced = () => null) {
    return async (route) => {
        if (stopping())
            throw new core_errors/* Refusal */.P_("APP_DRAINING", `this App process is shutting down; ${route} was not sent`);
        const fence = fenced();
        if (fence !== null)
            throw new core_errors/* Refusal */.P_("PROCESS_FENCED", `${fence}; ${route} was not sent`);
        const state = await store.killSwitch();
        if (state.paused) {
            throw new core_errors/* Refusal */.P_("KILL_SWITCH_ENGAGED", `the App is paused (${state.reason ?? "no reason given"}); ${route} was not sent`, {
                hint: "Resume with: envelope-gate app resume",
            });
        }
    };
}
async function startApp(config, options = {}) {
    const clock = options.clock ?? systemClock;
    const log = options.log ?? jsonLoggerAt(config.logLevel);
    let opened = null;
    const metrics = new AppMetrics({ store: () => opened, policy: config.budget, now: () => clock.now() });
    const store = metrics.timing(await openStore(config.store, clock.now()));
    opened = store;
    store.heartbeatStaleMs = config.heartbeatStaleMs;
    // Claims record this process (replica id and a random incarnation), so a restarted replica's
    // claims from before the restart are known dead at once.
    const owner = `${config.replicaId}/${(0,external_node_crypto_.randomUUID)().slice(0, 8)}`;
    try {
        // A replica in a crash loop does not serve (nor register: a refusal is not a crash).
        if (options.crashBound)
            await refuseCrashLoop(store, config.replicaId, options.crashBound, clock.now());
        await store.registerProcess(owner, config.replicaId, clock.now());
    }
    catch (err) {
        await store.close();
        throw err;
    }
    let service = null;
    // Fencing: a process that has not refreshed its heartbeat for (stale bound - one period), or
    // finds itself recorded stopped, may already be taken over; it sends nothing to GitHub until
    // a heartbeat succeeds again. Measured on the monotonic clock, so a stalled event loop counts.
    let lastBeat = performance.now();
    let recordedStopped = false;
    const fence = () => {
        if (recordedStopped)
            return `this App process (${owner}) is recorded stopped: another process of replica ${config.replicaId} started`;
        const silentMs = performance.now() - lastBeat;
        if (silentMs > config.heartbeatStaleMs - config.heartbeatMs) {
            return `this App process (${owner}) has not refreshed its heartbeat for ${Math.round(silentMs / 1000)} s; its claims may be taken over`;
        }
        return null;
    };
    const github = new AppClient({
        appId: config.appId,
        privateKey: config.privateKey,
        baseUrl: config.githubApiUrl,
        beforeEachRequest: killSwitchGuard(store, () => service?.stopping === true, () => fence()),
        // A delivery whose GitHub calls fail shows it at once (waiting on GitHub, with the error), not after the retries.
        onAttemptFailed: (route, err) => service?.gitHubAttemptFailed(route, err),
        // Every answer's rate-limit headers, recorded per installation for every replica (docs/app.md, Rate limits).
        onInstallationHeaders: (installationId, headers) => service?.gitHubAnswered(installationId, headers),
        retries: config.githubRetries,
        throttle: config.githubThrottle,
        timeoutMs: config.githubTimeoutMs,
        ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
    });
    service = new AppService(store, github, { ...config, replicaId: owner }, clock, log, metrics);
    const app = service;
    const storeLabel = describeStore(config.store);
    const server = createAppServer({
        service,
        secrets: config.webhookSecrets,
        storeLabel: publicStoreLabel(config.store),
        reviewAlertMs: config.reviewAlertMs,
        githubApiUrl: config.githubApiUrl,
        crashBound: options.crashBound ?? crashBoundFromEnv({}),
        maxConnections: config.maxConnections,
        headersTimeoutMs: config.headersTimeoutMs,
        requestTimeoutMs: config.requestTimeoutMs,
    });
    let address;
    try {
        address = await listen(server, config.port, config.host);
    }
    catch (err) {
        // A refusal, not a crash: recorded as a clean stop.
        await store.stopProcess(owner, clock.now()).catch(() => undefined);
        await store.close();
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `cannot listen on ${config.host}:${config.port} (${err.message})`);
    }
    const heartbeat = setInterval(() => {
        store
            .heartbeat(owner, clock.now())
            .then((alive) => {
            if (alive)
                lastBeat = performance.now();
            // An idle process takes up deliveries queued while every worker (of any replica) was busy.
            if (alive)
                void app.takeUpWaiting();
            else if (!recordedStopped)
                log("error", "heartbeat.fenced", { owner, replica: config.replicaId });
            recordedStopped = !alive;
        })
            .catch((err) => log("warn", "heartbeat.failed", { code: shellRefusal(err, "write the heartbeat").code }));
    }, config.heartbeatMs);
    heartbeat.unref();
    let timer = null;
    let sweeping = null;
    let redeliveryTimer = null;
    let redelivering = null;
    if (options.sweeper !== false) {
        timer = setInterval(() => {
            if (sweeping)
                return;
            sweeping = app
                .sweep()
                .then((report) => log("debug", "sweep.pass", { deliveries: report.deliveries?.length ?? 0, errors: report.errors.length }))
                .catch((err) => log("error", "sweep.failed", refusalFields(shellRefusal(err, "sweep"))))
                .finally(() => {
                sweeping = null;
            });
        }, config.sweepIntervalMs);
        timer.unref();
        redeliveryTimer = setInterval(() => {
            if (redelivering)
                return;
            redelivering = app
                .redeliverySweep()
                .catch((err) => log("error", "redelivery.failed", refusalFields(shellRefusal(err, "ask GitHub for failed deliveries again"))))
                .finally(() => {
                redelivering = null;
            });
        }, config.redelivery.intervalMs);
        redeliveryTimer.unref();
    }
    const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
    log("info", "app.started", { url, store: storeLabel, replica: config.replicaId, owner, production: config.production });
    return {
        url,
        port: address.port,
        service: app,
        store,
        server,
        sweep: () => app.sweep(),
        redeliver: () => app.redeliverySweep(),
        async close() {
            if (timer)
                clearInterval(timer);
            if (redeliveryTimer)
                clearInterval(redeliveryTimer);
            await drain(app, config.drainMs, config.githubTimeoutMs, log);
            if (sweeping)
                await sweeping;
            if (redelivering)
                await redelivering;
            clearInterval(heartbeat);
            await recordCleanStop(store, owner, clock, log);
            server.closeAllConnections();
            await new Promise((resolve) => server.close(() => resolve()));
            await store.close();
        },
    };
}
/** How long a stopping process keeps trying to record its clean stop in a store that does not answer. */
const STOP_RECORD_ATTEMPTS = 5;
const STOP_RECORD_PAUSE_MS = 1000;
/**
 * Records the clean stop, so the crash-loop bound does not count it: a store blip gets a few
 * seconds (within the unit's and Compose's stop timeouts). A stop that could not be recorded
 * is said in the log, since the next start counts it as a crash.
 */
async function recordCleanStop(store, owner, clock, log) {
    let last = null;
    for (let attempt = 1; attempt <= STOP_RECORD_ATTEMPTS; attempt++) {
        try {
            await store.stopProcess(owner, clock.now());
            return;
        }
        catch (err) {
            last = err;
            if (attempt < STOP_RECORD_ATTEMPTS)
                await new Promise((r) => setTimeout(r, STOP_RECORD_PAUSE_MS));
        }
    }
    log("error", "app.stop_unrecorded", {
        owner,
        code: shellRefusal(last, "record the stop").code,
        message: `this clean stop could not be recorded (${last?.message ?? String(last)}); the next start counts it as a crash. If that start is refused (APP_CRASH_LOOP), run envelope-gate app reset-crashes`,
    });
}
/** A refusal's code and message, for a log line. */
function refusalFields(r) {
    return { code: r.code, message: r.message };
}
function within(ms, work) {
    let timer;
    const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    return Promise.race([work.then(() => true), timeout]).finally(() => clearTimeout(timer));
}
/**
 * Graceful stop: new deliveries are refused (APP_DRAINING); work in flight gets `drainMs` to
 * finish. Past that, requests to GitHub are refused (APP_DRAINING), so the remaining handlers
 * fail at their next request and record their delivery `queued` for the sweeper; a handler
 * still running one request gets that request's deadline (`githubTimeoutMs`) plus a second.
 * Whatever is still held after that is released to `queued` in the store. Nothing unfinished
 * is recorded done.
 */
async function drain(service, drainMs, githubTimeoutMs, log) {
    service.draining = true;
    if (service.inFlightCount() === 0)
        return;
    log("info", "app.draining", { in_flight: service.inFlightCount(), drain_ms: drainMs });
    if (await within(drainMs, service.settled()))
        return;
    service.stopping = true;
    const settled = await within(githubTimeoutMs + 1000, service.settled());
    const released = settled
        ? 0
        : await service.store
            .releaseDeliveries(service.owner, "APP_DRAINING", "released unfinished at shutdown", service.clock.now())
            .catch(() => 0);
    log("warn", "app.drained", { finished_in_time: false, released });
}

;// CONCATENATED MODULE: ./src/github/app-manifest.ts
/**
 * The last step of GitHub's App manifest flow: the temporary code GitHub gave the redirect is
 * converted into the new App's id, private key and webhook secret (POST
 * /app-manifests/{code}/conversions, no authentication; the code is good once, for an hour).
 */


async function convertManifestCode(apiUrl, code, timeoutMs = 30_000) {
    const octokit = new GuardedOctokit(guardedOctokitOptions({ baseUrl: apiUrl, retry: { retries: 2, timeoutMs }, throttle: false }));
    let data;
    try {
        const answer = await octokit.request("POST /app-manifests/{code}/conversions", { code });
        data = answer.data;
    }
    catch (err) {
        const failure = gitHubFailure("convert the App manifest's code", err, `Check that ${apiUrl} is GitHub's API and reachable, then run app setup again.`);
        if (hasStatus(failure, 404) || hasStatus(failure, 422)) {
            throw new core_errors/* Refusal */.P_("APP_SETUP_CONVERSION_FAILED", `GitHub refused the code it redirected with: ${failure.message}`, {
                cause: err,
                hint: "The code is good once and for one hour. Run `envelope-gate app setup` again; if GitHub created the App, delete it on its settings page first (or choose another --name).",
            });
        }
        throw failure;
    }
    const { id, slug, name, html_url: htmlUrl, pem, webhook_secret: webhookSecret, owner } = data;
    const { login, type } = (typeof owner === "object" && owner !== null ? owner : {});
    if (typeof id !== "number" ||
        typeof pem !== "string" ||
        typeof slug !== "string" ||
        typeof htmlUrl !== "string" ||
        typeof login !== "string" ||
        typeof type !== "string") {
        throw new core_errors/* Refusal */.P_("APP_SETUP_CONVERSION_FAILED", "GitHub's answer to the code conversion has no App id, slug, page, owner or private key");
    }
    return {
        id,
        slug,
        name: typeof name === "string" ? name : slug,
        htmlUrl,
        owner: { login, type },
        pem,
        webhookSecret: typeof webhookSecret === "string" ? webhookSecret : null,
    };
}

;// CONCATENATED MODULE: ./src/app/setup.ts
/**
 * `envelope-gate app setup`: GitHub's App manifest flow, end to end
 * (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest).
 * A local page posts the App's manifest (src/core/manifest.ts, the one app.yml mirrors) to
 * GitHub with a random single-use state; GitHub creates the App and redirects the browser back
 * to this server with a code and that state; the code is converted into the App's id, private
 * key and webhook secret, which are written as 0600 files beside an env file naming them. The
 * secrets are never printed, and no existing file is overwritten.
 */







const SETUP_FILES = { privateKey: "private-key.pem", webhookSecret: "webhook-secret", env: "envelope-gate.env" };
/** GitHub's web host's default API: api.github.com for github.com, /api/v3 on an Enterprise Server. */
function defaultApiUrl(githubUrl) {
    const web = new URL(githubUrl);
    return web.hostname === "github.com" ? "https://api.github.com" : `${web.origin}/api/v3`;
}
/** Characters an env file line cannot carry as-is for systemd, Compose and node --env-file alike. */
const UNSAFE_IN_ENV_FILE = /[\n\r"'`$\\#]/;
function filesIn(dir) {
    const root = (0,external_node_path_.resolve)(dir);
    if (UNSAFE_IN_ENV_FILE.test(root)) {
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `--dir ${JSON.stringify(root)} has a character an env file cannot carry unquoted`);
    }
    return {
        privateKey: (0,external_node_path_.join)(root, SETUP_FILES.privateKey),
        webhookSecret: (0,external_node_path_.join)(root, SETUP_FILES.webhookSecret),
        env: (0,external_node_path_.join)(root, SETUP_FILES.env),
    };
}
const FILES_HINT = "Choose another --dir, or move the files away if they belong to no App you keep: an App's key and secret are never overwritten.";
async function refuseExisting(files) {
    const present = [];
    for (const file of Object.values(files)) {
        try {
            await (0,promises_.lstat)(file);
            present.push(file);
        }
        catch (err) {
            if ((0,core_errors/* errnoOf */.UQ)(err) !== "ENOENT")
                throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `cannot look at ${file} (${(0,core_errors/* errnoOf */.UQ)(err) ?? String(err)})`);
        }
    }
    if (present.length > 0)
        throw new core_errors/* Refusal */.P_("APP_SETUP_FILES_EXIST", `app setup does not overwrite ${present.join(", ")}`, { hint: FILES_HINT });
}
async function writeNew(file, text) {
    try {
        // O_EXCL never follows a link; the mode is set on the open file, not on a path that could be swapped.
        const handle = await (0,promises_.open)(file, "wx", 0o600);
        try {
            await handle.chmod(0o600);
            await handle.writeFile(text);
        }
        finally {
            await handle.close();
        }
    }
    catch (err) {
        if ((0,core_errors/* errnoOf */.UQ)(err) === "EEXIST")
            throw new core_errors/* Refusal */.P_("APP_SETUP_FILES_EXIST", `app setup does not overwrite ${file}`, { hint: FILES_HINT });
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `cannot write ${file} (${(0,core_errors/* errnoOf */.UQ)(err) ?? String(err)})`, { cause: err });
    }
}
function envFileText(app, files, apiUrl) {
    return [
        `# The GitHub App "${app.name.replace(/[\r\n]/g, " ")}" (${app.htmlUrl}), registered by envelope-gate app setup.`,
        "# For node --env-file, systemd's EnvironmentFile= and Compose's env_file. No secrets here: the two files hold them.",
        `ENVELOPE_GATE_APP_ID=${app.id}`,
        `ENVELOPE_GATE_PRIVATE_KEY_PATH=${files.privateKey}`,
        `ENVELOPE_GATE_WEBHOOK_SECRET_FILE=${files.webhookSecret}`,
        ...(apiUrl === "https://api.github.com" ? [] : [`ENVELOPE_GATE_GITHUB_API_URL=${apiUrl}`]),
        "",
    ].join("\n");
}
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
function page(res, status, title, body) {
    res.writeHead(status, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *",
        "referrer-policy": "no-referrer",
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
        `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}</style></head>` +
        `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}
function sameState(given, expected) {
    if (given === null)
        return false;
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && (0,external_node_crypto_.timingSafeEqual)(a, b);
}
/**
 * The App GitHub converted must be the one this setup's form asked for: owned by `--org`, or by a
 * user without it. A code from an App someone else registered (and redirected here with a stolen
 * state) is refused, never written as ours. Null when it matches; else why not.
 */
function ownerMismatch(app, org) {
    if (org !== null) {
        return app.owner.login.toLowerCase() === org.toLowerCase()
            ? null
            : `GitHub converted the App ${app.htmlUrl}, owned by ${app.owner.login}, not by the organization ${org} this setup registers for`;
    }
    return app.owner.type === "User"
        ? null
        : `GitHub converted the App ${app.htmlUrl}, owned by the ${app.owner.type.toLowerCase()} ${app.owner.login}, not by a personal account (this setup ran without --org)`;
}
/** Where the form posts: the user's settings, or the organization's. */
function newAppUrl(options, state) {
    const web = options.githubUrl.replace(/\/+$/, "");
    const path = options.org === null ? "/settings/apps/new" : `/organizations/${encodeURIComponent(options.org)}/settings/apps/new`;
    return `${web}${path}?state=${encodeURIComponent(state)}`;
}
/**
 * Runs the manifest flow. `listening` is told the page's URL once the server listens; the
 * promise settles when GitHub's redirect has been handled (the files written), or with the
 * refusal that ended it. `signal` stops the wait (nothing is written).
 */
async function appSetup(options, listening, signal) {
    const files = filesIn(options.dir);
    await refuseExisting(files);
    const state = (0,external_node_crypto_.randomBytes)(32).toString("hex");
    let stateUsed = false;
    let settle;
    const finished = new Promise((done, fail) => (settle = { done, fail }));
    let base = "";
    let ownHosts = () => [];
    const callback = async (url, res) => {
        // Another page (or a stale tab) cannot end the setup: its redirect is answered and the setup
        // goes on waiting for the one that carries this form's state.
        if (stateUsed || !sameState(url.searchParams.get("state"), state)) {
            return page(res, 400, "Not this setup's redirect", "<p>APP_SETUP_STATE_MISMATCH: the state does not match the form this setup served (it is good once). Nothing was converted or written; the setup is still waiting for its own form.</p>");
        }
        stateUsed = true;
        const code = url.searchParams.get("code");
        if (code === null || !/^[A-Za-z0-9_-]{1,200}$/.test(code)) {
            page(res, 400, "No code from GitHub", "<p>GitHub's redirect carried no code. Nothing was written.</p>");
            throw new core_errors/* Refusal */.P_("APP_SETUP_CONVERSION_FAILED", "GitHub's redirect carried no code (or a malformed one) to convert");
        }
        let app;
        try {
            app = await convertManifestCode(options.apiUrl, code);
        }
        catch (err) {
            page(res, 502, "GitHub did not convert the code", `<p>${escapeHtml(err.message)}</p><p>Nothing was written.</p>`);
            throw err;
        }
        const owner = ownerMismatch(app, options.org);
        if (owner !== null) {
            page(res, 403, "Not the App this setup asked for", `<p>${escapeHtml(owner)}</p><p>Nothing was written.</p>`);
            throw new core_errors/* Refusal */.P_("APP_SETUP_OWNER_MISMATCH", owner, {
                hint: "Delete that App on its settings page if it is yours, then run `envelope-gate app setup` again and submit its form yourself.",
            });
        }
        if (app.webhookSecret === null) {
            page(res, 502, "No webhook secret", "<p>GitHub's answer has no webhook secret. Nothing was written.</p>");
            throw new core_errors/* Refusal */.P_("APP_SETUP_CONVERSION_FAILED", `GitHub created the App ${app.htmlUrl} but answered no webhook secret`);
        }
        await (0,promises_.mkdir)((0,external_node_path_.resolve)(options.dir), { recursive: true, mode: 0o700 });
        await writeNew(files.privateKey, app.pem.endsWith("\n") ? app.pem : `${app.pem}\n`);
        await writeNew(files.webhookSecret, `${app.webhookSecret}\n`);
        await writeNew(files.env, envFileText(app, files, options.apiUrl));
        const install = `${app.htmlUrl.replace(/\/+$/, "")}/installations/new`;
        page(res, 200, `The App ${app.name} is registered`, `<p>Its id is ${app.id}. Its private key, webhook secret and env file are in ${escapeHtml((0,external_node_path_.resolve)(options.dir))}.</p>` +
            `<p>Next: <a href="${escapeHtml(install)}">install it</a> on the repositories that run the gate. You can close this tab.</p>`);
        const { pem: _pem, webhookSecret: _secret, ...shown } = app;
        settle.done({ app: shown, files });
    };
    const handle = async (req, res) => {
        // Only this machine's browser, by this address: a page elsewhere that rebinds its own name to
        // 127.0.0.1 sends its own Host and gets nothing (not the form, not its state).
        if (!ownHosts().includes(req.headers.host ?? "")) {
            return page(res, 421, "Wrong address", "<p>Open this setup at the address it printed.</p>");
        }
        const url = new URL(req.url ?? "/", base);
        if (req.method === "GET" && url.pathname === "/") {
            const manifest = JSON.stringify({
                ...appManifest(new URL(options.webhookUrl).origin, options.name),
                hook_attributes: { url: options.webhookUrl, active: true },
                redirect_url: `${base}/callback`,
            });
            const where = options.org === null ? "your personal account" : `the organization ${escapeHtml(options.org)}`;
            return page(res, 200, "Register the envelope-gate App", `<p>This registers the GitHub App <b>${escapeHtml(options.name)}</b> on ${where}, with exactly the permissions and events app.yml lists. ` +
                `App names are global on GitHub: if another App has this name, GitHub says so and you can change it on its page.</p>` +
                `<p>Webhooks go to <code>${escapeHtml(options.webhookUrl)}</code>.</p>` +
                `<form method="post" action="${escapeHtml(newAppUrl(options, state))}">` +
                `<input type="hidden" name="manifest" value="${escapeHtml(manifest)}">` +
                `<button type="submit">Create the App on GitHub</button></form>`);
        }
        if (req.method === "GET" && url.pathname === "/callback")
            return callback(url, res);
        page(res, 404, "Not found", "<p>This setup serves / and GitHub's redirect only.</p>");
    };
    const server = (0,external_node_http_.createServer)((req, res) => {
        handle(req, res).catch((err) => {
            if (!res.headersSent)
                page(res, 500, "Setup failed", `<p>${escapeHtml(String(err?.message ?? err))}</p>`);
            settle.fail(err);
        });
    });
    await new Promise((ready, refuse) => {
        server.once("error", (err) => refuse(new core_errors/* Refusal */.P_("CONFIG_INVALID", `app setup cannot listen on 127.0.0.1:${options.port} (${(0,core_errors/* errnoOf */.UQ)(err) ?? String(err)}): choose another --port`)));
        server.listen(options.port, "127.0.0.1", () => ready());
    });
    const port = server.address().port;
    base = `http://127.0.0.1:${port}`;
    ownHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
    const stop = () => settle.done(null);
    signal?.addEventListener("abort", stop, { once: true });
    listening(`${base}/`);
    try {
        return await finished;
    }
    finally {
        signal?.removeEventListener("abort", stop);
        // The last page is answered already; a connection still active finishes its request first.
        const closed = new Promise((done) => server.close(() => done()));
        server.closeIdleConnections();
        await closed;
    }
}

;// CONCATENATED MODULE: ./src/app/cli.ts















/** Each app subcommand's synopsis; `--help` prints it with the settings it reads. */
const SUBCOMMANDS = {
    start: { synopsis: "start                       run the App's server (the default when no subcommand is given)", scope: "server" },
    pause: { synopsis: 'pause --reason "TEXT"       engage the kill switch: nothing is sent to GitHub until resume', scope: "store" },
    resume: { synopsis: 'resume --reason "TEXT"      release the kill switch (recorded with who and why)', scope: "store" },
    budget: {
        synopsis: [
            "budget [show]               runner B's usage and caps today, per installation and repository (JSON)",
            '  envelope-gate app budget set --installation N|--repository OWNER/NAME --dispatches-per-day N --minutes-per-day N --reason "TEXT"',
            '  envelope-gate app budget clear --installation N|--repository OWNER/NAME --reason "TEXT"   (back to the configured caps)',
        ].join("\n"),
        scope: "store",
    },
    status: { synopsis: "status                      print the status page's snapshot as JSON, from the store", scope: "store" },
    promote: { synopsis: "promote --installation N    let an installation open ledger PRs for real", scope: "store" },
    demote: { synopsis: "demote --installation N     put an installation back in shadow mode", scope: "store" },
    manifest: { synopsis: "manifest --url URL [--name NAME]  print the App's registration manifest", scope: "store" },
    setup: {
        synopsis: [
            "setup --name NAME --webhook-url URL [--org ORG] [--dir DIR] [--port N] [--github-url URL] [--api-url URL]",
            "                              register the App with GitHub's manifest flow: open the page it prints, submit, and",
            "                              the App's key, webhook secret and an env file naming them are written to DIR (0600)",
            "    --name         the App's name; App names are global on GitHub, so choose one no other App has (envelope-gate-ACME)",
            "    --webhook-url  where GitHub sends the App's webhooks: https://your-host/webhook",
            "    --org          register it on this organization (default: your personal account)",
            "    --dir          default: the current directory; files private-key.pem, webhook-secret, envelope-gate.env (never overwritten)",
            "    --port         the local page's port on 127.0.0.1 (default 3000; 0: any free port)",
            "    --github-url   GitHub's web host (default https://github.com; a GitHub Enterprise Server's https://HOST)",
            "    --api-url      GitHub's API (default https://api.github.com, or https://HOST/api/v3 for --github-url HOST)",
        ].join("\n"),
        scope: "store",
    },
    retry: {
        synopsis: "retry --delivery ID          work on a failed delivery again, from its recorded payload (once its cause is fixed)",
        scope: "store",
    },
    redelivery: {
        synopsis: [
            'redelivery on|off --reason "TEXT"  turn the redelivery sweep on or off (recorded in the switch history)',
            "  envelope-gate app redelivery [show]   the redelivery sweep's switch, last pass and counts (JSON)",
        ].join("\n"),
        scope: "store",
    },
    "reset-crashes": {
        synopsis: 'reset-crashes --replica ID --reason "TEXT"  let a replica refused for a crash loop (APP_CRASH_LOOP) start again',
        scope: "store",
    },
};
const REASON = { reason: { type: "string" } };
const INSTALLATION = { installation: { type: "string" } };
/**
 * Each app subcommand's flags and, for budget and redelivery, the action word that comes first
 * (default `show`): what the subcommands parse with, and what parseAppArgs checks a command line
 * against without running it.
 */
const APP_ARGS = {
    start: { options: {} },
    pause: { options: REASON },
    resume: { options: REASON },
    status: { options: {} },
    budget: {
        options: {
            installation: { type: "string" },
            repository: { type: "string" },
            "dispatches-per-day": { type: "string" },
            "minutes-per-day": { type: "string" },
            reason: { type: "string" },
        },
        actions: ["show", "set", "clear"],
    },
    promote: { options: INSTALLATION },
    demote: { options: INSTALLATION },
    manifest: { options: { url: { type: "string" }, name: { type: "string" } } },
    retry: { options: { delivery: { type: "string" } } },
    redelivery: { options: REASON, actions: ["show", "on", "off"] },
    "reset-crashes": { options: RESET_CRASHES_OPTIONS },
    setup: {
        options: {
            name: { type: "string" },
            "webhook-url": { type: "string" },
            org: { type: "string" },
            dir: { type: "string", default: "." },
            port: { type: "string", default: "3000" },
            "github-url": { type: "string", default: "https://github.com" },
            "api-url": { type: "string" },
        },
    },
};
/**
 * Checks an `app` command line as the subcommands parse it, running nothing: an unknown subcommand,
 * action or flag is a usage error (`usage` throws) or parseArgs's own ERR_PARSE_ARGS_* error.
 */
function parseAppArgs(args, usage) {
    if (args[0] === "--help" || args[0] === "-h" || args[0] === "help")
        return;
    const [sub = "start", ...rest] = args;
    const spec = APP_ARGS[sub];
    if (spec === undefined)
        usage(`unknown app command "${sub}" (${Object.keys(APP_ARGS).join(", ")})`);
    if (wantsHelp(rest))
        return;
    let flags = rest;
    if (spec.actions !== undefined) {
        const [action = "show", ...after] = rest;
        if (!spec.actions.includes(action))
            usage(`unknown ${sub} action "${action}" (${spec.actions.join(", ")})`);
        flags = after;
    }
    (0,external_node_util_.parseArgs)({ args: flags, options: spec.options, strict: true, allowPositionals: false });
}
function appHelp(sub) {
    const subs = sub === null ? Object.keys(SUBCOMMANDS) : [sub];
    const scope = sub === null ? "server" : SUBCOMMANDS[sub].scope;
    const lines = subs.map((s) => `  envelope-gate app ${SUBCOMMANDS[s].synopsis}`);
    const settings = sub === "manifest" || sub === "setup" ? "" : `\n\n${settingsHelp(scope)}`;
    return `usage:\n${lines.join("\n")}${settings}\n\nSee docs/app.md for the whole guide.\n`;
}
const wantsHelp = (args) => args.includes("--help") || args.includes("-h");
function operator() {
    try {
        return process.env.ENVELOPE_GATE_OPERATOR?.trim() || (0,external_node_os_.userInfo)().username;
    }
    catch {
        return "unknown-operator";
    }
}
/** `envelope-gate app [start] | pause --reason TEXT | resume | status | promote --installation N` */
async function appCommand(args, usage) {
    if (args[0] === "--help" || args[0] === "-h" || args[0] === "help") {
        process.stdout.write(appHelp(null));
        return 0;
    }
    const [sub = "start", ...rest] = args;
    if (SUBCOMMANDS[sub] && wantsHelp(rest)) {
        process.stdout.write(appHelp(sub));
        return 0;
    }
    try {
        return await appSubcommand(sub, rest, usage);
    }
    catch (err) {
        if (!(err instanceof core_errors/* Refusal */.P_))
            throw err;
        process.stderr.write(appRefusalText(sub, err));
        return verdict/* EXIT_CODES */.ai.error;
    }
}
/** Codes that say the App's own settings, secrets or files are wrong: fixed by whoever runs it. */
const CONFIGURATION_CODES = new Set([
    "CONFIG_INVALID",
    "BYPASS_REFUSED",
    "SECRET_IN_ENVIRONMENT",
    "SECRET_UNAVAILABLE",
    "PRIVATE_KEY_INVALID",
]);
/**
 * An app command's refusal as what it is: a configuration error, or the command refused. Not
 * the gate's "could not evaluate; this is not a pass": an app command judges no pull request.
 */
function appRefusalText(sub, err) {
    const kind = CONFIGURATION_CODES.has(err.code) ? "configuration error" : "refused";
    const lines = [`envelope-gate app ${sub}: ${kind} (${err.code}): ${err.message}`];
    if (err.hint)
        lines.push(`  what to do: ${err.hint}`);
    return lines.join("\n") + "\n";
}
async function appSubcommand(sub, rest, usage) {
    switch (sub) {
        case "start":
            return start(rest, usage);
        case "pause":
        case "resume":
            return killSwitch(sub, rest, usage);
        case "status":
            return cli_status(rest);
        case "budget":
            return budget(rest, usage);
        case "promote":
        case "demote":
            return promote(sub, rest, usage);
        case "manifest":
            return manifest(rest, usage);
        case "setup":
            return setup(rest, usage);
        case "reset-crashes":
            return resetCrashesCommand(rest, usage, operator());
        case "retry":
            return cli_retry(rest, usage);
        case "redelivery":
            return redelivery(rest, usage);
        default:
            return usage(`unknown app command "${sub}" (start, pause, resume, status, budget, promote, demote, manifest, setup, reset-crashes, retry, redelivery)`);
    }
}
async function start(args, usage) {
    if (args.length > 0)
        usage("app start takes no arguments; it is configured by environment variables (docs/app.md)");
    // A stop is listened for before anything else: a SIGTERM while the App starts (the secret
    // command's check, the store) is a stop on purpose. Unhandled it would kill the process after
    // it registered (a crash), or, node being PID 1 in the container, be dropped by the kernel,
    // leaving the App serving until the runtime's SIGKILL (a crash too).
    let stopRequested = false;
    let onStop = () => {
        stopRequested = true;
    };
    const stop = () => onStop();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    const config = loadConfig(process.env);
    await new Promise((resolve) => setImmediate(resolve)); // a signal that came during loadConfig's synchronous checks
    if (stopRequested)
        return 0;
    let app;
    try {
        app = await startApp(config, { crashBound: crashBoundFromEnv(process.env) });
    }
    catch (err) {
        return crashLoopExit(err, config.replicaId);
    }
    process.stdout.write(`envelope-gate app listening on ${app.url} (webhook ${app.url}/webhook, status ${app.url}/status)\n`);
    if (!stopRequested)
        await new Promise((resolve) => (onStop = resolve));
    await app.close();
    return 0;
}
async function killSwitch(which, args, usage) {
    const { values } = (0,external_node_util_.parseArgs)({ args, options: APP_ARGS[which].options, strict: true, allowPositionals: false });
    if (!values.reason?.trim())
        usage(`${which} needs --reason "why" (it is recorded in the switch history)`);
    const settings = storeConfigFromEnv(process.env);
    const store = await openStore(settings, Date.now());
    try {
        const changed = await store.setKillSwitch(which === "pause", values.reason.trim(), operator(), Date.now());
        const state = await store.killSwitch();
        process.stdout.write(`${changed ? (which === "pause" ? "paused" : "resumed") : `already ${state.paused ? "paused" : "running"}`}: ${describeStore(settings)}${state.paused ? ` (reason: ${state.reason})` : ""}\n`);
        return 0;
    }
    finally {
        await store.close();
    }
}
async function cli_status(args) {
    if (args.length > 0)
        throw new core_errors/* Refusal */.P_("CONFIG_INVALID", "app status takes no arguments");
    const settings = storeConfigFromEnv(process.env);
    const store = await openStore(settings, Date.now());
    try {
        const snapshot = await statusSnapshot(store, Date.now(), {
            storeLabel: describeStore(settings),
            reviewAlertMs: reviewAlertMsFromEnv(process.env),
            budget: budgetPolicyFromEnv(process.env),
            crashBound: crashBoundFromEnv(process.env),
            lastSweep: null,
            githubApiUrl: settingValue(process.env, "ENVELOPE_GATE_GITHUB_API_URL"),
        });
        process.stdout.write(JSON.stringify(snapshot, null, 2) + "\n");
        return 0;
    }
    finally {
        await store.close();
    }
}
async function budget(args, usage) {
    const [action = "show", ...rest] = args;
    const { values } = (0,external_node_util_.parseArgs)({ args: rest, options: APP_ARGS.budget.options, strict: true, allowPositionals: false });
    const policy = budgetPolicyFromEnv(process.env);
    const store = await openStore(storeConfigFromEnv(process.env), Date.now());
    try {
        if (action === "show") {
            process.stdout.write(JSON.stringify(await budgetSnapshot(store, policy, Date.now()), null, 2) + "\n");
            return 0;
        }
        if (action !== "set" && action !== "clear")
            usage(`unknown budget action "${action}" (show, set, clear)`);
        if ((values.installation === undefined) === (values.repository === undefined))
            usage("name one scope: --installation N or --repository OWNER/NAME");
        if (values.installation !== undefined && !/^\d+$/.test(values.installation))
            usage("--installation needs a numeric id");
        const scope = values.installation !== undefined
            ? scopeKey({ kind: "installation", id: Number(values.installation) })
            : scopeKey({ kind: "repository", name: values.repository });
        if (parseScopeKey(scope) === null)
            usage("--repository needs OWNER/NAME");
        if (!values.reason?.trim())
            usage('budget changes need --reason "why" (it is recorded in the switch history)');
        let limit = null;
        if (action === "set") {
            const d = values["dispatches-per-day"];
            const m = values["minutes-per-day"];
            if (!d || !/^\d+$/.test(d) || !m || !/^\d+$/.test(m))
                usage("budget set needs --dispatches-per-day N and --minutes-per-day N (whole numbers, 0 stops runner B)");
            limit = { dispatchesPerDay: Number(d), minutesPerDay: Number(m) };
        }
        await store.switches.setLimit(scope, limit, operator(), values.reason.trim(), Date.now());
        process.stdout.write(limit === null
            ? `${scope}: override removed, the configured caps apply\n`
            : `${scope}: ${limit.dispatchesPerDay} dispatches and ${limit.minutesPerDay} minutes per day\n`);
        return 0;
    }
    finally {
        await store.close();
    }
}
async function promote(which, args, usage) {
    const { values } = (0,external_node_util_.parseArgs)({ args, options: APP_ARGS[which].options, strict: true, allowPositionals: false });
    if (!values.installation || !/^\d+$/.test(values.installation))
        usage(`${which} needs --installation <numeric id>`);
    const id = Number(values.installation);
    const store = await openStore(storeConfigFromEnv(process.env), Date.now());
    try {
        if (which === "promote") {
            await store.ensureInstallation(id, null, Date.now());
            const changed = await store.promoteInstallation(id, operator(), Date.now());
            process.stdout.write(changed ? `installation ${id} promoted: ledger PRs are opened for real\n` : `installation ${id} is already active\n`);
        }
        else {
            const changed = await store.demoteInstallation(id);
            process.stdout.write(changed ? `installation ${id} back in shadow mode\n` : `installation ${id} is not active\n`);
        }
        return 0;
    }
    finally {
        await store.close();
    }
}
async function manifest(args, usage) {
    const { values } = (0,external_node_util_.parseArgs)({ args, options: APP_ARGS.manifest.options, strict: true, allowPositionals: false });
    if (!values.url || !/^https?:\/\//.test(values.url))
        usage("manifest needs --url https://where-the-app-listens");
    process.stdout.write(JSON.stringify(appManifest(values.url, values.name ?? "envelope-gate"), null, 2) + "\n");
    return 0;
}
async function setup(args, usage) {
    const { values } = (0,external_node_util_.parseArgs)({
        args,
        options: APP_ARGS.setup.options,
        strict: true,
        allowPositionals: false,
    });
    const name = values.name?.trim() ?? "";
    if (name === "" || name.length > 34) {
        usage("setup needs --name NAME (at most 34 characters): App names are global on GitHub, choose one no other App has");
    }
    const isHttpUrl = (v) => v !== undefined && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);
    if (!isHttpUrl(values["webhook-url"]))
        usage("setup needs --webhook-url https://your-host/webhook (where GitHub sends the App's webhooks)");
    if (values.org !== undefined && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(values.org))
        usage("--org needs an organization's login");
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535)
        usage("--port needs a port number (0: any free port)");
    if (!isHttpUrl(values["github-url"]))
        usage("--github-url needs GitHub's web address, https://github.com or https://HOST");
    if (values["api-url"] !== undefined && !isHttpUrl(values["api-url"]))
        usage("--api-url needs GitHub's API address");
    const githubUrl = values["github-url"].replace(/\/+$/, "");
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
        const result = await appSetup({
            name,
            webhookUrl: values["webhook-url"],
            org: values.org ?? null,
            githubUrl,
            apiUrl: (values["api-url"] ?? defaultApiUrl(githubUrl)).replace(/\/+$/, ""),
            dir: values.dir,
            port: Number(values.port),
        }, (url) => process.stdout.write(`Open ${url} in a browser on this machine and press its button (from another machine: ssh -L PORT:127.0.0.1:PORT to this one).\n` +
            "Waiting for GitHub's redirect (the code it carries is good for one hour); Ctrl-C stops without writing anything.\n"), stop.signal);
        if (result === null) {
            process.stderr.write("envelope-gate app setup: stopped; nothing was written\n");
            return 1;
        }
        const install = `${result.app.htmlUrl.replace(/\/+$/, "")}/installations/new`;
        process.stdout.write([
            `registered the GitHub App "${result.app.name}" (id ${result.app.id}): ${result.app.htmlUrl}`,
            `wrote (mode 0600): ${result.files.privateKey}, ${result.files.webhookSecret}, ${result.files.env}`,
            `next: install it on the repositories that run the gate: ${install}`,
            `then start it with those settings: node --env-file=${result.files.env} node_modules/.bin/envelope-gate app (or systemd's EnvironmentFile=, Compose's env_file:)`,
            "",
        ].join("\n"));
        return 0;
    }
    finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
    }
}
async function cli_retry(args, usage) {
    const { values } = (0,external_node_util_.parseArgs)({ args, options: APP_ARGS.retry.options, strict: true, allowPositionals: false });
    if (!values.delivery?.trim())
        usage("retry needs --delivery ID (the X-GitHub-Delivery id on the status page)");
    const id = values.delivery.trim();
    const store = await openStore(storeConfigFromEnv(process.env), Date.now());
    try {
        if (await store.retryDelivery(id, Date.now())) {
            process.stdout.write(`delivery ${id} queued again: the next free worker of any replica works on it\n`);
            return 0;
        }
        const row = await store.getDelivery(id);
        process.stderr.write(row === null
            ? `delivery ${id} is not recorded: nothing to retry (the redelivery sweep asks GitHub for deliveries the App never recorded)\n`
            : `delivery ${id} is ${row.state}${row.state === "failed" ? " without its payload" : ""}: only a failed delivery is retried\n`);
        return 1;
    }
    finally {
        await store.close();
    }
}
async function redelivery(args, usage) {
    const [action = "show", ...rest] = args;
    const { values } = (0,external_node_util_.parseArgs)({ args: rest, options: APP_ARGS.redelivery.options, strict: true, allowPositionals: false });
    const store = await openStore(storeConfigFromEnv(process.env), Date.now());
    try {
        if (action === "show") {
            process.stdout.write(JSON.stringify(await redeliverySnapshot(store, Date.now()), null, 2) + "\n");
            return 0;
        }
        if (action !== "on" && action !== "off")
            usage(`unknown redelivery action "${action}" (on, off, show)`);
        if (!values.reason?.trim())
            usage(`redelivery ${action} needs --reason "why" (it is recorded in the switch history)`);
        const changed = await setRedelivery(store, action === "on", operator(), values.reason.trim(), Date.now());
        process.stdout.write(`${changed ? "redelivery sweep turned" : "redelivery sweep already"} ${action}\n`);
        return 0;
    }
    finally {
        await store.close();
    }
}


/***/ })

};
