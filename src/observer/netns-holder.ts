/**
 * The jail's network holder (docs/egress.md, "The jail's resolver and services"), bundled to
 * dist/netns/index.js. The wrapper starts it in a bubblewrap of its own, in a user and network
 * namespace that every stage's jail then joins (jail-network.ts), with one capability,
 * CAP_NET_BIND_SERVICE over that namespace alone, so that it can listen on port 53:
 *
 *   node dist/netns/index.js --dns IP:PORT=SOCKET [--tcp IP:PORT=SOCKET ...]
 *
 * `--dns`: UDP and TCP on IP:PORT; each UDP query goes to the wrapper's resolver at SOCKET framed
 * as DNS over TCP (RFC 7766), its answer back to the asker; a TCP connection is piped as it is.
 * `--tcp`: a declared service's address inside the jail, each connection piped to SOCKET, the
 * wrapper's forward to the real service. It reads, judges and records nothing: the wrapper does.
 *
 * Prints `ready <pid>` once every address listens, then holds until its input closes. Exit 125
 * with one line on stderr when an argument is wrong or an address cannot be listened on.
 */
import dgram from "node:dgram";
import net from "node:net";
import { DnsFrameReader, frameMessage } from "../core/dns-wire.js";
import { parseAuthority, splice } from "./egress.js";

const SETUP_FAILED = 125;
/** UDP queries waiting for the wrapper's answer at once; more are dropped (the client asks again). */
const MAX_PENDING_QUERIES = 256;
/** TCP connections at once: to the resolver (each may hold a query), to each service (a pool's worth). */
const MAX_DNS_CONNECTIONS = 64;
const MAX_SERVICE_CONNECTIONS = 1024;
const QUERY_TIMEOUT_MS = 20_000;

interface Listen {
  host: string;
  port: number;
  socketPath: string;
}

function fail(message: string): never {
  process.stderr.write(`envelope-gate netns: ${message}\n`);
  process.exit(SETUP_FAILED);
}

function parseListen(value: string, flag: string): Listen {
  const eq = value.indexOf("=");
  const address = eq === -1 ? null : parseAuthority(value.slice(0, eq));
  const socketPath = eq === -1 ? "" : value.slice(eq + 1);
  if (address === null || net.isIP(address.host) === 0 || !socketPath.startsWith("/")) fail(`${flag} needs IP:PORT=/SOCKET, got ${value}`);
  return { ...address, socketPath };
}

function parseArgs(argv: string[]): { dns: Listen; tcp: Listen[] } {
  let dns: Listen | null = null;
  const tcp: Listen[] = [];
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as string;
    const value = argv[i + 1];
    if (value === undefined) fail(`${flag} needs a value`);
    if (flag === "--dns" && dns === null) dns = parseListen(value, flag);
    else if (flag === "--tcp") tcp.push(parseListen(value, flag));
    else fail(`unexpected argument ${flag}`);
  }
  if (dns === null) fail("usage: --dns IP:PORT=SOCKET [--tcp IP:PORT=SOCKET ...]");
  return { dns, tcp };
}

function listenTcp(at: Listen, maxConnections: number): Promise<void> {
  const server = net.createServer((conn) => splice(conn, net.connect(at.socketPath)));
  server.maxConnections = maxConnections;
  return new Promise((resolve) => {
    server.once("error", (e: NodeJS.ErrnoException) => fail(`cannot listen on ${at.host}:${at.port} (${e.code ?? e.message})`));
    server.listen({ host: at.host, port: at.port, exclusive: true }, () => {
      server.removeAllListeners("error");
      server.on("error", () => {});
      resolve();
    });
  });
}

function listenUdp(at: Listen): Promise<void> {
  const socket = dgram.createSocket({ type: net.isIPv6(at.host) ? "udp6" : "udp4" });
  let pending = 0;
  socket.on("message", (query, from) => {
    // Nothing to ask (an empty datagram), or too much at once: dropped, as a busy resolver would.
    if (query.length === 0 || pending >= MAX_PENDING_QUERIES) return;
    pending++;
    const upstream = net.connect(at.socketPath);
    const frames = new DnsFrameReader();
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      pending--;
      clearTimeout(timer);
      upstream.destroy();
    };
    const timer = setTimeout(finish, QUERY_TIMEOUT_MS);
    upstream.on("error", finish);
    upstream.on("close", finish);
    upstream.on("data", (chunk: Buffer) => {
      let answers: Buffer[];
      try {
        answers = frames.push(chunk);
      } catch {
        finish();
        return;
      }
      const answer = answers[0];
      if (answer === undefined) return;
      socket.send(answer, from.port, from.address);
      finish();
    });
    try {
      upstream.write(frameMessage(query));
    } catch {
      finish();
    }
  });
  return new Promise((resolve) => {
    socket.once("error", (e: NodeJS.ErrnoException) => fail(`cannot listen on ${at.host}:${at.port}/udp (${e.code ?? e.message})`));
    socket.bind({ address: at.host, port: at.port, exclusive: true }, () => {
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const { dns, tcp } = parseArgs(process.argv.slice(2));
  await Promise.all([listenUdp(dns), listenTcp(dns, MAX_DNS_CONNECTIONS), ...tcp.map((at) => listenTcp(at, MAX_SERVICE_CONNECTIONS))]);
  process.stdout.write(`ready ${process.pid}\n`);
  // Held until the wrapper closes our input or ends.
  process.stdin.resume();
  process.stdin.once("end", () => process.exit(0));
  process.stdin.once("close", () => process.exit(0));
}

void main();
