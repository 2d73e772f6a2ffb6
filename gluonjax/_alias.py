"""``import mxnet`` resolving to gluonjax, opt-in, without a package named ``mxnet`` on disk.

:func:`alias_as_mxnet` puts a finder at the front of ``sys.meta_path``: ``mxnet.<path>`` is
``gluonjax.<path>`` (with ``mxnet.np``, ``mxnet.kv`` & co. mapped as ``gluonjax`` maps its
lazy attributes): the same module objects, so ``mxnet.nd.NDArray is gluonjax.nd.NDArray``.
``mxnet`` itself is a thin module reading every attribute from gluonjax except
``__version__``, which is MXNet's ('1.9.1'): libraries check ``mxnet>=1.4,<2.0`` while
``gluonjax.__version__`` keeps gluonjax's own. A real MXNet installed next to gluonjax is
untouched until the alias is installed, and not importable in that process afterwards.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

from ._lazy import LAZY

__all__ = ['alias_as_mxnet', 'remove_mxnet_alias', 'remove_numpy_aliases']

_ALIAS = 'mxnet'
# The MXNet release whose behaviour gluonjax follows: what ``mxnet.__version__`` reads.
MXNET_VERSION = '1.9.1'


class _MXNetModule(types.ModuleType):
    """``mxnet``: gluonjax under MXNet's name and version; attributes live on gluonjax."""

    def __getattr__(self, name):
        return getattr(sys.modules['gluonjax'], name)

    def __setattr__(self, name, value):
        setattr(sys.modules['gluonjax'], name, value)

    def __dir__(self):
        return dir(sys.modules['gluonjax'])


def _mxnet_module():
    """The ``mxnet`` module of this process (made once)."""
    module = sys.modules.get(_ALIAS)
    if isinstance(module, _MXNetModule):
        return module
    gluonjax = sys.modules['gluonjax']  # imported before any of its modules
    module = _MXNetModule(_ALIAS, gluonjax.__doc__)
    # module attributes the import system reads; the rest comes from gluonjax
    for key in ('__file__', '__path__', '__package__'):
        object.__setattr__(module, key, getattr(gluonjax, key))
    object.__setattr__(module, '__version__', MXNET_VERSION)
    return module


# MXNet modules whose gluonjax counterpart has another path: ``mx.nd.np`` and ``mx.sym.npx`` are
# mx.np and mx.npx themselves, ``mx.sym.np`` is a module object of gluonjax.numpy ('module:attribute',
# its submodules attributes of it: ``mxnet.symbol.numpy.random``).
_MOVED = {'ndarray.numpy': 'gluonjax.numpy', 'ndarray.numpy_extension': 'gluonjax.numpy_extension',
          'symbol.numpy': 'gluonjax.numpy._symbol:symbol_np', 'symbol.numpy_extension': 'gluonjax.numpy_extension'}
# MXNet's private modules that libraries import from (``from mxnet.ndarray.numpy import _op``): their
# functions are those of the public module here (the most specific path of _MOVED wins).
_MOVED.update({'ndarray.numpy._op': 'gluonjax.numpy', 'symbol.numpy._symbol': 'gluonjax.numpy._symbol:symbol_np',
               'numpy.utils': 'gluonjax.numpy',
               'numpy.function_base': 'gluonjax.numpy', 'numpy.stride_tricks': 'gluonjax.numpy',
               'numpy.io': 'gluonjax.numpy', 'numpy.arrayprint': 'gluonjax.numpy',
               'numpy.fallback_linalg': 'gluonjax.numpy.linalg',
               'ndarray.numpy_extension._op': 'gluonjax.numpy_extension._ops',
               'symbol.numpy_extension._op': 'gluonjax.numpy_extension._ops',
               'numpy_extension._op': 'gluonjax.numpy_extension._ops', 'numpy_extension.utils': 'gluonjax.numpy_extension._io',
               'ndarray.op': 'gluonjax.ndarray', 'ndarray.gen_op': 'gluonjax.ndarray', 'ndarray.utils': 'gluonjax.ndarray',
               'symbol.op': 'gluonjax.symbol', 'symbol.gen_op': 'gluonjax.symbol'})


def _target(fullname):
    """The gluonjax module standing for ``fullname`` (``mxnet.gluon.nn`` -> ``gluonjax.gluon.nn``)."""
    if fullname == _ALIAS:
        return 'gluonjax'
    rest = fullname[len(_ALIAS) + 1:]
    for path, moved in sorted(_MOVED.items(), key=lambda item: -len(item[0])):
        if rest == path or rest.startswith(path + '.'):
            return moved + rest[len(path):]
    head, _, tail = rest.partition('.')
    mapped = LAZY.get(head)
    if mapped is not None:
        return mapped + ('.' + tail if tail else '')
    return 'gluonjax.' + rest


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        if spec.name == _ALIAS:
            return _mxnet_module()
        module = _resolve(self.target)
        self._own_spec = module.__spec__  # the import system sets the alias's spec on it next
        return module

    def exec_module(self, module):
        """Nothing to run: the gluonjax module is already imported. It keeps its own spec: with
        the alias's (parent ``mxnet.gluon``, its ``__package__`` ``gluonjax.gluon``) every relative
        import it runs later raises an ImportWarning where warnings are on ("always")."""
        own = getattr(self, '_own_spec', None)
        if own is not None:
            module.__spec__ = own


