import { networkInterfaces } from "node:os";

/** An IPv4 address of this machine that is not loopback (the audit proxy refuses a name that leads only to loopback), or null. */
export function outerAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return null;
}
