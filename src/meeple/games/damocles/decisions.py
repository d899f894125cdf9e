"""What each Damocles decision is, in one paragraph from the rules page (``help`` in the
terminal), and why a move is refused (naming the rule and the legal moves nearest to it)."""

from __future__ import annotations

from typing import Any

from meeple.engine.explain import acting_legal, decision_paragraph, refusal, refuse_move
from meeple.games.damocles.codex import GODS, MANIPULATION, NUMBER, PRODUCTION

PAGE = "docs/rules/damocles.md"

#: decision key -> (rule reference, reminder). Keys: the setup phases, then the turn's steps.
DECISIONS: dict[str, tuple[str, str]] = {
    "discard": ("SETUP 1, DAM-25; section 2 'Setup' item 3",
                "Setup discard: every seat at once, face down, chooses {n} codices of its hand "
                "to discard ('discard ID ID', ids from your hand); the game goes on when all "
                "seats have chosen. Keep the codices whose patterns you can make in the circle."),
    "place": ("DAM-10; section 2 'Setup' item 4",
              "Placement: clockwise from the first placer, each seat puts one god token on an "
              "empty slot of the circle ('place GOD SLOT', e.g. 'place HADES 3') until all 7 "
              "slots are filled. Under rotational matching only the pattern around the circle "
              "counts, so the first token always goes to slot 1."),
    "pre": ("TURN 1-2, DAM-11, DAM-13; section 2 'The turn' items 1-2",
            "Start of your turn: you may first play Hastes whose god is in the circle ('haste "
            "ID': 1 point, and the turn allows two swaps), then you must swap: two slots trade "
            "gods ('swap 2 5') or a slot's token is exchanged with the bank ('swap 3 NYX')."),
    "swap2": ("TURN 2, DAM-12; section 2 'The turn' item 2",
              "Second swap (after a Haste): swap again ('swap 2 5', 'swap 3 NYX') or 'stop' to "
              "go on to playing codices."),
    "play": ("TURN 3-4, DAM-14..16, DAM-22; section 2 'The turn' item 3",
             "Play window: play codices whose pattern is in the circle now. 'play ID' for a "
             "Manipulation (Reflex, Annex, late Haste) or Destruction codex; 'pair P N' for a "
             "Production codex with a Number codex (draws N codices; a codex scores its pips "
             "the first time it is played). 'end' ends the turn."),
    "keep": ("DAM-21; section 2 'The turn' item 3",
             "Oracle: of the codices just drawn, keep the number the pair allows ('keep ID ID'); "
             "the rest go to the discard pile."),
    "destroy": ("DAM-32; section 2 'The turn' item 3",
                "Destruction: choose the codex of the current target's tableau to destroy "
                "('destroy ID')."),
}


def decision_key(state: Any) -> str:
    """The key in :data:`DECISIONS` of the decision open in ``state``."""
    return state.phase if state.phase in ("discard", "place") else state.step


def decision_help(state: Any, seat: int) -> str:
    """The reminder of the decision ``seat`` faces, with its rule."""
    if state.is_terminal():
        return "The game is over (DAM-28, DAM-29: ten cycles, the highest score wins)."
    return decision_paragraph(DECISIONS, decision_key(state), PAGE,
                              n=state.game.params["setup_discard"])


#: Where the seat is, in the rules page's words (section 2: "the setup discard", "the play
#: window"...), per decision key: the refusals say "not a move <this>".
WHEN: dict[str, str] = {
    "discard": "during the setup discard", "place": "during the placement",
    "pre": "before your swap", "swap2": "at the second swap", "play": "in the play window",
    "keep": "while keeping an Oracle's draw", "destroy": "while choosing what to destroy",
}


