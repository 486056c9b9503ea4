/** What the step leaves behind for people and later steps: outputs, job summary, workflow annotations. */
import { appendFile } from "node:fs/promises";
import * as core from "@actions/core";
import { fitOutputs } from "../core/outputs.js";
import type { PullRequestOutcome } from "./pull-request.js";

/** Workflow-command annotations shown per step; GitHub displays a limited number, so failures go first. */
const MAX_WORKFLOW_ANNOTATIONS = 50;

/**
 * Sets every output, together within GitHub's limit (src/core/outputs.ts): a list that does not
 * fit keeps its first entries and `<name>-omitted` says how many are left out; the evidence
 * bundle (verdict.json, properties.json) holds the whole list.
 */
export function setOutputs(outcome: PullRequestOutcome): void {
  const scalars: [string, string][] = [
    ["verdict", outcome.decision.verdict],
    ["conclusion", outcome.decision.conclusion],
    ["gated", outcome.decision.verdict === "not_gated" ? "false" : "true"],
    ["envelope-hash", outcome.envelope?.hash ?? ""],
    ["envelope-id", outcome.envelope?.id ?? ""],
    ["policy-changed", outcome.policyChanged ? "true" : "false"],
    ["check-run-id", outcome.checkRun ? String(outcome.checkRun.id) : ""],
    ["check-run-url", outcome.checkRun?.htmlUrl ?? ""],
    ["evidence-dir", outcome.evidence.digest === null ? "" : outcome.evidence.dir],
    ["evidence-digest", outcome.evidence.digest ?? ""],
    ["error-code", outcome.report?.error?.code ?? outcome.reportingError?.code ?? ""],
    ["sarif", outcome.sarif?.path ?? ""],
    ["sarif-upload-error", outcome.sarif?.uploadError ? `${outcome.sarif.uploadError.code}: ${outcome.sarif.uploadError.message}` : ""],
    ["footprint", outcome.footprint?.path ?? ""],
    ["suggested-envelope", outcome.suggestedEnvelope ?? ""],
  ];
  const { violations, properties } = fitOutputs({
    scalars: Object.fromEntries(scalars),
    violations: outcome.report?.violations ?? [],
    properties: outcome.properties,
  });
  for (const [name, value] of scalars) core.setOutput(name, value);
  core.setOutput("violations", violations.json);
  core.setOutput("violations-omitted", String(violations.omitted));
  core.setOutput("properties", properties.json);
  core.setOutput("properties-omitted", String(properties.omitted));
  for (const [list, omitted, file] of [
    ["violations", violations.omitted, "verdict.json"],
    ["properties", properties.omitted, "properties.json"],
  ] as const) {
    if (omitted > 0) {
      core.notice(
        `envelope-gate: the ${list} output holds its first ${list === "violations" ? violations.kept : properties.kept} entries; ${omitted} more are left out (${list}-omitted) to stay within GitHub's 1 MB of outputs per job. The evidence bundle's ${file} holds them all.`,
      );
    }
  }
}

/** Appends the summary to the job summary. An observability path: when it cannot, the log says so. */
export async function writeJobSummary(markdown: string): Promise<void> {
  const path = process.env.GITHUB_STEP_SUMMARY;
  if (!path) {
    core.info(markdown);
    return;
  }
  try {
    await appendFile(path, `${markdown}\n`);
  } catch (err) {
    core.warning(`the job summary could not be written (${(err as Error).message}); the summary follows in the log`);
    core.info(markdown);
  }
}

/** When there is no check run to carry them, annotations go out as workflow commands. */
export function writeWorkflowAnnotations(outcome: PullRequestOutcome): void {
  for (const a of outcome.annotations.slice(0, MAX_WORKFLOW_ANNOTATIONS)) {
    const props = { title: a.title, file: a.path, startLine: a.start_line, endLine: a.end_line };
    if (a.annotation_level === "failure") core.error(a.message, props);
    else if (a.annotation_level === "warning") core.warning(a.message, props);
    else core.notice(a.message, props);
  }
}

/**
 * A SARIF upload that failed is a warning on the step, not a verdict: the check run already
 * carries the gate's decision, and the SARIF file stays in the evidence bundle.
 */
export function writeSarifWarning(outcome: PullRequestOutcome): void {
  const e = outcome.sarif?.uploadError;
  if (e) core.warning(`${e.message}. ${e.hint ?? ""}`.trim(), { title: e.code });
}
