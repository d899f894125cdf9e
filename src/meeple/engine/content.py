"""Content files (decks, card lists): reading JSON with clear errors, reporting every problem
at once, and the generator scripts' write-or-check step.

Each game validates its own content with pydantic models and turns their errors into
messages that name the item and the rule; what every game's content does alike lives here.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError, field_validator

from meeple.engine.errors import MeepleError


class ContentError(MeepleError, ValueError):
    """A content file is missing, unreadable, not JSON, or breaks a content rule.

    Attributes:
        problems: every problem found, each naming the item and the rule.
    """

    def __init__(self, message: str, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = tuple(problems) or (message,)


class ContentManifest(BaseModel):
    """Base of every content file's model: a ``format`` string that must equal the class's
    ``FORMAT``, a free ``description``, then the subclass's item list. Unknown keys are
    errors and the model is frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    FORMAT: ClassVar[str] = ""

    format: StrictStr
    description: StrictStr

    @field_validator("format")
    @classmethod
    def _format_is_known(cls, value: str) -> str:
        if value != cls.FORMAT:
            raise ValueError(f"unsupported format {value!r}; expected {cls.FORMAT!r}")
        return value


    @classmethod
    def format_hint(cls) -> str:
        """The file's expected shape in one line, from the models' fields (so it never drifts
        from the validation): ``{"format": "...", "description": TEXT, "codices": [CODEX,
        ...]}; each codex: {"id", "type", "pattern"; optional "text"}``."""
        parts = [f'"format": "{cls.FORMAT}"', '"description": TEXT']
        entries = []
        for name in cls.model_fields:
            if name in ("format", "description"):
                continue
            annotation = cls.model_fields[name].annotation
            entry = next((a for a in get_args(annotation)
                          if isinstance(a, type) and issubclass(a, BaseModel)), None)
            if entry is None:
                parts.append(f'"{name}": ...')
                continue
            noun = entry.__name__.removesuffix("Entry").upper() or name.upper()
            parts.append(f'"{name}": [{noun}, ...]')
            required = [f'"{k}"' for k, f in entry.model_fields.items() if f.is_required()]
            optional = [f'"{k}"' for k, f in entry.model_fields.items() if not f.is_required()]
            keys = ", ".join(required) + (f"; optional {', '.join(optional)}" if optional else "")
            entries.append(f"each {noun}: {{{keys}}}")
        return "{" + ", ".join(parts) + "}" + "".join(f"; {e}" for e in entries)


_DICT_RE = re.compile(r"a valid dictionary( or instance of \w+)?")


