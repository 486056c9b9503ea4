/**
 * Gating one pull request: wires settings, GitHub, the observer and core together. Every
 * decision is a core function; this file only fetches, runs and records.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { capAnnotations, ledgerAnnotations, propertyAnnotations, violationAnnotations, type CheckAnnotation } from "../core/annotations.js";
import { expandRoots, formatDigestLine, loadEnvelope, verifyDigest, type LoadedEnvelope } from "../core/envelope.js";
import { GateError, type ErrorCode } from "../core/errors.js";
import { EVIDENCE_ARTIFACT_NAME, EVIDENCE_FILES, encodeJson, type PropertiesFile, type PropertyRecord } from "../core/evidence.js";
import { applyFreezeCaps, parseLedger, utcDate, type FreezeDecision, type Ledger } from "../core/ledger.js";
import {
  WRITE_ROLES,
  applyFreezes,
  decide,
  gatingDecision,
  headApprovers,
  listedReviewer,
  policyBlobChanges,
  policyChanges,
  type Decision,
  type GatingDecision,
  type PolicyChange,
  type PropertyOutcome,
} from "../core/policy.js";
import { loadProperties, scoreOutputSchema, type CommandOutcome, scorePatchPaths, scoreTestsCollected, type PropertiesDeclaration, type Score } from "../core/properties.js";
import { checkTitle, renderSummary, type SummaryInput } from "../core/summary.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";
import { RULE_ENVELOPE_KEY, type Violation } from "../core/log.js";
import { evaluateLogFile } from "../gate/files.js";
import { completeCheckRun, createCheckRun, type CheckRunHandle } from "../github/checks.js";
import { createGitHubClient, hasStatus, type GitHubClient } from "../github/client.js";
import { fileIdAt, getCollaboratorRole, getPullRequest, listPullFiles, listReviews, readFileAt, type PullFile, type PullRequestInfo } from "../github/repo.js";
import { copyLog, prepareEvidenceDir, readWorkspaceFile, runPropertyUnderObserver, runUnderObserver, runnerIdentity, writeBundle } from "./local.js";
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
}

const DEFAULT_PROPERTY_TIMEOUT_S = 600;

function asGateError(err: unknown): GateError {
  if (err instanceof GateError) return err;
  return new GateError("INTERNAL_ERROR", `the Action failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
    hint: "This is a bug in envelope-gate; the pull request is refused until it is fixed.",
  });
}

function decodeText(bytes: Uint8Array, code: "LEDGER_INVALID" | "ENVELOPE_DIGEST_INVALID", file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new GateError(code, `${file} is not valid UTF-8`, { file });
  }
}

/** State gathered while gating, so an error at any point still reports what was known. */
interface Progress {
  pull: PullRequestInfo | null;
  headSha: string | null;
  gating: GatingDecision | null;
  changes: PolicyChange[];
  approvedBy: string[];
  policyRef: string | null;
  policySource: string;
  envelope: LoadedEnvelope | null;
  envelopeBytes: Uint8Array | null;
  properties: PropertiesDeclaration | null;
  propertiesPresent: boolean | null;
  ledger: Ledger | null;
  ledgerPresent: boolean | null;
  freezes: FreezeDecision | null;
  report: CheckReport | null;
  outcomes: PropertyOutcome[] | null;
  logWritten: boolean;
  /** The files listing holds every file the pull request changes (it stops at 3000). */
  filesComplete: boolean;
  /** Violations a property command's own run committed, by property. */
  propertyViolations: { property: string; logPath: string; violations: Violation[] }[];
}

