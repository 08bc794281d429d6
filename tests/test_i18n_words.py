"""The tutor's sentences in French and German (issue #27): the hint, the coach, a why-not, a card's reason, the
review and the lesson runner's feedback come out in the language in use, with no English interface word left
and every placeholder filled; in English they stay as they were."""

from __future__ import annotations

import re
from functools import cache

import pytest

from uu.bots.hint import hint
from uu.cards import catalog
from uu.cards.localized import card_name
from uu.engine import new_game
from uu.engine.actions import Action, Target
from uu.i18n import _, language
from uu.scenario import build_game, parse_scenario
from uu.tutor.coach import comment
from uu.tutor.game_review import GradedDecision, Review, TurningPoint
from uu.words.hint_text import hint_html, hint_text
from uu.words.lesson_refusals import LessonRunner
from uu.words.review_text import chart_summary, decision_words, review_text, turning_point_words
from uu.words.whynot import why_not

# English interface words that no French or German sentence of ours contains (checked on word boundaries, after
# card and player names are taken out). Words that are also French or German ("a", "on", "in", "Baby") are not
# in the list, nor "coach" (French and German say it too).
ENGLISH = ("the", "your", "you", "card", "cards", "turn", "play", "plays", "Stable", "Unicorn", "Unicorns", "and",
           "with", "is", "not", "hand", "choose", "answer", "pass", "DRAW", "DISCARD", "SACRIFICE", "DESTROY",
           "STEAL", "Neighed", "Neigh'd", "Neighs", "Nursery", "deck", "discard", "pile", "move", "moves", "chance",
           "win", "wins", "games", "simulated", "Right", "Try", "again", "Instant", "Magic", "Upgrade",
           "Downgrade", "decision", "only", "would", "better", "than", "there", "this", "that", "Press", "Next")
PLAYERS = ("You", "Bramble", "Clover", "Ana", "Ben")
WORD = re.compile(r"\b(" + "|".join(re.escape(w) for w in ENGLISH) + r")\b")


@cache
def _names(lang: str) -> list[str]:
    """Every card's name, English and in `lang`, longest first (so "Super Neigh" goes before "Neigh")."""
    names = {c.name for c in catalog()} | {card_name(c.name, lang) for c in catalog()}
    return sorted(names, key=len, reverse=True)


def english_left(text: str, lang: str) -> list[str]:
    for name in (*_names(lang), *PLAYERS):
        text = text.replace(name, " ")
    return WORD.findall(text)


def check(text: str, lang: str) -> None:
    assert text.strip(), "no words at all"
    assert "{" not in text and "}" not in text, f"a placeholder left unfilled: {text}"
    left = english_left(text, lang)
    assert not left, f"English words {left} in the {lang} sentence: {text}"


SIX = """\
name: six
players: [You, Bramble, Clover]
turn: {{player: You, phase: action}}
stables:
  You: [Baby Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Green), Basic Unicorn (Yellow), Narwhal, Basic Unicorn (Indigo){yay}]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
  Clover: [Baby Unicorn (Green)]
hands:
  You: [{mine}]
  Bramble: [Neigh, Unicorn Poison]
  Clover: [Neigh, Good Deal]
"""

NEIGH_MOMENT = """\
name: poisoned
players: [You, Bramble]
turn: {player: Bramble, phase: action}
stables:
  You: [Baby Unicorn (Red), Narwhal, Basic Unicorn (Red)]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
hands:
  You: [Neigh, Basic Unicorn (Green)]
  Bramble: [Unicorn Poison, Basic Unicorn (Yellow)]
"""

COACH = """\
name: coach
players: [You, Bramble, Clover]
turn: {player: You, phase: action}
stables:
  You: [Baby Unicorn (Red), Basic Unicorn (Red)]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue), Basic Unicorn (Green), Narwhal, Basic Unicorn (Yellow), Basic Unicorn (Indigo)]
  Clover: [Baby Unicorn (Green)]
hands:
  You: [Unicorn Poison, Basic Unicorn (Orange), Neigh]
  Bramble: [Basic Unicorn (Purple), Basic Unicorn (Red)]
  Clover: [Good Deal]
deck: [Glitter Tornado]
rest: deck
"""


