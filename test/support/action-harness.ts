/**
 * Runs the bundled Action (dist/index.js) as a process against a FakeGitHub, the way a runner
 * would: GITHUB_* variables, INPUT_* inputs, an event file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { FakeGitHub, FakePullFile, FakeWorkflowRun } from "./fake-github.js";
import { bundleDigest, bundleFiles, type BundleSpec } from "./fake-github-app.js";
import { ACTION_BUNDLE, DIGEST_PATH, ENVELOPE_PATH, LEDGER_HEADER, LEDGER_PATH, PROPERTIES_PATH, REPO } from "./fixtures.js";
import { digestLine, hashOf, sha256 } from "./hash.js";
import { BASE_ENVELOPE, envelopeText as baseEnvelopeText } from "./logs.js";
import { spawnProcess } from "./spawn.js";

export { ACTION_BUNDLE, DIGEST_PATH, ENVELOPE_PATH, LEDGER_HEADER, LEDGER_PATH, PROPERTIES_PATH, REPO, sha256 };

export const ENVELOPE = { ...BASE_ENVELOPE, envelope_id: "widgets-agent-envelope-v1" };

export function envelopeText(overrides: Record<string, unknown> = {}): string {
  return baseEnvelopeText({ envelope_id: ENVELOPE.envelope_id, ...overrides });
}

export function envelopeHash(text: string): string {
  return hashOf(text);
}

/** Envelope + digest files for a commit. */
export function policyFiles(envelope: string): Record<string, string> {
  return { [ENVELOPE_PATH]: envelope, [DIGEST_PATH]: digestLine(envelope, "envelope.json") };
}

export type LogEvent = Record<string, unknown>;