export async function gatePullRequest(settings: Settings): Promise<GateOutcome> {
  const client = createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
  const repo = settings.repository;
  const p: Progress = {
    pull: null,
    headSha: settings.expectedHeadSha ?? settings.eventPull?.headSha ?? null,
    gating: null,
    changes: [],
    approvedBy: [],
    policyRef: null,
    policySource: "base commit",
    envelope: null,
    envelopeBytes: null,
    properties: null,
    propertiesPresent: null,
    ledger: null,
    ledgerPresent: null,
    freezes: null,
    report: null,
    outcomes: null,
    logWritten: false,
    filesComplete: true,
    propertyViolations: [],
  };
  let checkRun: CheckRunHandle | null = null;
  let checkRunRefused = false;
  let error: GateError | null = null;

  try {
    p.pull = await getPullRequest(client, repo, settings.pullNumber);
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
        p.policyRef = settings.eventPull?.baseSha ?? p.pull.baseSha;
        await readEnvelopeAt(settings, client, p, p.policyRef);
      } catch (err) {
        const e = asGateError(err);
        notes.push(`The base commit's envelope was not shown (${e.code}: ${e.message}). Nothing was evaluated for this pull request.`);
      }
      return await finish(settings, client, p, decision, checkRun, checkRunRefused, [], null, notes);
    }
    await gate(settings, client, p);
  } catch (err) {
    error = asGateError(err);
  }

  const report = error !== null ? reportFromError(error, p.envelope) : (p.report as CheckReport);
  if (error !== null) p.outcomes = null;
  p.report = report;
  const decision = decide({
    report,
    properties: p.outcomes ?? [],
    policyChange: p.changes.length > 0 ? { changes: p.changes, approvedBy: p.approvedBy } : null,
  });
  const annotations: CheckAnnotation[] = [];
  const fromProperties = new Set(p.propertyViolations.flatMap((r) => r.violations));
  const mainViolations = report.violations.filter((v) => !fromProperties.has(v));
  if (p.envelope && mainViolations.length > 0) annotations.push(...violationAnnotations(mainViolations, p.envelope, EVIDENCE_FILES.observerLog));
  const notes: string[] = [];
  for (const r of error === null ? p.propertyViolations : []) {
    if (p.envelope) annotations.push(...violationAnnotations(r.violations, p.envelope, `property ${r.property}'s log`));
    notes.push(`Property ${r.property}'s command ran jailed under the same envelope and broke it (${r.violations.map((v) => v.id).join(", ")}); its observer log is ${r.logPath} on the runner. Properties are not scored after an envelope failure.`);
  }
  if (p.outcomes) annotations.push(...propertyAnnotations(p.outcomes, settings.policy.properties));
  if (p.freezes) annotations.push(...ledgerAnnotations(p.outcomes ?? [], p.freezes.refused, settings.policy.ledger));
  if (error?.file !== undefined && Object.values(settings.policy).includes(error.file)) {
    annotations.unshift({
      path: error.file,
      start_line: error.line ?? 1,
      end_line: error.line ?? 1,
      annotation_level: "failure",
      title: error.code,
      message: error.message.slice(0, 4000),
    });
  }
  return finish(settings, client, p, decision, checkRun, checkRunRefused, annotations, error, notes);
}

