import { GateError } from "../core/errors.js";

export async function runCommand(_args: string[], _usage: (message: string) => never): Promise<number> {
  throw new GateError("OBSERVER_UNAVAILABLE", "envelope-gate run is not built yet");
}
