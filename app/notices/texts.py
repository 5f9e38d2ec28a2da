"""A notice's words, in the seat's language (the platform's catalogue, app/locale):
one line per thing that happened, a title naming the game, the room's link.

The kinds are the platform's own, naming no game: `turn` (the game waits for you),
`offer` and `join` (a game's `invitations` hook: someone asks you to answer, or to come
along), `over`, `rematch`, `timeout` (you ran out of time), `reminder` (a quarter of the
turn is left)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime

from app.games import i18n
from app.paths import locale_dir

KINDS = ("turn", "offer", "join", "over", "rematch", "timeout", "reminder")


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing that happened to one seat of a room."""

    kind: str  # one of KINDS
    code: str  # the room whose link the notice carries
    game: str  # the game's title, for people
    at: float | None = None  # the reminder's deadline (epoch seconds)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when(at: float, lang: str, time_zone: str) -> str:
    """A deadline as a date and time in the seat's time zone and language."""
    moment = datetime.fromtimestamp(at, UTC)
    return format_datetime(moment, "EEE d MMM HH:mm", tzinfo=zone(time_zone), locale=lang)


def line(fact: Fact, lang: str, time_zone: str) -> str:
    tr = i18n.translator(locale_dir(), lang)
    _ = tr.gettext
    if fact.kind == "turn":
        return _("The game waits for you.")
    if fact.kind == "offer":
        return _("An offer is made to you.")
    if fact.kind == "join":
        return _("You are asked whether you join in.")
    if fact.kind == "over":
        return _("The game is over.")
    if fact.kind == "rematch":
        return _("A rematch is open: play again?")
    if fact.kind == "timeout":
        return _("You ran out of time: a bot plays for you until you return.")
    if fact.kind == "reminder" and fact.at is not None:
        return _("A quarter of your turn is left: play before {time}.",
                 time=when(fact.at, tr.lang, time_zone))  # fmt: skip
    return _("Something happened in your game.")


@dataclass(frozen=True, slots=True)
class Notice:
    """What one device is sent: a title, one line per fact, and the room's link."""

    title: str
    body: str
    path: str  # the room's link, from the site's root
    tag: str  # one notice per room on the device: a newer one replaces it


def compose(facts: list[Fact], lang: str, time_zone: str) -> Notice:
    """One notice for the facts of one room (several arrived together: one notice)."""
    first = facts[-1]
    lines: list[str] = []
    for fact in facts:
        text = line(fact, lang, time_zone)
        if text not in lines:
            lines.append(text)
    return Notice(first.game, "\n".join(lines), f"/r/{first.code}", first.code)
