// test/support/suites.ts for the scripts and benches that run outside vitest: it and the one
// module it imports (test-tmp.ts; both use only Node's own modules) transpiled into the
// repository's node_modules cache, then imported.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

export async function importSuites(root, name = "suites") {
  const cache = join(root, "node_modules/.cache/envelope-gate", name);
  mkdirSync(cache, { recursive: true });
  for (const file of ["suites", "test-tmp"]) {
    const { outputText } = ts.transpileModule(readFileSync(join(root, `test/support/${file}.ts`), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: `${file}.ts`,
    });
    writeFileSync(join(cache, `${file}.js`), outputText);
  }
  return import(pathToFileURL(join(cache, "suites.js")).href);
}
