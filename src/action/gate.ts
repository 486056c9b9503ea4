/**
 * Gating one pull request: gather the facts from GitHub (./facts.ts, through a PullSource), make
 * the policy of them (src/core/policy-files.ts), run and judge the patch and its properties
 * under the observer, decide (src/core/policy.ts), then render the check run and the evidence
 * from that decision. Every decision is a core function; this file only sequences.
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { capAnnotations, ledgerAnnotations, propertyAnnotations, violationAnnotations, type CheckAnnotation } from "../core/annotations.js";
import { expandRoots, formatDigestLine } from "../core/envelope.js";
import { GateError, type ErrorCode } from "../core/errors.js";
import {
  EVIDENCE_ARTIFACT_NAME,
  EVIDENCE_FILES,
  encodeJson,
  readEvidenceZip,
  type PropertiesFile,
  type PropertyRecord,
  type VerifiedBundle,
} from "../core/evidence.js";
import { freezeEvidenceMismatch, freezeRunsMismatch, type RunFromApi } from "../core/freeze-evidence.js";
import { utcDate, type LedgerProblem, type ParsedRow } from "../core/ledger.js";
import {
  afterEvidenceChecks,
  applyFreezes,
  freezeCandidates,
  decide,
  gatingDecision,
  type Decision,
  type GatingDecision,
  type PolicyChange,
  type PropertyOutcome,
} from "../core/policy.js";
import { plainText } from "../core/markdown.js";
import {
  failureFingerprint,
  isFreezable,
  scoreOutputSchema,
  scorePatchPaths,
  scoreTestsCollected,
  type CommandOutcome,
  type Score,
} from "../core/properties.js";
import { checkTitle, renderFootprint, renderSummary, type SummaryInput } from "../core/summary.js";
import { logCoverage, type Coverage } from "../core/coverage.js";
import {
  FOOTPRINT_FILE,
  baseLogFromZip,
  comparedFootprint,
  logFootprint,
  parseLogLines,
  type FootprintFile,
  type LogFootprint,
} from "../core/footprint.js";
import { SARIF_FILE, SARIF_TOOL_NAME, buildSarif, sarifText } from "../core/sarif.js";
import { foldPath } from "../core/paths.js";
import { baseRunEvidence, uploadSarif, type BaseEvidence } from "../github/base-runs.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";
import { RULE_ENVELOPE_KEY, type Violation } from "../core/log.js";
import { pinnedEnvelope, policyFrom, type PinnedEnvelope, type Policy } from "../core/policy-files.js";
import { evaluateLogFile } from "../gate/files.js";
import { downloadRunArtifact, workflowRunFacts, type ArtifactDownload } from "../github/artifacts.js";
import { completeCheckRun, createCheckRun, type CheckRunHandle } from "../github/checks.js";
import { createGitHubClient, hasStatus, type GitHubClient } from "../github/client.js";
import { gitHubPullSource, type PullSource } from "../github/pull-source.js";
import type { PullRequestInfo } from "../github/repo.js";
import type { JudgedBase } from "../core/base.js";
import type { RunPullRequest, RunRole } from "../core/env-sets.js";
import { currentBase, gatherPolicyFacts, policyFilesAt, type PolicyFacts } from "./facts.js";
import {
  copyLog,
  prepareEvidenceDir,
  propertyScratch,
  readWorkspaceFile,
  requireObservedLog,
  runPropertyUnderObserver,
  runUnderObserver,
  runnerIdentity,
  writeBundle,
} from "./local.js";
import type { Settings } from "./settings.js";

export interface GateOutcome {
  decision: Decision;
  report: CheckReport | null;
  summary: string;
  annotations: CheckAnnotation[];
  checkRun: CheckRunHandle | null;
  /** The token could not create check runs (403, as for fork pull requests). */
  checkRunRefused: boolean;
  /** Reporting failed after the decision (the check run could not be completed). */
  reportingError: GateError | null;
  envelope: { id: string; hash: string } | null;
  properties: PropertyRecord[];
  policyChanged: boolean;
  evidence: { dir: string; digest: string | null };
  pull: PullRequestInfo | null;
  /** The check run's text (the footprint section), also appended to the job summary; null when there is none. */
  text: string | null;
  /** footprint.json as written into the bundle (null: the run's log was not judged). */
  footprint: { path: string; file: FootprintFile } | null;
  /** envelope-gate.sarif (null: not written, the log was not judged), and the upload's outcome when upload-sarif is on. */
  sarif: { path: string; uploaded: boolean; uploadId: string | null; uploadError: GateError | null } | null;
  /** Mode audit: the suggested envelope.json written into the evidence directory (null otherwise, or on an error). */
  suggestedEnvelope?: string | null;
}

