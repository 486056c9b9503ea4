/**
 * `envelope-gate run --audit`: jailed and recorded as usual, every host let out through the
 * recording proxy whatever `network` says; meta says `"audit": true`; `check` judges the log like
 * any other (never more leniently) and its text says the log was recorded in audit mode.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { CLI, cli } from "../support/cli.js";
import { outerAddress } from "../support/network.js";

/** The CLI as a process, without blocking this one: the test's HTTP server must answer meanwhile. */
function cliAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: args[args.indexOf("--workspace") + 1],
      stdio: ["ignore", "inherit", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (status) => done({ status, stderr }));
  });
}

const address = outerAddress();

describe.skipIf(address === null)("run --audit", () => {
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

  function setup(): { dir: string; envelope: string } {
    const dir = mkdtempSync(join(tmpdir(), "eg-run-audit-"));
    const text =
      JSON.stringify(
        {
          envelope_id: "audit-cli",
          allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
          allowed_tools: [],
          allowed_env: ["PATH", "HOME"],
          allowed_hosts: [],
          network: "deny",
        },
        null,
        2,
      ) + "\n";
    const envelope = join(dir, "envelope.json");
    writeFileSync(envelope, text);
    writeFileSync(`${envelope}.sha256`, `${createHash("sha256").update(text).digest("hex")}  envelope.json\n`);
    return { dir, envelope };
  }

  it("lets curl out to a host under network deny, records it by address:port, and check judges it network_denied", async () => {
    const { dir, envelope } = setup();
    const log = join(dir, "observer.jsonl");
    const url = `http://${address}:${port}/cli-audit`;
    const run = await cliAsync([
      "run",
      "--audit",
      "--envelope",
      envelope,
      "--observer",
      log,
      "--workspace",
      dir,
      "--",
      "curl",
      "-sS",
      "-o",
      "got.txt",
      url,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(seen).toContain("GET /cli-audit");
    expect(readFileSync(join(dir, "got.txt"), "utf8")).toBe("outside\n");
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ kind: "meta", audit: true });
    expect(lines.some((e) => e.kind === "host" && e.host === address && e.port === port && e.source === "proxy")).toBe(true);

    const text = cli(["check", "--envelope", envelope, "--observer", log]);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(`network_denied:${address}:${port}`);
    expect(text.stdout).toContain("recorded in audit mode (run --audit)");
    const json = cli(["check", "--envelope", envelope, "--observer", log, "--format", "json"]);
    const report = JSON.parse(json.stdout) as { verdict: string; log: { audit: boolean } };
    expect(report).toMatchObject({ verdict: "envelope_fail", log: { audit: true } });
  });

  it("without --audit the same command has no route out: nothing reaches the host, and the log has no meta.audit", async () => {
    const { dir, envelope } = setup();
    const log = join(dir, "observer.jsonl");
    const before = seen.length;
    const run = await cliAsync([
      "run",
      "--envelope",
      envelope,
      "--observer",
      log,
      "--workspace",
      dir,
      "--",
      "curl",
      "-sS",
      "-m",
      "5",
      `http://${address}:${port}/no-audit`,
    ]);
    expect(run.status).not.toBe(0);
    expect(seen.length).toBe(before);
    const meta = JSON.parse(readFileSync(log, "utf8").split("\n")[0] as string) as Record<string, unknown>;
    expect(meta.audit).toBeUndefined();
    const text = cli(["check", "--envelope", envelope, "--observer", log]);
    expect(text.stdout).not.toContain("audit mode");
  });
});
