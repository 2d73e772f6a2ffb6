"""Sockeye 2.3.17, unmodified, on gluonjax (``import mxnet`` resolved to gluonjax): a transformer
SockeyeModel built from its ModelConfig, with weights saved by real MXNet
(tests/clients/data/make_sockeye_ref.py), hybridizes and gives MXNet's logits."""
import os
import sys

import numpy as np

from client_import import import_client  # tests/clients/client_import.py (pytest puts this folder on sys.path)

sockeye = import_client('sockeye')
DATA = os.path.join(os.path.dirname(__file__), 'data')
sys.path.insert(0, DATA)
from make_sockeye_ref import build  # noqa: E402  (the model the reference was made with)


def test_transformer_logits_match_mxnet():
    net, inputs = build()
    net.load_parameters(os.path.join(DATA, 'sockeye_transformer.params'))
    net.hybridize()
    logits = net(*inputs)['logits']
    assert logits.shape == (2, 3, 20)
    np.testing.assert_allclose(logits.asnumpy(), np.load(os.path.join(DATA, 'sockeye_logits.npy')),
                               rtol=1e-4, atol=1e-5)
