"""Tests of meeple.lab.pages.report: the HTML page, the PNG plots and the terminal table."""

from __future__ import annotations

import base64
import html
import io
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.table import Table

from meeple.lab.analysis.stats import summarize
from meeple.lab.pages.report import PLOT_FILES, summary_table, write_report
from meeple.lab.pages.report_extra import DIAGNOSTIC_PLOTS

SEATS = ["RED", "BLUE", "GREEN", "ORANGE"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def make_results(n: int = 80, players: int = 4, draw_every: int = 0) -> list[dict[str, Any]]:
    """Heuristic (rotating seat) wins every other game, the seat after it the rest; every
    ``draw_every``-th game is a draw between seats 0 and 1 instead."""
    results = []
    mix = ["heuristic"] + ["random"] * (players - 1)
    for i in range(n):
        k = i % players
        bots = mix[k:] + mix[:k]
        h = bots.index("heuristic")
        if draw_every and i % draw_every == 0:
            winners = [0, 1]
        else:
            winners = [h] if i % 2 == 0 else [(h + 1) % players]
        share = 1.0 / len(winners)
        results.append({
            "index": i, "seed": i, "bots": bots, "winners": winners,
            "returns": [share if s in winners else 0.0 for s in range(players)],
            "scores": [float((s * 3 + i) % 11 - 2) for s in range(players)],
            "length": 5 + i % 13, "truncated": i % 10 == 0, "seconds": 0.002,
        })
    return results


def make_summary(results: list[dict[str, Any]], players: int = 4, game: str = "four-gods",
                 bots: list[str] | None = None) -> dict[str, Any]:
    return summarize(results, game=game, variant="no-talk", players=players, params={"x": 1},
                     seed=1234, bots=bots or ["heuristic", "random"],
                     seat_names=SEATS[:players], length_unit="rounds", elapsed_seconds=0.5,
                     jobs=2)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path, str]:
    results = make_results(draw_every=7)
    summary = make_summary(results)
    out_dir = tmp_path_factory.mktemp("lab") / "nested" / "report"
    path = write_report(summary, results, out_dir)
    return summary, path, path.read_text(encoding="utf-8")


def test_report_and_plots_exist_as_valid_pngs(
        written: tuple[dict[str, Any], Path, str]) -> None:
    _, path, _ = written
    assert path.name == "report.html" and path.is_file()
    assert PLOT_FILES == ("seat_win_rate.png", "bot_win_rate.png", "length.png", "scores.png")
    for name in PLOT_FILES:
        data = (path.parent / name).read_bytes()
        assert data[:8] == PNG_MAGIC, name
        width, height = png_size(data)
        assert width >= 400 and height >= 250, name


def test_html_is_self_contained_with_the_plots_inline(
        written: tuple[dict[str, Any], Path, str]) -> None:
    _, path, text = written
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    names = [*PLOT_FILES, *(n for n in DIAGNOSTIC_PLOTS if (path.parent / n).exists())]
    assert len(embedded) == len(names) > 4  # the four plots and the diagnostics' ones
    files = {(path.parent / name).read_bytes() for name in names}
    assert {base64.b64decode(b) for b in embedded} == files
    assert not re.search(r'src="(?!data:)', text)  # no external images
    assert "<link" not in text and "<script" not in text


def test_html_states_the_run_and_the_key_numbers(
        written: tuple[dict[str, Any], Path, str]) -> None:
    summary, _, text = written
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    assert title is not None
    for part in ("four-gods", "no-talk", "4 players", "80 games", "seed 1234",
                 "heuristic, random"):
        assert part in title.group(1), part
    for seat in summary["seat_win_rate"]:
        assert seat["name"] in text
        assert f"{100 * seat['rate']:.1f}%" in text
        assert f"{100 * seat['ci_low']:.1f}–{100 * seat['ci_high']:.1f}%" in text
    heuristic = summary["bot_win_rate"]["heuristic"]
    assert f"{100 * heuristic['rate']:.1f}%" in text
    assert f"{100 * summary['draw_rate']:.1f}%" in text
    assert html.escape(summary["skill_vs_luck"]["verdict"]) in text
    assert "skill matters" in summary["skill_vs_luck"]["verdict"]


