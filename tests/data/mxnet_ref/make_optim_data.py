"""Generate the optimizer, scheduler, Trainer and loss references in tests/data/mxnet_ref/optim/.

Run with the reference interpreter (never from the tests):

    /tmp/mxref/bin/python tests/data/mxnet_ref/make_optim_data.py

It writes, all small:

* ``optimizers.npz``: for each case ``<case>:w0`` (the start weight), ``<case>:g<t>``
  (the gradient of step t) and ``<case>:w<t>`` (the weight real MXNet 1.9.1 has after
  step t), updated through ``mx.optimizer.get_updater``; multi-parameter cases store
  ``<case>:p<i>:...`` per parameter. ``optimizers.json`` lists the cases, their optimizer
  name, keyword arguments, dtype and which parameters each step updates.
* ``trainer.npz`` / ``trainer.json``: ``gluon.Trainer`` runs over two Parameters (with
  lr_mult and wd_mult), gradients from a recorded backward, batch sizes, a stale step.
* ``schedulers.json``: learning rates of each scheduler for num_update 0..N.
* ``losses.npz`` / ``losses.json``: inputs, outputs and gradients (of the summed loss with
  respect to the first input) of every Gluon loss case.
"""
import json
import os

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon, nd

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'optim')
STEPS = 5


def path(name):
    return os.path.join(HERE, name)


# ---------------------------------------------------------------------------------------
# Optimizers through the Updater (one parameter, or several updated together)
# ---------------------------------------------------------------------------------------