def _resolve(target):
    """The module a target of ``_target`` names (a 'module:attribute.sub' is that attribute's)."""
    name, _, attributes = target.partition(':')
    module = importlib.import_module(name)
    for attribute in attributes.split('.') if attributes else ():
        module = getattr(module, attribute)
    return module


class MXNetAliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``mxnet`` and ``mxnet.*`` as the gluonjax modules of the same path."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + '.'):
            return None
        name = _target(fullname)
        if ':' in name:  # a module object without a path of its own (mx.sym.np)
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(name), is_package=False)
        try:
            found = sys.modules.get(name) or importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return None  # an ordinary "No module named 'mxnet.xyz'"
        module = sys.modules.get(name)
        is_pkg = hasattr(module, '__path__') if module is not None else found.submodule_search_locations is not None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(name), is_package=is_pkg)


def _installed():
    return next((f for f in sys.meta_path if isinstance(f, MXNetAliasFinder)), None)


# NumPy 1.24 removed these aliases of Python's types; MXNet-era code still spells them
# (GluonCV's Faster R-CNN anchors: ``np.array(sizes, dtype=np.float)``).
_NUMPY_ALIASES = {'float': float, 'int': int, 'bool': bool, 'object': object, 'complex': complex, 'str': str}
_added_numpy_aliases = []
_replaced_numpy = {}  # name -> NumPy's own function, while numpy_aliases' form stands in for it


def _fromstring_with_binary_mode(original):
    """``np.fromstring`` reading raw bytes when no ``sep`` is given, as NumPy 1.x did (NumPy 2
    raises; MXNet's image-classification scripts read MNIST so)."""
    def fromstring(string, dtype=float, count=-1, *, sep='', **kwargs):
        if sep == '' and isinstance(string, (bytes, bytearray, memoryview)):
            import numpy
            return numpy.frombuffer(string, dtype=dtype, count=count).copy()
        return original(string, dtype=dtype, count=count, sep=sep, **kwargs)
    fromstring.__doc__ = original.__doc__
    return fromstring


def alias_as_mxnet(numpy_aliases=True):
    """Make ``import mxnet`` (and ``from mxnet import np, npx, gluon, autograd, init, nd``,
    ``from mxnet.gluon import nn``...) import gluonjax, in this process.

    Call it before the first ``import mxnet``. Returns the ``mxnet`` module.
    MXNet 1.9.1 ran on NumPy < 1.24, and the code written for it still spells the aliases later
    NumPy removed: so the MXNet environment also gives NumPy back ``np.float``, ``np.int``,
    ``np.object``, ``np.complex``, ``np.str`` (Python's types, as NumPy 1.x had them) and
    ``np.fromstring``'s binary mode (NumPy 2 raises), for the whole process.
    ``numpy_aliases=False`` leaves NumPy as it is; importing gluonjax never changes it, and
    :func:`remove_mxnet_alias` takes them away.
    """
    existing = sys.modules.get(_ALIAS)
    if existing is not None and not isinstance(existing, _MXNetModule):
        raise ImportError('alias_as_mxnet: a real mxnet (%s) is already imported in this process; call '
                          'alias_as_mxnet() before anything imports mxnet'
                          % getattr(existing, '__file__', existing))
    if numpy_aliases:
        import numpy
        for name, value in _NUMPY_ALIASES.items():
            if name not in numpy.__dict__:
                setattr(numpy, name, value)
                _added_numpy_aliases.append(name)
        if 'fromstring' not in _replaced_numpy:
            _replaced_numpy['fromstring'] = numpy.fromstring
            numpy.fromstring = _fromstring_with_binary_mode(numpy.fromstring)
    if _installed() is None:
        sys.meta_path.insert(0, MXNetAliasFinder())
    sys.modules[_ALIAS] = module = _mxnet_module()
    return module


def remove_mxnet_alias():
    """Undo :func:`alias_as_mxnet` (the ``mxnet.*`` names leave ``sys.modules``)."""
    finder = _installed()
    if finder is not None:
        sys.meta_path.remove(finder)
    for name in [n for n in sys.modules if n == _ALIAS or n.startswith(_ALIAS + '.')]:
        del sys.modules[name]
    remove_numpy_aliases()


def remove_numpy_aliases():
    """Take away the NumPy aliases ``alias_as_mxnet()`` added."""
    import numpy
    while _added_numpy_aliases:
        delattr(numpy, _added_numpy_aliases.pop())
    for name, original in _replaced_numpy.items():
        setattr(numpy, name, original)
    _replaced_numpy.clear()
