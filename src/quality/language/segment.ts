// Cuts a cleaned reply into units to judge one by one: sentences and lines, each split by
// script (a Latin sentence inside a Thai line is its own unit), tiny sentences merged with
// their neighbours, and words of another script embedded in a sentence (a name, a term) kept
// only when they make a phrase of their own.
import type { CleanText } from './clean.js';
import { Script, groupOf, isBmpUpper, letterWeight, scriptOf, type ScriptGroup } from './script.js';

/** The letter counts of a stretch of text, per script group. */
interface LetterCounts {
  /** Letters in English letters' worth (see letterWeight): Han ×3, Hangul ×2.5, kana ×2, Arabic ×1.4. */
  weight: number;
  words: number;
  capitalized: number;
  han: number;
  kana: number;
  /** Weight of letters inside quotation marks or emphasis. */
  quotedWeight: number;
}

export interface Unit extends LetterCounts {
  /** Span in the reply, in UTF-16 code units, for quoting evidence. */
  start: number;
  end: number;
  /** What gets scored: the sentence, or the runs of a minor script in it joined by spaces. */
  text: string;
  group: ScriptGroup;
  /** A minor script inside a sentence written in another. */
  embedded: boolean;
}

/** Below this weight a unit is too small to say anything on its own. */
export const MIN_UNIT_WEIGHT = 20;
/** A phrase in another script needs this many words to count (spaced scripts). */
const MIN_EMBEDDED_WORDS = 3;

const GROUPS: readonly ScriptGroup[] = ['latin', 'cyrillic', 'arabic', 'devanagari', 'thai', 'hangul', 'cjk', 'other'];
const SPACED: ReadonlySet<ScriptGroup> = new Set(['latin', 'cyrillic', 'arabic', 'devanagari', 'other']);
const codes = (chars: string): ReadonlySet<number> => new Set(Array.from(chars, (c) => c.charCodeAt(0)));
const HARD_STOPS = codes('。！？؟।॥\n');
const SOFT_STOPS = codes('.!?…'); // end a sentence only before a space, a closing mark or the end
const AFTER_SOFT_STOP = codes(' \t\r\n\u00a0"\'”’»」』)]）');
// Script → index into GROUPS (-1: not a letter), so the loop below never touches a string.
const GROUP_INDEX: readonly number[] = [Script.None, Script.Latin, Script.Cyrillic, Script.Arabic, Script.Devanagari, Script.Thai, Script.Hangul, Script.Han, Script.Kana, Script.Other].map((script) => {
  const group = groupOf(script);
  return group === undefined ? -1 : GROUPS.indexOf(group);
});

interface Accumulator extends LetterCounts {
  runs: number[]; // start, end pairs
}

function emptyAccumulator(): Accumulator {
  return { weight: 0, words: 0, capitalized: 0, han: 0, kana: 0, quotedWeight: 0, runs: [] };
}

export function segment(clean: CleanText): Unit[] {
  const { text, quoted } = clean;
  const sentences: Unit[] = [];
  let accumulators: Array<Accumulator | undefined> = [];
  let sentenceStart = 0;
  let runGroup = -1;
  let previousLetter = false;
  let lastLetterEnd = 0;
  let lastLetterQuoted = false;

  const closeRun = (at: number): void => {
    const runs = runGroup >= 0 ? accumulators[runGroup]?.runs : undefined;
    if (runs && runs.length > 0 && runs[runs.length - 1] === -1) runs[runs.length - 1] = at;
    runGroup = -1;
  };
  const flush = (end: number): void => {
    closeRun(lastLetterEnd);
    collectSentence(text, sentenceStart, end, accumulators, sentences);
    accumulators = [];
    sentenceStart = end;
    previousLetter = false;
  };

  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i) ?? 0;
    const size = codePoint > 0xffff ? 2 : 1;
    const script = scriptOf(codePoint);
    const g = GROUP_INDEX[script] ?? -1;
    if (g >= 0) {
      // Entering or leaving a quotation ends a unit: a quoted phrase is judged on its own.
      const inQuote = quoted[i] === 1;
      if (lastLetterEnd > sentenceStart && inQuote !== lastLetterQuoted) flush(i);
      lastLetterQuoted = inQuote;
      if (g !== runGroup) {
        closeRun(lastLetterEnd);
        runGroup = g;
        const acc = (accumulators[g] ??= emptyAccumulator());
        acc.runs.push(i, -1);
      }
      const acc = accumulators[g] as Accumulator;
      const weight = letterWeight(script);
      acc.weight += weight;
      if (quoted[i] === 1) acc.quotedWeight += weight;
      if (script === Script.Han) acc.han++;
      else if (script === Script.Kana) acc.kana++;
      if (!previousLetter) {
        acc.words++;
        if (isBmpUpper(codePoint)) acc.capitalized++;
      }
      previousLetter = true;
      lastLetterEnd = i + size;
    } else {
      // An apostrophe inside a word (don't, l'homme) does not start a new word.
      previousLetter = previousLetter && (codePoint === 0x27 || codePoint === 0x2019) && scriptOf(text.codePointAt(i + 1) ?? 0) !== Script.None;
      if (HARD_STOPS.has(codePoint) || (SOFT_STOPS.has(codePoint) && (i + 1 >= text.length || AFTER_SOFT_STOP.has(text.charCodeAt(i + 1))))) {
        flush(i + size);
      }
    }
    i += size;
  }
  flush(text.length);
  return mergeTiny(sentences);
}

