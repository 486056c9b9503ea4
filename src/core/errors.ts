/**
 * Every refusal carries exactly one code (CONTRACT.md section 8). A policy denial and an
 * outage never share a code, and no code means "allowed".
 */
export const ERROR_CODES = [
  "ENVELOPE_MISSING",
  "ENVELOPE_UNREADABLE",
  "ENVELOPE_INVALID",
  "ENVELOPE_DIGEST_MISSING",
  "ENVELOPE_DIGEST_INVALID",
  "ENVELOPE_DIGEST_UNREADABLE",
  "ENVELOPE_HASH_MISMATCH",
  "ROOT_VARIABLE_UNDEFINED",
  "OBSERVER_LOG_MISSING",
  "OBSERVER_LOG_UNREADABLE",
  "OBSERVER_LOG_MALFORMED",
  "OBSERVER_LOG_INCOMPLETE",
  "OBSERVER_LOG_ENVELOPE_MISMATCH",
  "OBSERVER_UNAVAILABLE",
  "PROPERTIES_INVALID",
  "PROPERTY_UNAVAILABLE",
  "LEDGER_UNREADABLE",
  "LEDGER_INVALID",
  "GITHUB_UNAVAILABLE",
  "STORE_UNAVAILABLE",
  "RUNNER_B_UNAVAILABLE",
  "EVIDENCE_UNAVAILABLE",
  "EVIDENCE_DIGEST_MISMATCH",
  "WEBHOOK_SIGNATURE_INVALID",
  "KILL_SWITCH_ENGAGED",
  "BYPASS_REFUSED",
  "CONFIG_INVALID",
  "INTERNAL_ERROR",
  "DELIVERY_IN_PROGRESS",
  "APP_DRAINING",
  "PROCESS_FENCED",
  "DUAL_RUN_MISMATCH",
  "OBSERVER_DISAGREEMENT",
  "PULL_REQUEST_HEAD_MOVED",
  "OBSERVER_CHANNEL_INVALID",
  "OBSERVER_INTERRUPTED",
  "COMMAND_NOT_FOUND",
  "RUNNER_IDENTITY_UNAVAILABLE",
  "OBSERVER_LOG_UNWRITABLE",
  "JAIL_UNAVAILABLE",
  "OBSERVER_TRACER_LOST",
  "OBSERVER_CHANNEL_TAMPERED",
  "OBSERVATION_PARTIAL",
  "POLICY_FILE_TOO_LARGE",
  "PULL_FILES_TRUNCATED",
  "WEBHOOK_BODY_TOO_LARGE",
  "WEBHOOK_HEADERS_MISSING",
  "WEBHOOK_BODY_NOT_JSON",
  "WEBHOOK_PAYLOAD_INVALID",
  "PRIVATE_KEY_INVALID",
  "NOT_FOUND",
  "RUNNER_B_BUDGET_EXCEEDED",
  "BUDGET_UNCONFIRMED",
  "SWITCH_UNRECORDED_CHANGE",
  "DISPATCH_OUTCOME_UNKNOWN",
  "APP_CRASH_LOOP",
  "SECRET_IN_ENVIRONMENT",
  "SECRET_UNAVAILABLE",
  "OBSERVER_LOG_WRITE_FAILED",
  "OUTPUT_UNWRITABLE",
  "JAIL_CWD_HIDDEN",
  "ACTION_COPY_WRITABLE",
  "ACTION_COPY_UNAVAILABLE",
  "PROPERTY_SCRATCH_UNAVAILABLE",
  "PROTECTED_PATHS_UNAVAILABLE",
  "GIT_CREDENTIALS_UNCHECKED",
  "REDELIVERY_LIST_REFUSED",
  "REDELIVERY_RATE_LIMITED",
  "REDELIVERY_EXPIRED",
  "REDELIVERY_REFUSED",
  "REDELIVERY_EXHAUSTED",
  "REDELIVERY_BACKLOG_EXPIRED",
  "PULL_REQUEST_BASE_CHANGED",
  "PULL_REQUEST_BASE_MISSING",
  "LEDGER_BRANCH_FOREIGN",
  "LEDGER_PR_FOREIGN",
  "LEDGER_PR_TAMPERED",
  "LEDGER_PR_RETARGETED",
  "JAIL_IDENTITY_UNAVAILABLE",
  "RUNNER_A_UNVERIFIED",
  "RUNNER_A_EVENT_REFUSED",
  "RUNNER_A_NOT_CURRENT_HEAD",
  "RUNNER_A_WORKFLOW_CHANGED",
  "RUNNER_A_USES_UNREADABLE",
  "RUNNER_A_USES_CYCLE",
  "RUNNER_A_USES_UNBOUNDED",
  "RUNNER_B_UNVERIFIED",
  "VERIFIED_CHECK_EVIDENCE_REFUSED",
  "VERIFIED_CHECK_BASE_UNNAMED",
  "VERIFIED_CHECK_BASE_CHANGED",
  "VERIFIED_CHECK_BASE_MOVED",
  "ORG_ENVELOPE_INVALID",
  "ORG_ENVELOPE_DIGEST_MISMATCH",
  "ORG_ENVELOPE_WIDENED",
  "ORG_ENVELOPE_UNCHECKED",
  "VERIFIED_CHECK_EARLIER_ATTEMPT",
  "VERIFIED_CHECK_PULL_UNVERIFIED",
  "VERIFIED_CHECK_BUSY",
  "VERIFIED_CHECK_STILL_GATED",
  "UNGATE_REFUSED",
  "FREEZE_NOT_FREEZABLE",
  "FREEZE_EVIDENCE_UNAVAILABLE",
  "FREEZE_EVIDENCE_MISMATCH",
  "SUGGEST_ROOT_MISMATCH",
  "CHECK_OPTIONS_CONFLICT",
  "SCRATCH_REMOVE_FAILED",
  "SCRATCH_UNSAFE",
  "AUDIT_RUN_UNVERIFIED",
  "AUDIT_EVIDENCE_UNAVAILABLE",
  "AUDIT_BUNDLE_NOT_AUDIT",
  "ENVELOPE_BRANCH_FOREIGN",
  "ENVELOPE_PR_FOREIGN",
  "ENVELOPE_PR_TAMPERED",
  "ENVELOPE_PR_RETARGETED",
  "ENVELOPE_PR_BUSY",
  "SARIF_UPLOAD_FAILED",
  "VERIFIED_CHECK_AUDIT_EVIDENCE",
  "RECORDER_UNAVAILABLE",
  "OBSERVER_EVENTS_LOST",
  "OBSERVER_PATH_UNKNOWN",
  "OBSERVER_EFFECTS_UNCHECKED",
  "GITHUB_BUDGET_LOW",
  "PREREQUISITE_MISSING",
  "PREREQUISITE_USERNS_BLOCKED",
  "PREREQUISITE_PLATFORM_UNSUPPORTED",
  "PREREQUISITE_SETUP_FAILED",
  "PREREQUISITE_SETUP_INEFFECTIVE",
  "APP_SETUP_STATE_MISMATCH",
  "APP_SETUP_CONVERSION_FAILED",
  "APP_SETUP_FILES_EXIST",
  "APP_SETUP_OWNER_MISMATCH",
  "SERVICE_NOT_ALLOWED",
  "SERVICE_UNAVAILABLE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

/** A typed refusal: the gate could not decide, so it did not pass. */
export class Refusal extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** What a person should do next. */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, where: ErrorLocation & { hint?: string; cause?: unknown } = {}) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = "Refusal";
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.hint = where.hint;
  }

  /** `file:line:col` where known, for messages and annotations. */
  get location(): string | undefined {
    if (this.file === undefined) return undefined;
    if (this.line === undefined) return this.file;
    return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
  }

  toJSON(): { code: ErrorCode; message: string; file?: string; line?: number; hint?: string } {
    const out: { code: ErrorCode; message: string; file?: string; line?: number; hint?: string } = {
      code: this.code,
      message: this.message,
    };
    if (this.file !== undefined) out.file = this.file;
    if (this.line !== undefined) out.line = this.line;
    if (this.hint !== undefined) out.hint = this.hint;
    return out;
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return value instanceof Refusal;
}

