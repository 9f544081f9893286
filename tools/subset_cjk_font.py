"""Cut Noto Sans CJK TC down to the glyphs the boards can be asked to draw, and write it
into the renderers' fonts folder with its licence (renderers/cjk.py draws with it).

The whole face is ~19 MB a weight; the boards need a few thousand characters: every one
the Chinese texts use (data/**/*.zh-TW.yaml), every other character of data/ (Latin
and symbols, since a mixed string is drawn whole in this face), a fixed set of digits
and CJK punctuation, and the Traditional characters in common use (COMMON and Big5's
level of common characters), because players' names typed in Chinese reach the boards too.

COMMON was built once, from the Unicode Han database (Unihan 15.0, Debian's
unicode-data): the characters with kFrequency 1 to 4 (frequency in Traditional Chinese
text, 1 the most frequent) or a kGradeLevel (taught in primary school, Hong Kong), kept
when Big5 has them (so Traditional forms only), ordered by frequency then grade.

Run it after a translation changes (tests/test_cjk_font.py fails until you do):

    apt-get install fonts-noto-cjk     # or --source DIR holding NotoSansCJKtc-*.otf
    .venv/bin/pip install -e '.[build]'
    .venv/bin/python tools/subset_cjk_font.py

WOFF2 is not readable by Pillow, so the subset is written as OpenType (CFF outlines).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from renderers.cjk import FONT_DIR, FONT_FILES, LICENCE_FILE, is_cjk

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
FAMILY = "Noto Sans CJK TC"
SOURCE_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk",
               "/usr/share/fonts/google-noto-cjk")
# Debian's collections (every region in one file), or the upstream single faces.
SOURCE_NAMES: dict[bool, tuple[str, ...]] = {
    False: ("NotoSansCJK-Regular.ttc", "NotoSansCJKtc-Regular.otf"),
    True: ("NotoSansCJK-Bold.ttc", "NotoSansCJKtc-Bold.otf"),
}
# Where Debian keeps the licence of fonts-noto-cjk (the OFL 1.1 text, indented).
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")

FIXED = "0123456789０１２３４５６７８９，。：；！？「」『』（）、…—·《》〈〉～－／　"
# A mixed line is drawn whole in this face: it needs what the code itself writes into
# labels too ("×3", "Turn 3 · Ann", arrows, stars), not only what data/ holds.
PRINTABLE_ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
LATIN_AND_SIGNS = "".join(chr(c) for c in range(0xA1, 0x100)) + "–—‘’“”•…→←↑↓★☆▶◆†"

COMMON = (
    "一上下不中也了交人他以你來信個們出到前去可同問嗎在多大好子學家對小就工年很後得心"
    "想我新是時最會有本果沒法現生用當的看真知站能自要說請這過道還那都麼之但因國定意成"
    "所提文機為然電地如於發章而何天無訊和三事二五些今件位住作便候做像元先光兒入全兩八"
    "公六共再分力功加動十又友口叫吃各名向吧呢哈喜四回場外太女她字孩完室容實寫少山己已"
    "師常幫幾弟張強從快情愛應手才打找把拿指掉接換故教數方日明星月朋服期東板林校樂樣次"
    "歌正每比氣水清滿片物玩球男留畫白眼破種空竹笑第等算級結給老聲聽興色花行西見記話該"
    "認誰課讀貓走起路身車近造進遠重錯長門開隊面音頭風體高黃點並主久什任份保備傳價兄內"
    "別利北南原反取受合告命品喔單圖城報失奇它安希帶平度形影必念怎怪或投收改放整料更李"
    "格歡死民求活流海王班理由直相社立管經線總美考腦般英號表被裝覺觀計討許試語謝象買費"
    "跟辦通連運選邊部量金錢間除雖難非題飛馬且世代似使修其化區即台員啊型基士夢央始將專"
    "差建引思性感持政曾望未業標權決灣版特獨界研確神科程究組統網義聯臺著處視解設訴論講"
    "識議變讓賽軍較轉迷速關陳需驗龍則務卻及器支案檔此目者與若華萬言資超錄類另否呵系阿"
    "凰至黨乎制卡參哪啦妳市式您戰書耶裡鳳七九亮仔低倒假停冷勝包升午半句右司呀哥唱園坐"
    "堆塊妹姐媽客害左巴布店彩忙怕慢房抱拉排旁早易春昨晚木根條樹步歲母毛油深火熱燈牛狗"
    "甚田甲病痛睡石碟禮穿筆答約紅紙細罷習肉腳臉草落葉親角談豬跑跳輕追送週遊陽隻雨雲青"
    "養香魚鳥麗黑值傷免具刀初刻剛助努千古味呼商土壞夜夫套寄寶封尋居巧幹底座康廠廣彈往"
    "待微忘急息惜態抓招推播擔救敗敢景暗曲架棒楊楚極止段殺注洋浪湖準爭父牌狀產百皮益硬"
    "票節紀練缺育舉舞良苦藍虎血術規詞誠護貴貼賣趕趣足軟迎退野鐘防院陣陸隨險雙雷順預領"
    "餐館騎麻亂亞享令例供依係充克兵切列劃劍印周哇嘿嚴團堂境增壓夠威存宗官宣密射導局展"
    "帝幕幸府律復志恐悲惡懷技拜據攻效普智榮樓模檢欣歉毒永治況波派消測演激灌營爛爽環疑"
    "登盡眾福稱突竟篇精絕編續罪置聖職背舊補訓評詳誤證警賞質載輸述達適配酒醫鐵集雜靈靜"
    "響項須願顧首鬼仁介付佛偉優典判創劇勢博含唉啟嗚奏委宜宿尚尤徵德憶懂扁承按援擇擊斷"
    "既暴核概構源漢漫率琴畢省督碼磁示策簡簽純素終絡維緣繼罵羅聞藝蘭螢調負責越輯逢釋附"
    "限際雄離靠顯魔吉君售執壘慧授控施武歸江狂紹翻聊蠻註佳俊呆囉戀族某異致謂亦仍劉協史"
    "吳哦啥善嗯嘛嘻均守屬弄慮戲搞斯查梅欲歷溫濟照煩爾皆群莫薦衛製諸趙遇郭里銘鍵丁丙乙"
    "兔冬刷吹咬哭喝圓夏姊姓娃婆尾屋帽忽扇拍掃掛採搖搬操晨晴杯枝桃桌椅橋池河泥洗洞涼淨"
    "游潔熟燒爬爸牙瓜甜盃睛短碗秋窗米粉糕綠羊耍耳肚肯船茶菜蜂蜜蝶蟲街衣跌農逃雞食飯餅"
    "鼠鼻齊丈丟乏乖乘井仙休伯伴伸借健冊冰刺剩割勇勞勤勸危厚厲叔吵吸固圍堅塔塵墨壁壯奶"
    "娘季尖尺層島幅幼序弱彎怒恰憐懶抄抹拔拾掌搶摘撞擦散敵旅暑暖替朵材村松染柳植槍欺殼"
    "汪汽沈沙泳浮淺減港湯滅滴漸灰烏煙牆牠狼猜瓶盤砍碎碰祝窩童籃粗緊缸聰肥胖脫腰腿荷莊"
    "蓮蛋蛙袋讚豆貌貨贊踏躲輪辛辨途遲鄉鄰針釣鈴銀鏡雪零露鞋頂頑顆顏飄飲骨鬥鬧鮮鵝鹿默"
    "鼓齒串乾互亡佈佩倍側偶偷傲兇冠剪副卷厭后吐喊喬嘴噴嚇困圾垃培塗填奪妙妻姑孔孝孫富"
    "察寬尊巡巨庭廢廳徑忍忠恆悔悶愁愈愉愚慈慕慘慣慰慶憂戴扣抗折抬抵拋振挺捐捕捲探插握"
    "揮損摩敬旗昏暫朗柔梯棋棚森毀沿泡洩淚淡混渡滋滾漂漲災烈燃牧牲牽狐猛獅獎獸珠略盛盜"
    "監碧禁禍私秒租移積窮笨箭箱築籍紛絲綱績繁織罰羞羽翼耐聚肩脆臨臭薄藏藥衝裁裂褲訪詩"
    "誕豐貝財貪賀賓購贈距踢輛轟逐逝逼遺避郵鋼鍋鎖閃閒闊阻陪陰震霧頁額飽餘騙驚髮麥丸京"
    "仇仰伍伙估促俗俠倚傻傾僅僑億兼冒准凡函刊刪劫勉勵召咖哀啡喂嘗圈坡坦塞壽夕奔妥姿婚"
    "媒孤宮寂寒寞岸崇席干幻庫廉徒怖恢恥恨恩恭悟惠憑懼戒批抽拆拒拖括拳挑捨捷描揚擁擋擠"
    "擴擺攝敏旋映朝末束桑械棄榜橫欄欽款歐殘毅污沖洲浩涯液溝溪漏潛潮濃濤炎炮烤焦熊爆爐"
    "爺犧犯獄獲獻玉玫珍瑰瓦申番疼痕療皇盼眉瞭磨礎秀秘稿端競符筋範籌糊索累縮縱繞繳署翁"
    "翔耀耗股胞胡胸膽臥舍舒航艦芳荒蒼蓋薪虛蟹裕複覽觸訂託詢誇誼諒謀譜谷貫賜賤賭賴賺跡"
    "蹟蹤躍軌輔輝辯迅迫透逛遍違遙遭遷邀酸醉醜銳鋒鎮閉閱降陷隆階隔雅頓飾駕駛驅鬆鳴鷹齡"
    "龜侵俱傑傢儘允凌勁吊吝吟夾奮妨婦嫌屏帳幽延怡怨悠惑惱截托挖搭摸撥擾敦杜析洪涉炸狠"
    "甘瞧矛砲穩糟納綜緩茫藉融覆誓譯賢贏輩辭迴逆逸邏郎采閣隱霸革騷倫偏儀凝凱勒唯域堪墮"
    "夥奉契宇審屆屠嶺巷役彼征徹忌惹慾憲憾扯披措擬晶曉柏殊毫泉洽濫爵痴瘋癡眠礙祥稍笛紫"
    "緒縣繪虧衡誌諾譽豈豪趨辱鄭酷銷錦障韻頻駐魂丌丹乃么予于云亨仲企伊佔余侯偵儒兮勿卒"
    "叭吾呂咦咧咪咱哉哎哩哲唐唬唷唸啪喇喵嗨嘆嘉址坤坪壢奈奧妮姆孟宋宏宙寢寧尼屁峰嵐川"
    "州巫帥幣床庸廖廷弘弦彌彥彬彭彰徐悅悉戶拼撐撿擎敝斗旦旭昇昌昭曰曼朱梁椰楓樞氏汝沉"
    "泰洛涵淑滄滑澤煞猶玄玲琪瑜瑞瑪疏盟盾矣砂碩祖禪秤秦稅穌穹翹胎舟艾芬莉莎菩菲萊葛蒙"
    "蔡蔣蕭薩藤蘇蠍証貞貢賦赤軒迪遜邁邦邪邱醒鍾鑑闆闡陀陵霹靂靖韓頗鬱魅魯鴻麵黎齋佰冶"
    "匹巾捉棉汗澡煮燕爪禾稻糖蝴鴨亭伏倦傘兜兢划剿吞吠吱啼塘寸帆廁惰扮抖掘撲斟斤曬桶梨"
    "梳棵橘橙汁浸渴漁漱灘熄玻璃畜疲疾痘瘦盆盒秩穀竿筷箏粒翅耕膀舌芽苗莖菊蔗蔬蕉蘋蚊蛇"
    "蛛蛤蜓蜘蜻蝸螞裳謊謎貧逾遮郊釘雀餵鴉鴿丐乞仿伺倡傅傍催儲冥凳刮劈匠咳啄啞喉喚嗅嗽"
    "嘔嚨埋塢屑巢帕廈廚愧慌慚憤戚扶捏捧掩搜敲斬暢曆曙曝枯柴栽棍櫃歎泄淋添溉溼潑澆炒燭"
    "狡狸狹猴疊皂盲瞎磅穫窄簿籠粘粥糧紋紐繩羨聾膚膠臂舅艇茂菌萄葡蒸蓄藹虹蟬蠅衫貍販賊"
    "趁跛躺返逕遵醬鈔鈕銅錶隧颱餓驕骯髒鹹鹼黏乳仗侍倉倖偽僕僥僱冀凋凍凜凸凹刑券剝劣匆"
    "匪卑叢叮吩吻咀咐哨喧喪嗜噪嚷嚼坊坑垂堡堤塑墊墓墳壺奢奸姨娛嫁嫂嬉嬰宅宴宵寓寺岡崩"
    "帖廊弧徙循徽恕悄患惶慎慷憎懇懸扎扒拇拘挫挽掙揭摺撒擲攔攜斃斑斜旺暇暈暮杖柄柱株桂"
    "框梢楷樸樽櫥欠殿氛氧沫沸洶淘淹渠湧溜漆漿澈澳濁濱瀑烘焰燥燦牢獵疫症痊癒癢盪矩矮碌"
    "磚礦祕祭禽稀稚簾籬糾紮綁綴縫纜罐翠肢肺胃脅脈脹腐腸膨臟舖舵艘艱芒茅萎蔚蔭蔽蕩蛀蝕"
    "衰袍裹襪襲診詐誘誡誦謙貿趾跪踐踴蹄躁躬軀辰逗遣釀鋪鍊鏟闢雇雌雕鞠鞭頌頸飢飼饒馳駝"
    "駱騰驟鱗伶俐俯僻儉儡冤剖劑匙卸吼呈呻咽哄喃喘嚮囑囚埃埠塌墅墟墾壇娶婉嫩屍屜屢岩峭"
    "巖廟弊弔彷彿徘忿怯恤悼惦慨扭拌拚挨挾掀摧撇撓撕攀攘攪斥斧旱昂枉枕柚歇歧歹殖殷毆泊"
    "涕淒淪溢滔漾澄濾瀉炬炭煎煥燙瓣畏畔眺瞞瞪砌碑祈禱稽穎穴竊筒簇粵紳絆絨絮縛繡聳肌腫"
    "腹膏膝膩艙葬蠢衷袖裙襟訣詭諧謠謹譬賠賬趟跋蹈輻酬鋸鑼鑽鑿閨霎霞頒頰鬚鶯併侈侮俘倆"
    "傭債僵兌几凶削剎勃募匯匿叛咒哺喻噬囂囊妒姻婿媚媳嫉嬌寡寵尬尷屈嶼庇怠恃恍悴惟慄憔"
    "懈懊懦懲抒押拯拱掠搗撫擄擅擒攤敷旨晝晦朦朧柵棲榨樑歪泛渣渺溺滯滲漠潤潰澀烹焚瑣瓷"
    "畸瘓瘡癱皺盈矯砰磋祟禦稟窟籲紊紗紡綿緝緻繫纏纖罩翩耽聘肅肪脂脊脖脾腔臘苛莽萌蕪虐"
    "虜蚤蠟裸襯覓誣賄贓贖跨蹲躇躊輾輿辜逞遞鈍銜鑄闖陶隙霉霓鞏頹顛飪餌餒馴駁駭骸魄龐只"
    "乒乓佣刨吮堰巿浞祚綪虱蝨踫醑侄倣吆嘈姪濘灒熨猾痰糰羡脣荔鋤卞埂嬸帚慫捱掣揩榦燬甥"
    "瘉芾褥貯赳喱喳嗇嚥圃墬潦濺窖筵綢閘髦啜嘹垕慳渙滓狽褸襤詫賂酣鑲"
)


# Big5's first level: the 5,401 characters Taiwan's Ministry of Education lists as in
# common use (0xA440..0xC67E). COMMON alone (~2,800) left ordinary name characters out
# (沃, 淇, 琳...), and a player's name on a board drawn as boxes reads as a bug; the
# whole level costs about 0.5 MB a weight.
BIG5_COMMON_FIRST, BIG5_COMMON_LAST = 0xA440, 0xC67E


def big5_common() -> set[str]:
    """Every character of Big5's level of common characters."""
    found: set[str] = set()
    for code in range(BIG5_COMMON_FIRST, BIG5_COMMON_LAST + 1):
        try:
            found.add(code.to_bytes(2, "big").decode("big5"))
        except UnicodeDecodeError:
            continue  # the bytes between Big5's two trail-byte ranges
    return found


