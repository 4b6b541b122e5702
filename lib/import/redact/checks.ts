/**
 * Checksum and format validators used by the PII detectors (detectors.ts). Each takes the matched
 * text with separators already removed unless said otherwise, and returns true when valid.
 */

/**
 * Luhn (mod 10) check used by payment card numbers (ISO/IEC 7812-1).
 * @param digits digits only, any length
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Payment card number: 13–19 digits, first digit 2–6 (the major networks: Mastercard 2/5, Amex,
 * Diners and JCB 3, Visa 4, Discover, Maestro and UnionPay 6 — this also keeps epoch-millisecond
 * timestamps, which start with 1, from matching), not all one digit, Luhn-valid.
 * @param digits digits only
 */
export function cardNumberValid(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  const first = digits.charCodeAt(0) - 48;
  if (first < 2 || first > 6) return false;
  if (/^(\d)\1+$/.test(digits)) return false;
  return luhnValid(digits);
}

/** IBAN lengths by country (ISO 13616 registry); countries not listed accept 15–34 characters. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/**
 * IBAN check (ISO 13616 / ISO 7064 mod 97-10): country length when known, else 15–34; moving the
 * first four characters to the end and reading letters as 10–35 must give a remainder of 1.
 * @param compact the IBAN without spaces, upper case
 */
export function ibanValid(compact: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const known = IBAN_LENGTHS[compact.slice(0, 2)];
  if (known !== undefined ? compact.length !== known : compact.length < 15 || compact.length > 34) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const c = rearranged.charCodeAt(i);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else rem = (rem * 100 + (c - 55)) % 97;
  }
  return rem === 1;
}

/**
 * IPv6 text form (RFC 4291 §2.2): eight groups of 1–4 hex digits, or fewer with one `::`; the last
 * 32 bits may be written as an IPv4 address. At least one hex digit in total.
 * @param s the candidate text
 */
export function ipv6Valid(s: string): boolean {
  if (!/[0-9a-fA-F]/.test(s)) return false;
  const halves = s.split("::");
  if (halves.length > 2) return false;
  const groupsOf = (part: string): string[] | null => (part === "" ? [] : part.split(":"));
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return false;
  const all = [...head, ...tail];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i];
    if (i === all.length - 1 && g.includes(".")) {
      if (!ipv4Valid(g)) return false;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** Dotted-quad IPv4 with each part 0–255 and no leading zeros. */
export function ipv4Valid(s: string): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(p));
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

/**
 * Spanish DNI (8 digits + letter) or NIE (X/Y/Z + 7 digits + letter); the letter is the check
 * letter of the number mod 23.
 * @param compact without separators, upper case
 */
export function spanishIdValid(compact: string): boolean {
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(compact);
  if (!m) return false;
  if (m[1] === "" && m[2].length !== 8) return false;
  if (m[1] !== "" && m[2].length !== 7) return false;
  const prefix = m[1] === "" ? "" : String("XYZ".indexOf(m[1]));
  const number = Number(prefix + m[2]);
  return DNI_LETTERS[number % 23] === m[3];
}

const CF_ODD: Record<string, number> = {
  "0": 1,
  "1": 0,
  "2": 5,
  "3": 7,
  "4": 9,
  "5": 13,
  "6": 15,
  "7": 17,
  "8": 19,
  "9": 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};

/**
 * Italian codice fiscale (16 characters): the last letter is the check character computed from
 * the first 15 (odd positions through the official table, even positions by value, sum mod 26).
 * @param compact upper case, 16 characters
 */
export function codiceFiscaleValid(compact: string): boolean {
  if (!/^[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]$/.test(compact)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = compact[i];
    if (i % 2 === 0) sum += CF_ODD[ch];
    else sum += /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === compact[15];
}
