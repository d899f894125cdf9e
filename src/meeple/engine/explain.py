"""Plain-language explanations shared by every game: a list of legal actions summarised for a
person (grouped by kind, with a count and examples), and a refused action's message naming the
rule and what would be legal.

Games call :func:`refusal` from their ``_illegal_reason``; interfaces (the terminal) call
:func:`legal_summary` for ``help``. Nothing here knows a particular game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: How many legal actions a refusal lists before "... (N moves)".
REFUSAL_SHOWN = 6


def _kind(action: Any) -> str:
    """The first word of the action's text, as the player types it (``swap``, ``atk``)."""
    return (str(action).split(" ", 1)[0].split(":", 1)[0]) or str(action)


def _closeness(action: Any, tried: Any) -> tuple[int, int]:
    """Sort key: legal actions of the tried action's kind, then sharing more words, first."""
    if tried is None:
        return (0, 0)
    words = set(str(tried).lower().split())
    same = _kind(action) == _kind(tried)
    return (0 if same else 1, -len(words & set(str(action).lower().split())))


def nearest(legal: Sequence[Any], tried: Any = None, limit: int = REFUSAL_SHOWN) -> str:
    """Up to ``limit`` legal actions, those closest to ``tried`` first, joined with commas, and
    how many there are in all when some are left out."""
    if not legal:
        return "nothing (this seat does not act now)"
    order = sorted(range(len(legal)), key=lambda i: (_closeness(legal[i], tried), i))
    shown = ", ".join(str(legal[i]) for i in order[:limit])
    if len(legal) > limit:
        shown += f", ... ({len(legal)} moves; 'list' shows them all)"
    return shown


def refusal(rule: str, why: str, legal: Sequence[Any], tried: Any = None) -> str:
    """A refused action's reason: ``why`` (what is wrong, in the player's words), the rule that
    says so, and the legal actions nearest to the one tried (``tried``: the refused action, or
    None to list them in their own order).

    >>> refusal("DAM-25, setup discard", "you must discard 2 codices, you chose 1",
    ...         ["discard A-03 B-11"])
    'you must discard 2 codices, you chose 1 (DAM-25, setup discard); legal now: discard A-03 B-11'
    """
    return f"{why} ({rule}); legal now: {nearest(legal, tried)}"


def refuse_move(rule: str, where: str, legal: Sequence[Any], tried: Any, why: str = "") -> str:
    """The refusal of ``tried`` at the decision ``where`` ("the campaign step"), governed by
    ``rule``: ``why`` when the game knows the precise reason, else whether no move of that kind
    is legal now or only this one is not; then the kinds that are legal and the nearest legal
    moves (see :func:`refusal`).

    >>> refuse_move("OZW-40", "the mode step", ["intake", "migrate"], "lay 2")
    "'lay' moves are not legal at the mode step; legal kinds now: intake, migrate (OZW-40); \
legal now: intake, migrate"
    """
    kinds = sorted(dict.fromkeys(_kind(a) for a in legal))
    if not why:
        kind = _kind(tried)
        why = (f"'{tried}' is not legal at {where}" if kind in kinds
               else f"'{kind}' moves are not legal at {where}")
    return refusal(rule, f"{why}; legal kinds now: {', '.join(kinds) or 'none'}", legal, tried)


def refuse_in_table(table: Mapping[str, tuple[str, str]], key: str, legal: Sequence[Any],
                    tried: Any, *, notation: str, not_a_move: str, fallback: str,
                    why: str = "") -> str:
    """The refusal of ``tried`` at decision ``key`` of a game's ``table`` (key -> (rule
    reference, reminder), as for :func:`decision_paragraph`): the rule is the first reference
    of the key's entry (``fallback`` for a key not in the table); a ``tried`` without a
    ``kind`` is refused under ``notation`` as ``not_a_move``; ``why`` as for
    :func:`refuse_move`."""
    where = f"the {key} step"
    if getattr(tried, "kind", None) is None:
        return refuse_move(notation, where, legal, None, not_a_move)
    rule = table[key][0].split(";")[0] if key in table else fallback
    return refuse_move(rule, where, legal, tried, why)


def acting_legal(state: Any, seat: int) -> list[Any]:
    """``seat``'s legal actions in ``state``, or [] when it does not act now (for a refusal's
    list: never raises)."""
    return list(state._legal_actions(seat)) if seat in state._acting else []


def decision_paragraph(table: Mapping[str, tuple[str, str]], key: str, page: str,
                       **values: Any) -> str:
    """The ``help`` paragraph of decision ``key`` from a game's ``table`` (key -> (rule
    reference, reminder text with ``{name}`` fields filled from ``values``)), ending with the
    rule and the rules page ``page``."""
    rule, text = table[key]
    return f"{text.format(**values)} [{rule}; {page}]"


def kinds_phrase(legal: Sequence[Any]) -> str:
    """The kinds of the legal actions, in first-seen order: ``swap, stop``."""
    return ", ".join(dict.fromkeys(_kind(a) for a in legal)) or "none"


def legal_summary(legal: Sequence[Any], full: int = 12, per_kind: int = 3) -> list[str]:
    """Lines listing the legal actions for ``help``: all of them when there are at most ``full``,
    else one line per kind with its count and a few examples."""
    if len(legal) <= full:
        return [f"  {a}" for a in legal]
    groups: dict[str, list[Any]] = {}
    for action in legal:
        groups.setdefault(_kind(action), []).append(action)
    lines = []
    for kind, actions in groups.items():
        examples = ", ".join(str(a) for a in actions[:per_kind])
        more = f", ... ({len(actions)} in all)" if len(actions) > per_kind else ""
        lines.append(f"  {kind}: {examples}{more}")
    return lines
