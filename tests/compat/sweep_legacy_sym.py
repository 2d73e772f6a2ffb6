"""Legacy Symbol corner cases: per-output dtypes, partial inference, reprs, internals, attributes, JSON."""
import json

import mxnet as mx

sym = mx.sym


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)


data = sym.var('data')
# per-output dtypes of multi-output operators
for s in (sym.topk(data, k=2, ret_typ='both', name='tk'), sym.topk(data, k=2, ret_typ='both', dtype='int32', name='tk2'),
          sym.split(data, num_outputs=2, axis=1, name='sp'), sym.BatchNorm(data, output_mean_var=True, name='bn'),
          sym.LayerNorm(data, output_mean_var=True, name='ln'), sym.sort(data, name='so'),
          sym.argsort(data, dtype='int32', name='as'), sym.argmax(data, axis=1, name='am'),
          sym.SliceChannel(data, num_outputs=4, name='sc'), sym.Dropout(data, name='do'),
          sym.topk(data, k=1, ret_typ='indices', name='tk3'), sym.Cast(data, dtype='int8', name='ca'),
          sym.shape_array(data, name='sa'), sym.size_array(data, name='sz'), sym.one_hot(data, depth=3, name='oh'),
          sym.L2Normalization(data, name='l2'), sym.LRN(data, nsize=3, name='lrn')):
    print(s.list_outputs())
    for dt in ('float32', 'float16', 'float64'):
        attempt(lambda: s.infer_type(data=dt))
    attempt(lambda: s.infer_shape(data=(2, 4, 3, 3)))
grouped = sym.Group([sym.topk(data, k=2, ret_typ='both', name='t'), sym.Cast(data, dtype='uint8', name='c')])
print(grouped.list_outputs())
print(grouped.infer_type(data='float64'))
print(grouped.infer_type())
print(grouped.infer_type_partial())

# partial shape inference
x, y = sym.var('x'), sym.var('y')
fc = sym.FullyConnected(x, num_hidden=5, name='fc')
net = sym.elemwise_add(fc, y, name='add')
print(net.infer_shape_partial())
print(net.infer_shape_partial(x=(2, 3)))
print(net.infer_shape_partial(y=(2, 5)))
print(net.infer_shape_partial(x=(0, 3)))
attempt(lambda: net.infer_shape(y=(2, 5)))
attempt(lambda: net.infer_shape(x=(2, 3)))
attempt(lambda: net.infer_shape_partial(x=(2, 3), y=(3, 5)))
attempt(lambda: net.infer_shape_partial((2, 3), y=(2, 5)))
attempt(lambda: net.infer_type('float16', y='float16'))
attempt(lambda: net.infer_shape(z=(2, 3)))
attempt(lambda: net.infer_type(x='float16'))
attempt(lambda: net.infer_type_partial(y='float16'))
attempt(lambda: net.infer_type(x='float16', y='float32'))
attempt(lambda: net.infer_type(x='int32'))
c = sym.concat(x, y, dim=1, name='cat')
print(c.infer_shape_partial(x=(2, 3), y=(2, 0)))
print(c.infer_shape(x=(2, 3), y=(2, 4)))
attempt(lambda: c.infer_shape(x=(2, 3), y=(3, 4)))
r = sym.reshape(x, shape=(-1, 6), name='r')
print(r.infer_shape_partial())
print(r.infer_shape(x=(4, 3)))

# reprs
print(repr(data))
print(repr(fc))
print(repr(net))
print(repr(sym.Group([fc, net])))
print(repr(sym.split(data, num_outputs=3, name='spl')))
print(repr(sym.split(data, num_outputs=3, name='spl2')[1]))
print(repr(fc.get_internals()))
print(str(fc))
print(repr(x + 1))
print(repr(2 * x))

# internals
lenet = sym.Pooling(sym.Activation(sym.Convolution(data, kernel=(3, 3), num_filter=2, name='conv1'),
                                   act_type='relu', name='relu1'), kernel=(2, 2), pool_type='max', name='pool1')
bn = sym.BatchNorm(lenet, name='bn1')
out = sym.SoftmaxOutput(sym.FullyConnected(bn, num_hidden=3, name='fc1'), name='softmax')
internals = out.get_internals()
print(internals.list_outputs())
print(len(internals), internals[3].name, internals['fc1_output'].list_outputs())
attempt(lambda: internals['nope'])
attempt(lambda: internals[100])
print(internals['conv1_output'].list_arguments())
print(internals['bn1_output'].list_auxiliary_states())
print(sym.split(data, num_outputs=2, name='s3').get_internals().list_outputs())
print(sym.BatchNorm(data, name='bn4', output_mean_var=True).get_internals().list_outputs())
print(out.get_children().list_outputs())
print(data.get_children())
print(fc.get_children().list_outputs())
print(internals['fc1_output'].get_children().list_outputs())

