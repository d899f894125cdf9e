"""The playtest lab: run many bot games of a design and report what they say about it.

``stats`` turns per-game results into a JSON-ready summary (seat balance, bot edge over the fair
share, draw and truncation rates, game length and score spread); ``report`` renders that summary
as terminal tables, PNG plots and a self-contained HTML page.
"""
