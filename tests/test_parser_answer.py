"""The engine output format: round trips, malformed answers, grounding of repeated values."""

import pytest

from airspace.core.answer import FIELD_SEP, NO_ZONE, ZONE_SEP, AnswerFormatError, format_answer, ground, parse_answer


def test_round_trip_keeps_field_order_and_multiline_values():
    zones = [
        {"upper": "FL130", "center": "N480930 E0161028", "radius": "1NM", "lower": "GND"},
        {"polygon": "112400S1065000E - 111900S1073400E - \n120000S1070000E", "lower": "SFC", "upper": "UNL"},
    ]
    text = format_answer(zones)
    assert text.startswith("center=N480930 E0161028" + FIELD_SEP + "radius=1NM" + FIELD_SEP + "lower=GND")
    assert text.count(ZONE_SEP) == 1
    assert parse_answer(text) == zones


def test_no_zone_answer():
    assert format_answer([]) == NO_ZONE
    assert parse_answer(NO_ZONE) == []


@pytest.mark.parametrize(
    "bad",
    ["center", "centre=5130N00007W", "radius=1NM" + FIELD_SEP + "radius=2NM", "=x"],
)
def test_malformed_answers_raise(bad):
    with pytest.raises(AnswerFormatError):
        parse_answer(bad)


def test_unknown_field_and_separator_in_value_rejected():
    with pytest.raises(AnswerFormatError):
        format_answer([{"colour": "red"}])
    with pytest.raises(AnswerFormatError):
        format_answer([{"name": "a" + ZONE_SEP + "b"}])


def test_ground_assigns_successive_occurrences(dev_by_id):
    text = dev_by_id["pynotam-526438"]["text"]
    zones = [
        {"center": "N313339E0343250", "radius": "1KM", "upper": "1,600FT AMSL"},
        {"center": "N312850E0343012", "radius": "1KM", "upper": "1,500FT AMSL"},
        {"center": "N312710E0342817", "radius": "1KM", "upper": "1,500FT AMSL"},
        {"center": "N999999E9999999", "radius": "1KM", "upper": "1,500FT AMSL"},
    ]
    drafts = ground(text, zones)
    for d in drafts:
        for key, span in d.spans.items():
            assert text[span.start : span.end] == d.values[key]
    # the 2nd and 3rd "1,500FT AMSL" are different occurrences, in order
    assert drafts[1].spans["upper"].start < drafts[2].spans["upper"].start
    # an invented value gets no span (validation turns that into a review reason)
    assert "center" not in drafts[3].spans


def test_ground_keeps_the_numbers_around_a_value_whole():
    """A generated list whose second zone's radius ``4NM`` is first found inside the first zone's ``0.4NM``: the
    training target pointed into another zone's number. The whole occurrence is taken; a value found only inside a
    longer number still gets that span (the validator flags it)."""
    text = "1. 0.4NM around 080454S0345833W, SFC-400M AGL\n- 4NM around 080343S0345200W, SFC-1500FT AGL"
    zones = [{"radius": "0.4NM", "upper": "400M AGL"}, {"radius": "4NM", "upper": "1500FT AGL"}]
    first, second = ground(text, zones)
    assert second.spans["radius"].start == text.index("- 4NM") + 2
    assert first.spans["radius"].start == text.index("0.4NM")
    assert ground("半径2650米，真高1000米", [{"radius": "650米"}])[0].spans["radius"].start == 3
    assert ground("R 2650米; R 650米", [{"radius": "650米"}])[0].spans["radius"].start == 11
    assert ground("0.7NM, .7NM", [{"radius": ".7NM"}])[0].spans["radius"].start == 7


def test_a_value_shared_by_the_zones_of_a_list_stays_whole_before_it_is_cut_later():
    """Two FIRs of item A share the Q-line's lower limit ``000``: the second zone's ``000`` is that one again, not
    the ``000`` inside the later ``03000E``."""
    text = "Q) HSSX/QARLC/IV/BO/E/000/999/0700N03000E170  A) HSSX HKNA  B) 2605112300 C) PERM"
    zones = [{"lower": "000", "name": "HSSX"}, {"lower": "000", "name": "HKNA"}]
    first, second = ground(text, zones)
    assert first.spans["lower"].start == second.spans["lower"].start == text.index("/000/") + 1
    assert second.spans["name"].start == text.index("HKNA")
    # with a whole later occurrence, zone 2 still takes that one
    two = text + " F) 000"
    assert ground(two, zones)[1].spans["lower"].start == two.index("F) 000") + 3
