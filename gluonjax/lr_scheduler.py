"""Learning-rate schedules: ``mx.lr_scheduler``.

A scheduler is called with ``num_update``, the number of updates the optimizer has
applied to its most-updated weight (``Optimizer.num_update``), and returns the learning
rate to use for the update being made. The Optimizer counts *before* it asks, so the
first update asks for ``num_update == 1``. Schedules keep MXNet 1.9's exact step
semantics, warm-up included:

* ``num_update < warmup_steps``: warm-up, from ``warmup_begin_lr`` towards ``base_lr``
  ('linear') or flat at ``warmup_begin_lr`` ('constant').
* ``FactorScheduler(step, factor)``: multiply by ``factor`` each time ``num_update``
  passes another multiple of ``step`` (``num_update > count + step``), never below
  ``stop_factor_lr``.
* ``MultiFactorScheduler(step=[s1, s2, ...], factor)``: multiply by ``factor`` once
  ``num_update`` passes each ``s_i``.
* ``PolyScheduler(max_update, pwr, final_lr)`` and ``CosineScheduler(max_update,
  final_lr)``: decay from ``base_lr`` to ``final_lr`` over ``max_update - warmup_steps``
  updates after warm-up, then stay at ``final_lr``.

Schedulers are stateful as in MXNet (Factor and MultiFactor remember how far they have
gone), so give each optimizer its own.

Example::

    sched = mx.lr_scheduler.FactorScheduler(step=100, factor=0.5, base_lr=0.1)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'lr_scheduler': sched})
"""
import logging
import math
import numbers


__all__ = ['LRScheduler', 'FactorScheduler', 'MultiFactorScheduler', 'PolyScheduler', 'CosineScheduler']


def _number(who, name, value):
    """``value`` itself (MXNet keeps the caller's int or float, which shows when printed), or a
    TypeError naming the scheduler and argument (MXNet fails comparing it)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError('%s: %s must be a number, got %r (%s)' % (who, name, value, type(value).__name__))
    return value


def _integer(who, name, value):
    """``value`` itself; MXNet asserts a Python int (a numpy integer fails too)."""
    if not isinstance(value, int):
        raise AssertionError('%s: %s must be an int, got %r (%s)' % (who, name, value, type(value).__name__))
    return value


class LRScheduler:
    """Base class: a learning rate as a function of the number of updates, with warm-up.

    Parameters
    ----------
    base_lr : float, default 0.01
        The learning rate once warm-up is over (the optimizer's ``learning_rate``, when
        given, replaces it).
    warmup_steps : int, default 0
        Number of updates spent warming up.
    warmup_begin_lr : float, default 0
        Learning rate at the start of warm-up.
    warmup_mode : {'linear', 'constant'}, default 'linear'
        'linear' rises in equal steps from ``warmup_begin_lr`` to ``base_lr``;
        'constant' stays at ``warmup_begin_lr``.
    """

    def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode='linear'):
        who = type(self).__name__
        self.base_lr = _number(who, 'base_lr', base_lr)
        self.warmup_steps = _integer(who, 'warmup_steps', warmup_steps)
        self.warmup_final_lr = self.base_lr
        self.warmup_begin_lr = _number(who, 'warmup_begin_lr', warmup_begin_lr)
        if self.warmup_begin_lr > self.warmup_final_lr:
            raise ValueError('Base lr has to be higher than warmup_begin_lr')
        if self.warmup_steps < 0:
            raise ValueError('Warmup steps has to be positive or 0')
        if warmup_mode not in ('linear', 'constant'):
            raise ValueError('Supports only linear and constant modes of warmup')
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update):
        """The learning rate during warm-up (``num_update < warmup_steps``)."""
        assert num_update < self.warmup_steps, \
            'get_warmup_lr: update %d is past the %d warm-up steps' % (num_update, self.warmup_steps)
        if self.warmup_mode == 'linear':
            span = self.warmup_final_lr - self.warmup_begin_lr
            return self.warmup_begin_lr + span * float(num_update) / float(self.warmup_steps)
        return self.warmup_begin_lr

    def __call__(self, num_update):
        """The learning rate for update number ``num_update`` (see the module docstring)."""
        raise NotImplementedError('%s must implement __call__(num_update)' % type(self).__name__)

    def __repr__(self):
        return '%s(base_lr=%g)' % (type(self).__name__, self.base_lr)

    # ---- the saved form (Trainer.save_states writes it as JSON) ------------------------
    def _get_config(self):
        """Every attribute, as JSON-friendly values: the scheduler's whole state."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(self).items()}

    def _set_config(self, config):
        for k, v in config.items():
            setattr(self, k, v)