const DEFAULT_PROPERTY_TIMEOUT_S = 600;

export function asGateError(err: unknown): GateError {
  if (err instanceof GateError) return err;
  return new GateError("INTERNAL_ERROR", `the Action failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
    hint: "This is a bug in envelope-gate; the pull request is refused until it is fixed.",
  });
}

/**
 * What is known so far, so an error at any point still reports it: the facts gathered from
 * GitHub, the policy made of them, and what the local run showed.
 */
interface Progress {
  pull: PullRequestInfo | null;
  headSha: string | null;
  /** The base judged against: the API's base branch at its current commit (src/core/base.ts). */
  base: JudgedBase | null;
  gating: GatingDecision | null;
  facts: PolicyFacts | null;
  /** Where the policy came from, once known (the base commit until an approval says the head). */
  policyRef: string | null;
  policySource: string;
  /** The pinned envelope, once verified (shown for a pull request that is not gated too). */
  pinned: PinnedEnvelope | null;
  policy: Policy | null;
  report: CheckReport | null;
  outcomes: PropertyOutcome[] | null;
  logWritten: boolean;
  /** Violations a property command's own run committed, by property. */
  propertyViolations: { property: string; logPath: string; violations: Violation[] }[];
}

export async function gatePullRequest(settings: Settings): Promise<GateOutcome> {
  const client = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
  const repo = settings.repository;
  const source = gitHubPullSource(client, repo);
  const p: Progress = {
    pull: null,
    headSha: settings.expectedHeadSha ?? settings.eventPull?.headSha ?? null,
    base: null,
    gating: null,
    facts: null,
    policyRef: null,
    policySource: "base commit",
    pinned: null,
    policy: null,
    report: null,
    outcomes: null,
    logWritten: false,
    propertyViolations: [],
  };
  let checkRun: CheckRunHandle | null = null;
  let checkRunRefused = false;
  let error: GateError | null = null;

  try {
    // Only audit runs without a pull request (src/action/audit.ts); readSettings sees to it.
    if (settings.pullNumber === null) throw new GateError("INTERNAL_ERROR", "an enforce run without a pull request");
    p.pull = await source.pullRequest(settings.pullNumber);
    p.headSha ??= p.pull.headSha;
    try {
      checkRun = await createCheckRun(client, repo, {
        name: settings.checkName,
        headSha: p.headSha,
        ...(settings.dualRunId !== null ? { externalId: settings.dualRunId } : {}),
        ...(settings.run.url !== null ? { detailsUrl: settings.run.url } : {}),
      });
    } catch (err) {
      // A 403 that is a rate limit is an outage, not a missing permission.
      if (!hasStatus(err, 403) || /rate limit/i.test((err as Error).message)) throw err;
      checkRunRefused = true;
    }
    if (settings.expectedHeadSha !== null && settings.expectedHeadSha !== p.pull.headSha) {
      throw new GateError(
        "PULL_REQUEST_HEAD_MOVED",
        `pull request #${p.pull.number} is at ${p.pull.headSha}, not the head-sha ${settings.expectedHeadSha} this run was asked to check`,
        { hint: "The pull request moved on; the run for the new head decides. Runner B results never carry over to another commit." },
      );
    }
    // The current base, never the event's: a retargeted pull request is refused, a base branch
    // that moved on is judged at its current commit; an unreadable one is GITHUB_UNAVAILABLE.
    const event = settings.eventPull;
    p.base = await currentBase(source, p.pull, event === null ? null : { ref: event.baseRef, sha: event.baseSha });
    p.gating = gatingDecision({
      author: p.pull.author,
      labels: p.pull.labels,
      agentAuthors: settings.agentAuthors,
      agentLabel: settings.agentLabel,
      gateAll: settings.gateAll,
    });
    if (!p.gating.gated) {
      const decision: Decision = { verdict: "not_gated", conclusion: "neutral", headline: `not gated: ${p.gating.reason}` };
      // Shown for reference only: nothing is judged, so an unreadable envelope is a note, not a verdict.
      const notes: string[] = [];
      try {
        p.policyRef = p.base.sha;
        const files = await policyFilesAt(source, settings.policy, p.policyRef, p.policySource);
        p.pinned = pinnedEnvelope(settings.policy, files);
      } catch (err) {
        const e = asGateError(err);
        notes.push(`The base commit's envelope was not shown (${e.code}: ${e.message}). Nothing was evaluated for this pull request.`);
      }
      return await finish(settings, client, p, decision, checkRun, checkRunRefused, [], null, notes);
    }
    await gate(settings, source, p);
  } catch (err) {
    error = asGateError(err);
  }

  const envelope = p.pinned?.envelope ?? null;
  const report = error !== null ? reportFromError(error, envelope) : (p.report as CheckReport);
  if (error !== null) p.outcomes = null;
  p.report = report;
  const decision = decide({
    report,
    properties: p.outcomes ?? [],
    policyChange: policyChangeOf(p),
  });
  const annotations: CheckAnnotation[] = [];
  const fromProperties = new Set(p.propertyViolations.flatMap((r) => r.violations));
  const mainViolations = report.violations.filter((v) => !fromProperties.has(v));
  if (envelope && mainViolations.length > 0)
    annotations.push(...violationAnnotations(mainViolations, envelope, EVIDENCE_FILES.observerLog));
  const notes: string[] = [];
  for (const r of error === null ? p.propertyViolations : []) {
    if (envelope) annotations.push(...violationAnnotations(r.violations, envelope, `property ${r.property}'s log`));
    notes.push(
      `Property ${r.property}'s command ran jailed under the same envelope and broke it (${r.violations.map((v) => v.id).join(", ")}); its observer log is ${r.logPath} on the runner. Properties are not scored after an envelope failure.`,
    );
  }
  if (p.outcomes) annotations.push(...propertyAnnotations(p.outcomes, settings.policy.properties));
  if (p.policy) annotations.push(...ledgerAnnotations(p.outcomes ?? [], p.policy.freezes.refused, settings.policy.ledger));
  if (error?.file !== undefined && Object.values(settings.policy).includes(error.file)) {
    annotations.unshift({
      path: error.file,
      start_line: error.line ?? 1,
      end_line: error.line ?? 1,
      annotation_level: "failure",
      title: error.code,
      // The message can quote the file's text: plain text, invisible characters shown (./core/markdown.ts).
      message: plainText(error.message, 4000),
    });
  }
  return finish(settings, client, p, decision, checkRun, checkRunRefused, annotations, error, notes);
}

