"""The hint in a player's words: the reason first, then the verdict (best, or about as good with a rule of
thumb), the Neigh odds that follow the rules, and the numbers one click away.

Everything is made from `uu.bots.hint.HintResult` (data): the bots decide, this module speaks. The deciding
player is "you"; every other player and every card is named as the table shows it. No "playout" (the learner
reads "simulated games") and never a word twice in a row.
"""

from __future__ import annotations

import html
from typing import Any

from uu.bots.explain import Effect, NeighOdds, Reason, Threat
from uu.bots.hint import HintResult, HintRow
from uu.cards.localized import card_name, card_text
from uu.engine.actions import Action
from uu.i18n import N_, _, ngettext
from uu.tutor.movewords import card_of, move_first, move_words, stable_of, who
from uu.words.review_text import GRADE_WORDS

__all__ = ["THUMBS", "hint_html", "hint_json", "hint_parts", "hint_text", "move_words", "pct", "reason_words"]

# What a card on the pile does, one whole sentence per verb so each language orders it its own way:
# "{card}" is the card with its owner ("Bramble's Unicorn Poison"), "{target}" the card it hits.
_WOULD = {
    "destroy": N_("{card} would destroy {target}"), "steal": N_("{card} would steal {target}"),
    "return": N_("{card} would send back to its owner's hand {target}"), "move": N_("{card} would move {target}"),
    "sacrifice": N_("{card} would sacrifice {target}"), "discard": N_("{card} would make a player discard {target}"),
}
_DOES = {
    "destroy": N_("{card} destroys {target}"), "steal": N_("{card} steals {target}"),
    "return": N_("{card} sends back to its owner's hand {target}"), "move": N_("{card} moves {target}"),
    "sacrifice": N_("{card} sacrifices {target}"), "discard": N_("{card} makes a player discard {target}"),
}
_DOES_YOU_CHOOSE = {
    "destroy": N_("{card} resolves and destroys a card you choose"),
    "steal": N_("{card} resolves and steals a card you choose"),
    "return": N_("{card} resolves and sends back to its owner's hand a card you choose"),
    "move": N_("{card} resolves and moves a card you choose"),
    "sacrifice": N_("{card} resolves and sacrifices a card you choose"),
    "discard": N_("{card} resolves and makes a player discard a card you choose"),
}
_DOES_THEY_CHOOSE = {
    "destroy": N_("{card} resolves and destroys a card {player} chooses"),
    "steal": N_("{card} resolves and steals a card {player} chooses"),
    "return": N_("{card} resolves and sends back to its owner's hand a card {player} chooses"),
    "move": N_("{card} resolves and moves a card {player} chooses"),
    "sacrifice": N_("{card} resolves and sacrifices a card {player} chooses"),
    "discard": N_("{card} resolves and makes a player discard a card {player} chooses"),
}
# The move, then what its effect does to a card ("{move}: it destroys Bramble's Narwhal").
_IT_DOES = {
    "destroy": N_("{move}: it destroys {target}"), "steal": N_("{move}: it steals {target}"),
    "return": N_("{move}: it sends back to its owner's hand {target}"), "move": N_("{move}: it moves {target}"),
    "sacrifice": N_("{move}: it sacrifices {target}"), "discard": N_("{move}: it makes a player discard {target}"),
}
# ", and this destroys their Narwhal" after "X leads with ...": the card hit belongs to the leader
_AND_THIS = {
    "destroy": N_(", and this destroys their {target}"), "steal": N_(", and this steals their {target}"),
    "return": N_(", and this sends back to its owner's hand their {target}"), "move": N_(", and this moves their {target}"),
    "sacrifice": N_(", and this sacrifices their {target}"),
    "discard": N_(", and this makes a player discard their {target}"),
}
_ONE_OF_THEM = {"destroy": N_(", and this destroys one of them"), "steal": N_(", and this steals one of them for you"),
                "return": N_(", and this sends one of them back to their hand")}

# verbs that pick a player: "{move}: it <does>" ({whose}: "Bramble's", "your", as one phrase in the language)
_PLAYER_VERB = {
    "pull": N_("{move}: it pulls a random card from {whose} hand into yours"),
    "look_take": N_("{move}: it lets you look at {whose} hand and take the card you want"),
    "swap_hands": N_("{move}: it swaps your hand with {whose}"),
    "skip_turn": N_("{move}: it makes {who} skip their next turn"),
}

