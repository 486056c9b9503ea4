/**
 * Every input and runner variable the Action uses, read once into one typed object
 * (the way actions/checkout does it). A bad value is CONFIG_INVALID, never a default.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import { AUDIT_CHECK_SUFFIX } from "../core/audit.js";
import { Refusal } from "../core/errors.js";
import { DEFAULT_LEDGER_PATH, DEFAULT_FREEZE_CAPS, type FreezeCaps } from "../core/ledger.js";
import { DEFAULT_AGENT_AUTHORS, DEFAULT_AGENT_LABEL, normalizeRepoPath, type PolicyPaths } from "../core/policy.js";
import { DEFAULT_PROPERTIES_PATH } from "../core/properties.js";
import { DEFAULT_RETRY, MAX_RETRIES, MAX_RETRY_BASE_MS, type RetrySettings } from "../github/client.js";
import { parseRepository, type RepoRef } from "../github/repo.js";
import { workflowPathOf } from "../github/base-runs.js";
import { RECORDERS, type RecorderChoice } from "../observer/recorder.js";

const DEFAULT_ENVELOPE_PATH = ".github/envelope-gate/envelope.json";
const DEFAULT_CHECK_NAME = "envelope-gate";

type Evaluation = { mode: "run"; command: string[] } | { mode: "log"; path: string };

/** Input `mode`: `enforce` gates pull requests; `audit` records what a run needs and suggests an envelope (docs/action.md). */
type RunMode = "enforce" | "audit";

/** Under audit without a pull request (push, workflow_dispatch): the branch commit the run checks. */
interface AuditCommit {
  sha: string;
  /** `refs/heads/<branch>`. */
  ref: string;
}

interface EventPullRequest {
  number: number;
  headSha: string;
  baseSha: string;
  /** The base branch the event named; compared with the API's, never used in its place. */
  baseRef: string | null;
}

export interface Settings {
  token: string;
  apiUrl: string;
  serverUrl: string;
  repository: RepoRef;
  eventName: string;
  /** The pull request from the event payload, when the event carries one. */
  eventPull: EventPullRequest | null;
  /** Input mode. */
  mode: RunMode;
  /** The pull request; null only under audit on a push or workflow_dispatch (then `commit` is set). */
  pullNumber: number | null;
  /** Under audit without a pull request: GITHUB_SHA on GITHUB_REF, where the envelope is read. */
  commit: AuditCommit | null;
  /** Expected head commit (input head-sha); the PR's head must equal it. */
  expectedHeadSha: string | null;
  dualRunId: string | null;
  checkName: string;
  policy: PolicyPaths;
  evaluation: Evaluation;
  workspace: string;
  scratch: string;
  agentAuthors: string[];
  agentLabel: string | null;
  gateAll: boolean;
  /** Logins allowed to approve policy changes; empty means anyone with write access. */
  envelopeReviewers: string[];
  /** Bot accounts whose approval may count (still subject to envelopeReviewers or write access); empty: none. */
  botApprovers: string[];
  freezeCaps: FreezeCaps;
  evidenceDir: string;
  runnerTemp: string;
  retry: RetrySettings;
  run: { id: string | null; attempt: string | null; url: string | null };
  /** This run's workflow file (from GITHUB_WORKFLOW_REF): the base's last run of it is the footprint's base. */
  workflowPath: string | null;
  /** Input recorder: the process recorder `envelope-gate run` uses (`--recorder`). */
  recorder: RecorderChoice;
  /** Input upload-sarif: send envelope-gate.sarif to code scanning. */
  uploadSarif: boolean;
  /** Input setup-prerequisites: install what a jailed run needs and grant bwrap user namespaces (false: refuse instead). */
  setupPrerequisites: boolean;
}

function configError(message: string, hint?: string): never {
  throw new Refusal("CONFIG_INVALID", message, hint === undefined ? {} : { hint });
}

function input(name: string): string {
  return core.getInput(name, { trimWhitespace: true });
}

