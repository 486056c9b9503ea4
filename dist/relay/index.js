import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:net"
const external_node_net_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");
var external_node_net_default = /*#__PURE__*/__nccwpck_require__.n(external_node_net_namespaceObject);
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: ./src/core/errors.ts
/**
 * Every refusal carries exactly one code (CONTRACT.md section 8). A policy denial and an
 * outage never share a code, and no code means "allowed".
 */
const ERROR_CODES = (/* unused pure expression or super */ null && ([
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
]));
/** A typed refusal: the gate could not decide, so it did not pass. */
class Refusal extends Error {
    code;
    file;
    line;
    column;
    /** What a person should do next. */
    hint;
    constructor(code, message, where = {}) {
        super(message, where.cause === undefined ? undefined : { cause: where.cause });
        this.name = "Refusal";
        this.code = code;
        this.file = where.file;
        this.line = where.line;
        this.column = where.column;
        this.hint = where.hint;
    }
    /** `file:line:col` where known, for messages and annotations. */
    get location() {
        if (this.file === undefined)
            return undefined;
        if (this.line === undefined)
            return this.file;
        return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
    }
    toJSON() {
        const out = {
            code: this.code,
            message: this.message,
        };
        if (this.file !== undefined)
            out.file = this.file;
        if (this.line !== undefined)
            out.line = this.line;
        if (this.hint !== undefined)
            out.hint = this.hint;
        return out;
    }
}
function isRefusal(value) {
    return value instanceof Refusal;
}
const RETRY = "then `envelope-gate app retry --delivery ID` (the App kept its payload; any replica's worker takes it up)";
const SWEEPER = "The App holds the delivery (queued) and its sweeper retries it; nothing to redeliver.";
/** The advice for a code without a hint of its own. */
const GENERIC_HINT = (/* unused pure expression or super */ null && (`Fix the cause named in the message, ${RETRY}.`));
function row(category, differs = {}) {
    return { category, transient: false, setAside: false, nothingSent: false, httpStatus: 503, hint: undefined, ...differs };
}
/** Every code's classification: the one place the App reads it from. */
const ERROR_TABLE = {
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
function isErrorCode(value) {
    return Object.hasOwn(ERROR_TABLE, value);
}
/** A code the table does not know (a store row written by another version) reads as the defaults: not transient, counted, maybe sent. */
function rowOf(code) {
    return isErrorCode(code) ? ERROR_TABLE[code] : undefined;
}
function isTransient(code) {
    return rowOf(code)?.transient ?? false;
}
function isSetAside(code) {
    return rowOf(code)?.setAside ?? false;
}
function nothingSent(code) {
    return rowOf(code)?.nothingSent ?? false;
}
function httpStatusOf(code) {
    return ERROR_TABLE[code].httpStatus;
}
/** github.com's API; any other API URL is a GitHub Enterprise Server (or another host), whose status githubstatus.com does not show. */
function isGitHubDotCom(apiUrl) {
    try {
        return new URL(apiUrl).hostname === "api.github.com";
    }
    catch {
        return false;
    }
}
/**
 * The operator's advice for a failure recorded with this code (or none). With the App's API URL,
 * GITHUB_UNAVAILABLE names it when it is not github.com's (githubstatus.com says nothing of a
 * GitHub Enterprise Server).
 */
function hintOf(code, where = {}) {
    if (code === "GITHUB_UNAVAILABLE" && where.githubApiUrl !== undefined && !isGitHubDotCom(where.githubApiUrl)) {
        return `GitHub at ${where.githubApiUrl} (ENVELOPE_GATE_GITHUB_API_URL, the App's settings) was unreachable, slow or refused the request: check that server is up and reachable from the App, and the App's permissions. ${SWEEPER}`;
    }
    return (code === null ? undefined : rowOf(code)?.hint) ?? GENERIC_HINT;
}
/** A Node (or driver) error's `code`: `ENOENT`, `SQLITE_BUSY`, `23505`; undefined when it has none. */
function errors_errnoOf(err) {
    if (typeof err !== "object" || err === null)
        return undefined;
    const code = err.code;
    return code === undefined || code === null ? undefined : String(code);
}
/**
 * An observer log that could not be opened or read: OBSERVER_LOG_MISSING when nothing is at the
 * path (ENOENT, or ENOTDIR: a file where a directory of the path should be), else
 * OBSERVER_LOG_UNREADABLE naming the errno.
 */
function logOpenError(err, path, missingHint) {
    const code = errors_errnoOf(err);
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

;// CONCATENATED MODULE: external "node:dns/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns/promises");
;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: ./src/core/hosts.ts
/**
 * Host matching for `allowed_hosts`: exact names or IP literals, an optional `:port`,
 * `*.example.com`, which matches subdomains only, never the apex, and named host sets
 * (`@npm`, `@pypi`, ...), which stand for the closed lists in HOST_SETS.
 */
/**
 * The version of HOST_SETS below. The envelope's hash pins a set's name, the code pins its list:
 * any change to a list (a member added, removed or its port changed, a set added or removed)
 * bumps this number, and docs/egress.md's table says what each version holds. The check report
 * shows every host that was allowed through a set, with the set's name.
 */
const HOST_SETS_VERSION = 1;
/**
 * Named host sets for `allowed_hosts`: what a package manager or a well-known download contacts,
 * by name and port, and nothing else. Closed lists of exact names (no wildcards), none of them a
 * shared front for arbitrary content: a set never includes a cloud storage or CDN name that
 * serves anyone's files (storage.googleapis.com, *.cloudfront.net, ...).
 */
const HOST_SETS = new Map([
    // npm, yarn and pnpm against the public registry (tarballs come from the registry host).
    ["@npm", ["registry.npmjs.org:443", "registry.yarnpkg.com:443"]],
    // pip, uv, poetry: the index and the file host.
    ["@pypi", ["pypi.org:443", "files.pythonhosted.org:443"]],
    // cargo: the API, the sparse index, the crate downloads.
    ["@crates", ["crates.io:443", "index.crates.io:443", "static.crates.io:443"]],
    // `go mod download` with the default GOPROXY and GOSUMDB.
    ["@go-proxy", ["proxy.golang.org:443", "sum.golang.org:443"]],
    // apt against Debian's mirrors network and security archive.
    ["@debian", ["deb.debian.org:80", "deb.debian.org:443", "security.debian.org:80", "security.debian.org:443"]],
    // apt against Ubuntu's archive, security archive and ports (arm64 and others).
    [
        "@ubuntu",
        [
            "archive.ubuntu.com:80",
            "archive.ubuntu.com:443",
            "security.ubuntu.com:80",
            "security.ubuntu.com:443",
            "ports.ubuntu.com:80",
            "ports.ubuntu.com:443",
        ],
    ],
    // git over https, the REST API, archives, release assets and raw files.
    [
        "@github",
        [
            "github.com:443",
            "api.github.com:443",
            "codeload.github.com:443",
            "objects.githubusercontent.com:443",
            "raw.githubusercontent.com:443",
        ],
    ],
    // Node.js downloads (nvm, node-gyp headers, corepack's index).
    ["@node-dist", ["nodejs.org:443"]],
]);
/**
 * The programs each set is documented for: `suggest` proposes a set in place of its members only
 * when one of these ran (an `exec` with this basename) and every endpoint the run reached on the
 * set's names is a member (docs/egress.md, "suggest and host sets").
 */
const HOST_SET_TOOLS = new Map([
    ["@npm", ["npm", "npm-cli.js", "npx", "npx-cli.js", "yarn", "yarn.js", "yarn.cjs", "pnpm", "pnpm.cjs", "corepack"]],
    ["@pypi", ["pip", "pip3", "uv", "poetry", "pipx"]],
    ["@crates", ["cargo"]],
    ["@go-proxy", ["go"]],
    ["@debian", ["apt", "apt-get", "http", "https"]],
    ["@ubuntu", ["apt", "apt-get", "http", "https"]],
    ["@github", ["git", "git-remote-https", "gh"]],
    ["@node-dist", ["node-gyp", "corepack", "nvm"]],
]);
/** True for an `allowed_hosts` entry that names a set (`@npm`), known or not. */
function isHostSetEntry(entry) {
    return entry.startsWith("@");
}
/**
 * The patterns one `allowed_hosts` entry stands for: one for a host, each member (tagged with
 * the set's name) for a set. Null for an unknown set or a port out of range.
 */
function expandHostEntry(entry) {
    if (isHostSetEntry(entry)) {
        const members = HOST_SETS.get(entry);
        if (members === undefined)
            return null;
        return members.map((m) => ({ ...parseHostPattern(m), set: entry }));
    }
    const p = parseHostPattern(entry);
    return p === null ? null : [p];
}
/**
 * The set a host was allowed through: null when an entry written out (or a wildcard) allows it, or
 * when nothing does. The report shows `registry.npmjs.org:443 (via @npm)` for such a host.
 */
function allowedViaSet(patterns, host, port) {
    let via = null;
    for (const p of patterns) {
        if (!hostMatches(p, host, port))
            continue;
        if (p.set === undefined)
            return null;
        via ??= p.set;
    }
    return via;
}
/** Normalises a recorded host: lower case, brackets and a trailing dot removed. */
function hosts_normalizeHost(host) {
    let h = host.trim().toLowerCase();
    if (h.startsWith("[") && h.endsWith("]"))
        h = h.slice(1, -1);
    if (h.endsWith(".") && h.length > 1)
        h = h.slice(0, -1);
    return h;
}
/** Parses one `allowed_hosts` entry (already shape-checked by the schema). Null if the port is out of range. */
function parseHostPattern(source) {
    let rest = source;
    let port = null;
    if (rest.startsWith("[")) {
        const close = rest.indexOf("]");
        const after = rest.slice(close + 1);
        if (after.startsWith(":"))
            port = Number(after.slice(1));
        rest = rest.slice(1, close);
    }
    else if ((rest.match(/:/g) ?? []).length === 1) {
        const i = rest.indexOf(":");
        port = Number(rest.slice(i + 1));
        rest = rest.slice(0, i);
    }
    if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535))
        return null;
    const wildcard = rest.startsWith("*.");
    return { source, host: wildcard ? rest.slice(2) : rest, wildcard, port };
}
/**
 * Whether `pattern` allows `host` on `port`. A host event without a port is a name lookup, not a
 * connection: a name allowed on any port may be looked up (`registry.npmjs.org:443` allows the
 * lookup of `registry.npmjs.org`), so that an envelope of `name:port` entries passes a program that
 * resolves a name before it connects.
 */
