/**
 * `envelope-gate suggest --run --audit`: the run is recorded as `run --audit` records it (every
 * host let out through the recording proxy, meta says `"audit": true`), then suggested from, in
 * one command. Without `--run`, `--audit` is a usage error.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, program, sandbox, spawnNode } from "../observer/harness.js";
import { outerAddress } from "../support/network.js";

const address = outerAddress();

describe.skipIf(address === null)("suggest --run --audit", () => {
  let server: http.Server;
  let port = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end("outside\n");
    });
    await new Promise<void>((done) => server.listen(0, address as string, done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it("lets a Node fetch out under network deny, records it, and suggests the host with network allowlist, under which the enforced run passes", async () => {
    const s = sandbox({ allowed_env: ["PATH"], network: "deny" });
    const url = `http://${address}:${port}/suggest-audit`;
    const prog = program(
      s,
      "fetches.js",
      `fetch(${JSON.stringify(url)}).then((r) => r.text()).then((t) => require("fs").writeFileSync("got.txt", t));`,
    );
    const log = join(s.base, "audit.jsonl");
    const suggested = join(s.base, "suggested.json");
    const r = await spawnNode(
      [CLI, "suggest", "--run", "--audit", "--envelope", s.envelope, "--observer", log, "--workspace", s.workspace].concat([
        "--write",
        suggested,
        "--",
        "node",
        prog,
      ]),
      { cwd: s.workspace },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toContain("GET /suggest-audit");
    expect(readFileSync(join(s.workspace, "got.txt"), "utf8")).toBe("outside\n");
    const meta = JSON.parse(readFileSync(log, "utf8").split("\n")[0] as string) as Record<string, unknown>;
    expect(meta).toMatchObject({ kind: "meta", audit: true });
    expect(r.stdout).toMatch(new RegExp(`\\+ +allowed_hosts +${(address as string).replaceAll(".", "\\.")}:${port} `));
    const envelope = JSON.parse(readFileSync(suggested, "utf8")) as { allowed_hosts: string[]; network: string; allowed_env: string[] };
    expect(envelope.network).toBe("allowlist");
    expect(envelope.allowed_hosts).toContain(`${address}:${port}`);
    // The wrapper's proxy keys, which every Node program of an audit run enumerates, are not proposed.
    expect(envelope.allowed_env).not.toContain("HTTP_PROXY");
    expect(envelope.allowed_env).not.toContain("NODE_USE_ENV_PROXY");

    // Enforced under the suggestion (no --audit), the same program reaches the host through the
    // allowlist proxy and the check passes.
    const enforced = join(s.base, "enforced.jsonl");
    const again = await spawnNode(
      [CLI, "run", "--envelope", suggested, "--observer", enforced, "--workspace", s.workspace, "--", "node", prog],
      { cwd: s.workspace },
    );
    expect(again.code, again.stderr).toBe(0);
    const judged = await spawnNode([CLI, "check", "--envelope", suggested, "--observer", enforced]);
    expect(judged.code, judged.stdout + judged.stderr).toBe(0);
  });

  it("without --audit the same run has no route out: nothing reaches the host, and the log has no meta.audit", async () => {
    const s = sandbox({ allowed_env: ["PATH"], network: "deny" });
    const before = seen.length;
    const prog = program(
      s,
      "fetches.js",
      `fetch(${JSON.stringify(`http://${address}:${port}/no-audit`)}).catch(() => { process.exitCode = 7; });`,
    );
    const log = join(s.base, "plain.jsonl");
    const r = await spawnNode(
      [CLI, "suggest", "--run", "--envelope", s.envelope, "--observer", log, "--workspace", s.workspace, "--", "node", prog],
      { cwd: s.workspace },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("the command exited 7");
    expect(seen.length).toBe(before);
    const meta = JSON.parse(readFileSync(log, "utf8").split("\n")[0] as string) as Record<string, unknown>;
    expect(meta.audit).toBeUndefined();
  });

  it("--audit without --run is a usage error (exit 2)", async () => {
    const s = sandbox();
    const r = await spawnNode([CLI, "suggest", "--audit", "--observer", join(s.base, "none.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--audit only with --run");
  });
});
