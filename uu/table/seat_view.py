"""What one player sees of a game, as JSON-ready dicts for the table widget (`uu.table.widget`).

`observe(game, viewer)` is the table as `viewer` may see it; `legal_actions(game, viewer)` is the pending
decision's legal actions when it is the viewer's, each with the *gesture* that chooses it: the keys of the
table elements to click, in order. The browser lights up the elements whose key is the next step of some
gesture and, once the clicks made match exactly one gesture, sends that action's index back. The engine
stays the only judge: the browser only ever names an index of this list.

Element keys (every drawn element carries one; copies of a card in one zone share a key, because the
engine treats them as interchangeable and names cards by name in its actions):

- ``card:<zone>:<owner>:<name>``: a face-up card (owner -1 for zones nobody owns);
- ``back:<owner>:<position>``: a face-down card in another player's hand;
- ``seat:<p>``: player p's Stable as a place (where a card is played, or the player as a target);
- ``deck``, ``pile`` (the Neigh pile: answering by letting the top card resolve), ``decline``;
- ``option:<i>``: a choice shown only for action i (an option of an effect, an order of cards, a card
  searched for in the deck, which nobody else sees).

Hidden information: the table is built from the engine's observation (`Game.observe`,
uu/engine/observation.py), the one definition of what a seat sees. Another player's hand is shown only as
backs (their ids are positions, never the card's instance id, so a card cannot be followed into a hidden
hand), unless the observation shows it (Nanny Cam, or the viewer is deciding on cards in that hand). The
deck's order is never sent. Importing this module never imports ipywidgets.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from uu.cards import catalog
from uu.cards.carddef import CardDef
from uu.cards.localized import card_name, card_text
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.movetext import prompt_text
from uu.i18n import N_, _, current_language
from uu.render import PHASE_LABELS, TYPE_LABELS, second_person
from uu.table.messages import (
    ActionView,
    CardFacts,
    CardView,
    ChainEffectView,
    ChainLinkView,
    LogLineView,
    PileEntryView,
    SeatView,
    TableView,
    Zone,
)

__all__ = ["FACT_KEYS", "LOG_LINES", "card_at", "card_facts", "card_key", "card_summary", "chain", "legal_actions", "log_lines", "observe"]

LOG_LINES = 8  # the newest lines of the narration sent to the table

#: type -> icon key (uu/table/table.js draws one symbol per key; the three Unicorn kinds differ in shape,
#: so they are told apart without colour).
ICONS = {"baby": "baby", "basic": "basic", "magical": "magical", "magic": "magic", "upgrade": "upgrade",
         "downgrade": "downgrade", "instant": "instant"}


@functools.cache
def _texts() -> dict[str, str]:
    return {d.name: d.text for d in catalog()}


def card_key(zone: str, owner: int, name: str) -> str:
    return f"card:{zone}:{owner}:{name}"


#: What a card dict says about the card itself rather than where it is: the same for every copy, every move.
FACT_KEYS = ("label", "type", "type_label", "icon", "text")


@functools.cache
def _facts(name: str, kind: str, lang: str) -> CardFacts:
    """The facts of card `name` of type `kind` in `lang` (the language in use when called: part of the key)."""
    # "label" and "text" are in the learner's language; the card's "name" stays its English id
    return {"label": card_name(name), "type": kind, "type_label": _(TYPE_LABELS.get(kind, N_("Card"))),
            "icon": ICONS.get(kind, "card"), "text": card_text(name, _texts().get(name, ""))}


@functools.cache
def _back_facts(lang: str) -> CardFacts:
    return {"label": "", "type": None, "type_label": _("Hidden card"), "icon": "back", "text": ""}


def card_facts() -> dict[str, CardFacts]:
    """Every catalog card's facts (FACT_KEYS) in the language in use, by name, and the hidden card's under
    "": what the table widget sends once, so that each card on the table travels as its place alone."""
    lang = current_language()
    out = {d.name: _facts(d.name, getattr(d.type, "value", str(d.type)), lang) for d in catalog()}
    out[""] = _back_facts(lang)
    return out


def _card(defs: Sequence[CardDef], cid: int, zone: Zone, owner: int = -1) -> CardView:
    d = defs[cid]
    kind = getattr(d.type, "value", str(d.type))
    return {"id": f"c{cid}", "key": card_key(zone, owner, d.name), "name": d.name,
            **_facts(d.name, kind, current_language()), "zone": zone, "owner": owner}


def card_at(game: Game, cid: int, zone: Zone, owner: int) -> CardView:
    """Card `cid` as the table draws it in `zone` of `owner` (a step's card where it went)."""
    return _card(game.state.defs, cid, zone, owner if zone in ("hand", "stable") else -1)


def card_summary(game: Game, cid: int) -> CardView:
    """A card as the table draws it, where it is now (a step of a playback: uu/table/replay.py)."""
    s = game.state
    zone: Zone = s.zone_of[cid] or "box"
    owner = s.owner_of[cid] if zone in ("hand", "stable") else -1
    return _card(game.state.defs, cid, zone, owner)


def chain(game: Game) -> list[ChainLinkView]:
    """The effect chain, first link first: each link's effects with their card, whose they are and what they
    will do (the card's text); the first link is the one resolving now."""
    s = game.state
    out: list[ChainLinkView] = []
    for i, link in enumerate(s.chain):
        effects: list[ChainEffectView] = [{"card": card_summary(game, e["cid"]), "player": s.players[e["you"]], "seat": e["you"],
                    "kind": str(e.get("kind", "")),
                    "text": card_text(s.defs[e["cid"]].name, _texts().get(s.defs[e["cid"]].name, ""))}
                   for e in link.get("effects", [])]
        out.append({"current": i == 0, "effects": effects})
    return out


def log_lines(game: Game, start: int, end: int | None = None) -> list[LogLineView]:
    """Log lines `start` to `end` (oldest first), as the table shows them: a newcomer's table asks for
    the whole game once; each update carries only the newest LOG_LINES."""
    s = game.state
    stop = len(s.log) if end is None else min(end, len(s.log))
    out: list[LogLineView] = []
    lang = current_language()
    for i in range(max(0, start), stop):
        text, why, turn = _line(s.log[i].text, tuple(s.log[i].rules), lang)
        line: LogLineView = {"index": i, "text": text, "why": list(why)}
        if turn is not None:
            line["turn"] = turn
        out.append(line)
    return out


@functools.lru_cache(maxsize=256)
def _line(text: str, rules: tuple[str, ...], lang: str) -> tuple[str, tuple[str, ...], int | None]:
    """A log line as the table shows it in `lang` (the language in use: part of the key). Cached: every
    update sends the newest LOG_LINES lines again, and a line never changes once written; a few hundred
    lines cover that without keeping a whole game's (a kernel's memory is a learner's)."""
    turn = _TURN_STARTS.match(text)  # the engine's English line: the table heads each turn's lines
    return second_person(text), _why(rules, lang), int(turn.group(1)) if turn else None


_TURN_STARTS = re.compile(r"Turn (\d+): ")  # the engine's "Turn {n}: {name}'s turn begins." (uu/engine/flow.py)


def _back(owner: int, pos: int) -> CardView:
    return {"id": f"h{owner}-{pos}", "key": f"back:{owner}:{pos}", "name": None,
            **_back_facts(current_language()), "zone": "hand", "owner": owner}


def hand_shown(game: Game, viewer: int | None, p: int) -> bool:
    """May `viewer` (None: an analyst who sees everything) see player p's hand face up?"""
    return game.observe(viewer).seats[p].hand is not None


def observe(game: Game, viewer: int | None) -> TableView:
    """The table as `viewer` may see it, JSON-ready (see the module doc for what stays hidden). Viewer None
    is an analyst's view (the sandbox, a teacher): every hand face up, every prompt in full."""
    seen = game.observe(viewer)
    who = seen.decider
    players: list[SeatView] = []
    for sv in seen.seats:
        p = sv.seat
        if sv.hand is not None:
            hand = [_card(seen.defs, c, "hand", p) for c in sv.hand]
        else:
            hand = [_back(p, i) for i in range(sv.hand_size)]
        players.append({
            "seat": p, "name": sv.name, "is_viewer": p == viewer, "unicorns": sv.unicorns,
            "hand_size": sv.hand_size, "hand_open": sv.hand_open,
            "hand": hand, "stable": [_card(seen.defs, c, "stable", p) for c in sv.stable],
        })
    names = seen.players
    pile: list[PileEntryView] = [{"card": _card(seen.defs, e.cid, "pile"), "player": names[e.player], "seat": e.player}
                                 for e in seen.pile]
    log = log_lines(game, len(game.log) - LOG_LINES)[::-1]  # newest first; the narration is public
    winner = seen.winner
    return {
        "viewer": viewer,
        "players": players,
        "deck_size": seen.deck_size,
        "discard": [_card(seen.defs, c, "discard") for c in seen.discard],  # last is the top
        "nursery": [_card(seen.defs, c, "nursery") for c in seen.nursery],
        "pile": pile,
        "chain": chain(game),
        "turn": {"player": seen.current, "name": names[seen.current], "phase": seen.phase,
                 "phase_label": _(PHASE_LABELS.get(seen.phase, seen.phase)), "number": seen.turn_number},
        "decision": None if who is None else {
            "player": who, "name": names[who], "kind": seen.decision_kind, "yours": who == viewer,
            # another player's prompt may name cards only they see (a search, a look at a hand): the
            # observation holds the decision for its decider (and the analyst) only
            "prompt": prompt_text(seen.decision.prompt) if seen.decision is not None else _("Waiting for {name}.").format(name=names[who]),
        },
        "over": who is None,
        "result": None if winner is None else (
            _("Everyone loses") if isinstance(winner, str) else
            (_("You win") if winner == viewer else _("{name} wins").format(name=names[winner]))),
        "log": log,
    }


@functools.lru_cache(maxsize=512)
def _why(rules: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """The rule sentences of a line citing `rules`, in `lang`: one copy shared by every line citing them."""
    from uu.words.rulewords import learner_rules

    return tuple(f"{r.title}: {r.text} ({r.where})" for r in learner_rules(rules))


# ---- gestures -------------------------------------------------------------------------------------------
def _target_step(t: Any, i: int) -> str:
    if t.player is not None:
        return f"seat:{t.player}"
    if t.zone in ("stable", "hand") and t.owner is not None:
        return card_key(t.zone, t.owner, t.card)
    if t.zone in ("discard", "nursery"):
        return card_key(t.zone, -1, t.card)
    return f"option:{i}"  # the deck (a search): only the searcher sees the candidates


def gesture(game: Game, viewer: int, a: Action, i: int) -> list[str]:
    """The keys of the elements to click, in order, to choose action `a` (index i) of the viewer's decision."""
    if a.kind == "draw":
        return ["deck"]
    if a.kind == "pass":
        return ["pile"]
    if a.kind == "decline":
        return ["decline"]
    if a.kind in ("choose", "order"):
        return [f"option:{i}"]
    if a.kind == "baby":
        return [card_key("nursery", -1, str(a.card))]
    if a.kind in ("discard", "respond"):
        return [card_key("hand", viewer, str(a.card))]
    if a.kind == "sacrifice":
        return [card_key("stable", viewer, str(a.card))]
    if a.kind == "use":
        if a.card in game.stable(viewer):
            return [card_key("stable", viewer, str(a.card))]
        return [f"option:{i}"]
    if a.kind == "target":
        return [_target_step(t, i) for t in a.target]
    if a.kind == "play":
        first = card_key("hand", viewer, str(a.card))
        if a.into is not None:
            return [first, f"seat:{a.into}"]
        if a.target:
            return [first, *(_target_step(t, i) for t in a.target)]
        return [first, "pile"]  # a card with no place and no target: onto the pile, where it may be Neighed
    return [f"option:{i}"]


def _label(game: Game, viewer: int, a: Action) -> str:
    text = second_person(game.describe(a))
    if a.kind == "order":
        return _("put back, top first: {cards}").format(cards=", ".join(card_name(c) for c in a.cards))
    if a.kind == "pass":
        return _("pass (do not answer the top card of the Neigh pile)")
    if a.kind == "draw":
        return _("DRAW a card")
    return text


def legal_actions(game: Game, viewer: int | None) -> list[ActionView]:
    """The pending decision's legal actions if it is the viewer's (else []), each as {"id": its index in
    `game.legal_actions`, "kind", "description", "gesture": [element keys], "card": the card's name if the
    action is about one card}."""
    d = game.pending
    if d is None or viewer is None or d.player != viewer:
        return []
    return [action_view(game, viewer, a, i) for i, a in enumerate(d.actions)]


def action_view(game: Game, viewer: int, a: Action, i: int) -> ActionView:
    """Action `a`, index i of the viewer's choices, as the browser is sent it (its words and gesture)."""
    option = None
    if a.kind in ("choose", "order") or any(t.zone == "deck" for t in a.target):
        option = _label(game, viewer, a)
    elif a.kind == "use" and a.card not in game.stable(viewer):
        option = _label(game, viewer, a)
    return {"id": i, "kind": a.kind, "description": _label(game, viewer, a),
            "gesture": gesture(game, viewer, a, i), "option": option, "card": a.card}


def next_step(actions: list[ActionView], clicks: list[str]) -> tuple[int | None, set[str]]:
    """The browser's resolution rule, in Python (table.js does the same; tests use this one): after the
    element keys `clicks`, (the chosen action's id, or None while none is complete, and the keys that may
    be clicked next). A key that fits no gesture leaves nothing legal: the browser then starts again."""
    n = len(clicks)
    fits = [a for a in actions if a["gesture"][:n] == clicks]
    done = [a["id"] for a in fits if len(a["gesture"]) == n]
    if len(done) == 1 and len(fits) == 1:
        return done[0], set()
    return None, {a["gesture"][n] for a in fits if len(a["gesture"]) > n}
