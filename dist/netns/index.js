import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:dgram"
const external_node_dgram_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dgram");
var external_node_dgram_default = /*#__PURE__*/__nccwpck_require__.n(external_node_dgram_namespaceObject);
;// CONCATENATED MODULE: external "node:net"
const external_node_net_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");
var external_node_net_default = /*#__PURE__*/__nccwpck_require__.n(external_node_net_namespaceObject);
;// CONCATENATED MODULE: ./src/core/dns-wire.ts
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
const DNS_TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, OPT: 41, ANY: 255 };
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };
/** Why parseQuery refused a message: its `reason`, one per rule. */
const QUERY_FAILURE = {
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
};
const HEADER_BYTES = 12;
const MAX_NAME_BYTES = 255;
const LABEL_TYPE_MASK = 0xc0;
const QR = 0x8000;
const TC = 0x0200;
const RD = 0x0100;
const RA = 0x0080;
/** RFC 1035 4.2.1: the most a UDP answer may hold without EDNS (and we never send OPT back). */
const UDP_MESSAGE_LIMIT = 512;
const TCP_MESSAGE_LIMIT = 65535;
/** Reads one query. Never throws: every length is checked against the message before it is read. */
function parseQuery(message) {
    if (message.length < HEADER_BYTES) {
        return { ok: false, id: message.length < 2 ? null : message.readUInt16BE(0), reason: QUERY_FAILURE.SHORT_HEADER };
    }
    const id = message.readUInt16BE(0);
    const fail = (reason) => ({ ok: false, id, reason });
    const flags = message.readUInt16BE(2);
    if ((flags & QR) !== 0)
        return fail(QUERY_FAILURE.RESPONSE);
    if (message.readUInt16BE(4) !== 1)
        return fail(QUERY_FAILURE.QDCOUNT);
    if (message.readUInt16BE(6) !== 0)
        return fail(QUERY_FAILURE.ANCOUNT);
    if (message.readUInt16BE(8) !== 0)
        return fail(QUERY_FAILURE.NSCOUNT);
    const additionalCount = message.readUInt16BE(10);
    if (additionalCount > 1)
        return fail(QUERY_FAILURE.ARCOUNT);
    const name = readQuestionName(message, HEADER_BYTES);
    if (name.failure !== undefined)
        return fail(name.failure);
    if (name.end + 4 > message.length)
        return fail(QUERY_FAILURE.QUESTION_TRUNCATED);
    const questionEnd = name.end + 4;
    let end = questionEnd;
    if (additionalCount === 1) {
        const opt = skipOptRecord(message, questionEnd);
        if (typeof opt === "string")
            return fail(opt);
        end = opt;
    }
    if (end !== message.length)
        return fail(QUERY_FAILURE.TRAILING_BYTES);
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
/** The uncompressed name at `start`, as lower-cased text, and the offset just past it. */
function readQuestionName(message, start) {
    const labels = [];
    let offset = start;
    for (;;) {
        if (offset >= message.length)
            return { failure: QUERY_FAILURE.NAME_TRUNCATED };
        const lengthByte = message[offset];
        const labelType = lengthByte & LABEL_TYPE_MASK;
        if (labelType === LABEL_TYPE_MASK)
            return { failure: QUERY_FAILURE.NAME_POINTER };
        if (labelType !== 0)
            return { failure: QUERY_FAILURE.NAME_RESERVED_LABEL_TYPE };
        if (lengthByte === 0)
            return { text: labels.join("."), end: offset + 1 };
        const labelEnd = offset + 1 + lengthByte;
        // The encoded name counts its length bytes and the root's zero byte still to come.
        if (labelEnd + 1 - start > MAX_NAME_BYTES)
            return { failure: QUERY_FAILURE.NAME_TOO_LONG };
        if (labelEnd > message.length)
            return { failure: QUERY_FAILURE.NAME_TRUNCATED };
        let label = "";
        for (let i = offset + 1; i < labelEnd; i++) {
            const byte = message[i];
            if (byte < 0x21 || byte > 0x7e)
                return { failure: QUERY_FAILURE.NAME_UNPRINTABLE };
            if (byte === 0x2e)
                return { failure: QUERY_FAILURE.NAME_DOT_IN_LABEL };
            label += String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
        }
        labels.push(label);
        offset = labelEnd;
    }
}
/** Skips an EDNS OPT record (RFC 6891 6.1.2) at `offset`: the offset past it, or why it is not one. */
function skipOptRecord(message, offset) {
    if (offset >= message.length)
        return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
    if (message[offset] !== 0)
        return QUERY_FAILURE.ADDITIONAL_NOT_ROOT;
    // TYPE, CLASS (the sender's UDP size), TTL (extended RCODE, version, flags), RDLENGTH.
    const fixedEnd = offset + 1 + 10;
    if (fixedEnd > message.length)
        return QUERY_FAILURE.ADDITIONAL_TRUNCATED;
    if (message.readUInt16BE(offset + 1) !== DNS_TYPE.OPT)
        return QUERY_FAILURE.ADDITIONAL_NOT_OPT;
    const end = fixedEnd + message.readUInt16BE(fixedEnd - 2);
    return end > message.length ? QUERY_FAILURE.ADDITIONAL_TRUNCATED : end;
}
/** The response to `query`: QR=1, same id and opcode, RD echoed, RA=1, AA=0, the question echoed, answers per `spec`. */
function buildAnswer(query, spec) {
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
        if (bytes === null)
            throw new TypeError(`not an IPv4 or IPv6 address: ${JSON.stringify(text)}`);
        const family = bytes.length === 4 ? DNS_TYPE.A : DNS_TYPE.AAAA;
        return family === query.type ? [bytes] : [];
    });
    const base = HEADER_BYTES + query.questionBytes.length;
    // Name (a pointer), TYPE, CLASS, TTL, RDLENGTH, then the rdata; all records of one type are one size.
    const recordBytes = rdatas.length === 0 ? 0 : 12 + rdatas[0].length;
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
function buildError(id, rcode) {
    checkInteger(id ?? 0, 0, 0xffff, "id");
    checkInteger(rcode, 0, 0x0f, "rcode");
    const out = Buffer.alloc(HEADER_BYTES);
    out.writeUInt16BE(id ?? 0, 0);
    out.writeUInt16BE(QR | RA | rcode, 2);
    return out;
}
function checkInteger(value, min, max, what) {
    if (!Number.isInteger(value) || value < min || value > max)
        throw new RangeError(`${what} must be an integer from ${min} to ${max}, not ${value}`);
}
/**
 * An address's bytes: 4 for IPv4 (dotted quad, no leading zeros), 16 for IPv6 (RFC 4291 2.2,
 * with `::` and a trailing dotted quad); null for anything else, a zone (`%eth0`) included: it
 * means nothing in an answer. (node:net's isIPv4/isIPv6 would do, but core does no network I/O
 * and imports no node:net; the tests hold this to them.)
 */
