"""The tables' JSON API under `uu app --class` (uu/server/tables.py), driven through the kernel's client
(uu/together/client.py) against a real tornado server: a table made, joined, started and played to its end by two
learners' clients; each client's answers hold no card of the other's hidden hand; a move reaches a waiting
screen (a long poll) at once; wrong tokens and codes are refused and paced, a right token never is; bad bodies are
refused in plain words; a server started again gives the table back."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_server import Server

from uu.server.tables import MAX_BODY, open_hub
from uu.together import TableRefused
from uu.together.client import TableClient


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(open_hub(tmp_path / "class.sqlite"))
    yield srv
    srv.stop()


def hidden_names(screen: dict[str, Any]) -> list[object]:
    """What a screen shows of the other seats' hands: nothing but backs unless the hand is shown to all."""
    out = []
    for p in screen["table"]["players"]:
        if not p["is_viewer"] and not p["hand_open"]:
            out += [c["name"] for c in p["hand"]]
    return out


def play(client: TableClient, seats: dict[str, dict[str, Any]], code: str, rng: random.Random) -> int:
    moves = 0
    while moves < 3000:
        over = True
        for token, last in list(seats.items()):
            screen = client.view(code, token, since=last["version"])
            seats[token] = screen
            assert not [n for n in hidden_names(screen) if n is not None]
            # (a step may name a card that went into a hand from a public place: everyone saw it go)
            text = json.dumps([screen["table"], screen["actions"]])
            for other, theirs in seats.items():
                if other != token and theirs.get("table"):
                    me = theirs["seat"]
                    if screen["table"]["players"][me]["hand_open"]:
                        continue  # a hand face up for all (Nanny Cam): every seat may see it
                    mine = next(p for p in theirs["table"]["players"] if p["seat"] == me)
                    for card in mine["hand"]:
                        # the other's hand cards, by instance: never in this seat's screen
                        assert f'"id": "{card["id"]}", "key": "card:hand:{me}:' not in text
            if screen["phase"] == "playing":
                over = False
                if screen["actions"]:
                    action = rng.choice(screen["actions"])
                    try:
                        seats[token] = client.move(code, token, action["id"], screen["version"])
                    except TableRefused as e:  # an answer to a card that changed meanwhile: asked again
                        assert "changed" in str(e) or "older table" in str(e)
                    moves += 1
        if over:
            return moves
    raise AssertionError("the game did not end")


def test_two_learners_play_a_table_to_its_end_seeing_only_their_own_hands(server: Server) -> None:
    client = TableClient(server.url)
    made = client.make("Ana", {"players": 4, "bot_level": "easy"})
    code, ana = made["code"], made["token"]
    assert made["maker"] and made["phase"] == "open" and made["table"] is None
    joined = client.join(code.lower(), "Ben")
    ben = joined["token"]
    assert joined["seat"] == 1 and not joined["maker"]
    with pytest.raises(TableRefused, match="Only the person"):
        client.start(code, ben)
    started = client.start(code, ana)
    assert started["phase"] == "playing" and [s["kind"] for s in started["seats"]] == ["person", "person", "bot",
                                                                                        "bot"]
    seats = {ana: started, ben: client.view(code, ben)}
    assert play(client, seats, code, random.Random(3)) > 5
    final = client.view(code, ana)
    assert final["phase"] == "ended" and final["table"]["over"]


def test_a_move_reaches_a_waiting_screen_at_once(server: Server) -> None:
    client = TableClient(server.url)
    made = client.make("Ana", {"players": 2})
    code, ana = made["code"], made["token"]
    ben = client.join(code, "Ben")["token"]
    client.start(code, ana)
    screens = {t: client.view(code, t) for t in (ana, ben)}
    mover = next(t for t, s in screens.items() if s["actions"])
    waiter = ben if mover == ana else ana
    got: dict[str, Any] = {}

    def wait() -> None:
        got["screen"] = client.view(code, waiter, since=screens[waiter]["version"],
                                    revision=screens[waiter]["revision"], wait=20)
        got["at"] = time.monotonic()

    t = threading.Thread(target=wait)
    t.start()
    time.sleep(0.5)
    assert "screen" not in got  # the screen waits: nothing moved
    moved_at = time.monotonic()
    client.move(code, mover, 0, screens[mover]["version"])
    t.join(10)
    assert got["screen"]["version"] > screens[waiter]["version"] and got["screen"]["steps"]
    assert got["at"] - moved_at < 1.0


def test_wrong_tokens_codes_and_bodies_are_refused_and_paced(server: Server) -> None:
    client = TableClient(server.url)
    made = client.make("Ana", {"players": 2})
    code, ana = made["code"], made["token"]
    for bad in ({"players": 9}, {"bot_level": "god"}, {"nonsense": True}):
        with pytest.raises(TableRefused, match="options are not allowed"):
            client.make("Ana", bad)
    with pytest.raises(TableRefused, match="your name"):
        client.join(code, "\u202eBen")
    with pytest.raises(TableRefused, match="too large"):
        client.join(code, "x" * (MAX_BODY + 10))
    with pytest.raises(TableRefused, match="index of one of your moves"):
        client.move(code, ana, "0", 0)  # type: ignore[arg-type]
    for _ in range(10):
        with pytest.raises(TableRefused, match="not one of this table's seats"):
            client.view(code, "guess")
    with pytest.raises(TableRefused, match="Too many wrong"):
        client.view(code, "guess")
    with pytest.raises(TableRefused, match="Too many wrong"):
        client.join("ZZZZZ", "Eve")
    assert client.view(code, ana)["seat"] == 0  # the right token is never kept out


