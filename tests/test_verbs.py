"""Unit tests of the verbs (the registry uu.cards.verbs, run by uu.engine.verb_handlers) and the connectives (then / if you do / may / who).

Each test builds a position with the scenario API, drives `pending` / `push`, and asserts exact zones.
Rule ids are cited in each docstring (uu.engine.rules).
"""

from __future__ import annotations

from collections import Counter

import yaml

from uu.engine import Action, Target
from uu.engine import verb_handlers as _verb_handlers  # noqa: F401  (fills VERB_HANDLERS)
from uu.engine.effects import prog
from uu.engine.flow import run
from uu.engine.frames import VERB_HANDLERS
from uu.scenario import build_game, parse_scenario

ANA, BEN, CY = 0, 1, 2
FILLER = ["Neigh"] * 10


def pos(players=("Ana", "Ben", "Cy"), turn=None, stables=None, hands=None, deck=None, discard=None,
        rest="box", options=None, nursery=None, stay=True):
    """A position; unlisted cards are out of the game (rest: box) unless `rest` says otherwise. With `stay`,
    the current player has a second action left, so the game stays in their Action phase after one play
    (the next player's turn would otherwise begin and DRAW)."""
    data = {"name": "unit", "players": list(players),
            "turn": turn or {"player": players[0], "phase": "action"},
            "stables": stables or {}, "hands": hands or {}, "deck": list(FILLER if deck is None else deck),
            "discard": discard or [], "rest": rest}
    if options:
        data["options"] = options
    if nursery is not None:
        data["nursery"] = nursery
    g = build_game(parse_scenario(yaml.safe_dump(data, sort_keys=False)))
    if stay and data["turn"].get("phase") == "action":
        g.state.actions_left = 2
    return g


def play(g, card, *targets, into=None):
    g.push(Action("play", card=card, into=into, target=tuple(targets)))


def settle(g):
    """Pass every response window (the runner's advancing rule for windows)."""
    while g.pending is not None and g.pending.kind == "respond":
        g.push(Action("pass"))


def tgt(card, owner=None, zone="stable"):
    return Action("target", target=(Target(card=card, owner=owner, zone=zone),))


def tplayer(p):
    return Action("target", target=(Target(player=p),))


def texts(g):
    return [e.text for e in g.log]


def rules_logged(g):
    return {r for e in g.log for r in e.rules}


def push(g, ops, you=ANA, src=None):
    """Drive the frame machine directly: run a program of ops for `you` on top of the current position."""
    g.state.stack.append(prog(ops, you, src))
    g._pending = run(g.state)


def test_every_verb_registered():
    """The registry is the one list: the schema accepts exactly its verbs and the engine runs every one of
    them (so no card is silently a no-op), and every verb has rules or is a hook."""
    from uu.cards.schema import VERBS as SCHEMA_VERBS
    from uu.cards.verbs import VERBS as REGISTRY

    assert set(SCHEMA_VERBS) == set(REGISTRY) == set(VERB_HANDLERS)
    assert all(v.rules or v.name == "hook" for v in REGISTRY.values())
    assert all(v.does for v in REGISTRY.values())


def test_decisions_carry_their_verb():
    """Every choice of a target names the verb it is for (the heuristic bot reads it, never the prompt)."""
    from uu.bots import RandomBot
    from uu.cards.verbs import VERBS as REGISTRY
    from uu.engine import new_game

    seen = set()
    for seed in range(6):
        g = new_game(["A", "B", "C", "D"], seed=seed)
        bot = RandomBot(seed)
        while g.pending is not None and g.state.decisions < 400:
            d = g.pending
            if d.kind == "target":
                assert d.verb in REGISTRY, d
                seen.add(d.verb)
            g.push(bot.choose(g))
    assert seen


# ---- draw ------------------------------------------------------------------------------------------

def test_draw_takes_top_cards_in_order():
    """verb.draw, effect.and: Good Deal DRAWs the top 3 cards, then asks for one DISCARD."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Good Deal"]},
            deck=["Rhinocorn", "Yay", "Slowdown", "Neigh", "Neigh"])
    play(g, "Good Deal")
    assert Counter(g.hand(ANA)) == Counter(["Rhinocorn", "Yay", "Slowdown"])
    assert g.deck_size == 2
    assert g.pending.kind == "discard" and g.pending.player == ANA
    assert {a.card for a in g.legal_actions} == {"Rhinocorn", "Yay", "Slowdown"}
    g.push(Action("discard", card="Yay"))
    assert Counter(g.hand(ANA)) == Counter(["Rhinocorn", "Slowdown"])
    assert Counter(g.discard) == Counter(["Yay", "Good Deal"])
    assert "verb.draw" in rules_logged(g) and "verb.discard" in rules_logged(g)


def test_draw_from_empty_deck_draws_nothing():
    """verb.draw + effect.impossible-skip: a DRAW from an empty deck is disregarded, the rest still runs."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Rhinocorn"]}, deck=["Neigh"], stay=False)
    g.state.deck.clear()
    push(g, [{"do": "draw", "n": 2}, {"do": "extra_action"}])
    assert g.hand(ANA) == ["Rhinocorn"]
    assert g.state.actions_left == 2  # the op after the impossible DRAW still ran
    assert any("cannot DRAW" in e.text and "effect.impossible-skip" in e.rules for e in g.log)


