import { describe, expect, it } from "vitest";
import { clipMarkdown, escapeHtml, mdCode, mdFence, mdText, plainText, plainTitle, safeHref } from "../../src/core/markdown.js";
import { checkTitle, MAX_SUMMARY_CHARS, renderSummary, type SummaryInput } from "../../src/core/summary.js";
import { harmlessProblems, HOSTILE, inspectHtml, mentionsIn, refsIn, render, type Rendered } from "../support/gfm.js";

/** Where inline text lands in what the product writes, and the elements that place itself makes. */
const CONTEXTS: { name: string; wrap: (md: string) => string; allowed: string[] }[] = [
  { name: "paragraph", wrap: (md) => `BEGIN ${md} END`, allowed: ["p"] },
  { name: "start of a line", wrap: (md) => `before\n${md} END`, allowed: ["p"] },
  { name: "alone on a line", wrap: (md) => `before\n\n${md}\n\nafter`, allowed: ["p"] },
  { name: "list item", wrap: (md) => `- ${md}`, allowed: ["ul", "li"] },
  { name: "heading", wrap: (md) => `### ${md}`, allowed: ["h3"] },
  { name: "bold", wrap: (md) => `**${md}**`, allowed: ["p", "strong"] },
  { name: "blockquote", wrap: (md) => `> ${md}`, allowed: ["blockquote", "p"] },
  {
    name: "table cell",
    wrap: (md) => `| a | b |\n| --- | --- |\n| ${md} | END |\n| ${md} | ${md} |`,
    allowed: ["table", "thead", "tbody", "tr", "th", "td"],
  },
];

/** What a reviewer must see: the characters written, invisible ones shown, lines flattened. */
const visible = (s: string) => plainText(s);
/** Our own mention/reference breaks are U+200B; the attacker's U+200B shows as `\u{200B}`. */
const shown = (r: Rendered) => r.text.replace(/\u200b/g, "");

function expectHarmless(r: Rendered, allowed: string[], context: string, attrs: Record<string, Record<string, string>> = {}): void {
  for (const e of r.elements) {
    const ok = allowed.includes(e.name) || (e.name === "span" && Object.keys(e.attrs).length === 0);
    expect(ok, `${context}: element <${e.name}> in ${r.html}`).toBe(true);
    expect(e.attrs, `${context}: attributes on <${e.name}> in ${r.html}`).toEqual(attrs[e.name] ?? {});
  }
  expect(r.comments, `${context}: comment in ${r.html}`).toEqual([]);
  expect(mentionsIn(r.prose), `${context}: mention in ${r.html}`).toEqual([]);
  expect(refsIn(r.prose), `${context}: issue reference in ${r.html}`).toEqual([]);
  expect(r.text, `${context}: an invisible or reordering character in ${r.html}`).not.toMatch(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u200c-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/,
  );
  for (const span of r.textIn("span")) expect(span).toBe("$");
}

describe("mdText: attacker text renders as its own characters and nothing else", () => {
  for (const context of CONTEXTS) {
    it(`in a ${context.name}`, () => {
      for (const hostile of HOSTILE) {
        const r = render(context.wrap(mdText(hostile)));
        expectHarmless(r, context.allowed, `${context.name} ${JSON.stringify(hostile)}`);
        expect(shown(r), `${context.name} ${JSON.stringify(hostile)}: ${r.html}`).toContain(visible(hostile));
      }
    });
  }

  it("keeps ordinary text readable: paths, ids and sentences pass through as they are", () => {
    expect(mdText("/work/repo/src/index.ts")).toBe("/work/repo/src/index.ts");
    expect(mdText("tests_pass exited with 1")).toBe("tests\\_pass exited with 1");
    expect(mdText("write_outside_root:/etc/passwd")).toBe("write\\_outside\\_root\\:/etc/passwd");
  });

  it("shows invisible characters as \\u{XXXX} and flattens newlines", () => {
    expect(render(mdText("a\u202eb\nc")).text.trim()).toBe("a\\u{202E}b c");
    expect(plainText("a\u200bb\tc\u0000")).toBe("a\\u{200B}b c\\u{0000}");
  });

  it("cuts after escaping, between whole escapes, and the cut text is still harmless", () => {
    for (const hostile of HOSTILE) {
      const long = hostile.repeat(40);
      for (const max of [1, 7, 13, 50, 301]) {
        const md = mdText(long, max);
        expect(md.length).toBeLessThanOrEqual(max);
        for (const context of CONTEXTS) {
          const r = render(context.wrap(md));
          expectHarmless(r, context.allowed, `${context.name} cut at ${max}: ${JSON.stringify(hostile)}`);
        }
        const r = render(`BEGIN ${md}`);
        const text = shown(r)
          .trim()
          .replace(/^BEGIN /, "");
        if (md.endsWith("…")) expect(visible(long).startsWith(text.slice(0, -1).trimEnd())).toBe(true);
      }
    }
    // The entity and escape are whole or absent.
    expect(mdText("@@@@", 10)).toBe("@&#8203;…");
    expect(mdText("<<<<", 4)).toBe("\\<…");
  });
});

