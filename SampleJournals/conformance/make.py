#!/usr/bin/env python3
"""Writes the conformance cases of this directory (README.md lists them) from literal events.

Every case is built from the bytes FORMAT.md specifies: the 16-byte header, data frames made by the `zstd` command
(level 19, content checksum and content size on, as the writer makes them), 12-byte checksum frames holding the
CRC-32C of each data frame, and padding frames. Run it from anywhere: it writes next to itself. The same libzstd
gives the same bytes; the expected outputs beside each case come from `journal verify` (see README.md).
"""
import os, struct, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))

def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF

assert crc32c(b"123456789") == 0xE3069283

def skippable(magic: int, payload: bytes) -> bytes:
    return struct.pack('<II', magic, len(payload)) + payload

HEADER = skippable(0x184D2A5E, b"WJNL" + struct.pack('<I', 2))

def zstd(content: bytes, *flags: str) -> bytes:
    sized = [] if '--no-content-size' in flags else ['--stream-size=%d' % len(content)]
    return subprocess.run(['zstd', '-19', '-q', '-c', *sized, *flags], input=content, capture_output=True, check=True).stdout

def checksum(frame: bytes) -> bytes:
    return skippable(0x184D2A51, struct.pack('<I', crc32c(frame)))

def block(frame: bytes) -> bytes:
    return frame + checksum(frame)

def padding(n: int) -> bytes:
    return skippable(0x184D2A5B, bytes(n))

def line(seq: int, at: str, type_: str, payload: str = '') -> bytes:
    return ('{"v":1,"seq":%d,"id":"ph-%s","at":"%s","type":"%s"%s}\n'
            % (seq, base36(seq), at, type_, (',' + payload) if payload else '')).encode()

def base36(n: int) -> str:
    digits = '0123456789abcdefghijklmnopqrstuvwxyz'
    out = ''
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out or '0'

L1 = line(1, '2026-11-21T18:04:05.120+01:00', 'profile.updated', '"name":"Ana","unit":"kg"')
L2 = line(2, '2026-11-21T18:10:00.000+01:00', 'workout.started', '"workout":"w1","name":"Push","session":0')
L3 = line(3, '2026-11-21T18:12:30.500+01:00', 'set.completed',
          '"workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working"')
L4 = line(4, '2026-11-21T18:40:00.000+01:00', 'workout.finished', '"workout":"w1"')

SEALED = zstd(L1 + L2 + L3)
TAIL = zstd(L4)

cases = {}
# Valid journals.
cases['valid-empty'] = b''
cases['valid-header-only'] = HEADER
cases['valid-one-event'] = HEADER + block(zstd(L1))
cases['valid-sealed-tail-padding'] = HEADER + block(SEALED) + block(TAIL) + padding(64)
cases['valid-no-content-size'] = HEADER + block(zstd(L1, '--no-content-size'))
cases['valid-version-1'] = SEALED + TAIL
cases['valid-version-1-skippable'] = SEALED + skippable(0x184D2A50, b'note') + TAIL
cases['valid-keys-any-order'] = HEADER + block(zstd(
    b'{"type":"profile.updated","at":"2026-11-21T18:04:05.120+01:00","id":"ph-1","seq":1,"v":1,"name":"Ana"}\n'))
# The header.
cases['header-cut-short'] = HEADER[:10]
cases['header-newer-version'] = HEADER[:12] + struct.pack('<I', 3) + block(SEALED)
cases['header-version-1'] = HEADER[:12] + struct.pack('<I', 1) + block(SEALED)
cases['header-damaged'] = HEADER[:8] + b'WJNX' + HEADER[12:] + block(SEALED)
cases['not-a-journal'] = b'hello, world\n'
# Frames that fail their checks, each followed by a valid frame (damage in the middle).
def patch_crc(frame: bytes) -> bytes:
    return block(frame)
