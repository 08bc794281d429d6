"""uu.together: a table for several learners and bots. Seats by name and secret token; the maker starts and
ends it; every move goes through the session; each seat sees only what it may (nothing of another seat's
hidden hand, in its observation, its legal actions or its steps); a learner away is played by a bot until they
are back; the Neigh moment asks every seat that may answer at once and applies the answers in the engine's
order; the table is stored as options, seed and moves, and a restart gives it back as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from uu.engine import queries as q
from uu.engine.game import Game
from uu.session import ChoiceRefused, NotYourDecision, StaleChoice
from uu.together import AWAY_S, SharedTable, TableOptions, TableRefused, Tables, TableStore, TableView
from uu.together.answers import answerers, responses


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def game_of(table: SharedTable) -> Game:
    assert table.session is not None
    return table.session.game


def seated(persons: int, players: int, seed: int = 1, store: TableStore | None = None,
           clock: Clock | None = None, options: TableOptions | None = None) -> tuple[Tables, SharedTable, list[str]]:
    tables = Tables(store, clock=clock or Clock())
    table, maker = tables.make("Ana", options or TableOptions(players=players, bot_level="easy"))
    table.seed = seed
    tokens = [maker] + [table.join(name)[1] for name in ("Ben", "Cleo", "Dev", "Eli", "Fay", "Gus")[:persons - 1]]
    return tables, table, tokens


def visible_cards(view: TableView) -> set[int]:
    obs = view.observation
    assert obs is not None
    cards = set(obs.discard) | set(obs.nursery) | set(obs.limbo) | set(obs.box) | {e.cid for e in obs.pile}
    for s in obs.seats:
        cards |= set(s.stable) | set(s.hand or ())
    return cards


def assert_nothing_hidden(table: SharedTable, seat: int, view: TableView) -> None:
    """Nothing of another seat's hidden hand in `seat`'s view: not in the observation, not in its legal
    actions, not in its steps."""
    game = game_of(table)
    s = game.state
    obs = view.observation
    assert obs is not None and obs.viewer == seat
    seen = visible_cards(view)
    hidden: set[int] = set()  # the cards of the hands this seat may not see
    for other in range(s.n):
        if other != seat and not q.hand_visible(s, other) and not obs.seats[other].hand_open:
            assert obs.seats[other].hand is None
            hidden |= set(s.hands[other])
    assert not seen & hidden, f"seat {seat} sees a card of another seat's hand"
    for a in view.legal:  # (a search of the deck names deck cards: the seat's own effect lets it look)
        named = {a.cid, *(t.cid for t in a.target)}
        assert not named & hidden, f"seat {seat}'s action {a} names a card of another seat's hand"
    for step in view.steps or ():
        for m in step["moved"]:
            ends = [tuple(m["from"]), tuple(m["to"])]
            hidden_end = [z in ("deck", "", "box") or (z == "hand" and o != seat and not q.hand_visible(s, o))
                          for z, o in ends]
            if all(hidden_end):
                assert m["id"] is None and m["name"] is None


def play_to_end(table: SharedTable, tokens: list[str], rng: random.Random, check: bool = True,
                limit: int = 3000) -> int:
    """Every learner chooses at random through the table only (view, choose), as their screens would."""
    versions = {t: 0 for t in tokens}
    moves = 0
    while table.phase == "playing" and moves < limit:
        acted = False
        for token in tokens:
            view = table.view(token, since=versions[token])
            versions[token] = view.version
            if check:
                assert_nothing_hidden(table, view.seat, view)
            if view.legal and table.phase == "playing":
                table.choose(token, rng.randrange(len(view.legal)), view.version)
                acted, moves = True, moves + 1
        assert acted or table.phase != "playing", "nobody at the table could move"
    return moves


def test_options_are_bounded_and_names_checked() -> None:
    for bad in ({"players": 1}, {"players": 9}, {"bot_level": "godlike"}, {"coach": "maybe"}, {"extra": 1}):
        with pytest.raises(ValidationError):
            TableOptions(**bad)  # type: ignore[arg-type]
    tables = Tables(clock=Clock())
    for name in ("", "   ", "x" * 41, "Ana\u202e", "Ben\n", 7):
        with pytest.raises(TableRefused):
            tables.make(name)  # type: ignore[arg-type]
    assert not tables.all()  # nothing half made
    table, _ = tables.make("Ana", TableOptions(players=2))
    assert len(table.code) == 5 and tables.get(table.code.lower()) is table
    table.join("Ben")
    with pytest.raises(TableRefused, match="Every seat"):
        table.join("Cleo")
    with pytest.raises(TableRefused, match="no table"):
        tables.get("NOPE1")


def test_tables_are_bounded() -> None:
    tables = Tables(clock=Clock(), max_tables=3)
    made = [tables.make("Ana") for _ in range(3)]
    with pytest.raises(TableRefused, match="as many tables"):
        tables.make("Ana")
    table, token = made[0]
    table.end(token)  # a table that is over no longer counts
    tables.make("Ana")


def test_only_the_maker_starts_and_ends_and_empty_seats_become_bots() -> None:
    _, table, (ana, ben) = seated(2, 4)
    with pytest.raises(TableRefused, match="Only the person"):
        table.start(ben)
    with pytest.raises(TableRefused, match="Only the person"):
        table.start("forged")
    table.start(ana)
    assert [s.kind for s in table.seats()] == ["person", "person", "bot", "bot"]
    assert game_of(table).state.players[:2] == ["Ana", "Ben"]
    with pytest.raises(TableRefused, match="already started"):
        table.join("Cleo")
    with pytest.raises(TableRefused, match="Only the person"):
        table.end(ben)
    table.end(ana)
    assert table.phase == "ended"
    with pytest.raises(TableRefused, match="not being played"):
        table.choose(ana, 0, table.view(ana).version)


def test_a_move_is_checked_once_and_refused_with_nothing_changed() -> None:
    _, table, tokens = seated(2, 2, seed=3)
    table.start(tokens[0])
    views = [table.view(t) for t in tokens]
    mover = next(i for i, v in enumerate(views) if v.legal)
    other = 1 - mover
    before = game_of(table).to_dict()
    version = views[mover].version
    for token, index, ver, error in [(tokens[mover], 0, version - 1, StaleChoice),
                                     (tokens[other], 0, version, NotYourDecision),
                                     (tokens[mover], 999, version, ChoiceRefused),
                                     ("forged", 0, version, TableRefused)]:
        with pytest.raises(error):
            table.choose(token, index, ver)
        assert game_of(table).to_dict() == before
    table.choose(tokens[mover], 0, version)
    assert table.view(tokens[mover]).version > version


@pytest.mark.parametrize(("seed", "persons", "players"), [(1, 2, 4), (4, 3, 3), (6, 2, 2)])
def test_a_whole_game_where_no_seat_sees_another_seats_hand(seed: int, persons: int, players: int) -> None:
    _, table, tokens = seated(persons, players, seed=seed)
    table.start(tokens[0])
    moves = play_to_end(table, tokens, random.Random(seed))
    assert table.phase == "ended" and moves > 10
    assert game_of(table).pending is None
    assert len(table.moves) == len(game_of(table).moves)


def test_a_learner_away_is_played_by_a_bot_until_they_come_back() -> None:
    clock = Clock()
    _, table, (ana, ben) = seated(2, 2, seed=5, clock=clock)
    table.start(ana)
    view = table.view(ben)
    clock.now += AWAY_S + 1
    table.view(ana)  # Ana's screen keeps asking; Ben's is silent
    assert table.check_away() == [1]
    assert table.seats()[1].away and not table.seats()[0].away
    # while Ben is away his decisions are the bot's: the game never waits for him
    rng = random.Random(5)
    for _ in range(40):
        v = table.view(ana)
        if table.phase != "playing":
            break
        assert v.legal, "the game waits for someone other than Ana while Ben is away"
        table.choose(ana, rng.randrange(len(v.legal)), v.version)
    back = table.view(ben, since=view.version)
    assert not table.seats()[1].away
    assert back.steps is None or back.steps  # he is shown what happened while he was away


def test_a_stored_table_comes_back_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite"
    clock = Clock()
    tables, table, tokens = seated(2, 3, seed=8, store=TableStore(db), clock=clock)
    table.start(tokens[0])
    rng = random.Random(8)
    for _ in range(30):
        for token in tokens:
            v = table.view(token)
            if v.legal and table.phase == "playing":
                table.choose(token, rng.randrange(len(v.legal)), v.version)
    before = {t: table.view(t) for t in tokens}
    state = game_of(table).to_dict()
    again = Tables(TableStore(db), clock=clock)  # the server started again: everything from the store
    back = again.get(table.code)
    assert back is not table and game_of(back).to_dict() == state and back.moves == table.moves
    for t in tokens:  # each learner's token still names their seat, and they see what they saw
        v = back.view(t)
        assert (v.seat, v.legal, v.version, v.maker) == (before[t].seat, before[t].legal, before[t].version,
                                                         before[t].maker)
        assert v.observation == before[t].observation
    assert [s.kind for s in back.seats()] == ["person", "person", "bot"]
    play_to_end(back, tokens, rng, check=False)
    assert back.phase == "ended"
    assert Tables(TableStore(db), clock=clock).get(table.code).phase == "ended"


def neigh_moment(seed: int) -> tuple[SharedTable, list[str], int, int] | None:
    """Three learners play at random (passing every Neigh moment) until a card is played that two of them may
    answer with an Instant; the same seed gives the same moment."""
    _, table, tokens = seated(3, 3, seed=seed)
    table.start(tokens[0])
    rng = random.Random(seed)
    for _ in range(600):
        if table.phase != "playing":
            return None
        game = game_of(table)
        asked = [s for s in answerers(game) if len(responses(game, s)) > 1]
        if len(asked) >= 2:
            return table, tokens, asked[0], asked[1]
        for token in tokens:
            v = table.view(token)
            if v.legal and table.phase == "playing":
                index = len(v.legal) - 1 if v.answering else rng.randrange(len(v.legal))
                table.choose(token, index, v.version)
                break
    return None


def first_neigh_moment() -> tuple[int, tuple[SharedTable, list[str], int, int]]:
    for seed in range(1, 60):
        found = neigh_moment(seed)
        if found is not None:
            return seed, found
    raise AssertionError("no seed gives a card two learners may answer")


def test_the_neigh_moment_asks_everyone_at_once_and_applies_answers_in_the_engines_order() -> None:
    _, (table, tokens, first, second) = first_neigh_moment()
    game = game_of(table)
    top = game.state.pile[-1]
    views = {seat: table.view(tokens[seat]) for seat in range(3)}
    for seat in (first, second):  # both asked now, each with its own answers
        assert views[seat].answering and views[seat].legal[-1].kind == "pass"
        assert all(a.kind == "respond" for a in views[seat].legal[:-1])
    assert game.pending is not None and game.pending.player == first
    # the engine's order: seat order starting left of whoever played the top card
    ring = [(top["p"] + i) % 3 for i in range(1, 3)]
    assert ring.index(first) < ring.index(second)
    # the one asked second answers first: kept, nothing applied yet
    moves = len(game.moves)
    table.choose(tokens[second], len(views[second].legal) - 1, views[second].version)
    assert len(game.moves) == moves and not table.view(tokens[second]).answering
    assert table.view(tokens[first]).answering
    # the first answers (on the table it was shown, before the other's answer): both applied, in order
    table.choose(tokens[first], len(views[first].legal) - 1, views[first].version)
    steps = table.session.steps_since(views[first].version) if table.session else None
    assert steps is not None and [st.seat for st in steps[:2]] == [first, second]
    assert all(st.action.kind == "pass" for st in steps[:2])


def test_an_answer_to_a_top_card_that_changed_is_void_and_that_seat_is_asked_again() -> None:
    _, (table, tokens, first, second) = first_neigh_moment()
    game = game_of(table)
    v_first, v_second = table.view(tokens[first]), table.view(tokens[second])
    answer = v_second.legal[0]
    assert answer.kind == "respond"
    table.choose(tokens[second], 0, v_second.version)  # kept: the first has not answered yet
    pile = len(game.state.pile)
    table.choose(tokens[first], 0, v_first.version)  # the first answers with an Instant: a new top card
    assert game.state.pile and game.state.pile[-1]["p"] == first or len(game.state.pile) != pile
    # the second's answer was made for the old top card: void, its Instant still in its hand
    assert answer.cid in game.state.hands[second]
    if second in answerers(game):
        again = table.view(tokens[second])
        assert again.answering and again.legal
        with pytest.raises(StaleChoice, match="changed"):
            table.choose(tokens[second], 0, v_second.version)
        table.choose(tokens[second], len(again.legal) - 1, again.version)  # on the new table: taken


def test_in_a_neigh_moment_nobody_is_told_who_else_is_asked() -> None:
    _, (table, tokens, first, second) = first_neigh_moment()
    for seat in range(3):
        obs = table.view(tokens[seat]).observation
        assert obs is not None
        assert obs.decider is None  # not even the engine's decider: it would say whose answers are in


def test_the_client_names_the_class_stores_variable_as_the_class_store_does() -> None:
    from uu.together import client
    from uu.tutor import class_store

    assert client.CLASS_DB_ENV == class_store.CLASS_DB_ENV


def _hands_set(table: SharedTable, seat: int, instants: int) -> None:
    """Give `seat` exactly `instants` Instants in hand (0 or more), swapping cards with the deck."""
    s = game_of(table).state
    is_instant = [s.defs[c].type.name == "INSTANT" for c in range(len(s.defs))]
    have = [c for c in s.hands[seat] if is_instant[c]]
    while len(have) > instants:
        other = next(c for c in s.deck if not is_instant[c])
        s.place(have.pop(), "deck")
        s.place(other, "hand", seat)
    while len(have) < instants:
        mine = next(c for c in s.hands[seat] if not is_instant[c])
        neigh = next(c for c in s.deck if is_instant[c])
        s.place(mine, "deck")
        s.place(neigh, "hand", seat)
        have.append(neigh)


def _played_with(cleo_instants: int | None, store: TableStore | None = None,
                 options: TableOptions | None = None, clock: Clock | None = None) -> tuple[SharedTable, list[str]]:
    """Three learners; Ben holds no Instant, Cleo holds `cleo_instants` (None: the hands as dealt, which a
    store can make again); Ana plays a Basic Unicorn."""
    _tables, table, tokens = seated(3, 3, seed=5, store=store, clock=clock, options=options)
    table.start(tokens[0])
    game = game_of(table)
    while not (game.pending is not None and game.pending.kind == "action"):
        d = game.pending
        assert d is not None
        table.choose(tokens[d.player], 0, table.view(tokens[d.player]).version)
    assert game.pending is not None and game.pending.player == 0
    if cleo_instants is not None:
        _hands_set(table, 1, 0)
        _hands_set(table, 2, cleo_instants)
    view = table.view(tokens[0])
    basic = next(i for i, a in enumerate(view.legal)
                 if a.kind == "play" and game.state.defs[a.cid].type.name == "BASIC" and a.into == 0)
    table.choose(tokens[0], basic, view.version)
    return table, tokens


def test_every_seat_that_may_answer_is_asked_so_being_asked_tells_nothing_of_a_hand() -> None:
    """Ben's screen is the same whether Cleo holds a Neigh or not: the moment comes either way, Ben (with no
    Instant) is asked too, with only a pass, and nothing in his messages says who holds one."""
    from uu.together.wire import seat_json

    screens = {}
    for cleo_instants in (0, 1):
        table, tokens = _played_with(cleo_instants)
        game = game_of(table)
        assert game.pending is not None and game.pending.kind == "respond"
        ben, cleo = table.view(tokens[1]), table.view(tokens[2])
        assert ben.answering and [a.kind for a in ben.legal] == ["pass"]
        assert cleo.answering and [a.kind for a in cleo.legal] == ["respond"] * cleo_instants + ["pass"]
        screens[cleo_instants] = {seat: {k: v for k, v in seat_json(table, table.view(tokens[seat])).items()
                                         if k != "code"} for seat in (0, 1)}
    assert screens[0] == screens[1]
    # Cleo's own screen differs only by her hand and her answers
    table, tokens = _played_with(1)
    cleo = seat_json(table, table.view(tokens[2]))
    assert cleo["table"]["decision"] == {**screens[0][1]["table"]["decision"]}


def test_passes_from_every_seat_resolve_the_card_in_the_engines_order() -> None:
    table, tokens = _played_with(0)
    game = game_of(table)
    played = game.state.pile[-1]["cid"]
    cleo, ben = table.view(tokens[2]), table.view(tokens[1])
    table.choose(tokens[2], 0, cleo.version)  # Cleo (asked second) first: kept
    assert game.state.pile and table.view(tokens[1]).answering
    table.choose(tokens[1], 0, ben.version)
    assert not game.state.pile and played in game.state.stables[0]


def test_an_answer_kept_for_the_neigh_moment_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    table, tokens = _played_with(None, TableStore(db))
    cleo = table.view(tokens[2])
    table.choose(tokens[2], len(cleo.legal) - 1, cleo.version)  # Cleo passes before Ben: kept, not applied
    back = Tables(TableStore(db), clock=Clock()).get(table.code)
    assert not back.view(tokens[2]).answering and back.view(tokens[1]).answering
    ben = back.view(tokens[1])
    back.choose(tokens[1], len(ben.legal) - 1, ben.version)
    assert not game_of(back).state.pile  # both passes applied: the card resolved


def test_bots_get_short_distinct_names_and_their_level_and_the_list_says_it_in_the_readers_language() -> None:
    from uu.i18n import language
    from uu.together.wire import seat_json
    from uu.widgets.together import TogetherScreen

    tables = Tables(clock=Clock())
    table, ana = tables.make("nova", TableOptions(players=4, bot_level="hard"))  # a learner named like a bot
    table.start(ana)
    names = [s.name for s in table.seats()]
    assert names[0] == "nova" and len({n.casefold() for n in names}) == 4
    assert all(" bot " not in n and len(n) <= 8 for n in names[1:])
    assert [s.level for s in table.seats()] == [None, "hard", "hard", "hard"]
    screen = seat_json(table, table.view(ana))
    with language("de"):
        shown = TogetherScreen._seats_html(screen)
    assert f"{names[1]} (Bot, Schwer)" in shown, shown
    with language("en"):
        assert f"{names[1]} (bot, Hard)" in TogetherScreen._seats_html(screen)


def test_a_spectator_sees_no_hidden_card_no_decision_and_in_a_neigh_moment_not_whom_the_engine_asks() -> None:
    from uu.together.watch import spectator_observation

    _, (table, _tokens, _first, _second) = first_neigh_moment()
    s = game_of(table).state
    seen = spectator_observation(table)
    assert seen is not None and seen.decider is None and seen.decision is None and seen.box == ()
    for sv in seen.seats:
        assert (sv.hand is None) == (not q.hand_visible(s, sv.seat)) and sv.hand_size == len(s.hands[sv.seat])
    assert [e.cid for e in seen.pile] == [e["cid"] for e in s.pile]


@pytest.mark.parametrize("answer_s", [0, 20])
def test_a_countdown_only_if_the_maker_set_one_and_then_the_silent_seats_pass(answer_s: int) -> None:
    from uu.together.wire import seat_json

    clock = Clock()
    table, tokens = _played_with(1, options=TableOptions(players=3, answer_s=answer_s), clock=clock)
    game = game_of(table)
    cleo = table.view(tokens[2])
    table.choose(tokens[2], len(cleo.legal) - 1, cleo.version)  # Cleo passes; Ben says nothing
    clock.now += 19
    assert not table.check_deadline() and game.state.pile
    prompt = seat_json(table, table.view(tokens[1]))["table"]["decision"]["prompt"]
    assert ("20 s" in prompt) == bool(answer_s)
    clock.now += 2
    if not answer_s:  # no countdown: the table waits for Ben however long it takes
        assert table.answer_left() is None and not table.check_deadline() and game.state.pile
        return
    assert table.answer_left() == 0 and table.check_deadline()
    assert not game.state.pile and not table.view(tokens[1]).answering  # Ben passed: the card resolved


def test_the_countdown_is_one_of_the_offered_lengths() -> None:
    for bad in (5, 30, -20, "20s"):
        with pytest.raises(ValidationError):
            TableOptions(answer_s=bad)


def test_why_a_click_chose_nothing_is_the_seats_own_and_says_nothing_a_seat_may_not_know() -> None:
    from uu.table.clickwhy import click_reason

    # in a Neigh moment: whether this seat is asked, never whom the engine asks now
    _, (table, tokens, first, second) = first_neigh_moment()
    for seat in range(3):
        text = table.why(tokens[seat], "card:hand:0:Neigh")
        assert text in ("Answer the top card of the Neigh pile, or pass.",
                        "Waiting for answers to the top card of the Neigh pile.")
        assert (text.startswith("Answer")) == (seat in (first, second))
    # outside a moment, the coach on: the engine's why-not for the seat's own decision, as a game screen says it
    for coach in (True, False):
        _t, table, tokens = seated(2, 2, options=TableOptions(players=2, coach=coach))
        table.start(tokens[0])
        game = game_of(table)
        d = game.pending
        assert d is not None
        key = f"card:hand:{d.player}:{game.state.defs[game.state.hands[d.player][0]].name}"
        mine = table.why(tokens[d.player], key)
        other = table.why(tokens[1 - d.player], key)
        assert other == click_reason(game, 1 - d.player, key)  # whose decision it is: every seat sees that
        if coach:
            assert mine == click_reason(game, d.player, key)
        else:  # the coach switched off: only what the table waits for
            assert mine == "That is not one of the choices now: choose one of the lit cards or places."


def test_every_screen_a_seat_is_sent_is_of_the_wire_types() -> None:
    """What the server sends a seat (`seat_json`) validates, through JSON and strictly, against the types the
    kernel checks it with (uu/together/wire.py): before the start, in Neigh moments, to the end."""
    import json

    from uu.together.wire import CHECKS, seat_json

    _, table, tokens = seated(3, 4, seed=4)
    CHECKS.seated.validate_python({"token": tokens[0], **json.loads(json.dumps(seat_json(table, table.view(tokens[0]))))},
                                  strict=True)
    table.start(tokens[0])
    rng, moves, kinds = random.Random(4), 0, set()
    while table.phase == "playing" and moves < 400:
        for token in tokens:
            view = table.view(token)
            screen = CHECKS.screen.validate_python(json.loads(json.dumps(seat_json(table, view))), strict=True)
            if screen["table"] is not None and screen["table"]["decision"] is not None:
                kinds.add(screen["table"]["decision"]["kind"])
            if view.legal and table.phase == "playing":
                table.choose(token, rng.randrange(len(view.legal)), view.version)
                moves += 1
    assert moves > 10 and "respond" in kinds


def test_the_client_refuses_an_answer_that_is_not_a_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server of another version (or a proxy's page) answering with a JSON object of another shape: the kernel
    says the table cannot be reached, and no screen reads a missing key."""
    from uu.together.client import UNREACHABLE, TableClient

    client = TableClient("http://127.0.0.1:9")
    monkeypatch.setattr(client, "_post", lambda *a, **k: {"code": "ABCDE", "phase": "playing"})
    for ask in (lambda: client.view("ABCDE", "t"), lambda: client.move("ABCDE", "t", 0, 1),
                lambda: client.join("ABCDE", "Ana"), lambda: client.hint("ABCDE", "t")):
        with pytest.raises(TableRefused, match="cannot be reached"):
            ask()
    assert "cannot be reached" in UNREACHABLE
