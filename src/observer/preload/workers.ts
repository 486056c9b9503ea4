/**
 * workers: the hooks load in every worker thread (they find the channel in the worker
 * environment data, see context.ts); the Worker constructor itself only marks Node copying the
 * environment into the new worker as passing it on, not as reads.
 */
import type { HookContext } from "./context.js";

export function installWorkers(ctx: HookContext): void {
  const { wt } = ctx;
  // Node copies the whole environment into a new worker: that is passing it on, not reading it.
  const OriginalWorker = wt.Worker;
  class Worker extends OriginalWorker {
    constructor(...args: ConstructorParameters<typeof OriginalWorker>) {
      ctx.depth++;
      try {
        super(...args);
      } finally {
        ctx.depth--;
      }
    }
  }
  (wt as unknown as Record<string, unknown>).Worker = Worker;
}
