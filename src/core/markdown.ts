/**
 * Attacker-controlled strings where a reviewer reads them. Pure.
 *
 * Violation subjects, PR file names, property details (command output), runner.json fields,
 * branch names, ledger cells and error messages that quote input all come from the pull request
 * or from an evidence bundle it produced. Each goes through exactly one of these, chosen by how
 * GitHub shows the place it lands:
 *
 * - `mdText`: inline text in GitHub-flavoured markdown with HTML (check-run summary and text, job
 *   summary, PR body): table cells, list items, headings, paragraphs.
 * - `mdCode`: the same text as an inline code span.
 * - `mdFence`: lines shown verbatim in a fenced code block.
 * - `plainText`: places GitHub shows as plain text (annotation title and message, check-run title).
 * - `plainTitle`: plain text that GitHub still links (PR title, commit message): mentions and
 *   issue references are broken as in `mdText`.
 * - `escapeHtml`: the App's HTML status page.
 *
 * All of them show characters that change how text reads without showing themselves (zero-width,
 * bidi controls, control characters, Unicode spaces other than U+0020) as `\u{XXXX}` text, so a
 * reviewer sees that they are there; newlines and tabs are flattened to a space.
 */

/**
 * Inserted after `@` and inside `#123`/`GH-123`: ZERO WIDTH SPACE, as the entity in markdown.
 * GitHub finds mentions and issue references in the rendered text (after entities are decoded),
 * as `@` then a login character and `#` then a digit. U+200B is neither, so `@&#8203;team` renders
 * as "@", an invisible U+200B, then "team", which notifies nobody, and `#&#8203;12` links no issue (nor closes it through a
 * "fixes #12" in a merged PR or commit). An entity for `@` itself (`&#64;`) would not do: it is
 * decoded before GitHub looks, and a backslash escape (`\@`) neither. This is what Dependabot and
 * Renovate insert for the same reason.
 */
const BREAK_ENTITY = "&#8203;";
const BREAK_CHAR = "\u200b";

/** Code points shown as `\u{XXXX}`: controls, zero-width, bidi, invisible fillers and odd spaces. */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- one code point at a time, on purpose
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;

/** Newlines and tabs: flattened to one space where text is inline. */
const FLATTEN = /^[\t\n\r]$/;

/** ASCII punctuation that starts or ends a markdown construct anywhere in a line. */
const MD_ALWAYS = new Set(["\\", "`", "*", "_", "~", "[", "]", "(", ")", "!", "<", ">", "&", "|", ":", "#"]);

/** The visible stand-in of an invisible code point. */
function visibleCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}`;
}

/** Code points of `s`, lone surrogates kept as their own code point. */
function codePoints(s: string): string[] {
  return Array.from(s);
}

function isInvisible(ch: string): boolean {
  return INVISIBLE.test(ch);
}

/** Joins units, cutting whole units only, with `…` when something was left out. */
function joinClipped(units: readonly string[], max: number | undefined): string {
  const all = units.join("");
  if (max === undefined || all.length <= max) return all;
  let out = "";
  for (const u of units) {
    if (out.length + u.length > max - 1) break;
    out += u;
  }
  return `${out}…`;
}

/** Plain text for places GitHub does not render as markdown: invisible characters shown, lines flattened. */
export function plainText(s: string, max?: number): string {
  const units = codePoints(s).map((ch) => (FLATTEN.test(ch) ? " " : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch));
  return joinClipped(units, max);
}

/**
 * Plain text that GitHub still scans for mentions and issue references (PR titles, commit
 * messages): as `plainText`, with a raw U+200B after `@` and inside `#123` / `GH-123`.
 */
export function plainTitle(s: string, max?: number): string {
  const chars = codePoints(s);
  const units = chars.map((ch, i) => {
    if (FLATTEN.test(ch)) return " ";
    if (isInvisible(ch)) return visibleCodePoint(ch.codePointAt(0) ?? 0);
    if (ch === "@") return `@${BREAK_CHAR}`;
    if (refStart(chars, i)) return `${ch}${BREAK_CHAR}`;
    return ch;
  });
  return joinClipped(units, max);
}

/** `#` before a digit, or the `-` of `GH-` before a digit: where GitHub would link an issue. */
function refStart(chars: readonly string[], i: number): boolean {
  const next = chars[i + 1] ?? "";
  if (!/^[0-9]$/.test(next)) return false;
  if (chars[i] === "#") return true;
  return chars[i] === "-" && /^gh$/i.test(`${chars[i - 2] ?? ""}${chars[i - 1] ?? ""}`);
}

