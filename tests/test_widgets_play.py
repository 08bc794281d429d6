"""PlayScreen driven by clicks: a full game against bots, step mode, undo, escaping, errors. A move is the
message the table sends on a click (`{"type": "choose", "id", "version"}`), no browser."""

from __future__ import annotations

import logging
import random

import pytest

from uu.widgets import PlayScreen
from uu.widgets import play as play_module

XSS = "<img src=x onerror=alert(1)>"


def send_choice(screen: PlayScreen, index: int, version: int | None = None) -> None:
    """What the browser sends when a gesture on the table is complete."""
    table = screen.table
    table._on_message(table, {"type": "choose", "id": index,
                              "version": table.version if version is None else version}, [])


def click(screen: PlayScreen, action) -> None:
    [index] = [a["id"] for a in screen.table.actions if screen.game.legal_actions[a["id"]] == action][:1]
    send_choice(screen, index)


def click_first(screen: PlayScreen) -> None:
    assert screen.table.actions, "the learner's decision must be on the table"
    send_choice(screen, screen.table.actions[0]["id"])


def click_random_action(screen: PlayScreen, rng: random.Random) -> None:
    ids = [a["id"] for a in screen.table.actions]
    assert ids, "the learner's decision must be on the table"
    send_choice(screen, rng.choice(ids))


@pytest.mark.parametrize("players,seed,targeting", [(2, 1, "declare-first"), (4, 5, "neigh-first"),
                                                    (8, 2, "declare-first")])
def test_a_full_game_against_bots_by_clicking(players, seed, targeting):
    screen = PlayScreen(players=players, seed=seed, targeting=targeting, delay=0)
    assert screen.error is None, screen.error
    g = screen.game
    assert len(g.players) == players and g.players[0] == "You"
    assert g.state.options.targeting == targeting
    rng = random.Random(seed)
    clicks = 0
    while not screen.game.is_over:
        d = screen.game.pending
        assert d.player == 0, "without step mode the bots move until the learner must decide"
        assert screen.moves == list(d.actions) and all(a["gesture"] for a in screen.table.actions)
        click_random_action(screen, rng)
        assert screen.error is None, screen.error
        clicks += 1
        assert clicks < 5000
    assert "Game over" in screen.banner.value and "uu-result" in screen.banner._dom_classes
    assert screen.table.actions == [] and screen.table.observation["over"]
    text = screen.banner.value
    w = screen.game.winner
    assert ("You win" in text) if w == 0 else ("wins" in text or "Everyone loses" in text)


def test_same_seed_same_game():
    def play(seed):
        s = PlayScreen(players=3, seed=seed, delay=0)
        rng = random.Random(0)
        for _ in range(40):
            if s.game.is_over:
                break
            click_random_action(s, rng)
        return [e.text for e in s.game.log]

    assert play(9) == play(9)


def test_step_mode_moves_one_bot_decision_per_click():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    assert screen.bot_button.layout.display != "none"
    click_first(screen)                           # the learner picks a Baby; the bots wait
    assert screen.game.pending.player == 1
    assert not screen.bot_button.disabled and screen.table.actions == []
    decisions = screen.game.state.decisions
    screen.bot_button.click()
    assert screen.game.state.decisions == decisions + 1 and screen.error is None
    while screen.game.pending.player != 0:
        screen.bot_button.click()
    assert screen.bot_button.disabled and screen.table.actions
    screen.step_input.value = False               # leaving step mode lets the bots play on
    assert screen.bot_button.layout.display == "none"


