"""A bound on the compiled programs a process keeps loaded.

On the CPU each program XLA compiles (or reads back from the persistent cache) maps its code into
memory regions of the process (three per object file, and XLA splits a large program into
several), and jax keeps every program of every jitted function for as long as the function
lives. Linux allows a process 65,530 memory maps (``vm.max_map_count``): a process that meets
ever new shapes for long enough (MXNet's test_numpy_op run as one process; a long notebook)
reaches it, and XLA then crashes with a segmentation fault inside its next compile. Eager operators on new shapes compile little in gluonjax, but what they
compile adds up over thousands of calls.

So gluonjax counts the programs compiled or loaded in the process (jax's monitoring events: the
user's own jitted functions count too) and every ``CHECK_EVERY`` of them reads how many maps the
process holds; past half of the system's limit (a program holds from 3 maps to 30 or more: XLA
splits a large one into several object files), it clears jax's in-memory compilation caches at
the next gluonjax operator call made outside any trace: the programs are released (their maps
with them), and the ones still in use are read back from the persistent cache
(``_compile_cache``) or compiled again at their next call. Where the maps cannot be read (no
``/proc``), the sweep comes after ``LIMIT`` programs. gluonjax's own caches (kernels,
first-call counts) are kept: they hold jitted functions, not programs.
``GLUONJAX_MAX_LOADED_PROGRAMS=0`` never sweeps.
"""
import os

import jax
from jax._src import core as _jax_core
from jax._src import monitoring

__all__ = ['LIMIT', 'MAP_LIMIT', 'due', 'sweep', 'loaded', 'maps_in_use']

LIMIT = int(os.environ.get('GLUONJAX_MAX_LOADED_PROGRAMS', '8000'))  # without /proc: programs
CHECK_EVERY = 256  # programs made between two counts of the process's maps
_MAPS = '/proc/self/maps'
due = False  # set when the programs made since the last sweep should go: read on hot paths
_made = [0]


def _map_limit():
    """Half the memory maps the system allows a process (None where it cannot be read)."""
    try:
        with open('/proc/sys/vm/max_map_count') as f:
            return int(f.read()) // 2
    except (OSError, ValueError):
        return None


MAP_LIMIT = _map_limit() if os.path.exists(_MAPS) else None


def maps_in_use():
    """How many memory maps the process holds now."""
    with open(_MAPS, 'rb') as f:
        return f.read().count(b'\n')


def loaded():
    """Programs compiled or read from the persistent cache since the last sweep."""
    return _made[0]


def _one_more():
    global due
    _made[0] += 1
    if not LIMIT or due:
        return
    if MAP_LIMIT is None:
        due = _made[0] >= LIMIT
    elif _made[0] % CHECK_EVERY == 0:
        due = maps_in_use() > MAP_LIMIT


def _on_duration(event, duration, **kwargs):
    if event == '/jax/core/compile/backend_compile_duration':
        _one_more()


def _on_event(event, **kwargs):
    if event == '/jax/compilation_cache/cache_hits':
        _one_more()


def sweep():
    """Release every program jax holds in memory, if no trace is in progress (a sweep inside one
    would pull its caches from under it: it waits for the next call then)."""
    global due
    if not _jax_core.trace_state_clean():
        return
    due = False
    _made[0] = 0
    jax.clear_caches()


monitoring.register_event_duration_secs_listener(_on_duration)
monitoring.register_event_listener(_on_event)
