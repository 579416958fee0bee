"""h5py access shared by the lens map and catalogue readers: every failure becomes a
FormatError naming the file and the object."""
import os

from ._modules import require
from .errors import FormatError

np = require("numpy")
h5py = require("h5py")


def open_file(path):
    path = os.fspath(path)
    if os.path.isdir(path):
        raise FormatError(path, "", "is a folder, not an HDF5 file")
    with open(path, "rb"):  # a missing or unreadable file: the usual OSError, with its path
        pass
    try:
        return h5py.File(path, "r")
    except OSError as error:
        raise FormatError(path, "", f"not a readable HDF5 file ({error})") from None


def has_attribute(file, name):
    return name in file.attrs


def attribute(file, name, kind):
    """Root attribute `name` as a Python str, int or float (`kind`)."""
    if name not in file.attrs:
        raise FormatError(file.filename, f"attribute {name}", "missing")
    try:
        value = file.attrs[name]
    except OSError as error:
        raise FormatError(file.filename, f"attribute {name}", f"unreadable ({error})") from None
    if isinstance(value, np.ndarray) and value.shape in ((), (1,)):
        value = value.reshape(())[()]
    if kind is str:
        if isinstance(value, (bytes, np.bytes_)):
            try:
                return bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                raise FormatError(file.filename, f"attribute {name}", "not UTF-8 text") from None
        if isinstance(value, str):
            return value
        raise FormatError(file.filename, f"attribute {name}", "not a string")
    if kind is int:
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        raise FormatError(file.filename, f"attribute {name}", "not an integer")
    if isinstance(value, (float, np.floating, int, np.integer)) and not isinstance(value, bool):
        return float(value)
    raise FormatError(file.filename, f"attribute {name}", "not a number")


def dataset(file, name):
    try:
        node = file[name]
    except KeyError:
        raise FormatError(file.filename, name, "missing") from None
    except OSError as error:
        raise FormatError(file.filename, name, f"unreadable ({error})") from None
    if not isinstance(node, h5py.Dataset):
        raise FormatError(file.filename, name, "not a dataset")
    return node


def read_rows(file, node, first, count, numpy_type):
    """Rows [first, first + count) of `node`, converted by HDF5 to `numpy_type`."""
    try:
        out = np.empty((count,) + node.shape[1:], dtype=numpy_type)
        if count > 0:
            node.read_direct(out, np.s_[first:first + count])
        return out
    except (OSError, ValueError, TypeError) as error:
        raise FormatError(file.filename, node.name,
                          f"unreadable (truncated or corrupt file: {error})") from None
