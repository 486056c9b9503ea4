/**
 * Gating one pull request: gather the facts from GitHub (./facts.ts, through a PullSource), make
 * the policy of them (src/core/policy-files.ts), run and judge the patch and its properties
 * under the observer, decide (src/core/policy.ts), then render the check run and the evidence
 * from that decision. Every decision is a core function; this file only sequences.
 *
 * The sequence is staged: each stage gives a readonly value (the subject, the pinned policy, the
 * run, the properties), kept in `Known` as it is reached so an error at any point still reports
 * what came before it; `verdictOf` makes the verdict of them and `publish` reports it.
 */
import { VERSION } from "../core/version.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { capAnnotations, ledgerAnnotations, propertyAnnotations, violationAnnotations, type CheckAnnotation } from "../core/annotations.js";
import { expandRoots, formatDigestLine, sha256Hex } from "../core/envelope.js";
import { Refusal, type ErrorCode } from "../core/errors.js";
import {
  EVIDENCE_ARTIFACT_NAME,
  EVIDENCE_FILES,
  encodeJson,
  readEvidenceZip,
  type PropertiesFile,
  type PropertyRecord,
  type RunnerIdentity,
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
import { checkTitle, orgEnvelopeSeen, renderFootprint, renderSummary, type OrgEnvelopeSeen, type SummaryInput } from "../core/summary.js";
import { logCoverage, type Coverage } from "../core/coverage.js";
import {
  FOOTPRINT_FILE,
  baseLogFromZip,
  comparedFootprint,
  logFootprint,
  type FootprintFile,
  type LogFootprint,
} from "../core/footprint.js";
import { SARIF_FILE, SARIF_TOOL_NAME, buildSarif, sarifText } from "../core/sarif.js";
import { foldPath } from "../core/paths.js";
import { baseRunEvidence, uploadSarif, type BaseEvidence } from "../github/base-runs.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";
import { RULE_ENVELOPE_KEY } from "../core/annotations.js";
import { walkLog, type Violation } from "../core/log-reader.js";
import type { Envelope } from "../core/envelope.js";
import { pinnedEnvelope, policyFrom, type PinnedEnvelope, type Policy } from "../core/policy-files.js";
import { evaluateLogFile } from "../check/files.js";
import { downloadRunArtifact, workflowRunFacts, type ArtifactDownload } from "../github/artifacts.js";
import { checkRunsOnCommit, completeCheckRun, createCheckRun, type CheckRunHandle } from "../github/checks.js";
import { createGitHubClient, hasStatus, type GitHubClient } from "../github/client.js";
import { gitHubPullSource, type PullSource } from "../github/pull-source.js";
import type { PullRequestInfo } from "../github/repo.js";
import type { JudgedBase } from "../core/base.js";
import type { RunPullRequest, RunRole } from "../core/env-sets.js";
import { runEnd } from "./cli-result.js";
import { currentBase, gatherPolicyFacts, policyFilesAt, type PolicyFacts } from "./facts.js";
import {
  copyLog,
  prepareEvidenceDir,
  propertyScratch,
  readWorkspaceFile,
  runPropertyUnderObserver,
  runUnderObserver,
  runnerIdentity,
  writeBundle,
} from "./local.js";
import type { Settings } from "./settings.js";

export interface PullRequestOutcome {
  decision: Decision;
  report: CheckReport | null;
  summary: string;
  annotations: CheckAnnotation[];
  checkRun: CheckRunHandle | null;
  /** The token could not create check runs (403, as for fork pull requests). */
  checkRunRefused: boolean;
  /** Reporting failed after the decision (the check run could not be completed). */
  reportingError: Refusal | null;
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
  sarif: { path: string; uploaded: boolean; uploadId: string | null; uploadError: Refusal | null } | null;
  /** Mode audit: the suggested envelope.json written into the evidence directory (null otherwise, or on an error). */
  suggestedEnvelope?: string | null;
}

const DEFAULT_PROPERTY_TIMEOUT_S = 600;

export function asRefusal(err: unknown): Refusal {
  if (err instanceof Refusal) return err;
  return new Refusal("INTERNAL_ERROR", `the Action failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
    hint: "This is a bug in envelope-gate; the pull request is refused until it is fixed.",
  });
}

/** Stage 1: the pull request as the API has it, the commit checked, the base judged against, whether it is gated. */
interface Subject {
  readonly headSha: string | null;
  readonly pull: PullRequestInfo | null;
  /** The base judged against: the API's base branch at its current commit (src/core/base.ts). */
  readonly base: JudgedBase | null;
  readonly gating: GatingDecision | null;
}

/** Stage 2: the pinned policy: the facts gathered, where the policy came from, the verified envelope, the policy made of them. */
interface PinnedPolicy {
  /** Where the policy came from, once known (the base commit until an approval says the head). */
  readonly ref: string | null;
  readonly source: string;
  readonly facts: PolicyFacts | null;
  /** The pinned envelope, once verified (shown for a pull request that is not gated too). */
  readonly pinned: PinnedEnvelope | null;
  readonly policy: Policy | null;
}

/** Stage 3: the patch's run: whether it left a log in the evidence directory, and its log's report once judged. */
interface PatchRun {
  readonly logWritten: boolean;
  readonly report: CheckReport | null;
}

/** A property command's own run that broke the envelope: its violations, apart from the patch's. */
interface PropertyBreach {
  readonly property: string;
  readonly logPath: string;
  readonly violations: readonly Violation[];
}

/** Stage 4: the properties, scored (with the policy whose freezes were checked against their evidence), or the run that broke the envelope. */
type PropertyStage =
  | { readonly kind: "scored"; readonly outcomes: PropertyOutcome[]; readonly policy: Policy }
  | { readonly kind: "broken"; readonly breach: PropertyBreach };

/** What the gate knows: each stage's result as it was reached (a stage not reached keeps its start). */
interface Known {
  readonly subject: Subject;
  readonly policy: PinnedPolicy;
  readonly run: PatchRun;
  readonly properties: PropertyStage | null;
}

/** Where the verdict is reported: the check run, or the 403 that refused one (as for fork pull requests). */
interface Channel {
  readonly checkRun: CheckRunHandle | null;
  readonly refused: boolean;
}

/** What publish needs beside the stages. */
interface PublishInputs {
  readonly settings: Settings;
  readonly client: GitHubClient;
  readonly channel: Channel;
}

/** Stage 5: the verdict made of the stages, before the evidence and the check run. */
interface StagedVerdict {
  readonly decision: Decision;
  /** The report as shown: the patch's, with a property run's violations after its own; null when nothing was judged. */
  readonly report: CheckReport | null;
  /** Null when none was scored, or an error replaced them. */
  readonly outcomes: PropertyOutcome[] | null;
  /** The property run that broke the envelope (null on an error: the error is the verdict). */
  readonly breach: PropertyBreach | null;
  readonly annotations: readonly CheckAnnotation[];
  readonly notes: readonly string[];
  readonly error: Refusal | null;
}

const UNOBSERVED_HINT = "The run was not observed, so it is not judged as clean.";
const PROPERTY_UNOBSERVED_HINT = "A property command runs jailed and observed like the patch; an unobserved run is not scored.";

export async function gatePullRequest(settings: Settings): Promise<PullRequestOutcome> {
  const client = await createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
  const repo = settings.repository;
  const source = gitHubPullSource(client, repo);
  let known: Known = {
    subject: { headSha: settings.expectedHeadSha ?? settings.eventPull?.headSha ?? null, pull: null, base: null, gating: null },
    policy: { ref: null, source: "base commit", facts: null, pinned: null, policy: null },
    run: { logWritten: false, report: null },
    properties: null,
  };
  const subject = (s: Partial<Subject>): Known => ({ ...known, subject: { ...known.subject, ...s } });
  const pinnedPolicy = (s: Partial<PinnedPolicy>): Known => ({ ...known, policy: { ...known.policy, ...s } });
  const patchRun = (s: Partial<PatchRun>): Known => ({ ...known, run: { ...known.run, ...s } });
  let channel: Channel = { checkRun: null, refused: false };
  let error: Refusal | null = null;

  try {
    // Only audit runs without a pull request (src/action/audit.ts); readSettings sees to it.
    if (settings.pullNumber === null) throw new Refusal("INTERNAL_ERROR", "an enforce run without a pull request");
    const pull = await source.pullRequest(settings.pullNumber);
    const headSha = known.subject.headSha ?? pull.headSha;
    known = subject({ pull, headSha });
    channel = await openCheckRun(settings, client, headSha);
    if (settings.expectedHeadSha !== null && settings.expectedHeadSha !== pull.headSha) {
      throw new Refusal(
        "PULL_REQUEST_HEAD_MOVED",
        `pull request #${pull.number} is at ${pull.headSha}, not the head-sha ${settings.expectedHeadSha} this run was asked to check`,
        { hint: "The pull request moved on; the run for the new head decides. Runner B results never carry over to another commit." },
      );
    }
    // The current base, never the event's: a retargeted pull request is refused, a base branch
    // that moved on is judged at its current commit; an unreadable one is GITHUB_UNAVAILABLE.
    const event = settings.eventPull;
    const base = await currentBase(source, pull, event === null ? null : { ref: event.baseRef, sha: event.baseSha });
    known = subject({ base });
    const gating = gatingDecision({
      author: pull.author,
      labels: pull.labels,
      agentAuthors: settings.agentAuthors,
      agentLabel: settings.agentLabel,
      gateAll: settings.gateAll,
    });
    known = subject({ gating });
    if (!gating.gated) {
      // Shown for reference only: nothing is judged, so an unreadable envelope is a note, not a verdict.
      known = pinnedPolicy({ ref: base.sha });
      const shown = await shownEnvelope(settings, source, base.sha, known.policy.source);
      known = pinnedPolicy({ pinned: shown.pinned });
      return await publish({ settings, client, channel }, known, {
        decision: { verdict: "not_gated", conclusion: "neutral", headline: `not gated: ${gating.reason}` },
        report: null,
        outcomes: null,
        breach: null,
        annotations: [],
        notes: shown.notes,
        error: null,
      });
    }

    const facts = await gatherPolicyFacts(source, {
      pull,
      baseSha: base.sha,
      headSha,
      paths: settings.policy,
      envelopeReviewers: settings.envelopeReviewers,
      botApprovers: settings.botApprovers,
    });
    known = pinnedPolicy({ facts, ref: facts.policy.ref, source: facts.policy.source });
    const today = utcDate(new Date());
    known = pinnedPolicy({ pinned: pinnedEnvelope(settings.policy, facts.policy) });
    const policy = policyFrom(settings.policy, facts.policy, today, settings.freezeCaps);
    known = pinnedPolicy({ policy });

    const roots = expandRoots(policy.envelope, { workspace: settings.workspace, scratch: settings.scratch });
    await prepareEvidenceDir(settings.evidenceDir);
    const logPath = join(settings.evidenceDir, EVIDENCE_FILES.observerLog);
    const observed = await observePatch(settings, policy, roots, logPath, pull);
    known = patchRun({ logWritten: observed.logWritten });
    if (observed.refusal !== null) throw observed.refusal;
    const report = reportFromVerdict(await evaluateLogFile(policy.envelope, logPath, { roots }));
    known = patchRun({ report });
    if (report.verdict === "pass") known = { ...known, properties: await scoreProperties(settings, pull, facts, policy, today) };
  } catch (err) {
    error = asRefusal(err);
  }
  return publish({ settings, client, channel }, known, verdictOf(settings, known, error));
}

