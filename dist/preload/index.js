var __webpack_exports__ = {};

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

;// CONCATENATED MODULE: ./src/observer/preload/context.ts
/**
 * What every area of the hooks shares: the stage this process reports to, the channel to the
 * wrapper (queue, batches, flush), the original fs calls, path resolution, and `hook()`. One
 * HookContext is made per process (and per worker thread) by install(), in index.ts.
 */

/** A Node builtin, without a runtime import (the bundle must load as CommonJS and as ESM). */
const load = (id) => process.getBuiltinModule(id);
/** Hands the preload config's recordWrites to worker threads, beside the channel. */
const WORKER_RECORD_WRITES_KEY = `${WORKER_CHANNEL_KEY}.recordWrites`;
/** Hands the process's open channel descriptor to worker threads. */
const WORKER_CHANNEL_FD_KEY = `${WORKER_CHANNEL_KEY}.fd`;
/** The channel descriptor the thread that started this worker handed on, if it still is the channel (same FIFO). */
function inheritedChannel(fs, wt, channelPath) {
    const fd = wt.getEnvironmentData(WORKER_CHANNEL_FD_KEY);
    if (typeof fd !== "number" || !Number.isInteger(fd) || fd < 0)
        return null;
    try {
        const open = fs.fstatSync(fd);
        const named = fs.statSync(channelPath);
        return open.isFIFO() && open.dev === named.dev && open.ino === named.ino ? fd : null;
    }
    catch {
        return null;
    }
}
/** recordWrites from the stage's preload config: false only when the file says exactly that. */
function readRecordWrites(fs, path, stageDir) {
    try {
        const config = JSON.parse(fs.readFileSync(path.join(stageDir, PRELOAD_CONFIG_NAME), "utf8"));
        return !(config !== null && typeof config === "object" && config.recordWrites === false);
    }
    catch {
        return true; // missing or unreadable: record, as without a config
    }
}
/**
 * The stage this process reports to: from the preload entry in NODE_OPTIONS on the main
 * thread (which hands it on to worker threads), from the worker environment data in a worker.
 * Null when this process is not under a run.
 */