function hostMatches(pattern, host, port) {
    if (pattern.port !== null && port !== null && pattern.port !== port)
        return false;
    if (pattern.wildcard) {
        return host.length > pattern.host.length + 1 && host.endsWith("." + pattern.host);
    }
    return host === pattern.host;
}
function hostAllowed(patterns, host, port) {
    for (const p of patterns) {
        if (hostMatches(p, host, port))
            return true;
    }
    return false;
}
/** `host`, `host:port`, or `[v6]:port`: the subject of a network violation. */
function hosts_formatEndpoint(host, port) {
    if (port === null)
        return host;
    return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

;// CONCATENATED MODULE: ./src/observer/egress.ts
/**
 * The egress proxy for `network: "allowlist"` (docs/egress.md). It runs in the wrapper, outside
 * the jail, and is the jailed command's only way out: the relay inside the jail (egress-relay.ts)
 * hands every TCP connection made to its loopback port to this proxy's unix socket.
 *
 * It speaks HTTP proxy: `CONNECT host:port` opens a tunnel, an absolute-form request
 * (`GET http://host[:port]/path`, any method) is forwarded. Each request is decided by name
 * through `allowed(host, port)`: a refused host gets 403 and nothing is resolved or connected;
 * an allowed name is resolved here (the jail resolves nothing) and connected. Every request
 * that names a target is recorded exactly once (EgressRecord), before any byte of the client's
 * reaches the upstream.
 *
 * Bounds: a request head is at most HEAD_LIMIT bytes (431, connection closed), and so is an
 * upstream response head (502); a TLS ClientHello peeked in a tunnel is at most
 * CLIENT_HELLO_LIMIT bytes; at most MAX_CLIENT_CONNECTIONS clients at once; bodies and tunnels
 * are streamed with backpressure, never buffered whole.
 */





/** Largest request head (request line and headers) the proxy reads. */
const HEAD_LIMIT = (/* unused pure expression or super */ null && (64 * 1024));
/** Most bytes buffered while waiting for a tunnel's complete TLS ClientHello. */
const CLIENT_HELLO_LIMIT = (/* unused pure expression or super */ null && (64 * 1024));
/** Most client connections open at once (each may hold one upstream socket too); more are closed at accept. */
const MAX_CLIENT_CONNECTIONS = 1024;
/** How long one upstream address may take to accept a connection. */
const CONNECT_TIMEOUT_MS = 15_000;
const LOCAL_HOSTS = "localhost,127.0.0.1,::1";
/**
 * The environment keys the jailed command gets under `allowlist`, whatever `allowed_env` says:
 * every proxy variable points at the relay, and NODE_USE_ENV_PROXY=1 makes a Node that honours it
 * (24.5+, 22.21+) send fetch, http and https through them (on an older Node the preload does,
 * src/observer/preload/proxy.ts). The keys are exactly PROXY_ENV_KEYS (src/core/rules.ts), whose
 * reads the check does not judge under allowlist.
 */
function proxyEnv(port) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new RangeError(`proxyEnv: port ${String(port)} is not 1-65535`);
    const url = `http://127.0.0.1:${port}`;
    return {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        ALL_PROXY: url,
        all_proxy: url,
        NO_PROXY: LOCAL_HOSTS,
        no_proxy: LOCAL_HOSTS,
        NODE_USE_ENV_PROXY: "1",
    };
}
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
/** A normalised host if `raw` is a DNS name or an IP literal (no zone id), else null. */
function validHost(raw) {
    const host = hosts_normalizeHost(raw);
    if (host.includes("%"))
        return null;
    if (external_node_net_default().isIP(host) !== 0)
        return host;
    return host.length <= 253 && NAME.test(host) ? host : null;
}
/** Parses `host:port` or `[v6]:port` (a CONNECT target, the relay's --listen). Null if malformed. */
function parseAuthority(authority) {
    const m = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
    if (!m)
        return null;
    const port = Number(m[2]);
    const bracketed = m[1].startsWith("[");
    const host = validHost(m[1]);
    if (host === null || port < 1 || port > 65535)
        return null;
    if (bracketed !== external_node_net_default().isIPv6(host))
        return null;
    return { host, port };
}
const INCOMPLETE = { kind: "incomplete" };
const malformed = (why) => ({ kind: "malformed", why });
/**
 * Looks at the first bytes a client sent into a tunnel. A first byte other than 0x16 (a TLS
 * handshake record) is "not-tls". Otherwise the ClientHello is reassembled from consecutive
 * handshake records and its server_name read; anything that does not parse is "malformed".
 * Pure, and it reads no further than the ClientHello's own declared lengths.
 */