function policyChangeOf(p: Progress): { changes: PolicyChange[]; approvedBy: string[] } | null {
  const facts = p.facts;
  return facts !== null && facts.changes.length > 0 ? { changes: facts.changes, approvedBy: facts.approvedBy } : null;
}

/** Gathers the facts, makes the policy of them, runs and judges the patch, scores properties. */
async function gate(settings: Settings, source: PullSource, p: Progress): Promise<void> {
  const pull = p.pull as PullRequestInfo;
  const headSha = p.headSha as string;
  const baseSha = (p.base as JudgedBase).sha;
  const facts = await gatherPolicyFacts(source, {
    pull,
    baseSha,
    headSha,
    paths: settings.policy,
    envelopeReviewers: settings.envelopeReviewers,
    botApprovers: settings.botApprovers,
  });
  p.facts = facts;
  p.policyRef = facts.policy.ref;
  p.policySource = facts.policy.source;
  const today = utcDate(new Date());
  p.pinned = pinnedEnvelope(settings.policy, facts.policy);
  const policy = policyFrom(settings.policy, facts.policy, today, settings.freezeCaps);
  p.policy = policy;
  const { envelope, bytes: envelopeBytes } = policy;
  const files = facts.files;

  const roots = expandRoots(envelope, { workspace: settings.workspace, scratch: settings.scratch });
  await prepareEvidenceDir(settings.evidenceDir);
  const logPath = join(settings.evidenceDir, EVIDENCE_FILES.observerLog);
  if (settings.evaluation.mode === "run") {
    const observed = await runUnderObserver({
      envelopeBytes,
      digestLine: formatDigestLine(envelopeBytes, "envelope.json"),
      logPath,
      workspace: settings.workspace,
      scratch: settings.scratch,
      command: settings.evaluation.command,
      runnerTemp: settings.runnerTemp,
      roots,
      identity: runIdentity(settings, pull),
    });
    p.logWritten = existsSync(logPath);
    requireObservedLog(observed, logPath);
  } else {
    await copyLog(settings.evaluation.path, logPath);
    p.logWritten = true;
  }
  const verdict = await evaluateLogFile(envelope, logPath, { roots });
  p.report = reportFromVerdict(verdict);

  if (p.report.verdict !== "pass") return;
  const scored: { record: PropertyRecord; line: number; locations: Score["locations"] }[] = [];
  for (const declared of policy.properties?.properties ?? []) {
    const d = declared.declaration;
    // Outside the scoring's catch: a property run that cannot be judged refuses the whole pull request.
    const ran =
      d.kind === "tests_collected"
        ? await runProperty(settings, p, d.name, d.command, d.timeout_seconds ?? DEFAULT_PROPERTY_TIMEOUT_S)
        : undefined;
    // The property's own run broke the envelope: that is an envelope failure, not a score.
    if (ran === null) return;
    let score: Score;
    try {
      if (d.kind === "output_schema") {
        score = scoreOutputSchema(declared, await readWorkspaceFile(settings.workspace, d.output));
      } else if (d.kind === "patch_paths") {
        if (!facts.filesComplete) {
          throw new GateError(
            "PULL_FILES_TRUNCATED",
            `GitHub listed ${files.length} of the ${pull.changedFiles} files this pull request changes; ${d.name} cannot be judged on part of them`,
            {
              hint: "Split the pull request: GitHub's files listing stops at 3000 files.",
            },
          );
        }
        score = scorePatchPaths(declared, files);
      } else {
        score = scoreTestsCollected(declared, ran as CommandOutcome);
      }
    } catch (err) {
      const e = asGateError(err);
      score = { result: "error", detail: `${e.code}: ${e.message}`, inputs: {}, locations: [] };
    }
    const freezable = isFreezable(d);
    scored.push({
      record: {
        name: d.name,
        result: score.result,
        detail: score.detail,
        inputs: score.inputs,
        frozen_by: null,
        freezable,
        failure_fingerprint:
          score.result === "fail" && score.signature !== undefined ? failureFingerprint(d.name, d.kind, score.signature) : null,
      },
      line: declared.line,
      locations: score.locations,
    });
  }
  // Only the rows that would tolerate one of these failures are checked against their evidence.
  const candidates = freezeCandidates(
    scored.map((s) => s.record),
    policy.freezes,
    envelope.hash,
    today,
  );
  const checks = await checkFreezeRows(settings, candidates);
  const freezes = afterEvidenceChecks(policy.freezes, checks);
  p.policy = { ...policy, freezes };
  const verified = new Set([...checks].filter(([, problem]) => problem === null).map(([line]) => line));
  p.outcomes = applyFreezes(scored, freezes, policy.ledger.rows, envelope.hash, today, verified);
}

