"""The scenario file format (docs/scenario-format.md): validation messages, position errors, the JSON Schema,
and the runner's advancing rules. Rule ids cited where a test checks an engine rule."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from uu.engine.options import Options
from uu.scenario import PositionError, ScenarioFileError, build_game, parse_scenario, run_scenario
from uu.scenario.model import Scenario

HEAD = "name: t\nplayers: [Ana, Ben]\n"


def err(text: str) -> str:
    with pytest.raises(ScenarioFileError) as e:
        parse_scenario(text, "my.yaml")
    return str(e.value)


def run(text: str):
    return run_scenario(parse_scenario(textwrap.dedent(text)))


# ---- malformed files ----------------------------------------------------------------------------------

def test_unknown_key_names_line_and_field():
    msg = err(HEAD + "turn: {player: Ana}\nfoo: 1\n")
    assert msg.startswith("my.yaml: line 4, foo:")
    assert "Extra inputs are not permitted" in msg


def test_unknown_nested_key_names_line_and_path():
    msg = err(HEAD + "expect:\n  discard: []\n  stablez: {Ana: []}\n")
    assert "line 5" in msg and "expect.stablez" in msg


def test_wrong_type_names_line_and_field():
    msg = err(HEAD + "deck: 5\n")
    assert msg.startswith("my.yaml: line 3, deck:") and "valid list" in msg


def test_wrong_enum_value_lists_allowed():
    msg = err(HEAD + "steps:\n  - {as: Ana, do: dance}\n")
    assert "line 4" in msg and "steps.0.do" in msg and "'play'" in msg


def test_unknown_option_value():
    msg = err(HEAD + "options: {targeting: sideways}\n")
    assert "line 3" in msg and "options.targeting" in msg and "declare-first" in msg


def test_unknown_option_name():
    msg = err(HEAD + "options: {speed: 3}\n")
    assert "options.speed" in msg


def test_too_few_players():
    msg = err("name: t\nplayers: [Ana]\n")
    assert "line 2" in msg and "players" in msg


def test_unknown_player_in_step_names_field():
    msg = err(HEAD + "steps:\n  - {as: Ana, do: draw}\n  - {as: Zed, do: draw}\n")
    assert "steps.1.as" in msg and "'Zed'" in msg and "['Ana', 'Ben']" in msg


def test_unknown_player_in_step_names_its_line():
    msg = err(HEAD + "steps:\n  - {as: Ana, do: draw}\n  - {as: Zed, do: draw}\n")
    assert "line 5" in msg


def test_unknown_player_in_stables():
    msg = err(HEAD + "stables: {Cy: [Rhinocorn]}\n")
    assert "stables" in msg and "'Cy'" in msg


def test_yaml_syntax_error_has_line():
    msg = err(HEAD + "steps: [\n  {as: Ana, do: draw\n  - x: [\n")
    assert msg.startswith("my.yaml: line ") and "not valid YAML" in msg


def test_not_a_mapping():
    assert "expected a mapping" in err("- just\n- a list\n")


def test_card_name_typo_suggests_the_right_name():
    """A misspelt card name fails when the file is loaded, with a suggestion of the catalog name."""
    msg = err(HEAD + "hands: {Ana: [Unicorn Poisen]}\n")
    assert "Unicorn Poisen" in msg and "did you mean 'Unicorn Poison'" in msg


def test_card_name_typo_is_a_validation_error_with_line():
    msg = err(HEAD + "hands:\n  Ana: [Unicorn Poisen]\n")
    assert "line 4" in msg and "hands.Ana.0" in msg and "Unicorn Poison" in msg


# ---- impossible positions ------------------------------------------------------------------------------

def test_too_many_copies_is_a_position_error():
    with pytest.raises(PositionError) as e:
        build_game(parse_scenario(HEAD + "hands: {Ana: [Rhinocorn]}\ndeck: [Rhinocorn]\n"))
    assert "Rhinocorn" in str(e.value) and "copies" in str(e.value)


def test_baby_in_hand_is_a_position_error():
    """setup.babies-never-in-hand: a Baby cannot be placed in a hand."""
    with pytest.raises(PositionError) as e:
        build_game(parse_scenario(HEAD + "hands: {Ana: [Baby Unicorn (Red)]}\n"))
    assert "hands.Ana" in str(e.value) and "Baby" in str(e.value)


def test_instant_in_stable_is_a_position_error():
    with pytest.raises(PositionError):
        build_game(parse_scenario(HEAD + "stables: {Ana: [Neigh]}\n"))


def test_position_error_is_a_failed_run_not_a_crash():
    r = run(HEAD + "hands: {Ana: [Baby Unicorn (Red)]}\n")
    assert not r.passed and r.message.startswith("position:")


# ---- JSON Schema ---------------------------------------------------------------------------------------

def test_json_schema_lists_fields_and_option_defaults():
    schema = Scenario.model_json_schema()
    assert {"name", "players", "options", "turn", "stables", "hands", "deck", "discard", "nursery", "rest",
            "steps", "expect"} <= set(schema["properties"])
    assert set(schema["required"]) == {"name", "players"}
    opts = schema["$defs"]["Options"]["properties"]
    assert opts["targeting"]["default"] == "declare-first"
    assert opts["deck_out"]["default"] == "end"
    json.dumps(schema)  # serialisable


def test_options_documented_with_defaults():
    doc = Options.documented()
    assert doc["targeting"]["default"] == "declare-first"
    assert doc["deck_out"]["default"] == "end"
    assert doc["hand_limit"]["default"] == 7
    assert all(v["description"] for v in doc.values())


# ---- runner --------------------------------------------------------------------------------------------

POISON = """\
name: t
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Rhinocorn, Basic Unicorn (Red)], Cy: [Basic Unicorn (Blue)]}
hands: {Ana: [Unicorn Poison, Yay], Ben: [Neigh, Nanny Cam], Cy: [Neigh]}
deck: [Neigh, Neigh, Neigh]
rest: box
"""


def test_runner_passes_other_players_windows_and_checks_expect():
    """Runner: windows of other players are passed without being written (pile.everyone-asked)."""
    r = run(POISON + """\
