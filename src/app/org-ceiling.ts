import {
  beyondCeiling,
  rootValuesRefusal,
  coversRepository,
  describeWidening,
  exceptionsFor,
  exceptionStandings,
  loadCeiling,
  utcDay,
  widenings,
  withExceptions,
  type Ceiling,
  type ExceptionStanding,
  type LoadedCeiling,
} from "../core/ceiling.js";
import { loadEnvelope, parseDigestFile, sha256Hex } from "../core/envelope.js";
import { isRefusal, Refusal, type ErrorCode } from "../core/errors.js";
import { baseLogFromZip, logFootprint } from "../core/footprint.js";
import { walkLog, type RecordedLog, type WalkedLog } from "../core/log-reader.js";
import type { InstallationClient } from "../github/app-client.js";
import { repoRef, type RepoRef } from "../github/repo.js";
import type { AppContext } from "./context.js";

/**
 * The organisation envelope (docs/app.md, "An organisation's envelope"): read through the
 * installation token from the owner's `.github` repository at its default branch's current
 * commit, never from a pull request or another branch, so a change to it applies only once it is
 * merged there. Its digest file beside it pins its bytes. GitHub failing is thrown on (the
 * delivery is retried); what the repository holds is an answer.
 */
export type CeilingReading =
  | { kind: "none"; why: string }
  | { kind: "invalid"; code: ErrorCode; message: string; sha: string | null }
  | { kind: "ceiling"; loaded: LoadedCeiling; sha: string; branch: string };

const ORG_REPO = ".github";

function orgRepo(owner: string): RepoRef {
  return { owner, repo: ORG_REPO };
}

async function readingOf(ctx: AppContext, gh: InstallationClient, owner: string): Promise<CeilingReading> {
  const r = orgRepo(owner);
  const path = ctx.settings.orgEnvelopePath;
  const branch = await gh.defaultBranchIfAny(r);
  if (branch === null) return { kind: "none", why: `no ${owner}/${ORG_REPO} repository the App's installation can read` };
  const sha = await gh.branchSha(r, branch);
  if (sha === null) return { kind: "none", why: `${owner}/${ORG_REPO} has no commit on ${branch}` };
  // A commit's files never change: the reading of one `.github` commit is kept, so a busy
  // organisation costs two calls per verified check (the repository and its branch), not four.
  const key = `${owner.toLowerCase()}@${sha}:${path}`;
  const cached = readings.get(key);
  if (cached !== undefined) return cached;
  const read = await readFilesAt(r, gh, owner, path, sha, branch);
  readings.set(key, read);
  if (readings.size > READINGS_KEPT) readings.delete(readings.keys().next().value as string);
  return read;
}

const READINGS_KEPT = 256;
const readings = new Map<string, CeilingReading>();

async function readFilesAt(
  r: RepoRef,
  gh: InstallationClient,
  owner: string,
  path: string,
  sha: string,
  branch: string,
): Promise<CeilingReading> {
  const notAFile = (p: string) => new Refusal("ORG_ENVELOPE_INVALID", `${owner}/${ORG_REPO}:${p} at ${sha.slice(0, 12)} is not a file`);
  let text: string | null;
  let digestText: string | null;
  try {
    text = await gh.textAt(r, path, sha, `read ${owner}/${ORG_REPO}:${path}`, notAFile);
    if (text === null) return { kind: "none", why: `${owner}/${ORG_REPO} has no ${path} on ${branch}` };
    digestText = await gh.textAt(r, `${path}.sha256`, sha, `read ${owner}/${ORG_REPO}:${path}.sha256`, notAFile);
  } catch (err) {
    if (isRefusal(err) && (err.code === "ORG_ENVELOPE_INVALID" || err.code === "POLICY_FILE_TOO_LARGE"))
      return { kind: "invalid", code: "ORG_ENVELOPE_INVALID", message: err.message, sha };
    throw err;
  }
  const file = `${owner}/${ORG_REPO}:${path}`;
  if (digestText === null)
    return { kind: "invalid", code: "ORG_ENVELOPE_DIGEST_MISMATCH", message: `${file} has no digest file beside it (${path}.sha256)`, sha };
  const bytes = new TextEncoder().encode(text);
  try {
    const pinned = parseDigestFile(digestText, `${file}.sha256`);
    if (pinned !== sha256Hex(bytes))
      return {
        kind: "invalid",
        code: "ORG_ENVELOPE_DIGEST_MISMATCH",
        message: `${file} has sha256 ${sha256Hex(bytes)}, but ${path}.sha256 pins ${pinned}`,
        sha,
      };
    return { kind: "ceiling", loaded: loadCeiling(bytes, file), sha, branch };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    const code: ErrorCode = err.code === "ORG_ENVELOPE_INVALID" ? err.code : "ORG_ENVELOPE_DIGEST_MISMATCH";
    return { kind: "invalid", code, message: err.message, sha };
  }
}

