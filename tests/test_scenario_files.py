"""Every scenario file under tests/scenarios passes (each cites the rule ids it checks), and
`uu scenario check tests/scenarios` agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from uu.cli import main
from uu.engine.rules import RULES
from uu.scenario import load_scenario, run_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario_file(path: Path) -> None:
    sc = load_scenario(path)
    assert sc.rules, f"{path.name} cites no rule id"
    assert all(r in RULES for r in sc.rules)
    result = run_scenario(sc)
    assert result.passed, result.message


def test_there_are_scenarios_for_many_rules() -> None:
    cited = {r for p in FILES for r in load_scenario(p).rules}
    assert len(FILES) >= 50
    assert len(cited) >= 60, sorted(set(RULES) - cited)


def test_cli_check_over_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["scenario", "check", str(SCENARIOS)])
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"{len(FILES)} passed, 0 failed"
    assert rc == 0
