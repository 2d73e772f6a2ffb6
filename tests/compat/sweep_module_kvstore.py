# Module.fit through each kind of kvstore, on one and two devices, with optimizer states saved and
# loaded back, and optimizer objects made outside the module.
import warnings

import numpy as np
import mxnet as mx
from _fit_logs import attempt, log_to_stdout, r

warnings.simplefilter('ignore')
log_to_stdout()


X = (np.sin(np.arange(64) * 0.37).reshape(16, 4) * 2).astype('float32')
Y = (X[:, 0] + X[:, 1] > 0).astype('float32')
W0 = (np.cos(np.arange(8) * 0.9).reshape(2, 4) * 0.3).astype('float32')
B0 = np.array([0.05, -0.05], dtype='float32')


def net():
    data = mx.sym.var('data')
    fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return mx.sym.SoftmaxOutput(fc, name='softmax')


def params():
    return {'fc_weight': mx.nd.array(W0), 'fc_bias': mx.nd.array(B0)}


def train(ctx, kvstore, optimizer='sgd', optimizer_params=(('learning_rate', 0.5), ('momentum', 0.9)),
          num_epoch=2):
    mod = mx.mod.Module(net(), context=ctx)
    mod.fit(mx.io.NDArrayIter(X, Y, batch_size=4), num_epoch=num_epoch, arg_params=params(),
            kvstore=kvstore, optimizer=optimizer, optimizer_params=optimizer_params)
    return mod


print('--- kvstores')
for ctx in [mx.cpu(), [mx.cpu(0), mx.cpu(1)]]:
    for kv in ['local', 'device', None, mx.kv.create('local')]:
        mod = train(ctx, kv, num_epoch=1)
        print(kv if kv is None or isinstance(kv, str) else type(kv).__name__,
              r(mod.get_params()[0]['fc_weight'][0]), mod._optimizer.rescale_grad)

print('--- optimizer states saved and loaded back')
mod = train([mx.cpu(0), mx.cpu(1)], 'device')
mod.save_optimizer_states('two.states')
mod.save_checkpoint('two', 2, save_optimizer_states=True)
loaded = mx.mod.Module.load('two', 2, load_optimizer_states=True, context=[mx.cpu(0), mx.cpu(1)])
loaded.fit(mx.io.NDArrayIter(X, Y, batch_size=4), begin_epoch=2, num_epoch=3, kvstore='device',
           optimizer_params=(('learning_rate', 0.5), ('momentum', 0.9)))
cont = train([mx.cpu(0), mx.cpu(1)], 'device', num_epoch=3)
print(r(loaded.get_params()[0]['fc_weight'][0]), r(cont.get_params()[0]['fc_weight'][0]))
fresh = mx.mod.Module.load('two', 2, context=mx.cpu())
fresh.fit(mx.io.NDArrayIter(X, Y, batch_size=4), begin_epoch=2, num_epoch=3,
          optimizer_params=(('learning_rate', 0.5), ('momentum', 0.9)))
print(r(fresh.get_params()[0]['fc_weight'][0]))
attempt(lambda: fresh.load_optimizer_states('missing.states'))

print('--- optimizer objects')
opt = mx.optimizer.Adam(learning_rate=0.05)
mod = train(mx.cpu(), 'local', optimizer=opt, optimizer_params=())
print(mod._optimizer is opt, opt.rescale_grad, opt.num_update, r(mod.get_params()[0]['fc_bias']))
opt = mx.optimizer.SGD(learning_rate=0.1, rescale_grad=0.25, wd=0.01)
mod = train([mx.cpu(0), mx.cpu(1)], 'device', optimizer=opt, optimizer_params=())
print(opt.rescale_grad, opt.num_update, r(mod.get_params()[0]['fc_bias']))
mod = train(mx.cpu(), 'local', optimizer='rmsprop', optimizer_params={'learning_rate': 0.01, 'centered': True})
print(type(mod._optimizer).__name__, mod._optimizer.rescale_grad, r(mod.get_params()[0]['fc_bias']))
attempt(lambda: train(mx.cpu(), 'local', optimizer='nosuchopt'))
attempt(lambda: train(mx.cpu(), 'nosuchkv'))
