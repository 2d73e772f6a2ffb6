import mxnet as mx
from mxnet import nd

def r(v):
    if isinstance(v, (list, tuple)):
        return [r(x) for x in v]
    if isinstance(v, float):
        return round(v, 5)
    return v

def show(m):
    print(m.get_name_value() if not isinstance(m.get()[0], list) else r(m.get()))
    print(r(m.get()))

def err(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__)

pred = nd.array([[0.3, 0.7], [0.6, 0.4], [0.1, 0.9], [0.8, 0.2]])
label = nd.array([1, 1, 1, 0])
for m in [mx.metric.Accuracy(), mx.metric.TopKAccuracy(top_k=2), mx.metric.F1(), mx.metric.F1(average='micro'),
          mx.metric.MCC(), mx.metric.CrossEntropy(), mx.metric.Perplexity(ignore_label=None),
          mx.metric.NegativeLogLikelihood()]:
    print(m)
    print(m.get())
    m.update([label], [pred])
    print(r(m.get()))
    m.update(label, pred)
    print(r(m.get()), m.num_inst)
    m.reset()
    print(m.get())
p3 = nd.array([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]])
l3 = nd.array([2, 0, 1])
t = mx.metric.TopKAccuracy(top_k=2); t.update([l3], [p3]); print(t.get())
acc = mx.metric.Accuracy(); acc.update([l3], [nd.array([2, 2, 0])]); print(acc.get())
acc = mx.metric.Accuracy(axis=0); acc.update([nd.array([0, 1, 0])], [nd.array([[0.2, 0.1, 0.9], [0.8, 0.9, 0.1]])]); print(acc.get())
err(lambda: mx.metric.Accuracy().update([nd.array([1, 0])], [pred]))
yp = nd.array([[1.0, 2.0], [3.0, 5.0], [0.5, 0.0]])
yt = nd.array([[1.5, 2.0], [2.0, 5.0], [0.0, 1.0]])
for m in [mx.metric.MAE(), mx.metric.MSE(), mx.metric.RMSE(), mx.metric.PearsonCorrelation()]:
    print(m.get())
    m.update([yt], [yp])
    print(r(m.get()))
    m.update([yt[:2]], [yp[:2]])
    print(r(m.get()), m.num_inst)
l = mx.metric.Loss()
print(l.get())
l.update(None, [nd.array([1.0, 2.0, 3.0])])
l.update(None, nd.array([[4.0]]))
print(l.get(), l.num_inst)
comp = mx.metric.CompositeEvalMetric()
comp.add(mx.metric.Accuracy()); comp.add(mx.metric.F1()); comp.add(mx.metric.MSE())
print(comp.get())
comp.update([label], [pred])
print(r(comp.get()))
print(r(comp.get_name_value()))
for name in ['acc', 'accuracy', 'ce', 'f1', 'mae', 'mse', 'rmse', 'top_k_accuracy', 'loss', 'pearsonr', 'nll_loss', 'mcc']:
    m = mx.metric.create(name) if name != 'top_k_accuracy' else mx.metric.create(name, top_k=2)
    print(name, type(m).__name__, m.name)
m = mx.metric.create(['acc', 'f1'])
print(type(m).__name__, m.get()[0])
def custom(label, pred):
    return float(abs(label - pred.argmax(axis=1)).sum())
cm = mx.metric.create(custom)
cm.update([label], [pred]); print(cm.get())
cm2 = mx.metric.CustomMetric(custom, name='mine'); print(cm2.name); cm2.update([label], [pred]); print(cm2.get())
np_m = mx.metric.np(lambda l, p: float((l == p.argmax(1)).mean()), name='npacc')
np_m.update([label], [pred]); print(np_m.get())
acc = mx.metric.Accuracy(name='myacc', output_names=['out'], label_names=['lab'])
print(acc, acc.get_config())
acc.update_dict({'lab': label}, {'out': pred}); print(acc.get())
g = mx.metric.Accuracy(); g.update([label], [pred]); print(g.get_global(), g.get_global_name_value())
g.reset_local(); print(g.get(), g.get_global())
f1 = mx.metric.F1(); f1.update([nd.array([0, 0])], [nd.array([[0.9, 0.1], [0.8, 0.2]])]); print(f1.get())
ppl = mx.metric.Perplexity(ignore_label=1); ppl.update([label], [pred]); print(r(ppl.get()))
ce = mx.metric.CrossEntropy(eps=1e-3); ce.update([label], [pred]); print(r(ce.get()))
