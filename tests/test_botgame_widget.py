"""BotGameView driven from Python the way clicks drive it (no browser: `Button.click()` runs the handlers)."""

from __future__ import annotations

import logging

import pytest

from uu.widgets import botgame
from uu.widgets.botgame import BotGameView

XSS = "<img src=x onerror=alert(1)>"


def test_next_advances_the_game_without_errors():
    view = BotGameView(seed=1)
    assert view.error is None
    log_before = len(view.game.log)
    for _ in range(100):
        view.next_button.click()
        assert view.error is None, view.error
    assert view.decisions == 100 or view.game.is_over
    assert len(view.game.log) > log_before
    assert "Last decision" in view.status.value
    assert view.board.value.count("uu-seat") == 3
    assert "<details" in view.log_view.value and "uu-why" in view.log_view.value  # rule ids explained
    assert view.error_box.value == ""


def test_play_to_end_of_turn_changes_the_turn():
    view = BotGameView(seed=2)
    for _ in range(5):
        before = view.game.turn[2]
        view.turn_button.click()
        assert view.error is None, view.error
        assert view.game.is_over or view.game.turn[2] != before


def test_new_game_uses_the_controls_and_a_game_reaches_its_end():
    view = BotGameView()
    view.players_input.value = 8
    view.seed_input.value = 4
    view.new_button.click()
    assert view.error is None, view.error
    assert len(view.game.players) == 8 and view.decisions == 0
    steps = 0
    while view.step():
        steps += 1
        assert steps < 20_000
    assert view.game.is_over
    assert "Game over" in view.status.value
    assert view.next_button.disabled and view.turn_button.disabled
    assert view.step() is False


def test_player_names_are_escaped_everywhere():
    view = BotGameView(players=[XSS, "Ben"], seed=3)
    for _ in range(30):
        view.step()
    shown = view.board.value + view.status.value + view.log_view.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in view.board.value
    assert XSS not in shown and "<img" not in shown


def test_forged_control_values_are_refused_readably():
    view = BotGameView()
    view.players_input.set_trait("index", None)
    view.new_button.click()
    assert view.error is not None and "2 to 8 players" in view.error
    assert "Traceback" not in view.error_box.value


def test_errors_in_callbacks_are_shown_and_logged(monkeypatch, caplog):
    view = BotGameView(seed=1)

    def broken(game):
        raise RuntimeError("the bot fell over <b>")

    monkeypatch.setattr(view.bot, "choose", broken)
    with caplog.at_level(logging.ERROR, logger=botgame.__name__):
        view.next_button.click()
    assert view.error == "Something went wrong: the bot fell over <b>"
    assert "the bot fell over &lt;b&gt;" in view.error_box.value
    assert any("on_next" in r.getMessage() for r in caplog.records)
    assert caplog.records[-1].exc_info is not None
    monkeypatch.undo()
    view.next_button.click()  # the view still works and the message goes away
    assert view.error is None and view.error_box.value == ""


def test_a_game_that_cannot_start_shows_a_message():
    view = BotGameView(players=["Solo"])
    assert view.game is None
    assert view.error is not None and "2 to 8" in view.error
    assert view.next_button.disabled


@pytest.mark.parametrize("seed", [0, 7])
def test_same_seed_same_game(seed):
    a, b = BotGameView(seed=seed), BotGameView(seed=seed)
    for _ in range(60):
        a.step()
        b.step()
    assert [e.text for e in a.game.log] == [e.text for e in b.game.log]
