"""Work the local stack runs beside the API, such as pollers that turn emulator events into handler
calls (the S3 → SQS → ingest bridge will be one). Each task gets the running stack when it starts
and must return from `stop()` promptly; tasks stop before the servers do.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import boto3

from pandora_devstack.lambda_runtime import LocalFunction
from pandora_devstack.local_config import LocalStackInfo
from pandora_devstack.provision import ProvisionedStack


@dataclass(frozen=True)
class RunningStack:
    info: LocalStackInfo
    provisioned: ProvisionedStack
    functions: Mapping[str, LocalFunction]
    session: boto3.Session


class BackgroundTask(Protocol):
    name: str

    def start(self, stack: RunningStack) -> None: ...

    def stop(self) -> None: ...
