"""pytest plugin: make `import mxnet` resolve to gluonjax before any test module is collected.

Loaded with `-p mxnet_alias_plugin` (run.sh puts this folder on PYTHONPATH). Only the gluonjax
run loads it; the MXNet reference run does not.

GJ_SHIM=1 (optional, a *diagnostic* mode; the strict numbers are the ones without it): names that
a test module imports at *collection* time but gluonjax lacks (`from mxnet.test_utils import
use_np`, `from mxnet import runtime`, `import mxnet.operator`...) are bound to placeholder objects
instead of failing the whole file. During collection a placeholder called with one function/class
returns it unchanged (decorator use), any other call returns another placeholder, and it can be
subclassed. Once collection is over the fallback is switched off (a missing attribute raises the
ordinary AttributeError again), and calling a placeholder raises
    NotImplementedError('gluonjax-shim: missing <module>.<name>')
so every test that really uses a missing name still fails, with the name in its message. Tests
that pass in this mode pass without touching the missing names.
"""
import importlib
import importlib.abc
import importlib.machinery
import inspect
import os
import pkgutil
import sys
import types

import gluonjax

gluonjax.alias_as_mxnet()


def _restore_numpy_aliases():
    """MXNet 1.9.1's suite was written for NumPy < 1.24 (the reference run has 1.23.5), where
    np.int, np.float, np.object... were deprecated aliases of the builtins; later NumPy removed
    them. The gluonjax run puts back those that are missing, so that a test such as
    test_slice_channel (``.astype(np.int)``) fails on gluonjax's behaviour, not on its NumPy."""
    import numpy
    for name, builtin in (('int', int), ('float', float), ('complex', complex), ('object', object),
                          ('bool', bool), ('str', str), ('long', int), ('unicode', str)):
        if name not in vars(numpy):  # (hasattr would warn for some)
            setattr(numpy, name, builtin)


_restore_numpy_aliases()

SHIM = os.environ.get('GJ_SHIM') == '1'
_state = {'collecting': True}
MISSING = {}   # qualified name -> how many test modules bound it at import


class _Missing:
    def __init__(self, qualname):
        object.__setattr__(self, '_qualname', qualname)

    def __repr__(self):
        return '<gluonjax-shim missing %s>' % self._qualname

    def __call__(self, *args, **kwargs):
        if _state['collecting']:
            if len(args) == 1 and not kwargs and (inspect.isfunction(args[0]) or isinstance(args[0], type)):
                return args[0]
            return _Missing(self._qualname + '()')
        raise NotImplementedError('gluonjax-shim: missing %s' % self._qualname)

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return _Missing(self._qualname + '.' + name)

    def __mro_entries__(self, bases):
        return (object,)

    def __iter__(self):
        if _state['collecting']:
            return iter(())
        raise NotImplementedError('gluonjax-shim: missing %s' % self._qualname)

    def __bool__(self):
        return False


def _note(q):
    MISSING[q] = MISSING.get(q, 0) + 1


def _wrap_module_getattr(mod):
    orig = mod.__dict__.get('__getattr__')
    if getattr(orig, '_gj_shim', False):
        return

    def __getattr__(name, _orig=orig, _mod=mod):
        if _orig is not None:
            try:
                return _orig(name)
            except AttributeError:
                pass
        if _state['collecting'] and not name.startswith('__') and not name.startswith('_mock') \
                and not name.startswith('_pytest'):
            q = _mod.__name__ + '.' + name
            _note(q)
            return _Missing(q)
        raise AttributeError("module %r has no attribute %r" % (_mod.__name__, name))

    __getattr__._gj_shim = True
    __getattr__._gj_orig = orig
    mod.__getattr__ = __getattr__


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        m = types.ModuleType(spec.name)
        m.__path__ = []
        _note(spec.name.replace('mxnet', 'gluonjax', 1))
        _wrap_module_getattr(m)
        return m

    def exec_module(self, module):
        pass


class _StubFinder(importlib.abc.MetaPathFinder):
    """After the alias finder: a missing mxnet.<sub> module becomes a placeholder module."""

    def find_spec(self, fullname, path=None, target=None):
        if not _state['collecting'] or not (fullname.startswith('mxnet.')):
            return None
        return importlib.machinery.ModuleSpec(fullname, _StubLoader(), is_package=True)


def _gluonjax_modules():
    return [m for n, m in list(sys.modules.items())
            if (n == 'gluonjax' or n.startswith('gluonjax.')) and isinstance(m, types.ModuleType)]


if SHIM:
    for info in pkgutil.walk_packages(gluonjax.__path__, 'gluonjax.'):
        try:
            importlib.import_module(info.name)
        except Exception:
            pass
    for m in _gluonjax_modules():
        _wrap_module_getattr(m)
    sys.meta_path.append(_StubFinder())


def pytest_collect_file(file_path, parent):
    if SHIM:
        for m in _gluonjax_modules():   # modules imported since
            _wrap_module_getattr(m)
    return None


def pytest_collection_finish(session):
    _state['collecting'] = False
    if SHIM:
        for m in _gluonjax_modules() + [m for n, m in list(sys.modules.items()) if n.startswith('mxnet.')]:
            g = m.__dict__.get('__getattr__')
            if getattr(g, '_gj_shim', False):
                if g._gj_orig is None:
                    del m.__dict__['__getattr__']
                else:
                    m.__getattr__ = g._gj_orig
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _StubFinder)]


def pytest_report_header(config):
    import mxnet
    return 'mxnet alias -> %s (%s)%s' % (mxnet.__name__, getattr(mxnet, '__file__', '?'),
                                         ' [GJ_SHIM=1: collection-time placeholders]' if SHIM else '')


def pytest_terminal_summary(terminalreporter):
    if SHIM and MISSING:
        terminalreporter.write_line('gluonjax-shim placeholders bound at collection: ' +
                                    ', '.join('%s' % k for k in sorted(MISSING)))
