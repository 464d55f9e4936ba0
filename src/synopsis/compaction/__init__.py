"""Compaction: cut points, preparation, serialization and file tracking."""

from synopsis.compaction.cut_points import (
    CutPoint,
    find_cut_point,
    find_turn_start,
    is_cut_point,
    is_turn_start,
)
from synopsis.compaction.file_ops import FileOperations, format_file_lists
from synopsis.compaction.prepare import (
    CompactionPreparation,
    CompactionRange,
    compaction_range,
    plan_cut,
    prepare_compaction,
)
from synopsis.compaction.serialize import iter_serialized_parts, serialize_conversation
from synopsis.compaction.settings import CompactionSettings

__all__ = [
    "CompactionPreparation",
    "CompactionRange",
    "CompactionSettings",
    "CutPoint",
    "FileOperations",
    "compaction_range",
    "find_cut_point",
    "find_turn_start",
    "format_file_lists",
    "is_cut_point",
    "is_turn_start",
    "iter_serialized_parts",
    "plan_cut",
    "prepare_compaction",
    "serialize_conversation",
]
