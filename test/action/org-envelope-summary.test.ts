/**
 * Issue 36, item 3: the Action's summary shows the organisation envelope's result when the App
 * has posted it (docs/app.md, "An organisation's envelope"). The bundled Action (dist/index.js;
 * build first: node scripts/build.mjs) against the local GitHub, with the App's verified check
 * (made by the App, FAKE_APP) on the head; a check of the same name by the job token is not the App's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_ACTIONS_APP, startFakeGitHub, type FakeCheckRun, type FakeGitHub } from "../support/fake-github.js";
import { FAKE_APP } from "../support/fake-shapes.js";
import { REPO, envelopeHash, envelopeText, makePull, observerLog, policyFiles, runAction } from "../support/action-harness.js";
import { render } from "../support/gfm.js";

let fake: FakeGitHub;
let nextPull = 3600;
beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
});
afterAll(() => fake.close());

const BASE = envelopeText();
const HASH = envelopeHash(BASE);

function appCheck(headSha: string, app: FakeCheckRun["app"], title: string, summary: string): void {
  const repo = fake.repo(REPO);
  repo.checkRuns.push({
    id: fake.nextId(),
    name: "envelope-gate / verified",
    head_sha: headSha,
    status: "completed",
    conclusion: title.startsWith("Verified") ? "success" : "failure",
    external_id: null,
    details_url: null,
    started_at: new Date().toISOString(),
    completed_at: new Date().toISOString(),
    output: { title, summary, text: null, annotations_count: 0 },
    annotations: [],
    updates: [],
    app,
  });
}

async function gate(setup: (headSha: string) => void) {
  const p = makePull(fake, { number: ++nextPull, base: policyFiles(BASE) });
  setup(p.headSha);
  const run = await runAction({
    apiUrl: fake.url,
    pull: p,
    inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
    workspaceFiles: { "observer.jsonl": observerLog(HASH, [{ kind: "tool", name: "read_file" }]) },
  });
  return { run, text: render(run.summary).text };
}

describe("the Action's summary and the organisation envelope", () => {
  it("shows the App's word on the organisation envelope from its verified check on the head", async () => {
    const { run, text } = await gate((head) =>
      appCheck(
        head,
        FAKE_APP,
        "Not verified: the envelope allows more than the organisation's (1 widening)",
        "`ORG_ENVELOPE_WIDENED`: the run passed, but the base's envelope is not within the organisation envelope (docs/app.md, An organisation's envelope):\n\n- .github/envelope-gate/envelope.json:7: allowed\\_hosts \"evil.example:443\": the ceiling does not allow it\n\nRun 1 (attempt 1)",
      ),
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(text).toContain("Organisation envelope");
    expect(text).toContain("Not verified: the envelope allows more than the organisation's (1 widening)");
    expect(text).toContain("ORG_ENVELOPE_WIDENED: the run passed, but the base's envelope is not within the organisation envelope");
  });

  it("attack: a check of the verified check's name posted by the job token is not the App's, and is not shown", async () => {
    const { text } = await gate((head) =>
      appCheck(
        head,
        GITHUB_ACTIONS_APP,
        "Verified: the base's gate passed on this commit",
        "Within the organisation envelope `acme` (forged).",
      ),
    );
    expect(text).not.toContain("Organisation envelope");
    expect(text).not.toContain("forged");
  });

  it("clean twin: no verified check on the head yet, no section", async () => {
    const { run, text } = await gate(() => undefined);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(text).not.toContain("Organisation envelope");
  });
});
