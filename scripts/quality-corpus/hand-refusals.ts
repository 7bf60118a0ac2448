// Refusals as filtering providers write them, by hand, in the 17 product languages: the
// phrasing varies on purpose (apology first or not, policy named or not, an offer after).
import type { CorpusCase } from '../../bench/quality-eval/case.js';

const REFUSALS: Readonly<Record<string, readonly string[]>> = {
  en: [
    "I'm sorry, but I can't help with that.",
    "I'm sorry, but I can't continue this story. If you'd like, we could take it in a different direction.",
    'I cannot assist with this request as it goes against my guidelines.',
    'Unfortunately, I am unable to provide that kind of content.',
    "As an AI language model, I can't engage in this type of role-play.",
    'I must respectfully decline this request.',
  ],
  zh: ['抱歉，我无法继续这个话题。', '很抱歉，我不能为您提供这类内容。', '对不起，我无法满足这个请求，因为它违反了使用政策。', '作为一个AI助手，我无法参与这种角色扮演。'],
  ja: ['申し訳ありませんが、そのご依頼にはお応えできません。', '申し訳ございませんが、この内容の作成はいたしかねます。', 'すみません、その質問にはお答えできません。'],
  ko: ['죄송하지만, 그 요청은 도와드릴 수 없습니다.', '죄송합니다만 이런 내용은 작성할 수 없습니다.', '이 요청은 정책에 위배되어 도와드릴 수 없습니다.'],
  es: ['Lo siento, no puedo ayudar con eso.', 'Lo siento, pero no puedo continuar con esta historia.', 'No puedo proporcionar ese tipo de contenido, ya que va en contra de mis directrices.', 'Lamentablemente, no puedo cumplir con esa solicitud.'],
  pt: ['Desculpe, mas não posso ajudar com isso.', 'Sinto muito, não posso continuar essa história.', 'Não posso fornecer esse tipo de conteúdo, pois viola as diretrizes.', 'Infelizmente, não consigo atender a esse pedido.'],
  fr: ['Je suis désolé, mais je ne peux pas vous aider avec cette demande.', "Désolée, je ne peux pas continuer cette histoire.", 'Je ne peux pas fournir ce type de contenu, car cela enfreint mes directives.'],
  de: ['Es tut mir leid, aber ich kann dabei nicht helfen.', 'Leider kann ich diese Anfrage nicht erfüllen.', 'Ich kann Ihnen dabei nicht helfen, da dies gegen meine Richtlinien verstößt.'],
  it: ['Mi dispiace, ma non posso aiutarti con questa richiesta.', 'Purtroppo non posso continuare questa storia.', 'Non posso fornire questo tipo di contenuto perché va contro le mie linee guida.'],
  ru: ['Извините, но я не могу помочь с этим запросом.', 'К сожалению, я не могу продолжить эту историю.', 'Я не могу выполнить эту просьбу, так как это нарушает правила.'],
  ar: ['عذرًا، لا أستطيع المساعدة في هذا الطلب.', 'آسف، لكن لا يمكنني الاستمرار في هذه القصة.', 'لا يمكنني تقديم هذا النوع من المحتوى لأنه يتعارض مع سياسات الاستخدام.'],
  hi: ['क्षमा करें, मैं इस अनुरोध में मदद नहीं कर सकता।', 'माफ़ कीजिए, मैं यह कहानी आगे नहीं बढ़ा सकती, मैं ऐसा नहीं कर सकती।', 'मैं इसमें मदद नहीं कर सकता क्योंकि यह नीतियों के खिलाफ है।'],
  id: ['Maaf, saya tidak bisa membantu dengan permintaan itu.', 'Mohon maaf, tetapi saya tidak dapat melanjutkan cerita ini.', 'Saya tidak dapat memberikan konten seperti itu karena melanggar kebijakan.'],
  vi: ['Xin lỗi, tôi không thể giúp với yêu cầu này.', 'Rất tiếc, nhưng tôi không thể tiếp tục câu chuyện này.', 'Tôi không thể cung cấp nội dung đó vì nó vi phạm chính sách.'],
  th: ['ขออภัยครับ ผมไม่สามารถช่วยเรื่องนี้ได้', 'ขอโทษค่ะ ดิฉันไม่สามารถดำเนินการตามคำขอนี้ได้', 'ฉันไม่สามารถช่วยได้ เพราะคำขอนี้ขัดต่อนโยบาย'],
  tr: ['Üzgünüm, bu konuda yardımcı olamam.', 'Maalesef bu hikayeye devam edemem.', 'Kusura bakmayın, bu isteği yerine getiremem çünkü yönergelerime aykırı.'],
  pl: ['Przepraszam, ale nie mogę pomóc w tej sprawie.', 'Niestety nie mogę kontynuować tej historii.', 'Nie mogę tego zrobić, ponieważ narusza to zasady.'],
};

export function refusalCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const [language, texts] of Object.entries(REFUSALS)) {
    texts.forEach((text, i) => {
      cases.push({
        id: `hand-refusal-${language}-${i}`,
        labels: { refusal: 'fail', nonempty: 'pass', encoding: 'pass', prefix: 'pass', repetition: 'pass' },
        reply: { text, finishReason: 'stop' },
        expectation: { language },
        transform: 'hand:refusal',
        language,
        split: i % 2 === 0 ? 'tune' : 'holdout',
        meta: { chars: Array.from(text).length },
      });
    });
  }
  return cases;
}
