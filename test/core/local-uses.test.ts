/** core/local-uses.ts: the local workflows and actions a gate workflow reaches, read as YAML and followed all the way down. */
import { describe, expect, it } from "vitest";
import { compareScopes, usesIn, USES_MAX_DEPTH, walkLocalUses, type LocalRef, type Scope } from "../../src/core/local-uses.js";
import type { RunRefusal, TreeAt } from "../../src/core/run-checks.js";

const ROOT = ".github/workflows/envelope-gate.yml";

describe("usesIn: the local references of a workflow, as a YAML parser reads it", () => {
  const action = (path: string): LocalRef => ({ kind: "action", path });
  it.each<[string, string, LocalRef[]]>([
    ["a pinned Action only", "jobs:\n  g:\n    steps:\n      - uses: envelope-gate/envelope-gate@v1\n", []],
    ["the repository's own Action", "steps:\n  - uses: ./\n", [action("")]],
    ["`uses: .`", "steps:\n  - uses: .\n", [action("")]],
    ["quoted, with a comment", "steps:\n  - uses: './tools/gate' # local\n", [action("tools/gate")]],
    [
      "a local reusable workflow",
      "jobs:\n  g:\n    uses: ./.github/workflows/reusable.yml\n",
      [{ kind: "workflow", path: ".github/workflows/reusable.yml" }],
    ],
    ["a docker action is not local", "steps:\n  - uses: docker://alpine:3\n", []],
    [
      "several, a trailing slash folded",
      "steps:\n  - uses: ./a\n  - uses: actions/checkout@v4\n  - uses: ./b/\n",
      [action("a"), action("b")],
    ],
    ["flow style", "jobs: { g: { steps: [ { uses: ./, with: { run: x } } ] } }\n", [action("")]],
    ["flow style, quoted key", 'steps:\n  - { "uses": "./tools" }\n', [action("tools")]],
    ["an escaped key (the regex read nothing)", 'steps:\n  - "u\\x73es": ./.github/actions/gate\n', [action(".github/actions/gate")]],
    ["a key in another case", "steps:\n  - USES: ./x\n", [action("x")]],
    ["an alias to an anchored value", "x: &gate ./tools/gate\nsteps:\n  - uses: *gate\n", [action("tools/gate")]],
    ["a block scalar", "steps:\n  - uses: >-\n      ./vendor\n", [action("vendor")]],
    ["`.` and `..` folded", "steps:\n  - uses: ./a/../b/./c\n", [action("b/c")]],
    ["a key that only ends in uses is not one", "steps:\n  - reuses: ./x\n", []],
  ])("%s", (_name, text, expected) => {
    expect(usesIn(text, "w.yml")).toEqual(expected);
  });

  it.each<[string, string]>([
    ["an expression", "steps:\n  - uses: ${{ matrix.action }}\n"],
    ["no value", "steps:\n  - uses:\n"],
    ["a mapping", "steps:\n  - uses: { path: ./x }\n"],
    ["an undefined alias", "steps:\n  - uses: *gate\n"],
    ["a duplicate key", "steps:\n  - uses: actions/checkout@v4\n    uses: ./x\n"],
    ["a syntax error", "steps:\n  - uses: [./x\n"],
    ["a path that leaves the repository", "steps:\n  - uses: ./../elsewhere\n"],
  ])("refused: %s", (_name, text) => {
    expect(usesIn(text, "w.yml")).toMatchObject({ code: "RUNNER_A_USES_UNREADABLE" });
  });
});

const tree = (files: Record<string, string>, truncated = false): TreeAt => ({
  truncated,
  blobs: new Map(Object.keys(files).map((p) => [p, `100644:${files[p]}`])),
});

/** Drives the walk over a base (path -> text) and compares the scopes with the head, as the App does. */
function judge(base: Record<string, string>, head: Record<string, string>, options: { truncated?: boolean; unreadable?: string } = {}) {
  const baseTree = tree(base, options.truncated);
  const walk = walkLocalUses(ROOT, base[ROOT] as string);
  let step = walk.next();
  let asked = 0;
  while (!step.done) {
    const need = step.value;
    if (need.kind === "tree") step = walk.next(baseTree);
    else {
      asked++;
      step = walk.next(need.path === options.unreadable ? null : (base[need.path] ?? null));
    }
  }
  const out: RunRefusal | Scope[] = step.value;
  return { out, asked, verdict: "code" in out ? out : compareScopes(out, tree(head), baseTree) };
}

