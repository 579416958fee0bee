"""<output>.manifest.json (docs/formats/manifest.md): reading one and checking an output's hash."""
import hashlib
import json
import os

from .errors import FormatError

TREE_BLOCK_BYTES = 4 << 20  # the tree hash's 4 MiB blocks
KNOWN_VERSIONS = (1, 2)


def tree_sha256(path):
    """The file's ``sha256-tree-4MiB`` hash: SHA-256 over the SHA-256 digests of its 4 MiB
    blocks, as 64 lowercase hex digits (an empty file: the SHA-256 of nothing)."""
    digests = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(TREE_BLOCK_BYTES):
            digests.update(hashlib.sha256(block).digest())
    return digests.hexdigest()


def plain_sha256(path):
    """SHA-256 of the whole file (the hash of version 1 manifests)."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(TREE_BLOCK_BYTES):
            digest.update(block)
    return digest.hexdigest()


class Manifest(dict):
    """A manifest's JSON object; ``path`` is the file it was read from."""

    path = "manifest"


def read_manifest(path):
    """The manifest as a dict (a Manifest: the JSON as written, and ``path``), after checking
    that it is a starlens manifest of a known ``format_version`` with ``inputs`` and
    ``outputs`` entries. FormatError otherwise."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as file:
            manifest = json.loads(file.read().decode("utf-8"))
    except UnicodeDecodeError as error:
        raise FormatError(path, "", f"not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise FormatError(path, "", f"not JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(manifest, dict):
        raise FormatError(path, "", "not a JSON object")
    if manifest.get("format") != "starlens-manifest":
        raise FormatError(path, "format", f"{manifest.get('format')!r} is not 'starlens-manifest'")
    version = manifest.get("format_version")
    if version not in KNOWN_VERSIONS:
        raise FormatError(path, "format_version",
                          f"{version!r} unsupported (this reader knows 1, 2)")
    for section in ("inputs", "outputs"):
        entries = manifest.get(section)
        if not isinstance(entries, list) or not all(
                isinstance(entry, dict) and "path" in entry for entry in entries):
            raise FormatError(path, section, "not a list of entries with a path")
    result = Manifest(manifest)
    result.path = path
    return result


def _entry_for(manifest, path):
    """The outputs entry that names `path` (resolved against the manifest's cwd), else the
    only entry with the same file name."""
    cwd = manifest.get("cwd") or os.getcwd()
    wanted = os.path.realpath(path)
    outputs = manifest["outputs"]
    for entry in outputs:
        if os.path.realpath(os.path.join(cwd, entry["path"])) == wanted:
            return entry
    same_name = [e for e in outputs if os.path.basename(e["path"]) == os.path.basename(path)]
    if len(same_name) == 1:
        return same_name[0]
    names = ", ".join(e["path"] for e in outputs) or "none"
    raise FormatError(getattr(manifest, "path", "manifest"), "outputs",
                      f"no entry for {path} (outputs: {names})")


def verify_output(manifest, path):
    """True when the file at `path` has the size and hash its entry in the manifest's
    ``outputs`` records (tree hash for version 2, plain SHA-256 for version 1), False when it
    differs. `manifest`: a dict from read_manifest or the manifest's path."""
    if not isinstance(manifest, dict):
        manifest = read_manifest(manifest)
    entry = _entry_for(manifest, os.fspath(path))
    where = getattr(manifest, "path", "manifest")
    if "size" in entry and os.stat(path).st_size != entry["size"]:
        return False
    if manifest["format_version"] == 1:
        if "sha256" not in entry:
            raise FormatError(where, f"outputs {entry['path']}", "no sha256")
        return plain_sha256(path) == entry["sha256"]
    scheme = entry.get("hash")
    if scheme != "sha256-tree-4MiB" or "sha256_tree" not in entry:
        raise FormatError(where, f"outputs {entry['path']}: hash",
                          f"{scheme!r}: this reader checks only 'sha256-tree-4MiB'")
    return tree_sha256(path) == entry["sha256_tree"]
