"""The sandbox without widgets (`uu.tutor.sandbox_session.SandboxSession`): build changes refused with a field error, a
pasted scenario's error with its line, start, moves with the bots answering, undo / redo / branches / jumps,
the bot loop, export, edit, and carrying a session over."""

from __future__ import annotations

import pytest

from conftest import SANDBOX_POSITION
from uu.engine.actions import Action
from uu.scenario import build_game, parse_scenario
from uu.scenario.export import position_signature
from uu.tutor.sandbox_session import SandboxSession, field_group

POSITION = SANDBOX_POSITION


def loaded(text: str = POSITION, **kwargs) -> SandboxSession:
    s = SandboxSession(**kwargs)
    assert s.load_yaml(text), s.load_message
    return s


# ---- building ----------------------------------------------------------------------------------------------

def test_a_refused_change_is_a_field_error_and_changes_nothing():
    s = SandboxSession(["Ana", "Ben"])
    assert not s.place("Baby Unicorn (Red)", "hand:1")
    assert list(s.field_errors) == ["hands.Ben"] and "Babies are only ever" in s.field_errors["hands.Ben"]
    assert field_group("hands.Ben") == "cards"
    assert s.builder.hands["Ben"] == []
    assert s.place("Rhinocorn", "hand:1") and s.field_errors == {}
    assert s.builder.hands["Ben"] == ["Rhinocorn"]
    assert not s.place("Rhinocorn", "hand:0") and "already placed" in s.field_errors["hands.Ana"]
    # what a browser may send is checked before the builder sees it
    assert not s.place("Rhinocorn", "stable:9") and list(s.field_errors) == ["zone"]
    assert not s.place("Not a card", "hand:0") and list(s.field_errors) == ["card"]
    assert not s.place("Neigh", 42) and list(s.field_errors) == ["zone"]
    assert s.builder.hands["Ana"] == []


def test_places_moves_and_the_deck_positions():
    s = SandboxSession(["Ana", "Ben"])
    assert s.place("Neigh", "deck-top") and s.place("Unicorn Poison", "deck-at", 0)
    assert s.builder.deck == ["Unicorn Poison", "Neigh"]
    # taken from the deck, a card is found wherever it lies in it; put into it, "deck-at" is a position
    assert s.move("Neigh", "deck-top", "discard") and (s.builder.deck, s.builder.discard) == (["Unicorn Poison"],
                                                                                              ["Neigh"])
    assert s.move("Neigh", "discard", "deck-at", 1) and s.builder.deck == ["Unicorn Poison", "Neigh"]
    assert s.remove("Unicorn Poison", "deck-bottom") and s.builder.deck == ["Neigh"]
    assert not s.remove("Unicorn Poison", "discard") and field_group(next(iter(s.field_errors))) == "cards"
    assert s.clear("deck-top") and s.builder.deck == []
    assert [k for _label, k in s.where_choices()][:4] == ["stable:0", "hand:0", "stable:1", "hand:1"]
    assert "deck-at" not in [k for _label, k in s.where_choices(with_positions=False)]


def test_players_name_turn_and_options():
    s = SandboxSession(["Ana", "Ben"])
    serial = s.builder_serial
    assert not s.set_players(1, ["Ana"]) and "2 to 8" in s.field_errors["players"]
    assert not s.set_players(2, ["Ana", "ana"]) and "players" in s.field_errors
    assert s.builder.players == ["Ana", "Ben"] and s.builder_serial == serial
    assert s.set_players(3, ["Zoe", "Ben", "Cy", "ignored"]) and s.builder.players == ["Zoe", "Ben", "Cy"]
    assert s.builder_serial == serial + 1  # the controls that mirror the builder are set again
    assert s.set_turn("Ben", "action", 4) and s.builder.turn == {"player": "Ben", "phase": "action", "number": 4}
    assert not s.set_turn("Nobody", "action", 4) and field_group(next(iter(s.field_errors))) == "turn"
    assert s.set_option("win_threshold", " 5 ") and s.builder.options["win_threshold"] == 5
    assert s.set_option("win_threshold", "") and s.builder.options.get("win_threshold") is None
    assert not s.set_option("win_threshold", "five") and "options.win_threshold" in s.field_errors
    assert s.set_option("targeting", "neigh-first") and s.builder.options["targeting"] == "neigh-first"
    assert not s.set_option("hand_limit", -3) and "options.hand_limit" in s.field_errors
    assert not s.set_name("evil\u202e") and "name" in s.field_errors


