/**
 * DNS messages on the wire, for the stub resolver the jailed command's queries reach: read a
 * query, build its answer or an error, frame messages over TCP. RFC 1035 (4.1.1-4.1.4), RFC 3596
 * (AAAA), RFC 6891 (an OPT record in a query is accepted and ignored; answers carry none), RFC 7766
 * (2-byte length framing). Pure: bytes in, bytes out.
 *
 * The resolver records every name it is asked for, so parseQuery refuses any question whose name
 * could be written down in two ways (a '.' or a non-printable byte inside a label) and any message
 * with more in it than one question and an optional OPT record.
 */

export const DNS_TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, OPT: 41, ANY: 255 } as const;
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** Why parseQuery refused a message: its `reason`, one per rule. */
export const QUERY_FAILURE = {
  SHORT_HEADER: "shorter than the 12-byte header",
  // Answering a response, even with FORMERR, could start a loop between two servers: drop it.
  RESPONSE: "QR is set: a response, not a query",
  QDCOUNT: "QDCOUNT is not 1",
  ANCOUNT: "ANCOUNT is not 0",
  NSCOUNT: "NSCOUNT is not 0",
  ARCOUNT: "ARCOUNT is neither 0 nor 1",
  NAME_TRUNCATED: "the question's name runs past the end of the message",
  NAME_POINTER: "a compression pointer in the question's name",
  NAME_RESERVED_LABEL_TYPE: "a label of reserved type (top bits 01 or 10) in the question's name",
  NAME_TOO_LONG: "the question's name is longer than 255 bytes",
  NAME_UNPRINTABLE: "a byte outside printable ASCII (0x21-0x7e) in a label of the question's name",
  NAME_DOT_IN_LABEL: "a '.' inside a label of the question's name",
  QUESTION_TRUNCATED: "the question's type and class run past the end of the message",
  ADDITIONAL_NOT_ROOT: "the additional record's name is not the root",
  ADDITIONAL_NOT_OPT: "the additional record is not an OPT record",
  ADDITIONAL_TRUNCATED: "the additional record runs past the end of the message",
  TRAILING_BYTES: "bytes after the declared sections",
} as const;

export interface DnsQuery {
  id: number;
  /** Recursion desired bit, echoed in the answer. */
  rd: boolean;
  opcode: number;
  /** The question's name as sent, lower-cased (ASCII only), without the trailing dot; "" for the root. */
  name: string;
  type: number;
  qclass: number;
  /** The question section's raw bytes (name + type + class), echoed byte for byte in the answer. */
  questionBytes: Buffer;
}

/** A query we can answer, or why not (with the id when it could be read, so a FORMERR can be sent back). */
export type ParsedQuery = { ok: true; query: DnsQuery } | { ok: false; id: number | null; reason: string };

const HEADER_BYTES = 12;
const MAX_NAME_BYTES = 255;
const LABEL_TYPE_MASK = 0xc0;
const QR = 0x8000;
const TC = 0x0200;
const RD = 0x0100;
const RA = 0x0080;
/** RFC 1035 4.2.1: the most a UDP answer may hold without EDNS (and we never send OPT back). */
export const UDP_MESSAGE_LIMIT = 512;
export const TCP_MESSAGE_LIMIT = 65535;

