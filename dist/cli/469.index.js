export const id = 469;
export const ids = [469];
export const modules = {

/***/ 6469:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runCommand: () => (/* binding */ runCommand)
});

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: ./src/gate/options.ts
var options = __webpack_require__(9);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(3136);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __webpack_require__(8447);
// EXTERNAL MODULE: ./src/core/log.ts
var log = __webpack_require__(4325);
// EXTERNAL MODULE: ./src/gate/files.ts
var files = __webpack_require__(1552);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
;// CONCATENATED MODULE: ./src/observer/fifo.ts
/**
 * A FIFO the wrapper owns and reads: the hooks' channel and strace's output. The wrapper keeps
 * its own write end open until the stage's processes are gone, then closes it and reads to EOF,
 * so every byte any writer put in is read before the stage ends.
 */




function makeFifo(path) {
    try {
        (0,external_node_child_process_.execFileSync)("mkfifo", ["-m", "600", path], { stdio: ["ignore", "ignore", "pipe"] });
    }
    catch (err) {
        throw new errors/* GateError */.ue("OBSERVER_UNAVAILABLE", `cannot create the observer channel ${path} with mkfifo (${err.message.split("\n")[0]})`, {
            hint: "mkfifo (coreutils) must be on PATH for envelope-gate run.",
            cause: err,
        });
    }
}
class FifoReader {
    path;
    readFd;
    holdFd;
    socket;
    onText;
    decoder = new TextDecoder("utf-8");
    ended;
    scratch = Buffer.allocUnsafe(1 << 16);
    constructor(path, onText, onError) {
        this.path = path;
        this.onText = onText;
        this.readFd = (0,external_node_fs_.openSync)(path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NONBLOCK);
        // Our own writer: the reader must not see EOF before the first real writer opens.
        this.holdFd = (0,external_node_fs_.openSync)(path, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_NONBLOCK);
        this.socket = new external_node_net_.Socket({ fd: this.readFd, readable: true, writable: false });
        this.socket.on("data", (chunk) => {
            try {
                this.deliver(chunk);
            }
            catch (err) {
                onError(err);
            }
        });
        this.ended = new Promise((resolve) => {
            this.socket.once("end", () => resolve());
            this.socket.once("close", () => resolve());
            this.socket.once("error", (err) => {
                onError(err);
                resolve();
            });
        });
    }
    deliver(chunk) {
        const text = this.decoder.decode(chunk, { stream: true });
        if (text !== "")
            this.onText(text);
    }
    /** Reads whatever is already in the pipe, now (ordering: hook records precede their syscalls). */
    drainNow() {
        for (let i = 0; i < 4096; i++) {
            let n;
            try {
                n = (0,external_node_fs_.readSync)(this.readFd, this.scratch, 0, this.scratch.length, null);
            }
            catch (err) {
                if (err.code === "EAGAIN")
                    return;
                throw err;
            }
            if (n <= 0)
                return;
            this.deliver(Buffer.from(this.scratch.subarray(0, n)));
        }
    }
    /** Drops the wrapper's write end and waits until every other writer has closed and all is read. */
    async finish() {
        if (this.holdFd !== null) {
            (0,external_node_fs_.closeSync)(this.holdFd);
            this.holdFd = null;
        }
        await this.ended;
        const tail = this.decoder.decode();
        if (tail !== "")
            this.onText(tail);
    }
    destroy() {
        if (this.holdFd !== null) {
            (0,external_node_fs_.closeSync)(this.holdFd);
            this.holdFd = null;
        }
        this.socket.destroy();
    }
}

;// CONCATENATED MODULE: ./src/observer/merge.ts
/**
 * Turns hook messages and strace events into log events, and merges the two observers
 * without reporting one fact twice. The dedup rules (docs/observer.md, "Merging"):
 *
 * - write: per process (thread group) and resolved path, the observer that reports it first
 *   owns it; the other observer's reports of that (process, path) are dropped. Repeats from the
 *   same observer are kept.
 * - exec: when the process observer is live it alone records execs (it sees the real execve of
 *   every program, shells included); hook exec records are kept only under --node-only.
 * - host: hook records (by name) are always kept. A process-level connect/send from a process is
 *   dropped when that process's hooks already reported the same address and port (they note
 *   each address a hooked connect resolves to), or when it goes to port 53 from a process whose
 *   hooks reported a DNS lookup (the resolver's own traffic). Other process-level
 *   destinations are recorded once per (process, address, port).
 * - env and tool come only from the hooks.
 */

