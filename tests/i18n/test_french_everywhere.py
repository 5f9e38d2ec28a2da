"""No English left in French (issue 27): every text of both games' catalogues (every
card, tile, place, person, their flavour and rules text) and every log line of seeded
bot games, rendered in French, is checked against its English.

A catalogue check, not a sample: the card texts come from `catalogue("fr")` (the packs'
locale/fr.yaml and the .po files), the log lines from the games' own words.js run in
Node on every event of whole games (the browser's code, static/js/i18n.js included),
read by the acting seat ("Vous...") and by another ("Ana...").

A French text is English left when it equals its English (unless it is only a proper
noun or a number), when it holds an English word that its English text holds too
("la quête Mère Lunette's Kiln": "Kiln"), or an English grammar word ("the", "'s").
Words the two languages share (proper nouns, "bonus"...) are in `SAME`, reviewed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.darkroad.game import GAME as DARKROAD
from app.games import i18n
from app.karanor.game import GAME as KARANOR

ROOT = Path(__file__).resolve().parents[2]
RENDER = Path(__file__).with_name("render_log.mjs")
NODE = shutil.which("node")
PLAYERS = ("Ana", "Bo", "Cy")
GAMES = {"karanor": KARANOR, "darkroad": DARKROAD}
SEEDS = {"karanor": (1, 2), "darkroad": (1, 2)}

# Catalogue fields that are words for people (ids, kinds and numbers are not).
TEXT_KEYS = frozenset(
    {"name", "flavour", "text", "effect", "story", "title", "options", "immediate"}
)

# Words the same in both languages: proper nouns of the packs and of the tests' players,
# and words French spells as English does. Reviewed: nothing here is an English word a
# French reader would stumble on.
SAME = frozenset(
    str.split(
        """
    ana bo cy
    karanor kien valbrume hautegarde velmar perlance orsenne port féral karn orth
    salanche unisson yurg yin lumi otho yedl threy brembizánt cosimo faucon
    phare noir landes brume col vents pic gris bois lune mines forêt cendre clairière
    blanche tour mages lac miroir vergers aube falaises blanches trois lunes écluse
    argent val fleuri filatures gué roi côte vignes combe cerfs champs lin sylve
    ancienne cité marais salants vieux cimetière dunes rouges gouffre azur île paons
    brumes
    mère lunette corvin brûlé dame ysolde fleurine mirren gaspard cornebois brunehilde
    perrine aubépine maître oriel ondine vasque capitaine arnaut comtesse violaine tobie
    salin sergent mathurin elia ventresque anselme greffe katia trouvor blaise léonce
    séraphine quentin
    aldric brisa dagna elowen fennick gisla hamund ilse jory kestra lorcan maelis nesko
    orla pell quenna rusk sabeth tamsin ulric vessa wendel xanthe yorick zila arn
    bettany cale delphine edda falk greer hollis ingram juno kell liesl marrow nim oswin
    perrin rhosyn sigrun thorne una varro wynne pip
    bonus action actions instrument instruments potion potions excursions pv
    dragon quartz fortune lynx mule page grand prestige tunnel glacier passage festival
    mine type oracle point
    archives arts atlas badge banquet cousins fine forge fruit gala guide horizon horoscope
    loupe mage nobles pamphlets persuasive pile plan portraits prince profit provisions
    questions rats respect robes route royal scribes secret secrets signature six soprano
    statue surplus table tables troupe villa village villas voyage final
    """
    )
)
GRAMMAR = re.compile(
    r"\b(the|of|and|you|your|with|from|this|that|their|into|its|is|are|has|have)\b|\w's\b",
    re.IGNORECASE,
)
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _proper_nouns() -> frozenset[str]:
    """The words of Karanor's places and people, French in both languages (the English
    pack names them in French: "Ruines d'Orth", "Combe aux Cerfs", "Mère Lunette")."""
    c = KARANOR.catalogue("en")
    names = [t["name"] for t in c["map"]["territories"]]
    names += [i["name"] for i in c["catalogue"]["inhabitants"].values()]
    return frozenset(w.lower() for n in names for w in WORD.findall(n))


def english_left(en: str, fr: str) -> str | None:
    """Why `fr` is not French (None: it is)."""
    fr_words = {w.lower() for w in WORD.findall(fr) if len(w) > 2}  # "l'", "d'", "s'en"
    en_words = {w.lower() for w in WORD.findall(en) if len(w) > 2}
    if m := GRAMMAR.search(fr):
        return f"English grammar word {m.group(0)!r}"
    shared = sorted((fr_words & en_words) - SAME - PROPER)
    if shared:
        return f"English words {shared}"
    if fr == en and fr_words - SAME - PROPER:
        return "the same as the English"
    return None


def _texts(en: Any, fr: Any, where: str, key: str | None = None) -> list[tuple[str, str, str]]:
    """The (where, English, French) texts of two catalogues, walked side by side."""
    out: list[tuple[str, str, str]] = []
    if isinstance(en, dict):
        for k, v in en.items():
            if k in ("messages", "id") or (k not in TEXT_KEYS and not isinstance(v, dict | list)):
                continue
            out += _texts(v, fr[k], f"{where}.{k}", k)
    elif isinstance(en, list):
        for i, (a, b) in enumerate(zip(en, fr, strict=True)):
            out += _texts(a, b, f"{where}[{i}]", key)
    elif isinstance(en, str) and key in TEXT_KEYS and en:
        out.append((where, en, fr))
    return out


PROPER = _proper_nouns()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_card_and_name_of_the_catalogue_is_french(game: str) -> None:
    g = GAMES[game]
    en, fr = g.catalogue("en"), g.catalogue("fr")
    texts = _texts({k: v for k, v in en.items()}, fr, game)
    assert len(texts) > 300, len(texts)
    bad = [f"{w}: {f!r} ({why})" for w, e, f in texts if (why := english_left(e, f))]
    assert not bad, "\n".join(bad)


def test_the_game_titles_are_french() -> None:
    from app.games import base

    assert base.titles(KARANOR)["fr"] == "Marchands de Karanor"
    assert base.titles(DARKROAD)["fr"] == "Marchands de la Route sombre"
    assert base.titles(KARANOR)["en"] == "Merchants of Karanor"


def _trim(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """What the log's words read of a view: the seats' names and places, the road's event."""
    board = view.get("board") or {}
    return {
        "seat": seat,
        "players": [
            {k: p.get(k) for k in ("seat", "name", "position")} for p in view.get("players", [])
        ],
        "board": {"travel": board.get("travel")} if isinstance(board, dict) else {},
    }


