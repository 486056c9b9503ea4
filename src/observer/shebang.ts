/**
 * A `#!` script's interpreter line, read as the kernel's binfmt_script reads it (Linux 5.1 and
 * later, fs/binfmt_script.c), and the argv the kernel starts the interpreter with. The strace
 * recorder derives an exec's canonical record from these (docs/formats.md, "exec"): the eBPF
 * recorder has the kernel's own account (bprm->file, the new image's argv), strace only the
 * file name and argv the caller gave.
 */

/** How much of a file the kernel reads to choose its handler (BINPRM_BUF_SIZE). */
export const BINPRM_BUF_SIZE = 256;

/** How many handlers the kernel runs for one exec before it refuses (ELOOP): exec_binprm's depth 0..5. */
export const MAX_INTERPRETER_DEPTH = 6;

export interface ShebangLine {
  /** The interpreter as written (bytes as latin1 would lose them: kept as UTF-8 text, as the log's paths are). */
  name: string;
  /** The one optional argument: everything after the name and its separating blanks, trailing blanks cut. */
  arg: string | null;
}

const spacetab = (c: number | undefined): boolean => c === 0x20 || c === 0x09;

function nextNonSpacetab(b: Uint8Array, first: number, last: number): number | null {
  for (let i = first; i <= last; i++) if (!spacetab(b[i])) return i;
  return null;
}

function nextTerminator(b: Uint8Array, first: number, last: number): number | null {
  for (let i = first; i <= last; i++) if (spacetab(b[i]) || b[i] === 0) return i;
  return null;
}

/** The bytes from `from` up to the first NUL before `to`, as text. */
function cString(b: Uint8Array, from: number, to: number): string {
  let end = from;
  while (end < to && b[end] !== 0) end++;
  return Buffer.from(b.subarray(from, end)).toString("utf8");
}

/**
 * The `#!` line of a file whose first bytes are `head` (BINPRM_BUF_SIZE of them, or all it has),
 * or null where the kernel would not run it as a script (no `#!`, no interpreter name, a name cut
 * by the buffer's end).
 */
export function parseShebang(head: Uint8Array): ShebangLine | null {
  if (head.length < 2 || head[0] !== 0x23 || head[1] !== 0x21) return null;
  // bprm->buf: zero past what the file holds.
  const b = new Uint8Array(BINPRM_BUF_SIZE + 1);
  b.set(head.subarray(0, BINPRM_BUF_SIZE));
  const bufEnd = BINPRM_BUF_SIZE - 1;
  // strnchr: the first newline before the first NUL.
  let iEnd = -1;
  for (let i = 0; i < BINPRM_BUF_SIZE && b[i] !== 0; i++) {
    if (b[i] === 0x0a) {
      iEnd = i;
      break;
    }
  }
  if (iEnd < 0) {
    const start = nextNonSpacetab(b, 2, bufEnd);
    if (start === null) return null;
    // No later blank or NUL: the interpreter's name may be cut; the kernel refuses it.
    if (nextTerminator(b, start, bufEnd) === null) return null;
    iEnd = bufEnd;
  }
  while (spacetab(b[iEnd - 1])) iEnd--;
  b[iEnd] = 0;
  const iName = nextNonSpacetab(b, 2, iEnd);
  if (iName === null || iName === iEnd) return null;
  const iSep = nextTerminator(b, iName, iEnd);
  let arg: string | null = null;
  if (iSep !== null && b[iSep] !== 0) {
    const iArg = nextNonSpacetab(b, iSep, iEnd);
    if (iArg !== null) arg = cString(b, iArg, iEnd);
  }
  return { name: cString(b, iName, iSep ?? iEnd), arg };
}

/**
 * What the kernel does with a file whose first bytes are `head`, as far as reading it can tell: an
 * ELF image runs itself; a `#!` line names its interpreter; anything else that an exec ran (a file
 * the reader may not read, a binfmt_misc handler's format, a line binfmt_script refuses) went to a
 * handler the bytes do not name. "gone": no file is there any more to read (removed, a memfd).
 */
export function execHandler(head: Uint8Array | null | undefined): ShebangLine | "elf" | "unknown" | "gone" {
  if (head === undefined) return "gone";
  if (head === null) return "unknown";
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return "elf";
  return parseShebang(head) ?? "unknown";
}

/**
 * The argv the kernel starts an interpreter with, one script level: the caller's argv[0] removed,
 * then the interpreter's name, its argument, and the script as the exec named it (`filename`: the
 * name given, or the previous level's interpreter as written) in front of the rest.
 */
export function interpreterArgv(line: ShebangLine, filename: string, rest: readonly string[]): string[] {
  return [line.name, ...(line.arg === null ? [] : [line.arg]), filename, ...rest];
}
