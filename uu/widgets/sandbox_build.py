"""The sandbox's build panel (`BuildPanel`, a part of `uu.widgets.sandbox.SandboxScreen`): players and names,
the card and zone pickers with Place / Remove / Move, whose turn, the engine options, where unplaced cards go,
and the position as it stands. A `uu.scenario.builder.PositionBuilder` underneath keeps every rule of a legal
position; a refused change is shown inline next to its control (keyed by the builder's field names,
`field_errors`), never as a traceback.

A mixin rather than a widget of its own: the screen's callbacks, `@safe` redraw and tests reach these controls
as attributes of the screen (`screen.place_button`, `screen.zone_input`), which stays so after the split.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

import ipywidgets as widgets

from uu.cards import catalog
from uu.cards.localized import card_name
from uu.cards.schema import CardType
from uu.engine.options import Options
from uu.engine.state import PHASES
from uu.i18n import _, ngettext
from uu.render import PHASE_LABELS, cards_html, esc
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.widgets.common import make_button, safe

__all__ = ["DEFAULT_NAMES", "FULL_WIDTH", "GROUPS", "HIDDEN", "SHOWN", "BuildPanel"]

# The full width of a panel for a text box: a widget's own margins come on top of a width of 100%, which pushed
# the paste and export boxes a few pixels past the panel's right edge
FULL_WIDTH = "calc(100% - 2 * var(--jp-widgets-margin))"
DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""
GROUPS = ("players", "name", "cards", "turn", "options", "rest", "load", "start")


def _group_of(field: str) -> str:
    head = field.split(".", 1)[0]
    if head in ("players", "name", "rest"):
        return head
    if head == "turn":
        return "turn"
    if head == "options":
        return "options"
    return "cards"  # stables.X, hands.X, deck, discard, nursery, zone, card



def _option_tip(key: str, description: str) -> str:
    """The option's meaning in a learner's words: the rule that documents it, else its description without ids."""
    from uu.words.rulewords import learner_rules, plain

    rules = learner_rules([f"option.{key.replace('_', '-')}"])
    return rules[0].text if rules else plain(description).removeprefix(": ")


class BuildPanel:
    """The build controls and callbacks of the sandbox screen (mixed into `SandboxScreen`)."""

    builder: PositionBuilder
    field_errors: dict[str, str]
    field_msgs: dict[str, widgets.HTML]
    load_message: str | None
    _syncing: bool
    build_panel: widgets.VBox
    # the share panel's and the screen's callbacks, wired to the controls built here
    on_upload: Callable[[Any], None]
    on_load: Callable[[Any], None]
    on_start: Callable[[Any], None]


    def _build_build_panel(self) -> None:
        n = len(self.builder.players)
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
        self.name_input = widgets.Text(value=self.builder.name, description=_("Position"),
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
            if get_origin(ann) is Literal:
                w = widgets.Dropdown(options=list(get_args(ann)), description=key)
            elif ann is bool:
                w = widgets.Checkbox(description=key, indent=False)
            elif ann is int:
                w = widgets.IntText(description=key)
            else:  # int | None (win_threshold): empty means "the rules' default"
                w = widgets.Text(description=key, placeholder=_("default"), continuous_update=False)
            w.layout.width = "20em"
            w.tooltip = _option_tip(key, f.description or key)
            w.style.description_width = "9em"
            w.add_class("uu-sb-option")
            w.add_class(f"uu-sb-option-{key.replace('_', '-')}")
            w.observe(lambda c, k=key: self.on_option(k, c), names="value")
            self.option_inputs[key] = w
        self.rest_input = widgets.Dropdown(
            options=[("shuffled into the deck, under the listed cards", "deck"), ("out of the game", "box")],
            description=_("Other cards"), layout=widgets.Layout(width="30em"), style={"description_width": "7em"})
        self.rest_input.add_class("uu-sb-rest")
        self.rest_input.observe(self.on_rest, names="value")

        self.upload = widgets.FileUpload(accept=".yaml,.yml,.txt", multiple=False, description=_("Open file"))
        self.upload.add_class("uu-sb-upload")
        self.upload.observe(self.on_upload, names="value")
        self.yaml_input = widgets.Textarea(placeholder=_("Paste a scenario (YAML) here, then press Load"),
                                           layout=widgets.Layout(width=FULL_WIDTH, height="10em"))
        self.yaml_input.add_class("uu-sb-yaml")
        self.load_button = make_button(_("Load"), "uu-sb-load", self.on_load,
                                       tooltip=_("Load the pasted scenario's position (its steps are not run)"))
        self.start_button = make_button(_("Play from here"), "uu-sb-start", self.on_start, style="success",
                                        tooltip=_("Make the position live and play on from it"))
        self.position_view = widgets.HTML()
        self.position_view.add_class("uu-sb-position")

        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.build_panel = widgets.VBox([
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
            widgets.HBox(list(self.option_inputs.values()), layout=row),
            self.field_msgs["options"],
            widgets.HBox([self.rest_input], layout=row), self.field_msgs["rest"],
            widgets.HTML("<h3>" + esc(_("Load a scenario")) + "</h3>"),
            widgets.HBox([self.upload, self.load_button], layout=row),
            self.yaml_input,
            self.field_msgs["load"],
            widgets.HTML("<h3>" + esc(_("The position")) + "</h3>"),
            self.position_view,
            self.field_msgs["start"],
            self.start_button,
        ])
        self.build_panel.add_class("uu-sandbox-build")

    def zone_options(self, with_positions: bool = True) -> list[tuple[str, str]]:
        out = []
        for i, p in enumerate(self.builder.players):
            out.append((_("{name}'s Stable").format(name=p), f"stable:{i}"))
            out.append((_("{name}'s hand").format(name=p), f"hand:{i}"))
        out += [(_("Deck: top"), "deck-top"), (_("Deck: bottom"), "deck-bottom")]
        if with_positions:
            out.append((_("Deck: at position…"), "deck-at"))
        out += [(_("Discard pile"), "discard"), (_("Nursery"), "nursery")]
        return out

    def _zone(self, key: Any, as_destination: bool) -> tuple[str, str | None, int | None]:
        """(zone, player, index) for a zone picker value (validated: a client can send anything)."""
        if not isinstance(key, str):
            raise BuilderError("zone", "choose a zone")
        m = re.fullmatch(r"(stable|hand):(\d+)", key)
        if m:
            seat = int(m.group(2))
            if seat >= len(self.builder.players):
                raise BuilderError("zone", "that seat is not in the game; choose another zone")
            return m.group(1), self.builder.players[seat], None
        if key == "deck-top":
            return "deck", None, 0 if as_destination else None
        if key == "deck-bottom":
            return "deck", None, None
        if key == "deck-at":
            return "deck", None, int(self.index_input.value) if as_destination else None
        if key in ("discard", "nursery"):
            return key, None, None
        raise BuilderError("zone", f"{key!r} is not a zone")


    def _builder_change(self, fn: Callable[[], Any], group: str | None = None) -> bool:
        """Run a builder change; a BuilderError becomes an inline message next to its control."""
        try:
            fn()
        except BuilderError as e:
            field = e.field if group is None or _group_of(e.field) == group else group
            self.field_errors = {field: e.message}
            return False
        self.field_errors = {}
        return True

    def _card(self) -> str:
        card = self.card_input.value
        if not isinstance(card, str) or card not in catalog():
            raise BuilderError("card", "choose a card from the list")
        return card

    @safe
    def on_place(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, index = self._zone(self.zone_input.value, as_destination=True)
            self.builder.place(self._card(), zone, player, index)
        self._builder_change(change)

    @safe
    def on_remove(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _index = self._zone(self.zone_input.value, as_destination=False)
            self.builder.remove(self._card(), zone, player)
        self._builder_change(change)

    @safe
    def on_move(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _index = self._zone(self.zone_input.value, as_destination=False)
            to_zone, to_player, index = self._zone(self.to_zone_input.value, as_destination=True)
            self.builder.move(self._card(), zone, to_zone, player, to_player, index)
        self._builder_change(change)

    @safe
    def on_clear(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _index = self._zone(self.zone_input.value, as_destination=False)
            self.builder.clear(zone, player)
        self._builder_change(change)

    def _on_players_count(self, _change: Any = None) -> None:
        n = self.players_count.value
        for i, t in enumerate(self.name_inputs):
            t.layout.display = SHOWN if i < n else HIDDEN

    @safe
    def on_players(self, _b: Any = None) -> None:
        n = self.players_count.value
        if not isinstance(n, int) or not 2 <= n <= 8:
            self.field_errors = {"players": "choose 2 to 8 players"}
            return
        names = [str(t.value) for t in self.name_inputs[:n]]
        if self._builder_change(lambda: self.builder.set_players(names), "players"):
            self._sync_build_widgets()

    @safe
    def on_name(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_name(str(self.name_input.value)), "name")

    @safe
    def on_turn(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_turn(
            player=self.turn_player_input.value, phase=self.turn_phase_input.value,
            number=self.turn_number_input.value), "turn")

    @safe
    def on_option(self, key: str, _change: Any = None) -> None:
        if self._syncing:
            return
        value = self.option_inputs[key].value
        if isinstance(self.option_inputs[key], widgets.Text):  # int | None
            text = str(value).strip()
            if not text:
                value = None
            else:
                try:
                    value = int(text)
                except ValueError:
                    self.field_errors = {f"options.{key}": f"{text!r}: a whole number, or empty for the default"}
                    return
        self._builder_change(lambda: self.builder.set_option(key, value), "options")

    @safe
    def on_rest(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_rest(self.rest_input.value), "rest")

    def _sync_build_widgets(self) -> None:
        """Set the build controls from the builder (without triggering their callbacks)."""
        b = self.builder
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
            zones = self.zone_options()
            for w, opts in ((self.zone_input, zones), (self.to_zone_input, zones)):
                old = w.value
                w.options = opts
                keys = [k for _, k in opts]
                w.value = old if old in keys else keys[0]
            if self.to_zone_input.value == self.zone_input.value and len(zones) > 1:
                self.to_zone_input.value = zones[1][1]
        finally:
            self._syncing = False

    def _sync_card_options(self) -> None:
        b = self.builder
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
        for field, msg in self.field_errors.items():
            g = "start" if field == "start" else _group_of(field)
            if g != group:
                continue
            name = "" if field == "start" else f"<span class='uu-field-name'>{esc(field)}</span>"
            parts.append(f"<div class='uu-field-error' role='alert' data-field='{esc(field)}'>{name}{esc(msg)}"
                         f"</div>")
        if group == "load" and self.load_message:
            parts.append(f"<div class='uu-field-error' role='alert' data-field='load'>{esc(self.load_message)}"
                         f"</div>")
        if group == "start" and not self.field_errors:
            for field, msg in self.builder.warnings():
                parts.append(f"<div class='uu-field-warning' data-field='{esc(field)}'>"
                             f"<span class='uu-field-name'>{esc(field)}</span>{esc(msg)}</div>")
        return "".join(parts)

    def _position_html(self) -> str:
        b = self.builder
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
