#!/usr/bin/env python3
"""Checks that k8s/base matches the Helm chart's defaults.

    python3 k8s/check-sync.py                      # runs helm template and kubectl kustomize
    python3 k8s/check-sync.py chart.yaml base.yaml # or compares two renders you made

The chart is rendered as release "wordcut" in namespace "wordcut" with
secrets.existingSecret=wordcut-secrets (the Secret the base expects). Helm-only metadata
(chart/version labels, hook and checksum annotations), the ConfigMap's hash suffix and the Job's
ttlSecondsAfterFinished are ignored. Needs PyYAML. Exit 1 and a diff on any difference.
"""
import difflib
import json
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def render_chart():
    return subprocess.run(
        ['helm', 'template', 'wordcut', os.path.join(ROOT, 'helm/wordcut'), '--namespace', 'wordcut',
         '--set', 'secrets.existingSecret=wordcut-secrets'],
        check=True, capture_output=True, text=True).stdout


def render_base():
    return subprocess.run(['kubectl', 'kustomize', os.path.join(ROOT, 'k8s/base')],
                          check=True, capture_output=True, text=True).stdout


def normalise(text):
    objects = {}
    configmaps = {}
    for d in yaml.safe_load_all(text):
        if not d or d['kind'] == 'Namespace':
            continue
        md = d['metadata']
        md.pop('namespace', None)
        for k in ('helm.sh/chart', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/version'):
            md.get('labels', {}).pop(k, None)
        ann = {k: v for k, v in md.get('annotations', {}).items() if not k.startswith('helm.sh/')}
        md.pop('annotations', None)
        if ann:
            md['annotations'] = ann
        tmd = d.get('spec', {}).get('template', {}).get('metadata')
        if tmd is not None:
            tann = {k: v for k, v in tmd.get('annotations', {}).items() if not k.startswith('checksum/')}
            tmd.pop('annotations', None)
            if tann:
                tmd['annotations'] = tann
        if d['kind'] == 'Job':
            d['spec'].pop('ttlSecondsAfterFinished', None)
        if d['kind'] == 'ConfigMap' and md['name'].startswith('wordcut-config'):
            configmaps[md['name']] = 'wordcut-config'
            md['name'] = 'wordcut-config'
        objects[(d['kind'], md['name'])] = d
    dumped = json.dumps({f'{k[0]}/{k[1]}': v for k, v in objects.items()}, sort_keys=True, indent=1)
    for hashed, plain in configmaps.items():
        dumped = dumped.replace(f'"{hashed}"', f'"{plain}"')
    return json.loads(dumped)


def main():
    if len(sys.argv) == 3:
        chart, base = (open(p).read() for p in sys.argv[1:])
    else:
        chart, base = render_chart(), render_base()
    a, b = normalise(chart), normalise(base)
    status = 0
    for key in sorted(set(a) | set(b)):
        if key not in b:
            print(f'only in the chart: {key}')
            status = 1
        elif key not in a:
            print(f'only in k8s/base: {key}')
            status = 1
        elif a[key] != b[key]:
            status = 1
            print(f'differs: {key}')
            left = json.dumps(a[key], sort_keys=True, indent=1).splitlines()
            right = json.dumps(b[key], sort_keys=True, indent=1).splitlines()
            print('\n'.join(difflib.unified_diff(left, right, 'chart', 'k8s/base', lineterm='')))
    print('k8s/base matches the chart defaults' if status == 0 else 'k8s/base and the chart differ')
    return status


if __name__ == '__main__':
    sys.exit(main())
