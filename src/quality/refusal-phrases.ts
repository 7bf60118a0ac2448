// High-confidence refusal phrases, per product language, matched against the opening of a
// reply (lower-cased, apostrophes straightened). Each pairs an apology or an "I cannot" with
// what is being refused (help, provide, continue, write, …) or names a policy, because the
// bare words are everyday speech: "sorry to hear that", "I can't help it", "我不能没有你".
// No \b: in JavaScript it only knows ASCII letters.

export const REFUSAL_PHRASES: Readonly<Record<string, readonly RegExp[]>> = {
  en: [
    /^(?:i'm |i am )?(?:really |very |so |truly )?sorry,? (?:but )?i (?:can't|cannot|can not|won't|will not|am not able to|'m not able to|am unable to|'m unable to)(?: be able to)? (?:help(?: you)? with|help you(?: here| there)?[.,!]|help with|assist|comply|fulfill|fulfil|provide|continue (?:this|that|with|the)|create (?:that|this|such|content)|write (?:that|this|such|content|about)|generate|produce (?:that|this|such)|engage in|do that|do this|participate|proceed|answer that|respond to (?:that|this))/,
    /^(?:unfortunately|apologies|my apologies),? (?:but )?i (?:can't|cannot|won't|am unable to|'m unable to|am not able to|'m not able to) (?:help(?: you)? with|help you[.,!]|assist|comply|fulfill|provide|continue (?:this|that|with)|create|write (?:that|this|such)|generate|engage in|do that|participate)/,
    /^i (?:can't|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) (?:help(?: you)? with (?:that|this|your request)|assist (?:you )?with|assist in|comply with|fulfill (?:that|this|your)|provide (?:that|this|assistance|content|information on)|continue (?:this|that|with this|with that|the story|the conversation|the role-?play)|create (?:that|this|such|content)|write (?:that|this|such|content)|generate (?:that|this|such|content)|engage in (?:that|this)|participate in (?:that|this))/,
    /^i (?:must|have to) (?:respectfully |politely )?decline/,
    /^as an ai(?: language model| assistant| model)?,? i (?:can't|cannot|am not able|'m not able|am unable|'m unable|don't|do not|won't)/,
    /^i'm not (?:comfortable|able to) (?:helping|assisting|continuing|writing|creating|generating|engaging|providing|help|assist|continue|write|create|generate|engage|provide)/,
    /(?:against|violates?|violating|breach of) (?:my|the|our|openai's) (?:guidelines|content polic(?:y|ies)|usage polic(?:y|ies)|policies|safety policies)/,
  ],
  zh: [
    /^(?:很|非常|十分|真的)?(?:抱歉|对不起|不好意思)[，,。！!\s]*(?:但(?:是)?[，,]?\s*)?我(?:无法|没法|不能|不可以)(?:为你|为您|帮你|帮您|帮助|协助|提供|满足|完成|继续|回答|生成|创作|参与|处理|进行|执行|遵循|配合|支持|撰写|编写)/,
    /^(?:很|非常|十分)?抱歉[，,]\s*我无法/,
    /^我(?:无法|不能|没办法|不可以)(?:为你|为您|帮你|帮您|协助|帮助你|提供|满足|完成这|继续这|回答这|生成|创作|参与|处理这)/,
    /作为(?:一个|一名)?(?:ai|人工智能|ai助手|语言模型|人工智能助手|ai语言模型)[，,]?\s*我(?:无法|不能|不会)/,
    /(?:违反|不符合)了?(?:我的|相关的?|平台的?|openai的?)?(?:使用|内容)?(?:政策|准则|规定|指导原则)/,
  ],
  ja: [
    /^(?:大変)?申し訳(?:ありません|ございません|ないの?です)(?:が|けれど|けど)?[、,。\s]*.{0,40}?(?:できません|できかねます|お手伝いできません|お応えできません|対応できません|お答えできません|いたしかねます|致しかねます)/,
    /^(?:すみません|ごめんなさい)(?:が)?[、,。\s]*.{0,40}?(?:お手伝いできません|お応えできません|対応できません|お答えできません|いたしかねます|致しかねます)/,
    /^(?:その|この)(?:ご)?(?:リクエスト|ご依頼|依頼|質問|内容)(?:に|には|は)?.{0,10}?(?:お応えできません|対応できません|お答えできません|お手伝いできません)/,
    /(?:ポリシー|ガイドライン)に(?:反する|違反する|抵触する)/,
  ],
  ko: [
    /^(?:정말\s*)?(?:죄송하지만|죄송합니다만?|죄송해요|미안하지만|유감이지만)[,.\s]*.{0,40}?(?:도와드릴 수 없|도와 드릴 수 없|응할 수 없|제공할 수 없|작성할 수 없|생성할 수 없|계속할 수 없|진행할 수 없|답변할 수 없|들어드릴 수 없)/,
    /^(?:그|이)\s*(?:요청|부탁|질문)(?:은|는|에는)?.{0,20}?(?:도와드릴 수 없|응할 수 없|들어드릴 수 없)/,
    /(?:정책|가이드라인|지침)에 (?:위배|어긋나|위반)/,
  ],
  es: [
    /^(?:lo siento|lo lamento|disculpa|disculpe|perdón|perdona|lamentablemente|desafortunadamente)(?: mucho)?,? (?:pero )?(?:no puedo|no me es posible|no estoy en condiciones de|no podré) (?:ayudar|asistir|cumplir|proporcionar|continuar|crear|escribir|generar|producir|participar|hacer eso|seguir con|responder a|realizar|satisfacer|atender)/,
    /^no puedo (?:ayudarte con|ayudarle con|ayudar con|asistirte con|cumplir con|proporcionar|continuar con|crear ese|crear este|escribir ese|escribir este|generar|producir|participar en|seguir con|hacer eso|responder a eso)/,
    /^como (?:una )?(?:ia|inteligencia artificial|modelo de lenguaje|asistente de ia),? no (?:puedo|me es posible)/,
    /(?:va en contra de|viola|infringe) (?:mis|las|nuestras) (?:pautas|directrices|políticas|normas)/,
  ],
  pt: [
    /^(?:desculpe|desculpa|sinto muito|lamento|infelizmente|perdão),? (?:mas )?(?:eu )?(?:não posso|não consigo|não poderei|não sou capaz de|não me é possível) (?:te ajudar|ajudar|auxiliar|atender|cumprir|fornecer|continuar|criar|escrever|gerar|produzir|participar|fazer isso|seguir com|responder a|realizar)/,
    /^(?:eu )?não (?:posso|consigo) (?:te ajudar com|ajudar com|ajudá-lo com|ajudá-la com|auxiliar|atender a|cumprir|fornecer|continuar com|criar esse|criar este|escrever esse|escrever este|gerar|produzir|participar d|seguir com|fazer isso|responder a isso)/,
    /^como (?:uma )?(?:ia|inteligência artificial|modelo de linguagem|assistente de ia),? (?:eu )?não (?:posso|consigo)/,
    /(?:vai contra|viola|infringe) (?:as |minhas |nossas )?(?:diretrizes|políticas|normas)/,
  ],
  fr: [
    /^(?:je suis (?:vraiment )?désolée?|désolée?|je regrette|malheureusement|navrée?),? (?:mais )?je ne (?:peux|pourrai|suis pas en mesure d)(?: pas)?.{0,12}?(?:aider|assister|répondre|fournir|continuer|créer|écrire|générer|produire|participer|faire cela|faire ça|donner suite|accéder à|satisfaire)/,
    /^je ne (?:peux|pourrai) pas (?:vous aider|t'aider|aider|répondre à|fournir|continuer|créer|écrire|générer|produire|participer|faire cela|faire ça|donner suite|accéder à cette|satisfaire)/,
    /^en tant qu(?:e |')(?:ia|intelligence artificielle|modèle de langage|assistant),? je ne (?:peux|suis)/,
    /(?:va à l'encontre de|enfreint|viole) (?:mes|les|nos) (?:directives|règles|politiques|conditions)/,
  ],
  de: [
    /^(?:es tut mir (?:sehr )?leid|entschuldigung|tut mir leid|leider),? (?:aber )?(?:dabei |damit |hierbei |dazu |hier )?(?:ich )?(?:kann|darf|werde) (?:ich )?(?:dir |ihnen |euch )?(?:dabei |damit |hierbei |bei dieser anfrage |diese anfrage |das |diesem wunsch |dieser bitte )?(?:leider )?(?:nicht|keine)(?: weiter)? (?:helfen|unterstützen|nachkommen|erfüllen|bereitstellen|fortsetzen|erstellen|schreiben|generieren|beantworten|teilnehmen|liefern|hilfe|unterstützung)/,
    /^ich kann (?:dir |ihnen |euch )?(?:dabei |damit |hierbei |bei dieser anfrage |diese anfrage |diesem wunsch |das )?(?:leider )?nicht (?:helfen|unterstützen|nachkommen|erfüllen|bereitstellen|fortsetzen|erstellen|schreiben|generieren|beantworten|weitermachen)/,
    /^als (?:ki|künstliche intelligenz|sprachmodell|ki-assistent),? (?:kann|darf) ich/,
    /(?:verstößt gegen|widerspricht) (?:meine|meinen|die|den|unsere|unseren) (?:richtlinien|nutzungsrichtlinien|inhaltsrichtlinien|regeln)/,
  ],
  it: [
    /^(?:mi dispiace|spiacente|purtroppo|scusa|scusami|mi scuso),? (?:ma )?(?:non posso|non sono in grado di|non mi è possibile|non potrò) (?:aiutar|assister|soddisfare|fornire|continuare|creare|scrivere|generare|produrre|partecipare|farlo|fare questo|rispondere|proseguire|esaudire)/,
    /^non posso (?:aiutarti con|aiutarla con|aiutare con|assisterti|soddisfare|fornire|continuare con|creare quest|scrivere quest|generare|produrre|partecipare a|farlo|fare questo|rispondere a quest|proseguire con)/,
    /^come (?:un'?|una )?(?:ia|intelligenza artificiale|modello linguistico|assistente),? non (?:posso|sono in grado)/,
    /(?:va contro|viola) (?:le mie|le|le nostre) (?:linee guida|politiche|norme|regole)/,
  ],
  ru: [
    /^(?:извините|простите|к сожалению|мне жаль|сожалею),? (?:но )?(?:я )?не (?:могу|смогу|в состоянии|имею возможности) (?:помочь|помогать|выполнить|предоставить|продолжить|создать|написать|сгенерировать|участвовать|ответить|сделать это|с этим|исполнить)/,
    /^я не (?:могу|смогу|буду) (?:помочь с|помочь вам с|выполнить (?:этот|эту|вашу)|предоставить|продолжить (?:этот|эту|это)|создать (?:такой|такую|такое|этот|это)|написать (?:такой|такую|такое|этот|это)|сгенерировать|участвовать в)/,
    /^как (?:ии|искусственный интеллект|языковая модель|ии-ассистент),? я не (?:могу|в состоянии)/,
    /(?:противоречит|нарушает) (?:моим |моей |нашим |нашей )?(?:правилам|политике|принципам|правила|политику)/,
  ],
  ar: [
    /^(?:عذرًا|عذراً|عذرا|آسف|أنا آسف|أعتذر|للأسف|معذرة)[،,.\s]*(?:ولكن |لكن )?(?:لا (?:أستطيع|يمكنني|أقدر على)|لن (?:أتمكن|أستطيع))/,
    /^لا (?:أستطيع|يمكنني) (?:مساعدتك|المساعدة|تقديم|تلبية|الاستمرار|إنشاء|كتابة|توليد|المشاركة|الإجابة)/,
    /(?:يتعارض مع|ينتهك|يخالف) (?:إرشادات|سياسات|سياسة|قواعد)/,
  ],
  hi: [
    /^(?:क्षमा करें|क्षमा कीजिए|माफ़ कीजिए|माफ़ करें|माफ कीजिए|माफ करें|मुझे खेद है|खेद है)[,।\s]*(?:लेकिन |पर |परंतु |किंतु )?.{0,60}?(?:नहीं कर सकता|नहीं कर सकती|नहीं कर सकते|असमर्थ हूँ|असमर्थ हूं)/,
    /^मैं (?:इसमें |इस में |इस अनुरोध में |आपकी )?(?:मदद|सहायता) नहीं कर (?:सकता|सकती)/,
    /(?:नीतियों|दिशानिर्देशों|नीति) (?:के खिलाफ|के विरुद्ध|का उल्लंघन)/,
  ],
  id: [
    /^(?:maaf|mohon maaf|sayangnya|saya minta maaf),? (?:tetapi |tapi |namun )?(?:saya )?tidak (?:bisa|dapat|mampu|akan) (?:membantu|memenuhi|menyediakan|memberikan|melanjutkan|membuat|menulis|menghasilkan|berpartisipasi|menjawab|melakukan)/,
    /^saya tidak (?:bisa|dapat) (?:membantu (?:dengan|anda dengan|untuk)|memenuhi permintaan|menyediakan|memberikan (?:konten|informasi|bantuan)|melanjutkan (?:cerita|percakapan|permintaan)|membuat konten|menulis (?:konten|cerita)|menghasilkan|berpartisipasi|melakukan itu)/,
    /^sebagai (?:ai|kecerdasan buatan|model bahasa|asisten ai),? saya tidak/,
    /(?:melanggar|bertentangan dengan) (?:pedoman|kebijakan|aturan)/,
  ],
  vi: [
    /^(?:xin lỗi|rất tiếc|tôi xin lỗi|thật tiếc|tiếc là),? (?:nhưng )?(?:tôi )?không thể (?:giúp|hỗ trợ|đáp ứng|cung cấp|tiếp tục|tạo|viết|thực hiện|tham gia|trả lời)/,
    /^tôi không thể (?:giúp bạn với|giúp với|hỗ trợ|đáp ứng yêu cầu|cung cấp|tiếp tục (?:câu chuyện|cuộc trò chuyện|yêu cầu)|tạo nội dung|viết nội dung|thực hiện yêu cầu|tham gia)/,
    /^là (?:một )?(?:ai|trí tuệ nhân tạo|mô hình ngôn ngữ),? tôi không thể/,
    /(?:vi phạm|đi ngược lại) (?:nguyên tắc|chính sách|quy định)/,
  ],
  th: [
    /^(?:ขออภัย|ขอโทษ|เสียใจ)(?:ครับ|ค่ะ|คะ|นะครับ|นะคะ|ด้วย)?[,\s]*.{0,50}?ไม่สามารถ(?:ช่วย|ให้ความช่วยเหลือ|ดำเนินการ|สร้าง|เขียน|ตอบ|ทำ|ให้|ตอบสนอง|ปฏิบัติ)/,
    /^(?:ผม|ฉัน|ดิฉัน)ไม่สามารถ(?:ช่วย|ให้ความช่วยเหลือ|ดำเนินการตามคำขอ|สร้างเนื้อหา|เขียนเนื้อหา|ตอบคำถามนี้)/,
    /(?:ขัดต่อ|ละเมิด)(?:นโยบาย|แนวทาง|หลักเกณฑ์)/,
  ],
  tr: [
    /^(?:üzgünüm|kusura bakmayın|maalesef|özür dilerim),? (?:ama |fakat |ancak )?.{0,40}?(?:yardımcı olamam|yardım edemem|sağlayamam|devam edemem|oluşturamam|yazamam|karşılayamam|katılamam|yanıt veremem|cevap veremem|yerine getiremem)/,
    /^(?:bu (?:konuda|isteğe|talebe|istekle) )?(?:size |sana )?yardımcı olamam/,
    /^bir yapay zeka (?:olarak|modeli olarak),? .{0,20}?(?:yapamam|olamam|veremem)/,
    /(?:yönergelerime|politikalarıma|kurallarıma|yönergelere|politikalara|kurallara) aykırı/,
  ],
  pl: [
    /^(?:przepraszam|niestety|przykro mi),? (?:ale )?(?:nie mogę|nie jestem w stanie|nie będę w stanie)(?: ci| pani| panu)? (?:pomóc|pomagać|spełnić|zapewnić|kontynuować|stworzyć|napisać|wygenerować|uczestniczyć|odpowiedzieć|tego zrobić|w tym)/,
    /^nie mogę (?:ci |pani |panu )?(?:pomóc w tym|pomóc z tym|spełnić tej|zapewnić|kontynuować tej|kontynuować tego|stworzyć tak|napisać tak|wygenerować|uczestniczyć w|tego zrobić)/,
    /^jako (?:ai|sztuczna inteligencja|model językowy|asystent ai),? nie (?:mogę|jestem)/,
    /(?:narusza|jest sprzeczne z) (?:moimi |naszymi )?(?:wytycznymi|zasadami|zasady|wytyczne|polityką)/,
  ],
};
