"""Write expected/<name>.txt: the stdout of each compat script under real MXNet 1.9.1.

Run with the reference interpreter: /tmp/mxref/bin/python tests/compat/make_expected.py [names...]
"""
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main(names):
    scripts = sorted(p for p in HERE.glob('*.py') if p.name != 'make_expected.py' and not p.name.startswith('_'))
    if names:
        scripts = [p for p in scripts if p.stem in names]
    for script in scripts:
        done = subprocess.run([sys.executable, script.name], cwd=HERE, capture_output=True,
                              text=True, timeout=600)
        if done.returncode:
            sys.exit('%s failed under MXNet:\n%s' % (script.name, done.stderr[-3000:]))
        (HERE / 'expected' / (script.stem + '.txt')).write_text(done.stdout)
        print('wrote expected/%s.txt (%d lines)' % (script.stem, done.stdout.count('\n')))


if __name__ == '__main__':
    main(sys.argv[1:])
