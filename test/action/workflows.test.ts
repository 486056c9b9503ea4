/**
 * Issue 30, item 4: no code of the pull request runs outside the jail before the gate, in this
 * repository's workflows and every workflow the docs show (README.md, docs/*.md yaml blocks).
 * The heuristics are docs/action.md's ("Installing dependencies"): in a job that runs the gate,
 * after a checkout of the head, no step before the gate starts a package manager, a build tool,
 * an interpreter on a file or a repository path in the head's checkout, and no local `uses:`
 * outside a checkout of the base. Each rule has an attack fixture it catches and a twin it passes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { workflowTexts } from "../support/workflow-texts.js";

type Step = Record<string, unknown>;

/** The step lists of a parsed workflow (its jobs), a bare job fragment (`steps:`), or a bare list of steps. */
function jobsOf(doc: unknown): { name: string; steps: Step[]; workdir: string }[] {
  if (Array.isArray(doc)) return [{ name: "(steps)", steps: doc as Step[], workdir: "." }];
  if (typeof doc !== "object" || doc === null) return [];
  const d = doc as Record<string, unknown>;
  const job = (name: string, j: Record<string, unknown>) => ({
    name,
    steps: Array.isArray(j.steps) ? (j.steps as Step[]) : [],
    workdir: String(((j.defaults as { run?: Record<string, unknown> } | undefined)?.run ?? {})["working-directory"] ?? "."),
  });
  if (typeof d.jobs === "object" && d.jobs !== null) {
    return Object.entries(d.jobs as Record<string, Record<string, unknown>>).map(([name, j]) => job(name, j ?? {}));
  }
  return Array.isArray(d.steps) ? [job("(job)", d)] : [];
}

const isGate = (uses: unknown) => typeof uses === "string" && /envelope-gate/i.test(uses) && !/^actions\//.test(uses);
const norm = (p: string) => p.replace(/^\.\/+/, "").replace(/\/+$/, "") || ".";
const inside = (dir: string, root: string) => root === "." || dir === root || dir.startsWith(`${root}/`);

const PACKAGE_MANAGERS = new Set([
  "npm",
  "npx",
  "yarn",
  "pnpm",
  "bun",
  "pip",
  "pip3",
  "pipenv",
  "poetry",
  "uv",
  "cargo",
  "go",
  "gradle",
  "mvn",
  "bundle",
  "composer",
  "dotnet",
  "rake",
]);
const BUILD_TOOLS = new Set(["make", "cmake", "ninja", "meson"]);
const INTERPRETERS = new Set(["node", "python", "python3", "bash", "sh", "zsh", "ruby", "perl", "deno", "php"]);

