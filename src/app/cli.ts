import { parseArgs, type ParseArgsConfig } from "node:util";
import { userInfo } from "node:os";
import { Refusal } from "../core/errors.js";
import { EXIT_CODES } from "../core/verdict.js";
import { describeStore, openStore } from "../store/index.js";
import { parseScopeKey, scopeKey, type BudgetLimit } from "../core/budget.js";
import { budgetPolicyFromEnv, loadConfig, reviewAlertMsFromEnv, storeConfigFromEnv } from "./config.js";
import { crashBoundFromEnv, crashLoopExit, RESET_CRASHES_OPTIONS, resetCrashesCommand } from "./crash-loop.js";
import { appManifest } from "../core/manifest.js";
import { startApp } from "./start.js";
import { appSetup, defaultApiUrl } from "./setup.js";
import { settingsHelp, settingValue } from "./settings.js";
import { redeliverySnapshot } from "./redelivery.js";
import { setRedelivery } from "../store/redelivery.js";
import { budgetSnapshot, statusSnapshot } from "./status.js";

/** Each app subcommand's synopsis; `--help` prints it with the settings it reads. */
const SUBCOMMANDS: Record<string, { synopsis: string; scope: "server" | "store" }> = {
  start: { synopsis: "start                       run the App's server (the default when no subcommand is given)", scope: "server" },
  pause: { synopsis: 'pause --reason "TEXT"       engage the kill switch: nothing is sent to GitHub until resume', scope: "store" },
  resume: { synopsis: 'resume --reason "TEXT"      release the kill switch (recorded with who and why)', scope: "store" },
  budget: {
    synopsis: [
      "budget [show]               runner B's usage and caps today, per installation and repository (JSON)",
      '  envelope-gate app budget set --installation N|--repository OWNER/NAME --dispatches-per-day N --minutes-per-day N --reason "TEXT"',
      '  envelope-gate app budget clear --installation N|--repository OWNER/NAME --reason "TEXT"   (back to the configured caps)',
    ].join("\n"),
    scope: "store",
  },
  status: { synopsis: "status                      print the status page's snapshot as JSON, from the store", scope: "store" },
  promote: { synopsis: "promote --installation N    let an installation open ledger PRs for real", scope: "store" },
  demote: { synopsis: "demote --installation N     put an installation back in shadow mode", scope: "store" },
  manifest: { synopsis: "manifest --url URL [--name NAME]  print the App's registration manifest", scope: "store" },
  setup: {
    synopsis: [
      "setup --name NAME --webhook-url URL [--org ORG] [--dir DIR] [--port N] [--github-url URL] [--api-url URL]",
      "                              register the App with GitHub's manifest flow: open the page it prints, submit, and",
      "                              the App's key, webhook secret and an env file naming them are written to DIR (0600)",
      "    --name         the App's name; App names are global on GitHub, so choose one no other App has (envelope-gate-ACME)",
      "    --webhook-url  where GitHub sends the App's webhooks: https://your-host/webhook",
      "    --org          register it on this organization (default: your personal account)",
      "    --dir          default: the current directory; files private-key.pem, webhook-secret, envelope-gate.env (never overwritten)",
      "    --port         the local page's port on 127.0.0.1 (default 3000; 0: any free port)",
      "    --github-url   GitHub's web host (default https://github.com; a GitHub Enterprise Server's https://HOST)",
      "    --api-url      GitHub's API (default https://api.github.com, or https://HOST/api/v3 for --github-url HOST)",
    ].join("\n"),
    scope: "store",
  },
  retry: {
    synopsis: "retry --delivery ID          work on a failed delivery again, from its recorded payload (once its cause is fixed)",
    scope: "store",
  },
  redelivery: {
    synopsis: [
      'redelivery on|off --reason "TEXT"  turn the redelivery sweep on or off (recorded in the switch history)',
      "  envelope-gate app redelivery [show]   the redelivery sweep's switch, last pass and counts (JSON)",
    ].join("\n"),
    scope: "store",
  },
  "reset-crashes": {
    synopsis: 'reset-crashes --replica ID --reason "TEXT"  let a replica refused for a crash loop (APP_CRASH_LOOP) start again',
    scope: "store",
  },
};

