"""PlayScreen driven by clicks: a full game against bots, step mode, undo, escaping, errors."""

from __future__ import annotations

import logging
import random

import pytest

from uu.widgets import PlayScreen
from uu.widgets import play as play_module

XSS = "<img src=x onerror=alert(1)>"


def click_random_action(screen: PlayScreen, rng: random.Random) -> None:
    buttons = [b for b, _ in screen.action_buttons]
    assert buttons, "the learner's decision must offer buttons"
    rng.choice(buttons).click()


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
        assert [b.description for b, _ in screen.action_buttons] == [screen.game.describe(a) for a in d.actions]
        click_random_action(screen, rng)
        assert screen.error is None, screen.error
        clicks += 1
        assert clicks < 5000
    assert "Game over" in screen.banner.value and "uu-result" in screen.banner._dom_classes
    assert screen.action_buttons == [] and "Game over" in screen.board_view.board.value
    text = screen.banner.value
    w = screen.game.winner
    assert ("You win!" in text) if w == 0 else ("wins" in text or "Everyone loses" in text)


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
    screen.action_buttons[0][0].click()          # the learner picks a Baby; the bots wait
    assert screen.game.pending.player == 1
    assert not screen.bot_button.disabled and screen.action_buttons == []
    decisions = screen.game.state.decisions
    screen.bot_button.click()
    assert screen.game.state.decisions == decisions + 1 and screen.error is None
    while screen.game.pending.player != 0:
        screen.bot_button.click()
    assert screen.bot_button.disabled and screen.action_buttons
    screen.step_input.value = False               # leaving step mode lets the bots play on
    assert screen.bot_button.layout.display == "none"


def test_bots_wait_visibly_between_decisions(monkeypatch):
    sleeps = []
    monkeypatch.setattr(play_module.time, "sleep", sleeps.append)
    screen = PlayScreen(players=3, seed=4, delay=0.3)
    screen.action_buttons[0][0].click()
    assert sleeps and set(sleeps) == {0.3}


def test_undo_takes_back_a_move_while_nothing_hidden_was_revealed():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    g = screen.game
    assert screen.undo_button.disabled and "uu-undo" in screen.undo_button._dom_classes
    before = g.to_dict()
    screen.action_buttons[0][0].click()           # choosing a Baby reveals nothing
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
    draw = [b for b, a in screen.action_buttons if a.kind == "draw"]
    assert draw, [b.description for b, _ in screen.action_buttons]
    epoch = screen.game.state.info_epoch
    draw[0].click()
    assert screen.game.state.info_epoch > epoch  # a hidden card came to the hand
    after = screen.game.to_dict()
    assert not screen.undo_button.disabled
    screen.undo_button.click()
    assert screen.error is None
    assert "Undo refused" in screen.feedback_box.value and "hidden card" in screen.feedback_box.value
    assert "uu-fb-illegal" in screen.feedback_box.value
    assert screen.game.to_dict() == after and screen.snapshots == []


def test_undo_is_refused_once_the_bots_have_drawn():
    screen = PlayScreen(players=3, seed=4, delay=0)
    screen.action_buttons[0][0].click()            # the Baby; then the bots choose theirs and turns go on
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
    assert "&lt;img src=x onerror=alert(1)&gt;" in screen.board_view.board.value
    html_shown = screen.board_view.board.value + screen.board_view.log_view.value + screen.prompt.value
    assert "<img" not in html_shown


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
    screen.action_buttons[0][0].click()

    def broken(game):
        raise RuntimeError("the bot fell over <b>")

    monkeypatch.setattr(screen.bots[1], "choose", broken)
    with caplog.at_level(logging.ERROR, logger=play_module.__name__):
        screen.bot_button.click()
    assert screen.error == "Something went wrong: the bot fell over <b>"
    assert "the bot fell over &lt;b&gt;" in screen.error_box.value
    assert any("on_bot_next" in r.getMessage() and r.exc_info for r in caplog.records)
    assert screen.board_view.board.value  # the board is still drawn
    monkeypatch.undo()
    screen.bot_button.click()
    assert screen.error is None and screen.error_box.value == ""


def _ids(screen: PlayScreen) -> set[str]:
    return {b.model_id for b in screen.choices.buttons}


def test_action_buttons_are_reused_and_only_choices_on_offer_are_in_the_page():
    screen = PlayScreen(players=3, seed=0, delay=0, step_mode=True)
    rng = random.Random(3)
    made = _ids(screen)
    most = 0
    for _ in range(150):
        g = screen.game
        if g.is_over:
            break
        if screen.bot_button.disabled:
            shown = screen.action_buttons
            most = max(most, len(shown))
            assert [b.description for b, _ in shown] == [g.describe(a) for a in g.pending.actions]
            assert [a for _, a in shown] == list(g.pending.actions)
            # the box holds exactly the buttons on offer, each with the uu-action class and its label as tooltip
            assert list(screen.actions_box.children) == [b for b, _ in shown]
            assert all("uu-action" in b._dom_classes and b.tooltip == b.description for b, _ in shown)
            rng.choice(shown)[0].click()
        else:
            assert screen.action_buttons == [] and screen.actions_box.children == ()
            screen.bot_button.click()
        assert screen.error is None, screen.error
        made |= _ids(screen)
    # two banks, each grown in chunks to the most choices ever offered: no widget per choice per redraw
    pool = screen.choices
    assert len(made) == len(pool.buttons) and len(pool.banks) == 2
    assert all(len(bank.buttons) <= max(32, -(-most // pool.chunk) * pool.chunk) for bank in pool.banks)


def test_redrawing_the_same_choices_sends_nothing_new():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    children, shown = screen.actions_box.children, screen.action_buttons
    screen.refresh()
    screen.undo_button.click()                   # nothing to undo: a message, the same choices
    assert screen.actions_box.children is children and screen.action_buttons == shown


def test_a_click_on_a_button_no_longer_on_offer_is_refused_and_changes_nothing():
    screen = PlayScreen(players=3, seed=4, delay=0, step_mode=True)
    old_button, _ = screen.action_buttons[0]
    spare = [b for b in screen.choices.buttons if b not in screen.actions_box.children][0]
    spare.click()                                # a spare button (never on offer), e.g. a forged click
    assert screen.error is None and "no longer on offer" in screen.feedback_box.value
    screen.action_buttons[1][0].click()          # the learner picks a Baby; the bots are to move
    assert old_button not in screen.actions_box.children
    before = screen.game.to_dict()
    old_button.click()                           # a click sent before the browser dropped that button
    assert screen.error is None and "no longer on offer" in screen.feedback_box.value
    assert screen.game.to_dict() == before and len(screen.snapshots) == 1
    while screen.game.pending.player != 0:       # the learner's next decision, shown in the other bank
        screen.bot_button.click()
    assert old_button not in [b for b, _ in screen.action_buttons]
    before = screen.game.to_dict()
    old_button.click()
    assert "no longer on offer" in screen.feedback_box.value and screen.game.to_dict() == before
    b, a = screen.action_buttons[0]              # a button on offer still works
    b.click()
    assert screen.error is None and "no longer on offer" not in screen.feedback_box.value
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
