"""ipywidgets views, one controller per app screen: the only part of uu that imports ipywidgets.

`App` (home, lessons, the game and the sandbox in one widget), `HomeScreen`, `LessonScreen`, `PlayScreen`,
`SandboxScreen` (the what-if sandbox), and `BotGameView` (bots playing each other, step by step). The HTML
they show comes from `uu.render`.
"""

from uu.widgets.botgame import BotGameView
from uu.widgets.home import HomeScreen
from uu.widgets.lesson import LessonScreen
from uu.widgets.play import PlayScreen
from uu.widgets.sandbox import SandboxScreen
from uu.widgets.tutor_app import App

__all__ = ["App", "BotGameView", "HomeScreen", "LessonScreen", "PlayScreen", "SandboxScreen"]
