/**
 * The egress relay (docs/egress.md), bundled to dist/relay/index.js. It runs INSIDE the jail,
 * whose network namespace has only loopback:
 *
 *   node dist/relay/index.js --listen 127.0.0.1:<port> --unix <socketPath>
 *        [--child-node-options <value>] -- CMD [ARGS...]
 *
 * It listens on `--listen` first, then starts CMD (stdio inherited, the relay's own environment),
 * and pipes every accepted TCP connection to the unix socket of the egress proxy outside the
 * jail. It forwards SIGTERM, SIGINT and SIGHUP to CMD and ends the way CMD ended: the same exit
 * code, or the same signal raised on itself, so the wrapper sees what a direct run would give.
 *
 * Exit 125, with one line on stderr and CMD never started: bad arguments, no socket at
 * `--unix`, `--listen` not possible, or the observer hooks loaded into the relay itself.
 * 127 / 126: CMD not found / not executable.
 *
 * The relay is plumbing, not the observed program: it must be started with NODE_OPTIONS unset
 * (so the preload does not load into it) and receives the command's NODE_OPTIONS through
 * `--child-node-options` (an empty value removes the key from CMD's environment). A relay that
 * finds the hooks loaded refuses rather than record itself.
 */
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import net from "node:net";
import { constants as osConstants } from "node:os";
import { errnoOf } from "../core/errors.js";
import { parseAuthority, splice } from "./egress.js";
import { RECORD_TOOL_SYMBOL, splitNodeOptions } from "./protocol.js";

const SETUP_FAILED = 125;
const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

interface RelayArgs {
  host: string;
  port: number;
  socketPath: string;
  childNodeOptions: string | undefined;
  command: string[];
}

function fail(message: string, code = SETUP_FAILED): never {
  process.stderr.write(`envelope-gate relay: ${message}\n`);
  process.exit(code);
}

function parseRelayArgs(argv: string[]): RelayArgs {
  const dashes = argv.indexOf("--");
  if (dashes === -1 || dashes === argv.length - 1 || argv[dashes + 1] === "")
    fail("usage: --listen HOST:PORT --unix SOCKET [--child-node-options VALUE] -- CMD [ARGS...]");
  const values = new Map<string, string>();
  const own = argv.slice(0, dashes);
  for (let i = 0; i < own.length; i++) {
    const arg = own[i] as string;
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!["--listen", "--unix", "--child-node-options"].includes(name)) fail(`unknown argument ${arg}`);
    if (values.has(name)) fail(`${name} given twice`);
    if (eq !== -1) values.set(name, arg.slice(eq + 1));
    else if (i + 1 < own.length) values.set(name, own[++i] as string);
    else fail(`${name} needs a value`);
  }
  const listen = parseAuthority(values.get("--listen") ?? "");
  if (listen === null || net.isIP(listen.host) === 0) fail("--listen needs IP:PORT (port 1-65535)");
  const socketPath = values.get("--unix");
  if (socketPath === undefined || socketPath === "") fail("--unix needs the egress proxy's socket path");
  return { ...listen, socketPath, childNodeOptions: values.get("--child-node-options"), command: argv.slice(dashes + 1) };
}

/** Ends this process the way the command ended. */
function endLike(code: number | null, signal: NodeJS.Signals | null): void {
  if (signal === null) process.exit(code ?? SETUP_FAILED);
  for (const s of FORWARDED) process.removeAllListeners(s);
  process.kill(process.pid, signal);
  // Signals Node keeps for itself (SIGPIPE is ignored, SIGUSR1 starts the inspector) do not end
  // the relay: fall back to the shell's convention.
  setTimeout(() => process.exit(128 + (osConstants.signals[signal] ?? 0)), 200);
}

function main(): void {
  const args = parseRelayArgs(process.argv.slice(2));
  if (
    typeof (globalThis as Record<symbol, unknown>)[Symbol.for(RECORD_TOOL_SYMBOL)] === "function" ||
    splitNodeOptions(process.env.NODE_OPTIONS).stageDir !== null
  ) {
    fail(
      "the observer hooks are loaded into the relay: start it with NODE_OPTIONS unset and pass the command's through --child-node-options",
    );
  }
  try {
    if (!statSync(args.socketPath).isSocket()) fail(`${args.socketPath} is not a socket`);
  } catch (e) {
    fail(`no egress proxy socket at ${args.socketPath} (${errnoOf(e) ?? String(e)})`);
  }

  let warned = false;
  const connections = new Set<net.Socket>();
  const server = net.createServer((conn) => {
    const proxy = net.connect(args.socketPath);
    proxy.once("error", (e: NodeJS.ErrnoException) => {
      if (warned) return;
      warned = true;
      process.stderr.write(`envelope-gate relay: the egress proxy is unreachable (${e.code ?? e.message}); connections are closed\n`);
    });
    for (const s of [conn, proxy]) {
      connections.add(s);
      s.once("close", () => connections.delete(s));
    }
    splice(conn, proxy);
  });
  server.once("error", (e: NodeJS.ErrnoException) => fail(`cannot listen on ${args.host}:${args.port} (${e.code ?? e.message})`));
  // Listening comes first: the command can connect from its first instruction on.
  server.listen({ host: args.host, port: args.port, exclusive: true }, () => {
    server.removeAllListeners("error");
    server.on("error", () => {});
    const env = { ...process.env };
    if (args.childNodeOptions === "") delete env.NODE_OPTIONS;
    else if (args.childNodeOptions !== undefined) env.NODE_OPTIONS = args.childNodeOptions;
    const [file, ...rest] = args.command as [string, ...string[]];
    const child = spawn(file, rest, { stdio: "inherit", env });
    for (const s of FORWARDED) {
      process.on(s, () => {
        if (child.exitCode === null && child.signalCode === null) child.kill(s);
      });
    }
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // a signal that could not be delivered: the exit still comes
      const code = e.code === "ENOENT" ? 127 : e.code === "EACCES" ? 126 : SETUP_FAILED;
      fail(`cannot start ${file} (${e.code ?? e.message})`, code);
    });
    child.once("exit", (code, signal) => {
      server.close();
      for (const s of connections) s.destroy();
      endLike(code, signal);
    });
  });
}

main();
