"""The verbs card data is built from, each declared once as a `Verb`: the one list every part of uu reads.

The catalog schema (`uu.cards.schema`) accepts exactly these names; the engine runs each with the handler
of the same name in `uu.engine.verb_handlers` (which also says where it picks cards or players) and reads the
choice and possibility facts below in `uu.engine.targets`; `uu.engine.card_support` derives a card's rule ids from `rules`; the heuristic bot scores
a choice by the decision's `verb` and its `outcome`. This module imports nothing of the engine, so the
catalog can be checked without it. CONTRIBUTING.md ("Adding a verb") lists what else a new verb needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

# What the player (or the effect's controller) picks when the verb runs.
Chooses = Literal[
    "nothing",  # no choice at all (DRAW)
    "cards",  # one or more cards from its pool (`@verb(name, cards=...)` in uu.engine.verb_handlers)
    "player",  # another player (`@verb(name, players=...)`)
    "card_and_destination",  # a card in a Stable, then the Stable it moves into
    "option",  # one of the printed options
    "card_and_order",  # a card to keep, then the order of the rest
]
# How the engine tells whether the verb could do anything now (effect.impossible-play / -skip).
Possible = Literal[
    "always",  # nothing can stop it
    "enough_cards",  # as many candidate cards as it asks for
    "a_destination",  # a candidate card with a Stable it could move into
    "a_player",  # another player it could pick
    "deck_not_empty",  # a card on the deck to look at
    "an_option",  # one of its options is possible
    "hook",  # the hook's own check (`uu.engine.hooks`)
]
# What happens to a card picked in a Stable, from its owner's point of view (the heuristic bot scores it).
Outcome = Literal["removes", "takes", "moves", "brings", "none"]


@dataclass(frozen=True, slots=True)
class Verb:
    """One verb of the op language.

    `declared`: its target is chosen with the play (option.targeting declare-first) and before a
    beginning-of-turn link resolves (chain.targets-before). `own_choice`: a pick among the controller's own
    cards, also made in advance in a beginning-of-turn link. `pandas_shield`: under option.pandas
    all-effects it can never pick a Panda. `moves_cards`: False for verbs that change the turn, never a
    card's place (the DISCARD count known in advance, `uu.engine.targets.short_discard`, looks past them).
    `rules`: the rule ids a card using it relies on.
    """

    name: str
    does: str
    chooses: Chooses
    possible: Possible
    rules: tuple[str, ...] = ()
    declared: bool = False
    own_choice: bool = False
    pandas_shield: bool = False
    moves_cards: bool = True
    outcome: Outcome = "none"


_ALL: Final = (
    Verb("draw", "The player DRAWs n cards from the top of the deck.", "nothing", "always", ("verb.draw",)),
    Verb("discard", "The player (or each player, or one other player) DISCARDs n cards from their hand.",
         "cards", "enough_cards", ("verb.discard",), own_choice=True, outcome="removes"),
    Verb("sacrifice", "The player SACRIFICEs n cards (or all matching cards) of their own Stable.", "cards",
         "enough_cards", ("verb.sacrifice",), own_choice=True, pandas_shield=True, outcome="removes"),
    Verb("destroy", "DESTROY n cards in other players' Stables.", "cards", "enough_cards", ("verb.destroy",),
         declared=True, pandas_shield=True, outcome="removes"),
    Verb("steal", "STEAL n cards from other players' Stables into your own.", "cards", "enough_cards",
         ("verb.steal", "effect.enter"), declared=True, pandas_shield=True, outcome="takes"),
    Verb("return", "Return a card in a Stable to its owner's hand (or this card from the discard pile).",
         "cards", "enough_cards", ("option.return-is-leaving",), declared=True, pandas_shield=True,
         outcome="removes"),
    Verb("move", "Move a card from one Stable into another player's Stable.", "card_and_destination",
         "a_destination", ("effect.enter",), declared=True, pandas_shield=True, outcome="moves"),
    Verb("bring", "Bring a card from your hand, the discard pile or the Nursery directly into your Stable.",
         "cards", "enough_cards", ("effect.bring-not-play", "bring.from-discard"), outcome="brings"),
    Verb("take", "Take a card from the discard pile into your hand.", "cards", "enough_cards", ("verb.draw",)),
    Verb("pull", "Pull a random card from another player's hand (your pick from a hand kept face up).",
         "player", "a_player", ("effect.pull-choose",), declared=True),
    Verb("look_take", "Look at another player's hand and take a card of your choice from it.", "player",
         "a_player", ("effect.pull-choose",), declared=True),
    Verb("search", "Search the deck for a matching card, reveal it, take it, shuffle the deck.", "cards",
         "enough_cards", ("search.reveal", "search.must-find")),
    Verb("shuffle_discard_into_deck", "Shuffle the discard pile into the deck.", "nothing", "always",
         ("verb.move-to-discard",)),
    Verb("swap_hands", "Exchange hands with another player.", "player", "a_player", ("effect.order",),
         declared=True),
    Verb("look_top", "Look at the top n cards of the deck, keep one, put the rest back in any order.",
         "card_and_order", "deck_not_empty", ("effect.pull-choose",)),
    Verb("end_turn", "End the turn once this link resolves (End of Turn still happens).", "nothing", "always",
         ("bot.skip-to-end",), moves_cards=False),
    Verb("extra_turn", "Take another turn after this one.", "nothing", "always", ("turn.extra",),
         moves_cards=False),
    Verb("extra_action", "Play one more card this Action phase.", "nothing", "always", ("action.one",),
         moves_cards=False),
    Verb("choose_one", "Choose one of the printed options and carry it out.", "option", "an_option",
         ("effect.order",)),
    Verb("steal_after_move", "STEAL a Unicorn from the player who was just given the moved card.", "cards",
         "always", ("verb.steal",), outcome="takes"),
    Verb("hook", "Run a card's own Python hook (uu.engine.hooks) for what the op language cannot say.",
         "nothing", "hook"),
    Verb("skip_phase", "Skip a phase of this turn (never End of Turn).", "nothing", "always",
         ("turn.skip-phase",), moves_cards=False),
    Verb("skip_turn", "Another player skips their next turn (skips add up).", "player", "a_player",
         ("turn.skip-other",)),
)

VERBS: Final[dict[str, Verb]] = {v.name: v for v in _ALL}

