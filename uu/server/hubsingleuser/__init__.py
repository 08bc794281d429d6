"""A folder for JUPYTER_CONFIG_PATH on JupyterHub: its jupyter_server_config.py applies uu.server.hubconfig to each
user's server (deploy/jupyterhub/jupyterhub_config.py points the spawner at it; deploy/z2jh/Dockerfile links it
into /etc/jupyter)."""
