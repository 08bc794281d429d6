"""uu.session: the one path of every move. A person's choice is checked once (version, seat, index) and
refused with nothing changed; bots play in one loop until a person must; every move is recorded as it is
made, and rendered for a viewer it is exactly what the table's old replay made of it, hiding the same cards;
undo follows the hidden-information rule; listeners hear every move."""

from __future__ import annotations

import pytest

from uu.bots import RandomBot
from uu.engine import new_game
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.errors import IllegalAction
from uu.engine.game import Game
from uu.render import second_person
from uu.session import ChoiceRefused, Moved, NotYourDecision, Session, StaleChoice, Undone, UndoRefused
from uu.session.session import STEPS_KEPT
from uu.table.replay import MAX_STEPS, step_view, steps_view
from uu.table.seat_view import card_summary


def positions(game: Game) -> list[tuple[str, int]]:
    s = game.state
    return list(zip(s.zone_of, s.owner_of))


def changes_since(game: Game, before: list[tuple[str, int]], log_at: int, viewer: int | None,
                  seat: int) -> dict[str, object] | None:
    """The oracle: what the table's replay showed of one decision before sessions recorded steps (the cards
    that moved since `before`, named only where the viewer saw them at one end, and the log lines since)."""
    def seen(zone: str, owner: int) -> bool:
        if zone in ("stable", "discard", "nursery", "pile", "limbo"):
            return True
        return zone == "hand" and (viewer is None or owner == viewer or q.hand_visible(game.state, owner))

    moved = []
    for cid, (was, now) in enumerate(zip(before, positions(game))):
        if was != now:
            shown = ({k: v for k, v in card_summary(game, cid).items() if k != "text"}
                     if seen(*was) or seen(*now) else {"id": None, "name": None})
            moved.append({"from": list(was), "to": list(now), **shown})
    lines = [second_person(e.text) for e in game.state.log[log_at:]]
    if not lines and not moved:
        return None
    return {"seat": seat, "yours": seat == viewer, "lines": lines, "moved": moved}


def table(seed: int = 3, players: int = 3, persons: frozenset[int] = frozenset({0})) -> Session:
    game = new_game([f"P{i}" for i in range(players)], seed=seed)
    bot = RandomBot(seed)
    return Session(game, {s: (lambda g, _seat: bot.choose(g)) for s in range(players) if s not in persons})


def snapshot(game: Game) -> object:
    return game.to_dict()


def test_a_choice_is_checked_once_and_refused_with_nothing_changed() -> None:
    s = table()
    s.run_bots()
    seat = s.decider
    assert seat == 0
    before, version = snapshot(s.game), s.version
    for seat_, index, ver, error in [(0, 0, version - 1, StaleChoice), (0, 0, version + 1, StaleChoice),
                                     (1, 0, version, NotYourDecision), (0, len(s.legal(0)), version, ChoiceRefused),
                                     (0, -1, version, ChoiceRefused), (0, True, version, ChoiceRefused)]:
        with pytest.raises(error):
            s.choose(seat_, index, ver)  # type: ignore[arg-type]
        assert snapshot(s.game) == before and s.version == version
    chosen = s.choose(0, 0, version)
    assert s.version == version + 1 and s.game.moves[-1] is chosen


def test_push_judges_like_the_engine() -> None:
    s = table()
    with pytest.raises(IllegalAction):
        s.push(Action("play", card="Neigh"))
    assert s.version == 0 and not s.game.moves


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (5, 4), (8, 6)])
def test_recorded_steps_show_what_the_tables_replay_showed(seed: int, players: int) -> None:
    """Every bot decision, recorded by the session and rendered for each seat, is the step the old loop
    (changes_since, made at the time) gave that seat: same caption, same cards moved, same cards hidden."""
    s = table(seed, players, frozenset())
    bot = RandomBot(seed)
    seen_hidden = False
    for _ in range(250):
        d = s.game.pending
        if d is None:
            break
        before, log_at = positions(s.game), len(s.game.state.log)
        old_version = s.version
        s.push(bot.choose(s.game))
        (step,) = s.steps_since(old_version) or [None]
        assert step is not None and step.seat == d.player
        for viewer in (None, *range(players)):
            want = changes_since(s.game, before, log_at, viewer, d.player)
            got = step_view(s.game, step, viewer)
            if want is None:
                assert not got["lines"] and not got["moved"]
                continue
            assert got == want
            seen_hidden |= any(m["name"] is None for m in got["moved"])
    assert seen_hidden  # some card moved unseen (a draw from the deck), and stayed nameless


