/**
 * Suites with services (issue 34): the job's PostgreSQL and Redis (127.0.0.1:5432 and :6379, as CI
 * has them, and as a hosted runner's `services:` publishes them) reached from the jail through the
 * declared forward, under `network: deny`; an undeclared service port judged; every name a
 * non-Node program looks up recorded by name through the jail's resolver.
 *
 * Each case runs as root and as nobody (unprivileged: the holder's user namespace is joined).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestLine } from "../support/hash.js";
import { outerAddress } from "../support/network.js";
import {
  SERVICES_UP,
  SUITE_PASSED,
  expectSuiteConnections,
  serviceLines,
  suiteEnvelope,
  suiteScript,
  undeclaredPostgres,
} from "../support/services-suite.js";
import { TEST_TMP } from "../support/test-tmp.js";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, check, ids, program, run, runWithHostsFile, sandbox } from "./harness.js";

const OUTER = outerAddress();
const GO = ["/usr/lib/go/bin/go", "/usr/bin/go"].find((g) => spawnSync(g, ["version"], { stdio: "ignore" }).status === 0);

/** A directory every user can read (the programs and sockets the runs as nobody use). */
const shared = mkdtempSync(join(TEST_TMP, "eg-services-"));
chmodSync(shared, 0o755);
afterAll(() => rmSync(shared, { recursive: true, force: true }));

/** Go's own resolver (no cgo: it reads /etc/resolv.conf and asks the nameserver itself, never glibc). */
const GO_LOOKUP = `package main

import (
	"fmt"
	"net"
	"os"
)

func main() {
	addrs, err := net.LookupHost(os.Args[1])
	fmt.Println("go lookup", addrs, err != nil)
}
`;

let goLookup: string | null = null;
beforeAll(() => {
  if (GO === undefined) return;
  const dir = join(shared, "go");
  spawnSync("mkdir", ["-p", dir]);
  writeFileSync(join(dir, "main.go"), GO_LOOKUP);
  writeFileSync(join(dir, "go.mod"), "module lookup\n\ngo 1.19\n");
  const built = spawnSync(GO, ["build", "-o", join(dir, "lookup"), "."], {
    cwd: dir,
    env: { ...process.env, CGO_ENABLED: "0", GOCACHE: join(dir, "cache"), GOFLAGS: "-mod=mod", GOPATH: join(dir, "gopath") },
    encoding: "utf8",
  });
  if (built.status === 0) {
    goLookup = join(dir, "lookup");
    chmodSync(dir, 0o755);
  } else throw new Error(`go build failed: ${built.stderr}`);
}, 120_000);

const SERVICES_ENVELOPE = suiteEnvelope();