def _asks(state: Any, seat: int, key: str) -> str:
    """What decision ``key`` asks of ``seat`` now, in a few words with its notation."""
    if key == "discard":
        return (f"choose {state.game.params['setup_discard']} codices of your hand to discard "
                "('discard ID ID')")
    if key == "place":
        if state.placed == 0 and state.game.params["match"] == "rotational":
            return f"put the first god on slot 1 ('place GOD 1'; {FIRST_SLOT})"
        return "put a god on an empty slot ('place GOD SLOT')"
    if key == "pre":
        return "play a Haste, or make your swap ('swap 2 5', 'swap 3 NYX')"
    if key == "swap2":
        return "swap again ('swap 2 5', 'swap 3 NYX') or 'stop'"
    if key == "play":
        return "play codices ('play ID', 'pair P N') or 'end' the turn"
    if key == "keep":
        return (f"keep {state.keep_count} of the {len(state.keep_pool)} codices drawn "
                f"({', '.join(state.keep_pool)})")
    target = state.destroy_queue[0][0]
    whose = "your own" if target == seat else f"{state.game.seat_names()[target]}'s"
    return f"choose a codex of {whose} tableau to destroy ('destroy ID')"


#: The move kinds each decision takes (docs/rules/damocles.md, section 2 "The turn"), legal
#: now or not: a kind outside them is refused for the step, one inside for its arguments.
STEP_KINDS: dict[str, set[str]] = {
    "discard": {"discard"}, "place": {"place"}, "pre": {"haste", "swap", "trade"},
    "swap2": {"swap", "trade", "stop"}, "play": {"play", "pair", "end"}, "keep": {"keep"},
    "destroy": {"destroy"},
}

#: Why the first god's slot is fixed (DAM-10), in the words the placement prompt uses too.
FIRST_SLOT = "under rotational matching its slot does not matter"


def illegal_reason(state: Any, seat: int, action: Any) -> str:
    """Why ``action`` is refused for ``seat`` in ``state``: the real reason for its kind (a swap
    of two equal gods changes nothing, a codex not in hand, a pattern not in the circle...) in
    the rules page's words for the step ("before your swap", "the play window"), the rule it
    comes from, the kinds legal now and the legal moves nearest to it. Never raises."""
    legal = acting_legal(state, seat)
    kind = getattr(action, "kind", None)
    if kind is None:
        return refusal("section 5 'Action notation'", "it is not a Damocles move", legal)
    if state.phase == "over":
        return refusal("DAM-28", "the game is over", legal)
    if seat not in state._acting:
        active = state.game.seat_names()[state.active]
        return refusal("TURN 5", f"it is not your turn: {active} is playing", legal)
    key = decision_key(state)
    kinds = STEP_KINDS[key] | ({"stop"} if state.game.params["swap_optional"] else set())
    rule, why = (_wrong_kind(state, seat, key, action) if kind not in kinds
                 else _wrong_move(state, seat, key, action, legal))
    if not why:  # no finer reason found
        rule, why = DECISIONS[key][0].split(";")[0], f"'{action}' is not legal {WHEN[key]}"
    return refuse_move(rule, WHEN[key], legal, action, why)


def _wrong_kind(state: Any, seat: int, key: str, action: Any) -> tuple[str, str]:
    """(rule, why) for a move of a kind that has no legal move now."""
    kind, word = action.kind, str(action).split(" ", 1)[0]
    now = f"now {_asks(state, seat, key)}"
    rule = DECISIONS[key][0].split(";")[0]
    if kind in ("swap", "trade") and key == "play":
        return "TURN 2, DAM-12", f"your swap is done this turn; {now}"
    if kind == "stop" and key == "pre":
        return "DAM-12", f"the first swap of the turn is not optional; {now}"
    if kind == "haste" and key == "swap2":
        return "DAM-13", f"no Haste can be played between the two swaps; {now}"
    if kind == "haste" and key == "play":
        cid = action.args[0]
        return "DAM-13", (f"a Haste with 'haste' comes before your swap; in the play window "
                          f"it is 'play {cid}' (1 point, no extra swap)")
    if kind in ("play", "pair", "end") and key in ("pre", "swap2"):
        return rule, f"the play window opens after your swap; {now}"
    if kind == "place" and key == "discard":
        return rule, f"the placement comes after the setup discard; {now}"
    if kind in ("play", "pair", "end", "swap", "trade", "haste", "stop") and key == "place":
        return rule, f"the turns start when all seven slots are filled; {now}"
    if kind == "discard":
        return rule, f"the setup discard is over; {now}"
    if kind == "place":
        return rule, f"all seven slots are filled; {now}"
    if kind == "keep":
        return rule, f"there is no Oracle draw to keep; {now}"
    if kind == "destroy":
        return rule, f"there is nothing to destroy; {now}"
    return rule, f"'{word}' is not a move {WHEN[key]}; {now}"