def test_a_table_comes_back_when_the_server_starts_again(tmp_path: Path) -> None:
    first = Server(open_hub(tmp_path / "class.sqlite"))
    client = TableClient(first.url)
    made = client.make("Ana", {"players": 3})
    code, ana = made["code"], made["token"]
    ben = client.join(code, "Ben")["token"]
    client.start(code, ana)
    rng = random.Random(2)
    for _ in range(20):
        for token in (ana, ben):
            s = client.view(code, token)
            if s["actions"] and s["phase"] == "playing":
                client.move(code, token, rng.choice(s["actions"])["id"], s["version"])
    before = {t: client.view(code, t) for t in (ana, ben)}
    first.stop()
    second = Server(open_hub(tmp_path / "class.sqlite"))
    try:
        client = TableClient(second.url)
        for t in (ana, ben):
            after = client.view(code, t)
            assert {k: after[k] for k in ("seat", "version", "actions", "table")} == \
                   {k: before[t][k] for k in ("seat", "version", "actions", "table")}
    finally:
        second.stop()


def test_the_teacher_lists_the_tables_and_watches_one_seeing_no_hidden_card(tmp_path: Path) -> None:
    import re
    import urllib.error
    import urllib.request

    from uu.server.classroom import connect

    db = tmp_path / "class.sqlite"
    connect(str(db)).close()
    srv = Server(open_hub(db), class_db=str(db))
    try:
        client = TableClient(srv.url)
        made = client.make("Ana", {"players": 4, "bot_level": "easy"})
        code, ana = made["code"], made["token"]
        ben = client.join(code, "Ben")["token"]
        waiting = client.make("Cleo", {"players": 2})["code"]  # not started: listed, not watchable yet
        srv.hub.tables.get(code).seed = 4  # the same deal and moves every run: a game still on after them
        client.start(code, ana)
        rng = random.Random(4)
        for _ in range(8):
            for token in (ana, ben):
                s = client.view(code, token)
                if s["actions"] and s["phase"] == "playing":
                    client.move(code, token, rng.choice(s["actions"])["id"], s["version"])

        def get(path: str) -> tuple[int, str]:
            try:
                with urllib.request.urlopen(f"{srv.root}/uu/{path}", timeout=10) as r:
                    return r.status, r.read().decode("utf-8")
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode("utf-8")

        token = f"token={srv.class_token}"
        status, body = get(f"class.json?{token}")
        rows = {r["code"]: r for r in json.loads(body)["tables"]}
        assert status == 200 and set(rows) == {code, waiting}
        row = rows[code]
        assert [(s["name"], s["kind"], s["level"]) for s in row["seats"][:2]] == [("Ana", "person", None),
                                                                                ("Ben", "person", None)]
        assert [(s["kind"], s["level"]) for s in row["seats"][2:]] == [("bot", "easy")] * 2
        table = srv.hub.tables.get(code)
        assert table.session is not None
        state = table.session.game.state
        assert row["phase"] == "playing" and row["turn"]["name"] == state.players[state.current]
        assert row["started_at"] and rows[waiting]["phase"] == "open" and rows[waiting]["turn"] is None
        status, page = get(f"class?{token}")
        assert status == 200 and f"data-code='{code}'" in page and f"data-code='{waiting}'" in page
        bot = row["seats"][2]["name"]
        assert f"{bot} (bot, Easy)" in page and "class/table?" in page
        # watching: read-only, every hidden hand as a count, nothing changed by looking
        revision = table.revision
        status, watch = get(f"class/table?{token}&code={code.lower()}")
        assert status == 200 and "<form" not in watch and "<button" not in watch and "<script" not in watch
        hands = re.findall(r"<td class='hand'>(.*?)</td>", watch)
        assert len(hands) == 4
        from uu.engine import queries as q

        hidden = [p for p in range(4) if not q.hand_visible(state, p)]
        assert hidden
        for p in hidden:
            n = len(state.hands[p])
            assert hands[p] == f"{n} hidden card{'s' if n != 1 else ''}", hands[p]
        assert table.revision == revision
        assert get(f"class/table?token=wrong&code={code}")[0] == 403
        status, text = get(f"class/table?{token}&code=ZZZZZ")
        assert status == 404 and "no table with that code" in text
    finally:
        srv.stop()


def test_each_player_gets_the_review_of_the_ended_game_and_nobody_before(server: Server) -> None:
    """Issue 43: "each player gets the review at the end". Before the end the record (every hand in it) is
    refused; after it, each seat gets the whole game and its own seat number, and its screen's "Review my game"
    opens that review."""
    from uu.scenario.record import replay
    from uu.widgets.together import TogetherScreen

    client = TableClient(server.url)
    made = client.make("Ana", {"players": 3, "bot_level": "easy"})
    code, ana = made["code"], made["token"]
    ben = client.join(code, "Ben")["token"]
    client.start(code, ana)
    with pytest.raises(TableRefused, match="game that is over"):
        client.record(code, ben)
    seats = {ana: client.view(code, ana), ben: client.view(code, ben)}
    play(client, seats, code, random.Random(5))
    for token, seat in ((ana, 0), (ben, 1)):
        record, mine = client.record(code, token)
        assert mine == seat and record.players[seat] == ("Ana", "Ben")[seat]
        assert len(list(replay(record))) == len(record.moves) > 5, "the record replays the whole game"
    with pytest.raises(TableRefused):
        client.record(code, "x" * 30)
    opened: list[tuple[object, int]] = []
    screen = TogetherScreen(client, on_review=lambda record, seat: opened.append((record, seat)))
    assert screen.resume(code, ben)
    assert screen.review_button.layout.display != "none"
    screen.review_button.click()
    assert len(opened) == 1 and opened[0][1] == 1