/**
 * Downloads the two evidence bundles each candidate row names (runner A's and runner B's runs,
 * in this repository, and GitHub's account of both runs) and checks the row against them. A row
 * whose runs or bundles cannot be read is
 * FREEZE_EVIDENCE_UNAVAILABLE, one they contradict FREEZE_EVIDENCE_MISMATCH: never honored.
 */
async function checkFreezeRows(settings: Settings, rows: readonly ParsedRow[]): Promise<Map<number, LedgerProblem | null>> {
  const checks = new Map<number, LedgerProblem | null>();
  if (rows.length === 0) return checks;
  const client = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
  const repository = `${settings.repository.owner}/${settings.repository.repo}`;
  for (const row of rows) {
    const refuse = (code: "FREEZE_EVIDENCE_UNAVAILABLE" | "FREEZE_EVIDENCE_MISMATCH", why: string): void => {
      checks.set(row.line, { line: row.line, freeze_id: row.freeze_id, code, reason: `${code}: ${why}` });
    };
    const bundles: VerifiedBundle[] = [];
    const runs: RunFromApi[] = [];
    for (const [side, cell] of [
      ["A", row.runA],
      ["B", row.runB],
    ] as const) {
      let got: ArtifactDownload;
      try {
        const run = await workflowRunFacts(client, settings.repository, cell.runId);
        if (run === null) {
          refuse(
            "FREEZE_EVIDENCE_UNAVAILABLE",
            `runner ${side}'s run ${cell.runId} is not a workflow run of ${repository}; the row is not honored`,
          );
          break;
        }
        runs.push(run);
        got = await downloadRunArtifact(client, settings.repository, cell.runId, EVIDENCE_ARTIFACT_NAME);
      } catch (err) {
        const e = asGateError(err);
        refuse(
          "FREEZE_EVIDENCE_UNAVAILABLE",
          `runner ${side}'s evidence could not be read (${e.code}: ${e.message}); the row is not honored`,
        );
        break;
      }
      if ("missing" in got) {
        refuse("FREEZE_EVIDENCE_UNAVAILABLE", `runner ${side}'s evidence cannot be checked: ${got.missing}; the row is not honored`);
        break;
      }
      try {
        bundles.push(readEvidenceZip(got.zip));
      } catch (err) {
        const e = asGateError(err);
        refuse(
          "FREEZE_EVIDENCE_MISMATCH",
          `runner ${side}'s evidence bundle (run ${cell.runId}) is not a valid bundle (${e.code}: ${e.message})`,
        );
        break;
      }
    }
    if (checks.has(row.line)) continue;
    const [a, b] = bundles as [VerifiedBundle, VerifiedBundle];
    const mismatch =
      freezeEvidenceMismatch(row, a, b, repository) ??
      freezeRunsMismatch(row, { a: runs[0] as RunFromApi, b: runs[1] as RunFromApi }, { a, b }, repository);
    if (mismatch !== null) refuse("FREEZE_EVIDENCE_MISMATCH", `${mismatch}; the row is not honored`);
    else checks.set(row.line, null);
  }
  return checks;
}

