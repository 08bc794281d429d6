"""Why a move the learner tried is not allowed here: one plain sentence, plus the rule id behind it.

The engine's own error lists every legal move, which tells a beginner nothing about their mistake. `why_not`
looks at the position instead: the pending decision (who decides, what kind, which actions are legal), the
cards in play and the Neigh pile, and names the one thing that makes this move wrong and what is allowed.

    >>> from uu.engine import new_game
    >>> game = new_game(["Ana", "Ben"], seed=1)
    >>> while game.pending.kind == "baby": game.apply(game.pending.actions[0])
    >>> reason = why_not(game, Action("play", card="Neigh"))
    >>> reason.text
    'Neigh is an Instant: an Instant is never your action; you play it only to answer a card another player plays.'
    >>> reason.rule
    'instant.not-an-action'

The sentence never contains rule ids (the learner reads it); the id goes to data and logs, and
`uu.tutor.rulewords` turns it into learner words. Nothing here changes the game: it only reads the state
and asks the engine's own questions (`uu.engine.queries`, `uu.engine.targets`), so the reasons follow the
same rules that decide what is legal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from uu.cards.carddef import CardDef, CardType
from uu.engine import queries as q
from uu.engine.actions import ACTION_KINDS, Action, Target
from uu.engine.errors import AmbiguousAction, GameError
from uu.engine.game import Game
from uu.engine.pile import response_actions
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
from uu.tutor.whynot_words import (
    _A_PLURAL,
    _FROM,
    _KIND_WORDS,
    _UNICORN_WORDS,
    _WHAT,
    Op,
    Reason,
    WhyBase,
    _a,
    _ambiguous,
    _any_cid,
    _card,
    _first_impossible,
    _game_over,
    _is_instant,
    _op_words,
    _printed_match,
    _type_rule,
    _with_static,
)

__all__ = ["Reason", "why_not"]

log = logging.getLogger(__name__)


_VERB_RULE: Final = {"destroy": "verb.destroy", "steal": "verb.steal", "sacrifice": "verb.sacrifice",
                     "discard": "verb.discard", "draw": "verb.draw", "bring": "effect.bring-not-play",
                     "return": "effect.leave", "move": "action.valid-stable"}



def why_not(game: Game, action: Action, player: int | None = None) -> Reason | None:
    """Why `action` is not legal now, or None if it is legal (and the actor may take it).

    `player` is the seat of whoever tried the move; by default the player who must decide now, so the
    question is "why is this not one of their choices?". Never raises and never changes the game."""
    try:
        return _why_not(game, action, player)
    except Exception:  # a learner must never see a traceback: log it, and say the plainest true sentence
        log.exception("why_not failed for %r", action)
        d = game.pending
        if d is None:
            return Reason("The game is over, so no more moves can be made.", None)
        return Reason("That move is not one of the choices right now.", d.rules[0] if d.rules else None)


def _why_not(game: Game, action: Action, player: int | None) -> Reason | None:
    if not isinstance(action, Action) or action.kind not in ACTION_KINDS:
        return Reason("That is not a move in this game.", None)
    d = game.pending
    if d is None:
        return _game_over(game)
    actor = d.player if player is None else player
    seats = [action.into] + [x for t in action.target for x in (t.owner, t.player)]
    if any(x is not None and not 0 <= x < len(game.players) for x in seats):
        # checked first: Game.find cannot describe a seat that does not exist (it raises IndexError)
        return Reason("There is no such player at this table.", "target.players")
    try:
        game.find(action)
    except AmbiguousAction:
        if actor == d.player:
            return _ambiguous(game, action, d)
    except GameError:
        pass
    else:
        if actor == d.player:
            return None
    w = _Why(game, actor, d)
    if actor != d.player:
        return w.not_yours(action)
    return w.illegal(action) or w.fallback()


class _Why(WhyBase):
    """The reasons for one tried move (the words are in `WhyBase`)."""

    def not_yours(self, action: Action) -> Reason:
        d = self.d
        if action.kind == "respond" or (action.kind == "play" and _is_instant(action.card)):
            r = self.no_answer(action)
            if r is not None:
                return r
        who = self.game.players[d.player]
        return Reason(f"It is {who}'s decision now, not yours: {who} must {self.asks()}.",
                      d.rules[0] if d.rules else "turn.phases")

    # ---- the move itself -------------------------------------------------------------------------------

    def illegal(self, action: Action) -> Reason | None:
        d, kind = self.d, action.kind
        if kind == "respond":
            return self.no_answer(action)
        if kind == "pass":
            return self.wrong_kind("pass", "there is no card waiting for your answer")
        if kind == "play":
            if d.kind == "action":
                return self.play(action)
            if d.kind == "respond" and _is_instant(action.card) and self.has(action.card, "hand"):
                return Reason(f"Use your {action.card} to answer {self.top_words()}: an Instant is only ever "
                              f"played as an answer, never on its own.", "instant.not-an-action")
            return self.wrong_kind("play a card")
        if kind == "draw":
            return Reason(f"You may DRAW instead of playing a card only in your own Action phase; now you must "
                          f"{self.asks()}.", "action.draw-instead")
        if kind in ("use", "decline") and d.kind != "use" and d.card:
            return Reason(f"This effect of {d.card} is not optional, so there is nothing to {kind}: you must "
                          f"{self.asks()}.", "effect.may")
        if kind != d.kind and not (kind in ("use", "decline") and d.kind == "use"):
            return self.wrong_kind(_KIND_WORDS.get(kind, "do that"))
        if kind in ("discard", "sacrifice"):
            return self.discard_or_sacrifice(action)
        if kind == "target":
            return self.target(action)
        if kind == "baby":
            return self.baby(action)
        if kind in ("use", "decline") and d.card and action.card not in (None, d.card):
            return Reason(f"The question is about {d.card}: decide whether to use it.", "effect.may")
        return None

    def play(self, action: Action) -> Reason | None:
        s, p, name = self.s, self.actor, action.card
        plays = [a for a in self.d.actions if a.kind == "play"]
        if name is None:
            if not plays:
                return Reason("None of your cards can be played now, but you may DRAW a card as your action.",
                              "action.draw-instead")
            return None
        d = _card(name)
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
                by = _with_static(s, p, "owner_cannot_play", key) or "A card"
                return Reason(f"{by} in your Stable stops you from playing {key.capitalize()} cards.",
                              "action.requirements")
        if action.target:
            return Reason(f"{name} simply goes into a Stable: you choose whose Stable, not a target.", _type_rule(d))
        cid = _any_cid(s, name, p)
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
                    if _printed_match(s.defs[c], op.get("what"))]
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
            return f"there is none in {_FROM[op.get('from', 'discard' if verb == 'take' else 'hand')]}"
        if verb == "choose_one":
            return "none of its choices is possible"
        return "that is impossible now"

    def declared_target(self, action: Action, d: CardDef) -> Reason | None:
        """A Magic card played with a target it may not have (targets are named as it is played)."""
        s, p = self.s, self.actor
        src = _any_cid(s, d.name, p)
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
        d = _card(t.card)
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
        if not _printed_match(d, what):
            source = _card(card)
            magic = source is not None and source.type is CardType.MAGIC
            rule = "action.magic-target" if magic else _VERB_RULE.get(verb, "action.magic-target")
            return Reason(f"{card or 'This effect'} can only {verb.upper() if verb in _VERB_RULE else 'choose'} "
                          f"{_WHAT.get(what, 'a card')}, and {t.card} is {_a(d)}.", rule)
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
        if d.is_unicorn and op.get("what") in _UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = _with_static(s, owner, "owner_unicorns_are_pandas") or "Pandamonium"
            return (f"While {panda} is in {where} Stable, those Unicorns count as Pandas, so effects on Unicorn "
                    f"cards cannot touch them.",
                    f"{panda} makes the Unicorns in {where} Stable count as Pandas", "option.pandas")
        if s.options.pandas == "all-effects" and verb in PANDA_SAFE_FROM and shielded_panda(s, cid):
            panda = _with_static(s, owner, "owner_unicorns_are_pandas") or "Pandamonium"
            return (f"While {panda} is in {where} Stable, no effect may touch those Pandas, whoever plays it.",
                    f"{panda} keeps every effect away from the Pandas in {where} Stable",
                    "option.pandas")
        if verb == "destroy" and not q.can_be_destroyed(s, cid, src):
            aura = _with_static(s, owner, "owner_unicorns_indestructible")
            if d.is_unicorn and aura:
                return (f"{aura} in {where} Stable means those Unicorn cards cannot be DESTROYED.",
                        f"{aura} keeps the Unicorns in {where} Stable from being DESTROYED", "effect.immunity")
            immune = d.static.get("indestructible_by")
            if immune:
                return (f"{_A_PLURAL.get(immune, 'Such')} cards cannot DESTROY {d.name}.",
                        f"{_A_PLURAL.get(immune, 'such')} cards cannot DESTROY {d.name}", "effect.immunity")
        if verb in ("steal", "bring") and d.type is CardType.BASIC and not q.can_enter(s, cid, you):
            bees = q.queen_bee_owners(s)
            bee = (_with_static(s, bees[0], "basics_enter_only_owner") if bees else None) or "Queen Bee Unicorn"
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
            pool_words = _FROM.get(frm, "the right place")
            dcard = _card(t.card)
            if t.zone != frm:
                return Reason(f"Choose a card from {pool_words}.", _VERB_RULE.get(op["do"], "bring.from-discard"))
            if dcard is not None and not _printed_match(dcard, op.get("what")):
                return Reason(f"You must choose {_WHAT.get(op.get('what'), 'a card')}, and {t.card} is {_a(dcard)}.",
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
        d = _card(name)
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
            if not _printed_match(d, what):
                return Reason(f"You must DISCARD {_WHAT.get(what, 'a card')} here, and {name} is {_a(d)}.",
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
        if not _printed_match(d, what):
            return Reason(f"You must SACRIFICE {_WHAT.get(what, 'a card')} here, and {name} is {_a(d)}.",
                          "verb.sacrifice")
        if found and cid in found[3] and found[4]:
            return Reason(f"{name} is already chosen for another effect that happens at the same time, and no "
                          f"card may be chosen twice.", "chain.same-target")
        if d.is_unicorn and what in _UNICORN_WORDS and not q.is_unicorn(s, cid):
            panda = _with_static(s, p, "owner_unicorns_are_pandas") or "Pandamonium"
            return Reason(f"While {panda} is in your Stable your Unicorns count as Pandas, so they are not Unicorn "
                          f"cards for this.", "option.pandas")
        if s.options.pandas == "all-effects" and shielded_panda(s, cid):
            panda = _with_static(s, p, "owner_unicorns_are_pandas") or "Pandamonium"
            return Reason(f"While {panda} is in your Stable your Unicorns are Pandas, and no effect may SACRIFICE "
                          f"a Panda, not even yours.", "option.pandas")
        return None

    # ---- choosing a Baby at setup ----------------------------------------------------------------------------

    def baby(self, action: Action) -> Reason | None:
        d = _card(action.card)
        if d is None:
            return None
        if d.type is not CardType.BABY:
            return Reason(f"Choose a Baby Unicorn from the Nursery, and {d.name} is {_a(d)}.", "setup.choose-baby")
        if not any(self.s.name(c) == d.name for c in self.s.nursery):
            return Reason(f"{d.name} is not in the Nursery any more: another player has it.", "setup.choose-baby")
        return None

    # ---- answering with an Instant --------------------------------------------------------------------------

    def no_answer(self, action: Action) -> Reason | None:
        """Why the actor may not answer now with an Instant (Neigh), checked in the order the engine asks."""
        s, p = self.s, self.actor
        name = action.card
        d = _card(name)
        if name is not None and d is None:
            return Reason(f"There is no card called {name} in this game.", None)
        if d is not None and d.type is not CardType.INSTANT:
            return Reason(f"Only an Instant card such as Neigh can answer a card, and {name} is {_a(d)}.",
                          "instant.when")
        instants = [c for c in s.hands[p] if s.defs[c].type is CardType.INSTANT]
        if name is not None and not self.has(name, "hand"):
            return Reason(f"You have no {name} in your hand.", "instant.when")
        if not instants:
            return Reason("You have no Instant card such as Neigh in your hand to answer with.", "instant.when")
        if q.cannot_play(s, p, "neigh"):
            by = _with_static(s, p, "owner_cannot_play", "neigh") or "A card"
            return Reason(f"While {by} is in your Stable you cannot play Neigh cards.", "instant.when")
        if not s.pile:
            return self.nothing_to_answer()
        top = s.pile[-1]
        r = self.unanswerable(top["p"], s.name(top["cid"]), resolved=False)
        if r is not None:
            return r
        top_p, top_name = top["p"], s.name(top["cid"])
        if not response_actions(s, p):  # no answer allowed, for a reason not named above: the caller falls back
            return None
        frame = next((f for f in reversed(s.stack) if f.get("kind") == "pile"), None)
        asking = frame.get("ask") if frame and frame.get("step") == "window" else None
        if asking is not None and p not in asking:
            return Reason(f"You have already passed on {self.poss(top_p)} {top_name}: you may answer again only "
                          f"when a new card goes on top of the pile.", "pile.no-neigh-after-pass")
        if self.d.kind == "respond" and self.d.player != p:
            who = self.game.players[self.d.player]
            ahead = [self.game.players[x] for x in asking[:asking.index(p)]] if asking else [who]
            return Reason(f"{who} is asked first. In this tutor players answer one at a time in seat order, "
                          f"starting after whoever played the top card, so you are asked only if "
                          f"{' and '.join(ahead)} {'pass' if len(ahead) > 1 else 'passes'}.",
                          "option.responder-order")
        return None

    def impossible(self, d: CardDef) -> Reason:
        """A Magic card with no legal way to play it: name the part of its effect that cannot happen."""
        s, p = self.s, self.actor
        src = _any_cid(s, d.name, p)
        ops = d.play["ops"] if d.play else []
        short = short_discard(s, ops, p, src)
        if short is not None:
            n = int(short[0].get("n", 1))
            held = short[1]
            cards = f"{n} card{'s' if n != 1 else ''}"
            whom = (f"every player, you included, DISCARD {cards}" if short[0].get("who") == "each"
                    else f"you DISCARD {cards}")
            holding = "no cards" if held == 0 else f"only {held} card{'s' if held != 1 else ''}"
            return Reason(f"{d.name} would have {whom}, and you will hold {holding} by then (it leaves your hand "
                          f"as you play it), so you cannot play it now.", "effect.impossible-play")
        op = _first_impossible(s, ops, p, src)
        if op is None:
            return Reason(f"{d.name} cannot be played now: its effect could not be carried out.",
                          "effect.impossible-play")
        because = self.nothing_because(op, src)
        return Reason(f"{d.name} would have you {_op_words(op)}, and {because}, so you cannot play it now.",
                      "effect.impossible-play")
