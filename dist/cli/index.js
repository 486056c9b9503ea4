#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 8279:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   _n: () => (/* binding */ evaluateLogFile),
/* harmony export */   pO: () => (/* binding */ readVerifiedEnvelope)
/* harmony export */ });
/* unused harmony exports readEnvelopeFile, defaultDigestPath */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);
/* harmony import */ var _core_envelope_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(1652);
/* harmony import */ var _core_log_reader_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3477);
/**
 * Reads the gate's inputs from the local filesystem, turning every failure into its own typed
 * code. The only place the check pipeline touches files.
 */




async function readBytes(path, missing, unreadable, what, hint) {
    try {
        return await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path);
    }
    catch (err) {
        const code = (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err);
        if (code === "ENOENT" || code === "ENOTDIR") {
            throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_(missing, `${what} ${path} does not exist`, { file: path, hint, cause: err });
        }
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_(unreadable, `${what} ${path} cannot be read (${code ?? String(err)})`, {
            file: path,
            hint: "Check the path and its permissions.",
            cause: err,
        });
    }
}
const ENVELOPE_HINT = "Commit an envelope.json (see examples/envelope.json) and point --envelope at it.";
async function readEnvelopeFile(path) {
    return loadEnvelope(await readBytes(path, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT), path);
}
function defaultDigestPath(envelopePath) {
    return `${envelopePath}.sha256`;
}
/** Checks the pinned digest against the raw bytes, then loads the envelope. */
async function readVerifiedEnvelope(envelopePath, digestPath = defaultDigestPath(envelopePath)) {
    const bytes = await readBytes(envelopePath, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT);
    const digest = await readBytes(digestPath, "ENVELOPE_DIGEST_MISSING", "ENVELOPE_DIGEST_UNREADABLE", "envelope digest", `Pin the envelope: envelope-gate hash ${envelopePath} > ${digestPath}, reviewed and committed with it.`);
    (0,_core_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .verifyDigest */ .Ub)(bytes, envelopePath, digest.toString("utf8"), digestPath);
    return (0,_core_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .loadEnvelope */ .BC)(bytes, envelopePath);
}
const CHUNK = 1 << 20;
/**
 * Streams the observer log through the evaluator in fixed-size chunks. Two buffers take turns:
 * the next chunk is read on the thread pool while this thread judges the one before it.
 */
async function evaluateLogFile(envelope, logPath, options, chunkSize = CHUNK) {
    let handle;
    try {
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.open)(logPath, "r");
    }
    catch (err) {
        throw (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .logOpenError */ .NU)(err, logPath, "Record one with `envelope-gate run`; a missing log is never read as a clean run.");
    }
    const evaluator = new _core_log_reader_js__WEBPACK_IMPORTED_MODULE_3__/* .LogEvaluator */ .IC(envelope, { ...options, file: logPath });
    let current = Buffer.allocUnsafe(chunkSize);
    let next = Buffer.allocUnsafe(chunkSize);
    const read = (buffer) => handle.read(buffer, 0, chunkSize, null).then(({ bytesRead }) => bytesRead, (err) => {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_UNREADABLE", `observer log ${logPath} cannot be read (${(0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err) ?? String(err)})`, {
            file: logPath,
            cause: err,
        });
    });
    let pending = null;
    try {
        pending = read(current);
        for (;;) {
            const bytesRead = await pending;
            pending = null;
            if (bytesRead === 0)
                break;
            // Reads with a null position follow one another, so this one starts where the last ended.
            pending = read(next);
            evaluator.push(current.subarray(0, bytesRead));
            [current, next] = [next, current];
        }
    }
    finally {
        // A read still in flight when the evaluator threw: wait for it before closing the handle.
        if (pending !== null)
            await pending.catch(() => 0);
        await handle.close();
    }
    return evaluator.finish();
}


/***/ }),

/***/ 9066:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B: () => (/* binding */ ENVELOPE_LOG_OPTIONS),
/* harmony export */   a: () => (/* binding */ RUN_ONLY_OPTIONS)
/* harmony export */ });
/** The flags every command that reads an envelope and an observer log takes (`check`, `run`). */
const ENVELOPE_LOG_OPTIONS = {
    envelope: { type: "string" },
    sha256: { type: "string" },
    observer: { type: "string" },
    workspace: { type: "string" },
    scratch: { type: "string" },
};
/** The flags only `run` takes. */
const RUN_ONLY_OPTIONS = {
    "node-only": { type: "boolean", default: false },
    "keep-scratch": { type: "boolean", default: false },
    audit: { type: "boolean", default: false },
    recorder: { type: "string" },
};


/***/ }),

/***/ 8403:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ writeStdout),
/* harmony export */   n: () => (/* binding */ outputUnwritable)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);


/** Where standard output goes, for a message: the file it is redirected to where Linux says. */
function stdoutTarget() {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readlinkSync)("/proc/self/fd/1");
    }
    catch {
        return "standard output";
    }
}
/** The typed error for a file envelope-gate writes (not the observer log, not the evidence bundle). */
function outputUnwritable(file, what, err) {
    const reason = (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err) ?? String(err);
    const full = reason === "ENOSPC" || reason === "EDQUOT";
    return new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OUTPUT_UNWRITABLE", `cannot write ${what} to ${file} (${reason})`, {
        file,
        hint: full
            ? "The filesystem it goes to is full (or its quota is): free space there, or write it elsewhere, and run again."
            : "Check that the destination can be written, and run again.",
        cause: err,
    });
}
/**
 * Writes to standard output and waits until it is written. A refused write (a full disk, a
 * closed pipe) is OUTPUT_UNWRITABLE: the verdict did not reach its reader, so the command exits 3.
 */
function writeStdout(text, what) {
    return new Promise((resolvePromise, reject) => {
        // The stream reports a failed write twice, to the callback and as an "error" event: both reject.
        const refuse = (err) => reject(outputUnwritable(stdoutTarget(), what, err));
        process.stdout.on("error", refuse);
        process.stdout.write(text, (err) => {
            if (err)
                refuse(err);
            else
                resolvePromise();
        });
    });
}


/***/ }),

/***/ 486:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _core_verdict_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9478);
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8977);


// Where even the error report cannot be written, the exit status is what is left to say so
// (an unhandled stream error would exit 1, which reads as violations).
process.stderr.on("error", () => {
    process.exitCode = _core_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .EXIT_CODES */ .ai.error;
});
process.exitCode = await (0,_main_js__WEBPACK_IMPORTED_MODULE_1__/* .main */ .iW)(process.argv.slice(2));

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 8977:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  iW: () => (/* binding */ main)
});

// UNUSED EXPORTS: COMMAND_HELP, UsageError, parseCommandLine

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __nccwpck_require__(4296);
// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __nccwpck_require__(1652);
// EXTERNAL MODULE: ./src/core/markdown.ts
var markdown = __nccwpck_require__(6706);
// EXTERNAL MODULE: ./src/core/verdict.ts
var core_verdict = __nccwpck_require__(9478);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: ./src/check/files.ts
var files = __nccwpck_require__(8279);
;// CONCATENATED MODULE: ./src/check/check.ts





const VERDICT_WORD = { pass: "PASS", envelope_fail: "FAIL", error: "ERROR" };
/**
 * The verdict line of a judged log (`envelope-gate: PASS (pass): no violations in 23 events`).
 * A command that exited non-zero, or was killed, says so on the same line: a PASS judges what the
 * run touched, never whether its command worked. The exit code of `check` does not change with it.
 */
function verdictLine(report) {
    const n = report.violations.length;
    const summary = report.verdict === "pass"
        ? `no violations in ${report.events} events`
        : `${n} distinct violation${n === 1 ? "" : "s"} in ${report.events} events`;
    const exit = report.log?.exit_code;
    const command = report.log === null
        ? ""
        : exit === null
            ? "; the command did not exit (killed by a signal)"
            : exit !== 0
                ? `; the command exited ${String(exit)}`
                : "";
    return `envelope-gate: ${VERDICT_WORD[report.verdict]} (${report.verdict}): ${summary}${command}`;
}

/** Verify the pinned envelope, then judge the log against it. Never throws; errors become the `error` verdict. */
async function runCheck(settings) {
    let envelope = null;
    try {
        envelope = await (0,files/* readVerifiedEnvelope */.pO)(settings.envelopePath, settings.digestPath);
        const loaded = envelope;
        // The roots come from the meta line as the one reader reads it: a log without one is refused
        // by the reader, for its own reason, before any root is named.
        const roots = (meta) => (0,core_envelope/* expandRoots */.oY)(loaded, {
            workspace: settled("workspace", settings.workspace, recordedRoot(meta, "workspace"), settings.logPath),
            scratch: settled("scratch", settings.scratch, recordedRoot(meta, "scratch"), settings.logPath),
        });
        const verdict = await (0,files/* evaluateLogFile */._n)(envelope, settings.logPath, { roots });
        return { report: (0,core_verdict/* reportFromVerdict */.MV)(verdict), envelope };
    }
    catch (err) {
        return { report: (0,core_verdict/* reportFromError */.dd)(err, envelope), envelope };
    }
}
/** The workspace or scratch the log's run recorded in its meta line, where it has one. */
function recordedRoot(meta, name) {
    const value = meta[name];
    return typeof value === "string" && value !== "" ? value : undefined;
}
/** The same directory, by its real path where it still exists (a run records real paths). */
function sameDirectory(given, recorded) {
    if ((0,external_node_path_.resolve)(given) === recorded)
        return true;
    try {
        return (0,external_node_fs_.realpathSync)(given) === recorded;
    }
    catch {
        return false;
    }
}
/** A root as given, or as the log recorded it; given and recorded differently is a refusal. */
function settled(name, given, recorded, logPath) {
    if (given === undefined)
        return recorded;
    if (recorded === undefined)
        return given;
    if (sameDirectory(given, recorded))
        return recorded;
    throw new errors/* Refusal */.P_("CHECK_OPTIONS_CONFLICT", `--${name} ${given} differs from the ${name} the log's run recorded (${recorded})`, {
        file: logPath,
        line: 1,
        hint: `Leave out --${name}: check reads it from the log's meta line. A log is judged against the roots its run had.`,
    });
}

// EXTERNAL MODULE: ./src/check/options.ts
var options = __nccwpck_require__(9066);
// EXTERNAL MODULE: ./src/core/log-reader.ts
var log_reader = __nccwpck_require__(3477);
// EXTERNAL MODULE: ./src/check/output.ts
var output = __nccwpck_require__(8403);
;// CONCATENATED MODULE: ./src/check/result.ts
/**
 * The result file: how `run` and `check` tell the program that started them how they ended, as
 * typed JSON, when it asks for one through ENVELOPE_GATE_RESULT_FILE (internal: the Action asks,
 * src/action/cli-result.ts reads it; docs/action.md). Written once, at the end, whole (a temporary
 * file renamed into place). What the commands print on stdout and stderr is the same with it or without.
 */




/** The variable naming the result file (read, then removed from the environment, by the CLI). */
const RESULT_FILE_ENV = "ENVELOPE_GATE_RESULT_FILE";
const CLI_RESULT_VERSION = 1;
/** The result file asked for, taken out of the environment so nothing the command starts inherits it. */
function takeResultFileRequest(env = process.env) {
    const file = env[RESULT_FILE_ENV];
    delete env[RESULT_FILE_ENV];
    return file === undefined || file === "" ? null : (0,external_node_path_.resolve)(file);
}
/** The log file at `path` as it stands: its size, or null when there is no file there. */
function logOnDisk(path) {
    if (path === undefined)
        return null;
    const full = (0,external_node_path_.resolve)(path);
    try {
        const st = (0,external_node_fs_.statSync)(full);
        return st.isFile() ? { path: full, bytes: st.size } : null;
    }
    catch {
        return null;
    }
}
/** How much of the log's end is read for its end line; an end line is far shorter. */
const END_SUFFIX_BYTES = 64 * 1024;
/** The events between meta and end, from the log's end line (its `events` counts meta too); null without one. */
function logEndEvents(path) {
    let text;
    try {
        const fd = (0,external_node_fs_.openSync)(path, "r");
        try {
            const size = (0,external_node_fs_.fstatSync)(fd).size;
            const length = Math.min(size, END_SUFFIX_BYTES);
            const buffer = Buffer.alloc(length);
            const n = (0,external_node_fs_.readSync)(fd, buffer, 0, length, size - length);
            text = buffer.subarray(0, n).toString("utf8");
        }
        finally {
            (0,external_node_fs_.closeSync)(fd);
        }
    }
    catch {
        return null;
    }
    const lines = text.split("\n");
    const last = lines.at(-1) === "" ? lines.at(-2) : undefined;
    if (last === undefined)
        return null;
    return (0,log_reader/* endLineEvents */.fj)(last);
}
/** Writes the result whole: a temporary file beside it, renamed into place. A failure is OUTPUT_UNWRITABLE. */
function writeCliResult(file, result) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
        (0,external_node_fs_.writeFileSync)(temporary, JSON.stringify(result) + "\n", { mode: 0o600, flag: "wx" });
        (0,external_node_fs_.renameSync)(temporary, file);
    }
    catch (err) {
        (0,external_node_fs_.rmSync)(temporary, { force: true });
        throw (0,output/* outputUnwritable */.n)(file, "the result file", err);
    }
}

// EXTERNAL MODULE: ./src/core/rules.ts
var rules = __nccwpck_require__(1688);
;// CONCATENATED MODULE: ./src/cli/format.ts



/** Text for a person: verdict first, one line per distinct violation, then the envelope. */
function formatReportText(report) {
    const out = [];
    if (report.verdict === "error" && report.error) {
        out.push(`envelope-gate: ERROR ${report.error.code} (could not evaluate; this is not a pass)`);
        const where = report.error.file ? `${report.error.file}${report.error.line ? `:${report.error.line}` : ""}` : undefined;
        out.push(`  ${report.error.message}`);
        if (where && !report.error.message.startsWith(where))
            out.push(`  at ${where}`);
        if (report.error.hint)
            out.push(`  what to do: ${report.error.hint}`);
    }
    else {
        out.push(verdictLine(report));
        // An id holds what the run chose (a key, a path): escape sequences, carriage returns and bidi
        // characters are shown as \u{XXXX}, so one id cannot erase or reorder the line of another.
        const ids = report.violations.map((v) => (0,markdown/* plainText */.wh)(v.id));
        const width = Math.min(80, Math.max(0, ...ids.map((id) => id.length)));
        report.violations.forEach((v, i) => {
            out.push(`  ${ids[i].padEnd(width)}  first at line ${v.first_line}, ${v.count} time${v.count === 1 ? "" : "s"}`);
        });
        // No envelope allows a container engine: what to do instead, once.
        if (report.violations.some((v) => v.rule === "docker_refused"))
            out.push(`  what to do (docker_refused): ${rules/* DOCKER_HINT */.ph}`);
    }
    if (report.envelope_id !== null)
        out.push(`envelope: ${report.envelope_id} ${report.envelope_hash ?? ""}`.trimEnd());
    if (report.log) {
        out.push(`run: ${report.log.run_id} on ${report.log.runner}, exit code ${report.log.exit_code ?? "none (signal)"}`);
        // What watched the run, always: a reviewer must see a partial observation without asking.
        const observers = Array.isArray(report.log.observers) ? report.log.observers.join(" + ") : "unknown";
        const network = report.log.network_enforced === true ? "enforced" : report.log.network_enforced === false ? "not enforced" : "unknown";
        out.push(`observed by: ${observers}; network: ${network}; jail: ${report.log.jail !== null ? "yes" : "none recorded"}`);
        const viaSets = report.log.via_sets ?? [];
        if (viaSets.length > 0)
            out.push(`allowed through host sets: ${viaSets.map((h) => `${h.host} (via ${h.set})`).join(", ")}`);
        if (report.log.audit) {
            out.push("recorded in audit mode (run --audit): every host was let out through the recording proxy; judged against the envelope like any other log");
        }
    }
    return out.join("\n") + "\n";
}

// EXTERNAL MODULE: ./src/core/version.ts
var version = __nccwpck_require__(3323);
;// CONCATENATED MODULE: ./src/cli/main.ts
/** The command line: one call of `main` per invocation; src/cli/index.ts is the program that calls it. */














const USAGE = `${version/* PRODUCT */.A}
usage:
  envelope-gate hash <envelope.json>
  envelope-gate verify --envelope E [--sha256 F]
  envelope-gate check  --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  envelope-gate run    --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
  envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  envelope-gate app    [start | pause --reason TEXT | resume | status | promote --installation N | demote --installation N | manifest --url URL | setup --name NAME --webhook-url URL]
  envelope-gate app --help     the App's commands and every setting with its default (also: app <command> --help)
  envelope-gate --version      prints "${version/* PRODUCT */.A}" (also: -V, version)

exit status: 0 pass, 1 violations, 2 usage, 3 could not evaluate
every command answers --help (or -h) with its own usage`;
/** Each subcommand's usage, printed on stdout with exit 0 for `<command> --help` or `-h`. */
const COMMAND_HELP = {
    hash: `usage: envelope-gate hash <envelope.json>
  Prints the envelope's digest line (sha256sum's format), for envelope.json.sha256.
  A file that is not a valid envelope still gets its digest (exit 0), with a warning on stderr
  naming the problem (ENVELOPE_INVALID), which verify and check would refuse it for.`,
    verify: `usage: envelope-gate verify --envelope E [--sha256 F]
  Checks the envelope against its pinned digest (F, default E.sha256) and its schema.`,
    check: `usage: envelope-gate check --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  Judges the observer log L against the pinned envelope E.
  --workspace, --scratch  default: the ones the log's run recorded (its meta line); given and
                          different from those, check refuses (CHECK_OPTIONS_CONFLICT)
  --format                text (default) or json (the contract's report)
  exit status: 0 pass, 1 violations, 3 could not evaluate`,
    run: `usage: envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  Runs CMD jailed and observed under the pinned envelope E, writing the log L.
  --workspace DIR   default: the current directory
  --scratch DIR     default: a fresh directory $TMPDIR/envelope-gate/<run id> (/tmp when TMPDIR
                    is unset), removed after the run unless --keep-scratch (a scratch you give
                    is never removed); the command sees it at its own path, writable when
                    allowed_roots lists \${SCRATCH}
  --node-only       record with the Node hooks only (no process observer)
  --audit           jailed and recorded as usual, but every host is let out through the
                    recording egress proxy (HTTP_PROXY and the other proxy keys are set);
                    meta says "audit": true, and check judges the log like any other
  --recorder R      the process recorder: auto (default; the eBPF recorder when it can start,
                    else strace, said on stderr), ebpf (refuses when it cannot start: needs
                    root or passwordless sudo), strace. Default from ENVELOPE_GATE_RECORDER
  On stderr it says when the jail is up and the command has started ("the jail is up, running
  CMD (recorder: R)"), then, after the command, which of your environment keys the command did
  not get, and ends with one line: the log, the number of events, and the check to run next. On a
  terminal it shows the events so far while the command runs.
  exit status: the command's, or 3 if the run could not be observed`,
    suggest: `usage: envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
       envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  Proposes the envelope the recorded runs needed (from E, or from nothing), on stdout or into OUT.
  Each entry says what it covers, how often it was seen, where first, and the program that read,
  wrote, called, reached or started it. When a run's command failed, the withheld keys a non-Node
  program of it may have needed (python: PYTHONPATH, go: GOCACHE, any: HOME, ...) are proposed
  apart, marked unobserved: such programs' reads cannot be seen. Never proposed, listed apart with
  why (- lines): a key that names a credential or carries one (GIT_ASKPASS, GIT_CONFIG_*, *_LOGIN),
  names the machine or the run (RUNNER_NAME, HOSTNAME, GITHUB_RUN_ID), controls a program
  (NODE_OPTIONS, LD_*, GIT_SSH_COMMAND) or is not printable ASCII; a family covering such a key; a
  root under the system's directories (/usr, /etc, /opt, /lib*, /var/lib), the tool cache or another
  program's install directory, or one the jail refused in a run that exited 0.
  --run           first records one run of CMD under E (as run does: its stderr lines, the withheld
                  keys and the log/events/exit line, come first), then suggests from its log, from E
  --keep-scratch  with --run: keep the scratch the run chose (by default it is removed after the
                  run, as run does; a scratch you give is never removed)
  --audit         with --run: record the run as run --audit does (every host let out through the
                  recording proxy, meta says "audit": true), then suggest from that log`,
};
/** Whether the command's own arguments (before any `--`) ask for its usage. */
function wantsHelp(args) {
    const dashes = args.indexOf("--");
    const own = dashes === -1 ? args : args.slice(0, dashes);
    return own.includes("--help") || own.includes("-h");
}
/** A command line the CLI does not accept: exit status 2 with the usage. */
class UsageError extends Error {
}
function usage(message) {
    throw new UsageError(message);
}
function absolute(path) {
    return path === undefined ? undefined : (0,external_node_path_.resolve)(path);
}
function parseHash(args) {
    if (args.length !== 1)
        usage("hash takes exactly one envelope file");
    return args[0];
}
async function hash(args) {
    const file = parseHash(args);
    let bytes;
    try {
        bytes = await (0,promises_.readFile)(file);
    }
    catch (err) {
        const code = (0,errors/* errnoOf */.UQ)(err) === "ENOENT" ? "ENVELOPE_MISSING" : "ENVELOPE_UNREADABLE";
        throw new errors/* Refusal */.P_(code, `envelope ${file} cannot be read (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, { file });
    }
    await (0,output/* writeStdout */.j)((0,core_envelope/* formatDigestLine */.sv)(bytes, (0,external_node_path_.basename)(file)), "the digest line");
    warnIfNotAnEnvelope(bytes, file);
    return core_verdict/* EXIT_CODES */.ai.pass;
}
/**
 * hash digests bytes, so it still prints the digest of a file that is no valid envelope (one being
 * drafted), but says on stderr what `verify` and `check` will refuse it for. Exit status unchanged.
 */
function warnIfNotAnEnvelope(bytes, file) {
    try {
        (0,core_envelope/* loadEnvelope */.BC)(bytes, file);
    }
    catch (err) {
        if (!(err instanceof errors/* Refusal */.P_) || err.code !== "ENVELOPE_INVALID")
            throw err;
        const lines = [`envelope-gate: warning: ${file} is not a valid envelope (ENVELOPE_INVALID): ${err.message}`];
        if (err.hint !== undefined)
            lines.push(`  what to do: ${err.hint}`);
        process.stderr.write(lines.map((l) => (0,markdown/* plainText */.wh)(l)).join("\n") + "\n");
    }
}
function parseVerify(args) {
    const { values } = (0,external_node_util_.parseArgs)({
        args,
        options: { envelope: { type: "string" }, sha256: { type: "string" } },
        strict: true,
        allowPositionals: false,
    });
    if (!values.envelope)
        usage("verify needs --envelope");
    return { envelope: values.envelope, sha256: values.sha256 };
}
async function verify(args) {
    const values = parseVerify(args);
    const loaded = await (0,files/* readVerifiedEnvelope */.pO)(values.envelope, values.sha256);
    await (0,output/* writeStdout */.j)(`envelope-gate: OK ${loaded.envelope.envelope_id} ${loaded.hash}\n`, "the verification");
    return core_verdict/* EXIT_CODES */.ai.pass;
}
function parseCheck(args, said) {
    const { values } = (0,external_node_util_.parseArgs)({
        args,
        options: { ...options/* ENVELOPE_LOG_OPTIONS */.B, format: { type: "string", default: "text" } },
        strict: true,
        allowPositionals: false,
    });
    said.observer = values.observer;
    if (!values.envelope)
        usage("check needs --envelope");
    if (!values.observer)
        usage("check needs --observer");
    if (values.format !== "text" && values.format !== "json")
        usage("--format is text or json");
    return { ...values, envelope: values.envelope, observer: values.observer };
}
async function check(args, said) {
    const values = parseCheck(args, said);
    const { report } = await runCheck({
        envelopePath: values.envelope,
        digestPath: values.sha256,
        logPath: values.observer,
        workspace: absolute(values.workspace),
        scratch: absolute(values.scratch),
    });
    said.report = report;
    await (0,output/* writeStdout */.j)(values.format === "json" ? JSON.stringify({ ...report, envelope_gate_version: version/* VERSION */.x }) + "\n" : formatReportText(report), "the check report");
    return (0,core_verdict/* exitCodeFor */.Rr)(report.verdict);
}
async function run(args, said) {
    const { runCommand } = await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376));
    return runCommand(args, usage, (observer) => {
        said.observer = observer;
    });
}
/** suggest's flags, and with --run the run it records first (run's, with `--audit` meaning what it means there). */
async function parseSuggest(args) {
    const dashes = args.indexOf("--");
    const own = dashes === -1 ? args : args.slice(0, dashes);
    const command = dashes === -1 ? [] : args.slice(dashes + 1);
    const { values } = (0,external_node_util_.parseArgs)({
        args: own,
        options: {
            observer: { type: "string", multiple: true },
            from: { type: "string" },
            sha256: { type: "string" },
            write: { type: "string" },
            run: { type: "boolean", default: false },
            envelope: { type: "string" },
            workspace: { type: "string" },
            scratch: { type: "string" },
            "keep-scratch": options/* RUN_ONLY_OPTIONS */.a["keep-scratch"],
            audit: options/* RUN_ONLY_OPTIONS */.a.audit,
        },
        strict: true,
        allowPositionals: false,
    });
    const logs = values.observer ?? [];
    let recorded = null;
    if (values.run === true) {
        if (!values.envelope || logs.length !== 1 || command.length === 0)
            usage("suggest --run needs --envelope E, one --observer L and -- CMD [ARGS...]");
        recorded = {
            envelope: values.envelope,
            sha256: values.sha256,
            observer: logs[0],
            workspace: values.workspace,
            scratch: values.scratch,
            nodeOnly: false,
            audit: values.audit === true,
            keepScratch: values["keep-scratch"] === true,
            command,
            next: false,
        };
    }
    else if (command.length > 0 || values.envelope !== undefined || values["keep-scratch"] === true || values.audit === true) {
        usage("suggest takes -- CMD, --envelope, --keep-scratch and --audit only with --run");
    }
    if (logs.length === 0)
        usage("suggest needs at least one --observer log");
    return { ...values, logs, recorded };
}
async function suggest(args) {
    // The --run form records one run first (under --envelope, which it then widens), then suggests.
    const values = await parseSuggest(args);
    let from = values.from;
    if (values.recorded !== null) {
        // run's own closing lines (withheld keys; log, events, exit) come first, and a scratch the
        // run chose is removed unless --keep-scratch: the log keeps what suggest reads.
        const { runAndReport } = await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376));
        await runAndReport(values.recorded);
        from = values.recorded.envelope;
    }
    const { suggestCommand } = await Promise.all(/* import() */[__nccwpck_require__.e(85), __nccwpck_require__.e(138)]).then(__nccwpck_require__.bind(__nccwpck_require__, 8138));
    await (0,output/* writeStdout */.j)(await suggestCommand({
        logs: values.logs,
        from,
        fromDigest: values.sha256,
        write: values.write,
        workspace: values.workspace,
        scratch: values.scratch,
    }), "the suggestion");
    return core_verdict/* EXIT_CODES */.ai.pass;
}
async function app(args) {
    const { appCommand } = await Promise.all(/* import() */[__nccwpck_require__.e(68), __nccwpck_require__.e(85), __nccwpck_require__.e(378)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6378));
    return appCommand(args, usage);
}
const COMMANDS = { hash, verify, check, run, suggest, app };
/** Each command's parser: what the command itself parses its arguments with, here run alone. */
const PARSERS = {
    hash: async (args) => parseHash(args),
    verify: async (args) => parseVerify(args),
    check: async (args) => parseCheck(args, {}),
    run: async (args) => (await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376))).parseRunArgs(args, usage),
    suggest: parseSuggest,
    app: async (args) => (await Promise.all(/* import() */[__nccwpck_require__.e(68), __nccwpck_require__.e(85), __nccwpck_require__.e(378)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6378))).parseAppArgs(args, usage),
};
/**
 * Whether the CLI accepts a command line (`argv` without the program), running nothing and reading
 * no file: resolves with the command's name, or rejects with a UsageError or parseArgs's
 * ERR_PARSE_ARGS_* error, exactly where main would exit 2. The docs' command lines are held to it.
 */
async function parseCommandLine(argv) {
    const [name, ...rest] = argv;
    if (name === undefined || name === "--help" || name === "-h" || name === "help")
        return "help";
    const parse = PARSERS[name];
    if (parse === undefined)
        usage(`unknown command "${name}"`);
    if (COMMAND_HELP[name] !== undefined && wantsHelp(rest))
        return name;
    await parse(rest);
    return name;
}
async function main(argv) {
    // Asked for by the Action (internal, docs/action.md): taken out of the environment before anything runs.
    const resultFile = takeResultFileRequest();
    const [name, ...rest] = argv;
    if (name === "--version" || name === "-V" || name === "version") {
        process.stdout.write(`${version/* PRODUCT */.A}\n`);
        return core_verdict/* EXIT_CODES */.ai.pass;
    }
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
        process.stdout.write(USAGE + "\n");
        return name === undefined ? core_verdict/* EXIT_CODES */.ai.usage : core_verdict/* EXIT_CODES */.ai.pass;
    }
    const command = COMMANDS[name];
    const help = COMMAND_HELP[name];
    if (help !== undefined && wantsHelp(rest)) {
        process.stdout.write(help + "\n");
        return core_verdict/* EXIT_CODES */.ai.pass;
    }
    const said = {};
    let ended;
    try {
        if (!command)
            usage(`unknown command "${name}"`);
        ended = { exitStatus: await command(rest, said), outcome: "completed", error: null };
    }
    catch (err) {
        if (err instanceof UsageError || (0,errors/* errnoOf */.UQ)(err)?.startsWith("ERR_PARSE_ARGS")) {
            process.stderr.write(`envelope-gate: ${err.message}\n${USAGE}\n`);
            ended = { exitStatus: core_verdict/* EXIT_CODES */.ai.usage, outcome: "usage", error: null };
        }
        else {
            const report = (0,core_verdict/* reportFromError */.dd)(err, null);
            process.stderr.write(formatReportText(report));
            ended = { exitStatus: core_verdict/* EXIT_CODES */.ai.error, outcome: "refused", error: report.error };
        }
    }
    if (resultFile !== null && (name === "run" || name === "check"))
        return reportResult(resultFile, name, said, ended);
    return ended.exitStatus;
}
/**
 * Writes the result file for run or check (src/check/result.ts). One that cannot be written is said
 * as any refusal is, and the exit status is 3: the caller that asked for it refuses without it.
 */
function reportResult(file, name, said, ended) {
    const log = logOnDisk(said.observer);
    // check's error verdict is a refusal as a thrown error is: its error, exit status 3.
    const report = said.report ?? null;
    const how = report?.verdict === "error" ? { outcome: "refused", error: report.error } : ended;
    const events = how.outcome !== "completed" ? null : report !== null ? report.events : log !== null ? logEndEvents(log.path) : null;
    const result = {
        version: 1,
        command: name,
        outcome: how.outcome,
        exit_status: ended.exitStatus,
        error: how.error,
        log,
        events,
        verdict: name === "run" || how.outcome === "usage" ? null : how.outcome === "refused" ? "error" : (report?.verdict ?? null),
    };
    try {
        writeCliResult(file, result);
    }
    catch (err) {
        process.stderr.write(formatReportText((0,core_verdict/* reportFromError */.dd)(err, null)));
        return core_verdict/* EXIT_CODES */.ai.error;
    }
    return ended.exitStatus;
}


/***/ }),

/***/ 5275:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Zj: () => (/* binding */ isContainerEngineSocket),
/* harmony export */   ph: () => (/* binding */ DOCKER_HINT),
/* harmony export */   uh: () => (/* binding */ isContainerEngine)
/* harmony export */ });
/* unused harmony exports CONTAINER_ENGINE_SOCKETS, DOCKER_PORTS */
/**
 * Container engines (Docker, Podman, containerd, BuildKit): how a host event names one. No
 * envelope allows reaching one (rules.ts judgeHost: docker_refused), the process recorder records
 * every connect to one's socket name (observer/strace.ts), and `suggest` never proposes one.
 * Kept apart from the rules so the recorder's bundle needs nothing else.
 */
/**
 * The file names of the sockets a container engine listens on: Docker's (and its Windows named
 * pipe, `//./pipe/docker_engine`), Podman's, containerd's and BuildKit's. Rootless daemons listen
 * under `/run/user/<uid>/` (`docker.sock`, `podman/podman.sock`): the same names.
 */
const CONTAINER_ENGINE_SOCKETS = new Set([
    "docker.sock",
    "podman.sock",
    "containerd.sock",
    "buildkitd.sock",
    "docker_engine",
]);
/** The Docker daemon's TCP ports: plain (2375) and TLS (2376). */
const DOCKER_PORTS = new Set([2375, 2376]);
/** A unix socket path (no `unix:`) whose file name is a container engine's socket (CONTAINER_ENGINE_SOCKETS). */
function isContainerEngineSocket(path) {
    return CONTAINER_ENGINE_SOCKETS.has(path.slice(path.lastIndexOf("/") + 1));
}
/**
 * A container engine reached: a unix socket named as one's (`host` as hostName gives it, with
 * `unix:`), or a Docker daemon port on any host. No envelope allows it (docker_refused), and
 * `suggest` never proposes it.
 */
function isContainerEngine(host, port) {
    if (host.startsWith("unix:"))
        return isContainerEngineSocket(host.slice("unix:".length));
    return port !== null && DOCKER_PORTS.has(port);
}
/**
 * What to do about a docker_refused violation: said wherever the violation is (check's text,
 * the annotation, the SARIF rule's help).
 */
const DOCKER_HINT = "Docker is refused in the jail (its socket is root on the host). Declare the service the container would provide and start it as a job service (`services:` in the workflow) — see docs/authoring.md#suites-with-services — or run the containers outside the gated command.";


/***/ }),

/***/ 6504:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $3: () => (/* binding */ frameMessage),
/* harmony export */   $9: () => (/* binding */ DNS_TYPE),
/* harmony export */   AS: () => (/* binding */ addressBytes),
/* harmony export */   Bo: () => (/* binding */ buildAnswer),
/* harmony export */   KK: () => (/* binding */ RCODE),
/* harmony export */   dT: () => (/* binding */ buildError),
/* harmony export */   mA: () => (/* binding */ parseQuery),
/* harmony export */   o0: () => (/* binding */ DnsFrameReader)
/* harmony export */ });
/* unused harmony exports QUERY_FAILURE, UDP_MESSAGE_LIMIT, TCP_MESSAGE_LIMIT, DnsFrameError */
/**
 * DNS messages on the wire, for the stub resolver the jailed command's queries reach: read a
 * query, build its answer or an error, frame messages over TCP. RFC 1035 (4.1.1-4.1.4), RFC 3596
 * (AAAA), RFC 6891 (an OPT record in a query is accepted and ignored; answers carry none), RFC 7766
 * (2-byte length framing). Pure: bytes in, bytes out.
 *
 * The resolver records every name it is asked for, so parseQuery refuses any question whose name
 * could be written down in two ways (a '.' or a non-printable byte inside a label) and any message
 * with more in it than one question and an optional OPT record.
 */
