/**
 * Docker, decided (issue 34): a suite that looks for Docker as Testcontainers does is refused with
 * one violation, docker_refused, and check says what to do instead; its twin that needs no
 * container passes. Real jailed runs through the bundled CLI, under deny and allowlist, as the
 * test's user and as nobody. This machine runs no Docker: the probe finds no socket, and is still
 * recorded and judged.
 */
import { existsSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, check, checkText, ids, program, run, sandbox, type Sandbox } from "./harness.js";

const PYTHON = "/usr/bin/python3";
const hasPython = existsSync(PYTHON);

type Mode = "as the test's user" | "as nobody";
const MODES: Mode[] = ["as the test's user", "as nobody"];
const skipMode = (mode: Mode): boolean => !hasPython || (mode === "as nobody" && !CAN_RUN_AS_NOBODY);

const HINT =
  "what to do (docker_refused): Docker is refused in the jail (its socket is root on the host). Declare the service the container would provide and start it as a job service (`services:` in the workflow) — see docs/authoring.md#suites-with-services — or run the containers outside the gated command.";

/**
 * What Testcontainers' Docker discovery does: DOCKER_HOST when set, else the default socket, then
 * the rootless one under XDG_RUNTIME_DIR; a daemon that answers /_ping is found. `--clean` is the
 * twin whose suite needs no container.
 */
const DISCOVERY = `import os, socket, sys

def pings(sock):
    try:
        sock.settimeout(5)
        sock.sendall(b"GET /_ping HTTP/1.0\\r\\nHost: docker\\r\\n\\r\\n")
        return sock.recv(64).startswith(b"HTTP/")
    finally:
        sock.close()

def reachable(url):
    try:
        if url.startswith("unix://"):
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(url[len("unix://"):])
            return pings(sock)
        if url.startswith("tcp://"):
            host, port = url[len("tcp://"):].rsplit(":", 1)
            return pings(socket.create_connection((host, int(port)), timeout=5))
    except OSError as e:
        print(f"{url}: {e}", file=sys.stderr)
    return False

if sys.argv[1:] == ["--clean"]:
    print("3 tests passed, no container needed")
    sys.exit(0)
if os.environ.get("DOCKER_HOST"):
    candidates = [os.environ["DOCKER_HOST"]]
else:
    candidates = ["unix:///var/run/docker.sock"]
    if os.environ.get("XDG_RUNTIME_DIR"):
        candidates.append("unix://" + os.environ["XDG_RUNTIME_DIR"] + "/docker.sock")
for url in candidates:
    if reachable(url):
        print("Docker found at " + url)
        sys.exit(0)
print("Could not find a valid Docker environment", file=sys.stderr)
sys.exit(1)
`;

/** The default socket as the recorder names it: every symlink resolved (on Debian and Ubuntu /var/run is /run). */
const DEFAULT_SOCKET = `unix:${realpathSync("/var/run")}/docker.sock`;

const NETWORKS = [{ network: "deny" }, { network: "allowlist", allowed_hosts: ["registry.npmjs.org:443"] }];

async function discover(s: Sandbox, mode: Mode, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const r = await run(s, [PYTHON, program(s, "discovery.py", DISCOVERY), ...args], { asNobody: mode === "as nobody", env });
  expect(r.lines[r.lines.length - 1]?.kind).toBe("end");
  return { r, report: await check(s), text: (await checkText(s)).stdout };
}

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`Docker and Testcontainers are refused (${mode})`, () => {
    for (const net of NETWORKS) {
      it(`network ${net.network}: a Testcontainers-style discovery of /var/run/docker.sock is one docker_refused, with what to do`, async () => {
        const s = sandbox(net);
        const { r, report, text } = await discover(s, mode);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("Could not find a valid Docker environment");
        expect(report.exit).toBe(1);
        expect(ids(report)).toEqual([`docker_refused:${DEFAULT_SOCKET}`]);
        expect(text).toContain(`  docker_refused:${DEFAULT_SOCKET}  first at line `);
        expect(text).toContain(`${HINT}\n`);
        expect(text).not.toContain("network_denied");
        expect(text).not.toContain("undeclared_host");
      });

      it(`network ${net.network}: the clean twin (no container needed) passes`, async () => {
        const s = sandbox(net);
        const { r, report, text } = await discover(s, mode, ["--clean"]);
        expect(r.code).toBe(0);
        expect(r.stdout).toContain("no container needed");
        expect(report.violations).toEqual([]);
        expect(report.exit).toBe(0);
        expect(text).not.toContain("docker_refused");
      });
    }

    for (const loopback of ["network", "local"] as const) {
      it(`DOCKER_HOST=tcp://127.0.0.2:2375, nothing listening, loopback ${loopback}: docker_refused:127.0.0.2:2375 (Docker's ports are judged on loopback too)`, async () => {
        const s = sandbox({
          allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "DOCKER_HOST"],
          ...(loopback === "network" ? { loopback: "network" } : {}),
        });
        const { r, report, text } = await discover(s, mode, [], { DOCKER_HOST: "tcp://127.0.0.2:2375" });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("Could not find a valid Docker environment");
        expect(ids(report)).toEqual(["docker_refused:127.0.0.2:2375"]);
        expect(text).toContain(`${HINT}\n`);
      });
    }
  });
