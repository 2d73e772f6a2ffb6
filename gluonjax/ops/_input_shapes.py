"""Shapes of the inputs an operator's data determines, as MXNet's FInferShape gives them.

A rule is ``(attrs, {input name: known shape}) -> {input name: shape}``: FullyConnected's weight
follows from its input's width. Operators name their rule in the table (``input_shapes=``);
symbol shape inference and Gluon's deferred parameter shapes both use it.
"""
import math


def _prod(xs):
    return int(math.prod(xs))


def fully_connected(a, s):
    d = s.get('data')
    if d is None:
        return {}
    n_in = _prod(d[1:]) if a.get('flatten', True) else d[-1]
    n = a['num_hidden']
    bias = s.get('bias') if s.get('bias') == (n, 1) else (n,)  # MXNet takes an (n, 1) column too
    return {'weight': (n, n_in), 'bias': bias}


def _channel_axis(a, ndim):
    layout = a.get('layout')
    if layout and layout[-1] == 'C':
        return ndim - 1
    return 1


def convolution(a, s):
    d = s.get('data')
    if d is None:
        return {}
    g = a.get('num_group', 1) or 1
    c = d[_channel_axis(a, len(d))]
    kernel = tuple(a['kernel'])
    if _channel_axis(a, len(d)) == 1:
        w = (a['num_filter'], c // g) + kernel
    else:
        w = (a['num_filter'],) + kernel + (c // g,)
    return {'weight': w, 'bias': (a['num_filter'],)}


def deconvolution(a, s):
    d = s.get('data')
    if d is None:
        return {}
    g = a.get('num_group', 1) or 1
    axis = _channel_axis(a, len(d))
    c, kernel = d[axis], tuple(a['kernel'])
    if axis == 1:
        return {'weight': (c, a['num_filter'] // g) + kernel, 'bias': (a['num_filter'],)}
    return {'weight': (c,) + kernel + (a['num_filter'] // g,), 'bias': (a['num_filter'],)}


def per_channel(names, axis_param=None, default_axis=1):
    def rule(a, s):
        d = s.get('data')
        if d is None:
            return {}
        axis = a.get(axis_param, default_axis) if axis_param else default_axis
        c = (d[axis],)
        return {n: c for n in names}
    return rule


def group_norm(a, s):
    return {'gamma': (a['num_groups'],), 'beta': (a['num_groups'],)} if s.get('data') is not None else {}


def embedding(a, s):
    return {'weight': (a['input_dim'], a['output_dim'])}


def leaky_relu(a, s):
    # prelu's gamma is one per channel only when its shape is not given: PReLU() has one (1,)
    d = s.get('data')
    if d is None or len(d) < 2 or s.get('gamma') is not None:
        return {}
    return {'gamma': (d[1],)}


def softmax_label_shapes(data_shape, multi_output):
    """The label shapes MXNet 1.9.1's SoftmaxOutput accepts, the one it infers first: with
    multi_output (N, positions), (N, *spatial) or the data's shape with one class; else the
    data's shape without its last axis (whatever ``preserve_shape`` says). A label of the
    data's own shape is one distribution per row instead."""
    d = tuple(data_shape)
    if not multi_output:
        return [d[:-1]]
    return [(d[0], _prod(d[2:])), (d[0],) + d[2:], d[:1] + (1,) + d[2:]]


def softmax_output(a, s):
    d = s.get('data')
    if d is None:
        return {}
    accepted = softmax_label_shapes(d, a.get('multi_output'))
    label = s.get('label')
    if label is not None and (tuple(label) == tuple(d) or tuple(label) in accepted):  # or probabilities
        return {}
    return {'label': accepted[0]}


def softmax_length(a, s):
    """softmax's length (use_length): the data's shape without the softmax axis."""
    d = s.get('data')
    if d is None or not a.get('use_length'):
        return {}
    axis = a.get('axis', -1) % len(d)
    return {'length': tuple(d[:axis]) + tuple(d[axis + 1:])}


def regression_output(a, s):
    d = s.get('data')
    if d is None:
        return {}
    label = s.get('label')
    if label is not None and label[:1] == d[:1] and math.prod(label) == math.prod(d):
        return {}  # MXNet takes any label of the data's batch and size ((N, 1) for (N,) too)
    if len(d) == 2 and d[1] == 1:
        return {'label': (d[0],)}
    return {'label': tuple(d)}


def first_axis_label(a, s):
    d = s.get('data')
    return {} if d is None else {'label': (d[0],)}


def where(a, s):
    """x and y share one shape; a condition of several dimensions has it too (MXNet's where),
    so an unknown x or y (a ``zeros((0, n))`` begin state in a symbol) follows the others."""
    known = s.get('x') or s.get('y')
    cond = s.get('condition')
    if known is None and cond is not None and len(cond) > 1:
        known = cond
    return {} if known is None else {'x': known, 'y': known}


def dot(a, s):
    """NumPy's dot: b's contracted axis (its second-to-last, or only one) has a's last length, so a
    deferred weight of ``x.dot(w)`` takes it from the data."""
    x, w = s.get('a'), s.get('b')
    if not x or not w:
        return {}
    w = list(w)
    w[-2 if len(w) > 1 else 0] = x[-1]
    return {'b': tuple(w)}
