"""Why a move is not allowed (uu.words.whynot): one sentence and its rule, from real positions.

Every case builds its position with the scenario format, asks `why_not`, and checks the sentence's key
point, the rule id, that the sentence has no internal ids, and that asking changed nothing.
"""

from __future__ import annotations

import random
import textwrap

import pytest

from uu.engine import new_game
from uu.engine.actions import Action, Target
from uu.engine.errors import GameError
from uu.engine.game import Game
from uu.scenario.load import parse_scenario
from uu.scenario.to_game import build_game
from uu.words.rulewords import internal_ids_in
from uu.words.whynot import Reason, why_not

ANA, BEN, CY = 0, 1, 2
DECK = "deck: [Good Deal, Shake Up, Reset Button]\nrest: box\n"


def position(text: str) -> Game:
    body = textwrap.dedent(text)
    if "players:" not in body:
        body = "players: [Ana, Ben, Cy]\n" + body
    if "deck:" not in body:
        body += DECK
    return build_game(parse_scenario("name: why not\n" + body))


def why(game: Game, action: Action, rule: str | None, *words: str, player: int | None = None) -> Reason:
    """Ask why_not; check the rule, the key words, no ids in the sentence, and an unchanged game."""
    before = game.to_dict()
    pending = game.pending
    reason = why_not(game, action, player)
    assert reason is not None, f"{action!r} should not be allowed"
    assert reason.rule == rule, reason
    for w in words:
        assert w in reason.text, (w, reason.text)
    assert internal_ids_in(reason.text) == [], reason.text
    assert "Legal:" not in reason.text and len(reason.text) < 260, reason.text
    assert game.to_dict() == before
    assert game.pending == pending
    return reason


def answer(game: Game, *actions: Action) -> Game:
    for a in actions:
        game.push(a)
    return game


POISON_BEN_BLUE = Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Blue)", owner=BEN),))


# ---- legal moves ---------------------------------------------------------------------------------------------

def test_legal_move_has_no_reason():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)], Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison, Basic Unicorn (Red)]}
    """)
    assert why_not(g, Action("draw")) is None
    assert why_not(g, POISON_BEN_BLUE) is None
    assert why_not(g, Action("play", card="Basic Unicorn (Red)", into=BEN)) is None
    assert why_not(g, Action("draw"), player=ANA) is None


def test_ambiguous_move_asks_which():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Basic Unicorn (Red)]}
    """)
    why(g, Action("play", card="Basic Unicorn (Red)"), "card.unicorn-any-stable", "Say which player's Stable")


# ---- the game is over; whose decision; what kind of decision ---------------------------------------------------

def test_game_over():
    g = position("""
        turn: {player: Ana, phase: action}
        stables:
          Ana: [Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Orange), Basic Unicorn (Yellow),
                Basic Unicorn (Green), Basic Unicorn (Blue)]
        hands: {Ana: [Basic Unicorn (Indigo)]}
        deck: [Basic Unicorn (Purple), Basic Unicorn (Purple)]
        rest: box
    """)
    answer(g, Action("play", card="Basic Unicorn (Indigo)", into=ANA))
    assert g.is_over
    r = why(g, Action("draw"), "win.threshold", "The game is over", "Ana has won")
    assert why_not(g, Action("pass")) == r


def test_not_your_decision_says_whose_and_what():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Basic Unicorn (Red)], Ben: [Basic Unicorn (Green)]}
    """)
    why(g, Action("draw"), "action.one", "It is Ana's decision now, not yours", "Ana must play a card from their hand",
        player=BEN)
    why(g, Action("play", card="Basic Unicorn (Green)", into=BEN), "action.one", "Ana's decision", player=BEN)


def test_play_while_the_decision_is_to_discard():
    g = position("""
        turn: {player: Ana, phase: end}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Orange),
                      Basic Unicorn (Orange), Basic Unicorn (Orange), Basic Unicorn (Green), Unicorn Poison]}
    """)
    assert g.pending.kind == "discard"
    why(g, Action("play", card="Basic Unicorn (Red)", into=ANA), "end.hand-limit", "cannot play a card now",
        "DISCARD down to the hand limit")
    why(g, Action("draw"), "action.draw-instead", "only in your own Action phase", "DISCARD down to the hand limit")
    why(g, Action("pass"), "end.hand-limit", "no card waiting for your answer")


def test_play_while_the_decision_is_to_answer():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)], Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison], Ben: [Neigh, Basic Unicorn (Green)]}
    """)
    answer(g, POISON_BEN_BLUE)
    assert (g.pending.player, g.pending.kind) == (BEN, "respond")
    why(g, Action("play", card="Basic Unicorn (Green)", into=BEN), "instant.when", "cannot play a card now",
        "answer Ana's Unicorn Poison with an Instant, or pass")
    why(g, Action("play", card="Neigh"), "instant.not-an-action", "Use your Neigh to answer Ana's Unicorn Poison")


