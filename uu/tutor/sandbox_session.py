"""`SandboxSession`: what the what-if sandbox *is*, in plain Python (no widgets): the position being built, the
game tree played on from it, who plays each seat, and what the sandbox has to say about the last thing done.

    s = SandboxSession(["Ana", "Ben"])               # building: a `PositionBuilder` underneath
    s.place("Rhinocorn", "hand:0")                   # True; a refused change is False, its message in field_errors
    s.load_yaml(text)                                # a pasted scenario (False: load_message has the line numbers)
    s.start()                                        # "Play from here": the built position goes live
    s.user_move(s.game.legal_actions[0])             # a move of a seat played by the user; bots answer (auto)
    s.undo(); s.redo(); s.jump(0)                    # the game tree (a `uu.tutor.timeline.Timeline`)
    s.ask_hint()                                     # the hint for the user's decision (s.hint_result)
    s.export()                                       # (scenario YAML, None) or (None, why it cannot be written)

**Building.** Every change goes through the builder, which keeps every rule of a legal position; one it refuses
leaves the builder as it was and is kept in `field_errors` (builder field name -> message), for the screen to
show next to the control it concerns. A place is named by a key (`where_choices()`): "stable:<seat>",
"hand:<seat>", "deck-top", "deck-bottom", "deck-at" (with an index), "discard", "nursery"; keys and cards are
validated here, since a browser can send anything. `builder_serial` grows whenever the builder is replaced or
its seats change: the controls that mirror the builder are set from it again then.

**Playing.** `start()` makes the built position the root of a `Timeline`, and `play` a `uu.session.Session`
over the tree's game: every move forward, the user's and the bots', goes through it (the tree keeps it as a
node) and is recorded there for the table to play back. Each seat is played by the user ("you") or a bot kind
("random", "heuristic", "hint"); at the start the seat that must decide is the user's and new seats are random
bots. With `auto` on, bots decide by themselves (the session's one loop) after every move until a user seat
must. Undo, redo and a jump move in the tree, not forward: the session is told (`moved_elsewhere`), so the
table is drawn afresh there. `moves_made` counts the moves made forward.

`message` is the last thing the sandbox says in play ((kind, text), kind "info", "other" or "illegal"),
`hint_result` the hint asked for at node `hint_node`, `export_text` / `export_error` what `export()` found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal, get_args

from uu.bots.hint import DEFAULT_DEALS, DEFAULT_SECONDS, HintResult
from uu.bots.roster import Bot, make_bot
from uu.cards import catalog
from uu.cards.schema import CardType
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.options import Options
from uu.i18n import _
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.scenario.export import NotExportable, export_position
from uu.scenario.load import ScenarioFileError
from uu.session import Session
from uu.tutor.timeline import Timeline
from uu.yamlfile import MAX_BYTES, YamlInputError, decode

__all__ = ["BOT_KINDS", "DEFAULT_NAMES", "MAX_UPLOAD", "Mode", "SandboxSession", "field_group"]

Mode = Literal["build", "play"]
DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
BOT_KINDS = ("you", "random", "heuristic", "hint")  # who may play a seat: the user, or a bot of the registry
MAX_UPLOAD = MAX_BYTES  # bytes of YAML a file upload or the paste box may hold (the loaders' own limit)

def field_group(field: str) -> str:
    """The group of controls a builder field belongs to (the screen shows its message there)."""
    head = field.split(".", 1)[0]
    if head in ("players", "name", "rest", "turn", "options"):
        return head
    return "cards"  # stables.X, hands.X, deck, discard, nursery, zone, card


class SandboxSession:
    def __init__(self, players: list[str] | None = None, seed: int = 0, auto: bool = True,
                 hint_seconds: float | None = DEFAULT_SECONDS, hint_deals: int = DEFAULT_DEALS):
        self.seed = seed
        self.hint_seconds = hint_seconds
        self.hint_deals = hint_deals
        self.auto = auto
        self.builder = PositionBuilder(list(players) if players else DEFAULT_NAMES[:3], _("What-if position"))
        if not players:  # like the start of a game: a Baby in every Stable
            babies = [d.name for d in catalog() if d.type is CardType.BABY]
            for p, baby in zip(self.builder.players, babies):
                self.builder.place(baby, "stable", p)
        self.builder_serial = 0
        self.mode: Mode = "build"
        self.timeline: Timeline | None = None
        self.play: Session | None = None  # the moves forward from the tree's current node (play mode)
        self.controllers: list[str] = []  # per seat: "you" or a bot kind
        self.bots: dict[tuple[int, str], Bot] = {}
        self.moves_made = 0
        self.field_errors: dict[str, str] = {}
        self.load_message: str | None = None
        self.message: tuple[str, str] | None = None
        self.hint_result: HintResult | None = None
        self.hint_node: int | None = None
        self.export_text: str | None = None
        self.export_error: str | None = None

    def take_state(self, old: SandboxSession) -> None:
        """Carry on from `old`: the same position being built, the same game tree and node, the same seats, bots
        and auto-play (the screen built anew in another language)."""
        self.builder = old.builder
        self.builder_serial += 1
        self.mode = old.mode
        self.timeline = old.timeline
        self.play = old.play
        self.controllers = list(old.controllers)
        self.bots = old.bots
        self.auto = old.auto
        self.export_text, self.export_error = old.export_text, old.export_error

    # ---- reading ---------------------------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The position at the tree's current node (play mode). Change it only through this session."""
        return None if self.timeline is None else self.timeline.game

    def user_seats(self) -> list[int]:
        return [i for i, c in enumerate(self.controllers) if c == "you"]

    def is_user(self, seat: int) -> bool:
        return 0 <= seat < len(self.controllers) and self.controllers[seat] == "you"

    def user_to_decide(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and self.is_user(g.pending.player)

    def bot_to_decide(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and not self.is_user(g.pending.player)

    def viewer(self, view: object = "auto") -> int | None:
        """The seat whose view is shown (None: everything) for a "View as" setting: "auto" (the user seat
        deciding, else the first user seat), "all", or "seat:<n>"."""
        g = self.game
        if g is None or view == "all":
            return None
        if isinstance(view, str) and view.startswith("seat:"):
            seat = int(view[5:])
            return seat if 0 <= seat < len(g.players) else None
        if self.user_to_decide():
            return g.pending.player  # type: ignore[union-attr]
        users = self.user_seats()
        return users[0] if users else None

    # ---- building --------------------------------------------------------------------------------------------
    def where_choices(self, with_positions: bool = True) -> list[tuple[str, str]]:
        """(label, key) of every place a card can be put or taken from, for the current seats."""
        out = []
        for i, p in enumerate(self.builder.players):
            out.append((_("{name}'s Stable").format(name=p), f"stable:{i}"))
            out.append((_("{name}'s hand").format(name=p), f"hand:{i}"))
        out += [(_("Deck: top"), "deck-top"), (_("Deck: bottom"), "deck-bottom")]
        if with_positions:
            out.append((_("Deck: at position…"), "deck-at"))
        out += [(_("Discard pile"), "discard"), (_("Nursery"), "nursery")]
        return out

    def _where(self, key: object, as_destination: bool, index: object = 0) -> tuple[str, str | None, int | None]:
        """(zone, player, index) for a place's key (validated: a client can send anything)."""
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
            if not as_destination:
                return "deck", None, None
            if isinstance(index, bool) or not isinstance(index, int) or index < 0:
                raise BuilderError("zone", "a deck position is a whole number, 0 for the top")
            return "deck", None, index
        if key in ("discard", "nursery"):
            return key, None, None
        raise BuilderError("zone", f"{key!r} is not a zone")

    @staticmethod
    def _card(card: object) -> str:
        if not isinstance(card, str) or card not in catalog():
            raise BuilderError("card", "choose a card from the list")
        return card

    def _change(self, fn: Callable[[], object], group: str | None = None) -> bool:
        """Run a builder change; a refusal becomes the one field error (under `group`'s field when given and
        the builder named a field of another group)."""
        try:
            fn()
        except BuilderError as e:
            field = e.field if group is None or field_group(e.field) == group else group
            self.field_errors = {field: e.message}
            return False
        self.field_errors = {}
        return True

    def place(self, card: object, where: object, index: object = 0) -> bool:
        """Put a copy of `card` at `where` (a key of `where_choices`; "deck-at" puts it at deck position
        `index`, 0 the top)."""
        def change() -> None:
            zone, player, at = self._where(where, True, index)
            self.builder.place(self._card(card), zone, player, at)
        return self._change(change)

    def remove(self, card: object, where: object) -> bool:
        def change() -> None:
            zone, player, _at = self._where(where, False)
            self.builder.remove(self._card(card), zone, player)
        return self._change(change)

    def move(self, card: object, where: object, to: object, index: object = 0) -> bool:
        def change() -> None:
            zone, player, _at = self._where(where, False)
            to_zone, to_player, at = self._where(to, True, index)
            self.builder.move(self._card(card), zone, to_zone, player, to_player, at)
        return self._change(change)

    def clear(self, where: object) -> bool:
        def change() -> None:
            zone, player, _at = self._where(where, False)
            self.builder.clear(zone, player)
        return self._change(change)

    def set_players(self, count: object, names: Sequence[str]) -> bool:
        """The first `count` of `names` become the seats (clockwise); cards of a dropped seat go back."""
        if not isinstance(count, int) or not 2 <= count <= 8:
            self.field_errors = {"players": "choose 2 to 8 players"}
            return False
        if self._change(lambda: self.builder.set_players([str(n) for n in names[:count]]), "players"):
            self.builder_serial += 1
            return True
        return False

    def set_name(self, name: object) -> bool:
        return self._change(lambda: self.builder.set_name(str(name)), "name")

    def set_turn(self, player: str | None, phase: str | None, number: int | None) -> bool:
        return self._change(lambda: self.builder.set_turn(player=player, phase=phase, number=number), "turn")

    def set_option(self, key: str, value: object) -> bool:
        """An engine option. A whole-number option that may be left to the rules' default (None) takes text:
        empty for the default."""
        field = Options.model_fields.get(key)
        if field is not None and isinstance(value, str) and int in get_args(field.annotation) \
                and type(None) in get_args(field.annotation):
            text = value.strip()
            if not text:
                value = None
            else:
                try:
                    value = int(text)
                except ValueError:
                    self.field_errors = {f"options.{key}": _("{text}: a whole number, or empty for the default").format(
                        text=repr(text))}
                    return False
        return self._change(lambda: self.builder.set_option(key, value), "options")

    def set_rest(self, rest: str) -> bool:
        return self._change(lambda: self.builder.set_rest(rest), "rest")

    def load_yaml(self, text: str, path: str | None = None) -> bool:
        """A scenario's position becomes the one being built; on an error `load_message` says what is wrong
        (with its line numbers) and nothing changes."""
        path = path or _("pasted YAML")
        if len(text.encode("utf-8", "replace")) > MAX_UPLOAD:
            self.load_message = f"{path}: " + _("the text is too long (at most {limit} kB)").format(
                limit=MAX_UPLOAD // 1024)
            return False
        try:
            b = PositionBuilder.from_yaml(text, path)
        except (ScenarioFileError, BuilderError) as e:
            self.load_message = str(e)
            return False
        self.builder = b
        self.builder_serial += 1
        self.field_errors = {}
        self.load_message = None
        self.mode = "build"
        self.timeline = self.play = None
        self.message = None
        return True

    def read_upload(self, name: str, data: bytes) -> str | None:
        """An uploaded file's text, or None with `load_message` saying why it is refused."""
        if len(data) > MAX_UPLOAD:
            self.load_message = f"{name}: " + _("the file is too large (at most {limit} kB)").format(
                limit=MAX_UPLOAD // 1024)
            return None
        try:
            return decode(data, name)
        except YamlInputError as e:
            self.load_message = str(e)
            return None

    def forget_load_message(self) -> None:
        self.load_message = None

    def edit(self) -> bool:
        """Back to building, from the position on the table."""
        g = self.game
        if g is None:
            return False
        try:
            b = PositionBuilder.from_game(g)
        except NotExportable as e:
            self.message = ("illegal", _("This position cannot be edited: {reason}").format(reason=e))
            return False
        self.builder = b
        self.builder_serial += 1
        self.mode = "build"
        self.field_errors = {}
        return True

    def back_to_building(self) -> None:
        """Back to the position as built (the game tree is dropped at the next start)."""
        self.mode = "build"
        self.builder_serial += 1
        self.field_errors = {}

    # ---- playing ---------------------------------------------------------------------------------------------
    def start(self) -> bool:
        """"Play from here": the built position goes live. When it is not a legal position yet, every problem
        is in `field_errors` and nothing starts."""
        errs = self.builder.errors()
        if errs:
            self.field_errors = {}
            for field, msg in errs:
                self.field_errors.setdefault(field, msg)
            self.field_errors.setdefault("start", _("fix the problems marked above, then press Play from here"))
            return False
        self._go_live(self.builder.build())
        return True

    def _go_live(self, game: Game) -> None:
        tl = self.timeline = Timeline(game)
        n = len(game.players)
        if len(self.controllers) != n:
            self.controllers = ["random"] * n
        if game.pending is not None:  # the decision you set up is yours; other seats keep their players
            self.controllers[game.pending.player] = "you"
        self.bots = {}
        # undo is the tree's here (any decision, any seat), not the session's
        self.play = Session(tl.game, undo=False, mover=tl.push)
        for seat in range(n):
            self._seat_player(seat)
        self.field_errors = {}
        self.message = None
        self.hint_result = None
        self.hint_node = None
        self.mode = "play"
        if self.auto:
            self.run_bots()

    def _seat_player(self, seat: int) -> None:
        """Tell the session who plays `seat`: the user, or the bot of its kind."""
        if self.play is not None:
            self.play.set_bot(seat, None if self.is_user(seat) else (lambda g, s: self.bot(s).choose(g)))

    def bot(self, seat: int) -> Bot:
        kind = self.controllers[seat]
        key = (seat, kind)
        if key not in self.bots:
            self.bots[key] = make_bot(kind, self.seed * 10 + seat)
        return self.bots[key]

    def push(self, action: Action) -> None:
        """Make a move at the current node (the engine judges it); bots then play on when auto is on."""
        if self.play is None:
            raise ValueError(_("there is no game yet: build a position and press Play from here"))
        self.play.push(action)
        self.moves_made += 1
        self.message = None
        if self.auto:
            self.run_bots()

    def user_move(self, action: Action) -> None:
        """A move of a seat the user plays (a click on the table): refused when a bot or nobody decides."""
        if not self.user_to_decide():
            raise ValueError(_("it is not a decision of one of your seats now"))
        self.push(action)

    def _play_bots(self, limit: int | None) -> int:
        if self.play is None:
            return 0
        made = self.play.run_bots() if limit is None else self.play.run_bots(limit)
        self.moves_made += made
        return made

    def run_bots(self) -> int:
        """Bots decide until a user seat must (or the game ends); how many decisions they made."""
        return self._play_bots(None)

    def bot_step(self) -> bool:
        """One decision of the bot that must decide ("Bot: next"); False (and a message) when none must."""
        if not self.bot_to_decide() or self._play_bots(1) != 1:
            self.message = ("info", _("No bot has a decision to make now."))
            return False
        self.message = None
        return True

    def set_controller(self, seat: int, kind: object) -> None:
        """Who plays `seat`: "you" or a bot kind; bots play on when auto is on."""
        if kind not in BOT_KINDS:
            raise ValueError(_("choose you or a bot for each seat"))
        self.controllers[seat] = kind
        self._seat_player(seat)
        if self.auto:
            self.run_bots()

    def set_auto(self, on: bool) -> None:
        self.auto = bool(on)
        if self.auto and self.timeline is not None:
            self.run_bots()

    def undo(self) -> None:
        """One decision back (with auto on: back to the last decision of a user seat)."""
        tl = self.timeline
        if tl is None or not tl.can_undo:
            self.message = ("other", _("Nothing to undo: this is the starting position."))
            return
        tl.undo()
        if self.auto:
            while self.bot_to_decide() and tl.can_undo:
                tl.undo()
        self._moved_in_tree()
        self.message = None

    def redo(self) -> None:
        tl = self.timeline
        if tl is None or not tl.can_redo:
            self.message = ("other", _("Nothing to redo from here."))
            return
        tl.redo()
        if self.auto:
            while self.bot_to_decide() and tl.can_redo:
                tl.redo()
        self._moved_in_tree()
        self.message = None

    def jump(self, node_id: int) -> None:
        if self.timeline is None:
            raise ValueError(_("there is no game yet"))
        self.timeline.jump(node_id)
        self._moved_in_tree()
        self.message = None

    def _moved_in_tree(self) -> None:
        if self.play is not None:
            self.play.moved_elsewhere()

    def ask_hint(self, progress: Callable[[int, int], None] | None = None) -> bool:
        """The hint for the user's decision at the current node (`hint_result`); `progress(done, total)`
        follows the simulated games. False, with a message, when no user seat decides."""
        g = self.game
        if g is None or not self.user_to_decide():
            self.message = ("other", _("A hint is for a decision of one of your seats."))
            return False
        self.hint_result = None
        assert self.play is not None and g.pending is not None
        self.hint_result = self.play.hint(g.pending.player, deals=self.hint_deals, seconds=self.hint_seconds,
                                          progress=progress)
        self.hint_node = self.timeline.current_id if self.timeline is not None else None
        return True

    def hint_here(self) -> HintResult | None:
        """The hint asked for at the current node, if any (a hint belongs to the position it was asked for)."""
        tl = self.timeline
        return self.hint_result if tl is not None and self.hint_node == tl.current_id else None

    def say(self, kind: str, text: str) -> None:
        """A message for the player ("info", "other", "illegal"), shown until the next move."""
        self.message = (kind, text)

    # ---- sharing ---------------------------------------------------------------------------------------------
    def export(self) -> tuple[str | None, str | None]:
        """(scenario YAML of the position on show, None), or (None, why it cannot be written); kept in
        `export_text` and `export_error`."""
        text: str | None = None
        error: str | None = None
        g = self.game
        if self.mode == "play" and g is not None:
            try:
                text = export_position(g)
            except NotExportable as e:
                error = str(e)
        else:
            try:
                text = self.builder.to_yaml()
            except BuilderError as e:
                error = f"cannot write this position yet: {e}"
        self.export_text, self.export_error = text, error
        return text, error