function peekClientHello(data) {
    if (data.length === 0)
        return INCOMPLETE;
    if (data[0] !== 0x16)
        return { kind: "not-tls" };
    const fragments = [];
    let have = 0;
    let need = -1;
    /** Reads the handshake header once 4 bytes of it are there (in whole records or the one still arriving). */
    const header = (partial) => {
        if (need !== -1 || have + partial.length < 4)
            return null;
        const start = Buffer.concat([...fragments, partial], 4);
        if (start[0] !== 1)
            return malformed("the first handshake message is not a ClientHello");
        need = 4 + start.readUIntBE(1, 3);
        return need > CLIENT_HELLO_LIMIT ? malformed("ClientHello longer than the limit") : null;
    };
    for (let off = 0;;) {
        if (data.length - off < 5)
            return INCOMPLETE;
        if (data[off] !== 0x16)
            return malformed("a non-handshake record before the end of the ClientHello");
        if (data[off + 1] !== 3)
            return malformed("not a TLS record version");
        const length = data.readUInt16BE(off + 3);
        if (length === 0 || length > 16384)
            return malformed(`record length ${length}`);
        if (data.length - off - 5 < length)
            return header(data.subarray(off + 5)) ?? INCOMPLETE;
        const fragment = data.subarray(off + 5, off + 5 + length);
        const verdict = header(fragment);
        if (verdict !== null)
            return verdict;
        fragments.push(fragment);
        have += length;
        off += 5 + length;
        if (need !== -1 && have >= need)
            return parseClientHelloBody(Buffer.concat(fragments, need).subarray(4));
    }
}
function parseClientHelloBody(body) {
    let p = 2 + 32; // legacy_version, random
    const fits = (n) => p + n <= body.length;
    if (!fits(1))
        return malformed("truncated before session_id");
    const sessionId = body[p];
    p += 1;
    if (sessionId > 32 || !fits(sessionId + 2))
        return malformed("bad session_id");
    p += sessionId;
    const suites = body.readUInt16BE(p);
    p += 2;
    if (suites < 2 || suites % 2 !== 0 || !fits(suites + 1))
        return malformed("bad cipher_suites");
    p += suites;
    const compressions = body[p];
    p += 1;
    if (compressions < 1 || !fits(compressions))
        return malformed("bad compression_methods");
    p += compressions;
    if (p === body.length)
        return { kind: "hello", serverName: null };
    if (!fits(2))
        return malformed("truncated extensions");
    const extensionsEnd = p + 2 + body.readUInt16BE(p);
    p += 2;
    if (extensionsEnd !== body.length)
        return malformed("extensions length does not match the ClientHello");
    const seen = new Set();
    let serverName = null;
    while (p < extensionsEnd) {
        if (!fits(4))
            return malformed("truncated extension header");
        const type = body.readUInt16BE(p);
        const length = body.readUInt16BE(p + 2);
        p += 4;
        if (!fits(length))
            return malformed("truncated extension");
        if (seen.has(type))
            return malformed(`extension ${type} twice`);
        seen.add(type);
        if (type === 0) {
            const name = parseServerName(body.subarray(p, p + length));
            if (typeof name !== "string" && name !== null)
                return name;
            serverName = name;
        }
        p += length;
    }
    return { kind: "hello", serverName };
}
/** The host_name of a server_name extension: a string, null when it names none, or a malformed verdict. */
function parseServerName(ext) {
    if (ext.length === 0)
        return null;
    if (ext.length < 2 || 2 + ext.readUInt16BE(0) !== ext.length)
        return malformed("bad server_name list length");
    let name = null;
    for (let p = 2; p < ext.length;) {
        if (p + 3 > ext.length)
            return malformed("truncated server_name entry");
        const type = ext[p];
        const length = ext.readUInt16BE(p + 1);
        p += 3;
        if (length === 0 || p + length > ext.length)
            return malformed("bad server_name entry length");
        if (type === 0) {
            if (name !== null)
                return malformed("two host_name entries");
            name = ext.toString("latin1", p, p + length);
            if (!/^[\x21-\x7e]+$/.test(name))
                return malformed("host_name is not printable ASCII");
        }
        p += length;
    }
    return name;
}
// ---------------------------------------------------------------------------------------------
// Plumbing
const noop = () => { };
/** Pipes two sockets both ways (with backpressure); when either closes, the other is destroyed. */
function splice(a, b) {
    a.on("error", noop);
    b.on("error", noop);
    a.once("close", () => b.destroy());
    b.once("close", () => a.destroy());
    a.pipe(b);
    b.pipe(a);
}
/** Addresses a name may not lead to unless the client named the IP itself: this host's loopback, "any", link-local (cloud metadata). */
const LOCAL_ONLY = new (external_node_net_default()).BlockList();
LOCAL_ONLY.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("0.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("169.254.0.0", 16, "ipv4");
LOCAL_ONLY.addAddress("::1", "ipv6");
LOCAL_ONLY.addAddress("::", "ipv6");
LOCAL_ONLY.addSubnet("fe80::", 10, "ipv6");
function localOnly(address) {
    return LOCAL_ONLY.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}
const HOP_BY_HOP = (/* unused pure expression or super */ null && ([
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
]));
/** Copies headers without the hop-by-hop ones (RFC 9110 7.6.1), the ones `Connection` names, and Proxy-Authorization. */
function stripHopByHop(headers) {
    const drop = new Set(HOP_BY_HOP);
    for (const token of String(headers.connection ?? "").split(","))
        drop.add(token.trim().toLowerCase());
    const out = {};
    for (const [key, value] of Object.entries(headers)) {
        if (value !== undefined && !drop.has(key))
            out[key] = value;
    }
    return out;
}
const STATUS_TEXT = {
    400: "Bad Request",
    403: "Forbidden",
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
};
/** A complete response written straight to a socket that the HTTP server no longer manages (CONNECT, parse errors); then closed. */
function rawReply(socket, status, text) {
    if (!socket.writable) {
        socket.destroy();
        return;
    }
    const head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
    socket.end(head + text, () => socket.destroy());
}
function plainReply(res, status, text) {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), connection: "close" });
    res.end(text);
}
function errorText(e) {
    return errnoOf(e) ?? e.message ?? String(e);
}
// ---------------------------------------------------------------------------------------------
// The proxy
/** Starts the proxy on `socketPath`; resolves once it listens. */
async function startEgressProxy(options) {
    const open = new Set();
    /** Requests not yet recorded, each with what to record if the proxy closes first. */
    const pending = new Set();
    let closing = false;
    const track = (socket) => {
        if (closing) {
            socket.destroy();
            return;
        }
        open.add(socket);
        socket.once("close", () => open.delete(socket));
    };
    /** One request's record: written exactly once, by the first of its outcome or close(). */
    const begin = (host, port, proto) => {
        let address;
        let done = false;
        const finish = (allowed, extra = {}) => {
            if (done)
                return;
            done = true;
            pending.delete(onClose);
            const e = { host, port, proto, allowed };
            if (address !== undefined)
                e.address = address;
            if (extra.reason !== undefined)
                e.reason = extra.reason;
            if (extra.sni !== undefined)
                e.sni = extra.sni;
            options.record(e);
        };
        const onClose = () => finish(true, address === undefined ? { reason: "proxy closed before the upstream connected" } : {});
        pending.add(onClose);
        return {
            finish,
            connected: (a) => {
                address = a;
            },
        };
    };
    const refusal = (host, port) => {
        try {
            return options.allowed(host, port) ? null : "host not allowed";
        }
        catch (e) {
            return `allowed() failed: ${errorText(e)}`;
        }
    };
    const connectOnce = (address, port) => new Promise((resolve, reject) => {
        const socket = net.connect({ host: address, port });
        socket.on("error", noop);
        track(socket);
        const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
        socket.once("connect", () => {
            clearTimeout(timer);
            resolve(socket);
        });
        socket.once("close", () => {
            clearTimeout(timer);
            reject(new Error(socket.errored ? errorText(socket.errored) : "closed"));
        });
    });
    /** Resolves an allowed name (every address, in the resolver's order) and connects to the first that answers. */
    const openUpstream = async (host, port) => {
        let addresses;
        if (net.isIP(host) !== 0) {
            addresses = [host];
        }
        else {
            try {
                addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
            }
            catch (e) {
                return { ok: false, status: 502, reason: `dns: ${errorText(e)}` };
            }
            const reachable = addresses.filter((a) => !localOnly(a));
            if (reachable.length === 0)
                return { ok: false, status: 403, reason: `resolves only to loopback or link-local addresses (${addresses.join(", ")})` };
            addresses = reachable;
        }
        const failures = [];
        for (const address of addresses) {
            if (closing)
                break;
            try {
                return { ok: true, socket: await connectOnce(address, port), address };
            }
            catch (e) {
                failures.push(`${formatEndpoint(address, port)} ${errorText(e)}`);
            }
        }
        return { ok: false, status: 502, reason: closing ? "proxy closed" : `upstream: ${failures.join("; ")}` };
    };
    const tunnel = async (host, port, client, head) => {
        const endpoint = formatEndpoint(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "connect", allowed: false, reason: why });
            rawReply(client, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
            return;
        }
        client.pause();
        const request = begin(host, port, "connect");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            rawReply(client, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
            return;
        }
        const upstream = up.socket;
        request.connected(up.address);
        if (closing || client.destroyed) {
            upstream.destroy();
            request.finish(true, { reason: "client closed before the tunnel opened" });
            return;
        }
        // The server's bytes flow at once (server-first protocols); the client's wait for the peek.
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        client.once("close", () => {
            upstream.destroy();
            request.finish(true);
        });
        upstream.once("close", () => {
            client.destroy();
            request.finish(true);
        });
        upstream.pipe(client);
        let buffered = head;
        let peeking = true;
        const refuse = (reason, sni) => {
            peeking = false;
            request.finish(false, { reason, sni });
            client.destroy();
            upstream.destroy();
        };
        const inspect = () => {
            const peek = peekClientHello(buffered);
            if (peek.kind === "incomplete") {
                if (buffered.length > CLIENT_HELLO_LIMIT)
                    refuse("client hello too large");
                return;
            }
            if (peek.kind === "malformed")
                return refuse(`malformed client hello: ${peek.why}`);
            const sni = peek.kind === "hello" && peek.serverName !== null ? normalizeHost(peek.serverName) : undefined;
            if (sni !== undefined && sni !== host)
                return refuse("sni mismatch", sni);
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true, { sni });
            upstream.write(buffered);
            client.pipe(upstream);
        };
        const onData = (chunk) => {
            buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
            inspect();
        };
        client.on("data", onData);
        client.once("end", () => {
            if (!peeking)
                return;
            // The client half-closed before its first bytes were judged: with nothing sent, pass the
            // half-close on (the server may still answer); a cut-off ClientHello is refused.
            if (buffered.length > 0)
                return refuse("client closed inside its client hello");
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true);
            upstream.end();
        });
        if (buffered.length > 0)
            inspect();
        if (peeking)
            client.resume();
    };
    const forward = async (req, res) => {
        let url;
        try {
            url = new URL(req.url ?? "");
        }
        catch {
            return plainReply(res, 400, "envelope-gate egress: send an absolute-form http:// request or CONNECT\n");
        }
        const host = validHost(url.hostname);
        if (url.protocol !== "http:" || host === null)
            return plainReply(res, 400, `envelope-gate egress: cannot forward ${url.protocol}//${url.host}\n`);
        const port = url.port === "" ? 80 : Number(url.port);
        const endpoint = formatEndpoint(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "http", allowed: false, reason: why });
            return plainReply(res, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
        }
        req.pause();
        const request = begin(host, port, "http");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            return plainReply(res, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
        }
        request.connected(up.address);
        request.finish(true);
        const upstream = up.socket;
        if (closing || res.destroyed) {
            upstream.destroy();
            return;
        }
        const headers = stripHopByHop(req.headers);
        headers.host = url.host;
        // Node decoded any chunked body; re-chunk it upstream whatever the method.
        if (req.headers["transfer-encoding"] !== undefined)
            headers["transfer-encoding"] = "chunked";
        const upstreamRequest = http.request({
            createConnection: () => upstream,
            method: req.method,
            path: url.pathname + url.search,
            headers,
            setHost: false,
            maxHeaderSize: HEAD_LIMIT,
        });
        upstreamRequest.on("response", (upstreamResponse) => {
            res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, stripHopByHop(upstreamResponse.headers));
            upstreamResponse.pipe(res);
        });
        upstreamRequest.on("error", (e) => {
            if (res.headersSent)
                res.destroy();
            else
                plainReply(res, 502, `envelope-gate egress: ${endpoint}: upstream: ${errorText(e)}\n`);
        });
        res.once("close", () => upstream.destroy());
        req.pipe(upstreamRequest);
    };
    const server = http.createServer({ maxHeaderSize: HEAD_LIMIT, requestTimeout: 0, requireHostHeader: false });
    server.maxConnections = MAX_CLIENT_CONNECTIONS;
    server.on("connection", track);
    server.on("request", (req, res) => {
        forward(req, res).catch((e) => res.destroy(e));
    });
    server.on("connect", (req, client, head) => {
        client.on("error", noop);
        const target = parseAuthority(req.url ?? "");
        if (target === null)
            return rawReply(client, 400, "envelope-gate egress: CONNECT needs host:port\n");
        tunnel(target.host, target.port, client, head).catch(() => client.destroy());
    });
    server.on("clientError", (err, socket) => {
        const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
        const what = status === 431 ? `request head over ${HEAD_LIMIT} bytes` : status === 408 ? "request head not received in time" : "bad request";
        rawReply(socket, status, `envelope-gate egress: ${what}\n`);
    });
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.socketPath, () => {
            server.removeListener("error", reject);
            resolve();
        });
    });
    let closed = null;
    return {
        socketPath: options.socketPath,
        close() {
            if (closed !== null)
                return closed;
            closing = true;
            closed = new Promise((resolve) => server.close(() => resolve()));
            for (const flush of [...pending])
                flush();
            for (const socket of open)
                socket.destroy();
            return closed;
        },
    };
}

