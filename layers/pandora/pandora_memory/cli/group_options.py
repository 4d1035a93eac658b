"""Options a command group takes before or after its action: `flags --local show` and `flags show --local`.

Each action's parser gets a copy of the group's options whose defaults are suppressed, so a value given
before the action is not reset by the action's parser, and one given after it still counts.
"""

import argparse
from collections.abc import Callable

# The innermost parser chosen on the command line (its usage is the one an error should show).
ERROR_PARSER = "error_parser"

# Adds the group's options to a parser; `default(value)` gives each option's default for that parser.
OptionAdder = Callable[[argparse.ArgumentParser, Callable[[object], object]], None]


def add_to_group_and_actions(
    group: argparse.ArgumentParser,
    actions: "argparse._SubParsersAction[argparse.ArgumentParser]",
    add_options: OptionAdder,
) -> None:
    add_options(group, lambda value: value)
    for action_parser in actions.choices.values():
        add_options(action_parser, lambda _value: argparse.SUPPRESS)
        remember_for_errors(action_parser)


def remember_for_errors(parser: argparse.ArgumentParser) -> None:
    """The innermost parser's default wins, so the arguments name the (sub)command that was chosen."""
    parser.set_defaults(**{ERROR_PARSER: parser})
