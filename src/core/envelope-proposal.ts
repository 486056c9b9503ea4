/**
 * The envelope the App proposes from the audit runs of a repository's default branch: the audit
 * bundles read and verified, their observer logs merged through `suggestEnvelope` from the
 * envelope at the branch's tip, and the envelope PR's files, title and body. Pure: the App
 * downloads the bundles and reads the envelope; nothing here does I/O.
 */
import { unzipSync } from "fflate";
import { STARTER_ENVELOPE } from "./audit.js";
import { widenings, type Ceiling } from "./ceiling.js";
import { formatDigestLine, loadEnvelope, sha256Hex, type Envelope } from "./envelope.js";
import { Refusal } from "./errors.js";
import { EVIDENCE_FILES, verifyBundle, type RunnerIdentity } from "./evidence.js";
import { clipMarkdown, mdCode, mdFence, mdLink, mdText, plainTitle } from "./markdown.js";
import { walkLog, type RecordedLog } from "./log-reader.js";
import type { NotProposed } from "./never-proposed.js";
import { envelopeJson, lineDiff, suggestEnvelope, type Evidence } from "./suggest.js";

/** `runner.json`'s `mode` in an audit bundle (the Action's `mode: audit`). */
export const AUDIT_MODE = "audit";

/** A repository without an envelope starts from the Action's starter (docs/authoring.md, "The adoption path"). */
export { STARTER_ENVELOPE };

/** An audit run's evidence, every digest checked. */
interface AuditBundle {
  /** sha256:<hex of manifest.json bytes>. */
  digest: string;
  /** `runner.json`'s `mode` (`"audit"` for an audit run; null when it names none). */
  mode: string | null;
  runner: Partial<RunnerIdentity>;
  /** observer.jsonl's text. */
  log: string;
}

function unavailable(message: string): never {
  throw new Refusal("AUDIT_EVIDENCE_UNAVAILABLE", message, {
    hint: "An audit run whose evidence cannot be read proposes nothing; the next audit run of the default branch is read instead.",
  });
}

/**
 * Unzips an audit run's evidence artifact, verifies the manifest and every file's digest
 * (EVIDENCE_DIGEST_MISMATCH), and reads runner.json and observer.jsonl, which the manifest must
 * cover (AUDIT_EVIDENCE_UNAVAILABLE otherwise).
 */
export function readAuditBundle(zip: Uint8Array): AuditBundle {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (err) {
    return unavailable(`the evidence artifact is not a readable zip (${(err as Error).message})`);
  }
  const files = new Map(Object.entries(entries).filter(([name]) => !name.endsWith("/")));
  const { digest, manifest } = verifyBundle(files);
  for (const required of [EVIDENCE_FILES.runner, EVIDENCE_FILES.observerLog]) {
    if (!(required in manifest.files)) unavailable(`the evidence manifest does not cover ${required}`);
  }
  const decode = (name: string): string => {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(files.get(name));
    } catch {
      return unavailable(`${name} in the evidence bundle is not UTF-8`);
    }
  };
  let runner: unknown;
  try {
    runner = JSON.parse(decode(EVIDENCE_FILES.runner));
  } catch {
    unavailable(`${EVIDENCE_FILES.runner} in the evidence bundle is not JSON`);
  }
  if (typeof runner !== "object" || runner === null || Array.isArray(runner)) unavailable(`${EVIDENCE_FILES.runner} is not an object`);
  const mode = (runner as { mode?: unknown }).mode;
  return {
    digest,
    mode: typeof mode === "string" ? mode : null,
    runner: runner as Partial<RunnerIdentity>,
    log: decode(EVIDENCE_FILES.observerLog),
  };
}

/**
 * An audit run's observer log, named `file`, read by the reader `check` uses: a log it refuses
 * is refused here with the same code (OBSERVER_LOG_MALFORMED, OBSERVER_LOG_INCOMPLETE, ...).
 */
export function parseAuditLog(text: string, file: string): RecordedLog {
  const log = { file, bytes: new TextEncoder().encode(text) };
  walkLog(log, null);
  return log;
}

/** One audit run the proposal is made from. */
export interface ProposalRun {
  runId: number;
  url: string | null;
  headSha: string;
  evidence: string;
  /** Its observer log, read with `parseAuditLog` (its `file` names the run: `run-<id>/observer.jsonl`). */
  log: RecordedLog;
}

