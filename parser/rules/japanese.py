"""The facilities a Japanese notice lists under the Small Unmanned Aircraft Act (小型無人機等飛行禁止法): each its own
zone, with the distance around it the notice states.

Prefectural police and operators publish the same form: the act's ban (``小型無人機等の飛行が禁止されています``), the
area (``対象施設及びその周囲おおむね300メートルの地域の上空``), then the designated facilities one to a line, often in
a table beside the police station to notify (``海上自衛隊佐世保地方総監部  佐世保警察署``). A facility is a line's first cell that ends in a word for a kind of facility
(``駐屯地``, ``航空基地``, ``施設``, ``港区``, ``空港``, ``発電所``); a category of the act (``対象防衛関係施設``, ``国の重要な施設等``)
or a sentence is none. The period is the designation's (``指定から指定解除まで``): no times. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.rules.zone import Message, Zone, sp

# the act, or its ban on small unmanned aircraft, written in the notice
_ACT = re.compile(r"小型無人機等飛行禁止法|小型無人機等の飛行(?:が|を)?(?:原則として)?禁止|小型無人機等の飛行の禁止")
# the distance around each facility: "周囲おおむね300メートル", "周辺おおむね300m", "周囲約300メートル"
_AROUND = re.compile(r"周[囲辺](?:地域)?(?:の)?\s*(?:おおむね|概ね|約)\s*(?P<d>\d+(?:\.\d+)?\s*(?:メートル|キロメートル|ｍ|m|km))")
# a kind of facility, as a designated facility's name ends
_KIND = (r"(?:駐屯地|分屯地|屯営|基地|総監部|施設|港区|飛行場|空港|演習場|射撃場|訓練場|司令部|補給処|"
         r"弾薬庫|通信所|分遣隊|官邸|公邸|庁舎|議事堂|発電所|事業所|研究所|御所|皇居|大使館|領事館|公館|会場|競技場"
         r"|スタジアム|事務所|本部)")
# one line's first cell: a name of Japanese characters and digits, before two blanks, a tab or the line end
_LINE = re.compile(rf"^[ \t\u3000・•]*(?P<name>[\u3040-\u30ff\u3400-\u9fff々〇ー0-9０-９]{{2,40}}?{_KIND})"
                   rf"(?=[ \t\u3000]{{2,}}|\t|[ \t\u3000]*$)", re.M)
# the act's categories, never one facility: "対象防衛関係施設", "自衛隊施設", "在日米軍施設", "外国公館", "原子力事業所"
_CATEGORY = re.compile(r"^(?:対象|国の|重要|防衛関係|自衛隊施設$|在日米軍施設$|外国公館|原子力事業所$|政党事務所$|中央官庁|危機管理)")


def jp_facilities(m: Message) -> list[Zone]:
    """Each facility a notice under the act lists, with the distance around it; ``[]`` when the text is no such
    notice or lists none."""
    text = m.text
    if _ACT.search(text, m.lo, m.hi) is None:
        return []
    around = _AROUND.search(text, m.lo, m.hi)
    zones: list[Zone] = []
    seen: set[str] = set()
    for r in _LINE.finditer(text, m.lo, m.hi):
        name = r.group("name")
        if _CATEGORY.search(name) or name in seen:
            continue
        seen.add(name)
        f = {"name": sp(text, *r.span("name"))}
        if around is not None:
            f["radius"] = sp(text, *around.span("d"))
        zones.append(Zone(f, r.start("name"), r.end("name"), "named"))
    return zones[:40]
