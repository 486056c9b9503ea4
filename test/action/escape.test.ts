/**
 * Issue 18, item 4: strings from the pull request reach reviewers escaped. The bundled Action
 * (dist/index.js; build first: node scripts/build.mjs) runs against the local GitHub; what it sent
 * (the check run's summary and annotations, as the fake received them) and the job summary are
 * rendered with a real GFM renderer and must carry no element, link, comment or mention of the
 * attacker's, while showing the attacker's characters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import {
  PROPERTIES_PATH,
  REPO,
  envelopeHash,
  envelopeText,
  makePull,
  observerLog,
  policyFiles,
  runAction,
  type PullFixture,
} from "../support/action-harness.js";
import { harmlessProblems, render } from "../support/gfm.js";

let fake: FakeGitHub;
let nextPull = 1800;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.addRepo(REPO);
});
afterAll(() => fake.close());

const BASE_ENVELOPE = envelopeText();
const BASE_HASH = envelopeHash(BASE_ENVELOPE);
const IMG = "<img src=x onerror=alert(1)>";

/** What the fake received for the last check run on `p`'s head: the completing PATCH bodies. */
function sentOutputs(p: PullFixture): { title: string; summary: string; annotations: { path: string; title: string; message: string }[] } {
  const run = fake
    .repo(REPO)
    .checkRuns.filter((c) => c.head_sha === p.headSha)
    .at(-1);
  if (!run) throw new Error("no check run");
  const bodies = fake.requests
    .filter((r) => r.method === "PATCH" && r.path.endsWith(`/check-runs/${run.id}`))
    .map((r) => (r.body as { output?: { title: string; summary: string; annotations?: never[] } }).output)
    .filter((o) => o !== undefined);
  expect(bodies.length).toBeGreaterThan(0);
  return {
    title: bodies.at(-1)?.title ?? "",
    summary: bodies.at(-1)?.summary ?? "",
    annotations: bodies.flatMap((o) => o.annotations ?? []),
  };
}

describe("the Action's check run and job summary escape what the pull request wrote", () => {
  it("hostile violation subjects (paths, env keys, tools, runner name) render as text", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(BASE_ENVELOPE) });
    const hostile = {
      path: `/home/runner/${IMG}.txt`,
      bidi: "/home/runner/invoice\u202etxt.exe",
      env: "X<details open><summary>all checks passed</summary>",
      tool: "[approve](https://evil.example/) @org/team <!-- hide",
      runner: "# runner @team <!--",
    };
    const log = observerLog(
      BASE_HASH,
      [
        { kind: "write", path: hostile.path, op: "write" },
        { kind: "write", path: hostile.bidi, op: "create" },
        { kind: "env", key: hostile.env },
        { kind: "tool", name: hostile.tool },
      ],
      { runner: hostile.runner },
    );
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
      workspaceFiles: { "observer.jsonl": log },
    });
    expect(run.exitCode, run.stderr).toBe(1);
    const sent = sentOutputs(p);
    for (const [where, md] of [
      ["check run summary", sent.summary],
      ["job summary", run.summary],
    ] as const) {
      const r = render(md);
      expect(harmlessProblems(r, { mentions: ["@copilot-swe-agent"], refs: [`#${p.number}`] }), `${where}: ${r.html}`).toEqual([]);
      const text = r.text.replace(/\u200b/g, "");
      // The reviewer sees exactly what the run touched.
      expect(text).toContain(`write_outside_root:${hostile.path}`);
      expect(text).toContain("/home/runner/invoice\\u{202E}txt.exe");
      expect(text).toContain(hostile.env);
      expect(text).toContain(hostile.tool);
      expect(text).toContain(hostile.runner);
    }
    // Annotations are plain text on GitHub: the characters as they are, invisible ones shown.
    const titles = sent.annotations.map((a) => a.title);
    expect(titles).toContain(`write_outside_root:${hostile.path}`);
    expect(titles).toContain("write_outside_root:/home/runner/invoice\\u{202E}txt.exe");
    expect(titles).toContain(`undeclared_tool:${hostile.tool}`);
    for (const a of sent.annotations) expect(`${a.title}${a.message}`).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    expect(sent.title).toMatch(/^envelope_fail: 4 envelope violations/);
  });

  it("hostile PR file names in a patch_paths failure render as text; the annotation stays on the file", async () => {
    const properties = JSON.stringify({ version: 1, properties: [{ name: "patch_scope", kind: "patch_paths", globs: ["src/**"] }] });
    const names = [`docs/@team ${IMG}.md`, "notes/fixes #1 `x` [y](https://evil.example/).md"];
    const p = makePull(fake, {
      number: ++nextPull,
      base: { ...policyFiles(BASE_ENVELOPE), [PROPERTIES_PATH]: properties },
      head: Object.fromEntries(names.map((n) => [n, "x\n"])),
    });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
      workspaceFiles: { "observer.jsonl": observerLog(BASE_HASH, [{ kind: "tool", name: "read_file" }]) },
    });
    expect(run.exitCode, run.stderr).toBe(1);
    const sent = sentOutputs(p);
    const r = render(sent.summary);
    expect(harmlessProblems(r, { mentions: ["@copilot-swe-agent"], refs: [`#${p.number}`] }), r.html).toEqual([]);
    const text = r.text.replace(/\u200b/g, "");
    for (const n of names) expect(text).toContain(n);
    // GitHub places an annotation by its path: the file's own name, unaltered.
    expect(sent.annotations.map((a) => a.path).sort()).toEqual([...names].sort());
  });

  it("clean twin: an ordinary violation reads as before, its id in a code span", async () => {
    const p = makePull(fake, { number: ++nextPull, base: policyFiles(BASE_ENVELOPE) });
    const run = await runAction({
      apiUrl: fake.url,
      pull: p,
      inputs: { "observer-log": "observer.jsonl", workspace: "/work" },
      workspaceFiles: {
        "observer.jsonl": observerLog(BASE_HASH, [{ kind: "write", path: "/home/runner/.ssh/authorized_keys", op: "write" }]),
      },
    });
    expect(run.exitCode).toBe(1);
    const sent = sentOutputs(p);
    expect(sent.summary).toContain("`write_outside_root:/home/runner/.ssh/authorized_keys`");
    const r = render(sent.summary);
    expect(harmlessProblems(r, { mentions: ["@copilot-swe-agent"], refs: [`#${p.number}`] })).toEqual([]);
    expect(r.textIn("code")).toContain("write_outside_root:/home/runner/.ssh/authorized_keys");
    expect(sent.annotations.map((a) => a.title)).toEqual(["write_outside_root:/home/runner/.ssh/authorized_keys"]);
  });
});
