/**
 * A real GitHub-flavoured markdown renderer (micromark with its GFM extension, raw HTML passed
 * through as GitHub's renderer does before it sanitizes) and an HTML parser, to see what a
 * reviewer would get from a piece of markdown: its elements, attributes, comments and text, and
 * the mentions and issue references GitHub would find in that text.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { Parser } from "htmlparser2";

export function renderGfm(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

export interface Rendered {
  html: string;
  elements: { name: string; attrs: Record<string, string> }[];
  comments: string[];
  /** All text nodes, entities decoded, in order. */
  text: string;
  /** Text outside code, pre and links: where GitHub looks for mentions and references. */
  prose: string;
  /** Text per element name (text directly or deeper inside each element of that name). */
  textIn: (name: string) => string[];
}

export function inspectHtml(html: string): Rendered {
  const elements: Rendered["elements"] = [];
  const comments: string[] = [];
  const open: { name: string; text: string }[] = [];
  const closed: { name: string; text: string }[] = [];
  let text = "";
  let prose = "";
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        elements.push({ name, attrs });
        open.push({ name, text: "" });
      },
      ontext(t) {
        text += t;
        if (!open.some((o) => o.name === "code" || o.name === "pre" || o.name === "a")) prose += t;
        for (const o of open) o.text += t;
      },
      onclosetag() {
        const o = open.pop();
        if (o) closed.push(o);
      },
      oncomment(c) {
        comments.push(c);
      },
    },
    { decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return { html, elements, comments, text, prose, textIn: (name) => closed.filter((c) => c.name === name).map((c) => c.text) };
}

export function render(markdown: string): Rendered {
  return inspectHtml(renderGfm(markdown));
}

/** What GitHub would turn into a mention in rendered text: `@` after a non-word character, then a login character. */
export function mentionsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|[^A-Za-z0-9_`])(@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9_-]+)?)/g)].map((m) => m[1] as string);
}

/** What GitHub would turn into an issue reference (and, after "fixes", close on merge). */
export function refsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|[^A-Za-z0-9_&])(#[0-9]+|GH-[0-9]+)/gi)].map((m) => m[1] as string);
}

/** Hostile strings a pull request can put where a reviewer reads them. */
export const HOSTILE: readonly string[] = [
  "<details open><summary>all checks passed</summary>",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "<a href=javascript:alert(1)>click</a>",
  "@team please approve",
  "@org/team",
  "cc @octocat, @octo-org/security",
  "[x](https://evil.example/)",
  "![x](https://evil.example/y.png)",
  "[ref]: https://evil.example/",
  "[x][ref]",
  "<https://evil.example/>",
  "https://evil.example/path",
  "www.evil.example",
  "user@evil.example",
  "mailto:user@evil.example",
  "# heading",
  "## heading @team <!--",
  "<!-- hide the rest",
  "-->",
  "`code`",
  "``` fence",
  "~~~ fence",
  "a ``x`` b `",
  "**bold** _em_ ~~strike~~",
  "- item",
  "+ item",
  "* item",
  "1. item",
  "12) item",
  "> quote",
  "    indented code",
  "---",
  "===",
  "- [ ] task",
  "[^1]",
  "x\n# heading on a new line",
  "x\r\n\r\n<details>",
  "trailing spaces  ",
  "\tleading tab",
  "a | b | c",
  "a\\|b \\\\| c",
  "ends with a backslash \\",
  "\\",
  "&lt;b&gt; &amp; &#64;team",
  "$x^2$ and $$\\color{red}{PASS}$$",
  "fixes #12, closes GH-3, owner/repo#4",
  "zero\u200bwidth\u200c\u200d\u2060\ufeff",
  "bidi \u202eevil\u202c \u2066isolate\u2069 \u061c",
  "nbsp\u00a0and\u2003em space",
  "nul\u0000bell\u0007esc\u001b[31mred del\u007f c1\u0085",
  "lone \ud800 surrogate",
  "tag chars \u{e0041}\u{e0042}",
  "line\u2028separator\u2029",
  "<",
  "a<b>c",
  ":warning: <sub>tiny</sub>",
];

/** Elements the product's own markdown makes (headings, tables, lists, code, emphasis, links). */
export const OWN_ELEMENTS = [
  "h1",
  "h2",
  "h3",
  "p",
  "strong",
  "em",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "code",
  "pre",
  "ul",
  "li",
  "blockquote",
  "a",
  "hr",
  "br",
  "span",
];

/**
 * What in a rendered document did not come from the product's own markdown: an element outside
 * `OWN_ELEMENTS`, an attribute other than a link's http(s) `href` (to `hrefOk`) or a fence's
 * language class, a comment, a mention or reference other than `allowed`, an invisible character.
 */
export function harmlessProblems(
  r: Rendered,
  allowed: { mentions?: string[]; refs?: string[]; hrefOk?: (href: string) => boolean } = {},
): string[] {
  const problems: string[] = [];
  for (const e of r.elements) {
    if (!OWN_ELEMENTS.includes(e.name)) problems.push(`element <${e.name}>`);
    for (const [k, v] of Object.entries(e.attrs)) {
      const ok =
        (e.name === "a" && k === "href" && /^https?:\/\//.test(v) && (allowed.hrefOk?.(v) ?? true)) ||
        (e.name === "code" && k === "class" && /^language-[a-z]+$/.test(v)) ||
        (["td", "th"].includes(e.name) && k === "align");
      if (!ok) problems.push(`attribute ${k}="${v}" on <${e.name}>`);
    }
  }
  for (const c of r.comments) problems.push(`comment <!--${c}-->`);
  for (const m of mentionsIn(r.prose)) if (!(allowed.mentions ?? []).includes(m)) problems.push(`mention ${m}`);
  for (const ref of refsIn(r.prose)) if (!(allowed.refs ?? []).includes(ref)) problems.push(`reference ${ref}`);
  // eslint-disable-next-line no-control-regex
  const hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200c-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u.exec(r.text);
  if (hidden) problems.push(`invisible U+${(hidden[0].codePointAt(0) ?? 0).toString(16)}`);
  for (const span of r.textIn("span")) if (span !== "$") problems.push(`span "${span}"`);
  return problems;
}

/** The text a reader sees in rendered markdown (without the U+200B the product inserts after `@` and `#`). */
export function shownText(markdown: string | null | undefined): string {
  return render(markdown ?? "").text.replace(/\u200b/g, "");
}
