"""Writes data/sa-fragment-scores.bin.gz from RDKit Contrib's fpscores.pkl.gz, the fragment
contributions of the SA score (Ertl & Schuffenhauer, J. Cheminform. 2009, 1, 8; RDKit Contrib
SA_Score, BSD-3-Clause): 705,292 unhashed radius-2 Morgan ids, each with its score.

The pickle is a list of [score, id, id, ...] groups. The file written here holds the same pairs,
sorted by id, as little-endian binary inside gzip (mtime 0, so the bytes are reproducible):

    "SAFS1\\n"                      magic and format version (6 bytes)
    uint32 S, uint32 N              distinct scores, ids
    S x int16                       the scores x 10,000, ascending (all have 4 decimals)
    N x unsigned LEB128 varint      the sorted ids as gaps from the previous id (the first from 0)
    N x uint16                      for each id, the index of its score in the score table

Run: /usr/bin/python3 packages/science/scripts/convert-sa-fragment-scores.py [pickle] [output]
(output "-" writes the bytes to stdout; the test regenerates the file that way to catch drift).
"""
import gzip
import os
import pickle
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
source = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/RDKit/Contrib/SA_Score/fpscores.pkl.gz"
target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "data", "sa-fragment-scores.bin.gz")

with gzip.open(source) as f:
    groups = pickle.load(f)
pairs = {}
for group in groups:
    for fragment_id in group[1:]:
        if fragment_id in pairs:
            sys.exit("fragment id %d appears twice" % fragment_id)
        pairs[fragment_id] = float(group[0])

scores = sorted(set(pairs.values()))
scaled = [round(s * 10000) for s in scores]
for s, k in zip(scores, scaled):
    # The format stores 4 decimals exactly: refuse a score that would not survive the round trip.
    if k / 10000 != s or not -32768 <= k <= 32767:
        sys.exit("score %r does not fit the int16 x 10^4 format" % s)
index = {s: i for i, s in enumerate(scores)}
ids = sorted(pairs)

out = bytearray(b"SAFS1\n")
out += struct.pack("<II", len(scores), len(ids))
out += struct.pack("<%dh" % len(scaled), *scaled)
previous = 0
for fragment_id in ids:
    gap = fragment_id - previous
    previous = fragment_id
    while True:
        byte = gap & 0x7F
        gap >>= 7
        if gap:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            break
out += struct.pack("<%dH" % len(ids), *(index[pairs[i]] for i in ids))

packed = gzip.compress(bytes(out), compresslevel=9, mtime=0)
if target == "-":
    sys.stdout.buffer.write(packed)
else:
    with open(target, "wb") as f:
        f.write(packed)
    print("%d scores, %d ids -> %s" % (len(scores), len(ids), target))