def translated_text() -> str:
    """Every Chinese file of data/, read as text (comments too: cheap and harmless)."""
    return "".join(p.read_text(encoding="utf-8") for p in sorted(DATA.rglob("*.zh-TW.yaml")))


def translated_cjk() -> set[str]:
    """The CJK characters the translations use: each must be in the shipped face."""
    return {ch for ch in translated_text() if is_cjk(ch)}


def wanted() -> set[str]:
    every = "".join(p.read_text(encoding="utf-8") for p in sorted(DATA.rglob("*.yaml")))
    chars = (set(every) | set(FIXED) | set(PRINTABLE_ASCII) | set(LATIN_AND_SIGNS)
             | set(COMMON) | big5_common())
    return {ch for ch in chars if ch.isprintable() or ch == "\u3000"}


def find_source(bold: bool, folders: Iterable[str]) -> Path:
    for folder in folders:
        for name in SOURCE_NAMES[bold]:
            path = Path(folder) / name
            if path.is_file():
                return path
    raise SystemExit(f"no {' or '.join(SOURCE_NAMES[bold])} in {', '.join(folders)}: "
                     "apt-get install fonts-noto-cjk, or pass --source DIR")


def open_face(path: Path) -> TTFont:
    """The Traditional Chinese face of a collection (or the file's only face)."""
    if path.suffix.lower() != ".ttc":
        return TTFont(path, recalcTimestamp=False)
    for face in TTCollection(path, lazy=False).fonts:
        if face["name"].getDebugName(1) == FAMILY:
            face.recalcTimestamp = False
            return face
    raise SystemExit(f"{path} has no face named {FAMILY}")