steps:
  - {as: Ana, do: play, card: Unicorn Poison, target: {card: Rhinocorn, owner: Ben}}
expect:
  stables: {Ben: [Basic Unicorn (Red)]}
  discard: [Unicorn Poison, Rhinocorn]
  turn: {player: Ben, phase: action, number: 2}
  pending: {player: Ben, kind: action}
""")
    assert r.passed, r.message


def test_runner_step_then_checked_right_after_step():
    r = run(POISON + """\
steps:
  - as: Ana
    do: play
    card: Unicorn Poison
    target: {card: Rhinocorn, owner: Ben}
    then: {pile: [Unicorn Poison], pending: {player: Ben, kind: respond}}
  - {as: Cy, do: respond, card: Neigh, to: Unicorn Poison}
expect:
  stables: {Ben: [Rhinocorn, Basic Unicorn (Red)]}
  discard: [Unicorn Poison, Neigh]
""")
    assert r.passed, r.message


def test_runner_takes_single_action_decisions():
    """Runner: a decision with exactly one legal action is taken (Back Kick: Ben's only card is discarded)."""
    r = run("""\
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Rhinocorn]}
hands: {Ana: [Back Kick]}
deck: [Yay, Slowdown]
rest: box
steps:
  - {as: Ana, do: play, card: Back Kick, target: {card: Rhinocorn, owner: Ben}}
expect:
  discard: [Back Kick, Rhinocorn]
  hands: {Ben: [Yay]}
""")
    assert r.passed, r.message


def test_runner_unmatched_step_fails_with_legal_list():
    r = run(POISON + "steps:\n  - {as: Ana, do: play, card: Yay, into: Cy, target: {player: Ben}}\n")
    assert not r.passed
    assert "step 1" in r.message and "matches no legal action" in r.message and "Legal:" in r.message


def test_runner_wrong_player_fails():
    r = run(POISON + "steps:\n  - {as: Ben, do: draw}\n")
    assert not r.passed and "Legal:" in r.message


def test_runner_ambiguous_step_fails():
    """Runner: a step matching several legal actions (Unicorn Poison with two possible targets, none
    named) fails and says it is ambiguous (option.targeting declare-first)."""
    r = run(POISON + "steps:\n  - {as: Ana, do: play, card: Unicorn Poison}\n")
    assert not r.passed and "ambiguous" in r.message


def test_runner_target_on_play_does_not_match_with_neigh_first():
    r = run(POISON.replace("rest: box", "rest: box\noptions: {targeting: neigh-first}") + """\
steps:
  - {as: Ana, do: play, card: Unicorn Poison, target: {card: Rhinocorn, owner: Ben}}
""")
    assert not r.passed and "matches no legal action" in r.message


def test_runner_illegal_step_passes_when_rejected():
    """effect.impossible-play: Unicorn Poison with no Unicorn to DESTROY is rejected; `illegal: true` passes
    and the state is unchanged (the next step still works)."""
    r = run("""\
name: t
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Yay]}
hands: {Ana: [Unicorn Poison, Slowdown]}
deck: [Neigh, Neigh]
rest: box
steps:
  - {as: Ana, do: play, card: Unicorn Poison, illegal: true}
  - {as: Ana, do: draw}
expect:
  hands: {Ana: [Unicorn Poison, Slowdown, Neigh]}
""")
    assert r.passed, r.message


def test_runner_illegal_step_fails_when_legal():
    r = run(POISON + "steps:\n  - {as: Ana, do: draw, illegal: true}\n")
    assert not r.passed and "should be illegal" in r.message


def test_runner_expect_mismatch_reports_field():
    r = run(POISON + "steps:\n  - {as: Ana, do: draw}\nexpect:\n  hand_sizes: {Ana: 9}\n  winner: none\n")
    assert not r.passed
    assert "hand_sizes.Ana: expected 9, got 3" in r.message


def test_runner_after_last_step_stops_at_real_choice():
    """Runner: after the last step it advances (Ben's window on Yay passed) up to a real choice: Ben's
    optional Rhinocorn at the start of his turn (bot.trigger)."""
    r = run(POISON + """\
steps:
  - {as: Ana, do: play, card: Yay, into: Ana}
expect:
  stables: {Ana: [Baby Unicorn (Red), Yay]}
  pending: {player: Ben, kind: use}
  turn: {player: Ben, phase: beginning, number: 2}
""")
    assert r.passed, r.message


def test_runner_to_must_name_the_top_card():
    """pile.top-only: `to:` on a respond step must name the current top card of the pile."""
    r = run(POISON + """\
steps:
  - {as: Ana, do: play, card: Unicorn Poison, target: {card: Rhinocorn, owner: Ben}}
  - {as: Cy, do: respond, card: Neigh, to: Rhinocorn}
""")
    assert not r.passed and "top card of the pile is Unicorn Poison" in r.message


def test_runner_field_the_action_lacks_does_not_match():
    """Runner: a step carrying a field the action does not have does not match (a `card:` on a draw)."""
    r = run(POISON + "steps:\n  - {as: Ana, do: draw, card: Yay}\n")
    assert not r.passed and "matches no legal action" in r.message


def test_the_example_in_the_docs_passes():
    """The example file of docs/scenario-format.md is a real scenario, and it passes."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md"
    example = re.search(r"```yaml\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert example, "docs/scenario-format.md has no ```yaml example"
    result = run_scenario(parse_scenario(example.group(1), str(doc)))
    assert result.passed, result.message