async function gate(settings: Settings, client: GitHubClient, p: Progress): Promise<void> {
  const repo = settings.repository;
  const pull = p.pull as PullRequestInfo;
  const headSha = p.headSha as string;
  const baseSha = settings.eventPull?.baseSha ?? pull.baseSha;

  const files: PullFile[] = await listPullFiles(client, repo, pull.number);
  // The listing stops at 3000 files, so policy changes are decided by the policy files' blob ids
  // at base and head; the listing only adds what it shows (renames, a change changed back).
  p.filesComplete = files.length >= pull.changedFiles;
  const [atBase, atHead] = await Promise.all([policyBlobIds(client, settings, baseSha), policyBlobIds(client, settings, headSha)]);
  p.changes = policyBlobChanges(settings.policy, atBase, atHead, policyChanges(files, settings.policy));
  if (p.changes.length > 0) {
    const reviews = await listReviews(client, repo, pull.number);
    for (const login of headApprovers(reviews, headSha, pull.author)) {
      const allowed =
        settings.envelopeReviewers.length > 0
          ? listedReviewer(login, settings.envelopeReviewers)
          : WRITE_ROLES.has((await getCollaboratorRole(client, repo, login)) ?? "none");
      if (allowed) p.approvedBy.push(login);
    }
  }
  const approved = p.approvedBy.length > 0;
  p.policyRef = approved ? headSha : baseSha;
  p.policySource = approved ? "head commit, policy change approved" : "base commit";

  const envelopeBytes = await readEnvelopeAt(settings, client, p, p.policyRef);
  const envelope = p.envelope as LoadedEnvelope;
  const { properties: propertiesPath, ledger: ledgerPath } = settings.policy;

  const propertiesBytes = await readFileAt(client, repo, propertiesPath, p.policyRef);
  p.propertiesPresent = propertiesBytes !== null;
  p.properties = propertiesBytes === null ? null : loadProperties(propertiesBytes, propertiesPath);
  const ledgerBytes = await readFileAt(client, repo, ledgerPath, p.policyRef);
  p.ledgerPresent = ledgerBytes !== null;
  // A ledger absent at the policy commit means no freezes; an unreadable one already threw.
  p.ledger = ledgerBytes === null ? { file: ledgerPath, rows: [], problems: [] } : parseLedger(decodeText(ledgerBytes, "LEDGER_INVALID", ledgerPath), ledgerPath);
  const today = utcDate(new Date());
  p.freezes = applyFreezeCaps(p.ledger, today, settings.freezeCaps);

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
    });
    p.logWritten = existsSync(logPath);
    if (observed.refusal !== null && (observed.exitCode === 3 || !p.logWritten)) {
      throw new GateError(observed.refusal, `envelope-gate run refused with ${observed.refusal} (exit code ${observed.exitCode ?? "none"}); see the step log`, {
        hint: "The run was not observed, so it is not judged as clean.",
      });
    }
    if (!p.logWritten) {
      throw new GateError("OBSERVER_LOG_MISSING", `envelope-gate run ended (exit code ${observed.exitCode ?? "none"}) without writing ${logPath}`, {
        hint: "The run was not observed, so it is not judged as clean.",
      });
    }
  } else {
    await copyLog(settings.evaluation.path, logPath);
    p.logWritten = true;
  }
  const verdict = await evaluateLogFile(envelope, logPath, { roots });
  p.report = reportFromVerdict(verdict);

  if (p.report.verdict !== "pass") return;
  const scored: { record: PropertyRecord; line: number; locations: Score["locations"] }[] = [];
  for (const declared of p.properties?.properties ?? []) {
    const d = declared.declaration;
    // Outside the scoring's catch: a property run that cannot be judged refuses the whole pull request.
    const ran = d.kind === "tests_collected" ? await runProperty(settings, p, d.name, d.command, d.timeout_seconds ?? DEFAULT_PROPERTY_TIMEOUT_S) : undefined;
    // The property's own run broke the envelope: that is an envelope failure, not a score.
    if (ran === null) return;
    let score: Score;
    try {
      if (d.kind === "output_schema") {
        score = scoreOutputSchema(declared, await readWorkspaceFile(settings.workspace, d.output));
      } else if (d.kind === "patch_paths") {
        if (!p.filesComplete) {
          throw new GateError("PULL_FILES_TRUNCATED", `GitHub listed ${files.length} of the ${pull.changedFiles} files this pull request changes; ${d.name} cannot be judged on part of them`, {
            hint: "Split the pull request: GitHub's files listing stops at 3000 files.",
          });
        }
        score = scorePatchPaths(declared, files);
      } else {
        score = scoreTestsCollected(declared, ran as CommandOutcome);
      }
    } catch (err) {
      const e = asGateError(err);
      score = { result: "error", detail: `${e.code}: ${e.message}`, inputs: {}, locations: [] };
    }
    scored.push({
      record: { name: d.name, result: score.result, detail: score.detail, inputs: score.inputs, frozen_by: null },
      line: declared.line,
      locations: score.locations,
    });
  }
  p.outcomes = applyFreezes(scored, p.freezes, p.ledger.rows, envelope.hash, today);
}

/**
 * Runs a property command jailed and observed under the same envelope as the patch, and judges
 * its log like the main run's. Returns the command's outcome to score, or null when its log
 * broke the envelope (the violations join the report, which turns envelope_fail). A run the
 * gate cannot judge throws: the pull request is refused, never scored on an unobserved run.
 */
