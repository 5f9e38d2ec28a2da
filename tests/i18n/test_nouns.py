"""Names with their article, and a pack's words in another language (issue 27).

`app.games.i18n.form` (the server's texts) and `form` of static/js/i18n.js (the
browser's) give the same French for every article and form; `kit.content.translate`
changes words only."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.games import i18n
from app.games.kit.content import ContentError, translate

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("Marché noir", "le"),
    ("Commande de la Reine", "la"),
    ("Atelier", "l'"),
    ("Dunes Rouges", "les"),
    ("Kien", ""),
    ("Orth", ""),
]
WANT = {
    "au": ["au Marché noir", "à la Commande de la Reine", "à l'Atelier", "aux Dunes Rouges",
           "à Kien", "à Orth"],
    "du": ["du Marché noir", "de la Commande de la Reine", "de l'Atelier", "des Dunes Rouges",
           "de Kien", "d'Orth"],
    "le": ["le Marché noir", "la Commande de la Reine", "l'Atelier", "les Dunes Rouges",
           "Kien", "Orth"],
    # "On attend {who:que} …": a name elides "que" ("qu'Orth"), as a person's does ("qu'Anne")
    "que": ["que le Marché noir", "que la Commande de la Reine", "que l'Atelier",
            "que les Dunes Rouges", "que Kien", "qu'Orth"],
    "Le": ["Le Marché noir", "La Commande de la Reine", "L'Atelier", "Les Dunes Rouges",
           "Kien", "Orth"],
    "": ["Marché noir", "Commande de la Reine", "Atelier", "Dunes Rouges", "Kien", "Orth"],
}  # fmt: skip


def test_a_name_takes_the_form_its_message_asks_for() -> None:
    for spec, want in WANT.items():
        assert [i18n.form(n, a, spec) for n, a in CASES] == want, spec
    tr = i18n.Translator("fr", {"You moved to {place}.": "Vous êtes allé {place:au}."})
    said = tr.gettext("You moved to {place}.", place=i18n.Noun("Dunes Rouges", "les"))
    assert said == "Vous êtes allé aux Dunes Rouges."
    # A plain string is a name without an article; English keeps the bare name.
    assert tr.gettext("You moved to {place}.", place="Kien") == "Vous êtes allé à Kien."
    assert i18n.Translator("en", {}).gettext("You moved to {place}.", place="Kien") == (
        "You moved to Kien."
    )


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_browser_gives_the_same_forms() -> None:
    script = f"""
      globalThis.document = {{ documentElement: {{ lang: "fr" }} }};
      const m = await import({json.dumps((ROOT / "static/js/i18n.js").as_uri())});
      const cases = {json.dumps(CASES)};
      const out = {{}};
      for (const spec of {json.dumps(list(WANT))}) out[spec] = cases.map(([n, a]) => m.form(n, a, spec));
      m.addMessages({{"Move to {{place}}": "Aller {{place:au}}"}});
      out.message = m.t("Move to {{place}}", {{ place: m.noun("Île aux Paons", "l'") }});
      out.untranslated = m.noun("Grand Bazar", "Great Bazaar").article;
      process.stdout.write(JSON.stringify(out));
    """
    node = shutil.which("node")
    assert node
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    got = json.loads(done.stdout)
    assert got.pop("message") == "Aller à l'Île aux Paons"
    assert got.pop("untranslated") == ""  # an article not translated yet: none
    assert got == WANT


def test_a_translation_changes_words_only() -> None:
    english = [{"id": "inn", "name": "Inn", "cost": {"gold": 3}, "bonus": {"name": "Stables"}}]
    french = translate(english, {"inn": {"name": "Auberge", "bonus": {"name": "Écuries"}}})
    assert french == [
        {"id": "inn", "name": "Auberge", "cost": {"gold": 3}, "bonus": {"name": "Écuries"}}
    ]
    assert english[0]["name"] == "Inn"  # the English is left as it was
    for bad in ({"cost": {"gold": 1}}, {"name": 3}, {"nickname": "x"}, {"bonus": {"cost": 1}}):
        with pytest.raises(ContentError):
            translate(english, {"inn": bad})