def test_play_while_the_decision_is_a_target():
    g = position("""
        options: {targeting: neigh-first}
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)], Ben: [Basic Unicorn (Blue)], Cy: [Yay]}
        hands: {Ana: [Unicorn Poison, Basic Unicorn (Red)]}
    """)
    answer(g, Action("play", card="Unicorn Poison"))
    assert g.pending.kind == "target"
    why(g, Action("play", card="Basic Unicorn (Red)", into=ANA), "verb.destroy", "cannot play a card now",
        "choose a card for Unicorn Poison")
    why(g, Action("target", target=(Target(card="Baby Unicorn (Red)", owner=ANA),)), "verb.destroy",
        "another player's Stable", "SACRIFICE")
    why(g, Action("target", target=(Target(card="Yay", owner=CY),)), "action.magic-target",
        "can only DESTROY a Unicorn card", "Yay is an Upgrade card")
    why(g, Action("target", target=(Target(card="Basic Unicorn (Green)", owner=CY),)), "verb.destroy",
        "There is no Basic Unicorn (Green) in Cy's Stable")


# ---- cards in hand, Instants, Magic cards ----------------------------------------------------------------------

@pytest.fixture
def action_phase() -> Game:
    return position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red), Basic Unicorn (Red)], Ben: [Basic Unicorn (Blue), Yay]}
        hands: {Ana: [Neigh, Super Neigh, Unicorn Poison]}
    """)


def test_card_not_in_hand(action_phase: Game):
    why(action_phase, Action("play", card="Back Kick"), "action.one", "You have no Back Kick in your hand")
    why(action_phase, Action("play", card="Basic Unicorn (Red)", into=ANA), "action.one",
        "already in your Stable")
    why(action_phase, Action("play", card="Baby Unicorn (Pink)", into=ANA), "setup.babies-never-in-hand",
        "never in a hand")
    why(action_phase, Action("play", card="No Such Card"), None, "no card called No Such Card")


def test_instant_is_never_your_action(action_phase: Game):
    for card in ("Neigh", "Super Neigh"):
        why(action_phase, Action("play", card=card), "instant.not-an-action", f"{card} is an Instant",
            "never your action", "answer a card another player plays")


def test_answering_when_no_card_is_played(action_phase: Game):
    why(action_phase, Action("respond", card="Neigh"), "instant.when", "No card is being played right now")
    why(action_phase, Action("respond", card="Unicorn Poison"), "instant.when", "Only an Instant card",
        "Unicorn Poison is a Magic card")


def test_magic_card_goes_into_no_stable(action_phase: Game):
    why(action_phase, Action("play", card="Unicorn Poison", into=BEN, target=POISON_BEN_BLUE.target),
        "card.magic-one-shot", "goes into no Stable")


def test_magic_target_own_card_or_wrong_kind(action_phase: Game):
    why(action_phase, Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Red)", owner=ANA),)),
        "verb.destroy", "DESTROY takes a card from another player's Stable")
    why(action_phase, Action("play", card="Unicorn Poison", target=(Target(card="Yay", owner=BEN),)),
        "action.magic-target", "Yay is an Upgrade card")


def test_neigh_first_plays_name_no_target():
    g = position("""
        options: {targeting: neigh-first}
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison]}
    """)
    why(g, POISON_BEN_BLUE, "option.targeting", "without naming a target")


def test_magic_card_with_an_impossible_effect():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Basic Unicorn (Red)], Ben: [Yay]}
        hands: {Ana: [Unicorn Poison, Unicorn Swap, Kiss of Life, Blatant Thievery]}
    """)
    why(g, Action("play", card="Unicorn Poison"), "effect.impossible-play",
        "would have you DESTROY a Unicorn card in another player's Stable", "no other player has one",
        "cannot play it now")
    why(g, Action("play", card="Kiss of Life"), "effect.impossible-play", "from the discard pile",
        "there is none in the discard pile")
    why(g, Action("play", card="Blatant Thievery"), "effect.impossible-play",
        "no other player has a card in hand")


