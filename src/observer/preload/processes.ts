/**
 * processes: the `child_process` exports (and their `util.promisify` forms) record each program
 * they start as an `exec`, resolved on the child's PATH, and put the hooks' NODE_OPTIONS entry
 * into any environment the program passes, so Node grandchildren are hooked too.
 */
import { mergeNodeOptions } from "../protocol.js";
import { load, type HookContext } from "./context.js";

export function installProcesses(ctx: HookContext): void {
  const { fs, path, original } = ctx;
  const cp = load<typeof import("node:child_process")>("node:child_process") as unknown as Record<string, unknown>;

  function childEnv(env: unknown): Record<string, string | undefined> {
    const base = (env !== null && typeof env === "object" ? env : ctx.envTarget) as Record<string, string | undefined>;
    const out: Record<string, string | undefined> = { ...base };
    out.NODE_OPTIONS = mergeNodeOptions(ctx.channelDir, base.NODE_OPTIONS);
    return out;
  }

  function resolveExecutable(file: string, env: Record<string, string | undefined>, cwd: unknown): string | null {
    const dir = typeof cwd === "string" ? path.resolve(cwd) : process.cwd();
    if (file.includes("/")) return path.resolve(dir, file);
    for (const entry of (env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
      const candidate = path.resolve(dir, entry === "" ? "." : entry, file);
      try {
        original.accessSync(candidate, fs.constants.X_OK);
        if (original.statSync(candidate).isFile()) return candidate;
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
    ctx.send(event);
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
        ctx.depth++;
        try {
          if (ctx.depth === 1) prepare(args);
          return fn.apply(this, args);
        } finally {
          ctx.depth--;
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
    const modulePath = String(ctx.toPathString(args[0]));
    const list = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    const options = withOptions(args, true);
    const execPath = typeof options.execPath === "string" ? options.execPath : process.execPath;
    const execArgv = Array.isArray(options.execArgv) ? (options.execArgv as unknown[]).map(String) : process.execArgv;
    recordExec(execPath, [execPath, ...execArgv, modulePath, ...list], options);
  };
  for (const name of ["spawn", "spawnSync", "execFile", "execFileSync"]) wrapChild(name, prepareSpawnLike);
  for (const name of ["exec", "execSync"]) wrapChild(name, prepareShellForm);
  wrapChild("fork", prepareFork);
}
