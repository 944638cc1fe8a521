/** `value` rounded to `decimals` places (money to cents, rates and averages to hundredths). */
export const round = (value: number, decimals = 2) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** `part` as a percentage of `whole`, to hundredths; 0 of nothing is 0. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : round((part / whole) * 100));
