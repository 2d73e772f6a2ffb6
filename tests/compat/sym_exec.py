import mxnet as mx
import numpy as np

a = mx.sym.var('a')
b = mx.sym.var('b')
c = a * b + a
ex = c.bind(mx.cpu(), {'a': mx.nd.array([1, 2, 3]), 'b': mx.nd.array([4, 5, 6])},
            args_grad={'a': mx.nd.zeros(3), 'b': mx.nd.zeros(3)})
print(type(ex).__name__)
out = ex.forward(is_train=True)
print(out)
print(ex.outputs[0])
ex.backward(mx.nd.ones(3))
print(ex.grad_dict['a'], ex.grad_dict['b'])
print(sorted(ex.arg_dict.keys()), sorted(ex.grad_dict.keys()), ex.aux_dict)
print(ex.grad_arrays)
print(ex.arg_arrays)
# grad_req add
ex2 = c.bind(mx.cpu(), [mx.nd.array([1, 2, 3]), mx.nd.array([4, 5, 6])],
             args_grad=[mx.nd.ones(3), mx.nd.ones(3)], grad_req='add')
for _ in range(2):
    ex2.forward(is_train=True)
    ex2.backward(mx.nd.ones(3))
print(ex2.grad_arrays)
ex3 = c.bind(mx.cpu(), {'a': mx.nd.array([1, 2, 3]), 'b': mx.nd.array([4, 5, 6])},
             args_grad={'a': mx.nd.zeros(3)}, grad_req={'a': 'write', 'b': 'null'})
ex3.forward(is_train=True)
ex3.backward(mx.nd.array([1, 0, 2]))
print(ex3.grad_dict)
# simple_bind
data = mx.sym.var('data')
fc = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
net = mx.sym.SoftmaxOutput(fc, name='sm')
exe = net.simple_bind(mx.cpu(), data=(2, 4))
print([(k, v.shape, v.dtype) for k, v in sorted(exe.arg_dict.items())])
print([(k, v.shape) for k, v in sorted(exe.grad_dict.items())])
exe.arg_dict['data'][:] = np.arange(8).reshape(2, 4) / 10.0
exe.arg_dict['fc_weight'][:] = np.arange(12).reshape(3, 4) / 20.0
exe.arg_dict['fc_bias'][:] = np.array([0.1, -0.1, 0.0])
exe.arg_dict['sm_label'][:] = np.array([0, 2])
o = exe.forward(is_train=True)
print(o[0].asnumpy().round(5))
exe.backward()
print(exe.grad_dict['fc_weight'].asnumpy().round(5))
print(exe.grad_dict['fc_bias'].asnumpy().round(5))
print(exe.grad_dict['data'].asnumpy().round(5))
print(exe.output_dict.keys())
exe4 = net.simple_bind(mx.cpu(), data=(2, 4), grad_req='null')
print(exe4.grad_dict, exe4.grad_arrays)
exe5 = fc.simple_bind(mx.cpu(), data=(2, 4), type_dict={'data': 'float64'})
print([(k, v.dtype) for k, v in sorted(exe5.arg_dict.items())])
# batchnorm aux
bn = mx.sym.BatchNorm(data, name='bn', fix_gamma=False)
exb = bn.simple_bind(mx.cpu(), data=(4, 2))
print(sorted(exb.aux_dict.keys()), exb.aux_dict['bn_moving_var'])
exb.arg_dict['data'][:] = np.arange(8).reshape(4, 2)
exb.arg_dict['bn_gamma'][:] = 1
exb.aux_dict['bn_moving_var'][:] = 1
exb.forward(is_train=True)
print(exb.outputs[0].asnumpy().round(4))
exb.backward(mx.nd.ones((4, 2)))
print(exb.grad_dict['bn_gamma'], exb.grad_dict['data'].asnumpy().round(4))
print(exb.aux_dict['bn_moving_mean'].asnumpy().round(4), exb.aux_dict['bn_moving_var'].asnumpy().round(4))
exb.forward(is_train=False)
print(exb.outputs[0].asnumpy().round(4))
# eval
print(c.eval(ctx=mx.cpu(), a=mx.nd.array([1, 2]), b=mx.nd.array([3, 4])))
print((a + 1).eval(a=mx.nd.ones((2, 2))))
# copy params / reshape
exe.copy_params_from({'fc_weight': mx.nd.ones((3, 4))}, allow_extra_params=True)
print(exe.arg_dict['fc_weight'])
exr = exe.reshape(data=(1, 4), partial_shaping=True)
print(exr.arg_dict['data'].shape, exr.outputs[0].shape if exr.outputs else None)
for args in [{'a': mx.nd.ones(3)}, [mx.nd.ones(3)], (mx.nd.ones(3), mx.nd.ones(3))]:
    try:
        c.bind(mx.cpu(), args)
    except Exception as e:
        print(type(e).__name__)
try:
    c.bind(mx.cpu(), [mx.nd.ones(3), mx.nd.ones(3)], grad_req='foo')
except Exception as e:
    print(type(e).__name__)
try:
    ex.forward(q=mx.nd.ones(3))
except Exception as e:
    print(type(e).__name__)
try:
    fc.simple_bind(mx.cpu(), data=(2, 4), fc_weight=(5, 5))
except Exception as e:
    print(type(e).__name__)
g = mx.sym.Group([a + b, a * b])
print(g.eval(a=mx.nd.array([2]), b=mx.nd.array([3])))
