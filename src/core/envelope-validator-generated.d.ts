// The types of envelope-validator-generated.js (scripts/gen-validators.mjs): ajv's standalone validator.
import type { ErrorObject } from "ajv";

interface StandaloneValidate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export const validate: StandaloneValidate;
export default validate;