for (const asNobody of [false, true]) {
  const who = asNobody ? "as nobody" : "as root";
  describe.skipIf(!JAIL_AVAILABLE || !SERVICES_UP || (asNobody && !CAN_RUN_AS_NOBODY))(
    `a suite with PostgreSQL and Redis, ${who}`,
    { timeout: 120_000 },
    () => {
      it("passes enforced under deny with both services declared, each connection recorded with its bytes", async () => {
        const s = sandbox(SERVICES_ENVELOPE);
        const suite = program(s, "suite.sh", suiteScript());
        const r = await run(s, ["/bin/sh", suite], { asNobody });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(SUITE_PASSED);
        const report = await check(s);
        expect(ids(report), JSON.stringify(report.violations)).toEqual([]);
        expect(report.verdict).toBe("pass");
        expectSuiteConnections(r.lines);
      });

      it("the same suite without the services declared cannot reach them: nothing listens in the jail", async () => {
        const s = sandbox(suiteEnvelope(null));
        const r = await run(s, ["/bin/sh", program(s, "suite.sh", suiteScript())], { asNobody });
        expect(r.code).not.toBe(0);
        expect(r.stdout).not.toContain(SUITE_PASSED);
        expect(serviceLines(r.lines)).toEqual([]);
      });

      it.skipIf(OUTER === null)("its hostile twin, reaching PostgreSQL by the machine's own address, fails on it", async () => {
        const s = sandbox(SERVICES_ENVELOPE);
        const extra = undeclaredPostgres(OUTER as string);
        const r = await run(s, ["/bin/sh", program(s, "suite.sh", suiteScript({ extra }))], { asNobody });
        expect(r.code, r.stderr).toBe(0);
        const report = await check(s);
        expect(report.verdict).toBe("envelope_fail");
        expect(ids(report)).toEqual([`network_denied:${OUTER as string}:5432`]);
      });

      it("a lookup by a non-Node program is recorded and judged by its name, not by the resolver's address", async () => {
        const s = sandbox();
        const r = await run(
          s,
          [
            "/bin/sh",
            "-c",
            'getent hosts exfil.example.net || true; /usr/bin/python3 -c \'import socket\ntry:\n  socket.getaddrinfo("py.exfil.example.net", 443)\nexcept OSError as e:\n  print("refused", e.errno)\'',
          ],
          { asNobody },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("refused");
        const lookups = r.lines.filter((l) => l.kind === "host" && l.source === "resolver");
        expect(lookups.map((l) => l.host)).toEqual(expect.arrayContaining(["exfil.example.net", "py.exfil.example.net"]));
        for (const l of lookups) expect(l.ok).toBe(false);
        const report = await check(s);
        expect([...new Set(ids(report))].sort()).toEqual(["network_denied:exfil.example.net", "network_denied:py.exfil.example.net"]);
      });

      it.skipIf(GO === undefined)("Go's own resolver (no glibc) asks the jail's resolver too, and is judged by the name", async () => {
        const s = sandbox();
        const r = await run(s, [goLookup as string, "go.exfil.example.net"], { asNobody });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("go lookup [] true");
        const report = await check(s);
        expect([...new Set(ids(report))]).toEqual(["network_denied:go.exfil.example.net"]);
      });

      it("a unix socket service is bound at its path in the jail and forwarded, recorded by its path", async () => {
        const dir = mkdtempSync(join(shared, "sock-"));
        chmodSync(dir, 0o755);
        const path = join(dir, "echo.sock");
        const server: Server = createServer((c) => c.pipe(c));
        await new Promise<void>((r) => server.listen(path, r));
        chmodSync(path, 0o777);
        try {
          const s = sandbox({ services: [path] });
          const client = `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect(${JSON.stringify(path)})\ns.sendall(b"ping")\nprint("echo", s.recv(4).decode())\n`;
          const r = await run(s, ["/usr/bin/python3", program(s, "client.py", client)], { asNobody });
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout).toContain("echo ping");
          const lines = serviceLines(r.lines);
          expect(lines).toEqual([expect.objectContaining({ host: `unix:${path}`, proto: "unix", bytes_in: 4, bytes_out: 4 })]);
          const report = await check(s);
          expect(ids(report)).toEqual([]);
        } finally {
          await new Promise((r) => server.close(r));
        }
      });
    },
  );
}

describe.skipIf(!JAIL_AVAILABLE || !SERVICES_UP || process.geteuid?.() !== 0)(
  "a service by its name, as in a container job",
  { timeout: 120_000 },
  () => {
    it("pgservice:5432 resolves in the jail to the forward's own address, and reaches the service the wrapper's resolver names", async () => {
      const s = sandbox({ ...SERVICES_ENVELOPE, services: ["pgservice:5432"] });
      const suite = program(
        s,
        "suite.sh",
        `getent hosts pgservice\n/usr/bin/psql -X -At -h pgservice -p 5432 -U postgres -d test -c "SELECT 40 + 2"\n`,
      );
      // The wrapper (not the jail) resolves pgservice to this machine's PostgreSQL, as Docker's DNS does for a service container.
      const r = await runWithHostsFile(s, "127.0.0.1 localhost pgservice\n", ["/bin/sh", suite]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^127\.0\.2\.1\s+pgservice$/m);
      expect(r.stdout).toMatch(/^42$/m);
      const report = await check(s);
      expect(ids(report)).toEqual([]);
    });
  },
);