const GATE = (uses: string) => `on: pull_request\njobs:\n  gate:\n    ${uses}\n`;
const STEP = (uses: string) => GATE(`runs-on: ubuntu-latest\n    steps:\n      - uses: ${uses}`);
const VENDORED = {
  ".github/actions/envelope-gate/action.yml": "runs:\n  using: node24\n  main: dist/index.js\n",
  ".github/actions/envelope-gate/dist/index.js": "gate();",
};
const NESTED = {
  [ROOT]: GATE("uses: ./.github/workflows/gate-reusable.yml"),
  ".github/workflows/gate-reusable.yml": "on: workflow_call\njobs:\n  g:\n    steps:\n      - uses: ./.github/actions/envelope-gate\n",
  ...VENDORED,
  "src/index.ts": "x",
};

describe("walkLocalUses + compareScopes: every local workflow and action is the base's", () => {
  it("a pinned Action: nothing to fetch, nothing to compare", () => {
    const { out, asked } = judge({ [ROOT]: STEP("envelope-gate/envelope-gate@v1") }, {});
    expect(out).toEqual([]);
    expect(asked).toBe(0);
  });

  it("attack (issue 30, item 3): a nested reusable workflow's vendored action edited at the head is refused, naming the way there", () => {
    const { verdict } = judge(NESTED, { ...NESTED, ".github/actions/envelope-gate/dist/index.js": "process.exit(0);" });
    expect(verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(verdict?.reason).toContain("./.github/actions/envelope-gate (used by .github/workflows/gate-reusable.yml, used by " + ROOT);
    expect(verdict?.reason).toContain("dist/index.js");
  });

  it("clean twin: the same nesting with the patch elsewhere passes", () => {
    expect(judge(NESTED, { ...NESTED, "src/index.ts": "y" }).verdict).toBeNull();
  });

  it("the reusable workflow itself edited at the head is refused", () => {
    const edited = { ...NESTED, ".github/workflows/gate-reusable.yml": "jobs: {}\n" };
    expect(judge(NESTED, edited).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
  });

  it("attack: an escaped key the regex could not read reaches the vendored action", () => {
    const base = { [ROOT]: GATE('steps:\n      - "u\\x73es": ./.github/actions/envelope-gate'), ...VENDORED };
    expect(judge(base, { ...base, ".github/actions/envelope-gate/dist/index.js": "x" }).verdict).toMatchObject({
      code: "RUNNER_A_WORKFLOW_CHANGED",
    });
    expect(judge(base, { ...base, "README.md": "x" }).verdict).toBeNull();
  });

  it("a composite action's own local uses are followed", () => {
    const base = {
      [ROOT]: STEP("./.github/actions/outer"),
      ".github/actions/outer/action.yml": "runs:\n  using: composite\n  steps:\n    - uses: ./.github/actions/inner\n",
      ".github/actions/inner/action.yaml": "runs: { using: node20, main: index.js }\n",
      ".github/actions/inner/index.js": "a",
    };
    expect(judge(base, base).verdict).toBeNull();
    expect(judge(base, { ...base, ".github/actions/inner/index.js": "b" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(judge(base, { ...base, ".github/actions/inner/extra.js": "b" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
  });

  it("a JS action's main, pre or post outside its directory: that file's directory is compared too", () => {
    const base = {
      [ROOT]: STEP("./.github/actions/shim"),
      ".github/actions/shim/action.yml": "runs:\n  using: node24\n  main: ../../../dist/index.js\n  post: ../../../tools/post.js\n",
      "dist/index.js": "a",
      "dist/chunk.js": "b",
      "tools/post.js": "c",
    };
    expect(judge(base, base).verdict).toBeNull();
    expect(judge(base, { ...base, "dist/chunk.js": "x" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(judge(base, { ...base, "tools/post.js": "x" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
  });

  it("a docker action's Dockerfile outside its directory is compared; a Dockerfile-only directory is compared whole", () => {
    const base = {
      [ROOT]: GATE("steps:\n      - uses: ./.github/actions/box\n      - uses: ./.github/actions/bare"),
      ".github/actions/box/action.yml": "runs:\n  using: docker\n  image: ../../docker/Dockerfile\n",
      ".github/docker/Dockerfile": "FROM alpine",
      ".github/actions/bare/Dockerfile": "FROM alpine",
    };
    expect(judge(base, base).verdict).toBeNull();
    expect(judge(base, { ...base, ".github/docker/Dockerfile": "FROM evil" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(judge(base, { ...base, ".github/actions/bare/Dockerfile": "FROM evil" }).verdict).toMatchObject({
      code: "RUNNER_A_WORKFLOW_CHANGED",
    });
  });

  it("`uses: ./`: action.yml, action.yaml and the directory of the file it runs (dist/), not the rest of the repository", () => {
    const base = {
      [ROOT]: STEP("./"),
      "action.yml": "runs: { using: node24, main: dist/index.js }\n",
      "dist/index.js": "a",
      "src/x.ts": "s",
    };
    expect(judge(base, { ...base, "src/x.ts": "t" }).verdict).toBeNull();
    expect(judge(base, { ...base, "dist/index.js": "b" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(judge(base, { ...base, "dist/extra.js": "b" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
    expect(judge(base, { ...base, "action.yaml": "b" }).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
  });

  it("a local path the base lacks (a checkout directory in no git tree) is refused", () => {
    const base = { [ROOT]: STEP("./.envelope-gate-action") };
    expect(judge(base, base).verdict).toMatchObject({
      code: "RUNNER_A_WORKFLOW_CHANGED",
      reason: expect.stringContaining("not in the base"),
    });
    const noWorkflow = { [ROOT]: GATE("uses: ./.github/workflows/missing.yml") };
    expect(judge(noWorkflow, noWorkflow).verdict).toMatchObject({ code: "RUNNER_A_WORKFLOW_CHANGED" });
  });

  it("a cycle is refused: two reusable workflows using each other, or one using the gate workflow", () => {
    const cycle = {
      [ROOT]: GATE("uses: ./.github/workflows/a.yml"),
      ".github/workflows/a.yml": GATE("uses: ./.github/workflows/b.yml"),
      ".github/workflows/b.yml": GATE("uses: ./.github/workflows/a.yml"),
    };
    expect(judge(cycle, cycle).verdict).toMatchObject({ code: "RUNNER_A_USES_CYCLE" });
    const self = { [ROOT]: GATE("uses: ./.github/workflows/a.yml"), ".github/workflows/a.yml": GATE(`uses: ./${ROOT}`) };
    expect(judge(self, self).verdict).toMatchObject({ code: "RUNNER_A_USES_CYCLE" });
  });

  it("a diamond (two workflows using one action) is no cycle", () => {
    const base = {
      [ROOT]: GATE("uses: ./.github/workflows/a.yml"),
      ".github/workflows/a.yml": GATE("steps:\n      - uses: ./.github/workflows/b.yml\n      - uses: ./.github/actions/x"),
      ".github/workflows/b.yml": STEP("./.github/actions/x"),
      ".github/actions/x/action.yml": "runs: { using: node24, main: i.js }\n",
      ".github/actions/x/i.js": "1",
    };
    expect(judge(base, base).verdict).toBeNull();
  });

  it(`nesting deeper than ${USES_MAX_DEPTH} levels is refused`, () => {
    const base: Record<string, string> = { [ROOT]: GATE("uses: ./.github/workflows/w0.yml") };
    for (let i = 0; i <= USES_MAX_DEPTH; i++) base[`.github/workflows/w${i}.yml`] = GATE(`uses: ./.github/workflows/w${i + 1}.yml`);
    base[`.github/workflows/w${USES_MAX_DEPTH + 1}.yml`] = GATE("runs-on: x");
    expect(judge(base, base).verdict).toMatchObject({ code: "RUNNER_A_USES_UNBOUNDED" });
    const shallow: Record<string, string> = { [ROOT]: GATE("uses: ./.github/workflows/w0.yml") };
    for (let i = 0; i < USES_MAX_DEPTH - 1; i++) shallow[`.github/workflows/w${i}.yml`] = GATE(`uses: ./.github/workflows/w${i + 1}.yml`);
    shallow[`.github/workflows/w${USES_MAX_DEPTH - 1}.yml`] = GATE("runs-on: x");
    expect(judge(shallow, shallow).verdict).toBeNull();
  });

  it("a nested file that does not parse, or whose text GitHub did not return, is refused", () => {
    const broken = { ...NESTED, ".github/workflows/gate-reusable.yml": "jobs: [\n" };
    expect(judge(broken, broken).verdict).toMatchObject({ code: "RUNNER_A_USES_UNREADABLE" });
    expect(judge(NESTED, NESTED, { unreadable: ".github/actions/envelope-gate/action.yml" }).verdict).toMatchObject({
      code: "RUNNER_A_USES_UNREADABLE",
    });
  });

  it("a truncated tree listing is refused", () => {
    expect(judge(NESTED, NESTED, { truncated: true }).verdict).toMatchObject({ code: "RUNNER_A_UNVERIFIED" });
  });
});
