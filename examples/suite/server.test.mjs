// A test that starts a local HTTP server and talks to it by name: loopback is the run's own.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

test("a local server answers", async () => {
  const server = createServer((req, res) => res.end(`hello ${req.url}`));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const res = await fetch(`http://localhost:${port}/suite`);
  assert.equal(await res.text(), "hello /suite");
  server.close();
});

test("a temporary file", () => {
  const dir = mkdtempSync(join(tmpdir(), "suite-"));
  writeFileSync(join(dir, "t.txt"), "t");
  assert.equal(readFileSync(join(dir, "t.txt"), "utf8"), "t");
});
