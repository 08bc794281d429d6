"""Pieces every screen shares: the error-safe callback wrapper, buttons with CSS classes, the error box, and
`ActionButtons`, the reused buttons that offer the learner's choices.

A screen is a `widgets.VBox` with an `error` attribute (None or the message shown), an `error_box`
(`widgets.HTML`) and a `refresh()` that redraws it from the Python state. `@safe` wraps every callback: an
exception is logged with its traceback (logger of the screen's module) and shown as one readable line; the
screen is redrawn either way, so the app is never left blank or half drawn.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle  # ipywidgets 8 exports it only from there

from uu.engine.errors import GameError
from uu.i18n import N_, _
from uu.render import STYLE, esc
from uu.widgets.widgetopen import hold_widget_open

__all__ = ["ActionButtons", "ScreenBase", "built_whole", "error_html", "make_button", "plain_html", "readable",
           "safe", "style_widget"]


_building: list[list[widgets.Widget]] = []  # one list per `built_whole` block in progress, innermost last


@contextmanager
def built_whole() -> Iterator[None]:
    """Widgets made inside the block are sent to the browser only when it ends, each in its final state.

    A widget is sent (a comm-open message with its whole state) the moment it is constructed, and every
    change after that is one more message: a screen built the usual way (construct, then add its CSS classes,
    labels, values) sent about as many updates as widgets (home: 79 widgets and 78 updates; play screen: 129
    and 110), each of which the server relays and the browser applies before it can draw. Inside this block
    `Widget.open` only notes the widget; at the end each is opened after the widgets its state refers to
    (children, layout, style), so its one comm-open message already holds the classes and values set
    meanwhile. Nothing is sent for a widget until then, which is what the block is for: build, then show.
    If the block fails, its widgets are never sent. Blocks nest (the outermost one opens)."""
    made: list[widgets.Widget] = []
    _building.append(made)
    if len(_building) == 1:
        hold_widget_open(_note_widget)
    try:
        yield
    except BaseException:
        _building.pop()
        if not _building:
            hold_widget_open(None)
        raise
    _building.pop()
    if _building:
        _building[-1].extend(made)  # the enclosing block opens them
        return
    hold_widget_open(None)
    for w in made:
        _open_after_references(w)


def _note_widget(self: widgets.Widget) -> None:
    _building[-1].append(self)


def _open_after_references(w: widgets.Widget) -> None:
    if w.comm is not None:
        return
    for name in w.keys:
        for ref in _widgets_in(getattr(w, name, None)):
            _open_after_references(ref)
    w.open()


def _widgets_in(value: object) -> Iterator[widgets.Widget]:
    if isinstance(value, widgets.Widget):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _widgets_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _widgets_in(v)


S = TypeVar("S", bound="ScreenBase")
P = ParamSpec("P")
R = TypeVar("R")


def error_html(message: str | None) -> str:
    return "" if not message else f"<div class='uu-error-box' role='alert'>{esc(message)}</div>"


def readable(e: Exception) -> str:
    kind = _("The game refused that") if isinstance(e, GameError) else _("Something went wrong")
    text = str(e)
    return _("{kind}: {problem}").format(kind=kind, problem=text) if text else f"{kind} ({type(e).__name__})."


def safe(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R | None]:
    """Run a screen callback; on any error, log it and show a readable message instead of a traceback (the
    callback then returns None)."""
    logger = logging.getLogger(method.__module__)

    @functools.wraps(method)
    def wrapper(self: S, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            self._set_error(None)
            return method(self, *args, **kwargs)
        except Exception as e:  # shown to the user, logged with the traceback
            logger.exception("error in %s", method.__name__)
            self._set_error(readable(e))
            return None
        finally:
            try:
                self.refresh()
            except Exception:  # a broken render must not hide the message above
                logger.exception("error while redrawing after %s", method.__name__)
                if not self.error:
                    self._set_error(_("Something went wrong while drawing this screen."))

    return wrapper


def _kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the IPython kernel this runs in, when it handles a message now (elsewhere None: a test
    thread may have an event loop of its own running, which no kernel message ends)."""
    try:
        from ipykernel.kernelbase import Kernel
    except ImportError:
        return None
    if not Kernel.initialized():
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class AfterMessage:
    """`fn`, called once when the kernel is done with the message it is handling, however often this is called
    meanwhile; at once where no event loop runs (a test, a script). A move's table reaches the page before the
    work the move also causes, such as writing the learner's progress (uu.widgets.tutor_app)."""

    def __init__(self, fn: Callable[[], object]):
        self.fn = fn
        self.pending = False

    def __call__(self, _change: object = None) -> None:
        loop = _kernel_loop()
        if loop is None:
            self._run()
            return
        if not self.pending:
            self.pending = True
            loop.call_soon(self._run)

    def _run(self) -> None:
        self.pending = False
        try:
            self.fn()
        except Exception:  # the page must never show a traceback; the log keeps it
            logging.getLogger(__name__).exception("error in %r", self.fn)