;// CONCATENATED MODULE: ./src/observer/protocol.ts
/**
 * The channel between the in-process hooks (preload) and the run wrapper, and the constants
 * both sides share. Pure and import-free on purpose: it is bundled into the preload, which
 * must stay loadable both as CommonJS (`--require`, the only preload form Node 20 also runs
 * in worker threads) and as ESM.
 *
 * Each message is one line of ASCII JSON. A line of at most FRAME_LIMIT bytes is written with
 * one write(2) to a FIFO, which the kernel keeps atomic up to PIPE_BUF (4096), so lines from
 * many processes never interleave. A longer message is cut into fragments, each its own
 * atomic line: `~<writer>:<msg>:<last 0|1>:<text>`.
 */
/** File name of the preload copy in a stage directory; the hooks find their channel beside it. */
const PRELOAD_FILE_NAME = "envelope-gate-preload.cjs";
/** The FIFO the hooks write to, in the same stage directory as the preload copy. */
const EVENTS_FIFO_NAME = "events.fifo";
/** Optional settings for the hooks, `{"recordWrites": boolean}`, in the same stage directory. */
const PRELOAD_CONFIG_NAME = "preload-config.json";
/** The FIFO strace writes to. */
const STRACE_FIFO_NAME = "strace.fifo";
/** worker_threads environment-data key that hands the channel to worker threads. */
const WORKER_CHANNEL_KEY = "envelope-gate.channel";
/** Global the preload installs for the SDK's recordTool. */
const RECORD_TOOL_SYMBOL = "envelope-gate.recordTool";
/** Largest frame written in one write(2); below PIPE_BUF (4096) with room for the fragment header. */
const FRAME_LIMIT = 3800;
/**
 * Character devices a write to which mutates no file: shells redirect to /dev/null all the
 * time. Both observers skip exactly these (docs/observer.md lists them).
 */
