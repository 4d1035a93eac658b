"""Failures a person can act on, each said in one line. No message ever quotes the export's content."""


class ExportError(RuntimeError):
    """The input is missing, unreadable, or not a ChatGPT conversations export."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class CheckpointError(RuntimeError):
    """The checkpoint file exists but belongs to another run or cannot be read or written."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
