"""JAX's debug lines stay out of MXNet scripts' logs.

MXNet scripts often start with ``logging.basicConfig(level=logging.DEBUG)``; JAX (and the file
lock of its compilation cache) then print hundreds of debug lines per program compiled. Their
loggers get level WARNING here, unless the user has set a level for them already (or asked
for JAX's logs through ``JAX_LOGGING_LEVEL``): then theirs stands. Called before jax is
imported, so that jax's own import-time lines are quiet too.
"""
import logging
import os
import sys
import time

LIBRARY_LOGGERS = ('jax', 'filelock')


def quiet_library_loggers():
    if os.environ.get('JAX_LOGGING_LEVEL', 'NOTSET').upper() != 'NOTSET':
        return
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)


def native_log(source, message):
    """A line as MXNet's C++ ``LOG(INFO)`` prints it on stderr (``[HH:MM:SS] file:line: text``),
    for the messages MXNet 1.9.1 gives from its C++ side (an iterator's load line, an
    operator's deprecation), so that a script's output reads the same."""
    sys.stderr.write('[%s] %s: %s\n' % (time.strftime('%H:%M:%S'), source, message))
