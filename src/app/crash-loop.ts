import { parseArgs } from "node:util";
import { Refusal } from "../core/errors.js";
import { crashesSince, resetCrashes } from "../store/crashes.js";
import { describeStore, openStore, type Store } from "../store/index.js";
import { int, storeConfigFromEnv } from "./config.js";
import { jsonLogger } from "./context.js";
import { settingValue } from "./settings.js";

/**
 * The crash-loop bound the App enforces itself, so it holds under any supervisor (systemd,
 * Docker's `unless-stopped`, Kubernetes restarting forever): a replica id whose processes
 * crashed (never recorded a clean stop) `limit` times within `windowMs` does not serve again
 * until an operator clears it (`app reset-crashes`) or the oldest of those crashes leaves the
 * window. A clean stop (SIGTERM) is not a crash; a store unavailable at start records nothing.
 */
export interface CrashBound {
  limit: number;
  windowMs: number;
}

/** `app start`'s exit status when it refuses for a crash loop (systemd: RestartPreventExitStatus). */
export const CRASH_LOOP_EXIT = 4;

export function crashBoundFromEnv(env: NodeJS.ProcessEnv): CrashBound {
  return {
    limit: int(env, "ENVELOPE_GATE_CRASH_LIMIT", 1, 1000),
    windowMs: int(env, "ENVELOPE_GATE_CRASH_WINDOW_MINUTES", 1, 7 * 24 * 60) * 60_000,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Throws APP_CRASH_LOOP when `replica` crashed `limit` times within the window before `now`. */
export async function refuseCrashLoop(store: Store, replica: string, bound: CrashBound, now: number): Promise<void> {
  const crashes = await crashesSince(store, replica, now - bound.windowMs);
  if (crashes.length < bound.limit) return;
  const minutes = Math.round(bound.windowMs / 60_000);
  const clears = (crashes[crashes.length - bound.limit] as { last_seen_at: number }).last_seen_at + bound.windowMs;
  throw new Refusal(
    "APP_CRASH_LOOP",
    `replica ${replica} crashed ${crashes.length} times within ${minutes} minutes (last seen alive at ${crashes
      .map((c) => iso(c.last_seen_at))
      .join(", ")}) without a clean stop; this process does not serve`,
    {
      hint: `Find the cause in those processes' logs, then clear it: envelope-gate app reset-crashes --replica ${replica} --reason "..." (otherwise it clears itself at ${iso(clears)}).`,
    },
  );
}

/** `app start`'s answer to a refused start: one error line, and the crash-loop exit status. Anything else is rethrown. */
export function crashLoopExit(err: unknown, replica: string): number {
  if (!(err instanceof Refusal) || err.code !== "APP_CRASH_LOOP") throw err;
  jsonLogger("error", "app.crash_loop", { code: err.code, replica, message: err.message, hint: err.hint, exit: CRASH_LOOP_EXIT });
  return CRASH_LOOP_EXIT;
}

/** `envelope-gate app reset-crashes --replica ID --reason TEXT` */
/** `app reset-crashes`'s flags. */
export const RESET_CRASHES_OPTIONS = { replica: { type: "string" }, reason: { type: "string" } } as const;

export async function resetCrashesCommand(args: string[], usage: (m: string) => never, operator: string): Promise<number> {
  const { values } = parseArgs({ args, options: RESET_CRASHES_OPTIONS, strict: true, allowPositionals: false });
  const replica = values.replica?.trim() || settingValue(process.env, "ENVELOPE_GATE_REPLICA_ID");
  if (!replica) usage("reset-crashes needs --replica ID (or ENVELOPE_GATE_REPLICA_ID)");
  if (!values.reason?.trim()) usage('reset-crashes needs --reason "why it is safe to start again"');
  const settings = storeConfigFromEnv(process.env);
  const store = await openStore(settings, Date.now());
  try {
    const cleared = await resetCrashes(store, replica, operator, (values.reason as string).trim(), Date.now());
    process.stdout.write(
      `crashes reset for replica ${replica}: ${cleared} cleared, recorded as ${operator} (${describeStore(settings)})\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
