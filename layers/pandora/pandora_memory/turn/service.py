"""The adaptive turn: decide retrieval before an answer and candidates after it, within the flags' gates.

Reads per turn: the flags (cached), for a retrieval the search pointer (one GetItem; the snapshot and
the memories are reloaded only when their generation moved), and for a candidate the review figures
(cached a minute per namespace). Writes at most one conditional put or one transaction. Secrets are
redacted before anything is stored, logged, measured or returned.
"""

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from aws_lambda_powertools import Logger

from pandora_memory.env_config import service_name
from pandora_memory.feedback.summary import NO_FIGURES, FeedbackFigures
from pandora_memory.feedback.tuning import TunedDecision, tune_decision
from pandora_memory.flags import AutopilotMode, FlagSource
from pandora_memory.namespaces import Namespace
from pandora_memory.policy.models import CandidateDecision, CandidateStatus, RetrievalMode, RetrieveDecision
from pandora_memory.policy.rules import policy_version
from pandora_memory.secrets import redact
from pandora_memory.storage.candidates import CandidateRepository
from pandora_memory.storage.capture import AutoCaptureWriter
from pandora_memory.storage.records import CandidateRecord, InboxStatus
from pandora_memory.turn import metric_names as names
from pandora_memory.turn.auth import require_namespace
from pandora_memory.turn.candidate_records import (
    SOURCE,
    Redactor,
    Sanitised,
    candidate_record,
    captured_memory,
    duplicate_preview,
    preview,
    sanitise,
)
from pandora_memory.turn.context_pack import EMPTY_PACK, ContextItem, ContextSource, build_context_pack
from pandora_memory.turn.gates import Gates, may_auto_capture, open_gates
from pandora_memory.turn.metrics import TurnMetrics
from pandora_memory.turn.models import (
    CandidateOutcome,
    CandidatePreview,
    PreviewStatus,
    RetrievalInfo,
    TurnMode,
    TurnRequest,
    TurnResponse,
)
from pandora_memory.turn.namespace_doubts import namespace_doubts

# Named explicitly: a child created before the environment is set would otherwise log nowhere.
logger = Logger(service=service_name(os.environ), child=True)


class RetrievePolicy(Protocol):
    def __call__(
        self,
        user_message: str,
        conversation_type: str | None = None,
        namespace: Namespace | str | None = None,
        current_task: str | None = None,
    ) -> RetrieveDecision: ...


class CandidatePolicy(Protocol):
    def __call__(
        self,
        user_message: str,
        assistant_response: str | None = None,
        namespace: Namespace | str | None = None,
        source: str = SOURCE,
    ) -> CandidateDecision: ...


class FiguresSource(Protocol):
    """Review figures of a namespace (`pandora_memory.feedback.provider.FeedbackFiguresProvider`)."""

    def figures(self, namespace: Namespace) -> FeedbackFigures: ...


# Each mode loads only its own policy, at its first turn: a container that has answered only
# pre_answer turns has never loaded the candidate rules, and the other way round.
@cache
def default_retrieve_policy() -> RetrievePolicy:
    from pandora_memory.policy.retrieve import should_auto_retrieve_memory

    return should_auto_retrieve_memory


@cache
def default_candidate_policy() -> CandidatePolicy:
    from pandora_memory.policy.candidate import should_auto_create_memory_candidate

    return should_auto_create_memory_candidate


@dataclass(frozen=True)
class TurnTuning:
    context_budget_tokens: int = 1500
    auto_capture_min_confidence: float = 0.8


