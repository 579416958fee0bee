"""The one exception the readers raise for a file that is not what its format says."""


class FormatError(ValueError):
    """A starlens file is malformed, truncated, corrupt or of another format.

    The message is one line, as the C++ tools print it: ``file: field: reason``.
    ``path``, ``field`` and ``reason`` hold the three parts (``field`` may be empty).
    """

    def __init__(self, path, field, reason):
        self.path = str(path)
        self.field = field
        self.reason = reason
        text = self.path + (": " + field if field else "") + ": " + reason
        super().__init__(text)
