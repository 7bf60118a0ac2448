// The probes' fixed texts. They never change between rounds: a random prompt could not tell
// a route getting worse from a prompt getting harder (seed 003). All are synthetic; no user
// conversation is ever sent.

/** Latency: anything that starts an answer at once; only the first token is waited for. */
export const LATENCY_PROMPT = 'Reply with one short sentence: say hello to a traveller arriving at an inn.';

const SCENE_SYSTEM =
  'This is a collaborative role-play in a cosy fantasy village. You are Bram, the village blacksmith: gruff, warm-hearted and fond of friendly bets. Stay in character and continue the scene.';

/**
 * Filter: a plainly allowed creative scene (a friendly arm-wrestling challenge in a tavern),
 * the kind of continuation the product supports; a refusal, an empty reply or a
 * `content_filter` finish here is filtering the product did not ask for.
 */
export const FILTER_MESSAGES = [
  { role: 'system', content: SCENE_SYSTEM },
  {
    role: 'user',
    content:
      '*The tavern is loud tonight. Elena, the village healer, sets two mugs of cider on your table and rolls up her sleeve with a grin.* "They say no one in this village can beat you at arm-wrestling, Bram. I say they have never tried me. Loser pays for the cider — are you in?"',
  },
] as const;

/** Prefix: a short in-character reply, where the seed saw a stray "*" or a foreign token open 19 of 20 replies. */
export const PREFIX_MESSAGES = [
  { role: 'system', content: 'This is a role-play. You are Mira, the cheerful innkeeper of the Silver Lantern. Stay in character. Reply in English, in two or three sentences.' },
  { role: 'user', content: '*I push open the door and stamp the snow from my boots.* Evening, Mira! Any rooms left tonight?' },
] as const;

/** Schema and fact: one question whose answer never changes. */
export const SCHEMA_PROMPT = 'What is the capital of France? Answer with a JSON object with the fields "city" and "country".';
export const FACT_PROMPT = 'What is the capital of France? Answer with the city name only.';
export const FACT_ANSWERS: readonly string[] = ['Paris', '巴黎'];

/** The fixed schema of the structured-output probe; strict mode needs every field required and no others. */
export const CAPITAL_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, country: { type: 'string' } },
  required: ['city', 'country'],
  additionalProperties: false,
} as const;

/** The language names the system line uses ("Reply in Portuguese."), in English so every model and the simulated fleet read them alike. */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English', zh: 'Chinese', ja: 'Japanese', ko: 'Korean', es: 'Spanish', pt: 'Portuguese', fr: 'French', de: 'German', it: 'Italian',
  ru: 'Russian', ar: 'Arabic', hi: 'Hindi', id: 'Indonesian', vi: 'Vietnamese', th: 'Thai', tr: 'Turkish', pl: 'Polish',
};

export const LANGUAGE_SYSTEM = 'This is a role-play. You are Mira, the innkeeper of the Silver Lantern, welcoming a traveller. Stay in character.';

/**
 * The same scene in each product language, written as a speaker of it would: a traveller
 * arrives in the rain and asks about the inn, in three or four sentences — long enough for
 * the language detector to judge, short enough to stay cheap.
 */
