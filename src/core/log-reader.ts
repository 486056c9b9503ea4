/**
 * The observer log reader and gate evaluator: one streaming pass, memory bounded by the
 * number of distinct violations. Pure: the caller feeds bytes, this reads them as the format
 * (./log-format.ts) says and records what the rules (./rules.ts) say of each event.
 *
 * A log that cannot be fully read and checked never yields a verdict: every structural
 * problem throws a typed Refusal instead ("could not observe" never reads as "observed
 * nothing").
 */
import { isUtf8 } from "node:buffer";
import { Refusal } from "./errors.js";
import { foldPath } from "./paths.js";
import { formatEndpoint, normalizeHost } from "./hosts.js";
import type { Envelope, LoadedEnvelope } from "./envelope.js";
import { protectedFromMeta } from "./protected.js";
import {
  COMMON_FIELDS,
  EVENT_SOURCES,
  FIELD_NAMES,
  KIND_FIELDS,
  LOG_KINDS,
  LOG_VERSION,
  MAX_LINE_LENGTH,
  MISSING_TARGET_ERRNOS,
  PATH_UNKNOWN_REASON,
  WRITE_OPS,
  type FieldName,
} from "./log-format.js";
import {
  commandEntry,
  hostName,
  hostViaSet,
  isRunOwnLoopback,
  isRuntimeOwnRead,
  judgeEffect,
  judgeEnv,
  judgeExec,
  judgeHost,
  judgeSyscall,
  judgeTool,
  judgeWrite,
  ruleContext,
  type RuleContext,
  type ViolationRule,
  type WriteOutcome,
} from "./rules.js";
import type { EventSource } from "./log-format.js";

/** Slot of each field: a literal, so lookups are fast property loads; checked against FIELD_NAMES below. */
const SLOT = {
  v: 0,
  kind: 1,
  ts: 2,
  pid: 3,
  ppid: 4,
  source: 5,
  seq: 6,
  canary: 7,
  ok: 8,
  via: 9,
  path: 10,
  op: 11,
  name: 12,
  key: 13,
  host: 14,
  port: 15,
  proto: 16,
  argv: 17,
  cwd: 18,
  events: 19,
  exit_code: 20,
  signal: 21,
  errno: 22,
  jail_pid: 23,
  path_unknown: 24,
  bytes_in: 25,
  bytes_out: 26,
  interpreter: 27,
} as const satisfies Record<FieldName, number>;
FIELD_NAMES.forEach((f, i) => {
  if (SLOT[f] !== i) throw new Error(`SLOT out of step with FIELD_NAMES at ${f}`);
});
const SLOT_BY_NAME = new Map<string, number>(FIELD_NAMES.map((f, i) => [f, i]));
const bit = (f: FieldName): number => 1 << SLOT[f];
const bits = (fs: readonly FieldName[]): number => fs.reduce((m, f) => m | bit(f), 0);

/** Each event kind's own fields (KIND_FIELDS) as field names. */
const KIND_FIELD_NAMES: Record<string, { required: readonly FieldName[]; optional: readonly FieldName[] }> = KIND_FIELDS;

const KIND_MASKS = new Map(
  Object.entries(KIND_FIELD_NAMES).map(([kind, spec]) => [
    kind,
    { required: bits(spec.required), allowed: bits([...COMMON_FIELDS, ...spec.required, ...spec.optional]), spec },
  ]),
);

/**
 * Each field name with its closing quote, and the slots its first two of those bytes name (at most
 * two fields share them: `path`, `path_unknown`): a key is a field when its bytes equal that name,
 * so keys are never scanned on their own. Built from FIELD_NAMES.
 */
const QUOTED_FIELD_BYTES = FIELD_NAMES.map((f) => Buffer.from(`${f}"`, "latin1"));
const SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
const SECOND_SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
QUOTED_FIELD_BYTES.forEach((q, i) => {
  const pair = ((q[0] as number) << 8) | (q[1] as number);
  if (SLOT_BY_KEY_PAIR[pair] === -1) SLOT_BY_KEY_PAIR[pair] = i;
  else if (SECOND_SLOT_BY_KEY_PAIR[pair] === -1) SECOND_SLOT_BY_KEY_PAIR[pair] = i;
  else throw new Error(`three fields start with the same bytes: ${FIELD_NAMES[i]}`);
});

/** Whether the key bytes at `at` (after its opening quote) are the quoted field name `quoted`. */
function keyIs(buf: Buffer, at: number, to: number, quoted: Buffer): boolean {
  const keyLen = quoted.length;
  if (at + keyLen >= to) return false;
  for (let j = 2; j < keyLen; j++) if (quoted[j] !== buf[at + j]) return false;
  return true;
}

/** Constant strings matched by bytes, so the hot path allocates nothing for them. */
class ByteConstants {
  private readonly bytes: Buffer[];
  constructor(readonly names: readonly string[]) {
    this.bytes = names.map((n) => Buffer.from(n, "utf8"));
  }
  match(buf: Buffer, start: number, end: number): string | undefined {
    const len = end - start;
    for (let c = 0; c < this.bytes.length; c++) {
      const b = this.bytes[c] as Buffer;
      if (b.length !== len || b[0] !== buf[start]) continue;
      let j = 1;
      while (j < len && b[j] === buf[start + j]) j++;
      if (j === len) return this.names[c];
    }
    return undefined;
  }
}

const KINDS = new ByteConstants(LOG_KINDS);
/** KIND_MASKS by the kind's place in KINDS: an array read instead of a Map lookup per line. */
const KIND_SPECS = KINDS.names.map((k) => KIND_MASKS.get(k));
const WRITE_OP_CONSTANTS = new ByteConstants([...WRITE_OPS]);
const SOURCE_CONSTANTS = new ByteConstants([...EVENT_SOURCES]);
const ERRNO_CONSTANTS = new ByteConstants([...MISSING_TARGET_ERRNOS]);

const T_STR = 1;
const T_NUM = 2;
const T_TRUE = 3;
const T_FALSE = 4;
const T_NULL = 5;
/** A non-empty array of plain strings (no escapes), such as exec's argv. */
const T_STR_ARRAY = 6;

export interface Violation {
  id: string;
  rule: ViolationRule;
  subject: string;
  first_line: number;
  count: number;
}

interface LogMeta {
  run_id: string;
  envelope_hash: string;
  runner: string;
  started_at: string;
  /** Everything else the observer said about itself (coverage, enforcement). Never judged. */
  extra: Record<string, unknown>;
}