const DNS_TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, OPT: 41, ANY: 255 };
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };
/** Why parseQuery refused a message: its `reason`, one per rule. */
const QUERY_FAILURE = {
    SHORT_HEADER: "shorter than the 12-byte header",
    // Answering a response, even with FORMERR, could start a loop between two servers: drop it.
    RESPONSE: "QR is set: a response, not a query",
    QDCOUNT: "QDCOUNT is not 1",
    ANCOUNT: "ANCOUNT is not 0",
    NSCOUNT: "NSCOUNT is not 0",
    ARCOUNT: "ARCOUNT is neither 0 nor 1",
    NAME_TRUNCATED: "the question's name runs past the end of the message",
    NAME_POINTER: "a compression pointer in the question's name",
    NAME_RESERVED_LABEL_TYPE: "a label of reserved type (top bits 01 or 10) in the question's name",
    NAME_TOO_LONG: "the question's name is longer than 255 bytes",
    NAME_UNPRINTABLE: "a byte outside printable ASCII (0x21-0x7e) in a label of the question's name",
    NAME_DOT_IN_LABEL: "a '.' inside a label of the question's name",
    QUESTION_TRUNCATED: "the question's type and class run past the end of the message",
    ADDITIONAL_NOT_ROOT: "the additional record's name is not the root",
    ADDITIONAL_NOT_OPT: "the additional record is not an OPT record",
    ADDITIONAL_TRUNCATED: "the additional record runs past the end of the message",
    TRAILING_BYTES: "bytes after the declared sections",
};
const HEADER_BYTES = 12;
const MAX_NAME_BYTES = 255;
const LABEL_TYPE_MASK = 0xc0;
const QR = 0x8000;
const TC = 0x0200;
const RD = 0x0100;
const RA = 0x0080;
/** RFC 1035 4.2.1: the most a UDP answer may hold without EDNS (and we never send OPT back). */
const UDP_MESSAGE_LIMIT = 512;
const TCP_MESSAGE_LIMIT = 65535;
/** Reads one query. Never throws: every length is checked against the message before it is read. */
function parseQuery(message) {
    if (message.length < HEADER_BYTES) {
        return { ok: false, id: message.length < 2 ? null : message.readUInt16BE(0), reason: QUERY_FAILURE.SHORT_HEADER };
    }
    const id = message.readUInt16BE(0);
    const fail = (reason) => ({ ok: false, id, reason });
    const flags = message.readUInt16BE(2);
    if ((flags & QR) !== 0)
        return fail(QUERY_FAILURE.RESPONSE);
    if (message.readUInt16BE(4) !== 1)
        return fail(QUERY_FAILURE.QDCOUNT);
    if (message.readUInt16BE(6) !== 0)
        return fail(QUERY_FAILURE.ANCOUNT);
    if (message.readUInt16BE(8) !== 0)
        return fail(QUERY_FAILURE.NSCOUNT);
    const additionalCount = message.readUInt16BE(10);
    if (additionalCount > 1)
        return fail(QUERY_FAILURE.ARCOUNT);
    const name = readQuestionName(message, HEADER_BYTES);
    if (name.failure !== undefined)
        return fail(name.failure);
    if (name.end + 4 > message.length)
        return fail(QUERY_FAILURE.QUESTION_TRUNCATED);
    const questionEnd = name.end + 4;
    let end = questionEnd;
    if (additionalCount === 1) {
        const opt = skipOptRecord(message, questionEnd);
        if (typeof opt === "string")
            return fail(opt);
        end = opt;
    }
    if (end !== message.length)
        return fail(QUERY_FAILURE.TRAILING_BYTES);
    return {
        ok: true,
        query: {
            id,
            rd: (flags & RD) !== 0,
            opcode: (flags >> 11) & 0x0f,
            name: name.text,
            type: message.readUInt16BE(name.end),
            qclass: message.readUInt16BE(name.end + 2),
            questionBytes: Buffer.from(message.subarray(HEADER_BYTES, questionEnd)),
        },
    };
}
/** The uncompressed name at `start`, as lower-cased text, and the offset just past it. */
function readQuestionName(message, start) {
    const labels = [];
    let offset = start;
    for (;;) {
        if (offset >= message.length)
            return { failure: QUERY_FAILURE.NAME_TRUNCATED };
        const lengthByte = message[offset];
        const labelType = lengthByte & LABEL_TYPE_MASK;
        if (labelType === LABEL_TYPE_MASK)
            return { failure: QUERY_FAILURE.NAME_POINTER };
        if (labelType !== 0)
            return { failure: QUERY_FAILURE.NAME_RESERVED_LABEL_TYPE };
        if (lengthByte === 0)
            return { text: labels.join("."), end: offset + 1 };
        const labelEnd = offset + 1 + lengthByte;
        // The encoded name counts its length bytes and the root's zero byte still to come.
        if (labelEnd + 1 - start > MAX_NAME_BYTES)
            return { failure: QUERY_FAILURE.NAME_TOO_LONG };
        if (labelEnd > message.length)
            return { failure: QUERY_FAILURE.NAME_TRUNCATED };
        let label = "";
        for (let i = offset + 1; i < labelEnd; i++) {
            const byte = message[i];
            if (byte < 0x21 || byte > 0x7e)
                return { failure: QUERY_FAILURE.NAME_UNPRINTABLE };
            if (byte === 0x2e)
                return { failure: QUERY_FAILURE.NAME_DOT_IN_LABEL };
            label += String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
        }
        labels.push(label);
        offset = labelEnd;
    }
}
/** Skips an EDNS OPT record (RFC 6891 6.1.2) at `offset`: the offset past it, or why it is not one. */
function skipOptRecord(message, offset) {
    if (offset >= message.length)
        return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
    if (message[offset] !== 0)
        return QUERY_FAILURE.ADDITIONAL_NOT_ROOT;
    // TYPE, CLASS (the sender's UDP size), TTL (extended RCODE, version, flags), RDLENGTH.
    const fixedEnd = offset + 1 + 10;
    if (fixedEnd > message.length)
        return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
    if (message.readUInt16BE(offset + 1) !== DNS_TYPE.OPT)
        return QUERY_FAILURE.ADDITIONAL_NOT_OPT;
    const end = fixedEnd + message.readUInt16BE(fixedEnd - 2);
    return end > message.length ? QUERY_FAILURE.ADDITIONAL_TRUNCATED : end;
}
/** The response to `query`: QR=1, same id and opcode, RD echoed, RA=1, AA=0, the question echoed, answers per `spec`. */
function buildAnswer(query, spec) {
    checkInteger(query.id, 0, 0xffff, "query id");
    checkInteger(query.opcode, 0, 0x0f, "opcode");
    checkInteger(spec.rcode, 0, 0x0f, "rcode");
    const ttl = spec.ttl ?? 0;
    // RFC 2181 8: a TTL with the top bit set is read as 0.
    checkInteger(ttl, 0, 0x7fffffff, "ttl");
    const limit = spec.maxMessageBytes ?? UDP_MESSAGE_LIMIT;
    checkInteger(limit, UDP_MESSAGE_LIMIT, TCP_MESSAGE_LIMIT, "maxMessageBytes");
    const addresses = spec.addresses ?? [];
    if (addresses.length > 0 && spec.rcode !== RCODE.NOERROR) {
        throw new RangeError(`addresses come with rcode NOERROR only, not ${spec.rcode}`);
    }
    const rdatas = addresses.flatMap((text) => {
        const bytes = addressBytes(text);
        if (bytes === null)
            throw new TypeError(`not an IPv4 or IPv6 address: ${JSON.stringify(text)}`);
        const family = bytes.length === 4 ? DNS_TYPE.A : DNS_TYPE.AAAA;
        return family === query.type ? [bytes] : [];
    });
    const base = HEADER_BYTES + query.questionBytes.length;
    // Name (a pointer), TYPE, CLASS, TTL, RDLENGTH, then the rdata; all records of one type are one size.
    const recordBytes = rdatas.length === 0 ? 0 : 12 + rdatas[0].length;
    const fitting = recordBytes === 0 ? 0 : Math.min(rdatas.length, Math.max(0, Math.floor((limit - base) / recordBytes)));
    const truncated = fitting < rdatas.length;
    const out = Buffer.alloc(base + fitting * recordBytes);
    out.writeUInt16BE(query.id, 0);
    out.writeUInt16BE(QR | (query.opcode << 11) | (truncated ? TC : 0) | (query.rd ? RD : 0) | RA | spec.rcode, 2);
    out.writeUInt16BE(1, 4);
    out.writeUInt16BE(fitting, 6);
    query.questionBytes.copy(out, HEADER_BYTES);
    let offset = base;
    for (const rdata of rdatas.slice(0, fitting)) {
        out.writeUInt16BE(0xc000 | HEADER_BYTES, offset);
        out.writeUInt16BE(query.type, offset + 2);
        out.writeUInt16BE(query.qclass, offset + 4);
        out.writeUInt32BE(ttl, offset + 6);
        out.writeUInt16BE(rdata.length, offset + 10);
        rdata.copy(out, offset + 12);
        offset += recordBytes;
    }
    return out;
}
/** A header-only error response (FORMERR/NOTIMP/REFUSED/SERVFAIL) for a message that could not be parsed as a query; id 0 when unknown. QDCOUNT 0. */
function buildError(id, rcode) {
    checkInteger(id ?? 0, 0, 0xffff, "id");
    checkInteger(rcode, 0, 0x0f, "rcode");
    const out = Buffer.alloc(HEADER_BYTES);
    out.writeUInt16BE(id ?? 0, 0);
    out.writeUInt16BE(QR | RA | rcode, 2);
    return out;
}
function checkInteger(value, min, max, what) {
    if (!Number.isInteger(value) || value < min || value > max)
        throw new RangeError(`${what} must be an integer from ${min} to ${max}, not ${value}`);
}
/**
 * An address's bytes: 4 for IPv4 (dotted quad, no leading zeros), 16 for IPv6 (RFC 4291 2.2,
 * with `::` and a trailing dotted quad); null for anything else, a zone (`%eth0`) included: it
 * means nothing in an answer. (node:net's isIPv4/isIPv6 would do, but core does no network I/O
 * and imports no node:net; the tests hold this to them.)
 */
function addressBytes(text) {
    return ipv4Bytes(text) ?? ipv6Bytes(text);
}
const IPV4_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;
function ipv4Bytes(text) {
    const parts = text.split(".");
    if (parts.length !== 4)
        return null;
    const bytes = Buffer.alloc(4);
    for (const [i, part] of parts.entries()) {
        if (!IPV4_PART.test(part) || Number(part) > 255)
            return null;
        bytes[i] = Number(part);
    }
    return bytes;
}
function ipv6Bytes(text) {
    const halves = text.split("::");
    if (halves.length > 2)
        return null;
    const head = ipv6Groups(halves[0], halves.length === 1);
    const tail = halves.length === 2 ? ipv6Groups(halves[1], true) : [];
    if (head === null || tail === null)
        return null;
    // Without `::` all eight groups are written; with it, `::` stands for at least one.
    if (halves.length === 1 ? head.length !== 8 : head.length + tail.length > 7)
        return null;
    const groups = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
    const bytes = Buffer.alloc(16);
    groups.forEach((group, i) => bytes.writeUInt16BE(group, i * 2));
    return bytes;
}
/** The 16-bit groups of one side of `::`; a dotted quad may only end the address (`atEnd`). */
function ipv6Groups(side, atEnd) {
    if (side === "")
        return [];
    const pieces = side.split(":");
    const groups = [];
    for (const [i, piece] of pieces.entries()) {
        if (atEnd && i === pieces.length - 1 && piece.includes(".")) {
            const v4 = ipv4Bytes(piece);
            if (v4 === null)
                return null;
            groups.push(v4.readUInt16BE(0), v4.readUInt16BE(2));
        }
        else if (IPV6_GROUP.test(piece)) {
            groups.push(parseInt(piece, 16));
        }
        else {
            return null;
        }
    }
    return groups;
}
/** A TCP stream that broke RFC 7766's framing: the connection should be closed. */
class DnsFrameError extends Error {
    constructor(message) {
        super(message);
        this.name = "DnsFrameError";
    }
}
/**
 * RFC 7766 framing: feed bytes from a TCP stream, get whole messages back. Throws DnsFrameError on
 * a zero-length frame (and on every push after it). Each frame is copied once into a buffer of its
 * declared size, so a peer that sends a byte at a time costs no more than one that sends it whole.
 */
class DnsFrameReader {
    #lengthPrefix = Buffer.alloc(2);
    #prefixFilled = 0;
    /** The frame being read: its declared length, and the bytes of it received so far (never more is held). */
    #want = null;
    #parts = [];
    #got = 0;
    #broken = false;
    /** Bytes received that are not yet part of a whole message (a partial length prefix included). */
    get pending() {
        return this.#want === null ? this.#prefixFilled : 2 + this.#got;
    }
    push(chunk) {
        if (this.#broken)
            throw new DnsFrameError("the stream already carried a zero-length frame");
        const messages = [];
        let offset = 0;
        while (offset < chunk.length) {
            if (this.#want === null) {
                const taken = chunk.copy(this.#lengthPrefix, this.#prefixFilled, offset, offset + 2 - this.#prefixFilled);
                offset += taken;
                this.#prefixFilled += taken;
                if (this.#prefixFilled < 2)
                    break;
                this.#prefixFilled = 0;
                const length = this.#lengthPrefix.readUInt16BE(0);
                if (length === 0) {
                    this.#broken = true;
                    throw new DnsFrameError("a zero-length frame");
                }
                this.#want = length;
                this.#parts = [];
                this.#got = 0;
            }
            else {
                // Copied out of the chunk (the caller may reuse it), and only what arrived: a declared
                // length is a claim, so a stream that stops after it holds no more than it sent.
                const end = Math.min(chunk.length, offset + (this.#want - this.#got));
                this.#parts.push(Buffer.from(chunk.subarray(offset, end)));
                this.#got += end - offset;
                offset = end;
                if (this.#got === this.#want) {
                    messages.push(this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#want));
                    this.#want = null;
                    this.#parts = [];
                    this.#got = 0;
                }
            }
        }
        return messages;
    }
}
/** `message` with its RFC 7766 2-byte big-endian length in front; throws if it is empty or longer than 65535 bytes. */
function frameMessage(message) {
    if (message.length === 0 || message.length > TCP_MESSAGE_LIMIT) {
        throw new RangeError(`a framed DNS message is 1 to ${TCP_MESSAGE_LIMIT} bytes, not ${message.length}`);
    }
    const out = Buffer.alloc(2 + message.length);
    out.writeUInt16BE(message.length, 0);
    message.copy(out, 2);
    return out;
}


/***/ }),

/***/ 20:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   dU: () => (/* binding */ RUN_IDENTITY_WRAPPER),
/* harmony export */   gL: () => (/* binding */ ENV_SETS),
/* harmony export */   mA: () => (/* binding */ PROXY_ENV_KEYS),
/* harmony export */   z_: () => (/* binding */ isRunIdentityKey)
/* harmony export */ });
/* unused harmony exports RUN_IDENTITY_CANONICAL, RUN_IDENTITY_REMOVED, runEnvironment, commitRunEnvironment */
/**
 * Named key sets for `allowed_env` (`@ci`, `@agents`, `@terminal`): the detection lists that
 * tools read on every start (is this CI? which agent? can I use colour?), most of them unset.
 * Each set is a closed, versioned list of exact keys; none of them names a credential, and a
 * test holds every key to that. Sourced from ci-info 4 (vendors.json and its generic checks)
 * and std-env 4 (providers and agents), the two libraries behind nearly all of these reads.
 */
/** CI and hosting detection: flags and build ids, never tokens. */
const CI = [
    "AC_APPCIRCLE",
    "AC_GIT_PR",
    "AGOLA_GIT_REF",
    "AGOLA_PULL_REQUEST_ID",
    "ALPIC_HOST",
    "APPCENTER_BUILD_ID",
    "APPVEYOR",
    "APPVEYOR_PULL_REQUEST_NUMBER",
    "AWS_APP_ID",
    "BITBUCKET_COMMIT",
    "BITBUCKET_PR_ID",
    "BITRISE_IO",
    "BITRISE_PULL_REQUEST",
    "BUDDY_EXECUTION_PULL_REQUEST_ID",
    "BUDDY_WORKSPACE_ID",
    "BUILDER_OUTPUT",
    "BUILDKITE",
    "BUILDKITE_PULL_REQUEST",
    "BUILD_ID",
    "BUILD_NUMBER",
    "BUILD_REASON",
    "CF_BUILD_ID",
    "CF_PAGES",
    "CF_PULL_REQUEST_ID",
    "CF_PULL_REQUEST_NUMBER",
    "CHANGE_ID",
    "CI",
    "CIRCLECI",
    "CIRCLE_PULL_REQUEST",
    "CIRRUS_CI",
    "CIRRUS_PR",
    "CI_APP_ID",
    "CI_BUILD_EVENT",
    "CI_BUILD_ID",
    "CI_BUILD_NUMBER",
    "CI_MERGE_REQUEST_ID",
    "CI_NAME",
    "CI_PULL_REQUEST_NUMBER",
    "CI_XCODE_PROJECT",
    "CLEAVR",
    "CLOUD_RUN_JOB",
    "CM_BUILD_ID",
    "CM_PULL_REQUEST",
    "CODEBUILD_BUILD_ARN",
    "CODEBUILD_WEBHOOK_EVENT",
    "CODESANDBOX_HOST",
    "CODESANDBOX_SSE",
    "CODESPHERE_APP_ID",
    "CONTINUOUS_INTEGRATION",
    "DENO_DEPLOY",
    "DENO_DEPLOYMENT_ID",
    "DRONE",
    "DRONE_BUILD_EVENT",
    "DSARI",
    "EARTHLY_CI",
    "EAS_BUILD",
    "EO_PAGES_CI",
    "FIREBASE_APP_HOSTING",
    "GERRIT_PROJECT",
    "GITEA_ACTIONS",
    "GITHUB_ACTIONS",
    "GITHUB_EVENT_NAME",
    "GITLAB_CI",
    "GO_PIPELINE_LABEL",
    "HARNESS_BUILD_ID",
    "HUDSON_URL",
    "IS_PULL_REQUEST",
    "JENKINS_URL",
    "K_SERVICE",
    "LAYERCI",
    "LAYERCI_PULL_REQUEST",
    "MAGNUM",
    "NETLIFY",
    "NETLIFY_LOCAL",
    "NEVERCODE",
    "NEVERCODE_PULL_REQUEST",
    "NOW_BUILDER",
    "PROW_JOB_ID",
    "PULL_REQUEST",
    "PULL_REQUEST_NUMBER",
    "RAILWAY_PROJECT_ID",
    "RAILWAY_SERVICE_ID",
    "RELEASE_BUILD_ID",
    "RENDER",
    "SAILCI",
    "SAIL_PULL_REQUEST_NUMBER",
    "SCREWDRIVER",
    "SD_PULL_REQUEST",
    "SEMAPHORE",
    "SHIPPABLE",
    "STACKBLITZ",
    "STORMKIT",
    "STRIDER",
    "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI",
    "TASK_ID",
    "TDDIUM",
    "TEAMCITY_VERSION",
    "TF_BUILD",
    "TRAVIS",
    "TRAVIS_PULL_REQUEST",
    "VELA",
    "VELA_PULL_REQUEST",
    "VERCEL",
    "VERCEL_ENV",
    "VERCEL_GIT_PULL_REQUEST_ID",
    "WORKERS_CI",
    "XCS",
    "ZEABUR",
    "bamboo_planKey",
    "ghprbPullId",
];
/** Coding-agent detection. */
const AGENTS = [
    "AI_AGENT",
    "AUGMENT_AGENT",
    "CLAUDECODE",
    "CLAUDE_CODE",
    "CODEX_SANDBOX",
    "CODEX_THREAD_ID",
    "COPILOT_AGENT",
    "COPILOT_CLI",
    "CURSOR_AGENT",
    "GEMINI_CLI",
    "GOOSE_PROVIDER",
    "JUNIE_DATA",
    "JUNIE_SHIM_PATH",
    "OPENCODE",
    "REPL_ID",
];
/** Terminal, colour and locale. */
const TERMINAL = [
    "COLOR",
    "COLORTERM",
    "COLUMNS",
    "FORCE_COLOR",
    "FORCE_TTY",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "LINES",
    "NODE_DISABLE_COLORS",
    "NO_COLOR",
    "TERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TZ",
];
const ENV_SETS = new Map([
    ["@ci", new Set(CI)],
    ["@agents", new Set(AGENTS)],
    ["@terminal", new Set(TERMINAL)],
]);
/**
 * Run-identity keys: what GitHub sets differently on runner A (a `pull_request` run) and runner B
 * (a `workflow_dispatch` run on the base branch) whatever the machines. PR code that read them
 * could fail on one run and pass on the other on purpose and so manufacture a freeze. The Action
 * hands the jailed runs (the patch's and each property command's) the same environment on both:
 * the keys in RUN_IDENTITY_CANONICAL take values made of the pull request alone (its number,
 * head commit, base and head branch, all read from the API), the keys in RUN_IDENTITY_REMOVED are
 * taken out, and RUN_IDENTITY_WRAPPER stays for the wrapper only (it reads them to hide the files
 * they name).
 */
const RUN_IDENTITY_CANONICAL = (/* unused pure expression or super */ null && ([
    "GITHUB_EVENT_NAME",
    "GITHUB_SHA",
    "GITHUB_REF",
    "GITHUB_REF_NAME",
    "GITHUB_REF_TYPE",
    "GITHUB_REF_PROTECTED",
    "GITHUB_HEAD_REF",
    "GITHUB_BASE_REF",
]));
/** Keys that cannot be made equal on A and B (ids, counters, actors, the workflow's own ref): never in the run. */
const RUN_IDENTITY_REMOVED = [
    "GITHUB_RUN_ID",
    "GITHUB_RUN_NUMBER",
    "GITHUB_RUN_ATTEMPT",
    "GITHUB_JOB",
    "GITHUB_WORKFLOW",
    "GITHUB_WORKFLOW_REF",
    "GITHUB_WORKFLOW_SHA",
    "GITHUB_ACTOR",
    "GITHUB_ACTOR_ID",
    "GITHUB_TRIGGERING_ACTOR",
    "GITHUB_RETENTION_DAYS",
    "GITHUB_ACTION",
    "GITHUB_ACTION_REF",
    "GITHUB_ACTION_REPOSITORY",
    "GITHUB_ACTIONS_ORCHESTRATION_ID",
    "ACTIONS_ORCHESTRATION_ID",
    "RUNNER_TRACKING_ID",
    "RUNNER_DEBUG",
    "ACTIONS_RUNNER_DEBUG",
    "ACTIONS_STEP_DEBUG",
    "INVOCATION_ID",
    "JOURNAL_STREAM",
];
/**
 * The Action's own inputs (`INPUT_<NAME>`): runner B's dispatch gives it `pull-request`, `head-sha`
 * and `dual-run-id` that runner A's run does not have. Never in the run, whatever the envelope lists.
 */
const ACTION_INPUT_PREFIX = "INPUT_";
/**
 * Keys the run wrapper reads to hide what they name (the event payload, the file-command files,
 * the Action's directory; src/observer/runner-layout.ts). They stay in the wrapper's environment,
 * and like the removed keys a pattern or a set never lets them into the run.
 */
const RUN_IDENTITY_WRAPPER = [
    "GITHUB_EVENT_PATH",
    "GITHUB_ACTION_PATH",
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    "GITHUB_STATE",
    "GITHUB_STEP_SUMMARY",
];
const NEVER_BY_PATTERN = new Set([...RUN_IDENTITY_REMOVED, ...RUN_IDENTITY_WRAPPER]);
/**
 * A run-identity key whose value cannot be made equal on A and B. Like a machine key (never-proposed.ts) it is never
 * matched by a pattern or a set (`GITHUB_*` does not allow `GITHUB_RUN_ID`); the Action takes the
 * removed ones out of the run whatever the envelope lists. The canonical keys are not in it: the
 * Action gives them one value on both runners, so `@ci` may still let `GITHUB_EVENT_NAME` in.
 */
function isRunIdentityKey(key) {
    return NEVER_BY_PATTERN.has(key) || key.startsWith(ACTION_INPUT_PREFIX);
}
/**
 * The environment the Action hands the run wrapper for a jailed run of `pull`: the caller's,
 * with the canonical run-identity keys set to values made of the pull request alone and the
 * removed ones (and the Action's own `INPUT_*` keys) taken out. Runner A (a `pull_request` run), runner B (dispatched on the base for
 * this pull request and head) and a plain run (any other trigger) get the same values: what a
 * run sees depends on the pull request it checks, never on how it was started. The envelope's
 * filter then applies in the wrapper as for any other key.
 */
function runEnvironment(caller, _role, pull) {
    const out = {};
    const removed = new Set(RUN_IDENTITY_REMOVED);
    for (const [key, value] of Object.entries(caller)) {
        if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX))
            out[key] = value;
    }
    const canonical = {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_SHA: pull.headSha,
        GITHUB_REF: `refs/pull/${pull.number}/merge`,
        GITHUB_REF_NAME: `${pull.number}/merge`,
        GITHUB_REF_TYPE: "branch",
        GITHUB_REF_PROTECTED: "false",
        GITHUB_HEAD_REF: pull.headRef,
        GITHUB_BASE_REF: pull.baseRef,
    };
    return { ...out, ...canonical };
}
/**
 * The environment for an audit run on a branch commit (a push or a dispatch: no pull request,
 * nothing to compare with another runner): the caller's, with the removed run-identity keys and
 * the Action's own `INPUT_*` keys (its token among them) taken out as for runEnvironment. The
 * canonical keys keep the caller's values, which name the branch and commit truthfully.
 */