/** A complete observer log recorded under `hash`. */
export function observerLog(hash: string, events: LogEvent[], meta: LogEvent = {}): string {
  const lines: LogEvent[] = [
    {
      v: 1,
      kind: "meta",
      run_id: "run-a",
      envelope_hash: hash,
      runner: "runner-a",
      started_at: "2026-11-30T00:00:00Z",
      observers: ["node", "process"],
      ...meta,
    },
    ...events.map((e) => ({ v: 1, ...e })),
  ];
  lines.push({ v: 1, kind: "end", events: lines.length, exit_code: 0 });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

export function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A fingerprint no failure has, for rows whose scope does not matter to the test. */
export const SOME_FINGERPRINT = "5ca1ab1e5ca1ab1e";

/**
 * A ledger line in the App's form (runner cells `run-<id>@<machine>`). Its evidence names no
 * bundle: such a row is never honored (see freezeWithEvidence for one that can be).
 */
export function ledgerRow(
  cells: Partial<Record<string, string>> & { freeze_id: string; property: string; envelope_hash: string; expires_on: string },
): string {
  const row = {
    runner_a: "run-1001@machine-aaaa",
    runner_b: "run-1002@machine-bbbb",
    status: "open",
    evidence: `sha256:${"ab".repeat(32)}`,
    ...cells,
  };
  return [row.freeze_id, row.property, row.runner_a, row.runner_b, row.envelope_hash, row.expires_on, row.status, row.evidence].join("\t");
}

export interface EvidencedFreeze {
  /** The ledger line. */
  row: string;
  runA: FakeWorkflowRun;
  runB: FakeWorkflowRun;
  /** Runner A's evidence digest, as the App writes it. */
  evidence: string;
}

/**
 * A freeze row as the App writes it, backed by two runs on the fake with their evidence
 * artifacts: runner A (a pull_request run on machine-aaaa1111) failing `name` with
 * `fingerprint`, runner B (a dispatched run on machine-bbbb2222) passing it. `row` overrides
 * cells of the line (to forge one); `bundles` changes what the artifacts say.
 */
export function freezeWithEvidence(
  fake: FakeGitHub,
  spec: {
    freeze_id: string;
    name: string;
    fingerprint: string;
    envelopeHash: string;
    expiresOn: string;
    row?: Partial<Record<string, string>>;
    bundleA?: Partial<BundleSpec>;
    bundleB?: Partial<BundleSpec>;
    /** What GitHub records of runner B's run (default: a workflow_dispatch run that succeeded). */
    runB?: Partial<FakeWorkflowRun>;
  },
): EvidencedFreeze {
  const headSha = "e".repeat(40);
  const runA = fake.addWorkflowRun(REPO, { head_sha: headSha, event: "pull_request", conclusion: "failure" });
  const runB = fake.addWorkflowRun(REPO, { head_sha: headSha, event: "workflow_dispatch", conclusion: "success", ...spec.runB });
  const common = { headSha, envelopeHash: spec.envelopeHash, repository: REPO };
  const filesA = bundleFiles({
    ...common,
    machineId: "machine-aaaa1111",
    workflowRunId: runA.id,
    properties: [{ name: spec.name, result: "fail", fingerprint: spec.fingerprint }],
    ...spec.bundleA,
  });
  const filesB = bundleFiles({
    ...common,
    machineId: "machine-bbbb2222",
    workflowRunId: runB.id,
    dualRunId: "dr-test",
    properties: [{ name: spec.name, result: "pass" }],
    ...spec.bundleB,
  });
  fake.addArtifact(REPO, { run_id: runA.id, name: "envelope-gate-evidence", files: filesA });
  fake.addArtifact(REPO, { run_id: runB.id, name: "envelope-gate-evidence", files: filesB });
  const evidence = bundleDigest(filesA);
  const row = ledgerRow({
    freeze_id: spec.freeze_id,
    property: `${spec.name}#${spec.fingerprint}`,
    runner_a: `run-${runA.id}@machine-aaaa1111`,
    runner_b: `run-${runB.id}@machine-bbbb2222`,
    envelope_hash: spec.envelopeHash,
    expires_on: spec.expiresOn,
    evidence,
    ...spec.row,
  });
  return { row, runA, runB, evidence };
}

/** A unified diff that adds `text` as a new file's contents. */
function addedPatch(text: string): string {
  const lines = text.split("\n").filter((_, i, all) => i < all.length - 1 || all[i] !== "");
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
}

export interface PullSetup {
  number?: number;
  author?: string;
  labels?: string[];
  /** Files at the base commit (on main). */
  base: Record<string, string>;
  /** Changes at the head commit (null deletes). */
  head?: Record<string, string | null>;
  /** Explicit pull files (default: derived from `head`). */
  files?: FakePullFile[];
  headRepo?: string;
  /** The base branch (default main); makePull moves it to the base commit. */
  baseRef?: string;
}

export interface PullFixture {
  number: number;
  baseSha: string;
  headSha: string;
  baseRef: string;
}

export function makePull(fake: FakeGitHub, setup: PullSetup): PullFixture {
  if (!fake.state.repos.has(REPO)) fake.addRepo(REPO);
  const number = setup.number ?? 7;
  const baseRef = setup.baseRef ?? "main";
  const baseSha = fake.commit(REPO, setup.base, { parent: null, message: `base for #${number}`, branch: baseRef });
  const headSha = fake.commit(REPO, setup.head ?? { "src/widget.ts": "export const widget = 1;\n" }, {
    parent: baseSha,
    message: `head of #${number}`,
  });
  const head = setup.head ?? { "src/widget.ts": "export const widget = 1;\n" };
  const files: FakePullFile[] =
    setup.files ??
    Object.entries(head).map(([filename, content]) =>
      content === null
        ? { filename, status: "removed" as const }
        : { filename, status: filename in setup.base ? ("modified" as const) : ("added" as const), patch: addedPatch(content) },
    );
  fake.addPull(REPO, {
    number,
    user: { login: setup.author ?? "copilot-swe-agent[bot]" },
    labels: setup.labels ?? [],
    base: { ref: baseRef, sha: baseSha },
    head: { sha: headSha, ...(setup.headRepo ? { repo_full_name: setup.headRepo } : {}) },
    files,
  });
  return { number, baseSha, headSha, baseRef };
}

export interface ActionRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  runnerTemp: string;
  workspace: string;
  evidenceDir: string;
}

