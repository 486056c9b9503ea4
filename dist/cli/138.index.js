export const id = 138;
export const ids = [138];
export const modules = {

/***/ 8138:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   suggestCommand: () => (/* binding */ suggestCommand)
/* harmony export */ });
/* unused harmony export readLog */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _core_envelope_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1652);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4296);
/* harmony import */ var _core_markdown_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6706);
/* harmony import */ var _core_suggest_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2085);
/* harmony import */ var _files_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(8279);
/* harmony import */ var _output_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8403);
/**
 * `envelope-gate suggest`: reads recorded logs (and optionally the envelope to widen), asks
 * core/suggest for the tightest envelope that passes them, prints it explained, and with
 * --write writes it and its digest.
 */








/** A recorded log's bytes (OBSERVER_LOG_MISSING / _UNREADABLE otherwise); core/log-reader.ts reads them. */
async function readLog(file) {
    try {
        return { file, bytes: await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(file) };
    }
    catch (err) {
        throw (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .logOpenError */ .NU)(err, file);
    }
}
/**
 * Text a run chose (a key, a path, a host, a program's name), as a terminal shows it: escape
 * sequences, carriage returns, bidi and zero-width characters written `\u{XXXX}`, lines flattened,
 * so a key named to move the cursor up and erase a line cannot hide the line above it.
 */
function shown(s) {
    return (0,_core_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .plainText */ .wh)(s);
}
/** Code units JSON.stringify leaves raw that change how a terminal shows text (DEL, C1, bidi, zero-width, tags). */
const JSON_INVISIBLE = 
// eslint-disable-next-line no-misleading-character-class -- one code unit at a time, on purpose
/[\u007f-\u00a0\u00ad\u034f\u061c\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
/** The envelope JSON (or its diff) as printed: those code units as JSON's own `\uXXXX`, which parses to the same text. */
function shownJson(text) {
    return text.replace(JSON_INVISIBLE, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""));
}
async function suggestCommand(options) {
    const base = options.from !== undefined ? await (0,_files_js__WEBPACK_IMPORTED_MODULE_6__/* .readVerifiedEnvelope */ .pO)(options.from, options.fromDigest) : null;
    const logs = await Promise.all(options.logs.map(readLog));
    const { envelope, added, notProposed, notes } = (0,_core_suggest_js__WEBPACK_IMPORTED_MODULE_5__/* .suggestEnvelope */ .bD)(logs, base?.envelope ?? null, {
        workspace: options.workspace === undefined ? undefined : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(options.workspace),
        scratch: options.scratch === undefined ? undefined : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(options.scratch),
    });
    const out = [
        `envelope-gate suggest: ${added.length} entr${added.length === 1 ? "y" : "ies"} from ${logs.length} log${logs.length === 1 ? "" : "s"}`,
    ];
    const verb = {
        allowed_env: "read by",
        allowed_roots: "written by",
        allowed_tools: "called by",
        allowed_hosts: "reached by",
        allowed_commands: "started by",
    };
    for (const a of added.filter((e) => e.unobserved !== true)) {
        const covers = a.covers.length > 1 || a.covers[0] !== a.entry
            ? ` covers ${a.covers.slice(0, 4).map(shown).join(", ")}${a.covers.length > 4 ? `, … (${a.covers.length})` : ""};`
            : "";
        const by = a.program === undefined ? "" : `; ${verb[a.key] ?? "by"} ${shown(a.program)}`;
        out.push(`  + ${a.key.padEnd(16)} ${shown(a.entry)}  (${covers} ${a.count} time${a.count === 1 ? "" : "s"}, first at ${shown(a.first)}${by})`.replace("( ", "("));
    }
    const unobserved = added.filter((e) => e.unobserved === true);
    if (unobserved.length > 0) {
        out.push(`  unobserved: withheld keys a failed run's non-Node program may have needed (proposed, not seen; drop the ones a new run passes without):`);
        for (const a of unobserved) {
            out.push(`  ? ${a.key.padEnd(16)} ${shown(a.entry)}  (${shown(a.reason ?? "withheld")}; ran first at ${shown(a.first)}${a.program === undefined ? "" : ` as ${shown(a.program)}`}${a.count > 1 ? `; in ${a.count} failed runs` : ""})`);
        }
    }
    if (notProposed.length > 0) {
        out.push(`  not proposed: never allowed by a proposal (add one by hand, listed exactly, only if the run must have it):`);
        for (const n of notProposed) {
            const covers = n.covers.length > 1 || n.covers[0] !== n.entry ? ` covers ${n.covers.slice(0, 4).map(shown).join(", ")};` : "";
            const avoid = n.avoidWith === undefined ? "" : `; ${n.avoidWith} would have avoided them`;
            const by = n.program === undefined ? "" : `; ${verb[n.key] ?? "by"} ${shown(n.program)}`;
            out.push(`  - ${n.key.padEnd(16)} ${shown(n.entry)}  (${shown(n.why)}${avoid};${covers} ${n.count} time${n.count === 1 ? "" : "s"}, first at ${shown(n.first)}${by})`);
        }
    }
    for (const n of notes)
        out.push(`  note: ${shown(n)}`);
    const text = (0,_core_suggest_js__WEBPACK_IMPORTED_MODULE_5__/* .envelopeJson */ .X8)(envelope);
    out.push("");
    if (base !== null) {
        out.push(`changes to ${options.from} (review them; the digest changes too):`);
        out.push(shownJson((0,_core_suggest_js__WEBPACK_IMPORTED_MODULE_5__/* .lineDiff */ .gf)((0,_core_suggest_js__WEBPACK_IMPORTED_MODULE_5__/* .envelopeJson */ .X8)(base.envelope), text)));
    }
    else {
        out.push(shownJson(text.trimEnd()));
    }
    if (options.write !== undefined) {
        const digestFile = `${options.write}.sha256`;
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(options.write, text).catch((err) => {
            throw (0,_output_js__WEBPACK_IMPORTED_MODULE_7__/* .outputUnwritable */ .n)(options.write, "the suggested envelope", err);
        });
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(digestFile, (0,_core_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .formatDigestLine */ .sv)(Buffer.from(text), (0,node_path__WEBPACK_IMPORTED_MODULE_1__.basename)(options.write))).catch((err) => {
            throw (0,_output_js__WEBPACK_IMPORTED_MODULE_7__/* .outputUnwritable */ .n)(digestFile, "the suggested envelope's digest", err);
        });
        out.push("", `wrote ${options.write} and ${options.write}.sha256`);
    }
    return out.join("\n") + "\n";
}


/***/ })

};
