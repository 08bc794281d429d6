"""Every version the static build uses (docs/static-build.md says why these and not newer ones).

Standard library only: `python3 dev.py lite` imports this before any environment exists.
"""

from __future__ import annotations

# The build's own Python environment: it builds the uu-tutor wheel, compiles its translations and reads the
# lessons once (uu/lite/build.py). ipywidgets and anywidget as in the browser, for the loading screen's words.
BUILD_REQUIREMENTS = [
    "ipywidgets==8.1.9",
    "anywidget==0.11.0",
    "setuptools==80.9.0",  # builds the uu-tutor wheel without fetching a build environment
    "PyYAML==6.0.3",  # reads the lessons and the catalog once, at build time (uu/lite/preread.json)
    "Babel==2.18.0",  # setup.py compiles the translations (.po to .mo) into the uu-tutor wheel
    # what those pull in, pinned (pip freeze of the environment the build was checked with)
    "comm==0.2.3", "jupyterlab_widgets==3.0.17", "psygnal==0.16.1", "traitlets==5.16.1", "typing_extensions==4.16.0",
    "widgetsnbextension==4.0.16", "ipython==9.18.1", "ipython_pygments_lexers==1.1.1", "jedi==0.20.1",
    "parso==0.8.7", "asttokens==3.0.2", "executing==2.3.0", "matplotlib-inline==0.2.2", "pexpect==4.9.0",
    "prompt_toolkit==3.0.53", "psutil==7.2.2", "ptyprocess==0.7.0", "pure_eval==0.2.4", "Pygments==2.21.0",
    "stack-data==0.6.3", "wcwidth==0.9.4",
]

# The page's widget manager, all three from npm (`npm pack`, nothing installed; uu/lite/build.py `widget_scripts`):
# ipywidgets' own manager for a page without Jupyter (it draws every ipywidgets control, with their stylesheets),
# anywidget's front end for it (an AMD module: the tutor's table and its progress store are anywidgets) and
# RequireJS, which loads the two. {npm package: (its file, the name on the site in static/widgets/)}
WIDGETS_NPM: dict[str, tuple[str, str]] = {
    "@jupyter-widgets/html-manager@1.0.15": ("dist/libembed-amd.js", "html-manager.js"),
    "anywidget@0.11.0": ("dist/index.js", "anywidget.js"),
    "requirejs@2.3.7": ("require.js", "require.js"),
}

# Python in the browser: Pyodide from the npm package (the interpreter, its standard library and its lock file).
PYODIDE_NPM = "pyodide@314.0.7"
PYODIDE_ABI = "pyemscripten_2026_0_wasm32"  # the platform tag of wasm wheels for this Pyodide (Python 3.14)

# The wheels the page loads, all from PyPI: (lock name, PyPI requirement, the lock's `imports`, its `depends`).
# Pure-Python wheels except pydantic-core (a wasm wheel on PyPI for this Pyodide) and PyYAML (its Linux wheel
# repacked without the C extension: PyYAML then runs as plain Python; PyPI has no wasm wheel of it).
# The versions are those of Pyodide's own lock, except pydantic (2.14.4 needs pydantic-core 2.50.5, which has
# the wasm wheel) and the typing packages it needs (typing-inspection 0.4.2 lacks a name pydantic 2.14 uses).
WHEELS: list[tuple[str, str, list[str], list[str]]] = [
    ("comm", "comm==0.2.3", ["comm"], ["traitlets"]),
    ("traitlets", "traitlets==5.14.3", ["traitlets"], []),
    ("decorator", "decorator==5.2.1", ["decorator"], []),
    ("six", "six==1.17.0", ["six"], []),
    ("asttokens", "asttokens==3.0.1", ["asttokens"], ["six"]),
    ("executing", "executing==2.2.1", ["executing"], []),
    ("pure-eval", "pure-eval==0.2.3", ["pure_eval"], []),
    ("stack-data", "stack-data==0.6.3", ["stack_data"], ["executing", "asttokens", "pure-eval"]),
    ("wcwidth", "wcwidth==0.6.0", ["wcwidth"], []),
    ("prompt-toolkit", "prompt-toolkit==3.0.52", ["prompt_toolkit"], ["wcwidth"]),
    ("pygments", "pygments==2.20.0", ["pygments"], []),
    ("ipython-pygments-lexers", "ipython-pygments-lexers==1.1.1", ["ipython_pygments_lexers"], ["pygments"]),
    ("matplotlib-inline", "matplotlib-inline==0.2.1", ["matplotlib_inline"], ["traitlets"]),
    ("ipython", "ipython==9.12.0", ["IPython"],
     ["asttokens", "decorator", "executing", "matplotlib-inline", "prompt-toolkit", "pure-eval", "pygments",
      "ipython-pygments-lexers", "six", "stack-data", "traitlets", "wcwidth"]),
    ("typing-extensions", "typing-extensions==4.16.0", ["typing_extensions"], []),
    ("annotated-types", "annotated-types==0.7.0", ["annotated_types"], []),
    ("typing-inspection", "typing-inspection==0.4.5", ["typing_inspection"], ["typing-extensions"]),
    ("pydantic-core", "pydantic-core==2.50.5", ["pydantic_core"], ["typing-extensions"]),
    ("pydantic", "pydantic==2.14.4", ["pydantic"],
     ["typing-extensions", "pydantic-core", "annotated-types", "typing-inspection"]),
    ("pyyaml", "PyYAML==6.0.3", ["yaml"], []),
    ("ipywidgets", "ipywidgets==8.1.9", ["ipywidgets"], ["comm", "ipython", "traitlets"]),
    ("psygnal", "psygnal==0.16.1", ["psygnal"], ["typing-extensions"]),
    ("anywidget", "anywidget==0.11.0", ["anywidget"], ["ipywidgets", "psygnal", "typing-extensions"]),
]
WASM = {"pydantic-core"}  # wheels built for Pyodide (PYODIDE_ABI)
REPACKED = {"pyyaml"}  # Linux wheels repacked as pure Python
# What the page's worker asks Pyodide for (uu/lite/worker.mjs): the tutor, and through the lock everything it needs.
PRELOAD = ["uu-tutor"]
