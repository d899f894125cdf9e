"""Playing bot games and keeping their records: the lab's only package that plays games.

* :mod:`~meeple.lab.run.runner`: a playtest's games (seat rotation, per-game seeds, chunks
  mapped over a backend, results stored as they finish, ``--resume``);
* :mod:`~meeple.lab.run.backends`: where the work runs (this process, a process pool, Ray);
* :mod:`~meeple.lab.run.store`: the stored run (Parquet parts under ``DIR/records/``,
  ``DIR/run.json``, DuckDB reads);
* :mod:`~meeple.lab.run.imports`: games played elsewhere (server, record files) replayed,
  checked and stored as a run;
* :mod:`~meeple.lab.run.estimate`: how long a run will take, from timed probe games.

This package imports from :mod:`meeple.lab.analysis` only the per-game trace that watches each
game as it is played, and nothing from :mod:`meeple.lab.experiments` or :mod:`meeple.lab.pages`.
"""
