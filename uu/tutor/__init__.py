"""Lessons: a scenario plus a script of steps (pure Python, never imports ipywidgets)."""
