/**
 * Mode audit (docs/action.md, "Audit mode"): run the command jailed and recorded with every host
 * let out through the recording proxy, judge the log against the envelope exactly as check does
 * ("what enforce would say"), suggest the envelope that would let it pass, and report all of it
 * as a neutral check named `<check-name> (audit)`. Runs on pull requests (the envelope from the
 * base, as enforce) and on branch pushes and dispatches (the envelope at the pushed commit). No
 * agent-author filter, no properties, no ledger. Anything that stops the run from being recorded
 * or judged is an `error` with its code and a failed check, as in enforce. Only sequencing here:
 * the decisions are src/core/audit.ts and src/core/suggest.ts.
 */
import { join } from "node:path";
import { AUDIT_CHECK_SUFFIX, STARTER_ENVELOPE_TEXT, auditDecision, auditFootprint, renderAuditSummary } from "../core/audit.js";
import { expandRoots, formatDigestLine, loadEnvelope, type LoadedEnvelope } from "../core/envelope.js";
import { Refusal } from "../core/errors.js";
import { AUDIT_EVIDENCE_FILES, EVIDENCE_ARTIFACT_NAME, EVIDENCE_FILES, encodeJson, type PropertiesFile } from "../core/evidence.js";
import { decide, type Decision } from "../core/policy.js";
import { pinnedEnvelope } from "../core/policy-files.js";
import { envelopeJson, lineDiff, suggestEnvelope } from "../core/suggest.js";
import { checkTitle, renderSummary } from "../core/summary.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";
import { evaluateLogFile } from "../check/files.js";
import { readLog } from "../check/suggest.js";
import { completeCheckRun, createCheckRun, type CheckRunHandle } from "../github/checks.js";
import { createGitHubClient, hasStatus, type GitHubClient } from "../github/client.js";
import { gitHubPullSource } from "../github/pull-source.js";
import type { PullRequestInfo } from "../github/repo.js";
import { currentBase, policyFilesAt } from "./facts.js";
import { asRefusal, type PullRequestOutcome } from "./pull-request.js";
import { runEnd } from "./cli-result.js";
import { prepareEvidenceDir, runUnderObserver, runnerIdentity, writeBundle } from "./local.js";
import type { Settings } from "./settings.js";

const STARTER_FILE = "(starter envelope)";

interface Applied {
  loaded: LoadedEnvelope;
  bytes: Uint8Array;
  /** Null for the starter envelope (the repository has none yet). */
  file: string | null;
  ref: string;
  source: string;
}

