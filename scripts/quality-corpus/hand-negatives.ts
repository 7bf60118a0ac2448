// Hard negatives, by hand: replies that look like a fault to a careless check and are fine.
// A false failure quarantines a healthy route, so these weigh more than their number.
import type { CheckName, VerdictKind } from '../../src/quality/index.js';
import type { CorpusCase } from '../../bench/quality-eval/case.js';

type Labels = Partial<Record<CheckName, VerdictKind>>;
type Entry = [language: string, text: string, labels?: Labels, finishReason?: string];

const ALL_PASS: Labels = { nonempty: 'pass', refusal: 'pass', language: 'pass', encoding: 'pass', repetition: 'pass', prefix: 'pass' };

// Language: quotations, code, names, URLs and technical terms are not drift.
const LANGUAGE: Entry[] = [
  ['pt', 'Como dizia o poeta Antonio Machado: "Caminante, no hay camino, se hace camino al andar." Essa frase lembra que o caminho se constrói a cada passo que damos, e que não existe um roteiro pronto para a vida.'],
  ['zh', '当然可以！下面是一个用 Python 读取文件的例子：\n\n```python\nwith open("data.txt", encoding="utf-8") as f:\n    for line in f:\n        print(line.strip())\n```\n\n这段代码会逐行读取文件并打印内容。记得把文件名换成你自己的文件。'],
  ['ja', 'このAPIはJSON形式でデータを返します。リクエストにはAuthorizationヘッダーが必要です。詳しくは https://example.com/docs/getting-started を参照してください。'],
  ['ko', '최신 iPhone 15 Pro Max와 Samsung Galaxy S24 Ultra를 비교해 보겠습니다. 두 제품 모두 카메라 성능이 뛰어나지만, 배터리 수명에서는 차이가 있습니다.'],
  ['en', 'She had a certain *joie de vivre* that made everyone around her feel lighter. Even on the greyest mornings, she would open the windows and hum an old song.'],
  ['en', 'Gabriel García Márquez and Jorge Luis Borges are two of the most celebrated writers from Latin America. Their stories blend the everyday with the fantastic.'],
  ['es', 'Puedes descargar Visual Studio Code desde https://code.visualstudio.com y luego instalar la extensión de Python. Después, abre la carpeta de tu proyecto y empieza a programar.'],
  ['de', 'Für das Deployment nutzen wir einen Kubernetes-Cluster. Die Pipeline baut zuerst das Docker-Image und schiebt es dann in die Registry.'],
  ['fr', "Mon film préféré reste « The Shawshank Redemption ». L'histoire d'amitié entre les deux prisonniers me touche à chaque fois que je le regarde."],
  ['ru', 'Чтобы исправить ошибку, вызовите метод `getUserById()` до того, как обращаться к объекту user_profile. Затем проверьте, что значение не равно null.'],
  ['hi', 'मैं आपको कल सुबह email भेज दूँगा। कृपया अपना inbox देख लीजिएगा और कोई सवाल हो तो बताइए।'],
  ['ar', 'يمكنك شراء هاتف iPhone 15 من متجر Apple الرسمي بسعر يبدأ من 799 دولارًا. كما تتوفر خيارات التقسيط في معظم المتاجر الكبيرة.'],
  ['zh', '我最喜欢的作家是 J.K. Rowling，她写的《哈利·波特》系列陪伴了我整个童年。每次重读都有新的感受。'],
  ['vi', 'Trí tuệ nhân tạo (AI) đang thay đổi cách chúng ta làm việc mỗi ngày. Nhiều công ty đã bắt đầu sử dụng các công cụ như ChatGPT để hỗ trợ nhân viên.'],
  ['tr', "Bu hafta sonu İstanbul'da Boğaz kıyısında yürüyüş yapmayı planlıyoruz. Hava güzel olursa Ortaköy'de kahvaltı da yapabiliriz."],
  ['id', 'Besok saya akan pergi ke Bandung bersama keluarga. Kami berencana mengunjungi Tangkuban Perahu dan mencicipi makanan khas Sunda.'],
  ['pl', 'W weekend wybieramy się do Krakowa. Chcemy zwiedzić Wawel, a wieczorem zjeść pierogi na Kazimierzu.'],
  ['it', 'Domani andiamo al mare con gli amici. Porteremo dei panini e qualcosa da bere, così potremo restare in spiaggia tutto il giorno.'],
  ['th', 'วันนี้ฉันซื้อ iPhone เครื่องใหม่จากร้าน Apple Store ที่สยามพารากอน ราคาค่อนข้างสูงแต่คุ้มค่ามาก'],
  ['pt', 'No próximo mês vou viajar para Buenos Aires e depois para Santiago do Chile. Quero conhecer a Plaza de Mayo e provar as empanadas argentinas.'],
  ['es', 'En Brasil usan la palabra "saudade" para describir una nostalgia profunda por algo que se ha perdido. No existe una traducción exacta al español.'],
  ['zh', '今天天氣很好，我們一起去公園散步吧。記得帶上水和帽子，傍晚可能會起風。'],
  ['ja', 'アリババ（阿里巴巴）は中国の大手IT企業です。本社は杭州にあり、多くのサービスを提供しています。'],
  ['en', 'The Chinese word 你好 (nǐ hǎo) simply means "hello". It is usually the first phrase that learners pick up.'],
  ['ko', '*미소를 지으며* 어서 오세요! 오늘은 어떤 이야기를 나눠볼까요? 차 한 잔 드릴까요?'],
  ['pt', '*sorri e se aproxima* Olá, viajante! Faz tempo que ninguém passa por esta estrada. O que te traz até aqui?'],
  ['en', 'Run `pip install requests` first, then call `requests.get(url, timeout=10)` and check `response.status_code` before reading the body.'],
  ['es', 'Mi canción favorita es "Bohemian Rhapsody" de Queen. La escucho siempre que viajo en coche por la carretera.'],
  ['de', 'Der Begriff „Schadenfreude“ wird sogar im Englischen verwendet. Er beschreibt die Freude über das Unglück anderer.'],
  ['ja', '彼は「Thank you very much」と英語で言ってから、日本語で丁寧にお礼を述べました。'],
  ['ru', 'Вчера я посмотрел фильм «Интерстеллар» Кристофера Нолана. Музыка Ханса Циммера просто потрясающая.'],
  ['pl', 'Najbardziej lubię książki Olgi Tokarczuk, zwłaszcza „Biegunów”. Jej styl jest wyjątkowy i bardzo poetycki.'],
];
const TOO_SHORT: Entry[] = [
  ['en', 'OK', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['ja', 'はい。', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['pt', 'Sim, claro!', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['es', 'Vale.', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['zh', '好的。', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['en', '👍', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['fr', '42', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
  ['ko', '네, 알겠습니다.', { language: 'inconclusive', nonempty: 'pass', prefix: 'pass', encoding: 'pass', refusal: 'pass' }],
];

// Starts that are fine: role-play actions that close, lists, headings, Spanish openers, …
const PREFIX: Entry[] = [
  ['en', '*smiles softly* Hello there, traveller. What brings you to this quiet village?'],
  ['en', '- First, preheat the oven to 180 degrees.\n- Then, mix the flour and the sugar in a bowl.'],
  ['en', '* Item one is the cheapest option.\n* Item two is faster but costs more.'],
  ['en', '1. Open the settings.\n2. Choose Privacy.\n3. Turn the location service off.'],
  ['en', '# Getting started\n\nInstall the package first, then run the setup script.'],
  ['en', '> To be, or not to be, that is the question.\n\nHamlet asks it in the third act.'],
  ['es', '¿Cómo estás? Espero que todo vaya muy bien por allí.'],
  ['es', '¡Hola! ¿En qué puedo ayudarte hoy?'],
  ['en', '...Well, that was unexpected. I did not see that twist coming at all.'],
  ['ja', '…そうですね、少し考えさせてください。'],
  ['en', '.NET is a developer platform made by Microsoft for building many kinds of applications.'],
  ['es', '—Hola —dijo ella, sonriendo desde la puerta—. ¿Llegué tarde?'],
  ['ja', '「こんにちは」と彼は言った。私は驚いて顔を上げた。'],
  ['en', '"Hello," she said, looking up from her book with a tired smile.'],
  ['en', '(laughs) Okay, okay, you win this time. Next round is mine.'],
  ['en', '`npm install` downloads every dependency listed in package.json.'],
  ['en', '```python\nprint("hi")\n```\nThis prints a short greeting to the console.'],
  ['en', 'van Gogh painted The Starry Night in 1889, while staying in Saint-Rémy.'],
  ['en', 'iPhone sales rose again this quarter, driven by strong demand in Asia.'],
  ['fr', '« Bonjour », dit-il en entrant dans la pièce sombre.'],
  ['de', '»Hallo«, sagte er leise und schloss die Tür hinter sich.'],
  ['en', ':) Sure, happy to help with that. What would you like to know?'],
  ['en', '![diagram](https://example.com/diagram.png)\nThe diagram shows how a request flows through the gateway.'],
  ['en', '**Important:** back up your data before you upgrade.'],
  ['en', '_Note:_ this only works on Linux and macOS.'],
  ['en', '"Quote one" and "quote two" are both famous lines from the film.'],
  ['en', 'hey maria! how are you doing today? long time no see.'],
  ['en', '   \n\nHello! Leading whitespace like this is perfectly fine.'],
  ['zh', '【公告】本周六凌晨系统维护，届时服务将暂停两个小时。'],
  ['zh', '（笑）好的，没问题，明天见。'],
  ['zh', 'ok，我明白了，马上处理。'],
  ['en', 'macOS 14 introduced widgets on the desktop and a new game mode.'],
  ['en', '3D printing is a fun hobby, but the printers need regular care.'],
  ['pt', '«Olá», disse ela, sem tirar os olhos do livro.'],
  ['pt', '*Ela suspira.* Tudo bem, vamos lá então. Mas só desta vez!'],
  ['ru', '— Привет, — сказал он и улыбнулся.'],
];

// Loops that are not loops: refrains, code, tables, laughter, similar list items.
const REPETITION: Entry[] = [
  ['en', 'Row, row, row your boat,\nGently down the stream.\nMerrily, merrily, merrily, merrily,\nLife is but a dream.\n\nRow, row, row your boat,\nGently down the stream.'],
  ['en', '```js\nfunction a() {\n  return 1;\n}\nfunction b() {\n  return 2;\n}\nfunction c() {\n  return 3;\n}\n```'],
  ['en', '| day | plan |\n|-----|------|\n| Mon | rest |\n| Tue | run 5 km |\n| Wed | rest |\n| Thu | run 5 km |\n| Fri | rest |'],
  ['en', 'Ha ha ha! That is a good one. You always know how to make me laugh.'],
  ['en', 'No, no, no. I said the blue one, not the red one. The blue one is on the left.'],
  ['zh', '谢谢！谢谢你的帮助，真的非常感谢。'],
  ['en', '- Monday: rest day\n- Tuesday: run 5 km\n- Wednesday: rest day\n- Thursday: run 5 km\n- Friday: rest day\n- Saturday: long run'],
  ['es', 'Paso a paso se llega lejos. Paso a paso se aprende. Y paso a paso, sin prisa, se construye una vida.'],
  ['ja', 'ありがとう、ありがとう、本当にありがとう。あなたのおかげで助かりました。'],
];

// Text that only looks damaged: accents, symbols, emoji with joiners, sparklines.
const ENCODING: Entry[] = [
  ['fr', 'Ça va ? À bientôt, Françoise ! Nous nous reverrons à Noël.'],
  ['de', 'Die Größe des Gebäudes beträgt 250 m², die Höhe 12 m.'],
  ['pt', 'São Paulo é a maior cidade do Brasil e também da América do Sul.'],
  ['tr', "İstanbul, Türkiye'nin en kalabalık şehridir ve iki kıtaya yayılır."],
  ['vi', 'Tiếng Việt có sáu thanh điệu và dùng bảng chữ cái Latinh có dấu.'],
  ['en', '© 2024 Example Corp. All rights reserved. Terms apply.'],
  ['en', 'Add ½ cup of sugar and bake at 180°C for 25 minutes.'],
  ['en', 'A naïve café owner rewrote her résumé over the weekend.'],
  ['en', 'The family emoji 👨‍👩‍👧 is made of three emoji joined by zero-width joiners.'],
  ['en', 'Price: 10 € — or about £8.50 ± 5%, depending on the day.'],
  ['en', 'Tabs\tand\nnewlines are fine.\r\nSo are Windows line endings.'],
  ['pl', 'Zażółć gęślą jaźń to zdanie z wszystkimi polskimi znakami.'],
  ['en', 'Weekly signups: ▁▂▃▅▇ — growing steadily since March.'],
  ['de', 'Ähnliche Fälle: »Öl«, »Übung« und »Ärger« schreibt man groß.'],
  ['es', 'El señor Muñoz vive en la calle Peña, número 5, 3.º B.'],
];

// Ordinary text with "sorry" or "can't" in it, dialogue in quotes, and endings that only look cut.
const REFUSAL: Entry[] = [
  ['en', 'Sorry to hear that! Here is how you can fix it: first, restart the router, then wait a minute.'],
  ['en', "I can't help but smile when I see you walk through that door."],
  ['en', "I'm sorry for the late reply. The meeting is at 3 pm tomorrow, in the small room."],
  ['en', '"I\'m sorry, but I can\'t help you," the old man said, closing the door in my face.'],
  ['en', "*looks away* I can't help you with that... not this time. Ask me again tomorrow."],
  ['es', 'No puedo creer que ya sea viernes. ¡Qué semana tan rápida!'],
  ['zh', '抱歉让你久等了！下面是你要的答案：北京是中国的首都。'],
  ['ja', '申し訳ありませんが、少々お待ちください。確認してからお答えします。'],
  ['pt', 'Desculpe a demora! Aqui está a receita que você pediu, com todos os passos.'],
  ['de', 'Entschuldigung, dass ich so spät antworte. Hier ist die Lösung für dein Problem.'],
  ['ru', 'Извините за задержку. Вот ответ на ваш вопрос о погоде в Москве.'],
  ['en', 'Unfortunately, the museum is closed on Mondays, so plan your visit for Tuesday.'],
  ['en', 'I cannot stress this enough: back up your files before the upgrade.'],
  ['zh', '我不能没有你，*她轻声说道*，眼里含着泪水。'],
  ['es', 'Lo siento mucho por tu pérdida. Si quieres hablar, aquí estoy.'],
  ['en', "I won't lie, this recipe takes time. But it's worth every minute."],
  ['en', 'That is a sad story :('],
  ['en', '"But I—" She stopped, unable to finish the sentence.\n\n"But I—"'],
  ['en', 'Here is the list of what you need (flour, eggs, milk).'],
  ['fr', 'Je ne peux pas attendre de te revoir ! À samedi.'],
  ['ko', '죄송하지만 잠시만 기다려 주세요. 곧 답변드리겠습니다.'],
];

// A reply cut by the token limit that still says something, and tiny replies that are answers.
const NONEMPTY: Entry[] = [
  ['en', 'The capital of France is Paris, and it has been for centuries. The city', { nonempty: 'pass', encoding: 'pass', prefix: 'pass' }, 'length'],
  ['en', 'OK', { nonempty: 'pass' }],
  ['en', '👍', { nonempty: 'pass' }],
  ['en', '4', { nonempty: 'pass' }],
  ['zh', '是。', { nonempty: 'pass' }],
  ['es', 'Sí.', { nonempty: 'pass' }],
];

export function negativeCases(): CorpusCase[] {
  const groups: Array<[string, Entry[], Labels]> = [
    ['language', LANGUAGE, ALL_PASS],
    ['short', TOO_SHORT, {}],
    ['prefix', PREFIX, { ...ALL_PASS, language: undefined } as Labels],
    ['repetition', REPETITION, { ...ALL_PASS, language: undefined } as Labels],
    ['encoding', ENCODING, ALL_PASS],
    ['refusal', REFUSAL, { refusal: 'pass', nonempty: 'pass', encoding: 'pass' }],
    ['nonempty', NONEMPTY, {}],
  ];
  const cases: CorpusCase[] = [];
  for (const [group, entries, defaults] of groups) {
    entries.forEach(([language, text, labels, finishReason], i) => {
      const merged = Object.fromEntries(Object.entries(labels ?? defaults).filter(([, v]) => v !== undefined)) as Labels;
      cases.push({
        id: `hand-negative-${group}-${language}-${i}`,
        labels: merged,
        reply: { text, finishReason: finishReason ?? 'stop' },
        expectation: { language },
        transform: `hand:negative-${group}`,
        language,
        split: i % 2 === 0 ? 'tune' : 'holdout',
        meta: { chars: Array.from(text).length },
      });
    });
  }
  return cases;
}
