// A signed delivery (`workflow_run` unless `item.event` names another) to an App, over a keep-alive agent, as the App benches send it.
import { createHmac } from "node:crypto";
import http from "node:http";

/**
 * POSTs `item.body` to `${url}/webhook` as delivery `item.id`, signed with `secret`. Resolves to
 * what the App answered: `done`/`duplicate`/`queued` for a 2xx, `<status> <code>` otherwise,
 * `connection error` when no answer came.
 */
export function deliverSigned(url, item, secret, agent) {
  return new Promise((done) => {
    const req = http.request(
      `${url}/webhook`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "x-github-event": item.event ?? "workflow_run",
          "x-github-delivery": item.id,
          "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(item.body).digest("hex")}`,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          let kind = `http ${res.statusCode}`;
          try {
            const body = JSON.parse(text);
            kind = res.statusCode < 300 ? body.status : `${res.statusCode} ${body.error?.code ?? ""}`.trim();
          } catch {
            // not JSON: counted under the status it had
          }
          done(kind);
        });
      },
    );
    req.on("error", () => done("connection error"));
    req.end(item.body);
  });
}
