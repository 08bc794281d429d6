"""SandboxScreen driven the way clicks drive it: build a position, load YAML, play on with a game tree (undo,
redo, branches, jumps), previews, export, hints, escaping, errors in callbacks, and App navigation."""

from __future__ import annotations

import datetime
import logging

import pytest

from conftest import SANDBOX_POSITION
from uu.engine.actions import Action
from uu.scenario import build_game, parse_scenario
from uu.scenario.export import position_signature
from uu.session import session as session_module  # where every screen's hint is asked (Session.hint)
from uu.widgets import App, SandboxScreen, sandbox_play

XSS = "<img src=x onerror=1>"
NOW = datetime.datetime.now(datetime.timezone.utc)

POSITION = SANDBOX_POSITION


def place(screen: SandboxScreen, card: str, zone: str) -> None:
    screen.build.card_input.value = card
    screen.build.zone_input.value = zone
    screen.build.place_button.click()


def loaded(text: str = POSITION, **kwargs) -> SandboxScreen:
    screen = SandboxScreen(**kwargs)
    screen.share.yaml_input.value = text
    screen.share.load_button.click()
    assert screen.error is None and screen.session.load_message is None, (screen.error, screen.session.load_message)
    return screen


def all_html(screen) -> str:
    """The value of every HTML widget under `screen`."""
    import ipywidgets as widgets

    out, stack = [], [screen]
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.HTML):
            out.append(w.value)
        stack.extend(getattr(w, "children", ()))
    return "\n".join(out)


# ---- building -------------------------------------------------------------------------------------------

def test_build_a_position_by_clicking_and_play_from_it():
    screen = SandboxScreen()
    assert screen.error is None and screen.mode == "build"
    labels = dict((v, k) for k, v in screen.build.card_input.options)
    assert "· 3 of 3 left" in labels["Basic Unicorn (Red)"]
    babies = [label for name, label in labels.items() if name.startswith("Baby Unicorn")]
    assert any(label.endswith("· in the Nursery") for label in babies)
    assert sum(label.endswith("· 0 in the Nursery") for label in babies) == 3, "one Baby in each Stable"
    assert not any(") (" in label for label in labels.values()), "no doubled parentheses in the card picker"
    place(screen, "Basic Unicorn (Red)", "hand:1")
    place(screen, "Rhinocorn", "stable:0")
    place(screen, "Neigh", "deck-top")
    screen.build.card_input.value = "Unicorn Poison"
    screen.build.zone_input.value = "deck-at"
    screen.build.index_input.value = 0
    screen.build.place_button.click()
    assert screen.error is None and screen.session.field_errors == {}, screen.session.field_errors
    b = screen.builder
    assert b.hands["Ben"] == ["Basic Unicorn (Red)"] and "Rhinocorn" in b.stables["Ana"]
    assert b.deck == ["Unicorn Poison", "Neigh"]
    assert "· 2 of 3 left" in dict((v, k) for k, v in screen.build.card_input.options)["Basic Unicorn (Red)"]
    assert "Rhinocorn" in screen.build.position_view.value
    # move and remove
    screen.build.card_input.value = "Neigh"
    screen.build.zone_input.value = "deck-top"
    screen.build.to_zone_input.value = "discard"
    screen.build.move_button.click()
    assert b.deck == ["Unicorn Poison"] and b.discard == ["Neigh"]
    screen.build.zone_input.value = "discard"
    screen.build.remove_button.click()
    assert b.discard == [] and screen.session.field_errors == {}
    # whose turn and which phase, an option
    screen.build.turn_player_input.value = "Ben"
    screen.build.turn_phase_input.value = "action"
    screen.build.option_inputs["targeting"].value = "neigh-first"
    assert b.turn["player"] == "Ben" and b.options["targeting"] == "neigh-first"
    screen.build.start_button.click()
    assert screen.error is None and screen.mode == "play"
    g = screen.game
    assert g.players[g.turn[0]] == "Ben" and g.turn[1] == "action"
    assert g.state.options.targeting == "neigh-first"
    assert g.hand(1) == ["Basic Unicorn (Red)"]
    assert screen.play.box.layout.display != "none" and screen.build.box.layout.display == "none"


