export const id = 325;
export const ids = [325];
export const modules = {

/***/ 2325:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   appCommand: () => (/* binding */ appCommand)
/* harmony export */ });
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4296);

async function appCommand(_args, _usage) {
    throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .GateError */ .ue("CONFIG_INVALID", "envelope-gate app is not built yet");
}


/***/ })

};