def _refuse_change(change: dict[str, Any]) -> None:
    owner, name = change["owner"], change["name"]
    owner.unobserve(_refuse_change, names=name)
    try:
        setattr(owner, name, change["old"])  # every widget sharing it keeps its look
    finally:
        owner.observe(_refuse_change, names=name)
    raise RuntimeError(f"a shared {type(owner).__name__} is never changed ({name}): give the widget its own")


@functools.cache
def _shared(kind: type[widgets.Widget]) -> widgets.Widget:
    """One default `kind` (a Layout or a style) for every widget that never changes its own: each widget would
    otherwise bring two more models to open, send and draw (on the home, 40 of its 64 models were layouts
    and styles). Made in the kernel on first use; a change to it raises instead of changing every widget."""
    shared = kind()
    shared.observe(_refuse_change, names=[k for k in shared.keys if not k.startswith("_")])  # what it draws
    return shared


def plain_html(value: str = "", css: str | None = None) -> widgets.HTML:
    """An HTML widget whose layout and style stay the defaults (shared: `_shared`); its value may change."""
    w = widgets.HTML(value, layout=_shared(widgets.Layout), style=_shared(HTMLStyle))
    if css:
        w.add_class(css)
    return w


def make_button(text: str, css: str | tuple[str, ...], handler: Callable[[widgets.Button], object] | None = None,
                style: str = "", tooltip: str | None = None, width: str | None = None) -> widgets.Button:
    # its own layout (screens show and hide buttons through it), the shared default style (none changes it)
    b = widgets.Button(description=text, button_style=style, tooltip=tooltip if tooltip is not None else text,
                       style=_shared(widgets.ButtonStyle))
    for c in (css,) if isinstance(css, str) else css:
        b.add_class(c)
    if width:
        b.layout.width = width
    if handler is not None:
        b.on_click(handler)
    return b


@functools.cache
def _screen_css() -> str:
    return (Path(__file__).with_name("screen.css")).read_text(encoding="utf-8")


def style_widget() -> widgets.HTML:
    """The stylesheet (one `<style>` element; it applies to the whole page): the app's and the game
    screens' layout (screen.css)."""
    return plain_html(STYLE + f"<style>{_screen_css()}</style>", "uu-style")


class ScreenBase(widgets.VBox):
    """An app screen: error box, `error` attribute, `refresh()`. Subclasses build their children."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-root")
        self.add_class("uu-screen")
        self.error: str | None = None
        self.error_box = plain_html(css="uu-error")

    def _set_error(self, message: str | None) -> None:
        self.error = message
        self.error_box.value = error_html(message)

    def refresh(self) -> None:  # pragma: no cover - overridden
        pass


STALE_CHOICE = N_("That choice is no longer on offer (the screen had not caught up with your previous click yet). "
                  "Nothing was changed: pick again from the buttons shown now.")


class _Bank:
    """Buttons that show one set of choices at a time. `gen` is the number of the set shown (None: free);
    `slot` maps a button's index in `buttons` to the index of the choice it offers in that set."""

    def __init__(self) -> None:
        self.buttons: list[widgets.Button] = []
        self.gen: int | None = None
        self.slot: dict[int, int] = {}


