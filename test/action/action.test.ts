/**
 * The bundled Action (dist/index.js) run as a process against a local GitHub (real HTTP, the
 * real Octokit client inside the bundle). Build first: node scripts/build.mjs.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBundle } from "../../src/core/evidence.js";
import { failureFingerprint, loadProperties, scoreOutputSchema } from "../../src/core/properties.js";
import { closedPort, startFakeGitHub, type FakeCheckRun, type FakeGitHub } from "../support/fake-github.js";
import {
  DIGEST_PATH,
  ENVELOPE_PATH,
  LEDGER_HEADER,
  LEDGER_PATH,
  PROPERTIES_PATH,
  REPO,
  dayOffset,
  envelopeHash,
  envelopeText,
  SOME_FINGERPRINT,
  freezeWithEvidence,
  ledgerRow,
  makePull,
  observerLog,
  policyFiles,
  runAction,
  type ActionRun,
  type LogEvent,
  type PullFixture,
  type PullSetup,
} from "../support/action-harness.js";
import { shownText } from "../support/gfm.js";
import { VERSION } from "../../src/core/version.js";

let fake: FakeGitHub;
let nextPull = 100;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
  fake.repo(REPO).collaborators.set("maintainer-mia", "maintain");
  fake.repo(REPO).collaborators.set("reader-rob", "read");
});
afterAll(() => fake.close());

const BASE_ENVELOPE = envelopeText();
const BASE_HASH = envelopeHash(BASE_ENVELOPE);
const CLEAN_EVENTS: LogEvent[] = [
  { kind: "tool", name: "read_file" },
  { kind: "env", key: "PATH" },
  { kind: "write", path: "/work/src/widget.ts", op: "write" },
];

function pull(setup: Partial<PullSetup> = {}): PullFixture {
  return makePull(fake, { number: ++nextPull, base: policyFiles(BASE_ENVELOPE), ...setup });
}

async function gate(
  p: PullFixture,
  log: string,
  extra: { inputs?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<ActionRun> {
  return runAction({
    apiUrl: fake.url,
    pull: p,
    inputs: { "observer-log": "observer.jsonl", workspace: "/work", ...extra.inputs },
    workspaceFiles: { "observer.jsonl": log },
    ...(extra.env ? { env: extra.env } : {}),
  });
}

function checkRunFor(p: PullFixture, name = "envelope-gate"): FakeCheckRun {
  const run = fake
    .repo(REPO)
    .checkRuns.filter((c) => c.head_sha === p.headSha && c.name === name)
    .at(-1);
  if (!run) throw new Error(`no check run "${name}" on ${p.headSha}`);
  return run;
}

function bundle(dir: string): Map<string, Uint8Array> {
  return new Map(readdirSync(dir).map((name) => [name, new Uint8Array(readFileSync(join(dir, name)))]));
}

describe("the Action on pull requests", () => {
  it("passes a clean agent PR: success check run, outputs, job summary and a verifiable evidence bundle", async () => {
    const p = pull();
    const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const check = checkRunFor(p);
    expect(check.conclusion).toBe("success");
    expect(check.output.title).toMatch(/^pass: /);
    expect(check.output.summary).toContain(BASE_HASH);
    expect(check.output.summary).toContain("widgets-agent-envelope-v1");
    expect((check.output.summary ?? "").trimEnd().split("\n").at(-1)).toBe(`Judged by envelope-gate ${VERSION}.`);
    expect(run.summary).toContain(BASE_HASH);
    expect(run.outputs.verdict).toBe("pass");
    expect(run.outputs.conclusion).toBe("success");
    expect(run.outputs["envelope-hash"]).toBe(BASE_HASH);
    expect(run.outputs["check-run-id"]).toBe(String(check.id));

    const files = bundle(run.evidenceDir);
    expect([...files.keys()].sort()).toEqual(
      [
        "envelope-gate.sarif",
        "envelope.json.sha256",
        "footprint.json",
        "manifest.json",
        "manifest.json.sha256",
        "observer.jsonl",
        "properties.json",
        "runner.json",
        "verdict.json",
      ].sort(),
    );
    const { digest } = verifyBundle(files);
    expect(run.outputs["evidence-digest"]).toBe(digest);
    expect(run.outputs["evidence-dir"]).toBe(run.evidenceDir);
    const runner = JSON.parse(Buffer.from(files.get("runner.json") as Uint8Array).toString());
    expect(runner).toMatchObject({
      runner_name: "fake-runner-1",
      os: "Linux",
      head_sha: p.headSha,
      pull_number: p.number,
      envelope_hash: BASE_HASH,
      dual_run_id: null,
      workflow_run_id: "4242",
      envelope_gate_version: VERSION,
    });
    expect(runner.cpus).toBeGreaterThan(0);
    for (const key of ["machine_id", "arch", "cpu_model", "locale", "timezone", "run_id", "run_attempt", "repository", "envelope_id"])
      expect(runner).toHaveProperty(key);
    expect(Buffer.from(files.get("envelope.json.sha256") as Uint8Array).toString()).toBe(`${BASE_HASH.slice(7)}  envelope.json\n`);
    // The policy was read at the base commit through the contents API.
    const reads = fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").filter((r) => r.query.includes(p.baseSha));
    expect(reads.map((r) => decodeURIComponent(r.path))).toContain(`/repos/${REPO}/contents/${ENVELOPE_PATH}`);
  });

  it("fails a violating PR with one annotation per distinct violation at the envelope rule's line", async () => {
    const p = pull();
    const log = observerLog(BASE_HASH, [
      ...CLEAN_EVENTS,
      { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
      { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
      { kind: "write", path: "/home/runner/.ssh/authorized_keys", op: "write" },
      { kind: "host", host: "exfil.example.net", port: 443 },
    ]);
    const run = await gate(p, log);
    expect(run.exitCode).toBe(1);
    const check = checkRunFor(p);
    expect(check.conclusion).toBe("failure");
    expect(check.output.title).toMatch(/^envelope_fail: 3 envelope violations/);
    const byTitle = new Map(check.annotations.map((a) => [a.title, a]));
    expect([...byTitle.keys()].sort()).toEqual(
      [
        "network_denied:exfil.example.net:443",
        "undeclared_env:AWS_SECRET_ACCESS_KEY",
        "write_outside_root:/home/runner/.ssh/authorized_keys",
      ].sort(),
    );
    const envelopeLines = BASE_ENVELOPE.split("\n");
    const lineOf = (key: string) => envelopeLines.findIndex((l) => l.includes(`"${key}"`)) + 1;
    const env = byTitle.get("undeclared_env:AWS_SECRET_ACCESS_KEY");
    expect(env).toMatchObject({ path: ENVELOPE_PATH, start_line: lineOf("allowed_env"), annotation_level: "failure" });
    expect(env?.message).toContain("read the environment key AWS_SECRET_ACCESS_KEY");
    expect(env?.message).toContain("2 times");
    expect(byTitle.get("network_denied:exfil.example.net:443")?.start_line).toBe(lineOf("network"));
    expect(byTitle.get("write_outside_root:/home/runner/.ssh/authorized_keys")?.start_line).toBe(lineOf("allowed_roots"));
    expect(check.output.summary).toContain("`undeclared_env:AWS_SECRET_ACCESS_KEY`");
    // Which rule broke, what touched what, and where the envelope says so, without opening a log.
    expect(check.output.summary).toContain(`${ENVELOPE_PATH}:${lineOf("allowed_env")} (\`allowed_env\`)`);
    expect(shownText(check.output.summary)).toContain("read the environment key AWS_SECRET_ACCESS_KEY");
    expect(run.outputs.verdict).toBe("envelope_fail");
    expect(JSON.parse(run.outputs.violations as string)).toHaveLength(3);
  });

  it("gives a non-agent PR a neutral check run that says why it was not gated", async () => {
    const p = pull({ author: "human-hannah" });
    const run = await gate(p, observerLog(BASE_HASH, [{ kind: "tool", name: "curl" }]));
    expect(run.exitCode).toBe(0);
    const check = checkRunFor(p);
    expect(check.conclusion).toBe("neutral");
    expect(check.output.title).toMatch(/^not_gated: /);
    expect(check.output.summary).toContain("human-hannah matches none of agent-authors");
    expect(run.outputs.verdict).toBe("not_gated");
    expect(run.outputs.gated).toBe("false");
    // The envelope id and hash are printed in every check run, gated or not.
    expect(check.output.summary).toContain(BASE_HASH);
    expect(check.output.summary).toContain("widgets-agent-envelope-v1");
    expect(run.outputs["evidence-dir"]).toBe("");
  });

  it("keeps a non-agent PR neutral when the base has no envelope, and says the envelope was not shown", async () => {
    const p = pull({ author: "human-hannah", base: { "README.md": "hi\n" } });
    const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
    expect(run.exitCode).toBe(0);
    const check = checkRunFor(p);
    expect(check.conclusion).toBe("neutral");
    expect(shownText(check.output.summary)).toContain("ENVELOPE_MISSING");
    expect(shownText(check.output.summary)).toContain("Nothing was evaluated");
  });

  it("gates a human PR that carries the agent label, and every PR with gate-all", async () => {
    const labelled = pull({ author: "human-hannah", labels: ["agent-authored"] });
    const run = await gate(labelled, observerLog(BASE_HASH, [{ kind: "tool", name: "curl" }]));
    expect(run.exitCode).toBe(1);
    expect(checkRunFor(labelled).conclusion).toBe("failure");
    const all = pull({ author: "human-hannah" });
    const run2 = await gate(all, observerLog(BASE_HASH, CLEAN_EVENTS), { inputs: { "gate-all": "true" } });
    expect(run2.exitCode).toBe(0);
    expect(checkRunFor(all).conclusion).toBe("success");
  });

  describe("a PR that changes the policy", () => {
    const widened = envelopeText({ allowed_env: [...(JSON.parse(BASE_ENVELOPE).allowed_env as string[]), "AWS_SECRET_ACCESS_KEY"] });
    const widenedHash = envelopeHash(widened);

    it("is action_required until an allowed reviewer approves the head commit", async () => {
      const p = pull({ head: policyFiles(widened) });
      // Approvals that do not count: the author's own, a read-only user's, and one on an older commit.
      fake.addReview(REPO, p.number, { user: { login: "copilot-swe-agent[bot]" }, state: "APPROVED", commit_id: p.headSha });
      fake.addReview(REPO, p.number, { user: { login: "reader-rob" }, state: "APPROVED", commit_id: p.headSha });
      fake.addReview(REPO, p.number, { user: { login: "maintainer-mia" }, state: "APPROVED", commit_id: p.baseSha });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("action_required");
      expect(check.output.title).toMatch(/^action_required: /);
      expect(check.output.summary).toContain(ENVELOPE_PATH);
      expect(check.output.summary).toContain(DIGEST_PATH);
      expect(check.output.summary).toContain("base commit");
      expect(run.outputs["policy-changed"]).toBe("true");
    });

    it("applies the head's envelope once a write collaborator approves the head commit", async () => {
      const p = pull({ head: policyFiles(widened) });
      fake.addReview(REPO, p.number, { user: { login: "maintainer-mia" }, state: "APPROVED", commit_id: p.headSha });
      const run = await gate(p, observerLog(widenedHash, [...CLEAN_EVENTS, { kind: "env", key: "AWS_SECRET_ACCESS_KEY" }]));
      expect(run.exitCode, run.summary).toBe(0);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("success");
      expect(check.output.summary).toContain(widenedHash);
      expect(check.output.summary).toContain("@maintainer-mia");
      expect(run.outputs["envelope-hash"]).toBe(widenedHash);
    });

    it("sees a policy edit that is file 3001 of a large pull request, past the files listing's end", async () => {
      const many: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) many[`src/gen/f${String(i).padStart(4, "0")}.ts`] = `export const f = ${i};\n`;
      const head = { ...many, ...policyFiles(widened) };
      // The listing puts the envelope last, where GitHub's 3000-file cap cuts it off.
      const files = Object.keys(head).map((filename) => ({
        filename,
        status: filename.startsWith("src/") ? ("added" as const) : ("modified" as const),
      }));
      const p = pull({ head, files });
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/pulls/:pull_number/files").length;
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(fake.requestsTo("GET", "/repos/:owner/:repo/pulls/:pull_number/files").length - before).toBe(30);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("action_required");
      expect(check.output.summary).toContain(ENVELOPE_PATH);
      expect(run.outputs["policy-changed"]).toBe("true");
    });

    it("counts a custom role by the base permission it grants", async () => {
      const repo = fake.repo(REPO);
      repo.customRoles.set("security-reviewer", "maintain");
      repo.customRoles.set("auditor", "triage");
      repo.collaborators.set("sec-sofia", "security-reviewer");
      repo.collaborators.set("audit-al", "auditor");
      const byAuditor = pull({ head: policyFiles(widened) });
      fake.addReview(REPO, byAuditor.number, { user: { login: "audit-al" }, state: "APPROVED", commit_id: byAuditor.headSha });
      expect((await gate(byAuditor, observerLog(BASE_HASH, CLEAN_EVENTS))).exitCode).toBe(1);
      expect(checkRunFor(byAuditor).conclusion).toBe("action_required");
      const bySecurity = pull({ head: policyFiles(widened) });
      fake.addReview(REPO, bySecurity.number, { user: { login: "sec-sofia" }, state: "APPROVED", commit_id: bySecurity.headSha });
      const run = await gate(bySecurity, observerLog(widenedHash, CLEAN_EVENTS));
      expect(run.exitCode, run.summary).toBe(0);
      expect(checkRunFor(bySecurity).conclusion).toBe("success");
      expect(checkRunFor(bySecurity).output.summary).toContain("@sec-sofia");
    });

    it("reads a policy file over 1 MB through the blobs API, and refuses one over the cap with POLICY_FILE_TOO_LARGE", async () => {
      // An envelope padded past 1 MB with whitespace is still the same JSON.
      const big = envelopeText().replace(/\n}\n$/, "\n" + " ".repeat(1100 * 1024) + "}\n");
      const p = pull({ base: policyFiles(big) });
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/git/blobs/:sha").length;
      const run = await gate(p, observerLog(envelopeHash(big), CLEAN_EVENTS));
      expect(run.exitCode, run.summary).toBe(0);
      expect(fake.requestsTo("GET", "/repos/:owner/:repo/git/blobs/:sha").length - before).toBeGreaterThan(0);
      const huge = envelopeText().replace(/\n}\n$/, "\n" + " ".repeat(11 * 1024 * 1024) + "}\n");
      const q = pull({ base: policyFiles(huge) });
      const refused = await gate(q, observerLog(envelopeHash(huge), CLEAN_EVENTS));
      expect(refused.exitCode).toBe(1);
      expect(refused.outputs["error-code"]).toBe("POLICY_FILE_TOO_LARGE");
      expect(checkRunFor(q).conclusion).toBe("failure");
    });

    it("honors only the listed envelope-reviewers when that input is set", async () => {
      const p = pull({ head: policyFiles(widened) });
      fake.addReview(REPO, p.number, { user: { login: "maintainer-mia" }, state: "APPROVED", commit_id: p.headSha });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS), { inputs: { "envelope-reviewers": "security-sam" } });
      expect(run.exitCode).toBe(1);
      expect(checkRunFor(p).conclusion).toBe("action_required");
    });

    it("still fails when the head widens its own envelope to allow its violation", async () => {
      const p = pull({ head: policyFiles(widened) });
      // The checkout holds the widened envelope too; the Action never reads policy from it.
      const run = await runAction({
        apiUrl: fake.url,
        pull: p,
        inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
        workspaceFiles: {
          "observer.jsonl": observerLog(BASE_HASH, [...CLEAN_EVENTS, { kind: "env", key: "AWS_SECRET_ACCESS_KEY" }]),
          ...policyFiles(widened),
        },
      });
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.annotations.map((a) => a.title)).toContain("undeclared_env:AWS_SECRET_ACCESS_KEY");
      expect(check.output.summary).toContain(BASE_HASH);
      expect(check.output.summary).not.toContain(widenedHash);
    });

    it("fails when the log was recorded under the head's unapproved envelope", async () => {
      const p = pull({ head: policyFiles(widened) });
      const run = await gate(p, observerLog(widenedHash, CLEAN_EVENTS));
      expect(run.exitCode).toBe(1);
      expect(checkRunFor(p).conclusion).toBe("failure");
      expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
    });
  });

  it("on a fork PR (403 creating the check run) still fails the step, writes workflow annotations and the job summary", async () => {
    const p = pull({ headRepo: "forker/widgets" });
    fake.fail("POST", "/repos/:owner/:repo/check-runs", 403, { times: 1 });
    const run = await gate(p, observerLog(BASE_HASH, [...CLEAN_EVENTS, { kind: "tool", name: "curl" }]));
    expect(run.exitCode).toBe(1);
    expect(fake.repo(REPO).checkRuns.filter((c) => c.head_sha === p.headSha)).toHaveLength(0);
    expect(run.stdout).toMatch(
      /::error title=undeclared_tool%3Acurl,file=\.github\/envelope-gate\/envelope\.json,line=\d+,endLine=\d+::.*tool "curl"/,
    );
    expect(run.summary).toContain("cannot create check runs");
    expect(run.summary).toContain("envelope-gate App");
    expect(run.summary).toContain("envelope-gate-evidence");
    expect(run.outputs.verdict).toBe("envelope_fail");
    expect(verifyBundle(bundle(run.evidenceDir)).digest).toBe(run.outputs["evidence-digest"]);
  });

  it("a clean fork PR passes the step without a check run", async () => {
    const p = pull({ headRepo: "forker/widgets" });
    fake.fail("POST", "/repos/:owner/:repo/check-runs", 403, { times: 1 });
    const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
    expect(run.exitCode).toBe(0);
    expect(run.outputs.verdict).toBe("pass");
    expect(run.summary).toContain("cannot create check runs");
  });

  it("sends more than 50 annotations in batches of 50", async () => {
    const p = pull();
    const events = Array.from({ length: 73 }, (_, i) => ({ kind: "env", key: `SECRET_${i}` }));
    const before = fake.requestsTo("PATCH", "/repos/:owner/:repo/check-runs/:id").length;
    const run = await gate(p, observerLog(BASE_HASH, events));
    expect(run.exitCode).toBe(1);
    const check = checkRunFor(p);
    expect(check.annotations).toHaveLength(73);
    expect(new Set(check.annotations.map((a) => a.title)).size).toBe(73);
    const patches = fake.requestsTo("PATCH", "/repos/:owner/:repo/check-runs/:id").slice(before);
    const sizes = patches.map((r) => ((r.body as { output?: { annotations?: unknown[] } }).output?.annotations ?? []).length);
    expect(sizes).toEqual([50, 23]);
    // The conclusion comes with the last batch, so the run is never complete with annotations missing.
    expect((patches[0]?.body as { conclusion?: string }).conclusion).toBeUndefined();
    expect((patches[1]?.body as { conclusion?: string }).conclusion).toBe("failure");
  });

  describe("properties and freezes", () => {
    const properties = JSON.stringify(
      {
        version: 1,
        properties: [
          { name: "patch_scope", kind: "patch_paths", globs: ["src/**"] },
          { name: "result_shape", kind: "output_schema", output: "out/result.json", schema: { type: "object", required: ["ok"] } },
          {
            name: "enough_tests",
            kind: "tests_collected",
            command: ["node", "-e", "for (let i = 0; i < 3; i++) console.log('test ' + i)"],
            min: 3,
          },
        ],
      },
      null,
      2,
    );
    const outOfScope = { "src/widget.ts": "export const widget = 2;\n", "infra/deploy.sh": "echo deploy\n" };

    /** runner A's fingerprint of result_shape failing on this output, as the Action computes it. */
    function shapeFingerprint(output: string): string {
      const declared = loadProperties(new TextEncoder().encode(properties), PROPERTIES_PATH).properties.find(
        (d) => d.declaration.name === "result_shape",
      )!;
      const score = scoreOutputSchema(declared, new TextEncoder().encode(output));
      return failureFingerprint("result_shape", "output_schema", score.signature!);
    }
    const BAD_SHAPE = '{"nope":true}';
    const inScope = { "src/widget.ts": "export const widget = 2;\n" };

    async function gateWithLedger(
      ledger: string | null,
      head: Record<string, string> = outOfScope,
      result = '{"ok":true}',
    ): Promise<{ run: ActionRun; p: PullFixture }> {
      const base = { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: properties, ...(ledger === null ? {} : { [LEDGER_PATH]: ledger }) };
      const p = pull({ base, head });
      const run = await runAction({
        apiUrl: fake.url,
        pull: p,
        inputs: { "observer-log": "observer.jsonl", workspace: "" },
        workspaceFiles: {
          "observer.jsonl": observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]),
          "out/result.json": result,
        },
      });
      return { run, p };
    }

    it("scores the built-in properties when the envelope is clean and fails on an unfrozen failure", async () => {
      const { run, p } = await gateWithLedger(null);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.title).toMatch(/^property_fail: property failed: patch_scope/);
      const records = JSON.parse(run.outputs.properties as string) as { name: string; result: string; inputs: Record<string, string> }[];
      expect(records.map((r) => [r.name, r.result])).toEqual([
        ["patch_scope", "fail"],
        ["result_shape", "pass"],
        ["enough_tests", "pass"],
      ]);
      for (const r of records) for (const h of Object.values(r.inputs)) expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
      // The patch_paths annotation sits on the offending file at its hunk.
      expect(check.annotations).toContainEqual(
        expect.objectContaining({ path: "infra/deploy.sh", start_line: 1, annotation_level: "failure" }),
      );
    });

    it("a property command runs jailed with only the envelope's keys: it cannot see the token, and reaching for it breaks the envelope", async () => {
      const probe = JSON.stringify({
        version: 1,
        properties: [
          {
            name: "probe_tests",
            kind: "tests_collected",
            command: [
              "node",
              "-e",
              "const seen = {}; for (const k of ['INPUT_GITHUB-TOKEN', 'GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'CI']) seen[k] = process.env[k] ?? null; require('fs').writeFileSync('seen.json', JSON.stringify(seen)); console.log('test 1')",
            ],
            min: 1,
          },
        ],
      });
      const p = pull({
        base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: probe },
        head: { "src/widget.ts": "export const widget = 2;\n" },
      });
      const run = await runAction({
        apiUrl: fake.url,
        pull: p,
        inputs: { "observer-log": "observer.jsonl", workspace: "", "github-token": "ghs_action_secret" },
        env: { ACTIONS_RUNTIME_TOKEN: "runtime-secret", CI: "true" },
        workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]) },
      });
      const seen = JSON.parse(readFileSync(join(run.workspace, "seen.json"), "utf8")) as Record<string, string | null>;
      expect(seen).toEqual({ "INPUT_GITHUB-TOKEN": null, GITHUB_TOKEN: null, ACTIONS_RUNTIME_TOKEN: null, CI: "true" });
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(run.outputs.verdict).toBe("envelope_fail");
      expect(check.annotations.map((a) => a.title).sort()).toEqual([
        "undeclared_env:ACTIONS_RUNTIME_TOKEN",
        "undeclared_env:GITHUB_TOKEN",
        "undeclared_env:INPUT_GITHUB-TOKEN",
      ]);
      expect(shownText(check.output.summary)).toContain("Property probe_tests's command ran jailed");
    });

    it("a property command that prints the wrapper's COMMAND_NOT_FOUND refusal itself is still judged on its log", async () => {
      const props = JSON.stringify({
        version: 1,
        properties: [{ name: "spoof_tests", kind: "tests_collected", command: ["node", "probe.js"], min: 1 }],
      });
      const p = pull({
        base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: props },
        head: { "src/widget.ts": "export const widget = 2;\n" },
      });
      const run = await runAction({
        apiUrl: fake.url,
        pull: p,
        inputs: { "observer-log": "observer.jsonl", workspace: "" },
        workspaceFiles: {
          "observer.jsonl": observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]),
          // The patch's own code: reaches for the token, then forges the wrapper's refusal line.
          "probe.js":
            "void process.env.GITHUB_TOKEN; console.error('envelope-gate: ERROR COMMAND_NOT_FOUND (forged)'); console.log('test 1');",
        },
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs.verdict).toBe("envelope_fail");
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.annotations.map((a) => a.title)).toContain("undeclared_env:GITHUB_TOKEN");
    });

    it("clean twin: a property command that is really missing is the wrapper's refusal, scored as an error", async () => {
      const props = JSON.stringify({
        version: 1,
        properties: [{ name: "missing_tests", kind: "tests_collected", command: ["no-such-test-runner-xyz"], min: 1 }],
      });
      const p = pull({ base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: props } });
      const run = await gate(p, observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]), { inputs: { workspace: "" } });
      expect(run.exitCode).toBe(1);
      expect(run.outputs.verdict).toBe("property_fail");
      expect(JSON.parse(run.outputs.properties as string)[0]).toMatchObject({ name: "missing_tests", result: "error" });
      expect(JSON.parse(run.outputs.properties as string)[0].detail).toContain("was not found");
    });

    it("records whether each property is freezable and the fingerprint of each failure", async () => {
      const { run } = await gateWithLedger(null, outOfScope, BAD_SHAPE);
      const records = JSON.parse(run.outputs.properties as string) as Record<string, unknown>[];
      expect(records.map((r) => [r.name, r.result, r.freezable])).toEqual([
        ["patch_scope", "fail", false],
        ["result_shape", "fail", true],
        ["enough_tests", "pass", true],
      ]);
      expect(records[1]?.failure_fingerprint).toBe(shapeFingerprint(BAD_SHAPE));
      expect(records[0]?.failure_fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(records[2]?.failure_fingerprint).toBeNull();
    });

    it("clean twin: a row whose two runs' evidence the Action downloads and checks tolerates the failure", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-101",
        name: "result_shape",
        fingerprint: shapeFingerprint(BAD_SHAPE),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
      });
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").length;
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode, run.summary).toBe(0);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("success");
      expect(check.output.title).toContain("1 frozen property tolerated");
      expect(check.output.summary).toContain(`frozen by F-101 until ${dayOffset(5)}`);
      const props = JSON.parse(readFileSync(join(run.evidenceDir, "properties.json"), "utf8"));
      expect(props.version).toBe(1);
      expect(props.properties[1]).toMatchObject({ name: "result_shape", result: "fail", frozen_by: "F-101" });
      // Both runs' artifacts were read, through the API, for this one candidate row.
      const listed = fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").slice(before);
      expect(listed.map((r) => r.path).sort()).toEqual(
        [freeze.runA.id, freeze.runB.id].map((id) => `/repos/${REPO}/actions/runs/${id}/artifacts`).sort(),
      );
    });

    it("attack: a row whose evidence digest is of no bundle (sha256:000...) is FREEZE_EVIDENCE_MISMATCH, never honored", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-110",
        name: "result_shape",
        fingerprint: shapeFingerprint(BAD_SHAPE),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
        row: { evidence: `sha256:${"0".repeat(64)}` },
      });
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.title).toMatch(/^property_fail: property failed: result_shape/);
      expect(shownText(check.output.summary)).toMatch(
        /F-110.*FREEZE_EVIDENCE_MISMATCH: runner A's evidence digest is sha256:[0-9a-f]{64}, the row says sha256:0{64}/,
      );
      expect(check.annotations).toContainEqual(expect.objectContaining({ path: LEDGER_PATH, start_line: 2 }));
      expect(JSON.parse(run.outputs.properties as string)[1]).toMatchObject({ name: "result_shape", frozen_by: null });
    });

    it("attack: runner cells naming machines the bundles do not (a forged cell) are FREEZE_EVIDENCE_MISMATCH", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-111",
        name: "result_shape",
        fingerprint: shapeFingerprint(BAD_SHAPE),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
        bundleB: { machineId: "machine-aaaa1111" },
      });
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      expect(shownText(checkRunFor(p).output.summary)).toMatch(
        /F-111.*FREEZE_EVIDENCE_MISMATCH: runner B's runner.json names machine "machine-aaaa1111", the row says machine-bbbb2222/,
      );
    });

    it("attack: runner B is the pull request's own run (not dispatched by the App), by GitHub's account: FREEZE_EVIDENCE_MISMATCH", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-116",
        name: "result_shape",
        fingerprint: shapeFingerprint(BAD_SHAPE),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
        runB: { event: "pull_request" },
      });
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      expect(shownText(checkRunFor(p).output.summary)).toContain(
        `FREEZE_EVIDENCE_MISMATCH: runner B's run ${freeze.runB.id} is a pull_request run, not one the App dispatched (workflow_dispatch)`,
      );
    });

    it("a row naming a run this repository does not have is FREEZE_EVIDENCE_UNAVAILABLE", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-117",
        name: "result_shape",
        fingerprint: shapeFingerprint(BAD_SHAPE),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
        row: { runner_a: "run-987654321@machine-aaaa1111" },
      });
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      expect(shownText(checkRunFor(p).output.summary)).toContain(
        `FREEZE_EVIDENCE_UNAVAILABLE: runner A's run 987654321 is not a workflow run of ${REPO}`,
      );
    });

    it("a row whose evidence cannot be checked (expired artifact, 403, GitHub down) is FREEZE_EVIDENCE_UNAVAILABLE, never honored", async () => {
      const fingerprint = shapeFingerprint(BAD_SHAPE);
      const expired = freezeWithEvidence(fake, {
        freeze_id: "F-112",
        name: "result_shape",
        fingerprint,
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
      });
      for (const a of fake.repo(REPO).artifacts) if (a.run_id === expired.runA.id) a.expired = true;
      const first = await gateWithLedger(`${LEDGER_HEADER}\n${expired.row}\n`, inScope, BAD_SHAPE);
      expect(first.run.exitCode).toBe(1);
      expect(shownText(checkRunFor(first.p).output.summary)).toMatch(
        new RegExp(
          `F-112.*FREEZE_EVIDENCE_UNAVAILABLE: runner A's evidence cannot be checked: run ${expired.runA.id}'s envelope-gate-evidence artifact has expired`,
        ),
      );
      for (const status of [403, 502]) {
        const freeze = freezeWithEvidence(fake, {
          freeze_id: `F-113-${status}`,
          name: "result_shape",
          fingerprint,
          envelopeHash: BASE_HASH,
          expiresOn: dayOffset(5),
        });
        fake.fail("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts", status, { times: 10 });
        const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
        fake.clearFailures();
        expect(run.exitCode).toBe(1);
        const summary = shownText(checkRunFor(p).output.summary);
        expect(summary).toMatch(
          new RegExp(
            `F-113-${status}.*FREEZE_EVIDENCE_UNAVAILABLE: runner A's evidence could not be read \\(GITHUB_UNAVAILABLE: .*HTTP ${status}`,
          ),
        );
        expect(JSON.parse(run.outputs.properties as string)[1]).toMatchObject({ name: "result_shape", frozen_by: null });
      }
    });

    it("a row names the failure it tolerates: another failure of the same property is not covered", async () => {
      const freeze = freezeWithEvidence(fake, {
        freeze_id: "F-114",
        name: "result_shape",
        fingerprint: shapeFingerprint("null"),
        envelopeHash: BASE_HASH,
        expiresOn: dayOffset(5),
      });
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").length;
      const { run, p } = await gateWithLedger(`${LEDGER_HEADER}\n${freeze.row}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      expect(checkRunFor(p).output.title).toMatch(/^property_fail: property failed: result_shape/);
      // Not a candidate for this failure: its evidence is not even downloaded.
      expect(fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").length).toBe(before);
    });

    it("a well-formed row for a patch_paths property is FREEZE_NOT_FREEZABLE: a frozen patch scope would let any path through", async () => {
      const ledger = `${LEDGER_HEADER}\n${ledgerRow({ freeze_id: "F-115", property: `patch_scope#${SOME_FINGERPRINT}`, envelope_hash: BASE_HASH, expires_on: dayOffset(5) })}\n`;
      const { run, p } = await gateWithLedger(ledger);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.output.title).toMatch(/^property_fail: property failed: patch_scope/);
      expect(shownText(check.output.summary)).toMatch(/F-115.*FREEZE_NOT_FREEZABLE: patch_scope is a patch_paths property/);
    });

    it("attack: one machine twice, an NBSP-padded property, a zero-width character, a duplicate and an unscoped row are never honored", async () => {
      const fingerprint = shapeFingerprint(BAD_SHAPE);
      const cells = { envelope_hash: BASE_HASH, expires_on: dayOffset(5) };
      const ledger = [
        LEDGER_HEADER,
        ledgerRow({
          ...cells,
          freeze_id: "F-120",
          property: `result_shape#${fingerprint}`,
          runner_a: "run-1@machine-aaaa",
          runner_b: "run-2@machine-aaaa",
        }),
        ledgerRow({ ...cells, freeze_id: "F-121", property: `result_shape\u00a0#${fingerprint}` }),
        ledgerRow({ ...cells, freeze_id: "F-122", property: `result_shape#${fingerprint}\u200b` }),
        ledgerRow({ ...cells, freeze_id: "F-123", property: "result_shape" }),
        ledgerRow({ ...cells, freeze_id: "F-124", property: `result_shape#${SOME_FINGERPRINT}` }),
        ledgerRow({ ...cells, freeze_id: "F-125", property: `result_shape#${SOME_FINGERPRINT}` }),
      ].join("\n");
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").length;
      const { run, p } = await gateWithLedger(`${ledger}\n`, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      const summary = shownText(checkRunFor(p).output.summary);
      expect(summary).toMatch(/F-120.*same machine \("machine-aaaa"\)/);
      expect(summary).toMatch(/F-121.*property cell carries inner whitespace or invisible characters \(U\+00A0\)/);
      expect(summary).toMatch(/F-122.*property cell carries leading or trailing whitespace or invisible characters \(U\+200B\)/);
      expect(summary).toMatch(/F-123.*names no failure scope/);
      expect(summary).toMatch(/F-125.*duplicates the row on line 6/);
      expect(JSON.parse(run.outputs.properties as string)[1]).toMatchObject({ name: "result_shape", frozen_by: null });
      // None of them is a candidate for this failure: nothing is downloaded.
      expect(fake.requestsTo("GET", "/repos/:owner/:repo/actions/runs/:run_id/artifacts").length).toBe(before);
    });

    it("an expired freeze turns the check red and names the row", async () => {
      const ledger = `${LEDGER_HEADER}\n${ledgerRow({ freeze_id: "F-102", property: `result_shape#${shapeFingerprint(BAD_SHAPE)}`, envelope_hash: BASE_HASH, expires_on: dayOffset(-1) })}\n`;
      const { run, p } = await gateWithLedger(ledger, inScope, BAD_SHAPE);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.title).toContain("freeze F-102 expired");
      expect(check.output.summary).toContain(`F-102 expired ${dayOffset(-1)}`);
      expect(check.annotations).toContainEqual(
        expect.objectContaining({ path: LEDGER_PATH, start_line: 2, title: "freeze F-102 expired" }),
      );
    });

    it("a row naming an envelope rule, with one runner, or too long is reported and never honored", async () => {
      const ledger = [
        LEDGER_HEADER,
        ledgerRow({
          freeze_id: "F-103",
          property: `undeclared_env#${SOME_FINGERPRINT}`,
          envelope_hash: BASE_HASH,
          expires_on: dayOffset(3),
        }),
        ledgerRow({
          freeze_id: "F-104",
          property: `result_shape#${SOME_FINGERPRINT}`,
          envelope_hash: BASE_HASH,
          expires_on: dayOffset(3),
          runner_b: "run-1003@machine-aaaa",
        }),
        ledgerRow({ freeze_id: "F-105", property: "result_shape#1111111111111111", envelope_hash: BASE_HASH, expires_on: dayOffset(40) }),
        ledgerRow({ freeze_id: "F-106", property: "result_shape#2222222222222222", envelope_hash: BASE_HASH, expires_on: "2026-02-30" }),
        ledgerRow({
          freeze_id: "F-107",
          property: "result_shape#3333333333333333",
          envelope_hash: BASE_HASH,
          expires_on: dayOffset(3),
          evidence: "",
        }),
      ].join("\n");
      const { run, p } = await gateWithLedger(ledger);
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      const summary = shownText(check.output.summary ?? "");
      expect(summary).toContain('names the envelope rule "undeclared_env"');
      expect(summary).toMatch(/F-104.*same machine/);
      expect(summary).toMatch(/F-105.*more than the 14-day cap/);
      expect(summary).toMatch(/F-106.*not a YYYY-MM-DD date/);
      expect(summary).toMatch(/F-107.*no evidence/);
      expect(summary).toContain("5 never honored");
    });

    it("a freeze naming an envelope rule never tolerates an envelope violation", async () => {
      const ledger = `${LEDGER_HEADER}\n${ledgerRow({ freeze_id: "F-108", property: `undeclared_env#${SOME_FINGERPRINT}`, envelope_hash: BASE_HASH, expires_on: dayOffset(3) })}\n`;
      const p = pull({ base: { ...policyFiles(BASE_ENVELOPE), [LEDGER_PATH]: ledger } });
      const run = await gate(p, observerLog(BASE_HASH, [{ kind: "env", key: "AWS_SECRET_ACCESS_KEY" }]));
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.summary).toContain("F-108");
      expect(check.output.summary).toContain("envelope violations are never frozen");
    });

    it("a PR cannot freeze its own failure: a ledger row added by the head is not applied", async () => {
      const ownRow = `${LEDGER_HEADER}\n${ledgerRow({ freeze_id: "F-109", property: `patch_scope#${SOME_FINGERPRINT}`, envelope_hash: BASE_HASH, expires_on: dayOffset(5) })}\n`;
      const { run, p } = await gateWithLedger(null, { ...outOfScope, [LEDGER_PATH]: ownRow });
      expect(run.exitCode).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.title).toMatch(/^property_fail: property failed: patch_scope/);
      expect(check.output.summary).toContain(LEDGER_PATH);
      expect(check.output.summary).toContain("base commit's policy applies");
      expect(JSON.parse(run.outputs.properties as string)[0]).toMatchObject({ name: "patch_scope", result: "fail", frozen_by: null });
    });

    it("more active freezes than the cap honors none", async () => {
      const rows = Array.from({ length: 3 }, (_, i) =>
        ledgerRow({
          freeze_id: `F-20${i}`,
          property: `result_shape#${String(i).repeat(16)}`,
          envelope_hash: BASE_HASH,
          expires_on: dayOffset(2),
        }),
      );
      const base = {
        ...policyFiles(BASE_ENVELOPE),
        [PROPERTIES_PATH]: properties,
        [LEDGER_PATH]: [LEDGER_HEADER, ...rows].join("\n") + "\n",
      };
      const p = pull({ base, head: outOfScope });
      const run = await runAction({
        apiUrl: fake.url,
        pull: p,
        inputs: { "observer-log": "observer.jsonl", "max-active-freezes": "2" },
        workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, []), "out/result.json": '{"ok":true}' },
      });
      expect(run.exitCode).toBe(1);
      expect(checkRunFor(p).output.summary).toContain("more than the cap of 2");
    });

    it("a ledger with a broken header is LEDGER_INVALID", async () => {
      const { run, p } = await gateWithLedger("freeze_id,property\n");
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("LEDGER_INVALID");
      expect(checkRunFor(p).annotations).toContainEqual(
        expect.objectContaining({ path: LEDGER_PATH, start_line: 1, title: "LEDGER_INVALID" }),
      );
    });
  });

  describe("when GitHub fails", () => {
    it("answers 500 on policy reads: GITHUB_UNAVAILABLE after bounded retries, never a pass", async () => {
      const p = pull();
      const before = fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").length;
      fake.fail("GET", "/repos/:owner/:repo/contents/*path", 500);
      try {
        const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
        expect(run.exitCode).toBe(1);
        expect(run.outputs["error-code"]).toBe("GITHUB_UNAVAILABLE");
        const check = checkRunFor(p);
        expect(check.conclusion).toBe("failure");
        expect(check.output.title).toMatch(/^error: could not evaluate \(GITHUB_UNAVAILABLE\)/);
        // github-retries is 2 in the harness: one attempt plus two retries per read, then it stops.
        const attempts = new Map<string, number>();
        for (const r of fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").slice(before))
          attempts.set(r.path + "?" + r.query, (attempts.get(r.path + "?" + r.query) ?? 0) + 1);
        expect(Math.max(...attempts.values())).toBe(3);
        expect(Math.min(...attempts.values())).toBeGreaterThanOrEqual(1);
      } finally {
        fake.clearFailures();
      }
    });

    it("answers 500 on everything: the step fails with GITHUB_UNAVAILABLE and says so in the job summary", async () => {
      const p = pull();
      fake.fail("GET", "/repos/*rest", 500);
      fake.fail("POST", "/repos/*rest", 500);
      try {
        const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
        expect(run.exitCode).toBe(1);
        expect(run.outputs.verdict).toBe("error");
        expect(run.outputs["error-code"]).toBe("GITHUB_UNAVAILABLE");
        expect(run.summary).toContain("GITHUB_UNAVAILABLE");
        expect(run.summary).toContain("not a pass");
      } finally {
        fake.clearFailures();
      }
    });

    it("recovers from one transient 500 through the retry plugin", async () => {
      const p = pull();
      fake.fail("GET", "/repos/:owner/:repo/pulls/:n", 502, { times: 1 });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run.exitCode).toBe(0);
      expect(checkRunFor(p).conclusion).toBe("success");
    });

    it("fails when the check run cannot be completed, leaving it in progress", async () => {
      const p = pull();
      fake.fail("PATCH", "/repos/:owner/:repo/check-runs/:id", 500);
      try {
        const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
        expect(run.exitCode).toBe(1);
        expect(run.outputs.verdict).toBe("error");
        expect(run.outputs["error-code"]).toBe("GITHUB_UNAVAILABLE");
        expect(checkRunFor(p).status).toBe("in_progress");
      } finally {
        fake.clearFailures();
      }
    });

    it("is unreachable (closed port): GITHUB_UNAVAILABLE", async () => {
      const p = pull();
      const port = await closedPort();
      const run = await runAction({
        apiUrl: `http://127.0.0.1:${port}`,
        pull: p,
        inputs: { "observer-log": "observer.jsonl" },
        workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, CLEAN_EVENTS) },
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs.verdict).toBe("error");
      expect(run.outputs["error-code"]).toBe("GITHUB_UNAVAILABLE");
      expect(shownText(run.summary)).toMatch(/GitHub could not read pull request #\d+/);
    });
  });

  describe("runner B (workflow_dispatch)", () => {
    it("checks the PR named by the inputs, names its check run (runner B) and records the dual run id", async () => {
      const p = pull();
      const run = await runAction({
        apiUrl: fake.url,
        eventName: "workflow_dispatch",
        event: { inputs: { pull_request: String(p.number) } },
        inputs: {
          "observer-log": "observer.jsonl",
          workspace: "/work",
          "pull-request": String(p.number),
          "head-sha": p.headSha,
          "dual-run-id": "dual-77",
        },
        workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, CLEAN_EVENTS, { runner: "runner-b" }) },
      });
      expect(run.exitCode, run.summary).toBe(0);
      const check = checkRunFor(p, "envelope-gate (runner B)");
      expect(check.conclusion).toBe("success");
      expect(check.external_id).toBe("dual-77");
      const runner = JSON.parse(readFileSync(join(run.evidenceDir, "runner.json"), "utf8"));
      expect(runner).toMatchObject({ dual_run_id: "dual-77", head_sha: p.headSha, pull_number: p.number });
    });

    it("refuses when the PR head moved away from head-sha", async () => {
      const p = pull();
      const stale = "0".repeat(40);
      const run = await runAction({
        apiUrl: fake.url,
        eventName: "workflow_dispatch",
        event: {},
        inputs: { "observer-log": "observer.jsonl", "pull-request": String(p.number), "head-sha": stale, "dual-run-id": "dual-78" },
        workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, CLEAN_EVENTS) },
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("PULL_REQUEST_HEAD_MOVED");
      const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === stale);
      expect(check?.conclusion).toBe("failure");
    });

    it("without a pull_request event or input is CONFIG_INVALID", async () => {
      const run = await runAction({
        apiUrl: fake.url,
        eventName: "workflow_dispatch",
        event: {},
        inputs: { "observer-log": "observer.jsonl" },
      });
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("CONFIG_INVALID");
    });
  });

  describe("local failures", () => {
    it("an evidence-dir that cannot be created is EVIDENCE_UNAVAILABLE and fails the check", async () => {
      const p = pull();
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS), { inputs: { "evidence-dir": "/etc/hostname/evidence" } });
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("EVIDENCE_UNAVAILABLE");
      expect(checkRunFor(p).conclusion).toBe("failure");
    });

    it("a property command that does not exist is an error, never frozen", async () => {
      const props = JSON.stringify({
        version: 1,
        properties: [{ name: "collected", kind: "tests_collected", command: ["/nonexistent/test-lister"], min: 1 }],
      });
      const ledger = `${LEDGER_HEADER}\n${ledgerRow({ freeze_id: "F-300", property: `collected#${SOME_FINGERPRINT}`, envelope_hash: BASE_HASH, expires_on: dayOffset(3) })}\n`;
      const p = pull({ base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: props, [LEDGER_PATH]: ledger } });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      const check = checkRunFor(p);
      expect(check.conclusion).toBe("failure");
      expect(check.output.title).toContain("collected (error)");
      expect(JSON.parse(run.outputs.properties as string)[0]).toMatchObject({ result: "error", frozen_by: null });
    });

    it("a jailed property command is stopped at its deadline, and its unjudged run refuses the pull request", async () => {
      const props = JSON.stringify({
        version: 1,
        properties: [
          { name: "slow", kind: "tests_collected", command: ["node", "-e", "setTimeout(() => {}, 120000)"], min: 1, timeout_seconds: 1 },
        ],
      });
      const p = pull({ base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: props } });
      const run = await gate(p, observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]), { inputs: { workspace: "" } });
      expect(run.exitCode, run.summary).toBe(1);
      expect(run.outputs["error-code"]).toBe("OBSERVER_INTERRUPTED");
      expect(shownText(checkRunFor(p).output.summary)).toMatch(/stopped at its deadline \(timeout 1s\)/);
    });

    it("a job summary that cannot be written degrades to the log; the check run still carries the verdict", async () => {
      const p = pull();
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS), { env: { GITHUB_STEP_SUMMARY: "/nonexistent/dir/summary" } });
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain("the job summary could not be written");
      expect(run.stdout).toContain("## envelope-gate: PASS");
      expect(checkRunFor(p).conclusion).toBe("success");
    });
  });

  describe("policy files missing at the base commit", () => {
    it("no envelope: ENVELOPE_MISSING", async () => {
      const p = pull({ base: { "README.md": "hi\n" } });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("ENVELOPE_MISSING");
      expect(checkRunFor(p).conclusion).toBe("failure");
    });

    it("no digest: ENVELOPE_DIGEST_MISSING; a stale digest: ENVELOPE_HASH_MISMATCH", async () => {
      const p = pull({ base: { [ENVELOPE_PATH]: BASE_ENVELOPE } });
      const run = await gate(p, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run.outputs["error-code"]).toBe("ENVELOPE_DIGEST_MISSING");
      const q = pull({ base: { [ENVELOPE_PATH]: BASE_ENVELOPE, [DIGEST_PATH]: `${"0".repeat(64)}  envelope.json\n` } });
      const run2 = await gate(q, observerLog(BASE_HASH, CLEAN_EVENTS));
      expect(run2.exitCode).toBe(1);
      expect(run2.outputs["error-code"]).toBe("ENVELOPE_HASH_MISMATCH");
    });

    it("a missing observer log is OBSERVER_LOG_MISSING, never a clean run", async () => {
      const p = pull();
      const run = await runAction({ apiUrl: fake.url, pull: p, inputs: { "observer-log": "nope.jsonl" } });
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_MISSING");
      expect(checkRunFor(p).conclusion).toBe("failure");
    });
  });
});
