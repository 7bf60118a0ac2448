// Which language a simulated reply is written in: the last user message's language by a
// tiny heuristic, unless a system message says "Reply in <language>".
import type { ChatMessage } from '../protocol/types.js';
import { messageText } from '../protocol/messages.js';

export const LANGUAGES = ['en', 'zh', 'ja', 'ko', 'es', 'pt', 'fr', 'de', 'it', 'ru', 'ar', 'hi', 'id', 'vi', 'th', 'tr', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

const NAMES: Record<string, Language> = {
  english: 'en', chinese: 'zh', mandarin: 'zh', japanese: 'ja', korean: 'ko', spanish: 'es',
  portuguese: 'pt', french: 'fr', german: 'de', italian: 'it', russian: 'ru', arabic: 'ar',
  hindi: 'hi', indonesian: 'id', vietnamese: 'vi', thai: 'th', turkish: 'tr', polish: 'pl',
};

/** Drift goes to a neighbouring language, the one a model most plausibly slides into. */
const NEIGHBOUR: Partial<Record<Language, Language>> = {
  pt: 'es', es: 'pt', en: 'zh', zh: 'en', ja: 'zh', fr: 'it', it: 'es', de: 'en',
};

export function neighbourOf(language: Language): Language {
  return NEIGHBOUR[language] ?? 'en';
}

export function languageFromName(name: string): Language | undefined {
  const key = name.toLowerCase();
  if (key in NAMES) return NAMES[key];
  const code = key.split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : undefined;
}

const REPLY_IN = /\b(?:reply|respond|answer|write)\s+(?:only\s+)?in\s+([A-Za-z][A-Za-z_-]*)/i;

export function replyLanguage(messages: readonly ChatMessage[]): Language {
  for (const m of messages) {
    if (m.role !== 'system' && m.role !== 'developer') continue;
    const named = REPLY_IN.exec(messageText(m));
    const language = named?.[1] ? languageFromName(named[1]) : undefined;
    if (language) return language;
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') return detectLanguage(messageText(messages[i]));
  }
  return 'en';
}

const SCRIPTS: Array<[RegExp, Language]> = [
  [/[\u3040-\u30ff]/, 'ja'],
  [/[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/, 'ko'],
  [/[\u4e00-\u9fff\u3400-\u4dbf]/, 'zh'],
  [/[\u0400-\u04ff]/, 'ru'],
  [/[\u0600-\u06ff]/, 'ar'],
  [/[\u0900-\u097f]/, 'hi'],
  [/[\u0e00-\u0e7f]/, 'th'],
];

// Letters that (nearly) only one of our Latin-script languages uses are strong evidence;
// letters two languages share are weaker evidence for both.
const LETTERS: Array<[RegExp, Language[], number]> = [
  [/[ơưđăạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i, ['vi'], 3],
  [/[ąęłńśźżć]/i, ['pl'], 3],
  [/[ığş]/i, ['tr'], 3],
  [/[ßä]/i, ['de'], 3],
  [/[üö]/i, ['de', 'tr'], 1],
  [/[ãõ]/i, ['pt'], 3],
  [/[ñ¿¡]/i, ['es'], 3],
  [/[œûî]/i, ['fr'], 3],
  [/[èù]/i, ['fr', 'it'], 1],
];

const STOPWORDS: Record<string, Language[]> = {};
const addStopwords = (language: Language, words: string) => {
  for (const word of words.split(' ')) (STOPWORDS[word] ??= []).push(language);
};
// Frequent function words; a word two languages share votes for both.
addStopwords('en', 'the is are and you what of to it this that my your how why please can i but with for have was we so not be do about would like sorry');
addStopwords('es', 'el los las que es y por para una hola cómo qué está estoy pero muy gracias usted lo eso esto puedo quiero tengo hasta así también del al');
addStopwords('pt', 'o os as que é um uma não você olá obrigado com do da muito estou mas isso tudo bem mais também posso ao até');
addStopwords('fr', 'le la les est et je vous pas une des du bonjour merci très mais avec suis ça pour par ne rien sur dans on tu nous ce cette qui au aux');
addStopwords('de', 'der die das und ist nicht ich ein eine wie was du sie mit bitte danke hallo uns für nichts auch dass zu auf den dem mir dir sehr noch schon aber oder');
addStopwords('it', 'il che è non sono della gli ciao come per grazie molto ma questo sei una mi ti un e di ho hai ne anche più perché così tutto alla quindi');
addStopwords('id', 'yang dan apa ini itu saya kamu tidak dengan untuk bisa adalah aku terima kasih jadi di nanti sudah kalau jangan sangat akan ada juga lagi sekali karena dari ke mau');
addStopwords('tr', 've bir bu ne için çok ben sen merhaba teşekkürler nasıl değil mi ama daha');
addStopwords('pl', 'w nie jest to jak co się na czy dzień dobry dziękuję proszę że jestem mam ale tak już');

/** Script first, then distinctive letters, then stopword votes; English when unsure. */
export function detectLanguage(text: string): Language {
  for (const [pattern, language] of SCRIPTS) if (pattern.test(text)) return language;
  const votes = new Map<Language, number>();
  for (const [pattern, languages, weight] of LETTERS) {
    if (pattern.test(text)) for (const language of languages) votes.set(language, (votes.get(language) ?? 0) + weight);
  }
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    for (const language of STOPWORDS[word] ?? []) votes.set(language, (votes.get(language) ?? 0) + 1);
  }
  let best: Language = 'en';
  let bestVotes = 0;
  for (const [language, count] of votes) {
    if (count > bestVotes) [best, bestVotes] = [language, count];
  }
  return best;
}
