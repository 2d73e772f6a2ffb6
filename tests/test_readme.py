"""Every Python block of the README runs (in a fresh interpreter, as a reader would run it)."""
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / 'README.md'
BLOCKS = re.findall(r'```python\n(.*?)```', README.read_text(), flags=re.S)


def test_readme_has_python_blocks():
    assert BLOCKS, 'the README should show runnable Python'


@pytest.mark.parametrize('index', range(len(BLOCKS)))
def test_readme_block_runs(index, tmp_path):
    script = tmp_path / ('block%d.py' % index)
    script.write_text(BLOCKS[index])
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert out.returncode == 0, 'README block %d failed:\n%s\n%s' % (index, BLOCKS[index], out.stderr[-3000:])