/** An added entry, explained: the evidence suggest gives, and which of the runs showed it. */
interface ProposedEntry extends Evidence {
  runs: number[];
  /** The programs the evidence names for the entry, where it names them (a later suggest records them). */
  programs: string[];
}

interface ProposalInput {
  repository: string;
  branch: string;
  envelopePath: string;
  /** The envelope file's text at the branch's tip, or null when there is none. */
  current: string | null;
  /** Newest first. */
  runs: ProposalRun[];
  /** Verified audit runs that could not be read again (an expired artifact), with why. */
  leftOut: { runId: number; why: string }[];
  /**
   * The organisation's ceiling for the repository, its honoured exceptions added (ceiling.ts
   * withExceptions); absent or null: none. Nothing above it is ever proposed.
   */
  ceiling?: { ceiling: Ceiling; id: string; digest: string } | null;
}

/** What the runs needed above the organisation's ceiling: listed apart, never proposed. */
interface AboveCeiling {
  key: string;
  entry: string;
  why: string;
  covers: string[];
  runs: number[];
}

export interface EnvelopeProposal {
  /** False when the runs need nothing the current envelope does not allow (no PR). */
  changed: boolean;
  envelope: Envelope;
  /** envelope.json as committed: two-space JSON, keys in the contract's order. */
  text: string;
  /** envelope.json.sha256 as committed: `<hex>  <file name>` (CONTRACT §2). */
  digestLine: string;
  /** sha256:<hex>. */
  digest: string;
  added: ProposedEntry[];
  /** What the runs needed that is never proposed (never-proposed.ts), each with why and the runs that showed it. */
  notProposed: (NotProposed & { runs: number[] })[];
  /** What the runs needed above the organisation's ceiling, for the platform team: never proposed. */
  aboveCeiling: AboveCeiling[];
  notes: string[];
  title: string;
  body: string;
}

