// `prefix`: a reply polluted at its very start — the seed's "19 of 20 replies": a template
// token, stray closing punctuation, an unmatched quote or markdown marker, or a fragment of
// a token that has nothing to do with what follows. Role-play *actions* that close, list
// bullets, "¿"/"¡", an ellipsis, ".NET" and dialogue dashes are legitimate starts.
import type { Detector, Reply } from './types.js';
import { fail, pass, quote } from './verdict.js';

const CHECK = 'prefix';

const TEMPLATE_TOKEN = /^(?:<\|[^|<>\n]{1,40}\|>|<\/?s>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:assistant|user|system|im_start|im_end|start_of_turn|end_of_turn|bos|eos)>|(?:assistant|ASSISTANT|Assistant)\s*:|###\s*(?:Response|Assistant)\s*:)/;
// Punctuation that closes or continues something: nothing legitimate starts with it.
const CLOSING = new Set([...')]}」』》）】〕〉›,，、;；:：。？！?!\\']);
const EMOTICON = /^[:;][-']?[)(DPpO3|\]\[/\\]/;
const DOT_START = /^\.(?!\.)/; // one dot, not an ellipsis
const EXTENSION_LIKE = /^\.(?:[A-Z0-9]{2,}\b|[a-z0-9]+\b)(?![\p{L}])/u; // .NET, .env, .5
const FENCE = /^(```|~~~)/;
// A lowercase fragment glued before the real start: "ktor Olá", "ilent 你好".
const FRAGMENT = /^([a-z]{2,8})(\s?)(?=\S)/;
// A piece ending in capitals before a capitalised start ("uD Everyone …"); not "macOS", "dB".
const CASED_FRAGMENT = /^([a-z]{1,5}[A-Z]{1,2}) (?=\p{Lu}\p{Ll})/u;
const CASED_WORDS = /OS$|^(?:dB|mA|kB|mL|eV|pH|kW|mW|mV|nM|uM)$/;
const MARKDOWN_START = /^(?:[-*+] |#{1,6} |\d+[.)] |\*\*)/;
// Glued to the next word: "ilentJeder", "uD모든", "ktorすべて". A Latin name before a Korean or
// Japanese particle ("iPhone을", "iPhoneの") or a katakana word ("iPhoneケース") is ordinary.
const GLUED = /^([a-z][A-Za-z]{1,7})(?=\S)/;
const CAMEL_TAIL = /^\p{Lu}\p{Ll}{2,}/u;
const PARTICLE_START = /^[은는이가을를의에로으와과도만까부처보랑입인나야요하]|^[のはがをにでともへやかよだなねじ]/u;
const HANGUL_OR_HIRAGANA = /^[\p{sc=Hangul}\p{sc=Hiragana}]/u;
// camelCase identifiers begin with a small English word; token fragments ("ilent", "ktor") do not.
const IDENTIFIER_HEAD = /^(?:get|set|use|is|has|on|to|add|can|should|will|did|handle|create|make|fetch|load|init|update|delete|remove|find|parse|render|read|write|query|my|app|new|max|min|num|str|obj|tmp|for|if|do|re|pre|un|sub|post|auto|with|from|by|of)(?=[A-Z])/;
const NOT_LATIN_LETTER = /^[^\p{sc=Latin}\p{N}\p{P}\p{S}\s]/u;
const CAPITALISED = /^\p{Lu}\p{Ll}/u;
// Lowercase words that legitimately open a reply before a capital: interjections and name particles.
const ALLOWED_FRAGMENTS = new Set([
  'ok', 'okay', 'hi', 'hey', 'hello', 'yes', 'no', 'oh', 'ah', 'hmm', 'well', 'so', 'and', 'but', 'or', 'haha', 'lol', 'wow', 'sure', 'yeah', 'yep', 'nope', 'vs', 'eg', 'ie',
  'van', 'von', 'de', 'da', 'di', 'del', 'della', 'der', 'den', 'du', 'le', 'la', 'al', 'el', 'bin', 'ibn', 'ter', 'ten', 'dos', 'das', 'do', 'des', 'dei', 'degli',
]);
const PAIRS: Readonly<Record<string, string>> = { '"': '"', '“': '”', '「': '」', '『': '』', '«': '»', '»': '«', '”': '”', '(': ')', '[': ']', '【': '】', '（': '）' };

export const prefix: Detector = (reply) => {
  const text = reply.text.replace(/^[\s\uFEFF]+/, '');
  if (text.length === 0) return pass(CHECK, 'ok', { detail: 'empty reply (see nonempty)' });
  const found = templateToken(text) ?? strayPunctuation(text) ?? unmatchedOpening(text, reply) ?? fragment(text);
  return found ?? pass(CHECK);
};

function templateToken(text: string) {
  const m = TEMPLATE_TOKEN.exec(text);
  return m ? fail(CHECK, 'template_token', { detail: 'a chat-template token leaked into the reply', evidence: { token: m[0], start: quote(text, 30) } }) : undefined;
}

function strayPunctuation(text: string) {
  const first = text[0] ?? '';
  if (DOT_START.test(text) && !EXTENSION_LIKE.test(text)) return stray(text, first);
  if (!CLOSING.has(first)) return undefined;
  if (EMOTICON.test(text) || text.startsWith('![')) return undefined;
  return stray(text, first);
}

function stray(text: string, token: string) {
  return fail(CHECK, 'stray_punctuation', { detail: 'the reply starts with punctuation that belongs to nothing', evidence: { token, start: quote(text, 30) } });
}

/** A quote, bracket, fence or markdown marker that opens the reply and never closes. */
function unmatchedOpening(text: string, reply: Reply) {
  const paragraph = text.split(/\n\s*\n/)[0] ?? text;
  const fence = FENCE.exec(text);
  if (fence) {
    // A fence the token limit cut is the limit's doing, not pollution.
    if (reply.finishReason === 'length' || text.indexOf(fence[1] ?? '```', 3) >= 0) return undefined;
    return fail(CHECK, 'unclosed_fence', { evidence: { start: quote(text, 30) } });
  }
  const marker = /^(\*\*|\*|__|_|~~|`)/.exec(text)?.[1];
  if (marker !== undefined) {
    const after = text.slice(marker.length);
    if (marker === '*' && /^\s/.test(after)) return undefined; // "* item": a list bullet
    if (/^\s/.test(after) || !closes(after, marker, paragraph.length - marker.length)) {
      return fail(CHECK, 'unmatched_markdown', { detail: `an opening ${marker} that never closes`, evidence: { token: marker, start: quote(text, 30) } });
    }
    return undefined;
  }
  const open = text[0] ?? '';
  const close = PAIRS[open];
  if (close === undefined) return undefined;
  const rest = paragraph.slice(1);
  const balanced = open === close ? countOf(rest, open) % 2 === 1 : rest.includes(close);
  return balanced ? undefined : fail(CHECK, 'unmatched_opening', { detail: `an opening ${open} that never closes`, evidence: { token: open, start: quote(text, 30) } });
}

/** Whether `marker` closes within the paragraph, not as part of a longer run (`*` vs `**`). */
function closes(after: string, marker: string, limit: number): boolean {
  let from = 0;
  for (;;) {
    const at = after.indexOf(marker, from);
    if (at < 0 || at > limit) return false;
    const longer = after[at + marker.length] === marker[0] || (at > 0 && after[at - 1] === marker[0]);
    if (!longer || marker.length > 1) return true;
    from = at + 2;
  }
}

function fragment(text: string) {
  const glued = GLUED.exec(text);
  if (glued) {
    const word = glued[1] ?? '';
    const rest = text.slice(word.length);
    const camel = /[A-Z]/.test(word) ? undefined : CAMEL_TAIL.exec(rest);
    const beforeParticle = PARTICLE_START.test(rest);
    if ((HANGUL_OR_HIRAGANA.test(rest) && !beforeParticle) || (camel && !IDENTIFIER_HEAD.test(word + rest) && capitalisesSentences(rest))) {
      return fail(CHECK, 'unrelated_token', { detail: 'a token fragment glued before the reply', evidence: { token: word, start: quote(text, 30) } });
    }
  }
  const cased = CASED_FRAGMENT.exec(text);
  if (cased && !CASED_WORDS.test(cased[1] ?? '') && capitalisesSentences(text.slice(cased[0].length))) {
    return fail(CHECK, 'unrelated_token', { detail: 'a token fragment glued before the reply', evidence: { token: cased[1], start: quote(text, 30) } });
  }
  const m = FRAGMENT.exec(text);
  if (!m || ALLOWED_FRAGMENTS.has(m[1] ?? '')) return undefined;
  const rest = text.slice((m[1] ?? '').length + (m[2] ?? '').length);
  // Glued before another script ("ktor你好", "ilent Привет") or before a capitalised start in a
  // reply that otherwise capitalises its sentences ("ktor Olá, tudo bem? Eu …").
  const otherScript = NOT_LATIN_LETTER.test(rest);
  const capitalStart = MARKDOWN_START.test(rest) || (m[2] !== '' && CAPITALISED.test(rest) && capitalisesSentences(rest));
  if (!otherScript && !capitalStart) return undefined;
  return fail(CHECK, 'unrelated_token', { detail: 'a token fragment glued before the reply', evidence: { token: m[1], start: quote(text, 30) } });
}

function capitalisesSentences(text: string): boolean {
  const starts = text.match(/[.!?]\s+\p{L}/gu) ?? [];
  if (starts.length === 0) return true; // one sentence: its own capital is all there is
  return starts.every((s) => /\p{Lu}$/u.test(s));
}

function countOf(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}
