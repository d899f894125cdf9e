"""Print and play (issue 21, first item): ``meeple print`` lays out each game's content on PDF
pages. The pages are checked as pictures: every page is rendered to PNG with pypdfium2 and
each card (or tile) slot is looked at: ink in every slot that should hold an item, none in the
unused slots of the last page, so there is one item per expected slot."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.engine.registry import load_game
from meeple.printing import card_slots, print_game, tile_slots

pdfium = pytest.importorskip("pypdfium2")
Image = pytest.importorskip("PIL.Image")

DPI = 50
runner = CliRunner()

#: game -> (cards, tiles, reference pages) at its default spec.
DEFAULTS = {
    "battle-of-the-four-gods": (4, 0, 1),
    "damocles": (80, 0, 0),
    "ozymandias-market": (40, 0, 0),
    "ozymandias-campaign": (54, 9, 0),
    "epoch-ellipse": (205, 0, 0),
    "hanabi": (50, 0, 0),
}


def _expected_cards(game) -> int:
    """The card count from the game spec itself (not from the printing package)."""
    if game.name == "battle-of-the-four-gods":
        return game.players
    if game.name == "damocles":
        return len(game.deck)
    if game.name.startswith("ozymandias"):
        return len(game.cards)
    if game.name == "hanabi":
        return len(game.card_names)
    data = game.content  # epoch-ellipse: shared decks, a starting deck per player, locations
    return (sum(len(deck) for deck in data.decks.values())
            + game.players * len(data.starter) + len(data.locations))


def _render(path: Path, out: Path) -> list[np.ndarray]:
    """Every page of the PDF as a grey-level array, through a PNG file per page."""
    pages = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(pdf)):
            png = out / f"page-{i + 1}.png"
            pdf[i].render(scale=DPI / 72).to_pil().save(png)
            pages.append(np.asarray(Image.open(png).convert("L")))
    finally:
        pdf.close()
    return pages


def _ink(page: np.ndarray, rect, inset: int = 3) -> float:
    """The share of non-background pixels inside ``rect`` (PDF points, origin bottom-left)."""
    scale = DPI / 72
    height = page.shape[0]
    x0, x1 = int(rect.x * scale) + inset, int((rect.x + rect.w) * scale) - inset
    top = int(height - (rect.y + rect.h) * scale) + inset
    bottom = int(height - rect.y * scale) - inset
    region = page[top:bottom, x0:x1]
    return float((region < 200).mean())


def _check_pages(pdf: Path, tmp_path: Path, cards: int, tiles: int, references: int,
                 paper: str = "a4") -> None:
    pages = _render(pdf, tmp_path)
    card_pages, tile_pages = math.ceil(cards / 9), math.ceil(tiles / 4)
    assert len(pages) == 1 + card_pages + tile_pages + references
    assert (pages[0] < 200).mean() > 0.005, "the cover is blank"
    layout = ([(card_slots(paper), 9, cards, pages[1:1 + card_pages])]
              + [(tile_slots(paper), 4, tiles, pages[1 + card_pages:1 + card_pages + tile_pages])])
    for slots, per_page, total, group in layout:
        for number, page in enumerate(group):
            assert (page < 200).mean() > 0.01, f"page {number} is blank"
            filled = min(per_page, total - number * per_page)
            for k, slot in enumerate(slots):
                ink = _ink(page, slot)
                if k < filled:
                    assert ink > 0.02, f"slot {k + 1} of page {number + 1} has no item"
                else:
                    assert ink == 0, f"slot {k + 1} of page {number + 1} should be empty"
    for page in pages[len(pages) - references:] if references else []:
        assert (page < 200).mean() > 0.005, "the reference page is blank"


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_every_game_prints_one_item_per_expected_slot(name: str, tmp_path: Path) -> None:
    game = load_game(name)
    cards, tiles, references = DEFAULTS[name]
    assert _expected_cards(game) == cards
    result = print_game(game, tmp_path / "deck.pdf", date="2026-01-01")
    assert (result.cards, result.tiles) == (cards, tiles)
    assert [p.kind for p in result.pages].count("reference") == references
    _check_pages(result.path, tmp_path, cards, tiles, references)


def test_a_small_custom_deck_prints_exactly_that_deck_on_letter(tmp_path: Path) -> None:
    data = json.loads((Path(meeple.__file__).parent / "games" / "damocles" / "data"
                       / "codices.json").read_text())
    data["codices"] = [c for c in data["codices"] if c["type"] in ("GENERATE", "ONE")][:20]
    deck = tmp_path / "small.json"
    deck.write_text(json.dumps(data))
    out = tmp_path / "small.pdf"
    result = runner.invoke(app, ["print", "damocles", "--players", "2", "--param",
                                 f"deck={deck}", "--paper", "letter", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "20 cards on 4 pages (letter)" in result.output
    _check_pages(out, tmp_path, 20, 0, 0, paper="letter")


def test_a_variant_and_players_change_the_count() -> None:
    # Epoch Ellipse's hard deck at five players: the decks of that difficulty and five
    # starting decks; Four Gods at two players prints two gods; a Damocles variant its deck.
    hard = load_game("epoch-ellipse", players=5, difficulty="hard")
    from meeple.printing import print_spec

    assert len(print_spec(hard).cards) == _expected_cards(hard) != DEFAULTS["epoch-ellipse"][0]
    assert len(print_spec(load_game("battle-of-the-four-gods", players=2)).cards) == 2
    # Damocles' destruction variant adds its seven codices (Lyse 3, Sacrifice 2, Eviscerate 2).
    codices = print_spec(load_game("damocles", variant="destruction")).cards
    assert len(codices) == 87
    assert sum(card.group == "Codex: Eviscerate" for card in codices) == 2


def test_the_same_spec_prints_the_same_bytes(tmp_path: Path) -> None:
    game = load_game("ozymandias-market")
    a = print_game(game, tmp_path / "a.pdf", date="2026-01-01").path.read_bytes()
    b = print_game(game, tmp_path / "b.pdf", date="2026-01-01").path.read_bytes()
    assert a == b


@pytest.mark.parametrize("args, needle", [
    (["print", "no-such-game", "--out", "x.pdf"], "no game called"),
    (["print", "damocles", "--paper", "a3", "--out", "x.pdf"], "paper 'a3'"),
    (["print", "damocles", "--param", "deck=/no/such/deck.json", "--out", "x.pdf"], "deck"),
])
def test_bad_input_is_a_clean_error(args: list[str], needle: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and needle in result.output, result.output
    assert not (tmp_path / "x.pdf").exists()


def test_printing_sees_games_only_through_the_registry() -> None:
    # An interface-level package: it imports no game module, and only the CLI imports it.
    root = Path(meeple.__file__).parent
    for path in (root / "printing").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("meeple.games", "meeple.cli")), path
    for path in root.rglob("*.py"):
        if "printing" in path.parts or "cli" in path.parts:
            continue
        assert "meeple.printing" not in path.read_text(), path
