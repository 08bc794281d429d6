"""Scenario files: positions, steps and expectations (the format in docs/scenario-format.md)."""

from uu.scenario.load import ScenarioFileError, load_scenario, parse_scenario, scenario_files
from uu.scenario.model import Expect, Scenario, Step
from uu.scenario.runner import RunResult, run_scenario
from uu.scenario.to_game import PositionError, build_game

__all__ = ["Expect", "PositionError", "RunResult", "Scenario", "ScenarioFileError", "Step", "build_game",
           "load_scenario", "parse_scenario", "run_scenario", "scenario_files"]
