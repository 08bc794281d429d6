"""uu.table.widget.TableWidget in Python: what a click in the browser does (the chosen id calls back; ids out
of range, forged or stale messages are ignored without a traceback), and the traits follow the game."""

from __future__ import annotations

from pathlib import Path

from uu.engine import new_game
from uu.table.widget import TableWidget


def make() -> tuple[TableWidget, list[int]]:
    chosen: list[int] = []
    game = new_game(["You", "Ben"], seed=4)
    return TableWidget(game, viewer=game.pending.player, on_choose=chosen.append), chosen


def test_the_module_and_its_css_ship_with_the_package():
    here = Path(__file__).resolve().parents[1] / "uu" / "table"
    assert "export default" in (here / "table.js").read_text()
    assert ".uu-t" in (here / "table.css").read_text()
    w, _ = make()
    assert "render" in str(w._esm) and ".uu-t" in str(w._css)


def test_a_chosen_id_calls_back():
    w, chosen = make()
    assert w.actions and w.observation["decision"]["yours"]
    w._on_message(w, {"type": "choose", "id": 2, "version": w.version}, [])
    assert chosen == [2]


def test_bad_messages_are_ignored():
    w, chosen = make()
    n = len(w.actions)
    for content in [{"type": "choose", "id": n, "version": w.version},
                    {"type": "choose", "id": -1, "version": w.version},
                    {"type": "choose", "id": "0", "version": w.version},
                    {"type": "choose", "id": True, "version": w.version},
                    {"type": "choose", "id": 0, "version": w.version - 1},   # made on an older table
                    {"type": "choose", "id": 0},
                    {"type": "other", "id": 0, "version": w.version},
                    "choose 0", None, []]:
        w._on_message(w, content, [])
    assert chosen == []


def test_a_failing_callback_is_logged_not_raised(caplog):
    w, _ = make()

    def boom(i: int) -> None:
        raise RuntimeError("engine said no")

    w.on_choose = boom
    w._on_message(w, {"type": "choose", "id": 0, "version": w.version}, [])
    assert "engine said no" in caplog.text


def test_traits_follow_the_game_after_a_move():
    game = new_game(["You", "Ben"], seed=4)
    viewer = game.pending.player
    w = TableWidget(game, viewer=viewer)

    def apply(i: int) -> None:
        game.apply(game.legal_actions[i])
        w.show(game, viewer)

    w.on_choose = apply
    version, before = w.version, w.observation
    baby = w.actions[0]
    w._on_message(w, {"type": "choose", "id": 0, "version": version}, [])
    assert w.version == version + 1 and w.observation != before
    you = w.observation["players"][viewer]
    assert [c["name"] for c in you["stable"]] == [baby["card"]]
    assert w.observation["decision"]["player"] != viewer and w.actions == []


def test_only_the_parts_of_the_observation_that_changed_are_new():
    from uu.table.observation import observe

    game = new_game(["You", "Ben"], seed=4)
    w = TableWidget(game, viewer=0)
    middle, seats, before = w.middle, w.seats, w.log_size
    assert before == len(game.state.log) and w.log_new      # a first table: its newest lines
    game.apply(game.pending.actions[0])                      # a Baby chosen: the Nursery and a Stable change
    w.show(game, 0)
    assert w.seats != seats and w.middle != middle
    assert w.log_new and all(line["index"] >= before for line in w.log_new)  # only the lines since
    assert w.observation == observe(game, 0)                # the whole of it is still there for Python


def test_a_click_on_an_element_that_is_not_lit_is_answered_with_why():
    sent: list = []
    game = new_game(["You", "Ben"], seed=4)
    w = TableWidget(game, viewer=0)
    w.send = sent.append  # type: ignore[method-assign]
    w._on_message(w, {"type": "why", "key": "card:hand:0:Neigh", "name": "Neigh"}, [])
    assert sent and sent[-1]["type"] == "why" and len(sent[-1]["text"]) > 10
    w._on_message(w, {"type": "why", "key": 5}, [])          # malformed: ignored
    w._on_message(w, {"type": "log", "from": "x"}, [])
    assert len(sent) == 1


def test_the_hint_lights_actions_by_id_and_goes_with_the_table():
    game = new_game(["You", "Ben"], seed=4)
    w = TableWidget(game, viewer=0)
    assert w.hint == [] and w.trait_metadata("hint", "sync")
    w.hint = [w.actions[0]["id"]]
    w.show(game, 0)                                          # the same table: the hint stays
    assert w.hint == [w.actions[0]["id"]]
    game.apply(game.pending.actions[0])
    w.show(game, 0)                                          # a new table: a hint about the old one goes
    assert w.hint == []
