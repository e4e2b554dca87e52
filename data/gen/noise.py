"""Realistic noise applied part by part (so answer values stay verbatim): collapsed newlines, doubled spaces,
trailing blanks, traditional Chinese characters, HTML entities in prose."""

from __future__ import annotations

import random
import re

from .base import Doc

# Simplified -> traditional for the characters our Chinese templates use (mirrors re-render pages this way).
_S2T = str.maketrans({
    "关": "關", "于": "于", "间": "間", "对": "對", "无": "無", "机": "機", "实": "實", "临": "臨", "时": "時",
    "管": "管", "控": "控", "通": "通", "告": "告", "区": "區", "域": "域", "范": "範", "围": "圍", "内": "內",
    "北": "北", "纬": "緯", "东": "東", "经": "經", "南": "南", "西": "西", "禁": "禁", "飞": "飛", "航": "航",
    "空": "空", "器": "器", "动": "動", "为": "為", "心": "心", "径": "徑", "里": "里", "米": "米", "高": "高",
    "真": "真", "场": "場", "馆": "館", "体": "體", "育": "育", "会": "會", "展": "展", "览": "覽", "园": "園",
    "湾": "灣", "门": "門", "桥": "橋", "广": "廣", "举": "舉", "办": "辦", "从": "從",
    "执": "執", "行": "行", "违": "違", "规": "規", "处": "處", "罚": "罰", "条": "條", "例": "例",     "开": "開", "闭": "閉", "幕": "幕", "赛": "賽", "务": "務", "应": "應", "该": "該", "员": "員", "个": "個",
    "单": "單", "位": "位", "线": "線", "连": "連", "点": "點", "层": "層", "圆": "圓", "形": "形", "边": "邊",
    "确": "確", "保": "保", "安": "安", "全": "全", "须": "須", "严": "嚴", "格": "格", "发": "發", "现": "現",
    "将": "將", "依": "依", "法": "法", "责": "責", "任": "任", "报": "報", "电": "電", "话": "話", "联": "聯",
    "系": "系", "设": "設", "置": "置", "组": "組", "织": "織", "级": "級", "类": "類", "载": "載", "气": "氣",
    "球": "球", "伞": "傘", "滑": "滑", "翔": "翔", "农": "農", "药": "藥", "喷": "噴", "洒": "灑", "贸": "貿",
    "际": "際", "国": "國", "华": "華", "龙": "龍", "岗": "崗", "宝": "寶", "龟": "龜", "庆": "慶", "环": "環",
    "状": "狀", "态": "態", "请": "請", "协": "協", "调": "調",     "马": "馬", "驾": "駕", "驶": "駛", "轻": "輕", "热": "熱", "项": "項", "备": "備", "后": "後", "构": "構",
    "拨": "撥", "济": "濟", "扰": "擾", "决": "決", "阳": "陽", "鱼": "魚", "兰": "蘭", "乐": "樂", "运": "運",
    "奥": "奧", "网": "網", "汉": "漢", "苏": "蘇", "宁": "寧", "厦": "廈", "鹭": "鷺", "长": "長", "贺": "賀",
    "郑": "鄭", "岛": "島", "悦": "悅", "来": "來", "兴": "興", "凤": "鳳", "纪": "紀", "议": "議", "尔": "爾",
    "滨": "濱", "团": "團", "峡": "峽", "达": "達", "图": "圖", "节": "節", "灯": "燈", "烟": "煙", "车": "車",
    "职": "職", "业": "業", "篮": "籃", "预": "預", "选": "選", "届": "屆", "游": "遊", "种": "種", "们": "們",
    "这": "這", "进": "進", "护": "護", "险": "險", "证": "證", "获": "獲", "审": "審", "讯": "訊", "刑": "刑",
    "罪": "罪", "损": "損", "失": "失", "担": "擔", "检": "檢", "查": "查", "觉": "覺", "遵": "遵",
    "守": "守", "谢": "謝", "绕": "繞", "钟": "鐘", "紧": "緊", "急": "急", "复": "復", "收": "收",     "让": "讓", "避": "避", "统": "統", "众": "眾", "营": "營", "厅": "廳", "轮": "輪",
    "观": "觀", "赏": "賞", "礼": "禮", "闻": "聞", "帮": "幫", "两": "兩", "亚": "亞", "洲": "洲",
})


def to_traditional(s: str) -> str:
    return s.translate(_S2T)


def collapse_newlines(doc: Doc, rng: random.Random) -> Doc:
    """Newlines collapsed the way collectors store messages: each line break becomes two spaces (or one)."""
    rep = rng.choice(("  ", "  ", " "))
    return doc.map(lambda s: re.sub(r"[ \t]*\r?\n", rep, s) if rep == " " else s.replace("\r\n", rep).replace("\n", rep))


def trailing_blanks(doc: Doc, rng: random.Random) -> Doc:
    return doc.map_untagged(lambda s: s.replace("\n", " \n") if rng.random() < 0.5 else s)


def wrap_lines(doc: Doc, rng: random.Random, width: int) -> Doc:
    """Break long lines at blanks of untagged text (and between polygon points), the way NOTAM E items wrap."""
    out = []
    col = 0
    for p in doc.parts:
        # untagged text, or a separator between polygon points (never inside a value or a coordinate)
        breakable = not p.targets or (all(f == "polygon" for _, f in p.targets) and not any(c.isdigit() for c in p.text))
        chars = list(p.text)
        for i, ch in enumerate(chars):
            if ch == "\n":
                col = 0
                continue
            col += 1
            if ch == " " and breakable and col > width:
                chars[i] = "\n"
                col = 0
        out.append(type(p)("".join(chars), p.targets))
    return Doc(out)


FOOTERS_EN = ("\nEND PART 1 OF 1", "\n-- forwarded by ops desk --", "\nSent from my phone", "\n[auto-generated]",
              "\nPAGE 1/1")


def apply(doc: Doc, rng: random.Random, lang: str, family: str) -> tuple[Doc, list[str]]:
    """Apply a random subset of noise; returns the new doc and the names of the noise applied."""
    applied = []
    if lang == "zh":
        if rng.random() < 0.12:
            doc = doc.map(to_traditional)
            applied.append("traditional")
        if rng.random() < 0.1:
            doc = collapse_newlines(doc, rng)
            applied.append("collapsed")
        return doc, applied
    if family == "icao" and rng.random() < 0.35:
        doc = wrap_lines(doc, rng, rng.choice((60, 68, 72, 80)))
        applied.append("wrapped")
    if family in ("icao", "freetext", "tfr") and rng.random() < 0.05:
        doc = Doc(doc.parts + [type(doc.parts[0])(rng.choice(FOOTERS_EN), ())])
        applied.append("footer")
    p_collapse = {"icao": 0.3, "faa": 0.0, "tfr": 0.1, "freetext": 0.1, "composite": 0.15}.get(family, 0.1)
    if rng.random() < p_collapse:
        doc = collapse_newlines(doc, rng)
        applied.append("collapsed")
    elif rng.random() < 0.1:
        doc = trailing_blanks(doc, rng)
        applied.append("trailing_blanks")
    return doc, applied
