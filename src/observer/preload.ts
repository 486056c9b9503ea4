/**
 * The Node chokepoints, preloaded into every Node process (and worker thread) of an observed run
 * through NODE_OPTIONS `--require`. They record what the program asks of fs, process.env, the
 * network stack and child_process, and hand each record to the run wrapper over the stage's
 * FIFO. They never write the log and never judge.
 *
 * This file has no runtime imports: Node builtins come from process.getBuiltinModule, and our
 * own helpers are inlined by the bundler, so the bundle is valid as CommonJS and as ESM. The
 * wrapper installs it as `<stage dir>/envelope-gate-preload.cjs`.
 *
 * Hostile code shares this address space and can undo every hook here; the process-level
 * observer is the part it cannot skip (docs/observer.md).
 */
import {
  EVENTS_FIFO_NAME,
  FRAME_LIMIT,
  RECORD_TOOL_SYMBOL,
  WORKER_CHANNEL_KEY,
  encodeFrames,
  isIgnoredDevice,
  mergeNodeOptions,
  splitNodeOptions,
} from "./protocol.js";

type FsModule = typeof import("node:fs");
type PathModule = typeof import("node:path");

const INSTALLED = Symbol.for("envelope-gate.preload.installed");

interface Sender {
  send(message: Record<string, unknown>): void;
}

