// refusal: filtering, refusal openings in the product languages, replies stopped half-way —
// and the ordinary "sorry" that must pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectors } from '../../src/quality/index.js';

const check = (text: string, finishReason: string | null = 'stop', language?: string) => detectors.refusal({ text, finishReason }, language ? { language } : {});

describe('refusal', () => {
  it('fails a content_filter finish whatever the text', () => {
    assert.equal(check('', 'content_filter').reason, 'content_filter');
    assert.equal(check('Once upon a time', 'content_filter').reason, 'content_filter');
  });

  it('fails high-confidence refusals in several languages and names the language', () => {
    const refusals: Array<[string, string]> = [
      ['en', "I'm sorry, but I can't help with that."],
      ['zh', '抱歉，我无法继续这个话题。'],
      ['es', 'Lo siento, no puedo ayudar con eso.'],
      ['pt', 'Desculpe, mas não posso ajudar com isso.'],
      ['ja', '申し訳ありませんが、そのご依頼にはお応えできません。'],
      ['ko', '죄송하지만, 그 요청은 도와드릴 수 없습니다.'],
      ['de', 'Es tut mir leid, aber ich kann dabei nicht helfen.'],
      ['ru', 'Извините, но я не могу помочь с этим запросом.'],
      ['ar', 'عذرًا، لا أستطيع المساعدة في هذا الطلب.'],
      ['tr', 'Üzgünüm, bu konuda yardımcı olamam.'],
    ];
    for (const [language, text] of refusals) {
      const v = check(text, 'stop', language);
      assert.equal(v.reason, 'refusal_phrase', text);
      assert.equal(v.evidence?.language, language, text);
    }
  });

  it('passes ordinary text with "sorry" or "can\'t" in it, and dialogue in quotes', () => {
    for (const text of [
      'Sorry to hear that! Here is how to fix it: restart the router.',
      "I can't help but smile when I see you.",
      '"I\'m sorry, but I can\'t help you," the old man said.',
      'No puedo creer que ya sea viernes.',
      '抱歉让你久等了！下面是答案。',
      '我不能没有你。',
    ]) {
      assert.equal(check(text).verdict, 'pass', text);
    }
  });

  it('fails a reply that finished normally on a dangling comma or colon, not on a dash or an emoticon', () => {
    assert.equal(check('Everyone has the right to life, liberty,').reason, 'stopped_mid_sentence');
    assert.equal(check('Here are the steps you asked for:').reason, 'stopped_mid_sentence');
    assert.equal(check('Everyone has the right to life, liberty,', 'length').verdict, 'pass');
    assert.equal(check('"But I—"').verdict, 'pass');
    assert.equal(check('That is sad :(').verdict, 'pass');
  });
});