def test_draw_reports_failure_so_then_is_skipped():
    """effect.then: a DRAW that drew nothing was not carried out, so its `then` part does not happen."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Rhinocorn"]}, deck=["Neigh"], stay=False)
    g.state.deck.clear()
    push(g, [{"do": "draw", "then": [{"do": "extra_action"}]}])
    assert g.state.actions_left == 1
    assert any("after 'then' does not happen" in t for t in texts(g))


# ---- discard ---------------------------------------------------------------------------------------

def test_discard_each_player_in_seat_order_from_controller():
    """verb.discard, target.players: Llamacorn makes every player DISCARD, asked in seat order starting with
    its controller; a player with an empty hand is skipped (effect.impossible-skip)."""
    g = pos(turn={"player": "Ben", "phase": "action"},
            stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Baby Unicorn (Blue)"]},
            hands={"Ana": ["Yay", "Slowdown"], "Ben": ["Llamacorn", "Rhinocorn", "Nanny Cam"], "Cy": []})
    play(g, "Llamacorn", into=BEN)
    settle(g)
    assert g.stable(BEN) == ["Baby Unicorn (Blue)", "Llamacorn"]
    # Ben (controller) first, then Cy (empty hand: skipped), then Ana
    assert g.pending.kind == "discard" and g.pending.player == BEN
    assert [a.card for a in g.legal_actions] == ["Rhinocorn", "Nanny Cam"]
    g.push(Action("discard", card="Nanny Cam"))
    assert g.pending.kind == "discard" and g.pending.player == ANA
    g.push(Action("discard", card="Slowdown"))
    assert g.discard == ["Nanny Cam", "Slowdown"]
    assert g.hand(ANA) == ["Yay"] and g.hand(BEN) == ["Rhinocorn"] and g.hand(CY) == []
    assert any("Cy has no card to DISCARD" in t for t in texts(g))
    assert g.pending.kind == "action" and g.pending.player == BEN  # back to the Action phase (action.one done)


def test_discard_other_player_chosen_then_they_choose():
    """verb.discard with who: other + effect.may: Annoying Flying Unicorn's controller may pick another
    player (only players with a card are offered), who then chooses the card to DISCARD."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Annoying Flying Unicorn"], "Ben": [], "Cy": ["Yay", "Slowdown"]})
    play(g, "Annoying Flying Unicorn", into=ANA)
    settle(g)
    assert g.pending.kind == "use" and g.pending.player == ANA
    g.push(Action("use", card="Annoying Flying Unicorn"))
    assert g.pending.kind == "target"
    assert list(g.legal_actions) == [tplayer(CY)]  # Ben has no card
    g.push(tplayer(CY))
    assert g.pending.kind == "discard" and g.pending.player == CY
    g.push(Action("discard", card="Yay"))
    assert g.hand(CY) == ["Slowdown"] and g.discard == ["Yay"]


def test_discard_n_needs_n_cards_or_then_fails():
    """effect.then + turn.extra: Change of Luck DRAWs 2, DISCARDs 3, then an extra turn. Ana holds one more
    card when she plays it (3 by the DISCARD: playable), but spends it on a Neigh meanwhile; at resolution
    she has only 2 cards to DISCARD, the DISCARD is not carried out in full, so no extra turn."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Change of Luck", "Neigh"], "Ben": ["Neigh"]},
            deck=["Yay", "Slowdown", "Neigh", "Neigh", "Neigh"])
    play(g, "Change of Luck")
    g.push(Action("respond", card="Neigh"))  # Ben stops it...
    g.push(Action("respond", card="Neigh"))  # ...and Ana stops Ben's Neigh
    settle(g)
    g.push(Action("discard", card="Yay"))
    g.push(Action("discard", card="Slowdown"))
    assert g.hand(ANA) == []
    assert g.state.extra_turns == []
    assert any("after 'then' does not happen" in t for t in texts(g))


# ---- sacrifice -------------------------------------------------------------------------------------

def test_sacrifice_each_player_babies_to_nursery():
    """verb.sacrifice, target.players, setup.babies-never-in-hand: Extremely Destructive Unicorn makes every
    player SACRIFICE a Unicorn (controller first); a sacrificed Baby goes to the Nursery."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Baby Unicorn (Blue)", "Rhinocorn"],
                     "Cy": ["Yay"]},
            hands={"Ana": ["Extremely Destructive Unicorn"]})
    play(g, "Extremely Destructive Unicorn", into=ANA)
    settle(g)
    assert g.pending.kind == "sacrifice" and g.pending.player == ANA
    assert {a.card for a in g.legal_actions} == {"Baby Unicorn (Red)", "Extremely Destructive Unicorn"}
    g.push(Action("sacrifice", card="Baby Unicorn (Red)"))
    assert g.pending.kind == "sacrifice" and g.pending.player == BEN
    assert {a.card for a in g.legal_actions} == {"Baby Unicorn (Blue)", "Rhinocorn"}  # not Yay: not a Unicorn
    g.push(Action("sacrifice", card="Rhinocorn"))
    # Cy has no Unicorn: skipped
    assert g.stable(ANA) == ["Extremely Destructive Unicorn"]
    assert g.stable(BEN) == ["Baby Unicorn (Blue)"]
    assert g.stable(CY) == ["Yay"]
    assert g.discard == ["Rhinocorn"]
    assert "Baby Unicorn (Red)" in g.nursery
    assert g.pending.kind == "action"


def test_sacrifice_all_takes_every_match_without_asking():
    """verb.sacrifice (all): Narwhal Torpedo SACRIFICEs every Downgrade in its controller's Stable, no
    choice asked; other cards and other Stables are untouched."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Slowdown", "Nanny Cam", "Yay"], "Ben": ["Pandamonium"]},
            hands={"Ana": ["Narwhal Torpedo"]})
    play(g, "Narwhal Torpedo", into=ANA)
    settle(g)
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Yay", "Narwhal Torpedo"]
    assert Counter(g.discard) == Counter(["Slowdown", "Nanny Cam"])
    assert g.stable(BEN) == ["Pandamonium"]
    assert g.pending.kind == "action"


def test_sacrifice_all_with_nothing_to_sacrifice_is_fine():
    """verb.sacrifice (all): with no Downgrade, Narwhal Torpedo simply does nothing (mandatory, no error)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Narwhal Torpedo", "Yay"]})
    play(g, "Narwhal Torpedo", into=ANA)
    settle(g)
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Narwhal Torpedo"]
    assert g.discard == []