const DEVICE_PATHS = new Set([
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/random",
    "/dev/urandom",
]);
function isIgnoredDevice(path) {
    return DEVICE_PATHS.has(path) || path.startsWith("/dev/pts/") || path.startsWith("/dev/fd/") || path.startsWith("/proc/self/fd/");
}
/** The NODE_OPTIONS entry that preloads the hooks from a stage directory. */
function preloadOption(stageDir) {
    return `--require "${stageDir.replace(/(["\\])/g, "\\$1")}/${PRELOAD_FILE_NAME}"`;
}
const PRELOAD_OPTION = /(?:^|\s)--require[= ]"((?:[^"\\]|\\.)*\/envelope-gate-preload\.cjs)"/;
/** Finds the preload option in a NODE_OPTIONS value: the stage dir and the value without it. */
function splitNodeOptions(value) {
    if (value === undefined)
        return { stageDir: null, rest: "" };
    const m = PRELOAD_OPTION.exec(value);
    if (!m)
        return { stageDir: null, rest: value };
    const file = m[1].replace(/\\(.)/g, "$1");
    const rest = (value.slice(0, m.index) + " " + value.slice(m.index + m[0].length)).trim();
    return { stageDir: file.slice(0, file.length - PRELOAD_FILE_NAME.length - 1), rest };
}
/** Joins the preload option with whatever NODE_OPTIONS the program itself passes on. */
function mergeNodeOptions(stageDir, rest) {
    const own = preloadOption(stageDir);
    const other = splitNodeOptions(rest).rest;
    return other === "" ? own : `${own} ${other}`;
}
const HAS_NON_ASCII = /[\u007f-\uffff]/;
const NON_ASCII = /[\u007f-\uffff]/g;
function asciiJson(message) {
    const json = JSON.stringify(message);
    return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : json;
}
/** Encodes one message as one or more frames (each ends with a newline, each at most FRAME_LIMIT + header bytes). */
function encodeFrames(message, writer, messageNo) {
    const json = asciiJson(message);
    if (json.length <= FRAME_LIMIT)
        return [json + "\n"];
    const frames = [];
    for (let i = 0; i < json.length; i += FRAME_LIMIT) {
        const last = i + FRAME_LIMIT >= json.length ? 1 : 0;
        frames.push(`~${writer}:${messageNo}:${last}:${json.slice(i, i + FRAME_LIMIT)}\n`);
    }
    return frames;
}
class FrameError extends (/* unused pure expression or super */ null && (Error)) {
}
/** Reassembles frames into message texts. Pure: fed lines, returns whole JSON texts. */
class FrameDecoder {
    partial = new Map();
    pending = "";
    /** Feeds raw text; returns every complete message (JSON text) in order. */
    push(text) {
        const out = [];
        let start = 0;
        const data = this.pending === "" ? text : this.pending + text;
        this.pending = "";
        for (;;) {
            const nl = data.indexOf("\n", start);
            if (nl === -1)
                break;
            const line = data.slice(start, nl);
            start = nl + 1;
            if (line.charCodeAt(0) !== 0x7e) {
                out.push(line);
                continue;
            }
            const m = /^~([^:]+):(\d+):([01]):/.exec(line);
            if (!m)
                throw new FrameError(`bad fragment header: ${line.slice(0, 60)}`);
            const key = `${m[1]}:${m[2]}`;
            const body = (this.partial.get(key) ?? "") + line.slice(m[0].length);
            if (m[3] === "1") {
                this.partial.delete(key);
                out.push(body);
            }
            else {
                if (body.length > 64 * 1024 * 1024)
                    throw new FrameError("a fragmented message longer than 64 MiB");
                this.partial.set(key, body);
            }
        }
        if (start < data.length)
            this.pending = data.slice(start);
        return out;
    }
    /** True when no message is half-received (used at the end of a stage). */
    get idle() {
        return this.pending === "" && this.partial.size === 0;
    }
}