interface KindCounts {
  write: number;
  tool: number;
  env: number;
  host: number;
  exec: number;
  syscall: number;
  canary: number;
}

export interface LogVerdict {
  verdict: "pass" | "envelope_fail";
  envelope_id: string;
  envelope_hash: string;
  /** Events between `meta` and `end`. */
  events: number;
  violations: Violation[];
  meta: LogMeta;
  exit_code: number | null;
  counts: KindCounts;
  /** Hosts allowed only through a host set (`@npm`), each once, in the order first seen: `registry.npmjs.org:443` via `@npm`. */
  via_sets: HostViaSet[];
}

/** A host the check allowed through a named set rather than an entry written out. */
interface HostViaSet {
  host: string;
  set: string;
}

export interface EvaluatorOptions {
  /**
   * Folded allowed roots (see expandRoots), or how to get them from the log's meta line (a log
   * read against its own run's workspace and scratch, as `suggest` and the footprint read it).
   */
  roots: readonly string[] | ((meta: Readonly<Json>) => readonly string[]);
  /** Name of the log in messages. */
  file: string;
  /**
   * Each event the run made (never a canary), as the rules name it and with their verdict under
   * this envelope, in the log's order: the walk `suggest`, the footprint, the audit summary and
   * the envelope proposal read (walkLog). Without it, `check` skips what it need not build.
   */
  sink?: ((event: WalkedEvent) => void) | undefined;
  /**
   * The log may have been recorded under another envelope (it is learnt from or described, not
   * judged): its meta's envelope_hash and its observers are not held against this envelope
   * (OBSERVER_LOG_ENVELOPE_MISMATCH, OBSERVATION_PARTIAL). Everything that makes a log a log is.
   */
  anyEnvelope?: boolean | undefined;
}

/** Where an event stands in its log, and which process made it (as the line says). */
interface EventAt {
  /** 1-based line number in the log. */
  line: number;
  pid: number | undefined;
  ppid: unknown;
  source: EventSource | undefined;
  /**
   * What the event is named by, as the rules name it: a write's folded path (roots are folded too), an env key, a tool's
   * name, a host's endpoint, a command's entry, a system call's name.
   */
  subject: string;
}

/**
 * One event of a run, normalised as the rules read it, with the rules' verdict under the
 * envelope the walk was made under (null: allowed).
 */
export type WalkedEvent = EventAt &
  (
    | {
        kind: "write";
        op: string;
        /** `effect`: the wrapper's look at the filesystem (`"source": "effects"`). */
        outcome: WriteOutcome | "effect";
        verdict: "write_outside_root" | "write_protected" | null;
      }
    | {
        kind: "env";
        op: unknown;
        /** The Node runtime's own read of its own key (isRuntimeOwnRead). */
        runtime: boolean;
        verdict: "undeclared_env" | null;
      }
    | { kind: "tool"; verdict: "undeclared_tool" | null }
    | {
        kind: "host";
        /** As the rules compare it (hostName). */
        host: string;
        port: number | null;
        /** The name an entry allows it by: the name the process's hooks connected by (`via`), else `host`. */
        name: string;
        /** Loopback inside the run's own network namespace: the run's own, never judged (a container engine's port always is). */
        ownLoopback: boolean;
        /** The host set alone that allowed it (hostViaSet), or null. */
        viaSet: string | null;
        verdict: "docker_refused" | "network_denied" | "undeclared_host" | null;
      }
    | {
        kind: "exec";
        /** Folded. */
        path: string;
        argv: string[];
        jailPid: number | undefined;
        /**
         * A `#!` script's line gives two events: the script's, then its interpreter's (`interprets`:
         * the script's folded path), named and judged as a command of its own, by its path.
         */
        interprets?: string;
        verdict: "undeclared_command" | null;
      }
    | { kind: "syscall"; verdict: "forbidden_syscall" }
  );

/** A recorded log as its bytes, named `file` in messages. */
export interface RecordedLog {
  file: string;
  bytes: Uint8Array;
}

/** A log walked under one envelope: its meta line, its events, how its command ended, and check's verdict. */
export interface WalkedLog {
  file: string;
  meta: Readonly<Json>;
  events: WalkedEvent[];
  exitCode: number | null;
  verdict: LogVerdict;
}

/** What a walk judges by when no envelope is at hand (a footprint): nothing allowed, no network. */
const NOTHING_ALLOWED: Envelope = {
  envelope_id: "nothing-allowed",
  allowed_roots: [],
  allowed_tools: [],
  allowed_env: [],
  allowed_hosts: [],
  network: "deny",
};

/**
 * The one walk of a log for everything that is not `check`'s verdict: the log read by the same
 * reader `check` uses (a log `check` refuses is refused here, with the same code), each event
 * handed on normalised with the rules' verdict under `envelope` (NOTHING_ALLOWED when null).
 */
export function walkLog(log: RecordedLog, envelope: Envelope | null, roots: EvaluatorOptions["roots"] = () => []): WalkedLog {
  const events: WalkedEvent[] = [];
  const loaded: LoadedEnvelope = {
    envelope: envelope ?? NOTHING_ALLOWED,
    hash: "sha256:walked",
    file: log.file,
    lines: new Map(),
  };
  const evaluator = new LogEvaluator(loaded, { file: log.file, roots, sink: (e) => events.push(e), anyEnvelope: true });
  evaluator.push(log.bytes);
  const verdict = evaluator.finish();
  return { file: log.file, meta: evaluator.metaLine() as Json, events, exitCode: verdict.exit_code, verdict };
}

/**
 * The events between meta and end that a log's last line says it has (its `events` counts meta
 * too), or null when that line is not an end line. For a log no walk has judged (a run's result
 * file); it says nothing of whether the log is whole.
 */
export function endLineEvents(line: string): number | null {
  let end: unknown;
  try {
    end = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof end !== "object" || end === null) return null;
  const { kind, events } = end as { kind?: unknown; events?: unknown };
  return kind === "end" && typeof events === "number" && Number.isInteger(events) && events >= 1 ? events - 1 : null;
}

function isEscapedQuote(line: string, quoteIndex: number): boolean {
  let backslashes = 0;
  for (let i = quoteIndex - 1; i >= 0 && line.charCodeAt(i) === 0x5c; i--) backslashes++;
  return (backslashes & 1) === 1;
}

/**
 * Counts the keys of the outermost object. JSON.parse keeps the last of two equal keys, so
 * comparing this with Object.keys finds duplicates without a second full parse.
 */
