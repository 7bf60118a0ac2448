// What each unit is, before anyone asks whether it is the expected language: the script's
// answer where a script means one language, n-gram scores where a script is shared.
import { countHanForms } from './cjk.js';
import { scoreText, type LanguageScores } from './ngram-score.js';
import { GROUP_LANGUAGE } from './script.js';
import type { Unit } from './segment.js';

export interface Reading {
  unit: Unit;
  /** Latin, Cyrillic, Arabic and other shared scripts: eld's scores. */
  scores?: LanguageScores;
  /** Han text without kana: how many Chinese-only and Japanese-only characters it holds. */
  hanForms?: { chinese: number; japanese: number };
}

/** Kana in a Han unit makes it Japanese once there are a couple of them (a lone の is a brand name). */
const MIN_KANA = 2;

export function read(unit: Unit): Reading {
  switch (unit.group) {
    case 'latin':
    case 'cyrillic':
    case 'arabic':
    case 'other':
      return { unit, scores: scoreText(unit.text) };
    case 'cjk':
      return hasKana(unit) ? { unit } : { unit, hanForms: countHanForms(unit.text) };
    default:
      return { unit };
  }
}

export function hasKana(unit: Unit): boolean {
  return unit.kana >= MIN_KANA;
}

/**
 * The language a unit is in by itself, when that is clear: script first, then eld's best
 * language if it leads the runner-up by `minGap`. Used when no language is expected.
 */
export function ownLanguage(reading: Reading, minGap: number): string | undefined {
  const { unit } = reading;
  const byScript = GROUP_LANGUAGE[unit.group];
  if (byScript) return byScript;
  if (unit.group === 'cjk') {
    if (hasKana(unit)) return 'ja';
    const forms = reading.hanForms;
    return forms && forms.japanese >= 2 && forms.chinese === 0 ? undefined : 'zh';
  }
  const [best, second] = reading.scores?.ranked ?? [];
  if (!best) return undefined;
  return !second || (best.score - second.score) / best.score >= minGap ? best.language : undefined;
}
