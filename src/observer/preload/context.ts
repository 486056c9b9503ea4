/**
 * What every area of the hooks shares: the stage this process reports to, the channel to the
 * wrapper (queue, batches, flush), the original fs calls, path resolution, and `hook()`. One
 * HookContext is made per process (and per worker thread) by install(), in index.ts.
 */
import { EVENTS_FIFO_NAME, FRAME_LIMIT, PRELOAD_CONFIG_NAME, WORKER_CHANNEL_KEY, encodeFrames, splitNodeOptions } from "../protocol.js";

export type FsModule = typeof import("node:fs");
export type PathModule = typeof import("node:path");
export type WorkerThreadsModule = typeof import("node:worker_threads");

/** A Node builtin, without a runtime import (the bundle must load as CommonJS and as ESM). */
export const load = <T>(id: string): T => process.getBuiltinModule(id) as T;

/** What a hook records before it runs the original: the call's arguments and `this`. */
export type Recorder = (args: unknown[], self: unknown) => void;

/** The fs calls the hooks use, captured before anything is patched. */
export interface OriginalFs {
  realpathNative: FsModule["realpathSync"]["native"];
  lstatSync: FsModule["lstatSync"];
  readlinkSync: FsModule["readlinkSync"];
  statSync: FsModule["statSync"];
  accessSync: FsModule["accessSync"];
}

export interface Stage {
  /** The stage directory: the preload copy, the channel FIFO and the optional preload config. */
  dir: string;
  /** False only when the stage's preload config says `"recordWrites": false`. */
  recordWrites: boolean;
}

export interface HookContext {
  readonly fs: FsModule;
  readonly path: PathModule;
  readonly wt: WorkerThreadsModule;
  /** process.env as Node made it, before the env area puts its Proxy in its place. */
  readonly realEnv: NodeJS.ProcessEnv;
  /** What child processes inherit by default: the real environment, or what the program assigned to process.env. */
  envTarget: NodeJS.ProcessEnv;
  /** The stage directory the channel is in; the NODE_OPTIONS entry points at it. */
  readonly channelDir: string;
  /** Whether the fs area records writes (docs/observer.md, "Node chokepoints"). */
  readonly recordWrites: boolean;
  /** >0 while a hook runs the original: nested calls are the same operation, not new ones. */
  depth: number;
  readonly original: OriginalFs;
  /** Queues a record (sent at once for `host`, `note`, `exec` and `tool`). */
  send(message: Record<string, unknown>): void;
  /** Queues the write record for an already resolved path: the same frame send() makes for it. */
  sendWrite(resolved: string, op: string): void;
  /** Replaces `target[name]` with a function that runs `recorder` (outside nested calls), then the original. */
  hook(target: Record<string, unknown>, name: string, recorder: Recorder): void;
  /** True when the nearest caller outside the hooks is Node's own code (`node:` frames). */
  callerIsNodeInternal(): boolean;
  toPathString(p: unknown): string | null;
  /** The final component itself (unlink, rename, mkdir, symlink, lchmod): resolve the directory only. */
  resolveNoFollow(abs: string): string;
  /** Writes follow a final symlink, even a dangling one (writing through it creates the target). */
  resolveFollow(abs: string): string;
  /** The path an open fd refers to, or null. */
  fdPath(fd: unknown): string | null;
}

/** Hands the preload config's recordWrites to worker threads, beside the channel. */
const WORKER_RECORD_WRITES_KEY = `${WORKER_CHANNEL_KEY}.recordWrites`;

/** Hands the process's open channel descriptor to worker threads. */
const WORKER_CHANNEL_FD_KEY = `${WORKER_CHANNEL_KEY}.fd`;

/** The channel descriptor the thread that started this worker handed on, if it still is the channel (same FIFO). */
function inheritedChannel(fs: FsModule, wt: WorkerThreadsModule, channelPath: string): number | null {
  const fd = wt.getEnvironmentData(WORKER_CHANNEL_FD_KEY);
  if (typeof fd !== "number" || !Number.isInteger(fd) || fd < 0) return null;
  try {
    const open = fs.fstatSync(fd);
    const named = fs.statSync(channelPath);
    return open.isFIFO() && open.dev === named.dev && open.ino === named.ino ? fd : null;
  } catch {
    return null;
  }
}

/** recordWrites from the stage's preload config: false only when the file says exactly that. */
function readRecordWrites(fs: FsModule, path: PathModule, stageDir: string): boolean {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(stageDir, PRELOAD_CONFIG_NAME), "utf8")) as unknown;
    return !(config !== null && typeof config === "object" && (config as { recordWrites?: unknown }).recordWrites === false);
  } catch {
    return true; // missing or unreadable: record, as without a config
  }
}

/**
 * The stage this process reports to: from the preload entry in NODE_OPTIONS on the main
 * thread (which hands it on to worker threads), from the worker environment data in a worker.
 * Null when this process is not under a run.
 */
export function findStage(): Stage | null {
  const wt = load<WorkerThreadsModule>("node:worker_threads");
  if (wt.isMainThread) {
    const dir = splitNodeOptions(process.env.NODE_OPTIONS).stageDir;
    if (dir === null) return null;
    const recordWrites = readRecordWrites(load<FsModule>("node:fs"), load<PathModule>("node:path"), dir);
    wt.setEnvironmentData(WORKER_CHANNEL_KEY, dir);
    wt.setEnvironmentData(WORKER_RECORD_WRITES_KEY, recordWrites);
    return { dir, recordWrites };
  }
  const data = wt.getEnvironmentData(WORKER_CHANNEL_KEY);
  if (typeof data !== "string") return null;
  return { dir: data, recordWrites: wt.getEnvironmentData(WORKER_RECORD_WRITES_KEY) !== false };
}

