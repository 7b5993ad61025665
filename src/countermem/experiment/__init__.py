"""Experiments: task selection, runs, run directories, metrics and reports."""

from countermem.experiment._config_reference import (
    config_reference,
    config_sections,
    undocumented_keys,
    write_config_reference,
)
from countermem.experiment._metrics import PerTask, RunMetrics, TokenSplit, compute_metrics
from countermem.experiment._paired import PairedMeasures, Spread, paired_measures, spread
from countermem.experiment._report import write_run_report
from countermem.experiment._rundir import RunDir, package_versions, read_transcript
from countermem.experiment._runner import RunConfig, run_tasks, select_tasks
from countermem.experiment._scripts import oracle_script
from countermem.experiment._significance import PairedTest, mcnemar_exact, paired_bootstrap_ci, paired_test
from countermem.experiment._simulation import (
    DEFAULT_UNIVERSAL_RATE,
    Simulation,
    TaskIndex,
    derive_condition,
    is_generator_prompt,
    simulated_llm_for,
)
from countermem.experiment._stages import StageReport
from countermem.experiment._study_analyses import (
    TRANSFER_CONDITIONS,
    AccumulationPoint,
    AccumulationRun,
    BudgetCell,
    StudyAnalyses,
    TransferCell,
    collect_analyses,
    write_study_folder_report,
)
from countermem.experiment._study_report import (
    BASELINE_METHOD,
    RETENTION_PREFIX,
    STUDY_LAYOUT,
    StudyRow,
    collect_rows,
    domain_of,
    write_study_report,
)

__all__ = [
    "BASELINE_METHOD",
    "DEFAULT_UNIVERSAL_RATE",
    "RETENTION_PREFIX",
    "STUDY_LAYOUT",
    "TRANSFER_CONDITIONS",
    "AccumulationPoint",
    "AccumulationRun",
    "BudgetCell",
    "PairedMeasures",
    "PairedTest",
    "PerTask",
    "RunConfig",
    "RunDir",
    "RunMetrics",
    "Simulation",
    "Spread",
    "StageReport",
    "StudyAnalyses",
    "StudyRow",
    "TaskIndex",
    "TokenSplit",
    "TransferCell",
    "collect_analyses",
    "collect_rows",
    "compute_metrics",
    "config_reference",
    "config_sections",
    "derive_condition",
    "domain_of",
    "is_generator_prompt",
    "mcnemar_exact",
    "oracle_script",
    "package_versions",
    "paired_bootstrap_ci",
    "paired_measures",
    "paired_test",
    "read_transcript",
    "run_tasks",
    "select_tasks",
    "simulated_llm_for",
    "spread",
    "undocumented_keys",
    "write_config_reference",
    "write_run_report",
    "write_study_folder_report",
    "write_study_report",
]
