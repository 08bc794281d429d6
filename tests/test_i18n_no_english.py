"""Words a French or German learner used to read in English (issue 41): the result at the game's end, the default
name, the sandbox's option labels and values, the position's default name, and the messages of a pasted
scenario that is not valid YAML or does not validate (ours, never pydantic's or PyYAML's English)."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from uu.engine import new_game
from uu.engine.options import Options
from uu.i18n import language
from uu.i18n.validation import validation_message
from uu.render import result_text
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.scenario.load import ScenarioFileError, parse_scenario
from uu.tutor.sandbox_session import SandboxSession

LANGS = ("fr", "de")
# English words a French or German message must not hold (pydantic's and PyYAML's, and ours before issue 41)
ENGLISH = re.compile(r"\b(?:should|least|items?|after validation|valid|Field required|Input|wins|not allowed|"
                     r"shuffled|the game|out of|mapping|could not|found|expected|What-if|You)\b")


def _finished_game() -> object:
    g = new_game(["You", "Bramble"], seed=3)
    g.state.winner = 1
    return g


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_at_the_games_end_is_in_the_learners_language(lang: str) -> None:
    g = _finished_game()
    with language(lang):
        text = result_text(g, 0)
    assert "Bramble" in text and not ENGLISH.search(text), text
    assert result_text(g, 0) == "Bramble wins"


@pytest.mark.parametrize("lang", LANGS)
def test_the_sandbox_options_are_labelled_in_the_learners_language(lang: str) -> None:
    import ipywidgets as widgets

    from uu.widgets.sandbox_build import BuildPanel

    with language(lang):
        panel = BuildPanel(SandboxSession(), lambda: None)
        shown = [w.description for w in panel.option_inputs.values()]
        for w in panel.option_inputs.values():
            if isinstance(w, widgets.Dropdown):
                shown += [label for label, _value in w.options]
        shown += [label for label, _value in panel.rest_input.options]
        name = SandboxSession().builder.name
    assert set(Options.model_fields) == set(panel.option_inputs)
    leftover = [s for s in shown if "_" in s or "-" in s.split(" ")[0] or ENGLISH.search(s)]
    assert not leftover, leftover
    assert name != "What-if position" and name
    # the values the engine reads stay its ids
    assert panel.option_inputs["targeting"].value == "declare-first"


@pytest.mark.parametrize("lang", LANGS)
def test_the_default_name_is_shown_in_the_learners_language_and_plays_as_the_learners_seat(lang: str) -> None:
    from uu.widgets.play import PlayScreen

    with language(lang):
        screen = PlayScreen(delay=0)
        assert screen.name_input.value not in ("You", "")
        assert screen.settings().name == "You"  # the engine's seat name: every line is said to "you"


@pytest.mark.parametrize("lang", LANGS)
def test_a_pasted_scenario_that_does_not_validate_says_so_in_our_words(lang: str) -> None:
    with language(lang), pytest.raises(ScenarioFileError) as e:
        parse_scenario("name: x\nplayers: [Ana]\n", "<pasted>")
    text = str(e.value)
    assert "line 2" not in text and not ENGLISH.search(text.replace("<pasted>", "")), text
    assert "2" in text  # how many players at least


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("bad", ["name: x\nplayers: [Ana, Ben]\n  oops: 1\n", "name: x\nplayers: [Ana\n",
                                 "name: x\n\tplayers: [Ana, Ben]\n", "name: 'x\n"])
def test_pasted_text_that_is_not_yaml_says_so_in_our_words(lang: str, bad: str) -> None:
    with language(lang), pytest.raises(ScenarioFileError) as e:
        parse_scenario(bad, "<pasted>")
    text = str(e.value).replace("<pasted>", "")
    assert "YAML" in text and not ENGLISH.search(text), text


@pytest.mark.parametrize("lang", LANGS)
def test_an_option_refused_by_the_builder_says_so_in_our_words(lang: str) -> None:
    b = PositionBuilder(["Ana", "Ben"])
    with language(lang):
        for key, value in (("deck_out", "sometimes"), ("hand_limit", -1), ("targeting", 3)):
            with pytest.raises(BuilderError) as e:
                b.set_option(key, value)
            assert not ENGLISH.search(e.value.message), e.value.message


def test_every_pydantic_error_type_we_meet_has_our_words() -> None:
    cases = []
    for data in ({"hand_limit": -1}, {"targeting": "x"}, {"seed": "abc"}, {"return_is_leaving": "maybe"},
                 {"nope": 1}, {"win_threshold": 0}):
        with pytest.raises(ValidationError) as e:
            Options(**data)  # type: ignore[arg-type]
        cases += e.value.errors()
    with language("fr"):
        words = [validation_message(err) for err in cases]
    assert all(w and not ENGLISH.search(w) for w in words), words
    assert any("declare-first" in w and " or " not in w for w in words), words
    # English keeps pydantic's own message (teachers' tools quote it)
    assert validation_message(cases[0]) == cases[0]["msg"]
