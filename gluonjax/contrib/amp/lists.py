"""Which operators AMP runs in the low-precision dtype, which in float32 (MXNet 1.9.1's lists).

Names are MXNet's operator names (aliases included, as MXNet lists them); ``amp.py`` maps them
to gluonjax's table and ignores the ones gluonjax lacks. float16 lists the operators that must
stay float32; bfloat16 (MXNet's CPU target) instead lists the few that may run in bfloat16,
everything else running in float32.
"""

# Matrix products: the work mixed precision is for.
FP16_FUNCS = ('Convolution', 'Deconvolution', 'FullyConnected', 'RNN')
BF16_FUNCS = ('Convolution', 'FullyConnected')

# bfloat16: operators that run in whatever dtype they are given (not cast either way).
BF16_FP32_FUNCS = ('abs', '_add', 'BatchNorm', 'BatchNormWithReLU', 'clip', 'Concat', 'concat', 'LRN',
                   'Pooling', 'relu', 'shuffle', '_shuffle', 'sqrt', 'square', 'tanh')

# float16: operators that overflow or lose accuracy in half precision: exponentials and
# logarithms, reductions, softmax, normalizations, losses, linear algebra.
FP16_FP32_FUNCS = (
    'arccos', 'arcsin', 'cosh', 'erfinv', 'sinh', 'tan', 'arctanh', 'exp', 'expm1', 'log', 'log10', 'log2',
    'log1p', 'broadcast_power', 'square', 'reciprocal', 'rsqrt', 'rcbrt', 'broadcast_hypot', 'sum',
    'sum_axis', 'nansum', 'prod', 'nanprod', 'mean', 'norm', 'softmin', 'khatri_rao', 'moments', 'gamma',
    'gammaln', 'linalg_sumlogdiag', 'linalg_syrk', 'linalg_potrf', 'linalg_potri', 'linalg_gemm2',
    'linalg_gemm', 'linalg_gelqf', 'linalg_trmm', 'linalg_trsm', 'linalg_makediag', 'linalg_extractdiag',
    'linalg_maketrian', 'linalg_extracttrian', 'linalg_inverse', 'linalg_det', 'linalg_slogdet',
    'argsort', 'topk', 'SoftmaxOutput', 'softmax', 'Softmax', 'log_softmax', 'InstanceNorm', 'LayerNorm',
    'GroupNorm', 'L2Normalization', 'LRN', 'SoftmaxActivation', 'LinearRegressionOutput',
    'LogisticRegressionOutput', 'MAERegressionOutput', 'SVMOutput', 'softmax_cross_entropy', 'smooth_l1',
    'MakeLoss', 'make_loss', 'Custom', 'CTCLoss', 'ctc_loss', 'IdentityAttachKLSparseReg')

# Operators that run in float32 only for some values of a parameter: (name, parameter, values).
CONDITIONAL_FP32_FUNCS = (('Activation', 'act_type', ('softrelu',)), ('LeakyReLU', 'act_type', ('elu', 'selu')))

# Operators whose inputs must share one dtype: a low-precision input meeting a float32 one
# is cast up to float32.
WIDEST_TYPE_CASTS = (
    'elemwise_add', 'elemwise_sub', 'elemwise_mul', 'elemwise_div', 'broadcast_add', 'broadcast_plus',
    'broadcast_sub', 'broadcast_minus', 'broadcast_mul', 'broadcast_div', 'broadcast_mod',
    'broadcast_maximum', 'broadcast_minimum', 'broadcast_equal', 'broadcast_not_equal', 'broadcast_greater',
    'broadcast_greater_equal', 'broadcast_lesser', 'broadcast_lesser_equal', 'broadcast_logical_and',
    'broadcast_logical_or', 'broadcast_logical_xor', 'add_n', 'ElementWiseSum', 'Concat', 'concat',
    'stack', 'dot', 'batch_dot', 'where', 'Correlation', '_maximum', '_minimum', '_mod', '_equal',
    '_not_equal', '_greater', '_greater_equal', '_lesser', '_lesser_equal', '_logical_and',
    '_logical_or', '_logical_xor')

# Output layers whose gradient is set by grad_scale: AMP multiplies it by the loss scale.
LOSS_OUTPUT_FUNCTIONS = ('SoftmaxOutput', 'LinearRegressionOutput', 'LogisticRegressionOutput',
                         'MAERegressionOutput')
