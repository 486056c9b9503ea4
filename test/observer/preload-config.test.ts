/**
 * The stage's preload-config.json, through the real bundle: a stage prepared as the wrapper
 * prepares one (the preload copy and the channel FIFO), a real `node` started with the preload
 * in NODE_OPTIONS, and the channel read as the wrapper reads it.
 * Build first (`node scripts/build.mjs`; `npm test` does it in pretest).
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FifoReader, makeFifo } from "../../src/observer/fifo.js";
import { EVENTS_FIFO_NAME, FrameDecoder, PRELOAD_CONFIG_NAME, PRELOAD_FILE_NAME, preloadOption } from "../../src/observer/protocol.js";
import { ROOT, spawnNode } from "./harness.js";

const KEY = "EG_PRELOAD_CONFIG_TEST_KEY";
const WORKER_KEY = "EG_PRELOAD_CONFIG_TEST_WORKER_KEY";

const bases: string[] = [];
afterEach(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

interface Observed {
  records: Record<string, unknown>[];
  out: string;
}

/**
 * Runs a program that writes a file and reads an environment key on its main thread, and does
 * the same in a worker thread, under the hooks of a fresh stage with `config` as its preload
 * config (none if undefined); returns every record the hooks sent.
 */
async function observe(config: string | undefined): Promise<Observed> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "eg-preload-config-test-")));
  bases.push(base);
  const stage = join(base, "stage");
  const out = join(base, "out");
  mkdirSync(stage, { mode: 0o700 });
  mkdirSync(out);
  copyFileSync(join(ROOT, "dist/preload/index.js"), join(stage, PRELOAD_FILE_NAME));
  makeFifo(join(stage, EVENTS_FIFO_NAME));
  if (config !== undefined) writeFileSync(join(stage, PRELOAD_CONFIG_NAME), config);

  const decoder = new FrameDecoder();
  const texts: string[] = [];
  let channelError: Error | null = null;
  const reader = new FifoReader(
    join(stage, EVENTS_FIFO_NAME),
    (text) => texts.push(...decoder.push(text)),
    (err) => (channelError = err),
  );
  const workerCode = `require("node:fs").writeFileSync(${JSON.stringify(join(out, "worker.txt"))}, "x"); process.env.${WORKER_KEY};`;
  const program = `
    const fs = require("node:fs");
    const { Worker } = require("node:worker_threads");
    fs.writeFileSync(${JSON.stringify(join(out, "main.txt"))}, "x");
    process.stdout.write(String(process.env.${KEY}));
    new Worker(${JSON.stringify(workerCode)}, { eval: true }).on("exit", (code) => process.exit(code));
  `;
  const result = await spawnNode(["-e", program], {
    cwd: base,
    env: { PATH: process.env.PATH, NODE_OPTIONS: preloadOption(stage), [KEY]: "main", [WORKER_KEY]: "worker" },
  }).finally(() => reader.finish());
  expect(channelError).toBeNull();
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("main");
  return { records: texts.map((t) => JSON.parse(t) as Record<string, unknown>), out };
}

const writes = (o: Observed): unknown[] => o.records.filter((r) => r.kind === "write").map((r) => [r.path, r.op]);
const envKeys = (o: Observed): unknown[] => o.records.filter((r) => r.kind === "env" && r.origin === "user").map((r) => r.key);

describe("the stage's preload config", () => {
  it('with {"recordWrites":false}, the hooks send no write record, in the main thread or a worker, and still record env reads', async () => {
    const o = await observe(JSON.stringify({ recordWrites: false }));
    expect(writes(o)).toEqual([]);
    expect(envKeys(o)).toEqual(expect.arrayContaining([KEY, WORKER_KEY]));
  });

  it("without the file, every write is recorded with its resolved path", async () => {
    const o = await observe(undefined);
    expect(writes(o)).toEqual(
      expect.arrayContaining([
        [join(o.out, "main.txt"), "write"],
        [join(o.out, "worker.txt"), "write"],
      ]),
    );
    expect(envKeys(o)).toEqual(expect.arrayContaining([KEY, WORKER_KEY]));
  });

  it("a config that cannot be read as one, or says anything but false, leaves writes recorded", async () => {
    for (const config of ["{recordWrites: false", JSON.stringify({ recordWrites: "false" }), JSON.stringify({ recordWrites: true })]) {
      const o = await observe(config);
      expect(writes(o), config).toEqual(
        expect.arrayContaining([
          [join(o.out, "main.txt"), "write"],
          [join(o.out, "worker.txt"), "write"],
        ]),
      );
    }
  });
});
