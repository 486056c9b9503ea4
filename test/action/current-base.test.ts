/**
 * The current base, always (issue 18, item 6): the bundled Action judges a pull request against
 * the base branch GitHub's API names now, at that branch's current commit, never against the
 * base the event recorded. A retargeted pull request (the event says dev, the API main) is
 * refused with PULL_REQUEST_BASE_CHANGED; the run for the retarget judges it against main.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeCheckRun, type FakeGitHub } from "../support/fake-github.js";
import { shownText } from "../support/gfm.js";
import {
  REPO,
  envelopeHash,
  envelopeText,
  makePull,
  observerLog,
  policyFiles,
  runAction,
  type ActionRun,
  type LogEvent,
  type PullFixture,
} from "../support/action-harness.js";

let fake: FakeGitHub;
let nextPull = 300;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
});
afterAll(() => fake.close());

const STRICT = envelopeText();
const STRICT_HASH = envelopeHash(STRICT);
// dev's envelope lets the run read a secret; main's does not.
const LAX = envelopeText({ allowed_env: [...(JSON.parse(STRICT).allowed_env as string[]), "AWS_SECRET_ACCESS_KEY"] });
const LAX_HASH = envelopeHash(LAX);
const CLEAN: LogEvent[] = [
  { kind: "tool", name: "read_file" },
  { kind: "write", path: "/work/src/widget.ts", op: "write" },
];
const READS_SECRET: LogEvent[] = [...CLEAN, { kind: "env", key: "AWS_SECRET_ACCESS_KEY" }];

function checkRunFor(p: PullFixture): FakeCheckRun {
  const run = fake
    .repo(REPO)
    .checkRuns.filter((c) => c.head_sha === p.headSha && c.name === "envelope-gate")
    .at(-1);
  if (!run) throw new Error(`no check run on ${p.headSha}`);
  return run;
}

/** A pull request opened against dev (lax), then retargeted to main (strict): the API says main now. */
function retargeted(): { p: PullFixture; devSha: string; mainSha: string } {
  const p = makePull(fake, { number: ++nextPull, baseRef: "dev", base: policyFiles(LAX) });
  const mainSha = fake.commit(REPO, policyFiles(STRICT), { parent: null, branch: "main", message: "main" });
  const pull = fake.repo(REPO).pulls.get(p.number);
  if (!pull) throw new Error("no pull");
  pull.base = { ref: "main", sha: mainSha };
  return { p, devSha: p.baseSha, mainSha };
}

function gateWithEvent(p: PullFixture, base: { ref: string; sha: string }, log: string, action = "synchronize"): Promise<ActionRun> {
  return runAction({
    apiUrl: fake.url,
    pull: p,
    event: { action, number: p.number, pull_request: { number: p.number, head: { sha: p.headSha }, base } },
    inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
    workspaceFiles: { "observer.jsonl": log },
  });
}