THUMBS = {
    "stop_harm": N_("when answering is about as good as letting the card through, answer a card that hits your own "
                    "Stable: a card lost from your Stable is hard to win back."),
    "unicorn_first": N_("when two moves are about as good, put a Unicorn in your Stable: Unicorns win the game, "
                        "and a card in the Stable counts now."),
    "leader_first": N_("when two moves are about as good, hold back the player closest to winning."),
    "keep_neigh": N_("when letting a card through is about as good as answering it, keep your Neigh: it is worth "
                     "most against a card that would cost you the game."),
    "unanswerable_first": N_("when two moves are about as good, prefer the one nobody can Neigh: it is sure to "
                             "work."),
    "use_effect": N_("when using a card's effect or not is about as good, use it: the effect is why the card is "
                     "in your Stable."),
    "keep_options": N_("when two moves are about as good, prefer the one that keeps more useful cards in your "
                       "hand."),
}


def pct(x: float | None) -> str:
    return "-" if x is None else _("{percent}%").format(percent=round(100 * x))


def _whose_hand(owner: str | None, me: str) -> str:
    """The owner in "{whose} hand": "your", "Bramble's" (a player's hand)."""
    if owner is None:
        return _("a player's")
    return _("your") if owner == me else _("{player}'s").format(player=owner)


def _threat_resolves(t: Threat, me: str, would: bool = False) -> str:
    """What the card on the pile does if nobody stops it ("Bramble's Unicorn Poison destroys your Narwhal");
    `would`: "would destroy"."""
    head = card_of(t.player, me, t.card)
    verb = t.verb or ""
    if verb in _DOES and t.target:
        target = card_of(t.target_owner, me, t.target)
        return _(_WOULD[verb] if would else _DOES[verb]).format(card=head, target=target)
    if verb in _DOES:
        if t.player == me:
            return _(_DOES_YOU_CHOOSE[verb]).format(card=head)
        return _(_DOES_THEY_CHOOSE[verb]).format(card=head, player=t.player)
    if t.into:
        return _("{card} enters {stable}").format(card=head, stable=stable_of(t.into, me))
    return _("{card} resolves").format(card=head)


def _join_or(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])


def _barred(barred: list[tuple[str, str]]) -> str:
    """" (Ben cannot play Neigh cards (Slowdown))" or "": who may not answer, and the card that stops them."""
    said = "; ".join(_("{player} cannot play Neigh cards ({card})").format(player=n, card=card_name(c))
                     for n, c in barred)
    return f" ({said})" if said else ""


def _odds_words(o: NeighOdds | None, me: str, card: str) -> str:
    """Who may Neigh `card`, and how likely one of them holds a Neigh."""
    if o is None:
        return ""
    if o.unanswerable:
        why = (_("it cannot be Neigh'd") if o.unanswerable == card else
               _("{card} in your Stable keeps your cards from being Neigh'd").format(card=card_name(o.unanswerable)))
        return _("Nobody can Neigh it: {why}.").format(why=why)
    barred = _barred(list(o.barred))
    if not o.may or o.chance <= 0.0:
        return _("Nobody can answer it with a Neigh now{barred}.").format(barred=barred)
    return _("Someone may Neigh it: about {percent} that {players} holds a Neigh{barred}.").format(
        percent=pct(o.chance), players=_join_or(list(o.may)), barred=barred)


def _unicorns_needed(leader: str, have: int, need: int) -> str:
    return ngettext("{player} leads with {have} of the {need} Unicorns needed to win",
                    "{player} leads with {have} of the {need} Unicorns needed to win", need).format(
                        player=leader, have=have, need=need)