function install(): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[INSTALLED]) return;
  if (typeof process.getBuiltinModule !== "function") {
    // Refuse to run this process unobserved rather than skip the hooks.
    throw new Error(`envelope-gate: the Node hooks need Node 20.16 or newer (this is ${process.version})`);
  }
  const load = <T>(id: string): T => process.getBuiltinModule(id) as T;
  const fs = load<FsModule>("node:fs");
  const path = load<PathModule>("node:path");
  const wt = load<typeof import("node:worker_threads")>("node:worker_threads");
  const realEnv = process.env;

  let stageDir: string | null;
  if (wt.isMainThread) {
    stageDir = splitNodeOptions(realEnv.NODE_OPTIONS).stageDir;
    if (stageDir === null) return;
    wt.setEnvironmentData(WORKER_CHANNEL_KEY, stageDir);
  } else {
    const data = wt.getEnvironmentData(WORKER_CHANNEL_KEY);
    stageDir = typeof data === "string" ? data : null;
    if (stageDir === null) return;
  }
  // The preload entry stays in the real environment, so every process Node starts inherits it,
  // whichever API starts it; the process.env Proxy below shows the program only its own
  // NODE_OPTIONS (if it had any), never the wrapper's plumbing.
  g[INSTALLED] = true;
  const channelDir: string = stageDir;

  // Originals, captured before anything is patched; the hooks use only these.
  const writeSync = fs.writeSync;
  const openSync = fs.openSync;
  const realpathNative = fs.realpathSync.native;
  const lstatSync = fs.lstatSync;
  const readlinkSync = fs.readlinkSync;
  const statSync = fs.statSync;
  const accessSync = fs.accessSync;

  let channelFd: number;
  try {
    channelFd = openSync(path.join(channelDir, EVENTS_FIFO_NAME), fs.constants.O_WRONLY);
  } catch (err) {
    throw new Error(`envelope-gate: the observer channel in ${channelDir} is gone (${(err as Error).message}); refusing to run unobserved`);
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
  const sender: Sender = {
    send(message) {
      message.pid = process.pid;
      message.ts = Date.now();
      for (const frame of encodeFrames(message, writer, ++messageNo)) queue.push(frame);
      if (URGENT.has(message.kind as string) || queue.length >= BATCH_RECORDS) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush).unref();
      }
    },
  };
  process.on("exit", flush);

  // The frame of a write record, written out directly: the same text send() makes for it, without
  // building and serialising an object per write. A path that is not printable ASCII or is too
  // long for one frame goes through send().
  const NOT_PLAIN = /[^\x20-\x7e]/;
  const writeFrameTail = `,"pid":${process.pid},"ts":`;
  function sendWrite(resolved: string, op: string): void {
    const pathJson = JSON.stringify(resolved);
    if (pathJson.length > FRAME_LIMIT - 200 || NOT_PLAIN.test(pathJson)) {
      sender.send({ kind: "write", path: resolved, op });
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

  /** >0 while a hook runs the original: nested calls are the same operation, not new ones. */
  let depth = 0;

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

  /** The final component itself (unlink, rename, mkdir, symlink, lchmod): resolve the directory only. */
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

  /** Writes follow a final symlink, even a dangling one (writing through it creates the target). */
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
      let isLink = false;
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

  function recordWrite(raw: unknown, op: string, follow: boolean): void {
    let resolved: string | null = null;
    try {
      const p = toPathString(raw);
      if (p === null) return;
      const abs = path.resolve(p);
      resolved = follow ? resolveFollow(abs) : resolveNoFollow(abs);
    } catch {
      return; // not a path the call could use; the original call reports its own error
    }
    if (isIgnoredDevice(resolved)) return;
    sendWrite(resolved, op);
  }

  // ---- fs ----------------------------------------------------------------------------------
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;

  /** The op an open with these flags performs, or null for a read-only open. */
  function openOp(flags: unknown): string | null {
    if (flags === undefined || flags === null) return null;
    if (typeof flags === "number") {
      if (flags & O_CREAT) return "create";
      if (flags & O_TRUNC) return "truncate";
      if (flags & (O_WRONLY | O_RDWR | O_APPEND)) return "write";
      return null;
    }
    const f = String(flags);
    if (f.includes("w") || f.includes("a")) return "create";
    if (f.includes("+")) return "write";
    return null;
  }

  type Recorder = (args: unknown[], self: unknown) => void;

  function hook(target: Record<string, unknown>, name: string, recorder: Recorder): void {
    const original = target[name];
    if (typeof original !== "function") return;
    const hooked = function (this: unknown, ...args: unknown[]): unknown {
      if (depth === 0) recorder(args, this);
      depth++;
      try {
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } finally {
        depth--;
      }
    };
    Object.defineProperty(hooked, "name", { value: name });
    for (const key of Object.getOwnPropertySymbols(original)) {
      (hooked as unknown as Record<symbol, unknown>)[key] = (original as unknown as Record<symbol, unknown>)[key];
    }
    target[name] = hooked;
  }

  const fsRecorders: Record<string, Recorder> = {
    writeFile: (a) => recordWrite(a[0], "write", true),
    appendFile: (a) => recordWrite(a[0], "write", true),
    open: (a) => {
      const op = openOp(a[1]);
      if (op !== null) recordWrite(a[0], op, true);
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
      const prefix = toPathString(a[0]);
      if (prefix !== null) recordWrite(prefix + "XXXXXX", "mkdir", false);
    },
    copyFile: (a) => recordWrite(a[1], "create", true),
    cp: (a) => recordWrite(a[1], "create", true),
    symlink: (a) => recordWrite(a[1], "symlink", false),
    link: (a) => recordWrite(a[1], "link", false),
    chmod: (a) => recordWrite(a[0], "chmod", true),
    lchmod: (a) => recordWrite(a[0], "chmod", false),
    truncate: (a) => {
      const p = typeof a[0] === "number" ? fdPath(a[0]) : a[0];
      recordWrite(p, "truncate", true);
    },
    fchmod: (a) => recordWrite(fdPath(a[0]), "chmod", false),
    ftruncate: (a) => recordWrite(fdPath(a[0]), "truncate", false),
  };

  const fsTable = fs as unknown as Record<string, unknown>;
  for (const [name, recorder] of Object.entries(fsRecorders)) {
    hook(fsTable, name, recorder);
    hook(fsTable, `${name}Sync`, recorder);
  }
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const [name, recorder] of Object.entries(fsRecorders)) {
    if (name === "fchmod" || name === "ftruncate") continue;
    if (name === "open") continue;
    hook(promises, name, recorder);
  }
  // FileHandle methods act on an already-open file; chmod and truncate work on read-only handles.
  let fileHandlePatched = false;
  const originalPromisesOpen = promises.open as (...a: unknown[]) => Promise<unknown>;
  promises.open = function open(this: unknown, ...args: unknown[]): Promise<unknown> {
    if (depth === 0) fsRecorders.open?.(args, this);
    depth++;
    let result: Promise<unknown>;
    try {
      result = originalPromisesOpen.apply(this, args);
    } finally {
      depth--;
    }
    return result.then((handle) => {
      if (!fileHandlePatched && handle !== null && typeof handle === "object") {
        fileHandlePatched = true;
        const proto = Object.getPrototypeOf(handle) as Record<string, unknown>;
        const chmod = proto.chmod as (...a: unknown[]) => unknown;
        const truncate = proto.truncate as (...a: unknown[]) => unknown;
        proto.chmod = function (this: { fd: number }, ...a: unknown[]) {
          if (depth === 0) recordWrite(fdPath(this.fd), "chmod", false);
          return chmod.apply(this, a);
        };
        proto.truncate = function (this: { fd: number }, ...a: unknown[]) {
          if (depth === 0) recordWrite(fdPath(this.fd), "truncate", false);
          return truncate.apply(this, a);
        };
      }
      return handle;
    });
  };

  // ---- process.env -------------------------------------------------------------------------
  /** Per key: 1 = a read by the program was recorded, 2 = a read by Node's own code was. */
  const envSeen = new Map<string, number>();
  let ownFile: string | null = null;

  /** True when the nearest caller outside this file is Node's own code (`node:` frames). */
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

  function onEnvRead(key: string, op: string, internalKnown?: boolean): boolean | undefined {
    if (depth > 0) return internalKnown;
    const state = envSeen.get(key) ?? 0;
    if (state & 1) return internalKnown;
    const internal = internalKnown ?? callerIsNodeInternal();
    const bit = internal ? 2 : 1;
    if (state & bit) return internal;
    envSeen.set(key, state | bit);
    sender.send({ kind: "env", key, op, origin: internal ? "internal" : "user" });
    return internal;
  }

  // Engine protocol lookups (JSON.stringify asks for toJSON, await asks for then) are not reads
  // of an environment key, unless the environment really has a key by that name.
  const PROTOCOL_NAMES = new Set(["toJSON", "then", "constructor", "toString", "valueOf", "inspect", "__proto__"]);

  const PLUMBING_KEY = "NODE_OPTIONS";
  /** NODE_OPTIONS as the program should see it: without the preload entry; absent if nothing is left. */
  function programNodeOptions(target: NodeJS.ProcessEnv): string | undefined {
    const raw = target[PLUMBING_KEY];
    if (raw === undefined) return undefined;
    const rest = splitNodeOptions(raw).rest;
    return rest === "" ? undefined : rest;
  }

  /**
   * The traps for one environment object. They act on `env` itself, never on the Proxy's target:
   * for the real environment the target is an empty stand-in (see watchEnv).
   */
  function envHandler(env: NodeJS.ProcessEnv): ProxyHandler<NodeJS.ProcessEnv> {
    const table = env as Record<string | symbol, unknown>;
    return {
      get(_target, key) {
        if (key === PLUMBING_KEY) {
          const internal = callerIsNodeInternal();
          onEnvRead(key, "get", internal);
          return internal ? env[key] : programNodeOptions(env);
        }
        if (typeof key === "string" && ((envSeen.get(key) ?? 0) & 1) === 0 && !(PROTOCOL_NAMES.has(key) && !Object.prototype.hasOwnProperty.call(env, key))) {
          onEnvRead(key, "get");
        }
        return table[key];
      },
      has(_target, key) {
        if (key === PLUMBING_KEY) {
          const internal = callerIsNodeInternal();
          onEnvRead(key, "has", internal);
          return internal ? key in env : programNodeOptions(env) !== undefined;
        }
        if (typeof key === "string") onEnvRead(key, "has");
        return key in env;
      },
      deleteProperty(_target, key) {
        if (typeof key === "string") onEnvRead(key, "delete");
        if (key === PLUMBING_KEY) {
          env[key] = mergeNodeOptions(channelDir, undefined);
          return true;
        }
        return delete table[key];
      },
      ownKeys() {
        return enumerateEnv(env, callerIsNodeInternal);
      },
      getOwnPropertyDescriptor(_target, key) {
        if (key === PLUMBING_KEY) {
          const internal = callerIsNodeInternal();
          onEnvRead(key, "get", internal);
          if (internal) return Reflect.getOwnPropertyDescriptor(env, key);
          const value = programNodeOptions(env);
          return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
        }
        if (typeof key === "string") onEnvRead(key, "get");
        return Reflect.getOwnPropertyDescriptor(env, key);
      },
      set(_target, key, value) {
        if (key === PLUMBING_KEY) {
          env[key] = mergeNodeOptions(channelDir, String(value));
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
  function enumerateEnv(env: NodeJS.ProcessEnv, isInternal: () => boolean): (string | symbol)[] {
    let keys = Reflect.ownKeys(env);
    let internal: boolean | undefined;
    if (keys.includes(PLUMBING_KEY)) {
      internal = isInternal();
      // The program is not shown a NODE_OPTIONS that is only plumbing: it enumerates without it.
      if (!internal && programNodeOptions(env) === undefined) keys = keys.filter((k) => k !== PLUMBING_KEY);
    }
    for (const key of keys) if (typeof key === "string") internal = onEnvRead(key, "enumerate", internal);
    return keys;
  }

  const INSPECT_CUSTOM = Symbol.for("nodejs.util.inspect.custom");
  /**
   * The Proxy over the real environment has an empty stand-in as its target. With the real
   * environment as the target, V8 checks every trap's result against the target's own property
   * (a second getenv per read), which made each read cost twice a plain one. The stand-in has no
   * own properties, so those checks are trivial; every trap above reads and writes the real
   * environment. util.inspect (console.log) formats a Proxy's target, not the Proxy, so the
   * stand-in formats itself as the program's view of the environment, recorded as the program
   * enumerating it.
   */
  function watchEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    if (env !== realEnv) return new Proxy(env, envHandler(env));
    const standIn = Object.create(Object.getPrototypeOf(env) as object | null) as Record<symbol, unknown>;
    standIn[INSPECT_CUSTOM] = function inspectEnvironment(_depth: unknown, options: unknown, inspect: (v: unknown, o: unknown) => string): string {
      const view: Record<string, string | undefined> = {};
      for (const key of enumerateEnv(env, () => false)) {
        if (typeof key === "string") view[key] = key === PLUMBING_KEY ? programNodeOptions(env) : env[key];
      }
      return inspect(view, options);
    };
    return new Proxy(standIn as NodeJS.ProcessEnv, envHandler(env));
  }

  // A program may assign process.env a new object: it is watched the same way, and becomes
  // what child processes inherit by default, as it would without the hooks.
  let envTarget: NodeJS.ProcessEnv = realEnv;
  let envProxy = watchEnv(realEnv);
  Object.defineProperty(process, "env", {
    get: () => envProxy,
    set: (value: unknown) => {
      if (value !== null && typeof value === "object") {
        envTarget = value as NodeJS.ProcessEnv;
        envProxy = watchEnv(envTarget);
      }
    },
    configurable: true,
    enumerable: true,
  });

  // os.tmpdir/homedir/userInfo read the environment in C++, past the proxy: record those reads here.
  const os = load<typeof import("node:os")>("node:os") as unknown as Record<string, unknown>;
  hook(os, "tmpdir", () => {
    for (const key of ["TMPDIR", "TMP", "TEMP"]) onEnvRead(key, "get", false);
  });
  hook(os, "homedir", () => void onEnvRead("HOME", "get", false));

  // ---- network -----------------------------------------------------------------------------
  const net = load<typeof import("node:net")>("node:net");
  const dns = load<typeof import("node:dns")>("node:dns");
  const originalLookup = dns.lookup;

  function recordHost(host: string, port: number | null, proto: string): void {
    const event: Record<string, unknown> = { kind: "host", host, proto };
    if (port !== null && Number.isInteger(port)) event.port = port;
    sender.send(event);
  }

  function noteAddress(address: string, port: number): void {
    sender.send({ kind: "note", address, port });
  }

  type LookupCallback = (err: Error | null, address: unknown, family?: number) => void;
  type LookupFn = (host: string, options: unknown, cb: LookupCallback) => void;

  function wrapLookup(userLookup: LookupFn | undefined, port: number): LookupFn {
    const base = userLookup ?? (originalLookup as unknown as LookupFn);
    return function lookup(host, options, cb) {
      const callback = (typeof options === "function" ? options : cb) as LookupCallback;
      const opts = typeof options === "function" ? {} : options;
      base(host, opts, (err, address, family) => {
        if (!err) {
          const list = Array.isArray(address) ? address : [{ address }];
          for (const entry of list) {
            const a = (entry as { address?: unknown }).address;
            if (typeof a === "string") noteAddress(a, port);
          }
        }
        callback(err, address, family);
      });
    };
  }

  const SocketProto = net.Socket.prototype as unknown as Record<string, unknown>;
  const originalConnect = SocketProto.connect as (...a: unknown[]) => unknown;
  SocketProto.connect = function connect(this: unknown, ...args: unknown[]): unknown {
    if (depth === 0) {
      const first = args[0];
      let holder: unknown[] | null = null;
      let options: Record<string, unknown> | null = null;
      if (Array.isArray(first)) {
        holder = first;
        options = (first[0] ?? null) as Record<string, unknown> | null;
      } else if (first !== null && typeof first === "object") {
        options = first as Record<string, unknown>;
      } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
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
        } else {
          const wrapped = { ...options, lookup: wrapLookup(options.lookup as LookupFn | undefined, port) };
          if (holder !== null) holder[0] = wrapped;
          else args[0] = wrapped;
        }
      }
    }
    return originalConnect.apply(this, args);
  };

  const dgram = load<typeof import("node:dgram")>("node:dgram");
  const DgramProto = dgram.Socket.prototype as unknown as Record<string, unknown>;
  const dgramSeen = new Set<string>();
  function recordUdp(socket: unknown, portArg: unknown, addressArg: unknown): void {
    const port = Number(portArg);
    if (!Number.isInteger(port)) return;
    const type = (socket as { type?: string }).type;
    const host = typeof addressArg === "string" && addressArg !== "" ? addressArg : type === "udp6" ? "::1" : "127.0.0.1";
    const key = `${host}\0${port}`;
    if (dgramSeen.has(key)) return;
    dgramSeen.add(key);
    recordHost(host, port, "udp");
    if (net.isIP(host) !== 0) noteAddress(host, port);
  }
  hook(DgramProto, "connect", (a, self) => recordUdp(self, a[0], typeof a[1] === "string" ? a[1] : undefined));
  hook(DgramProto, "send", (a, self) => {
    const [msg, offset, length] = a;
    const offsetForm = (typeof msg === "string" || ArrayBuffer.isView(msg)) && typeof offset === "number" && typeof length === "number";
    const port = offsetForm ? a[3] : a[1];
    const address = offsetForm ? a[4] : a[2];
    if (port !== undefined && typeof port !== "function") recordUdp(self, port, address);
  });

  // Node's own lookups (dgram, net with a lookup of its own) are part of a connect already recorded.
  const dnsHost = (a: unknown[]): void => {
    if (typeof a[0] === "string" && !callerIsNodeInternal()) recordHost(a[0], null, "dns");
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
  const dnsTables: Record<string, unknown>[] = [
    dns as unknown as Record<string, unknown>,
    dns.promises as unknown as Record<string, unknown>,
    dns.Resolver.prototype as unknown as Record<string, unknown>,
    dns.promises.Resolver.prototype as unknown as Record<string, unknown>,
  ];
  for (const table of dnsTables) {
    for (const name of DNS_METHODS) hook(table, name, dnsHost);
    hook(table, "lookupService", (a) => {
      if (typeof a[0] === "string") recordHost(a[0], Number.isInteger(Number(a[1])) ? Number(a[1]) : null, "dns");
    });
  }

  // ---- child processes and workers ---------------------------------------------------------
  const cp = load<typeof import("node:child_process")>("node:child_process") as unknown as Record<string, unknown>;

  function childEnv(env: unknown): Record<string, string | undefined> {
    const base = (env !== null && typeof env === "object" ? env : envTarget) as Record<string, string | undefined>;
    const out: Record<string, string | undefined> = { ...base };
    out.NODE_OPTIONS = mergeNodeOptions(channelDir, base.NODE_OPTIONS);
    return out;
  }

  function resolveExecutable(file: string, env: Record<string, string | undefined>, cwd: unknown): string | null {
    const dir = typeof cwd === "string" ? path.resolve(cwd) : process.cwd();
    if (file.includes("/")) return path.resolve(dir, file);
    for (const entry of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
      const candidate = path.resolve(dir, entry === "" ? "." : entry, file);
      try {
        accessSync(candidate, fs.constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        continue;
      }
    }
    return null;
  }

  function isOptions(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  /** Puts the options object where Node's normalizers look for it, with the plumbing in its env. */
  function withOptions(args: unknown[], spawnLike: boolean): Record<string, unknown> {
    let index = 1;
    if (spawnLike) {
      if (Array.isArray(args[1])) index = 2;
      else if (args[1] === undefined || args[1] === null) index = args.length > 2 && isOptions(args[2]) ? 2 : 1;
    }
    const existing = args[index];
    const options = isOptions(existing) ? { ...existing } : {};
    options.env = childEnv(options.env);
    if (isOptions(existing) || existing === undefined || existing === null) args[index] = options;
    else args.splice(index, 0, options);
    return options;
  }

  function recordExec(file: string, argv: string[], options: Record<string, unknown>): void {
    const env = options.env as Record<string, string | undefined>;
    const resolved = resolveExecutable(file, env, options.cwd);
    if (resolved === null) return;
    const event: Record<string, unknown> = { kind: "exec", path: resolved, argv };
    if (typeof options.cwd === "string") event.cwd = path.resolve(options.cwd);
    sender.send(event);
  }

  function shellOf(options: Record<string, unknown>): string {
    return typeof options.shell === "string" ? options.shell : "/bin/sh";
  }

  const PROMISIFY_CUSTOM = Symbol.for("nodejs.util.promisify.custom");

  /** Wraps a child_process export, and its util.promisify form, with `prepare` (record + env). */
  function wrapChild(name: string, prepare: (args: unknown[]) => void): void {
    const original = cp[name];
    if (typeof original !== "function") return;
    const wrap = (fn: (...a: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]): unknown {
        depth++;
        try {
          if (depth === 1) prepare(args);
          return fn.apply(this, args);
        } finally {
          depth--;
        }
      };
    const hooked = wrap(original as (...a: unknown[]) => unknown);
    const custom = (original as unknown as Record<symbol, unknown>)[PROMISIFY_CUSTOM];
    if (typeof custom === "function") {
      Object.defineProperty(hooked, PROMISIFY_CUSTOM, { value: wrap(custom as (...a: unknown[]) => unknown), configurable: true });
    }
    Object.defineProperty(hooked, "name", { value: name });
    cp[name] = hooked;
  }

  const prepareSpawnLike = (args: unknown[]): void => {
    if (typeof args[0] !== "string") return;
    const file = args[0];
    const list = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    const options = withOptions(args, true);
    if (options.shell) recordExec(shellOf(options), [shellOf(options), "-c", [file, ...list].join(" ")], options);
    else recordExec(file, [file, ...list], options);
  };
  const prepareShellForm = (args: unknown[]): void => {
    if (typeof args[0] !== "string") return;
    const command = args[0];
    const options = withOptions(args, false);
    const shell = shellOf(options);
    recordExec(shell, [shell, "-c", command], options);
  };
  const prepareFork = (args: unknown[]): void => {
    if (typeof args[0] !== "string" && !(args[0] instanceof URL)) return;
    const modulePath = String(toPathString(args[0]));
    const list = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    const options = withOptions(args, true);
    const execPath = typeof options.execPath === "string" ? options.execPath : process.execPath;
    const execArgv = Array.isArray(options.execArgv) ? (options.execArgv as unknown[]).map(String) : process.execArgv;
    recordExec(execPath, [execPath, ...execArgv, modulePath, ...list], options);
  };
  for (const name of ["spawn", "spawnSync", "execFile", "execFileSync"]) wrapChild(name, prepareSpawnLike);
  for (const name of ["exec", "execSync"]) wrapChild(name, prepareShellForm);
  wrapChild("fork", prepareFork);

  // Node copies the whole environment into a new worker: that is passing it on, not reading it.
  const OriginalWorker = wt.Worker;
  class Worker extends OriginalWorker {
    constructor(...args: ConstructorParameters<typeof OriginalWorker>) {
      depth++;
      try {
        super(...args);
      } finally {
        depth--;
      }
    }
  }
  (wt as unknown as Record<string, unknown>).Worker = Worker;

  // ---- SDK ---------------------------------------------------------------------------------
  Object.defineProperty(globalThis, Symbol.for(RECORD_TOOL_SYMBOL), {
    value: function recordTool(name: unknown): void {
      if (typeof name !== "string" || name === "") throw new TypeError("recordTool(name): name must be a non-empty string");
      sender.send({ kind: "tool", name });
    },
    enumerable: false,
    configurable: false,
    writable: false,
  });

  // ESM `import { writeFileSync } from "node:fs"` binds to a snapshot: refresh it to the hooks.
  load<typeof import("node:module")>("node:module").syncBuiltinESMExports();
}

install();
