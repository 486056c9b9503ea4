import { VERSION } from "../core/version.js";
import { shellRefusal } from "../store/db.js";
import type { Store } from "../store/index.js";
import { writeHeartbeat } from "../store/ops.js";

interface HealthAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * /healthz: the store must answer a read (the kill switch, as every outbound request needs) and
 * accept a write (this replica's heartbeat row). 200 only when both do; otherwise 503 naming the
 * check that failed, so "reads work, writes fail" is not reported healthy. Every answer names the
 * release (`version`) and the store by its backend only (`storeLabel`: no file path, host or credential).
 */
export async function checkHealth(store: Store, replicaId: string, storeLabel: string, now: number): Promise<HealthAnswer> {
  let paused: boolean;
  try {
    paused = (await store.killSwitch()).paused;
  } catch (err) {
    return {
      status: 503,
      body: {
        ok: false,
        version: VERSION,
        store: storeLabel,
        failing: "store_read",
        error: shellRefusal(err, "read the kill switch").toJSON(),
      },
    };
  }
  try {
    await writeHeartbeat(store, replicaId, now);
  } catch (err) {
    return {
      status: 503,
      body: {
        ok: false,
        version: VERSION,
        store: storeLabel,
        failing: "store_write",
        paused,
        error: shellRefusal(err, "write the heartbeat").toJSON(),
      },
    };
  }
  return {
    status: 200,
    body: { ok: true, version: VERSION, store: storeLabel, checks: { store_read: "ok", store_write: "ok" }, paused, replica: replicaId },
  };
}
