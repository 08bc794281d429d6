"""`TogetherScreen` (uu/widgets/together.py), two learners' screens as two kernels would hold them, each a client
of its seat on a real tables server: one makes a table (its link carries ?table=CODE), the other joins by the
code, only the maker may start; the game is played to its end by clicks on each screen's table; every move
reaches the other screen by itself (the long poll) within a second; neither screen ever holds a card of the
other's hand; a screen made again (a reload) with the seat the browser kept is back in that seat."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tables_server import Server

from uu.server.tables import open_hub
from uu.together import TableRefused
from uu.together.client import TableClient
from uu.widgets.together import TogetherScreen


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(open_hub(tmp_path / "class.sqlite"))
    yield srv
    srv.stop()


def until(ok: Callable[[], bool], seconds: float = 1.0) -> float:
    """Seconds it took for `ok()` to hold; fails past `seconds`."""
    start = time.monotonic()
    while not ok():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"not within {seconds} s")
        time.sleep(0.01)
    return time.monotonic() - start


def others_hands(screen: TogetherScreen) -> list[object]:
    table = screen.table.observation
    assert table is not None
    return [c["name"] for p in table["players"] if not p["is_viewer"] and not p["hand_open"] for c in p["hand"]]


def test_two_learners_play_to_the_end_on_their_screens(server: Server) -> None:
    kept: dict[str, tuple[str | None, str | None]] = {}
    ana = TogetherScreen(TableClient(server.url), on_seat=lambda c, t: kept.__setitem__("ana", (c, t)),
                         page_url=lambda: "http://127.0.0.1:8866/voila/render/app.ipynb?lang=fr")
    ben = TogetherScreen(TableClient(server.url), on_seat=lambda c, t: kept.__setitem__("ben", (c, t)))
    screens = [ana, ben]
    try:
        ana.name_box.value = "Ana"
        ana.players.value, ana.level.value = 4, "easy"
        ana.on_make()
        assert ana.code is not None and ana.error is None
        assert "data-role='table-link'" in ana.link_html.value and f"?table={ana.code}" in ana.link_html.value
        assert ana.start_button.layout.display == ""
        ben.code_box.value = ana.code.lower()
        assert ben.join_button.layout.display == "" and ben.make_button.layout.display == "none"
        ben.name_box.value = "Ben"
        ben.on_join()
        assert ben.code == ana.code and ben.start_button.layout.display == "none"
        until(lambda: "Ben" in ana.seats_html.value)  # Ana's screen learns of Ben by itself
        ana.on_start()
        until(lambda: ben.table.observation is not None)
        rng = random.Random(4)
        worst = 0.0
        for _ in range(2000):
            if all(s.screen and s.screen["phase"] == "ended" for s in screens):
                break
            for me, other in ((ana, ben), (ben, ana)):
                assert not [n for n in others_hands(me) if n is not None]
                if me.table.actions and me.screen and me.screen["phase"] == "playing":
                    action = rng.choice(me.table.actions)
                    me.table.choose(action["id"], me.table.version)
                    moved_to = me.screen["revision"]
                    # the move reaches the other screen by itself
                    worst = max(worst, until(lambda: other.screen is not None
                                             and other.screen["revision"] >= moved_to))
            time.sleep(0.005)
        else:
            raise AssertionError("the game did not end")
        assert worst < 1.0
        final = ana.table.observation
        assert final is not None and final["over"]
        # a reload: a new screen, with the seat the browser kept, is back in it
        code, token = kept["ben"]
        assert code and token
        again = TogetherScreen(TableClient(server.url))
        screens.append(again)
        assert again.resume(code, token)
        assert again.screen is not None and again.screen["seat"] == 1
    finally:
        for s in screens:
            s.stop()


def test_a_refused_join_says_why_and_keeps_the_form(server: Server) -> None:
    ana = TogetherScreen(TableClient(server.url))
    try:
        ana.code_box.value = "NOPE9"
        ana.name_box.value = "Ana"
        ana.on_join()
        assert ana.code is None and ana.error and "no table with that code" in ana.error
        assert ana.form.layout.display != "none"
        ana.code_box.value = ""
        ana.name_box.value = "\u202eAna"
        ana.on_make()
        assert ana.code is None and ana.error and "your name" in ana.error
        assert not TogetherScreen(TableClient(server.url)).resume("ABCDE", "x" * 30)
    finally:
        ana.stop()


@pytest.mark.parametrize("coach", [True, False])
def test_the_coach_is_each_seats_own_and_the_maker_can_switch_it_off(server: Server, coach: bool) -> None:
    """With the coach on, the seat whose move it is has a Hint button; its hint shows on its screen only (the
    other screen shows none) and lights the hinted move. Switched off by the maker: no Hint button on any seat,
    and the server refuses a hint in plain words."""
    ana = TogetherScreen(TableClient(server.url))
    ben = TogetherScreen(TableClient(server.url))
    try:
        ana.name_box.value, ana.players.value, ana.level.value, ana.coach.value = "Ana", 2, "easy", coach
        ana.on_make()
        ben.code_box.value, ben.name_box.value = ana.code or "", "Ben"
        ben.on_join()
        ana.on_start()
        until(lambda: ben.table.observation is not None and ana.table.observation is not None)
        until(lambda: bool(ana.table.actions or ben.table.actions), 3.0)
        mover, other = (ana, ben) if ana.table.actions else (ben, ana)
        assert other.hint_button.layout.display == "none"
        # a click on what is not lit is answered by the server for that seat (whose decision it is)
        assert other.table.why("card:nursery:-1:Baby Unicorn (Red)").startswith("It is ")
        if not coach:
            assert mover.hint_button.layout.display == "none"
            with pytest.raises(TableRefused, match="coach is switched off"):
                mover.client.hint(mover.code or "", mover.token or "")
            return
        assert mover.hint_button.layout.display == ""
        mover.on_hint()
        assert mover.error is None and "uu-hint" in mover.hint_box.value and mover.table.hint
        assert all(0 <= i < len(mover.table.actions) for i in mover.table.hint)
        assert other.hint_box.value == "" and other.table.hint == []
        with pytest.raises(TableRefused, match="move of your own"):
            other.client.hint(other.code or "", other.token or "")
    finally:
        ana.stop()
        ben.stop()


def test_on_a_hub_the_tables_link_goes_through_the_hub_to_each_learners_own_server(monkeypatch) -> None:
    from uu.widgets.together import shared_address

    page = "http://127.0.0.1:8000/user/learner1/voila/render/app.ipynb?lang=fr"
    assert shared_address(page) == page  # not on a hub: the page itself
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/learner1/")
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/")
    assert shared_address(page) == "http://127.0.0.1:8000/hub/user-redirect/voila/render/app.ipynb?lang=fr"
