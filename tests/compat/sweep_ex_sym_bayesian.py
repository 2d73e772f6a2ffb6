# MXNet 1.9's example/bayesian-methods (SGD/SGLD/HMC/distilled SGLD driven through executors),
# example/multi-task (a Group of two SoftmaxOutputs fitted with a multi-output metric) and
# example/numpy-ops/weighted_logistic_regression.py (a CustomOp beside LogisticRegressionOutput),
# on tiny deterministic data: executors bound from infer_shape'd dicts, copy_params_from,
# updaters from mx.optimizer.get_updater, backward with head gradients from a student's outputs.
import numpy as np
import mxnet as mx
import mxnet.ndarray as nd
from _fit_logs import attempt, log_to_stdout, r

log_to_stdout()

X = (np.sin(np.arange(40) * 0.7).reshape(10, 4)).astype('float32')
Y = (np.abs(X).argmax(axis=1) % 3).astype('float32')


class Wave(mx.init.Initializer):
    def _init_weight(self, name, arr):
        n = int(np.prod(arr.shape))
        arr[:] = (np.cos(np.arange(n) * 0.77 + len(name)) * 0.5).reshape(arr.shape)

    def _init_bias(self, name, arr):
        arr[:] = 0.01 * len(name)


def get_executor(sym, ctx, data_inputs, initializer=None):
    data_shapes = {k: v.shape for k, v in data_inputs.items()}
    arg_names = sym.list_arguments()
    aux_names = sym.list_auxiliary_states()
    param_names = sorted(set(arg_names) - set(data_inputs.keys()))
    arg_shapes, output_shapes, aux_shapes = sym.infer_shape(**data_shapes)
    shapes = dict(zip(arg_names, arg_shapes))
    params = {n: nd.empty(shapes[n], ctx=ctx) for n in param_names}
    params_grad = {n: nd.empty(shapes[n], ctx=ctx) for n in param_names}
    aux_states = {k: nd.empty(s, ctx=ctx) for k, s in zip(aux_names, aux_shapes)}
    exe = sym.bind(ctx=ctx, args=dict(params, **data_inputs), args_grad=params_grad, aux_states=aux_states)
    if initializer is not None:
        for k in param_names:
            initializer(k, params[k])
    return exe, params, params_grad, aux_states


def copy_param(exe, new_param=None):
    if new_param is None:
        new_param = {k: nd.empty(v.shape, ctx=mx.cpu()) for k, v in exe.arg_dict.items()}
    for k, v in new_param.items():
        exe.arg_dict[k].copyto(v)
    return new_param


def mnist_like_sym(num_hidden=5, output_op=None):
    net = mx.symbol.Variable('data')
    net = mx.symbol.FullyConnected(data=net, name='fc1', num_hidden=num_hidden)
    net = mx.symbol.Activation(data=net, name='relu1', act_type='relu')
    net = mx.symbol.FullyConnected(data=net, name='fc2', num_hidden=3)
    if output_op is None:
        return mx.symbol.SoftmaxOutput(data=net, name='softmax')
    return output_op(data=net, name='softmax')


def toy_sym(teacher=True, noise_precision=None):
    net = mx.symbol.Variable('data')
    prefix = 'teacher' if teacher else 'student'
    net = mx.symbol.FullyConnected(data=net, name=prefix + '_fc1', num_hidden=6)
    net = mx.symbol.Activation(data=net, name=prefix + '_relu1', act_type='relu')
    if teacher:
        net = mx.symbol.FullyConnected(data=net, name='teacher_fc2', num_hidden=1)
        return mx.symbol.LinearRegressionOutput(data=net, name='teacher_output', grad_scale=noise_precision)
    mean = mx.symbol.FullyConnected(data=net, name='student_mean', num_hidden=1)
    var = mx.symbol.FullyConnected(data=net, name='student_var', num_hidden=1)
    return mx.symbol.Group([mean, var])