type AppFlags = NonNullable<ParseArgsConfig["options"]>;

const REASON = { reason: { type: "string" } } as const;
const INSTALLATION = { installation: { type: "string" } } as const;

/**
 * Each app subcommand's flags and, for budget and redelivery, the action word that comes first
 * (default `show`): what the subcommands parse with, and what parseAppArgs checks a command line
 * against without running it.
 */
const APP_ARGS = {
  start: { options: {} },
  pause: { options: REASON },
  resume: { options: REASON },
  status: { options: {} },
  budget: {
    options: {
      installation: { type: "string" },
      repository: { type: "string" },
      "dispatches-per-day": { type: "string" },
      "minutes-per-day": { type: "string" },
      reason: { type: "string" },
    },
    actions: ["show", "set", "clear"],
  },
  promote: { options: INSTALLATION },
  demote: { options: INSTALLATION },
  manifest: { options: { url: { type: "string" }, name: { type: "string" } } },
  retry: { options: { delivery: { type: "string" } } },
  redelivery: { options: REASON, actions: ["show", "on", "off"] },
  "reset-crashes": { options: RESET_CRASHES_OPTIONS },
  setup: {
    options: {
      name: { type: "string" },
      "webhook-url": { type: "string" },
      org: { type: "string" },
      dir: { type: "string", default: "." },
      port: { type: "string", default: "3000" },
      "github-url": { type: "string", default: "https://github.com" },
      "api-url": { type: "string" },
    },
  },
} as const satisfies Record<string, { options: AppFlags; actions?: readonly string[] }>;

/**
 * Checks an `app` command line as the subcommands parse it, running nothing: an unknown subcommand,
 * action or flag is a usage error (`usage` throws) or parseArgs's own ERR_PARSE_ARGS_* error.
 */
export function parseAppArgs(args: string[], usage: (message: string) => never): void {
  if (args[0] === "--help" || args[0] === "-h" || args[0] === "help") return;
  const [sub = "start", ...rest] = args;
  const spec: { options: AppFlags; actions?: readonly string[] } | undefined = (
    APP_ARGS as Record<string, { options: AppFlags; actions?: readonly string[] }>
  )[sub];
  if (spec === undefined) usage(`unknown app command "${sub}" (${Object.keys(APP_ARGS).join(", ")})`);
  if (wantsHelp(rest)) return;
  let flags = rest;
  if (spec.actions !== undefined) {
    const [action = "show", ...after] = rest;
    if (!spec.actions.includes(action)) usage(`unknown ${sub} action "${action}" (${spec.actions.join(", ")})`);
    flags = after;
  }
  parseArgs({ args: flags, options: spec.options, strict: true, allowPositionals: false });
}

function appHelp(sub: string | null): string {
  const subs = sub === null ? Object.keys(SUBCOMMANDS) : [sub];
  const scope = sub === null ? "server" : (SUBCOMMANDS[sub] as { scope: "server" | "store" }).scope;
  const lines = subs.map((s) => `  envelope-gate app ${(SUBCOMMANDS[s] as { synopsis: string }).synopsis}`);
  const settings = sub === "manifest" || sub === "setup" ? "" : `\n\n${settingsHelp(scope)}`;
  return `usage:\n${lines.join("\n")}${settings}\n\nSee docs/app.md for the whole guide.\n`;
}

const wantsHelp = (args: string[]) => args.includes("--help") || args.includes("-h");

function operator(): string {
  try {
    return process.env.ENVELOPE_GATE_OPERATOR?.trim() || userInfo().username;
  } catch {
    return "unknown-operator";
  }
}

