"""``import mxnet`` resolved to gluonjax: ``gluonjax.alias_as_mxnet()`` in-process, and
``python -m gluonjax.run`` on unmodified scripts in a subprocess, including the workflows of
the d2l.ai book's early chapters (tests/mxnet_scripts/d2l_early_chapters.py) on FashionMNIST
(MNIST when FashionMNIST is not installed) with accuracy floors."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import gluonjax
from gluonjax import run as gj_run

SCRIPTS = pathlib.Path(__file__).resolve().parent / 'mxnet_scripts'


@pytest.fixture
def alias():
    assert 'mxnet' not in sys.modules, 'a test left the alias installed'
    yield gluonjax.alias_as_mxnet()
    gluonjax._alias.remove_mxnet_alias()


def test_alias_resolves_mxnet_names_to_gluonjax_modules(alias):
    import mxnet as mx
    from mxnet import autograd, gluon, init, nd, np, npx
    from mxnet.gluon import nn
    import mxnet.gluon.data.vision as vision
    import mxnet.numpy
    assert mx.__version__ == '1.9.1' and gluonjax.__version__ != '1.9.1'
    assert nd is gluonjax.nd and autograd is gluonjax.autograd and mx.gluon is gluonjax.gluon
    assert gluon is gluonjax.gluon and nn is gluonjax.gluon.nn and init is gluonjax.initializer
    assert np is gluonjax.np and npx is gluonjax.npx and mxnet.numpy is gluonjax.np
    assert vision is gluonjax.gluon.data.vision
    assert mx.nd.NDArray is gluonjax.nd.NDArray
    import mxnet.gluon.nn as nn_module
    assert nn_module is nn and sys.modules['mxnet.gluon.nn'] is gluonjax.gluon.nn
    from mxnet.contrib.ndarray import MultiBoxPrior  # a module in MXNet, an alias of mx.nd.contrib here
    import mxnet.contrib.symbol
    assert MultiBoxPrior is gluonjax.nd.contrib.MultiBoxPrior and mxnet.contrib.symbol is gluonjax.sym.contrib


def test_modules_imported_through_the_alias_keep_their_own_spec(alias):
    """A gluonjax module imported as ``mxnet.x`` keeps its spec, so the relative imports it runs
    at call time raise no ImportWarning (``__package__ != __spec__.parent``) where warnings are on:
    MXNet's test_global_norm_clip counts the warnings of a call."""
    import warnings
    import mxnet.gluon.utils as utils
    assert utils is gluonjax.gluon.utils and utils.__spec__.name == 'gluonjax.gluon.utils'
    x = gluonjax.nd.array([1.0, float('nan')])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        utils.clip_global_norm([x], 1.0)
    assert [w.category for w in caught] == [UserWarning]  # the nan warning alone


def test_alias_unknown_submodule_is_an_ordinary_import_error(alias):
    with pytest.raises(ImportError, match="No module named 'mxnet.no_such_module'"):
        import mxnet.no_such_module  # noqa: F401


def test_alias_refuses_when_another_mxnet_is_imported(monkeypatch):
    monkeypatch.setitem(sys.modules, 'mxnet', type(sys)('mxnet'))
    with pytest.raises(ImportError, match='already imported'):
        gluonjax.alias_as_mxnet()
    import numpy
    assert 'float' not in numpy.__dict__  # refused before NumPy was touched


def test_remove_alias_forgets_mxnet(alias):
    import mxnet  # noqa: F401
    gluonjax._alias.remove_mxnet_alias()
    assert 'mxnet' not in sys.modules
    assert not any(type(f).__name__ == 'MXNetAliasFinder' for f in sys.meta_path)
    gluonjax.alias_as_mxnet()  # the fixture removes it again


def test_run_usage_errors(capsys, tmp_path):
    assert gj_run.main([]) == 2
    assert 'usage' in capsys.readouterr().err
    try:
        assert gj_run.main([str(tmp_path / 'missing.py')]) == 2  # (aliases mxnet in this process)
    finally:
        gluonjax._alias.remove_mxnet_alias()
    assert 'no such file' in capsys.readouterr().err


def _run(args, cwd, timeout=240):
    env = dict(os.environ)
    return subprocess.run([sys.executable, '-m', 'gluonjax.run'] + args, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env)