function countTopLevelKeys(line: string): number {
  let depth = 0;
  let keys = 0;
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === 0x22) {
      let j = line.indexOf('"', i + 1);
      while (j !== -1 && isEscapedQuote(line, j)) j = line.indexOf('"', j + 1);
      if (j === -1) return -1;
      i = j + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && depth === 1) keys++;
    i++;
  }
  return keys;
}

const STRING_QUOTE = 1;
const STRING_STOP = 2;
const STRING_HIGH = 3;
/** What each byte is inside a plain string: 0 for printable ASCII. */
const STRING_BYTE = new Uint8Array(256).map((_, x) =>
  x === 0x22 ? STRING_QUOTE : x === 0x5c || x < 0x20 ? STRING_STOP : x >= 0x80 ? STRING_HIGH : 0,
);

/**
 * The index of the quote closing a string that starts at `from` and has no escapes or control
 * characters, or -1 when there is none before `to` (the strict path then decides). Whether the
 * string held only ASCII is written to `ascii[slot]` (1 or 0) when it ends.
 */
function plainStringEnd(buf: Buffer, from: number, to: number, ascii: Uint8Array, slot: number): number {
  let high = 0;
  for (let j = from; j < to; j++) {
    const x = buf[j] as number;
    const k = STRING_BYTE[x] as number;
    if (k === 0) continue;
    if (k === STRING_QUOTE) {
      ascii[slot] = high === 0 ? 1 : 0;
      return j;
    }
    if (k === STRING_STOP) return -1;
    high = 1;
  }
  return -1;
}

const TAIL_NEEDS_FOLDING = 1;
const TAIL_HAS_GIT = 2;

/**
 * Whether the path bytes from `from` (a `/`) to `to` hold an empty, `.` or `..` segment (see
 * foldPath): TAIL_NEEDS_FOLDING; otherwise TAIL_HAS_GIT when they hold `/.git`.
 */
function scanPathTail(buf: Buffer, from: number, to: number): number {
  let flags = 0;
  for (let j = from; j < to - 1; j++) {
    if (buf[j] !== 0x2f) continue;
    const a = buf[j + 1];
    if (a === 0x2f) return TAIL_NEEDS_FOLDING;
    if (a === 0x2e) {
      const b = j + 2 < to ? buf[j + 2] : 0x2f;
      if (b === 0x2f) return TAIL_NEEDS_FOLDING;
      if (b === 0x2e && (j + 3 >= to || buf[j + 3] === 0x2f)) return TAIL_NEEDS_FOLDING;
      if (b === 0x67 && j + 4 < to && buf[j + 3] === 0x69 && buf[j + 4] === 0x74) flags = TAIL_HAS_GIT;
    }
  }
  return flags;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x80) continue;
    const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const cb = bytes[i + k];
      if (cb === undefined) return i;
      if ((cb & 0xc0) !== 0x80) return i;
    }
    i += need;
  }
  return bytes.length;
}

type Json = Record<string, unknown>;

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Judges an observer log as it streams past. Lines in the compact form the observer writes
 * are read straight from the bytes without building objects; any other line (escapes, white
 * space, arrays) takes the strict JSON.parse path. Both paths apply the same rules.
 */
export class LogEvaluator {
  /** What the rules judge by: the envelope's, and the run's once its meta line is read. */
  private rules: RuleContext;
  private rootBytes: Buffer[] = [];
  private rootHasGit: boolean[] = [];
  private anyRoot = false;
  /** Allowed tool names and exact env keys, matched on the line's bytes so an allowed one needs no string. */
  private readonly toolBytes: ByteConstants;
  private readonly envExactBytes: ByteConstants;
  private readonly hostSets: boolean;
  /** Endpoint -> set, for hosts allowed through a set (bounded by the sets' sizes: their members are exact). */
  private readonly viaSets = new Map<string, string>();
  private readonly file: string;
  private readonly envelope: LoadedEnvelope;
  private readonly sink: ((event: WalkedEvent) => void) | null;
  private readonly anyEnvelope: boolean;
  private readonly rootsOf: ((meta: Readonly<Json>) => readonly string[]) | null;
  private metaObject: Json | null = null;

  private carry: Buffer | null = null;
  private lineNo = 0;
  private meta: LogMeta | null = null;
  private endSeen = false;
  private endExit: number | null = null;
  private useSeq = false;
  private canaryBlockOpen = true;
  private logPathBytes: Buffer | null = null;
  /** Fast-path pre-filter (see mayBeProtected): the protected paths' bytes. */
  private protectedPathBytes: Buffer[] = [];
  /** Set by writeInsideFast when it returns true: the path holds a `/.git`. */
  private pathHasGit = false;
  private readonly violations = new Map<string, Violation>();
  private readonly counts: KindCounts = { write: 0, tool: 0, env: 0, host: 0, exec: 0, syscall: 0, canary: 0 };

  /** The current line: which fields it has, and where (fast path) or what (full path) they are. */
  private buf: Buffer = Buffer.alloc(0);
  private mask = 0;
  private slow = false;
  private readonly vals: unknown[] = new Array(FIELD_NAMES.length).fill(undefined);
  private readonly tag = new Uint8Array(FIELD_NAMES.length);
  private readonly start = new Int32Array(FIELD_NAMES.length);
  private readonly end = new Int32Array(FIELD_NAMES.length);
  private readonly ascii = new Uint8Array(FIELD_NAMES.length);
  private readonly num = new Float64Array(FIELD_NAMES.length);

  constructor(envelope: LoadedEnvelope, options: EvaluatorOptions) {
    const e = envelope.envelope;
    this.envelope = envelope;
    this.file = options.file;
    this.sink = options.sink ?? null;
    this.anyEnvelope = options.anyEnvelope === true;
    const roots = typeof options.roots === "function" ? [] : options.roots;
    this.rootsOf = typeof options.roots === "function" ? options.roots : null;
    this.rules = ruleContext(e, roots);
    this.setRoots(roots);
    // Only names requireString accepts: a match then skips nothing it would have refused.
    const plain = (n: string): boolean => n !== "" && !n.includes("\u0000");
    this.toolBytes = new ByteConstants(e.allowed_tools.filter(plain));
    this.envExactBytes = new ByteConstants(e.allowed_env.filter((k) => plain(k) && !k.endsWith("*") && !k.startsWith("@")));
    this.hostSets = this.rules.hosts.some((h) => h.set !== undefined);
  }

  private setRoots(roots: readonly string[]): void {
    this.rules = { ...this.rules, roots };
    this.rootBytes = roots.map((r) => Buffer.from(r, "utf8"));
    this.rootHasGit = roots.map((r) => r.includes("/.git"));
    this.anyRoot = roots.includes("/");
  }