def test_the_bots_moves_are_sent_for_playback_one_by_one():
    screen = PlayScreen(players=3, seed=4, delay=0.9)
    assert screen.table.pace == 900
    before = screen.table.version
    click_first(screen)                          # the Baby; then the bots choose theirs and play on
    replay = screen.table.replay
    assert replay["from"] == before and screen.table.version == before + 1
    steps = replay["steps"]
    assert len(steps) >= 2 and steps[0]["yours"] and not steps[-1]["yours"]
    assert all(s["lines"] for s in steps)        # every move has its caption
    babies = [m for s in steps for m in s["moved"] if m["to"][0] == "stable"]
    assert babies and all(m["name"] and m["name"].startswith("Baby") for m in babies)
    # a card that went from the deck into another player's hand is moved without its name or id
    hidden: list = []
    for _ in range(10):
        if hidden or screen.game.is_over:
            break
        click_first(screen)
        hidden = [m for s in screen.table.replay.get("steps", []) for m in s["moved"]
                  if m["from"][0] == "deck" and m["to"] != ["hand", 0]]
    assert hidden and all(m["name"] is None and m["id"] is None for m in hidden)

def test_slow_bots_send_what_they_did_so_far_in_batches_that_chain(monkeypatch):
    """Bots that think long (Hard, many seats) do not leave the table still until the last has moved: every
    SHOW_BOTS_AFTER_S the moves made so far are drawn, each batch going on from the one before (table.js
    `newTable` joins it to the playback under way), and only the last asks the learner."""
    drawn: list[tuple[int, dict, int]] = []

    def tables(screen: PlayScreen) -> None:
        table, set_table = screen.table, screen.table.set_table

        def recorded(*args: object, **kwargs: object) -> None:
            set_table(*args, **kwargs)
            drawn.append((table.version, table.replay, len(table.actions)))
        monkeypatch.setattr(table, "set_table", recorded)

    def one_move(show_after: float) -> list[tuple[int, dict, int]]:
        monkeypatch.setattr(play_module, "SHOW_BOTS_AFTER_S", show_after)
        screen = PlayScreen(players=6, seed=3, delay=0.9)
        drawn.clear()
        tables(screen)
        before = screen.table.version
        bots_before = len(screen.session.game.moves)
        click_first(screen)
        return before, len(screen.session.game.moves) - bots_before

    before, made = one_move(show_after=-1.0)      # a table after every bot decision
    assert made >= 4 and len(drawn) >= 3, drawn
    frm = before
    for version, replay, actions in drawn:
        assert replay["from"] == frm and replay["steps"], (version, replay)
        frm = version
    assert all(actions == 0 for _, _, actions in drawn[:-1]) and drawn[-1][2] > 0
    assert sum(len(r["steps"]) for _, r, _ in drawn) == made  # every decision played back once
    _, made = one_move(show_after=3600.0)          # quick bots: one table, as before
    assert len(drawn) == 1 and len(drawn[0][1]["steps"]) == made


def test_undo_takes_back_a_move_while_nothing_hidden_was_revealed():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    g = screen.game
    assert screen.undo_button.disabled and "uu-undo" in screen.undo_button._dom_classes
    before = g.to_dict()
    click_first(screen)                           # choosing a Baby reveals nothing
    assert screen.game.to_dict() != before and not screen.undo_button.disabled
    screen.undo_button.click()
    assert screen.error is None
    assert screen.game.to_dict() == before and screen.game.pending.player == 0
    assert "taken back" in screen.feedback_box.value
    assert screen.undo_button.disabled
    screen.undo_button.click()                    # nothing left: a message, not an error
    assert screen.error is None and "no move of yours to undo" in screen.feedback_box.value


def _to_learner_action_phase(screen: PlayScreen) -> None:
    rng = random.Random(1)
    while not (screen.game.pending.kind == "action" and screen.game.pending.player == 0):
        if screen.game.pending.player == 0:
            click_random_action(screen, rng)
        else:
            screen.bot_button.click()


def test_undo_is_refused_after_a_draw():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    _to_learner_action_phase(screen)
    draw = [a for a in screen.table.actions if a["kind"] == "draw"]
    assert draw and draw[0]["gesture"] == ["deck"], screen.table.actions   # one click: the deck
    epoch = screen.game.state.info_epoch
    send_choice(screen, draw[0]["id"])
    assert screen.game.state.info_epoch > epoch  # a hidden card came to the hand
    after = screen.game.to_dict()
    assert not screen.undo_button.disabled
    screen.undo_button.click()
    assert screen.error is None
    assert "Undo refused" in screen.feedback_box.value and "hidden card" in screen.feedback_box.value
    assert "uu-fb-illegal" in screen.feedback_box.value
    assert screen.game.to_dict() == after and screen.undo_marks == []


