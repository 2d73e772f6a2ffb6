#!/usr/bin/env python3
"""Turns the junit files run.sh writes into docs/CONFORMANCE.md, against MXNet 1.9.1's own results.

usage: report.py OUT [--doc docs/CONFORMANCE.md] [--baseline SHARED/conformance/baseline]
                     [--update-expected tests/conformance/expected_pass.txt]

For each file run (OUT/gluonjax/<file>.xml, or its -v log when the file was killed): tests collected
(by MXNet), passing under MXNet, passing under gluonjax, and every test that passes under MXNet but
not here, with its reason (the exception type and the first line of its message, or 'timeout').
Files already in the document and not run this time keep their section. With --update-expected,
the passing ids of the files run are written into the expected-pass list (other files' lines kept).
"""
import argparse
import datetime
import os
import re
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

LOG_LINE = re.compile(r'^(\S+\.py)::(\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)')
EXC_LINE = re.compile(r'^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Failed|Interrupt|Warning|Timeout))\b:?\s*(.*)')


def reason(message, text):
    """'Type: first line of the message', or 'timeout'."""
    message, text = message or '', text or ''
    if 'Failed: Timeout' in message or '+++ Timeout' in text or message.startswith('Timeout'):
        return 'timeout'
    found = None
    for line in text.splitlines():
        if line.startswith('E '):
            m = EXC_LINE.match(line[1:].strip())
            if m and not (found and m.group(1) == found[0] and not m.group(2)):
                found = (m.group(1), m.group(2))
    if found is None:
        m = EXC_LINE.match(message.strip())
        if m:
            found = (m.group(1), m.group(2))
        elif message.strip().startswith('assert') or 'AssertionError' in text:
            found = ('AssertionError', message.strip())
        else:
            found = ('Error', message.strip())
    kind, msg = found
    if not msg:   # the message may continue on the next E line (multi-line messages)
        m = re.search(re.escape(kind) + r':?\s*\n((?:E\s.*\n?)+)', text)
        msg = ''
        if m:
            msg = next((l[1:].strip() for l in m.group(1).splitlines() if l[1:].strip()), '')
    line = msg.strip().splitlines()[0] if msg.strip() else ''
    line = re.sub(r'\s+', ' ', line)[:160].replace('|', '\\|')
    return '%s: %s' % (kind.split('.')[-1], line) if line else kind.split('.')[-1]


def read_results(folder, name):
    """{test id: (outcome, reason)}, collection error text or None; None when the file was not run."""
    xml, log = os.path.join(folder, name + '.xml'), os.path.join(folder, name + '.log')
    if not os.path.exists(xml) and not os.path.exists(log):
        return None, None
    res, coll = {}, None
    try:
        root = ET.parse(xml).getroot()
    except (OSError, ET.ParseError):
        root = None
    if root is not None:
        for tc in root.iter('testcase'):
            cls, tname = tc.get('classname', ''), tc.get('name', '')
            outcome, why = 'passed', ''
            for tag in ('failure', 'error', 'skipped'):
                el = tc.find(tag)
                if el is not None:
                    outcome = {'failure': 'failed', 'error': 'error', 'skipped': 'skipped'}[tag]
                    why = reason(el.get('message', ''), el.text or '')
                    break
            if not cls:      # a collection error is reported as a test without a class
                if outcome == 'error':
                    coll = why
                continue
            tid = '::'.join(cls.split('.')[1:] + [tname])
            res[tid] = (outcome, why)
    if not res and os.path.exists(log):           # killed before junit was written
        for line in open(log, errors='replace'):
            m = LOG_LINE.match(line)
            if m:
                st = m.group(3)
                res[m.group(2)] = ({'PASSED': 'passed', 'XPASS': 'passed', 'SKIPPED': 'skipped',
                                    'XFAIL': 'skipped'}.get(st, 'failed'), 'timeout (file killed)')
    if os.path.exists(log) and coll is None:
        txt = open(log, errors='replace').read()
        if 'error during collection' in txt or 'errors during collection' in txt:
            es = [l[1:].strip() for l in txt.splitlines() if l.startswith('E ')]
            coll = es[-1] if es else 'collection error'
    return res, coll


