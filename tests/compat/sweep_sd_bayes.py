"""The Straight Dope, chapter 18 (Bayes by backprop): the variational MLP from scratch (Gaussian and
scale-mixture priors, softplus standard deviations, the combined loss, Adam by hand) with fixed
draws in place of the epsilons, and the Gluon version's BayesDense (a Dense subclass adding Parameters
and calling Dense's hybrid_forward with sampled weights) in a BayesSequential."""
import numpy as np
import mxnet as mx
from mxnet import nd, autograd, gluon
from _sd_common import pat, fill, r, show, attempt

ctx = mx.cpu()
config = {'num_hidden_layers': 1, 'num_hidden_units': 8, 'batch_size': 4, 'epochs': 1,
          'learning_rate': 0.01, 'num_samples': 1, 'pi': 0.25, 'sigma_p': 1.0, 'sigma_p1': 0.75,
          'sigma_p2': 0.01}
num_inputs, num_outputs = 6, 3
X = pat((8, num_inputs), 0, 1.0)
Y = nd.array(np.arange(8) % 3)
train_data = gluon.data.DataLoader(gluon.data.ArrayDataset(X, Y), config['batch_size'], shuffle=False)
num_train = sum([config['batch_size'] for i in train_data])
num_batches = num_train / config['batch_size']
print(num_train, num_batches)

print('== from scratch')


def relu(X):
    return nd.maximum(X, nd.zeros_like(X))