def test_undo_is_refused_once_the_bots_have_drawn():
    screen = PlayScreen(players=3, seed=4, delay=0)
    click_first(screen)                            # the Baby; then the bots choose theirs and turns go on
    screen.undo_button.click()
    assert "Undo refused" in screen.feedback_box.value


def test_new_game_uses_the_settings_and_escapes_the_name():
    screen = PlayScreen(delay=0)
    screen.name_input.value = XSS
    screen.players_input.value = 5
    screen.targeting_input.value = "neigh-first"
    screen.seed_input.value = 12
    screen.new_button.click()
    assert screen.error is None, screen.error
    g = screen.game
    assert g.players[0] == XSS and len(g.players) == 5 and g.state.options.targeting == "neigh-first"
    rng = random.Random(2)
    for _ in range(15):
        if g.is_over:
            break
        click_random_action(screen, rng)
    # the table gets the name as data (table.js sets it as text); the HTML widgets escape it
    assert screen.table.observation["players"][0]["name"] == XSS
    assert "<img" not in screen.prompt.value + screen.banner.value + screen.feedback_box.value


def test_forged_settings_are_refused_readably():
    screen = PlayScreen(delay=0)
    screen.players_input.set_trait("index", None)
    screen.new_button.click()
    assert screen.error is not None and "2 to 8 players" in screen.error
    assert "Traceback" not in screen.error_box.value
    screen.players_input.value = 3
    screen.name_input.value = "x" * 200
    screen.new_button.click()
    assert "at most 40 characters" in screen.error


def test_a_bot_name_never_collides_with_the_learner():
    screen = PlayScreen(name="Bramble", players=4, delay=0)
    assert screen.error is None and len(set(screen.game.players)) == 4


def test_an_error_in_a_callback_is_shown_and_the_screen_keeps_working(monkeypatch, caplog):
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    click_first(screen)

    def broken(game):
        raise RuntimeError("the bot fell over <b>")

    monkeypatch.setattr(screen.bots[1], "choose", broken)
    with caplog.at_level(logging.ERROR, logger=play_module.__name__):
        screen.bot_button.click()
    assert screen.error == "Something went wrong: the bot fell over <b>"
    assert "the bot fell over &lt;b&gt;" in screen.error_box.value
    assert any("on_bot_next" in r.getMessage() and r.exc_info for r in caplog.records)
    assert screen.table.observation["players"]  # the table is still drawn
    monkeypatch.undo()
    screen.bot_button.click()
    assert screen.error is None and screen.error_box.value == ""


def test_the_table_offers_exactly_the_learners_moves_and_bots_moves_offer_none():
    screen = PlayScreen(players=3, seed=0, delay=0, step_mode=True)
    rng = random.Random(3)
    for _ in range(150):
        g = screen.game
        if g.is_over:
            break
        if screen.bot_button.disabled:
            assert screen.moves == list(g.pending.actions)
            assert screen.table.observation["decision"]["yours"]
            click_random_action(screen, rng)
        else:
            assert screen.table.actions == [] and not screen.table.observation["decision"]["yours"]
            screen.bot_button.click()
        assert screen.error is None, screen.error


def test_redrawing_the_same_table_sends_nothing_new():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    version, actions = screen.table.version, screen.table.actions
    screen.refresh()
    screen.undo_button.click()                   # nothing to undo: a message, the same table
    assert screen.table.version == version and screen.table.actions == actions


