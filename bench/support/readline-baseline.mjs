// The baseline: read the log with readline and JSON.parse every line, judging nothing.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

let lines = 0;
const rl = createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity });
for await (const line of rl) {
  JSON.parse(line);
  lines++;
}
process.stdout.write(`${lines}\n`);