function commitRunEnvironment(caller) {
    const removed = new Set(RUN_IDENTITY_REMOVED);
    const out = {};
    for (const [key, value] of Object.entries(caller)) {
        if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX))
            out[key] = value;
    }
    return out;
}
/**
 * The keys the run wrapper itself sets under `network: "allowlist"`, whatever `allowed_env` says
 * (src/observer/egress.ts proxyEnv: the proxy variables pointing at the egress relay, and
 * NODE_USE_ENV_PROXY). Under allowlist their reads are recorded and not judged, from any
 * source, and `suggest` never proposes them; under `deny` they are not set and judged like any key.
 */
const PROXY_ENV_KEYS = new Set([
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "NODE_USE_ENV_PROXY",
]);


/***/ }),

/***/ 1652:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  U4: () => (/* binding */ ROOT_VARIABLE),
  IC: () => (/* binding */ envMatcher),
  oY: () => (/* binding */ expandRoots),
  x8: () => (/* binding */ expandWritableProtected),
  sv: () => (/* binding */ formatDigestLine),
  on: () => (/* binding */ hostPatterns),
  BC: () => (/* binding */ loadEnvelope),
  UC: () => (/* binding */ parseDigestFile),
  J$: () => (/* binding */ readDigestLine),
  fg: () => (/* binding */ sha256Hex),
  Ub: () => (/* binding */ verifyDigest)
});

// UNUSED EXPORTS: envelopeSchema

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: ./schema/envelope.schema.json
const envelope_schema_namespaceObject = {};
;// CONCATENATED MODULE: ./src/core/envelope-validator-generated.js
// Generated by scripts/gen-validators.mjs from schema/envelope.schema.json: do not edit.
/* eslint-disable */
function ucs2length(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  let value;
  while (pos < len) {
    length++;
    value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // high surrogate, and there is a next character
      value = str.charCodeAt(pos);
      if ((value & 0xfc00) === 0xdc00) pos++; // low surrogate
    }
  }
  return length;
}
const validate = validate0;
/* harmony default export */ const envelope_validator_generated = ((/* unused pure expression or super */ null && (validate0)));
const schema0 = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://github.com/envelope-gate/envelope-gate/schema/envelope.schema.json",
  title: "envelope-gate envelope",
  description: "What an agent run may touch. Anything else it touches fails the gate. See docs/formats.md.",
  type: "object",
  additionalProperties: false,
  required: ["envelope_id", "allowed_roots", "allowed_tools", "allowed_env", "allowed_hosts", "network"],
  properties: {
    $schema: { description: "Optional pointer to this schema, for editors. Not part of the policy.", type: "string" },
    envelope_id: {
      description: "A name for this envelope, shown in every check run.",
      type: "string",
      minLength: 1,
      maxLength: 200,
      pattern: "^[^\\u0000-\\u001f]+$",
    },
    allowed_roots: {
      description: "Directories the run may write under. Absolute POSIX paths, or paths starting with ${WORKSPACE} or ${SCRATCH}.",
      type: "array",
      uniqueItems: true,
      items: { type: "string", pattern: "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$" },
    },
    allowed_tools: {
      description: "Agent tool names the run may dispatch.",
      type: "array",
      uniqueItems: true,
      items: { type: "string", minLength: 1, pattern: "^[^\\u0000-\\u001f]+$" },
    },
    allowed_env: {
      description:
        "Environment keys the run may read, and the only keys passed into the run: exact keys; PREFIX* for every key starting with PREFIX (a non-empty prefix; * only at the end); or a named set of detection keys: @ci, @agents, @terminal (docs/formats.md lists them). A pattern or a set never matches a key that names a credential (SECRET, TOKEN, PASSWORD, KEY, AUTH, ...): list such a key exactly.",
      type: "array",
      uniqueItems: true,
      items: { type: "string", minLength: 1, pattern: "^(?:@(?:ci|agents|terminal)|[^=\\u0000*@][^=\\u0000*]*\\*?)$" },
    },
    allowed_hosts: {
      description:
        "Hosts the run may connect to while network is allowlist: lower-case DNS names or IP literals, optional :port; *.example.com matches subdomains only; or a named host set, version 1 (@npm, @pypi, @crates, @go-proxy, @debian, @ubuntu, @github, @node-dist), which stands for the hosts and ports docs/egress.md lists for it.",
      type: "array",
      uniqueItems: true,
      items: {
        type: "string",
        pattern:
          "^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\[[0-9a-f:.]+\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$",
      },
    },
    network: { description: "deny: no outbound connection or lookup at all. allowlist: only allowed_hosts.", enum: ["deny", "allowlist"] },
    allowed_commands: {
      description:
        "Optional. Executables the run may start, by absolute path or bare name. Absent: execs are recorded, not judged. Present: deny by default.",
      type: "array",
      uniqueItems: true,
      items: { type: "string", minLength: 1, pattern: "^[^\\u0000]+$" },
    },
    loopback: {
      description:
        "Optional. local (default): connections and lookups to loopback (127.0.0.0/8, ::1, localhost) inside the run's own network namespace are recorded, not judged (nothing there leaves the run). network: judged like any host.",
      enum: ["local", "network"],
    },
    writable_protected: {
      description:
        "Optional. Protected paths inside the allowed roots (.git, .github, the Action's own files) that the run may write after all, for the rare suite that must: absolute paths, or paths starting with ${WORKSPACE} or ${SCRATCH}. Never a .git itself, its hooks, config, config.worktree, info, modules, worktrees or commondir, nor anything containing them (the workspace, /). See docs/formats.md, Protected paths.",
      type: "array",
      uniqueItems: true,
      items: {
        type: "string",
        pattern: "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$",
        not: { pattern: "(?:^|/)\\.git(?:/(?:hooks|config|config\\.worktree|info|modules|worktrees|commondir)(?:/|$)|/?$)" },
      },
    },
    services: {
      description:
        "Optional. The job's own services the run may reach (a database, a cache): envelope-gate listens at the same address inside the jail and forwards each connection to the real service, recording it. 127.0.0.1:PORT or [::1]:PORT on the runner, localhost:PORT, a service container's name in a container job (postgres:5432), or a unix socket's absolute path. Never a metadata service, SSH, the Docker daemon or a credential agent. Allowed under deny and allowlist alike. See docs/authoring.md#suites-with-services.",
      type: "array",
      uniqueItems: true,
      items: {
        type: "string",
        pattern:
          "^(?:/[^\\u0000]+|\\[[0-9a-f:.]+\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$",
      },
    },
    observation: {
      description:
        "Optional. What must have observed the run. full (default): the process-level observer as well as the Node hooks. node: a log from the Node hooks alone passes (nothing outside Node is seen).",
      enum: ["full", "node"],
    },
  },
};
const func0 = Object.prototype.hasOwnProperty;
const func1 = ucs2length;
const pattern0 = new RegExp("^[^\\u0000-\\u001f]+$", "u");
const pattern1 = new RegExp("^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$", "u");
const pattern3 = new RegExp("^(?:@(?:ci|agents|terminal)|[^=\\u0000*@][^=\\u0000*]*\\*?)$", "u");
const pattern4 = new RegExp(
  "^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\[[0-9a-f:.]+\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$",
  "u",
);
const pattern5 = new RegExp("^[^\\u0000]+$", "u");
const pattern6 = new RegExp("(?:^|/)\\.git(?:/(?:hooks|config|config\\.worktree|info|modules|worktrees|commondir)(?:/|$)|/?$)", "u");
const pattern8 = new RegExp(
  "^(?:/[^\\u0000]+|\\[[0-9a-f:.]+\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$",
  "u",
);
function validate0(data, { instancePath = "", parentData, parentDataProperty, rootData = data } = {}) {
  /*# sourceURL="https://github.com/envelope-gate/envelope-gate/schema/envelope.schema.json" */ let vErrors = null;
  let errors = 0;
  if (data && typeof data == "object" && !Array.isArray(data)) {
    if (data.envelope_id === undefined) {
      const err0 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "envelope_id" },
        message: "must have required property '" + "envelope_id" + "'",
      };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.allowed_roots === undefined) {
      const err1 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "allowed_roots" },
        message: "must have required property '" + "allowed_roots" + "'",
      };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.allowed_tools === undefined) {
      const err2 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "allowed_tools" },
        message: "must have required property '" + "allowed_tools" + "'",
      };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.allowed_env === undefined) {
      const err3 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "allowed_env" },
        message: "must have required property '" + "allowed_env" + "'",
      };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.allowed_hosts === undefined) {
      const err4 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "allowed_hosts" },
        message: "must have required property '" + "allowed_hosts" + "'",
      };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    if (data.network === undefined) {
      const err5 = {
        instancePath,
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: "network" },
        message: "must have required property '" + "network" + "'",
      };
      if (vErrors === null) {
        vErrors = [err5];
      } else {
        vErrors.push(err5);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func0.call(schema0.properties, key0)) {
        const err6 = {
          instancePath,
          schemaPath: "#/additionalProperties",
          keyword: "additionalProperties",
          params: { additionalProperty: key0 },
          message: "must NOT have additional properties",
        };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.$schema !== undefined) {
      if (typeof data.$schema !== "string") {
        const err7 = {
          instancePath: instancePath + "/$schema",
          schemaPath: "#/properties/%24schema/type",
          keyword: "type",
          params: { type: "string" },
          message: "must be string",
        };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.envelope_id !== undefined) {
      let data1 = data.envelope_id;
      if (typeof data1 === "string") {
        if (func1(data1) > 200) {
          const err8 = {
            instancePath: instancePath + "/envelope_id",
            schemaPath: "#/properties/envelope_id/maxLength",
            keyword: "maxLength",
            params: { limit: 200 },
            message: "must NOT have more than 200 characters",
          };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
        if (func1(data1) < 1) {
          const err9 = {
            instancePath: instancePath + "/envelope_id",
            schemaPath: "#/properties/envelope_id/minLength",
            keyword: "minLength",
            params: { limit: 1 },
            message: "must NOT have fewer than 1 characters",
          };
          if (vErrors === null) {
            vErrors = [err9];
          } else {
            vErrors.push(err9);
          }
          errors++;
        }
        if (!pattern0.test(data1)) {
          const err10 = {
            instancePath: instancePath + "/envelope_id",
            schemaPath: "#/properties/envelope_id/pattern",
            keyword: "pattern",
            params: { pattern: "^[^\\u0000-\\u001f]+$" },
            message: 'must match pattern "' + "^[^\\u0000-\\u001f]+$" + '"',
          };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
      } else {
        const err11 = {
          instancePath: instancePath + "/envelope_id",
          schemaPath: "#/properties/envelope_id/type",
          keyword: "type",
          params: { type: "string" },
          message: "must be string",
        };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
    }
    if (data.allowed_roots !== undefined) {
      let data2 = data.allowed_roots;
      if (Array.isArray(data2)) {
        const len0 = data2.length;
        for (let i0 = 0; i0 < len0; i0++) {
          let data3 = data2[i0];
          if (typeof data3 === "string") {
            if (!pattern1.test(data3)) {
              const err12 = {
                instancePath: instancePath + "/allowed_roots/" + i0,
                schemaPath: "#/properties/allowed_roots/items/pattern",
                keyword: "pattern",
                params: { pattern: "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$" },
                message: 'must match pattern "' + "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$" + '"',
              };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
            }
          } else {
            const err13 = {
              instancePath: instancePath + "/allowed_roots/" + i0,
              schemaPath: "#/properties/allowed_roots/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err13];
            } else {
              vErrors.push(err13);
            }
            errors++;
          }
        }
        let i1 = data2.length;
        let j0;
        if (i1 > 1) {
          const indices0 = {};
          for (; i1--;) {
            let item0 = data2[i1];
            if (typeof item0 !== "string") {
              continue;
            }
            if (typeof indices0[item0] == "number") {
              j0 = indices0[item0];
              const err14 = {
                instancePath: instancePath + "/allowed_roots",
                schemaPath: "#/properties/allowed_roots/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i1, j: j0 },
                message: "must NOT have duplicate items (items ## " + j0 + " and " + i1 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err14];
              } else {
                vErrors.push(err14);
              }
              errors++;
              break;
            }
            indices0[item0] = i1;
          }
        }
      } else {
        const err15 = {
          instancePath: instancePath + "/allowed_roots",
          schemaPath: "#/properties/allowed_roots/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.allowed_tools !== undefined) {
      let data4 = data.allowed_tools;
      if (Array.isArray(data4)) {
        const len1 = data4.length;
        for (let i2 = 0; i2 < len1; i2++) {
          let data5 = data4[i2];
          if (typeof data5 === "string") {
            if (func1(data5) < 1) {
              const err16 = {
                instancePath: instancePath + "/allowed_tools/" + i2,
                schemaPath: "#/properties/allowed_tools/items/minLength",
                keyword: "minLength",
                params: { limit: 1 },
                message: "must NOT have fewer than 1 characters",
              };
              if (vErrors === null) {
                vErrors = [err16];
              } else {
                vErrors.push(err16);
              }
              errors++;
            }
            if (!pattern0.test(data5)) {
              const err17 = {
                instancePath: instancePath + "/allowed_tools/" + i2,
                schemaPath: "#/properties/allowed_tools/items/pattern",
                keyword: "pattern",
                params: { pattern: "^[^\\u0000-\\u001f]+$" },
                message: 'must match pattern "' + "^[^\\u0000-\\u001f]+$" + '"',
              };
              if (vErrors === null) {
                vErrors = [err17];
              } else {
                vErrors.push(err17);
              }
              errors++;
            }
          } else {
            const err18 = {
              instancePath: instancePath + "/allowed_tools/" + i2,
              schemaPath: "#/properties/allowed_tools/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err18];
            } else {
              vErrors.push(err18);
            }
            errors++;
          }
        }
        let i3 = data4.length;
        let j1;
        if (i3 > 1) {
          const indices1 = {};
          for (; i3--;) {
            let item1 = data4[i3];
            if (typeof item1 !== "string") {
              continue;
            }
            if (typeof indices1[item1] == "number") {
              j1 = indices1[item1];
              const err19 = {
                instancePath: instancePath + "/allowed_tools",
                schemaPath: "#/properties/allowed_tools/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i3, j: j1 },
                message: "must NOT have duplicate items (items ## " + j1 + " and " + i3 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err19];
              } else {
                vErrors.push(err19);
              }
              errors++;
              break;
            }
            indices1[item1] = i3;
          }
        }
      } else {
        const err20 = {
          instancePath: instancePath + "/allowed_tools",
          schemaPath: "#/properties/allowed_tools/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err20];
        } else {
          vErrors.push(err20);
        }
        errors++;
      }
    }
    if (data.allowed_env !== undefined) {
      let data6 = data.allowed_env;
      if (Array.isArray(data6)) {
        const len2 = data6.length;
        for (let i4 = 0; i4 < len2; i4++) {
          let data7 = data6[i4];
          if (typeof data7 === "string") {
            if (func1(data7) < 1) {
              const err21 = {
                instancePath: instancePath + "/allowed_env/" + i4,
                schemaPath: "#/properties/allowed_env/items/minLength",
                keyword: "minLength",
                params: { limit: 1 },
                message: "must NOT have fewer than 1 characters",
              };
              if (vErrors === null) {
                vErrors = [err21];
              } else {
                vErrors.push(err21);
              }
              errors++;
            }
            if (!pattern3.test(data7)) {
              const err22 = {
                instancePath: instancePath + "/allowed_env/" + i4,
                schemaPath: "#/properties/allowed_env/items/pattern",
                keyword: "pattern",
                params: { pattern: "^(?:@(?:ci|agents|terminal)|[^=\\u0000*@][^=\\u0000*]*\\*?)$" },
                message: 'must match pattern "' + "^(?:@(?:ci|agents|terminal)|[^=\\u0000*@][^=\\u0000*]*\\*?)$" + '"',
              };
              if (vErrors === null) {
                vErrors = [err22];
              } else {
                vErrors.push(err22);
              }
              errors++;
            }
          } else {
            const err23 = {
              instancePath: instancePath + "/allowed_env/" + i4,
              schemaPath: "#/properties/allowed_env/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err23];
            } else {
              vErrors.push(err23);
            }
            errors++;
          }
        }
        let i5 = data6.length;
        let j2;
        if (i5 > 1) {
          const indices2 = {};
          for (; i5--;) {
            let item2 = data6[i5];
            if (typeof item2 !== "string") {
              continue;
            }
            if (typeof indices2[item2] == "number") {
              j2 = indices2[item2];
              const err24 = {
                instancePath: instancePath + "/allowed_env",
                schemaPath: "#/properties/allowed_env/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i5, j: j2 },
                message: "must NOT have duplicate items (items ## " + j2 + " and " + i5 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err24];
              } else {
                vErrors.push(err24);
              }
              errors++;
              break;
            }
            indices2[item2] = i5;
          }
        }
      } else {
        const err25 = {
          instancePath: instancePath + "/allowed_env",
          schemaPath: "#/properties/allowed_env/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err25];
        } else {
          vErrors.push(err25);
        }
        errors++;
      }
    }
    if (data.allowed_hosts !== undefined) {
      let data8 = data.allowed_hosts;
      if (Array.isArray(data8)) {
        const len3 = data8.length;
        for (let i6 = 0; i6 < len3; i6++) {
          let data9 = data8[i6];
          if (typeof data9 === "string") {
            if (!pattern4.test(data9)) {
              const err26 = {
                instancePath: instancePath + "/allowed_hosts/" + i6,
                schemaPath: "#/properties/allowed_hosts/items/pattern",
                keyword: "pattern",
                params: {
                  pattern:
                    "^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\[[0-9a-f:.]+\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$",
                },
                message:
                  'must match pattern "' +
                  "^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\[[0-9a-f:.]+\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$" +
                  '"',
              };
              if (vErrors === null) {
                vErrors = [err26];
              } else {
                vErrors.push(err26);
              }
              errors++;
            }
          } else {
            const err27 = {
              instancePath: instancePath + "/allowed_hosts/" + i6,
              schemaPath: "#/properties/allowed_hosts/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err27];
            } else {
              vErrors.push(err27);
            }
            errors++;
          }
        }
        let i7 = data8.length;
        let j3;
        if (i7 > 1) {
          const indices3 = {};
          for (; i7--;) {
            let item3 = data8[i7];
            if (typeof item3 !== "string") {
              continue;
            }
            if (typeof indices3[item3] == "number") {
              j3 = indices3[item3];
              const err28 = {
                instancePath: instancePath + "/allowed_hosts",
                schemaPath: "#/properties/allowed_hosts/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i7, j: j3 },
                message: "must NOT have duplicate items (items ## " + j3 + " and " + i7 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err28];
              } else {
                vErrors.push(err28);
              }
              errors++;
              break;
            }
            indices3[item3] = i7;
          }
        }
      } else {
        const err29 = {
          instancePath: instancePath + "/allowed_hosts",
          schemaPath: "#/properties/allowed_hosts/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err29];
        } else {
          vErrors.push(err29);
        }
        errors++;
      }
    }
    if (data.network !== undefined) {
      let data10 = data.network;
      if (!(data10 === "deny" || data10 === "allowlist")) {
        const err30 = {
          instancePath: instancePath + "/network",
          schemaPath: "#/properties/network/enum",
          keyword: "enum",
          params: { allowedValues: schema0.properties.network.enum },
          message: "must be equal to one of the allowed values",
        };
        if (vErrors === null) {
          vErrors = [err30];
        } else {
          vErrors.push(err30);
        }
        errors++;
      }
    }
    if (data.allowed_commands !== undefined) {
      let data11 = data.allowed_commands;
      if (Array.isArray(data11)) {
        const len4 = data11.length;
        for (let i8 = 0; i8 < len4; i8++) {
          let data12 = data11[i8];
          if (typeof data12 === "string") {
            if (func1(data12) < 1) {
              const err31 = {
                instancePath: instancePath + "/allowed_commands/" + i8,
                schemaPath: "#/properties/allowed_commands/items/minLength",
                keyword: "minLength",
                params: { limit: 1 },
                message: "must NOT have fewer than 1 characters",
              };
              if (vErrors === null) {
                vErrors = [err31];
              } else {
                vErrors.push(err31);
              }
              errors++;
            }
            if (!pattern5.test(data12)) {
              const err32 = {
                instancePath: instancePath + "/allowed_commands/" + i8,
                schemaPath: "#/properties/allowed_commands/items/pattern",
                keyword: "pattern",
                params: { pattern: "^[^\\u0000]+$" },
                message: 'must match pattern "' + "^[^\\u0000]+$" + '"',
              };
              if (vErrors === null) {
                vErrors = [err32];
              } else {
                vErrors.push(err32);
              }
              errors++;
            }
          } else {
            const err33 = {
              instancePath: instancePath + "/allowed_commands/" + i8,
              schemaPath: "#/properties/allowed_commands/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err33];
            } else {
              vErrors.push(err33);
            }
            errors++;
          }
        }
        let i9 = data11.length;
        let j4;
        if (i9 > 1) {
          const indices4 = {};
          for (; i9--;) {
            let item4 = data11[i9];
            if (typeof item4 !== "string") {
              continue;
            }
            if (typeof indices4[item4] == "number") {
              j4 = indices4[item4];
              const err34 = {
                instancePath: instancePath + "/allowed_commands",
                schemaPath: "#/properties/allowed_commands/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i9, j: j4 },
                message: "must NOT have duplicate items (items ## " + j4 + " and " + i9 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err34];
              } else {
                vErrors.push(err34);
              }
              errors++;
              break;
            }
            indices4[item4] = i9;
          }
        }
      } else {
        const err35 = {
          instancePath: instancePath + "/allowed_commands",
          schemaPath: "#/properties/allowed_commands/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err35];
        } else {
          vErrors.push(err35);
        }
        errors++;
      }
    }
    if (data.loopback !== undefined) {
      let data13 = data.loopback;
      if (!(data13 === "local" || data13 === "network")) {
        const err36 = {
          instancePath: instancePath + "/loopback",
          schemaPath: "#/properties/loopback/enum",
          keyword: "enum",
          params: { allowedValues: schema0.properties.loopback.enum },
          message: "must be equal to one of the allowed values",
        };
        if (vErrors === null) {
          vErrors = [err36];
        } else {
          vErrors.push(err36);
        }
        errors++;
      }
    }
    if (data.writable_protected !== undefined) {
      let data14 = data.writable_protected;
      if (Array.isArray(data14)) {
        const len5 = data14.length;
        for (let i10 = 0; i10 < len5; i10++) {
          let data15 = data14[i10];
          const _errs32 = errors;
          const _errs33 = errors;
          if (typeof data15 === "string") {
            if (!pattern6.test(data15)) {
              const err37 = {};
              if (vErrors === null) {
                vErrors = [err37];
              } else {
                vErrors.push(err37);
              }
              errors++;
            }
          }
          var valid18 = _errs33 === errors;
          if (valid18) {
            const err38 = {
              instancePath: instancePath + "/writable_protected/" + i10,
              schemaPath: "#/properties/writable_protected/items/not",
              keyword: "not",
              params: {},
              message: "must NOT be valid",
            };
            if (vErrors === null) {
              vErrors = [err38];
            } else {
              vErrors.push(err38);
            }
            errors++;
          } else {
            errors = _errs32;
            if (vErrors !== null) {
              if (_errs32) {
                vErrors.length = _errs32;
              } else {
                vErrors = null;
              }
            }
          }
          if (typeof data15 === "string") {
            if (!pattern1.test(data15)) {
              const err39 = {
                instancePath: instancePath + "/writable_protected/" + i10,
                schemaPath: "#/properties/writable_protected/items/pattern",
                keyword: "pattern",
                params: { pattern: "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$" },
                message: 'must match pattern "' + "^(?:/[^\\u0000]*|\\$\\{(?:WORKSPACE|SCRATCH)\\}(?:/[^\\u0000]*)?)$" + '"',
              };
              if (vErrors === null) {
                vErrors = [err39];
              } else {
                vErrors.push(err39);
              }
              errors++;
            }
          } else {
            const err40 = {
              instancePath: instancePath + "/writable_protected/" + i10,
              schemaPath: "#/properties/writable_protected/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err40];
            } else {
              vErrors.push(err40);
            }
            errors++;
          }
        }
        let i11 = data14.length;
        let j5;
        if (i11 > 1) {
          const indices5 = {};
          for (; i11--;) {
            let item5 = data14[i11];
            if (typeof item5 !== "string") {
              continue;
            }
            if (typeof indices5[item5] == "number") {
              j5 = indices5[item5];
              const err41 = {
                instancePath: instancePath + "/writable_protected",
                schemaPath: "#/properties/writable_protected/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i11, j: j5 },
                message: "must NOT have duplicate items (items ## " + j5 + " and " + i11 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err41];
              } else {
                vErrors.push(err41);
              }
              errors++;
              break;
            }
            indices5[item5] = i11;
          }
        }
      } else {
        const err42 = {
          instancePath: instancePath + "/writable_protected",
          schemaPath: "#/properties/writable_protected/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err42];
        } else {
          vErrors.push(err42);
        }
        errors++;
      }
    }
    if (data.services !== undefined) {
      let data16 = data.services;
      if (Array.isArray(data16)) {
        const len6 = data16.length;
        for (let i12 = 0; i12 < len6; i12++) {
          let data17 = data16[i12];
          if (typeof data17 === "string") {
            if (!pattern8.test(data17)) {
              const err43 = {
                instancePath: instancePath + "/services/" + i12,
                schemaPath: "#/properties/services/items/pattern",
                keyword: "pattern",
                params: {
                  pattern:
                    "^(?:/[^\\u0000]+|\\[[0-9a-f:.]+\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$",
                },
                message:
                  'must match pattern "' +
                  "^(?:/[^\\u0000]+|\\[[0-9a-f:.]+\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$" +
                  '"',
              };
              if (vErrors === null) {
                vErrors = [err43];
              } else {
                vErrors.push(err43);
              }
              errors++;
            }
          } else {
            const err44 = {
              instancePath: instancePath + "/services/" + i12,
              schemaPath: "#/properties/services/items/type",
              keyword: "type",
              params: { type: "string" },
              message: "must be string",
            };
            if (vErrors === null) {
              vErrors = [err44];
            } else {
              vErrors.push(err44);
            }
            errors++;
          }
        }
        let i13 = data16.length;
        let j6;
        if (i13 > 1) {
          const indices6 = {};
          for (; i13--;) {
            let item6 = data16[i13];
            if (typeof item6 !== "string") {
              continue;
            }
            if (typeof indices6[item6] == "number") {
              j6 = indices6[item6];
              const err45 = {
                instancePath: instancePath + "/services",
                schemaPath: "#/properties/services/uniqueItems",
                keyword: "uniqueItems",
                params: { i: i13, j: j6 },
                message: "must NOT have duplicate items (items ## " + j6 + " and " + i13 + " are identical)",
              };
              if (vErrors === null) {
                vErrors = [err45];
              } else {
                vErrors.push(err45);
              }
              errors++;
              break;
            }
            indices6[item6] = i13;
          }
        }
      } else {
        const err46 = {
          instancePath: instancePath + "/services",
          schemaPath: "#/properties/services/type",
          keyword: "type",
          params: { type: "array" },
          message: "must be array",
        };
        if (vErrors === null) {
          vErrors = [err46];
        } else {
          vErrors.push(err46);
        }
        errors++;
      }
    }
    if (data.observation !== undefined) {
      let data18 = data.observation;
      if (!(data18 === "full" || data18 === "node")) {
        const err47 = {
          instancePath: instancePath + "/observation",
          schemaPath: "#/properties/observation/enum",
          keyword: "enum",
          params: { allowedValues: schema0.properties.observation.enum },
          message: "must be equal to one of the allowed values",
        };
        if (vErrors === null) {
          vErrors = [err47];
        } else {
          vErrors.push(err47);
        }
        errors++;
      }
    }
  } else {
    const err48 = { instancePath, schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" };
    if (vErrors === null) {
      vErrors = [err48];
    } else {
      vErrors.push(err48);
    }
    errors++;
  }
  validate0.errors = vErrors;
  return errors === 0;
}