def test_discard_larger_than_the_hand_will_be():
    """effect.impossible-play: Change of Luck leaves the hand, draws 2 and DISCARDs 3; with one other card the
    hand will hold only 3 - fine; with none, only 2 - the card cannot be played, and the reason says so."""
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Change of Luck]}
        deck: [Neigh, Neigh, Neigh]
        rest: box
    """)
    why(g, Action("play", card="Change of Luck"), "effect.impossible-play", "DISCARD 3 cards",
        "only 2 cards by then", "cannot play it now")
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Change of Luck, Yay]}
        deck: [Neigh, Neigh, Neigh]
        rest: box
    """)
    assert why_not(g, Action("play", card="Change of Luck")) is None


def test_each_player_discard_with_the_last_card_names_the_shortfall():
    """effect.impossible-play: Mystical Vortex has every player, you included, DISCARD; as Ana's last card it
    would leave her nothing to DISCARD, so it cannot be played. With one more card it can."""
    g = position("""
        turn: {player: Ana, phase: action}
        hands: {Ana: [Mystical Vortex], Ben: [Yay]}
    """)
    assert all(a.card != "Mystical Vortex" for a in g.legal_actions)
    why(g, Action("play", card="Mystical Vortex"), "effect.impossible-play",
        "every player, you included, DISCARD a card", "you will hold no cards by then", "cannot play it now")
    g = position("""
        turn: {player: Ana, phase: action}
        hands: {Ana: [Mystical Vortex, Yay], Ben: [Yay]}
    """)
    assert any(a.card == "Mystical Vortex" for a in g.legal_actions)
    assert why_not(g, Action("play", card="Mystical Vortex")) is None


def test_responder_order_names_every_seat_before_you():
    """Four players: Ana plays, Ben and Cy are asked before Dee, and the sentence names both."""
    g = position("""
        players: [Ana, Ben, Cy, Dee]
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison], Ben: [Neigh], Cy: [Neigh], Dee: [Neigh]}
    """)
    answer(g, POISON_BEN_BLUE)
    r = why(g, Action("respond", card="Neigh"), "option.responder-order", "In this tutor", player=3)
    assert "only if Ben and Cy pass" in r.text, r.text


def test_discard_judged_at_resolution_when_the_hand_cannot_be_known():
    """A deck too short for the DRAWs: how many cards arrive depends on the deck-out rules, so the card
    stays playable and the DISCARD is judged when it resolves."""
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Baby Unicorn (Red)]}
        hands: {Ana: [Change of Luck]}
        deck: [Neigh]
        rest: box
        options: {deck_out: reshuffle}
    """)
    assert why_not(g, Action("play", card="Change of Luck")) is None


def test_other_player_with_empty_hand_cannot_be_chosen():
    g = position("""
        turn: {player: Ana, phase: action}
        hands: {Ana: [Blatant Thievery, Unfair Bargain], Cy: [Neigh]}
    """)
    why(g, Action("play", card="Blatant Thievery", target=(Target(player=BEN),)), "action.magic-target",
        "Ben has no cards in hand")
    why(g, Action("play", card="Unfair Bargain", target=(Target(player=ANA),)), "target.players",
        "needs another player, not you")


# ---- cards in play that block a move ---------------------------------------------------------------------------

def test_broken_stable_blocks_upgrades():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Broken Stable]}
        hands: {Ana: [Yay, Slowdown]}
    """)
    why(g, Action("play", card="Yay", into=ANA), "action.requirements", "Broken Stable in your Stable",
        "Upgrade cards")
    assert why_not(g, Action("play", card="Slowdown", into=BEN)) is None


