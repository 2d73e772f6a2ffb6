"""GluonTS 0.16.2's other MXNet estimators (N-BEATS, Transformer, WaveNet), each trained one short
run with every parameter set to fixed values once the network is built (a training callback, so layers' own
Xavier initializers do not matter) and dropout off: the training losses, point forecasts and parameter counts are
then the same numbers on any framework; sampled forecasts give their shapes and quantile order."""
import logging
import os
import warnings

os.environ.setdefault('MXNET_MKLDNN_ENABLED', '0')  # MXNet 1.9.1's MKLDNN fails WaveNet's set_data weights

import numpy as np
import mxnet as mx
import gluonts.mx as gm
from gluonts.dataset.common import ListDataset
from gluonts.mx.trainer.callback import Callback, TrainingHistory

warnings.simplefilter('ignore')
logging.disable(logging.CRITICAL)


def ramp(shape):
    n = int(np.prod(shape))
    fan = shape[-1] if len(shape) > 1 else n
    return (((np.arange(n) * 5 % 11) - 5) / (5.0 * np.sqrt(fan))).reshape(shape)


class FixedWeights(Callback):
    """Sets every trainable parameter to fixed values after the first forward pass built the network."""

    def on_network_initializing_end(self, training_network):
        params = training_network.collect_params()
        for name in sorted(params):
            p = params[name]
            if p.grad_req == 'null':
                continue
            if name.endswith(('bias', 'beta')):
                p.set_data(mx.nd.zeros(p.shape))
            elif name.endswith('gamma'):
                p.set_data(mx.nd.ones(p.shape))
            else:
                p.set_data(mx.nd.array(ramp(p.shape)))
        print('  trainable', sum(int(np.prod(params[k].shape)) for k in params if params[k].grad_req != 'null'))


class SteadyAdam(mx.optimizer.Adam):
    """GluonTS's Trainer makes an Adam; a larger epsilon keeps gradients of float-rounding size (1e-7, whose
    bits differ between any two frameworks) from taking steps of nearly the learning rate."""

    def __init__(self, **kwargs):
        kwargs.setdefault('epsilon', 1e-4)
        super().__init__(**kwargs)


mx.optimizer.Adam = SteadyAdam


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


PRED = 4
T = 48
t = np.arange(T)
rows = [10 + 3 * np.sin(2 * np.pi * t / 7 + i) + 0.05 * i * t for i in range(4)]
train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED], 'feat_static_cat': [i]}
                        for i, s in enumerate(rows)], freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED], 'feat_static_cat': [i]}
                       for i, s in enumerate(rows)], freq='D')


def run(title, make, deterministic, digits=5):
    print('==', title)
    mx.random.seed(0)
    np.random.seed(0)
    history = TrainingHistory()
    trainer = gm.Trainer(epochs=2, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True,
                         callbacks=[FixedWeights(), history])
    predictor = make(trainer).train(train_ds)
    print('  losses', [float('%.*g' % (digits, v)) for v in history.loss_history])
    print(' ', type(predictor).__name__, type(predictor.prediction_net).__name__)
    mx.random.seed(1)
    forecasts = list(predictor.predict(test_ds))
    f = forecasts[0]
    kind = type(f).__name__
    shape = f.samples.shape if kind == 'SampleForecast' else f.forecast_array.shape
    print(' ', len(forecasts), kind, shape, str(f.start_date))
    if deterministic:
        for f in forecasts:
            print('   ', r(f.mean))
    else:
        print('  finite', all(np.isfinite(f.samples).all() for f in forecasts))
        print('  ordered', all((f.quantile(0.1) <= f.quantile(0.9)).all() for f in forecasts))


run('NBEATS', lambda tr: gm.NBEATSEstimator(freq='D', prediction_length=PRED, context_length=8, num_stacks=2,
                                            widths=[8], num_blocks=[1], num_block_layers=[2], sharing=[False],
                                            batch_size=4, trainer=tr), True)
run('NBEATS interpretable', lambda tr: gm.NBEATSEstimator(
    freq='D', prediction_length=PRED, context_length=8, num_stacks=2, widths=[8, 8], num_blocks=[1, 1],
    num_block_layers=[2, 2], sharing=[True, True], expansion_coefficient_lengths=[3, 4],
    stack_types=['T', 'S'], loss_function='MASE', batch_size=4, trainer=tr), True)
run('Transformer', lambda tr: gm.TransformerEstimator(
    freq='D', prediction_length=PRED, context_length=8, model_dim=8, inner_ff_dim_scale=2, num_heads=2,
    dropout_rate=0.0, use_feat_static_cat=True, cardinality=[4], num_parallel_samples=6, batch_size=4,
    trainer=tr), False, digits=3)  # its layer norms see rows of nearly equal values: noise-level outputs
run('WaveNet', lambda tr: gm.WaveNetEstimator(freq='D', prediction_length=PRED, num_bins=16, n_residue=4, n_skip=4,
                                              dilation_depth=2, num_parallel_samples=6, batch_size=4,
                                              trainer=tr), False)