def reason_words(r: Reason, action: Action, players: list[str], me: int, clear: bool = True) -> str:
    """The reason a player would give for the move, as one sentence that names the move first."""
    e: Effect = r.effect
    name = players[me]
    move = move_first(move_words(action, players, me, e.threat, e.verb if e.kind == "target" else None),
                      players)
    need = r.need
    lead = (" " + _unicorns_needed(r.leader, r.leader_unicorns, need) + "."
            if r.leader_targeted and r.leader else "")
    card = card_name(e.card) if e.card else ""
    k = r.kind
    if k == "only_move":
        return _("{move} is the only legal move here.").format(move=move)
    if k == "wins_now":
        return ngettext("{move}: that gives you {count} Unicorns, enough to win.",
                        "{move}: that gives you {count} Unicorns, enough to win.",
                        e.unicorns_after or 0).format(move=move, count=e.unicorns_after)
    if k == "wins_often":
        return _("{move}: you win before your next turn in {wins} of {games} simulated games.").format(
            move=move, wins=r.wins, games=r.games)
    if k == "stops" and e.threat:
        if e.threat.mine:
            return _("{move}: {what}.").format(move=move, what=_threat_resolves(e.threat, name, would=True))
        return _("{move}: stopping {card} leaves you better off.").format(
            move=move, card=card_of(e.threat.player, name, e.threat.card))
    if k == "lets_through" and e.threat:
        if e.card:
            return _("{move}: your {card} is worth more on a later card.").format(move=move, card=card)
        return _("{move}: your Neigh is worth more on a later card.").format(move=move)
    if k == "brings":
        return _("{move}: {card} brings your {brings} with it, two Unicorns for one action ({count} of the {need} "
                 "you need).").format(move=move, card=card, brings=card_name(e.brings or ""),
                                      count=e.unicorns_after, need=need)
    if k == "hits":
        verb = e.verb or ""
        takes = e.target_unicorn and verb in ("destroy", "steal", "return")
        if verb in _IT_DOES and r.leader_targeted and r.leader:
            target = card_name(e.target) if e.target else ""
            one = _(_ONE_OF_THEM[verb]) if takes else _(_AND_THIS[verb]).format(target=target)
            return _("{move}: {lead}{one}.").format(move=move, lead=_unicorns_needed(r.leader, r.leader_unicorns,
                                                                                       need), one=one)
        if verb in _IT_DOES:
            said = _(_IT_DOES[verb]).format(move=move, target=card_of(e.target_owner, name, e.target))
            if takes:
                left = e.target_owner_unicorns - 1
                said = ngettext("{said}, which leaves {player} {count} Unicorns",
                                "{said}, which leaves {player} {count} Unicorns", left).format(
                                    said=said, player=who(e.target_owner, name), count=left)
            return f"{said}.{lead}"
        player_verb = _PLAYER_VERB.get(verb)
        if player_verb:
            said = _(player_verb).format(move=move, who=who(e.target_owner, name),
                                         whose=_whose_hand(e.target_owner, name))
            return f"{said}.{lead}"
        return _("{move}: it is aimed at {player}.").format(move=move, player=who(e.target_owner, name)) + lead
    if k == "downgrade":
        return _("{move}: {card} is a Downgrade, and it works against {player} from their Stable.").format(
            move=move, card=card, player=e.into) + lead
    if k == "adds_unicorn":
        return _("{move}: one more Unicorn in your Stable ({count} of the {need} you need).").format(
            move=move, count=e.unicorns_after, need=need)
    if k == "upgrade":
        if e.card_text:
            return _("{move}: {card} is an Upgrade, and it works for you from your Stable ({text}).").format(
                move=move, card=card, text=card_text_of(e.card, e.card_text))
        return _("{move}: {card} is an Upgrade, and it works for you from your Stable.").format(move=move, card=card)
    if k == "uses":
        return _("{move}: {text}").format(move=move, text=card_text_of(e.card, e.card_text or ""))
    if k == "declines":
        return _("{move}: its effect is yours to use or not ({text}).").format(
            move=move, text=card_text_of(e.card, e.card_text or "").rstrip("."))
    if k == "holds_back":
        return _("{move}: it holds back {player}, who leads with {have} of the {need} Unicorns needed (about "
                 "{amount} fewer for them by your next turn than after the next move).").format(
                     move=move, player=r.leader, have=r.leader_unicorns, need=need, amount=_num(r.amount))
    if k == "gains":
        return _("{move}: by your next turn it leaves you about {amount} Unicorns better off than the next "
                 "move.").format(move=move, amount=_num(r.amount))
    if k == "draws":
        return _("{move}: none of your cards does more now, and a new card keeps your options open.").format(move=move)
    # "best" only when the judgement says so (the verdict); otherwise only what is sure
    if clear:
        return _("{move}: it has the highest estimated chance to win from here.").format(move=move)
    return _("{move}: no other move does clearly better in the simulated games.").format(move=move)


