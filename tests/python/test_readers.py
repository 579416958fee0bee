"""python/starlens against files the tools write, each checked by a route that is not the
package's own: the CSV the catalogue was made from, the stage manifests' counts and hashes
(written by the C++ tools), a second EXR decoder (exr_scanlines.py), struct over the raw
stream bytes, and starlens-splat's own verdict on a damaged stream.

usage: test_readers.py SOURCE_ROOT CATALOG TRACE PRODUCE SPLAT SYNTH_EVENTS (the executables),
run by the Python that has Debian's numpy, h5py, astropy, OpenImageIO and xxhash
"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import tracemalloc
import unittest

import numpy as np
import OpenImageIO as oiio

SOURCE_ROOT = sys.argv[1]
TOOLS = dict(zip(("catalog", "trace", "produce", "splat", "synth"), sys.argv[2:7]))
sys.path.insert(0, os.path.join(SOURCE_ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exr_scanlines  # noqa: E402
import starlens  # noqa: E402

WIDTH, HEIGHT, STARS = 64, 48, 3000
SYNTH_EVENTS, SYNTH_CHUNK = 50000, 1000
work = None


def tool(name, *args, check=True):
    run = subprocess.run([TOOLS[name], *map(str, args), "--quiet"],
                         capture_output=True, text=True)
    if check and run.returncode != 0:
        raise RuntimeError(f"{name} {args}: exit {run.returncode}: {run.stderr}")
    return run


def path(name):
    return os.path.join(work, name)


def manifest(name):
    with open(path(name) + ".manifest.json") as file:
        return json.load(file)


def setUpModule():
    global work
    work = tempfile.mkdtemp(prefix="starlens-python-")
    generator = random.Random(7)
    with open(path("stars.csv"), "w") as csv:
        csv.write("ra,dec,mag,teff\n")
        for _ in range(STARS):
            csv.write(f"{generator.uniform(0, 360):.6f},{generator.uniform(-90, 90):.6f},"
                      f"{generator.uniform(0, 7):.3f},{generator.uniform(3000, 20000):.0f}\n")
    tool("catalog", "ingest", "--format", "csv", "--band", "V", path("stars.csv"),
         "-o", path("catalog.h5"))
    tool("trace", "--width", WIDTH, "--height", HEIGHT, "--fov", 60, "--mesh-step", 8,
         "-o", path("lensmap.h5"), "--threads", 2)
    tool("produce", "--lensmap", path("lensmap.h5"), "--catalog", path("catalog.h5"),
         "-o", path("events.sle"), "--threads", 2)
    tool("splat", "-i", path("events.sle"), "-o", path("frame.exr"), "--lensmap",
         path("lensmap.h5"), "--frame-number", 3, "--threads", 2)
    tool("synth", "--count", SYNTH_EVENTS, "--chunk-events", SYNTH_CHUNK, "--width", WIDTH,
         "--height", HEIGHT, "--distribution", "mixed", "-o", path("synth.sle"))


def tearDownModule():
    shutil.rmtree(work, ignore_errors=True)


def damaged_copy(source, name, offset=None, data=None, size=None):
    """A copy of `source` with `data` written at `offset`, or cut to `size` bytes."""
    with open(path(source), "rb") as file:
        content = bytearray(file.read())
    if data is not None:
        content[offset:offset + len(data)] = data
    if size is not None:
        content = content[:size]
    with open(path(name), "wb") as file:
        file.write(content)
    return path(name)


class Catalog(unittest.TestCase):
    def test_stars_units_and_values_are_the_csvs(self):
        stars = starlens.read_catalog(path("catalog.h5"))
        self.assertEqual(len(stars), STARS)
        self.assertEqual(len(stars), manifest("catalog.h5")["counts"]["stars_written"])
        self.assertEqual((str(stars["ra"].unit), str(stars["dec"].unit)), ("deg", "deg"))
        self.assertEqual((str(stars["teff"].unit), str(stars["flux"].unit)), ("K", "Jy"))
        self.assertEqual((stars["ra"].dtype, stars["teff"].dtype, stars["flux"].dtype),
                         (np.float64, np.float32, np.float32))
        csv = np.loadtxt(path("stars.csv"), delimiter=",", skiprows=1)
        csv = csv[np.lexsort((csv[:, 1], csv[:, 0]))]
        order = np.lexsort((stars["dec"], stars["ra"]))
        # The same text parsed to the nearest double by the C++ tool and by numpy.
        np.testing.assert_array_equal(np.asarray(stars["ra"])[order], csv[:, 0])
        np.testing.assert_array_equal(np.asarray(stars["dec"])[order], csv[:, 1])
        np.testing.assert_array_equal(np.asarray(stars["teff"])[order],
                                      csv[:, 3].astype(np.float32))
        self.assertEqual(stars.meta["band"], "V")
        expected_flux = stars.meta["F0"] * 10 ** (-0.4 * csv[:, 2])  # F = F0 10^(-0.4 m)
        np.testing.assert_allclose(np.asarray(stars["flux"])[order], expected_flux, rtol=1.2e-7)
        self.assertTrue(np.all(np.diff(stars["cell"]) >= 0), "rows sorted by HEALPix cell")

    def test_a_cell_range_reads_those_cells_rows(self):
        stars = starlens.read_catalog(path("catalog.h5"))
        cells = 12 << (2 * stars.meta["order"])
        first, end = cells // 4, cells // 2
        part = starlens.read_catalog(path("catalog.h5"), cells=(first, end))
        inside = (stars["cell"] >= first) & (stars["cell"] < end)
        self.assertGreater(len(part), 0)
        np.testing.assert_array_equal(np.asarray(part["ra"]), np.asarray(stars["ra"])[inside])
        np.testing.assert_array_equal(np.asarray(part["cell"]), np.asarray(stars["cell"])[inside])

    def test_ids_and_magnitudes_are_the_csv_rows(self):
        stars = starlens.read_catalog(path("catalog.h5"))
        csv = np.loadtxt(path("stars.csv"), delimiter=",", skiprows=1)
        # Without an id column a CSV star's id is its row number, 1 for the first.
        self.assertEqual(sorted(stars["id"]), list(range(1, STARS + 1)))
        rows = np.asarray(stars["id"]) - 1
        np.testing.assert_array_equal(np.asarray(stars["ra"]), csv[rows, 0])
        np.testing.assert_array_equal(np.asarray(stars["mag"]), csv[rows, 2].astype(np.float32))
        self.assertEqual(str(stars["mag"].unit), "mag")
        self.assertEqual(stars.meta["id_scheme"],
                         "row number (1 for the first star of the first file)")

    def test_astropy_table_read_gives_the_star_table_with_units(self):
        from astropy.table import Table
        stars = starlens.read_catalog(path("catalog.h5"))
        table = Table.read(path("catalog.h5"), path="/stars/table")
        self.assertEqual(table.colnames, ["ra", "dec", "teff", "flux"])
        self.assertEqual([str(table[c].unit) for c in table.colnames], ["deg", "deg", "K", "Jy"])
        self.assertEqual(table["ra"].description, "ICRS right ascension")
        for column in table.colnames:
            np.testing.assert_array_equal(np.asarray(table[column]), np.asarray(stars[column]))
        source = Table.read(path("catalog.h5"), path="/stars/source")
        self.assertEqual(source.colnames, ["id", "mag"])
        self.assertEqual(str(source["mag"].unit), "mag")
        np.testing.assert_array_equal(np.asarray(source["id"]), np.asarray(stars["id"]))

    def test_every_dataset_and_string_is_described_and_utf8(self):
        import h5py
        for name in ("catalog.h5", "lensmap.h5"):
            with h5py.File(path(name), "r") as file:
                datasets = []
                file.visititems(lambda key, node: datasets.append(key)
                                if isinstance(node, h5py.Dataset) else None)
                self.assertGreaterEqual(len(datasets), 3, name)
                for key in datasets:
                    attributes = file[key].attrs
                    self.assertIn("units", attributes, f"{name} {key}")
                    self.assertIn("description", attributes, f"{name} {key}")
                strings = [(file, k) for k in file.attrs] + \
                    [(file[d], k) for d in datasets for k in file[d].attrs]
                for node, key in strings:
                    kind = node.attrs.get_id(key).get_type()
                    if kind.get_class() == h5py.h5t.STRING:
                        self.assertEqual(kind.get_cset(), h5py.h5t.CSET_UTF8, f"{name} {key}")
            with h5py.File(path("catalog.h5"), "r") as file:
                offsets = file["/cells/offsets"][:]
                self.assertEqual(offsets.dtype, np.int64)
                # int64 offsets take numpy.repeat without a cast.
                cells = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
                self.assertEqual(len(cells), STARS)

    def test_a_version_1_store_is_refused_by_name(self):
        import h5py
        shutil.copy(path("catalog.h5"), path("v1.h5"))
        with h5py.File(path("v1.h5"), "r+") as file:
            file.attrs["version"] = np.int64(1)
        with self.assertRaisesRegex(starlens.FormatError,
                                    "v1.h5: attribute version: 1: a store without star ids"):
            starlens.read_catalog(path("v1.h5"))
        run = tool("catalog", "info", path("v1.h5"), check=False)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("v1.h5: attribute version: 1: a store without star ids", run.stderr)

    def test_a_lens_map_is_not_a_catalogue(self):
        with self.assertRaisesRegex(starlens.FormatError, "lensmap.h5: attribute format: "
                                    "'starlens-lensmap' is not starlens-catalog"):
            starlens.read_catalog(path("lensmap.h5"))


class Lensmap(unittest.TestCase):
    def test_attributes_and_arrays_agree_with_the_trace_manifest(self):
        lensmap = starlens.read_lensmap(path("lensmap.h5"))
        recorded = manifest("lensmap.h5")
        counts, parameters = recorded["counts"], recorded["parameters"]
        for key in ("width", "height", "fov_deg", "r_obs", "spacetime", "projection",
                    "mesh_step", "bh_ra_deg", "bh_dec_deg"):
            self.assertEqual(lensmap.attributes[key], parameters[key], key)
        self.assertEqual(len(lensmap.vertices_xy), counts["vertices"])
        self.assertEqual(len(lensmap.triangles_v), counts["triangles"])
        self.assertEqual(lensmap.attributes["shadow_triangles"], counts["shadow_triangles"])
        for reason, count in counts["dropped"].items():
            self.assertEqual(lensmap.attributes["dropped_" + reason], count, reason)
        self.assertEqual(int(np.count_nonzero(lensmap.triangles_parity == -1)),
                         counts["mirrored_triangles"])
        depths = np.bincount(lensmap.triangles_depth,
                             minlength=len(counts["kept_triangles_by_depth"]))
        self.assertEqual(depths.tolist(), counts["kept_triangles_by_depth"])
        self.assertEqual(lensmap.triangles_mu.min(), counts["mu_min"])
        self.assertEqual(lensmap.triangles_mu.max(), counts["mu_max"])
        self.assertEqual(str(lensmap.quantity("fov_deg")), "60.0 deg")
        self.assertEqual(lensmap.quantity("vertices_xy").unit.to_string(), "pix")
        self.assertEqual(lensmap.units["r_obs"].to_string(), "M")

    def test_the_status_is_a_named_enum(self):
        import h5py
        with h5py.File(path("lensmap.h5"), "r") as file:
            self.assertEqual(h5py.check_enum_dtype(file["/vertices/status"].dtype),
                             {"escaped": 0, "captured": 1, "failed": 2})
            self.assertEqual(file["/vertices/xy"].attrs["units"], b"pixel")
        lensmap = starlens.read_lensmap(path("lensmap.h5"))
        self.assertEqual(lensmap.attributes["version"], 2)
        self.assertEqual(lensmap.vertices_status.dtype, np.uint8)

    def test_triangles_are_wound_as_the_format_says(self):
        lensmap = starlens.read_lensmap(path("lensmap.h5"))
        xy = lensmap.vertices_xy[lensmap.triangles_v.astype(np.int64)]
        d1, d2 = xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]
        self.assertTrue(np.all(d1[:, 0] * d2[:, 1] - d2[:, 0] * d1[:, 1] > 0))
        escaped = lensmap.vertices_status == 0
        np.testing.assert_allclose(np.linalg.norm(lensmap.vertices_dir[escaped], axis=1), 1,
                                   atol=1e-12)

    def test_a_truncated_map_names_the_file(self):
        size = os.path.getsize(path("lensmap.h5"))
        cut = damaged_copy("lensmap.h5", "cut.h5", size=size // 2)
        with self.assertRaises(starlens.FormatError) as raised:
            starlens.read_lensmap(cut)
        self.assertTrue(str(raised.exception).startswith(cut + ": "), str(raised.exception))

    def test_an_index_beyond_the_vertices_names_the_row(self):
        import h5py
        shutil.copy(path("lensmap.h5"), path("bad_index.h5"))
        with h5py.File(path("bad_index.h5"), "r+") as file:
            vertices = file["/vertices/xy"].shape[0]
            file["/triangles/v"][5, 1] = vertices
        with self.assertRaisesRegex(starlens.FormatError, f"bad_index.h5: /triangles/v: row 5: "
                                    f"vertex {vertices} beyond the {vertices} vertices"):
            starlens.read_lensmap(path("bad_index.h5"))


def raw_chunks(file_name):
    """(count, payload bytes) of every chunk, from the bytes with struct alone."""
    with open(path(file_name), "rb") as file:
        data = file.read()
    position, chunks = 256, []
    while True:
        count, = struct.unpack_from("<I", data, position + 4)
        position += 32
        if count == 0:
            return chunks
        chunks.append(data[position:position + 56 * count])
        position += 56 * count


class Events(unittest.TestCase):
    def test_counts_agree_with_the_produce_and_splat_manifests(self):
        stream = starlens.read_events(path("events.sle"))
        chunks = list(stream)
        produced = manifest("events.sle")["counts"]
        self.assertTrue(stream.complete)
        self.assertEqual(sum(len(c.events) for c in chunks), produced["events"])
        self.assertEqual(len(chunks), produced["chunks"])
        self.assertEqual(sum(len(c.events) for c in chunks),
                         manifest("frame.exr")["counts"]["events"])
        direct = sum(int(np.count_nonzero(c.events["support"] > stream.header["cache_radius"]))
                     for c in chunks)
        self.assertEqual(direct, produced["events_direct"])
        self.assertEqual((stream.header["width"], stream.header["height"]), (WIDTH, HEIGHT))

    def test_records_are_the_streams_bytes(self):
        stream = starlens.read_events(path("synth.sle"))
        raw = raw_chunks("synth.sle")
        chunks = list(stream)
        self.assertEqual(len(chunks), SYNTH_EVENTS // SYNTH_CHUNK)
        self.assertEqual(len(chunks), len(raw))
        for chunk, payload in zip(chunks, raw):
            self.assertEqual(chunk.events.dtype, starlens.EVENT_DTYPE)
            self.assertEqual(chunk.events.tobytes(), payload)
        first = struct.unpack_from("<7d", raw[3], 56 * 17)
        self.assertEqual(tuple(chunks[3].events[17]), first)

    def test_a_chunk_range_yields_those_chunks(self):
        everything = [c.events for c in starlens.read_events(path("synth.sle"))]
        stream = starlens.read_events(path("synth.sle"), chunk_range=(10, 20))
        part = list(stream)
        self.assertEqual([c.sequence for c in part], list(range(10, 20)))
        for chunk in part:
            np.testing.assert_array_equal(chunk.events, everything[chunk.sequence])
        self.assertFalse(stream.complete)
        tail = list(starlens.read_events(path("synth.sle"), chunk_range=range(45, 1000)))
        self.assertEqual([c.sequence for c in tail], list(range(45, 50)))

    def test_memory_is_bounded_by_a_chunk(self):
        from starlens.events import READ_BUFFER_BYTES  # imports numpy and xxhash untraced
        tracemalloc.start()
        events = 0
        for chunk in starlens.read_events(path("synth.sle")):
            events += len(chunk.events)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        self.assertEqual(events, SYNTH_EVENTS)
        stream_bytes = os.path.getsize(path("synth.sle"))
        # The read buffer, the chunk held and the next one, with room to spare: far below the
        # stream's 2.8 MB.
        bound = READ_BUFFER_BYTES + 4 * 56 * SYNTH_CHUNK + (64 << 10)
        self.assertLess(bound, stream_bytes / 2)
        self.assertLess(peak, bound, f"peak {peak} bytes for a {stream_bytes}-byte stream")

    def assert_same_verdict(self, damaged, message):
        """The package raises FormatError(message) and starlens-splat refuses the same file
        with the same line."""
        with self.assertRaises(starlens.FormatError) as raised:
            for _ in starlens.read_events(damaged):
                pass
        self.assertEqual(str(raised.exception), f"{damaged}: {message}")
        splat = tool("splat", "-i", damaged, "-o", damaged + ".exr", check=False)
        self.assertEqual(splat.returncode, 2, splat.stderr)
        self.assertIn(f"{damaged}: {message}", splat.stderr)

    def test_a_corrupt_payload_fails_its_checksum(self):
        offset = 256 + 3 * (32 + 56 * SYNTH_CHUNK) + 32 + 56 * 17 + 40  # chunk 3 record 17 flux
        damaged = damaged_copy("synth.sle", "corrupt.sle", offset, b"\x01")
        self.assert_same_verdict(damaged, "chunk 3: checksum mismatch (payload corrupt)")

    def test_a_truncated_stream_names_the_file_and_chunk(self):
        size = 256 + 7 * (32 + 56 * SYNTH_CHUNK) + 32 + 100
        damaged = damaged_copy("synth.sle", "cut.sle", size=size)
        self.assert_same_verdict(damaged, f"chunk 7: truncated: payload is 100 of "
                                 f"{56 * SYNTH_CHUNK} bytes")

    def test_a_nan_flux_with_a_valid_checksum_names_the_record(self):
        import xxhash
        chunk_at = 256 + 2 * (32 + 56 * SYNTH_CHUNK)
        payload = bytearray(raw_chunks("synth.sle")[2])
        payload[56 * 17 + 40:56 * 17 + 48] = struct.pack("<d", float("nan"))
        damaged = damaged_copy("synth.sle", "nan.sle", chunk_at + 32, bytes(payload))
        damaged = damaged_copy("nan.sle", "nan.sle", chunk_at + 24,
                               struct.pack("<Q", xxhash.xxh3_64_intdigest(bytes(payload))))
        self.assert_same_verdict(damaged, "chunk 2 record 17: flux is NaN")

    def test_a_missing_end_chunk_and_trailing_bytes(self):
        size = os.path.getsize(path("synth.sle"))
        self.assert_same_verdict(damaged_copy("synth.sle", "no_end.sle", size=size - 32),
                                 "truncated: stream ends without its end chunk (after 50 chunks)")
        with open(path("synth.sle"), "rb") as file:
            damaged = damaged_copy("synth.sle", "trailing.sle", size, file.read() + b"x")
        self.assert_same_verdict(damaged, "end chunk: trailing data after the end chunk")

    def test_a_frame_is_not_a_stream(self):
        self.assert_same_verdict(path("frame.exr"), 'not an event stream (magic 76 2f 31 01 '
                                 '02 10 00 00, expected "STLNEVT1")')


class Frame(unittest.TestCase):
    def test_exact_values_agree_with_a_second_decoder(self):
        frame = starlens.read_frame(path("frame.exr"))
        viewer, header = exr_scanlines.read_channels(path("frame.exr"), "rgba")
        words, _ = exr_scanlines.read_channels(path("frame.exr"), "exact")
        self.assertTrue(frame.exact)
        self.assertEqual((frame.width, frame.height), (WIDTH, HEIGHT))
        self.assertEqual(frame.rgb.dtype, np.float64)
        for index, colour in enumerate("RGB"):
            bits = (words["f64hi." + colour].astype(np.uint64) << np.uint64(32)) | \
                words["f64lo." + colour]
            np.testing.assert_array_equal(frame.rgb[:, :, index].view(np.uint64), bits)
            np.testing.assert_array_equal(frame.rgb_float[:, :, index], viewer[colour])
        self.assertEqual(sorted(viewer), ["B", "G", "R"])
        self.assertTrue(np.count_nonzero(words["f64lo.G"]) > WIDTH * HEIGHT // 2)
        self.assertTrue(np.shares_memory(frame.g, frame.rgb))
        # The viewer's channels are the exact values over the exposure, rounded to float
        # (docs/formats/frame.md); the exposure is the manifest's.
        exposure = manifest("frame.exr")["parameters"]["exposure"]
        self.assertEqual(frame.exposure, exposure)
        self.assertEqual(struct.unpack("<d", header["starlensExposure"][1])[0], exposure)
        np.testing.assert_array_equal((frame.rgb / exposure).astype(np.float32), frame.rgb_float)
        self.assertEqual(frame.run_digest, manifest("frame.exr")["run_digest"])
        self.assertEqual(frame.format_version, 2)
        self.assertEqual(header["starlensRunDigest"][1].decode(), frame.run_digest)

    def test_the_header_carries_the_lens_maps_camera(self):
        frame = starlens.read_frame(path("frame.exr"))
        attributes = frame.attributes
        self.assertEqual(attributes["starlensFrameNumber"], 3)
        self.assertEqual(attributes["starlensProjection"], "pinhole")
        self.assertEqual(attributes["starlensFovDeg"], 60.0)
        self.assertEqual(attributes["starlensSpacetime"], "schwarzschild")
        self.assertEqual(attributes["starlensRObs"], 30.0)
        self.assertEqual(attributes["starlensObserver"], "static")
        self.assertEqual(tuple(attributes["starlensCameraSize"]), (WIDTH, HEIGHT))
        self.assertEqual(manifest("frame.exr")["parameters"]["lensmap"], path("lensmap.h5"))

    def test_a_version_2_file_without_its_exact_part_is_refused(self):
        single = path("single.exr")
        spec = oiio.ImageSpec(4, 3, 3, oiio.FLOAT)
        spec.attribute("starlensFormatVersion", 2)
        output = oiio.ImageOutput.create(single)
        output.open(single, spec)
        output.write_image(np.ones((3, 4, 3), np.float32))
        output.close()
        with self.assertRaisesRegex(starlens.FormatError, "single.exr: part exact: missing"):
            starlens.read_frame(single)
        spec.attribute("starlensFormatVersion", 3)
        output = oiio.ImageOutput.create(single)
        output.open(single, spec)
        output.write_image(np.ones((3, 4, 3), np.float32))
        output.close()
        with self.assertRaisesRegex(starlens.FormatError, "starlensFormatVersion: version 3 is "
                                    "not supported \\(this reader knows 1..2\\)"):
            starlens.read_frame(single)

    def test_truncated_and_foreign_files_name_the_file(self):
        size = os.path.getsize(path("frame.exr"))
        for name, cut in (("half.exr", size // 2), ("header.exr", 200)):
            damaged = damaged_copy("frame.exr", name, size=cut)
            with self.assertRaises(starlens.FormatError) as raised:
                starlens.read_frame(damaged)
            self.assertTrue(str(raised.exception).startswith(damaged + ": "))
        with self.assertRaisesRegex(starlens.FormatError,
                                    "synth.sle: not an OpenEXR file \\(wrong magic number\\)"):
            starlens.read_frame(path("synth.sle"))


    def write_foreign_exr(self, name, channels, pixels):
        """An EXR as another program writes it: FLOAT channels only, through OpenImageIO."""
        import OpenImageIO as oiio
        spec = oiio.ImageSpec(pixels.shape[1], pixels.shape[0], len(channels), oiio.FLOAT)
        spec.channelnames = channels
        output = oiio.ImageOutput.create(path(name))
        self.assertTrue(output.open(path(name), spec), oiio.geterror())
        self.assertTrue(output.write_image(pixels))
        output.close()
        return path(name)

    def test_a_foreign_float_exr_reads_its_float_channels(self):
        pixels = np.arange(4 * 3 * 3, dtype=np.float32).reshape(3, 4, 3) / 7
        frame = starlens.read_frame(self.write_foreign_exr("foreign.exr", ("R", "G", "B"), pixels))
        self.assertFalse(frame.exact)
        self.assertEqual((frame.format_version, frame.run_digest), (0, ""))
        np.testing.assert_array_equal(frame.rgb, pixels.astype(np.float64))
        np.testing.assert_array_equal(frame.rgb_float, pixels)
        two = self.write_foreign_exr("two.exr", ("R", "G"), pixels[:, :, :2].copy())
        with self.assertRaisesRegex(starlens.FormatError,
                                    "two.exr: channel B: missing \\(channels present: R G\\)"):
            starlens.read_frame(two)


class Manifest(unittest.TestCase):
    def test_every_output_matches_its_recorded_tree_hash(self):
        for name in ("catalog.h5", "lensmap.h5", "events.sle", "frame.exr", "synth.sle"):
            recorded = starlens.read_manifest(path(name) + ".manifest.json")
            self.assertEqual(recorded["format_version"], 2)
            self.assertTrue(starlens.verify_output(recorded, path(name)), name)

    def test_a_moved_copy_matches_and_a_changed_one_does_not(self):
        # An output moved away from where the manifest says is found by its file name.
        os.makedirs(path("moved"), exist_ok=True)
        recorded = starlens.read_manifest(path("frame.exr") + ".manifest.json")
        shutil.copy(path("frame.exr"), path("moved/frame.exr"))
        self.assertTrue(starlens.verify_output(recorded, path("moved/frame.exr")))
        with open(path("frame.exr"), "rb") as file:
            data = bytearray(file.read())
        data[len(data) // 3] ^= 0x01
        with open(path("moved/frame.exr"), "wb") as file:
            file.write(data)
        self.assertFalse(starlens.verify_output(recorded, path("moved/frame.exr")))
        with self.assertRaisesRegex(starlens.FormatError, "frame.exr.manifest.json: outputs: "
                                    "no entry for .*events.sle"):
            starlens.verify_output(recorded, path("events.sle"))

    def test_a_foreign_json_is_refused(self):
        with open(path("other.json"), "w") as file:
            json.dump({"format": "something"}, file)
        with self.assertRaisesRegex(starlens.FormatError,
                                    "other.json: format: 'something' is not 'starlens-manifest'"):
            starlens.read_manifest(path("other.json"))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