function findStage() {
    const wt = load("node:worker_threads");
    if (wt.isMainThread) {
        const dir = splitNodeOptions(process.env.NODE_OPTIONS).stageDir;
        if (dir === null)
            return null;
        const recordWrites = readRecordWrites(load("node:fs"), load("node:path"), dir);
        wt.setEnvironmentData(WORKER_CHANNEL_KEY, dir);
        wt.setEnvironmentData(WORKER_RECORD_WRITES_KEY, recordWrites);
        return { dir, recordWrites };
    }
    const data = wt.getEnvironmentData(WORKER_CHANNEL_KEY);
    if (typeof data !== "string")
        return null;
    return { dir: data, recordWrites: wt.getEnvironmentData(WORKER_RECORD_WRITES_KEY) !== false };
}
/** Opens the stage's channel and makes the context every area installs its hooks with. */
function createContext(stage) {
    const fs = load("node:fs");
    const path = load("node:path");
    const wt = load("node:worker_threads");
    const realEnv = process.env;
    const channelDir = stage.dir;
    // Originals, captured before anything is patched; the hooks use only these.
    const writeSync = fs.writeSync;
    const openSync = fs.openSync;
    const original = {
        realpathNative: fs.realpathSync.native,
        lstatSync: fs.lstatSync,
        readlinkSync: fs.readlinkSync,
        statSync: fs.statSync,
        accessSync: fs.accessSync,
    };
    const { realpathNative, lstatSync, readlinkSync } = original;
    const channelPath = path.join(channelDir, EVENTS_FIFO_NAME);
    // A worker thread writes through its process's descriptor: a thread that opened the channel
    // itself could be gone before the tracer reads its open, and an opener the tracer cannot tie
    // to a Node process fails the run (OBSERVER_CHANNEL_TAMPERED). Used only while it still is
    // the channel (the program may have closed or reused it); otherwise the thread opens its own.
    let channelFd = wt.isMainThread ? null : inheritedChannel(fs, wt, channelPath);
    if (channelFd === null) {
        try {
            channelFd = openSync(channelPath, fs.constants.O_WRONLY);
        }
        catch (err) {
            throw new Error(`envelope-gate: the observer channel in ${channelDir} is gone (${err.message}); refusing to run unobserved`, { cause: err });
        }
        wt.setEnvironmentData(WORKER_CHANNEL_FD_KEY, channelFd);
    }
    const writer = `${process.pid}.${wt.threadId}`;
    let messageNo = 0;
    // Records are batched: fs and env records wait for up to BATCH_RECORDS others or the next turn
    // of the event loop; a record about the network, a child process or a tool is sent at once,
    // with everything queued before it. Each write(2) carries whole frames and stays within
    // PIPE_BUF, so it is atomic. A process killed by SIGKILL loses at most its last batch.
    const BATCH_RECORDS = 64;
    const CHUNK_LIMIT = 4000;
    let queue = [];
    let flushScheduled = false;
    const flush = () => {
        flushScheduled = false;
        if (queue.length === 0)
            return;
        const frames = queue;
        queue = [];
        let chunk = "";
        for (const frame of frames) {
            if (chunk.length + frame.length > CHUNK_LIMIT) {
                writeSync(channelFd, chunk);
                chunk = "";
            }
            chunk += frame;
        }
        if (chunk !== "")
            writeSync(channelFd, chunk);
    };
    const URGENT = new Set(["host", "note", "exec", "tool"]);
    function send(message) {
        message.pid = process.pid;
        message.ts = Date.now();
        for (const frame of encodeFrames(message, writer, ++messageNo))
            queue.push(frame);
        if (URGENT.has(message.kind) || queue.length >= BATCH_RECORDS)
            flush();
        else if (!flushScheduled) {
            flushScheduled = true;
            setImmediate(flush).unref();
        }
    }
    process.on("exit", flush);
    // The frame of a write record, written out directly: the same text send() makes for it, without
    // building and serialising an object per write. A path that is not printable ASCII or is too
    // long for one frame goes through send().
    const NOT_PLAIN = /[^\x20-\x7e]/;
    const writeFrameTail = `,"pid":${process.pid},"ts":`;
    function sendWrite(resolved, op) {
        const pathJson = JSON.stringify(resolved);
        if (pathJson.length > FRAME_LIMIT - 200 || NOT_PLAIN.test(pathJson)) {
            send({ kind: "write", path: resolved, op });
            return;
        }
        ++messageNo;
        queue.push(`{"kind":"write","path":${pathJson},"op":"${op}"${writeFrameTail}${Date.now()}}\n`);
        if (queue.length >= BATCH_RECORDS)
            flush();
        else if (!flushScheduled) {
            flushScheduled = true;
            setImmediate(flush).unref();
        }
    }
    // ---- paths -------------------------------------------------------------------------------
    const urlModule = load("node:url");
    function toPathString(p) {
        if (typeof p === "string")
            return p;
        if (p instanceof URL)
            return urlModule.fileURLToPath(p);
        if (p instanceof Uint8Array)
            return Buffer.from(p).toString("utf8");
        return null;
    }
    function realOrAncestor(dir, hops) {
        try {
            return realpathNative(dir);
        }
        catch {
            const parent = path.dirname(dir);
            if (parent === dir || hops > 256)
                return dir;
            return path.join(realOrAncestor(parent, hops + 1), path.basename(dir));
        }
    }
    function resolveNoFollow(abs) {
        const parent = path.dirname(abs);
        if (parent === abs)
            return abs;
        return path.join(realOrAncestor(parent, 0), path.basename(abs));
    }
    // Paths this process already wrote through with a following call, most likely existing now.
    // Only a hint of which system calls to try first, never a cached answer: for an existing
    // target, realpath of the whole path is exactly what the lstat + realpath of the directory
    // below returns, in one path walk instead of two; if it fails, the full resolution runs.
    const likelyExisting = new Set();
    const LIKELY_EXISTING_LIMIT = 4096;
    function resolveFollow(abs) {
        if (likelyExisting.has(abs)) {
            try {
                return realpathNative(abs);
            }
            catch {
                likelyExisting.delete(abs);
            }
        }
        else {
            if (likelyExisting.size >= LIKELY_EXISTING_LIMIT)
                likelyExisting.clear();
            likelyExisting.add(abs);
        }
        let current = abs;
        for (let hops = 0; hops < 40; hops++) {
            let isLink;
            try {
                isLink = lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink() === true;
            }
            catch {
                return resolveNoFollow(current);
            }
            if (!isLink)
                return resolveNoFollow(current);
            try {
                return realpathNative(current);
            }
            catch {
                current = path.resolve(path.dirname(current), readlinkSync(current));
            }
        }
        return resolveNoFollow(current);
    }
    function fdPath(fd) {
        if (typeof fd !== "number")
            return null;
        try {
            const target = readlinkSync(`/proc/self/fd/${fd}`);
            return target.startsWith("/") ? target.replace(/ \(deleted\)$/, "") : null;
        }
        catch {
            return null;
        }
    }
    // ---- hooks -------------------------------------------------------------------------------
    function hook(target, name, recorder) {
        const original = target[name];
        if (typeof original !== "function")
            return;
        const hooked = function (...args) {
            if (ctx.depth === 0)
                recorder(args, this);
            ctx.depth++;
            try {
                return original.apply(this, args);
            }
            finally {
                ctx.depth--;
            }
        };
        Object.defineProperty(hooked, "name", { value: name });
        for (const key of Object.getOwnPropertySymbols(original)) {
            hooked[key] = original[key];
        }
        target[name] = hooked;
    }
    let ownFile = null;
    function callerIsNodeInternal() {
        const prepare = Error.prepareStackTrace;
        const limit = Error.stackTraceLimit;
        let internal = false;
        try {
            Error.stackTraceLimit = 16;
            Error.prepareStackTrace = (_e, frames) => frames;
            const holder = {};
            Error.captureStackTrace(holder, callerIsNodeInternal);
            const frames = holder.stack;
            if (Array.isArray(frames)) {
                if (ownFile === null)
                    ownFile = frames[0]?.getFileName() ?? null;
                for (const frame of frames) {
                    const file = frame.getFileName();
                    if (file === undefined || file === null || file === ownFile)
                        continue;
                    internal = file.startsWith("node:");
                    break;
                }
            }
        }
        finally {
            Error.prepareStackTrace = prepare;
            Error.stackTraceLimit = limit;
        }
        return internal;
    }
    const ctx = {
        fs,
        path,
        wt,
        realEnv,
        envTarget: realEnv,
        channelDir,
        recordWrites: stage.recordWrites,
        depth: 0,
        original,
        send,
        sendWrite,
        hook,
        callerIsNodeInternal,
        toPathString,
        resolveNoFollow,
        resolveFollow,
        fdPath,
    };
    return ctx;
}

