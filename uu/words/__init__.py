"""The words layer: every sentence the tutor says about the rules, built from the data the lower layers return.

Above `uu.tutor` (which returns facts: a refused move, a rule id, a decision) and beside `uu.render`: nothing
below imports it. `rulewords` gives each rule id a learner's title, sentence and place in the rulebook;
`whynot` says why a move is not legal now, `cardwhy` why a card cannot be played or a target chosen, both
from the shared phrasing of cards, players and zones in `phrasing` and of the pending decision in `asking`;
`lesson` is the lesson runner that speaks them; `hint` and `review` say the hint and the review of a game
from the data `uu.bots` and `uu.tutor.game_review` compute.
"""