# ---- loading -----------------------------------------------------------------------------------------------

def test_a_pasted_scenario_error_names_its_line_and_changes_nothing():
    s = SandboxSession()
    before, serial = s.builder, s.builder_serial
    assert not s.load_yaml(POSITION.replace("Rhinocorn", "Rhinocron"))
    assert "line 6" in s.load_message and "Rhinocron" in s.load_message and "Rhinocorn" in s.load_message
    assert s.builder is before and s.builder_serial == serial
    assert not s.load_yaml("name: x\nplayers: [Ana, Ben\n") and "not valid YAML" in s.load_message
    assert not s.load_yaml("players: [Ana, Ben]\n#" + "x" * 300_000) and "too long" in s.load_message
    assert s.read_upload("big.yaml", b"x" * 300_000) is None and "too large" in s.load_message
    assert s.read_upload("bad.yaml", b"\xff\xfe\x00") is None and "bad.yaml" in s.load_message
    assert s.read_upload("ok.yaml", POSITION.encode()) == POSITION
    assert s.load_yaml(POSITION) and s.load_message is None and s.builder_serial == serial + 1
    assert s.mode == "build" and s.builder.players == ["Ana", "Ben"] and s.timeline is None


# ---- playing -----------------------------------------------------------------------------------------------

def test_start_is_refused_while_the_position_is_not_legal():
    s = SandboxSession(["Ana", "Ben"])
    s.builder.hands["Ana"].append("Baby Unicorn (Red)")  # as a builder bypassed would hold it
    assert not s.start() and s.mode == "build" and s.timeline is None
    assert "hands.Ana" in s.field_errors and "Play from here" in s.field_errors["start"]


def test_start_a_move_and_the_bots_answer():
    s = loaded()
    assert s.start() and s.mode == "play" and s.controllers == ["you", "random"]
    g = s.game
    assert g is not None and g.pending.player == 0 and s.user_to_decide() and not s.bot_to_decide()
    assert s.viewer() == 0 and s.viewer("all") is None and s.viewer("seat:1") == 1 and s.viewer("seat:7") is None
    s.user_move(Action("draw"))
    assert s.moves_made >= 2  # Ana's draw and at least one decision of Ben's
    assert s.game.is_over or s.game.pending.player == 0
    with pytest.raises(ValueError):
        s.user_move(Action("no such move"))


def test_with_auto_off_a_bot_decides_one_step_at_a_time():
    s = loaded(auto=False)
    s.start()
    s.push(Action("draw"))
    assert s.moves_made == 1 and s.bot_to_decide()
    with pytest.raises(ValueError, match="not a decision of one of your seats"):
        s.user_move(s.game.legal_actions[0])
    n = len(s.timeline)
    assert s.bot_step() and len(s.timeline) == n + 1 and s.message is None
    s.set_controller(1, "you")
    assert s.controllers == ["you", "you"]
    with pytest.raises(ValueError, match="you or a bot"):
        s.set_controller(1, "cheater")
    assert s.controllers == ["you", "you"]


