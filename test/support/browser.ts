import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/** Debian's chromium, or ENVELOPE_GATE_TEST_CHROMIUM; null when there is none. */
export function chromiumPath(): string | null {
  const candidates = [process.env.ENVELOPE_GATE_TEST_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null;
}

export interface RenderedPage {
  /** The HTTP status of the document, as the browser received it. */
  status: number;
  title: string;
  /** document.body.innerText: the text as rendered (CSS applied, markup gone). */
  text: string;
  /** Every link on the page: its text and resolved address. */
  links: { text: string; href: string }[];
  /** What `probe` (a JavaScript expression run in the page once loaded) returned, JSON round-tripped. */
  probe?: unknown;
}

export interface RenderOptions {
  /** A phone's viewport: this width and height in CSS pixels, as a mobile device (the viewport meta tag applies). */
  phone?: { width: number; height: number };
  /** An expression evaluated in the loaded page; its JSON value is returned as `probe`. */
  probe?: string;
}

/**
 * A headless chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
 * NUL-terminated JSON on file descriptors 3 and 4, so no WebSocket client is needed).
 */
export class Browser {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private listeners: ((msg: Record<string, unknown>) => void)[] = [];
  private buffer = "";

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const out = child.stdio[4] as Readable;
    out.on("data", (d: Buffer) => {
      this.buffer += d.toString("utf8");
      let end: number;
      while ((end = this.buffer.indexOf("\0")) >= 0) {
        const msg = JSON.parse(this.buffer.slice(0, end)) as Record<string, unknown>;
        this.buffer = this.buffer.slice(end + 1);
        const waiting = typeof msg.id === "number" ? this.pending.get(msg.id) : undefined;
        if (waiting) {
          this.pending.delete(msg.id as number);
          if (msg.error) waiting.reject(new Error(JSON.stringify(msg.error)));
          else waiting.resolve((msg.result ?? {}) as Record<string, unknown>);
        } else for (const l of this.listeners) l(msg);
      }
    });
  }

  static launch(executable: string): Browser {
    const profile = mkdtempSync(join(tmpdir(), "eg-chromium-"));
    const child = spawn(
      executable,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--remote-debugging-pipe",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    child.stderr?.resume();
    return new Browser(child, profile);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(message + "\0");
    });
  }

  private once(predicate: (msg: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const listener = (msg: Record<string, unknown>) => {
        if (!predicate(msg)) return;
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve(msg);
      };
      this.listeners.push(listener);
    });
  }

  /** Opens `url` in a new tab, waits for its load event, and reads what the page shows. */
  async render(url: string, options: RenderOptions = {}): Promise<RenderedPage> {
    const { targetId } = (await this.send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    try {
      await this.send("Page.enable", {}, sessionId);
      if (options.phone)
        await this.send("Emulation.setDeviceMetricsOverride", { ...options.phone, deviceScaleFactor: 2, mobile: true }, sessionId);
      const loaded = this.once((m) => m.sessionId === sessionId && m.method === "Page.loadEventFired");
      await this.send("Page.navigate", { url }, sessionId);
      await loaded;
      const expression = `JSON.stringify({
        status: performance.getEntriesByType("navigation")[0].responseStatus,
        title: document.title,
        text: document.body.innerText,
        links: [...document.querySelectorAll("a")].map((a) => ({ text: a.innerText, href: a.href })),
        ${options.probe ? `probe: (${options.probe}),` : ""}
      })`;
      const { result } = (await this.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId)) as {
        result: { value: string };
      };
      return JSON.parse(result.value) as RenderedPage;
    } finally {
      await this.send("Target.closeTarget", { targetId });
    }
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.child.once("exit", r));
    await this.send("Browser.close").catch(() => undefined);
    await exited;
    rmSync(this.profile, { recursive: true, force: true });
  }
}