/** A list input: one entry per line or comma. */
function listInput(name: string): string[] | null {
  const raw = core.getInput(name, { trimWhitespace: true });
  if (raw === "") return null;
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function booleanInput(name: string, fallback: boolean): boolean {
  const raw = input(name).toLowerCase();
  if (raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  return configError(`input ${name} must be true or false, got "${raw}"`);
}

function recorderInput(): RecorderChoice {
  const raw = input("recorder");
  if (raw === "") return "auto";
  if (!(RECORDERS as readonly string[]).includes(raw)) configError(`input recorder must be auto, ebpf or strace, got "${raw}"`);
  return raw as RecorderChoice;
}

function integerInput(name: string, fallback: number, min: number, max: number): number {
  const raw = input(name);
  if (raw === "") return fallback;
  if (!/^\d+$/.test(raw)) configError(`input ${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) configError(`input ${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function repoPath(name: string, fallback: string): string {
  const raw = input(name) || fallback;
  const path = normalizeRepoPath(raw);
  if (path.startsWith("/") || path.split("/").includes("..") || path === "") {
    configError(`input ${name} must be a path inside the repository, got "${raw}"`);
  }
  return path;
}

/**
 * Splits the `run` input into argv: whitespace separates words, single and double quotes group,
 * backslash escapes inside double quotes and outside quotes. No expansion, no pipes: for shell
 * features, run a shell explicitly (`bash -c "..."`), and let the envelope allow it.
 */
function splitCommand(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1] as string)) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote !== null) configError(`input run has an unclosed ${quote} quote`);
  if (inWord) words.push(current);
  return words;
}

function readEvent(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (err) {
    return configError(`GITHUB_EVENT_PATH ${path} cannot be read as JSON (${(err as Error).message})`);
  }
}

function eventPull(event: Record<string, unknown>): EventPullRequest | null {
  const pr = event.pull_request as { number?: unknown; head?: { sha?: unknown }; base?: { sha?: unknown; ref?: unknown } } | undefined;
  if (!pr || typeof pr.number !== "number" || typeof pr.head?.sha !== "string" || typeof pr.base?.sha !== "string") return null;
  return { number: pr.number, headSha: pr.head.sha, baseSha: pr.base.sha, baseRef: typeof pr.base.ref === "string" ? pr.base.ref : null };
}

const SHA = /^[0-9a-f]{40}$/;

/** Logins only: a glob would let any bot matching it approve, so none is accepted. */
function botApproversInput(): string[] {
  const list = listInput("bot-approvers") ?? [];
  for (const login of list) {
    if (!/^@?[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?$/.test(login)) {
      configError(`input bot-approvers takes logins (such as renovate[bot]), one per line or comma-separated; "${login}" is not one`);
    }
  }
  return list;
}

const AUDIT_ONLY_RUN_HINT =
  "Audit mode runs the run input itself, jailed with every host let out and recorded, on the event's own commit; runner B and earlier logs are enforce features.";

/** The pushed (or dispatched) branch commit an audit without a pull request reads its envelope at. */
function auditCommit(eventName: string, env: NodeJS.ProcessEnv): AuditCommit {
  const sha = (env.GITHUB_SHA ?? "").toLowerCase();
  const ref = env.GITHUB_REF ?? "";
  if (eventName !== "push" && eventName !== "workflow_dispatch") {
    configError(
      `mode audit runs on pull_request, push or workflow_dispatch events; the ${eventName || "(unknown)"} event carries no pull request`,
    );
  }
  if (!SHA.test(sha)) configError(`mode audit on a ${eventName} event needs GITHUB_SHA, a 40-character commit sha; got "${sha}"`);
  if (!ref.startsWith("refs/heads/") || ref === "refs/heads/") {
    configError(
      `mode audit on a ${eventName} event runs on a branch (GITHUB_REF refs/heads/...), got "${ref}"`,
      "A tag is not a base anything is merged into.",
    );
  }
  return { sha, ref };
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const token = input("github-token") || env.GITHUB_TOKEN || "";
  if (token === "") configError("no token: set the github-token input (default ${{ github.token }})");
  core.setSecret(token);
  const repository = parseRepository(env.GITHUB_REPOSITORY ?? "");
  if (!repository) configError(`GITHUB_REPOSITORY must be owner/name, got "${env.GITHUB_REPOSITORY ?? ""}"`);
  const apiUrl = env.GITHUB_API_URL || "https://api.github.com";
  const serverUrl = env.GITHUB_SERVER_URL || "https://github.com";
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const fromEvent = eventPull(event);

  const modeInput = input("mode") || "enforce";
  if (modeInput !== "enforce" && modeInput !== "audit") configError(`input mode must be enforce or audit, got "${modeInput}"`);
  const mode: RunMode = modeInput;

  const pullInput = input("pull-request");
  let pullNumber: number | null = null;
  let commit: AuditCommit | null = null;
  if (pullInput !== "") {
    if (!/^[1-9]\d*$/.test(pullInput)) configError(`input pull-request must be a pull request number, got "${pullInput}"`);
    pullNumber = Number(pullInput);
    if (fromEvent && fromEvent.number !== pullNumber) {
      configError(`input pull-request is #${pullNumber}, but the ${eventName} event is for #${fromEvent.number}`);
    }
  } else if (fromEvent) {
    pullNumber = fromEvent.number;
  } else if (mode === "audit") {
    commit = auditCommit(eventName, env);
  } else {
    configError(`the ${eventName || "(unknown)"} event carries no pull request; set the pull-request input (runner B dispatches pass it)`);
  }

  const headSha = input("head-sha").toLowerCase();
  if (headSha !== "" && !SHA.test(headSha)) configError(`input head-sha must be a 40-character commit sha, got "${headSha}"`);

  const runText = input("run");
  const logPath = input("observer-log");
  if (mode === "audit") {
    for (const name of ["observer-log", "head-sha", "dual-run-id"]) {
      if (input(name) !== "") configError(`input ${name} is not taken with mode audit`, AUDIT_ONLY_RUN_HINT);
    }
  }
  let evaluation: Evaluation;
  if (runText !== "" && logPath !== "") configError("set either run or observer-log, not both");
  const workspace = resolve(input("workspace") || env.GITHUB_WORKSPACE || process.cwd());
  if (runText !== "") {
    const command = splitCommand(runText);
    if (command.length === 0) configError("input run is empty");
    evaluation = { mode: "run", command };
  } else if (logPath !== "") {
    evaluation = { mode: "log", path: resolve(logPath) };
  } else {
    configError("set run (a command to run under the observer) or observer-log (a log recorded by envelope-gate run)");
  }

  // Outside the workspace, never in it: the run may write the workspace, and the Action later
  // writes the policy copy and the property logs under this directory.
  const runnerTemp = env.RUNNER_TEMP || mkdtempSync(join(tmpdir(), "envelope-gate-"));
  const envelope = repoPath("envelope", DEFAULT_ENVELOPE_PATH);
  const checkName = input("check-name") || DEFAULT_CHECK_NAME;
  // Audit posts a neutral `<check-name> (audit)`, which GitHub counts as passing a required check:
  // no check-name may end in the suffix, so no enforced check ever has an audit check's name.
  if (checkName.endsWith(AUDIT_CHECK_SUFFIX)) {
    configError(
      `input check-name must not end in "${AUDIT_CHECK_SUFFIX}", the suffix of audit mode's neutral check (which GitHub counts as passing a required check): got "${checkName}"`,
    );
  }
  const dualRunId = input("dual-run-id") || null;
  const scratchInput = input("scratch");
  const evidenceInput = input("evidence-dir");
  const agentLabel = core.getInput("agent-label") === "" ? DEFAULT_AGENT_LABEL : input("agent-label");

  return {
    token,
    apiUrl,
    serverUrl,
    repository,
    eventName,
    eventPull: fromEvent,
    mode,
    pullNumber,
    commit,
    expectedHeadSha: headSha === "" ? null : headSha,
    dualRunId,
    checkName: dualRunId === null ? checkName : `${checkName} (runner B)`,
    policy: {
      envelope,
      digest: repoPath("envelope-sha256", `${envelope}.sha256`),
      properties: repoPath("properties", DEFAULT_PROPERTIES_PATH),
      ledger: repoPath("ledger", DEFAULT_LEDGER_PATH),
    },
    evaluation,
    workspace,
    scratch: scratchInput === "" ? join(runnerTemp, "envelope-gate-scratch") : resolve(scratchInput),
    agentAuthors: listInput("agent-authors") ?? [...DEFAULT_AGENT_AUTHORS],
    agentLabel: agentLabel === "" ? null : agentLabel,
    gateAll: booleanInput("gate-all", false),
    envelopeReviewers: listInput("envelope-reviewers") ?? [],
    botApprovers: botApproversInput(),
    freezeCaps: {
      maxActive: integerInput("max-active-freezes", DEFAULT_FREEZE_CAPS.maxActive, 0, 1000),
      maxDays: integerInput("max-freeze-days", DEFAULT_FREEZE_CAPS.maxDays, 1, 365),
    },
    evidenceDir: evidenceInput === "" ? join(runnerTemp, "envelope-gate-evidence") : resolve(evidenceInput),
    runnerTemp,
    retry: {
      retries: integerInput("github-retries", DEFAULT_RETRY.retries, 0, MAX_RETRIES),
      retryBaseMs: integerInput("github-retry-base-ms", DEFAULT_RETRY.retryBaseMs, 0, MAX_RETRY_BASE_MS),
      timeoutMs: integerInput("github-timeout-ms", DEFAULT_RETRY.timeoutMs, 100, 300_000),
    },
    run: {
      id: env.GITHUB_RUN_ID ?? null,
      attempt: env.GITHUB_RUN_ATTEMPT ?? null,
      url: env.GITHUB_RUN_ID ? `${serverUrl}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : null,
    },
    workflowPath: workflowPathOf(env.GITHUB_WORKFLOW_REF, repository),
    recorder: recorderInput(),
    uploadSarif: booleanInput("upload-sarif", false),
    setupPrerequisites: booleanInput("setup-prerequisites", true),
  };
}
