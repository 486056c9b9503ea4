// Lint: typescript-eslint's recommended rules over src/, test/ and scripts/, as the actions/* and
// octokit repositories run them; formatting is prettier's (npm run format:check).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// What may import what (docs/architecture.md, "Rooms"): core is pure and imports no other room
// and no Node module that does I/O; github, store and observer are the only doors to the
// outside and reach core only (observer also the check command's envelope reader); action, app
// and cli are thin and wire the rest together.
const ROOMS = ["action", "app", "check", "cli", "core", "github", "observer", "store"];
const IO_MODULES = ["fs", "fs/promises", "child_process", "net", "http", "https", "http2", "dgram", "dns", "os", "worker_threads", "tls"];
const ALLOWED = {
  core: [],
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
        patterns: [
          ...ROOMS.filter((r) => r !== room && !allowed.includes(r)).map((r) => ({
            group: [`../${r}/*`, `../../${r}/*`],
            message: `src/${room} may import ${allowed.length ? allowed.map((a) => `src/${a}`).join(", ") : "no other room"} (docs/architecture.md, "Rooms")`,
          })),
          ...(room === "core"
            ? [{ group: IO_MODULES.flatMap((m) => [m, `node:${m}`]), message: "src/core does no I/O (docs/architecture.md)" }]
            : []),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", ".ci/node24/**", "coverage/**", "examples/**/node_modules/**"] },
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
);