export async function auditRun(settings: Settings): Promise<PullRequestOutcome> {
  const client = await createGitHubClient({ token: settings.token, baseUrl: settings.apiUrl, retry: settings.retry });
  const repo = settings.repository;
  const source = gitHubPullSource(client, repo);
  const checkName = `${settings.checkName}${AUDIT_CHECK_SUFFIX}`;
  let pull: PullRequestInfo | null = null;
  let baseSha: string | null = null;
  let headSha: string | null = settings.commit?.sha ?? settings.eventPull?.headSha ?? null;
  let checkRun: CheckRunHandle | null = null;
  let checkRunRefused = false;
  let applied: Applied | null = null;
  let report: CheckReport;
  let evidencePrepared = false;
  let suggestedPath: string | null;
  let summary: string;
  let decision: Decision;
  let digest: string | null;
  const notes: string[] = [
    "Audit mode: properties are not scored and the freeze ledger is not read; the agent-author filter does not apply (every run is recorded).",
    `The check is named "${checkName}", never "${settings.checkName}": GitHub counts a neutral required check as passing, so a pull request that switches its workflow to audit must not be able to produce the required check.`,
  ];

  try {
    let ref: string;
    let label: string;
    if (settings.pullNumber !== null) {
      pull = await source.pullRequest(settings.pullNumber);
      headSha = pull.headSha;
    }
    checkRun = await openCheckRun(settings, client, checkName, headSha as string).catch((err: unknown) => {
      // A 403 that is a rate limit is an outage, not a missing permission.
      if (!hasStatus(err, 403) || /rate limit/i.test((err as Error).message)) throw err;
      checkRunRefused = true;
      return null;
    });
    if (pull !== null) {
      const event = settings.eventPull;
      const base = await currentBase(source, pull, event === null ? null : { ref: event.baseRef, sha: event.baseSha });
      notes.push(...base.notes);
      baseSha = base.sha;
      ref = base.sha;
      label = "base commit";
    } else {
      const commit = settings.commit as NonNullable<Settings["commit"]>;
      ref = commit.sha;
      label = `pushed commit on ${commit.ref}`;
    }
    const files = await policyFilesAt(source, settings.policy, ref, label);
    if (files.envelope === null && files.digest === null) {
      // The normal first step: nothing pinned yet. Anything pinned is verified as in enforce.
      const bytes = new TextEncoder().encode(STARTER_ENVELOPE_TEXT);
      applied = { loaded: loadEnvelope(bytes, STARTER_FILE), bytes, file: null, ref, source: label };
      notes.push(
        `No envelope at ${settings.policy.envelope} (nor its digest) on the ${label}: the starter envelope was applied (roots \${WORKSPACE} and \${SCRATCH}, env PATH and @ci, no tools, no hosts, network deny). The suggestion widens it to what this run needed.`,
      );
    } else {
      const pinned = pinnedEnvelope(settings.policy, files);
      applied = { loaded: pinned.envelope, bytes: pinned.bytes, file: settings.policy.envelope, ref, source: label };
    }
    const roots = expandRoots(applied.loaded, { workspace: settings.workspace, scratch: settings.scratch });
    await prepareEvidenceDir(settings.evidenceDir);
    evidencePrepared = true;
    const logPath = join(settings.evidenceDir, EVIDENCE_FILES.observerLog);
    if (settings.evaluation.mode !== "run") throw new Refusal("CONFIG_INVALID", "mode audit needs the run input");
    const observed = await runUnderObserver({
      envelopeBytes: applied.bytes,
      digestLine: formatDigestLine(applied.bytes, "envelope.json"),
      logPath,
      workspace: settings.workspace,
      scratch: settings.scratch,
      command: settings.evaluation.command,
      runnerTemp: settings.runnerTemp,
      roots,
      recorder: settings.recorder,
      setupPrerequisites: settings.setupPrerequisites,
      identity:
        pull === null
          ? { role: "plain", pull: null }
          : { role: "runner_a", pull: { number: pull.number, headSha: pull.headSha, baseRef: pull.baseRef, headRef: pull.headRef } },
      audit: true,
    });
    const end = runEnd(observed, logPath, { what: "", hint: "The run was not observed, so it is not judged as clean." });
    if (end.kind === "refused") throw end.error;
    // Judged exactly as check judges any log: an audit log is never judged more leniently.
    report = reportFromVerdict(await evaluateLogFile(applied.loaded, logPath, { roots }));
    if (report.verdict === "error") {
      const e = report.error;
      throw new Refusal(
        (e?.code ?? "OBSERVER_LOG_MALFORMED") as Refusal["code"],
        e?.message ?? "the log could not be judged",
        e?.hint === undefined ? {} : { hint: e.hint },
      );
    }
    const log = await readLog(logPath);
    const suggestion = suggestEnvelope([log], applied.loaded.envelope);
    const suggestedText = envelopeJson(suggestion.envelope);
    const suggestedBytes = new TextEncoder().encode(suggestedText);
    const suggestedDigestLine = formatDigestLine(suggestedBytes, "envelope.json");
    decision = auditDecision(report.violations.length, suggestion.added.length);
    digest = await writeAuditBundle(settings, { applied, report, pull, headSha, suggestedBytes, suggestedDigestLine });
    suggestedPath = join(settings.evidenceDir, AUDIT_EVIDENCE_FILES.suggestedEnvelope);
    if (checkRunRefused) notes.push(refusedNote(checkName));
    summary = renderAuditSummary({
      checkName,
      decision,
      report,
      envelope: { id: applied.loaded.envelope.envelope_id, hash: applied.loaded.hash, file: applied.file, ref, source: label },
      target:
        pull !== null
          ? { kind: "pull", number: pull.number, headSha: pull.headSha, baseSha: baseSha as string }
          : { kind: "commit", sha: ref, ref: (settings.commit as NonNullable<Settings["commit"]>).ref },
      footprint: auditFootprint(log, applied.loaded.envelope, roots),
      added: suggestion.added,
      notProposed: suggestion.notProposed,
      suggestionNotes: suggestion.notes,
      diff: lineDiff(new TextDecoder().decode(applied.bytes), suggestedText),
      suggestedText,
      suggestedDigestLine,
      suggestedPath,
      evidence: { artifact: EVIDENCE_ARTIFACT_NAME, digest },
      envelopePath: settings.policy.envelope,
      digestPath: settings.policy.digest,
      notes,
    });
  } catch (err) {
    const e = asRefusal(err);
    // Could not observe, record or judge: an error and a failed check, never a neutral audit.
    report = reportFromError(e, applied?.loaded ?? null);
    decision = decide({ report, properties: [], policyChange: null });
    suggestedPath = null;
    digest = null;
    try {
      if (!evidencePrepared) await prepareEvidenceDir(settings.evidenceDir);
      digest = await writeAuditBundle(settings, { applied, report, pull, headSha, suggestedBytes: null, suggestedDigestLine: null });
    } catch (bundleErr) {
      const b = asRefusal(bundleErr);
      notes.push(`The evidence bundle could not be written either (${b.code}: ${b.message}).`);
    }
    if (checkRunRefused) notes.push(refusedNote(checkName));
    summary = renderSummary({
      checkName,
      decision,
      report,
      envelope: applied
        ? {
            id: applied.loaded.envelope.envelope_id,
            hash: applied.loaded.hash,
            file: applied.file ?? STARTER_FILE,
            ref: applied.ref,
            source: applied.source,
          }
        : null,
      pull: pull
        ? { number: pull.number, author: pull.author, url: pull.htmlUrl, baseSha: baseSha ?? pull.baseSha, headSha: pull.headSha }
        : null,
      gating: null,
      policyChange: null,
      properties: null,
      propertiesFile: null,
      ledger: null,
      evidence: { dir: settings.evidenceDir, digest, artifact: EVIDENCE_ARTIFACT_NAME },
      links: settings.run.url ? [{ label: "workflow run (evidence artifact)", url: settings.run.url }] : [],
      notes,
      omittedAnnotations: 0,
    });
    return finishAudit(settings, client, { decision, report, summary, checkRun, checkRunRefused, applied, pull, suggestedPath, digest });
  }
  return finishAudit(settings, client, { decision, report, summary, checkRun, checkRunRefused, applied, pull, suggestedPath, digest });
}