;// CONCATENATED MODULE: ./src/observer/preload/env.ts
/**
 * env: `process.env` becomes a Proxy whose traps record each key the program (or Node's own
 * code, told apart by the caller's stack) reads, tests, deletes or enumerates, and hide the
 * hooks' own NODE_OPTIONS entry from the program; `os.tmpdir()` and `os.homedir()`, which read
 * the environment in C++, are recorded here too.
 */


// Engine protocol lookups (JSON.stringify asks for toJSON, await asks for then) are not reads
// of an environment key, unless the environment really has a key by that name.
const PROTOCOL_NAMES = new Set(["toJSON", "then", "constructor", "toString", "valueOf", "inspect", "__proto__"]);
const PLUMBING_KEY = "NODE_OPTIONS";
/** NODE_OPTIONS as the program should see it: without the preload entry; absent if nothing is left. */
function programNodeOptions(target) {
    const raw = target[PLUMBING_KEY];
    if (raw === undefined)
        return undefined;
    const rest = splitNodeOptions(raw).rest;
    return rest === "" ? undefined : rest;
}
const INSPECT_CUSTOM = Symbol.for("nodejs.util.inspect.custom");
function installEnv(ctx) {
    /** Per key: 1 = a read by the program was recorded, 2 = a read by Node's own code was. */
    const envSeen = new Map();
    function onEnvRead(key, op, internalKnown) {
        if (ctx.depth > 0)
            return internalKnown;
        const state = envSeen.get(key) ?? 0;
        if (state & 1)
            return internalKnown;
        const internal = internalKnown ?? ctx.callerIsNodeInternal();
        const bit = internal ? 2 : 1;
        if (state & bit)
            return internal;
        envSeen.set(key, state | bit);
        ctx.send({ kind: "env", key, op, origin: internal ? "internal" : "user" });
        return internal;
    }
    /**
     * The traps for one environment object. They act on `env` itself, never on the Proxy's target:
     * for the real environment the target is an empty stand-in (see watchEnv).
     */
    function envHandler(env) {
        const table = env;
        return {
            get(_target, key) {
                if (key === PLUMBING_KEY) {
                    const internal = ctx.callerIsNodeInternal();
                    onEnvRead(key, "get", internal);
                    return internal ? env[key] : programNodeOptions(env);
                }
                if (typeof key === "string" &&
                    ((envSeen.get(key) ?? 0) & 1) === 0 &&
                    !(PROTOCOL_NAMES.has(key) && !Object.prototype.hasOwnProperty.call(env, key))) {
                    onEnvRead(key, "get");
                }
                return table[key];
            },
            has(_target, key) {
                if (key === PLUMBING_KEY) {
                    const internal = ctx.callerIsNodeInternal();
                    onEnvRead(key, "has", internal);
                    return internal ? key in env : programNodeOptions(env) !== undefined;
                }
                if (typeof key === "string")
                    onEnvRead(key, "has");
                return key in env;
            },
            deleteProperty(_target, key) {
                if (typeof key === "string")
                    onEnvRead(key, "delete");
                if (key === PLUMBING_KEY) {
                    env[key] = mergeNodeOptions(ctx.channelDir, undefined);
                    return true;
                }
                return delete table[key];
            },
            ownKeys() {
                return enumerateEnv(env, ctx.callerIsNodeInternal);
            },
            getOwnPropertyDescriptor(_target, key) {
                if (key === PLUMBING_KEY) {
                    const internal = ctx.callerIsNodeInternal();
                    onEnvRead(key, "get", internal);
                    if (internal)
                        return Reflect.getOwnPropertyDescriptor(env, key);
                    const value = programNodeOptions(env);
                    return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
                }
                if (typeof key === "string")
                    onEnvRead(key, "get");
                return Reflect.getOwnPropertyDescriptor(env, key);
            },
            set(_target, key, value) {
                if (key === PLUMBING_KEY) {
                    env[key] = mergeNodeOptions(ctx.channelDir, String(value));
                    return true;
                }
                table[key] = value;
                return true;
            },
            defineProperty(_target, key, descriptor) {
                return Reflect.defineProperty(env, key, descriptor);
            },
            preventExtensions() {
                return Reflect.preventExtensions(env);
            },
        };
    }
    /** The keys a caller enumerating `env` sees, each recorded as an `enumerate` read. */
    function enumerateEnv(env, isInternal) {
        let keys = Reflect.ownKeys(env);
        let internal;
        if (keys.includes(PLUMBING_KEY)) {
            internal = isInternal();
            // The program is not shown a NODE_OPTIONS that is only plumbing: it enumerates without it.
            if (!internal && programNodeOptions(env) === undefined)
                keys = keys.filter((k) => k !== PLUMBING_KEY);
        }
        for (const key of keys)
            if (typeof key === "string")
                internal = onEnvRead(key, "enumerate", internal);
        return keys;
    }
    /**
     * The Proxy over the real environment has an empty stand-in as its target. With the real
     * environment as the target, V8 checks every trap's result against the target's own property
     * (a second getenv per read), which made each read cost twice a plain one. The stand-in has no
     * own properties, so those checks are trivial; every trap above reads and writes the real
     * environment. util.inspect (console.log) formats a Proxy's target, not the Proxy, so the
     * stand-in formats itself as the program's view of the environment, recorded as the program
     * enumerating it.
     */
    function watchEnv(env) {
        if (env !== ctx.realEnv)
            return new Proxy(env, envHandler(env));
        const standIn = Object.create(Object.getPrototypeOf(env));
        standIn[INSPECT_CUSTOM] = function inspectEnvironment(_depth, options, inspect) {
            const view = {};
            for (const key of enumerateEnv(env, () => false)) {
                if (typeof key === "string")
                    view[key] = key === PLUMBING_KEY ? programNodeOptions(env) : env[key];
            }
            return inspect(view, options);
        };
        return new Proxy(standIn, envHandler(env));
    }
    // A program may assign process.env a new object: it is watched the same way, and becomes
    // what child processes inherit by default, as it would without the hooks.
    let envProxy = watchEnv(ctx.realEnv);
    Object.defineProperty(process, "env", {
        get: () => envProxy,
        set: (value) => {
            if (value !== null && typeof value === "object") {
                ctx.envTarget = value;
                envProxy = watchEnv(ctx.envTarget);
            }
        },
        configurable: true,
        enumerable: true,
    });
    // os.tmpdir/homedir/userInfo read the environment in C++, past the proxy: record those reads here.
    const os = load("node:os");
    ctx.hook(os, "tmpdir", () => {
        for (const key of ["TMPDIR", "TMP", "TEMP"])
            onEnvRead(key, "get", false);
    });
    ctx.hook(os, "homedir", () => void onEnvRead("HOME", "get", false));
}

