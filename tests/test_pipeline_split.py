"""Batch splitting and header parsing on real messages (dev.jsonl) pasted the ways operators paste them."""

import json

import pytest

from airspace.parser.header import parse_header
from airspace.pipeline.split import (
    MAX_BATCH_BYTES,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES,
    BatchTooLarge,
    read_jsonl,
    split_batch,
)


def _norm(t: str) -> str:
    return t.replace("\r\n", "\n").strip()


def test_blank_line_separated_dev_set_round_trips(dev_rows):
    text = "\n\n".join(r["text"] for r in dev_rows)
    msgs = split_batch(text)
    assert [m.text for m in msgs] == [_norm(r["text"]) for r in dev_rows]
    assert [m.index for m in msgs] == list(range(len(dev_rows)))
    assert all(m.error is None for m in msgs)


def test_blank_line_inside_a_notam_does_not_split_it(dev_by_id):
    text = dev_by_id["joey-A2400-21"]["text"]  # has an empty line before "F) SFC G) 5700M AMSL"
    assert "\n\nF)" in text
    msgs = split_batch(text + "\n\n" + dev_by_id["pynotam-readme-A1912-15"]["text"])
    assert len(msgs) == 2
    assert msgs[0].text.endswith("G) 5700M AMSL")


def test_collapsed_notams_back_to_back_on_one_line(dev_rows):
    collapsed = [r for r in dev_rows if "collapsed" in r.get("note", "")]
    assert len(collapsed) >= 5
    msgs = split_batch("  ".join(r["text"] for r in collapsed))
    assert [m.text for m in msgs] == [r["text"].strip() for r in collapsed]


def test_wrapped_and_faa_lines_without_blank_lines(dev_by_id):
    icao = [dev_by_id[k]["text"] for k in ("pynotam-readme-A1912-15", "pynotam-526438")]
    faa = [dev_by_id[k]["text"] for k in ("squawk-BOS-01-502-UAS", "squawk-BOS-03-244-OBST", "squawk-ATL-03-437-OBST")]
    msgs = split_batch("\n".join(icao + faa))
    assert [m.text for m in msgs] == icao + faa


def test_chinese_notice_with_many_paragraphs_stays_one_message(dev_by_id):
    cn = dev_by_id["cn-dalian-2024-09-10"]["text"]
    assert cn.count("\n\n") >= 4
    msgs = split_batch(dev_by_id["pynotam-readme-A1912-15"]["text"] + "\n\n" + cn)
    assert len(msgs) == 2 and msgs[1].text == cn.strip()


def test_headerless_q_line_messages_split_at_their_q_lines(dev_by_id):
    t = dev_by_id["avwx-PHNL-undefined-qcode"]["text"]
    msgs = split_batch(t + "\n" + t)
    assert len(msgs) == 2


def test_no_text_is_dropped_from_prose():
    text = "first paragraph\nstill first\n\n\n  second one  \n\nthird"
    msgs = split_batch(text)
    assert [m.text for m in msgs] == ["first paragraph\nstill first", "second one", "third"]


def test_limits_are_per_message_errors():
    long_msg = "A1234/25 NOTAMN\nE) " + "X" * MAX_MESSAGE_CHARS
    msgs = split_batch(long_msg + "\n\nB0001/25 NOTAMN\nE) SHORT")
    assert msgs[0].error and "over the limit" in msgs[0].error
    assert msgs[1].error is None
    with pytest.raises(BatchTooLarge, match="over the limit"):
        split_batch("x" * (MAX_BATCH_BYTES + 1))
    many = split_batch("\n\n".join(f"m{i}" for i in range(MAX_MESSAGES + 3)))
    assert len(many) == MAX_MESSAGES + 3
    assert many[MAX_MESSAGES - 1].error is None
    assert all("more than" in m.error for m in many[MAX_MESSAGES:])


def test_binary_junk_becomes_an_error_message():
    msgs = split_batch("\x00\x01\x02\ufffd\ufffd\x7f" * 30)
    assert len(msgs) == 1 and "binary" in msgs[0].error


def test_read_jsonl_keeps_line_indices_and_reports_bad_lines(dev_rows):
    lines = [json.dumps({"id": r["id"], "text": r["text"]}) for r in dev_rows[:3]]
    text = "\n".join([lines[0], "", "{not json", lines[1], '{"no_text": 1}', lines[2]])
    msgs = read_jsonl(text)
    assert [m.index for m in msgs] == [0, 2, 3, 4, 5]
    assert msgs[0].text == dev_rows[0]["text"] and msgs[0].source_id == dev_rows[0]["id"]
    assert msgs[1].error and "not valid JSON" in msgs[1].error
    assert msgs[3].error and "'text'" in msgs[3].error
    assert msgs[4].error is None


