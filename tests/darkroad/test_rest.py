"""Step 4, Rest: the upkeep of the kingdom board (companion row, travel die, inn, courtyard),
and how a caravan leader takes a companion from the row or the deck top."""

from __future__ import annotations

from app.darkroad import actions as A
from app.darkroad import engine as E
from app.darkroad import scenario
from app.darkroad.state import State
from tests.darkroad.helpers import act, at_activate, started


def _travel(s: State, fortune: A.Fortune) -> None:
    """The caravan's choices until none is left: no visit, goods stored where they fit,
    `fortune` as the good fortune, the first legal action for anything else."""
    while s.pending:
        who, kind = s.pending[0]["seat"], s.pending[0]["kind"]
        if kind == "visit":
            act(s, who, A.Visit(None))
        elif kind == "store":
            act(s, who, A.PlaceGood())
        elif kind == "fortune":
            act(s, who, fortune)
        else:
            act(s, who, E.legal_actions(s, who)[0])


def _lead(s: State, companion: int) -> None:
    """Seat 0 (alone) leads a dark-road caravan with row slot `companion` (-1: the deck top)
    and sees it through (no visit, good fortune C) to the activate step."""
    at_activate(s, 0, 3)
    scenario.set_player(s, 0, steeds=["velvet"])  # no steed changes the caravan
    act(s, 0, A.Caravan(companion, "dark_road", "farglen"))
    _travel(s, A.Fortune("coins"))
    assert s.travel is None and s.turn_seat == 0


def test_a_row_companion_leaves_its_slot_empty_until_the_rest() -> None:
    """Outlying Towns, Step 1: "Choose one available companion and place it next to your
    wagon board"; "If you chose the companion with the extra travel die, add that die too"
    (the die goes with the card into the pool: the slot is empty, without a die, until Rest)."""
    s = started(1)
    row, deck_top = list(s.row), s.decks["companions"][0]
    _lead(s, 2)
    p = s.players[0]
    assert p.companions[0]["id"] == row[2]
    assert s.row == [row[0], row[1], None] and s.row_die == [False, False, False]
    assert s.decks["companions"][0] == deck_top


def test_the_deck_top_companion_leaves_the_row_alone() -> None:
    """Outlying Towns, Step 1: "You may choose the top card of the companion deck instead";
    Rest: the row is slid and refilled only "If any companion cards were taken this turn" (from
    the row), so it stays as it was, the travel die still on the farthest card."""
    s = started(1)
    row, deck = list(s.row), list(s.decks["companions"])
    _lead(s, -1)
    assert s.players[0].companions[0]["id"] == deck[0]
    assert s.decks["companions"] == deck[1:]
    act(s, 0, A.EndTurn())
    assert s.row == row and s.row_die == [False, False, True]
    assert s.decks["companions"] == deck[1:]


def test_rest_slides_the_row_away_from_the_deck_and_refills_it() -> None:
    """Step 4, Rest: "slide all of the other companion cards toward the end of the row, then
    reveal new cards from the deck to refill the row to 3 cards" (slot 0 lies next to the deck,
    slot 2 is the farthest). The middle card taken: the nearer card slides into its place, the
    deck's top card fills the slot by the deck, the farthest card keeps its travel die."""
    s = started(1)
    row, deck = list(s.row), list(s.decks["companions"])
    travel = s.supply["travel"]
    _lead(s, 1)
    assert s.row == [row[0], None, row[2]]
    act(s, 0, A.EndTurn())
    assert s.row == [deck[0], row[0], row[2]]
    assert s.row_die == [False, False, True]
    assert s.decks["companions"] == deck[1:]
    assert s.supply["travel"] == travel


def test_rest_puts_a_travel_die_on_the_farthest_companion() -> None:
    """Step 4, Rest: "If the card farthest from the deck does not have a travel die on it, add
    1 from the supply." The farthest card taken with its die: the two others slide to the end,
    the deck's top card is revealed by the deck, and the new farthest card gets a die (its own
    went back to the supply with the caravan's dice)."""
    s = started(1)
    row, deck = list(s.row), list(s.decks["companions"])
    travel = s.supply["travel"]
    _lead(s, 2)
    assert s.supply["travel"] == travel + 1  # the taken card's die, back after the travel
    act(s, 0, A.EndTurn())
    assert s.row == [deck[0], row[0], row[1]]
    assert s.row_die == [False, False, True]
    assert s.supply["travel"] == travel


def test_rest_refills_the_inn_and_the_courtyard() -> None:
    """Step 4, Rest: "Hero Cards: If any hero cards were taken this turn, reveal new cards from
    the deck to fill the empty slots. Deed Cards: ... reveal new cards from the deck to fill
    the empty slots." A hero taken at The Candle & Quartz and a deed taken as good fortune
    leave their slots empty until the Rest; the other slots keep their cards."""
    s = started(1)
    scenario.set_building(
        s, 3, "candle_quartz"
    )  # the building between Yurg's Excursions and the Inn
    p = s.players[0]
    scenario.set_player(s, 0, coins=10, steeds=["velvet"])
    inn, heroes = list(s.inn), list(s.decks["heroes"])
    yard, deeds = list(s.courtyard), list(s.decks["deeds"])
    at_activate(s, 0, 3, illuminated=True)
    act(s, 0, A.Building("candle_quartz", pay="coins", hero=2))
    assert s.inn == [inn[0], inn[1], None, inn[3]] and inn[2] in p.heroes
    act(s, 0, A.Caravan(0, "dark_road", "farglen"))
    _travel(s, A.Fortune("deed", deed=1))
    assert s.courtyard == [yard[0], None] and yard[1] in p.deeds
    act(s, 0, A.EndTurn())
    assert s.inn == [inn[0], inn[1], heroes[0], inn[3]]
    assert s.decks["heroes"] == heroes[1:]
    assert s.courtyard == [yard[0], deeds[0]]
    assert s.decks["deeds"] == deeds[1:]
