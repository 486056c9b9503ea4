/**
 * What the docs show: their fenced code blocks, and the envelope-gate command lines in the shell
 * ones, split into words as a POSIX shell would for the simple lines the docs hold.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../support/fixtures.js";

export interface CodeBlock {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  lang: string;
  /** The block's lines, each with its line number in the file. */
  lines: { n: number; text: string }[];
}

/** README.md and every docs/*.md, relative to the checkout. */
export function docFiles(): string[] {
  return [
    "README.md",
    ...readdirSync(join(REPO_ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

/** Every fenced code block of a markdown file (fences may be indented, as in list items). */
export function codeBlocks(file: string): CodeBlock[] {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const blocks: CodeBlock[] = [];
  let open: CodeBlock | null = null;
  let fence = "";
  let indent = 0;
  text.split("\n").forEach((raw, i) => {
    const m = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(raw);
    if (open === null) {
      if (m !== null) {
        open = { file, line: i + 1, lang: (m[3] ?? "").toLowerCase(), lines: [] };
        fence = m[2] as string;
        indent = (m[1] as string).length;
      }
      return;
    }
    if (m !== null && (m[2] as string).startsWith(fence) && (m[3] ?? "") === "") {
      blocks.push(open);
      open = null;
      return;
    }
    open.lines.push({ n: i + 1, text: raw.slice(Math.min(indent, raw.length - raw.trimStart().length)) });
  });
  return blocks;
}

/** One simple command of a shell line: its words, environment assignments and redirections left out. */
export interface ShellCommand {
  file: string;
  line: number;
  /** The command as the doc writes it (continuation lines joined). */
  text: string;
  words: string[];
}

const OPERATORS = new Set(["&&", "||", ";", "|", "&"]);

/**
 * Splits a shell line into simple commands of words: quotes ('…', "…" with \\ escapes) and
 * backslashes honoured, `#` comments dropped, `VAR=value` prefixes and redirections (`> f`,
 * `2>&1`, `< f`) left out. No expansion: the docs' command lines use none.
 */
export function shellSplit(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const end = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const flush = () => {
    end();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  while (i < line.length) {
    const c = line[i] as string;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? "") + line.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      let out = "";
      while (j < line.length && line[j] !== '"') {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++;
        out += line[j];
        j++;
      }
      if (j >= line.length) throw new Error(`unterminated " in: ${line}`);
      word = (word ?? "") + out;
      i = j + 1;
    } else if (c === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i += 2;
    } else if (c === " " || c === "\t") {
      end();
      i++;
    } else if (c === "#" && word === null) {
      break;
    } else {
      const op = line.slice(i, i + 2);
      if (op === "&&" || op === "||") {
        flush();
        i += 2;
      } else if (OPERATORS.has(c)) {
        flush();
        i++;
      } else {
        word = (word ?? "") + c;
        i++;
      }
    }
  }
  flush();
  return commands
    .map(withoutRedirections)
    .map(withoutAssignments)
    .filter((w) => w.length > 0);
}

function withoutRedirections(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/^\d*(>>?|<)&\d+$/.test(w)) continue;
    if (/^\d*(>>?|<)$/.test(w)) {
      i++;
      continue;
    }
    if (/^\d*(>>?|<)./.test(w)) continue;
    out.push(w);
  }
  return out;
}

function withoutAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string)) i++;
  return words.slice(i);
}

/** Whether a quote opened in this text is still open at its end (the command goes on, on the next line). */
function quoteOpen(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === null && c === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) return false;
    if (quote !== "'" && c === "\\") i++;
    else if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (quote === c) quote = null;
  }
  return quote !== null;
}

/** The shell blocks' command lines, and every `$ ` line anywhere (a console block's prompt, or prose). */
export function shellCommands(file: string): ShellCommand[] {
  const out: ShellCommand[] = [];
  const add = (n: number, text: string) => {
    for (const words of shellSplit(text)) out.push({ file, line: n, text, words });
  };
  const blocks = codeBlocks(file);
  for (const block of blocks) {
    const shell = block.lang === "sh" || block.lang === "bash" || block.lang === "shell";
    let pending: { n: number; text: string; quoted: boolean } | null = null;
    for (const { n, text } of block.lines) {
      const prompt = /^\s*\$ (.*)$/.exec(text);
      if (!shell && prompt === null && pending === null) continue;
      const body = shell || pending?.quoted === true ? (prompt?.[1] ?? text) : (prompt?.[1] as string);
      const joined: { n: number; text: string } =
        pending === null ? { n, text: body } : { n: pending.n, text: pending.text + (pending.quoted ? "\n" + body : " " + body.trim()) };
      if (quoteOpen(joined.text)) {
        pending = { ...joined, quoted: true };
        continue;
      }
      if (/\\$/.test(joined.text)) {
        pending = { n: joined.n, text: joined.text.replace(/\\$/, ""), quoted: false };
        continue;
      }
      pending = null;
      add(joined.n, joined.text);
    }
  }
  // `$ ` lines outside any block.
  const inBlock = new Set(blocks.flatMap((b) => [b.line, ...b.lines.map((l) => l.n)]));
  readFileSync(join(REPO_ROOT, file), "utf8")
    .split("\n")
    .forEach((text, i) => {
      const prompt = /^\s*\$ (.*)$/.exec(text);
      if (prompt !== null && !inBlock.has(i + 1)) add(i + 1, prompt[1] as string);
    });
  return out;
}

/** How a command line reaches the CLI, and the arguments the CLI gets; null when it is not the CLI. */
export function cliArguments(words: string[], npmScripts: Record<string, string>): { via: string; args: string[] } | null {
  const [first, second] = words;
  if (first === "envelope-gate") return { via: "envelope-gate", args: words.slice(1) };
  if (first === "npx" && second !== undefined && /^envelope-gate(@\S+)?$/.test(second)) return { via: "npx", args: words.slice(2) };
  if (first === "node" && second !== undefined && /(^|\/)dist\/cli\/index\.js$/.test(second)) return { via: "node", args: words.slice(2) };
  if (first === "npm" && second === "run" && words[2] !== undefined) {
    const script = npmScripts[words[2]];
    if (script === undefined) return { via: "npm run", args: [`<no npm script "${words[2]}">`] };
    const dashes = words.indexOf("--");
    const extra = dashes === -1 ? [] : words.slice(dashes + 1);
    const scriptWords = shellSplit(script)[0] ?? [];
    const inner = cliArguments(scriptWords, npmScripts);
    return inner === null ? { via: "npm run (not the CLI)", args: [] } : { via: "npm run", args: [...inner.args, ...extra] };
  }
  return null;
}
