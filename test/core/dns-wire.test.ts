/**
 * The DNS codec of the jail's stub resolver (src/core/dns-wire.ts): queries built by hand and
 * captured from real clients (Go's resolver, c-ares through node:dns, dig when installed) read as
 * they should, every malformed message is refused for its own reason and nothing makes parseQuery
 * throw, and real clients accept the answers built here, over UDP and over TCP.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { Resolver } from "node:dns/promises";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, isIPv4, isIPv6, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DNS_TYPE,
  DnsFrameError,
  DnsFrameReader,
  QUERY_FAILURE,
  RCODE,
  TCP_MESSAGE_LIMIT,
  addressBytes,
  buildAnswer,
  buildError,
  frameMessage,
  parseQuery,
  type AnswerSpec,
  type DnsQuery,
  type ParsedQuery,
} from "../../src/core/dns-wire.js";
import { spawnProcess } from "../support/spawn.js";

// ---------------------------------------------------------------------------------------------
// Building queries by hand

interface QueryParts {
  id?: number;
  flags?: number;
  counts?: [qd: number, an: number, ns: number, ar: number];
  /** The question's encoded name; default "a.example". */
  name?: Buffer;
  type?: number;
  qclass?: number;
  /** The additional section's bytes (ARCOUNT follows `counts`, else 1 when present). */
  additional?: Buffer;
}

/** The uncompressed wire form of a dotted name ("" is the root). */
function encodeName(name: string): Buffer {
  const labels = name === "" ? [] : name.split(".").map((label) => Buffer.from(label, "latin1"));
  return encodeLabels(labels);
}

function encodeLabels(labels: readonly Buffer[]): Buffer {
  return Buffer.concat([...labels.flatMap((label) => [Buffer.from([label.length]), label]), Buffer.from([0])]);
}

function question(name: Buffer, type: number, qclass = 1): Buffer {
  const fixed = Buffer.alloc(4);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(qclass, 2);
  return Buffer.concat([name, fixed]);
}

/** An EDNS OPT record (RFC 6891 6.1.2): root name, type 41, the UDP size as class, then options. */
function optRecord(udpSize = 1232, options: Buffer = Buffer.alloc(0)): Buffer {
  const fixed = Buffer.alloc(11);
  fixed.writeUInt16BE(DNS_TYPE.OPT, 1);
  fixed.writeUInt16BE(udpSize, 3);
  fixed.writeUInt16BE(options.length, 9);
  return Buffer.concat([fixed, options]);
}

function header(id: number, flags: number, counts: readonly number[]): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(flags, 2);
  counts.forEach((count, i) => out.writeUInt16BE(count, 4 + i * 2));
  return out;
}

function buildQuery(parts: QueryParts = {}): Buffer {
  const counts = parts.counts ?? [1, 0, 0, parts.additional === undefined ? 0 : 1];
  return Buffer.concat([
    header(parts.id ?? 0x1234, parts.flags ?? 0x0100, counts),
    question(parts.name ?? encodeName("a.example"), parts.type ?? DNS_TYPE.A, parts.qclass ?? 1),
    parts.additional ?? Buffer.alloc(0),
  ]);
}

function parsedOk(message: Buffer): DnsQuery {
  const parsed = parseQuery(message);
  if (!parsed.ok) throw new Error(`expected a query, got: ${parsed.reason}`);
  return parsed.query;
}

// ---------------------------------------------------------------------------------------------
// Reading answers back (independently of the module)

interface DecodedRecord {
  namePointer: number;
  type: number;
  qclass: number;
  ttl: number;
  rdata: Buffer;
}

interface DecodedAnswer {
  id: number;
  qr: boolean;
  opcode: number;
  aa: boolean;
  tc: boolean;
  rd: boolean;
  ra: boolean;
  z: number;
  rcode: number;
  counts: number[];
  question: Buffer;
  records: DecodedRecord[];
}

function decodeAnswer(message: Buffer): DecodedAnswer {
  const flags = message.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((at) => message.readUInt16BE(at));
  let offset = 12;
  if (counts[0] === 1) {
    while (message[offset] !== 0) offset += 1 + (message[offset] as number);
    offset += 5;
  }
  const questionBytes = message.subarray(12, offset);
  const records: DecodedRecord[] = [];
  for (let i = 0; i < (counts[1] ?? 0); i++) {
    const rdlength = message.readUInt16BE(offset + 10);
    records.push({
      namePointer: message.readUInt16BE(offset),
      type: message.readUInt16BE(offset + 2),
      qclass: message.readUInt16BE(offset + 4),
      ttl: message.readUInt32BE(offset + 6),
      rdata: message.subarray(offset + 12, offset + 12 + rdlength),
    });
    offset += 12 + rdlength;
  }
  expect(offset, "the answer's length is its sections' length").toBe(message.length);
  return {
    id: message.readUInt16BE(0),
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    z: (flags >> 4) & 0x7,
    rcode: flags & 0xf,
    counts,
    question: Buffer.from(questionBytes),
    records,
  };
}