function addressBytes(text) {
    return ipv4Bytes(text) ?? ipv6Bytes(text);
}
const IPV4_PART = /^(?:0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;
function ipv4Bytes(text) {
    const parts = text.split(".");
    if (parts.length !== 4)
        return null;
    const bytes = Buffer.alloc(4);
    for (const [i, part] of parts.entries()) {
        if (!IPV4_PART.test(part) || Number(part) > 255)
            return null;
        bytes[i] = Number(part);
    }
    return bytes;
}
function ipv6Bytes(text) {
    const halves = text.split("::");
    if (halves.length > 2)
        return null;
    const head = ipv6Groups(halves[0], halves.length === 1);
    const tail = halves.length === 2 ? ipv6Groups(halves[1], true) : [];
    if (head === null || tail === null)
        return null;
    // Without `::` all eight groups are written; with it, `::` stands for at least one.
    if (halves.length === 1 ? head.length !== 8 : head.length + tail.length > 7)
        return null;
    const groups = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
    const bytes = Buffer.alloc(16);
    groups.forEach((group, i) => bytes.writeUInt16BE(group, i * 2));
    return bytes;
}
/** The 16-bit groups of one side of `::`; a dotted quad may only end the address (`atEnd`). */
function ipv6Groups(side, atEnd) {
    if (side === "")
        return [];
    const pieces = side.split(":");
    const groups = [];
    for (const [i, piece] of pieces.entries()) {
        if (atEnd && i === pieces.length - 1 && piece.includes(".")) {
            const v4 = ipv4Bytes(piece);
            if (v4 === null)
                return null;
            groups.push(v4.readUInt16BE(0), v4.readUInt16BE(2));
        }
        else if (IPV6_GROUP.test(piece)) {
            groups.push(parseInt(piece, 16));
        }
        else {
            return null;
        }
    }
    return groups;
}
/** A TCP stream that broke RFC 7766's framing: the connection should be closed. */
class DnsFrameError extends Error {
    constructor(message) {
        super(message);
        this.name = "DnsFrameError";
    }
}
/**
 * RFC 7766 framing: feed bytes from a TCP stream, get whole messages back. Throws DnsFrameError on
 * a zero-length frame (and on every push after it). Each frame is copied once into a buffer of its
 * declared size, so a peer that sends a byte at a time costs no more than one that sends it whole.
 */
class DnsFrameReader {
    #lengthPrefix = Buffer.alloc(2);
    #prefixFilled = 0;
    /** The frame being read: its declared length, and the bytes of it received so far (never more is held). */
    #want = null;
    #parts = [];
    #got = 0;
    #broken = false;
    /** Bytes received that are not yet part of a whole message (a partial length prefix included). */
    get pending() {
        return this.#want === null ? this.#prefixFilled : 2 + this.#got;
    }
    push(chunk) {
        if (this.#broken)
            throw new DnsFrameError("the stream already carried a zero-length frame");
        const messages = [];
        let offset = 0;
        while (offset < chunk.length) {
            if (this.#want === null) {
                const taken = chunk.copy(this.#lengthPrefix, this.#prefixFilled, offset, offset + 2 - this.#prefixFilled);
                offset += taken;
                this.#prefixFilled += taken;
                if (this.#prefixFilled < 2)
                    break;
                this.#prefixFilled = 0;
                const length = this.#lengthPrefix.readUInt16BE(0);
                if (length === 0) {
                    this.#broken = true;
                    throw new DnsFrameError("a zero-length frame");
                }
                this.#want = length;
                this.#parts = [];
                this.#got = 0;
            }
            else {
                // Copied out of the chunk (the caller may reuse it), and only what arrived: a declared
                // length is a claim, so a stream that stops after it holds no more than it sent.
                const end = Math.min(chunk.length, offset + (this.#want - this.#got));
                this.#parts.push(Buffer.from(chunk.subarray(offset, end)));
                this.#got += end - offset;
                offset = end;
                if (this.#got === this.#want) {
                    messages.push(this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#want));
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
function frameMessage(message) {
    if (message.length === 0 || message.length > TCP_MESSAGE_LIMIT) {
        throw new RangeError(`a framed DNS message is 1 to ${TCP_MESSAGE_LIMIT} bytes, not ${message.length}`);
    }
    const out = Buffer.alloc(2 + message.length);
    out.writeUInt16BE(message.length, 0);
    message.copy(out, 2);
    return out;
}

;// CONCATENATED MODULE: external "node:dns/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns/promises");
;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: ./src/core/errors.ts
/**
 * Every refusal carries exactly one code (CONTRACT.md section 8). A policy denial and an
 * outage never share a code, and no code means "allowed".
 */
const ERROR_CODES = (/* unused pure expression or super */ null && ([
    "ENVELOPE_MISSING",
    "ENVELOPE_UNREADABLE",
    "ENVELOPE_INVALID",
    "ENVELOPE_DIGEST_MISSING",
    "ENVELOPE_DIGEST_INVALID",
    "ENVELOPE_DIGEST_UNREADABLE",
    "ENVELOPE_HASH_MISMATCH",
    "ROOT_VARIABLE_UNDEFINED",
    "OBSERVER_LOG_MISSING",
    "OBSERVER_LOG_UNREADABLE",
    "OBSERVER_LOG_MALFORMED",
    "OBSERVER_LOG_INCOMPLETE",
    "OBSERVER_LOG_ENVELOPE_MISMATCH",
    "OBSERVER_UNAVAILABLE",
    "PROPERTIES_INVALID",
    "PROPERTY_UNAVAILABLE",
    "LEDGER_UNREADABLE",
    "LEDGER_INVALID",
    "GITHUB_UNAVAILABLE",
    "STORE_UNAVAILABLE",
    "RUNNER_B_UNAVAILABLE",
    "EVIDENCE_UNAVAILABLE",
    "EVIDENCE_DIGEST_MISMATCH",
    "WEBHOOK_SIGNATURE_INVALID",
    "KILL_SWITCH_ENGAGED",
    "BYPASS_REFUSED",
    "CONFIG_INVALID",
    "INTERNAL_ERROR",
    "DELIVERY_IN_PROGRESS",
    "APP_DRAINING",
    "PROCESS_FENCED",
    "DUAL_RUN_MISMATCH",
    "OBSERVER_DISAGREEMENT",
    "PULL_REQUEST_HEAD_MOVED",
    "OBSERVER_CHANNEL_INVALID",
    "OBSERVER_INTERRUPTED",
    "COMMAND_NOT_FOUND",
    "RUNNER_IDENTITY_UNAVAILABLE",
    "OBSERVER_LOG_UNWRITABLE",
    "JAIL_UNAVAILABLE",
    "OBSERVER_TRACER_LOST",
    "OBSERVER_CHANNEL_TAMPERED",
    "OBSERVATION_PARTIAL",
    "POLICY_FILE_TOO_LARGE",
    "PULL_FILES_TRUNCATED",
    "WEBHOOK_BODY_TOO_LARGE",
    "WEBHOOK_HEADERS_MISSING",
    "WEBHOOK_BODY_NOT_JSON",
    "WEBHOOK_PAYLOAD_INVALID",
    "PRIVATE_KEY_INVALID",
    "NOT_FOUND",
    "RUNNER_B_BUDGET_EXCEEDED",
    "BUDGET_UNCONFIRMED",
    "SWITCH_UNRECORDED_CHANGE",
    "DISPATCH_OUTCOME_UNKNOWN",
    "APP_CRASH_LOOP",
    "SECRET_IN_ENVIRONMENT",
    "SECRET_UNAVAILABLE",
    "OBSERVER_LOG_WRITE_FAILED",
    "OUTPUT_UNWRITABLE",
    "JAIL_CWD_HIDDEN",
    "ACTION_COPY_WRITABLE",
    "ACTION_COPY_UNAVAILABLE",
    "PROPERTY_SCRATCH_UNAVAILABLE",
    "PROTECTED_PATHS_UNAVAILABLE",
    "GIT_CREDENTIALS_UNCHECKED",
    "REDELIVERY_LIST_REFUSED",
    "REDELIVERY_RATE_LIMITED",
    "REDELIVERY_EXPIRED",
    "REDELIVERY_REFUSED",
    "REDELIVERY_EXHAUSTED",
    "REDELIVERY_BACKLOG_EXPIRED",
    "PULL_REQUEST_BASE_CHANGED",
    "PULL_REQUEST_BASE_MISSING",
    "LEDGER_BRANCH_FOREIGN",
    "LEDGER_PR_FOREIGN",
    "LEDGER_PR_TAMPERED",
    "LEDGER_PR_RETARGETED",
    "JAIL_IDENTITY_UNAVAILABLE",
    "RUNNER_A_UNVERIFIED",
    "RUNNER_A_EVENT_REFUSED",
    "RUNNER_A_NOT_CURRENT_HEAD",
    "RUNNER_A_WORKFLOW_CHANGED",
    "RUNNER_A_USES_UNREADABLE",
    "RUNNER_A_USES_CYCLE",
    "RUNNER_A_USES_UNBOUNDED",
    "RUNNER_B_UNVERIFIED",
    "VERIFIED_CHECK_EVIDENCE_REFUSED",
    "VERIFIED_CHECK_BASE_UNNAMED",
    "VERIFIED_CHECK_BASE_CHANGED",
    "VERIFIED_CHECK_BASE_MOVED",
    "ORG_ENVELOPE_INVALID",
    "ORG_ENVELOPE_DIGEST_MISMATCH",
    "ORG_ENVELOPE_WIDENED",
    "ORG_ENVELOPE_UNCHECKED",
    "VERIFIED_CHECK_EARLIER_ATTEMPT",
    "VERIFIED_CHECK_PULL_UNVERIFIED",
    "VERIFIED_CHECK_BUSY",
    "VERIFIED_CHECK_STILL_GATED",
    "UNGATE_REFUSED",
    "FREEZE_NOT_FREEZABLE",
    "FREEZE_EVIDENCE_UNAVAILABLE",
    "FREEZE_EVIDENCE_MISMATCH",
    "SUGGEST_ROOT_MISMATCH",
    "CHECK_OPTIONS_CONFLICT",
    "SCRATCH_REMOVE_FAILED",
    "SCRATCH_UNSAFE",
    "AUDIT_RUN_UNVERIFIED",
    "AUDIT_EVIDENCE_UNAVAILABLE",
    "AUDIT_BUNDLE_NOT_AUDIT",
    "ENVELOPE_BRANCH_FOREIGN",
    "ENVELOPE_PR_FOREIGN",
    "ENVELOPE_PR_TAMPERED",
    "ENVELOPE_PR_RETARGETED",
    "ENVELOPE_PR_BUSY",
    "SARIF_UPLOAD_FAILED",
    "VERIFIED_CHECK_AUDIT_EVIDENCE",
    "RECORDER_UNAVAILABLE",
    "OBSERVER_EVENTS_LOST",
    "OBSERVER_PATH_UNKNOWN",
    "OBSERVER_EFFECTS_UNCHECKED",
    "GITHUB_BUDGET_LOW",
    "PREREQUISITE_MISSING",
    "PREREQUISITE_USERNS_BLOCKED",
    "PREREQUISITE_PLATFORM_UNSUPPORTED",
    "PREREQUISITE_SETUP_FAILED",
    "PREREQUISITE_SETUP_INEFFECTIVE",
    "APP_SETUP_STATE_MISMATCH",
    "APP_SETUP_CONVERSION_FAILED",
    "APP_SETUP_FILES_EXIST",
    "APP_SETUP_OWNER_MISMATCH",
    "SERVICE_NOT_ALLOWED",
    "SERVICE_UNAVAILABLE",
]));
/** A typed refusal: the gate could not decide, so it did not pass. */
class Refusal extends Error {
    code;
    file;
    line;
    column;
    /** What a person should do next. */
    hint;
    constructor(code, message, where = {}) {
        super(message, where.cause === undefined ? undefined : { cause: where.cause });
        this.name = "Refusal";
        this.code = code;
        this.file = where.file;
        this.line = where.line;
        this.column = where.column;
        this.hint = where.hint;
    }
    /** `file:line:col` where known, for messages and annotations. */
    get location() {
        if (this.file === undefined)
            return undefined;
        if (this.line === undefined)
            return this.file;
        return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
    }
    toJSON() {
        const out = {
            code: this.code,
            message: this.message,
        };
        if (this.file !== undefined)
            out.file = this.file;
        if (this.line !== undefined)
            out.line = this.line;
        if (this.hint !== undefined)
            out.hint = this.hint;
        return out;
    }
}
function isRefusal(value) {
    return value instanceof Refusal;
}
const RETRY = "then `envelope-gate app retry --delivery ID` (the App kept its payload; any replica's worker takes it up)";
const SWEEPER = "The App holds the delivery (queued) and its sweeper retries it; nothing to redeliver.";
/** The advice for a code without a hint of its own. */
const GENERIC_HINT = (/* unused pure expression or super */ null && (`Fix the cause named in the message, ${RETRY}.`));
function row(category, differs = {}) {
    return { category, transient: false, setAside: false, nothingSent: false, httpStatus: 503, hint: undefined, ...differs };
}
/** Every code's classification: the one place the App reads it from. */
const ERROR_TABLE = {
    ENVELOPE_MISSING: row("policy-input"),
    ENVELOPE_UNREADABLE: row("policy-input"),
    ENVELOPE_INVALID: row("policy-input", {
        hint: `The envelope on the default branch does not parse or validate, so no envelope PR is proposed over it: fix it on the branch (the next audit run proposes again), or ${RETRY}.`,
    }),
    ENVELOPE_DIGEST_MISSING: row("policy-input"),
    ENVELOPE_DIGEST_INVALID: row("policy-input"),
    ENVELOPE_DIGEST_UNREADABLE: row("policy-input"),
    ENVELOPE_HASH_MISMATCH: row("policy-input"),
    ROOT_VARIABLE_UNDEFINED: row("policy-input"),
    OBSERVER_LOG_MISSING: row("observer"),
    OBSERVER_LOG_UNREADABLE: row("observer"),
    OBSERVER_LOG_MALFORMED: row("observer"),
    OBSERVER_LOG_INCOMPLETE: row("observer"),
    OBSERVER_LOG_ENVELOPE_MISMATCH: row("observer"),
    OBSERVER_UNAVAILABLE: row("observer"),
    PROPERTIES_INVALID: row("policy-input"),
    PROPERTY_UNAVAILABLE: row("observer"),
    LEDGER_UNREADABLE: row("policy-input", {
        hint: `The ledger path on the base branch is not a file: fix ENVELOPE_GATE_LEDGER_PATH or the repository, ${RETRY}.`,
    }),
    LEDGER_INVALID: row("policy-input"),
    GITHUB_UNAVAILABLE: row("github", {
        transient: true,
        hint: `GitHub was unreachable, slow or refused the request: check githubstatus.com and the App's permissions. ${SWEEPER}`,
    }),
    STORE_UNAVAILABLE: row("store", {
        transient: true,
        hint: "The database could not be read or written: check /healthz and the database. Work the App recorded is retried by the sweeper once the store answers; deliveries it could not record (answered 503) are asked for again by the redelivery sweep.",
    }),
    RUNNER_B_UNAVAILABLE: row("evidence", {
        hint: "Runner B could not be scheduled or did not finish in time: check the runners labelled for B.",
    }),
    EVIDENCE_UNAVAILABLE: row("evidence", {
        hint: "The run's evidence artifact is missing or unreadable: check the gate workflow uploads envelope-gate-evidence.",
    }),
    EVIDENCE_DIGEST_MISMATCH: row("evidence", {
        hint: "An evidence bundle does not match its digests: treat it as tampering and investigate the run.",
    }),
    WEBHOOK_SIGNATURE_INVALID: row("app", { httpStatus: 401 }),
    KILL_SWITCH_ENGAGED: row("app", {
        transient: true,
        setAside: true,
        nothingSent: true,
        hint: "Held while the App was paused: after `envelope-gate app resume` the sweeper sends it (every delivery is recorded during a pause; nothing to redeliver).",
    }),
    BYPASS_REFUSED: row("app"),
    CONFIG_INVALID: row("invocation"),
    INTERNAL_ERROR: row("internal", { hint: `A bug in envelope-gate: report it with the delivery id and the log line, ${RETRY}.` }),
    DELIVERY_IN_PROGRESS: row("app"),
    APP_DRAINING: row("app", { transient: true, setAside: true, nothingSent: true }),
    PROCESS_FENCED: row("app", { transient: true, nothingSent: true }),
    DUAL_RUN_MISMATCH: row("evidence", { hint: "Runner B ran another commit or envelope: nothing to do, the property keeps failing." }),
    OBSERVER_DISAGREEMENT: row("evidence"),
    PULL_REQUEST_HEAD_MOVED: row("github"),
    OBSERVER_CHANNEL_INVALID: row("observer"),
    OBSERVER_INTERRUPTED: row("observer"),
    COMMAND_NOT_FOUND: row("observer"),
    RUNNER_IDENTITY_UNAVAILABLE: row("observer"),
    OBSERVER_LOG_UNWRITABLE: row("observer"),
    JAIL_UNAVAILABLE: row("observer"),
    OBSERVER_TRACER_LOST: row("observer"),
    OBSERVER_CHANNEL_TAMPERED: row("observer"),
    OBSERVATION_PARTIAL: row("observer"),
    POLICY_FILE_TOO_LARGE: row("policy-input"),
    PULL_FILES_TRUNCATED: row("github"),
    WEBHOOK_BODY_TOO_LARGE: row("app", { httpStatus: 413 }),
    WEBHOOK_HEADERS_MISSING: row("app", { httpStatus: 400 }),
    WEBHOOK_BODY_NOT_JSON: row("app", { httpStatus: 400 }),
    WEBHOOK_PAYLOAD_INVALID: row("app", { httpStatus: 400 }),
    PRIVATE_KEY_INVALID: row("app", {
        nothingSent: true,
        hint: `The App's private key is not a PEM RSA private key: put the .pem GitHub generated in its file (read at each use, no restart), ${RETRY}.`,
    }),
    NOT_FOUND: row("app", { httpStatus: 404 }),
    RUNNER_B_BUDGET_EXCEEDED: row("app", {
        hint: "Runner B's daily cap is used up: nothing to do for this run (the property keeps failing). Raise the cap with `envelope-gate app budget set … --reason` if the spend is intended; it resets at 00:00 UTC.",
    }),
    BUDGET_UNCONFIRMED: row("store", {
        transient: true,
        hint: "The store could not confirm runner B's budget, so nothing was dispatched: check /healthz and the database; queued work is retried by the sweeper.",
    }),
    SWITCH_UNRECORDED_CHANGE: row("store", {
        hint: "A switch was changed outside the App's commands and the watchdog answered it (see the switch history): find who or what edited the store; use `envelope-gate app pause|resume|budget|redelivery … --reason`.",
    }),
    DISPATCH_OUTCOME_UNKNOWN: row("github", {
        transient: true,
        hint: "An earlier dispatch of runner B may have started a run GitHub does not list yet: nothing to do, the sweeper looks again after a minute and dispatches only if no run appeared.",
    }),
    APP_CRASH_LOOP: row("app", {
        hint: "This replica crashed repeatedly: read its last log lines, fix the cause, then `envelope-gate app reset-crashes --replica ID --reason`.",
    }),
    SECRET_IN_ENVIRONMENT: row("app"),
    SECRET_UNAVAILABLE: row("app", {
        transient: true,
        nothingSent: true,
        hint: "A secret file or the secret command named in the message failed: fix it (it is read again at the next use, no restart); the sweeper retries queued work, and the redelivery sweep asks GitHub again for the deliveries refused meanwhile.",
    }),
    OBSERVER_LOG_WRITE_FAILED: row("observer"),
    OUTPUT_UNWRITABLE: row("invocation"),
    JAIL_CWD_HIDDEN: row("observer"),
    ACTION_COPY_WRITABLE: row("observer"),
    ACTION_COPY_UNAVAILABLE: row("observer"),
    PROPERTY_SCRATCH_UNAVAILABLE: row("observer"),
    PROTECTED_PATHS_UNAVAILABLE: row("observer"),
    GIT_CREDENTIALS_UNCHECKED: row("observer"),
    REDELIVERY_LIST_REFUSED: row("github", {
        hint: "GitHub refused to list the App's webhook deliveries (GET /app/hook/deliveries, with the App's JWT): check ENVELOPE_GATE_APP_ID and the private key belong to this App. Until it lists, failed deliveries are not asked for again; the next pass tries.",
    }),
    REDELIVERY_RATE_LIMITED: row("github", {
        hint: "GitHub rate-limited the App's JWT requests: the next redelivery pass tries again; nothing to do unless it persists (then lengthen ENVELOPE_GATE_REDELIVERY_SECONDS).",
    }),
    REDELIVERY_EXPIRED: row("github", {
        hint: "This delivery failed and is older than GitHub keeps deliveries (3 days): it cannot be redelivered. Produce the event again (re-run runner A's workflow, push again) if its work still matters.",
    }),
    REDELIVERY_REFUSED: row("github", {
        hint: "GitHub refused to redeliver it (see the message): the next pass asks again, within ENVELOPE_GATE_REDELIVERY_ATTEMPTS.",
    }),
    REDELIVERY_EXHAUSTED: row("app", {
        hint: "GitHub redelivered it ENVELOPE_GATE_REDELIVERY_ATTEMPTS times and every attempt failed at the App: find why in the App's log (webhook.refused or delivery.unrecorded with this delivery id), fix it, then redeliver it once from the App's settings (Advanced > Recent deliveries): the App does not ask again.",
    }),
    REDELIVERY_BACKLOG_EXPIRED: row("github", {
        hint: "The redelivery sweep had not listed back to its mark before GitHub dropped the deliveries (it keeps them 3 days): a delivery that failed in the window named in the message can no longer be listed or redelivered. Find what that window's events were for (the App's log, the repositories' activity) and produce them again where they matter (re-run runner A's workflows, push again); keep the sweep on (`envelope-gate app redelivery on --reason`).",
    }),
    PULL_REQUEST_BASE_CHANGED: row("github"),
    PULL_REQUEST_BASE_MISSING: row("github"),
    LEDGER_BRANCH_FOREIGN: row("github"),
    LEDGER_PR_FOREIGN: row("github"),
    LEDGER_PR_TAMPERED: row("github"),
    LEDGER_PR_RETARGETED: row("github"),
    JAIL_IDENTITY_UNAVAILABLE: row("observer"),
    RUNNER_A_UNVERIFIED: row("evidence"),
    RUNNER_A_EVENT_REFUSED: row("evidence"),
    RUNNER_A_NOT_CURRENT_HEAD: row("evidence"),
    RUNNER_A_WORKFLOW_CHANGED: row("evidence"),
    RUNNER_A_USES_UNREADABLE: row("evidence"),
    RUNNER_A_USES_CYCLE: row("evidence"),
    RUNNER_A_USES_UNBOUNDED: row("evidence"),
    RUNNER_B_UNVERIFIED: row("evidence"),
    VERIFIED_CHECK_EVIDENCE_REFUSED: row("evidence"),
    VERIFIED_CHECK_BASE_UNNAMED: row("evidence"),
    VERIFIED_CHECK_BASE_CHANGED: row("evidence"),
    VERIFIED_CHECK_BASE_MOVED: row("evidence"),
    ORG_ENVELOPE_INVALID: row("policy-input", {
        hint: "The organisation envelope in the .github repository does not parse or validate: every covered repository's verified check fails until it is fixed on that repository's default branch.",
    }),
    ORG_ENVELOPE_DIGEST_MISMATCH: row("policy-input", {
        hint: "Commit the organisation envelope's digest beside it (envelope-gate hash org-envelope.json > org-envelope.json.sha256) in the same reviewed change.",
    }),
    ORG_ENVELOPE_WIDENED: row("policy-input"),
    ORG_ENVELOPE_UNCHECKED: row("policy-input"),
    VERIFIED_CHECK_EARLIER_ATTEMPT: row("evidence"),
    VERIFIED_CHECK_PULL_UNVERIFIED: row("evidence"),
    VERIFIED_CHECK_BUSY: row("app", {
        transient: true,
        hint: `Another delivery was posting the same commit's verified check; this one's change is included once it is done. ${SWEEPER}`,
    }),
    VERIFIED_CHECK_STILL_GATED: row("evidence"),
    UNGATE_REFUSED: row("app"),
    FREEZE_NOT_FREEZABLE: row("policy-input"),
    FREEZE_EVIDENCE_UNAVAILABLE: row("evidence"),
    FREEZE_EVIDENCE_MISMATCH: row("evidence"),
    SUGGEST_ROOT_MISMATCH: row("invocation"),
    CHECK_OPTIONS_CONFLICT: row("invocation"),
    SCRATCH_REMOVE_FAILED: row("observer"),
    SCRATCH_UNSAFE: row("observer"),
    AUDIT_RUN_UNVERIFIED: row("evidence"),
    AUDIT_EVIDENCE_UNAVAILABLE: row("evidence"),
    AUDIT_BUNDLE_NOT_AUDIT: row("evidence"),
    ENVELOPE_BRANCH_FOREIGN: row("github"),
    ENVELOPE_PR_FOREIGN: row("github"),
    ENVELOPE_PR_TAMPERED: row("github"),
    ENVELOPE_PR_RETARGETED: row("github"),
    ENVELOPE_PR_BUSY: row("app", {
        transient: true,
        hint: `Another delivery was writing the same repository's envelope PR. ${SWEEPER}`,
    }),
    SARIF_UPLOAD_FAILED: row("github"),
    VERIFIED_CHECK_AUDIT_EVIDENCE: row("evidence"),
    RECORDER_UNAVAILABLE: row("observer"),
    OBSERVER_EVENTS_LOST: row("observer"),
    OBSERVER_PATH_UNKNOWN: row("observer"),
    OBSERVER_EFFECTS_UNCHECKED: row("observer"),
    PREREQUISITE_MISSING: row("observer"),
    PREREQUISITE_USERNS_BLOCKED: row("observer"),
    PREREQUISITE_PLATFORM_UNSUPPORTED: row("observer"),
    PREREQUISITE_SETUP_FAILED: row("observer"),
    PREREQUISITE_SETUP_INEFFECTIVE: row("observer"),
    GITHUB_BUDGET_LOW: row("github", {
        transient: true,
        setAside: true,
        nothingSent: true,
        hint: "The installation's GitHub API budget ran low, so this work waits in the written order (docs/app.md, Rate limits): nothing to do, the sweeper of any replica takes it up after the reset named in the message. If it happens every hour, fewer repositories per installation or fewer re-runs spend less.",
    }),
    APP_SETUP_STATE_MISMATCH: row("invocation"),
    APP_SETUP_CONVERSION_FAILED: row("github"),
    APP_SETUP_FILES_EXIST: row("invocation"),
    APP_SETUP_OWNER_MISMATCH: row("invocation"),
    SERVICE_NOT_ALLOWED: row("policy-input"),
    SERVICE_UNAVAILABLE: row("observer", {
        hint: "A declared service was not answering when the run started: start it as a job service with a health check (docs/authoring.md#suites-with-services), or remove it from the envelope's services.",
    }),
};
function isErrorCode(value) {
    return Object.hasOwn(ERROR_TABLE, value);
}
/** A code the table does not know (a store row written by another version) reads as the defaults: not transient, counted, maybe sent. */
function rowOf(code) {
    return isErrorCode(code) ? ERROR_TABLE[code] : undefined;
}
function isTransient(code) {
    return rowOf(code)?.transient ?? false;
}
function isSetAside(code) {
    return rowOf(code)?.setAside ?? false;
}
function nothingSent(code) {
    return rowOf(code)?.nothingSent ?? false;
}
function httpStatusOf(code) {
    return ERROR_TABLE[code].httpStatus;
}
/** github.com's API; any other API URL is a GitHub Enterprise Server (or another host), whose status githubstatus.com does not show. */
function isGitHubDotCom(apiUrl) {
    try {
        return new URL(apiUrl).hostname === "api.github.com";
    }
    catch {
        return false;
    }
}
/**
 * The operator's advice for a failure recorded with this code (or none). With the App's API URL,
 * GITHUB_UNAVAILABLE names it when it is not github.com's (githubstatus.com says nothing of a
 * GitHub Enterprise Server).
 */
function hintOf(code, where = {}) {
    if (code === "GITHUB_UNAVAILABLE" && where.githubApiUrl !== undefined && !isGitHubDotCom(where.githubApiUrl)) {
        return `GitHub at ${where.githubApiUrl} (ENVELOPE_GATE_GITHUB_API_URL, the App's settings) was unreachable, slow or refused the request: check that server is up and reachable from the App, and the App's permissions. ${SWEEPER}`;
    }
    return (code === null ? undefined : rowOf(code)?.hint) ?? GENERIC_HINT;
}
/** A Node (or driver) error's `code`: `ENOENT`, `SQLITE_BUSY`, `23505`; undefined when it has none. */
function errors_errnoOf(err) {
    if (typeof err !== "object" || err === null)
        return undefined;
    const code = err.code;
    return code === undefined || code === null ? undefined : String(code);
}
/**
 * An observer log that could not be opened or read: OBSERVER_LOG_MISSING when nothing is at the
 * path (ENOENT, or ENOTDIR: a file where a directory of the path should be), else
 * OBSERVER_LOG_UNREADABLE naming the errno.
 */
function logOpenError(err, path, missingHint) {
    const code = errors_errnoOf(err);
    if (code === "ENOENT" || code === "ENOTDIR") {
        return new Refusal("OBSERVER_LOG_MISSING", `observer log ${path} does not exist`, {
            file: path,
            ...(missingHint === undefined ? {} : { hint: missingHint }),
            cause: err,
        });
    }
    return new Refusal("OBSERVER_LOG_UNREADABLE", `observer log ${path} cannot be read (${code ?? String(err)})`, {
        file: path,
        cause: err,
    });
}

;// CONCATENATED MODULE: ./src/core/hosts.ts
/**
 * Host matching for `allowed_hosts`: exact names or IP literals, an optional `:port`,
 * `*.example.com`, which matches subdomains only, never the apex, and named host sets
 * (`@npm`, `@pypi`, ...), which stand for the closed lists in HOST_SETS.
 */
/**
 * The version of HOST_SETS below. The envelope's hash pins a set's name, the code pins its list:
 * any change to a list (a member added, removed or its port changed, a set added or removed)
 * bumps this number, and docs/egress.md's table says what each version holds. The check report
 * shows every host that was allowed through a set, with the set's name.
 */
const HOST_SETS_VERSION = 1;
/**
 * Named host sets for `allowed_hosts`: what a package manager or a well-known download contacts,
 * by name and port, and nothing else. Closed lists of exact names (no wildcards), none of them a
 * shared front for arbitrary content: a set never includes a cloud storage or CDN name that
 * serves anyone's files (storage.googleapis.com, *.cloudfront.net, ...).
 */
const HOST_SETS = new Map([
    // npm, yarn and pnpm against the public registry (tarballs come from the registry host).
    ["@npm", ["registry.npmjs.org:443", "registry.yarnpkg.com:443"]],
    // pip, uv, poetry: the index and the file host.
    ["@pypi", ["pypi.org:443", "files.pythonhosted.org:443"]],
    // cargo: the API, the sparse index, the crate downloads.
    ["@crates", ["crates.io:443", "index.crates.io:443", "static.crates.io:443"]],
    // `go mod download` with the default GOPROXY and GOSUMDB.
    ["@go-proxy", ["proxy.golang.org:443", "sum.golang.org:443"]],
    // apt against Debian's mirrors network and security archive.
    ["@debian", ["deb.debian.org:80", "deb.debian.org:443", "security.debian.org:80", "security.debian.org:443"]],
    // apt against Ubuntu's archive, security archive and ports (arm64 and others).
    [
        "@ubuntu",
        [
            "archive.ubuntu.com:80",
            "archive.ubuntu.com:443",
            "security.ubuntu.com:80",
            "security.ubuntu.com:443",
            "ports.ubuntu.com:80",
            "ports.ubuntu.com:443",
        ],
    ],
    // git over https, the REST API, archives, release assets and raw files.
    [
        "@github",
        [
            "github.com:443",
            "api.github.com:443",
            "codeload.github.com:443",
            "objects.githubusercontent.com:443",
            "raw.githubusercontent.com:443",
        ],
    ],
    // Node.js downloads (nvm, node-gyp headers, corepack's index).
    ["@node-dist", ["nodejs.org:443"]],
]);
/**
 * The programs each set is documented for: `suggest` proposes a set in place of its members only
 * when one of these ran (an `exec` with this basename) and every endpoint the run reached on the
 * set's names is a member (docs/egress.md, "suggest and host sets").
 */
const HOST_SET_TOOLS = new Map([
    ["@npm", ["npm", "npm-cli.js", "npx", "npx-cli.js", "yarn", "yarn.js", "yarn.cjs", "pnpm", "pnpm.cjs", "corepack"]],
    ["@pypi", ["pip", "pip3", "uv", "poetry", "pipx"]],
    ["@crates", ["cargo"]],
    ["@go-proxy", ["go"]],
    ["@debian", ["apt", "apt-get", "http", "https"]],
    ["@ubuntu", ["apt", "apt-get", "http", "https"]],
    ["@github", ["git", "git-remote-https", "gh"]],
    ["@node-dist", ["node-gyp", "corepack", "nvm"]],
]);
/** True for an `allowed_hosts` entry that names a set (`@npm`), known or not. */
function isHostSetEntry(entry) {
    return entry.startsWith("@");
}
/**
 * The patterns one `allowed_hosts` entry stands for: one for a host, each member (tagged with
 * the set's name) for a set. Null for an unknown set or a port out of range.
 */
function expandHostEntry(entry) {
    if (isHostSetEntry(entry)) {
        const members = HOST_SETS.get(entry);
        if (members === undefined)
            return null;
        return members.map((m) => ({ ...parseHostPattern(m), set: entry }));
    }
    const p = parseHostPattern(entry);
    return p === null ? null : [p];
}
/**
 * The set a host was allowed through: null when an entry written out (or a wildcard) allows it, or
 * when nothing does. The report shows `registry.npmjs.org:443 (via @npm)` for such a host.
 */
function allowedViaSet(patterns, host, port) {
    let via = null;
    for (const p of patterns) {
        if (!hostMatches(p, host, port))
            continue;
        if (p.set === undefined)
            return null;
        via ??= p.set;
    }
    return via;
}
/** Normalises a recorded host: lower case, brackets and a trailing dot removed. */
function hosts_normalizeHost(host) {
    let h = host.trim().toLowerCase();
    if (h.startsWith("[") && h.endsWith("]"))
        h = h.slice(1, -1);
    if (h.endsWith(".") && h.length > 1)
        h = h.slice(0, -1);
    return h;
}
/** Parses one `allowed_hosts` entry (already shape-checked by the schema). Null if the port is out of range. */
function parseHostPattern(source) {
    let rest = source;
    let port = null;
    if (rest.startsWith("[")) {
        const close = rest.indexOf("]");
        const after = rest.slice(close + 1);
        if (after.startsWith(":"))
            port = Number(after.slice(1));
        rest = rest.slice(1, close);
    }
    else if ((rest.match(/:/g) ?? []).length === 1) {
        const i = rest.indexOf(":");
        port = Number(rest.slice(i + 1));
        rest = rest.slice(0, i);
    }
    if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535))
        return null;
    const wildcard = rest.startsWith("*.");
    return { source, host: wildcard ? rest.slice(2) : rest, wildcard, port };
}
/**
 * Whether `pattern` allows `host` on `port`. A host event without a port is a name lookup, not a
 * connection: a name allowed on any port may be looked up (`registry.npmjs.org:443` allows the
 * lookup of `registry.npmjs.org`), so that an envelope of `name:port` entries passes a program that
 * resolves a name before it connects.
 */
function hostMatches(pattern, host, port) {
    if (pattern.port !== null && port !== null && pattern.port !== port)
        return false;
    if (pattern.wildcard) {
        return host.length > pattern.host.length + 1 && host.endsWith("." + pattern.host);
    }
    return host === pattern.host;
}
function hostAllowed(patterns, host, port) {
    for (const p of patterns) {
        if (hostMatches(p, host, port))
            return true;
    }
    return false;
}
/** `host`, `host:port`, or `[v6]:port`: the subject of a network violation. */
function hosts_formatEndpoint(host, port) {
    if (port === null)
        return host;
    return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

;// CONCATENATED MODULE: ./src/observer/egress.ts
/**
 * The egress proxy for `network: "allowlist"` (docs/egress.md). It runs in the wrapper, outside
 * the jail, and is the jailed command's only way out: the relay inside the jail (egress-relay.ts)
 * hands every TCP connection made to its loopback port to this proxy's unix socket.
 *
 * It speaks HTTP proxy: `CONNECT host:port` opens a tunnel, an absolute-form request
 * (`GET http://host[:port]/path`, any method) is forwarded. Each request is decided by name
 * through `allowed(host, port)`: a refused host gets 403 and nothing is resolved or connected;
 * an allowed name is resolved here (the jail resolves nothing) and connected. Every request
 * that names a target is recorded exactly once (EgressRecord), before any byte of the client's
 * reaches the upstream.
 *
 * Bounds: a request head is at most HEAD_LIMIT bytes (431, connection closed), and so is an
 * upstream response head (502); a TLS ClientHello peeked in a tunnel is at most
 * CLIENT_HELLO_LIMIT bytes; at most MAX_CLIENT_CONNECTIONS clients at once; bodies and tunnels
 * are streamed with backpressure, never buffered whole.
 */





/** Largest request head (request line and headers) the proxy reads. */
const HEAD_LIMIT = (/* unused pure expression or super */ null && (64 * 1024));
/** Most bytes buffered while waiting for a tunnel's complete TLS ClientHello. */
const CLIENT_HELLO_LIMIT = (/* unused pure expression or super */ null && (64 * 1024));
/** Most client connections open at once (each may hold one upstream socket too); more are closed at accept. */
const MAX_CLIENT_CONNECTIONS = 1024;
/** How long one upstream address may take to accept a connection. */
const CONNECT_TIMEOUT_MS = 15_000;
const LOCAL_HOSTS = "localhost,127.0.0.1,::1";
/**
 * The environment keys the jailed command gets under `allowlist`, whatever `allowed_env` says:
 * every proxy variable points at the relay, and NODE_USE_ENV_PROXY=1 makes a Node that honours it
 * (24.5+, 22.21+) send fetch, http and https through them (on an older Node the preload does,
 * src/observer/preload/proxy.ts). The keys are exactly PROXY_ENV_KEYS (src/core/rules.ts), whose
 * reads the check does not judge under allowlist.
 */
function proxyEnv(port) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new RangeError(`proxyEnv: port ${String(port)} is not 1-65535`);
    const url = `http://127.0.0.1:${port}`;
    return {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        ALL_PROXY: url,
        all_proxy: url,
        NO_PROXY: LOCAL_HOSTS,
        no_proxy: LOCAL_HOSTS,
        NODE_USE_ENV_PROXY: "1",
    };
}
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
/** A normalised host if `raw` is a DNS name or an IP literal (no zone id), else null. */
function validHost(raw) {
    const host = hosts_normalizeHost(raw);
    if (host.includes("%"))
        return null;
    if (external_node_net_default().isIP(host) !== 0)
        return host;
    return host.length <= 253 && NAME.test(host) ? host : null;
}
/** Parses `host:port` or `[v6]:port` (a CONNECT target, the relay's --listen). Null if malformed. */
function parseAuthority(authority) {
    const m = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
    if (!m)
        return null;
    const port = Number(m[2]);
    const bracketed = m[1].startsWith("[");
    const host = validHost(m[1]);
    if (host === null || port < 1 || port > 65535)
        return null;
    if (bracketed !== external_node_net_default().isIPv6(host))
        return null;
    return { host, port };
}
const INCOMPLETE = { kind: "incomplete" };
const malformed = (why) => ({ kind: "malformed", why });
/**
 * Looks at the first bytes a client sent into a tunnel. A first byte other than 0x16 (a TLS
 * handshake record) is "not-tls". Otherwise the ClientHello is reassembled from consecutive
 * handshake records and its server_name read; anything that does not parse is "malformed".
 * Pure, and it reads no further than the ClientHello's own declared lengths.
 */
function peekClientHello(data) {
    if (data.length === 0)
        return INCOMPLETE;
    if (data[0] !== 0x16)
        return { kind: "not-tls" };
    const fragments = [];
    let have = 0;
    let need = -1;
    /** Reads the handshake header once 4 bytes of it are there (in whole records or the one still arriving). */
    const header = (partial) => {
        if (need !== -1 || have + partial.length < 4)
            return null;
        const start = Buffer.concat([...fragments, partial], 4);
        if (start[0] !== 1)
            return malformed("the first handshake message is not a ClientHello");
        need = 4 + start.readUIntBE(1, 3);
        return need > CLIENT_HELLO_LIMIT ? malformed("ClientHello longer than the limit") : null;
    };
    for (let off = 0;;) {
        if (data.length - off < 5)
            return INCOMPLETE;
        if (data[off] !== 0x16)
            return malformed("a non-handshake record before the end of the ClientHello");
        if (data[off + 1] !== 3)
            return malformed("not a TLS record version");
        const length = data.readUInt16BE(off + 3);
        if (length === 0 || length > 16384)
            return malformed(`record length ${length}`);
        if (data.length - off - 5 < length)
            return header(data.subarray(off + 5)) ?? INCOMPLETE;
        const fragment = data.subarray(off + 5, off + 5 + length);
        const verdict = header(fragment);
        if (verdict !== null)
            return verdict;
        fragments.push(fragment);
        have += length;
        off += 5 + length;
        if (need !== -1 && have >= need)
            return parseClientHelloBody(Buffer.concat(fragments, need).subarray(4));
    }
}
function parseClientHelloBody(body) {
    let p = 2 + 32; // legacy_version, random
    const fits = (n) => p + n <= body.length;
    if (!fits(1))
        return malformed("truncated before session_id");
    const sessionId = body[p];
    p += 1;
    if (sessionId > 32 || !fits(sessionId + 2))
        return malformed("bad session_id");
    p += sessionId;
    const suites = body.readUInt16BE(p);
    p += 2;
    if (suites < 2 || suites % 2 !== 0 || !fits(suites + 1))
        return malformed("bad cipher_suites");
    p += suites;
    const compressions = body[p];
    p += 1;
    if (compressions < 1 || !fits(compressions))
        return malformed("bad compression_methods");
    p += compressions;
    if (p === body.length)
        return { kind: "hello", serverName: null };
    if (!fits(2))
        return malformed("truncated extensions");
    const extensionsEnd = p + 2 + body.readUInt16BE(p);
    p += 2;
    if (extensionsEnd !== body.length)
        return malformed("extensions length does not match the ClientHello");
    const seen = new Set();
    let serverName = null;
    while (p < extensionsEnd) {
        if (!fits(4))
            return malformed("truncated extension header");
        const type = body.readUInt16BE(p);
        const length = body.readUInt16BE(p + 2);
        p += 4;
        if (!fits(length))
            return malformed("truncated extension");
        if (seen.has(type))
            return malformed(`extension ${type} twice`);
        seen.add(type);
        if (type === 0) {
            const name = parseServerName(body.subarray(p, p + length));
            if (typeof name !== "string" && name !== null)
                return name;
            serverName = name;
        }
        p += length;
    }
    return { kind: "hello", serverName };
}
/** The host_name of a server_name extension: a string, null when it names none, or a malformed verdict. */
function parseServerName(ext) {
    if (ext.length === 0)
        return null;
    if (ext.length < 2 || 2 + ext.readUInt16BE(0) !== ext.length)
        return malformed("bad server_name list length");
    let name = null;
    for (let p = 2; p < ext.length;) {
        if (p + 3 > ext.length)
            return malformed("truncated server_name entry");
        const type = ext[p];
        const length = ext.readUInt16BE(p + 1);
        p += 3;
        if (length === 0 || p + length > ext.length)
            return malformed("bad server_name entry length");
        if (type === 0) {
            if (name !== null)
                return malformed("two host_name entries");
            name = ext.toString("latin1", p, p + length);
            if (!/^[\x21-\x7e]+$/.test(name))
                return malformed("host_name is not printable ASCII");
        }
        p += length;
    }
    return name;
}
// ---------------------------------------------------------------------------------------------
// Plumbing
const noop = () => { };
/** Pipes two sockets both ways (with backpressure); when either closes, the other is destroyed. */
function splice(a, b) {
    a.on("error", noop);
    b.on("error", noop);
    a.once("close", () => b.destroy());
    b.once("close", () => a.destroy());
    a.pipe(b);
    b.pipe(a);
}
/** Addresses a name may not lead to unless the client named the IP itself: this host's loopback, "any", link-local (cloud metadata). */
const LOCAL_ONLY = new (external_node_net_default()).BlockList();
LOCAL_ONLY.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("0.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("169.254.0.0", 16, "ipv4");
LOCAL_ONLY.addAddress("::1", "ipv6");
LOCAL_ONLY.addAddress("::", "ipv6");
LOCAL_ONLY.addSubnet("fe80::", 10, "ipv6");
function localOnly(address) {
    return LOCAL_ONLY.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}
const HOP_BY_HOP = (/* unused pure expression or super */ null && ([
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
]));
/** Copies headers without the hop-by-hop ones (RFC 9110 7.6.1), the ones `Connection` names, and Proxy-Authorization. */
function stripHopByHop(headers) {
    const drop = new Set(HOP_BY_HOP);
    for (const token of String(headers.connection ?? "").split(","))
        drop.add(token.trim().toLowerCase());
    const out = {};
    for (const [key, value] of Object.entries(headers)) {
        if (value !== undefined && !drop.has(key))
            out[key] = value;
    }
    return out;
}
const STATUS_TEXT = {
    400: "Bad Request",
    403: "Forbidden",
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
};
/** A complete response written straight to a socket that the HTTP server no longer manages (CONNECT, parse errors); then closed. */
function rawReply(socket, status, text) {
    if (!socket.writable) {
        socket.destroy();
        return;
    }
    const head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
    socket.end(head + text, () => socket.destroy());
}
function plainReply(res, status, text) {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), connection: "close" });
    res.end(text);
}
function errorText(e) {
    return errnoOf(e) ?? e.message ?? String(e);
}
// ---------------------------------------------------------------------------------------------
// The proxy
/** Starts the proxy on `socketPath`; resolves once it listens. */
async function startEgressProxy(options) {
    const open = new Set();
    /** Requests not yet recorded, each with what to record if the proxy closes first. */
    const pending = new Set();
    let closing = false;
    const track = (socket) => {
        if (closing) {
            socket.destroy();
            return;
        }
        open.add(socket);
        socket.once("close", () => open.delete(socket));
    };
    /** One request's record: written exactly once, by the first of its outcome or close(). */
    const begin = (host, port, proto) => {
        let address;
        let done = false;
        const finish = (allowed, extra = {}) => {
            if (done)
                return;
            done = true;
            pending.delete(onClose);
            const e = { host, port, proto, allowed };
            if (address !== undefined)
                e.address = address;
            if (extra.reason !== undefined)
                e.reason = extra.reason;
            if (extra.sni !== undefined)
                e.sni = extra.sni;
            options.record(e);
        };
        const onClose = () => finish(true, address === undefined ? { reason: "proxy closed before the upstream connected" } : {});
        pending.add(onClose);
        return {
            finish,
            connected: (a) => {
                address = a;
            },
        };
    };
    const refusal = (host, port) => {
        try {
            return options.allowed(host, port) ? null : "host not allowed";
        }
        catch (e) {
            return `allowed() failed: ${errorText(e)}`;
        }
    };
    const connectOnce = (address, port) => new Promise((resolve, reject) => {
        const socket = net.connect({ host: address, port });
        socket.on("error", noop);
        track(socket);
        const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
        socket.once("connect", () => {
            clearTimeout(timer);
            resolve(socket);
        });
        socket.once("close", () => {
            clearTimeout(timer);
            reject(new Error(socket.errored ? errorText(socket.errored) : "closed"));
        });
    });
    /** Resolves an allowed name (every address, in the resolver's order) and connects to the first that answers. */
    const openUpstream = async (host, port) => {
        let addresses;
        if (net.isIP(host) !== 0) {
            addresses = [host];
        }
        else {
            try {
                addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
            }
            catch (e) {
                return { ok: false, status: 502, reason: `dns: ${errorText(e)}` };
            }
            const reachable = addresses.filter((a) => !localOnly(a));
            if (reachable.length === 0)
                return { ok: false, status: 403, reason: `resolves only to loopback or link-local addresses (${addresses.join(", ")})` };
            addresses = reachable;
        }
        const failures = [];
        for (const address of addresses) {
            if (closing)
                break;
            try {
                return { ok: true, socket: await connectOnce(address, port), address };
            }
            catch (e) {
                failures.push(`${formatEndpoint(address, port)} ${errorText(e)}`);
            }
        }
        return { ok: false, status: 502, reason: closing ? "proxy closed" : `upstream: ${failures.join("; ")}` };
    };
    const tunnel = async (host, port, client, head) => {
        const endpoint = formatEndpoint(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "connect", allowed: false, reason: why });
            rawReply(client, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
            return;
        }
        client.pause();
        const request = begin(host, port, "connect");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            rawReply(client, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
            return;
        }
        const upstream = up.socket;
        request.connected(up.address);
        if (closing || client.destroyed) {
            upstream.destroy();
            request.finish(true, { reason: "client closed before the tunnel opened" });
            return;
        }
        // The server's bytes flow at once (server-first protocols); the client's wait for the peek.
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        client.once("close", () => {
            upstream.destroy();
            request.finish(true);
        });
        upstream.once("close", () => {
            client.destroy();
            request.finish(true);
        });
        upstream.pipe(client);
        let buffered = head;
        let peeking = true;
        const refuse = (reason, sni) => {
            peeking = false;
            request.finish(false, { reason, sni });
            client.destroy();
            upstream.destroy();
        };
        const inspect = () => {
            const peek = peekClientHello(buffered);
            if (peek.kind === "incomplete") {
                if (buffered.length > CLIENT_HELLO_LIMIT)
                    refuse("client hello too large");
                return;
            }
            if (peek.kind === "malformed")
                return refuse(`malformed client hello: ${peek.why}`);
            const sni = peek.kind === "hello" && peek.serverName !== null ? normalizeHost(peek.serverName) : undefined;
            if (sni !== undefined && sni !== host)
                return refuse("sni mismatch", sni);
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true, { sni });
            upstream.write(buffered);
            client.pipe(upstream);
        };
        const onData = (chunk) => {
            buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
            inspect();
        };
        client.on("data", onData);
        client.once("end", () => {
            if (!peeking)
                return;
            // The client half-closed before its first bytes were judged: with nothing sent, pass the
            // half-close on (the server may still answer); a cut-off ClientHello is refused.
            if (buffered.length > 0)
                return refuse("client closed inside its client hello");
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true);
            upstream.end();
        });
        if (buffered.length > 0)
            inspect();
        if (peeking)
            client.resume();
    };
    const forward = async (req, res) => {
        let url;
        try {
            url = new URL(req.url ?? "");
        }
        catch {
            return plainReply(res, 400, "envelope-gate egress: send an absolute-form http:// request or CONNECT\n");
        }
        const host = validHost(url.hostname);
        if (url.protocol !== "http:" || host === null)
            return plainReply(res, 400, `envelope-gate egress: cannot forward ${url.protocol}//${url.host}\n`);
        const port = url.port === "" ? 80 : Number(url.port);
        const endpoint = formatEndpoint(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "http", allowed: false, reason: why });
            return plainReply(res, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
        }
        req.pause();
        const request = begin(host, port, "http");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            return plainReply(res, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
        }
        request.connected(up.address);
        request.finish(true);
        const upstream = up.socket;
        if (closing || res.destroyed) {
            upstream.destroy();
            return;
        }
        const headers = stripHopByHop(req.headers);
        headers.host = url.host;
        // Node decoded any chunked body; re-chunk it upstream whatever the method.
        if (req.headers["transfer-encoding"] !== undefined)
            headers["transfer-encoding"] = "chunked";
        const upstreamRequest = http.request({
            createConnection: () => upstream,
            method: req.method,
            path: url.pathname + url.search,
            headers,
            setHost: false,
            maxHeaderSize: HEAD_LIMIT,
        });
        upstreamRequest.on("response", (upstreamResponse) => {
            res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, stripHopByHop(upstreamResponse.headers));
            upstreamResponse.pipe(res);
        });
        upstreamRequest.on("error", (e) => {
            if (res.headersSent)
                res.destroy();
            else
                plainReply(res, 502, `envelope-gate egress: ${endpoint}: upstream: ${errorText(e)}\n`);
        });
        res.once("close", () => upstream.destroy());
        req.pipe(upstreamRequest);
    };
    const server = http.createServer({ maxHeaderSize: HEAD_LIMIT, requestTimeout: 0, requireHostHeader: false });
    server.maxConnections = MAX_CLIENT_CONNECTIONS;
    server.on("connection", track);
    server.on("request", (req, res) => {
        forward(req, res).catch((e) => res.destroy(e));
    });
    server.on("connect", (req, client, head) => {
        client.on("error", noop);
        const target = parseAuthority(req.url ?? "");
        if (target === null)
            return rawReply(client, 400, "envelope-gate egress: CONNECT needs host:port\n");
        tunnel(target.host, target.port, client, head).catch(() => client.destroy());
    });
    server.on("clientError", (err, socket) => {
        const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
        const what = status === 431 ? `request head over ${HEAD_LIMIT} bytes` : status === 408 ? "request head not received in time" : "bad request";
        rawReply(socket, status, `envelope-gate egress: ${what}\n`);
    });
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.socketPath, () => {
            server.removeListener("error", reject);
            resolve();
        });
    });
    let closed = null;
    return {
        socketPath: options.socketPath,
        close() {
            if (closed !== null)
                return closed;
            closing = true;
            closed = new Promise((resolve) => server.close(() => resolve()));
            for (const flush of [...pending])
                flush();
            for (const socket of open)
                socket.destroy();
            return closed;
        },
    };
}

