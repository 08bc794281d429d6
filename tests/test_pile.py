"""The Action phase and the Neigh pile (uu.engine.pile): rule ids cited per test."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from uu.engine import Action, AmbiguousAction, IllegalAction, Target
from uu.scenario import build_game, parse_scenario

ANA, BEN, CY, DEE = 0, 1, 2, 3
PASS = Action("pass")
NEIGH = Action("respond", card="Neigh")
SUPER = Action("respond", card="Super Neigh")


def pos(stables=None, hands=None, players=("Ana", "Ben", "Cy", "Dee"), deck=None, options=None):
    data = {"name": "unit", "players": list(players), "turn": {"player": players[0], "phase": "action"},
            "stables": stables or {}, "hands": hands or {}, "deck": deck or ["Basic Unicorn (Purple)"] * 3 +
            ["Claw Machine"] * 3, "rest": "box"}
    if options:
        data["options"] = options
    return build_game(parse_scenario(yaml.safe_dump(data, sort_keys=False)))


def asked(g):
    p = g.pending
    return (p.player, p.kind)


def rules_logged(g):
    return {r for e in g.log for r in e.rules}


def test_response_order_starts_left_of_player():
    """option.responder-order + pile.everyone-asked: responses are asked in seat order starting left of
    the player of the top card; the player of the top card is not asked."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn", "Neigh"], "Ben": ["Neigh"], "Cy": ["Neigh"], "Dee": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    order = []
    while g.pending.kind == "respond":
        order.append(g.pending.player)
        assert set(g.legal_actions) == {NEIGH, PASS}
        g.push(PASS)
    assert order == [BEN, CY, DEE]
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rhinocorn"]


def test_response_order_from_a_later_seat():
    """option.responder-order: when Cy plays the top card, the order is Dee, Ana, Ben."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn"], "Ben": ["Neigh"], "Cy": ["Neigh"], "Dee": ["Neigh", "Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    g.push(PASS)  # Ben
    assert asked(g) == (CY, "respond")
    g.push(NEIGH)  # Cy's Neigh is the new top card
    assert g.pile == [("Rhinocorn", ANA), ("Neigh", CY)]
    order = []
    while g.pending.kind == "respond":
        order.append(g.pending.player)
        g.push(PASS)
    # Ana has no Instant: never asked; Cy played the top card: not asked
    assert order == [DEE, BEN]


def test_new_top_card_reopens_responses_for_players_who_passed():
    """pile.respond-again: a player who passed may respond to a later top card."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn", "Neigh"], "Ben": ["Neigh"], "Cy": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    g.push(PASS)  # Ben passes on Rhinocorn
    g.push(NEIGH)  # Cy Neighs Rhinocorn
    assert asked(g) == (ANA, "respond")  # left of Cy (Dee has nothing)
    g.push(PASS)
    assert asked(g) == (BEN, "respond")  # Ben passed before, but this is a new top card
    g.push(NEIGH)  # Ben Neighs Cy's Neigh
    assert g.pile == [("Rhinocorn", ANA), ("Neigh", CY), ("Neigh", BEN)]
    assert asked(g) == (ANA, "respond")
    g.push(PASS)
    # Ben's Neigh resolves: Cy's Neigh and Ben's Neigh go to the discard pile; Rhinocorn is top again, a new
    # window opens for it (Ana played it; nobody else still holds an Instant) and it resolves
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rhinocorn"]
    assert Counter(g.discard) == Counter(["Neigh", "Neigh"])
    assert {"pile.resolve-top-down", "neigh.stops-card"} <= rules_logged(g)


