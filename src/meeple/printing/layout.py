"""Page geometry and drawing for print and play: what a printed item is (:class:`CardFace`,
:class:`TileFace`, :class:`PrintSpec`), where it goes on a page (:func:`card_slots`,
:func:`tile_slots`) and how it is drawn with reportlab (:func:`write_pdf`).

Cards are poker size (63 x 88 mm), nine to a page (3 x 3, butted so one cut serves two cards),
with crop marks in the margin at every cut line. Tiles are squares, four to a page. All
coordinates are PDF points with the origin at the bottom-left of the page, as reportlab has them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

#: Paper name -> (width, height) in points.
PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3
CARDS_PER_PAGE = COLS * ROWS
TILES_PER_PAGE = 4
TILE_GAP = 10 * mm
#: Length of a crop mark and its gap from the card grid.
CROP, CROP_GAP = 5 * mm, 1.5 * mm
INK = HexColor("#222222")
GREY = HexColor("#888888")
FONT, BOLD = "Helvetica", "Helvetica-Bold"


@dataclass(frozen=True)
class Rect:
    """A rectangle on a page in points: ``x``, ``y`` its bottom-left corner."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class CardFace:
    """One printed card: what a player needs at the table.

    ``group`` is what the cover counts it under (``"Codex: Generate"``); ``colour`` a hex
    colour (``"#c0392b"``) always named in words too by ``colour_name``; ``corner`` the big
    mark at the top right (a rank, a type letter); ``slots`` an optional row of boxes drawn
    above the text, each ``(label, hex colour)`` (``("", "")`` for an empty box: Damocles'
    seven positions)."""

    group: str
    title: str
    colour: str
    colour_name: str
    subtitle: str = ""
    corner: str = ""
    text: str = ""
    points: str = ""
    ident: str = ""
    slots: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TileFace:
    """One printed tile (Ozymandias campaign sector): its points ``id -> (kind, x, y)`` in a
    unit square (y down, as the web board lays them out), its lines and its ports
    ``letter -> point id``."""

    title: str
    colour: str
    colour_name: str
    points: dict[str, tuple[str, float, float]]
    lines: tuple[tuple[str, str], ...]
    ports: dict[str, str]
    note: str = ""


@dataclass
class PrintSpec:
    """Everything a game prints: the cover's facts, the cards, the tiles and a reference page
    (``reference``: rows of ``(name, value, meaning)``, printed when non-empty)."""

    game: str
    title: str
    variant: str
    players: int
    params: list[tuple[str, str, bool]]  # (name, value as typed, differs from its default)
    cards: list[CardFace] = field(default_factory=list)
    tiles: list[TileFace] = field(default_factory=list)
    reference_title: str = ""
    reference: list[tuple[str, str, str]] = field(default_factory=list)
    reference_notes: list[str] = field(default_factory=list)
    tile_legend: dict[str, str] = field(default_factory=dict)  # point kind -> hex colour
    tile_legend_words: dict[str, str] = field(default_factory=dict)  # point kind -> its look


@dataclass(frozen=True)
class Page:
    """One page of the document: ``kind`` is ``cover``, ``cards``, ``tiles`` or
    ``reference``; ``filled`` how many of its slots hold an item (0 for cover/reference)."""

    kind: str
    filled: int = 0


def paper_size(paper: str) -> tuple[float, float]:
    """The (width, height) in points of ``paper`` (``a4`` or ``letter``).

    Raises: KeyError for another paper name (the caller checks names first)."""
    return PAPERS[paper]


def card_slots(paper: str) -> list[Rect]:
    """The nine card slots of a card page, in reading order (top-left first)."""
    width, height = paper_size(paper)
    x0, y0 = (width - COLS * CARD_W) / 2, (height - ROWS * CARD_H) / 2
    return [Rect(x0 + c * CARD_W, y0 + (ROWS - 1 - r) * CARD_H, CARD_W, CARD_H)
            for r in range(ROWS) for c in range(COLS)]