# attributes
a = sym.var('a', attr={'mood': 'calm', 'lr_mult': '0.5'}, lr_mult=2.0, wd_mult=0.1, dtype='float16', shape=(2, 3),
            init=mx.init.Constant(1.5))
print(sorted(a.list_attr().items()))
attempt(lambda: sym.FullyConnected(a, num_hidden=2, name='fcx', attr={'note': 'x'}))
with mx.AttrScope(ctx_group='dev1', __tag__='t'):
    b = sym.FullyConnected(a, num_hidden=2, name='fcb', attr={'__note__': 'x'})
print(sorted(b.list_attr().items()))
attempt(lambda: sorted(b.list_attr(recursive=True).items()))
print(sorted((k, sorted(v.items())) for k, v in b.attr_dict().items()))
print(b.attr('__note__'), b.attr('ctx_group'), b.attr('__ctx_group__'), b.attr('missing'))
b._set_attr(__extra__='1')
print(b.attr('__extra__'))
attempt(lambda: b._set_attr(bad=1))
print(sym.Group([a, b]).attr('__note__'))
print(sym.Group([a, b]).list_attr())
print(sorted((k, sorted(v.items())) for k, v in sym.BatchNorm(data, name='bn5', fix_gamma=False).attr_dict().items()))

# JSON of a small graph
small = sym.Activation(sym.FullyConnected(data, num_hidden=4, no_bias=True, name='f'), act_type='tanh', name='t')
small = sym.BatchNorm(small + 1, name='b', eps=1e-4)
js = json.loads(small.tojson())
print(sorted(js.keys()))
for n in js['nodes']:
    print(n['op'], n['name'], n.get('attrs'), n['inputs'])
print(js['arg_nodes'], js['heads'], js['node_row_ptr'])
print(js['attrs'])
back = sym.load_json(small.tojson())
print(back.list_arguments(), back.list_auxiliary_states(), back.list_outputs())
print(back.tojson() == small.tojson())
for op_sym in (sym.topk(data, k=3, name='tk9'), sym.Pooling(data, kernel=(2, 2), name='pp', pool_type='avg'),
               sym.Dropout(data, p=0.3, name='dd'), sym.Cast(data, dtype='float16', name='cc'),
               sym.sum(data, axis=(1, 2), keepdims=True, name='ss'), sym.slice(data, begin=(0, None), end=(2, 3), name='sl'),
               sym.clip(data, 0, 1.5, name='cl'), data * 2.5, sym.LeakyReLU(data, act_type='elu', name='lr')):
    node = json.loads(op_sym.tojson())['nodes'][-1]
    print(node['op'], node['name'], node.get('attrs'))
attempt(lambda: sym.load_json('{"nodes": []}'))
attempt(lambda: sym.load_json('not json'))

# dtypes known from an output or a variable's own dtype, through operators with their own type rules
lab = sym.var('label')
for s in (sym.Embedding(data, input_dim=5, output_dim=2, name='emb') + sym.var('other'),
          sym.one_hot(data, depth=3, name='oh2') * sym.var('other')):
    attempt(lambda: s.infer_type(data='float16'))
    attempt(lambda: s.infer_type(data='float16', other='float32'))
for s in (sym.LinearRegressionOutput(sym.relu(sym.FullyConnected(data, num_hidden=1, name='f2')), lab, name='lro'),
          sym.Cast(data, dtype='float16', name='c1') + sym.var('other'),
          sym.argmax(data, axis=1, name='am2') + lab,
          sym.shape_array(data, name='sa2') + lab,
          sym.BatchNorm(sym.var('data', dtype='float16'), name='bn6') * sym.var('other'),
          sym.Convolution(data, kernel=(1, 1), num_filter=2, name='cv') + sym.var('other'),
          sym.concat(data, sym.var('other'), dim=1, name='cc2'),
          sym.dot(data, sym.var('other'), name='dt')):
    print(s.list_arguments())
    attempt(lambda: s.infer_type_partial())
    attempt(lambda: s.infer_type_partial(other='float16'))
    attempt(lambda: s.infer_type_partial(label='float64'))
    attempt(lambda: s.infer_type(data='float16'))