def test_errors_show_inline_next_to_their_control():
    screen = SandboxScreen(players=["Ana", "Ben"])
    place(screen, "Baby Unicorn (Red)", "hand:1")
    assert screen.error is None  # not a traceback, not the error box
    assert list(screen.session.field_errors) == ["hands.Ben"]
    msg = screen.build.field_msgs["cards"].value
    assert "data-field='hands.Ben'" in msg and "Babies are only ever in a Stable or the Nursery" in msg
    assert screen.builder.hands["Ben"] == []
    place(screen, "Rhinocorn", "hand:0")
    assert screen.session.field_errors == {} and screen.build.field_msgs["cards"].value == ""
    place(screen, "Rhinocorn", "hand:1")  # one copy only
    assert list(screen.session.field_errors) == ["hands.Ben"] and "already placed" in screen.session.field_errors["hands.Ben"]
    assert "uu-field-error" in screen.build.field_msgs["cards"].value
    assert screen.builder.hands["Ben"] == []
    # players and options have their own messages
    screen.build.name_inputs[1].value = "ana"
    screen.build.players_apply.click()
    assert "players" in screen.session.field_errors and "different" in screen.build.field_msgs["players"].value
    assert screen.builder.players == ["Ana", "Ben"]
    screen.build.option_inputs["hand_limit"].value = -3
    assert "options.hand_limit" in screen.session.field_errors
    assert "data-field='options.hand_limit'" in screen.build.field_msgs["options"].value
    assert screen.error is None


def test_players_can_be_renamed_added_and_dropped():
    screen = SandboxScreen(players=["Ana", "Ben"])
    screen.build.players_count.value = 4
    screen.build.name_inputs[0].value = "Zoe"
    screen.build.players_apply.click()
    assert screen.error is None and screen.session.field_errors == {}
    assert screen.builder.players == ["Zoe", "Ben", "Cy", "Dee"]
    assert list(screen.build.turn_player_input.options) == ["Zoe", "Ben", "Cy", "Dee"]
    assert "Dee's hand" in [label for label, _ in screen.build.zone_input.options]


# ---- loading ---------------------------------------------------------------------------------------------

def test_pasted_yaml_errors_show_their_line():
    screen = SandboxScreen()
    screen.share.yaml_input.value = POSITION.replace("Rhinocorn", "Rhinocron")
    screen.share.load_button.click()
    assert screen.error is None
    msg = screen.share.load_msg.value
    assert "line 6" in msg and "Rhinocron" in msg and "Rhinocorn" in msg  # the line and a suggestion
    assert screen.builder.players == ["Ana", "Ben", "Cy"]  # unchanged
    screen.share.yaml_input.value = "name: x\nplayers: [Ana, Ben\n"
    screen.share.load_button.click()
    assert "line" in screen.session.load_message and "not valid YAML" in screen.share.load_msg.value
    screen.share.yaml_input.value = POSITION.replace("stables: {Ana: [Baby Unicorn (Red)]",
                                               "stables: {Ana: [Neigh]")
    screen.share.load_button.click()
    assert "line 5" in screen.session.load_message and "Instant" in screen.session.load_message


def test_valid_yaml_loads_and_plays_on():
    screen = loaded()
    assert screen.mode == "build" and screen.builder.players == ["Ana", "Ben"]
    assert screen.build.name_input.value == "Sandbox test" and screen.share.load_msg.value == ""
    screen.build.start_button.click()
    assert screen.error is None and screen.mode == "play"
    descriptions = [screen.game.describe(a) for a in screen.moves]
    assert "draw" in descriptions and any("Rhinocorn" in d for d in descriptions)
    # the moves are on the table, drawn as Ana (the seat deciding) sees it
    assert screen.play.table.observation["viewer"] == 0 and screen.play.table.observation["decision"]["yours"]
    assert [a["id"] for a in screen.play.table.actions] == list(range(len(screen.game.legal_actions)))


def test_yaml_from_a_file_upload():
    screen = SandboxScreen()
    data = POSITION.encode()
    screen.share.upload.value = ({"name": "mine.yaml", "type": "application/x-yaml", "size": len(data),
                            "content": memoryview(data), "last_modified": NOW},)
    assert screen.error is None and screen.session.load_message is None
    assert screen.builder.name == "Sandbox test" and "Rhinocorn" in screen.share.yaml_input.value
    assert screen.share.upload.value == ()
    bad = POSITION.replace("Rhinocorn", "Rhinocron").encode()
    screen.share.upload.value = ({"name": "bad.yaml", "type": "", "size": len(bad), "content": memoryview(bad),
                            "last_modified": NOW},)
    assert "bad.yaml" in screen.session.load_message and "line 6" in screen.session.load_message


def draw_move(screen: SandboxScreen) -> Action:
    return next(a for a in screen.moves if a.kind == "draw")


# ---- playing on: the table ---------------------------------------------------------------------------