def cut(face: TTFont, chars: set[str]) -> tuple[TTFont, set[str]]:
    """The face kept to `chars` (those it has); returns it and the ones it lacks."""
    have = face.getBestCmap()
    missing = {ch for ch in chars if ord(ch) not in have}
    options = subset.Options()
    options.layout_features = []  # Pillow's BASIC layout reads no GSUB or GPOS
    options.drop_tables += ["GSUB", "GPOS", "vhea", "vmtx", "VORG", "DSIG"]
    options.name_IDs = ["*"]  # keep the copyright and licence names
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True  # small sizes read better hinted: the boards draw 9 px as shown
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in chars - missing))
    subsetter.subset(face)
    return face, missing


def licence_text() -> str | None:
    """The OFL as Debian ships it beside the font, unindented (None if not there)."""
    if not DEBIAN_COPYRIGHT.is_file():
        return None
    text = DEBIAN_COPYRIGHT.read_text(encoding="utf-8")
    start = text.find("License: SIL-1.1\n", text.find("License: SIL-1.1") + 1)
    if start < 0:
        return None
    lines = []
    for line in text[start:].splitlines()[1:]:
        if not line.startswith(" "):
            break
        lines.append("" if line.strip() == "." else line[1:])
    return "\n".join(lines).strip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", default=[],
                        help="a folder holding Noto Sans CJK (first match wins)")
    parser.add_argument("--out", type=Path, default=FONT_DIR)
    args = parser.parse_args(argv)
    folders = [*args.source, *SOURCE_DIRS]
    chars = wanted()
    args.out.mkdir(parents=True, exist_ok=True)
    for bold, name in FONT_FILES.items():
        source = find_source(bold, folders)
        face, missing = cut(open_face(source), chars)
        lost = sorted(ch for ch in missing if is_cjk(ch))
        if lost:
            print(f"{source.name} lacks {len(lost)} CJK characters: {''.join(lost)}",
                  file=sys.stderr)
        target = args.out / name
        face.save(target)
        kept = len(face.getBestCmap())
        print(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
              f"{kept} characters, {target.stat().st_size:,} bytes")
    licence = licence_text()
    if licence is not None:
        header = ("Noto Sans CJK TC (renderers/fonts/*-subset.otf, cut down by "
                  "tools/subset_cjk_font.py)\nCopyright 2014-2021 Adobe "
                  "(http://www.adobe.com/), with Reserved Font Name 'Source'.\n\n")
        (args.out / LICENCE_FILE).write_text(header + licence, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
