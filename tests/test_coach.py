"""The guided game's coach (uu.tutor.coach): what it says, and that it never reads hidden cards."""

from __future__ import annotations

from uu.engine.actions import Action
from uu.scenario import build_game, parse_scenario
from uu.tutor.coach import comment, neigh_chance, unseen_neighs

POSITION = """\
name: coach
players: [You, Bramble, Clover]
turn: {{player: You, phase: action}}
stables:
  You: [Baby Unicorn (Red), Basic Unicorn (Red)]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue), Basic Unicorn (Green), Narwhal, Basic Unicorn (Yellow), Basic Unicorn (Indigo)]
  Clover: [Baby Unicorn (Green)]
hands:
  You: [Unicorn Poison, Basic Unicorn (Orange), Neigh]
  Bramble: [{bramble}]
  Clover: [Good Deal]
deck: [{deck}]
rest: box
"""


def game(bramble: str, deck: str):
    return build_game(parse_scenario(POSITION.format(bramble=bramble, deck=deck)))


def test_neigh_odds_count_only_what_the_learner_has_seen():
    g = game("Neigh, Super Neigh", "Basic Unicorn (Purple), Glitter Tornado")
    neighs, hidden = unseen_neighs(g.observe(0))
    assert (neighs, hidden) == (2, 5)  # the learner's own Neigh is seen; 2 hands + 2 deck cards are not
    # Bramble holds 2 of the 5 unseen cards: 1 - C(3,2)/C(5,2) = 0.7
    assert abs(neigh_chance(g.observe(0), 1) - 0.7) < 1e-9
    assert neigh_chance(g.observe(0), 2) == 1 - 3 / 5  # Clover holds 1 card of 5, 2 of them Neighs


def test_same_comment_whatever_the_hidden_cards_are():
    a = game("Neigh, Super Neigh", "Basic Unicorn (Purple), Glitter Tornado")
    b = game("Basic Unicorn (Purple), Glitter Tornado", "Neigh, Super Neigh")  # same cards, other places
    move = Action("play", card="Basic Unicorn (Orange)", into=0)
    assert comment(a, move, 0) == comment(b, move, 0)


def test_the_coach_names_the_threat_and_the_better_move():
    # a full deck (no running out of cards), Bramble one Unicorn from winning and about to play one
    g = build_game(parse_scenario(POSITION.replace("rest: box", "rest: deck").format(
        bramble="Basic Unicorn (Purple), Basic Unicorn (Red)", deck="Glitter Tornado")))
    before = g.to_dict()
    grow = comment(g, Action("play", card="Basic Unicorn (Orange)", into=0), 0)
    assert "the coach would rather play Unicorn Poison on Bramble's" in grow, grow
    assert g.to_dict() == before
    stop = comment(g, next(a for a in g.pending.actions if a.card == "Unicorn Poison"
                           and a.target and a.target[0].owner == 1), 0)
    assert stop.startswith("Good choice") and "chance that someone who may answers it" in stop
    assert "Bramble has 6 of the 7 Unicorns" in comment(g, Action("draw"), 0)


def test_the_coach_does_not_call_noise_a_mistake():
    """Every move loses when the deck runs out before anyone can win (rest: box, two deck cards): the estimate
    cannot separate them, so the coach finds no better move whatever the learner plays."""
    g = game("Neigh, Super Neigh", "Basic Unicorn (Purple), Glitter Tornado")
    assert comment(g, Action("play", card="Basic Unicorn (Orange)", into=0), 0).startswith("Good choice")


def test_the_coach_counts_only_players_who_may_neigh():
    text = POSITION.replace("Clover: [Baby Unicorn (Green)]", "Clover: [Baby Unicorn (Green), Slowdown]")
    g = build_game(parse_scenario(text.format(bramble="Neigh, Super Neigh", deck="Basic Unicorn (Purple)")))
    note = comment(g, Action("play", card="Basic Unicorn (Orange)", into=0), 0)
    assert "Clover cannot play Neigh cards (Slowdown)" in note, note
    yay = POSITION.replace("You: [Baby Unicorn (Red), Basic Unicorn (Red)]",
                           "You: [Baby Unicorn (Red), Basic Unicorn (Red), Yay]")
    g = build_game(parse_scenario(yay.format(bramble="Neigh, Super Neigh", deck="Basic Unicorn (Purple)")))
    note = comment(g, Action("play", card="Basic Unicorn (Orange)", into=0), 0)
    assert "Nobody could answer it with a Neigh: Yay in your Stable" in note, note
