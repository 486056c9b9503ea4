/**
 * The tokens of a `strace -xx -y` line (and of the eBPF recorder's lines, which print the same
 * grammar): hex-escaped strings, fd decorations, top-level argument lists, open flags and socket
 * addresses.
 */
import type { WriteOp } from "../core/log-format.js";

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
const hexDigit = (code: number): number => (code < 128 ? (HEX_VALUE[code] as number) : -1);

/** Text that is only `\xHH` escapes (all of it, under `-xx`), decoded in one pass; null for anything else. */
function decodeAllEscapes(text: string): string | null {
  const n = text.length;
  if (n % 4 !== 0) return null;
  const out = Buffer.allocUnsafe(n / 4);
  for (let i = 0, j = 0; i < n; i += 4, j++) {
    const hi = hexDigit(text.charCodeAt(i + 2));
    const lo = hexDigit(text.charCodeAt(i + 3));
    if (text.charCodeAt(i) !== 0x5c || text.charCodeAt(i + 1) !== 0x78 || hi < 0 || lo < 0) return null;
    out[j] = hi * 16 + lo;
  }
  return out.toString("utf8");
}

function decodeHex(text: string): string {
  if (!text.includes("\\x")) return text;
  const escaped = decodeAllEscapes(text);
  if (escaped !== null) return escaped;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x5c && text[i + 1] === "x") {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Splits `a, b, {c, d}, [e]` at top-level commas. Strings are hex-escaped, so quotes never nest. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== "") out.push(last);
  return out;
}

/** `"..."` -> decoded string; anything else -> null. */
export function stringArg(token: string | undefined): string | null {
  if (token === undefined) return null;
  const m = /^"((?:\\x[0-9a-f]{2})*)"/.exec(token);
  return m ? decodeHex(m[1] as string) : null;
}

/** `3</path>` or `AT_FDCWD</path>` -> `/path`. */
export function fdDecoration(token: string | undefined): string | null {
  if (token === undefined) return null;
  // A deleted file (a memfd among them) is printed `7</memfd:x>(deleted)`.
  const m = /^[^<]*<((?:\\x[0-9a-f]{2})*)>(?:\(deleted\))?$/.exec(token);
  return m ? decodeHex(m[1] as string).replace(/ \(deleted\)$/, "") : null;
}

export function openFlags(token: string | undefined): WriteOp | null {
  if (token === undefined) return null;
  const flags = token.startsWith("{") ? (/flags=([A-Z_|0-9x]+)/.exec(token)?.[1] ?? "") : token;
  const set = new Set(flags.split("|"));
  if (set.has("O_CREAT")) return "create";
  if (set.has("O_TRUNC")) return "truncate";
  if (set.has("O_WRONLY") || set.has("O_RDWR") || set.has("O_APPEND")) return "write";
  return null;
}

function mappedV4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

/** Internet socket addresses in a syscall's arguments (connect, sendto, sendmsg). */
export function socketAddresses(text: string): { host: string; port: number }[] {
  const out: { host: string; port: number }[] = [];
  const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/g;
  for (const m of text.matchAll(v4)) out.push({ host: decodeHex(m[2] as string), port: Number(m[1]) });
  const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/g;
  for (const m of text.matchAll(v6)) out.push({ host: mappedV4(decodeHex(m[2] as string)), port: Number(m[1]) });
  return out;
}

/** Unix socket addresses: `@name` for an abstract one, the path (as given) for the rest. */
export function unixAddresses(text: string): { address: string; abstract: boolean }[] {
  const out: { address: string; abstract: boolean }[] = [];
  for (const m of text.matchAll(/sa_family=AF_UNIX, sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/g)) {
    const name = decodeHex(m[2] as string);
    if (m[1] === "@") out.push({ address: `@${name}`, abstract: true });
    else if (name !== "") out.push({ address: name, abstract: false });
  }
  return out;
}
