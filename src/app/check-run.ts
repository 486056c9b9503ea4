import type { DualRun, LedgerPr } from "../store/index.js";
import type { PropertyComparison } from "./compare.js";

/** Pure: the dual-run check run's content, from the recorded dual run and its ledger PRs. */

/** One line per ledger PR for the check's summary. */
export function describeProposal(pr: LedgerPr): string {
  if (pr.state === "shadowed")
    return `shadow: would open a ledger PR for ${pr.property} (${pr.freeze_id}, expires ${pr.expires_on}) on branch ${pr.branch}`;
  if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed")
    return `ledger PR for ${pr.property}: ${pr.pr_url ?? pr.branch} (${pr.state})`;
  return `ledger PR for ${pr.property} is being opened`;
}

/** The dual-run check run on the head commit: what was compared and what follows. */
export function dualRunCheck(checkName: string, dual: DualRun, proposals: string[], mode: "shadow" | "active", prs: LedgerPr[] = []) {
  const name = `${checkName} (dual run)`;
  const results = dual.results ? (JSON.parse(dual.results) as { results: PropertyComparison[] }).results : [];
  const table = results.length
    ? [
        "| property | runner A | runner B | verdict |",
        "| --- | --- | --- | --- |",
        ...results.map((r) => `| ${r.property} | ${r.a} | ${r.b} | ${r.verdict} |`),
      ].join("\n")
    : "";
  const runs = `Runner A: run ${dual.run_a_id}${dual.run_a_url ? ` (${dual.run_a_url})` : ""}. Runner B: ${dual.run_b_id === null ? "none" : `run ${dual.run_b_id}${dual.run_b_url ? ` (${dual.run_b_url})` : ""}`}.`;
  const common = { name, head_sha: dual.head_sha, external_id: dual.id };
  if (dual.outcome === "freeze_eligible") {
    const title = mode === "shadow" ? "Shadow mode: a freeze would be proposed" : "Freeze proposed: waiting for review";
    const summary = [
      `Runner A and runner B disagree on a non-envelope property. ${mode === "shadow" ? "This installation is in shadow mode: nothing was opened." : "A ledger PR with an expiry was opened for review; the property keeps failing until it is merged."}`,
      "",
      ...proposals.map((x) => `- ${x}`),
      "",
      runs,
    ].join("\n");
    const shadowText =
      mode === "shadow"
        ? prs
            .filter((p) => p.state === "shadowed")
            .map((p) =>
              [
                `### Would open: ${p.title}`,
                "",
                `Branch \`${p.branch}\`, adding to \`${p.ledger_path}\`:`,
                "",
                "```tsv",
                p.row_text,
                "```",
                "",
                p.body,
              ].join("\n"),
            )
            .join("\n\n---\n\n")
        : undefined;
    return {
      ...common,
      conclusion: "neutral" as const,
      title,
      summary,
      ...(table || shadowText ? { text: [table, shadowText].filter(Boolean).join("\n\n") } : {}),
    };
  }
  const titles: Record<string, string> = {
    both_fail: "Both runners fail: no freeze",
    no_freeze: "No freeze",
    observer_disagreement: "Observer disagreement: the envelope verdict differs between runners",
    runner_b_unavailable: "Runner B unavailable: no freeze",
    mismatch: "Runs do not match: no freeze",
    evidence_invalid: "Evidence could not be verified: no freeze",
    not_compared_budget: "Not compared (budget): runner B was not dispatched, no freeze",
  };
  const summary = [
    `${dual.outcome_code ? `\`${dual.outcome_code}\`: ` : ""}${dual.outcome_detail ?? ""}`,
    "",
    "The failing property keeps failing.",
    "",
    runs,
  ].join("\n");
  return {
    ...common,
    conclusion: "failure" as const,
    title: titles[dual.outcome ?? ""] ?? "No freeze",
    summary,
    ...(table ? { text: table } : {}),
  };
}
