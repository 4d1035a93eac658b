"""Prints template.yaml as CloudFormation after the SAM transform, offline, for the security scan.

checkov reads SAM resources but not the IAM roles, API stage and Lambda permissions SAM generates
from them, so the scan runs on this output as well. Run it with the SAM tool environment's Python
(`make security` does): the transform ships with the SAM CLI, not with the project.

No call reaches AWS: the template names no managed policies by name, so the policy map can be empty.
"""

import sys
from pathlib import Path

from samcli.lib.translate.sam_template_validator import SamTemplateValidator  # type: ignore[import-not-found]
from samcli.yamlhelper import yaml_parse  # type: ignore[import-not-found]

# Any region renders the template; nothing region-specific is scanned.
REGION = "us-east-1"


class _NoManagedPolicies:
    """Stands in for the loader that asks IAM for managed policy ARNs (it needs credentials)."""

    def load(self) -> dict[str, str]:
        return {}


def translate(template_path: Path) -> str:
    template = yaml_parse(template_path.read_text(encoding="utf-8"))
    validator = SamTemplateValidator(template, _NoManagedPolicies(), region=REGION)
    translated: str = validator.get_translated_template_if_valid()
    return translated


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: sam_translate.py TEMPLATE > translated.yaml", file=sys.stderr)
        return 2
    sys.stdout.write(translate(Path(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
