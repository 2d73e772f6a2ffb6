"""64-bit dtypes inside gluonjax only: jax's x64 switch, turned on at gluonjax's boundary.

MXNet has float64 and int64 arrays; jax keeps them only while ``jax_enable_x64`` is on. Turning
it on for the whole process would change the user's own jax code (``jnp.zeros(2)`` float64,
slower jitted code), so gluonjax leaves the process setting alone and turns x64 on for the
current thread while its own code runs jax: a kernel call, moving host data to a device, a
compiled update, a backward pass. jax keys its compilation caches on the switch, so every
compiled function gluonjax makes is traced and called with it on, and compiles once.

Forms, all nesting freely (each puts back the state it found):

* ``@x64`` on a function that runs jax on arrays (an entry point of a layer);
* ``jit(fn)``: a ``jax.jit`` whose calls enter x64 (compiled helpers called from several places);
* ``prev = on()`` ... ``finally: restore(prev)`` inline, on the hot paths (kernel calls).

The switch is per thread and each boundary sets it, so threads need nothing of their own:
DataLoader workers run batchify through ``apply_fn`` and ``nd.array`` (boundaries), and the
user's code around them (a Dataset's ``__getitem__``) keeps the user's setting.

A float64 jax array handed to the user (``NDArray._data``) stays float64; what the user's jax
code computes from it outside gluonjax follows jax's rules without x64 (float32), as for any
array made under ``jax.enable_x64``. ``asnumpy()`` gives the float64 values.
"""
import functools

import jax

__all__ = ['x64', 'jit', 'on', 'restore']


def _switch():
    """(on, restore): set this thread's x64 flag, returning the previous value; put it back.

    ``jax.enable_x64`` is the public state object behind ``jax_enable_x64``;
    ``jax.enable_x64(True)`` makes a new context manager per use (~1.9 us per enter and exit,
    measured with jax 0.10.2). That context manager only calls the state's ``swap_local`` and
    ``set_local`` (x64 has no update hooks), which cost ~0.25 us together: on the eager path
    (about 10 us per operator) the difference matters. They are undocumented methods, so this is
    the one place that uses them, with the public context manager as the fallback.
    """
    state = jax.enable_x64
    swap = getattr(state, 'swap_local', None)
    put_back = getattr(state, 'set_local', None)
    hooks = (getattr(state, '_update_thread_local_hook', None), getattr(state, '_update_global_hook', None))
    if swap is not None and put_back is not None and hooks == (None, None):
        return functools.partial(swap, True), put_back

    def enter():
        cm = state(True)
        cm.__enter__()
        return cm

    def leave(cm):
        cm.__exit__(None, None, None)
    return enter, leave


on, restore = _switch()


def x64(fn):
    """Decorator: ``fn`` runs with x64 on (and the caller's state is restored after)."""
    if getattr(fn, '__wrapped_x64__', False):  # already a boundary: one switch is enough
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        prev = on()
        try:
            return fn(*args, **kwargs)
        finally:
            restore(prev)
    wrapper.__wrapped_x64__ = True
    return wrapper


def jit(fn, **kwargs):
    """``jax.jit(fn, **kwargs)`` whose calls run with x64 on: a compiled helper that gluonjax
    calls from several places (a metric's running sum, ``zeros_like`` of gradient buffers)."""
    return x64(jax.jit(fn, **kwargs))