describe("mdCode: a code span that survives backticks inside", () => {
  it("in a paragraph and in a table cell", () => {
    for (const hostile of [...HOSTILE, "`", "``", "a`b", " `x` ", "|", "x|y", "x\\|y", "\\|", "a\\\\|b", "|`|"]) {
      const p = render(`see ${mdCode(hostile)} here`);
      expectHarmless(p, ["p", "code"], `paragraph ${JSON.stringify(hostile)}`);
      expect(p.textIn("code"), p.html).toEqual([visible(hostile)]);
      const t = render(`| a | b |\n| --- | --- |\n| ${mdCode(hostile, { inTable: true })} | END |`);
      expectHarmless(t, ["table", "thead", "tbody", "tr", "th", "td", "code"], `table ${JSON.stringify(hostile)}`);
      // Text with a backslash before a pipe is shown as escaped text, not code (see mdCode).
      expect(t.textIn("code"), t.html).toEqual(/\\\|/.test(hostile) ? [] : [visible(hostile)]);
      expect(t.textIn("td"), t.html).toEqual([visible(hostile), "END"]);
    }
  });

  it("clips what it shows, never the fence", () => {
    const code = mdCode("`".repeat(500), { max: 20 });
    expect(render(code).textIn("code")).toEqual(["`".repeat(19) + "…"]);
  });
});

describe("mdFence: lines verbatim in a block no line can close", () => {
  it("keeps a TSV row visible whatever it holds", () => {
    const row = ["F-1", "prop ``` ~~~ <!--", "run-1@a", "run-2@b", "sha256:x", "2026-12-31", "open", "sha256:y"].join("\t");
    const r = render(`before\n\n${mdFence(`${row}\n\`\`\`\n# not a heading`, "tsv")}\n\nafter @team`.replace("@team", mdText("@team")));
    expectHarmless(r, ["p", "pre", "code"], "fence", { code: { class: "language-tsv" } });
    expect(r.textIn("code")).toEqual([`${row}\n\`\`\`\n# not a heading\n`]);
    expect(r.textIn("p")).toEqual(["before", "after @\u200bteam"]);
  });

  it("shows bidi controls in the block", () => {
    expect(render(mdFence("a\u202eb")).textIn("code")).toEqual(["a\\u{202E}b\n"]);
  });
});

describe("plainTitle, plainText, escapeHtml, clipMarkdown, safeHref", () => {
  it("plainTitle breaks mentions and references in a PR title or commit message", () => {
    for (const hostile of HOSTILE) {
      const t = plainTitle(hostile);
      expect(mentionsIn(t), t).toEqual([]);
      expect(refsIn(t), t).toEqual([]);
      expect(t.replace(/\u200b/g, "")).toBe(visible(hostile));
    }
  });

  it("escapeHtml leaves no element, attribute or comment, and shows the characters", () => {
    for (const hostile of HOSTILE) {
      const r = inspectHtml(`<td title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</td>`);
      expect(r.elements).toEqual([{ name: "td", attrs: { title: r.text } }]);
      expect(r.comments).toEqual([]);
      expect(r.text).toBe(Array.from(hostile, (ch) => (/[\t\n\r]/.test(ch) ? ch : plainText(ch))).join(""));
    }
  });

  it("clipMarkdown cuts at a line boundary, so no escape or code span is cut in half", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `- ${mdCode(`<img src=x onerror=alert(${i})>`)} ${mdText("@team <!--")}`);
    const md = lines.join("\n");
    for (const max of [10, 100, 1000, 5000]) {
      const cut = clipMarkdown(md, max, "\n(cut)");
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.endsWith("\n(cut)")).toBe(true);
      expectHarmless(render(cut), ["ul", "li", "code", "p"], `clipped at ${max}`);
    }
    expect(clipMarkdown("short", 10)).toBe("short");
  });

  it("safeHref keeps http(s) addresses only", () => {
    expect(safeHref("https://github.com/o/r/pull/1")).toBe("https://github.com/o/r/pull/1");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,x")).toBeNull();
    expect(safeHref(null)).toBeNull();
  });
});

describe("renderSummary with hostile strings: within GitHub's limit, cut after escaping, harmless", () => {
  const input = (violations: number, notes: string[] = []): SummaryInput => ({
    checkName: "envelope-gate",
    decision: { verdict: "envelope_fail", conclusion: "failure", headline: `${violations} envelope violations @team <!--` },
    report: {
      verdict: "envelope_fail",
      envelope_id: "e",
      envelope_hash: `sha256:${"a".repeat(64)}`,
      events: violations,
      violations: Array.from({ length: violations }, (_, i) => ({
        id: `write_outside_root:/x/${HOSTILE[i % HOSTILE.length]}${"@".repeat(300)}${i}`,
        rule: "write_outside_root" as const,
        subject: `/x/${HOSTILE[i % HOSTILE.length]}${"<".repeat(300)}${i}`,
        first_line: i + 2,
        count: 1,
      })),
      error: null,
      log: null,
    },
    envelope: null,
    pull: null,
    gating: null,
    policyChange: null,
    properties: null,
    propertiesFile: null,
    ledger: null,
    evidence: null,
    links: [{ label: "run [x](https://evil.example/)", url: "javascript:alert(1)" }],
    notes,
    omittedAnnotations: 0,
  });

  it("shortens the tables, and a note too long for anything is cut at a line, never inside an escape", () => {
    for (const [n, notes] of [
      [3000, []],
      [10, [`${"@team <img src=x onerror=alert(1)> ".repeat(4000)}`]],
      [0, Array.from({ length: 400 }, () => "`<!--` ".repeat(100))],
    ] as const) {
      const md = renderSummary(input(n, [...notes]));
      expect(md.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
      const r = render(md);
      expect(harmlessProblems(r), r.html.slice(0, 2000)).toEqual([]);
      expect(r.elements.filter((e) => e.name === "a")).toEqual([]);
    }
    expect(renderSummary(input(3000))).toContain("more distinct violations");
    expect(checkTitle(input(1).decision)).toBe("envelope_fail: 1 envelope violations @team <!--");
  });
});
