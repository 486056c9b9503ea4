/**
 * The envelope's `services`: the job's own services (a database, a cache) the run may reach
 * through envelope-gate's forward (docs/egress.md, Services). Pure: what an entry means, which
 * entries can never be a service, and whether a recorded connection is one of them.
 */
import { addressBytes } from "./dns-wire.js";
import { normalizeHost } from "./hosts.js";

/** Whether `host` is an IP literal (4 or 16 bytes), not a name. */
function isIpLiteral(host: string): boolean {
  return addressBytes(host) !== null;
}

/** A TCP service: a loopback address of the runner, or a name (a service container in a container job). */
export interface TcpService {
  kind: "tcp";
  /** The entry as written in the envelope. */
  source: string;
  /** Lower-case name or IP literal (IPv6 without brackets). */
  host: string;
  port: number;
}

/** A unix socket service (MySQL's `/var/run/mysqld/mysqld.sock`), by its absolute path. */
export interface UnixService {
  kind: "unix";
  source: string;
  path: string;
}

export type Service = TcpService | UnixService;

/** Ports that are never a service: the resolver's own, SSH, the Docker daemon. */
const REFUSED_PORTS: ReadonlyMap<number, string> = new Map([
  [53, "port 53 is the jail's resolver"],
  [22, "port 22 is SSH: a shell on the machine, not a service of the job"],
  [2375, "port 2375 is the Docker daemon, which is root on the host"],
  [2376, "port 2376 is the Docker daemon, which is root on the host"],
]);

/** Names of cloud metadata services (credentials of the machine's identity). */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.com",
]);

/** Socket file names that are root on the host or hand out the runner's credentials. */
const REFUSED_SOCKET_NAMES =
  /^(?:docker\.sock|podman\.sock|containerd\.sock|buildkitd\.sock|docker_engine|S\.gpg-agent.*|ssh-agent.*|agent\.\d+)$/;

/** Directories of sockets that belong to the machine, not to a job's service. */
const REFUSED_SOCKET_DIRS = [
  "/run/systemd",
  "/var/run/systemd",
  "/run/dbus",
  "/var/run/dbus",
  "/run/docker",
  "/var/run/docker",
  "/run/containerd",
  "/run/podman",
  "/run/user",
];

function isLinkLocal(host: string): boolean {
  return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host) || host === "fd00:ec2::254";
}

/** 127.0.0.0/8 or ::1: a service the runner itself listens on. */
export function isLoopbackAddress(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1";
}

/**
 * One `services` entry (already shape-checked by the schema), or why it can never be a service.
 * `127.0.0.1:5432`, `[::1]:6379`, `localhost:5432`, `postgres:5432` (a container job's service
 * name), `/var/run/mysqld/mysqld.sock`.
 */
export function parseService(entry: string): Service | { refused: string } {
  if (entry.startsWith("/")) {
    if (entry.includes("\0") || entry.split("/").some((part) => part === "." || part === "..")) {
      return { refused: "a socket path must be absolute, without . or .. parts" };
    }
    const name = entry.slice(entry.lastIndexOf("/") + 1);
    if (REFUSED_SOCKET_NAMES.test(name)) {
      return { refused: `${name} is the Docker daemon's or a credential agent's socket, never a job's service` };
    }
    const dir = REFUSED_SOCKET_DIRS.find((d) => entry === d || entry.startsWith(`${d}/`));
    if (dir !== undefined) return { refused: `sockets under ${dir} are the machine's, never a job's service` };
    return { kind: "unix", source: entry, path: entry };
  }
  let host: string;
  let portText: string;
  if (entry.startsWith("[")) {
    const close = entry.indexOf("]");
    host = entry.slice(1, close);
    portText = entry.slice(close + 2);
  } else {
    const colon = entry.lastIndexOf(":");
    host = entry.slice(0, colon);
    portText = entry.slice(colon + 1);
  }
  host = normalizeHost(host);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { refused: "its port is outside 1-65535" };
  const portRefusal = REFUSED_PORTS.get(port);
  if (portRefusal !== undefined) return { refused: portRefusal };
  if (isIpLiteral(host)) {
    if (isLinkLocal(host)) return { refused: `${host} is link-local, where cloud metadata services live` };
    if (!isLoopbackAddress(host)) {
      return {
        refused: `${host} is not a loopback address: a service is reached at a loopback address of the runner (127.0.0.1:5432, [::1]:6379) or by its name in a container job (postgres:5432)`,
      };
    }
  } else if (METADATA_NAMES.has(host)) {
    return { refused: `${host} is a cloud metadata service` };
  }
  return { kind: "tcp", source: entry, host, port };
}

/** The envelope's services, parsed (an entry that is refused was refused when the envelope was loaded). */
export function servicesOf(entries: readonly string[] | undefined): Service[] {
  const out: Service[] = [];
  for (const entry of entries ?? []) {
    const parsed = parseService(entry);
    if ("kind" in parsed) out.push(parsed);
  }
  return out;
}

/**
 * Whether a recorded host is a declared service: a connection to `host:port` (the recorded host as
 * hostName gives it: `unix:/path` for a socket), or a lookup (`port` null) of a service's name.
 */
export function isDeclaredService(services: readonly Service[], host: string, port: number | null): boolean {
  for (const s of services) {
    if (s.kind === "unix") {
      if (host === `unix:${s.path}`) return true;
      continue;
    }
    if (host !== s.host) continue;
    if (port === null ? !isIpLiteral(host) : port === s.port) return true;
  }
  return false;
}