def _num(x: float) -> str:
    """One decimal, with the language's decimal mark ("1.5", "1,5")."""
    # i18n: the decimal mark of numbers like 1.5 (a comma in French and German)
    return f"{x:.1f}".replace(".", _("."))


def card_text_of(card: str | None, english: str) -> str:
    """A card's effect text in the language in use (ours, from the card tables), English when it has none."""
    return card_text(card, english) if card else english


def _neigh_moment(result: HintResult) -> str:
    """At a Neigh moment: what passing and what answering would do to you."""
    name = result.player_name
    threat = result.reason.effect.threat
    if threat is None:
        return ""
    answer = next((r for r in result.rows if r.action.kind == "respond"), None)
    out = _("If you pass, {what}.").format(what=_threat_resolves(threat, name))
    if answer is not None:
        odds = next((x.effect.odds for x in (result.reason, result.alt) if x is not None and x.effect.kind == "respond"),
                    None)
        answered = card_name(answer.action.card or "")
        theirs = card_of(threat.player, name, threat.card)
        if odds is not None and odds.unanswerable:
            said = _("If you answer with {answer}, {card} goes to the discard pile and nobody can stop that.")
            out += " " + said.format(answer=answered, card=theirs)
        elif odds is not None and odds.chance > 0:
            said = _("If you answer with {answer}, {card} goes to the discard pile, unless another player answers "
                     "your Neigh with a Neigh of their own: about {percent} that one of them holds one.")
            out += " " + said.format(answer=answered, card=theirs, percent=pct(odds.chance))
        else:
            said = _("If you answer with {answer}, {card} goes to the discard pile.")
            out += " " + said.format(answer=answered, card=theirs)
    return out


def _row_of(result: HintResult, action: Action) -> HintRow | None:
    return next((r for r in result.rows if r.action == action), None)


def hint_text(result: HintResult) -> str:
    """The hint as a learner reads it: the reason, the verdict, the Neigh odds or the Neigh moment."""
    return " ".join(hint_parts(result))


def hint_parts(result: HintResult) -> list[str]:
    """The hint's sentences in groups: the reason, the verdict, a rule of thumb, the Neigh odds or moment."""
    me = result.player
    best = result.best
    words = [reason_words(result.reason, best.action, result.players, me, result.clear)]
    alt = result.alt
    if alt is None:
        pass
    elif result.clear:
        words.append(_("It is the best move here: every other move does clearly worse in the simulated games."))
    else:
        second = next(r for r in result.simulated[1:])
        other = move_words(second.action, result.players, me, alt.effect.threat, result.verb)
        if best.low == best.high == second.low == second.high:  # the same outcome in every simulated game
            words.append(_("{move} is just as good: they end the same way in every simulated game.").format(
                move=move_first(other, result.players)))
        else:
            words.append(_("{move} is about as good: the simulated games cannot tell them apart by enough to "
                           "matter.").format(move=move_first(other, result.players)))
        if result.thumb:
            words.append(_("Rule of thumb: {thumb}").format(thumb=_(THUMBS[result.thumb])))
    if result.decision == "respond":
        moment = _neigh_moment(result)
        if moment:
            words.append(moment)
    elif best.action.kind == "play" and result.reason.kind != "only_move":
        odds = _odds_words(result.reason.effect.odds, result.player_name, best.action.card or "")
        if odds:
            words.append(odds)
    return [w for w in words if w]


