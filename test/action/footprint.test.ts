/**
 * The footprint against the base branch's last push run, the SARIF file and its upload, and the
 * coverage table, through the bundled Action (dist/index.js) against the GitHub fake. The base's
 * evidence is a bundle the real Action wrote for an earlier run, served as a push run's artifact.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Ajv2019 } from "ajv/dist/2019.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBundle } from "../../src/core/evidence.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { harmlessProblems, render, shownText } from "../support/gfm.js";
import { sarifSchemaProblems } from "../support/sarif-schema.js";
import { VERSION } from "../../src/core/version.js";
import { REPO, envelopeText, makePull, policyFiles, runAction, type ActionRun, type PullFixture } from "../support/action-harness.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const WORKFLOW = ".github/workflows/envelope-gate.yml";
const ENVELOPE = envelopeText({ allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HOME", "FOOTPRINT_KEY"] });

function workflowEnv(p: PullFixture): Record<string, string> {
  return { GITHUB_WORKFLOW_REF: `${REPO}/${WORKFLOW}@refs/pull/${p.number}/merge` };
}

function checkOf(p: PullFixture) {
  const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === p.headSha);
  if (!check) throw new Error("no check run");
  return check;
}

function bundleOf(run: ActionRun): Record<string, Uint8Array> {
  return Object.fromEntries(readdirSync(run.evidenceDir).map((n) => [n, new Uint8Array(readFileSync(join(run.evidenceDir, n)))]));
}

/** SARIF 2.1.0's required structure (the OASIS schema's `required` members and enums on the paths this file uses). */
const SARIF_SHAPE = {
  type: "object",
  required: ["version", "runs"],
  properties: {
    version: { const: "2.1.0" },
    $schema: { type: "string", format: "uri" },
    runs: {
      type: "array",
      items: {
        type: "object",
        required: ["tool"],
        properties: {
          tool: {
            type: "object",
            required: ["driver"],
            properties: {
              driver: {
                type: "object",
                required: ["name"],
                properties: {
                  name: { type: "string" },
                  rules: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["id"],
                      properties: {
                        id: { type: "string" },
                        shortDescription: { type: "object", required: ["text"] },
                        fullDescription: { type: "object", required: ["text"] },
                        help: { type: "object", required: ["text"] },
                        defaultConfiguration: {
                          type: "object",
                          properties: { level: { enum: ["none", "note", "warning", "error"] } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          automationDetails: { type: "object", properties: { id: { type: "string" } } },
          results: {
            type: "array",
            items: {
              type: "object",
              required: ["message"],
              properties: {
                ruleId: { type: "string" },
                ruleIndex: { type: "integer", minimum: -1 },
                level: { enum: ["none", "note", "warning", "error"] },
                message: { type: "object", anyOf: [{ required: ["text"] }, { required: ["id"] }] },
                locations: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: {
                      physicalLocation: {
                        type: "object",
                        anyOf: [{ required: ["address"] }, { required: ["artifactLocation"] }],
                        properties: {
                          artifactLocation: { type: "object", properties: { uri: { type: "string", format: "uri-reference" } } },
                          region: { type: "object", properties: { startLine: { type: "integer", minimum: 1 } } },
                        },
                      },
                      logicalLocations: { type: "array", items: { type: "object" } },
                    },
                  },
                },
                partialFingerprints: { type: "object", additionalProperties: { type: "string" } },
              },
            },
          },
        },
      },
    },
  },
};

async function validSarif(text: string): Promise<{ ok: boolean; errors: unknown }> {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  const formats = (await import("ajv-formats")) as unknown as { default: (a: Ajv2019) => void };
  formats.default(ajv);
  const validate = ajv.compile(SARIF_SHAPE);
  const ok = validate(JSON.parse(text));
  return { ok, errors: validate.errors };
}

describe("the footprint against the base branch's last push run", () => {
  let basePushRun: number;

  it("lists a key read and commands run that the base's run did not, though the envelope allows them; the verdict is the envelope's", async () => {
    // The base's run: the real Action's bundle, served as a push run of main's artifact.
    const first = makePull(fake, { number: 1, base: policyFiles(ENVELOPE) });
    const baseRun = await runAction({ apiUrl: fake.url, pull: first, env: workflowEnv(first), inputs: { run: `sh -c "ls >/dev/null"` } });
    expect(baseRun.exitCode, baseRun.stdout + baseRun.stderr).toBe(0);
    const p = makePull(fake, { number: 2, base: policyFiles(ENVELOPE) });
    // The push run is on the pull request's base commit (a base run's commit must be in the base's history).
    const push = fake.addWorkflowRun(REPO, {
      head_sha: p.baseSha,
      head_branch: "main",
      event: "push",
      workflow_id: "envelope-gate.yml",
    });
    // A newer push run that left no evidence, and a newer pull_request run that did: neither is the base.
    const prRun = fake.addWorkflowRun(REPO, {
      head_sha: first.headSha,
      head_branch: "main",
      event: "pull_request",
      workflow_id: "envelope-gate.yml",
    });
    fake.addArtifact(REPO, { run_id: prRun.id, name: "envelope-gate-evidence", files: bundleOf(baseRun) });
    fake.addWorkflowRun(REPO, { head_sha: p.baseSha, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.addArtifact(REPO, { run_id: push.id, name: "envelope-gate-evidence", files: bundleOf(baseRun) });
    basePushRun = push.id;

    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      env: workflowEnv(p),
      inputs: { run: `sh -c "ls >/dev/null; cat /dev/null; node -e 'void process.env.FOOTPRINT_KEY'"` },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const check = checkOf(p);
    expect(check.conclusion).toBe("success");
    const text = check.output.text ?? "";
    expect(text).toContain(`### New compared with the base's last run (run \\#&#8203;${basePushRun})`);
    expect(shownText(text)).toContain(`New compared with the base's last run (run #${basePushRun})`);
    expect(harmlessProblems(render(text), { hrefOk: (h) => h.endsWith(`/actions/runs/${basePushRun}`) }), text).toEqual([]);
    expect(text).toMatch(/\| environment key read \| `FOOTPRINT_KEY` \| \d+ \| \d+ \|/);
    expect(text).toMatch(/\| command \| `cat` \| \d+ \| 1 \|/);
    expect(text).toMatch(/\| command \| `node` \|/);
    expect(text).not.toMatch(/\| command \| `ls` \|/);
    // The job summary carries it too, after the verdict.
    expect(shownText(run.summary)).toContain(`New compared with the base's last run (run #${basePushRun})`);

    // footprint.json is in the bundle, covered by its manifest.
    const bundle = bundleOf(run);
    expect(Object.keys(verifyBundle(new Map(Object.entries(bundle))).manifest.files)).toContain("footprint.json");
    const footprint = JSON.parse(readFileSync(run.outputs.footprint as string, "utf8")) as {
      status: string;
      base: { workflow_run_id: number };
      new: { env: { item: string; first_line: number; count: number }[] };
    };
    expect(footprint.status).toBe("compared");
    expect(footprint.base.workflow_run_id).toBe(basePushRun);
    const key = footprint.new.env.find((i) => i.item === "FOOTPRINT_KEY");
    const logLines = readFileSync(join(run.evidenceDir, "observer.jsonl"), "utf8").split("\n");
    expect(JSON.parse(logLines[(key?.first_line ?? 0) - 1] as string)).toMatchObject({ kind: "env", key: "FOOTPRINT_KEY" });

    // Coverage per class in the job summary.
    expect(run.summary).toMatch(/\| writes \| [^|]*\| \d+ \|/);
    expect(run.summary).toMatch(
      /\| env reads \| Node hooks \d+[^|]*\| \d+ \| observed only in Node processes\\: 1 of \d+ executed programs were Node/,
    );
    expect(run.summary).toMatch(/\| network \| [^|]*\| \d+ \| enforced by the jail/);
  });

  it("a push run named like the base (a tag `main`) at a commit the base never had is not the base: it cannot hide what the PR newly touches", async () => {
    const WIDE = `sh -c "ls >/dev/null; cat /dev/null; node -e 'void process.env.FOOTPRINT_KEY'"`;
    // The attacker's bundle: a run that touched everything the pull request will touch.
    const donor = makePull(fake, { number: 9, base: policyFiles(ENVELOPE) });
    const wide = await runAction({ apiUrl: fake.url, pull: donor, env: workflowEnv(donor), inputs: { run: WIDE } });
    expect(wide.exitCode, wide.stdout + wide.stderr).toBe(0);
    const narrowPull = makePull(fake, { number: 10, base: policyFiles(ENVELOPE) });
    const narrow = await runAction({
      apiUrl: fake.url,
      pull: narrowPull,
      env: workflowEnv(narrowPull),
      inputs: { run: `sh -c "ls >/dev/null"` },
    });
    expect(narrow.exitCode, narrow.stdout + narrow.stderr).toBe(0);

    const p = makePull(fake, { number: 8, base: policyFiles(ENVELOPE) });
    // The base's own push run, on its commit: it only listed files.
    const honest = fake.addWorkflowRun(REPO, { head_sha: p.baseSha, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.addArtifact(REPO, { run_id: honest.id, name: "envelope-gate-evidence", files: bundleOf(narrow) });
    // A tag called main on a commit of the attacker's (not on main): GitHub names that push run's
    // head_branch "main", and it runs the tag's own workflow file, which uploads the wide bundle.
    const tagged = fake.commit(REPO, { "evil.txt": "x" }, { parent: p.baseSha, message: "evil" });
    const tagRun = fake.addWorkflowRun(REPO, { head_sha: tagged, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.addArtifact(REPO, { run_id: tagRun.id, name: "envelope-gate-evidence", files: bundleOf(wide) });
    expect(tagRun.id).toBeGreaterThan(honest.id);

    const run = await runAction({ apiUrl: fake.url, pull: p, env: workflowEnv(p), inputs: { run: WIDE } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const footprint = JSON.parse(readFileSync(run.outputs.footprint as string, "utf8")) as {
      status: string;
      base: { workflow_run_id: number; head_sha: string };
      new: { env: { item: string }[] };
    };
    expect(footprint.status).toBe("compared");
    expect(footprint.base.workflow_run_id).toBe(honest.id);
    expect(footprint.base.head_sha).toBe(p.baseSha);
    expect(footprint.new.env.map((i) => i.item)).toContain("FOOTPRINT_KEY");
    const text = checkOf(p).output.text ?? "";
    expect(text).toMatch(/\| environment key read \| `FOOTPRINT_KEY` \|/);
    expect(text).not.toContain("Nothing new");

    // A pull request's own intermediate commit, which a merge commit (the base) brought in through
    // its second parent: an ancestor of the base, never the base's tip. A tag on it is no base either.
    const q = makePull(fake, { number: 11, base: policyFiles(ENVELOPE) });
    const before = fake.commit(REPO, {}, { parent: null, message: "main before the merge" });
    const alone = fake.commit(REPO, { "evil.txt": "y" }, { parent: before, message: "pr: step 1" });
    fake.repo(REPO).commits.get(q.baseSha)!.parents.push(before, alone);
    const aloneRun = fake.addWorkflowRun(REPO, { head_sha: alone, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.addArtifact(REPO, { run_id: aloneRun.id, name: "envelope-gate-evidence", files: bundleOf(wide) });
    const second = await runAction({ apiUrl: fake.url, pull: q, env: workflowEnv(q), inputs: { run: WIDE } });
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    const none = JSON.parse(readFileSync(second.outputs.footprint as string, "utf8")) as { status: string; reason: string };
    expect(none.status).toBe("no_base");
    expect(none.reason).toContain("ran on a commit that is not among the last 100 commits of main's first-parent history");
    expect(checkOf(q).output.text ?? "").not.toContain("Nothing new");
  });

  it("no push run of the base branch: no base run to compare, said plainly", async () => {
    const p = makePull(fake, { number: 3, base: policyFiles(ENVELOPE), baseRef: "release" });
    // The workflow has runs, none of them a push to release.
    fake.addWorkflowRun(REPO, { head_sha: p.baseSha, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.addWorkflowRun(REPO, { head_sha: p.headSha, head_branch: "release", event: "pull_request", workflow_id: "envelope-gate.yml" });
    const run = await runAction({ apiUrl: fake.url, pull: p, env: workflowEnv(p), inputs: { run: `sh -c "ls >/dev/null"` } });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const text = checkOf(p).output.text ?? "";
    expect(text).toContain("No base run to compare (no completed push run of .github/workflows/envelope-gate.yml on release).");
    expect(JSON.parse(readFileSync(run.outputs.footprint as string, "utf8"))).toMatchObject({ status: "no_base" });
  });

  it("a workflow GitHub does not know (one the pull request adds) has no base run", async () => {
    const p = makePull(fake, { number: 7, base: policyFiles(ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      env: { GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/brand-new.yml@refs/pull/7/merge` },
      inputs: { run: `sh -c "ls >/dev/null"` },
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(checkOf(p).output.text ?? "").toContain("No base run to compare (GitHub knows no workflow .github/workflows/brand-new.yml");
  });

  it("GitHub answers 500 for the runs list: could not compare, never nothing new; the verdict is unchanged", async () => {
    const p = makePull(fake, { number: 4, base: policyFiles(ENVELOPE) });
    fake.fail("GET", "/repos/:owner/:repo/actions/workflows/:workflow_id/runs", 500);
    let run: ActionRun;
    try {
      run = await runAction({ apiUrl: fake.url, pull: p, env: workflowEnv(p), inputs: { run: `sh -c "cat /dev/null"` } });
    } finally {
      fake.clearFailures();
    }
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const check = checkOf(p);
    expect(check.conclusion).toBe("success");
    expect(run.outputs.verdict).toBe("pass");
    const text = check.output.text ?? "";
    expect(text).toContain("Could not compare (GITHUB\\_UNAVAILABLE");
    expect(text).not.toContain("Nothing new");
    expect(JSON.parse(readFileSync(run.outputs.footprint as string, "utf8"))).toMatchObject({ status: "unavailable" });
  });
});

describe("the footprint's base history", () => {
  it("GitHub answers 500 reading the base's history: could not compare, never nothing new", async () => {
    const p = makePull(fake, { number: 12, base: policyFiles(ENVELOPE) });
    fake.addWorkflowRun(REPO, { head_sha: p.baseSha, head_branch: "main", event: "push", workflow_id: "envelope-gate.yml" });
    fake.fail("GET", "/repos/:owner/:repo/git/commits/:sha", 500);
    let run: ActionRun;
    try {
      run = await runAction({ apiUrl: fake.url, pull: p, env: workflowEnv(p), inputs: { run: `sh -c "cat /dev/null"` } });
    } finally {
      fake.clearFailures();
    }
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe("pass");
    const text = checkOf(p).output.text ?? "";
    expect(text).toContain("Could not compare (GITHUB\\_UNAVAILABLE");
    expect(text).not.toContain("Nothing new");
    expect(JSON.parse(readFileSync(run.outputs.footprint as string, "utf8"))).toMatchObject({ status: "unavailable" });
  });
});

describe("SARIF", () => {
  const HOSTILE = `node -e "void process.env.AWS_SECRET_ACCESS_KEY; void process.env.GITHUB_TOKEN; try { require('fs').writeFileSync('/var/tmp/eg-sarif-' + process.pid, 'x') } catch {}"`;

  it("writes envelope-gate.sarif with one result per distinct violation, valid SARIF 2.1.0; upload-sarif sends it gzip+base64", async () => {
    const p = makePull(fake, { number: 5, base: policyFiles(ENVELOPE) });
    const run = await runAction({ apiUrl: fake.url, pull: p, env: workflowEnv(p), inputs: { run: HOSTILE, "upload-sarif": "true" } });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe("envelope_fail");
    const violations = JSON.parse(run.outputs.violations as string) as { id: string; rule: string }[];
    expect(violations.length).toBeGreaterThanOrEqual(3);
    const path = run.outputs.sarif as string;
    expect(path).toBe(join(run.evidenceDir, "envelope-gate.sarif"));
    const text = readFileSync(path, "utf8");
    const valid = await validSarif(text);
    expect(valid.errors).toBeNull();
    expect(valid.ok).toBe(true);
    expect(sarifSchemaProblems(JSON.parse(text))).toEqual([]);
    const sarif = JSON.parse(text) as {
      runs: {
        automationDetails: { id: string };
        tool: { driver: { version: string; rules: { id: string }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          properties: { violation_id: string };
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    const only = sarif.runs[0];
    expect(only?.automationDetails.id).toBe("envelope-gate");
    expect(only?.tool.driver.version).toBe(VERSION);
    expect(only?.results.map((r) => r.properties.violation_id).sort()).toEqual(violations.map((v) => v.id).sort());
    for (const r of only?.results ?? []) {
      expect(r.level).toBe("error");
      expect(only?.tool.driver.rules[r.ruleIndex]?.id).toBe(r.ruleId);
      // Outside the repository: located at the envelope's rule line, as the annotations are.
      expect(r.locations[0]?.physicalLocation.artifactLocation.uri).toBe(".github/envelope-gate/envelope.json");
    }
    expect(new Set(only?.results.map((r) => r.ruleId))).toEqual(new Set(["undeclared_env", "write_outside_root"]));

    // Uploaded as GitHub documents it, after the check run carried the verdict.
    const uploads = fake.repo(REPO).sarifUploads.filter((u) => u.commit_sha === p.headSha);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.ref).toBe(`refs/pull/${p.number}/head`);
    expect(uploads[0]?.tool_name).toBe("envelope-gate");
    expect(gunzipSync(Buffer.from(uploads[0]?.sarif ?? "", "base64")).toString("utf8")).toBe(text);
    expect(run.outputs["sarif-upload-error"]).toBe("");
    expect(checkOf(p).conclusion).toBe("failure");
    const checkDone = fake.requestsTo("PATCH", "/repos/:owner/:repo/check-runs/:id").length;
    expect(checkDone).toBeGreaterThan(0);
  });

  it("an upload GitHub refuses (403) is SARIF_UPLOAD_FAILED: a warning and an output, the verdict unchanged", async () => {
    const p = makePull(fake, { number: 6, base: policyFiles(ENVELOPE) });
    fake.fail("POST", "/repos/:owner/:repo/code-scanning/sarifs", 403);
    let run: ActionRun;
    try {
      run = await runAction({
        apiUrl: fake.url,
        pull: p,
        env: workflowEnv(p),
        inputs: { run: `sh -c "ls >/dev/null"`, "upload-sarif": "true" },
      });
    } finally {
      fake.clearFailures();
    }
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe("pass");
    expect(checkOf(p).conclusion).toBe("success");
    expect(run.outputs["sarif-upload-error"]).toMatch(/^SARIF_UPLOAD_FAILED: .*HTTP 403/);
    expect(run.stdout).toMatch(/::warning title=SARIF_UPLOAD_FAILED::/);
    // A clean run's SARIF has no results (it closes nothing it should not: there is nothing to close).
    const sarif = JSON.parse(readFileSync(run.outputs.sarif as string, "utf8")) as { runs: { results: unknown[] }[] };
    expect(sarif.runs[0]?.results).toEqual([]);
    expect(fake.repo(REPO).sarifUploads.filter((u) => u.commit_sha === p.headSha)).toEqual([]);
  });
});
