"""The sandbox's build panel (`BuildPanel`): players and names, the card and zone pickers with Place / Remove /
Move, whose turn, the engine options, where unplaced cards go, the position as it stands and "Play from here".
Every change goes to the session (`uu.tutor.sandbox_session.SandboxSession`), whose `PositionBuilder` keeps every rule
of a legal position; a refused change is shown inline next to its control (the session's `field_errors`, keyed
by the builder's field names), never as a traceback. The load controls (`uu.widgets.sandbox_share`) are given
to it as widgets to place, between the options and the position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args, get_origin

import ipywidgets as widgets

from uu.cards import catalog
from uu.cards.localized import card_name
from uu.cards.schema import CardType
from uu.engine.options import Options
from uu.engine.state import PHASES
from uu.i18n import N_, _, ngettext
from uu.render import PHASE_LABELS, cards_html, esc
from uu.tutor.sandbox_session import DEFAULT_NAMES, SandboxSession, field_group
from uu.widgets.common import make_button
from uu.widgets.sandbox_panel import HIDDEN, SHOWN, Changed, Panel, handler

__all__ = ["GROUPS", "BuildPanel"]

# the groups of controls with a message of their own (the load controls have theirs in the share panel)
GROUPS = ("players", "name", "cards", "turn", "options", "rest", "start")

# The engine's option names and values are ids (scenario files use them); the learner reads these words.
OPTION_LABELS = {"targeting": N_("Targets"), "deck_out": N_("Empty deck"), "baby_moves": N_("Babies"),
                 "return_is_leaving": N_("A card returned to a hand leaves the Stable"), "pandas": N_("Pandas"),
                 "open_hand_pull": N_("Taking from a face-up hand"), "seed": N_("Seed"),
                 "hand_limit": N_("Hand limit"), "win_threshold": N_("Unicorns to win"),
                 "neigh_ask": N_("Asked at a Neigh moment")}
VALUE_LABELS = {("targeting", "declare-first"): N_("choose targets when playing (Option 1)"),
                ("targeting", "neigh-first"): N_("choose targets on resolution (Option 2)"),
                ("deck_out", "end"): N_("the game ends"),
                ("deck_out", "reshuffle"): N_("the discard pile is shuffled into a new deck"),
                ("baby_moves", "allowed"): N_("may be stolen or moved between Stables"),
                ("baby_moves", "nursery-only"): N_("enter a Stable only from the Nursery"),
                ("pandas", "unicorn-effects"): N_("safe from effects on Unicorn cards"),
                ("pandas", "all-effects"): N_("safe from every effect"),
                ("open_hand_pull", "choose"): N_("the taker chooses the card"),
                ("open_hand_pull", "random"): N_("the card is taken at random"),
                ("neigh_ask", "holders"): N_("only players holding an Instant"),
                ("neigh_ask", "everyone"): N_("every player (with no Instant: pass only)")}
REST_LABELS = (("deck", N_("shuffled into the deck, under the listed cards")), ("box", N_("out of the game")))


def _option_tip(key: str, description: str) -> str:
    """The option's meaning in a learner's words: the rule that documents it, else its description without ids."""
    from uu.words.rulewords import learner_rules, plain

    rules = learner_rules([f"option.{key.replace('_', '-')}"])
    return rules[0].text if rules else plain(description).removeprefix(": ")


class BuildPanel(Panel):
    """The build controls (`box`, CSS class uu-sandbox-build); `loader`: the load controls, placed in it."""

    def __init__(self, session: SandboxSession, changed: Changed, loader: Sequence[widgets.Widget] = ()):
        super().__init__(session, changed)
        self._syncing = False
        self._synced_serial: int | None = None  # the session's builder_serial the controls were set from
        self.field_msgs: dict[str, widgets.HTML] = {}
        for g in GROUPS:
            w = widgets.HTML()
            w.add_class("uu-field-msg")
            w.add_class(f"uu-msg-{g}")
            self.field_msgs[g] = w
        n = len(session.builder.players)
        self.players_count = widgets.Dropdown(options=list(range(2, 9)), value=n, description=_("Players"),
                                              layout=widgets.Layout(width="10em"))
        self.players_count.add_class("uu-sb-players-count")
        self.name_inputs: list[widgets.Text] = []
        for i in range(8):
            t = widgets.Text(value=DEFAULT_NAMES[i], placeholder=f"seat {i + 1}",
                             layout=widgets.Layout(width="9em"))
            t.add_class("uu-sb-player-name")
            t.add_class(f"uu-sb-player-name-{i}")
            self.name_inputs.append(t)
        self.players_count.observe(self._on_players_count, names="value")
        self.players_apply = make_button(_("Set players"), "uu-sb-players-apply", self.on_players,
                                         tooltip=_("Rename, add or drop seats (seat order is clockwise)"))
        self.name_input = widgets.Text(value=session.builder.name, description=_("Position"),
                                       continuous_update=False, layout=widgets.Layout(width="26em"))
        self.name_input.add_class("uu-sb-name")
        self.name_input.observe(self.on_name, names="value")

        self.card_input = widgets.Dropdown(description=_("Card"), layout=widgets.Layout(width="30em"))
        self.card_input.add_class("uu-sb-card")
        self.card_view = widgets.HTML()
        self.card_view.add_class("uu-sb-card-view")
        self.card_input.observe(lambda _c: self._show_card(), names="value")
        self.zone_input = widgets.Dropdown(description=_("Zone"), layout=widgets.Layout(width="20em"))
        self.zone_input.add_class("uu-sb-zone")
        self.index_input = widgets.BoundedIntText(value=0, min=0, max=999, description=_("Deck pos."),
                                                  tooltip=_("0 = the top of the deck"),
                                                  layout=widgets.Layout(width="11em"))
        self.index_input.add_class("uu-sb-index")
        self.to_zone_input = widgets.Dropdown(description=_("Move to"), layout=widgets.Layout(width="20em"))
        self.to_zone_input.add_class("uu-sb-to-zone")
        self.place_button = make_button(_("Place"), "uu-sb-place", self.on_place, style="primary",
                                        tooltip=_("Put a copy of the card into the zone"))
        self.remove_button = make_button(_("Remove"), "uu-sb-remove", self.on_remove,
                                         tooltip=_("Take one copy of the card out of the zone"))
        self.move_button = make_button(_("Move"), "uu-sb-move", self.on_move,
                                       tooltip=_("Move one copy of the card from the zone to 'Move to'"))
        self.clear_button = make_button(_("Empty zone"), "uu-sb-clear", self.on_clear,
                                        tooltip=_("Take every card out of the zone"))

        self.turn_player_input = widgets.Dropdown(description=_("Turn of"), layout=widgets.Layout(width="16em"))
        self.turn_player_input.add_class("uu-sb-turn-player")
        self.turn_phase_input = widgets.Dropdown(options=[(_(PHASE_LABELS[p]), p) for p in PHASES],
                                                 description=_("Phase"), layout=widgets.Layout(width="18em"))
        self.turn_phase_input.add_class("uu-sb-turn-phase")
        self.turn_number_input = widgets.BoundedIntText(value=1, min=1, max=10_000, description=_("Turn no."),
                                                        layout=widgets.Layout(width="10em"))
        self.turn_number_input.add_class("uu-sb-turn-number")
        for w in (self.turn_player_input, self.turn_phase_input, self.turn_number_input):
            w.observe(self.on_turn, names="value")

        self.option_inputs: dict[str, widgets.Widget] = {}
        for key, f in Options.model_fields.items():
            ann = f.annotation
            label = _(OPTION_LABELS[key]) if key in OPTION_LABELS else key
            if get_origin(ann) is Literal:
                w = widgets.Dropdown(options=[(_(VALUE_LABELS[key, v]) if (key, v) in VALUE_LABELS else str(v), v)
                                              for v in get_args(ann)], description=label)
            elif ann is bool:
                w = widgets.Checkbox(description=label, indent=False)
            elif ann is int:
                w = widgets.IntText(description=label)
            else:  # int | None (win_threshold): empty means "the rules' default"
                w = widgets.Text(description=label, placeholder=_("default"), continuous_update=False)
            # sized to its words (screen.css, uu-sb-wide-choice): a translated label or choice is never cut off
            w.layout.width = "auto"
            w.tooltip = _option_tip(key, f.description or key)
            w.style.description_width = "initial"
            w.add_class("uu-sb-wide-choice")
            w.add_class("uu-sb-option")
            w.add_class(f"uu-sb-option-{key.replace('_', '-')}")
            w.observe(lambda c, k=key: self.on_option(k, c), names="value")
            self.option_inputs[key] = w
        self.rest_input = widgets.Dropdown(
            options=[(_(label), value) for value, label in REST_LABELS],
            description=_("Other cards"), layout=widgets.Layout(width="auto"),
            style={"description_width": "initial"})
        self.rest_input.add_class("uu-sb-wide-choice")
        self.rest_input.add_class("uu-sb-rest")
        self.rest_input.observe(self.on_rest, names="value")

        self.start_button = make_button(_("Play from here"), "uu-sb-start", self.on_start, style="success",
                                        tooltip=_("Make the position live and play on from it"))
        self.position_view = widgets.HTML()
        self.position_view.add_class("uu-sb-position")

        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        options = widgets.Box(list(self.option_inputs.values()))
        options.add_class("uu-sb-options")  # a form of label and choice lines (screen.css)
        self.box = widgets.VBox([
            widgets.HTML("<h3>" + esc(_("1. Players")) + "</h3>"),
            widgets.HBox([self.players_count, *self.name_inputs, self.players_apply], layout=row),
            self.field_msgs["players"],
            widgets.HBox([self.name_input], layout=row), self.field_msgs["name"],
            widgets.HTML("<h3>" + esc(_("2. Cards")) + "</h3><p class='uu-why'>"
                         + esc(_("Pick a card and a zone, then Place, Remove or Move. Babies live in Stables and "
                                 "the Nursery; the deck's position 0 is its top.")) + "</p>"),
            widgets.HBox([self.card_input, self.zone_input, self.index_input], layout=row),
            widgets.HBox([self.place_button, self.remove_button, self.clear_button, self.to_zone_input,
                          self.move_button], layout=row),
            self.field_msgs["cards"],
            self.card_view,
            widgets.HTML("<h3>" + esc(_("3. Whose turn")) + "</h3>"),
            widgets.HBox([self.turn_player_input, self.turn_phase_input, self.turn_number_input], layout=row),
            self.field_msgs["turn"],
            widgets.HTML("<h3>" + esc(_("4. Options")) + "</h3>"),
            options,
            self.field_msgs["options"],
            widgets.HBox([self.rest_input], layout=row), self.field_msgs["rest"],
            *loader,
            widgets.HTML("<h3>" + esc(_("The position")) + "</h3>"),
            self.position_view,
            self.field_msgs["start"],
            self.start_button,
        ])
        self.box.add_class("uu-sandbox-build")

    # ---- callbacks: each change goes to the session ---------------------------------------------------------
    @handler
    def on_place(self, _b: object = None) -> None:
        self.session.place(self.card_input.value, self.zone_input.value, self.index_input.value)

    @handler
    def on_remove(self, _b: object = None) -> None:
        self.session.remove(self.card_input.value, self.zone_input.value)

    @handler
    def on_move(self, _b: object = None) -> None:
        self.session.move(self.card_input.value, self.zone_input.value, self.to_zone_input.value,
                          self.index_input.value)

    @handler
    def on_clear(self, _b: object = None) -> None:
        self.session.clear(self.zone_input.value)

    def _on_players_count(self, _change: object = None) -> None:
        n = self.players_count.value
        for i, t in enumerate(self.name_inputs):
            t.layout.display = SHOWN if i < n else HIDDEN

    @handler
    def on_players(self, _b: object = None) -> None:
        self.session.set_players(self.players_count.value, [str(t.value) for t in self.name_inputs])

    @handler
    def on_name(self, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_name(self.name_input.value)

    @handler
    def on_turn(self, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_turn(self.turn_player_input.value, self.turn_phase_input.value,
                                  self.turn_number_input.value)

    @handler
    def on_option(self, key: str, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_option(key, self.option_inputs[key].value)

    @handler
    def on_rest(self, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_rest(self.rest_input.value)

    @handler
    def on_start(self, _b: object = None) -> None:
        self.session.start()

    # ---- drawing --------------------------------------------------------------------------------------------
    def refresh(self, building: bool) -> None:
        """Redraw from the session: the messages always; the card picker and the position while building."""
        if self._synced_serial != self.session.builder_serial:
            self._sync_widgets()
        for g in GROUPS:
            self.field_msgs[g].value = self._msg_html(g)
        if building:
            self._sync_card_options()
            self.position_view.value = self._position_html()

    def _sync_widgets(self) -> None:
        """Set the controls from the builder (without triggering their callbacks)."""
        b = self.session.builder
        self._syncing = True
        try:
            n = len(b.players)
            self.players_count.value = n
            for i, t in enumerate(self.name_inputs):
                if i < n:
                    t.value = b.players[i]
                elif t.value in b.players or not t.value.strip():
                    t.value = next(x for x in DEFAULT_NAMES + [f"Player {i + 1}"] if x not in b.players)
            self._on_players_count()
            self.name_input.value = b.name
            self.turn_player_input.options = list(b.players)
            self.turn_player_input.value = b.turn.get("player") if b.turn.get("player") in b.players \
                else b.players[0]
            self.turn_phase_input.value = b.turn.get("phase") if b.turn.get("phase") in PHASES else "action"
            self.turn_number_input.value = int(b.turn.get("number") or 1)
            defaults = Options()
            for key, w in self.option_inputs.items():
                v = b.options.get(key, getattr(defaults, key))
                if isinstance(w, widgets.Text):
                    w.value = "" if v is None else str(v)
                else:
                    w.value = v
            self.rest_input.value = b.rest
            zones = self.session.where_choices()
            for w, opts in ((self.zone_input, zones), (self.to_zone_input, zones)):
                old = w.value
                w.options = opts
                keys = [k for _, k in opts]
                w.value = old if old in keys else keys[0]
            if self.to_zone_input.value == self.zone_input.value and len(zones) > 1:
                self.to_zone_input.value = zones[1][1]
        finally:
            self._syncing = False
        self._synced_serial = self.session.builder_serial

    def _sync_card_options(self) -> None:
        b = self.session.builder
        old = self.card_input.value
        opts = []
        for d in catalog():
            left = b.available(d.name)
            # " · " rather than parentheses: many names end in one already ("Baby Unicorn (Red)")
            if d.type is CardType.BABY:
                n = b.nursery.count(d.name)
                where = _("in the Nursery") if n == 1 else _("{count} in the Nursery").format(count=n)
                label = f"{card_name(d.name)} · {where}"
            else:
                label = f"{card_name(d.name)} · " + _("{left} of {copies} left").format(left=left, copies=d.copies)
            opts.append((label, d.name))
        self._syncing = True
        try:
            if list(self.card_input.options) != opts:
                self.card_input.options = opts
            names = [v for _, v in opts]
            self.card_input.value = old if old in names else names[0]
        finally:
            self._syncing = False
        self._show_card()

    def _show_card(self) -> None:
        card = self.card_input.value
        self.card_view.value = "" if not isinstance(card, str) or card not in catalog() else \
            "<div class='uu-why'>" + esc(_("Selected:")) + f"</div>{cards_html([card])}"

    def _msg_html(self, group: str) -> str:
        parts = []
        errors = self.session.field_errors
        for field, msg in errors.items():
            g = "start" if field == "start" else field_group(field)
            if g != group:
                continue
            name = "" if field == "start" else f"<span class='uu-field-name'>{esc(field)}</span>"
            parts.append(f"<div class='uu-field-error' role='alert' data-field='{esc(field)}'>{name}{esc(msg)}"
                         f"</div>")
        if group == "start" and not errors:
            for field, msg in self.session.builder.warnings():
                parts.append(f"<div class='uu-field-warning' data-field='{esc(field)}'>"
                             f"<span class='uu-field-name'>{esc(field)}</span>{esc(msg)}</div>")
        return "".join(parts)

    def _position_html(self) -> str:
        b = self.session.builder
        t = b.turn
        phase = _(PHASE_LABELS.get(str(t.get("phase")), str(t.get("phase"))))
        rows = [f"<div><b>{esc(b.name)}</b> · " + esc(_("turn {number}, {name}: {phase}")).format(
            number=esc(t.get("number")), name=f"<b>{esc(t.get('player'))}</b>", phase=esc(phase)) + "</div>"]
        stable_w, hand_w, deck_w = esc(_("Stable:")), esc(_("Hand:")), esc(_("Deck, top first:"))
        for p in b.players:
            cur = " uu-current" if p == t.get("player") else ""
            rows.append(f"<div class='uu-seat{cur}'><div class='uu-player-head'><b>{esc(p)}</b></div>"
                        f"<div><span class='uu-zone-label'>{stable_w}</span>{cards_html(b.stables[p])}</div>"
                        f"<div><span class='uu-zone-label'>{hand_w}</span>{cards_html(b.hands[p])}</div></div>")
        rest = (_("the other cards are shuffled under them") if b.rest == "deck"
                else _("the other cards are out of the game"))
        none_listed = _("no cards listed")
        rows.append(f"<div><span class='uu-zone-label'>{deck_w}</span>"
                    f"{cards_html(b.deck, none_listed)} <i>({esc(rest)})</i></div>")
        rows.append("<div><span class='uu-zone-label'>" + esc(_("Discard pile:")) + f"</span>{cards_html(b.discard)}</div>")
        babies = ngettext("{n} Baby", "{n} Babies", len(b.nursery)).format(n=len(b.nursery))
        rows.append("<details class='uu-nursery'><summary><span class='uu-zone-label'>" + esc(_("Nursery:"))
                    + f"</span>{esc(babies)}</summary>{cards_html(b.nursery)}</details>")
        return "<div class='uu-table'>" + "".join(rows) + "</div>"