def test_sacrifice_all_each_then_shuffle_discard():
    """verb.sacrifice (all, who: each) + verb.move-to-discard: Reset Button makes every player SACRIFICE all
    Upgrades and Downgrades, then the discard pile is shuffled into the deck (Reset Button itself is
    discarded afterwards)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rainbow Aura"], "Ben": ["Slowdown", "Yay"],
                     "Cy": ["Baby Unicorn (Blue)"]},
            hands={"Ana": ["Reset Button"]}, deck=["Neigh", "Neigh"], discard=["Rhinocorn"])
    play(g, "Reset Button")
    settle(g)
    assert g.stable(ANA) == ["Baby Unicorn (Red)"]
    assert g.stable(BEN) == []
    assert g.stable(CY) == ["Baby Unicorn (Blue)"]
    assert g.discard == ["Reset Button"]
    assert g.deck_size == 2 + 1 + 3
    assert Counter(g.state.names(g.state.deck)) == Counter(
        ["Neigh", "Neigh", "Rhinocorn", "Rainbow Aura", "Slowdown", "Yay"])


# ---- destroy ---------------------------------------------------------------------------------------

def test_destroy_sends_card_to_discard():
    """verb.destroy, card.magic-one-shot: Unicorn Poison DESTROYs the declared Unicorn; both go to the
    discard pile."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Baby Unicorn (Blue)", "Rhinocorn"]},
            hands={"Ana": ["Unicorn Poison"]})
    play(g, "Unicorn Poison", Target(card="Rhinocorn", owner=BEN))
    settle(g)
    assert g.stable(BEN) == ["Baby Unicorn (Blue)"]
    assert Counter(g.discard) == Counter(["Rhinocorn", "Unicorn Poison"])
    assert "verb.destroy" in rules_logged(g)


def test_destroy_baby_goes_to_nursery():
    """verb.destroy + setup.babies-never-in-hand: a destroyed Baby goes to the Nursery, not the discard."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Baby Unicorn (Blue)"]},
            hands={"Ana": ["Unicorn Poison"]})
    play(g, "Unicorn Poison", Target(card="Baby Unicorn (Blue)", owner=BEN))
    settle(g)
    assert g.stable(BEN) == []
    assert g.discard == ["Unicorn Poison"]
    assert "Baby Unicorn (Blue)" in g.nursery


def test_destroy_only_other_players_cards():
    """verb.destroy: Unicorn Poison only offers Unicorns in other players' Stables (never your own, never
    non-Unicorns)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": ["Yay", "Basic Unicorn (Red)"]},
            hands={"Ana": ["Unicorn Poison"]})
    plays = [a for a in g.legal_actions if a.card == "Unicorn Poison"]
    assert plays == [Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Red)",
                                                                          owner=BEN),))]


def test_destroy_two_cards_at_resolution():
    """verb.destroy (n: 2) + effect.then: Two-For-One SACRIFICEs a card, then DESTROYs 2 cards (declared up
    front with declare-first)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Slowdown"], "Ben": ["Rhinocorn", "Yay"]},
            hands={"Ana": ["Two-For-One"]})
    acts = [a for a in g.legal_actions if a.card == "Two-For-One"]
    want = Action("play", card="Two-For-One",
                  target=(Target(card="Rhinocorn", owner=BEN), Target(card="Yay", owner=BEN)))
    assert want in acts
    g.push(want)
    settle(g)
    assert g.pending.kind == "sacrifice" and g.pending.player == ANA
    g.push(Action("sacrifice", card="Slowdown"))
    assert g.stable(ANA) == ["Baby Unicorn (Red)"]
    assert g.stable(BEN) == []
    assert Counter(g.discard) == Counter(["Slowdown", "Rhinocorn", "Yay", "Two-For-One"])


# ---- steal -----------------------------------------------------------------------------------------

def test_steal_upgrade_into_your_stable():
    """verb.steal + effect.may: Alluring Narwhal may STEAL an Upgrade from another player's Stable."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rainbow Aura", "Rhinocorn"]},
            hands={"Ana": ["Alluring Narwhal"]})
    play(g, "Alluring Narwhal", into=ANA)
    settle(g)
    g.push(Action("use", card="Alluring Narwhal"))
    assert list(g.legal_actions) == [tgt("Rainbow Aura", BEN)]
    g.push(tgt("Rainbow Aura", BEN))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Alluring Narwhal", "Rainbow Aura"]
    assert g.stable(BEN) == ["Rhinocorn"]
    assert "verb.steal" in rules_logged(g)


def test_steal_triggers_enter_effect_for_thief():
    """verb.steal + effect.enter: Seductive Unicorn DISCARDs then STEALs a Unicorn; the stolen Unicorn
    enters the thief's Stable, so its enter effect (Greedy Flying Unicorn: DRAW) is the thief's."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Greedy Flying Unicorn"]},
            hands={"Ana": ["Seductive Unicorn", "Yay"]}, deck=["Slowdown", "Neigh", "Neigh"])
    play(g, "Seductive Unicorn", into=ANA)
    settle(g)
    g.push(Action("use", card="Seductive Unicorn"))
    g.push(Action("discard", card="Yay"))
    g.push(tgt("Greedy Flying Unicorn", BEN))
    settle(g)
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Seductive Unicorn", "Greedy Flying Unicorn"]
    assert g.stable(BEN) == []
    assert g.hand(ANA) == ["Slowdown"]  # Greedy's enter DRAW went to Ana
    assert g.discard == ["Yay"]


# ---- return ----------------------------------------------------------------------------------------

def test_return_then_who_target_discards():
    """effect.leave (return) + effect.then + who: target: Back Kick returns a card to its owner's hand; that
    player then DISCARDs a card of their choice."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rhinocorn"]},
            hands={"Ana": ["Back Kick"], "Ben": ["Yay"]})
    play(g, "Back Kick", Target(card="Rhinocorn", owner=BEN))
    settle(g)
    assert g.stable(BEN) == []
    assert g.pending.kind == "discard" and g.pending.player == BEN
    assert {a.card for a in g.legal_actions} == {"Yay", "Rhinocorn"}
    g.push(Action("discard", card="Yay"))
    assert g.hand(BEN) == ["Rhinocorn"]
    assert Counter(g.discard) == Counter(["Yay", "Back Kick"])