# ------------------------------------------------------------------------------------------------ header
def test_header_ids_types_and_references(dev_by_id):
    h = parse_header(dev_by_id["joey-F1096-25"]["text"])
    assert (h.id, h.notam_type, h.ref_id) == ("F1096/25", "R", "F1076/25")
    assert parse_header(dev_by_id["pynotam-readme-A1912-15"]["text"]).id == "A1912/15"
    assert parse_header(dev_by_id["avwx-KJFK-10-102"]["text"]).id == "10/102"
    f = parse_header(dev_by_id["squawk-BOS-01-502-UAS"]["text"])
    assert (f.kind, f.id) == ("faa", "BOS 01/502")
    c = parse_header("(A0100/26 NOTAMC A0099/26\nQ) EGTT/QWMXX/IV/BO/W/000/999/5129N00017W005\nA) EGLL B) 2601010000\nE) REF NOTAM CANCELLED)")
    assert (c.notam_type, c.ref_id) == ("C", "A0099/26")


def test_q_line_tolerates_padding_empty_fields_and_undefined(dev_by_id):
    q = parse_header(dev_by_id["avwx-EGLL-H6658-23"]["text"]).qline  # 'BO /AW'
    assert (q.fir, q.code, q.traffic, q.purpose, q.scope, q.lower, q.upper) == ("EGTT", "QWMLW", "IV", "BO", "AW", "000", "005")
    assert (q.coord.text, q.radius.text, q.radius_nm) == ("5121N00036W", "001", 1.0)
    q = parse_header(dev_by_id["avwx-KMCO-05-117"]["text"]).qline  # 'KZJX//IV/M//000//...'
    assert (q.code, q.traffic, q.purpose, q.scope, q.lower, q.upper) == (None, "IV", "M", None, "000", None)
    assert q.coord.text == "2825N08118W"
    q = parse_header(dev_by_id["avwx-PHNL-undefined-qcode"]["text"]).qline
    assert (q.code, q.traffic, q.purpose, q.coord.text) == ("undefined", None, "NBO", "2119N15755W")
    q = parse_header(dev_by_id["whisper-SPIM-A0857-26"]["text"]).qline  # empty coordinate field
    assert q.coord is None and q.upper == "999"
    q = parse_header(dev_by_id["whisper-EDWW-B0111-26"]["text"]).qline  # 'M  /W ' collapsed form
    assert (q.purpose, q.scope, q.coord.text) == ("M", "W", "5213N01407E")


def test_items_on_one_line_many_lines_and_collapsed(dev_by_id):
    t = dev_by_id["pynotam-readme-A1912-15"]["text"]
    h = parse_header(t)
    assert {k: v.text for k, v in h.items.items() if k != "E"} == {
        "A": "LOVV", "B": "1509261100", "C": "1509261230", "F": "GND", "G": "FL130"}
    assert h.items["E"].text.endswith("RADIUS - 1NM")
    for it in h.items.values():
        assert t[it.span.start : it.span.end] == it.text
    t = dev_by_id["whisper-LSAS-W0990-26"]["text"]
    h = parse_header(t)
    assert h.items["G"].text == "6500FT AMSL"  # collector tail "CREATED: ..." is not part of G)
    assert h.items["D"].text == "27-30 0630-1000 1130-1530"
    h = parse_header(dev_by_id["avwx-KMCO-05-117"]["text"])  # CRLF, leading space before D)
    assert h.items["D"].text == "MON-FRI 1100-2100"


def test_aftn_preamble_stays_with_its_notam(dev_by_id):
    t = "GG EGGNYNYX\n291200 EGGNYNYX\n" + dev_by_id["pynotam-readme-A1912-15"]["text"]
    msgs = split_batch(t + "\n\n" + t)
    assert len(msgs) == 2 and all(m.text.startswith("GG EGGNYNYX") for m in msgs)
    assert parse_header(msgs[0].text).id == "A1912/15"


def test_tfr_page_sections_form_one_document_until_a_label_repeats():
    page = ("Location: WASHINGTON, DC\n\nBeginning Date and Time : July 23, 2026 at 2105 UTC\n\n"
            "Ending Date and Time : July 24, 2026 at 0300 UTC\n\nAltitude: From the surface up to and including "
            "18000 feet MSL\n\nCenter: 384500N0770200W\nRadius: 3 nautical miles")
    msgs = split_batch(page + "\n\n" + page.replace("WASHINGTON, DC", "NEW YORK, NY"))
    assert [m.text for m in msgs] == [page, page.replace("WASHINGTON, DC", "NEW YORK, NY")]


