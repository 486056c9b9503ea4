/** The Action's entry: read settings once, gate the pull request, report, set the step result. */
import * as core from "@actions/core";
import { Refusal } from "../core/errors.js";
import { auditRun } from "./audit.js";
import { gatePullRequest } from "./pull-request.js";
import { setOutputs, writeJobSummary, writeSarifWarning, writeWorkflowAnnotations } from "./report.js";
import { footprintHeadline } from "../core/summary.js";
import { readSettings } from "./settings.js";

export async function main(): Promise<void> {
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    const e = err instanceof Refusal ? err : new Refusal("INTERNAL_ERROR", String(err));
    core.setOutput("verdict", "error");
    core.setOutput("conclusion", "failure");
    core.setOutput("error-code", e.code);
    await writeJobSummary(
      `## envelope-gate: ERROR\n\n\`${e.code}\`: ${e.message}${e.hint ? `\n\nWhat to do: ${e.hint}` : ""}\n\nThis is not a pass.\n`,
    );
    core.setFailed(`envelope-gate: ${e.code}: ${e.message}`);
    return;
  }
  const outcome = settings.mode === "audit" ? await auditRun(settings) : await gatePullRequest(settings);
  setOutputs(outcome);
  await writeJobSummary(outcome.text === null ? outcome.summary : `${outcome.summary}\n${outcome.text}`);
  if (outcome.checkRun === null) writeWorkflowAnnotations(outcome);
  writeSarifWarning(outcome);
  if (outcome.footprint !== null) core.info(`envelope-gate: ${footprintHeadline(outcome.footprint.file)}`);
  const { decision } = outcome;
  core.info(`envelope-gate: ${decision.verdict}: ${decision.headline}`);
  if (outcome.reportingError !== null) {
    const e = outcome.reportingError;
    core.setOutput("verdict", "error");
    core.setOutput("conclusion", "failure");
    core.setFailed(`envelope-gate: ${e.code}: the check run could not be completed (${e.message}); it is not a pass`);
    return;
  }
  if (decision.conclusion === "failure" || decision.conclusion === "action_required") {
    core.setFailed(`envelope-gate: ${decision.verdict}: ${decision.headline}`);
  }
}