def test_return_baby_goes_to_nursery():
    """setup.babies-never-in-hand: a Baby returned to a hand goes to the Nursery instead."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Baby Unicorn (Blue)"]},
            hands={"Ana": ["Back Kick"], "Ben": ["Yay"]})
    play(g, "Back Kick", Target(card="Baby Unicorn (Blue)", owner=BEN))
    settle(g)
    g.push(Action("discard", card="Yay"))
    assert g.hand(BEN) == []
    assert "Baby Unicorn (Blue)" in g.nursery
    assert Counter(g.discard) == Counter(["Yay", "Back Kick"])


def test_return_from_each_player():
    """effect.leave (return from each) + target.players: Glitter Tornado returns one card from every
    Stable (its player chooses each, in seat order from the player; empty Stables are skipped)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": [],
                     "Cy": ["Yay", "Basic Unicorn (Red)"]},
            hands={"Ana": ["Glitter Tornado"]})
    play(g, "Glitter Tornado")
    settle(g)
    assert g.pending.player == ANA and g.pending.kind == "target"
    assert set(g.legal_actions) == {tgt("Baby Unicorn (Red)", ANA), tgt("Rhinocorn", ANA)}
    g.push(tgt("Rhinocorn", ANA))
    assert g.pending.player == ANA  # the player of Glitter Tornado chooses for Cy too (Ben skipped)
    assert set(g.legal_actions) == {tgt("Yay", CY), tgt("Basic Unicorn (Red)", CY)}
    g.push(tgt("Yay", CY))
    assert g.stable(ANA) == ["Baby Unicorn (Red)"] and g.hand(ANA) == ["Rhinocorn"]
    assert g.stable(CY) == ["Basic Unicorn (Red)"] and g.hand(CY) == ["Yay"]
    assert g.discard == ["Glitter Tornado"]


def test_return_this_flying_unicorn_back_to_hand():
    """effect.leave (return this): a destroyed Flying Unicorn goes to the discard pile, then its leave
    effect returns it to its owner's hand."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Majestic Flying Unicorn"]},
            hands={"Ana": ["Unicorn Poison"]})
    play(g, "Unicorn Poison", Target(card="Majestic Flying Unicorn", owner=BEN))
    settle(g)
    assert g.stable(BEN) == []
    if g.pending.kind == "target":  # the mandatory return of "this" may be asked as a single choice
        assert g.pending.player == BEN and list(g.legal_actions) == [tgt("Majestic Flying Unicorn",
                                                                         zone="discard")]
        g.push(g.legal_actions[0])
    assert g.hand(BEN) == ["Majestic Flying Unicorn"]
    assert g.discard == ["Unicorn Poison"]


# ---- move ------------------------------------------------------------------------------------------

def test_move_upgrade_to_different_player():
    """verb move (Re-Target): an Upgrade or Downgrade moves from any Stable into a different one; the card
    and the destination are declared with the play (option.targeting declare-first)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Slowdown"], "Ben": ["Rainbow Aura"]},
            hands={"Ana": ["Re-Target"]})
    acts = {a for a in g.legal_actions if a.card == "Re-Target"}
    assert acts == {
        Action("play", card="Re-Target", target=(Target(card="Slowdown", owner=ANA), Target(player=BEN))),
        Action("play", card="Re-Target", target=(Target(card="Slowdown", owner=ANA), Target(player=CY))),
        Action("play", card="Re-Target", target=(Target(card="Rainbow Aura", owner=BEN), Target(player=ANA))),
        Action("play", card="Re-Target", target=(Target(card="Rainbow Aura", owner=BEN), Target(player=CY))),
    }
    play(g, "Re-Target", Target(card="Slowdown", owner=ANA), Target(player=CY))
    settle(g)
    assert g.stable(ANA) == ["Baby Unicorn (Red)"]
    assert g.stable(CY) == ["Slowdown"]
    assert g.discard == ["Re-Target"]


def test_move_neigh_first_asks_card_then_destination():
    """verb move with option.targeting neigh-first: the card, then the Stable, are chosen on resolution."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rainbow Aura"]},
            hands={"Ana": ["Re-Target"]}, options={"targeting": "neigh-first"})
    play(g, "Re-Target")
    settle(g)
    assert list(g.legal_actions) == [tgt("Rainbow Aura", BEN)]
    g.push(tgt("Rainbow Aura", BEN))
    assert list(g.legal_actions) == [tplayer(ANA), tplayer(CY)]  # seat order from the player
    g.push(tplayer(ANA))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rainbow Aura"] and g.stable(BEN) == []


def test_move_then_steal_after_move():
    """verb move + steal_after_move (Unicorn Swap): move your Unicorn to another player, then STEAL a
    Unicorn from that same player (the moved one included)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": ["Basic Unicorn (Red)", "Yay"],
                     "Cy": ["Basic Unicorn (Blue)"]},
            hands={"Ana": ["Unicorn Swap"]})
    play(g, "Unicorn Swap", Target(card="Rhinocorn", owner=ANA), Target(player=BEN))
    settle(g)
    assert g.stable(BEN) == ["Basic Unicorn (Red)", "Yay", "Rhinocorn"]
    assert g.pending.kind == "target" and g.pending.player == ANA
    assert set(g.legal_actions) == {tgt("Basic Unicorn (Red)", BEN), tgt("Rhinocorn", BEN)}
    g.push(tgt("Basic Unicorn (Red)", BEN))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Basic Unicorn (Red)"]
    assert g.stable(BEN) == ["Yay", "Rhinocorn"]
    assert g.stable(CY) == ["Basic Unicorn (Blue)"]