async function runProperty(settings: Settings, p: Progress, name: string, command: string[], timeoutSeconds: number): Promise<CommandOutcome | null> {
  const envelope = p.envelope as LoadedEnvelope;
  const envelopeBytes = p.envelopeBytes as Uint8Array;
  const logPath = join(settings.runnerTemp, "envelope-gate-properties", `${name}.observer.jsonl`);
  const ran = await runPropertyUnderObserver({
    envelopeBytes,
    digestLine: formatDigestLine(envelopeBytes, "envelope.json"),
    logPath,
    workspace: settings.workspace,
    scratch: settings.scratch,
    command,
    runnerTemp: settings.runnerTemp,
    timeoutSeconds,
  });
  if (ran.refusal === "COMMAND_NOT_FOUND") return { exitCode: null, stdout: "", failure: `${command[0] ?? ""} was not found` };
  // Stopped at its deadline, the run's log has no end and cannot be judged: the gate refuses
  // (a command that outwaits its deadline must not leave its run unjudged behind a property error).
  if (ran.outcome.exitCode === null && ran.outcome.failure !== undefined) {
    throw new GateError("OBSERVER_INTERRUPTED", `property ${name}: the command was ${ran.outcome.failure}; its run is not judged, so the pull request is not either`, {
      hint: "Raise the property's timeout_seconds, or make the command finish sooner.",
    });
  }
  if (ran.refusal !== null && (ran.exitCode === 3 || !existsSync(logPath))) {
    throw new GateError(ran.refusal, `property ${name}: envelope-gate run refused with ${ran.refusal} (exit code ${ran.exitCode ?? "none"}); see the step log`, {
      hint: "A property command runs jailed and observed like the patch; an unobserved run is not scored.",
    });
  }
  if (!existsSync(logPath)) {
    throw new GateError("OBSERVER_LOG_MISSING", `property ${name}: envelope-gate run ended (exit code ${ran.exitCode ?? "none"}) without writing ${logPath}`, {
      hint: "A property command runs jailed and observed like the patch; an unobserved run is not scored.",
    });
  }
  const roots = expandRoots(envelope, { workspace: settings.workspace, scratch: settings.scratch });
  const verdict = reportFromVerdict(await evaluateLogFile(envelope, logPath, { roots }));
  if (verdict.verdict === "error") {
    const e = verdict.error;
    throw new GateError((e?.code ?? "OBSERVER_LOG_MALFORMED") as ErrorCode, `property ${name}'s run: ${e?.message ?? "its log could not be judged"}`, { hint: e?.hint ?? "" });
  }
  if (verdict.verdict === "envelope_fail") {
    const report = p.report as CheckReport;
    p.report = { ...report, verdict: "envelope_fail", violations: [...report.violations, ...verdict.violations] };
    p.propertyViolations.push({ property: name, logPath, violations: verdict.violations });
    return null;
  }
  return ran.outcome;
}

/** The blob id of each policy file at `ref` (null where it does not exist). */
async function policyBlobIds(client: GitHubClient, settings: Settings, ref: string): Promise<Map<string, string | null>> {
  const paths = Object.values(settings.policy);
  const ids = await Promise.all(paths.map((path) => fileIdAt(client, settings.repository, path, ref)));
  return new Map(paths.map((path, i) => [path, ids[i]?.sha ?? null]));
}

/** Reads the envelope and its digest at `ref`, verifies the pin, and records both in `p`. */
async function readEnvelopeAt(settings: Settings, client: GitHubClient, p: Progress, ref: string): Promise<Uint8Array> {
  const repo = settings.repository;
  const { envelope: envelopePath, digest: digestPath } = settings.policy;
  const where = `${p.policySource} ${ref.slice(0, 12)}`;
  const envelopeBytes = await readFileAt(client, repo, envelopePath, ref);
  if (envelopeBytes === null) {
    throw new GateError("ENVELOPE_MISSING", `${envelopePath} does not exist at the ${where}`, {
      file: envelopePath,
      hint: "Commit the envelope and its digest to the base branch first; a pull request cannot bring its own envelope.",
    });
  }
  const digestBytes = await readFileAt(client, repo, digestPath, ref);
  if (digestBytes === null) {
    throw new GateError("ENVELOPE_DIGEST_MISSING", `${digestPath} does not exist at the ${where}`, {
      file: digestPath,
      hint: `Pin the envelope: envelope-gate hash ${envelopePath} > ${digestPath}, reviewed and committed with it.`,
    });
  }
  verifyDigest(envelopeBytes, envelopePath, decodeText(digestBytes, "ENVELOPE_DIGEST_INVALID", digestPath), digestPath);
  p.envelope = loadEnvelope(envelopeBytes, envelopePath);
  p.envelopeBytes = envelopeBytes;
  return envelopeBytes;
}

