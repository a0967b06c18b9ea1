#!/usr/bin/env bash
# Checks the XQuAD languages kept apart from tuning the overlap rules (ar, el, hi, ro, ru, th,
# tr, vi; tests/languages_xquad.rs measures them when present) by size and sha256. They are not
# in the shared data and no package on the registries this machine reaches ships them: copy
# them from google-deepmind/xquad at commit 7d30520c (CC BY-SA 4.0; the same commit as the
# shared data's en, es, de, zh) into DIR, outside the checkout.
#
#   bash scripts/xquad-languages.sh [DIR]   (default: $RAGSYNTH_XQUAD_MORE or ~/.cache/ragsynth/data/xquad)
set -euo pipefail
dir="${1:-${RAGSYNTH_XQUAD_MORE:-$HOME/.cache/ragsynth/data/xquad}}"
status=0
while read -r sha size file; do
  path="$dir/$file"
  if [ ! -f "$path" ]; then
    echo "missing: $path ($size bytes)"; status=1; continue
  fi
  got_size=$(stat -c %s "$path")
  got_sha=$(sha256sum "$path" | cut -d' ' -f1)
  if [ "$got_size" != "$size" ] || [ "$got_sha" != "$sha" ]; then
    echo "wrong: $path (size $got_size, sha256 $got_sha; want $size, $sha)"; status=1
  else
    echo "ok: $file"
  fi
done <<'PINS'
abdabd7afed5c635d99cca0f3f0d0c9d9ed0bc77451e963c2e4e0638c29e486d 1582988 xquad.ar.json
821cf0f88e73fa258fd2f548b19b6ec39f7025059e16f6f9fc8cd797c9c3663e 1918889 xquad.el.json
df2cce3532b37e9beb8979704b5c9a4bf874358f105395a298b89427b43b9d24 1680538 xquad.hi.json
94f8d54e93ad2b7dd2e76dd921a666b5b8eff2d4379df9f179c42b445f09643f 661158 xquad.ro.json
208d5b1aa154c52b1b5c5eda16281e455e8fd198cdb9af3f469f0d6037d973bf 1896368 xquad.ru.json
5cdda11d0e1e075f7872abf4e6ae830388ce7f617964d542308e9ae4257e0f43 1809143 xquad.th.json
92179a564774b7696100d144c1e10870d0a966b6fccbdd254a65b9d2ab1971cc 729506 xquad.tr.json
f619a1eb11fb42d3ab0834259e488a65f585447ef6154437bfb7199d85161a04 911401 xquad.vi.json
PINS
exit $status
