import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_EVENTS, APP_PERMISSIONS, appManifest } from "../../src/core/manifest.js";
import { runCli } from "./process.js";

/** The two-level subset of YAML app.yml uses: `key: value`, nested maps, `- item` lists, comments. */
function readAppYml(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let section: string | null = null;
  for (const raw of readFileSync(resolve(import.meta.dirname, "../../app.yml"), "utf8").split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").replace(/^#.*$/, "");
    if (line.trim() === "") continue;
    const top = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (top) {
      section = top[2] === "" ? (top[1] as string) : null;
      out[top[1] as string] = top[2] === "" ? null : top[2] === "true" ? true : top[2] === "false" ? false : top[2];
      continue;
    }
    const item = /^\s+-\s+(.+)$/.exec(line);
    const pair = /^\s+([a-z_]+):\s*(.+)$/.exec(line);
    if (section && item) out[section] = [...((out[section] as string[] | null) ?? []), item[1]];
    else if (section && pair)
      out[section] = {
        ...((out[section] as Record<string, string> | null) ?? {}),
        [pair[1] as string]: pair[2] === "true" ? true : pair[2],
      };
    else throw new Error(`app.yml: unexpected line ${raw}`);
  }
  return out;
}

describe("App manifest", () => {
  it("app.yml asks for exactly the permissions and events the App uses", () => {
    const yml = readAppYml();
    expect(yml.default_permissions).toEqual(APP_PERMISSIONS);
    expect(yml.default_events).toEqual([...APP_EVENTS]);
    expect(yml.public).toBe(false);
    expect(yml.name).toBe("envelope-gate");
  });

  it("`app manifest --url` prints the JSON for GitHub's manifest flow", async () => {
    const res = await runCli(["app", "manifest", "--url", "https://gate.example.com/"], process.env);
    expect(res.code).toBe(0);
    const m = JSON.parse(res.stdout);
    expect(m).toEqual(appManifest("https://gate.example.com"));
    expect(m.hook_attributes).toEqual({ url: "https://gate.example.com/webhook", active: true });
    expect(m.default_permissions).toEqual(readAppYml().default_permissions);
  });
});