def test_neighed_card_and_neigh_go_to_discard_and_action_is_spent():
    """neigh.stops-card + action.one: the Neigh'd card and the Neigh go to the discard pile, the card has
    no effect, and the action is spent (the turn moves on)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Cy": ["Basic Unicorn (Red)"]},
            hands={"Ana": ["Unicorn Poison", "Rhinocorn"], "Ben": ["Neigh"]})
    g.push(Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Red)", owner=CY),)))
    assert asked(g) == (BEN, "respond")
    g.push(NEIGH)
    assert Counter(g.discard) == Counter(["Unicorn Poison", "Neigh"])
    assert g.stable(CY) == ["Basic Unicorn (Red)"]
    assert g.pile == []
    assert g.hand(ANA) == ["Rhinocorn"]
    assert g.turn[0] == BEN  # Ana's one action was spent on the Neigh'd card


def test_super_neigh_cannot_be_neighed():
    """Super Neigh (static unneighable): nobody is asked to respond to it; it and the card go to the
    discard pile."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn", "Neigh"], "Ben": ["Super Neigh"], "Cy": ["Neigh"], "Dee": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert asked(g) == (BEN, "respond")
    assert set(g.legal_actions) == {SUPER, PASS}
    g.push(SUPER)
    assert g.stable(ANA) == ["Baby Unicorn (Red)"]
    assert Counter(g.discard) == Counter(["Rhinocorn", "Super Neigh"])
    assert g.hand(ANA) == ["Neigh"] and g.hand(CY) == ["Neigh"]  # never asked, still in hand


def test_neigh_can_be_neighed_and_card_resolves():
    """instant.chain + pile.resolve-top-down: Neigh on Neigh: the second Neigh stops the first, and the
    card underneath resolves after a fresh window."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn", "Neigh"], "Ben": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    g.push(NEIGH)  # Ben
    assert asked(g) == (ANA, "respond")
    g.push(NEIGH)  # Ana Neighs Ben's Neigh
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rhinocorn"]
    assert Counter(g.discard) == Counter(["Neigh", "Neigh"])


def test_yay_owner_plays_unneighable_but_yay_itself_can_be_neighed():
    """Yay: Yay itself can be Neigh'd while being played; once in the Stable nothing its owner plays can."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay", "Rhinocorn"], "Ben": ["Neigh"]})
    g.state.actions_left = 2
    g.push(Action("play", card="Yay", into=ANA))
    assert asked(g) == (BEN, "respond")  # Yay is not in a Stable yet
    g.push(PASS)
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Yay"]
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Yay", "Rhinocorn"]  # no window at all
    assert g.hand(BEN)[0] == "Neigh" and g.discard == []


def test_yay_beats_super_neigh():
    """Yay vs Super Neigh: Super Neigh does not get past Yay."""
    g = pos(stables={"Ana": ["Yay"]}, hands={"Ana": ["Rhinocorn"], "Ben": ["Super Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.stable(ANA) == ["Yay", "Rhinocorn"]
    assert g.hand(BEN)[0] == "Super Neigh"


def test_instants_are_not_played_as_the_action():
    """instant.not-an-action + instant.when: Instants are never among the Action phase plays."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Neigh", "Super Neigh"]})
    assert list(g.legal_actions) == [Action("draw")]


def test_respond_is_rejected_outside_a_window():
    """instant.when: a Neigh cannot be played when nothing is being played; the state is unchanged."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Neigh", "Rhinocorn"]})
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.push(NEIGH)
    assert g.to_dict() == before


def test_respond_must_answer_the_top_card():
    """pile.top-only: a response always goes on top of the pile, answering only the current top card."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn"], "Ben": ["Neigh"], "Cy": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    g.push(NEIGH)  # Ben
    assert g.pile[-1] == ("Neigh", BEN)
    assert asked(g) == (CY, "respond")
    assert "respond to Ben's Neigh" in g.pending.prompt


def test_declare_first_play_carries_targets():
    """option.targeting declare-first: a Magic card's targets are part of the play action."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rhinocorn"], "Cy": ["Basic Unicorn (Red)"]},
            hands={"Ana": ["Unicorn Poison"]})
    plays = [a for a in g.legal_actions if a.kind == "play"]
    assert plays == [
        Action("play", card="Unicorn Poison", target=(Target(card="Rhinocorn", owner=BEN),)),
        Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Red)", owner=CY),)),
    ]
    with pytest.raises(AmbiguousAction):
        g.push(Action("play", card="Unicorn Poison"))  # without its target it could mean either play


