"""Run an MXNet script on gluonjax, unmodified: ``python -m gluonjax.run script.py [args]``.

``import mxnet`` inside the script (and everything it imports) resolves to gluonjax (see
:func:`gluonjax.alias_as_mxnet`). ``python -m gluonjax.run -m package.module [args]`` runs a
module the same way. The script sees ``sys.argv == ['script.py', args...]`` and runs as
``__main__``, with its own directory first on ``sys.path``, as ``python script.py`` would.
"""
import os
import runpy
import sys

USAGE = 'usage: python -m gluonjax.run script.py [args...]\n       python -m gluonjax.run -m module [args...]'


def _numpy_1x_printing():
    """Print numpy scalars as numpy 1.x did (``3.5``, not ``np.float32(3.5)``): MXNet 1.9 runs
    on numpy < 2, so scripts printing ``(loss.asscalar(), acc)`` show the plain numbers."""
    import numpy as np
    if int(np.__version__.split('.')[0]) >= 2:
        np.set_printoptions(legacy='1.25')


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ('-h', '--help'):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    from ._alias import alias_as_mxnet
    alias_as_mxnet()
    _numpy_1x_printing()
    if argv[0] == '-m':
        if len(argv) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = [argv[1]] + argv[2:]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(argv[1], run_name='__main__', alter_sys=True)
        return 0
    script = argv[0]
    if not os.path.exists(script):
        print('gluonjax.run: cannot open file %r: no such file' % script, file=sys.stderr)
        return 2
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name='__main__')
    return 0


if __name__ == '__main__':
    sys.exit(main())
