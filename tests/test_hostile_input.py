"""Files and pastes from a careless or hostile user (issue #15, part 1): the loaders behind `uu scenario check`,
`uu lesson check` and the sandbox's paste box give one FAIL line (file, line, what is wrong) and never a
traceback, a crash, a hang or gigabytes of memory; a bad file never stops a run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uu.cli import main
from uu.scenario import ScenarioFileError, load_scenario, parse_scenario
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.tutor.lesson_model import LessonFileError, load_lesson, parse_lesson
from uu.yamlfile import MAX_BYTES, MAX_DEPTH, YamlInputError, load_user_yaml

GOOD = """\
name: poison works
rules: [verb.destroy]
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Rhinocorn]}
hands: {Ana: [Unicorn Poison, Yay]}
deck: [Neigh, Neigh, Neigh]
rest: box
steps:
  - {as: Ana, do: play, card: Unicorn Poison, target: {card: Rhinocorn, owner: Ben}}
expect:
  stables: {Ben: []}
  discard: [Unicorn Poison, Rhinocorn]
"""
ROOT = Path(__file__).resolve().parents[1]


def out_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.strip().splitlines()


def check_one(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["scenario", "check", str(path)]) == 1
    out = out_lines(capsys)
    assert out[-1] == "0 passed, 1 failed", out
    assert len(out) == 2 and out[0].startswith("FAIL "), out
    assert "Traceback" not in out[0]
    return out[0]


def test_utf16_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "utf16.yaml"
    f.write_bytes(GOOD.encode("utf-16"))
    line = check_one(f, capsys)
    assert str(f) in line and "UTF-16" in line and "UTF-8" in line


def test_bytes_that_are_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bytes.yaml"
    f.write_bytes(b"\x00\xff\xfe")
    line = check_one(f, capsys)
    assert str(f) in line and "UTF-8" in line


def test_latin1_byte_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "latin1.yaml"
    f.write_bytes(b"name: x\nplayers: [Ana, Ben]\ndescription: caf\xe9\n")
    line = check_one(f, capsys)
    assert "line 3" in line and "not UTF-8" in line


def test_five_thousand_digit_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "big.yaml"
    f.write_text("name: big\nplayers: [Ana, Ben]\nturn: {number: " + "9" * 5000 + "}\n")
    line = check_one(f, capsys)
    assert "line 3" in line and "cannot be read" in line
    assert "more than 4,300 digits" in line and "sys." not in line  # plain words, no Python advice


def test_five_thousand_digit_number_pasted_in_the_sandbox_shows_a_plain_message() -> None:
    from uu.widgets.sandbox import SandboxScreen

    screen = SandboxScreen()
    assert not screen.load_yaml("players: [Ana, Ben]\nseed: " + "9" * 5000)
    message = str(screen.session.load_message)
    assert "line 2" in message and "more than 4,300 digits" in message
    assert "sys." not in message and "Something went wrong" not in message and "Exceeds" not in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_waiting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "pipe.yaml"
    os.mkfifo(f)
    t0 = time.monotonic()
    line = check_one(f, capsys)
    assert time.monotonic() - t0 < 5
    assert "not a regular file" in line
    with pytest.raises(LessonFileError, match="not a regular file"):
        load_lesson(f)


def test_too_large_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "large.yaml"
    f.write_text(GOOD + "#" * (MAX_BYTES + 10) + "\n")
    assert "too large" in check_one(f, capsys)


def test_deep_nesting_does_not_crash_the_process(tmp_path: Path) -> None:
    """25,000 levels (60 kB) crashed the C composer with a segmentation fault: run it in a child process so a
    crash shows as a signal, not as this test run dying."""
    f = tmp_path / "deep.yaml"
    f.write_text("name: deep\nplayers: [Ana, Ben]\ndeck: " + "[" * 25000 + "]" * 25000 + "\n")
    g = tmp_path / "deep_block.yaml"
    g.write_text("name: deep\nplayers: [Ana, Ben]\ndeck:\n" + "".join("  " * i + "- \n" for i in range(200)))
    code = ("import sys; from uu.cli import main; sys.exit(main(['scenario', 'check', sys.argv[1], sys.argv[2]]))")
    r = subprocess.run([sys.executable, "-c", code, str(f), str(g)], capture_output=True, text=True, timeout=120,
                       cwd=ROOT)
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])  # a segfault is -11
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "0 passed, 2 failed"
    assert "line 3: nested more than" in lines[0] and "line 67: nested more than" in lines[1], lines
    assert "Traceback" not in r.stderr


def test_depth_limit_still_allows_real_files() -> None:
    data, _ = load_user_yaml("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))
    assert isinstance(data["a"], list)


def test_alias_bomb_is_refused_quickly() -> None:
    # each level doubles the size: about 2**30 items if expanded
    lines = ["a0: &a0 [x, x]"] + [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 30)]
    text = "name: bomb\nplayers: [Ana, Ben]\nlesson:\n" + "\n".join("  " + ln for ln in lines) + "\n"
    t0 = time.monotonic()
    with pytest.raises(ScenarioFileError, match=r"line 4: anchors and aliases"):
        parse_scenario(text, "bomb.yaml")
    assert time.monotonic() - t0 < 2


def test_quadratic_alias_paste_is_refused_in_the_sandbox() -> None:
    """The classic 100 kB paste: one long list, aliased many times."""
    text = "name: q\nplayers: [Ana, Ben]\nlesson:\n  a: &a [" + ", ".join(["x"] * 5000) + "]\n  b: [" + \
        ", ".join(["*a"] * 5000) + "]\n"
    with pytest.raises(ScenarioFileError, match="anchors and aliases"):
        PositionBuilder.from_yaml(text, "pasted YAML")


def test_duplicate_keys_name_both_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "dup.yaml"
    f.write_text(GOOD.replace("rest: box\n", "rest: box\nrest: deck\n"))
    line = check_one(f, capsys)
    assert "line 9" in line and "'rest'" in line and "twice" in line and "line 8" in line
    with pytest.raises(ScenarioFileError, match="given twice"):
        parse_scenario("name: a\nplayers: [Ana, Ben]\nstables: {Ana: [], Ana: []}\n")


def test_list_longer_than_the_game_allows() -> None:
    text = "name: long\nplayers: [Ana, Ben]\ndeck: [" + ", ".join(["Neigh"] * 1000) + "]\n"
    with pytest.raises(ScenarioFileError, match="line 3, deck: .*at most 256"):
        parse_scenario(text, "long.yaml")


def test_empty_folder_is_a_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["scenario", "check", str(tmp_path / "empty")]) == 1
    out = out_lines(capsys)
    assert out == [f"FAIL {tmp_path / 'empty'}: the folder holds no *.yaml scenario files", "0 passed, 1 failed"]
    assert main(["lesson", "check", str(tmp_path / "empty")]) == 1
    out = out_lines(capsys)
    assert out[0].startswith("FAIL ") and "no *.yaml lesson files" in out[0]


def test_bad_files_do_not_stop_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_utf16.yaml").write_bytes(GOOD.encode("utf-16"))
    (tmp_path / "b_number.yaml").write_text("name: n\nplayers: [Ana, Ben]\nturn: {number: " + "1" * 5000 + "}\n")
    os.mkfifo(tmp_path / "c_pipe.yaml")
    (tmp_path / "d_dup.yaml").write_text("name: d\nname: e\nplayers: [Ana, Ben]\n")
    (tmp_path / "e_good.yaml").write_text(GOOD)
    (tmp_path / "f_good.yaml").write_text(GOOD.replace("poison works", "poison again"))
    assert main(["scenario", "check", str(tmp_path)]) == 1
    out = out_lines(capsys)
    assert out[-1] == "2 passed, 4 failed"
    assert "PASS poison works" in out and "PASS poison again" in out
    fails = [ln for ln in out if ln.startswith("FAIL ")]
    assert len(fails) == 4 and all(str(tmp_path) in ln for ln in fails)


# --- property-based: random and mutated texts never escape as anything but the loaders' own errors ---------

SEEDS = [GOOD, (ROOT / "tests" / "scenarios").glob("**/*.yaml").__next__().read_text()]
PIECES = st.sampled_from(["[", "]", "{", "}", "&a ", "*a", "- ", ": ", "\n", "  ", "? ", "!!int ", "!!binary ",
                          "'", '"', "9" * 50, "\t", "\x00", "\ufeff", "%YAML 1.1\n", "---\n", "...\n", "<<: ",
                          "!!python/object:os.system ", "2026-13-45", ".nan", "~", "|\n", ">-\n", "#"])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(text)))
        kind = draw(st.integers(0, 2))
        if kind == 0:
            text = text[:i] + draw(PIECES) + text[i:]
        elif kind == 1:
            j = draw(st.integers(i, min(len(text), i + 40)))
            text = text[:i] + text[j:]
        else:
            text = text[:i] + draw(st.text(max_size=20)) + text[i:]
    return text


ALLOWED = (ScenarioFileError, BuilderError)


def _try_all(text: str) -> None:
    t0 = time.monotonic()
    for fn in (lambda: parse_scenario(text, "p.yaml"), lambda: parse_lesson(text, "p.yaml"),
               lambda: PositionBuilder.from_yaml(text, "p.yaml")):
        try:
            fn()
        except ALLOWED as e:
            assert str(e).strip(), "an empty message"
    try:
        load_user_yaml(text, "p.yaml")
    except YamlInputError as e:
        assert str(e).startswith("p.yaml: ")
    assert time.monotonic() - t0 < 5


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_give_only_load_errors(text: str) -> None:
    _try_all(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_gives_only_load_errors(text: str) -> None:
    _try_all(text)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_as_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    f = tmp_path_factory.mktemp("bytes") / "x.yaml"
    f.write_bytes(data)
    for fn in (load_scenario, load_lesson):
        try:
            fn(f)
        except ScenarioFileError as e:
            assert str(e).startswith(str(f))


# ---- issue #39: a seed of thousands of digits -------------------------------------------------------------
SEED_POSITION = "name: big seed\nplayers: [Ana, Ben]\noptions: {seed: %s}\n"
HUGE_SEEDS = ["9" * 5000, '"' + "9" * 5000 + '"', "0x" + "f" * 4000, "9" * 4300, "-1", "18446744073709551616"]


@pytest.mark.parametrize("seed", HUGE_SEEDS)
def test_a_position_link_with_a_huge_seed_says_what_is_allowed(seed: str) -> None:
    """The link's YAML passed (a hex seed of 4,000 digits, a 4,300-digit one), and the app then showed
    "Something went wrong: Exceeds the limit (4300 digits) ..." once the seed was written out."""
    from uu.scenario.link import position_code
    from uu.widgets import App

    app = App()
    app.open_link("http://x/?position=" + position_code(SEED_POSITION % seed))
    assert app.screen is app.home and app.error is not None
    assert "could not be opened" in app.error and "Something went wrong" not in app.error
    assert "Exceeds" not in app.error and "set_int_max_str_digits" not in app.error
    assert "4,300 digits" in app.error or "the seed is a whole number from 0 to 18,446,744,073,709,551,615" in app.error


@pytest.mark.parametrize("seed", HUGE_SEEDS)
def test_a_pasted_huge_seed_is_one_line_saying_what_is_allowed(seed: str) -> None:
    from uu.tutor.sandbox_session import SandboxSession

    session = SandboxSession()
    assert not session.load_yaml(SEED_POSITION % seed)
    message = session.load_message or ""
    assert message.startswith("pasted YAML: line 3") and "Exceeds" not in message and len(message) < 200


def test_a_huge_seed_set_in_the_builder_is_refused_in_words() -> None:
    from uu.engine.options import MAX_SEED

    builder = PositionBuilder(["Ana", "Ben"])
    for value in (10**5000, MAX_SEED + 1, -3, "9" * 5000):
        with pytest.raises(BuilderError) as got:
            builder.set_option("seed", value)
        text = str(got.value)
        assert "the seed is a whole number from 0 to" in text and len(text) < 300, text
    builder.set_option("seed", MAX_SEED)
    assert builder.options["seed"] == MAX_SEED