class ChannelMessageError extends Error {
}
function merge_text(value, field, kind) {
    if (typeof value !== "string" || value === "" || value.includes("\u0000")) {
        throw new ChannelMessageError(`a ${kind} message needs a non-empty string "${field}"`);
    }
    return value;
}
function absolutePath(value, field, kind) {
    const p = merge_text(value, field, kind);
    if (!p.startsWith("/"))
        throw new ChannelMessageError(`a ${kind} message has a relative "${field}"`);
    return p;
}
function integer(value, field, kind) {
    if (!Number.isInteger(value))
        throw new ChannelMessageError(`a ${kind} message needs an integer "${field}"`);
    return value;
}
const IP_V4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
function isIpLiteral(host) {
    return IP_V4.test(host) || host.includes(":");
}
function mappedV4(address) {
    const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return m ? m[1] : address;
}
class Merger {
    options;
    /** `${pid}\0${path}` -> the source that reported it first. */
    writeOwner = new Map();
    /** `${pid}\0${address}\0${port}` the hooks resolved or connected to. */
    hookedAddresses = new Set();
    dnsUsers = new Set();
    processHostsSeen = new Set();
    constructor(options) {
        this.options = options;
    }
    out(event) {
        if (this.options.canary)
            event.canary = true;
        this.options.emit(event);
    }
    claimWrite(pid, path, source) {
        if (this.options.canary)
            return true;
        const key = `${pid}\0${path}`;
        const owner = this.writeOwner.get(key);
        if (owner === undefined) {
            this.writeOwner.set(key, source);
            return true;
        }
        return owner === source;
    }
    /** One parsed JSON message from the hooks' channel. Throws ChannelMessageError on anything unexpected. */
    fromHook(message) {
        if (message === null || typeof message !== "object" || Array.isArray(message)) {
            throw new ChannelMessageError("a channel message is not a JSON object");
        }
        const m = message;
        const kind = m.kind;
        const pid = integer(m.pid, "pid", String(kind));
        const ts = typeof m.ts === "number" ? m.ts : undefined;
        const base = (k) => {
            const e = { kind: k };
            if (ts !== undefined)
                e.ts = ts;
            e.pid = pid;
            return e;
        };
        switch (kind) {
            case "write": {
                const path = absolutePath(m.path, "path", kind);
                const op = merge_text(m.op, "op", kind);
                if (!log/* WRITE_OPS */.V1.has(op))
                    throw new ChannelMessageError(`a write message has an unknown op "${op}"`);
                if (!this.claimWrite(pid, path, "node"))
                    return;
                // The hottest record: built directly (same fields, same order as base() gives).
                this.out(ts !== undefined ? { kind: "write", ts, pid, path, op, source: "node" } : { kind: "write", pid, path, op, source: "node" });
                return;
            }
            case "env": {
                const key = merge_text(m.key, "key", kind);
                const op = merge_text(m.op, "op", kind);
                const runtime = m.origin === "internal" && log/* RUNTIME_ENV_KEYS */.yG.has(key);
                this.out({ ...base("env"), key, op, source: runtime ? "runtime" : "node" });
                return;
            }
            case "host": {
                const host = merge_text(m.host, "host", kind);
                const proto = merge_text(m.proto, "proto", kind);
                const event = { ...base("host"), host };
                if (m.port !== undefined)
                    event.port = integer(m.port, "port", kind);
                event.proto = proto;
                event.source = "node";
                if (proto === "dns" || !isIpLiteral(host))
                    this.dnsUsers.add(pid);
                this.out(event);
                return;
            }
            case "note": {
                const address = mappedV4(merge_text(m.address, "address", kind));
                const port = integer(m.port, "port", kind);
                this.hookedAddresses.add(`${pid}\0${address}\0${port}`);
                return;
            }
            case "exec": {
                const path = absolutePath(m.path, "path", kind);
                const argv = m.argv;
                if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
                    throw new ChannelMessageError(`an exec message needs "argv" as an array of strings`);
                }
                if (this.options.processObserverLive && !this.options.canary)
                    return;
                const event = { ...base("exec"), path, argv };
                if (m.cwd !== undefined)
                    event.cwd = absolutePath(m.cwd, "cwd", kind);
                event.source = "node";
                this.out(event);
                return;
            }
            case "tool": {
                const name = merge_text(m.name, "name", kind);
                this.out({ ...base("tool"), name, source: "sdk" });
                return;
            }
            default:
                throw new ChannelMessageError(`unknown channel message kind ${JSON.stringify(kind)}`);
        }
    }
    fromProcess(event) {
        const ts = Date.now();
        switch (event.kind) {
            case "write":
                if (!this.claimWrite(event.tgid, event.path, "process"))
                    return;
                this.out({ kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, source: "process" });
                return;
            case "exec": {
                const out = { kind: "exec", ts, pid: event.tgid };
                if (event.ppid !== null)
                    out.ppid = event.ppid;
                out.path = event.path;
                out.argv = event.argv;
                out.source = "process";
                this.out(out);
                return;
            }
            case "host": {
                if (!this.options.canary) {
                    if (this.hookedAddresses.has(`${event.tgid}\0${event.host}\0${event.port}`))
                        return;
                    if (event.port === 53 && this.dnsUsers.has(event.tgid))
                        return;
                    const key = `${event.tgid}\0${event.host}\0${event.port}`;
                    if (this.processHostsSeen.has(key))
                        return;
                    this.processHostsSeen.add(key);
                }
                this.out({ kind: "host", ts, pid: event.tgid, host: event.host, port: event.port, proto: event.proto, source: "process" });
                return;
            }
        }
    }
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
const DEVICE_PATHS = new Set(["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/random", "/dev/urandom"]);
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
class FrameError extends Error {
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

// EXTERNAL MODULE: ./src/core/paths.ts
var paths = __webpack_require__(6107);
;// CONCATENATED MODULE: ./src/observer/strace.ts
/**
 * The process-level observer: strace's output (run with -f -y -xx) turned into log events.
 * Sees every process of the tree, Node or not, at the system-call boundary, which in-process
 * code cannot unhook.
 */





const TRACED_SYSCALLS = [
    "execve",
    "execveat",
    "open",
    "openat",
    "openat2",
    "creat",
    "unlink",
    "unlinkat",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "mknod",
    "mknodat",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "truncate",
    "ftruncate",
    "connect",
    "sendto",
    "sendmsg",
    "sendmmsg",
    "clone",
    "clone3",
    "fork",
    "vfork",
    "chdir",
    "fchdir",
];
/** strace arguments: follow forks, hex strings (unambiguous to parse), fd paths, no signals. */
function straceArgs(outputPath) {
    return [
        "-f",
        "-qq",
        "--seccomp-bpf",
        "-y",
        "-xx",
        "-s",
        "8192",
        "-e",
        "signal=none",
        "-e",
        // `?` ignores a name this architecture lacks (aarch64 has no open/mkdir/...).
        `trace=${TRACED_SYSCALLS.map((s) => `?${s}`).join(",")}`,
        "-o",
        outputPath,
    ];
}
function decodeHex(text) {
    if (!text.includes("\\x"))
        return text;
    const bytes = [];
    for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) === 0x5c && text[i + 1] === "x") {
            bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
            i += 3;
        }
        else {
            bytes.push(text.charCodeAt(i) & 0xff);
        }
    }
    return Buffer.from(bytes).toString("utf8");
}
/** Splits `a, b, {c, d}, [e]` at top-level commas. Strings are hex-escaped, so quotes never nest. */
function splitArgs(text) {
    const out = [];
    let depth = 0;
    let inString = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '"')
                inString = false;
            continue;
        }
        if (c === '"')
            inString = true;
        else if (c === "(" || c === "[" || c === "{" || c === "<")
            depth++;
        else if (c === ")" || c === "]" || c === "}" || c === ">")
            depth--;
        else if (c === "," && depth === 0) {
            out.push(text.slice(start, i).trim());
            start = i + 1;
        }
    }
    const last = text.slice(start).trim();
    if (last !== "")
        out.push(last);
    return out;
}
/** `"..."` -> decoded string; anything else -> null. */
function stringArg(token) {
    if (token === undefined)
        return null;
    const m = /^"((?:\\x[0-9a-f]{2})*)"/.exec(token);
    return m ? decodeHex(m[1]) : null;
}
/** `3</path>` or `AT_FDCWD</path>` -> `/path`. */
function fdDecoration(token) {
    if (token === undefined)
        return null;
    const m = /^[^<]*<((?:\\x[0-9a-f]{2})*)>$/.exec(token);
    return m ? decodeHex(m[1]) : null;
}
function openFlags(token) {
    if (token === undefined)
        return null;
    const flags = token.startsWith("{") ? (/flags=([A-Z_|0-9x]+)/.exec(token)?.[1] ?? "") : token;
    const set = new Set(flags.split("|"));
    if (set.has("O_CREAT"))
        return "create";
    if (set.has("O_TRUNC"))
        return "truncate";
    if (set.has("O_WRONLY") || set.has("O_RDWR") || set.has("O_APPEND"))
        return "write";
    return null;
}
function strace_mappedV4(address) {
    const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return m ? m[1] : address;
}
/** Internet socket addresses in a syscall's arguments (connect, sendto, sendmsg). */
function socketAddresses(text) {
    const out = [];
    const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/g;
    for (const m of text.matchAll(v4))
        out.push({ host: decodeHex(m[2]), port: Number(m[1]) });
    const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/g;
    for (const m of text.matchAll(v6))
        out.push({ host: strace_mappedV4(decodeHex(m[2])), port: Number(m[1]) });
    return out;
}
/** Streaming parser for `strace -f -y -xx` output. */
class StraceParser {
    pending = "";
    unfinished = new Map();
    tgidOf = new Map();
    parentOf = new Map();
    cwdOf = new Map();
    options;
    rootTgid = null;
    constructor(options) {
        this.options = options;
    }
    push(text) {
        const data = this.pending === "" ? text : this.pending + text;
        this.pending = "";
        let start = 0;
        for (;;) {
            const nl = data.indexOf("\n", start);
            if (nl === -1)
                break;
            this.line(data.slice(start, nl));
            start = nl + 1;
        }
        if (start < data.length)
            this.pending = data.slice(start);
    }
    finish() {
        if (this.pending !== "")
            this.line(this.pending);
        this.pending = "";
    }
    tgid(tid) {
        const known = this.tgidOf.get(tid);
        if (known !== undefined)
            return known;
        // A thread whose clone line is still unfinished: ask the kernel while it runs.
        let tgid = tid;
        try {
            const m = /^Tgid:\s+(\d+)$/m.exec((0,external_node_fs_.readFileSync)(`/proc/${tid}/status`, "utf8"));
            if (m)
                tgid = Number(m[1]);
        }
        catch {
            tgid = tid;
        }
        this.tgidOf.set(tid, tgid);
        if (this.rootTgid === null)
            this.rootTgid = tgid;
        return tgid;
    }
    cwd(tgid) {
        return this.cwdOf.get(tgid) ?? this.options.cwd;
    }
    line(raw) {
        const m = /^(\d+) +(.*)$/.exec(raw);
        if (!m)
            return;
        const tid = Number(m[1]);
        let rest = m[2];
        if (rest.endsWith("<unfinished ...>")) {
            this.unfinished.set(tid, rest.slice(0, -"<unfinished ...>".length).trimEnd());
            return;
        }
        const resumed = /^<\.\.\. [a-z0-9_]+ resumed>(.*)$/.exec(rest);
        if (resumed) {
            const head = this.unfinished.get(tid);
            this.unfinished.delete(tid);
            if (head === undefined)
                return;
            rest = head + resumed[1];
        }
        if (rest.startsWith("+++") || rest.startsWith("---"))
            return;
        const call = /^([a-z0-9_]+)\((.*)$/.exec(rest);
        if (!call)
            return;
        const name = call[1];
        const body = call[2];
        // strace pads short calls with spaces before `=` to align the results.
        const split = /^(.*)\) +=\s+(.*)$/s.exec(body);
        if (!split)
            return;
        this.syscall(tid, name, split[1], split[2]);
    }
    syscall(tid, name, argText, ret) {
        const tgid = this.tgid(tid);
        const retValue = /^(-?\d+)/.exec(ret);
        const ok = retValue !== null && Number(retValue[1]) >= 0;
        if (name === "clone" || name === "clone3" || name === "fork" || name === "vfork") {
            if (!ok)
                return;
            const child = Number(retValue[1]);
            if (child <= 0)
                return;
            if (argText.includes("CLONE_THREAD")) {
                this.tgidOf.set(child, tgid);
            }
            else {
                this.tgidOf.set(child, child);
                this.parentOf.set(child, tgid);
                this.cwdOf.set(child, this.cwd(tgid));
            }
            return;
        }
        const args = splitArgs(argText);
        // Every *at call shows the caller's current directory: the freshest cwd there is.
        for (const a of args) {
            if (a.startsWith("AT_FDCWD<")) {
                const cwd = fdDecoration(a);
                if (cwd !== null)
                    this.cwdOf.set(tgid, cwd);
                break;
            }
        }
        const retPath = fdDecoration(ret.split(" ")[0]);
        switch (name) {
            case "chdir": {
                const p = stringArg(args[0]);
                if (ok && p !== null)
                    this.cwdOf.set(tgid, this.absolute(tgid, null, p));
                return;
            }
            case "fchdir": {
                const p = fdDecoration(args[0]);
                if (ok && p !== null)
                    this.cwdOf.set(tgid, p);
                return;
            }
            case "execve":
            case "execveat": {
                if (!ok)
                    return;
                const pathIndex = name === "execve" ? 0 : 1;
                const p = stringArg(args[pathIndex]);
                if (p === null)
                    return;
                const dirfd = name === "execveat" ? fdDecoration(args[0]) : null;
                const argvToken = args[pathIndex + 1] ?? "[]";
                const argv = argvToken.startsWith("[") ? splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]"))).map((t) => stringArg(t) ?? t) : [];
                this.options.emit({
                    kind: "exec",
                    tgid,
                    ppid: this.parentOf.get(tgid) ?? null,
                    path: (0,paths/* foldPath */.tu)(this.absolute(tgid, dirfd, p)) ?? p,
                    argv,
                });
                return;
            }
            case "open":
            case "creat":
            case "openat":
            case "openat2": {
                const at = name === "openat" || name === "openat2";
                const op = name === "creat" ? "create" : openFlags(args[at ? 2 : 1]);
                if (op === null)
                    return;
                const p = stringArg(args[at ? 1 : 0]);
                if (p === null)
                    return;
                let target;
                if (ok && retPath !== null) {
                    if (!retPath.startsWith("/"))
                        return;
                    target = retPath.replace(/ \(deleted\)$/, "");
                }
                else {
                    target = this.resolveFollow(this.absolute(tgid, at ? fdDecoration(args[0]) : null, p));
                }
                this.write(tgid, target, op);
                return;
            }
            case "unlink":
            case "rmdir":
                return this.writeArg(tgid, null, args[0], "delete", false);
            case "unlinkat":
                return this.writeArg(tgid, args[0], args[1], "delete", false);
            case "mkdir":
                return this.writeArg(tgid, null, args[0], "mkdir", false);
            case "mkdirat":
                return this.writeArg(tgid, args[0], args[1], "mkdir", false);
            case "mknod":
                return this.writeArg(tgid, null, args[0], "create", false);
            case "mknodat":
                return this.writeArg(tgid, args[0], args[1], "create", false);
            case "rename":
                this.writeArg(tgid, null, args[0], "rename", false);
                return this.writeArg(tgid, null, args[1], "rename", false);
            case "renameat":
            case "renameat2":
                this.writeArg(tgid, args[0], args[1], "rename", false);
                return this.writeArg(tgid, args[2], args[3], "rename", false);
            case "link":
                return this.writeArg(tgid, null, args[1], "link", false);
            case "linkat":
                return this.writeArg(tgid, args[2], args[3], "link", false);
            case "symlink":
                return this.writeArg(tgid, null, args[1], "symlink", false);
            case "symlinkat":
                return this.writeArg(tgid, args[1], args[2], "symlink", false);
            case "chmod":
                return this.writeArg(tgid, null, args[0], "chmod", true);
            case "fchmodat":
                return this.writeArg(tgid, args[0], args[1], "chmod", !(args[3] ?? "").includes("AT_SYMLINK_NOFOLLOW"));
            case "truncate":
                return this.writeArg(tgid, null, args[0], "truncate", true);
            case "fchmod":
            case "ftruncate": {
                const p = fdDecoration(args[0]);
                if (p !== null && p.startsWith("/"))
                    this.write(tgid, p, name === "fchmod" ? "chmod" : "truncate");
                return;
            }
            case "connect":
            case "sendto":
            case "sendmsg":
            case "sendmmsg":
                for (const { host, port } of socketAddresses(argText)) {
                    this.options.emit({ kind: "host", tgid, host, port, proto: name === "connect" ? "connect" : "send" });
                }
                return;
            default:
                return;
        }
    }
    absolute(tgid, dirfd, p) {
        if (p.startsWith("/"))
            return p;
        const base = dirfd ?? this.cwd(tgid);
        return (0,external_node_path_.resolve)(base, p);
    }
    writeArg(tgid, dirfdToken, pathToken, op, follow) {
        const p = stringArg(pathToken);
        if (p === null)
            return;
        const dirfd = dirfdToken === null || dirfdToken === undefined ? null : fdDecoration(dirfdToken);
        const abs = this.absolute(tgid, dirfd, p);
        this.write(tgid, follow ? this.resolveFollow(abs) : this.resolveNoFollow(abs), op);
    }
    write(tgid, path, op) {
        const folded = (0,paths/* foldPath */.tu)(path);
        if (folded === null || isIgnoredDevice(folded) || this.options.plumbing.has(folded))
            return;
        this.options.emit({ kind: "write", tgid, path: folded, op });
    }
    /** Resolves symlinks in the directory part now; the final component is the one acted on. */
    resolveNoFollow(abs) {
        const folded = (0,paths/* foldPath */.tu)(abs) ?? abs;
        const parent = (0,external_node_path_.dirname)(folded);
        if (parent === folded)
            return folded;
        return (0,external_node_path_.join)(realOrAncestor(parent, 0), (0,external_node_path_.basename)(folded));
    }
    resolveFollow(abs) {
        try {
            return external_node_fs_.realpathSync.native(abs);
        }
        catch {
            return this.resolveNoFollow(abs);
        }
    }
}
function realOrAncestor(dir, hops) {
    try {
        return external_node_fs_.realpathSync.native(dir);
    }
    catch {
        const parent = (0,external_node_path_.dirname)(dir);
        if (parent === dir || hops > 256)
            return dir;
        return (0,external_node_path_.join)(realOrAncestor(parent, hops + 1), (0,external_node_path_.basename)(dir));
    }
}

