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
export const PRELOAD_FILE_NAME = "envelope-gate-preload.cjs";
/** The FIFO the hooks write to, in the same stage directory as the preload copy. */
export const EVENTS_FIFO_NAME = "events.fifo";
/** Optional settings for the hooks, `{"recordWrites": boolean}`, in the same stage directory. */
export const PRELOAD_CONFIG_NAME = "preload-config.json";
/** The FIFO strace writes to. */
export const STRACE_FIFO_NAME = "strace.fifo";
/** worker_threads environment-data key that hands the channel to worker threads. */
export const WORKER_CHANNEL_KEY = "envelope-gate.channel";
/** Global the preload installs for the SDK's recordTool. */
export const RECORD_TOOL_SYMBOL = "envelope-gate.recordTool";

/** Largest frame written in one write(2); below PIPE_BUF (4096) with room for the fragment header. */
export const FRAME_LIMIT = 3800;

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

export function isIgnoredDevice(path: string): boolean {
  return DEVICE_PATHS.has(path) || path.startsWith("/dev/pts/") || path.startsWith("/dev/fd/") || path.startsWith("/proc/self/fd/");
}

/** The NODE_OPTIONS entry that preloads the hooks from a stage directory. */
export function preloadOption(stageDir: string): string {
  return `--require "${stageDir.replace(/(["\\])/g, "\\$1")}/${PRELOAD_FILE_NAME}"`;
}

const PRELOAD_OPTION = /(?:^|\s)--require[= ]"((?:[^"\\]|\\.)*\/envelope-gate-preload\.cjs)"/;

/** Finds the preload option in a NODE_OPTIONS value: the stage dir and the value without it. */
export function splitNodeOptions(value: string | undefined): { stageDir: string | null; rest: string } {
  if (value === undefined) return { stageDir: null, rest: "" };
  const m = PRELOAD_OPTION.exec(value);
  if (!m) return { stageDir: null, rest: value };
  const file = (m[1] as string).replace(/\\(.)/g, "$1");
  const rest = (value.slice(0, m.index) + " " + value.slice(m.index + m[0].length)).trim();
  return { stageDir: file.slice(0, file.length - PRELOAD_FILE_NAME.length - 1), rest };
}

/** Joins the preload option with whatever NODE_OPTIONS the program itself passes on. */
export function mergeNodeOptions(stageDir: string, rest: string | undefined): string {
  const own = preloadOption(stageDir);
  const other = splitNodeOptions(rest).rest;
  return other === "" ? own : `${own} ${other}`;
}

const HAS_NON_ASCII = /[\u007f-\uffff]/;
const NON_ASCII = /[\u007f-\uffff]/g;

function asciiJson(message: unknown): string {
  const json = JSON.stringify(message);
  return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : json;
}

/** Encodes one message as one or more frames (each ends with a newline, each at most FRAME_LIMIT + header bytes). */
export function encodeFrames(message: unknown, writer: string, messageNo: number): string[] {
  const json = asciiJson(message);
  if (json.length <= FRAME_LIMIT) return [json + "\n"];
  const frames: string[] = [];
  for (let i = 0; i < json.length; i += FRAME_LIMIT) {
    const last = i + FRAME_LIMIT >= json.length ? 1 : 0;
    frames.push(`~${writer}:${messageNo}:${last}:${json.slice(i, i + FRAME_LIMIT)}\n`);
  }
  return frames;
}

export class FrameError extends Error {}

/** Reassembles frames into message texts. Pure: fed lines, returns whole JSON texts. */
export class FrameDecoder {
  private readonly partial = new Map<string, string>();
  private pending = "";

  /** Feeds raw text; returns every complete message (JSON text) in order. */
  push(text: string): string[] {
    const out: string[] = [];
    let start = 0;
    const data = this.pending === "" ? text : this.pending + text;
    this.pending = "";
    for (;;) {
      const nl = data.indexOf("\n", start);
      if (nl === -1) break;
      const line = data.slice(start, nl);
      start = nl + 1;
      if (line.charCodeAt(0) !== 0x7e) {
        out.push(line);
        continue;
      }
      const m = /^~([^:]+):(\d+):([01]):/.exec(line);
      if (!m) throw new FrameError(`bad fragment header: ${line.slice(0, 60)}`);
      const key = `${m[1]}:${m[2]}`;
      const body = (this.partial.get(key) ?? "") + line.slice(m[0].length);
      if (m[3] === "1") {
        this.partial.delete(key);
        out.push(body);
      } else {
        if (body.length > 64 * 1024 * 1024) throw new FrameError("a fragmented message longer than 64 MiB");
        this.partial.set(key, body);
      }
    }
    if (start < data.length) this.pending = data.slice(start);
    return out;
  }

  /** True when no message is half-received (used at the end of a stage). */
  get idle(): boolean {
    return this.pending === "" && this.partial.size === 0;
  }
}
