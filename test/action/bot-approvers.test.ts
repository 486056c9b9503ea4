/**
 * Approvers are people by default (issue 18, item 7): through the bundled Action, a bot with
 * write access approving the head of a pull request that widens its envelope does not apply the
 * widened envelope; the bot-approvers input is the one way to let a named bot count.
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
let nextPull = 400;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
  const repo = fake.repo(REPO);
  repo.collaborators.set("renovate[bot]", "write");
  repo.collaborators.set("ci-robot", "admin");
  repo.collaborators.set("maintainer-mia", "maintain");
});
afterAll(() => fake.close());

const BASE = envelopeText();
const WIDENED = envelopeText({ allowed_env: [...(JSON.parse(BASE).allowed_env as string[]), "AWS_SECRET_ACCESS_KEY"] });
const WIDENED_HASH = envelopeHash(WIDENED);
const EVENTS: LogEvent[] = [
  { kind: "tool", name: "read_file" },
  { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
];

function widening(): PullFixture {
  return makePull(fake, { number: ++nextPull, base: policyFiles(BASE), head: policyFiles(WIDENED) });
}

function checkRunFor(p: PullFixture): FakeCheckRun {
  const run = fake
    .repo(REPO)
    .checkRuns.filter((c) => c.head_sha === p.headSha && c.name === "envelope-gate")
    .at(-1);
  if (!run) throw new Error(`no check run on ${p.headSha}`);
  return run;
}

function gate(p: PullFixture, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    apiUrl: fake.url,
    pull: p,
    inputs: { "observer-log": "observer.jsonl", workspace: "/work", ...inputs },
    workspaceFiles: { "observer.jsonl": observerLog(WIDENED_HASH, EVENTS) },
  });
}

describe("approvers are people by default", () => {
  it("attack: renovate[bot] with write access approves the head; the widened envelope is not applied", async () => {
    const p = widening();
    fake.addReview(REPO, p.number, { user: { login: "renovate[bot]" }, state: "APPROVED", commit_id: p.headSha });
    // A bot by its user type, whatever its login says.
    fake.addReview(REPO, p.number, { user: { login: "ci-robot", type: "Bot" }, state: "APPROVED", commit_id: p.headSha });
    const run = await gate(p);
    expect(run.exitCode).toBe(1);
    // The base envelope applies, under which the widened log was not recorded.
    expect(run.outputs["envelope-hash"]).toBe(envelopeHash(BASE));
    expect(run.outputs["error-code"]).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
    const summary = shownText(checkRunFor(p).output.summary);
    expect(summary).toContain("Not counted as approvals of the policy change: @renovate[bot], @ci-robot");
    expect(summary).not.toContain("policy change approved");
    // The bots' permissions were never even asked.
    expect(fake.requestsTo("GET", "/repos/:owner/:repo/collaborators/:username/permission")).toEqual([]);
  });

  it("without approval a clean run under the base envelope is action_required, as with no review at all", async () => {
    const p = widening();
    fake.addReview(REPO, p.number, { user: { login: "renovate[bot]" }, state: "APPROVED", commit_id: p.headSha });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
      workspaceFiles: { "observer.jsonl": observerLog(envelopeHash(BASE), [{ kind: "tool", name: "read_file" }]) },
    });
    expect(run.outputs.verdict).toBe("action_required");
    expect(checkRunFor(p).conclusion).toBe("action_required");
  });

  it("named in bot-approvers, renovate[bot]'s approval counts like a person's, and the head's envelope applies", async () => {
    const p = widening();
    fake.addReview(REPO, p.number, { user: { login: "renovate[bot]" }, state: "APPROVED", commit_id: p.headSha });
    const run = await gate(p, { "bot-approvers": "renovate[bot]" });
    expect(run.exitCode, run.summary).toBe(0);
    expect(run.outputs["envelope-hash"]).toBe(WIDENED_HASH);
    expect(checkRunFor(p).conclusion).toBe("success");
    expect(shownText(checkRunFor(p).output.summary)).toContain("@renovate[bot]");
  });

  it("clean twin: a person with write access approving the head still applies the change", async () => {
    const p = widening();
    fake.addReview(REPO, p.number, { user: { login: "maintainer-mia" }, state: "APPROVED", commit_id: p.headSha });
    const run = await gate(p);
    expect(run.exitCode, run.summary).toBe(0);
    expect(run.outputs["envelope-hash"]).toBe(WIDENED_HASH);
  });

  it("bot-approvers takes logins only: a glob is CONFIG_INVALID", async () => {
    const p = widening();
    const run = await gate(p, { "bot-approvers": "*[bot]" });
    expect(run.exitCode).toBe(1);
    expect(run.outputs["error-code"]).toBe("CONFIG_INVALID");
  });
});