def test_the_bots_play_until_a_person_must_and_each_decision_is_a_step() -> None:
    s = table(7, 4)
    heard: list[object] = []
    s.subscribe(heard.append)
    made = s.run_bots()
    assert s.decider in (0, None)
    steps = s.steps_since(0)
    assert steps is not None and len(steps) == made == s.version == len(heard)
    assert all(isinstance(e, Moved) for e in heard) and [e.step for e in heard] == steps  # type: ignore[attr-defined]
    assert [st.version for st in steps] == list(range(1, made + 1))
    s.choose(0, 0, s.version)
    later = s.steps_since(made)
    assert later is not None and later[0].seat == 0


def test_a_screen_far_behind_or_before_an_undo_draws_afresh() -> None:
    s = table(2, 2, frozenset())
    bot = RandomBot(2)
    while s.game.pending is not None and s.version <= STEPS_KEPT + 5:
        s.push(bot.choose(s.game))
    if s.version > STEPS_KEPT + 1:
        assert s.steps_since(0) is None
        assert s.steps_since(s.version - 3) is not None
    assert s.steps_since(s.version + 1) is None


def test_undo_takes_back_the_persons_move_and_the_bots_after_it_unless_a_card_was_revealed() -> None:
    s = table(4, 3)
    s.run_bots()
    with pytest.raises(UndoRefused):
        s.undo(0)  # nothing of theirs yet
    heard: list[object] = []
    s.subscribe(heard.append)
    # find a move after which no hidden card becomes known before the person decides again
    for _ in range(60):
        if s.decider != 0:
            break
        before, moves, epoch = snapshot(s.game), len(s.game.moves), s.game.state.info_epoch
        s.choose(0, 0, s.version)
        s.run_bots()
        if s.game.state.info_epoch == epoch:
            version = s.version
            taken = s.undo(0)
            assert taken >= 1 and len(s.game.moves) == moves and snapshot(s.game) == before
            assert s.version == version + 1 and s.steps_since(version) is None
            assert isinstance(heard[-1], Undone)
            break
        with pytest.raises(UndoRefused):
            s.undo(0)  # a card was drawn or seen since: refused, and nothing changed
        assert len(s.game.moves) > moves
    else:
        pytest.fail("no undoable move found")


def test_a_failing_listener_does_not_stop_the_move_or_the_others(caplog: pytest.LogCaptureFixture) -> None:
    s = table(5, 2, frozenset({0, 1}))
    heard: list[object] = []

    def boom(_event: object) -> None:
        raise RuntimeError("screen gone")

    s.subscribe(boom)
    stop = s.subscribe(heard.append)
    s.choose(s.decider or 0, 0, 0)
    assert len(heard) == 1 and "screen gone" in caplog.text
    stop()
    s.choose(s.decider or 0, 0, s.version)
    assert len(heard) == 1


def test_a_long_stretch_plays_back_its_last_steps_and_folds_the_older_ones() -> None:
    s = table(2, 3, frozenset())
    bot = RandomBot(2)
    while s.game.pending is not None and s.version < 300:
        s.push(bot.choose(s.game))
    steps = s.steps_since(0)
    assert steps is not None and len(steps) == s.version
    shown = [step_view(s.game, st, 0) for st in steps]
    shown = [v for v in shown if v["lines"] or v["moved"]]
    assert len(shown) > MAX_STEPS
    played = steps_view(s.game, steps, 0)
    assert len(played) == MAX_STEPS and played[0]["seat"] is None   # the older ones, folded into the first
    assert played[1:] == shown[-(MAX_STEPS - 1):]
