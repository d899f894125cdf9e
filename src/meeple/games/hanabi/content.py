"""The card file (``data/cards.json``, or the ``cards`` parameter's file): the colours, and how
many copies of each rank every colour has (docs/rules/hanabi.md, HAN-1). Validated on load."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from meeple.engine.content import ContentError, ContentManifest, problems_error, read_json

PACKAGED = Path(__file__).parent / "data" / "cards.json"


class CardsError(ContentError):
    """A card file that is missing, unreadable or breaks a rule below."""


class ColourEntry(BaseModel):
    """A colour: its one capital letter (``R``) and its name (``red``: hint texts)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    letter: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")]
    name: Annotated[str, StringConstraints(pattern=r"^[a-z]+$")]


class CardsManifest(ContentManifest):
    """1-9 colours with distinct letters and names; ``copies[r-1]``, the copies of rank
    ``r`` in each colour (1-9 ranks, each 1-5 copies)."""

    FORMAT = "meeple-hanabi-cards/1"
    colours: Annotated[tuple[ColourEntry, ...], Field(min_length=1, max_length=9)]
    copies: Annotated[tuple[Annotated[int, Field(ge=1, le=5)], ...],
                      Field(min_length=1, max_length=9)]


@cache
def load_cards(path: str = "") -> CardsManifest:
    """The card file at ``path`` ("": the packaged one), validated.

    Raises:
        CardsError: the file is missing or unreadable, not JSON, of another shape, or
            repeats a colour letter or name (the problems named).
    """
    where = Path(path) if path else PACKAGED
    data = read_json(where, "card file", CardsError)
    try:
        manifest = CardsManifest.model_validate(data)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
        raise problems_error(CardsError, f"card file {where}", problems,
                             CardsManifest.format_hint()) from None
    if len({c.letter for c in manifest.colours} | {c.name for c in manifest.colours}) \
            != 2 * len(manifest.colours):
        raise CardsError(f"invalid card file {where}: colours repeat a letter or a name")
    return manifest