class FactorScheduler(LRScheduler):
    """Multiply the learning rate by ``factor`` every ``step`` updates.

    ``base_lr * factor ** k`` once ``num_update`` exceeds ``k * step``, never below
    ``stop_factor_lr``.

    Parameters
    ----------
    step : int
        Updates between two reductions (at least 1).
    factor : float, default 1
        The multiplier (at most 1).
    stop_factor_lr : float, default 1e-8
        The learning rate never goes below this.
    """

    def __init__(self, step, factor=1, stop_factor_lr=1e-8, base_lr=0.01,
                 warmup_steps=0, warmup_begin_lr=0, warmup_mode='linear'):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        step = _number('FactorScheduler', 'step', step)  # MXNet takes any number, 2.5 included
        if step < 1:
            raise ValueError('Schedule step must be greater or equal than 1 round')
        factor = _number('FactorScheduler', 'factor', factor)
        if factor > 1.0:
            raise ValueError('Factor must be no more than 1 to make lr reduce')
        self.step = step
        self.factor = factor
        self.stop_factor_lr = _number('FactorScheduler', 'stop_factor_lr', stop_factor_lr)
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
                logging.info('Update[%d]: now learning rate arrived at %0.5e, will not change in the future',
                             num_update, self.base_lr)
            else:
                logging.info('Update[%d]: Change learning rate to %0.5e', num_update, self.base_lr)
        return self.base_lr


class MultiFactorScheduler(LRScheduler):
    """Multiply the learning rate by ``factor`` after each update count in ``step``.

    With ``step[k] < num_update <= step[k+1]`` the rate is ``base_lr * factor ** (k+1)``.

    Parameters
    ----------
    step : list of int
        Increasing update counts, each at least 1.
    factor : float, default 1
        The multiplier (at most 1).
    """

    def __init__(self, step, factor=1, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode='linear'):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(step, list) or not step:  # MXNet asserts a list: a tuple fails as well
            raise AssertionError('MultiFactorScheduler: step must be a non-empty list of update counts, '
                                 'got %r' % (step,))
        step = [_number('MultiFactorScheduler', 'step[%d]' % i, s) for i, s in enumerate(step)]
        for i, s in enumerate(step):
            if i != 0 and step[i] <= step[i - 1]:
                raise ValueError('Schedule step must be an increasing integer list')
            if s < 1:
                raise ValueError('Schedule step must be greater or equal than 1 round')
        factor = _number('MultiFactorScheduler', 'factor', factor)
        if factor > 1.0:
            raise ValueError('Factor must be no more than 1 to make lr reduce')
        self.step = step
        self.cur_step_ind = 0
        self.factor = factor
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind < len(self.step) and num_update > self.step[self.cur_step_ind]:
            self.count = self.step[self.cur_step_ind]
            self.cur_step_ind += 1
            self.base_lr *= self.factor
            logging.info('Update[%d]: Change learning rate to %0.5e', num_update, self.base_lr)
        return self.base_lr


class PolyScheduler(LRScheduler):
    """Polynomial decay: ``final_lr + (base_lr - final_lr) * (1 - n / max_steps) ** pwr``.

    ``n`` counts updates after warm-up and ``max_steps = max_update - warmup_steps``;
    past ``max_update`` the rate stays where it ended.

    Parameters
    ----------
    max_update : int
        The update count at which the decay reaches ``final_lr``.
    pwr : float, default 2
        Power of the decay.
    final_lr : float, default 0
    """

    def __init__(self, max_update, base_lr=0.01, pwr=2, final_lr=0,
                 warmup_steps=0, warmup_begin_lr=0, warmup_mode='linear'):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        max_update = _integer('PolyScheduler', 'max_update', max_update)
        if max_update < 1:
            raise ValueError('maximum number of updates must be strictly positive')
        self.power = _number('PolyScheduler', 'pwr', pwr)
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = _number('PolyScheduler', 'final_lr', final_lr)
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            left = 1 - float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * pow(left, self.power)
        return self.base_lr


class CosineScheduler(LRScheduler):
    """Cosine decay: ``final_lr + (base_lr - final_lr) * (1 + cos(pi * n / max_steps)) / 2``.

    ``n`` counts updates after warm-up and ``max_steps = max_update - warmup_steps``;
    past ``max_update`` the rate stays at ``final_lr``.

    Parameters
    ----------
    max_update : int
        The update count at which the decay reaches ``final_lr``.
    final_lr : float, default 0
    """

    def __init__(self, max_update, base_lr=0.01, final_lr=0,
                 warmup_steps=0, warmup_begin_lr=0, warmup_mode='linear'):
        super().__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        max_update = _integer('CosineScheduler', 'max_update', max_update)
        if max_update < 1:
            raise ValueError('maximum number of updates must be strictly positive')
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = _number('CosineScheduler', 'final_lr', final_lr)
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            angle = math.pi * (num_update - self.warmup_steps) / self.max_steps
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) * (1 + math.cos(angle)) / 2
        return self.base_lr