def test_script_with_import_mxnet_runs_unmodified(tmp_path):
    (tmp_path / 'helper.py').write_text('VALUE = 7\n')
    script = tmp_path / 'train.py'
    script.write_text(textwrap.dedent('''
        import sys
        import mxnet as mx
        from mxnet import nd, autograd, gluon
        from mxnet.gluon import nn
        from gluonjax import nd as gluonjax_nd
        import helper                      # the script's own directory is on sys.path

        net = nn.Dense(1, in_units=2)
        net.initialize(mx.init.One())
        x = nd.array([[1., 2.]])
        x.attach_grad()
        with autograd.record():
            y = net(x)
        y.backward()
        print(__name__, sys.argv, helper.VALUE, y.asnumpy().tolist(), x.grad.asnumpy().tolist())
        print(mx.__name__, mx.__version__, mx.nd is gluonjax_nd)
        sys.exit(3)                        # the script's exit status is the command's
    '''))
    out = _run([str(script), '--epochs', '3'], cwd=tmp_path)
    assert out.returncode == 3, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "__main__ ['%s', '--epochs', '3'] 7 [[3.0]] [[1.0, 1.0]]" % script
    assert lines[1] == 'mxnet 1.9.1 True'


@pytest.fixture(scope='module')
def d2l(tmp_path_factory):
    """Run the d2l early-chapter workflows once, through ``python -m gluonjax.run``."""
    from gluonjax.gluon.data.vision import _idx
    if not (_idx.find_files(['t10k-images-idx3-ubyte'], [_idx.DEBIAN_FASHION_MNIST_DIR])
            or _idx.find_files(['t10k-images-idx3-ubyte'], [_idx.PACKAGE_MNIST_DIR])):
        pytest.skip('neither FashionMNIST nor MNIST files are available')
    tmp = tmp_path_factory.mktemp('d2l')
    result = tmp / 'results.json'
    out = _run([str(SCRIPTS / 'd2l_early_chapters.py'), str(result)], cwd=tmp, timeout=400)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(result.read_text())


def test_d2l_script_runs_as_main_under_the_alias(d2l):
    assert d2l['mxnet_is'] == 'mxnet' and d2l['main'] == '__main__'


def test_d2l_linear_regression_recovers_the_parameters(d2l):
    for name in ('linreg_scratch', 'linreg_concise'):
        w, b = d2l[name]['w'], d2l[name]['b']
        assert w == pytest.approx([2, -3.4], abs=0.1) and b == pytest.approx(4.2, abs=0.1), name
    assert d2l['linreg_scratch']['loss'] < 0.01
    assert d2l['linreg_concise']['types'] == ['ndarray', 'ndarray', 'ndarray']  # np arrays throughout


def test_d2l_classifiers_reach_accuracy_floors(d2l):
    # 10 epochs on a 5120-image subset (the book trains on all 60000 and reports about 0.85 for
    # these models; D2L_FULL=1 runs the script on the full dataset)
    assert d2l['softmax_scratch']['test_acc'] > 0.75
    assert d2l['softmax_concise']['test_acc'] > 0.75
    assert d2l['mlp_concise']['test_acc'] > 0.72
    assert d2l['softmax_concise']['train_loss'] < 0.8


def test_d2l_lenet_layer_shapes(d2l):
    assert d2l['lenet_shapes'] == [[1, 6, 28, 28], [1, 6, 14, 14], [1, 16, 10, 10], [1, 16, 5, 5],
                                   [1, 120], [1, 84], [1, 10]]
    assert d2l['lenet_out_type'] == 'ndarray'


def test_numpy_aliases_come_with_the_alias_and_go_with_it():
    import numpy
    assert 'float' not in numpy.__dict__  # importing gluonjax leaves NumPy alone
    own_fromstring = numpy.fromstring
    raw = numpy.array([1, 258, 65535], numpy.uint16).tobytes()
    with pytest.raises(ValueError):  # NumPy 2 removed fromstring's binary mode
        numpy.fromstring(raw, dtype=numpy.uint16)
    gluonjax.alias_as_mxnet(numpy_aliases=False)
    try:
        assert 'float' not in numpy.__dict__ and numpy.fromstring is own_fromstring
    finally:
        gluonjax._alias.remove_mxnet_alias()
    gluonjax.alias_as_mxnet()  # the MXNet environment: NumPy < 1.24's aliases, as MXNet 1.9.1 had
    try:
        assert numpy.float is float and numpy.int is int and numpy.object is object
        assert numpy.array([1, 2], dtype=numpy.float).dtype == numpy.float64
        read = numpy.fromstring(raw, dtype=numpy.uint16)  # NumPy 1.x's binary mode: a writable copy
        read[0] = 7
        assert read.tolist() == [7, 258, 65535]
        assert numpy.fromstring('1 2', dtype=int, sep=' ').tolist() == [1, 2]
    finally:
        gluonjax._alias.remove_mxnet_alias()
    assert 'float' not in numpy.__dict__ and 'int' not in numpy.__dict__
    assert numpy.fromstring is own_fromstring
    with pytest.raises(AttributeError):
        numpy.float