/**
 * What a code is about: the policy the gate judges by, the observation, the runs and evidence the
 * App compares, GitHub, the App's store, the App itself, how envelope-gate was invoked (options,
 * inputs, where it writes), or a bug.
 */
type ErrorCategory = "policy-input" | "observer" | "evidence" | "github" | "store" | "app" | "invocation" | "internal";

interface ErrorRow {
  category: ErrorCategory;
  /** The App queues a delivery failing with it, with its payload, for the sweeper; anything else is `failed` and waits for a redelivery. */
  transient: boolean;
  /** Set aside on purpose (a pause, a drain): the delivery's failure is not counted. */
  setAside: boolean;
  /** Refused before a request to GitHub left the process, so nothing reached GitHub. */
  nothingSent: boolean;
  /** The App's webhook answer when a delivery is refused or fails with it (503: retry). */
  httpStatus: number;
  /**
   * What an App operator does when a delivery or a sweep item fails with it (the status page
   * prints it beside the failure); undefined: the generic advice. GitHub never redelivers by
   * itself, and the App answers 202 before the work, so GitHub's log shows most of these
   * deliveries as delivered: no hint sends an operator to redeliver by hand what the App retries
   * itself (queued work: the sweeper; deliveries it could not record: the redelivery sweep).
   */
  hint: string | undefined;
}