describe("the current base, always", () => {
  it("attack: a run started for dev's base is refused once the PR targets main (PULL_REQUEST_BASE_CHANGED), never judged with dev's envelope", async () => {
    const { p, devSha } = retargeted();
    // The log dev's envelope allows: with the event's base it used to pass.
    const run = await gateWithEvent(p, { ref: "dev", sha: devSha }, observerLog(LAX_HASH, READS_SECRET));
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("PULL_REQUEST_BASE_CHANGED");
    expect(run.outputs.verdict).toBe("error");
    const check = checkRunFor(p);
    expect(check.conclusion).toBe("failure");
    expect(check.output.summary).toContain("targets main now, not dev");
    // Nothing was read at dev's commit.
    const readsAtDev = fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").filter((r) => r.query.includes(devSha));
    expect(readsAtDev).toEqual([]);
  });

  it("attack: the run for the retarget (edited, base main) is judged with main's envelope, whatever base sha the event carries", async () => {
    const { p, devSha, mainSha } = retargeted();
    // The event's sha is dev's commit: only the API's branch tip counts.
    const fails = await gateWithEvent(p, { ref: "main", sha: devSha }, observerLog(STRICT_HASH, READS_SECRET), "edited");
    expect(fails.exitCode).toBe(1);
    expect(fails.outputs.verdict).toBe("envelope_fail");
    expect(fails.outputs["envelope-hash"]).toBe(STRICT_HASH);
    expect(JSON.parse(fails.outputs.violations ?? "[]").map((v: { id: string }) => v.id)).toEqual(["undeclared_env:AWS_SECRET_ACCESS_KEY"]);
    expect(checkRunFor(p).output.summary).toContain(mainSha.slice(0, 12));
    // dev's log is not judged against main's envelope either: it was recorded under another one.
    const mismatch = await gateWithEvent(p, { ref: "main", sha: mainSha }, observerLog(LAX_HASH, READS_SECRET), "edited");
    expect(mismatch.outputs["error-code"]).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
  });

  it("clean twin: event and API agree on the base, and a clean run passes against it", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(STRICT) });
    const run = await gateWithEvent(p, { ref: "main", sha: p.baseSha }, observerLog(STRICT_HASH, CLEAN));
    expect(run.exitCode, run.summary).toBe(0);
    expect(checkRunFor(p).conclusion).toBe("success");
    expect(run.summary).not.toContain("judged against the branch's current commit");
  });

  it("a base branch that moved on is judged at its current commit, and the summary says so", async () => {
    // Moved on without touching the policy: nothing changes but the commit judged against.
    const q = makePull(fake, { number: ++nextPull, base: policyFiles(STRICT) });
    const readme = fake.commit(REPO, { "README.md": "widgets\n" }, { branch: "main", message: "docs" });
    const passes = await gateWithEvent(q, { ref: "main", sha: q.baseSha }, observerLog(STRICT_HASH, CLEAN));
    expect(passes.exitCode, passes.summary).toBe(0);
    expect(shownText(passes.summary)).toContain(`The base branch main is at \`${readme.slice(0, 12)}\``);
    expect(fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").some((r) => r.query.includes(readme))).toBe(true);

    // The PR and the event recorded main at a lax commit; main has tightened since.
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(LAX) });
    const tip = fake.commit(REPO, policyFiles(STRICT), { branch: "main", message: "tighten the envelope" });
    const lax = await gateWithEvent(p, { ref: "main", sha: p.baseSha }, observerLog(LAX_HASH, READS_SECRET));
    expect(lax.exitCode).toBe(1);
    expect(lax.outputs["error-code"]).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
    // The head still carries main's old envelope, so against main's tip it reads as a policy change:
    // action_required until approved or rebased, with main's current envelope applied meanwhile.
    const clean = await gateWithEvent(p, { ref: "main", sha: p.baseSha }, observerLog(STRICT_HASH, CLEAN));
    expect(clean.outputs.verdict, clean.summary).toBe("action_required");
    expect(clean.outputs["envelope-hash"]).toBe(STRICT_HASH);
    expect(shownText(clean.summary)).toContain(`The base branch main is at \`${tip.slice(0, 12)}\`, not at \`${p.baseSha.slice(0, 12)}\``);
  });

  it("runner B (workflow_dispatch, no pull request in the event) is judged at the base branch's current commit too", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(LAX) });
    fake.commit(REPO, policyFiles(STRICT), { branch: "main", message: "tighten the envelope" });
    const run = await runAction({
      apiUrl: fake.url,
      eventName: "workflow_dispatch",
      event: { inputs: { pull_request: String(p.number) } },
      inputs: { "observer-log": "observer.jsonl", workspace: "/work", "pull-request": String(p.number), "head-sha": p.headSha },
      workspaceFiles: { "observer.jsonl": observerLog(LAX_HASH, READS_SECRET) },
    });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
  });

  it("a base branch GitHub cannot read is GITHUB_UNAVAILABLE: the event's base is never a fallback", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(STRICT) });
    fake.fail("GET", "/repos/:owner/:repo/git/ref/*ref", 500);
    try {
      const run = await gateWithEvent(p, { ref: "main", sha: p.baseSha }, observerLog(STRICT_HASH, CLEAN));
      expect(run.exitCode).toBe(1);
      expect(run.outputs["error-code"]).toBe("GITHUB_UNAVAILABLE");
      expect(checkRunFor(p).conclusion).toBe("failure");
      expect(fake.requestsTo("GET", "/repos/:owner/:repo/contents/*path").filter((r) => r.query.includes(p.baseSha))).toEqual([]);
    } finally {
      fake.clearFailures();
    }
  });

  it("a base branch that no longer exists is PULL_REQUEST_BASE_MISSING", async () => {
    const p = makePull(fake, { number: ++nextPull, baseRef: "release-1", base: policyFiles(STRICT) });
    fake.repo(REPO).refs.delete("heads/release-1");
    const run = await gateWithEvent(p, { ref: "release-1", sha: p.baseSha }, observerLog(STRICT_HASH, CLEAN));
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("PULL_REQUEST_BASE_MISSING");
    expect(checkRunFor(p).conclusion).toBe("failure");
  });
});