/**
 * What the jailed runs are told about the run: the pull request as the API names it (the same
 * on runner A and runner B), never the event's copy or the workflow run's own ids.
 */
function runIdentity(settings: Settings, pull: PullRequestInfo): { role: RunRole; pull: RunPullRequest } {
  const role: RunRole = settings.dualRunId !== null ? "runner_b" : settings.eventName === "pull_request" ? "runner_a" : "plain";
  return { role, pull: { number: pull.number, headSha: pull.headSha, baseRef: pull.baseRef, headRef: pull.headRef } };
}

/**
 * Runs a property command jailed and observed under the same envelope as the patch, and judges
 * its log like the main run's. Returns the command's outcome to score, or null when its log
 * broke the envelope (the violations join the report, which turns envelope_fail). A run the
 * gate cannot judge throws: the pull request is refused, never scored on an unobserved run.
 */
async function runProperty(
  settings: Settings,
  p: Progress,
  name: string,
  command: string[],
  timeoutSeconds: number,
): Promise<CommandOutcome | null> {
  const { envelope, bytes: envelopeBytes } = p.policy as Policy;
  const logPath = join(settings.runnerTemp, "envelope-gate-properties", `${name}.observer.jsonl`);
  // A scratch of its own, new: nothing the patch's run (or an earlier property's) left in its
  // scratch reaches this command, and its log is judged with this scratch as ${SCRATCH}.
  const scratch = await propertyScratch(settings.runnerTemp);
  const roots = expandRoots(envelope, { workspace: settings.workspace, scratch });
  const ran = await runPropertyUnderObserver({
    envelopeBytes,
    digestLine: formatDigestLine(envelopeBytes, "envelope.json"),
    logPath,
    workspace: settings.workspace,
    scratch,
    command,
    runnerTemp: settings.runnerTemp,
    roots,
    timeoutSeconds,
    identity: runIdentity(settings, p.pull as PullRequestInfo),
  });
  // The refusal line is read from the wrapper's stderr, which carries the command's too: only the
  // wrapper's own refusal (exit 3, before the log's first line) means nothing ran; a command that
  // prints the line itself is judged on its log like any other.
  if (ran.refusal === "COMMAND_NOT_FOUND" && ran.exitCode === 3 && existsSync(logPath) && statSync(logPath).size === 0) {
    return { exitCode: null, stdout: "", failure: `${command[0] ?? ""} was not found` };
  }
  // Stopped at its deadline, the run's log has no end and cannot be judged: the gate refuses
  // (a command that outwaits its deadline must not leave its run unjudged behind a property error).
  if (ran.outcome.exitCode === null && ran.outcome.failure !== undefined) {
    throw new GateError(
      "OBSERVER_INTERRUPTED",
      `property ${name}: the command was ${ran.outcome.failure}; its run is not judged, so the pull request is not either`,
      {
        hint: "Raise the property's timeout_seconds, or make the command finish sooner.",
      },
    );
  }
  if (ran.refusal !== null && (ran.exitCode === 3 || !existsSync(logPath))) {
    throw new GateError(
      ran.refusal,
      `property ${name}: envelope-gate run refused with ${ran.refusal} (exit code ${ran.exitCode ?? "none"}); see the step log`,
      {
        hint: "A property command runs jailed and observed like the patch; an unobserved run is not scored.",
      },
    );
  }
  if (!existsSync(logPath)) {
    throw new GateError(
      "OBSERVER_LOG_MISSING",
      `property ${name}: envelope-gate run ended (exit code ${ran.exitCode ?? "none"}) without writing ${logPath}`,
      {
        hint: "A property command runs jailed and observed like the patch; an unobserved run is not scored.",
      },
    );
  }
  const verdict = reportFromVerdict(await evaluateLogFile(envelope, logPath, { roots }));
  if (verdict.verdict === "error") {
    const e = verdict.error;
    throw new GateError(
      (e?.code ?? "OBSERVER_LOG_MALFORMED") as ErrorCode,
      `property ${name}'s run: ${e?.message ?? "its log could not be judged"}`,
      { hint: e?.hint ?? "" },
    );
  }
  if (verdict.verdict === "envelope_fail") {
    const report = p.report as CheckReport;
    p.report = { ...report, verdict: "envelope_fail", violations: [...report.violations, ...verdict.violations] };
    p.propertyViolations.push({ property: name, logPath, violations: verdict.violations });
    return null;
  }
  return ran.outcome;
}

