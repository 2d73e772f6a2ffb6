"""mx.metric: every metric against a numpy implementation of MXNet's formula, plus names,
create(), composites and bad input. The values in the docstring examples of MXNet 1.9.1
are checked as printed there."""
import math

import numpy as np
import pytest

import gluonjax as mx

PREDS = [mx.nd.array([[0.3, 0.7], [0, 1.], [0.4, 0.6]])]
LABELS = [mx.nd.array([0, 1, 1])]


@pytest.fixture
def batches(rng):
    """Three batches of (labels, class probabilities) with 4 classes."""
    out = []
    for n in (5, 8, 3):
        logits = rng.normal(size=(n, 4)).astype(np.float32)
        probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        out.append((rng.integers(0, 4, n).astype(np.float32), probs.astype(np.float32)))
    return out


def test_mxnet_docstring_values():
    acc = mx.metric.Accuracy()
    acc.update(preds=PREDS, labels=LABELS)
    assert acc.get() == ('accuracy', 2 / 3)
    composite = mx.metric.CompositeEvalMetric()
    for child in (mx.metric.Accuracy(), mx.metric.F1()):
        composite.add(child)
    composite.update(labels=LABELS, preds=PREDS)
    assert composite.get() == (['accuracy', 'f1'], [2 / 3, 0.8])
    perplexity = mx.metric.Perplexity(ignore_label=None)
    perplexity.update(LABELS, PREDS)
    assert perplexity.get()[0] == 'perplexity'
    assert perplexity.get()[1] == pytest.approx(1.77109762852, rel=1e-7)
    ce = mx.metric.CrossEntropy()
    ce.update(LABELS, PREDS)
    assert ce.get()[0] == 'cross-entropy' and ce.get()[1] == pytest.approx(0.57159948348999023, rel=1e-6)
    regression = ([mx.nd.array([[3], [-0.5], [2], [7]])], [mx.nd.array([[2.5], [0.0], [2], [8]])])
    for name, value in (('mae', 0.5), ('mse', 0.375), ('rmse', 0.612372457981)):
        m = mx.metric.create(name)
        m.update(*regression)
        assert m.get()[0] == name and m.get()[1] == pytest.approx(value, rel=1e-7)


def test_accuracy_against_numpy(batches):
    acc = mx.metric.Accuracy()
    assert acc.get()[0] == 'accuracy' and math.isnan(acc.get()[1])
    correct = total = 0
    for label, prob in batches:
        acc.update([mx.nd.array(label)], [mx.nd.array(prob)])
        correct += int((prob.argmax(axis=1) == label).sum())
        total += len(label)
    name, value = acc.get()
    assert type(value) is float and value == correct / total
    assert acc.num_inst == total and acc.sum_metric == correct
    # predictions given as class indices (same shape as the labels)
    direct = mx.metric.Accuracy()
    direct.update([mx.nd.array([1, 2, 3])], [mx.nd.array([1.0, 2.9, 0.0])])
    assert direct.get()[1] == pytest.approx(2 / 3)  # 2.9 is cast to 2, as MXNet does


def test_accuracy_axis_numpy_inputs_and_global(rng):
    prob = rng.random((2, 5, 3)).astype(np.float32)  # classes on axis 2
    label = rng.integers(0, 3, (2, 5))
    acc = mx.metric.Accuracy(axis=2)
    acc.update([mx.nd.array(label)], [mx.nd.array(prob)])
    assert acc.get()[1] == (prob.argmax(axis=2) == label).mean()
    host = mx.metric.Accuracy(axis=2)
    host.update([label], [prob])
    assert host.get() == acc.get()
    acc.reset_local()
    assert math.isnan(acc.get()[1]) and acc.get_global()[1] == (prob.argmax(axis=2) == label).mean()
    acc.reset()
    assert math.isnan(acc.get_global()[1])


def test_accuracy_label_on_another_device():
    acc = mx.metric.Accuracy()
    acc.update([mx.nd.array([0, 1], ctx=mx.cpu(0))], [mx.nd.array([[1, 0], [1, 0]], ctx=mx.cpu(1))])
    assert acc.get()[1] == 0.5


