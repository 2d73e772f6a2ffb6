import mxnet as mx

data = mx.sym.var('data')
print(data)
print(repr(data), str(data))
fc1 = mx.sym.FullyConnected(data=data, num_hidden=16)
print(fc1)
act = mx.sym.Activation(fc1, act_type='relu')
print(act, act.name)
fc2 = mx.sym.FullyConnected(act, num_hidden=4, name='out')
print(fc2.list_arguments())
print(fc2.list_outputs())
print(fc2.list_auxiliary_states())
print(fc2.list_inputs())
a = mx.sym.var('a')
b = mx.sym.var('b')
for s in [a + b, a - b, a * b, a / b, a + 1, 1 + a, a - 2, 2 - a, a * 3, a / 4, 4 / a, a ** 2, 2 ** a, -a, a % 3, a ** b,
          a > b, a >= 1, a == b, a != 1, a < b, a <= 2]:
    print(s.name, s.list_outputs())
g = mx.sym.Group([fc2, act])
print(g)
print(g.list_outputs())
print(len(g), g.name)
internals = fc2.get_internals()
print(internals)
print(internals.list_outputs())
print(internals['activation0_output'])
print(internals[2])
print(fc2.get_children())
print(fc2.get_children().list_outputs())
print(data.get_children())
bn = mx.sym.BatchNorm(mx.sym.Convolution(data, kernel=(3, 3), num_filter=8), fix_gamma=False)
print(bn.list_arguments())
print(bn.list_auxiliary_states())
print(bn.list_outputs())
print(bn.get_internals().list_outputs())
sm = mx.sym.SoftmaxOutput(fc2, name='softmax')
print(sm.list_arguments())
print(sm.list_outputs())
# attributes
v = mx.sym.var('w', shape=(3, 4), dtype='float32', lr_mult=2.0, wd_mult=0.5, init=mx.init.Xavier(), attr={'mood': 'good'})
print(v.attr('lr_mult'), v.attr('__lr_mult__'), v.attr('mood'), v.attr('__shape__'), v.attr('nope'))
print(sorted(v.list_attr().items()))
with mx.AttrScope(ctx_group='dev1', __mood__='great'):
    c = mx.sym.var('c', attr={'__mood__': 'x'})
    d = mx.sym.FullyConnected(c, num_hidden=2, name='dfc')
print(sorted(c.list_attr().items()))
print(sorted(d.list_attr().items()))
print(sorted((k, sorted(v.items())) for k, v in d.attr_dict().items()))
try:
    d.list_attr(recursive=True)
except Exception as e:
    print(type(e).__name__)
c._set_attr(foo='bar')
print(c.attr('foo'), sorted(c.list_attr().items()))
# naming
with mx.name.NameManager():
    x = mx.sym.var('x')
    print(mx.sym.FullyConnected(x, num_hidden=2).name, mx.sym.FullyConnected(x, num_hidden=2).name)
    print((x + 1).name, (x * 2).name, mx.sym.relu(x).name, mx.sym.sum(x).name, mx.sym.exp(x).name)
    print(mx.sym.Convolution(x, kernel=(1, 1), num_filter=1).name, mx.sym.Pooling(x, kernel=(2, 2)).name)
    print(mx.sym.concat(x, x).name, mx.sym.Concat(x, x).name, mx.sym.reshape(x, shape=(-1,)).name, x.reshape((-1,)).name)
with mx.name.Prefix('net_'):
    y = mx.sym.FullyConnected(mx.sym.var('z'), num_hidden=2)
print(y.name, y.list_arguments())
try:
    fc2['nope']
except Exception as e:
    print(type(e).__name__)
try:
    g[5]
except Exception as e:
    print(type(e).__name__)