/** Why one shell command runs repository code, or null. */
function runsRepoCode(command: string): string | null {
  const words = command.trim().split(/\s+/).filter(Boolean);
  while (
    words.length > 0 &&
    (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string) || ["sudo", "-E", "time", "exec", "env"].includes(words[0] as string))
  )
    words.shift();
  const [first, ...args] = words;
  if (first === undefined || first.startsWith("#")) return null;
  if (PACKAGE_MANAGERS.has(first)) return `${first} ${args.join(" ")}`.trim();
  if (BUILD_TOOLS.has(first)) return first;
  if (INTERPRETERS.has(first)) {
    if (args[0] === "-c" || args[0] === "-e") {
      const inner = args
        .slice(1)
        .join(" ")
        .replace(/^["']|["']$/g, "");
      return first === "node" ? `node ${args.join(" ")}` : shellRunsRepoCode(inner);
    }
    return args.some((a) => !a.startsWith("-")) ? `${first} ${args.join(" ")}` : null;
  }
  if (first.startsWith("./") || (first.includes("/") && !first.startsWith("/") && !first.startsWith("$"))) return first;
  return null;
}

/** Why a `run:` text runs repository code (its commands split at newlines, `&&`, `||`, `;`, `|`), or null. */
function shellRunsRepoCode(text: string): string | null {
  for (const line of text.split("\n")) {
    const code = line.replace(/(^|\s)#.*$/, "");
    for (const command of code.split(/&&|\|\||;|\|/)) {
      const why = runsRepoCode(command);
      if (why !== null) return why;
    }
  }
  return null;
}

/** The steps before the gate that run the head's code, as `job: step n: why`. */
function headCodeBeforeGate(text: string, file: string): { gates: number; findings: string[] } {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
  let gates = 0;
  const findings: string[] = [];
  for (const job of jobsOf(doc.toJS())) {
    const gate = job.steps.findIndex((s) => isGate(s?.uses));
    if (gate < 0) continue;
    gates++;
    const checkouts: { path: string; base: boolean }[] = [];
    const checkoutOf = (dir: string) =>
      checkouts.filter((c) => inside(dir, c.path)).sort((a, b) => b.path.length - a.path.length)[0] ?? null;
    job.steps.slice(0, gate).forEach((step, i) => {
      const at = `${file}: job ${job.name}, step ${i + 1}`;
      const uses = typeof step.uses === "string" ? step.uses : null;
      const w = (step.with ?? {}) as Record<string, unknown>;
      if (uses !== null && /^actions\/checkout@/.test(uses)) {
        checkouts.push({
          path: norm(String(w.path ?? ".")),
          base: /pull_request\.base\.(ref|sha)|default_branch/.test(String(w.ref ?? "")),
        });
        return;
      }
      if (uses !== null && uses.startsWith(".")) {
        const where = checkoutOf(norm(uses));
        if (where !== null && !where.base) findings.push(`${at}: uses ${uses}, a local action of the head`);
        return;
      }
      if (typeof step.run !== "string") return;
      const dir = norm(String(step["working-directory"] ?? job.workdir));
      const where = checkoutOf(dir);
      if (where === null || where.base) return;
      const why = shellRunsRepoCode(step.run);
      if (why !== null) findings.push(`${at}: runs ${why} in the head's checkout`);
    });
  }
  return { gates, findings };
}

const CHECKOUT_HEAD =
  "      - uses: actions/checkout@v4\n        with: { ref: '${{ github.event.pull_request.head.sha }}', persist-credentials: false }\n";
const GATE = "      - id: gate\n        uses: envelope-gate/envelope-gate@v1\n        with: { run: npm test }\n";
const job = (steps: string) => `on: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
const BASE_INSTALL = `      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.base.ref || github.ref_name }}
          path: .envelope-gate-base
          sparse-checkout: package-lock.json
      - working-directory: .envelope-gate-base
        run: npm ci --ignore-scripts && mv node_modules ..
