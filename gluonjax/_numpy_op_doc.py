"""``mx._numpy_op_doc``: the documented Python signatures of the built-in NumPy operators.

MXNet names some NumPy operators ``_np_<name>`` and gives the ``mx.np`` function of each the
signature documented in this module; MXNet's signatures are not always NumPy's
(``mx.np.sum(a, axis, dtype, keepdims, initial, out)``: the fourth positional argument is
``keepdims``, where NumPy's is ``out``). In gluonjax the signature is the operator entry's ``Np``
(``ops/numpy_ops.py``), so this module is read off the table: one record ``_np_<function>`` per
``mx.np`` function of an ``_np_*`` operator (``_np_sum``, ``_np_amax`` and ``_np_max``, ...), with
that function's signature and summary. A record is documentation only: calling it raises
TypeError naming the function to call. ``tests/test_numpy_ops_more.py`` pins the signatures to
MXNet 1.9.1's.
"""
import inspect

from .numpy_op_signature import _get_builtin_op
from .ops._registry import all_ops, np_entries

__all__ = []


def _record(record_name, public, fn):
    def entry(*args, **kwargs):
        raise TypeError('%s only documents the signature of mx.np.%s: call mx.np.%s'
                        % (record_name, public, public))
    entry.__name__ = entry.__qualname__ = record_name
    entry.__signature__ = inspect.signature(fn)
    summary = (fn.__doc__ or '').split('\n\n')[1] if '\n\n' in (fn.__doc__ or '') else (fn.__doc__ or '')
    entry.__doc__ = '%s\n\nThe signature of ``mx.np.%s``.' % (summary.strip(), public)
    return entry


def _records():
    """A record for each _np_* operator and for each other mx.np name of one (amax beside max)."""
    names = {name for name in all_ops() if name.startswith('_np_')}
    names.update('_np_' + public for public, (op, _spec) in np_entries('function').items()
                 if op.name.startswith('_np_') and '.' not in public)
    found = {}
    for name in sorted(names):
        fn = _get_builtin_op(name)
        if fn is not None:
            found[name] = _record(name, name[len('_np_'):], fn)
    return found


globals().update(_records())