def tile_slots(paper: str) -> list[Rect]:
    """The four square tile slots of a tile page, in reading order (top-left first)."""
    width, height = paper_size(paper)
    side = min((width - 24 * mm - TILE_GAP) / 2, (height - 50 * mm - TILE_GAP) / 2)
    x0 = (width - 2 * side - TILE_GAP) / 2
    y0 = (height - 2 * side - TILE_GAP) / 2 - 6 * mm
    return [Rect(x0 + c * (side + TILE_GAP), y0 + (1 - r) * (side + TILE_GAP), side, side)
            for r in range(2) for c in range(2)]


def _colour(hex_colour: str) -> Color:
    return HexColor(hex_colour)


def _text_on(colour: Color) -> Color:
    """Black or white, whichever reads better on ``colour``."""
    luminance = 0.299 * colour.red + 0.587 * colour.green + 0.114 * colour.blue
    return INK if luminance > 0.6 else HexColor("#ffffff")


def _fit(text: str, font: str, size: float, width: float) -> float:
    """The largest font size not above ``size`` (down to 5) at which ``text`` fits ``width``."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while size > 5 and stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _crop_marks(c: Canvas, slots: list[Rect]) -> None:
    """Short lines in the margin continuing every cut line of the slot grid."""
    xs = sorted({round(s.x, 3) for s in slots} | {round(s.x + s.w, 3) for s in slots})
    ys = sorted({round(s.y, 3) for s in slots} | {round(s.y + s.h, 3) for s in slots})
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    c.setStrokeColor(INK)
    c.setLineWidth(0.3)
    for x in xs:
        c.line(x, top + CROP_GAP, x, top + CROP_GAP + CROP)
        c.line(x, bottom - CROP_GAP, x, bottom - CROP_GAP - CROP)
    for y in ys:
        c.line(left - CROP_GAP - CROP, y, left - CROP_GAP, y)
        c.line(right + CROP_GAP, y, right + CROP_GAP + CROP, y)


def _draw_card(c: Canvas, r: Rect, card: CardFace, footer: str) -> None:
    pad = 4 * mm
    colour = _colour(card.colour)
    # the card's outline (the cut is the crop marks; this shows the card on the sheet)
    c.setStrokeColor(GREY)
    c.setLineWidth(0.4)
    c.roundRect(r.x + 1.5 * mm, r.y + 1.5 * mm, r.w - 3 * mm, r.h - 3 * mm, 3 * mm)
    # header band in the card's colour, with the title and the corner mark
    band_h = 12 * mm
    band_y = r.y + r.h - pad - band_h
    c.setFillColor(colour)
    c.setStrokeColor(INK)
    c.setLineWidth(0.5)
    c.roundRect(r.x + pad, band_y, r.w - 2 * pad, band_h, 2 * mm, stroke=1, fill=1)
    text_colour = _text_on(colour)
    c.setFillColor(text_colour)
    corner_w = 0.0
    if card.corner:
        size = _fit(card.corner, BOLD, 18, 16 * mm)
        c.setFont(BOLD, size)
        c.drawRightString(r.x + r.w - pad - 2 * mm, band_y + band_h / 2 - size * 0.35,
                          card.corner)
        from reportlab.pdfbase.pdfmetrics import stringWidth

        corner_w = stringWidth(card.corner, BOLD, size) + 3 * mm
    title_w = r.w - 2 * pad - 4 * mm - corner_w
    lines = simpleSplit(card.title, BOLD, 10, title_w)
    if len(lines) <= 2:
        size = 10 if len(lines) == 1 else 8.5
        lines = simpleSplit(card.title, BOLD, size, title_w)[:2]
    else:
        size = 7.5
        lines = simpleSplit(card.title, BOLD, size, title_w)[:3]
    c.setFont(BOLD, size)
    lead = size * 1.1
    top = band_y + band_h / 2 + (len(lines) - 1) * lead / 2 - size * 0.35
    for i, line in enumerate(lines):
        c.drawString(r.x + pad + 2 * mm, top - i * lead, line)
    # colour in words and the type line
    y = band_y - 4.5 * mm
    c.setFillColor(INK)
    sub = card.subtitle
    for line in simpleSplit(sub, FONT, 7.5, r.w - 2 * pad)[:3]:
        c.setFont(FONT, 7.5)
        c.drawString(r.x + pad, y, line)
        y -= 9
    c.setFont(BOLD, 7.5)
    c.drawString(r.x + pad, y, f"Colour: {card.colour_name}")
    y -= 6 * mm
    # a row of boxes (Damocles' seven positions)
    if card.slots:
        n = len(card.slots)
        box = min(7.5 * mm, (r.w - 2 * pad) / n)
        x0 = r.x + (r.w - n * box) / 2
        y_box = y - box
        c.setFont(FONT, 6)
        c.setFillColor(GREY)
        for i in range(n):
            c.drawCentredString(x0 + (i + 0.5) * box, y + 1.2 * mm, str(i + 1))
        for i, (label, fill) in enumerate(card.slots):
            bx = x0 + i * box
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            if label:
                fc = _colour(fill)
                c.setFillColor(fc)
                c.rect(bx, y_box, box, box, stroke=1, fill=1)
                c.setFillColor(_text_on(fc))
                c.setFont(BOLD, 11)
                c.drawCentredString(bx + box / 2, y_box + box / 2 - 4, label)
            else:
                c.rect(bx, y_box, box, box, stroke=1, fill=0)
        y = y_box - 5 * mm
    # the text
    c.setFillColor(INK)
    size = 10.0
    width = r.w - 2 * pad
    bottom_limit = r.y + pad + 9 * mm
    while True:
        body = [ln for para in card.text.split("\n") for ln in simpleSplit(para, FONT, size,
                                                                             width) or [""]]
        if y - len(body) * size * 1.2 >= bottom_limit or size <= 5.5:
            break
        size -= 0.5
    c.setFont(FONT, size)
    for line in body:
        if y < bottom_limit:
            break
        c.drawString(r.x + pad, y, line)
        y -= size * 1.2
    # points, id and the game at the foot
    foot = r.y + pad + 1 * mm
    if card.points:
        c.setFont(BOLD, 11)
        c.drawString(r.x + pad, foot, card.points)
    c.setFont(FONT, 6)
    c.setFillColor(GREY)
    if card.ident:
        c.drawRightString(r.x + r.w - pad, foot + 6, card.ident)
    c.drawRightString(r.x + r.w - pad, foot - 1, footer)


def _draw_tile(c: Canvas, r: Rect, tile: TileFace, legend: dict[str, str]) -> None:
    pad = 5 * mm
    c.setStrokeColor(INK)
    c.setLineWidth(1)
    c.setFillColor(_colour(tile.colour))
    c.setFillAlpha(0.15)
    c.rect(r.x + 1 * mm, r.y + 1 * mm, r.w - 2 * mm, r.h - 2 * mm, stroke=1, fill=1)
    c.setFillAlpha(1)
    c.setFillColor(INK)
    c.setFont(BOLD, 12)
    c.drawString(r.x + pad, r.y + r.h - pad - 8, tile.title)
    c.setFont(FONT, 8)
    c.drawString(r.x + pad, r.y + r.h - pad - 19, f"Colour: {tile.colour_name}"
                 + (f" - {tile.note}" if tile.note else ""))
    inner = Rect(r.x + 15 * mm, r.y + 15 * mm, r.w - 30 * mm, r.h - 42 * mm)

    def at(point: str) -> tuple[float, float]:
        _, px, py = tile.points[point]
        return inner.x + px * inner.w, inner.y + (1 - py) * inner.h

    c.setLineWidth(1.5)
    c.setStrokeColor(GREY)
    for a, b in tile.lines:
        (ax, ay), (bx, by) = at(a), at(b)
        c.line(ax, ay, bx, by)
    # ports: a dashed line from the point to a lettered circle just inside the nearest edge
    # (left, right or bottom; the title is at the top), spread so no two labels overlap
    inset, gap = 5 * mm, 8 * mm
    by_edge: dict[str, list[list]] = {"left": [], "right": [], "bottom": []}
    for letter, point in sorted(tile.ports.items()):
        px, py = at(point)
        dists = {"left": px - r.x, "right": r.x + r.w - px, "bottom": py - r.y}
        edge = min(dists, key=lambda e: dists[e])
        along = px if edge == "bottom" else py
        by_edge[edge].append([along, letter, px, py])
    c.setLineWidth(1)
    for edge, items in by_edge.items():
        items.sort()
        low, high = ((r.x + inset, r.x + r.w - inset) if edge == "bottom"
                     else (r.y + inset, r.y + r.h - 26 * mm))
        for i, item in enumerate(items):  # push apart forwards, then back from the end
            item[0] = max(item[0], low if i == 0 else items[i - 1][0] + gap)
        for i in range(len(items) - 1, -1, -1):
            items[i][0] = min(items[i][0], high if i == len(items) - 1 else items[i + 1][0] - gap)
        for along, letter, px, py in items:
            if edge == "bottom":
                ex, ey = along, r.y + inset
            else:
                ex, ey = (r.x + inset if edge == "left" else r.x + r.w - inset), along
            c.setStrokeColor(INK)
            c.setDash(3, 2)
            c.line(px, py, ex, ey)
            c.setDash()
            c.setFillColor(HexColor("#ffffff"))
            c.circle(ex, ey, 3.2 * mm, stroke=1, fill=1)
            c.setFillColor(INK)
            c.setFont(BOLD, 9)
            c.drawCentredString(ex, ey - 3, letter)
    for point, (kind, _, _) in tile.points.items():
        px, py = at(point)
        fill = _colour(legend.get(kind, "#dddddd"))
        c.setFillColor(fill)
        c.setStrokeColor(INK)
        radius = 4.5 * mm if kind == "COLONY" else 3.2 * mm
        c.circle(px, py, radius, stroke=1, fill=1)
        c.setFillColor(_text_on(fill))
        c.setFont(BOLD, 7)
        c.drawCentredString(px, py - 2.5, point)


def _draw_cover(c: Canvas, spec: PrintSpec, paper: str, pages: list[Page], date: str,
                footer: str) -> None:
    from collections import Counter

    width, height = paper_size(paper)
    x = 20 * mm
    y = height - 30 * mm
    c.setFillColor(INK)
    c.setFont(BOLD, 22)
    c.drawString(x, y, spec.title)
    y -= 10 * mm
    c.setFont(FONT, 11)
    n_card_pages = sum(1 for p in pages if p.kind == "cards")
    facts = [f"game: {spec.game}", f"variant: {spec.variant}", f"players: {spec.players}",
             f"printed: {date}", f"{len(spec.cards)} cards on {n_card_pages} card pages"
             + (f", {len(spec.tiles)} tiles" if spec.tiles else "")
             + f", {len(pages)} pages in all"]
    for fact in facts:
        c.drawString(x, y, fact)
        y -= 6 * mm
    y -= 4 * mm
    c.setFont(BOLD, 12)
    c.drawString(x, y, "Counts per card type")
    y -= 6 * mm
    c.setFont(FONT, 9)
    counts = Counter(card.group for card in spec.cards)
    for group, n in counts.items():
        c.drawString(x + 4 * mm, y, f"{n:>4}  {group}")
        y -= 4.2 * mm
    if spec.tiles:
        c.drawString(x + 4 * mm, y, f"{len(spec.tiles):>4}  Tile")
        y -= 4.2 * mm
    y -= 5 * mm
    c.setFont(BOLD, 12)
    c.drawString(x, y, "Parameters (* differs from the default)")
    y -= 6 * mm
    size = 8.5 if len(spec.params) <= 30 else 7
    c.setFont(FONT, size)
    half = math.ceil(len(spec.params) / 2)
    col_w = (width - 2 * x) / 2
    for i, (name, value, changed) in enumerate(spec.params):
        col, row = divmod(i, half)
        text = f"{'*' if changed else ' '} {name} = {value}"
        text = simpleSplit(text, FONT, size, col_w - 4 * mm)[0]
        c.drawString(x + 4 * mm + col * col_w, y - row * size * 1.35, text)
    c.setFont(FONT, 8)
    c.setFillColor(GREY)
    c.drawString(x, 15 * mm, "Cut along the crop marks. " + footer)


def _draw_reference(c: Canvas, spec: PrintSpec, paper: str) -> None:
    width, height = paper_size(paper)
    x = 20 * mm
    y = height - 30 * mm
    c.setFillColor(INK)
    c.setFont(BOLD, 18)
    c.drawString(x, y, spec.reference_title or "Reference")
    y -= 12 * mm
    for name, value, meaning in spec.reference:
        c.setFont(BOLD, 11)
        c.drawString(x, y, f"{name} = {value}")
        y -= 5 * mm
        c.setFont(FONT, 8.5)
        for line in simpleSplit(meaning, FONT, 8.5, width - 2 * x - 6 * mm):
            c.drawString(x + 6 * mm, y, line)
            y -= 4 * mm
        y -= 3 * mm
    for note in spec.reference_notes:
        c.setFont(FONT, 10)
        for line in simpleSplit(note, FONT, 10, width - 2 * x):
            c.drawString(x, y, line)
            y -= 5 * mm
        y -= 2 * mm


def plan_pages(spec: PrintSpec) -> list[Page]:
    """The document's pages: the cover, the card pages (nine cards each, the last partly
    filled), the tile pages (four tiles each) and the reference page when there is one."""
    pages = [Page("cover")]
    for start in range(0, len(spec.cards), CARDS_PER_PAGE):
        pages.append(Page("cards", min(CARDS_PER_PAGE, len(spec.cards) - start)))
    for start in range(0, len(spec.tiles), TILES_PER_PAGE):
        pages.append(Page("tiles", min(TILES_PER_PAGE, len(spec.tiles) - start)))
    if spec.reference or spec.reference_notes:
        pages.append(Page("reference"))
    return pages


def write_pdf(spec: PrintSpec, out: Path, paper: str, date: str) -> list[Page]:
    """Draw ``spec`` on ``paper`` into the PDF file ``out``; return its pages.

    Raises: OSError when ``out`` cannot be written."""
    from meeple import __version__

    pages = plan_pages(spec)
    c = Canvas(str(out), pagesize=paper_size(paper), invariant=True)
    c.setTitle(f"{spec.title} ({spec.variant}, {spec.players} players): print and play")
    c.setCreator(f"meeple {__version__}")
    footer = f"{spec.game} {spec.variant} - meeple print {date}"
    _, height = paper_size(paper)
    cards = iter(spec.cards)
    tiles = iter(spec.tiles)
    for number, page in enumerate(pages, start=1):
        if page.kind == "cover":
            _draw_cover(c, spec, paper, pages, date, footer)
        elif page.kind == "cards":
            slots = card_slots(paper)
            for slot in slots[:page.filled]:
                _draw_card(c, slot, next(cards), spec.title)
            _crop_marks(c, slots)
        elif page.kind == "tiles":
            slots = tile_slots(paper)
            c.setFont(BOLD, 12)
            c.setFillColor(INK)
            c.drawString(slots[0].x, slots[0].y + slots[0].h + 10 * mm,
                         f"{spec.title}: tiles")
            c.setFont(FONT, 8)
            c.drawString(slots[0].x, slots[0].y + slots[0].h + 5 * mm,
                         "Points: " + ", ".join(f"{k.lower()} {v}" for k, v in
                                                spec.tile_legend_words.items())
                         + "; ports are the lettered circles at the edge.")
            for slot in slots[:page.filled]:
                _draw_tile(c, slot, next(tiles), spec.tile_legend)
        else:
            _draw_reference(c, spec, paper)
        c.setFont(FONT, 7)
        c.setFillColor(GREY)
        c.drawString(4 * mm, height - 5 * mm, f"{number}/{len(pages)}")  # clear of crop marks
        c.showPage()
    c.save()
    return pages
