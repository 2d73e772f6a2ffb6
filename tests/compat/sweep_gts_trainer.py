"""GluonTS 0.16.2's MXNet Trainer as users configure it: weight decay, gradient clipping, validation data,
learning-rate reduction, model averaging and iteration averaging callbacks, train_model's output and
train_from, on SimpleFeedForward from fixed weights (losses, learning rates and forecasts compare exactly)."""
import os
import tempfile

import numpy as np
import mxnet as mx
from gluonts.dataset.common import ListDataset
from gluonts.mx import SimpleFeedForwardEstimator, Trainer
from gluonts.mx.distribution import GaussianOutput
from gluonts.mx.trainer.callback import TrainingHistory
from gluonts.mx.trainer.learning_rate_scheduler import LearningRateReduction
from gluonts.mx.trainer.model_averaging import ModelAveraging, SelectNBestMean, SelectNBestSoftmax
from gluonts.mx.trainer.model_iteration_averaging import NTA, Alpha_Suffix, ModelIterationAveraging
from _gts_common import PRED, T, Ramp, rows, seed, sig, t  # noqa: F401


def r(x, n=3):
    return np.round(np.asarray(x, dtype=np.float64), n).tolist()


train_ds = ListDataset([{'start': '2022-01-03', 'target': s[:-PRED]} for s in rows], freq='D')
test_ds = ListDataset([{'start': '2022-01-03', 'target': s} for s in rows], freq='D')


class LearningRates(TrainingHistory):
    """TrainingHistory that also keeps the optimizer's learning rate after each epoch."""

    def __init__(self):
        super().__init__()
        self.rates = []

    def on_epoch_end(self, epoch_no, epoch_loss, training_network, trainer, best_epoch_info, ctx):
        self.rates.append(trainer.learning_rate)
        return super().on_epoch_end(epoch_no=epoch_no, epoch_loss=epoch_loss, training_network=training_network,
                                    trainer=trainer, best_epoch_info=best_epoch_info, ctx=ctx)


def run(title, callbacks, epochs=4, **trainer_kw):
    print('==', title)
    seed()
    history = LearningRates()
    trainer = Trainer(epochs=epochs, num_batches_per_epoch=2, learning_rate=1e-2, hybridize=True, init=Ramp(),
                      callbacks=[history] + callbacks, **trainer_kw)
    est = SimpleFeedForwardEstimator(prediction_length=PRED, context_length=8, num_hidden_dimensions=[6],
                                     sampling=False, distr_output=GaussianOutput(), batch_size=4, trainer=trainer)
    out = est.train_model(train_ds, validation_data=test_ds)
    print('  losses', sig(history.loss_history), sig(history.validation_loss_history))
    print('  rates', sig(history.rates))
    print(' ', type(out).__name__, type(out.trained_net).__name__, type(out.predictor).__name__,
          type(out.transformation).__name__)
    print('  means', r(next(iter(out.predictor.predict(test_ds))).mean))
    return est, out


run('plain, weight decay and clipping', [], weight_decay=1e-3, clip_gradient=0.5)
run('LearningRateReduction', [LearningRateReduction(objective='min', base_lr=1e-2, patience=0, decay_factor=0.5)])
run('ModelAveraging SelectNBestMean', [ModelAveraging(avg_strategy=SelectNBestMean(num_models=2))])
run('ModelAveraging SelectNBestSoftmax', [ModelAveraging(avg_strategy=SelectNBestSoftmax(num_models=3))])
run('ModelIterationAveraging NTA', [ModelIterationAveraging(avg_strategy=NTA(epochs=4, n=1))])
est, out = run('ModelIterationAveraging Alpha_Suffix', [ModelIterationAveraging(avg_strategy=Alpha_Suffix(epochs=4,
                                                                                                     alpha=0.5))])

print('== train_from')
seed()
history = TrainingHistory()
est2 = SimpleFeedForwardEstimator(prediction_length=PRED, context_length=8, num_hidden_dimensions=[6], sampling=False,
                                  distr_output=GaussianOutput(), batch_size=4,
                                  trainer=Trainer(epochs=1, num_batches_per_epoch=2, learning_rate=1e-2,
                                                  hybridize=True, callbacks=[history]))
more = est2.train_from(out.predictor, train_ds)
print('  losses', sig(history.loss_history), type(more).__name__)
print('  means', r(next(iter(more.predict(test_ds))).mean))
