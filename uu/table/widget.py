"""`TableWidget`: the table drawn in the browser by an ES module shipped with the package (anywidget, no
JavaScript build step), for Voila, JupyterLab and JupyterLite alike.

Python sends the viewer's observation and the legal actions with their gestures (`uu.table.seat_view`);
the browser sends back only `{"type": "choose", "id": i, "version": v}`. The id is checked against the
actions on show and the version against the table the click was made on (a bot may have moved since), so a
stale or forged message is ignored; only then is `on_choose(i)` called, and the caller hands the engine the
legal action with that index.

Besides the table itself: `replay` (the moves made since the table the browser drew last, which it plays
back one at a time: uu/table/replay.py), `banner` (a marked note on the table, such as a wrong move's
preview, with a button that calls `on_banner`), `hint` (action ids the hint lights: data-hinted="true"),
`prompt_here` (the table's own prompt line is the screen's prompt: data-role="prompt"). The browser may also
ask `{"type": "why", "key": k}` for a click on an element that is not lit (answered with one sentence,
`on_why`), and `{"type": "log", "from": i}` for the log lines it has not seen (a newcomer's table).
Everything the browser sends is checked here; nothing it sends can change the game but a legal choice. Every
choice it sends on the table on show is answered with a new version, even when the position is the same
(`rearm`): the browser lights nothing while it waits for one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import anywidget
import traitlets

from uu.cards.localized import name_breaks
from uu.engine.game import Game
from uu.i18n import N_, _, current_language, ngettext
from uu.table.messages import (
    ActionView,
    BannerMessage,
    CardView,
    ChainEffectView,
    ChooseMessage,
    LogLineView,
    LogRequest,
    MiddlePart,
    MovedCard,
    SeatsPart,
    StatePart,
    StepView,
    TableView,
    WhyMessage,
    parse_browser_message,
)
from uu.table.seat_view import card_facts, legal_actions, observe

__all__ = ["TableWidget"]

log = logging.getLogger(__name__)
HERE = Path(__file__).parent


# Every word the table draws (table.js holds none): key -> English message, translated when a table is made.
LABELS: dict[str, str] = {
    "phase.beginning": N_("Beginning"), "phase.draw": N_("Draw"), "phase.action": N_("Action"),
    "phase.end": N_("End"),
    "in_your.hand": N_("in your hand"), "in_your.stable": N_("in your Stable"),
    "in_their.hand": N_("in {name}'s hand"), "in_their.stable": N_("in {name}'s Stable"),
    "in_the.pile": N_("in the Neigh pile"), "in_the.discard": N_("in the discard pile"),
    "in_the.nursery": N_("in the Nursery"), "in_the.deck": N_("in the deck"), "in_the.limbo": N_("on the table"),
    "in_the.hand": N_("in a hand"), "in_the.stable": N_("in a Stable"), "in_the.box": N_("out of the game"),
    "pace.slow": N_("Others' moves: Slow"), "pace.normal": N_("Others' moves: Normal"),
    "pace.fast": N_("Others' moves: Fast"), "pace.off": N_("Others' moves: At once"),
    "pace_label": N_("How the other players' moves are shown"),
    "over": N_("Game over: {result}."), "no_winner": N_("no winner"),
    "others_moving": N_("The other players are moving…"), "sent": N_("Sent. Waiting for the table to update."),
    "your_move": N_("Your move: {prompt}"),
    "choose_lit": N_("Now choose one of the {count} lit cards or places (Escape cancels)."),
    "hidden_card": N_("Hidden card {where}"), "no_game": N_("No game on the table."), "back": N_("Back"),
    "turn_yours": N_("Turn {number}: your turn"), "turn_theirs": N_("Turn {number}: {name}'s turn"),
    "setup": N_("Setup: choosing Babies"), "phases": N_("Phases of the turn"), "cancel": N_("Cancel (Escape)"),
    "choices": N_("Choices"), "decline": N_("Decline:"), "moves_count": N_("List of moves ({count})"),
    "moves": N_("List of moves"), "no_rule": N_("No rule is cited: it reports a choice or a move."),
    "turn_n": N_("Turn {number}"), "setup_title": N_("Setup"),
    "log_aria": N_("What happened, the whole game, newest turn first"),
    "log_title": N_("What happened (newest turn first; open a line to see why)"),
    "you": N_("You"), "you_suffix": N_("{name} (you)"), "your_stable": N_("Your Stable"),
    "their_stable": N_("{name}'s Stable"), "their_turn": N_("It is their turn."),
    "count_line": N_("{unicorns} · {cards}"), "empty": N_("empty"), "your_hand": N_("Your hand"),
    "their_hand": N_("{name}'s hand"), "their_hand_open": N_("{name}'s hand (face up)"), "no_cards": N_("no cards"),
    "middle": N_("The middle of the table"), "deck_aria": N_("The deck, {cards}"), "deck": N_("Deck"),
    "all_cards": N_("All {cards}, top first"), "no_other_cards": N_("no other cards"), "discard": N_("Discard pile"),
    "no_babies": N_("no Babies"), "nursery": N_("Nursery"),
    "pile_pass": N_("Neigh pile: pass (do not answer the top card)"),
    "pile_play": N_("Neigh pile, {cards}: play a card onto it"), "pass": N_("Pass (let it resolve)"),
    "pile": N_("Neigh pile"), "pile_stack": N_("Neigh pile, bottom to top"), "played_by": N_("Played by {name}."),
    "played_by_top": N_("Played by {name} (top: waiting to resolve; the next answer is to this card)."),
    "chain_aria": N_("Effect chain, in the order it resolves"), "chain": N_("Effect chain"),
    "chain_card": N_("{card} ({name}'s)"), "resolving_now": N_("resolving now:"), "then": N_("then:"),
    "focus": N_("Resolving now"), "skip": N_("Skip to my move"), "a_move": N_("A move."),
    # shown by table.css (::before / ::after) through CSS variables
    "lit_help": N_("Lit cards and places can be chosen."),
    "badge_hint": N_("Hint"), "badge_whynot": N_("Why not?"), "badge_stable": N_("← choose this Stable"),
}
def _counted(n: int) -> dict[str, str]:
    """The counted words (each with {n}) in the form for `n`: plural messages of the catalogs."""
    return {"unicorns": ngettext("{n} Unicorn", "{n} Unicorns", n),
            "cards": ngettext("{n} card", "{n} cards", n),
            "cards_in_hand": ngettext("{n} card in hand", "{n} cards in hand", n),
            "babies": ngettext("{n} Baby", "{n} Babies", n)}


def table_labels() -> dict[str, str]:
    """The table's words in the language in use (sent once per table; a new language makes new screens)."""
    out = {k: _(v) for k, v in LABELS.items()}
    # both forms go to the browser, which picks one by the count (1 and 2 name the singular and the plural in
    # English, French and German)
    for key, text in _counted(1).items():
        out[f"{key}.one"] = text
    for key, text in _counted(2).items():
        out[f"{key}.other"] = text
    # French says "0 carte" (0 and 1 take the singular); English and German say "0 cards"
    out["plural.zero_one"] = "yes" if current_language() == "fr" else "no"
    out["lang"] = current_language()  # the table's lang attribute
    # where a card name's long word may break (uu/cards/i18n/<lang>.yaml `breaks`): table.js shows these
    for name, broken in name_breaks().items():
        out[f"break:{name}"] = broken
    return out