def test_a_click_made_on_an_older_table_is_refused_and_changes_nothing():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    old_version, old_id = screen.table.version, screen.table.actions[0]["id"]
    send_choice(screen, len(screen.game.legal_actions) + 5)   # no such move (a forged click)
    assert screen.error is None and "older table" in screen.feedback_box.value
    send_choice(screen, screen.table.actions[1]["id"])          # the learner picks a Baby; the bots are to move
    before = screen.game.to_dict()
    send_choice(screen, old_id, old_version)     # a click sent before the browser drew the newer table
    assert screen.error is None and "older table" in screen.feedback_box.value
    assert screen.game.to_dict() == before and len(screen.undo_marks) == 1
    while screen.game.pending.player != 0:       # the learner's next decision
        screen.bot_button.click()
    before = screen.game.to_dict()
    send_choice(screen, old_id, old_version)
    assert "older table" in screen.feedback_box.value and screen.game.to_dict() == before
    click_first(screen)                          # a move on the table shown now still works
    assert screen.error is None and "older table" not in screen.feedback_box.value
    assert screen.game.to_dict() != before


def test_a_retired_bank_is_reused_only_after_a_click_on_a_newer_one():
    import ipywidgets as widgets

    from uu.widgets.common import ActionButtons

    chosen, stale = [], []
    pool = ActionButtons(widgets.Box(), chosen.append, lambda: stale.append(1), reserve=2, chunk=2)
    pool.show([("a", 1), ("b", 2)])
    first = pool.current
    a_button = pool.shown[0][0]
    pool.show([("c", 3)])                        # no click on the new bank yet: the old one stays retired
    pool.show([("d", 4)])
    assert len({id(pool.current), id(first)}) == 2 and len(pool.banks) == 3
    a_button.click()                             # still the old choice's button: refused
    assert stale == [1] and chosen == []
    pool.shown[0][0].click()                     # a click on the newest bank frees the older ones
    assert chosen == [4] and all(b.gen is None for b in pool.banks if b is not pool.current)
    pool.show([("a", 1), ("b", 2)])              # labels already on a free bank's buttons are kept
    assert [b.description for b, _ in pool.shown] == ["a", "b"] and len(pool.banks) == 3


@pytest.mark.parametrize("level,kind", [("easy", "RandomBot"), ("normal", "HeuristicBot"), ("hard", "SearchBot")])
def test_the_bots_play_at_the_chosen_level(level, kind):
    screen = PlayScreen(players=3, seed=4, delay=0, level=level)
    assert [type(b).__name__ for b in screen.bots] == [kind] * 3
    rng = random.Random(0)
    for _ in range(3):  # a few moves: the level's bots answer
        if screen.game.pending is None:
            break
        click_random_action(screen, rng)
    assert screen.error is None, screen.error


def test_a_forged_level_is_refused_readably():
    screen = PlayScreen(players=2, seed=1, delay=0)
    screen.level_input.options = [*screen.level_input.options, ("cheat", "god")]
    screen.level_input.value = "god"
    screen.new_button.click()
    assert screen.error is not None and "Easy, Normal or Hard" in screen.error


def test_the_hint_explains_the_learners_decision_with_the_numbers_one_click_away():
    screen = PlayScreen(players=3, seed=2, delay=0, level="normal")
    rng = random.Random(1)
    while screen.game.pending is not None and len(screen.game.pending.actions) < 2:
        click_random_action(screen, rng)
    assert not screen.hint_button.disabled
    screen.hint_button.click()
    box = screen.hint_box.value
    assert screen.error is None and "<details" in box and "chance to win" in box
    assert "best move" in box or "as good" in box  # a verdict only as sure as the numbers
    click_first(screen)
    assert screen.hint_box.value == ""  # a hint belongs to the decision it was asked for


def test_a_hint_is_refused_when_it_is_not_the_learners_move():
    screen = PlayScreen(players=2, seed=3, delay=0, step_mode=True)
    while screen.game.pending is not None and screen.game.pending.player == PlayScreen.LEARNER:
        click_first(screen)
    screen.on_hint()
    assert screen.hint_box.value == "" and "your own decision" in screen.feedback_box.value