/** A deterministic PRNG (mulberry32), so a failing fuzz case is the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBytes(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

// ---------------------------------------------------------------------------------------------

describe("parseQuery reads a query", () => {
  it("reads the header and the question of an A query", () => {
    const message = buildQuery({ id: 0xbeef, flags: 0x0100, type: DNS_TYPE.A });
    expect(parseQuery(message)).toEqual({
      ok: true,
      query: {
        id: 0xbeef,
        rd: true,
        opcode: 0,
        name: "a.example",
        type: DNS_TYPE.A,
        qclass: 1,
        questionBytes: question(encodeName("a.example"), DNS_TYPE.A),
      },
    });
  });

  it("reads RD clear, any type and class, and ignores the other header bits (TC, AD, CD, Z, RCODE)", () => {
    const query = parsedOk(buildQuery({ flags: 0x0200 | 0x0070 | 0x000f, type: DNS_TYPE.MX, qclass: 3 }));
    expect(query).toMatchObject({ rd: false, opcode: 0, type: DNS_TYPE.MX, qclass: 3 });
  });

  it("lower-cases A-Z in the name but echoes the question's bytes as sent (0x20 case randomization)", () => {
    const name = encodeName("WwW.ExAmPle.COM");
    const query = parsedOk(buildQuery({ name, type: DNS_TYPE.AAAA }));
    expect(query.name).toBe("www.example.com");
    expect(query.questionBytes).toEqual(question(name, DNS_TYPE.AAAA));
    expect(query.questionBytes.toString("latin1")).toContain("ExAmPle");
  });

  it("reads the root name as the empty string", () => {
    const query = parsedOk(buildQuery({ name: encodeName(""), type: DNS_TYPE.NS }));
    expect(query.name).toBe("");
    expect(query.questionBytes).toEqual(Buffer.from([0, 0, 2, 0, 1]));
  });

  it("accepts every printable byte but '.' in a label, underscores and backslashes included", () => {
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => 0x21 + i).filter((b) => b !== 0x2e);
    const labels = [Buffer.from(printable.slice(0, 63)), Buffer.from(printable.slice(63)), Buffer.from("_tcp")];
    const query = parsedOk(buildQuery({ name: encodeLabels(labels) }));
    const expected = labels.map((label) => label.toString("latin1").replace(/[A-Z]/g, (c) => c.toLowerCase())).join(".");
    expect(query.name).toBe(expected);
    expect(query.name).toContain("\\");
  });

  it("accepts a 63-byte label and a 255-byte name", () => {
    const label63 = Buffer.alloc(63, "a");
    // 3 labels of 63 (3 x 64 bytes encoded) + one of 61 (62) + the root's byte = 255.
    const name255 = encodeLabels([label63, label63, label63, Buffer.alloc(61, "b")]);
    expect(name255.length).toBe(255);
    expect(parsedOk(buildQuery({ name: name255 })).name).toBe(["a".repeat(63), "a".repeat(63), "a".repeat(63), "b".repeat(61)].join("."));
  });

  it("parses a query with another opcode (the caller answers NOTIMP)", () => {
    const query = parsedOk(buildQuery({ flags: (4 << 11) | 0x0100 }));
    expect(query.opcode).toBe(4);
    expect(query.rd).toBe(true);
  });

  it("accepts an EDNS OPT record in the additional section, options included, and ignores it", () => {
    // A client cookie (option 10, 8 bytes) as dig sends, and EDNS version 0 with DO set in the TTL.
    const cookie = Buffer.from("000a00080102030405060708", "hex");
    const opt = optRecord(4096, cookie);
    opt.writeUInt32BE(0x00008000, 5);
    const withOpt = parsedOk(buildQuery({ additional: opt }));
    const without = parsedOk(buildQuery());
    expect(withOpt).toEqual(without);
  });

  it("accepts an OPT record with a non-zero EDNS version (no BADVERS: we send no OPT back)", () => {
    const opt = optRecord(512);
    opt.writeUInt32BE(0x00010000, 5);
    expect(parseQuery(buildQuery({ additional: opt })).ok).toBe(true);
  });

  it("copies the question's bytes out of the message", () => {
    const message = buildQuery();
    const query = parsedOk(message);
    message.fill(0);
    expect(query.questionBytes).toEqual(question(encodeName("a.example"), DNS_TYPE.A));
  });

  it("reads random well-formed names back as their lower-cased text", () => {
    const random = seededRandom(7);
    const alphabet = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => 0x21 + i).filter((b) => b !== 0x2e);
    for (let n = 0; n < 500; n++) {
      const labels: Buffer[] = [];
      let encoded = 1;
      const wanted = Math.floor(random() * 6);
      for (let l = 0; l < wanted; l++) {
        const length = 1 + Math.floor(random() * 63);
        if (encoded + 1 + length > 255) break;
        encoded += 1 + length;
        labels.push(Buffer.from(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)] as number)));
      }
      const query = parsedOk(buildQuery({ name: encodeLabels(labels), id: n }));
      expect(query.name).toBe(labels.map((label) => label.toString("latin1").toLowerCase()).join("."));
      expect(query.id).toBe(n);
    }
  });
});

describe("parseQuery refuses what is not one plain question", () => {
  const label63 = Buffer.alloc(63, "a");
  const rootedPointer = Buffer.from([1, 0x61, 0xc0, 0x0c]);
  const cases: [what: string, message: Buffer, id: number | null, reason: string][] = [
    ["an empty message", Buffer.alloc(0), null, QUERY_FAILURE.SHORT_HEADER],
    ["one byte", Buffer.from([0x12]), null, QUERY_FAILURE.SHORT_HEADER],
    ["two bytes (the id)", Buffer.from([0x12, 0x34]), 0x1234, QUERY_FAILURE.SHORT_HEADER],
    ["eleven bytes", buildQuery().subarray(0, 11), 0x1234, QUERY_FAILURE.SHORT_HEADER],
    ["a response (QR set)", buildQuery({ flags: 0x8180 }), 0x1234, QUERY_FAILURE.RESPONSE],
    ["no question", buildQuery({ counts: [0, 0, 0, 0] }).subarray(0, 12), 0x1234, QUERY_FAILURE.QDCOUNT],
    ["two questions", Buffer.concat([buildQuery({ counts: [2, 0, 0, 0] }), question(encodeName("b"), 1)]), 0x1234, QUERY_FAILURE.QDCOUNT],
    ["an answer record", buildQuery({ counts: [1, 1, 0, 0] }), 0x1234, QUERY_FAILURE.ANCOUNT],
    ["an authority record", buildQuery({ counts: [1, 0, 1, 0] }), 0x1234, QUERY_FAILURE.NSCOUNT],
    [
      "two additional records",
      buildQuery({ counts: [1, 0, 0, 2], additional: Buffer.concat([optRecord(), optRecord()]) }),
      0x1234,
      QUERY_FAILURE.ARCOUNT,
    ],
    ["a header and nothing else", header(0x1234, 0x0100, [1, 0, 0, 0]), 0x1234, QUERY_FAILURE.NAME_TRUNCATED],
    [
      "a label past the end",
      Buffer.concat([header(0x1234, 0x0100, [1, 0, 0, 0]), Buffer.from([5, 0x61, 0x62])]),
      0x1234,
      QUERY_FAILURE.NAME_TRUNCATED,
    ],
    [
      "a name without its root byte",
      Buffer.concat([header(0x1234, 0x0100, [1, 0, 0, 0]), Buffer.from([1, 0x61])]),
      0x1234,
      QUERY_FAILURE.NAME_TRUNCATED,
    ],
    ["a compression pointer as the name", buildQuery({ name: Buffer.from([0xc0, 0x0c]) }), 0x1234, QUERY_FAILURE.NAME_POINTER],
    ["a compression pointer after a label", buildQuery({ name: rootedPointer }), 0x1234, QUERY_FAILURE.NAME_POINTER],
    ["label type 01 (extended label)", buildQuery({ name: Buffer.from([0x41, 0x00]) }), 0x1234, QUERY_FAILURE.NAME_RESERVED_LABEL_TYPE],
    ["label type 10", buildQuery({ name: Buffer.from([0x81, 0x61, 0x00]) }), 0x1234, QUERY_FAILURE.NAME_RESERVED_LABEL_TYPE],
    [
      "a 256-byte name",
      buildQuery({ name: encodeLabels([label63, label63, label63, Buffer.alloc(62, "b")]) }),
      0x1234,
      QUERY_FAILURE.NAME_TOO_LONG,
    ],
    [
      "a name too long to have been sent whole",
      Buffer.concat([header(1, 0, [1, 0, 0, 0]), ...Array.from({ length: 5 }, () => Buffer.concat([Buffer.from([63]), label63]))]),
      1,
      QUERY_FAILURE.NAME_TOO_LONG,
    ],
    ["a space in a label", buildQuery({ name: encodeName("a b.example") }), 0x1234, QUERY_FAILURE.NAME_UNPRINTABLE],
    ["a NUL in a label", buildQuery({ name: encodeLabels([Buffer.from([0x61, 0x00, 0x62])]) }), 0x1234, QUERY_FAILURE.NAME_UNPRINTABLE],
    ["DEL in a label", buildQuery({ name: encodeLabels([Buffer.from([0x7f])]) }), 0x1234, QUERY_FAILURE.NAME_UNPRINTABLE],
    ["UTF-8 in a label", buildQuery({ name: encodeLabels([Buffer.from("bücher", "utf8")]) }), 0x1234, QUERY_FAILURE.NAME_UNPRINTABLE],
    [
      "a '.' inside a label",
      buildQuery({ name: encodeLabels([Buffer.from("a.b"), Buffer.from("c")]) }),
      0x1234,
      QUERY_FAILURE.NAME_DOT_IN_LABEL,
    ],
    ["a question without its class", buildQuery().subarray(0, 12 + 11 + 3), 0x1234, QUERY_FAILURE.QUESTION_TRUNCATED],
    ["a question without type and class", buildQuery().subarray(0, 12 + 11), 0x1234, QUERY_FAILURE.QUESTION_TRUNCATED],
    ["ARCOUNT 1 and no record", buildQuery({ counts: [1, 0, 0, 1] }), 0x1234, QUERY_FAILURE.ADDITIONAL_TRUNCATED],
    [
      "an OPT record cut in its fixed part",
      buildQuery({ additional: optRecord().subarray(0, 6) }),
      0x1234,
      QUERY_FAILURE.ADDITIONAL_TRUNCATED,
    ],
    [
      "an OPT record shorter than its RDLENGTH",
      buildQuery({ additional: optRecord(1232, Buffer.alloc(8)).subarray(0, 15) }),
      0x1234,
      QUERY_FAILURE.ADDITIONAL_TRUNCATED,
    ],
    [
      "an additional record with a name",
      buildQuery({ additional: Buffer.concat([encodeName("a"), optRecord().subarray(1)]) }),
      0x1234,
      QUERY_FAILURE.ADDITIONAL_NOT_ROOT,
    ],
    [
      "an additional record named by a pointer",
      buildQuery({ additional: Buffer.concat([Buffer.from([0xc0, 0x0c]), optRecord().subarray(1)]) }),
      0x1234,
      QUERY_FAILURE.ADDITIONAL_NOT_ROOT,
    ],
    [
      "an A record at the root as additional",
      buildQuery({ additional: Buffer.from("000001000100000000000401020304", "hex") }),
      0x1234,
      QUERY_FAILURE.ADDITIONAL_NOT_OPT,
    ],
    ["a byte after the question", Buffer.concat([buildQuery(), Buffer.from([0])]), 0x1234, QUERY_FAILURE.TRAILING_BYTES],
    [
      "a byte after the OPT record",
      Buffer.concat([buildQuery({ additional: optRecord() }), Buffer.from([0])]),
      0x1234,
      QUERY_FAILURE.TRAILING_BYTES,
    ],
    [
      "an OPT record that ARCOUNT does not count",
      buildQuery({ counts: [1, 0, 0, 0], additional: optRecord() }),
      0x1234,
      QUERY_FAILURE.TRAILING_BYTES,
    ],
  ];

  it.each(cases)("refuses %s", (_what, message, id, reason) => {
    expect(parseQuery(message)).toEqual({ ok: false, id, reason });
  });

  it("has a distinct reason for every rule, and every one is exercised above", () => {
    const reasons = Object.values(QUERY_FAILURE);
    expect(new Set(reasons).size).toBe(reasons.length);
    expect(new Set(cases.map(([, , , reason]) => reason))).toEqual(new Set(reasons));
  });
});

describe("parseQuery never throws", () => {
  const KNOWN_REASONS: string[] = Object.values(QUERY_FAILURE);
  const valid = [
    buildQuery(),
    buildQuery({ additional: optRecord(1232, Buffer.from("000a00080102030405060708", "hex")) }),
    buildQuery({ name: encodeName(""), type: DNS_TYPE.NS }),
  ];

  it("refuses 2000 random buffers without throwing", () => {
    const random = seededRandom(2024);
    for (let i = 0; i < 2000; i++) {
      const message = randomBytes(random, Math.floor(random() * 600));
      let parsed: ParsedQuery | undefined;
      expect(() => (parsed = parseQuery(message)), message.toString("hex")).not.toThrow();
      expect(parsed?.ok, message.toString("hex")).toBe(false);
      if (parsed?.ok === false) expect(KNOWN_REASONS).toContain(parsed.reason);
    }
  });

  it("refuses 2000 random bodies behind a plausible header without throwing", () => {
    const random = seededRandom(99);
    for (let i = 0; i < 2000; i++) {
      const body = randomBytes(random, Math.floor(random() * 300));
      const message = Buffer.concat([header(i, 0x0100, [1, 0, 0, Math.floor(random() * 2)]), body]);
      const parsed = parseQuery(message);
      if (parsed.ok) {
        // A random body can be a valid question: then it is one exactly.
        expect(parsed.query.questionBytes.length + 12).toBeLessThanOrEqual(message.length);
        expect(parsed.query.name).toMatch(/^([!-~]+(\.[!-~]+)*)?$/);
      } else {
        expect(parsed.id).toBe(i);
      }
    }
  });

  it("refuses every truncation of a valid query, and every byte more", () => {
    for (const message of valid) {
      expect(parseQuery(message).ok).toBe(true);
      for (let length = 0; length < message.length; length++) {
        expect(parseQuery(message.subarray(0, length)).ok, `first ${length} bytes`).toBe(false);
      }
      expect(parseQuery(Buffer.concat([message, Buffer.from([0])]))).toMatchObject({ ok: false, reason: QUERY_FAILURE.TRAILING_BYTES });
    }
  });

  it("reads 5000 mutations of valid queries without throwing, and a name it accepts is one plain name", () => {
    const random = seededRandom(31337);
    for (let i = 0; i < 5000; i++) {
      const message = Buffer.from(valid[i % valid.length] as Buffer);
      const flips = 1 + Math.floor(random() * 4);
      for (let f = 0; f < flips; f++) message[Math.floor(random() * message.length)] = Math.floor(random() * 256);
      const parsed = parseQuery(message);
      if (parsed.ok) expect(parsed.query.name).toMatch(/^([!-~]+(\.[!-~]+)*)?$/);
      else expect(KNOWN_REASONS).toContain(parsed.reason);
    }
  });
});

describe("buildAnswer", () => {
  const aQuery = parsedOk(buildQuery({ id: 0x4242, type: DNS_TYPE.A }));
  const aaaaQuery = parsedOk(buildQuery({ id: 0x4243, type: DNS_TYPE.AAAA }));

  it("answers an A query: QR, same id and opcode, RD echoed, RA set, AA clear, the question echoed, a pointer to its name", () => {
    const answer = decodeAnswer(buildAnswer(aQuery, { rcode: RCODE.NOERROR, addresses: ["192.0.2.7", "2001:db8::7", "198.51.100.1"] }));
    expect(answer).toEqual({
      id: 0x4242,
      qr: true,
      opcode: 0,
      aa: false,
      tc: false,
      rd: true,
      ra: true,
      z: 0,
      rcode: 0,
      counts: [1, 2, 0, 0],
      question: aQuery.questionBytes,
      records: [
        { namePointer: 0xc00c, type: DNS_TYPE.A, qclass: 1, ttl: 0, rdata: Buffer.from([192, 0, 2, 7]) },
        { namePointer: 0xc00c, type: DNS_TYPE.A, qclass: 1, ttl: 0, rdata: Buffer.from([198, 51, 100, 1]) },
      ],
    });
  });

  it("answers an AAAA query with the IPv6 addresses only, expanded to 16 bytes", () => {
    const addresses = [
      "2001:db8::7",
      "192.0.2.7",
      "::",
      "::1",
      "::ffff:1.2.3.4",
      "fe80::1:2:3:4",
      "1:2:3:4:5:6:7:8",
      "1::",
      "A:B:C:D:E:F:0:1",
    ];
    const answer = decodeAnswer(buildAnswer(aaaaQuery, { rcode: RCODE.NOERROR, addresses, ttl: 60 }));
    expect(answer.records.map((r) => r.rdata.toString("hex"))).toEqual([
      "20010db8000000000000000000000007",
      "00000000000000000000000000000000",
      "00000000000000000000000000000001",
      "00000000000000000000ffff01020304",
      "fe800000000000000001000200030004",
      "00010002000300040005000600070008",
      "00010000000000000000000000000000",
      "000a000b000c000d000e000f00000001",
    ]);
    expect(answer.records.every((r) => r.type === DNS_TYPE.AAAA && r.ttl === 60 && r.namePointer === 0xc00c)).toBe(true);
    expect(answer.counts).toEqual([1, 8, 0, 0]);
  });

  it("echoes RD clear, the opcode, the question's class and its case", () => {
    const name = encodeName("A.ExAmple");
    const query = parsedOk(buildQuery({ flags: 0, name, qclass: 3 }));
    const answer = decodeAnswer(buildAnswer(query, { rcode: RCODE.NOERROR, addresses: ["10.0.0.1"] }));
    expect(answer).toMatchObject({ rd: false, ra: true, opcode: 0, question: question(name, DNS_TYPE.A, 3) });
    expect(answer.records[0]?.qclass).toBe(3);

    const notify = parsedOk(buildQuery({ flags: (4 << 11) | 0x0100 }));
    expect(decodeAnswer(buildAnswer(notify, { rcode: RCODE.NOTIMP }))).toMatchObject({
      opcode: 4,
      rcode: RCODE.NOTIMP,
      rd: true,
      counts: [1, 0, 0, 0],
    });
  });

  it("adds no records for other types, whatever the addresses", () => {
    for (const type of [DNS_TYPE.MX, DNS_TYPE.ANY, DNS_TYPE.TXT, DNS_TYPE.CNAME, DNS_TYPE.PTR]) {
      const query = parsedOk(buildQuery({ type }));
      const answer = decodeAnswer(buildAnswer(query, { rcode: RCODE.NOERROR, addresses: ["192.0.2.1", "2001:db8::1"] }));
      expect(answer.counts).toEqual([1, 0, 0, 0]);
      expect(answer.question).toEqual(query.questionBytes);
    }
  });

  it("answers NXDOMAIN, REFUSED and SERVFAIL with the question and no records", () => {
    for (const rcode of [RCODE.NXDOMAIN, RCODE.REFUSED, RCODE.SERVFAIL]) {
      const answer = decodeAnswer(buildAnswer(aQuery, { rcode }));
      expect(answer).toMatchObject({ rcode, qr: true, counts: [1, 0, 0, 0], records: [] });
    }
  });

  it("keeps the records that fit in 512 bytes and sets TC", () => {
    const many = Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`);
    // 12 + 15 (a.example, type, class) + 30 x 16 = 507; a 31st record would make 523.
    const a = buildAnswer(aQuery, { rcode: RCODE.NOERROR, addresses: many });
    expect(a.length).toBe(507);
    expect(decodeAnswer(a)).toMatchObject({ tc: true, counts: [1, 30, 0, 0] });
    expect(decodeAnswer(a).records.at(-1)?.rdata).toEqual(Buffer.from([192, 0, 2, 30]));

    const many6 = Array.from({ length: 20 }, (_, i) => `2001:db8::${i + 1}`);
    const aaaa = buildAnswer(aaaaQuery, { rcode: RCODE.NOERROR, addresses: many6 });
    expect(aaaa.length).toBe(12 + 15 + 17 * 28);
    expect(decodeAnswer(aaaa)).toMatchObject({ tc: true, counts: [1, 17, 0, 0] });

    const longName = encodeLabels([Buffer.alloc(63, "a"), Buffer.alloc(63, "b"), Buffer.alloc(63, "c"), Buffer.alloc(61, "d")]);
    const long = parsedOk(buildQuery({ name: longName }));
    expect(decodeAnswer(buildAnswer(long, { rcode: RCODE.NOERROR, addresses: many }))).toMatchObject({ tc: true, counts: [1, 15, 0, 0] });
  });

  it("sets no TC when the records fill 512 bytes exactly", () => {
    // 12 + (16-byte name + 4) + 30 x 16 = 512.
    const query = parsedOk(buildQuery({ name: encodeName("abcdefghijklmn") }));
    const thirty = Array.from({ length: 30 }, (_, i) => `10.0.0.${i}`);
    const exact = buildAnswer(query, { rcode: RCODE.NOERROR, addresses: thirty });
    expect(exact.length).toBe(512);
    expect(decodeAnswer(exact)).toMatchObject({ tc: false, counts: [1, 30, 0, 0] });
    const over = buildAnswer(query, { rcode: RCODE.NOERROR, addresses: [...thirty, "10.0.1.0"] });
    expect(over.length).toBe(512);
    expect(decodeAnswer(over)).toMatchObject({ tc: true, counts: [1, 30, 0, 0] });
  });

  it("builds up to maxMessageBytes for TCP", () => {
    const many = Array.from({ length: 200 }, (_, i) => `10.0.${i >> 8}.${i & 0xff}`);
    const answer = buildAnswer(aQuery, { rcode: RCODE.NOERROR, addresses: many, maxMessageBytes: TCP_MESSAGE_LIMIT });
    expect(decodeAnswer(answer)).toMatchObject({ tc: false, counts: [1, 200, 0, 0] });
  });

  it("refuses what it cannot put on the wire", () => {
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, addresses: ["a.example"] })).toThrow(TypeError);
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, addresses: ["fe80::1%eth0"] })).toThrow(TypeError);
    expect(() => buildAnswer(aaaaQuery, { rcode: RCODE.NOERROR, addresses: ["::1", "1.2.3"] })).toThrow(
      /not an IPv4 or IPv6 address: "1.2.3"/,
    );
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NXDOMAIN, addresses: ["192.0.2.1"] })).toThrow(RangeError);
    expect(() => buildAnswer(aQuery, { rcode: 16 })).toThrow(RangeError);
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, ttl: -1 })).toThrow(RangeError);
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, ttl: 1.5 })).toThrow(RangeError);
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, ttl: 0x80000000 })).toThrow(RangeError);
    expect(() => buildAnswer(aQuery, { rcode: RCODE.NOERROR, maxMessageBytes: 511 })).toThrow(RangeError);
    expect(() => buildAnswer({ ...aQuery, opcode: 16 }, { rcode: RCODE.NOERROR })).toThrow(RangeError);
  });

  it("answers a random valid name with its question echoed byte for byte", () => {
    const random = seededRandom(5);
    for (let n = 0; n < 200; n++) {
      const labels = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Buffer.from(Array.from({ length: 1 + Math.floor(random() * 20) }, () => 0x41 + Math.floor(random() * 26))),
      );
      const query = parsedOk(buildQuery({ id: n, name: encodeLabels(labels), type: DNS_TYPE.A }));
      const answer = decodeAnswer(buildAnswer(query, { rcode: RCODE.NOERROR, addresses: ["192.0.2.1"], ttl: n }));
      expect(answer).toMatchObject({ id: n, question: query.questionBytes, counts: [1, 1, 0, 0] });
      expect(answer.records[0]?.ttl).toBe(n);
    }
  });
});

describe("addressBytes agrees with node:net and the URL parser", () => {
  const texts = [
    "0.0.0.0",
    "255.255.255.255",
    "192.0.2.7",
    "256.0.0.1",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.4.5",
    "1..2.3",
    " 1.2.3.4",
    "1.2.3.4 ",
    "+1.2.3.4",
    "0x1.2.3.4",
    "1e2.0.0.1",
    "",
    "::",
    "::1",
    "1::",
    "::ffff:1.2.3.4",
    "::1.2.3.4",
    "64:ff9b::192.0.2.33",
    "1:2:3:4:5:6:1.2.3.4",
    "1:2:3:4:5:6:7:1.2.3.4",
    "1:2:3:4:5::1.2.3.4",
    "1.2.3.4::",
    "::1.2.3",
    "::ffff:01.2.3.4",
    "2001:db8::7",
    "2001:DB8::7",
    "2001:0db8:0000:0000:0000:0000:0000:0007",
    "2001:00db8::7",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8::",
    "::1:2:3:4:5:6:7:8",
    "1::2::3",
    ":::",
    ":1::",
    "1:::2",
    "1::2:",
    ":1:2:3:4:5:6:7",
    "g::1",
    "[::1]",
    "fe80::1",
    "fffff::1",
  ];

  it.each(texts)("%j", (text) => {
    const bytes = addressBytes(text);
    expect(bytes?.length === 4, "IPv4").toBe(isIPv4(text));
    expect(bytes?.length === 16, "IPv6").toBe(isIPv6(text));
    if (bytes?.length === 16) {
      const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(":");
      expect(new URL(`http://[${groups}]/`).hostname).toBe(new URL(`http://[${text}]/`).hostname);
    }
    if (bytes?.length === 4) expect([...bytes].join(".")).toBe(text);
  });

  it("refuses a zone, which node:net accepts but an answer cannot carry", () => {
    expect(isIPv6("fe80::1%eth0")).toBe(true);
    expect(addressBytes("fe80::1%eth0")).toBeNull();
  });
});

describe("buildError", () => {
  it("is a header with QR, RA, the rcode and the id, and no sections", () => {
    expect(buildError(0x1234, RCODE.FORMERR).toString("hex")).toBe("123480810000000000000000");
    expect(buildError(null, RCODE.FORMERR).toString("hex")).toBe("000080810000000000000000");
    expect(buildError(7, RCODE.NOTIMP).toString("hex")).toBe("000780840000000000000000");
    expect(buildError(0xffff, RCODE.REFUSED).toString("hex")).toBe("ffff80850000000000000000");
    expect(buildError(1, RCODE.SERVFAIL).toString("hex")).toBe("000180820000000000000000");
  });

  it("refuses an id or rcode that does not fit", () => {
    expect(() => buildError(0x10000, RCODE.FORMERR)).toThrow(RangeError);
    expect(() => buildError(1, 16)).toThrow(RangeError);
  });

  it("answers every refused message the parser returns an id for", () => {
    const refused = parseQuery(Buffer.concat([buildQuery({ id: 0x0a0b }), Buffer.from([1])]));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(buildError(refused.id, RCODE.FORMERR).readUInt16BE(0)).toBe(0x0a0b);
  });
});

describe("RFC 7766 framing", () => {
  const first = buildQuery({ id: 1 });
  const second = buildQuery({ id: 2, additional: optRecord() });

  it("frames a message behind its big-endian length", () => {
    expect(frameMessage(Buffer.from([0xab, 0xcd])).toString("hex")).toBe("0002abcd");
    const biggest = frameMessage(Buffer.alloc(65535, 1));
    expect(biggest.readUInt16BE(0)).toBe(65535);
    expect(biggest.length).toBe(65537);
    expect(() => frameMessage(Buffer.alloc(65536))).toThrow(RangeError);
    expect(() => frameMessage(Buffer.alloc(0))).toThrow(RangeError);
  });

  it("returns whole messages from one chunk holding several", () => {
    const reader = new DnsFrameReader();
    expect(reader.push(Buffer.concat([frameMessage(first), frameMessage(second)]))).toEqual([first, second]);
    expect(reader.pending).toBe(0);
  });

  it("returns a message only once its last byte came, fed a byte at a time", () => {
    const reader = new DnsFrameReader();
    const stream = Buffer.concat([frameMessage(first), frameMessage(second)]);
    const got: Buffer[] = [];
    for (let i = 0; i < stream.length; i++) {
      const messages = reader.push(stream.subarray(i, i + 1));
      got.push(...messages);
      const whole = i + 1 === first.length + 2 || i + 1 === stream.length;
      expect(messages.length, `after byte ${i}`).toBe(whole ? 1 : 0);
      expect(reader.pending).toBe(whole ? 0 : i + 1 <= first.length + 2 ? i + 1 : i + 1 - (first.length + 2));
    }
    expect(got).toEqual([first, second]);
  });

  it("returns the same messages for every split of the stream into two chunks", () => {
    const stream = Buffer.concat([frameMessage(first), frameMessage(second), frameMessage(first)]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const reader = new DnsFrameReader();
      const got = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
      expect(got).toEqual([first, second, first]);
      expect(reader.pending).toBe(0);
    }
  });

  it("returns messages that the next chunk cannot change", () => {
    const reader = new DnsFrameReader();
    const chunk = Buffer.concat([frameMessage(first), frameMessage(second).subarray(0, 5)]);
    const [message] = reader.push(chunk);
    chunk.fill(0);
    expect(message).toEqual(first);
    expect(reader.pending).toBe(5);
    expect(reader.push(frameMessage(second).subarray(5))).toEqual([second]);
  });

  it("throws DnsFrameError on a zero-length frame, and on every push after it", () => {
    const reader = new DnsFrameReader();
    expect(() => reader.push(Buffer.concat([frameMessage(first), Buffer.from([0, 0])]))).toThrow(DnsFrameError);
    expect(() => reader.push(frameMessage(first))).toThrow(DnsFrameError);
    const split = new DnsFrameReader();
    expect(split.push(Buffer.from([0]))).toEqual([]);
    expect(split.pending).toBe(1);
    expect(() => split.push(Buffer.from([0]))).toThrow(/zero-length/);
  });
});

// ---------------------------------------------------------------------------------------------
// Real clients

function installed(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

const HAVE_PYTHON = installed("python3");
const HAVE_GO = installed("go");
const HAVE_DIG = installed("dig");

/** Prints its port, then each datagram it receives as hex, `argv[1]` of them; gives up after 30 s. */
const CAPTURE_SCRIPT = `
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
s.settimeout(30)
for _ in range(int(sys.argv[1])):
    data, _peer = s.recvfrom(65535)
    print(data.hex(), flush=True)
`;

