import { DEFAULT_LEDGER_PATH } from "../core/ledger.js";
import { DEFAULT_SQLITE_PATH } from "../store/index.js";

/**
 * Every environment variable the App reads, with its default and meaning: the one table both
 * configuration parsing (config.ts) and `envelope-gate app --help` use, so they cannot drift.
 * `scope` says which commands read it: `store` settings are read by every app command
 * (pause, resume, status, promote, demote), `server` settings only by `app start`.
 */
interface Setting {
  name: string;
  /** The value used when the variable is unset or empty; `""` means none. */
  default: string;
  /** How the default reads in help when it is computed or absent. */
  shown?: string;
  scope: "server" | "store";
  help: string;
}

export const APP_SETTINGS = [
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
] as const satisfies readonly Setting[];

export type SettingName = (typeof APP_SETTINGS)[number]["name"];

const BY_NAME = new Map<string, Setting>(APP_SETTINGS.map((s) => [s.name, s]));

/** The variable's trimmed value, or its default from the table when unset or empty. */
export function settingValue(env: NodeJS.ProcessEnv, name: SettingName): string {
  const raw = env[name]?.trim();
  return raw === undefined || raw === "" ? (BY_NAME.get(name) as Setting).default : raw;
}

/** The settings as a text table for `--help`; `store` commands list only what they read. */
export function settingsHelp(scope: "server" | "store"): string {
  const rows = APP_SETTINGS.filter((s) => scope === "server" || s.scope === "store").map((s) => [
    s.name,
    "shown" in s ? s.shown : s.default,
    s.help,
  ]);
  const width = [0, 1].map((i) => Math.max(...rows.map((r) => (r[i] as string).length), i === 0 ? 8 : 7));
  const line = (r: readonly string[]) =>
    `  ${(r[0] as string).padEnd(width[0] as number)}  ${(r[1] as string).padEnd(width[1] as number)}  ${r[2]}`;
  return ["settings (environment variables):", line(["variable", "default", "meaning"]), ...rows.map(line)].join("\n");
}
