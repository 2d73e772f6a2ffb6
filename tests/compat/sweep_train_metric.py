# mx.metric: printed forms, arguments, create() and wrappers, edge cases.
import numpy as np
import mxnet as mx
from mxnet import nd


def r(v):
    if isinstance(v, (list, tuple)):
        return type(v)(r(x) for x in v)
    if isinstance(v, (float, np.floating)):
        return round(float(v), 5)
    return v


def attempt(f):
    try:
        print(r(f()))
    except Exception as e:
        print(type(e).__name__)


def run(m, labels, preds):
    try:
        m.update(labels, preds)
    except Exception as e:
        print(type(m).__name__, type(e).__name__)
        return
    print(type(m).__name__, m.name, r(m.get()), m.num_inst)


pred2 = nd.array([[0.3, 0.7], [0.6, 0.4], [0.1, 0.9], [0.8, 0.2], [0.45, 0.55]])
lab2 = nd.array([1, 0, 0, 0, 1])
pred3 = nd.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
lab3 = nd.array([1, 2, 2, 0])

# printed forms
for m in [mx.metric.Accuracy(), mx.metric.TopKAccuracy(top_k=3), mx.metric.F1(average='micro'),
          mx.metric.MCC(average='macro'), mx.metric.Perplexity(ignore_label=0), mx.metric.MAE(),
          mx.metric.MSE(name='m2'), mx.metric.RMSE(), mx.metric.CrossEntropy(eps=1e-8),
          mx.metric.NegativeLogLikelihood(), mx.metric.PearsonCorrelation(), mx.metric.Loss('myloss'),
          mx.metric.Accuracy(axis=0, name='a0')]:
    print(m)
    print(repr(m) == str(m), m.name, m.get_config())

# accuracy variants
run(mx.metric.Accuracy(), [lab3], [pred3])
run(mx.metric.Accuracy(), [lab3, lab3], [pred3, pred3])
run(mx.metric.Accuracy(), [lab3], [nd.array([1, 2, 0, 0])])
run(mx.metric.Accuracy(axis=0), [nd.array([0, 1, 1])], [nd.array([[0.9, 0.2, 0.4], [0.1, 0.8, 0.6]])])
run(mx.metric.Accuracy(), [nd.array([[1, 0], [2, 2]])], [nd.array([[[0.1, 0.9], [0.8, 0.2]], [[0.3, 0.7], [0.2, 0.8]]]).transpose((0, 2, 1))])
run(mx.metric.Accuracy(), [nd.array([1, 0, 1])], [nd.array([1, 1, 1], dtype='int32')])
acc = mx.metric.Accuracy()
print(acc.get(), acc.get_name_value(), acc.num_inst, acc.sum_metric)
attempt(lambda: acc.update([lab3], [pred3, pred3]))
attempt(lambda: acc.update([nd.array([1, 0, 1])], [pred3]))

# top-k
for k in [2, 3]:
    run(mx.metric.TopKAccuracy(top_k=k), [lab3], [pred3])
attempt(lambda: mx.metric.TopKAccuracy(top_k=0))
attempt(lambda: mx.metric.TopKAccuracy(top_k=1))
print(mx.metric.TopKAccuracy(top_k=2).name, mx.metric.TopKAccuracy(top_k=5).name)

# F1 / MCC averaging
for avg in ['macro', 'micro']:
    f = mx.metric.F1(average=avg)
    f.update([lab2], [pred2])
    print('f1', avg, r(f.get()), f.num_inst)
    f.update([nd.array([1, 1])], [nd.array([[0.2, 0.8], [0.9, 0.1]])])
    print('f1', avg, r(f.get()), f.num_inst)
    f.reset()
    print('f1', avg, f.get())
    m = mx.metric.MCC(average=avg)
    m.update([lab2], [pred2])
    print('mcc', avg, r(m.get()), m.num_inst)
    m.update([nd.array([1, 1])], [nd.array([[0.2, 0.8], [0.9, 0.1]])])
    print('mcc', avg, r(m.get()), m.num_inst)
    m.reset_local()
    print('mcc', avg, m.get(), r(m.get_global()))
f = mx.metric.F1()
f.update([nd.array([0, 0, 0])], [nd.array([[0.9, 0.1], [0.7, 0.3], [0.6, 0.4]])])
print('f1 allneg', r(f.get()))
m = mx.metric.MCC()
m.update([nd.array([1, 1, 1])], [nd.array([[0.1, 0.9], [0.3, 0.7], [0.4, 0.6]])])
print('mcc allpos', r(m.get()))
attempt(lambda: mx.metric.F1().update([lab3], [pred3]))

# perplexity / ce / nll
for ig in [None, 0, 1, 2]:
    p = mx.metric.Perplexity(ignore_label=ig)
    p.update([lab3], [pred3])
    print('ppl', ig, r(p.get()), r(p.num_inst))
