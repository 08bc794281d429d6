"""uu.render: cards, the board as one seat may see it, the log with "why?", and the safe Markdown."""

from __future__ import annotations

import re
import subprocess
import sys

from uu import render
from uu.engine import new_game
from uu.engine.actions import Action
from uu.scenario.load import parse_scenario
from uu.scenario.to_game import build_game

XSS = "<img src=x onerror=alert(1)>"


def game_from(text: str):
    return build_game(parse_scenario(text))


def test_render_never_imports_ipywidgets():
    code = "import sys, uu.render; assert 'ipywidgets' not in sys.modules, 'ipywidgets imported'; print('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


def test_cards_carry_type_colour_label_and_text():
    from uu.cards import catalog

    for name, kind, colour in [("Baby Unicorn (Red)", "baby", "#8e44ad"), ("Neigh", "instant", "#c62828"),
                               ("Nanny Cam", "downgrade", "#f9cf00"), ("Yay", "upgrade", "#ef6c00")]:
        out = render.card_html(name)
        assert f"uu-type-{kind}" in out and colour in out
        assert render.TYPE_LABELS[kind] in out                       # the type in words, not only colour
        text = render.esc(catalog()[name].text)
        assert f"title='{name}, " in out and text in out              # hover (title) and click (details)
        assert out.startswith("<details")
    back = render.card_back_html()
    assert "uu-card-back" in back and "Neigh" not in back


def test_every_catalog_card_has_a_colour():
    from uu.cards import catalog

    for d in catalog():
        assert d.type.value in render.TYPE_COLOURS, d.name


def test_markdown_is_escaped_first():
    out = render.markdown_html(f"Hello **bold** and *it* {XSS} `a*b*`\n\n- one\n- two *x*\n\n1. first\n2. second")
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    assert "<p>Hello <b>bold</b> and <i>it</i>" in out
    assert "<code>a*b*</code>" in out                  # no formatting inside code
    assert "<ul><li>one</li><li>two <i>x</i></li></ul>" in out
    assert "<ol><li>first</li><li>second</li></ol>" in out
    assert render.markdown_html("<script>alert(1)</script>") == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
    assert render.markdown_html('**<b onclick="x">**') == "<p><b>&lt;b onclick=&quot;x&quot;&gt;</b></p>"
    assert render.markdown_html("one\ntwo\n\nthree").count("<p>") == 2


def test_board_shows_only_what_the_viewer_may_see():
    g = new_game(["Ana", "Ben", "Cy"], seed=3)
    mine = g.hand(0)
    out = render.board_html(g, 0)
    assert out.count("uu-seat") == 3
    assert out.count("uu-card-back'") == len(g.hand(1)) + len(g.hand(2)) + 1   # + the deck
    for name in mine:
        assert render.esc(name) in out
    hidden = set(g.hand(1)) - set(mine) - set(g.nursery)
    for name in hidden:
        assert f"<span class='uu-card-name'>{render.esc(name)}</span>" not in out
    everything = render.board_html(g, None)
    for name in g.hand(1):
        assert render.esc(name) in everything
    assert "Deck:" in out and "Discard pile:" in out and "Nursery:" in out and "13 Babies" in out
    assert "Setup: choosing Babies" in out and "Waiting for <b>you</b>" in out


def test_nanny_cam_shows_a_hand():
    g = game_from("""
name: nanny
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue), Nanny Cam]}
hands: {Ana: [Neigh], Ben: [Super Neigh, Yay]}
rest: box
""")
    out = render.board_html(g, 0)
    assert "face up: Nanny Cam" in out and "Super Neigh" in out and "uu-card-back'" not in out