def sample_test_acc(exe, X, Y, sample_pool=None, label_num=3, minibatch_size=4):
    pred = np.zeros((X.shape[0], label_num), 'float32')
    it = mx.io.NDArrayIter(data=X, label=Y, batch_size=minibatch_size, shuffle=False)
    pool = sample_pool or [None]
    old = copy_param(exe)
    for sample in pool:
        if sample is not None:
            exe.copy_params_from(sample)
        it.reset()
        cur = 0
        for batch in it:
            exe.arg_dict['data'][:] = batch.data[0]
            exe.forward(is_train=False)
            n = minibatch_size - batch.pad
            pred[cur:cur + n, :] += exe.outputs[0].asnumpy()[:n] / len(pool)
            cur += n
    exe.copy_params_from(old)
    correct = int((pred.argmax(axis=1) == Y).sum())
    return correct, Y.shape[0], round(correct / float(Y.shape[0]), 4)


print('--- SGD through an executor')
sym = mnist_like_sym()
data_inputs = {'data': nd.zeros((4, 4)), 'softmax_label': nd.zeros((4,))}
exe, params, params_grad, aux = get_executor(sym, mx.cpu(), data_inputs, Wave())
print(sorted(params), sorted(exe.arg_dict), aux)
attempt(lambda: mx.optimizer.create('sgd', learning_rate=0.1, arg_names=list(params.keys())))
opt = mx.optimizer.create('sgd', learning_rate=0.1, rescale_grad=X.shape[0] / 4, wd=0.5)
updater = mx.optimizer.get_updater(opt)
for i in range(6):
    idx = [(i * 3 + k) % X.shape[0] for k in range(4)]
    exe.arg_dict['data'][:] = X[idx]
    exe.arg_dict['softmax_label'][:] = Y[idx]
    exe.forward(is_train=True)
    exe.backward()
    for k in params:
        updater(k, params_grad[k], params[k])
print(r(params['fc2_bias']), r(params_grad['fc1_bias']))
print(sample_test_acc(exe, X, Y))
snapshot = copy_param(exe)
print(sorted(snapshot), r(snapshot['data'][0]))
attempt(lambda: exe.copy_params_from({'nothing': nd.zeros(1)}))
exe.copy_params_from({'nothing': nd.zeros(1)}, allow_extra_params=True)

print('--- SGLD: the updater draws noise (only shapes are printed)')
sgld = mx.optimizer.create('sgld', learning_rate=0.01, rescale_grad=1.0, wd=1.0)
sgld_updater = mx.optimizer.get_updater(sgld)
w = nd.array([0.5, -0.5])
sgld_updater('theta', nd.array([0.1, 0.2]), w)
print(type(sgld).__name__, w.shape, sgld.num_update)

print('--- HMC steps with deterministic momenta')
noise_precision, prior_precision, eps = 1 / 9.0, 1.0, 0.01
tsym = toy_sym(True, noise_precision)
tx = np.linspace(-1, 1, 8).reshape(8, 1).astype('float32')
ty = (tx ** 3).astype('float32')
exe, params, grads, _ = get_executor(tsym, mx.cpu(), {'data': nd.array(tx), 'teacher_output_label': nd.array(ty)},
                                     Wave())


def potential(exe, p):
    exe.copy_params_from(p)
    exe.forward(is_train=False)
    ret = (nd.norm(exe.outputs[0] - exe.arg_dict['teacher_output_label']).asscalar() ** 2) / 2.0 * noise_precision
    for v in p.values():
        ret += (nd.norm(v).asscalar() ** 2) / 2.0 * prior_precision
    return ret


init_params = {k: v.copyto(v.context) for k, v in params.items()}
momenta = {k: nd.array(np.cos(np.arange(v.size) + 1.0).reshape(v.shape)) for k, v in params.items()}
u0 = potential(exe, init_params)
k0 = sum([nd.sum(nd.square(m)) / 2.0 for m in momenta.values()]).asscalar()
exe.forward(is_train=True)
exe.backward()
for k, m in momenta.items():
    m[:] = m - (eps / 2) * grads[k]
