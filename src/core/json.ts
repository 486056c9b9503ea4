/**
 * A strict JSON reader for human-edited policy files. Unlike JSON.parse it refuses duplicate
 * keys (a typo must never silently pick one of two values) and remembers the line of every
 * value by JSON pointer, so errors and annotations can point at the exact line.
 */

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

interface PositionedJson {
  value: unknown;
  /** JSON pointer ("" for the root, "/allowed_tools/2" for an item) to its 1-based line. */
  lines: Map<string, number>;
}

function pointerEscape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function parseJsonWithLines(text: string): PositionedJson {
  const lines = new Map<string, number>();
  let pos = 0;
  let line = 1;
  let lineStart = 0;

  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, line, pos - lineStart + 1);
  };

  const skipWhitespace = (): void => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0d) {
        pos++;
      } else if (c === 0x0a) {
        pos++;
        line++;
        lineStart = pos;
      } else {
        break;
      }
    }
  };

  const parseString = (): string => {
    // Opening quote already checked by the caller.
    pos++;
    let out = "";
    let chunkStart = pos;
    for (;;) {
      if (pos >= text.length) fail("unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(chunkStart, pos);
        pos++;
        return out;
      }
      if (c < 0x20) fail(`control character U+${c.toString(16).padStart(4, "0")} inside a string`);
      if (c === 0x5c) {
        out += text.slice(chunkStart, pos);
        const e = text[pos + 1];
        switch (e) {
          case '"':
          case "\\":
          case "/":
            out += e;
            pos += 2;
            break;
          case "b":
            out += "\b";
            pos += 2;
            break;
          case "f":
            out += "\f";
            pos += 2;
            break;
          case "n":
            out += "\n";
            pos += 2;
            break;
          case "r":
            out += "\r";
            pos += 2;
            break;
          case "t":
            out += "\t";
            pos += 2;
            break;
          case "u": {
            const hex = text.slice(pos + 2, pos + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
            out += String.fromCharCode(parseInt(hex, 16));
            pos += 6;
            break;
          }
          default:
            fail("bad escape in string");
        }
        chunkStart = pos;
        continue;
      }
      pos++;
    }
  };

  const parseValue = (pointer: string, depth: number): unknown => {
    if (depth > 64) fail("nesting deeper than 64 levels");
    skipWhitespace();
    lines.set(pointer, line);
    const c = text[pos];
    if (c === "{") {
      pos++;
      const obj: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      const seen = new Set<string>();
      skipWhitespace();
      if (text[pos] === "}") {
        pos++;
        return { ...obj };
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') fail("expected a quoted key");
        const keyLine = line;
        const key = parseString();
        if (seen.has(key)) {
          line = keyLine;
          fail(`duplicate key "${key}"`);
        }
        seen.add(key);
        skipWhitespace();
        if (text[pos] !== ":") fail(`expected ':' after key "${key}"`);
        pos++;
        const childPointer = `${pointer}/${pointerEscape(key)}`;
        obj[key] = parseValue(childPointer, depth + 1);
        lines.set(childPointer, keyLine);
        skipWhitespace();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          // A plain object, so callers and ajv see ordinary prototypes.
          return { ...obj };
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      pos++;
      const arr: unknown[] = [];
      skipWhitespace();
      if (text[pos] === "]") {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(`${pointer}/${arr.length}`, depth + 1));
        skipWhitespace();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return arr;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 64));
    if (m) {
      pos += m[0].length;
      return Number(m[0]);
    }
    return fail(pos >= text.length ? "unexpected end of file" : `unexpected character '${text[pos]}'`);
  };

  const value = parseValue("", 0);
  skipWhitespace();
  if (pos < text.length) fail("unexpected content after the JSON value");
  return { value, lines };
}

/** Decodes bytes as UTF-8, refusing invalid sequences instead of replacing them. */
export function decodeUtf8Strict(bytes: Uint8Array): string | { invalidAt: number; line: number } {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Find the first bad byte so the message can name the line.
    let line = 1;
    let i = 0;
    for (; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (b === 0x0a) line++;
      if (b < 0x80) continue;
      const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 ? 2 : b >= 0xc2 && b < 0xe0 ? 1 : -1;
      if (need < 0) break;
      let ok = true;
      for (let k = 1; k <= need; k++) {
        const cb = bytes[i + k];
        if (cb === undefined || (cb & 0xc0) !== 0x80) ok = false;
      }
      if (!ok) break;
      i += need;
    }
    return { invalidAt: i, line };
  }
}