def file_section(name, mx_res, gj_res, coll):
    collected = len(mx_res)
    mpass = sorted(t for t, (o, _) in mx_res.items() if o == 'passed')
    gpass = {t for t, (o, _) in gj_res.items() if o == 'passed'}
    both = [t for t in mpass if t in gpass]
    lines = ['<!-- file: %s -->' % name, '### %s.py' % name, '',
             'collected %d, MXNet passes %d, gluonjax passes %d (%d of the MXNet-passing ones)' % (
                 collected, len(mpass), len(gpass & set(mx_res)), len(both)), '']
    gaps = [t for t in mpass if t not in gpass]
    if coll:
        lines += ['The file cannot be imported: `%s`' % coll.replace('`', "'")[:200], '']
    if gaps:
        for t in gaps:
            r = gj_res.get(t)
            why = r[1] if r else ('collection error' if coll else 'not run')
            if r and r[0] == 'skipped':
                why = 'skipped: ' + why
            lines.append('- `%s`: %s' % (t, why or r[0]))
        lines.append('')
    lines.append('<!-- end: %s -->' % name)
    return '\n'.join(lines), (collected, len(mpass), len(gpass & set(mx_res)), len(both))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--doc', default=os.path.join(REPO, 'docs', 'CONFORMANCE.md'))
    ap.add_argument('--baseline', default=os.path.join(os.environ.get('SHARED', os.path.join(REPO, '..', 'shared')),
                                                       'conformance', 'baseline'))
    ap.add_argument('--update-expected', default=None)
    args = ap.parse_args()
    base = os.path.join(args.baseline, 'mxnet')
    if not os.path.isdir(base):
        sys.exit('report.py: no MXNet baseline at %s' % base)
    gj_dir = os.path.join(args.out, 'gluonjax')
    names = sorted(f[:-4] for f in os.listdir(gj_dir) if f.endswith('.log')) if os.path.isdir(gj_dir) else []
    sections, counts, passing = {}, {}, {}
    if os.path.exists(args.doc):   # keep the files not run this time
        old = open(args.doc).read()
        for m in re.finditer(r'<!-- file: (\S+) -->\n.*?<!-- end: \1 -->', old, re.S):
            sections[m.group(1)] = m.group(0)
            c = re.search(r'collected (\d+), MXNet passes (\d+), gluonjax passes (\d+) \((\d+) of', m.group(0))
            if c:
                counts[m.group(1)] = tuple(int(x) for x in c.groups())
    for name in names:
        mx_res, _ = read_results(base, name)
        gj_res, coll = read_results(gj_dir, name)
        if mx_res is None:
            print('report.py: %s has no MXNet baseline; skipped' % name, file=sys.stderr)
            continue
        sections[name], counts[name] = file_section(name, mx_res, gj_res or {}, coll)
        passing[name] = sorted(t for t, (o, _) in (gj_res or {}).items() if o == 'passed')
    order = sorted(sections)
    tot = [sum(counts[n][i] for n in order if n in counts) for i in range(4)]
    doc = ['# Conformance: MXNet 1.9.1\'s own unit tests on gluonjax', '',
           'MXNet 1.9.1\'s `tests/python/unittest` (read from `../shared/mxnet-tests`, unmodified) run with '
           '`import mxnet` resolved to gluonjax, compared with what passes under real MXNet 1.9.1 on CPU '
           '(`../shared/conformance/baseline`). Written by `./run conformance FILE...` (`./run conformance all` '
           'for every file); a file not run again keeps its section. `tests/test_conformance.py` runs the files '
           'listed in `tests/conformance/expected_pass.txt` (the CI subset) and fails if one of the tests '
           'recorded there no longer passes; `./run conformance --update-expected FILE...` records them again. '
           'Last update: %s.' % (
               datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')), '',
           '| file | collected | MXNet passes | gluonjax passes | both pass | MXNet-passing tests failing here |',
           '|---|---|---|---|---|---|']
    for n in order:
        if n in counts:
            c = counts[n]
            doc.append('| %s | %d | %d | %d | %d | %d |' % (n, c[0], c[1], c[2], c[3], c[1] - c[3]))
    doc.append('| **total** | %d | %d | %d | %d | %d |' % (tot[0], tot[1], tot[2], tot[3], tot[1] - tot[3]))
    doc += ['', 'Below, per file, each test that passes under MXNet and not under gluonjax, with the exception '
            'type and the first line of its message (or timeout).', '']
    for n in order:
        doc += [sections[n], '']
    with open(args.doc, 'w') as f:
        f.write('\n'.join(doc).rstrip() + '\n')
    print('wrote %s (%d files)' % (args.doc, len(order)))
    if args.update_expected:
        keep = []
        if os.path.exists(args.update_expected):
            keep = [l.rstrip('\n') for l in open(args.update_expected)
                    if l.strip() and (l.startswith('#') or l.split('::')[0] not in passing)]
        comments = [l for l in keep if l.startswith('#')]
        ids = [l for l in keep if not l.startswith('#')] + ['%s::%s' % (n, t) for n in passing for t in passing[n]]
        lines = comments + sorted(ids)
        with open(args.update_expected, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        print('wrote %s' % args.update_expected)


if __name__ == '__main__':
    main()