def test_steal_after_move_without_receiver_does_nothing():
    """steal_after_move: with no player who just received a moved card, nothing is STOLEN."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rhinocorn"]}, hands={"Ana": ["Yay"]})
    g.state.ctx_player = None
    push(g, [{"do": "steal_after_move"}])
    assert g.stable(ANA) == ["Baby Unicorn (Red)"] and g.stable(BEN) == ["Rhinocorn"]
    assert g.state.last_ok is False


# ---- bring -----------------------------------------------------------------------------------------

def test_bring_from_hand_is_not_a_play():
    """effect.bring-not-play: Rainbow Unicorn brings a Basic Unicorn from hand straight into the Stable;
    no response window opens for it (Ben holds a Neigh and is never asked about the Basic)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Rainbow Unicorn", "Basic Unicorn (Red)", "Rhinocorn"], "Ben": ["Neigh"]})
    play(g, "Rainbow Unicorn", into=ANA)
    assert g.pending.kind == "respond" and g.pending.player == BEN
    g.push(Action("pass"))
    assert g.pending.kind == "use"
    g.push(Action("use", card="Rainbow Unicorn"))
    assert list(g.legal_actions) == [tgt("Basic Unicorn (Red)", ANA, zone="hand")]
    g.push(tgt("Basic Unicorn (Red)", ANA, zone="hand"))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rainbow Unicorn", "Basic Unicorn (Red)"]
    assert g.hand(ANA) == ["Rhinocorn"] and g.hand(BEN) == ["Neigh"]
    assert g.pending.kind == "action"
    assert "effect.bring-not-play" in rules_logged(g)


def test_bring_from_discard():
    """bring.from-discard: Kiss of Life puts a Unicorn from the discard pile into your Stable."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Kiss of Life"]},
            discard=["Rhinocorn", "Yay"])
    play(g, "Kiss of Life")
    settle(g)
    # the only Unicorn in the discard pile: a single legal choice
    assert list(g.legal_actions) == [tgt("Rhinocorn", zone="discard")]
    g.push(tgt("Rhinocorn", zone="discard"))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Rhinocorn"]
    assert Counter(g.discard) == Counter(["Yay", "Kiss of Life"])


def test_bring_from_nursery():
    """effect.enter (bring from the Nursery): Mother Goose Unicorn puts a Baby from the Nursery into your
    Stable."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Mother Goose Unicorn"]},
            nursery=["Baby Narwhal", "Baby Unicorn (Pink)"])
    play(g, "Mother Goose Unicorn", into=ANA)
    settle(g)
    g.push(Action("use", card="Mother Goose Unicorn"))
    assert set(g.legal_actions) == {tgt("Baby Narwhal", zone="nursery"), tgt("Baby Unicorn (Pink)",
                                                                               zone="nursery")}
    g.push(tgt("Baby Narwhal", zone="nursery"))
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Mother Goose Unicorn", "Baby Narwhal"]
    assert g.nursery == ["Baby Unicorn (Pink)"]


# ---- take ------------------------------------------------------------------------------------------

def test_take_from_discard_into_hand():
    """verb take: Magical Flying Unicorn takes a Magic card from the discard pile into your hand (only Magic
    cards are offered)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Magical Flying Unicorn"]},
            discard=["Unicorn Poison", "Rhinocorn", "Good Deal"])
    play(g, "Magical Flying Unicorn", into=ANA)
    settle(g)
    g.push(Action("use", card="Magical Flying Unicorn"))
    assert set(g.legal_actions) == {tgt("Unicorn Poison", zone="discard"), tgt("Good Deal", zone="discard")}
    g.push(tgt("Good Deal", zone="discard"))
    assert g.hand(ANA) == ["Good Deal"]
    assert Counter(g.discard) == Counter(["Unicorn Poison", "Rhinocorn"])


# ---- pull / look_take ------------------------------------------------------------------------------

def test_pull_takes_a_random_card_from_another_hand():
    """effect.pull-choose: Americorn pulls a random card from another player's hand (players with empty
    hands are not offered)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Americorn"], "Ben": [], "Cy": ["Yay", "Slowdown", "Nanny Cam"]})
    play(g, "Americorn", into=ANA)
    settle(g)
    g.push(Action("use", card="Americorn"))
    assert list(g.legal_actions) == [tplayer(CY)]
    g.push(tplayer(CY))
    assert len(g.hand(ANA)) == 1 and len(g.hand(CY)) == 2
    assert Counter(g.hand(ANA) + g.hand(CY)) == Counter(["Yay", "Slowdown", "Nanny Cam"])
    assert "effect.pull-choose" in rules_logged(g)


def test_pull_is_deterministic_for_a_seed():
    """effect.pull-choose: the random pick comes from the state's seeded RNG (same seed ⇒ same card)."""
    got = []
    for _ in range(2):
        g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
                hands={"Ana": ["Americorn"], "Cy": ["Yay", "Slowdown", "Nanny Cam", "Pandamonium"]},
                options={"seed": 11})
        play(g, "Americorn", into=ANA)
        settle(g)
        g.push(Action("use", card="Americorn"))
        g.push(tplayer(CY))
        got.append(g.hand(ANA))
    assert got[0] == got[1]


def test_look_take_chosen_card():
    """effect.pull-choose: Blatant Thievery lets its player look at another hand and take the card of their
    choice (the player is declared with the play)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Blatant Thievery"], "Ben": ["Yay", "Slowdown"], "Cy": []})
    assert {a for a in g.legal_actions if a.card == "Blatant Thievery"} == {
        Action("play", card="Blatant Thievery", target=(Target(player=BEN),))}
    play(g, "Blatant Thievery", Target(player=BEN))
    settle(g)
    assert set(g.legal_actions) == {tgt("Yay", BEN, zone="hand"), tgt("Slowdown", BEN, zone="hand")}
    g.push(tgt("Slowdown", BEN, zone="hand"))
    assert g.hand(ANA) == ["Slowdown"] and g.hand(BEN) == ["Yay"]


def test_look_take_not_playable_when_no_other_hand_has_cards():
    """effect.impossible-play: Blatant Thievery cannot be played when every other hand is empty."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Blatant Thievery"]})
    assert [a.card for a in g.legal_actions if a.kind == "play"] == []


