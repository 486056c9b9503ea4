/**
 * env: `process.env` becomes a Proxy whose traps record each key the program (or Node's own
 * code, told apart by the caller's stack) reads, tests, deletes or enumerates, and hide the
 * hooks' own NODE_OPTIONS entry from the program; `os.tmpdir()` and `os.homedir()`, which read
 * the environment in C++, are recorded here too.
 */
import { mergeNodeOptions, splitNodeOptions } from "../protocol.js";
import { load, type HookContext } from "./context.js";

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

const INSPECT_CUSTOM = Symbol.for("nodejs.util.inspect.custom");

export function installEnv(ctx: HookContext): void {
  /** Per key: 1 = a read by the program was recorded, 2 = a read by Node's own code was. */
  const envSeen = new Map<string, number>();
  function onEnvRead(key: string, op: string, internalKnown?: boolean): boolean | undefined {
    if (ctx.depth > 0) return internalKnown;
    const state = envSeen.get(key) ?? 0;
    if (state & 1) return internalKnown;
    const internal = internalKnown ?? ctx.callerIsNodeInternal();
    const bit = internal ? 2 : 1;
    if (state & bit) return internal;
    envSeen.set(key, state | bit);
    ctx.send({ kind: "env", key, op, origin: internal ? "internal" : "user" });
    return internal;
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
          const internal = ctx.callerIsNodeInternal();
          onEnvRead(key, "get", internal);
          return internal ? env[key] : programNodeOptions(env);
        }
        if (
          typeof key === "string" &&
          ((envSeen.get(key) ?? 0) & 1) === 0 &&
          !(PROTOCOL_NAMES.has(key) && !Object.prototype.hasOwnProperty.call(env, key))
        ) {
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
        if (typeof key === "string") onEnvRead(key, "has");
        return key in env;
      },
      deleteProperty(_target, key) {
        if (typeof key === "string") onEnvRead(key, "delete");
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
          if (internal) return Reflect.getOwnPropertyDescriptor(env, key);
          const value = programNodeOptions(env);
          return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
        }
        if (typeof key === "string") onEnvRead(key, "get");
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
    if (env !== ctx.realEnv) return new Proxy(env, envHandler(env));
    const standIn = Object.create(Object.getPrototypeOf(env) as object | null) as Record<symbol, unknown>;
    standIn[INSPECT_CUSTOM] = function inspectEnvironment(
      _depth: unknown,
      options: unknown,
      inspect: (v: unknown, o: unknown) => string,
    ): string {
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
  let envProxy = watchEnv(ctx.realEnv);
  Object.defineProperty(process, "env", {
    get: () => envProxy,
    set: (value: unknown) => {
      if (value !== null && typeof value === "object") {
        ctx.envTarget = value as NodeJS.ProcessEnv;
        envProxy = watchEnv(ctx.envTarget);
      }
    },
    configurable: true,
    enumerable: true,
  });

  // os.tmpdir/homedir/userInfo read the environment in C++, past the proxy: record those reads here.
  const os = load<typeof import("node:os")>("node:os") as unknown as Record<string, unknown>;
  ctx.hook(os, "tmpdir", () => {
    for (const key of ["TMPDIR", "TMP", "TEMP"]) onEnvRead(key, "get", false);
  });
  ctx.hook(os, "homedir", () => void onEnvRead("HOME", "get", false));
}