def location(loc: Sequence[Any]) -> str:
    """A pydantic error location as ``pattern[1].god``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def pydantic_problems(error: ValidationError, *, items: str, label: Callable[[int], str],
                      entry: type[BaseModel], manifest: type[BaseModel], whole: str = "file",
                      hint: Callable[[tuple[Any, ...], dict[str, Any]], str | None] | None = None
                      ) -> list[str]:
    """Readable one-line problems from a pydantic ``error`` on a content file.

    Args:
        items: the manifest's list of items (``"cards"``); an error inside item ``i`` is
            reported as ``label(i): ...``, any other as ``whole: ...``.
        entry, manifest: the item and file models (their fields are the allowed keys).
        hint: a game's own wording for an error at an item-relative location, or None.
    Returns:
        One line per problem. Messages of the models' own validators (which name the rule)
        pass through unchanged.
    """
    problems: list[str] = []
    for err in error.errors():
        loc = tuple(err["loc"])
        if len(loc) >= 2 and loc[0] == items and isinstance(loc[1], int):
            who, rest, keys = label(loc[1]), loc[2:], tuple(entry.model_fields)
        else:
            who, rest, keys = whole, loc, tuple(manifest.model_fields)
        kind = err["type"]
        special = hint(rest, err) if hint is not None and who != whole else None
        if kind == "value_error":
            texts = str(err["ctx"]["error"]).split("\n")
            if who == whole and not rest:
                problems.extend(texts)
                continue
        elif kind == "extra_forbidden":
            texts = [f"unknown key {rest[-1]!r}; allowed keys: {', '.join(keys)}"]
        elif kind == "missing" and rest and not isinstance(rest[-1], int):
            texts = [f"missing key {rest[-1]!r}"]
        elif special is not None:
            texts = [special]
        else:
            message = _DICT_RE.sub("a JSON object", err["msg"]).replace(
                "a valid tuple", "a list (JSON array)")
            where = location(rest)
            texts = [f"{where}: {message}; got {err['input']!r}" if where else
                     f"{message}; got {type(err['input']).__name__}"]
        problems.extend(f"{who}: {t}" for t in texts)
    return problems


#: The largest content file read, in bytes (the packaged ones are 4-16 KB): a bigger file, or
#: one that never ends (``/dev/zero``), is refused before it fills memory.
MAX_CONTENT_BYTES = 4 * 1024 * 1024


def read_json(path: Path, noun: str, error: type[ContentError]) -> Any:
    """The parsed JSON of ``path``.

    Args:
        noun: what the file is, for messages ("deck file", "card file").
        error: the game's :class:`ContentError` subclass to raise.
    Raises:
        ``error``: the file is missing, not a regular file (a device, a folder, a pipe),
            larger than :data:`MAX_CONTENT_BYTES`, unreadable, not UTF-8, or not valid JSON
            (with line and column; nesting too deep to read counts as invalid).
    """
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise error(f"{noun} {path} is not a regular file")
            data = handle.read(MAX_CONTENT_BYTES + 1)
    except FileNotFoundError:
        raise error(f"{noun} not found: {path}") from None
    except OSError as exc:
        raise error(f"cannot read {noun} {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_CONTENT_BYTES:
        raise error(f"{noun} {path} is larger than {MAX_CONTENT_BYTES // (1024 * 1024)} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"cannot read {noun} {path}: not UTF-8 text ({exc.reason} at byte "
                    f"{exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{noun} {path} is not valid JSON: {exc.msg} at line {exc.lineno} "
                    f"column {exc.colno}") from None
    except RecursionError:
        raise error(f"{noun} {path} is not valid JSON: nested too deeply") from None


#: How many problems a content error's message lists (all of them stay in ``.problems``).
PROBLEMS_SHOWN = 5
#: Words of the problems about a file's shape (a wrong type, a missing or unknown key, another
#: format), as :func:`pydantic_problems` writes them: they bring the format hint.
SHAPE_WORDS = ("unknown key", "missing key", "Input should be", "unsupported format")


def problems_error(error: type[ContentError], what: str, problems: Sequence[str],
                   hint: str = "") -> ContentError:
    """One error listing ``problems`` of ``what`` (e.g. ``"deck my.json"``): a single line for
    one problem, an indented list of the first :data:`PROBLEMS_SHOWN` for several, then
    ``... and N more``; then ``hint`` (the expected format, e.g. a manifest's
    :meth:`ContentManifest.format_hint`) on its own line when some problem is about the file's
    shape (:data:`SHAPE_WORDS`; a file of another format), not for a well-formed file that
    breaks a game rule. The error's ``problems`` keeps every one."""
    if len(problems) == 1:
        message = f"invalid {what}: {problems[0]}"
    else:
        shown = [f"  - {p}" for p in problems[:PROBLEMS_SHOWN]]
        if len(problems) > PROBLEMS_SHOWN:
            shown.append(f"  ... and {len(problems) - PROBLEMS_SHOWN} more")
        message = f"invalid {what} ({len(problems)} problems):\n" + "\n".join(shown)
    if hint and any(word in p for p in problems for word in SHAPE_WORDS):
        message += f"\nexpected format: {hint}"
    return error(message, problems)


def item_per_line(manifest: dict[str, Any], items: str) -> str:
    """``manifest`` as reviewable JSON text: its other keys first, then the list ``items``
    with one entry per line (so a content change is a one-line diff)."""
    head = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in manifest.items() if k != items]
    entries = manifest[items]
    body = [f"    {json.dumps(e)}{',' if i < len(entries) - 1 else ''}"
            for i, e in enumerate(entries)]
    return "\n".join(["{", *head, f"  {json.dumps(items)}: [", *body, "  ]", "}"]) + "\n"


def write_or_check(path: Path, text: str, argv: Sequence[str] | None, script: str,
                   noun: str, count: int) -> int:
    """The main of a content generator: write ``text`` to ``path``, or with ``--check`` report
    whether the checked-in file is up to date.

    Returns:
        The exit status: 0 written or up to date, 1 differs, 2 bad arguments.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        print(f"{path}: {'up to date' if current == text else 'DIFFERS'}")
        return 0 if current == text else 1
    if args:
        print(f"usage: {script} [--check]", file=sys.stderr)
        return 2
    path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {path} ({count} {noun})")
    return 0