/** Opens the stage's channel and makes the context every area installs its hooks with. */
export function createContext(stage: Stage): HookContext {
  const fs = load<FsModule>("node:fs");
  const path = load<PathModule>("node:path");
  const wt = load<WorkerThreadsModule>("node:worker_threads");
  const realEnv = process.env;
  const channelDir = stage.dir;

  // Originals, captured before anything is patched; the hooks use only these.
  const writeSync = fs.writeSync;
  const openSync = fs.openSync;
  const original: OriginalFs = {
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
    } catch (err) {
      throw new Error(
        `envelope-gate: the observer channel in ${channelDir} is gone (${(err as Error).message}); refusing to run unobserved`,
        { cause: err },
      );
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
  let queue: string[] = [];
  let flushScheduled = false;
  const flush = (): void => {
    flushScheduled = false;
    if (queue.length === 0) return;
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
    if (chunk !== "") writeSync(channelFd, chunk);
  };
  const URGENT = new Set(["host", "note", "exec", "tool"]);
  function send(message: Record<string, unknown>): void {
    message.pid = process.pid;
    message.ts = Date.now();
    for (const frame of encodeFrames(message, writer, ++messageNo)) queue.push(frame);
    if (URGENT.has(message.kind as string) || queue.length >= BATCH_RECORDS) flush();
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
  function sendWrite(resolved: string, op: string): void {
    const pathJson = JSON.stringify(resolved);
    if (pathJson.length > FRAME_LIMIT - 200 || NOT_PLAIN.test(pathJson)) {
      send({ kind: "write", path: resolved, op });
      return;
    }
    ++messageNo;
    queue.push(`{"kind":"write","path":${pathJson},"op":"${op}"${writeFrameTail}${Date.now()}}\n`);
    if (queue.length >= BATCH_RECORDS) flush();
    else if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush).unref();
    }
  }

  // ---- paths -------------------------------------------------------------------------------
  const urlModule = load<typeof import("node:url")>("node:url");

  function toPathString(p: unknown): string | null {
    if (typeof p === "string") return p;
    if (p instanceof URL) return urlModule.fileURLToPath(p);
    if (p instanceof Uint8Array) return Buffer.from(p).toString("utf8");
    return null;
  }

  function realOrAncestor(dir: string, hops: number): string {
    try {
      return realpathNative(dir);
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir || hops > 256) return dir;
      return path.join(realOrAncestor(parent, hops + 1), path.basename(dir));
    }
  }

  function resolveNoFollow(abs: string): string {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    return path.join(realOrAncestor(parent, 0), path.basename(abs));
  }

  // Paths this process already wrote through with a following call, most likely existing now.
  // Only a hint of which system calls to try first, never a cached answer: for an existing
  // target, realpath of the whole path is exactly what the lstat + realpath of the directory
  // below returns, in one path walk instead of two; if it fails, the full resolution runs.
  const likelyExisting = new Set<string>();
  const LIKELY_EXISTING_LIMIT = 4096;

  function resolveFollow(abs: string): string {
    if (likelyExisting.has(abs)) {
      try {
        return realpathNative(abs);
      } catch {
        likelyExisting.delete(abs);
      }
    } else {
      if (likelyExisting.size >= LIKELY_EXISTING_LIMIT) likelyExisting.clear();
      likelyExisting.add(abs);
    }
    let current = abs;
    for (let hops = 0; hops < 40; hops++) {
      let isLink: boolean;
      try {
        isLink = lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink() === true;
      } catch {
        return resolveNoFollow(current);
      }
      if (!isLink) return resolveNoFollow(current);
      try {
        return realpathNative(current);
      } catch {
        current = path.resolve(path.dirname(current), readlinkSync(current));
      }
    }
    return resolveNoFollow(current);
  }

  function fdPath(fd: unknown): string | null {
    if (typeof fd !== "number") return null;
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith("/") ? target.replace(/ \(deleted\)$/, "") : null;
    } catch {
      return null;
    }
  }

  // ---- hooks -------------------------------------------------------------------------------
  function hook(target: Record<string, unknown>, name: string, recorder: Recorder): void {
    const original = target[name];
    if (typeof original !== "function") return;
    const hooked = function (this: unknown, ...args: unknown[]): unknown {
      if (ctx.depth === 0) recorder(args, this);
      ctx.depth++;
      try {
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } finally {
        ctx.depth--;
      }
    };
    Object.defineProperty(hooked, "name", { value: name });
    for (const key of Object.getOwnPropertySymbols(original)) {
      (hooked as unknown as Record<symbol, unknown>)[key] = (original as unknown as Record<symbol, unknown>)[key];
    }
    target[name] = hooked;
  }

  let ownFile: string | null = null;

  function callerIsNodeInternal(): boolean {
    const prepare = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    let internal = false;
    try {
      Error.stackTraceLimit = 16;
      Error.prepareStackTrace = (_e, frames) => frames;
      const holder: { stack?: unknown } = {};
      Error.captureStackTrace(holder, callerIsNodeInternal);
      const frames = holder.stack as NodeJS.CallSite[] | undefined;
      if (Array.isArray(frames)) {
        if (ownFile === null) ownFile = frames[0]?.getFileName() ?? null;
        for (const frame of frames) {
          const file = frame.getFileName();
          if (file === undefined || file === null || file === ownFile) continue;
          internal = file.startsWith("node:");
          break;
        }
      }
    } finally {
      Error.prepareStackTrace = prepare;
      Error.stackTraceLimit = limit;
    }
    return internal;
  }

  const ctx: HookContext = {
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
