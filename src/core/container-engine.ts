/**
 * Container engines (Docker, Podman, containerd, BuildKit): how a host event names one. No
 * envelope allows reaching one (rules.ts judgeHost: docker_refused), the process recorder records
 * every connect to one's socket name (observer/strace.ts), and `suggest` never proposes one.
 * Kept apart from the rules so the recorder's bundle needs nothing else.
 */

/**
 * The file names of the sockets a container engine listens on: Docker's (and its Windows named
 * pipe, `//./pipe/docker_engine`), Podman's, containerd's and BuildKit's. Rootless daemons listen
 * under `/run/user/<uid>/` (`docker.sock`, `podman/podman.sock`): the same names.
 */
export const CONTAINER_ENGINE_SOCKETS: ReadonlySet<string> = new Set([
  "docker.sock",
  "podman.sock",
  "containerd.sock",
  "buildkitd.sock",
  "docker_engine",
]);

/** The Docker daemon's TCP ports: plain (2375) and TLS (2376). */
export const DOCKER_PORTS: ReadonlySet<number> = new Set([2375, 2376]);

/** A unix socket path (no `unix:`) whose file name is a container engine's socket (CONTAINER_ENGINE_SOCKETS). */
export function isContainerEngineSocket(path: string): boolean {
  return CONTAINER_ENGINE_SOCKETS.has(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * A container engine reached: a unix socket named as one's (`host` as hostName gives it, with
 * `unix:`), or a Docker daemon port on any host. No envelope allows it (docker_refused), and
 * `suggest` never proposes it.
 */
export function isContainerEngine(host: string, port: number | null): boolean {
  if (host.startsWith("unix:")) return isContainerEngineSocket(host.slice("unix:".length));
  return port !== null && DOCKER_PORTS.has(port);
}

/**
 * What to do about a docker_refused violation: said wherever the violation is (check's text,
 * the annotation, the SARIF rule's help).
 */
export const DOCKER_HINT =
  "Docker is refused in the jail (its socket is root on the host). Declare the service the container would provide and start it as a job service (`services:` in the workflow) — see docs/authoring.md#suites-with-services — or run the containers outside the gated command.";