const RETRY = "then `envelope-gate app retry --delivery ID` (the App kept its payload; any replica's worker takes it up)";
const SWEEPER = "The App holds the delivery (queued) and its sweeper retries it; nothing to redeliver.";

/** The advice for a code without a hint of its own. */
export const GENERIC_HINT = `Fix the cause named in the message, ${RETRY}.`;

function row(category: ErrorCategory, differs: Partial<Omit<ErrorRow, "category">> = {}): ErrorRow {
  return { category, transient: false, setAside: false, nothingSent: false, httpStatus: 503, hint: undefined, ...differs };
}

/** Every code's classification: the one place the App reads it from. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, Readonly<ErrorRow>>> = {
  ENVELOPE_MISSING: row("policy-input"),
  ENVELOPE_UNREADABLE: row("policy-input"),
  ENVELOPE_INVALID: row("policy-input", {
    hint: `The envelope on the default branch does not parse or validate, so no envelope PR is proposed over it: fix it on the branch (the next audit run proposes again), or ${RETRY}.`,
  }),
  ENVELOPE_DIGEST_MISSING: row("policy-input"),
  ENVELOPE_DIGEST_INVALID: row("policy-input"),
  ENVELOPE_DIGEST_UNREADABLE: row("policy-input"),
  ENVELOPE_HASH_MISMATCH: row("policy-input"),
  ROOT_VARIABLE_UNDEFINED: row("policy-input"),
  OBSERVER_LOG_MISSING: row("observer"),
  OBSERVER_LOG_UNREADABLE: row("observer"),
  OBSERVER_LOG_MALFORMED: row("observer"),
  OBSERVER_LOG_INCOMPLETE: row("observer"),
  OBSERVER_LOG_ENVELOPE_MISMATCH: row("observer"),
  OBSERVER_UNAVAILABLE: row("observer"),
  PROPERTIES_INVALID: row("policy-input"),
  PROPERTY_UNAVAILABLE: row("observer"),
  LEDGER_UNREADABLE: row("policy-input", {
    hint: `The ledger path on the base branch is not a file: fix ENVELOPE_GATE_LEDGER_PATH or the repository, ${RETRY}.`,
  }),
  LEDGER_INVALID: row("policy-input"),
  GITHUB_UNAVAILABLE: row("github", {
    transient: true,
    hint: `GitHub was unreachable, slow or refused the request: check githubstatus.com and the App's permissions. ${SWEEPER}`,
  }),
  STORE_UNAVAILABLE: row("store", {
    transient: true,
    hint: "The database could not be read or written: check /healthz and the database. Work the App recorded is retried by the sweeper once the store answers; deliveries it could not record (answered 503) are asked for again by the redelivery sweep.",
  }),
  RUNNER_B_UNAVAILABLE: row("evidence", {
    hint: "Runner B could not be scheduled or did not finish in time: check the runners labelled for B.",
  }),
  EVIDENCE_UNAVAILABLE: row("evidence", {
    hint: "The run's evidence artifact is missing or unreadable: check the gate workflow uploads envelope-gate-evidence.",
  }),
  EVIDENCE_DIGEST_MISMATCH: row("evidence", {
    hint: "An evidence bundle does not match its digests: treat it as tampering and investigate the run.",
  }),
  WEBHOOK_SIGNATURE_INVALID: row("app", { httpStatus: 401 }),
  KILL_SWITCH_ENGAGED: row("app", {
    transient: true,
    setAside: true,
    nothingSent: true,
    hint: "Held while the App was paused: after `envelope-gate app resume` the sweeper sends it (every delivery is recorded during a pause; nothing to redeliver).",
  }),
  BYPASS_REFUSED: row("app"),
  CONFIG_INVALID: row("invocation"),
  INTERNAL_ERROR: row("internal", { hint: `A bug in envelope-gate: report it with the delivery id and the log line, ${RETRY}.` }),
  DELIVERY_IN_PROGRESS: row("app"),
  APP_DRAINING: row("app", { transient: true, setAside: true, nothingSent: true }),
  PROCESS_FENCED: row("app", { transient: true, nothingSent: true }),
  DUAL_RUN_MISMATCH: row("evidence", { hint: "Runner B ran another commit or envelope: nothing to do, the property keeps failing." }),
  OBSERVER_DISAGREEMENT: row("evidence"),
  PULL_REQUEST_HEAD_MOVED: row("github"),
  OBSERVER_CHANNEL_INVALID: row("observer"),
  OBSERVER_INTERRUPTED: row("observer"),
  COMMAND_NOT_FOUND: row("observer"),
  RUNNER_IDENTITY_UNAVAILABLE: row("observer"),
  OBSERVER_LOG_UNWRITABLE: row("observer"),
  JAIL_UNAVAILABLE: row("observer"),
  OBSERVER_TRACER_LOST: row("observer"),
  OBSERVER_CHANNEL_TAMPERED: row("observer"),
  OBSERVATION_PARTIAL: row("observer"),
  POLICY_FILE_TOO_LARGE: row("policy-input"),
  PULL_FILES_TRUNCATED: row("github"),
  WEBHOOK_BODY_TOO_LARGE: row("app", { httpStatus: 413 }),
  WEBHOOK_HEADERS_MISSING: row("app", { httpStatus: 400 }),
  WEBHOOK_BODY_NOT_JSON: row("app", { httpStatus: 400 }),
  WEBHOOK_PAYLOAD_INVALID: row("app", { httpStatus: 400 }),
  PRIVATE_KEY_INVALID: row("app", {
    nothingSent: true,
    hint: `The App's private key is not a PEM RSA private key: put the .pem GitHub generated in its file (read at each use, no restart), ${RETRY}.`,
  }),
  NOT_FOUND: row("app", { httpStatus: 404 }),
  RUNNER_B_BUDGET_EXCEEDED: row("app", {
    hint: "Runner B's daily cap is used up: nothing to do for this run (the property keeps failing). Raise the cap with `envelope-gate app budget set … --reason` if the spend is intended; it resets at 00:00 UTC.",
  }),
  BUDGET_UNCONFIRMED: row("store", {
    transient: true,
    hint: "The store could not confirm runner B's budget, so nothing was dispatched: check /healthz and the database; queued work is retried by the sweeper.",
  }),
  SWITCH_UNRECORDED_CHANGE: row("store", {
    hint: "A switch was changed outside the App's commands and the watchdog answered it (see the switch history): find who or what edited the store; use `envelope-gate app pause|resume|budget|redelivery … --reason`.",
  }),
  DISPATCH_OUTCOME_UNKNOWN: row("github", {
    transient: true,
    hint: "An earlier dispatch of runner B may have started a run GitHub does not list yet: nothing to do, the sweeper looks again after a minute and dispatches only if no run appeared.",
  }),
  APP_CRASH_LOOP: row("app", {
    hint: "This replica crashed repeatedly: read its last log lines, fix the cause, then `envelope-gate app reset-crashes --replica ID --reason`.",
  }),
  SECRET_IN_ENVIRONMENT: row("app"),
  SECRET_UNAVAILABLE: row("app", {
    transient: true,
    nothingSent: true,
    hint: "A secret file or the secret command named in the message failed: fix it (it is read again at the next use, no restart); the sweeper retries queued work, and the redelivery sweep asks GitHub again for the deliveries refused meanwhile.",
  }),
  OBSERVER_LOG_WRITE_FAILED: row("observer"),
  OUTPUT_UNWRITABLE: row("invocation"),
  JAIL_CWD_HIDDEN: row("observer"),
  ACTION_COPY_WRITABLE: row("observer"),
  ACTION_COPY_UNAVAILABLE: row("observer"),
  PROPERTY_SCRATCH_UNAVAILABLE: row("observer"),
  PROTECTED_PATHS_UNAVAILABLE: row("observer"),
  GIT_CREDENTIALS_UNCHECKED: row("observer"),
  REDELIVERY_LIST_REFUSED: row("github", {
    hint: "GitHub refused to list the App's webhook deliveries (GET /app/hook/deliveries, with the App's JWT): check ENVELOPE_GATE_APP_ID and the private key belong to this App. Until it lists, failed deliveries are not asked for again; the next pass tries.",
  }),
  REDELIVERY_RATE_LIMITED: row("github", {
    hint: "GitHub rate-limited the App's JWT requests: the next redelivery pass tries again; nothing to do unless it persists (then lengthen ENVELOPE_GATE_REDELIVERY_SECONDS).",
  }),
  REDELIVERY_EXPIRED: row("github", {
    hint: "This delivery failed and is older than GitHub keeps deliveries (3 days): it cannot be redelivered. Produce the event again (re-run runner A's workflow, push again) if its work still matters.",
  }),
  REDELIVERY_REFUSED: row("github", {
    hint: "GitHub refused to redeliver it (see the message): the next pass asks again, within ENVELOPE_GATE_REDELIVERY_ATTEMPTS.",
  }),
  REDELIVERY_EXHAUSTED: row("app", {
    hint: "GitHub redelivered it ENVELOPE_GATE_REDELIVERY_ATTEMPTS times and every attempt failed at the App: find why in the App's log (webhook.refused or delivery.unrecorded with this delivery id), fix it, then redeliver it once from the App's settings (Advanced > Recent deliveries): the App does not ask again.",
  }),
  REDELIVERY_BACKLOG_EXPIRED: row("github", {
    hint: "The redelivery sweep had not listed back to its mark before GitHub dropped the deliveries (it keeps them 3 days): a delivery that failed in the window named in the message can no longer be listed or redelivered. Find what that window's events were for (the App's log, the repositories' activity) and produce them again where they matter (re-run runner A's workflows, push again); keep the sweep on (`envelope-gate app redelivery on --reason`).",
  }),
  PULL_REQUEST_BASE_CHANGED: row("github"),
  PULL_REQUEST_BASE_MISSING: row("github"),
  LEDGER_BRANCH_FOREIGN: row("github"),
  LEDGER_PR_FOREIGN: row("github"),
  LEDGER_PR_TAMPERED: row("github"),
  LEDGER_PR_RETARGETED: row("github"),
  JAIL_IDENTITY_UNAVAILABLE: row("observer"),
  RUNNER_A_UNVERIFIED: row("evidence"),
  RUNNER_A_EVENT_REFUSED: row("evidence"),
  RUNNER_A_NOT_CURRENT_HEAD: row("evidence"),
  RUNNER_A_WORKFLOW_CHANGED: row("evidence"),
  RUNNER_A_USES_UNREADABLE: row("evidence"),
  RUNNER_A_USES_CYCLE: row("evidence"),
  RUNNER_A_USES_UNBOUNDED: row("evidence"),
  RUNNER_B_UNVERIFIED: row("evidence"),
  VERIFIED_CHECK_EVIDENCE_REFUSED: row("evidence"),
  VERIFIED_CHECK_BASE_UNNAMED: row("evidence"),
  VERIFIED_CHECK_BASE_CHANGED: row("evidence"),
  VERIFIED_CHECK_BASE_MOVED: row("evidence"),
  ORG_ENVELOPE_INVALID: row("policy-input", {
    hint: "The organisation envelope in the .github repository does not parse or validate: every covered repository's verified check fails until it is fixed on that repository's default branch.",
  }),
  ORG_ENVELOPE_DIGEST_MISMATCH: row("policy-input", {
    hint: "Commit the organisation envelope's digest beside it (envelope-gate hash org-envelope.json > org-envelope.json.sha256) in the same reviewed change.",
  }),
  ORG_ENVELOPE_WIDENED: row("policy-input"),
  ORG_ENVELOPE_UNCHECKED: row("policy-input"),
  VERIFIED_CHECK_EARLIER_ATTEMPT: row("evidence"),
  VERIFIED_CHECK_PULL_UNVERIFIED: row("evidence"),
  VERIFIED_CHECK_BUSY: row("app", {
    transient: true,
    hint: `Another delivery was posting the same commit's verified check; this one's change is included once it is done. ${SWEEPER}`,
  }),
  VERIFIED_CHECK_STILL_GATED: row("evidence"),
  UNGATE_REFUSED: row("app"),
  FREEZE_NOT_FREEZABLE: row("policy-input"),
  FREEZE_EVIDENCE_UNAVAILABLE: row("evidence"),
  FREEZE_EVIDENCE_MISMATCH: row("evidence"),
  SUGGEST_ROOT_MISMATCH: row("invocation"),
  CHECK_OPTIONS_CONFLICT: row("invocation"),
  SCRATCH_REMOVE_FAILED: row("observer"),
  SCRATCH_UNSAFE: row("observer"),
  AUDIT_RUN_UNVERIFIED: row("evidence"),
  AUDIT_EVIDENCE_UNAVAILABLE: row("evidence"),
  AUDIT_BUNDLE_NOT_AUDIT: row("evidence"),
  ENVELOPE_BRANCH_FOREIGN: row("github"),
  ENVELOPE_PR_FOREIGN: row("github"),
  ENVELOPE_PR_TAMPERED: row("github"),
  ENVELOPE_PR_RETARGETED: row("github"),
  ENVELOPE_PR_BUSY: row("app", {
    transient: true,
    hint: `Another delivery was writing the same repository's envelope PR. ${SWEEPER}`,
  }),
  SARIF_UPLOAD_FAILED: row("github"),
  VERIFIED_CHECK_AUDIT_EVIDENCE: row("evidence"),
  RECORDER_UNAVAILABLE: row("observer"),
  OBSERVER_EVENTS_LOST: row("observer"),
  OBSERVER_PATH_UNKNOWN: row("observer"),
  OBSERVER_EFFECTS_UNCHECKED: row("observer"),
  PREREQUISITE_MISSING: row("observer"),
  PREREQUISITE_USERNS_BLOCKED: row("observer"),
  PREREQUISITE_PLATFORM_UNSUPPORTED: row("observer"),
  PREREQUISITE_SETUP_FAILED: row("observer"),
  PREREQUISITE_SETUP_INEFFECTIVE: row("observer"),
  GITHUB_BUDGET_LOW: row("github", {
    transient: true,
    setAside: true,
    nothingSent: true,
    hint: "The installation's GitHub API budget ran low, so this work waits in the written order (docs/app.md, Rate limits): nothing to do, the sweeper of any replica takes it up after the reset named in the message. If it happens every hour, fewer repositories per installation or fewer re-runs spend less.",
  }),
  APP_SETUP_STATE_MISMATCH: row("invocation"),
  APP_SETUP_CONVERSION_FAILED: row("github"),
  APP_SETUP_FILES_EXIST: row("invocation"),
  APP_SETUP_OWNER_MISMATCH: row("invocation"),
  SERVICE_NOT_ALLOWED: row("policy-input"),
  SERVICE_UNAVAILABLE: row("observer", {
    hint: "A declared service was not answering when the run started: start it as a job service with a health check (docs/authoring.md#suites-with-services), or remove it from the envelope's services.",
  }),
};

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_TABLE, value);
}

/** A code the table does not know (a store row written by another version) reads as the defaults: not transient, counted, maybe sent. */
function rowOf(code: string): Readonly<ErrorRow> | undefined {
  return isErrorCode(code) ? ERROR_TABLE[code] : undefined;
}

