import mxnet as mx

data = mx.sym.var('data')
conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, name='conv1')
bn = mx.sym.BatchNorm(conv, name='bn1')
act = mx.sym.Activation(bn, act_type='relu', name='relu1')
pool = mx.sym.Pooling(act, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool1')
flat = mx.sym.flatten(pool, name='flat')
fc = mx.sym.FullyConnected(flat, num_hidden=10, name='fc1')
out = mx.sym.SoftmaxOutput(fc, name='softmax')
mx.viz.print_summary(out, shape={'data': (1, 3, 12, 12)})
mx.viz.print_summary(fc)
a = mx.sym.var('a')
b = mx.sym.var('b')
c = mx.sym.FullyConnected(a, num_hidden=4, name='fa') + mx.sym.FullyConnected(b, num_hidden=4, name='fb')
mx.viz.print_summary(mx.sym.relu(c, name='r'), shape={'a': (2, 5), 'b': (2, 3)}, line_length=100,
                     positions=[.3, .6, .75, 1.])
net = mx.gluon.nn.HybridSequential(prefix='net_')
with net.name_scope():
    net.add(mx.gluon.nn.Conv2D(4, 3, in_channels=1), mx.gluon.nn.Dense(2, in_units=4 * 4 * 4))
net.initialize()
mx.viz.print_summary(net(mx.sym.var('data')), shape={'data': (1, 1, 6, 6)})
