"""Every notebook in notebooks/ runs top to bottom (short settings: GLUONJAX_QUICK=1), offline."""
import os
import pathlib

import pytest

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parent.parent / 'notebooks').glob('*.ipynb'))


@pytest.mark.parametrize('path', NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    nb = nbformat.read(str(path), as_version=4)
    env = dict(os.environ, GLUONJAX_QUICK='1')
    old = dict(os.environ)
    os.environ.update(env)
    try:
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name='python3',
                                         resources={'metadata': {'path': str(tmp_path)}})
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    errors = [o for c in nb.cells if c.cell_type == 'code' for o in c.get('outputs', [])
              if o.get('output_type') == 'error']
    assert not errors
