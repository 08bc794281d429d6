"""Why a card cannot be played, or a target, card or player cannot be chosen for it: `CardWhy`, the reasons
about playing a card in the Action phase, its declared targets, and the choices an effect asks for
(targets, DISCARD, SACRIFICE, a Baby), each from the engine's own questions (`uu.engine.targets`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from uu.cards.carddef import CardDef, CardType
from uu.cards.localized import card_name
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
from uu.i18n import N_, _, ngettext
from uu.words.asking import WhyBase
from uu.words.phrasing import (
    FROM_WORDS,
    UNICORN_WORDS,
    Op,
    Reason,
    a_kind,
    any_instance,
    card_def,
    first_impossible,
    op_words,
    printed_match,
    type_rule,
    what_words,
    working_card_with,
)

__all__ = ["CardWhy"]

_VERB_RULE: Final = {"destroy": "verb.destroy", "steal": "verb.steal", "sacrifice": "verb.sacrifice",
                     "discard": "verb.discard", "draw": "verb.draw", "bring": "effect.bring-not-play",
                     "return": "effect.leave", "move": "action.valid-stable"}
# "{card} can only DESTROY a Unicorn card": the card verbs in capitals, as the rulebooks print them
_VERB_WORDS: Final = {"destroy": N_("DESTROY"), "steal": N_("STEAL"), "sacrifice": N_("SACRIFICE"),
                      "discard": N_("DISCARD"), "draw": N_("DRAW"), "bring": N_("BRING"), "return": N_("RETURN"),
                      "move": N_("MOVE")}
# a card that some kind of card cannot DESTROY: the sentence, then the same as a clause
_IMMUNE: Final = {
    "magic": (N_("Magic cards cannot DESTROY {card}."), N_("Magic cards cannot DESTROY {card}")),
    "upgrade": (N_("Upgrade cards cannot DESTROY {card}."), N_("Upgrade cards cannot DESTROY {card}")),
    "downgrade": (N_("Downgrade cards cannot DESTROY {card}."), N_("Downgrade cards cannot DESTROY {card}")),
    "instant": (N_("Instant cards cannot DESTROY {card}."), N_("Instant cards cannot DESTROY {card}")),
}
_IMMUNE_OTHER: Final = (N_("Such cards cannot DESTROY {card}."), N_("such cards cannot DESTROY {card}"))


def _no_such_card(name: str | None) -> str:
    return _("There is no card called {card} in this game.").format(card=name)


def _chosen_twice(name: str) -> str:
    return _("{card} is already chosen for another effect that happens at the same time, and no card may be "
             "chosen twice.").format(card=card_name(name))


class CardWhy(WhyBase):
    """The reasons about one card: playing it, its targets, the choices its effect asks for."""

    def play(self, action: Action) -> Reason | None:
        s, p, name = self.s, self.actor, action.card
        plays = [a for a in self.d.actions if a.kind == "play"]
        if name is None:
            if not plays:
                return Reason(_("None of your cards can be played now, but you may DRAW a card as your action."),
                              "action.draw-instead")
            return None
        d = card_def(name)
        if d is None:
            return Reason(_no_such_card(name), None)
        if not self.has(name, "hand"):
            if d.type is CardType.BABY:
                return Reason(_("Baby Unicorns are never in a hand: one enters a Stable from the Nursery only "
                                "through a card's effect."), "setup.babies-never-in-hand")
            if self.has(name, "stable"):
                return Reason(_("{card} is already in your Stable: you can only play cards from your hand.").format(
                    card=card_name(name)), "action.one")
            return Reason(_("You have no {card} in your hand: you can only play cards from your hand.").format(
                card=card_name(name)), "action.one")
        if d.type is CardType.INSTANT:
            return self.instant_not_action(name)
        mine = [a for a in plays if a.card == name]
        if d.type is CardType.MAGIC:
            if action.into is not None:
                return Reason(_("{card} is a Magic card: it goes into no Stable; it takes effect once and then goes "
                                "to the discard pile.").format(card=card_name(name)), "card.magic-one-shot")
            if not mine:
                return self.impossible(d)
            return self.declared_target(action, d)
        # Unicorns, Upgrades and Downgrades
        for kind, key in ((CardType.UPGRADE, "upgrade"), (CardType.DOWNGRADE, "downgrade")):
            if d.type is kind and q.cannot_play(s, p, key):
                found = working_card_with(s, p, "owner_cannot_play", key)
                by = card_name(found) if found else _("A card")
                said = (_("{card} in your Stable stops you from playing Upgrade cards.") if key == "upgrade" else
                        _("{card} in your Stable stops you from playing Downgrade cards."))
                return Reason(said.format(card=by), "action.requirements")
        if action.target:
            return Reason(_("{card} simply goes into a Stable: you choose whose Stable, not a target.").format(
                card=card_name(name)), type_rule(d))
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
            return _("no other player has one")
        if verb in ("sacrifice", "move") and op.get("from", "you") == "you":
            return _("you have none in your Stable")
        if verb in ("pull", "look_take"):
            return _("no other player has a card in hand")
        if verb in ("bring", "take"):
            place = _(FROM_WORDS[op.get("from", "discard" if verb == "take" else "hand")])
            return _("there is none in {place}").format(place=place)
        if verb == "choose_one":
            return _("none of its choices is possible")
        return _("that is impossible now")

    def declared_target(self, action: Action, d: CardDef) -> Reason | None:
        """A Magic card played with a target it may not have (targets are named as it is played)."""
        s, p = self.s, self.actor
        src = any_instance(s, d.name, p)
        ops = d.play["ops"] if d.play else []
        if action.target and s.options.targeting == "neigh-first":
            return Reason(_("Play {card} without naming a target: in this game its target is chosen when it "
                            "resolves, after everyone has had the chance to Neigh it.").format(card=card_name(d.name)),
                          "option.targeting")
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
        if t.player is None:
            said = (_("{card} needs a player to be chosen, not a card.") if card else
                    _("This effect needs a player to be chosen, not a card."))
            return Reason(said.format(card=card_name(card or "")), "target.players")
        if t.player == you:
            said = _("{card} needs another player, not you.") if card else _("This effect needs another player, not you.")
            return Reason(said.format(card=card_name(card or "")), "target.players")
        if not 0 <= t.player < s.n:
            return Reason(_("There is no such player."), "target.players")
        if t.player not in player_candidates(s, op, you):
            who = self.game.players[t.player]
            if op["do"] in ("pull", "look_take"):
                return Reason(_("{player} has no cards in hand, so there is nothing to take.").format(player=who),
                              "action.magic-target")
            if op["do"] == "discard":
                return Reason(_("{player} has no card to DISCARD.").format(player=who), "effect.impossible-skip")
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
            return Reason(_("{card} must move into a different player's Stable, not back into the one it is "
                            "in.").format(card=card_name(targets[0].card or "")), "action.valid-stable")
        if op.get("to") == "other" and dest == you:
            return Reason(_("{card} moves your Unicorn into another player's Stable, not your own.").format(
                card=card_name(card)), "target.players")
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
            return Reason(_("Choose a card here, not a player."), _VERB_RULE.get(verb, "action.magic-target"))
        d = card_def(t.card)
        if d is None:
            return Reason(_no_such_card(t.card), None)
        cid = self.locate(t)
        if cid is None:
            return Reason(_("There is no {card} in {place}.").format(card=card_name(t.card), place=self.where(t)),
                          _VERB_RULE.get(verb, "action.magic-target"))
        owner = s.owner_of[cid] if t.zone == "stable" else None
        frm = op.get("from")
        shown = card_name(t.card)
        if verb == "destroy" and owner == you:
            return Reason(_("DESTROY takes a card from another player's Stable, and {card} is in your own (removing "
                            "your own card is a SACRIFICE).").format(card=shown), "verb.destroy")
        if verb == "steal" and owner == you:
            return Reason(_("You STEAL from another player's Stable, and {card} is already in yours.").format(
                card=shown), "verb.steal")
        if verb == "return" and frm in (None, "other") and owner == you:
            return Reason(_("This sends back a card from another player's Stable, and {card} is in your own.").format(
                card=shown), "target.players")
        if verb == "sacrifice" and owner is not None and owner != (self.frame_actor() or you):
            return Reason(_("You SACRIFICE only cards from your own Stable, and {card} is in {stable}.").format(
                card=shown, stable=self.stable(owner)), "verb.sacrifice")
        if verb == "move" and frm in (None, "you") and owner is not None and owner != you:
            said = (_("{source} moves a card from your own Stable, and {card} is in {stable}.") if card else
                    _("This moves a card from your own Stable, and {card} is in {stable}."))
            return Reason(said.format(source=card_name(card or ""), card=shown, stable=self.stable(owner)),
                          "target.players")
        if verb in ("destroy", "steal", "return", "sacrifice", "move") and t.zone != "stable":
            return Reason(_("Choose a card in a Stable: {card} is in {place}.").format(card=shown, place=self.where(t)),
                          _VERB_RULE.get(verb, "action.magic-target"))
        what = op.get("what")
        if not printed_match(d, what):
            source = card_def(card)
            magic = source is not None and source.type is CardType.MAGIC
            rule = "action.magic-target" if magic else _VERB_RULE.get(verb, "action.magic-target")
            verb_words = _(_VERB_WORDS[verb]) if verb in _VERB_WORDS else _("choose")
            said = (_("{source} can only {verb} {what}, and {card} is {kind}.") if card else
                    _("This effect can only {verb} {what}, and {card} is {kind}."))
            return Reason(said.format(source=card_name(card or ""), verb=verb_words, what=what_words(what), card=shown,
                                      kind=a_kind(d)), rule)
        if cid in used:
            return Reason(_chosen_twice(t.card), "chain.same-target")
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
        where = self.stable(owner)
        if d.is_unicorn and op.get("what") in UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = card_name(working_card_with(s, owner, "owner_unicorns_are_pandas") or "Pandamonium")
            return (_("While {card} is in {stable}, those Unicorns count as Pandas, so effects on Unicorn cards "
                      "cannot touch them.").format(card=panda, stable=where),
                    _("{card} makes the Unicorns in {stable} count as Pandas").format(card=panda, stable=where),
                    "option.pandas")
        if s.options.pandas == "all-effects" and verb in PANDA_SAFE_FROM and shielded_panda(s, cid):
            panda = card_name(working_card_with(s, owner, "owner_unicorns_are_pandas") or "Pandamonium")
            return (_("While {card} is in {stable}, no effect may touch those Pandas, whoever plays it.").format(
                        card=panda, stable=where),
                    _("{card} keeps every effect away from the Pandas in {stable}").format(card=panda, stable=where),
                    "option.pandas")
        if verb == "destroy" and not q.can_be_destroyed(s, cid, src):
            aura = working_card_with(s, owner, "owner_unicorns_indestructible")
            if d.is_unicorn and aura:
                return (_("{card} in {stable} means those Unicorn cards cannot be DESTROYED.").format(
                            card=card_name(aura), stable=where),
                        _("{card} keeps the Unicorns in {stable} from being DESTROYED").format(
                            card=card_name(aura), stable=where), "effect.immunity")
            immune = d.static.get("indestructible_by")
            if immune:
                sentence, clause = _IMMUNE.get(str(immune), _IMMUNE_OTHER)
                return (_(sentence).format(card=card_name(d.name)), _(clause).format(card=card_name(d.name)),
                        "effect.immunity")
        if verb in ("steal", "bring") and d.type is CardType.BASIC and not q.can_enter(s, cid, you):
            bees = q.queen_bee_owners(s)
            bee = card_name((working_card_with(s, bees[0], "basics_enter_only_owner") if bees else None)
                            or "Queen Bee Unicorn")
            card = card_name(d.name)
            if bees:
                stable = self.stable(bees[0])
                return (_("{bee} in {stable} keeps Basic Unicorns out of every other Stable, so {card} cannot enter "
                          "yours.").format(bee=bee, stable=stable, card=card),
                        _("{bee} in {stable} keeps Basic Unicorns out of your Stable").format(bee=bee, stable=stable),
                        "action.valid-stable")
            return (_("{bee} keeps Basic Unicorns out of every other Stable, so {card} cannot enter yours.").format(
                        bee=bee, card=card),
                    _("{bee} keeps Basic Unicorns out of your Stable").format(bee=bee), "action.valid-stable")
        if verb in ("steal", "move") and not baby_may_move(s, cid):
            return (_("In this game a Baby Unicorn enters a Stable only from the Nursery, so it cannot be moved or "
                      "stolen."), _("a Baby Unicorn enters a Stable only from the Nursery"), "baby.nursery-only")
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
                    return Reason(_("Choose the player whose Stable the card goes into."), "target.players")
                return Reason(_("The card cannot go into {stable}: it must go into a different player's Stable "
                                "that it may enter.").format(stable=self.stable(t.player)), "action.valid-stable")
            return self.player_target(op, t, d.card)
        if found is None:
            return None
        op, you, src, used, in_link = found
        if t.player is not None and t.card is None:
            return Reason(_("Choose a card here, not a player."), _VERB_RULE.get(op["do"], "action.magic-target"))
        if op["do"] == "return" and op.get("from") == "each":
            owner = self.frame_actor()
            if owner is not None and t.owner != owner:
                return Reason(_("Now choose a card from {stable}: one card from each Stable, in turn.").format(
                    stable=self.stable(owner)), "target.players")
        if op["do"] in ("bring", "take", "search"):
            frm = str({"take": "discard", "search": "deck"}.get(op["do"], op.get("from", "hand")))
            pool_words = _(FROM_WORDS[frm]) if frm in FROM_WORDS else _("the right place")
            dcard = card_def(t.card)
            if t.zone != frm:
                return Reason(_("Choose a card from {place}.").format(place=pool_words),
                              _VERB_RULE.get(op["do"], "bring.from-discard"))
            if dcard is not None and not printed_match(dcard, op.get("what")):
                return Reason(_("You must choose {what}, and {card} is {kind}.").format(
                    what=what_words(op.get("what")), card=card_name(t.card or ""), kind=a_kind(dcard)),
                              _VERB_RULE.get(op["do"], "bring.from-discard"))
            if self.locate(t) is None:
                return Reason(_("There is no {card} in {place}.").format(card=card_name(t.card or ""),
                                                                        place=pool_words),
                              _VERB_RULE.get(op["do"], "bring.from-discard"))
            cid = self.locate(t)
            if cid is not None:
                return self.protected(op, cid, src)
            return None
        cid = self.locate(t)
        if cid is not None and cid in used and not in_link:
            return Reason(_("{card} is already chosen for this effect: choose a different card.").format(
                              card=card_name(t.card or "")),
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
            return Reason(_no_such_card(name), None)
        found = self.pending_op()
        op = found[0] if found else {"do": kind}
        what = op.get("what")
        if kind == "discard":
            if not self.has(name, "hand"):
                if self.has(name, "stable"):
                    return Reason(_("You DISCARD cards from your hand, and {card} is in your Stable.").format(
                        card=card_name(name)), "verb.discard")
                return Reason(_("You have no {card} in your hand to DISCARD.").format(card=card_name(name)),
                              "verb.discard")
            if not printed_match(d, what):
                return Reason(_("You must DISCARD {what} here, and {card} is {kind}.").format(
                    what=what_words(what), card=card_name(name), kind=a_kind(d)), "verb.discard")
            return None
        if not self.has(name, "stable"):
            if self.has(name, "hand"):
                return Reason(_("You SACRIFICE cards from your Stable, and {card} is in your hand.").format(
                    card=card_name(name)), "verb.sacrifice")
            others = [o for o in range(s.n) if o != p and self.has(name, "stable", o)]
            if others:
                return Reason(_("You SACRIFICE only cards from your own Stable, and {card} is in {stable}.").format(
                    card=card_name(name), stable=self.stable(others[0])), "verb.sacrifice")
            return Reason(_("There is no {card} in your Stable to SACRIFICE.").format(card=card_name(name)),
                          "verb.sacrifice")
        cid = next(c for c in s.stables[p] if s.name(c) == name)
        if not printed_match(d, what):
            return Reason(_("You must SACRIFICE {what} here, and {card} is {kind}.").format(
                what=what_words(what), card=card_name(name), kind=a_kind(d)), "verb.sacrifice")
        if found and cid in found[3] and found[4]:
            return Reason(_chosen_twice(name), "chain.same-target")
        if d.is_unicorn and what in UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = card_name(working_card_with(s, p, "owner_unicorns_are_pandas") or "Pandamonium")
            return Reason(_("While {card} is in your Stable your Unicorns count as Pandas, so they are not Unicorn "
                            "cards for this.").format(card=panda), "option.pandas")
        if s.options.pandas == "all-effects" and shielded_panda(s, cid):
            panda = card_name(working_card_with(s, p, "owner_unicorns_are_pandas") or "Pandamonium")
            return Reason(_("While {card} is in your Stable your Unicorns are Pandas, and no effect may SACRIFICE a "
                            "Panda, not even yours.").format(card=panda), "option.pandas")
        return None

    # ---- choosing a Baby at setup ----------------------------------------------------------------------------

    def baby(self, action: Action) -> Reason | None:
        d = card_def(action.card)
        if d is None:
            return None
        if d.type is not CardType.BABY:
            return Reason(_("Choose a Baby Unicorn from the Nursery, and {card} is {kind}.").format(
                card=card_name(d.name), kind=a_kind(d)), "setup.choose-baby")
        if not any(self.s.name(c) == d.name for c in self.s.nursery):
            return Reason(_("{card} is not in the Nursery any more: another player has it.").format(
                card=card_name(d.name)), "setup.choose-baby")
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
            if short[0].get("who") == "each":
                whom = ngettext("every player, you included, DISCARD a card",
                                "every player, you included, DISCARD {count} cards", n).format(count=n)
            else:
                whom = ngettext("you DISCARD a card", "you DISCARD {count} cards", n).format(count=n)
            holding = _("no cards") if held == 0 else ngettext("only {count} card", "only {count} cards",
                                                               held).format(count=held)
            return Reason(_("{card} would have {whom}, and you will hold {holding} by then (it leaves your hand as "
                            "you play it), so you cannot play it now.").format(card=card_name(d.name), whom=whom,
                                                                                holding=holding),
                          "effect.impossible-play")
        op = first_impossible(s, ops, p, src)
        if op is None:
            return Reason(_("{card} cannot be played now: its effect could not be carried out.").format(
                card=card_name(d.name)), "effect.impossible-play")
        because = self.nothing_because(op, src)
        return Reason(_("{card} would have you {effect}, and {because}, so you cannot play it now.").format(
            card=card_name(d.name), effect=op_words(op), because=because), "effect.impossible-play")