def net(X, layer_params):
    layer_input = X
    for i in range(len(layer_params) // 2 - 2):
        h_linear = nd.dot(layer_input, layer_params[2 * i]) + layer_params[2 * i + 1]
        layer_input = relu(h_linear)
    h_linear = nd.dot(layer_input, layer_params[-4]) + layer_params[-3]
    layer_input = relu(h_linear)
    output = nd.dot(layer_input, layer_params[-2]) + layer_params[-1]
    return output


def log_softmax_likelihood(yhat_linear, y):
    return nd.nansum(y * nd.log_softmax(yhat_linear), axis=0, exclude=True)


LOG2PI = np.log(2.0 * np.pi)


def log_gaussian(x, mu, sigma):
    return -0.5 * LOG2PI - nd.log(sigma) - (x - mu) ** 2 / (2 * sigma ** 2)


def gaussian_prior(x):
    sigma_p = nd.array([config['sigma_p']], ctx=ctx)
    return nd.sum(log_gaussian(x, 0., sigma_p))


def gaussian(x, mu, sigma):
    scaling = 1.0 / nd.sqrt(2.0 * np.pi * (sigma ** 2))
    bell = nd.exp(- (x - mu) ** 2 / (2.0 * sigma ** 2))
    return scaling * bell


def scale_mixture_prior(x):
    sigma_p1 = nd.array([config['sigma_p1']], ctx=ctx)
    sigma_p2 = nd.array([config['sigma_p2']], ctx=ctx)
    pi = config['pi']
    first_gaussian = pi * gaussian(x, 0., sigma_p1)
    second_gaussian = (1 - pi) * gaussian(x, 0., sigma_p2)
    return nd.log(first_gaussian + second_gaussian)


print(r(gaussian_prior(nd.array([0.5, -1.0]))), r(scale_mixture_prior(nd.array([0.5, -1.0, 0.001]))))
print(r(log_gaussian(nd.array([1.0]), 0.5, nd.array([2.0]))), r(gaussian(nd.array([0.0]), 0., nd.array([1.0]))))


def combined_loss(output, label_one_hot, params, mus, sigmas, log_prior, log_likelihood):
    log_likelihood_sum = nd.sum(log_likelihood(output, label_one_hot))
    log_prior_sum = sum([nd.sum(log_prior(param)) for param in params])
    log_var_posterior_sum = sum([nd.sum(log_gaussian(params[i], mus[i], sigmas[i])) for i in range(len(params))])
    return 1.0 / num_batches * (log_var_posterior_sum - log_prior_sum) - log_likelihood_sum


num_layers = config['num_hidden_layers']
num_hidden = config['num_hidden_units']
layer_param_shapes = []
for i in range(num_layers + 1):
    if i == 0:
        W_shape = (num_inputs, num_hidden)
        b_shape = (num_hidden,)
    elif i == num_layers:
        W_shape = (num_hidden, num_outputs)
        b_shape = (num_outputs,)
    else:
        W_shape = (num_hidden, num_hidden)
        b_shape = (num_hidden,)
    layer_param_shapes.extend([W_shape, b_shape])
print(layer_param_shapes)
weight_scale = .1
rho_offset = -3
mus = []
rhos = []
for k, shape in enumerate(layer_param_shapes):
    mu = pat(shape, k, weight_scale)
    rho = rho_offset + pat(shape, k + 20, weight_scale)
    mus.append(mu)
    rhos.append(rho)
variational_params = mus + rhos
for param in variational_params:
    param.attach_grad()


def sample_epsilons(param_shapes, seed):
    # the chapter draws nd.random_normal(shape=shape, loc=0., scale=1.0); fixed draws here
    return [pat(shape, seed + k, 1.0) for k, shape in enumerate(param_shapes)]


def softplus(x):
    return nd.log(1. + nd.exp(x))


def transform_rhos(rhos):
    return [softplus(rho) for rho in rhos]


def transform_gaussian_samples(mus, sigmas, epsilons):
    samples = []
    for j in range(len(mus)):
        samples.append(mus[j] + sigmas[j] * epsilons[j])
    return samples


def adam(params, vs, sqrs, lr, batch_size, t):
    beta1 = 0.9
    beta2 = 0.999
    eps_stable = 1e-8
    for param, v, sqr in zip(params, vs, sqrs):
        g = param.grad / batch_size
        v[:] = beta1 * v + (1. - beta1) * g
        sqr[:] = beta2 * sqr + (1. - beta2) * nd.square(g)
        v_bias_corr = v / (1. - beta1 ** t)
        sqr_bias_corr = sqr / (1. - beta2 ** t)
        div = lr * v_bias_corr / (nd.sqrt(sqr_bias_corr) + eps_stable)
        param[:] = param - div


def evaluate_accuracy(data_iterator, net, layer_params):
    numerator = 0.
    denominator = 0.
    for i, (data, label) in enumerate(data_iterator):
        output = net(data, layer_params)
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


vs = [nd.zeros_like(p) for p in variational_params]
sqrs = [nd.zeros_like(p) for p in variational_params]
t = 1
for e in range(config['epochs']):
    for i, (data, label) in enumerate(train_data):
        label_one_hot = nd.one_hot(label, num_outputs)
        with autograd.record():
            epsilons = sample_epsilons(layer_param_shapes, 7 * t)
            sigmas = transform_rhos(rhos)
            layer_params = transform_gaussian_samples(mus, sigmas, epsilons)
            output = net(data, layer_params)
            loss = combined_loss(output, label_one_hot, layer_params, mus, sigmas, gaussian_prior,
                                 log_softmax_likelihood)
        loss.backward()
        adam(variational_params, vs, sqrs, config['learning_rate'], config['batch_size'], t)
        t += 1
        curr_loss = nd.mean(loss).asscalar()
        moving_loss = curr_loss if (i == 0 and e == 0) else .99 * moving_loss + .01 * curr_loss
    acc = evaluate_accuracy(train_data, net, mus)
    print('Epoch %s. Loss: %.2f, Train_acc %.4f' % (e, moving_loss, acc))
print(r(sigmas[0][0]), r(mus[-1]))
mus_all = nd.concat(*[m.reshape((-1,)) for m in mus], dim=0)
sigmas_all = nd.concat(*[s.reshape((-1,)) for s in transform_rhos(rhos)], dim=0)
snr = (nd.abs(mus_all) / sigmas_all).asnumpy()
print(mus_all.shape, np.round(np.sort(snr)[:3], 3).tolist(), round(float(np.median(snr)), 3))
with autograd.record():
    loss = combined_loss(net(X[:4], mus), nd.one_hot(Y[:4], 3), mus, mus, transform_rhos(rhos),
                         scale_mixture_prior, log_softmax_likelihood)
loss.backward()
print(r(loss), r(nd.sum(rhos[0].grad)))

print('== with gluon')


class BayesDense(gluon.nn.Dense):
    def __init__(self, *args, weight_std_initializer=None, bias_std_initializer='zeros', **kwargs):
        super(BayesDense, self).__init__(*args, **kwargs)
        with self.name_scope():
            self.weight_std = self.params.get('weight_std', shape=(self._units, self._in_units),
                                              init=weight_std_initializer, allow_deferred_init=True)
            if self.bias is not None:
                self.bias_std = self.params.get('bias_std', shape=(self._units,), init=bias_std_initializer,
                                                allow_deferred_init=True)
            else:
                self.bias_std = None
        self.noise_scale = 1.0

    def _soft_add(self, F, x):
        return F.sqrt(x ** 2 + 1e-5)

    def get_shapes(self, weight_std, bias_std):
        if not hasattr(weight_std, 'shape'):
            r_shape = (self._units, self._in_units)
        else:
            r_shape = self.weight_std.shape
        return r_shape, (self._units,)

    def noise(self, F, shape):
        # the chapter draws F.random_normal(shape=shape); a fixed pattern here
        return F.sin(F.arange(int(np.prod(shape))).reshape(shape) * 0.37) * self.noise_scale

    def bayes_loss(self, F, weight_std, bias_std=None, **kwargs):
        rw_shape, rb_shape = self.get_shapes(weight_std, bias_std)
        loss = F.sum(F.log(self._soft_add(F, weight_std)) +
                     self.noise(F, rw_shape) ** 2 / (2.0 * self._soft_add(F, weight_std) ** 2))
        if bias_std is not None:
            loss = loss + F.sum(F.log(self._soft_add(F, bias_std)) +
                                self.noise(F, rb_shape) / (2.0 * self._soft_add(F, bias_std) ** 2))
        return loss

    def hybrid_forward(self, F, x, weight, weight_std, bias=None, bias_std=None):
        rw_shape, rb_shape = self.get_shapes(self.weight_std, self.bias_std)
        w = weight + self.noise(F, rw_shape) * self._soft_add(F, weight_std)
        if bias is not None:
            b = bias + self.noise(F, rb_shape) * self._soft_add(F, bias_std)
        else:
            b = None
        return super(BayesDense, self).hybrid_forward(F, x, weight=w, bias=b)


class BayesSequential(gluon.nn.HybridSequential):
    def bayes_loss(self, F, **kwargs):
        def params(child):
            if F is mx.ndarray:
                return {i: j.data() for i, j in child._reg_params.items()}
            elif F is mx.symbol:
                return {i: j.var() for i, j in child._reg_params.items()}
            else:
                return {}
        return sum(c.bayes_loss(F, **params(c), **kwargs) if type(c) == BayesDense else 0.0
                   for c in self._children.values())


class BayesSoftmaxCrossEntropyLoss(gluon.loss.SoftmaxCrossEntropyLoss):
    def __init__(self, bayes_net, *args, prior_scale=1, **kwargs):
        assert hasattr(bayes_net, 'bayes_loss')
        super(BayesSoftmaxCrossEntropyLoss, self).__init__(*args, **kwargs)
        self.prior_scale = prior_scale
        with self.name_scope():
            self.bayes_net = bayes_net

    def hybrid_forward(self, F, *args, **kwargs):
        return (super(BayesSoftmaxCrossEntropyLoss, self).hybrid_forward(F, *args, **kwargs) +
                self.prior_scale * self.bayes_net.bayes_loss(F))


print(type(BayesSequential()._children).__name__)
net = BayesSequential()
with net.name_scope():
    for i in range(num_layers):
        net.add(BayesDense(num_hidden, activation='relu', in_units=num_inputs if i == 0 else num_hidden,
                           weight_std_initializer=mx.init.Constant(0.05)))
    net.add(BayesDense(num_outputs, in_units=num_hidden, weight_std_initializer=mx.init.Constant(0.05)))
net.collect_params().initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
print(net)
print(sorted(net.collect_params().keys()))
print([(k, v.shape) for k, v in sorted(net[0]._reg_params.items())])
fill(net.collect_params(), 0.2)
print(r(net(X[:2])))
for c in net._children.values():
    c.noise_scale = 0.0
print(r(net(X[:2])))
for c in net._children.values():
    c.noise_scale = 1.0
softmax_cross_entropy = BayesSoftmaxCrossEntropyLoss(net, prior_scale=1.0 / num_batches)
print(softmax_cross_entropy)
print(r(softmax_cross_entropy(net(X[:4]), Y[:4])))
trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': config['learning_rate']})


def evaluate_accuracy(data_iterator, net, samples=2):
    numerator = 0.
    denominator = 0.
    for i, (data, label) in enumerate(data_iterator):
        output = sum(net(data) for i in range(samples)) / samples
        predictions = nd.argmax(output, axis=1)
        numerator += nd.sum(predictions == label)
        denominator += data.shape[0]
    return (numerator / denominator).asscalar()


for e in range(config['epochs']):
    for i, (data, label) in enumerate(train_data):
        with autograd.record():
            output = net(data)
            loss = softmax_cross_entropy(output, label)
            loss.backward()
        trainer.step(data.shape[0])
        curr_loss = nd.mean(loss).asscalar()
        moving_loss = curr_loss if (i == 0 and e == 0) else (1 - .01) * moving_loss + .01 * curr_loss
    print('Epoch %s. Loss: %.6g, Train_acc %.4f' % (e, moving_loss, evaluate_accuracy(train_data, net)))
mu = list(net._children.values())[0].weight.data().asnumpy().flatten()[0]
var = list(net._children.values())[0].weight_std.data().asnumpy().flatten()[0]
print(round(float(mu), 4), round(float(var), 4))
net.hybridize()
print(r(net(X[:2])), r(softmax_cross_entropy(net(X[:4]), Y[:4])))
attempt(lambda: net._children[0])