def test_mismatched_inputs_raise():
    with pytest.raises(ValueError, match='Shape of labels 2 does not match shape of predictions 1'):
        mx.metric.Accuracy().update([mx.nd.array([0]), mx.nd.array([1])], PREDS)
    with pytest.raises(ValueError, match='Shape of labels 4 does not match shape of predictions 3'):
        mx.metric.Accuracy().update([mx.nd.array([0, 1, 1, 0])], PREDS)
    with pytest.raises(ValueError):  # the exception types are MXNet's
        mx.metric.MSE().update(LABELS, PREDS + PREDS)
    with pytest.raises(IndexError, match='out of range for predictions with 2 classes'):
        mx.metric.CrossEntropy().update([mx.nd.array([0, 5, 1])], PREDS)
    with pytest.raises(ValueError, match='do not match'):
        mx.metric.MAE().update([mx.nd.zeros((3, 2))], [mx.nd.zeros((3, 4))])
    with pytest.raises(ValueError, match='only supports binary classification'):
        mx.metric.F1().update([mx.nd.array([0, 1, 2])], [mx.nd.zeros((3, 2))])
    with pytest.raises(AssertionError, match='use Accuracy if top_k is no more than 1'):
        mx.metric.TopKAccuracy(top_k=1)


def test_top_k_accuracy(batches):
    metric = mx.metric.TopKAccuracy(top_k=2)
    assert metric.name == 'top_k_accuracy_2'
    hits = total = 0
    for label, prob in batches:
        metric.update([mx.nd.array(label)], [mx.nd.array(prob)])
        top2 = np.argsort(-prob, axis=1)[:, :2]
        hits += int((top2 == label[:, None]).any(axis=1).sum())
        total += len(label)
    assert metric.get()[1] == hits / total


def _f1(label, pred_class):
    tp = np.sum((pred_class == 1) & (label == 1))
    fp = np.sum((pred_class == 1) & (label == 0))
    fn = np.sum((pred_class == 0) & (label == 1))
    precision = tp / (tp + fp) if tp + fp else 0.
    recall = tp / (tp + fn) if tp + fn else 0.
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.


def _mcc(label, pred_class):
    tp = np.sum((pred_class == 1) & (label == 1))
    fp = np.sum((pred_class == 1) & (label == 0))
    fn = np.sum((pred_class == 0) & (label == 1))
    tn = np.sum((pred_class == 0) & (label == 0))
    terms = [t for t in (tp + fp, tp + fn, tn + fp, tn + fn) if t]
    return (tp * tn - fp * fn) / math.sqrt(np.prod(np.array(terms, dtype=np.float64)))


@pytest.mark.parametrize('cls, formula', [(mx.metric.F1, _f1), (mx.metric.MCC, _mcc)])
def test_f1_mcc_macro_and_micro(rng, cls, formula):
    data = [(rng.integers(0, 2, n), rng.random((n, 2)).astype(np.float32)) for n in (6, 9, 4)]
    macro, micro = cls(), cls(average='micro')
    for label, prob in data:
        for m in (macro, micro):
            m.update([mx.nd.array(label)], [mx.nd.array(prob)])
    expected_macro = np.mean([formula(l, p.argmax(axis=1)) for l, p in data])
    all_labels = np.concatenate([l for l, _ in data])
    all_preds = np.concatenate([p.argmax(axis=1) for _, p in data])
    assert macro.get()[1] == pytest.approx(expected_macro, rel=1e-12)
    assert micro.get()[1] == pytest.approx(formula(all_labels, all_preds), rel=1e-12)
    # MXNet counts MCC's macro batches in a float (prints 3.0), F1's in an int
    assert repr(macro.num_inst) == ('3.0' if cls is mx.metric.MCC else '3')
    with pytest.raises(ValueError, match="average must be"):
        cls(average='weighted')


def test_regression_metrics_average_batch_values(rng):
    pairs = [(rng.normal(size=n).astype(np.float32), rng.normal(size=(n, 1)).astype(np.float32)) for n in (4, 7)]
    formulas = {'mae': lambda d: np.abs(d).mean(), 'mse': lambda d: (d ** 2).mean(),
                'rmse': lambda d: np.sqrt((d ** 2).mean())}
    for name, formula in formulas.items():
        m = mx.metric.create(name)
        for label, pred in pairs:
            m.update([mx.nd.array(label)], [mx.nd.array(pred)])
        expected = np.mean([formula(label.reshape(-1, 1) - pred) for label, pred in pairs])
        assert m.get()[1] == pytest.approx(expected, rel=1e-6) and m.num_inst == 2


def test_cross_entropy_nll_perplexity(batches):
    ce, nll = mx.metric.CrossEntropy(eps=1e-8), mx.metric.create('nll_loss')
    perplexity = mx.metric.Perplexity(ignore_label=2)
    log_sum = count = 0.
    ppl_sum, ppl_count = 0., 0
    for label, prob in batches:
        for m in (ce, nll, perplexity):
            m.update([mx.nd.array(label)], [mx.nd.array(prob)])
        picked = prob[np.arange(len(label)), label.astype(int)]
        log_sum += -np.log(picked + 1e-8).sum()
        count += len(label)
        keep = label != 2
        ppl_sum += -np.log(picked[keep]).sum()
        ppl_count += int(keep.sum())
    assert ce.get() == ('cross-entropy', pytest.approx(log_sum / count, rel=1e-6))
    assert nll.get()[0] == 'nll-loss' and nll.get()[1] == pytest.approx(ce.get()[1], rel=1e-6)
    assert perplexity.get()[1] == pytest.approx(math.exp(ppl_sum / ppl_count), rel=1e-5)


