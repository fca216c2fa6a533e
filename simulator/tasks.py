"""The 32 FileGram tasks: type, active dimensions, and what the input workspace holds.

A task only lets its own dimensions show (the paper's Table 10), so the policies consult
`Task.dims` before acting out a tier. Input specs list file kinds and counts; `layout` says how
the inputs are arranged on disk (flat, grouped into folders, or a messy nest).
"""

from __future__ import annotations

from dataclasses import dataclass

TASK_TYPES = ("understand", "create", "organize", "synthesize", "iterate", "maintain")


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
    query_terms: tuple[str, ...] = ()

    @property
    def input_count(self) -> int:
        return sum(n for _, n in self.inputs)

    @property
    def empty_workspace(self) -> bool:
        return not self.inputs

    def display_title(self, language: str = "en") -> str:
        return _ZH_TITLES.get(self.id, self.title) if language == "zh" else self.title

    def instructions(self, language: str = "en") -> str:
        if language == "zh":
            return f"任务 {self.id}:{_ZH_TITLES.get(self.id, self.title)}。工作区中的文件是你的材料。"
        return f"Task {self.id}: {self.title}. The files in the workspace are your material."


def _spec(s: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in s.split():
        ext, n = part.split(":")
        out.append((ext, int(n)))
    return tuple(out)


_ROWS = [
    # id, type, dims, title, theme, inputs, layout, output stem
    ("T-01", "understand", "A,B", "Investment analyst work overview summary", "finance",
     "md:7 pdf:6 eml:5 txt:5 png:2 csv:1", "grouped", "work_overview"),
    ("T-02", "understand", "A,B,E", "Legal case materials review and timeline", "legal",
     "eml:6 pdf:5 docx:5 txt:3 png:2 xlsx:1 ics:1 wav:1", "grouped", "case_timeline"),
    ("T-03", "create", "B,C", "Personal knowledge base", "knowledge", "", "flat", "knowledge_base"),
    ("T-04", "create", "B,C,F", "Meeting minutes and follow-ups", "project", "", "flat", "meeting_minutes"),
    ("T-05", "organize", "A,C", "Messy folder cleanup and reorganisation", "office",
     "eml:8 png:4 md:4 txt:4 pdf:4 jpg:2 ics:2 csv:1 docx:1", "messy", "folder_index"),
    ("T-06", "synthesize", "A,B,F", "Multi-source research report", "research",
     "pdf:8 eml:6 txt:3 md:3 docx:1", "grouped", "research_report"),
    ("T-07", "synthesize", "A,B", "Diary and notes into a personal profile", "personal",
     "md:10 txt:6 jpg:2", "flat", "personal_profile"),
    ("T-08", "create", "B,C,F", "Quarterly work summary", "project",
     "md:6 csv:2 eml:4 xlsx:1", "flat", "quarterly_summary"),
    ("T-09", "iterate", "D,B", "Report revision and condensation", "research",
     "md:2 txt:2 docx:1", "flat", "report_condensed"),
    ("T-10", "maintain", "D,C,E", "Knowledge base update", "knowledge",
     "md:12 txt:3", "nested", "changelog"),
    ("T-11", "iterate", "D,A", "Multi-file error detection and correction", "project",
     "md:6 csv:2 json:1", "flat", "corrections_log"),
    ("T-12", "iterate", "D,C", "Document format standardisation", "office",
     "md:6 txt:4 docx:2", "flat", "style_guide"),
    ("T-13", "iterate", "D,A,E", "Review feedback integration", "research",
     "md:2 txt:4 eml:3 docx:1", "flat", "revision_notes"),
    ("T-14", "organize", "C,D", "Version management and archiving", "project",
     "md:9 docx:3 txt:2", "flat", "version_log"),
    ("T-15", "synthesize", "A,D,B", "Conflicting reports reconciliation", "finance",
     "md:4 pdf:3 csv:2 eml:2", "grouped", "reconciliation"),
    ("T-16", "understand", "A,E,B,F", "Time-constrained priority triage", "office",
     "eml:10 ics:2 txt:4 md:3 csv:1", "flat", "priority_triage"),
    ("T-17", "understand", "A,C", "File-system health check", "office",
     "md:6 txt:5 csv:2 json:2 pdf:2 png:2 jpg:1", "nested", "health_check"),
    ("T-18", "maintain", "D,E,C", "Three-round incremental knowledge base update", "knowledge",
     "md:10 txt:2", "nested", "update_log"),
    ("T-19", "iterate", "D,B", "Audience adaptation of a document", "research",
     "md:2 txt:1 pdf:1", "flat", "adapted_brief"),
    ("T-20", "create", "B,C,E", "Weekly report system setup", "project", "", "flat", "weekly_report"),
    ("T-21", "organize", "C,A,D", "Cleanup and deduplication", "office",
     "md:8 txt:6 csv:2 pdf:2 jpg:2", "messy", "dedup_report"),
    ("T-22", "understand", "A,F,B", "Film collection catalogue", "media",
     "csv:2 json:2 txt:6 md:3 jpg:6", "grouped", "film_catalogue"),
    ("T-23", "organize", "C,F,A", "Travel photo organisation and album", "travel",
     "jpg:16 png:2 txt:3 md:1", "flat", "travel_album"),
    ("T-24", "synthesize", "A,B,F", "Earnings call analysis (audio + PDF)", "finance",
     "wav:2 pdf:3 txt:2 csv:1 md:1", "flat", "earnings_analysis"),
    ("T-25", "understand", "A,F,B", "Legal multimedia evidence review", "legal",
     "jpg:5 wav:2 pdf:3 eml:4 txt:2 docx:1", "grouped", "evidence_review"),
    ("T-26", "organize", "C,A,F", "Personal digital asset archiving", "personal",
     "jpg:6 png:3 pdf:3 docx:2 xlsx:1 md:3 txt:3 wav:1", "messy", "asset_inventory"),
    ("T-27", "create", "B,F,C", "Student portfolio", "education",
     "md:4 docx:2 png:4 jpg:2 txt:2", "flat", "portfolio"),
    ("T-28", "synthesize", "A,B,F", "Pet care documentation synthesis", "pets",
     "md:4 pdf:3 jpg:4 txt:3 eml:2 csv:1", "flat", "pet_care_guide"),
    ("T-29", "organize", "C,D,A", "Company registration database (~30 PDFs)", "companies",
     "pdf:28 csv:1 txt:1", "flat", "company_register"),
    ("T-30", "iterate", "D,F,A", "Voice memo organisation", "personal",
     "wav:6 txt:6 md:1", "flat", "memo_index"),
    ("T-31", "create", "B,F,C", "Nature video collection curation", "media",
     "jpg:8 json:2 txt:4 csv:1", "flat", "collection_guide"),
    ("T-32", "maintain", "D,A,F", "Cross-modal archive consistency check", "companies",
     "md:4 csv:2 xlsx:1 pdf:3 jpg:3 json:1", "grouped", "consistency_report"),
]

_ZH_TITLES = {
    "T-01": "投资分析师工作概览总结", "T-02": "法律案件材料审阅与时间线", "T-03": "个人知识库",
    "T-04": "会议纪要与后续事项", "T-05": "杂乱文件夹清理与重组", "T-06": "多来源研究报告",
    "T-07": "日记与笔记整理为个人档案", "T-08": "季度工作总结", "T-09": "报告修订与精简",
    "T-10": "知识库更新", "T-11": "多文件错误检查与更正", "T-12": "文档格式统一",
    "T-13": "评审意见整合", "T-14": "版本管理与归档", "T-15": "矛盾报告核对",
    "T-16": "限时优先级分拣", "T-17": "文件系统健康检查", "T-18": "三轮增量知识库更新",
    "T-19": "面向不同读者改写文档", "T-20": "周报体系搭建", "T-21": "清理与去重",
    "T-22": "电影收藏目录", "T-23": "旅行照片整理与相册", "T-24": "财报电话会分析(音频+PDF)",
    "T-25": "法律多媒体证据审阅", "T-26": "个人数字资产归档", "T-27": "学生作品集",
    "T-28": "宠物护理资料整合", "T-29": "公司注册资料库(约30份PDF)", "T-30": "语音备忘整理",
    "T-31": "自然视频收藏策划", "T-32": "跨模态档案一致性检查",
}

TASKS: dict[str, Task] = {
    r[0]: Task(id=r[0], type=r[1], dims=tuple(r[2].split(",")), title=r[3], theme=r[4],
               inputs=_spec(r[5]), layout=r[6], output_stem=r[7])
    for r in _ROWS
}
