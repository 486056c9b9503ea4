/** src/github against the local GitHub: real HTTP, the real Octokit with retry and throttling. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeCheckRun, createCheckRun } from "../../src/github/checks.js";
import { GitHubUnavailable, createGitHubClient, type GitHubClient } from "../../src/github/client.js";
import { getCollaboratorRole, listPullFiles, listReviews, readFileAt } from "../../src/github/repo.js";
import { closedPort, startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";

let fake: FakeGitHub;
const repo = { owner: "o", repo: "r" };
beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo("o/r");
});
afterAll(() => fake.close());

let shared: GitHubClient;
beforeAll(async () => {
  shared = await createGitHubClient({ token: "t", baseUrl: fake.url, retry: { retries: 2, retryBaseMs: 1 } });
});
const client = (): GitHubClient => shared;

async function failure(p: Promise<unknown>): Promise<GitHubUnavailable> {
  try {
    await p;
  } catch (err) {
    if (err instanceof GitHubUnavailable) return err;
    throw err;
  }
  throw new Error("expected a failure");
}

describe("src/github", () => {
  it("reads exact bytes at a commit, null for 404, and GITHUB_UNAVAILABLE after bounded retries for 500", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a, 0xff]);
    const sha = fake.commit("o/r", { "policy/env.json": bytes }, { parent: null });
    expect(await readFileAt(client(), repo, "policy/env.json", sha)).toEqual(bytes);
    expect(await readFileAt(client(), repo, "policy/nope.json", sha)).toBeNull();
    const before = fake.requests.length;
    fake.fail("GET", "/repos/:o/:r/contents/*p", 500);
    try {
      const err = await failure(readFileAt(client(), repo, "policy/env.json", sha));
      expect(err.code).toBe("GITHUB_UNAVAILABLE");
      expect(err.status).toBe(500);
      expect(fake.requests.length - before).toBe(3);
    } finally {
      fake.clearFailures();
    }
  });

  it("reports a closed port as GITHUB_UNAVAILABLE with no status", async () => {
    const port = await closedPort();
    const dead = await createGitHubClient({ token: "t", baseUrl: `http://127.0.0.1:${port}`, retry: { retries: 1, retryBaseMs: 1 } });
    const err = await failure(readFileAt(dead, repo, "x", "main"));
    expect(err.code).toBe("GITHUB_UNAVAILABLE");
    expect(err.status).toBeNull();
  });

  it("gives up on a request that does not answer within github-timeout-ms", async () => {
    fake.route(
      "GET",
      "/repos/:owner/:repo/pulls/:n/reviews",
      () => new Promise((done) => setTimeout(() => done({ status: 200, body: [] }), 3000)),
    );
    const slow = await createGitHubClient({ token: "t", baseUrl: fake.url, retry: { retries: 0, retryBaseMs: 1, timeoutMs: 200 } });
    const err = await failure(listReviews(slow, repo, 1));
    expect(err.code).toBe("GITHUB_UNAVAILABLE");
    expect(err.status).toBeNull();
  });

  it("does not retry a 403 and keeps its status, so callers can tell a missing permission", async () => {
    const before = fake.requests.length;
    fake.fail("POST", "/repos/:o/:r/check-runs", 403, { times: 5 });
    try {
      const err = await failure(createCheckRun(client(), repo, { name: "c", headSha: "a".repeat(40) }));
      expect(err.status).toBe(403);
      expect(fake.requests.length - before).toBe(1);
    } finally {
      fake.clearFailures();
    }
  });

  it("pages through every pull request file, and tells a non-collaborator from an outage", async () => {
    const sha = fake.commit("o/r", { a: "1" }, { parent: null });
    fake.addPull("o/r", {
      number: 9,
      base: { ref: "main", sha },
      head: { sha },
      files: Array.from({ length: 250 }, (_, i) => ({ filename: `f${i}`, status: "added" as const })),
    });
    expect((await listPullFiles(client(), repo, 9)).map((f) => f.filename)).toHaveLength(250);
    fake.repo("o/r").collaborators.set("mia", "maintain");
    expect(await getCollaboratorRole(client(), repo, "mia")).toBe("maintain");
    expect(await getCollaboratorRole(client(), repo, "stranger")).toBeNull();
    fake.fail("GET", "/repos/:o/:r/collaborators/:u/permission", 502);
    try {
      expect((await failure(getCollaboratorRole(client(), repo, "mia"))).code).toBe("GITHUB_UNAVAILABLE");
    } finally {
      fake.clearFailures();
    }
  });

  it("completes a check run with annotations in batches of 50, the conclusion last", async () => {
    const c = client();
    const run = await createCheckRun(c, repo, { name: "batch", headSha: "b".repeat(40) });
    const annotations = Array.from({ length: 120 }, (_, i) => ({
      path: "x",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "failure" as const,
      title: `t${i}`,
      message: "m",
    }));
    expect(await completeCheckRun(c, repo, run.id, { conclusion: "failure", title: "t", summary: "s", annotations })).toBe(3);
    const stored = fake.checkRun("o/r", "batch");
    expect(stored?.annotations).toHaveLength(120);
    expect(stored?.updates.map((u) => u.conclusion ?? null)).toEqual([null, null, null, "failure"]);
  });
});
