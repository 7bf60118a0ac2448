// Which writing system a character belongs to. Half of the product languages are told apart
// by script alone (ko, th, hi, ar, ja by kana), so this runs before any n-gram statistics.

export const enum Script {
  None = 0, // not a letter: space, digit, punctuation, symbol, emoji
  Latin = 1,
  Cyrillic = 2,
  Arabic = 3,
  Devanagari = 4,
  Thai = 5,
  Hangul = 6,
  Han = 7,
  Kana = 8,
  Other = 9, // a letter of a script no product language uses (Greek, Hebrew, …)
}

/** Script groups that a unit of text is judged as: Han and kana are one group, Japanese mixes them. */
export type ScriptGroup = 'latin' | 'cyrillic' | 'arabic' | 'devanagari' | 'thai' | 'hangul' | 'cjk' | 'other';

export function groupOf(script: Script): ScriptGroup | undefined {
  switch (script) {
    case Script.Latin: return 'latin';
    case Script.Cyrillic: return 'cyrillic';
    case Script.Arabic: return 'arabic';
    case Script.Devanagari: return 'devanagari';
    case Script.Thai: return 'thai';
    case Script.Hangul: return 'hangul';
    case Script.Han:
    case Script.Kana: return 'cjk';
    case Script.Other: return 'other';
    default: return undefined;
  }
}

/** The script group each product language is written in. */
export const LANGUAGE_GROUP: Readonly<Record<string, ScriptGroup>> = {
  en: 'latin', es: 'latin', pt: 'latin', fr: 'latin', de: 'latin', it: 'latin', id: 'latin', vi: 'latin', tr: 'latin', pl: 'latin',
  ru: 'cyrillic', ar: 'arabic', hi: 'devanagari', th: 'thai', ko: 'hangul', zh: 'cjk', ja: 'cjk',
};

/** The language a script group means by itself, where only one product language uses it. */
export const GROUP_LANGUAGE: Readonly<Partial<Record<ScriptGroup, string>>> = {
  devanagari: 'hi', thai: 'th', hangul: 'ko',
};

// One byte per BMP code point, built once at module load: a table lookup is the cheapest
// classification per character, and every detector over a 1,000-character reply leans on it.
const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const IS_LETTER = new Uint8Array(0x10000); // 1 letter, 3 upper-case letter
const TABLE = buildTable();

function buildTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const set = (from: number, to: number, script: Script): void => {
    table.fill(script, from, to + 1);
  };
  for (let c = 0x80; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const char = String.fromCharCode(c);
    if (LETTER.test(char)) {
      table[c] = Script.Other;
      IS_LETTER[c] = UPPER.test(char) ? 3 : 1;
    }
  }
  for (let c = 0x41; c <= 0x5a; c++) IS_LETTER[c] = 3;
  for (let c = 0x61; c <= 0x7a; c++) IS_LETTER[c] = 1;
  set(0x41, 0x5a, Script.Latin);
  set(0x61, 0x7a, Script.Latin);
  for (let c = 0xc0; c <= 0x24f; c++) if (table[c] === Script.Other) table[c] = Script.Latin;
  for (let c = 0x1e00; c <= 0x1eff; c++) if (table[c] === Script.Other) table[c] = Script.Latin;
  set(0x300, 0x36f, Script.Latin); // combining accents, as in decomposed Vietnamese
  for (let c = 0x400; c <= 0x52f; c++) if (table[c] === Script.Other) table[c] = Script.Cyrillic;
  for (const [from, to] of [[0x600, 0x6ff], [0x750, 0x77f], [0x8a0, 0x8ff], [0xfb50, 0xfdff], [0xfe70, 0xfeff]] as const) {
    for (let c = from; c <= to; c++) if (table[c] === Script.Other || isArabicMark(c)) table[c] = Script.Arabic;
  }
  set(0x900, 0x963, Script.Devanagari); // vowel signs included: they are half of every Hindi word
  set(0x970, 0x97f, Script.Devanagari);
  set(0xe01, 0xe4e, Script.Thai);
  set(0x1100, 0x11ff, Script.Hangul);
  set(0x3130, 0x318f, Script.Hangul);
  set(0xac00, 0xd7af, Script.Hangul);
  set(0x3041, 0x3096, Script.Kana);
  set(0x309d, 0x309f, Script.Kana);
  set(0x30a1, 0x30fa, Script.Kana);
  set(0x30fc, 0x30ff, Script.Kana);
  set(0x31f0, 0x31ff, Script.Kana);
  set(0xff66, 0xff9d, Script.Kana);
  set(0x3400, 0x4dbf, Script.Han);
  set(0x4e00, 0x9fff, Script.Han);
  set(0xf900, 0xfaff, Script.Han);
  set(0x3005, 0x3007, Script.Han); // 々 〆 〇
  return table;
}

function isArabicMark(c: number): boolean {
  return (c >= 0x64b && c <= 0x65f) || c === 0x670;
}

/** The script of a code point (astral Han counts as Han; other astral letters as Other). */
export function scriptOf(codePoint: number): Script {
  if (codePoint < 0x10000) return TABLE[codePoint] as Script;
  if (codePoint >= 0x20000 && codePoint <= 0x3ffff) return Script.Han;
  return LETTER.test(String.fromCodePoint(codePoint)) ? Script.Other : Script.None;
}

/** Whether a UTF-16 code unit is a letter (\p{L}) of the BMP: the word boundaries eld uses. */
export function isBmpLetter(codeUnit: number): boolean {
  return IS_LETTER[codeUnit] !== 0;
}

/** Whether a UTF-16 code unit is an upper-case letter (\p{Lu}) of the BMP. */
export function isBmpUpper(codeUnit: number): boolean {
  return IS_LETTER[codeUnit] === 3;
}

/**
 * Weight of one letter, in English letters' worth of text: measured on the parallel UDHR
 * texts (6,777 English letters say what 1,993 Han characters, 3,087 Japanese characters,
 * 2,701 Hangul syllables and 4,788 Arabic letters say). So one threshold serves every script.
 */
export function letterWeight(script: Script): number {
  switch (script) {
    case Script.Han: return 3;
    case Script.Hangul: return 2.5;
    case Script.Kana: return 2;
    case Script.Arabic: return 1.4;
    case Script.None: return 0;
    default: return 1;
  }
}

// BMP code unit → its lower-case code unit (String#toLowerCase, locale-free; one-to-many
// mappings such as İ keep the letter), built at first use.
let LOWER: Uint16Array | undefined;

export function lowerCodeUnit(codeUnit: number): number {
  if (!LOWER) {
    LOWER = new Uint16Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      const lowered = c >= 0xd800 && c <= 0xdfff ? '' : String.fromCharCode(c).toLowerCase();
      LOWER[c] = lowered.length === 1 ? lowered.charCodeAt(0) : c;
    }
  }
  return LOWER[codeUnit] ?? codeUnit;
}
