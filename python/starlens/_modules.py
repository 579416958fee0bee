"""Imports a Debian-packaged module, naming the package to install when it is missing."""
import importlib

DEBIAN_PACKAGES = {
    "numpy": "python3-numpy",
    "h5py": "python3-h5py",
    "astropy": "python3-astropy",
    "OpenImageIO": "python3-openimageio",
    "xxhash": "python3-xxhash",
    "matplotlib": "python3-matplotlib",
}


def require(name):
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ImportError(
            f"starlens needs the module {name} (Debian package "
            f"{DEBIAN_PACKAGES[name.split('.')[0]]}; "
            f"`make deps` installs it for /usr/bin/python3): {error}"
        ) from error
