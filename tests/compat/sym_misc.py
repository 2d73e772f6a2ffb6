import pickle
import copy
import mxnet as mx

x = mx.sym.var('x')
parts = mx.sym.split(x, num_outputs=3, axis=1, name='sp')
print(parts, len(parts), parts.list_outputs())
print(parts[1], parts[1].name, parts[1].list_outputs())
s = parts[0] + parts[2]
print(s.list_arguments(), s.infer_shape(x=(2, 6))[1])
print(mx.sym.SliceChannel(x, num_outputs=2).list_outputs())
print(mx.sym.topk(x, k=2, ret_typ='both').list_outputs())
bn = mx.sym.BatchNorm(x, output_mean_var=True, name='bnx')
print(bn.list_outputs(), len(bn))
rnn = mx.sym.RNN(x, mx.sym.var('p'), mx.sym.var('s'), state_size=4, num_layers=1, mode='rnn_tanh', state_outputs=True)
print(rnn.list_outputs())
# composition
net = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
net2 = mx.sym.Activation(mx.sym.var('data2'), act_type='relu', name='act')
comp = net(data=net2)
print(comp.list_arguments(), comp.name)
comp2 = net2(data2=mx.sym.var('z'), name='renamed')
print(comp2.list_arguments(), comp2.name)
# copy/pickle
c = copy.deepcopy(comp)
print(c.tojson() == comp.tojson())
p = pickle.loads(pickle.dumps(comp))
print(p.list_arguments(), p.tojson() == comp.tojson())
# debug_str
print(mx.sym.FullyConnected(mx.sym.var('d'), num_hidden=2, name='f').debug_str())
# creation symbols
print(mx.sym.zeros((2, 3)).tojson())
print(mx.sym.ones((2,), dtype='int32').infer_type()[1], mx.sym.ones((2,)).infer_shape()[1])
print(mx.sym.arange(0, 5).infer_shape()[1])
print(mx.sym.full((2, 2), 3).eval()[0])
print(mx.sym.zeros((2,)).name, mx.sym.ones((2,)).name)
# fluent + attr
y = x.reshape((-1, 2)).sum(axis=1).exp()
print(y.name, y.get_internals().list_outputs())
print(x.astype('float16').name, x.transpose().name, x.expand_dims(axis=0).name, x.flatten().name)
print(mx.sym.var('q', shape=(2, 3)).attr('__shape__'), mx.sym.var('q', shape=5).attr('__shape__'))
print(mx.sym.var('q', shape=(0, 3)).infer_shape_partial())
print(mx.sym.Variable('w', init=mx.init.Normal(0.5)).attr('__init__'))
print(mx.sym.Variable('w', init='zeros').attr('__init__'))
print(mx.sym.var('w', dtype='int64').attr('__dtype__'), mx.sym.var('w', dtype='float64').infer_type())
# pow variants
print(mx.sym.pow(x, 2).name, mx.sym.pow(2, x).name, mx.sym.pow(x, x).name, mx.sym.maximum(x, 1).name, mx.sym.minimum(1, x).name)
print((x ** 0.5).tojson())
print((2 ** x).eval(x=mx.nd.array([1, 3]))[0])
ints = mx.sym.var('i')
print((ints + 1).eval(i=mx.nd.array([1, 2], dtype='int32'))[0])
print([s.name for s in x.get_internals()])
print(mx.sym.Group([x, x]).list_outputs())
try:
    bool(x)
except Exception as e:
    print(type(e).__name__)
try:
    iter(mx.sym.var('v'))
    print(list(mx.sym.var('v')))
except Exception as e:
    print(type(e).__name__)
