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


def test_every_click_on_the_table_on_show_gets_a_new_table_even_the_same_position():
    """The browser lights nothing once it has sent a click, until a new version comes: a lesson's goal step
    started over shows the very same position, and must still be sent again (issue 38)."""
    game = new_game(["You", "Ben"], seed=4)
    viewer = game.pending.player
    w = TableWidget(game, viewer=viewer)
    w.on_choose = lambda _i: w.show(game, viewer)  # the move taken back: the same table again
    actions, v = list(w.actions), w.version
    w._on_message(w, {"type": "choose", "id": 0, "version": v}, [])
    assert w.version == v + 1 and w.actions == actions and w.replay == {}
    w._on_message(w, {"type": "choose", "id": len(actions), "version": w.version}, [])  # no such action
    assert w.version == v + 2
    w.on_choose = lambda _i: 1 / 0  # a failing callback: logged, and the table is sent again
    w._on_message(w, {"type": "choose", "id": 0, "version": w.version}, [])
    assert w.version == v + 3
    w._on_message(w, {"type": "choose", "id": 0, "version": v}, [])  # an older table's: a newer one is there
    assert w.version == v + 3

    def apply(i: int) -> None:
        game.push(game.legal_actions[i])
        w.show(game, viewer)

    w.on_choose = apply
    w._on_message(w, {"type": "choose", "id": 0, "version": w.version}, [])  # a real move: one new table
    assert w.version == v + 4 and w.actions != actions


def test_traits_follow_the_game_after_a_move():
    game = new_game(["You", "Ben"], seed=4)
    viewer = game.pending.player
    w = TableWidget(game, viewer=viewer)

    def apply(i: int) -> None:
        game.push(game.legal_actions[i])
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
    from uu.table.seat_view import observe

    game = new_game(["You", "Ben"], seed=4)
    w = TableWidget(game, viewer=0)
    middle, seats, before = w.middle, w.seats, w.log_size
    assert before == len(game.state.log) and w.log_new      # a first table: its newest lines
    game.push(game.pending.actions[0])                      # a Baby chosen: the Nursery and a Stable change
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
    game.push(game.pending.actions[0])
    w.show(game, 0)                                          # a new table: a hint about the old one goes
    assert w.hint == []



def _full(card: dict, facts: dict) -> dict:
    """What table.js's `full` makes of a card as sent (its facts under what the card says)."""
    return card if "type" in card else {**facts.get(card.get("name") or "", {}), **card}


def _as_drawn(w: TableWidget) -> dict:
    """The observation table.js's `obs()` rebuilds from the parts the widget sent."""
    f = w.facts
    players = [{**p, "hand": [_full(c, f) for c in p["hand"]], "stable": [_full(c, f) for c in p["stable"]]}
               for p in w.seats["players"]]
    mid = dict(w.middle)
    mid["discard"] = [_full(c, f) for c in mid["discard"]]
    mid["nursery"] = [_full(c, f) for c in mid["nursery"]]
    mid["pile"] = [{**e, "card": _full(e["card"], f)} for e in mid["pile"]]
    mid["chain"] = [{**link, "effects": [{**e, "card": _full(e["card"], f), "text": e.get("text", _full(e["card"], f)["text"])}
                                         for e in link["effects"]]} for link in mid["chain"]]
    return {**w.seats, "players": players, **mid, **w.state}


def test_cards_travel_without_their_facts_and_the_browser_gets_the_same_table():
    """Each card is sent as its id, key, name and place; its facts (name in the learner's language, type,
    icon, text) go once, in `facts`. What table.js rebuilds is the observation, in every kind of position,
    and a played-back move's cards are the ones uu.table.replay made of the session's step."""
    import json
    import random

    from uu.session import Session
    from uu.table.replay import step_view
    from uu.table.seat_view import FACT_KEYS, observe

    seen_pile = seen_chain = seen_steps = 0
    for seed in range(6):
        game = new_game(["You", "Ben", "Cy"], seed=seed)
        w = TableWidget(game, viewer=0)
        session = Session(game)
        rng = random.Random(seed)
        for _move in range(160):
            if game.pending is None:
                break
            session.push(rng.choice(game.legal_actions))
            (made,) = session.steps_since(session.version - 1) or []
            shown = step_view(game, made, 0)
            step = shown if shown["lines"] or shown["moved"] else None
            w.set_table(observe(game, 0), [], steps=[step] if step else None)
            assert _as_drawn(w) == {k: v for k, v in w.observation.items() if k != "log"}
            cards = [c for p in w.seats["players"] for c in p["hand"] + p["stable"]] + w.middle["discard"]
            assert all(k not in c for c in cards for k in FACT_KEYS)
            if step:
                sent = w.replay["steps"][0]["moved"]
                # table.js's moveCard: `full` for a card with a name; a hidden one is drawn as a back
                assert [{k: v for k, v in _full(m, w.facts).items() if k != "text"} if m["name"] else m
                        for m in sent] == step["moved"]
                assert all("label" not in m for m in sent)
                seen_steps += 1
            seen_pile += bool(w.middle["pile"])
            seen_chain += bool(w.middle["chain"])
        sent = len(json.dumps([w.seats, w.middle]))
        assert sent < 0.6 * len(json.dumps({k: v for k, v in w.observation.items() if k != "log"}))
    assert seen_pile and seen_chain and seen_steps  # the test went through those positions
