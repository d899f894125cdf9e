"""The pages the lab writes: terminal tables, PNG plots and self-contained HTML, from summaries.

* :mod:`~meeple.lab.pages.render`: shared pieces (palette, number formatting, figure helpers,
  the HTML table, the style sheet);
* :mod:`~meeple.lab.pages.report`: the playtest report (terminal table, ``report.html``);
* :mod:`~meeple.lab.pages.report_plots`: the playtest report's plots (seat and bot win rates,
  length, scores, a co-op's loss causes);
* :mod:`~meeple.lab.pages.report_extra`: the report's designer sections (diagnostics, imported
  games, games worth watching);
* :mod:`~meeple.lab.pages.people_page`: the report's "People" section;
* :mod:`~meeple.lab.pages.ladder_report`: the ladder's table, plot, page and report section;
* :mod:`~meeple.lab.pages.compare_page`: the comparison's ``compare.json`` and ``compare.html``;
* :mod:`~meeple.lab.pages.sweep_page`: the sweep's ``sweep.json``, ``sweep.html`` and plots;
* :mod:`~meeple.lab.pages.study_page`: the study's ``study.json``, ``study.html`` and summary
  table;
* :mod:`~meeple.lab.pages.exploit_page`: the study page's degenerate-strategies section;
* :mod:`~meeple.lab.pages.target_page`: the search toward a target (its page, plot, and the
  study page's section).

Pages read the dicts made by :mod:`meeple.lab.analysis` and :mod:`meeple.lab.experiments` (and
may call analysis helpers on the results they are given); they import nothing from
:mod:`meeple.lab.run` or :mod:`meeple.lab.experiments`, so rendering never plays a game.
"""
