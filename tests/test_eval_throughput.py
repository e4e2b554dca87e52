"""eval.throughput: each engine's run reads the same archive rows and reports what it read; the world-year
arithmetic follows from the measured rate."""

from __future__ import annotations

import json

from airspace.eval import throughput


def test_a_run_reads_the_first_n_archive_messages_and_says_how_many_records_came_back():
    out = throughput.one("rules", 30, 1, None)
    assert out["messages"] == 30 and out["records"] >= 30 and out["msg_per_s"] > 0 and out["peak_rss_mb"] > 0


def test_the_report_extrapolates_a_year_of_world_traffic_from_the_measured_rate(tmp_path, capsys):
    out = tmp_path / "t.json"
    throughput.main(["--engines", "rules", "--n", "20", "--no-busy", "--out", str(out)])
    report = json.loads(out.read_text())
    (run,) = report["runs"]
    assert run["engine"] == "rules" and run["messages"] == 20 and not run["busy_neighbour"]
    assert "world_year" not in report  # only from Clover's rate, the product's engine
