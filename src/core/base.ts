/**
 * Which base a pull request is judged against, pure: the base branch GitHub's API names now, at
 * that branch's current commit. The event that started the run is only compared with it: a run
 * started for another base branch (the pull request was retargeted since) is refused, and a base
 * branch that only moved on is judged at its current commit. docs/action.md, "The current base".
 */
import { Refusal } from "./errors.js";

export interface EventBase {
  /** The base branch the event named (`pull_request.base.ref`); null when the event names none. */
  ref: string | null;
  /** The base commit the event recorded (`pull_request.base.sha`). */
  sha: string;
}

interface ApiBase {
  /** The pull request's base branch as `GET /repos/{o}/{r}/pulls/{n}` answers it now. */
  ref: string;
  /** The pull request's `base.sha` (GitHub refreshes it on a push to the head, not when the base moves). */
  pullSha: string;
  /** The base branch's current commit (`GET /repos/{o}/{r}/git/ref/heads/{ref}`), null when the branch does not exist. */
  tipSha: string | null;
}

export interface JudgedBase {
  ref: string;
  sha: string;
  /** What a reader of the summary should know about how the base was chosen; empty when nothing moved. */
  notes: string[];
}

const short = (sha: string): string => sha.slice(0, 12);

export function judgedBase(event: EventBase | null, api: ApiBase, pullNumber: number): JudgedBase {
  if (event !== null && event.ref !== null && event.ref !== api.ref) {
    throw new Refusal(
      "PULL_REQUEST_BASE_CHANGED",
      `pull request #${pullNumber} targets ${api.ref} now, not ${event.ref} as the event that started this run said; this run does not judge it against either`,
      {
        hint: `The pull request was retargeted after this run started (or this is a re-run of an older run, which replays the old event). The run GitHub starts for the retarget (the "edited" event; list it under pull_request types) judges it against ${api.ref}. Re-run that one, never this one.`,
      },
    );
  }
  if (api.tipSha === null) {
    throw new Refusal(
      "PULL_REQUEST_BASE_MISSING",
      `pull request #${pullNumber} targets ${api.ref}, but GitHub has no branch ${api.ref} (git/ref/heads/${api.ref} is 404); there is no base policy to judge it against`,
      {
        hint: "The base branch was deleted or renamed; GitHub retargets or closes the pull request, and the run for that event decides.",
      },
    );
  }
  const notes: string[] = [];
  const recorded = event?.sha ?? api.pullSha;
  if (recorded !== api.tipSha) {
    notes.push(
      `The base branch ${api.ref} is at \`${short(api.tipSha)}\`, not at \`${short(recorded)}\` as the ${event === null ? "pull request" : "event"} recorded: judged against the branch's current commit.`,
    );
  }
  return { ref: api.ref, sha: api.tipSha, notes };
}