function refusedNote(checkName: string): string {
  return `This token cannot create check runs (HTTP 403, as for pull requests from forks): the "${checkName}" check is not posted; this job summary and the evidence bundle artifact "${EVIDENCE_ARTIFACT_NAME}" hold the audit.`;
}

async function openCheckRun(settings: Settings, client: GitHubClient, name: string, headSha: string): Promise<CheckRunHandle> {
  return createCheckRun(client, settings.repository, {
    name,
    headSha,
    ...(settings.run.url !== null ? { detailsUrl: settings.run.url } : {}),
  });
}

/**
 * The evidence bundle of an audit: every file an enforce bundle has (properties.json empty: not
 * scored), runner.json with `"mode": "audit"`, and the suggested envelope with its digest line.
 */
async function writeAuditBundle(
  settings: Settings,
  b: {
    applied: Applied | null;
    report: CheckReport;
    pull: PullRequestInfo | null;
    headSha: string | null;
    suggestedBytes: Uint8Array | null;
    suggestedDigestLine: string | null;
  },
): Promise<string> {
  const files = new Map<string, Uint8Array>();
  const properties: PropertiesFile = { version: 1, properties: [] };
  files.set(EVIDENCE_FILES.properties, encodeJson(properties));
  if (b.applied !== null)
    files.set(EVIDENCE_FILES.envelopeDigest, new TextEncoder().encode(formatDigestLine(b.applied.bytes, "envelope.json")));
  files.set(EVIDENCE_FILES.verdict, encodeJson(b.report));
  const identity = await runnerIdentity({
    run_id: b.report.log?.run_id ?? settings.run.id,
    run_attempt: settings.run.attempt,
    workflow_run_id: settings.run.id,
    repository: `${settings.repository.owner}/${settings.repository.repo}`,
    head_sha: b.headSha,
    pull_number: b.pull?.number ?? settings.pullNumber,
    dual_run_id: null,
    envelope_hash: b.applied?.loaded.hash ?? null,
    envelope_id: b.applied?.loaded.envelope.envelope_id ?? null,
    mode: "audit",
  });
  files.set(EVIDENCE_FILES.runner, encodeJson(identity));
  if (b.suggestedBytes !== null && b.suggestedDigestLine !== null) {
    files.set(AUDIT_EVIDENCE_FILES.suggestedEnvelope, b.suggestedBytes);
    files.set(AUDIT_EVIDENCE_FILES.suggestedEnvelopeDigest, new TextEncoder().encode(b.suggestedDigestLine));
  }
  return writeBundle(settings.evidenceDir, files);
}

async function finishAudit(
  settings: Settings,
  client: GitHubClient,
  o: {
    decision: Decision;
    report: CheckReport;
    summary: string;
    checkRun: CheckRunHandle | null;
    checkRunRefused: boolean;
    applied: Applied | null;
    pull: PullRequestInfo | null;
    suggestedPath: string | null;
    digest: string | null;
  },
): Promise<PullRequestOutcome> {
  let reportingError: Refusal | null = null;
  if (o.checkRun !== null) {
    try {
      await completeCheckRun(client, settings.repository, o.checkRun.id, {
        conclusion: o.decision.conclusion,
        title: checkTitle(o.decision),
        summary: o.summary,
        annotations: [],
      });
    } catch (err) {
      reportingError = asRefusal(err);
    }
  }
  return {
    decision: o.decision,
    report: o.report,
    summary: o.summary,
    annotations: [],
    checkRun: o.checkRun,
    checkRunRefused: o.checkRunRefused,
    reportingError,
    envelope: o.applied ? { id: o.applied.loaded.envelope.envelope_id, hash: o.applied.loaded.hash } : null,
    properties: [],
    policyChanged: false,
    evidence: { dir: settings.evidenceDir, digest: o.digest },
    pull: o.pull,
    text: null,
    footprint: null,
    sarif: null,
    suggestedEnvelope: o.suggestedPath,
  };
}
