"""The Game API: decisions, typed errors that leave the state unchanged, hidden information, copies."""

from __future__ import annotations

import pytest

from uu.engine import Action, GameOver, IllegalAction, new_game
from uu.engine.actions import Target
from uu.scenario import build_game, parse_scenario


def position(text: str):
    return build_game(parse_scenario(text))


def test_first_decisions_are_baby_choices_in_seat_order() -> None:
    # setup.choose-baby: each player chooses a Baby; the others stay in the Nursery
    g = new_game(["Ana", "Ben", "Cy"], seed=1)
    for seat in range(3):
        assert g.pending.kind == "baby" and g.pending.player == seat
        g.push(g.pending.actions[0])
    assert len(g.nursery) == 10
    assert [len(g.hand(p)) for p in range(3)] == [6, 5, 5]  # setup.deal-five, then draw.phase for Ana
    assert g.pending.kind == "action" and g.turn == (0, "action", 1)


def test_two_player_setup() -> None:
    # two-player.removals and two-player.neigh: 32 cards out, a Neigh to each, 6 cards in hand
    g = new_game(["Ana", "Ben"], seed=5)
    assert len(g.state.box) == 32
    assert all(len(g.hand(p)) == 6 and "Neigh" in g.hand(p) for p in range(2))
    assert g.deck_size == 114 - 32 - 12


def test_illegal_action_is_rejected_and_state_unchanged() -> None:
    g = new_game(["Ana", "Ben", "Cy"], seed=2)
    before = g.to_dict()
    with pytest.raises(IllegalAction) as e:
        g.push(Action("draw"))
    assert "Legal:" in str(e.value) and "baby" in str(e.value)
    assert g.to_dict() == before


def test_wrong_player_card_is_illegal() -> None:
    g = position("""
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)]}
hands: {Ana: [Basic Unicorn (Red)], Ben: [Unicorn Poison]}
deck: [Neigh, Neigh, Neigh]
""")
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.push(Action("play", card="Unicorn Poison"))
    assert g.to_dict() == before
    g.push(Action("play", card="Basic Unicorn (Red)", into=0))
    assert g.stable(0) == ["Baby Unicorn (Red)", "Basic Unicorn (Red)"]


def test_game_over_rejects_actions() -> None:
    g = position("""
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Blue),
  Basic Unicorn (Blue), Basic Unicorn (Blue)], Ben: [Baby Unicorn (Blue)]}
hands: {Ana: [Basic Unicorn (Green)]}
deck: [Neigh, Neigh, Neigh]
""")
    g.push(Action("play", card="Basic Unicorn (Green)", into=0))
    assert g.is_over and g.winner == 0  # win.threshold: 7 with 2 players
    with pytest.raises(GameOver):
        g.push(Action("draw"))


def test_observe_hides_other_hands_and_the_deck_order() -> None:
    g = new_game(["Ana", "Ben", "Cy"], seed=3)
    view = g.observe(1)
    assert [view.name(c) for c in view.seats[1].hand] == g.hand(1)
    assert view.seats[0].hand is None and view.seats[0].hand_size == 5 and view.seats[2].hand is None
    assert not hasattr(view, "deck") and view.deck_size == g.deck_size
    assert view.decider == 0 and view.decision is None  # Ana decides, not Ben: her actions are not shown


def test_nanny_cam_shows_the_hand() -> None:
    g = position("""
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red), Nanny Cam], Ben: [Baby Unicorn (Blue)]}
hands: {Ana: [Neigh, Yay], Ben: [Neigh]}
deck: [Neigh, Neigh]
""")
    seen = g.observe(1).seats[0]
    assert [g.state.name(c) for c in seen.hand] == ["Neigh", "Yay"] and seen.hand_open
    assert g.observe(0).seats[1].hand is None


def test_copy_is_independent() -> None:
    g = new_game(["Ana", "Ben", "Cy"], seed=4)
    c = g.copy()
    c.push(c.pending.actions[0])
    assert g.pending.kind == "baby" and g.pending.player == 0
    assert c.pending.player == 1


def test_describe_names_players() -> None:
    g = position("""
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue), Rhinocorn]}
hands: {Ana: [Unicorn Poison]}
deck: [Neigh, Neigh]
""")
    texts = [g.describe(a) for a in g.legal_actions]
    assert "play Unicorn Poison → Rhinocorn in Ben's Stable" in texts
    assert "draw" in texts