for step in range(3):
    for k, p in params.items():
        p[:] = p + eps * momenta[k]
    exe.forward(is_train=True)
    exe.backward()
    for k, m in momenta.items():
        m[:] = m - eps * grads[k] if step < 2 else -(m - eps / 2.0 * grads[k])
end_params = copy_param(exe, {k: v.copyto(mx.cpu()) for k, v in params.items()})
u1 = potential(exe, end_params)
k1 = sum([nd.sum(nd.square(m)) / 2.0 for m in momenta.values()]).asscalar()
print(round(u0, 4), round(k0, 4), round(u1, 4), round(k1, 4))
print(r(end_params['teacher_fc2_bias']), type(k1).__name__)

print('--- distilled student: backward with head gradients')
student = toy_sym(False)
sexe, sparams, sgrads, _ = get_executor(student, mx.cpu(), {'data': nd.array(tx)}, Wave())
print(student.list_outputs(), student.infer_shape(data=(8, 1))[1])
sopt = mx.optimizer.create('adam', learning_rate=0.01, rescale_grad=1.0 / 8, wd=0.001,
                           lr_scheduler=mx.lr_scheduler.FactorScheduler(2, 0.8))
supdater = mx.optimizer.get_updater(sopt)
exe.copy_params_from(init_params)
for i in range(3):
    exe.arg_dict['data'][:] = tx
    exe.forward(is_train=False)
    teacher_pred = exe.outputs[0]
    sexe.forward(is_train=True)
    mean, var = sexe.outputs
    grad_mean = nd.exp(-var) * (mean - teacher_pred)
    grad_var = (1 - nd.exp(-var) * (nd.square(mean - teacher_pred) + 1.0 / noise_precision)) / 2
    sexe.backward([grad_mean, grad_var])
    for k in sorted(sparams):
        supdater(k, sgrads[k], sparams[k])
print(r(sparams['student_mean_bias']), r(sparams['student_var_bias']), r(sgrads['student_fc1_bias']))
print(round(sopt.lr_scheduler(sopt.num_update), 6), sopt.num_update)
attempt(lambda: sexe.backward([grad_mean]))

print('--- multi-task: two SoftmaxOutputs over one trunk')
data = mx.symbol.Variable('data')
fc = mx.symbol.FullyConnected(data=mx.symbol.Activation(
    data=mx.symbol.FullyConnected(data=data, name='fc1', num_hidden=6), name='relu1', act_type='relu'),
    name='fc3', num_hidden=3)
net = mx.symbol.Group([mx.symbol.SoftmaxOutput(data=fc, name='softmax1'),
                       mx.symbol.SoftmaxOutput(data=fc, name='softmax2')])
print(net.list_arguments(), net.list_outputs())


class MultiIter(mx.io.DataIter):
    def __init__(self, it):
        super(MultiIter, self).__init__()
        self.it, self.batch_size = it, it.batch_size

    @property
    def provide_data(self):
        return self.it.provide_data

    @property
    def provide_label(self):
        shape = self.it.provide_label[0][1]
        return [('softmax1_label', shape), ('softmax2_label', shape)]

    def reset(self):
        self.it.reset()

    def next(self):
        b = self.it.next()
        return mx.io.DataBatch(data=b.data, label=[b.label[0], (b.label[0] + 1) % 3], pad=b.pad, index=b.index)