class ActionButtons:
    """The learner's choices as buttons, reused from click to click instead of created anew.

    Creating a widget costs a comm-open message per model (button, layout, style), and the browser builds
    each model and view before it handles the messages behind them (the board); a redraw that offered 25
    moves used to open 75 models, which were never closed. Here the buttons live in banks and are only
    relabelled: `show(items)` with `(label, choice)` pairs takes, in a bank, a button that already carries
    each label where there is one (nothing to send) and relabels others (one message each, sent while they
    are off the page), then puts exactly those buttons in the box, in the order of `items` (one message). A
    spare button is not a child of the box, so it is not in the page at all: it cannot be seen or clicked
    there, and a `.uu-action` selector only finds choices on offer.

    Stale clicks. A click message says which button, never what it showed, so a button must not offer a new
    choice while a click on its old one may still be on the way. Every new set of choices therefore goes to
    another bank than the set before; the box then holds the new bank instead of the old one (one message, so
    the browser never shows both). A click counts only on the bank shown now; any other is refused with
    `on_stale()` and changes nothing. A retired bank is reused only once a click on a bank shown after it has
    arrived: the browser sent that click after it drew the newer bank, hence after it dropped the older one,
    so no click on the older one can still come. Normal play needs two banks; at most `max_banks` are made
    (past that the oldest retired one is reused). Two banks of `reserve` buttons are made with the screen, and
    a bank grows `chunk` buttons at a time, so that creating widgets during a click is rare.
    """

    def __init__(self, box: widgets.Box, on_choice: Callable[[Any], object], on_stale: Callable[[], object],
                 css: str = "uu-action", prefix: tuple[widgets.Widget, ...] = (), max_banks: int = 4,
                 reserve: int = 16, chunk: int = 8):
        self.box = box
        self.on_choice = on_choice
        self.on_stale = on_stale
        self.css = css
        self.prefix = tuple(prefix)
        self.max_banks = max(2, max_banks)
        self.chunk = max(1, chunk)
        # one layout and one style for every button: each button would otherwise bring two more models, sent
        # to the browser before it can draw the screen (the play screen opened 255 models, 128 of them these);
        # the style is every button's default one (`_shared`)
        self._layout = widgets.Layout(width="auto", max_width="100%")
        self.banks: list[_Bank] = [_Bank(), _Bank()]
        self.current: _Bank | None = None
        self.items: list[tuple[str, Any]] = []
        self._gen = 0
        for bank in self.banks:
            self._add(bank, reserve)
        self.box.children = self.prefix

    @property
    def shown(self) -> list[tuple[widgets.Button, Any]]:
        """(button, choice) for every choice on offer now, in order."""
        bank = self.current
        if bank is None:
            return []
        by_item = sorted((i, j) for j, i in bank.slot.items())
        return [(bank.buttons[j], self.items[i][1]) for i, j in by_item]

    @property
    def buttons(self) -> list[widgets.Button]:
        """Every button made so far, on offer or spare."""
        return [b for bank in self.banks for b in bank.buttons]

    def show(self, items: list[tuple[str, Any]]) -> None:
        """Offer `items` ((label, choice) pairs). The same items as now: nothing is sent."""
        items = list(items)
        if items == self.items and (self.current is not None or not items):
            return
        self.current = None
        self.items = []
        if not items:
            self.box.children = self.prefix
            return
        bank = self._free_bank()
        self._gen += 1
        bank.gen = self._gen
        self._add(bank, -(-len(items) // self.chunk) * self.chunk)
        # a button that already shows the label keeps it (nothing sent); the others are relabelled
        free: dict[str, list[int]] = {}
        for j, b in enumerate(bank.buttons):
            free.setdefault(b.description, []).append(j)
        order: list[int | None] = [free[text].pop(0) if free.get(text) else None for text, _c in items]
        spare = sorted(set(range(len(bank.buttons))) - {j for j in order if j is not None})
        for i, (text, _choice) in enumerate(items):
            if order[i] is None:
                j = spare.pop(0)
                order[i] = j
                b = bank.buttons[j]
                with b.hold_sync():  # off the page until the box takes it below
                    b.description = text
                    b.tooltip = text
        slots = [j for j in order if j is not None]
        bank.slot = {j: i for i, j in enumerate(slots)}
        self.current = bank
        self.items = items
        self.box.children = self.prefix + tuple(bank.buttons[j] for j in slots)

    def _free_bank(self) -> _Bank:
        for bank in self.banks:
            if bank.gen is None:
                return bank
        if len(self.banks) < self.max_banks:
            self.banks.append(_Bank())
            return self.banks[-1]
        return min(self.banks, key=lambda bank: bank.gen or 0)  # the oldest retired one

    def _add(self, bank: _Bank, n: int) -> None:
        """Spare buttons until `bank` has `n`."""
        while len(bank.buttons) < n:
            b = widgets.Button(description="", tooltip="", layout=self._layout, style=_shared(widgets.ButtonStyle))
            b.add_class(self.css)
            b.on_click(lambda _b, bank=bank, j=len(bank.buttons): self._clicked(bank, j))
            bank.buttons.append(b)

    def _clicked(self, bank: _Bank, j: int) -> None:
        if bank is not self.current or j not in bank.slot:
            self.on_stale()
            return
        for other in self.banks:  # the browser has drawn this bank, so it has dropped every older one
            if other is not bank and other.gen is not None and other.gen < (bank.gen or 0):
                other.gen = None
        self.on_choice(self.items[bank.slot[j]][1])
