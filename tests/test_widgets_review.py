"""The play screen's game record ("Save this game"), the hinted move lit on the table, "Review my game" and the
review screen (a decision opens in the sandbox), driven from Python (no browser)."""

from __future__ import annotations

import base64
import random
import re

import pytest

from uu.scenario.record import parse_record, replay
from uu.widgets import PlayScreen
from uu.widgets.review import ReviewScreen
from uu.widgets.sandbox import SandboxScreen
from uu.widgets.tutor_app import App


@pytest.fixture(autouse=True)
def quick_review(monkeypatch):
    """The review's budget per decision, small: these tests check the screens, not the grades."""
    monkeypatch.setattr("uu.widgets.review.REVIEW_SECONDS", 0.02)


def send_choice(screen: PlayScreen, index: int) -> None:
    table = screen.table
    table._on_message(table, {"type": "choose", "id": index, "version": table.version}, [])


def play_to_the_end(screen: PlayScreen, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        if screen.game.pending is None:
            return
        send_choice(screen, rng.choice([a["id"] for a in screen.table.actions]))
        assert screen.error is None, screen.error
    raise AssertionError("the game did not end")


def saved_record(screen: PlayScreen):
    screen.save_button.click()
    m = re.search(r"href='data:application/json;base64,([^']+)'", screen.save_link.value)
    assert m, screen.save_link.value
    return parse_record(base64.b64decode(m.group(1)).decode("utf-8"))


def test_the_hinted_move_is_lit_on_the_table_until_a_move_is_made():
    screen = PlayScreen(players=3, seed=2, delay=0, level="normal")
    rng = random.Random(1)
    while len(screen.game.pending.actions) < 2:
        send_choice(screen, rng.choice([a["id"] for a in screen.table.actions]))
    screen.hint_button.click()
    lit = screen.table.hint
    assert lit and set(lit) <= {a["id"] for a in screen.table.actions}
    send_choice(screen, screen.table.actions[0]["id"])
    assert screen.table.hint == []


def test_save_this_game_offers_the_record_and_undo_takes_moves_out_of_it():
    screen = PlayScreen(players=2, seed=4, delay=0)
    for _ in range(3):
        send_choice(screen, screen.table.actions[0]["id"])
    record = saved_record(screen)
    assert record.players == list(screen.game.players) and record.moves
    assert len(list(replay(record))) == len(record.moves)
    for _ in range(30):  # undo is refused once a hidden card was revealed: move until one is taken back
        send_choice(screen, screen.table.actions[0]["id"])
        before = len(screen.record.moves)
        screen.undo_button.click()
        assert screen.error is None
        if screen.message and screen.message[0] == "right":
            break
    else:
        raise AssertionError("no undo was allowed")
    assert len(screen.record.moves) < before
    end = screen.record.start_game()
    for _g, action, _i in replay(screen.record):
        end.push(action)
    assert end.to_dict() == screen.game.to_dict()  # the record leads exactly to the game on show


def test_review_my_game_after_a_game_standing_alone():
    screen = PlayScreen(players=2, seed=1, delay=0)
    assert screen.review_button.layout.display == "none"  # offered once the game is over
    play_to_the_end(screen)
    assert screen.review_button.layout.display == ""  # shown
    screen.review_button.click()
    assert screen.error is None, screen.error
    [review] = screen.review_box.children
    assert isinstance(review, ReviewScreen) and review.result is not None and review.decisions.children
    assert "<svg" in review.chart.value and "<desc>" in review.chart.value
    heading, *moments = review.turning.children
    assert "Key moments" in heading.value
    buttons = [m for m in moments if "uu-review-moment" in m._dom_classes]
    assert len(buttons) == len(review.result.turning_points) <= 5
    assert review.all.selected_index is None  # every decision folded away, after the key moments
    assert "Accuracy" in review.summary.value and "won this game" in review.summary.value
    assert list(review.children).index(review.turning) < list(review.children).index(review.all)
    record = saved_record(screen)
    assert record.result and len(list(replay(record))) == len(record.moves)


def test_a_decision_in_the_review_opens_in_the_sandbox():
    app = App(delay=0)
    play = app.open_play()
    play.players_input.value = 2
    play.new_button.click()
    play_to_the_end(play, seed=3)
    play.review_button.click()
    assert isinstance(app.screen, ReviewScreen), app.error
    review = app.screen
    first_action = next(i for i, d in enumerate(review.result.decisions) if d.kind == "action")
    review.decisions.children[first_action].click()
    assert review.error is None, review.error
    assert isinstance(app.screen, SandboxScreen) and app.screen.mode == "play"
    assert "Opened from the review of your game" in app.screen.play.feedback_box.value
    game = app.screen.game
    decision = review.result.decisions[first_action]
    assert game.pending is not None and game.state.turn_number == decision.turn
    assert game.pending.player == 0 and decision.action in game.pending.actions


def test_a_key_moment_opens_its_position_in_the_sandbox():
    app = App(delay=0)
    play = app.open_play()
    play.players_input.value = 2
    play.new_button.click()
    play_to_the_end(play, seed=3)
    play.review_button.click()
    review = app.screen
    assert isinstance(review, ReviewScreen) and review.result.turning_points, app.error
    moment = review.result.turning_points[0]
    button = next(m for m in review.turning.children if "uu-review-moment" in m._dom_classes)
    button.click()
    assert review.error is None, review.error
    assert isinstance(app.screen, SandboxScreen)
    decision = review.result.decisions[moment.decision]
    assert app.screen.game.state.turn_number <= decision.turn


def test_review_my_game_at_the_end_of_a_lesson_with_a_game(tmp_path):
    from uu.tutor.lesson_runner import LessonRunner
    from uu.widgets.lesson import LessonScreen

    f = tmp_path / "game.yaml"
    f.write_text("""\
name: g
players: [You, Bea]
options: {seed: 3}
lesson:
  id: g
  order: 1
  title: G
  summary: A game.
  learner: You
  script:
    - say: Play.
      game: {turns: 3}
  recap: [Done.]
""")
    screen = LessonScreen(LessonRunner(f))
    assert screen.review_button.layout.display == "none"
    while not screen.runner.done:
        screen.click_move(screen.runner.learner_actions()[0])
        assert screen.error is None, screen.error
    assert screen.review_button.layout.display == ""  # shown
    record = screen.runner.record
    end = record.start_game()
    for _g, action, _i in replay(record):
        end.push(action)
    assert end.to_dict() == screen.runner.game.to_dict()  # every move of the game step is in the record
    screen.review_button.click()
    assert screen.error is None, screen.error
    [review] = screen.review_box.children
    assert isinstance(review, ReviewScreen) and review.result.decisions and "<svg" in review.chart.value
