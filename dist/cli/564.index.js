export const id = 564;
export const ids = [564];
export const modules = {

/***/ 1564:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   runCommand: () => (/* binding */ runCommand)
/* harmony export */ });
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7975);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_util__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _gate_options_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9);
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7775);



/**
 * `envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--node-only] -- CMD [ARGS...]`
 * Returns the command's exit code; typed errors propagate to the CLI (exit 3).
 */
async function runCommand(args, usage) {
    const dashes = args.indexOf("--");
    if (dashes === -1)
        usage("run needs `-- CMD [ARGS...]`");
    const command = args.slice(dashes + 1);
    if (command.length === 0 || command[0] === "")
        usage("run needs a command after --");
    const { values } = (0,node_util__WEBPACK_IMPORTED_MODULE_0__.parseArgs)({
        args: args.slice(0, dashes),
        options: { ..._gate_options_js__WEBPACK_IMPORTED_MODULE_1__/* .ENVELOPE_LOG_OPTIONS */ .B, "node-only": { type: "boolean", default: false } },
        strict: true,
        allowPositionals: false,
    });
    if (!values.envelope)
        usage("run needs --envelope");
    if (!values.observer)
        usage("run needs --observer");
    return (0,_run_js__WEBPACK_IMPORTED_MODULE_2__.runObserved)({
        envelopePath: values.envelope,
        digestPath: values.sha256,
        logPath: values.observer,
        workspace: values.workspace,
        scratch: values.scratch,
        nodeOnly: values["node-only"] === true,
        command,
    });
}


/***/ })

};
