import { parseArgs } from "node:util";
import { userInfo } from "node:os";
import { GateError } from "../core/errors.js";
import { describeStore, openStore } from "../store/index.js";
import { loadConfig, reviewAlertMsFromEnv, storeConfigFromEnv } from "./config.js";
import { appManifest } from "./manifest.js";
import { startApp } from "./run.js";
import { statusSnapshot } from "./status.js";

function operator(): string {
  try {
    return process.env.ENVELOPE_GATE_OPERATOR?.trim() || userInfo().username;
  } catch {
    return "unknown-operator";
  }
}

/** `envelope-gate app [start] | pause --reason TEXT | resume | status | promote --installation N` */
export async function appCommand(args: string[], usage: (message: string) => never): Promise<number> {
  const [sub = "start", ...rest] = args;
  switch (sub) {
    case "start":
      return start(rest, usage);
    case "pause":
    case "resume":
      return killSwitch(sub, rest, usage);
    case "status":
      return status(rest);
    case "promote":
    case "demote":
      return promote(sub, rest, usage);
    case "manifest":
      return manifest(rest, usage);
    default:
      return usage(`unknown app command "${sub}" (start, pause, resume, status, promote, demote, manifest)`);
  }
}

async function start(args: string[], usage: (m: string) => never): Promise<number> {
  if (args.length > 0) usage("app start takes no arguments; it is configured by environment variables (docs/app.md)");
  const config = loadConfig(process.env);
  const app = await startApp(config);
  process.stdout.write(`envelope-gate app listening on ${app.url} (webhook ${app.url}/webhook, status ${app.url}/status)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await app.close();
  return 0;
}

async function killSwitch(which: "pause" | "resume", args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({ args, options: { reason: { type: "string" } }, strict: true, allowPositionals: false });
  if (which === "pause" && !values.reason?.trim()) usage('pause needs --reason "why"');
  const settings = storeConfigFromEnv(process.env);
  const store = await openStore(settings, Date.now());
  try {
    const changed = await store.setKillSwitch(
      which === "pause",
      which === "pause" ? (values.reason as string).trim() : null,
      operator(),
      Date.now(),
    );
    const state = await store.killSwitch();
    process.stdout.write(
      `${changed ? (which === "pause" ? "paused" : "resumed") : `already ${state.paused ? "paused" : "running"}`}: ${describeStore(settings)}${state.paused ? ` (reason: ${state.reason})` : ""}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

async function status(args: string[]): Promise<number> {
  if (args.length > 0) throw new GateError("CONFIG_INVALID", "app status takes no arguments");
  const settings = storeConfigFromEnv(process.env);
  const store = await openStore(settings, Date.now());
  try {
    const snapshot = await statusSnapshot(store, Date.now(), {
      storeLabel: describeStore(settings),
      reviewAlertMs: reviewAlertMsFromEnv(process.env),
      lastSweep: null,
    });
    process.stdout.write(JSON.stringify(snapshot, null, 2) + "\n");
    return 0;
  } finally {
    await store.close();
  }
}

async function promote(which: "promote" | "demote", args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({ args, options: { installation: { type: "string" } }, strict: true, allowPositionals: false });
  if (!values.installation || !/^\d+$/.test(values.installation)) usage(`${which} needs --installation <numeric id>`);
  const id = Number(values.installation);
  const store = await openStore(storeConfigFromEnv(process.env), Date.now());
  try {
    if (which === "promote") {
      await store.ensureInstallation(id, null, Date.now());
      const changed = await store.promoteInstallation(id, operator(), Date.now());
      process.stdout.write(
        changed ? `installation ${id} promoted: ledger PRs are opened for real\n` : `installation ${id} is already active\n`,
      );
    } else {
      const changed = await store.demoteInstallation(id);
      process.stdout.write(changed ? `installation ${id} back in shadow mode\n` : `installation ${id} is not active\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

async function manifest(args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { url: { type: "string" }, name: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  if (!values.url || !/^https?:\/\//.test(values.url)) usage("manifest needs --url https://where-the-app-listens");
  process.stdout.write(JSON.stringify(appManifest(values.url as string, values.name ?? "envelope-gate"), null, 2) + "\n");
  return 0;
}
