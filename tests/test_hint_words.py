"""The hint in a player's words (uu.words.hint_text over uu.bots.hint's data): honest about doubt, the reason first,
Neigh odds that follow the rules, no jargon and no doubled words."""

from __future__ import annotations

import random
import re

import pytest

from uu.benchmarks.bots import typical_positions
from uu.bots.explain import effect_of, neigh_odds
from uu.bots.hint import hint
from uu.bots.random_bot import RandomBot
from uu.engine import new_game
from uu.scenario import build_game, parse_scenario
from uu.tutor.coach import comment
from uu.words.hint_text import hint_html, hint_json, hint_text

DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)

SIX = """\
name: six
players: [You, Bramble, Clover]
turn: {{player: You, phase: action}}
stables:
  You: [Baby Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Green), Basic Unicorn (Yellow), Narwhal, Basic Unicorn (Indigo), Yay]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
  Clover: [Baby Unicorn (Green){clover}]
hands:
  You: [{mine}]
  Bramble: [Neigh, Unicorn Poison]
  Clover: [Neigh, Good Deal]
"""


def six(mine: str, clover: str = "") -> object:
    return build_game(parse_scenario(SIX.format(mine=mine, clover=clover)))


def test_two_moves_equal_by_construction_are_about_as_good_never_best():
    # two Basic Unicorns, each wins at once (Yay: nobody may Neigh them): nothing can tell them apart
    g = six("Basic Unicorn (Orange), Basic Unicorn (Purple)")
    r = hint(g, seconds=None)
    top = {row.action.card for row in r.rows[:2]}
    assert top == {"Basic Unicorn (Orange)", "Basic Unicorn (Purple)"}
    assert not r.clear
    text = hint_text(r)
    # both add a Unicorn and nobody may Neigh either: no rule of thumb tells them apart, so none is given
    assert ("about as good" in text or "just as good" in text) and "Rule of thumb" not in text, text
    assert "best" not in text.lower(), text


def test_a_move_that_wins_now_is_clear_and_named():
    g = six("Basic Unicorn (Orange), Unicorn Poison")
    r = hint(g, seconds=None)
    assert r.clear and r.best.action.card == "Basic Unicorn (Orange)" and r.best.low == 1.0
    text = hint_text(r)
    assert text.startswith("Play Basic Unicorn (Orange): that gives you 7 Unicorns, enough to win."), text
    assert "best move" in text and "Nobody can Neigh it: Yay in your Stable" in text, text
    data = hint_json(r)
    assert data["clear"] is True and data["best"] == "play Basic Unicorn (Orange)"


def test_neigh_odds_are_zero_with_yay_and_leave_out_a_player_with_slowdown():
    g = six("Basic Unicorn (Orange)")
    yay = neigh_odds(g.observe(0), 0, "Basic Unicorn (Orange)")
    assert yay.chance == 0.0 and yay.unanswerable == "Yay" and not yay.may
    text = SIX.replace(", Yay]", "]").replace("Clover: [Neigh, Good Deal]", "Clover: [Good Deal, Neigh]")
    g = build_game(parse_scenario(text.format(mine="Basic Unicorn (Orange)", clover=", Slowdown")))
    odds = neigh_odds(g.observe(0), 0, "Basic Unicorn (Orange)")
    assert odds.may == ["Bramble"] and odds.barred == [("Clover", "Slowdown")] and 0 < odds.chance < 1
    without = build_game(parse_scenario(text.format(mine="Basic Unicorn (Orange)", clover="")))
    assert neigh_odds(without.observe(0), 0, "Basic Unicorn (Orange)").chance > odds.chance  # Clover no longer counts
    ginormous = build_game(parse_scenario(text.format(mine="Basic Unicorn (Orange)", clover=", Ginormous Unicorn")))
    assert neigh_odds(ginormous.observe(0), 0, "Basic Unicorn (Orange)").barred == [("Clover", "Ginormous Unicorn")]
    assert neigh_odds(g.observe(0), 0, "Super Neigh").unanswerable == "Super Neigh"


