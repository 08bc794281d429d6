"""uu's settings for each user's jupyter server on JupyterHub (read through JUPYTER_CONFIG_PATH, see __init__.py)."""

from uu.server.hubconfig import configure_singleuser

configure_singleuser(get_config())  # type: ignore[name-defined]  # noqa: F821  (jupyter provides get_config)