@cache
def hints() -> list:
    """Hint results (data: computed once, then said in each language)."""
    wins = build_game(parse_scenario(SIX.format(mine="Basic Unicorn (Orange), Unicorn Poison", yay=", Yay")))
    close = build_game(parse_scenario(SIX.format(mine="Basic Unicorn (Orange), Basic Unicorn (Purple)", yay="")))
    moment = build_game(parse_scenario(NEIGH_MOMENT))
    moment.push(Action("play", card="Unicorn Poison", target=(Target(card="Narwhal", owner=0),)))
    return [hint(g, seconds=None) for g in (wins, close, moment)]


def review() -> Review:
    poison = Action("play", card="Unicorn Poison", target=(Target(card="Narwhal", owner=1),))
    draw = Action("draw")
    grow = Action("play", card="Basic Unicorn (Orange)", into=0)
    decisions = [GradedDecision(1, 2, "action", draw, poison, 0.30, 0.12, "mistake", 0.18, 0.08, 0.28),
                 GradedDecision(5, 4, "action", grow, grow, 0.25, 0.40, "best")]
    points = [TurningPoint("missed", 2, 0.30, 0.12, 0),
              TurningPoint("swing", 4, 0.12, 0.40, 1, since_turn=2, plays=[("Bramble", "Neigh")])]
    return Review(0, ["You", "Bramble"], decisions, points, None, False, 1.0)


def why_nots() -> list[str]:
    """Why-not sentences, the card reasons among them."""
    g = new_game(["Ana", "Ben"], seed=1)
    while g.pending.kind == "baby":
        g.push(g.pending.actions[0])
    hand = {g.state.name(c) for c in g.state.hands[g.pending.player]}
    magic = next((c.name for c in catalog() if c.type.value == "magic" and c.name not in hand), "Unicorn Poison")
    tried = [Action("play", card="Neigh"), Action("play", card=magic), Action("respond", card="Neigh"),
             Action("pass"), Action("play", card="Baby Unicorn (Red)"), Action("sacrifice", card="Narwhal"),
             Action("play", card="No Such Card")]
    out = [why_not(g, a) for a in tried]
    out.append(why_not(g, Action("draw"), player=1 - g.pending.player))
    return [r.text for r in out if r is not None]


def poison_on_own_card() -> str:
    g = build_game(parse_scenario(NEIGH_MOMENT.replace("{player: Bramble", "{player: You")
                                  .replace("You: [Neigh, Basic Unicorn (Green)]", "You: [Unicorn Poison, Neigh]")))
    reason = why_not(g, Action("play", card="Unicorn Poison", target=(Target(card="Narwhal", owner=0),)))
    assert reason is not None
    return reason.text


def lesson_feedback() -> list[str]:
    r = LessonRunner("lessons/01-goal.yaml")
    out = [r.hint(), r.try_move(Action("draw")).text]
    r.next()
    wrong = r.choose(1).text  # the explanation after it is the lesson's own words (translated elsewhere)
    right = r.choose(2).text
    out.append(r.try_move(Action("play", card="Narwhal")).text)
    return out + [wrong.split(". ", 1)[0] + ".", right.split(" ", 1)[0]]