/** The digest file's path beside the envelope: `<envelope path>.sha256`. */
export function digestPathFor(envelopePath: string): string {
  return `${envelopePath}.sha256`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const sameEntry = (a: Evidence, b: Evidence) => a.key === b.key && (a.entry === b.entry || a.covers.some((c) => b.covers.includes(c)));

function programsOf(e: Evidence): string[] {
  const extra = e as Evidence & { program?: unknown; programs?: unknown };
  const list = Array.isArray(extra.programs) ? extra.programs : typeof extra.program === "string" ? [extra.program] : [];
  return list.filter((p): p is string => typeof p === "string" && p !== "");
}

/**
 * Merges the runs' logs through `suggestEnvelope` from the current envelope (or the starter one):
 * the proposal only ever adds. A current envelope that does not parse is ENVELOPE_INVALID (no
 * proposal is made over an envelope the App cannot read).
 */
export function buildEnvelopeProposal(input: ProposalInput): EnvelopeProposal {
  const current =
    input.current === null ? null : loadEnvelope(new TextEncoder().encode(input.current), `${input.envelopePath} on ${input.branch}`);
  const from = current?.envelope ?? STARTER_ENVELOPE;
  // Oldest first, so an entry's first line is where the earliest of the runs showed it.
  const logs = [...input.runs].reverse().map((r) => r.log);
  const suggestion = suggestEnvelope(logs, from);
  const perRun = input.runs.map((r) => ({ runId: r.runId, ...suggestEnvelope([r.log], from) }));
  const suggested: ProposedEntry[] = suggestion.added.map((a) => ({
    ...a,
    runs: perRun.filter((p) => p.added.some((b) => sameEntry(a, b))).map((p) => p.runId),
    programs: programsOf(a),
  }));
  const { envelope, added, aboveCeiling } = capToCeiling(from, suggestion.envelope, suggested, input.ceiling?.ceiling ?? null);
  const notProposed = suggestion.notProposed.map((n) => ({
    ...n,
    runs: perRun
      .filter((p) => p.notProposed.some((m) => m.key === n.key && (m.entry === n.entry || m.covers.some((c) => n.covers.includes(c)))))
      .map((p) => p.runId),
  }));
  const text = envelopeJson(envelope);
  const bytes = new TextEncoder().encode(text);
  const digestLine = formatDigestLine(bytes, baseName(input.envelopePath));
  const digest = `sha256:${sha256Hex(bytes)}`;
  const changed = current === null || added.length > 0 || envelope.network !== from.network;
  const title = `envelope-gate: ${current === null ? "add the envelope" : `widen the envelope by ${added.length} entr${added.length === 1 ? "y" : "ies"}`} from audit runs of ${plainTitle(input.branch, 100)}`;
  const body = proposalBody(input, {
    from,
    fromText: input.current,
    text,
    digestLine,
    digest,
    added,
    notProposed,
    notes: suggestion.notes,
    network: envelope.network,
    aboveCeiling,
  });
  return { changed, envelope, text, digestLine, digest, added, notProposed, aboveCeiling, notes: suggestion.notes, title, body };
}

/**
 * The proposal held under the organisation's ceiling: each added entry that would widen past it
 * (core/ceiling.ts widenings, the verified check's own judge) is taken out and listed apart, and
 * so is a change of network to allowlist the ceiling denies, with the hosts it would have opened.
 * Entries of the current envelope are left as they are: a proposal only adds.
 */
function capToCeiling(
  from: Envelope,
  proposed: Envelope,
  added: ProposedEntry[],
  ceiling: Ceiling | null,
): { envelope: Envelope; added: ProposedEntry[]; aboveCeiling: AboveCeiling[] } {
  if (ceiling === null) return { envelope: proposed, added, aboveCeiling: [] };
  const above: AboveCeiling[] = [];
  const envelope: Envelope = { ...proposed };
  let kept = added;
  if (proposed.network === "allowlist" && from.network === "deny" && ceiling.network === "deny") {
    envelope.network = "deny";
    above.push({ key: "network", entry: "allowlist", why: "the organisation's ceiling says network deny", covers: [], runs: [] });
    envelope.allowed_hosts = from.allowed_hosts;
    for (const a of kept.filter((x) => x.key === "allowed_hosts"))
      above.push({ key: a.key, entry: a.entry, why: "the ceiling denies the network", covers: a.covers, runs: a.runs });
    kept = kept.filter((x) => x.key !== "allowed_hosts");
  }
  const wide = widenings(envelope, ceiling);
  const isAbove = (a: ProposedEntry) => wide.find((w) => w.key === a.key && w.entry === a.entry);
  for (const a of kept) {
    const w = isAbove(a);
    if (w === undefined) continue;
    above.push({ key: a.key, entry: a.entry, why: w.why, covers: a.covers, runs: a.runs });
    const list = envelope[a.key];
    if (list !== undefined) envelope[a.key] = list.filter((e) => e !== a.entry);
  }
  return { envelope, added: kept.filter((a) => isAbove(a) === undefined), aboveCeiling: above };
}

function proposalBody(
  input: ProposalInput,
  p: {
    from: Envelope;
    fromText: string | null;
    text: string;
    digestLine: string;
    digest: string;
    added: ProposedEntry[];
    notProposed: (NotProposed & { runs: number[] })[];
    notes: string[];
    network: Envelope["network"];
    aboveCeiling: AboveCeiling[];
  },
): string {
  const code = (v: string, max = 200) => mdCode(v, { inTable: true, max });
  // What an entry covers, where it is more than the entry itself (the first four).
  const coversCell = (e: { entry: string; covers: readonly string[] }): string =>
    e.covers.length > 1 || e.covers[0] !== e.entry
      ? `<br>covers ${e.covers
          .slice(0, 4)
          .map((c) => code(c, 120))
          .join(", ")}${e.covers.length > 4 ? `, … (${e.covers.length})` : ""}`
      : "";
  const runLink = (id: number) => {
    const run = input.runs.find((r) => r.runId === id);
    return run?.url ? mdLink(`run ${id}`, run.url) : mdText(`run ${id}`);
  };
  const runsCell = (runs: readonly number[]): string => (runs.length > 0 ? runs.map(runLink).join(", ") : "(the runs together)");
  const path = mdCode(input.envelopePath);
  const out: string[] = [
    input.current === null
      ? `The default branch ${mdCode(input.branch)} has no envelope at ${path}. This PR adds one: the starter envelope (the two roots, ${mdCode("PATH")} and ${mdCode("@ci")}, no network) plus what the audit runs below did.`
      : `The audit runs of ${mdCode(input.branch)} below did things the envelope at ${path} does not allow. This PR widens it by exactly the entries listed.`,
    "",
    "**This proposal only adds.** Every entry it adds is listed here; it never removes or narrows one (remove an entry by hand, in a PR of your own). Merging it widens what an agent's pull request may do under the gate; closing it keeps the envelope as it is.",
    "",
  ];
  if (p.added.length > 0) {
    out.push(
      "| key | entry | program | seen | first at | runs |",
      "| --- | --- | --- | --- | --- | --- |",
      ...p.added.map((a) => {
        const covers = coversCell(a);
        const programs =
          a.programs.length > 0
            ? a.programs
                .slice(0, 3)
                .map((x) => code(x, 120))
                .join(", ")
            : "(not named)";
        const runs = runsCell(a.runs);
        return `| ${code(a.key)} | ${code(a.entry)}${covers} | ${programs} | ${a.count} time${a.count === 1 ? "" : "s"} | ${code(a.first)} | ${runs} |`;
      }),
      "",
    );
  }
  if (p.notProposed.length > 0) {
    out.push(
      "**Not proposed.** The runs needed these too, but a proposal never allows them (a credential, a credential carrier, the machine's or the run's identity, a key that controls a program or is not printable ASCII; a system directory, a tool cache, another program's install directory, or writes the jail refused that the command did not need). Add one by hand, listed exactly, only if the run must have it:",
      "",
      "| key | entry | why | program | seen | first at | runs |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...p.notProposed.map((n) => {
        const covers = coversCell(n);
        const avoid = n.avoidWith === undefined ? "" : `; ${code(n.avoidWith)} would have avoided them`;
        const runs = runsCell(n.runs);
        return `| ${code(n.key)} | ${code(n.entry)}${covers} | ${mdText(n.why, 300)}${avoid} | ${n.program === undefined ? "(not named)" : code(n.program, 120)} | ${n.count} time${n.count === 1 ? "" : "s"} | ${code(n.first)} | ${runs} |`;
      }),
      "",
    );
  }
  if (p.aboveCeiling.length > 0) {
    const c = input.ceiling;
    out.push(
      `**Above the organisation's ceiling (not proposed).** The runs needed these too, but the organisation envelope ${c ? `${mdCode(c.id)} (${mdCode(c.digest)})` : ""} does not let this repository allow them, so no proposal ever will: the verified check would fail the envelope. For the platform team: widen the organisation envelope, or add an exception row with an end date, in the organisation's ${mdCode(".github")} repository.`,
      "",
      "| key | entry | why | runs |",
      "| --- | --- | --- | --- |",
      ...p.aboveCeiling.map((a) => `| ${code(a.key)} | ${code(a.entry)}${coversCell(a)} | ${mdText(a.why, 300)} | ${runsCell(a.runs)} |`),
      "",
    );
  }
  if (p.network !== p.from.network) {
    out.push(
      `${mdCode("network")} changes from ${mdCode(p.from.network)} to ${mdCode(p.network)}: the hosts above are the only ones allowed.`,
      "",
    );
  }
  if (p.notes.length > 0) out.push("Notes:", "", ...p.notes.map((n) => `- ${mdText(n, 600)}`), "");
  out.push(
    `The change to ${path}:`,
    "",
    mdFence(lineDiff(p.fromText ?? "", p.text), "diff"),
    "",
    `The digest, committed as ${mdCode(digestPathFor(input.envelopePath))}: ${mdCode(p.digestLine.trimEnd())} (${mdCode(p.digest)}).`,
    "",
    `From the last ${input.runs.length} verified audit run${input.runs.length === 1 ? "" : "s"} of ${mdCode(input.branch)}, newest first:`,
    "",
    ...input.runs.map((r) => `- ${runLink(r.runId)} at ${mdCode(r.headSha)}, evidence ${mdCode(r.evidence)}`),
  );
  if (input.leftOut.length > 0) {
    out.push(
      "",
      "Left out (their evidence could not be read again):",
      "",
      ...input.leftOut.map((l) => `- ${mdText(`run ${l.runId}`)}: ${mdText(l.why, 300)}`),
    );
  }
  out.push(
    "",
    "This branch is the App's: it is updated when a later audit run needs more, and a commit anyone else pushes to it closes this PR unmerged.",
  );
  // GitHub takes a body of at most 65,536 characters; the files on the branch are the whole proposal.
  return clipMarkdown(
    out.join("\n"),
    BODY_MAX,
    "\n\n(The rest is cut: GitHub takes no longer a body. The branch's envelope.json is the whole proposal.)",
  );
}

/** Longest envelope PR body written (GitHub's limit is 65,536 characters). */
export const BODY_MAX = 60_000;
