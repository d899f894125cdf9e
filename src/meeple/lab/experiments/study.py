"""The study: one command that plans, plays and reads the runs answering a designer's questions
about a design (issue 21, ``meeple study``).

:func:`plan_study` sizes the runs to a time budget from timed probe games
(:func:`meeple.lab.run.estimate.game_seconds`); :func:`run_study` plays them, each into a
:class:`~meeple.lab.run.store.RunStore` directory under the study's folder (so ``meeple report
DIR`` and ``meeple replay DIR --index N`` work on every run, and ``--resume`` goes on with an
interrupted study), grows the sample once where an interval is still too wide to decide
(:func:`meeple.lab.analysis.precision.too_few`), and returns a JSON-ready summary with a
one-line verdict per question. Sections:

1. ``fairness``: every allowed seat count, the same bot in every seat (``heuristic`` when the
   game has one, else its playtest line-up): the most-winning seat's sole-win share with its
   Wilson interval against the fair share, and the chi-square test of
   :func:`meeple.lab.analysis.stats.summarize`; cooperative games: the team win rate per count.
2. ``length``: rounds (the game's unit) and decisions per game from the same runs, their
   spread and p90, and the share that hit the length cap.
3. ``skill``: ``random``, ``heuristic`` and one ISMCTS tier, each against the one below
   (:func:`meeple.lab.experiments.ladder.competitive_step`: one upper seat among lower ones,
   against the fair share); cooperative games: the team win rate per tier and the difference
   between adjacent tiers.
4. ``variants``: every named variant against the study's variant on the same seeds, every
   metric of :func:`meeple.lab.experiments.compare.arm_metrics` tested
   (:func:`~meeple.lab.experiments.compare.compare_arms`, Holm-adjusted); the verdict lists the
   metrics flagged as different.

The issue's later sections (card power, degenerate strategies, elimination and kingmaking,
``--target``, ``--against``) are listed in the summary as not done yet.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.engine.registry import load_game
from meeple.engine.rng import derive_seed
from meeple.lab.analysis.precision import games_needed
from meeple.lab.analysis.verdicts import fairness_answer, skill_answer
from meeple.lab.experiments.compare import default_bots, fairness_bots
from meeple.lab.experiments.ladder import competitive_step, default_budgets
from meeple.lab.experiments.stored_run import play_stored
from meeple.lab.experiments.study_answer import STUDY_FORMAT, answer_study
from meeple.lab.run.backends import resolve_jobs
from meeple.lab.run.estimate import format_duration, game_seconds
from meeple.lab.run.runner import play_one
from meeple.lab.run.store import RUN_JSON, RunStore

__all__ = ["NOT_YET", "PLAN_JSON", "STUDY_FORMAT", "StudyPlan", "StudyRun", "load_plan",
           "parse_budget", "plan_study", "run_study"]

PLAN_JSON = "plan.json"
#: Share of the budget the first round gets; the rest is kept to grow too-wide intervals.
FIRST_ROUND = 0.75
#: Share of the first round per section (fairness and length share their runs).
WEIGHTS = {"fairness": 0.45, "skill": 0.25, "variants": 0.30}
#: Probe games per line-up at most (while they take under 0.2 s together; one when slow).
PROBES = 5
#: A stored search game costs this many times its probe (trace, record, Parquet columns).
PLAY_OVERHEAD = 1.2
#: Seconds each run costs besides its games (the store, the summary and its diagnostics).
RUN_OVERHEAD = 0.4
#: Games the skill step of the search tier should get (else a smaller search budget).
SKILL_GAMES = 200
#: Games per run at most (more adds little to a verdict and fills the disk).
MAX_GAMES = 10_000
#: Share of the budget the degenerate-strategy search gets (section 6).
EXPLOIT_SHARE = 0.15
#: Share of the budget the search toward ``--target`` gets when one is given (section 8).
TARGET_SHARE = 0.30
#: Where the study keeps the sections it plays itself (``--resume`` reuses them).
SECTION_FILES = {"strategies": "strategies.json", "target": "target.json"}
#: The issue's parts this study does not answer yet, listed so that the page is honest.
NOT_YET: list[str] = []


# ------------------------------------------------------------------------------ budget
def parse_budget(text: str) -> float:
    """Seconds of a budget such as ``90s``, ``10m``, ``1h``, ``1h30m`` or ``45`` (seconds).

    Raises:
        ParameterError: text that is not such a duration, or a budget of zero.
    """
    clean = text.strip().lower().replace(" ", "")
    parts = re.fullmatch(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?:in)?)?"
                         r"(?:(\d+(?:\.\d+)?)s?)?", clean)
    if not clean or parts is None or not any(parts.groups()):
        raise ParameterError(f"--budget {text!r} must be a duration such as 90s, 10m or 1h")
    h, m, s = (float(g) if g else 0.0 for g in parts.groups())
    seconds = h * 3600 + m * 60 + s
    if seconds <= 0:
        raise ParameterError(f"--budget {text!r} must be more than zero")
    return seconds


# -------------------------------------------------------------------------------- plan
@dataclass
class StudyRun:
    """One stored run of a study: ``key`` (its folder under the study's), the ``section`` it
    answers, a ``label``, what is played (``variant``, ``players``, ``bots`` cycled over the
    seats, ``games``, ``seed``), ``per_game`` (estimated seconds of one game) and ``seconds``
    (the run's estimate on the plan's workers); ``round`` 1 for planned runs, 2 for the runs
    that grow a too-wide interval."""

    key: str
    section: str
    label: str
    variant: str
    players: int
    bots: list[str]
    games: int
    seed: int
    per_game: float
    seconds: float = 0.0
    round: int = 1


@dataclass
class StudyPlan:
    """A study's plan: the game, variant, budget (seconds), jobs and workers, seed, whether the
    game is cooperative, the skill ``tiers``, the ``runs`` in play order, ``notes`` (what was
    left out and why), the estimated ``seconds`` of the first round and how long probing took.
    """

    game: str
    variant: str
    default_players: int
    budget: float
    jobs: int
    workers: int
    seed: int
    cooperative: bool
    tiers: list[str]
    runs: list[StudyRun] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    probe_seconds: float = 0.0
    exploit_seconds: float = 0.0
    target: str | None = None
    target_seconds: float = 0.0
    vary: list[str] | None = None
    #: Whether round 2 was decided (its runs, if any, are in ``runs``): a resumed study keeps
    #: that decision instead of taking it again at another pace.
    grown: bool = False
    #: Parameter overrides applied to every game of the study (``--param``: a custom deck, a
    #: changed value), over the variant's own; every variant arm gets them too.
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The plan as JSON-ready data (what ``plan.json`` holds)."""
        return {"format": STUDY_FORMAT, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudyPlan:
        """The plan from :meth:`to_json`'s data. Raises: KeyError, TypeError on other data."""
        fields = {k: v for k, v in data.items() if k != "format"}
        fields["runs"] = [StudyRun(**r) for r in fields.get("runs", [])]
        return cls(**fields)

    def sections(self) -> dict[str, list[StudyRun]]:
        """The runs by section, in play order."""
        out: dict[str, list[StudyRun]] = {}
        for run in self.runs:
            out.setdefault(run.section, []).append(run)
        return out


def load_plan(out_dir: str | Path) -> StudyPlan | None:
    """The plan saved in ``out_dir`` by :func:`run_study`, or None when there is none.

    Raises:
        ParameterError: a ``plan.json`` that cannot be read as a study plan.
    """
    path = Path(out_dir) / PLAN_JSON
    if not path.is_file():
        return None
    try:
        return StudyPlan.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ParameterError(f"cannot read the study plan {path}: {exc}") from None


def _round_games(games: float, players: int, least: int) -> int:
    """``games`` rounded down to a multiple of the seat count, within ``least..MAX_GAMES``."""
    whole = int(games) // players * players
    return max(least, min(MAX_GAMES // players * players, whole))


def _cost(games: int, per_game: float, workers: int) -> float:
    return math.ceil(games / max(1, min(workers, games))) * per_game


def _probe(game: Game, bots: Sequence[str], seed: int, budget: float) -> float:
    """Estimated seconds of one stored game of ``game`` with ``bots``. Without a search bot:
    the median wall time of up to :data:`PROBES` games played as the runner plays them
    (:func:`~meeple.lab.run.runner.play_one` with its record), while they take under 0.2 s
    together; with one: :func:`~meeple.lab.run.estimate.game_seconds` (search timed at a few
    iterations and scaled) times :data:`PLAY_OVERHEAD`."""
    if any(b.startswith("ismcts") for b in bots):
        return PLAY_OVERHEAD * game_seconds(game, bots, seed, budget)[0]
    took: list[float] = []
    start = time.perf_counter()
    while len(took) < PROBES and (not took or time.perf_counter() - start < 0.2):
        t = time.perf_counter()
        play_one(game, bots, seed, len(took), keep_record=True)
        took.append(time.perf_counter() - t)
    return sorted(took)[len(took) // 2]


def plan_study(game_name: str, variant: str | None = None, budget_seconds: float = 600.0,
               jobs: int = 0, seed: int = 0, *, probe_budget: float = 1.0,
               target: str | None = None, exploit: bool = True,
               vary: Sequence[str] | None = None,
               params: Mapping[str, Any] | None = None) -> StudyPlan:
    """Plan a study of ``game_name`` that fits ``budget_seconds``.

    Probe games of each distinct game spec and line-up are timed (:func:`_probe`; a search
    line-up's probe is cut after ``probe_budget`` seconds and extrapolated). The
    first round gets :data:`FIRST_ROUND` of the budget (after the probes), split between the
    sections by :data:`WEIGHTS`; every run gets at least two rotations of its seats and at most
    :data:`MAX_GAMES` games. The skill ladder's search tier is the largest of
    :func:`~meeple.lab.experiments.ladder.default_budgets` whose step gets :data:`SKILL_GAMES`
    games in half the skill share (else the smallest, if it gets 20 games and four rotations
    of the seats), and is left out (with a note) when none does; the search step (or tier)
    then gets half the skill share and the other steps share the rest equally. Before that,
    :data:`EXPLOIT_SHARE` of the budget is set aside for the degenerate-strategy search
    (section 6) and, with a ``target``, :data:`TARGET_SHARE` for the search toward it
    (section 8).

    Args:
        game_name: a registered game; variant: the studied variant (None: the default).
        budget_seconds: the whole study's time (> 0); jobs: workers (0: every core);
        seed: the seed of every run (the variants play the same seeds).
        target: ``--target`` text (:func:`meeple.lab.experiments.target.parse_target`;
            checked here) or None; exploit: search for degenerate strategies.
        vary: the parameters the target's search varies (None: every int, bool and choice
            parameter; checked here).
        params: parameter overrides (``load_game`` keyword arguments, e.g. ``{"deck":
            "my-deck.json"}``) for every game of the study, every variant arm included.
    Returns:
        The :class:`StudyPlan`, each run with its estimate.
    Raises:
        ParameterError, MeepleError: an unknown game or variant, a budget <= 0, jobs < 0 or a
            negative seed.
    """
    if budget_seconds <= 0:
        raise ParameterError(f"budget {budget_seconds} s must be more than zero")
    if jobs < 0 or seed < 0:
        raise ParameterError("jobs and seed must be non-negative")
    began = time.perf_counter()
    params = dict(params or {})
    base = load_game(game_name, variant=variant, **params)
    if target is not None:
        from meeple.lab.experiments.target import parse_target, search_space

        parse_target(target)  # a bad target or parameter: refused before anything is played
        search_space(base, vary)
    cls = type(base)
    workers = max(1, min(resolve_jobs(jobs), os.cpu_count() or 1))
    coop = base.capabilities.cooperative
    probes: dict[tuple[str, int, tuple[str, ...]], float] = {}

    def per_game(game: Game, bots: Sequence[str]) -> float:
        key = (game.variant, game.players, tuple(bots))
        if key not in probes:
            probes[key] = max(1e-4, _probe(game, bots, seed, probe_budget))
        return probes[key]

    # what each section plays, with per-game estimates
    counts = list(range(cls.min_players, cls.max_players + 1))
    fair_bots = fairness_bots(base)
    fair_specs = [(load_game(game_name, variant=base.variant, players=p, **params), fair_bots)
                  for p in counts]
    fair_costs = [per_game(g, b) for g, b in fair_specs]
    tiers = ["random"] + (["heuristic"] if "heuristic" in base.bot_factories() else [])
    others = [v.name for v in cls.variants if v.name != base.variant]
    arm_bots = default_bots(base)
    arm_specs = [(load_game(game_name, variant=v, **params), arm_bots)
                 for v in [base.variant, *others]]
    arm_costs = [per_game(g, b) for g, b in arm_specs]
    weights = dict(WEIGHTS) if others else {"fairness": 0.6, "skill": 0.4}
    probe_cost = time.perf_counter() - began
    exploit_seconds = EXPLOIT_SHARE * budget_seconds if exploit else 0.0
    target_seconds = TARGET_SHARE * budget_seconds if target else 0.0
    first = max(0.0, budget_seconds - probe_cost - exploit_seconds - target_seconds
                - RUN_OVERHEAD * (len(counts) + len(tiers) + 1
                                  + (len(others) + 1 if others else 0))) * FIRST_ROUND
    notes: list[str] = []

    def lineup(upper: str, lower: str) -> list[str]:
        return [upper] if coop else [upper] + [lower] * (base.players - 1)

    # the search tier: the largest default budget whose step gets SKILL_GAMES games in half
    # the skill share, else the smallest if it gets 4 rotations of the seats
    skill_time = first * weights["skill"]
    per_seat = 1 if coop else base.players
    budgets = default_budgets(base)
    smallest = per_game(base, lineup(f"ismcts-{budgets[0]}", tiers[-1]))
    search = None
    for b in sorted(budgets, reverse=True):  # search time grows about linearly with budget
        name = f"ismcts-{b}"
        cost = smallest * b / budgets[0]
        probes[(base.variant, base.players, tuple(lineup(name, tiers[-1])))] = cost
        fits = skill_time / 2 * workers / cost
        if fits >= SKILL_GAMES or (b == budgets[0] and fits >= max(20, 4 * per_seat)):
            search = name
            break
    if search is None:
        notes.append(f"no search tier: a game with ismcts-{budgets[0]} takes about "
                     f"{format_duration(smallest)}, too long for the skill share of the budget "
                     f"({format_duration(skill_time)}); a larger --budget adds it")
    else:
        tiers.append(search)

    runs: list[StudyRun] = []
    # 1+2: fairness and length, equal games at every count
    fair_time = first * weights["fairness"]
    n = fair_time * workers / sum(fair_costs)
    for (game, bots), cost in zip(fair_specs, fair_costs, strict=True):
        games = _round_games(n, game.players, 2 * game.players)
        runs.append(StudyRun(f"fairness-{game.players}p", "fairness",
                             f"{game.players} players, {'/'.join(bots)} in every seat",
                             game.variant, game.players, list(bots), games, seed, cost))
    # 3: skill, an equal share of time per step (or tier)
    if coop:
        specs = [(tier, [tier]) for tier in tiers]
    else:
        specs = [(f"{u} vs {lo}", lineup(u, lo)) for lo, u in zip(tiers, tiers[1:], strict=False)]
    for label, bots in specs:
        cost = per_game(base, bots)
        key = "skill-" + label.replace(" vs ", "-vs-")
        share = skill_time / len(specs)
        if search and len(specs) > 1:  # the search step (tier) gets the half it was sized on
            share = skill_time / 2 if label.startswith(search) else \
                skill_time / 2 / (len(specs) - 1)
        games = _round_games(share * workers / cost, per_seat, 2 * per_seat)
        runs.append(StudyRun(key, "skill", label, base.variant, base.players, bots, games,
                             seed, cost))
    # 4: variants, equal games per arm on the same seeds
    if others:
        n = first * weights["variants"] * workers / sum(arm_costs)
        for (game, bots), cost in zip(arm_specs, arm_costs, strict=True):
            runs.append(StudyRun(f"variant-{game.variant}", "variants", game.variant,
                                 game.variant, game.players, list(bots),
                                 _round_games(n, game.players, 2 * game.players), seed, cost))
    else:
        notes.append(f"{game_name} has no named variant besides {base.variant}: nothing to "
                     "compare")
    for run in runs:
        run.seconds = _cost(run.games, run.per_game, workers) + RUN_OVERHEAD
    plan = StudyPlan(game=base.name, variant=base.variant, default_players=base.players,
                     budget=float(budget_seconds), jobs=jobs, workers=workers, seed=seed,
                     cooperative=coop, tiers=tiers, runs=runs, notes=notes,
                     seconds=sum(r.seconds for r in runs) + exploit_seconds + target_seconds,
                     probe_seconds=time.perf_counter() - began,
                     exploit_seconds=exploit_seconds, target=target,
                     target_seconds=target_seconds, vary=list(vary) if vary else None,
                     params=params)
    if plan.seconds + plan.probe_seconds > budget_seconds:
        notes.append(f"even the fewest games (two rotations of the seats per run) are "
                     f"estimated at {format_duration(plan.seconds)}, over the budget")
    return plan


# --------------------------------------------------------------------------------- run
Progress = Callable[[StudyRun], Callable[[int], None] | None]


def _play(run: StudyRun, plan: StudyPlan, out_dir: Path, jobs: int, resume: bool,
          on_run: Progress | None, backend: str = "process", address: str | None = None
          ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play (or, resuming, finish) one stored run on ``backend`` and summarise it
    (:func:`~meeple.lab.experiments.stored_run.play_stored`; summary.json is written to its
    folder). Returns ``(results, summary)``."""
    game = load_game(plan.game, variant=run.variant, players=run.players, **plan.params)
    where = out_dir / run.key
    progress = on_run(run) if on_run is not None else None
    if progress is not None and resume and (where / RUN_JSON).is_file():
        progress(RunStore.open(where).count())
    return play_stored(game, run.bots, run.games, run.seed, where, jobs, resume=resume,
                       on_progress=progress, backend=backend, address=address)


# ------------------------------------------------------------------------------ the study
def run_study(plan: StudyPlan, out_dir: str | Path, jobs: int | None = None,
              resume: bool = False, on_run: Progress | None = None,
              on_grow: Callable[[list[StudyRun]], None] | None = None, *,
              backend: str = "process", address: str | None = None,
              on_section: Callable[[str, float], None] | None = None) -> dict[str, Any]:
    """Play ``plan`` into ``out_dir`` and answer its questions.

    Every run is stored in ``out_dir/<run key>`` (a :class:`RunStore` folder with its
    ``summary.json``); the plan is saved as ``plan.json`` first (with the growth runs when
    they are added), so ``resume`` finishes an interrupted study without re-planning. After
    the first round, each fairness count and skill step whose verdict is "too few games to
    tell" gets one more run of fresh seeds (round 2), sized to the budget left at the rate the
    first round actually played; its games are pooled with the first run's. Between the two
    rounds the study plays its own sections (6: degenerate strategies; 8: toward the target),
    each in its share of the budget (:func:`_own_sections`).

    Args:
        plan: from :func:`plan_study` (or :func:`load_plan` to resume).
        out_dir: the study's folder (created). jobs: workers (None: the plan's).
        resume: go on with the runs stored in ``out_dir`` (each must be of the same config).
        on_run: called before each run with it; may return a callback taking the number of
            games just finished (progress).
        on_grow: called with the round-2 runs when some are added.
        on_section: called with a section's name and its seconds before sections 6 and 8.
        backend: ``process`` (a local pool) or ``ray`` (Ray tasks;
            :mod:`meeple.lab.run.backends`); address: an existing Ray cluster's address.
            The games, and so the answers, do not depend on the backend.
    Returns:
        The JSON-ready study (``study.json``): ``format``, ``game``, ``variant``, ``seed``,
        ``budget``, ``elapsed_seconds`` (this call), ``play_seconds`` (the runs' play over
        every session), ``games``, ``plan``, ``rows`` (the summary table: question,
        answer, interval, verdict, finding, section), ``sections`` (every name of
        :data:`~meeple.lab.experiments.study_answer.SECTIONS`), ``longest`` (the longest game
        of the default seat count's fairness run: ``dir``, ``index``, ``length``,
        ``command``), ``not_yet``, and ``strategies_detail`` / ``target_detail`` (the whole
        results of sections 6 and 8, when played).
    Raises:
        MeepleError: a stored run of another config when resuming (``StoreError``), an
            unloadable game. KeyboardInterrupt is re-raised after the run's session is marked
            interrupted.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    jobs = plan.jobs if jobs is None else jobs
    saved = load_plan(out) if resume else None
    if saved is not None:  # keep the growth runs an interrupted study had planned
        known = {r.key for r in plan.runs}
        plan.runs += [r for r in saved.runs if r.key not in known]
        plan.grown = plan.grown or saved.grown
    (out / PLAN_JSON).write_text(json.dumps(plan.to_json(), indent=2) + "\n")
    began = time.perf_counter()
    played: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {}
    first = [r for r in plan.runs if r.round == 1]
    for run in first:
        played[run.key] = _play(run, plan, out, jobs, resume, on_run, backend,
                                address)
    round_one = time.perf_counter() - began
    details = _own_sections(plan, out, jobs, resume, on_section)
    grow = [r for r in plan.runs if r.round == 2]
    if not plan.grown:
        planned = sum(r.seconds for r in first)
        grow = _growth(plan, played, time.perf_counter() - began,
                       round_one / planned if planned > 0 else 1.0)
        plan.runs += grow
        plan.grown = True
        (out / PLAN_JSON).write_text(json.dumps(plan.to_json(), indent=2) + "\n")
        if grow and on_grow is not None:
            on_grow(grow)
    for run in grow:
        played[run.key] = _play(run, plan, out, jobs, resume, on_run, backend,
                                address)
    data = answer_study(plan, out, played, time.perf_counter() - began,
                        extra={k: v["entries"] for k, v in details.items()},
                        not_yet=list(NOT_YET))
    data.update({f"{k}_detail": v for k, v in details.items()})
    return data


def _own_sections(plan: StudyPlan, out: Path, jobs: int, resume: bool,
                  on_section: Callable[[str, float], None] | None
                  ) -> dict[str, dict[str, Any]]:
    """Sections 6 and 8, which the study plays itself: the degenerate-strategy search
    (:func:`meeple.lab.experiments.exploit.exploit_section`, against the plan's tiers) and,
    with a target, the search toward it (:func:`meeple.lab.experiments.target.search_target`),
    each within its share of the budget and saved in :data:`SECTION_FILES` (``resume`` reuses
    a saved one)."""
    from meeple.lab.experiments.exploit import exploit_section
    from meeple.lab.experiments.target import search_target

    done: dict[str, dict[str, Any]] = {}
    wanted = [("strategies", plan.exploit_seconds), ("target", plan.target_seconds)]
    for name, seconds in wanted:
        if seconds <= 0:
            continue
        path = out / SECTION_FILES[name]
        if resume and path.is_file():
            done[name] = json.loads(path.read_text())
            continue
        if on_section is not None:
            on_section(name, seconds)
        seed = derive_seed(plan.seed, f"study-{name}", 0) & 0x7FFFFFFF
        if name == "strategies":
            section = exploit_section(plan.game, plan.variant, plan.default_players,
                                      plan.tiers, out, seconds, jobs, seed,
                                      params=plan.params)
        else:
            section = search_target(plan.game, str(plan.target), variant=plan.variant,
                                    budget_seconds=seconds, jobs=jobs, seed=seed,
                                    params=plan.vary, out_dir=out, fixed=plan.params)
        path.write_text(json.dumps(section, indent=2, default=str) + "\n")
        done[name] = section
    return done


def _growth(plan: StudyPlan, played: dict[str, Any], elapsed: float,
            pace: float) -> list[StudyRun]:
    """Round 2: one more run for each undecided fairness count and skill step, sized to the
    budget left after ``elapsed`` seconds at the first round's actual ``pace`` (its time over
    its estimate); none when under 5% of the budget is left."""
    left = plan.budget - plan.probe_seconds - elapsed
    if left < 0.05 * plan.budget:
        return []
    undecided: list[tuple[StudyRun, int]] = []
    for run in plan.runs:
        results, summary = played[run.key]
        if run.section == "fairness":
            ans = fairness_answer(summary, run.players)
            need = ans.get("games_needed") or games_needed(ans["rate"], 1.0)
        elif run.section == "skill" and not plan.cooperative:
            upper, lower = run.label.split(" vs ")
            ans = skill_answer(competitive_step(results, upper, lower, run.players), False,
                               run.players)
            need = ans.get("games_needed") or 0
        else:
            continue
        if not ans["decided"]:
            undecided.append((run, max(0, need - run.games)))
    grow = []
    total = sum(_cost(extra, r.per_game, plan.workers) * max(pace, 0.1) for r, extra in undecided
                if extra)
    scale = min(1.0, left * 0.9 / total) if total > 0 else 0.0
    for run, extra in undecided:
        per = run.players
        games = _round_games(extra * scale, per, 0)
        if games < per:
            continue
        seed = derive_seed(run.seed, "study-grow", 2) & 0x7FFFFFFF
        grow.append(StudyRun(run.key + "-more", run.section, run.label + " (more games)",
                             run.variant, run.players, list(run.bots), games, seed,
                             run.per_game,
                             _cost(games, run.per_game, plan.workers) + RUN_OVERHEAD, round=2))
    return grow
