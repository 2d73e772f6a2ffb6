"""Every notebook in notebooks/ runs top to bottom (short settings: GLUONJAX_QUICK=1), offline.

The notebooks are written by notebooks/_make.py; the committed files must be what it writes
(no outputs), so that a review of the generator is a review of the notebooks.
"""
import os
import pathlib
import runpy

import pytest

NOTEBOOK_DIR = pathlib.Path(__file__).resolve().parent.parent / 'notebooks'
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob('*.ipynb'))


def test_the_five_notebooks_exist():
    assert [p.name for p in NOTEBOOKS] == ['01_kvstore.ipynb', '02_visualization.ipynb',
                                           '03_gluon_mnist.ipynb', '04_hybridize_export.ipynb',
                                           '05_multi_device.ipynb']


def test_notebooks_are_the_generators_output_without_outputs():
    nbformat = pytest.importorskip('nbformat')
    make = runpy.run_path(str(NOTEBOOK_DIR / '_make.py'))
    assert sorted(make['NOTEBOOKS']) == [p.name for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        on_disk = nbformat.read(str(path), as_version=4)
        built = make['build'](make['NOTEBOOKS'][path.name])
        assert [(c.cell_type, c.source) for c in on_disk.cells] == \
            [(c.cell_type, c.source) for c in built.cells], \
            '%s differs from notebooks/_make.py: run python notebooks/_make.py' % path.name
        for cell in on_disk.cells:
            if cell.cell_type == 'code':
                assert not cell.outputs and cell.execution_count is None, path.name


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
