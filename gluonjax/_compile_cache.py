"""The persistent compilation cache: a program XLA compiled in an earlier process is read back
from disk instead of being compiled again (JAX's own cache, which gluonjax switches on).

Where: ``$GLUONJAX_CACHE_DIR``, else ``$XDG_CACHE_HOME/gluonjax/xla``, else
``~/.cache/gluonjax/xla``. Bounded by ``$GLUONJAX_CACHE_MAX_MB`` (default 2048; least recently
used entries go first). ``GLUONJAX_COMPILATION_CACHE=0`` switches it off. Several processes may
share the folder: JAX writes each entry whole and guards the bound with a file lock.

JAX's cache is one setting of the process, so the user's own jitted functions are cached there
too; where the user has set ``jax_compilation_cache_dir`` already, gluonjax leaves it alone.
"""
import os

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
    jax.config.update('jax_compilation_cache_max_size', max_mb * 2 ** 20)
    return path