/** The first `count` datagrams a client sends to a Python UDP socket; `send` starts the client and returns how to stop it. */
async function captureQueries(count: number, send: (port: number) => () => void): Promise<Buffer[]> {
  const python = spawn("python3", ["-c", CAPTURE_SCRIPT, String(count)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  python.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: python.stdout })[Symbol.asyncIterator]();
  let stop = (): void => {};
  try {
    const port = await lines.next();
    if (port.done === true) throw new Error(`the capture did not start: ${stderr}`);
    stop = send(Number(port.value));
    const packets: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const line = await lines.next();
      if (line.done === true) throw new Error(`the capture ended after ${i} packets: ${stderr}`);
      packets.push(Buffer.from(line.value as string, "hex"));
    }
    return packets;
  } finally {
    stop();
    python.kill();
  }
}

function killer(child: ChildProcess): () => void {
  return () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
}

/**
 * Go's own resolver (PreferGo), every exchange sent to 127.0.0.1: UDP to the first port, TCP (Go's
 * retry after TC, or every query with "tcp") to the second. Prints the sorted addresses, or the error.
 */
const GO_LOOKUP = `package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"sort"
	"time"
)

func main() {
	udpPort, tcpPort, name := os.Args[1], os.Args[2], os.Args[3]
	onlyTCP := len(os.Args) > 4 && os.Args[4] == "tcp"
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		if onlyTCP || network == "tcp" {
			return d.DialContext(ctx, "tcp", "127.0.0.1:"+tcpPort)
		}
		return d.DialContext(ctx, "udp", "127.0.0.1:"+udpPort)
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	addrs, err := resolver.LookupHost(ctx, name)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	sort.Strings(addrs)
	for _, a := range addrs {
		fmt.Println(a)
	}
}
`;