/**
 * Inline markdown text that renders as exactly the characters given (invisible ones shown), with
 * no element, attribute, link, image, mention, issue reference, emphasis, code, math, heading or
 * other block from it, wherever an inline string goes: a table cell, a list item, a heading, a
 * paragraph, the start of a line. `max` bounds the escaped length; the cut falls between whole
 * escapes and is marked with `…`.
 */
export function mdText(s: string, max?: number): string {
  const chars = codePoints(s);
  const units: string[] = [];
  const leadingDigits = /^[0-9]{1,9}(?=[.)])/.exec(s)?.[0].length ?? -1;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const first = i === 0;
    const last = i === chars.length - 1;
    let unit: string;
    if (FLATTEN.test(ch) || ch === " ") {
      // A space that opens or closes the string could indent a code block or end a line with a
      // hard break: an entity renders the same space and is neither.
      unit = first || last ? "&#32;" : " ";
    } else if (isInvisible(ch)) unit = `\\${visibleCodePoint(ch.codePointAt(0) ?? 0)}`;
    else if (ch === "@") unit = `@${BREAK_ENTITY}`;
    else if (refStart(chars, i)) unit = ch === "#" ? `\\#${BREAK_ENTITY}` : `-${BREAK_ENTITY}`;
    // GitHub's math: a backslash does not escape `$` outside an expression; a span does (GitHub's docs).
    else if (ch === "$") unit = "<span>$</span>";
    else if (MD_ALWAYS.has(ch)) unit = `\\${ch}`;
    // Block starts: list items, setext underlines, ordered lists.
    else if (first && (ch === "-" || ch === "+" || ch === "=")) unit = `\\${ch}`;
    else if (i === leadingDigits && ch === ".") unit = "\\.";
    // `www.` starts a GFM autolink literal; `http://` is broken by the escaped `:`.
    else if (ch === "." && /^www$/i.test(chars.slice(Math.max(0, i - 3), i).join(""))) unit = "\\.";
    else unit = ch;
    units.push(unit);
  }
  return joinClipped(units, max);
}

/**
 * An inline code span showing `s` verbatim (invisible characters shown, lines flattened), whatever
 * backticks it holds: fenced by a backtick run longer than any inside, padded with a space where
 * it starts or ends with a backtick or a space (GFM strips one from each side). In a table cell
 * (`inTable`), `|` is written `\|`, which the table reads as a pipe of the cell's content.
 * `max` bounds the shown characters (not the fence).
 */
export function mdCode(s: string, options: { inTable?: boolean; max?: number } = {}): string {
  const shown = plainText(s, options.max);
  if (shown === "") return "";
  // A table splits its row before it reads code spans, and `\\|` there is an escaped backslash
  // then a cell's end: such text is shown as escaped text instead, which keeps every character.
  if (options.inTable && /\\\|/.test(shown)) return mdText(s, options.max);
  const content = options.inTable ? shown.replace(/\|/g, "\\|") : shown;
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(content) ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

/** A fenced code block showing `text`'s lines verbatim (invisible characters shown), whatever fences they hold. */
export function mdFence(text: string, info = ""): string {
  const lines = text.split(/\r\n|\r|\n/).map((line) =>
    codePoints(line)
      .map((ch) => (ch !== "\t" && isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
      .join(""),
  );
  const longest = Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+|~+/g)].map((m) => m[0].length)));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, ...lines, fence].join("\n");
}

/**
 * Cuts a markdown document to `max` characters at a line boundary, so no escape, entity, code
 * span or table row is cut in half, and appends `tail`. A document whose first line is already too
 * long keeps only the tail.
 */
export function clipMarkdown(md: string, max: number, tail = ""): string {
  if (md.length <= max) return md;
  const room = Math.max(0, max - tail.length);
  const cut = md.lastIndexOf("\n", room);
  return `${cut <= 0 ? "" : md.slice(0, cut)}${tail}`.slice(0, max);
}

/**
 * Text in HTML (element content and quoted attribute values): `& < > " '` as entities, and the
 * invisible characters shown as in `plainText` (a bidi control on the status page would reorder
 * what an operator reads).
 */
export function escapeHtml(v: unknown): string {
  return codePoints(String(v ?? ""))
    .map((ch) => (/[&<>"']/.test(ch) ? `&#${ch.charCodeAt(0)};` : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
    .join("");
}

/** An address safe to put in an `href`: http(s) only, anything else is no link. */
export function safeHref(url: string | null | undefined): string | null {
  if (typeof url !== "string") return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * A markdown link with an escaped label, to an http(s) address only (percent-encoding what could
 * end the destination); anything else is the label alone, not a link.
 */
export function mdLink(label: string, url: string | null | undefined): string {
  const href = safeHref(url);
  const text = mdText(label);
  if (href === null) return text;
  const dest = href.replace(/[()<>\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return `[${text}](${dest})`;
}
