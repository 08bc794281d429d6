"""The `uu` command (contract in docs/scenario-format.md): app, scenario check|schema, bench, cards, hint, review."""

from __future__ import annotations

import argparse
import json
import sys


def _scenario_check(paths: list[str]) -> int:
    from uu.scenario import ScenarioFileError, load_scenario, run_scenario, scenario_files
    from uu.scenario.load import empty_folders

    files = scenario_files(paths)
    passed = failed = 0
    for folder in empty_folders(paths):  # checking nothing must not look like success
        print(f"FAIL {folder}: the folder holds no *.yaml scenario files")
        failed += 1
    for f in files:
        try:
            sc = load_scenario(f)
        except ScenarioFileError as e:
            print(f"FAIL {e}" if str(e).startswith(str(f)) else f"FAIL {f}: {e}")
            failed += 1
            continue
        except Exception as e:  # a loader bug is still one FAIL line, and the other files are still checked
            print(f"FAIL {f}: internal error {type(e).__name__}: {e}")
            failed += 1
            continue
        try:
            r = run_scenario(sc)
        except Exception as e:  # an engine bug must still be reported per file, never as a traceback
            print(f"FAIL {sc.name}: internal error {type(e).__name__}: {e}")
            failed += 1
            continue
        if r.passed:
            print(f"PASS {sc.name}")
            passed += 1
        else:
            print(f"FAIL {sc.name}: {r.message}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def _scenario_schema() -> int:
    from uu.engine.options import Options
    from uu.scenario.model import Scenario

    schema = Scenario.model_json_schema()
    schema["x-options"] = Options.documented()
    print(json.dumps(schema, indent=2))
    return 0


def _cards(missing: bool) -> int:
    from uu.cards import catalog
    from uu.engine.card_support import card_rules, missing_cards

    gaps = missing_cards()
    if missing:
        for name, why in gaps.items():
            print(f"{name}: {why}")
        return 0
    for d in catalog():
        flag = "  [NOT IMPLEMENTED: " + gaps[d.name] + "]" if d.name in gaps else ""
        print(f"{d.name} | {d.type_name} | x{d.copies} | {d.text} | rules: {', '.join(card_rules(d.name))}{flag}")
    return 0


def _fail(message: str) -> int:
    """Bad input: one line on stderr, exit status 2 (never a traceback)."""
    print(f"uu: error: {message}", file=sys.stderr)
    return 2


def _seat(players: list[str], name: str | None) -> int | None:
    """The seat of `name` (exact, then ignoring case); None for no name; ValueError naming the players."""
    if name is None:
        return None
    for exact in (True, False):
        for i, p in enumerate(players):
            if (p == name) if exact else (p.casefold() == name.casefold()):
                return i
    raise ValueError(f"there is no player {name!r}; the players are {', '.join(players)}")


def _hint(path: str, player: str | None, as_json: bool) -> int:
    from uu.bots.hint import hint
    from uu.engine.errors import GameError
    from uu.scenario import ScenarioFileError, build_game, load_scenario
    from uu.scenario.runner import StepFailed, run_step
    from uu.words.hint_text import hint_json, hint_table_text, hint_text

    try:
        sc = load_scenario(path)
        game = build_game(sc)
        for i, step in enumerate(sc.steps):
            run_step(game, sc, i, step)
    except (ScenarioFileError, StepFailed, GameError, ValueError) as e:
        return _fail(str(e).splitlines()[0] if str(e) else type(e).__name__)
    d = game.pending
    if d is None:
        return _fail(f"{path}: the game in this position is over ({game.result_text()}): there is no decision")
    try:
        seat = _seat(list(game.players), player)
    except ValueError as e:
        return _fail(str(e))
    if seat is not None and seat != d.player:
        return _fail(f"the decision in {path} is {game.players[d.player]}'s, not {game.players[seat]}'s "
                     f"(--player must be the deciding player, or leave it out)")
    result = hint(game)
    if as_json:
        print(json.dumps(hint_json(result)))
    else:
        print(f"{d.prompt}\n{hint_text(result)}\n\n{hint_table_text(result)}")
    return 0


def _review(path: str, player: str | None, as_json: bool) -> int:
    from uu.scenario.record import RecordError, load_record
    from uu.tutor.game_review import review
    from uu.words.review_text import review_json, review_text

    try:
        record = load_record(path)
        seat = _seat(record.players, player)
        result = review(record, seat)
    except (RecordError, ValueError) as e:
        return _fail(str(e))
    print(json.dumps(review_json(result)) if as_json else review_text(result))
    return 0


def _bench(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        players = [int(x) for x in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes a number from 2 to 8 or a comma list, not {args.players!r}")
    if any(not 2 <= n <= 8 for n in players):
        parser.error("--players: each count must be from 2 to 8")
    from uu.bots.search import DEFAULT_SECONDS

    hint_seconds = DEFAULT_SECONDS if args.hint_seconds is None else args.hint_seconds
    if not 0 < hint_seconds <= 60:
        parser.error(f"--hint-seconds: a time from 0 to 60 seconds, e.g. 0.5; got {args.hint_seconds}")
    if args.app and args.hostile:
        from uu.benchmarks.hostile import bench_hostile

        result = bench_hostile()
    elif args.app:
        from uu.benchmarks.app_load import bench_app

        try:
            low, high = (float(x) for x in args.think.split(","))
        except ValueError:
            parser.error(f"--think takes MIN,MAX seconds, e.g. 2,4; got {args.think!r}")
        if not 0 <= low <= high:
            parser.error("--think: need 0 <= MIN <= MAX")
        result = bench_app(learners=args.learners, clicks=args.clicks, preheat=args.preheat, think=(low, high),
                           play_seconds=args.play_seconds, seed=args.seed, browser_burst=args.browser_burst)
    elif args.hint:
        from uu.benchmarks.bots import bench_hint

        result = bench_hint(players=players[0], positions=args.positions, seed=args.seed, seconds=hint_seconds)
    elif args.separation:
        from uu.benchmarks.separation import bench_separation

        result = bench_separation(players=players[0], decisions=args.positions if args.positions != 20 else 200,
                                  seed=args.seed if args.seed else 7, seconds=hint_seconds,
                                  truth_file=args.truth_file)
    elif args.review:
        from uu.benchmarks.review_speed import bench_review

        result = bench_review(players=players[0], games=args.games if args.games != 200 else 1, seed=args.seed,
                              seconds=hint_seconds)
    elif args.bots:
        from uu.benchmarks.bots import bench_bots
        from uu.bots.roster import bot_names

        bots = [b.strip() for b in args.bots.split(",")]
        unknown = [b for b in bots if b not in bot_names()]
        if unknown or not 2 <= len(bots) <= 8:
            parser.error(f"--bots takes 2 to 8 of {', '.join(bot_names())}, comma-separated; got {args.bots!r}")
        result = bench_bots(bots, args.games, args.seed, hint_seconds=hint_seconds, save_games=args.save_games)
    else:
        from uu.benchmarks.engine import bench

        result = bench(players, args.games, args.seed, args.check)
    print(json.dumps(result))
    return 0


def _server_missing() -> str | None:
    """The first of the server's packages (the `app` extra in pyproject.toml) that is not installed, if any."""
    import importlib.util

    for module in ("voila", "jupyter_server", "jupyter_client", "nbconvert", "ipykernel"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="uu", description="Unstable Unicorns tutor and rules engine")
    sub = parser.add_subparsers(dest="cmd", required=True)
    app = sub.add_parser("app", help="serve the guided tutor app with Voila")
    app.add_argument("--port", type=int, default=None)
    app.add_argument("--no-browser", action="store_true")
    app.add_argument("--lang", default=None, choices=["en", "fr", "de"],
                     help="the class's language (en, fr, de): used when neither a link's ?lang= nor the learner's "
                          "own choice says otherwise (default: the browser's language)")
    app.add_argument("--ip", default="127.0.0.1",
                     help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for a classroom)")
    if _server_missing() is None:
        from uu.server.app import ALLOW_HOST_HELP, PREHEAT_HELP
        from uu.server.teacher import add_teacher_options

        app.add_argument("--preheat", type=int, default=None, metavar="N", help=PREHEAT_HELP)
        app.add_argument("--allow-host", action="append", default=[], metavar="NAME", help=ALLOW_HOST_HELP)
        add_teacher_options(app)
    sc = sub.add_parser("scenario", help="check scenario files or print their JSON Schema")
    scsub = sc.add_subparsers(dest="scmd", required=True)
    chk = scsub.add_parser("check", help="run scenario files (folders: every *.yaml, recursively)")
    chk.add_argument("paths", nargs="+")
    scsub.add_parser("schema", help="print the JSON Schema of the scenario format")
    ls = sub.add_parser("lesson", help="validate lessons and replay their scripts")
    lssub = ls.add_subparsers(dest="lcmd", required=True)
    lchk = lssub.add_parser("check", help="check lesson files (default: every shipped lesson): replay each "
                            "script and explore every other way through it")
    lchk.add_argument("paths", nargs="*")
    lchk.add_argument("--lang", default="en", help="fr or de: check each lesson's translation against its English "
                      "file (lessons/<lang>/<file>) and replay it")
    lstat = lssub.add_parser("stats", help="print the lessons in numbers as one JSON object")
    lstat.add_argument("paths", nargs="*")
    lstat.add_argument("--lang", default="en", help="fr or de: the numbers of the translated lessons")
    b = sub.add_parser("bench", help="play random-bot games and print one JSON object")
    b.add_argument("--players", type=str, default="4", help="a count, or a comma list such as 2,4,6")
    b.add_argument("--games", type=int, default=200)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--check", action="store_true", help="check every invariant after every action")
    b.add_argument("--bots", type=str, default=None,
                   help="one bot per seat, e.g. hint,heuristic,heuristic,heuristic: win rates (with 95%% intervals) "
                        "instead of speed; bots: random, heuristic, hint (plays the app's hint) or the levels "
                        "easy, normal, hard")
    b.add_argument("--hint", action="store_true", help="time the hint on typical Action-phase positions")
    b.add_argument("--hint-seconds", type=float, default=None, metavar="S",
                   help="the hint's time cap per decision for the whole run (default: the app's, 1.0) for --hint "
                        "and for hint/hard seats of --bots")
    b.add_argument("--positions", type=int, default=20,
                   help="with --hint: how many positions; with --separation: how many decisions (default 200)")
    b.add_argument("--separation", action="store_true",
                   help="does the hint tell moves apart within --hint-seconds? Over decisions of heuristic-bot "
                        "games (--seed, default 7), the share of those with a real gap of 5 points or more (from "
                        "a search of 120 deals for every candidate) where the hint names the real best move as the best")
    b.add_argument("--truth-file", type=str, default=None, metavar="FILE",
                   help="with --separation: a JSON file keeping the long searches, reused by the next run")
    b.add_argument("--save-games", type=str, default=None, metavar="DIR",
                   help="with --bots: write each game played as a game record (JSON) into DIR, for `uu review`")
    b.add_argument("--review", action="store_true",
                   help="time `uu review` on games of heuristic bots (--players, --games: default 1): seconds "
                        "per decision graded")
    b.add_argument("--app", action="store_true",
                   help="measure the Voila app: one learner in Chromium (start-up, clicks), then a class of "
                        "emulated learners (arriving together, playing), memory")
    b.add_argument("--learners", type=int, default=30, help="with --app: learners arriving together")
    b.add_argument("--clicks", type=int, default=30, help="with --app: clicks per learner (one learner; tight loop)")
    b.add_argument("--preheat", type=int, default=0, help="with --app: serve with `uu app --preheat N` (default 0: "
                   "no pool, whatever `uu app`'s own default)")
    b.add_argument("--play-seconds", type=float, default=60.0,
                   help="with --app: how long the class plays, clicking after think times")
    b.add_argument("--think", type=str, default="2,4",
                   help="with --app: MIN,MAX seconds a learner reads the board before a click (uniform, seeded "
                        "by --seed)")
    b.add_argument("--browser-burst", action="store_true",
                   help="with --app: also the older burst of --learners Chromium pages on this machine")
    b.add_argument("--hostile", action="store_true",
                   help="with --app: a careless or hostile visitor instead, against a server on 127.0.0.1 only "
                        "(bounded, about 2 minutes): seats held by browserless requests after the time to "
                        "connect, the cap reached by connected pages, one kernel flooded with widget messages "
                        "(its memory, the other learners' clicks)")
    h = sub.add_parser("hint", help="the hint for the pending decision of a position file (the scenario format)")
    h.add_argument("file")
    h.add_argument("--player", default=None, help="the deciding player's name (default: whoever decides)")
    h.add_argument("--json", action="store_true", help="one JSON object: player, decision, clear, best, text, "
                   "candidates (best first, each with move, chance, low, high, games)")
    rv = sub.add_parser("review", help="grade one player's decisions in a game record (uu bench --save-games, "
                        "or the play screen's Save this game)")
    rv.add_argument("record")
    rv.add_argument("--player", default=None, help="whose decisions (default: the first seat)")
    rv.add_argument("--json", action="store_true", help="one JSON object: player, decisions, turning_points")
    c = sub.add_parser("cards", help="print the card catalog")
    c.add_argument("--missing", action="store_true", help="only the cards the engine does not implement")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    missing = _server_missing() if argv[:1] == ["app"] else None
    if missing is not None:  # before parsing: the server's options are not there to parse
        print(f"uu app: the server's packages are not installed ({missing} is missing). Install them with "
              "the package's `app` extra: pip install 'uu-tutor[app]' (from a clone: pip install '.[app]', "
              "or run python3 dev.py app).", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)

    if args.cmd == "app":
        from uu.server.app import serve

        return serve(port=args.port, open_browser=not args.no_browser, ip=args.ip, preheat=args.preheat,
                     lessons=args.lessons, class_view=args.class_view, class_db=args.class_db,
                     class_token=args.class_token, lang=args.lang, allowed_hosts=args.allow_host)
    if args.cmd == "scenario":
        return _scenario_check(args.paths) if args.scmd == "check" else _scenario_schema()
    if args.cmd == "lesson":
        from uu.tutor.check import check_lessons, print_stats

        lang = args.lang.lower()
        return check_lessons(args.paths, lang) if args.lcmd == "check" else print_stats(args.paths, lang)
    if args.cmd == "bench":
        return _bench(parser, args)
    if args.cmd == "cards":
        return _cards(args.missing)
    if args.cmd == "hint":
        return _hint(args.file, args.player, args.json)
    if args.cmd == "review":
        return _review(args.record, args.player, args.json)
    return 2


if __name__ == "__main__":
    sys.exit(main())