`;

describe("no code of the pull request before the gate", () => {
  it("every workflow of this repository and every documented one", () => {
    const texts = workflowTexts();
    let gates = 0;
    const findings: string[] = [];
    for (const { name: file, text } of texts) {
      const out = headCodeBeforeGate(text, file);
      gates += out.gates;
      findings.push(...out.findings);
    }
    // The project's own workflow, README's and docs/action.md's examples, docs/action.md's three
    // ecosystem blocks, its SARIF and audit blocks, and docs/app.md's one workflow file.
    expect(gates).toBeGreaterThanOrEqual(9);
    expect(findings).toEqual([]);
  });

  it.each<[string, string, string]>([
    ["the project's former workflow: npm ci on the head's checkout", job(`${CHECKOUT_HEAD}      - run: npm ci\n${GATE}`), "runs npm ci"],
    [
      "npm ci with install scripts off, but on the head (its .npmrc, its lock file)",
      job(`${CHECKOUT_HEAD}      - run: npm ci --ignore-scripts\n${GATE}`),
      "npm ci --ignore-scripts",
    ],
    ["make", job(`${CHECKOUT_HEAD}      - run: |\n          echo build\n          make -j2\n${GATE}`), "runs make"],
    ["a script of the repository", job(`${CHECKOUT_HEAD}      - run: ./scripts/setup.sh\n${GATE}`), "./scripts/setup.sh"],
    ["an interpreter on a repository file", job(`${CHECKOUT_HEAD}      - run: bash tools/prepare.sh\n${GATE}`), "bash tools/prepare.sh"],
    ["a package manager behind sh -c and sudo", job(`${CHECKOUT_HEAD}      - run: sudo -E sh -c "yarn install"\n${GATE}`), "yarn install"],
    ["a local action of the head", job(`${CHECKOUT_HEAD}      - uses: ./.github/actions/setup\n${GATE}`), "a local action of the head"],
    [
      "the default checkout (the merge commit is the head's code)",
      job(`      - uses: actions/checkout@v4\n      - run: pip install -e .\n${GATE}`),
      "pip install -e .",
    ],
    [
      "a job whose default working directory is the head's checkout",
      `on: pull_request\njobs:\n  gate:\n    defaults: { run: { working-directory: app } }\n    steps:\n${CHECKOUT_HEAD}      - run: npm install\n${GATE}`,
      "npm install",
    ],
  ])("attack caught: %s", (_name, text, why) => {
    const out = headCodeBeforeGate(text, "fixture.yml");
    expect(out.gates).toBe(1);
    expect(out.findings.join("\n")).toContain(why);
  });

  it.each<[string, string]>([
    ["the documented install from the base's lock file", job(`${CHECKOUT_HEAD}${BASE_INSTALL}${GATE}`)],
    [
      "the runner's own tools",
      job(
        `${CHECKOUT_HEAD}      - run: |\n          sudo apt-get update -qq && sudo apt-get install -y -qq strace bubblewrap\n          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\n${GATE}`,
      ),
    ],
    ["head code after the gate (the job is over for the gate by then)", job(`${CHECKOUT_HEAD}${GATE}      - run: npm run report\n`)],
    ["head code before any checkout (nothing of the head is there)", job(`      - run: make -C /opt/tools\n${CHECKOUT_HEAD}${GATE}`)],
    [
      "a job that does not run the gate (ordinary CI)",
      `on: pull_request\njobs:\n  test:\n    steps:\n${CHECKOUT_HEAD}      - run: npm ci && npm test\n`,
    ],
  ])("clean twin passes: %s", (_name, text) => {
    expect(headCodeBeforeGate(text, "fixture.yml").findings).toEqual([]);
  });

  it("this repository's own gate uses the Action pinned by commit, installs nothing (its command runs the committed bundle), and runs nothing of the head first", () => {
    const text = readFileSync(".github/workflows/envelope-gate.yml", "utf8");
    expect(text).toMatch(/uses: envelope-gate\/envelope-gate@[0-9a-f]{40}\n/);
    expect(text).not.toContain("./.envelope-gate-action");
    expect(text).not.toMatch(/npm (ci|install)/);
    expect(text).toMatch(/run: node dist\/cli\/index\.js /);
    expect(headCodeBeforeGate(text, "envelope-gate.yml")).toEqual({ gates: 1, findings: [] });
  });
});

/**
 * Issue 33, build item 3: a documented workflow works when pasted, and this repository's own hold
 * to the same. docs/action.md ("Example workflow", the list under it) says why each rule.
 */
const GATE_JOB_MAX_MINUTES = 60; // the App's ENVELOPE_GATE_RUNNER_B_MAX_MINUTES default
const PINNED = /^[\w.-]+\/[\w.-]+(?:\/[\w./-]+)?@[0-9a-f]{40}$/;
/** The gate's install commands, for the ecosystems docs/action.md shows. */
const INSTALLS = /\bnpm (?:ci|cit|install-ci-test)\b|\bpip install\b|\bgo mod download\b/;
/** The runner-tools step the Action now does itself (docs/action.md, "Prerequisites"). */
const RUNNER_TOOLS_STEP = /apparmor_restrict_unprivileged_userns|apt-get install[^\n]*\b(?:strace|bubblewrap)\b/;

/** What keeps a workflow (or a documented block) from working well when pasted; [] when nothing. */
function pasteProblems(text: string, where: string, documented: boolean, firstLine = 1): string[] {
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(?:\s+#\s*(.*))?$/.exec(line);
    if (m === null) return;
    const [uses, comment] = [m[1] as string, m[2]];
    if (uses.startsWith("./") || uses.startsWith("docker://")) return;
    // The Marketplace tag in the docs; this repository's own gate pins a commit of itself (no release tag).
    if (documented && /^envelope-gate\/envelope-gate@v\d+$/.test(uses)) return;
    if (!documented && /^envelope-gate\/envelope-gate@[0-9a-f]{40}$/.test(uses)) return;
    if (!PINNED.test(uses) || comment === undefined || !/^v\d/.test(comment)) {
      problems.push(`${where}, line ${firstLine + i}: ${uses} is not pinned by commit with its tag in a comment`);
    }
  });
  const doc = parseDocument(text, { uniqueKeys: true }).toJS() as Record<string, unknown> | null;
  const jobs = doc?.jobs as Record<string, Record<string, unknown>> | undefined;
  if (typeof jobs !== "object" || jobs === null) {
    // A fragment: only its gate's command is held to installing inside.
    if (documented) for (const job of jobsOf(doc)) problems.push(...gateInstalls(job.steps, `${where} (${job.name})`));
    return problems;
  }
  const on = doc?.on;
  const events = typeof on === "string" ? [on] : Array.isArray(on) ? on.map(String) : Object.keys((on ?? {}) as object);
  const dispatchInputs = Object.keys(((on as Record<string, { inputs?: object } | null>)?.workflow_dispatch?.inputs ?? {}) as object);
  const concurrency = doc?.concurrency as { group?: unknown; "cancel-in-progress"?: unknown } | undefined;
  if (events.some((e) => e.startsWith("pull_request"))) {
    const group = String(concurrency?.group ?? "");
    if (!group.includes("github.event.pull_request.number")) problems.push(`${where}: no per-pull-request concurrency group`);
    if (concurrency?.["cancel-in-progress"] === undefined) problems.push(`${where}: concurrency without cancel-in-progress`);
    if (dispatchInputs.includes("dual_run_id") && !group.includes("inputs.dual_run_id")) {
      problems.push(`${where}: runner-B runs share a concurrency group (no inputs.dual_run_id): one cancels another`);
    }
  }
  if (documented && RUNNER_TOOLS_STEP.test(text)) problems.push(`${where}: installs the runner's tools the Action installs itself`);
  for (const [name, job] of Object.entries(jobs)) {
    const at = `${where}: job ${name}`;
    const perms = job.permissions ?? doc?.permissions;
    if (perms === undefined) problems.push(`${at}: no permissions (the token gets the repository's default)`);
    else if (typeof perms === "string") problems.push(`${at}: permissions ${perms}`);
    const steps = Array.isArray(job.steps) ? (job.steps as Step[]) : [];
    const gate = steps.some((s) => isGate(s?.uses));
    const minutes = job["timeout-minutes"];
    if (typeof minutes !== "number") problems.push(`${at}: no timeout-minutes (GitHub's default is 360)`);
    else if (gate && minutes > GATE_JOB_MAX_MINUTES) problems.push(`${at}: timeout-minutes ${minutes} is over ${GATE_JOB_MAX_MINUTES}`);
    if (documented && gate) problems.push(...gateInstalls(steps, at));
  }
  return problems;
}

