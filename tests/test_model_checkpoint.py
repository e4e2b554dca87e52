"""Checkpoint round trip and tokenizer behaviour."""

from __future__ import annotations

import json

import pytest
import torch
from model_fixtures import small_model, tiny_checkpoint

from airspace.core.answer import format_answer, parse_answer
from airspace.model.build import build_model
from airspace.model.checkpoint import load_checkpoint, save_checkpoint
from airspace.model.config import ModelConfig
from airspace.model.pointers import (
    N_SLOTS,
    SLOTS,
    encode_example,
    encode_message,
    repair_block,
    repair_slots,
    slots_to_answer,
)
from airspace.model.tokenizer import Tokenizer

torch.set_num_threads(1)


def test_checkpoint_round_trip_is_bit_exact(tmp_path):
    model, tok = small_model(["北纬22°38′ 东经113°49′ 真高120米 大连梭鱼湾"])
    cfg = model.cfg
    save_checkpoint(tmp_path / "ck", model, tok, recipe={"seed": 0}, metrics={"val_exact": 0.0})
    assert not list((tmp_path / "ck").glob("*.pt")) and not list((tmp_path / "ck").glob("*.bin"))
    loaded, tok2 = load_checkpoint(tmp_path / "ck")
    assert loaded.cfg == cfg and tok2.chars == tok.chars
    sd1, sd2 = model.state_dict(), loaded.state_dict()
    assert sd1.keys() == sd2.keys()
    for k in sd1:
        assert torch.equal(sd1[k], sd2[k]), k
    prompt = [tok.encode_prompt("PSN N480930 E0161028 RADIUS 1NM")]
    a = model.decode(prompt, max_answer_tokens=40)
    b = loaded.decode(prompt, max_answer_tokens=40)
    assert a.slots == b.slots and a.steps_per_block == b.steps_per_block
    assert json.loads((tmp_path / "ck" / "recipe.json").read_text()) == {"seed": 0}


