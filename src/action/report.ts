/** What the step leaves behind for people and later steps: outputs, job summary, workflow annotations. */
import { appendFile } from "node:fs/promises";
import * as core from "@actions/core";
import type { GateOutcome } from "./gate.js";

/** Workflow-command annotations shown per step; GitHub displays a limited number, so failures go first. */
const MAX_WORKFLOW_ANNOTATIONS = 50;

export function setOutputs(outcome: GateOutcome): void {
  core.setOutput("verdict", outcome.decision.verdict);
  core.setOutput("conclusion", outcome.decision.conclusion);
  core.setOutput("gated", outcome.decision.verdict === "not_gated" ? "false" : "true");
  core.setOutput("violations", JSON.stringify(outcome.report?.violations ?? []));
  core.setOutput("properties", JSON.stringify(outcome.properties));
  core.setOutput("envelope-hash", outcome.envelope?.hash ?? "");
  core.setOutput("envelope-id", outcome.envelope?.id ?? "");
  core.setOutput("policy-changed", outcome.policyChanged ? "true" : "false");
  core.setOutput("check-run-id", outcome.checkRun ? String(outcome.checkRun.id) : "");
  core.setOutput("check-run-url", outcome.checkRun?.htmlUrl ?? "");
  core.setOutput("evidence-dir", outcome.evidence.digest === null ? "" : outcome.evidence.dir);
  core.setOutput("evidence-digest", outcome.evidence.digest ?? "");
  core.setOutput("error-code", outcome.report?.error?.code ?? outcome.reportingError?.code ?? "");
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
export function writeWorkflowAnnotations(outcome: GateOutcome): void {
  for (const a of outcome.annotations.slice(0, MAX_WORKFLOW_ANNOTATIONS)) {
    const props = { title: a.title, file: a.path, startLine: a.start_line, endLine: a.end_line };
    if (a.annotation_level === "failure") core.error(a.message, props);
    else if (a.annotation_level === "warning") core.warning(a.message, props);
    else core.notice(a.message, props);
  }
}