def hint_json(result: HintResult) -> dict[str, Any]:
    """`{"player", "decision", "clear", "best", "text", "candidates": [{"move", "chance", "low", "high",
    "games", "grade", "loss"}]}`, the headline move first (the best estimate when `clear`, else the rule of
    thumb's pick among the moves about as good), the moves not simulated last, with null numbers. `grade` and
    `loss` are against the best estimate (`uu.bots.judge`)."""
    me = result.player

    def r4(x: float | None) -> float | None:
        return None if x is None else round(x, 4)

    return {
        "player": result.player_name,
        "decision": result.decision,
        "clear": result.clear,
        "best": move_words(result.best.action, result.players, me, result.reason.effect.threat, result.verb),
        "text": hint_text(result),
        "candidates": [{"move": move_words(r.action, result.players, me, result.reason.effect.threat, result.verb),
                        "chance": r4(r.chance), "low": r4(r.low), "high": r4(r.high), "games": r.games,
                        "grade": r.grade, "loss": r4(r.loss)}
                       for r in result.rows],
    }


def hint_table_text(result: HintResult) -> str:
    """The numbers as plain text (for a terminal)."""
    me = result.player
    threat = result.reason.effect.threat
    rows = [(move_words(r.action, result.players, me, threat, result.verb), r) for r in result.rows]
    width = max([len(m) for m, _row in rows] + [4])
    move, chance, interval, games = _("move"), _("chance"), _("95% interval"), _("games")
    lines = [f"{move:<{width}}  {chance:>6}  {interval:>12}  {games:>5}"]
    for m, r in rows:
        band = "" if r.low is None else f"{pct(r.low)}-{pct(r.high)}"
        lines.append(f"{m:<{width}}  {pct(r.chance):>6}  {band:>12}  {r.games:>5}")
    return "\n".join(lines)


def grade_cell(r: HintRow) -> str:
    """A row's grade against the best estimate, for the numbers' table ("best estimate", "about as good",
    "a mistake: 12 points lower")."""
    if r.grade is None:
        return ""
    if r.grade == "best":
        return _("best estimate")
    if r.grade == "good":
        return _("about as good")
    points = round(100 * (r.loss or 0.0))
    return ngettext("{grade}: {points} point lower", "{grade}: {points} points lower", points).format(
        grade=_(GRADE_WORDS[r.grade]), points=points)


def hint_html(result: HintResult) -> str:
    """The sentences first, the numbers one click away (a <details> with the candidates' table)."""
    e = html.escape
    me = result.player
    threat = result.reason.effect.threat
    rows = []
    for i, r in enumerate(result.simulated):
        style = ' style="font-weight:bold"' if i == 0 and result.clear else ""
        band = _("{low} to {high}").format(low=pct(r.low), high=pct(r.high))
        rows.append(f"<tr{style}><td>{e(move_words(r.action, result.players, me, threat, result.verb))}</td>"
                    f"<td style=\"text-align:right\">{pct(r.chance)}</td>"
                    f"<td style=\"text-align:right;white-space:nowrap\">{e(band)}</td>"
                    f"<td>{e(grade_cell(r))}</td>"
                    f"<td style=\"text-align:right\">{r.games}</td></tr>")
    others = len(result.rows) - len(result.simulated)
    if others:  # one line, not a row each: the learner wants the candidates, not the long tail
        said = ngettext("and {count} other move, not simulated: the rules of thumb rank it lower",
                        "and {count} other moves, not simulated: the rules of thumb rank them lower",
                        others).format(count=others)
        rows.append(f"<tr class=\"uu-hint-others\"><td colspan=\"5\">{e(said)}</td></tr>")
    caption = e(_("{player}: chance to win after each move, from {games} simulated games (the bots play on for "
                  "{turns} turns, then a model of who wins scores the table)").format(
                      player=result.player_name, games=result.games, turns=result.horizon))
    heads = "".join(f"<th>{e(h)}</th>" for h in (_("move"), _("chance to win"), _("95% interval"),
                                                  _("against the best estimate"), _("simulated games")))
    table = ("<table class=\"uu-hint\"><caption>" + caption + "</caption><thead><tr>" + heads + "</tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    parts = "".join(f"<p style=\"margin:2px 0\">{e(p)}</p>" for p in hint_parts(result))
    numbers = _("The numbers behind this hint")
    return (f"<div class=\"uu-hint-why\">{parts}</div><details class=\"uu-hint-details\">"
            f"<summary>{e(numbers)}</summary>{table}</details>")