/** `envelope-gate app [start] | pause --reason TEXT | resume | status | promote --installation N` */
export async function appCommand(args: string[], usage: (message: string) => never): Promise<number> {
  if (args[0] === "--help" || args[0] === "-h" || args[0] === "help") {
    process.stdout.write(appHelp(null));
    return 0;
  }
  const [sub = "start", ...rest] = args;
  if (SUBCOMMANDS[sub] && wantsHelp(rest)) {
    process.stdout.write(appHelp(sub));
    return 0;
  }
  try {
    return await appSubcommand(sub, rest, usage);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    process.stderr.write(appRefusalText(sub, err));
    return EXIT_CODES.error;
  }
}

/** Codes that say the App's own settings, secrets or files are wrong: fixed by whoever runs it. */
const CONFIGURATION_CODES: ReadonlySet<string> = new Set([
  "CONFIG_INVALID",
  "BYPASS_REFUSED",
  "SECRET_IN_ENVIRONMENT",
  "SECRET_UNAVAILABLE",
  "PRIVATE_KEY_INVALID",
]);

/**
 * An app command's refusal as what it is: a configuration error, or the command refused. Not
 * the gate's "could not evaluate; this is not a pass": an app command judges no pull request.
 */
export function appRefusalText(sub: string, err: Refusal): string {
  const kind = CONFIGURATION_CODES.has(err.code) ? "configuration error" : "refused";
  const lines = [`envelope-gate app ${sub}: ${kind} (${err.code}): ${err.message}`];
  if (err.hint) lines.push(`  what to do: ${err.hint}`);
  return lines.join("\n") + "\n";
}

async function appSubcommand(sub: string, rest: string[], usage: (message: string) => never): Promise<number> {
  switch (sub) {
    case "start":
      return start(rest, usage);
    case "pause":
    case "resume":
      return killSwitch(sub, rest, usage);
    case "status":
      return status(rest);
    case "budget":
      return budget(rest, usage);
    case "promote":
    case "demote":
      return promote(sub, rest, usage);
    case "manifest":
      return manifest(rest, usage);
    case "setup":
      return setup(rest, usage);
    case "reset-crashes":
      return resetCrashesCommand(rest, usage, operator());
    case "retry":
      return retry(rest, usage);
    case "redelivery":
      return redelivery(rest, usage);
    default:
      return usage(
        `unknown app command "${sub}" (start, pause, resume, status, budget, promote, demote, manifest, setup, reset-crashes, retry, redelivery)`,
      );
  }
}

async function start(args: string[], usage: (m: string) => never): Promise<number> {
  if (args.length > 0) usage("app start takes no arguments; it is configured by environment variables (docs/app.md)");
  // A stop is listened for before anything else: a SIGTERM while the App starts (the secret
  // command's check, the store) is a stop on purpose. Unhandled it would kill the process after
  // it registered (a crash), or, node being PID 1 in the container, be dropped by the kernel,
  // leaving the App serving until the runtime's SIGKILL (a crash too).
  let stopRequested = false;
  let onStop = (): void => {
    stopRequested = true;
  };
  const stop = () => onStop();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const config = loadConfig(process.env);
  await new Promise<void>((resolve) => setImmediate(resolve)); // a signal that came during loadConfig's synchronous checks
  if (stopRequested) return 0;
  let app;
  try {
    app = await startApp(config, { crashBound: crashBoundFromEnv(process.env) });
  } catch (err) {
    return crashLoopExit(err, config.replicaId);
  }
  process.stdout.write(`envelope-gate app listening on ${app.url} (webhook ${app.url}/webhook, status ${app.url}/status)\n`);
  if (!stopRequested) await new Promise<void>((resolve) => (onStop = resolve));
  await app.close();
  return 0;
}