export function parseGithubOutput(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i] as string);
    if (!m) continue;
    const [, name, delimiter] = m as unknown as [string, string, string];
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] as string);
    out[name] = value.join("\n");
  }
  return out;
}

export interface RunOptions {
  apiUrl: string;
  pull?: PullFixture;
  eventName?: string;
  /** Event payload; default is a pull_request event for `pull`. */
  event?: Record<string, unknown>;
  inputs?: Record<string, string>;
  /** Files written into the workspace before the run (e.g. the observer log). */
  workspaceFiles?: Record<string, string>;
  /** Fills the (empty) workspace before the run, as a checkout would (e.g. a real suite's files). */
  prepareWorkspace?: (workspace: string) => void;
  env?: Record<string, string>;
  /** Kill the Action after this long (default 45 s). */
  timeoutMs?: number;
  /** Another copy of the bundle to run (default dist/index.js). */
  bundle?: string;
  /**
   * Check the Action out inside the workspace at this relative directory (as `uses: ./` does
   * with the repository itself) and run that copy of dist/: the run can rewrite its files.
   */
  actionInWorkspace?: string;
}

/** Runs dist/index.js and collects what a runner would see. */
export async function runAction(options: RunOptions): Promise<ActionRun> {
  if (!existsSync(ACTION_BUNDLE)) throw new Error("dist/index.js is missing: run node scripts/build.mjs");
  const root = mkdtempSync(join(tmpdir(), "eg-action-"));
  const runnerTemp = join(root, "runner-temp");
  const workspace = join(root, "workspace");
  mkdirSync(runnerTemp, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  options.prepareWorkspace?.(workspace);
  for (const [path, content] of Object.entries(options.workspaceFiles ?? {})) {
    const full = join(workspace, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, content);
  }
  let bundle = options.bundle ?? ACTION_BUNDLE;
  if (options.actionInWorkspace !== undefined) {
    const actionDir = join(workspace, options.actionInWorkspace);
    mkdirSync(actionDir, { recursive: true });
    cpSync(resolve("dist"), join(actionDir, "dist"), { recursive: true });
    bundle = join(actionDir, "dist", "index.js");
  }
  const eventPath = join(root, "event.json");
  const event =
    options.event ??
    (options.pull
      ? {
          action: "synchronize",
          number: options.pull.number,
          pull_request: {
            number: options.pull.number,
            head: { sha: options.pull.headSha },
            base: { ref: options.pull.baseRef, sha: options.pull.baseSha },
          },
        }
      : {});
  writeFileSync(eventPath, JSON.stringify(event));
  const outputPath = join(root, "github_output");
  const summaryPath = join(root, "step_summary");
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    LANG: "C.UTF-8",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: options.eventName ?? "pull_request",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_REPOSITORY: REPO,
    GITHUB_TOKEN: "test-token",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    RUNNER_NAME: "fake-runner-1",
    RUNNER_OS: "Linux",
    "INPUT_GITHUB-RETRIES": "2",
    "INPUT_GITHUB-RETRY-BASE-MS": "1",
    "INPUT_GITHUB-TIMEOUT-MS": "5000",
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs ?? {})) env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  // Bounded: a hung Action is killed and reported as exit code null with what it printed.
  const {
    code: exitCode,
    stdout,
    stderr,
  } = await spawnProcess([process.execPath, bundle], {
    cwd: workspace,
    env,
    timeoutMs: options.timeoutMs ?? 45_000,
  });
  return {
    exitCode,
    stdout,
    stderr,
    outputs: parseGithubOutput(readFileSync(outputPath, "utf8")),
    summary: readFileSync(summaryPath, "utf8"),
    runnerTemp,
    workspace,
    evidenceDir: join(runnerTemp, "envelope-gate-evidence"),
  };
}
