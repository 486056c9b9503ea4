import { PRODUCT } from "./version.js";
import { clipMarkdown, mdCode, mdFence, mdLink, mdText } from "./markdown.js";
import type { DualRun, LedgerPr } from "./app-records.js";
import type { PropertyComparison } from "./compare.js";

/**
 * Pure: the dual-run check run's content, from the recorded dual run and its ledger PRs. Property
 * names, results, runner cells and details come from runner A's bundle, which the pull request's
 * job produced: each goes through ../core/markdown.ts where it is interpolated.
 */

/** The summary's last line: which release compared the runs. */
const COMPARED_BY = `Compared by ${PRODUCT}.`;

/** GitHub's limit on a check run's summary and text. */
const MAX_OUTPUT = 65_000;

/** One line per ledger PR, in plain words (the delivery's outcome, the App's log). */
export function describeProposal(pr: LedgerPr): string {
  if (pr.state === "shadowed")
    return `shadow: would open a ledger PR for ${pr.property} (${pr.freeze_id}, expires ${pr.expires_on}) on branch ${pr.branch}`;
  if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed")
    return `ledger PR for ${pr.property}: ${pr.pr_url ?? pr.branch} (${pr.state})`;
  return `ledger PR for ${pr.property} is being opened`;
}

/** One markdown line per ledger PR for the check's summary, its strings escaped. */
function describeProposalMarkdown(pr: LedgerPr): string {
  const property = mdCode(pr.property);
  if (pr.state === "shadowed")
    return `shadow: would open a ledger PR for ${property} (${mdText(pr.freeze_id)}, expires ${mdText(pr.expires_on)}) on branch ${mdCode(pr.branch)}`;
  if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed")
    return `ledger PR for ${property}: ${pr.pr_url ? mdLink(pr.pr_url, pr.pr_url) : mdCode(pr.branch)} (${mdText(pr.state)})`;
  return `ledger PR for ${property} is being opened`;
}

/** The dual-run check run on the head commit: what was compared and what follows. */
export function dualRunCheck(checkName: string, dual: DualRun, proposals: string[], mode: "shadow" | "active", prs: LedgerPr[] = []) {
  const name = `${checkName} (dual run)`;
  const results = dual.results ? (JSON.parse(dual.results) as { results: PropertyComparison[] }).results : [];
  const table = results.length
    ? [
        "| property | runner A | runner B | verdict |",
        "| --- | --- | --- | --- |",
        ...results.map(
          (r) =>
            `| ${mdCode(String(r.property), { inTable: true })} | ${mdText(String(r.a))} | ${mdText(String(r.b))} | ${mdText(String(r.verdict))} |`,
        ),
      ].join("\n")
    : "";
  const run = (id: number, url: string | null) => (url ? mdLink(`run ${id}`, url) : mdText(`run ${id}`));
  const runs = `Runner A: ${run(dual.run_a_id, dual.run_a_url)}. Runner B: ${dual.run_b_id === null ? "none" : run(dual.run_b_id, dual.run_b_url)}.`;
  const lines = prs.length === proposals.length && prs.length > 0 ? prs.map(describeProposalMarkdown) : proposals.map((x) => mdText(x));
  const common = { name, head_sha: dual.head_sha, external_id: dual.id };
  if (dual.outcome === "freeze_eligible") {
    const title = mode === "shadow" ? "Shadow mode: a freeze would be proposed" : "Freeze proposed: waiting for review";
    const summary = [
      `Runner A and runner B disagree on a non-envelope property. ${mode === "shadow" ? "This installation is in shadow mode: nothing was opened." : "A ledger PR with an expiry was opened for review; the property keeps failing until it is merged."}`,
      "",
      ...lines.map((x) => `- ${x}`),
      "",
      runs,
      "",
      COMPARED_BY,
    ].join("\n");
    const shadowText =
      mode === "shadow"
        ? prs
            .filter((p) => p.state === "shadowed")
            .map((p) =>
              [
                `### Would open: ${mdText(p.title)}`,
                "",
                `Branch ${mdCode(p.branch)}, adding to ${mdCode(p.ledger_path)}:`,
                "",
                mdFence(p.row_text, "tsv"),
                "",
                // Built by buildFreezeProposal, every string in it escaped there.
                p.body,
              ].join("\n"),
            )
            .join("\n\n---\n\n")
        : undefined;
    return {
      ...common,
      conclusion: "neutral" as const,
      title,
      summary: clipMarkdown(summary, MAX_OUTPUT),
      ...(table || shadowText
        ? { text: clipMarkdown([table, shadowText].filter(Boolean).join("\n\n"), MAX_OUTPUT, "\n\n(cut to GitHub's size limit)") }
        : {}),
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
    `${dual.outcome_code ? `${mdCode(dual.outcome_code)}: ` : ""}${mdText(dual.outcome_detail ?? "")}`,
    "",
    "The failing property keeps failing.",
    "",
    runs,
    "",
    COMPARED_BY,
  ].join("\n");
  return {
    ...common,
    conclusion: "failure" as const,
    title: titles[dual.outcome ?? ""] ?? "No freeze",
    summary: clipMarkdown(summary, MAX_OUTPUT),
    ...(table ? { text: clipMarkdown(table, MAX_OUTPUT, "\n\n(cut to GitHub's size limit)") } : {}),
  };
}