/** Reads one query. Never throws: every length is checked against the message before it is read. */
export function parseQuery(message: Buffer): ParsedQuery {
  if (message.length < HEADER_BYTES) {
    return { ok: false, id: message.length < 2 ? null : message.readUInt16BE(0), reason: QUERY_FAILURE.SHORT_HEADER };
  }
  const id = message.readUInt16BE(0);
  const fail = (reason: string): ParsedQuery => ({ ok: false, id, reason });
  const flags = message.readUInt16BE(2);
  if ((flags & QR) !== 0) return fail(QUERY_FAILURE.RESPONSE);
  if (message.readUInt16BE(4) !== 1) return fail(QUERY_FAILURE.QDCOUNT);
  if (message.readUInt16BE(6) !== 0) return fail(QUERY_FAILURE.ANCOUNT);
  if (message.readUInt16BE(8) !== 0) return fail(QUERY_FAILURE.NSCOUNT);
  const additionalCount = message.readUInt16BE(10);
  if (additionalCount > 1) return fail(QUERY_FAILURE.ARCOUNT);

  const name = readQuestionName(message, HEADER_BYTES);
  if (name.failure !== undefined) return fail(name.failure);
  if (name.end + 4 > message.length) return fail(QUERY_FAILURE.QUESTION_TRUNCATED);
  const questionEnd = name.end + 4;

  let end = questionEnd;
  if (additionalCount === 1) {
    const opt = skipOptRecord(message, questionEnd);
    if (typeof opt === "string") return fail(opt);
    end = opt;
  }
  if (end !== message.length) return fail(QUERY_FAILURE.TRAILING_BYTES);

  return {
    ok: true,
    query: {
      id,
      rd: (flags & RD) !== 0,
      opcode: (flags >> 11) & 0x0f,
      name: name.text,
      type: message.readUInt16BE(name.end),
      qclass: message.readUInt16BE(name.end + 2),
      questionBytes: Buffer.from(message.subarray(HEADER_BYTES, questionEnd)),
    },
  };
}

type NameRead = { failure?: undefined; text: string; end: number } | { failure: string };

/** The uncompressed name at `start`, as lower-cased text, and the offset just past it. */
function readQuestionName(message: Buffer, start: number): NameRead {
  const labels: string[] = [];
  let offset = start;
  for (;;) {
    if (offset >= message.length) return { failure: QUERY_FAILURE.NAME_TRUNCATED };
    const lengthByte = message[offset] as number;
    const labelType = lengthByte & LABEL_TYPE_MASK;
    if (labelType === LABEL_TYPE_MASK) return { failure: QUERY_FAILURE.NAME_POINTER };
    if (labelType !== 0) return { failure: QUERY_FAILURE.NAME_RESERVED_LABEL_TYPE };
    if (lengthByte === 0) return { text: labels.join("."), end: offset + 1 };
    const labelEnd = offset + 1 + lengthByte;
    // The encoded name counts its length bytes and the root's zero byte still to come.
    if (labelEnd + 1 - start > MAX_NAME_BYTES) return { failure: QUERY_FAILURE.NAME_TOO_LONG };
    if (labelEnd > message.length) return { failure: QUERY_FAILURE.NAME_TRUNCATED };
    let label = "";
    for (let i = offset + 1; i < labelEnd; i++) {
      const byte = message[i] as number;
      if (byte < 0x21 || byte > 0x7e) return { failure: QUERY_FAILURE.NAME_UNPRINTABLE };
      if (byte === 0x2e) return { failure: QUERY_FAILURE.NAME_DOT_IN_LABEL };
      label += String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
    }
    labels.push(label);
    offset = labelEnd;
  }
}

/** Skips an EDNS OPT record (RFC 6891 6.1.2) at `offset`: the offset past it, or why it is not one. */
function skipOptRecord(message: Buffer, offset: number): number | string {
  if (offset >= message.length) return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
  if (message[offset] !== 0) return QUERY_FAILURE.ADDITIONAL_NOT_ROOT;
  // TYPE, CLASS (the sender's UDP size), TTL (extended RCODE, version, flags), RDLENGTH.
  const fixedEnd = offset + 1 + 10;
  if (fixedEnd > message.length) return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
  if (message.readUInt16BE(offset + 1) !== DNS_TYPE.OPT) return QUERY_FAILURE.ADDITIONAL_NOT_OPT;
  const end = fixedEnd + message.readUInt16BE(fixedEnd - 2);
  return end > message.length ? QUERY_FAILURE.ADDITIONAL_TRUNCATED : end;
}

export interface AnswerSpec {
  rcode: number;
  /** IPv4 addresses for A records (only when the question's type is A), IPv6 for AAAA (only for AAAA). */
  addresses?: readonly string[];
  /** TTL in seconds for every record; default 0 (nothing is cached in the jail beyond the run). */
  ttl?: number;
  /**
   * The largest answer to build; default 512 (UDP without EDNS). Over TCP pass TCP_MESSAGE_LIMIT.
   * Records that do not fit are left out and TC is set.
   */
  maxMessageBytes?: number;
}

