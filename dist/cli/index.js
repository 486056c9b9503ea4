#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 2463:
/***/ ((module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.MissingRefError = exports.ValidationError = exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = exports.Ajv = void 0;
const core_1 = __nccwpck_require__(3893);
const draft7_1 = __nccwpck_require__(9941);
const discriminator_1 = __nccwpck_require__(8886);
const draft7MetaSchema = __nccwpck_require__(2079);
const META_SUPPORT_DATA = ["/properties"];
const META_SCHEMA_ID = "http://json-schema.org/draft-07/schema";
class Ajv extends core_1.default {
    _addVocabularies() {
        super._addVocabularies();
        draft7_1.default.forEach((v) => this.addVocabulary(v));
        if (this.opts.discriminator)
            this.addKeyword(discriminator_1.default);
    }
    _addDefaultMetaSchema() {
        super._addDefaultMetaSchema();
        if (!this.opts.meta)
            return;
        const metaSchema = this.opts.$data
            ? this.$dataMetaSchema(draft7MetaSchema, META_SUPPORT_DATA)
            : draft7MetaSchema;
        this.addMetaSchema(metaSchema, META_SCHEMA_ID, false);
        this.refs["http://json-schema.org/schema"] = META_SCHEMA_ID;
    }
    defaultMeta() {
        return (this.opts.defaultMeta =
            super.defaultMeta() || (this.getSchema(META_SCHEMA_ID) ? META_SCHEMA_ID : undefined));
    }
}
exports.Ajv = Ajv;
module.exports = exports = Ajv;
module.exports.Ajv = Ajv;
Object.defineProperty(exports, "__esModule", ({ value: true }));
exports["default"] = Ajv;
var validate_1 = __nccwpck_require__(7881);
Object.defineProperty(exports, "KeywordCxt", ({ enumerable: true, get: function () { return validate_1.KeywordCxt; } }));
var codegen_1 = __nccwpck_require__(1436);
Object.defineProperty(exports, "_", ({ enumerable: true, get: function () { return codegen_1._; } }));
Object.defineProperty(exports, "str", ({ enumerable: true, get: function () { return codegen_1.str; } }));
Object.defineProperty(exports, "stringify", ({ enumerable: true, get: function () { return codegen_1.stringify; } }));
Object.defineProperty(exports, "nil", ({ enumerable: true, get: function () { return codegen_1.nil; } }));
Object.defineProperty(exports, "Name", ({ enumerable: true, get: function () { return codegen_1.Name; } }));
Object.defineProperty(exports, "CodeGen", ({ enumerable: true, get: function () { return codegen_1.CodeGen; } }));
var validation_error_1 = __nccwpck_require__(3021);
Object.defineProperty(exports, "ValidationError", ({ enumerable: true, get: function () { return validation_error_1.default; } }));
var ref_error_1 = __nccwpck_require__(3162);
Object.defineProperty(exports, "MissingRefError", ({ enumerable: true, get: function () { return ref_error_1.default; } }));
//# sourceMappingURL=ajv.js.map

/***/ }),

/***/ 567:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.regexpCode = exports.getEsmExportName = exports.getProperty = exports.safeStringify = exports.stringify = exports.strConcat = exports.addCodeArg = exports.str = exports._ = exports.nil = exports._Code = exports.Name = exports.IDENTIFIER = exports._CodeOrName = void 0;
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
class _CodeOrName {
}
exports._CodeOrName = _CodeOrName;
exports.IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;
class Name extends _CodeOrName {
    constructor(s) {
        super();
        if (!exports.IDENTIFIER.test(s))
            throw new Error("CodeGen: name must be a valid identifier");
        this.str = s;
    }
    toString() {
        return this.str;
    }
    emptyStr() {
        return false;
    }
    get names() {
        return { [this.str]: 1 };
    }
}
exports.Name = Name;
class _Code extends _CodeOrName {
    constructor(code) {
        super();
        this._items = typeof code === "string" ? [code] : code;
    }
    toString() {
        return this.str;
    }
    emptyStr() {
        if (this._items.length > 1)
            return false;
        const item = this._items[0];
        return item === "" || item === '""';
    }
    get str() {
        var _a;
        return ((_a = this._str) !== null && _a !== void 0 ? _a : (this._str = this._items.reduce((s, c) => `${s}${c}`, "")));
    }
    get names() {
        var _a;
        return ((_a = this._names) !== null && _a !== void 0 ? _a : (this._names = this._items.reduce((names, c) => {
            if (c instanceof Name)
                names[c.str] = (names[c.str] || 0) + 1;
            return names;
        }, {})));
    }
}
exports._Code = _Code;
exports.nil = new _Code("");
function _(strs, ...args) {
    const code = [strs[0]];
    let i = 0;
    while (i < args.length) {
        addCodeArg(code, args[i]);
        code.push(strs[++i]);
    }
    return new _Code(code);
}
exports._ = _;
const plus = new _Code("+");
function str(strs, ...args) {
    const expr = [safeStringify(strs[0])];
    let i = 0;
    while (i < args.length) {
        expr.push(plus);
        addCodeArg(expr, args[i]);
        expr.push(plus, safeStringify(strs[++i]));
    }
    optimize(expr);
    return new _Code(expr);
}
exports.str = str;
function addCodeArg(code, arg) {
    if (arg instanceof _Code)
        code.push(...arg._items);
    else if (arg instanceof Name)
        code.push(arg);
    else
        code.push(interpolate(arg));
}
exports.addCodeArg = addCodeArg;
function optimize(expr) {
    let i = 1;
    while (i < expr.length - 1) {
        if (expr[i] === plus) {
            const res = mergeExprItems(expr[i - 1], expr[i + 1]);
            if (res !== undefined) {
                expr.splice(i - 1, 3, res);
                continue;
            }
            expr[i++] = "+";
        }
        i++;
    }
}
function mergeExprItems(a, b) {
    if (b === '""')
        return a;
    if (a === '""')
        return b;
    if (typeof a == "string") {
        if (b instanceof Name || a[a.length - 1] !== '"')
            return;
        if (typeof b != "string")
            return `${a.slice(0, -1)}${b}"`;
        if (b[0] === '"')
            return a.slice(0, -1) + b.slice(1);
        return;
    }
    if (typeof b == "string" && b[0] === '"' && !(a instanceof Name))
        return `"${a}${b.slice(1)}`;
    return;
}
function strConcat(c1, c2) {
    return c2.emptyStr() ? c1 : c1.emptyStr() ? c2 : str `${c1}${c2}`;
}
exports.strConcat = strConcat;
// TODO do not allow arrays here
function interpolate(x) {
    return typeof x == "number" || typeof x == "boolean" || x === null
        ? x
        : safeStringify(Array.isArray(x) ? x.join(",") : x);
}
function stringify(x) {
    return new _Code(safeStringify(x));
}
exports.stringify = stringify;
function safeStringify(x) {
    return JSON.stringify(x)
        .replace(/\u2028/g, "\\u2028")
        .replace(/\u2029/g, "\\u2029");
}
exports.safeStringify = safeStringify;
function getProperty(key) {
    return typeof key == "string" && exports.IDENTIFIER.test(key) ? new _Code(`.${key}`) : _ `[${key}]`;
}
exports.getProperty = getProperty;
//Does best effort to format the name properly
function getEsmExportName(key) {
    if (typeof key == "string" && exports.IDENTIFIER.test(key)) {
        return new _Code(`${key}`);
    }
    throw new Error(`CodeGen: invalid export name: ${key}, use explicit $id name mapping`);
}
exports.getEsmExportName = getEsmExportName;
function regexpCode(rx) {
    return new _Code(rx.toString());
}
exports.regexpCode = regexpCode;
//# sourceMappingURL=code.js.map

/***/ }),

/***/ 1436:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.or = exports.and = exports.not = exports.CodeGen = exports.operators = exports.varKinds = exports.ValueScopeName = exports.ValueScope = exports.Scope = exports.Name = exports.regexpCode = exports.stringify = exports.getProperty = exports.nil = exports.strConcat = exports.str = exports._ = void 0;
const code_1 = __nccwpck_require__(567);
const scope_1 = __nccwpck_require__(7788);
var code_2 = __nccwpck_require__(567);
Object.defineProperty(exports, "_", ({ enumerable: true, get: function () { return code_2._; } }));
Object.defineProperty(exports, "str", ({ enumerable: true, get: function () { return code_2.str; } }));
Object.defineProperty(exports, "strConcat", ({ enumerable: true, get: function () { return code_2.strConcat; } }));
Object.defineProperty(exports, "nil", ({ enumerable: true, get: function () { return code_2.nil; } }));
Object.defineProperty(exports, "getProperty", ({ enumerable: true, get: function () { return code_2.getProperty; } }));
Object.defineProperty(exports, "stringify", ({ enumerable: true, get: function () { return code_2.stringify; } }));
Object.defineProperty(exports, "regexpCode", ({ enumerable: true, get: function () { return code_2.regexpCode; } }));
Object.defineProperty(exports, "Name", ({ enumerable: true, get: function () { return code_2.Name; } }));
var scope_2 = __nccwpck_require__(7788);
Object.defineProperty(exports, "Scope", ({ enumerable: true, get: function () { return scope_2.Scope; } }));
Object.defineProperty(exports, "ValueScope", ({ enumerable: true, get: function () { return scope_2.ValueScope; } }));
Object.defineProperty(exports, "ValueScopeName", ({ enumerable: true, get: function () { return scope_2.ValueScopeName; } }));
Object.defineProperty(exports, "varKinds", ({ enumerable: true, get: function () { return scope_2.varKinds; } }));
exports.operators = {
    GT: new code_1._Code(">"),
    GTE: new code_1._Code(">="),
    LT: new code_1._Code("<"),
    LTE: new code_1._Code("<="),
    EQ: new code_1._Code("==="),
    NEQ: new code_1._Code("!=="),
    NOT: new code_1._Code("!"),
    OR: new code_1._Code("||"),
    AND: new code_1._Code("&&"),
    ADD: new code_1._Code("+"),
};
class Node {
    optimizeNodes() {
        return this;
    }
    optimizeNames(_names, _constants) {
        return this;
    }
}
class Def extends Node {
    constructor(varKind, name, rhs) {
        super();
        this.varKind = varKind;
        this.name = name;
        this.rhs = rhs;
    }
    render({ es5, _n }) {
        const varKind = es5 ? scope_1.varKinds.var : this.varKind;
        const rhs = this.rhs === undefined ? "" : ` = ${this.rhs}`;
        return `${varKind} ${this.name}${rhs};` + _n;
    }
    optimizeNames(names, constants) {
        if (!names[this.name.str])
            return;
        if (this.rhs)
            this.rhs = optimizeExpr(this.rhs, names, constants);
        return this;
    }
    get names() {
        return this.rhs instanceof code_1._CodeOrName ? this.rhs.names : {};
    }
}
class Assign extends Node {
    constructor(lhs, rhs, sideEffects) {
        super();
        this.lhs = lhs;
        this.rhs = rhs;
        this.sideEffects = sideEffects;
    }
    render({ _n }) {
        return `${this.lhs} = ${this.rhs};` + _n;
    }
    optimizeNames(names, constants) {
        if (this.lhs instanceof code_1.Name && !names[this.lhs.str] && !this.sideEffects)
            return;
        this.rhs = optimizeExpr(this.rhs, names, constants);
        return this;
    }
    get names() {
        const names = this.lhs instanceof code_1.Name ? {} : { ...this.lhs.names };
        return addExprNames(names, this.rhs);
    }
}
class AssignOp extends Assign {
    constructor(lhs, op, rhs, sideEffects) {
        super(lhs, rhs, sideEffects);
        this.op = op;
    }
    render({ _n }) {
        return `${this.lhs} ${this.op}= ${this.rhs};` + _n;
    }
}
class Label extends Node {
    constructor(label) {
        super();
        this.label = label;
        this.names = {};
    }
    render({ _n }) {
        return `${this.label}:` + _n;
    }
}
class Break extends Node {
    constructor(label) {
        super();
        this.label = label;
        this.names = {};
    }
    render({ _n }) {
        const label = this.label ? ` ${this.label}` : "";
        return `break${label};` + _n;
    }
}
class Throw extends Node {
    constructor(error) {
        super();
        this.error = error;
    }
    render({ _n }) {
        return `throw ${this.error};` + _n;
    }
    get names() {
        return this.error.names;
    }
}
class AnyCode extends Node {
    constructor(code) {
        super();
        this.code = code;
    }
    render({ _n }) {
        return `${this.code};` + _n;
    }
    optimizeNodes() {
        return `${this.code}` ? this : undefined;
    }
    optimizeNames(names, constants) {
        this.code = optimizeExpr(this.code, names, constants);
        return this;
    }
    get names() {
        return this.code instanceof code_1._CodeOrName ? this.code.names : {};
    }
}
class ParentNode extends Node {
    constructor(nodes = []) {
        super();
        this.nodes = nodes;
    }
    render(opts) {
        return this.nodes.reduce((code, n) => code + n.render(opts), "");
    }
    optimizeNodes() {
        const { nodes } = this;
        let i = nodes.length;
        while (i--) {
            const n = nodes[i].optimizeNodes();
            if (Array.isArray(n))
                nodes.splice(i, 1, ...n);
            else if (n)
                nodes[i] = n;
            else
                nodes.splice(i, 1);
        }
        return nodes.length > 0 ? this : undefined;
    }
    optimizeNames(names, constants) {
        const { nodes } = this;
        let i = nodes.length;
        while (i--) {
            // iterating backwards improves 1-pass optimization
            const n = nodes[i];
            if (n.optimizeNames(names, constants))
                continue;
            subtractNames(names, n.names);
            nodes.splice(i, 1);
        }
        return nodes.length > 0 ? this : undefined;
    }
    get names() {
        return this.nodes.reduce((names, n) => addNames(names, n.names), {});
    }
}
class BlockNode extends ParentNode {
    render(opts) {
        return "{" + opts._n + super.render(opts) + "}" + opts._n;
    }
}
class Root extends ParentNode {
}
class Else extends BlockNode {
}
Else.kind = "else";
class If extends BlockNode {
    constructor(condition, nodes) {
        super(nodes);
        this.condition = condition;
    }
    render(opts) {
        let code = `if(${this.condition})` + super.render(opts);
        if (this.else)
            code += "else " + this.else.render(opts);
        return code;
    }
    optimizeNodes() {
        super.optimizeNodes();
        const cond = this.condition;
        if (cond === true)
            return this.nodes; // else is ignored here
        let e = this.else;
        if (e) {
            const ns = e.optimizeNodes();
            e = this.else = Array.isArray(ns) ? new Else(ns) : ns;
        }
        if (e) {
            if (cond === false)
                return e instanceof If ? e : e.nodes;
            if (this.nodes.length)
                return this;
            return new If(not(cond), e instanceof If ? [e] : e.nodes);
        }
        if (cond === false || !this.nodes.length)
            return undefined;
        return this;
    }
    optimizeNames(names, constants) {
        var _a;
        this.else = (_a = this.else) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
        if (!(super.optimizeNames(names, constants) || this.else))
            return;
        this.condition = optimizeExpr(this.condition, names, constants);
        return this;
    }
    get names() {
        const names = super.names;
        addExprNames(names, this.condition);
        if (this.else)
            addNames(names, this.else.names);
        return names;
    }
}
If.kind = "if";
class For extends BlockNode {
}
For.kind = "for";
class ForLoop extends For {
    constructor(iteration) {
        super();
        this.iteration = iteration;
    }
    render(opts) {
        return `for(${this.iteration})` + super.render(opts);
    }
    optimizeNames(names, constants) {
        if (!super.optimizeNames(names, constants))
            return;
        this.iteration = optimizeExpr(this.iteration, names, constants);
        return this;
    }
    get names() {
        return addNames(super.names, this.iteration.names);
    }
}
class ForRange extends For {
    constructor(varKind, name, from, to) {
        super();
        this.varKind = varKind;
        this.name = name;
        this.from = from;
        this.to = to;
    }
    render(opts) {
        const varKind = opts.es5 ? scope_1.varKinds.var : this.varKind;
        const { name, from, to } = this;
        return `for(${varKind} ${name}=${from}; ${name}<${to}; ${name}++)` + super.render(opts);
    }
    get names() {
        const names = addExprNames(super.names, this.from);
        return addExprNames(names, this.to);
    }
}
class ForIter extends For {
    constructor(loop, varKind, name, iterable) {
        super();
        this.loop = loop;
        this.varKind = varKind;
        this.name = name;
        this.iterable = iterable;
    }
    render(opts) {
        return `for(${this.varKind} ${this.name} ${this.loop} ${this.iterable})` + super.render(opts);
    }
    optimizeNames(names, constants) {
        if (!super.optimizeNames(names, constants))
            return;
        this.iterable = optimizeExpr(this.iterable, names, constants);
        return this;
    }
    get names() {
        return addNames(super.names, this.iterable.names);
    }
}
class Func extends BlockNode {
    constructor(name, args, async) {
        super();
        this.name = name;
        this.args = args;
        this.async = async;
    }
    render(opts) {
        const _async = this.async ? "async " : "";
        return `${_async}function ${this.name}(${this.args})` + super.render(opts);
    }
}
Func.kind = "func";
class Return extends ParentNode {
    render(opts) {
        return "return " + super.render(opts);
    }
}
Return.kind = "return";
class Try extends BlockNode {
    render(opts) {
        let code = "try" + super.render(opts);
        if (this.catch)
            code += this.catch.render(opts);
        if (this.finally)
            code += this.finally.render(opts);
        return code;
    }
    optimizeNodes() {
        var _a, _b;
        super.optimizeNodes();
        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNodes();
        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNodes();
        return this;
    }
    optimizeNames(names, constants) {
        var _a, _b;
        super.optimizeNames(names, constants);
        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNames(names, constants);
        return this;
    }
    get names() {
        const names = super.names;
        if (this.catch)
            addNames(names, this.catch.names);
        if (this.finally)
            addNames(names, this.finally.names);
        return names;
    }
}
class Catch extends BlockNode {
    constructor(error) {
        super();
        this.error = error;
    }
    render(opts) {
        return `catch(${this.error})` + super.render(opts);
    }
}
Catch.kind = "catch";
class Finally extends BlockNode {
    render(opts) {
        return "finally" + super.render(opts);
    }
}
Finally.kind = "finally";
class CodeGen {
    constructor(extScope, opts = {}) {
        this._values = {};
        this._blockStarts = [];
        this._constants = {};
        this.opts = { ...opts, _n: opts.lines ? "\n" : "" };
        this._extScope = extScope;
        this._scope = new scope_1.Scope({ parent: extScope });
        this._nodes = [new Root()];
    }
    toString() {
        return this._root.render(this.opts);
    }
    // returns unique name in the internal scope
    name(prefix) {
        return this._scope.name(prefix);
    }
    // reserves unique name in the external scope
    scopeName(prefix) {
        return this._extScope.name(prefix);
    }
    // reserves unique name in the external scope and assigns value to it
    scopeValue(prefixOrName, value) {
        const name = this._extScope.value(prefixOrName, value);
        const vs = this._values[name.prefix] || (this._values[name.prefix] = new Set());
        vs.add(name);
        return name;
    }
    getScopeValue(prefix, keyOrRef) {
        return this._extScope.getValue(prefix, keyOrRef);
    }
    // return code that assigns values in the external scope to the names that are used internally
    // (same names that were returned by gen.scopeName or gen.scopeValue)
    scopeRefs(scopeName) {
        return this._extScope.scopeRefs(scopeName, this._values);
    }
    scopeCode() {
        return this._extScope.scopeCode(this._values);
    }
    _def(varKind, nameOrPrefix, rhs, constant) {
        const name = this._scope.toName(nameOrPrefix);
        if (rhs !== undefined && constant)
            this._constants[name.str] = rhs;
        this._leafNode(new Def(varKind, name, rhs));
        return name;
    }
    // `const` declaration (`var` in es5 mode)
    const(nameOrPrefix, rhs, _constant) {
        return this._def(scope_1.varKinds.const, nameOrPrefix, rhs, _constant);
    }
    // `let` declaration with optional assignment (`var` in es5 mode)
    let(nameOrPrefix, rhs, _constant) {
        return this._def(scope_1.varKinds.let, nameOrPrefix, rhs, _constant);
    }
    // `var` declaration with optional assignment
    var(nameOrPrefix, rhs, _constant) {
        return this._def(scope_1.varKinds.var, nameOrPrefix, rhs, _constant);
    }
    // assignment code
    assign(lhs, rhs, sideEffects) {
        return this._leafNode(new Assign(lhs, rhs, sideEffects));
    }
    // `+=` code
    add(lhs, rhs) {
        return this._leafNode(new AssignOp(lhs, exports.operators.ADD, rhs));
    }
    // appends passed SafeExpr to code or executes Block
    code(c) {
        if (typeof c == "function")
            c();
        else if (c !== code_1.nil)
            this._leafNode(new AnyCode(c));
        return this;
    }
    // returns code for object literal for the passed argument list of key-value pairs
    object(...keyValues) {
        const code = ["{"];
        for (const [key, value] of keyValues) {
            if (code.length > 1)
                code.push(",");
            code.push(key);
            if (key !== value || this.opts.es5) {
                code.push(":");
                (0, code_1.addCodeArg)(code, value);
            }
        }
        code.push("}");
        return new code_1._Code(code);
    }
    // `if` clause (or statement if `thenBody` and, optionally, `elseBody` are passed)
    if(condition, thenBody, elseBody) {
        this._blockNode(new If(condition));
        if (thenBody && elseBody) {
            this.code(thenBody).else().code(elseBody).endIf();
        }
        else if (thenBody) {
            this.code(thenBody).endIf();
        }
        else if (elseBody) {
            throw new Error('CodeGen: "else" body without "then" body');
        }
        return this;
    }
    // `else if` clause - invalid without `if` or after `else` clauses
    elseIf(condition) {
        return this._elseNode(new If(condition));
    }
    // `else` clause - only valid after `if` or `else if` clauses
    else() {
        return this._elseNode(new Else());
    }
    // end `if` statement (needed if gen.if was used only with condition)
    endIf() {
        return this._endBlockNode(If, Else);
    }
    _for(node, forBody) {
        this._blockNode(node);
        if (forBody)
            this.code(forBody).endFor();
        return this;
    }
    // a generic `for` clause (or statement if `forBody` is passed)
    for(iteration, forBody) {
        return this._for(new ForLoop(iteration), forBody);
    }
    // `for` statement for a range of values
    forRange(nameOrPrefix, from, to, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.let) {
        const name = this._scope.toName(nameOrPrefix);
        return this._for(new ForRange(varKind, name, from, to), () => forBody(name));
    }
    // `for-of` statement (in es5 mode replace with a normal for loop)
    forOf(nameOrPrefix, iterable, forBody, varKind = scope_1.varKinds.const) {
        const name = this._scope.toName(nameOrPrefix);
        if (this.opts.es5) {
            const arr = iterable instanceof code_1.Name ? iterable : this.var("_arr", iterable);
            return this.forRange("_i", 0, (0, code_1._) `${arr}.length`, (i) => {
                this.var(name, (0, code_1._) `${arr}[${i}]`);
                forBody(name);
            });
        }
        return this._for(new ForIter("of", varKind, name, iterable), () => forBody(name));
    }
    // `for-in` statement.
    // With option `ownProperties` replaced with a `for-of` loop for object keys
    forIn(nameOrPrefix, obj, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.const) {
        if (this.opts.ownProperties) {
            return this.forOf(nameOrPrefix, (0, code_1._) `Object.keys(${obj})`, forBody);
        }
        const name = this._scope.toName(nameOrPrefix);
        return this._for(new ForIter("in", varKind, name, obj), () => forBody(name));
    }
    // end `for` loop
    endFor() {
        return this._endBlockNode(For);
    }
    // `label` statement
    label(label) {
        return this._leafNode(new Label(label));
    }
    // `break` statement
    break(label) {
        return this._leafNode(new Break(label));
    }
    // `return` statement
    return(value) {
        const node = new Return();
        this._blockNode(node);
        this.code(value);
        if (node.nodes.length !== 1)
            throw new Error('CodeGen: "return" should have one node');
        return this._endBlockNode(Return);
    }
    // `try` statement
    try(tryBody, catchCode, finallyCode) {
        if (!catchCode && !finallyCode)
            throw new Error('CodeGen: "try" without "catch" and "finally"');
        const node = new Try();
        this._blockNode(node);
        this.code(tryBody);
        if (catchCode) {
            const error = this.name("e");
            this._currNode = node.catch = new Catch(error);
            catchCode(error);
        }
        if (finallyCode) {
            this._currNode = node.finally = new Finally();
            this.code(finallyCode);
        }
        return this._endBlockNode(Catch, Finally);
    }
    // `throw` statement
    throw(error) {
        return this._leafNode(new Throw(error));
    }
    // start self-balancing block
    block(body, nodeCount) {
        this._blockStarts.push(this._nodes.length);
        if (body)
            this.code(body).endBlock(nodeCount);
        return this;
    }
    // end the current self-balancing block
    endBlock(nodeCount) {
        const len = this._blockStarts.pop();
        if (len === undefined)
            throw new Error("CodeGen: not in self-balancing block");
        const toClose = this._nodes.length - len;
        if (toClose < 0 || (nodeCount !== undefined && toClose !== nodeCount)) {
            throw new Error(`CodeGen: wrong number of nodes: ${toClose} vs ${nodeCount} expected`);
        }
        this._nodes.length = len;
        return this;
    }
    // `function` heading (or definition if funcBody is passed)
    func(name, args = code_1.nil, async, funcBody) {
        this._blockNode(new Func(name, args, async));
        if (funcBody)
            this.code(funcBody).endFunc();
        return this;
    }
    // end function definition
    endFunc() {
        return this._endBlockNode(Func);
    }
    optimize(n = 1) {
        while (n-- > 0) {
            this._root.optimizeNodes();
            this._root.optimizeNames(this._root.names, this._constants);
        }
    }
    _leafNode(node) {
        this._currNode.nodes.push(node);
        return this;
    }
    _blockNode(node) {
        this._currNode.nodes.push(node);
        this._nodes.push(node);
    }
    _endBlockNode(N1, N2) {
        const n = this._currNode;
        if (n instanceof N1 || (N2 && n instanceof N2)) {
            this._nodes.pop();
            return this;
        }
        throw new Error(`CodeGen: not in block "${N2 ? `${N1.kind}/${N2.kind}` : N1.kind}"`);
    }
    _elseNode(node) {
        const n = this._currNode;
        if (!(n instanceof If)) {
            throw new Error('CodeGen: "else" without "if"');
        }
        this._currNode = n.else = node;
        return this;
    }
    get _root() {
        return this._nodes[0];
    }
    get _currNode() {
        const ns = this._nodes;
        return ns[ns.length - 1];
    }
    set _currNode(node) {
        const ns = this._nodes;
        ns[ns.length - 1] = node;
    }
}
exports.CodeGen = CodeGen;
function addNames(names, from) {
    for (const n in from)
        names[n] = (names[n] || 0) + (from[n] || 0);
    return names;
}
function addExprNames(names, from) {
    return from instanceof code_1._CodeOrName ? addNames(names, from.names) : names;
}
function optimizeExpr(expr, names, constants) {
    if (expr instanceof code_1.Name)
        return replaceName(expr);
    if (!canOptimize(expr))
        return expr;
    return new code_1._Code(expr._items.reduce((items, c) => {
        if (c instanceof code_1.Name)
            c = replaceName(c);
        if (c instanceof code_1._Code)
            items.push(...c._items);
        else
            items.push(c);
        return items;
    }, []));
    function replaceName(n) {
        const c = constants[n.str];
        if (c === undefined || names[n.str] !== 1)
            return n;
        delete names[n.str];
        return c;
    }
    function canOptimize(e) {
        return (e instanceof code_1._Code &&
            e._items.some((c) => c instanceof code_1.Name && names[c.str] === 1 && constants[c.str] !== undefined));
    }
}
function subtractNames(names, from) {
    for (const n in from)
        names[n] = (names[n] || 0) - (from[n] || 0);
}
function not(x) {
    return typeof x == "boolean" || typeof x == "number" || x === null ? !x : (0, code_1._) `!${par(x)}`;
}
exports.not = not;
const andCode = mappend(exports.operators.AND);
// boolean AND (&&) expression with the passed arguments
function and(...args) {
    return args.reduce(andCode);
}
exports.and = and;
const orCode = mappend(exports.operators.OR);
// boolean OR (||) expression with the passed arguments
function or(...args) {
    return args.reduce(orCode);
}
exports.or = or;
function mappend(op) {
    return (x, y) => (x === code_1.nil ? y : y === code_1.nil ? x : (0, code_1._) `${par(x)} ${op} ${par(y)}`);
}
function par(x) {
    return x instanceof code_1.Name ? x : (0, code_1._) `(${x})`;
}
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 7788:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.ValueScope = exports.ValueScopeName = exports.Scope = exports.varKinds = exports.UsedValueState = void 0;
const code_1 = __nccwpck_require__(567);
class ValueError extends Error {
    constructor(name) {
        super(`CodeGen: "code" for ${name} not defined`);
        this.value = name.value;
    }
}
var UsedValueState;
(function (UsedValueState) {
    UsedValueState[UsedValueState["Started"] = 0] = "Started";
    UsedValueState[UsedValueState["Completed"] = 1] = "Completed";
})(UsedValueState || (exports.UsedValueState = UsedValueState = {}));
exports.varKinds = {
    const: new code_1.Name("const"),
    let: new code_1.Name("let"),
    var: new code_1.Name("var"),
};
class Scope {
    constructor({ prefixes, parent } = {}) {
        this._names = {};
        this._prefixes = prefixes;
        this._parent = parent;
    }
    toName(nameOrPrefix) {
        return nameOrPrefix instanceof code_1.Name ? nameOrPrefix : this.name(nameOrPrefix);
    }
    name(prefix) {
        return new code_1.Name(this._newName(prefix));
    }
    _newName(prefix) {
        const ng = this._names[prefix] || this._nameGroup(prefix);
        return `${prefix}${ng.index++}`;
    }
    _nameGroup(prefix) {
        var _a, _b;
        if (((_b = (_a = this._parent) === null || _a === void 0 ? void 0 : _a._prefixes) === null || _b === void 0 ? void 0 : _b.has(prefix)) || (this._prefixes && !this._prefixes.has(prefix))) {
            throw new Error(`CodeGen: prefix "${prefix}" is not allowed in this scope`);
        }
        return (this._names[prefix] = { prefix, index: 0 });
    }
}
exports.Scope = Scope;
class ValueScopeName extends code_1.Name {
    constructor(prefix, nameStr) {
        super(nameStr);
        this.prefix = prefix;
    }
    setValue(value, { property, itemIndex }) {
        this.value = value;
        this.scopePath = (0, code_1._) `.${new code_1.Name(property)}[${itemIndex}]`;
    }
}
exports.ValueScopeName = ValueScopeName;
const line = (0, code_1._) `\n`;
class ValueScope extends Scope {
    constructor(opts) {
        super(opts);
        this._values = {};
        this._scope = opts.scope;
        this.opts = { ...opts, _n: opts.lines ? line : code_1.nil };
    }
    get() {
        return this._scope;
    }
    name(prefix) {
        return new ValueScopeName(prefix, this._newName(prefix));
    }
    value(nameOrPrefix, value) {
        var _a;
        if (value.ref === undefined)
            throw new Error("CodeGen: ref must be passed in value");
        const name = this.toName(nameOrPrefix);
        const { prefix } = name;
        const valueKey = (_a = value.key) !== null && _a !== void 0 ? _a : value.ref;
        let vs = this._values[prefix];
        if (vs) {
            const _name = vs.get(valueKey);
            if (_name)
                return _name;
        }
        else {
            vs = this._values[prefix] = new Map();
        }
        vs.set(valueKey, name);
        const s = this._scope[prefix] || (this._scope[prefix] = []);
        const itemIndex = s.length;
        s[itemIndex] = value.ref;
        name.setValue(value, { property: prefix, itemIndex });
        return name;
    }
    getValue(prefix, keyOrRef) {
        const vs = this._values[prefix];
        if (!vs)
            return;
        return vs.get(keyOrRef);
    }
    scopeRefs(scopeName, values = this._values) {
        return this._reduceValues(values, (name) => {
            if (name.scopePath === undefined)
                throw new Error(`CodeGen: name "${name}" has no value`);
            return (0, code_1._) `${scopeName}${name.scopePath}`;
        });
    }
    scopeCode(values = this._values, usedValues, getCode) {
        return this._reduceValues(values, (name) => {
            if (name.value === undefined)
                throw new Error(`CodeGen: name "${name}" has no value`);
            return name.value.code;
        }, usedValues, getCode);
    }
    _reduceValues(values, valueCode, usedValues = {}, getCode) {
        let code = code_1.nil;
        for (const prefix in values) {
            const vs = values[prefix];
            if (!vs)
                continue;
            const nameSet = (usedValues[prefix] = usedValues[prefix] || new Map());
            vs.forEach((name) => {
                if (nameSet.has(name))
                    return;
                nameSet.set(name, UsedValueState.Started);
                let c = valueCode(name);
                if (c) {
                    const def = this.opts.es5 ? exports.varKinds.var : exports.varKinds.const;
                    code = (0, code_1._) `${code}${def} ${name} = ${c};${this.opts._n}`;
                }
                else if ((c = getCode === null || getCode === void 0 ? void 0 : getCode(name))) {
                    code = (0, code_1._) `${code}${c}${this.opts._n}`;
                }
                else {
                    throw new ValueError(name);
                }
                nameSet.set(name, UsedValueState.Completed);
            });
        }
        return code;
    }
}
exports.ValueScope = ValueScope;
//# sourceMappingURL=scope.js.map

/***/ }),

/***/ 1283:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.extendErrors = exports.resetErrorsCount = exports.reportExtraError = exports.reportError = exports.keyword$DataError = exports.keywordError = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const names_1 = __nccwpck_require__(630);
exports.keywordError = {
    message: ({ keyword }) => (0, codegen_1.str) `must pass "${keyword}" keyword validation`,
};
exports.keyword$DataError = {
    message: ({ keyword, schemaType }) => schemaType
        ? (0, codegen_1.str) `"${keyword}" keyword must be ${schemaType} ($data)`
        : (0, codegen_1.str) `"${keyword}" keyword is invalid ($data)`,
};
function reportError(cxt, error = exports.keywordError, errorPaths, overrideAllErrors) {
    const { it } = cxt;
    const { gen, compositeRule, allErrors } = it;
    const errObj = errorObjectCode(cxt, error, errorPaths);
    if (overrideAllErrors !== null && overrideAllErrors !== void 0 ? overrideAllErrors : (compositeRule || allErrors)) {
        addError(gen, errObj);
    }
    else {
        returnErrors(it, (0, codegen_1._) `[${errObj}]`);
    }
}
exports.reportError = reportError;
function reportExtraError(cxt, error = exports.keywordError, errorPaths) {
    const { it } = cxt;
    const { gen, compositeRule, allErrors } = it;
    const errObj = errorObjectCode(cxt, error, errorPaths);
    addError(gen, errObj);
    if (!(compositeRule || allErrors)) {
        returnErrors(it, names_1.default.vErrors);
    }
}
exports.reportExtraError = reportExtraError;
function resetErrorsCount(gen, errsCount) {
    gen.assign(names_1.default.errors, errsCount);
    gen.if((0, codegen_1._) `${names_1.default.vErrors} !== null`, () => gen.if(errsCount, () => gen.assign((0, codegen_1._) `${names_1.default.vErrors}.length`, errsCount), () => gen.assign(names_1.default.vErrors, null)));
}
exports.resetErrorsCount = resetErrorsCount;
function extendErrors({ gen, keyword, schemaValue, data, errsCount, it, }) {
    /* istanbul ignore if */
    if (errsCount === undefined)
        throw new Error("ajv implementation error");
    const err = gen.name("err");
    gen.forRange("i", errsCount, names_1.default.errors, (i) => {
        gen.const(err, (0, codegen_1._) `${names_1.default.vErrors}[${i}]`);
        gen.if((0, codegen_1._) `${err}.instancePath === undefined`, () => gen.assign((0, codegen_1._) `${err}.instancePath`, (0, codegen_1.strConcat)(names_1.default.instancePath, it.errorPath)));
        gen.assign((0, codegen_1._) `${err}.schemaPath`, (0, codegen_1.str) `${it.errSchemaPath}/${keyword}`);
        if (it.opts.verbose) {
            gen.assign((0, codegen_1._) `${err}.schema`, schemaValue);
            gen.assign((0, codegen_1._) `${err}.data`, data);
        }
    });
}
exports.extendErrors = extendErrors;
function addError(gen, errObj) {
    const err = gen.const("err", errObj);
    gen.if((0, codegen_1._) `${names_1.default.vErrors} === null`, () => gen.assign(names_1.default.vErrors, (0, codegen_1._) `[${err}]`), (0, codegen_1._) `${names_1.default.vErrors}.push(${err})`);
    gen.code((0, codegen_1._) `${names_1.default.errors}++`);
}
function returnErrors(it, errs) {
    const { gen, validateName, schemaEnv } = it;
    if (schemaEnv.$async) {
        gen.throw((0, codegen_1._) `new ${it.ValidationError}(${errs})`);
    }
    else {
        gen.assign((0, codegen_1._) `${validateName}.errors`, errs);
        gen.return(false);
    }
}
const E = {
    keyword: new codegen_1.Name("keyword"),
    schemaPath: new codegen_1.Name("schemaPath"), // also used in JTD errors
    params: new codegen_1.Name("params"),
    propertyName: new codegen_1.Name("propertyName"),
    message: new codegen_1.Name("message"),
    schema: new codegen_1.Name("schema"),
    parentSchema: new codegen_1.Name("parentSchema"),
};
function errorObjectCode(cxt, error, errorPaths) {
    const { createErrors } = cxt.it;
    if (createErrors === false)
        return (0, codegen_1._) `{}`;
    return errorObject(cxt, error, errorPaths);
}
function errorObject(cxt, error, errorPaths = {}) {
    const { gen, it } = cxt;
    const keyValues = [
        errorInstancePath(it, errorPaths),
        errorSchemaPath(cxt, errorPaths),
    ];
    extraErrorProps(cxt, error, keyValues);
    return gen.object(...keyValues);
}
function errorInstancePath({ errorPath }, { instancePath }) {
    const instPath = instancePath
        ? (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(instancePath, util_1.Type.Str)}`
        : errorPath;
    return [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, instPath)];
}
function errorSchemaPath({ keyword, it: { errSchemaPath } }, { schemaPath, parentSchema }) {
    let schPath = parentSchema ? errSchemaPath : (0, codegen_1.str) `${errSchemaPath}/${keyword}`;
    if (schemaPath) {
        schPath = (0, codegen_1.str) `${schPath}${(0, util_1.getErrorPath)(schemaPath, util_1.Type.Str)}`;
    }
    return [E.schemaPath, schPath];
}
function extraErrorProps(cxt, { params, message }, keyValues) {
    const { keyword, data, schemaValue, it } = cxt;
    const { opts, propertyName, topSchemaRef, schemaPath } = it;
    keyValues.push([E.keyword, keyword], [E.params, typeof params == "function" ? params(cxt) : params || (0, codegen_1._) `{}`]);
    if (opts.messages) {
        keyValues.push([E.message, typeof message == "function" ? message(cxt) : message]);
    }
    if (opts.verbose) {
        keyValues.push([E.schema, schemaValue], [E.parentSchema, (0, codegen_1._) `${topSchemaRef}${schemaPath}`], [names_1.default.data, data]);
    }
    if (propertyName)
        keyValues.push([E.propertyName, propertyName]);
}
//# sourceMappingURL=errors.js.map

/***/ }),

/***/ 2718:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.resolveSchema = exports.getCompilingSchema = exports.resolveRef = exports.compileSchema = exports.SchemaEnv = void 0;
const codegen_1 = __nccwpck_require__(1436);
const validation_error_1 = __nccwpck_require__(3021);
const names_1 = __nccwpck_require__(630);
const resolve_1 = __nccwpck_require__(4090);
const util_1 = __nccwpck_require__(4464);
const validate_1 = __nccwpck_require__(7881);
class SchemaEnv {
    constructor(env) {
        var _a;
        this.refs = {};
        this.dynamicAnchors = {};
        let schema;
        if (typeof env.schema == "object")
            schema = env.schema;
        this.schema = env.schema;
        this.schemaId = env.schemaId;
        this.root = env.root || this;
        this.baseId = (_a = env.baseId) !== null && _a !== void 0 ? _a : (0, resolve_1.normalizeId)(schema === null || schema === void 0 ? void 0 : schema[env.schemaId || "$id"]);
        this.schemaPath = env.schemaPath;
        this.localRefs = env.localRefs;
        this.meta = env.meta;
        this.$async = schema === null || schema === void 0 ? void 0 : schema.$async;
        this.refs = {};
    }
}
exports.SchemaEnv = SchemaEnv;
// let codeSize = 0
// let nodeCount = 0
// Compiles schema in SchemaEnv
function compileSchema(sch) {
    // TODO refactor - remove compilations
    const _sch = getCompilingSchema.call(this, sch);
    if (_sch)
        return _sch;
    const rootId = (0, resolve_1.getFullPath)(this.opts.uriResolver, sch.root.baseId); // TODO if getFullPath removed 1 tests fails
    const { es5, lines } = this.opts.code;
    const { ownProperties } = this.opts;
    const gen = new codegen_1.CodeGen(this.scope, { es5, lines, ownProperties });
    let _ValidationError;
    if (sch.$async) {
        _ValidationError = gen.scopeValue("Error", {
            ref: validation_error_1.default,
            code: (0, codegen_1._) `require("ajv/dist/runtime/validation_error").default`,
        });
    }
    const validateName = gen.scopeName("validate");
    sch.validateName = validateName;
    const schemaCxt = {
        gen,
        allErrors: this.opts.allErrors,
        data: names_1.default.data,
        parentData: names_1.default.parentData,
        parentDataProperty: names_1.default.parentDataProperty,
        dataNames: [names_1.default.data],
        dataPathArr: [codegen_1.nil], // TODO can its length be used as dataLevel if nil is removed?
        dataLevel: 0,
        dataTypes: [],
        definedProperties: new Set(),
        topSchemaRef: gen.scopeValue("schema", this.opts.code.source === true
            ? { ref: sch.schema, code: (0, codegen_1.stringify)(sch.schema) }
            : { ref: sch.schema }),
        validateName,
        ValidationError: _ValidationError,
        schema: sch.schema,
        schemaEnv: sch,
        rootId,
        baseId: sch.baseId || rootId,
        schemaPath: codegen_1.nil,
        errSchemaPath: sch.schemaPath || (this.opts.jtd ? "" : "#"),
        errorPath: (0, codegen_1._) `""`,
        opts: this.opts,
        self: this,
    };
    let sourceCode;
    try {
        this._compilations.add(sch);
        (0, validate_1.validateFunctionCode)(schemaCxt);
        gen.optimize(this.opts.code.optimize);
        // gen.optimize(1)
        const validateCode = gen.toString();
        sourceCode = `${gen.scopeRefs(names_1.default.scope)}return ${validateCode}`;
        // console.log((codeSize += sourceCode.length), (nodeCount += gen.nodeCount))
        if (this.opts.code.process)
            sourceCode = this.opts.code.process(sourceCode, sch);
        // console.log("\n\n\n *** \n", sourceCode)
        const makeValidate = new Function(`${names_1.default.self}`, `${names_1.default.scope}`, sourceCode);
        const validate = makeValidate(this, this.scope.get());
        this.scope.value(validateName, { ref: validate });
        validate.errors = null;
        validate.schema = sch.schema;
        validate.schemaEnv = sch;
        if (sch.$async)
            validate.$async = true;
        if (this.opts.code.source === true) {
            validate.source = { validateName, validateCode, scopeValues: gen._values };
        }
        if (this.opts.unevaluated) {
            const { props, items } = schemaCxt;
            validate.evaluated = {
                props: props instanceof codegen_1.Name ? undefined : props,
                items: items instanceof codegen_1.Name ? undefined : items,
                dynamicProps: props instanceof codegen_1.Name,
                dynamicItems: items instanceof codegen_1.Name,
            };
            if (validate.source)
                validate.source.evaluated = (0, codegen_1.stringify)(validate.evaluated);
        }
        sch.validate = validate;
        return sch;
    }
    catch (e) {
        delete sch.validate;
        delete sch.validateName;
        if (sourceCode)
            this.logger.error("Error compiling schema, function code:", sourceCode);
        // console.log("\n\n\n *** \n", sourceCode, this.opts)
        throw e;
    }
    finally {
        this._compilations.delete(sch);
    }
}
exports.compileSchema = compileSchema;
function resolveRef(root, baseId, ref) {
    var _a;
    ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, ref);
    const schOrFunc = root.refs[ref];
    if (schOrFunc)
        return schOrFunc;
    let _sch = resolve.call(this, root, ref);
    if (_sch === undefined) {
        const schema = (_a = root.localRefs) === null || _a === void 0 ? void 0 : _a[ref]; // TODO maybe localRefs should hold SchemaEnv
        const { schemaId } = this.opts;
        if (schema)
            _sch = new SchemaEnv({ schema, schemaId, root, baseId });
    }
    if (_sch === undefined)
        return;
    return (root.refs[ref] = inlineOrCompile.call(this, _sch));
}
exports.resolveRef = resolveRef;
function inlineOrCompile(sch) {
    if ((0, resolve_1.inlineRef)(sch.schema, this.opts.inlineRefs))
        return sch.schema;
    return sch.validate ? sch : compileSchema.call(this, sch);
}
// Index of schema compilation in the currently compiled list
function getCompilingSchema(schEnv) {
    for (const sch of this._compilations) {
        if (sameSchemaEnv(sch, schEnv))
            return sch;
    }
}
exports.getCompilingSchema = getCompilingSchema;
function sameSchemaEnv(s1, s2) {
    return s1.schema === s2.schema && s1.root === s2.root && s1.baseId === s2.baseId;
}
// resolve and compile the references ($ref)
// TODO returns AnySchemaObject (if the schema can be inlined) or validation function
function resolve(root, // information about the root schema for the current schema
ref // reference to resolve
) {
    let sch;
    while (typeof (sch = this.refs[ref]) == "string")
        ref = sch;
    return sch || this.schemas[ref] || resolveSchema.call(this, root, ref);
}
// Resolve schema, its root and baseId
function resolveSchema(root, // root object with properties schema, refs TODO below SchemaEnv is assigned to it
ref // reference to resolve
) {
    const p = this.opts.uriResolver.parse(ref);
    const refPath = (0, resolve_1._getFullPath)(this.opts.uriResolver, p);
    let baseId = (0, resolve_1.getFullPath)(this.opts.uriResolver, root.baseId, undefined);
    // TODO `Object.keys(root.schema).length > 0` should not be needed - but removing breaks 2 tests
    if (Object.keys(root.schema).length > 0 && refPath === baseId) {
        return getJsonPointer.call(this, p, root);
    }
    const id = (0, resolve_1.normalizeId)(refPath);
    const schOrRef = this.refs[id] || this.schemas[id];
    if (typeof schOrRef == "string") {
        const sch = resolveSchema.call(this, root, schOrRef);
        if (typeof (sch === null || sch === void 0 ? void 0 : sch.schema) !== "object")
            return;
        return getJsonPointer.call(this, p, sch);
    }
    if (typeof (schOrRef === null || schOrRef === void 0 ? void 0 : schOrRef.schema) !== "object")
        return;
    if (!schOrRef.validate)
        compileSchema.call(this, schOrRef);
    if (id === (0, resolve_1.normalizeId)(ref)) {
        const { schema } = schOrRef;
        const { schemaId } = this.opts;
        const schId = schema[schemaId];
        if (schId)
            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
        return new SchemaEnv({ schema, schemaId, root, baseId });
    }
    return getJsonPointer.call(this, p, schOrRef);
}
exports.resolveSchema = resolveSchema;
const PREVENT_SCOPE_CHANGE = new Set([
    "properties",
    "patternProperties",
    "enum",
    "dependencies",
    "definitions",
]);
function getJsonPointer(parsedRef, { baseId, schema, root }) {
    var _a;
    if (((_a = parsedRef.fragment) === null || _a === void 0 ? void 0 : _a[0]) !== "/")
        return;
    for (const part of parsedRef.fragment.slice(1).split("/")) {
        if (typeof schema === "boolean")
            return;
        const partSchema = schema[(0, util_1.unescapeFragment)(part)];
        if (partSchema === undefined)
            return;
        schema = partSchema;
        // TODO PREVENT_SCOPE_CHANGE could be defined in keyword def?
        const schId = typeof schema === "object" && schema[this.opts.schemaId];
        if (!PREVENT_SCOPE_CHANGE.has(part) && schId) {
            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
        }
    }
    let env;
    if (typeof schema != "boolean" && schema.$ref && !(0, util_1.schemaHasRulesButRef)(schema, this.RULES)) {
        const $ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schema.$ref);
        env = resolveSchema.call(this, root, $ref);
    }
    // even though resolution failed we need to return SchemaEnv to throw exception
    // so that compileAsync loads missing schema.
    const { schemaId } = this.opts;
    env = env || new SchemaEnv({ schema, schemaId, root, baseId });
    if (env.schema !== env.root.schema)
        return env;
    return undefined;
}
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 630:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const names = {
    // validation function arguments
    data: new codegen_1.Name("data"), // data passed to validation function
    // args passed from referencing schema
    valCxt: new codegen_1.Name("valCxt"), // validation/data context - should not be used directly, it is destructured to the names below
    instancePath: new codegen_1.Name("instancePath"),
    parentData: new codegen_1.Name("parentData"),
    parentDataProperty: new codegen_1.Name("parentDataProperty"),
    rootData: new codegen_1.Name("rootData"), // root data - same as the data passed to the first/top validation function
    dynamicAnchors: new codegen_1.Name("dynamicAnchors"), // used to support recursiveRef and dynamicRef
    // function scoped variables
    vErrors: new codegen_1.Name("vErrors"), // null or array of validation errors
    errors: new codegen_1.Name("errors"), // counter of validation errors
    this: new codegen_1.Name("this"),
    // "globals"
    self: new codegen_1.Name("self"),
    scope: new codegen_1.Name("scope"),
    // JTD serialize/parse name for JSON string and position
    json: new codegen_1.Name("json"),
    jsonPos: new codegen_1.Name("jsonPos"),
    jsonLen: new codegen_1.Name("jsonLen"),
    jsonPart: new codegen_1.Name("jsonPart"),
};
exports["default"] = names;
//# sourceMappingURL=names.js.map

/***/ }),

/***/ 3162:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const resolve_1 = __nccwpck_require__(4090);
class MissingRefError extends Error {
    constructor(resolver, baseId, ref, msg) {
        super(msg || `can't resolve reference ${ref} from id ${baseId}`);
        this.missingRef = (0, resolve_1.resolveUrl)(resolver, baseId, ref);
        this.missingSchema = (0, resolve_1.normalizeId)((0, resolve_1.getFullPath)(resolver, this.missingRef));
    }
}
exports["default"] = MissingRefError;
//# sourceMappingURL=ref_error.js.map

/***/ }),

/***/ 4090:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.getSchemaRefs = exports.resolveUrl = exports.normalizeId = exports._getFullPath = exports.getFullPath = exports.inlineRef = void 0;
const util_1 = __nccwpck_require__(4464);
const equal = __nccwpck_require__(3430);
const traverse = __nccwpck_require__(1167);
// TODO refactor to use keyword definitions
const SIMPLE_INLINED = new Set([
    "type",
    "format",
    "pattern",
    "maxLength",
    "minLength",
    "maxProperties",
    "minProperties",
    "maxItems",
    "minItems",
    "maximum",
    "minimum",
    "uniqueItems",
    "multipleOf",
    "required",
    "enum",
    "const",
]);
function inlineRef(schema, limit = true) {
    if (typeof schema == "boolean")
        return true;
    if (limit === true)
        return !hasRef(schema);
    if (!limit)
        return false;
    return countKeys(schema) <= limit;
}
exports.inlineRef = inlineRef;
const REF_KEYWORDS = new Set([
    "$ref",
    "$recursiveRef",
    "$recursiveAnchor",
    "$dynamicRef",
    "$dynamicAnchor",
]);
function hasRef(schema) {
    for (const key in schema) {
        if (REF_KEYWORDS.has(key))
            return true;
        const sch = schema[key];
        if (Array.isArray(sch) && sch.some(hasRef))
            return true;
        if (typeof sch == "object" && hasRef(sch))
            return true;
    }
    return false;
}
function countKeys(schema) {
    let count = 0;
    for (const key in schema) {
        if (key === "$ref")
            return Infinity;
        count++;
        if (SIMPLE_INLINED.has(key))
            continue;
        if (typeof schema[key] == "object") {
            (0, util_1.eachItem)(schema[key], (sch) => (count += countKeys(sch)));
        }
        if (count === Infinity)
            return Infinity;
    }
    return count;
}
function getFullPath(resolver, id = "", normalize) {
    if (normalize !== false)
        id = normalizeId(id);
    const p = resolver.parse(id);
    return _getFullPath(resolver, p);
}
exports.getFullPath = getFullPath;
function _getFullPath(resolver, p) {
    const serialized = resolver.serialize(p);
    return serialized.split("#")[0] + "#";
}
exports._getFullPath = _getFullPath;
const TRAILING_SLASH_HASH = /#\/?$/;
function normalizeId(id) {
    return id ? id.replace(TRAILING_SLASH_HASH, "") : "";
}
exports.normalizeId = normalizeId;
function resolveUrl(resolver, baseId, id) {
    id = normalizeId(id);
    return resolver.resolve(baseId, id);
}
exports.resolveUrl = resolveUrl;
const ANCHOR = /^[a-z_][-a-z0-9._]*$/i;
function getSchemaRefs(schema, baseId) {
    if (typeof schema == "boolean")
        return {};
    const { schemaId, uriResolver } = this.opts;
    const schId = normalizeId(schema[schemaId] || baseId);
    const baseIds = { "": schId };
    const pathPrefix = getFullPath(uriResolver, schId, false);
    const localRefs = {};
    const schemaRefs = new Set();
    traverse(schema, { allKeys: true }, (sch, jsonPtr, _, parentJsonPtr) => {
        if (parentJsonPtr === undefined)
            return;
        const fullPath = pathPrefix + jsonPtr;
        let innerBaseId = baseIds[parentJsonPtr];
        if (typeof sch[schemaId] == "string")
            innerBaseId = addRef.call(this, sch[schemaId]);
        addAnchor.call(this, sch.$anchor);
        addAnchor.call(this, sch.$dynamicAnchor);
        baseIds[jsonPtr] = innerBaseId;
        function addRef(ref) {
            // eslint-disable-next-line @typescript-eslint/unbound-method
            const _resolve = this.opts.uriResolver.resolve;
            ref = normalizeId(innerBaseId ? _resolve(innerBaseId, ref) : ref);
            if (schemaRefs.has(ref))
                throw ambiguos(ref);
            schemaRefs.add(ref);
            let schOrRef = this.refs[ref];
            if (typeof schOrRef == "string")
                schOrRef = this.refs[schOrRef];
            if (typeof schOrRef == "object") {
                checkAmbiguosRef(sch, schOrRef.schema, ref);
            }
            else if (ref !== normalizeId(fullPath)) {
                if (ref[0] === "#") {
                    checkAmbiguosRef(sch, localRefs[ref], ref);
                    localRefs[ref] = sch;
                }
                else {
                    this.refs[ref] = fullPath;
                }
            }
            return ref;
        }
        function addAnchor(anchor) {
            if (typeof anchor == "string") {
                if (!ANCHOR.test(anchor))
                    throw new Error(`invalid anchor "${anchor}"`);
                addRef.call(this, `#${anchor}`);
            }
        }
    });
    return localRefs;
    function checkAmbiguosRef(sch1, sch2, ref) {
        if (sch2 !== undefined && !equal(sch1, sch2))
            throw ambiguos(ref);
    }
    function ambiguos(ref) {
        return new Error(`reference "${ref}" resolves to more than one schema`);
    }
}
exports.getSchemaRefs = getSchemaRefs;
//# sourceMappingURL=resolve.js.map

/***/ }),

/***/ 7353:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.getRules = exports.isJSONType = void 0;
const _jsonTypes = ["string", "number", "integer", "boolean", "null", "object", "array"];
const jsonTypes = new Set(_jsonTypes);
function isJSONType(x) {
    return typeof x == "string" && jsonTypes.has(x);
}
exports.isJSONType = isJSONType;
function getRules() {
    const groups = {
        number: { type: "number", rules: [] },
        string: { type: "string", rules: [] },
        array: { type: "array", rules: [] },
        object: { type: "object", rules: [] },
    };
    return {
        types: { ...groups, integer: true, boolean: true, null: true },
        rules: [{ rules: [] }, groups.number, groups.string, groups.array, groups.object],
        post: { rules: [] },
        all: {},
        keywords: {},
    };
}
exports.getRules = getRules;
//# sourceMappingURL=rules.js.map

/***/ }),

/***/ 4464:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.checkStrictMode = exports.getErrorPath = exports.Type = exports.useFunc = exports.setEvaluated = exports.evaluatedPropsToName = exports.mergeEvaluated = exports.eachItem = exports.unescapeJsonPointer = exports.escapeJsonPointer = exports.escapeFragment = exports.unescapeFragment = exports.schemaRefOrVal = exports.schemaHasRulesButRef = exports.schemaHasRules = exports.checkUnknownRules = exports.alwaysValidSchema = exports.toHash = void 0;
const codegen_1 = __nccwpck_require__(1436);
const code_1 = __nccwpck_require__(567);
// TODO refactor to use Set
function toHash(arr) {
    const hash = {};
    for (const item of arr)
        hash[item] = true;
    return hash;
}
exports.toHash = toHash;
function alwaysValidSchema(it, schema) {
    if (typeof schema == "boolean")
        return schema;
    if (Object.keys(schema).length === 0)
        return true;
    checkUnknownRules(it, schema);
    return !schemaHasRules(schema, it.self.RULES.all);
}
exports.alwaysValidSchema = alwaysValidSchema;
function checkUnknownRules(it, schema = it.schema) {
    const { opts, self } = it;
    if (!opts.strictSchema)
        return;
    if (typeof schema === "boolean")
        return;
    const rules = self.RULES.keywords;
    for (const key in schema) {
        if (!rules[key])
            checkStrictMode(it, `unknown keyword: "${key}"`);
    }
}
exports.checkUnknownRules = checkUnknownRules;
function schemaHasRules(schema, rules) {
    if (typeof schema == "boolean")
        return !schema;
    for (const key in schema)
        if (rules[key])
            return true;
    return false;
}
exports.schemaHasRules = schemaHasRules;
function schemaHasRulesButRef(schema, RULES) {
    if (typeof schema == "boolean")
        return !schema;
    for (const key in schema)
        if (key !== "$ref" && RULES.all[key])
            return true;
    return false;
}
exports.schemaHasRulesButRef = schemaHasRulesButRef;
function schemaRefOrVal({ topSchemaRef, schemaPath }, schema, keyword, $data) {
    if (!$data) {
        if (typeof schema == "number" || typeof schema == "boolean")
            return schema;
        if (typeof schema == "string")
            return (0, codegen_1._) `${schema}`;
    }
    return (0, codegen_1._) `${topSchemaRef}${schemaPath}${(0, codegen_1.getProperty)(keyword)}`;
}
exports.schemaRefOrVal = schemaRefOrVal;
function unescapeFragment(str) {
    return unescapeJsonPointer(decodeURIComponent(str));
}
exports.unescapeFragment = unescapeFragment;
function escapeFragment(str) {
    return encodeURIComponent(escapeJsonPointer(str));
}
exports.escapeFragment = escapeFragment;
function escapeJsonPointer(str) {
    if (typeof str == "number")
        return `${str}`;
    return str.replace(/~/g, "~0").replace(/\//g, "~1");
}
exports.escapeJsonPointer = escapeJsonPointer;
function unescapeJsonPointer(str) {
    return str.replace(/~1/g, "/").replace(/~0/g, "~");
}
exports.unescapeJsonPointer = unescapeJsonPointer;
function eachItem(xs, f) {
    if (Array.isArray(xs)) {
        for (const x of xs)
            f(x);
    }
    else {
        f(xs);
    }
}
exports.eachItem = eachItem;
function makeMergeEvaluated({ mergeNames, mergeToName, mergeValues, resultToName, }) {
    return (gen, from, to, toName) => {
        const res = to === undefined
            ? from
            : to instanceof codegen_1.Name
                ? (from instanceof codegen_1.Name ? mergeNames(gen, from, to) : mergeToName(gen, from, to), to)
                : from instanceof codegen_1.Name
                    ? (mergeToName(gen, to, from), from)
                    : mergeValues(from, to);
        return toName === codegen_1.Name && !(res instanceof codegen_1.Name) ? resultToName(gen, res) : res;
    };
}
exports.mergeEvaluated = {
    props: makeMergeEvaluated({
        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => {
            gen.if((0, codegen_1._) `${from} === true`, () => gen.assign(to, true), () => gen.assign(to, (0, codegen_1._) `${to} || {}`).code((0, codegen_1._) `Object.assign(${to}, ${from})`));
        }),
        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => {
            if (from === true) {
                gen.assign(to, true);
            }
            else {
                gen.assign(to, (0, codegen_1._) `${to} || {}`);
                setEvaluated(gen, to, from);
            }
        }),
        mergeValues: (from, to) => (from === true ? true : { ...from, ...to }),
        resultToName: evaluatedPropsToName,
    }),
    items: makeMergeEvaluated({
        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => gen.assign(to, (0, codegen_1._) `${from} === true ? true : ${to} > ${from} ? ${to} : ${from}`)),
        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => gen.assign(to, from === true ? true : (0, codegen_1._) `${to} > ${from} ? ${to} : ${from}`)),
        mergeValues: (from, to) => (from === true ? true : Math.max(from, to)),
        resultToName: (gen, items) => gen.var("items", items),
    }),
};
function evaluatedPropsToName(gen, ps) {
    if (ps === true)
        return gen.var("props", true);
    const props = gen.var("props", (0, codegen_1._) `{}`);
    if (ps !== undefined)
        setEvaluated(gen, props, ps);
    return props;
}
exports.evaluatedPropsToName = evaluatedPropsToName;
function setEvaluated(gen, props, ps) {
    Object.keys(ps).forEach((p) => gen.assign((0, codegen_1._) `${props}${(0, codegen_1.getProperty)(p)}`, true));
}
exports.setEvaluated = setEvaluated;
const snippets = {};
function useFunc(gen, f) {
    return gen.scopeValue("func", {
        ref: f,
        code: snippets[f.code] || (snippets[f.code] = new code_1._Code(f.code)),
    });
}
exports.useFunc = useFunc;
var Type;
(function (Type) {
    Type[Type["Num"] = 0] = "Num";
    Type[Type["Str"] = 1] = "Str";
})(Type || (exports.Type = Type = {}));
function getErrorPath(dataProp, dataPropType, jsPropertySyntax) {
    // let path
    if (dataProp instanceof codegen_1.Name) {
        const isNumber = dataPropType === Type.Num;
        return jsPropertySyntax
            ? isNumber
                ? (0, codegen_1._) `"[" + ${dataProp} + "]"`
                : (0, codegen_1._) `"['" + ${dataProp} + "']"`
            : isNumber
                ? (0, codegen_1._) `"/" + ${dataProp}`
                : (0, codegen_1._) `"/" + ${dataProp}.replace(/~/g, "~0").replace(/\\//g, "~1")`; // TODO maybe use global escapePointer
    }
    return jsPropertySyntax ? (0, codegen_1.getProperty)(dataProp).toString() : "/" + escapeJsonPointer(dataProp);
}
exports.getErrorPath = getErrorPath;
function checkStrictMode(it, msg, mode = it.opts.strictSchema) {
    if (!mode)
        return;
    msg = `strict mode: ${msg}`;
    if (mode === true)
        throw new Error(msg);
    it.self.logger.warn(msg);
}
exports.checkStrictMode = checkStrictMode;
//# sourceMappingURL=util.js.map

/***/ }),

/***/ 7692:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.shouldUseRule = exports.shouldUseGroup = exports.schemaHasRulesForType = void 0;
function schemaHasRulesForType({ schema, self }, type) {
    const group = self.RULES.types[type];
    return group && group !== true && shouldUseGroup(schema, group);
}
exports.schemaHasRulesForType = schemaHasRulesForType;
function shouldUseGroup(schema, group) {
    return group.rules.some((rule) => shouldUseRule(schema, rule));
}
exports.shouldUseGroup = shouldUseGroup;
function shouldUseRule(schema, rule) {
    var _a;
    return (schema[rule.keyword] !== undefined ||
        ((_a = rule.definition.implements) === null || _a === void 0 ? void 0 : _a.some((kwd) => schema[kwd] !== undefined)));
}
exports.shouldUseRule = shouldUseRule;
//# sourceMappingURL=applicability.js.map

/***/ }),

/***/ 5346:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.boolOrEmptySchema = exports.topBoolOrEmptySchema = void 0;
const errors_1 = __nccwpck_require__(1283);
const codegen_1 = __nccwpck_require__(1436);
const names_1 = __nccwpck_require__(630);
const boolError = {
    message: "boolean schema is false",
};
function topBoolOrEmptySchema(it) {
    const { gen, schema, validateName } = it;
    if (schema === false) {
        falseSchemaError(it, false);
    }
    else if (typeof schema == "object" && schema.$async === true) {
        gen.return(names_1.default.data);
    }
    else {
        gen.assign((0, codegen_1._) `${validateName}.errors`, null);
        gen.return(true);
    }
}
exports.topBoolOrEmptySchema = topBoolOrEmptySchema;
function boolOrEmptySchema(it, valid) {
    const { gen, schema } = it;
    if (schema === false) {
        gen.var(valid, false); // TODO var
        falseSchemaError(it);
    }
    else {
        gen.var(valid, true); // TODO var
    }
}
exports.boolOrEmptySchema = boolOrEmptySchema;
function falseSchemaError(it, overrideAllErrors) {
    const { gen, data } = it;
    // TODO maybe some other interface should be used for non-keyword validation errors...
    const cxt = {
        gen,
        keyword: "false schema",
        data,
        schema: false,
        schemaCode: false,
        schemaValue: false,
        params: {},
        it,
    };
    (0, errors_1.reportError)(cxt, boolError, undefined, overrideAllErrors);
}
//# sourceMappingURL=boolSchema.js.map

/***/ }),

/***/ 6685:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.reportTypeError = exports.checkDataTypes = exports.checkDataType = exports.coerceAndCheckDataType = exports.getJSONTypes = exports.getSchemaTypes = exports.DataType = void 0;
const rules_1 = __nccwpck_require__(7353);
const applicability_1 = __nccwpck_require__(7692);
const errors_1 = __nccwpck_require__(1283);
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
var DataType;
(function (DataType) {
    DataType[DataType["Correct"] = 0] = "Correct";
    DataType[DataType["Wrong"] = 1] = "Wrong";
})(DataType || (exports.DataType = DataType = {}));
function getSchemaTypes(schema) {
    const types = getJSONTypes(schema.type);
    const hasNull = types.includes("null");
    if (hasNull) {
        if (schema.nullable === false)
            throw new Error("type: null contradicts nullable: false");
    }
    else {
        if (!types.length && schema.nullable !== undefined) {
            throw new Error('"nullable" cannot be used without "type"');
        }
        if (schema.nullable === true)
            types.push("null");
    }
    return types;
}
exports.getSchemaTypes = getSchemaTypes;
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
function getJSONTypes(ts) {
    const types = Array.isArray(ts) ? ts : ts ? [ts] : [];
    if (types.every(rules_1.isJSONType))
        return types;
    throw new Error("type must be JSONType or JSONType[]: " + types.join(","));
}
exports.getJSONTypes = getJSONTypes;
function coerceAndCheckDataType(it, types) {
    const { gen, data, opts } = it;
    const coerceTo = coerceToTypes(types, opts.coerceTypes);
    const checkTypes = types.length > 0 &&
        !(coerceTo.length === 0 && types.length === 1 && (0, applicability_1.schemaHasRulesForType)(it, types[0]));
    if (checkTypes) {
        const wrongType = checkDataTypes(types, data, opts.strictNumbers, DataType.Wrong);
        gen.if(wrongType, () => {
            if (coerceTo.length)
                coerceData(it, types, coerceTo);
            else
                reportTypeError(it);
        });
    }
    return checkTypes;
}
exports.coerceAndCheckDataType = coerceAndCheckDataType;
const COERCIBLE = new Set(["string", "number", "integer", "boolean", "null"]);
function coerceToTypes(types, coerceTypes) {
    return coerceTypes
        ? types.filter((t) => COERCIBLE.has(t) || (coerceTypes === "array" && t === "array"))
        : [];
}
function coerceData(it, types, coerceTo) {
    const { gen, data, opts } = it;
    const dataType = gen.let("dataType", (0, codegen_1._) `typeof ${data}`);
    const coerced = gen.let("coerced", (0, codegen_1._) `undefined`);
    if (opts.coerceTypes === "array") {
        gen.if((0, codegen_1._) `${dataType} == 'object' && Array.isArray(${data}) && ${data}.length == 1`, () => gen
            .assign(data, (0, codegen_1._) `${data}[0]`)
            .assign(dataType, (0, codegen_1._) `typeof ${data}`)
            .if(checkDataTypes(types, data, opts.strictNumbers), () => gen.assign(coerced, data)));
    }
    gen.if((0, codegen_1._) `${coerced} !== undefined`);
    for (const t of coerceTo) {
        if (COERCIBLE.has(t) || (t === "array" && opts.coerceTypes === "array")) {
            coerceSpecificType(t);
        }
    }
    gen.else();
    reportTypeError(it);
    gen.endIf();
    gen.if((0, codegen_1._) `${coerced} !== undefined`, () => {
        gen.assign(data, coerced);
        assignParentData(it, coerced);
    });
    function coerceSpecificType(t) {
        switch (t) {
            case "string":
                gen
                    .elseIf((0, codegen_1._) `${dataType} == "number" || ${dataType} == "boolean"`)
                    .assign(coerced, (0, codegen_1._) `"" + ${data}`)
                    .elseIf((0, codegen_1._) `${data} === null`)
                    .assign(coerced, (0, codegen_1._) `""`);
                return;
            case "number":
                gen
                    .elseIf((0, codegen_1._) `${dataType} == "boolean" || ${data} === null
              || (${dataType} == "string" && ${data} && ${data} == +${data})`)
                    .assign(coerced, (0, codegen_1._) `+${data}`);
                return;
            case "integer":
                gen
                    .elseIf((0, codegen_1._) `${dataType} === "boolean" || ${data} === null
              || (${dataType} === "string" && ${data} && ${data} == +${data} && !(${data} % 1))`)
                    .assign(coerced, (0, codegen_1._) `+${data}`);
                return;
            case "boolean":
                gen
                    .elseIf((0, codegen_1._) `${data} === "false" || ${data} === 0 || ${data} === null`)
                    .assign(coerced, false)
                    .elseIf((0, codegen_1._) `${data} === "true" || ${data} === 1`)
                    .assign(coerced, true);
                return;
            case "null":
                gen.elseIf((0, codegen_1._) `${data} === "" || ${data} === 0 || ${data} === false`);
                gen.assign(coerced, null);
                return;
            case "array":
                gen
                    .elseIf((0, codegen_1._) `${dataType} === "string" || ${dataType} === "number"
              || ${dataType} === "boolean" || ${data} === null`)
                    .assign(coerced, (0, codegen_1._) `[${data}]`);
        }
    }
}
function assignParentData({ gen, parentData, parentDataProperty }, expr) {
    // TODO use gen.property
    gen.if((0, codegen_1._) `${parentData} !== undefined`, () => gen.assign((0, codegen_1._) `${parentData}[${parentDataProperty}]`, expr));
}
function checkDataType(dataType, data, strictNums, correct = DataType.Correct) {
    const EQ = correct === DataType.Correct ? codegen_1.operators.EQ : codegen_1.operators.NEQ;
    let cond;
    switch (dataType) {
        case "null":
            return (0, codegen_1._) `${data} ${EQ} null`;
        case "array":
            cond = (0, codegen_1._) `Array.isArray(${data})`;
            break;
        case "object":
            cond = (0, codegen_1._) `${data} && typeof ${data} == "object" && !Array.isArray(${data})`;
            break;
        case "integer":
            cond = numCond((0, codegen_1._) `!(${data} % 1) && !isNaN(${data})`);
            break;
        case "number":
            cond = numCond();
            break;
        default:
            return (0, codegen_1._) `typeof ${data} ${EQ} ${dataType}`;
    }
    return correct === DataType.Correct ? cond : (0, codegen_1.not)(cond);
    function numCond(_cond = codegen_1.nil) {
        return (0, codegen_1.and)((0, codegen_1._) `typeof ${data} == "number"`, _cond, strictNums ? (0, codegen_1._) `isFinite(${data})` : codegen_1.nil);
    }
}
exports.checkDataType = checkDataType;
function checkDataTypes(dataTypes, data, strictNums, correct) {
    if (dataTypes.length === 1) {
        return checkDataType(dataTypes[0], data, strictNums, correct);
    }
    let cond;
    const types = (0, util_1.toHash)(dataTypes);
    if (types.array && types.object) {
        const notObj = (0, codegen_1._) `typeof ${data} != "object"`;
        cond = types.null ? notObj : (0, codegen_1._) `!${data} || ${notObj}`;
        delete types.null;
        delete types.array;
        delete types.object;
    }
    else {
        cond = codegen_1.nil;
    }
    if (types.number)
        delete types.integer;
    for (const t in types)
        cond = (0, codegen_1.and)(cond, checkDataType(t, data, strictNums, correct));
    return cond;
}
exports.checkDataTypes = checkDataTypes;
const typeError = {
    message: ({ schema }) => `must be ${schema}`,
    params: ({ schema, schemaValue }) => typeof schema == "string" ? (0, codegen_1._) `{type: ${schema}}` : (0, codegen_1._) `{type: ${schemaValue}}`,
};
function reportTypeError(it) {
    const cxt = getTypeErrorContext(it);
    (0, errors_1.reportError)(cxt, typeError);
}
exports.reportTypeError = reportTypeError;
function getTypeErrorContext(it) {
    const { gen, data, schema } = it;
    const schemaCode = (0, util_1.schemaRefOrVal)(it, schema, "type");
    return {
        gen,
        keyword: "type",
        data,
        schema: schema.type,
        schemaCode,
        schemaValue: schemaCode,
        parentSchema: schema,
        params: {},
        it,
    };
}
//# sourceMappingURL=dataType.js.map

/***/ }),

/***/ 1699:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.assignDefaults = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
function assignDefaults(it, ty) {
    const { properties, items } = it.schema;
    if (ty === "object" && properties) {
        for (const key in properties) {
            assignDefault(it, key, properties[key].default);
        }
    }
    else if (ty === "array" && Array.isArray(items)) {
        items.forEach((sch, i) => assignDefault(it, i, sch.default));
    }
}
exports.assignDefaults = assignDefaults;
function assignDefault(it, prop, defaultValue) {
    const { gen, compositeRule, data, opts } = it;
    if (defaultValue === undefined)
        return;
    const childData = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(prop)}`;
    if (compositeRule) {
        (0, util_1.checkStrictMode)(it, `default is ignored for: ${childData}`);
        return;
    }
    let condition = (0, codegen_1._) `${childData} === undefined`;
    if (opts.useDefaults === "empty") {
        condition = (0, codegen_1._) `${condition} || ${childData} === null || ${childData} === ""`;
    }
    // `${childData} === undefined` +
    // (opts.useDefaults === "empty" ? ` || ${childData} === null || ${childData} === ""` : "")
    gen.if(condition, (0, codegen_1._) `${childData} = ${(0, codegen_1.stringify)(defaultValue)}`);
}
//# sourceMappingURL=defaults.js.map

/***/ }),

/***/ 7881:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.getData = exports.KeywordCxt = exports.validateFunctionCode = void 0;
const boolSchema_1 = __nccwpck_require__(5346);
const dataType_1 = __nccwpck_require__(6685);
const applicability_1 = __nccwpck_require__(7692);
const dataType_2 = __nccwpck_require__(6685);
const defaults_1 = __nccwpck_require__(1699);
const keyword_1 = __nccwpck_require__(5202);
const subschema_1 = __nccwpck_require__(6200);
const codegen_1 = __nccwpck_require__(1436);
const names_1 = __nccwpck_require__(630);
const resolve_1 = __nccwpck_require__(4090);
const util_1 = __nccwpck_require__(4464);
const errors_1 = __nccwpck_require__(1283);
// schema compilation - generates validation function, subschemaCode (below) is used for subschemas
function validateFunctionCode(it) {
    if (isSchemaObj(it)) {
        checkKeywords(it);
        if (schemaCxtHasRules(it)) {
            topSchemaObjCode(it);
            return;
        }
    }
    validateFunction(it, () => (0, boolSchema_1.topBoolOrEmptySchema)(it));
}
exports.validateFunctionCode = validateFunctionCode;
function validateFunction({ gen, validateName, schema, schemaEnv, opts }, body) {
    if (opts.code.es5) {
        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${names_1.default.valCxt}`, schemaEnv.$async, () => {
            gen.code((0, codegen_1._) `"use strict"; ${funcSourceUrl(schema, opts)}`);
            destructureValCxtES5(gen, opts);
            gen.code(body);
        });
    }
    else {
        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${destructureValCxt(opts)}`, schemaEnv.$async, () => gen.code(funcSourceUrl(schema, opts)).code(body));
    }
}
function destructureValCxt(opts) {
    return (0, codegen_1._) `{${names_1.default.instancePath}="", ${names_1.default.parentData}, ${names_1.default.parentDataProperty}, ${names_1.default.rootData}=${names_1.default.data}${opts.dynamicRef ? (0, codegen_1._) `, ${names_1.default.dynamicAnchors}={}` : codegen_1.nil}}={}`;
}
function destructureValCxtES5(gen, opts) {
    gen.if(names_1.default.valCxt, () => {
        gen.var(names_1.default.instancePath, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.instancePath}`);
        gen.var(names_1.default.parentData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentData}`);
        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentDataProperty}`);
        gen.var(names_1.default.rootData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.rootData}`);
        if (opts.dynamicRef)
            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.dynamicAnchors}`);
    }, () => {
        gen.var(names_1.default.instancePath, (0, codegen_1._) `""`);
        gen.var(names_1.default.parentData, (0, codegen_1._) `undefined`);
        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `undefined`);
        gen.var(names_1.default.rootData, names_1.default.data);
        if (opts.dynamicRef)
            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `{}`);
    });
}
function topSchemaObjCode(it) {
    const { schema, opts, gen } = it;
    validateFunction(it, () => {
        if (opts.$comment && schema.$comment)
            commentKeyword(it);
        checkNoDefault(it);
        gen.let(names_1.default.vErrors, null);
        gen.let(names_1.default.errors, 0);
        if (opts.unevaluated)
            resetEvaluated(it);
        typeAndKeywords(it);
        returnResults(it);
    });
    return;
}
function resetEvaluated(it) {
    // TODO maybe some hook to execute it in the end to check whether props/items are Name, as in assignEvaluated
    const { gen, validateName } = it;
    it.evaluated = gen.const("evaluated", (0, codegen_1._) `${validateName}.evaluated`);
    gen.if((0, codegen_1._) `${it.evaluated}.dynamicProps`, () => gen.assign((0, codegen_1._) `${it.evaluated}.props`, (0, codegen_1._) `undefined`));
    gen.if((0, codegen_1._) `${it.evaluated}.dynamicItems`, () => gen.assign((0, codegen_1._) `${it.evaluated}.items`, (0, codegen_1._) `undefined`));
}
function funcSourceUrl(schema, opts) {
    const schId = typeof schema == "object" && schema[opts.schemaId];
    return schId && (opts.code.source || opts.code.process) ? (0, codegen_1._) `/*# sourceURL=${schId} */` : codegen_1.nil;
}
// schema compilation - this function is used recursively to generate code for sub-schemas
function subschemaCode(it, valid) {
    if (isSchemaObj(it)) {
        checkKeywords(it);
        if (schemaCxtHasRules(it)) {
            subSchemaObjCode(it, valid);
            return;
        }
    }
    (0, boolSchema_1.boolOrEmptySchema)(it, valid);
}
function schemaCxtHasRules({ schema, self }) {
    if (typeof schema == "boolean")
        return !schema;
    for (const key in schema)
        if (self.RULES.all[key])
            return true;
    return false;
}
function isSchemaObj(it) {
    return typeof it.schema != "boolean";
}
function subSchemaObjCode(it, valid) {
    const { schema, gen, opts } = it;
    if (opts.$comment && schema.$comment)
        commentKeyword(it);
    updateContext(it);
    checkAsyncSchema(it);
    const errsCount = gen.const("_errs", names_1.default.errors);
    typeAndKeywords(it, errsCount);
    // TODO var
    gen.var(valid, (0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
}
function checkKeywords(it) {
    (0, util_1.checkUnknownRules)(it);
    checkRefsAndKeywords(it);
}
function typeAndKeywords(it, errsCount) {
    if (it.opts.jtd)
        return schemaKeywords(it, [], false, errsCount);
    const types = (0, dataType_1.getSchemaTypes)(it.schema);
    const checkedTypes = (0, dataType_1.coerceAndCheckDataType)(it, types);
    schemaKeywords(it, types, !checkedTypes, errsCount);
}
function checkRefsAndKeywords(it) {
    const { schema, errSchemaPath, opts, self } = it;
    if (schema.$ref && opts.ignoreKeywordsWithRef && (0, util_1.schemaHasRulesButRef)(schema, self.RULES)) {
        self.logger.warn(`$ref: keywords ignored in schema at path "${errSchemaPath}"`);
    }
}
function checkNoDefault(it) {
    const { schema, opts } = it;
    if (schema.default !== undefined && opts.useDefaults && opts.strictSchema) {
        (0, util_1.checkStrictMode)(it, "default is ignored in the schema root");
    }
}
function updateContext(it) {
    const schId = it.schema[it.opts.schemaId];
    if (schId)
        it.baseId = (0, resolve_1.resolveUrl)(it.opts.uriResolver, it.baseId, schId);
}
function checkAsyncSchema(it) {
    if (it.schema.$async && !it.schemaEnv.$async)
        throw new Error("async schema in sync schema");
}
function commentKeyword({ gen, schemaEnv, schema, errSchemaPath, opts }) {
    const msg = schema.$comment;
    if (opts.$comment === true) {
        gen.code((0, codegen_1._) `${names_1.default.self}.logger.log(${msg})`);
    }
    else if (typeof opts.$comment == "function") {
        const schemaPath = (0, codegen_1.str) `${errSchemaPath}/$comment`;
        const rootName = gen.scopeValue("root", { ref: schemaEnv.root });
        gen.code((0, codegen_1._) `${names_1.default.self}.opts.$comment(${msg}, ${schemaPath}, ${rootName}.schema)`);
    }
}
function returnResults(it) {
    const { gen, schemaEnv, validateName, ValidationError, opts } = it;
    if (schemaEnv.$async) {
        // TODO assign unevaluated
        gen.if((0, codegen_1._) `${names_1.default.errors} === 0`, () => gen.return(names_1.default.data), () => gen.throw((0, codegen_1._) `new ${ValidationError}(${names_1.default.vErrors})`));
    }
    else {
        gen.assign((0, codegen_1._) `${validateName}.errors`, names_1.default.vErrors);
        if (opts.unevaluated)
            assignEvaluated(it);
        gen.return((0, codegen_1._) `${names_1.default.errors} === 0`);
    }
}
function assignEvaluated({ gen, evaluated, props, items }) {
    if (props instanceof codegen_1.Name)
        gen.assign((0, codegen_1._) `${evaluated}.props`, props);
    if (items instanceof codegen_1.Name)
        gen.assign((0, codegen_1._) `${evaluated}.items`, items);
}
function schemaKeywords(it, types, typeErrors, errsCount) {
    const { gen, schema, data, allErrors, opts, self } = it;
    const { RULES } = self;
    if (schema.$ref && (opts.ignoreKeywordsWithRef || !(0, util_1.schemaHasRulesButRef)(schema, RULES))) {
        gen.block(() => keywordCode(it, "$ref", RULES.all.$ref.definition)); // TODO typecast
        return;
    }
    if (!opts.jtd)
        checkStrictTypes(it, types);
    gen.block(() => {
        for (const group of RULES.rules)
            groupKeywords(group);
        groupKeywords(RULES.post);
    });
    function groupKeywords(group) {
        if (!(0, applicability_1.shouldUseGroup)(schema, group))
            return;
        if (group.type) {
            gen.if((0, dataType_2.checkDataType)(group.type, data, opts.strictNumbers));
            iterateKeywords(it, group);
            if (types.length === 1 && types[0] === group.type && typeErrors) {
                gen.else();
                (0, dataType_2.reportTypeError)(it);
            }
            gen.endIf();
        }
        else {
            iterateKeywords(it, group);
        }
        // TODO make it "ok" call?
        if (!allErrors)
            gen.if((0, codegen_1._) `${names_1.default.errors} === ${errsCount || 0}`);
    }
}
function iterateKeywords(it, group) {
    const { gen, schema, opts: { useDefaults }, } = it;
    if (useDefaults)
        (0, defaults_1.assignDefaults)(it, group.type);
    gen.block(() => {
        for (const rule of group.rules) {
            if ((0, applicability_1.shouldUseRule)(schema, rule)) {
                keywordCode(it, rule.keyword, rule.definition, group.type);
            }
        }
    });
}
function checkStrictTypes(it, types) {
    if (it.schemaEnv.meta || !it.opts.strictTypes)
        return;
    checkContextTypes(it, types);
    if (!it.opts.allowUnionTypes)
        checkMultipleTypes(it, types);
    checkKeywordTypes(it, it.dataTypes);
}
function checkContextTypes(it, types) {
    if (!types.length)
        return;
    if (!it.dataTypes.length) {
        it.dataTypes = types;
        return;
    }
    types.forEach((t) => {
        if (!includesType(it.dataTypes, t)) {
            strictTypesError(it, `type "${t}" not allowed by context "${it.dataTypes.join(",")}"`);
        }
    });
    narrowSchemaTypes(it, types);
}
function checkMultipleTypes(it, ts) {
    if (ts.length > 1 && !(ts.length === 2 && ts.includes("null"))) {
        strictTypesError(it, "use allowUnionTypes to allow union type keyword");
    }
}
function checkKeywordTypes(it, ts) {
    const rules = it.self.RULES.all;
    for (const keyword in rules) {
        const rule = rules[keyword];
        if (typeof rule == "object" && (0, applicability_1.shouldUseRule)(it.schema, rule)) {
            const { type } = rule.definition;
            if (type.length && !type.some((t) => hasApplicableType(ts, t))) {
                strictTypesError(it, `missing type "${type.join(",")}" for keyword "${keyword}"`);
            }
        }
    }
}
function hasApplicableType(schTs, kwdT) {
    return schTs.includes(kwdT) || (kwdT === "number" && schTs.includes("integer"));
}
function includesType(ts, t) {
    return ts.includes(t) || (t === "integer" && ts.includes("number"));
}
function narrowSchemaTypes(it, withTypes) {
    const ts = [];
    for (const t of it.dataTypes) {
        if (includesType(withTypes, t))
            ts.push(t);
        else if (withTypes.includes("integer") && t === "number")
            ts.push("integer");
    }
    it.dataTypes = ts;
}
function strictTypesError(it, msg) {
    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
    msg += ` at "${schemaPath}" (strictTypes)`;
    (0, util_1.checkStrictMode)(it, msg, it.opts.strictTypes);
}
class KeywordCxt {
    constructor(it, def, keyword) {
        (0, keyword_1.validateKeywordUsage)(it, def, keyword);
        this.gen = it.gen;
        this.allErrors = it.allErrors;
        this.keyword = keyword;
        this.data = it.data;
        this.schema = it.schema[keyword];
        this.$data = def.$data && it.opts.$data && this.schema && this.schema.$data;
        this.schemaValue = (0, util_1.schemaRefOrVal)(it, this.schema, keyword, this.$data);
        this.schemaType = def.schemaType;
        this.parentSchema = it.schema;
        this.params = {};
        this.it = it;
        this.def = def;
        if (this.$data) {
            this.schemaCode = it.gen.const("vSchema", getData(this.$data, it));
        }
        else {
            this.schemaCode = this.schemaValue;
            if (!(0, keyword_1.validSchemaType)(this.schema, def.schemaType, def.allowUndefined)) {
                throw new Error(`${keyword} value must be ${JSON.stringify(def.schemaType)}`);
            }
        }
        if ("code" in def ? def.trackErrors : def.errors !== false) {
            this.errsCount = it.gen.const("_errs", names_1.default.errors);
        }
    }
    result(condition, successAction, failAction) {
        this.failResult((0, codegen_1.not)(condition), successAction, failAction);
    }
    failResult(condition, successAction, failAction) {
        this.gen.if(condition);
        if (failAction)
            failAction();
        else
            this.error();
        if (successAction) {
            this.gen.else();
            successAction();
            if (this.allErrors)
                this.gen.endIf();
        }
        else {
            if (this.allErrors)
                this.gen.endIf();
            else
                this.gen.else();
        }
    }
    pass(condition, failAction) {
        this.failResult((0, codegen_1.not)(condition), undefined, failAction);
    }
    fail(condition) {
        if (condition === undefined) {
            this.error();
            if (!this.allErrors)
                this.gen.if(false); // this branch will be removed by gen.optimize
            return;
        }
        this.gen.if(condition);
        this.error();
        if (this.allErrors)
            this.gen.endIf();
        else
            this.gen.else();
    }
    fail$data(condition) {
        if (!this.$data)
            return this.fail(condition);
        const { schemaCode } = this;
        this.fail((0, codegen_1._) `${schemaCode} !== undefined && (${(0, codegen_1.or)(this.invalid$data(), condition)})`);
    }
    error(append, errorParams, errorPaths) {
        if (errorParams) {
            this.setParams(errorParams);
            this._error(append, errorPaths);
            this.setParams({});
            return;
        }
        this._error(append, errorPaths);
    }
    _error(append, errorPaths) {
        ;
        (append ? errors_1.reportExtraError : errors_1.reportError)(this, this.def.error, errorPaths);
    }
    $dataError() {
        (0, errors_1.reportError)(this, this.def.$dataError || errors_1.keyword$DataError);
    }
    reset() {
        if (this.errsCount === undefined)
            throw new Error('add "trackErrors" to keyword definition');
        (0, errors_1.resetErrorsCount)(this.gen, this.errsCount);
    }
    ok(cond) {
        if (!this.allErrors)
            this.gen.if(cond);
    }
    setParams(obj, assign) {
        if (assign)
            Object.assign(this.params, obj);
        else
            this.params = obj;
    }
    block$data(valid, codeBlock, $dataValid = codegen_1.nil) {
        this.gen.block(() => {
            this.check$data(valid, $dataValid);
            codeBlock();
        });
    }
    check$data(valid = codegen_1.nil, $dataValid = codegen_1.nil) {
        if (!this.$data)
            return;
        const { gen, schemaCode, schemaType, def } = this;
        gen.if((0, codegen_1.or)((0, codegen_1._) `${schemaCode} === undefined`, $dataValid));
        if (valid !== codegen_1.nil)
            gen.assign(valid, true);
        if (schemaType.length || def.validateSchema) {
            gen.elseIf(this.invalid$data());
            this.$dataError();
            if (valid !== codegen_1.nil)
                gen.assign(valid, false);
        }
        gen.else();
    }
    invalid$data() {
        const { gen, schemaCode, schemaType, def, it } = this;
        return (0, codegen_1.or)(wrong$DataType(), invalid$DataSchema());
        function wrong$DataType() {
            if (schemaType.length) {
                /* istanbul ignore if */
                if (!(schemaCode instanceof codegen_1.Name))
                    throw new Error("ajv implementation error");
                const st = Array.isArray(schemaType) ? schemaType : [schemaType];
                return (0, codegen_1._) `${(0, dataType_2.checkDataTypes)(st, schemaCode, it.opts.strictNumbers, dataType_2.DataType.Wrong)}`;
            }
            return codegen_1.nil;
        }
        function invalid$DataSchema() {
            if (def.validateSchema) {
                const validateSchemaRef = gen.scopeValue("validate$data", { ref: def.validateSchema }); // TODO value.code for standalone
                return (0, codegen_1._) `!${validateSchemaRef}(${schemaCode})`;
            }
            return codegen_1.nil;
        }
    }
    subschema(appl, valid) {
        const subschema = (0, subschema_1.getSubschema)(this.it, appl);
        (0, subschema_1.extendSubschemaData)(subschema, this.it, appl);
        (0, subschema_1.extendSubschemaMode)(subschema, appl);
        const nextContext = { ...this.it, ...subschema, items: undefined, props: undefined };
        subschemaCode(nextContext, valid);
        return nextContext;
    }
    mergeEvaluated(schemaCxt, toName) {
        const { it, gen } = this;
        if (!it.opts.unevaluated)
            return;
        if (it.props !== true && schemaCxt.props !== undefined) {
            it.props = util_1.mergeEvaluated.props(gen, schemaCxt.props, it.props, toName);
        }
        if (it.items !== true && schemaCxt.items !== undefined) {
            it.items = util_1.mergeEvaluated.items(gen, schemaCxt.items, it.items, toName);
        }
    }
    mergeValidEvaluated(schemaCxt, valid) {
        const { it, gen } = this;
        if (it.opts.unevaluated && (it.props !== true || it.items !== true)) {
            gen.if(valid, () => this.mergeEvaluated(schemaCxt, codegen_1.Name));
            return true;
        }
    }
}
exports.KeywordCxt = KeywordCxt;
function keywordCode(it, keyword, def, ruleType) {
    const cxt = new KeywordCxt(it, def, keyword);
    if ("code" in def) {
        def.code(cxt, ruleType);
    }
    else if (cxt.$data && def.validate) {
        (0, keyword_1.funcKeywordCode)(cxt, def);
    }
    else if ("macro" in def) {
        (0, keyword_1.macroKeywordCode)(cxt, def);
    }
    else if (def.compile || def.validate) {
        (0, keyword_1.funcKeywordCode)(cxt, def);
    }
}
const JSON_POINTER = /^\/(?:[^~]|~0|~1)*$/;
const RELATIVE_JSON_POINTER = /^([0-9]+)(#|\/(?:[^~]|~0|~1)*)?$/;
function getData($data, { dataLevel, dataNames, dataPathArr }) {
    let jsonPointer;
    let data;
    if ($data === "")
        return names_1.default.rootData;
    if ($data[0] === "/") {
        if (!JSON_POINTER.test($data))
            throw new Error(`Invalid JSON-pointer: ${$data}`);
        jsonPointer = $data;
        data = names_1.default.rootData;
    }
    else {
        const matches = RELATIVE_JSON_POINTER.exec($data);
        if (!matches)
            throw new Error(`Invalid JSON-pointer: ${$data}`);
        const up = +matches[1];
        jsonPointer = matches[2];
        if (jsonPointer === "#") {
            if (up >= dataLevel)
                throw new Error(errorMsg("property/index", up));
            return dataPathArr[dataLevel - up];
        }
        if (up > dataLevel)
            throw new Error(errorMsg("data", up));
        data = dataNames[dataLevel - up];
        if (!jsonPointer)
            return data;
    }
    let expr = data;
    const segments = jsonPointer.split("/");
    for (const segment of segments) {
        if (segment) {
            data = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)((0, util_1.unescapeJsonPointer)(segment))}`;
            expr = (0, codegen_1._) `${expr} && ${data}`;
        }
    }
    return expr;
    function errorMsg(pointerType, up) {
        return `Cannot access ${pointerType} ${up} levels up, current level is ${dataLevel}`;
    }
}
exports.getData = getData;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 5202:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateKeywordUsage = exports.validSchemaType = exports.funcKeywordCode = exports.macroKeywordCode = void 0;
const codegen_1 = __nccwpck_require__(1436);
const names_1 = __nccwpck_require__(630);
const code_1 = __nccwpck_require__(8484);
const errors_1 = __nccwpck_require__(1283);
function macroKeywordCode(cxt, def) {
    const { gen, keyword, schema, parentSchema, it } = cxt;
    const macroSchema = def.macro.call(it.self, schema, parentSchema, it);
    const schemaRef = useKeyword(gen, keyword, macroSchema);
    if (it.opts.validateSchema !== false)
        it.self.validateSchema(macroSchema, true);
    const valid = gen.name("valid");
    cxt.subschema({
        schema: macroSchema,
        schemaPath: codegen_1.nil,
        errSchemaPath: `${it.errSchemaPath}/${keyword}`,
        topSchemaRef: schemaRef,
        compositeRule: true,
    }, valid);
    cxt.pass(valid, () => cxt.error(true));
}
exports.macroKeywordCode = macroKeywordCode;
function funcKeywordCode(cxt, def) {
    var _a;
    const { gen, keyword, schema, parentSchema, $data, it } = cxt;
    checkAsyncKeyword(it, def);
    const validate = !$data && def.compile ? def.compile.call(it.self, schema, parentSchema, it) : def.validate;
    const validateRef = useKeyword(gen, keyword, validate);
    const valid = gen.let("valid");
    cxt.block$data(valid, validateKeyword);
    cxt.ok((_a = def.valid) !== null && _a !== void 0 ? _a : valid);
    function validateKeyword() {
        if (def.errors === false) {
            assignValid();
            if (def.modifying)
                modifyData(cxt);
            reportErrs(() => cxt.error());
        }
        else {
            const ruleErrs = def.async ? validateAsync() : validateSync();
            if (def.modifying)
                modifyData(cxt);
            reportErrs(() => addErrs(cxt, ruleErrs));
        }
    }
    function validateAsync() {
        const ruleErrs = gen.let("ruleErrs", null);
        gen.try(() => assignValid((0, codegen_1._) `await `), (e) => gen.assign(valid, false).if((0, codegen_1._) `${e} instanceof ${it.ValidationError}`, () => gen.assign(ruleErrs, (0, codegen_1._) `${e}.errors`), () => gen.throw(e)));
        return ruleErrs;
    }
    function validateSync() {
        const validateErrs = (0, codegen_1._) `${validateRef}.errors`;
        gen.assign(validateErrs, null);
        assignValid(codegen_1.nil);
        return validateErrs;
    }
    function assignValid(_await = def.async ? (0, codegen_1._) `await ` : codegen_1.nil) {
        const passCxt = it.opts.passContext ? names_1.default.this : names_1.default.self;
        const passSchema = !(("compile" in def && !$data) || def.schema === false);
        gen.assign(valid, (0, codegen_1._) `${_await}${(0, code_1.callValidateCode)(cxt, validateRef, passCxt, passSchema)}`, def.modifying);
    }
    function reportErrs(errors) {
        var _a;
        gen.if((0, codegen_1.not)((_a = def.valid) !== null && _a !== void 0 ? _a : valid), errors);
    }
}
exports.funcKeywordCode = funcKeywordCode;
function modifyData(cxt) {
    const { gen, data, it } = cxt;
    gen.if(it.parentData, () => gen.assign(data, (0, codegen_1._) `${it.parentData}[${it.parentDataProperty}]`));
}
function addErrs(cxt, errs) {
    const { gen } = cxt;
    gen.if((0, codegen_1._) `Array.isArray(${errs})`, () => {
        gen
            .assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`)
            .assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
        (0, errors_1.extendErrors)(cxt);
    }, () => cxt.error());
}
function checkAsyncKeyword({ schemaEnv }, def) {
    if (def.async && !schemaEnv.$async)
        throw new Error("async keyword in sync schema");
}
function useKeyword(gen, keyword, result) {
    if (result === undefined)
        throw new Error(`keyword "${keyword}" failed to compile`);
    return gen.scopeValue("keyword", typeof result == "function" ? { ref: result } : { ref: result, code: (0, codegen_1.stringify)(result) });
}
function validSchemaType(schema, schemaType, allowUndefined = false) {
    // TODO add tests
    return (!schemaType.length ||
        schemaType.some((st) => st === "array"
            ? Array.isArray(schema)
            : st === "object"
                ? schema && typeof schema == "object" && !Array.isArray(schema)
                : typeof schema == st || (allowUndefined && typeof schema == "undefined")));
}
exports.validSchemaType = validSchemaType;
function validateKeywordUsage({ schema, opts, self, errSchemaPath }, def, keyword) {
    /* istanbul ignore if */
    if (Array.isArray(def.keyword) ? !def.keyword.includes(keyword) : def.keyword !== keyword) {
        throw new Error("ajv implementation error");
    }
    const deps = def.dependencies;
    if (deps === null || deps === void 0 ? void 0 : deps.some((kwd) => !Object.prototype.hasOwnProperty.call(schema, kwd))) {
        throw new Error(`parent schema must have dependencies of ${keyword}: ${deps.join(",")}`);
    }
    if (def.validateSchema) {
        const valid = def.validateSchema(schema[keyword]);
        if (!valid) {
            const msg = `keyword "${keyword}" value is invalid at path "${errSchemaPath}": ` +
                self.errorsText(def.validateSchema.errors);
            if (opts.validateSchema === "log")
                self.logger.error(msg);
            else
                throw new Error(msg);
        }
    }
}
exports.validateKeywordUsage = validateKeywordUsage;
//# sourceMappingURL=keyword.js.map

/***/ }),

/***/ 6200:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.extendSubschemaMode = exports.extendSubschemaData = exports.getSubschema = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
function getSubschema(it, { keyword, schemaProp, schema, schemaPath, errSchemaPath, topSchemaRef }) {
    if (keyword !== undefined && schema !== undefined) {
        throw new Error('both "keyword" and "schema" passed, only one allowed');
    }
    if (keyword !== undefined) {
        const sch = it.schema[keyword];
        return schemaProp === undefined
            ? {
                schema: sch,
                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}`,
                errSchemaPath: `${it.errSchemaPath}/${keyword}`,
            }
            : {
                schema: sch[schemaProp],
                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}${(0, codegen_1.getProperty)(schemaProp)}`,
                errSchemaPath: `${it.errSchemaPath}/${keyword}/${(0, util_1.escapeFragment)(schemaProp)}`,
            };
    }
    if (schema !== undefined) {
        if (schemaPath === undefined || errSchemaPath === undefined || topSchemaRef === undefined) {
            throw new Error('"schemaPath", "errSchemaPath" and "topSchemaRef" are required with "schema"');
        }
        return {
            schema,
            schemaPath,
            topSchemaRef,
            errSchemaPath,
        };
    }
    throw new Error('either "keyword" or "schema" must be passed');
}
exports.getSubschema = getSubschema;
function extendSubschemaData(subschema, it, { dataProp, dataPropType: dpType, data, dataTypes, propertyName }) {
    if (data !== undefined && dataProp !== undefined) {
        throw new Error('both "data" and "dataProp" passed, only one allowed');
    }
    const { gen } = it;
    if (dataProp !== undefined) {
        const { errorPath, dataPathArr, opts } = it;
        const nextData = gen.let("data", (0, codegen_1._) `${it.data}${(0, codegen_1.getProperty)(dataProp)}`, true);
        dataContextProps(nextData);
        subschema.errorPath = (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(dataProp, dpType, opts.jsPropertySyntax)}`;
        subschema.parentDataProperty = (0, codegen_1._) `${dataProp}`;
        subschema.dataPathArr = [...dataPathArr, subschema.parentDataProperty];
    }
    if (data !== undefined) {
        const nextData = data instanceof codegen_1.Name ? data : gen.let("data", data, true); // replaceable if used once?
        dataContextProps(nextData);
        if (propertyName !== undefined)
            subschema.propertyName = propertyName;
        // TODO something is possibly wrong here with not changing parentDataProperty and not appending dataPathArr
    }
    if (dataTypes)
        subschema.dataTypes = dataTypes;
    function dataContextProps(_nextData) {
        subschema.data = _nextData;
        subschema.dataLevel = it.dataLevel + 1;
        subschema.dataTypes = [];
        it.definedProperties = new Set();
        subschema.parentData = it.data;
        subschema.dataNames = [...it.dataNames, _nextData];
    }
}
exports.extendSubschemaData = extendSubschemaData;
function extendSubschemaMode(subschema, { jtdDiscriminator, jtdMetadata, compositeRule, createErrors, allErrors }) {
    if (compositeRule !== undefined)
        subschema.compositeRule = compositeRule;
    if (createErrors !== undefined)
        subschema.createErrors = createErrors;
    if (allErrors !== undefined)
        subschema.allErrors = allErrors;
    subschema.jtdDiscriminator = jtdDiscriminator; // not inherited
    subschema.jtdMetadata = jtdMetadata; // not inherited
}
exports.extendSubschemaMode = extendSubschemaMode;
//# sourceMappingURL=subschema.js.map

/***/ }),

/***/ 3893:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = void 0;
var validate_1 = __nccwpck_require__(7881);
Object.defineProperty(exports, "KeywordCxt", ({ enumerable: true, get: function () { return validate_1.KeywordCxt; } }));
var codegen_1 = __nccwpck_require__(1436);
Object.defineProperty(exports, "_", ({ enumerable: true, get: function () { return codegen_1._; } }));
Object.defineProperty(exports, "str", ({ enumerable: true, get: function () { return codegen_1.str; } }));
Object.defineProperty(exports, "stringify", ({ enumerable: true, get: function () { return codegen_1.stringify; } }));
Object.defineProperty(exports, "nil", ({ enumerable: true, get: function () { return codegen_1.nil; } }));
Object.defineProperty(exports, "Name", ({ enumerable: true, get: function () { return codegen_1.Name; } }));
Object.defineProperty(exports, "CodeGen", ({ enumerable: true, get: function () { return codegen_1.CodeGen; } }));
const validation_error_1 = __nccwpck_require__(3021);
const ref_error_1 = __nccwpck_require__(3162);
const rules_1 = __nccwpck_require__(7353);
const compile_1 = __nccwpck_require__(2718);
const codegen_2 = __nccwpck_require__(1436);
const resolve_1 = __nccwpck_require__(4090);
const dataType_1 = __nccwpck_require__(6685);
const util_1 = __nccwpck_require__(4464);
const $dataRefSchema = __nccwpck_require__(3837);
const uri_1 = __nccwpck_require__(6285);
const defaultRegExp = (str, flags) => new RegExp(str, flags);
defaultRegExp.code = "new RegExp";
const META_IGNORE_OPTIONS = ["removeAdditional", "useDefaults", "coerceTypes"];
const EXT_SCOPE_NAMES = new Set([
    "validate",
    "serialize",
    "parse",
    "wrapper",
    "root",
    "schema",
    "keyword",
    "pattern",
    "formats",
    "validate$data",
    "func",
    "obj",
    "Error",
]);
const removedOptions = {
    errorDataPath: "",
    format: "`validateFormats: false` can be used instead.",
    nullable: '"nullable" keyword is supported by default.',
    jsonPointers: "Deprecated jsPropertySyntax can be used instead.",
    extendRefs: "Deprecated ignoreKeywordsWithRef can be used instead.",
    missingRefs: "Pass empty schema with $id that should be ignored to ajv.addSchema.",
    processCode: "Use option `code: {process: (code, schemaEnv: object) => string}`",
    sourceCode: "Use option `code: {source: true}`",
    strictDefaults: "It is default now, see option `strict`.",
    strictKeywords: "It is default now, see option `strict`.",
    uniqueItems: '"uniqueItems" keyword is always validated.',
    unknownFormats: "Disable strict mode or pass `true` to `ajv.addFormat` (or `formats` option).",
    cache: "Map is used as cache, schema object as key.",
    serialize: "Map is used as cache, schema object as key.",
    ajvErrors: "It is default now.",
};
const deprecatedOptions = {
    ignoreKeywordsWithRef: "",
    jsPropertySyntax: "",
    unicode: '"minLength"/"maxLength" account for unicode characters by default.',
};
const MAX_EXPRESSION = 200;
// eslint-disable-next-line complexity
function requiredOptions(o) {
    var _a, _b, _c, _d, _e, _f, _g, _h, _j, _k, _l, _m, _o, _p, _q, _r, _s, _t, _u, _v, _w, _x, _y, _z, _0;
    const s = o.strict;
    const _optz = (_a = o.code) === null || _a === void 0 ? void 0 : _a.optimize;
    const optimize = _optz === true || _optz === undefined ? 1 : _optz || 0;
    const regExp = (_c = (_b = o.code) === null || _b === void 0 ? void 0 : _b.regExp) !== null && _c !== void 0 ? _c : defaultRegExp;
    const uriResolver = (_d = o.uriResolver) !== null && _d !== void 0 ? _d : uri_1.default;
    return {
        strictSchema: (_f = (_e = o.strictSchema) !== null && _e !== void 0 ? _e : s) !== null && _f !== void 0 ? _f : true,
        strictNumbers: (_h = (_g = o.strictNumbers) !== null && _g !== void 0 ? _g : s) !== null && _h !== void 0 ? _h : true,
        strictTypes: (_k = (_j = o.strictTypes) !== null && _j !== void 0 ? _j : s) !== null && _k !== void 0 ? _k : "log",
        strictTuples: (_m = (_l = o.strictTuples) !== null && _l !== void 0 ? _l : s) !== null && _m !== void 0 ? _m : "log",
        strictRequired: (_p = (_o = o.strictRequired) !== null && _o !== void 0 ? _o : s) !== null && _p !== void 0 ? _p : false,
        code: o.code ? { ...o.code, optimize, regExp } : { optimize, regExp },
        loopRequired: (_q = o.loopRequired) !== null && _q !== void 0 ? _q : MAX_EXPRESSION,
        loopEnum: (_r = o.loopEnum) !== null && _r !== void 0 ? _r : MAX_EXPRESSION,
        meta: (_s = o.meta) !== null && _s !== void 0 ? _s : true,
        messages: (_t = o.messages) !== null && _t !== void 0 ? _t : true,
        inlineRefs: (_u = o.inlineRefs) !== null && _u !== void 0 ? _u : true,
        schemaId: (_v = o.schemaId) !== null && _v !== void 0 ? _v : "$id",
        addUsedSchema: (_w = o.addUsedSchema) !== null && _w !== void 0 ? _w : true,
        validateSchema: (_x = o.validateSchema) !== null && _x !== void 0 ? _x : true,
        validateFormats: (_y = o.validateFormats) !== null && _y !== void 0 ? _y : true,
        unicodeRegExp: (_z = o.unicodeRegExp) !== null && _z !== void 0 ? _z : true,
        int32range: (_0 = o.int32range) !== null && _0 !== void 0 ? _0 : true,
        uriResolver: uriResolver,
    };
}
class Ajv {
    constructor(opts = {}) {
        this.schemas = {};
        this.refs = {};
        this.formats = Object.create(null);
        this._compilations = new Set();
        this._loading = {};
        this._cache = new Map();
        opts = this.opts = { ...opts, ...requiredOptions(opts) };
        const { es5, lines } = this.opts.code;
        this.scope = new codegen_2.ValueScope({ scope: {}, prefixes: EXT_SCOPE_NAMES, es5, lines });
        this.logger = getLogger(opts.logger);
        const formatOpt = opts.validateFormats;
        opts.validateFormats = false;
        this.RULES = (0, rules_1.getRules)();
        checkOptions.call(this, removedOptions, opts, "NOT SUPPORTED");
        checkOptions.call(this, deprecatedOptions, opts, "DEPRECATED", "warn");
        this._metaOpts = getMetaSchemaOptions.call(this);
        if (opts.formats)
            addInitialFormats.call(this);
        this._addVocabularies();
        this._addDefaultMetaSchema();
        if (opts.keywords)
            addInitialKeywords.call(this, opts.keywords);
        if (typeof opts.meta == "object")
            this.addMetaSchema(opts.meta);
        addInitialSchemas.call(this);
        opts.validateFormats = formatOpt;
    }
    _addVocabularies() {
        this.addKeyword("$async");
    }
    _addDefaultMetaSchema() {
        const { $data, meta, schemaId } = this.opts;
        let _dataRefSchema = $dataRefSchema;
        if (schemaId === "id") {
            _dataRefSchema = { ...$dataRefSchema };
            _dataRefSchema.id = _dataRefSchema.$id;
            delete _dataRefSchema.$id;
        }
        if (meta && $data)
            this.addMetaSchema(_dataRefSchema, _dataRefSchema[schemaId], false);
    }
    defaultMeta() {
        const { meta, schemaId } = this.opts;
        return (this.opts.defaultMeta = typeof meta == "object" ? meta[schemaId] || meta : undefined);
    }
    validate(schemaKeyRef, // key, ref or schema object
    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
    data // to be validated
    ) {
        let v;
        if (typeof schemaKeyRef == "string") {
            v = this.getSchema(schemaKeyRef);
            if (!v)
                throw new Error(`no schema with key or ref "${schemaKeyRef}"`);
        }
        else {
            v = this.compile(schemaKeyRef);
        }
        const valid = v(data);
        if (!("$async" in v))
            this.errors = v.errors;
        return valid;
    }
    compile(schema, _meta) {
        const sch = this._addSchema(schema, _meta);
        return (sch.validate || this._compileSchemaEnv(sch));
    }
    compileAsync(schema, meta) {
        if (typeof this.opts.loadSchema != "function") {
            throw new Error("options.loadSchema should be a function");
        }
        const { loadSchema } = this.opts;
        return runCompileAsync.call(this, schema, meta);
        async function runCompileAsync(_schema, _meta) {
            await loadMetaSchema.call(this, _schema.$schema);
            const sch = this._addSchema(_schema, _meta);
            return sch.validate || _compileAsync.call(this, sch);
        }
        async function loadMetaSchema($ref) {
            if ($ref && !this.getSchema($ref)) {
                await runCompileAsync.call(this, { $ref }, true);
            }
        }
        async function _compileAsync(sch) {
            try {
                return this._compileSchemaEnv(sch);
            }
            catch (e) {
                if (!(e instanceof ref_error_1.default))
                    throw e;
                checkLoaded.call(this, e);
                await loadMissingSchema.call(this, e.missingSchema);
                return _compileAsync.call(this, sch);
            }
        }
        function checkLoaded({ missingSchema: ref, missingRef }) {
            if (this.refs[ref]) {
                throw new Error(`AnySchema ${ref} is loaded but ${missingRef} cannot be resolved`);
            }
        }
        async function loadMissingSchema(ref) {
            const _schema = await _loadSchema.call(this, ref);
            if (!this.refs[ref])
                await loadMetaSchema.call(this, _schema.$schema);
            if (!this.refs[ref])
                this.addSchema(_schema, ref, meta);
        }
        async function _loadSchema(ref) {
            const p = this._loading[ref];
            if (p)
                return p;
            try {
                return await (this._loading[ref] = loadSchema(ref));
            }
            finally {
                delete this._loading[ref];
            }
        }
    }
    // Adds schema to the instance
    addSchema(schema, // If array is passed, `key` will be ignored
    key, // Optional schema key. Can be passed to `validate` method instead of schema object or id/ref. One schema per instance can have empty `id` and `key`.
    _meta, // true if schema is a meta-schema. Used internally, addMetaSchema should be used instead.
    _validateSchema = this.opts.validateSchema // false to skip schema validation. Used internally, option validateSchema should be used instead.
    ) {
        if (Array.isArray(schema)) {
            for (const sch of schema)
                this.addSchema(sch, undefined, _meta, _validateSchema);
            return this;
        }
        let id;
        if (typeof schema === "object") {
            const { schemaId } = this.opts;
            id = schema[schemaId];
            if (id !== undefined && typeof id != "string") {
                throw new Error(`schema ${schemaId} must be string`);
            }
        }
        key = (0, resolve_1.normalizeId)(key || id);
        this._checkUnique(key);
        this.schemas[key] = this._addSchema(schema, _meta, key, _validateSchema, true);
        return this;
    }
    // Add schema that will be used to validate other schemas
    // options in META_IGNORE_OPTIONS are alway set to false
    addMetaSchema(schema, key, // schema key
    _validateSchema = this.opts.validateSchema // false to skip schema validation, can be used to override validateSchema option for meta-schema
    ) {
        this.addSchema(schema, key, true, _validateSchema);
        return this;
    }
    //  Validate schema against its meta-schema
    validateSchema(schema, throwOrLogError) {
        if (typeof schema == "boolean")
            return true;
        let $schema;
        $schema = schema.$schema;
        if ($schema !== undefined && typeof $schema != "string") {
            throw new Error("$schema must be a string");
        }
        $schema = $schema || this.opts.defaultMeta || this.defaultMeta();
        if (!$schema) {
            this.logger.warn("meta-schema not available");
            this.errors = null;
            return true;
        }
        const valid = this.validate($schema, schema);
        if (!valid && throwOrLogError) {
            const message = "schema is invalid: " + this.errorsText();
            if (this.opts.validateSchema === "log")
                this.logger.error(message);
            else
                throw new Error(message);
        }
        return valid;
    }
    // Get compiled schema by `key` or `ref`.
    // (`key` that was passed to `addSchema` or full schema reference - `schema.$id` or resolved id)
    getSchema(keyRef) {
        let sch;
        while (typeof (sch = getSchEnv.call(this, keyRef)) == "string")
            keyRef = sch;
        if (sch === undefined) {
            const { schemaId } = this.opts;
            const root = new compile_1.SchemaEnv({ schema: {}, schemaId });
            sch = compile_1.resolveSchema.call(this, root, keyRef);
            if (!sch)
                return;
            this.refs[keyRef] = sch;
        }
        return (sch.validate || this._compileSchemaEnv(sch));
    }
    // Remove cached schema(s).
    // If no parameter is passed all schemas but meta-schemas are removed.
    // If RegExp is passed all schemas with key/id matching pattern but meta-schemas are removed.
    // Even if schema is referenced by other schemas it still can be removed as other schemas have local references.
    removeSchema(schemaKeyRef) {
        if (schemaKeyRef instanceof RegExp) {
            this._removeAllSchemas(this.schemas, schemaKeyRef);
            this._removeAllSchemas(this.refs, schemaKeyRef);
            return this;
        }
        switch (typeof schemaKeyRef) {
            case "undefined":
                this._removeAllSchemas(this.schemas);
                this._removeAllSchemas(this.refs);
                this._cache.clear();
                return this;
            case "string": {
                const sch = getSchEnv.call(this, schemaKeyRef);
                if (typeof sch == "object")
                    this._cache.delete(sch.schema);
                delete this.schemas[schemaKeyRef];
                delete this.refs[schemaKeyRef];
                return this;
            }
            case "object": {
                const cacheKey = schemaKeyRef;
                this._cache.delete(cacheKey);
                let id = schemaKeyRef[this.opts.schemaId];
                if (id) {
                    id = (0, resolve_1.normalizeId)(id);
                    delete this.schemas[id];
                    delete this.refs[id];
                }
                return this;
            }
            default:
                throw new Error("ajv.removeSchema: invalid parameter");
        }
    }
    // add "vocabulary" - a collection of keywords
    addVocabulary(definitions) {
        for (const def of definitions)
            this.addKeyword(def);
        return this;
    }
    addKeyword(kwdOrDef, def // deprecated
    ) {
        let keyword;
        if (typeof kwdOrDef == "string") {
            keyword = kwdOrDef;
            if (typeof def == "object") {
                this.logger.warn("these parameters are deprecated, see docs for addKeyword");
                def.keyword = keyword;
            }
        }
        else if (typeof kwdOrDef == "object" && def === undefined) {
            def = kwdOrDef;
            keyword = def.keyword;
            if (Array.isArray(keyword) && !keyword.length) {
                throw new Error("addKeywords: keyword must be string or non-empty array");
            }
        }
        else {
            throw new Error("invalid addKeywords parameters");
        }
        checkKeyword.call(this, keyword, def);
        if (!def) {
            (0, util_1.eachItem)(keyword, (kwd) => addRule.call(this, kwd));
            return this;
        }
        keywordMetaschema.call(this, def);
        const definition = {
            ...def,
            type: (0, dataType_1.getJSONTypes)(def.type),
            schemaType: (0, dataType_1.getJSONTypes)(def.schemaType),
        };
        (0, util_1.eachItem)(keyword, definition.type.length === 0
            ? (k) => addRule.call(this, k, definition)
            : (k) => definition.type.forEach((t) => addRule.call(this, k, definition, t)));
        return this;
    }
    getKeyword(keyword) {
        const rule = this.RULES.all[keyword];
        return typeof rule == "object" ? rule.definition : !!rule;
    }
    // Remove keyword
    removeKeyword(keyword) {
        // TODO return type should be Ajv
        const { RULES } = this;
        delete RULES.keywords[keyword];
        delete RULES.all[keyword];
        for (const group of RULES.rules) {
            const i = group.rules.findIndex((rule) => rule.keyword === keyword);
            if (i >= 0)
                group.rules.splice(i, 1);
        }
        return this;
    }
    // Add format
    addFormat(name, format) {
        if (typeof format == "string")
            format = new RegExp(format);
        this.formats[name] = format;
        return this;
    }
    errorsText(errors = this.errors, // optional array of validation errors
    { separator = ", ", dataVar = "data" } = {} // optional options with properties `separator` and `dataVar`
    ) {
        if (!errors || errors.length === 0)
            return "No errors";
        return errors
            .map((e) => `${dataVar}${e.instancePath} ${e.message}`)
            .reduce((text, msg) => text + separator + msg);
    }
    $dataMetaSchema(metaSchema, keywordsJsonPointers) {
        const rules = this.RULES.all;
        metaSchema = JSON.parse(JSON.stringify(metaSchema));
        for (const jsonPointer of keywordsJsonPointers) {
            const segments = jsonPointer.split("/").slice(1); // first segment is an empty string
            let keywords = metaSchema;
            for (const seg of segments)
                keywords = keywords[seg];
            for (const key in rules) {
                const rule = rules[key];
                if (typeof rule != "object")
                    continue;
                const { $data } = rule.definition;
                const schema = keywords[key];
                if ($data && schema)
                    keywords[key] = schemaOrData(schema);
            }
        }
        return metaSchema;
    }
    _removeAllSchemas(schemas, regex) {
        for (const keyRef in schemas) {
            const sch = schemas[keyRef];
            if (!regex || regex.test(keyRef)) {
                if (typeof sch == "string") {
                    delete schemas[keyRef];
                }
                else if (sch && !sch.meta) {
                    this._cache.delete(sch.schema);
                    delete schemas[keyRef];
                }
            }
        }
    }
    _addSchema(schema, meta, baseId, validateSchema = this.opts.validateSchema, addSchema = this.opts.addUsedSchema) {
        let id;
        const { schemaId } = this.opts;
        if (typeof schema == "object") {
            id = schema[schemaId];
        }
        else {
            if (this.opts.jtd)
                throw new Error("schema must be object");
            else if (typeof schema != "boolean")
                throw new Error("schema must be object or boolean");
        }
        let sch = this._cache.get(schema);
        if (sch !== undefined)
            return sch;
        baseId = (0, resolve_1.normalizeId)(id || baseId);
        const localRefs = resolve_1.getSchemaRefs.call(this, schema, baseId);
        sch = new compile_1.SchemaEnv({ schema, schemaId, meta, baseId, localRefs });
        this._cache.set(sch.schema, sch);
        if (addSchema && !baseId.startsWith("#")) {
            // TODO atm it is allowed to overwrite schemas without id (instead of not adding them)
            if (baseId)
                this._checkUnique(baseId);
            this.refs[baseId] = sch;
        }
        if (validateSchema)
            this.validateSchema(schema, true);
        return sch;
    }
    _checkUnique(id) {
        if (this.schemas[id] || this.refs[id]) {
            throw new Error(`schema with key or id "${id}" already exists`);
        }
    }
    _compileSchemaEnv(sch) {
        if (sch.meta)
            this._compileMetaSchema(sch);
        else
            compile_1.compileSchema.call(this, sch);
        /* istanbul ignore if */
        if (!sch.validate)
            throw new Error("ajv implementation error");
        return sch.validate;
    }
    _compileMetaSchema(sch) {
        const currentOpts = this.opts;
        this.opts = this._metaOpts;
        try {
            compile_1.compileSchema.call(this, sch);
        }
        finally {
            this.opts = currentOpts;
        }
    }
}
Ajv.ValidationError = validation_error_1.default;
Ajv.MissingRefError = ref_error_1.default;
exports["default"] = Ajv;
function checkOptions(checkOpts, options, msg, log = "error") {
    for (const key in checkOpts) {
        const opt = key;
        if (opt in options)
            this.logger[log](`${msg}: option ${key}. ${checkOpts[opt]}`);
    }
}
function getSchEnv(keyRef) {
    keyRef = (0, resolve_1.normalizeId)(keyRef); // TODO tests fail without this line
    return this.schemas[keyRef] || this.refs[keyRef];
}
function addInitialSchemas() {
    const optsSchemas = this.opts.schemas;
    if (!optsSchemas)
        return;
    if (Array.isArray(optsSchemas))
        this.addSchema(optsSchemas);
    else
        for (const key in optsSchemas)
            this.addSchema(optsSchemas[key], key);
}
function addInitialFormats() {
    for (const name in this.opts.formats) {
        const format = this.opts.formats[name];
        if (format)
            this.addFormat(name, format);
    }
}
function addInitialKeywords(defs) {
    if (Array.isArray(defs)) {
        this.addVocabulary(defs);
        return;
    }
    this.logger.warn("keywords option as map is deprecated, pass array");
    for (const keyword in defs) {
        const def = defs[keyword];
        if (!def.keyword)
            def.keyword = keyword;
        this.addKeyword(def);
    }
}
function getMetaSchemaOptions() {
    const metaOpts = { ...this.opts };
    for (const opt of META_IGNORE_OPTIONS)
        delete metaOpts[opt];
    return metaOpts;
}
const noLogs = { log() { }, warn() { }, error() { } };
function getLogger(logger) {
    if (logger === false)
        return noLogs;
    if (logger === undefined)
        return console;
    if (logger.log && logger.warn && logger.error)
        return logger;
    throw new Error("logger must implement log, warn and error methods");
}
const KEYWORD_NAME = /^[a-z_$][a-z0-9_$:-]*$/i;
function checkKeyword(keyword, def) {
    const { RULES } = this;
    (0, util_1.eachItem)(keyword, (kwd) => {
        if (RULES.keywords[kwd])
            throw new Error(`Keyword ${kwd} is already defined`);
        if (!KEYWORD_NAME.test(kwd))
            throw new Error(`Keyword ${kwd} has invalid name`);
    });
    if (!def)
        return;
    if (def.$data && !("code" in def || "validate" in def)) {
        throw new Error('$data keyword must have "code" or "validate" function');
    }
}
function addRule(keyword, definition, dataType) {
    var _a;
    const post = definition === null || definition === void 0 ? void 0 : definition.post;
    if (dataType && post)
        throw new Error('keyword with "post" flag cannot have "type"');
    const { RULES } = this;
    let ruleGroup = post ? RULES.post : RULES.rules.find(({ type: t }) => t === dataType);
    if (!ruleGroup) {
        ruleGroup = { type: dataType, rules: [] };
        RULES.rules.push(ruleGroup);
    }
    RULES.keywords[keyword] = true;
    if (!definition)
        return;
    const rule = {
        keyword,
        definition: {
            ...definition,
            type: (0, dataType_1.getJSONTypes)(definition.type),
            schemaType: (0, dataType_1.getJSONTypes)(definition.schemaType),
        },
    };
    if (definition.before)
        addBeforeRule.call(this, ruleGroup, rule, definition.before);
    else
        ruleGroup.rules.push(rule);
    RULES.all[keyword] = rule;
    (_a = definition.implements) === null || _a === void 0 ? void 0 : _a.forEach((kwd) => this.addKeyword(kwd));
}
function addBeforeRule(ruleGroup, rule, before) {
    const i = ruleGroup.rules.findIndex((_rule) => _rule.keyword === before);
    if (i >= 0) {
        ruleGroup.rules.splice(i, 0, rule);
    }
    else {
        ruleGroup.rules.push(rule);
        this.logger.warn(`rule ${before} is not defined`);
    }
}
function keywordMetaschema(def) {
    let { metaSchema } = def;
    if (metaSchema === undefined)
        return;
    if (def.$data && this.opts.$data)
        metaSchema = schemaOrData(metaSchema);
    def.validateSchema = this.compile(metaSchema, true);
}
const $dataRef = {
    $ref: "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#",
};
function schemaOrData(schema) {
    return { anyOf: [schema, $dataRef] };
}
//# sourceMappingURL=core.js.map

/***/ }),

/***/ 4951:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
// https://github.com/ajv-validator/ajv/issues/889
const equal = __nccwpck_require__(3430);
equal.code = 'require("ajv/dist/runtime/equal").default';
exports["default"] = equal;
//# sourceMappingURL=equal.js.map

/***/ }),

/***/ 6214:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
// https://mathiasbynens.be/notes/javascript-encoding
// https://github.com/bestiejs/punycode.js - punycode.ucs2.decode
function ucs2length(str) {
    const len = str.length;
    let length = 0;
    let pos = 0;
    let value;
    while (pos < len) {
        length++;
        value = str.charCodeAt(pos++);
        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
            // high surrogate, and there is a next character
            value = str.charCodeAt(pos);
            if ((value & 0xfc00) === 0xdc00)
                pos++; // low surrogate
        }
    }
    return length;
}
exports["default"] = ucs2length;
ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
//# sourceMappingURL=ucs2length.js.map

/***/ }),

/***/ 6285:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const uri = __nccwpck_require__(4352);
uri.code = 'require("ajv/dist/runtime/uri").default';
exports["default"] = uri;
//# sourceMappingURL=uri.js.map

/***/ }),

/***/ 3021:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
class ValidationError extends Error {
    constructor(errors) {
        super("validation failed");
        this.errors = errors;
        this.ajv = this.validation = true;
    }
}
exports["default"] = ValidationError;
//# sourceMappingURL=validation_error.js.map

/***/ }),

/***/ 3448:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateAdditionalItems = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
};
const def = {
    keyword: "additionalItems",
    type: "array",
    schemaType: ["boolean", "object"],
    before: "uniqueItems",
    error,
    code(cxt) {
        const { parentSchema, it } = cxt;
        const { items } = parentSchema;
        if (!Array.isArray(items)) {
            (0, util_1.checkStrictMode)(it, '"additionalItems" is ignored when "items" is not an array of schemas');
            return;
        }
        validateAdditionalItems(cxt, items);
    },
};
function validateAdditionalItems(cxt, items) {
    const { gen, schema, data, keyword, it } = cxt;
    it.items = true;
    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
    if (schema === false) {
        cxt.setParams({ len: items.length });
        cxt.pass((0, codegen_1._) `${len} <= ${items.length}`);
    }
    else if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
        const valid = gen.var("valid", (0, codegen_1._) `${len} <= ${items.length}`); // TODO var
        gen.if((0, codegen_1.not)(valid), () => validateItems(valid));
        cxt.ok(valid);
    }
    function validateItems(valid) {
        gen.forRange("i", items.length, len, (i) => {
            cxt.subschema({ keyword, dataProp: i, dataPropType: util_1.Type.Num }, valid);
            if (!it.allErrors)
                gen.if((0, codegen_1.not)(valid), () => gen.break());
        });
    }
}
exports.validateAdditionalItems = validateAdditionalItems;
exports["default"] = def;
//# sourceMappingURL=additionalItems.js.map

/***/ }),

/***/ 2431:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const code_1 = __nccwpck_require__(8484);
const codegen_1 = __nccwpck_require__(1436);
const names_1 = __nccwpck_require__(630);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: "must NOT have additional properties",
    params: ({ params }) => (0, codegen_1._) `{additionalProperty: ${params.additionalProperty}}`,
};
const def = {
    keyword: "additionalProperties",
    type: ["object"],
    schemaType: ["boolean", "object"],
    allowUndefined: true,
    trackErrors: true,
    error,
    code(cxt) {
        const { gen, schema, parentSchema, data, errsCount, it } = cxt;
        /* istanbul ignore if */
        if (!errsCount)
            throw new Error("ajv implementation error");
        const { allErrors, opts } = it;
        it.props = true;
        if (opts.removeAdditional !== "all" && (0, util_1.alwaysValidSchema)(it, schema))
            return;
        const props = (0, code_1.allSchemaProperties)(parentSchema.properties);
        const patProps = (0, code_1.allSchemaProperties)(parentSchema.patternProperties);
        checkAdditionalProperties();
        cxt.ok((0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
        function checkAdditionalProperties() {
            gen.forIn("key", data, (key) => {
                if (!props.length && !patProps.length)
                    additionalPropertyCode(key);
                else
                    gen.if(isAdditional(key), () => additionalPropertyCode(key));
            });
        }
        function isAdditional(key) {
            let definedProp;
            if (props.length > 8) {
                // TODO maybe an option instead of hard-coded 8?
                const propsSchema = (0, util_1.schemaRefOrVal)(it, parentSchema.properties, "properties");
                definedProp = (0, code_1.isOwnProperty)(gen, propsSchema, key);
            }
            else if (props.length) {
                definedProp = (0, codegen_1.or)(...props.map((p) => (0, codegen_1._) `${key} === ${p}`));
            }
            else {
                definedProp = codegen_1.nil;
            }
            if (patProps.length) {
                definedProp = (0, codegen_1.or)(definedProp, ...patProps.map((p) => (0, codegen_1._) `${(0, code_1.usePattern)(cxt, p)}.test(${key})`));
            }
            return (0, codegen_1.not)(definedProp);
        }
        function deleteAdditional(key) {
            gen.code((0, codegen_1._) `delete ${data}[${key}]`);
        }
        function additionalPropertyCode(key) {
            if (opts.removeAdditional === "all" || (opts.removeAdditional && schema === false)) {
                deleteAdditional(key);
                return;
            }
            if (schema === false) {
                cxt.setParams({ additionalProperty: key });
                cxt.error();
                if (!allErrors)
                    gen.break();
                return;
            }
            if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
                const valid = gen.name("valid");
                if (opts.removeAdditional === "failing") {
                    applyAdditionalSchema(key, valid, false);
                    gen.if((0, codegen_1.not)(valid), () => {
                        cxt.reset();
                        deleteAdditional(key);
                    });
                }
                else {
                    applyAdditionalSchema(key, valid);
                    if (!allErrors)
                        gen.if((0, codegen_1.not)(valid), () => gen.break());
                }
            }
        }
        function applyAdditionalSchema(key, valid, errors) {
            const subschema = {
                keyword: "additionalProperties",
                dataProp: key,
                dataPropType: util_1.Type.Str,
            };
            if (errors === false) {
                Object.assign(subschema, {
                    compositeRule: true,
                    createErrors: false,
                    allErrors: false,
                });
            }
            cxt.subschema(subschema, valid);
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=additionalProperties.js.map

/***/ }),

/***/ 9205:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const util_1 = __nccwpck_require__(4464);
const def = {
    keyword: "allOf",
    schemaType: "array",
    code(cxt) {
        const { gen, schema, it } = cxt;
        /* istanbul ignore if */
        if (!Array.isArray(schema))
            throw new Error("ajv implementation error");
        const valid = gen.name("valid");
        schema.forEach((sch, i) => {
            if ((0, util_1.alwaysValidSchema)(it, sch))
                return;
            const schCxt = cxt.subschema({ keyword: "allOf", schemaProp: i }, valid);
            cxt.ok(valid);
            cxt.mergeEvaluated(schCxt);
        });
    },
};
exports["default"] = def;
//# sourceMappingURL=allOf.js.map

/***/ }),

/***/ 9380:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const code_1 = __nccwpck_require__(8484);
const def = {
    keyword: "anyOf",
    schemaType: "array",
    trackErrors: true,
    code: code_1.validateUnion,
    error: { message: "must match a schema in anyOf" },
};
exports["default"] = def;
//# sourceMappingURL=anyOf.js.map

/***/ }),

/***/ 6182:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: ({ params: { min, max } }) => max === undefined
        ? (0, codegen_1.str) `must contain at least ${min} valid item(s)`
        : (0, codegen_1.str) `must contain at least ${min} and no more than ${max} valid item(s)`,
    params: ({ params: { min, max } }) => max === undefined ? (0, codegen_1._) `{minContains: ${min}}` : (0, codegen_1._) `{minContains: ${min}, maxContains: ${max}}`,
};
const def = {
    keyword: "contains",
    type: "array",
    schemaType: ["object", "boolean"],
    before: "uniqueItems",
    trackErrors: true,
    error,
    code(cxt) {
        const { gen, schema, parentSchema, data, it } = cxt;
        let min;
        let max;
        const { minContains, maxContains } = parentSchema;
        if (it.opts.next) {
            min = minContains === undefined ? 1 : minContains;
            max = maxContains;
        }
        else {
            min = 1;
        }
        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
        cxt.setParams({ min, max });
        if (max === undefined && min === 0) {
            (0, util_1.checkStrictMode)(it, `"minContains" == 0 without "maxContains": "contains" keyword ignored`);
            return;
        }
        if (max !== undefined && min > max) {
            (0, util_1.checkStrictMode)(it, `"minContains" > "maxContains" is always invalid`);
            cxt.fail();
            return;
        }
        if ((0, util_1.alwaysValidSchema)(it, schema)) {
            let cond = (0, codegen_1._) `${len} >= ${min}`;
            if (max !== undefined)
                cond = (0, codegen_1._) `${cond} && ${len} <= ${max}`;
            cxt.pass(cond);
            return;
        }
        it.items = true;
        const valid = gen.name("valid");
        if (max === undefined && min === 1) {
            validateItems(valid, () => gen.if(valid, () => gen.break()));
        }
        else if (min === 0) {
            gen.let(valid, true);
            if (max !== undefined)
                gen.if((0, codegen_1._) `${data}.length > 0`, validateItemsWithCount);
        }
        else {
            gen.let(valid, false);
            validateItemsWithCount();
        }
        cxt.result(valid, () => cxt.reset());
        function validateItemsWithCount() {
            const schValid = gen.name("_valid");
            const count = gen.let("count", 0);
            validateItems(schValid, () => gen.if(schValid, () => checkLimits(count)));
        }
        function validateItems(_valid, block) {
            gen.forRange("i", 0, len, (i) => {
                cxt.subschema({
                    keyword: "contains",
                    dataProp: i,
                    dataPropType: util_1.Type.Num,
                    compositeRule: true,
                }, _valid);
                block();
            });
        }
        function checkLimits(count) {
            gen.code((0, codegen_1._) `${count}++`);
            if (max === undefined) {
                gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true).break());
            }
            else {
                gen.if((0, codegen_1._) `${count} > ${max}`, () => gen.assign(valid, false).break());
                if (min === 1)
                    gen.assign(valid, true);
                else
                    gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true));
            }
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=contains.js.map

/***/ }),

/***/ 5826:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateSchemaDeps = exports.validatePropertyDeps = exports.error = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const code_1 = __nccwpck_require__(8484);
exports.error = {
    message: ({ params: { property, depsCount, deps } }) => {
        const property_ies = depsCount === 1 ? "property" : "properties";
        return (0, codegen_1.str) `must have ${property_ies} ${deps} when property ${property} is present`;
    },
    params: ({ params: { property, depsCount, deps, missingProperty } }) => (0, codegen_1._) `{property: ${property},
    missingProperty: ${missingProperty},
    depsCount: ${depsCount},
    deps: ${deps}}`, // TODO change to reference
};
const def = {
    keyword: "dependencies",
    type: "object",
    schemaType: "object",
    error: exports.error,
    code(cxt) {
        const [propDeps, schDeps] = splitDependencies(cxt);
        validatePropertyDeps(cxt, propDeps);
        validateSchemaDeps(cxt, schDeps);
    },
};
function splitDependencies({ schema }) {
    const propertyDeps = {};
    const schemaDeps = {};
    for (const key in schema) {
        if (key === "__proto__")
            continue;
        const deps = Array.isArray(schema[key]) ? propertyDeps : schemaDeps;
        deps[key] = schema[key];
    }
    return [propertyDeps, schemaDeps];
}
function validatePropertyDeps(cxt, propertyDeps = cxt.schema) {
    const { gen, data, it } = cxt;
    if (Object.keys(propertyDeps).length === 0)
        return;
    const missing = gen.let("missing");
    for (const prop in propertyDeps) {
        const deps = propertyDeps[prop];
        if (deps.length === 0)
            continue;
        const hasProperty = (0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties);
        cxt.setParams({
            property: prop,
            depsCount: deps.length,
            deps: deps.join(", "),
        });
        if (it.allErrors) {
            gen.if(hasProperty, () => {
                for (const depProp of deps) {
                    (0, code_1.checkReportMissingProp)(cxt, depProp);
                }
            });
        }
        else {
            gen.if((0, codegen_1._) `${hasProperty} && (${(0, code_1.checkMissingProp)(cxt, deps, missing)})`);
            (0, code_1.reportMissingProp)(cxt, missing);
            gen.else();
        }
    }
}
exports.validatePropertyDeps = validatePropertyDeps;
function validateSchemaDeps(cxt, schemaDeps = cxt.schema) {
    const { gen, data, keyword, it } = cxt;
    const valid = gen.name("valid");
    for (const prop in schemaDeps) {
        if ((0, util_1.alwaysValidSchema)(it, schemaDeps[prop]))
            continue;
        gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties), () => {
            const schCxt = cxt.subschema({ keyword, schemaProp: prop }, valid);
            cxt.mergeValidEvaluated(schCxt, valid);
        }, () => gen.var(valid, true) // TODO var
        );
        cxt.ok(valid);
    }
}
exports.validateSchemaDeps = validateSchemaDeps;
exports["default"] = def;
//# sourceMappingURL=dependencies.js.map

/***/ }),

/***/ 8584:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: ({ params }) => (0, codegen_1.str) `must match "${params.ifClause}" schema`,
    params: ({ params }) => (0, codegen_1._) `{failingKeyword: ${params.ifClause}}`,
};
const def = {
    keyword: "if",
    schemaType: ["object", "boolean"],
    trackErrors: true,
    error,
    code(cxt) {
        const { gen, parentSchema, it } = cxt;
        if (parentSchema.then === undefined && parentSchema.else === undefined) {
            (0, util_1.checkStrictMode)(it, '"if" without "then" and "else" is ignored');
        }
        const hasThen = hasSchema(it, "then");
        const hasElse = hasSchema(it, "else");
        if (!hasThen && !hasElse)
            return;
        const valid = gen.let("valid", true);
        const schValid = gen.name("_valid");
        validateIf();
        cxt.reset();
        if (hasThen && hasElse) {
            const ifClause = gen.let("ifClause");
            cxt.setParams({ ifClause });
            gen.if(schValid, validateClause("then", ifClause), validateClause("else", ifClause));
        }
        else if (hasThen) {
            gen.if(schValid, validateClause("then"));
        }
        else {
            gen.if((0, codegen_1.not)(schValid), validateClause("else"));
        }
        cxt.pass(valid, () => cxt.error(true));
        function validateIf() {
            const schCxt = cxt.subschema({
                keyword: "if",
                compositeRule: true,
                createErrors: false,
                allErrors: false,
            }, schValid);
            cxt.mergeEvaluated(schCxt);
        }
        function validateClause(keyword, ifClause) {
            return () => {
                const schCxt = cxt.subschema({ keyword }, schValid);
                gen.assign(valid, schValid);
                cxt.mergeValidEvaluated(schCxt, valid);
                if (ifClause)
                    gen.assign(ifClause, (0, codegen_1._) `${keyword}`);
                else
                    cxt.setParams({ ifClause: keyword });
            };
        }
    },
};
function hasSchema(it, keyword) {
    const schema = it.schema[keyword];
    return schema !== undefined && !(0, util_1.alwaysValidSchema)(it, schema);
}
exports["default"] = def;
//# sourceMappingURL=if.js.map

/***/ }),

/***/ 8775:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const additionalItems_1 = __nccwpck_require__(3448);
const prefixItems_1 = __nccwpck_require__(6467);
const items_1 = __nccwpck_require__(5791);
const items2020_1 = __nccwpck_require__(2959);
const contains_1 = __nccwpck_require__(6182);
const dependencies_1 = __nccwpck_require__(5826);
const propertyNames_1 = __nccwpck_require__(1372);
const additionalProperties_1 = __nccwpck_require__(2431);
const properties_1 = __nccwpck_require__(8778);
const patternProperties_1 = __nccwpck_require__(664);
const not_1 = __nccwpck_require__(8350);
const anyOf_1 = __nccwpck_require__(9380);
const oneOf_1 = __nccwpck_require__(2490);
const allOf_1 = __nccwpck_require__(9205);
const if_1 = __nccwpck_require__(8584);
const thenElse_1 = __nccwpck_require__(6829);
function getApplicator(draft2020 = false) {
    const applicator = [
        // any
        not_1.default,
        anyOf_1.default,
        oneOf_1.default,
        allOf_1.default,
        if_1.default,
        thenElse_1.default,
        // object
        propertyNames_1.default,
        additionalProperties_1.default,
        dependencies_1.default,
        properties_1.default,
        patternProperties_1.default,
    ];
    // array
    if (draft2020)
        applicator.push(prefixItems_1.default, items2020_1.default);
    else
        applicator.push(additionalItems_1.default, items_1.default);
    applicator.push(contains_1.default);
    return applicator;
}
exports["default"] = getApplicator;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 5791:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateTuple = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const code_1 = __nccwpck_require__(8484);
const def = {
    keyword: "items",
    type: "array",
    schemaType: ["object", "array", "boolean"],
    before: "uniqueItems",
    code(cxt) {
        const { schema, it } = cxt;
        if (Array.isArray(schema))
            return validateTuple(cxt, "additionalItems", schema);
        it.items = true;
        if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
        cxt.ok((0, code_1.validateArray)(cxt));
    },
};
function validateTuple(cxt, extraItems, schArr = cxt.schema) {
    const { gen, parentSchema, data, keyword, it } = cxt;
    checkStrictTuple(parentSchema);
    if (it.opts.unevaluated && schArr.length && it.items !== true) {
        it.items = util_1.mergeEvaluated.items(gen, schArr.length, it.items);
    }
    const valid = gen.name("valid");
    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
    schArr.forEach((sch, i) => {
        if ((0, util_1.alwaysValidSchema)(it, sch))
            return;
        gen.if((0, codegen_1._) `${len} > ${i}`, () => cxt.subschema({
            keyword,
            schemaProp: i,
            dataProp: i,
        }, valid));
        cxt.ok(valid);
    });
    function checkStrictTuple(sch) {
        const { opts, errSchemaPath } = it;
        const l = schArr.length;
        const fullTuple = l === sch.minItems && (l === sch.maxItems || sch[extraItems] === false);
        if (opts.strictTuples && !fullTuple) {
            const msg = `"${keyword}" is ${l}-tuple, but minItems or maxItems/${extraItems} are not specified or different at path "${errSchemaPath}"`;
            (0, util_1.checkStrictMode)(it, msg, opts.strictTuples);
        }
    }
}
exports.validateTuple = validateTuple;
exports["default"] = def;
//# sourceMappingURL=items.js.map

/***/ }),

/***/ 2959:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const code_1 = __nccwpck_require__(8484);
const additionalItems_1 = __nccwpck_require__(3448);
const error = {
    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
};
const def = {
    keyword: "items",
    type: "array",
    schemaType: ["object", "boolean"],
    before: "uniqueItems",
    error,
    code(cxt) {
        const { schema, parentSchema, it } = cxt;
        const { prefixItems } = parentSchema;
        it.items = true;
        if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
        if (prefixItems)
            (0, additionalItems_1.validateAdditionalItems)(cxt, prefixItems);
        else
            cxt.ok((0, code_1.validateArray)(cxt));
    },
};
exports["default"] = def;
//# sourceMappingURL=items2020.js.map

/***/ }),

/***/ 8350:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const util_1 = __nccwpck_require__(4464);
const def = {
    keyword: "not",
    schemaType: ["object", "boolean"],
    trackErrors: true,
    code(cxt) {
        const { gen, schema, it } = cxt;
        if ((0, util_1.alwaysValidSchema)(it, schema)) {
            cxt.fail();
            return;
        }
        const valid = gen.name("valid");
        cxt.subschema({
            keyword: "not",
            compositeRule: true,
            createErrors: false,
            allErrors: false,
        }, valid);
        cxt.failResult(valid, () => cxt.reset(), () => cxt.error());
    },
    error: { message: "must NOT be valid" },
};
exports["default"] = def;
//# sourceMappingURL=not.js.map

/***/ }),

/***/ 2490:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: "must match exactly one schema in oneOf",
    params: ({ params }) => (0, codegen_1._) `{passingSchemas: ${params.passing}}`,
};
const def = {
    keyword: "oneOf",
    schemaType: "array",
    trackErrors: true,
    error,
    code(cxt) {
        const { gen, schema, parentSchema, it } = cxt;
        /* istanbul ignore if */
        if (!Array.isArray(schema))
            throw new Error("ajv implementation error");
        if (it.opts.discriminator && parentSchema.discriminator)
            return;
        const schArr = schema;
        const valid = gen.let("valid", false);
        const passing = gen.let("passing", null);
        const schValid = gen.name("_valid");
        cxt.setParams({ passing });
        // TODO possibly fail straight away (with warning or exception) if there are two empty always valid schemas
        gen.block(validateOneOf);
        cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
        function validateOneOf() {
            schArr.forEach((sch, i) => {
                let schCxt;
                if ((0, util_1.alwaysValidSchema)(it, sch)) {
                    gen.var(schValid, true);
                }
                else {
                    schCxt = cxt.subschema({
                        keyword: "oneOf",
                        schemaProp: i,
                        compositeRule: true,
                    }, schValid);
                }
                if (i > 0) {
                    gen
                        .if((0, codegen_1._) `${schValid} && ${valid}`)
                        .assign(valid, false)
                        .assign(passing, (0, codegen_1._) `[${passing}, ${i}]`)
                        .else();
                }
                gen.if(schValid, () => {
                    gen.assign(valid, true);
                    gen.assign(passing, i);
                    if (schCxt)
                        cxt.mergeEvaluated(schCxt, codegen_1.Name);
                });
            });
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=oneOf.js.map

/***/ }),

/***/ 664:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const code_1 = __nccwpck_require__(8484);
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const util_2 = __nccwpck_require__(4464);
const def = {
    keyword: "patternProperties",
    type: "object",
    schemaType: "object",
    code(cxt) {
        const { gen, schema, data, parentSchema, it } = cxt;
        const { opts } = it;
        const patterns = (0, code_1.allSchemaProperties)(schema);
        const alwaysValidPatterns = patterns.filter((p) => (0, util_1.alwaysValidSchema)(it, schema[p]));
        if (patterns.length === 0 ||
            (alwaysValidPatterns.length === patterns.length &&
                (!it.opts.unevaluated || it.props === true))) {
            return;
        }
        const checkProperties = opts.strictSchema && !opts.allowMatchingProperties && parentSchema.properties;
        const valid = gen.name("valid");
        if (it.props !== true && !(it.props instanceof codegen_1.Name)) {
            it.props = (0, util_2.evaluatedPropsToName)(gen, it.props);
        }
        const { props } = it;
        validatePatternProperties();
        function validatePatternProperties() {
            for (const pat of patterns) {
                if (checkProperties)
                    checkMatchingProperties(pat);
                if (it.allErrors) {
                    validateProperties(pat);
                }
                else {
                    gen.var(valid, true); // TODO var
                    validateProperties(pat);
                    gen.if(valid);
                }
            }
        }
        function checkMatchingProperties(pat) {
            for (const prop in checkProperties) {
                if (new RegExp(pat).test(prop)) {
                    (0, util_1.checkStrictMode)(it, `property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
                }
            }
        }
        function validateProperties(pat) {
            gen.forIn("key", data, (key) => {
                gen.if((0, codegen_1._) `${(0, code_1.usePattern)(cxt, pat)}.test(${key})`, () => {
                    const alwaysValid = alwaysValidPatterns.includes(pat);
                    if (!alwaysValid) {
                        cxt.subschema({
                            keyword: "patternProperties",
                            schemaProp: pat,
                            dataProp: key,
                            dataPropType: util_2.Type.Str,
                        }, valid);
                    }
                    if (it.opts.unevaluated && props !== true) {
                        gen.assign((0, codegen_1._) `${props}[${key}]`, true);
                    }
                    else if (!alwaysValid && !it.allErrors) {
                        // can short-circuit if `unevaluatedProperties` is not supported (opts.next === false)
                        // or if all properties were evaluated (props === true)
                        gen.if((0, codegen_1.not)(valid), () => gen.break());
                    }
                });
            });
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=patternProperties.js.map

/***/ }),

/***/ 6467:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const items_1 = __nccwpck_require__(5791);
const def = {
    keyword: "prefixItems",
    type: "array",
    schemaType: ["array"],
    before: "uniqueItems",
    code: (cxt) => (0, items_1.validateTuple)(cxt, "items"),
};
exports["default"] = def;
//# sourceMappingURL=prefixItems.js.map

/***/ }),

/***/ 8778:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const validate_1 = __nccwpck_require__(7881);
const code_1 = __nccwpck_require__(8484);
const util_1 = __nccwpck_require__(4464);
const additionalProperties_1 = __nccwpck_require__(2431);
const def = {
    keyword: "properties",
    type: "object",
    schemaType: "object",
    code(cxt) {
        const { gen, schema, parentSchema, data, it } = cxt;
        if (it.opts.removeAdditional === "all" && parentSchema.additionalProperties === undefined) {
            additionalProperties_1.default.code(new validate_1.KeywordCxt(it, additionalProperties_1.default, "additionalProperties"));
        }
        const allProps = (0, code_1.allSchemaProperties)(schema);
        for (const prop of allProps) {
            it.definedProperties.add(prop);
        }
        if (it.opts.unevaluated && allProps.length && it.props !== true) {
            it.props = util_1.mergeEvaluated.props(gen, (0, util_1.toHash)(allProps), it.props);
        }
        const properties = allProps.filter((p) => !(0, util_1.alwaysValidSchema)(it, schema[p]));
        if (properties.length === 0)
            return;
        const valid = gen.name("valid");
        for (const prop of properties) {
            if (hasDefault(prop)) {
                applyPropertySchema(prop);
            }
            else {
                gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties));
                applyPropertySchema(prop);
                if (!it.allErrors)
                    gen.else().var(valid, true);
                gen.endIf();
            }
            cxt.it.definedProperties.add(prop);
            cxt.ok(valid);
        }
        function hasDefault(prop) {
            return it.opts.useDefaults && !it.compositeRule && schema[prop].default !== undefined;
        }
        function applyPropertySchema(prop) {
            cxt.subschema({
                keyword: "properties",
                schemaProp: prop,
                dataProp: prop,
            }, valid);
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=properties.js.map

/***/ }),

/***/ 1372:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: "property name must be valid",
    params: ({ params }) => (0, codegen_1._) `{propertyName: ${params.propertyName}}`,
};
const def = {
    keyword: "propertyNames",
    type: "object",
    schemaType: ["object", "boolean"],
    error,
    code(cxt) {
        const { gen, schema, data, it } = cxt;
        if ((0, util_1.alwaysValidSchema)(it, schema))
            return;
        const valid = gen.name("valid");
        gen.forIn("key", data, (key) => {
            cxt.setParams({ propertyName: key });
            cxt.subschema({
                keyword: "propertyNames",
                data: key,
                dataTypes: ["string"],
                propertyName: key,
                compositeRule: true,
            }, valid);
            gen.if((0, codegen_1.not)(valid), () => {
                cxt.error(true);
                if (!it.allErrors)
                    gen.break();
            });
        });
        cxt.ok(valid);
    },
};
exports["default"] = def;
//# sourceMappingURL=propertyNames.js.map

/***/ }),

/***/ 6829:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const util_1 = __nccwpck_require__(4464);
const def = {
    keyword: ["then", "else"],
    schemaType: ["object", "boolean"],
    code({ keyword, parentSchema, it }) {
        if (parentSchema.if === undefined)
            (0, util_1.checkStrictMode)(it, `"${keyword}" without "if" is ignored`);
    },
};
exports["default"] = def;
//# sourceMappingURL=thenElse.js.map

/***/ }),

/***/ 8484:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.validateUnion = exports.validateArray = exports.usePattern = exports.callValidateCode = exports.schemaProperties = exports.allSchemaProperties = exports.noPropertyInData = exports.propertyInData = exports.isOwnProperty = exports.hasPropFunc = exports.reportMissingProp = exports.checkMissingProp = exports.checkReportMissingProp = void 0;
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const names_1 = __nccwpck_require__(630);
const util_2 = __nccwpck_require__(4464);
function checkReportMissingProp(cxt, prop) {
    const { gen, data, it } = cxt;
    gen.if(noPropertyInData(gen, data, prop, it.opts.ownProperties), () => {
        cxt.setParams({ missingProperty: (0, codegen_1._) `${prop}` }, true);
        cxt.error();
    });
}
exports.checkReportMissingProp = checkReportMissingProp;
function checkMissingProp({ gen, data, it: { opts } }, properties, missing) {
    return (0, codegen_1.or)(...properties.map((prop) => (0, codegen_1.and)(noPropertyInData(gen, data, prop, opts.ownProperties), (0, codegen_1._) `${missing} = ${prop}`)));
}
exports.checkMissingProp = checkMissingProp;
function reportMissingProp(cxt, missing) {
    cxt.setParams({ missingProperty: missing }, true);
    cxt.error();
}
exports.reportMissingProp = reportMissingProp;
function hasPropFunc(gen) {
    return gen.scopeValue("func", {
        // eslint-disable-next-line @typescript-eslint/unbound-method
        ref: Object.prototype.hasOwnProperty,
        code: (0, codegen_1._) `Object.prototype.hasOwnProperty`,
    });
}
exports.hasPropFunc = hasPropFunc;
function isOwnProperty(gen, data, property) {
    return (0, codegen_1._) `${hasPropFunc(gen)}.call(${data}, ${property})`;
}
exports.isOwnProperty = isOwnProperty;
function propertyInData(gen, data, property, ownProperties) {
    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} !== undefined`;
    return ownProperties ? (0, codegen_1._) `${cond} && ${isOwnProperty(gen, data, property)}` : cond;
}
exports.propertyInData = propertyInData;
function noPropertyInData(gen, data, property, ownProperties) {
    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} === undefined`;
    return ownProperties ? (0, codegen_1.or)(cond, (0, codegen_1.not)(isOwnProperty(gen, data, property))) : cond;
}
exports.noPropertyInData = noPropertyInData;
function allSchemaProperties(schemaMap) {
    return schemaMap ? Object.keys(schemaMap).filter((p) => p !== "__proto__") : [];
}
exports.allSchemaProperties = allSchemaProperties;
function schemaProperties(it, schemaMap) {
    return allSchemaProperties(schemaMap).filter((p) => !(0, util_1.alwaysValidSchema)(it, schemaMap[p]));
}
exports.schemaProperties = schemaProperties;
function callValidateCode({ schemaCode, data, it: { gen, topSchemaRef, schemaPath, errorPath }, it }, func, context, passSchema) {
    const dataAndSchema = passSchema ? (0, codegen_1._) `${schemaCode}, ${data}, ${topSchemaRef}${schemaPath}` : data;
    const valCxt = [
        [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, errorPath)],
        [names_1.default.parentData, it.parentData],
        [names_1.default.parentDataProperty, it.parentDataProperty],
        [names_1.default.rootData, names_1.default.rootData],
    ];
    if (it.opts.dynamicRef)
        valCxt.push([names_1.default.dynamicAnchors, names_1.default.dynamicAnchors]);
    const args = (0, codegen_1._) `${dataAndSchema}, ${gen.object(...valCxt)}`;
    return context !== codegen_1.nil ? (0, codegen_1._) `${func}.call(${context}, ${args})` : (0, codegen_1._) `${func}(${args})`;
}
exports.callValidateCode = callValidateCode;
const newRegExp = (0, codegen_1._) `new RegExp`;
function usePattern({ gen, it: { opts } }, pattern) {
    const u = opts.unicodeRegExp ? "u" : "";
    const { regExp } = opts.code;
    const rx = regExp(pattern, u);
    return gen.scopeValue("pattern", {
        key: rx.toString(),
        ref: rx,
        code: (0, codegen_1._) `${regExp.code === "new RegExp" ? newRegExp : (0, util_2.useFunc)(gen, regExp)}(${pattern}, ${u})`,
    });
}
exports.usePattern = usePattern;
function validateArray(cxt) {
    const { gen, data, keyword, it } = cxt;
    const valid = gen.name("valid");
    if (it.allErrors) {
        const validArr = gen.let("valid", true);
        validateItems(() => gen.assign(validArr, false));
        return validArr;
    }
    gen.var(valid, true);
    validateItems(() => gen.break());
    return valid;
    function validateItems(notValid) {
        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
        gen.forRange("i", 0, len, (i) => {
            cxt.subschema({
                keyword,
                dataProp: i,
                dataPropType: util_1.Type.Num,
            }, valid);
            gen.if((0, codegen_1.not)(valid), notValid);
        });
    }
}
exports.validateArray = validateArray;
function validateUnion(cxt) {
    const { gen, schema, keyword, it } = cxt;
    /* istanbul ignore if */
    if (!Array.isArray(schema))
        throw new Error("ajv implementation error");
    const alwaysValid = schema.some((sch) => (0, util_1.alwaysValidSchema)(it, sch));
    if (alwaysValid && !it.opts.unevaluated)
        return;
    const valid = gen.let("valid", false);
    const schValid = gen.name("_valid");
    gen.block(() => schema.forEach((_sch, i) => {
        const schCxt = cxt.subschema({
            keyword,
            schemaProp: i,
            compositeRule: true,
        }, schValid);
        gen.assign(valid, (0, codegen_1._) `${valid} || ${schValid}`);
        const merged = cxt.mergeValidEvaluated(schCxt, schValid);
        // can short-circuit if `unevaluatedProperties/Items` not supported (opts.unevaluated !== true)
        // or if all properties and items were evaluated (it.props === true && it.items === true)
        if (!merged)
            gen.if((0, codegen_1.not)(valid));
    }));
    cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
}
exports.validateUnion = validateUnion;
//# sourceMappingURL=code.js.map

/***/ }),

/***/ 9872:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const def = {
    keyword: "id",
    code() {
        throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
    },
};
exports["default"] = def;
//# sourceMappingURL=id.js.map

/***/ }),

/***/ 7397:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const id_1 = __nccwpck_require__(9872);
const ref_1 = __nccwpck_require__(2996);
const core = [
    "$schema",
    "$id",
    "$defs",
    "$vocabulary",
    { keyword: "$comment" },
    "definitions",
    id_1.default,
    ref_1.default,
];
exports["default"] = core;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 2996:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.callRef = exports.getValidate = void 0;
const ref_error_1 = __nccwpck_require__(3162);
const code_1 = __nccwpck_require__(8484);
const codegen_1 = __nccwpck_require__(1436);
const names_1 = __nccwpck_require__(630);
const compile_1 = __nccwpck_require__(2718);
const util_1 = __nccwpck_require__(4464);
const def = {
    keyword: "$ref",
    schemaType: "string",
    code(cxt) {
        const { gen, schema: $ref, it } = cxt;
        const { baseId, schemaEnv: env, validateName, opts, self } = it;
        const { root } = env;
        if (($ref === "#" || $ref === "#/") && baseId === root.baseId)
            return callRootRef();
        const schOrEnv = compile_1.resolveRef.call(self, root, baseId, $ref);
        if (schOrEnv === undefined)
            throw new ref_error_1.default(it.opts.uriResolver, baseId, $ref);
        if (schOrEnv instanceof compile_1.SchemaEnv)
            return callValidate(schOrEnv);
        return inlineRefSchema(schOrEnv);
        function callRootRef() {
            if (env === root)
                return callRef(cxt, validateName, env, env.$async);
            const rootName = gen.scopeValue("root", { ref: root });
            return callRef(cxt, (0, codegen_1._) `${rootName}.validate`, root, root.$async);
        }
        function callValidate(sch) {
            const v = getValidate(cxt, sch);
            callRef(cxt, v, sch, sch.$async);
        }
        function inlineRefSchema(sch) {
            const schName = gen.scopeValue("schema", opts.code.source === true ? { ref: sch, code: (0, codegen_1.stringify)(sch) } : { ref: sch });
            const valid = gen.name("valid");
            const schCxt = cxt.subschema({
                schema: sch,
                dataTypes: [],
                schemaPath: codegen_1.nil,
                topSchemaRef: schName,
                errSchemaPath: $ref,
            }, valid);
            cxt.mergeEvaluated(schCxt);
            cxt.ok(valid);
        }
    },
};
function getValidate(cxt, sch) {
    const { gen } = cxt;
    return sch.validate
        ? gen.scopeValue("validate", { ref: sch.validate })
        : (0, codegen_1._) `${gen.scopeValue("wrapper", { ref: sch })}.validate`;
}
exports.getValidate = getValidate;
function callRef(cxt, v, sch, $async) {
    const { gen, it } = cxt;
    const { allErrors, schemaEnv: env, opts } = it;
    const passCxt = opts.passContext ? names_1.default.this : codegen_1.nil;
    if ($async)
        callAsyncRef();
    else
        callSyncRef();
    function callAsyncRef() {
        if (!env.$async)
            throw new Error("async schema referenced by sync schema");
        const valid = gen.let("valid");
        gen.try(() => {
            gen.code((0, codegen_1._) `await ${(0, code_1.callValidateCode)(cxt, v, passCxt)}`);
            addEvaluatedFrom(v); // TODO will not work with async, it has to be returned with the result
            if (!allErrors)
                gen.assign(valid, true);
        }, (e) => {
            gen.if((0, codegen_1._) `!(${e} instanceof ${it.ValidationError})`, () => gen.throw(e));
            addErrorsFrom(e);
            if (!allErrors)
                gen.assign(valid, false);
        });
        cxt.ok(valid);
    }
    function callSyncRef() {
        cxt.result((0, code_1.callValidateCode)(cxt, v, passCxt), () => addEvaluatedFrom(v), () => addErrorsFrom(v));
    }
    function addErrorsFrom(source) {
        const errs = (0, codegen_1._) `${source}.errors`;
        gen.assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`); // TODO tagged
        gen.assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
    }
    function addEvaluatedFrom(source) {
        var _a;
        if (!it.opts.unevaluated)
            return;
        const schEvaluated = (_a = sch === null || sch === void 0 ? void 0 : sch.validate) === null || _a === void 0 ? void 0 : _a.evaluated;
        // TODO refactor
        if (it.props !== true) {
            if (schEvaluated && !schEvaluated.dynamicProps) {
                if (schEvaluated.props !== undefined) {
                    it.props = util_1.mergeEvaluated.props(gen, schEvaluated.props, it.props);
                }
            }
            else {
                const props = gen.var("props", (0, codegen_1._) `${source}.evaluated.props`);
                it.props = util_1.mergeEvaluated.props(gen, props, it.props, codegen_1.Name);
            }
        }
        if (it.items !== true) {
            if (schEvaluated && !schEvaluated.dynamicItems) {
                if (schEvaluated.items !== undefined) {
                    it.items = util_1.mergeEvaluated.items(gen, schEvaluated.items, it.items);
                }
            }
            else {
                const items = gen.var("items", (0, codegen_1._) `${source}.evaluated.items`);
                it.items = util_1.mergeEvaluated.items(gen, items, it.items, codegen_1.Name);
            }
        }
    }
}
exports.callRef = callRef;
exports["default"] = def;
//# sourceMappingURL=ref.js.map

/***/ }),

/***/ 8886:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const types_1 = __nccwpck_require__(7115);
const compile_1 = __nccwpck_require__(2718);
const ref_error_1 = __nccwpck_require__(3162);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: ({ params: { discrError, tagName } }) => discrError === types_1.DiscrError.Tag
        ? `tag "${tagName}" must be string`
        : `value of tag "${tagName}" must be in oneOf`,
    params: ({ params: { discrError, tag, tagName } }) => (0, codegen_1._) `{error: ${discrError}, tag: ${tagName}, tagValue: ${tag}}`,
};
const def = {
    keyword: "discriminator",
    type: "object",
    schemaType: "object",
    error,
    code(cxt) {
        const { gen, data, schema, parentSchema, it } = cxt;
        const { oneOf } = parentSchema;
        if (!it.opts.discriminator) {
            throw new Error("discriminator: requires discriminator option");
        }
        const tagName = schema.propertyName;
        if (typeof tagName != "string")
            throw new Error("discriminator: requires propertyName");
        if (schema.mapping)
            throw new Error("discriminator: mapping is not supported");
        if (!oneOf)
            throw new Error("discriminator: requires oneOf keyword");
        const valid = gen.let("valid", false);
        const tag = gen.const("tag", (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(tagName)}`);
        gen.if((0, codegen_1._) `typeof ${tag} == "string"`, () => validateMapping(), () => cxt.error(false, { discrError: types_1.DiscrError.Tag, tag, tagName }));
        cxt.ok(valid);
        function validateMapping() {
            const mapping = getMapping();
            gen.if(false);
            for (const tagValue in mapping) {
                gen.elseIf((0, codegen_1._) `${tag} === ${tagValue}`);
                gen.assign(valid, applyTagSchema(mapping[tagValue]));
            }
            gen.else();
            cxt.error(false, { discrError: types_1.DiscrError.Mapping, tag, tagName });
            gen.endIf();
        }
        function applyTagSchema(schemaProp) {
            const _valid = gen.name("valid");
            const schCxt = cxt.subschema({ keyword: "oneOf", schemaProp }, _valid);
            cxt.mergeEvaluated(schCxt, codegen_1.Name);
            return _valid;
        }
        function getMapping() {
            var _a;
            const oneOfMapping = {};
            const topRequired = hasRequired(parentSchema);
            let tagRequired = true;
            for (let i = 0; i < oneOf.length; i++) {
                let sch = oneOf[i];
                if ((sch === null || sch === void 0 ? void 0 : sch.$ref) && !(0, util_1.schemaHasRulesButRef)(sch, it.self.RULES)) {
                    const ref = sch.$ref;
                    sch = compile_1.resolveRef.call(it.self, it.schemaEnv.root, it.baseId, ref);
                    if (sch instanceof compile_1.SchemaEnv)
                        sch = sch.schema;
                    if (sch === undefined)
                        throw new ref_error_1.default(it.opts.uriResolver, it.baseId, ref);
                }
                const propSch = (_a = sch === null || sch === void 0 ? void 0 : sch.properties) === null || _a === void 0 ? void 0 : _a[tagName];
                if (typeof propSch != "object") {
                    throw new Error(`discriminator: oneOf subschemas (or referenced schemas) must have "properties/${tagName}"`);
                }
                tagRequired = tagRequired && (topRequired || hasRequired(sch));
                addMappings(propSch, i);
            }
            if (!tagRequired)
                throw new Error(`discriminator: "${tagName}" must be required`);
            return oneOfMapping;
            function hasRequired({ required }) {
                return Array.isArray(required) && required.includes(tagName);
            }
            function addMappings(sch, i) {
                if (sch.const) {
                    addMapping(sch.const, i);
                }
                else if (sch.enum) {
                    for (const tagValue of sch.enum) {
                        addMapping(tagValue, i);
                    }
                }
                else {
                    throw new Error(`discriminator: "properties/${tagName}" must have "const" or "enum"`);
                }
            }
            function addMapping(tagValue, i) {
                if (typeof tagValue != "string" || tagValue in oneOfMapping) {
                    throw new Error(`discriminator: "${tagName}" values must be unique strings`);
                }
                oneOfMapping[tagValue] = i;
            }
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 7115:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.DiscrError = void 0;
var DiscrError;
(function (DiscrError) {
    DiscrError["Tag"] = "tag";
    DiscrError["Mapping"] = "mapping";
})(DiscrError || (exports.DiscrError = DiscrError = {}));
//# sourceMappingURL=types.js.map

/***/ }),

/***/ 9941:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const core_1 = __nccwpck_require__(7397);
const validation_1 = __nccwpck_require__(5481);
const applicator_1 = __nccwpck_require__(8775);
const format_1 = __nccwpck_require__(2601);
const metadata_1 = __nccwpck_require__(6620);
const draft7Vocabularies = [
    core_1.default,
    validation_1.default,
    (0, applicator_1.default)(),
    format_1.default,
    metadata_1.metadataVocabulary,
    metadata_1.contentVocabulary,
];
exports["default"] = draft7Vocabularies;
//# sourceMappingURL=draft7.js.map

/***/ }),

/***/ 6402:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const error = {
    message: ({ schemaCode }) => (0, codegen_1.str) `must match format "${schemaCode}"`,
    params: ({ schemaCode }) => (0, codegen_1._) `{format: ${schemaCode}}`,
};
const def = {
    keyword: "format",
    type: ["number", "string"],
    schemaType: "string",
    $data: true,
    error,
    code(cxt, ruleType) {
        const { gen, data, $data, schema, schemaCode, it } = cxt;
        const { opts, errSchemaPath, schemaEnv, self } = it;
        if (!opts.validateFormats)
            return;
        if ($data)
            validate$DataFormat();
        else
            validateFormat();
        function validate$DataFormat() {
            const fmts = gen.scopeValue("formats", {
                ref: self.formats,
                code: opts.code.formats,
            });
            const fDef = gen.const("fDef", (0, codegen_1._) `${fmts}[${schemaCode}]`);
            const fType = gen.let("fType");
            const format = gen.let("format");
            // TODO simplify
            gen.if((0, codegen_1._) `typeof ${fDef} == "object" && !(${fDef} instanceof RegExp)`, () => gen.assign(fType, (0, codegen_1._) `${fDef}.type || "string"`).assign(format, (0, codegen_1._) `${fDef}.validate`), () => gen.assign(fType, (0, codegen_1._) `"string"`).assign(format, fDef));
            cxt.fail$data((0, codegen_1.or)(unknownFmt(), invalidFmt()));
            function unknownFmt() {
                if (opts.strictSchema === false)
                    return codegen_1.nil;
                return (0, codegen_1._) `${schemaCode} && !${format}`;
            }
            function invalidFmt() {
                const callFormat = schemaEnv.$async
                    ? (0, codegen_1._) `(${fDef}.async ? await ${format}(${data}) : ${format}(${data}))`
                    : (0, codegen_1._) `${format}(${data})`;
                const validData = (0, codegen_1._) `(typeof ${format} == "function" ? ${callFormat} : ${format}.test(${data}))`;
                return (0, codegen_1._) `${format} && ${format} !== true && ${fType} === ${ruleType} && !${validData}`;
            }
        }
        function validateFormat() {
            const formatDef = self.formats[schema];
            if (!formatDef) {
                unknownFormat();
                return;
            }
            if (formatDef === true)
                return;
            const [fmtType, format, fmtRef] = getFormat(formatDef);
            if (fmtType === ruleType)
                cxt.pass(validCondition());
            function unknownFormat() {
                if (opts.strictSchema === false) {
                    self.logger.warn(unknownMsg());
                    return;
                }
                throw new Error(unknownMsg());
                function unknownMsg() {
                    return `unknown format "${schema}" ignored in schema at path "${errSchemaPath}"`;
                }
            }
            function getFormat(fmtDef) {
                const code = fmtDef instanceof RegExp
                    ? (0, codegen_1.regexpCode)(fmtDef)
                    : opts.code.formats
                        ? (0, codegen_1._) `${opts.code.formats}${(0, codegen_1.getProperty)(schema)}`
                        : undefined;
                const fmt = gen.scopeValue("formats", { key: schema, ref: fmtDef, code });
                if (typeof fmtDef == "object" && !(fmtDef instanceof RegExp)) {
                    return [fmtDef.type || "string", fmtDef.validate, (0, codegen_1._) `${fmt}.validate`];
                }
                return ["string", fmtDef, fmt];
            }
            function validCondition() {
                if (typeof formatDef == "object" && !(formatDef instanceof RegExp) && formatDef.async) {
                    if (!schemaEnv.$async)
                        throw new Error("async format in sync schema");
                    return (0, codegen_1._) `await ${fmtRef}(${data})`;
                }
                return typeof format == "function" ? (0, codegen_1._) `${fmtRef}(${data})` : (0, codegen_1._) `${fmtRef}.test(${data})`;
            }
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=format.js.map

/***/ }),

/***/ 2601:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const format_1 = __nccwpck_require__(6402);
const format = [format_1.default];
exports["default"] = format;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 6620:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
exports.contentVocabulary = exports.metadataVocabulary = void 0;
exports.metadataVocabulary = [
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];
exports.contentVocabulary = [
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];
//# sourceMappingURL=metadata.js.map

/***/ }),

/***/ 8026:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const equal_1 = __nccwpck_require__(4951);
const error = {
    message: "must be equal to constant",
    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValue: ${schemaCode}}`,
};
const def = {
    keyword: "const",
    $data: true,
    error,
    code(cxt) {
        const { gen, data, $data, schemaCode, schema } = cxt;
        if ($data || (schema && typeof schema == "object")) {
            cxt.fail$data((0, codegen_1._) `!${(0, util_1.useFunc)(gen, equal_1.default)}(${data}, ${schemaCode})`);
        }
        else {
            cxt.fail((0, codegen_1._) `${schema} !== ${data}`);
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=const.js.map

/***/ }),

/***/ 3200:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const equal_1 = __nccwpck_require__(4951);
const error = {
    message: "must be equal to one of the allowed values",
    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValues: ${schemaCode}}`,
};
const def = {
    keyword: "enum",
    schemaType: "array",
    $data: true,
    error,
    code(cxt) {
        const { gen, data, $data, schema, schemaCode, it } = cxt;
        if (!$data && schema.length === 0)
            throw new Error("enum must have non-empty array");
        const useLoop = schema.length >= it.opts.loopEnum;
        let eql;
        const getEql = () => (eql !== null && eql !== void 0 ? eql : (eql = (0, util_1.useFunc)(gen, equal_1.default)));
        let valid;
        if (useLoop || $data) {
            valid = gen.let("valid");
            cxt.block$data(valid, loopEnum);
        }
        else {
            /* istanbul ignore if */
            if (!Array.isArray(schema))
                throw new Error("ajv implementation error");
            const vSchema = gen.const("vSchema", schemaCode);
            valid = (0, codegen_1.or)(...schema.map((_x, i) => equalCode(vSchema, i)));
        }
        cxt.pass(valid);
        function loopEnum() {
            gen.assign(valid, false);
            gen.forOf("v", schemaCode, (v) => gen.if((0, codegen_1._) `${getEql()}(${data}, ${v})`, () => gen.assign(valid, true).break()));
        }
        function equalCode(vSchema, i) {
            const sch = schema[i];
            return typeof sch === "object" && sch !== null
                ? (0, codegen_1._) `${getEql()}(${data}, ${vSchema}[${i}])`
                : (0, codegen_1._) `${data} === ${sch}`;
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=enum.js.map

/***/ }),

/***/ 5481:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const limitNumber_1 = __nccwpck_require__(3723);
const multipleOf_1 = __nccwpck_require__(8132);
const limitLength_1 = __nccwpck_require__(6962);
const pattern_1 = __nccwpck_require__(6023);
const limitProperties_1 = __nccwpck_require__(895);
const required_1 = __nccwpck_require__(4504);
const limitItems_1 = __nccwpck_require__(6296);
const uniqueItems_1 = __nccwpck_require__(5132);
const const_1 = __nccwpck_require__(8026);
const enum_1 = __nccwpck_require__(3200);
const validation = [
    // number
    limitNumber_1.default,
    multipleOf_1.default,
    // string
    limitLength_1.default,
    pattern_1.default,
    // object
    limitProperties_1.default,
    required_1.default,
    // array
    limitItems_1.default,
    uniqueItems_1.default,
    // any
    { keyword: "type", schemaType: ["string", "array"] },
    { keyword: "nullable", schemaType: "boolean" },
    const_1.default,
    enum_1.default,
];
exports["default"] = validation;
//# sourceMappingURL=index.js.map

/***/ }),

/***/ 6296:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const error = {
    message({ keyword, schemaCode }) {
        const comp = keyword === "maxItems" ? "more" : "fewer";
        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} items`;
    },
    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
};
const def = {
    keyword: ["maxItems", "minItems"],
    type: "array",
    schemaType: "number",
    $data: true,
    error,
    code(cxt) {
        const { keyword, data, schemaCode } = cxt;
        const op = keyword === "maxItems" ? codegen_1.operators.GT : codegen_1.operators.LT;
        cxt.fail$data((0, codegen_1._) `${data}.length ${op} ${schemaCode}`);
    },
};
exports["default"] = def;
//# sourceMappingURL=limitItems.js.map

/***/ }),

/***/ 6962:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const ucs2length_1 = __nccwpck_require__(6214);
const error = {
    message({ keyword, schemaCode }) {
        const comp = keyword === "maxLength" ? "more" : "fewer";
        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} characters`;
    },
    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
};
const def = {
    keyword: ["maxLength", "minLength"],
    type: "string",
    schemaType: "number",
    $data: true,
    error,
    code(cxt) {
        const { keyword, data, schemaCode, it } = cxt;
        const op = keyword === "maxLength" ? codegen_1.operators.GT : codegen_1.operators.LT;
        const len = it.opts.unicode === false ? (0, codegen_1._) `${data}.length` : (0, codegen_1._) `${(0, util_1.useFunc)(cxt.gen, ucs2length_1.default)}(${data})`;
        cxt.fail$data((0, codegen_1._) `${len} ${op} ${schemaCode}`);
    },
};
exports["default"] = def;
//# sourceMappingURL=limitLength.js.map

/***/ }),

/***/ 3723:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const ops = codegen_1.operators;
const KWDs = {
    maximum: { okStr: "<=", ok: ops.LTE, fail: ops.GT },
    minimum: { okStr: ">=", ok: ops.GTE, fail: ops.LT },
    exclusiveMaximum: { okStr: "<", ok: ops.LT, fail: ops.GTE },
    exclusiveMinimum: { okStr: ">", ok: ops.GT, fail: ops.LTE },
};
const error = {
    message: ({ keyword, schemaCode }) => (0, codegen_1.str) `must be ${KWDs[keyword].okStr} ${schemaCode}`,
    params: ({ keyword, schemaCode }) => (0, codegen_1._) `{comparison: ${KWDs[keyword].okStr}, limit: ${schemaCode}}`,
};
const def = {
    keyword: Object.keys(KWDs),
    type: "number",
    schemaType: "number",
    $data: true,
    error,
    code(cxt) {
        const { keyword, data, schemaCode } = cxt;
        cxt.fail$data((0, codegen_1._) `${data} ${KWDs[keyword].fail} ${schemaCode} || isNaN(${data})`);
    },
};
exports["default"] = def;
//# sourceMappingURL=limitNumber.js.map

/***/ }),

/***/ 895:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const error = {
    message({ keyword, schemaCode }) {
        const comp = keyword === "maxProperties" ? "more" : "fewer";
        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} properties`;
    },
    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
};
const def = {
    keyword: ["maxProperties", "minProperties"],
    type: "object",
    schemaType: "number",
    $data: true,
    error,
    code(cxt) {
        const { keyword, data, schemaCode } = cxt;
        const op = keyword === "maxProperties" ? codegen_1.operators.GT : codegen_1.operators.LT;
        cxt.fail$data((0, codegen_1._) `Object.keys(${data}).length ${op} ${schemaCode}`);
    },
};
exports["default"] = def;
//# sourceMappingURL=limitProperties.js.map

/***/ }),

/***/ 8132:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const codegen_1 = __nccwpck_require__(1436);
const error = {
    message: ({ schemaCode }) => (0, codegen_1.str) `must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => (0, codegen_1._) `{multipleOf: ${schemaCode}}`,
};
const def = {
    keyword: "multipleOf",
    type: "number",
    schemaType: "number",
    $data: true,
    error,
    code(cxt) {
        const { gen, data, schemaCode, it } = cxt;
        // const bdt = bad$DataType(schemaCode, <string>def.schemaType, $data)
        const prec = it.opts.multipleOfPrecision;
        const res = gen.let("res");
        const invalid = prec
            ? (0, codegen_1._) `Math.abs(Math.round(${res}) - ${res}) > 1e-${prec}`
            : (0, codegen_1._) `${res} !== parseInt(${res})`;
        cxt.fail$data((0, codegen_1._) `(${schemaCode} === 0 || (${res} = ${data}/${schemaCode}, ${invalid}))`);
    },
};
exports["default"] = def;
//# sourceMappingURL=multipleOf.js.map

/***/ }),

/***/ 6023:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const code_1 = __nccwpck_require__(8484);
const util_1 = __nccwpck_require__(4464);
const codegen_1 = __nccwpck_require__(1436);
const error = {
    message: ({ schemaCode }) => (0, codegen_1.str) `must match pattern "${schemaCode}"`,
    params: ({ schemaCode }) => (0, codegen_1._) `{pattern: ${schemaCode}}`,
};
const def = {
    keyword: "pattern",
    type: "string",
    schemaType: "string",
    $data: true,
    error,
    code(cxt) {
        const { gen, data, $data, schema, schemaCode, it } = cxt;
        const u = it.opts.unicodeRegExp ? "u" : "";
        if ($data) {
            const { regExp } = it.opts.code;
            const regExpCode = regExp.code === "new RegExp" ? (0, codegen_1._) `new RegExp` : (0, util_1.useFunc)(gen, regExp);
            const valid = gen.let("valid");
            gen.try(() => gen.assign(valid, (0, codegen_1._) `${regExpCode}(${schemaCode}, ${u}).test(${data})`), () => gen.assign(valid, false));
            cxt.fail$data((0, codegen_1._) `!${valid}`);
        }
        else {
            const regExp = (0, code_1.usePattern)(cxt, schema);
            cxt.fail$data((0, codegen_1._) `!${regExp}.test(${data})`);
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=pattern.js.map

/***/ }),

/***/ 4504:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const code_1 = __nccwpck_require__(8484);
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const error = {
    message: ({ params: { missingProperty } }) => (0, codegen_1.str) `must have required property '${missingProperty}'`,
    params: ({ params: { missingProperty } }) => (0, codegen_1._) `{missingProperty: ${missingProperty}}`,
};
const def = {
    keyword: "required",
    type: "object",
    schemaType: "array",
    $data: true,
    error,
    code(cxt) {
        const { gen, schema, schemaCode, data, $data, it } = cxt;
        const { opts } = it;
        if (!$data && schema.length === 0)
            return;
        const useLoop = schema.length >= opts.loopRequired;
        if (it.allErrors)
            allErrorsMode();
        else
            exitOnErrorMode();
        if (opts.strictRequired) {
            const props = cxt.parentSchema.properties;
            const { definedProperties } = cxt.it;
            for (const requiredKey of schema) {
                if ((props === null || props === void 0 ? void 0 : props[requiredKey]) === undefined && !definedProperties.has(requiredKey)) {
                    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
                    const msg = `required property "${requiredKey}" is not defined at "${schemaPath}" (strictRequired)`;
                    (0, util_1.checkStrictMode)(it, msg, it.opts.strictRequired);
                }
            }
        }
        function allErrorsMode() {
            if (useLoop || $data) {
                cxt.block$data(codegen_1.nil, loopAllRequired);
            }
            else {
                for (const prop of schema) {
                    (0, code_1.checkReportMissingProp)(cxt, prop);
                }
            }
        }
        function exitOnErrorMode() {
            const missing = gen.let("missing");
            if (useLoop || $data) {
                const valid = gen.let("valid", true);
                cxt.block$data(valid, () => loopUntilMissing(missing, valid));
                cxt.ok(valid);
            }
            else {
                gen.if((0, code_1.checkMissingProp)(cxt, schema, missing));
                (0, code_1.reportMissingProp)(cxt, missing);
                gen.else();
            }
        }
        function loopAllRequired() {
            gen.forOf("prop", schemaCode, (prop) => {
                cxt.setParams({ missingProperty: prop });
                gen.if((0, code_1.noPropertyInData)(gen, data, prop, opts.ownProperties), () => cxt.error());
            });
        }
        function loopUntilMissing(missing, valid) {
            cxt.setParams({ missingProperty: missing });
            gen.forOf(missing, schemaCode, () => {
                gen.assign(valid, (0, code_1.propertyInData)(gen, data, missing, opts.ownProperties));
                gen.if((0, codegen_1.not)(valid), () => {
                    cxt.error();
                    gen.break();
                });
            }, codegen_1.nil);
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=required.js.map

/***/ }),

/***/ 5132:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
const dataType_1 = __nccwpck_require__(6685);
const codegen_1 = __nccwpck_require__(1436);
const util_1 = __nccwpck_require__(4464);
const equal_1 = __nccwpck_require__(4951);
const error = {
    message: ({ params: { i, j } }) => (0, codegen_1.str) `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => (0, codegen_1._) `{i: ${i}, j: ${j}}`,
};
const def = {
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    $data: true,
    error,
    code(cxt) {
        const { gen, data, $data, schema, parentSchema, schemaCode, it } = cxt;
        if (!$data && !schema)
            return;
        const valid = gen.let("valid");
        const itemTypes = parentSchema.items ? (0, dataType_1.getSchemaTypes)(parentSchema.items) : [];
        cxt.block$data(valid, validateUniqueItems, (0, codegen_1._) `${schemaCode} === false`);
        cxt.ok(valid);
        function validateUniqueItems() {
            const i = gen.let("i", (0, codegen_1._) `${data}.length`);
            const j = gen.let("j");
            cxt.setParams({ i, j });
            gen.assign(valid, true);
            gen.if((0, codegen_1._) `${i} > 1`, () => (canOptimize() ? loopN : loopN2)(i, j));
        }
        function canOptimize() {
            return itemTypes.length > 0 && !itemTypes.some((t) => t === "object" || t === "array");
        }
        function loopN(i, j) {
            const item = gen.name("item");
            const wrongType = (0, dataType_1.checkDataTypes)(itemTypes, item, it.opts.strictNumbers, dataType_1.DataType.Wrong);
            const indices = gen.const("indices", (0, codegen_1._) `{}`);
            gen.for((0, codegen_1._) `;${i}--;`, () => {
                gen.let(item, (0, codegen_1._) `${data}[${i}]`);
                gen.if(wrongType, (0, codegen_1._) `continue`);
                if (itemTypes.length > 1)
                    gen.if((0, codegen_1._) `typeof ${item} == "string"`, (0, codegen_1._) `${item} += "_"`);
                gen
                    .if((0, codegen_1._) `typeof ${indices}[${item}] == "number"`, () => {
                    gen.assign(j, (0, codegen_1._) `${indices}[${item}]`);
                    cxt.error();
                    gen.assign(valid, false).break();
                })
                    .code((0, codegen_1._) `${indices}[${item}] = ${i}`);
            });
        }
        function loopN2(i, j) {
            const eql = (0, util_1.useFunc)(gen, equal_1.default);
            const outer = gen.name("outer");
            gen.label(outer).for((0, codegen_1._) `;${i}--;`, () => gen.for((0, codegen_1._) `${j} = ${i}; ${j}--;`, () => gen.if((0, codegen_1._) `${eql}(${data}[${i}], ${data}[${j}])`, () => {
                cxt.error();
                gen.assign(valid, false).break(outer);
            })));
        }
    },
};
exports["default"] = def;
//# sourceMappingURL=uniqueItems.js.map

/***/ }),

/***/ 3430:
/***/ ((module) => {



// do not edit .js files directly - edit src/index.jst



module.exports = function equal(a, b) {
  if (a === b) return true;

  if (a && b && typeof a == 'object' && typeof b == 'object') {
    if (a.constructor !== b.constructor) return false;

    var length, i, keys;
    if (Array.isArray(a)) {
      length = a.length;
      if (length != b.length) return false;
      for (i = length; i-- !== 0;)
        if (!equal(a[i], b[i])) return false;
      return true;
    }



    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();

    keys = Object.keys(a);
    length = keys.length;
    if (length !== Object.keys(b).length) return false;

    for (i = length; i-- !== 0;)
      if (!Object.prototype.hasOwnProperty.call(b, keys[i])) return false;

    for (i = length; i-- !== 0;) {
      var key = keys[i];

      if (!equal(a[key], b[key])) return false;
    }

    return true;
  }

  // true if both NaN, false otherwise
  return a!==a && b!==b;
};


/***/ }),

/***/ 1167:
/***/ ((module) => {



var traverse = module.exports = function (schema, opts, cb) {
  // Legacy support for v0.3.1 and earlier.
  if (typeof opts == 'function') {
    cb = opts;
    opts = {};
  }

  cb = opts.cb || cb;
  var pre = (typeof cb == 'function') ? cb : cb.pre || function() {};
  var post = cb.post || function() {};

  _traverse(opts, pre, post, schema, '', schema);
};


traverse.keywords = {
  additionalItems: true,
  items: true,
  contains: true,
  additionalProperties: true,
  propertyNames: true,
  not: true,
  if: true,
  then: true,
  else: true
};

traverse.arrayKeywords = {
  items: true,
  allOf: true,
  anyOf: true,
  oneOf: true
};

traverse.propsKeywords = {
  $defs: true,
  definitions: true,
  properties: true,
  patternProperties: true,
  dependencies: true
};

traverse.skipKeywords = {
  default: true,
  enum: true,
  const: true,
  required: true,
  maximum: true,
  minimum: true,
  exclusiveMaximum: true,
  exclusiveMinimum: true,
  multipleOf: true,
  maxLength: true,
  minLength: true,
  pattern: true,
  format: true,
  maxItems: true,
  minItems: true,
  uniqueItems: true,
  maxProperties: true,
  minProperties: true
};


function _traverse(opts, pre, post, schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex) {
  if (schema && typeof schema == 'object' && !Array.isArray(schema)) {
    pre(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
    for (var key in schema) {
      var sch = schema[key];
      if (Array.isArray(sch)) {
        if (key in traverse.arrayKeywords) {
          for (var i=0; i<sch.length; i++)
            _traverse(opts, pre, post, sch[i], jsonPtr + '/' + key + '/' + i, rootSchema, jsonPtr, key, schema, i);
        }
      } else if (key in traverse.propsKeywords) {
        if (sch && typeof sch == 'object') {
          for (var prop in sch)
            _traverse(opts, pre, post, sch[prop], jsonPtr + '/' + key + '/' + escapeJsonPtr(prop), rootSchema, jsonPtr, key, schema, prop);
        }
      } else if (key in traverse.keywords || (opts.allKeys && !(key in traverse.skipKeywords))) {
        _traverse(opts, pre, post, sch, jsonPtr + '/' + key, rootSchema, jsonPtr, key, schema);
      }
    }
    post(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
  }
}


function escapeJsonPtr(str) {
  return str.replace(/~/g, '~0').replace(/\//g, '~1');
}


/***/ }),

/***/ 8279:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   _n: () => (/* binding */ evaluateLogFile),
/* harmony export */   pO: () => (/* binding */ readVerifiedEnvelope)
/* harmony export */ });
/* unused harmony exports readEnvelopeFile, defaultDigestPath */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);
/* harmony import */ var _core_envelope_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8447);
/* harmony import */ var _core_log_reader_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3477);
/**
 * Reads the gate's inputs from the local filesystem, turning every failure into its own typed
 * code. The only place the check pipeline touches files.
 */




async function readBytes(path, missing, unreadable, what, hint) {
    try {
        return await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path);
    }
    catch (err) {
        const code = (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err);
        if (code === "ENOENT" || code === "ENOTDIR") {
            throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_(missing, `${what} ${path} does not exist`, { file: path, hint, cause: err });
        }
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_(unreadable, `${what} ${path} cannot be read (${code ?? String(err)})`, {
            file: path,
            hint: "Check the path and its permissions.",
            cause: err,
        });
    }
}
const ENVELOPE_HINT = "Commit an envelope.json (see examples/envelope.json) and point --envelope at it.";
async function readEnvelopeFile(path) {
    return loadEnvelope(await readBytes(path, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT), path);
}
function defaultDigestPath(envelopePath) {
    return `${envelopePath}.sha256`;
}
/** Checks the pinned digest against the raw bytes, then loads the envelope. */
async function readVerifiedEnvelope(envelopePath, digestPath = defaultDigestPath(envelopePath)) {
    const bytes = await readBytes(envelopePath, "ENVELOPE_MISSING", "ENVELOPE_UNREADABLE", "envelope", ENVELOPE_HINT);
    const digest = await readBytes(digestPath, "ENVELOPE_DIGEST_MISSING", "ENVELOPE_DIGEST_UNREADABLE", "envelope digest", `Pin the envelope: envelope-gate hash ${envelopePath} > ${digestPath}, reviewed and committed with it.`);
    (0,_core_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .verifyDigest */ .Ub)(bytes, envelopePath, digest.toString("utf8"), digestPath);
    return (0,_core_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .loadEnvelope */ .BC)(bytes, envelopePath);
}
const CHUNK = 1 << 20;
/**
 * Streams the observer log through the evaluator in fixed-size chunks. Two buffers take turns:
 * the next chunk is read on the thread pool while this thread judges the one before it.
 */
async function evaluateLogFile(envelope, logPath, options, chunkSize = CHUNK) {
    let handle;
    try {
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.open)(logPath, "r");
    }
    catch (err) {
        throw (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .logOpenError */ .NU)(err, logPath, "Record one with `envelope-gate run`; a missing log is never read as a clean run.");
    }
    const evaluator = new _core_log_reader_js__WEBPACK_IMPORTED_MODULE_3__/* .LogEvaluator */ .IC(envelope, { ...options, file: logPath });
    let current = Buffer.allocUnsafe(chunkSize);
    let next = Buffer.allocUnsafe(chunkSize);
    const read = (buffer) => handle.read(buffer, 0, chunkSize, null).then(({ bytesRead }) => bytesRead, (err) => {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_UNREADABLE", `observer log ${logPath} cannot be read (${(0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err) ?? String(err)})`, {
            file: logPath,
            cause: err,
        });
    });
    let pending = null;
    try {
        pending = read(current);
        for (;;) {
            const bytesRead = await pending;
            pending = null;
            if (bytesRead === 0)
                break;
            // Reads with a null position follow one another, so this one starts where the last ended.
            pending = read(next);
            evaluator.push(current.subarray(0, bytesRead));
            [current, next] = [next, current];
        }
    }
    finally {
        // A read still in flight when the evaluator threw: wait for it before closing the handle.
        if (pending !== null)
            await pending.catch(() => 0);
        await handle.close();
    }
    return evaluator.finish();
}


/***/ }),

/***/ 9066:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B: () => (/* binding */ ENVELOPE_LOG_OPTIONS),
/* harmony export */   a: () => (/* binding */ RUN_ONLY_OPTIONS)
/* harmony export */ });
/** The flags every command that reads an envelope and an observer log takes (`check`, `run`). */
const ENVELOPE_LOG_OPTIONS = {
    envelope: { type: "string" },
    sha256: { type: "string" },
    observer: { type: "string" },
    workspace: { type: "string" },
    scratch: { type: "string" },
};
/** The flags only `run` takes. */
const RUN_ONLY_OPTIONS = {
    "node-only": { type: "boolean", default: false },
    "keep-scratch": { type: "boolean", default: false },
    audit: { type: "boolean", default: false },
    recorder: { type: "string" },
};


/***/ }),

/***/ 8403:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ writeStdout),
/* harmony export */   n: () => (/* binding */ outputUnwritable)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);


/** Where standard output goes, for a message: the file it is redirected to where Linux says. */
function stdoutTarget() {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readlinkSync)("/proc/self/fd/1");
    }
    catch {
        return "standard output";
    }
}
/** The typed error for a file envelope-gate writes (not the observer log, not the evidence bundle). */
function outputUnwritable(file, what, err) {
    const reason = (0,_core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .errnoOf */ .UQ)(err) ?? String(err);
    const full = reason === "ENOSPC" || reason === "EDQUOT";
    return new _core_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OUTPUT_UNWRITABLE", `cannot write ${what} to ${file} (${reason})`, {
        file,
        hint: full
            ? "The filesystem it goes to is full (or its quota is): free space there, or write it elsewhere, and run again."
            : "Check that the destination can be written, and run again.",
        cause: err,
    });
}
/**
 * Writes to standard output and waits until it is written. A refused write (a full disk, a
 * closed pipe) is OUTPUT_UNWRITABLE: the verdict did not reach its reader, so the command exits 3.
 */
function writeStdout(text, what) {
    return new Promise((resolvePromise, reject) => {
        // The stream reports a failed write twice, to the callback and as an "error" event: both reject.
        const refuse = (err) => reject(outputUnwritable(stdoutTarget(), what, err));
        process.stdout.on("error", refuse);
        process.stdout.write(text, (err) => {
            if (err)
                refuse(err);
            else
                resolvePromise();
        });
    });
}


/***/ }),

/***/ 486:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _core_verdict_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9478);
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8977);


// Where even the error report cannot be written, the exit status is what is left to say so
// (an unhandled stream error would exit 1, which reads as violations).
process.stderr.on("error", () => {
    process.exitCode = _core_verdict_js__WEBPACK_IMPORTED_MODULE_0__/* .EXIT_CODES */ .ai.error;
});
process.exitCode = await (0,_main_js__WEBPACK_IMPORTED_MODULE_1__/* .main */ .iW)(process.argv.slice(2));

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 8977:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  iW: () => (/* binding */ main)
});

// UNUSED EXPORTS: COMMAND_HELP, UsageError, parseCommandLine

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __nccwpck_require__(4296);
// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __nccwpck_require__(8447);
// EXTERNAL MODULE: ./src/core/markdown.ts
var markdown = __nccwpck_require__(6706);
// EXTERNAL MODULE: ./src/core/verdict.ts
var core_verdict = __nccwpck_require__(9478);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: ./src/check/files.ts
var files = __nccwpck_require__(8279);
;// CONCATENATED MODULE: ./src/check/check.ts





const VERDICT_WORD = { pass: "PASS", envelope_fail: "FAIL", error: "ERROR" };
/**
 * The verdict line of a judged log (`envelope-gate: PASS (pass): no violations in 23 events`).
 * A command that exited non-zero, or was killed, says so on the same line: a PASS judges what the
 * run touched, never whether its command worked. The exit code of `check` does not change with it.
 */
function verdictLine(report) {
    const n = report.violations.length;
    const summary = report.verdict === "pass"
        ? `no violations in ${report.events} events`
        : `${n} distinct violation${n === 1 ? "" : "s"} in ${report.events} events`;
    const exit = report.log?.exit_code;
    const command = report.log === null
        ? ""
        : exit === null
            ? "; the command did not exit (killed by a signal)"
            : exit !== 0
                ? `; the command exited ${String(exit)}`
                : "";
    return `envelope-gate: ${VERDICT_WORD[report.verdict]} (${report.verdict}): ${summary}${command}`;
}

/** Verify the pinned envelope, then judge the log against it. Never throws; errors become the `error` verdict. */
async function runCheck(settings) {
    let envelope = null;
    try {
        envelope = await (0,files/* readVerifiedEnvelope */.pO)(settings.envelopePath, settings.digestPath);
        const loaded = envelope;
        // The roots come from the meta line as the one reader reads it: a log without one is refused
        // by the reader, for its own reason, before any root is named.
        const roots = (meta) => (0,core_envelope/* expandRoots */.oY)(loaded, {
            workspace: settled("workspace", settings.workspace, recordedRoot(meta, "workspace"), settings.logPath),
            scratch: settled("scratch", settings.scratch, recordedRoot(meta, "scratch"), settings.logPath),
        });
        const verdict = await (0,files/* evaluateLogFile */._n)(envelope, settings.logPath, { roots });
        return { report: (0,core_verdict/* reportFromVerdict */.MV)(verdict), envelope };
    }
    catch (err) {
        return { report: (0,core_verdict/* reportFromError */.dd)(err, envelope), envelope };
    }
}
/** The workspace or scratch the log's run recorded in its meta line, where it has one. */
function recordedRoot(meta, name) {
    const value = meta[name];
    return typeof value === "string" && value !== "" ? value : undefined;
}
/** The same directory, by its real path where it still exists (a run records real paths). */
function sameDirectory(given, recorded) {
    if ((0,external_node_path_.resolve)(given) === recorded)
        return true;
    try {
        return (0,external_node_fs_.realpathSync)(given) === recorded;
    }
    catch {
        return false;
    }
}
/** A root as given, or as the log recorded it; given and recorded differently is a refusal. */
function settled(name, given, recorded, logPath) {
    if (given === undefined)
        return recorded;
    if (recorded === undefined)
        return given;
    if (sameDirectory(given, recorded))
        return recorded;
    throw new errors/* Refusal */.P_("CHECK_OPTIONS_CONFLICT", `--${name} ${given} differs from the ${name} the log's run recorded (${recorded})`, {
        file: logPath,
        line: 1,
        hint: `Leave out --${name}: check reads it from the log's meta line. A log is judged against the roots its run had.`,
    });
}

// EXTERNAL MODULE: ./src/check/options.ts
var options = __nccwpck_require__(9066);
// EXTERNAL MODULE: ./src/core/log-reader.ts
var log_reader = __nccwpck_require__(3477);
// EXTERNAL MODULE: ./src/check/output.ts
var output = __nccwpck_require__(8403);
;// CONCATENATED MODULE: ./src/check/result.ts
/**
 * The result file: how `run` and `check` tell the program that started them how they ended, as
 * typed JSON, when it asks for one through ENVELOPE_GATE_RESULT_FILE (internal: the Action asks,
 * src/action/cli-result.ts reads it; docs/action.md). Written once, at the end, whole (a temporary
 * file renamed into place). What the commands print on stdout and stderr is the same with it or without.
 */




/** The variable naming the result file (read, then removed from the environment, by the CLI). */
const RESULT_FILE_ENV = "ENVELOPE_GATE_RESULT_FILE";
const CLI_RESULT_VERSION = 1;
/** The result file asked for, taken out of the environment so nothing the command starts inherits it. */
function takeResultFileRequest(env = process.env) {
    const file = env[RESULT_FILE_ENV];
    delete env[RESULT_FILE_ENV];
    return file === undefined || file === "" ? null : (0,external_node_path_.resolve)(file);
}
/** The log file at `path` as it stands: its size, or null when there is no file there. */
function logOnDisk(path) {
    if (path === undefined)
        return null;
    const full = (0,external_node_path_.resolve)(path);
    try {
        const st = (0,external_node_fs_.statSync)(full);
        return st.isFile() ? { path: full, bytes: st.size } : null;
    }
    catch {
        return null;
    }
}
/** How much of the log's end is read for its end line; an end line is far shorter. */
const END_SUFFIX_BYTES = 64 * 1024;
/** The events between meta and end, from the log's end line (its `events` counts meta too); null without one. */
function logEndEvents(path) {
    let text;
    try {
        const fd = (0,external_node_fs_.openSync)(path, "r");
        try {
            const size = (0,external_node_fs_.fstatSync)(fd).size;
            const length = Math.min(size, END_SUFFIX_BYTES);
            const buffer = Buffer.alloc(length);
            const n = (0,external_node_fs_.readSync)(fd, buffer, 0, length, size - length);
            text = buffer.subarray(0, n).toString("utf8");
        }
        finally {
            (0,external_node_fs_.closeSync)(fd);
        }
    }
    catch {
        return null;
    }
    const lines = text.split("\n");
    const last = lines.at(-1) === "" ? lines.at(-2) : undefined;
    if (last === undefined)
        return null;
    return (0,log_reader/* endLineEvents */.fj)(last);
}
/** Writes the result whole: a temporary file beside it, renamed into place. A failure is OUTPUT_UNWRITABLE. */
function writeCliResult(file, result) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
        (0,external_node_fs_.writeFileSync)(temporary, JSON.stringify(result) + "\n", { mode: 0o600, flag: "wx" });
        (0,external_node_fs_.renameSync)(temporary, file);
    }
    catch (err) {
        (0,external_node_fs_.rmSync)(temporary, { force: true });
        throw (0,output/* outputUnwritable */.n)(file, "the result file", err);
    }
}

// EXTERNAL MODULE: ./src/core/rules.ts
var rules = __nccwpck_require__(1688);
;// CONCATENATED MODULE: ./src/cli/format.ts



/** Text for a person: verdict first, one line per distinct violation, then the envelope. */
function formatReportText(report) {
    const out = [];
    if (report.verdict === "error" && report.error) {
        out.push(`envelope-gate: ERROR ${report.error.code} (could not evaluate; this is not a pass)`);
        const where = report.error.file ? `${report.error.file}${report.error.line ? `:${report.error.line}` : ""}` : undefined;
        out.push(`  ${report.error.message}`);
        if (where && !report.error.message.startsWith(where))
            out.push(`  at ${where}`);
        if (report.error.hint)
            out.push(`  what to do: ${report.error.hint}`);
    }
    else {
        out.push(verdictLine(report));
        // An id holds what the run chose (a key, a path): escape sequences, carriage returns and bidi
        // characters are shown as \u{XXXX}, so one id cannot erase or reorder the line of another.
        const ids = report.violations.map((v) => (0,markdown/* plainText */.wh)(v.id));
        const width = Math.min(80, Math.max(0, ...ids.map((id) => id.length)));
        report.violations.forEach((v, i) => {
            out.push(`  ${ids[i].padEnd(width)}  first at line ${v.first_line}, ${v.count} time${v.count === 1 ? "" : "s"}`);
        });
        // No envelope allows a container engine: what to do instead, once.
        if (report.violations.some((v) => v.rule === "docker_refused"))
            out.push(`  what to do (docker_refused): ${rules/* DOCKER_HINT */.ph}`);
    }
    if (report.envelope_id !== null)
        out.push(`envelope: ${report.envelope_id} ${report.envelope_hash ?? ""}`.trimEnd());
    if (report.log) {
        out.push(`run: ${report.log.run_id} on ${report.log.runner}, exit code ${report.log.exit_code ?? "none (signal)"}`);
        // What watched the run, always: a reviewer must see a partial observation without asking.
        const observers = Array.isArray(report.log.observers) ? report.log.observers.join(" + ") : "unknown";
        const network = report.log.network_enforced === true ? "enforced" : report.log.network_enforced === false ? "not enforced" : "unknown";
        out.push(`observed by: ${observers}; network: ${network}; jail: ${report.log.jail !== null ? "yes" : "none recorded"}`);
        const viaSets = report.log.via_sets ?? [];
        if (viaSets.length > 0)
            out.push(`allowed through host sets: ${viaSets.map((h) => `${h.host} (via ${h.set})`).join(", ")}`);
        if (report.log.audit) {
            out.push("recorded in audit mode (run --audit): every host was let out through the recording proxy; judged against the envelope like any other log");
        }
    }
    return out.join("\n") + "\n";
}

// EXTERNAL MODULE: ./src/core/version.ts
var version = __nccwpck_require__(3323);
;// CONCATENATED MODULE: ./src/cli/main.ts
/** The command line: one call of `main` per invocation; src/cli/index.ts is the program that calls it. */














const USAGE = `${version/* PRODUCT */.A}
usage:
  envelope-gate hash <envelope.json>
  envelope-gate verify --envelope E [--sha256 F]
  envelope-gate check  --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  envelope-gate run    --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
  envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  envelope-gate app    [start | pause --reason TEXT | resume | status | promote --installation N | demote --installation N | manifest --url URL | setup --name NAME --webhook-url URL]
  envelope-gate app --help     the App's commands and every setting with its default (also: app <command> --help)
  envelope-gate --version      prints "${version/* PRODUCT */.A}" (also: -V, version)

exit status: 0 pass, 1 violations, 2 usage, 3 could not evaluate
every command answers --help (or -h) with its own usage`;
/** Each subcommand's usage, printed on stdout with exit 0 for `<command> --help` or `-h`. */
const COMMAND_HELP = {
    hash: `usage: envelope-gate hash <envelope.json>
  Prints the envelope's digest line (sha256sum's format), for envelope.json.sha256.
  A file that is not a valid envelope still gets its digest (exit 0), with a warning on stderr
  naming the problem (ENVELOPE_INVALID), which verify and check would refuse it for.`,
    verify: `usage: envelope-gate verify --envelope E [--sha256 F]
  Checks the envelope against its pinned digest (F, default E.sha256) and its schema.`,
    check: `usage: envelope-gate check --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  Judges the observer log L against the pinned envelope E.
  --workspace, --scratch  default: the ones the log's run recorded (its meta line); given and
                          different from those, check refuses (CHECK_OPTIONS_CONFLICT)
  --format                text (default) or json (the contract's report)
  exit status: 0 pass, 1 violations, 3 could not evaluate`,
    run: `usage: envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  Runs CMD jailed and observed under the pinned envelope E, writing the log L.
  --workspace DIR   default: the current directory
  --scratch DIR     default: a fresh directory $TMPDIR/envelope-gate/<run id> (/tmp when TMPDIR
                    is unset), removed after the run unless --keep-scratch (a scratch you give
                    is never removed); the command sees it at its own path, writable when
                    allowed_roots lists \${SCRATCH}
  --node-only       record with the Node hooks only (no process observer)
  --audit           jailed and recorded as usual, but every host is let out through the
                    recording egress proxy (HTTP_PROXY and the other proxy keys are set);
                    meta says "audit": true, and check judges the log like any other
  --recorder R      the process recorder: auto (default; the eBPF recorder when it can start,
                    else strace, said on stderr), ebpf (refuses when it cannot start: needs
                    root or passwordless sudo), strace. Default from ENVELOPE_GATE_RECORDER
  On stderr it says when the jail is up and the command has started ("the jail is up, running
  CMD (recorder: R)"), then, after the command, which of your environment keys the command did
  not get, and ends with one line: the log, the number of events, and the check to run next. On a
  terminal it shows the events so far while the command runs.
  exit status: the command's, or 3 if the run could not be observed`,
    suggest: `usage: envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
       envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  Proposes the envelope the recorded runs needed (from E, or from nothing), on stdout or into OUT.
  Each entry says what it covers, how often it was seen, where first, and the program that read,
  wrote, called, reached or started it. When a run's command failed, the withheld keys a non-Node
  program of it may have needed (python: PYTHONPATH, go: GOCACHE, any: HOME, ...) are proposed
  apart, marked unobserved: such programs' reads cannot be seen. Never proposed, listed apart with
  why (- lines): a key that names a credential or carries one (GIT_ASKPASS, GIT_CONFIG_*, *_LOGIN),
  names the machine or the run (RUNNER_NAME, HOSTNAME, GITHUB_RUN_ID), controls a program
  (NODE_OPTIONS, LD_*, GIT_SSH_COMMAND) or is not printable ASCII; a family covering such a key; a
  root under the system's directories (/usr, /etc, /opt, /lib*, /var/lib), the tool cache or another
  program's install directory, or one the jail refused in a run that exited 0.
  --run           first records one run of CMD under E (as run does: its stderr lines, the withheld
                  keys and the log/events/exit line, come first), then suggests from its log, from E
  --keep-scratch  with --run: keep the scratch the run chose (by default it is removed after the
                  run, as run does; a scratch you give is never removed)
  --audit         with --run: record the run as run --audit does (every host let out through the
                  recording proxy, meta says "audit": true), then suggest from that log`,
};
/** Whether the command's own arguments (before any `--`) ask for its usage. */
function wantsHelp(args) {
    const dashes = args.indexOf("--");
    const own = dashes === -1 ? args : args.slice(0, dashes);
    return own.includes("--help") || own.includes("-h");
}
/** A command line the CLI does not accept: exit status 2 with the usage. */
class UsageError extends Error {
}
function usage(message) {
    throw new UsageError(message);
}
function absolute(path) {
    return path === undefined ? undefined : (0,external_node_path_.resolve)(path);
}
function parseHash(args) {
    if (args.length !== 1)
        usage("hash takes exactly one envelope file");
    return args[0];
}
async function hash(args) {
    const file = parseHash(args);
    let bytes;
    try {
        bytes = await (0,promises_.readFile)(file);
    }
    catch (err) {
        const code = (0,errors/* errnoOf */.UQ)(err) === "ENOENT" ? "ENVELOPE_MISSING" : "ENVELOPE_UNREADABLE";
        throw new errors/* Refusal */.P_(code, `envelope ${file} cannot be read (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, { file });
    }
    await (0,output/* writeStdout */.j)((0,core_envelope/* formatDigestLine */.sv)(bytes, (0,external_node_path_.basename)(file)), "the digest line");
    warnIfNotAnEnvelope(bytes, file);
    return core_verdict/* EXIT_CODES */.ai.pass;
}
/**
 * hash digests bytes, so it still prints the digest of a file that is no valid envelope (one being
 * drafted), but says on stderr what `verify` and `check` will refuse it for. Exit status unchanged.
 */
function warnIfNotAnEnvelope(bytes, file) {
    try {
        (0,core_envelope/* loadEnvelope */.BC)(bytes, file);
    }
    catch (err) {
        if (!(err instanceof errors/* Refusal */.P_) || err.code !== "ENVELOPE_INVALID")
            throw err;
        const lines = [`envelope-gate: warning: ${file} is not a valid envelope (ENVELOPE_INVALID): ${err.message}`];
        if (err.hint !== undefined)
            lines.push(`  what to do: ${err.hint}`);
        process.stderr.write(lines.map((l) => (0,markdown/* plainText */.wh)(l)).join("\n") + "\n");
    }
}
function parseVerify(args) {
    const { values } = (0,external_node_util_.parseArgs)({
        args,
        options: { envelope: { type: "string" }, sha256: { type: "string" } },
        strict: true,
        allowPositionals: false,
    });
    if (!values.envelope)
        usage("verify needs --envelope");
    return { envelope: values.envelope, sha256: values.sha256 };
}
async function verify(args) {
    const values = parseVerify(args);
    const loaded = await (0,files/* readVerifiedEnvelope */.pO)(values.envelope, values.sha256);
    await (0,output/* writeStdout */.j)(`envelope-gate: OK ${loaded.envelope.envelope_id} ${loaded.hash}\n`, "the verification");
    return core_verdict/* EXIT_CODES */.ai.pass;
}
function parseCheck(args, said) {
    const { values } = (0,external_node_util_.parseArgs)({
        args,
        options: { ...options/* ENVELOPE_LOG_OPTIONS */.B, format: { type: "string", default: "text" } },
        strict: true,
        allowPositionals: false,
    });
    said.observer = values.observer;
    if (!values.envelope)
        usage("check needs --envelope");
    if (!values.observer)
        usage("check needs --observer");
    if (values.format !== "text" && values.format !== "json")
        usage("--format is text or json");
    return { ...values, envelope: values.envelope, observer: values.observer };
}
async function check(args, said) {
    const values = parseCheck(args, said);
    const { report } = await runCheck({
        envelopePath: values.envelope,
        digestPath: values.sha256,
        logPath: values.observer,
        workspace: absolute(values.workspace),
        scratch: absolute(values.scratch),
    });
    said.report = report;
    await (0,output/* writeStdout */.j)(values.format === "json" ? JSON.stringify({ ...report, envelope_gate_version: version/* VERSION */.x }) + "\n" : formatReportText(report), "the check report");
    return (0,core_verdict/* exitCodeFor */.Rr)(report.verdict);
}
async function run(args, said) {
    const { runCommand } = await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376));
    return runCommand(args, usage, (observer) => {
        said.observer = observer;
    });
}
/** suggest's flags, and with --run the run it records first (run's, with `--audit` meaning what it means there). */
async function parseSuggest(args) {
    const dashes = args.indexOf("--");
    const own = dashes === -1 ? args : args.slice(0, dashes);
    const command = dashes === -1 ? [] : args.slice(dashes + 1);
    const { values } = (0,external_node_util_.parseArgs)({
        args: own,
        options: {
            observer: { type: "string", multiple: true },
            from: { type: "string" },
            sha256: { type: "string" },
            write: { type: "string" },
            run: { type: "boolean", default: false },
            envelope: { type: "string" },
            workspace: { type: "string" },
            scratch: { type: "string" },
            "keep-scratch": options/* RUN_ONLY_OPTIONS */.a["keep-scratch"],
            audit: options/* RUN_ONLY_OPTIONS */.a.audit,
        },
        strict: true,
        allowPositionals: false,
    });
    const logs = values.observer ?? [];
    let recorded = null;
    if (values.run === true) {
        if (!values.envelope || logs.length !== 1 || command.length === 0)
            usage("suggest --run needs --envelope E, one --observer L and -- CMD [ARGS...]");
        recorded = {
            envelope: values.envelope,
            sha256: values.sha256,
            observer: logs[0],
            workspace: values.workspace,
            scratch: values.scratch,
            nodeOnly: false,
            audit: values.audit === true,
            keepScratch: values["keep-scratch"] === true,
            command,
            next: false,
        };
    }
    else if (command.length > 0 || values.envelope !== undefined || values["keep-scratch"] === true || values.audit === true) {
        usage("suggest takes -- CMD, --envelope, --keep-scratch and --audit only with --run");
    }
    if (logs.length === 0)
        usage("suggest needs at least one --observer log");
    return { ...values, logs, recorded };
}
async function suggest(args) {
    // The --run form records one run first (under --envelope, which it then widens), then suggests.
    const values = await parseSuggest(args);
    let from = values.from;
    if (values.recorded !== null) {
        // run's own closing lines (withheld keys; log, events, exit) come first, and a scratch the
        // run chose is removed unless --keep-scratch: the log keeps what suggest reads.
        const { runAndReport } = await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376));
        await runAndReport(values.recorded);
        from = values.recorded.envelope;
    }
    const { suggestCommand } = await Promise.all(/* import() */[__nccwpck_require__.e(85), __nccwpck_require__.e(138)]).then(__nccwpck_require__.bind(__nccwpck_require__, 8138));
    await (0,output/* writeStdout */.j)(await suggestCommand({
        logs: values.logs,
        from,
        fromDigest: values.sha256,
        write: values.write,
        workspace: values.workspace,
        scratch: values.scratch,
    }), "the suggestion");
    return core_verdict/* EXIT_CODES */.ai.pass;
}
async function app(args) {
    const { appCommand } = await Promise.all(/* import() */[__nccwpck_require__.e(2), __nccwpck_require__.e(85), __nccwpck_require__.e(820)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2820));
    return appCommand(args, usage);
}
const COMMANDS = { hash, verify, check, run, suggest, app };
/** Each command's parser: what the command itself parses its arguments with, here run alone. */
const PARSERS = {
    hash: async (args) => parseHash(args),
    verify: async (args) => parseVerify(args),
    check: async (args) => parseCheck(args, {}),
    run: async (args) => (await __nccwpck_require__.e(/* import() */ 376).then(__nccwpck_require__.bind(__nccwpck_require__, 1376))).parseRunArgs(args, usage),
    suggest: parseSuggest,
    app: async (args) => (await Promise.all(/* import() */[__nccwpck_require__.e(2), __nccwpck_require__.e(85), __nccwpck_require__.e(820)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2820))).parseAppArgs(args, usage),
};
/**
 * Whether the CLI accepts a command line (`argv` without the program), running nothing and reading
 * no file: resolves with the command's name, or rejects with a UsageError or parseArgs's
 * ERR_PARSE_ARGS_* error, exactly where main would exit 2. The docs' command lines are held to it.
 */
async function parseCommandLine(argv) {
    const [name, ...rest] = argv;
    if (name === undefined || name === "--help" || name === "-h" || name === "help")
        return "help";
    const parse = PARSERS[name];
    if (parse === undefined)
        usage(`unknown command "${name}"`);
    if (COMMAND_HELP[name] !== undefined && wantsHelp(rest))
        return name;
    await parse(rest);
    return name;
}
async function main(argv) {
    // Asked for by the Action (internal, docs/action.md): taken out of the environment before anything runs.
    const resultFile = takeResultFileRequest();
    const [name, ...rest] = argv;
    if (name === "--version" || name === "-V" || name === "version") {
        process.stdout.write(`${version/* PRODUCT */.A}\n`);
        return core_verdict/* EXIT_CODES */.ai.pass;
    }
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
        process.stdout.write(USAGE + "\n");
        return name === undefined ? core_verdict/* EXIT_CODES */.ai.usage : core_verdict/* EXIT_CODES */.ai.pass;
    }
    const command = COMMANDS[name];
    const help = COMMAND_HELP[name];
    if (help !== undefined && wantsHelp(rest)) {
        process.stdout.write(help + "\n");
        return core_verdict/* EXIT_CODES */.ai.pass;
    }
    const said = {};
    let ended;
    try {
        if (!command)
            usage(`unknown command "${name}"`);
        ended = { exitStatus: await command(rest, said), outcome: "completed", error: null };
    }
    catch (err) {
        if (err instanceof UsageError || (0,errors/* errnoOf */.UQ)(err)?.startsWith("ERR_PARSE_ARGS")) {
            process.stderr.write(`envelope-gate: ${err.message}\n${USAGE}\n`);
            ended = { exitStatus: core_verdict/* EXIT_CODES */.ai.usage, outcome: "usage", error: null };
        }
        else {
            const report = (0,core_verdict/* reportFromError */.dd)(err, null);
            process.stderr.write(formatReportText(report));
            ended = { exitStatus: core_verdict/* EXIT_CODES */.ai.error, outcome: "refused", error: report.error };
        }
    }
    if (resultFile !== null && (name === "run" || name === "check"))
        return reportResult(resultFile, name, said, ended);
    return ended.exitStatus;
}
/**
 * Writes the result file for run or check (src/check/result.ts). One that cannot be written is said
 * as any refusal is, and the exit status is 3: the caller that asked for it refuses without it.
 */
function reportResult(file, name, said, ended) {
    const log = logOnDisk(said.observer);
    // check's error verdict is a refusal as a thrown error is: its error, exit status 3.
    const report = said.report ?? null;
    const how = report?.verdict === "error" ? { outcome: "refused", error: report.error } : ended;
    const events = how.outcome !== "completed" ? null : report !== null ? report.events : log !== null ? logEndEvents(log.path) : null;
    const result = {
        version: 1,
        command: name,
        outcome: how.outcome,
        exit_status: ended.exitStatus,
        error: how.error,
        log,
        events,
        verdict: name === "run" || how.outcome === "usage" ? null : how.outcome === "refused" ? "error" : (report?.verdict ?? null),
    };
    try {
        writeCliResult(file, result);
    }
    catch (err) {
        process.stderr.write(formatReportText((0,core_verdict/* reportFromError */.dd)(err, null)));
        return core_verdict/* EXIT_CODES */.ai.error;
    }
    return ended.exitStatus;
}


/***/ }),

/***/ 5275:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Zj: () => (/* binding */ isContainerEngineSocket),
/* harmony export */   ph: () => (/* binding */ DOCKER_HINT),
/* harmony export */   uh: () => (/* binding */ isContainerEngine)
/* harmony export */ });
/* unused harmony exports CONTAINER_ENGINE_SOCKETS, DOCKER_PORTS */
/**
 * Container engines (Docker, Podman, containerd, BuildKit): how a host event names one. No
 * envelope allows reaching one (rules.ts judgeHost: docker_refused), the process recorder records
 * every connect to one's socket name (observer/strace.ts), and `suggest` never proposes one.
 * Kept apart from the rules so the recorder's bundle needs nothing else.
 */
/**
 * The file names of the sockets a container engine listens on: Docker's (and its Windows named
 * pipe, `//./pipe/docker_engine`), Podman's, containerd's and BuildKit's. Rootless daemons listen
 * under `/run/user/<uid>/` (`docker.sock`, `podman/podman.sock`): the same names.
 */
const CONTAINER_ENGINE_SOCKETS = new Set([
    "docker.sock",
    "podman.sock",
    "containerd.sock",
    "buildkitd.sock",
    "docker_engine",
]);
/** The Docker daemon's TCP ports: plain (2375) and TLS (2376). */
const DOCKER_PORTS = new Set([2375, 2376]);
/** A unix socket path (no `unix:`) whose file name is a container engine's socket (CONTAINER_ENGINE_SOCKETS). */
function isContainerEngineSocket(path) {
    return CONTAINER_ENGINE_SOCKETS.has(path.slice(path.lastIndexOf("/") + 1));
}
/**
 * A container engine reached: a unix socket named as one's (`host` as hostName gives it, with
 * `unix:`), or a Docker daemon port on any host. No envelope allows it (docker_refused), and
 * `suggest` never proposes it.
 */
function isContainerEngine(host, port) {
    if (host.startsWith("unix:"))
        return isContainerEngineSocket(host.slice("unix:".length));
    return port !== null && DOCKER_PORTS.has(port);
}
/**
 * What to do about a docker_refused violation: said wherever the violation is (check's text,
 * the annotation, the SARIF rule's help).
 */
const DOCKER_HINT = "Docker is refused in the jail (its socket is root on the host). Declare the service the container would provide and start it as a job service (`services:` in the workflow) — see docs/authoring.md#suites-with-services — or run the containers outside the gated command.";


/***/ }),

/***/ 6504:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $3: () => (/* binding */ frameMessage),
/* harmony export */   $9: () => (/* binding */ DNS_TYPE),
/* harmony export */   AS: () => (/* binding */ addressBytes),
/* harmony export */   Bo: () => (/* binding */ buildAnswer),
/* harmony export */   KK: () => (/* binding */ RCODE),
/* harmony export */   dT: () => (/* binding */ buildError),
/* harmony export */   mA: () => (/* binding */ parseQuery),
/* harmony export */   o0: () => (/* binding */ DnsFrameReader)
/* harmony export */ });
/* unused harmony exports QUERY_FAILURE, UDP_MESSAGE_LIMIT, TCP_MESSAGE_LIMIT, DnsFrameError */
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


/***/ }),

/***/ 20:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   dU: () => (/* binding */ RUN_IDENTITY_WRAPPER),
/* harmony export */   gL: () => (/* binding */ ENV_SETS),
/* harmony export */   mA: () => (/* binding */ PROXY_ENV_KEYS),
/* harmony export */   z_: () => (/* binding */ isRunIdentityKey)
/* harmony export */ });
/* unused harmony exports RUN_IDENTITY_CANONICAL, RUN_IDENTITY_REMOVED, runEnvironment, commitRunEnvironment */
/**
 * Named key sets for `allowed_env` (`@ci`, `@agents`, `@terminal`): the detection lists that
 * tools read on every start (is this CI? which agent? can I use colour?), most of them unset.
 * Each set is a closed, versioned list of exact keys; none of them names a credential, and a
 * test holds every key to that. Sourced from ci-info 4 (vendors.json and its generic checks)
 * and std-env 4 (providers and agents), the two libraries behind nearly all of these reads.
 */
/** CI and hosting detection: flags and build ids, never tokens. */
const CI = [
    "AC_APPCIRCLE",
    "AC_GIT_PR",
    "AGOLA_GIT_REF",
    "AGOLA_PULL_REQUEST_ID",
    "ALPIC_HOST",
    "APPCENTER_BUILD_ID",
    "APPVEYOR",
    "APPVEYOR_PULL_REQUEST_NUMBER",
    "AWS_APP_ID",
    "BITBUCKET_COMMIT",
    "BITBUCKET_PR_ID",
    "BITRISE_IO",
    "BITRISE_PULL_REQUEST",
    "BUDDY_EXECUTION_PULL_REQUEST_ID",
    "BUDDY_WORKSPACE_ID",
    "BUILDER_OUTPUT",
    "BUILDKITE",
    "BUILDKITE_PULL_REQUEST",
    "BUILD_ID",
    "BUILD_NUMBER",
    "BUILD_REASON",
    "CF_BUILD_ID",
    "CF_PAGES",
    "CF_PULL_REQUEST_ID",
    "CF_PULL_REQUEST_NUMBER",
    "CHANGE_ID",
    "CI",
    "CIRCLECI",
    "CIRCLE_PULL_REQUEST",
    "CIRRUS_CI",
    "CIRRUS_PR",
    "CI_APP_ID",
    "CI_BUILD_EVENT",
    "CI_BUILD_ID",
    "CI_BUILD_NUMBER",
    "CI_MERGE_REQUEST_ID",
    "CI_NAME",
    "CI_PULL_REQUEST_NUMBER",
    "CI_XCODE_PROJECT",
    "CLEAVR",
    "CLOUD_RUN_JOB",
    "CM_BUILD_ID",
    "CM_PULL_REQUEST",
    "CODEBUILD_BUILD_ARN",
    "CODEBUILD_WEBHOOK_EVENT",
    "CODESANDBOX_HOST",
    "CODESANDBOX_SSE",
    "CODESPHERE_APP_ID",
    "CONTINUOUS_INTEGRATION",
    "DENO_DEPLOY",
    "DENO_DEPLOYMENT_ID",
    "DRONE",
    "DRONE_BUILD_EVENT",
    "DSARI",
    "EARTHLY_CI",
    "EAS_BUILD",
    "EO_PAGES_CI",
    "FIREBASE_APP_HOSTING",
    "GERRIT_PROJECT",
    "GITEA_ACTIONS",
    "GITHUB_ACTIONS",
    "GITHUB_EVENT_NAME",
    "GITLAB_CI",
    "GO_PIPELINE_LABEL",
    "HARNESS_BUILD_ID",
    "HUDSON_URL",
    "IS_PULL_REQUEST",
    "JENKINS_URL",
    "K_SERVICE",
    "LAYERCI",
    "LAYERCI_PULL_REQUEST",
    "MAGNUM",
    "NETLIFY",
    "NETLIFY_LOCAL",
    "NEVERCODE",
    "NEVERCODE_PULL_REQUEST",
    "NOW_BUILDER",
    "PROW_JOB_ID",
    "PULL_REQUEST",
    "PULL_REQUEST_NUMBER",
    "RAILWAY_PROJECT_ID",
    "RAILWAY_SERVICE_ID",
    "RELEASE_BUILD_ID",
    "RENDER",
    "SAILCI",
    "SAIL_PULL_REQUEST_NUMBER",
    "SCREWDRIVER",
    "SD_PULL_REQUEST",
    "SEMAPHORE",
    "SHIPPABLE",
    "STACKBLITZ",
    "STORMKIT",
    "STRIDER",
    "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI",
    "TASK_ID",
    "TDDIUM",
    "TEAMCITY_VERSION",
    "TF_BUILD",
    "TRAVIS",
    "TRAVIS_PULL_REQUEST",
    "VELA",
    "VELA_PULL_REQUEST",
    "VERCEL",
    "VERCEL_ENV",
    "VERCEL_GIT_PULL_REQUEST_ID",
    "WORKERS_CI",
    "XCS",
    "ZEABUR",
    "bamboo_planKey",
    "ghprbPullId",
];
/** Coding-agent detection. */
const AGENTS = [
    "AI_AGENT",
    "AUGMENT_AGENT",
    "CLAUDECODE",
    "CLAUDE_CODE",
    "CODEX_SANDBOX",
    "CODEX_THREAD_ID",
    "COPILOT_AGENT",
    "COPILOT_CLI",
    "CURSOR_AGENT",
    "GEMINI_CLI",
    "GOOSE_PROVIDER",
    "JUNIE_DATA",
    "JUNIE_SHIM_PATH",
    "OPENCODE",
    "REPL_ID",
];
/** Terminal, colour and locale. */
const TERMINAL = [
    "COLOR",
    "COLORTERM",
    "COLUMNS",
    "FORCE_COLOR",
    "FORCE_TTY",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "LINES",
    "NODE_DISABLE_COLORS",
    "NO_COLOR",
    "TERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TZ",
];
const ENV_SETS = new Map([
    ["@ci", new Set(CI)],
    ["@agents", new Set(AGENTS)],
    ["@terminal", new Set(TERMINAL)],
]);
/**
 * Run-identity keys: what GitHub sets differently on runner A (a `pull_request` run) and runner B
 * (a `workflow_dispatch` run on the base branch) whatever the machines. PR code that read them
 * could fail on one run and pass on the other on purpose and so manufacture a freeze. The Action
 * hands the jailed runs (the patch's and each property command's) the same environment on both:
 * the keys in RUN_IDENTITY_CANONICAL take values made of the pull request alone (its number,
 * head commit, base and head branch, all read from the API), the keys in RUN_IDENTITY_REMOVED are
 * taken out, and RUN_IDENTITY_WRAPPER stays for the wrapper only (it reads them to hide the files
 * they name).
 */
const RUN_IDENTITY_CANONICAL = (/* unused pure expression or super */ null && ([
    "GITHUB_EVENT_NAME",
    "GITHUB_SHA",
    "GITHUB_REF",
    "GITHUB_REF_NAME",
    "GITHUB_REF_TYPE",
    "GITHUB_REF_PROTECTED",
    "GITHUB_HEAD_REF",
    "GITHUB_BASE_REF",
]));
/** Keys that cannot be made equal on A and B (ids, counters, actors, the workflow's own ref): never in the run. */
const RUN_IDENTITY_REMOVED = [
    "GITHUB_RUN_ID",
    "GITHUB_RUN_NUMBER",
    "GITHUB_RUN_ATTEMPT",
    "GITHUB_JOB",
    "GITHUB_WORKFLOW",
    "GITHUB_WORKFLOW_REF",
    "GITHUB_WORKFLOW_SHA",
    "GITHUB_ACTOR",
    "GITHUB_ACTOR_ID",
    "GITHUB_TRIGGERING_ACTOR",
    "GITHUB_RETENTION_DAYS",
    "GITHUB_ACTION",
    "GITHUB_ACTION_REF",
    "GITHUB_ACTION_REPOSITORY",
    "GITHUB_ACTIONS_ORCHESTRATION_ID",
    "ACTIONS_ORCHESTRATION_ID",
    "RUNNER_TRACKING_ID",
    "RUNNER_DEBUG",
    "ACTIONS_RUNNER_DEBUG",
    "ACTIONS_STEP_DEBUG",
    "INVOCATION_ID",
    "JOURNAL_STREAM",
];
/**
 * The Action's own inputs (`INPUT_<NAME>`): runner B's dispatch gives it `pull-request`, `head-sha`
 * and `dual-run-id` that runner A's run does not have. Never in the run, whatever the envelope lists.
 */
const ACTION_INPUT_PREFIX = "INPUT_";
/**
 * Keys the run wrapper reads to hide what they name (the event payload, the file-command files,
 * the Action's directory; src/observer/runner-layout.ts). They stay in the wrapper's environment,
 * and like the removed keys a pattern or a set never lets them into the run.
 */
const RUN_IDENTITY_WRAPPER = [
    "GITHUB_EVENT_PATH",
    "GITHUB_ACTION_PATH",
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    "GITHUB_STATE",
    "GITHUB_STEP_SUMMARY",
];
const NEVER_BY_PATTERN = new Set([...RUN_IDENTITY_REMOVED, ...RUN_IDENTITY_WRAPPER]);
/**
 * A run-identity key whose value cannot be made equal on A and B. Like a machine key (never-proposed.ts) it is never
 * matched by a pattern or a set (`GITHUB_*` does not allow `GITHUB_RUN_ID`); the Action takes the
 * removed ones out of the run whatever the envelope lists. The canonical keys are not in it: the
 * Action gives them one value on both runners, so `@ci` may still let `GITHUB_EVENT_NAME` in.
 */
function isRunIdentityKey(key) {
    return NEVER_BY_PATTERN.has(key) || key.startsWith(ACTION_INPUT_PREFIX);
}
/**
 * The environment the Action hands the run wrapper for a jailed run of `pull`: the caller's,
 * with the canonical run-identity keys set to values made of the pull request alone and the
 * removed ones (and the Action's own `INPUT_*` keys) taken out. Runner A (a `pull_request` run), runner B (dispatched on the base for
 * this pull request and head) and a plain run (any other trigger) get the same values: what a
 * run sees depends on the pull request it checks, never on how it was started. The envelope's
 * filter then applies in the wrapper as for any other key.
 */
function runEnvironment(caller, _role, pull) {
    const out = {};
    const removed = new Set(RUN_IDENTITY_REMOVED);
    for (const [key, value] of Object.entries(caller)) {
        if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX))
            out[key] = value;
    }
    const canonical = {
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_SHA: pull.headSha,
        GITHUB_REF: `refs/pull/${pull.number}/merge`,
        GITHUB_REF_NAME: `${pull.number}/merge`,
        GITHUB_REF_TYPE: "branch",
        GITHUB_REF_PROTECTED: "false",
        GITHUB_HEAD_REF: pull.headRef,
        GITHUB_BASE_REF: pull.baseRef,
    };
    return { ...out, ...canonical };
}
/**
 * The environment for an audit run on a branch commit (a push or a dispatch: no pull request,
 * nothing to compare with another runner): the caller's, with the removed run-identity keys and
 * the Action's own `INPUT_*` keys (its token among them) taken out as for runEnvironment. The
 * canonical keys keep the caller's values, which name the branch and commit truthfully.
 */
function commitRunEnvironment(caller) {
    const removed = new Set(RUN_IDENTITY_REMOVED);
    const out = {};
    for (const [key, value] of Object.entries(caller)) {
        if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX))
            out[key] = value;
    }
    return out;
}
/**
 * The keys the run wrapper itself sets under `network: "allowlist"`, whatever `allowed_env` says
 * (src/observer/egress.ts proxyEnv: the proxy variables pointing at the egress relay, and
 * NODE_USE_ENV_PROXY). Under allowlist their reads are recorded and not judged, from any
 * source, and `suggest` never proposes them; under `deny` they are not set and judged like any key.
 */
const PROXY_ENV_KEYS = new Set([
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "NODE_USE_ENV_PROXY",
]);


/***/ }),

/***/ 8447:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  IC: () => (/* binding */ envMatcher),
  oY: () => (/* binding */ expandRoots),
  x8: () => (/* binding */ expandWritableProtected),
  sv: () => (/* binding */ formatDigestLine),
  on: () => (/* binding */ hostPatterns),
  BC: () => (/* binding */ loadEnvelope),
  UC: () => (/* binding */ parseDigestFile),
  J$: () => (/* binding */ readDigestLine),
  fg: () => (/* binding */ sha256Hex),
  Ub: () => (/* binding */ verifyDigest)
});

// UNUSED EXPORTS: envelopeSchema

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./node_modules/ajv/dist/ajv.js
var ajv = __nccwpck_require__(2463);
;// CONCATENATED MODULE: ./schema/envelope.schema.json
const envelope_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://github.com/envelope-gate/envelope-gate/schema/envelope.schema.json","title":"envelope-gate envelope","description":"What an agent run may touch. Anything else it touches fails the gate. See docs/formats.md.","type":"object","additionalProperties":false,"required":["envelope_id","allowed_roots","allowed_tools","allowed_env","allowed_hosts","network"],"properties":{"$schema":{"description":"Optional pointer to this schema, for editors. Not part of the policy.","type":"string"},"envelope_id":{"description":"A name for this envelope, shown in every check run.","type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\\\u0000-\\\\u001f]+$"},"allowed_roots":{"description":"Directories the run may write under. Absolute POSIX paths, or paths starting with ${WORKSPACE} or ${SCRATCH}.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$"}},"allowed_tools":{"description":"Agent tool names the run may dispatch.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000-\\\\u001f]+$"}},"allowed_env":{"description":"Environment keys the run may read, and the only keys passed into the run: exact keys; PREFIX* for every key starting with PREFIX (a non-empty prefix; * only at the end); or a named set of detection keys: @ci, @agents, @terminal (docs/formats.md lists them). A pattern or a set never matches a key that names a credential (SECRET, TOKEN, PASSWORD, KEY, AUTH, ...): list such a key exactly.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^(?:@(?:ci|agents|terminal)|[^=\\\\u0000*@][^=\\\\u0000*]*\\\\*?)$"}},"allowed_hosts":{"description":"Hosts the run may connect to while network is allowlist: lower-case DNS names or IP literals, optional :port; *.example.com matches subdomains only; or a named host set, version 1 (@npm, @pypi, @crates, @go-proxy, @debian, @ubuntu, @github, @node-dist), which stands for the hosts and ports docs/egress.md lists for it.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:@(?:npm|pypi|crates|go-proxy|debian|ubuntu|github|node-dist)|(?:\\\\*\\\\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?|\\\\[[0-9a-f:.]+\\\\](?::[0-9]{1,5})?|[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*)$"}},"network":{"description":"deny: no outbound connection or lookup at all. allowlist: only allowed_hosts.","enum":["deny","allowlist"]},"allowed_commands":{"description":"Optional. Executables the run may start, by absolute path or bare name. Absent: execs are recorded, not judged. Present: deny by default.","type":"array","uniqueItems":true,"items":{"type":"string","minLength":1,"pattern":"^[^\\\\u0000]+$"}},"loopback":{"description":"Optional. local (default): connections and lookups to loopback (127.0.0.0/8, ::1, localhost) inside the run\'s own network namespace are recorded, not judged (nothing there leaves the run). network: judged like any host.","enum":["local","network"]},"writable_protected":{"description":"Optional. Protected paths inside the allowed roots (.git, .github, the Action\'s own files) that the run may write after all, for the rare suite that must: absolute paths, or paths starting with ${WORKSPACE} or ${SCRATCH}. Never a .git itself, its hooks, config, config.worktree, info, modules, worktrees or commondir, nor anything containing them (the workspace, /). See docs/formats.md, Protected paths.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]*|\\\\$\\\\{(?:WORKSPACE|SCRATCH)\\\\}(?:/[^\\\\u0000]*)?)$","not":{"pattern":"(?:^|/)\\\\.git(?:/(?:hooks|config|config\\\\.worktree|info|modules|worktrees|commondir)(?:/|$)|/?$)"}}},"services":{"description":"Optional. The job\'s own services the run may reach (a database, a cache): envelope-gate listens at the same address inside the jail and forwards each connection to the real service, recording it. 127.0.0.1:PORT or [::1]:PORT on the runner, localhost:PORT, a service container\'s name in a container job (postgres:5432), or a unix socket\'s absolute path. Never a metadata service, SSH, the Docker daemon or a credential agent. Allowed under deny and allowlist alike. See docs/authoring.md#suites-with-services.","type":"array","uniqueItems":true,"items":{"type":"string","pattern":"^(?:/[^\\\\u0000]+|\\\\[[0-9a-f:.]+\\\\]:[0-9]{1,5}|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*:[0-9]{1,5})$"}},"observation":{"description":"Optional. What must have observed the run. full (default): the process-level observer as well as the Node hooks. node: a log from the Node hooks alone passes (nothing outside Node is seen).","enum":["full","node"]}}}');
// EXTERNAL MODULE: ./src/core/env-sets.ts
var env_sets = __nccwpck_require__(20);
// EXTERNAL MODULE: ./src/core/never-proposed.ts
var never_proposed = __nccwpck_require__(996);
// EXTERNAL MODULE: ./src/core/errors.ts
var core_errors = __nccwpck_require__(4296);
;// CONCATENATED MODULE: ./src/core/json.ts
/**
 * A strict JSON reader for human-edited policy files. Unlike JSON.parse it refuses duplicate
 * keys (a typo must never silently pick one of two values) and remembers the line of every
 * value by JSON pointer, so errors and annotations can point at the exact line.
 */
class JsonSyntaxError extends Error {
    line;
    column;
    constructor(message, line, column) {
        super(message);
        this.line = line;
        this.column = column;
        this.name = "JsonSyntaxError";
    }
}
function pointerEscape(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function parseJsonWithLines(text) {
    const lines = new Map();
    let pos = 0;
    let line = 1;
    let lineStart = 0;
    const fail = (message) => {
        throw new JsonSyntaxError(message, line, pos - lineStart + 1);
    };
    const skipWhitespace = () => {
        while (pos < text.length) {
            const c = text.charCodeAt(pos);
            if (c === 0x20 || c === 0x09 || c === 0x0d) {
                pos++;
            }
            else if (c === 0x0a) {
                pos++;
                line++;
                lineStart = pos;
            }
            else {
                break;
            }
        }
    };
    const parseString = () => {
        // Opening quote already checked by the caller.
        pos++;
        let out = "";
        let chunkStart = pos;
        for (;;) {
            if (pos >= text.length)
                fail("unterminated string");
            const c = text.charCodeAt(pos);
            if (c === 0x22) {
                out += text.slice(chunkStart, pos);
                pos++;
                return out;
            }
            if (c < 0x20)
                fail(`control character U+${c.toString(16).padStart(4, "0")} inside a string`);
            if (c === 0x5c) {
                out += text.slice(chunkStart, pos);
                const e = text[pos + 1];
                switch (e) {
                    case '"':
                    case "\\":
                    case "/":
                        out += e;
                        pos += 2;
                        break;
                    case "b":
                        out += "\b";
                        pos += 2;
                        break;
                    case "f":
                        out += "\f";
                        pos += 2;
                        break;
                    case "n":
                        out += "\n";
                        pos += 2;
                        break;
                    case "r":
                        out += "\r";
                        pos += 2;
                        break;
                    case "t":
                        out += "\t";
                        pos += 2;
                        break;
                    case "u": {
                        const hex = text.slice(pos + 2, pos + 6);
                        if (!/^[0-9a-fA-F]{4}$/.test(hex))
                            fail("bad \\u escape");
                        out += String.fromCharCode(parseInt(hex, 16));
                        pos += 6;
                        break;
                    }
                    default:
                        fail("bad escape in string");
                }
                chunkStart = pos;
                continue;
            }
            pos++;
        }
    };
    const parseValue = (pointer, depth) => {
        if (depth > 64)
            fail("nesting deeper than 64 levels");
        skipWhitespace();
        lines.set(pointer, line);
        const c = text[pos];
        if (c === "{") {
            pos++;
            const obj = Object.create(null);
            const seen = new Set();
            skipWhitespace();
            if (text[pos] === "}") {
                pos++;
                return { ...obj };
            }
            for (;;) {
                skipWhitespace();
                if (text[pos] !== '"')
                    fail("expected a quoted key");
                const keyLine = line;
                const key = parseString();
                if (seen.has(key)) {
                    line = keyLine;
                    fail(`duplicate key "${key}"`);
                }
                seen.add(key);
                skipWhitespace();
                if (text[pos] !== ":")
                    fail(`expected ':' after key "${key}"`);
                pos++;
                const childPointer = `${pointer}/${pointerEscape(key)}`;
                obj[key] = parseValue(childPointer, depth + 1);
                lines.set(childPointer, keyLine);
                skipWhitespace();
                if (text[pos] === ",") {
                    pos++;
                    continue;
                }
                if (text[pos] === "}") {
                    pos++;
                    // A plain object, so callers and ajv see ordinary prototypes.
                    return { ...obj };
                }
                fail("expected ',' or '}'");
            }
        }
        if (c === "[") {
            pos++;
            const arr = [];
            skipWhitespace();
            if (text[pos] === "]") {
                pos++;
                return arr;
            }
            for (;;) {
                arr.push(parseValue(`${pointer}/${arr.length}`, depth + 1));
                skipWhitespace();
                if (text[pos] === ",") {
                    pos++;
                    continue;
                }
                if (text[pos] === "]") {
                    pos++;
                    return arr;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c === '"')
            return parseString();
        if (text.startsWith("true", pos)) {
            pos += 4;
            return true;
        }
        if (text.startsWith("false", pos)) {
            pos += 5;
            return false;
        }
        if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, pos + 64));
        if (m) {
            pos += m[0].length;
            return Number(m[0]);
        }
        return fail(pos >= text.length ? "unexpected end of file" : `unexpected character '${text[pos]}'`);
    };
    const value = parseValue("", 0);
    skipWhitespace();
    if (pos < text.length)
        fail("unexpected content after the JSON value");
    return { value, lines };
}
/** Decodes bytes as UTF-8, refusing invalid sequences instead of replacing them. */
function decodeUtf8Strict(bytes) {
    try {
        return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    }
    catch {
        // Find the first bad byte so the message can name the line.
        let line = 1;
        let i = 0;
        for (; i < bytes.length; i++) {
            const b = bytes[i];
            if (b === 0x0a)
                line++;
            if (b < 0x80)
                continue;
            const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 ? 2 : b >= 0xc2 && b < 0xe0 ? 1 : -1;
            if (need < 0)
                break;
            let ok = true;
            for (let k = 1; k <= need; k++) {
                const cb = bytes[i + k];
                if (cb === undefined || (cb & 0xc0) !== 0x80)
                    ok = false;
            }
            if (!ok)
                break;
            i += need;
        }
        return { invalidAt: i, line };
    }
}

// EXTERNAL MODULE: ./src/core/paths.ts
var paths = __nccwpck_require__(6107);
// EXTERNAL MODULE: ./src/core/protected.ts
var core_protected = __nccwpck_require__(1085);
// EXTERNAL MODULE: ./src/core/services.ts
var services = __nccwpck_require__(3499);
// EXTERNAL MODULE: ./src/core/hosts.ts
var hosts = __nccwpck_require__(3848);
;// CONCATENATED MODULE: ./src/core/envelope.ts












let validateEnvelopeShape;
function schemaValidator() {
    // The shipped schema is checked against its meta-schema by the tests (test/core/envelope.test.ts),
    // not on every run: compiling the meta-schema was half of check's start-up.
    validateEnvelopeShape ??= new ajv.Ajv({ allErrors: true, strict: true, validateSchema: false }).compile(envelope_schema_namespaceObject);
    return validateEnvelopeShape;
}
function sha256Hex(bytes) {
    return (0,external_node_crypto_.createHash)("sha256").update(bytes).digest("hex");
}
/** The value a JSON pointer names in `root` (undefined where there is none). */
function valueAt(root, pointer) {
    let at = root;
    for (const part of pointer.split("/").slice(1)) {
        if (at === null || typeof at !== "object")
            return undefined;
        at = at[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return at;
}
function describeSchemaError(error, root) {
    const where = error.instancePath === "" ? "the envelope" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
    switch (error.keyword) {
        case "additionalProperties":
            return `unknown key "${String(error.params.additionalProperty)}" in ${where}`;
        case "required":
            return `missing required key "${String(error.params.missingProperty)}"`;
        case "uniqueItems":
            return `${where} lists the same value twice (items ${String(error.params.j)} and ${String(error.params.i)})`;
        case "not":
            if (error.instancePath.startsWith("/writable_protected/")) {
                return `${where} names .git or its hooks, config, info, modules, worktrees or commondir, which can never be writable`;
            }
            return `${where} has a value of the wrong form`;
        case "enum":
            return `${where} must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
        case "pattern":
            if (error.instancePath.startsWith("/allowed_roots/") || error.instancePath.startsWith("/writable_protected/")) {
                return `${where} must be an absolute path or start with \${WORKSPACE} or \${SCRATCH}`;
            }
            if (error.instancePath.startsWith("/allowed_env/")) {
                return `${where} must be an environment key, PREFIX* for every key starting with a non-empty PREFIX, or a named set (@ci, @agents, @terminal)`;
            }
            if (error.instancePath.startsWith("/allowed_hosts/")) {
                const value = valueAt(root, error.instancePath);
                if (typeof value === "string" && (0,hosts/* isHostSetEntry */.Hu)(value))
                    return `${where}: ${unknownHostSet(value)}`;
                return `${where} must be a lower-case DNS name or IP literal with an optional :port (*.example.com for subdomains), or a host set (${[...hosts/* HOST_SETS */.vP.keys()].join(", ")})`;
            }
            return `${where} has a value of the wrong form`;
        default:
            return `${where} ${error.message ?? "is invalid"}`;
    }
}
function schemaErrorPointer(error) {
    if (error.keyword === "additionalProperties") {
        return `${error.instancePath}/${String(error.params.additionalProperty)}`;
    }
    if (error.keyword === "uniqueItems")
        return `${error.instancePath}/${String(error.params.i)}`;
    return error.instancePath;
}
/** Parses and validates envelope bytes. Pure: the caller reads the file. */
function loadEnvelope(bytes, file) {
    const hash = `sha256:${sha256Hex(bytes)}`;
    const decoded = decodeUtf8Strict(bytes);
    if (typeof decoded !== "string") {
        throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file} is not valid UTF-8 (byte ${decoded.invalidAt})`, {
            file,
            line: decoded.line,
            hint: "Save the envelope as UTF-8.",
        });
    }
    // A byte order mark is tolerated: editors add it, and the digest still covers the raw bytes.
    const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
    let parsed;
    try {
        parsed = parseJsonWithLines(text);
    }
    catch (err) {
        if (err instanceof JsonSyntaxError) {
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${err.line}:${err.column}: ${err.message}`, {
                file,
                line: err.line,
                column: err.column,
                hint: "Fix the JSON; the envelope is validated against schema/envelope.schema.json.",
            });
        }
        throw err;
    }
    const validate = schemaValidator();
    if (!validate(parsed.value)) {
        const errors = validate.errors ?? [];
        const first = errors[0];
        const pointer = first ? schemaErrorPointer(first) : "";
        const line = parsed.lines.get(pointer) ?? parsed.lines.get(first?.instancePath ?? "") ?? 1;
        const all = errors.map((e) => describeSchemaError(e, parsed.value));
        throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: ${all.join("; ")}`, {
            file,
            line,
            hint: "The envelope must match schema/envelope.schema.json exactly: no unknown keys, no duplicates.",
        });
    }
    const envelope = parsed.value;
    envelope.allowed_hosts.forEach((entry, i) => {
        if ((0,hosts/* isHostSetEntry */.Hu)(entry)) {
            // The schema admits only the known names; this holds the code's list to it.
            if (hosts/* HOST_SETS */.vP.has(entry))
                return;
            const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: ${unknownHostSet(entry)}`, { file, line });
        }
        if ((0,hosts/* parseHostPattern */.ic)(entry) === null) {
            const line = parsed.lines.get(`/allowed_hosts/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: "${entry}" has a port outside 1-65535`, { file, line });
        }
    });
    envelope.services?.forEach((entry, i) => {
        const service = (0,services/* parseService */.nO)(entry);
        if ("refused" in service) {
            const line = parsed.lines.get(`/services/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("SERVICE_NOT_ALLOWED", `${file}:${line}: services entry "${entry}" can never be a service: ${service.refused}`, {
                file,
                line,
                hint: "A service is the job's own database or cache: 127.0.0.1:PORT or [::1]:PORT on the runner, its name in a container job (postgres:5432), or a unix socket path (docs/authoring.md#suites-with-services).",
            });
        }
    });
    envelope.writable_protected?.forEach((entry, i) => {
        const reason = writableProtectedReason(entry);
        if (reason !== null) {
            const line = parsed.lines.get(`/writable_protected/${i}`) ?? 1;
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${file}:${line}: writable_protected "${entry}" can never be writable: ${reason}`, {
                file,
                line,
                hint: "writable_protected names one protected directory or file a suite must write (e.g. ${WORKSPACE}/.github/generated); .git's hooks and config, and anything containing them, stay read-only.",
            });
        }
    });
    return { envelope, hash, file, lines: parsed.lines };
}
/** Lexical refusal of a writable_protected entry: a whole root variable (it contains .git), `/`, or .git's hooks and config. */
function writableProtectedReason(entry) {
    const m = ROOT_VARIABLE.exec(entry);
    // The variable stands for a directory that holds the repository's .git: fold what follows it under a placeholder.
    const folded = (0,paths/* foldPath */.tu)(m ? `/${m[1]}${entry.slice(m[0].length)}` : entry);
    if (folded === null)
        return "it is not absolute";
    if (folded === "/")
        return "it contains everything, .git's hooks and config too";
    if (m !== null && m[1] === "WORKSPACE" && folded === "/WORKSPACE")
        return "the workspace contains .git/hooks and .git/config";
    if (m !== null && folded !== `/${m[1]}` && !folded.startsWith(`/${m[1]}/`))
        return `it leaves \${${m[1]}} with ".."`;
    return (0,core_protected/* neverWritableReason */.d8)(folded);
}
/** The sha256sum line for an envelope: `<hex>  <name>`. */
function formatDigestLine(bytes, name) {
    return `${sha256Hex(bytes)}  ${name}\n`;
}
/**
 * The one reader of a sha256sum digest file, for the envelope's and an evidence bundle's alike:
 * exactly one non-empty line, `<64 hex>  <name>` (or ` *<name>`, or `\`-escaped as sha256sum
 * writes a name with a backslash), LF or CRLF. The lower-case hex, or why it is not one.
 */
function readDigestLine(text) {
    const entries = text.split(/\r?\n/).filter((l) => l.trim() !== "");
    if (entries.length !== 1)
        return { lines: entries.length };
    const m = /^\\?([0-9a-fA-F]{64})(?: [ *](.+))?\s*$/.exec(entries[0]);
    return m ? { hex: m[1].toLowerCase() } : { notALine: true };
}
/** Reads an envelope's digest file (one entry). Returns the lower-case hex. */
function parseDigestFile(text, file) {
    const read = readDigestLine(text);
    if ("lines" in read) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_DIGEST_INVALID", `${file} must hold exactly one sha256sum line, found ${read.lines}`, {
            file,
            hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
        });
    }
    if ("notALine" in read) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_DIGEST_INVALID", `${file}:1: not a sha256sum line ("<64 hex>  envelope.json")`, {
            file,
            line: 1,
            hint: "Regenerate it with: envelope-gate hash envelope.json > envelope.json.sha256",
        });
    }
    return read.hex;
}
/**
 * Refuses unless the digest file pins exactly these bytes. Checked before the envelope is
 * parsed, so a tampered file is reported as tampered. There is no way to skip this.
 */
function verifyDigest(envelopeBytes, envelopeFile, digestText, digestFile) {
    const expected = parseDigestFile(digestText, digestFile);
    const actual = sha256Hex(envelopeBytes);
    if (expected !== actual) {
        throw new core_errors/* Refusal */.P_("ENVELOPE_HASH_MISMATCH", `${envelopeFile} has sha256 ${actual}, but ${digestFile} pins ${expected}`, {
            file: digestFile,
            line: 1,
            hint: "The envelope changed without its digest. Review the change, then regenerate the digest in the same commit.",
        });
    }
}
const ROOT_VARIABLE = /^\$\{(WORKSPACE|SCRATCH)\}/;
/** Expands `${WORKSPACE}` and `${SCRATCH}` from explicit values and folds every root. */
function expandRoots(loaded, values) {
    return expandPaths(loaded, values, "allowed_roots");
}
/** `writable_protected`, expanded and folded like the roots (empty when the key is absent). */
function expandWritableProtected(loaded, values) {
    return expandPaths(loaded, values, "writable_protected");
}
function expandPaths(loaded, values, key) {
    return (loaded.envelope[key] ?? []).map((root, i) => {
        const line = loaded.lines.get(`/${key}/${i}`);
        let expanded = root;
        const m = ROOT_VARIABLE.exec(root);
        if (m) {
            const name = m[1];
            const value = name === "WORKSPACE" ? values.workspace : values.scratch;
            if (value === undefined || value === "") {
                throw new core_errors/* Refusal */.P_("ROOT_VARIABLE_UNDEFINED", `${loaded.file}:${line ?? 1}: root "${root}" uses \${${name}}, but no ${name.toLowerCase()} was given`, {
                    file: loaded.file,
                    line,
                    hint: `Pass --${name.toLowerCase()} DIR (action input '${name.toLowerCase()}'); an unset variable never expands to an empty string.`,
                });
            }
            if (!value.startsWith("/")) {
                throw new core_errors/* Refusal */.P_("CONFIG_INVALID", `the ${name.toLowerCase()} value "${value}" is not an absolute path`, {
                    hint: `Pass an absolute path for --${name.toLowerCase()}.`,
                });
            }
            expanded = value + root.slice(m[0].length);
        }
        const folded = (0,paths/* foldPath */.tu)(expanded);
        if (folded === null) {
            throw new core_errors/* Refusal */.P_("ENVELOPE_INVALID", `${loaded.file}:${line ?? 1}: root "${root}" is not absolute`, {
                file: loaded.file,
                line,
            });
        }
        return folded;
    });
}
/**
 * `allowed_env` as a matcher: exact keys, `PREFIX*` entries (a non-empty prefix, the only
 * pattern form; the schema refuses a bare `*`) and named sets (`@ci`, `@agents`, `@terminal`).
 * A pattern or a set never matches a key of never-proposed.ts's table (a credential or a credential
 * carrier, the machine, a run-identity key whose value differs between runner A and runner B, a
 * program-control key, a key outside printable ASCII): that key is allowed only when listed exactly. The gate judges reads with it, and the run wrapper passes exactly the keys it
 * accepts into the run.
 */
function envMatcher(envelope) {
    const exact = new Set();
    const prefixes = [];
    const sets = [];
    for (const entry of envelope.allowed_env) {
        if (entry.endsWith("*"))
            prefixes.push(entry.slice(0, -1));
        else if (entry.startsWith("@")) {
            const set = env_sets/* ENV_SETS */.gL.get(entry);
            // The schema admits only the known names; an unknown one matches nothing.
            if (set !== undefined)
                sets.push(set);
        }
        else
            exact.add(entry);
    }
    if (prefixes.length === 0 && sets.length === 0)
        return (key) => exact.has(key);
    return (key) => {
        if (exact.has(key))
            return true;
        if ((0,never_proposed/* keyApart */.ij)(key) !== null)
            return false;
        return prefixes.some((p) => key.startsWith(p)) || sets.some((s) => s.has(key));
    };
}
/** `allowed_hosts` as patterns, every host set expanded to its members (tagged with the set's name). */
function hostPatterns(envelope) {
    return envelope.allowed_hosts.flatMap((h) => (0,hosts/* expandHostEntry */.nd)(h) ?? []);
}
function unknownHostSet(entry) {
    return `allowed_hosts entry "${entry}" is not a host set (the sets are ${[...hosts/* HOST_SETS */.vP.keys()].join(", ")}; docs/egress.md lists them)`;
}


/***/ }),

/***/ 4296:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $z: () => (/* binding */ hintOf),
/* harmony export */   JA: () => (/* binding */ isSetAside),
/* harmony export */   MB: () => (/* binding */ nothingSent),
/* harmony export */   NU: () => (/* binding */ logOpenError),
/* harmony export */   P_: () => (/* binding */ Refusal),
/* harmony export */   UQ: () => (/* binding */ errnoOf),
/* harmony export */   We: () => (/* binding */ isErrorCode),
/* harmony export */   dg: () => (/* binding */ isTransient),
/* harmony export */   s_: () => (/* binding */ httpStatusOf),
/* harmony export */   vu: () => (/* binding */ isRefusal)
/* harmony export */ });
/* unused harmony exports ERROR_CODES, GENERIC_HINT, ERROR_TABLE */
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
const GENERIC_HINT = `Fix the cause named in the message, ${RETRY}.`;
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
function errnoOf(err) {
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
    const code = errnoOf(err);
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


/***/ }),

/***/ 3848:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hu: () => (/* binding */ isHostSetEntry),
/* harmony export */   Q7: () => (/* binding */ HOST_SET_TOOLS),
/* harmony export */   T0: () => (/* binding */ formatEndpoint),
/* harmony export */   VI: () => (/* binding */ hostAllowed),
/* harmony export */   cS: () => (/* binding */ normalizeHost),
/* harmony export */   ic: () => (/* binding */ parseHostPattern),
/* harmony export */   n4: () => (/* binding */ allowedViaSet),
/* harmony export */   nd: () => (/* binding */ expandHostEntry),
/* harmony export */   vP: () => (/* binding */ HOST_SETS)
/* harmony export */ });
/* unused harmony export HOST_SETS_VERSION */
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
function normalizeHost(host) {
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
function formatEndpoint(host, port) {
    if (port === null)
        return host;
    return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}


/***/ }),

/***/ 7653:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ae: () => (/* binding */ LOG_VERSION),
/* harmony export */   Nx: () => (/* binding */ isWriteOp),
/* harmony export */   V1: () => (/* binding */ WRITE_OPS),
/* harmony export */   Vp: () => (/* binding */ MISSING_TARGET_ERRNOS),
/* harmony export */   Yr: () => (/* binding */ FIELD_NAMES),
/* harmony export */   bz: () => (/* binding */ LOG_KINDS),
/* harmony export */   gi: () => (/* binding */ EVENT_SOURCES),
/* harmony export */   kX: () => (/* binding */ PATH_UNKNOWN_REASON),
/* harmony export */   l6: () => (/* binding */ MAX_LINE_LENGTH),
/* harmony export */   nH: () => (/* binding */ KIND_FIELDS),
/* harmony export */   qC: () => (/* binding */ COMMON_FIELDS),
/* harmony export */   yT: () => (/* binding */ isMissingTargetErrno)
/* harmony export */ });
/**
 * The observer log's format (docs/formats.md, "Observer log"): its kinds, their fields, the values
 * a field may take, and the limits a reader holds a log to. What the observer writes and what the
 * reader (./log-reader.ts) accepts are both this.
 */
const LOG_VERSION = 1;
/** Longest line accepted, in bytes; a longer one is malformed, never buffered whole. */
const MAX_LINE_LENGTH = 4 * 1024 * 1024;
const WRITE_OPS = new Set([
    "write",
    "create",
    "delete",
    "rename",
    "mkdir",
    "chmod",
    "truncate",
    "link",
    "symlink",
    "chown",
    "utimes",
    "xattr",
    "bind",
]);
function isWriteOp(op) {
    return WRITE_OPS.has(op);
}
/**
 * Who recorded an event. `effects` is the wrapper's own look at the filesystem after the jail is
 * gone (a protected entry new or changed, src/core/effects.ts): only on `write` lines.
 */
const EVENT_SOURCES = new Set(["node", "process", "sdk", "runtime", "proxy", "effects", "resolver", "service"]);
/**
 * The errors, as the kernel gave them to the process observer, of a write call that changed
 * nothing because what it named was not there (a missing file or directory on the way). Such a
 * write outside the roots is recorded (with `errno`) and not judged; every other failure (EROFS:
 * the jail refused it, EACCES, EPERM) is judged as an attempt.
 */
const MISSING_TARGET_ERRNOS = new Set(["ENOENT", "ENOTDIR"]);
function isMissingTargetErrno(errno) {
    return MISSING_TARGET_ERRNOS.has(errno);
}
/**
 * Why a recorder could not know the file a write call acted on (`write.path_unknown`):
 * - `fd-path`: the name goes through `/proc/<pid>/fd/N` or `/dev/fd/N`, and which file fd N was at
 *   the call is not in the line (strace); read from /proc afterwards it may be another file.
 * - anything else the eBPF recorder says in its `@path-unknown` line (a lower-case word).
 */
const PATH_UNKNOWN_REASON = /^[a-z][a-z0-9-]{0,63}$/;
/** Every kind, in the order the reader matches them. */
const LOG_KINDS = ["write", "env", "tool", "host", "exec", "syscall", "end", "meta"];
/** Fields every event may carry besides its kind's own. */
const COMMON_FIELDS = ["v", "kind", "ts", "pid", "ppid", "source", "seq", "canary", "ok", "via"];
/**
 * Every field an event line may carry. Which fields each kind may use is in KIND_FIELDS; anything
 * else on an event is malformed. (Meta may carry extra fields.)
 */
const FIELD_NAMES = [
    ...COMMON_FIELDS,
    "path",
    "op",
    "name",
    "key",
    "host",
    "port",
    "proto",
    "argv",
    "cwd",
    "events",
    "exit_code",
    "signal",
    "errno",
    "jail_pid",
    "path_unknown",
    "bytes_in",
    "bytes_out",
    "interpreter",
];
/** Each event kind's own fields: required, then optional (the same as its LogEvent member's). */
const KIND_FIELDS = {
    write: { required: ["path", "op"], optional: ["errno", "path_unknown"] },
    tool: { required: ["name"], optional: [] },
    env: { required: ["key"], optional: ["op"] },
    host: { required: ["host"], optional: ["port", "proto", "bytes_in", "bytes_out"] },
    exec: { required: ["path", "argv"], optional: ["cwd", "jail_pid", "interpreter"] },
    syscall: { required: ["name"], optional: [] },
    end: { required: ["events", "exit_code"], optional: ["signal"] },
};


/***/ }),

/***/ 3477:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   IC: () => (/* binding */ LogEvaluator),
/* harmony export */   fj: () => (/* binding */ endLineEvents),
/* harmony export */   w4: () => (/* binding */ walkLog)
/* harmony export */ });
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4573);
/* harmony import */ var node_buffer__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_buffer__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4296);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(6107);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3848);
/* harmony import */ var _protected_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(1085);
/* harmony import */ var _log_format_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(7653);
/* harmony import */ var _rules_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(1688);
/**
 * The observer log reader and gate evaluator: one streaming pass, memory bounded by the
 * number of distinct violations. Pure: the caller feeds bytes, this reads them as the format
 * (./log-format.ts) says and records what the rules (./rules.ts) say of each event.
 *
 * A log that cannot be fully read and checked never yields a verdict: every structural
 * problem throws a typed Refusal instead ("could not observe" never reads as "observed
 * nothing").
 */







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
};
_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.forEach((f, i) => {
    if (SLOT[f] !== i)
        throw new Error(`SLOT out of step with FIELD_NAMES at ${f}`);
});
const SLOT_BY_NAME = new Map(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.map((f, i) => [f, i]));
const bit = (f) => 1 << SLOT[f];
const bits = (fs) => fs.reduce((m, f) => m | bit(f), 0);
/** Each event kind's own fields (KIND_FIELDS) as field names. */
const KIND_FIELD_NAMES = _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .KIND_FIELDS */ .nH;
const KIND_MASKS = new Map(Object.entries(KIND_FIELD_NAMES).map(([kind, spec]) => [
    kind,
    { required: bits(spec.required), allowed: bits([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .COMMON_FIELDS */ .qC, ...spec.required, ...spec.optional]), spec },
]));
/**
 * Each field name with its closing quote, and the slots its first two of those bytes name (at most
 * two fields share them: `path`, `path_unknown`): a key is a field when its bytes equal that name,
 * so keys are never scanned on their own. Built from FIELD_NAMES.
 */
const QUOTED_FIELD_BYTES = _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.map((f) => Buffer.from(`${f}"`, "latin1"));
const SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
const SECOND_SLOT_BY_KEY_PAIR = new Int8Array(1 << 16).fill(-1);
QUOTED_FIELD_BYTES.forEach((q, i) => {
    const pair = (q[0] << 8) | q[1];
    if (SLOT_BY_KEY_PAIR[pair] === -1)
        SLOT_BY_KEY_PAIR[pair] = i;
    else if (SECOND_SLOT_BY_KEY_PAIR[pair] === -1)
        SECOND_SLOT_BY_KEY_PAIR[pair] = i;
    else
        throw new Error(`three fields start with the same bytes: ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[i]}`);
});
/** Whether the key bytes at `at` (after its opening quote) are the quoted field name `quoted`. */
function keyIs(buf, at, to, quoted) {
    const keyLen = quoted.length;
    if (at + keyLen >= to)
        return false;
    for (let j = 2; j < keyLen; j++)
        if (quoted[j] !== buf[at + j])
            return false;
    return true;
}
/** Constant strings matched by bytes, so the hot path allocates nothing for them. */
class ByteConstants {
    names;
    bytes;
    constructor(names) {
        this.names = names;
        this.bytes = names.map((n) => Buffer.from(n, "utf8"));
    }
    match(buf, start, end) {
        const len = end - start;
        for (let c = 0; c < this.bytes.length; c++) {
            const b = this.bytes[c];
            if (b.length !== len || b[0] !== buf[start])
                continue;
            let j = 1;
            while (j < len && b[j] === buf[start + j])
                j++;
            if (j === len)
                return this.names[c];
        }
        return undefined;
    }
}
const KINDS = new ByteConstants(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_KINDS */ .bz);
/** KIND_MASKS by the kind's place in KINDS: an array read instead of a Map lookup per line. */
const KIND_SPECS = KINDS.names.map((k) => KIND_MASKS.get(k));
const WRITE_OP_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .WRITE_OPS */ .V1]);
const SOURCE_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .EVENT_SOURCES */ .gi]);
const ERRNO_CONSTANTS = new ByteConstants([..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MISSING_TARGET_ERRNOS */ .Vp]);
const T_STR = 1;
const T_NUM = 2;
const T_TRUE = 3;
const T_FALSE = 4;
const T_NULL = 5;
/** A non-empty array of plain strings (no escapes), such as exec's argv. */
const T_STR_ARRAY = 6;
/** What a walk judges by when no envelope is at hand (a footprint): nothing allowed, no network. */
const NOTHING_ALLOWED = {
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
function walkLog(log, envelope, roots = () => []) {
    const events = [];
    const loaded = {
        envelope: envelope ?? NOTHING_ALLOWED,
        hash: "sha256:walked",
        file: log.file,
        lines: new Map(),
    };
    const evaluator = new LogEvaluator(loaded, { file: log.file, roots, sink: (e) => events.push(e), anyEnvelope: true });
    evaluator.push(log.bytes);
    const verdict = evaluator.finish();
    return { file: log.file, meta: evaluator.metaLine(), events, exitCode: verdict.exit_code, verdict };
}
/**
 * The events between meta and end that a log's last line says it has (its `events` counts meta
 * too), or null when that line is not an end line. For a log no walk has judged (a run's result
 * file); it says nothing of whether the log is whole.
 */
function endLineEvents(line) {
    let end;
    try {
        end = JSON.parse(line);
    }
    catch {
        return null;
    }
    if (typeof end !== "object" || end === null)
        return null;
    const { kind, events } = end;
    return kind === "end" && typeof events === "number" && Number.isInteger(events) && events >= 1 ? events - 1 : null;
}
function isEscapedQuote(line, quoteIndex) {
    let backslashes = 0;
    for (let i = quoteIndex - 1; i >= 0 && line.charCodeAt(i) === 0x5c; i--)
        backslashes++;
    return (backslashes & 1) === 1;
}
/**
 * Counts the keys of the outermost object. JSON.parse keeps the last of two equal keys, so
 * comparing this with Object.keys finds duplicates without a second full parse.
 */
function countTopLevelKeys(line) {
    let depth = 0;
    let keys = 0;
    const n = line.length;
    let i = 0;
    while (i < n) {
        const c = line.charCodeAt(i);
        if (c === 0x22) {
            let j = line.indexOf('"', i + 1);
            while (j !== -1 && isEscapedQuote(line, j))
                j = line.indexOf('"', j + 1);
            if (j === -1)
                return -1;
            i = j + 1;
            continue;
        }
        if (c === 0x7b || c === 0x5b)
            depth++;
        else if (c === 0x7d || c === 0x5d)
            depth--;
        else if (c === 0x3a && depth === 1)
            keys++;
        i++;
    }
    return keys;
}
const STRING_QUOTE = 1;
const STRING_STOP = 2;
const STRING_HIGH = 3;
/** What each byte is inside a plain string: 0 for printable ASCII. */
const STRING_BYTE = new Uint8Array(256).map((_, x) => x === 0x22 ? STRING_QUOTE : x === 0x5c || x < 0x20 ? STRING_STOP : x >= 0x80 ? STRING_HIGH : 0);
/**
 * The index of the quote closing a string that starts at `from` and has no escapes or control
 * characters, or -1 when there is none before `to` (the strict path then decides). Whether the
 * string held only ASCII is written to `ascii[slot]` (1 or 0) when it ends.
 */
function plainStringEnd(buf, from, to, ascii, slot) {
    let high = 0;
    for (let j = from; j < to; j++) {
        const x = buf[j];
        const k = STRING_BYTE[x];
        if (k === 0)
            continue;
        if (k === STRING_QUOTE) {
            ascii[slot] = high === 0 ? 1 : 0;
            return j;
        }
        if (k === STRING_STOP)
            return -1;
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
function scanPathTail(buf, from, to) {
    let flags = 0;
    for (let j = from; j < to - 1; j++) {
        if (buf[j] !== 0x2f)
            continue;
        const a = buf[j + 1];
        if (a === 0x2f)
            return TAIL_NEEDS_FOLDING;
        if (a === 0x2e) {
            const b = j + 2 < to ? buf[j + 2] : 0x2f;
            if (b === 0x2f)
                return TAIL_NEEDS_FOLDING;
            if (b === 0x2e && (j + 3 >= to || buf[j + 3] === 0x2f))
                return TAIL_NEEDS_FOLDING;
            if (b === 0x67 && j + 4 < to && buf[j + 3] === 0x69 && buf[j + 4] === 0x74)
                flags = TAIL_HAS_GIT;
        }
    }
    return flags;
}
function firstInvalidUtf8(bytes) {
    for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (b < 0x80)
            continue;
        const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
        if (need < 0)
            return i;
        for (let k = 1; k <= need; k++) {
            const cb = bytes[i + k];
            if (cb === undefined)
                return i;
            if ((cb & 0xc0) !== 0x80)
                return i;
        }
        i += need;
    }
    return bytes.length;
}
function asBuffer(chunk) {
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
/**
 * Judges an observer log as it streams past. Lines in the compact form the observer writes
 * are read straight from the bytes without building objects; any other line (escapes, white
 * space, arrays) takes the strict JSON.parse path. Both paths apply the same rules.
 */
class LogEvaluator {
    /** What the rules judge by: the envelope's, and the run's once its meta line is read. */
    rules;
    rootBytes = [];
    rootHasGit = [];
    anyRoot = false;
    /** Allowed tool names and exact env keys, matched on the line's bytes so an allowed one needs no string. */
    toolBytes;
    envExactBytes;
    hostSets;
    /** Endpoint -> set, for hosts allowed through a set (bounded by the sets' sizes: their members are exact). */
    viaSets = new Map();
    file;
    envelope;
    sink;
    anyEnvelope;
    rootsOf;
    metaObject = null;
    carry = null;
    lineNo = 0;
    meta = null;
    endSeen = false;
    endExit = null;
    useSeq = false;
    canaryBlockOpen = true;
    logPathBytes = null;
    /** Fast-path pre-filter (see mayBeProtected): the protected paths' bytes. */
    protectedPathBytes = [];
    /** Set by writeInsideFast when it returns true: the path holds a `/.git`. */
    pathHasGit = false;
    violations = new Map();
    counts = { write: 0, tool: 0, env: 0, host: 0, exec: 0, syscall: 0, canary: 0 };
    /** The current line: which fields it has, and where (fast path) or what (full path) they are. */
    buf = Buffer.alloc(0);
    mask = 0;
    slow = false;
    vals = new Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length).fill(undefined);
    tag = new Uint8Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    start = new Int32Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    end = new Int32Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    ascii = new Uint8Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    num = new Float64Array(_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr.length);
    constructor(envelope, options) {
        const e = envelope.envelope;
        this.envelope = envelope;
        this.file = options.file;
        this.sink = options.sink ?? null;
        this.anyEnvelope = options.anyEnvelope === true;
        const roots = typeof options.roots === "function" ? [] : options.roots;
        this.rootsOf = typeof options.roots === "function" ? options.roots : null;
        this.rules = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .ruleContext */ .wm)(e, roots);
        this.setRoots(roots);
        // Only names requireString accepts: a match then skips nothing it would have refused.
        const plain = (n) => n !== "" && !n.includes("\u0000");
        this.toolBytes = new ByteConstants(e.allowed_tools.filter(plain));
        this.envExactBytes = new ByteConstants(e.allowed_env.filter((k) => plain(k) && !k.endsWith("*") && !k.startsWith("@")));
        this.hostSets = this.rules.hosts.some((h) => h.set !== undefined);
    }
    setRoots(roots) {
        this.rules = { ...this.rules, roots };
        this.rootBytes = roots.map((r) => Buffer.from(r, "utf8"));
        this.rootHasGit = roots.map((r) => r.includes("/.git"));
        this.anyRoot = roots.includes("/");
    }
    /** The log's meta line as read, once it has been. */
    metaLine() {
        return this.metaObject;
    }
    /** Where the current line stands, for the walk. */
    at(subject) {
        const pid = this.val(SLOT.pid);
        const source = this.constant(SLOT.source, SOURCE_CONSTANTS);
        return { line: this.lineNo, pid: typeof pid === "number" ? pid : undefined, ppid: this.val(SLOT.ppid), source, subject };
    }
    malformed(message, line = this.lineNo) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_MALFORMED", `${this.file}:${line}: ${message}`, {
            file: this.file,
            line,
            hint: "The observer log is written only by `envelope-gate run`; a log that was edited or produced by something else is refused.",
        });
    }
    incomplete(message, line = this.lineNo) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_INCOMPLETE", `${this.file}:${line}: ${message}`, {
            file: this.file,
            line,
            hint: "The run did not finish under the observer (killed, crashed, or the log was cut). Run it again; an incomplete log never passes.",
        });
    }
    checkUtf8(buf, from, to) {
        if (to > from && !(0,node_buffer__WEBPACK_IMPORTED_MODULE_0__.isUtf8)(buf.subarray(from, to))) {
            const region = buf.subarray(from, to);
            const bad = firstInvalidUtf8(region);
            let line = this.lineNo + 1;
            for (let i = 0; i < bad; i++)
                if (region[i] === 0x0a)
                    line++;
            this.malformed("invalid UTF-8", line);
        }
    }
    /** Feeds the next bytes of the log. Throws a Refusal at the first problem. The chunk may be reused afterwards. */
    push(chunk) {
        const buf = asBuffer(chunk);
        let pos = 0;
        if (this.carry !== null) {
            const nl = buf.indexOf(0x0a);
            if (nl === -1) {
                this.carry = Buffer.concat([this.carry, buf]);
                if (this.carry.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                    this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
                return;
            }
            const line = Buffer.concat([this.carry, buf.subarray(0, nl)]);
            this.carry = null;
            if (line.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
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
                if (nl - pos > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                    this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`);
                this.handleLine(buf, pos, nl);
                pos = nl + 1;
            }
        }
        if (pos < buf.length) {
            this.carry = Buffer.from(buf.subarray(pos));
            if (this.carry.length > _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6)
                this.malformed(`line longer than ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_LINE_LENGTH */ .l6} bytes`, this.lineNo + 1);
        }
    }
    /** Ends the stream and returns the verdict, or throws if the log is not whole. */
    finish() {
        if (this.carry !== null && this.carry.length > 0) {
            this.incomplete("the last line is truncated (no newline)", this.lineNo + 1);
        }
        if (this.meta === null)
            this.incomplete("the log is empty: no meta line", 1);
        if (!this.endSeen)
            this.incomplete("the log has no end line", this.lineNo);
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
    handleLine(buf, from, to) {
        const end = to > from && buf[to - 1] === 0x0d ? to - 1 : to;
        if (this.endSeen)
            this.malformed("content after the end line");
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
        }
        else {
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
    scanFlat(buf, from, to) {
        if (to - from < 2 || buf[from] !== 0x7b || buf[to - 1] !== 0x7d)
            return -1;
        if (to - from === 2)
            return 0;
        const { tag, start, end, ascii, num } = this;
        let mask = 0;
        let i = from + 1;
        for (;;) {
            if (buf[i] !== 0x22)
                return -1;
            if (i + 2 >= to)
                return -1;
            const pair = (buf[i + 1] << 8) | buf[i + 2];
            let slot = SLOT_BY_KEY_PAIR[pair];
            if (slot < 0)
                return -1;
            if (!keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot])) {
                slot = SECOND_SLOT_BY_KEY_PAIR[pair];
                if (slot < 0 || !keyIs(buf, i + 1, to, QUOTED_FIELD_BYTES[slot]))
                    return -1;
            }
            const keyLen = QUOTED_FIELD_BYTES[slot].length;
            const b = 1 << slot;
            if ((mask & b) !== 0)
                return -1;
            i += 1 + keyLen;
            if (buf[i] !== 0x3a)
                return -1;
            i++;
            const c = buf[i];
            if (c === 0x22) {
                const j = plainStringEnd(buf, i + 1, to, ascii, slot);
                if (j < 0)
                    return -1;
                tag[slot] = T_STR;
                start[slot] = i + 1;
                end[slot] = j;
                i = j + 1;
            }
            else if (c === 0x5b && buf[i + 1] === 0x22) {
                // A flat array of plain strings; val() parses it when asked.
                let j = i + 1;
                for (;;) {
                    if (buf[j] !== 0x22)
                        return -1;
                    // An array's strings are read again by val(), which needs no ASCII flag.
                    j = plainStringEnd(buf, j + 1, to, ascii, slot);
                    if (j < 0)
                        return -1;
                    j++;
                    if (buf[j] === 0x2c) {
                        j++;
                        continue;
                    }
                    if (buf[j] === 0x5d)
                        break;
                    return -1;
                }
                tag[slot] = T_STR_ARRAY;
                start[slot] = i;
                end[slot] = j + 1;
                i = j + 1;
            }
            else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
                let j = c === 0x2d ? i + 1 : i;
                const digitsStart = j;
                let value = 0;
                while (j < to) {
                    const d = buf[j];
                    if (d < 0x30 || d > 0x39)
                        break;
                    value = value * 10 + (d - 0x30);
                    j++;
                }
                const digits = j - digitsStart;
                if (digits === 0 || digits > 15)
                    return -1;
                if (digits > 1 && buf[digitsStart] === 0x30)
                    return -1;
                const next = buf[j];
                if (next === 0x2e || next === 0x65 || next === 0x45)
                    return -1;
                tag[slot] = T_NUM;
                num[slot] = c === 0x2d ? -value : value;
                i = j;
            }
            else if (c === 0x74 && buf[i + 1] === 0x72 && buf[i + 2] === 0x75 && buf[i + 3] === 0x65) {
                tag[slot] = T_TRUE;
                i += 4;
            }
            else if (c === 0x66 && buf[i + 1] === 0x61 && buf[i + 2] === 0x6c && buf[i + 3] === 0x73 && buf[i + 4] === 0x65) {
                tag[slot] = T_FALSE;
                i += 5;
            }
            else if (c === 0x6e && buf[i + 1] === 0x75 && buf[i + 2] === 0x6c && buf[i + 3] === 0x6c) {
                tag[slot] = T_NULL;
                i += 4;
            }
            else {
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
    parseObject(line) {
        let parsed;
        try {
            parsed = JSON.parse(line);
        }
        catch (err) {
            if (line.trim() === "")
                this.malformed("empty line");
            this.malformed(`not JSON (${err.message})`);
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
            this.malformed("each line must be a JSON object");
        }
        if (countTopLevelKeys(line) !== Object.keys(parsed).length)
            this.malformed("duplicate key in the object");
        return parsed;
    }
    slotsFromParsed(obj) {
        let mask = 0;
        for (const key of Object.keys(obj)) {
            const slot = SLOT_BY_NAME.get(key);
            if (slot === undefined) {
                if (obj.kind === "meta")
                    this.malformed("a second meta line");
                this.malformed(`unknown field "${key}" on a ${typeof obj.kind === "string" ? obj.kind : "line"} event`);
            }
            this.vals[slot] = obj[key];
            mask |= 1 << slot;
        }
        return mask;
    }
    has(slot) {
        return (this.mask & (1 << slot)) !== 0;
    }
    /** A field's value as JSON would give it, or undefined when the line lacks it. */
    val(slot) {
        if ((this.mask & (1 << slot)) === 0)
            return undefined;
        if (this.slow)
            return this.vals[slot];
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
                return JSON.parse(this.buf.toString("utf8", this.start[slot], this.end[slot]));
            default:
                return null;
        }
    }
    /** A string field matched against known constants without allocating; undefined when it is none of them. */
    constant(slot, constants) {
        if ((this.mask & (1 << slot)) === 0)
            return undefined;
        if (this.slow) {
            const v = this.vals[slot];
            return typeof v === "string" && constants.names.includes(v) ? v : undefined;
        }
        if (this.tag[slot] !== T_STR)
            return undefined;
        return constants.match(this.buf, this.start[slot], this.end[slot]);
    }
    isNumber(slot, expected) {
        if (this.slow)
            return this.vals[slot] === expected;
        return this.tag[slot] === T_NUM && this.num[slot] === expected && (this.mask & (1 << slot)) !== 0;
    }
    handleEvent() {
        if (!this.isNumber(SLOT.v, _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae))
            this.malformed(`"v" must be ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae}`);
        const kind = this.constant(SLOT.kind, KINDS);
        if (kind === undefined) {
            const raw = this.val(SLOT.kind);
            if (typeof raw !== "string")
                this.malformed(`"kind" must be a string`);
            this.malformed(`unknown kind "${raw}"`);
        }
        if (kind === "meta")
            this.malformed("a second meta line");
        const spec = KIND_SPECS[KINDS.names.indexOf(kind)];
        if (spec === undefined)
            this.malformed(`unknown kind "${kind}"`);
        const unknown = this.mask & ~spec.allowed;
        if (unknown !== 0)
            this.malformed(`unknown field "${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[31 - Math.clz32(unknown & -unknown)]}" on a ${kind} event`);
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
            if (!this.canaryBlockOpen)
                this.malformed("a canary event after the self-check block");
            this.counts.canary++;
        }
        else {
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
    checkCommon() {
        if (this.useSeq) {
            if (!this.has(SLOT.seq) || !this.isNumber(SLOT.seq, this.lineNo - 1)) {
                this.malformed(`"seq" must be ${this.lineNo - 1} (events out of sequence)`);
            }
        }
        else if (this.has(SLOT.seq)) {
            this.malformed(`"seq" appears, but the meta line has none`);
        }
        if (this.has(SLOT.source) && this.constant(SLOT.source, SOURCE_CONSTANTS) === undefined) {
            this.malformed(`"source" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .EVENT_SOURCES */ .gi].join(", ")}`);
        }
        if (this.has(SLOT.canary) && this.val(SLOT.canary) !== true)
            this.malformed(`"canary" may only be true`);
        if (this.has(SLOT.pid) && !Number.isInteger(this.val(SLOT.pid)))
            this.malformed(`"pid" must be an integer`);
    }
    readMeta(obj) {
        if (obj.v !== _log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae)
            this.malformed(`"v" must be ${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .LOG_VERSION */ .Ae}`);
        if (obj.kind !== "meta")
            this.incomplete("the first line must be the meta line");
        const field = (name) => {
            const value = obj[name];
            if (typeof value !== "string" || value === "")
                this.malformed(`meta needs a non-empty string "${name}"`);
            return value;
        };
        const meta = {
            run_id: field("run_id"),
            envelope_hash: field("envelope_hash"),
            runner: field("runner"),
            started_at: field("started_at"),
            extra: {},
        };
        for (const [k, v] of Object.entries(obj)) {
            if (!["v", "kind", "run_id", "envelope_hash", "runner", "started_at", "seq"].includes(k))
                meta.extra[k] = v;
        }
        if ("seq" in obj) {
            if (obj.seq !== 0)
                this.malformed(`meta "seq" must be 0`);
            this.useSeq = true;
        }
        this.checkObservers(obj.observers);
        if (this.rootsOf !== null)
            this.setRoots(this.rootsOf(obj));
        this.checkWithheld(obj.withheld);
        this.checkRecorder(obj.recorder);
        this.checkReleaseName(obj.envelope_gate);
        const protectedSet = (0,_protected_js__WEBPACK_IMPORTED_MODULE_3__/* .protectedFromMeta */ .UB)(obj.protected, obj.workspace, obj.scratch);
        if (typeof protectedSet === "string")
            this.malformed(protectedSet, 1);
        this.protectedPathBytes = protectedSet.paths.map((p) => Buffer.from(p, "utf8"));
        const logPath = typeof obj.log_path === "string" ? (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(obj.log_path) : null;
        this.logPathBytes = logPath === null ? null : Buffer.from(logPath, "utf8");
        this.rules = { ...this.rules, logPath, protectedSet, ownNetwork: obj.network_enforced === true };
        this.metaObject = obj;
        if (meta.envelope_hash !== this.envelope.hash && !this.anyEnvelope) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_LOG_ENVELOPE_MISMATCH", `${this.file}:1: the log was recorded under ${meta.envelope_hash}, but the checked envelope is ${this.envelope.hash}`, {
                file: this.file,
                line: 1,
                hint: "Check the log against the envelope it was recorded under, or record it again under this envelope.",
            });
        }
        this.meta = meta;
    }
    /** `meta.recorder` (optional): `{"name": "ebpf" | "strace", "fallback"?: "<why the eBPF recorder did not run>"}`. */
    checkRecorder(recorder) {
        if (recorder === undefined)
            return;
        const ok = typeof recorder === "object" &&
            recorder !== null &&
            !Array.isArray(recorder) &&
            Object.keys(recorder).every((k) => k === "name" || k === "fallback") &&
            (recorder.name === "ebpf" || recorder.name === "strace") &&
            (recorder.fallback === undefined ||
                (recorder.name === "strace" && typeof recorder.fallback === "string" && recorder.fallback !== ""));
        if (!ok)
            this.malformed(`meta "recorder" must be {"name": "ebpf" or "strace", "fallback"?: a non-empty reason (strace only)}`, 1);
    }
    /** `meta.envelope_gate` (optional): the release that recorded the log, a semantic version without a "v". */
    checkReleaseName(release) {
        if (release === undefined)
            return;
        if (typeof release !== "string" || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(release)) {
            this.malformed(`meta "envelope_gate" must be the release that recorded the log, a version such as "1.0.0"`, 1);
        }
    }
    /** `meta.withheld` (optional): the caller's environment keys the run did not pass, names only. */
    checkWithheld(withheld) {
        if (withheld === undefined)
            return;
        if (!Array.isArray(withheld) ||
            !withheld.every((k) => typeof k === "string" && k !== "" && !k.includes("=")) ||
            new Set(withheld).size !== withheld.length) {
            this.malformed(`meta "withheld" must be an array of distinct environment key names`, 1);
        }
    }
    /**
     * Observation is policy: a log without the process-level observer passes only when the
     * hash-pinned envelope itself allows it (`"observation": "node"`). A flag on the runner never does.
     */
    checkObservers(observers) {
        if (!Array.isArray(observers) || observers.length === 0 || !observers.every((o) => o === "node" || o === "process")) {
            this.malformed(`meta needs "observers": a non-empty array of "node" and "process"`, 1);
        }
        if (observers.includes("process") || this.anyEnvelope)
            return;
        if (this.envelope.envelope.observation === "node" && observers.includes("node"))
            return;
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVATION_PARTIAL", `${this.file}:1: the log was recorded with only ${JSON.stringify(observers)} observing: the process-level observer did not run, so nothing outside Node was seen`, {
            file: this.file,
            line: 1,
            hint: 'Record the run under full observation (without --node-only). An envelope that accepts Node-only observation says so itself: "observation": "node".',
        });
    }
    readEnd() {
        const events = this.val(SLOT.events);
        if (!Number.isInteger(events))
            this.malformed(`end "events" must be an integer`);
        const exit = this.val(SLOT.exit_code);
        if (exit !== null && !Number.isInteger(exit))
            this.malformed(`end "exit_code" must be an integer or null`);
        if (events !== this.lineNo - 1) {
            this.incomplete(`end says ${String(events)} lines came before it, but ${this.lineNo - 1} did`);
        }
        this.endSeen = true;
        this.endExit = exit;
    }
    record(rule, subject) {
        const id = `${rule}:${subject}`;
        const existing = this.violations.get(id);
        if (existing) {
            existing.count++;
        }
        else {
            this.violations.set(id, { id, rule, subject, first_line: this.lineNo, count: 1 });
        }
    }
    requireString(slot) {
        const value = this.val(slot);
        if (typeof value !== "string" || value === "")
            this.malformed(`"${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" must be a non-empty string`);
        if (value.includes("\u0000"))
            this.malformed(`"${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" contains a NUL character`);
        return value;
    }
    /** Records what `rule` says of this line, if anything. */
    judged(rule, subject) {
        if (rule !== null)
            this.record(rule, subject);
    }
    writePath() {
        const folded = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.path));
        if (folded === null)
            this.malformed(`write "path" must be absolute`);
        return folded;
    }
    onWrite(canary) {
        this.counts.write++;
        if (this.constant(SLOT.op, WRITE_OP_CONSTANTS) === undefined) {
            this.malformed(`write "op" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .WRITE_OPS */ .V1].join(", ")}`);
        }
        if (this.has(SLOT.path_unknown))
            this.pathUnknown();
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
            const from = this.start[SLOT.path];
            const to = this.end[SLOT.path];
            // The path as the bytes give it is folded already when this says where it is.
            const inside = this.writeInsideFast(from, to);
            if (inside !== undefined) {
                if (canary)
                    return;
                const plain = inside && !this.mayBeProtected(from, to);
                if (plain && this.sink === null)
                    return;
                const path = this.val(SLOT.path);
                this.wrote(path, "done", plain ? null : (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeWrite */ .RL)(this.rules, path, "done", inside));
                return;
            }
        }
        this.judgeWriteLine("done", canary);
    }
    /** A write the rules have judged: recorded if it breaks one, and handed to the walk. */
    wrote(path, outcome, verdict) {
        this.judged(verdict, path);
        if (this.sink !== null)
            this.sink({ ...this.at(path), kind: "write", op: String(this.val(SLOT.op)), outcome, verdict });
    }
    /** A line of the effects check: what the filesystem shows, never a call that failed or was refused. */
    onEffect() {
        if (this.has(SLOT.errno) || this.has(SLOT.ok))
            this.malformed(`"source": "effects" never has "errno" or "ok"`);
        const path = this.writePath();
        this.wrote(path, "effect", (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeEffect */ .l6)(this.rules, path));
    }
    judgeWriteLine(outcome, canary) {
        const path = this.writePath();
        if (!canary)
            this.wrote(path, outcome, (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeWrite */ .RL)(this.rules, path, outcome));
    }
    /**
     * A write whose file the recorder could not know (`path_unknown`): the log is refused, whatever
     * the path it names, since judging that path could pass a write to another file. Canaries too.
     */
    pathUnknown() {
        const reason = this.val(SLOT.path_unknown);
        if (typeof reason !== "string" || !_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .PATH_UNKNOWN_REASON */ .kX.test(reason)) {
            this.malformed(`write "path_unknown" must be a reason: lower-case letters, digits and "-"`);
        }
        if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process")
            this.malformed(`write "path_unknown" comes only from the process observer`);
        const path = this.requireString(SLOT.path);
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .Refusal */ .P_("OBSERVER_PATH_UNKNOWN", `${this.file}:${this.lineNo}: the process recorder could not know which file this ${String(this.val(SLOT.op))} acted on (${reason}; the program named ${JSON.stringify(path)})`, {
            file: this.file,
            line: this.lineNo,
            hint: "The run made a change whose path the recorder cannot tell exactly, so no verdict can be given on it. Avoid the construct named (a change through /proc/<pid>/fd or /dev/fd names), or record the run with the eBPF recorder.",
        });
    }
    /**
     * A write call the kernel failed with ENOENT or ENOTDIR: only the process observer's word counts
     * (it reads the kernel's answer).
     */
    checkMissingTarget() {
        if (this.constant(SLOT.errno, ERRNO_CONSTANTS) === undefined) {
            this.malformed(`write "errno" must be one of ${[..._log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .MISSING_TARGET_ERRNOS */ .Vp].join(", ")}`);
        }
        if (this.constant(SLOT.source, SOURCE_CONSTANTS) !== "process")
            this.malformed(`write "errno" comes only from the process observer`);
        if (this.has(SLOT.ok))
            this.malformed(`a write with "errno" carries no "ok"`);
    }
    /**
     * A cheap superset of isProtectedWrite on a folded path's bytes: it starts with a protected
     * path, or holds a `/.git` (the lexical rule). Only a path that passes is judged as a string.
     */
    mayBeProtected(from, to) {
        if (this.pathHasGit)
            return true;
        const buf = this.buf;
        const len = to - from;
        for (const p of this.protectedPathBytes) {
            // From the end: paths under one root share their start.
            let k = p.length - 1;
            if (k >= len)
                continue;
            while (k >= 0 && p[k] === buf[from + k])
                k--;
            if (k < 0)
                return true;
        }
        return false;
    }
    /**
     * Root containment on the raw bytes of an already-folded path (UTF-8 keeps prefixes and `/`
     * intact, so this equals the string comparison). Returns undefined when the path needs
     * folding or is not absolute, leaving it to the string path.
     */
    writeInsideFast(from, to) {
        const buf = this.buf;
        const len = to - from;
        if (len === 0 || buf[from] !== 0x2f)
            return undefined;
        if (len > 1 && buf[to - 1] === 0x2f)
            return undefined;
        const logPath = this.logPathBytes;
        // Equal to the folded log path means folded already.
        if (logPath !== null && logPath.length === len && buf.compare(logPath, 0, len, from, to) === 0)
            return false;
        if (this.anyRoot)
            return this.insideRoot(from, to, false);
        for (let r = 0; r < this.rootBytes.length; r++) {
            const root = this.rootBytes[r];
            const rl = root.length;
            if (len < rl || (len > rl && buf[from + rl] !== 0x2f))
                continue;
            let k = rl - 1;
            while (k >= 0 && root[k] === buf[from + k])
                k--;
            // A folded root has no `.`, `..` or empty segment, so only what follows it can need folding;
            // and a `/.git` cannot straddle its end, where the path has a `/`.
            if (k < 0)
                return this.insideRoot(from + rl, to, this.rootHasGit[r]);
        }
        return (scanPathTail(buf, from, to) & TAIL_NEEDS_FOLDING) !== 0 ? undefined : false;
    }
    insideRoot(tailFrom, to, rootHasGit) {
        const flags = scanPathTail(this.buf, tailFrom, to);
        if ((flags & TAIL_NEEDS_FOLDING) !== 0)
            return undefined;
        this.pathHasGit = rootHasGit || (flags & TAIL_HAS_GIT) !== 0;
        return true;
    }
    /** Whether a string field, read from the bytes, is one of `constants` (false on the strict path). */
    isFastConstant(slot, constants) {
        return (!this.slow &&
            (this.mask & (1 << slot)) !== 0 &&
            this.tag[slot] === T_STR &&
            constants.match(this.buf, this.start[slot], this.end[slot]) !== undefined);
    }
    onTool(canary) {
        this.counts.tool++;
        if (this.sink === null && this.isFastConstant(SLOT.name, this.toolBytes))
            return;
        const name = this.requireString(SLOT.name);
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeTool */ .y7)(this.rules, name);
        this.judged(verdict, name);
        if (this.sink !== null)
            this.sink({ ...this.at(name), kind: "tool", verdict });
    }
    onEnv(canary) {
        this.counts.env++;
        if (this.sink === null && this.isFastConstant(SLOT.key, this.envExactBytes))
            return;
        const key = this.requireString(SLOT.key);
        if (canary)
            return;
        const source = this.constant(SLOT.source, SOURCE_CONSTANTS);
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeEnv */ .r0)(this.rules, key, source);
        this.judged(verdict, key);
        if (this.sink !== null) {
            this.sink({ ...this.at(key), kind: "env", op: this.val(SLOT.op), runtime: (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .isRuntimeOwnRead */ .P9)(key, source), verdict });
        }
    }
    onHost(canary) {
        this.counts.host++;
        const host = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .hostName */ .Sm)(this.requireString(SLOT.host));
        const port = this.val(SLOT.port);
        if (port !== undefined && port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) {
            this.malformed(`host "port" must be an integer from 0 to 65535`);
        }
        for (const slot of [SLOT.bytes_in, SLOT.bytes_out]) {
            const bytes = this.val(slot);
            if (bytes !== undefined && (!Number.isSafeInteger(bytes) || bytes < 0)) {
                this.malformed(`host "${_log_format_js__WEBPACK_IMPORTED_MODULE_4__/* .FIELD_NAMES */ .Yr[slot]}" must be a non-negative integer`);
            }
        }
        if (canary)
            return;
        const p = (port ?? null);
        const via = this.val(SLOT.via);
        const rule = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeHost */ .Ii)(this.rules, host, p, via);
        const set = rule === null && this.hostSets ? (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .hostViaSet */ .TI)(this.rules, host, p) : null;
        if (rule !== null) {
            this.record(rule, (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(host, p));
        }
        else if (set !== null) {
            const endpoint = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(host, p);
            if (!this.viaSets.has(endpoint))
                this.viaSets.set(endpoint, set);
        }
        if (this.sink !== null) {
            // The name judgeHost also allows it by: the one its hooks connected by, where they said.
            const name = typeof via === "string" && via !== "" ? (0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .normalizeHost */ .cS)(via) : host;
            this.sink({
                ...this.at((0,_hosts_js__WEBPACK_IMPORTED_MODULE_2__/* .formatEndpoint */ .T0)(name, p)),
                kind: "host",
                host,
                port: p,
                name,
                ownLoopback: rule !== "docker_refused" && (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .isRunOwnLoopback */ .tv)(this.rules, host),
                viaSet: set,
                verdict: rule,
            });
        }
    }
    onSyscall(canary) {
        this.counts.syscall++;
        const name = this.requireString(SLOT.name);
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeSyscall */ .te)();
        this.record(verdict, name);
        if (this.sink !== null)
            this.sink({ ...this.at(name), kind: "syscall", verdict });
    }
    onExec(canary) {
        this.counts.exec++;
        const path = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.path));
        if (path === null)
            this.malformed(`exec "path" must be absolute`);
        // The byte path has already read a T_STR_ARRAY as strings.
        if (this.slow || this.tag[SLOT.argv] !== T_STR_ARRAY) {
            const argv = this.val(SLOT.argv);
            if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
                this.malformed(`exec "argv" must be an array of strings`);
            }
        }
        const jailPid = this.val(SLOT.jail_pid);
        if (jailPid !== undefined && (!Number.isInteger(jailPid) || jailPid <= 0)) {
            this.malformed(`exec "jail_pid" must be a positive integer`);
        }
        let interpreter = null;
        if (this.has(SLOT.interpreter)) {
            interpreter = (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .foldPath */ .tu)(this.requireString(SLOT.interpreter));
            if (interpreter === null)
                this.malformed(`exec "interpreter" must be absolute`);
        }
        if (canary)
            return;
        const verdict = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeExec */ .TN)(this.rules, path);
        this.judged(verdict, path);
        // A script's interpreter ran too: judged as any command, by its own path.
        const interpreted = interpreter === null ? null : (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .judgeExec */ .TN)(this.rules, interpreter);
        if (interpreter !== null)
            this.judged(interpreted, interpreter);
        if (this.sink !== null) {
            const argv = this.val(SLOT.argv);
            const entry = (0,_rules_js__WEBPACK_IMPORTED_MODULE_5__/* .commandEntry */ .Wv)(path, argv);
            const pid = jailPid;
            this.sink({ ...this.at(entry), kind: "exec", path, argv, jailPid: pid, verdict });
            if (interpreter !== null)
                this.sink({ ...this.at(interpreter), kind: "exec", path: interpreter, argv, jailPid: pid, interprets: path, verdict: interpreted });
        }
    }
}


/***/ }),

/***/ 6706:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   D4: () => (/* binding */ plainTitle),
/* harmony export */   F: () => (/* binding */ mdFence),
/* harmony export */   YF: () => (/* binding */ mdLink),
/* harmony export */   ZD: () => (/* binding */ escapeHtml),
/* harmony export */   _n: () => (/* binding */ clipMarkdown),
/* harmony export */   bC: () => (/* binding */ mdText),
/* harmony export */   v7: () => (/* binding */ safeHref),
/* harmony export */   wh: () => (/* binding */ plainText),
/* harmony export */   xs: () => (/* binding */ mdCode)
/* harmony export */ });
/**
 * Attacker-controlled strings where a reviewer reads them. Pure.
 *
 * Violation subjects, PR file names, property details (command output), runner.json fields,
 * branch names, ledger cells and error messages that quote input all come from the pull request
 * or from an evidence bundle it produced. Each goes through exactly one of these, chosen by how
 * GitHub shows the place it lands:
 *
 * - `mdText`: inline text in GitHub-flavoured markdown with HTML (check-run summary and text, job
 *   summary, PR body): table cells, list items, headings, paragraphs.
 * - `mdCode`: the same text as an inline code span.
 * - `mdFence`: lines shown verbatim in a fenced code block.
 * - `plainText`: places GitHub shows as plain text (annotation title and message, check-run title).
 * - `plainTitle`: plain text that GitHub still links (PR title, commit message): mentions and
 *   issue references are broken as in `mdText`.
 * - `escapeHtml`: the App's HTML status page.
 *
 * All of them show characters that change how text reads without showing themselves (zero-width,
 * bidi controls, control characters, Unicode spaces other than U+0020) as `\u{XXXX}` text, so a
 * reviewer sees that they are there; newlines and tabs are flattened to a space.
 */
/**
 * Inserted after `@` and inside `#123`/`GH-123`: ZERO WIDTH SPACE, as the entity in markdown.
 * GitHub finds mentions and issue references in the rendered text (after entities are decoded),
 * as `@` then a login character and `#` then a digit. U+200B is neither, so `@&#8203;team` renders
 * as "@", an invisible U+200B, then "team", which notifies nobody, and `#&#8203;12` links no issue (nor closes it through a
 * "fixes #12" in a merged PR or commit). An entity for `@` itself (`&#64;`) would not do: it is
 * decoded before GitHub looks, and a backslash escape (`\@`) neither. This is what Dependabot and
 * Renovate insert for the same reason.
 */
const BREAK_ENTITY = "&#8203;";
const BREAK_CHAR = "\u200b";
/** Code points shown as `\u{XXXX}`: controls, zero-width, bidi, invisible fillers and odd spaces. */
const INVISIBLE = 
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- one code point at a time, on purpose
/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;
/** Newlines and tabs: flattened to one space where text is inline. */
const FLATTEN = /^[\t\n\r]$/;
/** ASCII punctuation that starts or ends a markdown construct anywhere in a line. */
const MD_ALWAYS = new Set(["\\", "`", "*", "_", "~", "[", "]", "(", ")", "!", "<", ">", "&", "|", ":", "#"]);
/** The visible stand-in of an invisible code point. */
function visibleCodePoint(cp) {
    return `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}`;
}
/** Code points of `s`, lone surrogates kept as their own code point. */
function codePoints(s) {
    return Array.from(s);
}
function isInvisible(ch) {
    return INVISIBLE.test(ch);
}
/** Joins units, cutting whole units only, with `…` when something was left out. */
function joinClipped(units, max) {
    const all = units.join("");
    if (max === undefined || all.length <= max)
        return all;
    let out = "";
    for (const u of units) {
        if (out.length + u.length > max - 1)
            break;
        out += u;
    }
    return `${out}…`;
}
/** Plain text for places GitHub does not render as markdown: invisible characters shown, lines flattened. */
function plainText(s, max) {
    const units = codePoints(s).map((ch) => (FLATTEN.test(ch) ? " " : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch));
    return joinClipped(units, max);
}
/**
 * Plain text that GitHub still scans for mentions and issue references (PR titles, commit
 * messages): as `plainText`, with a raw U+200B after `@` and inside `#123` / `GH-123`.
 */
function plainTitle(s, max) {
    const chars = codePoints(s);
    const units = chars.map((ch, i) => {
        if (FLATTEN.test(ch))
            return " ";
        if (isInvisible(ch))
            return visibleCodePoint(ch.codePointAt(0) ?? 0);
        if (ch === "@")
            return `@${BREAK_CHAR}`;
        if (refStart(chars, i))
            return `${ch}${BREAK_CHAR}`;
        return ch;
    });
    return joinClipped(units, max);
}
/** `#` before a digit, or the `-` of `GH-` before a digit: where GitHub would link an issue. */
function refStart(chars, i) {
    const next = chars[i + 1] ?? "";
    if (!/^[0-9]$/.test(next))
        return false;
    if (chars[i] === "#")
        return true;
    return chars[i] === "-" && /^gh$/i.test(`${chars[i - 2] ?? ""}${chars[i - 1] ?? ""}`);
}
/**
 * Inline markdown text that renders as exactly the characters given (invisible ones shown), with
 * no element, attribute, link, image, mention, issue reference, emphasis, code, math, heading or
 * other block from it, wherever an inline string goes: a table cell, a list item, a heading, a
 * paragraph, the start of a line. `max` bounds the escaped length; the cut falls between whole
 * escapes and is marked with `…`.
 */
function mdText(s, max) {
    const chars = codePoints(s);
    const units = [];
    const leadingDigits = /^[0-9]{1,9}(?=[.)])/.exec(s)?.[0].length ?? -1;
    for (let i = 0; i < chars.length; i++) {
        const ch = chars[i];
        const first = i === 0;
        const last = i === chars.length - 1;
        let unit;
        if (FLATTEN.test(ch) || ch === " ") {
            // A space that opens or closes the string could indent a code block or end a line with a
            // hard break: an entity renders the same space and is neither.
            unit = first || last ? "&#32;" : " ";
        }
        else if (isInvisible(ch))
            unit = `\\${visibleCodePoint(ch.codePointAt(0) ?? 0)}`;
        else if (ch === "@")
            unit = `@${BREAK_ENTITY}`;
        else if (refStart(chars, i))
            unit = ch === "#" ? `\\#${BREAK_ENTITY}` : `-${BREAK_ENTITY}`;
        // GitHub's math: a backslash does not escape `$` outside an expression; a span does (GitHub's docs).
        else if (ch === "$")
            unit = "<span>$</span>";
        else if (MD_ALWAYS.has(ch))
            unit = `\\${ch}`;
        // Block starts: list items, setext underlines, ordered lists.
        else if (first && (ch === "-" || ch === "+" || ch === "="))
            unit = `\\${ch}`;
        else if (i === leadingDigits && ch === ".")
            unit = "\\.";
        // `www.` starts a GFM autolink literal; `http://` is broken by the escaped `:`.
        else if (ch === "." && /^www$/i.test(chars.slice(Math.max(0, i - 3), i).join("")))
            unit = "\\.";
        else
            unit = ch;
        units.push(unit);
    }
    return joinClipped(units, max);
}
/**
 * An inline code span showing `s` verbatim (invisible characters shown, lines flattened), whatever
 * backticks it holds: fenced by a backtick run longer than any inside, padded with a space where
 * it starts or ends with a backtick or a space (GFM strips one from each side). In a table cell
 * (`inTable`), `|` is written `\|`, which the table reads as a pipe of the cell's content.
 * `max` bounds the shown characters (not the fence).
 */
function mdCode(s, options = {}) {
    const shown = plainText(s, options.max);
    if (shown === "")
        return "";
    // A table splits its row before it reads code spans, and `\\|` there is an escaped backslash
    // then a cell's end: such text is shown as escaped text instead, which keeps every character.
    if (options.inTable && /\\\|/.test(shown))
        return mdText(s, options.max);
    const content = options.inTable ? shown.replace(/\|/g, "\\|") : shown;
    const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    const pad = /^[` ]|[` ]$/.test(content) ? " " : "";
    return `${fence}${pad}${content}${pad}${fence}`;
}
/** A fenced code block showing `text`'s lines verbatim (invisible characters shown), whatever fences they hold. */
function mdFence(text, info = "") {
    const lines = text.split(/\r\n|\r|\n/).map((line) => codePoints(line)
        .map((ch) => (ch !== "\t" && isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
        .join(""));
    const longest = Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+|~+/g)].map((m) => m[0].length)));
    const fence = "`".repeat(Math.max(3, longest + 1));
    return [`${fence}${info}`, ...lines, fence].join("\n");
}
/**
 * Cuts a markdown document to `max` characters at a line boundary, so no escape, entity, code
 * span or table row is cut in half, and appends `tail`. A document whose first line is already too
 * long keeps only the tail.
 */
function clipMarkdown(md, max, tail = "") {
    if (md.length <= max)
        return md;
    const room = Math.max(0, max - tail.length);
    const cut = md.lastIndexOf("\n", room);
    return `${cut <= 0 ? "" : md.slice(0, cut)}${tail}`.slice(0, max);
}
/**
 * Text in HTML (element content and quoted attribute values): `& < > " '` as entities, and the
 * invisible characters shown as in `plainText` (a bidi control on the status page would reorder
 * what an operator reads).
 */
function escapeHtml(v) {
    return codePoints(String(v ?? ""))
        .map((ch) => (/[&<>"']/.test(ch) ? `&#${ch.charCodeAt(0)};` : isInvisible(ch) ? visibleCodePoint(ch.codePointAt(0) ?? 0) : ch))
        .join("");
}
/** An address safe to put in an `href`: http(s) only, anything else is no link. */
function safeHref(url) {
    if (typeof url !== "string")
        return null;
    try {
        const u = new URL(url);
        return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
    }
    catch {
        return null;
    }
}
/**
 * A markdown link with an escaped label, to an http(s) address only (percent-encoding what could
 * end the destination); anything else is the label alone, not a link.
 */
function mdLink(label, url) {
    const href = safeHref(url);
    const text = mdText(label);
    if (href === null)
        return text;
    const dest = href.replace(/[()<>\s\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
    return `[${text}](${dest})`;
}


/***/ }),

/***/ 996:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   JQ: () => (/* binding */ shownAscii),
/* harmony export */   Jw: () => (/* binding */ familyApart),
/* harmony export */   dC: () => (/* binding */ refusedUnneeded),
/* harmony export */   ij: () => (/* binding */ keyApart),
/* harmony export */   lO: () => (/* binding */ rootApart),
/* harmony export */   pk: () => (/* binding */ avoidingKey),
/* harmony export */   yr: () => (/* binding */ installDirOf)
/* harmony export */ });
/* unused harmony exports CREDENTIAL_KEY, MACHINE_KEY */
/* harmony import */ var _env_sets_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(20);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6107);
/**
 * What a proposal (`suggest`, the audit summary's suggestion, the App's envelope PR) never allows,
 * in one table, each row with the reason printed beside what it keeps apart:
 * - keys that name a credential, carry one (an askpass program, git's configuration from the
 *   environment, a credentials file), name the machine or the run, or control a program (what it
 *   loads or runs, whether it checks TLS), and keys outside printable ASCII;
 * - families (`PREFIX*`) that would cover a program-control key (their keys are proposed exactly);
 * - roots under the system's directories, a tool cache or another program's install directory,
 *   and the directories of writes the jail refused in a run that exited 0 (it did not need them).
 * A pattern or a set of an envelope never matches a key of the table either (envMatcher): such a
 * key is let in only by a reviewer who lists it exactly. Pure.
 */


/**
 * A key that names a credential. Besides the names that say so, the keys whose values are
 * credentials by convention: passphrases and short password names (`GPG_PASSPHRASE`, `MYSQL_PWD`,
 * `SMTP_PASS`), JWTs (GitLab's `CI_JOB_JWT`), DSNs, webhooks and connection strings, licence keys,
 * git's extra headers, logins (`SONAR_LOGIN` is SonarQube's token), and the URLs that carry a
 * password or a job token (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, GitLab's `CI_REPOSITORY_URL`).
 */
const CREDENTIAL_KEY = new RegExp([
    "SECRET|TOKEN|PASSW(?:OR)?D|PASSPHRASE|(?:^|_)PASS(?:_|$)|_PWD$|CREDENTIAL|(?:^|_)CREDS(?:_|$)|PRIVATE",
    "(?:^|_)(?:API_?)?KEYS?(?:_|$)|APIKEY|COOKIE|SESSION|(?:^|_)PAT(?:_|$)|(?:^|_)LOGIN(?:_|$)",
    "JWT|DSN|WEBHOOK(?:_?UR[LI])?$|CONN(?:ECTION)?_?STR|LICENSE|EXTRAHEADER",
    "(?:^|_)(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|MYSQL|CI_REPOSITORY)_UR[LI]$",
].join("|"), "i");
/**
 * Authentication, by name (`NPM_AUTH`, npm's `_auth`, `GOAUTH`, `OAUTH_*`, `AUTHORIZATION`), but
 * not a git author (`GIT_AUTHOR_NAME`) nor `UNAUTHORIZED` (NODE_TLS_REJECT_UNAUTHORIZED is a TLS
 * switch, kept apart for that).
 */
const AUTH_KEY = /(?<!UN)AUTH(?!ORS?(?:_|$))/i;
/**
 * A key that names the machine or the runner on it (the runner's name, its tracking id, the
 * image, the host name, a CI agent's name or id, systemd's per-invocation ids): PR code that could
 * read it could make a test fail on one runner's machine only, and so pick the verdicts of the two
 * runs a freeze compares. Inside the jail `HOSTNAME` and `HOST` carry the jail's fixed hostname.
 */
const MACHINE_KEY = /^(?:RUNNER_(?:NAME|TRACKING_ID|ENVIRONMENT)|ImageOS|ImageVersion|HOSTNAME|HOST|COMPUTERNAME|NODE_NAME|AGENT_(?:NAME|MACHINENAME|ID)|CI_RUNNER_(?:ID|DESCRIPTION|TAGS|VERSION|REVISION|EXECUTABLE_ARCH)|BUILDKITE_AGENT_(?:NAME|ID)|INVOCATION_ID|JOURNAL_STREAM)$/;
/** Program-control keys by exact name: each makes a program load or run what its value names. */
const PROGRAM_CONTROL_KEYS = [
    "NODE_OPTIONS",
    "NODE_REPL_EXTERNAL_MODULE",
    "NODE_PATH",
    "NODE_ICU_DATA",
    "ELECTRON_RUN_AS_NODE",
    "PYTHONSTARTUP",
    "PYTHONINSPECT",
    "PYTHONBREAKPOINT",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONUSERBASE",
    "PYTHONEXECUTABLE",
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "PERL5OPT",
    "PERL5DB",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "JAVA_OPTS",
    "MAVEN_OPTS",
    "MAVEN_ARGS",
    "GRADLE_OPTS",
    "SBT_OPTS",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PS4",
    "PROMPT_COMMAND",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTC",
    "RUSTDOC",
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "GOFLAGS",
    "GOTOOLCHAIN",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_PROXY_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "GIT_DIR",
    "GIT_COMMON_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_ALLOW_PROTOCOL",
    "GIT_PROTOCOL_FROM_USER",
    "YARN_YARN_PATH",
    "YARN_PLUGINS",
    "YARN_ENABLE_SCRIPTS",
    "GCONV_PATH",
    "OPENSSL_CONF",
    "OPENSSL_ENGINES",
    "OPENSSL_MODULES",
    "DOTNET_STARTUP_HOOKS",
    "DOTNET_ADDITIONAL_DEPS",
    "LUA_INIT",
    "LUA_PATH",
    "LUA_CPATH",
    "PHP_INI_SCAN_DIR",
    "PHPRC",
    "DOCKER_HOST",
    "DOCKER_CONTEXT",
    "UV_ENV_FILE",
    "UV_PYTHON",
    "PIP_PYTHON",
    "PIP_REQUIREMENT",
    "PIP_CONSTRAINT",
    "PIP_KEYRING_PROVIDER",
    "YARN_INJECT_ENVIRONMENT_FILES",
    "GIT_TRACE_REDACT",
    "GOPACKAGESDRIVER",
    "GODEBUG",
    "JAVACMD",
    "MAVEN_CONFIG",
    "MAVEN_DEBUG_OPTS",
    "GRADLE_USER_HOME",
    "HELM_PLUGINS",
    "NUGET_PLUGIN_PATHS",
    "TF_REATTACH_PROVIDERS",
    "KUBE_EDITOR",
    "KUBECTL_EXTERNAL_DIFF",
    "CLOUDSDK_PYTHON",
    "BUNDLE_GEMFILE",
    // npm reads its configuration from npm_config_<name>, in any case (npm_config_shell, NPM_CONFIG_SHELL).
    "npm_config_node_options",
    "npm_config_script_shell",
    "npm_config_shell",
    "npm_config_git",
    "npm_config_node_gyp",
    "npm_config_onload_script",
    "npm_config_editor",
    "npm_config_browser",
    "npm_config_viewer",
    "npm_config_ignore_scripts",
];
/**
 * Program-control keys by prefix: the dynamic loader's, bash's exported functions (`BASH_FUNC_f%%`),
 * .NET's profilers, and cargo's compilers, wrappers, runners and linkers.
 */
const PROGRAM_CONTROL_PREFIXES = [
    "LD_",
    "DYLD_",
    "BASH_FUNC_",
    "CORECLR_PROFILER",
    "COR_PROFILER",
    "COMPlus_",
    "DOTNET_AltJit",
    "TF_CLI_ARGS",
];
const CARGO_PROGRAM_KEY = /^CARGO_(?:BUILD_(?:RUSTC(?:_WRAPPER|_WORKSPACE_WRAPPER)?|RUSTDOC|RUSTFLAGS|RUSTDOCFLAGS)|ENCODED_RUSTFLAGS|ENCODED_RUSTDOCFLAGS|TARGET_[A-Za-z0-9_]+_(?:RUNNER|LINKER|RUSTFLAGS))$/;
/**
 * Keys that turn off a program's TLS certificate checks or name the certificates it trusts (a CA
 * of the writer's, a registry over plain HTTP, a checksum database turned off).
 */
const TLS_SWITCHES = [
    "NODE_TLS_REJECT_UNAUTHORIZED",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_NO_VERIFY",
    "GIT_SSL_CAINFO",
    "GIT_SSL_CAPATH",
    "GIT_SSL_CERT",
    "PYTHONHTTPSVERIFY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "CURL_CA_BUNDLE",
    "REQUESTS_CA_BUNDLE",
    "AWS_CA_BUNDLE",
    "PIP_TRUSTED_HOST",
    "PIP_CERT",
    "PIP_CLIENT_CERT",
    "UV_INSECURE_HOST",
    "YARN_ENABLE_STRICT_SSL",
    "YARN_CA_FILE_PATH",
    "YARN_HTTPS_CA_FILE_PATH",
    "YARN_UNSAFE_HTTP_WHITELIST",
    "CARGO_HTTP_CAINFO",
    "CARGO_HTTP_CHECK_REVOKE",
    "UV_INSECURE_NO_ZIP_VALIDATION",
    "UV_PYTHON_DOWNLOADS_JSON_URL",
    "YARN_CHECKSUM_BEHAVIOR",
    "HELM_KUBEINSECURE_SKIP_TLS_VERIFY",
    "HELM_KUBECAFILE",
    "CONDA_SSL_VERIFY",
    "BUNDLE_DISABLE_CHECKSUM_VALIDATION",
    "DOCKER_CONTENT_TRUST",
    "DOCKER_CERT_PATH",
    "DOCKER_TLS_VERIFY",
    "BUNDLE_SSL_CA_CERT",
    "BUNDLE_SSL_VERIFY_MODE",
    "GOINSECURE",
    "GOSUMDB",
    "GONOSUMDB",
    "GONOSUMCHECK",
    "GOPRIVATE",
    "npm_config_strict_ssl",
    "npm_config_cafile",
    "npm_config_ca",
    "npm_config_cert",
];
/** A key that names the certificates a tool trusts, by its words (`HTTPLIB2_CA_CERTS`, `GRPC_DEFAULT_SSL_ROOTS_FILE_PATH`, `NIX_SSL_CERT_FILE`). */
const CA_KEY = /(?:^|_)(?:CA_(?:BUNDLE|CERTS?|FILE|INFO|PATH)|CAINFO|CAPATH|CAFILE|SSL_ROOTS_FILE_PATH|SSL_CERT_(?:FILE|DIR))(?:_|$)|(?:^|_)CA_CERTS?_FILE$|(?:^|_)KUBECAFILE$/i;
/** Credential carriers by exact name: a file, socket or agent credentials are read or used through. */
const CARRIER_KEYS = [
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "SSH_AUTH_SOCK",
    "GNUPGHOME",
    "GPG_AGENT_INFO",
    "NETRC",
    "DOCKER_CONFIG",
    "KUBECONFIG",
    "CLOUDSDK_CONFIG",
    "AWS_CONFIG_FILE",
    "AWS_PROFILE",
    "PIP_CONFIG_FILE",
    "UV_CONFIG_FILE",
    "YARN_RC_FILENAME",
    "TF_CLI_CONFIG_FILE",
    "CONDARC",
    "GEMRC",
    "BUNDLE_USER_CONFIG",
    "BUNDLE_APP_CONFIG",
    "GOENV",
    "PIP_FIND_LINKS",
    "UV_FIND_LINKS",
    "HELM_REPOSITORY_CONFIG",
    "AZURE_CLIENT_CERTIFICATE_PATH",
    "AZURE_CONFIG_DIR",
    "POETRY_CONFIG_DIR",
    "CONDA_CHANNEL_ALIAS",
    "npm_config_userconfig",
    "npm_config_globalconfig",
];
/** Prefixes every key under which is a credential carrier: uv's named indexes, cargo's registries. */
const CARRIER_PREFIXES = [
    "UV_INDEX",
    "UV_DEFAULT_INDEX",
    "CARGO_REGISTRIES_",
    "POETRY_REPOSITORIES_",
    "POETRY_HTTP_BASIC_",
    "POETRY_CERTIFICATES_",
    "BUNDLE_MIRROR__",
    "AWS_ENDPOINT_URL",
    "CLOUDSDK_API_ENDPOINT_OVERRIDES_",
];
/** Bundler's per-host credentials (`BUNDLE_GEMS__EXAMPLE__COM=user:password`): a host's dots written `__`. */
const BUNDLE_HOST_KEY = /^BUNDLE_[A-Z0-9_]*[A-Z0-9]__[A-Z0-9]/;
/**
 * Tools whose configuration lives in their environment keys under one prefix: a family over one
 * of them is never proposed (its keys are, exactly, each the table lets through), whatever the
 * table lists of it, since the table cannot list every key such a tool reads.
 */
const TOOL_NAMESPACES = [
    "npm_",
    "pnpm_",
    "YARN_",
    "PIP_",
    "UV_",
    "POETRY_",
    "CONDA",
    "BUNDLE_",
    "GEM_",
    "CARGO_",
    "RUST",
    "GO",
    "JAVA",
    "MAVEN_",
    "GRADLE_",
    "DOTNET_",
    "NUGET_",
    "DOCKER_",
    "HELM_",
    "KUBE",
    "TF_",
    "AWS_",
    "AZURE_",
    "GOOGLE_",
    "CLOUDSDK_",
    "GIT_",
    "SSH_",
    "GPG_",
    "GNUPG",
    "NODE",
    "PYTHON",
    "PERL",
    "RUBY",
    "PHP",
    "LUA_",
    "SSL_",
    "OPENSSL_",
    "CURL_",
    "REQUESTS_",
];
/** `key` among `keys`; npm's keys in any case, as npm reads them. */
const listed = (keys, key) => {
    if (keys.includes(key))
        return true;
    // npm (and pnpm) read npm_config_<name> (pnpm_config_<name>) in any case, `-` and `_` alike.
    const m = /^(?:npm|pnpm)_config_(.*)$/i.exec(key);
    return m !== null && keys.includes(`npm_config_${m[1].toLowerCase().replace(/-/g, "_")}`);
};
const exact = (keys) => (key) => keys.includes(key);
/** The table, in order: a key takes the first row that matches it, and that row's reason. */
const KEY_TABLE = [
    {
        kind: "not_printable",
        test: (key) => /[^\x21-\x7e]/.test(key),
        why: "a character outside printable ASCII (shown escaped): it can render as another key (P\\u{0410}TH as PATH)",
    },
    {
        kind: "run_identity",
        test: exact(_env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .RUN_IDENTITY_WRAPPER */ .dU),
        why: "run identity: names a file the run wrapper hides (the event payload, the file commands)",
    },
    {
        kind: "run_identity",
        test: (key) => key.startsWith("INPUT_"),
        why: "run identity: the Action's own input (runner B's dispatch has inputs runner A's run does not; the token among them)",
    },
    {
        kind: "run_identity",
        test: _env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .isRunIdentityKey */ .z_,
        why: "run identity: differs between runner A and runner B (the run, job, workflow or actor), so a test reading it can manufacture a freeze",
    },
    {
        kind: "machine_identity",
        test: (key) => MACHINE_KEY.test(key),
        why: "machine identity: names the machine or its runner, so a test reading it can fail on one runner's machine only",
    },
    {
        kind: "credential_carrier",
        test: exact(["GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"]),
        why: "credential carrier: the program asked for a password or token (and program control: it runs it)",
    },
    {
        kind: "credential_carrier",
        test: (key) => /^GIT_CONFIG(?:_[A-Z0-9_]+)?$/.test(key),
        why: "credential carrier: git configuration from the environment (GIT_CONFIG_VALUE_<n> can carry an http.extraheader token, or a command to run)",
    },
    {
        kind: "credential_carrier",
        test: (key) => listed(CARRIER_KEYS, key) || CARRIER_PREFIXES.some((p) => key.startsWith(p)) || BUNDLE_HOST_KEY.test(key),
        why: "credential carrier: names the file, agent or index a tool reads its registry, cloud or signing credentials from (.npmrc, .netrc, pip.conf, kubeconfig, the ssh agent's socket, a keyring)",
    },
    {
        kind: "program_control",
        test: (key) => listed(TLS_SWITCHES, key) || CA_KEY.test(key),
        why: "program control: a security switch that turns off TLS certificate or checksum checks, or names the certificates trusted",
    },
    {
        kind: "program_control",
        test: (key) => PROGRAM_CONTROL_PREFIXES.some((p) => key.startsWith(p)),
        why: "program control: tells the dynamic loader, bash or the .NET runtime what to load into a program",
    },
    {
        kind: "program_control",
        test: (key) => listed(PROGRAM_CONTROL_KEYS, key) || CARGO_PROGRAM_KEY.test(key),
        why: "program control: makes a program load or run code its value names",
    },
    {
        kind: "credential",
        test: (key) => /(?:^|_)LOGIN(?:_|$)/i.test(key),
        why: "credential: names a login (SONAR_LOGIN is SonarQube's token)",
    },
    {
        kind: "credential",
        test: (key) => AUTH_KEY.test(key),
        why: "credential: names authentication (a token, or a command that gets one)",
    },
    {
        kind: "credential",
        test: (key) => CREDENTIAL_KEY.test(key),
        why: "credential: names a secret (a token, password, key, session, connection string or the like)",
    },
    {
        kind: "credential_carrier",
        test: (key) => /(?:^|_)(?:EXTRA_)?INDEX_URL$|REGISTR(?:Y|IES)/i.test(key),
        why: "credential carrier: a package index or registry, which carries the password where it has one and decides what is installed",
    },
    {
        kind: "credential_carrier",
        test: (key) => /PROXY$/i.test(key) && !/(?:^|_)NO_?PROXY$/i.test(key) && !_env_sets_js__WEBPACK_IMPORTED_MODULE_0__/* .PROXY_ENV_KEYS */ .mA.has(key),
        why: "credential carrier: a tool's own proxy, which carries its password where it has one and sees or bypasses every request (not the standard HTTP_PROXY keys, the run wrapper's own under allowlist, nor a list of hosts that bypass a proxy)",
    },
];
/** Why `key` is never proposed (nor matched by a pattern or a set), or null for an ordinary key. */
function keyApart(key) {
    const row = KEY_TABLE.find((r) => r.test(key));
    return row === undefined ? null : { kind: row.kind, why: row.why };
}
/**
 * Why a family `prefix*` is never proposed: it would cover a key of the table's lists or a
 * namespace of them (NODE* covers NODE_OPTIONS, GIT_* GIT_SSH_COMMAND, npm_* npm_config_shell,
 * CARGO_* cargo's runners). Compared without case: npm reads its keys in any case. Its keys are
 * proposed exactly instead (each one the table lets through).
 */
function familyApart(prefix) {
    const head = prefix.toLowerCase();
    const overlaps = (p) => p.toLowerCase().startsWith(head) || head.startsWith(p.toLowerCase());
    const covered = [
        ...[...PROGRAM_CONTROL_PREFIXES, ...CARRIER_PREFIXES, "CARGO_BUILD_", "CARGO_TARGET_", "CARGO_ENCODED_", "GIT_CONFIG"]
            .filter(overlaps)
            .map((p) => `${p}*`),
        ...[...PROGRAM_CONTROL_KEYS, ...TLS_SWITCHES, ...CARRIER_KEYS].filter((k) => k.toLowerCase().startsWith(head)),
        ...TOOL_NAMESPACES.filter(overlaps).map((p) => `${p}* (a tool's configuration)`),
    ];
    if (covered.length === 0)
        return null;
    return {
        kind: "program_control",
        why: `would cover ${covered.slice(0, 3).join(", ")}${covered.length > 3 ? ", …" : ""} (program control or credential carriers): its keys are proposed exactly`,
    };
}
/** The system's directories: never a root a proposal names (a write there outlives the run on a self-hosted runner). */
const SYSTEM_DIRECTORIES = [
    {
        test: /^\/opt\/hostedtoolcache(?:\/|$)|\/_work\/_tool(?:\/|$)/,
        kind: "tool_cache",
        why: "the runner's tool cache (RUNNER_TOOL_CACHE): a write there changes the tools of later runs",
    },
    {
        test: /^\/(?:usr|etc|opt|bin|sbin|boot|snap|lib(?:32|64|x32)?)(?:\/|$)|^\/var\/lib(?:\/|$)/,
        kind: "system_directory",
        why: "the system's directories (/usr, /etc, /opt, /bin, /sbin, /lib*, /var/lib): a write there changes the machine for later runs",
    },
];
/** Where an installed program's packages live: a write there changes what that program runs. */
const PACKAGE_DIRECTORY = /\/(?:site-packages|dist-packages|lib\/node_modules)(?:\/|$)/;
/**
 * The install directory of the program at `execPath`: the directory above its `bin` or `sbin`
 * (`~/.nvm/versions/node/v20/bin/node` -> `~/.nvm/versions/node/v20`), at least three levels deep
 * (a home's own `bin` is no one program's); null otherwise.
 */
function installDirOf(execPath) {
    const parts = execPath.split("/");
    if (parts[0] !== "" || parts.length < 3)
        return null;
    const binDir = parts[parts.length - 2];
    if (binDir !== "bin" && binDir !== "sbin")
        return null;
    const install = parts.slice(0, -2);
    if (install.length - 1 < 3)
        return null;
    return install.join("/");
}
/**
 * Why no root may be proposed at `path` (a folded absolute path, or one written back as
 * `${WORKSPACE}`/`${SCRATCH}`, which is never apart): under the system's directories or a tool
 * cache, a package directory, or `installs` (install directories of programs the runs executed).
 */
function rootApart(path, installs) {
    if (!path.startsWith("/"))
        return null;
    for (const row of SYSTEM_DIRECTORIES)
        if (row.test.test(path))
            return { kind: row.kind, why: row.why };
    const install = installs.find((dir) => (0,_paths_js__WEBPACK_IMPORTED_MODULE_1__/* .isInsideRoot */ .Xj)(path, dir));
    if (install !== undefined) {
        return {
            kind: "install_directory",
            why: `another program's install directory (${shownAscii(install)}): a write there changes what that program runs`,
        };
    }
    if (PACKAGE_DIRECTORY.test(path)) {
        return {
            kind: "install_directory",
            why: "another program's install directory (site-packages, dist-packages or a global node_modules): a write there changes what it runs",
        };
    }
    return null;
}
/** Writes the jail refused (read-only there) in a run whose command exited 0. */
function refusedUnneeded() {
    return {
        kind: "refused_unneeded",
        why: "the jail refused these writes and the command exited 0: it did not need them",
    };
}
/** Writes an ecosystem makes only when a key does not tell it not to. */
const AVOIDABLE_WRITES = [
    { test: /(?:^|\/)__pycache__(?:\/|$)|\.py[co]$/, key: "PYTHONDONTWRITEBYTECODE" },
];
/** The key that would have avoided every one of `paths` (Python's bytecode: PYTHONDONTWRITEBYTECODE). */
function avoidingKey(paths) {
    return AVOIDABLE_WRITES.find((row) => paths.length > 0 && paths.every((p) => row.test.test(p)))?.key;
}
/** `s` in printable ASCII: every other code point written `\u{XXXX}`, so a key cannot pass as another. */
function shownAscii(s) {
    return Array.from(s, (ch) => /^[\x21-\x7e]$/.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`).join("");
}


/***/ }),

/***/ 6107:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Jk: () => (/* binding */ isInsideAnyRoot),
/* harmony export */   Xj: () => (/* binding */ isInsideRoot),
/* harmony export */   tu: () => (/* binding */ foldPath)
/* harmony export */ });
/**
 * Lexical path handling. The checking machine's filesystem is never consulted: the observer
 * already resolved symlinks where the write happened, and the gate judges what was recorded.
 */
const NEEDS_FOLDING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;
/** Folds `.`, `..` and repeated or trailing slashes. Returns null for a relative path. */
function foldPath(path) {
    if (path.length === 0 || path.charCodeAt(0) !== 0x2f)
        return null;
    if (!NEEDS_FOLDING.test(path))
        return path;
    const out = [];
    for (const segment of path.split("/")) {
        if (segment === "" || segment === ".")
            continue;
        if (segment === "..") {
            out.pop();
            continue;
        }
        out.push(segment);
    }
    return "/" + out.join("/");
}
/** Segment-wise containment: `/work/repo-evil` is not inside `/work/repo`. Both must be folded. */
function isInsideRoot(foldedPath, foldedRoot) {
    if (foldedRoot === "/")
        return true;
    if (!foldedPath.startsWith(foldedRoot))
        return false;
    return foldedPath.length === foldedRoot.length || foldedPath.charCodeAt(foldedRoot.length) === 0x2f;
}
function isInsideAnyRoot(foldedPath, foldedRoots) {
    for (const root of foldedRoots) {
        if (isInsideRoot(foldedPath, root))
            return true;
    }
    return false;
}


/***/ }),

/***/ 1085:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ih: () => (/* binding */ isProtectedWrite),
/* harmony export */   MO: () => (/* binding */ PROTECTED_NAMES),
/* harmony export */   Pw: () => (/* binding */ gitExemptFor),
/* harmony export */   UB: () => (/* binding */ protectedFromMeta),
/* harmony export */   UH: () => (/* binding */ isProtectedEffect),
/* harmony export */   d8: () => (/* binding */ neverWritableReason),
/* harmony export */   kc: () => (/* binding */ containsAny),
/* harmony export */   zo: () => (/* binding */ NO_PROTECTED)
/* harmony export */ });
/* unused harmony export hasProtectedSegmentBelow */
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6107);
/**
 * Protected paths inside the allowed roots (issue 17, "the job is the perimeter"). Pure.
 *
 * Later steps of the same job run unjailed with the job's token: actions/checkout's post step
 * runs git in the workspace, and so does any later `git status` or `git commit`. What a run
 * leaves in `.git` (a hook, `core.fsmonitor`, an `include.path`, a planted submodule gitdir), in
 * `.gitmodules`, in `.github` or in the Action's own files is therefore an escape, even inside an
 * allowed root.
 *
 * A write is protected when:
 * - the effects check recorded it (`"source": "effects"`, src/core/effects.ts): the wrapper found
 *   a protected entry new, gone or changed on the filesystem itself, whatever the recorder's lines
 *   said (isProtectedEffect); or, inside an allowed root,
 * - it lies under a path the run recorded as protected (`meta.protected.paths`: the `.git` entries
 *   and the gitdirs they point at, `.github`, the Action's own directory), or
 * - lexically, a segment of its path below the root is one of PROTECTED_NAMES (`.git`,
 *   `.gitmodules`, `.github`) at any depth (one the run created where none existed is judged too),
 *   except under the run's own scratch directory when the scratch and the workspace do not overlap
 *   (a test's throwaway repository in /tmp is the run's own);
 * and it is not under an entry of the envelope's `writable_protected` (recorded as
 * `meta.protected.writable`) that may be made writable at all.
 *
 * `.gitmodules` and `.github` count at any depth, not only at the workspace's top, although GitHub
 * reads workflows only from the top's `.github/workflows`: git reads the `.gitmodules` of the
 * worktree it runs in (a later `git submodule sync` or `update --init`, as actions/checkout runs
 * with `submodules:`, takes URLs and paths from it, and `--recursive` reads each submodule's), a
 * nested checkout (checkout's `path:`) is a repository whose top is its own directory, and a later
 * step runs a local action by its path (`uses: ./sub/.github/actions/x`). The effects check looks
 * at every such entry anyway, so the recorder's lines are judged by the same names: the verdict does
 * not depend on whether the file was still there at the end. A suite that needs one writes it in
 * the scratch, or names its directory in `writable_protected`.
 */

const GIT_DIR_NAME = ".git";
/** Names whose entries are protected wherever they are below a root (and everything inside them). */
const PROTECTED_NAMES = new Set([GIT_DIR_NAME, ".gitmodules", ".github"]);
/**
 * Inside a git directory: what makes git run a program or read another file (hooks, config,
 * a nested gitdir's config and hooks, the pointer to another common directory). Never writable.
 */
const NEVER_WRITABLE_IN_GITDIR = new Set(["hooks", "config", "config.worktree", "modules", "worktrees", "commondir", "info"]);
const NO_PROTECTED = { paths: [], writable: [], gitExempt: [] };
function segments(folded) {
    return folded === "/" ? [] : folded.slice(1).split("/");
}
/**
 * Why an entry can never be made writable, or null when it may be. Lexical: a `.git` itself, or
 * its hooks, config, modules, worktrees, info or commondir, or anything containing one of them.
 * An entry that only contains a git directory on disk (an absolute path above a repository) is
 * found at run time (`containsGitPath`).
 */
function neverWritableReason(folded) {
    const parts = segments(folded);
    const git = parts.indexOf(GIT_DIR_NAME);
    if (git === -1)
        return null;
    const below = parts[git + 1];
    if (below === undefined)
        return `it is a ${GIT_DIR_NAME} itself (it contains ${GIT_DIR_NAME}/hooks and ${GIT_DIR_NAME}/config)`;
    if (NEVER_WRITABLE_IN_GITDIR.has(below)) {
        return `${GIT_DIR_NAME}/${below} makes git run programs or read other files (hooks, config, nested gitdirs)`;
    }
    // A nested `.git` further down (a submodule's gitdir inside a worktree) is judged the same way.
    const rest = "/" + parts.slice(git + 1).join("/");
    return rest.includes(`/${GIT_DIR_NAME}`) ? neverWritableReason(rest) : null;
}
/** Whether `entry` is, or is an ancestor of, any of `paths` (all folded). */
function containsAny(entry, paths) {
    for (const p of paths)
        if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(p, entry))
            return p;
    return null;
}
/** The lexical rule: a segment of `folded` below `root` (not the root itself) is a protected name. */
function hasProtectedSegmentBelow(folded, root) {
    if (folded === root || !(0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(folded, root))
        return false;
    const below = root === "/" ? folded.slice(1) : folded.slice(root.length + 1);
    return below.split("/").some((s) => PROTECTED_NAMES.has(s));
}
/** Whether `folded` is under an entry of `writable_protected` that may be made writable. */
function madeWritable(folded, set) {
    return (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.writable) && neverWritableReason(folded) === null;
}
/** Whether a write at `folded` (already inside an allowed root) is a write to a protected path. */
function isProtectedWrite(folded, roots, set) {
    if (madeWritable(folded, set))
        return false;
    if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.paths))
        return true;
    if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideAnyRoot */ .Jk)(folded, set.gitExempt))
        return false;
    return roots.some((root) => hasProtectedSegmentBelow(folded, root));
}
/**
 * Whether a protected entry the effects check found changed at `folded` is a violation: always,
 * unless `writable_protected` made it writable (the check looks only at protected entries of the
 * roots, outside the exempt scratch, at the roots' real paths, so neither the roots nor the
 * exemption are asked again).
 */
function isProtectedEffect(folded, set) {
    return !madeWritable(folded, set);
}
/** The scratch is exempt from the lexical names rule only when it and the workspace are apart. */
function gitExemptFor(workspace, scratch) {
    if (scratch === undefined)
        return [];
    const s = (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(scratch);
    if (s === null || s === "/")
        return [];
    if (workspace === undefined)
        return [s];
    const w = (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(workspace);
    if (w === null || (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(w, s) || (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .isInsideRoot */ .Xj)(s, w))
        return [];
    return [s];
}
/**
 * Reads `meta.protected` (`{ "paths": [...], "writable": [...] }`) as the run wrote it. Returns
 * an error message for a malformed value; an absent value is the empty set (the lexical names
 * rule still applies).
 */
function protectedFromMeta(value, workspace, scratch) {
    const gitExempt = gitExemptFor(typeof workspace === "string" ? workspace : undefined, typeof scratch === "string" ? scratch : undefined);
    if (value === undefined)
        return { ...NO_PROTECTED, gitExempt };
    if (typeof value !== "object" || value === null || Array.isArray(value))
        return `meta "protected" must be an object`;
    const record = value;
    const out = { paths: [], writable: [], gitExempt };
    for (const key of Object.keys(record)) {
        if (key !== "paths" && key !== "writable")
            return `meta "protected" has an unknown key "${key}"`;
        const list = record[key];
        if (!Array.isArray(list))
            return `meta "protected.${key}" must be an array of absolute paths`;
        for (const item of list) {
            const folded = typeof item === "string" && !item.includes("\u0000") ? (0,_paths_js__WEBPACK_IMPORTED_MODULE_0__/* .foldPath */ .tu)(item) : null;
            if (folded === null)
                return `meta "protected.${key}" must be an array of absolute paths`;
            out[key].push(folded);
        }
    }
    return out;
}


/***/ }),

/***/ 1688:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Hf: () => (/* binding */ commandRules),
/* harmony export */   Ii: () => (/* binding */ judgeHost),
/* harmony export */   P9: () => (/* binding */ isRuntimeOwnRead),
/* harmony export */   RL: () => (/* binding */ judgeWrite),
/* harmony export */   Sm: () => (/* binding */ hostName),
/* harmony export */   TI: () => (/* binding */ hostViaSet),
/* harmony export */   TN: () => (/* binding */ judgeExec),
/* harmony export */   Wv: () => (/* binding */ commandEntry),
/* harmony export */   ZU: () => (/* binding */ runEnv),
/* harmony export */   l6: () => (/* binding */ judgeEffect),
/* harmony export */   mA: () => (/* reexport safe */ _env_sets_js__WEBPACK_IMPORTED_MODULE_1__.mA),
/* harmony export */   ph: () => (/* reexport safe */ _container_engine_js__WEBPACK_IMPORTED_MODULE_0__.ph),
/* harmony export */   r0: () => (/* binding */ judgeEnv),
/* harmony export */   te: () => (/* binding */ judgeSyscall),
/* harmony export */   tv: () => (/* binding */ isRunOwnLoopback),
/* harmony export */   wm: () => (/* binding */ ruleContext),
/* harmony export */   y7: () => (/* binding */ judgeTool),
/* harmony export */   yG: () => (/* binding */ RUNTIME_ENV_KEYS)
/* harmony export */ });
/* unused harmony exports isLoopback, writeInsideRoots */
/* harmony import */ var _container_engine_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5275);
/* harmony import */ var _env_sets_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(20);
/* harmony import */ var _envelope_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8447);
/* harmony import */ var _services_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3499);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(3848);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(6107);
/* harmony import */ var _protected_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(1085);
/**
 * The rules: for each kind of event, whether the envelope allows it, and if not, which violation
 * (CONTRACT's violation ids) it is. Each judge is pure: the context derived from the envelope and
 * the run's meta line, and one event's facts, in; a rule id or null out. `check` (./log-reader.ts)
 * records what they return; `suggest` asks them which events an entry must allow; the footprint
 * and the audit leave out what they leave out (the runtime's own reads, loopback inside the run's
 * own network).
 */









/**
 * The keys the run wrapper sets in every run, whatever `allowed_env` says, and their values, so
 * that a read-only git writes nothing into a protected `.git` (`.git/index.lock`): a write git
 * really makes is still judged.
 * - `GIT_OPTIONAL_LOCKS=0`: `git status` takes no optional lock to refresh the index;
 * - `diff.autoRefreshIndex=false`, through git's `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
 *   `GIT_CONFIG_VALUE_<n>` (after the entries of the caller's the envelope lets in): `git diff`
 *   over tracked files whose stat changed but not their bytes (a chown, a file rewritten the same)
 *   refreshes the index under a lock that GIT_OPTIONAL_LOCKS does not cover. Its output is the same.
 * Their reads are recorded and not judged, from any source, and `suggest` never proposes them.
 */
function runEnv(given) {
    const count = Number(given.GIT_CONFIG_COUNT ?? "0");
    const n = Number.isSafeInteger(count) && count >= 0 ? count : 0;
    return {
        GIT_OPTIONAL_LOCKS: "0",
        GIT_CONFIG_COUNT: String(n + 1),
        [`GIT_CONFIG_KEY_${n}`]: "diff.autoRefreshIndex",
        [`GIT_CONFIG_VALUE_${n}`]: "false",
    };
}
/** The names runEnv sets (any entry number: the caller's own entries, when allowed, are allowed anyway). */
const RUN_ENV_KEY = /^(?:GIT_OPTIONAL_LOCKS|GIT_CONFIG_COUNT|GIT_CONFIG_(?:KEY|VALUE)_\d+)$/;
/** True when reading `key` is not judged because the wrapper set it (runEnv; PROXY_ENV_KEYS under allowlist). */
function wrapperEnvKey(network, key) {
    return RUN_ENV_KEY.test(key) || (network === "allowlist" && _env_sets_js__WEBPACK_IMPORTED_MODULE_1__/* .PROXY_ENV_KEYS */ .mA.has(key));
}
/**
 * Keys the Node runtime reads for itself. Recorded with `source: "runtime"` and not judged;
 * any other key is judged wherever the read comes from. Keep docs/observer.md in step.
 */
const RUNTIME_ENV_KEYS = new Set([
    "FORCE_COLOR",
    "NO_COLOR",
    "NODE_DISABLE_COLORS",
    "NODE_V8_COVERAGE",
    "NODE_DEBUG",
    "NODE_DEBUG_NATIVE",
    "NODE_OPTIONS",
    "NODE_PENDING_DEPRECATION",
    "NODE_NO_WARNINGS",
    "NODE_UNIQUE_ID",
    "NODE_CHANNEL_FD",
    "NODE_CHANNEL_SERIALIZATION_MODE",
    "NODE_PRESERVE_SYMLINKS",
    "NODE_TEST_CONTEXT",
    "TERM",
    "COLORTERM",
    "CI",
    "TZ",
    "UV_THREADPOOL_SIZE",
    // Read by Node's own JS at run time (found by the observer's well-behaved runs):
    "WATCH_REPORT_DEPENDENCIES",
    "NODE_CLUSTER_SCHED_POLICY",
    "NODE_TLS_REJECT_UNAUTHORIZED",
    // Node's bundled undici (fetch) reads these for itself:
    "UNDICI_NO_FG",
    "JEST_WORKER_ID",
    // ... and Node 24's, when it loads its HTTP parser (fetch through NODE_USE_ENV_PROXY):
    "UNDICI_NO_WASM_SIMD",
    // tty.getColorDepth, when a program writes to a terminal:
    "TMUX",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TEAMCITY_VERSION",
    "CI_NAME",
    "APPVEYOR",
    "BUILDKITE",
    "CIRCLECI",
    "DRONE",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "TRAVIS",
]);
/** The Node runtime reading one of its own keys (RUNTIME_ENV_KEYS): the runtime's read, not the program's. */
function isRuntimeOwnRead(key, source) {
    return source === "runtime" && RUNTIME_ENV_KEYS.has(key);
}
/** 127.0.0.0/8, ::1 (also as a mapped address), `localhost` and names under it (RFC 6761). */
function isLoopback(host) {
    return (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
        host === "::1" ||
        /^::ffff:127\./.test(host) ||
        host === "localhost" ||
        host.endsWith(".localhost"));
}
/** A recorded host as the rules compare it: a unix socket (`unix:/path`, `unix:@name`) is named by a case-sensitive path. */
function hostName(raw) {
    return raw.startsWith("unix:") ? raw : (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .normalizeHost */ .cS)(raw);
}
const NO_RUN_FACTS = { logPath: null, protectedSet: _protected_js__WEBPACK_IMPORTED_MODULE_5__/* .NO_PROTECTED */ .zo, ownNetwork: false };
function commandRules(allowed) {
    if (allowed === undefined)
        return null;
    return { paths: new Set(allowed.filter((c) => c.includes("/"))), names: new Set(allowed.filter((c) => !c.includes("/"))) };
}
function ruleContext(envelope, roots, run = NO_RUN_FACTS) {
    return {
        roots,
        logPath: run.logPath,
        protectedSet: run.protectedSet,
        tools: new Set(envelope.allowed_tools),
        envAllowed: (0,_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .envMatcher */ .IC)(envelope),
        network: envelope.network,
        hosts: (0,_envelope_js__WEBPACK_IMPORTED_MODULE_2__/* .hostPatterns */ .on)(envelope),
        services: (0,_services_js__WEBPACK_IMPORTED_MODULE_3__/* .servicesOf */ .Yj)(envelope.services),
        loopbackLocal: envelope.loopback !== "network",
        ownNetwork: run.ownNetwork,
        commands: commandRules(envelope.allowed_commands),
    };
}
/** A folded path a write may change: inside an allowed root, and not the log itself. */
function writeInsideRoots(ctx, path) {
    return path !== ctx.logPath && (0,_paths_js__WEBPACK_IMPORTED_MODULE_6__/* .isInsideAnyRoot */ .Jk)(path, ctx.roots);
}
/**
 * A write to the folded `path`. A refused write is outside every root, whatever the name resolved
 * to afterwards (a symlink can be gone by the time it is read); one that found nothing changed
 * nothing, so outside the roots it is not judged (the log's own path always is); inside them, a
 * protected path (docs/formats.md, Protected paths) is `write_protected`. `inside` is
 * writeInsideRoots, for a caller that has worked it out already.
 */
function judgeWrite(ctx, path, outcome, inside = writeInsideRoots(ctx, path)) {
    if (outcome === "refused")
        return "write_outside_root";
    if (!inside)
        return outcome === "missing_target" && path !== ctx.logPath ? null : "write_outside_root";
    return (0,_protected_js__WEBPACK_IMPORTED_MODULE_5__/* .isProtectedWrite */ .Ih)(path, ctx.roots, ctx.protectedSet) ? "write_protected" : null;
}
/**
 * A write line of the effects check (`"source": "effects"`) at the folded `path`: a protected
 * entry the filesystem shows new, gone or changed, `write_protected` unless `writable_protected`
 * made it writable, whatever the recorder's own lines said of it.
 */
function judgeEffect(ctx, path) {
    return (0,_protected_js__WEBPACK_IMPORTED_MODULE_5__/* .isProtectedEffect */ .UH)(path, ctx.protectedSet) ? "write_protected" : null;
}
/** A read of the environment key `key`, by `source`. */
function judgeEnv(ctx, key, source) {
    if (ctx.envAllowed(key) || wrapperEnvKey(ctx.network, key) || isRuntimeOwnRead(key, source))
        return null;
    return "undeclared_env";
}
function judgeTool(ctx, name) {
    return ctx.tools.has(name) ? null : "undeclared_tool";
}
/** Loopback inside the jail's own network namespace: the run's own, not egress. */
function isRunOwnLoopback(ctx, host) {
    return ctx.loopbackLocal && ctx.ownNetwork && isLoopback(host);
}
/**
 * A connection to (with a port) or a lookup of (`port` null) `host` (as hostName gives it). `via`
 * is the name the same process's hooks connected by, on a process-level connect to an address.
 * A container engine (isContainerEngine) is `docker_refused` under any network setting, instead
 * of `network_denied` or `undeclared_host`.
 */
function judgeHost(ctx, host, port, via) {
    // Before everything else: no envelope allows a container engine, and its ports are judged on loopback too.
    if ((0,_container_engine_js__WEBPACK_IMPORTED_MODULE_0__/* .isContainerEngine */ .uh)(host, port))
        return "docker_refused";
    if (isRunOwnLoopback(ctx, host))
        return null;
    // A declared service is the job's own, under deny as under allowlist.
    if ((0,_services_js__WEBPACK_IMPORTED_MODULE_3__/* .isDeclaredService */ .ad)(ctx.services, host, port))
        return null;
    if (ctx.network === "deny")
        return "network_denied";
    if ((0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, host, port))
        return null;
    if (typeof via === "string" && via !== "" && (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .normalizeHost */ .cS)(via), port))
        return null;
    return "undeclared_host";
}
/**
 * The host set (`@npm`) that alone allows a connection judgeHost allowed, or null. Connections
 * only: a lookup (no port) of a member is part of the connection that follows.
 */
function hostViaSet(ctx, host, port) {
    if (port === null || isRunOwnLoopback(ctx, host) || ctx.network === "deny" || !(0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .hostAllowed */ .VI)(ctx.hosts, host, port))
        return null;
    return (0,_hosts_js__WEBPACK_IMPORTED_MODULE_4__/* .allowedViaSet */ .n4)(ctx.hosts, host, port);
}
/** The start of the program at the folded `path`: allowed by its exact path or by its file's name. */
function judgeExec(ctx, path) {
    const commands = ctx.commands;
    if (commands === null || commands.paths.has(path))
        return null;
    return commands.names.has(path.slice(path.lastIndexOf("/") + 1)) ? null : "undeclared_command";
}
/**
 * The allowed_commands entry for a program started as `argv` from the folded `path`, portable as
 * judgeExec matches it: started by a bare name (argv[0] has no "/"), PATH found it and its file's
 * name allows it at any path (`sh` found as /usr/bin/sh -> dash is recorded, and allowed, as
 * `dash`); started by a path (a compiler's /usr/lib/gcc/.../cc1, ./configure), the path.
 */
function commandEntry(path, argv) {
    const argv0 = argv[0];
    const byName = typeof argv0 === "string" && argv0 !== "" && !argv0.includes("/");
    return byName ? path.slice(path.lastIndexOf("/") + 1) : path;
}
/** A system call the jail's seccomp filter traps: no envelope allows one. */
function judgeSyscall() {
    return "forbidden_syscall";
}


/***/ }),

/***/ 3499:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Yj: () => (/* binding */ servicesOf),
/* harmony export */   ad: () => (/* binding */ isDeclaredService),
/* harmony export */   nO: () => (/* binding */ parseService)
/* harmony export */ });
/* unused harmony export isLoopbackAddress */
/* harmony import */ var _dns_wire_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6504);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3848);
/**
 * The envelope's `services`: the job's own services (a database, a cache) the run may reach
 * through envelope-gate's forward (docs/egress.md, Services). Pure: what an entry means, which
 * entries can never be a service, and whether a recorded connection is one of them.
 */


/** Whether `host` is an IP literal (4 or 16 bytes), not a name. */
function isIpLiteral(host) {
    return (0,_dns_wire_js__WEBPACK_IMPORTED_MODULE_0__/* .addressBytes */ .AS)(host) !== null;
}
/** Ports that are never a service: the resolver's own, SSH, the Docker daemon. */
const REFUSED_PORTS = new Map([
    [53, "port 53 is the jail's resolver"],
    [22, "port 22 is SSH: a shell on the machine, not a service of the job"],
    [2375, "port 2375 is the Docker daemon, which is root on the host"],
    [2376, "port 2376 is the Docker daemon, which is root on the host"],
]);
/** Names of cloud metadata services (credentials of the machine's identity). */
const METADATA_NAMES = new Set([
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.azure.com",
]);
/** Socket file names that are root on the host or hand out the runner's credentials. */
const REFUSED_SOCKET_NAMES = /^(?:docker\.sock|podman\.sock|containerd\.sock|buildkitd\.sock|docker_engine|S\.gpg-agent.*|ssh-agent.*|agent\.\d+)$/;
/** Directories of sockets that belong to the machine, not to a job's service. */
const REFUSED_SOCKET_DIRS = [
    "/run/systemd",
    "/var/run/systemd",
    "/run/dbus",
    "/var/run/dbus",
    "/run/docker",
    "/var/run/docker",
    "/run/containerd",
    "/run/podman",
    "/run/user",
];
function isLinkLocal(host) {
    return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host) || host === "fd00:ec2::254";
}
/** 127.0.0.0/8 or ::1: a service the runner itself listens on. */
function isLoopbackAddress(host) {
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "::1";
}
/**
 * One `services` entry (already shape-checked by the schema), or why it can never be a service.
 * `127.0.0.1:5432`, `[::1]:6379`, `localhost:5432`, `postgres:5432` (a container job's service
 * name), `/var/run/mysqld/mysqld.sock`.
 */
function parseService(entry) {
    if (entry.startsWith("/")) {
        if (entry.includes("\0") || entry.split("/").some((part) => part === "." || part === "..")) {
            return { refused: "a socket path must be absolute, without . or .. parts" };
        }
        const name = entry.slice(entry.lastIndexOf("/") + 1);
        if (REFUSED_SOCKET_NAMES.test(name)) {
            return { refused: `${name} is the Docker daemon's or a credential agent's socket, never a job's service` };
        }
        const dir = REFUSED_SOCKET_DIRS.find((d) => entry === d || entry.startsWith(`${d}/`));
        if (dir !== undefined)
            return { refused: `sockets under ${dir} are the machine's, never a job's service` };
        return { kind: "unix", source: entry, path: entry };
    }
    let host;
    let portText;
    if (entry.startsWith("[")) {
        const close = entry.indexOf("]");
        host = entry.slice(1, close);
        portText = entry.slice(close + 2);
    }
    else {
        const colon = entry.lastIndexOf(":");
        host = entry.slice(0, colon);
        portText = entry.slice(colon + 1);
    }
    host = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeHost */ .cS)(host);
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
        return { refused: "its port is outside 1-65535" };
    const portRefusal = REFUSED_PORTS.get(port);
    if (portRefusal !== undefined)
        return { refused: portRefusal };
    if (isIpLiteral(host)) {
        if (isLinkLocal(host))
            return { refused: `${host} is link-local, where cloud metadata services live` };
        if (!isLoopbackAddress(host)) {
            return {
                refused: `${host} is not a loopback address: a service is reached at a loopback address of the runner (127.0.0.1:5432, [::1]:6379) or by its name in a container job (postgres:5432)`,
            };
        }
    }
    else if (METADATA_NAMES.has(host)) {
        return { refused: `${host} is a cloud metadata service` };
    }
    return { kind: "tcp", source: entry, host, port };
}
/** The envelope's services, parsed (an entry that is refused was refused when the envelope was loaded). */
function servicesOf(entries) {
    const out = [];
    for (const entry of entries ?? []) {
        const parsed = parseService(entry);
        if ("kind" in parsed)
            out.push(parsed);
    }
    return out;
}
/**
 * Whether a recorded host is a declared service: a connection to `host:port` (the recorded host as
 * hostName gives it: `unix:/path` for a socket), or a lookup (`port` null) of a service's name.
 */
function isDeclaredService(services, host, port) {
    for (const s of services) {
        if (s.kind === "unix") {
            if (host === `unix:${s.path}`)
                return true;
            continue;
        }
        if (host !== s.host)
            continue;
        if (port === null ? !isIpLiteral(host) : port === s.port)
            return true;
    }
    return false;
}


/***/ }),

/***/ 9478:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   MV: () => (/* binding */ reportFromVerdict),
/* harmony export */   Rr: () => (/* binding */ exitCodeFor),
/* harmony export */   ai: () => (/* binding */ EXIT_CODES),
/* harmony export */   dd: () => (/* binding */ reportFromError)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4296);

const EXIT_CODES = { pass: 0, envelope_fail: 1, usage: 2, error: 3 };
function reportFromVerdict(v) {
    return {
        verdict: v.verdict,
        envelope_id: v.envelope_id,
        envelope_hash: v.envelope_hash,
        events: v.events,
        violations: v.violations,
        error: null,
        log: {
            run_id: v.meta.run_id,
            runner: v.meta.runner,
            exit_code: v.exit_code,
            counts: v.counts,
            observers: v.meta.extra.observers ?? null,
            network_enforced: v.meta.extra.network_enforced ?? null,
            jail: v.meta.extra.jail ?? null,
            via_sets: v.via_sets,
            audit: v.meta.extra.audit === true,
        },
    };
}
function reportFromError(err, envelope) {
    const gate = err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .Refusal */ .P_
        ? err
        : new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .Refusal */ .P_("INTERNAL_ERROR", `the gate failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
            hint: "This is a bug in envelope-gate; the run is refused until it is fixed.",
        });
    return {
        verdict: "error",
        envelope_id: envelope?.envelope.envelope_id ?? null,
        envelope_hash: envelope?.hash ?? null,
        events: 0,
        violations: [],
        error: gate.toJSON(),
        log: null,
    };
}
function exitCodeFor(verdict) {
    return EXIT_CODES[verdict];
}


/***/ }),

/***/ 3323:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ PRODUCT),
/* harmony export */   x: () => (/* binding */ VERSION)
/* harmony export */ });
/**
 * The release this build is. Kept beside package.json's "version" (test/core/version.test.ts) and
 * checked against the release tag by scripts/release.mjs; a semantic version, without a "v".
 */
const VERSION = "1.0.0";
/** How the product names itself where a reader must tell what judged them: "envelope-gate 1.0.0". */
const PRODUCT = `envelope-gate ${VERSION}`;


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 9907:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("cluster");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 2250:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("dns");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 3339:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("module");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 1421:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 1553:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns/promises");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 6614:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 8500:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 2987:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("perf_hooks");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 7016:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("url");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 8253:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util/types");

/***/ }),

/***/ 1493:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("v8");

/***/ }),

/***/ 3106:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("zlib");

/***/ }),

/***/ 4352:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const { normalizeIPv6, removeDotSegments, removeDotSegmentsRelative, recomposeAuthority, normalizePercentEncoding, normalizePathEncoding, serializePathEncoding, normalizeQueryFragmentEncoding, encodeQuery, encodeFragment, reescapeHostDelimiters, isIPv4, nonSimpleDomain } = __nccwpck_require__(5077)
const { SCHEMES, getSchemeHandler } = __nccwpck_require__(5300)

const VALID_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/u
const MALFORMED_SCHEME_ERROR = 'URI scheme is malformed.'
const MALFORMED_HOST_ERROR = 'URI host is malformed.'
// ASCII characters outside the RFC 3986 reg-name set (unreserved, sub-delims
// and "%" for pct-encoded): C0 controls, space, DEL, and "#/:<>?@[\]^`{|}.
const FORBIDDEN_DOMAIN_HOST_CHARACTER = /[\0-\x20"#/:<>?@[\\\]^`{|}\x7F]/u

/**
 * RFC 3986 section 3.1 does not allow percent-encoding in a scheme, so the
 * scheme is validated as-is and never decoded. Decoding would let inert input
 * such as `%6Aavascript:` become a live `javascript:` scheme.
 *
 * @param {string} scheme
 * @returns {string}
 */
function validateScheme (scheme) {
  const stringScheme = String(scheme)
  if (!VALID_SCHEME.test(stringScheme)) {
    throw new TypeError(MALFORMED_SCHEME_ERROR)
  }
  return stringScheme
}

/**
 * @template {import('./types/index').URIComponent|string} T
 * @param {T} uri
 * @param {import('./types/index').Options} [options]
 * @returns {T}
 */
function normalize (uri, options) {
  if (typeof uri === 'string') {
    uri = /** @type {T} */ (normalizeString(uri, options))
  } else if (typeof uri === 'object') {
    uri = /** @type {T} */ (parse(serialize(uri, options), options))
  }
  return uri
}

/**
 * @param {string} baseURI
 * @param {string} relativeURI
 * @param {import('./types/index').Options} [options]
 * @returns {string}
 */
function resolve (baseURI, relativeURI, options) {
  const schemelessOptions = options ? Object.assign({ scheme: 'null' }, options) : { scheme: 'null' }
  const {
    parsed: baseParsed,
    malformedAuthorityOrPort: baseMalformed,
    malformedPercentEncoding: baseMalformedPercentEncoding,
    malformedSchemeSpecific: baseMalformedSchemeSpecific,
    malformedHost: baseMalformedHost,
    malformedScheme: baseMalformedScheme
  } = parseWithStatus(baseURI, schemelessOptions)
  const {
    parsed: relativeParsed,
    malformedAuthorityOrPort: relativeMalformed,
    malformedPercentEncoding: relativeMalformedPercentEncoding,
    malformedSchemeSpecific: relativeMalformedSchemeSpecific,
    malformedHost: relativeMalformedHost,
    malformedScheme: relativeMalformedScheme
  } = parseWithStatus(relativeURI, schemelessOptions)
  if (
    baseMalformed ||
    relativeMalformed ||
    baseMalformedPercentEncoding ||
    relativeMalformedPercentEncoding ||
    baseMalformedSchemeSpecific ||
    relativeMalformedSchemeSpecific ||
    baseMalformedHost ||
    relativeMalformedHost ||
    baseMalformedScheme ||
    relativeMalformedScheme
  ) {
    throw new Error(baseParsed.error || relativeParsed.error || 'URI is malformed.')
  }
  const resolved = resolveComponent(baseParsed, relativeParsed, schemelessOptions, true)
  const resolvedSchemeHandler = getSchemeHandler((options && options.scheme) || resolved.scheme)
  const resolvedHost = resolved.host
  const resolvedHostIsIP = resolvedHost !== undefined && resolvedHost !== '' &&
    (isIPv4(resolvedHost) || normalizeIPv6(resolvedHost).isIPV6)
  // Inputs are parsed scheme-neutrally, so delimiters and controls in a domain
  // host are only detected here, once the final scheme is known. They always
  // fail closed, including in percent-encoded hosts.
  if (hasForbiddenDomainHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP)) {
    throw new Error(MALFORMED_HOST_ERROR)
  }
  canonicalizeHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP)
  // Percent escapes in an ASCII reg-name are encoded data. The WHATWG hostname
  // parser can reject them even though fast-uri preserves them safely as RFC
  // 3986 data. A raw non-ASCII host must still fail closed if conversion fails.
  const encodedASCIIHost = resolvedHost && resolvedHost.indexOf('%') !== -1 &&
    !/\P{ASCII}/u.test(resolvedHost)
  if (resolved.error && !encodedASCIIHost) {
    throw new Error(resolved.error)
  }
  schemelessOptions.skipEscape = true
  return serialize(resolved, schemelessOptions)
}

/**
 * @param {import ('./types/index').URIComponent} base
 * @param {import ('./types/index').URIComponent} relative
 * @param {import('./types/index').Options} [options]
 * @param {boolean} [skipNormalization=false]
 * @returns {import ('./types/index').URIComponent}
 */
function resolveComponent (base, relative, options, skipNormalization) {
  /** @type {import('./types/index').URIComponent} */
  const target = {}
  if (!skipNormalization) {
    base = parse(serialize(base, options), options) // normalize base component
    relative = parse(serialize(relative, options), options) // normalize relative component
  }
  options = options || {}

  if (!options.tolerant && relative.scheme) {
    target.scheme = relative.scheme
    // target.authority = relative.authority;
    target.userinfo = relative.userinfo
    target.host = relative.host
    target.port = relative.port
    target.path = removeDotSegments(relative.path || '')
    target.query = relative.query
  } else {
    if (relative.userinfo !== undefined || relative.host !== undefined || relative.port !== undefined) {
      // target.authority = relative.authority;
      target.userinfo = relative.userinfo
      target.host = relative.host
      target.port = relative.port
      target.path = removeDotSegments(relative.path || '')
      target.query = relative.query
    } else {
      if (!relative.path) {
        target.path = base.path
        if (relative.query !== undefined) {
          target.query = relative.query
        } else {
          target.query = base.query
        }
      } else {
        if (relative.path[0] === '/') {
          target.path = removeDotSegments(relative.path)
        } else {
          const baseHasAuthority = base.userinfo !== undefined || base.host !== undefined || base.port !== undefined
          if (baseHasAuthority && !base.path) {
            target.path = '/' + relative.path
          } else if (!base.path) {
            target.path = relative.path
          } else {
            target.path = base.path.slice(0, base.path.lastIndexOf('/') + 1) + relative.path
          }
          target.path = base.scheme === undefined && !baseHasAuthority && target.path[0] !== '/'
            ? removeDotSegmentsRelative(target.path)
            : removeDotSegments(target.path)
        }
        target.query = relative.query
      }
      // target.authority = base.authority;
      target.userinfo = base.userinfo
      target.host = base.host
      target.port = base.port
    }
    target.scheme = base.scheme
  }

  target.fragment = relative.fragment

  return target
}

/**
 * @param {import ('./types/index').URIComponent|string} uriA
 * @param {import ('./types/index').URIComponent|string} uriB
 * @param {import ('./types/index').Options} options
 * @returns {boolean}
 */
function equal (uriA, uriB, options) {
  const normalizedA = normalizeComparableURI(uriA, options)
  const normalizedB = normalizeComparableURI(uriB, options)

  return normalizedA !== undefined && normalizedB !== undefined && normalizedA === normalizedB
}

/**
 * @param {Readonly<import('./types/index').URIComponent>} cmpts
 * @param {import('./types/index').Options} [opts]
 * @returns {string}
 */
function serialize (cmpts, opts) {
  const component = {
    host: cmpts.host,
    scheme: cmpts.scheme,
    userinfo: cmpts.userinfo,
    port: cmpts.port,
    path: cmpts.path,
    query: cmpts.query,
    nid: cmpts.nid,
    nss: cmpts.nss,
    uuid: cmpts.uuid,
    fragment: cmpts.fragment,
    reference: cmpts.reference,
    resourceName: cmpts.resourceName,
    secure: cmpts.secure,
    error: ''
  }
  const options = Object.assign({}, opts)
  const uriTokens = []

  if (component.scheme) {
    component.scheme = validateScheme(component.scheme)
  }

  // find scheme handler
  const schemeHandler = getSchemeHandler(options.scheme || component.scheme)

  // perform scheme specific serialization
  if (schemeHandler && schemeHandler.serialize) schemeHandler.serialize(component, options)

  const hasAuthority = component.userinfo !== undefined || component.host !== undefined || component.port !== undefined
  // A reference with no emitted scheme is path-noscheme: a bare ':' in its
  // first path segment would reparse as a scheme (RFC 3986 3.3/4.2). Enforced
  // under skipEscape too (resolve()), so the reapply below gates on this flag.
  const schemelessReference = (component.scheme === undefined || options.reference === 'suffix') && !hasAuthority
  const pathNoScheme = !options.skipEscape && schemelessReference

  if (component.path !== undefined) {
    if (!options.skipEscape) {
      component.path = serializePathEncoding(component.path, pathNoScheme)
    } else {
      component.path = normalizePercentEncoding(component.path)
    }
  }

  if (options.reference !== 'suffix' && component.scheme) {
    // Scheme handlers may replace the scheme during serialization.
    component.scheme = validateScheme(component.scheme)
    uriTokens.push(component.scheme, ':')
  }

  const authority = recomposeAuthority(component)
  if (authority !== undefined) {
    if (options.reference !== 'suffix') {
      uriTokens.push('//')
    }

    uriTokens.push(authority)

    if (component.path && component.path[0] !== '/') {
      uriTokens.push('/')
    }
  }
  if (component.path !== undefined) {
    let s = component.path

    if (!options.absolutePath && (!schemeHandler || !schemeHandler.absolutePath)) {
      // A relative-path reference keeps its unresolvable leading ".." segments
      // and must never become root-relative (RFC 3986 section 5.2.4 applies to
      // merged target paths, not to the reference itself).
      s = schemelessReference && s[0] !== '/'
        ? removeDotSegmentsRelative(s)
        : removeDotSegments(s)
    }

    // Dot-segment removal can expose a colon that was not originally in the
    // first segment (for example, "./a:b"). Reapply path-noscheme encoding so
    // the serialized relative reference cannot be reparsed as a URI scheme.
    if (schemelessReference) {
      s = serializePathEncoding(s, true)
    }

    if (
      authority === undefined &&
      s[0] === '/' &&
      s[1] === '/'
    ) {
      // don't allow the path to start with "//"
      s = '/%2F' + s.slice(2)
    }

    uriTokens.push(s)
  }

  if (component.query !== undefined) {
    uriTokens.push('?', encodeQuery(component.query))
  }

  if (component.fragment !== undefined) {
    uriTokens.push('#', encodeFragment(component.fragment))
  }
  return uriTokens.join('')
}

const URI_PARSE = /^(?:([^#/:?]+):)?(?:\/\/((?:([^#/?@]*)@)?(\[[^#/?\]]+\]|[^#/:?]*)(?::(\d*))?))?([^#?]*)(?:\?([^#]*))?(?:#((?:.|[\n\r])*))?/u

// Captures the authority component (between "//" and the next "/", "?" or "#"),
// with or without a scheme prefix, for the literal-backslash rejection below.
const AUTHORITY_PREFIX = /^(?:[^#/:?]+:)?\/\/([^/?#]*)/

// Captures the leading authority-introducer region after an optional scheme: a
// run of forward slashes, backslashes, and the characters the WHATWG URL parser
// removes before parsing (TAB U+0009, LF U+000A, CR U+000D). A valid introducer
// is exactly "//". Node treats "\" as "/" on special schemes and strips those
// characters first, so forms like "\\", "/\", "\/", "/<TAB>/", or a leading
// "<TAB>//" reach an authority in Node while fast-uri's URI_PARSE folds them into
// the path group (host confusion / SSRF / redirect bypass).
const AUTHORITY_INTRODUCER_REGION = /^(?:[^#/:?]+:)?([/\\\t\n\r]*)/

/**
 * @param {import('./types/index').URIComponent} parsed
 * @param {RegExpMatchArray} matches
 * @returns {string|undefined}
 */
function getParseError (parsed, matches) {
  if (matches[2] !== undefined && parsed.path && parsed.path[0] !== '/') {
    return 'URI path must start with "/" when authority is present.'
  }

  if (typeof parsed.port === 'number' && (parsed.port < 0 || parsed.port > 65535)) {
    return 'URI port is malformed.'
  }

  return undefined
}

/**
 * Checks percent syntax without decoding the represented octets. RFC 3986
 * percent-encoding is byte-oriented, so sequences such as `%FF` are valid even
 * though they are not independently valid UTF-8.
 *
 * @param {string|undefined} component
 * @returns {boolean}
 */
function hasMalformedPercentEncoding (component) {
  if (component === undefined) return false

  let percent = component.indexOf('%')
  while (percent !== -1) {
    if (percent + 2 >= component.length || !/^[\da-f]{2}$/iu.test(component.slice(percent + 1, percent + 3))) {
      return true
    }
    percent = component.indexOf('%', percent + 3)
  }

  return false
}

/**
 * Whether the host is a bracketed IP literal (RFC 3986 `IP-literal`).
 * An unterminated `[` is not a literal, so it must still be validated as a
 * reg-name instead of being waved through as an IP.
 *
 * @param {string} host
 * @returns {boolean}
 */
function isIPLiteral (host) {
  return host[0] === '[' && host[host.length - 1] === ']'
}

/**
 * @param {RegExpMatchArray} matches
 * @returns {boolean}
 */
function hasMalformedComponentPercentEncoding (matches) {
  // Bracketed IP literals use a raw "%" as the zone separator for historical
  // compatibility. Their parsing is intentionally left to normalizeIPv6.
  const host = matches[4]
  return hasMalformedPercentEncoding(matches[3]) ||
    (host !== undefined && !isIPLiteral(host) && hasMalformedPercentEncoding(host)) ||
    hasMalformedPercentEncoding(matches[6]) ||
    hasMalformedPercentEncoding(matches[7]) ||
    hasMalformedPercentEncoding(matches[8])
}

/**
 * @param {import('./types/index').URIComponent} parsed
 * @param {import('./types/index').Options} options
 * @param {{ domainHost?: boolean, unicodeSupport?: boolean }|undefined} schemeHandler
 * @param {boolean} isIP
 * @returns {boolean} whether host conversion failed
 */
function canonicalizeHost (parsed, options, schemeHandler, isIP) {
  if (hasForbiddenDomainHost(parsed, options, schemeHandler, isIP)) {
    parsed.error = parsed.error || MALFORMED_HOST_ERROR
    return true
  }

  if (
    !options.unicodeSupport &&
    (!schemeHandler || !schemeHandler.unicodeSupport) &&
    parsed.host &&
    !isIPLiteral(parsed.host) &&
    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
    isIP === false &&
    nonSimpleDomain(parsed.host)
  ) {
    let url
    try {
      url = new URL('http://' + parsed.host)
    } catch (e) {
      parsed.error = parsed.error || "Host's domain name can not be converted to ASCII: " + e
      return true
    }
    // The WHATWG parser must have read the whole input as a host. Anything
    // else means it found a delimiter fast-uri did not, so its hostname would
    // describe a different authority.
    if (!isHostOnlyURL(url)) {
      parsed.error = parsed.error || MALFORMED_HOST_ERROR
      return true
    }
    parsed.host = url.hostname
  }
  return false
}

/**
 * Whether a domain host contains an ASCII character that RFC 3986 does not
 * allow in a reg-name (unreserved, sub-delims, or pct-encoded). Such a host is
 * rejected instead of being handed to the WHATWG URL parser, which would treat
 * "@" as a userinfo delimiter (silently dropping the data before it) and strip
 * TAB, LF, and CR. Non-ASCII characters remain allowed for IDNs.
 *
 * @param {import('./types/index').URIComponent} parsed
 * @param {import('./types/index').Options} options
 * @param {{ domainHost?: boolean }|undefined} schemeHandler
 * @param {boolean} isIP
 * @returns {boolean}
 */
function hasForbiddenDomainHost (parsed, options, schemeHandler, isIP) {
  return Boolean(
    parsed.host &&
    isIP === false &&
    !isIPLiteral(parsed.host) &&
    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
    FORBIDDEN_DOMAIN_HOST_CHARACTER.test(parsed.host)
  )
}

/**
 * @param {URL} url
 * @returns {boolean}
 */
function isHostOnlyURL (url) {
  return url.username === '' &&
    url.password === '' &&
    url.port === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.hostname !== ''
}

/**
 * @param {string} uri
 * @param {import('./types/index').Options} [opts]
 * @returns {{ parsed: import('./types/index').URIComponent, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
 */
function parseWithStatus (uri, opts) {
  const options = Object.assign({}, opts)
  /** @type {import('./types/index').URIComponent} */
  const parsed = {
    scheme: undefined,
    userinfo: undefined,
    host: '',
    port: undefined,
    path: '',
    query: undefined,
    fragment: undefined
  }

  let malformedAuthorityOrPort = false
  let malformedPercentEncoding = false
  let malformedSchemeSpecific = false
  let malformedHost = false
  let malformedIPLiteral = false
  let malformedScheme = false

  let isIP = false
  if (options.reference === 'suffix') {
    if (options.scheme) {
      uri = options.scheme + ':' + uri
    } else {
      uri = '//' + uri
    }
  }

  // A literal backslash (U+005C) is not a valid RFC 3986 URI character and is
  // not an authority delimiter. Reject it in the authority rather than
  // rewriting it: normalizing "\" -> "/" (WHATWG error recovery) could silently
  // change the resource identified by an otherwise-invalid input, and lets "\"
  // act as a host delimiter here while Node's native URL parses a different
  // host (SSRF / redirect / origin-allowlist bypass). Percent-encoded %5C is
  // untouched and remains valid encoded data.
  const authorityMatch = uri.match(AUTHORITY_PREFIX)
  if (authorityMatch !== null && authorityMatch[1].indexOf('\\') !== -1) {
    parsed.error = 'URI authority must not contain a literal backslash.'
    malformedAuthorityOrPort = true
  }

  // Reject a malformed or whitespace-smuggled authority introducer. fast-uri
  // only recognizes a literal "//"; anything else in the leading separator run
  // (a backslash, or a "//" that appears only after removing the TAB/LF/CR that
  // Node strips) means the authority fast-uri parses differs from the one Node's
  // URL resolves. Reject rather than rewrite, mirroring the literal-backslash
  // guard above. Percent-encoded forms (%5C, %09) are untouched, valid data.
  const introducerMatch = uri.match(AUTHORITY_INTRODUCER_REGION)
  if (introducerMatch !== null) {
    const region = introducerMatch[1]
    const normalizedRegion = region.replace(/[\t\n\r]/g, '')
    // Two or more leading separators introduce an authority.
    if (normalizedRegion.length >= 2) {
      if (normalizedRegion.slice(0, 2) !== '//') {
        parsed.error = parsed.error || 'URI authority must not contain a literal backslash.'
        malformedAuthorityOrPort = true
      } else if (region.length !== normalizedRegion.length) {
        parsed.error = parsed.error || 'URI authority introducer must not contain whitespace.'
        malformedAuthorityOrPort = true
      }
    }
  }

  const matches = uri.match(URI_PARSE)

  if (matches) {
    // store each component
    parsed.scheme = matches[1]
    parsed.userinfo = matches[3]
    parsed.host = matches[4]
    parsed.port = parseInt(matches[5], 10)
    parsed.path = matches[6] || ''
    parsed.query = matches[7]
    parsed.fragment = matches[8]

    if (parsed.scheme !== undefined) {
      if (VALID_SCHEME.test(parsed.scheme)) {
        parsed.scheme = parsed.scheme.toLowerCase()
      } else {
        parsed.error = parsed.error || MALFORMED_SCHEME_ERROR
        malformedScheme = true
      }
    }

    malformedPercentEncoding = hasMalformedComponentPercentEncoding(matches)
    if (malformedPercentEncoding) {
      parsed.error = parsed.error || 'URI contains malformed percent-encoding.'
    }

    // fix port number
    if (isNaN(parsed.port)) {
      parsed.port = matches[5]
    }

    const parseError = getParseError(parsed, matches)
    if (parseError !== undefined) {
      parsed.error = parsed.error || parseError
      malformedAuthorityOrPort = true
    }

    if (parsed.host) {
      const ipv4result = isIPv4(parsed.host)
      if (ipv4result === false) {
        const bracketedIPLiteral = isIPLiteral(parsed.host)
        const hasIPLiteralBracket = parsed.host.indexOf('[') !== -1 || parsed.host.indexOf(']') !== -1
        const ipv6result = normalizeIPv6(parsed.host)
        isIP = ipv6result.isIPV6 || ipv6result.isIPVFuture === true
        malformedIPLiteral = hasIPLiteralBracket && (!bracketedIPLiteral || ipv6result.error === true)
        parsed.host = isIP ? ipv6result.host : ipv6result.host.toLowerCase()

        if (malformedIPLiteral) {
          parsed.error = parsed.error || MALFORMED_HOST_ERROR
          malformedAuthorityOrPort = true
        }
      } else {
        isIP = true
      }
    }
    if (parsed.scheme === undefined && parsed.userinfo === undefined && parsed.host === undefined && parsed.port === undefined && parsed.query === undefined && !parsed.path) {
      parsed.reference = 'same-document'
    } else if (parsed.scheme === undefined) {
      parsed.reference = 'relative'
    } else if (parsed.fragment === undefined) {
      parsed.reference = 'absolute'
    } else {
      parsed.reference = 'uri'
    }

    // check for reference errors
    if (options.reference && options.reference !== 'suffix' && options.reference !== parsed.reference) {
      parsed.error = parsed.error || 'URI is not a ' + options.reference + ' reference.'
    }

    // find scheme handler
    const schemeHandler = getSchemeHandler(options.scheme || parsed.scheme)

    // convert Unicode IDN -> ASCII IDN when the effective scheme uses domain hosts
    if (!malformedIPLiteral) {
      malformedHost = canonicalizeHost(parsed, options, schemeHandler, isIP)
    }

    if (uri.indexOf('%') !== -1 && parsed.host !== undefined && !malformedIPLiteral) {
      let host = isIP ? parsed.host : normalizePercentEncoding(parsed.host, true)
      if (!isIP) {
        // Fold reg-name case after decoding unreserved octets. The second
        // pass only restores uppercase hex in escapes that remain encoded.
        host = normalizePercentEncoding(host.toLowerCase())
      }
      // Resolution parses both inputs with the internal `null` scheme before
      // the effective scheme is known. Keep raw host delimiters for that step
      // so resolve() can reject them for domain-host schemes; the resolved
      // authority is encoded when it is serialized.
      parsed.host = isIP || options.scheme !== 'null' ? reescapeHostDelimiters(host, isIP) : host
    }

    if (!schemeHandler || (schemeHandler && !schemeHandler.skipNormalize)) {
      if (parsed.path) {
        parsed.path = normalizePathEncoding(parsed.path)
      }
      if (parsed.query) {
        parsed.query = normalizeQueryFragmentEncoding(parsed.query)
      }
      if (parsed.fragment) {
        parsed.fragment = normalizeQueryFragmentEncoding(parsed.fragment)
      }
    }

    // perform scheme specific parsing
    if (schemeHandler && schemeHandler.parse) {
      schemeHandler.parse(parsed, options)
      if (schemeHandler === SCHEMES.urn && parsed.nid === undefined) {
        malformedSchemeSpecific = true
      }
    }
  } else {
    parsed.error = parsed.error || 'URI can not be parsed.'
  }
  return { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme }
}

/**
 * @param {string} uri
 * @param {import('./types/index').Options} [opts]
 * @returns
 */
function parse (uri, opts) {
  return parseWithStatus(uri, opts).parsed
}

/**
 * @param {string} uri
 * @param {import('./types/index').Options} [opts]
 * @returns {string}
 */
function normalizeString (uri, opts) {
  return normalizeStringWithStatus(uri, opts).normalized
}

/**
 * @param {string} uri
 * @param {import('./types/index').Options} [opts]
 * @returns {{ normalized: string, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
 */
function normalizeStringWithStatus (uri, opts) {
  const { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = parseWithStatus(uri, opts)
  return {
    normalized: malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? uri : serialize(parsed, opts),
    malformedAuthorityOrPort,
    malformedPercentEncoding,
    malformedSchemeSpecific,
    malformedHost,
    malformedScheme
  }
}

/**
 * @param {import ('./types/index').URIComponent|string} uri
 * @param {import('./types/index').Options} [opts]
 * @returns {string|undefined}
 */
function normalizeComparableURI (uri, opts) {
  if (typeof uri !== 'string' && typeof uri !== 'object') {
    return undefined
  }

  let value
  try {
    value = typeof uri === 'string' ? uri : serialize(uri, opts)
  } catch {
    return undefined
  }
  const { normalized, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = normalizeStringWithStatus(value, opts)
  return malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? undefined : normalized
}

const fastUri = {
  SCHEMES,
  normalize,
  resolve,
  resolveComponent,
  equal,
  serialize,
  parse
}

module.exports = fastUri
module.exports["default"] = fastUri
module.exports.fastUri = fastUri


/***/ }),

/***/ 5300:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const { isUUID } = __nccwpck_require__(5077)
const URN_REG = /^([\da-z][\d\-a-z]{0,31}):((?:[\w!$'()*+,\-./:;=@]|%[\da-f]{2})+)$/iu

const supportedSchemeNames = /** @type {const} */ (['http', 'https', 'ws',
  'wss', 'urn', 'urn:uuid'])

/** @typedef {supportedSchemeNames[number]} SchemeName */

/**
 * @param {string} name
 * @returns {name is SchemeName}
 */
function isValidSchemeName (name) {
  return supportedSchemeNames.indexOf(/** @type {*} */ (name)) !== -1
}

/**
 * @callback SchemeFn
 * @param {import('../types/index').URIComponent} component
 * @param {import('../types/index').Options} options
 * @returns {import('../types/index').URIComponent}
 */

/**
 * @typedef {Object} SchemeHandler
 * @property {SchemeName} scheme - The scheme name.
 * @property {boolean} [domainHost] - Indicates if the scheme supports domain hosts.
 * @property {SchemeFn} parse - Function to parse the URI component for this scheme.
 * @property {SchemeFn} serialize - Function to serialize the URI component for this scheme.
 * @property {boolean} [skipNormalize] - Indicates if normalization should be skipped for this scheme.
 * @property {boolean} [absolutePath] - Indicates if the scheme uses absolute paths.
 * @property {boolean} [unicodeSupport] - Indicates if the scheme supports Unicode.
 */

/**
 * @param {import('../types/index').URIComponent} wsComponent
 * @returns {boolean}
 */
function wsIsSecure (wsComponent) {
  if (wsComponent.secure === true) {
    return true
  } else if (wsComponent.secure === false) {
    return false
  } else if (wsComponent.scheme) {
    return (
      wsComponent.scheme.length === 3 &&
      (wsComponent.scheme[0] === 'w' || wsComponent.scheme[0] === 'W') &&
      (wsComponent.scheme[1] === 's' || wsComponent.scheme[1] === 'S') &&
      (wsComponent.scheme[2] === 's' || wsComponent.scheme[2] === 'S')
    )
  } else {
    return false
  }
}

/** @type {SchemeFn} */
function httpParse (component) {
  if (!component.host) {
    component.error = component.error || 'HTTP URIs must have a host.'
  }

  return component
}

/** @type {SchemeFn} */
function httpSerialize (component) {
  const secure = String(component.scheme).toLowerCase() === 'https'

  // normalize the default port
  if (component.port === (secure ? 443 : 80) || component.port === '') {
    component.port = undefined
  }

  // normalize the empty path
  if (!component.path) {
    component.path = '/'
  }

  // NOTE: We do not parse query strings for HTTP URIs
  // as WWW Form Url Encoded query strings are part of the HTML4+ spec,
  // and not the HTTP spec.

  return component
}

/** @type {SchemeFn} */
function wsParse (wsComponent) {
// indicate if the secure flag is set
  wsComponent.secure = wsIsSecure(wsComponent)

  // construct resouce name
  wsComponent.resourceName = (wsComponent.path || '/') + (wsComponent.query ? '?' + wsComponent.query : '')
  wsComponent.path = undefined
  wsComponent.query = undefined

  return wsComponent
}

/** @type {SchemeFn} */
function wsSerialize (wsComponent) {
// normalize the default port
  if (wsComponent.port === (wsIsSecure(wsComponent) ? 443 : 80) || wsComponent.port === '') {
    wsComponent.port = undefined
  }

  // ensure scheme matches secure flag
  if (typeof wsComponent.secure === 'boolean') {
    wsComponent.scheme = (wsComponent.secure ? 'wss' : 'ws')
    wsComponent.secure = undefined
  }

  // reconstruct path from resource name
  if (wsComponent.resourceName) {
    const queryIndex = wsComponent.resourceName.indexOf('?')
    const path = queryIndex === -1
      ? wsComponent.resourceName
      : wsComponent.resourceName.slice(0, queryIndex)
    wsComponent.path = (path && path !== '/' ? path : undefined)
    wsComponent.query = queryIndex === -1
      ? undefined
      : wsComponent.resourceName.slice(queryIndex + 1)
    wsComponent.resourceName = undefined
  }

  // forbid fragment component
  wsComponent.fragment = undefined

  return wsComponent
}

/** @type {SchemeFn} */
function urnParse (urnComponent, options) {
  if (!urnComponent.path) {
    urnComponent.error = 'URN can not be parsed'
    return urnComponent
  }
  const matches = urnComponent.path.match(URN_REG)
  if (matches && matches[0] === urnComponent.path) {
    const scheme = options.scheme || urnComponent.scheme || 'urn'
    urnComponent.nid = matches[1].toLowerCase()
    urnComponent.nss = matches[2]
    const urnScheme = `${scheme}:${options.nid || urnComponent.nid}`
    const schemeHandler = getSchemeHandler(urnScheme)
    urnComponent.path = undefined

    if (schemeHandler) {
      urnComponent = schemeHandler.parse(urnComponent, options)
    }
  } else {
    urnComponent.error = urnComponent.error || 'URN can not be parsed.'
  }

  return urnComponent
}

/** @type {SchemeFn} */
function urnSerialize (urnComponent, options) {
  if (urnComponent.nid === undefined) {
    throw new Error('URN without nid cannot be serialized')
  }
  const scheme = options.scheme || urnComponent.scheme || 'urn'
  const nid = urnComponent.nid.toLowerCase()
  const urnScheme = `${scheme}:${options.nid || nid}`
  const schemeHandler = getSchemeHandler(urnScheme)

  if (schemeHandler) {
    urnComponent = schemeHandler.serialize(urnComponent, options)
  }

  const uriComponent = urnComponent
  const nss = urnComponent.nss
  uriComponent.path = `${nid || options.nid}:${nss}`

  options.skipEscape = true
  return uriComponent
}

/** @type {SchemeFn} */
function urnuuidParse (urnComponent, options) {
  const uuidComponent = urnComponent
  uuidComponent.uuid = uuidComponent.nss
  uuidComponent.nss = undefined

  if (!options.tolerant && (!uuidComponent.uuid || !isUUID(uuidComponent.uuid))) {
    uuidComponent.error = uuidComponent.error || 'UUID is not valid.'
  }

  return uuidComponent
}

/** @type {SchemeFn} */
function urnuuidSerialize (uuidComponent) {
  const urnComponent = uuidComponent
  // normalize UUID
  urnComponent.nss = (uuidComponent.uuid || '').toLowerCase()
  return urnComponent
}

const http = /** @type {SchemeHandler} */ ({
  scheme: 'http',
  domainHost: true,
  parse: httpParse,
  serialize: httpSerialize
})

const https = /** @type {SchemeHandler} */ ({
  scheme: 'https',
  domainHost: http.domainHost,
  parse: httpParse,
  serialize: httpSerialize
})

const ws = /** @type {SchemeHandler} */ ({
  scheme: 'ws',
  domainHost: true,
  parse: wsParse,
  serialize: wsSerialize
})

const wss = /** @type {SchemeHandler} */ ({
  scheme: 'wss',
  domainHost: ws.domainHost,
  parse: ws.parse,
  serialize: ws.serialize
})

const urn = /** @type {SchemeHandler} */ ({
  scheme: 'urn',
  parse: urnParse,
  serialize: urnSerialize,
  skipNormalize: true
})

const urnuuid = /** @type {SchemeHandler} */ ({
  scheme: 'urn:uuid',
  parse: urnuuidParse,
  serialize: urnuuidSerialize,
  skipNormalize: true
})

const SCHEMES = /** @type {Record<SchemeName, SchemeHandler>} */ ({
  http,
  https,
  ws,
  wss,
  urn,
  'urn:uuid': urnuuid
})

Object.setPrototypeOf(SCHEMES, null)

/**
 * @param {string|undefined} scheme
 * @returns {SchemeHandler|undefined}
 */
function getSchemeHandler (scheme) {
  return (
    scheme && (
      SCHEMES[/** @type {SchemeName} */ (scheme)] ||
      SCHEMES[/** @type {SchemeName} */(scheme.toLowerCase())])
  ) ||
    undefined
}

module.exports = {
  wsIsSecure,
  SCHEMES,
  isValidSchemeName,
  getSchemeHandler,
}


/***/ }),

/***/ 5077:
/***/ ((module) => {



/** @type {(value: string) => boolean} */
const isUUID = RegExp.prototype.test.bind(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu)

/** @type {(value: string) => boolean} */
const isIPv4 = RegExp.prototype.test.bind(/^(?:(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)$/u)

/** @type {(value: string) => boolean} */
const isPort = RegExp.prototype.test.bind(/^\d*$/u)

/** @type {(value: string) => boolean} */
const isHexPair = RegExp.prototype.test.bind(/^[\da-f]{2}$/iu)

/** @type {(value: string) => boolean} */
const isUnreserved = RegExp.prototype.test.bind(/^[\da-z\-._~]$/iu)

/** @type {(value: string) => boolean} */
const isPathCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/u)

/** @type {(value: string) => boolean} */
const isQueryFragmentCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/u)

/** @type {(value: string) => boolean} */
const isUserinfoCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:]$/u)

const BYTE_HEX = new Array(256)
{
  const HEX_DIGITS = '0123456789ABCDEF'
  for (let i = 0; i < 256; i++) {
    BYTE_HEX[i] = '%' + HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 0xF]
  }
}
function percentEncodeNonAscii (cp) {
  if (cp < 0x800) {
    return BYTE_HEX[0xC0 | (cp >> 6)] +
           BYTE_HEX[0x80 | (cp & 0x3F)]
  }
  if (cp < 0x10000) {
    return BYTE_HEX[0xE0 | (cp >> 12)] +
           BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
           BYTE_HEX[0x80 | (cp & 0x3F)]
  }
  return BYTE_HEX[0xF0 | (cp >> 18)] +
         BYTE_HEX[0x80 | ((cp >> 12) & 0x3F)] +
         BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
         BYTE_HEX[0x80 | (cp & 0x3F)]
}

/**
 * @param {Array<string>} input
 * @returns {string}
 */
function stringArrayToHexStripped (input) {
  let acc = ''
  let code = 0
  let i = 0

  for (i = 0; i < input.length; i++) {
    code = input[i].charCodeAt(0)
    if (code === 48) {
      continue
    }
    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
      return ''
    }
    acc += input[i]
    break
  }

  for (i += 1; i < input.length; i++) {
    code = input[i].charCodeAt(0)
    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
      return ''
    }
    acc += input[i]
  }
  return acc
}

/** @type {(value: string) => boolean} */
const isHextet = RegExp.prototype.test.bind(/^[\dA-Fa-f]{1,4}$/)

/** @type {(value: string) => boolean} */
const isIPvFuture = RegExp.prototype.test.bind(/^[vV][\dA-Fa-f]+\.[A-Za-z\d\-._~!$&'()*+,;=:]+$/)

/** @type {(value: string) => boolean} */
const isZoneCharacter = RegExp.prototype.test.bind(/^[A-Za-z\d\-._~]$/)

/**
 * @param {string} value
 * @returns {boolean}
 */
const nonSimpleDomain = RegExp.prototype.test.bind(/[^!"$&'()*+,\-.;=_`a-z{}~]/u)

/**
 * @param {string} zone
 * @returns {boolean}
 */
function isZoneIdentifier (zone) {
  if (zone.length === 0) return false

  for (let i = 0; i < zone.length; i++) {
    if (isZoneCharacter(zone[i])) continue
    if (zone[i] === '%' && i + 2 < zone.length && isHexPair(zone.slice(i + 1, i + 3))) {
      i += 2
      continue
    }
    return false
  }

  return true
}

/**
 * Compresses the longest run of zero hextets to "::" per RFC 5952. A run of a
 * single zero hextet is left uncompressed. On ties the leftmost run wins.
 *
 * @param {string[]} hextets
 * @returns {string}
 */
function compressIPv6ZeroRun (hextets) {
  let bestStart = -1
  let bestLength = 0
  let runStart = -1
  let runLength = 0
  for (let i = 0; i < hextets.length; i++) {
    if (hextets[i] === '0') {
      if (runStart === -1) runStart = i
      runLength++
      if (runLength > bestLength) {
        bestLength = runLength
        bestStart = runStart
      }
    } else {
      runStart = -1
      runLength = 0
    }
  }

  if (bestLength < 2) return hextets.join(':')

  const head = hextets.slice(0, bestStart).join(':')
  const tail = hextets.slice(bestStart + bestLength).join(':')
  return head + '::' + tail
}

/**
 * Validates an IPv6 address against the alternatives in RFC 3986 section
 * 3.2.2 and returns the same address with leading hextet zeroes removed.
 * An embedded IPv4 address counts as two hextets and is only valid at the end.
 *
 * @param {string} input
 * @returns {string|undefined}
 */
function normalizeIPv6Address (input) {
  const compression = input.indexOf('::')
  if (compression !== -1 && input.indexOf('::', compression + 1) !== -1) return undefined

  const left = compression === -1 ? input.split(':') : input.slice(0, compression).split(':')
  const right = compression === -1 ? [] : input.slice(compression + 2).split(':')
  if (compression !== -1) {
    if (left.length === 1 && left[0] === '') left.length = 0
    if (right.length === 1 && right[0] === '') right.length = 0
  }

  const parts = left.concat(right)
  let hextetCount = 0
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    if (part === '') return undefined

    if (part.indexOf('.') !== -1) {
      if (i !== parts.length - 1 || (compression !== -1 && right.length === 0) || !isIPv4(part)) return undefined
      hextetCount += 2
      continue
    }

    if (!isHextet(part)) return undefined
    parts[i] = parseInt(part, 16).toString(16)
    hextetCount++
  }

  if (compression === -1) {
    if (hextetCount !== 8) return undefined
    return compressIPv6ZeroRun(parts)
  }
  if (hextetCount >= 8) return undefined

  // expand "::" then re-compress the longest run for a canonical result
  const expanded = parts.slice(0, left.length)
  for (let i = hextetCount; i < 8; i++) expanded.push('0')
  for (let i = left.length; i < parts.length; i++) expanded.push(parts[i])
  return compressIPv6ZeroRun(expanded)
}

/**
 * @typedef {Object} NormalizeIPv6Result
 * @property {string} host - The normalized host.
 * @property {string} [escapedHost] - The escaped host.
 * @property {boolean} isIPV6 - Indicates if the host is an IPv6 address.
 * @property {boolean} [isIPVFuture] - Indicates if the host is an IPvFuture literal.
 * @property {boolean} [error] - Indicates if a bracketed IP literal is malformed.
 */

/**
 * Validates and normalizes a bracketed IP literal. Raw zone separators remain
 * accepted for backwards compatibility, while encoded separators and zone
 * contents follow RFC 6874.
 *
 * @param {string} host
 * @returns {NormalizeIPv6Result}
 */
function normalizeIPv6 (host) {
  const bracketed = host[0] === '[' && host[host.length - 1] === ']'
  const hasBracket = host[0] === '[' || host[host.length - 1] === ']'
  if (hasBracket && !bracketed) return { host, isIPV6: false, error: true }

  let input = bracketed ? host.slice(1, -1) : host
  if (bracketed && isIPvFuture(input)) {
    input = input.toLowerCase()
    return { host: `[${input}]`, escapedHost: input, isIPV6: false, isIPVFuture: true }
  }

  if (findToken(input, ':') < 2) {
    return { host, isIPV6: false, error: bracketed }
  }

  let zoneIdentifier = ''
  const zoneSeparator = input.indexOf('%')
  if (zoneSeparator !== -1) {
    const separatorLength = input.slice(zoneSeparator, zoneSeparator + 3).toLowerCase() === '%25' ? 3 : 1
    zoneIdentifier = input.slice(zoneSeparator + separatorLength)
    if (!isZoneIdentifier(zoneIdentifier)) return { host, isIPV6: false, error: true }
    input = input.slice(0, zoneSeparator)
  }

  const address = normalizeIPv6Address(input)
  if (address === undefined) return { host, isIPV6: false, error: true }

  return {
    host: address + (zoneIdentifier ? '%' + zoneIdentifier : ''),
    escapedHost: address + (zoneIdentifier ? '%25' + zoneIdentifier : ''),
    isIPV6: true
  }
}

/**
 * @param {string} str
 * @param {string} token
 * @returns {number}
 */
function findToken (str, token) {
  let ind = 0
  for (let i = 0; i < str.length; i++) {
    if (str[i] === token) ind++
  }
  return ind
}

/**
 * @param {string} path
 * @returns {string}
 *
 * @see https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.4
 */
function removeDotSegments (path) {
  let input = path
  const output = []
  let nextSlash = -1
  let len = 0

  // eslint-disable-next-line no-cond-assign
  while (len = input.length) {
    if (len === 1) {
      if (input === '.') {
        break
      } else if (input === '/') {
        output.push('/')
        break
      } else {
        output.push(input)
        break
      }
    } else if (len === 2) {
      if (input[0] === '.') {
        if (input[1] === '.') {
          break
        } else if (input[1] === '/') {
          input = input.slice(2)
          continue
        }
      } else if (input[0] === '/') {
        if (input[1] === '.' || input[1] === '/') {
          output.push('/')
          break
        }
      }
    } else if (len === 3) {
      if (input === '/..') {
        if (output.length !== 0) {
          output.pop()
        }
        output.push('/')
        break
      }
    }
    if (input[0] === '.') {
      if (input[1] === '.') {
        if (input[2] === '/') {
          input = input.slice(3)
          continue
        }
      } else if (input[1] === '/') {
        input = input.slice(2)
        continue
      }
    } else if (input[0] === '/') {
      if (input[1] === '.') {
        if (input[2] === '/') {
          input = input.slice(2)
          continue
        } else if (input[2] === '.') {
          if (input[3] === '/') {
            input = input.slice(3)
            if (output.length !== 0) {
              output.pop()
            }
            continue
          }
        }
      }
    }

    // Rule 2E: Move normal path segment to output
    if ((nextSlash = input.indexOf('/', 1)) === -1) {
      output.push(input)
      break
    } else {
      output.push(input.slice(0, nextSlash))
      input = input.slice(nextSlash)
    }
  }

  return output.join('')
}

/**
 * Removes dot segments from the path of a relative reference (a path that does
 * not start with "/") without changing what it resolves to against any base.
 * Unlike `removeDotSegments`, leading ".." segments that cannot be collapsed
 * are kept, the result never becomes root-relative, and a result that would be
 * empty or start with an empty segment is prefixed with "." (an empty path
 * means "same document" and a leading "//" would introduce an authority).
 *
 * @param {string} path
 * @returns {string}
 */
function removeDotSegmentsRelative (path) {
  if (path === '' || path[0] === '/') {
    return removeDotSegments(path)
  }

  const segments = path.split('/')
  const last = segments.length - 1
  /** @type {string[]} */
  const output = []
  let trailingDirectory = false

  for (let i = 0; i <= last; i++) {
    const segment = segments[i]
    if (segment === '.' || segment === '..') {
      if (segment === '..') {
        if (output.length !== 0 && output[output.length - 1] !== '..') {
          output.pop()
        } else {
          output.push('..')
        }
      }
      trailingDirectory = i === last
    } else {
      output.push(segment)
    }
  }

  if (trailingDirectory && output[output.length - 1] !== '..') {
    output.push('')
  }
  if (output.length === 0 || output[0] === '' || output[0].includes(':')) {
    // An empty path, a leading empty segment ("//"), or a first segment
    // containing ":" (which would be mistaken for a scheme, RFC 3986 section
    // 4.2) must stay behind a "." segment so the reference keeps its meaning.
    output.unshift('.')
  }

  return output.join('/')
}

/**
 * Re-escape RFC 3986 gen-delims that must not appear literally in the host.
 * After the URI regex parses, these characters cannot be literal in the host
 * field, so any that appear after decoding came from percent-encoding and
 * must be restored to prevent authority structure changes.
 *
 * @param {string} host
 * @param {boolean} isIP - true for IPv4/IPv6 hosts (skip colon re-escaping)
 * @returns {string}
 */
const HOST_DELIMS = { '@': '%40', '/': '%2F', '?': '%3F', '#': '%23', ':': '%3A' }
const HOST_DELIM_RE = /[@/?#:]/g
const HOST_DELIM_NO_COLON_RE = /[@/?#]/g

function reescapeHostDelimiters (host, isIP) {
  const re = isIP ? HOST_DELIM_NO_COLON_RE : HOST_DELIM_RE
  re.lastIndex = 0
  return host.replace(re, (ch) => HOST_DELIMS[ch])
}

/**
 * Normalizes percent escapes and optionally decodes only unreserved ASCII bytes.
 * Reserved delimiters such as `%2F` stay escaped; `%2E` is unreserved.
 *
 * @param {string} input
 * @param {boolean} [decodeUnreserved=false]
 * @returns {string}
 */
function normalizePercentEncoding (input, decodeUnreserved = false) {
  if (input.indexOf('%') === -1) {
    return input
  }

  let output = ''

  for (let i = 0; i < input.length; i++) {
    if (input[i] === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        const normalizedHex = hex.toUpperCase()
        const decoded = String.fromCharCode(parseInt(normalizedHex, 16))

        if (decodeUnreserved && isUnreserved(decoded)) {
          output += decoded
        } else {
          output += '%' + normalizedHex
        }

        i += 2
        continue
      }
    }

    output += input[i]
  }

  return output
}

/**
 * Normalizes path data without turning reserved escapes into live path syntax.
 * Valid escapes are uppercased, raw unsafe characters are escaped, and only
 * unreserved bytes that are not `.` are decoded.
 *
 * @param {string} input
 * @returns {string}
 */
function normalizePathEncoding (input) {
  let output = ''

  for (let i = 0; i < input.length; i++) {
    const ch = input[i]
    if (ch === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        const normalizedHex = hex.toUpperCase()
        const decoded = String.fromCharCode(parseInt(normalizedHex, 16))

        if (decoded !== '.' && isUnreserved(decoded)) {
          output += decoded
        } else {
          output += '%' + normalizedHex
        }

        i += 2
        continue
      }
    }

    if (isPathCharacter(ch)) {
      output += ch
    } else {
      const code = input.charCodeAt(i)
      if (code < 0x80) {
        output += isEscapeSafe(code) ? ch : BYTE_HEX[code]
      } else if (code < 0xD800 || code > 0xDFFF) {
        output += percentEncodeNonAscii(code)
      } else if (code <= 0xDBFF && i + 1 < input.length) {
        const low = input.charCodeAt(i + 1)
        if (low >= 0xDC00 && low <= 0xDFFF) {
          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
          i++
        } else {
          output += percentEncodeNonAscii(0xFFFD)
        }
      } else {
        output += percentEncodeNonAscii(0xFFFD)
      }
    }
  }

  return output
}

/**
 * Serializes a path without rewriting reserved data. Raw RFC 3986 path
 * characters remain literal, valid escapes are preserved and uppercased, and
 * everything else is UTF-8 percent-encoded. In a path-noscheme, a colon in the
 * first segment must be escaped so the result cannot be parsed as a scheme.
 *
 * @param {string} input
 * @param {boolean} [pathNoScheme=false]
 * @returns {string}
 */
function serializePathEncoding (input, pathNoScheme = false) {
  let output = ''
  let firstSegment = pathNoScheme && input[0] !== '/'

  for (let i = 0; i < input.length; i++) {
    const ch = input[i]
    if (ch === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        output += '%' + hex.toUpperCase()
        i += 2
        continue
      }
    }

    if (ch === '/') {
      firstSegment = false
    }

    if (isPathCharacter(ch) && (ch !== ':' || !firstSegment)) {
      output += ch
    } else {
      const code = input.charCodeAt(i)
      if (code < 0x80) {
        output += BYTE_HEX[code]
      } else if (code < 0xD800 || code > 0xDFFF) {
        output += percentEncodeNonAscii(code)
      } else if (code <= 0xDBFF && i + 1 < input.length) {
        const low = input.charCodeAt(i + 1)
        if (low >= 0xDC00 && low <= 0xDFFF) {
          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
          i++
        } else {
          output += percentEncodeNonAscii(0xFFFD)
        }
      } else {
        output += percentEncodeNonAscii(0xFFFD)
      }
    }
  }

  return output
}

/**
 * Percent-encodes a URI component using its RFC 3986 literal character set.
 * Existing valid escapes are preserved and normalized to uppercase hex.
 *
 * @param {string} input
 * @param {(value: string) => boolean} isAllowed
 * @returns {string}
 */
function encodeComponent (input, isAllowed) {
  let output = ''

  for (let i = 0; i < input.length; i++) {
    const ch = input[i]
    if (ch === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        output += '%' + hex.toUpperCase()
        i += 2
        continue
      }
    }

    if (isAllowed(ch)) {
      output += ch
    } else {
      const code = input.charCodeAt(i)
      if (code < 0x80) {
        output += BYTE_HEX[code]
      } else if (code < 0xD800 || code > 0xDFFF) {
        output += percentEncodeNonAscii(code)
      } else if (code <= 0xDBFF && i + 1 < input.length) {
        const low = input.charCodeAt(i + 1)
        if (low >= 0xDC00 && low <= 0xDFFF) {
          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
          i++
        } else {
          output += percentEncodeNonAscii(0xFFFD)
        }
      } else {
        output += percentEncodeNonAscii(0xFFFD)
      }
    }
  }

  return output
}

/**
 * Encodes userinfo while preserving its RFC 3986 §3.2.1 literal characters.
 * In particular, authority delimiters such as `@`, `/`, `?`, and `#` are data.
 *
 * @param {string} input
 * @returns {string}
 */
function encodeUserinfo (input) {
  return encodeComponent(input, isUserinfoCharacter)
}

/**
 * Encodes query data using the RFC 3986 §3.4 grammar. A literal `#` must be
 * escaped because it would otherwise begin the fragment component.
 *
 * @param {string} input
 * @returns {string}
 */
function encodeQuery (input) {
  return encodeComponent(input, isQueryFragmentCharacter)
}

/**
 * Encodes fragment data using the RFC 3986 §3.5 grammar.
 *
 * @param {string} input
 * @returns {string}
 */
function encodeFragment (input) {
  return encodeComponent(input, isQueryFragmentCharacter)
}

function isEscapeSafe (cp) {
  return (
    (cp >= 0x30 && cp <= 0x39) ||
    (cp >= 0x41 && cp <= 0x5A) ||
    (cp >= 0x61 && cp <= 0x7A) ||
    cp === 0x2A || cp === 0x2B || cp === 0x2D || cp === 0x2E ||
    cp === 0x2F || cp === 0x40 || cp === 0x5F
  )
}

/**
 * Normalizes the percent-encoding of a query or fragment component.
 *
 * Like `normalizePathEncoding`, but uses the query/fragment character set
 * (which additionally allows `?`) and decodes `.` since it has no dot-segment
 * meaning outside of a path.
 *
 * @param {string} input
 * @returns {string}
 */
function normalizeQueryFragmentEncoding (input) {
  let output = ''

  for (let i = 0; i < input.length; i++) {
    const ch = input[i]
    if (ch === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        const normalizedHex = hex.toUpperCase()
        const decoded = String.fromCharCode(parseInt(normalizedHex, 16))

        if (isUnreserved(decoded)) {
          output += decoded
        } else {
          output += '%' + normalizedHex
        }

        i += 2
        continue
      }
    }

    if (isQueryFragmentCharacter(ch)) {
      output += ch
    } else {
      const code = input.charCodeAt(i)
      if (code < 0x80) {
        output += isEscapeSafe(code) ? ch : BYTE_HEX[code]
      } else if (code < 0xD800 || code > 0xDFFF) {
        output += percentEncodeNonAscii(code)
      } else if (code <= 0xDBFF && i + 1 < input.length) {
        const low = input.charCodeAt(i + 1)
        if (low >= 0xDC00 && low <= 0xDFFF) {
          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
          i++
        } else {
          output += percentEncodeNonAscii(0xFFFD)
        }
      } else {
        output += percentEncodeNonAscii(0xFFFD)
      }
    }
  }

  return output
}

/**
 * Escapes a component while preserving existing valid percent escapes.
 *
 * @param {string} input
 * @returns {string}
 */
function escapePreservingEscapes (input) {
  let output = ''

  for (let i = 0; i < input.length; i++) {
    if (input[i] === '%' && i + 2 < input.length) {
      const hex = input.slice(i + 1, i + 3)
      if (isHexPair(hex)) {
        output += '%' + hex.toUpperCase()
        i += 2
        continue
      }
    }

    output += escape(input[i])
  }

  return output
}

/**
 * @param {import('../types/index').URIComponent} component
 * @returns {string|undefined}
 */
function recomposeAuthority (component) {
  const uriTokens = []

  if (component.userinfo !== undefined) {
    uriTokens.push(encodeUserinfo(component.userinfo))
    uriTokens.push('@')
  }

  if (component.host !== undefined) {
    let host = component.host
    if (!isIPv4(host)) {
      let ipV6res = normalizeIPv6(host)
      if (ipV6res.isIPV6 !== true && ipV6res.isIPVFuture !== true) {
        // Decode only unreserved bytes, once. In particular, keep %25 encoded
        // so it cannot introduce a second escape during recomposition.
        host = normalizePercentEncoding(host, true)
        ipV6res = normalizeIPv6(host)
      }
      if (ipV6res.isIPV6 === true || ipV6res.isIPVFuture === true) {
        host = `[${ipV6res.escapedHost}]`
      } else {
        host = reescapeHostDelimiters(host, false)
      }
    }
    uriTokens.push(host)
  }

  if (typeof component.port === 'number' || typeof component.port === 'string') {
    const port = String(component.port)
    if (!isPort(port)) {
      throw new TypeError('URI port is malformed.')
    }
    uriTokens.push(':')
    uriTokens.push(port)
  }

  return uriTokens.length ? uriTokens.join('') : undefined
};

module.exports = {
  nonSimpleDomain,
  recomposeAuthority,
  reescapeHostDelimiters,
  normalizePercentEncoding,
  normalizePathEncoding,
  serializePathEncoding,
  normalizeQueryFragmentEncoding,
  encodeUserinfo,
  encodeQuery,
  encodeFragment,
  escapePreservingEscapes,
  removeDotSegments,
  removeDotSegmentsRelative,
  isIPv4,
  isUUID,
  normalizeIPv6,
  stringArrayToHexStripped
}


/***/ }),

/***/ 3837:
/***/ ((module) => {

module.exports = /*#__PURE__*/JSON.parse('{"$id":"https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#","description":"Meta-schema for $data reference (JSON AnySchema extension proposal)","type":"object","required":["$data"],"properties":{"$data":{"type":"string","anyOf":[{"format":"relative-json-pointer"},{"format":"json-pointer"}]}},"additionalProperties":false}');

/***/ }),

/***/ 2079:
/***/ ((module) => {

module.exports = /*#__PURE__*/JSON.parse('{"$schema":"http://json-schema.org/draft-07/schema#","$id":"http://json-schema.org/draft-07/schema#","title":"Core schema meta-schema","definitions":{"schemaArray":{"type":"array","minItems":1,"items":{"$ref":"#"}},"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{"allOf":[{"$ref":"#/definitions/nonNegativeInteger"},{"default":0}]},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true,"default":[]}},"type":["object","boolean"],"properties":{"$id":{"type":"string","format":"uri-reference"},"$schema":{"type":"string","format":"uri"},"$ref":{"type":"string","format":"uri-reference"},"$comment":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},"default":true,"readOnly":{"type":"boolean","default":false},"examples":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{"$ref":"#/definitions/nonNegativeInteger"},"minLength":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"additionalItems":{"$ref":"#"},"items":{"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/schemaArray"}],"default":true},"maxItems":{"$ref":"#/definitions/nonNegativeInteger"},"minItems":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean","default":false},"contains":{"$ref":"#"},"maxProperties":{"$ref":"#/definitions/nonNegativeInteger"},"minProperties":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"required":{"$ref":"#/definitions/stringArray"},"additionalProperties":{"$ref":"#"},"definitions":{"type":"object","additionalProperties":{"$ref":"#"},"default":{}},"properties":{"type":"object","additionalProperties":{"$ref":"#"},"default":{}},"patternProperties":{"type":"object","additionalProperties":{"$ref":"#"},"propertyNames":{"format":"regex"},"default":{}},"dependencies":{"type":"object","additionalProperties":{"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/stringArray"}]}},"propertyNames":{"$ref":"#"},"const":true,"enum":{"type":"array","items":true,"minItems":1,"uniqueItems":true},"type":{"anyOf":[{"$ref":"#/definitions/simpleTypes"},{"type":"array","items":{"$ref":"#/definitions/simpleTypes"},"minItems":1,"uniqueItems":true}]},"format":{"type":"string"},"contentMediaType":{"type":"string"},"contentEncoding":{"type":"string"},"if":{"$ref":"#"},"then":{"$ref":"#"},"else":{"$ref":"#"},"allOf":{"$ref":"#/definitions/schemaArray"},"anyOf":{"$ref":"#/definitions/schemaArray"},"oneOf":{"$ref":"#/definitions/schemaArray"},"not":{"$ref":"#"}},"default":true}');

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
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
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(486);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