async function writeEvidence(
  settings: Settings,
  p: Progress,
  report: CheckReport,
  extras: ReadonlyMap<string, Uint8Array>,
): Promise<string> {
  const files = new Map<string, Uint8Array>(extras);
  const properties: PropertiesFile = { version: 1, properties: (p.outcomes ?? []).map((o) => o.record) };
  files.set(EVIDENCE_FILES.properties, encodeJson(properties));
  if (p.pinned !== null)
    files.set(EVIDENCE_FILES.envelopeDigest, new TextEncoder().encode(formatDigestLine(p.pinned.bytes, "envelope.json")));
  files.set(EVIDENCE_FILES.verdict, encodeJson(report));
  const identity = await runnerIdentity({
    run_id: report.log?.run_id ?? settings.run.id,
    run_attempt: settings.run.attempt,
    workflow_run_id: settings.run.id,
    repository: `${settings.repository.owner}/${settings.repository.repo}`,
    head_sha: p.headSha,
    pull_number: p.pull?.number ?? settings.pullNumber,
    dual_run_id: settings.dualRunId,
    envelope_hash: p.pinned?.envelope.hash ?? null,
    envelope_id: p.pinned?.envelope.envelope.envelope_id ?? null,
    mode: "enforce",
  });
  files.set(EVIDENCE_FILES.runner, encodeJson(identity));
  return writeBundle(settings.evidenceDir, files);
}

