/**
 * `envelope-gate suggest`: reads recorded logs (and optionally the envelope to widen), asks
 * core/suggest for the tightest envelope that passes them, prints it explained, and with
 * --write writes it and its digest.
 */
import { readFile, writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { formatDigestLine } from "../core/envelope.js";
import { logOpenError } from "../core/errors.js";
import { plainText } from "../core/markdown.js";
import { envelopeJson, lineDiff, suggestEnvelope, type RecordedLog } from "../core/suggest.js";
import { readVerifiedEnvelope } from "./files.js";
import { outputUnwritable } from "./output.js";

export interface SuggestOptions {
  logs: string[];
  from?: string | undefined;
  fromDigest?: string | undefined;
  write?: string | undefined;
  /**
   * Honoured, never ignored: each must be the workspace/scratch in every log's own meta
   * (SUGGEST_ROOT_MISMATCH otherwise); a log whose meta lacks one takes it. Relative to the cwd.
   */
  workspace?: string | undefined;
  scratch?: string | undefined;
}

/** A recorded log's bytes (OBSERVER_LOG_MISSING / _UNREADABLE otherwise); core/log-reader.ts reads them. */
export async function readLog(file: string): Promise<RecordedLog> {
  try {
    return { file, bytes: await readFile(file) };
  } catch (err) {
    throw logOpenError(err, file);
  }
}

/**
 * Text a run chose (a key, a path, a host, a program's name), as a terminal shows it: escape
 * sequences, carriage returns, bidi and zero-width characters written `\u{XXXX}`, lines flattened,
 * so a key named to move the cursor up and erase a line cannot hide the line above it.
 */
function shown(s: string): string {
  return plainText(s);
}

/** Code units JSON.stringify leaves raw that change how a terminal shows text (DEL, C1, bidi, zero-width, tags). */
const JSON_INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- one code unit at a time, on purpose
  /[\u007f-\u00a0\u00ad\u034f\u061c\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** The envelope JSON (or its diff) as printed: those code units as JSON's own `\uXXXX`, which parses to the same text. */
function shownJson(text: string): string {
  return text.replace(JSON_INVISIBLE, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
}

export async function suggestCommand(options: SuggestOptions): Promise<string> {
  const base = options.from !== undefined ? await readVerifiedEnvelope(options.from, options.fromDigest) : null;
  const logs = await Promise.all(options.logs.map(readLog));
  const { envelope, added, notProposed, notes } = suggestEnvelope(logs, base?.envelope ?? null, {
    workspace: options.workspace === undefined ? undefined : resolve(options.workspace),
    scratch: options.scratch === undefined ? undefined : resolve(options.scratch),
  });
  const out: string[] = [
    `envelope-gate suggest: ${added.length} entr${added.length === 1 ? "y" : "ies"} from ${logs.length} log${logs.length === 1 ? "" : "s"}`,
  ];
  const verb: Record<string, string> = {
    allowed_env: "read by",
    allowed_roots: "written by",
    allowed_tools: "called by",
    allowed_hosts: "reached by",
    allowed_commands: "started by",
  };
  for (const a of added.filter((e) => e.unobserved !== true)) {
    const covers =
      a.covers.length > 1 || a.covers[0] !== a.entry
        ? ` covers ${a.covers.slice(0, 4).map(shown).join(", ")}${a.covers.length > 4 ? `, … (${a.covers.length})` : ""};`
        : "";
    const by = a.program === undefined ? "" : `; ${verb[a.key] ?? "by"} ${shown(a.program)}`;
    out.push(
      `  + ${a.key.padEnd(16)} ${shown(a.entry)}  (${covers} ${a.count} time${a.count === 1 ? "" : "s"}, first at ${shown(a.first)}${by})`.replace(
        "( ",
        "(",
      ),
    );
  }
  const unobserved = added.filter((e) => e.unobserved === true);
  if (unobserved.length > 0) {
    out.push(
      `  unobserved: withheld keys a failed run's non-Node program may have needed (proposed, not seen; drop the ones a new run passes without):`,
    );
    for (const a of unobserved) {
      out.push(
        `  ? ${a.key.padEnd(16)} ${shown(a.entry)}  (${shown(a.reason ?? "withheld")}; ran first at ${shown(a.first)}${a.program === undefined ? "" : ` as ${shown(a.program)}`}${a.count > 1 ? `; in ${a.count} failed runs` : ""})`,
      );
    }
  }
  if (notProposed.length > 0) {
    out.push(`  not proposed: never allowed by a proposal (add one by hand, listed exactly, only if the run must have it):`);
    for (const n of notProposed) {
      const covers = n.covers.length > 1 || n.covers[0] !== n.entry ? ` covers ${n.covers.slice(0, 4).map(shown).join(", ")};` : "";
      const avoid = n.avoidWith === undefined ? "" : `; ${n.avoidWith} would have avoided them`;
      const by = n.program === undefined ? "" : `; ${verb[n.key] ?? "by"} ${shown(n.program)}`;
      out.push(
        `  - ${n.key.padEnd(16)} ${shown(n.entry)}  (${shown(n.why)}${avoid};${covers} ${n.count} time${n.count === 1 ? "" : "s"}, first at ${shown(n.first)}${by})`,
      );
    }
  }
  for (const n of notes) out.push(`  note: ${shown(n)}`);
  const text = envelopeJson(envelope);
  out.push("");
  if (base !== null) {
    out.push(`changes to ${options.from} (review them; the digest changes too):`);
    out.push(shownJson(lineDiff(envelopeJson(base.envelope), text)));
  } else {
    out.push(shownJson(text.trimEnd()));
  }
  if (options.write !== undefined) {
    const digestFile = `${options.write}.sha256`;
    await writeFile(options.write, text).catch((err: unknown) => {
      throw outputUnwritable(options.write as string, "the suggested envelope", err);
    });
    await writeFile(digestFile, formatDigestLine(Buffer.from(text), basename(options.write))).catch((err: unknown) => {
      throw outputUnwritable(digestFile, "the suggested envelope's digest", err);
    });
    out.push("", `wrote ${options.write} and ${options.write}.sha256`);
  }
  return out.join("\n") + "\n";
}
