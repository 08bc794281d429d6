"""HTML for the tutor's screens: cards, the board, the narrated log, lesson Markdown. Pure Python.

Everything here returns strings for `widgets.HTML` (the widgets in `uu.widgets` only place them). Two rules:
- every string that comes from outside this module (player names, card names, log lines, feedback, rule
  statements) goes through `html.escape`: a name like `<img onerror=...>` shows as text, never runs;
- lesson narration is Markdown, converted by `markdown_html`, which escapes FIRST and then applies a few
  Markdown rules (paragraphs, **bold**, *italic*, `code`, lists, ### headings): no raw HTML passes through.

Cards are drawn by the package in the rulebooks' type colours (purple Baby, indigo Basic, blue Magical, green
Magic, orange Upgrade, yellow Downgrade, red Instant), with the type also written on the card (colour is
never the only cue), and the card's text in our words (catalog `CardDef.text`) on hover (`title`) and on
click (the card is a `<details>` element that opens).

Importing this module never imports ipywidgets (a test checks it).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from uu.cards.localized import card_name, card_text
from uu.htmlsafe import esc
from uu.i18n import N_, _, current_language, ngettext

if TYPE_CHECKING:
    from uu.engine.state import LogEntry

log = logging.getLogger(__name__)

__all__ = [
    "PHASES", "STYLE", "TYPE_COLOURS", "TYPE_LABELS", "board_html", "card_back_html", "card_html",
    "cards_html", "esc", "explain_lines", "log_html", "markdown_html", "phase_track_html", "plural",
    "learner_lines", "result_text", "rules_html",
]

PHASES = ("beginning", "draw", "action", "end")
# marked for the catalogs, translated where shown (`_(PHASE_LABELS[p])`): the language may change at run time
PHASE_LABELS = {"beginning": N_("Beginning of turn"), "draw": N_("Draw"), "action": N_("Action"),
                "end": N_("End of turn")}

#: type value -> (background, text colour), as the rulebooks colour the card types.
TYPE_COLOURS: dict[str, tuple[str, str]] = {
    "baby": ("#8e44ad", "#ffffff"),       # purple
    "basic": ("#3949ab", "#ffffff"),      # indigo
    "magical": ("#1e88e5", "#ffffff"),    # blue
    "magic": ("#2e7d32", "#ffffff"),      # green
    "upgrade": ("#ef6c00", "#1b1b1b"),    # orange
    "downgrade": ("#f9cf00", "#1b1b1b"),  # yellow
    "instant": ("#c62828", "#ffffff"),    # red
}
TYPE_LABELS = {
    "baby": N_("Baby Unicorn"), "basic": N_("Basic Unicorn"), "magical": N_("Magical Unicorn"), "magic": N_("Magic"),
    "upgrade": N_("Upgrade"), "downgrade": N_("Downgrade"), "instant": N_("Instant"),
}
UNKNOWN = ("#607d8b", "#ffffff")

# Small white glyphs (inline SVG), one per family: a horn for Unicorns, a star for Magic, arrows for Upgrade
# and Downgrade, a bolt for Instant.
_GLYPHS = {
    "unicorn": "<polygon points='8,1 11,15 5,15'/>",
    "magic": "<polygon points='8,1 10,6 15,6 11,9.5 12.5,15 8,11.5 3.5,15 5,9.5 1,6 6,6'/>",
    "upgrade": "<polygon points='8,1 15,9 10.5,9 10.5,15 5.5,15 5.5,9 1,9'/>",
    "downgrade": "<polygon points='8,15 15,7 10.5,7 10.5,1 5.5,1 5.5,7 1,7'/>",
    "instant": "<polygon points='10,1 3,9 7.5,9 6,15 13,6 8.5,6'/>",
    "unknown": "<circle cx='8' cy='8' r='5'/>",
}
_GLYPH_OF = {"baby": "unicorn", "basic": "unicorn", "magical": "unicorn", "magic": "magic",
             "upgrade": "upgrade", "downgrade": "downgrade", "instant": "instant"}

STYLE = """<style>
.uu-root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.uu-card { display:inline-block; vertical-align:top; margin:2px 4px 2px 0; border-radius:6px;
  border:1px solid rgba(0,0,0,.35); font-size:0.85em; line-height:1.25; width:10.5em;
  box-shadow:0 1px 2px rgba(0,0,0,.2); }
