"""Text a learner types: the play screen's name and the sandbox's position name refuse control and
text-direction characters and overlong text (uu.textcheck), with a readable message."""

from __future__ import annotations

import pytest

from uu.textcheck import MAX_PLAYER_NAME, MAX_POSITION_NAME, text_problem
from uu.widgets import PlayScreen, SandboxScreen

HOSTILE = ["Ana\u202e", "\u2067Ben", "a\u200bb", "x\x00y", "bell\x07", "tab\there", "line\u2028sep", "\ufeffbom"]


@pytest.mark.parametrize("text", HOSTILE)
def test_control_and_direction_characters_are_refused(text):
    assert "control or text-direction" in text_problem(text, "your name", 40)


def test_ordinary_names_pass_and_length_is_limited():
    for ok in ("Ana", "Zoë Ødegaard", "李小龍", "مريم", "O'Brien-Smith 2", "a b"):
        assert text_problem(ok, "your name", 40) is None, ok
    assert "at most 40 characters (41 given)" in text_problem("x" * 41, "your name", 40)
    assert text_problem(None, "your name", 40) == "your name must be text"


@pytest.mark.parametrize("text", ["Ana\u202e", "x" * (MAX_PLAYER_NAME + 1)])
def test_the_play_screens_name_field_refuses_them(text):
    screen = PlayScreen(delay=0)
    before = screen.game.players[0]
    screen.name_input.value = text
    screen.new_button.click()
    assert screen.error is not None and "Traceback" not in screen.error_box.value
    assert "control or text-direction" in screen.error
    assert screen.game is None or screen.game.players[0] == before
    screen.name_input.value = "Ana"  # and the screen still works
    screen.new_button.click()
    assert screen.error is None and screen.game.players[0] == "Ana"


@pytest.mark.parametrize("text", ["Position\u202e", "x" * 100_000, "a\x1bb"])
def test_the_sandboxs_position_name_refuses_them(text):
    screen = SandboxScreen(players=["Ana", "Ben"])
    before = screen.builder.name
    screen.build.name_input.value = text
    assert screen.builder.name == before
    assert "name" in screen.session.field_errors and screen.error is None
    assert str(MAX_POSITION_NAME) in screen.session.field_errors["name"] or "control" in screen.session.field_errors["name"]
    screen.build.name_input.value = "Stolen Stable"
    assert screen.builder.name == "Stolen Stable" and "name" not in screen.session.field_errors


def test_a_pasted_scenario_with_a_hostile_name_is_refused():
    screen = SandboxScreen(players=["Ana", "Ben"])
    assert not screen.load_yaml("name: \"evil\\u202e\"\nplayers: [Ana, Ben]\n")
    assert "control or text-direction" in str(screen.session.load_message)
