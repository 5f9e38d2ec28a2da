"""Commands declared once: frozen slotted dataclasses that validate, list and document.

A game declares each command as a subclass of `Command` (a stdlib frozen, slotted
dataclass with a `type` class variable and typed fields), then gathers them in one
`Commands` table. From that single declaration come:

* `parse(json)`: the client's JSON checked against the field types by pydantic (strict,
  unknown fields refused), after the game's `upcast` has rewritten older shapes;
  any fault is a `RuleError` `bad_command` (`unknown_command` for an unknown type);
* `to_json(cmd)` / `json_of(cmd)` / `listing_json(cmds)`: the wire form (tuples as
  lists, a `None` optional field left out, a field marked `Wire(fn)` written by `fn`);
* `schema()`: the JSON schema of one command (a union over the types), for OpenAPI.

The engine builds and lists the dataclasses directly (no pydantic in the hot loop);
pydantic only reads what a client sends.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

import orjson
from pydantic import ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from app.games.base import RuleError

MAX_ID = 64
_NO_CONTROLS = r"^[^\x00-\x1f\x7f-\x9f]*$"
# An id (card, territory, resource...): a short non-empty string without control
# characters (commands are stored as they came; PostgreSQL refuses NUL in JSON text).
Id = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID, pattern=_NO_CONTROLS)]
# A short free text (a trade's note).
Note = Annotated[str, StringConstraints(max_length=200, pattern=_NO_CONTROLS)]
# A bounded integer (an index, a count, a seat).
Int = Annotated[int, Field(ge=-999_999, le=999_999)]
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Command:
    """The base of every command: `type` names it on the wire."""

    type: ClassVar[str] = ""


_C = typing.TypeVar("_C", bound=type[Command])


@typing.dataclass_transform(frozen_default=True)
def command(type_: str) -> Callable[[_C], _C]:
    """Declare a command: `@command("move") class Move(Command): die: Id` is a frozen,
    slotted dataclass whose `type` on the wire is "move"."""

    def declare(cls: _C) -> _C:
        cls.type = type_
        declared: _C = dataclass(frozen=True, slots=True)(cls)  # type: ignore[assignment]
        return declared

    return declare


@dataclass(frozen=True, slots=True)
class Wire:
    """Annotated metadata: how `to_json` writes a field whose engine form is not its
    JSON form (e.g. sorted pairs kept hashable, written as an object)."""

    dump: Callable[[Any], Any]


Upcast = Callable[[dict[str, Any]], dict[str, Any]]
_AS_IS, _LIST, _CUSTOM = 0, 1, 2
_Spec = tuple[tuple[str, int, bool, Callable[[Any], Any] | None], ...]


def _no_upcast(data: dict[str, Any]) -> dict[str, Any]:
    return data


class Commands:
    """A game's command vocabulary (see the module docstring).

    `title`: prefix of the schema's model names ("Karanor" -> "KaranorMove").
    `upcast`: rewrites a stored or client command of an older shape into today's (it
    receives a fresh dict it may change and return); documented per game.
    `nulls`: a field whose default is None is written as `null` when None (the JSON a
    game's clients have always read); without it, such a field is left out.
    """

    CACHE_MAX = 20_000  # each cache emptied past this (the content bounds the values listed)
    LISTINGS_MAX = 4096

    def __init__(
        self,
        title: str,
        classes: Iterable[type[Command]],
        *,
        upcast: Upcast = _no_upcast,
        nulls: bool = False,
    ) -> None:
        self.title = title
        self.nulls = nulls
        self.classes: dict[str, type[Command]] = {c.type: c for c in classes}
        self.upcast = upcast
        self._adapters: dict[str, TypeAdapter[Any]] = {}
        self._specs: dict[type[Command], _Spec] = {}
        self._json: dict[Command, dict[str, Any]] = {}
        self._by_id: dict[int, tuple[Command, dict[str, Any]]] = {}
        self._listings: dict[tuple[int, ...], tuple[list[Command], list[dict[str, Any]]]] = {}

    # --- reading -------------------------------------------------------------------

    def _adapter(self, cls: type[Command]) -> TypeAdapter[Any]:
        found = self._adapters.get(cls.type)
        if found is None:
            # The config lives on the class: pydantic reads `__pydantic_config__` of a
            # stdlib dataclass (strict: no "3" for 3; extra fields refused).
            cls.__pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[attr-defined]
            found = self._adapters[cls.type] = TypeAdapter(cls)
        return found

    def parse(self, data: Any) -> Command:
        """The command `data` (its JSON form, any older shape upcast) describes.

        :raises RuleError: `unknown_command` for an unknown type, `bad_command` for a
            field it does not read, a missing one or one of the wrong type.
        """
        if not isinstance(data, dict):
            raise RuleError("bad_command", "a command is a JSON object with a `type`")
        data = self.upcast(dict(data))
        kind = data.pop("type", None)
        cls = self.classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            shown = kind if not isinstance(kind, str) else _CONTROLS.sub("?", kind)[:MAX_ID]
            raise RuleError("unknown_command", f"unknown command type {shown!r}")
        try:
            raw = orjson.dumps(data)
        except TypeError:  # not JSON (only a Python caller can send that)
            raise RuleError("bad_command", f"{kind}: fields must be JSON values") from None
        try:
            cmd: Command = self._adapter(cls).validate_json(raw)
        except ValidationError as e:
            raise RuleError("bad_command", f"{kind}: {_explain(e)}") from None
        return cmd

    # --- writing -------------------------------------------------------------------

    def _spec(self, cls: type[Command]) -> _Spec:
        hints = typing.get_type_hints(cls, include_extras=True)
        spec = []
        for f in dataclasses.fields(cls):
            how, dump = _AS_IS, None
            wire = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Wire)]
            if wire:
                how, dump = _CUSTOM, wire[0].dump
            elif "tuple" in str(hints[f.name]):
                how = _LIST
            spec.append((f.name, how, f.default is None and not self.nulls, dump))
        out = self._specs[cls] = tuple(spec)
        return out

    def to_json(self, cmd: Command) -> dict[str, Any]:
        """The JSON form of `cmd` (a new dict: the caller may keep or change it)."""
        out: dict[str, Any] = {"type": cmd.type}
        spec = self._specs.get(type(cmd))
        if spec is None:  # not `or`: a command of no fields has an empty (falsy) spec
            spec = self._spec(type(cmd))
        for name, how, none_left_out, dump in spec:
            v = getattr(cmd, name)
            if v is None:
                if none_left_out:
                    continue
            elif how == _LIST:
                v = list(v)
            elif dump is not None:
                v = dump(v)
            out[name] = v
        return out

    def json_of(self, cmd: Command) -> dict[str, Any]:
        """`to_json(cmd)`, shared by every caller: never change the dict. Found by the
        command's identity first (listings reuse interned commands), else by value."""
        hit = self._by_id.get(id(cmd))
        if hit is not None and hit[0] is cmd:
            return hit[1]
        try:
            out = self._json.get(cmd)
        except TypeError:  # a command holding a dict (a trade's bundle): not kept
            return self.to_json(cmd)
        if out is None:
            if len(self._json) >= self.CACHE_MAX:
                self._json.clear()
            out = self._json[cmd] = self.to_json(cmd)
        if len(self._by_id) >= self.CACHE_MAX:
            self._by_id.clear()
        self._by_id[id(cmd)] = (cmd, out)
        return out

    def listing_json(self, cmds: list[Command]) -> list[dict[str, Any]]:
        """`[json_of(c) for c in cmds]`, shared: never change the list or its forms. A
        whole listing is kept by its commands' identities (the entry keeps them alive,
        so a matching key is the same commands)."""
        key = tuple(map(id, cmds))
        hit = self._listings.get(key)
        if hit is not None:
            return hit[1]
        get = self._by_id.get
        out = []
        for cmd in cmds:
            found = get(id(cmd))
            out.append(found[1] if found is not None and found[0] is cmd else self.json_of(cmd))
        if len(self._listings) >= self.LISTINGS_MAX:
            self._listings.clear()
        self._listings[key] = (list(cmds), out)
        return out

    # --- documenting ---------------------------------------------------------------

    @functools.cached_property
    def _schema(self) -> dict[str, Any]:
        defs: dict[str, Any] = {}
        variants = []
        for kind, cls in self.classes.items():
            name = self.title + "".join(part.title() for part in kind.split("_"))
            one = self._adapter(cls).json_schema(ref_template="#/$defs/{model}")
            defs.update(one.pop("$defs", {}))
            one["title"] = name
            one["properties"] = {"type": {"const": kind, "type": "string"}, **one["properties"]}
            one["required"] = ["type", *one.get("required", [])]
            defs[name] = one
            variants.append({"$ref": f"#/$defs/{name}"})
        mapping = {k: v["$ref"] for k, v in zip(self.classes, variants, strict=True)}
        return {
            "oneOf": variants,
            "discriminator": {"propertyName": "type", "mapping": mapping},
            "$defs": defs,
        }

    def schema(self) -> Mapping[str, Any]:
        """The JSON schema of one command (OpenAPI): one object per type, `type` const."""
        return self._schema


def _explain(e: ValidationError) -> str:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "command"
    if first["type"] == "unexpected_keyword_argument":
        return f"unexpected field `{where}`"
    if first["type"] in ("missing", "missing_argument"):
        return f"`{where}` is missing"
    return f"`{where}`: {first['msg']}"