def test_three_kinds_of_bad_input() -> None:
    """Malformed (not an action / unknown kind), illegal, ambiguous: each its own error; the state unchanged."""
    from uu.engine import AmbiguousAction, MalformedAction

    g = position("""
name: t
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)], Cy: [Baby Unicorn (Green)]}
hands: {Ana: [Rhinocorn, Unicorn Poison]}
deck: [Neigh, Neigh, Neigh]
""")
    before = g.to_dict()
    with pytest.raises(MalformedAction, match="unknown action kind 'fly'"):
        g.push(Action("fly"))
    with pytest.raises(MalformedAction):
        g.push("draw")  # type: ignore[arg-type]
    with pytest.raises(AmbiguousAction, match="could mean 3 legal actions"):
        g.push(Action("play", card="Rhinocorn"))  # into whose Stable?
    with pytest.raises(IllegalAction):
        g.push(Action("play", card="Neigh"))
    assert g.to_dict() == before
    with pytest.raises(AmbiguousAction, match="could mean 2"):
        g.push(Action("play", card="Unicorn Poison"))  # which Baby?
    assert g.to_dict() == before
    g.push(Action("play", card="Rhinocorn", into=0))  # the missing field given: exactly one fits
    assert g.pile == [("Rhinocorn", 0)] or "Rhinocorn" in g.stable(0)


def test_game_shows_itself_in_a_notebook() -> None:
    g = new_game(["Ana", "<b>Ben</b>"], seed=2)
    html = g._repr_html_()
    assert "<style>" in html and "Ana" in html
    assert "<b>Ben</b>" not in html and "&lt;b&gt;Ben&lt;/b&gt;" in html  # names are escaped
    assert repr(g).startswith("<Game Ana, <b>Ben</b>:")


def test_the_learner_reads_your_stable() -> None:
    g = new_game(["You", "Ben"], seed=1)
    for _ in range(2):
        g.push(g.pending.actions[0])
    texts = [g.describe(a) for a in g.legal_actions]
    assert any("into your Stable" in t for t in texts) and not any("You's" in t for t in texts)


@pytest.mark.parametrize("players", [2, 5])
def test_push_legal_plays_the_same_game_as_push(players):
    # the bench's trusted path (no input validation) must run exactly the rules `push` runs
    import random

    names = [f"P{i}" for i in range(players)]
    checked, fast = new_game(names, seed=11), new_game(names, seed=11)
    pick = random.Random(3)
    while not checked.is_over:
        i = pick.randrange(len(checked.legal_actions))
        checked.push(checked.legal_actions[i])
        fast.push_legal(fast.legal_actions[i])
        assert fast.pending == checked.pending
    assert fast.to_dict() == checked.to_dict() and fast.winner == checked.winner


def test_a_seat_that_does_not_exist_is_malformed_input_and_changes_nothing():
    from uu.engine.errors import MalformedAction

    g = new_game(["Ana", "Ben"], seed=1)
    before = g.to_dict()
    for bad in (Action("baby", card="Baby Unicorn (Red)", into=5),
                Action("baby", card="Baby Unicorn (Red)", into=-1),
                Action("target", target=(Target(player=9),))):
        with pytest.raises(MalformedAction, match="no seat"):
            g.find(bad)
    assert g.to_dict() == before


def test_state_fields_name_every_field():
    """STATE_FIELDS is the one list saving and copying read: it must name every field of GameState, in order."""
    import dataclasses

    from uu.engine.state import STATE_FIELDS, GameState

    assert list(STATE_FIELDS) == [f.name for f in dataclasses.fields(GameState)]


def test_resample_deals_only_hidden_cards_and_keeps_the_real_game() -> None:
    """Game.resample (OpenSpiel's resample_from_infostate): the player's own hand, every Stable and the discard
    stay; the deck and the other hands hold the same cards between them, dealt anew; the game is untouched."""
    import random

    from uu.bots import RandomBot
    from uu.engine import new_game

    g = new_game(["A", "B", "C"], seed=9)
    bot = RandomBot(9)
    while g.state.turn_number < 4:
        g.push(bot.choose(g))
    me = g.pending.player
    before = g.to_dict()
    r = g.resample(me, random.Random(1))
    s, t = g.state, r.state
    assert t.hands[me] == s.hands[me] and t.stables == s.stables and t.discard == s.discard
    others = [p for p in range(s.n) if p != me]
    assert sorted(t.deck + sum((t.hands[p] for p in others), [])) == sorted(s.deck + sum((s.hands[p] for p in others), []))
    assert [len(h) for h in t.hands] == [len(h) for h in s.hands] and t.deck != s.deck
    assert g.to_dict() == before and r.pending == g.pending
    while r.pending is not None:  # the resampled world plays on as a game of its own
        r.push(bot.choose(r))
    assert g.to_dict() == before
