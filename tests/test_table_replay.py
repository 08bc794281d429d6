"""uu.table.replay.replay_moves: the steps of a stretch of moves nobody recorded, made again on a copy, are the
steps `play_until_person` records while the bots play it (one per decision, hidden cards nameless), a
person's consecutive decisions are one step of theirs, at most MAX_STEPS are kept, and the game is untouched."""

from __future__ import annotations

from uu.bots import RandomBot
from uu.engine import new_game
from uu.engine.game import Game
from uu.table.replay import MAX_STEPS, changes_since, play_until_person, positions, replay_moves


def played(seed: int, decisions: int, viewer: int = 0) -> tuple[Game, Game, list[dict]]:
    """(the game at the start, the same game after `decisions` bot decisions, the steps recorded meanwhile)."""
    start = new_game(["You", "Ben", "Cy"], seed=seed)
    game = start.copy()
    bot = RandomBot(seed)
    steps: list[dict] = []
    play_until_person(game, lambda g, seat: bot.choose(g), lambda seat: False, steps, viewer, limit=decisions)
    return start, game, steps


def test_a_stretch_made_again_gives_the_steps_recorded_while_it_was_played():
    start, game, recorded = played(seed=5, decisions=40)
    assert len(recorded) >= 10
    later = start.copy()
    for action in game.moves:                     # the same moves, made without recording (a lesson's runner)
        later.push(action)
    before = later.to_dict()
    steps: list[dict] = []
    assert replay_moves(later, 0, 0, steps, lambda seat: False) == len(game.moves)
    assert steps == recorded
    assert later.to_dict() == before              # made on a copy: the game itself is as it was
    # what the viewer could not see at either end travels nameless (another player's draws)
    hidden = [m for s in steps for m in s["moved"] if m["from"][0] == "deck" and m["to"] != ["hand", 0]]
    assert hidden and all(m["name"] is None and m["id"] is None for m in hidden)


def test_from_the_middle_of_a_game_a_persons_decisions_in_a_row_are_one_step_of_theirs():
    _, game, _ = played(seed=8, decisions=30)
    at, before, log_at = len(game.moves), positions(game), len(game.state.log)
    first = game.pending.player
    bot = RandomBot(3)
    for _ in range(12):
        game.push(bot.choose(game))
    whole = changes_since(game, before, log_at, 0, first)
    assert whole is not None and len(whole["lines"]) >= 3
    steps: list[dict] = []
    assert replay_moves(game, at, 0, steps, lambda seat: True) == 12   # every seat a person's: one step
    assert steps == [{**whole, "yours": True}]
    steps = []
    replay_moves(game, at, 0, steps, lambda seat: False)               # every seat a bot's: one per decision
    assert len(steps) >= 3 and all(s["yours"] == (s["seat"] == 0) for s in steps)
    assert [line for s in steps for line in s["lines"]] == whole["lines"]


def test_a_long_stretch_keeps_the_last_steps_and_folds_the_older_ones():
    start, game, recorded = played(seed=2, decisions=400)
    assert len(recorded) == MAX_STEPS
    steps: list[dict] = []
    replay_moves(game, 0, 0, steps, lambda seat: False)
    assert len(steps) == MAX_STEPS and steps[0]["seat"] is None   # the older ones, folded into the first
    assert steps[1:] == recorded[1:]
