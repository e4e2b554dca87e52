"""Places in Spanish, Portuguese, French, German and Italian prose that reports a ban (``parser.rules.news_eu``), on
train rows of the world set cited by id beside synthetic variants in the other languages. Test rows are never read.
"""

from __future__ import annotations

import pytest
from world_rows import world_text as _world

from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message


def _named(text: str) -> list[tuple[str, float | None]]:
    recs, _ = process_batch([Message(0, text)], "rules")
    out = []
    for r in recs:
        g = r.geometry
        if g is not None and g.type == "named":
            assert r.status == "review"  # a named place has no coordinates: never dispatchable as read
            out.append((g.name, g.radius_m))
    return out


@pytest.mark.parametrize(("row", "want"), [
    # "restrições de voo ao redor do Aeroporto de Congonhas … A restrição atinge um raio de 5,4 km" (the one radius)
    ("flapinternational:decea-congonhas-drone-restriction", [("Aeroporto de Congonhas", 5400.0)]),
    # "dentro de un radio de espacio aéreo de 25 kilómetros de Aeroparque"
    ("defensayarmas:g20-aeroparque-25km-2018", [("Aeroparque", 25000.0)]),
    # "operar drones en las inmediaciones del Aeropuerto José Aponte de la Torre … dentro de un perímetro de cinco
    # millas náuticas" (the one radius, its count a word)
    ("presenciapr:ceiba-aeropuerto-drones-2025", [("Aeropuerto José Aponte de la Torre", 9260.0)]),
    # Indonesian: "Saat ini Istana Negara dengan radius 3 NM atau 5,5 km adalah prohibited area" (the first radius)
    ("id-tempo:istana-negara-kkop-jakarta", [("Istana Negara", 5556.0)]),
    # "la prohibición de vuelo en el territorio nacional de aviones privados … cualquier aeronave pilotada a
    # distancia": the whole national territory
    ("ve-el-carabobeno:inac-prohibicion-nacional", [("territorio nacional", None)]),
])
def test_train_rows(row, want):
    assert _named(_world(row)) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Le survol par drone est interdit dans un rayon de 5 km autour du Stade de France samedi.",
     [("Stade de France", 5000.0)]),
    ("Drohnenflüge sind im Umkreis von 3 Kilometer um den Flughafen München verboten.",
     [("Flughafen München", 3000.0)]),
    ("È vietato il volo dei droni nel raggio di 2 chilometri dallo Stadio Olimpico.", [("Stadio Olimpico", 2000.0)]),
    ("Se prohíbe volar drones a 5 kilómetros alrededor del estadio Azteca durante el partido.",
     [("Azteca", 5000.0)]),
    ("A prefeitura proibiu drones num raio de 2 km em torno do Estádio do Maracanã.",
     [("Estádio do Maracanã", 2000.0)]),
    ("La zona de exclusión aérea sobre Buenos Aires regirá durante la cumbre.", [("Buenos Aires", None)]),
    # a count written as a word, in each language
    ("Le survol par drone est interdit dans un rayon de cinq kilomètres autour du Stade de France.",
     [("Stade de France", 5000.0)]),
    ("Drohnenflüge sind im Umkreis von drei Kilometer um den Flughafen München verboten.",
     [("Flughafen München", 3000.0)]),
    ("È vietato il volo dei droni nel raggio di due chilometri dallo Stadio Olimpico.", [("Stadio Olimpico", 2000.0)]),
    ("A prefeitura proibiu drones num raio de três quilômetros em torno do Estádio do Maracanã.",
     [("Estádio do Maracanã", 3000.0)]),
    ("Drohnen sind im Umkreis von dreißig Kilometer um den Flughafen München verboten.",
     [("Flughafen München", 30000.0)]),
    # Dutch and the Nordic languages: a radius around a place, a ban over one (a capitalised "Den" is a name's)
    ("Er geldt een vliegverbod voor drones in een straal van 3 kilometer rond Ahoy Rotterdam.",
     [("Ahoy Rotterdam", 3000.0)]),
    ("Tijdens de marathon geldt een droneverbod boven Den Bosch.", [("Den Bosch", None)]),
    ("Det er innført flyforbud for droner innenfor en radius av 5 km rundt Trondheim Spektrum.",
     [("Trondheim Spektrum", 5000.0)]),
    ("Under konserten råder flygförbud över Ullevi för drönare.", [("Ullevi", None)]),
    ("Drone dilarang terbang dalam radius 5 kilometer dari Gelora Bung Karno selama acara.",
     [("Gelora Bung Karno", 5000.0)]),
])
def test_languages_and_phrases(text, want):
    assert _named(text) == want


