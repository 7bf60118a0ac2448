// language: switches, sustained mixing, zh vs ja by script, what is not drift, and abstaining.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectors } from '../../src/quality/index.js';

const check = (text: string, language?: string) => detectors.language({ text, finishReason: 'stop' }, language ? { language } : {});

const PT = 'Todo ser humano tem direito à vida, à liberdade e à segurança pessoal. Ninguém será mantido em escravidão ou servidão; a escravidão e o tráfico de escravos serão proibidos em todas as suas formas.';
const ES = 'Todo individuo tiene derecho a la vida, a la libertad y a la seguridad de su persona. Nadie estará sometido a esclavitud ni a servidumbre; la esclavitud y la trata de esclavos están prohibidas en todas sus formas.';
const ZH = '人人有权享有生命、自由和人身安全。任何人不得使为奴隶或奴役；一切形式的奴隶制度和奴隶买卖，均应予以禁止。';
const JA = 'すべての人は、生命、自由及び身体の安全に対する権利を有する。何人も、奴隷にされ、又は苦役に服することはない。';

describe('language', () => {
  it('passes a reply in the expected language, with the share it read as native', () => {
    const v = check(PT, 'pt');
    assert.equal(v.verdict, 'pass');
    assert.equal(v.evidence?.expected, 'pt');
  });

  it('fails a whole reply in another language, naming it with scores', () => {
    const v = check(ES, 'pt');
    assert.equal(v.reason, 'wrong_language');
    const languages = v.evidence?.languages as Array<{ language: string }>;
    assert.equal(languages[0]?.language, 'es');
    assert.ok(v.evidence?.scores);
  });

  it('fails Portuguese with Spanish sentences spliced in, and English with Chinese ones', () => {
    const [pt1, pt2] = PT.split(/(?<=\.) /);
    const [es1, es2] = ES.split(/(?<=\.) /);
    const mixed = `${pt1} ${es1} ${pt2} Todos são iguais perante a lei e têm direito, sem qualquer distinção, a igual proteção da lei. ${es2}`;
    assert.equal(check(mixed, 'pt').reason, 'mixed_language');
    const en = 'Everyone has the right to life, liberty and security of person. 人人有权享有生命、自由和人身安全。 No one shall be held in slavery or servitude. 任何人不得使为奴隶或奴役。 No one shall be subjected to torture.';
    assert.equal(check(en, 'en').verdict, 'fail');
  });

  it('tells Chinese from Japanese by script', () => {
    assert.equal(check(ZH, 'zh').verdict, 'pass');
    assert.equal(check(JA, 'ja').verdict, 'pass');
    assert.equal(check(ZH, 'ja').reason, 'wrong_language');
    assert.equal(check(JA, 'zh').reason, 'wrong_language');
    assert.equal(check(`${JA}${ZH}${JA}`, 'ja').verdict, 'fail');
  });

  it('does not count code, URLs, names or a quotation as drift', () => {
    const zhCode = '下面是一个例子：\n```python\nfor line in open("data.txt"):\n    print(line.strip())\n```\n这段代码会逐行读取文件并打印内容，记得把文件名换成你自己的文件。';
    assert.equal(check(zhCode, 'zh').verdict, 'pass');
    const quoted = 'Como dizia o poeta: "Caminante, no hay camino, se hace camino al andar." Essa frase lembra que o caminho se constrói a cada passo que damos na vida.';
    assert.equal(check(quoted, 'pt').verdict, 'pass');
    assert.equal(check('Veja a documentação em https://example.com/docs/getting-started e siga os passos com calma, um de cada vez.', 'pt').verdict, 'pass');
  });

  it('abstains on short text and on unsupported languages, never fails them', () => {
    for (const [text, language] of [['OK', 'en'], ['Sim, claro!', 'pt'], ['好的。', 'zh'], ['👍', 'ja']] as const) {
      assert.equal(check(text, language).verdict, 'inconclusive', text);
    }
    assert.equal(check(PT, 'xx').reason, 'unsupported_language');
  });

  it('without an expected language, judges mixing against the dominant one', () => {
    assert.equal(check(PT).verdict, 'pass');
    assert.equal(check(PT).evidence?.inferred, 'pt');
  });

  it('without an expected language and none dominant, a majority beside sentences in another script is judged against', () => {
    // The demo's Drifty provider: about 55% English and 45% Chinese by weight. It passed as
    // inconclusive (no language reached 60%) whenever the user's message was too short to set one.
    const drift = "That sounds like a lovely idea, and I'd be happy to help you plan it. 再跟我多说一点，后来发生了什么？ Don't worry about being late, the table is booked until nine. 谢谢你告诉我，现在我明白多了。";
    const v = check(drift);
    assert.equal(v.reason, 'mixed_language');
    assert.equal(v.evidence?.inferred, 'en');
    // Answers that use another script on purpose, in short spans, still pass.
    assert.equal(check("The Chinese for 'thank you' is 谢谢 (xièxie), and 'you're welcome' is 不客气 (bú kèqi). Both are used every day, in shops and among friends alike.").verdict, 'pass');
    assert.equal(check('Useful phrases for your trip: 你好 means hello, 谢谢 means thank you, 对不起 means sorry, 多少钱 means how much is it, and 再见 means goodbye. Practice them before you go.').verdict, 'pass');
    assert.equal(check('Here is the translation you asked for:\n\n今天天气很好，我们去公园散步吧。\n\nIt means: the weather is nice today, let\'s go for a walk in the park.').verdict, 'pass');
    // Half and half in one script (pt and es) has no majority to judge against: still inconclusive.
    const [pt1] = PT.split(/(?<=\.) /);
    const [es1] = ES.split(/(?<=\.) /);
    assert.equal(check(`${pt1} ${es1}`).verdict, 'inconclusive');
  });
});