  /** The log's meta line as read, once it has been. */
  metaLine(): Readonly<Json> | null {
    return this.metaObject;
  }

  /** Where the current line stands, for the walk. */
  private at(subject: string): EventAt {
    const pid = this.val(SLOT.pid);
    const source = this.constant(SLOT.source, SOURCE_CONSTANTS) as EventSource | undefined;
    return { line: this.lineNo, pid: typeof pid === "number" ? pid : undefined, ppid: this.val(SLOT.ppid), source, subject };
  }

  private malformed(message: string, line = this.lineNo): never {
    throw new Refusal("OBSERVER_LOG_MALFORMED", `${this.file}:${line}: ${message}`, {
      file: this.file,
      line,
      hint: "The observer log is written only by `envelope-gate run`; a log that was edited or produced by something else is refused.",
    });
  }

  private incomplete(message: string, line = this.lineNo): never {
    throw new Refusal("OBSERVER_LOG_INCOMPLETE", `${this.file}:${line}: ${message}`, {
      file: this.file,
      line,
      hint: "The run did not finish under the observer (killed, crashed, or the log was cut). Run it again; an incomplete log never passes.",
    });
  }

  private checkUtf8(buf: Buffer, from: number, to: number): void {
    if (to > from && !isUtf8(buf.subarray(from, to))) {
      const region = buf.subarray(from, to);
      const bad = firstInvalidUtf8(region);
      let line = this.lineNo + 1;
      for (let i = 0; i < bad; i++) if (region[i] === 0x0a) line++;
      this.malformed("invalid UTF-8", line);
    }
  }

