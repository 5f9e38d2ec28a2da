"""Content packs: the loader's plumbing every game shares.

A game's content is read from YAML files validated by pydantic models; a pack is
loaded once per process. `Packs(load)` keeps the packs a game knows by name: the
game's own (through its cached `load`) and any registered from elsewhere (a test's
pack). `read_yaml` and `validate` turn every fault into a `ContentError` naming the
file and the entry.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

C = TypeVar("C")
M = TypeVar("M", bound=BaseModel)


class ContentError(ValueError):
    """A content pack is broken: the message names the file and the entry."""


class Packs(Generic[C]):
    """The content packs of one game by name: registered ones first, else `load(name)`
    (which the game caches)."""

    def __init__(self, load: Callable[[str], C], name_of: Callable[[C], str]) -> None:
        self.load = load
        self.name_of = name_of
        self._registered: dict[str, C] = {}
        self._known: dict[str, C] = {}  # every pack asked for: one dict look-up a command

    def register(self, content: C) -> None:
        """Make a pack loaded from elsewhere (a test's folder) known by its name."""
        self._registered[self.name_of(content)] = content
        self._known[self.name_of(content)] = content

    def of(self, name: str) -> C:
        found = self._known.get(name)
        if found is None:
            found = self._registered.get(name)
            if found is None:
                found = self.load(name)
            self._known[name] = found
        return found

    def adopt(self, content: C | str) -> C:
        """The pack `content` names, or a pack loaded elsewhere (a test's), registered."""
        if isinstance(content, str):
            return self.of(content)
        self.register(content)
        return content


def read_yaml(path: Path) -> Any:
    """The YAML at `path`. :raises ContentError: missing or not valid YAML."""
    try:
        with path.open(encoding="utf-8") as f:
            return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except FileNotFoundError:
        raise ContentError(f"{path}: file missing") from None
    except yaml.YAMLError as e:
        raise ContentError(f"{path}: not valid YAML: {e}") from None


def validate(model: type[M], data: Any, where: str) -> M:
    """`model` read from `data`. :raises ContentError: `where` and the first fault."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        more = f" ({len(e.errors())} errors)" if len(e.errors()) > 1 else ""
        raise ContentError(f"{where}: {at}: {first['msg']}{more}") from None


# --- a pack in another language --------------------------------------------------------
#
# A pack is written in English. Its texts in another language live beside it, in
# `<pack>/locale/<lang>.yaml`: a mapping of entry id (the `id` of a card, a tile, a
# territory, a villa...) to the fields that language rewrites, shaped as in the pack
# (a nested mapping field by field, a list item by item):
#
#     the_cemetery_1:
#       name: Le Cimetière 1/2
#       flavour: "Blaise le fossoyeur jure que ..."
#       complete: [{label: "Partager une bouteille avec Blaise"}]
#     popular_inn:
#       name: Auberge populaire
#       article: "l'"              # how a sentence names it: le | la | l' | les
#       bonus: {name: Écuries}
#
# Only words are rewritten: `translate` refuses a number, an id or any field the
# English entry has not (a translation cannot change the rules). `article` is not a
# field of the pack: `articles` collects it for the sentences (app.games.i18n.Noun).

TEXT_FIELDS = frozenset(
    {"name", "flavour", "label", "story", "text", "title", "complete", "immediate", "bonus"}
    | {"villa"}
)
ARTICLES = ("le", "la", "l'", "les", "")


def read_texts(pack: Path, lang: str) -> dict[str, dict[str, Any]]:
    """The texts of the pack folder `pack` in `lang` (`pack/locale/<lang>.yaml`), by entry
    id; empty when the pack has none in that language (English, the source)."""
    path = pack / "locale" / f"{lang}.yaml"
    if not path.is_file():
        return {}
    data = read_yaml(path) or {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ContentError(f"{path}: expected a mapping of entry id to its fields")
    for ident, fields in data.items():
        article = fields.get("article", "")
        if article not in ARTICLES:
            raise ContentError(f"{path}: entry {ident}: article {article!r} not in {ARTICLES}")
    return data


def articles(texts: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each entry's article in the language of `texts` (entries without one: none)."""
    return {ident: str(f["article"]) for ident, f in texts.items() if f.get("article")}


def translate(data: Any, texts: dict[str, dict[str, Any]], where: str = "") -> Any:
    """`data` (a pack file as read) with `texts` laid over every entry whose `id` they
    name. :raises ContentError: a translation that would change more than words."""
    if not texts:
        return data
    if isinstance(data, list):
        return [translate(x, texts, where) for x in data]
    if not isinstance(data, dict):
        return data
    out = {k: translate(v, texts, where) for k, v in data.items()}
    ident = data.get("id")
    if isinstance(ident, str) and ident in texts:
        fields = {k: v for k, v in texts[ident].items() if k != "article"}
        out = _lay(out, fields, f"{where}entry {ident}")
    return out


def _lay(english: Any, other: Any, where: str) -> Any:
    if isinstance(other, dict):
        if not isinstance(english, dict):
            raise ContentError(f"{where}: a mapping where the pack has {type(english).__name__}")
        out = dict(english)
        for k, v in other.items():
            if k not in english or k not in TEXT_FIELDS:
                raise ContentError(f"{where}: {k}: not a text of this entry")
            out[k] = v if isinstance(v, str) else _lay(english[k], v, f"{where}.{k}")
        return out
    if isinstance(other, list):
        if not isinstance(english, list) or len(other) != len(english):
            raise ContentError(f"{where}: {len(other)} items where the pack has another count")
        pairs = enumerate(zip(english, other, strict=True))
        return [_lay(e, o, f"{where}[{i}]") for i, (e, o) in pairs]
    if not isinstance(other, str) or not isinstance(english, str):
        raise ContentError(f"{where}: only texts can be translated")
    return other


def marked(text: str) -> str:
    """Marks a message for extraction (scripts/i18n.py reads `_("...")`: a game imports
    this as `_`); it is translated where it is shown, by the seat's translator."""
    return text
