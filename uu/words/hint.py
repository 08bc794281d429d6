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
from uu.engine.actions import Action
from uu.tutor.movewords import move_words, who, whose

__all__ = ["THUMBS", "hint_html", "hint_json", "hint_parts", "hint_text", "move_words", "pct", "reason_words"]

# the verb of a card's effect, as "it <does> <whose> <card>"
_VERB_DOES = {
    "destroy": "destroys", "steal": "steals", "return": "sends back to its owner's hand",
    "move": "moves", "sacrifice": "sacrifices", "discard": "makes a player discard",
}

_BASE = {"destroy": "destroy", "steal": "steal", "return": "send back to its owner's hand", "move": "move",
         "sacrifice": "sacrifice", "discard": "make a player discard"}

# verbs that pick a player: "it <does>"
_PLAYER_VERB = {
    "pull": "pulls a random card from {whose} hand into yours",
    "look_take": "lets you look at {whose} hand and take the card you want",
    "swap_hands": "swaps your hand with {whose}",
    "skip_turn": "makes {who} skip their next turn",
}

_ONE_OF_THEM = {"destroy": ", and this destroys one of them", "steal": ", and this steals one of them for you",
                "return": ", and this sends one of them back to their hand"}

THUMBS = {
    "unicorn_first": "when two moves are about as good, put a Unicorn in your Stable: Unicorns win the game, "
                     "and a card in the Stable counts now.",
    "leader_first": "when two moves are about as good, hold back the player closest to winning.",
    "keep_neigh": "a Neigh in your hand is worth most against the card that would cost you the game; save it "
                  "unless this card really hurts you.",
    "unanswerable_first": "when two moves are about as good, prefer the one nobody can Neigh: it is sure to work.",
    "use_effect": "when using a card's effect or not is about as good, use it: the effect is why the card is in "
                  "your Stable.",
    "keep_options": "when two moves are about as good, prefer the one that keeps more useful cards in your hand.",
}


def pct(x: float | None) -> str:
    return "-" if x is None else f"{round(100 * x)}%"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _threat_resolves(t: Threat, me: str, would: bool = False) -> str:
    """What the card on the pile does if nobody stops it ("Bramble's Unicorn Poison destroys your Narwhal");
    `would`: "would destroy"."""
    head = f"{whose(t.player, me)} {t.card}"
    does = _VERB_DOES.get(t.verb or "")
    if would and does and t.target:
        return f"{head} would {_BASE[t.verb or '']} {whose(t.target_owner, me)} {t.target}"
    if does and t.target:
        return f"{head} {does} {whose(t.target_owner, me)} {t.target}"
    if does:
        return f"{head} resolves and {does} a card {t.player if t.player != me else 'you'} choose{'s' if t.player != me else ''}"
    if t.into:
        return f"{head} enters {whose(t.into, me)} Stable"
    return f"{head} resolves"


def _odds_words(o: NeighOdds | None, me: str, card: str) -> str:
    """Who may Neigh `card`, and how likely one of them holds a Neigh."""
    if o is None:
        return ""
    if o.unanswerable:
        why = ("it cannot be Neigh'd" if o.unanswerable == card else
               f"{o.unanswerable} in your Stable keeps your cards from being Neigh'd")
        return f"Nobody can Neigh it: {why}."
    barred = "; ".join(f"{n} cannot play Neigh cards ({c})" for n, c in o.barred)
    barred = f" ({barred})" if barred else ""
    if not o.may or o.chance <= 0.0:
        return f"Nobody can answer it with a Neigh now{barred}."
    who = o.may[0] if len(o.may) == 1 else ", ".join(o.may[:-1]) + " or " + o.may[-1]
    return f"Someone may Neigh it: about {pct(o.chance)} that {who} holds a Neigh{barred}."


