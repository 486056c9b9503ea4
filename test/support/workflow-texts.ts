/**
 * The workflows this repository ships or shows: every file of .github/workflows, every YAML file
 * under examples/, and every ```yaml block of README.md and docs/*.md, each with where it is.
 * test/action/workflows.test.ts and test/action/actionlint.test.ts read them from here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface WorkflowText {
  /** `.github/workflows/x.yml`, `examples/x.yml` or `docs/action.md yaml block 3`. */
  name: string;
  text: string;
  /** A file GitHub would run (or a user copies whole), not a block of a document. */
  file: boolean;
  /** For a block: the 1-based line of the document its first line is on (1 for a file). */
  line: number;
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The ```yaml blocks of one markdown file. */
export function yamlBlocks(file: string): WorkflowText[] {
  const md = readFileSync(file, "utf8");
  const out: WorkflowText[] = [];
  for (const m of md.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)) {
    const line = md.slice(0, m.index).split("\n").length + 1;
    out.push({ name: `${file} yaml block ${out.length + 1}`, text: m[1] as string, file: false, line });
  }
  return out;
}

export function workflowTexts(): WorkflowText[] {
  const files = [...yamlFiles(".github/workflows"), ...yamlFiles("examples")].map((f) => ({
    name: f,
    text: readFileSync(f, "utf8"),
    file: true,
    line: 1,
  }));
  const docs = ["README.md", ...readdirSync("docs").map((f) => `docs/${f}`)].filter((f) => f.endsWith(".md"));
  return [...files, ...docs.flatMap(yamlBlocks)];
}