def test_queen_bee_keeps_basics_out():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Queen Bee Unicorn]}
        hands: {Ana: [Basic Unicorn (Red), Rhinocorn]}
    """)
    why(g, Action("play", card="Basic Unicorn (Red)", into=ANA), "action.valid-stable",
        "Queen Bee Unicorn in Ben's Stable", "cannot go into your Stable")
    assert why_not(g, Action("play", card="Basic Unicorn (Red)", into=BEN)) is None
    assert why_not(g, Action("play", card="Rhinocorn", into=ANA)) is None
    why(g, Action("play", card="Rhinocorn", into=7), "target.players", "no such player")


def test_pandamonium_pandas_are_not_unicorns():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Pandamonium, Basic Unicorn (Blue)], Cy: [Basic Unicorn (Green)]}
        hands: {Ana: [Unicorn Poison]}
    """)
    why(g, POISON_BEN_BLUE, "option.pandas", "Pandamonium is in Ben's Stable", "count as Pandas")
    only_pandas = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Pandamonium, Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison]}
    """)
    why(only_pandas, Action("play", card="Unicorn Poison"), "effect.impossible-play",
        "Pandamonium makes the Unicorns in Ben's Stable count as Pandas", "cannot play it now")


def test_rainbow_aura_and_kittencorn_cannot_be_destroyed():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Rainbow Aura, Basic Unicorn (Blue)], Cy: [Magical Kittencorn, Basic Unicorn (Green)]}
        hands: {Ana: [Unicorn Poison]}
    """)
    why(g, POISON_BEN_BLUE, "effect.immunity", "Rainbow Aura in Ben's Stable", "cannot be DESTROYED")
    why(g, Action("play", card="Unicorn Poison", target=(Target(card="Magical Kittencorn", owner=CY),)),
        "effect.immunity", "Magic cards cannot DESTROY Magical Kittencorn")
    assert why_not(g, Action("play", card="Unicorn Poison",
                             target=(Target(card="Basic Unicorn (Green)", owner=CY),))) is None


def test_rainbow_aura_makes_poison_impossible():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Rainbow Aura, Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison]}
    """)
    why(g, Action("play", card="Unicorn Poison"), "effect.impossible-play",
        "Rainbow Aura keeps the Unicorns in Ben's Stable from being DESTROYED")


def test_target_must_be_in_a_stable():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison], Ben: [Basic Unicorn (Green)]}
    """)
    why(g, Action("play", card="Unicorn Poison", target=(Target(card="Basic Unicorn (Green)", owner=BEN, zone="hand"),)),
        "verb.destroy", "Choose a card in a Stable", "in Ben's hand")


def test_queen_bee_blocks_a_steal():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue), Rhinocorn], Cy: [Queen Bee Unicorn]}
        hands: {Ana: [Seductive Unicorn, Back Kick]}
    """)
    answer(g, Action("play", card="Seductive Unicorn", into=ANA), Action("use", card="Seductive Unicorn"),
           Action("discard", card="Back Kick"))
    assert g.pending.kind == "target"
    why(g, Action("target", target=(Target(card="Basic Unicorn (Blue)", owner=BEN),)), "action.valid-stable",
        "Queen Bee Unicorn in Cy's Stable", "cannot enter yours")
    why(g, Action("target", target=(Target(card="Seductive Unicorn", owner=ANA),)), "verb.steal",
        "STEAL from another player's Stable", "already in yours")
    assert why_not(g, Action("target", target=(Target(card="Rhinocorn", owner=BEN),))) is None


def test_cards_in_play_that_block_nothing():
    """Tiny Stable, Nanny Cam and Barbed Wire change what happens after a move, never whether it is allowed."""
    g = position("""
        turn: {player: Ana, phase: action}
        stables:
          Ana: [Tiny Stable, Nanny Cam, Barbed Wire, Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Red),
                Basic Unicorn (Orange), Basic Unicorn (Orange)]
        hands: {Ana: [Basic Unicorn (Green), Neigh, Yay]}
    """)
    assert why_not(g, Action("play", card="Basic Unicorn (Green)", into=ANA)) is None
    assert why_not(g, Action("play", card="Yay", into=ANA)) is None


def _poison_answered_by(blocker_stable: str) -> Game:
    """Ana plays Unicorn Poison at Ben's Unicorn; Ben holds a Neigh and has `blocker_stable` in his Stable."""
    g = position(f"""
        turn: {{player: Ana, phase: action}}
        stables: {{Ana: [Baby Unicorn (Red)], Ben: [Basic Unicorn (Blue), {blocker_stable}]}}
        hands: {{Ana: [Unicorn Poison, Basic Unicorn (Red)], Ben: [Neigh]}}
    """)
    answer(g, POISON_BEN_BLUE)
    return g