C = TypeVar("C", CardView, MovedCard)  # a card on the table, or one a step moved


def _lean_effect(effect: ChainEffectView, lean: Callable[[CardView], CardView]) -> ChainEffectView:
    """An effect of the chain as sent: its text only where it is not its card's own, its card lean."""
    out: ChainEffectView = {"card": lean(effect["card"]), "player": effect["player"], "seat": effect["seat"],
                            "kind": effect["kind"]}
    if "text" in effect and effect["text"] != effect["card"].get("text"):
        out["text"] = effect["text"]
    return out


class TableWidget(anywidget.AnyWidget):
    _esm = HERE / "table.js"
    _css = HERE / "table.css"

    # The observation goes to the browser in parts, and only the parts that changed are sent (a move in the
    # Action phase changes the seats and the log, seldom the middle): `seats` (viewer, players), `middle`
    # (deck size, discard pile, Nursery, Neigh pile, effect chain), `state` (turn, decision, over, result),
    # and `log_new`, the log lines written since the table before (a newcomer asks for the rest once).
    seats = traitlets.Dict().tag(sync=True)
    middle = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    log_new: traitlets.List[Any] = traitlets.List().tag(sync=True)
    log_size = traitlets.Int(0).tag(sync=True)
    actions: traitlets.List[Any] = traitlets.List().tag(sync=True)
    # Grows with every update: a choice made on an older table names an index of an older list.
    version = traitlets.Int(0).tag(sync=True)
    # the moves since the table of version `from` ({"from": v, "steps": [...]}): played back by a browser
    # that drew that table; a browser that did not (a reload) draws the new table at once
    replay = traitlets.Dict().tag(sync=True)
    # a note drawn on the table itself: {"kind": "preview", "title", "text", "button"} or {} for none
    banner = traitlets.Dict().tag(sync=True)
    # the hint's move(s): every element of these actions' gestures is marked data-hinted="true" with a badge
    hint: traitlets.List[int] = traitlets.List(traitlets.Int()).tag(sync=True)
    prompt_here = traitlets.Bool(True).tag(sync=True)
    # milliseconds each move of a playback stays on show, unless the learner chose a pace on the table
    # (kept in the browser); 0 draws the new table at once
    pace = traitlets.Int(900).tag(sync=True)
    # the table's words in the learner's language (table_labels); table.js shows no word of its own
    labels = traitlets.Dict().tag(sync=True)
    # every card's facts (FACT_KEYS: its name in the learner's language, type, icon, text) by English name,
    # sent once: a card on the table then travels as its id, key, name and place, and table.js adds the rest
    # (the observation's card dicts were two thirds facts; a click's update is about half as long this way)
    facts = traitlets.Dict().tag(sync=True)

    def __init__(self, game: Game | None = None, viewer: int = 0,
                 on_choose: Callable[[int], object] | None = None,
                 on_refused: Callable[[], object] | None = None, **kwargs: Any):
        kwargs.setdefault("labels", table_labels())
        kwargs.setdefault("facts", card_facts())
        super().__init__(**kwargs)
        self.on_banner: Callable[[], object] | None = None
        # (key, the card's name) -> one sentence: why that element cannot be chosen now
        self.on_why: Callable[[str, str], str] | None = None
        # the log lines a newcomer's table asks for: (from index) -> lines
        self.on_log: Callable[[int], list[LogLineView]] | None = None
        self.on_choose = on_choose
        # called when a click from the browser is refused (made on an older table): a screen says so in
        # plain words instead of leaving the learner wondering why nothing happened
        self.on_refused = on_refused
        self._observation: TableView | None = None
        self.on_msg(self._on_message)
        if game is not None:
            self.show(game, viewer)

    def show(self, game: Game, viewer: int | None) -> None:
        """Draw `game` as `viewer` sees it (None: everything, no moves), with the viewer's legal actions."""
        self.set_table(observe(game, viewer), legal_actions(game, viewer))

    def set_table(self, observation: TableView | None, actions: list[ActionView],
                  steps: list[StepView] | None = None) -> None:
        """Show a new table; `steps`: the moves that led to it from the table on show, to play back."""
        if observation == self._observation and actions == self.actions:
            # nothing new (a screen redrawn for a message or a setting): no message, and the version stays,
            # so a click the learner is making on this table still counts
            return
        with self.hold_sync():  # one message: the browser never draws an observation with the old actions
            self.replay = {"from": self.version, "steps": [
                {**st, "moved": [self._lean(m) for m in st.get("moved", ())]} for st in steps]} if steps else {}
            self.version += 1
            self._send_parts(observation)
            self.actions = actions
            if self.hint:
                self.hint = []  # a hint is about the table it was asked on

    @property
    def observation(self) -> TableView | None:
        """The whole observation on show (what the parts sent to the browser add up to; None: no game)."""
        return self._observation

    def _send_parts(self, obs: TableView | None) -> None:
        if obs is None:  # no game on the table
            self.seats, self.middle, self.state, self.log_new, self.log_size = {}, {}, {}, [], 0
            self._observation = None
            return
        log = obs["log"]  # newest first
        sent = self.log_size
        fresh = [line for line in log if line["index"] >= sent]
        if log and log[0]["index"] < sent - 1:
            fresh = log  # another game (fewer lines than before): its log anew
        lean = self._lean
        seats: SeatsPart = {"viewer": obs["viewer"], "players": [
            {**p, "hand": [lean(c) for c in p["hand"]], "stable": [lean(c) for c in p["stable"]]}
            for p in obs["players"]]}
        self.seats = dict(seats)
        middle: MiddlePart = {
            "deck_size": obs["deck_size"], "discard": [lean(c) for c in obs["discard"]],
            "nursery": [lean(c) for c in obs["nursery"]],
            "pile": [{**e, "card": lean(e["card"])} for e in obs["pile"]],
            # an effect's text is its card's unless it says otherwise
            "chain": [{**link, "effects": [_lean_effect(e, lean) for e in link["effects"]]} for link in obs["chain"]]}
        self.middle = dict(middle)
        state: StatePart = {"turn": obs["turn"], "decision": obs["decision"], "over": obs["over"],
                            "result": obs["result"]}
        self.state = dict(state)
        self.log_new = fresh
        self.log_size = (log[0]["index"] + 1) if log else 0
        self._observation = obs

    def _lean(self, card: C) -> C:
        """`card` as sent: without the facts table.js has under its name (a card whose facts differ, or one
        not in the catalog, goes whole). table.js's `full` puts them back: `{**facts[name or ""], **lean}`."""
        facts = self.facts.get(card.get("name") or "")
        if facts is None:
            return card
        for k, v in facts.items():  # a loop, not any(): this runs for every card of every update
            if card.get(k, v) != v:
                return card
        return cast(C, {k: v for k, v in card.items() if k not in facts})

    def choose(self, index: int, version: int | None = None) -> bool:
        """What a click in the browser does: call `on_choose(index)` if the index is one of the actions on
        show (and `version` is the table's, when given). Returns whether it was called."""
        if not self.offers(index, version):
            return False
        if self.on_choose is not None:
            self.on_choose(index)
        return True

    def offers(self, index: object, version: int | None = None) -> bool:
        """Is `index` one of the actions on show (on the table of `version`, when given)?"""
        if isinstance(index, bool) or not isinstance(index, int):
            return False
        if version is not None and version != self.version:
            return False
        return index in {a.get("id") for a in self.actions}

    def why(self, key: str, name: str = "") -> str:
        """What a click on the element `key`, not lit, is answered with (one sentence)."""
        if self.on_why is None:
            return "That cannot be chosen now: choose one of the lit cards or places."
        return self.on_why(key, name)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        message = parse_browser_message(content)  # None: not one of the four messages a table sends
        sent_before = self.version
        try:
            if isinstance(message, BannerMessage):
                if self.on_banner is not None and message.version == self.version:
                    self.on_banner()
            elif isinstance(message, WhyMessage):
                self.send({"type": "why", "key": message.key, "text": self.why(message.key, message.name)})
            elif isinstance(message, LogRequest):
                if self.on_log is not None:
                    self.send({"type": "log", "lines": self.on_log(message.start)})
            elif isinstance(message, ChooseMessage):
                # checked here and handed straight to the screen, not through `choose`: a click's path to the
                # engine stays short (docs/architecture.md, tests/test_click_path.py)
                if self.offers(message.id, message.version):
                    if self.on_choose is not None:
                        self.on_choose(message.id)
                elif self.on_refused is not None:
                    self.on_refused()
            elif isinstance(content, dict) and content.get("type") == "choose" and self.on_refused is not None:
                self.on_refused()  # a click naming no action on show: said as a stale one, nothing changes
        except Exception:  # the page must never show a traceback; the log keeps it
            log.exception("error while answering the table's message %r", content)
        if isinstance(content, dict) and content.get("type") == "choose" and \
                content.get("version") == sent_before == self.version:
            # the browser waits for a table after every click it sent on the table on show; the same position
            # again (a lesson's goal step started over, a refused or failed click) must still answer it, or
            # nothing is lit (a click on an older table: the newer one is on its way)
            self.rearm()

    def rearm(self) -> None:
        """Send the table on show again as a new one (a new version, nothing to play back): the browser draws
        it and lights its actions again, whatever it was waiting for."""
        with self.hold_sync():
            self.replay = {}
            self.version += 1
