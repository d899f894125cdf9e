"""Content a table may use instead of a game's packaged files, without a client ever naming a
path on the server (docs/server.md, "Content").

A game's file parameters (``Parameter.file``: Damocles' ``deck``, the markets' and Epoch
Ellipse's ``cards``, the campaign's ``tiles`` and ``cards``) take a path on the command line.
Over the network they take a **content id** instead: the name of a file in the server's content
folder, ``FOLDER/GAME/PARAM/ID.json``. The operator offers files by putting them there; a
client adds one by uploading it (:meth:`ContentCatalog.upload`: size-limited, validated by
loading the game with it, so by the game's own pydantic models; its errors name the item, never
a path). The table's stored parameters and its ``TableInfo`` hold the id; only
:meth:`ContentCatalog.resolve` turns ids into paths, for ``load_game``, from an index built by
listing the folder: a client's text is looked up, never joined to a path.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meeple.engine.errors import MeepleError, ParameterError
from meeple.engine.registry import game_class, game_names, load_game
from meeple.server.limits import Limits

log = logging.getLogger("meeple.server")

#: What a content id (a file's name without ``.json``) may be.
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")


class ContentRefused(Exception):
    """An upload or a content id the server refuses: ``code`` (``bad_content``,
    ``unknown_content``, ``too_many_uploads``, ``no_uploads``) and a message for the person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def file_parameters(game: str) -> tuple[str, ...]:
    """The names of ``game``'s file parameters (``Parameter.file``)."""
    return tuple(p.name for p in game_class(game).parameters if p.file)


def slug(name: str) -> str:
    """A file-name-safe form of an upload's label: ``My deck (v2).json`` -> ``My-deck-v2``."""
    stem = re.sub(r"\.json$", "", name.strip(), flags=re.IGNORECASE)
    text = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:40]
    return text or "upload"


class ContentCatalog:
    """The content files one server offers, by game and file parameter.

    Args:
        folder: the content folder (``meeple serve --content DIR``), or None: no content
            besides the packaged files, and no uploads.
        limits: ``upload_bytes`` and ``uploads`` bound what clients may add.
    """

    def __init__(self, folder: Path | None, limits: Limits) -> None:
        self.folder = folder
        self.limits = limits
        self._lock = threading.Lock()
        #: (game, param) -> {id: path}
        self.index: dict[tuple[str, str], dict[str, Path]] = {}
        self.uploads = 0
        #: Grows whenever the index changes (a cache of what is offered keys on it).
        self.index_version = 0
        self.rescan()

    def rescan(self) -> None:
        """Index the folder again (files the operator added or removed)."""
        index: dict[tuple[str, str], dict[str, Path]] = {}
        uploads = 0
        if self.folder is not None and self.folder.is_dir():
            for game in game_names():
                for param in file_parameters(game):
                    place = self.folder / game / param
                    if not place.is_dir():
                        continue
                    for path in sorted(place.glob("*.json")):
                        if ID_RE.fullmatch(path.stem) and path.is_file():
                            index.setdefault((game, param), {})[path.stem] = path.resolve()
                            uploads += path.stem.startswith("upload-")
        with self._lock:
            self.index, self.uploads = index, uploads
            self.index_version += 1

    def offered(self, game: str) -> dict[str, list[str]]:
        """Per file parameter of ``game``, the content ids offered (sorted); every file
        parameter is listed, with ``[]`` when nothing but the packaged file is offered."""
        return {param: sorted(self.index.get((game, param), {}))
                for param in file_parameters(game)}

    def resolve(self, game: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` with every file parameter's content id replaced by its file's path,
        for ``load_game`` (``""``, the packaged file, stays ``""``).

        Raises:
            ParameterError: a file parameter whose value is not an offered id (the message
                lists the offered ones; nothing on the disk is touched to find out).
        """
        out = dict(params)
        for param in file_parameters(game):
            value = out.get(param, "")
            if value in ("", None):
                continue
            path = self.index.get((game, param), {}).get(value) if isinstance(value, str) \
                else None
            if path is None:
                offered = ", ".join(self.offered(game)[param]) or "none"
                shown = repr(value)[:60]
                raise ParameterError(
                    f"{param} = {shown}: over the network a content file is named by its id "
                    f"on this server, never by a path; {param} ids offered for {game}: "
                    f"{offered} (or upload one: POST /api/content/{game}/{param})")
            out[param] = str(path)
        return out

    def upload(self, game: str, param: str, name: str, data: bytes) -> tuple[str, bool]:
        """Keep an uploaded content file for ``game``'s file parameter ``param`` once it loads.

        Args:
            name: the person's label for it (a file name); the id is its :func:`slug` and
                the first 10 hex digits of its SHA-256 (the same bytes give the same id).
            data: the file's bytes (at most ``limits.upload_bytes``; the caller read no more).
        Returns:
            ``(id, new)``: ``new`` is False when the same content was already kept.
        Raises:
            ContentRefused: ``no_uploads`` (no content folder), ``unknown_content`` (no such
                game or file parameter), ``too_many_uploads``, ``bad_content`` (not UTF-8 JSON,
                or the game refuses it: the game's own message, naming the item, with the
                upload's label where the file's path would be).
        """
        if self.folder is None or self.limits.uploads == 0:
            raise ContentRefused("no_uploads", "this server takes no uploads; ask its "
                                 "operator to offer the file")
        if game not in game_names() or param not in file_parameters(game):
            params = ", ".join(file_parameters(game)) if game in game_names() else ""
            raise ContentRefused("unknown_content", f"{game!r} has no content file "
                                 f"parameter {param!r}" + (f"; it has: {params}" if params
                                                           else ""))
        if len(data) > self.limits.upload_bytes:
            raise ContentRefused("bad_content", f"the file is larger than "
                                 f"{self.limits.upload_bytes} bytes")
        digest = hashlib.sha256(data).hexdigest()[:10]
        known = self.index.get((game, param), {})
        same = next((i for i in known if i.endswith(f"-{digest}")), None)
        if same is not None:
            return same, False
        if self.uploads >= self.limits.uploads:
            raise ContentRefused("too_many_uploads", "this server keeps no more uploads; ask "
                                 "its operator to offer the file")
        ident = f"upload-{slug(name)}-{digest}"
        label = f"{slug(name)}.json"
        place = self.folder / game / param
        place.mkdir(parents=True, exist_ok=True)
        incoming = place / f".incoming-{secrets.token_hex(8)}.json"
        try:
            with open(incoming, "xb") as handle:
                handle.write(data)
            cls = game_class(game)
            try:
                load_game(game, players=cls.min_players, **{param: str(incoming)})
            except MeepleError as exc:
                message = str(exc).replace(str(incoming), label)
                raise ContentRefused("bad_content", message) from None
            except (RecursionError, MemoryError):
                raise ContentRefused("bad_content", f"{label} is nested too deeply to "
                                     "read") from None
            final = place / f"{ident}.json"
            os.replace(incoming, final)
        finally:
            incoming.unlink(missing_ok=True)
        with self._lock:
            self.index.setdefault((game, param), {})[ident] = final.resolve()
            self.uploads += 1
            self.index_version += 1
        log.info("content upload kept: %s/%s/%s (%d bytes)", game, param, ident, len(data))
        return ident, True
