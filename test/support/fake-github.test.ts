import { Octokit } from "@octokit/core";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGitHub, startFakeGitHub } from "./fake-github.js";

let fake: FakeGitHub;
let octokit: Octokit;

beforeAll(async () => {
  fake = await startFakeGitHub();
  octokit = new Octokit({ auth: "t", baseUrl: fake.url });
});
afterAll(() => fake.close());

describe("fake GitHub", () => {
  it("serves files at a commit through the contents API and pages pull files", async () => {
    fake.addRepo("o/r");
    const base = fake.commit("o/r", { "a.txt": "one" }, { branch: "main" });
    const head = fake.commit("o/r", { "a.txt": "two" }, { parent: base });
    fake.addPull("o/r", {
      number: 1,
      base: { ref: "main", sha: base },
      head: { sha: head },
      files: Array.from({ length: 130 }, (_, i) => ({ filename: `f${i}`, status: "added" as const })),
    });
    const at = async (ref: string) => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner: "o", repo: "r", path: "a.txt", ref });
      return Buffer.from((data as { content: string }).content, "base64").toString();
    };
    expect(await at(base)).toBe("one");
    expect(await at(head)).toBe("two");
    await expect(
      octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner: "o", repo: "r", path: "nope", ref: base }),
    ).rejects.toMatchObject({ status: 404 });
    const page2 = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
      owner: "o",
      repo: "r",
      pull_number: 1,
      per_page: 100,
      page: 2,
    });
    expect(page2.data).toHaveLength(30);
    const first = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
      owner: "o",
      repo: "r",
      pull_number: 1,
      per_page: 100,
    });
    expect(first.headers.link).toContain('rel="next"');
  });

  it("keeps check runs with their annotations and refuses more than 50 per request", async () => {
    const { data } = await octokit.request("POST /repos/{owner}/{repo}/check-runs", {
      owner: "o",
      repo: "r",
      name: "c",
      head_sha: "abc",
      status: "in_progress",
    });
    const ann = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        path: "x",
        start_line: i + 1,
        end_line: i + 1,
        annotation_level: "failure" as const,
        message: `m${i}`,
      }));
    await expect(
      octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
        owner: "o",
        repo: "r",
        check_run_id: data.id,
        output: { title: "t", summary: "s", annotations: ann(51) },
      }),
    ).rejects.toMatchObject({ status: 422 });
    // GitHub's description says the same: the request was recorded as departing from it.
    expect(fake.takeMismatches()).toEqual([
      {
        request: expect.stringMatching(/^PATCH \/repos\/o\/r\/check-runs\/\d+ -> 422$/),
        problems: ["request body/output/annotations must NOT have more than 50 items"],
      },
    ]);
    await octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
      owner: "o",
      repo: "r",
      check_run_id: data.id,
      conclusion: "failure",
      output: { title: "t", summary: "s", annotations: ann(50) },
    });
    expect(fake.checkRun("o/r", "c")).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(fake.checkRun("o/r", "c")?.annotations).toHaveLength(50);
  });

  it("injects failures, lets later routes override built-ins, and serves artifacts as zips", async () => {
    fake.fail("GET", "/repos/:owner/:repo", 500, { times: 1 });
    await expect(octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })).rejects.toMatchObject({ status: 500 });
    expect((await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })).status).toBe(200);
    fake.route("GET", "/repos/:owner/:repo", () => ({ status: 200, body: { overridden: true } }));
    expect((await octokit.request("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" })).data).toEqual({ overridden: true });
    // An override answering what GitHub would not is recorded as a mismatch (and would fail the test).
    const [overridden, ...more] = fake.takeMismatches();
    expect(more).toEqual([]);
    expect(overridden?.request).toBe("GET /repos/o/r -> 200");
    expect(overridden?.problems).toContain("response 200 body must have required property 'full_name'");
    expect(overridden?.problems).toContain("response 200 body must NOT have unevaluated properties (overridden)");
    const run = fake.addWorkflowRun("o/r", { head_sha: "abc" });
    const artifact = fake.addArtifact("o/r", {
      run_id: run.id,
      name: "envelope-gate-evidence",
      files: { "a.txt": new TextEncoder().encode("hi") },
    });
    const zip = await octokit.request("GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", {
      owner: "o",
      repo: "r",
      artifact_id: artifact.id,
      archive_format: "zip",
    });
    const files = unzipSync(new Uint8Array(zip.data as ArrayBuffer));
    expect(Buffer.from(files["a.txt"] as Uint8Array).toString()).toBe("hi");
    expect(fake.requestsTo("GET", "/repos/:owner/:repo").length).toBe(3);
  });
});