def test_a_word_that_is_no_count_is_no_radius():
    # "de tres" reads only before a unit: "tres equipos" is no distance, and the place keeps no radius
    assert _named("Se prohíbe volar drones en un radio de tres equipos alrededor del estadio Azteca.") == []


def test_no_ban_no_place():
    # a place at a distance, and no ban: a description, not a zone
    assert _named("El estadio está en un radio de 5 km del Aeropuerto de Barajas, dijo el alcalde.") == []
    assert _named("Het stadion ligt in een straal van 5 km rond Schiphol, zei de burgemeester.") == []
    # English prose is the English reader's; a NOTAM's items are the NOTAM reader's
    assert _named("Drones are banned within a 5 km radius of Wembley Stadium.") == [("Wembley Stadium", 5000.0)]


@pytest.mark.parametrize(("text", "start", "end"), [
    # whole days in the place's own time zone (Europe/Paris, summer: UTC+2), the last to 23:59
    ("Le survol de Paris par des drones est interdit du 3 au 5 mai 2025.", "2025-05-02T22:00:00Z",
     "2025-05-05T21:59:00Z"),
    # a clock with its day (Europe/Rome, winter: UTC+1)
    ("Divieto di volo per i droni a Napoli dalle ore 20.00 del 14 febbraio 2026 alle ore 02.00 del 15 febbraio 2026.",
     "2026-02-14T19:00:00Z", "2026-02-15T01:00:00Z"),
    # Dutch, Norwegian and Swedish months and clocks ("om 08.00 uur", "kl. 08.00"), a range "entre os dias … e …"
    ("Er geldt een vliegverbod voor drones boven Amsterdam van 3 mei 2025 om 08.00 uur tot 5 mei 2025 om 18.00 uur.",
     "2025-05-03T06:00:00Z", "2025-05-05T16:00:00Z"),
    ("Det er forbudt å fly droner over Bergen fra 3. mai 2025 kl. 08.00 til 5. mai 2025 kl. 18.00.",
     "2025-05-03T06:00:00Z", "2025-05-05T16:00:00Z"),
    ("Flygförbud för drönare över Göteborg från 3 maj 2025 klockan 08.00 till 5 maj 2025 klockan 18.00.",
     "2025-05-03T06:00:00Z", "2025-05-05T16:00:00Z"),
    ("A ANAC proibiu o voo de drones sobre São Paulo entre os dias 3 e 5 de maio de 2025.",
     "2025-05-03T03:00:00Z", "2025-05-06T02:59:00Z"),
])
def test_a_named_places_period_is_its_own_local_time(text, start, end):
    recs, _ = process_batch([Message(0, text)], "rules")
    (r,) = [r for r in recs if r.geometry is not None]
    assert (r.start.strftime("%Y-%m-%dT%H:%M:%SZ"), r.end.strftime("%Y-%m-%dT%H:%M:%SZ"), r.status) == (
        start, end, "review")
    assert any("taken from the places the message names" in w for w in r.reasons)


def test_a_letter_alone_is_no_place():
    # a hemisphere letter read after "um" ("im Umkreis von 3 km um N 48° 08′ …") is no place
    assert _named("Flugverbot im Umkreis von 3 km um N 48° 08′ 011° 34′ vom 3. Mai 2025 bis 5. Mai 2025.") == []


@pytest.mark.parametrize(("text", "want"), [
    ("L'interdiction de survol des drones s'applique sur l'ensemble du territoire national.", "territoire national"),
    ("Das Flugverbot für Drohnen gilt im gesamten Bundesgebiet.", "Bundesgebiet"),
    ("Proibido o voo de drones em todo o território nacional até domingo.", "território nacional"),
])
def test_a_ban_over_the_whole_national_territory(text, want):
    assert _named(text) == [(want, None)]
