"""The 32 FileGram tasks: type, active dimensions, and what the input workspace holds.

A task only lets its own dimensions show (the paper's Table 10), so the policies consult
`Task.dims` before acting out a tier. The type and the active dimensions are the core's
vocabulary (filegram.vocab.TASKS); what is the simulator's own is the workspace: input specs
list file kinds and counts, `layout` says how the inputs are arranged on disk (flat, grouped
into folders, or a messy nest), and each task has a title in English and Chinese.
"""

from __future__ import annotations

from dataclasses import dataclass

from filegram.vocab import TASK_TYPES
from filegram.vocab import TASKS as TASK_CATALOGUE

__all__ = ["TASKS", "TASK_TYPES", "Task"]


@dataclass(frozen=True)
class Task:
    id: str
    type: str
    dims: tuple[str, ...]
    title: str
    theme: str
    inputs: tuple[tuple[str, int], ...]  # (extension, count)
    layout: str = "flat"  # flat | grouped | messy | nested
    output_stem: str = "summary"
    zh_title: str = ""

    @property
    def input_count(self) -> int:
        return sum(n for _, n in self.inputs)

    @property
    def empty_workspace(self) -> bool:
        return not self.inputs

    def display_title(self, language: str = "en") -> str:
        return (self.zh_title or self.title) if language == "zh" else self.title

    def instructions(self, language: str = "en") -> str:
        if language == "zh":
            return f"任务 {self.id}:{self.zh_title or self.title}。工作区中的文件是你的材料。"
        return f"Task {self.id}: {self.title}. The files in the workspace are your material."


