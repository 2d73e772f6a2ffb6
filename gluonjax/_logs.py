"""JAX's debug lines stay out of MXNet scripts' logs.

MXNet scripts often start with ``logging.basicConfig(level=logging.DEBUG)``; JAX (and the file
lock of its compilation cache) then print hundreds of debug lines per program compiled. Their
loggers get level WARNING here, unless the user has set a level for them already (or asked
for JAX's logs through ``JAX_LOGGING_LEVEL``): then theirs stands. Called before jax is
imported, so that jax's own import-time lines are quiet too.
"""
import logging
import os

LIBRARY_LOGGERS = ('jax', 'filelock')


def quiet_library_loggers():
    if os.environ.get('JAX_LOGGING_LEVEL', 'NOTSET').upper() != 'NOTSET':
        return
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)
