// nonempty, encoding, repetition, prefix and minlen on cases written to pin their edges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectors, type Reply } from '../../src/quality/index.js';

const reply = (text: string, finishReason: string | null = 'stop'): Reply => ({ text, finishReason });
const verdictOf = (check: keyof typeof detectors, text: string, finishReason: string | null = 'stop', expectation = {}) => detectors[check](reply(text, finishReason), expectation);

describe('nonempty', () => {
  it('fails nothing, whitespace, markup and an immediate cut-off, each by name', () => {
    assert.equal(verdictOf('nonempty', '').reason, 'empty');
    assert.equal(verdictOf('nonempty', ' \n\t').reason, 'whitespace_only');
    assert.equal(verdictOf('nonempty', '**  **').reason, 'markup_only');
    assert.equal(verdictOf('nonempty', '<p></p>').reason, 'markup_only');
    assert.equal(verdictOf('nonempty', 'Th', 'length').reason, 'cut_off');
  });
  it('passes short real answers and long replies stopped by the limit', () => {
    for (const text of ['OK', '👍', '4', '是。']) assert.equal(verdictOf('nonempty', text).verdict, 'pass', text);
    assert.equal(verdictOf('nonempty', 'The capital of France is Paris, and it has been for centuries.', 'length').verdict, 'pass');
  });
});

describe('encoding', () => {
  it('names U+FFFD, mojibake, control characters, lone surrogates and tokenizer residue', () => {
    assert.equal(verdictOf('encoding', 'caf\uFFFD au lait').reason, 'replacement_character');
    const moji = verdictOf('encoding', 'Itâ€™s a cafÃ© in æ–‡ town');
    assert.equal(moji.reason, 'mojibake');
    assert.equal(moji.evidence?.decoded, '’');
    assert.equal(verdictOf('encoding', 'hello\u0007world').reason, 'control_character');
    assert.equal(verdictOf('encoding', 'cut \uD83D').reason, 'lone_surrogate');
    assert.equal(verdictOf('encoding', 'ĠThe Ġcat Ġsat Ġdown').reason, 'tokenizer_residue');
    assert.equal(verdictOf('encoding', '烫烫烫烫').reason, 'mojibake');
  });
  it('passes accents, symbols, emoji with joiners, tabs and Windows line ends', () => {
    for (const text of ['Ça va ? À bientôt, Françoise !', 'Größe: 250 m²', '© 2024 — ½ cup at 180°C ± 5%', 'family 👨‍👩‍👧', 'a\tb\r\nc', '»Öl« und ▁▂▃▅▇']) {
      assert.equal(verdictOf('encoding', text).verdict, 'pass', text);
    }
  });
});

describe('repetition', () => {
  const sentence = 'Everyone has the right to rest and leisure, including reasonable limitation of working hours.';
  it('catches a looping tail, a looping line, a repeated sentence and n-gram stutter', () => {
    assert.equal(verdictOf('repetition', `Hello there. ${'and then we walk '.repeat(12)}`).reason, 'tail_loop');
    assert.equal(verdictOf('repetition', ['- first line here', '- the same line', '- the same line', '- the same line', '- the same line', '- last one'].join('\n')).reason, 'line_loop');
    const looped = verdictOf('repetition', `${sentence} Other words follow here, quite different ones. ${sentence} And more again. ${sentence} The end is near now.`);
    assert.equal(looped.reason, 'sentence_loop');
    assert.equal(verdictOf('repetition', '我们今天去公园散步吧我们今天去公园散步吧我们今天去公园散步吧我们今天去公园散步吧').verdict, 'fail');
  });
  it('passes refrains, code and laughter', () => {
    assert.equal(verdictOf('repetition', 'Row, row, row your boat,\nGently down the stream.\nMerrily, merrily, merrily, merrily,\nLife is but a dream.').verdict, 'pass');
    assert.equal(verdictOf('repetition', 'function a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\nfunction c() {\n  return 3;\n}').verdict, 'pass');
    assert.equal(verdictOf('repetition', 'Ha ha ha! That is a good one.').verdict, 'pass');
  });
});

describe('prefix', () => {
  it('names template tokens, stray punctuation, unmatched markers and glued fragments', () => {
    assert.equal(verdictOf('prefix', '<|im_start|>Hello!').reason, 'template_token');
    assert.equal(verdictOf('prefix', 'assistant: Hello!').reason, 'template_token');
    assert.equal(verdictOf('prefix', ', Olá, tudo bem?').reason, 'stray_punctuation');
    assert.equal(verdictOf('prefix', '」こんにちは。').reason, 'stray_punctuation');
    assert.equal(verdictOf('prefix', '**Olá, tudo bem? Eu estou bem.').reason, 'unmatched_markdown');
    assert.equal(verdictOf('prefix', '"Olá, tudo bem? Eu estou bem.').reason, 'unmatched_opening');
    assert.equal(verdictOf('prefix', 'ktor Olá, tudo bem? Eu estou bem.').reason, 'unrelated_token');
    assert.equal(verdictOf('prefix', 'ktor你好，今天怎么样？').reason, 'unrelated_token');
  });
  it('passes role-play actions, lists, Spanish openers, ellipses, .NET, dialogue and brand names', () => {
    const fine = ['*smiles* Hello there.', '- item one\n- item two', '¿Cómo estás?', '...Well then.', '.NET is a platform.', '—Hola —dijo ella.', '"Hello," she said.', 'iPhone sales rose.', 'van Gogh painted it.', ':) Sure!', '`npm install` first.', 'hey maria! how are you?', '「こんにちは」と彼は言った。', 'iPhone을 샀어요.'];
    for (const text of fine) assert.equal(verdictOf('prefix', text).verdict, 'pass', text);
  });
});

describe('minlen', () => {
  it('counts content characters against minLength, and abstains without one', () => {
    assert.equal(verdictOf('minlen', '**Hi** there', 'stop', { minLength: 8 }).verdict, 'pass');
    const short = verdictOf('minlen', '**Hi**', 'stop', { minLength: 8 });
    assert.equal(short.reason, 'too_short');
    assert.equal(short.evidence?.length, 2);
    assert.equal(verdictOf('minlen', '你好世界', 'stop', { minLength: 4 }).verdict, 'pass');
    assert.equal(verdictOf('minlen', 'anything').verdict, 'inconclusive');
  });
});
