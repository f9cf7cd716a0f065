/**
 * The ways one mainland mobile number is written (`national`: its 11 digits): national, with `86`,
 * `+86` or `0086`, spaced, dashed, with brackets, and in full-width digits. All are one phone.
 */
export function spellingsOf(national: string): string[] {
  const [a, b, c] = [national.slice(0, 3), national.slice(3, 7), national.slice(7)];
  const fullWidth = [...national].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join('');
  return [
    national,
    `86${national}`,
    `+86${national}`,
    `0086${national}`,
    `${a} ${b} ${c}`,
    `${a}-${b}-${c}`,
    `+86 (${a}) ${b}-${c}`,
    fullWidth,
  ];
}