def test_remark_paragraph_after_a_blank_line_stays_in_its_notam():
    # B4029/24 (public, Joey0609/notams): a blank line before RMK, then F)/G)
    t = ("B4029/24 NOTAMN\nQ) RPHI/QRALW/IV/NBO/W /000/410/1925N12417E225\nA) RPHI B) 2409272130 C) 2409272330\n"
         "E) SPECIAL OPS WILL TAKE PLACE WI:\n210000N 1204500E -\n210000N 1274500E -\n174500N 1274500E -\n"
         "174500N 1250500E -\n210000N 1204500E\n\nRMK:\n1. TYPE OF ACFT - ASTRA SPX\n5. ALT OF DROPSONDES RELEASE: "
         "41000FT\nF) SFC G) FL410")
    msgs = split_batch(t + "\n\nunrelated note")
    assert [m.text for m in msgs] == [t, "unrelated note"]
    assert parse_header(msgs[0].text).items["G"].text == "FL410"


def test_chinese_body_line_mentioning_tonggao_is_not_a_new_title():
    notice = ("深圳市公安局关于2024年深圳马拉松期间无人机临时禁飞的通告\n\n"
              "为确保活动安全，根据《无人驾驶航空器飞行管理暂行条例》有关规定，现通告如下：\n\n"
              "一、禁飞时间：2024年12月8日5时至14时。\n\n"
              "二、禁飞区域：马拉松赛道沿线两侧1公里范围。\n\n"
              "特此通告。")
    second = "广州市公安局关于2025广州马拉松赛期间临时禁飞的通告\n\n三、管控时间:2025年12月21日0时至18时。"
    msgs = split_batch(notice + "\n\n" + second)
    assert len(msgs) == 2
    assert msgs[0].text.startswith("深圳市") and msgs[0].text.endswith("特此通告。")
    assert msgs[1].text.startswith("广州市")


def test_jsonl_lines_that_are_not_unicode_text_are_their_own_errors():
    msgs = read_jsonl('{"text":"\\ud800"}\n{"text": "fine", "id": "\\udc00x"}\n{"text":"a\\ud83d\\ude80b"}')
    assert [m.index for m in msgs] == [0, 1, 2]
    assert msgs[0].error and "surrogate" in msgs[0].error and "line 1" in msgs[0].error
    assert msgs[1].error is None and msgs[1].source_id == "\ufffdx"  # an id is only shown: repaired, kept
    assert msgs[2].error is None and msgs[2].text == "a🚀b"  # a proper pair is one character


def test_jsonl_huge_numbers_and_deep_nesting_cost_one_line_each():
    lines = ['{"text":"x","id":' + "9" * 5000 + "}", '{"text": ' + "1" * 5000 + "}", "[" * 100_000, '{"text":"y"}']
    msgs = read_jsonl("\n".join(lines))
    assert [m.index for m in msgs] == [0, 1, 2, 3]
    assert msgs[0].error is None and msgs[0].source_id == "9" * 200  # kept as its digits (cut for display)
    assert "string 'text'" in msgs[1].error and "nested too deeply" in msgs[2].error
    assert msgs[3].error is None


def test_batch_size_is_the_size_as_given_when_the_caller_measured_it():
    text = "\ufffd" * (MAX_BATCH_BYTES // 3 + 10)  # over the limit once written as UTF-8 (3 bytes each)
    with pytest.raises(BatchTooLarge):
        split_batch(text)
    assert split_batch(text, input_bytes=len(text))  # e.g. the CLI: that many undecodable bytes as given
    with pytest.raises(BatchTooLarge, match=f"over the limit of {MAX_BATCH_BYTES} bytes"):
        read_jsonl("{}", input_bytes=MAX_BATCH_BYTES + 1)


def test_merging_blocks_is_linear():
    """Label blocks (a TFR page pasted in sections) and NOTAM item blocks each re-read the whole message merged so
    far: 20,000 of them took 100 s."""
    import time

    from airspace.eval.stress import _word

    for text in ("".join(f"Label {_word(i)}: value {i}\n\n" for i in range(15_000)),
                 "(A0001/26 NOTAMN\n\n" + "A) LOVV\n\n" * 30_000):
        t0 = time.thread_time()
        msgs = split_batch(text)
        assert time.thread_time() - t0 < 5
        assert len(msgs) == 1
    # the merge rules themselves are unchanged: a repeated label starts a new document
    msgs = split_batch("Location: A\n\nAltitude: 1\n\nLocation: B\n\nAltitude: 2")
    assert [m.text for m in msgs] == ["Location: A\n\nAltitude: 1", "Location: B\n\nAltitude: 2"]