def _spec(s: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in s.split():
        ext, n = part.split(":")
        out.append((ext, int(n)))
    return tuple(out)


# id | title | theme | inputs (extension:count, "-" for an empty workspace) | layout | output stem | Chinese title
_TABLE = """
    T-01 | Investment analyst work overview summary      | finance   | md:7 pdf:6 eml:5 txt:5 png:2 csv:1                    | grouped | work_overview      | 投资分析师工作概览总结
    T-02 | Legal case materials review and timeline      | legal     | eml:6 pdf:5 docx:5 txt:3 png:2 xlsx:1 ics:1 wav:1     | grouped | case_timeline      | 法律案件材料审阅与时间线
    T-03 | Personal knowledge base                       | knowledge | -                                                     | flat    | knowledge_base     | 个人知识库
    T-04 | Meeting minutes and follow-ups                | project   | -                                                     | flat    | meeting_minutes    | 会议纪要与后续事项
    T-05 | Messy folder cleanup and reorganisation       | office    | eml:8 png:4 md:4 txt:4 pdf:4 jpg:2 ics:2 csv:1 docx:1 | messy   | folder_index       | 杂乱文件夹清理与重组
    T-06 | Multi-source research report                  | research  | pdf:8 eml:6 txt:3 md:3 docx:1                         | grouped | research_report    | 多来源研究报告
    T-07 | Diary and notes into a personal profile       | personal  | md:10 txt:6 jpg:2                                     | flat    | personal_profile   | 日记与笔记整理为个人档案
    T-08 | Quarterly work summary                        | project   | md:6 csv:2 eml:4 xlsx:1                               | flat    | quarterly_summary  | 季度工作总结
    T-09 | Report revision and condensation              | research  | md:2 txt:2 docx:1                                     | flat    | report_condensed   | 报告修订与精简
    T-10 | Knowledge base update                         | knowledge | md:12 txt:3                                           | nested  | changelog          | 知识库更新
    T-11 | Multi-file error detection and correction     | project   | md:6 csv:2 json:1                                     | flat    | corrections_log    | 多文件错误检查与更正
    T-12 | Document format standardisation               | office    | md:6 txt:4 docx:2                                     | flat    | style_guide        | 文档格式统一
    T-13 | Review feedback integration                   | research  | md:2 txt:4 eml:3 docx:1                               | flat    | revision_notes     | 评审意见整合
    T-14 | Version management and archiving              | project   | md:9 docx:3 txt:2                                     | flat    | version_log        | 版本管理与归档
    T-15 | Conflicting reports reconciliation            | finance   | md:4 pdf:3 csv:2 eml:2                                | grouped | reconciliation     | 矛盾报告核对
    T-16 | Time-constrained priority triage              | office    | eml:10 ics:2 txt:4 md:3 csv:1                         | flat    | priority_triage    | 限时优先级分拣
    T-17 | File-system health check                      | office    | md:6 txt:5 csv:2 json:2 pdf:2 png:2 jpg:1             | nested  | health_check       | 文件系统健康检查
    T-18 | Three-round incremental knowledge base update | knowledge | md:10 txt:2                                           | nested  | update_log         | 三轮增量知识库更新
    T-19 | Audience adaptation of a document             | research  | md:2 txt:1 pdf:1                                      | flat    | adapted_brief      | 面向不同读者改写文档
    T-20 | Weekly report system setup                    | project   | -                                                     | flat    | weekly_report      | 周报体系搭建
    T-21 | Cleanup and deduplication                     | office    | md:8 txt:6 csv:2 pdf:2 jpg:2                          | messy   | dedup_report       | 清理与去重
    T-22 | Film collection catalogue                     | media     | csv:2 json:2 txt:6 md:3 jpg:6                         | grouped | film_catalogue     | 电影收藏目录
    T-23 | Travel photo organisation and album           | travel    | jpg:16 png:2 txt:3 md:1                               | flat    | travel_album       | 旅行照片整理与相册
    T-24 | Earnings call analysis (audio + PDF)          | finance   | wav:2 pdf:3 txt:2 csv:1 md:1                          | flat    | earnings_analysis  | 财报电话会分析(音频+PDF)
    T-25 | Legal multimedia evidence review              | legal     | jpg:5 wav:2 pdf:3 eml:4 txt:2 docx:1                  | grouped | evidence_review    | 法律多媒体证据审阅
    T-26 | Personal digital asset archiving              | personal  | jpg:6 png:3 pdf:3 docx:2 xlsx:1 md:3 txt:3 wav:1      | messy   | asset_inventory    | 个人数字资产归档
    T-27 | Student portfolio                             | education | md:4 docx:2 png:4 jpg:2 txt:2                         | flat    | portfolio          | 学生作品集
    T-28 | Pet care documentation synthesis              | pets      | md:4 pdf:3 jpg:4 txt:3 eml:2 csv:1                    | flat    | pet_care_guide     | 宠物护理资料整合
    T-29 | Company registration database (~30 PDFs)      | companies | pdf:28 csv:1 txt:1                                    | flat    | company_register   | 公司注册资料库(约30份PDF)
    T-30 | Voice memo organisation                       | personal  | wav:6 txt:6 md:1                                      | flat    | memo_index         | 语音备忘整理
    T-31 | Nature video collection curation              | media     | jpg:8 json:2 txt:4 csv:1                              | flat    | collection_guide   | 自然视频收藏策划
    T-32 | Cross-modal archive consistency check         | companies | md:4 csv:2 xlsx:1 pdf:3 jpg:3 json:1                  | grouped | consistency_report | 跨模态档案一致性检查
"""


def _parse_table() -> dict[str, Task]:
    out: dict[str, Task] = {}
    for line in _TABLE.strip().splitlines():
        tid, title, theme, inputs, layout, stem, zh_title = (c.strip() for c in line.split("|"))
        info = TASK_CATALOGUE[tid]
        out[tid] = Task(id=tid, type=info.type, dims=info.dims, title=title, theme=theme,
                        inputs=_spec("" if inputs == "-" else inputs), layout=layout, output_stem=stem,
                        zh_title=zh_title)
    return out


TASKS: dict[str, Task] = _parse_table()
