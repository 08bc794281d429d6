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
    neighs, hidden = unseen_neighs(g, 0)
    assert (neighs, hidden) == (2, 5)  # the learner's own Neigh is seen; 2 hands + 2 deck cards are not
    # Bramble holds 2 of the 5 unseen cards: 1 - C(3,2)/C(5,2) = 0.7
    assert abs(neigh_chance(g, 0, 1) - 0.7) < 1e-9
    assert neigh_chance(g, 0, 2) == 1 - 3 / 5  # Clover holds 1 card of 5, 2 of them Neighs


def test_same_comment_whatever_the_hidden_cards_are():
    a = game("Neigh, Super Neigh", "Basic Unicorn (Purple), Glitter Tornado")
    b = game("Basic Unicorn (Purple), Glitter Tornado", "Neigh, Super Neigh")  # same cards, other places
    move = Action("play", card="Basic Unicorn (Orange)", into=0)
    assert comment(a, move, 0) == comment(b, move, 0)


def test_the_coach_names_the_threat_and_the_better_move():
    g = game("Neigh, Super Neigh", "Basic Unicorn (Purple), Glitter Tornado")
    before = g.to_dict()
    grow = comment(g, Action("play", card="Basic Unicorn (Orange)", into=0), 0)
    assert "the coach would rather play Unicorn Poison" in grow  # Bramble is one Unicorn from winning
    assert g.to_dict() == before
    stop = comment(g, next(a for a in g.pending.actions if a.card == "Unicorn Poison"
                           and a.target and a.target[0].owner == 1), 0)
    assert stop.startswith("Good choice") and "chance that someone answers" in stop
    assert "Bramble has 6 of the 7 Unicorns" in comment(g, Action("draw"), 0)
