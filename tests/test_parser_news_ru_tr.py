"""Places in Russian and Turkish prose that reports a drone ban (``parser.rules.news_ru_tr``), on train rows of the
world set cited by id beside variants of them. Test rows are never read."""

from __future__ import annotations

import pytest
from world_rows import drawn_records as _records
from world_rows import world_text as _world

from airspace.parser.rules import rules_zones

SERPUKHOV = "ru-ria:serpukhov-2023-05"
KAHRAMANMARAS = "tr-marasgunebakis:kahramanmaras-2025-06"


def test_russian_ban_put_in_a_town_as_the_sentence_declines_it():
    # "Запрет на использование беспилотных летательных аппаратов ввели в подмосковном Серпухове": the town as
    # written (prepositional case), after its adjective
    (rec,) = _records(_world(SERPUKHOV))
    assert rec.geometry.name == "Серпухове" and rec.status == "review"


@pytest.mark.parametrize(("phrase", "place"), [
    ("Запрет на полёты дронов действует в Курске", "Курске"),
    ("Запрет на запуск БПЛА ввели на территории Белгородской области", "Белгородской области"),
    # the ban and the drones in one sentence in other words ("запрещены", "ограничения"), the place after в / над
    ("Полёты дронов запрещены над Серпуховом", "Серпуховом"),
    ("В Серпухове введены ограничения на использование беспилотных летательных аппаратов", "Серпухове"),
])
def test_russian_ban_other_drones_and_places(phrase: str, place: str):
    text = _world(SERPUKHOV).replace(
        "Запрет на использование беспилотных летательных аппаратов ввели в подмосковном Серпухове", phrase)
    assert [z["name"] for z in rules_zones(text)] == [place]


def test_turkish_flight_ban_in_a_place_before_its_suffix():
    # "Kahramanmaraş’ta Geçici İHA Uçuş Yasağı Getirildi": the place before the apostrophe of its locative suffix
    (rec,) = _records(_world(KAHRAMANMARAS))
    assert rec.geometry.name == "Kahramanmaraş" and rec.status == "review"
    text = _world(KAHRAMANMARAS).replace("Kahramanmaraş’ta Geçici İHA", "Gaziantep'te insansız hava aracı")
    assert [z["name"] for z in rules_zones(text)] == ["Gaziantep"]


def test_turkish_period_marked_by_its_suffixes_in_the_places_time():
    # "17 Haziran 2025 Salı günü saat 23.59’dan başlayarak, 20 Haziran 2025 Cuma günü saat 23.59’a kadar": from
    # (-dan) until (-a kadar), the clock after the weekday and "günü saat"; Turkey's time (UTC+3) from the place the
    # text names before its suffix
    (rec,) = _records(_world(KAHRAMANMARAS))
    assert (rec.start.isoformat(), rec.end.isoformat()) == ("2025-06-17T20:59:00+00:00", "2025-06-20T20:59:00+00:00")
    assert any("Europe/Istanbul" in w for w in rec.reasons)


def test_no_ban_no_place():
    # a town in a sentence without the ban is no zone
    text = _world(SERPUKHOV).replace("Запрет на использование", "Выставка").replace("запрет на использование", "выставка")
    assert rules_zones(text) == []
    assert rules_zones(_world(KAHRAMANMARAS).replace("Uçuş Yasağı", "Festivali")) == []
    # a ban on aircraft that are not drones is none
    assert rules_zones("Ограничения на полёты самолётов в Москве.") == []