no_check = zstd(L2 + L3, '--no-check')
cases['frame-no-content-checksum'] = HEADER + block(no_check) + block(TAIL)
bad_xxh = bytearray(SEALED); bad_xxh[-1] ^= 0xFF
cases['frame-xxh64-mismatch'] = HEADER + block(bytes(bad_xxh)) + block(TAIL)
cases['frame-checksum-frame-missing'] = HEADER + SEALED + block(TAIL)
wrong_crc = bytearray(block(SEALED)); wrong_crc[-1] ^= 0x01
cases['frame-crc-wrong'] = HEADER + bytes(wrong_crc) + block(TAIL)
cases['frame-unknown-skippable'] = HEADER + block(SEALED) + skippable(0x184D2A50, b'note') + block(TAIL)
cases['frame-empty-content'] = HEADER + block(zstd(b'')) + block(TAIL)
cases['frame-no-final-newline'] = HEADER + block(zstd(L1.rstrip(b'\n'))) + block(TAIL)
# Declared size one more than the content (a 1-byte Frame_Content_Size in a single-segment frame).
small = bytearray(zstd(L4))
assert small[4] & 0xE0 == 0x20, hex(small[4])  # single segment, 1-byte size
small[5] += 1
cases['frame-size-mismatch'] = HEADER + block(bytes(small)) + block(TAIL)
# A dictionary id (Dictionary_ID_flag 1, one byte: dictionary 1) in a single-segment frame.
plain = zstd(L1)
assert plain[4] == 0x24, hex(plain[4])
cases['frame-dictionary-id'] = HEADER + block(plain[:4] + bytes([0x25, 0x01]) + plain[5:]) + block(TAIL)
# Padding.
cases['padding-not-zero'] = HEADER + block(SEALED) + padding(32)[:-5] + b'\x01' + bytes(4)
cases['padding-not-last'] = HEADER + block(SEALED) + padding(8) + block(TAIL)
# Torn tails.
whole = block(TAIL)
cases['torn-half-frame'] = HEADER + block(SEALED) + whole[:len(whole) // 2]
cases['torn-checksum-frame-cut'] = HEADER + block(SEALED) + whole[:-5]
cases['torn-padding-cut'] = HEADER + block(SEALED) + padding(32)[:20]
cases['torn-version-1-skippable-past-end'] = SEALED + skippable(0x184D2A50, b'note')[:10]
# Lines.
cases['line-not-json'] = HEADER + block(zstd(L1 + b'{"v":1,"seq":2,\n' + L3.replace(b'"seq":3', b'"seq":2').replace(b'ph-3', b'ph-2')))
cases['line-bad-field'] = HEADER + block(zstd(L1 + L2.replace(b'"session":0', b'"session":"zero"')))
cases['line-duplicate-key'] = HEADER + block(zstd(L1 + L2.replace(b'"name":"Push"', b'"name":"Push","name":"Pull"')))
cases['line-seq-gap'] = HEADER + block(zstd(L1 + L3))

# Events of a known type at a newer `v` whose known fields are out of range (as an older build stored them): read, each
# a rule violation, and left out of every view (PROJECTIONS.md §"Views are total").
def newer(line_: bytes) -> bytes:
    return line_.replace(b'{"v":1,', b'{"v":99,', 1)
cases['line-newer-version-out-of-range'] = HEADER + block(zstd(L1 + L2 + L3
    + newer(line(4, '2026-11-21T18:14:00.000+01:00', 'set.completed',
                 '"workout":"w1","exercise":"barbell-bench-press","set":2,"weight":1e16,"unit":"kg","reps":8,"kind":"working"'))
    + newer(line(5, '2026-11-21T18:16:00.000+01:00', 'set.completed',
                 '"workout":"w1","exercise":"barbell-bench-press","set":3,"weight":60,"unit":"kg","reps":9007199254740992,"kind":"working","grip":"wide"'))
    + newer(line(6, '2026-11-21T18:18:00.000+01:00', 'rest.started', '"workout":"w1","exercise":"barbell-bench-press","seconds":1e15'))
    + newer(line(7, '2026-11-21T18:20:00.000+01:00', 'cardio.logged', '"workout":"w1","exercise":"treadmill-run","minutes":1e300,"km":-1'))
    + L4.replace(b'"seq":4,"id":"ph-4"', b'"seq":8,"id":"ph-8"')))

# Erasure (FORMAT.md §6): a journal may start with the marker, its seq following the erased ones.
MARKER = line(10, '2026-12-01T09:00:00.000+01:00', 'data.erased', '"through_seq":9,"events":9')
cases['valid-erased'] = HEADER + block(zstd(MARKER)) + block(zstd(line(11, '2026-12-01T09:05:00.000+01:00', 'profile.updated', '"unit":"lb"')))
cases['line-erased-marker-wrong'] = HEADER + block(zstd(L1 + MARKER.replace(b'"seq":10', b'"seq":2').replace(b'ph-a', b'ph-2')))

# The report around the verdicts (FORMAT.md §17): several gaps, repeated ids past the listed 20, unknown types, newer
# `v`, a pending seal, and the exact texts of bad lines and rule violations.
def profile(seq: int, payload: str, id_: str = '') -> bytes:
    at = '2026-11-21T18:%02d:%02d.000+01:00' % (seq // 60, seq % 60)
    data = line(seq, at, 'profile.updated', payload)
    return data.replace(b'"id":"ph-%s"' % base36(seq).encode(), b'"id":"%s"' % id_.encode()) if id_ else data
cases['line-seq-gaps-several'] = HEADER + block(zstd(profile(1, '"unit":"kg"') + profile(3, '"unit":"lb"') + profile(7, '"unit":"kg"')))
# 21 events reuse the id of the first: the text lists 20 of them; a reused id is not judged by the rules (the last
# one has no field to update).
cases['line-duplicate-ids-listed'] = HEADER + block(zstd(b''.join(
    profile(n, '"unit":"kg"' if n < 22 else '', 'ph-1') for n in range(1, 23))))
cases['valid-unknown-type'] = HEADER + block(zstd(L1 + line(2, '2026-11-21T18:05:00.000+01:00', 'yoga.flowed', '"minutes":20')))
cases['valid-newer-version'] = HEADER + block(zstd(L1 + L2
    + newer(L3).replace(b'"v":99,', b'"v":2,').replace(b'"kind":"working"', b'"kind":"working","grip":"wide"') + L4))
# A pending seal: the tail's two one-line frames and the padding are replaced, for readers, by the `.seal` record's
# block at `start` = 16 (FORMAT.md §6, §7 step 0).
cases['valid-pending-seal'] = HEADER + block(zstd(L1)) + block(zstd(L2)) + padding(40)
SEAL = b'JSEAL\x00\x00\x01' + struct.pack('<QQ', 16, 16 ^ 0xFFFFFFFFFFFFFFFF) + block(zstd(L1 + L2))
cases['line-erased-marker-through-seq-wrong'] = HEADER + block(zstd(MARKER.replace(b'"through_seq":9', b'"through_seq":8')))
# Bad lines: the exact text of each kind (FORMAT.md §17).
cases['line-duplicate-key-nested'] = HEADER + block(zstd(L1 + profile(2, '"height":{"value":170,"unit":"cm","unit":"in"}')))
cases['line-lone-surrogate'] = HEADER + block(zstd(L1 + profile(2, '"name":"An\\ud800a"')))
cases['line-envelope-bad'] = HEADER + block(zstd(L1 + profile(2, '"unit":"lb"').replace(b'"seq":2', b'"seq":"2"')))
cases['line-time-out-of-range'] = HEADER + block(zstd(L1 + profile(2, '"unit":"lb"').replace(b'18:00:02.000', b'24:00:02.000')))
# Accepted forms (FORMAT.md §3, §4): an int written with a fraction, a nested object, the readers' time forms.
cases['valid-int-written-as-fraction'] = HEADER + block(zstd(L1.replace(b'"v":1,"seq":1,', b'"v":1.0,"seq":1e0,')))
cases['valid-nested-object'] = HEADER + block(zstd(profile(1, '"height":{"value":170,"unit":"cm"},"body_weight":{"unit":"kg","value":70}')))
cases['valid-time-reader-forms'] = HEADER + block(zstd(L1.replace(b'2026-11-21T18:04:05.120+01:00', b'2026-11-21 17:04:05.123456789z')))
# Rule violations (FORMAT.md §10): the exact text, nested paths, the catalogue and the exercise order.
cases['line-profile-no-field'] = HEADER + block(zstd(L1 + profile(2, '')))
cases['line-secret-key-any-case'] = HEADER + block(zstd(L1 + profile(2, '"unit":"kg","API_Token":"x"')))
cases['line-nested-path'] = HEADER + block(zstd(L1 + line(2, '2026-11-21T18:05:00.000+01:00', 'template.created',
    '"template":"t1","name":"Push","exercises":[{"exercise":"barbell-bench-press","sets":3},{"exercise":"barbell-row","sets":99}]')))
cases['line-exercise-not-in-catalogue'] = HEADER + block(zstd(L1 + L2 + L3.replace(b'barbell-bench-press', b'barbel-bench-pres')))
cases['valid-custom-exercise'] = HEADER + block(zstd(L1
    + line(2, '2026-11-21T18:05:00.000+01:00', 'exercise.created', '"exercise":"floor-press-pause","name":"Paused floor press"')
    + L2.replace(b'"seq":2,"id":"ph-2"', b'"seq":3,"id":"ph-3"')
    + L3.replace(b'"seq":3,"id":"ph-3"', b'"seq":4,"id":"ph-4"').replace(b'barbell-bench-press', b'floor-press-pause')))
def added(seq: int, exercise: str) -> bytes:
    return line(seq, '2026-11-21T18:1%d:00.000+01:00' % seq, 'exercise.added', '"workout":"w1","exercise":"%s"' % exercise)
cases['line-superset-not-adjacent'] = HEADER + block(zstd(L1 + L2 + added(3, 'barbell-bench-press') + added(4, 'barbell-row')
    + added(5, 'barbell-back-squat') + line(6, '2026-11-21T18:16:00.000+01:00', 'superset.linked',
                                       '"workout":"w1","group":"g1","exercises":["barbell-bench-press","barbell-back-squat"]')))

for name, data in cases.items():
    with open(os.path.join(HERE, name + '.journal'), 'wb') as f:
        f.write(data)
with open(os.path.join(HERE, 'valid-pending-seal.journal.seal'), 'wb') as f:
    f.write(SEAL)
print(f'{len(cases)} cases written to {HERE}')
