"""One sub-package per game design. Each registers itself when imported; the engine finds them
by walking this package's path, so adding a game needs no edit here."""
