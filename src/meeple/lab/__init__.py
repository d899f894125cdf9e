"""The playtest lab: run many bot games of a design and report what they say about it.

Four sub-packages, one job each (imports go down this list, never up; ``tests/test_layout.py``
checks it):

* :mod:`meeple.lab.run`: playing games and keeping records (the runner, its backends, the
  Parquet store, imported records, the run-time estimate);
* :mod:`meeple.lab.analysis`: turning per-game results into statistics, diagnostics and traces
  (pure data in, JSON-ready dicts out);
* :mod:`meeple.lab.experiments`: the drivers that plan runs and call the two above (the skill
  ladder, variant comparison, parameter sweeps);
* :mod:`meeple.lab.pages`: the terminal tables, plots and HTML pages written from the summaries.
"""