# ---- search ----------------------------------------------------------------------------------------

def test_search_takes_chosen_match_and_reveals():
    """search.must-find + search.reveal: Classy Narwhal searches the deck for an Upgrade; any match may be
    taken, it is revealed, and the deck is shuffled."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Classy Narwhal"]},
            deck=["Neigh", "Rainbow Aura", "Neigh", "Yay", "Neigh"])
    play(g, "Classy Narwhal", into=ANA)
    settle(g)
    g.push(Action("use", card="Classy Narwhal"))
    assert set(g.legal_actions) == {tgt("Rainbow Aura", zone="deck"), tgt("Yay", zone="deck")}
    g.push(tgt("Yay", zone="deck"))
    assert g.hand(ANA) == ["Yay"]
    assert g.deck_size == 4
    assert g.state.name(g.state.revealed[-1]) == "Yay"
    assert {"search.reveal", "search.must-find"} <= rules_logged(g)


def test_search_with_no_match_is_not_offered():
    """effect.may + search.must-find: with no Upgrade in the deck, Classy Narwhal's optional search could
    do nothing, so it is not offered at all."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Classy Narwhal"]},
            deck=["Neigh", "Neigh"])
    play(g, "Classy Narwhal", into=ANA)
    settle(g)
    assert g.pending.kind == "action" and g.pending.player == ANA
    assert g.hand(ANA) == []
    assert any("not offered" in t for t in texts(g))


def test_search_mandatory_finds_nothing_shuffles():
    """search.must-find: a search that finds nothing shuffles the deck and reports failure."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay"]}, deck=["Neigh", "Neigh"])
    push(g, [{"do": "search", "what": "downgrade"}])
    assert g.hand(ANA) == ["Yay"] and g.deck_size == 2
    assert g.state.last_ok is False
    assert any("finds no" in t for t in texts(g))


# ---- shuffle the discard pile into the deck --------------------------------------------------------

def test_shuffle_discard_into_deck_after_each_discard():
    """verb.discard (each) + verb.move-to-discard: Mystical Vortex makes every player DISCARD, then shuffles
    the discard pile into the deck; Mystical Vortex itself is discarded after it resolves."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Mystical Vortex", "Yay"], "Ben": ["Slowdown"], "Cy": []},
            deck=["Neigh"], discard=["Rhinocorn"])
    play(g, "Mystical Vortex")
    settle(g)
    # Ana and Ben each have exactly one card: single choices
    assert g.pending.kind == "discard" and g.pending.player == ANA
    g.push(Action("discard", card="Yay"))
    g.push(Action("discard", card="Slowdown"))
    assert g.discard == ["Mystical Vortex"]
    assert Counter(g.state.names(g.state.deck)) == Counter(["Neigh", "Rhinocorn", "Yay", "Slowdown"])
    assert g.hand(ANA) == [] and g.hand(BEN) == []


# ---- swap hands ------------------------------------------------------------------------------------

def test_swap_hands():
    """verb swap_hands (Unfair Bargain): trade whole hands with the declared player (even an empty hand)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Unfair Bargain", "Yay", "Rhinocorn"], "Ben": ["Slowdown"], "Cy": []})
    assert {a for a in g.legal_actions if a.card == "Unfair Bargain"} == {
        Action("play", card="Unfair Bargain", target=(Target(player=BEN),)),
        Action("play", card="Unfair Bargain", target=(Target(player=CY),))}
    play(g, "Unfair Bargain", Target(player=BEN))
    settle(g)
    assert g.hand(ANA) == ["Slowdown"]
    assert Counter(g.hand(BEN)) == Counter(["Yay", "Rhinocorn"])
    assert g.discard == ["Unfair Bargain"]


# ---- look at the top cards -------------------------------------------------------------------------

def test_look_top_keep_one_order_rest():
    """verb look_top (Unicorn Oracle): look at the top 3, keep 1, put the other 2 back on top in the
    chosen order."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Unicorn Oracle"]},
            deck=["Yay", "Slowdown", "Rhinocorn", "Neigh"])
    play(g, "Unicorn Oracle", into=ANA)
    settle(g)
    assert g.pending.kind == "choose"
    assert {a.option for a in g.legal_actions} == {"Yay", "Slowdown", "Rhinocorn"}
    g.push(Action("choose", option="Slowdown"))
    assert g.hand(ANA) == ["Slowdown"]
    assert g.pending.kind == "order"
    assert set(g.legal_actions) == {Action("order", cards=("Yay", "Rhinocorn")),
                                    Action("order", cards=("Rhinocorn", "Yay"))}
    g.push(Action("order", cards=("Rhinocorn", "Yay")))
    assert g.state.names(g.state.deck) == ["Rhinocorn", "Yay", "Neigh"]