/** Reads the owner's organisation envelope and records the reading (its digest, and when it changed). */
export async function readOrgCeiling(ctx: AppContext, gh: InstallationClient, owner: string): Promise<CeilingReading> {
  const reading = await readingOf(ctx, gh, owner);
  await ctx.store.ceilings.recordReading(
    {
      owner,
      state: reading.kind,
      digest: reading.kind === "ceiling" ? reading.loaded.hash : null,
      ceiling_id: reading.kind === "ceiling" ? reading.loaded.ceiling.ceiling_id : null,
      source_sha: reading.kind === "none" ? null : reading.sha,
      exceptions: JSON.stringify(
        reading.kind === "ceiling"
          ? exceptionStandings(reading.loaded.ceiling, utcDay(ctx.clock.now())).map((s) => `${s.row.repository}: ${exceptionLine(s)}`)
          : [],
      ),
      detail:
        reading.kind === "ceiling"
          ? `${reading.loaded.file} at ${reading.branch}`
          : reading.kind === "none"
            ? reading.why
            : `${reading.code}: ${reading.message}`,
    },
    ctx.clock.now(),
  );
  return reading;
}

/** The ceiling a repository's envelope is judged against today, its exceptions applied; or why there is none. */
export type RepositoryCeiling =
  | { kind: "none"; why: string }
  | { kind: "invalid"; code: ErrorCode; message: string }
  | { kind: "uncovered"; id: string; digest: string }
  | {
      kind: "ceiling";
      id: string;
      digest: string;
      sha: string;
      /** The ceiling with today's honoured exceptions added: what the envelope is judged against. */
      ceiling: Ceiling;
      /** The ceiling as written, without exceptions: the organisation's baseline for the footprint. */
      baseline: Ceiling;
      exceptions: ExceptionStanding[];
    };

export async function ceilingForRepository(ctx: AppContext, gh: InstallationClient, repository: string): Promise<RepositoryCeiling> {
  const owner = repoRef(repository).owner;
  const reading = await readOrgCeiling(ctx, gh, owner);
  if (reading.kind !== "ceiling") return reading;
  const { ceiling, hash } = reading.loaded;
  if (!coversRepository(ceiling, repository)) return { kind: "uncovered", id: ceiling.ceiling_id, digest: hash };
  const exceptions = exceptionsFor(ceiling, repository, utcDay(ctx.clock.now()));
  return {
    kind: "ceiling",
    id: ceiling.ceiling_id,
    digest: hash,
    sha: reading.sha,
    ceiling: withExceptions(ceiling, exceptions),
    baseline: ceiling,
    exceptions,
  };
}

/** What the verified check says of the organisation envelope, for a run that passed everything else. */
export type CeilingFacts =
  | { kind: "none"; why: string }
  | { kind: "uncovered"; id: string; digest: string }
  | { kind: "within"; id: string; digest: string; exceptions: string[] }
  | { kind: "fail"; code: ErrorCode; title: string; lines: string[] };

const exceptionLine = (s: ExceptionStanding) =>
  `exceptions[${s.index}] (${s.row.approver}, until ${s.row.expires_on}: ${s.row.reason})${s.honoured ? "" : ` not honoured: ${s.why}`}`;

/**
 * What a run's evidence shows: what it touched (hosts, keys, commands), for the organisation-wide
 * footprint, and the values its log records for the root variables; null when its log cannot be read.
 */
export function runFactsOf(zip: Uint8Array): RunFacts | null {
  try {
    const walked = walkLog({ file: "observer.jsonl", bytes: baseLogFromZip(zip) }, null);
    return {
      touched: touchedInWalk(walked),
      workspace: walked.meta.workspace,
      scratch: walked.meta.scratch,
    };
  } catch (err) {
    if (isRefusal(err)) return null;
    throw err;
  }
}

/** What one recorded log touched: hosts (`name:port`), environment keys, commands (footprint.ts's names). */
export function touchedInLog(log: RecordedLog): Touched {
  return touchedInWalk(walkLog(log, null));
}

function touchedInWalk(walked: WalkedLog): Touched {
  const fp = logFootprint(walked);
  return { hosts: [...fp.classes.hosts.keys()], env: [...fp.classes.env.keys()], commands: [...fp.classes.commands.keys()] };
}

