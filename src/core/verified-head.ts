import { isErrorCode, type ErrorCode } from "./errors.js";
import { clipMarkdown, mdCode, mdText, plainText } from "./markdown.js";

/**
 * The App's verified check on a commit, pure: a check run belongs to a commit, not to a pull
 * request, so it is the conjunction of every open pull request whose head is that commit, each
 * judged against its own current base by its latest verified run. `success` only when each of them
 * passed; `failure` naming each pull request that failed or has no verified run against the base it
 * targets now (`VERIFIED_CHECK_PULL_UNVERIFIED`); `neutral` when none of them is gated.
 */

export interface VerifiedCheckContent {
  conclusion: "success" | "failure" | "neutral";
  code: ErrorCode | null;
  title: string;
  summary: string;
}

/** A pull request open on the commit, as GitHub lists it now. */
export interface OpenPull {
  number: number;
  baseRef: string;
  /** `owner/name` of its head repository; null when GitHub no longer has it. */
  headRepository: string | null;
}

/** A pull request's verdict from its latest verified run on the commit (the store's `pull_verdicts`). */
export interface PullVerdict {
  pull_number: number;
  base_ref: string;
  base_sha: string;
  run_id: number;
  run_attempt: number;
  conclusion: string;
  code: string | null;
  title: string;
  summary: string;
}

/** The line naming the run a pull request's verdict is from (the same from the run as from its recorded verdict). */
export function runLine(r: {
  runId: number;
  attempt: number;
  workflowPath: string;
  headSha: string;
  pullNumber: number;
  baseRef: string;
  baseSha: string;
}): string {
  return `Run ${r.runId} (attempt ${r.attempt}) of ${r.workflowPath}, on ${r.headSha} for pull request #${r.pullNumber} into ${r.baseRef} (${r.baseSha}).`;
}

/** A check run on the commit named like the verified check that another app posted: never counted, always shown. */
export interface ForeignCheck {
  id: number;
  app_id: number | null;
  app_slug: string | null;
  conclusion: string | null;
  external_id: string | null;
}

/** Each pull request's own part of a summary is cut here, so many of them still fit GitHub's 65,535 characters. */
const PER_PULL_SUMMARY_MAX = 6000;

type Judged = { pull: OpenPull; verdict: PullVerdict | null; stale: PullVerdict | null };

/** Which verdict speaks for each open pull request: the one recorded against the base it targets now. */
function judge(pulls: readonly OpenPull[], verdicts: readonly PullVerdict[]): Judged[] {
  const byPull = new Map(verdicts.map((v) => [v.pull_number, v]));
  return [...pulls]
    .sort((a, b) => a.number - b.number)
    .map((pull) => {
      const v = byPull.get(pull.number) ?? null;
      return v !== null && v.base_ref === pull.baseRef ? { pull, verdict: v, stale: null } : { pull, verdict: null, stale: v };
    });
}

const into = (p: OpenPull) =>
  `pull request #${p.number} into ${p.baseRef}${p.headRepository === null ? " (its head repository is gone)" : ""}`;

function line(j: Judged): string {
  const name = `${mdText(`#${j.pull.number}`)} into ${mdCode(j.pull.baseRef)}`;
  if (j.verdict !== null) {
    const v = j.verdict;
    const code = v.code === null ? "" : ` (${mdCode(v.code)})`;
    return `- ${name}: **${v.conclusion}**${code}: ${mdText(v.title)} (run ${v.run_id}, attempt ${v.run_attempt}, base ${mdCode(v.base_sha.slice(0, 12))})`;
  }
  const why =
    j.stale !== null
      ? `its latest verified run (${j.stale.run_id}) judged it against ${mdCode(j.stale.base_ref)}; it targets ${mdCode(j.pull.baseRef)} now`
      : "no verified run of the base's gate on this commit yet";
  return `- ${name}: **not verified** (${mdCode("VERIFIED_CHECK_PULL_UNVERIFIED")}): ${why}`;
}

function foreignLines(foreign: readonly ForeignCheck[], checkName: string): string[] {
  if (foreign.length === 0) return [];
  const items = foreign.map(
    (f) =>
      `- check run ${f.id} by ${mdCode(f.app_slug ?? "an unknown app")} (app id ${f.app_id ?? "none"}), ${mdText(f.conclusion ?? "not completed")}${f.external_id ? `, external id ${mdCode(f.external_id)}` : ""}`,
  );
  return [
    `**Not this App's, never counted:** ${foreign.length === 1 ? "a check run" : `${foreign.length} check runs`} on this commit named ${mdCode(checkName)} that another source posted (a job token can post any name). Require ${mdCode(checkName)} with this App as its source (the ruleset's \`integration_id\`).\n\n${items.join("\n")}`,
  ];
}

/** The check for `head`: the open pull requests GitHub lists on it, their verdicts, the foreign checks of the same name. */
export function headCheck(
  pulls: readonly OpenPull[],
  verdicts: readonly PullVerdict[],
  foreign: readonly ForeignCheck[],
  checkName: string,
): VerifiedCheckContent {
  const judged = judge(pulls, verdicts);
  const failing = judged.filter((j) => j.verdict?.conclusion === "failure");
  const missing = judged.filter((j) => j.verdict === null);
  const passing = judged.filter((j) => j.verdict?.conclusion === "success");
  const conclusion: VerifiedCheckContent["conclusion"] =
    failing.length > 0 || missing.length > 0 ? "failure" : passing.length > 0 ? "success" : "neutral";
  const first = failing[0]?.verdict?.code ?? null;
  const code: ErrorCode | null =
    failing.length > 0
      ? first !== null && isErrorCode(first)
        ? first
        : null
      : missing.length > 0
        ? "VERIFIED_CHECK_PULL_UNVERIFIED"
        : null;
  const only = judged.length === 1 ? (judged[0] as Judged) : null;
  let title: string;
  if (only?.verdict) title = only.verdict.title;
  else if (failing.length > 0)
    title = `Not verified: ${into((failing[0] as Judged).pull)} fails${judged.length > 1 ? ` (${failing.length} of ${judged.length} open pull requests on this commit)` : ""}`;
  else if (missing.length > 0)
    title = `Not verified: ${into((missing[0] as Judged).pull)} has no verified run against its base on this commit`;
  else if (conclusion === "success")
    title = `Verified: the base's gate passed for each of the ${judged.length} open pull requests on this commit`;
  else title = `Not gated: none of the ${judged.length} open pull requests on this commit is gated`;
  const header =
    judged.length === 1
      ? `The one open pull request on this commit, against its current base:`
      : `This check belongs to the commit, so it is the conjunction of the ${judged.length} open pull requests on it, each against its own current base:`;
  const details = judged
    .filter((j) => j.verdict !== null)
    .map(
      (j) =>
        `### ${mdText(`#${j.pull.number}`)} into ${mdCode(j.pull.baseRef)}\n\n${clipMarkdown((j.verdict as PullVerdict).summary, PER_PULL_SUMMARY_MAX, "…")}`,
    );
  return {
    conclusion,
    code,
    title: plainText(title, 255),
    summary: [...foreignLines(foreign, checkName), `${header}\n\n${judged.map(line).join("\n")}`, ...details].join("\n\n"),
  };
}