;// CONCATENATED MODULE: ./src/observer/preload/fs.ts
/**
 * fs: every call that mutates a file, in its sync, callback and `fs.promises` forms, recorded as
 * a `write` with the path absolute and symlinks resolved. Under a preload config with
 * `"recordWrites": false` the calls keep their hooks (nested calls stay one operation) but record
 * nothing and resolve nothing: the process observer records those writes with the kernel's path.
 */

function installFs(ctx) {
    const { fs, path } = ctx;
    function recordWrite(raw, op, follow) {
        let resolved;
        try {
            const p = ctx.toPathString(raw);
            if (p === null)
                return;
            const abs = path.resolve(p);
            resolved = follow ? ctx.resolveFollow(abs) : ctx.resolveNoFollow(abs);
        }
        catch {
            return; // not a path the call could use; the original call reports its own error
        }
        if (isIgnoredDevice(resolved))
            return;
        ctx.sendWrite(resolved, op);
    }
    const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
    /** The op an open with these flags performs, or null for a read-only open. */
    function openOp(flags) {
        if (flags === undefined || flags === null)
            return null;
        if (typeof flags === "number") {
            if (flags & O_CREAT)
                return "create";
            if (flags & O_TRUNC)
                return "truncate";
            if (flags & (O_WRONLY | O_RDWR | O_APPEND))
                return "write";
            return null;
        }
        const f = String(flags);
        if (f.includes("w") || f.includes("a"))
            return "create";
        if (f.includes("+"))
            return "write";
        return null;
    }
    const writeRecorders = {
        writeFile: (a) => recordWrite(a[0], "write", true),
        appendFile: (a) => recordWrite(a[0], "write", true),
        open: (a) => {
            const op = openOp(a[1]);
            if (op !== null)
                recordWrite(a[0], op, true);
        },
        rm: (a) => recordWrite(a[0], "delete", false),
        rmdir: (a) => recordWrite(a[0], "delete", false),
        unlink: (a) => recordWrite(a[0], "delete", false),
        rename: (a) => {
            recordWrite(a[0], "rename", false);
            recordWrite(a[1], "rename", false);
        },
        mkdir: (a) => recordWrite(a[0], "mkdir", false),
        mkdtemp: (a) => {
            const prefix = ctx.toPathString(a[0]);
            if (prefix !== null)
                recordWrite(prefix + "XXXXXX", "mkdir", false);
        },
        copyFile: (a) => recordWrite(a[1], "create", true),
        cp: (a) => recordWrite(a[1], "create", true),
        symlink: (a) => recordWrite(a[1], "symlink", false),
        link: (a) => recordWrite(a[1], "link", false),
        chmod: (a) => recordWrite(a[0], "chmod", true),
        lchmod: (a) => recordWrite(a[0], "chmod", false),
        truncate: (a) => {
            const p = typeof a[0] === "number" ? ctx.fdPath(a[0]) : a[0];
            recordWrite(p, "truncate", true);
        },
        fchmod: (a) => recordWrite(ctx.fdPath(a[0]), "chmod", false),
        ftruncate: (a) => recordWrite(ctx.fdPath(a[0]), "truncate", false),
    };
    const recordNothing = () => { };
    const fsRecorders = ctx.recordWrites
        ? writeRecorders
        : Object.fromEntries(Object.keys(writeRecorders).map((name) => [name, recordNothing]));
    const fsTable = fs;
    for (const [name, recorder] of Object.entries(fsRecorders)) {
        ctx.hook(fsTable, name, recorder);
        ctx.hook(fsTable, `${name}Sync`, recorder);
    }
    const promises = fs.promises;
    for (const [name, recorder] of Object.entries(fsRecorders)) {
        if (name === "fchmod" || name === "ftruncate")
            continue;
        if (name === "open")
            continue;
        ctx.hook(promises, name, recorder);
    }
    // FileHandle methods act on an already-open file; chmod and truncate work on read-only handles.
    let fileHandlePatched = !ctx.recordWrites; // nothing to record: leave FileHandle as it is
    const originalPromisesOpen = promises.open;
    promises.open = function open(...args) {
        if (ctx.depth === 0)
            fsRecorders.open?.(args, this);
        ctx.depth++;
        let result;
        try {
            result = originalPromisesOpen.apply(this, args);
        }
        finally {
            ctx.depth--;
        }
        return result.then((handle) => {
            if (!fileHandlePatched && handle !== null && typeof handle === "object") {
                fileHandlePatched = true;
                const proto = Object.getPrototypeOf(handle);
                const chmod = proto.chmod;
                const truncate = proto.truncate;
                proto.chmod = function (...a) {
                    if (ctx.depth === 0)
                        recordWrite(ctx.fdPath(this.fd), "chmod", false);
                    return chmod.apply(this, a);
                };
                proto.truncate = function (...a) {
                    if (ctx.depth === 0)
                        recordWrite(ctx.fdPath(this.fd), "truncate", false);
                    return truncate.apply(this, a);
                };
            }
            return handle;
        });
    };
}