export interface RunFacts {
  touched: Touched;
  workspace: unknown;
  scratch: unknown;
}

export interface Touched {
  hosts: string[];
  env: string[];
  commands: string[];
}

/**
 * Judges the base's envelope (the file at the base commit whose bytes the base's digest pins, the
 * one the run was judged under) against the organisation envelope, and records the result.
 */
export async function ceilingFacts(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  baseSha: string,
  pinnedHash: string,
  run: RunFacts | null,
): Promise<CeilingFacts> {
  const found = await ceilingForRepository(ctx, gh, repository);
  const footprint = run !== null && found.kind === "ceiling" ? beyondCeiling(run.touched, found.baseline) : null;
  const record = (outcome: string, detail: unknown, digest: string | null, exceptions: ExceptionStanding[] = []) =>
    ctx.store.ceilings.recordResult({
      repository,
      owner: repoRef(repository).owner,
      digest,
      outcome,
      detail: JSON.stringify(detail),
      exceptions: JSON.stringify(exceptions.map(exceptionLine)),
      footprint: JSON.stringify(footprint),
      checked_at: ctx.clock.now(),
    });
  if (found.kind === "none") {
    if (!ctx.settings.orgEnvelopeRequired) return found;
    await record("unchecked", [found.why], null);
    return {
      kind: "fail",
      code: "ORG_ENVELOPE_UNCHECKED",
      title: "Not verified: no organisation envelope could be read",
      lines: [`${found.why}; ENVELOPE_GATE_ORG_ENVELOPE_REQUIRED is on`],
    };
  }
  if (found.kind === "invalid") {
    await record("invalid", [found.message], null);
    return { kind: "fail", code: found.code, title: "Not verified: the organisation envelope does not verify", lines: [found.message] };
  }
  if (found.kind === "uncovered") {
    await record("uncovered", [], found.digest);
    return found;
  }
  const path = ctx.settings.envelopePath;
  const r = repoRef(repository);
  const unchecked = async (why: string): Promise<CeilingFacts> => {
    await record("unchecked", [why], found.digest, found.exceptions);
    return {
      kind: "fail",
      code: "ORG_ENVELOPE_UNCHECKED",
      title: "Not verified: the envelope could not be held to the organisation's",
      lines: [why],
    };
  };
  let text: string | null;
  try {
    text = await gh.textAt(
      r,
      path,
      baseSha,
      `read ${path} at the base`,
      (p) => new Refusal("ENVELOPE_UNREADABLE", `${p} at the base is not a file`),
    );
  } catch (err) {
    if (isRefusal(err) && (err.code === "ENVELOPE_UNREADABLE" || err.code === "POLICY_FILE_TOO_LARGE")) return unchecked(err.message);
    throw err;
  }
  if (text === null)
    return unchecked(
      `the base (${baseSha.slice(0, 12)}) has no ${path} (ENVELOPE_GATE_ENVELOPE_PATH) to hold to the organisation envelope`,
    );
  const bytes = new TextEncoder().encode(text);
  if (`sha256:${sha256Hex(bytes)}` !== pinnedHash)
    return unchecked(`${path} at the base has sha256:${sha256Hex(bytes)}, not the ${pinnedHash} the run was judged under`);
  let loaded;
  try {
    loaded = loadEnvelope(bytes, path);
  } catch (err) {
    if (!isRefusal(err)) throw err;
    await record("invalid", [err.message], found.digest, found.exceptions);
    return { kind: "fail", code: err.code, title: "Not verified: the envelope does not validate", lines: [err.message] };
  }
  const rootValues =
    run === null
      ? "the run's log cannot be read from its evidence: the values its root variables had cannot be held to the organisation envelope"
      : rootValuesRefusal(run, loaded.envelope, found.ceiling);
  if (rootValues !== null) return unchecked(rootValues);
  const wide = widenings(loaded.envelope, found.ceiling);
  const notHonoured = found.exceptions.filter((s) => !s.honoured).map(exceptionLine);
  if (wide.length > 0) {
    const lines = wide.map((w) => describeWidening(w, loaded));
    await record("widened", lines, found.digest, found.exceptions);
    return {
      kind: "fail",
      code: "ORG_ENVELOPE_WIDENED",
      title: `Not verified: the envelope allows more than the organisation's (${wide.length} widening${wide.length === 1 ? "" : "s"})`,
      lines: [...lines, ...notHonoured.map((l) => `${found.id}: ${l}`)],
    };
  }
  await record("within", [], found.digest, found.exceptions);
  return { kind: "within", id: found.id, digest: found.digest, exceptions: found.exceptions.filter((s) => s.honoured).map(exceptionLine) };
}
