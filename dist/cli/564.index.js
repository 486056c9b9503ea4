export const id = 564;
export const ids = [564];
export const modules = {

/***/ 1564:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   runCommand: () => (/* binding */ runCommand)
/* harmony export */ });
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4296);

async function runCommand(_args, _usage) {
    throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .GateError */ .ue("OBSERVER_UNAVAILABLE", "envelope-gate run is not built yet");
}


/***/ })

};
