"""Card movements with the rules that apply to every movement: Babies never leave for a hand, the deck or
the discard pile; drawing from the deck; entering and leaving Stables fires triggers (as new chain links).
"""

from __future__ import annotations

from typing import Any, Final

from uu.cards.schema import CardType
from uu.engine import queries as q
from uu.engine import rng
from uu.engine.frame_types import Zone
from uu.engine.state import GameState

# An Enum attribute lookup is a slow dictionary walk on CPython: hot code compares with module constants.
BABY: Final = CardType.BABY


def to_discard(s: GameState, cid: int, *rules: str) -> None:
    """Send a card to the discard pile; a Baby goes to the Nursery instead (setup.babies-never-in-hand)."""
    if s.defs[cid].type is BABY:
        s.place(cid, "nursery")
        s.say(f"{s.name(cid)} goes back to the Nursery.", "setup.babies-never-in-hand", *rules)
    else:
        s.place(cid, "discard")


def to_hand(s: GameState, cid: int, p: int) -> None:
    if s.defs[cid].type is BABY:
        s.place(cid, "nursery")
        s.say(f"{s.name(cid)} goes back to the Nursery instead of a hand.", "setup.babies-never-in-hand")
    else:
        s.place(cid, "hand", p)


def set_up_zones(s: GameState, removed: list[int]) -> None:
    """A new game's cards (every instance still in no zone): 2-player removals to the box (two-player.removals),
    Babies to the Nursery and the rest to the deck (setup.nursery), each player's Neigh in a 2-player game
    (two-player.neigh), then shuffle and deal 5 each (setup.deal-five). Here rather than in new_game: it is
    compiled with the engine (uu.native), and thousands of games start in a bench or hint loop."""
    defs = s.defs
    for cid in removed:
        s.place(cid, "box")
    if removed:
        s.say(f"2-player game: {len(removed)} cards are removed from the deck.", "two-player.removals")
    for cid in range(len(defs)):
        if s.zone_of[cid]:
            continue
        s.place(cid, "nursery" if defs[cid].type is BABY else "deck", top=False)
    s.say("The Baby Unicorns form the Nursery; the other cards form the deck.", "setup.nursery",
          "setup.deck-and-discard", "setup.components")
    n = len(s.players)
    if n == 2:
        neighs = [c for c in s.deck if defs[c].name == "Neigh"][:2]
        for p, cid in enumerate(neighs):
            s.place(cid, "hand", p)
        s.say("Each player takes a Neigh before the deck is shuffled.", "two-player.neigh")
    rng.shuffle(s.rng, s.deck)
    s.rng_draws += 1
    for _ in range(5):
        for p in range(n):
            s.place(s.deck[0], "hand", p)
    s.say("The deck is shuffled and each player is dealt 5 cards.", "setup.deal-five")


def shuffle_deck(s: GameState) -> None:
    rng.shuffle(s.rng, s.deck)
    s.rng_draws += 1
    s.cand_cache.clear()  # searches list the deck in order
    s.info_epoch += 1


def draw(s: GameState, p: int, n: int = 1, *rules: str) -> int:
    """DRAW n cards (verb.draw); returns how many were drawn (an empty deck draws nothing)."""
    drawn = 0
    for _ in range(n):
        if not s.deck and s.options.deck_out == "reshuffle" and s.discard:
            for cid in list(s.discard):
                s.place(cid, "deck")
            shuffle_deck(s)
            s.say("The deck is empty: the discard pile is shuffled into a new deck.", "option.deck-out")
        if not s.deck:
            s.say(f"{s.players[p]} cannot DRAW: the deck is empty.", "effect.impossible-skip", *rules)
            break
        s.place(s.deck[0], "hand", p)
        drawn += 1
    if drawn:
        plural = "s" if drawn > 1 else ""
        s.say_rules(f"{s.players[p]} DRAWs {drawn} card{plural}.", ("verb.draw", *rules), p)
    return drawn


def queue_link(s: GameState, effects: list[dict[str, Any]]) -> None:
    """A triggered effect becomes a new link at the end of the effect chain (chain.new-link)."""
    s.chain.append({"kind": "link", "effects": effects, "step": "start"})


def _watchers(s: GameState, p: int, event: str) -> list[dict[str, Any]]:
    found = []
    for cid in s.stables[p]:
        for w in s.defs[cid].watch:
            if w["event"] == event and q.text_works(s, cid):
                found.append({"cid": cid, "you": p, "eff": {"may": w.get("may", False), "ops": w["ops"]},
                              "kind": "watch"})
    return found


def enter_stable(s: GameState, cid: int, p: int, how: str) -> None:
    """Put a card into p's Stable (played, stolen, moved or brought in: effect.enter) and queue its
    enter effect and any watcher's trigger."""
    s.place(cid, "stable", p)
    d = s.defs[cid]
    links = []
    if d.enter and q.text_works(s, cid):
        links.append({"cid": cid, "you": p, "eff": d.enter, "kind": "enter"})
    if d.is_unicorn:
        links.extend(_watchers(s, p, "unicorn_enters_your_stable"))
    for link in links:
        queue_link(s, [link])


def leave_stable(s: GameState, cid: int, how: str, dest: Zone, dest_owner: int = -1) -> None:
    """Take a card out of its Stable. `how` is sacrifice | destroy | steal | return | move. Leave effects
    fire only on sacrifice and destroy (effect.leave); watchers see sacrifice, destroy and steal, and
    return when option return_is_leaving is set."""
    owner = s.owner_of[cid]
    d = s.defs[cid]
    links = []
    if d.leave and how in ("sacrifice", "destroy") and q.text_works(s, cid):
        links.append({"cid": cid, "you": owner, "eff": d.leave, "kind": "leave"})
    if d.is_unicorn and (how in ("sacrifice", "destroy", "steal", "move")
                         or (how == "return" and s.options.return_is_leaving)):
        links.extend(_watchers(s, owner, "unicorn_leaves_your_stable"))
    for link in links:
        queue_link(s, [link])
    if dest == "discard":
        to_discard(s, cid)
    elif dest == "hand":
        to_hand(s, cid, dest_owner)
    elif dest == "stable":
        enter_stable(s, cid, dest_owner, how)
    else:
        s.place(cid, dest, dest_owner)
