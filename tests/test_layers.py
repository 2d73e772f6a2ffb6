"""Layering of the package, read from the sources with ``ast`` (nothing is imported).

Every import counts: module level, inside functions, ``from . import x`` and
``importlib.import_module('literal')``. Each module belongs to one layer (LAYERS,
matched by the longest module-path prefix); an import may only point to the same
layer or one below it, and the module graph may hold no circle.
"""
import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ('gluonjax', 'kvstore', 'viz')

# Lowest layer first. Each entry: (layer name, module-path prefixes). A module's
# layer is the one of its longest matching prefix.
LAYERS = [
    ('base', ['gluonjax.base', 'gluonjax.context', 'gluonjax._caches', 'gluonjax._files', 'gluonjax._logs', 'gluonjax._x64', 'gluonjax._transfer',
              'gluonjax._compile_cache', 'gluonjax._executables',
              'gluonjax.name', 'gluonjax.symbol._attribute', 'gluonjax.symbol._name',
              'gluonjax.symbol._attr_order']),
    ('ops', ['gluonjax.ops', 'gluonjax._tape']),
    ('ndarray', ['gluonjax.ndarray', 'gluonjax.random']),
    ('autograd', ['gluonjax.autograd']),
    ('symbol', ['gluonjax.symbol']),
    ('numpy', ['gluonjax.numpy', 'gluonjax.numpy_extension', 'gluonjax.util', 'gluonjax.numpy_op_signature',
               'gluonjax._numpy_op_doc']),
    ('gluon', ['gluonjax.gluon', 'gluonjax.initializer', 'gluonjax.optimizer',
               'gluonjax.lr_scheduler', 'gluonjax.metric', 'gluonjax.io',
               'gluonjax.deploy', 'gluonjax.operator', 'gluonjax.runtime',
               'gluonjax.recordio', 'gluonjax.image', 'gluonjax.io_image', 'gluonjax.model',
               'gluonjax.callback', 'gluonjax.monitor', 'gluonjax.contrib',
               'gluonjax.profiler', 'gluonjax.onnx', 'gluonjax.rnn', 'gluonjax.engine']),
    ('tools', ['kvstore', 'viz']),
    # MXNet's Module API trains through a KVStore, as MXNet's does: above the kvstore package.
    ('module', ['gluonjax.module', 'gluonjax.contrib.svrg_optimization']),
    # The package module: `import gluonjax` loads the core and registers the loaders of
    # base.upper_layer, so it may import anything and no module below may import it.
    # test_utils hands out ``mx`` itself (``from mxnet.test_utils import *`` does in MXNet).
    ('package', ['gluonjax', 'gluonjax._alias', 'gluonjax._lazy', 'gluonjax.run', 'gluonjax.test_utils']),
]

def _module_name(path):
    rel = os.path.relpath(path, ROOT)[:-len('.py')].split(os.sep)
    if rel[-1] == '__init__':
        rel = rel[:-1]
    return '.'.join(rel)


def _sources():
    """{module name: file path} for every module of the three packages."""
    found = {}
    for package in PACKAGES:
        for folder, _, files in os.walk(os.path.join(ROOT, package)):
            for name in files:
                if name.endswith('.py'):
                    path = os.path.join(folder, name)
                    found[_module_name(path)] = path
    return found


def _resolve(module, path, level, target):
    """Absolute name of a (possibly relative) import written in `module`."""
    if not level:
        return target
    package = module if path.endswith('__init__.py') else module.rpartition('.')[0]
    for _ in range(level - 1):
        package = package.rpartition('.')[0]
    return '%s.%s' % (package, target) if target else package


def _literal_import_module(node):
    """The string of ``importlib.import_module('x')`` / ``import_module('x')``, else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
    arg = node.args[0]
    if name == 'import_module' and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def _imports(module, path, modules):
    """[(line, imported module)] for every import in the file that names one of ours."""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    found = []

    def add(line, name):
        # `from pkg import name` names a module when pkg.name is one, else pkg itself;
        # `import a.b.c` names a.b.c. Parent packages Python runs on the way are not
        # counted: they are what the name means, not a dependency the file chose.
        while name and name not in modules:
            name = name.rpartition('.')[0]
        if name and name != module:
            found.append((line, name))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node.level, node.module)
            for alias in node.names:
                full = '%s.%s' % (base, alias.name)
                add(node.lineno, full if full in modules else base)
        else:
            literal = _literal_import_module(node)
            if literal is not None:
                add(node.lineno, literal)
    return sorted(set(found))


def _layer_of(module):
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + '.')) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def _graph():
    modules = _sources()
    return modules, {m: _imports(m, p, modules) for m, p in modules.items()}


def _circles(edges):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = [0]
    succ = {m: sorted({t for _, t in imps}) for m, imps in edges.items()}
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
    return result


def _upward(modules, edges):
    """{(importer, imported): [message]} for imports that point to a higher layer."""
    found = {}
    for module, imps in edges.items():
        here = _layer_of(module)
        for line, target in imps:
            there = _layer_of(target)
            if here is not None and there is not None and there > here:
                text = '%s:%d %s (%s) -> %s (%s)' % (
                    os.path.relpath(modules[module], ROOT), line, module, LAYERS[here][0],
                    target, LAYERS[there][0])
                found.setdefault((module, target), []).append(text)
    return found


def test_every_module_has_a_layer():
    modules, _ = _graph()
    unplaced = sorted(m for m in modules if _layer_of(m) is None)
    assert not unplaced, 'modules with no layer in LAYERS: %s' % ', '.join(unplaced)


def test_layer_prefixes_are_listed_once():
    prefixes = [p for _, group in LAYERS for p in group]
    assert len(prefixes) == len(set(prefixes))


def test_no_upward_import():
    modules, edges = _graph()
    found = _upward(modules, edges)
    new = sorted(line for lines in found.values() for line in lines)
    assert not new, 'imports into a higher layer:\n  ' + '\n  '.join(new)


def test_no_import_circle():
    _, edges = _graph()
    circles = _circles(edges)
    assert not circles, 'import circles:\n  ' + '\n  '.join(' <-> '.join(c) for c in circles)


def test_checker_sees_function_level_and_literal_imports(tmp_path):
    # The checker itself: an import inside a function and importlib with a literal both count.
    source = ("import importlib\n"
              "def f():\n    from .b import x\n"
              "def g():\n    importlib.import_module('pkg.c')\n")
    path = tmp_path / 'a.py'
    path.write_text(source)
    modules = {'pkg.a': str(path), 'pkg.b': '', 'pkg.c': ''}
    assert _imports('pkg.a', str(path), modules) == [(3, 'pkg.b'), (5, 'pkg.c')]


def test_lower_layers_reach_numpy_front_end_through_the_hook():
    # F.np / F.npx and as_np_ndarray work without anything importing mx.np first, and
    # importing it patches nothing into nd or sym (a fresh interpreter: nothing loaded yet).
    script = (
        "import sys\n"
        "import gluonjax as mx\n"
        "assert 'gluonjax.numpy' not in sys.modules\n"
        "x = mx.nd.ones((2,)).as_np_ndarray()\n"
        "assert type(x) is mx.np.ndarray and x.tolist() == [1.0, 1.0]\n"
        "assert mx.nd.np is mx.np and mx.nd.npx is mx.npx\n"
        # mx.sym.np: mx.np's functions, its creation functions building graph nodes
        "assert mx.sym.np.add is mx.np.add and mx.sym.np.zeros is not mx.np.zeros\n"
        "assert 'np' not in vars(mx.nd) and 'np' not in vars(mx.sym)\n"
        "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, '-c', script], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == 'ok', out.stderr
