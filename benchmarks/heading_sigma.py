#!/usr/bin/env python3
"""heading_sigma.py - how honest `heading_sigma_deg` is against a truth.

    heading_sigma.py --truth T.truth.csv[.gz] --poses P.csv [--name NAME] [--json] [--pool FILE]
    heading_sigma.py --pooled FILE [--name NAME]

Each truth row with movement == 1 and a quaternion is matched to the pose row nearest in time
(within half a truth period, as pose_eval.py scores); its heading error is BROAD's
(2·atan(|e_z/e_w|) of e = q_pose ⊗ q_truth⁻¹, degrees). Prints one line: the rows scored, the
share whose error is within 1σ and 2σ of the row's `heading_sigma_deg`, the median σ and error,
and the verdict: "pass" (55–85 % within 1σ and ≥ 90 % within 2σ), "FAIL: overconfident" (fewer
within 2σ: the bound claims more than the pose holds), "FAIL: overconfident (1σ)" (under 55 %
within 1σ), "FAIL: underconfident" (over 85 % within 1σ).
`--pool FILE` also appends the row's bounds and errors to FILE; `--pooled FILE` prints the row
of all the rows there together, then how many of the trials pooled passed. Needs numpy.
"""
import argparse
import gzip
import io
import json
import math
import sys

import numpy as np


def open_text(path):
    if path.endswith('.gz'):
        return io.TextIOWrapper(gzip.open(path, 'rb'), encoding='utf-8')
    return open(path, 'r', encoding='utf-8')


def read_columns(path, wanted):
    """The named columns of a CSV with a header (`#` lines are comments), as float arrays."""
    with open_text(path) as f:
        header = None
        rows = []
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.rstrip('\r\n').split(',')
            if header is None:
                header = [p.strip() for p in parts]
                missing = [c for c in wanted if c not in header]
                if missing:
                    sys.exit('%s: no column %s (header: %s)' % (path, ', '.join(missing), ','.join(header)))
                idx = [header.index(c) for c in wanted]
                continue
            rows.append([float(parts[i]) if i < len(parts) and parts[i].strip() else math.nan for i in idx])
    a = np.array(rows, float).reshape(-1, len(wanted))
    return {c: a[:, k] for k, c in enumerate(wanted)}


def heading_errors(qe, qt):
    """BROAD's heading error, degrees, of estimates qe against truths qt (N×4, w x y z)."""
    w1, x1, y1, z1 = qe.T
    w2, x2, y2, z2 = qt[:, 0], -qt[:, 1], -qt[:, 2], -qt[:, 3]
    w = w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2
    z = w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2
    return np.degrees(2 * np.arctan(np.abs(z / w)))


def score(truth_path, poses_path):
    t = read_columns(truth_path, ['time', 'qw', 'qx', 'qy', 'qz', 'movement'])
    p = read_columns(poses_path, ['time', 'qw', 'qx', 'qy', 'qz', 'heading_sigma_deg'])
    keep = (t['movement'] == 1) & np.isfinite(t['qw'])
    tt = t['time'][keep]
    qt = np.stack([t[c][keep] for c in ('qw', 'qx', 'qy', 'qz')], axis=1)
    period = np.median(np.diff(t['time'])) if len(t['time']) > 1 else 0.01
    pt = p['time']
    j = np.clip(np.searchsorted(pt, tt), 1, len(pt) - 1)
    j = np.where(np.abs(pt[j - 1] - tt) <= np.abs(pt[j] - tt), j - 1, j)
    near = (np.abs(pt[j] - tt) <= period / 2) & np.isfinite(p['heading_sigma_deg'][j])
    j = j[near]
    qe = np.stack([p[c][j] for c in ('qw', 'qx', 'qy', 'qz')], axis=1)
    err = heading_errors(qe, qt[near])
    sigma = p['heading_sigma_deg'][j]
    if len(err) == 0:
        return {'rows': 0}
    r = summary(sigma, err)
    r.update(sigma=sigma, error=err)
    return r


def summary(sigma, err):
    """The score of rows with bounds `sigma` and errors `err` (numpy arrays)."""
    within1 = float(np.mean(err <= sigma))
    within2 = float(np.mean(err <= 2 * sigma))
    verdict = 'pass'
    if within2 < 0.9:
        verdict = 'FAIL: overconfident'
    elif within1 < 0.55:
        verdict = 'FAIL: overconfident (1σ)'
    elif within1 > 0.85:
        verdict = 'FAIL: underconfident'
    return {'rows': int(len(err)), 'within_1sigma': within1, 'within_2sigma': within2,
            'median_sigma_deg': float(np.median(sigma)), 'median_error_deg': float(np.median(err)),
            'rmse_deg': float(np.sqrt(np.mean(err ** 2))), 'verdict': verdict}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--truth')
    ap.add_argument('--poses')
    ap.add_argument('--name', default='')
    ap.add_argument('--json', action='store_true')
    ap.add_argument('--pool', help='append the rows\' bounds and errors to this file')
    ap.add_argument('--pooled', help='score the rows appended to this file together')
    a = ap.parse_args()
    if a.pooled:
        sig, err = [], []
        with open(a.pooled) as f:
            for line in f:
                s, e = line.split()
                sig.append(float(s)); err.append(float(e))
        r = summary(np.array(sig), np.array(err)) if sig else {'rows': 0}
        try:
            with open(a.pooled + '.verdicts') as f:
                verdicts = [line.rstrip('\n').split('\t', 1) for line in f if line.strip()]
        except FileNotFoundError:
            verdicts = []
        failed = [name for v, name in verdicts if v != 'pass']
        r['trials'] = len(verdicts)
        r['trials_passed'] = len(verdicts) - len(failed)
        r['trials_failed'] = failed
    else:
        if not a.truth or not a.poses:
            ap.error('give --truth and --poses, or --pooled')
        r = score(a.truth, a.poses)
    if a.pool and r['rows']:
        with open(a.pool, 'a') as f:
            for s, e in zip(r['sigma'], r['error']):
                f.write('%.3f %.4f\n' % (s, e))
        with open(a.pool + '.verdicts', 'a') as f:
            f.write('%s\t%s\n' % (r['verdict'], a.name))
    r.pop('sigma', None); r.pop('error', None)
    r['name'] = a.name
    if a.json:
        print(json.dumps(r))
    elif r['rows'] == 0:
        print('| %s | 0 | – | – | – | – | no scored rows |' % a.name)
    else:
        print('| %s | %d | %.1f %% | %.1f %% | %.2f | %.2f | %s |' % (
            a.name, r['rows'], 100 * r['within_1sigma'], 100 * r['within_2sigma'],
            r['median_sigma_deg'], r['median_error_deg'], r['verdict']))
    if a.pooled and not a.json and r.get('trials'):
        print()
        print('%d of %d trials pass%s' % (r['trials_passed'], r['trials'],
                                         (' (failing: %s)' % ', '.join(r['trials_failed'])) if r['trials_failed'] else ''))


if __name__ == '__main__':
    main()