def test_look_top_short_deck():
    """verb look_top: with 2 cards left, look at 2, keep 1; the last one stays (no order decision)."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Unicorn Oracle"]},
            deck=["Yay", "Slowdown"])
    play(g, "Unicorn Oracle", into=ANA)
    settle(g)
    g.push(Action("choose", option="Yay"))
    assert g.hand(ANA) == ["Yay"]
    assert g.state.names(g.state.deck) == ["Slowdown"]
    assert g.pending.kind == "action"


# ---- turn verbs: end_turn / extra_turn / extra_action / skip_phase / skip_turn ---------------------

def test_end_turn_skips_draw_and_action():
    """bot.skip-to-end + end.never-skipped: Rhinocorn's DESTROY then ends the turn: no Draw, no Action
    phase; End of Turn still happens and the next player's turn begins."""
    g = pos(turn={"player": "Ana", "phase": "beginning"},
            stables={"Ana": ["Baby Unicorn (Red)", "Rhinocorn"], "Ben": ["Basic Unicorn (Red)"]},
            hands={"Ana": ["Yay"]}, deck=["Slowdown"] + FILLER)
    assert g.pending.kind == "use" and g.pending.card == "Rhinocorn"
    g.push(Action("use", card="Rhinocorn"))
    g.push(tgt("Basic Unicorn (Red)", BEN))
    assert g.stable(BEN) == []
    assert g.hand(ANA) == ["Yay"]  # no DRAW phase
    assert g.turn[0] == BEN and g.turn[2] == 2
    assert "bot.skip-to-end" in rules_logged(g)


def test_extra_turn_taken_after_this_one():
    """turn.extra: Change of Luck (DRAW 2, DISCARD 3, then another turn): after End of Turn the same player
    takes another turn."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Change of Luck", "Yay", "Slowdown"]},
            deck=["Nanny Cam", "Pandamonium"] + FILLER, stay=False)
    play(g, "Change of Luck")
    settle(g)
    for c in ("Yay", "Slowdown"):
        g.push(Action("discard", card=c))
    assert g.state.extra_turns == []
    g.push(Action("discard", card="Nanny Cam"))
    # End of Turn happens with no decision (hand ≤ 7), then Ana's extra turn: turn 2, Ana, Action phase
    assert g.turn == (ANA, "action", 2)
    assert g.hand(ANA) == ["Pandamonium", "Neigh"]
    assert any("takes another turn" in t for t in texts(g))


def test_extra_action_double_dutch():
    """action.one + extra_action: Double Dutch (beginning of turn, optional) lets its owner play 2 cards in
    the Action phase."""
    g = pos(turn={"player": "Ana", "phase": "beginning"},
            stables={"Ana": ["Baby Unicorn (Red)", "Double Dutch"]},
            hands={"Ana": ["Rhinocorn", "Yay"]}, deck=["Slowdown"] + FILLER)
    g.push(Action("use", card="Double Dutch"))
    assert g.turn == (ANA, "action", 1)
    g.push(Action("play", card="Rhinocorn", into=ANA))
    assert g.pending.kind == "action" and g.pending.player == ANA  # a second card
    g.push(Action("play", card="Yay", into=ANA))
    assert g.turn[0] == BEN
    assert g.stable(ANA) == ["Baby Unicorn (Red)", "Double Dutch", "Rhinocorn", "Yay"]


def test_skip_phase_draw():
    """turn.skip-phase + status.skipped-phase: a skipped Draw phase draws nothing; the Action phase follows."""
    import yaml as _y

    from uu.engine.game import Game
    from uu.scenario.to_game import build_state

    sc = parse_scenario(_y.safe_dump({"name": "unit", "players": ["Ana", "Ben", "Cy"],
                                      "turn": {"player": "Ana", "phase": "draw"},
                                      "stables": {"Ana": ["Baby Unicorn (Red)"]}, "hands": {"Ana": ["Yay"]},
                                      "deck": ["Slowdown"] + FILLER, "rest": "box"}))
    s = build_state(sc)  # stage after-beginning: the Draw phase is next
    s.stack.append(prog([{"do": "skip_phase", "phase": "draw"}], ANA, None))
    g = Game(s)
    assert g.turn == (ANA, "action", 1)
    assert g.hand(ANA) == ["Yay"]
    assert g.deck_size == 11
    assert any("draw phase is skipped" in t for t in texts(g))


def test_no_skip_phase_draws():
    """draw.phase (control for the test above): the same position without the skip DRAWs the top card."""
    g = pos(turn={"player": "Ana", "phase": "draw"}, stables={"Ana": ["Baby Unicorn (Red)"]},
            hands={"Ana": ["Yay"]}, deck=["Slowdown"] + FILLER)
    assert g.turn == (ANA, "action", 1)
    assert g.hand(ANA) == ["Yay", "Slowdown"]


def test_skip_phase_end_is_refused():
    """end.never-skipped: End of Turn cannot be skipped."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay"]})
    push(g, [{"do": "skip_phase", "phase": "end"}])
    assert "end" not in g.state.skip_phases
    assert g.state.last_ok is False
    assert any("never skipped" in t for t in texts(g))


def test_skip_turn_chooses_other_player():
    """turn.skip-other + turn.skips-add-up: skip_turn asks for another player and adds one skipped turn."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay"]})
    src = g.state.hands[ANA][0]
    push(g, [{"do": "skip_turn"}, {"do": "skip_turn"}], src=src)
    assert g.pending.kind == "target" and set(g.legal_actions) == {tplayer(BEN), tplayer(CY)}
    g.push(tplayer(BEN))
    g.push(tplayer(BEN))
    assert g.state.skip_turns == [0, 2, 0]


# ---- choose one ------------------------------------------------------------------------------------

def test_choose_one_offers_only_possible_options():
    """effect.impossible-skip + choose_one: Targeted Destruction offers only the options that could do
    something; the chosen option runs."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)", "Slowdown"], "Ben": ["Rainbow Aura"]},
            hands={"Ana": ["Targeted Destruction"]})
    play(g, "Targeted Destruction")
    settle(g)
    assert g.pending.kind == "choose"
    assert [a.option for a in g.legal_actions] == ["DESTROY an Upgrade", "SACRIFICE a Downgrade"]
    g.push(Action("choose", option="SACRIFICE a Downgrade"))
    assert list(g.legal_actions) == [Action("sacrifice", card="Slowdown")]
    g.push(Action("sacrifice", card="Slowdown"))
    assert g.stable(ANA) == ["Baby Unicorn (Red)"]
    assert g.stable(BEN) == ["Rainbow Aura"]
    assert Counter(g.discard) == Counter(["Slowdown", "Targeted Destruction"])