// EXTERNAL MODULE: ./src/core/env-sets.ts
var env_sets = __nccwpck_require__(20);
// EXTERNAL MODULE: ./src/core/never-proposed.ts
var never_proposed = __nccwpck_require__(996);
// EXTERNAL MODULE: ./src/core/errors.ts
var core_errors = __nccwpck_require__(4296);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/paths.ts
var paths = __nccwpck_require__(6107);
// EXTERNAL MODULE: ./src/core/protected.ts
var core_protected = __nccwpck_require__(1085);
// EXTERNAL MODULE: ./src/core/services.ts
var services = __nccwpck_require__(3499);
// EXTERNAL MODULE: ./src/core/hosts.ts
var hosts = __nccwpck_require__(3848);
;// CONCATENATED MODULE: ./src/core/envelope.ts












function schemaValidator() {
    // The shipped schema is checked against its meta-schema by the tests (test/core/envelope.test.ts),
    // not on every run: compiling the meta-schema was half of check's start-up. The schema itself is
    // compiled once, at build time (scripts/gen-validators.mjs): compiling it was most of the rest;
    // test/core/envelope-validator.test.ts holds the generated validator to the schema.
    return validate;
}
function sha256Hex(bytes) {
    return (0,external_node_crypto_.createHash)("sha256").update(bytes).digest("hex");
}
/** The value a JSON pointer names in `root` (undefined where there is none). */
function valueAt(root, pointer) {
    let at = root;
    for (const part of pointer.split("/").slice(1)) {
        if (at === null || typeof at !== "object")
            return undefined;
        at = at[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return at;
}
function describeSchemaError(error, root) {
    const where = error.instancePath === "" ? "the envelope" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
    switch (error.keyword) {
        case "additionalProperties":
            return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
        case "required":
            return `missing required key "${String(error.params.missingProperty)}"`;
        case "uniqueItems":
            return `${where} lists the same value twice (items ${String(error.params.j)} and ${String(error.params.i)})`;
        case "not":
            if (error.instancePath.startsWith("/writable_protected/")) {
                return `${where} names .git or its hooks, config, info, modules, worktrees or commondir, which can never be writable`;
            }
            return `${where} has a value of the wrong form`;
        case "enum":
            return `${where} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
        case "pattern":
            if (error.instancePath.startsWith("/allowed_roots/") || error.instancePath.startsWith("/writable_protected/")) {
                return `${where} must be an absolute path or start with \${WORKSPACE} or \${SCRATCH}`;
            }
            if (error.instancePath.startsWith("/allowed_env/")) {
                return `${where} must be an environment key, PREFIX* for every key starting with a non-empty PREFIX, or a named set (@ci, @agents, @terminal)`;
            }
            if (error.instancePath.startsWith("/allowed_hosts/")) {
                const value = valueAt(root, error.instancePath);
                if (typeof value === "string" && (0,hosts/* isHostSetEntry */.Hu)(value))
                    return `${where}: ${unknownHostSet(value)}`;
                return `${where} must be a lower-case DNS name or IP literal with an optional :port (*.example.com for subdomains), or a host set (${[...hosts/* HOST_SETS */.vP.keys()].join(", ")})`;
            }
            return `${where} has a value of the wrong form`;
        default:
            return `${where} ${error.message ?? "is invalid"}`;
    }
}
function schemaErrorPointer(error) {
    if (error.keyword === "additionalProperties") {
        return `${error.instancePath}/${String(error.params.additionalProperty)}`;
    }
    if (error.keyword === "uniqueItems")
        return `${error.instancePath}/${String(error.params.i)}`;
    return error.instancePath;
}
/** Parses and validates envelope bytes. Pure: the caller reads the file. */
function loadEnvelope(bytes, file) {
    const hash = `sha256:${sha256Hex(bytes)}`;
    const decoded = (0,json/* decodeUtf8Strict */.h0)(bytes);
    if (typeof decoded !== "string") {
        throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file} is not valid UTF-8 (byte ${decoded.invalidAt})`, {
            file,
            line: decoded.line,
            hint: "Save the envelope as UTF-8.",
        });
    }
    // A byte order mark is tolerated: editors add it, and the digest still covers the raw bytes.
    const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    let parsed;
    try {
        parsed = (0,json/* parseJsonWithLines */.$f)(text);
    }
    catch (err) {
        if (err instanceof json/* JsonSyntaxError */.q3) {
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${err.line}:${err.column}: ${err.message}`, {
                file,
                line: err.line,
                column: err.column,
                hint: "Fix the JSON; the envelope is validated against schema/envelope.schema.json.",
            });
        }
        throw err;
    }
    const validate = schemaValidator();
    if (!validate(parsed.value)) {
        const errors = validate.errors ?? [];
        const first = errors[0];
        const pointer = first ? schemaErrorPointer(first) : "";
        const line = parsed.lines.get(pointer) ?? parsed.lines.get(first?.instancePath ?? "") ?? 1;
        const all = errors.map((e) => describeSchemaError(e, parsed.value));
        throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: ${all.join("; ")}`, {
            file,
            line,
            hint: "The envelope must match schema/envelope.schema.json exactly: no unknown keys, no duplicates.",
        });
    }
    const envelope = parsed.value;
    envelope.allowed_hosts.forEach((entry, i) => {
        if ((0,hosts/* isHostSetEntry */.Hu)(entry)) {
            // The schema admits only the known names; this holds the code's list to it.
            if (hosts/* HOST_SETS */.vP.has(entry))
                return;
            const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: ${unknownHostSet(entry)}`, { file, line });
        }
        if ((0,hosts/* parseHostPattern */.ic)(entry) === null) {
            const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: "${entry}" has a port outside 1-65535`, { file, line });
        }
    });
    envelope.services?.forEach((entry, i) => {
        const service = (0,services/* parseService */.nO)(entry);
        if ("refused" in service) {
            const line = parsed.lines.get(`/services/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("SERVICE_NOT_ALLOWED", `${file}:${line}: services entry "${entry}" can never be a service: ${service.refused}`, {
                file,
                line,
                hint: "A service is the job's own database or cache: 127.0.0.1:PORT or [::1]:PORT on the runner, its name in a container job (postgres:5432), or a unix socket path (docs/authoring.md#suites-with-services).",
            });
        }
    });
    envelope.writable_protected?.forEach((entry, i) => {
        const reason = writableProtectedReason(entry);
        if (reason !== null) {
            const line = parsed.lines.get(`/writable_protected/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: writable_protected "${entry}" can never be writable: ${reason}`, {
                file,
                line,
                hint: "writable_protected names one protected directory or file a suite must write (e.g. ${WORKSPACE}/.github/generated); .git's hooks and config, and anything containing them, stay read-only.",
            });
        }
    });
    return { envelope, hash, file, lines: parsed.lines };
}
/** Lexical refusal of a writable_protected entry: a whole root variable (it contains .git), `/`, or .git's hooks and config. */
function writableProtectedReason(entry) {
    const m = ROOT_VARIABLE.exec(entry);
    // The variable stands for a directory that holds the repository's .git: fold what follows it under a placeholder.
    const folded = (0,paths/* foldPath */.tu)(m ? `/${m[1]}${entry.slice(m[0].length)}` : entry);
    if (folded === null)
        return "it is not absolute";
    if (folded === "/")
        return "it contains everything, .git's hooks and config too";
    if (m !== null && m[1] === "WORKSPACE" && folded === "/WORKSPACE")
        return "the workspace contains .git/hooks and .git/config";
    if (m !== null && folded !== `/${m[1]}` && !folded.startsWith(`/${m[1]}/`))
        return `it leaves \${${m[1]}} with ".."`;
    return (0,core_protected/* neverWritableReason */.d8)(folded);
}
/** The sha256sum line for an envelope: `<hex>  <name>`. */
function formatDigestLine(bytes, name) {
    return `${sha256Hex(bytes)}  ${name}\n`;
}
/**
 * The one reader of a sha256sum digest file, for the envelope's and an evidence bundle's alike:
 * exactly one non-empty line, `<64 hex>  <name>` (or ` *<name>`, or `\`-escaped as sha256sum
 * writes a name with a backslash), LF or CRLF. The lower-case hex, or why it is not one.
 */
function readDigestLine(text) {
    const entries = text.split(/\r?\n/).filter((l) => l.trim() !== "");
    if (entries.length !== 1)
        return { lines: entries.length };
    const m = /^\\?([0-9a-fA-F]{64})(?: [ *](.+))?\s*$/.exec(entries[0]);
    return m ? { hex: m[1].toLowerCase() } : { notALine: true };
}
/** Reads an envelope's digest file (one entry). Returns the lower-case hex. */
function parseDigestFile(text, file) {
    const read = readDigestLine(text);
    if ("lines" in read) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_DIGEST_INVALID", `${file} must hold exactly one sha256sum line, found ${read.lines}`, {
            file,
            hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
        });
    }
    if ("notALine" in read) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_DIGEST_INVALID", `${file}:1: not a sha256sum line ("<64 hex>  envelope.json")`, {
            file,
            line: 1,
            hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
        });
    }
    return read.hex;
}
/**
 * Refuses unless the digest file pins exactly these bytes. Checked before the envelope is
 * parsed, so a tampered file is reported as tampered. There is no way to skip this.
 */
function verifyDigest(envelopeBytes, envelopeFile, digestText, digestFile) {
    const expected = parseDigestFile(digestText, digestFile);
    const actual = sha256Hex(envelopeBytes);
    if (expected !== actual) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_HASH_MISMATCH", `${envelopeFile} has sha256 ${actual}, but ${digestFile} pins ${expected}`, {
            file: digestFile,
            line: 1,
            hint: "The envelope changed without its digest. Review the change, then regenerate the digest in the same commit.",
        });
    }
}
/** `${WORKSPACE}` or `${SCRATCH}` at the start of a root, the variable's name captured. */
const ROOT_VARIABLE = /^\$\{(WORKSPACE|SCRATCH)\}/;
/** Expands `${WORKSPACE}` and `${SCRATCH}` from explicit values and folds every root. */
function expandRoots(loaded, values) {
    return expandPaths(loaded, values, "allowed_roots");
}
/** `writable_protected`, expanded and folded like the roots (empty when the key is absent). */
function expandWritableProtected(loaded, values) {
    return expandPaths(loaded, values, "writable_protected");
}
function expandPaths(loaded, values, key) {
    return (loaded.envelope[key] ?? []).map((root, i) => {
        const line = loaded.lines.get(`/${key}/${i}`);
        let expanded = root;
        const m = ROOT_VARIABLE.exec(root);
        if (m) {
            const name = m[1];
            const value = name === "WORKSPACE" ? values.workspace : values.scratch;
            if (value === undefined || value === "") {
                throw new core_errors/* Refusal */.P_("ROOT_VARIABLE_UNDEFINED", `${loaded.file}:${line ?? 1}: root "${root}" uses \${${name}}, but no ${name.toLowerCase()} was given`, {
                    file: loaded.file,
                    line,
                    hint: `Pass --${name.toLowerCase()} DIR (action input '${name.toLowerCase()}'); an unset variable never expands to an empty string.`,
                });
            }
            if (!value.startsWith("/")) {
                throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `the ${name.toLowerCase()} value "${value}" is not an absolute path`, {
                    hint: `Pass an absolute path for --${name.toLowerCase()}.`,
                });
            }
            expanded = value + root.slice(m[0].length);
        }
        const folded = (0,paths/* foldPath */.tu)(expanded);
        if (folded === null) {
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${loaded.file}:${line ?? 1}: root "${root}" is not absolute`, {
                file: loaded.file,
                line,
            });
        }
        return folded;
    });
}
/**
 * `allowed_env` as a matcher: exact keys, `PREFIX*` entries (a non-empty prefix, the only
 * pattern form; the schema refuses a bare `*`) and named sets (`@ci`, `@agents`, `@terminal`).
 * A pattern or a set never matches a key of never-proposed.ts's table (a credential or a credential
 * carrier, the machine, a run-identity key whose value differs between runner A and runner B, a
 * program-control key, a key outside printable ASCII): that key is allowed only when listed exactly. The gate judges reads with it, and the run wrapper passes exactly the keys it
 * accepts into the run.
 */
function envMatcher(envelope) {
    const exact = new Set();
    const prefixes = [];
    const sets = [];
    for (const entry of envelope.allowed_env) {
        if (entry.endsWith("*"))
            prefixes.push(entry.slice(0, -1));
        else if (entry.startsWith("@")) {
            const set = env_sets/* ENV_SETS */.gL.get(entry);
            // The schema admits only the known names; an unknown one matches nothing.
            if (set !== undefined)
                sets.push(set);
        }
        else
            exact.add(entry);
    }
    if (prefixes.length === 0 && sets.length === 0)
        return (key) => exact.has(key);
    return (key) => {
        if (exact.has(key))
            return true;
        if ((0,never_proposed/* keyApart */.ij)(key) !== null)
            return false;
        return prefixes.some((p) => key.startsWith(p)) || sets.some((s) => s.has(key));
    };
}
/** `allowed_hosts` as patterns, every host set expanded to its members (tagged with the set's name). */
function hostPatterns(envelope) {
    return envelope.allowed_hosts.flatMap((h) => (0,hosts/* expandHostEntry */.nd)(h) ?? []);
}
function unknownHostSet(entry) {
    return `allowed_hosts entry "${entry}" is not a host set (the sets are ${[...hosts/* HOST_SETS */.vP.keys()].join(", ")}; docs/egress.md lists them)`;
}


/***/ }),

/***/ 4296:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $z: () => (/* binding */ hintOf),
/* harmony export */   JA: () => (/* binding */ isSetAside),
/* harmony export */   MB: () => (/* binding */ nothingSent),
/* harmony export */   NU: () => (/* binding */ logOpenError),
/* harmony export */   P_: () => (/* binding */ Refusal),
/* harmony export */   UQ: () => (/* binding */ errnoOf),
/* harmony export */   We: () => (/* binding */ isErrorCode),
/* harmony export */   dg: () => (/* binding */ isTransient),
/* harmony export */   s_: () => (/* binding */ httpStatusOf),
/* harmony export */   vu: () => (/* binding */ isRefusal)
/* harmony export */ });
/* unused harmony exports ERROR_CODES, GENERIC_HINT, ERROR_TABLE */
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
const GENERIC_HINT = `Fix the cause named in the message, ${RETRY}.`;
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
function errnoOf(err) {
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


/***/ }),

/***/ 3848:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hu: () => (/* binding */ isHostSetEntry),
/* harmony export */   Q7: () => (/* binding */ HOST_SET_TOOLS),
/* harmony export */   T0: () => (/* binding */ formatEndpoint),
/* harmony export */   VI: () => (/* binding */ hostAllowed),
/* harmony export */   cS: () => (/* binding */ normalizeHost),
/* harmony export */   ic: () => (/* binding */ parseHostPattern),
/* harmony export */   n4: () => (/* binding */ allowedViaSet),
/* harmony export */   nd: () => (/* binding */ expandHostEntry),
/* harmony export */   vP: () => (/* binding */ HOST_SETS)
/* harmony export */ });
/* unused harmony export HOST_SETS_VERSION */
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
function normalizeHost(host) {
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
function formatEndpoint(host, port) {
    if (port === null)
        return host;
    return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}


/***/ }),

/***/ 6153:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $f: () => (/* binding */ parseJsonWithLines),
/* harmony export */   h0: () => (/* binding */ decodeUtf8Strict),
/* harmony export */   q3: () => (/* binding */ JsonSyntaxError)
/* harmony export */ });
/**
 * A strict JSON reader for human-edited policy files. Unlike JSON.parse it refuses duplicate
 * keys (a typo must never silently pick one of two values) and remembers the line of every
 * value by JSON pointer, so errors and annotations can point at the exact line.
 */
class JsonSyntaxError extends Error {
    line;
    column;
    constructor(message, line, column) {
        super(message);
        this.line = line;
        this.column = column;
        this.name = "JsonSyntaxError";
    }
}
function pointerEscape(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function parseJsonWithLines(text) {
    const lines = new Map();
    let pos = 0;
    let line = 1;
    let lineStart = 0;
    const fail = (message) => {
        throw new JsonSyntaxError(message, line, pos - lineStart + 1);
    };
    const skipWhitespace = () => {
        while (pos < text.length) {
            const c = text.charCodeAt(pos);
            if (c === 0x20 || c === 0x09 || c === 0x0d) {
                pos++;
            }
            else if (c === 0x0a) {
                pos++;
                line++;
                lineStart = pos;
            }
            else {
                break;
            }
        }
    };
    const parseString = () => {
        // Opening quote already checked by the caller.
        pos++;
        let out = "";
        let chunkStart = pos;
        for (;;) {
            if (pos >= text.length)
                fail("unterminated string");
            const c = text.charCodeAt(pos);
            if (c === 0x22) {
                out += text.slice(chunkStart, pos);
                pos++;
                return out;
            }
            if (c < 0x20)
                fail(`control character U+${c.toString(16).padStart(4, "0")} inside a string`);
            if (c === 0x5c) {
                out += text.slice(chunkStart, pos);
                const e = text[pos + 1];
                switch (e) {
                    case '"':
                    case "\\":
                    case "/":
                        out += e;
                        pos += 2;
                        break;
                    case "b":
                        out += "\b";
                        pos += 2;
                        break;
                    case "f":
                        out += "\f";
                        pos += 2;
                        break;
                    case "n":
                        out += "\n";
                        pos += 2;
                        break;
                    case "r":
                        out += "\r";
                        pos += 2;
                        break;
                    case "t":
                        out += "\t";
                        pos += 2;
                        break;
                    case "u": {
                        const hex = text.slice(pos + 2, pos + 6);
                        if (!/^[0-9a-fA-F]{4}$/.test(hex))
                            fail("bad \\u escape");
                        out += String.fromCharCode(parseInt(hex, 16));
                        pos += 6;
                        break;
                    }
                    default:
                        fail("bad escape in string");
                }
                chunkStart = pos;
                continue;
            }
            pos++;
        }
    };
    const parseValue = (pointer, depth) => {
        if (depth > 64)
            fail("nesting deeper than 64 levels");
        skipWhitespace();
        lines.set(pointer, line);
        const c = text[pos];
        if (c === "{") {
            pos++;
            const obj = Object.create(null);
            const seen = new Set();
            skipWhitespace();
            if (text[pos] === "}") {
                pos++;
                return { ...obj };
            }
            for (;;) {
                skipWhitespace();
                if (text[pos] !== '"')
                    fail("expected a quoted key");
                const keyLine = line;
                const key = parseString();
                if (seen.has(key)) {
                    line = keyLine;
                    fail(`duplicate key "${key}"`);
                }
                seen.add(key);
                skipWhitespace();
                if (text[pos] !== ":")
                    fail(`expected ':' after key "${key}"`);
                pos++;
                const childPointer = `${pointer}/${pointerEscape(key)}`;
                obj[key] = parseValue(childPointer, depth + 1);
                lines.set(childPointer, keyLine);
                skipWhitespace();
                if (text[pos] === ",") {
                    pos++;
                    continue;
                }
                if (text[pos] === "}") {
                    pos++;
                    // A plain object, so callers and ajv see ordinary prototypes.
                    return { ...obj };
                }
                fail("expected ',' or '}'");
            }
        }
        if (c === "[") {
            pos++;
            const arr = [];
            skipWhitespace();
            if (text[pos] === "]") {
                pos++;
                return arr;
            }
            for (;;) {
                arr.push(parseValue(`${pointer}/${arr.length}`, depth + 1));
                skipWhitespace();
                if (text[pos] === ",") {
                    pos++;
                    continue;
                }
                if (text[pos] === "]") {
                    pos++;
                    return arr;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c === '"')
            return parseString();
        if (text.startsWith("true", pos)) {
            pos += 4;
            return true;
        }
        if (text.startsWith("false", pos)) {
            pos += 5;
            return false;
        }
        if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 64));
        if (m) {
            pos += m[0].length;
            return Number(m[0]);
        }
        return fail(pos >= text.length ? "unexpected end of file" : `unexpected character '${text[pos]}'`);
    };
    const value = parseValue("", 0);
    skipWhitespace();
    if (pos < text.length)
        fail("unexpected content after the JSON value");
    return { value, lines };
}
/** Decodes bytes as UTF-8, refusing invalid sequences instead of replacing them. */
function decodeUtf8Strict(bytes) {
    try {
        return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    }
    catch {
        // Find the first bad byte so the message can name the line.
        let line = 1;
        let i = 0;
        for (; i < bytes.length; i++) {
            const b = bytes[i];
            if (b === 0x0a)
                line++;
            if (b < 0x80)
                continue;
            const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 ? 2 : b >= 0xc2 && b < 0xe0 ? 1 : -1;
            if (need < 0)
                break;
            let ok = true;
            for (let k = 1; k <= need; k++) {
                const cb = bytes[i + k];
                if (cb === undefined || (cb & 0xc0) !== 0x80)
                    ok = false;
            }
            if (!ok)
                break;
            i += need;
        }
        return { invalidAt: i, line };
    }
}


/***/ }),