async function finish(
  settings: Settings,
  client: GitHubClient,
  p: Progress,
  decisionIn: Decision,
  checkRun: CheckRunHandle | null,
  checkRunRefused: boolean,
  annotationsIn: CheckAnnotation[],
  error: GateError | null,
  extraNotes: string[] = [],
): Promise<GateOutcome> {
  let decision = decisionIn;
  let report = p.report;
  let digest: string | null = null;
  const notes: string[] = [...extraNotes];
  // What the judged log shows beyond the verdict: coverage, the footprint against the base, SARIF.
  const extras = new Map<string, Uint8Array>();
  let coverage: Coverage | null = null;
  let footprint: FootprintFile | null = null;
  let sarif: string | null = null;
  if (decision.verdict !== "not_gated" && report !== null && p.logWritten && error === null && report.verdict !== "error") {
    const judged = await describeJudgedLog(settings, client, p, report);
    coverage = judged.coverage;
    footprint = judged.footprint;
    sarif = judged.sarif;
    extras.set(FOOTPRINT_FILE, encodeJson(footprint));
    extras.set(SARIF_FILE, new TextEncoder().encode(sarif));
  }
  if (decision.verdict !== "not_gated" && report !== null) {
    try {
      if (!p.logWritten) await prepareEvidenceDir(settings.evidenceDir);
      digest = await writeEvidence(settings, p, report, extras);
    } catch (err) {
      const e = asGateError(err);
      if (error === null) {
        // Without evidence the App cannot compare runs; the run is refused, not passed.
        report = reportFromError(e, p.pinned?.envelope ?? null);
        p.report = report;
        decision = decide({ report, properties: [], policyChange: null });
      } else {
        notes.push(`The evidence bundle could not be written either (${e.code}: ${e.message}).`);
      }
    }
  }
  if (checkRunRefused) {
    notes.push(
      `This token cannot create check runs (HTTP 403, as for pull requests from forks). The step's own result and these annotations stand in for it; the "${settings.checkName}" check will come from the envelope-gate App, from the evidence bundle artifact "${EVIDENCE_ARTIFACT_NAME}".`,
    );
  }
  if (settings.dualRunId !== null) notes.push(`Runner B of dual run ${settings.dualRunId}.`);
  if (p.base !== null) notes.push(...p.base.notes);
  if (p.facts !== null && p.facts.ignoredBots.length > 0) {
    notes.push(
      `Not counted as approvals of the policy change: ${p.facts.ignoredBots.map((l) => `@${l}`).join(", ")} (bot accounts approve only when the bot-approvers input names them).`,
    );
  }
  const { kept, omitted } = capAnnotations(annotationsIn);
  const envelope = p.pinned?.envelope ?? null;
  const links: SummaryInput["links"] = [];
  if (settings.run.url) links.push({ label: "workflow run (evidence artifact)", url: settings.run.url });
  if (p.pull?.htmlUrl) links.push({ label: `pull request #${p.pull.number}`, url: p.pull.htmlUrl });
  if (checkRun?.htmlUrl) links.push({ label: "check run", url: checkRun.htmlUrl });
  const summaryInput: SummaryInput = {
    checkName: settings.checkName,
    decision,
    report,
    envelope: envelope
      ? {
          id: envelope.envelope.envelope_id,
          hash: envelope.hash,
          file: envelope.file,
          ref: p.policyRef ?? "",
          source: p.policySource,
          ruleLines: Object.fromEntries(Object.values(RULE_ENVELOPE_KEY).map((k) => [k, envelope.lines.get(`/${k}`)])),
        }
      : null,
    pull: p.pull
      ? {
          number: p.pull.number,
          author: p.pull.author,
          url: p.pull.htmlUrl,
          baseSha: p.base?.sha ?? p.pull.baseSha,
          headSha: p.headSha ?? p.pull.headSha,
        }
      : null,
    gating: p.gating,
    policyChange: policyChangeOf(p),
    properties: p.outcomes,
    propertiesFile: p.facts === null ? null : { path: settings.policy.properties, present: p.facts.policy.properties !== null },
    ledger: p.policy === null ? null : { path: settings.policy.ledger, present: p.policy.ledgerPresent, refused: p.policy.freezes.refused },
    evidence: decision.verdict === "not_gated" ? null : { dir: settings.evidenceDir, digest, artifact: EVIDENCE_ARTIFACT_NAME },
    links,
    notes,
    omittedAnnotations: omitted,
    coverage,
  };
  const summary = renderSummary(summaryInput);
  // The evidence was written (or the run is refused for want of it): the footprint goes with it.
  if (digest === null) footprint = null;
  const text = footprint === null ? null : renderFootprint(footprint);
  let reportingError: GateError | null = null;
  if (checkRun !== null) {
    try {
      await completeCheckRun(client, settings.repository, checkRun.id, {
        conclusion: decision.conclusion,
        title: checkTitle(decision),
        summary,
        ...(text !== null ? { text } : {}),
        annotations: kept,
      });
    } catch (err) {
      reportingError = asGateError(err);
    }
  }
  // After the check run: the verdict is on the pull request already, whatever the upload does.
  let sarifOutcome: GateOutcome["sarif"] = null;
  if (sarif !== null && digest !== null) {
    sarifOutcome = { path: join(settings.evidenceDir, SARIF_FILE), uploaded: false, uploadId: null, uploadError: null };
    if (settings.uploadSarif && p.pull !== null && p.headSha !== null) {
      try {
        const receipt = await uploadSarif(client, settings.repository, {
          commitSha: p.headSha,
          ref: `refs/pull/${p.pull.number}/head`,
          sarif,
          toolName: SARIF_TOOL_NAME,
        });
        sarifOutcome.uploaded = true;
        sarifOutcome.uploadId = receipt.id;
      } catch (err) {
        const cause = err instanceof GateError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
        sarifOutcome.uploadError = new GateError(
          "SARIF_UPLOAD_FAILED",
          `envelope-gate.sarif could not be uploaded to code scanning (${cause}); the verdict stands as the check run says`,
          {
            cause: err,
            hint: "The job needs security-events: write, and code scanning must be available for the repository; the SARIF file is in the evidence bundle.",
          },
        );
      }
    }
  }
  return {
    decision,
    report,
    summary,
    annotations: kept,
    checkRun,
    checkRunRefused,
    reportingError,
    envelope: envelope ? { id: envelope.envelope.envelope_id, hash: envelope.hash } : null,
    properties: (p.outcomes ?? []).map((o) => o.record),
    policyChanged: policyChangeOf(p) !== null,
    evidence: { dir: settings.evidenceDir, digest },
    pull: p.pull,
    text,
    footprint: footprint === null ? null : { path: join(settings.evidenceDir, FOOTPRINT_FILE), file: footprint },
    sarif: sarifOutcome,
  };
}

