"""Turn flow (uu.engine.flow): phases, beginning-of-turn triggers, skipped and extra turns, the end of the
game. Rule ids cited per test."""

from __future__ import annotations

import pytest
import yaml

from uu.engine import Action, Target
from uu.scenario import build_game, parse_scenario

ANA, BEN, CY = 0, 1, 2
FILLER = ["Neigh"] * 12 + ["Unicorn Poison"] * 3 + ["Back Kick"] * 3


def pos(stables=None, hands=None, players=("Ana", "Ben", "Cy"), phase="beginning", deck=None, discard=None,
        options=None, player=None):
    data = {"name": "unit", "players": list(players), "turn": {"player": player or players[0], "phase": phase},
            "stables": stables or {}, "hands": hands or {}, "deck": FILLER if deck is None else deck,
            "discard": discard or [], "rest": "box"}
    if options:
        data["options"] = options
    return build_game(parse_scenario(yaml.safe_dump(data, sort_keys=False)))


def rules_logged(g):
    return {r for e in g.log for r in e.rules}


def texts(g):
    return [e.text for e in g.log]


def tgt(card, owner):
    return Action("target", target=(Target(card=card, owner=owner),))


def test_phases_in_order():
    """turn.phases + draw.phase + end.hand-limit: Beginning (BOT effects), Draw (top card), Action, End of
    Turn (discard down to 7), then the next player clockwise (turn.clockwise)."""
    hand = ["Yay", "Slowdown", "Nanny Cam", "Pandamonium", "Broken Stable", "Tiny Stable", "Barbed Wire"]
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": ["Basic Unicorn (Red)"]},
            hands={"Ana": hand}, deck=["Blinding Light"] + FILLER)
    assert g.turn == (ANA, "beginning", 1)
    assert g.pending.kind == "use" and g.pending.card == "Rhinocorn"
    g.push(Action("decline", card="Rhinocorn"))
    assert g.turn == (ANA, "action", 1)
    assert g.hand(ANA) == hand + ["Blinding Light"]  # Draw phase: the top card
    g.push(Action("draw"))  # 9 cards now
    assert g.turn == (ANA, "end", 1)
    assert g.pending.kind == "discard" and g.pending.player == ANA
    g.push(Action("discard", card="Yay"))
    assert g.turn == (ANA, "end", 1)
    g.push(Action("discard", card="Slowdown"))
    assert len(g.hand(ANA)) == 7
    assert g.turn == (BEN, "action", 2)
    assert {"turn.phases", "draw.phase", "end.hand-limit"} <= rules_logged(g)


def test_bot_triggers_only_for_cards_there_when_turn_began():
    """bot.entered-this-turn: Rainbow Lasso STEALs Rhinocorn during the Beginning of Turn; Rhinocorn was not
    in Ana's Stable when the turn began, so it does not trigger this turn."""
    g = pos(stables={"Ana": ["Rainbow Lasso"], "Ben": ["Rhinocorn"]},
            hands={"Ana": ["Yay", "Slowdown", "Nanny Cam"]})
    assert g.pending.kind == "use" and g.pending.card == "Rainbow Lasso"
    g.push(Action("use", card="Rainbow Lasso"))
    for c in ("Yay", "Slowdown", "Nanny Cam"):
        g.push(Action("discard", card=c))
    assert list(g.legal_actions) == [tgt("Rhinocorn", BEN)]
    g.push(tgt("Rhinocorn", BEN))
    assert g.stable(ANA) == ["Rainbow Lasso", "Rhinocorn"]
    assert g.turn == (ANA, "action", 1)  # no Rhinocorn use/decline
    assert not any("Rhinocorn" in t and "beginning-of-turn effect of Rhinocorn" in t for t in texts(g))


def test_bot_triggers_next_turn_for_card_played_this_turn():
    """bot.trigger + bot.entered-this-turn: a card played during the Action phase does not trigger in this
    turn, but does at the start of its owner's next turn."""
    g = pos(players=("Ana", "Ben"), phase="action", stables={"Ana": ["Baby Unicorn (Red)"],
                                                              "Ben": ["Baby Unicorn (Blue)"]},
            hands={"Ana": ["Double Dutch"]})
    g.push(Action("play", card="Double Dutch", into=ANA))
    assert g.turn == (BEN, "action", 2)
    g.push(Action("draw"))
    assert g.turn == (ANA, "beginning", 3)
    assert g.pending.kind == "use" and g.pending.card == "Double Dutch"