export const LANGUAGE_PROMPTS: Readonly<Record<string, string>> = {
  en: "Good evening! I've just arrived in town after a long journey through the rain. Could you tell me a little about this inn and the people who come here? Please answer in three or four sentences.",
  zh: '晚上好！我冒着雨赶了很远的路，刚刚来到这座小镇。你能给我讲讲这家旅店和常来这里的客人吗？请用三到四句话回答。',
  ja: 'こんばんは！雨の中を長旅して、ちょうどこの町に着いたところです。この宿と、ここに集まる人たちについて少し教えてもらえますか？三、四文で答えてください。',
  ko: '안녕하세요! 빗속을 뚫고 먼 길을 와서 방금 이 마을에 도착했어요. 이 여관과 여기에 자주 오는 사람들에 대해 조금 이야기해 줄 수 있나요? 서너 문장으로 대답해 주세요.',
  es: '¡Buenas noches! Acabo de llegar al pueblo después de un largo viaje bajo la lluvia. ¿Podrías contarme un poco sobre esta posada y la gente que viene por aquí? Responde en tres o cuatro frases, por favor.',
  pt: 'Boa noite! Acabei de chegar à cidade depois de uma longa viagem debaixo de chuva. Você pode me contar um pouco sobre esta pousada e as pessoas que costumam vir aqui? Responda em três ou quatro frases, por favor.',
  fr: "Bonsoir ! Je viens d'arriver en ville après un long voyage sous la pluie. Pourriez-vous me parler un peu de cette auberge et des gens qui la fréquentent ? Répondez en trois ou quatre phrases, s'il vous plaît.",
  de: 'Guten Abend! Ich bin gerade nach einer langen Reise durch den Regen in der Stadt angekommen. Kannst du mir ein wenig über dieses Gasthaus und die Leute erzählen, die hierherkommen? Bitte antworte in drei oder vier Sätzen.',
  it: 'Buonasera! Sono appena arrivato in città dopo un lungo viaggio sotto la pioggia. Potresti raccontarmi qualcosa di questa locanda e delle persone che la frequentano? Rispondi in tre o quattro frasi, per favore.',
  ru: 'Добрый вечер! Я только что приехал в город после долгой дороги под дождём. Не расскажете немного об этом трактире и о людях, которые сюда заходят? Ответьте, пожалуйста, в трёх-четырёх предложениях.',
  ar: 'مساء الخير! وصلتُ للتوّ إلى البلدة بعد رحلة طويلة تحت المطر. هل يمكنك أن تحدثني قليلًا عن هذا النُّزُل وعن الناس الذين يرتادونه؟ أجب من فضلك في ثلاث أو أربع جمل.',
  hi: 'शुभ संध्या! मैं बारिश में लंबा सफ़र करके अभी-अभी इस शहर में पहुँचा हूँ। क्या आप मुझे इस सराय और यहाँ आने वाले लोगों के बारे में थोड़ा बता सकते हैं? कृपया तीन या चार वाक्यों में जवाब दीजिए।',
  id: 'Selamat malam! Saya baru saja tiba di kota ini setelah perjalanan panjang di tengah hujan. Bisakah kamu bercerita sedikit tentang penginapan ini dan orang-orang yang sering datang ke sini? Tolong jawab dalam tiga atau empat kalimat.',
  vi: 'Chào buổi tối! Tôi vừa đến thị trấn sau một chuyến đi dài dưới mưa. Bạn có thể kể cho tôi nghe một chút về quán trọ này và những người hay lui tới đây không? Hãy trả lời trong ba hoặc bốn câu nhé.',
  th: 'สวัสดีตอนค่ำ! ฉันเพิ่งเดินทางไกลฝ่าสายฝนมาถึงเมืองนี้ ช่วยเล่าให้ฟังหน่อยได้ไหมว่าโรงเตี๊ยมแห่งนี้เป็นอย่างไร และมีผู้คนแบบไหนแวะเวียนมาบ้าง กรุณาตอบเป็นสามถึงสี่ประโยค',
  tr: 'İyi akşamlar! Yağmur altında uzun bir yolculuktan sonra kasabaya yeni vardım. Bana bu han ve buraya gelen insanlar hakkında biraz bilgi verebilir misin? Lütfen üç ya da dört cümleyle cevap ver.',
  pl: 'Dobry wieczór! Właśnie dotarłem do miasta po długiej podróży w deszczu. Czy możesz mi opowiedzieć trochę o tej gospodzie i o ludziach, którzy tu przychodzą? Odpowiedz, proszę, w trzech lub czterech zdaniach.',
};