/***/ 7653:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ae: () => (/* binding */ LOG_VERSION),
/* harmony export */   Nx: () => (/* binding */ isWriteOp),
/* harmony export */   V1: () => (/* binding */ WRITE_OPS),
/* harmony export */   Vp: () => (/* binding */ MISSING_TARGET_ERRNOS),
/* harmony export */   Yr: () => (/* binding */ FIELD_NAMES),
/* harmony export */   bz: () => (/* binding */ LOG_KINDS),
/* harmony export */   gi: () => (/* binding */ EVENT_SOURCES),
/* harmony export */   kX: () => (/* binding */ PATH_UNKNOWN_REASON),
/* harmony export */   l6: () => (/* binding */ MAX_LINE_LENGTH),
/* harmony export */   nH: () => (/* binding */ KIND_FIELDS),
/* harmony export */   qC: () => (/* binding */ COMMON_FIELDS),
/* harmony export */   yT: () => (/* binding */ isMissingTargetErrno)
/* harmony export */ });
/**
 * The observer log's format (docs/formats.md, "Observer log"): its kinds, their fields, the values
 * a field may take, and the limits a reader holds a log to. What the observer writes and what the
 * reader (./log-reader.ts) accepts are both this.
 */
const LOG_VERSION = 1;
/** Longest line accepted, in bytes; a longer one is malformed, never buffered whole. */
const MAX_LINE_LENGTH = 4 * 1024 * 1024;
const WRITE_OPS = new Set([
    "write",
    "create",
    "delete",
    "rename",
    "mkdir",
    "chmod",
    "truncate",
    "link",
    "symlink",
    "chown",
    "utimes",
    "xattr",
    "bind",
]);
function isWriteOp(op) {
    return WRITE_OPS.has(op);
}
/**
 * Who recorded an event. `effects` is the wrapper's own look at the filesystem after the jail is
 * gone (a protected entry new or changed, src/core/effects.ts): only on `write` lines.
 */
const EVENT_SOURCES = new Set(["node", "process", "sdk", "runtime", "proxy", "effects", "resolver", "service"]);
/**
 * The errors, as the kernel gave them to the process observer, of a write call that changed
 * nothing because what it named was not there (a missing file or directory on the way). Such a
 * write outside the roots is recorded (with `errno`) and not judged; every other failure (EROFS:
 * the jail refused it, EACCES, EPERM) is judged as an attempt.
 */
const MISSING_TARGET_ERRNOS = new Set(["ENOENT", "ENOTDIR"]);
function isMissingTargetErrno(errno) {
    return MISSING_TARGET_ERRNOS.has(errno);
}
/**
 * Why a recorder could not know the file a write call acted on (`write.path_unknown`):
 * - `fd-path`: the name goes through `/proc/<pid>/fd/N` or `/dev/fd/N`, and which file fd N was at
 *   the call is not in the line (strace); read from /proc afterwards it may be another file.
 * - anything else the eBPF recorder says in its `@path-unknown` line (a lower-case word).
 */
const PATH_UNKNOWN_REASON = /^[a-z][a-z0-9-]{0,63}$/;
/** Every kind, in the order the reader matches them. */
const LOG_KINDS = ["write", "env", "tool", "host", "exec", "syscall", "end", "meta"];
/** Fields every event may carry besides its kind's own. */
const COMMON_FIELDS = ["v", "kind", "ts", "pid", "ppid", "source", "seq", "canary", "ok", "via"];
/**
 * Every field an event line may carry. Which fields each kind may use is in KIND_FIELDS; anything
 * else on an event is malformed. (Meta may carry extra fields.)
 */
const FIELD_NAMES = [
    ...COMMON_FIELDS,
    "path",
    "op",
    "name",
    "key",
    "host",
    "port",
    "proto",
    "argv",
    "cwd",
    "events",
    "exit_code",
    "signal",
    "errno",
    "jail_pid",
    "path_unknown",
    "bytes_in",
    "bytes_out",
    "interpreter",
];
/** Each event kind's own fields: required, then optional (the same as its LogEvent member's). */
const KIND_FIELDS = {
    write: { required: ["path", "op"], optional: ["errno", "path_unknown"] },
    tool: { required: ["name"], optional: [] },
    env: { required: ["key"], optional: ["op"] },
    host: { required: ["host"], optional: ["port", "proto", "bytes_in", "bytes_out"] },
    exec: { required: ["path", "argv"], optional: ["cwd", "jail_pid", "interpreter"] },
    syscall: { required: ["name"], optional: [] },
    end: { required: ["events", "exit_code"], optional: ["signal"] },
};


/***/ }),

/***/ 3477:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   IC: () => (/* binding */ LogEvaluator),
/* harmony export */   fj: () => (/* binding */ endLineEvents),
/* harmony export */   w4: () => (/* binding */ walkLog)
/* harmony export */ });
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4573);
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_buffer__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(6107);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3848);
/* harmony import */ var _protected_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(1085);
/* harmony import */ var _log_format_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(7653);
/* harmony import */ var _rules_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(1688);
/**
 * The observer log reader and gate evaluator: one streaming pass, memory bounded by the
 * number of distinct violations. Pure: the caller feeds bytes, this reads them as the format
 * (./log-format.ts) says and records what the rules (./rules.ts) say of each event.
 *
 * A log that cannot be fully read and checked never yields a verdict: every structural
 * problem throws a typed Refusal instead ("could not observe" never reads as "observed
 * nothing").
 */







/** Slot of each field: a literal, so lookups are fast property loads; checked against FIELD_NAMES below. */
const SLOT = {
    v: 0,
    kind: 1,
    ts: 2,
    pid: 3,
    ppid: 4,
    source: 5,
    seq: 6,
    canary: 7,
    ok: 8,
    via: 9,
    path: 10,
    op: 11,
    name: 12,
    key: 13,
    host: 14,
    port: 15,
    proto: 16,
    argv: 17,
    cwd: 18,
    events: 19,
    exit_code: 20,
    signal: 21,
    errno: 22,
    jail_pid: 23,
    path_unknown: 24,
    bytes_in: 25,
    bytes_out: 26,
    interpreter: 27,
};
_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.forEach((f, i) => {
    if (SLOT[f] !== i)
        throw new Error(`SLOT out of step with FIELD_NAMES at ${f}`);
});
const SLOT_BY_NAME = new Map(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.map((f, i) => [f, i]));
const bit = (f) => 1 << SLOT[f];
const bits = (fs) => fs.reduce((m, f) => m | bit(f), 0);
/** Each event kind's own fields (KIND_FIELDS) as field names. */
const KIND_FIELD_NAMES = _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .KIND_FIELDS */ .nH;
const KIND_MASKS = new Map(Object.entries(KIND_FIELD_NAMES).map(([kind, spec]) => [
    kind,
    { required: bits(spec.required), allowed: bits([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .COMMON_FIELDS */ .qC, ...spec.required, ...spec.optional]), spec },
]));
/**
 * Each field name with its closing quote, and the slots its first two of those bytes name (at most
 * two fields share them: `path`, `path_unknown`): a key is a field when its bytes equal that name,
 * so keys are never scanned on their own. Built from FIELD_NAMES.
 */
const QUOTED_FIELD_BYTES = _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.map((f) => Buffer.from(`${f}"`, "latin1"));
const SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
const SECOND_SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
QUOTED_FIELD_BYTES.forEach((q, i) => {
    const pair = (q[0] << 8) | q[1];
    if (SLOT_BY_KEY_PAIR[pair] === -1)
        SLOT_BY_KEY_PAIR[pair] = i;
    else if (SECOND_SLOT_BY_KEY_PAIR[pair] === -1)
        SECOND_SLOT_BY_KEY_PAIR[pair] = i;
    else
        throw new Error(`three fields start with the same bytes: ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[i]}`);
});
/** Whether the key bytes at `at` (after its opening quote) are the quoted field name `quoted`. */
function keyIs(buf, at, to, quoted) {
    const keyLen = quoted.length;
    if (at + keyLen >= to)
        return false;
    for (let j = 2; j < keyLen; j++)
        if (quoted[j] !== buf[at + j])
            return false;
    return true;
}
/** Constant strings matched by bytes, so the hot path allocates nothing for them. */
class ByteConstants {
    names;
    bytes;
    constructor(names) {
        this.names = names;
        this.bytes = names.map((n) => Buffer.from(n, "utf8"));
    }
    match(buf, start, end) {
        const len = end - start;
        for (let c = 0; c < this.bytes.length; c++) {
            const b = this.bytes[c];
            if (b.length !== len || b[0] !== buf[start])
                continue;
            let j = 1;
            while (j < len && b[j] === buf[start + j])
                j++;
            if (j === len)
                return this.names[c];
        }
        return undefined;
    }
}
const KINDS = new ByteConstants(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_KINDS */ .bz);
/** KIND_MASKS by the kind's place in KINDS: an array read instead of a Map lookup per line. */
const KIND_SPECS = KINDS.names.map((k) => KIND_MASKS.get(k));
const WRITE_OP_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .WRITE_OPS */ .V1]);
const SOURCE_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .EVENT_SOURCES */ .gi]);
const ERRNO_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MISSING_TARGET_ERRNOS */ .Vp]);
const T_STR = 1;
const T_NUM = 2;
const T_TRUE = 3;
const T_FALSE = 4;
const T_NULL = 5;
/** A non-empty array of plain strings (no escapes), such as exec's argv. */
const T_STR_ARRAY = 6;
/** What a walk judges by when no envelope is at hand (a footprint): nothing allowed, no network. */
const NOTHING_ALLOWED = {
    envelope_id: "nothing-allowed",
    allowed_roots: [],
    allowed_tools: [],
    allowed_env: [],
    allowed_hosts: [],
    network: "deny",
};
/**
 * The one walk of a log for everything that is not `check`'s verdict: the log read by the same
 * reader `check` uses (a log `check` refuses is refused here, with the same code), each event
 * handed on normalised with the rules' verdict under `envelope` (NOTHING_ALLOWED when null).
 */
function walkLog(log, envelope, roots = () => []) {
    const events = [];
    const loaded = {
        envelope: envelope ?? NOTHING_ALLOWED,
        hash: "sha256:walked",
        file: log.file,
        lines: new Map(),
    };
    const evaluator = new LogEvaluator(loaded, { file: log.file, roots, sink: (e) => events.push(e), anyEnvelope: true });
    evaluator.push(log.bytes);
    const verdict = evaluator.finish();
    return { file: log.file, meta: evaluator.metaLine(), events, exitCode: verdict.exit_code, verdict };
}
/**
 * The events between meta and end that a log's last line says it has (its `events` counts meta
 * too), or null when that line is not an end line. For a log no walk has judged (a run's result
 * file); it says nothing of whether the log is whole.
 */
function endLineEvents(line) {
    let end;
    try {
        end = JSON.parse(line);
    }
    catch {
        return null;
    }
    if (typeof end !== "object" || end === null)
        return null;
    const { kind, events } = end;
    return kind === "end" && typeof events === "number" && Number.isInteger(events) && events >= 1 ? events - 1 : null;
}
function isEscapedQuote(line, quoteIndex) {
    let backslashes = 0;
    for (let i = quoteIndex - 1; i >= 0 && line.charCodeAt(i) === 0x5c; i--)
        backslashes++;
    return (backslashes & 1) === 1;
}
/**
 * Counts the keys of the outermost object. JSON.parse keeps the last of two equal keys, so
 * comparing this with Object.keys finds duplicates without a second full parse.
 */
function countTopLevelKeys(line) {
    let depth = 0;
    let keys = 0;
    const n = line.length;
    let i = 0;
    while (i < n) {
        const c = line.charCodeAt(i);
        if (c === 0x22) {
            let j = line.indexOf('"', i + 1);
            while (j !== -1 && isEscapedQuote(line, j))
                j = line.indexOf('"', j + 1);
            if (j === -1)
                return -1;
            i = j + 1;
            continue;
        }
        if (c === 0x7b || c === 0x5b)
            depth++;
        else if (c === 0x7d || c === 0x5d)
            depth--;
        else if (c === 0x3a && depth === 1)
            keys++;
        i++;
    }
    return keys;
}
const STRING_QUOTE = 1;
const STRING_STOP = 2;
const STRING_HIGH = 3;
/** What each byte is inside a plain string: 0 for printable ASCII. */
const STRING_BYTE = new Uint8Array(256).map((_, x) => x === 0x22 ? STRING_QUOTE : x === 0x5c || x < 0x20 ? STRING_STOP : x >= 0x80 ? STRING_HIGH : 0);
/**
 * The index of the quote closing a string that starts at `from` and has no escapes or control
 * characters, or -1 when there is none before `to` (the strict path then decides). Whether the
 * string held only ASCII is written to `ascii[slot]` (1 or 0) when it ends.
 */
function plainStringEnd(buf, from, to, ascii, slot) {
    let high = 0;
    for (let j = from; j < to; j++) {
        const x = buf[j];
        const k = STRING_BYTE[x];
        if (k === 0)
            continue;
        if (k === STRING_QUOTE) {
            ascii[slot] = high === 0 ? 1 : 0;
            return j;
        }
        if (k === STRING_STOP)
            return -1;
        high = 1;
    }
    return -1;
}
const TAIL_NEEDS_FOLDING = 1;
const TAIL_HAS_GIT = 2;
/**
 * Whether the path bytes from `from` (a `/`) to `to` hold an empty, `.` or `..` segment (see
 * foldPath): TAIL_NEEDS_FOLDING; otherwise TAIL_HAS_GIT when they hold `/.git`.
 */