def test_phase_track_pile_and_chain():
    g = game_from("""
name: pile
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Basic Unicorn (Red)], Cy: [Baby Unicorn (Pink)]}
hands: {Ana: [Unicorn Poison], Ben: [Neigh], Cy: [Neigh]}
""")
    out = render.board_html(g, 0)
    current = re.findall(r"<span class='uu-phase uu-phase-current'[^>]*>([^<]*)</span>", out)
    assert current == ["Action"], current
    assert "<b>Turn 1</b> · your turn" in out
    assert "<b>Turn 1</b> · <b>Ana</b>'s turn" in render.board_html(g, 1)
    play = next(a for a in g.legal_actions if a.card == "Unicorn Poison")
    g.push(play)
    g.push(Action("respond", card="Neigh"))
    out = render.board_html(g, 1)
    pile = out[out.index("Neigh pile, bottom to top"):]
    pile = pile[pile.index("<ol>"):]
    assert pile.index("Unicorn Poison") < pile.index("played by <b>Ana</b>") < pile.index(">Neigh<")
    assert "played by <b>Ben</b>" in pile and "(top:" in pile[pile.index("played by <b>Ben</b>"):]

    class WithChain(type(g)):  # a waiting link, as the engine reports it (names of the cards in each link)
        chain = property(lambda self: [["Glitter Bomb", "Barbed Wire"], ["Extra Tail"]])

    g.__class__ = WithChain
    out = render.board_html(g, 1)
    chain = out[out.index("Effect chain, waiting links"):]
    assert chain.count("<li>") == 2 and chain.index("Glitter Bomb") < chain.index("Extra Tail")


def test_names_are_escaped_on_the_board_and_in_the_log():
    g = new_game([XSS, "Ben"], seed=1)
    for _ in range(6):
        g.push(g.legal_actions[0])
    out = render.board_html(g, 0) + render.board_html(g, None) + render.log_html(g.log)
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out


def test_log_is_newest_first_with_why_on_every_line():
    g = new_game(["Ana", "Ben"], seed=2)
    out = render.log_html(g.log, limit=None)
    assert out.count("uu-log-line") == len(g.log)
    assert out.count("why?") == len(g.log)
    assert out.index(render.esc(g.log[-1].text)) < out.index(render.esc(g.log[0].text))
    # why, in a learner's words: the rule's title and where to read it, never its id
    assert "Everyone is dealt 5 cards" in out and "Rulebook: How to Start" in out
    assert "uu-why" in out and "setup.deal-five" not in out and "RS01" not in out
    short = render.log_html(g.log, limit=1, new_from=len(g.log) - 1)
    assert short.count("uu-log-line") == 1 and "uu-new" in short and "older line" in short


def test_unknown_rule_ids_do_not_break_the_log():
    class Entry:
        text = "odd"
        rules = ("no.such-rule",)

    out = render.log_html([Entry()])
    assert "No rule is cited" in out and "no.such-rule" not in out


def test_game_over_banner():
    g = new_game(["Ana", "Ben"], seed=0)
    g.state.winner, g.state.over = 1, True
    g._pending = None
    assert "Game over: Ben wins" in render.board_html(g, 0)
    assert render.result_text(g, 1) == "You win"


def test_a_learner_called_you_is_narrated_in_the_second_person():
    from uu.render import log_html, second_person

    cases = {"You DRAWs 1 card.": "You DRAW 1 card.", "You has 7 Unicorns.": "You have 7 Unicorns.",
             "You searches the deck.": "You search the deck.", "You passes.": "You pass.",
             "You cannot DRAW: the deck is empty.": "You cannot DRAW: the deck is empty.",
             "Ana DRAWs 1 card.": "Ana DRAWs 1 card.", "Youssef plays Neigh.": "Youssef plays Neigh.",
             "Turn 3: You's turn begins.": "Turn 3: Your turn begins.",
             "You plays Yay into You's Stable.": "You play Yay into your Stable.",
             "Bramble STEALs Narwhal from You's Stable.": "Bramble STEALs Narwhal from your Stable.",
             "You has 7 Unicorns and wins!": "You have 7 Unicorns and win!",
             # the game's end card on a phone said "You has the most Unicorns" (the explorer's game walk)
             "The deck has run out: You has the most Unicorns (2) and wins.":
                 "The deck has run out: You have the most Unicorns (2) and win.",
             "The deck has run out: Youssef has the most Unicorns (2) and wins.":
                 "The deck has run out: Youssef has the most Unicorns (2) and wins."}
    for engine_text, shown in cases.items():
        assert second_person(engine_text) == shown

    class Line:
        text, rules = "You DISCARDs Neigh.", ()

    assert "You DISCARD Neigh." in log_html([Line()]) and "DISCARDs" not in log_html([Line()])
