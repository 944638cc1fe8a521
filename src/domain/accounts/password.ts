import bcrypt from "bcrypt";
import { ValidationError } from "../errors.js";

// bcrypt ignores everything past 72 bytes, so longer passwords would silently be cut.
const MAX_BYTES = 72;

const RULES: Array<[test: (p: string) => boolean, requirement: string]> = [
  [(p) => [...p].length >= 8, "al menos 8 caracteres"],
  [(p) => /\p{Lu}/u.test(p), "una letra mayúscula"],
  [(p) => /\p{Ll}/u.test(p), "una letra minúscula"],
  [(p) => /\p{N}/u.test(p), "un dígito"],
  [(p) => /[^\p{L}\p{N}\s]/u.test(p), "un carácter especial"],
];

/** Whether a password meets the policy (the initial administrator's is checked against it at start-up). */
export const meetsPasswordPolicy = (password: string) =>
  RULES.every(([test]) => test(password)) && Buffer.byteLength(password, "utf8") <= MAX_BYTES;

/** Throws a ValidationError listing every requirement the password misses. */
export function assertPasswordPolicy(password: string, field = "password"): void {
  const missing = RULES.filter(([test]) => !test(password)).map(([, requirement]) => requirement);
  if (missing.length > 0) {
    throw new ValidationError(`no cumple la política de contraseñas; le falta: ${missing.join(", ")}`, field);
  }
  if (Buffer.byteLength(password, "utf8") > MAX_BYTES) {
    throw new ValidationError(`admite como máximo ${MAX_BYTES} bytes`, field);
  }
}

export const hashPassword = (password: string, cost: number) => bcrypt.hash(password, cost);

export const verifyPassword = (password: string, hash: string) => bcrypt.compare(password, hash);
