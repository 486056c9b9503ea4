import assert from "node:assert/strict";
import { test } from "node:test";
import { add, slugify } from "./math.mjs";

test("add", () => {
  assert.equal(add(2, 3), 5);
});

test("slugify", () => {
  assert.equal(slugify("Hello, World!"), "hello-world");
});