function scanPathTail(buf, from, to) {
    let flags = 0;
    for (let j = from; j < to - 1; j++) {
        if (buf[j] !== 0x2f)
            continue;
        const a = buf[j + 1];
        if (a === 0x2f)
            return TAIL_NEEDS_FOLDING;
        if (a === 0x2e) {
            const b = j + 2 < to ? buf[j + 2] : 0x2f;
            if (b === 0x2f)
                return TAIL_NEEDS_FOLDING;
            if (b === 0x2e && (j + 3 >= to || buf[j + 3] === 0x2f))
                return TAIL_NEEDS_FOLDING;
            if (b === 0x67 && j + 4 < to && buf[j + 3] === 0x69 && buf[j + 4] === 0x74)
                flags = TAIL_HAS_GIT;
        }
    }
    return flags;
}
function firstInvalidUtf8(bytes) {
    for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (b < 0x80)
            continue;
        const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
        if (need < 0)
            return i;
        for (let k = 1; k <= need; k++) {
            const cb = bytes[i + k];
            if (cb === undefined)
                return i;
            if ((cb & 0xc0) !== 0x80)
                return i;
        }
        i += need;
    }
    return bytes.length;
}
function asBuffer(chunk) {
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
/**
 * Judges an observer log as it streams past. Lines in the compact form the observer writes
 * are read straight from the bytes without building objects; any other line (escapes, white
 * space, arrays) takes the strict JSON.parse path. Both paths apply the same rules.
 */
class LogEvaluator {
    /** What the rules judge by: the envelope's, and the run's once its meta line is read. */
    rules;
    rootBytes = [];
    rootHasGit = [];
    anyRoot = false;
    /** Allowed tool names and exact env keys, matched on the line's bytes so an allowed one needs no string. */
    toolBytes;
    envExactBytes;
    hostSets;
    /** Endpoint -> set, for hosts allowed through a set (bounded by the sets' sizes: their members are exact). */
    viaSets = new Map();
    file;
    envelope;
    sink;
    anyEnvelope;
    rootsOf;
    metaObject = null;
    carry = null;
    lineNo = 0;
    meta = null;
    endSeen = false;
    endExit = null;
    useSeq = false;
    canaryBlockOpen = true;
    logPathBytes = null;
    /** Fast-path pre-filter (see mayBeProtected): the protected paths' bytes. */
    protectedPathBytes = [];
    /** Set by writeInsideFast when it returns true: the path holds a `/.git`. */
    pathHasGit = false;
    violations = new Map();
    counts = { write: 0, tool: 0, env: 0, host: 0, exec: 0, syscall: 0, canary: 0 };
    /** The current line: which fields it has, and where (fast path) or what (full path) they are. */
    buf = Buffer.alloc(0);
    mask = 0;
    slow = false;
    vals = new Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length).fill(undefined);
    tag = new Uint8Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    start = new Int32Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    end = new Int32Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    ascii = new Uint8Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    num = new Float64Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    constructor(envelope, options) {
        const e = envelope.envelope;
        this.envelope = envelope;
        this.file = options.file;
        this.sink = options.sink ?? null;
        this.anyEnvelope = options.anyEnvelope === true;
        const roots = typeof options.roots === "function" ? [] : options.roots;
        this.rootsOf = typeof options.roots === "function" ? options.roots : null;
        this.rules = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .ruleContext */ .wm)(e, roots);
        this.setRoots(roots);
        // Only names requireString accepts: a match then skips nothing it would have refused.
        const plain = (n) => n !== "" && !n.includes("\u0000");
        this.toolBytes = new ByteConstants(e.allowed_tools.filter(plain));
        this.envExactBytes = new ByteConstants(e.allowed_env.filter((k) => plain(k) && !k.endsWith("*") && !k.startsWith("@")));
        this.hostSets = this.rules.hosts.some((h) => h.set !== undefined);
    }
    setRoots(roots) {
        this.rules = { ...this.rules, roots };
        this.rootBytes = roots.map((r) => Buffer.from(r, "utf8"));
        this.rootHasGit = roots.map((r) => r.includes("/.git"));
        this.anyRoot = roots.includes("/");
    }
    /** The log's meta line as read, once it has been. */
    metaLine() {
        return this.metaObject;
    }
    /** Where the current line stands, for the walk. */
    at(subject) {
        const pid = this.val(SLOT.pid);
        const source = this.constant(SLOT.source, SOURCE_CONSTANTS);
        return { line: this.lineNo, pid: typeof pid === "number" ? pid : undefined, ppid: this.val(SLOT.ppid), source, subject };
    }
    malformed(message, line = this.lineNo) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_MALFORMED", `${this.file}:${line}: ${message}`, {
            file: this.file,
            line,
            hint: "The observer log is written only by `envelope-gate run`; a log that was edited or produced by something else is refused.",
        });
    }
    incomplete(message, line = this.lineNo) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_INCOMPLETE", `${this.file}:${line}: ${message}`, {
            file: this.file,
            line,
            hint: "The run did not finish under the observer (killed, crashed, or the log was cut). Run it again; an incomplete log never passes.",
        });
    }
    checkUtf8(buf, from, to) {
        if (to > from && !(0,node_buffer__WEBPACK_IMPORTED_MODULE_0__.isUtf8)(buf.subarray(from, to))) {
            const region = buf.subarray(from, to);
            const bad = firstInvalidUtf8(region);
            let line = this.lineNo + 1;
            for (let i = 0; i < bad; i++)
                if (region[i] === 0x0a)
                    line++;
            this.malformed("invalid UTF-8", line);
        }
    }
    /** Feeds the next bytes of the log. Throws a Refusal at the first problem. The chunk may be reused afterwards. */
    push(chunk) {
        const buf = asBuffer(chunk);
        let pos = 0;
        if (this.carry !== null) {
            const nl = buf.indexOf(0x0a);
            if (nl === -1) {
                this.carry = Buffer.concat([this.carry, buf]);
                if (this.carry.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                    this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
                return;
            }
            const line = Buffer.concat([this.carry, buf.subarray(0, nl)]);
            this.carry = null;
            if (line.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
            this.checkUtf8(line, 0, line.length);
            this.lineNo++;
            this.handleLine(line, 0, line.length);
            pos = nl + 1;
        }
        const lastNl = buf.lastIndexOf(0x0a);
        if (lastNl >= pos) {
            this.checkUtf8(buf, pos, lastNl);
            while (pos <= lastNl) {
                const nl = buf.indexOf(0x0a, pos);
                this.lineNo++;
                if (nl - pos > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                    this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`);
                this.handleLine(buf, pos, nl);
                pos = nl + 1;
            }
        }
        if (pos < buf.length) {
            this.carry = Buffer.from(buf.subarray(pos));
            if (this.carry.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
        }
    }
    /** Ends the stream and returns the verdict, or throws if the log is not whole. */
    finish() {
        if (this.carry !== null && this.carry.length > 0) {
            this.incomplete("the last line is truncated (no newline)", this.lineNo + 1);
        }
        if (this.meta === null)
            this.incomplete("the log is empty: no meta line", 1);
        if (!this.endSeen)
            this.incomplete("the log has no end line", this.lineNo);
        const violations = [...this.violations.values()].sort((a, b) => a.first_line - b.first_line);
        return {
            verdict: violations.length === 0 ? "pass" : "envelope_fail",
            envelope_id: this.envelope.envelope.envelope_id,
            envelope_hash: this.envelope.hash,
            events: this.lineNo - 2,
            violations,
            meta: this.meta,
            exit_code: this.endExit,
            counts: { ...this.counts },
            via_sets: [...this.viaSets].map(([host, set]) => ({ host, set })),
        };
    }
    handleLine(buf, from, to) {
        const end = to > from && buf[to - 1] === 0x0d ? to - 1 : to;
        if (this.endSeen)
            this.malformed("content after the end line");
        if (this.lineNo === 1) {
            if (end - from >= 3 && buf[from] === 0xef && buf[from + 1] === 0xbb && buf[from + 2] === 0xbf) {
                this.malformed("the log starts with a byte order mark");
            }
            this.readMeta(this.parseObject(buf.toString("utf8", from, end)));
            return;
        }
        this.buf = buf;
        let mask = this.scanFlat(buf, from, end);
        if (mask === -1) {
            this.slow = true;
            mask = this.slotsFromParsed(this.parseObject(buf.toString("utf8", from, end)));
        }
        else {
            this.slow = false;
        }
        this.mask = mask;
        this.handleEvent();
    }
    /**
     * Reads the compact flat objects the observer writes (`{"k":"v","n":1,...}`: no white space,
     * no escapes, no nesting) straight from the bytes into slots. Returns the field mask, or -1
     * when the line needs the full JSON path, which then decides whether it is valid at all.
     */
    scanFlat(buf, from, to) {
        if (to - from < 2 || buf[from] !== 0x7b || buf[to - 1] !== 0x7d)
            return -1;
        if (to - from === 2)
            return 0;
        const { tag, start, end, ascii, num } = this;
        let mask = 0;
        let i = from + 1;
        for (;;) {
            if (buf[i] !== 0x22)
                return -1;
            if (i + 2 >= to)
                return -1;
            const pair = (buf[i + 1] << 8) | buf[i + 2];
            let slot = SLOT_BY_KEY_PAIR[pair];
            if (slot < 0)
                return -1;
            if (!keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot])) {
                slot = SECOND_SLOT_BY_KEY_PAIR[pair];
                if (slot < 0 || !keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot]))
                    return -1;
            }
            const keyLen = QUOTED_FIELD_BYTES[slot].length;
            const b = 1 << slot;
            if ((mask & b) !== 0)
                return -1;
            i += 1 + keyLen;
            if (buf[i] !== 0x3a)
                return -1;
            i++;
            const c = buf[i];
            if (c === 0x22) {
                const j = plainStringEnd(buf, i + 1, to, ascii, slot);
                if (j < 0)
                    return -1;
                tag[slot] = T_STR;
                start[slot] = i + 1;
                end[slot] = j;
                i = j + 1;
            }
            else if (c === 0x5b && buf[i + 1] === 0x22) {
                // A flat array of plain strings; val() parses it when asked.
                let j = i + 1;
                for (;;) {
                    if (buf[j] !== 0x22)
                        return -1;
                    // An array's strings are read again by val(), which needs no ASCII flag.
                    j = plainStringEnd(buf, j + 1, to, ascii, slot);
                    if (j < 0)
                        return -1;
                    j++;
                    if (buf[j] === 0x2c) {
                        j++;
                        continue;
                    }
                    if (buf[j] === 0x5d)
                        break;
                    return -1;
                }
                tag[slot] = T_STR_ARRAY;
                start[slot] = i;
                end[slot] = j + 1;
                i = j + 1;
            }
            else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
                let j = c === 0x2d ? i + 1 : i;
                const digitsStart = j;
                let value = 0;
                while (j < to) {
                    const d = buf[j];
                    if (d < 0x30 || d > 0x39)
                        break;
                    value = value * 10 + (d - 0x30);
                    j++;
                }
                const digits = j - digitsStart;
                if (digits === 0 || digits > 15)
                    return -1;
                if (digits > 1 && buf[digitsStart] === 0x30)
                    return -1;
                const next = buf[j];
                if (next === 0x2e || next === 0x65 || next === 0x45)
                    return -1;
                tag[slot] = T_NUM;
                num[slot] = c === 0x2d ? -value : value;
                i = j;
            }
            else if (c === 0x74 && buf[i + 1] === 0x72 && buf[i + 2] === 0x75 && buf[i + 3] === 0x65) {
                tag[slot] = T_TRUE;
                i += 4;
            }
            else if (c === 0x66 && buf[i + 1] === 0x61 && buf[i + 2] === 0x6c && buf[i + 3] === 0x73 && buf[i + 4] === 0x65) {
                tag[slot] = T_FALSE;
                i += 5;
            }
            else if (c === 0x6e && buf[i + 1] === 0x75 && buf[i + 2] === 0x6c && buf[i + 3] === 0x6c) {
                tag[slot] = T_NULL;
                i += 4;
            }
            else {
                return -1;
            }
            mask |= b;
            const sep = buf[i];
            if (sep === 0x2c) {
                i++;
                continue;
            }
            return sep === 0x7d && i === to - 1 ? mask : -1;
        }
    }
    /** The full, strict path: JSON.parse, then a duplicate-key check JSON.parse cannot do. */
    parseObject(line) {
        let parsed;
        try {
            parsed = JSON.parse(line);
        }
        catch (err) {
            if (line.trim() === "")
                this.malformed("empty line");
            this.malformed(`not JSON (${err.message})`);
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
            this.malformed("each line must be a JSON object");
        }
        if (countTopLevelKeys(line) !== Object.keys(parsed).length)
            this.malformed("duplicate key in the object");
        return parsed;
    }
    slotsFromParsed(obj) {
        let mask = 0;
        for (const key of Object.keys(obj)) {
            const slot = SLOT_BY_NAME.get(key);
            if (slot === undefined) {
                if (obj.kind === "meta")
                    this.malformed("a second meta line");
                this.malformed(`unknown field "${key}" on a ${typeof obj.kind === "string" ? obj.kind : "line"} event`);
            }
            this.vals[slot] = obj[key];
            mask |= 1 << slot;
        }
        return mask;
    }
    has(slot) {
        return (this.mask & (1 << slot)) !== 0;
    }
    /** A field's value as JSON would give it, or undefined when the line lacks it. */
    val(slot) {
        if ((this.mask & (1 << slot)) === 0)
            return undefined;
        if (this.slow)
            return this.vals[slot];
        switch (this.tag[slot]) {
            case T_STR:
                return this.buf.toString(this.ascii[slot] === 1 ? "latin1" : "utf8", this.start[slot], this.end[slot]);
            case T_NUM:
                return this.num[slot];
            case T_TRUE:
                return true;
            case T_FALSE:
                return false;
            case T_STR_ARRAY:
                return JSON.parse(this.buf.toString("utf8", this.start[slot], this.end[slot]));
            default:
                return null;
        }
    }
    /** A string field matched against known constants without allocating; undefined when it is none of them. */
    constant(slot, constants) {
        if ((this.mask & (1 << slot)) === 0)
            return undefined;
        if (this.slow) {
            const v = this.vals[slot];
            return typeof v === "string" && constants.names.includes(v) ? v : undefined;
        }
        if (this.tag[slot] !== T_STR)
            return undefined;
        return constants.match(this.buf, this.start[slot], this.end[slot]);
    }
    isNumber(slot, expected) {
        if (this.slow)
            return this.vals[slot] === expected;
        return this.tag[slot] === T_NUM && this.num[slot] === expected && (this.mask & (1 << slot)) !== 0;
    }
    handleEvent() {
        if (!this.isNumber(SLOT.v, _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae))
            this.malformed(`"v" must be ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae}`);
        const kind = this.constant(SLOT.kind, KINDS);
        if (kind === undefined) {
            const raw = this.val(SLOT.kind);
            if (typeof raw !== "string")
                this.malformed(`"kind" must be a string`);
            this.malformed(`unknown kind "${raw}"`);
        }
        if (kind === "meta")
            this.malformed("a second meta line");
        const spec = KIND_SPECS[KINDS.names.indexOf(kind)];
        if (spec === undefined)
            this.malformed(`unknown kind "${kind}"`);
        const unknown = this.mask & ~spec.allowed;
        if (unknown !== 0)
            this.malformed(`unknown field "${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[31 - Math.clz32(unknown & -unknown)]}" on a ${kind} event`);
        if ((this.mask & spec.required) !== spec.required) {
            const missing = spec.spec.required.find((f) => !this.has(SLOT[f]));
            this.malformed(`a ${kind} event needs "${missing}"`);
        }
        this.checkCommon();
        // The wrapper's look at the filesystem (src/core/effects.ts) records writes only, never in the self-check.
        if (kind !== "write" && this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
            this.malformed(`"source": "effects" is only on write events`);
        }
        if (this.has(SLOT.canary) && this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
            this.malformed(`"source": "effects" is never a canary event`);
        }
        if (kind === "end") {
            this.readEnd();
            return;
        }
        const canary = this.has(SLOT.canary);
        if (canary) {
            if (!this.canaryBlockOpen)
                this.malformed("a canary event after the self-check block");
            this.counts.canary++;
        }
        else {
            this.canaryBlockOpen = false;
        }
        switch (kind) {
            case "write":
                this.onWrite(canary);
                break;
            case "tool":
                this.onTool(canary);
                break;
            case "env":
                this.onEnv(canary);
                break;
            case "host":
                this.onHost(canary);
                break;
            case "exec":
                this.onExec(canary);
                break;
            case "syscall":
                this.onSyscall(canary);
                break;
        }
    }
    checkCommon() {
        if (this.useSeq) {
            if (!this.has(SLOT.seq) || !this.isNumber(SLOT.seq, this.lineNo - 1)) {
                this.malformed(`"seq" must be ${this.lineNo - 1} (events out of sequence)`);
            }
        }
        else if (this.has(SLOT.seq)) {
            this.malformed(`"seq" appears, but the meta line has none`);
        }
        if (this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === undefined) {
            this.malformed(`"source" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .EVENT_SOURCES */ .gi].join(", ")}`);
        }
        if (this.has(SLOT.canary) && this.val(SLOT.canary) !== true)
            this.malformed(`"canary" may only be true`);
        if (this.has(SLOT.pid) && !Number.isInteger(this.val(SLOT.pid)))
            this.malformed(`"pid" must be an integer`);
    }
    readMeta(obj) {
        if (obj.v !== _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae)
            this.malformed(`"v" must be ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae}`);
        if (obj.kind !== "meta")
            this.incomplete("the first line must be the meta line");
        const field = (name) => {
            const value = obj[name];
            if (typeof value !== "string" || value === "")
                this.malformed(`meta needs a non-empty string "${name}"`);
            return value;
        };
        const meta = {
            run_id: field("run_id"),
            envelope_hash: field("envelope_hash"),
            runner: field("runner"),
            started_at: field("started_at"),
            extra: {},
        };
        for (const [k, v] of Object.entries(obj)) {
            if (!["v", "kind", "run_id", "envelope_hash", "runner", "started_at", "seq"].includes(k))
                meta.extra[k] = v;
        }
        if ("seq" in obj) {
            if (obj.seq !== 0)
                this.malformed(`meta "seq" must be 0`);
            this.useSeq = true;
        }
        this.checkObservers(obj.observers);
        if (this.rootsOf !== null)
            this.setRoots(this.rootsOf(obj));
        this.checkWithheld(obj.withheld);
        this.checkRecorder(obj.recorder);
        this.checkReleaseName(obj.envelope_gate);
        const protectedSet = (0,_protected_js__WEBPACK_IMPORTED_MODULE_3__/* .protectedFromMeta */ .UB)(obj.protected, obj.workspace, obj.scratch);
        if (typeof protectedSet === "string")
            this.malformed(protectedSet, 1);
        this.protectedPathBytes = protectedSet.paths.map((p) => Buffer.from(p, "utf8"));
        const logPath = typeof obj.log_path === "string" ? (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(obj.log_path) : null;
        this.logPathBytes = logPath === null ? null : Buffer.from(logPath, "utf8");
        this.rules = { ...this.rules, logPath, protectedSet, ownNetwork: obj.network_enforced === true };
        this.metaObject = obj;
        if (meta.envelope_hash !== this.envelope.hash && !this.anyEnvelope) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_ENVELOPE_MISMATCH", `${this.file}:1: the log was recorded under ${meta.envelope_hash}, but the checked envelope is ${this.envelope.hash}`, {
                file: this.file,
                line: 1,
                hint: "Check the log against the envelope it was recorded under, or record it again under this envelope.",
            });
        }
        this.meta = meta;
    }
    /** `meta.recorder` (optional): `{"name": "ebpf" | "strace", "fallback"?: "<why the eBPF recorder did not run>"}`. */
    checkRecorder(recorder) {
        if (recorder === undefined)
            return;
        const ok = typeof recorder === "object" &&
            recorder !== null &&
            !Array.isArray(recorder) &&
            Object.keys(recorder).every((k) => k === "name" || k === "fallback") &&
            (recorder.name === "ebpf" || recorder.name === "strace") &&
            (recorder.fallback === undefined ||
                (recorder.name === "strace" && typeof recorder.fallback === "string" && recorder.fallback !== ""));
        if (!ok)
            this.malformed(`meta "recorder" must be {"name": "ebpf" or "strace", "fallback"?: a non-empty reason (strace only)}`, 1);
    }
    /** `meta.envelope_gate` (optional): the release that recorded the log, a semantic version without a "v". */
    checkReleaseName(release) {
        if (release === undefined)
            return;
        if (typeof release !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(release)) {
            this.malformed(`meta "envelope_gate" must be the release that recorded the log, a version such as "1.0.0"`, 1);
        }
    }
    /** `meta.withheld` (optional): the caller's environment keys the run did not pass, names only. */
    checkWithheld(withheld) {
        if (withheld === undefined)
            return;
        if (!Array.isArray(withheld) ||
            !withheld.every((k) => typeof k === "string" && k !== "" && !k.includes("=")) ||
            new Set(withheld).size !== withheld.length) {
            this.malformed(`meta "withheld" must be an array of distinct environment key names`, 1);
        }
    }
    /**
     * Observation is policy: a log without the process-level observer passes only when the
     * hash-pinned envelope itself allows it (`"observation": "node"`). A flag on the runner never does.
     */
    checkObservers(observers) {
        if (!Array.isArray(observers) || observers.length === 0 || !observers.every((o) => o === "node" || o === "process")) {
            this.malformed(`meta needs "observers": a non-empty array of "node" and "process"`, 1);
        }
        if (observers.includes("process") || this.anyEnvelope)
            return;
        if (this.envelope.envelope.observation === "node" && observers.includes("node"))
            return;
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVATION_PARTIAL", `${this.file}:1: the log was recorded with only ${JSON.stringify(observers)} observing: the process-level observer did not run, so nothing outside Node was seen`, {
            file: this.file,
            line: 1,
            hint: 'Record the run under full observation (without --node-only). An envelope that accepts Node-only observation says so itself: "observation": "node".',
        });
    }
    readEnd() {
        const events = this.val(SLOT.events);
        if (!Number.isInteger(events))
            this.malformed(`end "events" must be an integer`);
        const exit = this.val(SLOT.exit_code);
        if (exit !== null && !Number.isInteger(exit))
            this.malformed(`end "exit_code" must be an integer or null`);
        if (events !== this.lineNo - 1) {
            this.incomplete(`end says ${String(events)} lines came before it, but ${this.lineNo - 1} did`);
        }
        this.endSeen = true;
        this.endExit = exit;
    }
    record(rule, subject) {
        const id = `${rule}:${subject}`;
        const existing = this.violations.get(id);
        if (existing) {
            existing.count++;
        }
        else {
            this.violations.set(id, { id, rule, subject, first_line: this.lineNo, count: 1 });
        }
    }
    requireString(slot) {
        const value = this.val(slot);
        if (typeof value !== "string" || value === "")
            this.malformed(`"${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" must be a non-empty string`);
        if (value.includes("\u0000"))
            this.malformed(`"${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" contains a NUL character`);
        return value;
    }
    /** Records what `rule` says of this line, if anything. */
    judged(rule, subject) {
        if (rule !== null)
            this.record(rule, subject);
    }
    writePath() {
        const folded = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.path));
        if (folded === null)
            this.malformed(`write "path" must be absolute`);
        return folded;
    }
    onWrite(canary) {
        this.counts.write++;
        if (this.constant(SLOT.op, WRITE_OP_CONSTANTS) === undefined) {
            this.malformed(`write "op" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .WRITE_OPS */ .V1].join(", ")}`);
        }
        if (this.has(SLOT.path_unknown))
            this.pathUnknown();
        if (this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
            this.onEffect();
            return;
        }
        if (this.has(SLOT.errno)) {
            this.checkMissingTarget();
            this.judgeWriteLine("missing_target", canary);
            return;
        }
        if (this.has(SLOT.ok) && this.val(SLOT.ok) === false) {
            this.judgeWriteLine("refused", canary);
            return;
        }
        if (!this.slow && this.tag[SLOT.path] === T_STR) {
            const from = this.start[SLOT.path];
            const to = this.end[SLOT.path];
            // The path as the bytes give it is folded already when this says where it is.
            const inside = this.writeInsideFast(from, to);
            if (inside !== undefined) {
                if (canary)
                    return;
                const plain = inside && !this.mayBeProtected(from, to);
                if (plain && this.sink === null)
                    return;
                const path = this.val(SLOT.path);
                this.wrote(path, "done", plain ? null : (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeWrite */ .RL)(this.rules, path, "done", inside));
                return;
            }
        }
        this.judgeWriteLine("done", canary);
    }
    /** A write the rules have judged: recorded if it breaks one, and handed to the walk. */
    wrote(path, outcome, verdict) {
        this.judged(verdict, path);
        if (this.sink !== null)
            this.sink({ ...this.at(path), kind: "write", op: String(this.val(SLOT.op)), outcome, verdict });
    }
    /** A line of the effects check: what the filesystem shows, never a call that failed or was refused. */
    onEffect() {
        if (this.has(SLOT.errno) || this.has(SLOT.ok))
            this.malformed(`"source": "effects" never has "errno" or "ok"`);
        const path = this.writePath();
        this.wrote(path, "effect", (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeEffect */ .l6)(this.rules, path));
    }
    judgeWriteLine(outcome, canary) {
        const path = this.writePath();
        if (!canary)
            this.wrote(path, outcome, (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeWrite */ .RL)(this.rules, path, outcome));
    }
    /**
     * A write whose file the recorder could not know (`path_unknown`): the log is refused, whatever
     * the path it names, since judging that path could pass a write to another file. Canaries too.
     */
    pathUnknown() {
        const reason = this.val(SLOT.path_unknown);
        if (typeof reason !== "string" || !_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .PATH_UNKNOWN_REASON */ .kX.test(reason)) {
            this.malformed(`write "path_unknown" must be a reason: lower-case letters, digits and "-"`);
        }
        if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process")
            this.malformed(`write "path_unknown" comes only from the process observer`);
        const path = this.requireString(SLOT.path);
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_PATH_UNKNOWN", `${this.file}:${this.lineNo}: the process recorder could not know which file this ${String(this.val(SLOT.op))} acted on (${reason}; the program named ${JSON.stringify(path)})`, {
            file: this.file,
            line: this.lineNo,
            hint: "The run made a change whose path the recorder cannot tell exactly, so no verdict can be given on it. Avoid the construct named (a change through /proc/<pid>/fd or /dev/fd names), or record the run with the eBPF recorder.",
        });
    }
    /**
     * A write call the kernel failed with ENOENT or ENOTDIR: only the process observer's word counts
     * (it reads the kernel's answer).
     */
    checkMissingTarget() {
        if (this.constant(SLOT.errno, ERRNO_CONSTANTS) === undefined) {
            this.malformed(`write "errno" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MISSING_TARGET_ERRNOS */ .Vp].join(", ")}`);
        }
        if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process")
            this.malformed(`write "errno" comes only from the process observer`);
        if (this.has(SLOT.ok))
            this.malformed(`a write with "errno" carries no "ok"`);
    }
    /**
     * A cheap superset of isProtectedWrite on a folded path's bytes: it starts with a protected
     * path, or holds a `/.git` (the lexical rule). Only a path that passes is judged as a string.
     */
    mayBeProtected(from, to) {
        if (this.pathHasGit)
            return true;
        const buf = this.buf;
        const len = to - from;
        for (const p of this.protectedPathBytes) {
            // From the end: paths under one root share their start.
            let k = p.length - 1;
            if (k >= len)
                continue;
            while (k >= 0 && p[k] === buf[from + k])
                k--;
            if (k < 0)
                return true;
        }
        return false;
    }
    /**
     * Root containment on the raw bytes of an already-folded path (UTF-8 keeps prefixes and `/`
     * intact, so this equals the string comparison). Returns undefined when the path needs
     * folding or is not absolute, leaving it to the string path.
     */
    writeInsideFast(from, to) {
        const buf = this.buf;
        const len = to - from;
        if (len === 0 || buf[from] !== 0x2f)
            return undefined;
        if (len > 1 && buf[to - 1] === 0x2f)
            return undefined;
        const logPath = this.logPathBytes;
        // Equal to the folded log path means folded already.
        if (logPath !== null && logPath.length === len && buf.compare(logPath, 0, len, from, to) === 0)
            return false;
        if (this.anyRoot)
            return this.insideRoot(from, to, false);
        for (let r = 0; r < this.rootBytes.length; r++) {
            const root = this.rootBytes[r];
            const rl = root.length;
            if (len < rl || (len > rl && buf[from + rl] !== 0x2f))
                continue;
            let k = rl - 1;
            while (k >= 0 && root[k] === buf[from + k])
                k--;
            // A folded root has no `.`, `..` or empty segment, so only what follows it can need folding;
            // and a `/.git` cannot straddle its end, where the path has a `/`.
            if (k < 0)
                return this.insideRoot(from + rl, to, this.rootHasGit[r]);
        }
        return (scanPathTail(buf, from, to) & TAIL_NEEDS_FOLDING) !== 0 ? undefined : false;
    }
    insideRoot(tailFrom, to, rootHasGit) {
        const flags = scanPathTail(this.buf, tailFrom, to);
        if ((flags & TAIL_NEEDS_FOLDING) !== 0)
            return undefined;
        this.pathHasGit = rootHasGit || (flags & TAIL_HAS_GIT) !== 0;
        return true;
    }
    /** Whether a string field, read from the bytes, is one of `constants` (false on the strict path). */
    isFastConstant(slot, constants) {
        return (!this.slow &&
            (this.mask & (1 << slot)) !== 0 &&
            this.tag[slot] === T_STR &&
            constants.match(this.buf, this.start[slot], this.end[slot]) !== undefined);
    }
    onTool(canary) {
        this.counts.tool++;
        if (this.sink === null && this.isFastConstant(SLOT.name, this.toolBytes))
            return;
        const name = this.requireString(SLOT.name);
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeTool */ .y7)(this.rules, name);
        this.judged(verdict, name);
        if (this.sink !== null)
            this.sink({ ...this.at(name), kind: "tool", verdict });
    }
    onEnv(canary) {
        this.counts.env++;
        if (this.sink === null && this.isFastConstant(SLOT.key, this.envExactBytes))
            return;
        const key = this.requireString(SLOT.key);
        if (canary)
            return;
        const source = this.constant(SLOT.source, SOURCE_CONSTANTS);
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeEnv */ .r0)(this.rules, key, source);
        this.judged(verdict, key);
        if (this.sink !== null) {
            this.sink({ ...this.at(key), kind: "env", op: this.val(SLOT.op), runtime: (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .isRuntimeOwnRead */ .P9)(key, source), verdict });
        }
    }
    onHost(canary) {
        this.counts.host++;
        const host = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .hostName */ .Sm)(this.requireString(SLOT.host));
        const port = this.val(SLOT.port);
        if (port !== undefined && port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) {
            this.malformed(`host "port" must be an integer from 0 to 65535`);
        }
        for (const slot of [SLOT.bytes_in, SLOT.bytes_out]) {
            const bytes = this.val(slot);
            if (bytes !== undefined && (!Number.isSafeInteger(bytes) || bytes < 0)) {
                this.malformed(`host "${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" must be a non-negative integer`);
            }
        }
        if (canary)
            return;
        const p = (port ?? null);
        const via = this.val(SLOT.via);
        const rule = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeHost */ .Ii)(this.rules, host, p, via);
        const set = rule === null && this.hostSets ? (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .hostViaSet */ .TI)(this.rules, host, p) : null;
        if (rule !== null) {
            this.record(rule, (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(host, p));
        }
        else if (set !== null) {
            const endpoint = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(host, p);
            if (!this.viaSets.has(endpoint))
                this.viaSets.set(endpoint, set);
        }
        if (this.sink !== null) {
            // The name judgeHost also allows it by: the one its hooks connected by, where they said.
            const name = typeof via === "string" && via !== "" ? (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .normalizeHost */ .cS)(via) : host;
            this.sink({
                ...this.at((0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(name, p)),
                kind: "host",
                host,
                port: p,
                name,
                ownLoopback: rule !== "docker_refused" && (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .isRunOwnLoopback */ .tv)(this.rules, host),
                viaSet: set,
                verdict: rule,
            });
        }
    }
    onSyscall(canary) {
        this.counts.syscall++;
        const name = this.requireString(SLOT.name);
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeSyscall */ .te)();
        this.record(verdict, name);
        if (this.sink !== null)
            this.sink({ ...this.at(name), kind: "syscall", verdict });
    }
    onExec(canary) {
        this.counts.exec++;
        const path = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.path));
        if (path === null)
            this.malformed(`exec "path" must be absolute`);
        // The byte path has already read a T_STR_ARRAY as strings.
        if (this.slow || this.tag[SLOT.argv] !== T_STR_ARRAY) {
            const argv = this.val(SLOT.argv);
            if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
                this.malformed(`exec "argv" must be an array of strings`);
            }
        }
        const jailPid = this.val(SLOT.jail_pid);
        if (jailPid !== undefined && (!Number.isInteger(jailPid) || jailPid <= 0)) {
            this.malformed(`exec "jail_pid" must be a positive integer`);
        }
        let interpreter = null;
        if (this.has(SLOT.interpreter)) {
            interpreter = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.interpreter));
            if (interpreter === null)
                this.malformed(`exec "interpreter" must be absolute`);
        }
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeExec */ .TN)(this.rules, path);
        this.judged(verdict, path);
        // A script's interpreter ran too: judged as any command, by its own path.
        const interpreted = interpreter === null ? null : (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeExec */ .TN)(this.rules, interpreter);
        if (interpreter !== null)
            this.judged(interpreted, interpreter);
        if (this.sink !== null) {
            const argv = this.val(SLOT.argv);
            const entry = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .commandEntry */ .Wv)(path, argv);
            const pid = jailPid;
            this.sink({ ...this.at(entry), kind: "exec", path, argv, jailPid: pid, verdict });
            if (interpreter !== null)
                this.sink({ ...this.at(interpreter), kind: "exec", path: interpreter, argv, jailPid: pid, interprets: path, verdict: interpreted });
        }
    }
}


/***/ }),

/***/ 6706:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   D4: () => (/* binding */ plainTitle),
/* harmony export */   F: () => (/* binding */ mdFence),
/* harmony export */   YF: () => (/* binding */ mdLink),
/* harmony export */   ZD: () => (/* binding */ escapeHtml),
/* harmony export */   _n: () => (/* binding */ clipMarkdown),
/* harmony export */   bC: () => (/* binding */ mdText),
/* harmony export */   v7: () => (/* binding */ safeHref),
/* harmony export */   wh: () => (/* binding */ plainText),
/* harmony export */   xs: () => (/* binding */ mdCode)
/* harmony export */ });
/**
 * Attacker-controlled strings where a reviewer reads them. Pure.
 *
 * Violation subjects, PR file names, property details (command output), runner.json fields,
 * branch names, ledger cells and error messages that quote input all come from the pull request
 * or from an evidence bundle it produced. Each goes through exactly one of these, chosen by how
 * GitHub shows the place it lands:
 *
 * - `mdText`: inline text in GitHub-flavoured markdown with HTML (check-run summary and text, job
 *   summary, PR body): table cells, list items, headings, paragraphs.
 * - `mdCode`: the same text as an inline code span.
 * - `mdFence`: lines shown verbatim in a fenced code block.
 * - `plainText`: places GitHub shows as plain text (annotation title and message, check-run title).
 * - `plainTitle`: plain text that GitHub still links (PR title, commit message): mentions and
 *   issue references are broken as in `mdText`.
 * - `escapeHtml`: the App's HTML status page.
 *
 * All of them show characters that change how text reads without showing themselves (zero-width,
 * bidi controls, control characters, Unicode spaces other than U+0020) as `\u{XXXX}` text, so a
 * reviewer sees that they are there; newlines and tabs are flattened to a space.
 */
/**
 * Inserted after `@` and inside `#123`/`GH-123`: ZERO WIDTH SPACE, as the entity in markdown.
 * GitHub finds mentions and issue references in the rendered text (after entities are decoded),
 * as `@` then a login character and `#` then a digit. U+200B is neither, so `@&#8203;team` renders
 * as "@", an invisible U+200B, then "team", which notifies nobody, and `#&#8203;12` links no issue (nor closes it through a
 * "fixes #12" in a merged PR or commit). An entity for `@` itself (`&#64;`) would not do: it is
 * decoded before GitHub looks, and a backslash escape (`\@`) neither. This is what Dependabot and
 * Renovate insert for the same reason.
 */
const BREAK_ENTITY = "&#8203;";
const BREAK_CHAR = "\u200b";
/** Code points shown as `\u{XXXX}`: controls, zero-width, bidi, invisible fillers and odd spaces. */
const INVISIBLE = 
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- one code point at a time, on purpose
/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;
/** Newlines and tabs: flattened to one space where text is inline. */
const FLATTEN = /^[\t\n\r]$/;
/** ASCII punctuation that starts or ends a markdown construct anywhere in a line. */
const MD_ALWAYS = new Set(["\\", "`", "*", "_", "~", "[", "]", "(", ")", "!", "<", ">", "&", "|", ":", "#"]);
/** The visible stand-in of an invisible code point. */
function visibleCodePoint(cp) {
    return `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}`;
}
/** Code points of `s`, lone surrogates kept as their own code point. */
function codePoints(s) {
    return Array.from(s);
}
function isInvisible(ch) {
    return INVISIBLE.test(ch);
}
/** Joins units, cutting whole units only, with `…` when something was left out. */
function joinClipped(units, max) {
    const all = units.join("");
    if (max === undefined || all.length <= max)
        return all;
    let out = "";
    for (const u of units) {
        if (out.length + u.length > max - 1)
            break;
        out += u;
    }
    return `${out}…`;
}
/** Plain text for places GitHub does not render as markdown: invisible characters shown, lines flattened. */
function plainText(s, max) {
    const units = codePoints(s).map((ch) => (FLATTEN.test(ch) ? " " : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch));
    return joinClipped(units, max);
}
/**
 * Plain text that GitHub still scans for mentions and issue references (PR titles, commit
 * messages): as `plainText`, with a raw U+200B after `@` and inside `#123` / `GH-123`.
 */
function plainTitle(s, max) {
    const chars = codePoints(s);
    const units = chars.map((ch, i) => {
        if (FLATTEN.test(ch))
            return " ";
        if (isInvisible(ch))
            return visibleCodePoint(ch.codePointAt(0) ?? 0);
        if (ch === "@")
            return `@${BREAK_CHAR}`;
        if (refStart(chars, i))
            return `${ch}${BREAK_CHAR}`;
        return ch;
    });
    return joinClipped(units, max);
}
/** `#` before a digit, or the `-` of `GH-` before a digit: where GitHub would link an issue. */
function refStart(chars, i) {
    const next = chars[i + 1] ?? "";
    if (!/^[0-9]$/.test(next))
        return false;
    if (chars[i] === "#")
        return true;
    return chars[i] === "-" && /^gh$/i.test(`${chars[i - 2] ?? ""}${chars[i - 1] ?? ""}`);
}
/**
 * Inline markdown text that renders as exactly the characters given (invisible ones shown), with
 * no element, attribute, link, image, mention, issue reference, emphasis, code, math, heading or
 * other block from it, wherever an inline string goes: a table cell, a list item, a heading, a
 * paragraph, the start of a line. `max` bounds the escaped length; the cut falls between whole
 * escapes and is marked with `…`.
 */
function mdText(s, max) {
    const chars = codePoints(s);
    const units = [];
    const leadingDigits = /^[0-9]{1,9}(?=[.)])/.exec(s)?.[0].length ?? -1;
    for (let i = 0; i < chars.length; i++) {
        const ch = chars[i];
        const first = i === 0;
        const last = i === chars.length - 1;
        let unit;
        if (FLATTEN.test(ch) || ch === " ") {
            // A space that opens or closes the string could indent a code block or end a line with a
            // hard break: an entity renders the same space and is neither.
            unit = first || last ? "&#32;" : " ";
        }
        else if (isInvisible(ch))
            unit = `\\${visibleCodePoint(ch.codePointAt(0) ?? 0)}`;
        else if (ch === "@")
            unit = `@${BREAK_ENTITY}`;
        else if (refStart(chars, i))
            unit = ch === "#" ? `\\#${BREAK_ENTITY}` : `-${BREAK_ENTITY}`;
        // GitHub's math: a backslash does not escape `$` outside an expression; a span does (GitHub's docs).
        else if (ch === "$")
            unit = "<span>$</span>";
        else if (MD_ALWAYS.has(ch))
            unit = `\\${ch}`;
        // Block starts: list items, setext underlines, ordered lists.
        else if (first && (ch === "-" || ch === "+" || ch === "="))
            unit = `\\${ch}`;
        else if (i === leadingDigits && ch === ".")
            unit = "\\.";
        // `www.` starts a GFM autolink literal; `http://` is broken by the escaped `:`.
        else if (ch === "." && /^www$/i.test(chars.slice(Math.max(0, i - 3), i).join("")))
            unit = "\\.";
        else
            unit = ch;
        units.push(unit);
    }
    return joinClipped(units, max);
}
/**
 * An inline code span showing `s` verbatim (invisible characters shown, lines flattened), whatever
 * backticks it holds: fenced by a backtick run longer than any inside, padded with a space where
 * it starts or ends with a backtick or a space (GFM strips one from each side). In a table cell
 * (`inTable`), `|` is written `\|`, which the table reads as a pipe of the cell's content.
 * `max` bounds the shown characters (not the fence).
 */