def _wrong_move(state: Any, seat: int, key: str, action: Any,
                legal: list[Any]) -> tuple[str, str]:
    """(rule, why) for a move whose kind is legal now but not with these arguments."""
    kind, args = action.kind, action.args
    rule = DECISIONS[key][0].split(";")[0]
    if kind == "swap":
        a, b = args
        if a == b:
            return "DAM-11", f"slot {a + 1} cannot swap with itself"
        god = GODS[state.circle[a]]
        return "DAM-11", (f"slots {a + 1} and {b + 1} both hold {god}: swapping two equal "
                          "gods changes nothing")
    if kind == "trade":
        slot, god = args
        if state.circle[slot] == god:
            return "DAM-11", (f"slot {slot + 1} already holds {GODS[god]}: a trade needs a "
                              "different god from the bank")
        return "DAM-9, DAM-11", f"the bank has no {GODS[god]} left to trade for"
    if kind == "place":
        return "DAM-10", _wrong_place(state, args)
    if kind == "keep":
        return "DAM-21", _wrong_keep(state, args)
    if kind == "destroy":
        target = state.destroy_queue[0][0]
        whose = "your own" if target == seat else f"{state.game.seat_names()[target]}'s"
        return "DAM-32", f"{args[0]} is not in {whose} tableau"
    if kind == "discard":
        n = state.game.params["setup_discard"]
        if len(args) != n:
            return rule, f"you must discard {n} codices, you chose {len(args)}"
        if len(set(args)) != len(args):
            return rule, "name two different codices"
        missing = [c for c in args if c not in state.hands[seat]]
        return rule, f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand"
    ids = 2 if kind == "pair" else 1  # play (id, relaxed), pair (p, n, relax p, relax n)
    same = [m for m in legal if m.kind == kind and m.args[:ids] == args[:ids]]
    if same:  # the right codices, other Reflex marks
        return "DAM-6", (f"write it '{same[0]}': the legal list marks with '*' only the "
                         "codices a Reflex token must relax")
    return _wrong_codex(state, seat, kind, args)


def _wrong_place(state: Any, args: tuple[int, int]) -> str:
    god, slot = args
    if state.circle[slot] is not None:
        return f"slot {slot + 1} already holds {GODS[state.circle[slot]]}: choose an empty slot"
    if state.placed == 0 and state.game.params["match"] == "rotational":
        return f"the first god goes to slot 1: {FIRST_SLOT}"
    return f"no {GODS[god]} is left in the supply (bank=shared20, DAM-9)"


def _wrong_keep(state: Any, args: tuple[str, ...]) -> str:
    pool = state.keep_pool
    if len(args) != state.keep_count:
        return (f"keep exactly {state.keep_count} of the {len(pool)} codices drawn, you chose "
                f"{len(args)}")
    others = [c for c in args if c not in pool] or [c for c in args if args.count(c) > 1]
    return f"{', '.join(others)}: keep codices among those drawn ({', '.join(pool)}), each once"


