/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
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

// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  X: () => (/* binding */ isObserved),
  a: () => (/* binding */ recordTool)
});

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

;// CONCATENATED MODULE: ./src/observer/sdk.ts
/**
 * The agent SDK: `recordTool(name)` for an agent's tool dispatcher. Bundled to dist/sdk/index.js
 * (ESM, no dependencies); import it by path:
 *
 *   import { recordTool } from "envelope-gate/dist/sdk/index.js"; // or a relative path to dist/sdk/index.js
 *
 *   async function dispatch(call) {
 *     recordTool(call.name);            // recorded before the tool runs, so a crash still shows it
 *     return tools[call.name](call.args);
 *   }
 *
 * Under `envelope-gate run` the preloaded hooks install the recorder as a global
 * (Symbol.for("envelope-gate.recordTool")), and each call becomes a `tool` event with
 * source "sdk". Outside a run there is no observer and recordTool returns false.
 */

/** Records that the agent dispatched tool `name`. Returns true when an observer recorded it. */
function recordTool(name) {
    if (typeof name !== "string" || name === "")
        throw new TypeError("recordTool(name): name must be a non-empty string");
    const recorder = globalThis[Symbol.for(RECORD_TOOL_SYMBOL)];
    if (typeof recorder !== "function")
        return false;
    recorder(name);
    return true;
}
/** True when this process runs under `envelope-gate run` with the Node hooks loaded. */
function isObserved() {
    return typeof globalThis[Symbol.for(RECORD_TOOL_SYMBOL)] === "function";
}

var __webpack_exports__isObserved = __webpack_exports__.X;
var __webpack_exports__recordTool = __webpack_exports__.a;
export { __webpack_exports__isObserved as isObserved, __webpack_exports__recordTool as recordTool };
