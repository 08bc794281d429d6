"""Why a card cannot be played, or a target, card or player cannot be chosen for it: `CardWhy`, the reasons
about playing a card in the Action phase, its declared targets, and the choices an effect asks for
(targets, DISCARD, SACRIFICE, a Baby), each from the engine's own questions (`uu.engine.targets`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from uu.cards.carddef import CardDef, CardType
from uu.engine import queries as q
from uu.engine.actions import Action, Target
from uu.engine.targets import (
    PANDA_SAFE_FROM,
    baby_may_move,
    declarable_static,
    is_player_choice,
    move_destinations,
    player_candidates,
    shielded_panda,
    short_discard,
)
from uu.words.asking import WhyBase
from uu.words.phrasing import (
    A_PLURAL,
    FROM_WORDS,
    UNICORN_WORDS,
    WHAT,
    Op,
    Reason,
    a_kind,
    any_instance,
    card_def,
    first_impossible,
    op_words,
    printed_match,
    type_rule,
    working_card_with,
)

__all__ = ["CardWhy"]

_VERB_RULE: Final = {"destroy": "verb.destroy", "steal": "verb.steal", "sacrifice": "verb.sacrifice",
                     "discard": "verb.discard", "draw": "verb.draw", "bring": "effect.bring-not-play",
                     "return": "effect.leave", "move": "action.valid-stable"}


class CardWhy(WhyBase):
    """The reasons about one card: playing it, its targets, the choices its effect asks for."""

    def play(self, action: Action) -> Reason | None:
        s, p, name = self.s, self.actor, action.card
        plays = [a for a in self.d.actions if a.kind == "play"]
        if name is None:
            if not plays:
                return Reason("None of your cards can be played now, but you may DRAW a card as your action.",
                              "action.draw-instead")
            return None
        d = card_def(name)
        if d is None:
            return Reason(f"There is no card called {name} in this game.", None)
        if not self.has(name, "hand"):
            if d.type is CardType.BABY:
                return Reason("Baby Unicorns are never in a hand: one enters a Stable from the Nursery only "
                              "through a card's effect.", "setup.babies-never-in-hand")
            if self.has(name, "stable"):
                return Reason(f"{name} is already in your Stable: you can only play cards from your hand.",
                              "action.one")
            return Reason(f"You have no {name} in your hand: you can only play cards from your hand.", "action.one")
        if d.type is CardType.INSTANT:
            return self.instant_not_action(name)
        mine = [a for a in plays if a.card == name]
        if d.type is CardType.MAGIC:
            if action.into is not None:
                return Reason(f"{name} is a Magic card: it goes into no Stable; it takes effect once and then "
                              f"goes to the discard pile.", "card.magic-one-shot")
            if not mine:
                return self.impossible(d)
            return self.declared_target(action, d)
        # Unicorns, Upgrades and Downgrades
        for kind, key in ((CardType.UPGRADE, "upgrade"), (CardType.DOWNGRADE, "downgrade")):
            if d.type is kind and q.cannot_play(s, p, key):
                by = working_card_with(s, p, "owner_cannot_play", key) or "A card"
                return Reason(f"{by} in your Stable stops you from playing {key.capitalize()} cards.",
                              "action.requirements")
        if action.target:
            return Reason(f"{name} simply goes into a Stable: you choose whose Stable, not a target.", type_rule(d))
        cid = any_instance(s, name, p)
        if action.into is not None and cid is not None and not q.can_enter(s, cid, action.into):
            return self.queen_bee(name, action.into, [a.into for a in mine if a.into is not None])
        if d.type is CardType.BASIC and not mine:
            return self.queen_bee(name, None, [])
        return None

    def nothing_because(self, op: Op, src: int | None) -> str:
        """Why nothing can be chosen for `op`: a protection, when cards of the right kind exist but are out of
        reach; otherwise that there is no such card."""
        s, you = self.s, self.actor
        verb = op["do"]
        if verb in ("destroy", "steal", "return") and op.get("from", "other") != "each":
            seen = [c for o in s.seat_ring(you)[1:] for c in s.stables[o]
                    if printed_match(s.defs[c], op.get("what"))]
            for c in seen:
                found = self.protection(op, c, src)
                if found is not None:
                    return found[1]
            return "no other player has one"
        if verb in ("sacrifice", "move") and op.get("from", "you") == "you":
            return "you have none in your Stable"
        if verb in ("pull", "look_take"):
            return "no other player has a card in hand"
        if verb in ("bring", "take"):
            return f"there is none in {FROM_WORDS[op.get('from', 'discard' if verb == 'take' else 'hand')]}"
        if verb == "choose_one":
            return "none of its choices is possible"
        return "that is impossible now"

    def declared_target(self, action: Action, d: CardDef) -> Reason | None:
        """A Magic card played with a target it may not have (targets are named as it is played)."""
        s, p = self.s, self.actor
        src = any_instance(s, d.name, p)
        ops = d.play["ops"] if d.play else []
        if action.target and s.options.targeting == "neigh-first":
            return Reason(f"Play {d.name} without naming a target: in this game its target is chosen when it "
                          f"resolves, after everyone has had the chance to Neigh it.", "option.targeting")
        dec = declarable_static(ops, own_choices=False)
        if not dec or not action.target:
            return None
        op = dec[0]
        if is_player_choice(op):
            return self.player_target(op, action.target[0], d.name)
        if op["do"] == "move":
            return self.move_target(op, action.target, d.name, src)
        for t in action.target:
            r = self.card_target(op, t, src, d.name)
            if r is not None:
                return r
        return None

    # ---- targets -----------------------------------------------------------------------------------------

    def player_target(self, op: Op, t: Target, card: str | None) -> Reason | None:
        s, you = self.s, self.actor
        of = card or "This effect"
        if t.player is None:
            return Reason(f"{of} needs a player to be chosen, not a card.", "target.players")
        if t.player == you:
            return Reason(f"{of} needs another player, not you.", "target.players")
        if not 0 <= t.player < s.n:
            return Reason("There is no such player.", "target.players")
        if t.player not in player_candidates(s, op, you):
            who = self.game.players[t.player]
            if op["do"] in ("pull", "look_take"):
                return Reason(f"{who} has no cards in hand, so there is nothing to take.", "action.magic-target")
            if op["do"] == "discard":
                return Reason(f"{who} has no card to DISCARD.", "effect.impossible-skip")
        return None

    def move_target(self, op: Op, targets: tuple[Target, ...], card: str, src: int | None) -> Reason | None:
        s, you = self.s, self.actor
        r = self.card_target(op, targets[0], src, card)
        if r is not None or len(targets) < 2:
            return r
        dest = targets[1].player
        cid = self.locate(targets[0])
        if dest is None or cid is None:
            return None
        if dest == s.owner_of[cid]:
            return Reason(f"{targets[0].card} must move into a different player's Stable, not back into the one "
                          f"it is in.", "action.valid-stable")
        if op.get("to") == "other" and dest == you:
            return Reason(f"{card} moves your Unicorn into another player's Stable, not your own.",
                          "target.players")
        if dest not in move_destinations(s, op, you, cid) and s.defs[cid].type is CardType.BASIC:
            return self.queen_bee(s.name(cid), dest, [x for x in move_destinations(s, op, you, cid)])
        return None

    def locate(self, t: Target) -> int | None:
        """A card instance that `t` names, where it says (None if there is none)."""
        s = self.s
        if t.card is None:
            return None
        if t.zone in ("stable", "hand"):
            if t.owner is None or not 0 <= t.owner < s.n:
                return None
            pool = s.stables[t.owner] if t.zone == "stable" else s.hands[t.owner]
        else:
            pool = {"discard": s.discard, "deck": s.deck, "nursery": s.nursery}.get(t.zone, [])
        return next((c for c in pool if s.name(c) == t.card), None)

    def card_target(self, op: Op, t: Target, src: int | None, card: str | None,
                    used: Iterable[int] = ()) -> Reason | None:
        """Why card `t` may not be chosen for `op` (controlled by the actor), or None if no reason is seen."""
        s, you = self.s, self.actor
        verb = op["do"]
        if t.card is None:
            return Reason("Choose a card here, not a player.", _VERB_RULE.get(verb, "action.magic-target"))
        d = card_def(t.card)
        if d is None:
            return Reason(f"There is no card called {t.card} in this game.", None)
        cid = self.locate(t)
        if cid is None:
            return Reason(f"There is no {t.card} in {self.where(t)}.", _VERB_RULE.get(verb, "action.magic-target"))
        owner = s.owner_of[cid] if t.zone == "stable" else None
        frm = op.get("from")
        if verb == "destroy" and owner == you:
            return Reason(f"DESTROY takes a card from another player's Stable, and {t.card} is in your own "
                          f"(removing your own card is a SACRIFICE).", "verb.destroy")
        if verb == "steal" and owner == you:
            return Reason(f"You STEAL from another player's Stable, and {t.card} is already in yours.", "verb.steal")
        if verb == "return" and frm in (None, "other") and owner == you:
            return Reason(f"This sends back a card from another player's Stable, and {t.card} is in your own.",
                          "target.players")
        if verb == "sacrifice" and owner is not None and owner != (self.frame_actor() or you):
            return Reason(f"You SACRIFICE only cards from your own Stable, and {t.card} is in "
                          f"{self.poss(owner)} Stable.", "verb.sacrifice")
        if verb == "move" and frm in (None, "you") and owner is not None and owner != you:
            return Reason(f"{card or 'This'} moves a card from your own Stable, and {t.card} is in "
                          f"{self.poss(owner)} Stable.", "target.players")
        if verb in ("destroy", "steal", "return", "sacrifice", "move") and t.zone != "stable":
            return Reason(f"Choose a card in a Stable: {t.card} is in {self.where(t)}.",
                          _VERB_RULE.get(verb, "action.magic-target"))
        what = op.get("what")
        if not printed_match(d, what):
            source = card_def(card)
            magic = source is not None and source.type is CardType.MAGIC
            rule = "action.magic-target" if magic else _VERB_RULE.get(verb, "action.magic-target")
            return Reason(f"{card or 'This effect'} can only {verb.upper() if verb in _VERB_RULE else 'choose'} "
                          f"{WHAT.get(what, 'a card')}, and {t.card} is {a_kind(d)}.", rule)
        if cid in used:
            return Reason(f"{t.card} is already chosen for another effect that happens at the same time, and no "
                          f"card may be chosen twice.", "chain.same-target")
        return self.protected(op, cid, src)

    def protected(self, op: Op, cid: int, src: int | None) -> Reason | None:
        """Why a card of the right kind is still out of reach of `op`, as a sentence (see `protection`)."""
        found = self.protection(op, cid, src)
        return Reason(found[0], found[2]) if found else None

    def protection(self, op: Op, cid: int, src: int | None) -> tuple[str, str, str] | None:
        """Why a card of the right kind is still out of reach of `op`: Pandamonium, Rainbow Aura, Magical
        Kittencorn, Queen Bee Unicorn, or Babies that may not move. (sentence, short clause, rule id)."""
        s, you = self.s, self.actor
        d = s.defs[cid]
        verb = op["do"]
        owner = s.owner_of[cid]
        where = self.poss(owner)
        if d.is_unicorn and op.get("what") in UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = working_card_with(s, owner, "owner_unicorns_are_pandas") or "Pandamonium"
            return (f"While {panda} is in {where} Stable, those Unicorns count as Pandas, so effects on Unicorn "
                    f"cards cannot touch them.",
                    f"{panda} makes the Unicorns in {where} Stable count as Pandas", "option.pandas")
        if s.options.pandas == "all-effects" and verb in PANDA_SAFE_FROM and shielded_panda(s, cid):
            panda = working_card_with(s, owner, "owner_unicorns_are_pandas") or "Pandamonium"
            return (f"While {panda} is in {where} Stable, no effect may touch those Pandas, whoever plays it.",
                    f"{panda} keeps every effect away from the Pandas in {where} Stable",
                    "option.pandas")
        if verb == "destroy" and not q.can_be_destroyed(s, cid, src):
            aura = working_card_with(s, owner, "owner_unicorns_indestructible")
            if d.is_unicorn and aura:
                return (f"{aura} in {where} Stable means those Unicorn cards cannot be DESTROYED.",
                        f"{aura} keeps the Unicorns in {where} Stable from being DESTROYED", "effect.immunity")
            immune = d.static.get("indestructible_by")
            if immune:
                return (f"{A_PLURAL.get(immune, 'Such')} cards cannot DESTROY {d.name}.",
                        f"{A_PLURAL.get(immune, 'such')} cards cannot DESTROY {d.name}", "effect.immunity")
        if verb in ("steal", "bring") and d.type is CardType.BASIC and not q.can_enter(s, cid, you):
            bees = q.queen_bee_owners(s)
            bee = (working_card_with(s, bees[0], "basics_enter_only_owner") if bees else None) or "Queen Bee Unicorn"
            bee_at = f"{bee} in {self.poss(bees[0])} Stable" if bees else bee
            return (f"{bee_at} keeps Basic Unicorns out of every other Stable, so {d.name} cannot enter yours.",
                    f"{bee_at} keeps Basic Unicorns out of your Stable", "action.valid-stable")
        if verb in ("steal", "move") and not baby_may_move(s, cid):
            return ("In this game a Baby Unicorn enters a Stable only from the Nursery, so it cannot be moved or "
                    "stolen.", "a Baby Unicorn enters a Stable only from the Nursery", "baby.nursery-only")
        return None

    def frame_actor(self) -> int | None:
        f = self.s.stack[-1] if self.s.stack else None
        return f["actor"] if f is not None and f["kind"] == "op" else None

    def pending_op(self) -> tuple[Op, int, int | None, list[int], bool] | None:
        """The op the pending decision belongs to: (op, controller, source card, cards already chosen, whether
        the choice is made for a beginning-of-turn link), read from the top frame of the engine's stack."""
        s = self.s
        if not s.stack:
            return None
        f = s.stack[-1]
        if f["kind"] == "op":
            return f["op"], f["you"], f["src"], list(f.get("picked", [])), False
        queue = f.get("queue") if f["kind"] == "link" and f["step"] == "declare" else None
        if f["kind"] == "link" and queue:
            i, j = queue[0]
            e = f["effects"][i]
            return declarable_static(e["ops"], True)[j], e["you"], e["cid"], list(f.get("used", [])), True
        return None

    def target(self, action: Action) -> Reason | None:
        d = self.d
        if not action.target:
            return None
        found = self.pending_op()
        asks_player = bool(d.actions and d.actions[0].target and d.actions[0].target[0].player is not None)
        t = action.target[0]
        if asks_player:
            if found is None:
                return self.player_target({"do": "skip_turn"}, t, d.card)
            op = found[0]
            if op["do"] == "move":  # the second half of a move: whose Stable the card goes into
                if t.player is None:
                    return Reason("Choose the player whose Stable the card goes into.", "target.players")
                return Reason(f"The card cannot go into {self.poss(t.player)} Stable: it must go into a different "
                              f"player's Stable that it may enter.", "action.valid-stable")
            return self.player_target(op, t, d.card)
        if found is None:
            return None
        op, you, src, used, in_link = found
        if t.player is not None and t.card is None:
            return Reason("Choose a card here, not a player.", _VERB_RULE.get(op["do"], "action.magic-target"))
        if op["do"] == "return" and op.get("from") == "each":
            owner = self.frame_actor()
            if owner is not None and t.owner != owner:
                return Reason(f"Now choose a card from {self.poss(owner)} Stable: one card from each Stable, in "
                              f"turn.", "target.players")
        if op["do"] in ("bring", "take", "search"):
            frm = str({"take": "discard", "search": "deck"}.get(op["do"], op.get("from", "hand")))
            pool_words = FROM_WORDS.get(frm, "the right place")
            dcard = card_def(t.card)
            if t.zone != frm:
                return Reason(f"Choose a card from {pool_words}.", _VERB_RULE.get(op["do"], "bring.from-discard"))
            if dcard is not None and not printed_match(dcard, op.get("what")):
                return Reason(f"You must choose {WHAT.get(op.get('what'), 'a card')}, and {t.card} is {a_kind(dcard)}.",
                              _VERB_RULE.get(op["do"], "bring.from-discard"))
            if self.locate(t) is None:
                return Reason(f"There is no {t.card} in {pool_words}.", _VERB_RULE.get(op["do"], "bring.from-discard"))
            cid = self.locate(t)
            if cid is not None:
                return self.protected(op, cid, src)
            return None
        cid = self.locate(t)
        if cid is not None and cid in used and not in_link:
            return Reason(f"{t.card} is already chosen for this effect: choose a different card.",
                          _VERB_RULE.get(op["do"], "action.magic-target"))
        saved, self.actor = self.actor, you  # the controller decides: "your" is theirs
        try:
            return self.card_target(op, t, src, d.card, used if in_link else ())
        finally:
            self.actor = saved

    # ---- DISCARD and SACRIFICE choices --------------------------------------------------------------------

    def discard_or_sacrifice(self, action: Action) -> Reason | None:
        s, p, kind = self.s, self.actor, action.kind
        name = action.card
        if name is None:
            return None
        d = card_def(name)
        if d is None:
            return Reason(f"There is no card called {name} in this game.", None)
        found = self.pending_op()
        op = found[0] if found else {"do": kind}
        what = op.get("what")
        if kind == "discard":
            if not self.has(name, "hand"):
                if self.has(name, "stable"):
                    return Reason(f"You DISCARD cards from your hand, and {name} is in your Stable.", "verb.discard")
                return Reason(f"You have no {name} in your hand to DISCARD.", "verb.discard")
            if not printed_match(d, what):
                return Reason(f"You must DISCARD {WHAT.get(what, 'a card')} here, and {name} is {a_kind(d)}.",
                              "verb.discard")
            return None
        if not self.has(name, "stable"):
            if self.has(name, "hand"):
                return Reason(f"You SACRIFICE cards from your Stable, and {name} is in your hand.", "verb.sacrifice")
            others = [o for o in range(s.n) if o != p and self.has(name, "stable", o)]
            if others:
                return Reason(f"You SACRIFICE only cards from your own Stable, and {name} is in "
                              f"{self.poss(others[0])} Stable.", "verb.sacrifice")
            return Reason(f"There is no {name} in your Stable to SACRIFICE.", "verb.sacrifice")
        cid = next(c for c in s.stables[p] if s.name(c) == name)
        if not printed_match(d, what):
            return Reason(f"You must SACRIFICE {WHAT.get(what, 'a card')} here, and {name} is {a_kind(d)}.",
                          "verb.sacrifice")
        if found and cid in found[3] and found[4]:
            return Reason(f"{name} is already chosen for another effect that happens at the same time, and no "
                          f"card may be chosen twice.", "chain.same-target")
        if d.is_unicorn and what in UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = working_card_with(s, p, "owner_unicorns_are_pandas") or "Pandamonium"
            return Reason(f"While {panda} is in your Stable your Unicorns count as Pandas, so they are not Unicorn "
                          f"cards for this.", "option.pandas")
        if s.options.pandas == "all-effects" and shielded_panda(s, cid):
            panda = working_card_with(s, p, "owner_unicorns_are_pandas") or "Pandamonium"
            return Reason(f"While {panda} is in your Stable your Unicorns are Pandas, and no effect may SACRIFICE "
                          f"a Panda, not even yours.", "option.pandas")
        return None

    # ---- choosing a Baby at setup ----------------------------------------------------------------------------

    def baby(self, action: Action) -> Reason | None:
        d = card_def(action.card)
        if d is None:
            return None
        if d.type is not CardType.BABY:
            return Reason(f"Choose a Baby Unicorn from the Nursery, and {d.name} is {a_kind(d)}.", "setup.choose-baby")
        if not any(self.s.name(c) == d.name for c in self.s.nursery):
            return Reason(f"{d.name} is not in the Nursery any more: another player has it.", "setup.choose-baby")
        return None

    # ---- answering with an Instant --------------------------------------------------------------------------

    def impossible(self, d: CardDef) -> Reason:
        """A Magic card with no legal way to play it: name the part of its effect that cannot happen."""
        s, p = self.s, self.actor
        src = any_instance(s, d.name, p)
        ops = d.play["ops"] if d.play else []
        short = short_discard(s, ops, p, src)
        if short is not None:
            n = int(short[0].get("n", 1))
            held = short[1]
            cards = "a card" if n == 1 else f"{n} cards"
            whom = (f"every player, you included, DISCARD {cards}" if short[0].get("who") == "each"
                    else f"you DISCARD {cards}")
            holding = "no cards" if held == 0 else f"only {held} card{'s' if held != 1 else ''}"
            return Reason(f"{d.name} would have {whom}, and you will hold {holding} by then (it leaves your hand "
                          f"as you play it), so you cannot play it now.", "effect.impossible-play")
        op = first_impossible(s, ops, p, src)
        if op is None:
            return Reason(f"{d.name} cannot be played now: its effect could not be carried out.",
                          "effect.impossible-play")
        because = self.nothing_because(op, src)
        return Reason(f"{d.name} would have you {op_words(op)}, and {because}, so you cannot play it now.",
                      "effect.impossible-play")