def test_choose_one_single_possible_option():
    """choose_one: with no Downgrade to SACRIFICE, only "DESTROY an Upgrade" is offered."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rainbow Aura"]},
            hands={"Ana": ["Targeted Destruction"]})
    play(g, "Targeted Destruction")
    settle(g)
    assert [a.option for a in g.legal_actions] == ["DESTROY an Upgrade"]
    g.push(Action("choose", option="DESTROY an Upgrade"))
    assert list(g.legal_actions) == [tgt("Rainbow Aura", BEN)]
    g.push(tgt("Rainbow Aura", BEN))
    assert g.stable(BEN) == []
    assert Counter(g.discard) == Counter(["Rainbow Aura", "Targeted Destruction"])


# ---- hook: Shake Up --------------------------------------------------------------------------------

def test_hook_shake_up():
    """hook shake_up: this card, your hand and the discard pile are shuffled into the deck, then DRAW 5."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Shake Up", "Yay", "Slowdown"]},
            deck=["Neigh", "Neigh"], discard=["Rhinocorn", "Pandamonium"])
    play(g, "Shake Up")
    settle(g)
    assert g.discard == []
    assert len(g.hand(ANA)) == 5
    assert g.deck_size == 7 - 5
    everything = Counter(g.hand(ANA) + g.state.names(g.state.deck))
    assert everything == Counter(["Shake Up", "Yay", "Slowdown", "Neigh", "Neigh", "Rhinocorn", "Pandamonium"])


# ---- connectives -----------------------------------------------------------------------------------

def test_then_runs_only_if_first_part_happened():
    """effect.then: Sadistic Ritual (mandatory at the start of the turn): SACRIFICE a Unicorn, then DRAW;
    with no Unicorn to SACRIFICE, there is no DRAW (beyond the Draw phase's own card)."""
    g = pos(turn={"player": "Ana", "phase": "beginning"}, stables={"Ana": ["Sadistic Ritual"]},
            hands={"Ana": []}, deck=["Yay", "Slowdown"] + FILLER)
    assert g.turn == (ANA, "action", 1)
    assert g.hand(ANA) == ["Yay"]  # only the Draw phase card
    assert g.deck_size == 11 and g.discard == []


def test_then_runs_when_first_part_happened():
    """effect.then: Sadistic Ritual with a Unicorn: SACRIFICE it, then DRAW."""
    g = pos(turn={"player": "Ana", "phase": "beginning"},
            stables={"Ana": ["Sadistic Ritual", "Rhinocorn"]},
            deck=["Yay", "Slowdown"] + FILLER)
    # the only Unicorn: a single legal SACRIFICE
    assert g.pending.kind == "sacrifice" and list(g.legal_actions) == [Action("sacrifice", card="Rhinocorn")]
    g.push(Action("sacrifice", card="Rhinocorn"))
    assert g.turn == (ANA, "action", 1)
    assert g.hand(ANA) == ["Yay", "Slowdown"]
    assert g.discard == ["Rhinocorn"]


def test_if_you_do_needs_the_choice():
    """effect.if-you-do: the part after 'if you do' happens only when the player chose the optional part."""
    for choice, want in (("use", 2), ("decline", 1)):
        g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay"]}, stay=False)
        src = g.state.hands[ANA][0]
        push(g, [{"do": "draw", "may": True, "if_you_do": [{"do": "extra_action"}]}], src=src)
        assert g.pending.kind == "use" and g.pending.player == ANA
        g.push(Action(choice, card="Yay"))
        assert g.state.actions_left == want, choice
        assert len(g.hand(ANA)) == (2 if choice == "use" else 1)


def test_if_you_do_mandatory_follows_success():
    """effect.if-you-do: without `may`, `if_you_do` follows whether the first part was carried out."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Yay"]}, stay=False)
    push(g, [{"do": "draw", "if_you_do": [{"do": "extra_action"}]}])
    assert g.state.actions_left == 2


def test_may_declined_does_nothing():
    """effect.may: declining an optional enter effect leaves everything as it was."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Ben": ["Rainbow Aura"]},
            hands={"Ana": ["Alluring Narwhal"]})
    play(g, "Alluring Narwhal", into=ANA)
    settle(g)
    assert set(g.legal_actions) == {Action("use", card="Alluring Narwhal"),
                                    Action("decline", card="Alluring Narwhal")}
    g.push(Action("decline", card="Alluring Narwhal"))
    assert g.stable(BEN) == ["Rainbow Aura"]
    assert g.pending.kind == "action"
    assert any("declines" in t or "does not use" in t for t in texts(g))


def test_who_target_is_player_hit_by_previous_op():
    """who: target (Back Kick): the DISCARD is made by the player whose card was returned, not the
    player of Back Kick, even when the player of Back Kick has cards."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"], "Cy": ["Yay"]},
            hands={"Ana": ["Back Kick", "Rhinocorn"], "Ben": ["Slowdown"], "Cy": ["Pandamonium", "Nanny Cam"]})
    play(g, "Back Kick", Target(card="Yay", owner=CY))
    settle(g)
    assert g.pending.kind == "discard" and g.pending.player == CY
    g.push(Action("discard", card="Nanny Cam"))
    assert Counter(g.hand(CY)) == Counter(["Pandamonium", "Yay"])
    assert g.hand(ANA) == ["Rhinocorn"] and g.hand(BEN) == ["Slowdown"]


def test_who_other_without_candidates_is_not_offered():
    """effect.may + effect.impossible-skip: Annoying Flying Unicorn's optional DISCARD is not offered when
    no other player has a card."""
    g = pos(stables={"Ana": ["Baby Unicorn (Red)"]}, hands={"Ana": ["Annoying Flying Unicorn", "Yay"]})
    play(g, "Annoying Flying Unicorn", into=ANA)
    settle(g)
    assert g.pending.kind == "action"
    assert g.hand(ANA) == ["Yay"]