def test_html_escapes_names(tmp_path: Path) -> None:
    results = make_results(8)
    path = write_report(make_summary(results, game="<b>gods</b>"), results, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert "&lt;b&gt;gods&lt;/b&gt;" in text
    assert "<b>gods</b>" not in text


@pytest.mark.parametrize("case", ["all draws, one bot", "single seat"])
def test_edge_cases_still_write_a_report(tmp_path: Path, case: str) -> None:
    if case == "single seat":
        results = make_results(6, players=1)
        summary = make_summary(results, players=1, bots=["heuristic"])
    else:
        results = make_results(12, draw_every=1)
        for r in results:
            r["bots"] = ["random"] * 4
        summary = make_summary(results, bots=["random"])
    path = write_report(summary, results, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert html.escape(summary["skill_vs_luck"]["verdict"]) in text
    assert html.escape(summary["seat_balance"]["note"]) in text
    for name in PLOT_FILES:
        assert (tmp_path / name).read_bytes()[:8] == PNG_MAGIC


def render(table: Table) -> str:
    console = Console(file=io.StringIO(), width=220, color_system=None)
    console.print(table)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_summary_table_lists_seats_bots_and_run_numbers() -> None:
    summary = make_summary(make_results(draw_every=7))
    table = summary_table(summary)
    assert isinstance(table, Table)
    # seats, bots, balance/draw/truncated/length/score spread, speed
    assert table.row_count == 4 + 2 + 5 + 1
    out = render(table)
    assert "final score" in out and "spread: sd" in out
    for seat in summary["seat_win_rate"]:
        assert f"seat {seat['name']} win rate" in out
        assert f"{100 * seat['rate']:.1f}%" in out
    heuristic = summary["bot_win_rate"]["heuristic"]
    assert "bot heuristic win rate" in out and "bot random win rate" in out
    assert f"{100 * heuristic['ci_low']:.1f}–{100 * heuristic['ci_high']:.1f}%" in out
    assert f"edge {100 * heuristic['edge']:+.1f} pts" in out
    assert f"{100 * summary['draw_rate']:.1f}%" in out
    assert f"{100 * summary['truncated_rate']:.1f}%" in out
    assert f"median {summary['length']['median']:g}" in out
    assert "160.0 games/s" in out  # 80 games in 0.5 s
    assert summary["skill_vs_luck"]["verdict"] in out


# ------------------------------------------------------------ reading a real report's words
def _page_text(page: str) -> str:
    """The words of an HTML page as a reader sees them (no style, tags or inline images)."""
    page = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"</?(td|th|tr|p|h\d|table|figcaption|div|li|caption|title)\b[^>]*>", " | ",
                  page)  # cells and blocks are separate phrases
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def repeated_words(text: str) -> list[str]:
    """Adjacent repeated words ("final final energy"), case-insensitive."""
    return [m.group(0) for m in re.finditer(r"\b([A-Za-z]{2,})\s+\1\b", text, flags=re.I)]


def test_repeated_words_finder_finds_them() -> None:
    assert repeated_words("x: final final energy; the The end") == ["final final", "the The"]
    assert repeated_words("winning margin 3, margin of error") == []


def test_a_real_four_gods_report_reads_right(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """40 random games of Four Gods (score "final energy", eliminations; under the old margin,
    seed 0 has a sole winner below a seat knocked out earlier): no repeated words in the page
    or in any plot's titles, axis labels, ticks and legends; no negative winning margin."""
    from typer.testing import CliRunner

    import meeple.lab.pages.report_extra as extra_mod
    import meeple.lab.pages.report_plots as plots_mod
    from meeple.cli import app

    labels: list[str] = []
    for mod in (plots_mod, extra_mod):
        original = mod.png

        def spy(fig: Any, _original: Any = original) -> bytes:
            for ax in fig.axes:
                labels.extend([ax.get_title(), ax.get_xlabel(), ax.get_ylabel()])
                labels.extend(t.get_text() for t in ax.get_yticklabels() + ax.get_xticklabels())
                legend = ax.get_legend()
                if legend is not None:
                    labels.extend(t.get_text() for t in legend.get_texts())
            return _original(fig)

        monkeypatch.setattr(mod, "png", spy)
    out = tmp_path / "fg"
    result = CliRunner().invoke(app, ["playtest", "battle-of-the-four-gods", "--games", "40",
                                      "--jobs", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = _page_text((out / "report.html").read_text(encoding="utf-8"))
    assert "final energy" in text and "Eliminations" in text
    assert any("final energy" in label for label in labels)
    assert repeated_words(text) == []
    assert repeated_words(" | ".join(labels)) == []
    assert repeated_words(result.output) == []
    import json

    summary = json.loads((out / "summary.json").read_text())
    assert summary["score"]["margin_mean"] >= 0
    assert summary["diagnostics"]["margin"]["min"] >= 0
    assert not re.search(r"winning margin[^.|]*?-\d", text)
    assert "spread: sd" in result.output and "sd (spread)" in text
