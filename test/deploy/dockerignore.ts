import { posix } from "node:path";

/**
 * A .dockerignore file applied as Docker applies it (moby's patternmatcher, which the docs
 * describe: "Matching is done using Go's filepath.Match rules ... Docker also supports a special
 * wildcard string ** ... the last line that matches a particular file determines whether it is
 * included or excluded"):
 * - each line is trimmed; a line starting with `#` is a comment, a blank line is skipped;
 * - `!` makes the line an exception (it re-admits);
 * - the pattern is cleaned as Go's filepath.Clean cleans it and a leading `/` is dropped, so
 *   `/foo`, `./foo` and `foo/` all mean `foo`;
 * - `*` and `?` never match `/`; `**` matches any number of directories (even none), a trailing
 *   `**` anything; `[...]` is a class (negated by `^`); `\` escapes the next character;
 * - a pattern excludes a path when it matches the path or any of its parent directories.
 */
export interface IgnoreRule {
  pattern: string;
  exception: boolean;
  regex: RegExp;
}

export function parseDockerignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const exception = line.startsWith("!");
    if (exception) line = line.slice(1).trim();
    if (line === "") throw new Error(`.dockerignore line ${index + 1}: "!" without a pattern (Docker refuses it)`);
    let pattern = posix.normalize(line);
    if (pattern.length > 1 && pattern.endsWith("/")) pattern = pattern.slice(0, -1);
    pattern = pattern.replace(/^\/+/, "");
    if (pattern === ".") pattern = "";
    rules.push({ pattern, exception, regex: compile(pattern, index + 1) });
  }
  return rules;
}

/** moby's translation of a pattern into a regular expression. */
function compile(pattern: string, line: number): RegExp {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        i++;
        if (pattern[i + 1] === "/") i++;
        re += i + 1 >= pattern.length ? ".*" : "(.*/)?";
      } else {
        re += "[^/]*";
      }
    } else if (ch === "?") {
      re += "[^/]";
    } else if (ch === "\\") {
      i++;
      if (i >= pattern.length) throw new Error(`.dockerignore line ${line}: a trailing "\\" escapes nothing`);
      re += escape(pattern[i] as string);
    } else if (ch === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) throw new Error(`.dockerignore line ${line}: "[" without "]"`);
      re += pattern.slice(i, end + 1).replace(/\\/g, "\\\\");
      i = end;
    } else {
      re += escape(ch);
    }
  }
  try {
    return new RegExp(`${re}$`, "s");
  } catch (err) {
    throw new Error(`.dockerignore line ${line}: ${(err as Error).message}`, { cause: err });
  }
}

function escape(ch: string): string {
  return /[.+()|{}$^*?[\]\\]/.test(ch) ? `\\${ch}` : ch;
}

/** Whether `path` (relative to the context root, `/`-separated) stays out of the build context. */
export function excluded(rules: readonly IgnoreRule[], path: string): boolean {
  const parents: string[] = [];
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) parents.push(path.slice(0, i));
  let out = false;
  for (const rule of rules) {
    if (rule.regex.test(path) || parents.some((p) => rule.regex.test(p))) out = !rule.exception;
  }
  return out;
}