  /** Feeds the next bytes of the log. Throws a Refusal at the first problem. The chunk may be reused afterwards. */
  push(chunk: Uint8Array): void {
    const buf = asBuffer(chunk);
    let pos = 0;
    if (this.carry !== null) {
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        this.carry = Buffer.concat([this.carry, buf]);
        if (this.carry.length > MAX_LINE_LENGTH) this.malformed(`line longer than ${MAX_LINE_LENGTH} bytes`, this.lineNo + 1);
        return;
      }
      const line = Buffer.concat([this.carry, buf.subarray(0, nl)]);
      this.carry = null;
      if (line.length > MAX_LINE_LENGTH) this.malformed(`line longer than ${MAX_LINE_LENGTH} bytes`, this.lineNo + 1);
      this.checkUtf8(line, 0, line.length);
      this.lineNo++;
      this.handleLine(line, 0, line.length);
      pos = nl + 1;
    }
    const lastNl = buf.lastIndexOf(0x0a);
    if (lastNl >= pos) {
      this.checkUtf8(buf, pos, lastNl);
      while (pos <= lastNl) {
        const nl = buf.indexOf(0x0a, pos);
        this.lineNo++;
        if (nl - pos > MAX_LINE_LENGTH) this.malformed(`line longer than ${MAX_LINE_LENGTH} bytes`);
        this.handleLine(buf, pos, nl);
        pos = nl + 1;
      }
    }
    if (pos < buf.length) {
      this.carry = Buffer.from(buf.subarray(pos));
      if (this.carry.length > MAX_LINE_LENGTH) this.malformed(`line longer than ${MAX_LINE_LENGTH} bytes`, this.lineNo + 1);
    }
  }

  /** Ends the stream and returns the verdict, or throws if the log is not whole. */
  finish(): LogVerdict {
    if (this.carry !== null && this.carry.length > 0) {
      this.incomplete("the last line is truncated (no newline)", this.lineNo + 1);
    }
    if (this.meta === null) this.incomplete("the log is empty: no meta line", 1);
    if (!this.endSeen) this.incomplete("the log has no end line", this.lineNo);
    const violations = [...this.violations.values()].sort((a, b) => a.first_line - b.first_line);
    return {
      verdict: violations.length === 0 ? "pass" : "envelope_fail",
      envelope_id: this.envelope.envelope.envelope_id,
      envelope_hash: this.envelope.hash,
      events: this.lineNo - 2,
      violations,
      meta: this.meta,
      exit_code: this.endExit,
      counts: { ...this.counts },
      via_sets: [...this.viaSets].map(([host, set]) => ({ host, set })),
    };
  }

  private handleLine(buf: Buffer, from: number, to: number): void {
    const end = to > from && buf[to - 1] === 0x0d ? to - 1 : to;
    if (this.endSeen) this.malformed("content after the end line");
    if (this.lineNo === 1) {
      if (end - from >= 3 && buf[from] === 0xef && buf[from + 1] === 0xbb && buf[from + 2] === 0xbf) {
        this.malformed("the log starts with a byte order mark");
      }
      this.readMeta(this.parseObject(buf.toString("utf8", from, end)));
      return;
    }
    this.buf = buf;
    let mask = this.scanFlat(buf, from, end);
    if (mask === -1) {
      this.slow = true;
      mask = this.slotsFromParsed(this.parseObject(buf.toString("utf8", from, end)));
    } else {
      this.slow = false;
    }
    this.mask = mask;
    this.handleEvent();
  }

  /**
   * Reads the compact flat objects the observer writes (`{"k":"v","n":1,...}`: no white space,
   * no escapes, no nesting) straight from the bytes into slots. Returns the field mask, or -1
   * when the line needs the full JSON path, which then decides whether it is valid at all.
   */
  private scanFlat(buf: Buffer, from: number, to: number): number {
    if (to - from < 2 || buf[from] !== 0x7b || buf[to - 1] !== 0x7d) return -1;
    if (to - from === 2) return 0;
    const { tag, start, end, ascii, num } = this;
    let mask = 0;
    let i = from + 1;
    for (;;) {
      if (buf[i] !== 0x22) return -1;
      if (i + 2 >= to) return -1;
      const pair = ((buf[i + 1] as number) << 8) | (buf[i + 2] as number);
      let slot = SLOT_BY_KEY_PAIR[pair] as number;
      if (slot < 0) return -1;
      if (!keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot] as Buffer)) {
        slot = SECOND_SLOT_BY_KEY_PAIR[pair] as number;
        if (slot < 0 || !keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot] as Buffer)) return -1;
      }
      const keyLen = (QUOTED_FIELD_BYTES[slot] as Buffer).length;
      const b = 1 << slot;
      if ((mask & b) !== 0) return -1;
      i += 1 + keyLen;
      if (buf[i] !== 0x3a) return -1;
      i++;
      const c = buf[i] as number;
      if (c === 0x22) {
        const j = plainStringEnd(buf, i + 1, to, ascii, slot);
        if (j < 0) return -1;
        tag[slot] = T_STR;
        start[slot] = i + 1;
        end[slot] = j;
        i = j + 1;
      } else if (c === 0x5b && buf[i + 1] === 0x22) {
        // A flat array of plain strings; val() parses it when asked.
        let j = i + 1;
        for (;;) {
          if (buf[j] !== 0x22) return -1;
          // An array's strings are read again by val(), which needs no ASCII flag.
          j = plainStringEnd(buf, j + 1, to, ascii, slot);
          if (j < 0) return -1;
          j++;
          if (buf[j] === 0x2c) {
            j++;
            continue;
          }
          if (buf[j] === 0x5d) break;
          return -1;
        }
        tag[slot] = T_STR_ARRAY;
        start[slot] = i;
        end[slot] = j + 1;
        i = j + 1;
      } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
        let j = c === 0x2d ? i + 1 : i;
        const digitsStart = j;
        let value = 0;
        while (j < to) {
          const d = buf[j] as number;
          if (d < 0x30 || d > 0x39) break;
          value = value * 10 + (d - 0x30);
          j++;
        }
        const digits = j - digitsStart;
        if (digits === 0 || digits > 15) return -1;
        if (digits > 1 && buf[digitsStart] === 0x30) return -1;
        const next = buf[j];
        if (next === 0x2e || next === 0x65 || next === 0x45) return -1;
        tag[slot] = T_NUM;
        num[slot] = c === 0x2d ? -value : value;
        i = j;
      } else if (c === 0x74 && buf[i + 1] === 0x72 && buf[i + 2] === 0x75 && buf[i + 3] === 0x65) {
        tag[slot] = T_TRUE;
        i += 4;
      } else if (c === 0x66 && buf[i + 1] === 0x61 && buf[i + 2] === 0x6c && buf[i + 3] === 0x73 && buf[i + 4] === 0x65) {
        tag[slot] = T_FALSE;
        i += 5;
      } else if (c === 0x6e && buf[i + 1] === 0x75 && buf[i + 2] === 0x6c && buf[i + 3] === 0x6c) {
        tag[slot] = T_NULL;
        i += 4;
      } else {
        return -1;
      }
      mask |= b;
      const sep = buf[i];
      if (sep === 0x2c) {
        i++;
        continue;
      }
      return sep === 0x7d && i === to - 1 ? mask : -1;
    }
  }

  /** The full, strict path: JSON.parse, then a duplicate-key check JSON.parse cannot do. */
  private parseObject(line: string): Json {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      if (line.trim() === "") this.malformed("empty line");
      this.malformed(`not JSON (${(err as Error).message})`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.malformed("each line must be a JSON object");
    }
    if (countTopLevelKeys(line) !== Object.keys(parsed).length) this.malformed("duplicate key in the object");
    return parsed as Json;
  }

  private slotsFromParsed(obj: Json): number {
    let mask = 0;
    for (const key of Object.keys(obj)) {
      const slot = SLOT_BY_NAME.get(key);
      if (slot === undefined) {
        if (obj.kind === "meta") this.malformed("a second meta line");
        this.malformed(`unknown field "${key}" on a ${typeof obj.kind === "string" ? obj.kind : "line"} event`);
      }
      this.vals[slot] = obj[key];
      mask |= 1 << slot;
    }
    return mask;
  }

  private has(slot: number): boolean {
    return (this.mask & (1 << slot)) !== 0;
  }

  /** A field's value as JSON would give it, or undefined when the line lacks it. */
  private val(slot: number): unknown {
    if ((this.mask & (1 << slot)) === 0) return undefined;
    if (this.slow) return this.vals[slot];
    switch (this.tag[slot]) {
      case T_STR:
        return this.buf.toString(this.ascii[slot] === 1 ? "latin1" : "utf8", this.start[slot], this.end[slot]);
      case T_NUM:
        return this.num[slot];
      case T_TRUE:
        return true;
      case T_FALSE:
        return false;
      case T_STR_ARRAY:
        return JSON.parse(this.buf.toString("utf8", this.start[slot], this.end[slot])) as unknown;
      default:
        return null;
    }
  }

  /** A string field matched against known constants without allocating; undefined when it is none of them. */
  private constant(slot: number, constants: ByteConstants): string | undefined {
    if ((this.mask & (1 << slot)) === 0) return undefined;
    if (this.slow) {
      const v = this.vals[slot];
      return typeof v === "string" && constants.names.includes(v) ? v : undefined;
    }
    if (this.tag[slot] !== T_STR) return undefined;
    return constants.match(this.buf, this.start[slot] as number, this.end[slot] as number);
  }

  private isNumber(slot: number, expected: number): boolean {
    if (this.slow) return this.vals[slot] === expected;
    return this.tag[slot] === T_NUM && this.num[slot] === expected && (this.mask & (1 << slot)) !== 0;
  }

  private handleEvent(): void {
    if (!this.isNumber(SLOT.v, LOG_VERSION)) this.malformed(`"v" must be ${LOG_VERSION}`);
    const kind = this.constant(SLOT.kind, KINDS);
    if (kind === undefined) {
      const raw = this.val(SLOT.kind);
      if (typeof raw !== "string") this.malformed(`"kind" must be a string`);
      this.malformed(`unknown kind "${raw}"`);
    }
    if (kind === "meta") this.malformed("a second meta line");
    const spec = KIND_SPECS[KINDS.names.indexOf(kind)];
    if (spec === undefined) this.malformed(`unknown kind "${kind}"`);
    const unknown = this.mask & ~spec.allowed;
    if (unknown !== 0) this.malformed(`unknown field "${FIELD_NAMES[31 - Math.clz32(unknown & -unknown)]}" on a ${kind} event`);
    if ((this.mask & spec.required) !== spec.required) {
      const missing = spec.spec.required.find((f) => !this.has(SLOT[f]));
      this.malformed(`a ${kind} event needs "${missing}"`);
    }
    this.checkCommon();
    // The wrapper's look at the filesystem (src/core/effects.ts) records writes only, never in the self-check.
    if (kind !== "write" && this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
      this.malformed(`"source": "effects" is only on write events`);
    }
    if (this.has(SLOT.canary) && this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
      this.malformed(`"source": "effects" is never a canary event`);
    }

    if (kind === "end") {
      this.readEnd();
      return;
    }

    const canary = this.has(SLOT.canary);
    if (canary) {
      if (!this.canaryBlockOpen) this.malformed("a canary event after the self-check block");
      this.counts.canary++;
    } else {
      this.canaryBlockOpen = false;
    }

    switch (kind) {
      case "write":
        this.onWrite(canary);
        break;
      case "tool":
        this.onTool(canary);
        break;
      case "env":
        this.onEnv(canary);
        break;
      case "host":
        this.onHost(canary);
        break;
      case "exec":
        this.onExec(canary);
        break;
      case "syscall":
        this.onSyscall(canary);
        break;
    }
  }

  private checkCommon(): void {
    if (this.useSeq) {
      if (!this.has(SLOT.seq) || !this.isNumber(SLOT.seq, this.lineNo - 1)) {
        this.malformed(`"seq" must be ${this.lineNo - 1} (events out of sequence)`);
      }
    } else if (this.has(SLOT.seq)) {
      this.malformed(`"seq" appears, but the meta line has none`);
    }
    if (this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === undefined) {
      this.malformed(`"source" must be one of ${[...EVENT_SOURCES].join(", ")}`);
    }
    if (this.has(SLOT.canary) && this.val(SLOT.canary) !== true) this.malformed(`"canary" may only be true`);
    if (this.has(SLOT.pid) && !Number.isInteger(this.val(SLOT.pid))) this.malformed(`"pid" must be an integer`);
  }

  private readMeta(obj: Json): void {
    if (obj.v !== LOG_VERSION) this.malformed(`"v" must be ${LOG_VERSION}`);
    if (obj.kind !== "meta") this.incomplete("the first line must be the meta line");
    const field = (name: string): string => {
      const value = obj[name];
      if (typeof value !== "string" || value === "") this.malformed(`meta needs a non-empty string "${name}"`);
      return value;
    };
    const meta: LogMeta = {
      run_id: field("run_id"),
      envelope_hash: field("envelope_hash"),
      runner: field("runner"),
      started_at: field("started_at"),
      extra: {},
    };
    for (const [k, v] of Object.entries(obj)) {
      if (!["v", "kind", "run_id", "envelope_hash", "runner", "started_at", "seq"].includes(k)) meta.extra[k] = v;
    }
    if ("seq" in obj) {
      if (obj.seq !== 0) this.malformed(`meta "seq" must be 0`);
      this.useSeq = true;
    }
    this.checkObservers(obj.observers);
    if (this.rootsOf !== null) this.setRoots(this.rootsOf(obj));
    this.checkWithheld(obj.withheld);
    this.checkRecorder(obj.recorder);
    this.checkReleaseName(obj.envelope_gate);
    const protectedSet = protectedFromMeta(obj.protected, obj.workspace, obj.scratch);
    if (typeof protectedSet === "string") this.malformed(protectedSet, 1);
    this.protectedPathBytes = protectedSet.paths.map((p) => Buffer.from(p, "utf8"));
    const logPath = typeof obj.log_path === "string" ? foldPath(obj.log_path) : null;
    this.logPathBytes = logPath === null ? null : Buffer.from(logPath, "utf8");
    this.rules = { ...this.rules, logPath, protectedSet, ownNetwork: obj.network_enforced === true };
    this.metaObject = obj;
    if (meta.envelope_hash !== this.envelope.hash && !this.anyEnvelope) {
      throw new Refusal(
        "OBSERVER_LOG_ENVELOPE_MISMATCH",
        `${this.file}:1: the log was recorded under ${meta.envelope_hash}, but the checked envelope is ${this.envelope.hash}`,
        {
          file: this.file,
          line: 1,
          hint: "Check the log against the envelope it was recorded under, or record it again under this envelope.",
        },
      );
    }
    this.meta = meta;
  }

  /** `meta.recorder` (optional): `{"name": "ebpf" | "strace", "fallback"?: "<why the eBPF recorder did not run>"}`. */
  private checkRecorder(recorder: unknown): void {
    if (recorder === undefined) return;
    const ok =
      typeof recorder === "object" &&
      recorder !== null &&
      !Array.isArray(recorder) &&
      Object.keys(recorder).every((k) => k === "name" || k === "fallback") &&
      ((recorder as Json).name === "ebpf" || (recorder as Json).name === "strace") &&
      ((recorder as Json).fallback === undefined ||
        ((recorder as Json).name === "strace" && typeof (recorder as Json).fallback === "string" && (recorder as Json).fallback !== ""));
    if (!ok) this.malformed(`meta "recorder" must be {"name": "ebpf" or "strace", "fallback"?: a non-empty reason (strace only)}`, 1);
  }

  /** `meta.envelope_gate` (optional): the release that recorded the log, a semantic version without a "v". */
  private checkReleaseName(release: unknown): void {
    if (release === undefined) return;
    if (typeof release !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(release)) {
      this.malformed(`meta "envelope_gate" must be the release that recorded the log, a version such as "1.0.0"`, 1);
    }
  }

  /** `meta.withheld` (optional): the caller's environment keys the run did not pass, names only. */
  private checkWithheld(withheld: unknown): void {
    if (withheld === undefined) return;
    if (
      !Array.isArray(withheld) ||
      !withheld.every((k) => typeof k === "string" && k !== "" && !k.includes("=")) ||
      new Set(withheld).size !== withheld.length
    ) {
      this.malformed(`meta "withheld" must be an array of distinct environment key names`, 1);
    }
  }

  /**
   * Observation is policy: a log without the process-level observer passes only when the
   * hash-pinned envelope itself allows it (`"observation": "node"`). A flag on the runner never does.
   */
  private checkObservers(observers: unknown): void {
    if (!Array.isArray(observers) || observers.length === 0 || !observers.every((o) => o === "node" || o === "process")) {
      this.malformed(`meta needs "observers": a non-empty array of "node" and "process"`, 1);
    }
    if (observers.includes("process") || this.anyEnvelope) return;
    if (this.envelope.envelope.observation === "node" && observers.includes("node")) return;
    throw new Refusal(
      "OBSERVATION_PARTIAL",
      `${this.file}:1: the log was recorded with only ${JSON.stringify(observers)} observing: the process-level observer did not run, so nothing outside Node was seen`,
      {
        file: this.file,
        line: 1,
        hint: 'Record the run under full observation (without --node-only). An envelope that accepts Node-only observation says so itself: "observation": "node".',
      },
    );
  }

  private readEnd(): void {
    const events = this.val(SLOT.events);
    if (!Number.isInteger(events)) this.malformed(`end "events" must be an integer`);
    const exit = this.val(SLOT.exit_code);
    if (exit !== null && !Number.isInteger(exit)) this.malformed(`end "exit_code" must be an integer or null`);
    if (events !== this.lineNo - 1) {
      this.incomplete(`end says ${String(events)} lines came before it, but ${this.lineNo - 1} did`);
    }
    this.endSeen = true;
    this.endExit = exit as number | null;
  }

  private record(rule: ViolationRule, subject: string): void {
    const id = `${rule}:${subject}`;
    const existing = this.violations.get(id);
    if (existing) {
      existing.count++;
    } else {
      this.violations.set(id, { id, rule, subject, first_line: this.lineNo, count: 1 });
    }
  }

  private requireString(slot: number): string {
    const value = this.val(slot);
    if (typeof value !== "string" || value === "") this.malformed(`"${FIELD_NAMES[slot]}" must be a non-empty string`);
    if (value.includes("\u0000")) this.malformed(`"${FIELD_NAMES[slot]}" contains a NUL character`);
    return value;
  }

  /** Records what `rule` says of this line, if anything. */
  private judged(rule: ViolationRule | null, subject: string): void {
    if (rule !== null) this.record(rule, subject);
  }

  private writePath(): string {
    const folded = foldPath(this.requireString(SLOT.path));
    if (folded === null) this.malformed(`write "path" must be absolute`);
    return folded;
  }

  private onWrite(canary: boolean): void {
    this.counts.write++;
    if (this.constant(SLOT.op, WRITE_OP_CONSTANTS) === undefined) {
      this.malformed(`write "op" must be one of ${[...WRITE_OPS].join(", ")}`);
    }
    if (this.has(SLOT.path_unknown)) this.pathUnknown();
    if (this.constant(SLOT.source, SOURCE_CONSTANTS) === "effects") {
      this.onEffect();
      return;
    }
    if (this.has(SLOT.errno)) {
      this.checkMissingTarget();
      this.judgeWriteLine("missing_target", canary);
      return;
    }
    if (this.has(SLOT.ok) && this.val(SLOT.ok) === false) {
      this.judgeWriteLine("refused", canary);
      return;
    }
    if (!this.slow && this.tag[SLOT.path] === T_STR) {
      const from = this.start[SLOT.path] as number;
      const to = this.end[SLOT.path] as number;
      // The path as the bytes give it is folded already when this says where it is.
      const inside = this.writeInsideFast(from, to);
      if (inside !== undefined) {
        if (canary) return;
        const plain = inside && !this.mayBeProtected(from, to);
        if (plain && this.sink === null) return;
        const path = this.val(SLOT.path) as string;
        this.wrote(path, "done", plain ? null : judgeWrite(this.rules, path, "done", inside));
        return;
      }
    }
    this.judgeWriteLine("done", canary);
  }

  /** A write the rules have judged: recorded if it breaks one, and handed to the walk. */
  private wrote(path: string, outcome: WriteOutcome | "effect", verdict: "write_outside_root" | "write_protected" | null): void {
    this.judged(verdict, path);
    if (this.sink !== null) this.sink({ ...this.at(path), kind: "write", op: String(this.val(SLOT.op)), outcome, verdict });
  }

  /** A line of the effects check: what the filesystem shows, never a call that failed or was refused. */
  private onEffect(): void {
    if (this.has(SLOT.errno) || this.has(SLOT.ok)) this.malformed(`"source": "effects" never has "errno" or "ok"`);
    const path = this.writePath();
    this.wrote(path, "effect", judgeEffect(this.rules, path));
  }

  private judgeWriteLine(outcome: WriteOutcome, canary: boolean): void {
    const path = this.writePath();
    if (!canary) this.wrote(path, outcome, judgeWrite(this.rules, path, outcome));
  }

  /**
   * A write whose file the recorder could not know (`path_unknown`): the log is refused, whatever
   * the path it names, since judging that path could pass a write to another file. Canaries too.
   */
  private pathUnknown(): never {
    const reason = this.val(SLOT.path_unknown);
    if (typeof reason !== "string" || !PATH_UNKNOWN_REASON.test(reason)) {
      this.malformed(`write "path_unknown" must be a reason: lower-case letters, digits and "-"`);
    }
    if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process")
      this.malformed(`write "path_unknown" comes only from the process observer`);
    const path = this.requireString(SLOT.path);
    throw new Refusal(
      "OBSERVER_PATH_UNKNOWN",
      `${this.file}:${this.lineNo}: the process recorder could not know which file this ${String(this.val(SLOT.op))} acted on (${reason}; the program named ${JSON.stringify(path)})`,
      {
        file: this.file,
        line: this.lineNo,
        hint: "The run made a change whose path the recorder cannot tell exactly, so no verdict can be given on it. Avoid the construct named (a change through /proc/<pid>/fd or /dev/fd names), or record the run with the eBPF recorder.",
      },
    );
  }

  /**
   * A write call the kernel failed with ENOENT or ENOTDIR: only the process observer's word counts
   * (it reads the kernel's answer).
   */
  private checkMissingTarget(): void {
    if (this.constant(SLOT.errno, ERRNO_CONSTANTS) === undefined) {
      this.malformed(`write "errno" must be one of ${[...MISSING_TARGET_ERRNOS].join(", ")}`);
    }
    if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process") this.malformed(`write "errno" comes only from the process observer`);
    if (this.has(SLOT.ok)) this.malformed(`a write with "errno" carries no "ok"`);
  }

  /**
   * A cheap superset of isProtectedWrite on a folded path's bytes: it starts with a protected
   * path, or holds a `/.git` (the lexical rule). Only a path that passes is judged as a string.
   */
  private mayBeProtected(from: number, to: number): boolean {
    if (this.pathHasGit) return true;
    const buf = this.buf;
    const len = to - from;
    for (const p of this.protectedPathBytes) {
      // From the end: paths under one root share their start.
      let k = p.length - 1;
      if (k >= len) continue;
      while (k >= 0 && p[k] === buf[from + k]) k--;
      if (k < 0) return true;
    }
    return false;
  }

  /**
   * Root containment on the raw bytes of an already-folded path (UTF-8 keeps prefixes and `/`
   * intact, so this equals the string comparison). Returns undefined when the path needs
   * folding or is not absolute, leaving it to the string path.
   */
  private writeInsideFast(from: number, to: number): boolean | undefined {
    const buf = this.buf;
    const len = to - from;
    if (len === 0 || buf[from] !== 0x2f) return undefined;
    if (len > 1 && buf[to - 1] === 0x2f) return undefined;
    const logPath = this.logPathBytes;
    // Equal to the folded log path means folded already.
    if (logPath !== null && logPath.length === len && buf.compare(logPath, 0, len, from, to) === 0) return false;
    if (this.anyRoot) return this.insideRoot(from, to, false);
    for (let r = 0; r < this.rootBytes.length; r++) {
      const root = this.rootBytes[r] as Buffer;
      const rl = root.length;
      if (len < rl || (len > rl && buf[from + rl] !== 0x2f)) continue;
      let k = rl - 1;
      while (k >= 0 && root[k] === buf[from + k]) k--;
      // A folded root has no `.`, `..` or empty segment, so only what follows it can need folding;
      // and a `/.git` cannot straddle its end, where the path has a `/`.
      if (k < 0) return this.insideRoot(from + rl, to, this.rootHasGit[r] as boolean);
    }
    return (scanPathTail(buf, from, to) & TAIL_NEEDS_FOLDING) !== 0 ? undefined : false;
  }

  private insideRoot(tailFrom: number, to: number, rootHasGit: boolean): boolean | undefined {
    const flags = scanPathTail(this.buf, tailFrom, to);
    if ((flags & TAIL_NEEDS_FOLDING) !== 0) return undefined;
    this.pathHasGit = rootHasGit || (flags & TAIL_HAS_GIT) !== 0;
    return true;
  }

  /** Whether a string field, read from the bytes, is one of `constants` (false on the strict path). */
  private isFastConstant(slot: number, constants: ByteConstants): boolean {
    return (
      !this.slow &&
      (this.mask & (1 << slot)) !== 0 &&
      this.tag[slot] === T_STR &&
      constants.match(this.buf, this.start[slot] as number, this.end[slot] as number) !== undefined
    );
  }

  private onTool(canary: boolean): void {
    this.counts.tool++;
    if (this.sink === null && this.isFastConstant(SLOT.name, this.toolBytes)) return;
    const name = this.requireString(SLOT.name);
    if (canary) return;
    const verdict = judgeTool(this.rules, name);
    this.judged(verdict, name);
    if (this.sink !== null) this.sink({ ...this.at(name), kind: "tool", verdict });
  }

  private onEnv(canary: boolean): void {
    this.counts.env++;
    if (this.sink === null && this.isFastConstant(SLOT.key, this.envExactBytes)) return;
    const key = this.requireString(SLOT.key);
    if (canary) return;
    const source = this.constant(SLOT.source, SOURCE_CONSTANTS);
    const verdict = judgeEnv(this.rules, key, source);
    this.judged(verdict, key);
    if (this.sink !== null) {
      this.sink({ ...this.at(key), kind: "env", op: this.val(SLOT.op), runtime: isRuntimeOwnRead(key, source), verdict });
    }
  }

  private onHost(canary: boolean): void {
    this.counts.host++;
    const host = hostName(this.requireString(SLOT.host));
    const port = this.val(SLOT.port);
    if (port !== undefined && port !== null && (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535)) {
      this.malformed(`host "port" must be an integer from 0 to 65535`);
    }
    for (const slot of [SLOT.bytes_in, SLOT.bytes_out]) {
      const bytes = this.val(slot);
      if (bytes !== undefined && (!Number.isSafeInteger(bytes) || (bytes as number) < 0)) {
        this.malformed(`host "${FIELD_NAMES[slot] as string}" must be a non-negative integer`);
      }
    }
    if (canary) return;
    const p = (port ?? null) as number | null;
    const via = this.val(SLOT.via);
    const rule = judgeHost(this.rules, host, p, via);
    const set = rule === null && this.hostSets ? hostViaSet(this.rules, host, p) : null;
    if (rule !== null) {
      this.record(rule, formatEndpoint(host, p));
    } else if (set !== null) {
      const endpoint = formatEndpoint(host, p);
      if (!this.viaSets.has(endpoint)) this.viaSets.set(endpoint, set);
    }
    if (this.sink !== null) {
      // The name judgeHost also allows it by: the one its hooks connected by, where they said.
      const name = typeof via === "string" && via !== "" ? normalizeHost(via) : host;
      this.sink({
        ...this.at(formatEndpoint(name, p)),
        kind: "host",
        host,
        port: p,
        name,
        ownLoopback: rule !== "docker_refused" && isRunOwnLoopback(this.rules, host),
        viaSet: set,
        verdict: rule,
      });
    }
  }

  private onSyscall(canary: boolean): void {
    this.counts.syscall++;
    const name = this.requireString(SLOT.name);
    if (canary) return;
    const verdict = judgeSyscall();
    this.record(verdict, name);
    if (this.sink !== null) this.sink({ ...this.at(name), kind: "syscall", verdict });
  }

  private onExec(canary: boolean): void {
    this.counts.exec++;
    const path = foldPath(this.requireString(SLOT.path));
    if (path === null) this.malformed(`exec "path" must be absolute`);
    // The byte path has already read a T_STR_ARRAY as strings.
    if (this.slow || this.tag[SLOT.argv] !== T_STR_ARRAY) {
      const argv = this.val(SLOT.argv);
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
        this.malformed(`exec "argv" must be an array of strings`);
      }
    }
    const jailPid = this.val(SLOT.jail_pid);
    if (jailPid !== undefined && (!Number.isInteger(jailPid) || (jailPid as number) <= 0)) {
      this.malformed(`exec "jail_pid" must be a positive integer`);
    }
    let interpreter: string | null = null;
    if (this.has(SLOT.interpreter)) {
      interpreter = foldPath(this.requireString(SLOT.interpreter));
      if (interpreter === null) this.malformed(`exec "interpreter" must be absolute`);
    }
    if (canary) return;
    const verdict = judgeExec(this.rules, path);
    this.judged(verdict, path);
    // A script's interpreter ran too: judged as any command, by its own path.
    const interpreted = interpreter === null ? null : judgeExec(this.rules, interpreter);
    if (interpreter !== null) this.judged(interpreted, interpreter);
    if (this.sink !== null) {
      const argv = this.val(SLOT.argv) as string[];
      const entry = commandEntry(path, argv);
      const pid = jailPid as number | undefined;
      this.sink({ ...this.at(entry), kind: "exec", path, argv, jailPid: pid, verdict });
      if (interpreter !== null)
        this.sink({ ...this.at(interpreter), kind: "exec", path: interpreter, argv, jailPid: pid, interprets: path, verdict: interpreted });
    }
  }
}