;// CONCATENATED MODULE: ./src/observer/preload/network.ts
/**
 * network: every TCP connect (`net.Socket.prototype.connect`, which `net`, `tls`, `http`,
 * `https`, `http2` and `fetch` all go through), UDP connects and sends, and DNS lookups, recorded
 * as `host` by the name the program gave; `note` records tell the wrapper which addresses a
 * hooked connect resolved to, so the process observer's record of the same connect is merged.
 */

function installNetwork(ctx) {
    const net = load("node:net");
    const dns = load("node:dns");
    const originalLookup = dns.lookup;
    function recordHost(host, port, proto) {
        const event = { kind: "host", host, proto };
        if (port !== null && Number.isInteger(port))
            event.port = port;
        ctx.send(event);
    }
    function noteAddress(address, port) {
        ctx.send({ kind: "note", address, port });
    }
    function wrapLookup(userLookup, port) {
        const base = userLookup ?? originalLookup;
        return function lookup(host, options, cb) {
            const callback = (typeof options === "function" ? options : cb);
            const opts = typeof options === "function" ? {} : options;
            base(host, opts, (err, address, family) => {
                // Only Node's own resolver vouches for a name: an address from the program's own
                // `lookup` is judged as the address it is (the process observer records the connect).
                if (!err && userLookup === undefined) {
                    const list = Array.isArray(address) ? address : [{ address }];
                    for (const entry of list) {
                        const a = entry.address;
                        if (typeof a === "string")
                            noteAddress(a, port);
                    }
                }
                callback(err, address, family);
            });
        };
    }
    const SocketProto = net.Socket.prototype;
    const originalConnect = SocketProto.connect;
    SocketProto.connect = function connect(...args) {
        if (ctx.depth === 0) {
            const first = args[0];
            let holder = null;
            let options = null;
            if (Array.isArray(first)) {
                holder = first;
                options = (first[0] ?? null);
            }
            else if (first !== null && typeof first === "object") {
                options = first;
            }
            else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
                options = { port: first, host: typeof args[1] === "string" ? args[1] : undefined };
                args = [options, ...args.slice(typeof args[1] === "string" ? 2 : 1)];
            }
            // http(s) agents pass `path: null` for a TCP connection; a string path is a unix socket.
            if (options !== null && typeof options.path !== "string" && options.port !== undefined && options.port !== null) {
                const host = typeof options.host === "string" && options.host !== "" ? options.host : "localhost";
                const port = Number(options.port);
                recordHost(host, port, "tcp");
                if (net.isIP(host) !== 0) {
                    noteAddress(host, port);
                }
                else {
                    const wrapped = { ...options, lookup: wrapLookup(options.lookup, port) };
                    if (holder !== null)
                        holder[0] = wrapped;
                    else
                        args[0] = wrapped;
                }
            }
        }
        return originalConnect.apply(this, args);
    };
    const dgram = load("node:dgram");
    const DgramProto = dgram.Socket.prototype;
    const dgramSeen = new Set();
    function recordUdp(socket, portArg, addressArg) {
        const port = Number(portArg);
        if (!Number.isInteger(port))
            return;
        const type = socket.type;
        const host = typeof addressArg === "string" && addressArg !== "" ? addressArg : type === "udp6" ? "::1" : "127.0.0.1";
        const key = `${host}\0${port}`;
        if (dgramSeen.has(key))
            return;
        dgramSeen.add(key);
        recordHost(host, port, "udp");
        if (net.isIP(host) !== 0)
            noteAddress(host, port);
    }
    ctx.hook(DgramProto, "connect", (a, self) => recordUdp(self, a[0], typeof a[1] === "string" ? a[1] : undefined));
    ctx.hook(DgramProto, "send", (a, self) => {
        const [msg, offset, length] = a;
        const offsetForm = (typeof msg === "string" || ArrayBuffer.isView(msg)) && typeof offset === "number" && typeof length === "number";
        const port = offsetForm ? a[3] : a[1];
        const address = offsetForm ? a[4] : a[2];
        if (port !== undefined && typeof port !== "function")
            recordUdp(self, port, address);
    });
    // Node's own lookups (dgram, net with a lookup of its own) are part of a connect already recorded.
    const dnsHost = (a) => {
        if (typeof a[0] === "string" && !ctx.callerIsNodeInternal())
            recordHost(a[0], null, "dns");
    };
    const DNS_METHODS = [
        "lookup",
        "resolve",
        "resolve4",
        "resolve6",
        "resolveAny",
        "resolveCaa",
        "resolveCname",
        "resolveMx",
        "resolveNaptr",
        "resolveNs",
        "resolvePtr",
        "resolveSoa",
        "resolveSrv",
        "resolveTxt",
        "reverse",
    ];
    const dnsTables = [
        dns,
        dns.promises,
        dns.Resolver.prototype,
        dns.promises.Resolver.prototype,
    ];
    for (const table of dnsTables) {
        for (const name of DNS_METHODS)
            ctx.hook(table, name, dnsHost);
        ctx.hook(table, "lookupService", (a) => {
            if (typeof a[0] === "string")
                recordHost(a[0], Number.isInteger(Number(a[1])) ? Number(a[1]) : null, "dns");
        });
    }
}