interface SeenQuery {
  transport: "udp" | "tcp";
  raw: Buffer;
  parsed: ParsedQuery;
}

interface TestResolver {
  udpPort: number;
  tcpPort: number;
  seen: SeenQuery[];
  close(): Promise<void>;
}

/** What the stub resolver will do, in small: parse, refuse or answer per `decide`, over UDP and TCP. */
async function startResolver(decide: (query: DnsQuery) => AnswerSpec): Promise<TestResolver> {
  const seen: SeenQuery[] = [];
  const respond = (raw: Buffer, transport: "udp" | "tcp"): Buffer | null => {
    const parsed = parseQuery(raw);
    seen.push({ transport, raw, parsed });
    if (!parsed.ok) return parsed.reason === QUERY_FAILURE.RESPONSE ? null : buildError(parsed.id, RCODE.FORMERR);
    if (parsed.query.opcode !== 0) return buildAnswer(parsed.query, { rcode: RCODE.NOTIMP });
    const spec = decide(parsed.query);
    return buildAnswer(parsed.query, transport === "tcp" ? { ...spec, maxMessageBytes: TCP_MESSAGE_LIMIT } : spec);
  };

  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", (raw, peer) => {
    const answer = respond(raw, "udp");
    if (answer !== null) udp.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolveBound) => udp.bind(0, "127.0.0.1", resolveBound));

  const tcp: Server = createServer((socket) => {
    const reader = new DnsFrameReader();
    socket.on("data", (chunk) => {
      try {
        for (const message of reader.push(chunk)) {
          const answer = respond(message, "tcp");
          if (answer !== null) socket.write(frameMessage(answer));
        }
      } catch (err) {
        if (!(err instanceof DnsFrameError)) throw err;
        socket.destroy();
      }
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolveListening) => tcp.listen(0, "127.0.0.1", resolveListening));

  return {
    udpPort: udp.address().port,
    tcpPort: (tcp.address() as AddressInfo).port,
    seen,
    close: async () => {
      await new Promise<void>((resolveClosed) => udp.close(() => resolveClosed()));
      await new Promise<void>((resolveClosed) => tcp.close(() => resolveClosed()));
    },
  };
}

const EXAMPLE_ADDRESSES = ["192.0.2.7", "2001:db8::7"];

function answerExample(query: DnsQuery): AnswerSpec {
  return query.name === "a.example" ? { rcode: RCODE.NOERROR, addresses: EXAMPLE_ADDRESSES } : { rcode: RCODE.NXDOMAIN };
}

function typesOf(queries: readonly DnsQuery[]): number[] {
  return queries.map((q) => q.type).sort((a, b) => a - b);
}

describe.skipIf(!HAVE_GO)("Go's resolver", () => {
  let work = "";
  let lookup = "";

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dns-wire-go-"));
    writeFileSync(join(work, "lookup.go"), GO_LOOKUP);
    lookup = join(work, "lookup");
    const built = await spawnProcess(["go", "build", "-o", lookup, "lookup.go"], {
      cwd: work,
      env: {
        ...process.env,
        GOCACHE: join(work, "cache"),
        GOPATH: join(work, "gopath"),
        GOFLAGS: "",
        GOWORK: "off",
        GOTOOLCHAIN: "local",
        CGO_ENABLED: "0",
      },
    });
    if (built.code !== 0) throw new Error(`go build failed:\n${built.stderr}`);
  }, 300_000);

  afterAll(() => {
    if (work !== "") rmSync(work, { recursive: true, force: true });
  });

  async function goLookup(resolver: TestResolver, name: string, only?: "tcp"): Promise<string> {
    const args = [lookup, String(resolver.udpPort), String(resolver.tcpPort), name, ...(only === undefined ? [] : [only])];
    const run = await spawnProcess(args, { cwd: work, timeoutMs: 55_000 });
    return run.stdout + run.stderr;
  }

  it.skipIf(!HAVE_PYTHON)("sends A and AAAA queries that read as the hand-built ones, with an EDNS OPT record", async () => {
    const packets = await captureQueries(2, (port) => killer(spawn(lookup, [String(port), "1", "A.Example."], { stdio: "ignore" })));
    const queries = packets.map(parsedOk);
    expect(typesOf(queries)).toEqual([DNS_TYPE.A, DNS_TYPE.AAAA]);
    for (const [i, packet] of packets.entries()) {
      const query = queries[i] as DnsQuery;
      expect(query).toMatchObject({ name: "a.example", rd: true, opcode: 0, qclass: 1 });
      // The name as Go sent it (case kept), then ARCOUNT 1: an OPT record at the root.
      const handBuilt = buildQuery({ id: query.id, name: encodeName("A.Example"), type: query.type, additional: optRecord() });
      expect(packet.subarray(0, 12 + query.questionBytes.length)).toEqual(handBuilt.subarray(0, 12 + query.questionBytes.length));
      expect(packet.readUInt16BE(10)).toBe(1);
      expect(packet.subarray(12 + query.questionBytes.length, 12 + query.questionBytes.length + 3)).toEqual(Buffer.from([0, 0, 41]));
    }
  });

  it("accepts our answers: a.example resolves to 192.0.2.7 and 2001:db8::7", async () => {
    const resolver = await startResolver(answerExample);
    try {
      expect(await goLookup(resolver, "a.example.")).toBe("192.0.2.7\n2001:db8::7\n");
      const udp = resolver.seen.filter((s) => s.transport === "udp");
      expect(new Set(typesOf(udp.map((s) => parsedOk(s.raw))))).toEqual(new Set([DNS_TYPE.A, DNS_TYPE.AAAA]));
      expect(udp.every((s) => s.raw.readUInt16BE(10) === 1)).toBe(true);
    } finally {
      await resolver.close();
    }
  });

  it("accepts an answer to a mixed-case name, whose question keeps Go's case", async () => {
    const resolver = await startResolver(answerExample);
    try {
      expect(await goLookup(resolver, "A.eXample.")).toBe("192.0.2.7\n2001:db8::7\n");
      // Go asks for A and AAAA (once more each if a reply were lost); every one is recorded lower-cased.
      expect(resolver.seen.length).toBeGreaterThanOrEqual(2);
      expect(new Set(resolver.seen.map((s) => (s.parsed.ok ? s.parsed.query.name : s.parsed.reason)))).toEqual(new Set(["a.example"]));
    } finally {
      await resolver.close();
    }
  });

  it("fails the lookup on REFUSED, and reports NXDOMAIN as no such host", async () => {
    const refusing = await startResolver(() => ({ rcode: RCODE.REFUSED }));
    try {
      const out = await goLookup(refusing, "a.example.");
      expect(out).toMatch(/^error: .*server misbehaving/);
      expect(refusing.seen.length).toBeGreaterThan(0);
    } finally {
      await refusing.close();
    }
    const resolver = await startResolver(answerExample);
    try {
      expect(await goLookup(resolver, "b.example.")).toMatch(/^error: .*no such host/);
    } finally {
      await resolver.close();
    }
  });

  it("retries over TCP after a truncated UDP answer and gets every record", async () => {
    const many = Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`);
    const resolver = await startResolver((query) => ({ rcode: RCODE.NOERROR, addresses: query.name === "many.example" ? many : [] }));
    try {
      const out = await goLookup(resolver, "many.example.");
      expect(out.trim().split("\n").sort()).toEqual([...many].sort());
      const aQueries = resolver.seen.filter((s) => s.parsed.ok && s.parsed.query.type === DNS_TYPE.A).map((s) => s.transport);
      expect(aQueries[0]).toBe("udp");
      expect(aQueries.at(-1)).toBe("tcp");
    } finally {
      await resolver.close();
    }
  });

  it("asks over TCP with RFC 7766 framing and accepts our framed answers", async () => {
    const resolver = await startResolver(answerExample);
    try {
      expect(await goLookup(resolver, "a.example.", "tcp")).toBe("192.0.2.7\n2001:db8::7\n");
      expect(resolver.seen.length).toBeGreaterThanOrEqual(2);
      expect(resolver.seen.every((s) => s.transport === "tcp" && s.parsed.ok)).toBe(true);
    } finally {
      await resolver.close();
    }
  });
});

describe("c-ares (node:dns Resolver)", () => {
  function caresResolver(port: number): Resolver {
    const resolver = new Resolver({ timeout: 20_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    return resolver;
  }

  it.skipIf(!HAVE_PYTHON)("sends a query that reads as the hand-built one", async () => {
    const [packet] = await captureQueries(1, (port) => {
      const resolver = caresResolver(port);
      resolver.resolve4("a.example").catch(() => {});
      return () => resolver.cancel();
    });
    const query = parsedOk(packet as Buffer);
    const handBuilt = buildQuery({ id: query.id, type: DNS_TYPE.A });
    // Node 20's c-ares sends no OPT record; a later one may (ARCOUNT 1, accepted above).
    expect(packet?.subarray(0, 10)).toEqual(handBuilt.subarray(0, 10));
    expect(packet?.subarray(12, handBuilt.length)).toEqual(handBuilt.subarray(12));
    if (packet?.readUInt16BE(10) === 0) expect(packet).toEqual(handBuilt);
  });

  it("accepts our A and AAAA answers, TTL 0, and fails on REFUSED", async () => {
    const resolver = await startResolver(answerExample);
    try {
      const client = caresResolver(resolver.udpPort);
      expect(await client.resolve4("a.example", { ttl: true })).toEqual([{ address: "192.0.2.7", ttl: 0 }]);
      expect(await client.resolve6("a.example")).toEqual(["2001:db8::7"]);
      await expect(client.resolve4("b.example")).rejects.toMatchObject({ code: "ENOTFOUND" });
    } finally {
      await resolver.close();
    }
    const refusing = await startResolver(() => ({ rcode: RCODE.REFUSED }));
    try {
      await expect(caresResolver(refusing.udpPort).resolve4("a.example")).rejects.toMatchObject({ code: "EREFUSED" });
    } finally {
      await refusing.close();
    }
  });
});

describe.skipIf(!HAVE_DIG || !HAVE_PYTHON)("dig", () => {
  it("sends a query with an EDNS OPT record (and its cookie) that parseQuery accepts", async () => {
    const [packet] = await captureQueries(1, (port) =>
      killer(spawn("dig", ["@127.0.0.1", "-p", String(port), "a.example", "A", "+tries=1", "+time=30"], { stdio: "ignore" })),
    );
    const query = parsedOk(packet as Buffer);
    expect(query).toMatchObject({ name: "a.example", type: DNS_TYPE.A, qclass: 1, rd: true, opcode: 0 });
    expect((packet as Buffer).readUInt16BE(10)).toBe(1);
  });
});