export function isTransient(code: string): boolean {
  return rowOf(code)?.transient ?? false;
}

export function isSetAside(code: string): boolean {
  return rowOf(code)?.setAside ?? false;
}

export function nothingSent(code: string): boolean {
  return rowOf(code)?.nothingSent ?? false;
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_TABLE[code].httpStatus;
}

/** Where the App talks to GitHub (its settings), for advice that names it. */
interface HintContext {
  githubApiUrl?: string;
}

/** github.com's API; any other API URL is a GitHub Enterprise Server (or another host), whose status githubstatus.com does not show. */
function isGitHubDotCom(apiUrl: string): boolean {
  try {
    return new URL(apiUrl).hostname === "api.github.com";
  } catch {
    return false;
  }
}

/**
 * The operator's advice for a failure recorded with this code (or none). With the App's API URL,
 * GITHUB_UNAVAILABLE names it when it is not github.com's (githubstatus.com says nothing of a
 * GitHub Enterprise Server).
 */
export function hintOf(code: string | null, where: HintContext = {}): string {
  if (code === "GITHUB_UNAVAILABLE" && where.githubApiUrl !== undefined && !isGitHubDotCom(where.githubApiUrl)) {
    return `GitHub at ${where.githubApiUrl} (ENVELOPE_GATE_GITHUB_API_URL, the App's settings) was unreachable, slow or refused the request: check that server is up and reachable from the App, and the App's permissions. ${SWEEPER}`;
  }
  return (code === null ? undefined : rowOf(code)?.hint) ?? GENERIC_HINT;
}

/** A Node (or driver) error's `code`: `ENOENT`, `SQLITE_BUSY`, `23505`; undefined when it has none. */
export function errnoOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return code === undefined || code === null ? undefined : String(code);
}

/**
 * An observer log that could not be opened or read: OBSERVER_LOG_MISSING when nothing is at the
 * path (ENOENT, or ENOTDIR: a file where a directory of the path should be), else
 * OBSERVER_LOG_UNREADABLE naming the errno.
 */
export function logOpenError(err: unknown, path: string, missingHint?: string): Refusal {
  const code = errnoOf(err);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new Refusal("OBSERVER_LOG_MISSING", `observer log ${path} does not exist`, {
      file: path,
      ...(missingHint === undefined ? {} : { hint: missingHint }),
      cause: err,
    });
  }
  return new Refusal("OBSERVER_LOG_UNREADABLE", `observer log ${path} cannot be read (${code ?? String(err)})`, {
    file: path,
    cause: err,
  });
}