SINGLE = [
    ('sgd_plain', 'sgd', dict(learning_rate=0.1)),
    ('sgd_mom', 'sgd', dict(learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('sgd_wd_clip', 'sgd', dict(learning_rate=0.2, wd=0.05, clip_gradient=0.5)),
    ('sgd_mp', 'sgd', dict(learning_rate=0.1, momentum=0.9, wd=0.01, multi_precision=True), 'float16'),
    ('sgd_mp_plain', 'sgd', dict(learning_rate=0.1, wd=0.01, multi_precision=True), 'float16'),
    ('nag', 'nag', dict(learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('nag_nomom', 'nag', dict(learning_rate=0.1, wd=0.01)),
    ('adam', 'adam', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('adam_default', 'adam', dict()),
    ('rmsprop', 'rmsprop', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('rmsprop_centered', 'rmsprop', dict(learning_rate=0.01, centered=True, gamma1=0.95, gamma2=0.9,
                                         wd=0.01, clip_weights=0.5, rescale_grad=0.5)),
    ('adagrad', 'adagrad', dict(learning_rate=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('adadelta', 'adadelta', dict(rho=0.9, epsilon=1e-5, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('ftrl', 'ftrl', dict(learning_rate=0.1, lamda1=0.01, beta=1, wd=0.01, rescale_grad=0.5,
                          clip_gradient=0.8)),
    ('signum', 'signum', dict(learning_rate=0.01, momentum=0.9, wd=0.01, wd_lh=0.02, rescale_grad=0.5,
                              clip_gradient=0.3)),
    ('signsgd', 'signum', dict(learning_rate=0.01, momentum=0.0, wd=0.01, rescale_grad=0.5)),
    ('lamb', 'lamb', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('lamb_bounds', 'lamb', dict(learning_rate=0.01, lower_bound=0.1, upper_bound=0.5, bias_correction=False)),
    ('lars', 'lars', dict(learning_rate=0.1, momentum=0.9, wd=0.01, eta=0.01, eps=1e-6, rescale_grad=0.5)),
    ('lars_nomom', 'lars', dict(learning_rate=0.1, wd=0.01, eta=0.01, clip_gradient=0.3)),
    ('adamax', 'adamax', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    ('nadam', 'nadam', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
    # large epsilons show where each formula adds epsilon
    ('adam_eps', 'adam', dict(learning_rate=0.01, epsilon=0.1)),
    ('rmsprop_eps', 'rmsprop', dict(learning_rate=0.01, epsilon=0.1)),
    ('rmsprop_centered_eps', 'rmsprop', dict(learning_rate=0.01, centered=True, epsilon=0.1)),
    ('adagrad_eps', 'adagrad', dict(learning_rate=0.1, eps=0.1)),
    ('adadelta_eps', 'adadelta', dict(epsilon=0.1)),
    ('lamb_eps', 'lamb', dict(epsilon=0.1, wd=0.01)),
    ('nadam_eps', 'nadam', dict(epsilon=0.1)),
    ('nag_mp', 'nag', dict(learning_rate=0.1, momentum=0.9, wd=0.01, multi_precision=True), 'float16'),
    ('adam_mp', 'adam', dict(learning_rate=0.01, wd=0.01, multi_precision=True), 'float16'),
    ('sgd_factor', 'sgd', dict(momentum=0.9, learning_rate=0.1,
                               lr_scheduler=('FactorScheduler', dict(step=2, factor=0.5, base_lr=0.1)))),
    ('adam_cosine', 'adam', dict(learning_rate=0.05,
                                 lr_scheduler=('CosineScheduler', dict(max_update=4, base_lr=0.05,
                                                                       warmup_steps=1)))),
]

# Several parameters updated together: (case, name, kwargs, lr_mult, wd_mult, which indices each step)
MULTI = [
    ('multi_sgd', 'sgd', dict(learning_rate=0.1, momentum=0.9, wd=0.02), {0: 0.5}, {1: 0.0},
     [[0, 1], [0], [0, 1], [1], [0, 1]]),
    ('multi_adam', 'adam', dict(learning_rate=0.01, wd=0.02), {1: 2.0}, {0: 0.5},
     [[0, 1], [0], [0, 1], [1], [0, 1]]),
    ('multi_lamb', 'lamb', dict(learning_rate=0.01, wd=0.02), {0: 0.5}, {}, [[0, 1], [0, 1], [1], [0, 1]]),
    ('multi_lars', 'lars', dict(learning_rate=0.1, momentum=0.9, wd=0.02, eta=0.02), {1: 0.5}, {},
     [[0, 1], [0, 1], [0], [0, 1]]),
]

SHAPES = [(3, 4), (5,)]


def make_optimizer(name, kwargs):
    kwargs = dict(kwargs)
    sched = kwargs.pop('lr_scheduler', None)
    if sched is not None:
        kwargs['lr_scheduler'] = getattr(mx.lr_scheduler, sched[0])(**sched[1])
    return mx.optimizer.create(name, **kwargs)


def adamw_reference(w, grads, lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, wd=0.01,
                    rescale_grad=1.0, clip_gradient=-1.0):
    """AdamW as MXNet 2's fused AdamW drives MXNet 1.9's contrib.adamw_update op."""
    import math
    mean, var = nd.zeros(w.shape), nd.zeros(w.shape)
    out = []
    for t, g in enumerate(grads, 1):
        eta = lr * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        nd.contrib.adamw_update(w, nd.array(g), mean, var, nd.array([rescale_grad]), out=w, lr=1.0,
                                beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, eta=eta,
                                clip_gradient=clip_gradient)
        out.append(w.asnumpy().copy())
    return out


def optimizer_cases(rng):
    arrays, meta = {}, {}
    for case in SINGLE:
        key, name, kwargs = case[:3]
        dtype = case[3] if len(case) > 3 else 'float32'
        opt = make_optimizer(name, kwargs)
        updater = mx.optimizer.get_updater(opt)
        w0 = rng.standard_normal(SHAPES[0]).astype(dtype)
        w = nd.array(w0, dtype=dtype)
        arrays[key + ':w0'] = w0
        for t in range(1, STEPS + 1):
            g = (2 * rng.standard_normal(SHAPES[0])).astype(dtype)
            arrays['%s:g%d' % (key, t)] = g
            updater(0, nd.array(g, dtype=dtype), w)
            arrays['%s:w%d' % (key, t)] = w.asnumpy()
        meta[key] = {'optimizer': name, 'kwargs': kwargs, 'dtype': dtype, 'steps': STEPS}
    # AdamW is not in MXNet 1.9's registry; its update op is (contrib.adamw_update)
    for key, kwargs in [('adamw', dict(learning_rate=0.01, wd=0.01, rescale_grad=0.5, clip_gradient=0.3)),
                        ('adamw_eps', dict(learning_rate=0.01, wd=0.1, epsilon=0.1))]:
        w0 = rng.standard_normal(SHAPES[0]).astype('float32')
        grads = [(2 * rng.standard_normal(SHAPES[0])).astype('float32') for _ in range(STEPS)]
        arrays[key + ':w0'] = w0
        ref_kwargs = {'lr' if k == 'learning_rate' else k: v for k, v in kwargs.items()}
        for t, (g, w) in enumerate(zip(grads, adamw_reference(nd.array(w0), grads, **ref_kwargs)), 1):
            arrays['%s:g%d' % (key, t)] = g
            arrays['%s:w%d' % (key, t)] = w
        meta[key] = {'optimizer': 'adamw', 'dtype': 'float32', 'steps': STEPS, 'kwargs': kwargs}
    for key, name, kwargs, lr_mult, wd_mult, schedule in MULTI:
        opt = make_optimizer(name, kwargs)
        opt.set_lr_mult(lr_mult)
        opt.set_wd_mult(wd_mult)
        updater = mx.optimizer.get_updater(opt)
        ws = []
        for i, shape in enumerate(SHAPES):
            w0 = rng.standard_normal(shape).astype('float32')
            arrays['%s:p%d:w0' % (key, i)] = w0
            ws.append(nd.array(w0))
        for t, which in enumerate(schedule, 1):
            gs = []
            for i in which:
                g = (2 * rng.standard_normal(SHAPES[i])).astype('float32')
                arrays['%s:p%d:g%d' % (key, i, t)] = g
                gs.append(nd.array(g))
            updater(list(which), gs, [ws[i] for i in which])
            for i in range(len(SHAPES)):
                arrays['%s:p%d:w%d' % (key, i, t)] = ws[i].asnumpy()
        meta[key] = {'optimizer': name, 'kwargs': kwargs, 'dtype': 'float32', 'steps': len(schedule),
                     'lr_mult': {str(k): v for k, v in lr_mult.items()},
                     'wd_mult': {str(k): v for k, v in wd_mult.items()}, 'schedule': schedule}
    np.savez_compressed(path('optimizers.npz'), **arrays)
    with open(path('optimizers.json'), 'w') as f:
        json.dump(meta, f, indent=1, sort_keys=True)


# ---------------------------------------------------------------------------------------
# Trainer
# ---------------------------------------------------------------------------------------

TRAINER = [
    ('sgd', 'sgd', dict(learning_rate=0.1, momentum=0.9, wd=0.01), [4, 4, 8, 4]),
    ('adam', 'adam', dict(learning_rate=0.01, wd=0.01,
                          lr_scheduler=('FactorScheduler', dict(step=2, factor=0.5, base_lr=0.01))),
     [4, 2, 4, 4]),
    ('rmsprop', 'rmsprop', dict(learning_rate=0.01, centered=True), [4, 4, 4]),
]


def trainer_cases(rng):
    arrays, meta = {}, {}
    for key, name, kwargs, batches in TRAINER:
        w = gluon.Parameter('fc_weight', shape=(3, 4))
        b = gluon.Parameter('fc_bias', shape=(4,), lr_mult=2.0, wd_mult=0.0)
        params = [w, b]
        for i, p in enumerate(params):
            p.initialize(ctx=mx.cpu())
            v = rng.standard_normal(p.shape).astype('float32')
            p.set_data(nd.array(v))
            arrays['%s:p%d:w0' % (key, i)] = v
        kw = dict(kwargs)
        if 'lr_scheduler' in kw:
            sched = kw.pop('lr_scheduler')
            kw['lr_scheduler'] = getattr(mx.lr_scheduler, sched[0])(**sched[1])
        trainer = gluon.Trainer(params, name, kw)
        steps = []
        for t, bs in enumerate(batches, 1):
            stale = t == 3  # only the weight gets a gradient: step with ignore_stale_grad
            gs = [(2 * rng.standard_normal(p.shape)).astype('float32') for p in params]
            with autograd.record():
                loss = (w.data() * nd.array(gs[0])).sum()
                if not stale:
                    loss = loss + (b.data() * nd.array(gs[1])).sum()
            loss.backward()
            for i in range(2):
                arrays['%s:p%d:g%d' % (key, i, t)] = gs[i]
            trainer.step(bs, ignore_stale_grad=stale)
            for i, p in enumerate(params):
                arrays['%s:p%d:w%d' % (key, i, t)] = p.data().asnumpy()
            steps.append({'batch_size': bs, 'stale_bias': stale, 'lr': trainer.learning_rate})
        meta[key] = {'optimizer': name, 'kwargs': kwargs, 'steps': steps}
    np.savez_compressed(path('trainer.npz'), **arrays)
    with open(path('trainer.json'), 'w') as f:
        json.dump(meta, f, indent=1, sort_keys=True)


# ---------------------------------------------------------------------------------------
# Schedulers
# ---------------------------------------------------------------------------------------

SCHEDULERS = [
    ('factor', 'FactorScheduler', dict(step=3, factor=0.5, base_lr=1.0)),
    ('factor_stop', 'FactorScheduler', dict(step=2, factor=0.1, stop_factor_lr=1e-3, base_lr=1.0)),
    ('factor_warmup', 'FactorScheduler', dict(step=3, factor=0.5, base_lr=1.0, warmup_steps=4,
                                              warmup_begin_lr=0.1)),
    ('multifactor', 'MultiFactorScheduler', dict(step=[2, 5, 9], factor=0.3, base_lr=0.5)),
    ('multifactor_warmup', 'MultiFactorScheduler', dict(step=[4, 8], factor=0.5, base_lr=0.5, warmup_steps=3,
                                                        warmup_mode='constant', warmup_begin_lr=0.05)),
    ('poly', 'PolyScheduler', dict(max_update=10, base_lr=0.5, pwr=2, final_lr=0.01)),
    ('poly_warmup', 'PolyScheduler', dict(max_update=12, base_lr=0.5, pwr=1, warmup_steps=3,
                                          warmup_begin_lr=0.1)),
    ('cosine', 'CosineScheduler', dict(max_update=10, base_lr=0.5, final_lr=0.05)),
    ('cosine_warmup', 'CosineScheduler', dict(max_update=12, base_lr=0.5, warmup_steps=4,
                                              warmup_mode='linear', warmup_begin_lr=0.0)),
]


def scheduler_cases():
    out = {}
    for key, cls, kwargs in SCHEDULERS:
        sched = getattr(mx.lr_scheduler, cls)(**kwargs)
        out[key] = {'class': cls, 'kwargs': kwargs, 'lrs': [sched(n) for n in range(16)]}
    # the optimizer overwrites base_lr of its scheduler (Poly and Cosine keep their own copy)
    for key, cls, kwargs in [('poly_overwritten', 'PolyScheduler', dict(max_update=8, base_lr=0.5)),
                             ('factor_overwritten', 'FactorScheduler', dict(step=2, factor=0.5, base_lr=0.5))]:
        opt = mx.optimizer.create('sgd', learning_rate=0.2, lr_scheduler=getattr(mx.lr_scheduler, cls)(**kwargs))
        lrs = []
        for n in range(10):
            opt.num_update = n
            lrs.append(opt.learning_rate)
        out[key] = {'class': cls, 'kwargs': kwargs, 'optimizer_lr': 0.2, 'lrs': lrs}
    with open(path('schedulers.json'), 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)


# ---------------------------------------------------------------------------------------
# Losses
# ---------------------------------------------------------------------------------------

def loss_cases(rng):
    L = gluon.loss
    f32 = lambda *shape: rng.standard_normal(shape).astype('float32')  # noqa: E731
    signs = lambda *shape: np.where(rng.random(shape) > 0.5, 1.0, -1.0).astype('float32')  # noqa: E731
    probs = lambda *shape: (lambda a: a / a.sum(-1, keepdims=True))(  # noqa: E731
        rng.random(shape).astype('float32') + 0.1)
    cases = [
        ('l2', 'L2Loss', {}, [f32(4, 3), f32(4, 3)]),
        ('l2_weighted', 'L2Loss', dict(weight=2.0), [f32(4, 3), f32(4, 3), f32(4, 1)]),
        ('l2_batch1', 'L2Loss', dict(batch_axis=1), [f32(3, 4, 2), f32(3, 4, 2)]),
        ('l1', 'L1Loss', {}, [f32(4, 3), f32(4, 3)]),
        ('l1_weighted', 'L1Loss', dict(weight=0.5), [f32(4, 3, 2), f32(4, 6), f32(4, 1, 1)]),
        ('sce', 'SoftmaxCrossEntropyLoss', {}, [f32(4, 5), np.array([0, 3, 4, 1], 'float32')]),
        ('sce_weighted', 'SoftmaxCrossEntropyLoss', dict(weight=0.7),
         [f32(4, 5), np.array([2, 0, 1, 4], 'float32'), f32(4, 1)]),
        ('sce_axis1', 'SoftmaxCrossEntropyLoss', dict(axis=1),
         [f32(2, 5, 3), np.array([[0, 4, 2], [1, 1, 3]], 'float32')]),
        ('sce_dense', 'SoftmaxCrossEntropyLoss', dict(sparse_label=False), [f32(4, 5), probs(4, 5)]),
        ('sce_logits', 'SoftmaxCrossEntropyLoss', dict(from_logits=True),
         [np.log(probs(4, 5)), np.array([1, 2, 3, 0], 'float32')]),
        ('sce_batch1', 'SoftmaxCrossEntropyLoss', dict(batch_axis=1, axis=0),
         [f32(5, 3), np.array([0, 4, 2], 'float32')]),
        ('bce', 'SigmoidBinaryCrossEntropyLoss', {}, [f32(4, 3), (rng.random((4, 3)) > 0.5).astype('float32')]),
        ('bce_sigmoid', 'SigmoidBinaryCrossEntropyLoss', dict(from_sigmoid=True),
         [rng.uniform(0.05, 0.95, (4, 3)).astype('float32'), (rng.random((4, 3)) > 0.5).astype('float32')]),
        ('bce_pos', 'SigmoidBinaryCrossEntropyLoss', {},
         [f32(4, 3), (rng.random((4, 3)) > 0.5).astype('float32'), f32(4, 1),
          rng.uniform(0.5, 2, (3,)).astype('float32')]),
        ('bce_sigmoid_pos', 'SigmoidBinaryCrossEntropyLoss', dict(from_sigmoid=True),
         [rng.uniform(0.05, 0.95, (4, 3)).astype('float32'), (rng.random((4, 3)) > 0.5).astype('float32'), None,
          rng.uniform(0.5, 2, (3,)).astype('float32')]),
        ('kl', 'KLDivLoss', {}, [np.log(probs(4, 5)), probs(4, 5)]),
        ('kl_softmax', 'KLDivLoss', dict(from_logits=False, weight=2.0), [f32(4, 5), probs(4, 5), f32(4, 1)]),
        ('huber', 'HuberLoss', dict(rho=0.5), [f32(4, 3), f32(4, 3)]),
        ('huber_default', 'HuberLoss', {}, [2 * f32(4, 3), f32(4, 3), f32(4, 1)]),
        ('hinge', 'HingeLoss', {}, [f32(4, 3), signs(4, 3)]),
        ('sqhinge', 'SquaredHingeLoss', dict(margin=2.0), [f32(4, 3), signs(4, 3), f32(4, 1)]),
        ('logistic', 'LogisticLoss', {}, [f32(4, 3), signs(4, 3)]),
        ('logistic_binary', 'LogisticLoss', dict(label_format='binary'),
         [f32(4, 3), (rng.random((4, 3)) > 0.5).astype('float32')]),
        ('triplet', 'TripletLoss', dict(margin=0.5), [f32(4, 3), f32(4, 3), f32(4, 3)]),
        ('cosine', 'CosineEmbeddingLoss', dict(margin=0.2), [f32(4, 5), f32(4, 5), signs(4)]),
        ('cosine_weighted', 'CosineEmbeddingLoss', dict(weight=2.0), [f32(4, 5), f32(4, 5), signs(4), f32(4, 1)]),
        ('poisson', 'PoissonNLLLoss', {}, [f32(4, 3), rng.poisson(2.0, (4, 3)).astype('float32')]),
        ('poisson_full', 'PoissonNLLLoss', dict(from_logits=False, compute_full=True),
         # targets from 1 up: MXNet's Stirling term is nan for a target of 0 (0 * log 0)
         [rng.uniform(0.5, 3, (4, 3)).astype('float32'), 1 + rng.poisson(2.0, (4, 3)).astype('float32'), f32(4, 1)]),
        ('ctc', 'CTCLoss', {}, [f32(2, 6, 4), np.array([[1, 0, -1], [2, 1, 1]], 'float32')]),
        ('ctc_lengths', 'CTCLoss', dict(layout='TNC'),
         [f32(6, 2, 4), np.array([[1, 0, 0], [2, 1, 2]], 'float32'), np.array([5, 6], 'float32'),
          np.array([2, 3], 'float32')]),
        ('ctc_tn', 'CTCLoss', dict(label_layout='TN', weight=0.5),
         [f32(3, 5, 4), np.array([[1, 2, 0], [0, 2, -1]], 'float32')]),
    ]
    arrays, meta = {}, {}
    for key, cls, kwargs, inputs in cases:
        block = getattr(L, cls)(**kwargs)
        nds = [None if a is None else nd.array(a) for a in inputs]
        nds[0].attach_grad()
        if cls == 'PoissonNLLLoss' and kwargs.get('compute_full'):
            # MXNet's compute_full writes in place, which fails under record(): the
            # gradient does not depend on the Stirling term, so take it without that term
            out = block(*nds)
            plain = getattr(L, cls)(**dict(kwargs, compute_full=False))
            with autograd.record():
                plain(*nds).backward()
        else:
            with autograd.record():
                out = block(*nds)
            out.backward()
        for i, a in enumerate(inputs):
            if a is not None:
                arrays['%s:in%d' % (key, i)] = a
        arrays[key + ':out'] = out.asnumpy()
        arrays[key + ':grad'] = nds[0].grad.asnumpy()
        meta[key] = {'class': cls, 'kwargs': kwargs, 'n_inputs': len(inputs),
                     'none_inputs': [i for i, a in enumerate(inputs) if a is None]}
    np.savez_compressed(path('losses.npz'), **arrays)
    with open(path('losses.json'), 'w') as f:
        json.dump(meta, f, indent=1, sort_keys=True)


def main():
    os.makedirs(HERE, exist_ok=True)
    rng = np.random.default_rng(5)
    optimizer_cases(rng)
    trainer_cases(rng)
    scheduler_cases()
    loss_cases(rng)


if __name__ == '__main__':
    main()