class MultiAccuracy(mx.metric.EvalMetric):
    def __init__(self, num):
        self.num = num
        super(MultiAccuracy, self).__init__('multi-accuracy')

    def reset(self):
        self.num_inst = [0] * self.num
        self.sum_metric = [0.0] * self.num

    def update(self, labels, preds):
        mx.metric.check_label_shapes(labels, preds)
        for i in range(len(labels)):
            p = mx.nd.argmax_channel(preds[i]).asnumpy().astype('int32')
            l = labels[i].asnumpy().astype('int32')
            self.sum_metric[i] += (p.flat == l.flat).sum()
            self.num_inst[i] += len(p.flat)

    def get(self):
        return zip(*(('%s-task%d' % (self.name, i), float('nan') if self.num_inst[i] == 0
                      else self.sum_metric[i] / self.num_inst[i]) for i in range(self.num)))

    def get_name_value(self):
        name, value = self.get()
        return list(zip(name, value))


train = MultiIter(mx.io.NDArrayIter(X, Y, batch_size=5))
mod = mx.mod.Module(net, label_names=('softmax1_label', 'softmax2_label'), context=mx.cpu())
mod.fit(train, eval_data=MultiIter(mx.io.NDArrayIter(X[:5], Y[:5], batch_size=5)), eval_metric=MultiAccuracy(2),
        optimizer='sgd', optimizer_params={'learning_rate': 0.2, 'momentum': 0.9, 'wd': 0.00001},
        initializer=Wave(), num_epoch=2, batch_end_callback=mx.callback.Speedometer(5, 1))
print(mod.output_shapes, [r(o[:2], 3) for o in mod.get_outputs()])

print('--- weighted logistic regression CustomOp beside LogisticRegressionOutput')


class WeightedLogisticRegression(mx.operator.CustomOp):
    def __init__(self, pos_grad_scale, neg_grad_scale):
        self.pos_grad_scale = float(pos_grad_scale)
        self.neg_grad_scale = float(neg_grad_scale)

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], mx.nd.divide(1, (1 + mx.nd.exp(- in_data[0]))))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        in_grad[0][:] = ((out_data[0] - 1) * in_data[1] * self.pos_grad_scale
                         + out_data[0] * (1 - in_data[1]) * self.neg_grad_scale) / out_data[0].shape[1]


@mx.operator.register('weighted_logistic_regression')
class WeightedLogisticRegressionProp(mx.operator.CustomOpProp):
    def __init__(self, pos_grad_scale, neg_grad_scale):
        self.pos_grad_scale = pos_grad_scale
        self.neg_grad_scale = neg_grad_scale
        super(WeightedLogisticRegressionProp, self).__init__(False)

    def list_arguments(self):
        return ['data', 'label']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shape):
        shape = in_shape[0]
        return [shape, shape], [shape]

    def create_operator(self, ctx, shapes, dtypes):
        return WeightedLogisticRegression(self.pos_grad_scale, self.neg_grad_scale)


m, n = 2, 3
data = mx.sym.Variable('data')
wlr = mx.sym.Custom(data, pos_grad_scale=1, neg_grad_scale=0.1, name='wlr', op_type='weighted_logistic_regression')
lr = mx.sym.LogisticRegressionOutput(data, name='lr')
print(wlr.list_arguments(), lr.list_arguments(), wlr.list_attr())
exe1 = wlr.simple_bind(ctx=mx.cpu(), data=(2 * m, n))
exe2 = lr.simple_bind(ctx=mx.cpu(), data=(2 * m, n))
values = np.linspace(-1, 1, 2 * m * n).reshape(2 * m, n)
exe1.arg_dict['data'][:] = values
exe2.arg_dict['data'][:] = values
exe1.arg_dict['wlr_label'][:] = np.vstack([np.ones([m, n]), np.zeros([m, n])])
exe2.arg_dict['lr_label'][:] = np.vstack([np.ones([m, n]), np.zeros([m, n])])
exe1.forward(is_train=True)
exe2.forward(is_train=True)
print(r(exe1.outputs[0]), r(exe2.outputs[0]))
exe1.backward()
exe2.backward()
print(r(exe1.grad_dict['data']))
print(r(exe2.grad_dict['data']))
print(sorted(exe1.grad_dict), exe1.grad_dict['wlr_label'] is not None)
