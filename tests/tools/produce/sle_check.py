#!/usr/bin/env python3
"""Reads event streams (events.sle, docs/formats/events.md) with nothing but the byte layout,
and checks what the producer's command-line tests need:
  same-multiset A B          the same events in any order (records compared exactly)
  classes S.sle              every event obeys its class under the header's PSF model:
                             never below min-Y, supports from the Moffat closed forms
  triangles S.sle A B        every chunk's triangle range lies in [A, B)
  region S.sle RA DEC R CAMERA_RA CAMERA_DEC FOV
                             (Minkowski pinhole map looking at CAMERA_RA/DEC) every
                             event's direction within R deg of RA DEC
  scatter IN OUT             OUT is IN's scattered control
  count S.sle                prints the event count
"""
import math
import struct
import sys


def read(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'STLNEVT1', 'not an event stream'
    header = {
        'capacity': struct.unpack_from('<I', data, 16)[0],
        'width': struct.unpack_from('<I', data, 20)[0],
        'height': struct.unpack_from('<I', data, 24)[0],
        'flags': struct.unpack_from('<I', data, 28)[0],
        'fwhm': struct.unpack_from('<d', data, 32)[0],
        'beta': struct.unpack_from('<d', data, 40)[0],
        'cache_radius': struct.unpack_from('<I', data, 48)[0],
        'phases': struct.unpack_from('<I', data, 52)[0],
        'min_y': struct.unpack_from('<d', data, 56)[0],
        'relative_tail': struct.unpack_from('<d', data, 64)[0],
        'max_radius': struct.unpack_from('<d', data, 72)[0],
    }
    chunks = []
    position = 256
    while True:
        assert data[position:position + 4] == b'CHNK'
        count, = struct.unpack_from('<I', data, position + 4)
        first, last = struct.unpack_from('<II', data, position + 16)
        position += 32
        if count == 0:
            break
        events = [struct.unpack_from('<7d', data, position + 56 * i) for i in range(count)]
        position += 56 * count
        chunks.append({'first': first, 'last': last, 'events': events})
    assert position == len(data), 'bytes after the end chunk'
    return header, chunks


def events_of(chunks):
    return [e for chunk in chunks for e in chunk['events']]


def gauss_legendre(n):
    """Nodes and weights on [-1, 1] by Newton on the Legendre recurrence."""
    nodes, weights = [], []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            dx = p1 / dp
            x -= dx
            if abs(dx) < 1e-16:
                break
        nodes.append(x)
        weights.append(2 / ((1 - x * x) * dp * dp))
    return nodes, weights


def check_classes(path):
    header, chunks = read(path)
    beta = header['beta']
    alpha = header['fwhm'] / (2 * math.sqrt(2 ** (1 / beta) - 1))
    density = lambda r: (beta - 1) / (math.pi * alpha ** 2) * (1 + r * r / alpha ** 2) ** -beta
    # Peak pixel fraction: the PSF integrated over the centred pixel, 64 x 64 Gauss-Legendre.
    nodes, weights = gauss_legendre(64)
    peak = sum(wi * wj * density(math.hypot(xi / 2, xj / 2)) / 4
               for xi, wi in zip(nodes, weights) for xj, wj in zip(nodes, weights))
    min_y, tail, rc, rmax = header['min_y'], header['relative_tail'], header['cache_radius'], header['max_radius']
    counts = {'cache': 0, 'wing_clip': 0, 'direct': 0}
    for e in events_of(chunks):
        flux, support = e[5], e[6]
        assert flux * peak >= min_y * (1 - 1e-9), f'event below min-Y: {e}'
        # flux p(R) = tail min_y, solved for R.
        radius = alpha * math.sqrt((flux * density(0) / (tail * min_y)) ** (1 / beta) - 1)
        if support <= rc and radius <= rc:
            assert abs(support - radius) <= 1e-9 * max(1, radius), f'cache support {support} != {radius}'
            counts['cache'] += 1
        elif support == rc:
            assert radius > rc and flux * density(rc) <= min_y * (1 + 1e-12), f'bad wing clip {e}'
            counts['wing_clip'] += 1
        else:
            assert support > rc and flux * density(rc) > min_y * (1 - 1e-12), f'bad direct {e}'
            assert abs(support - min(radius, rmax)) <= 1e-9 * radius, f'direct support {support} != {radius}'
            counts['direct'] += 1
    print(' '.join(f'{k} {v}' for k, v in counts.items()), f'peak_pixel {peak:.12f}')


def unit(ra, dec):
    ra, dec = math.radians(ra), math.radians(dec)
    return (math.cos(dec) * math.cos(ra), math.cos(dec) * math.sin(ra), math.sin(dec))


def check_region(path, centre, radius, ra, dec, fov):
    header, chunks = read(path)
    w, h = header['width'], header['height']
    f = unit(ra, dec)
    north = (0, 0, 1)
    u = [north[i] - f[2] * f[i] for i in range(3)]
    n = math.sqrt(sum(c * c for c in u))
    u = [c / n for c in u]
    r = (f[1] * u[2] - f[2] * u[1], f[2] * u[0] - f[0] * u[2], f[0] * u[1] - f[1] * u[0])
    focal = 0.5 * w / math.tan(math.radians(fov) / 2)
    centre = unit(*centre)
    worst = 0
    for e in events_of(chunks):
        dx, dy = (e[0] - w / 2) / focal, (e[1] - h / 2) / focal
        d = [f[i] + dx * r[i] - dy * u[i] for i in range(3)]
        n = math.sqrt(sum(c * c for c in d))
        angle = math.degrees(math.acos(min(1, sum(d[i] / n * centre[i] for i in range(3)))))
        worst = max(worst, angle)
    print(f'events {len(events_of(chunks))} farthest {worst:.6f} deg')
    assert worst <= radius + 1e-9, 'event outside the sky region'


def main():
    command = sys.argv[1]
    if command == 'same-multiset':
        a, b = (sorted(events_of(read(p)[1])) for p in sys.argv[2:4])
        assert a == b, f'different events ({len(a)} vs {len(b)})'
        print(f'same {len(a)} events')
    elif command == 'classes':
        check_classes(sys.argv[2])
    elif command == 'triangles':
        _, chunks = read(sys.argv[2])
        low, high = int(sys.argv[3]), int(sys.argv[4])
        for chunk in chunks:
            assert low <= chunk['first'] <= chunk['last'] < high, (chunk['first'], chunk['last'])
        print(f'{len(chunks)} chunks within triangles [{low}, {high})')
    elif command == 'region':
        values = [float(v) for v in sys.argv[3:9]]
        check_region(sys.argv[2], values[0:2], values[2], values[3], values[4], values[5])
    elif command == 'scatter':
        h1, c1 = read(sys.argv[2])
        h2, c2 = read(sys.argv[3])
        assert h2['flags'] == h1['flags'] | 1, 'control flag not set'
        assert [len(c['events']) for c in c1] == [len(c['events']) for c in c2], 'chunk sizes differ'
        assert [(c['first'], c['last']) for c in c1] == [(c['first'], c['last']) for c in c2]
        e1, e2 = events_of(c1), events_of(c2)
        assert [e[2:] for e in e1] == [e[2:] for e in e2], 'colours, fluxes or supports differ'
        assert all(0 <= e[0] < h2['width'] and 0 <= e[1] < h2['height'] for e in e2), 'outside the frame'
        moved = sum(1 for a, b in zip(e1, e2) if a[:2] != b[:2])
        assert moved == len(e1), 'some positions kept'
        # Uniform: each quarter of the frame holds about a quarter of the events.
        quarters = [0] * 4
        for e in e2:
            quarters[(e[0] >= h2['width'] / 2) + 2 * (e[1] >= h2['height'] / 2)] += 1
        expected = len(e2) / 4
        assert all(abs(q - expected) <= 5 * math.sqrt(expected) + 1 for q in quarters), quarters
        print(f'scatter control of {len(e1)} events, quarters {quarters}')
    elif command == 'count':
        print(len(events_of(read(sys.argv[2])[1])))
    else:
        sys.exit(f'unknown command {command}')


if __name__ == '__main__':
    main()