def test_optional_bot_lost_after_the_phase():
    """bot.optional-lost: an optional beginning-of-turn effect declined is gone for the turn: the Action
    phase offers no way to use it."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Double Dutch"]}, hands={"Ana": ["Yay", "Slowdown"]})
    g.push(Action("decline", card="Double Dutch"))
    assert g.turn == (ANA, "action", 1)
    assert {a.kind for a in g.legal_actions} == {"play", "draw"}
    g.push(Action("play", card="Yay", into=ANA))
    assert g.turn[0] == BEN  # one action only: Double Dutch was not used


def test_rhinocorn_ends_turn_but_end_of_turn_discards_to_seven():
    """bot.skip-to-end + end.never-skipped + end.hand-limit: Rhinocorn's DESTROY ends the turn (no Draw, no
    Action) but End of Turn still makes Ana DISCARD down to 7."""
    hand = ["Yay", "Slowdown", "Nanny Cam", "Pandamonium", "Broken Stable", "Tiny Stable", "Barbed Wire",
            "Blinding Light", "Sadistic Ritual"]
    g = pos(stables={"Ana": ["Rhinocorn"], "Ben": ["Basic Unicorn (Red)"]}, hands={"Ana": hand})
    g.push(Action("use", card="Rhinocorn"))
    g.push(tgt("Basic Unicorn (Red)", BEN))
    assert g.stable(BEN) == []
    assert g.turn == (ANA, "end", 1)
    assert g.pending.kind == "discard" and g.pending.player == ANA
    g.push(Action("discard", card="Yay"))
    g.push(Action("discard", card="Slowdown"))
    assert len(g.hand(ANA)) == 7 and set(g.hand(ANA)) < set(hand)  # no card drawn
    assert g.turn == (BEN, "action", 2)
    assert {"bot.skip-to-end", "end.hand-limit"} <= rules_logged(g)


def test_rhinocorn_other_bot_effects_still_resolve():
    """bot.end-turn-others-resolve + chain.targets-before: Rhinocorn ending the turn does not cancel the other
    beginning-of-turn effects of the same link: Claw Machine's DISCARD-then-DRAW still happens."""
    g = pos(stables={"Ana": ["Rhinocorn", "Claw Machine"], "Ben": ["Basic Unicorn (Red)"]},
            hands={"Ana": ["Yay"]}, deck=["Slowdown"] + FILLER)
    # every optional effect is used or declined first, in the order the cards entered the Stable
    assert g.pending.kind == "use" and g.pending.card == "Rhinocorn"
    g.push(Action("use", card="Rhinocorn"))
    assert g.pending.kind == "use" and g.pending.card == "Claw Machine"
    g.push(Action("use", card="Claw Machine"))
    # then the choices, before the link resolves: Rhinocorn's target, then Claw Machine's DISCARD
    assert g.pending.kind == "target" and g.pending.card == "Rhinocorn"
    g.push(tgt("Basic Unicorn (Red)", BEN))
    assert g.pending.kind == "discard" and g.pending.card == "Claw Machine"
    g.push(Action("discard", card="Yay"))
    assert g.hand(ANA) == ["Slowdown"]  # Claw Machine: DISCARD then DRAW; no Draw phase card
    assert sorted(g.discard) == ["Basic Unicorn (Red)", "Yay"]
    assert g.turn == (BEN, "action", 2)
    assert "bot.end-turn-others-resolve" in rules_logged(g)


def test_skipped_turns_add_up():
    """turn.skip-other + turn.skips-add-up: two skips make Ben miss his next two turns."""
    g = pos(phase="action", stables={"Ana": ["Baby Unicorn (Red)"]})
    g.state.skip_turns[BEN] = 2
    seen = []
    for _ in range(5):
        seen.append(g.turn[0])
        g.push(Action("draw"))
    seen.append(g.turn[0])
    assert seen == [ANA, CY, ANA, CY, ANA, BEN]
    assert g.state.skip_turns == [0, 0, 0]
    assert sum("turn is skipped" in t for t in texts(g)) == 2


def test_extra_turn_after_this_one():
    """turn.extra + turn.another: an extra turn is a whole turn taken by the same player after this one."""
    g = pos(phase="action", stables={"Ana": ["Baby Unicorn (Red)"]})
    g.state.extra_turns.append(ANA)
    g.push(Action("draw"))
    assert g.turn == (ANA, "action", 2)
    g.push(Action("draw"))
    assert g.turn == (BEN, "action", 3)


def deck_out_game(ana, ben, **kw):
    g = pos(players=("Ana", "Ben"), phase="action", stables={"Ana": ana, "Ben": ben}, deck=["Neigh"], **kw)
    g.push(Action("draw"))  # the last card: the game-status check after the Action phase ends the game
    return g


def test_deck_out_most_unicorns_wins():
    """win.deck-out + status.check: when the deck has run out, the player with the most Unicorns wins."""
    g = deck_out_game(["Rhinocorn"], ["Baby Unicorn (Blue)", "Basic Unicorn (Red)"])
    assert g.is_over and g.winner == BEN and g.pending is None
    assert "win.deck-out" in rules_logged(g)


def test_deck_out_letters_tie_break():
    """win.letters: tied on Unicorns, the most letters in the Unicorn cards' printed names wins
    (Rhinocorn 9 letters > Narwhal 7)."""
    g = deck_out_game(["Rhinocorn"], ["Narwhal"])
    assert g.is_over and g.winner == ANA
    assert "win.letters" in rules_logged(g)