def test_checkpoint_refuses_incomplete_directory(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(FileNotFoundError):
        load_checkpoint(tmp_path)


def test_tokenizer_copies_every_character_and_round_trips():
    tok = Tokenizer.from_texts(["北纬22°38′"])
    msg = "(A1912/15 NOTAMN\nPSN:N480930 E0161028 北纬22°38′ 东经 ✈ Ω"
    ids = tok.encode_text(msg)
    assert tok.decode(ids) == msg
    assert len(tok.encode_text("N480930")) == 7 and len(tok.encode_text("北纬")) == 2  # one token per character
    assert len(tok.encode_text("✈")) == 3  # unknown -> UTF-8 bytes
    ids, starts = tok.encode_text_offsets(msg)
    assert starts[msg.index("✈")] + 3 == starts[msg.index("✈") + 1] and starts[-1] == len(ids)


def test_pointer_slots_round_trip_answers_with_byte_fallback_and_composites():
    tok = Tokenizer()
    msg = "✈ 1. PSN N480930 E0161028 R 1NM SFC-FL050\n2. 大连梭鱼湾 R 1NM SFC-FL050"
    ans = format_answer([{"center": "N480930 E0161028", "radius": "1NM", "lower": "SFC", "upper": "FL050"},
                         {"name": "大连梭鱼湾", "radius": "1NM", "lower": "SFC", "upper": "FL050"}])
    prompt, slots = encode_example(tok, msg, ans)
    assert len(slots) == 2 * N_SLOTS and prompt[-1] == tok.sep_id
    null = len(prompt) - 1
    offs = encode_message(tok, msg)[1]
    assert slots_to_answer(slots, offs) == ans
    # the second zone's fields point at the second line, not at the first zone's identical values
    assert slots[N_SLOTS + SLOTS.index("lower.start")] > slots[SLOTS.index("upper.end")]
    assert slots[N_SLOTS - 1] == slots[N_SLOTS] and slots[-1] == null  # next = following anchor; last = NULL
    assert slots_to_answer([null] * N_SLOTS, offs) == "NONE"
    assert encode_example(tok, msg, "NONE")[1] == [null] * N_SLOTS
    reversed_ = list(slots[:N_SLOTS])
    s, e = SLOTS.index("radius.start"), SLOTS.index("radius.end")
    reversed_[s], reversed_[e] = reversed_[e], reversed_[s]
    assert "radius" not in parse_answer(slots_to_answer(reversed_, offs))[0]  # a reversed span is dropped


def test_repair_takes_the_likeliest_alternative_span_that_reads_as_its_field():
    """The held-out failure modes: a venue name running on into the next clause, a centre starting at the Q-line's
    coordinate. Each field takes its likeliest (start, end) among the model's alternatives that reads as the field;
    a field that reads is never touched, and one no alternative mends stays as written (the pipeline flags it)."""
    tok = Tokenizer()
    msg = ("Q) LFFF/QWMLW/V/M/A/000/005/4902N00227E001\nE) WI 0.7 NM AROUND 490134N 0022706E.\n"
           "烟花燃放期间，龙兴足球场上空实施临时禁飞，时间为3月13日23时至5时。")
    ans = format_answer([{"center": "490134N 0022706E", "radius": "0.7 NM", "name": "龙兴足球场"}])
    prompt, gold = encode_example(tok, msg, ans)
    offs = encode_message(tok, msg)[1]
    null = offs.null
    i = {k: SLOTS.index(k) for k in SLOTS}
    q_coord = offs.char_to_tok[msg.index("4902N")]
    run_on = offs.char_to_tok[msg.index("，时间")]
    bad = list(gold[:N_SLOTS])
    bad[i["center.start"]] = q_coord  # from the Q-line through "E) WI 0.7 NM AROUND" to the real end
    bad[i["name.end"]] = offs.char_to_tok[msg.index("，时间")] + 3
    alts = [[(c, 0.0)] for c in bad]
    alts[i["center.start"]] = [(q_coord, -0.1), (gold[i["center.start"]], -2.5), (null, -4.0)]
    alts[i["name.end"]] = [(bad[i["name.end"]], -0.2), (run_on, -1.0), (gold[i["name.end"]], -1.5)]
    alts[i["radius.start"]] = [(gold[i["radius.start"]], 0.0), (q_coord, -0.5)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 2
    assert parse_answer(slots_to_answer(fixed, offs)) == [{"center": "490134N 0022706E", "radius": "0.7 NM",
                                                          "name": "龙兴足球场上空实施临时禁飞"}]
    # "上空实施临时禁飞" still reads as a name (no clause break): the likeliest readable span wins, not the gold one
    alts[i["name.end"]] = [(bad[i["name.end"]], -0.2), (gold[i["name.end"]], -1.0), (run_on, -1.5)]
    assert parse_answer(slots_to_answer(repair_block(bad, alts, offs)[0], offs))[0]["name"] == "龙兴足球场"
    # nothing to mend with: kept as written; a NULL pair among both ends' alternatives drops the field instead
    alts[i["center.start"]] = [(q_coord, -0.1)]
    assert repair_block(bad, alts, offs)[0][i["center.start"]] == q_coord
    alts[i["center.start"]] = [(q_coord, -0.1), (null, -3.0)]
    alts[i["center.end"]] = [(gold[i["center.end"]], -0.1), (null, -2.0)]
    assert "center" not in parse_answer(slots_to_answer(repair_block(bad, alts, offs)[0], offs))[0]
    # an answer whose fields all read is returned unchanged, whole blocks at a time
    assert repair_slots(gold, [[(c, 0.0)] for c in gold], offs) == (gold, 0)


def test_a_null_start_with_a_written_end_takes_the_likeliest_whole_pair():
    """Clover writes a block's slots in parallel: A0451/26's radius came back with its start slot NULL by a close
    call (0.57 against 0.42 for the radius) and its end slot on the radius (0.96). Neither half is an answer; the
    likeliest pair that is one (here the radius, -0.90 against -3.76 for NULL at both ends) is taken. The same pair
    with NULL likelier at both ends stays absent, and a span that ends at the message's end (its end slot at the
    NULL position) is a span, untouched."""
    tok = Tokenizer()
    msg = "MILITARY ACTIVITIES WILL TAKE PLACE IN AREA 20NM RADIUS OF: 323509N 0331213E F) FL050 G) UNL"
    ans = format_answer([{"center": "323509N 0331213E", "radius": "20NM", "lower": "FL050", "upper": "UNL"}])
    _, gold = encode_example(tok, msg, ans)
    offs = encode_message(tok, msg)[1]
    null = offs.null
    i = {k: SLOTS.index(k) for k in SLOTS}
    rs, re_ = gold[i["radius.start"]], gold[i["radius.end"]]
    bad = list(gold)
    bad[i["radius.start"]] = null
    alts = [[(c, 0.0)] for c in bad]
    alts[i["radius.start"]] = [(null, -0.57), (rs, -0.86)]
    alts[i["radius.end"]] = [(re_, -0.04), (null, -3.19)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 1 and fixed == gold
    assert parse_answer(slots_to_answer(fixed, offs))[0]["radius"] == "20NM"
    alts[i["radius.start"]] = [(null, -0.05), (rs, -4.0)]
    alts[i["radius.end"]] = [(re_, -0.6), (null, -0.8)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 0 and fixed[i["radius.start"]] == fixed[i["radius.end"]] == null
    assert "radius" not in parse_answer(slots_to_answer(fixed, offs))[0]
    assert gold[i["upper.end"]] == null  # "UNL" ends the message: its end slot is the NULL position
    assert repair_block(gold, [[(c, 0.0)] for c in gold], offs) == (gold, 0)


def test_repair_keeps_the_q_line_limits_of_a_notice_without_f_and_g():
    """A0105/26 (Damascus FIR closed, no F)/G)): the model points upper at the Q-line's ``999`` with p = 0.98; read
    out of place ``999`` is no limit, and the repair used to replace it with NULL (its likeliest pair that read). Read
    where it stands it is the ceiling, unlimited, and stays; a Q-line limit field under the other key still moves."""
    tok = Tokenizer()
    msg = ("A0105/26 NOTAMR A0104/26 Q) OSTT/QAFXX/IV/NBO/E/000/999/3502N03858E999 A) OSTT B) 2603201830 "
           "C) 2603222100 EST E) DAMASCUS FIR CLOSED EXCEPT FOR FLIGHT ARR/DEP ALEPPO AERODROME")
    lo = msg.index("/000/") + 1
    ans = format_answer([{"name": "OSTT", "lower": "000", "upper": "999", "start": "2603201830",
                          "end": "2603222100"}])
    _, gold = encode_example(tok, msg, ans)
    offs = encode_message(tok, msg)[1]
    null = offs.null
    i = {k: SLOTS.index(k) for k in SLOTS}
    assert offs.span(gold[i["upper.start"]], gold[i["upper.end"]]).start == lo + 4  # the Q-line's own 999
    alts = [[(c, 0.0)] for c in gold]
    alts[i["upper.start"]] = [(gold[i["upper.start"]], -0.02), (null, -4.5)]
    alts[i["upper.end"]] = [(gold[i["upper.end"]], -0.01), (null, -6.2)]
    fixed, changed = repair_block(gold, alts, offs)
    assert changed == 0 and fixed == gold
    assert parse_answer(slots_to_answer(fixed, offs))[0]["upper"] == "999"
    swapped = list(gold)  # the floor written on the Q-line's ceiling field: that does not read as a floor
    swapped[i["lower.start"]], swapped[i["lower.end"]] = gold[i["upper.start"]], gold[i["upper.end"]]
    alts[i["lower.start"]] = [(swapped[i["lower.start"]], -0.1), (gold[i["lower.start"]], -2.5)]
    alts[i["lower.end"]] = [(swapped[i["lower.end"]], -0.1), (gold[i["lower.end"]], -2.5)]
    assert repair_block(swapped, alts, offs)[0] == gold


def test_repair_moves_the_cheaper_of_lower_and_upper_when_both_point_at_one_span():
    """``AND BLW 3000FT AGL``: one span copied as both floor and ceiling; the side whose other reading the model
    found likelier moves (here the floor, to NULL: the message states none)."""
    tok = Tokenizer()
    msg = "STADIUM. FLIGHT RESTRICTIONS WI 3NM RADIUS OF 4211N08812W AND BLW 2000FT AGL EFFECTIVE 2307020500-2307021100"
    ans = format_answer([{"center": "4211N08812W", "radius": "3NM", "upper": "2000FT AGL", "start": "2307020500",
                          "end": "2307021100"}])
    _, gold = encode_example(tok, msg, ans)
    offs = encode_message(tok, msg)[1]
    i = {k: SLOTS.index(k) for k in SLOTS}
    bad = list(gold)
    bad[i["lower.start"]], bad[i["lower.end"]] = gold[i["upper.start"]], gold[i["upper.end"]]
    alts = [[(c, 0.0)] for c in bad]
    alts[i["lower.start"]] = [(bad[i["lower.start"]], -0.4), (offs.null, -1.2)]
    alts[i["lower.end"]] = [(bad[i["lower.end"]], -0.1), (offs.null, -2.0)]
    alts[i["upper.start"]] = [(gold[i["upper.start"]], -0.01), (gold[i["start.start"]], -6.0)]
    alts[i["upper.end"]] = [(gold[i["upper.end"]], -0.01), (gold[i["start.end"]], -6.0)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 1 and fixed == gold
    assert parse_answer(slots_to_answer(fixed, offs)) == parse_answer(ans)


def test_two_ends_that_vote_for_two_readable_spans_take_the_one_beside_the_zones_other_fields():
    """A held-out notice gives its centre twice: the Q-line's reference point and item E's. Clover's centre start
    came back on the Q-line's (-0.03) and its end on item E's (-0.32); neither pair alone is the span written, and the
    likeliest pair that reads was the Q-line's (-1.33 against -3.87), a minute-rounded point. The span beside the
    zone's radius and limits is taken. Two zones of a Chinese notice, the second one's radius start on the first
    zone's radius: its own radius, beside its centre and ceiling, is taken. A start and end on one span are kept."""
    tok = Tokenizer()
    msg = ("Q) DNKK/QWALW/I/BO/W/000/015/0627N00321E003  A) DNMM B) 2306152015 C) 2306152215  E) AIR DISPLAY AT EPE "
           "WI A CIRCLE OF 2NM RADIUS AROUND 06 27 00 N 3 21 23 E. (7.1NM NW DNMM)  F) SFC   G) 1500 FT AMSL")
    ans = format_answer([{"center": "06 27 00 N 3 21 23 E", "radius": "2NM", "lower": "SFC", "upper": "1500 FT AMSL",
                          "start": "2306152015", "end": "2306152215"}])
    _, gold = encode_example(tok, msg, ans)
    offs = encode_message(tok, msg)[1]
    i = {k: SLOTS.index(k) for k in SLOTS}
    q_start, q_end = offs.char_to_tok[msg.index("0627N")], offs.char_to_tok[msg.index("003  A)")]
    bad = list(gold)
    bad[i["center.start"]] = q_start
    alts = [[(c, 0.0)] for c in bad]
    alts[i["center.start"]] = [(q_start, -0.03), (gold[i["center.start"]], -3.55)]
    alts[i["center.end"]] = [(gold[i["center.end"]], -0.32), (q_end, -1.30)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 1 and fixed == gold
    assert parse_answer(slots_to_answer(fixed, offs))[0]["center"] == "06 27 00 N 3 21 23 E"
    # without the zone's other fields to stand beside, the likelier pair is taken as before
    lone = list(bad)
    for f in ("radius", "lower", "upper"):
        lone[i[f + ".start"]] = lone[i[f + ".end"]] = offs.null
    assert parse_answer(slots_to_answer(repair_block(lone, alts, offs)[0], offs))[0]["center"] == "0627N00321E"

    msg = ("深圳空管分局关于设立临时禁飞区的通告 管控时间：2023年11月15日12时至2023年11月15日24时（北京时间）。 管控区域： "
           "（1）以北纬22°33′17″ 东经113°56′26″为中心、半径1公里，真高1000米以下； （2）以北纬22°25′01″，东经113°54′34″"
           "为中心、半径3450米，真高300米以下。 请各单位严格遵守。")
    zones = [{"center": "北纬22°33′17″ 东经113°56′26″", "radius": "1公里", "upper": "真高1000米"},
             {"center": "北纬22°25′01″，东经113°54′34″", "radius": "3450米", "upper": "真高300米"}]
    _, gold = encode_example(tok, msg, format_answer(zones))
    offs = encode_message(tok, msg)[1]
    second = list(gold[N_SLOTS:2 * N_SLOTS])
    first_radius = gold[i["radius.start"]], gold[i["radius.end"]]
    bad = list(second)
    bad[i["radius.start"]] = first_radius[0]
    alts = [[(c, 0.0)] for c in bad]
    alts[i["radius.start"]] = [(first_radius[0], -0.04), (second[i["radius.start"]], -3.27)]
    alts[i["radius.end"]] = [(second[i["radius.end"]], -0.65), (first_radius[1], -0.74)]
    fixed, changed = repair_block(bad, alts, offs)
    assert changed == 1 and fixed == second
    assert repair_block(second, alts, offs) == (second, 0)


def test_tokenizer_file_round_trip(tmp_path):
    tok = Tokenizer.from_texts(["空域 限制 ±"])
    tok.save(tmp_path / "t.json")
    t2 = Tokenizer.load(tmp_path / "t.json")
    assert t2.chars == tok.chars and t2.vocab_size == tok.vocab_size


def test_byte_dropout_writes_known_characters_as_bytes_and_answers_still_round_trip():
    import random

    from airspace.model.training import byte_dropout

    tok = Tokenizer.from_texts(["关于设立临时禁飞区的通告 以北纬22°33′为中心、半径1公里"])
    msg = "关于设立临时禁飞区的通告\n以北纬22°33′ 东经113°56′为中心、半径1公里"
    ans = format_answer([{"center": "北纬22°33′ 东经113°56′", "radius": "1公里"}])
    plain, _ = encode_example(tok, msg, ans)
    drop = byte_dropout(msg, 0.5, random.Random(0))
    assert drop and all(ord(msg[i]) > 127 for i in drop)
    prompt, slots = encode_example(tok, msg, ans, drop)
    assert len(prompt) == len(plain) + sum(len(msg[i].encode()) - 1 for i in drop)  # 1 token -> its UTF-8 bytes
    assert tok.decode(prompt) == msg
    assert slots_to_answer(slots, encode_message(tok, msg, drop)[1]) == ans
    assert byte_dropout(msg, 0.0, random.Random(0)) == frozenset()


# ---------------------------------------------------------------------------------------------------------------
# hostile checkpoint directories: every refusal is a clear ValueError/FileNotFoundError, before anything is built
# ---------------------------------------------------------------------------------------------------------------


def _edit_config(ck, **changes):
    cfg = json.loads((ck / "config.json").read_text())
    cfg.update(changes)
    (ck / "config.json").write_text(json.dumps(cfg))


def test_expected_shapes_match_the_built_models_of_the_shipped_configs():
    from airspace.model.checkpoint import expected_shapes
    from airspace.model.engine import DEFAULT_CHECKPOINTS

    for ck in DEFAULT_CHECKPOINTS.values():
        cfg = ModelConfig.load(ck / "config.json")
        with torch.device("meta"):
            full = {k: tuple(v.shape) for k, v in build_model(cfg).state_dict().items()}
        assert expected_shapes(cfg) == full


def test_checkpoint_refuses_a_symlink_out_of_its_directory(tmp_path):
    ck = tiny_checkpoint(tmp_path / "ck")
    outside = tmp_path / "elsewhere.json"
    outside.write_text((ck / "tokenizer.json").read_text())
    (ck / "tokenizer.json").unlink()
    (ck / "tokenizer.json").symlink_to(outside)
    with pytest.raises(ValueError, match="symbolic link .* outside the checkpoint directory"):
        load_checkpoint(ck)
    # a link that stays inside the directory is fine
    (ck / "tokenizer.json").unlink()
    (ck / "tok-real.json").write_text(outside.read_text())
    (ck / "tokenizer.json").symlink_to(ck / "tok-real.json")
    load_checkpoint(ck)


@pytest.mark.parametrize("changes, message", [
    ({"layer_pattern": "G" * 1_000}, "layer_pattern must be a string of 1 to"),  # "layers 1e5" ran 28 s
    ({"d_model": 1_000_000}, "d_model = 1000000 is not an integer"),  # asked for 1.5 GB
    ({"n_experts": 1e5}, "n_experts = 100000.0 is not an integer"),
    ({"d_model": 32}, "config.json does not describe model.safetensors"),  # in bounds, but not these weights
    ({"layer_pattern": "GAG"}, "1 tensors missing|tensors missing"),
])
def test_checkpoint_config_is_bounded_and_checked_against_the_weights_before_building(tmp_path, changes, message):
    import time

    ck = tiny_checkpoint(tmp_path / "ck")
    _edit_config(ck, **changes)
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=message):
        load_checkpoint(ck)
    assert time.perf_counter() - t0 < 20  # (a refusal, not a build: well under a second on an idle machine)


def test_checkpoint_refuses_an_oversized_config_without_reading_it(tmp_path):
    from airspace.model.checkpoint import MAX_CONFIG_BYTES

    ck = tiny_checkpoint(tmp_path / "ck")
    with open(ck / "config.json", "r+b") as fh:
        fh.truncate(500 * 1024 * 1024)  # a 500 MB (sparse) config.json
    with pytest.raises(ValueError, match=f"over {MAX_CONFIG_BYTES:,} bytes"):
        load_checkpoint(ck)


def test_checkpoint_refuses_pickles_truncation_absurd_headers_and_files_without_tensors(tmp_path):
    import struct

    from safetensors.torch import save_file

    ck = tiny_checkpoint(tmp_path / "ck")
    good = (ck / "model.safetensors").read_bytes()
    st = ck / "model.safetensors"
    # a pickle under the safetensors name (torch.save): never unpickled
    sd = build_model(ModelConfig.load(ck / "config.json")).state_dict()
    torch.save(sd, st)
    with pytest.raises(ValueError, match="not a safetensors file"):
        load_checkpoint(ck)
    # truncated: the header promises more bytes than the file has
    st.write_bytes(good[: len(good) - 100])
    with pytest.raises(ValueError, match="truncated"):
        load_checkpoint(ck)
    # an absurd header length
    st.write_bytes(struct.pack("<Q", 2**62) + good[8:])
    with pytest.raises(ValueError, match="not a safetensors file"):
        load_checkpoint(ck)
    # a header entry whose offsets do not match its shape
    n = struct.unpack("<Q", good[:8])[0]
    header = json.loads(good[8 : 8 + n])
    name = next(k for k in header if k != "__metadata__")
    header[name]["shape"] = [10**6, 10**6]
    raw = json.dumps(header).encode()
    st.write_bytes(struct.pack("<Q", len(raw)) + raw + good[8 + n :])
    with pytest.raises(ValueError, match="inconsistent header entry"):
        load_checkpoint(ck)
    # a valid safetensors file without tensors: said so (it used to be a blank error)
    save_file({}, str(st))
    with pytest.raises(ValueError, match="holds no tensors"):
        load_checkpoint(ck)
    st.write_bytes(good)
    load_checkpoint(ck)


def test_loading_the_shipped_checkpoint_does_not_import_torchs_compiler():
    # the shape check once built its template on the meta device, which imports torch._dynamo: ~1.1 s of every
    # process's first load (the CLI, the dashboard's engine, each Ray actor)
    import subprocess
    import sys

    code = ("import sys; from airspace.model.engine import load_extractor; load_extractor('clover'); "
            "print('torch._dynamo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip().splitlines()[-1] == "False"