@pytest.mark.parametrize("blocker", ["Slowdown", "Ginormous Unicorn"])
def test_cards_that_forbid_neighs(blocker: str):
    g = _poison_answered_by(blocker)
    assert "Basic Unicorn (Blue)" in g.discard and "Neigh" in g.hand(BEN)  # the Poison resolved unanswered
    why(g, Action("respond", card="Neigh"), "instant.when", f"While {blocker} is in your Stable",
        "cannot play Neigh cards", player=BEN)


def test_blinding_light_switches_ginormous_off_so_the_neigh_is_legal():
    g = _poison_answered_by("Ginormous Unicorn, Blinding Light")
    assert (g.pending.player, g.pending.kind) == (BEN, "respond")
    assert why_not(g, Action("respond", card="Neigh")) is None


def test_yay_cards_cannot_be_neighed():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ana: [Yay], Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison, Basic Unicorn (Red)], Ben: [Neigh]}
    """)
    answer(g, POISON_BEN_BLUE)  # resolves at once: nobody may answer it
    why(g, Action("respond", card="Neigh"), "instant.when", "Yay is in Ana's Stable",
        "the cards Ana plays cannot be Neighed", player=BEN)


def test_super_neigh_cannot_be_neighed():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison, Neigh], Ben: [Super Neigh]}
    """)
    answer(g, POISON_BEN_BLUE, Action("respond", card="Super Neigh"))
    why(g, Action("respond", card="Neigh"), "instant.when", "Ben's Super Neigh cannot be Neighed", player=ANA)


def test_too_late_after_the_card_resolved():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison, Basic Unicorn (Red)], Ben: [Neigh]}
    """)
    answer(g, POISON_BEN_BLUE, Action("pass"))
    why(g, Action("respond", card="Neigh"), "pile.no-neigh-after-pass", "Ana's Unicorn Poison has already resolved",
        "too late", player=BEN)


# ---- answering: own card, already passed, turn order ------------------------------------------------------------

def test_you_cannot_answer_your_own_card_but_may_answer_a_neigh_against_it():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison, Neigh], Ben: [Neigh]}
    """)
    answer(g, POISON_BEN_BLUE)
    why(g, Action("respond", card="Neigh"), "instant.when", "Unicorn Poison is your own card",
        "answer only cards other players play", player=ANA)
    answer(g, Action("respond", card="Neigh"))  # Ben Neighs Ana's Poison: now Ana may answer Ben's Neigh
    assert (g.pending.player, g.pending.kind) == (ANA, "respond")
    assert why_not(g, Action("respond", card="Neigh")) is None


def test_already_passed_and_turn_order_of_answers():
    g = position("""
        turn: {player: Ana, phase: action}
        stables: {Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Unicorn Poison], Ben: [Neigh], Cy: [Neigh]}
    """)
    answer(g, POISON_BEN_BLUE)
    assert g.pending.player == BEN
    r = why(g, Action("respond", card="Neigh"), "option.responder-order", "Ben is asked first", player=CY)
    # a choice of this tutor, said as one, and who must pass before Cy is asked
    assert "In this tutor" in r.text and "only if Ben passes" in r.text, r.text
    answer(g, Action("pass"))
    assert g.pending.player == CY
    why(g, Action("respond", card="Neigh"), "pile.no-neigh-after-pass", "already passed on Ana's Unicorn Poison",
        player=BEN)
    why(g, Action("respond", card="Super Neigh"), "instant.when", "You have no Super Neigh in your hand")


# ---- choices made while an effect resolves ----------------------------------------------------------------------