function mdCode(s, options = {}) {
    const shown = plainText(s, options.max);
    if (shown === "")
        return "";
    // A table splits its row before it reads code spans, and `\\|` there is an escaped backslash
    // then a cell's end: such text is shown as escaped text instead, which keeps every character.
    if (options.inTable && /\\\|/.test(shown))
        return mdText(s, options.max);
    const content = options.inTable ? shown.replace(/\|/g, "\\|") : shown;
    const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    const pad = /^[` ]|[` ]$/.test(content) ? " " : "";
    return `${fence}${pad}${content}${pad}${fence}`;
}
/** A fenced code block showing `text`'s lines verbatim (invisible characters shown), whatever fences they hold. */
function mdFence(text, info = "") {
    const lines = text.split(/\r\n|\r|\n/).map((line) => codePoints(line)
        .map((ch) => (ch !== "\t" && isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
        .join(""));
    const longest = Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+|~+/g)].map((m) => m[0].length)));
    const fence = "`".repeat(Math.max(3, longest + 1));
    return [`${fence}${info}`, ...lines, fence].join("\n");
}
/**
 * Cuts a markdown document to `max` characters at a line boundary, so no escape, entity, code
 * span or table row is cut in half, and appends `tail`. A document whose first line is already too
 * long keeps only the tail.
 */
function clipMarkdown(md, max, tail = "") {
    if (md.length <= max)
        return md;
    const room = Math.max(0, max - tail.length);
    const cut = md.lastIndexOf("\n", room);
    return `${cut <= 0 ? "" : md.slice(0, cut)}${tail}`.slice(0, max);
}
/**
 * Text in HTML (element content and quoted attribute values): `& < > " '` as entities, and the
 * invisible characters shown as in `plainText` (a bidi control on the status page would reorder
 * what an operator reads).
 */
function escapeHtml(v) {
    return codePoints(String(v ?? ""))
        .map((ch) => (/[&<>"']/.test(ch) ? `&#${ch.charCodeAt(0)};` : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
        .join("");
}
/** An address safe to put in an `href`: http(s) only, anything else is no link. */
function safeHref(url) {
    if (typeof url !== "string")
        return null;
    try {
        const u = new URL(url);
        return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
    }
    catch {
        return null;
    }
}
/**
 * A markdown link with an escaped label, to an http(s) address only (percent-encoding what could
 * end the destination); anything else is the label alone, not a link.
 */
function mdLink(label, url) {
    const href = safeHref(url);
    const text = mdText(label);
    if (href === null)
        return text;
    const dest = href.replace(/[()<>\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
    return `[${text}](${dest})`;
}


/***/ }),

/***/ 996:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   JQ: () => (/* binding */ shownAscii),
/* harmony export */   Jw: () => (/* binding */ familyApart),
/* harmony export */   dC: () => (/* binding */ refusedUnneeded),
/* harmony export */   ij: () => (/* binding */ keyApart),
/* harmony export */   lO: () => (/* binding */ rootApart),
/* harmony export */   pk: () => (/* binding */ avoidingKey),
/* harmony export */   yr: () => (/* binding */ installDirOf)
/* harmony export */ });
/* unused harmony exports CREDENTIAL_KEY, MACHINE_KEY */
/* harmony import */ var _env_sets_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(20);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6107);
/**
 * What a proposal (`suggest`, the audit summary's suggestion, the App's envelope PR) never allows,
 * in one table, each row with the reason printed beside what it keeps apart:
 * - keys that name a credential, carry one (an askpass program, git's configuration from the
 *   environment, a credentials file), name the machine or the run, or control a program (what it
 *   loads or runs, whether it checks TLS), and keys outside printable ASCII;
 * - families (`PREFIX*`) that would cover a program-control key (their keys are proposed exactly);
 * - roots under the system's directories, a tool cache or another program's install directory,
 *   and the directories of writes the jail refused in a run that exited 0 (it did not need them).
 * A pattern or a set of an envelope never matches a key of the table either (envMatcher): such a
 * key is let in only by a reviewer who lists it exactly. Pure.
 */


/**
 * A key that names a credential. Besides the names that say so, the keys whose values are
 * credentials by convention: passphrases and short password names (`GPG_PASSPHRASE`, `MYSQL_PWD`,
 * `SMTP_PASS`), JWTs (GitLab's `CI_JOB_JWT`), DSNs, webhooks and connection strings, licence keys,
 * git's extra headers, logins (`SONAR_LOGIN` is SonarQube's token), and the URLs that carry a
 * password or a job token (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, GitLab's `CI_REPOSITORY_URL`).
 */
const CREDENTIAL_KEY = new RegExp([
    "SECRET|TOKEN|PASSW(?:OR)?D|PASSPHRASE|(?:^|_)PASS(?:_|$)|_PWD$|CREDENTIAL|(?:^|_)CREDS(?:_|$)|PRIVATE",
    "(?:^|_)(?:API_?)?KEYS?(?:_|$)|APIKEY|COOKIE|SESSION|(?:^|_)PAT(?:_|$)|(?:^|_)LOGIN(?:_|$)",
    "JWT|DSN|WEBHOOK(?:_?UR[LI])?$|CONN(?:ECTION)?_?STR|LICENSE|EXTRAHEADER",
    "(?:^|_)(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|MYSQL|CI_REPOSITORY)_UR[LI]$",
].join("|"), "i");
/**
 * Authentication, by name (`NPM_AUTH`, npm's `_auth`, `GOAUTH`, `OAUTH_*`, `AUTHORIZATION`), but
 * not a git author (`GIT_AUTHOR_NAME`) nor `UNAUTHORIZED` (NODE_TLS_REJECT_UNAUTHORIZED is a TLS
 * switch, kept apart for that).
 */
const AUTH_KEY = /(?<!UN)AUTH(?!ORS?(?:_|$))/i;
/**
 * A key that names the machine or the runner on it (the runner's name, its tracking id, the
 * image, the host name, a CI agent's name or id, systemd's per-invocation ids): PR code that could
 * read it could make a test fail on one runner's machine only, and so pick the verdicts of the two
 * runs a freeze compares. Inside the jail `HOSTNAME` and `HOST` carry the jail's fixed hostname.
 */
const MACHINE_KEY = /^(?:RUNNER_(?:NAME|TRACKING_ID|ENVIRONMENT)|ImageOS|ImageVersion|HOSTNAME|HOST|COMPUTERNAME|NODE_NAME|AGENT_(?:NAME|MACHINENAME|ID)|CI_RUNNER_(?:ID|DESCRIPTION|TAGS|VERSION|REVISION|EXECUTABLE_ARCH)|BUILDKITE_AGENT_(?:NAME|ID)|INVOCATION_ID|JOURNAL_STREAM)$/;
/** Program-control keys by exact name: each makes a program load or run what its value names. */
const PROGRAM_CONTROL_KEYS = [
    "NODE_OPTIONS",
    "NODE_REPL_EXTERNAL_MODULE",
    "NODE_PATH",
    "NODE_ICU_DATA",
    "ELECTRON_RUN_AS_NODE",
    "PYTHONSTARTUP",
    "PYTHONINSPECT",
    "PYTHONBREAKPOINT",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONUSERBASE",
    "PYTHONEXECUTABLE",
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "PERL5OPT",
    "PERL5DB",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "JAVA_OPTS",
    "MAVEN_OPTS",
    "MAVEN_ARGS",
    "GRADLE_OPTS",
    "SBT_OPTS",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTC",
    "RUSTDOC",
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "GOFLAGS",
    "GOTOOLCHAIN",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_PROXY_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "GIT_COMMON_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_ALLOW_PROTOCOL",
    "GIT_PROTOCOL_FROM_USER",
    "YARN_YARN_PATH",
    "YARN_PLUGINS",
    "YARN_ENABLE_SCRIPTS",
    "GCONV_PATH",
    "OPENSSL_CONF",
    "OPENSSL_ENGINES",
    "OPENSSL_MODULES",
    "DOTNET_STARTUP_HOOKS",
    "DOTNET_ADDITIONAL_DEPS",
    "LUA_INIT",
    "LUA_PATH",
    "LUA_CPATH",
    "PHP_INI_SCAN_DIR",
    "PHPRC",
    "DOCKER_HOST",
    "DOCKER_CONTEXT",
    "UV_ENV_FILE",
    "UV_PYTHON",
    "PIP_PYTHON",
    "PIP_REQUIREMENT",
    "PIP_CONSTRAINT",
    "PIP_KEYRING_PROVIDER",
    "YARN_INJECT_ENVIRONMENT_FILES",
    "GIT_TRACE_REDACT",
    "GOPACKAGESDRIVER",
    "GODEBUG",
    "JAVACMD",
    "MAVEN_CONFIG",
    "MAVEN_DEBUG_OPTS",
    "GRADLE_USER_HOME",
    "HELM_PLUGINS",
    "NUGET_PLUGIN_PATHS",
    "TF_REATTACH_PROVIDERS",
    "KUBE_EDITOR",
    "KUBECTL_EXTERNAL_DIFF",
    "CLOUDSDK_PYTHON",
    "BUNDLE_GEMFILE",
    // npm reads its configuration from npm_config_<name>, in any case (npm_config_shell, NPM_CONFIG_SHELL).
    "npm_config_node_options",
    "npm_config_script_shell",
    "npm_config_shell",
    "npm_config_git",
    "npm_config_node_gyp",
    "npm_config_onload_script",
    "npm_config_editor",
    "npm_config_browser",
    "npm_config_viewer",
    "npm_config_ignore_scripts",
];
/**
 * Program-control keys by prefix: the dynamic loader's, bash's exported functions (`BASH_FUNC_f%%`),
 * .NET's profilers, and cargo's compilers, wrappers, runners and linkers.
 */
const PROGRAM_CONTROL_PREFIXES = [
    "LD_",
    "DYLD_",
    "BASH_FUNC_",
    "CORECLR_PROFILER",
    "COR_PROFILER",
    "COMPlus_",
    "DOTNET_AltJit",
    "TF_CLI_ARGS",
];
const CARGO_PROGRAM_KEY = /^CARGO_(?:BUILD_(?:RUSTC(?:_WRAPPER|_WORKSPACE_WRAPPER)?|RUSTDOC|RUSTFLAGS|RUSTDOCFLAGS)|ENCODED_RUSTFLAGS|ENCODED_RUSTDOCFLAGS|TARGET_[A-Za-z0-9_]+_(?:RUNNER|LINKER|RUSTFLAGS))$/;
/**
 * Keys that turn off a program's TLS certificate checks or name the certificates it trusts (a CA
 * of the writer's, a registry over plain HTTP, a checksum database turned off).
 */
const TLS_SWITCHES = [
    "NODE_TLS_REJECT_UNAUTHORIZED",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_NO_VERIFY",
    "GIT_SSL_CAINFO",
    "GIT_SSL_CAPATH",
    "GIT_SSL_CERT",
    "PYTHONHTTPSVERIFY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "CURL_CA_BUNDLE",
    "REQUESTS_CA_BUNDLE",
    "AWS_CA_BUNDLE",
    "PIP_TRUSTED_HOST",
    "PIP_CERT",
    "PIP_CLIENT_CERT",
    "UV_INSECURE_HOST",
    "YARN_ENABLE_STRICT_SSL",
    "YARN_CA_FILE_PATH",
    "YARN_HTTPS_CA_FILE_PATH",
    "YARN_UNSAFE_HTTP_WHITELIST",
    "CARGO_HTTP_CAINFO",
    "CARGO_HTTP_CHECK_REVOKE",
    "UV_INSECURE_NO_ZIP_VALIDATION",
    "UV_PYTHON_DOWNLOADS_JSON_URL",
    "YARN_CHECKSUM_BEHAVIOR",
    "HELM_KUBEINSECURE_SKIP_TLS_VERIFY",
    "HELM_KUBECAFILE",
    "CONDA_SSL_VERIFY",
    "BUNDLE_DISABLE_CHECKSUM_VALIDATION",
    "DOCKER_CONTENT_TRUST",
    "DOCKER_CERT_PATH",
    "DOCKER_TLS_VERIFY",
    "BUNDLE_SSL_CA_CERT",
    "BUNDLE_SSL_VERIFY_MODE",
    "GOINSECURE",
    "GOSUMDB",
    "GONOSUMDB",
    "GONOSUMCHECK",
    "GOPRIVATE",
    "npm_config_strict_ssl",
    "npm_config_cafile",
    "npm_config_ca",
    "npm_config_cert",
];
/** A key that names the certificates a tool trusts, by its words (`HTTPLIB2_CA_CERTS`, `GRPC_DEFAULT_SSL_ROOTS_FILE_PATH`, `NIX_SSL_CERT_FILE`). */
const CA_KEY = /(?:^|_)(?:CA_(?:BUNDLE|CERTS?|FILE|INFO|PATH)|CAINFO|CAPATH|CAFILE|SSL_ROOTS_FILE_PATH|SSL_CERT_(?:FILE|DIR))(?:_|$)|(?:^|_)CA_CERTS?_FILE$|(?:^|_)KUBECAFILE$/i;
/** Credential carriers by exact name: a file, socket or agent credentials are read or used through. */
const CARRIER_KEYS = [
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "SSH_AUTH_SOCK",
    "GNUPGHOME",
    "GPG_AGENT_INFO",
    "NETRC",
    "DOCKER_CONFIG",
    "KUBECONFIG",
    "CLOUDSDK_CONFIG",
    "AWS_CONFIG_FILE",
    "AWS_PROFILE",
    "PIP_CONFIG_FILE",
    "UV_CONFIG_FILE",
    "YARN_RC_FILENAME",
    "TF_CLI_CONFIG_FILE",
    "CONDARC",
    "GEMRC",
    "BUNDLE_USER_CONFIG",
    "BUNDLE_APP_CONFIG",
    "GOENV",
    "PIP_FIND_LINKS",
    "UV_FIND_LINKS",
    "HELM_REPOSITORY_CONFIG",
    "AZURE_CLIENT_CERTIFICATE_PATH",
    "AZURE_CONFIG_DIR",
    "POETRY_CONFIG_DIR",
    "CONDA_CHANNEL_ALIAS",
    "npm_config_userconfig",
    "npm_config_globalconfig",
];
/** Prefixes every key under which is a credential carrier: uv's named indexes, cargo's registries. */
const CARRIER_PREFIXES = [
    "UV_INDEX",
    "UV_DEFAULT_INDEX",
    "CARGO_REGISTRIES_",
    "POETRY_REPOSITORIES_",
    "POETRY_HTTP_BASIC_",
    "POETRY_CERTIFICATES_",
    "BUNDLE_MIRROR__",
    "AWS_ENDPOINT_URL",
    "CLOUDSDK_API_ENDPOINT_OVERRIDES_",
];
/** Bundler's per-host credentials (`BUNDLE_GEMS__EXAMPLE__COM=user:password`): a host's dots written `__`. */
const BUNDLE_HOST_KEY = /^BUNDLE_[A-Z0-9_]*[A-Z0-9]__[A-Z0-9]/;
/**
 * Tools whose configuration lives in their environment keys under one prefix: a family over one
 * of them is never proposed (its keys are, exactly, each the table lets through), whatever the
 * table lists of it, since the table cannot list every key such a tool reads.
 */
const TOOL_NAMESPACES = [
    "npm_",
    "pnpm_",
    "YARN_",
    "PIP_",
    "UV_",
    "POETRY_",
    "CONDA",
    "BUNDLE_",
    "GEM_",
    "CARGO_",
    "RUST",
    "GO",
    "JAVA",
    "MAVEN_",
    "GRADLE_",
    "DOTNET_",
    "NUGET_",
    "DOCKER_",
    "HELM_",
    "KUBE",
    "TF_",
    "AWS_",
    "AZURE_",
    "GOOGLE_",
    "CLOUDSDK_",
    "GIT_",
    "SSH_",
    "GPG_",
    "GNUPG",
    "NODE",
    "PYTHON",
    "PERL",
    "RUBY",
    "PHP",
    "LUA_",
    "SSL_",
    "OPENSSL_",
    "CURL_",
    "REQUESTS_",
];
/** `key` among `keys`; npm's keys in any case, as npm reads them. */
const listed = (keys, key) => {
    if (keys.includes(key))
        return true;
    // npm (and pnpm) read npm_config_<name> (pnpm_config_<name>) in any case, `-` and `_` alike.
    const m = /^(?:npm|pnpm)_config_(.*)$/i.exec(key);
    return m !== null && keys.includes(`npm_config_${m[1].toLowerCase().replace(/-/g, "_")}`);
};
const exact = (keys) => (key) => keys.includes(key);
/** The table, in order: a key takes the first row that matches it, and that row's reason. */
const KEY_TABLE = [
    {
        kind: "not_printable",
        test: (key) => /[^\x21-\x7e]/.test(key),
        why: "a character outside printable ASCII (shown escaped): it can render as another key (P\\u{0410}TH as PATH)",
    },
    {
        kind: "run_identity",
        test: exact(_env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .RUN_IDENTITY_WRAPPER */ .dU),
        why: "run identity: names a file the run wrapper hides (the event payload, the file commands)",
    },
    {
        kind: "run_identity",
        test: (key) => key.startsWith("INPUT_"),
        why: "run identity: the Action's own input (runner B's dispatch has inputs runner A's run does not; the token among them)",
    },
    {
        kind: "run_identity",
        test: _env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .isRunIdentityKey */ .z_,
        why: "run identity: differs between runner A and runner B (the run, job, workflow or actor), so a test reading it can manufacture a freeze",
    },
    {
        kind: "machine_identity",
        test: (key) => MACHINE_KEY.test(key),
        why: "machine identity: names the machine or its runner, so a test reading it can fail on one runner's machine only",
    },
    {
        kind: "credential_carrier",
        test: exact(["GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"]),
        why: "credential carrier: the program asked for a password or token (and program control: it runs it)",
    },
    {
        kind: "credential_carrier",
        test: (key) => /^GIT_CONFIG(?:_[A-Z0-9_]+)?$/.test(key),
        why: "credential carrier: git configuration from the environment (GIT_CONFIG_VALUE_<n> can carry an http.extraheader token, or a command to run)",
    },
    {
        kind: "credential_carrier",
        test: (key) => listed(CARRIER_KEYS, key) || CARRIER_PREFIXES.some((p) => key.startsWith(p)) || BUNDLE_HOST_KEY.test(key),
        why: "credential carrier: names the file, agent or index a tool reads its registry, cloud or signing credentials from (.npmrc, .netrc, pip.conf, kubeconfig, the ssh agent's socket, a keyring)",
    },
    {
        kind: "program_control",
        test: (key) => listed(TLS_SWITCHES, key) || CA_KEY.test(key),
        why: "program control: a security switch that turns off TLS certificate or checksum checks, or names the certificates trusted",
    },
    {
        kind: "program_control",
        test: (key) => PROGRAM_CONTROL_PREFIXES.some((p) => key.startsWith(p)),
        why: "program control: tells the dynamic loader, bash or the .NET runtime what to load into a program",
    },
    {
        kind: "program_control",
        test: (key) => listed(PROGRAM_CONTROL_KEYS, key) || CARGO_PROGRAM_KEY.test(key),
        why: "program control: makes a program load or run code its value names",
    },
    {
        kind: "credential",
        test: (key) => /(?:^|_)LOGIN(?:_|$)/i.test(key),
        why: "credential: names a login (SONAR_LOGIN is SonarQube's token)",
    },
    {
        kind: "credential",
        test: (key) => AUTH_KEY.test(key),
        why: "credential: names authentication (a token, or a command that gets one)",
    },
    {
        kind: "credential",
        test: (key) => CREDENTIAL_KEY.test(key),
        why: "credential: names a secret (a token, password, key, session, connection string or the like)",
    },
    {
        kind: "credential_carrier",
        test: (key) => /(?:^|_)(?:EXTRA_)?INDEX_URL$|REGISTR(?:Y|IES)/i.test(key),
        why: "credential carrier: a package index or registry, which carries the password where it has one and decides what is installed",
    },
    {
        kind: "credential_carrier",
        test: (key) => /PROXY$/i.test(key) && !/(?:^|_)NO_?PROXY$/i.test(key) && !_env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .PROXY_ENV_KEYS */ .mA.has(key),
        why: "credential carrier: a tool's own proxy, which carries its password where it has one and sees or bypasses every request (not the standard HTTP_PROXY keys, the run wrapper's own under allowlist, nor a list of hosts that bypass a proxy)",
    },
];
/** Why `key` is never proposed (nor matched by a pattern or a set), or null for an ordinary key. */
function keyApart(key) {
    const row = KEY_TABLE.find((r) => r.test(key));
    return row === undefined ? null : { kind: row.kind, why: row.why };
}
/**
 * Why a family `prefix*` is never proposed: it would cover a key of the table's lists or a
 * namespace of them (NODE* covers NODE_OPTIONS, GIT_* GIT_SSH_COMMAND, npm_* npm_config_shell,
 * CARGO_* cargo's runners). Compared without case: npm reads its keys in any case. Its keys are
 * proposed exactly instead (each one the table lets through).
 */
function familyApart(prefix) {
    const head = prefix.toLowerCase();
    const overlaps = (p) => p.toLowerCase().startsWith(head) || head.startsWith(p.toLowerCase());
    const covered = [
        ...[...PROGRAM_CONTROL_PREFIXES, ...CARRIER_PREFIXES, "CARGO_BUILD_", "CARGO_TARGET_", "CARGO_ENCODED_", "GIT_CONFIG"]
            .filter(overlaps)
            .map((p) => `${p}*`),
        ...[...PROGRAM_CONTROL_KEYS, ...TLS_SWITCHES, ...CARRIER_KEYS].filter((k) => k.toLowerCase().startsWith(head)),
        ...TOOL_NAMESPACES.filter(overlaps).map((p) => `${p}* (a tool's configuration)`),
    ];
    if (covered.length === 0)
        return null;
    return {
        kind: "program_control",
        why: `would cover ${covered.slice(0, 3).join(", ")}${covered.length > 3 ? ", …" : ""} (program control or credential carriers): its keys are proposed exactly`,
    };
}
/** The system's directories: never a root a proposal names (a write there outlives the run on a self-hosted runner). */
const SYSTEM_DIRECTORIES = [
    {
        test: /^\/opt\/hostedtoolcache(?:\/|$)|\/_work\/_tool(?:\/|$)/,
        kind: "tool_cache",
        why: "the runner's tool cache (RUNNER_TOOL_CACHE): a write there changes the tools of later runs",
    },
    {
        test: /^\/(?:usr|etc|opt|bin|sbin|boot|snap|lib(?:32|64|x32)?)(?:\/|$)|^\/var\/lib(?:\/|$)/,
        kind: "system_directory",
        why: "the system's directories (/usr, /etc, /opt, /bin, /sbin, /lib*, /var/lib): a write there changes the machine for later runs",
    },
];
/** Where an installed program's packages live: a write there changes what that program runs. */
const PACKAGE_DIRECTORY = /\/(?:site-packages|dist-packages|lib\/node_modules)(?:\/|$)/;
/**
 * The install directory of the program at `execPath`: the directory above its `bin` or `sbin`
 * (`~/.nvm/versions/node/v20/bin/node` -> `~/.nvm/versions/node/v20`), at least three levels deep
 * (a home's own `bin` is no one program's); null otherwise.
 */
function installDirOf(execPath) {
    const parts = execPath.split("/");
    if (parts[0] !== "" || parts.length < 3)
        return null;
    const binDir = parts[parts.length - 2];
    if (binDir !== "bin" && binDir !== "sbin")
        return null;
    const install = parts.slice(0, -2);
    if (install.length - 1 < 3)
        return null;
    return install.join("/");
}
/**
 * Why no root may be proposed at `path` (a folded absolute path, or one written back as
 * `${WORKSPACE}`/`${SCRATCH}`, which is never apart): under the system's directories or a tool
 * cache, a package directory, or `installs` (install directories of programs the runs executed).
 */
