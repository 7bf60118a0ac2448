// Chinese or Japanese, for text in Han characters: a script question, not a statistical one
// (FINDINGS). Kana means Japanese. A Han-only span is Chinese only when it carries several
// characters that Japanese never writes (simplified forms such as 这 们 说 对, or
// traditional ones modern Japanese replaced, such as 們 這 國) and none of Japan's own forms
// (気 図 対 権 々 …); otherwise it is left ambiguous.

const CHINESE_ONLY = new Set(
  '这们说话语请让认识读谁课诉该论设证评词译试详谈谢调议记计订讨训讯许访诗诚误谊讲讽诈诞询诸诺谋谎谓谣谦谨谱个为么东丝两严丧' +
  '丰临丽举义乐习书买亏亚产亲亿仅从仓仪价众优伟传伤伦侦侧侨俭债倾偿储儿兰关兴养兽军农决况冻净减凤击刘则刚创删别剂剑剧劝办务' +
  '动劲势华协单卖卫厅历厉压厌县发变叹吓吗听启员响团园围图圆圣场坏块坚坛坝坟垄垒墙壳处备复够头夹夺奋奖妇妈娱婴孙宁实宠审宪宫' +
  '宽宾对寻导尔尘尝层岁岂岗岛岭币师帐带帮库应庙废开异弃张弯弹强归录彻忆忧怀态总恶惊愤愿战戏户执扩扫扬扰抚抢护报拟拥择挡挤挥' +
  '损换摄摆摇敌斋无时显晓暂术杀杂权极构枪柜标栋树样档桥梦检欢毕汉沟泪浓涛涨渐滚滥滨灭灾炼烂烟烦烧热爱爷牵犹猎环现电畅疗疯盐' +
  '监盖盘矿码砖础确离种积稳穷竞笔签简紧纠红纤约级纪纬纯纱纲纳纵纷纸纹纺线练组细织终绍经结绕绘给络绝统继绩绪续维绵综绿缓编缘' +
  '缩罗罚罢职联聪肃肠肤肿胀胶脏脸舰艰艺节苏苹荐荡荣药获萝营蓝虑虽蚀补衬袜见观规觉览视贝负贡财责贤败货质贩贪贫购贯贱贴贵贷贸' +
  '费贺资赋赌赏赐赔赖赚赛赞赠赢赵趋跃车轨轩转轮软轰轻载较辅辆辈辉输辩达过迈运还进远违连选递逻遗邓邮邻郑酱鉴钉钓钟钢钥钱钻铁' +
  '铃铜铭银铺链销锁锅错锻镇镜长门闪闭问闯闲间闷闹闻阀阅队阳阴阵阶际陆陈险隐难雾页顶项顺须顾顿颁预领频颗题颜额风飞饥饭饮饰饱' +
  '饺馆马驱驶驻驾验骂骄骑骗鱼鲜鸟鸡鸣鸭鹰齿龙龟齐鲁渔满脑范迟释汤泽洁济测粮润灵毁气呢啊吧咱嘛您哪們這說麼嗎對與會發經關權應' +
  '價點讀讓學國實體從來覺邊還鐵錢當變氣圖樣歲戰區廣賣總歡',
);

const JAPANESE_ONLY = new Set(
  '々〆気図駅変広売読様働込畑峠辺沢浜県鉄戦歳対応権発労薬覧関験検険単価経済続総縁歩渉従徳恵悪拡拠挙斎枠栄桜楽歓殻浄涙渋満焼' +
  '犠猟獣畳穏粋絵継緑縄聴脳臓舎芸荘蔵覚観訳謡豊賛転軽逓遅郷酔醸釈鉱銭鋳錬録闘陥隠雑霊顔顕騒髄鶏黒黙齢円両乗亜仏仮伝倹児剤剣' +
  '剰勧勲収営団囲圏圧塁塩増壊壌奨嬢実寛専巣帯帰庁廃弁弐弾徴悩懐戯戸払拝捜掲揺摂撃晩暁暦桟歯歴毎滝瀬稲穂粛縦繊蛍覇譲駆髪',
);

// One byte per BMP code unit (1 Chinese-only, 2 Japanese-only): counting is a table lookup per
// character, not a string and a Set lookup.
const FORMS = new Uint8Array(0x10000);
for (const char of CHINESE_ONLY) FORMS[char.charCodeAt(0)] = 1;
for (const char of JAPANESE_ONLY) FORMS[char.charCodeAt(0)] = 2;

export function isChineseOnly(char: string): boolean {
  return FORMS[char.charCodeAt(0)] === 1;
}

export function isJapaneseOnly(char: string): boolean {
  return FORMS[char.charCodeAt(0)] === 2;
}

/** How many Chinese-only and Japanese-only characters a span holds. */
export function countHanForms(text: string): { chinese: number; japanese: number } {
  let chinese = 0;
  let japanese = 0;
  for (let i = 0; i < text.length; i++) {
    const form = FORMS[text.charCodeAt(i)];
    if (form === 1) chinese++;
    else if (form === 2) japanese++;
  }
  return { chinese, japanese };
}
