"""The persistent compilation cache: a program XLA compiled in an earlier process is read back
from disk instead of being compiled again (JAX's own cache, which gluonjax switches on).

Where: ``$GLUONJAX_CACHE_DIR``, else ``$XDG_CACHE_HOME/gluonjax/xla``, else
``~/.cache/gluonjax/xla``. Bounded by ``$GLUONJAX_CACHE_MAX_MB`` (default 2048; least recently
used entries go first). ``GLUONJAX_COMPILATION_CACHE=0`` switches it off. Several processes may
share the folder.

The bound is kept by gluonjax, not by JAX's own size limit: JAX enforces that one by listing and
reading every entry, under a lock on the whole folder, each time it stores a program (with the
tens of thousands of small programs an eager session leaves, seconds per compile, and processes
queueing on the lock). gluonjax instead prunes the folder in a background thread at import, at
most once an hour across all processes (a stamp file in the folder says when it last ran).

JAX's cache is one setting of the process, so the user's own jitted functions are cached there
too; where the user has set ``jax_compilation_cache_dir`` already, gluonjax leaves it alone.
"""
import os
import threading
import time

import jax

__all__ = ['cache_dir', 'enable_from_environment']

_OFF = ('0', 'false', 'off', 'no')


def cache_dir():
    """The folder gluonjax's compiled programs are kept in (whether or not the cache is on)."""
    if os.environ.get('GLUONJAX_CACHE_DIR'):
        return os.environ['GLUONJAX_CACHE_DIR']
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'gluonjax', 'xla')


def enable_from_environment():
    """Switch the cache on as the environment asks; the folder in use, or None when off."""
    if os.environ.get('GLUONJAX_COMPILATION_CACHE', '1').strip().lower() in _OFF:
        return None
    if jax.config.jax_compilation_cache_dir:  # the user's own choice
        return jax.config.jax_compilation_cache_dir
    try:
        max_mb = int(os.environ.get('GLUONJAX_CACHE_MAX_MB', '2048'))
    except ValueError:
        raise ValueError('GLUONJAX_CACHE_MAX_MB must be a whole number of megabytes, got %r'
                         % os.environ['GLUONJAX_CACHE_MAX_MB']) from None
    path = cache_dir()
    jax.config.update('jax_compilation_cache_dir', path)
    # gluonjax compiles many small programs (an eager operator per shape): keep them all, since
    # reading one back is cheaper than compiling it even when the compile took milliseconds.
    jax.config.update('jax_persistent_cache_min_compile_time_secs', 0)
    jax.config.update('jax_compilation_cache_max_size', -1)  # no per-store scan: see above
    threading.Thread(target=prune, args=(path, max_mb * 2 ** 20), name='gluonjax-cache-prune',
                     daemon=True).start()
    return path


PRUNE_INTERVAL_S = 3600
_STAMP = '.gluonjax-pruned'


def prune(path, max_bytes, interval_s=PRUNE_INTERVAL_S):
    """Delete the least recently used files of ``path`` until it holds at most ``max_bytes``;
    skipped when some process pruned it less than ``interval_s`` ago. Returns the bytes kept,
    or None when skipped. Files another process deletes meanwhile are simply not counted."""
    stamp = os.path.join(path, _STAMP)
    try:
        if time.time() - os.stat(stamp).st_mtime < interval_s:
            return None
    except OSError:
        pass
    try:
        os.makedirs(path, exist_ok=True)
        with open(stamp, 'w'):
            pass
        entries, total = [], 0
        with os.scandir(path) as found:
            for entry in found:
                if entry.name == _STAMP or not entry.is_file(follow_symlinks=False):
                    continue
                st = entry.stat(follow_symlinks=False)
                entries.append((max(st.st_atime, st.st_mtime), st.st_size, entry.path))
                total += st.st_size
    except OSError:
        return None
    entries.sort()
    for _, size, file in entries:
        if total <= max_bytes:
            break
        try:
            os.remove(file)
        except OSError:
            continue
        total -= size
    return total
