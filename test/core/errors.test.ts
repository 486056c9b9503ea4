import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ERROR_TABLE,
  GENERIC_HINT,
  errnoOf,
  hintOf,
  httpStatusOf,
  isErrorCode,
  isSetAside,
  isTransient,
  logOpenError,
  nothingSent,
} from "../../src/core/errors.js";

const scratch = mkdtempSync(join(tmpdir(), "eg-errors-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const failurePaths = readFileSync(resolve(import.meta.dirname, "../../docs/failure-paths.md"), "utf8");

/** The codes named in the first cell of a table row of docs/failure-paths.md. */
const documented = new Set(
  failurePaths
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])),
);

async function caught(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.unreachable("expected a rejection"),
    (err: unknown) => err,
  );
}

describe("the error table", () => {
  it("has exactly one row per code of ERROR_CODES, and ERROR_CODES has no duplicate", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(isErrorCode(code), code).toBe(true);
    expect(isErrorCode("NOT_A_CODE")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("has no empty hint: a row has advice of its own or none", () => {
    for (const code of ERROR_CODES) {
      const hint = ERROR_TABLE[code].hint;
      if (hint !== undefined) expect(hint.trim(), code).not.toBe("");
    }
  });

  it("gives every code a row in docs/failure-paths.md", () => {
    expect(ERROR_CODES.filter((code) => !documented.has(code))).toEqual([]);
  });
});

describe("the readers give the classification the App had before the table", () => {
  // Copied from src/app/service.ts (TRANSIENT, SET_ASIDE), src/app/runner-b.ts (NOT_SENT) and
  // src/app/webhook.ts (HTTP_STATUS) as they were before they read the table.
  const transient = [
    "KILL_SWITCH_ENGAGED",
    "GITHUB_UNAVAILABLE",
    "APP_DRAINING",
    "STORE_UNAVAILABLE",
    "PROCESS_FENCED",
    "BUDGET_UNCONFIRMED",
    "DISPATCH_OUTCOME_UNKNOWN",
    "SECRET_UNAVAILABLE",
    "ENVELOPE_PR_BUSY",
    "VERIFIED_CHECK_BUSY",
    // Added with the budget deferral: queued for the sweeper until the installation's reset.
    "GITHUB_BUDGET_LOW",
  ];
  const setAside = ["KILL_SWITCH_ENGAGED", "APP_DRAINING", "GITHUB_BUDGET_LOW"];
  const notSent = [
    "KILL_SWITCH_ENGAGED",
    "APP_DRAINING",
    "PROCESS_FENCED",
    "SECRET_UNAVAILABLE",
    "PRIVATE_KEY_INVALID",
    "GITHUB_BUDGET_LOW",
  ];
  const status: Record<string, number> = {
    WEBHOOK_SIGNATURE_INVALID: 401,
    WEBHOOK_BODY_TOO_LARGE: 413,
    WEBHOOK_HEADERS_MISSING: 400,
    WEBHOOK_BODY_NOT_JSON: 400,
    WEBHOOK_PAYLOAD_INVALID: 400,
    NOT_FOUND: 404,
  };

  it("queues exactly the former TRANSIENT codes", () => {
    expect(ERROR_CODES.filter(isTransient).sort()).toEqual([...transient].sort());
    expect(isTransient("PRIVATE_KEY_INVALID")).toBe(false);
    expect(isTransient("INTERNAL_ERROR")).toBe(false);
    expect(isTransient("NOT_A_CODE")).toBe(false);
  });

  it("sets aside exactly a pause, a drain and a budget deferral", () => {
    expect(ERROR_CODES.filter(isSetAside).sort()).toEqual([...setAside].sort());
    expect(isSetAside("PROCESS_FENCED")).toBe(false);
    expect(isSetAside("NOT_A_CODE")).toBe(false);
  });

  it("says nothing was sent for exactly the former NOT_SENT codes", () => {
    expect(ERROR_CODES.filter(nothingSent).sort()).toEqual([...notSent].sort());
    expect(nothingSent("GITHUB_UNAVAILABLE")).toBe(false);
    expect(nothingSent("NOT_A_CODE")).toBe(false);
  });

  it("answers the former HTTP_STATUS codes with their status and every other code 503", () => {
    for (const code of ERROR_CODES) expect(httpStatusOf(code), code).toBe(status[code] ?? 503);
    expect(httpStatusOf("SECRET_UNAVAILABLE")).toBe(503);
    expect(httpStatusOf("WEBHOOK_SIGNATURE_INVALID")).toBe(401);
  });

  it("gives the former hints word for word, and the generic advice elsewhere", () => {
    const retry = "then `envelope-gate app retry --delivery ID` (the App kept its payload; any replica's worker takes it up)";
    expect(GENERIC_HINT).toBe(`Fix the cause named in the message, ${retry}.`);
    expect(hintOf("GITHUB_UNAVAILABLE")).toBe(
      "GitHub was unreachable, slow or refused the request: check githubstatus.com and the App's permissions. The App holds the delivery (queued) and its sweeper retries it; nothing to redeliver.",
    );
    expect(hintOf("INTERNAL_ERROR")).toBe(`A bug in envelope-gate: report it with the delivery id and the log line, ${retry}.`);
    expect(hintOf("KILL_SWITCH_ENGAGED")).toBe(
      "Held while the App was paused: after `envelope-gate app resume` the sweeper sends it (every delivery is recorded during a pause; nothing to redeliver).",
    );
    expect(hintOf("WEBHOOK_SIGNATURE_INVALID")).toBe(GENERIC_HINT);
    expect(hintOf("APP_DRAINING")).toBe(GENERIC_HINT);
    expect(hintOf("NOT_A_CODE")).toBe(GENERIC_HINT);
    expect(hintOf(null)).toBe(GENERIC_HINT);
    expect(ERROR_CODES.filter((code) => ERROR_TABLE[code].hint !== undefined)).toHaveLength(29);
  });
});

describe("the GITHUB_UNAVAILABLE hint names the App's API URL", () => {
  it("names a GitHub Enterprise Server URL instead of githubstatus.com, and keeps github.com's advice for api.github.com", () => {
    const ghes = hintOf("GITHUB_UNAVAILABLE", { githubApiUrl: "https://ghe.example.com/api/v3" });
    expect(ghes).toContain("GitHub at https://ghe.example.com/api/v3 (ENVELOPE_GATE_GITHUB_API_URL, the App's settings)");
    expect(ghes).not.toContain("githubstatus.com");
    expect(hintOf("GITHUB_UNAVAILABLE", { githubApiUrl: "https://api.github.com" })).toBe(hintOf("GITHUB_UNAVAILABLE"));
    expect(hintOf("STORE_UNAVAILABLE", { githubApiUrl: "https://ghe.example.com/api/v3" })).toBe(hintOf("STORE_UNAVAILABLE"));
  });
});

describe("errnoOf", () => {
  it("reads a real Node error's code and nothing from what has none", async () => {
    const dir = join(scratch, "errno");
    mkdirSync(dir);
    expect(errnoOf(await caught(readFile(join(dir, "absent"))))).toBe("ENOENT");
    expect(errnoOf(await caught(readFile(dir)))).toBe("EISDIR");
    expect(errnoOf(new Error("plain"))).toBeUndefined();
    expect(errnoOf(Object.assign(new Error("pg"), { code: "23505" }))).toBe("23505");
    expect(errnoOf({ code: null })).toBeUndefined();
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf(undefined)).toBeUndefined();
    expect(errnoOf("ENOENT")).toBeUndefined();
  });
});

describe("logOpenError", () => {
  const dir = join(scratch, "log");
  mkdirSync(dir);
  writeFileSync(join(dir, "file"), "");
  mkdirSync(join(dir, "directory"));

  it("is OBSERVER_LOG_MISSING when nothing is at the path (ENOENT, ENOTDIR), with the caller's hint", async () => {
    for (const path of [join(dir, "absent.jsonl"), join(dir, "file", "observer.jsonl")]) {
      const cause = await caught(open(path, "r"));
      const err = logOpenError(cause, path, "Record one.");
      expect([err.code, err.message, err.file, err.hint, err.cause]).toEqual([
        "OBSERVER_LOG_MISSING",
        `observer log ${path} does not exist`,
        path,
        "Record one.",
        cause,
      ]);
    }
    expect(logOpenError(await caught(open(join(dir, "absent"), "r")), join(dir, "absent")).hint).toBeUndefined();
  });

  it("is OBSERVER_LOG_UNREADABLE naming the errno otherwise, without the missing-log hint", async () => {
    const path = join(dir, "directory");
    const cause = await caught(readFile(path));
    const err = logOpenError(cause, path, "Record one.");
    expect([err.code, err.message, err.file, err.hint, err.cause]).toEqual([
      "OBSERVER_LOG_UNREADABLE",
      `observer log ${path} cannot be read (EISDIR)`,
      path,
      undefined,
      cause,
    ]);
    expect(logOpenError("not an error", path).message).toBe(`observer log ${path} cannot be read (not an error)`);
  });
});

describe("every code the source answers is in the table", () => {
  const srcRoot = resolve(import.meta.dirname, "../../src");
  const sources = (readdirSync(srcRoot, { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => /\.(ts|js|mjs|c|h)$/.test(f))
    .map((f) => ({ file: f, text: readFileSync(join(srcRoot, f), "utf8") }));
  // A code where it is answered, logged or refused with: a refusal's first argument, an answer's
  // `code:`, a fallback code (`?? "X"`), a hint looked up, a code in a failure line's text.
  const ANSWERED =
    /(?:(?:\bRefusal\(\s*|\brefuse\(\s*|\bfail\(\s*|\bcode:\s*|\?\?\s*|\bhintOf\(\s*)["'`]|envelope-gate: )([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;

  it("names only codes of ERROR_CODES, wherever src/ answers one by its literal", () => {
    const answered = sources.flatMap(({ file, text }) => [...text.matchAll(ANSWERED)].map((m) => ({ file, code: m[1] as string })));
    expect(answered.length).toBeGreaterThan(150);
    expect(new Set(answered.map((a) => a.code))).toContain("NOT_FOUND");
    expect(answered.filter((a) => !isErrorCode(a.code)).map((a) => `${a.file}: ${a.code}`)).toEqual([]);
  });

  it("reads no code off an error of unknown kind (a Node or driver error's ENOENT or SQLITE_BUSY would be answered)", () => {
    const casts = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/\(\s*\w+\s+as\s+(?:Refusal|\{\s*code[^}]*\})\s*\)\s*(?:\?\.|\.)code\b/g)]
        .filter(() => file !== "core/errors.ts") // errnoOf: reads a Node error's own errno, never an answered code
        .map((m) => `${file}: ${m[0]}`),
    );
    expect(casts).toEqual([]);
  });

  it("answers the App's HTTP refusals through a Refusal, so the type checker holds the code to the table", () => {
    const server = sources.find((s) => s.file === "app/server.ts")?.text ?? "";
    expect(server).toContain('new Refusal("NOT_FOUND"');
    expect(server).not.toMatch(/error:\s*\{\s*code:/);
  });
});
