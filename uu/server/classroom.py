"""The class view's store, for the server's side (the teacher's page, `uu app --class`): it lives in
`uu.tutor.class_store`, below the widgets that report to it from each learner's kernel (a lower layer never
imports the server: tests/test_layers.py). These names are kept here for the server modules that read it."""

from uu.tutor.class_store import (
    CLASS_DB_ENV,
    CONNECTED_S,
    HEARTBEAT_S,
    MAX_NAME,
    ClassReporter,
    LearnerRow,
    bind_kernel,
    bound_learner,
    connect,
    learner_key,
    learner_rows,
    name_problem,
    new_learner_id,
    own_kernel_id,
    remove_row,
    valid_learner_id,
    write_row,
)

__all__ = ["CLASS_DB_ENV", "CONNECTED_S", "ClassReporter", "HEARTBEAT_S", "LearnerRow", "MAX_NAME", "bind_kernel", "bound_learner",
           "connect", "learner_key", "learner_rows", "name_problem", "new_learner_id", "own_kernel_id",
           "remove_row", "valid_learner_id", "write_row"]