def test_the_view_as_setting_decides_how_the_table_is_drawn_and_what_is_lit():
    screen = loaded(auto=False)
    screen.build.start_button.click()
    g = screen.game
    # the seat deciding (Ana, yours): her view, Ben's hand as backs, her moves lit
    obs, actions = screen.play.table.observation, screen.play.table.actions
    assert obs["viewer"] == 0 and len(actions) == len(g.legal_actions)
    assert all(c["name"] is None for c in obs["players"][1]["hand"])
    # everything: every hand open (the analyst's view) and still Ana's moves, whose keys are on that table
    screen.play.viewer_input.value = "all"
    obs, actions = screen.play.table.observation, screen.play.table.actions
    assert obs["viewer"] is None and obs["decision"]["yours"] and len(actions) == len(g.legal_actions)
    assert all(c["name"] for c in obs["players"][1]["hand"])
    keys = {c["key"] for p in obs["players"] for c in p["hand"] + p["stable"]}
    keys |= {"deck", "pile", "decline"} | {f"seat:{p}" for p in range(len(g.players))}
    keys |= {c["key"] for c in obs["nursery"] + obs["discard"]}
    assert all(a["gesture"][0] in keys or a["gesture"][0].startswith("option:") for a in actions)
    # another seat's view: Ana's cards are backs there, so nothing is offered, and the prompt says why
    screen.play.viewer_input.value = "seat:1"
    assert screen.play.table.observation["viewer"] == 1 and screen.play.table.actions == [] and screen.moves == []
    assert "View as" in screen.play.prompt.value
    screen.play.viewer_input.value = "auto"
    assert screen.moves and screen.error is None


def test_a_click_on_the_table_plays_and_a_stale_one_changes_nothing():
    screen = loaded(auto=False)
    screen.build.start_button.click()
    hand = len(screen.game.hand(0))
    draw = [a["id"] for a in screen.play.table.actions if a["kind"] == "draw"][0]
    old = screen.play.table.version
    screen.play.table._on_message(screen.play.table, {"type": "choose", "id": draw, "version": old}, [])
    assert screen.error is None and len(screen.timeline) == 2 and screen.timeline.current.parent == 0
    assert len(screen.game.hand(0)) == hand + 1
    screen.tree.undo_button.click()
    n = len(screen.timeline)
    screen.play.table._on_message(screen.play.table, {"type": "choose", "id": draw, "version": old}, [])  # an older table
    assert len(screen.timeline) == n and screen.timeline.current_id == 0
    assert "older table" in screen.play.feedback_box.value


# ---- playing on: the game tree ------------------------------------------------------------------------

def test_moves_undo_redo_branches_and_jumps():
    screen = loaded()
    screen.build.start_button.click()
    tl = screen.timeline
    assert screen.session.controllers == ["you", "random"] and screen.play.auto_input.value
    first = screen.moves[0]
    assert screen.click_move(first)        # Ana's move; Ben (a bot) answers until Ana decides again
    assert screen.error is None and len(tl) > 1
    assert screen.game.pending.player == 0 or screen.game.is_over
    after_first = tl.current_id
    screen.tree.undo_button.click()             # back to Ana's decision at the start
    assert tl.current_id == 0 and screen.error is None
    screen.tree.redo_button.click()
    assert tl.current_id == after_first
    screen.tree.undo_button.click()
    other = [a for a in screen.moves if a != first][0]
    assert screen.click_move(other)        # a different move: a second branch
    assert screen.error is None
    assert len(tl.branches()) == 2 and len(tl.current.children) == 0
    assert len(tl.node(0).children) == 2
    # the tree lists every node (a window), the current one highlighted
    current = [b for b in screen.tree.timeline_box.children if "uu-tl-current" in getattr(b, "_dom_classes", ())]
    assert len(current) == 1 and current[0] is screen.tree.node_buttons[tl.current_id]
    assert "2 lines of play" in screen.tree.timeline_note.value
    # click a node to jump there
    screen.tree.node_buttons[after_first].click()
    assert tl.current_id == after_first and screen.error is None
    assert "uu-tl-current" in screen.tree.node_buttons[after_first]._dom_classes
    assert "uu-tl-current" not in screen.tree.node_buttons[0]._dom_classes
    screen.tree.node_buttons[0].click()
    assert tl.current_id == 0 and screen.tree.undo_button.disabled and not screen.tree.redo_button.disabled


