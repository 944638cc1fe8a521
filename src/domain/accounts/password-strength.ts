import type { ZxcvbnFactory, ZxcvbnResult } from "@zxcvbn-ts/core";

/**
 * How hard a password is to guess, by zxcvbn (https://github.com/zxcvbn-ts/zxcvbn): it finds the
 * words, names, keyboard walks, dates and breached passwords of its common and Spanish
 * dictionaries a password is made of, and the person's own words, and counts the guesses an
 * attacker who tries those first would need. Its dictionaries take about 25 MB and half a second
 * to load, so they are loaded the first time a password is checked: at start-up only when
 * ADMIN_PASSWORD is set (src/domain/accounts/initial-admin.ts checks it on every start).
 */
let loading: Promise<ZxcvbnFactory> | null = null;

async function load(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, common, spanish] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-es-es"),
  ]);
  return new ZxcvbnFactory({
    translations: spanish.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...spanish.dictionary },
    // Each substitution more multiplies the variants tried: one (P@ssw0rd) keeps the worst
    // 72-byte password a hostile caller can send under about 70 ms, against over a second at the default.
    l33tMaxSubstitutions: 1,
  });
}

/** The estimate for a password, with the person's own words (names, e-mail) counted as the first an attacker tries. */
export async function estimate(password: string, personal: string[]): Promise<ZxcvbnResult> {
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return (await loading).check(password, personal);
}

/** How many of a password's characters come from the person's own words, as the estimate split it. */
export const personalCharacters = (result: ZxcvbnResult) =>
  result.sequence
    .filter((match) => match.pattern === "dictionary" && match.dictionaryName === "userInputs")
    .reduce((sum, match) => sum + [...match.token].length, 0);
