"""``mx.contrib.io``: DataLoaderIter, a Gluon DataLoader as a DataIter for the Module API."""
from .. import ndarray as nd
from ..io import DataDesc, DataIter

__all__ = ['DataLoaderIter']


class DataLoaderIter(DataIter):
    """The (data, label) batches of a ``gluon.data.DataLoader`` as a DataIter.

    ``provide_data``/``provide_label`` come from the first batch; a last batch smaller than
    that is padded to the batch size (``getpad`` says by how many rows; the padding is zeros)
    and every batch is cast to ``dtype``.
    """

    def __init__(self, loader, data_name='data', label_name='softmax_label', dtype='float32'):
        super().__init__()
        self._loader = loader
        data, label = next(iter(loader))
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self._iter = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        self._current_batch = next(self._iter, None)
        return self._current_batch is not None

    def _padded(self, array):
        array = array.astype(self.dtype)
        if not self.getpad():
            return [array]
        full = nd.zeros((self.batch_size,) + tuple(array.shape[1:]), dtype=self.dtype)
        full[:array.shape[0]] = array
        return [full]

    def getdata(self):
        return self._padded(self._current_batch[0])

    def getlabel(self):
        return self._padded(self._current_batch[1])

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