def test_deck_out_everyone_loses():
    """win.everyone-loses: tied on Unicorns and on letters, everyone loses."""
    g = deck_out_game(["Basic Unicorn (Red)"], ["Basic Unicorn (Blue)"])
    assert g.is_over and g.winner == "everyone-loses"
    assert g.result_text() == "everyone loses"


def test_deck_out_reshuffle_option():
    """option.deck-out reshuffle: the game goes on; the next DRAW shuffles the discard pile into a new deck."""
    g = deck_out_game(["Rhinocorn"], ["Narwhal"], discard=["Yay", "Slowdown"],
                      options={"deck_out": "reshuffle"})
    assert not g.is_over
    assert g.turn == (BEN, "action", 2)
    assert sorted(g.hand(BEN)) in (["Slowdown"], ["Yay"])
    assert g.deck_size == 1 and g.discard == []
    assert any("shuffled into a new deck" in t for t in texts(g))


def test_deck_out_reshuffle_with_empty_discard_ends():
    """option.deck-out reshuffle: with nothing to reshuffle either, the game ends as usual."""
    g = deck_out_game(["Rhinocorn"], ["Narwhal"], options={"deck_out": "reshuffle"})
    assert g.is_over and g.winner == ANA


@pytest.mark.parametrize("players, need", [(("A", "B"), 7), (("A", "B", "C", "D", "E"), 7),
                                           (("A", "B", "C", "D", "E", "F"), 6),
                                           (("A", "B", "C", "D", "E", "F", "G", "H"), 6)])
def test_win_threshold_by_player_count(players, need):
    """win.threshold: 7 Unicorns to win with 2–5 players, 6 with 6–8."""
    stable = (["Basic Unicorn (Red)"] * 3 + ["Basic Unicorn (Blue)"] * 3)[: need - 1]
    g = pos(players=players, phase="action", stables={players[0]: stable},
            hands={players[0]: ["Rhinocorn"]})
    g.push(Action("play", card="Rhinocorn", into=0))
    assert g.is_over and g.winner == 0
    assert "win.threshold" in rules_logged(g)
    # one fewer is not enough
    g2 = pos(players=players, phase="action", stables={players[0]: stable[:-1]},
             hands={players[0]: ["Rhinocorn"]})
    g2.push(Action("play", card="Rhinocorn", into=0))
    assert not g2.is_over


def test_ginormous_counts_two_for_the_win():
    """win.counts-one + Ginormous Unicorn: 5 Unicorn cards with Ginormous count 6: enough with 6 players."""
    players = ("A", "B", "C", "D", "E", "F")
    g = pos(players=players, phase="action",
            stables={"A": ["Basic Unicorn (Red)"] * 3 + ["Basic Unicorn (Blue)"]},
            hands={"A": ["Ginormous Unicorn"]})
    g.push(Action("play", card="Ginormous Unicorn", into=0))
    assert g.is_over and g.winner == 0


def test_no_win_mid_chain():
    """win.after-chain: Ana's 7th Unicorn is Extremely Destructive Unicorn; its enter effect (everyone
    SACRIFICEs a Unicorn) resolves before the win check, so Ana ends with 6 and does not win."""
    stable = ["Basic Unicorn (Red)"] * 3 + ["Basic Unicorn (Blue)"] * 3
    g = pos(phase="action", stables={"Ana": stable, "Ben": ["Rhinocorn"]},
            hands={"Ana": ["Extremely Destructive Unicorn"]})
    g.push(Action("play", card="Extremely Destructive Unicorn", into=ANA))
    assert not g.is_over
    assert g.pending.kind == "sacrifice" and g.pending.player == ANA
    g.push(Action("sacrifice", card="Basic Unicorn (Red)"))
    assert not g.is_over
    assert g.pending.kind == "sacrifice" and g.pending.player == BEN
    g.push(Action("sacrifice", card="Rhinocorn"))
    assert not g.is_over and g.winner is None
    assert g.unicorns(ANA) == 6


def test_win_after_chain_when_chain_keeps_seven():
    """win.after-chain: the win is declared once the chain has resolved, if the player still has enough."""
    stable = ["Basic Unicorn (Red)"] * 3 + ["Basic Unicorn (Blue)"] * 3
    g = pos(phase="action", stables={"Ana": stable}, hands={"Ana": ["Unicorn Oracle"]},
            deck=["Yay", "Slowdown", "Nanny Cam"] + FILLER)
    g.push(Action("play", card="Unicorn Oracle", into=ANA))
    assert not g.is_over  # Oracle's enter effect (a choice) is still resolving
    assert g.pending.kind == "choose"
    g.push(Action("choose", option="Yay"))
    g.push(g.legal_actions[0])
    assert g.is_over and g.winner == ANA


def test_status_check_deck_out_after_draw_phase():
    """status.check: the game-status check after the Draw phase ends the game if the deck is empty then."""
    g = pos(players=("Ana", "Ben"), stables={"Ana": ["Basic Unicorn (Red)"], "Ben": ["Narwhal"]}, deck=["Neigh"])
    assert g.is_over and g.winner == ANA
    assert g.hand(ANA) == ["Neigh"]