describe.skipIf(!JAIL_AVAILABLE)("the jail's resolver under allowlist", { timeout: 120_000 }, () => {
  it("answers an allowed name (resolved as the proxy would) and refuses the rest, judged undeclared_host:<name>", async () => {
    const s = sandbox({ network: "allowlist", allowed_hosts: ["localhost.envelope-gate.test:443"] });
    const r = await run(s, [
      "/bin/sh",
      "-c",
      "getent ahosts other.example.org; echo other=$?; getent ahosts localhost.envelope-gate.test; echo allowed=$?",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("other=2");
    const lookups = r.lines.filter((l) => l.kind === "host" && l.source === "resolver");
    expect(lookups.find((l) => l.host === "other.example.org")?.ok).toBe(false);
    const allowed = lookups.find((l) => l.host === "localhost.envelope-gate.test");
    expect(allowed).toBeDefined();
    expect(allowed?.ok).toBeUndefined();
    const report = await check(s);
    expect(ids(report)).toEqual(["undeclared_host:other.example.org"]);
  });
});

describe("a service the envelope can never declare", () => {
  it.each([
    ["169.254.169.254:80", "link-local"],
    ["10.1.2.3:5432", "not a loopback address"],
    ["metadata.google.internal:80", "metadata"],
    ["127.0.0.1:22", "SSH"],
    ["127.0.0.1:2375", "Docker daemon"],
    ["/var/run/docker.sock", "Docker daemon"],
    ["/run/user/1000/ssh-agent.socket", "credential agent"],
  ])("%s is SERVICE_NOT_ALLOWED naming the line (%s)", async (entry, why) => {
    const s = sandbox({ services: [entry] });
    const r = await run(s, ["/bin/true"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("SERVICE_NOT_ALLOWED");
    expect(r.stderr).toContain(why);
    expect(r.stderr).toMatch(/envelope\.json:\d+:/);
  });

  it.skipIf(!JAIL_AVAILABLE)("a declared service that is not answering is SERVICE_UNAVAILABLE, and nothing runs", async () => {
    const s = sandbox({ services: ["127.0.0.1:9"] });
    const marker = `${s.workspace}/ran`;
    const r = await run(s, ["/bin/sh", "-c", `touch ${marker}`]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("SERVICE_UNAVAILABLE");
    expect(r.stderr).toContain("127.0.0.1:9");
  });
});

describe.skipIf(!JAIL_AVAILABLE)("the jail's network plumbing under attack", { timeout: 120_000 }, () => {
  it("a unix socket service inside a root (or behind a link into one) is SERVICE_NOT_ALLOWED: the run could swap it", async () => {
    const probe = sandbox();
    for (const path of [join(probe.workspace, "sock/svc.sock"), join(probe.outside, "link.sock")]) {
      const s = sandbox({ services: [path.replace(probe.base, "BASE")] });
      const real = path.replace(probe.base, s.base);
      writeFileSync(s.envelope, readFileSync(s.envelope, "utf8").replace(`BASE`, s.base));
      writeFileSync(`${s.envelope}.sha256`, digestLine(readFileSync(s.envelope, "utf8"), "envelope.json"));
      if (real.endsWith("link.sock")) symlinkSync(join(s.workspace, "svc.sock"), real);
      const r = await run(s, ["/bin/true"]);
      expect(r.code, real).not.toBe(0);
      expect(r.stderr).toContain("SERVICE_NOT_ALLOWED");
      expect(r.stderr).toContain("inside a place the run can write");
    }
  });

  it("under allowlist a service at the egress relay's address (127.0.0.1:3128) is SERVICE_NOT_ALLOWED", async () => {
    const s = sandbox({ network: "allowlist", services: ["127.0.0.1:3128"] });
    const r = await run(s, ["/bin/true"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("SERVICE_NOT_ALLOWED");
    expect(r.stderr).toContain("egress relay");
  });

  it("an empty datagram to the resolver does not end it: the lookup after it is still recorded and judged", async () => {
    const s = sandbox();
    const client = `import socket, time\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"", ("127.0.0.1", 53))\ntime.sleep(0.5)\ntry:\n  socket.getaddrinfo("after-empty.example.net", 443)\nexcept OSError:\n  print("refused")\n`;
    const r = await run(s, ["/usr/bin/python3", program(s, "empty.py", client)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("refused");
    const report = await check(s);
    expect([...new Set(ids(report))]).toEqual(["network_denied:after-empty.example.net"]);
  });

  it("the holder killed while the jail runs: the run is refused (JAIL_UNAVAILABLE), never a log that passes", async () => {
    const s = sandbox();
    let wrapperPid = 0;
    const started = join(s.workspace, "started");
    const running = run(s, ["/bin/sh", "-c", `touch ${started}; sleep 5; getent hosts after-kill.example.net; exit 0`], {
      onStart: (pid) => (wrapperPid = pid),
    });
    // Once the command runs (the holder has long been up), never while the run sets up.
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 50));
    const holder = await findHolder(() => wrapperPid);
    process.kill(holder, "SIGKILL");
    const r = await running;
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("JAIL_UNAVAILABLE");
    expect(r.stderr).toContain("network holder ended");
    const report = await check(s);
    expect(report.verdict).not.toBe("pass");
  });
});

/** The network holder among the wrapper's descendants (its command line names dist/netns), once it is up. */
async function findHolder(wrapper: () => number): Promise<number> {
  for (;;) {
    const root = wrapper();
    if (root !== 0) {
      const children = new Map<number, number[]>();
      for (const name of readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        try {
          const stat = readFileSync(`/proc/${name}/stat`, "utf8");
          const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
          children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
        } catch {
          continue;
        }
      }
      const queue = [root];
      while (queue.length > 0) {
        const pid = queue.shift() as number;
        try {
          if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("netns/index.js") && pid !== root) return pid;
        } catch {
          // gone
        }
        queue.push(...(children.get(pid) ?? []));
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
