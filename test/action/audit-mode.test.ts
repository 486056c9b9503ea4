/**
 * Input `mode: audit`: the bundled Action runs the command jailed with `--audit` (every host let
 * out through the recording proxy), judges the log as check does, suggests an envelope, and
 * reports a neutral `<check-name> (audit)` check; pull_request and push events; a repository
 * without an envelope gets the starter; a broken pinned envelope and a bad mode are errors.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STARTER_ENVELOPE_TEXT } from "../../src/core/audit.js";
import { loadEnvelope } from "../../src/core/envelope.js";
import { verifyBundle } from "../../src/core/evidence.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import {
  ACTION_BUNDLE,
  DIGEST_PATH,
  ENVELOPE_PATH,
  REPO,
  envelopeHash,
  envelopeText,
  makePull,
  policyFiles,
  runAction,
} from "../support/action-harness.js";
import { outerAddress } from "../support/network.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME"] });
const READS_KEY = `node -e "process.env.AUDIT_SEEN_MODE; require('fs').writeFileSync('out.txt', 'ok')"`;

const sha256 = (b: Uint8Array | string): string => createHash("sha256").update(b).digest("hex");

function bundleOf(dir: string): Map<string, Uint8Array> {
  return new Map(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
}

function checksOn(sha: string) {
  return fake.repo(REPO).checkRuns.filter((c) => c.head_sha === sha);
}

describe("mode audit on a pull request", () => {
  it("records the run, says what enforce would report, and suggests the envelope: a neutral `<check-name> (audit)` check", async () => {
    // Not an agent's pull request: audit records every run.
    const p = makePull(fake, { number: 1, author: "octocat", base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { mode: "audit", run: READS_KEY } });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    const checks = checksOn(p.headSha);
    expect(checks.map((c) => c.name)).toEqual(["envelope-gate (audit)"]);
    const check = checks[0];
    expect(check?.conclusion).toBe("neutral");
    expect(check?.output.title).toBe("audit: 1 violation under the current envelope; suggested envelope adds 1 entry");
    const summary = check?.output.summary ?? "";
    expect(summary).toContain("`undeclared_env:AUDIT_SEEN_MODE`");
    expect(summary).toContain("```diff\n");
    expect(summary).toMatch(/\n\+ {5}"AUDIT_SEEN_MODE"\n/);
    expect(summary).toContain("properties are not scored");
    expect(run.summary).toContain(summary.slice(0, 200));
    expect(readFileSync(join(run.workspace, "out.txt"), "utf8")).toBe("ok");

    expect(run.outputs.verdict).toBe("audit");
    expect(run.outputs.conclusion).toBe("neutral");
    expect(run.outputs["envelope-hash"]).toBe(envelopeHash(ENVELOPE));
    expect(JSON.parse(run.outputs.violations ?? "[]")).toMatchObject([{ id: "undeclared_env:AUDIT_SEEN_MODE" }]);
    const suggestedPath = run.outputs["suggested-envelope"] as string;
    expect(suggestedPath).toBe(join(run.evidenceDir, "suggested-envelope.json"));
    const suggested = readFileSync(suggestedPath);
    expect(loadEnvelope(suggested, "suggested").envelope.allowed_env).toContain("AUDIT_SEEN_MODE");
    expect(readFileSync(`${suggestedPath}.sha256`, "utf8")).toBe(`${sha256(suggested)}  envelope.json\n`);
    expect(summary).toContain(`${sha256(suggested)}  envelope.json`);

    const files = bundleOf(run.evidenceDir);
    expect(verifyBundle(files).digest).toBe(run.outputs["evidence-digest"]);
    expect([...files.keys()].sort()).toEqual([
      "envelope.json.sha256",
      "manifest.json",
      "manifest.json.sha256",
      "observer.jsonl",
      "properties.json",
      "runner.json",
      "suggested-envelope.json",
      "suggested-envelope.json.sha256",
      "verdict.json",
    ]);
    const runner = JSON.parse(readFileSync(join(run.evidenceDir, "runner.json"), "utf8"));
    expect(runner).toMatchObject({ mode: "audit", pull_number: 1, head_sha: p.headSha, envelope_hash: envelopeHash(ENVELOPE) });
    const meta = JSON.parse(readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8").split("\n")[0] as string);
    expect(meta.audit).toBe(true);
    // The verdict is what check says of the log: the violation, never softened.
    const verdict = JSON.parse(readFileSync(join(run.evidenceDir, "verdict.json"), "utf8"));
    expect(verdict).toMatchObject({ verdict: "envelope_fail", log: { audit: true } });
  });

  it("an enforce run's runner.json says mode enforce", async () => {
    const p = makePull(fake, { number: 2, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { run: "node -e 0" } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(run.evidenceDir, "runner.json"), "utf8")).mode).toBe("enforce");
    expect(run.outputs["suggested-envelope"]).toBe("");
  });

  it("an envelope that does not match its digest is ENVELOPE_HASH_MISMATCH and a failed check, as in enforce", async () => {
    const base = { [ENVELOPE_PATH]: ENVELOPE, [DIGEST_PATH]: `${"0".repeat(64)}  envelope.json\n` };
    const p = makePull(fake, { number: 3, base });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { mode: "audit", run: READS_KEY } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("error");
    expect(run.outputs["error-code"]).toBe("ENVELOPE_HASH_MISMATCH");
    expect(run.outputs["suggested-envelope"]).toBe("");
    const checks = checksOn(p.headSha);
    expect(checks.map((c) => [c.name, c.conclusion])).toEqual([["envelope-gate (audit)", "failure"]]);
    // Nothing ran: the workspace has no out.txt.
    expect(existsSync(join(run.workspace, "out.txt"))).toBe(false);
  });

  it("an envelope without its digest is ENVELOPE_DIGEST_MISSING: only a repository with neither gets the starter", async () => {
    const p = makePull(fake, { number: 4, base: { [ENVELOPE_PATH]: ENVELOPE } });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { mode: "audit", run: READS_KEY } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("ENVELOPE_DIGEST_MISSING");
  });

  it("a run that cannot be observed (no observer beside the bundle) is OBSERVER_UNAVAILABLE and a failed check, never neutral", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eg-audit-bundle-"));
    copyFileSync(ACTION_BUNDLE, join(dir, "index.js"));
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    const p = makePull(fake, { number: 9, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, bundle: join(dir, "index.js"), inputs: { mode: "audit", run: "node -e 0" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({
      verdict: "error",
      conclusion: "failure",
      "error-code": "OBSERVER_UNAVAILABLE",
      "suggested-envelope": "",
    });
    expect(checksOn(p.headSha).map((c) => [c.name, c.conclusion])).toEqual([["envelope-gate (audit)", "failure"]]);
    expect(JSON.parse(readFileSync(join(run.evidenceDir, "runner.json"), "utf8")).mode).toBe("audit");
  });

  it("attack: a pull request whose own workflow says audit (and names the required check) never produces a `<check-name>` check", async () => {
    const p = makePull(fake, { number: 5, base: policyFiles(ENVELOPE) });
    for (const inputs of <Record<string, string>[]>[
      { mode: "audit", run: "node -e 0", "check-name": "envelope-gate" },
      { mode: "audit", run: "node -e 0" },
      { mode: "audit", run: "node -e 0", "dual-run-id": "dr-1" },
    ]) {
      const run = await runAction({ apiUrl: fake.url, pull: p, inputs });
      expect(["audit", "error"]).toContain(run.outputs.verdict);
    }
    const checks = checksOn(p.headSha);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.some((c) => c.name === "envelope-gate")).toBe(false);
    for (const c of checks) {
      expect(c.name).toBe("envelope-gate (audit)");
      expect(c.conclusion).not.toBe("success");
    }
  });
});

describe("mode audit on a push", () => {
  it("reads the envelope at the pushed commit; none there: the starter envelope is applied and widened", async () => {
    if (!fake.state.repos.has(REPO)) fake.addRepo(REPO);
    const sha = fake.commit(REPO, { "README.md": "# widgets\n" }, { parent: null, branch: "main", message: "first" });
    const run = await runAction({
      apiUrl: fake.url,
      eventName: "push",
      event: { ref: "refs/heads/main", after: sha },
      env: { GITHUB_SHA: sha, GITHUB_REF: "refs/heads/main" },
      inputs: { mode: "audit", run: READS_KEY },
    });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    expect(run.outputs.verdict).toBe("audit");
    expect(run.outputs["envelope-id"]).toBe("starter-envelope");
    expect(run.outputs["envelope-hash"]).toBe(`sha256:${sha256(STARTER_ENVELOPE_TEXT)}`);
    const checks = checksOn(sha);
    expect(checks.map((c) => [c.name, c.conclusion])).toEqual([["envelope-gate (audit)", "neutral"]]);
    const summary = checks[0]?.output.summary ?? "";
    expect(summary).toContain("the starter envelope was applied");
    expect(summary).toContain("on `refs/heads/main`");
    const suggested = loadEnvelope(readFileSync(run.outputs["suggested-envelope"] as string), "s").envelope;
    expect(suggested.allowed_env).toEqual(expect.arrayContaining(["PATH", "@ci", "AUDIT_SEEN_MODE"]));
    expect(suggested.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
    const runner = JSON.parse(readFileSync(join(run.evidenceDir, "runner.json"), "utf8"));
    expect(runner).toMatchObject({ mode: "audit", pull_number: null, head_sha: sha, envelope_id: "starter-envelope" });
  });

  it("a tag push is not a branch: CONFIG_INVALID", async () => {
    const run = await runAction({
      apiUrl: fake.url,
      eventName: "push",
      event: { ref: "refs/tags/v1" },
      env: { GITHUB_SHA: "c".repeat(40), GITHUB_REF: "refs/tags/v1" },
      inputs: { mode: "audit", run: "node -e 0" },
    });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("CONFIG_INVALID");
  });
});

describe("check-name and the audit suffix", () => {
  it("a check-name ending in ' (audit)' is CONFIG_INVALID, so an audit run's neutral '<name> (audit)' is never a name an enforced check has", async () => {
    // The required check would be "gate (audit)"; a pull request that switches its workflow to
    // audit with check-name "gate" would post a neutral "gate (audit)" on its head.
    const p = makePull(fake, { number: 21, base: policyFiles(ENVELOPE) });
    const enforced = await runAction({ apiUrl: fake.url, pull: p, inputs: { "check-name": "gate (audit)", run: "node -e 0" } });
    expect(enforced.exitCode).toBe(1);
    expect(enforced.outputs["error-code"]).toBe("CONFIG_INVALID");
    expect(enforced.stdout + enforced.summary).toContain('check-name must not end in " (audit)"');
    expect(checksOn(p.headSha)).toEqual([]);
    // Nor under audit (its check would be "gate (audit) (audit)", the name of nothing but itself, yet the input is the same).
    const audited = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { mode: "audit", "check-name": "gate (audit)", run: "node -e 0" },
    });
    expect(audited.exitCode).toBe(1);
    expect(audited.outputs["error-code"]).toBe("CONFIG_INVALID");
    // A name that only contains the words is fine.
    const fine = await runAction({ apiUrl: fake.url, pull: p, inputs: { "check-name": "gate (audit) log", run: "node -e 0" } });
    expect(fine.exitCode, fine.stdout + fine.stderr).toBe(0);
    expect(checksOn(p.headSha).map((c) => c.name)).toEqual(["gate (audit) log"]);
  });
});

describe("input mode", () => {
  it("anything but enforce or audit is CONFIG_INVALID naming the input", async () => {
    const p = makePull(fake, { number: 6, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { mode: "bogus", run: "node -e 0" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("error");
    expect(run.outputs["error-code"]).toBe("CONFIG_INVALID");
    expect(run.stdout + run.summary).toContain('input mode must be enforce or audit, got "bogus"');
    expect(checksOn(p.headSha)).toEqual([]);
  });
});

describe.skipIf(outerAddress() === null)("mode audit lets every host out, recorded", () => {
  let server: http.Server;
  let port = 0;
  const seen: string[] = [];
  const address = outerAddress() as string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end("hello from outside\n");
    });
    await new Promise<void>((done) => server.listen(0, address, done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it("curl reaches a host through the proxy under network deny; the host is recorded by address:port, a violation, and suggested", async () => {
    const p = makePull(fake, { number: 8, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { mode: "audit", run: `curl -sS -o fetched.txt http://${address}:${port}/audit-probe` },
      timeoutMs: 90_000,
    });
    expect(run.exitCode, run.stdout + run.stderr + run.summary).toBe(0);
    expect(seen).toContain("GET /audit-probe");
    expect(readFileSync(join(run.workspace, "fetched.txt"), "utf8")).toBe("hello from outside\n");
    const endpoint = `${address}:${port}`;
    const log = readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.some((e) => e.kind === "host" && e.host === address && e.port === port && e.source === "proxy")).toBe(true);
    const violations = JSON.parse(run.outputs.violations ?? "[]") as { id: string }[];
    expect(violations.map((v) => v.id)).toContain(`network_denied:${endpoint}`);
    const suggested = loadEnvelope(readFileSync(run.outputs["suggested-envelope"] as string), "s").envelope;
    expect(suggested.network).toBe("allowlist");
    expect(suggested.allowed_hosts).toContain(endpoint);
    const summary = checksOn(p.headSha)[0]?.output.summary ?? "";
    expect(summary).toMatch(/\| hosts \| 1 \|/);
  });
});

describe("input recorder", () => {
  it("strace records with strace (meta.recorder); anything but auto, ebpf or strace is CONFIG_INVALID naming the input", async () => {
    const p = makePull(fake, { number: 31, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { recorder: "strace", run: "node -e 0" } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const meta = JSON.parse(readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8").split("\n")[0] as string);
    expect(meta.recorder).toEqual({ name: "strace" });
    const q = makePull(fake, { number: 32, base: policyFiles(ENVELOPE) });
    const bad = await runAction({ apiUrl: fake.url, pull: q, inputs: { recorder: "bpftrace", run: "node -e 0" } });
    expect(bad.exitCode).toBe(1);
    expect(bad.outputs["error-code"]).toBe("CONFIG_INVALID");
    expect(bad.stdout + bad.summary).toContain('input recorder must be auto, ebpf or strace, got "bpftrace"');
  });
});
