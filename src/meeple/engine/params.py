"""Declared game parameters and named variants.

A game declares its parameters as :class:`Parameter` values (name, type, default, range or
choices, documentation) and its named variants as :class:`Variant` values (a bundle of parameter
values with a source). ``load_game`` resolves defaults, then the variant, then explicit
arguments, validating each; the lab can later sweep the same parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from meeple.engine.errors import ParameterError


@dataclass(frozen=True, slots=True)
class Parameter:
    """One tunable rule value of a game.

    Args:
        name: identifier used in ``load_game(**params)`` and ``--param name=value``.
        default: value when neither a variant nor the caller sets it; its type (``int``,
            ``bool`` or ``str``) is the parameter's type.
        doc: what the value means, with units and the rule it changes.
        minimum, maximum: inclusive bounds for ``int`` parameters (``None`` = unbounded).
        choices: the allowed values for ``str`` parameters (empty = any string).
        file: the value is the path of a content file (a deck, a card list) read when the game
            loads, ``""`` for the packaged one. Whoever loads the game chooses the file: the
            command line and the lab take a path, while ``meeple serve`` never takes one from
            a client (it offers content by name; docs/server.md, "Content").
    """

    name: str
    default: int | bool | str
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    file: bool = False

    @property
    def kind(self) -> type:
        """The Python type of the value: ``int``, ``bool`` or ``str``."""
        return type(self.default)

    def allowed(self) -> str:
        """Human-readable description of the allowed values, for error messages and help."""
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            lo = "-inf" if self.minimum is None else str(self.minimum)
            hi = "inf" if self.maximum is None else str(self.maximum)
            return f"an integer in {lo}..{hi}"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.file:
            return "the path of a JSON content file, or empty for the packaged one"
        return "any text"

    def schema(self) -> dict[str, Any]:
        """This parameter as JSON for a form or a client: ``name``, ``type`` (``"int"``,
        ``"bool"``, ``"str"`` or ``"file"``), ``default``, ``doc``, ``minimum`` and ``maximum``
        (``int``; None when unbounded), ``choices`` (``str``; empty: any text)."""
        kind = "file" if self.file else self.kind.__name__
        return {"name": self.name, "type": kind, "default": self.default, "doc": self.doc,
                "minimum": self.minimum, "maximum": self.maximum, "choices": list(self.choices)}

    def validate(self, value: Any) -> int | bool | str:
        """Coerce ``value`` (a Python value or command-line text) to this parameter's type.

        Returns:
            The validated value.
        Raises:
            ParameterError: naming the parameter and its allowed values when ``value`` does not fit.
        """
        kind = self.kind
        try:
            if kind is bool:
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low in ("1", "true", "yes", "on"):
                        value = True
                    elif low in ("0", "false", "no", "off"):
                        value = False
                    else:
                        raise ValueError(value)
                elif not isinstance(value, bool):
                    raise ValueError(value)
            elif kind is int:
                if isinstance(value, bool):
                    raise ValueError(value)
                if isinstance(value, str):
                    value = int(value.strip())
                elif not isinstance(value, int):
                    raise ValueError(value)
                if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum
                ):
                    raise ValueError(value)
            else:
                if not isinstance(value, str):
                    raise ValueError(value)
                if self.choices and value not in self.choices:
                    raise ValueError(value)
        except ValueError:
            raise ParameterError(
                f"parameter {self.name!r} = {value!r} is not allowed: expected {self.allowed()}"
            ) from None
        return value


@dataclass(frozen=True, slots=True)
class Variant:
    """A named bundle of parameter values, e.g. a designer's later rule set.

    Args:
        name: the variant's identifier (``load_game(..., variant=name)``).
        description: one line on what changes.
        params: parameter overrides applied on top of the defaults.
        source: where the values come from (rule document, playtest log, decision id).
        aliases: other names accepted for this variant.
    """

    name: str
    description: str
    params: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    aliases: tuple[str, ...] = ()


def resolve_parameters(
    parameters: tuple[Parameter, ...],
    variant: Variant,
    overrides: Mapping[str, Any],
) -> Mapping[str, Any]:
    """Merge defaults, then the variant, then ``overrides``; validate every value.

    Returns:
        A read-only mapping from every declared parameter name to its value.
    Raises:
        ParameterError: for an unknown name (listing the known ones) or a value out of range.
    """
    by_name = {p.name: p for p in parameters}
    values = {p.name: p.default for p in parameters}
    for source, mapping in (("variant " + variant.name, variant.params), ("call", overrides)):
        for key, value in mapping.items():
            if key not in by_name:
                known = ", ".join(sorted(by_name)) or "none"
                raise ParameterError(
                    f"unknown parameter {key!r} (from the {source}); known parameters: {known}"
                )
            values[key] = by_name[key].validate(value)
    return MappingProxyType(values)