/** Opens the check run on the head commit; a token that may not (HTTP 403, not a rate limit) is said, not fatal. */
async function openCheckRun(settings: Settings, client: GitHubClient, headSha: string): Promise<Channel> {
  try {
    const checkRun = await createCheckRun(client, settings.repository, {
      name: settings.checkName,
      headSha,
      ...(settings.dualRunId !== null ? { externalId: settings.dualRunId } : {}),
      ...(settings.run.url !== null ? { detailsUrl: settings.run.url } : {}),
    });
    return { checkRun, refused: false };
  } catch (err) {
    // A 403 that is a rate limit is an outage, not a missing permission.
    if (!hasStatus(err, 403) || /rate limit/i.test((err as Error).message)) throw err;
    return { checkRun: null, refused: true };
  }
}

/** The base commit's envelope, shown beside a not-gated verdict; one that cannot be shown is a note. */
async function shownEnvelope(
  settings: Settings,
  source: PullSource,
  ref: string,
  label: string,
): Promise<{ pinned: PinnedEnvelope | null; notes: string[] }> {
  try {
    const files = await policyFilesAt(source, settings.policy, ref, label);
    return { pinned: pinnedEnvelope(settings.policy, files), notes: [] };
  } catch (err) {
    const e = asRefusal(err);
    return {
      pinned: null,
      notes: [`The base commit's envelope was not shown (${e.code}: ${e.message}). Nothing was evaluated for this pull request.`],
    };
  }
}