p = mx.metric.Perplexity(ignore_label=None, axis=-1)
p.update([lab3, lab3], [pred3, pred3])
print('ppl2', r(p.get()), p.num_inst)
run(mx.metric.CrossEntropy(), [lab3], [pred3])
run(mx.metric.CrossEntropy(eps=0.5), [lab3], [pred3])
run(mx.metric.NegativeLogLikelihood(), [lab3], [pred3])
run(mx.metric.NegativeLogLikelihood(eps=0.1), [lab2], [pred2])

# regression metrics incl. 1-D and shape mismatch
yp = nd.array([1.0, 2.5, -0.5, 4.0])
yt = nd.array([1.5, 2.0, 0.0, 3.0])
for cls in [mx.metric.MAE, mx.metric.MSE, mx.metric.RMSE, mx.metric.PearsonCorrelation]:
    run(cls(), [yt], [yp])
    run(cls(), [yt.reshape((2, 2))], [yp.reshape((2, 2))])
    run(cls(), [yt, yt * 2], [yp, yp])
    attempt(lambda: cls().update([yt], [yp.reshape((2, 2))]))
m = mx.metric.RMSE()
m.update([yt], [yp]); m.update([yt[:2]], [yp[:2]])
print('rmse2', r(m.get()), m.num_inst, r(m.get_global()))

# Loss
l = mx.metric.Loss()
l.update(None, [nd.array([0.5, 1.5]), nd.array([[2.0, 3.0], [4.0, 5.0]])])
print(r(l.get()), l.num_inst)
l.update([nd.array([1])], nd.array([7.0]))
print(r(l.get()), l.num_inst)

# composite
comp = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.TopKAccuracy(top_k=2)], name='c')
print(comp)
comp.add('ce')
comp.update([lab3], [pred3])
print(r(comp.get()), r(comp.get_name_value()))
print(type(comp.get_metric(1)).__name__, comp.get_config())
attempt(lambda: comp.get_metric(5))
comp.reset()
print(comp.get())

# create()
for spec in ['acc', 'Accuracy', 'top_k_acc', 'f1', 'F1', 'MCC', 'perplexity', 'nll_loss', 'ce', 'rmse', 'pearsonr', 'loss']:
    try:
        m = mx.metric.create(spec) if 'top' not in spec else mx.metric.create(spec, top_k=2)
        print(spec, type(m).__name__, m.name)
    except Exception as e:
        print(spec, type(e).__name__)
m = mx.metric.create(['acc', mx.metric.F1(), 'mse'])
print(type(m).__name__, r(m.get()))
m.update([lab2], [pred2])
print(r(m.get()))
m = mx.metric.create(mx.metric.MAE())
print(type(m).__name__)
attempt(lambda: mx.metric.create('nonexistent_metric'))
attempt(lambda: mx.metric.create(3))
m = mx.metric.create('perplexity', ignore_label=1)
print(m.ignore_label, m.name)


def feval(label, pred):
    return float(np.abs(label - pred).sum())


m = mx.metric.create(feval)
print(m.name, type(m).__name__)
m.update([yt, yt], [yp, yp])
print(r(m.get()), m.num_inst)
cm = mx.metric.CustomMetric(feval, name='absdiff', allow_extra_outputs=True)
cm.update([yt], [yp, yp])
print(cm, r(cm.get()))
cm = mx.metric.CustomMetric(lambda l, p: (float(np.abs(l - p).sum()), 3), name='pair')
cm.update([yt], [yp])
print(r(cm.get()), cm.num_inst)
attempt(lambda: mx.metric.CustomMetric(feval).update([yt], [yp, yp]))
nm = mx.metric.np(feval)
print(nm.name)
nm2 = mx.metric.np(feval, name='named')
nm2.update([yt], [yp])
print(nm2.name, r(nm2.get()))

# update_dict and output_names/label_names
acc = mx.metric.Accuracy(output_names=['o1'], label_names=['l1'])
acc.update_dict({'l1': lab3, 'l2': lab3}, {'o1': pred3, 'o2': pred3})
print(r(acc.get()))
acc = mx.metric.Accuracy()
acc.update_dict({'a': lab3}, {'b': pred3})
print(r(acc.get()))
comp = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.MSE()])
comp.update_dict({'l': lab2}, {'p': pred2})
print(r(comp.get()))

# global vs local
acc = mx.metric.Accuracy()
acc.update([lab3], [pred3])
acc.reset_local()
acc.update([lab2], [pred2])
print(r(acc.get()), r(acc.get_global()), acc.num_inst, acc.global_num_inst)
print(r(acc.get_name_value()), r(acc.get_global_name_value()))

