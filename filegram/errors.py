"""The one error family the CLI turns into a single clear line and a non-zero exit."""


class FileGramError(Exception):
    """A problem the user can act on; str(error) is one line."""