;// CONCATENATED MODULE: ./src/observer/netns-holder.ts
/**
 * The jail's network holder (docs/egress.md, "The jail's resolver and services"), bundled to
 * dist/netns/index.js. The wrapper starts it in a bubblewrap of its own, in a user and network
 * namespace that every stage's jail then joins (jail-network.ts), with one capability,
 * CAP_NET_BIND_SERVICE over that namespace alone, so that it can listen on port 53:
 *
 *   node dist/netns/index.js --dns IP:PORT=SOCKET [--tcp IP:PORT=SOCKET ...]
 *
 * `--dns`: UDP and TCP on IP:PORT; each UDP query goes to the wrapper's resolver at SOCKET framed
 * as DNS over TCP (RFC 7766), its answer back to the asker; a TCP connection is piped as it is.
 * `--tcp`: a declared service's address inside the jail, each connection piped to SOCKET, the
 * wrapper's forward to the real service. It reads, judges and records nothing: the wrapper does.
 *
 * Prints `ready <pid>` once every address listens, then holds until its input closes. Exit 125
 * with one line on stderr when an argument is wrong or an address cannot be listened on.
 */




const SETUP_FAILED = 125;
/** UDP queries waiting for the wrapper's answer at once; more are dropped (the client asks again). */
const MAX_PENDING_QUERIES = 256;
/** TCP connections at once: to the resolver (each may hold a query), to each service (a pool's worth). */
const MAX_DNS_CONNECTIONS = 64;
const MAX_SERVICE_CONNECTIONS = 1024;
const QUERY_TIMEOUT_MS = 20_000;
function fail(message) {
    process.stderr.write(`envelope-gate netns: ${message}\n`);
    process.exit(SETUP_FAILED);
}
function parseListen(value, flag) {
    const eq = value.indexOf("=");
    const address = eq === -1 ? null : parseAuthority(value.slice(0, eq));
    const socketPath = eq === -1 ? "" : value.slice(eq + 1);
    if (address === null || external_node_net_default().isIP(address.host) === 0 || !socketPath.startsWith("/"))
        fail(`${flag} needs IP:PORT=/SOCKET, got ${value}`);
    return { ...address, socketPath };
}
function parseArgs(argv) {
    let dns = null;
    const tcp = [];
    for (let i = 0; i < argv.length; i += 2) {
        const flag = argv[i];
        const value = argv[i + 1];
        if (value === undefined)
            fail(`${flag} needs a value`);
        if (flag === "--dns" && dns === null)
            dns = parseListen(value, flag);
        else if (flag === "--tcp")
            tcp.push(parseListen(value, flag));
        else
            fail(`unexpected argument ${flag}`);
    }
    if (dns === null)
        fail("usage: --dns IP:PORT=SOCKET [--tcp IP:PORT=SOCKET ...]");
    return { dns, tcp };
}
function listenTcp(at, maxConnections) {
    const server = external_node_net_default().createServer((conn) => splice(conn, external_node_net_default().connect(at.socketPath)));
    server.maxConnections = maxConnections;
    return new Promise((resolve) => {
        server.once("error", (e) => fail(`cannot listen on ${at.host}:${at.port} (${e.code ?? e.message})`));
        server.listen({ host: at.host, port: at.port, exclusive: true }, () => {
            server.removeAllListeners("error");
            server.on("error", () => { });
            resolve();
        });
    });
}
function listenUdp(at) {
    const socket = external_node_dgram_default().createSocket({ type: external_node_net_default().isIPv6(at.host) ? "udp6" : "udp4" });
    let pending = 0;
    socket.on("message", (query, from) => {
        // Nothing to ask (an empty datagram), or too much at once: dropped, as a busy resolver would.
        if (query.length === 0 || pending >= MAX_PENDING_QUERIES)
            return;
        pending++;
        const upstream = external_node_net_default().connect(at.socketPath);
        const frames = new DnsFrameReader();
        let done = false;
        const finish = () => {
            if (done)
                return;
            done = true;
            pending--;
            clearTimeout(timer);
            upstream.destroy();
        };
        const timer = setTimeout(finish, QUERY_TIMEOUT_MS);
        upstream.on("error", finish);
        upstream.on("close", finish);
        upstream.on("data", (chunk) => {
            let answers;
            try {
                answers = frames.push(chunk);
            }
            catch {
                finish();
                return;
            }
            const answer = answers[0];
            if (answer === undefined)
                return;
            socket.send(answer, from.port, from.address);
            finish();
        });
        try {
            upstream.write(frameMessage(query));
        }
        catch {
            finish();
        }
    });
    return new Promise((resolve) => {
        socket.once("error", (e) => fail(`cannot listen on ${at.host}:${at.port}/udp (${e.code ?? e.message})`));
        socket.bind({ address: at.host, port: at.port, exclusive: true }, () => {
            socket.removeAllListeners("error");
            socket.on("error", () => { });
            resolve();
        });
    });
}
async function main() {
    const { dns, tcp } = parseArgs(process.argv.slice(2));
    await Promise.all([listenUdp(dns), listenTcp(dns, MAX_DNS_CONNECTIONS), ...tcp.map((at) => listenTcp(at, MAX_SERVICE_CONNECTIONS))]);
    process.stdout.write(`ready ${process.pid}\n`);
    // Held until the wrapper closes our input or ends.
    process.stdin.resume();
    process.stdin.once("end", () => process.exit(0));
    process.stdin.once("close", () => process.exit(0));
}
void main();