def test_english_stays_as_it_was():
    with language("en"):
        wins, close, moment = hints()
        assert hint_text(wins).startswith("Play Basic Unicorn (Orange): that gives you 7 Unicorns, enough to win.")
        assert "If you pass, Bramble's Unicorn Poison destroys your Narwhal." in hint_text(moment)
        assert "about as good" in hint_text(close)
        texts = why_nots()
        assert texts[0] == ("Neigh is an Instant: an Instant is never your action; you play it only to answer a "
                            "card another player plays.")
        rv = review()
        assert turning_point_words(rv, rv.turning_points[1]) == (
            "Between turn 2 and turn 4 your chance to win rose from 12% to 40%: Bramble played Neigh.")
        assert decision_words(rv, rv.decisions[0]) == (
            "DRAW a card: a mistake that cost you about 18 points of chance to win. Better: play Unicorn Poison on "
            "Bramble's Narwhal.")
        assert chart_summary(rv).endswith(", and the game was lost.")
        feedback = lesson_feedback()
        assert feedback[:2] == ["Press Next.", "Read this page, then press Next."]
        assert feedback[-2:] == ["Not quite.", "Right!"]


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_hint_speaks_the_learners_language(lang):
    with language(lang):
        for r in hints():
            check(hint_text(r), lang)
            check(re.sub(r"<[^>]+>", " ", hint_html(r)), lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_coach_speaks_the_learners_language(lang):
    g = build_game(parse_scenario(COACH))
    with language(lang):
        for action in (Action("play", card="Basic Unicorn (Orange)", into=0), Action("draw")):
            check(comment(g, action, 0), lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_why_not_and_card_reasons_speak_the_learners_language(lang):
    with language(lang):
        texts = why_nots() + [poison_on_own_card()]
        assert len(texts) >= 7
        for text in texts:
            check(text, lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_review_speaks_the_learners_language(lang):
    rv = review()
    with language(lang):
        for t in rv.turning_points:
            check(turning_point_words(rv, t), lang)
        for d in rv.decisions:
            check(decision_words(rv, d), lang)
        check(chart_summary(rv), lang)
        check(review_text(rv), lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_lesson_runner_speaks_the_learners_language(lang):
    with language(lang):
        for text in lesson_feedback():
            check(text, lang)


def test_french_and_german_use_the_editions_words():
    g = new_game(["Ana", "Ben"], seed=1)
    while g.pending.kind == "baby":
        g.push(g.pending.actions[0])
    with language("fr"):
        said = why_not(g, Action("respond", card="Neigh")).text
        assert "Huue" in said or "Illico" in said, said
    with language("de"):
        said = why_not(g, Action("respond", card="Neigh")).text
        assert "Nühü" in said or "Sofortkarte" in said, said


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_preview_and_a_click_speak_the_learners_language(lang):
    from uu.table.clickwhy import click_reason
    from uu.tutor.preview import preview

    g = new_game(["Ana", "Ben"], seed=1)
    while g.pending.kind == "baby":
        g.push(g.pending.actions[0])
    seat = g.pending.player
    with language(lang):
        p = preview(g, Action("draw"))
        # the "Next: ..." line ends with the engine's own prompt (translated with the engine's messages)
        nxt = _("Next: {player} decides ({kind}): {prompt}").split("{")[0]
        lines = [line for line in p.summary() if not line.startswith(nxt)]
        assert len(lines) >= 2
        for line in lines:
            check(line, lang)
        check(click_reason(g, seat, f"back:hand:{1 - seat}:0"), lang)
        check(click_reason(g, 1 - seat, "card:hand:0:Neigh"), lang)
        check(click_reason(None, seat, "card:hand:0:Neigh"), lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_sentence_of_these_modules_is_translated_with_its_own_placeholders(lang):
    """Each msgid of the words, tutor and click modules has a translation that uses only the placeholders the
    code fills in (a translation may leave one out; an unknown one would raise KeyError at `.format`)."""
    from babel.messages.pofile import read_po

    from uu.i18n.catalogs import po_path

    mine = ("uu/words/", "uu/tutor/", "uu/table/clickwhy.py")
    names = re.compile(r"\{(\w*)[^{}]*\}")
    with po_path(lang).open("rb") as f:
        catalog_ = read_po(f)
    seen = 0
    for m in catalog_:
        if not m.id or not any(where.startswith(mine) and "rulewords" not in where for where, _line in m.locations):
            continue
        seen += 1
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        allowed = {n for i in ids for n in names.findall(i)}
        assert all(strings) and not m.fuzzy, f"{lang}: not translated: {m.id!r}"
        for s in strings:
            assert set(names.findall(s)) <= allowed, f"{lang}: {s!r} has placeholders {m.id!r} does not fill"
    assert seen > 400