def test_discard_and_sacrifice_choices():
    g = position("""
        turn: {player: Ana, phase: beginning}
        stables: {Ana: [Sadistic Ritual, Basic Unicorn (Red), Baby Unicorn (Red)], Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Basic Unicorn (Orange)]}
        deck: [Unicorn Poison, Back Kick, Neigh, Neigh]
        rest: box
    """)
    assert g.pending.kind == "sacrifice"
    why(g, Action("sacrifice", card="Sadistic Ritual"), "verb.sacrifice", "must SACRIFICE a Unicorn card",
        "Sadistic Ritual is a Downgrade card")
    why(g, Action("sacrifice", card="Basic Unicorn (Blue)"), "verb.sacrifice", "only cards from your own Stable",
        "in Ben's Stable")
    why(g, Action("sacrifice", card="Basic Unicorn (Orange)"), "verb.sacrifice", "from your Stable",
        "in your hand")
    why(g, Action("decline", card="Sadistic Ritual"), "effect.may", "Sadistic Ritual is not optional")


def test_own_panda_cannot_be_sacrificed_under_all_effects():
    """option.pandas all-effects: Ben's own Two-For-One may not SACRIFICE his Pandas; the reason says so."""
    g = position("""
        options: {pandas: all-effects}
        turn: {player: Ben, phase: action}
        stables: {Ana: [Basic Unicorn (Red), Yay], Ben: [Pandamonium, Basic Unicorn (Blue)]}
        hands: {Ben: [Two-For-One]}
    """)
    g.push(Action("play", card="Two-For-One", target=(Target(card="Basic Unicorn (Red)", owner=ANA),
                                                        Target(card="Yay", owner=ANA))))
    while g.pending is not None and g.pending.kind == "respond":
        g.push(Action("pass"))
    assert g.pending is not None and g.pending.kind == "sacrifice" and g.pending.player == BEN
    why(g, Action("sacrifice", card="Basic Unicorn (Blue)"), "option.pandas", "Pandas", "not even yours",
        player=BEN)


def test_discard_must_come_from_hand():
    g = position("""
        turn: {player: Ana, phase: end}
        stables: {Ana: [Yay]}
        hands: {Ana: [Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Orange),
                      Basic Unicorn (Orange), Basic Unicorn (Orange), Basic Unicorn (Green), Unicorn Poison]}
    """)
    why(g, Action("discard", card="Yay"), "verb.discard", "from your hand", "Yay is in your Stable")
    why(g, Action("discard", card="Back Kick"), "verb.discard", "no Back Kick in your hand")


def test_no_card_twice_in_one_beginning_of_turn_link():
    g = position("""
        turn: {player: Ana, phase: beginning}
        stables:
          Ana: [Glitter Bomb, Glitter Bomb, Basic Unicorn (Red), Basic Unicorn (Orange)]
          Ben: [Basic Unicorn (Blue), Basic Unicorn (Yellow), Baby Unicorn (Blue)]
          Cy: [Baby Unicorn (Green)]
        hands: {Ana: [Unicorn Poison], Ben: [Basic Unicorn (Green)]}
        deck: [Neigh, Neigh, Neigh, Neigh]
        rest: box
    """)
    answer(g, Action("use", card="Glitter Bomb"), Action("use", card="Glitter Bomb"),
           Action("sacrifice", card="Basic Unicorn (Red)"),
           Action("target", target=(Target(card="Basic Unicorn (Blue)", owner=BEN),)))
    why(g, Action("sacrifice", card="Basic Unicorn (Red)"), "chain.same-target", "already chosen",
        "no card may be chosen twice")
    answer(g, Action("sacrifice", card="Basic Unicorn (Orange)"))
    why(g, Action("target", target=(Target(card="Basic Unicorn (Blue)", owner=BEN),)), "chain.same-target",
        "already chosen")


def test_choose_a_baby_from_the_nursery():
    g = new_game(["Ana", "Ben", "Cy"], seed=1)
    assert g.pending.kind == "baby"
    why(g, Action("baby", card="Neigh"), "setup.choose-baby", "Choose a Baby Unicorn", "Neigh is an Instant card")
    first = g.pending.actions[0].card
    answer(g, g.pending.actions[0])
    why(g, Action("baby", card=first), "setup.choose-baby", "not in the Nursery any more")
    why(g, Action("play", card="Neigh"), "setup.choose-baby", "choose a Baby Unicorn for your Stable")