def _wrong_codex(state: Any, seat: int, kind: str, args: tuple[Any, ...]) -> tuple[str, str]:
    """(rule, why) for a haste, play or pair whose codices cannot be played now."""
    game, p = state.game, state.game.params
    deck = game.codex_by_id
    ids = list(args[:2]) if kind == "pair" else [args[0]]
    unknown = [c for c in ids if c not in deck]
    if unknown:
        return "section 6 'The deck'", f"there is no codex {', '.join(unknown)} in this deck"
    hand, tableau = state.hands[seat], state.tableaus[seat]
    barred = () if p["grants_playable_same_turn"] else state.granted
    for cid in ids:
        if cid in barred:
            return "DAM-20", (f"{cid} was drawn this turn; with grants_playable_same_turn="
                              "false it waits for your next turn")
    if kind == "pair":
        return _wrong_pair(state, seat, args)
    cid, codex = args[0], deck[args[0]]
    if cid not in hand:
        where = (" (it is in your tableau: played codices come back only in a pair, DAM-18)"
                 if cid in tableau else "")
        return "TURN 1" if kind == "haste" else "TURN 3", f"{cid} is not in your hand{where}"
    name = codex.type.title()
    if kind == "haste" and codex.type != "HASTE":
        return "DAM-13", f"{cid} is a {name}, not a Haste"
    if codex.info.cls in (PRODUCTION, NUMBER):
        return "DAM-16", (f"{cid} is a {name}: Production and Number codices are played only "
                          "in a pair ('pair P N')")
    if codex.info.cls == MANIPULATION and p["strict_steps"] and state.pair_played:
        return "DAM-22", ("with strict_steps, Manipulation codices come before the turn's "
                          "first pair")
    if codex.type == "ANNEX" and state.annex_played:
        return "DAM-31", "an Annex was already played this turn: Annex codices do not stack"
    if codex.type == "SACRIFICE" and not tableau:
        return "DAM-32", "a Sacrifice needs a codex of your own tableau to destroy"
    relaxed = kind == "play" and args[1]
    return _no_match(state, [(cid, relaxed)], "DAM-13, DAM-8" if kind == "haste" else "DAM-8")


def _wrong_pair(state: Any, seat: int, args: tuple[Any, ...]) -> tuple[str, str]:
    pid, nid, relax_p, relax_n = args
    deck = state.game.codex_by_id
    own = state.hands[seat] + state.tableaus[seat]
    names = state.game.seat_names()
    borrowed = []
    for cid in (pid, nid):
        if cid in own:
            continue
        holder = next((s for s, t in enumerate(state.tableaus) if cid in t), None)
        if holder is None:
            return "DAM-14", f"{cid} is not in your hand or your tableau"
        if not state.annex_available:
            return "DAM-31", (f"{cid} is in {names[holder]}'s tableau: borrowing it needs an "
                              "Annex played this turn (one codex per Annex)")
        borrowed.append(cid)
    if deck[pid].info.cls != PRODUCTION:
        return "DAM-14", (f"a pair is a Production codex then a Number codex: {pid} is a "
                          f"{deck[pid].type.title()}")
    if deck[nid].info.cls != NUMBER:
        return "DAM-14", (f"a pair is a Production codex then a Number codex: {nid} is a "
                          f"{deck[nid].type.title()}")
    if len(borrowed) == 2:
        return "DAM-31", "only one codex of a pair may be borrowed with an Annex"
    if (pid, nid) in state.pairs_used:
        return "DAM-15", f"{pid} and {nid} were already paired this turn (each pair once a turn)"
    if any(c in borrowed for c, r in ((pid, relax_p), (nid, relax_n)) if r):
        return "DAM-6", "a Reflex token relaxes only your own codex, not a borrowed one"
    rule, why = _no_match(state, [(pid, relax_p), (nid, relax_n)], "DAM-14")
    if why or state.game.params["pair_anchor"] != "joint":
        return rule, why
    return "DAM-14", (f"{pid} and {nid} each match, but not at one rotation "
                      "(pair_anchor=joint)")


def _no_match(state: Any, codices: list[tuple[str, bool]], rule: str) -> tuple[str, str]:
    """(rule, why) when a codex of ``codices`` ((id, relaxed)) does not match the circle, or
    too few Reflex tokens are held for the relaxed ones; ("", "") when all match."""
    wanted = sum(r for _, r in codices)
    if wanted > state.relax_tokens:
        held = state.relax_tokens
        return "DAM-6", (f"'*' spends a Reflex token and you hold {held} this turn "
                         "(play a Reflex first)")
    deck = state.game.codex_by_id
    for cid, relaxed in codices:
        if not state.mask(cid, relaxed):
            even = " even relaxed" if relaxed else ""
            return rule, (f"{cid}'s pattern, {deck[cid].pattern_text()}, is not in the circle "
                          f"now{even}")
    return "", ""