def test_bots_step_on_a_button_press_when_auto_is_off():
    screen = loaded(auto=False)
    screen.build.start_button.click()
    assert screen.click_move(draw_move(screen))
    g = screen.game
    assert g.pending.player == 1 and screen.moves == []  # Ben is a bot: nothing lit on the table, it waits
    assert screen.play.table.actions == [] and screen.play.table.observation["viewer"] == 0
    assert not screen.play.bot_button.disabled and "Bot: next" in screen.play.prompt.value
    n = len(screen.timeline)
    screen.play.bot_button.click()
    assert len(screen.timeline) == n + 1 and screen.error is None
    screen.tree.undo_button.click()                 # auto off: one decision back
    assert len(screen.timeline.path()) == n
    screen.play.controller_inputs[1].value = "you"  # now Ben is played by the user too
    assert screen.session.controllers == ["you", "you"] and screen.moves
    assert screen.play.table.observation["viewer"] == 1  # the table turns to the seat deciding
    screen.play.auto_input.value = True
    assert screen.error is None


def test_preview_shows_every_option_without_changing_the_game():
    screen = loaded()
    screen.build.start_button.click()
    g = screen.game
    before = position_signature(g)
    log_before = len(g.log)
    screen.play.preview_input.value = True
    assert screen.error is None
    html = screen.play.preview_box.value
    assert html.count("uu-preview-action") == len(g.legal_actions)
    assert "Unicorns" in html and "Unicorn Poison" not in html  # the deck's top is hidden from Ana
    assert position_signature(screen.game) == before and len(screen.game.log) == log_before
    assert screen.timeline.current_id == 0 and len(screen.timeline) == 1
    screen.play.viewer_input.value = "all"
    assert "Unicorn Poison" in screen.play.preview_box.value  # everything shown when asked
    assert position_signature(screen.game) == before
    screen.play.preview_input.value = False
    assert screen.play.preview_box.value == ""


# ---- export ----------------------------------------------------------------------------------------------

def test_export_loads_back_to_the_same_position():
    screen = loaded()
    screen.build.start_button.click()
    assert screen.click_move(draw_move(screen))
    assert screen.error is None
    g = screen.game
    text = screen.share.export_area.value
    assert text and screen.share.export_area.disabled and screen.share.export_msg.value == ""
    back = build_game(parse_scenario(text))
    assert position_signature(back) == position_signature(g)
    link = screen.share.export_link.value
    assert "class='uu-download'" in link and "href='data:text/yaml;charset=utf-8," in link
    assert "download='position.yaml'" in link


def test_export_says_why_when_the_position_cannot_be_written():
    screen = loaded(POSITION.replace("Ben: [Basic Unicorn (Blue)]", "Ben: [Neigh]"), auto=False)
    screen.build.start_button.click()
    screen.play.controller_inputs[1].value = "you"
    play = [a for a in screen.moves if a.kind == "play" and a.card == "Basic Unicorn (Red)"][0]
    assert screen.click_move(play)
    assert screen.game.pending.kind == "respond"
    assert screen.share.export_area.value == "" and screen.session.export_text is None
    assert "Neigh pile" in screen.share.export_msg.value and screen.share.export_link.value == ""
    assert screen.error is None


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_export_message_and_the_tree_note_are_in_the_language(lang: str) -> None:
    """Issue 41: "cannot export this position" and the game tree's "1 node, 1 line of play; at node 0" were
    English on a French or German sandbox."""
    from uu.i18n import language

    with language(lang):
        screen = loaded(POSITION.replace("Ben: [Basic Unicorn (Blue)]", "Ben: [Neigh]"), auto=False)
        screen.build.start_button.click()
        screen.play.controller_inputs[1].value = "you"
        play = [a for a in screen.moves if a.kind == "play" and a.card == "Basic Unicorn (Red)"][0]
        assert screen.click_move(play)
        message, note = screen.share.export_msg.value, screen.tree.timeline_note.value
    assert message and "cannot export" not in message, message
    assert note and not any(w in note for w in ("node", "line of play", "lines of play", "move ")), note
    assert screen.error is None


def test_edit_the_position_on_the_table():
    screen = loaded()
    screen.build.start_button.click()
    assert screen.click_move(draw_move(screen))
    hand = screen.game.hand(0)
    screen.play.edit_button.click()
    assert screen.error is None and screen.mode == "build"
    assert sorted(screen.builder.hands["Ana"]) == sorted(hand)
    screen.play.back_button.click()  # in build mode already: nothing breaks
    assert screen.error is None


# ---- hint ------------------------------------------------------------------------------------------------