;// CONCATENATED MODULE: ./src/observer/preload/processes.ts
/**
 * processes: the `child_process` exports (and their `util.promisify` forms) record each program
 * they start as an `exec`, resolved on the child's PATH, and put the hooks' NODE_OPTIONS entry
 * into any environment the program passes, so Node grandchildren are hooked too.
 */


function installProcesses(ctx) {
    const { fs, path, original } = ctx;
    const cp = load("node:child_process");
    function childEnv(env) {
        const base = (env !== null && typeof env === "object" ? env : ctx.envTarget);
        const out = { ...base };
        out.NODE_OPTIONS = mergeNodeOptions(ctx.channelDir, base.NODE_OPTIONS);
        return out;
    }
    function resolveExecutable(file, env, cwd) {
        const dir = typeof cwd === "string" ? path.resolve(cwd) : process.cwd();
        if (file.includes("/"))
            return path.resolve(dir, file);
        for (const entry of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
            const candidate = path.resolve(dir, entry === "" ? "." : entry, file);
            try {
                original.accessSync(candidate, fs.constants.X_OK);
                if (original.statSync(candidate).isFile())
                    return candidate;
            }
            catch {
                continue;
            }
        }
        return null;
    }
    function isOptions(value) {
        return value !== null && typeof value === "object" && !Array.isArray(value);
    }
    /** Puts the options object where Node's normalizers look for it, with the plumbing in its env. */
    function withOptions(args, spawnLike) {
        let index = 1;
        if (spawnLike) {
            if (Array.isArray(args[1]))
                index = 2;
            else if (args[1] === undefined || args[1] === null)
                index = args.length > 2 && isOptions(args[2]) ? 2 : 1;
        }
        const existing = args[index];
        const options = isOptions(existing) ? { ...existing } : {};
        options.env = childEnv(options.env);
        if (isOptions(existing) || existing === undefined || existing === null)
            args[index] = options;
        else
            args.splice(index, 0, options);
        return options;
    }
    function recordExec(file, argv, options) {
        const env = options.env;
        const resolved = resolveExecutable(file, env, options.cwd);
        if (resolved === null)
            return;
        const event = { kind: "exec", path: resolved, argv };
        if (typeof options.cwd === "string")
            event.cwd = path.resolve(options.cwd);
        ctx.send(event);
    }
    function shellOf(options) {
        return typeof options.shell === "string" ? options.shell : "/bin/sh";
    }
    const PROMISIFY_CUSTOM = Symbol.for("nodejs.util.promisify.custom");
    /** Wraps a child_process export, and its util.promisify form, with `prepare` (record + env). */
    function wrapChild(name, prepare) {
        const original = cp[name];
        if (typeof original !== "function")
            return;
        const wrap = (fn) => function (...args) {
            ctx.depth++;
            try {
                if (ctx.depth === 1)
                    prepare(args);
                return fn.apply(this, args);
            }
            finally {
                ctx.depth--;
            }
        };
        const hooked = wrap(original);
        const custom = original[PROMISIFY_CUSTOM];
        if (typeof custom === "function") {
            Object.defineProperty(hooked, PROMISIFY_CUSTOM, { value: wrap(custom), configurable: true });
        }
        Object.defineProperty(hooked, "name", { value: name });
        cp[name] = hooked;
    }
    const prepareSpawnLike = (args) => {
        if (typeof args[0] !== "string")
            return;
        const file = args[0];
        const list = Array.isArray(args[1]) ? args[1].map(String) : [];
        const options = withOptions(args, true);
        if (options.shell)
            recordExec(shellOf(options), [shellOf(options), "-c", [file, ...list].join(" ")], options);
        else
            recordExec(file, [file, ...list], options);
    };
    const prepareShellForm = (args) => {
        if (typeof args[0] !== "string")
            return;
        const command = args[0];
        const options = withOptions(args, false);
        const shell = shellOf(options);
        recordExec(shell, [shell, "-c", command], options);
    };
    const prepareFork = (args) => {
        if (typeof args[0] !== "string" && !(args[0] instanceof URL))
            return;
        const modulePath = String(ctx.toPathString(args[0]));
        const list = Array.isArray(args[1]) ? args[1].map(String) : [];
        const options = withOptions(args, true);
        const execPath = typeof options.execPath === "string" ? options.execPath : process.execPath;
        const execArgv = Array.isArray(options.execArgv) ? options.execArgv.map(String) : process.execArgv;
        recordExec(execPath, [execPath, ...execArgv, modulePath, ...list], options);
    };
    for (const name of ["spawn", "spawnSync", "execFile", "execFileSync"])
        wrapChild(name, prepareSpawnLike);
    for (const name of ["exec", "execSync"])
        wrapChild(name, prepareShellForm);
    wrapChild("fork", prepareFork);
}

