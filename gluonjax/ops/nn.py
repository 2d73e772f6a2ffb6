"""Neural-network operators (MXNet's src/operator/nn): the families live in nn_*.py modules.

- nn_conv: FullyConnected, Convolution, Deconvolution
- nn_pool: Pooling
- nn_norm: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, L2Normalization, LRN
- nn_act: Activation, LeakyReLU, softmax / log_softmax / softmin, SoftmaxActivation, Dropout, Embedding
- nn_loss: SoftmaxOutput and the regression output layers, with MXNet's gradients
- nn_rnn: the fused RNN operator
"""
from . import nn_conv, nn_pool, nn_norm, nn_act, nn_loss, nn_rnn  # noqa: F401,E402