def reason_words(r: Reason, action: Action, players: list[str], me: int) -> str:
    """The reason a player would give for the move, as one sentence that names the move first."""
    e: Effect = r.effect
    name = players[me]
    move = _cap(move_words(action, players, me, e.threat))
    need = r.need
    lead = (f" {r.leader} leads with {r.leader_unicorns} of the {need} Unicorns needed to win."
            if r.leader_targeted and r.leader else "")
    k = r.kind
    if k == "only_move":
        return f"{move} is the only legal move here."
    if k == "wins_now":
        return f"{move}: that gives you {e.unicorns_after} Unicorns, enough to win."
    if k == "wins_often":
        return f"{move}: you win before your next turn in {r.wins} of {r.games} simulated games."
    if k == "stops" and e.threat:
        if e.threat.mine:
            return f"{move}: {_threat_resolves(e.threat, name, would=True)}."
        return f"{move}: stopping {whose(e.threat.player, name)} {e.threat.card} leaves you better off."
    if k == "lets_through" and e.threat:
        return f"{move}: your {e.card or 'Neigh'} is worth more on a later card."
    if k == "brings":
        return (f"{move}: {e.card} brings your {e.brings} with it, two Unicorns for one action "
                f"({e.unicorns_after} of the {need} you need).")
    if k == "hits":
        does = _VERB_DOES.get(e.verb or "")
        takes = e.target_unicorn and e.verb in ("destroy", "steal", "return")
        if does and r.leader_targeted and r.leader:
            one = _ONE_OF_THEM[e.verb or ""] if takes else f", and this {does} their {e.target}"
            return f"{move}: {r.leader} leads with {r.leader_unicorns} of the {need} Unicorns needed to win{one}."
        if does:
            left = (f", which leaves {who(e.target_owner, name)} {e.target_owner_unicorns - 1} Unicorns"
                    if takes else "")
            return f"{move}: it {does} {whose(e.target_owner, name)} {e.target}{left}.{lead}"
        player_verb = _PLAYER_VERB.get(e.verb or "")
        if player_verb:
            return f"{move}: it {player_verb.format(who=who(e.target_owner, name), whose=whose(e.target_owner, name))}.{lead}"
        return f"{move}: it is aimed at {who(e.target_owner, name)}.{lead}"
    if k == "downgrade":
        return f"{move}: {e.card} is a Downgrade, and it works against {e.into} from their Stable.{lead}"
    if k == "adds_unicorn":
        return f"{move}: one more Unicorn in your Stable ({e.unicorns_after} of the {need} you need)."
    if k == "upgrade":
        text = f" ({e.card_text})" if e.card_text else ""
        return f"{move}: {e.card} is an Upgrade, and it works for you from your Stable{text}."
    if k == "uses":
        return f"{move}: {e.card_text}"
    if k == "declines":
        return f"{move}: its effect is yours to use or not ({(e.card_text or '').rstrip('.')})."
    if k == "holds_back":
        return (f"{move}: it holds back {r.leader}, who leads with {r.leader_unicorns} of the {need} Unicorns "
                f"needed (about {r.amount:.1f} fewer for them by your next turn than after the next move).")
    if k == "gains":
        return f"{move}: by your next turn it leaves you about {r.amount:.1f} Unicorns better off than the next move."
    if k == "draws":
        return f"{move}: none of your cards does more now, and a new card keeps your options open."
    return f"{move}: it has the highest estimated chance to win from here."  # "best" only when clear (the verdict)


