"""The one atomic file writer: all or nothing, no temporary left behind."""
import os
import stat

import pytest

import gluonjax as mx
from gluonjax import _files


def test_atomic_write_replaces_the_file(tmp_path):
    path = tmp_path / 'f.json'
    path.write_text('old')
    _files.atomic_write(str(path), 'new')
    assert path.read_text() == 'new'
    assert os.listdir(tmp_path) == ['f.json']


def test_failure_keeps_the_old_file_and_removes_the_temporary(tmp_path):
    path = tmp_path / 'f.bin'
    path.write_bytes(b'old')
    with pytest.raises(RuntimeError):
        with _files.atomic_open(str(path), 'wb') as f:
            f.write(b'half')
            raise RuntimeError('disk full')
    assert path.read_bytes() == b'old'
    assert os.listdir(tmp_path) == ['f.bin']


def test_new_file_gets_the_permissions_open_would_give(tmp_path):
    path = tmp_path / 'p.bin'
    _files.atomic_write(str(path), b'x')
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~mask


def test_params_save_goes_through_it(tmp_path, monkeypatch):
    path = str(tmp_path / 'a.params')
    mx.nd.save(path, {'w': mx.nd.ones((2,))})

    def fail(*args):
        raise OSError('rename failed')
    monkeypatch.setattr(_files.os, 'replace', fail)
    with pytest.raises(OSError):
        mx.nd.save(path, {'w': mx.nd.zeros((2,))})
    assert mx.nd.load(path)['w'].asnumpy().tolist() == [1, 1]
    assert os.listdir(tmp_path) == ['a.params']
