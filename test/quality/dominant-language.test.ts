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