class TurnService:
    def __init__(
        self,
        *,
        flags: FlagSource,
        context_sources: Sequence[ContextSource],
        candidates: CandidateRepository,
        capture: AutoCaptureWriter,
        metrics: TurnMetrics,
        feedback: FiguresSource | None = None,
        retrieve_policy: RetrievePolicy | None = None,
        candidate_policy: CandidatePolicy | None = None,
        redactor: Redactor = redact,
        tuning: TurnTuning = TurnTuning(),
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._flags = flags
        self._sources = tuple(context_sources)
        self._candidates = candidates
        self._capture = capture
        self._metrics = metrics
        self._feedback = feedback
        self._retrieve_policy = retrieve_policy
        self._candidate_policy = candidate_policy
        self._redact = redactor
        self._tuning = tuning
        self._clock = clock

    def run(self, request: TurnRequest, scope: frozenset[Namespace]) -> TurnResponse:
        require_namespace(request.namespace, scope)
        started = self._clock()
        try:
            gates = open_gates(self._flags.current())
            if request.mode is TurnMode.PRE_ANSWER:
                response = self._pre_answer(request, gates)
            else:
                response = self._post_answer(request, gates)
        finally:
            elapsed_ms = (self._clock() - started) * 1000
            self._metrics.turn_latency(mode=request.mode.value, milliseconds=elapsed_ms)
        return response

    # -- before the answer ------------------------------------------------------------------------

    def _pre_answer(self, request: TurnRequest, gates: Gates) -> TurnResponse:
        if not gates.retrieve:
            off = gates.autopilot is AutopilotMode.OFF
            gate = names.REASON_AUTOPILOT_OFF if off else names.REASON_AUTO_RETRIEVE_OFF
            self._metrics.retrieve_decision(retrieve=False, rule_id=gate)
            logger.info("turn decided", extra={"mode": request.mode.value, "retrieve_rule": gate})
            info = RetrievalInfo(
                reason=f"retrieval is switched off ({gate})",
                mode=RetrievalMode.NONE,
                rules=[gate],
                item_count=0,
                estimated_tokens=0,
                truncated=False,
            )
            return self._response(request, gates, retrieval=info)

        retrieve_policy = self._retrieve_policy or default_retrieve_policy()
        decision = retrieve_policy(
            request.user_message, namespace=request.namespace, current_task=request.current_task
        )
        pack = EMPTY_PACK
        if decision.should_retrieve:
            query = " ".join(part for part in (request.user_message, request.current_task) if part)
            items: list[ContextItem] = []
            for source in self._sources:
                items.extend(source.items(request.namespace, query, decision.retrieval_mode))
            pack = build_context_pack(items, request.namespace, self._tuning.context_budget_tokens)
        primary_rule = decision.rules[0] if decision.rules else None
        self._metrics.retrieve_decision(retrieve=decision.should_retrieve, rule_id=primary_rule)
        logger.info(
            "turn decided",
            extra={
                "mode": request.mode.value,
                "namespace": request.namespace.value,
                "retrieve": decision.should_retrieve,
                "retrieve_rules": decision.rules,
                "retrieval_mode": decision.retrieval_mode.value,
                "context_items": len(pack.item_ids),
                "context_sources": list(pack.sources),
            },
        )
        info = RetrievalInfo(
            reason=self._redact(decision.reason).text,
            mode=decision.retrieval_mode if decision.should_retrieve else RetrievalMode.NONE,
            rules=decision.rules,
            item_count=len(pack.item_ids),
            estimated_tokens=pack.estimated_tokens,
            truncated=pack.truncated,
            sources=list(pack.sources),
        )
        return self._response(
            request, gates, retrieval=info, should_retrieve=decision.should_retrieve, context=pack.text
        )

    # -- after the answer -------------------------------------------------------------------------

    def _post_answer(self, request: TurnRequest, gates: Gates) -> TurnResponse:
        if not gates.evaluate_candidates:
            self._record_outcome(request, CandidateOutcome.DISABLED, "none", None)
            return self._response(request, gates)

        candidate_policy = self._candidate_policy or default_candidate_policy()
        proposed = candidate_policy(
            request.user_message,
            assistant_response=request.assistant_draft,
            namespace=request.namespace,
            source=SOURCE,
        )
        tuned = self._tuned(request.namespace, gates, proposed)
        decision = tuned.decision
        clean = sanitise(decision, self._redact, request.user_message)
        warnings = list(gates.warnings)
        if clean.secret:
            kinds = ", ".join(clean.secret_kinds) or "credential"
            warnings.append(f"secret withheld ({kinds}): it is never stored; rotate it if it was real")
        if decision.should_create_candidate:
            warnings += namespace_doubts(request.namespace, request.user_message)

        if decision.status is CandidateStatus.NOT_CANDIDATE and not clean.secret:
            skipped = preview(decision, clean, PreviewStatus.NOT_CANDIDATE, CandidateOutcome.NOT_CANDIDATE)
            self._record_outcome(request, CandidateOutcome.NOT_CANDIDATE, decision.memory_type.value, None)
            return self._response(request, gates, preview=skipped, warnings=warnings)

        record = candidate_record(request.namespace, decision, clean)
        result = self._store(record, tuned, clean, gates)
        self._record_outcome(request, result.outcome, decision.memory_type.value, result)
        return self._response(
            request,
            gates,
            preview=result,
            should_create_candidate=decision.should_create_candidate or clean.secret,
            warnings=warnings,
        )

    def _tuned(self, namespace: Namespace, gates: Gates, decision: CandidateDecision) -> TunedDecision:
        """The reviewers' record adjusts what gets written: figures are read (cached a minute) only for
        a candidate, and only when this turn may write one."""
        proposes = decision.status is CandidateStatus.CANDIDATE and decision.should_create_candidate
        may_write = gates.write_inbox or gates.auto_capture
        figures = NO_FIGURES
        if self._feedback is not None and proposes and may_write:
            figures = self._feedback.figures(namespace)
        tuned = tune_decision(decision, figures)
        if tuned.demoted_by or tuned.promoted_by:
            logger.info(
                "feedback tuned the candidate",
                extra={
                    "namespace": namespace.value,
                    "demoted_by": tuned.demoted_by,
                    "promoted_by": tuned.promoted_by,
                    "suggest_only": tuned.suggest_only,
                },
            )
        return tuned

    def _store(
        self, record: CandidateRecord, tuned: TunedDecision, clean: Sanitised, gates: Gates
    ) -> CandidatePreview:
        """Capture, queue or only preview, as the gates and the feedback allow; a repeat names the
        stored item. A withheld secret keeps its own path: the feedback never hides one."""
        decision = tuned.decision
        if tuned.suggest_only and not clean.secret:
            return preview(decision, clean, PreviewStatus.PREVIEW, CandidateOutcome.SUGGEST_ONLY, record)
        if clean.secret:
            status, outcome = PreviewStatus.BLOCKED_SECRET, CandidateOutcome.BLOCKED_SECRET
        elif record.requires_review:
            status, outcome = PreviewStatus.PENDING_REVIEW, CandidateOutcome.REVIEW_REQUIRED
        else:
            status, outcome = PreviewStatus.PENDING_REVIEW, CandidateOutcome.QUEUED

        capture_allowed = may_auto_capture(
            decision, gates, self._tuning.auto_capture_min_confidence, clean.secret
        )
        if tuned.auto_capture_eligible and capture_allowed:
            record = record.model_copy(update={"status": InboxStatus.AUTO_CAPTURED})
            result = self._capture.capture(captured_memory(record), record)
            status, outcome = PreviewStatus.AUTO_CAPTURED, CandidateOutcome.AUTO_CAPTURED
        elif gates.write_inbox:
            result = self._candidates.add(record)
        else:
            outcome = outcome if clean.secret else CandidateOutcome.SUGGEST_ONLY
            return preview(decision, clean, PreviewStatus.PREVIEW, outcome, record)

        if result.existing is not None:
            return duplicate_preview(record, decision, clean, result.existing)
        return preview(decision, clean, status, outcome, record, stored=True)

    # -- shared -----------------------------------------------------------------------------------

    def _record_outcome(
        self,
        request: TurnRequest,
        outcome: CandidateOutcome,
        memory_type: str,
        preview: CandidatePreview | None,
    ) -> None:
        self._metrics.candidate_outcome(
            outcome=outcome.value, memory_type=memory_type, namespace=request.namespace.value
        )
        logger.info(
            "turn decided",
            extra={
                "mode": request.mode.value,
                "namespace": request.namespace.value,
                "candidate_outcome": outcome.value,
                "candidate_id": preview.id if preview else None,
                "candidate_status": preview.status.value if preview else None,
                "candidate_rules": preview.rules if preview else [],
            },
        )

    @staticmethod
    def _response(
        request: TurnRequest,
        gates: Gates,
        *,
        retrieval: RetrievalInfo | None = None,
        should_retrieve: bool = False,
        context: str = "",
        preview: CandidatePreview | None = None,
        should_create_candidate: bool = False,
        warnings: list[str] | None = None,
    ) -> TurnResponse:
        return TurnResponse(
            namespace=request.namespace,
            mode=request.mode,
            autopilot=gates.autopilot,
            should_retrieve=should_retrieve,
            context=context,
            retrieval=retrieval,
            should_create_candidate=should_create_candidate,
            candidate_preview=preview,
            warnings=list(gates.warnings) if warnings is None else warnings,
            policy_version=policy_version(),
        )
