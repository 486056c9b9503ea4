import { GateError } from "../core/errors.js";

export async function appCommand(_args: string[], _usage: (message: string) => never): Promise<number> {
  throw new GateError("CONFIG_INVALID", "envelope-gate app is not built yet");
}