async function writeEvidence(settings: Settings, p: Progress, report: CheckReport): Promise<string> {
  const files = new Map<string, Uint8Array>();
  const properties: PropertiesFile = { version: 1, properties: (p.outcomes ?? []).map((o) => o.record) };
  files.set(EVIDENCE_FILES.properties, encodeJson(properties));
  if (p.envelopeBytes !== null) files.set(EVIDENCE_FILES.envelopeDigest, new TextEncoder().encode(formatDigestLine(p.envelopeBytes, "envelope.json")));
  files.set(EVIDENCE_FILES.verdict, encodeJson(report));
  const identity = await runnerIdentity({
    run_id: report.log?.run_id ?? settings.run.id,
    run_attempt: settings.run.attempt,
    workflow_run_id: settings.run.id,
    repository: `${settings.repository.owner}/${settings.repository.repo}`,
    head_sha: p.headSha,
    pull_number: p.pull?.number ?? settings.pullNumber,
    dual_run_id: settings.dualRunId,
    envelope_hash: p.envelope?.hash ?? null,
    envelope_id: p.envelope?.envelope.envelope_id ?? null,
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
  if (decision.verdict !== "not_gated" && report !== null) {
    try {
      if (!p.logWritten) await prepareEvidenceDir(settings.evidenceDir);
      digest = await writeEvidence(settings, p, report);
    } catch (err) {
      const e = asGateError(err);
      if (error === null) {
        // Without evidence the App cannot compare runs; the run is refused, not passed.
        report = reportFromError(e, p.envelope);
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
  const { kept, omitted } = capAnnotations(annotationsIn);
  const links: SummaryInput["links"] = [];
  if (settings.run.url) links.push({ label: "workflow run (evidence artifact)", url: settings.run.url });
  if (p.pull?.htmlUrl) links.push({ label: `pull request #${p.pull.number}`, url: p.pull.htmlUrl });
  if (checkRun?.htmlUrl) links.push({ label: "check run", url: checkRun.htmlUrl });
  const summaryInput: SummaryInput = {
    checkName: settings.checkName,
    decision,
    report,
    envelope: p.envelope
      ? {
          id: p.envelope.envelope.envelope_id,
          hash: p.envelope.hash,
          file: p.envelope.file,
          ref: p.policyRef ?? "",
          source: p.policySource,
          ruleLines: Object.fromEntries(Object.values(RULE_ENVELOPE_KEY).map((k) => [k, p.envelope?.lines.get(`/${k}`)])),
        }
      : null,
    pull: p.pull ? { number: p.pull.number, author: p.pull.author, url: p.pull.htmlUrl, baseSha: settings.eventPull?.baseSha ?? p.pull.baseSha, headSha: p.headSha ?? p.pull.headSha } : null,
    gating: p.gating,
    policyChange: p.changes.length > 0 ? { changes: p.changes, approvedBy: p.approvedBy } : null,
    properties: p.outcomes,
    propertiesFile: p.propertiesPresent === null ? null : { path: settings.policy.properties, present: p.propertiesPresent },
    ledger: p.ledgerPresent === null ? null : { path: settings.policy.ledger, present: p.ledgerPresent, refused: p.freezes?.refused ?? [] },
    evidence: decision.verdict === "not_gated" ? null : { dir: settings.evidenceDir, digest, artifact: EVIDENCE_ARTIFACT_NAME },
    links,
    notes,
    omittedAnnotations: omitted,
  };
  const summary = renderSummary(summaryInput);
  let reportingError: GateError | null = null;
  if (checkRun !== null) {
    try {
      await completeCheckRun(client, settings.repository, checkRun.id, {
        conclusion: decision.conclusion,
        title: checkTitle(decision),
        summary,
        annotations: kept,
      });
    } catch (err) {
      reportingError = asGateError(err);
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
    envelope: p.envelope ? { id: p.envelope.envelope.envelope_id, hash: p.envelope.hash } : null,
    properties: (p.outcomes ?? []).map((o) => o.record),
    policyChanged: p.changes.length > 0,
    evidence: { dir: settings.evidenceDir, digest },
    pull: p.pull,
  };
}
