"""What the model-zoo constructors share: the default store, loading pretrained weights."""
from ..model_store import DEFAULT_ROOT, get_model_file  # noqa: F401


def load_pretrained(net, name, root, ctx):
    """Load MXNet's pretrained weights for model ``name`` from ``root`` into ``net``."""
    net.load_parameters(get_model_file(name, root=root), ctx=ctx)
    return net


def relu(F, x):
    """ReLU in the current array mode (``F.npx.activation`` after ``npx.set_np()``)."""
    from ....numpy._state import is_np_array
    if is_np_array():
        return F.npx.activation(x, act_type='relu')
    return F.Activation(x, act_type='relu')
