"""``mx.runtime``: which of MXNet's build features this gluonjax process has.

MXNet reports the switches its C++ library was compiled with. gluonjax has no such build, so each
feature is reported for what this process can really do: CUDA (and cuDNN/NCCL, which XLA uses on
NVIDIA GPUs) only when jax sees a GPU; LAPACK (jax's linear algebra), the distributed KVStore and
int64 array sizes (x64 is on) and the profiler (``mx.profiler``) always; OPENCV (what ``mx.image``
decodes and resizes with in MXNet) when Pillow, which ``mx.image`` uses instead, is installed; the
CPU instruction sets from the processor's own flags. Features gluonjax lacks (MKLDNN, TensorRT, TVM
operators, ...) are listed, disabled, so ``is_enabled`` answers for every name MXNet knows.
"""
import collections
import os

__all__ = ['Feature', 'Features', 'feature_list']

# MXNet 1.9.1's feature names, in its order.
_NAMES = ('CUDA', 'CUDNN', 'NCCL', 'CUDA_RTC', 'TENSORRT', 'CPU_SSE', 'CPU_SSE2', 'CPU_SSE3', 'CPU_SSE4_1',
          'CPU_SSE4_2', 'CPU_SSE4A', 'CPU_AVX', 'CPU_AVX2', 'OPENMP', 'SSE', 'F16C', 'JEMALLOC', 'BLAS_OPEN',
          'BLAS_ATLAS', 'BLAS_MKL', 'BLAS_APPLE', 'LAPACK', 'MKLDNN', 'OPENCV', 'CAFFE', 'PROFILER',
          'DIST_KVSTORE', 'CXX14', 'INT64_TENSOR_SIZE', 'SIGNAL_HANDLER', 'DEBUG', 'TVM_OP')

# feature -> the /proc/cpuinfo flag that shows it
_CPU_FLAGS = {'CPU_SSE': 'sse', 'CPU_SSE2': 'sse2', 'CPU_SSE3': 'pni', 'CPU_SSE4_1': 'sse4_1',
              'CPU_SSE4_2': 'sse4_2', 'CPU_SSE4A': 'sse4a', 'CPU_AVX': 'avx', 'CPU_AVX2': 'avx2',
              'SSE': 'sse', 'F16C': 'f16c'}


def _cpu_flags():
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('flags'):
                    return set(line.split(':', 1)[1].split())
    except OSError:
        pass
    return set()


def _has_pillow():
    import importlib.util
    return importlib.util.find_spec('PIL') is not None


def _has_gpu():
    try:
        import jax
        return any(d.platform == 'gpu' for d in jax.devices())
    except RuntimeError:
        return False


class Feature:
    """One feature: ``name`` and whether it is ``enabled``."""

    def __init__(self, name, enabled):
        self.name = name
        self.enabled = bool(enabled)

    def __repr__(self):
        return ('\u2714 ' if self.enabled else '\u2716 ') + self.name


def feature_list():
    """Every feature MXNet names, each a :class:`Feature` saying whether gluonjax has it here."""
    gpu = _has_gpu()
    flags = _cpu_flags()
    on = {'CUDA': gpu, 'CUDNN': gpu, 'NCCL': gpu, 'LAPACK': True, 'DIST_KVSTORE': True, 'CXX14': True,
          'INT64_TENSOR_SIZE': True, 'PROFILER': True, 'OPENCV': _has_pillow()}
    for name, flag in _CPU_FLAGS.items():
        on[name] = flag in flags
    return [Feature(n, on.get(n, False)) for n in _NAMES]


class Features(collections.OrderedDict):
    """The features, by name (a singleton, as MXNet's): ``Features().is_enabled('CUDA')``."""
    instance = None

    def __new__(cls):
        if cls.instance is None:
            cls.instance = super().__new__(cls)
            super().__init__(cls.instance, [(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self):   # filled once, in __new__
        pass

    def __repr__(self):
        return str(list(self.values()))

    def is_enabled(self, feature_name):
        """Whether ``feature_name`` is enabled; RuntimeError for a name MXNet does not know."""
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError("Feature '{}' is unknown, known features are: {}".format(
                feature_name, list(self.keys())))
        return self[feature_name].enabled