/** The response to `query`: QR=1, same id and opcode, RD echoed, RA=1, AA=0, the question echoed, answers per `spec`. */
export function buildAnswer(query: DnsQuery, spec: AnswerSpec): Buffer {
  checkInteger(query.id, 0, 0xffff, "query id");
  checkInteger(query.opcode, 0, 0x0f, "opcode");
  checkInteger(spec.rcode, 0, 0x0f, "rcode");
  const ttl = spec.ttl ?? 0;
  // RFC 2181 8: a TTL with the top bit set is read as 0.
  checkInteger(ttl, 0, 0x7fffffff, "ttl");
  const limit = spec.maxMessageBytes ?? UDP_MESSAGE_LIMIT;
  checkInteger(limit, UDP_MESSAGE_LIMIT, TCP_MESSAGE_LIMIT, "maxMessageBytes");
  const addresses = spec.addresses ?? [];
  if (addresses.length > 0 && spec.rcode !== RCODE.NOERROR) {
    throw new RangeError(`addresses come with rcode NOERROR only, not ${spec.rcode}`);
  }

  const rdatas = addresses.flatMap((text) => {
    const bytes = addressBytes(text);
    if (bytes === null) throw new TypeError(`not an IPv4 or IPv6 address: ${JSON.stringify(text)}`);
    const family = bytes.length === 4 ? DNS_TYPE.A : DNS_TYPE.AAAA;
    return family === query.type ? [bytes] : [];
  });
  const base = HEADER_BYTES + query.questionBytes.length;
  // Name (a pointer), TYPE, CLASS, TTL, RDLENGTH, then the rdata; all records of one type are one size.
  const recordBytes = rdatas.length === 0 ? 0 : 12 + (rdatas[0] as Buffer).length;
  const fitting = recordBytes === 0 ? 0 : Math.min(rdatas.length, Math.max(0, Math.floor((limit - base) / recordBytes)));
  const truncated = fitting < rdatas.length;

  const out = Buffer.alloc(base + fitting * recordBytes);
  out.writeUInt16BE(query.id, 0);
  out.writeUInt16BE(QR | (query.opcode << 11) | (truncated ? TC : 0) | (query.rd ? RD : 0) | RA | spec.rcode, 2);
  out.writeUInt16BE(1, 4);
  out.writeUInt16BE(fitting, 6);
  query.questionBytes.copy(out, HEADER_BYTES);
  let offset = base;
  for (const rdata of rdatas.slice(0, fitting)) {
    out.writeUInt16BE(0xc000 | HEADER_BYTES, offset);
    out.writeUInt16BE(query.type, offset + 2);
    out.writeUInt16BE(query.qclass, offset + 4);
    out.writeUInt32BE(ttl, offset + 6);
    out.writeUInt16BE(rdata.length, offset + 10);
    rdata.copy(out, offset + 12);
    offset += recordBytes;
  }
  return out;
}

/** A header-only error response (FORMERR/NOTIMP/REFUSED/SERVFAIL) for a message that could not be parsed as a query; id 0 when unknown. QDCOUNT 0. */
export function buildError(id: number | null, rcode: number): Buffer {
  checkInteger(id ?? 0, 0, 0xffff, "id");
  checkInteger(rcode, 0, 0x0f, "rcode");
  const out = Buffer.alloc(HEADER_BYTES);
  out.writeUInt16BE(id ?? 0, 0);
  out.writeUInt16BE(QR | RA | rcode, 2);
  return out;
}