def test_fallback_names_the_decision():
    g = position("""
        turn: {player: Ana, phase: beginning}
        stables: {Ana: [Rhinocorn], Ben: [Basic Unicorn (Blue)]}
        hands: {Ana: [Basic Unicorn (Red)]}
    """)
    assert g.pending.kind == "use"
    r = why(g, Action("choose", option="nonsense"), "effect.may", "decide whether to use Rhinocorn")
    assert "Rhinocorn" in r.text


# ---- never raises, never lists every move, None exactly for legal moves -----------------------------------------

def _tries(game: Game) -> list[Action]:
    """Moves a learner might try now: every card of every hand and Stable in every kind, and the plain ones."""
    s = game.state
    names = sorted({*(n for p in range(s.n) for n in game.hand(p)), *(n for p in range(s.n) for n in game.stable(p))})
    out = [Action("draw"), Action("pass"), Action("use"), Action("decline")]
    for n in names:
        out += [Action("play", card=n), Action("respond", card=n), Action("discard", card=n),
                Action("sacrifice", card=n), Action("play", card=n, into=0)]
        out += [Action("target", target=(Target(card=n, owner=p),)) for p in range(s.n) if n in game.stable(p)]
    out += [Action("target", target=(Target(player=p),)) for p in range(s.n)]
    return out


@pytest.mark.parametrize("seed", [3, 11])
def test_random_games_every_try_gets_a_clean_answer(seed: int):
    rng = random.Random(seed)
    g = new_game(["Ana", "Ben", "Cy"], seed=seed)
    for _ in range(120):
        if g.pending is None:
            break
        before = g.to_dict()
        for a in _tries(g):
            for player in (None, (g.pending.player + 1) % 3):
                r = why_not(g, a, player)
                try:
                    g.find(a)
                    legal = True
                except GameError:
                    legal = False
                if legal and player is None:
                    assert r is None, (a, r)
                else:
                    assert r is not None and r.text, a
                    assert internal_ids_in(r.text) == [], r.text
                    assert "Legal:" not in r.text
        assert g.to_dict() == before
        g.push(rng.choice(g.legal_actions))
    if g.pending is None:
        assert why_not(g, Action("draw")) is not None


# ---- the words layer (uu.words) ---------------------------------------------------------------------------------

def _imports(path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in a file, function bodies included."""
    import ast

    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
    return out


def test_lower_layers_never_import_the_words_layer():
    """The tutor returns facts (a refused move); uu.words says them. Nothing below it imports it."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "uu"
    bad = [(str(f.relative_to(root)), m) for pkg in ("cards", "engine", "scenario", "bots", "tutor")
           for f in (root / pkg).rglob("*.py") for m, _ in _imports(f) if m == "uu.words" or m.startswith("uu.words.")]
    assert not bad, bad


def test_words_modules_share_only_public_names():
    from pathlib import Path

    words = Path(__file__).resolve().parents[1] / "uu" / "words"
    # `_` is gettext's public name for "translate" (uu.i18n exports it), not a private one
    bad = [(f.name, m, n) for f in words.glob("*.py") for m, names in _imports(f) if m.startswith("uu.")
           for n in names if n.startswith("_") and n != "_"]
    assert not bad, bad


def test_the_screens_runner_explains_a_refused_move_and_the_tutors_states_the_fact():
    from uu.tutor.check import shipped_lessons
    from uu.tutor.lesson_runner import LessonRunner as SilentRunner
    from uu.words.lesson_refusals import LessonRunner

    path = shipped_lessons()[2]  # lesson 3: the learner's Action phase comes first
    neigh = Action("play", card="Neigh")
    silent = SilentRunner(path)
    while silent.step.kind not in ("ask", "goal"):
        silent.next() if silent.step.kind == "page" else silent.choose(silent.step.question.answer)
    speaking = LessonRunner(path)
    assert speaking.resume(silent.history)
    fb, said = silent.try_move(neigh), speaking.try_move(neigh)
    assert fb.kind == said.kind == "illegal" and fb.refused == said.refused == neigh
    assert "no Neigh" in said.text or "Instant" in said.text, said.text
    assert fb.text.endswith("That move is not allowed right now.")