def test_loss_metric():
    loss = mx.metric.Loss()
    loss.update(None, [mx.nd.array([1.0, 2.0, 3.0])])
    loss.update(None, mx.nd.array([[4.0]]))
    assert loss.get() == ('loss', 2.5) and loss.num_inst == 4 and loss.sum_metric == 10.0
    loss.reset()
    assert math.isnan(loss.get()[1])


def test_pearson_correlation(rng):
    pairs = [(rng.normal(size=n), rng.normal(size=n)) for n in (10, 30)]
    pairs = [(label, (label + 0.5 * noise)) for label, noise in pairs]
    macro, micro = mx.metric.create('pearsonr'), mx.metric.PearsonCorrelation(average='micro')
    for label, pred in pairs:
        for m in (macro, micro):
            m.update([mx.nd.array(label)], [mx.nd.array(pred)])
    expected_macro = np.mean([np.corrcoef(p.astype(np.float32), l.astype(np.float32))[0, 1] for l, p in pairs])
    labels = np.concatenate([l for l, _ in pairs]).astype(np.float32)
    preds = np.concatenate([p for _, p in pairs]).astype(np.float32)
    assert macro.get()[1] == pytest.approx(expected_macro, rel=1e-6)
    assert micro.get()[1] == pytest.approx(np.corrcoef(labels, preds)[0, 1], rel=1e-6)


def test_pcc_equals_mcc_for_two_classes(rng):
    label, prob = rng.integers(0, 2, 40), rng.random((40, 2)).astype(np.float32)
    pcc, mcc = mx.metric.PCC(), mx.metric.MCC()
    for m in (pcc, mcc):
        m.update([mx.nd.array(label)], [mx.nd.array(prob)])
    assert pcc.get()[1] == pytest.approx(mcc.get()[1], rel=1e-12)


def test_create_custom_and_config():
    assert isinstance(mx.metric.create('acc'), mx.metric.Accuracy)
    assert isinstance(mx.metric.create('ce'), mx.metric.CrossEntropy)
    assert mx.metric.create('top_k_acc', top_k=3).name == 'top_k_accuracy_3'
    acc = mx.metric.Accuracy()
    assert mx.metric.create(acc) is acc
    composite = mx.metric.create(['acc', 'mse', lambda label, pred: 6.0])
    assert isinstance(composite, mx.metric.CompositeEvalMetric)
    composite.update(LABELS, PREDS)
    names, values = composite.get()
    assert names == ['accuracy', 'mse', 'custom(<lambda>)'] and values[2] == 6.0
    assert acc.get_config() == {'axis': 1, 'metric': 'Accuracy', 'name': 'accuracy',
                                'output_names': None, 'label_names': None}
    rebuilt = mx.metric.create(mx.metric.Accuracy(axis=0, name='a0').get_config())
    assert rebuilt.axis == 0 and rebuilt.name == 'a0'

    def mean_abs(label, pred):
        return np.abs(label - pred).sum(), label.size
    custom = mx.metric.np(mean_abs)
    custom.update([mx.nd.array([1.0, 2.0])], [mx.nd.array([1.5, 2.5])])
    assert custom.get() == ('mean_abs', 0.5)
    assert str(custom) == "EvalMetric: {'mean_abs': 0.5}"
    assert custom.get_name_value() == [('mean_abs', 0.5)]
    with pytest.raises(AssertionError, match='foo is not registered'):
        mx.metric.create('foo')


def test_register_and_update_dict():
    @mx.metric.register
    @mx.metric.alias('always_one')
    class AlwaysOne(mx.metric.EvalMetric):
        def __init__(self, name='one'):
            super().__init__(name)

        def update(self, labels, preds):
            self.sum_metric += len(preds)
            self.num_inst += len(preds)
    m = mx.metric.create('always_one')
    m.update_dict({'softmax_label': LABELS[0]}, {'out': PREDS[0]})
    assert m.get() == ('one', 1.0)
    acc = mx.metric.Accuracy(output_names=['b'], label_names=['y'])
    acc.update_dict({'y': LABELS[0], 'z': mx.nd.array([9, 9, 9])}, {'a': PREDS[0] * 0, 'b': PREDS[0]})
    assert acc.get()[1] == pytest.approx(2 / 3)