def record(game: str, seed: int) -> list[dict[str, Any]]:
    """A whole game between greedy bots: after each command, the events as the acting
    seat reads them and as another seat does, with the view they are read against."""
    g = GAMES[game]
    s = g.new_game(g.normalise_options({}), seed, list(PLAYERS))
    bots = [g.bot("greedy", seed * 10 + i) for i in range(len(PLAYERS))]
    steps: list[dict[str, Any]] = []

    def on_command(s: Any, seat: int, cmd: Any, events: Any) -> None:
        view = g.view(s, seat, g.public_part(s))
        other = (seat + 1) % len(PLAYERS)
        for reader in (seat, other):
            steps.append(
                {"view": _trim(view, reader), "events": g.events_for(list(events), reader)}
            )

    g.play(s, bots, max_rounds=99, on_command=on_command)
    assert g.is_over(s), f"{game} seed {seed} did not finish"
    return steps


def render(game: str, lang: str, steps: list[dict[str, Any]]) -> list[list[str]]:
    g = GAMES[game]
    content = g.catalogue(lang)
    folder = g.locale
    assert NODE and folder
    payload = {
        "game": game,
        "lang": lang,
        "messages": {**i18n.messages(ROOT / "app" / "locale", lang), **content["messages"]},
        "content": {k: v for k, v in content.items() if k != "messages"},
        "steps": steps,
    }
    done = subprocess.run(
        [NODE, str(RENDER)], input=json.dumps(payload), capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(NODE is None, reason="the log's words are the browser's JavaScript: needs node")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_log_line_of_seeded_games_is_french(game: str) -> None:
    steps = [step for seed in SEEDS[game] for step in record(game, seed)]
    en, fr = render(game, "en", steps), render(game, "fr", steps)
    seen: dict[str, tuple[str, str]] = {}
    for a, b in zip(en, fr, strict=True):
        assert len(a) == len(b), (a, b)
        for e_line, f_line in zip(a, b, strict=True):
            seen.setdefault(f_line, (e_line, f_line))
    kinds = {e["type"] for step in steps for e in step["events"]}
    assert len(seen) > 200 and len(kinds) > 20, (len(seen), sorted(kinds))
    bad = [f"{f!r} <- {e!r} ({why})" for e, f in seen.values() if (why := english_left(e, f))]
    assert not bad, f"{len(bad)} of {len(seen)} lines:\n" + "\n".join(bad[:80])