/**
 * Reads the judged log once more for what a reviewer reads beside the verdict: coverage per
 * class, the footprint against the base branch's last run, and the SARIF of the violations.
 * Advisory, all of it: nothing here changes the decision, and a failure to compare is said as such.
 */
async function describeJudgedLog(
  settings: Settings,
  client: GitHubClient,
  p: Progress,
  report: CheckReport,
): Promise<{ coverage: Coverage | null; footprint: FootprintFile; sarif: string }> {
  const envelope = p.pinned?.envelope ?? null;
  const sarif = sarifText(
    buildSarif({
      violations: report.violations,
      checkName: settings.checkName,
      envelope:
        envelope === null ? null : { file: envelope.file, lines: envelope.lines, id: envelope.envelope.envelope_id, hash: envelope.hash },
      workspace: foldPath(settings.workspace) ?? settings.workspace,
      logName: EVIDENCE_FILES.observerLog,
      otherLogs: new Map(p.propertyViolations.flatMap((r) => r.violations.map((v) => [v, `property ${r.property}'s log`] as const))),
    }),
  );
  let coverage: Coverage | null = null;
  let mine: LogFootprint;
  try {
    const text = await readFile(join(settings.evidenceDir, EVIDENCE_FILES.observerLog), "utf8");
    coverage = logCoverage(parseLogLines(text));
    mine = logFootprint(parseLogLines(text));
  } catch (err) {
    const e = asGateError(err);
    return {
      coverage,
      sarif,
      footprint: { version: 1, status: "unavailable", reason: `this run's own log could not be read again (${e.code}: ${e.message})` },
    };
  }
  return { coverage, sarif, footprint: await baseFootprint(settings, client, p, mine) };
}

/** The footprint against the base branch's last push run of this workflow that left its evidence. */
async function baseFootprint(settings: Settings, client: GitHubClient, p: Progress, mine: LogFootprint): Promise<FootprintFile> {
  const pull = p.pull as PullRequestInfo;
  if (settings.workflowPath === null) {
    return { version: 1, status: "no_base", reason: "this run's workflow file is not known: GITHUB_WORKFLOW_REF does not name one" };
  }
  let found: BaseEvidence;
  try {
    found = await baseRunEvidence(client, settings.repository, {
      workflowPath: settings.workflowPath,
      branch: pull.baseRef,
      // The base commit this run was judged against: a base run's commit must be in its history.
      baseSha: p.base?.sha ?? pull.baseSha,
      artifact: EVIDENCE_ARTIFACT_NAME,
      excludeRunId: settings.run.id,
    });
  } catch (err) {
    // An outage is "could not compare", never "nothing new".
    const e = asGateError(err);
    return { version: 1, status: "unavailable", reason: `${e.code}: ${e.message}` };
  }
  if (!found.found) return { version: 1, status: "no_base", reason: found.reason };
  let base: LogFootprint;
  try {
    base = logFootprint(parseLogLines(baseLogFromZip(found.zip)));
  } catch (err) {
    const e = asGateError(err);
    return { version: 1, status: "no_base", reason: `the evidence of run #${found.run.id} is unreadable (${e.code}: ${e.message})` };
  }
  return comparedFootprint(mine, base, {
    workflow_run_id: found.run.id,
    run_number: found.run.run_number,
    head_sha: found.run.head_sha,
    branch: found.run.head_branch,
    html_url: found.run.html_url,
    log_run_id: base.run_id,
  });
}
