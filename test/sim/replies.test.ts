// Pure parts of the fleet: language heuristic, stream pieces, reply composition, corruption.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { misdecode } from '../../src/sim/corrupt.js';
import { FaultDice, noFaults, parseForcedFaults } from '../../src/sim/faults.js';
import { detectLanguage, LANGUAGES, replyLanguage } from '../../src/sim/language.js';
import { splitPieces } from '../../src/sim/pieces.js';
import { composeReply, type ReplyInput } from '../../src/sim/reply.js';
import { REFUSALS, SENTENCES } from '../../src/sim/sentences.js';

const input = (extra: Partial<ReplyInput> = {}): ReplyInput => ({
  scenarioSeed: 1,
  provider: 'Alpha',
  model: 'm',
  key: 'seed:7',
  language: 'en',
  prompt: 'Tell me about your day',
  fault: null,
  replyTokens: 40,
  ...extra,
});

test('every bank sentence is detected as its own language', () => {
  for (const language of LANGUAGES) {
    assert.equal(SENTENCES[language].length >= 10, true, `${language} has at least 10 sentences`);
    for (const sentence of SENTENCES[language]) assert.equal(detectLanguage(sentence), language, sentence);
    assert.equal(detectLanguage(REFUSALS[language]), language, REFUSALS[language]);
  }
});

test('short everyday prompts are detected; a system "Reply in" overrides', () => {
  const cases: Array<[string, string]> = [
    ['Hello, how are you today?', 'en'], ['Hola, ¿cómo estás?', 'es'], ['Olá, tudo bem com você?', 'pt'],
    ['Bonjour, comment ça va ?', 'fr'], ['Hallo, wie geht es dir?', 'de'], ['Ciao, come stai?', 'it'],
    ['Halo, apa kabar? Saya baru pulang.', 'id'], ['Xin chào, bạn khỏe không?', 'vi'], ['Merhaba, nasılsın?', 'tr'],
    ['Cześć, jak się masz?', 'pl'], ['你好，今天过得怎么样？', 'zh'], ['こんにちは、元気ですか？', 'ja'],
    ['안녕하세요, 잘 지내세요?', 'ko'], ['Привет, как дела?', 'ru'], ['مرحبا، كيف حالك؟', 'ar'],
    ['नमस्ते, आप कैसे हैं?', 'hi'], ['สวัสดีครับ สบายดีไหม', 'th'],
  ];
  for (const [text, language] of cases) assert.equal(detectLanguage(text), language, text);
  const messages = (system: string) => [{ role: 'system', content: system }, { role: 'user', content: 'Hello there, how are you?' }];
  assert.equal(replyLanguage(messages('You are kind. Reply in Portuguese.')), 'pt');
  assert.equal(replyLanguage(messages('Reply in ja')), 'ja');
  assert.equal(replyLanguage(messages('Be brief.')), 'en');
});

test('stream pieces join back to the exact text, words for Latin and 1–2 characters for CJK', () => {
  for (const language of LANGUAGES) {
    for (const sentence of SENTENCES[language]) assert.equal(splitPieces(sentence).join(''), sentence);
  }
  assert.deepEqual(splitPieces('Hi there, friend.'), ['Hi', ' there', ',', ' friend', '.']);
  for (const piece of splitPieces(SENTENCES.zh[0] as string)) assert.ok([...piece].length <= 2, piece);
  assert.equal(splitPieces(' ,odd start  ').join(''), ' ,odd start  ');
});

test('the same input gives the same reply; another seed usually another', () => {
  assert.deepEqual(composeReply(input()), composeReply(input()));
  const texts = new Set([1, 2, 3, 4, 5].map((n) => composeReply(input({ key: `seed:${n}` })).content));
  assert.ok(texts.size > 1);
  const reply = composeReply(input());
  assert.equal(reply.finishReason, 'stop');
  assert.equal(reply.fault, null);
  assert.ok(reply.pieces.length >= 40, `about replyTokens pieces, got ${reply.pieces.length}`);
});

test('content faults change the text the way they are named', () => {
  const clean = composeReply(input()).content ?? '';
  const prefixed = composeReply(input({ fault: 'prefix' })).content ?? '';
  assert.ok(prefixed.endsWith(clean) && prefixed.length > clean.length);

  const drift = composeReply(input({ fault: 'drift' })).content ?? '';
  assert.match(drift, /[\u4e00-\u9fff]/, 'en drifts into zh');
  assert.match(composeReply(input({ language: 'pt', fault: 'drift' })).content ?? '', /\b(el|que|la|muy|se)\b/);

  assert.match(composeReply(input({ fault: 'mojibake' })).content ?? '', /â€™|\uFFFD/);
  assert.equal(misdecode('café 文'), 'cafÃ© æ–‡');

  const repeated = composeReply(input({ fault: 'repetition', maxTokens: 120 }));
  assert.equal(repeated.finishReason, 'length');
  assert.equal(repeated.pieces.length, 120);

  assert.equal(composeReply(input({ fault: 'refusal', language: 'es' })).content, 'Lo siento, no puedo ayudar con eso.');
  assert.equal(composeReply(input({ fault: 'empty' })).content, '');
  assert.equal(composeReply(input({ fault: 'contentFilter' })).finishReason, 'content_filter');
});

test('faults with nothing to act on report no fault', () => {
  assert.equal(composeReply(input({ fault: 'brokenJson' })).fault, null, 'no response_format');
  assert.equal(composeReply(input({ fault: 'wrongFact' })).fault, null, 'not a fact question');
  assert.equal(composeReply(input({ fault: 'wrongFact', prompt: 'What is the capital of France?' })).content, 'Lyon');
});

test('brokenJson takes each of its four shapes across seeds', () => {
  const format = { type: 'json_object' };
  const shapes = new Set<string>();
  for (let n = 0; n < 40; n++) {
    const text = composeReply(input({ key: `seed:${n}`, fault: 'brokenJson', responseFormat: format })).content ?? '';
    if (text.startsWith('Sure!')) shapes.add('prose');
    else if (text.startsWith('```json')) shapes.add('fenced');
    else {
      try {
        const value = JSON.parse(text) as Record<string, unknown>;
        if (!('reply' in value)) shapes.add('missingField');
      } catch {
        shapes.add('truncated');
      }
    }
  }
  assert.deepEqual([...shapes].sort(), ['fenced', 'missingField', 'prose', 'truncated']);
});

test('fault dice are seeded: the same seed replays the same faults, weights above 1 always fault', () => {
  const faults = { ...noFaults(), error503: 0.3, prefix: 0.2 };
  const run = () => {
    const dice = new FaultDice(42, 'Alpha');
    return Array.from({ length: 50 }, () => dice.roll(faults));
  };
  assert.deepEqual(run(), run());
  const rolled = run();
  assert.ok(rolled.includes('error503') && rolled.includes('prefix') && rolled.includes(null));
  const always = new FaultDice(1, 'x');
  const heavy = { ...noFaults(), error500: 2, empty: 2 };
  for (let i = 0; i < 50; i++) assert.notEqual(always.roll(heavy), null);
});

test('x-sim-fault parses a global fault, per-provider faults and rejects unknown names', () => {
  const forced = parseForcedFaults('error503');
  assert.ok(typeof forced !== 'string' && forced.all === 'error503');
  const per = parseForcedFaults('Alpha=error503, beta=none');
  assert.ok(typeof per !== 'string' && per.byProvider.get('alpha') === 'error503' && per.byProvider.get('beta') === null);
  assert.equal(typeof parseForcedFaults('explode'), 'string');
});