;// CONCATENATED MODULE: ./src/observer/egress-relay.ts
/**
 * The egress relay (docs/egress.md), bundled to dist/relay/index.js. It runs INSIDE the jail,
 * whose network namespace has only loopback:
 *
 *   node dist/relay/index.js --listen 127.0.0.1:<port> --unix <socketPath>
 *        [--child-node-options <value>] -- CMD [ARGS...]
 *
 * It listens on `--listen` first, then starts CMD (stdio inherited, the relay's own environment),
 * and pipes every accepted TCP connection to the unix socket of the egress proxy outside the
 * jail. It forwards SIGTERM, SIGINT and SIGHUP to CMD and ends the way CMD ended: the same exit
 * code, or the same signal raised on itself, so the wrapper sees what a direct run would give.
 *
 * Exit 125, with one line on stderr and CMD never started: bad arguments, no socket at
 * `--unix`, `--listen` not possible, or the observer hooks loaded into the relay itself.
 * 127 / 126: CMD not found / not executable.
 *
 * The relay is plumbing, not the observed program: it must be started with NODE_OPTIONS unset
 * (so the preload does not load into it) and receives the command's NODE_OPTIONS through
 * `--child-node-options` (an empty value removes the key from CMD's environment). A relay that
 * finds the hooks loaded refuses rather than record itself.
 */