def test_neigh_first_targets_on_resolution():
    """option.targeting neigh-first: the play has no targets; the target is chosen when the card resolves,
    after the response windows."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rhinocorn"], "Cy": ["Basic Unicorn (Red)"]},
            hands={"Ana": ["Unicorn Poison"], "Dee": ["Neigh"]}, options={"targeting": "neigh-first"})
    plays = [a for a in g.legal_actions if a.kind == "play"]
    assert plays == [Action("play", card="Unicorn Poison")]
    g.push(plays[0])
    assert asked(g) == (DEE, "respond")
    g.push(PASS)
    assert asked(g) == (ANA, "target")
    assert set(g.legal_actions) == {Action("target", target=(Target(card="Rhinocorn", owner=BEN),)),
                                    Action("target", target=(Target(card="Basic Unicorn (Red)", owner=CY),))}
    g.push(Action("target", target=(Target(card="Rhinocorn", owner=BEN),)))
    assert g.stable(BEN) == []
    assert Counter(g.discard) == Counter(["Rhinocorn", "Unicorn Poison"])


@pytest.mark.parametrize("targeting", ["declare-first", "neigh-first"])
def test_impossible_play_not_offered(targeting):
    """effect.impossible-play: Unicorn Poison is not offered when no Unicorn can be DESTROYED (only your
    own Unicorns in play)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": ["Yay"]},
            hands={"Ana": ["Unicorn Poison", "Back Kick"]}, options={"targeting": targeting})
    cards = [a.card for a in g.legal_actions if a.kind == "play"]
    assert "Unicorn Poison" not in cards
    assert "Back Kick" in cards  # Yay in Ben's Stable can be returned
    assert g.legal_actions[-1] == Action("draw")


def test_play_into_any_stable():
    """card.unicorn-any-stable / card.downgrade-any-stable: permanent cards may be played into any Stable
    (one action per Stable, the player's own first)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Slowdown"]}, players=("Ana", "Ben", "Cy"))
    assert [a.into for a in g.legal_actions if a.kind == "play"] == [ANA, BEN, CY]
    g.push(Action("play", card="Slowdown", into=CY))
    assert g.stable(CY) == ["Slowdown"]


def test_pile_visible_while_pending():
    """pile.top-only: the pile is data (bottom first, with who played each card) while responses are open."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Rhinocorn"], "Cy": ["Neigh"]})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.pile == [("Rhinocorn", ANA)]
    assert asked(g) == (CY, "respond")  # Ben has no Instant: passed without being asked


@pytest.mark.parametrize("ask", ["holders", "everyone"])
def test_neigh_ask_everyone_asks_players_without_an_instant_with_only_a_pass(ask):
    """option.neigh-ask: holders = only Cy (the one Neigh) is asked; everyone = Ben, Cy and Dee are each asked in
    the responder order, Ben and Dee with only a pass; either way the card resolves after the passes."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rhinocorn"], "Ben": ["Basic Unicorn (Red)"], "Cy": ["Neigh"], "Dee": []},
            options={"neigh_ask": ask})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    asked_with = []
    while g.pending.kind == "respond":
        asked_with.append((g.pending.player, tuple(g.legal_actions)))
        g.push(PASS)
    if ask == "holders":
        assert asked_with == [(CY, (NEIGH, PASS))]
    else:
        assert asked_with == [(BEN, (PASS,)), (CY, (NEIGH, PASS)), (DEE, (PASS,))]
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rhinocorn"]


def test_neigh_ask_everyone_asks_nobody_about_a_card_nobody_may_answer():
    """option.neigh-ask everyone asks only who may answer, from what every player sees: a player whose Stable
    stops them playing Neighs, or an unanswerable card, is never asked."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Yay"]}, hands={"Ana": ["Rhinocorn"], "Ben": ["Neigh"]},
            options={"neigh_ask": "everyone"})
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.pending.kind != "respond" and g.stable(ANA)[-1] == "Rhinocorn"