# printing after updates, PCC, Torch/Caffe, more shapes
m = mx.metric.Accuracy()
m.update([lab3], [pred3])
print(m)
comp = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.MAE()])
comp.update([lab2], [pred2[:, 1]])
print(comp)
for lab, prd in [(lab3, pred3), (lab2, pred2), (nd.array([0, 1, 2, 2, 1, 0]), nd.array([[0.8, 0.1, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]]))]:
    p = mx.metric.PCC()
    p.update([lab], [prd])
    print('pcc', r(p.get()), p.num_inst)
    p.update([lab], [prd])
    print('pcc', r(p.get()), p.num_inst, r(p.get_global()))
print(mx.metric.PCC(), mx.metric.create('pcc').name)
t = mx.metric.Torch()
t.update(None, [nd.array([1.0, 3.0]), nd.array([2.0])])
print(t.name, r(t.get()), t.num_inst)
c = mx.metric.Caffe()
c.update(None, [nd.array([4.0])])
print(c.name, r(c.get()))
run(mx.metric.Accuracy(), [lab3], [pred3.astype('float16')])
run(mx.metric.Accuracy(), [lab3.astype('int32')], [pred3.astype('float64')])
run(mx.metric.TopKAccuracy(top_k=2), [lab3.astype('int64')], [pred3])
p3d = nd.array([[[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]], [[0.1, 0.9], [0.7, 0.3], [0.3, 0.7]]])
l3d = nd.array([[1, 0, 1], [1, 1, 0]])
run(mx.metric.Accuracy(axis=2), [l3d], [p3d])
run(mx.metric.Accuracy(axis=-1), [l3d], [p3d])
run(mx.metric.Perplexity(ignore_label=None), [l3d], [p3d])
run(mx.metric.Perplexity(ignore_label=0, axis=2), [l3d], [p3d])
run(mx.metric.CrossEntropy(), [l3d.reshape((-1,))], [p3d.reshape((-1, 2))])
run(mx.metric.MSE(), [nd.array([1, 2, 3])], [nd.array([[1.5], [2.5], [2.0]])])
run(mx.metric.MAE(), [nd.array([[1, 2, 3]])], [nd.array([1.5, 2.5, 2.0])])
run(mx.metric.F1(), [nd.array([1, 0, 1, 1])], [nd.array([[0.5, 0.5], [0.4, 0.6], [0.2, 0.8], [0.9, 0.1]])])
run(mx.metric.MCC(), [nd.array([1, 0, 1, 1, 0, 0])], [nd.array([[0.5, 0.5], [0.4, 0.6], [0.2, 0.8], [0.9, 0.1], [0.7, 0.3], [0.6, 0.4]])])

# more error corners
run(mx.metric.F1(), [nd.array([0, 1])], [nd.array([0.2, 0.8])])
run(mx.metric.MCC(), [nd.array([0, 1, 0, 1])], [nd.array([0, 1, 1, 1])])
run(mx.metric.F1(), [nd.array([0, 1, 2])], [nd.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])])
run(mx.metric.TopKAccuracy(top_k=5), [lab3], [pred3])
run(mx.metric.CrossEntropy(), [nd.array([0, 5, 1, 2])], [pred3])
run(mx.metric.CrossEntropy(), [lab3], [pred3[:3]])
run(mx.metric.NegativeLogLikelihood(), [lab3[:3]], [pred3])
run(mx.metric.Accuracy(), [lab3, lab3], [pred3])
run(mx.metric.Accuracy(), lab3, pred3)
run(mx.metric.MAE(), [lab3], [pred3])
run(mx.metric.Perplexity(None, axis=0), [nd.array([0, 1, 1])], [nd.array([[0.2, 0.7, 0.6], [0.8, 0.3, 0.4]])])
run(mx.metric.Perplexity(None, axis=0), [nd.array([0, 1])], [nd.array([[0.2, 0.7], [0.8, 0.3]])])
run(mx.metric.Perplexity(None), [nd.array([0, 1])], [nd.array([[0.0, 1.0], [1.0, 0.0]])])
run(mx.metric.Accuracy(), [nd.array([[0], [1]])], [nd.array([[0.2, 0.8], [0.1, 0.9]])])
m = mx.metric.Accuracy(output_names=['a'], label_names=['b'])
attempt(lambda: m.update_dict({'x': lab3}, {'a': pred3}))
attempt(lambda: m.update_dict({'b': lab3}, {'y': pred3}))
attempt(lambda: mx.metric.CustomMetric(lambda l, p: 1.0).get_config())
c = mx.metric.CompositeEvalMetric()
print(c.get(), c.get_name_value(), c)
c.add(mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.MAE()]))
print(c.get())
attempt(lambda: mx.metric.create(['acc', 3]))
attempt(lambda: mx.metric.create([]).get())
attempt(lambda: mx.metric.create(mx.metric.Accuracy, axis=0))
a = mx.metric.Accuracy()
a.update([lab3], [pred3])
a.reset()
print(a.num_inst, a.sum_metric, a.global_num_inst, a.global_sum_metric)