function checkInteger(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${what} must be an integer from ${min} to ${max}, not ${value}`);
}

/**
 * An address's bytes: 4 for IPv4 (dotted quad, no leading zeros), 16 for IPv6 (RFC 4291 2.2,
 * with `::` and a trailing dotted quad); null for anything else, a zone (`%eth0`) included: it
 * means nothing in an answer. (node:net's isIPv4/isIPv6 would do, but core does no network I/O
 * and imports no node:net; the tests hold this to them.)
 */
export function addressBytes(text: string): Buffer | null {
  return ipv4Bytes(text) ?? ipv6Bytes(text);
}

const IPV4_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;

function ipv4Bytes(text: string): Buffer | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = Buffer.alloc(4);
  for (const [i, part] of parts.entries()) {
    if (!IPV4_PART.test(part) || Number(part) > 255) return null;
    bytes[i] = Number(part);
  }
  return bytes;
}

function ipv6Bytes(text: string): Buffer | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = ipv6Groups(halves[0] as string, halves.length === 1);
  const tail = halves.length === 2 ? ipv6Groups(halves[1] as string, true) : [];
  if (head === null || tail === null) return null;
  // Without `::` all eight groups are written; with it, `::` stands for at least one.
  if (halves.length === 1 ? head.length !== 8 : head.length + tail.length > 7) return null;
  const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(group, i * 2));
  return bytes;
}

/** The 16-bit groups of one side of `::`; a dotted quad may only end the address (`atEnd`). */
function ipv6Groups(side: string, atEnd: boolean): number[] | null {
  if (side === "") return [];
  const pieces = side.split(":");
  const groups: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (atEnd && i === pieces.length - 1 && piece.includes(".")) {
      const v4 = ipv4Bytes(piece);
      if (v4 === null) return null;
      groups.push(v4.readUInt16BE(0), v4.readUInt16BE(2));
    } else if (IPV6_GROUP.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

/** A TCP stream that broke RFC 7766's framing: the connection should be closed. */
export class DnsFrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DnsFrameError";
  }
}

/**
 * RFC 7766 framing: feed bytes from a TCP stream, get whole messages back. Throws DnsFrameError on
 * a zero-length frame (and on every push after it). Each frame is copied once into a buffer of its
 * declared size, so a peer that sends a byte at a time costs no more than one that sends it whole.
 */
export class DnsFrameReader {
  readonly #lengthPrefix = Buffer.alloc(2);
  #prefixFilled = 0;
  /** The frame being read: its declared length, and the bytes of it received so far (never more is held). */
  #want: number | null = null;
  #parts: Buffer[] = [];
  #got = 0;
  #broken = false;

  /** Bytes received that are not yet part of a whole message (a partial length prefix included). */
  get pending(): number {
    return this.#want === null ? this.#prefixFilled : 2 + this.#got;
  }

  push(chunk: Buffer): Buffer[] {
    if (this.#broken) throw new DnsFrameError("the stream already carried a zero-length frame");
    const messages: Buffer[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#want === null) {
        const taken = chunk.copy(this.#lengthPrefix, this.#prefixFilled, offset, offset + 2 - this.#prefixFilled);
        offset += taken;
        this.#prefixFilled += taken;
        if (this.#prefixFilled < 2) break;
        this.#prefixFilled = 0;
        const length = this.#lengthPrefix.readUInt16BE(0);
        if (length === 0) {
          this.#broken = true;
          throw new DnsFrameError("a zero-length frame");
        }
        this.#want = length;
        this.#parts = [];
        this.#got = 0;
      } else {
        // Copied out of the chunk (the caller may reuse it), and only what arrived: a declared
        // length is a claim, so a stream that stops after it holds no more than it sent.
        const end = Math.min(chunk.length, offset + (this.#want - this.#got));
        this.#parts.push(Buffer.from(chunk.subarray(offset, end)));
        this.#got += end - offset;
        offset = end;
        if (this.#got === this.#want) {
          messages.push(this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts, this.#want));
          this.#want = null;
          this.#parts = [];
          this.#got = 0;
        }
      }
    }
    return messages;
  }
}

/** `message` with its RFC 7766 2-byte big-endian length in front; throws if it is empty or longer than 65535 bytes. */
export function frameMessage(message: Buffer): Buffer {
  if (message.length === 0 || message.length > TCP_MESSAGE_LIMIT) {
    throw new RangeError(`a framed DNS message is 1 to ${TCP_MESSAGE_LIMIT} bytes, not ${message.length}`);
  }
  const out = Buffer.alloc(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  message.copy(out, 2);
  return out;
}