;// CONCATENATED MODULE: ./src/observer/preload/proxy.ts
/**
 * proxy: under `network: "allowlist"` the run's only way out is the egress proxy named by
 * HTTP_PROXY/HTTPS_PROXY (docs/egress.md). Node's own clients ignore those variables unless
 * NODE_USE_ENV_PROXY=1 on a Node that honours it (24.5 and newer, 22.21 and newer; the wrapper
 * sets it under allowlist). On an older Node (20) this area gives NODE_USE_ENV_PROXY=1 the same
 * meaning (and does nothing without it): it makes `fetch`, `http` and `https` use the proxy.
 * Every request to a host that NO_PROXY does not name goes through a CONNECT tunnel to the proxy
 * (TLS on top for https), so the proxy sees the name and the port and judges them. NO_PROXY hosts (loopback: the run's own namespace) stay direct.
 *
 * - `http.globalAgent` and `https.globalAgent` are replaced by agents whose connections are
 *   tunnels. A request that brings its own agent (or `agent: false`) goes direct, and in the jail
 *   has no route: fail closed.
 * - `fetch`: Node 20 loads its bundled undici on the first call. The first call of the wrapped
 *   `fetch` loads it (with a `data:` URL, which never touches the network), then replaces the
 *   global dispatcher (`Symbol.for("undici.globalDispatcher.1")`) with an undici Agent of the
 *   same class whose `connect` opens the tunnel, before the program's own request is dispatched.
 *   Loading undici eagerly would cost every Node process of the run about 100 ms. A dispatcher the
 *   program set before its first fetch (`setGlobalDispatcher` from the undici package: a MockAgent,
 *   its own ProxyAgent) is left alone.
 *
 * Nothing here is recorded: the proxy records every tunnel by name (`source: "proxy"`), and the
 * connect to the relay's own address is written by neither observer.
 */

/** True when this Node's own clients follow the proxy variables under NODE_USE_ENV_PROXY=1. */
function nodeHonoursEnvProxy(version) {
    const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
    return major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
}
function parseProxy(value) {
    if (value === undefined || value === "")
        return null;
    try {
        const url = new URL(value);
        if (url.protocol !== "http:")
            return null;
        const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
        return { host, port: url.port === "" ? 80 : Number(url.port) };
    }
    catch {
        return null;
    }
}
/** NO_PROXY as curl reads it: `*`, exact names, and `.suffix` / `suffix` for a domain and its subdomains. */
function noProxyMatcher(value) {
    const entries = (value ?? "")
        .split(/[\s,]+/)
        .map((e) => e.trim().toLowerCase())
        .filter((e) => e !== "");
    return (raw) => {
        const host = raw.toLowerCase().replace(/^\[|\]$/g, "");
        for (const entry of entries) {
            if (entry === "*")
                return true;
            const e = entry.replace(/^\*?\./, "").replace(/^\[|\]$/g, "");
            if (host === e || host.endsWith("." + e))
                return true;
        }
        return false;
    };
}
function installProxy(ctx) {
    const env = ctx.realEnv;
    // NODE_USE_ENV_PROXY=1 (the wrapper's, under allowlist) asks for the proxy; a Node that honours it does the rest.
    if (env.NODE_USE_ENV_PROXY !== "1" || nodeHonoursEnvProxy(process.version))
        return;
    const proxy = parseProxy(env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy);
    if (proxy === null)
        return;
    const net = load("node:net");
    const tls = load("node:tls");
    const http = load("node:http");
    const https = load("node:https");
    const direct = noProxyMatcher(env.NO_PROXY ?? env.no_proxy);
    /** A socket to host:port through a CONNECT tunnel; `callback` gets it once the proxy said 200. */
    function tunnel(host, port, callback) {
        const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
        const socket = net.connect(proxy.port, proxy.host);
        let head = Buffer.alloc(0);
        let done = false;
        const fail = (err) => {
            if (done)
                return;
            done = true;
            socket.destroy();
            callback(err);
        };
        const onData = (chunk) => {
            head = Buffer.concat([head, chunk]);
            const end = head.indexOf("\r\n\r\n");
            if (end === -1) {
                if (head.length > 65536)
                    fail(new Error(`envelope-gate proxy: response head for CONNECT ${authority} is too large`));
                return;
            }
            socket.off("data", onData);
            socket.off("error", fail);
            const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString("latin1"));
            if (status === null || status[1] !== "200") {
                const line = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
                const err = new Error(`envelope-gate proxy refused CONNECT ${authority}: ${line}`);
                err.code = "ERR_PROXY_TUNNEL";
                err.statusCode = status === null ? 0 : Number(status[1]);
                fail(err);
                return;
            }
            done = true;
            const rest = head.subarray(end + 4);
            if (rest.length > 0)
                socket.unshift(rest);
            callback(null, socket);
        };
        socket.on("data", onData);
        socket.on("error", fail);
        socket.on("close", () => fail(new Error(`envelope-gate proxy closed the connection during CONNECT ${authority}`)));
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    }
    /** `tls.connect` over a tunnel, with the options the caller would have given tls.connect. */
    function secure(socket, options, callback) {
        const tlsSocket = tls.connect({ ...options, socket });
        const onError = (err) => {
            tlsSocket.destroy();
            callback(err);
        };
        tlsSocket.once("error", onError);
        tlsSocket.once("secureConnect", () => {
            tlsSocket.off("error", onError);
            callback(null, tlsSocket);
        });
    }
    const hostOf = (o) => String(o.hostname ?? o.host ?? "localhost").replace(/^\[|\]$/g, "");
    const httpConnection = (options, callback) => {
        const host = hostOf(options);
        const port = Number(options.port ?? 80);
        if (direct(host))
            return net.connect({ ...options, host, port });
        tunnel(host, port, callback);
        return undefined;
    };
    const httpsConnection = (options, callback) => {
        const host = hostOf(options);
        const port = Number(options.port ?? 443);
        if (direct(host))
            return tls.connect({ ...options, host, port });
        const servername = options.servername ?? (net.isIP(host) === 0 ? host : undefined);
        tunnel(host, port, (err, socket) => {
            if (err !== null || socket === undefined)
                return callback(err ?? new Error("no socket"));
            const { host: _h, port: _p, path: _path, ...tlsOptions } = options;
            secure(socket, { ...tlsOptions, servername }, callback);
        });
        return undefined;
    };
    // Node's Agent calls `this.createConnection(options, oncreate)` and takes the socket from the
    // callback when nothing is returned.
    const httpAgent = new http.Agent({ keepAlive: true });
    const httpsAgent = new https.Agent({ keepAlive: true });
    httpAgent.createConnection = httpConnection;
    httpsAgent.createConnection = httpsConnection;
    http.globalAgent = httpAgent;
    https.globalAgent = httpsAgent;
    // ---- fetch (Node's bundled undici) --------------------------------------------------------
    const DISPATCHER = Symbol.for("undici.globalDispatcher.1");
    const g = globalThis;
    const originalFetch = g.fetch;
    if (typeof originalFetch !== "function")
        return;
    let installed = false;
    function installDispatcher() {
        installed = true;
        // A dispatcher the program set itself (an undici MockAgent, its own ProxyAgent) stays its own.
        if (g[DISPATCHER] !== undefined)
            return;
        // Loads undici (and with it the default global Agent) without a network request.
        originalFetch.call(globalThis, "data:,").catch(() => undefined);
        const current = g[DISPATCHER];
        if (current === undefined || typeof current.constructor !== "function")
            return;
        const connect = (o, cb) => {
            const host = o.hostname.replace(/^\[|\]$/g, "");
            const https = o.protocol === "https:";
            const port = o.port !== "" ? Number(o.port) : https ? 443 : 80;
            const servername = o.servername ?? (net.isIP(host) === 0 ? host : undefined);
            const tlsOptions = { servername, ALPNProtocols: ["http/1.1"] };
            if (direct(host)) {
                const s = https ? tls.connect({ ...tlsOptions, host, port }) : net.connect({ host, port });
                const ready = https ? "secureConnect" : "connect";
                s.once("error", (err) => cb(err));
                s.once(ready, () => cb(null, s));
                return;
            }
            tunnel(host, port, (err, socket) => {
                if (err !== null || socket === undefined)
                    return cb(err ?? new Error("no socket"));
                if (!https)
                    return cb(null, socket);
                secure(socket, tlsOptions, cb);
            });
        };
        g[DISPATCHER] = new current.constructor({ connect });
    }
    const fetch = function fetch(input, init) {
        if (!installed)
            installDispatcher();
        return originalFetch.call(this, input, init);
    };
    Object.defineProperty(fetch, "length", { value: originalFetch.length });
    Object.defineProperty(globalThis, "fetch", { value: fetch, writable: true, enumerable: true, configurable: true });
}

