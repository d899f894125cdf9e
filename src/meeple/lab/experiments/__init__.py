"""Experiments: drivers that plan several runs, play them and analyse them to answer one question.

* :mod:`~meeple.lab.experiments.ladder`: how much playing better pays (bot tiers, each against
  the one below);
* :mod:`~meeple.lab.experiments.compare`: rule variants or parameter sets side by side on the
  same seeds, every difference tested;
* :mod:`~meeple.lab.experiments.sweep`: every point of a parameter grid, ranked by targets;
* :mod:`~meeple.lab.experiments.study`: the whole study of a design (seat fairness at every
  seat count, length, skill depth, variants, ...) planned to a time budget and played;
* :mod:`~meeple.lab.experiments.study_answer`: the study's answers and verdicts from the runs
  it played (its ``study.json``);
* :mod:`~meeple.lab.experiments.exploit`: the study's degenerate strategies (scripted policies
  and heuristic weights searched by an optimiser, the best confirmed against every tier);
* :mod:`~meeple.lab.experiments.target`: the study's search toward ``--target`` (the game's
  parameters searched by an optimiser, the settings that meet it confirmed);
* :mod:`~meeple.lab.experiments.stored_run`: one stored, summarised run of a loaded game (the
  confirmation runs of ``exploit`` and ``target``).

Why a package of its own and not part of :mod:`meeple.lab.run`: a driver plans runs (stages,
line-ups, seeds) and then reads them through :mod:`meeple.lab.analysis` (``summarize``, Holm,
Newcombe intervals); it sits above both. Keeping it out of ``run`` leaves ``run`` the one job
of playing games and keeping records, and gives the coming study (which plans runs and calls
``run`` and ``analysis`` the same way) its place beside these three. Drivers may import
:mod:`meeple.lab.run` and :mod:`meeple.lab.analysis`, never :mod:`meeple.lab.pages`: each
returns a JSON-ready dict that its page in :mod:`meeple.lab.pages` renders.
"""
