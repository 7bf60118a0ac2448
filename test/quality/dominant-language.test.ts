import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dominantLanguageOf } from '../../src/quality/index.js';

test('the language a user wrote in, among the 17 product languages', () => {
  assert.equal(dominantLanguageOf('Привет! Как прошёл твой день? Расскажи мне, пожалуйста.'), 'ru', 'Ukrainian and Bulgarian scores do not hide Russian');
  assert.equal(dominantLanguageOf('Olá! Você pode me contar como foi o seu dia hoje?'), 'pt');
  assert.equal(dominantLanguageOf('¿Me cuentas cómo fue tu día? Tengo curiosidad.'), 'es');
  assert.equal(dominantLanguageOf('今日はどんな一日でしたか？'), 'ja');
  assert.equal(dominantLanguageOf('你今天过得怎么样？'), 'zh');
  assert.equal(dominantLanguageOf('ok'), undefined, 'too little to say');
});

test('a greeting of a few Latin letters sets no expectation; a short text in a script of its own does', () => {
  for (const greeting of ['Hello!', 'Hello, how are you?', 'Olá!', 'Ciao', 'Hola, ¿qué tal?']) assert.equal(dominantLanguageOf(greeting), undefined, greeting);
  assert.equal(dominantLanguageOf('你好'), 'zh');
  assert.equal(dominantLanguageOf('Привет!'), 'ru');
  assert.equal(dominantLanguageOf('안녕하세요'), 'ko');
  assert.equal(dominantLanguageOf('Can you summarise this article about climate policy for me?'), 'en');
});
