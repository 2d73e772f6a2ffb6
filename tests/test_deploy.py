"""gluonjax.deploy: StableHLO artefacts from jax.export, reloaded here and in a fresh process."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gluonjax as mx
from gluonjax.base import MXNetError

sys.path.insert(0, os.path.dirname(__file__))
from test_gluon_block import Affine, TwoHeads, _x  # noqa: E402


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [o for item in out for o in _flat(item)]
    return [out]


def test_export_and_load_with_symbolic_batch(tmp_path):
    net = Affine()
    net.initialize(mx.init.Uniform(1.0))
    path = str(tmp_path / 'affine')
    module = mx.deploy.export_stablehlo(net, path, _x((2, 3)))
    assert os.path.exists(module)
    model = mx.deploy.load(path)
    assert model.meta['batch_polymorphic'] and model.meta['inputs'][0]['shape'] == ['b', 3]
    assert 'cpu' in model.meta['platforms']
    for batch in (2, 7):
        x = _x((batch, 3), batch)
        np.testing.assert_allclose(model(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(model(x.asnumpy()).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    with pytest.raises(MXNetError, match='expected 1 inputs'):
        model(x, x)
    with pytest.raises(MXNetError, match='has shape'):
        model(_x((2, 4)))


def test_convolutional_net_exports_with_a_symbolic_batch(tmp_path):
    """A conv net exported from a batch of 1 runs on other batch sizes (the CPU im2col path
    needs a concrete batch, so a symbolic one takes XLA's convolution)."""
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Conv2D(4, kernel_size=3, activation='relu'), mx.gluon.nn.MaxPool2D(2),
            mx.gluon.nn.Flatten(), mx.gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    path = str(tmp_path / 'conv')
    mx.deploy.export_stablehlo(net, path, _x((1, 1, 8, 8)))
    model = mx.deploy.load(path)
    assert model.meta['batch_polymorphic']
    for batch in (1, 5):
        x = _x((batch, 1, 8, 8), batch)
        np.testing.assert_allclose(model(x).asnumpy(), net(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_several_inputs_and_outputs(tmp_path):
    net = TwoHeads()
    net.initialize(mx.init.Uniform(1.0))
    a, b = _x((3, 3), 1), _x((3, 3), 2)
    path = str(tmp_path / 'two')
    mx.deploy.export_stablehlo(net, path, [a, b])
    model = mx.deploy.load(path)
    got = model(a, b)
    want = _flat(net(a, b))
    assert len(got) == 3
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)


def test_fixed_shapes_when_asked(tmp_path):
    net = Affine()
    net.initialize()
    path = str(tmp_path / 'fixed')
    mx.deploy.export_stablehlo(net, path, _x((2, 3)), batch_polymorphic=False)
    model = mx.deploy.load(path)
    assert model.meta['inputs'][0]['shape'] == [2, 3]
    with pytest.raises(MXNetError, match='has shape'):
        model(_x((4, 3)))


def test_load_rejects_other_directories(tmp_path):
    with pytest.raises(MXNetError, match='not a directory'):
        mx.deploy.load(str(tmp_path / 'missing'))
    (tmp_path / 'meta.json').write_text('{"format": "something else"}')
    with pytest.raises(MXNetError, match='not a gluonjax StableHLO artefact'):
        mx.deploy.load(str(tmp_path))


def test_artefact_runs_in_a_fresh_process_without_the_model_code(tmp_path):
    net = TwoHeads()
    net.initialize(mx.init.Uniform(1.0))
    a, b = _x((4, 3), 1), _x((4, 3), 2)
    path = str(tmp_path / 'artefact')
    mx.deploy.export_stablehlo(net, path, [a, b])
    np.save(str(tmp_path / 'a.npy'), a.asnumpy())
    np.save(str(tmp_path / 'b.npy'), b.asnumpy())
    # The fresh process knows nothing of TwoHeads: only gluonjax.deploy and the files.
    script = textwrap.dedent('''
        import sys, numpy as np
        import gluonjax as mx
        d = sys.argv[1]
        model = mx.deploy.load(d + '/artefact')
        outs = model(np.load(d + '/a.npy'), np.load(d + '/b.npy'))
        np.savez(d + '/out.npz', *[o.asnumpy() for o in outs])
    ''')
    env = dict(os.environ)
    env.pop('XLA_FLAGS', None)
    proc = subprocess.run([sys.executable, '-c', script, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = np.load(str(tmp_path / 'out.npz'))
    want = _flat(net(a, b))
    for i, w in enumerate(want):
        np.testing.assert_allclose(got['arr_%d' % i], w.asnumpy(), rtol=1e-6)
