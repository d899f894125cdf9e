"""``python -m meeple.cli``: the same as the ``meeple`` command."""

from meeple.cli import main

main()