function collectSentence(text: string, start: number, end: number, accumulators: Array<Accumulator | undefined>, out: Unit[]): void {
  let dominant = -1;
  accumulators.forEach((acc, g) => {
    if (acc && (dominant < 0 || acc.weight > (accumulators[dominant]?.weight ?? 0))) dominant = g;
  });
  accumulators.forEach((acc, g) => {
    if (!acc) return;
    const group = GROUPS[g] as ScriptGroup;
    const embedded = g !== dominant;
    if (embedded && (acc.weight < MIN_UNIT_WEIGHT || (SPACED.has(group) && acc.words < MIN_EMBEDDED_WORDS))) return;
    const runs = acc.runs;
    const unitText = embedded ? joinRuns(text, runs) : text.slice(start, end);
    out.push({
      start: embedded ? (runs[0] ?? start) : start,
      end: embedded ? (runs[runs.length - 1] ?? end) : end,
      text: unitText,
      group,
      weight: acc.weight,
      words: acc.words,
      capitalized: acc.capitalized,
      han: acc.han,
      kana: acc.kana,
      quotedWeight: acc.quotedWeight,
      embedded,
    });
  });
}

function joinRuns(text: string, runs: readonly number[]): string {
  const parts: string[] = [];
  for (let k = 0; k + 1 < runs.length; k += 2) parts.push(text.slice(runs[k], runs[k + 1]));
  return parts.join(' ');
}

/** Tiny sentences join the neighbouring sentence of the same script, so "Sim. Claro." still counts. */
function mergeTiny(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  const pending = new Map<ScriptGroup, Unit>();
  for (let unit of units) {
    if (unit.embedded) {
      out.push(unit);
      continue;
    }
    const waiting = pending.get(unit.group);
    if (waiting) {
      unit = merge(waiting, unit);
      pending.delete(unit.group);
    }
    if (unit.weight >= MIN_UNIT_WEIGHT) {
      out.push(unit);
      continue;
    }
    const previous = lastSentence(out);
    if (previous !== undefined && out[previous]?.group === unit.group) out[previous] = merge(out[previous] as Unit, unit);
    else pending.set(unit.group, unit);
  }
  for (const unit of pending.values()) {
    const previous = lastSentence(out, unit.group);
    if (previous !== undefined) out[previous] = merge(out[previous] as Unit, unit);
    else out.push(unit);
  }
  return out;
}

function lastSentence(units: readonly Unit[], group?: ScriptGroup): number | undefined {
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i] as Unit;
    if (unit.embedded) continue;
    if (group === undefined || unit.group === group) return i;
  }
  return undefined;
}

function merge(a: Unit, b: Unit): Unit {
  return {
    start: Math.min(a.start, b.start),
    end: Math.max(a.end, b.end),
    text: `${a.text} ${b.text}`,
    group: a.group,
    weight: a.weight + b.weight,
    words: a.words + b.words,
    capitalized: a.capitalized + b.capitalized,
    han: a.han + b.han,
    kana: a.kana + b.kana,
    quotedWeight: a.quotedWeight + b.quotedWeight,
    embedded: false,
  };
}