def test_the_table_shows_who_cannot_be_neighd_and_who_may_not_neigh():
    """The two continuous effects the Neigh odds rest on are read off the Stables, in every seat's view."""
    yay = six("Basic Unicorn (Orange)")
    text = SIX.replace(", Yay]", "]")
    slowed = build_game(parse_scenario(text.format(mine="Basic Unicorn (Orange)", clover=", Slowdown")))
    for seat in (0, 1, 2, None):
        assert yay.observe(seat).plays_unneighable == {0} and not yay.observe(seat).neigh_barred
        assert not slowed.observe(seat).plays_unneighable and slowed.observe(seat).neigh_barred == {2}


def test_explanations_are_a_seats_and_never_the_analysts():
    """Odds and effects are worked out from one seat's observation: the analyst's view (every hand open)
    would count cards the player cannot see, so it is refused with a clear message."""
    g = six("Basic Unicorn (Orange)")
    with pytest.raises(ValueError, match="observation of one seat"):
        neigh_odds(g.observe(None), 0, "Basic Unicorn (Orange)")
    play = next(a for a in g.pending.actions if a.card == "Basic Unicorn (Orange)" and a.into == 0)
    with pytest.raises(ValueError, match="observation of one seat"):
        effect_of(g.observe(None), play, 0)
    assert effect_of(g.observe(0), play, 0).unicorns_after == 7


NEIGH_MOMENT = """\
name: poisoned
players: [You, Bramble]
turn: {player: Bramble, phase: action}
stables:
  You: [Baby Unicorn (Red), Narwhal, Basic Unicorn (Red)]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
hands:
  You: [Neigh, Basic Unicorn (Green)]
  Bramble: [Unicorn Poison, Basic Unicorn (Yellow)]
"""


def test_at_a_neigh_moment_the_hint_says_what_passing_and_answering_do():
    from uu.engine.actions import Action, Target

    g = build_game(parse_scenario(NEIGH_MOMENT))
    g.push(Action("play", card="Unicorn Poison", target=(Target(card="Narwhal", owner=0),)))
    assert g.pending.kind == "respond" and g.pending.player == 0
    text = hint_text(hint(g, seconds=None))
    assert "If you pass, Bramble's Unicorn Poison destroys your Narwhal." in text, text
    assert "If you answer with Neigh, Bramble's Unicorn Poison goes to the discard pile" in text, text


def _decisions(seed: int, players: int, count: int) -> list:
    """Positions with a choice, of every kind a game reaches, from a seeded random game."""
    g = new_game(["You", "Bramble", "Clover", "Dandelion"][:players], seed=seed)
    bot = RandomBot(seed)
    out = []
    while g.pending is not None and len(out) < count:
        if len(g.pending.actions) > 1 and g.state.turn_number >= 2:
            out.append(g.copy())
        g.push(bot.choose(g))
    return out


def test_no_hint_or_coach_text_says_playout_or_doubles_a_word():
    positions = typical_positions(4, 4, seed=3) + _decisions(7, 3, 12) + _decisions(8, 2, 8)
    rng = random.Random(0)
    kinds = set()
    for g in positions:
        r = hint(g, deals=2, seconds=None, extra=2)
        kinds.add(r.decision)
        for text in (hint_text(r), hint_html(r), " ".join(c["move"] for c in hint_json(r)["candidates"])):
            assert "playout" not in text.lower(), text
            assert not DOUBLED.search(text), (DOUBLED.search(text), text)
        if rng.random() < 0.3 and r.decision != "baby":
            note = comment(g, rng.choice(g.pending.actions), g.pending.player)
            assert "playout" not in note.lower() and not DOUBLED.search(note), note
    assert {"action", "respond"} <= kinds