function rootApart(path, installs) {
    if (!path.startsWith("/"))
        return null;
    for (const row of SYSTEM_DIRECTORIES)
        if (row.test.test(path))
            return { kind: row.kind, why: row.why };
    const install = installs.find((dir) => (0,_paths_js__WEBPACK_IMPORTED_MODULE_1__/* .isInsideRoot */ .Xj)(path, dir));
    if (install !== undefined) {
        return {
            kind: "install_directory",
            why: `another program's install directory (${shownAscii(install)}): a write there changes what that program runs`,
        };
    }
    if (PACKAGE_DIRECTORY.test(path)) {
        return {
            kind: "install_directory",
            why: "another program's install directory (site-packages, dist-packages or a global node_modules): a write there changes what it runs",
        };
    }
    return null;
}
/** Writes the jail refused (read-only there) in a run whose command exited 0. */
function refusedUnneeded() {
    return {
        kind: "refused_unneeded",
        why: "the jail refused these writes and the command exited 0: it did not need them",
    };
}
/** Writes an ecosystem makes only when a key does not tell it not to. */
const AVOIDABLE_WRITES = [
    { test: /(?:^|\/)__pycache__(?:\/|$)|\.py[co]$/, key: "PYTHONDONTWRITEBYTECODE" },
];
/** The key that would have avoided every one of `paths` (Python's bytecode: PYTHONDONTWRITEBYTECODE). */
function avoidingKey(paths) {
    return AVOIDABLE_WRITES.find((row) => paths.length > 0 && paths.every((p) => row.test.test(p)))?.key;
}
/** `s` in printable ASCII: every other code point written `\u{XXXX}`, so a key cannot pass as another. */
function shownAscii(s) {
    return Array.from(s, (ch) => /^[\x21-\x7e]$/.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`).join("");
}


/***/ }),

/***/ 6107:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Jk: () => (/* binding */ isInsideAnyRoot),
/* harmony export */   Xj: () => (/* binding */ isInsideRoot),
/* harmony export */   tu: () => (/* binding */ foldPath)
/* harmony export */ });
/**
 * Lexical path handling. The checking machine's filesystem is never consulted: the observer
 * already resolved symlinks where the write happened, and the gate judges what was recorded.
 */
const NEEDS_FOLDING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
/** Folds `.`, `..` and repeated or trailing slashes. Returns null for a relative path. */
function foldPath(path) {
    if (path.length === 0 || path.charCodeAt(0) !== 0x2f)
        return null;
    if (!NEEDS_FOLDING.test(path))
        return path;
    const out = [];
    for (const segment of path.split("/")) {
        if (segment === "" || segment === ".")
            continue;
        if (segment === "..") {
            out.pop();
            continue;
        }
        out.push(segment);
    }
    return "/" + out.join("/");
}
/** Segment-wise containment: `/work/repo-evil` is not inside `/work/repo`. Both must be folded. */
function isInsideRoot(foldedPath, foldedRoot) {
    if (foldedRoot === "/")
        return true;
    if (!foldedPath.startsWith(foldedRoot))
        return false;
    return foldedPath.length === foldedRoot.length || foldedPath.charCodeAt(foldedRoot.length) === 0x2f;
}
function isInsideAnyRoot(foldedPath, foldedRoots) {
    for (const root of foldedRoots) {
        if (isInsideRoot(foldedPath, root))
            return true;
    }
    return false;
}


/***/ }),

/***/ 1085:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ih: () => (/* binding */ isProtectedWrite),
/* harmony export */   MO: () => (/* binding */ PROTECTED_NAMES),
/* harmony export */   Pw: () => (/* binding */ gitExemptFor),
/* harmony export */   UB: () => (/* binding */ protectedFromMeta),
/* harmony export */   UH: () => (/* binding */ isProtectedEffect),
/* harmony export */   d8: () => (/* binding */ neverWritableReason),
/* harmony export */   kc: () => (/* binding */ containsAny),
/* harmony export */   zo: () => (/* binding */ NO_PROTECTED)
/* harmony export */ });
/* unused harmony export hasProtectedSegmentBelow */
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6107);
/**
 * Protected paths inside the allowed roots (issue 17, "the job is the perimeter"). Pure.
 *
 * Later steps of the same job run unjailed with the job's token: actions/checkout's post step
 * runs git in the workspace, and so does any later `git status` or `git commit`. What a run
 * leaves in `.git` (a hook, `core.fsmonitor`, an `include.path`, a planted submodule gitdir), in
 * `.gitmodules`, in `.github` or in the Action's own files is therefore an escape, even inside an
 * allowed root.
 *
 * A write is protected when:
 * - the effects check recorded it (`"source": "effects"`, src/core/effects.ts): the wrapper found
 *   a protected entry new, gone or changed on the filesystem itself, whatever the recorder's lines
 *   said (isProtectedEffect); or, inside an allowed root,
 * - it lies under a path the run recorded as protected (`meta.protected.paths`: the `.git` entries
 *   and the gitdirs they point at, `.github`, the Action's own directory), or
 * - lexically, a segment of its path below the root is one of PROTECTED_NAMES (`.git`,
 *   `.gitmodules`, `.github`) at any depth (one the run created where none existed is judged too),
 *   except under the run's own scratch directory when the scratch and the workspace do not overlap
 *   (a test's throwaway repository in /tmp is the run's own);
 * and it is not under an entry of the envelope's `writable_protected` (recorded as
 * `meta.protected.writable`) that may be made writable at all.
 *
 * `.gitmodules` and `.github` count at any depth, not only at the workspace's top, although GitHub
 * reads workflows only from the top's `.github/workflows`: git reads the `.gitmodules` of the
 * worktree it runs in (a later `git submodule sync` or `update --init`, as actions/checkout runs
 * with `submodules:`, takes URLs and paths from it, and `--recursive` reads each submodule's), a
 * nested checkout (checkout's `path:`) is a repository whose top is its own directory, and a later
 * step runs a local action by its path (`uses: ./sub/.github/actions/x`). The effects check looks
 * at every such entry anyway, so the recorder's lines are judged by the same names: the verdict does
 * not depend on whether the file was still there at the end. A suite that needs one writes it in
 * the scratch, or names its directory in `writable_protected`.
 */

const GIT_DIR_NAME = ".git";
/** Names whose entries are protected wherever they are below a root (and everything inside them). */
const PROTECTED_NAMES = new Set([GIT_DIR_NAME, ".gitmodules", ".github"]);
/**
 * Inside a git directory: what makes git run a program or read another file (hooks, config,
 * a nested gitdir's config and hooks, the pointer to another common directory). Never writable.
 */
const NEVER_WRITABLE_IN_GITDIR = new Set(["hooks", "config", "config.worktree", "modules", "worktrees", "commondir", "info"]);
const NO_PROTECTED = { paths: [], writable: [], gitExempt: [] };
function segments(folded) {
    return folded === "/" ? [] : folded.slice(1).split("/");
}
/**
 * Why an entry can never be made writable, or null when it may be. Lexical: a `.git` itself, or
 * its hooks, config, modules, worktrees, info or commondir, or anything containing one of them.
 * An entry that only contains a git directory on disk (an absolute path above a repository) is
 * found at run time (`containsGitPath`).
 */
function neverWritableReason(folded) {
    const parts = segments(folded);
    const git = parts.indexOf(GIT_DIR_NAME);
    if (git === -1)
        return null;
    const below = parts[git + 1];
    if (below === undefined)
        return `it is a ${GIT_DIR_NAME} itself (it contains ${GIT_DIR_NAME}/hooks and ${GIT_DIR_NAME}/config)`;
    if (NEVER_WRITABLE_IN_GITDIR.has(below)) {
        return `${GIT_DIR_NAME}/${below} makes git run programs or read other files (hooks, config, nested gitdirs)`;
    }
    // A nested `.git` further down (a submodule's gitdir inside a worktree) is judged the same way.
    const rest = "/" + parts.slice(git + 1).join("/");
    return rest.includes(`/${GIT_DIR_NAME}`) ? neverWritableReason(rest) : null;
}
/** Whether `entry` is, or is an ancestor of, any of `paths` (all folded). */
function containsAny(entry, paths) {
    for (const p of paths)
        if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(p, entry))
            return p;
    return null;
}
/** The lexical rule: a segment of `folded` below `root` (not the root itself) is a protected name. */
function hasProtectedSegmentBelow(folded, root) {
    if (folded === root || !(0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(folded, root))
        return false;
    const below = root === "/" ? folded.slice(1) : folded.slice(root.length + 1);
    return below.split("/").some((s) => PROTECTED_NAMES.has(s));
}
/** Whether `folded` is under an entry of `writable_protected` that may be made writable. */
function madeWritable(folded, set) {
    return (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.writable) && neverWritableReason(folded) === null;
}
/** Whether a write at `folded` (already inside an allowed root) is a write to a protected path. */
function isProtectedWrite(folded, roots, set) {
    if (madeWritable(folded, set))
        return false;
    if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.paths))
        return true;
    if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.gitExempt))
        return false;
    return roots.some((root) => hasProtectedSegmentBelow(folded, root));
}
/**
 * Whether a protected entry the effects check found changed at `folded` is a violation: always,
 * unless `writable_protected` made it writable (the check looks only at protected entries of the
 * roots, outside the exempt scratch, at the roots' real paths, so neither the roots nor the
 * exemption are asked again).
 */
function isProtectedEffect(folded, set) {
    return !madeWritable(folded, set);
}
/** The scratch is exempt from the lexical names rule only when it and the workspace are apart. */
function gitExemptFor(workspace, scratch) {
    if (scratch === undefined)
        return [];
    const s = (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(scratch);
    if (s === null || s === "/")
        return [];
    if (workspace === undefined)
        return [s];
    const w = (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(workspace);
    if (w === null || (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(w, s) || (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(s, w))
        return [];
    return [s];
}
/**
 * Reads `meta.protected` (`{ "paths": [...], "writable": [...] }`) as the run wrote it. Returns
 * an error message for a malformed value; an absent value is the empty set (the lexical names
 * rule still applies).
 */
function protectedFromMeta(value, workspace, scratch) {
    const gitExempt = gitExemptFor(typeof workspace === "string" ? workspace : undefined, typeof scratch === "string" ? scratch : undefined);
    if (value === undefined)
        return { ...NO_PROTECTED, gitExempt };
    if (typeof value !== "object" || value === null || Array.isArray(value))
        return `meta "protected" must be an object`;
    const record = value;
    const out = { paths: [], writable: [], gitExempt };
    for (const key of Object.keys(record)) {
        if (key !== "paths" && key !== "writable")
            return `meta "protected" has an unknown key "${key}"`;
        const list = record[key];
        if (!Array.isArray(list))
            return `meta "protected.${key}" must be an array of absolute paths`;
        for (const item of list) {
            const folded = typeof item === "string" && !item.includes("\u0000") ? (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(item) : null;
            if (folded === null)
                return `meta "protected.${key}" must be an array of absolute paths`;
            out[key].push(folded);
        }
    }
    return out;
}


/***/ }),

/***/ 1688:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hf: () => (/* binding */ commandRules),
/* harmony export */   Ii: () => (/* binding */ judgeHost),
/* harmony export */   P9: () => (/* binding */ isRuntimeOwnRead),
/* harmony export */   RL: () => (/* binding */ judgeWrite),
/* harmony export */   Sm: () => (/* binding */ hostName),
/* harmony export */   TI: () => (/* binding */ hostViaSet),
/* harmony export */   TN: () => (/* binding */ judgeExec),
/* harmony export */   Wv: () => (/* binding */ commandEntry),
/* harmony export */   ZU: () => (/* binding */ runEnv),
/* harmony export */   l6: () => (/* binding */ judgeEffect),
/* harmony export */   mA: () => (/* reexport safe */ _env_sets_js__WEBPACK_IMPORTED_MODULE_1__.mA),
/* harmony export */   ph: () => (/* reexport safe */ _container_engine_js__WEBPACK_IMPORTED_MODULE_0__.ph),
/* harmony export */   r0: () => (/* binding */ judgeEnv),
/* harmony export */   te: () => (/* binding */ judgeSyscall),
/* harmony export */   tv: () => (/* binding */ isRunOwnLoopback),
/* harmony export */   wm: () => (/* binding */ ruleContext),
/* harmony export */   y7: () => (/* binding */ judgeTool),
/* harmony export */   yG: () => (/* binding */ RUNTIME_ENV_KEYS)
/* harmony export */ });
/* unused harmony exports isLoopback, writeInsideRoots */
/* harmony import */ var _container_engine_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5275);
/* harmony import */ var _env_sets_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(20);
/* harmony import */ var _envelope_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(1652);
/* harmony import */ var _services_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3499);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(3848);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(6107);
/* harmony import */ var _protected_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(1085);
/**
 * The rules: for each kind of event, whether the envelope allows it, and if not, which violation
 * (CONTRACT's violation ids) it is. Each judge is pure: the context derived from the envelope and
 * the run's meta line, and one event's facts, in; a rule id or null out. `check` (./log-reader.ts)
 * records what they return; `suggest` asks them which events an entry must allow; the footprint
 * and the audit leave out what they leave out (the runtime's own reads, loopback inside the run's
 * own network).
 */









/**
 * The keys the run wrapper sets in every run, whatever `allowed_env` says, and their values, so
 * that a read-only git writes nothing into a protected `.git` (`.git/index.lock`): a write git
 * really makes is still judged.
 * - `GIT_OPTIONAL_LOCKS=0`: `git status` takes no optional lock to refresh the index;
 * - `diff.autoRefreshIndex=false`, through git's `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
 *   `GIT_CONFIG_VALUE_<n>` (after the entries of the caller's the envelope lets in): `git diff`
 *   over tracked files whose stat changed but not their bytes (a chown, a file rewritten the same)
 *   refreshes the index under a lock that GIT_OPTIONAL_LOCKS does not cover. Its output is the same.
 * Their reads are recorded and not judged, from any source, and `suggest` never proposes them.
 */
function runEnv(given) {
    const count = Number(given.GIT_CONFIG_COUNT ?? "0");
    const n = Number.isSafeInteger(count) && count >= 0 ? count : 0;
    return {
        GIT_OPTIONAL_LOCKS: "0",
        GIT_CONFIG_COUNT: String(n + 1),
        [`GIT_CONFIG_KEY_${n}`]: "diff.autoRefreshIndex",
        [`GIT_CONFIG_VALUE_${n}`]: "false",
    };
}
/** The names runEnv sets (any entry number: the caller's own entries, when allowed, are allowed anyway). */
const RUN_ENV_KEY = /^(?:GIT_OPTIONAL_LOCKS|GIT_CONFIG_COUNT|GIT_CONFIG_(?:KEY|VALUE)_\d+)$/;
/** True when reading `key` is not judged because the wrapper set it (runEnv; PROXY_ENV_KEYS under allowlist). */
function wrapperEnvKey(network, key) {
    return RUN_ENV_KEY.test(key) || (network === "allowlist" && _env_sets_js__WEBPACK_IMPORTED_MODULE_1__/* .PROXY_ENV_KEYS */ .mA.has(key));
}
/**
 * Keys the Node runtime reads for itself. Recorded with `source: "runtime"` and not judged;
 * any other key is judged wherever the read comes from. Keep docs/observer.md in step.
 */
const RUNTIME_ENV_KEYS = new Set([
    "FORCE_COLOR",
    "NO_COLOR",
    "NODE_DISABLE_COLORS",
    "NODE_V8_COVERAGE",
    "NODE_DEBUG",
    "NODE_DEBUG_NATIVE",
    "NODE_OPTIONS",
    "NODE_PENDING_DEPRECATION",
    "NODE_NO_WARNINGS",
    "NODE_UNIQUE_ID",
    "NODE_CHANNEL_FD",
    "NODE_CHANNEL_SERIALIZATION_MODE",
    "NODE_PRESERVE_SYMLINKS",
    "NODE_TEST_CONTEXT",
    "TERM",
    "COLORTERM",
    "CI",
    "TZ",
    "UV_THREADPOOL_SIZE",
    // Read by Node's own JS at run time (found by the observer's well-behaved runs):
    "WATCH_REPORT_DEPENDENCIES",
    "NODE_CLUSTER_SCHED_POLICY",
    "NODE_TLS_REJECT_UNAUTHORIZED",
    // Node's bundled undici (fetch) reads these for itself:
    "UNDICI_NO_FG",
    "JEST_WORKER_ID",
    // ... and Node 24's, when it loads its HTTP parser (fetch through NODE_USE_ENV_PROXY):
    "UNDICI_NO_WASM_SIMD",
    // tty.getColorDepth, when a program writes to a terminal:
    "TMUX",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TEAMCITY_VERSION",
    "CI_NAME",
    "APPVEYOR",
    "BUILDKITE",
    "CIRCLECI",
    "DRONE",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "TRAVIS",
]);
/** The Node runtime reading one of its own keys (RUNTIME_ENV_KEYS): the runtime's read, not the program's. */
function isRuntimeOwnRead(key, source) {
    return source === "runtime" && RUNTIME_ENV_KEYS.has(key);
}
/** 127.0.0.0/8, ::1 (also as a mapped address), `localhost` and names under it (RFC 6761). */
function isLoopback(host) {
    return (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
        host === "::1" ||
        /^::ffff:127\./.test(host) ||
        host === "localhost" ||
        host.endsWith(".localhost"));
}
/** A recorded host as the rules compare it: a unix socket (`unix:/path`, `unix:@name`) is named by a case-sensitive path. */
function hostName(raw) {
    return raw.startsWith("unix:") ? raw : (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .normalizeHost */ .cS)(raw);
}
const NO_RUN_FACTS = { logPath: null, protectedSet: _protected_js__WEBPACK_IMPORTED_MODULE_5__/* .NO_PROTECTED */ .zo, ownNetwork: false };
function commandRules(allowed) {
    if (allowed === undefined)
        return null;
    return { paths: new Set(allowed.filter((c) => c.includes("/"))), names: new Set(allowed.filter((c) => !c.includes("/"))) };
}
function ruleContext(envelope, roots, run = NO_RUN_FACTS) {
    return {
        roots,
        logPath: run.logPath,
        protectedSet: run.protectedSet,
        tools: new Set(envelope.allowed_tools),
        envAllowed: (0,_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .envMatcher */ .IC)(envelope),
        network: envelope.network,
        hosts: (0,_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .hostPatterns */ .on)(envelope),
        services: (0,_services_js__WEBPACK_IMPORTED_MODULE_3__/* .servicesOf */ .Yj)(envelope.services),
        loopbackLocal: envelope.loopback !== "network",
        ownNetwork: run.ownNetwork,
        commands: commandRules(envelope.allowed_commands),
    };
}
/** A folded path a write may change: inside an allowed root, and not the log itself. */
function writeInsideRoots(ctx, path) {
    return path !== ctx.logPath && (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .isInsideAnyRoot */ .Jk)(path, ctx.roots);
}
/**
 * A write to the folded `path`. A refused write is outside every root, whatever the name resolved
 * to afterwards (a symlink can be gone by the time it is read); one that found nothing changed
 * nothing, so outside the roots it is not judged (the log's own path always is); inside them, a
 * protected path (docs/formats.md, Protected paths) is `write_protected`. `inside` is
 * writeInsideRoots, for a caller that has worked it out already.
 */
function judgeWrite(ctx, path, outcome, inside = writeInsideRoots(ctx, path)) {
    if (outcome === "refused")
        return "write_outside_root";
    if (!inside)
        return outcome === "missing_target" && path !== ctx.logPath ? null : "write_outside_root";
    return (0,_protected_js__WEBPACK_IMPORTED_MODULE_5__/* .isProtectedWrite */ .Ih)(path, ctx.roots, ctx.protectedSet) ? "write_protected" : null;
}
/**
 * A write line of the effects check (`"source": "effects"`) at the folded `path`: a protected
 * entry the filesystem shows new, gone or changed, `write_protected` unless `writable_protected`
 * made it writable, whatever the recorder's own lines said of it.
 */
function judgeEffect(ctx, path) {
    return (0,_protected_js__WEBPACK_IMPORTED_MODULE_5__/* .isProtectedEffect */ .UH)(path, ctx.protectedSet) ? "write_protected" : null;
}
/** A read of the environment key `key`, by `source`. */
function judgeEnv(ctx, key, source) {
    if (ctx.envAllowed(key) || wrapperEnvKey(ctx.network, key) || isRuntimeOwnRead(key, source))
        return null;
    return "undeclared_env";
}
function judgeTool(ctx, name) {
    return ctx.tools.has(name) ? null : "undeclared_tool";
}
/** Loopback inside the jail's own network namespace: the run's own, not egress. */
function isRunOwnLoopback(ctx, host) {
    return ctx.loopbackLocal && ctx.ownNetwork && isLoopback(host);
}
/**
 * A connection to (with a port) or a lookup of (`port` null) `host` (as hostName gives it). `via`
 * is the name the same process's hooks connected by, on a process-level connect to an address.
 * A container engine (isContainerEngine) is `docker_refused` under any network setting, instead
 * of `network_denied` or `undeclared_host`.
 */
function judgeHost(ctx, host, port, via) {
    // Before everything else: no envelope allows a container engine, and its ports are judged on loopback too.
    if ((0,_container_engine_js__WEBPACK_IMPORTED_MODULE_0__/* .isContainerEngine */ .uh)(host, port))
        return "docker_refused";
    if (isRunOwnLoopback(ctx, host))
        return null;
    // A declared service is the job's own, under deny as under allowlist.
    if ((0,_services_js__WEBPACK_IMPORTED_MODULE_3__/* .isDeclaredService */ .ad)(ctx.services, host, port))
        return null;
    if (ctx.network === "deny")
        return "network_denied";
    if ((0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, host, port))
        return null;
    if (typeof via === "string" && via !== "" && (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .normalizeHost */ .cS)(via), port))
        return null;
    return "undeclared_host";
}
/**
 * The host set (`@npm`) that alone allows a connection judgeHost allowed, or null. Connections
 * only: a lookup (no port) of a member is part of the connection that follows.
 */
function hostViaSet(ctx, host, port) {
    if (port === null || isRunOwnLoopback(ctx, host) || ctx.network === "deny" || !(0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, host, port))
        return null;
    return (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .allowedViaSet */ .n4)(ctx.hosts, host, port);
}
/** The start of the program at the folded `path`: allowed by its exact path or by its file's name. */
function judgeExec(ctx, path) {
    const commands = ctx.commands;
    if (commands === null || commands.paths.has(path))
        return null;
    return commands.names.has(path.slice(path.lastIndexOf("/") + 1)) ? null : "undeclared_command";
}
/**
 * The allowed_commands entry for a program started as `argv` from the folded `path`, portable as
 * judgeExec matches it: started by a bare name (argv[0] has no "/"), PATH found it and its file's
 * name allows it at any path (`sh` found as /usr/bin/sh -> dash is recorded, and allowed, as
 * `dash`); started by a path (a compiler's /usr/lib/gcc/.../cc1, ./configure), the path.
 */
function commandEntry(path, argv) {
    const argv0 = argv[0];
    const byName = typeof argv0 === "string" && argv0 !== "" && !argv0.includes("/");
    return byName ? path.slice(path.lastIndexOf("/") + 1) : path;
}
/** A system call the jail's seccomp filter traps: no envelope allows one. */
function judgeSyscall() {
    return "forbidden_syscall";
}


/***/ }),

/***/ 3499:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Yj: () => (/* binding */ servicesOf),
/* harmony export */   ad: () => (/* binding */ isDeclaredService),
/* harmony export */   nO: () => (/* binding */ parseService)
/* harmony export */ });
/* unused harmony export isLoopbackAddress */
/* harmony import */ var _dns_wire_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6504);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3848);
/**
 * The envelope's `services`: the job's own services (a database, a cache) the run may reach
 * through envelope-gate's forward (docs/egress.md, Services). Pure: what an entry means, which
 * entries can never be a service, and whether a recorded connection is one of them.
 */


/** Whether `host` is an IP literal (4 or 16 bytes), not a name. */
function isIpLiteral(host) {
    return (0,_dns_wire_js__WEBPACK_IMPORTED_MODULE_0__/* .addressBytes */ .AS)(host) !== null;
}
/** Ports that are never a service: the resolver's own, SSH, the Docker daemon. */
const REFUSED_PORTS = new Map([
    [53, "port 53 is the jail's resolver"],
    [22, "port 22 is SSH: a shell on the machine, not a service of the job"],
    [2375, "port 2375 is the Docker daemon, which is root on the host"],
    [2376, "port 2376 is the Docker daemon, which is root on the host"],
]);
/** Names of cloud metadata services (credentials of the machine's identity). */
const METADATA_NAMES = new Set([
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.azure.com",
]);
/** Socket file names that are root on the host or hand out the runner's credentials. */
const REFUSED_SOCKET_NAMES = /^(?:docker\.sock|podman\.sock|containerd\.sock|buildkitd\.sock|docker_engine|S\.gpg-agent.*|ssh-agent.*|agent\.\d+)$/;
/** Directories of sockets that belong to the machine, not to a job's service. */
const REFUSED_SOCKET_DIRS = [
    "/run/systemd",
    "/var/run/systemd",
    "/run/dbus",
    "/var/run/dbus",
    "/run/docker",
    "/var/run/docker",
    "/run/containerd",
    "/run/podman",
    "/run/user",
];
function isLinkLocal(host) {
    return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host) || host === "fd00:ec2::254";
}
/** 127.0.0.0/8 or ::1: a service the runner itself listens on. */
function isLoopbackAddress(host) {
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1";
}
/**
 * One `services` entry (already shape-checked by the schema), or why it can never be a service.
 * `127.0.0.1:5432`, `[::1]:6379`, `localhost:5432`, `postgres:5432` (a container job's service
 * name), `/var/run/mysqld/mysqld.sock`.
 */
function parseService(entry) {
    if (entry.startsWith("/")) {
        if (entry.includes("\0") || entry.split("/").some((part) => part === "." || part === "..")) {
            return { refused: "a socket path must be absolute, without . or .. parts" };
        }
        const name = entry.slice(entry.lastIndexOf("/") + 1);
        if (REFUSED_SOCKET_NAMES.test(name)) {
            return { refused: `${name} is the Docker daemon's or a credential agent's socket, never a job's service` };
        }
        const dir = REFUSED_SOCKET_DIRS.find((d) => entry === d || entry.startsWith(`${d}/`));
        if (dir !== undefined)
            return { refused: `sockets under ${dir} are the machine's, never a job's service` };
        return { kind: "unix", source: entry, path: entry };
    }
    let host;
    let portText;
    if (entry.startsWith("[")) {
        const close = entry.indexOf("]");
        host = entry.slice(1, close);
        portText = entry.slice(close + 2);
    }
    else {
        const colon = entry.lastIndexOf(":");
        host = entry.slice(0, colon);
        portText = entry.slice(colon + 1);
    }
    host = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeHost */ .cS)(host);
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
        return { refused: "its port is outside 1-65535" };
    const portRefusal = REFUSED_PORTS.get(port);
    if (portRefusal !== undefined)
        return { refused: portRefusal };
    if (isIpLiteral(host)) {
        if (isLinkLocal(host))
            return { refused: `${host} is link-local, where cloud metadata services live` };
        if (!isLoopbackAddress(host)) {
            return {
                refused: `${host} is not a loopback address: a service is reached at a loopback address of the runner (127.0.0.1:5432, [::1]:6379) or by its name in a container job (postgres:5432)`,
            };
        }
    }
    else if (METADATA_NAMES.has(host)) {
        return { refused: `${host} is a cloud metadata service` };
    }
    return { kind: "tcp", source: entry, host, port };
}
/** The envelope's services, parsed (an entry that is refused was refused when the envelope was loaded). */
function servicesOf(entries) {
    const out = [];
    for (const entry of entries ?? []) {
        const parsed = parseService(entry);
        if ("kind" in parsed)
            out.push(parsed);
    }
    return out;
}
/**
 * Whether a recorded host is a declared service: a connection to `host:port` (the recorded host as
 * hostName gives it: `unix:/path` for a socket), or a lookup (`port` null) of a service's name.
 */
function isDeclaredService(services, host, port) {
    for (const s of services) {
        if (s.kind === "unix") {
            if (host === `unix:${s.path}`)
                return true;
            continue;
        }
        if (host !== s.host)
            continue;
        if (port === null ? !isIpLiteral(host) : port === s.port)
            return true;
    }
    return false;
}


/***/ }),

/***/ 9478:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   MV: () => (/* binding */ reportFromVerdict),
/* harmony export */   Rr: () => (/* binding */ exitCodeFor),
/* harmony export */   ai: () => (/* binding */ EXIT_CODES),
/* harmony export */   dd: () => (/* binding */ reportFromError)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4296);

const EXIT_CODES = { pass: 0, envelope_fail: 1, usage: 2, error: 3 };
function reportFromVerdict(v) {
    return {
        verdict: v.verdict,
        envelope_id: v.envelope_id,
        envelope_hash: v.envelope_hash,
        events: v.events,
        violations: v.violations,
        error: null,
        log: {
            run_id: v.meta.run_id,
            runner: v.meta.runner,
            exit_code: v.exit_code,
            counts: v.counts,
            observers: v.meta.extra.observers ?? null,
            network_enforced: v.meta.extra.network_enforced ?? null,
            jail: v.meta.extra.jail ?? null,
            via_sets: v.via_sets,
            audit: v.meta.extra.audit === true,
        },
    };
}
function reportFromError(err, envelope) {
    const gate = err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .Refusal */ .P_
        ? err
        : new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .Refusal */ .P_("INTERNAL_ERROR", `the gate failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
            hint: "This is a bug in envelope-gate; the run is refused until it is fixed.",
        });
    return {
        verdict: "error",
        envelope_id: envelope?.envelope.envelope_id ?? null,
        envelope_hash: envelope?.hash ?? null,
        events: 0,
        violations: [],
        error: gate.toJSON(),
        log: null,
    };
}
function exitCodeFor(verdict) {
    return EXIT_CODES[verdict];
}


/***/ }),

/***/ 3323:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ PRODUCT),
/* harmony export */   x: () => (/* binding */ VERSION)
/* harmony export */ });
/**
 * The release this build is. Kept beside package.json's "version" (test/core/version.test.ts) and
 * checked against the release tag by scripts/release.mjs; a semantic version, without a "v".
 */
const VERSION = "1.0.0";
/** How the product names itself where a reader must tell what judged them: "envelope-gate 1.0.0". */
const PRODUCT = `envelope-gate ${VERSION}`;


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 9907:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("cluster");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 2250:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("dns");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 3339:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("module");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 1421:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 1553:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns/promises");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 6614:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 8500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 2987:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("perf_hooks");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 7016:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("url");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 8253:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util/types");

/***/ }),

/***/ 1493:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("v8");

/***/ }),

/***/ 3106:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("zlib");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
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
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(486);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
