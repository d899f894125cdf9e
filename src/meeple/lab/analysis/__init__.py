"""Analysis of played games: per-game results in, JSON-ready statistics out; nothing is played.

* :mod:`~meeple.lab.analysis.stats`: the playtest summary (seat balance, bot edge over the fair
  share, draws, truncation, length, scores);
* :mod:`~meeple.lab.analysis.rates`: the interval helpers every summary shares (Wilson,
  Newcombe, a sole winner's margin) and the confidence and significance levels;
* :mod:`~meeple.lab.analysis.precision`: how many games a verdict needs ("too few games to tell");
* :mod:`~meeple.lab.analysis.coop_stats`: the cooperative part of a summary (team win rate, loss
  causes, survival);
* :mod:`~meeple.lab.analysis.diagnostics`: the designer's diagnostics (first-seat advantage,
  margins, lead changes, per-card and per-action win rates, eliminations);
* :mod:`~meeple.lab.analysis.trace`: the per-game trace that watches a game's steps and gives
  the fields the diagnostics read;
* :mod:`~meeple.lab.analysis.people`: human playtests from the web server beside bot games;
* :mod:`~meeple.lab.analysis.verdicts`: the study's one-line verdicts per question;
* :mod:`~meeple.lab.analysis.against`: what changed against an earlier study (``--against``);
* :mod:`~meeple.lab.analysis.target_metrics`: the metrics a target names, with their intervals;
* :mod:`~meeple.lab.analysis.target_spec`: a target's text parsed into clauses, and how far a
  setting is from it.

Imports nothing from :mod:`meeple.lab.run`, :mod:`meeple.lab.experiments` or
:mod:`meeple.lab.pages`.
"""
