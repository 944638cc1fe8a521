import bcrypt from "bcrypt";
import { ValidationError } from "../errors.js";
import { estimate, personalCharacters } from "./password-strength.js";

/*
 * The password policy follows NIST SP 800-63B (https://pages.nist.gov/800-63-4/sp800-63b.html):
 * a minimum length and no composition rules (no demanded capitals, digits or symbols), while
 * passwords that are common, breached, guessable or made of the person's own name or e-mail are
 * refused, saying why and how to choose a better one. The same rule holds wherever a password is set.
 */

const MIN_CHARACTERS = 8;
// bcrypt ignores everything past 72 bytes, so longer passwords would silently be cut.
const MAX_BYTES = 72;
/**
 * zxcvbn's score 3: at least 10^8 guesses, "safely unguessable" for an attacker who tries the
 * likely passwords first against a slow hash such as bcrypt.
 */
const MIN_SCORE = 3;

const HOW =
  "usa una frase de tres o cuatro palabras poco comunes que no tengan que ver contigo; no hacen falta mayúsculas, números ni símbolos";

/** Whom a password is for: words of theirs an attacker knows and tries first. */
export interface PasswordOwner {
  email?: string | null;
  nombre?: string | null;
  apellido?: string | null;
}

/**
 * The person's own words: their names, the e-mail and its parts (ana.pasajera@demo.co:
 * ana.pasajera, ana, pasajera), each also without its accents (María: maria).
 */
function personalWords({ email, nombre, apellido }: PasswordOwner): string[] {
  const local = email?.split("@")[0] ?? "";
  const names = [nombre, apellido].flatMap((name) => [name, ...(name?.split(/\s+/) ?? [])]);
  const words = [email, local, ...local.split(/[^\p{L}]+/u), ...names].flatMap((word) => (word ? [word.trim()] : []));
  const plain = words.map((word) => word.normalize("NFD").replace(/\p{M}/gu, ""));
  return [...new Set([...words, ...plain].filter((word) => word.length >= 3))];
}

/** What the length rules refuse: the same check the configuration applies to ADMIN_PASSWORD before anything loads. */
export function lengthProblem(password: string): string | null {
  if ([...password].length < MIN_CHARACTERS) return `debe tener al menos ${MIN_CHARACTERS} caracteres; ${HOW}`;
  if (Buffer.byteLength(password, "utf8") > MAX_BYTES)
    return `admite como máximo ${MAX_BYTES} bytes (unos ${MAX_BYTES} caracteres sin tildes)`;
  return null;
}

/**
 * Throws a ValidationError on `field` saying why the password is refused and how to choose a
 * better one: too short or too long, made of the person's own name or e-mail, or easy to guess.
 */
export async function assertPasswordPolicy(password: string, owner: PasswordOwner, field = "password"): Promise<void> {
  const length = lengthProblem(password);
  if (length) throw new ValidationError(length, field);
  const result = await estimate(password, personalWords(owner));
  // Half of it or more from the person's name or e-mail: anyone who knows them guesses it.
  if (personalCharacters(result) * 2 >= [...password].length) {
    throw new ValidationError(`se parece demasiado a tu nombre o a tu correo, que otros conocen; ${HOW}`, field);
  }
  if (result.score < MIN_SCORE) {
    const warning = result.feedback.warning?.replace(/\.$/, "");
    const why = warning ? ` (${warning[0]!.toLowerCase()}${warning.slice(1)})` : "";
    throw new ValidationError(`es fácil de adivinar${why}; ${HOW}`, field);
  }
}

export const hashPassword = (password: string, cost: number) => bcrypt.hash(password, cost);

export const verifyPassword = (password: string, hash: string) => bcrypt.compare(password, hash);