/**
 * The patch's run under the observer (the run input), or the given log copied in (observer-log):
 * whether a log is in the evidence directory, and the typed refusal when it is not one to judge.
 */
async function observePatch(
  settings: Settings,
  policy: Policy,
  roots: string[],
  logPath: string,
  pull: PullRequestInfo,
): Promise<{ readonly logWritten: boolean; readonly refusal: Refusal | null }> {
  if (settings.evaluation.mode !== "run") {
    await copyLog(settings.evaluation.path, logPath);
    return { logWritten: true, refusal: null };
  }
  const observed = await runUnderObserver({
    envelopeBytes: policy.bytes,
    digestLine: formatDigestLine(policy.bytes, "envelope.json"),
    logPath,
    workspace: settings.workspace,
    scratch: settings.scratch,
    command: settings.evaluation.command,
    runnerTemp: settings.runnerTemp,
    roots,
    recorder: settings.recorder,
    setupPrerequisites: settings.setupPrerequisites,
    identity: runIdentity(settings, pull),
  });
  const end = runEnd(observed, logPath, { what: "", hint: UNOBSERVED_HINT });
  return end.kind === "logged" ? { logWritten: true, refusal: null } : { logWritten: end.logWritten, refusal: end.error };
}

/** Runs and scores each declared property, then checks the freeze rows that would tolerate a failure against their evidence. */
async function scoreProperties(
  settings: Settings,
  pull: PullRequestInfo,
  facts: PolicyFacts,
  policy: Policy,
  today: string,
): Promise<PropertyStage> {
  const { envelope } = policy;
  const files = facts.files;
  const scored: { record: PropertyRecord; line: number; locations: Score["locations"] }[] = [];
  for (const declared of policy.properties?.properties ?? []) {
    const d = declared.declaration;
    // Outside the scoring's catch: a property run that cannot be judged refuses the whole pull request.
    const ran =
      d.kind === "tests_collected"
        ? await runProperty(settings, pull, policy, d.name, d.command, d.timeout_seconds ?? DEFAULT_PROPERTY_TIMEOUT_S)
        : undefined;
    // The property's own run broke the envelope: that is an envelope failure, not a score.
    if (ran?.kind === "broke") return { kind: "broken", breach: ran.breach };
    let score: Score;
    try {
      if (d.kind === "output_schema") {
        score = scoreOutputSchema(declared, await readWorkspaceFile(settings.workspace, d.output));
      } else if (d.kind === "patch_paths") {
        if (!facts.filesComplete) {
          throw new Refusal(
            "PULL_FILES_TRUNCATED",
            `GitHub listed ${files.length} of the ${pull.changedFiles} files this pull request changes; ${d.name} cannot be judged on part of them`,
            {
              hint: "Split the pull request: GitHub's files listing stops at 3000 files.",
            },
          );
        }
        score = scorePatchPaths(declared, files);
      } else {
        score = scoreTestsCollected(declared, (ran as { outcome: CommandOutcome }).outcome);
      }
    } catch (err) {
      const e = asRefusal(err);
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
  const verified = new Set([...checks].filter(([, problem]) => problem === null).map(([line]) => line));
  return {
    kind: "scored",
    outcomes: applyFreezes(scored, freezes, policy.ledger.rows, envelope.hash, today, verified),
    policy: { ...policy, freezes },
  };
}

function policyChangeOf(known: Known): { changes: PolicyChange[]; approvedBy: string[] } | null {
  const facts = known.policy.facts;
  return facts !== null && facts.changes.length > 0 ? { changes: facts.changes, approvedBy: facts.approvedBy } : null;
}

/**
 * The verdict of what was reached: the error's report when there is one, else the patch's log's,
 * with a property run's violations after the patch's own; the decision, the annotations (each
 * violation on the log that holds it) and the notes.
 */
function verdictOf(settings: Settings, known: Known, error: Refusal | null): StagedVerdict {
  const envelope = known.policy.pinned?.envelope ?? null;
  const stage = error === null ? known.properties : null;
  const breach = stage?.kind === "broken" ? stage.breach : null;
  const outcomes = stage?.kind === "scored" ? stage.outcomes : null;
  const patch = error === null ? (known.run.report as CheckReport) : null;
  const report =
    patch === null
      ? reportFromError(error, envelope)
      : breach === null
        ? patch
        : { ...patch, verdict: "envelope_fail" as const, violations: [...patch.violations, ...breach.violations] };
  const decision = decide({ report, properties: outcomes ?? [], policyChange: policyChangeOf(known) });
  const annotations: CheckAnnotation[] = [];
  const notes: string[] = [];
  if (envelope && patch !== null && patch.violations.length > 0)
    annotations.push(...violationAnnotations(patch.violations, envelope, EVIDENCE_FILES.observerLog));
  if (breach !== null) {
    if (envelope) annotations.push(...violationAnnotations([...breach.violations], envelope, `property ${breach.property}'s log`));
    notes.push(
      `Property ${breach.property}'s command ran jailed under the same envelope and broke it (${breach.violations.map((v) => v.id).join(", ")}); its observer log is ${breach.logPath} on the runner. Properties are not scored after an envelope failure.`,
    );
  }
  if (outcomes) annotations.push(...propertyAnnotations(outcomes, settings.policy.properties));
  const policy = stage?.kind === "scored" ? stage.policy : known.policy.policy;
  if (policy) annotations.push(...ledgerAnnotations(outcomes ?? [], policy.freezes.refused, settings.policy.ledger));
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
  return { decision, report, outcomes, breach, annotations, notes, error };
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
  const client = await createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
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
        const e = asRefusal(err);
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
        const e = asRefusal(err);
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
 * its log like the main run's. Returns the command's outcome to score, or the breach when its log
 * broke the envelope (kept apart from the patch's violations; the verdict turns envelope_fail). A
 * run the gate cannot judge throws: the pull request is refused, never scored on an unobserved run.
 */
async function runProperty(
  settings: Settings,
  pull: PullRequestInfo,
  policy: Policy,
  name: string,
  command: string[],
  timeoutSeconds: number,
): Promise<{ readonly kind: "ran"; readonly outcome: CommandOutcome } | { readonly kind: "broke"; readonly breach: PropertyBreach }> {
  const { envelope, bytes: envelopeBytes } = policy;
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
    recorder: settings.recorder,
    setupPrerequisites: settings.setupPrerequisites,
    timeoutSeconds,
    identity: runIdentity(settings, pull),
  });
  // The wrapper's own result file says it refused before the log's first line: nothing ran. (What
  // the command prints, a forged refusal line too, is never read: it is judged on its log.)
  const said = ran.result.ok ? ran.result.result : null;
  if (said?.error?.code === "COMMAND_NOT_FOUND" && ran.exitCode === 3 && said.log !== null && said.log.bytes === 0) {
    return { kind: "ran", outcome: { exitCode: null, stdout: "", failure: `${command[0] ?? ""} was not found` } };
  }
  // Stopped at its deadline, the run's log has no end and cannot be judged: the gate refuses
  // (a command that outwaits its deadline must not leave its run unjudged behind a property error).
  if (ran.outcome.exitCode === null && ran.outcome.failure !== undefined) {
    throw new Refusal(
      "OBSERVER_INTERRUPTED",
      `property ${name}: the command was ${ran.outcome.failure}; its run is not judged, so the pull request is not either`,
      {
        hint: "Raise the property's timeout_seconds, or make the command finish sooner.",
      },
    );
  }
  const end = runEnd(ran, logPath, { what: `property ${name}: `, hint: PROPERTY_UNOBSERVED_HINT });
  if (end.kind === "refused") throw end.error;
  const verdict = reportFromVerdict(await evaluateLogFile(envelope, logPath, { roots }));
  if (verdict.verdict === "error") {
    const e = verdict.error;
    throw new Refusal(
      (e?.code ?? "OBSERVER_LOG_MALFORMED") as ErrorCode,
      `property ${name}'s run: ${e?.message ?? "its log could not be judged"}`,
      { hint: e?.hint ?? "" },
    );
  }
  if (verdict.verdict === "envelope_fail") return { kind: "broke", breach: { property: name, logPath, violations: verdict.violations } };
  return { kind: "ran", outcome: ran.outcome };
}

async function writeEvidence(
  settings: Settings,
  known: Known,
  outcomes: readonly PropertyOutcome[] | null,
  report: CheckReport,
  extras: ReadonlyMap<string, Uint8Array>,
): Promise<string> {
  const { subject } = known;
  const { pinned } = known.policy;
  const files = new Map<string, Uint8Array>(extras);
  const properties: PropertiesFile = { version: 1, properties: (outcomes ?? []).map((o) => o.record) };
  files.set(EVIDENCE_FILES.properties, encodeJson(properties));
  if (pinned !== null) files.set(EVIDENCE_FILES.envelopeDigest, new TextEncoder().encode(formatDigestLine(pinned.bytes, "envelope.json")));
  files.set(EVIDENCE_FILES.verdict, encodeJson(report));
  const identity = await runnerIdentity({
    run_id: report.log?.run_id ?? settings.run.id,
    run_attempt: settings.run.attempt,
    workflow_run_id: settings.run.id,
    repository: `${settings.repository.owner}/${settings.repository.repo}`,
    head_sha: subject.headSha,
    pull_number: subject.pull?.number ?? settings.pullNumber,
    dual_run_id: settings.dualRunId,
    envelope_hash: pinned?.envelope.hash ?? null,
    envelope_id: pinned?.envelope.envelope.envelope_id ?? null,
    mode: "enforce",
    ...judgedAgainst(known),
  });
  files.set(EVIDENCE_FILES.runner, encodeJson(identity));
  return writeBundle(settings.evidenceDir, files);
}

/**
 * runner.json's account of what the run judged against, which the App holds to the pull request's
 * current base: the base branch and commit, the commit the policy was read at, and the digests of
 * the properties file and ledger read there (null when not reached or absent).
 */
function judgedAgainst(known: Known): Pick<RunnerIdentity, "base_ref" | "base_sha" | "policy_sha" | "properties_digest" | "ledger_digest"> {
  const files = known.policy.facts?.policy ?? null;
  const digest = (bytes: Uint8Array | null | undefined) => (bytes ? `sha256:${sha256Hex(bytes)}` : null);
  return {
    base_ref: known.subject.base?.ref ?? null,
    base_sha: known.subject.base?.sha ?? null,
    policy_sha: files?.ref ?? null,
    properties_digest: digest(files?.properties),
    ledger_digest: digest(files?.ledger),
  };
}

/**
 * The organisation envelope's result as the App's verified check on the head says it (docs/app.md,
 * "An organisation's envelope"): the App alone can read the organisation's `.github`, and posts
 * its check after the run, so a run shows it when the App already judged the commit (a re-run).
 * Advisory: it never changes this run's verdict. A check by the job token (github-actions) with the
 * name is not the App's and is passed over.
 */
async function appOrgEnvelope(client: GitHubClient, settings: Settings, headSha: string, notes: string[]): Promise<OrgEnvelopeSeen | null> {
  const name = `${settings.checkName} / verified`;
  try {
    const checks = await checkRunsOnCommit(client, settings.repository, headSha, name);
    const app = checks.find((c) => c.app_slug !== null && c.app_slug !== "github-actions");
    return app === undefined ? null : orgEnvelopeSeen(app);
  } catch (err) {
    notes.push(
      `The App's "${name}" check could not be read (${asRefusal(err).code}): the organisation envelope's result is not shown here.`,
    );
    return null;
  }
}

/**
 * Reports the verdict: what the judged log shows beside it (coverage, the footprint against the
 * base, SARIF), the evidence bundle (without which the run is refused), the summary, the check
 * run, the SARIF upload.
 */
async function publish(run: PublishInputs, known: Known, verdict: StagedVerdict): Promise<PullRequestOutcome> {
  const { settings, client, channel } = run;
  const { subject } = known;
  const { error, outcomes } = verdict;
  let { decision, report } = verdict;
  let digest: string | null = null;
  const notes: string[] = [...verdict.notes];
  // What the judged log shows beyond the verdict: coverage, the footprint against the base, SARIF.
  const extras = new Map<string, Uint8Array>();
  let coverage: Coverage | null = null;
  let footprint: FootprintFile | null = null;
  let sarif: string | null = null;
  if (decision.verdict !== "not_gated" && report !== null && known.run.logWritten && error === null && report.verdict !== "error") {
    const judged = await describeJudgedLog(settings, client, known, report, verdict.breach);
    coverage = judged.coverage;
    footprint = judged.footprint;
    sarif = judged.sarif;
    extras.set(FOOTPRINT_FILE, encodeJson(footprint));
    extras.set(SARIF_FILE, new TextEncoder().encode(sarif));
  }
  if (decision.verdict !== "not_gated" && report !== null) {
    try {
      if (!known.run.logWritten) await prepareEvidenceDir(settings.evidenceDir);
      digest = await writeEvidence(settings, known, outcomes, report, extras);
    } catch (err) {
      const e = asRefusal(err);
      if (error === null) {
        // Without evidence the App cannot compare runs; the run is refused, not passed.
        report = reportFromError(e, known.policy.pinned?.envelope ?? null);
        decision = decide({ report, properties: [], policyChange: null });
      } else {
        notes.push(`The evidence bundle could not be written either (${e.code}: ${e.message}).`);
      }
    }
  }
  if (channel.refused) {
    notes.push(
      `This token cannot create check runs (HTTP 403, as for pull requests from forks). The step's own result and these annotations stand in for it; the "${settings.checkName}" check will come from the envelope-gate App, from the evidence bundle artifact "${EVIDENCE_ARTIFACT_NAME}".`,
    );
  }
  if (settings.dualRunId !== null) notes.push(`Runner B of dual run ${settings.dualRunId}.`);
  if (subject.base !== null) notes.push(...subject.base.notes);
  const { facts } = known.policy;
  if (facts !== null && facts.ignoredBots.length > 0) {
    notes.push(
      `Not counted as approvals of the policy change: ${facts.ignoredBots.map((l) => `@${l}`).join(", ")} (bot accounts approve only when the bot-approvers input names them).`,
    );
  }
  const { kept, omitted } = capAnnotations([...verdict.annotations]);
  const envelope = known.policy.pinned?.envelope ?? null;
  const policy = known.properties?.kind === "scored" && error === null ? known.properties.policy : known.policy.policy;
  const links: SummaryInput["links"] = [];
  if (settings.run.url) links.push({ label: "workflow run (evidence artifact)", url: settings.run.url });
  if (subject.pull?.htmlUrl) links.push({ label: `pull request #${subject.pull.number}`, url: subject.pull.htmlUrl });
  if (channel.checkRun?.htmlUrl) links.push({ label: "check run", url: channel.checkRun.htmlUrl });
  const orgEnvelope = subject.pull === null ? null : await appOrgEnvelope(client, settings, subject.headSha ?? subject.pull.headSha, notes);
  const summaryInput: SummaryInput = {
    orgEnvelope,
    checkName: settings.checkName,
    decision,
    report,
    envelope: envelope
      ? {
          id: envelope.envelope.envelope_id,
          hash: envelope.hash,
          file: envelope.file,
          ref: known.policy.ref ?? "",
          source: known.policy.source,
          ruleLines: Object.fromEntries(Object.values(RULE_ENVELOPE_KEY).map((k) => [k, envelope.lines.get(`/${k}`)])),
        }
      : null,
    pull: subject.pull
      ? {
          number: subject.pull.number,
          author: subject.pull.author,
          url: subject.pull.htmlUrl,
          baseSha: subject.base?.sha ?? subject.pull.baseSha,
          headSha: subject.headSha ?? subject.pull.headSha,
        }
      : null,
    gating: subject.gating,
    policyChange: policyChangeOf(known),
    properties: outcomes,
    propertiesFile: facts === null ? null : { path: settings.policy.properties, present: facts.policy.properties !== null },
    ledger: policy === null ? null : { path: settings.policy.ledger, present: policy.ledgerPresent, refused: policy.freezes.refused },
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
  let reportingError: Refusal | null = null;
  if (channel.checkRun !== null) {
    try {
      await completeCheckRun(client, settings.repository, channel.checkRun.id, {
        conclusion: decision.conclusion,
        title: checkTitle(decision),
        summary,
        ...(text !== null ? { text } : {}),
        annotations: kept,
      });
    } catch (err) {
      reportingError = asRefusal(err);
    }
  }
  // After the check run: the verdict is on the pull request already, whatever the upload does.
  const sarifOutcome = sarif !== null && digest !== null ? await uploadedSarif(run, subject, sarif) : null;
  return {
    decision,
    report,
    summary,
    annotations: kept,
    checkRun: channel.checkRun,
    checkRunRefused: channel.refused,
    reportingError,
    envelope: envelope ? { id: envelope.envelope.envelope_id, hash: envelope.hash } : null,
    properties: (outcomes ?? []).map((o) => o.record),
    policyChanged: policyChangeOf(known) !== null,
    evidence: { dir: settings.evidenceDir, digest },
    pull: subject.pull,
    text,
    footprint: footprint === null ? null : { path: join(settings.evidenceDir, FOOTPRINT_FILE), file: footprint },
    sarif: sarifOutcome,
  };
}

/** envelope-gate.sarif as written into the bundle, uploaded to code scanning when upload-sarif is on. */
async function uploadedSarif(run: PublishInputs, subject: Subject, sarif: string): Promise<NonNullable<PullRequestOutcome["sarif"]>> {
  const { settings, client } = run;
  const path = join(settings.evidenceDir, SARIF_FILE);
  if (!settings.uploadSarif || subject.pull === null || subject.headSha === null) {
    return { path, uploaded: false, uploadId: null, uploadError: null };
  }
  try {
    const receipt = await uploadSarif(client, settings.repository, {
      commitSha: subject.headSha,
      ref: `refs/pull/${subject.pull.number}/head`,
      sarif,
      toolName: SARIF_TOOL_NAME,
    });
    return { path, uploaded: true, uploadId: receipt.id, uploadError: null };
  } catch (err) {
    const cause = err instanceof Refusal ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    return {
      path,
      uploaded: false,
      uploadId: null,
      uploadError: new Refusal(
        "SARIF_UPLOAD_FAILED",
        `envelope-gate.sarif could not be uploaded to code scanning (${cause}); the verdict stands as the check run says`,
        {
          cause: err,
          hint: "The job needs security-events: write, and code scanning must be available for the repository; the SARIF file is in the evidence bundle.",
        },
      ),
    };
  }
}

/**
 * Reads the judged log once more for what a reviewer reads beside the verdict: coverage per
 * class, the footprint against the base branch's last run, and the SARIF of the violations (a
 * property run's on its own log). Advisory, all of it: nothing here changes the decision, and a
 * failure to compare is said as such.
 */
async function describeJudgedLog(
  settings: Settings,
  client: GitHubClient,
  known: Known,
  report: CheckReport,
  breach: PropertyBreach | null,
): Promise<{ coverage: Coverage | null; footprint: FootprintFile; sarif: string }> {
  const envelope = known.policy.pinned?.envelope ?? null;
  const sarif = sarifText(
    buildSarif({
      violations: report.violations,
      checkName: settings.checkName,
      envelope:
        envelope === null ? null : { file: envelope.file, lines: envelope.lines, id: envelope.envelope.envelope_id, hash: envelope.hash },
      workspace: foldPath(settings.workspace) ?? settings.workspace,
      logName: EVIDENCE_FILES.observerLog,
      otherLogs: new Map((breach?.violations ?? []).map((v) => [v, `property ${breach?.property ?? ""}'s log`] as const)),
      toolVersion: VERSION,
    }),
  );
  let coverage: Coverage | null = null;
  let mine: LogFootprint;
  try {
    const bytes = await readFile(join(settings.evidenceDir, EVIDENCE_FILES.observerLog));
    // Walked under the pinned envelope (whether loopback is the run's own is its word), as the base's log is.
    const walked = walkLog({ file: EVIDENCE_FILES.observerLog, bytes }, envelope?.envelope ?? null);
    coverage = logCoverage(walked);
    mine = logFootprint(walked);
  } catch (err) {
    const e = asRefusal(err);
    return {
      coverage,
      sarif,
      footprint: { version: 1, status: "unavailable", reason: `this run's own log could not be read again (${e.code}: ${e.message})` },
    };
  }
  return { coverage, sarif, footprint: await baseFootprint(settings, client, known.subject, mine, envelope?.envelope ?? null) };
}

/** The footprint against the base branch's last push run of this workflow that left its evidence. */
async function baseFootprint(
  settings: Settings,
  client: GitHubClient,
  subject: Subject,
  mine: LogFootprint,
  envelope: Envelope | null,
): Promise<FootprintFile> {
  const pull = subject.pull as PullRequestInfo;
  if (settings.workflowPath === null) {
    return { version: 1, status: "no_base", reason: "this run's workflow file is not known: GITHUB_WORKFLOW_REF does not name one" };
  }
  let found: BaseEvidence;
  try {
    found = await baseRunEvidence(client, settings.repository, {
      workflowPath: settings.workflowPath,
      branch: pull.baseRef,
      // The base commit this run was judged against: a base run's commit must be in its history.
      baseSha: subject.base?.sha ?? pull.baseSha,
      artifact: EVIDENCE_ARTIFACT_NAME,
      excludeRunId: settings.run.id,
    });
  } catch (err) {
    // An outage is "could not compare", never "nothing new".
    const e = asRefusal(err);
    return { version: 1, status: "unavailable", reason: `${e.code}: ${e.message}` };
  }
  if (!found.found) return { version: 1, status: "no_base", reason: found.reason };
  let base: LogFootprint;
  try {
    base = logFootprint(
      walkLog({ file: `run #${found.run.id}'s ${EVIDENCE_FILES.observerLog}`, bytes: baseLogFromZip(found.zip) }, envelope),
    );
  } catch (err) {
    const e = asRefusal(err);
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