def test_hint_shows_a_table_with_a_progress_bar(monkeypatch):
    calls = []
    real = session_module.hint

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(session_module, "hint", spy)
    screen = loaded(hint_deals=3, hint_seconds=None)
    screen.build.start_button.click()
    assert not screen.play.hint_button.disabled
    screen.play.hint_button.click()
    assert screen.error is None, screen.error
    assert calls and calls[0]["deals"] == 3 and callable(calls[0]["progress"])
    table = screen.play.hint_box.value
    assert "<table class=\"uu-hint\"" in table and "chance to win" in table and "<details" in table
    assert table.index("uu-hint-why") < table.index("<details")  # the sentences first, the table one click away
    played = screen.session.hint_result.games
    assert played >= 3 * sum(1 for r in screen.session.hint_result.rows if r.games)
    assert screen.play.hint_progress.value == screen.play.hint_progress.max == played
    assert screen.play.hint_progress.layout.display == "none"
    assert screen.timeline.current_id == 0
    assert screen.click_move(draw_move(screen))
    assert screen.play.hint_box.value == ""  # a hint belongs to the position it was asked for


# ---- safety ----------------------------------------------------------------------------------------------

def test_markup_in_a_player_name_is_escaped():
    screen = SandboxScreen(players=["Ana", "Ben"])
    screen.build.name_inputs[1].value = XSS
    screen.build.players_apply.click()
    assert screen.error is None and screen.builder.players == ["Ana", XSS], screen.session.field_errors
    place(screen, "Basic Unicorn (Red)", "hand:1")
    place(screen, "Baby Unicorn (Red)", "hand:1")   # an inline error that names the player
    assert XSS not in all_html(screen) and "&lt;img" in screen.build.position_view.value
    assert "&lt;img" in screen.build.field_msgs["cards"].value
    screen.build.start_button.click()
    screen.play.viewer_input.value = "all"
    screen.play.preview_input.value = True
    assert screen.error is None and screen.mode == "play"
    html = all_html(screen)
    assert XSS not in html and "&lt;img src=x onerror=1&gt;" in html
    assert XSS in screen.share.export_area.value  # plain text in a textarea: shown as typed, loads back
    assert XSS not in screen.share.export_link.value


def test_an_error_in_a_callback_shows_a_message_and_the_screen_keeps_working(monkeypatch, caplog):
    screen = loaded()

    def boom(*_a, **_k):
        raise RuntimeError("kaboom")

    real_place = screen.builder.place
    monkeypatch.setattr(screen.builder, "place", boom)
    with caplog.at_level(logging.ERROR, logger="uu.widgets.sandbox_build"):
        place(screen, "Neigh", "hand:0")
    assert screen.error and "kaboom" in screen.error and "uu-error-box" in screen.error_box.value
    assert any("kaboom" in r.getMessage() or r.exc_info for r in caplog.records)
    monkeypatch.setattr(screen.builder, "place", real_place)
    place(screen, "Neigh", "hand:0")
    assert screen.error is None and screen.builder.hands["Ana"][-1] == "Neigh"
    screen.build.start_button.click()
    monkeypatch.setattr(session_module, "hint", boom)
    screen.play.hint_button.click()
    assert "kaboom" in screen.error and screen.play.hint_progress.layout.display == "none"
    assert screen.click_move(screen.moves[0])
    assert screen.error is None and len(screen.timeline) > 1
    monkeypatch.setattr(sandbox_play, "preview_all", boom)
    screen.play.preview_input.value = True            # the drawing itself fails: a message, not a blank screen
    assert screen.error
    screen.play.preview_input.value = False
    screen.tree.undo_button.click()
    assert screen.error is None and screen.timeline.current_id == 0


def test_widget_values_from_the_client_are_validated():
    screen = SandboxScreen()
    screen.build.zone_input.options = [("forged", "stable:99")]
    screen.build.place_button.click()
    assert screen.error is None and "zone" in screen.session.field_errors


# ---- the App ---------------------------------------------------------------------------------------------

def test_app_navigation_home_sandbox_home():
    app = App()
    assert app.screen is app.home and app.error is None
    app.home.sandbox_button.click()
    assert app.error is None and isinstance(app.screen, SandboxScreen)
    sandbox = app.screen
    assert app.children[-1] is sandbox and app.home_button.layout.display != "none"
    app.home_button.click()
    assert app.screen is app.home and app.error is None
    app.home.sandbox_button.click()
    assert app.screen is sandbox  # kept for the session
    assert isinstance(App(start="sandbox").screen, SandboxScreen)


@pytest.mark.parametrize("n", [2, 8])
def test_any_number_of_players_plays_on(n):
    names = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"][:n]
    screen = SandboxScreen(players=names)
    screen.build.start_button.click()
    assert screen.error is None and screen.mode == "play" and len(screen.play.controller_inputs) == n
    for _ in range(5):
        if not screen.moves:
            break
        assert screen.click_move(screen.moves[-1])
    assert screen.error is None