;// CONCATENATED MODULE: ./src/observer/preload/workers.ts
function installWorkers(ctx) {
    const { wt } = ctx;
    // Node copies the whole environment into a new worker: that is passing it on, not reading it.
    const OriginalWorker = wt.Worker;
    class Worker extends OriginalWorker {
        constructor(...args) {
            ctx.depth++;
            try {
                super(...args);
            }
            finally {
                ctx.depth--;
            }
        }
    }
    wt.Worker = Worker;
}

;// CONCATENATED MODULE: ./src/observer/preload/index.ts
/**
 * The Node chokepoints, preloaded into every Node process (and worker thread) of an observed run
 * through NODE_OPTIONS `--require`. They record what the program asks of fs, process.env, the
 * network stack and child_process, and hand each record to the run wrapper over the stage's
 * FIFO. They never write the log and never judge.
 *
 * Each area installs its hooks from its own module (fs, env, network, processes, workers) over
 * one shared HookContext (context.ts): the channel, the original fs calls, path resolution and
 * `hook()`.
 *
 * These files have no runtime imports: Node builtins come from process.getBuiltinModule, and our
 * own helpers are inlined by the bundler, so the bundle is valid as CommonJS and as ESM. The
 * wrapper installs it as `<stage dir>/envelope-gate-preload.cjs`.
 *
 * Hostile code shares this address space and can undo every hook here; the process-level
 * observer is the part it cannot skip (docs/observer.md).
 */








const INSTALLED = Symbol.for("envelope-gate.preload.installed");
function install() {
    const g = globalThis;
    if (g[INSTALLED])
        return;
    if (typeof process.getBuiltinModule !== "function") {
        // Refuse to run this process unobserved rather than skip the hooks.
        throw new Error(`envelope-gate: the Node hooks need Node 20.16 or newer (this is ${process.version})`);
    }
    const stage = findStage();
    if (stage === null)
        return;
    // The preload entry stays in the real environment, so every process Node starts inherits it,
    // whichever API starts it; the process.env Proxy (env.ts) shows the program only its own
    // NODE_OPTIONS (if it had any), never the wrapper's plumbing.
    g[INSTALLED] = true;
    const ctx = createContext(stage);
    installFs(ctx);
    installEnv(ctx);
    installNetwork(ctx);
    // After the network hooks: the tunnels' own connects go through them (to the relay's address).
    installProxy(ctx);
    installProcesses(ctx);
    installWorkers(ctx);
    // ---- SDK ---------------------------------------------------------------------------------
    Object.defineProperty(globalThis, Symbol.for(RECORD_TOOL_SYMBOL), {
        value: function recordTool(name) {
            if (typeof name !== "string" || name === "")
                throw new TypeError("recordTool(name): name must be a non-empty string");
            ctx.send({ kind: "tool", name });
        },
        enumerable: false,
        configurable: false,
        writable: false,
    });
    // ESM `import { writeFileSync } from "node:fs"` binds to a snapshot: refresh it to the hooks.
    load("node:module").syncBuiltinESMExports();
}
install();

