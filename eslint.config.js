// Lint: typescript-eslint's recommended rules over src/, test/ and scripts/, as the actions/* and
// octokit repositories run them; formatting is prettier's (npm run format:check).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// What may import what (docs/architecture.md, "Rooms"): core is pure and imports no other room
// and no Node module that does I/O; github, store and observer are the only doors to the
// outside and reach core only (observer also the check command's envelope reader); action, app
// and cli are thin and wire the rest together.
const ROOMS = ["action", "app", "check", "cli", "core", "github", "observer", "store"];
const ALLOWED = {
  github: ["core"],
  store: ["core"],
  check: ["core"],
  observer: ["core", "check"],
  action: ["core", "check", "github", "observer"],
  app: ["core", "github", "store"],
};
const roomRules = Object.entries(ALLOWED).map(([room, allowed]) => ({
  files: [`src/${room}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: ROOMS.filter((r) => r !== room && !allowed.includes(r)).map((r) => ({
          group: [`../${r}/*`, `../../${r}/*`],
          message: `src/${room} may import ${allowed.map((a) => `src/${a}`).join(", ")} (docs/architecture.md, "Rooms")`,
        })),
      },
    ],
  },
}));

// The wall around src/core is an allow list: what is not named here is refused.
// - Imports: core's own modules ("./x.js"), the two JSON schemas, and four pure packages (ajv
//   validates, fflate unzips bytes in memory, minimatch matches globs, yaml parses text). Of Node,
//   only node:crypto's createHash (a digest of bytes in memory) and node:buffer's isUtf8: both are
//   pure functions of their input; the rest of node:crypto reads entropy and is refused.
// - Globals: the Buffer global stays allowed (log-reader.ts scans bytes with it): its API only
//   copies and compares memory, it reads and writes nothing. Refused are the globals that reach the
//   process, the network, the module loader, the clock or a timer: core takes time as an argument.
// - Dynamic import(), `import x = require()` and import.meta are refused: they load or locate code.
const CORE_IMPORTS = [
  String.raw`\./[a-z0-9-]+\.js`,
  String.raw`\.\./\.\./schema/[a-z0-9-]+\.schema\.json`,
  "ajv",
  "fflate",
  "minimatch",
  "yaml",
  "node:crypto",
  "node:buffer",
];
const CORE_MESSAGE =
  'src/core is pure: it may import only its own modules and the packages eslint.config.js allows (docs/architecture.md, "Rooms")';
const CORE_GLOBALS = [
  "process",
  "fetch",
  "require",
  "module",
  "exports",
  "__dirname",
  "__filename",
  "global",
  "globalThis",
  "console",
  "crypto",
  "performance",
  "navigator",
  "setTimeout",
  "setInterval",
  "setImmediate",
  "clearTimeout",
  "clearInterval",
  "clearImmediate",
  "queueMicrotask",
  "WebSocket",
  "XMLHttpRequest",
  "EventSource",
  "Request",
  "Response",
  "Headers",
  "Worker",
  "MessageChannel",
  "BroadcastChannel",
  "eval",
  "Function",
];
const coreRules = {
  files: ["src/core/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths: [
          {
            name: "node:crypto",
            allowImportNames: ["createHash"],
            message: "src/core may use node:crypto's createHash only (eslint.config.js)",
          },
          { name: "node:buffer", allowImportNames: ["isUtf8"], message: "src/core may use node:buffer's isUtf8 only (eslint.config.js)" },
        ],
        patterns: [{ regex: `^(?!(?:${CORE_IMPORTS.join("|")})$)`, caseSensitive: true, message: CORE_MESSAGE }],
      },
    ],
    "no-restricted-globals": [
      "error",
      ...CORE_GLOBALS.map((name) => ({ name, message: "src/core does no I/O and reads no clock (eslint.config.js)" })),
    ],
    "no-restricted-properties": [
      "error",
      { object: "Date", property: "now", message: "src/core takes the time as an argument (eslint.config.js)" },
      { object: "Math", property: "random", message: "src/core is deterministic (eslint.config.js)" },
    ],
    "no-restricted-syntax": [
      "error",
      { selector: "ImportExpression", message: "src/core loads no code at run time (eslint.config.js)" },
      { selector: "TSImportEqualsDeclaration", message: "src/core loads no code with require (eslint.config.js)" },
      { selector: "MetaProperty", message: "src/core does not locate itself: import.meta is refused (eslint.config.js)" },
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message: "src/core takes the time as an argument (eslint.config.js)",
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".ci/node24/**",
      "coverage/**",
      "examples/**/node_modules/**",
      "src/core/envelope-validator-generated.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        AbortSignal: "readonly",
        AbortController: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        queueMicrotask: "readonly",
        structuredClone: "readonly",
        performance: "readonly",
        globalThis: "readonly",
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // A catch that swallows must say why, in a comment inside it.
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
  ...roomRules,
  coreRules,
);