;// CONCATENATED MODULE: ./src/observer/run.ts
/**
 * `envelope-gate run`: runs a command with the envelope in force and writes the observer log.
 * Only this process writes the log. Order of a run:
 *
 *   truncate the log -> verify the envelope -> resolve roots, scratch, command, observers
 *   -> meta -> canary stage (self-check, marked canary) -> the command -> end
 *
 * `end` is written only after the command and every descendant exited and every record they
 * sent was read; any failure before that leaves a log without `end`, which `check` refuses.
 */















/** Test and packaging seams: which binaries to use. Pointing one at nothing makes the run refuse. */
const STRACE_ENV = "ENVELOPE_GATE_STRACE";
const UNSHARE_ENV = "ENVELOPE_GATE_UNSHARE";
const MACHINE_ID_ENV = "ENVELOPE_GATE_MACHINE_ID_FILE";
const CANARY_ENV_KEY = "ENVELOPE_GATE_CANARY";
const CANARY_HOST = "canary.envelope-gate.invalid";
const CANARY_FILE = ".envelope-gate-canary";
// The canary program: a write, an env read and a DNS lookup through the hooks, and a write, an
// exec and a connect to a resolver address through the process observer.
const CANARY_PROGRAM = `
const fs = require("node:fs");
const dns = require("node:dns");
const dgram = require("node:dgram");
fs.writeFileSync(process.argv[1], "envelope-gate canary\\n");
void process.env.${CANARY_ENV_KEY};
dns.lookup(${JSON.stringify(CANARY_HOST)}, () => {});
const socket = dgram.createSocket("udp4");
const done = () => process.exit(0);
socket.on("error", done);
socket.connect(53, "127.0.0.1", done);
`;
/** Finds an executable the way execvp would, with the wrapper's own PATH. */
function resolveExecutable(name, pathValue) {
    const candidates = name.includes("/") ? [(0,external_node_path_.resolve)(name)] : (pathValue ?? "").split(external_node_path_.delimiter).filter((d) => d !== "").map((d) => (0,external_node_path_.join)((0,external_node_path_.resolve)(d), name));
    for (const candidate of candidates) {
        try {
            (0,external_node_fs_.accessSync)(candidate, external_node_fs_.constants.X_OK);
            if ((0,external_node_fs_.statSync)(candidate).isFile())
                return candidate;
        }
        catch {
            continue;
        }
    }
    return null;
}
function runnerIdentity() {
    const files = process.env[MACHINE_ID_ENV] !== undefined ? [process.env[MACHINE_ID_ENV]] : ["/etc/machine-id", "/var/lib/dbus/machine-id"];
    for (const file of files) {
        try {
            const id = (0,external_node_fs_.readFileSync)(file, "utf8").trim();
            if (id !== "")
                return `${(0,external_node_os_.hostname)()}#${(0,external_node_crypto_.createHash)("sha256").update(id).digest("hex").slice(0, 16)}`;
        }
        catch {
            continue;
        }
    }
    throw new errors/* GateError */.ue("RUNNER_IDENTITY_UNAVAILABLE", `no machine id in ${files.join(" or ")}: the runner cannot be identified`, {
        hint: "The log names the machine it was recorded on (A/B runs must differ). Provide /etc/machine-id (systemd-machine-id-setup).",
    });
}
function preloadBundlePath() {
    // Beside the CLI bundle: dist/cli/index.js -> dist/preload/index.js (kept out of the bundler's asset analysis).
    const parts = [(0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)), "..", "preload", "index.js"];
    return parts.join(external_node_path_.sep);
}
function networkJail(envelope) {
    if (envelope.envelope.network !== "deny") {
        return { enforced: false, prefix: [], description: "not applied: network is allowlist (hosts are recorded and judged, not blocked)" };
    }
    const unshare = process.env[UNSHARE_ENV] ?? resolveExecutable("unshare", process.env.PATH);
    if (unshare === null || !(0,external_node_fs_.existsSync)(unshare)) {
        return { enforced: false, prefix: [], description: `not enforced: unshare not found${process.env[UNSHARE_ENV] ? ` at ${process.env[UNSHARE_ENV]}` : ""}` };
    }
    // As root a network namespace needs no user namespace. Otherwise map the caller to itself
    // (util-linux >= 2.38), or else to root inside the namespace.
    const candidates = process.geteuid?.() === 0 ? [["-n"]] : [["-c", "-n"], ["-r", "-n"]];
    let why = "";
    for (const flags of candidates) {
        const probe = (0,external_node_child_process_.spawnSync)(unshare, [...flags, "--", process.execPath, "-e", ""], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
        if (probe.status === 0) {
            return { enforced: true, prefix: [unshare, ...flags, "--"], description: `enforced: fresh network namespace (unshare ${flags.join(" ")})` };
        }
        why = `${(0,external_node_path_.basename)(unshare)} ${flags.join(" ")} failed (${(probe.stderr || probe.error?.message || `exit ${String(probe.status)}`).trim().split("\n")[0]})`;
    }
    return { enforced: false, prefix: [], description: `not enforced: ${why}; attempts are recorded only` };
}
class LogWriter {
    fd;
    seq = 0;
    buffer = [];
    scheduled = false;
    constructor(fd) {
        this.fd = fd;
    }
    get lines() {
        return this.seq;
    }
    write(event) {
        const { kind, ...rest } = event;
        this.buffer.push(JSON.stringify({ v: log/* LOG_VERSION */.Ae, kind, ...rest, seq: this.seq }) + "\n");
        this.seq++;
        if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => this.flush());
        }
    }
    flush() {
        this.scheduled = false;
        if (this.buffer.length === 0)
            return;
        const text = this.buffer.join("");
        this.buffer = [];
        const bytes = Buffer.from(text, "utf8");
        let offset = 0;
        while (offset < bytes.length)
            offset += (0,external_node_fs_.writeSync)(this.fd, bytes, offset, bytes.length - offset);
    }
    close() {
        this.flush();
        (0,external_node_fs_.closeSync)(this.fd);
    }
}
let interrupted = null;
let activeChild = null;
async function runStage(stage) {
    (0,external_node_fs_.mkdirSync)(stage.dir, { recursive: true, mode: 0o700 });
    const eventsFifo = (0,external_node_path_.join)(stage.dir, EVENTS_FIFO_NAME);
    const straceFifo = (0,external_node_path_.join)(stage.dir, STRACE_FIFO_NAME);
    makeFifo(eventsFifo);
    if (stage.strace !== null)
        makeFifo(straceFifo);
    let failure = null;
    let child = null;
    const fail = (err) => {
        if (failure === null)
            failure = err;
        if (child !== null && child.exitCode === null)
            child.kill("SIGKILL");
    };
    const frames = new FrameDecoder();
    const events = new FifoReader(eventsFifo, (text) => {
        if (failure !== null)
            return;
        try {
            for (const json of frames.push(text))
                stage.merger.fromHook(JSON.parse(json));
        }
        catch (err) {
            if (err instanceof ChannelMessageError || err instanceof FrameError || err instanceof SyntaxError) {
                fail(new errors/* GateError */.ue("OBSERVER_CHANNEL_INVALID", `the hooks' channel carried an invalid record (${err.message})`, {
                    hint: "Something other than the envelope-gate preload wrote to the observer channel. The run is refused.",
                    cause: err,
                }));
                return;
            }
            throw err;
        }
    }, fail);
    let strace = null;
    let parser = null;
    if (stage.strace !== null) {
        parser = new StraceParser({
            cwd: stage.cwd,
            plumbing: new Set([eventsFifo, straceFifo]),
            emit: (e) => stage.merger.fromProcess(e),
        });
        const p = parser;
        strace = new FifoReader(straceFifo, (text) => {
            if (failure !== null)
                return;
            // A hook's record is written before its system call runs: read those first.
            events.drainNow();
            p.push(text);
        }, fail);
    }
    const argv = [...stage.jail, ...(stage.strace !== null ? [stage.strace, ...straceArgs(straceFifo), "--"] : []), ...stage.argv];
    const stdio = stage.quiet ? ["ignore", "ignore", "inherit"] : ["inherit", "inherit", "inherit"];
    if (stage.lifeline)
        stdio.push("pipe");
    const started = (0,external_node_child_process_.spawn)(argv[0], argv.slice(1), { cwd: stage.cwd, env: stage.env, stdio });
    child = started;
    activeChild = started;
    const lifelineClosed = stage.lifeline
        ? new Promise((resolveClosed) => {
            const fd3 = started.stdio[3];
            if (!fd3)
                return resolveClosed();
            fd3.on("data", () => { });
            fd3.on("close", () => resolveClosed());
            fd3.on("error", () => resolveClosed());
        })
        : Promise.resolve();
    const result = await new Promise((resolveExit, reject) => {
        started.once("error", (err) => reject(err));
        started.once("exit", (code, signal) => resolveExit({ code, signal }));
    }).catch((err) => {
        fail(new errors/* GateError */.ue("OBSERVER_UNAVAILABLE", `cannot start ${argv[0]}: ${err.message}`, { cause: err }));
        return { code: null, signal: null };
    });
    activeChild = null;
    await lifelineClosed;
    if (strace !== null)
        await strace.finish();
    await events.finish();
    parser?.finish();
    if (!frames.idle && failure === null) {
        fail(new errors/* GateError */.ue("OBSERVER_CHANNEL_INVALID", "the hooks' channel ended in the middle of a record"));
    }
    if (failure !== null)
        throw failure;
    return result;
}
/** SIGKILLs a process and every descendant still attached to it (found through /proc). */
function killTree(root) {
    const children = new Map();
    let entries = [];
    try {
        entries = (0,external_node_fs_.readdirSync)("/proc");
    }
    catch {
        entries = []; // no /proc: only the direct child is reachable
    }
    for (const name of entries) {
        if (!/^\d+$/.test(name))
            continue;
        try {
            const stat = (0,external_node_fs_.readFileSync)(`/proc/${name}/stat`, "utf8");
            const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
            const list = children.get(ppid) ?? [];
            list.push(Number(name));
            children.set(ppid, list);
        }
        catch {
            continue;
        }
    }
    const order = [];
    const queue = [root];
    while (queue.length > 0 && order.length < 100_000) {
        const pid = queue.shift();
        order.push(pid);
        queue.push(...(children.get(pid) ?? []));
    }
    for (const pid of order) {
        try {
            process.kill(pid, "SIGKILL");
        }
        catch {
            continue;
        }
    }
}
function exitCodeOf(result) {
    if (result.code !== null)
        return result.code;
    const signo = result.signal !== null ? (external_node_os_.constants.signals[result.signal] ?? 0) : 0;
    return 128 + signo;
}
/** Runs the command under the observers and writes the log. Returns the command's exit code. */
async function runObserved(options) {
    const logPath = (0,external_node_path_.resolve)(options.logPath);
    // First, before anything can fail: a stale log from an earlier run must never survive a refusal.
    let logFd;
    try {
        logFd = (0,external_node_fs_.openSync)(logPath, "w", 0o644);
    }
    catch (err) {
        throw new errors/* GateError */.ue("OBSERVER_LOG_UNWRITABLE", `cannot write the observer log ${logPath} (${err.code ?? String(err)})`, {
            file: logPath,
            cause: err,
        });
    }
    const log = new LogWriter(logFd);
    const privateDir = (0,external_node_fs_.mkdtempSync)((0,external_node_path_.join)((0,external_node_os_.tmpdir)(), "envelope-gate-observer-"));
    const onSignal = (signal) => {
        interrupted = signal;
        if (activeChild?.pid !== undefined)
            killTree(activeChild.pid);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    process.on("SIGHUP", onSignal);
    try {
        return await observe(options, log, logPath, privateDir);
    }
    finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        process.off("SIGHUP", onSignal);
        log.close();
        (0,external_node_fs_.rmSync)(privateDir, { recursive: true, force: true });
    }
}
async function observe(options, log, logPath, privateDir) {
    const envelope = await (0,files/* readVerifiedEnvelope */.pO)(options.envelopePath, options.digestPath);
    const runId = (0,external_node_crypto_.randomUUID)();
    const workspaceInput = (0,external_node_path_.resolve)(options.workspace ?? process.cwd());
    let workspace;
    try {
        workspace = (0,external_node_fs_.realpathSync)(workspaceInput);
    }
    catch (err) {
        throw new errors/* GateError */.ue("CONFIG_INVALID", `the workspace ${workspaceInput} does not exist`, { cause: err });
    }
    const scratchInput = options.scratch !== undefined ? (0,external_node_path_.resolve)(options.scratch) : (0,external_node_path_.join)((0,external_node_fs_.realpathSync)((0,external_node_os_.tmpdir)()), "envelope-gate", runId);
    (0,external_node_fs_.mkdirSync)(scratchInput, { recursive: true, mode: 0o700 });
    const scratch = (0,external_node_fs_.realpathSync)(scratchInput);
    (0,core_envelope/* expandRoots */.oY)(envelope, { workspace, scratch });
    const [commandName, ...commandArgs] = options.command;
    const commandPath = resolveExecutable(commandName, process.env.PATH);
    if (commandPath === null) {
        throw new errors/* GateError */.ue("COMMAND_NOT_FOUND", `the command "${commandName}" was not found on PATH`, {
            hint: "Give the command by absolute path, or fix PATH for envelope-gate run.",
        });
    }
    let straceBinary = null;
    if (!options.nodeOnly) {
        const configured = process.env[STRACE_ENV];
        straceBinary = configured !== undefined ? (resolveExecutable(configured, process.env.PATH) ?? null) : resolveExecutable("strace", process.env.PATH);
        if (straceBinary === null) {
            throw new errors/* GateError */.ue("OBSERVER_UNAVAILABLE", `the process-level observer cannot start: strace not found${configured !== undefined ? ` at ${configured}` : " on PATH"}`, {
                hint: "Install strace (apt-get install -y strace). Node-only observation runs only when asked for with --node-only, and the log then says so.",
            });
        }
    }
    const preloadSource = preloadBundlePath();
    if (!(0,external_node_fs_.existsSync)(preloadSource)) {
        throw new errors/* GateError */.ue("OBSERVER_UNAVAILABLE", `the Node hooks bundle ${preloadSource} is missing`, { hint: "Build it: node scripts/build.mjs" });
    }
    const runner = runnerIdentity();
    const jail = networkJail(envelope);
    const cwd = (0,external_node_fs_.realpathSync)(process.cwd());
    const logReal = (0,external_node_path_.join)((0,external_node_fs_.realpathSync)((0,external_node_path_.dirname)(logPath)), (0,external_node_path_.basename)(logPath));
    const observers = options.nodeOnly ? ["node"] : ["node", "process"];
    log.write({
        kind: "meta",
        run_id: runId,
        envelope_hash: envelope.hash,
        runner,
        started_at: new Date().toISOString(),
        observers,
        network_enforced: jail.enforced,
        network: jail.description,
        log_path: logReal,
        workspace,
        scratch,
        command: options.command,
    });
    log.flush();
    const baseEnv = {};
    for (const key of envelope.envelope.allowed_env) {
        const value = process.env[key];
        if (value !== undefined)
            baseEnv[key] = value;
    }
    baseEnv.RUN_ID = runId;
    baseEnv.ENVELOPE_HASH = envelope.hash;
    baseEnv.SCRATCH = scratch;
    const stageEnv = (dir) => ({ ...baseEnv, NODE_OPTIONS: mergeNodeOptions(dir, baseEnv.NODE_OPTIONS) });
    const prepareStage = (name) => {
        const dir = (0,external_node_path_.join)(privateDir, name);
        (0,external_node_fs_.mkdirSync)(dir, { recursive: true, mode: 0o700 });
        (0,external_node_fs_.copyFileSync)(preloadSource, (0,external_node_path_.join)(dir, PRELOAD_FILE_NAME));
        return dir;
    };
    // Self-check: every live observer must report the canary before the command runs.
    const canaryDir = prepareStage("canary");
    const canaryPath = (0,external_node_path_.join)(scratch, CANARY_FILE);
    const seen = [];
    const canaryMerger = new Merger({
        processObserverLive: straceBinary !== null,
        canary: true,
        emit: (e) => {
            seen.push(e);
            log.write(e);
        },
    });
    const canaryResult = await runStage({
        dir: canaryDir,
        argv: [process.execPath, "-e", CANARY_PROGRAM, canaryPath],
        env: stageEnv(canaryDir),
        cwd,
        strace: straceBinary,
        jail: jail.prefix,
        lifeline: false,
        quiet: true,
        merger: canaryMerger,
    });
    (0,external_node_fs_.rmSync)(canaryPath, { force: true });
    if (interrupted !== null)
        throw interruptedError();
    const missing = [];
    const has = (pred) => seen.some(pred);
    if (!has((e) => e.kind === "write" && e.source === "node" && e.path === canaryPath))
        missing.push("node: write");
    if (!has((e) => e.kind === "env" && e.source === "node" && e.key === CANARY_ENV_KEY))
        missing.push("node: env read");
    if (!has((e) => e.kind === "host" && e.source === "node" && e.host === CANARY_HOST))
        missing.push("node: DNS lookup");
    if (straceBinary !== null) {
        if (!has((e) => e.kind === "write" && e.source === "process" && e.path === canaryPath))
            missing.push("process: write");
        if (!has((e) => e.kind === "exec" && e.source === "process"))
            missing.push("process: exec");
        if (!has((e) => e.kind === "host" && e.source === "process" && e.port === 53))
            missing.push("process: resolver connect");
    }
    if (missing.length > 0 || canaryResult.code !== 0) {
        throw new errors/* GateError */.ue("OBSERVER_UNAVAILABLE", `the observer self-check failed (canary exit ${canaryResult.code ?? canaryResult.signal}; not seen: ${missing.join(", ") || "none"})`, {
            hint: straceBinary !== null
                ? "An observer is not reporting. strace may be unable to attach (ptrace restricted: kernel.yama.ptrace_scope, seccomp, container policy), or the Node hooks did not load."
                : "The Node hooks did not load or did not report.",
        });
    }
    const mainDir = prepareStage("main");
    const merger = new Merger({ processObserverLive: straceBinary !== null, canary: false, emit: (e) => log.write(e) });
    if (straceBinary === null) {
        // Without strace nothing sees the command's own exec: the wrapper records what it starts
        // (no source: it is the wrapper's own statement, not an observer's).
        log.write({ kind: "exec", ts: Date.now(), path: commandPath, argv: [commandName, ...commandArgs] });
    }
    const result = await runStage({
        dir: mainDir,
        argv: [commandPath, ...commandArgs],
        env: stageEnv(mainDir),
        cwd,
        strace: straceBinary,
        jail: jail.prefix,
        lifeline: straceBinary === null,
        quiet: false,
        merger,
    });
    if (interrupted !== null)
        throw interruptedError();
    log.flush();
    const end = { kind: "end", events: log.lines, exit_code: result.code };
    if (result.signal !== null)
        end.signal = result.signal;
    log.write(end);
    log.flush();
    return exitCodeOf(result);
}
function interruptedError() {
    return new errors/* GateError */.ue("OBSERVER_INTERRUPTED", `envelope-gate run was interrupted by ${interrupted}; the log has no end line and will be refused`, {
        hint: "Run it again to completion.",
    });
}

;// CONCATENATED MODULE: ./src/observer/cli.ts



/**
 * `envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--node-only] -- CMD [ARGS...]`
 * Returns the command's exit code; typed errors propagate to the CLI (exit 3).
 */
async function runCommand(args, usage) {
    const dashes = args.indexOf("--");
    if (dashes === -1)
        usage("run needs `-- CMD [ARGS...]`");
    const command = args.slice(dashes + 1);
    if (command.length === 0 || command[0] === "")
        usage("run needs a command after --");
    const { values } = (0,external_node_util_.parseArgs)({
        args: args.slice(0, dashes),
        options: { ...options/* ENVELOPE_LOG_OPTIONS */.B, "node-only": { type: "boolean", default: false } },
        strict: true,
        allowPositionals: false,
    });
    if (!values.envelope)
        usage("run needs --envelope");
    if (!values.observer)
        usage("run needs --observer");
    return runObserved({
        envelopePath: values.envelope,
        digestPath: values.sha256,
        logPath: values.observer,
        workspace: values.workspace,
        scratch: values.scratch,
        nodeOnly: values["node-only"] === true,
        command,
    });
}


/***/ })

};
