#!/usr/bin/env python3
"""heading_sigma_cv.py - cross-validates the numbers of the heading's uncertainty model.

    heading_sigma_cv.py --poiar BIN [--dir DIR] [--grid NAME=V1,V2,...]... [--fold A,B,...]

Runs `poiar pose` (offline and `--causal`) on every BROAD trial in DIR (default
../shared/data/broad) once per combination of the `--grid` values (each a `headingSigma.NAME`
parameter; the model's defaults when none), and scores each trial's `heading_sigma_deg` as
heading_sigma.py does. The trials are split in two folds (`--fold` names the first, by the
trials' number prefixes; default every other trial in name order): the combination with the
least miss on one fold is chosen, and its per-trial coverage printed on the other, both ways.
A trial's miss is how far its share within 1σ lies outside 55–85 % plus three times how far its
share within 2σ lies under 90 % (an overconfident bound costs more than a cautious one).
Needs numpy.
"""
import argparse
import itertools
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import heading_sigma  # noqa: E402


def miss(r):
    w1, w2 = r['within_1sigma'], r['within_2sigma']
    return max(0.0, 0.55 - w1) + max(0.0, w1 - 0.85) + 3 * max(0.0, 0.90 - w2)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--poiar', required=True)
    ap.add_argument('--dir', default=os.path.join(here, '..', 'shared', 'data', 'broad'))
    ap.add_argument('--grid', action='append', default=[], help='NAME=V1,V2,... (a headingSigma parameter)')
    ap.add_argument('--fold', help='the first fold: trial number prefixes, comma-separated')
    a = ap.parse_args()
    trials = sorted(f[:-len('.csv.gz')] for f in os.listdir(a.dir)
                    if f.endswith('.csv.gz') and not f.endswith('.truth.csv.gz')
                    and os.path.exists(os.path.join(a.dir, f[:-len('.csv.gz')] + '.truth.csv.gz')))
    if len(trials) < 2:
        sys.exit('%s: fewer than two trials with a truth' % a.dir)
    if a.fold:
        first = [t for t in trials if t.split('_')[0] in a.fold.split(',')]
    else:
        first = trials[::2]
    second = [t for t in trials if t not in first]
    names, values = [], []
    for g in a.grid:
        if '=' not in g:
            sys.exit('--grid %s: expected NAME=V1,V2,...' % g)
        n, v = g.split('=', 1)
        names.append(n)
        values.append([float(x) for x in v.split(',')])
    combos = list(itertools.product(*values)) if names else [()]
    scores = {}  # (combo, trial, mode) -> score
    with tempfile.TemporaryDirectory() as work:
        for combo in combos:
            params = []
            for n, v in zip(names, combo):
                params += ['--param', 'headingSigma.%s=%g' % (n, v)]
            for t in trials:
                for mode in ('offline', 'causal'):
                    out = os.path.join(work, 'poses.csv')
                    cmd = [a.poiar, 'pose', os.path.join(a.dir, t + '.csv.gz'), '--out', out] + params
                    if mode == 'causal':
                        cmd.append('--causal')
                    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    r = heading_sigma.score(os.path.join(a.dir, t + '.truth.csv.gz'), out)
                    scores[(combo, t, mode)] = r
                    os.remove(out)

    def label(combo):
        return ', '.join('%s=%g' % nv for nv in zip(names, combo)) or 'the defaults'

    def fold_miss(combo, fold):
        return sum(miss(scores[(combo, t, m)]) for t in fold for m in ('offline', 'causal'))

    print('| combination | miss on %s | miss on %s |' % (', '.join(t.split('_')[0] for t in first),
                                                   ', '.join(t.split('_')[0] for t in second)))
    print('|---|---:|---:|')
    for c in combos:
        print('| %s | %.3f | %.3f |' % (label(c), fold_miss(c, first), fold_miss(c, second)))
    for fit, check in ((first, second), (second, first)):
        best = min(combos, key=lambda c: fold_miss(c, fit))
        print()
        print('Fitted on %s: %s (miss %.3f); checked on %s (miss %.3f):' % (
            ', '.join(t.split('_')[0] for t in fit), label(best), fold_miss(best, fit),
            ', '.join(t.split('_')[0] for t in check), fold_miss(best, check)))
        print()
        print('| trial | fold | offline 1σ / 2σ | causal 1σ / 2σ |')
        print('|---|---|---:|---:|')
        for t in trials:
            cells = []
            for m in ('offline', 'causal'):
                r = scores[(best, t, m)]
                cells.append('%.1f / %.1f %% %s' % (100 * r['within_1sigma'], 100 * r['within_2sigma'],
                                                    '' if r['verdict'] == 'pass' else '(%s)' % r['verdict']))
            print('| %s | %s | %s | %s |' % (t, 'fit' if t in fit else 'check', cells[0], cells[1]))


if __name__ == '__main__':
    main()
