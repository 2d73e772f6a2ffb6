"""GluonTS 0.16.2's other MXNet estimators (N-BEATS, Transformer, WaveNet), each trained one short
run with every parameter set to fixed values once the network is built (a training callback, so layers' own
Xavier initializers do not matter) and dropout off: the training losses, point forecasts and parameter counts are
then the same numbers on any framework; sampled forecasts give their shapes and quantile order."""
import os

os.environ.setdefault('MXNET_MKLDNN_ENABLED', '0')  # MXNet 1.9.1's MKLDNN fails WaveNet's set_data weights

import numpy as np
import mxnet as mx
import gluonts.mx as gm
from gluonts.dataset.common import ListDataset
from gluonts.mx.trainer.callback import TrainingHistory

from _gts_common import PRED, FixedWeights, rows, use_steady_adam  # noqa: F401

use_steady_adam()


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


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