.uu-card > summary { list-style:none; cursor:pointer; padding:3px 6px; display:block; }
.uu-card > summary::-webkit-details-marker { display:none; }
.uu-card .uu-card-type { font-size:0.75em; text-transform:uppercase; letter-spacing:.04em; opacity:.9;
  margin-left:3px; }
.uu-card .uu-card-name { display:block; font-weight:600; white-space:normal; }
.uu-card .uu-card-text { background:#fff; color:#222; padding:4px 6px; border-radius:0 0 6px 6px;
  font-size:0.95em; white-space:normal; }
.uu-card[open] { width:14em; }
.uu-card svg { flex:none; }
.uu-card-back { background:repeating-linear-gradient(45deg,#222 0 4px,#3a3a3a 4px 8px); color:#eee;
  padding:3px 6px; width:auto; }
.uu-table { display:flex; flex-direction:column; gap:4px; }
.uu-seat { border:1px solid #ddd; border-radius:8px; padding:4px 8px; }
.uu-seat.uu-current { border-color:#3949ab; background:#f3f4fd; }
.uu-seat.uu-you { box-shadow: inset 4px 0 0 #8e44ad; }
.uu-player-head { margin-bottom:2px; }
.uu-zone-label { color:#555; font-size:0.85em; margin-right:4px; }
.uu-phases { display:flex; gap:2px; margin:4px 0; flex-wrap:wrap; }
.uu-phase { padding:2px 8px; border-radius:10px; background:#eee; color:#555; font-size:0.85em; }
.uu-phase.uu-phase-current { background:#3949ab; color:#fff; font-weight:600; }
.uu-common { display:flex; flex-wrap:wrap; gap:12px; margin:4px 0; }
.uu-pile ol, .uu-chain ol { margin:2px 0 2px 1.4em; padding:0; }
.uu-log-line { margin:1px 0; }
.uu-log-line > summary { cursor:pointer; }
.uu-log-line.uu-new > summary { font-weight:600; }
.uu-why-label { color:#3949ab; font-size:0.8em; margin-left:6px; }
.uu-why { color:#444; font-size:0.85em; margin:2px 0 4px 1.5em; }
.uu-where { color:#666; font-size:0.9em; white-space:nowrap; }
.uu-coach { margin-top:6px; padding:4px 8px; border-left:3px solid #6a4c93; background:#f6f2fb; }
.uu-recap ul { margin:4px 0; }
.uu-error-box { color:#8a1c1c; background:#fdecea; border:1px solid #f5c2c0; padding:6px 10px; border-radius:6px; }
.uu-fb { padding:6px 10px; border-radius:6px; margin:4px 0; }
.uu-fb-right { background:#e8f5e9; border:1px solid #a5d6a7; }
.uu-fb-illegal { background:#fdecea; border:1px solid #f5c2c0; }
.uu-fb-other { background:#fff8e1; border:1px solid #ffe082; }
.uu-fb-info { background:#e3f2fd; border:1px solid #90caf9; }
.uu-narration { font-size:1.02em; line-height:1.45; max-width:52em; }
.uu-banner { font-size:1.3em; font-weight:700; padding:8px 12px; border-radius:8px; background:#fff3cd;
  border:1px solid #ffe08a; }
.uu-status-done { color:#2e7d32; font-weight:600; }
.uu-status-progress { color:#a84b00; font-weight:600; }  /* 4.5:1 on white at least (axe-core) */
.uu-status-new { color:#595959; }
/* JupyterLab's light button colours put white text on light blue and orange (under 4.5:1, axe-core) */
.uu-root .jupyter-button.mod-info { background:#0d6a8a; color:#fff; }
.uu-root .jupyter-button.mod-warning { background:#a84b00; color:#fff; }
.uu-root .jupyter-button.mod-success { background:#2e7d32; color:#fff; }
.uu-root .jupyter-button.mod-danger { background:#c62828; color:#fff; }
.uu-action button, button.uu-action { height:auto; min-height:28px; white-space:normal; text-align:left;
  margin:2px 4px 2px 0; }
.uu-card, .uu-log-line, .uu-why, .uu-phase { line-height:1.3; }
.uu-root .fa-play::before { content:"\\25B6"; font-style:normal; }
</style>"""


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


# ---- cards ------------------------------------------------------------------------------------------
@functools.cache
def _card_infos() -> dict[str, tuple[str, str]]:
    """Card name -> (type value, text in our words); empty if the catalog cannot be read."""
    try:
        from uu.cards import catalog

        return {d.name: (getattr(d.type, "value", str(d.type)), d.text) for d in catalog()}
    except Exception:  # the board still works without colours and texts
        log.exception("could not read the card catalog")
        return {}


def _glyph(kind: str, colour: str) -> str:
    shape = _GLYPHS[_GLYPH_OF.get(kind, "unknown")]
    return (f"<svg width='14' height='14' viewBox='0 0 16 16' aria-hidden='true' "
            f"fill='{colour}'>{shape}</svg>")


def card_html(name: str, note: str = "", open_: bool = False) -> str:
    """One face-up card: type colour, glyph, type label and name; its text on hover and on click.
    `note` (plain text, escaped) is added after the text, e.g. "played by Ana"."""
    kind, text = _card_infos().get(name, ("", ""))
    bg, fg = TYPE_COLOURS.get(kind, UNKNOWN)
    label = _(TYPE_LABELS.get(kind, N_("Card")))
    # the card's name and text in the learner's language (uu.cards.localized); `name` stays its id
    shown = card_name(name)
    body = card_text(name, text) if text else _("(no text for this card)")
    title = f"{shown}, {label}. {body}"
    extra = f"<br><i>{esc(note)}</i>" if note else ""
    return (f"<details class='uu-card uu-type-{esc(kind or 'unknown')}'{' open' if open_ else ''} "
            f"style='background:{bg};color:{fg}' title='{esc(title)}'>"
            f"<summary>{_glyph(kind, fg)}<span class='uu-card-type'>{esc(label)}</span>"
            f"<span class='uu-card-name'>{esc(shown)}</span></summary>"
            f"<div class='uu-card-text'>{esc(body)}{extra}</div></details>")


def card_back_html(title: str | None = None) -> str:
    """The back of a hidden card (another player's hand, the deck)."""
    title = _("a face-down card") if title is None else title
    return (f"<span class='uu-card uu-card-back' title='{esc(title)}'>"
            f"<svg width='12' height='12' viewBox='0 0 16 16' aria-hidden='true' fill='#ddd'>"
            f"{_GLYPHS['unicorn']}</svg> " + esc(_("card")) + "</span>")


def cards_html(names: Iterable[str], empty: str | None = None) -> str:
    out = "".join(card_html(n) for n in names)
    return out or f"<i class='uu-empty'>{esc(_('empty') if empty is None else empty)}</i>"


# ---- rules and Markdown -----------------------------------------------------------------------------
def explain_lines(rule_ids: Sequence[str]) -> list[str]:
    """The statements of `rule_ids` (uu.engine.rules.explain); an unknown id never breaks the page."""
    if not rule_ids:
        return []
    from uu.engine.rules import explain

    try:
        return explain(rule_ids)
    except Exception:
        log.exception("cannot explain rules %s", rule_ids)
        out = []
        for r in rule_ids:
            try:
                out.extend(explain([r]))
            except Exception:
                out.append(f"{r}: (no statement found)")
        return out


def rules_html(rule_ids: Sequence[str], label: str = "Rules", open_: bool = False) -> str:
    """A collapsible list of the rules in a learner's words: titles, sentences, where to read them (no ids)."""
    from uu.words.rulewords import rules_html as learner_rules_html

    return learner_rules_html(rule_ids, label, open_)


def learner_lines(rule_ids: Sequence[str]) -> list[str]:
    """One plain line per rule: "Title: sentence (where to read it)"; ids stay in the data."""
    from uu.words.rulewords import learner_rules

    return [f"{r.title}: {r.text} ({r.where})" for r in learner_rules(rule_ids)]


_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBER = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_HEADING = re.compile(r"^(#{1,4})\s+(.*)$")


def _inline(text: str) -> str:
    """Inline Markdown on text that is ALREADY escaped: `code` first (its content untouched), then bold and
    italic outside code."""
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{part}</code>")
        else:
            part = _BOLD.sub(r"<b>\1</b>", part)
            part = _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", part)
            out.append(part)
    return "".join(out)


def markdown_html(text: str) -> str:
    """A small, safe Markdown: the text is escaped first, so no HTML of the source survives; then blank-line
    separated paragraphs, `-`/`*` and `1.` lists, `#` headings, **bold**, *italic*, `code`."""
    out: list[str] = []
    lines = esc(text or "").replace("\r\n", "\n").split("\n")
    para: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush_para() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(s.strip() for s in para))}</p>")
            para.clear()

    def flush_list() -> None:
        nonlocal list_tag
        if items:
            out.append(f"<{list_tag}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{list_tag}>")
            items.clear()
        list_tag = ""

    for line in lines:
        if not line.strip():
            flush_para()
            flush_list()
            continue
        b, n, h = _BULLET.match(line), _NUMBER.match(line), _HEADING.match(line)
        if b or n:
            flush_para()
            tag = "ul" if b else "ol"
            if list_tag and list_tag != tag:
                flush_list()
            list_tag = tag
            items.append((b or n).group(1).strip())  # type: ignore[union-attr]
        elif h:
            flush_para()
            flush_list()
            level = min(len(h.group(1)) + 2, 6)
            out.append(f"<h{level}>{_inline(h.group(2).strip())}</h{level}>")
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()  # a list item continued on the next line
        else:
            flush_list()
            para.append(line)
    flush_para()
    flush_list()
    return "".join(out)


# ---- the log ----------------------------------------------------------------------------------------
_IRREGULAR = {"has": "have", "does": "do", "is": "are", "was": "were"}
# "You" at the start of the line or of a clause after a colon ("The deck has run out: You has the most ...")
_SECOND_PERSON = re.compile(r"(^|: )You ([A-Za-z]+)\b")
_POSSESSIVE = re.compile(r"\bYou's\b")


def second_person(text: str) -> str:
    """A line of the engine's log (or a move's label) as the learner reads it: in the language in use
    (`uu.engine.movetext.log_text`: the engine narrates in English; a line it does not know stays as it is),
    and in English with the verb after a leading "You" (the learner's default name) fixed: the engine narrates
    in the third person ("Ana DRAWs 1 card"), which reads "You DRAWs" for a player called You."""
    from uu.engine.movetext import log_text

    text = log_text(text)
    if current_language() != "en":  # the translated templates address the learner themselves
        return text

    def verb(m: re.Match[str]) -> str:
        lead, word = m.group(1), m.group(2)
        low = word.lower()
        if low in _IRREGULAR:
            base = _IRREGULAR[low]
        elif low.endswith(("ches", "shes", "sses", "xes")):
            base = word[:-2]
        elif low.endswith("s") and not low.endswith("ss") and len(low) > 2:
            base = word[:-1]
        else:
            return m.group(0)
        return f"{lead}You {base.upper() if word.isupper() or word[:-1].isupper() else base}"

    fixed = _SECOND_PERSON.sub(verb, text, count=1)
    if fixed != text:  # "You have 7 Unicorns and wins!": the second verb of the sentence too
        fixed = fixed.replace(" and wins", " and win")
    text = fixed
    return _POSSESSIVE.sub(lambda m: "Your" if m.start() == 0 or text[max(0, m.start() - 2):m.start()] in (
        ": ", ". ") else "your", text)


def log_html(entries: Sequence[LogEntry], limit: int | None = 40, new_from: int | None = None) -> str:
    """The narrated log, newest first; every line opens to show why (the statements of its rule ids).
    `new_from`: index of the first entry to mark as new (what the last move produced)."""
    total = len(entries)
    start = 0 if limit is None else max(0, total - limit)
    lines = []
    why_word = esc(_("why?"))
    for i in range(total - 1, start - 1, -1):
        e = entries[i]
        rules = tuple(getattr(e, "rules", ()) or ())
        cls = "uu-log-line uu-new" if new_from is not None and i >= new_from else "uu-log-line"
        plain = learner_lines(rules) if rules else []
        if plain:
            why = "".join(f"<div class='uu-why'>{esc(s)}</div>" for s in plain)
        else:
            why = "<div class='uu-why'>" + esc(_("No rule is cited: it reports a choice or a move.")) + "</div>"
        lines.append(f"<details class='{cls}'><summary>{esc(second_person(e.text))}<span class='uu-why-label'>{why_word}</span>"
                     f"</summary>{why}</details>")
    if start:
        older = ngettext("({n} older line not shown)", "({n} older lines not shown)", start).format(n=start)
        lines.append(f"<div class='uu-why'>{esc(older)}</div>")
    return "".join(lines) or "<i>" + esc(_("Nothing has happened yet.")) + "</i>"


# ---- the board --------------------------------------------------------------------------------------
def result_text(game: Any, viewer: int | None = None) -> str:
    """Plain text with no end punctuation (callers add their own): "You win", "Ana wins", "Everyone loses",
    "No winner"."""
    w = game.winner
    if isinstance(w, str):  # "everyone-loses": the one word the engine ends a game with instead of a seat
        return _("Everyone loses")
    if w is None:
        return _("No winner")
    if viewer is not None and w == viewer:
        return _("You win")
    return _("{name} wins").format(name=game.players[w])


def phase_track_html(phase: str, number: int) -> str:
    if number == 0:
        return "<div class='uu-phases'><span class='uu-phase uu-phase-current'>" + esc(_("Setup: choosing Babies")) + "</span></div>"
    chips = []
    for p in PHASES:
        cur = p == phase
        attrs = " class='uu-phase uu-phase-current' aria-current='step'" if cur else " class='uu-phase'"
        chips.append(f"<span{attrs}>{esc(_(PHASE_LABELS[p]))}</span>")
    return "<div class='uu-phases'>" + "<span>→</span>".join(chips) + "</div>"


def _view(game: Any, viewer: int | None) -> dict[str, Any]:
    """What `viewer` may see (the engine's observation, `Game.observe`), or everything when viewer is None."""
    seen = game.observe(viewer)
    names = list(seen.players)
    return {
        "players": names,
        "hands": {sv.name: [seen.name(c) for c in sv.hand] if sv.hand is not None else sv.hand_size
                  for sv in seen.seats},
        "stables": {sv.name: [seen.name(c) for c in sv.stable] for sv in seen.seats},
        "unicorns": {sv.name: sv.unicorns for sv in seen.seats},
        "deck_size": seen.deck_size,
        "discard": [seen.name(c) for c in seen.discard],
        "nursery": [seen.name(c) for c in seen.nursery],
        "pile": [(seen.name(e.cid), names[e.player]) for e in seen.pile],
        # the prompt may name cards only the decider sees: the observation holds it for them alone
        "pending": None if seen.decider is None else {
            "player": names[seen.decider], "prompt": seen.decision.prompt if seen.decision is not None else ""},
    }


def board_html(game: Any, viewer: int | None = None) -> str:
    """The table as `viewer` may see it (None: everything): turn and phase track, every Stable with its
    Unicorn count, hands (own open, others as backs unless visible), Nursery, deck, discard (browsable),
    the Neigh pile bottom to top with who played what, and the effect chain's waiting links."""
    v = _view(game, viewer)
    names: list[str] = v["players"]
    current, phase, number = game.turn
    over = game.pending is None
    parts = ["<div class='uu-table'>"]

    if over:
        parts.append("<div class='uu-banner uu-result'>" + esc(_("Game over: {result}").format(result=result_text(game, viewer)))
                     + "</div>")
    whose = "your turn" if current == viewer else f"<b>{esc(names[current])}</b>'s turn"
    head = f"<b>Turn {number}</b> · {whose}" if number else "<b>Setup</b>"
    parts.append(f"<div class='uu-turn-line'>{head}</div>{phase_track_html(phase, number)}")
    pend = v.get("pending")
    if pend and not over:
        who = pend["player"]
        prompt = str(pend["prompt"]).removeprefix(f"{who}: ")
        whose = "you" if viewer is not None and who == names[viewer] else who
        said = f": {esc(prompt)}" if prompt else "."
        parts.append(f"<div class='uu-waiting'>Waiting for <b>{esc(whose)}</b>{said}</div>")

    for p, name in enumerate(names):
        cls = ["uu-seat"]
        if p == current and not over:
            cls.append("uu-current")
        if p == viewer:
            cls.append("uu-you")
        you = " (you)" if p == viewer else ""
        hand = v["hands"].get(name, 0)
        if isinstance(hand, list):
            seen = "" if p == viewer or viewer is None else " <i>(face up: Nanny Cam)</i>"
            hand_html = f"{plural(len(hand), 'card')}{seen} {cards_html(hand, 'no cards')}"
        else:
            hand_html = f"{plural(hand, 'card')} " + "".join(card_back_html(f"{name}'s hidden card")
                                                             for _ in range(hand))
        parts.append(
            f"<div class='{' '.join(cls)}'><div class='uu-player-head'><b>{esc(name)}</b>{esc(you)} · "
            f"{plural(v['unicorns'][name], 'Unicorn')}</div>"
            f"<div><span class='uu-zone-label'>Stable:</span>{cards_html(v['stables'][name])}</div>"
            f"<div><span class='uu-zone-label'>Hand:</span>{hand_html}</div></div>")

    discard = v["discard"]
    nursery = v["nursery"]
    parts.append(
        "<div class='uu-common'>"
        f"<div class='uu-deck'><span class='uu-zone-label'>Deck:</span>{plural(v['deck_size'], 'card')} "
        f"{card_back_html('the deck') if v['deck_size'] else ''}</div>"
        f"<details class='uu-discard'><summary><span class='uu-zone-label'>Discard pile:</span>"
        f"{plural(len(discard), 'card')} (click to browse, top first)</summary>"
        f"{cards_html(reversed(discard), 'no cards')}</details>"
        f"<details class='uu-nursery'><summary><span class='uu-zone-label'>Nursery:</span>"
        f"{plural(len(nursery), 'Baby', 'Babies')}</summary>{cards_html(nursery, 'no Babies')}</details>"
        "</div>")

    pile = v["pile"]
    if pile:
        items = "".join(f"<li>{card_html(card)} played by <b>{esc(who)}</b>"
                        f"{' (top: the next response answers it)' if i == len(pile) - 1 else ''}</li>"
                        for i, (card, who) in enumerate(pile))
        parts.append(f"<div class='uu-pile'><span class='uu-zone-label'>Neigh pile, bottom to top:</span>"
                     f"<ol>{items}</ol></div>")
    else:
        parts.append("<div class='uu-pile'><span class='uu-zone-label'>Neigh pile:</span><i>empty</i></div>")
    chain = game.chain
    if chain:
        items = "".join(f"<li>{cards_html(link, 'no effects')}</li>" for link in chain)
        parts.append(f"<div class='uu-chain'><span class='uu-zone-label'>Effect chain, waiting links:</span>"
                     f"<ol>{items}</ol></div>")
    parts.append("</div>")
    return "".join(parts)