async function killSwitch(which: "pause" | "resume", args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({ args, options: APP_ARGS[which].options, strict: true, allowPositionals: false });
  if (!values.reason?.trim()) usage(`${which} needs --reason "why" (it is recorded in the switch history)`);
  const settings = storeConfigFromEnv(process.env);
  const store = await openStore(settings, Date.now());
  try {
    const changed = await store.setKillSwitch(which === "pause", (values.reason as string).trim(), operator(), Date.now());
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
  if (args.length > 0) throw new Refusal("CONFIG_INVALID", "app status takes no arguments");
  const settings = storeConfigFromEnv(process.env);
  const store = await openStore(settings, Date.now());
  try {
    const snapshot = await statusSnapshot(store, Date.now(), {
      storeLabel: describeStore(settings),
      reviewAlertMs: reviewAlertMsFromEnv(process.env),
      budget: budgetPolicyFromEnv(process.env),
      crashBound: crashBoundFromEnv(process.env),
      lastSweep: null,
      githubApiUrl: settingValue(process.env, "ENVELOPE_GATE_GITHUB_API_URL"),
    });
    process.stdout.write(JSON.stringify(snapshot, null, 2) + "\n");
    return 0;
  } finally {
    await store.close();
  }
}

async function budget(args: string[], usage: (m: string) => never): Promise<number> {
  const [action = "show", ...rest] = args;
  const { values } = parseArgs({ args: rest, options: APP_ARGS.budget.options, strict: true, allowPositionals: false });
  const policy = budgetPolicyFromEnv(process.env);
  const store = await openStore(storeConfigFromEnv(process.env), Date.now());
  try {
    if (action === "show") {
      process.stdout.write(JSON.stringify(await budgetSnapshot(store, policy, Date.now()), null, 2) + "\n");
      return 0;
    }
    if (action !== "set" && action !== "clear") usage(`unknown budget action "${action}" (show, set, clear)`);
    if ((values.installation === undefined) === (values.repository === undefined))
      usage("name one scope: --installation N or --repository OWNER/NAME");
    if (values.installation !== undefined && !/^\d+$/.test(values.installation)) usage("--installation needs a numeric id");
    const scope =
      values.installation !== undefined
        ? scopeKey({ kind: "installation", id: Number(values.installation) })
        : scopeKey({ kind: "repository", name: values.repository as string });
    if (parseScopeKey(scope) === null) usage("--repository needs OWNER/NAME");
    if (!values.reason?.trim()) usage('budget changes need --reason "why" (it is recorded in the switch history)');
    let limit: BudgetLimit | null = null;
    if (action === "set") {
      const d = values["dispatches-per-day"];
      const m = values["minutes-per-day"];
      if (!d || !/^\d+$/.test(d) || !m || !/^\d+$/.test(m))
        usage("budget set needs --dispatches-per-day N and --minutes-per-day N (whole numbers, 0 stops runner B)");
      limit = { dispatchesPerDay: Number(d), minutesPerDay: Number(m) };
    }
    await store.switches.setLimit(scope, limit, operator(), (values.reason as string).trim(), Date.now());
    process.stdout.write(
      limit === null
        ? `${scope}: override removed, the configured caps apply\n`
        : `${scope}: ${limit.dispatchesPerDay} dispatches and ${limit.minutesPerDay} minutes per day\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

async function promote(which: "promote" | "demote", args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({ args, options: APP_ARGS[which].options, strict: true, allowPositionals: false });
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
  const { values } = parseArgs({ args, options: APP_ARGS.manifest.options, strict: true, allowPositionals: false });
  if (!values.url || !/^https?:\/\//.test(values.url)) usage("manifest needs --url https://where-the-app-listens");
  process.stdout.write(JSON.stringify(appManifest(values.url as string, values.name ?? "envelope-gate"), null, 2) + "\n");
  return 0;
}

async function setup(args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({
    args,
    options: APP_ARGS.setup.options,
    strict: true,
    allowPositionals: false,
  });
  const name = values.name?.trim() ?? "";
  if (name === "" || name.length > 34) {
    usage("setup needs --name NAME (at most 34 characters): App names are global on GitHub, choose one no other App has");
  }
  const isHttpUrl = (v: string | undefined) => v !== undefined && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);
  if (!isHttpUrl(values["webhook-url"]))
    usage("setup needs --webhook-url https://your-host/webhook (where GitHub sends the App's webhooks)");
  if (values.org !== undefined && !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(values.org)) usage("--org needs an organization's login");
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) usage("--port needs a port number (0: any free port)");
  if (!isHttpUrl(values["github-url"])) usage("--github-url needs GitHub's web address, https://github.com or https://HOST");
  if (values["api-url"] !== undefined && !isHttpUrl(values["api-url"])) usage("--api-url needs GitHub's API address");
  const githubUrl = values["github-url"].replace(/\/+$/, "");
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const result = await appSetup(
      {
        name,
        webhookUrl: values["webhook-url"] as string,
        org: values.org ?? null,
        githubUrl,
        apiUrl: (values["api-url"] ?? defaultApiUrl(githubUrl)).replace(/\/+$/, ""),
        dir: values.dir,
        port: Number(values.port),
      },
      (url) =>
        process.stdout.write(
          `Open ${url} in a browser on this machine and press its button (from another machine: ssh -L PORT:127.0.0.1:PORT to this one).\n` +
            "Waiting for GitHub's redirect (the code it carries is good for one hour); Ctrl-C stops without writing anything.\n",
        ),
      stop.signal,
    );
    if (result === null) {
      process.stderr.write("envelope-gate app setup: stopped; nothing was written\n");
      return 1;
    }
    const install = `${result.app.htmlUrl.replace(/\/+$/, "")}/installations/new`;
    process.stdout.write(
      [
        `registered the GitHub App "${result.app.name}" (id ${result.app.id}): ${result.app.htmlUrl}`,
        `wrote (mode 0600): ${result.files.privateKey}, ${result.files.webhookSecret}, ${result.files.env}`,
        `next: install it on the repositories that run the gate: ${install}`,
        `then start it with those settings: node --env-file=${result.files.env} node_modules/.bin/envelope-gate app (or systemd's EnvironmentFile=, Compose's env_file:)`,
        "",
      ].join("\n"),
    );
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

async function retry(args: string[], usage: (m: string) => never): Promise<number> {
  const { values } = parseArgs({ args, options: APP_ARGS.retry.options, strict: true, allowPositionals: false });
  if (!values.delivery?.trim()) usage("retry needs --delivery ID (the X-GitHub-Delivery id on the status page)");
  const id = (values.delivery as string).trim();
  const store = await openStore(storeConfigFromEnv(process.env), Date.now());
  try {
    if (await store.retryDelivery(id, Date.now())) {
      process.stdout.write(`delivery ${id} queued again: the next free worker of any replica works on it\n`);
      return 0;
    }
    const row = await store.getDelivery(id);
    process.stderr.write(
      row === null
        ? `delivery ${id} is not recorded: nothing to retry (the redelivery sweep asks GitHub for deliveries the App never recorded)\n`
        : `delivery ${id} is ${row.state}${row.state === "failed" ? " without its payload" : ""}: only a failed delivery is retried\n`,
    );
    return 1;
  } finally {
    await store.close();
  }
}

async function redelivery(args: string[], usage: (m: string) => never): Promise<number> {
  const [action = "show", ...rest] = args;
  const { values } = parseArgs({ args: rest, options: APP_ARGS.redelivery.options, strict: true, allowPositionals: false });
  const store = await openStore(storeConfigFromEnv(process.env), Date.now());
  try {
    if (action === "show") {
      process.stdout.write(JSON.stringify(await redeliverySnapshot(store, Date.now()), null, 2) + "\n");
      return 0;
    }
    if (action !== "on" && action !== "off") usage(`unknown redelivery action "${action}" (on, off, show)`);
    if (!values.reason?.trim()) usage(`redelivery ${action} needs --reason "why" (it is recorded in the switch history)`);
    const changed = await setRedelivery(store, action === "on", operator(), (values.reason as string).trim(), Date.now());
    process.stdout.write(`${changed ? "redelivery sweep turned" : "redelivery sweep already"} ${action}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