const SETUP_FAILED = 125;
const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP"];
function fail(message, code = SETUP_FAILED) {
    process.stderr.write(`envelope-gate relay: ${message}\n`);
    process.exit(code);
}
function parseRelayArgs(argv) {
    const dashes = argv.indexOf("--");
    if (dashes === -1 || dashes === argv.length - 1 || argv[dashes + 1] === "")
        fail("usage: --listen HOST:PORT --unix SOCKET [--child-node-options VALUE] -- CMD [ARGS...]");
    const values = new Map();
    const own = argv.slice(0, dashes);
    for (let i = 0; i < own.length; i++) {
        const arg = own[i];
        const eq = arg.indexOf("=");
        const name = eq === -1 ? arg : arg.slice(0, eq);
        if (!["--listen", "--unix", "--child-node-options"].includes(name))
            fail(`unknown argument ${arg}`);
        if (values.has(name))
            fail(`${name} given twice`);
        if (eq !== -1)
            values.set(name, arg.slice(eq + 1));
        else if (i + 1 < own.length)
            values.set(name, own[++i]);
        else
            fail(`${name} needs a value`);
    }
    const listen = parseAuthority(values.get("--listen") ?? "");
    if (listen === null || external_node_net_default().isIP(listen.host) === 0)
        fail("--listen needs IP:PORT (port 1-65535)");
    const socketPath = values.get("--unix");
    if (socketPath === undefined || socketPath === "")
        fail("--unix needs the egress proxy's socket path");
    return { ...listen, socketPath, childNodeOptions: values.get("--child-node-options"), command: argv.slice(dashes + 1) };
}
/** Ends this process the way the command ended. */
function endLike(code, signal) {
    if (signal === null)
        process.exit(code ?? SETUP_FAILED);
    for (const s of FORWARDED)
        process.removeAllListeners(s);
    process.kill(process.pid, signal);
    // Signals Node keeps for itself (SIGPIPE is ignored, SIGUSR1 starts the inspector) do not end
    // the relay: fall back to the shell's convention.
    setTimeout(() => process.exit(128 + (external_node_os_namespaceObject.constants.signals[signal] ?? 0)), 200);
}
function main() {
    const args = parseRelayArgs(process.argv.slice(2));
    if (typeof globalThis[Symbol.for(RECORD_TOOL_SYMBOL)] === "function" ||
        splitNodeOptions(process.env.NODE_OPTIONS).stageDir !== null) {
        fail("the observer hooks are loaded into the relay: start it with NODE_OPTIONS unset and pass the command's through --child-node-options");
    }
    try {
        if (!(0,external_node_fs_namespaceObject.statSync)(args.socketPath).isSocket())
            fail(`${args.socketPath} is not a socket`);
    }
    catch (e) {
        fail(`no egress proxy socket at ${args.socketPath} (${errors_errnoOf(e) ?? String(e)})`);
    }
    let warned = false;
    const connections = new Set();
    const server = external_node_net_default().createServer((conn) => {
        const proxy = external_node_net_default().connect(args.socketPath);
        proxy.once("error", (e) => {
            if (warned)
                return;
            warned = true;
            process.stderr.write(`envelope-gate relay: the egress proxy is unreachable (${e.code ?? e.message}); connections are closed\n`);
        });
        for (const s of [conn, proxy]) {
            connections.add(s);
            s.once("close", () => connections.delete(s));
        }
        splice(conn, proxy);
    });
    server.once("error", (e) => fail(`cannot listen on ${args.host}:${args.port} (${e.code ?? e.message})`));
    // Listening comes first: the command can connect from its first instruction on.
    server.listen({ host: args.host, port: args.port, exclusive: true }, () => {
        server.removeAllListeners("error");
        server.on("error", () => { });
        const env = { ...process.env };
        if (args.childNodeOptions === "")
            delete env.NODE_OPTIONS;
        else if (args.childNodeOptions !== undefined)
            env.NODE_OPTIONS = args.childNodeOptions;
        const [file, ...rest] = args.command;
        const child = (0,external_node_child_process_namespaceObject.spawn)(file, rest, { stdio: "inherit", env });
        for (const s of FORWARDED) {
            process.on(s, () => {
                if (child.exitCode === null && child.signalCode === null)
                    child.kill(s);
            });
        }
        child.on("error", (e) => {
            if (child.pid !== undefined)
                return; // a signal that could not be delivered: the exit still comes
            const code = e.code === "ENOENT" ? 127 : e.code === "EACCES" ? 126 : SETUP_FAILED;
            fail(`cannot start ${file} (${e.code ?? e.message})`, code);
        });
        child.once("exit", (code, signal) => {
            server.close();
            for (const s of connections)
                s.destroy();
            endLike(code, signal);
        });
    });
}
main();