def _neigh_moment(result: HintResult) -> str:
    """At a Neigh moment: what passing and what answering would do to you."""
    name = result.player_name
    threat = result.reason.effect.threat
    if threat is None:
        return ""
    answer = next((r for r in result.rows if r.action.kind == "respond"), None)
    out = f"If you pass, {_threat_resolves(threat, name)}."
    if answer is not None:
        out += (f" If you answer with {answer.action.card}, {whose(threat.player, name)} {threat.card} goes to "
                f"the discard pile")
        odds = next((x.effect.odds for x in (result.reason, result.alt) if x is not None and x.effect.kind == "respond"),
                    None)
        if odds is not None and odds.unanswerable:
            out += " and nobody can stop that."
        elif odds is not None and odds.chance > 0:
            out += f", unless someone Neighs your Neigh (about {pct(odds.chance)})."
        else:
            out += "."
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
    words = [reason_words(result.reason, best.action, result.players, me)]
    alt = result.alt
    if alt is None:
        pass
    elif result.clear:
        second = next(r for r in result.simulated[1:])
        words.append(f"It is the best move here: about {pct(best.chance)} to win, against {pct(second.chance)} "
                     f"for the next ({move_words(second.action, result.players, me, alt.effect.threat)}).")
    else:
        second = next(r for r in result.simulated[1:])
        other = move_words(second.action, result.players, me, alt.effect.threat)
        if best.low == best.high == second.low == second.high:  # the same outcome in every simulated game
            words.append(f"{_cap(other)} is just as good: they end the same way in every simulated game.")
        else:
            words.append(f"{_cap(other)} is about as good: {pct(best.chance)} and {pct(second.chance)} are too "
                         f"close to tell apart in {best.games + second.games} simulated games.")
        if result.thumb:
            words.append(f"Rule of thumb: {THUMBS[result.thumb]}")
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
    "games"}]}`, candidates best first (the moves not simulated last, with null numbers)."""
    me = result.player

    def r4(x: float | None) -> float | None:
        return None if x is None else round(x, 4)

    return {
        "player": result.player_name,
        "decision": result.decision,
        "clear": result.clear,
        "best": move_words(result.best.action, result.players, me, result.reason.effect.threat),
        "text": hint_text(result),
        "candidates": [{"move": move_words(r.action, result.players, me, result.reason.effect.threat),
                        "chance": r4(r.chance), "low": r4(r.low), "high": r4(r.high), "games": r.games}
                       for r in result.rows],
    }


def hint_table_text(result: HintResult) -> str:
    """The numbers as plain text (for a terminal)."""
    me = result.player
    threat = result.reason.effect.threat
    rows = [(move_words(r.action, result.players, me, threat), r) for r in result.rows]
    width = max([len(m) for m, _ in rows] + [4])
    lines = [f"{'move':<{width}}  {'chance':>6}  {'95% interval':>12}  {'games':>5}"]
    for m, r in rows:
        band = "" if r.low is None else f"{pct(r.low)}-{pct(r.high)}"
        lines.append(f"{m:<{width}}  {pct(r.chance):>6}  {band:>12}  {r.games:>5}")
    return "\n".join(lines)


def hint_html(result: HintResult) -> str:
    """The sentences first, the numbers one click away (a <details> with the candidates' table)."""
    e = html.escape
    me = result.player
    threat = result.reason.effect.threat
    rows = []
    for i, r in enumerate(result.simulated):
        style = ' style="font-weight:bold"' if i == 0 and result.clear else ""
        rows.append(f"<tr{style}><td>{e(move_words(r.action, result.players, me, threat))}</td>"
                    f"<td style=\"text-align:right\">{pct(r.chance)}</td>"
                    f"<td style=\"text-align:right\">{pct(r.low)} to {pct(r.high)}</td>"
                    f"<td style=\"text-align:right\">{r.games}</td></tr>")
    others = len(result.rows) - len(result.simulated)
    if others:  # one line, not a row each: the learner wants the candidates, not the long tail
        rows.append(f"<tr class=\"uu-hint-others\"><td colspan=\"4\">and {others} other move"
                    f"{'s' if others != 1 else ''}, not simulated: the rules of thumb rank "
                    f"{'them' if others != 1 else 'it'} lower</td></tr>")
    caption = (f"{e(result.player_name)}: chance to win after each move, from {result.games} simulated games "
               f"(the bots play on for {result.horizon} turns, then a model of who wins scores the table)")
    table = ("<table class=\"uu-hint\"><caption>" + caption + "</caption><thead><tr><th>move</th>"
             "<th>chance to win</th><th>95% interval</th><th>simulated games</th></tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    parts = "".join(f"<p style=\"margin:2px 0\">{e(p)}</p>" for p in hint_parts(result))
    return (f"<div class=\"uu-hint-why\">{parts}</div><details class=\"uu-hint-details\">"
            f"<summary>The numbers behind this hint</summary>{table}</details>")