def test_undo_redo_branches_and_jumps():
    s = loaded()
    s.start()
    tl = s.timeline
    first = s.game.legal_actions[0]
    s.user_move(first)
    after_first = tl.current_id
    assert after_first != 0
    s.undo()  # with auto on: back to Ana's decision, past Ben's
    assert tl.current_id == 0 and s.message is None
    s.undo()
    assert s.message and "Nothing to undo" in s.message[1]
    s.redo()
    assert tl.current_id == after_first
    s.undo()
    moved = s.moves_made
    s.redo()
    assert s.moves_made == moved  # a redo is not a move made: nothing for a table to play back
    s.undo()
    other = next(a for a in s.game.legal_actions if a != first)
    s.user_move(other)
    assert len(tl.branches()) == 2 and len(tl.node(0).children) == 2
    s.jump(after_first)
    assert tl.current_id == after_first
    s.jump(0)
    assert s.game.pending.player == 0 and not tl.can_undo and tl.can_redo


def test_the_bots_play_through_the_session_one_loop_and_every_move_is_recorded():
    s = loaded(auto=False)
    s.start()
    assert s.play is not None and s.play.version == 0  # auto off: nobody ran the bots
    s.push(Action("draw"))
    assert s.play.version == 1 and s.bot_step() and s.play.version == 2
    steps = s.play.steps_since(0)
    assert steps is not None and [st.seat for st in steps] == [0, 1]
    s.set_auto(True)
    assert s.user_to_decide() or s.game.pending is None
    assert s.play.version == s.moves_made  # every move forward went through the session


def test_a_hint_belongs_to_the_node_it_was_asked_at():
    s = loaded(hint_deals=2, hint_seconds=None, auto=False)
    s.start()
    seen = []
    assert s.ask_hint(lambda done, total: seen.append((done, total)))
    assert s.hint_here() is s.hint_result is not None and seen
    s.push(Action("draw"))
    assert s.hint_here() is None
    assert not s.ask_hint() and "A hint is for" in s.message[1]  # Ben, a bot, decides


# ---- export, edit, carrying over ---------------------------------------------------------------------------

def test_export_of_the_built_and_the_played_position():
    s = loaded()
    text, error = s.export()
    assert error is None and text == s.export_text
    assert position_signature(build_game(parse_scenario(text))) == \
        position_signature(build_game(parse_scenario(POSITION)))
    s.start()
    s.push(Action("draw"))
    text, error = s.export()
    assert error is None and position_signature(build_game(parse_scenario(text))) == position_signature(s.game)


def test_export_says_why_a_position_cannot_be_written():
    s = loaded(POSITION.replace("Ben: [Basic Unicorn (Blue)]", "Ben: [Neigh]"), auto=False)
    s.start()
    s.set_controller(1, "you")
    s.push(next(a for a in s.game.legal_actions if a.kind == "play" and a.card == "Basic Unicorn (Red)"))
    assert s.game.pending.kind == "respond"
    text, error = s.export()
    assert text is None and s.export_text is None and "Neigh pile" in error
    assert not s.edit() and s.message[0] == "illegal" and s.mode == "play"


def test_edit_builds_on_from_the_position_in_play_and_state_carries_over():
    s = loaded()
    s.start()
    s.push(Action("draw"))
    hand = s.game.hand(0)
    serial = s.builder_serial
    assert s.edit() and s.mode == "build" and sorted(s.builder.hands["Ana"]) == sorted(hand)
    assert s.builder_serial == serial + 1
    s.start()
    new = SandboxSession()
    new.take_state(s)
    assert new.mode == "play" and new.timeline is s.timeline and new.builder is s.builder
    assert new.controllers == s.controllers and new.controllers is not s.controllers
    new.back_to_building()
    assert new.mode == "build" and s.mode == "play"


def test_a_deck_position_that_is_not_a_whole_number_is_refused_in_words() -> None:
    """A client can send anything as the position: refused as the zone field's error, nothing changes."""
    s = SandboxSession()
    before = list(s.builder.deck)
    for bad in ("2", 1.5, -1, True, None):
        assert not s.place("Neigh", "deck-at", bad)
        assert s.field_errors == {"zone": "a deck position is a whole number, 0 for the top"}
        assert s.builder.deck == before
