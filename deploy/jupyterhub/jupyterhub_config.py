# JupyterHub on one machine for the Unstable Unicorns tutor (uu). Step by step: docs/teachers.md, "On JupyterHub".
#
# What it sets up:
# - each learner logs in to the hub and gets a server of their own, which opens the tutor
#   (/user/<name>/voila/render/app.ipynb; share links as /hub/user-redirect/voila/render/app.ipynb?lesson=<id>);
# - the class view runs once, as the hub service "uu-class" (python -m uu.server.hubservice), at
#   /services/uu-class/; the learners' kernels report to it with their own hub token;
# - teachers are the hub group "uu-teachers", whose role grants access to that service. Nobody else can open it.
#
# Run as root (the hub starts each user's server as their own system account):
#     jupyterhub -f /etc/jupyterhub/jupyterhub_config.py
# with uu installed with its hub extra in the Python the hub runs with: pip install 'uu-tutor[hub]'
# and the hub's proxy: npm install -g configurable-http-proxy
# python3 dev.py hub-check runs this file with a test login and local processes (uu/server/hubcheck.py).

import sys
from pathlib import Path

from uu.server.hubconfig import APP_URL, SINGLEUSER_CONFIG_DIR

c = get_config()  # noqa: F821  (JupyterHub provides get_config)

# ---- change these ------------------------------------------------------------------------------------------------
TEACHERS = ["teacher"]                    # hub user names of the teachers (the group uu-teachers)
DATA = Path("/srv/uu")                    # where the class view keeps its database (readable by root only)
TEACHER_LESSONS = DATA / "teacher-lessons"  # teachers' own lessons (*.yaml), readable by every user; may be absent
CLASS_PORT = 10101                        # the class service's port on this machine (not reachable from outside)

# ---- who may log in ----------------------------------------------------------------------------------------------
# PAM: the machine's own accounts (the default). A school usually swaps in its single sign-on, for example
# c.JupyterHub.authenticator_class = "generic-oauth" (pip install oauthenticator) or "ltiauthenticator.lti13.
# authenticator.LTI13Authenticator" from a learning platform; then set that authenticator's allowed users.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allow_all = True          # every account that can log in; or c.Authenticator.allowed_users = {...}
c.Authenticator.admin_users = set()       # hub admins also see the class view (their role has access:services)

# ---- each learner's server -----------------------------------------------------------------------------------
# LocalProcessSpawner: one process per user, run as that user's system account (home: their home folder).
# For containers per user on one machine: DockerSpawner with the image of deploy/z2jh/Dockerfile.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.default_url = APP_URL           # straight into the tutor
c.Spawner.environment = {
    # uu's settings for a user's server: tracebacks hidden, sources stripped, the app notebook as the root
    "JUPYTER_CONFIG_PATH": SINGLEUSER_CONFIG_DIR,
    # where the learners' kernels report (uu/tutor/hubreport.py); remove to turn the class view off
    "UU_CLASS_SERVICE_URL": f"http://127.0.0.1:{CLASS_PORT}/services/uu-class/",
    # the tables for several people ("Play with others"), served by the same service; remove to turn them off
    "UU_TABLES_URL": f"http://127.0.0.1:{CLASS_PORT}/services/uu-class/uu/tables",
    "UU_LESSONS_DIR": str(TEACHER_LESSONS),
}
c.Spawner.cmd = [str(Path(sys.executable).with_name("jupyterhub-singleuser"))]  # the same Python environment
c.Spawner.mem_limit = "512M"              # enforced by container spawners; a tutor user needs about 200 MiB
c.Spawner.http_timeout = 60
c.Spawner.start_timeout = 120

# ---- the class view as a hub service -------------------------------------------------------------------------
c.JupyterHub.services = [
    {
        "name": "uu-class",
        "url": f"http://127.0.0.1:{CLASS_PORT}",
        "command": [sys.executable, "-m", "uu.server.hubservice", "--db", str(DATA / "uu-class.sqlite3")],
        "oauth_no_confirm": True,         # teachers are not asked to confirm the login each time
        "display": True,                  # listed on the hub's home page for those who may open it
    },
]
c.JupyterHub.load_groups = {"uu-teachers": {"users": TEACHERS}}
c.JupyterHub.load_roles = [
    {
        "name": "uu-teachers",
        "description": "Sees the class view (the uu-class service)",
        "groups": ["uu-teachers"],
        "scopes": ["access:services!service=uu-class"],
    },
]

# ---- the hub itself --------------------------------------------------------------------------------------------
c.JupyterHub.bind_url = "http://:8000"    # put TLS in front (nginx, Caddy) or set ssl_cert/ssl_key here
c.JupyterHub.db_url = "sqlite:////srv/jupyterhub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "/srv/jupyterhub/jupyterhub_cookie_secret"