/** A documented gate whose command runs the tests with nothing installed. */
function gateInstalls(steps: Step[], at: string): string[] {
  return steps
    .filter((s) => isGate(s?.uses))
    .map((s) => String(((s.with ?? {}) as Record<string, unknown>).run ?? ""))
    .filter((run) => run !== "" && !INSTALLS.test(run))
    .map((run) => `${at}: the gate runs "${run}" with nothing installed`);
}

const PASTED = `name: gate
on: pull_request
concurrency:
  group: envelope-gate-\${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: true
permissions: { checks: write, contents: read, pull-requests: read, actions: read }
jobs:
  gate:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1
        with: { persist-credentials: false }
      - id: gate
        uses: envelope-gate/envelope-gate@v1
        with:
          run: bash -c "npm ci && npm test"
`;

describe("workflows that work when pasted (issue 33)", () => {
  it("every workflow of this repository and every documented workflow and block", () => {
    const texts = workflowTexts();
    expect(texts.filter((t) => t.file).length).toBeGreaterThanOrEqual(2);
    const problems = texts.flatMap((t) => pasteProblems(t.text, t.name, !t.file, t.line));
    expect(problems).toEqual([]);
  });

  it("clean twin passes: the documented shape", () => {
    expect(pasteProblems(PASTED, "fixture.yml", true)).toEqual([]);
  });

  it.each<[string, string, string]>([
    ["an action by tag", PASTED.replace(/checkout@\S+ # v7.0.1/, "checkout@v4"), "actions/checkout@v4 is not pinned"],
    ["a commit without its tag", PASTED.replace(" # v7.0.1", ""), "is not pinned by commit with its tag"],
    ["a short commit", PASTED.replace("3d3c42e5aac5ba805825da76410c181273ba90b1", "3d3c42e"), "is not pinned"],
    ["no timeout-minutes", PASTED.replace("    timeout-minutes: 60\n", ""), "no timeout-minutes"],
    ["a gate job over runner B's budget", PASTED.replace("timeout-minutes: 60", "timeout-minutes: 360"), "timeout-minutes 360 is over 60"],
    ["no concurrency group", PASTED.replace(/concurrency:\n.*\n.*\n/, ""), "no per-pull-request concurrency group"],
    [
      "a group shared by every pull request",
      PASTED.replace("github.event.pull_request.number || ", ""),
      "no per-pull-request concurrency group",
    ],
    ["no cancel-in-progress", PASTED.replace("  cancel-in-progress: true\n", ""), "concurrency without cancel-in-progress"],
    [
      "runner-B runs in one group",
      PASTED.replace(
        "on: pull_request\n",
        "on:\n  pull_request:\n  workflow_dispatch:\n    inputs:\n      dual_run_id: { required: true }\n",
      ),
      "runner-B runs share a concurrency group",
    ],
    ["no permissions", PASTED.replace(/permissions: .*\n/, ""), "no permissions"],
    ["write-all", PASTED.replace(/permissions: .*\n/, "permissions: write-all\n"), "permissions write-all"],
    [
      "npm test with nothing installed",
      PASTED.replace('bash -c "npm ci && npm test"', "npm test"),
      'runs "npm test" with nothing installed',
    ],
    [
      "the runner-tools step the Action does itself",
      PASTED.replace(
        "      - id: gate\n",
        "      - run: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\n      - id: gate\n",
      ),
      "installs the runner's tools",
    ],
  ])("caught: %s", (_name, text, why) => {
    expect(pasteProblems(text, "fixture.yml", true).join("\n")).toContain(why);
  });

  it("caught in a documented fragment: a gate command with nothing installed, an unpinned action", () => {
    const fragment =
      "- id: gate\n  uses: envelope-gate/envelope-gate@v1\n  with: { run: pytest }\n- uses: github/codeql-action/upload-sarif@v3\n";
    const out = pasteProblems(fragment, "fragment", true).join("\n");
    expect(out).toContain('runs "pytest" with nothing installed');
    expect(out).toContain("github/codeql-action/upload-sarif@v3 is not pinned");
  });

  it("the Marketplace tag is for the docs only: this repository's own workflows pin the gate by commit", () => {
    expect(pasteProblems(PASTED, ".github/workflows/x.yml", false).join("\n")).toContain("envelope-gate/envelope-gate@v1 is not pinned");
  });
});
